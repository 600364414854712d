//! The engine: opens the repository, loads and resolves the rules, evaluates every
//! fact at its frame and finds its claims in the records, and hands each check
//! family that gathers its own inputs the same `FamilyInputs`; the checks then
//! read the [`Audit`] it builds. Everything it produces is data; an `Err` means
//! "could not run".

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use crate::checks::bounds::{self, BoundsOutcome};
use crate::checks::cites::{self, ResolvedCite};
use crate::checks::retired::{self, RetiredHit};
use crate::claims::{self, ListingAt, Record, StatedAt};
use crate::error::{Error, Result};
use crate::facts::{Computed, Env, FactValue, Frame, Recipe};
use crate::number::Number;
use crate::records::RecordCache;
use crate::rules::load::{RuleSource, load_rules};
use crate::rules::model::Field;
use crate::rules::resolve::{Plan, PlannedClaim};
use crate::snapshot::pathspec::select;
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
    /// Rule-file entries that match nothing in the audited snapshot.
    pub unmatched: Vec<crate::checks::config_unmatched::Unmatched>,
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
        crate::checks::cites::find::warm_up();
    });
    let start = match &options.repo {
        Some(p) => p.clone(),
        None => std::env::current_dir()
            .map_err(|e| Error::plain(format!("cannot read the current directory: {e}")))?,
    };
    let repo = GitRepo::discover(&start).map_err(|e| Error::plain(e.to_string()))?;
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
    // The rules load and resolve (claim patterns compile) on the other core while
    // this one reads the snapshot; a bad revision is reported before a bad rule.
    let (audited, plan) = std::thread::scope(|scope| {
        let plan = scope.spawn(|| crate::rules::resolve(load_rules(&rule_paths)?));
        let audited = (|| -> Result<Arc<dyn Snapshot>> {
            Ok(match &options.rev {
                Some(rev) => {
                    let oid = repo.resolve(rev).map_err(revision_error)?;
                    Arc::new(repo.tree_snapshot(&oid).map_err(revision_error)?)
                }
                None => Arc::new(repo.worktree_snapshot().map_err(revision_error)?),
            })
        })();
        let plan = plan.join().unwrap_or_else(|_| {
            Err(Error::plain("internal error: resolving the rules panicked"))
        });
        (audited, plan)
    });
    let (audited, plan) = (audited?, plan?);
    let mut audit = audit_with(&repo, audited, plan, root.as_deref())?;
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

