//! The pipeline's driver: opens the repository, loads the rules, computes every
//! fact at its frame, finds every claim in the records, and hands the result to
//! the checks. Everything it produces is data; an `Err` means "could not run".

mod bounds;
mod cites;
mod retired;

pub use bounds::{BoundsOutcome, PinOutcome};
pub use cites::{CiteStatus, ResolvedCite};
pub use retired::RetiredHit;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use crate::claims::{self, ListingAt, Record, StatedAt};
use crate::constants::expr::Expr;
use crate::error::{Error, Result};
use crate::facts::pathspec::{PathSpec, Style, select};
use crate::facts::{Computed, Env, FactKind, Frame, Recipe};
use crate::number::Number;
use crate::records::RecordCache;
use crate::rules::load::{RuleSet, RuleSource, load_rules};
use crate::rules::model::{ClaimRule, FactRule, Field};
use crate::snapshot::{GitRepo, Snapshot};

/// What to audit.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// The repository (discovered upward from here); `None` = current directory.
    pub repo: Option<PathBuf>,
    /// The revision to audit; `None` = the working tree.
    pub rev: Option<String>,
    /// Rule files; empty = `recount.toml` at the repository root.
    pub rules: Vec<PathBuf>,
}

/// A fact after computing it, with its claims found in the records.
#[derive(Debug)]
pub struct AuditedFact {
    pub id: String,
    pub description: Option<String>,
    pub origin: usize,
    pub id_span: Range<usize>,
    pub kind: &'static str,
    pub frame: String,
    pub commit: Option<String>,
    pub computed: Computed,
    pub equals: Option<EqualsOutcome>,
    pub claims: Vec<AuditedClaim>,
}

/// The other side of an `equals` assertion.
#[derive(Debug)]
pub struct EqualsOutcome {
    pub text: String,
    pub span: Range<usize>,
    pub value: Number,
    pub recipe: Recipe,
}

/// A claim rule and what it matched.
#[derive(Debug)]
pub struct AuditedClaim {
    pub origin: usize,
    /// Span of the `says` / `listing` pattern in the rule file.
    pub span: Range<usize>,
    pub pattern: String,
    pub field: Field,
    pub globs: Vec<String>,
    pub records: Vec<ClaimInRecord>,
}

/// What one claim found in one record.
#[derive(Debug)]
pub enum ClaimInRecord {
    Stated {
        path: String,
        matches: Vec<StatedAt>,
    },
    Listing {
        path: String,
        block: Option<ListingAt>,
    },
}

impl ClaimInRecord {
    pub fn path(&self) -> &str {
        match self {
            ClaimInRecord::Stated { path, .. } | ClaimInRecord::Listing { path, .. } => path,
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            ClaimInRecord::Stated { matches, .. } => matches.is_empty(),
            ClaimInRecord::Listing { block, .. } => block.is_none(),
        }
    }
}

/// Everything the checks read.
#[derive(Debug)]
pub struct Audit {
    pub snapshot_label: String,
    pub commit: Option<String>,
    pub sources: Vec<RuleSource>,
    /// Rule-file names relative to the repository root where they are inside it.
    pub source_paths: Vec<String>,
    pub records: BTreeMap<String, Arc<Record>>,
    pub facts: Vec<AuditedFact>,
    /// Every frame named by a rule or a record.
    pub frames: Vec<FrameUse>,
    /// Every citation found in the records, resolved.
    pub cites: Vec<ResolvedCite>,
    /// Every occurrence of a retired claim, attributed or not.
    pub retired: Vec<RetiredHit>,
    /// Every `[[bounds]]` entry's bounds and pins.
    pub bounds: Vec<BoundsOutcome>,
    /// Texts of other files findings point into (records read for citations,
    /// schemas, sources), by path.
    pub files: BTreeMap<String, Arc<str>>,
    pub notes: Vec<String>,
}

impl Audit {
    pub fn record(&self, path: &str) -> Option<&Record> {
        self.records.get(path).map(Arc::as_ref)
    }

