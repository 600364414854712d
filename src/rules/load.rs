//! Loads rule files: TOML is parsed with spans, validated against
//! `schemas/rules.schema.json` (compiled into the binary) before it is deserialised,
//! then deserialised into [`RuleFile`] and its `include`s followed. Every error points
//! at the file, line and column it is about.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;
use toml::de::{DeTable, DeValue};

use super::model::{FactRule, RuleFile};
use crate::checks::bounds::cfg::BoundsRule;
use crate::checks::cites::cfg::CitesRule;
use crate::checks::retired::cfg::RetiredRule;
use crate::checks::{CheckId, Level};
use crate::error::{Error, Result};
use crate::facts::{FactKind, FactParams};
use crate::local_file::{self, LocalText};
use crate::validation::{BorrowedJson, Document, LoadedSchema, SchemaSet};

pub(crate) use crate::checks::check_id;
pub use crate::constants::ConstantDecl;
pub use crate::source::RuleSource;

/// The rule-file schema, as published in `schemas/`.
pub const RULES_SCHEMA: &str = include_str!("../../schemas/rules.schema.json");

/// The most bytes the rule files hold together, includes followed: every
/// list they give (facts, `[[ignore]]`, `[[retired]]`) is bounded by it.
pub const RULE_SET_CAP: usize = 4 * crate::local_file::RULE_FILE_CAP;

/// The most `[[ignore]]` entries the rule files hold together.
pub const MAX_IGNORES: usize = 10_000;

/// Rule packs shipped with recount: (id, text). The id is the file name in `rules/`.
pub const PACKS: &[(&str, &str)] = &[("adr-0031", include_str!("../../rules/adr-0031.toml"))];

/// A `[[fact]]` as loaded: its shared keys, and its parameters typed by its kind.
#[derive(Debug)]
pub struct LoadedFact {
    pub origin: usize,
    pub rule: FactRule,
    pub params: FactParams,
    /// Span of the kind key's value.
    pub kind_span: Range<usize>,
}

/// Every rule file of a run, merged: the sources for diagnostics, and the
/// settings, constants and facts, each remembering which source it came from.
#[derive(Debug, Default)]
pub struct RuleSet {
    pub sources: Vec<RuleSource>,
    pub records: Vec<(String, usize, Range<usize>)>,
    pub constants: BTreeMap<String, ConstantDecl>,
    pub facts: Vec<LoadedFact>,
    /// The `[cites]` table of the first file that has one.
    pub cites: Option<(usize, CitesRule)>,
    pub retired: Vec<(usize, RetiredRule)>,
    pub bounds: Vec<(usize, BoundsRule)>,
    /// The main line, from the first file that names one.
    pub main: Option<(usize, toml::Spanned<String>)>,
    /// `[recount].transcripts`, from the first file that sets it.
    pub transcripts: Option<bool>,
    /// `[recount].url`, from the first file that sets it.
    pub url: Option<(usize, toml::Spanned<String>)>,
    /// `[checks]` levels by check id; for an id several files set, the first
    /// loaded (the including file before what it includes).
    pub checks: BTreeMap<CheckId, Level>,
    /// Every file's `[[ignore]]` entries, in load order.
    pub ignores: Vec<(usize, toml::Spanned<crate::checks::ignores::IgnoreRule>)>,
}

/// Where included rule files may come from: the repository's working tree.
///
/// A rule file is text a pull request controls, and a rule-file error shows the
/// file it is about, so an include that could name any file on the machine
/// (`/proc/self/environ`, a runner's credentials) would print it into a public CI
/// log. Only the paths given on the command line may lie outside; an include is
/// a path inside the repository, reached through no symbolic link and not under
/// `.git`, or the id of a shipped pack.
#[derive(Debug, Clone)]
pub struct Confinement {
    /// The repository's working tree, canonical (`None` for a bare repository,
    /// where no include path is allowed).
    root: Option<PathBuf>,
}

