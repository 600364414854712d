//! The history engine: the audit's facts-and-claims half run at every
//! first-parent commit of a range, with the rules loaded and resolved once,
//! frames pinned by `at` read once, and each fact's outcome cached by the
//! object ids of its inputs (`inputs`), so a commit that touched none of them
//! costs a few tree lookups. Commits are split across worker threads, one
//! repository handle each. What it produces is data: per commit, each fact's
//! value and each claim's status; `History` turns that into value changes and
//! culprits, `bisect` searches the same per-commit evaluation.
//!
//! History tracks the facts and claims of rule files only: citation hygiene
//! (`stale-*-cite`, retired claims, bounds) is about a record at one commit,
//! has no value to follow, and is what `check --rev` is for.

pub mod inputs;
pub mod walk;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use git2::{Oid, Repository};
use rayon::prelude::*;
use serde::Serialize;

use crate::audit::{self, ComputedFact};
use crate::checks::audited::Audit;
use crate::checks::families::Families;
use crate::checks::{CheckId, Finding};
use crate::error::{Error, Result};
use crate::facts::FactValue;
use crate::frames::Frame;
use crate::frames::{FactFrame, Frames};
use crate::records::RecordCache;
use crate::rules::load::load_rules;
use crate::rules::resolve::Plan;
use crate::snapshot::{Day, GitRepo, GitSnapshot, Snapshot};
use inputs::{Entry, FactCache, InputMap, Recording, Shapes, id_at};
pub use walk::{CommitInfo, RangeSpec};

/// What to walk and how.
#[derive(Debug, Clone)]
pub struct HistoryOptions {
    /// The repository (discovered upward from here); `None` = current directory.
    pub repo: Option<PathBuf>,
    /// Rule files; empty = `recount.toml` at the repository root.
    pub rules: Vec<PathBuf>,
    pub range: RangeSpec,
    /// Reuse a fact's value wherever its inputs' object ids are unchanged.
    /// Off, every fact is computed afresh at every commit (the reference the
    /// incremental results are tested against).
    pub incremental: bool,
    /// Worker threads; `None` = rayon's default (one per core).
    pub jobs: Option<usize>,
}

/// A fact's outcome at one commit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum FactState {
    /// Computed: the value as reports show it, and as a number for charts
    /// (absent for a verdict).
    Value {
        value: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        number: Option<f64>,
    },
    /// Not computed, and why (a missing input, an unresolved frame).
    Unverified { why: String },
}

impl FactState {
    pub fn text(&self) -> &str {
        match self {
            FactState::Value { value, .. } => value,
            FactState::Unverified { .. } => "unverified",
        }
    }
}

/// A claim's status at one commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum ClaimState {
    /// Every statement agrees with the fact.
    Holds,
    /// A statement disagrees (a `fact-drift` finding): the first, located.
    Drifted {
        path: String,
        line: usize,
        column: usize,
        stated: String,
        observed: String,
    },
    /// The pattern matches nothing in a record it names (`claim-not-found`).
    NotFound,
    /// Its fact could not be computed.
    Unverified,
}

impl ClaimState {
    pub fn name(&self) -> &'static str {
        match self {
            ClaimState::Holds => "holds",
            ClaimState::Drifted { .. } => "drifted",
            ClaimState::NotFound => "not-found",
            ClaimState::Unverified => "unverified",
        }
    }

    pub fn is_drifted(&self) -> bool {
        matches!(self, ClaimState::Drifted { .. })
    }
}

/// Every fact's and claim's outcome at one commit, by plan index.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitEval {
    pub facts: Vec<FactState>,
    /// Per fact, per claim (in rule order).
    pub claims: Vec<Vec<ClaimState>>,
}

/// The walk, loaded: the repository, the plan, the frames pinned by `at`.
pub struct Session {
    /// The handle the walk and the reports use (workers open their own).
    repo: Mutex<GitRepo>,
    git_dir: PathBuf,
    plan: Plan,
    source_paths: Vec<String>,
    /// Per fact: its frame when `at` pins it (read once for the whole walk).
    pinned: Vec<Option<FactFrame>>,
    inputs: InputMap,
    cache: FactCache,
    shapes: Shapes,
    incremental: bool,
    jobs: Option<usize>,
    notes: Vec<String>,
}