    /// The text of a file a finding may point into.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.records
            .get(path)
            .map(|r| &*r.text)
            .or_else(|| self.files.get(path).map(|t| &**t))
    }
}

/// Runs the pipeline up to (not including) the checks.
pub fn run(options: &AuditOptions) -> Result<Audit> {
    // One-time compilations, on the other core while this one reads the repository.
    rayon::spawn(|| {
        crate::rules::load::warm_up();
        crate::claims::cites::warm_up();
    });
    let start = match &options.repo {
        Some(p) => p.clone(),
        None => std::env::current_dir()
            .map_err(|e| Error::plain(format!("cannot read the current directory: {e}")))?,
    };
    let repo = GitRepo::discover(&start).map_err(|e| Error::plain(e.to_string()))?;
    let audited: Arc<dyn Snapshot> = match &options.rev {
        Some(rev) => {
            let oid = repo.resolve(rev).map_err(revision_error)?;
            Arc::new(repo.tree_snapshot(&oid).map_err(revision_error)?)
        }
        None => Arc::new(repo.worktree_snapshot().map_err(revision_error)?),
    };
    let root = repo.workdir().map(std::path::Path::to_path_buf);
    let mut zero_config = false;
    let rule_paths = if options.rules.is_empty() {
        match &root {
            Some(root) if root.join("recount.toml").is_file() => vec![root.join("recount.toml")],
            // No rule file: the citation checks still run, over every *.md file.
            _ => {
                zero_config = true;
                Vec::new()
            }
        }
    } else {
        options.rules.clone()
    };
    let rules = load_rules(&rule_paths)?;
    let mut audit = audit_with(&repo, audited, rules, root.as_deref())?;
    if zero_config {
        audit.notes.insert(
            0,
            "no recount.toml: checking the test, line and path citations of every *.md file \
             (write a recount.toml to recompute facts as well)"
                .to_owned(),
        );
    }
    Ok(audit)
}

/// A revision error as a could-not-run error (its message already carries the
/// shallow-clone advice when that applies).
fn revision_error(e: crate::snapshot::RevisionError) -> Error {
    Error::plain(e.to_string())
}

/// A fact rule after its kind is built.
struct Planned<'r> {
    origin: usize,
    rule: &'r FactRule,
    kind: FactKind,
    equals: Option<Expr>,
}