impl Confinement {
    /// Confines includes to the working tree at `root`.
    pub fn new(root: Option<&Path>) -> Self {
        Confinement {
            root: root.map(|r| r.canonicalize().unwrap_or_else(|_| r.to_path_buf())),
        }
    }

    /// How a path is named in messages: relative to the repository when inside it.
    fn shown(&self, path: &Path) -> String {
        let relative = self.root.as_deref().and_then(|r| path.strip_prefix(r).ok());
        relative.unwrap_or(path).display().to_string()
    }

    /// The file an include names, from the folder of the file that includes it
    /// (`None` for a pack: from the repository root). Nothing of the target is
    /// read here; an `Err` says why the path is refused, in words about the path.
    fn resolve(&self, from_dir: Option<&Path>, wanted: &str) -> Result<PathBuf, String> {
        let Some(root) = &self.root else {
            return Err("there is no working tree to include rule files from".into());
        };
        let relative = Path::new(wanted);
        if relative.has_root() || relative.is_absolute() || wanted.starts_with('\\') {
            return Err(
                "it is an absolute path; an include is a path inside the repository".into(),
            );
        }
        if !wanted.ends_with(".toml") {
            return Err("a rule file's name ends in .toml".into());
        }
        let mut resolved = PathBuf::new();
        for component in from_dir.unwrap_or(root).join(relative).components() {
            match component {
                Component::ParentDir => {
                    if !resolved.pop() {
                        return Err("it leaves the repository".into());
                    }
                }
                Component::CurDir => {}
                other => resolved.push(other),
            }
        }
        let Ok(inside) = resolved.strip_prefix(root) else {
            return Err("it leaves the repository".into());
        };
        if inside
            .components()
            .any(|c| c.as_os_str().eq_ignore_ascii_case(".git"))
        {
            return Err("it is inside .git, which is not one of the repository's files".into());
        }
        // Links on the way are the reader's to judge (`local_file`): followed
        // only while they stay inside the working tree.
        Ok(resolved)
    }
}

/// Loads the given rule files and everything they include, confining includes to
/// the working tree at `root`.
pub fn load_rules(paths: &[PathBuf], root: Option<&Path>) -> Result<RuleSet> {
    let confinement = Confinement::new(root);
    let mut set = RuleSet::default();
    let mut loading = Loading::default();
    for path in paths {
        // A path inside the working tree (the discovered recount.toml, a
        // `--rules rules/ci.toml` of the workflow) follows no link out of it; one
        // outside is the workflow's own. Each is known by where it resolves.
        let LocalText { text, canonical } =
            local_file::read_text(path, root, local_file::RULE_FILE_CAP, "rule file").map_err(
                |why| {
                    let shown = crate::escape::untrusted(
                        &path.display().to_string(),
                        crate::escape::VALUE_CAP,
                    )
                    .into_owned();
                    Error::plain(format!("cannot read rule file {shown}: {why}"))
                },
            )?;
        load_one(
            &mut set,
            &mut loading,
            &confinement,
            Loaded {
                key: canonical.display().to_string(),
                source: RuleSource::new(path.display().to_string(), text),
                dir: canonical.parent().map(Path::to_path_buf),
            },
        )?;
    }
    let mut ids: BTreeMap<String, (usize, Range<usize>)> = BTreeMap::new();
    for LoadedFact {
        origin, rule: fact, ..
    } in &set.facts
    {
        if let Some((first, first_span)) =
            ids.insert(fact.id.get_ref().clone(), (*origin, fact.id.span()))
        {
            let (line, col) = set.sources[first].line_col(first_span.start);
            return Err(set.sources[*origin]
                .error(
                    fact.id.span(),
                    format!("fact id `{}` is defined twice", fact.id.get_ref()),
                    "second definition",
                )
                .with_help(format!(
                    "first defined at {}:{line}:{col}",
                    set.sources[first].name
                )));
        }
    }
    Ok(set)
}