impl Session {
    /// Opens the repository and loads and resolves the rules.
    pub fn open(options: &HistoryOptions) -> Result<Session> {
        crate::snapshot::git::drop_object_cache_for_walks();
        let repo = crate::audit::open_repo(options.repo.as_deref())?;
        let root = repo.workdir().map(std::path::Path::to_path_buf);
        let rule_paths = if options.rules.is_empty() {
            match &root {
                Some(root) if root.join("recount.toml").is_file() => {
                    vec![root.join("recount.toml")]
                }
                _ => {
                    return Err(Error::plain(
                        "history follows the facts and claims of rule files, and there is none: \
                         no recount.toml at the repository root and no --rules",
                    )
                    .with_help(
                        "write a recount.toml (or pass --rules PATH); the citation checks a \
                         repository gets with no configuration are point-in-time: run \
                         `recount check --rev REV` for them",
                    ));
                }
            }
        } else {
            options.rules.clone()
        };
        let plan = crate::rules::resolve(load_rules(&rule_paths, root.as_deref())?)?;
        let source_paths = plan
            .sources
            .iter()
            .map(|s| audit::display_rule_path(&s.name, root.as_deref()))
            .collect();
        let inputs = InputMap::new(&plan);
        Ok(Session {
            git_dir: repo.git_dir().to_path_buf(),
            repo: Mutex::new(repo),
            plan,
            source_paths,
            pinned: Vec::new(),
            inputs,
            cache: FactCache::default(),
            shapes: Shapes::default(),
            incremental: options.incremental,
            jobs: options.jobs,
            notes: Vec::new(),
        })
    }

    fn repo(&self) -> std::sync::MutexGuard<'_, GitRepo> {
        // A panic while the handle was held leaves it as usable as before.
        self.repo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Notes for stderr (a frame that did not resolve, ...).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The first-parent commits of the range, oldest first.
    pub fn commits(&mut self, range: &RangeSpec) -> Result<Vec<Oid>> {
        let commits = walk::commits(&self.repo(), range)?;
        if commits.is_empty() {
            let text = range.range.as_deref().unwrap_or("HEAD");
            return Err(Error::plain(format!(
                "the range `{text}` holds no first-parent commits{}",
                range
                    .since
                    .map(|d| format!(" since {d}"))
                    .unwrap_or_default()
            )));
        }
        let boundary = walk::shallow_boundary(&self.repo(), commits[0]);
        if let Some(boundary) = boundary {
            self.notes.push(format!(
                "warning: this clone is shallow: its history stops at {boundary}, so a claim already \
                 drifted there reads as drifted since before the range and no culprit older \
                 than it can be named (CI needs the full history, e.g. `fetch-depth: 0` for \
                 actions/checkout)"
            ));
        }
        self.pin_frames(*commits.last().unwrap_or(&commits[0]))?;
        Ok(commits)
    }

    /// Reads the frames `at` names, once for the walk.
    fn pin_frames(&mut self, newest: Oid) -> Result<()> {
        if !self.pinned.is_empty() || self.plan.facts.iter().all(|f| f.at.is_none()) {
            self.pinned = self.plan.facts.iter().map(|_| None).collect();
            return Ok(());
        }
        let main_line = self
            .plan
            .main
            .as_ref()
            .map_or_else(|| "HEAD".to_owned(), |(_, m)| m.get_ref().clone());
        let audited =
            GitSnapshot::open(&self.git_dir, newest).map_err(|e| Error::plain(e.to_string()))?;
        let frame_of = {
            let repo = self.repo();
            let mut frames = Frames::new(&repo, Arc::new(Frame::new(Arc::new(audited))), main_line)
                .with_rule_files(crate::frames::in_repository(
                    self.source_paths.iter().cloned(),
                ));
            crate::frames::frames_of(self.plan.fact_frames(), &mut frames)
        };
        for (fact, frame) in self.plan.facts.iter().zip(&frame_of) {
            if let (Some(at), FactFrame::Unresolved { failure, .. }) = (&fact.at, frame) {
                self.notes.push(format!(
                    "fact `{}`: its frame `{}` does not resolve ({}); it is unverified at every \
                     commit",
                    fact.id.get_ref(),
                    at.get_ref(),
                    failure.kind()
                ));
            }
        }
        self.pinned = self
            .plan
            .facts
            .iter()
            .zip(frame_of)
            .map(|(fact, frame)| fact.at.is_some().then_some(frame))
            .collect();
        Ok(())
    }