fn audit_with(
    repo: &GitRepo,
    audited: Arc<dyn Snapshot>,
    rules: RuleSet,
    root: Option<&std::path::Path>,
) -> Result<Audit> {
    let mut notes: Vec<String> = audited
        .skipped()
        .iter()
        .map(|s| format!("skipped {}: {}", s.path, s.why))
        .collect();

    // Plan: build each kind (regexes, globs, expressions checked here).
    let mut planned = Vec::with_capacity(rules.facts.len());
    for (origin, rule) in &rules.facts {
        let source = &rules.sources[*origin];
        let kind = FactKind::from_rule(rule, source)?;
        let equals = rule
            .equals
            .as_ref()
            .map(|e| crate::facts::expr::parse_located(e, source))
            .transpose()?;
        planned.push(Planned {
            origin: *origin,
            rule,
            kind,
            equals,
        });
    }
    let order = evaluation_order(&planned, &rules)?;

    // Frames: the audited snapshot, and one per distinct `at`.
    let mut frames = Frames::new(repo, Arc::new(Frame::new(audited)));
    let mut frame_of = Vec::with_capacity(planned.len());
    for p in &planned {
        let frame = match &p.rule.at {
            None => frames.audited(),
            Some(at) => {
                let source = &rules.sources[p.origin];
                frames
                    .at(
                        at.get_ref(),
                        FrameSite::Rule {
                            origin: p.origin,
                            span: at.span(),
                        },
                    )
                    .map_err(|e| {
                        source
                            .error(
                                at.span(),
                                format!(
                                    "the frame `{}` of fact `{}` does not resolve",
                                    at.get_ref(),
                                    p.rule.id.get_ref()
                                ),
                                "this revision",
                            )
                            .with_help(e.to_string())
                    })?
            }
        };
        frame_of.push(frame);
    }
    let audited_frame = frames.audited();

    // Two independent halves, one per core: the facts and their claims; and the
    // record hygiene (citations, retired claims, schema bounds).
    // (The repository handle cannot cross threads, so the hygiene half, which
    // may read more frames, stays on this one.)
    let record_cache = RecordCache::default();
    let (facts_half, hygiene_half) = std::thread::scope(|scope| {
        let facts = scope.spawn(|| {
            facts_and_claims(
                &planned,
                &order,
                &frame_of,
                &rules,
                &audited_frame,
                &record_cache,
            )
        });
        let hygiene = (|| {
            let mut files = BTreeMap::new();
            let mut notes = Vec::new();
            let cites =
                cites::resolve_all(&rules, &mut frames, &record_cache, &mut notes, &mut files)?;
            let retired = retired::find_all(
                &rules,
                &audited_frame,
                &record_cache,
                &mut files,
                &mut notes,
            )?;
            let bounds = bounds::scan_all(&rules, &audited_frame, &mut files, &mut notes)?;
            Ok::<_, Error>((cites, retired, bounds, files, notes))
        })();
        let facts = facts.join().unwrap_or_else(|_| {
            Err(Error::plain(
                "internal error: the fact computation panicked",
            ))
        });
        (facts, hygiene)
    });
    let (facts, records, claim_notes) = facts_half?;
    let (cites, retired, bounds, files, hygiene_notes) = hygiene_half?;
    notes.extend(claim_notes);
    notes.extend(hygiene_notes);
    let source_paths = rules
        .sources
        .iter()
        .map(|s| display_rule_path(&s.name, root))
        .collect();
    let frame_uses = frames.reachability(&rules)?;
    notes.sort();
    notes.dedup();
    Ok(Audit {
        snapshot_label: audited_frame.label.clone(),
        commit: audited_frame.commit.clone(),
        sources: rules.sources,
        source_paths,
        records,
        facts,
        frames: frame_uses,
        cites,
        retired,
        bounds,
        files,
        notes,
    })
}

/// Where a frame is named: a rule's `at`, or a record's "measured at" marker.
#[derive(Debug, Clone)]
pub enum FrameSite {
    Rule { origin: usize, span: Range<usize> },
    Record { path: String, span: Range<usize> },
}

/// One place a frame is named, and whether it lies on the main line.
#[derive(Debug, Clone)]
pub struct FrameUse {
    pub rev: String,
    pub commit: String,
    pub site: FrameSite,
    /// `Some(main)` when `[recount].main` is set: the main line's name and whether
    /// the frame is an ancestor of it.
    pub on_main: Option<(String, bool)>,
}

/// The snapshots a run measures at: the audited one and one per frame commit,
/// each read once however many facts or cites name it.
struct Frames<'r> {
    repo: &'r GitRepo,
    audited: Arc<Frame>,
    by_commit: BTreeMap<String, Arc<Frame>>,
    uses: Vec<FrameUse>,
}

impl<'r> Frames<'r> {
    fn new(repo: &'r GitRepo, audited: Arc<Frame>) -> Self {
        Frames {
            repo,
            audited,
            by_commit: BTreeMap::new(),
            uses: Vec::new(),
        }
    }

    fn audited(&self) -> Arc<Frame> {
        Arc::clone(&self.audited)
    }

    /// The frame at `rev`, remembering where it was named.
    fn at(
        &mut self,
        rev: &str,
        site: FrameSite,
    ) -> Result<Arc<Frame>, crate::snapshot::RevisionError> {
        let (commit, frame) = self.lookup(rev)?;
        self.uses.push(FrameUse {
            rev: rev.to_owned(),
            commit,
            site,
            on_main: None,
        });
        Ok(frame)
    }