/// Parses the text of a rule file from a string, as `load_rules` does for a
/// file (used for packs and by tests). It has no folder and no repository, so
/// an include path in it is refused; pack ids are followed.
pub fn load_text(name: &str, text: &str) -> Result<RuleSet> {
    let mut set = RuleSet::default();
    load_one(
        &mut set,
        &mut Loading::default(),
        &Confinement { root: None },
        Loaded {
            key: name.to_owned(),
            source: RuleSource::new(name.to_owned(), text.to_owned()),
            dir: None,
        },
    )?;
    Ok(set)
}

/// The include walk's state: the files loaded, and the chain being loaded now.
#[derive(Debug, Default)]
struct Loading {
    /// Keys (normalised paths, `pack:ID`) of every file loaded or being loaded.
    seen: Vec<String>,
    /// The files whose includes are being followed, outermost first: (key, name).
    chain: Vec<(String, String)>,
}

/// A rule file read and about to be loaded.
struct Loaded {
    /// Its identity: its canonical (or normalised) path, or `pack:ID`.
    key: String,
    source: RuleSource,
    /// The folder its include paths are relative to (`None`: the repository root).
    dir: Option<PathBuf>,
}

fn load_one(
    set: &mut RuleSet,
    loading: &mut Loading,
    confinement: &Confinement,
    loaded: Loaded,
) -> Result<()> {
    // A file reached again by another route (a diamond) is loaded once; a file
    // reached from itself is a cycle, refused where it is included (below).
    if loading.seen.contains(&loaded.key) {
        return Ok(());
    }
    loading.seen.push(loaded.key.clone());
    let Loaded { key, source, dir } = loaded;
    let (file, params) = parse_validated(&source)?;
    let origin = set.sources.len();
    let includes: Vec<_> = file.recount.include.clone();
    loading.chain.push((key, source.name.clone()));
    set.sources.push(source);
    for glob in &file.recount.records {
        set.records
            .push((glob.get_ref().clone(), origin, glob.span()));
    }
    for (name, decl) in &file.constants {
        let span = decl.span();
        let decl = decl.get_ref();
        let source_name = decl
            .name
            .as_ref()
            .map_or_else(|| name.clone(), |n| n.get_ref().clone());
        set.constants.insert(
            name.clone(),
            ConstantDecl {
                file: decl.file.get_ref().clone(),
                source_name,
                origin,
                span,
            },
        );
    }
    set.facts.extend(
        file.fact
            .into_iter()
            .zip(params)
            .map(|(rule, (params, kind_span))| LoadedFact {
                origin,
                rule,
                params,
                kind_span,
            }),
    );
    if set.cites.is_none() {
        set.cites = file.cites.map(|c| (origin, c));
    }
    set.retired
        .extend(file.retired.into_iter().map(|r| (origin, r)));
    set.bounds
        .extend(file.bounds.into_iter().map(|b| (origin, b)));
    if let Some(over) = file
        .ignore
        .get(MAX_IGNORES.saturating_sub(set.ignores.len()))
    {
        return Err(set.sources[origin].error(
            over.span(),
            format!("past the {MAX_IGNORES} `[[ignore]]` entries the rule files may hold together"),
            "one entry too many",
        ));
    }
    set.ignores
        .extend(file.ignore.into_iter().map(|i| (origin, i)));
    if set.main.is_none() {
        set.main = file.recount.main.clone().map(|m| (origin, m));
    }
    if set.transcripts.is_none() {
        set.transcripts = file.recount.transcripts;
    }
    if set.url.is_none() {
        set.url = file.recount.url.clone().map(|u| (origin, u));
    }
    for (id, level) in &file.checks {
        // The schema admits only check ids; this holds if the two ever part.
        let check = check_id(&set.sources[origin], id)?;
        set.checks.entry(check).or_insert(*level.get_ref());
    }
    for include in includes {
        let next = include_target(set, loading, confinement, origin, dir.as_deref(), &include)?;
        let loaded: usize = set.sources.iter().map(|s| s.text.len()).sum();
        if !loading.seen.contains(&next.key) && loaded + next.source.text.len() > RULE_SET_CAP {
            return Err(set.sources[origin]
                .error(
                    include.span(),
                    format!(
                        "this include takes the rule files past the {} MiB they may hold together",
                        RULE_SET_CAP >> 20
                    ),
                    "included here",
                )
                .with_help(
                    "each rule file may hold 1 MiB, and all of them, includes followed, 4 MiB",
                ));
        }
        load_one(set, loading, confinement, next)?;
    }
    loading.chain.pop();
    Ok(())
}