    /// Every commit's outcomes, in the order given, computed across worker
    /// threads (a contiguous run of commits each, so a run's consecutive
    /// commits share what did not change).
    pub fn evaluate_all(
        &self,
        commits: &[Oid],
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<CommitEval>> {
        let threads = self.jobs.unwrap_or_else(rayon::current_num_threads).max(1);
        // One contiguous run per worker: the first commit of a run is
        // evaluated whole, the rest only where their inputs changed.
        let run = commits.len().div_ceil(threads).max(1);
        let chunks: Vec<&[Oid]> = commits.chunks(run).collect();
        // The oldest commit first, alone: the facts it computes (the whole
        // tree's worth, since no worker has anything yet) fill the shared
        // cache, so the other runs start from it rather than each from nothing.
        if chunks.len() > 1 {
            self.evaluate(commits[0])?;
        }
        let done = Mutex::new(0usize);
        let work = || -> Result<Vec<Vec<CommitEval>>> {
            chunks
                .par_iter()
                .map(|chunk| {
                    let raw = Repository::open(&self.git_dir)
                        .map_err(|e| Error::plain(format!("cannot open the repository: {e}")))?;
                    let mut worker = Worker::default();
                    let mut out = Vec::with_capacity(chunk.len());
                    for &oid in *chunk {
                        out.push(self.evaluate_with(&raw, oid, &mut worker)?);
                        if let Ok(mut n) = done.lock() {
                            *n += 1;
                            progress(*n);
                        }
                    }
                    Ok(out)
                })
                .collect()
        };
        let evaluated = match self.jobs {
            Some(jobs) => rayon::ThreadPoolBuilder::new()
                .num_threads(jobs.max(1))
                .build()
                .map_err(|e| Error::plain(format!("cannot start worker threads: {e}")))?
                .install(work)?,
            None => work()?,
        };
        Ok(evaluated.into_iter().flatten().collect())
    }

    /// One commit's outcomes (a fresh worker: no commit-to-commit reuse
    /// beyond the shared fact cache).
    pub fn evaluate(&self, oid: Oid) -> Result<CommitEval> {
        let raw = Repository::open(&self.git_dir)
            .map_err(|e| Error::plain(format!("cannot open the repository: {e}")))?;
        self.evaluate_with(&raw, oid, &mut Worker::default())
    }

    /// The commit before the range's oldest, on the first-parent line: read
    /// to say whether a claim drifted at the range's first commit began its
    /// drift there.
    pub fn before_range(&self, oldest: Oid) -> Option<Oid> {
        self.repo().first_parent_of(oldest)
    }

    /// Commit details for reports.
    pub fn info(&self, oid: Oid) -> Result<CommitInfo> {
        let repo = self.repo();
        let commit = repo
            .raw()
            .find_commit(oid)
            .map_err(|e| Error::plain(format!("cannot read commit {oid}: {}", e.message())))?;
        Ok(CommitInfo::of(&commit))
    }

    fn evaluate_with(&self, raw: &Repository, oid: Oid, worker: &mut Worker) -> Result<CommitEval> {
        let git = |what: &str, e: git2::Error| {
            Error::plain(format!(
                "cannot read {what} of commit {oid}: {}",
                e.message()
            ))
        };
        if !self.incremental {
            return self.compute(oid, Vec::new(), None).map(|(eval, _)| eval);
        }
        let commit = raw.find_commit(oid).map_err(|e| git("the commit", e))?;
        let tree = commit.tree().map_err(|e| git("the tree", e))?;
        let ids: Vec<Option<Oid>> = self
            .inputs
            .paths
            .iter()
            .map(|input| self.shapes.id(raw, &tree, input))
            .collect();
        let keys = self.inputs.keys(&self.plan, &ids);
        let mut hits: Vec<Option<Arc<Entry>>> = Vec::with_capacity(keys.len());
        // What the outcome of this commit depends on: every key, the claims'
        // record folders, and the reads behind each reused outcome.
        let mut whole: Vec<Option<Oid>> = Vec::new();
        let mut all_known = true;
        for (fact, key) in keys.iter().enumerate() {
            whole.push(None);
            whole.extend(key.iter().copied());
            let hit = self.cache.get(fact, key, &tree);
            match &hit {
                Some(entry) => whole.extend(entry.reads.iter().map(|(_, id)| *id)),
                None => all_known = false,
            }
            hits.push(hit);
        }
        whole.push(None);
        whole.extend(self.inputs.of_claims.iter().map(|&p| ids[p]));
        if all_known
            && let Some((previous, eval)) = &worker.previous
            && *previous == whole
        {
            return Ok(eval.clone());
        }
        let missing: Vec<usize> = (0..hits.len()).filter(|&i| hits[i].is_none()).collect();
        // Cloned only here: an outcome can carry a listing of thousands of paths.
        let known: Vec<ComputedFact> = hits
            .iter()
            .map(|hit| hit.as_ref().and_then(|e| e.outcome.clone()))
            .collect();
        // Only the paths the facts to compute and the claims read are listed,
        // unless a constant is to be evaluated: its imports may lead anywhere.
        let scope: Option<Vec<String>> = (!missing.iter().any(|&i| self.inputs.uses_constants[i]))
            .then(|| {
                let mut scope: Vec<String> = missing
                    .iter()
                    .flat_map(|&i| &self.inputs.of_fact[i])
                    .chain(&self.inputs.of_claims)
                    .map(|&p| self.inputs.paths[p].path.clone())
                    .collect();
                scope.sort();
                scope.dedup();
                scope
            });
        let (eval, computed) = self.compute(oid, known, scope.as_deref())?;
        for (fact, outcome, reads) in computed {
            if !missing.contains(&fact) {
                continue;
            }
            let reads = reads
                .into_iter()
                .map(|path| {
                    let id = id_at(&tree, &path);
                    (path, id)
                })
                .collect();
            self.cache
                .put(fact, keys[fact].clone(), Entry { reads, outcome });
        }
        worker.previous = Some((whole, eval.clone()));
        Ok(eval)
    }

    /// Runs the audit's facts half at `oid`, `known` outcomes reused, and the
    /// checks that compare claims with facts. Also hands back each fact's
    /// outcome with the files its constants read (for the cache).
    fn compute(
        &self,
        oid: Oid,
        known: Vec<ComputedFact>,
        scope: Option<&[String]>,
    ) -> Result<(CommitEval, Vec<Computed>)> {
        let snapshot: Arc<dyn Snapshot> = Arc::new(
            match scope {
                Some(scope) => GitSnapshot::open_scoped(&self.git_dir, oid, scope),
                None => GitSnapshot::open(&self.git_dir, oid),
            }
            .map_err(|e| Error::plain(e.to_string()))?,
        );
        let recording = Arc::new(Recording {
            inner: Arc::clone(&snapshot),
            read: Mutex::default(),
        });
        let frame = Arc::new(Frame {
            label: snapshot.label(),
            commit: snapshot.commit(),
            constants: crate::constants::Constants::new(Arc::clone(&recording) as Arc<dyn Snapshot>),
            schema_sets: Mutex::default(),
            snapshot,
        });
        let frame_of: Vec<FactFrame> = self
            .plan
            .facts
            .iter()
            .enumerate()
            .map(|(i, _)| match self.pinned.get(i) {
                Some(Some(pinned)) => pinned.clone(),
                _ => FactFrame::Resolved(Arc::clone(&frame)),
            })
            .collect();
        let cache = RecordCache::default();
        let (facts, unverified, records, _notes) =
            audit::facts_and_claims(&self.plan, &frame_of, &frame, &cache, known, true)?;
        let read: Vec<String> = recording
            .read
            .lock()
            .map(|r| r.iter().cloned().collect())
            .unwrap_or_default();
        let index: BTreeMap<&str, usize> = self
            .plan
            .facts
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.get_ref().as_str(), i))
            .collect();
        let mut states: Vec<FactState> =
            vec![FactState::Unverified { why: String::new() }; self.plan.facts.len()];
        let mut outcomes: Vec<Computed> = Vec::new();
        let mut claims: Vec<Vec<ClaimState>> = self
            .plan
            .facts
            .iter()
            .map(|f| vec![ClaimState::Holds; f.claims.len()])
            .collect();
        for fact in &facts {
            let i = index[fact.id.as_str()];
            states[i] = FactState::Value {
                value: fact.computed.value.display(),
                number: match &fact.computed.value {
                    FactValue::Number(n) => Some(to_f64(n)),
                    FactValue::Text(_) | FactValue::Verdict { .. } => None,
                },
            };
            let reads = if self.inputs.uses_constants[i] {
                read.clone()
            } else {
                Vec::new()
            };
            // A count's listing is kept for a listing claim only: nothing
            // else of a walk reads it, and kept it makes each cached outcome
            // as large as the tree it counted (32 outcomes of a 20,000-file
            // count held 28 MiB).
            let listing = if self.plan.facts[i].claims.iter().any(|c| c.is_listing) {
                fact.computed.listing.clone()
            } else {
                None
            };
            let computed = crate::facts::Computed {
                value: fact.computed.value.clone(),
                listing,
                lines: fact.computed.lines,
                recipe: fact.computed.recipe.clone(),
            };
            outcomes.push((i, Some(Ok((computed, fact.equals.clone()))), reads));
        }
        for fact in &unverified {
            let i = index[fact.id.as_str()];
            states[i] = FactState::Unverified {
                why: fact.why.reason(),
            };
            claims[i].fill(ClaimState::Unverified);
            outcomes.push((i, Some(Err(fact.why.clone())), Vec::new()));
        }
        let audit = Audit {
            snapshot_label: frame.label.clone(),
            commit: frame.commit.clone(),
            sources: self.plan.sources.clone(),
            source_paths: self.source_paths.clone(),
            records,
            facts,
            unverified: Vec::new(),
            frames: Vec::new(),
            families: Families::default(),
            files: BTreeMap::new(),
            notes: Vec::new(),
            suppressions: Vec::new(),
            today: Day::from_unix(0),
            levels: BTreeMap::new(),
            ignores: Vec::new(),
        };
        let mut findings: Vec<Finding> = Vec::new();
        for check in [CheckId::ClaimNotFound, CheckId::FactDrift] {
            if self.plan.levels.get(&check) != Some(&crate::checks::Level::Off) {
                findings.extend(match check {
                    CheckId::FactDrift => crate::checks::fact_drift::run(&audit),
                    _ => crate::checks::claim_not_found::run(&audit),
                });
            }
        }
        for finding in findings {
            let Some(i) = finding
                .fact
                .as_deref()
                .and_then(|id| index.get(id).copied())
            else {
                continue;
            };
            let Some(rule) = &finding.rule else { continue };
            let Some(c) = self.plan.facts[i].claims.iter().position(|c| {
                c.span.start == rule.offset && self.source_paths.get(c.origin) == Some(&rule.path)
            }) else {
                continue;
            };
            let state = &mut claims[i][c];
            match finding.check {
                // The first drifted statement (findings come in record order).
                CheckId::FactDrift if !state.is_drifted() => {
                    *state = ClaimState::Drifted {
                        path: finding.location.path.clone(),
                        line: finding.location.line,
                        column: finding.location.column,
                        stated: finding.stated.clone().unwrap_or_default(),
                        observed: finding.observed.clone().unwrap_or_default(),
                    };
                }
                CheckId::ClaimNotFound if *state == ClaimState::Holds => {
                    *state = ClaimState::NotFound;
                }
                _ => {}
            }
        }
        Ok((
            CommitEval {
                facts: states,
                claims,
            },
            outcomes,
        ))
    }
}