    /// The frame at `rev` (read once per commit), without recording a use.
    fn lookup(
        &mut self,
        rev: &str,
    ) -> Result<(String, Arc<Frame>), crate::snapshot::RevisionError> {
        let commit = self.repo.resolve(rev)?;
        if let Some(frame) = self.by_commit.get(&commit) {
            return Ok((commit, Arc::clone(frame)));
        }
        let frame = Arc::new(Frame::new(Arc::new(self.repo.tree_snapshot(&commit)?)));
        self.by_commit.insert(commit.clone(), Arc::clone(&frame));
        Ok((commit, frame))
    }

    /// Every frame use, with whether it is an ancestor of `[recount].main`.
    fn reachability(self, rules: &RuleSet) -> Result<Vec<FrameUse>> {
        let Some((origin, main)) = &rules.main else {
            return Ok(self.uses);
        };
        let source = &rules.sources[*origin];
        let main_commit = self.repo.resolve(main.get_ref()).map_err(|e| {
            source
                .error(
                    main.span(),
                    format!("the main line `{}` does not resolve", main.get_ref()),
                    "main",
                )
                .with_help(e.to_string())
        })?;
        let mut uses = self.uses;
        for frame_use in &mut uses {
            let on = self
                .repo
                .is_ancestor(&frame_use.commit, &main_commit)
                .map_err(|e| Error::plain(e.to_string()))?;
            frame_use.on_main = Some((main.get_ref().clone(), on));
        }
        Ok(uses)
    }
}

/// A rule file's name as reports show it: repository-relative when inside it.
fn display_rule_path(name: &str, root: Option<&std::path::Path>) -> String {
    let path = std::path::Path::new(name);
    if let Some(root) = root
        && let (Ok(p), Ok(r)) = (path.canonicalize(), root.canonicalize())
        && let Ok(rel) = p.strip_prefix(&r)
    {
        return rel.to_string_lossy().replace('\\', "/");
    }
    name.to_owned()
}

/// Topological order of the facts by their `{id}` references; a reference to
/// an unknown fact or a cycle is a located error.
fn evaluation_order(planned: &[Planned<'_>], rules: &RuleSet) -> Result<Vec<usize>> {
    let index: BTreeMap<&str, usize> = planned
        .iter()
        .enumerate()
        .map(|(i, p)| (p.rule.id.get_ref().as_str(), i))
        .collect();
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(planned.len());
    for p in planned {
        let mut refs = p.kind.fact_references();
        if let Some(eq) = &p.equals {
            refs.extend(crate::facts::expr::fact_references(eq));
        }
        let mut list = Vec::new();
        for r in refs {
            match index.get(r.as_str()) {
                Some(&i) => list.push(i),
                None => {
                    let source = &rules.sources[p.origin];
                    let span = p
                        .rule
                        .expr
                        .as_ref()
                        .or(p.rule.equals.as_ref())
                        .map_or(p.rule.id.span(), |s| s.span());
                    let known: Vec<&str> = index.keys().copied().collect();
                    return Err(source
                        .error(
                            span,
                            format!("`{{{r}}}` names no fact"),
                            "unknown fact reference",
                        )
                        .with_help(format!("facts defined: {}", known.join(", "))));
                }
            }
        }
        deps.push(list);
    }
    // Depth-first with colours; the order is by definition, so output is stable.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; planned.len()];
    let mut order = Vec::with_capacity(planned.len());
    for root in 0..planned.len() {
        if mark[root] != Mark::New {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&dep) = deps[node].get(*next) {
                *next += 1;
                match mark[dep] {
                    Mark::Done => {}
                    Mark::New => {
                        mark[dep] = Mark::Active;
                        stack.push((dep, 0));
                    }
                    Mark::Active => {
                        let start = stack.iter().position(|(n, _)| *n == dep).unwrap_or(0);
                        let mut cycle: Vec<&str> = stack[start..]
                            .iter()
                            .map(|(n, _)| planned[*n].rule.id.get_ref().as_str())
                            .collect();
                        cycle.push(planned[dep].rule.id.get_ref());
                        let p = &planned[node];
                        let span = p
                            .rule
                            .expr
                            .as_ref()
                            .or(p.rule.equals.as_ref())
                            .map_or(p.rule.id.span(), |s| s.span());
                        return Err(rules.sources[p.origin].error(
                            span,
                            format!(
                                "facts refer to each other in a cycle: {}",
                                cycle.join(" -> ")
                            ),
                            "closes the cycle",
                        ));
                    }
                }
            } else {
                mark[node] = Mark::Done;
                order.push(node);
                stack.pop();
            }
        }
    }
    Ok(order)
}

