//! Validation core, loading: a set of Draft 2020-12 schemas read from a directory or a
//! subtree of any [`SchemaSource`] into an offline registry keyed by `$id`, each
//! compiled once.
//!
//! Every `$ref` is resolved against the set before anything is compiled, so a
//! reference that leaves the set is an error naming its file, its JSON pointer and the
//! reference, and the compiler is never in a position to want the network (the crate is
//! built without its HTTP resolver, and the validators are built offline besides).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jsonschema::{Draft, Registry, Uri, Validator};
use serde_json::Value;

use super::document::BorrowedJson;

/// A read-only tree of files a set can be loaded from: recount's snapshots (the
/// working tree, a commit's tree), or whatever an embedding server keeps its schemas
/// in. Defined here rather than borrowed from the audit pipeline so that the core
/// builds without it.
pub trait SchemaSource {
    /// `/`-separated paths of every regular file, sorted.
    fn paths(&self) -> &[String];
    /// The bytes of one file, or `None` when the source has no such file.
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>>;
}

/// The only `$schema` a set may declare (with or without an empty fragment).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Backtracking steps one `pattern` may take against one string before the
/// string is refused as undecided. fancy-regex's default (a million) let a
/// `(a|a)+\\1b|c` pattern take 36 s over 2,000 short strings; a real
/// pattern backtracks a few dozen steps a string, and patterns without
/// look-around or back-references never backtrack (they run on `regex`).
pub const BACKTRACK_LIMIT: usize = 10_000;