/// A fact computed at a commit: its index, its outcome, and the files its
/// constants read there.
type Computed = (usize, ComputedFact, Vec<String>);

/// What one worker keeps between consecutive commits of its run: the last
/// outcome and everything it depended on.
#[derive(Default)]
struct Worker {
    previous: Option<(Vec<Option<Oid>>, CommitEval)>,
}

fn to_f64(n: &crate::number::Number) -> f64 {
    // Figures in records are far below f64's exact range; a chart needs no more.
    *n.numer() as f64 / *n.denom() as f64
}

/// A claim's name: its fact's id and its place in the fact's `claims` (from 1).
pub fn claim_id(fact: &str, index: usize) -> String {
    format!("{fact}#{}", index + 1)
}

/// Which facts and claims a report covers.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub fact: Option<String>,
    pub claim: Option<String>,
}

impl Selection {
    /// (fact index, claim indexes) of every selected fact; an unknown id is an
    /// error that lists the ones there are.
    pub fn resolve(&self, plan: &Plan) -> Result<Vec<(usize, Vec<usize>)>> {
        let all = |i: usize| (0..plan.facts[i].claims.len()).collect::<Vec<_>>();
        let find_fact = |id: &str| {
            plan.facts
                .iter()
                .position(|f| f.id.get_ref() == id)
                .ok_or_else(|| {
                    let ids: Vec<&str> =
                        plan.facts.iter().map(|f| f.id.get_ref().as_str()).collect();
                    Error::plain(format!("no fact `{id}` in the rule files"))
                        .with_help(format!("the facts are: {}", ids.join(", ")))
                })
        };
        if let Some(claim) = &self.claim {
            let (fact, n) = claim.rsplit_once('#').ok_or_else(|| {
                Error::plain(format!("`{claim}` is not a claim id"))
                    .with_help("a claim is named FACT#N: its fact's id and its place in the fact's `claims`, from 1 (`body-cap#1`)")
            })?;
            let i = find_fact(fact)?;
            let count = plan.facts[i].claims.len();
            let c = n
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=count).contains(n))
                .ok_or_else(|| {
                    Error::plain(format!("fact `{fact}` has no claim #{n}")).with_help(
                        if count == 0 {
                            format!("fact `{fact}` has no claims")
                        } else {
                            format!("its claims are {fact}#1 to {fact}#{count}")
                        },
                    )
                })?;
            return Ok(vec![(i, vec![c - 1])]);
        }
        if let Some(fact) = &self.fact {
            let i = find_fact(fact)?;
            return Ok(vec![(i, all(i))]);
        }
        Ok((0..plan.facts.len()).map(|i| (i, all(i))).collect())
    }
}