/// Reads what one `include` entry names: a shipped pack, or a rule file inside
/// the repository. Every refusal is located at the entry and says why in words
/// about the path; nothing of the target is read before it is allowed.
fn include_target(
    set: &RuleSet,
    loading: &Loading,
    confinement: &Confinement,
    origin: usize,
    dir: Option<&Path>,
    include: &toml::Spanned<String>,
) -> Result<Loaded> {
    let wanted = include.get_ref();
    let at = &set.sources[origin];
    let shown = crate::escape::untrusted(wanted, crate::escape::VALUE_CAP);
    if !(wanted.ends_with(".toml") || wanted.contains('/') || wanted.contains('\\')) {
        let Some((_, text)) = PACKS.iter().find(|(id, _)| id == wanted) else {
            let known: Vec<_> = PACKS.iter().map(|(id, _)| *id).collect();
            return Err(at
                .error(
                    include.span(),
                    format!("no rule pack named `{shown}`"),
                    "unknown pack",
                )
                .with_help(format!(
                    "{}shipped packs: {}; a path to a rule file must end in .toml",
                    crate::spelling::did_you_mean(wanted, &known),
                    known.join(", ")
                )));
        };
        let key = format!("pack:{wanted}");
        check_cycle(at, loading, confinement, &key, include)?;
        return Ok(Loaded {
            source: RuleSource::new(key.clone(), (*text).to_owned()),
            key,
            dir: None,
        });
    }
    let path = confinement.resolve(dir, wanted).map_err(|why| {
        at.error(
            include.span(),
            format!("cannot include `{shown}`: {why}"),
            "included here",
        )
        .with_help(
            "an include is a .toml file inside the repository (relative to the including \
             file) or a shipped pack id; only --rules may name a file elsewhere",
        )
    })?;
    let LocalText { text, canonical } = local_file::read_text(
        &path,
        confinement.root.as_deref(),
        local_file::RULE_FILE_CAP,
        "rule file",
    )
    .map_err(|why| {
        at.error(
            include.span(),
            format!("cannot read included rule file `{shown}`: {why}"),
            "included here",
        )
    })?;
    // Known by where it resolves, so two routes to one file (a link, `../`) are
    // one file; named in messages by the path the include wrote.
    let key = canonical.display().to_string();
    check_cycle(at, loading, confinement, &key, include)?;
    Ok(Loaded {
        source: RuleSource::new(path.display().to_string(), text),
        key,
        dir: path.parent().map(Path::to_path_buf),
    })
}

/// Refuses an include that names a file whose includes are being followed: the
/// chain from it back to itself.
fn check_cycle(
    at: &RuleSource,
    loading: &Loading,
    confinement: &Confinement,
    key: &str,
    include: &toml::Spanned<String>,
) -> Result<()> {
    let Some(first) = loading.chain.iter().position(|(k, _)| k == key) else {
        return Ok(());
    };
    let shown = |(_, name): &(String, String)| {
        let name = confinement.shown(Path::new(name));
        crate::escape::untrusted(&name, crate::escape::VALUE_CAP).into_owned()
    };
    let mut names: Vec<String> = loading.chain[first..].iter().map(shown).collect();
    names.push(shown(&loading.chain[first]));
    Err(at
        .error(
            include.span(),
            format!("include cycle: {}", names.join(" -> ")),
            "includes a file that includes this one",
        )
        .with_help("a rule file cannot include itself, directly or through others"))
}

/// A fact's typed parameters and the span of its kind key's value.
type KindParams = (FactParams, Range<usize>);