/// Computes every fact (while the other core compiles the claim patterns:
/// Unicode classes make each cost a fraction of a millisecond), then finds
/// every claim in the audited snapshot's records.
#[allow(clippy::type_complexity)]
fn facts_and_claims(
    planned: &[Planned<'_>],
    order: &[usize],
    frame_of: &[Arc<Frame>],
    rules: &RuleSet,
    audited: &Frame,
    cache: &RecordCache,
) -> Result<(Vec<AuditedFact>, BTreeMap<String, Arc<Record>>, Vec<String>)> {
    let (computed, patterns) = rayon::join(
        || compute_facts(planned, order, frame_of, rules),
        || compile_claim_patterns(planned),
    );
    let mut computed = computed?;
    let mut records: BTreeMap<String, Arc<Record>> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut facts = Vec::with_capacity(planned.len());
    for (index, p) in planned.iter().enumerate() {
        let Some((value, equals)) = computed[index].take() else {
            continue;
        };
        let mut claims = Vec::with_capacity(p.rule.claims.len());
        for claim in &p.rule.claims {
            claims.push(find_claim(
                claim,
                p,
                rules,
                audited,
                &patterns,
                cache,
                &mut records,
                &mut notes,
            )?);
        }
        facts.push(AuditedFact {
            id: p.rule.id.get_ref().clone(),
            description: p.rule.description.clone(),
            origin: p.origin,
            id_span: p.rule.id.span(),
            kind: p.kind.name(),
            frame: frame_of[index].label.clone(),
            commit: frame_of[index].commit.clone(),
            computed: value,
            equals,
            claims,
        });
    }
    facts.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((facts, records, notes))
}

/// A fact's value and its `equals` side, once computed.
type ComputedFact = Option<(Computed, Option<EqualsOutcome>)>;

/// Every fact's value (and its `equals` side), computed in dependency order.
fn compute_facts(
    planned: &[Planned<'_>],
    order: &[usize],
    frame_of: &[Arc<Frame>],
    rules: &RuleSet,
) -> Result<Vec<ComputedFact>> {
    let mut values: BTreeMap<String, Number> = BTreeMap::new();
    let mut computed: Vec<ComputedFact> = (0..planned.len()).map(|_| None).collect();
    for &index in order {
        let p = &planned[index];
        let source = &rules.sources[p.origin];
        let lookup = |id: &str| values.get(id).copied();
        let env = Env {
            frame: &frame_of[index],
            source,
            declared: &rules.constants,
            fact_value: &lookup,
        };
        let value = p.kind.compute(&env)?;
        let equals = match (&p.equals, &p.rule.equals) {
            (Some(expr), Some(text)) => {
                let mut inputs = vec![expr.to_string()];
                let v = env.eval(expr, text.span(), &mut inputs)?;
                Some(EqualsOutcome {
                    text: text.get_ref().clone(),
                    span: text.span(),
                    value: v,
                    recipe: Recipe::new("expr", &env, inputs),
                })
            }
            _ => None,
        };
        values.insert(p.rule.id.get_ref().clone(), value.value);
        computed[index] = Some((value, equals));
    }
    Ok(computed)
}

/// Every distinct claim pattern of the rules, compiled up front on all cores.
fn compile_claim_patterns<'r>(
    planned: &[Planned<'r>],
) -> BTreeMap<&'r str, std::result::Result<claims::Pattern, regex_automata::meta::BuildError>> {
    use rayon::prelude::*;
    let mut texts: Vec<&'r str> = planned
        .iter()
        .flat_map(|p| p.rule.claims.iter())
        .filter_map(|c| c.says.as_ref().or(c.listing.as_ref()))
        .map(|s| s.get_ref().as_str())
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts
        .into_par_iter()
        .map(|t| (t, claims::compile_pattern(t)))
        .collect()
}

// The shared record cache joins the per-fact state one call reads; a struct
// bundling them would be built once and read here alone.
#[allow(clippy::too_many_arguments)]
fn find_claim(
    claim: &ClaimRule,
    p: &Planned<'_>,
    rules: &RuleSet,
    frame: &Frame,
    patterns: &BTreeMap<
        &str,
        std::result::Result<claims::Pattern, regex_automata::meta::BuildError>,
    >,
    cache: &RecordCache,
    records: &mut BTreeMap<String, Arc<Record>>,
    notes: &mut Vec<String>,
) -> Result<AuditedClaim> {
    let source = &rules.sources[p.origin];
    let (pattern, is_listing) = match (&claim.says, &claim.listing) {
        (Some(s), None) => (s, false),
        (None, Some(l)) => (l, true),
        _ => {
            return Err(source.error(
                p.rule.id.span(),
                "a claim needs exactly one of `says` or `listing`",
                "fact",
            ));
        }
    };
    let compiled = patterns
        .get(pattern.get_ref().as_str())
        .cloned()
        .unwrap_or_else(|| claims::compile_pattern(pattern.get_ref()));
    let regex = compiled.map_err(|e| {
        source
            .error(
                pattern.span(),
                "invalid regular expression",
                "does not compile",
            )
            .with_help(claims::pattern_error_text(&e))
    })?;
    if !is_listing && !claims::has_value_group(&regex) {
        return Err(source
            .error(
                pattern.span(),
                "a `says` pattern needs a named group `value`",
                "no (?<value>...) group",
            )
            .with_help(
                "wrap the stated figure in (?<value>...), e.g. 'holds (?<value>\\w+) files'",
            ));
    }
    if is_listing && claim.field != Field::Value {
        return Err(source.error(
            pattern.span(),
            "a listing claim compares the listing; `field` does not apply",
            "listing",
        ));
    }
    let globs: Vec<(String, Range<usize>)> = match &claim.records {
        Some(r) => r
            .get_ref()
            .to_vec()
            .into_iter()
            .map(|g| (g, r.span()))
            .collect(),
        None => rules
            .records
            .iter()
            .map(|(g, _, span)| (g.clone(), span.clone()))
            .collect(),
    };
    if globs.is_empty() {
        return Err(source
            .error(pattern.span(), "this claim names no records", "claim")
            .with_help("give the claim `in = \"docs/adr/*.md\"`, or set [recount].records"));
    }
    let specs: Vec<PathSpec> = globs
        .iter()
        .map(|(g, span)| PathSpec::from_rule(g, Style::Glob, source, span.clone()))
        .collect::<Result<_>>()?;
    let mut found = Vec::new();
    let paths: BTreeSet<&str> = select(frame.snapshot.paths(), &specs, &[])
        .into_iter()
        .collect();
    for path in paths {
        let record = match records.get(path) {
            Some(r) => Arc::clone(r),
            None => {
                let Some(record) =
                    cache.get_or_parse(path, || cites::read_record(frame, path, notes))?
                else {
                    continue;
                };
                records.insert(path.to_owned(), Arc::clone(&record));
                record
            }
        };
        found.push(if is_listing {
            ClaimInRecord::Listing {
                path: path.to_owned(),
                block: claims::find_listing(&record, &regex),
            }
        } else {
            ClaimInRecord::Stated {
                path: path.to_owned(),
                matches: claims::find_stated(&record, &regex),
            }
        });
    }
    Ok(AuditedClaim {
        origin: p.origin,
        span: pattern.span(),
        pattern: pattern.get_ref().clone(),
        field: claim.field,
        globs: globs.into_iter().map(|(g, _)| g).collect(),
        records: found,
    })
}