fn audit_with(
    repo: &GitRepo,
    audited: Arc<dyn Snapshot>,
    plan: Plan,
    root: Option<&std::path::Path>,
) -> Result<Audit> {
    let mut notes: Vec<String> = audited
        .skipped()
        .iter()
        .map(|s| format!("skipped {}: {}", s.path, s.why))
        .collect();

    // Frames: the audited snapshot, and one per distinct `at`.
    let mut frames = Frames::new(repo, Arc::new(Frame::new(audited)));
    let mut frame_of = Vec::with_capacity(plan.facts.len());
    for p in &plan.facts {
        let frame = match &p.at {
            None => frames.audited(),
            Some(at) => {
                let source = &plan.sources[p.origin];
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
                                    p.id.get_ref()
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
        let facts =
            scope.spawn(|| facts_and_claims(&plan, &frame_of, &audited_frame, &record_cache));
        let hygiene = (|| {
            let mut inputs = FamilyInputs {
                plan: &plan,
                frames: &mut frames,
                records: &record_cache,
                files: BTreeMap::new(),
                notes: Vec::new(),
            };
            let cites = cites::gather::gather(&mut inputs)?;
            let retired = retired::gather::gather(&mut inputs)?;
            let bounds = bounds::gather::gather(&mut inputs)?;
            let unmatched = crate::checks::config_unmatched::gather(&inputs, &cites);
            Ok::<_, Error>((cites, retired, bounds, unmatched, inputs.files, inputs.notes))
        })();
        let facts = facts.join().unwrap_or_else(|_| {
            Err(Error::plain(
                "internal error: the fact computation panicked",
            ))
        });
        (facts, hygiene)
    });
    let (facts, records, claim_notes) = facts_half?;
    let (cites, retired, bounds, unmatched, files, hygiene_notes) = hygiene_half?;
    notes.extend(claim_notes);
    notes.extend(hygiene_notes);
    let source_paths = plan
        .sources
        .iter()
        .map(|s| display_rule_path(&s.name, root))
        .collect();
    let frame_uses = frames.reachability(&plan)?;
    notes.sort();
    notes.dedup();
    Ok(Audit {
        snapshot_label: audited_frame.label.clone(),
        commit: audited_frame.commit.clone(),
        sources: plan.sources,
        source_paths,
        records,
        facts,
        frames: frame_uses,
        cites,
        retired,
        bounds,
        unmatched,
        files,
        notes,
    })
}

/// What the engine hands every check family that gathers its own inputs (the
/// citations, the retired claims, the schema bounds): the plan, the frames (the
/// audited snapshot and any other a record names), the records of the run — each
/// read and parsed once, shared with the claims — and where to leave notes and
/// the texts findings point into.
pub(crate) struct FamilyInputs<'a, 'r> {
    pub(crate) plan: &'a Plan,
    pub(crate) frames: &'a mut Frames<'r>,
    pub(crate) records: &'a RecordCache,
    pub(crate) files: BTreeMap<String, Arc<str>>,
    pub(crate) notes: Vec<String>,
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
pub(crate) struct Frames<'r> {
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

    pub(crate) fn audited(&self) -> Arc<Frame> {
        Arc::clone(&self.audited)
    }

    /// The frame at `rev`, remembering where it was named.
    pub(crate) fn at(
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
    pub(crate) fn lookup(
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
    fn reachability(self, plan: &Plan) -> Result<Vec<FrameUse>> {
        let Some((origin, main)) = &plan.main else {
            return Ok(self.uses);
        };
        let source = &plan.sources[*origin];
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

/// Computes every fact, then finds every claim in the audited snapshot's records.
#[allow(clippy::type_complexity)]
fn facts_and_claims(
    plan: &Plan,
    frame_of: &[Arc<Frame>],
    audited: &Frame,
    cache: &RecordCache,
) -> Result<(Vec<AuditedFact>, BTreeMap<String, Arc<Record>>, Vec<String>)> {
    let mut computed = compute_facts(plan, frame_of)?;
    let mut records: BTreeMap<String, Arc<Record>> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut facts = Vec::with_capacity(plan.facts.len());
    for (index, p) in plan.facts.iter().enumerate() {
        let Some((value, equals)) = computed[index].take() else {
            continue;
        };
        let mut claims = Vec::with_capacity(p.claims.len());
        for claim in &p.claims {
            claims.push(find_claim(claim, audited, cache, &mut records, &mut notes)?);
        }
        facts.push(AuditedFact {
            id: p.id.get_ref().clone(),
            description: p.description.clone(),
            origin: p.origin,
            id_span: p.id.span(),
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
fn compute_facts(plan: &Plan, frame_of: &[Arc<Frame>]) -> Result<Vec<ComputedFact>> {
    let mut values: BTreeMap<String, FactValue> = BTreeMap::new();
    let mut computed: Vec<ComputedFact> = (0..plan.facts.len()).map(|_| None).collect();
    for &index in &plan.order {
        let p = &plan.facts[index];
        let source = &plan.sources[p.origin];
        let lookup = |id: &str| values.get(id).copied();
        let env = Env {
            frame: &frame_of[index],
            source,
            declared: &plan.constants,
            fact_value: &lookup,
        };
        let value = p.kind.compute(&env)?;
        let equals = match &p.equals {
            Some((text, expr)) => {
                let mut inputs = vec![expr.to_string()];
                let v = env.eval(expr, text.span(), &mut inputs)?;
                Some(EqualsOutcome {
                    text: text.get_ref().clone(),
                    span: text.span(),
                    value: v,
                    recipe: Recipe::new("expr", &env, inputs),
                })
            }
            None => None,
        };
        values.insert(p.id.get_ref().clone(), value.value);
        computed[index] = Some((value, equals));
    }
    Ok(computed)
}

fn find_claim(
    claim: &PlannedClaim,
    frame: &Frame,
    cache: &RecordCache,
    records: &mut BTreeMap<String, Arc<Record>>,
    notes: &mut Vec<String>,
) -> Result<AuditedClaim> {
    let mut found = Vec::new();
    let paths: BTreeSet<&str> = select(frame.snapshot.paths(), &claim.records, &[])
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
        found.push(if claim.is_listing {
            ClaimInRecord::Listing {
                path: path.to_owned(),
                block: claims::find_listing(&record, &claim.pattern),
            }
        } else {
            ClaimInRecord::Stated {
                path: path.to_owned(),
                matches: claims::find_stated(&record, &claim.pattern),
            }
        });
    }
    Ok(AuditedClaim {
        origin: claim.origin,
        span: claim.span.clone(),
        pattern: claim.text.clone(),
        field: claim.field,
        globs: claim.globs.clone(),
        records: found,
    })
}