/// TOML -> schema validation -> serde, each failure located. Each fact's
/// parameters are deserialised by its kind from the same parse, spans intact.
fn parse_validated(source: &RuleSource) -> Result<(RuleFile, Vec<KindParams>)> {
    let document = DeTable::parse(&source.text).map_err(|e| toml_error(source, &e))?;
    let table = rules_table(source, document)?;
    let mut spans = BTreeMap::new();
    let json = table_to_json(table.get_ref(), String::new(), &mut spans);
    spans.insert(String::new(), (table.span(), table.span()));
    let document = Document::from(&json);
    if let Some(error) = schema_validator()?.iter_errors(&document).next() {
        return Err(schema_error(source, &error, &spans));
    }
    // Deserialized from the table itself, so every span is the file's own
    // (in a pyproject.toml, inside its `[tool.recount]`).
    let whole = toml::Spanned::new(table.span(), DeValue::Table(table.get_ref().clone()));
    let file =
        <RuleFile as serde::Deserialize>::deserialize(toml::de::ValueDeserializer::from(whole))
            .map_err(|e| toml_error(source, &e))?;
    let facts: Vec<&toml::Spanned<DeValue<'_>>> =
        match table.get_ref().get("fact").map(|v| v.get_ref()) {
            Some(DeValue::Array(facts)) => facts.iter().collect(),
            _ => Vec::new(),
        };
    let params = file
        .fact
        .iter()
        .zip(facts)
        .map(|(rule, table)| fact_params(source, rule, table))
        .collect::<Result<Vec<_>>>()?;
    Ok((file, params))
}

/// The rule file of the working tree at `root`, where Python and Rust tools
/// keep theirs (ruff's order): `.recount.toml`, else `recount.toml`, else a
/// `pyproject.toml` that has a `[tool.recount]` table. A pyproject.toml is read
/// as any rule file is (never through a link out of the tree); one that is
/// not TOML is the rules' only when it names `tool.recount` (its error is
/// then reported where it is).
pub fn discovered(root: &Path) -> Option<PathBuf> {
    for name in [".recount.toml", "recount.toml"] {
        let path = root.join(name);
        if path.is_file() {
            return Some(path);
        }
    }
    let path = root.join("pyproject.toml");
    let read =
        local_file::read_text(&path, Some(root), local_file::RULE_FILE_CAP, "rule file").ok()?;
    let holds_rules = match toml::from_str::<toml::Table>(&read.text) {
        Ok(table) => table
            .get("tool")
            .and_then(toml::Value::as_table)
            .is_some_and(|tool| tool.contains_key("recount")),
        Err(_) => read.text.contains("tool.recount"),
    };
    holds_rules.then_some(path)
}

/// Whether the rule file at `name` is a `pyproject.toml`, whose rules are its
/// `[tool.recount]` table (as ruff's are its `[tool.ruff]`).
pub fn is_pyproject(name: &str) -> bool {
    Path::new(name)
        .file_name()
        .is_some_and(|f| f == "pyproject.toml")
}

/// The table the rules are: the whole file, or a `pyproject.toml`'s
/// `[tool.recount]`.
fn rules_table<'t>(
    source: &RuleSource,
    document: toml::Spanned<DeTable<'t>>,
) -> Result<toml::Spanned<DeTable<'t>>> {
    if !is_pyproject(&source.name) {
        return Ok(document);
    }
    let span = document.span();
    let mut top = document.into_inner();
    let tool = match top.remove("tool").map(toml::Spanned::into_inner) {
        Some(DeValue::Table(tool)) => Some(tool),
        _ => None,
    };
    match tool.and_then(|mut tool| tool.remove("recount")) {
        Some(recount) => {
            let at = recount.span();
            match recount.into_inner() {
                DeValue::Table(table) => Ok(toml::Spanned::new(at, table)),
                _ => Err(source.error(at, "`tool.recount` must be a table", "here")),
            }
        }
        None => Err(source
            .error(span.start..span.start, "this pyproject.toml has no [tool.recount] table", "here")
            .with_help("add the rules under [tool.recount] (its [tool.recount.recount], [[tool.recount.fact]], [tool.recount.cites] …), or name a recount.toml")),
    }
}