/// A commit where something changed: the commit, and the value or status
/// before and after.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub commit: CommitInfo,
    pub from: String,
    pub to: String,
}

/// One fact over the range.
#[derive(Debug, Clone, Serialize)]
pub struct FactHistory {
    pub id: String,
    pub kind: &'static str,
    /// The frame `at` pins it to: its value is measured there at every commit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<String>,
    /// The value at the oldest commit.
    pub first: FactState,
    /// The value at the newest commit.
    pub last: FactState,
    /// Each commit where the value differs from the commit before.
    pub changes: Vec<Change>,
    /// The value at every commit, oldest first (for charts).
    pub series: Vec<FactState>,
    pub claims: Vec<ClaimHistory>,
}

/// One claim over the range.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimHistory {
    /// `FACT#N`.
    pub id: String,
    pub pattern: String,
    /// The status at the newest commit.
    pub status: ClaimState,
    /// The first commit of the range where it drifted, having held (or not
    /// been found) the commit before: the culprit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_drift: Option<CommitInfo>,
    /// When it is drifted at the newest commit: the commit its current drift
    /// began (absent when it began before the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drifted_since: Option<CommitInfo>,
    /// Drifted already at the oldest commit: its first drift is older than
    /// the range.
    pub drifted_before_range: bool,
    /// Its current drift began where the statement first appeared (not
    /// found the commit before): the claim was false when written, never a
    /// truth a later commit broke.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub false_when_written: bool,
    /// Each commit where the status changed.
    pub changes: Vec<Change>,
}

