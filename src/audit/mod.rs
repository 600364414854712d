//! The engine: opens the repository, loads and resolves the rules, evaluates every
//! fact at its frame and finds its claims in the records, and hands each check
//! family that gathers its own inputs the same `FamilyInputs`; the checks then
//! read the [`Audit`] it builds. Everything it produces is data; an `Err` means
//! "could not run".

pub mod suppress;

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
use crate::rules::load::{ConstantDecl, RuleSource, load_rules};
use crate::rules::model::Field;
use crate::rules::resolve::{At, Plan, PlannedClaim, PlannedFact};
use crate::snapshot::pathspec::select;
use crate::snapshot::{Day, FrameFailure, GitRepo, Snapshot};

/// What to audit.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// The repository (discovered upward from here); `None` = current directory.
    pub repo: Option<PathBuf>,
    /// The revision to audit; `None` = the working tree.
    pub rev: Option<String>,
    /// Rule files; empty = `recount.toml` at the repository root.
    pub rules: Vec<PathBuf>,
    /// The day (UTC) a suppression's `until` is compared with; `None` = today
    /// by the system clock.
    pub today: Option<Day>,
    /// Leave the records' transcripts alone (`--no-transcripts`).
    pub no_transcripts: bool,
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

/// A fact that was not computed: its frame does not resolve, an input is
/// missing at its frame, or it reads such a fact. Its claims are found but not
/// compared; it counts as neither passed nor drifted.
#[derive(Debug)]
pub struct UnverifiedFact {
    pub id: String,
    pub description: Option<String>,
    pub origin: usize,
    pub id_span: Range<usize>,
    pub kind: &'static str,
    /// The frame as written (a revision or a day), or the label of the commit
    /// it resolved to.
    pub frame: String,
    pub commit: Option<String>,
    pub why: Unverified,
    pub claims: Vec<AuditedClaim>,
}

impl UnverifiedFact {
    /// Places in records where the fact is stated (matches and listing blocks).
    pub fn stated_places(&self) -> usize {
        self.claims
            .iter()
            .flat_map(|c| &c.records)
            .map(|r| match r {
                ClaimInRecord::Stated { matches, .. } => matches.len(),
                ClaimInRecord::Listing { block, .. } => usize::from(block.is_some()),
            })
            .sum()
    }
}

/// Why a fact is unverified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unverified {
    /// Its frame names no commit this clone can read.
    Frame { rev: String, failure: FrameFailure },
    /// A file it reads is missing (or not text) at its frame.
    Input { path: String, why: String },
    /// It reads a fact that is unverified.
    Fact { id: String },
    /// Computing it failed at this commit (a constant not defined yet): the
    /// history records that; an audit stops on the error instead.
    Failed { why: String },
}

impl Unverified {
    /// One line for the facts table and the JSON report.
    pub fn reason(&self) -> String {
        match self {
            Unverified::Frame { rev, failure } => {
                format!("the frame `{rev}` does not resolve ({})", failure.kind())
            }
            Unverified::Input { path, why } => format!("input {path} {why}"),
            Unverified::Fact { id } => format!("reads fact `{id}`, which is unverified"),
            Unverified::Failed { why } => format!("cannot be computed: {why}"),
        }
    }
}