/// The parameters of one `[[fact]]`: every key but the shared ones, handed to
/// the kind whose key is present.
fn fact_params(
    source: &RuleSource,
    rule: &FactRule,
    fact: &toml::Spanned<DeValue<'_>>,
) -> Result<KindParams> {
    let no_kind = || {
        source
            .error(
                rule.id.span(),
                format!("fact `{}` needs exactly one kind key", rule.id.get_ref()),
                "fact",
            )
            .with_help(format!("kind keys: {}", FactKind::NAMES.join(", ")))
    };
    let DeValue::Table(table) = fact.get_ref() else {
        return Err(no_kind());
    };
    let kinds: Vec<(&str, Range<usize>)> = table
        .iter()
        .map(|(k, v)| (&**k.get_ref(), v.span()))
        .filter(|(k, _)| FactKind::NAMES.contains(k))
        .collect();
    let [(kind, kind_span)] = kinds.as_slice() else {
        return Err(no_kind());
    };
    let mut params = DeTable::new();
    for (key, value) in table {
        if !FactRule::SHARED_KEYS.contains(&&**key.get_ref()) {
            params.insert(key.clone(), value.clone());
        }
    }
    let value = toml::Spanned::new(fact.span(), DeValue::Table(params));
    FactParams::deserialize(kind, toml::de::ValueDeserializer::from(value), source)
        .unwrap_or_else(|| Err(no_kind()))
        .map(|params| (params, kind_span.clone()))
}

fn toml_error(source: &RuleSource, e: &toml::de::Error) -> Error {
    let span = e.span().unwrap_or(0..0);
    source.error(
        span,
        format!("invalid rule file: {}", e.message().trim()),
        "here",
    )
}

/// Compiles the rules schema now, so a caller can do it on another core while it
/// opens the repository.
pub fn warm_up() {
    let _ = schema_validator();
}

/// The rules schema, loaded through recount's own validation core (an offline
/// schema set: no reference can leave it).
fn schema_validator() -> Result<&'static jsonschema::Validator<BorrowedJson>> {
    static SET: OnceLock<Result<SchemaSet, String>> = OnceLock::new();
    let set = SET.get_or_init(|| {
        SchemaSet::from_files([("rules.schema.json", RULES_SCHEMA)]).map_err(|e| e.to_string())
    });
    match set {
        Ok(set) => set
            .by_file("rules.schema.json")
            .map(LoadedSchema::validator)
            .ok_or_else(|| Error::plain("the built-in rules schema is missing from its set")),
        Err(e) => Err(Error::plain(format!(
            "the built-in rules schema does not load: {e}"
        ))),
    }
}

/// (key span, value span) for every JSON pointer of the document.
type SpanMap = BTreeMap<String, (Range<usize>, Range<usize>)>;

fn table_to_json(table: &DeTable<'_>, pointer: String, spans: &mut SpanMap) -> Value {
    let mut map = serde_json::Map::new();
    for (key, value) in table {
        let child = format!("{pointer}/{}", escape_pointer(key.get_ref()));
        spans.insert(child.clone(), (key.span(), value.span()));
        let v = value_to_json(value.get_ref(), child, spans);
        map.insert(key.get_ref().to_string(), v);
    }
    Value::Object(map)
}