/// One commit's verdict, compactly.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub commit: CommitInfo,
    pub holds: usize,
    pub drifted: usize,
    pub not_found: usize,
    pub unverified: usize,
    /// Facts whose value changed at this commit.
    pub changed_facts: Vec<String>,
    /// Claims that drifted at this commit, having not been drifted before it.
    pub new_drifts: Vec<String>,
    /// Claims drifted before this commit that no longer are.
    pub fixed: Vec<String>,
}

/// The report of `recount history`.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    pub schema_version: u32,
    /// The range as walked (`A..B`, or the end alone).
    pub range: String,
    pub since: Option<String>,
    pub commits: usize,
    pub facts: Vec<FactHistory>,
    pub verdicts: Vec<Verdict>,
}

/// The history JSON schema's version.
pub const HISTORY_SCHEMA_VERSION: u32 = 1;

impl History {
    /// Builds the report from every commit's outcomes (oldest first).
    pub fn build(
        plan: &Plan,
        selection: &[(usize, Vec<usize>)],
        infos: &[CommitInfo],
        evals: &[CommitEval],
        before: Option<&CommitEval>,
        range: &RangeSpec,
    ) -> History {
        let mut facts = Vec::new();
        for (i, claim_indexes) in selection {
            let fact = &plan.facts[*i];
            let series: Vec<FactState> = evals.iter().map(|e| e.facts[*i].clone()).collect();
            let mut changes = Vec::new();
            for n in 1..series.len() {
                // An unverified fact whose reason changed has not changed value.
                if series[n].text() != series[n - 1].text() {
                    changes.push(Change {
                        commit: infos[n].clone(),
                        from: series[n - 1].text().to_owned(),
                        to: series[n].text().to_owned(),
                    });
                }
            }
            let claims = claim_indexes
                .iter()
                .map(|&c| {
                    let states: Vec<&ClaimState> = evals.iter().map(|e| &e.claims[*i][c]).collect();
                    claim_history(
                        claim_id(fact.id.get_ref(), c),
                        fact.claims[c].text.clone(),
                        &states,
                        infos,
                        before.map(|e| &e.claims[*i][c]),
                    )
                })
                .collect();
            facts.push(FactHistory {
                id: fact.id.get_ref().clone(),
                kind: fact.kind.name(),
                pinned: fact.at.as_ref().map(|a| a.get_ref().to_string()),
                first: series[0].clone(),
                last: series[series.len() - 1].clone(),
                changes,
                series,
                claims,
            });
        }
        let mut verdicts = Vec::new();
        for (n, eval) in evals.iter().enumerate() {
            let mut verdict = Verdict {
                commit: infos[n].clone(),
                holds: 0,
                drifted: 0,
                not_found: 0,
                unverified: 0,
                changed_facts: Vec::new(),
                new_drifts: Vec::new(),
                fixed: Vec::new(),
            };
            for (i, claim_indexes) in selection {
                let id = plan.facts[*i].id.get_ref();
                if n > 0 && evals[n - 1].facts[*i].text() != eval.facts[*i].text() {
                    verdict.changed_facts.push(id.clone());
                }
                for &c in claim_indexes {
                    let state = &eval.claims[*i][c];
                    match state {
                        ClaimState::Holds => verdict.holds += 1,
                        ClaimState::Drifted { .. } => verdict.drifted += 1,
                        ClaimState::NotFound => verdict.not_found += 1,
                        ClaimState::Unverified => verdict.unverified += 1,
                    }
                    if n > 0 {
                        let before = evals[n - 1].claims[*i][c].is_drifted();
                        if state.is_drifted() && !before {
                            verdict.new_drifts.push(claim_id(id, c));
                        } else if before && !state.is_drifted() {
                            verdict.fixed.push(claim_id(id, c));
                        }
                    }
                }
            }
            verdicts.push(verdict);
        }
        let newest = infos.last().map(|i| i.short.clone()).unwrap_or_default();
        History {
            schema_version: HISTORY_SCHEMA_VERSION,
            range: range.range.clone().unwrap_or(newest),
            since: range.since.map(|d| d.to_string()),
            commits: evals.len(),
            facts,
            verdicts,
        }
    }
}