/// A load error, located: the file and the JSON pointer inside it.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {problem}", if pointer.is_empty() { String::new() } else { format!(" at {pointer}") })]
pub struct LoadError {
    /// Path of the file, relative to the set's root.
    pub file: String,
    /// JSON pointer inside the file; empty for the whole file.
    pub pointer: String,
    pub problem: LoadProblem,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadProblem {
    #[error("cannot be read: {0}")]
    Read(#[source] std::io::Error),
    #[error("is not JSON (line {line}, column {column}): {message}")]
    Parse {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("a schema file must hold a JSON object")]
    NotAnObject,
    #[error("`$schema` is {value}; only {DRAFT_2020_12} is supported")]
    UnknownSchema { value: String },
    #[error("the schema has no `$id`, and a set is keyed by `$id`")]
    MissingId,
    #[error("`$id` {id} is not usable: {message}")]
    BadId { id: String, message: String },
    #[error("`$id` {id} is also declared by {other_file}")]
    DuplicateId { id: String, other_file: String },
    #[error("`$ref` {reference} is not a usable URI reference: {message}")]
    BadReference { reference: String, message: String },
    #[error("`$ref` {reference} resolves to {target}, which is outside the schema set")]
    OutsideReference { reference: String, target: String },
    #[error("the schema does not compile: {message}")]
    Compile { message: String },
    #[error("the registry could not be built: {message}")]
    Registry { message: String },
}

fn located(file: &str, pointer: &str, problem: LoadProblem) -> LoadError {
    LoadError {
        file: file.to_string(),
        pointer: pointer.to_string(),
        problem,
    }
}

/// One loaded schema.
pub struct LoadedSchema {
    id: String,
    file: String,
    validator: Validator<BorrowedJson>,
    /// The tool an `x-<vendor>-tool` keyword at its root declares it for.
    tool: Option<String>,
    /// Its root `title`.
    title: Option<String>,
}

impl LoadedSchema {
    /// The schema's `$id`, normalised.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The file it was loaded from, relative to the set's root, `/`-separated.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The compiled validator, which resolves `$ref` only within the set.
    pub fn validator(&self) -> &Validator<BorrowedJson> {
        &self.validator
    }

    /// The tool the schema declares itself the input of, in an `x-tool` or
    /// `x-<vendor>-tool` keyword at its root.
    pub fn declared_tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// The schema's root `title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }
}

/// Whether `c` can be part of a tool name written in a title: a name ends where
/// any other character is.
pub(crate) fn title_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// The words of a title a tool name can be: each longest run of
/// [`title_word_char`]s, and, when the run ends a sentence (a full stop before
/// a space or the end), the run without that stop.
pub(crate) fn title_words(title: &str) -> impl Iterator<Item = &str> {
    title
        .split(|c: char| !title_word_char(c))
        .filter(|run| !run.is_empty())
        .flat_map(|run| {
            let stopped = run.strip_suffix('.').filter(|word| !word.is_empty());
            std::iter::once(run).chain(stopped)
        })
}

/// The tool an `x-tool` / `x-<vendor>-tool` keyword at a schema's root names.
fn declared_tool(root: &Value) -> Option<String> {
    let Value::Object(object) = root else {
        return None;
    };
    object.iter().find_map(|(key, value)| {
        let vendor = key.strip_prefix("x-")?;
        (vendor == "tool" || vendor.ends_with("-tool"))
            .then(|| value.as_str().map(str::to_owned))
            .flatten()
    })
}

impl std::fmt::Debug for LoadedSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedSchema")
            .field("id", &self.id)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// Draft 2020-12 schemas keyed by `$id`, every `$ref` resolved within the set.
#[derive(Debug, Default)]
pub struct SchemaSet {
    by_id: BTreeMap<String, Arc<LoadedSchema>>,
    id_by_file: BTreeMap<String, String>,
    /// Tool name -> the schemas that declare it (`x-<vendor>-tool`).
    by_declared_tool: HashMap<String, Vec<Arc<LoadedSchema>>>,
    /// Each word a title holds ([`title_words`]) -> the schemas whose title
    /// holds it: what a call's tool name is looked up by, instead of searching
    /// every title on every call. The schemas themselves, not their `$id`s,
    /// so a lookup is one hash probe.
    by_title_word: HashMap<String, Vec<Arc<LoadedSchema>>>,
}

/// A `$ref` (or `$dynamicRef`) found in a schema, with its resolved target resource.
struct ReferenceSite {
    pointer: String,
    reference: String,
    target: String,
}

struct Inspected {
    id: String,
    resources: Vec<String>,
    references: Vec<ReferenceSite>,
}

/// Keywords whose value is one subschema.
const SINGLE_SUBSCHEMA: &[&str] = &[
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const SUBSCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

fn escape_pointer(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

fn without_fragment(uri: &Uri<String>) -> String {
    let text = uri.as_str();
    text.split_once('#')
        .map_or(text, |(head, _)| head)
        .to_string()
}

fn check_schema_keyword(
    file: &str,
    pointer: &str,
    object: &serde_json::Map<String, Value>,
) -> Result<(), LoadError> {
    match object.get("$schema") {
        None => Ok(()),
        Some(Value::String(value)) if value.trim_end_matches('#') == DRAFT_2020_12 => Ok(()),
        Some(other) => Err(located(
            file,
            &format!("{pointer}/$schema"),
            LoadProblem::UnknownSchema {
                value: other.to_string(),
            },
        )),
    }
}

/// Read one schema's identity, its embedded resources and its references, by an
/// explicit-stack walk over the schema positions of Draft 2020-12.
fn inspect(file: &str, root: &Value) -> Result<Inspected, LoadError> {
    let Value::Object(object) = root else {
        return Err(located(file, "", LoadProblem::NotAnObject));
    };
    check_schema_keyword(file, "", object)?;
    let Some(id_value) = object.get("$id") else {
        return Err(located(file, "", LoadProblem::MissingId));
    };
    let Value::String(id_text) = id_value else {
        return Err(located(
            file,
            "/$id",
            LoadProblem::BadId {
                id: id_value.to_string(),
                message: "it is not a string".to_string(),
            },
        ));
    };
    let bad_id = |message: String| {
        located(
            file,
            "/$id",
            LoadProblem::BadId {
                id: id_text.clone(),
                message,
            },
        )
    };
    Uri::parse(id_text.clone())
        .map_err(|(error, _)| bad_id(format!("not an absolute URI ({error})")))?;
    let base = jsonschema::uri::from_str(id_text).map_err(|error| bad_id(error.to_string()))?;
    let id = without_fragment(&base);

    let mut resources = vec![id.clone()];
    let mut references = Vec::new();
    let mut stack: Vec<(&Value, String, Uri<String>)> = vec![(root, String::new(), base)];
    while let Some((value, pointer, mut base)) = stack.pop() {
        let Value::Object(schema) = value else {
            continue;
        };
        if !pointer.is_empty() {
            check_schema_keyword(file, &pointer, schema)?;
            if let Some(Value::String(nested)) = schema.get("$id") {
                base =
                    jsonschema::uri::resolve_against(&base.borrow(), nested).map_err(|error| {
                        located(
                            file,
                            &format!("{pointer}/$id"),
                            LoadProblem::BadId {
                                id: nested.clone(),
                                message: error.to_string(),
                            },
                        )
                    })?;
                resources.push(without_fragment(&base));
            }
        }
        for keyword in ["$ref", "$dynamicRef"] {
            if let Some(Value::String(reference)) = schema.get(keyword) {
                let site = format!("{pointer}/{keyword}");
                let target = jsonschema::uri::resolve_against(&base.borrow(), reference).map_err(
                    |error| {
                        located(
                            file,
                            &site,
                            LoadProblem::BadReference {
                                reference: reference.clone(),
                                message: error.to_string(),
                            },
                        )
                    },
                )?;
                references.push(ReferenceSite {
                    pointer: site,
                    reference: reference.clone(),
                    target: without_fragment(&target),
                });
            }
        }
        for (keyword, child) in schema {
            let keyword_pointer = format!("{pointer}/{}", escape_pointer(keyword));
            if SINGLE_SUBSCHEMA.contains(&keyword.as_str()) {
                stack.push((child, keyword_pointer, base.clone()));
            } else if SUBSCHEMA_ARRAYS.contains(&keyword.as_str()) {
                if let Value::Array(items) = child {
                    for (index, item) in items.iter().enumerate() {
                        stack.push((item, format!("{keyword_pointer}/{index}"), base.clone()));
                    }
                }
            } else if SUBSCHEMA_MAPS.contains(&keyword.as_str()) {
                if let Value::Object(members) = child {
                    for (name, member) in members {
                        stack.push((
                            member,
                            format!("{keyword_pointer}/{}", escape_pointer(name)),
                            base.clone(),
                        ));
                    }
                }
            }
        }
    }
    Ok(Inspected {
        id,
        resources,
        references,
    })
}

/// At most this many files of the tree around a set are offered for one
/// `$ref` target, and at most [`MAX_AROUND_FILES`] are listed in all: a set
/// in a huge repository still loads in bounded time.
const MAX_CANDIDATES: usize = 16;

/// Offers, for a `$ref` target no file of a set holds, (name, bytes) of the
/// files around the set that may.
type Around<'a> = dyn FnMut(&str) -> Vec<(String, Vec<u8>)> + 'a;
const MAX_AROUND_FILES: usize = 100_000;
/// A file of the tree around a set larger than this is not read as a schema.
const MAX_AROUND_BYTES: u64 = 4 << 20;

/// The file name a `$ref` target's last path segment names (`x.schema.json`).
fn target_file_name(target: &str) -> Option<&str> {
    let path = target.split(['?', '#']).next()?;
    let name = path.rsplit('/').next()?;
    name.ends_with(".json").then_some(name)
}

/// The JSON files of the repository a schema folder sits in (the nearest
/// folder above it holding `.git`), outside the folder: where a `$ref` that
/// leaves the folder is looked for. No repository above it, nothing around.
struct TreeAround {
    root: PathBuf,
    top: Option<PathBuf>,
    listed: Option<Vec<PathBuf>>,
}

impl TreeAround {
    fn new(root: &Path) -> Self {
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let top = root
            .ancestors()
            .skip(1)
            .find(|dir| dir.join(".git").exists())
            .map(Path::to_path_buf);
        TreeAround {
            root,
            top,
            listed: None,
        }
    }

    fn candidates(&mut self, target: &str) -> Vec<(String, Vec<u8>)> {
        let (Some(name), Some(top)) = (target_file_name(target), self.top.clone()) else {
            return Vec::new();
        };
        let root = self.root.clone();
        let listed = self.listed.get_or_insert_with(|| {
            let mut found = Vec::new();
            let mut pending = vec![top.clone()];
            while let Some(dir) = pending.pop() {
                if dir == root {
                    continue;
                }
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut entries: Vec<_> = entries.flatten().collect();
                entries.sort_by_key(std::fs::DirEntry::file_name);
                for entry in entries {
                    if found.len() >= MAX_AROUND_FILES {
                        return found;
                    }
                    let child = entry.path();
                    let skipped = entry
                        .file_name()
                        .to_str()
                        .is_none_or(|n| n.starts_with('.') || n == "node_modules" || n == "target");
                    // Links are not followed: nothing outside the repository.
                    match entry.file_type() {
                        Ok(kind) if kind.is_dir() && !skipped => pending.push(child),
                        Ok(kind)
                            if kind.is_file()
                                && child.extension().and_then(|e| e.to_str()) == Some("json") =>
                        {
                            found.push(child);
                        }
                        _ => {}
                    }
                }
            }
            found
        });
        listed
            .iter()
            .filter(|path| path.file_name().and_then(|n| n.to_str()) == Some(name))
            .take(MAX_CANDIDATES)
            .filter_map(|path| {
                // A file that big is no schema; it is not read.
                if std::fs::metadata(path).ok()?.len() > MAX_AROUND_BYTES {
                    return None;
                }
                let bytes = std::fs::read(path).ok()?;
                let shown = path
                    .strip_prefix(&top)
                    .unwrap_or(path)
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                Some((shown, bytes))
            })
            .collect()
    }
}

/// Visit the `*.json` regular files under `root`, depth first, each directory's entries
/// in file-name order, so the first unreadable or unparsable file reported is the same
/// one on every platform and every run. `root` itself is followed if it is a link;
/// nothing below it is. The first error, from the walk or from `visit`, ends it.
fn walk_json_files(
    root: &Path,
    mut visit: impl FnMut(&Path) -> Result<(), LoadError>,
) -> Result<(), LoadError> {
    let unreadable =
        |path: &Path, error| located(&path.display().to_string(), "", LoadProblem::Read(error));
    let is_json = |path: &Path| path.extension().and_then(|e| e.to_str()) == Some("json");
    let root_type = std::fs::metadata(root).map_err(|error| unreadable(root, error))?;
    if !root_type.is_dir() {
        if root_type.is_file() && is_json(root) {
            visit(root)?;
        }
        return Ok(());
    }
    // An explicit stack, so a deep tree cannot exhaust the call stack; each listing is
    // pushed in reverse so that entries pop in file-name order, a directory's files
    // before its next sibling's (a pre-order walk).
    let mut pending: Vec<(PathBuf, bool)> = vec![(root.to_path_buf(), true)];
    while let Some((path, is_directory)) = pending.pop() {
        if !is_directory {
            visit(&path)?;
            continue;
        }
        let mut entries = Vec::new();
        let listing = std::fs::read_dir(&path).map_err(|error| unreadable(&path, error))?;
        for entry in listing {
            let entry = entry.map_err(|error| unreadable(&path, error))?;
            let child = entry.path();
            // `DirEntry::file_type` does not follow links: a link is neither.
            let kind = entry
                .file_type()
                .map_err(|error| unreadable(&child, error))?;
            if kind.is_dir() {
                entries.push((entry.file_name(), child, true));
            } else if kind.is_file() && is_json(&child) {
                entries.push((entry.file_name(), child, false));
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        pending.extend(
            entries
                .into_iter()
                .rev()
                .map(|(_, child, is_directory)| (child, is_directory)),
        );
    }
    Ok(())
}

impl SchemaSet {
    /// Load every `*.json` file under `root` (recursively, in path order). Symbolic
    /// links below `root` are neither followed nor loaded.
    pub fn from_dir(root: &Path) -> Result<SchemaSet, LoadError> {
        let mut files = Vec::new();
        walk_json_files(root, |path| {
            let relative = path
                .strip_prefix(root)
                .unwrap_or(path)
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let bytes = std::fs::read(path)
                .map_err(|error| located(&relative, "", LoadProblem::Read(error)))?;
            files.push((relative, bytes));
            Ok(())
        })?;
        // A `$ref` to a schema beside the folder (`../common/x.json`) is read from
        // the repository the folder is in, never from beyond it.
        let mut around = TreeAround::new(root);
        SchemaSet::from_files_around(files, &mut |target| around.candidates(target))
    }

    /// Load the `*.json` files of a source under `prefix` (a `/`-separated directory;
    /// empty for the whole source). File names in the set are relative to `prefix`.
    pub fn from_source<S: SchemaSource + ?Sized>(
        source: &S,
        prefix: &str,
    ) -> Result<SchemaSet, LoadError> {
        let prefix = prefix.trim_end_matches('/');
        let mut files = Vec::new();
        for path in source.paths() {
            let relative = if prefix.is_empty() {
                Some(path.as_str())
            } else {
                path.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_prefix('/'))
            };
            let Some(relative) = relative.filter(|r| r.ends_with(".json")) else {
                continue;
            };
            let bytes = source
                .read(path)
                .map_err(|error| located(relative, "", LoadProblem::Read(error)))?
                .ok_or_else(|| {
                    located(
                        relative,
                        "",
                        LoadProblem::Read(std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            "listed by the source but not readable from it",
                        )),
                    )
                })?;
            files.push((relative.to_string(), bytes));
        }
        // A `$ref` to a schema elsewhere in the source is read from it.
        let outside = |path: &&String| {
            prefix.is_empty()
                || !path
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        let mut around = |target: &str| -> Vec<(String, Vec<u8>)> {
            let Some(name) = target_file_name(target) else {
                return Vec::new();
            };
            source
                .paths()
                .iter()
                .filter(outside)
                .filter(|path| path.rsplit('/').next() == Some(name))
                .take(MAX_CANDIDATES)
                .filter_map(|path| {
                    let bytes = source.read(path).ok()??;
                    // A file that big is no schema.
                    (bytes.len() as u64 <= MAX_AROUND_BYTES).then(|| (path.clone(), bytes.to_vec()))
                })
                .collect()
        };
        SchemaSet::from_files_around(files, &mut around)
    }

    /// Load schemas given as (file name, bytes) pairs; every `$ref` must stay
    /// among them.
    pub fn from_files<P, B>(files: impl IntoIterator<Item = (P, B)>) -> Result<SchemaSet, LoadError>
    where
        P: Into<String>,
        B: AsRef<[u8]>,
    {
        SchemaSet::from_files_around(files, &mut |_| Vec::new())
    }

    /// [`SchemaSet::from_files`], with `around` offering, for a `$ref` target
    /// none of them holds, files from the tree around them that may (by file
    /// name). Those are read for resolution only: not part of the set.
    fn from_files_around<P, B>(
        files: impl IntoIterator<Item = (P, B)>,
        around: &mut Around<'_>,
    ) -> Result<SchemaSet, LoadError>
    where
        P: Into<String>,
        B: AsRef<[u8]>,
    {
        let mut parsed: BTreeMap<String, Value> = BTreeMap::new();
        for (file, bytes) in files {
            let file = file.into();
            let value: Value = serde_json::from_slice(bytes.as_ref()).map_err(|error| {
                located(
                    &file,
                    "",
                    LoadProblem::Parse {
                        line: error.line(),
                        column: error.column(),
                        message: error.to_string(),
                    },
                )
            })?;
            parsed.insert(file, value);
        }

        let mut file_by_id: BTreeMap<String, String> = BTreeMap::new();
        let mut resources: BTreeSet<String> = BTreeSet::new();
        let mut inspected = Vec::new();
        for (file, value) in &parsed {
            let found = inspect(file, value)?;
            if let Some(other) = file_by_id.get(&found.id) {
                return Err(located(
                    file,
                    "/$id",
                    LoadProblem::DuplicateId {
                        id: found.id.clone(),
                        other_file: other.clone(),
                    },
                ));
            }
            file_by_id.insert(found.id.clone(), file.clone());
            resources.extend(found.resources.iter().cloned());
            inspected.push((file, value, found));
        }
        // Targets outside the files given, looked for in the tree around them,
        // with what those refer to in turn.
        let mut borrowed: Vec<(String, Value, Inspected)> = Vec::new();
        let mut asked: BTreeSet<String> = BTreeSet::new();
        let mut wanted: Vec<String> = inspected
            .iter()
            .flat_map(|(_, _, found)| found.references.iter().map(|r| r.target.clone()))
            .collect();
        while let Some(target) = wanted.pop() {
            if resources.contains(&target) || !asked.insert(target.clone()) {
                continue;
            }
            for (file, bytes) in around(&target) {
                if parsed.contains_key(&file) || borrowed.iter().any(|(f, _, _)| *f == file) {
                    continue;
                }
                let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
                    continue;
                };
                let Ok(found) = inspect(&file, &value) else {
                    continue;
                };
                if !found.resources.contains(&target) || file_by_id.contains_key(&found.id) {
                    continue;
                }
                file_by_id.insert(found.id.clone(), file.clone());
                resources.extend(found.resources.iter().cloned());
                wanted.extend(found.references.iter().map(|r| r.target.clone()));
                borrowed.push((file, value, found));
                break;
            }
        }
        let every = inspected
            .iter()
            .map(|(file, _, found)| (file.as_str(), found))
            .chain(
                borrowed
                    .iter()
                    .map(|(file, _, found)| (file.as_str(), found)),
            );
        for (file, found) in every {
            for site in &found.references {
                if !resources.contains(&site.target) {
                    return Err(located(
                        file,
                        &site.pointer,
                        LoadProblem::OutsideReference {
                            reference: site.reference.clone(),
                            target: site.target.clone(),
                        },
                    ));
                }
            }
        }

        let registry_error = |message: String| LoadError {
            file: String::new(),
            pointer: String::new(),
            problem: LoadProblem::Registry { message },
        };
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .extend(
                inspected
                    .iter()
                    .map(|(_, value, found)| (found.id.clone(), (*value).clone()))
                    .chain(
                        borrowed
                            .iter()
                            .map(|(_, value, found)| (found.id.clone(), value.clone())),
                    ),
            )
            .and_then(|builder| builder.prepare())
            .map_err(|error| registry_error(error.to_string()))?;

        let mut set = SchemaSet::default();
        for (file, value, found) in inspected {
            let validator = jsonschema::options_for::<BorrowedJson>()
                .with_draft(Draft::Draft202012)
                .with_registry(&registry)
                .offline()
                .should_validate_formats(true)
                // A schema may be the checkout's or an operator's: its
                // `pattern`s run on fancy-regex, which backtracks; a low
                // limit makes `(a|a)+\\1b` cost each string a bounded time.
                .with_pattern_options(
                    jsonschema::PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT),
                )
                .build(value)
                .map_err(|error| {
                    located(
                        file,
                        error.instance_path().as_str(),
                        LoadProblem::Compile {
                            message: error.masked().to_string(),
                        },
                    )
                })?;
            set.id_by_file.insert(file.clone(), found.id.clone());
            let tool = declared_tool(value);
            let title = value
                .get("title")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let schema = Arc::new(LoadedSchema {
                id: found.id.clone(),
                file: file.clone(),
                validator,
                tool,
                title,
            });
            if let Some(tool) = &schema.tool {
                set.by_declared_tool
                    .entry(tool.clone())
                    .or_default()
                    .push(Arc::clone(&schema));
            }
            for word in schema
                .title
                .as_deref()
                .map(title_words)
                .into_iter()
                .flatten()
            {
                let holding = set.by_title_word.entry(word.to_owned()).or_default();
                if !holding.iter().any(|held| Arc::ptr_eq(held, &schema)) {
                    holding.push(Arc::clone(&schema));
                }
            }
            set.by_id.insert(found.id, schema);
        }
        Ok(set)
    }

    /// The schema whose `$id` is `name`, or else whose file is `name`.
    pub fn get(&self, name: &str) -> Option<&LoadedSchema> {
        self.by_id
            .get(name)
            .or_else(|| self.id_by_file.get(name).and_then(|id| self.by_id.get(id)))
            .map(Arc::as_ref)
    }

    /// The schema loaded from file `file`.
    pub fn by_file(&self, file: &str) -> Option<&LoadedSchema> {
        self.id_by_file
            .get(file)
            .and_then(|id| self.by_id.get(id))
            .map(Arc::as_ref)
    }

    /// The schemas whose `x-<vendor>-tool` keyword names `tool`.
    pub fn declaring(&self, tool: &str) -> impl Iterator<Item = &LoadedSchema> {
        Self::lookup(self.by_declared_tool.get(tool))
    }

    /// The schemas whose title may name `tool`: those holding it as a title word
    /// when it is one word, else every schema with a title. A superset of the
    /// titles that name it as a whole word, which the caller decides.
    pub(crate) fn titled_maybe_naming<'s>(
        &'s self,
        tool: &str,
    ) -> impl Iterator<Item = &'s LoadedSchema> + 's {
        let one_word = tool.chars().all(title_word_char);
        let indexed = one_word.then(|| Self::lookup(self.by_title_word.get(tool)));
        let scanned = (!one_word).then(|| self.schemas().filter(|s| s.title.is_some()));
        indexed
            .into_iter()
            .flatten()
            .chain(scanned.into_iter().flatten())
    }

    fn lookup(schemas: Option<&Vec<Arc<LoadedSchema>>>) -> impl Iterator<Item = &LoadedSchema> {
        schemas.into_iter().flatten().map(Arc::as_ref)
    }

    /// Every schema, in `$id` order.
    pub fn schemas(&self) -> impl Iterator<Item = &LoadedSchema> {
        self.by_id.values().map(Arc::as_ref)
    }

    /// Every file name, sorted.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.id_by_file.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}