/// The other side of an `equals` assertion.
#[derive(Debug, Clone)]
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
    /// Files the globs select that are not read as records, and why: a claim
    /// that finds no record says these were skipped rather than missing.
    pub skipped: Vec<(String, String)>,
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
    /// Every record the run read (for claims, citations or retired claims),
    /// each parsed once.
    pub records: BTreeMap<String, Arc<Record>>,
    pub facts: Vec<AuditedFact>,
    /// Facts that could not be computed (see [`Unverified`]), sorted by id.
    pub unverified: Vec<UnverifiedFact>,
    /// Every frame named by a rule or a record.
    pub frames: Vec<FrameUse>,
    /// Every citation found in the records, resolved.
    pub cites: Vec<ResolvedCite>,
    /// Every occurrence of a retired claim, attributed or not.
    pub retired: Vec<RetiredHit>,
    /// Every `[[bounds]]` entry's bounds and pins.
    pub bounds: Vec<BoundsOutcome>,
    /// Every transcript in the records, and how its re-run fared.
    pub transcripts: Vec<crate::checks::transcripts::Transcript>,
    /// Rule-file entries that match nothing in the audited snapshot.
    pub unmatched: Vec<crate::checks::config_unmatched::Unmatched>,
    /// Texts of other files findings point into (records read for citations,
    /// schemas, sources), by path.
    pub files: BTreeMap<String, Arc<str>>,
    pub notes: Vec<String>,
    /// Every suppression directive in the records, in path order.
    pub suppressions: Vec<suppress::RecordSuppression>,
    /// The day (UTC) suppressions expire against.
    pub today: Day,
    /// `[checks]` levels by check id; a check not listed keeps its default.
    pub levels: BTreeMap<crate::checks::CheckId, crate::checks::Level>,
}

impl Audit {
    /// Whether the rule files leave `check` on.
    pub fn runs(&self, check: crate::checks::CheckId) -> bool {
        self.levels.get(&check) != Some(&crate::checks::Level::Off)
    }

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

/// The repository `--repo` names, else the one the current directory is in,
/// found upward as git finds it.
pub fn open_repo(repo: Option<&std::path::Path>) -> Result<GitRepo> {
    let start = match repo {
        Some(p) => p.to_path_buf(),
        None => std::env::current_dir()
            .map_err(|e| Error::plain(format!("cannot read the current directory: {e}")))?,
    };
    GitRepo::discover(&start).map_err(|e| Error::plain(e.to_string()))
}

/// The tree of `rev` read from git, or the working tree when there is none.
pub fn snapshot_of(repo: &GitRepo, rev: Option<&str>) -> Result<Arc<dyn Snapshot>> {
    Ok(match rev {
        Some(rev) => {
            let oid = repo.resolve(rev).map_err(revision_error)?;
            Arc::new(repo.tree_snapshot(&oid).map_err(revision_error)?)
        }
        None => Arc::new(repo.worktree_snapshot().map_err(revision_error)?),
    })
}

/// Runs the pipeline up to (not including) the checks.
pub fn run(options: &AuditOptions) -> Result<Audit> {
    // One-time compilations, on the other core while this one reads the repository.
    rayon::spawn(|| {
        crate::rules::load::warm_up();
        crate::checks::cites::find::warm_up();
    });
    let repo = open_repo(options.repo.as_deref())?;
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
        let plan = scope.spawn(|| crate::rules::resolve(load_rules(&rule_paths, root.as_deref())?));
        let audited = snapshot_of(&repo, options.rev.as_deref());
        let plan = plan
            .join()
            .unwrap_or_else(|_| Err(Error::plain("internal error: resolving the rules panicked")));
        (audited, plan)
    });
    let (audited, mut plan) = (audited?, plan?);
    if options.no_transcripts {
        plan.transcripts = false;
    }
    let today = options.today.unwrap_or_else(Day::today);
    let mut audit = audit_with(&repo, audited, plan, root.as_deref(), today)?;
    if zero_config {
        audit.notes.insert(
            0,
            "no recount.toml: checking the test, line and path citations and the transcripts \
             of every *.md file (write a recount.toml to recompute facts as well)"
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
    today: Day,
) -> Result<Audit> {
    // One note per reason: a repository with ninety submodules gets one line.
    let mut unread: Vec<(&str, Vec<&str>)> = Vec::new();
    for s in audited.skipped() {
        match unread.iter_mut().find(|(why, _)| *why == s.why) {
            Some((_, paths)) => paths.push(&s.path),
            None => unread.push((s.why, vec![&s.path])),
        }
    }
    let mut notes: Vec<String> = unread
        .iter()
        .map(|(why, paths)| match paths.as_slice() {
            [one] => format!("skipped {one}: {why}"),
            many => format!(
                "skipped {} paths, each a {why} (first: {})",
                many.len(),
                many[0]
            ),
        })
        .collect();

    // Frames: the audited snapshot, and one per distinct `at`. A frame that does
    // not resolve leaves its facts unverified (a frame-unresolved finding).
    let main_line = plan
        .main
        .as_ref()
        .map_or_else(|| "HEAD".to_owned(), |(_, m)| m.get_ref().clone());
    let mut frames = Frames::new(repo, Arc::new(Frame::new(audited)), main_line);
    let frame_of = frames_of(&plan, &mut frames);
    let audited_frame = frames.audited();

    // Two independent halves, one per core: the facts and their claims; and the
    // record hygiene (citations, retired claims, schema bounds).
    // (The repository handle cannot cross threads, so the hygiene half, which
    // may read more frames, stays on this one.)
    let record_cache = RecordCache::default();
    let (facts_half, hygiene_half) = std::thread::scope(|scope| {
        let facts = scope.spawn(|| {
            facts_and_claims(
                &plan,
                &frame_of,
                &audited_frame,
                &record_cache,
                Vec::new(),
                false,
            )
        });
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
            let transcripts = crate::checks::transcripts::gather::gather(&mut inputs)?;
            let unmatched = crate::checks::config_unmatched::gather(&inputs, &cites);
            Ok::<_, Error>((
                cites,
                retired,
                bounds,
                transcripts,
                unmatched,
                inputs.files,
                inputs.notes,
            ))
        })();
        let facts = facts.join().unwrap_or_else(|_| {
            Err(Error::plain(
                "internal error: the fact computation panicked",
            ))
        });
        (facts, hygiene)
    });
    let (facts, unverified, mut records, claim_notes) = facts_half?;
    // Every record the run read, claims' or citations', so a finding anywhere
    // in one is located through its one line index.
    for (path, record) in record_cache.records() {
        records.entry(path).or_insert(record);
    }
    let (cites, retired, bounds, transcripts, unmatched, files, hygiene_notes) = hygiene_half?;
    // After the rules and the revision: a bad directive is bad input like them.
    let suppressions = suppress::gather(&records)?;
    notes.extend(claim_notes);
    notes.extend(hygiene_notes);
    let source_paths: Vec<String> = plan
        .sources
        .iter()
        .map(|s| display_rule_path(&s.name, root))
        .collect();
    let frame_uses = frames.reachability(&plan)?;
    notes.extend(date_notes(&frame_uses, &source_paths));
    notes.sort();
    notes.dedup();
    Ok(Audit {
        snapshot_label: audited_frame.label.clone(),
        commit: audited_frame.commit.clone(),
        sources: plan.sources,
        source_paths,
        records,
        facts,
        unverified,
        frames: frame_uses,
        cites,
        retired,
        bounds,
        transcripts,
        unmatched,
        files,
        notes,
        suppressions,
        today,
        levels: plan.levels,
    })
}

