//! The engine: opens the repository, loads and resolves the rules, evaluates every
//! fact at its frame and finds its claims in the records, and hands each check
//! family that gathers its own inputs the same `FamilyInputs`; the checks then
//! read the [`Audit`] it builds. Everything it produces is data; an `Err` means
//! "could not run".

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use crate::checks::audited::{
    Audit, AuditedClaim, AuditedFact, ClaimInRecord, EqualsOutcome, Unverified, UnverifiedFact,
};
use crate::checks::families::Families;
use crate::checks::family_inputs::FamilyInputs;
pub use crate::checks::family_inputs::Progress;
use crate::checks::suppress;
use crate::claims::{self, Record};
use crate::error::{Error, Result};
use crate::facts::{Computed, Env, FactValue, Recipe};
use crate::frames::{FactFrame, Frame, Frames, date_notes, frames_of};
use crate::pathspec::select;
use crate::records::RecordCache;
use crate::rules::load::{ConstantDecl, load_rules};
use crate::rules::resolve::{Plan, PlannedClaim, PlannedFact};
use crate::scope::RecordScope;
use crate::snapshot::{Day, GitRepo, Snapshot};

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
    /// Where first parents and path lookups are remembered between runs
    /// (`--cache-dir`); `None` = no memory.
    pub cache: Option<PathBuf>,
    /// Compute the facts and their claims only: no record hygiene (citations,
    /// transcripts, retired claims, bounds), as `recount facts` prints.
    pub facts_only: bool,
    /// Only these records' citations and transcripts are checked, and only
    /// their findings reported (`None`: every record's): how `check --since`
    /// checks its base, and what `recount check docs/ README.md` names.
    pub judged_records: Option<RecordScope>,
    /// The cache file keeps what it held as well as what this run used (the
    /// second audit of one `check --since` process).
    pub cache_adds: bool,
    /// Told how far the citations are (`None`: nobody asks).
    pub progress: Option<ProgressSink>,
    /// Records read with these texts in place of the tree's: `recount fix`'s
    /// edits, made in memory and checked again before any is written.
    pub overlay: Option<Arc<BTreeMap<String, Arc<str>>>>,
    /// Levels set for this run over the rule file's `[checks]`
    /// (`check --select`/`--ignore` turn checks off).
    pub levels: BTreeMap<crate::checks::CheckId, crate::checks::Level>,
}

/// A [`Progress`] the options carry: shared, and shown in `Debug` by name
/// only.
#[derive(Clone)]
pub struct ProgressSink(pub std::sync::Arc<dyn Progress>);

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
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
        // A clean working tree is its commit: read from the object database,
        // it gives that commit's findings (and `--since` nothing uncommitted).
        None => match repo.clean_worktree_commit().map_err(revision_error)? {
            Some(head) => Arc::new(repo.tree_snapshot(&head).map_err(revision_error)?),
            None => Arc::new(repo.worktree_snapshot().map_err(revision_error)?),
        },
    })
}

/// The facts and claims of a rule file given as text, computed against
/// `audited` in `repo` as `recount facts` computes them (no record hygiene):
/// how `recount init` weighs a draft against the tree and its history before
/// writing it.
pub fn facts_of_rule_text(
    repo: &GitRepo,
    audited: Arc<dyn Snapshot>,
    name: &str,
    text: &str,
) -> Result<Audit> {
    let plan = crate::rules::resolve(crate::rules::load::load_text(name, text)?)?;
    audit_with(repo, audited, plan, None, Day::today(), true, None)
}