fn value_to_json(value: &DeValue<'_>, pointer: String, spans: &mut SpanMap) -> Value {
    match value {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            i64::from_str_radix(
                digits
                    .trim_start_matches("0x")
                    .trim_start_matches("0o")
                    .trim_start_matches("0b"),
                i.radix(),
            )
            .map_or(Value::Null, Value::from)
        }
        DeValue::Float(f) => f
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let child = format!("{pointer}/{i}");
                    spans.insert(child.clone(), (item.span(), item.span()));
                    value_to_json(item.get_ref(), child, spans)
                })
                .collect(),
        ),
        DeValue::Table(t) => table_to_json(t, pointer, spans),
    }
}

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn schema_error(
    source: &RuleSource,
    error: &jsonschema::ValidationError<'_>,
    spans: &SpanMap,
) -> Error {
    use jsonschema::error::ValidationErrorKind as Kind;
    let pointer = error.instance_path().as_str().to_owned();
    let (key_span, value_span) = spans.get(&pointer).cloned().unwrap_or((0..0, 0..0));
    let at = if pointer.is_empty() {
        "the top level".to_owned()
    } else {
        format!("`{}`", pointer_to_dotted(&pointer))
    };
    let fact_kinds = FactKind::NAMES.join(", ");
    match error.kind() {
        Kind::AdditionalProperties { unexpected } => {
            let key = unexpected.first().cloned().unwrap_or_default();
            let child = format!("{pointer}/{}", escape_pointer(&key));
            let span = spans.get(&child).map_or(value_span, |(k, _)| k.clone());
            let allowed = allowed_keys(&pointer);
            source
                .error(
                    span,
                    format!("unknown key `{key}` in {at}"),
                    "not a rule-file key",
                )
                .with_help(if allowed.is_empty() {
                    "a typo here would silently switch a check off, so recount refuses it"
                        .to_owned()
                } else {
                    let names: Vec<&str> = allowed.iter().map(|k| k.as_ref()).collect();
                    format!(
                        "{}expected one of: {}",
                        crate::spelling::did_you_mean(&key, &names),
                        allowed.join(", ")
                    )
                })
        }
        Kind::Required { property } => source.error(
            value_span,
            format!(
                "{at} is missing the required key `{}`",
                property.as_str().unwrap_or("?")
            ),
            "missing a key",
        ),
        Kind::OneOfNotValid { .. } | Kind::OneOfMultipleValid { .. } => {
            if pointer.starts_with("/retired/") {
                source.error(
                    value_span,
                    format!("{at} needs either `phrase`, or `subject` and `phrasing`"),
                    "retired claim",
                )
            } else if pointer.contains("/claims/") {
                source.error(
                    value_span,
                    format!("{at} needs exactly one of `says` or `listing`"),
                    "claim",
                )
            } else if pointer.ends_with("/in") {
                source.error(
                    value_span,
                    format!("{at} must be a glob or a non-empty list of globs"),
                    "here",
                )
            } else {
                source
                    .error(
                        value_span,
                        format!("{at} needs exactly one kind key"),
                        "fact",
                    )
                    .with_help(format!("kind keys: {fact_kinds}"))
            }
        }
        Kind::Type { kind } => source.error(
            value_span,
            format!("{at} has the wrong type: expected {}", type_name(kind)),
            "wrong type",
        ),
        Kind::Pattern { pattern } => source.error(
            value_span,
            format!("{at} does not have the required form (pattern {pattern})"),
            "here",
        ),
        Kind::MinLength { .. } => {
            source.error(value_span, format!("{at} must not be empty"), "empty")
        }
        Kind::MinItems { .. } => source.error(
            value_span,
            format!("{at} must not be an empty list"),
            "empty",
        ),
        Kind::Enum { options } => source.error(
            value_span,
            format!("{at} must be one of {options}"),
            "not an allowed value",
        ),
        _ => source.error(
            if key_span.is_empty() {
                value_span
            } else {
                key_span
            },
            format!("{at} is not valid: {}", error.kind().keyword()),
            "here",
        ),
    }
}

fn type_name(kind: &jsonschema::error::TypeKind) -> String {
    match kind {
        jsonschema::error::TypeKind::Single(t) => format!("{t:?}").to_lowercase(),
        jsonschema::error::TypeKind::Multiple(set) => format!("{set:?}").to_lowercase(),
    }
}

fn pointer_to_dotted(pointer: &str) -> String {
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|s| {
            if s.chars().all(|c| c.is_ascii_digit()) {
                format!("[{}]", s.parse::<usize>().map_or(0, |n| n + 1))
            } else {
                format!(".{}", s.replace("~1", "/").replace("~0", "~"))
            }
        })
        .collect::<String>()
        .trim_start_matches('.')
        .replace(".[", "[")
}