/// Every fact's frame: the audited snapshot, or the commit its `at` names
/// (each distinct frame read once), or why that does not resolve.
pub(crate) fn frames_of(plan: &Plan, frames: &mut Frames<'_>) -> Vec<FactFrame> {
    let mut frame_of = Vec::with_capacity(plan.facts.len());
    for p in &plan.facts {
        let frame = match &p.at {
            None => FactFrame::Resolved(frames.audited()),
            Some(at) => {
                let request = match at.get_ref() {
                    At::Rev(rev) => FrameRequest::Rev(rev),
                    At::Date(day) => FrameRequest::Date(*day),
                };
                let site = FrameSite::Rule {
                    origin: p.origin,
                    span: at.span(),
                };
                match frames.at(request, site) {
                    Ok(frame) => FactFrame::Resolved(frame),
                    Err(failure) => FactFrame::Unresolved {
                        rev: at.get_ref().to_string(),
                        failure,
                    },
                }
            }
        };
        frame_of.push(frame);
    }
    frame_of
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

/// One place a frame is named, what it resolved to, and whether it lies on the
/// main line.
#[derive(Debug, Clone)]
pub struct FrameUse {
    /// The frame as written: a revision, or a day (`2026-09-13`).
    pub rev: String,
    /// The commit measured at; `None` when the frame does not resolve.
    pub commit: Option<String>,
    pub site: FrameSite,
    /// `Some(main)` when `[recount].main` is set: the main line's name and whether
    /// the frame is an ancestor of it.
    pub on_main: Option<(String, bool)>,
    /// Why `rev` names no commit this clone can read (set too when a record's
    /// date stood in for a sha that is gone).
    pub failure: Option<FrameFailure>,
    /// The day the commit was chosen by: a date frame, or a record's "measured
    /// on DAY" standing in for its sha.
    pub by_date: Option<Day>,
    /// The main line a date was looked up on.
    pub main_line: String,
}

/// What a frame names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FrameRequest<'a> {
    /// A revision as written.
    Rev(&'a str),
    /// The last commit of the main line at or before the end of a day (UTC).
    Date(Day),
    /// A record's "measured on DAY against SHA": the sha, else the day.
    RevElseDate(&'a str, Day),
}

/// A fact's frame: its snapshot, or why there is none.
#[derive(Clone)]
pub(crate) enum FactFrame {
    Resolved(Arc<Frame>),
    Unresolved { rev: String, failure: FrameFailure },
}

/// The snapshots a run measures at: the audited one and one per frame commit,
/// each read once however many facts or cites name it.
pub(crate) struct Frames<'r> {
    repo: &'r GitRepo,
    audited: Arc<Frame>,
    /// The main line date frames are looked up on: `[recount].main`, else HEAD.
    main_line: String,
    by_commit: BTreeMap<String, Arc<Frame>>,
    uses: Vec<FrameUse>,
}

impl<'r> Frames<'r> {
    pub(crate) fn new(repo: &'r GitRepo, audited: Arc<Frame>, main_line: String) -> Self {
        Frames {
            repo,
            audited,
            main_line,
            by_commit: BTreeMap::new(),
            uses: Vec::new(),
        }
    }

    /// The repository's tag names, sorted.
    pub(crate) fn tags(&self) -> Vec<String> {
        self.repo.tag_names()
    }

    pub(crate) fn audited(&self) -> Arc<Frame> {
        Arc::clone(&self.audited)
    }

    /// What became of paths that are gone from the audited snapshot, from the
    /// history behind it (HEAD's, for the working tree): renamed or deleted,
    /// and in which commit.
    pub(crate) fn fates_of(
        &self,
        paths: &[String],
    ) -> BTreeMap<String, crate::snapshot::git::PathFate> {
        // Enough history for the records a team keeps, bounded so a gate on a
        // large repository stays fast.
        const LOOK_BACK: usize = 2_000;
        let from = self.audited.commit.as_deref().unwrap_or("HEAD");
        self.repo.fates_of(paths, from, LOOK_BACK)
    }

    /// The repository the frames are read from.
    pub(crate) fn repo(&self) -> &'r GitRepo {
        self.repo
    }

    /// The frame `request` names and its commit, without recording a use (a
    /// record's frame marker is recorded where the citations read it).
    pub(crate) fn quietly(
        &mut self,
        request: FrameRequest<'_>,
    ) -> Result<(String, Arc<Frame>), FrameFailure> {
        let before = self.uses.len();
        let found = self.at(
            request,
            FrameSite::Record {
                path: String::new(),
                span: 0..0,
            },
        );
        self.uses.truncate(before);
        let frame = found?;
        let commit = frame.commit.clone().unwrap_or_default();
        Ok((commit, frame))
    }

    /// The frame `request` names, remembering where it was named and, when it
    /// does not resolve, why (the frame-unresolved check reads that).
    pub(crate) fn at(
        &mut self,
        request: FrameRequest<'_>,
        site: FrameSite,
    ) -> Result<Arc<Frame>, FrameFailure> {
        let (rev, by_rev, by_date) = match request {
            FrameRequest::Rev(rev) => (rev.to_owned(), Some(rev), None),
            FrameRequest::Date(day) => (day.to_string(), None, Some(day)),
            FrameRequest::RevElseDate(rev, day) => (rev.to_owned(), Some(rev), Some(day)),
        };
        let mut failure = None;
        let mut used_date = None;
        let mut found = None;
        if let Some(rev) = by_rev {
            match self.lookup(rev) {
                Ok(hit) => found = Some(hit),
                Err(e) => failure = Some(e.frame_failure()),
            }
        }
        if found.is_none()
            && let Some(day) = by_date
        {
            match self.by_day(day) {
                Ok(hit) => {
                    found = Some(hit);
                    used_date = Some(day);
                }
                // A sha's failure says more than its date's.
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        let (commit, frame) = match found {
            Some((commit, frame)) => (Some(commit), Ok(frame)),
            None => (
                None,
                Err(failure
                    .clone()
                    .unwrap_or_else(|| FrameFailure::Other("no frame".to_owned()))),
            ),
        };
        self.uses.push(FrameUse {
            rev,
            commit,
            site,
            on_main: None,
            failure,
            by_date: used_date,
            main_line: self.main_line.clone(),
        });
        frame
    }

    /// The last commit of the main line by the end of `day`, read once.
    fn by_day(&mut self, day: Day) -> Result<(String, Arc<Frame>), FrameFailure> {
        let no_commit = || FrameFailure::NoCommitByDate {
            main: self.main_line.clone(),
            shallow: self.repo.is_shallow(),
        };
        let commit = self
            .repo
            .last_commit_by(&self.main_line, day)
            .map_err(|e| {
                FrameFailure::Other(format!(
                    "the main line `{}` does not resolve: {e}",
                    self.main_line
                ))
            })?
            .ok_or_else(no_commit)?;
        self.lookup(&commit).map_err(|e| e.frame_failure())
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
            let Some(commit) = &frame_use.commit else {
                continue;
            };
            let on = self
                .repo
                .is_ancestor(commit, &main_commit)
                .map_err(|e| Error::plain(e.to_string()))?;
            frame_use.on_main = Some((main.get_ref().clone(), on));
        }
        Ok(uses)
    }
}

/// A note for every frame chosen by date: which commit the day named, and,
/// where a record's sha is gone, that its date stood in for it.
fn date_notes(uses: &[FrameUse], source_paths: &[String]) -> Vec<String> {
    uses.iter()
        .filter_map(|u| {
            let day = u.by_date?;
            let commit = u.commit.as_deref()?;
            let short = &commit[..commit.len().min(12)];
            let place = match &u.site {
                FrameSite::Rule { origin, .. } => {
                    source_paths.get(*origin).cloned().unwrap_or_default()
                }
                FrameSite::Record { path, .. } => path.clone(),
            };
            Some(match &u.failure {
                Some(failure) => format!(
                    "{place}: the frame `{}` is gone ({}); measured on {day} instead: {short}, \
                     the last commit of {} by the end of that day (UTC)",
                    u.rev,
                    failure.kind(),
                    u.main_line
                ),
                None => format!(
                    "{place}: the frame {day} is {short}, the last commit of {} by the end of \
                     that day (UTC)",
                    u.main_line
                ),
            })
        })
        .collect()
}

/// A rule file's name as reports show it: repository-relative when inside it.
pub(crate) fn display_rule_path(name: &str, root: Option<&std::path::Path>) -> String {
    let path = std::path::Path::new(name);
    if let Some(root) = root
        && let (Ok(p), Ok(r)) = (path.canonicalize(), root.canonicalize())
        && let Ok(rel) = p.strip_prefix(&r)
    {
        return rel.to_string_lossy().replace('\\', "/");
    }
    name.to_owned()
}

/// What the facts half of the engine hands back.
pub(crate) type FactsHalf = (
    Vec<AuditedFact>,
    Vec<UnverifiedFact>,
    BTreeMap<String, Arc<Record>>,
    Vec<String>,
);

/// Computes every fact, then finds every claim in the audited snapshot's records.
/// `known` holds outcomes already known for this snapshot, by fact index (the
/// history's caches: a fact whose inputs did not change since a commit where
/// it was computed); empty computes every fact.
pub(crate) fn facts_and_claims(
    plan: &Plan,
    frame_of: &[FactFrame],
    audited: &Frame,
    cache: &RecordCache,
    known: Vec<ComputedFact>,
    lenient: bool,
) -> Result<FactsHalf> {
    let mut computed = compute_facts(plan, frame_of, known, lenient)?;
    let mut records: BTreeMap<String, Arc<Record>> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut facts = Vec::with_capacity(plan.facts.len());
    let mut unverified = Vec::new();
    for (index, p) in plan.facts.iter().enumerate() {
        let Some(outcome) = computed[index].take() else {
            continue;
        };
        let mut claims = Vec::with_capacity(p.claims.len());
        for claim in &p.claims {
            claims.push(find_claim(claim, audited, cache, &mut records, &mut notes)?);
        }
        let (frame, commit) = match &frame_of[index] {
            FactFrame::Resolved(frame) => (frame.label.clone(), frame.commit.clone()),
            FactFrame::Unresolved { rev, .. } => (rev.clone(), None),
        };
        match outcome {
            Ok((value, equals)) => facts.push(AuditedFact {
                id: p.id.get_ref().clone(),
                description: p.description.clone(),
                origin: p.origin,
                id_span: p.id.span(),
                kind: p.kind.name(),
                frame,
                commit,
                computed: value,
                equals,
                claims,
            }),
            Err(why) => unverified.push(UnverifiedFact {
                id: p.id.get_ref().clone(),
                description: p.description.clone(),
                origin: p.origin,
                id_span: p.id.span(),
                kind: p.kind.name(),
                frame,
                commit,
                why,
                claims,
            }),
        }
    }
    facts.sort_by(|a, b| a.id.cmp(&b.id));
    unverified.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((facts, unverified, records, notes))
}

/// A fact's value and its `equals` side once computed, or why it was not.
pub(crate) type ComputedFact =
    Option<std::result::Result<(Computed, Option<EqualsOutcome>), Unverified>>;

/// Every fact's value (and its `equals` side), computed in dependency order. A
/// fact whose frame does not resolve, whose input file is missing at its frame,
/// or which reads such a fact, is not computed: it is unverified.
fn compute_facts(
    plan: &Plan,
    frame_of: &[FactFrame],
    mut known: Vec<ComputedFact>,
    lenient: bool,
) -> Result<Vec<ComputedFact>> {
    let mut values: BTreeMap<String, FactValue> = BTreeMap::new();
    let mut unverified: BTreeSet<String> = BTreeSet::new();
    known.resize_with(plan.facts.len(), || None);
    let mut computed: Vec<ComputedFact> = (0..plan.facts.len()).map(|_| None).collect();
    for &index in &plan.order {
        let p = &plan.facts[index];
        let id = p.id.get_ref();
        if let Some(outcome) = known[index].take() {
            match &outcome {
                Ok((value, _)) => {
                    values.insert(id.clone(), value.value);
                }
                Err(_) => {
                    unverified.insert(id.clone());
                }
            }
            computed[index] = Some(outcome);
            continue;
        }
        let why = match &frame_of[index] {
            FactFrame::Unresolved { rev, failure } => Some(Unverified::Frame {
                rev: rev.clone(),
                failure: failure.clone(),
            }),
            FactFrame::Resolved(frame) => p
                .reads()
                .facts
                .into_iter()
                .find(|read| unverified.contains(read))
                .map(|id| Unverified::Fact { id })
                .or_else(|| missing_input(p, frame, &plan.constants)),
        };
        if let Some(why) = why {
            unverified.insert(id.clone());
            computed[index] = Some(Err(why));
            continue;
        }
        let FactFrame::Resolved(frame) = &frame_of[index] else {
            continue;
        };
        let source = &plan.sources[p.origin];
        let lookup = |id: &str| values.get(id).copied();
        let env = Env {
            frame,
            source,
            declared: &plan.constants,
            fact_value: &lookup,
        };
        let outcome = (|| -> Result<_> {
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
            Ok((value, equals))
        })();
        let (value, equals) = match outcome {
            Ok(done) => done,
            Err(e) if lenient => {
                unverified.insert(id.clone());
                computed[index] = Some(Err(Unverified::Failed {
                    why: crate::error::one_line(&e),
                }));
                continue;
            }
            Err(e) => return Err(e),
        };
        values.insert(id.clone(), value.value);
        computed[index] = Some(Ok((value, equals)));
    }
    Ok(computed)
}

/// The first file a fact reads that its frame lacks: a file the kind names
/// outright (not a glob), or the file `[constants]` declares for a constant it
/// evaluates. A file the fact reads as text that is binary counts as missing.
fn missing_input(
    p: &PlannedFact,
    frame: &Frame,
    declared: &BTreeMap<String, ConstantDecl>,
) -> Option<Unverified> {
    let at = &frame.label;
    let paths = frame.snapshot.paths();
    let has = |p: &str| crate::snapshot::has_file(paths, p);
    let has_folder = |p: &str| crate::snapshot::has_folder(paths, p);
    let reads = p.kind.reads();
    let reads_text = reads.as_text;
    for spec in &reads.paths {
        let path = spec.trim_start_matches("./");
        if path.is_empty() || path.contains(['*', '?', '[', '{']) || path.starts_with(':') {
            continue;
        }
        if has(path) {
            if reads_text && matches!(frame.snapshot.read_text(path), Ok(None)) {
                return Some(Unverified::Input {
                    path: path.to_owned(),
                    why: format!("is not a text file at {at}"),
                });
            }
        } else if !has_folder(path) {
            return Some(Unverified::Input {
                path: path.to_owned(),
                why: format!("does not exist at {at}"),
            });
        }
    }
    // A `constant` fact with its own `file` reads that file, not the declared one.
    let own_file = matches!(p.kind, crate::facts::FactKind::Constant(_)) && !reads.paths.is_empty();
    let mut constants: Vec<String> = if own_file {
        Vec::new()
    } else {
        reads.constants
    };
    if let Some((_, expr)) = &p.equals {
        constants.extend(expr.references().into_iter().filter_map(|r| match r {
            crate::constants::expr::Reference::Constant(name) => Some(name),
            crate::constants::expr::Reference::Fact(_) => None,
        }));
    }
    constants.into_iter().find_map(|name| {
        let decl = declared.get(&name)?;
        (!has(&decl.file)).then(|| Unverified::Input {
            path: decl.file.clone(),
            why: format!("does not exist at {at} (it declares constant `{name}`)"),
        })
    })
}

fn find_claim(
    claim: &PlannedClaim,
    frame: &Frame,
    cache: &RecordCache,
    records: &mut BTreeMap<String, Arc<Record>>,
    notes: &mut Vec<String>,
) -> Result<AuditedClaim> {
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    let paths: BTreeSet<&str> = select(frame.snapshot.paths(), &claim.records, &[])
        .into_iter()
        .collect();
    for path in paths {
        let record = match records.get(path) {
            Some(r) => Arc::clone(r),
            None => {
                let read = || -> Result<Option<Arc<str>>> {
                    match crate::records::read_text(&*frame.snapshot, path, notes)
                        .map_err(|e| Error::plain(format!("cannot read record {path}: {e}")))?
                    {
                        crate::records::RecordText::Text(text) => Ok(Some(text)),
                        crate::records::RecordText::Skipped(why) => {
                            skipped.push((path.to_owned(), why));
                            Ok(None)
                        }
                        crate::records::RecordText::Absent => Ok(None),
                    }
                };
                let Some(record) = cache.get_or_parse(path, read)? else {
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
        skipped,
    })
}