/// Runs the pipeline up to (not including) the checks.
pub fn run(options: &AuditOptions) -> Result<Audit> {
    // One-time compilations, on the other core while this one reads the repository.
    rayon::spawn(|| {
        crate::rules::load::warm_up();
        crate::checks::cites::find::warm_up();
    });
    let mut repo = open_repo(options.repo.as_deref())?;
    let mut cache_note = None;
    if let Some(dir) = &options.cache
        && let Err(why) = repo.remember_in(dir)
    {
        cache_note = Some(format!("no cache kept: {why}"));
    }
    if options.cache_adds {
        repo.remember_as_well();
    }
    let root = repo.workdir().map(std::path::Path::to_path_buf);
    let mut zero_config = false;
    let rule_paths = if options.rules.is_empty() {
        match root.as_deref().and_then(crate::rules::load::discovered) {
            Some(found) => vec![found],
            // No rule file: the citation checks still run, over every *.md, *.mdx and *.rst file.
            None => {
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
    let (mut audited, mut plan) = (audited?, plan?);
    if let Some(replaced) = &options.overlay {
        audited = Arc::new(crate::snapshot::overlay::OverlaySnapshot::new(
            audited,
            Arc::clone(replaced),
        ));
    }
    if options.no_transcripts {
        plan.transcripts = false;
    }
    plan.levels
        .extend(options.levels.iter().map(|(check, level)| (*check, *level)));
    if let Some(RecordScope::Under(roots)) = &options.judged_records {
        refuse_a_scope_the_tree_lacks(roots, audited.as_ref())?;
    }
    plan.cites.judged = options.judged_records.clone().map(Arc::new);
    let today = options.today.unwrap_or_else(Day::today);
    let mut audit = audit_with(
        &repo,
        audited,
        plan,
        root.as_deref(),
        today,
        options.facts_only,
        options.progress.as_ref(),
    )?;
    audit.notes.extend(cache_note);
    audit.notes.extend(repo.memo_note());
    audit.notes.extend(repo.save_memo());
    // Freeing libgit2's object cache (every commit and tree the evidence
    // read) took a cold run a tenth of its time; nothing waits for it.
    drop_elsewhere(repo);
    if zero_config {
        audit.notes.insert(
            0,
            "no recount.toml (nor .recount.toml, nor [tool.recount] in pyproject.toml): checking the test, line and path citations and the transcripts \
             of every *.md, *.mdx and *.rst file (write a recount.toml to recompute facts as well)"
                .to_owned(),
        );
    }
    Ok(audit)
}

/// A path `recount check PATH…` names that the audited tree has neither as a
/// file nor as a folder: a typo would otherwise pass as a clean run.
fn refuse_a_scope_the_tree_lacks(roots: &[String], audited: &dyn Snapshot) -> Result<()> {
    let paths = audited.paths();
    for root in roots {
        if !crate::snapshot::has_file(paths, root) && !crate::snapshot::has_folder(paths, root) {
            let tree = match audited.commit() {
                Some(commit) => format!("commit {}", &commit[..commit.len().min(8)]),
                None => "the working tree".to_owned(),
            };
            return Err(Error::plain(format!(
                "{} is not a file or folder of {tree}",
                crate::escape::untrusted(root, crate::escape::VALUE_CAP),
            ))
            .with_help("name paths of the repository, relative to the current directory"));
        }
    }
    Ok(())
}

/// Frees `value` on a thread of its own: a large structure's last use is
/// behind the caller, and the process may end before the thread does (its
/// memory is then the system's to take back).
pub(crate) fn drop_elsewhere<T: Send + 'static>(value: T) {
    // With no thread to be had, the refused closure frees it here instead.
    let _ = std::thread::Builder::new()
        .name("recount-drop".to_owned())
        .spawn(move || drop(value));
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
    facts_only: bool,
    progress: Option<&ProgressSink>,
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
    let mut frames = Frames::new(repo, Arc::new(Frame::new(audited)), main_line).with_rule_files(
        crate::frames::in_repository(
            plan.sources
                .iter()
                .map(|s| display_rule_path(&s.name, root)),
        ),
    );
    let frame_of = frames_of(plan.fact_frames(), &mut frames);
    let audited_frame = frames.audited();

    // Two independent halves, one per core: the facts and their claims; and the
    // record hygiene (citations, retired claims, schema bounds).
    // (The repository handle cannot cross threads, so the hygiene half, which
    // may read more frames, stays on this one.)
    let record_cache = RecordCache::with_rst_sources(crate::records::rst::sphinx_text_sources(
        audited_frame.snapshot.as_ref(),
    ));
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
            if facts_only {
                return Ok::<_, Error>((Families::default(), BTreeMap::new(), Vec::new()));
            }
            let (mut files, mut notes) = (BTreeMap::new(), Vec::new());
            let mut inputs = FamilyInputs {
                plan: &plan,
                frames: &mut frames,
                records: &record_cache,
                files: &mut files,
                notes: &mut notes,
                progress: progress.as_ref().map(|p| &*p.0 as &dyn Progress),
            };
            let families = Families::gather(&mut inputs)?;
            Ok::<_, Error>((families, files, notes))
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
    let (mut families, files, hygiene_notes) = hygiene_half?;
    // A transcript whose shown value a rule's claim also states (the same
    // characters) is checked by that claim: the rule's fact, its frame and
    // its computation are what the user configured, and two findings with
    // two "observed" values on one figure would contradict each other.
    for transcript in &mut families.transcripts {
        let crate::checks::transcripts::TranscriptStatus::Drift { at, .. } = &transcript.status
        else {
            continue;
        };
        let claimed_by = facts
            .iter()
            .map(|f| (&f.id, &f.claims))
            .chain(unverified.iter().map(|u| (&u.id, &u.claims)))
            .find(|(_, claims)| {
                claims.iter().flat_map(|c| &c.records).any(|r| match r {
                    crate::checks::audited::ClaimInRecord::Stated { path, matches } => {
                        *path == transcript.record
                            && matches
                                .iter()
                                .any(|m| m.span.start < at.end && at.start < m.span.end)
                    }
                    _ => false,
                })
            })
            .map(|(id, _)| id.clone());
        if let Some(fact) = claimed_by {
            transcript.status = crate::checks::transcripts::TranscriptStatus::Claimed { fact };
        }
    }
    // A block a listing claim holds is checked by that claim; when its fact
    // could not be computed, the block is checked by nothing, and says so.
    for transcript in &mut families.transcripts {
        if let crate::checks::transcripts::TranscriptStatus::Claimed { fact } = &transcript.status
            && let Some(unverified) = unverified.iter().find(|u| &u.id == fact)
        {
            transcript.status = crate::checks::transcripts::TranscriptStatus::Unverified {
                why: format!(
                    "what it shows is held by fact `{fact}`'s claim, and that fact is \
                     unverified: {}",
                    unverified.why.reason()
                ),
            };
        }
    }
    notes.extend(records.iter().filter_map(|(path, record)| {
        record
            .read_plain()
            .map(|why| format!("read {path} as plain text: {why}"))
    }));
    notes.extend(unread_cite_notes(&families, &records));
    // After the rules and the revision: a bad directive is bad input like them.
    let suppressions = suppress::gather(&records)?;
    notes.extend(claim_notes);
    notes.extend(hygiene_notes);
    let source_paths: Vec<String> = plan
        .sources
        .iter()
        .map(|s| display_rule_path(&s.name, root))
        .collect();
    let frame_uses = frames.reachability(plan.main_line())?;
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
        families,
        files,
        notes,
        suppressions,
        today,
        levels: plan.levels,
        ignores: plan.ignores,
    })
}

/// One note per file too large to read that citations needed: how many it
/// left unverified, and where the first is.
fn unread_cite_notes(
    families: &Families,
    records: &BTreeMap<String, Arc<crate::records::Record>>,
) -> Vec<String> {
    let mut by_file: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    for cite in &families.cites {
        let crate::checks::cites::model::CiteStatus::Unverified { why } = &cite.status else {
            continue;
        };
        let Some(why) = why.strip_prefix(crate::checks::cites::model::NOT_READ) else {
            continue;
        };
        let (count, _) = by_file.entry(why).or_insert_with(|| {
            let (line, column) = records
                .get(&cite.record)
                .map_or((0, 0), |r| r.line_col(cite.span.start));
            (0, format!("{}:{line}:{column}", cite.record))
        });
        *count += 1;
    }
    by_file
        .into_iter()
        .map(|(why, (count, first))| {
            let cites = if count == 1 {
                "a citation".to_owned()
            } else {
                format!("{count} citations")
            };
            format!("{why}: {cites} not checked (first at {first})")
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
                framed: p.at.is_some(),
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
                    values.insert(id.clone(), value.value.clone());
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
        let lookup = |id: &str| values.get(id).cloned();
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
        values.insert(id.clone(), value.value.clone());
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