/// The keys the schema allows in the object at `pointer` (for a did-you-mean).
fn allowed_keys(pointer: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(RULES_SCHEMA).unwrap_or(Value::Null);
    let segments: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let node = match segments.as_slice() {
        [""] => Some(&schema),
        ["recount"] => schema.pointer("/properties/recount"),
        ["constants", _] => schema.pointer("/$defs/constant"),
        ["fact", _] => schema.pointer("/$defs/fact"),
        ["fact", _, "claims", _] => schema.pointer("/$defs/claim"),
        ["cites"] => schema.pointer("/$defs/cites"),
        ["checks"] => schema.pointer("/properties/checks"),
        ["cites", "expect", _] => schema.pointer("/$defs/expect"),
        ["retired", _] => schema.pointer("/$defs/retired"),
        ["bounds", _] => schema.pointer("/$defs/bounds"),
        ["bounds", _, "pins", _] => schema.pointer("/$defs/pin"),
        _ => None,
    };
    node.and_then(|n| n.get("properties"))
        .and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, Confinement) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        for file in ["recount.toml", "rules/extra.toml", "rules/deep/more.toml"] {
            let path = dir.path().join(file);
            let made = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&path, "[recount]\n"));
            assert!(made.is_ok(), "{file}");
        }
        let confinement = Confinement::new(Some(dir.path()));
        (dir, confinement)
    }

    #[test]
    fn an_include_is_normalised_inside_the_repository() {
        let (_dir, confinement) = repo();
        let root = confinement.root.clone().unwrap_or_default();
        let from = root.join("rules/deep");
        assert_eq!(
            confinement.resolve(Some(&from), "../extra.toml"),
            Ok(root.join("rules/extra.toml"))
        );
        assert_eq!(
            confinement.resolve(Some(&from), "./../../rules/./deep/more.toml"),
            Ok(root.join("rules/deep/more.toml"))
        );
        assert_eq!(
            confinement.resolve(None, "rules/extra.toml"),
            Ok(root.join("rules/extra.toml"))
        );
    }

    #[test]
    fn an_include_outside_the_repository_is_refused_by_its_path_alone() {
        let (_dir, confinement) = repo();
        let root = confinement.root.clone().unwrap_or_default();
        let refused = |wanted: &str| confinement.resolve(Some(&root), wanted).err();
        assert!(refused("/etc/passwd.toml").is_some_and(|w| w.contains("absolute")));
        assert!(refused("../outside.toml").is_some_and(|w| w.contains("leaves")));
        assert!(refused("rules/../../x.toml").is_some_and(|w| w.contains("leaves")));
        assert!(refused(".git/config.toml").is_some_and(|w| w.contains(".git")));
        // A missing file is the reader's to refuse (below), not the path's.
        assert_eq!(refused("rules/missing.toml"), None);
        assert!(refused("rules/extra.txt").is_some_and(|w| w.contains(".toml")));
        assert!(
            Confinement { root: None }
                .resolve(None, "rules/extra.toml")
                .is_err()
        );
    }

    #[test]
    fn a_missing_include_is_refused_at_its_entry() {
        let (dir, _confinement) = repo();
        std::fs::write(
            dir.path().join("recount.toml"),
            "[recount]\ninclude = [\"rules/missing.toml\"]\n",
        )
        .unwrap_or_else(|e| panic!("write: {e}"));
        let loaded = load_rules(&[dir.path().join("recount.toml")], Some(dir.path()));
        let Err(error) = loaded else {
            panic!("a missing include is refused");
        };
        assert_eq!(
            error.to_string(),
            "cannot read included rule file `rules/missing.toml`: it does not exist"
        );
    }

    #[test]
    fn text_with_no_repository_cannot_include_a_path() {
        let loaded = load_text("t.toml", "[recount]\ninclude = [\"rules/extra.toml\"]\n");
        let Err(error) = loaded else {
            panic!("an include path from text is refused");
        };
        assert!(error.to_string().contains("cannot include"), "{error}");
    }
}