/// One claim's history from its state at each commit of the range, and at
/// the commit before the range when it was read (`before`): a claim drifted
/// at the range's first commit began its drift there when it held, or was
/// not stated, the commit before — false when written, in the second case.
fn claim_history(
    id: String,
    pattern: String,
    states: &[&ClaimState],
    infos: &[CommitInfo],
    before: Option<&ClaimState>,
) -> ClaimHistory {
    let mut changes = Vec::new();
    let mut first_drift = None;
    let mut since = None;
    let mut since_written = false;
    let began_in_range = states[0].is_drifted() && before.is_some_and(|b| !b.is_drifted());
    if began_in_range {
        first_drift = Some(infos[0].clone());
        since = Some(infos[0].clone());
        since_written = matches!(before, Some(ClaimState::NotFound));
    }
    for n in 1..states.len() {
        if states[n].name() != states[n - 1].name() {
            changes.push(Change {
                commit: infos[n].clone(),
                from: states[n - 1].name().to_owned(),
                to: states[n].name().to_owned(),
            });
        }
        if states[n].is_drifted() && !states[n - 1].is_drifted() {
            first_drift.get_or_insert_with(|| infos[n].clone());
            since = Some(infos[n].clone());
            since_written = matches!(states[n - 1], ClaimState::NotFound);
        }
    }
    let last = states[states.len() - 1];
    ClaimHistory {
        id,
        pattern,
        status: last.clone(),
        first_drift,
        drifted_since: if last.is_drifted() { since } else { None },
        drifted_before_range: states[0].is_drifted() && !began_in_range,
        false_when_written: last.is_drifted() && since_written,
        changes,
    }
}

/// What `bisect` found.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum Bisection {
    /// The first commit where the claim drifted, the one before it holding.
    Culprit {
        commit: CommitInfo,
        state: ClaimState,
        /// Commits evaluated to find it.
        steps: usize,
        /// When the claim was unverified at the commit before it (an input
        /// missing, a frame gone) rather than holding, why: the culprit only
        /// made the input readable, and the drift may be older.
        #[serde(skip_serializing_if = "Option::is_none")]
        readable_since: Option<String>,
        /// The commit before it did not state the claim at all: this commit
        /// wrote a statement that was false when written.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        false_when_written: bool,
    },
    /// The claim is not drifted at the newest commit of the range.
    NeverFalse { newest: CommitInfo },
    /// The claim is drifted already at the oldest commit of the range.
    NeverTrue { oldest: CommitInfo },
    /// The claim cannot be computed at the newest commit (its frame is gone,
    /// its input missing): neither drifted nor holding there.
    Unverified { newest: CommitInfo, why: String },
}

/// Why the selected claims are unverified at `eval`, when every one is.
fn unverified_why(eval: &CommitEval, claims: &[(usize, Vec<usize>)]) -> Option<String> {
    let all = claims.iter().all(|(i, cs)| {
        cs.iter()
            .all(|&c| matches!(eval.claims[*i][c], ClaimState::Unverified))
    });
    if !all {
        return None;
    }
    let why = claims.iter().find_map(|(i, _)| match &eval.facts[*i] {
        FactState::Unverified { why } if !why.is_empty() => Some(why.clone()),
        _ => None,
    });
    Some(why.unwrap_or_else(|| "its fact could not be computed".to_owned()))
}

/// Binary search over `commits` (oldest first) for the first commit where a
/// selected claim is drifted, the commit before it not: the newest commit must
/// be drifted and the oldest not.
pub fn bisect(
    session: &Session,
    commits: &[Oid],
    claims: &[(usize, Vec<usize>)],
) -> Result<Bisection> {
    let drifted = |eval: &CommitEval| -> Option<ClaimState> {
        claims.iter().find_map(|(i, cs)| {
            cs.iter()
                .map(|&c| &eval.claims[*i][c])
                .find(|s| s.is_drifted())
                .cloned()
        })
    };
    // Every selected claim's statement is missing: nothing was stated yet.
    let unstated = |eval: &CommitEval| -> bool {
        claims.iter().all(|(i, cs)| {
            cs.iter()
                .all(|&c| matches!(eval.claims[*i][c], ClaimState::NotFound))
        })
    };
    let mut steps = 0;
    let mut at = |n: usize| -> Result<(Option<ClaimState>, Option<String>, bool)> {
        steps += 1;
        let eval = session.evaluate(commits[n])?;
        Ok((
            drifted(&eval),
            unverified_why(&eval, claims),
            unstated(&eval),
        ))
    };
    let last = commits.len() - 1;
    let (newest, why, _) = at(last)?;
    let Some(mut bad_state) = newest else {
        let newest = session.info(commits[last])?;
        return Ok(match why {
            Some(why) => Bisection::Unverified { newest, why },
            None => Bisection::NeverFalse { newest },
        });
    };
    let (oldest, mut good_why, mut good_unstated) = at(0)?;
    if oldest.is_some() {
        return Ok(Bisection::NeverTrue {
            oldest: session.info(commits[0])?,
        });
    }
    // good < bad; the first drifted commit lies in (good, bad].
    let (mut good, mut bad) = (0, last);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        match at(mid)? {
            (Some(state), _, _) => {
                bad = mid;
                bad_state = state;
            }
            (None, why, unstated) => {
                good = mid;
                good_why = why;
                good_unstated = unstated;
            }
        }
    }
    Ok(Bisection::Culprit {
        commit: session.info(commits[bad])?,
        state: bad_state,
        steps,
        readable_since: good_why,
        false_when_written: good_unstated,
    })
}
