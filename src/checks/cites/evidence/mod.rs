//! Citations, after resolution: what the repository's history proves about a
//! citation. Every judgement here starts from the commit that wrote the cite
//! into its record — the oldest commit of the unbroken run, back along the
//! first-parent line from the audited one, whose record holds the cite's text,
//! the record followed through renames as blame follows it — and compares what
//! the cite named there with what it names now:
//!
//! - `lines`: a line cite is held to what its lines held when written (moved:
//!   stale with where they are now; changed or gone: stale), with the commit
//!   that did it;
//! - `paths`: a path or link that does not resolve, or resolves now only to a
//!   namesake, is stale when it resolved as written then, whatever exemption
//!   its prose or shape fired, with the commit that broke it and what became
//!   of the target;
//! - `anchors`: a link's `#heading` the page lacks is held to the page at the
//!   writing commit: offered then, the finding says which commit took it and
//!   what the heading became; never offered, that it never worked;
//! - `tests`: a test cite whose file no longer defines the test is held to
//!   the file at the writing commit the same way ("renamed to `test_z`");
//! - `labels`: a `:ref:` label no page defines now is stale when the Sphinx
//!   project's pages defined it at the writing commit.
//!
//! The writing commit is found by a galloping search (1, 2, 4, … commits back,
//! then halving), so a record cited from years ago costs a few dozen tree
//! lookups, not a walk of its whole history; the window is from the writing
//! commit to the audited one, with no fixed depth.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use git2::Oid;

use super::cfg::CitesPlan;
use super::exemptions::snapshot_page::{self, SnapshotFolders};
use super::exemptions::{decided_change, generated_template, superseded_record};
use super::model::{CiteStatus, Exemption, ResolvedCite};
use crate::frames::Frame;
use crate::frames::Frames;
use crate::snapshot::GitRepo;

mod anchors;
mod fates;
mod labels;
mod lines;
mod paths;
mod scan;
mod tests;

pub(crate) use fates::{in_record_syntax, say_what_became_of};
pub use lines::{LineFate, map_lines};

/// At most this many first-parent commits are read back from the audited one:
/// far beyond any repository's history, a bound only so that a corrupt or
/// cyclic history cannot make a run endless.
const MAX_DEPTH: usize = 10_000_000;

/// Judges the citations that resolved (or did not) at the audited tree by
/// what the history proves: line cites by their lines, paths and links by
/// whether they resolved when written.
pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    frames: &Frames<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
) -> Option<CutShort> {
    // The working tree's records are read back from HEAD; a cite HEAD's record
    // does not hold is not committed yet, and is judged by the tree alone.
    let at = audited.commit.clone().unwrap_or_else(|| "HEAD".to_owned());
    let start = frames.repo().commit_id(&at)?;
    let mut history = History::new(frames.repo(), start);
    history.expect_all(resolved, texts);
    paths::judge(resolved, &mut history, audited, texts, settings);
    anchors::judge(resolved, &mut history, audited, texts, settings);
    tests::judge(resolved, &mut history, audited, texts);
    lines::judge(resolved, &mut history, audited, texts);
    labels::judge(resolved, &mut history, audited, texts);
    written_by_automation(resolved, &mut history, texts);
    written_by_a_generator(resolved, audited);
    read_as_written(
        resolved,
        frames.repo(),
        audited,
        texts,
        settings,
        frames.tags(),
    );
    for cite in resolved.iter_mut() {
        cite.history_cut_short = texts
            .get(&cite.record)
            .and_then(|text| written_in(cite, text))
            .is_some_and(|written| {
                history
                    .cut_short
                    .contains(&(cite.record.clone(), written.to_owned()))
            });
    }
    let cut_short = resolved.iter().filter(|c| c.history_cut_short).count();
    (cut_short > 0).then(|| CutShort {
        citations: cut_short,
        boundary: history
            .line
            .last()
            .map(|commit| commit.to_string()[..8].to_owned())
            .unwrap_or_default(),
        depth: history.line.len(),
    })
}

/// A shallow clone's history ended before the evidence did: how many
/// citations' writing could not be found, and where the history stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CutShort {
    pub citations: usize,
    /// The oldest commit the clone holds, short.
    pub boundary: String,
    /// How many commits of the line back from the audited one it holds.
    pub depth: usize,
}

/// Marks each cite the evidence would mend whose line an automation account
/// wrote (a translation sync, a generator's job): the account writes it
/// again from its own source, so that source is what to mend. Asked only of
/// a cite with a suggestion, the one a fix would edit.
fn written_by_automation(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    texts: &BTreeMap<String, Arc<str>>,
) {
    let mut kept: BTreeMap<String, Option<(String, String)>> = BTreeMap::new();
    for cite in resolved.iter_mut() {
        if !would_be_mended(cite) {
            continue;
        }
        let by_automation = |history: &mut History<'_>, position: usize| {
            let commit = history.commit_at(position)?;
            let name = history.repo().automation_author(commit)?;
            Some((name, short(commit)))
        };
        // The line's own commit, or the record's: one whose last two
        // versions an automation account made (a translation it syncs,
        // a line a person wrote once and the account has rewritten since).
        let written = history
            .writing_of(cite, texts)
            .and_then(|(writing, _)| by_automation(history, writing));
        cite.written_by_automation = written.or_else(|| {
            kept.entry(cite.record.clone())
                .or_insert_with(|| {
                    let newest = history.made_at(&cite.record, 0)?;
                    let last = by_automation(history, newest)?;
                    match history.made_at(&cite.record, newest + 1) {
                        Some(before) => by_automation(history, before).map(|_| last),
                        None => Some(last),
                    }
                })
                .clone()
        });
    }
}

/// Whether the evidence proposes a replacement it does not guess: the
/// cite a fix would edit.
fn would_be_mended(cite: &ResolvedCite) -> bool {
    matches!(
        cite.status,
        CiteStatus::Stale {
            suggestion: Some(_),
            guessed: false,
            ..
        }
    )
}

/// Marks each cite the evidence would mend whose record a generator the
/// tree configures writes (OpenAPI Generator's output folder): the edit
/// belongs in the generator's input or template, not in its output.
fn written_by_a_generator(resolved: &mut [ResolvedCite], audited: &Frame) {
    let mut kept: BTreeMap<String, Option<String>> = BTreeMap::new();
    for cite in resolved.iter_mut() {
        if !would_be_mended(cite) {
            continue;
        }
        cite.generated_by = kept
            .entry(cite.record.clone())
            .or_insert_with(|| {
                super::exemptions::generated_page::generator_writing(
                    audited.snapshot.as_ref(),
                    &cite.record,
                )
            })
            .clone();
    }
}

/// Whether the commit `written` (a short id) is of the day `day` names
/// (`2026-08-11`) or of the two after it.
fn written_on(repo: &crate::snapshot::git::GitRepo, written: &str, day: &str) -> bool {
    const TWO_DAYS: i64 = 2 * 24 * 60 * 60;
    let Some(named) = crate::snapshot::git::Day::parse(day) else {
        return false;
    };
    repo.commit_id(written)
        .and_then(|commit| repo.commit_day(commit))
        .is_some_and(|on| (0..=TWO_DAYS).contains(&(on.end_utc() - named.end_utc())))
}

/// A citation that held when written, on a page its folder declares a
/// point-in-time snapshot (`snapshot-page`) or in a record whose own status
/// says it no longer governs (`superseded-record`), is that page's history.
fn read_as_written(
    resolved: &mut [ResolvedCite],
    repo: &crate::snapshot::git::GitRepo,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
    tags: Vec<String>,
) {
    let mut folders = SnapshotFolders::with_tags(tags);
    for cite in resolved.iter_mut() {
        // A line cite of a dated record names that day's lines, whether a
        // commit held them or not (a plan numbers the lines its own work
        // was adding).
        if cite.held_when_written.is_none()
            && cite.kind == super::model::CiteClass::Line
            && matches!(cite.status, CiteStatus::Stale { .. })
            && let Some(status) = settings.exemptions.ask(Exemption::SnapshotPage, || {
                let file = paths::cited_path(&cite.text)
                    .trim_start_matches("./")
                    .trim_start_matches('/');
                let there = || {
                    let tail = format!("/{file}");
                    !file.is_empty()
                        && audited
                            .snapshot
                            .paths()
                            .iter()
                            .any(|p| p == file || p.ends_with(&tail))
                };
                snapshot_page::dated_lines(
                    &cite.record,
                    texts.get(&cite.record).map(|t| &**t),
                    there,
                )
            })
        {
            cite.status = status;
            cite.evidenced = true;
            continue;
        }
        let Some(written) = cite.held_when_written.as_deref() else {
            continue;
        };
        if !matches!(cite.status, CiteStatus::Stale { .. }) {
            continue;
        }
        let status = settings
            .exemptions
            .ask(Exemption::SnapshotPage, || {
                let text = texts.get(&cite.record).map(|t| &**t);
                let line_cite = cite.kind == super::model::CiteClass::Line && cite.lines.is_some();
                // A link is clicked whatever day its line names; a path in
                // a dated line is that day's.
                let dated_line = text
                    .filter(|_| cite.tier == super::model::Tier::Inferred)
                    .and_then(|text| snapshot_page::dated_line(text, cite.span.start));
                // A link to lines of code (`x.go#L69`, its file gone or not)
                // cites code; a link to a page or file is clicked.
                let form = if line_cite {
                    snapshot_page::CiteForm::Line
                } else if cite.kind != super::model::CiteClass::Line
                    && cite.tier != super::model::Tier::Inferred
                {
                    snapshot_page::CiteForm::Link
                } else {
                    snapshot_page::CiteForm::Path
                };
                // A line number written under a day (a log's entry, a
                // dated lesson) on that day is that day's: the commit that
                // wrote it is of that day or the next two (a day its text
                // names for something else, "shipped 2026-07-30", is not).
                // (A decision record in force is kept current, its dated
                // amendments too, unless its project says otherwise.)
                if line_cite
                    && !super::exemptions::decided_change::is_decision_record(&cite.record)
                    && let Some((line, day)) =
                        text.and_then(|text| snapshot_page::dated_place(text, cite.span.start))
                    && written_on(repo, written, day)
                {
                    return Some(snapshot_page::dated_place_lines(
                        &cite.record,
                        line,
                        day,
                        written,
                    ));
                }
                // A path or line cite under a heading that marks its work
                // done (a roadmap's "### PR 1 — scaffold ✅ Complete"): the
                // section records the change that landed, as written.
                if form != snapshot_page::CiteForm::Link
                    && let Some((line, mark)) =
                        text.and_then(|text| snapshot_page::done_section(text, cite.span.start))
                {
                    return Some(format!(
                        "{}:{line} marks its section's work done (\"{mark}\"): the section records the change that landed, read as of when written; this held when the record cited it (at {written})",
                        cite.record
                    ));
                }
                // A path or line cite (not a link) in a section whose own
                // introduction says its content is outdated: the section
                // keeps what it showed, as it was.
                if form != snapshot_page::CiteForm::Link
                    && let Some((line, words)) = text.and_then(|text| {
                        snapshot_page::outdated_section(&cite.record, text, cite.span.start)
                    })
                {
                    return Some(format!(
                        "{}:{line} opens a section that says its content {words}: read as of when written; this held when the record cited it (at {written})",
                        cite.record
                    ));
                }
                // A path (not a link) on a line that names a commit of this
                // history ("generated by `tests/test_energies.py` … at commit
                // 02dba85c"): the line records that commit's tree.
                if form == snapshot_page::CiteForm::Path
                    && let Some((line, commit)) =
                        text.and_then(|text| snapshot_page::commit_named(text, cite.span.start))
                    && repo.commit_id(commit).is_some()
                {
                    return Some(format!(
                        "{}:{line} names commit {commit}: the line records that commit's tree; this held when the record cited it (at {written})",
                        cite.record
                    ));
                }
                folders.fires(
                    audited.snapshot.as_ref(),
                    &cite.record,
                    text,
                    form,
                    written,
                    dated_line,
                )
            })
            .or_else(|| {
                settings.exemptions.ask(Exemption::SupersededRecord, || {
                    let text = texts.get(&cite.record)?;
                    superseded_record::fires(&cite.record, text, written)
                        .or_else(|| superseded_record::reversed(&cite.record, texts, written))
                })
            })
            .or_else(|| {
                settings.exemptions.ask(Exemption::GeneratedTemplate, || {
                    let CiteStatus::Stale {
                        suggestion: Some(to),
                        guessed: false,
                        ..
                    } = &cite.status
                    else {
                        return None;
                    };
                    let cited = paths::cited_path(&cite.text);
                    generated_template::fires(cited, to)
                })
            })
            .or_else(|| {
                // A path in backticks: a link is held to its target.
                if cite.tier != super::model::Tier::Inferred {
                    return None;
                }
                settings.exemptions.ask(Exemption::DecidedChange, || {
                    let text = texts.get(&cite.record)?;
                    decided_change::fires(&cite.record, text, cite.span.start, written).or_else(
                        || {
                            decided_change::decided_elsewhere(
                                &cite.record,
                                paths::cited_path(&cite.text),
                                texts,
                                written,
                            )
                        },
                    )
                })
            });
        if let Some(status) = status {
            cite.status = status;
        }
    }
}

/// A path (not a link: a link is clicked today) in a post its header dates
/// was there on that day, whenever the post was committed (a blog brought in
/// later, its old posts as published): read after the history has said
/// what became of every path.
pub(crate) fn read_posts_on_their_day(
    resolved: &mut [ResolvedCite],
    frames: &Frames<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
) {
    for cite in resolved.iter_mut() {
        if cite.kind == super::model::CiteClass::Path
            && cite.tier == super::model::Tier::Inferred
            && matches!(cite.status, CiteStatus::Stale { .. })
            && let Some(status) = settings.exemptions.ask(Exemption::SnapshotPage, || {
                there_on_the_posts_day(cite, frames.repo(), audited, texts)
            })
        {
            cite.status = status;
            cite.evidenced = true;
        }
    }
}

/// Why a path in a post its header dates (`.. post:: 2025-04-04`) is that
/// day's: the last commit of the audited line by the end of that day had
/// it, read from the root or from the post's folder.
fn there_on_the_posts_day(
    cite: &ResolvedCite,
    repo: &crate::snapshot::git::GitRepo,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) -> Option<String> {
    let text = texts.get(&cite.record)?;
    let (line, day) = super::exemptions::frozen_docs::post_day(&cite.record, text)?;
    let end = crate::snapshot::git::Day::parse(day)?.end_utc();
    let head = repo.commit_id(audited.commit.as_deref().unwrap_or("HEAD"))?;
    let then = repo.last_commit_before(head, end)?;
    let path = paths::cited_path(&cite.text)
        .trim_start_matches("./")
        .trim_start_matches('/')
        .trim_end_matches('/');
    let folder = cite
        .record
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder);
    let mut candidates = vec![path.to_owned()];
    candidates.extend(crate::snapshot::joined(folder, path));
    let candidates: Vec<&str> = candidates
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    let found = repo
        .path_ids(then, &candidates)
        .iter()
        .zip(&candidates)
        .find_map(|(id, path)| id.map(|_| *path))?;
    let at = then.to_string();
    Some(format!(
        "{}:{line} is a post its header dates ({day}): it tells the tree of that day, which had `{found}` (at {})",
        cite.record,
        &at[..8]
    ))
}

/// The commit that wrote each of `cites` into its record, as the evidence
/// finds it — the oldest commit of the unbroken first-parent run back from
/// `at` whose record holds the cite as written — for every cite, not only the
/// ones a judgement needs (`recount cites --written`, the blame bench). `None`
/// where the record at `at` does not hold it (not committed yet) or `at` is no
/// commit. One history for all: the cites of a record share its reads, each
/// version of the record read once whatever the number of cites.
pub fn writing_commits(
    repo: &GitRepo,
    at: &str,
    cites: &[ResolvedCite],
    texts: &BTreeMap<String, Arc<str>>,
) -> Vec<Option<Oid>> {
    let Some(start) = repo.commit_id(at) else {
        return vec![None; cites.len()];
    };
    let mut history = History::new(repo, start);
    history.expect_all(cites, texts);
    cites
        .iter()
        .map(|cite| {
            let (position, _) = history.writing_of(cite, texts)?;
            history.commit_at(position)
        })
        .collect()
}

/// The cite as its record writes it: its text (a link's destination, a
/// backticked path), else the bytes it was read from (a `:294` shorthand).
/// The part of a forge address after the tree's ref (`core/x.go#L14` of
/// `https://github.com/o/r/blob/main/core/x.go#L14`), when it has one.
fn tree_path_of(destination: &str) -> Option<&str> {
    if !destination.contains("://") {
        return None;
    }
    let at = ["/blob/", "/tree/", "/-/blob/", "/-/tree/"]
        .iter()
        .find_map(|marker| destination.find(marker).map(|i| i + marker.len()))?;
    let rest = &destination[at..];
    let (_, path) = rest.split_once('/')?;
    (!path.is_empty()).then_some(path)
}

/// The largest record whose whole text is searched for a reference link's
/// definition.
const MAX_DEFINITION_SEARCH_BYTES: usize = 256 * 1024;

fn written_in<'t>(cite: &ResolvedCite, text: &'t str) -> Option<&'t str> {
    let at_span = text.get(cite.span.clone())?;
    // Where the cite was read, most often; else the lines around it (never
    // the whole record: a page of 64,000 links would read itself per link).
    let mut from = cite.span.start.saturating_sub(256);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (cite.span.end + 256).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    let around = &text[from..to];
    // A link is written where its destination is: a link whose text stayed
    // while its target was changed was cited anew by that change.
    // A link into a forge's tree (`…/blob/main/core/x.go#L14`) is held to
    // the path after its ref: an organisation renamed, a host moved or a
    // branch renamed rewrites the address, not the cite.
    // (A bare address in prose is its own destination.)
    let destination = cite
        .destination
        .as_deref()
        .filter(|d| !d.is_empty())
        .map(|d| tree_path_of(d).unwrap_or(d))
        .or_else(|| tree_path_of(at_span.trim()));
    if let Some(destination) = destination {
        if let Some(at) = around.find(destination) {
            return Some(&around[at..at + destination.len()]);
        }
        // A reference link (`[da][da]`) is written where its definition is,
        // lines away (`[da]: https://…/da.go#L11`): searched for in a page
        // of ordinary size.
        if text.len() <= MAX_DEFINITION_SEARCH_BYTES
            && let Some(at) = text.find(destination)
        {
            return Some(&text[at..at + destination.len()]);
        }
    }
    let written = match at_span.find(cite.text.as_str()) {
        Some(at) => &at_span[at..at + cite.text.len()],
        None => match around.find(cite.text.as_str()) {
            Some(at) => &around[at..at + cite.text.len()],
            None => at_span,
        },
    };
    (!written.is_empty()).then_some(written)
}

/// The first-parent line back from the audited commit, read as far as a
/// question needs it, and the records and paths looked up along it.
pub(super) struct History<'r> {
    repo: &'r GitRepo,
    /// Newest first: `line[0]` is the audited commit (or HEAD).
    line: Vec<Oid>,
    /// The next commit to read onto the line; `None` once the root is read.
    next: Option<Oid>,
    /// Per record (by its audited path): its name from each position on, as
    /// found so far, oldest segment last; `None` where it did not exist.
    trails: BTreeMap<String, Vec<(usize, Option<String>)>>,
    /// The object id of a path at each position of the line it was looked up
    /// at (by path first: a lookup allocates nothing).
    ids: std::collections::HashMap<String, std::collections::HashMap<usize, Option<Oid>>>,
    /// The record versions read last, by blob id, with the position each was
    /// read at: the next one is counted from the nearest of them (a few: a
    /// version's counts are kept, its text is not).
    recent: std::collections::VecDeque<(Oid, usize, Arc<Vec<u8>>)>,
    /// Per record: the blob id of the text the cites were read from, when the
    /// audited commit has that very blob (every cite found in it is held by
    /// every version with that id, unread).
    audited: BTreeMap<String, Option<Oid>>,
    /// Per record: every cite text looked for in its history, found in one
    /// pass over each version read (a record with hundreds of cites is read
    /// once per version, not once per cite).
    patterns: BTreeMap<String, Patterns>,
    /// Per record version: how often it holds each of its record's patterns.
    counts: BTreeMap<(String, Oid), Arc<Vec<u32>>>,
    /// The cites (record, text as written) whose writing search reached the
    /// end of a shallow clone's history: written there or before, unknown.
    cut_short: BTreeSet<(String, String)>,
    /// Whether the line ends at a shallow clone's boundary, once asked.
    ends_cut: Option<bool>,
}

/// How many record versions [`History::recent`] keeps: 32 versions of a
/// 365 KB page are 12 MiB.
const RECENT_TEXTS: usize = 32;

/// The cite texts of one record, compiled the first time a version of the
/// record is read (most records' cites all resolve, and their history is
/// never read).
struct Patterns {
    scan: std::cell::OnceCell<Option<scan::Scan>>,
    index: BTreeMap<String, usize>,
}

impl Patterns {
    fn scan(&self) -> Option<&scan::Scan> {
        self.scan
            .get_or_init(|| {
                let mut ordered: Vec<(&String, &usize)> = self.index.iter().collect();
                ordered.sort_by_key(|(_, i)| **i);
                let texts: Vec<&str> = ordered.iter().map(|(w, _)| w.as_str()).collect();
                scan::Scan::new(&texts)
            })
            .as_ref()
    }
}

impl<'r> History<'r> {
    /// Registers every cite as its record writes it (see [`History::expect`]).
    fn expect_all(&mut self, cites: &[ResolvedCite], texts: &BTreeMap<String, Arc<str>>) {
        let mut written: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for cite in cites {
            if let Some(text) = texts.get(&cite.record)
                && let Some(w) = written_in(cite, text)
            {
                written
                    .entry(cite.record.as_str())
                    .or_default()
                    .push(w.to_owned());
            }
        }
        for (record, patterns) in written {
            self.expect(record, patterns);
        }
    }

    /// Registers the texts the cites of `record` are written as: the writing
    /// searches then read each version of the record once.
    fn expect(&mut self, record: &str, written: Vec<String>) {
        let mut index = BTreeMap::new();
        for w in written {
            let next = index.len();
            index.entry(w).or_insert(next);
        }
        let scan = std::cell::OnceCell::new();
        self.patterns
            .insert(record.to_owned(), Patterns { scan, index });
    }

    /// Whether the version `id` of `record`, at `position`, holds `written`.
    fn holds(&mut self, record: &str, position: usize, id: Oid, written: &str) -> bool {
        let key = (record.to_owned(), id);
        let index = self
            .patterns
            .get(record)
            .and_then(|p| p.index.get(written))
            .copied();
        if let (Some(i), Some(counts)) = (index, self.counts.get(&key)) {
            return counts.get(i).is_some_and(|&n| n > 0);
        }
        // Counted from the nearest version at hand that is counted: the bytes
        // the two share are not scanned.
        let text = self.version(id, position);
        let base = self
            .recent
            .iter()
            .filter(|(v, _, _)| *v != id)
            .filter_map(|(v, at, bytes)| {
                let counts = self.counts.get(&(record.to_owned(), *v))?;
                Some((at.abs_diff(position), bytes.clone(), counts.clone()))
            })
            .min_by_key(|(distance, _, _)| *distance)
            .map(|(_, bytes, counts)| (bytes, counts));
        let scan = self.patterns.get(record).and_then(Patterns::scan);
        let (Some(scan), Some(i)) = (scan, index) else {
            return String::from_utf8_lossy(&text).contains(written);
        };
        let counts = match base {
            Some((bytes, counts)) => scan.counts_from(&bytes, &counts, &text),
            None => scan.counts(&text),
        };
        let held = counts.get(i).is_some_and(|&n| n > 0);
        self.counts.insert(key, Arc::new(counts));
        held
    }

    /// The bytes of the record version `id`, read at `position`, kept among
    /// the recent ones.
    pub(super) fn version(&mut self, id: Oid, position: usize) -> Arc<Vec<u8>> {
        if let Some(at) = self.recent.iter().position(|(v, _, _)| *v == id) {
            let (_, _, bytes) = &mut self.recent[at];
            let bytes = bytes.clone();
            self.recent[at].1 = position;
            return bytes;
        }
        let bytes = Arc::new(
            self.repo
                .blob_bytes(id, crate::snapshot::MAX_COUNTED_BYTES)
                .unwrap_or_default(),
        );
        if self.recent.len() == RECENT_TEXTS {
            self.recent.pop_front();
        }
        self.recent.push_back((id, position, bytes.clone()));
        bytes
    }

    fn new(repo: &'r GitRepo, start: Oid) -> Self {
        History {
            repo,
            line: Vec::new(),
            next: Some(start),
            trails: BTreeMap::new(),
            ids: std::collections::HashMap::new(),
            recent: std::collections::VecDeque::new(),
            audited: BTreeMap::new(),
            patterns: BTreeMap::new(),
            counts: BTreeMap::new(),
            cut_short: BTreeSet::new(),
            ends_cut: None,
        }
    }

    pub(super) fn repo(&self) -> &'r GitRepo {
        self.repo
    }

    /// The commit `position` first parents back from the audited one.
    pub(super) fn commit_at(&mut self, position: usize) -> Option<Oid> {
        while self.line.len() <= position && self.line.len() < MAX_DEPTH {
            let commit = self.next?;
            self.line.push(commit);
            self.next = self.repo.first_parent_of(commit);
        }
        self.line.get(position).copied()
    }

    /// Whether the line, read to its end, ends at a shallow clone's
    /// boundary rather than at the root (asked once).
    fn ends_cut_short(&mut self) -> bool {
        if let Some(cut) = self.ends_cut {
            return cut;
        }
        let cut = self
            .line
            .last()
            .is_some_and(|commit| self.repo.parent_missing(*commit));
        self.ends_cut = Some(cut);
        cut
    }

    /// How many commits of the line are read so far.
    pub(super) fn len(&self) -> usize {
        self.line.len()
    }

    /// The object id of `path` at `position` (`None` where it is not there).
    pub(super) fn id_at(&mut self, position: usize, path: &str) -> Option<Oid> {
        if let Some(id) = self.ids.get(path).and_then(|at| at.get(&position)) {
            return *id;
        }
        let id = self
            .commit_at(position)
            .and_then(|commit| self.repo.path_ids(commit, &[path])[0]);
        self.ids
            .entry(path.to_owned())
            .or_default()
            .insert(position, id);
        id
    }

    /// The record's name and blob at `position`, followed back through
    /// renames; `None` where it did not exist.
    pub(super) fn record_at(&mut self, record: &str, position: usize) -> Option<(String, Oid)> {
        loop {
            let trail = self
                .trails
                .entry(record.to_owned())
                .or_insert_with(|| vec![(0, Some(record.to_owned()))])
                .clone();
            let segment = trail.iter().rposition(|(from, _)| *from <= position)?;
            let (from, name) = trail[segment].clone();
            let name = name?;
            if let Some(id) = self.id_at(position, &name) {
                return Some((name, id));
            }
            if segment + 1 < trail.len() {
                // Gone at a position inside a segment found before (deleted
                // and brought back): not there.
                return None;
            }
            // The oldest position still holding the name: after it, the name
            // is gone (renamed from an earlier one, or created there).
            let (present, absent) =
                turning_point(self, from, position, |h, at| h.id_at(at, &name).is_some());
            let earlier = self
                .commit_at(present)
                .and_then(|commit| self.repo.renamed_from(commit, &name));
            if let Some(trail) = self.trails.get_mut(record) {
                trail.push((absent, earlier));
            }
        }
    }

    /// The position of the commit that made the record's version at `from`:
    /// the oldest of the run of positions back from `from` that hold that
    /// version. `None` where the record is not there.
    pub(super) fn made_at(&mut self, record: &str, from: usize) -> Option<usize> {
        let (_, id) = self.record_at(record, from)?;
        let same = |history: &mut Self, at: usize| {
            history.record_at(record, at).map(|(_, version)| version) == Some(id)
        };
        Some(self.oldest_holding(from, same))
    }

    /// The oldest of the run of positions back from `from` (where `holds` is
    /// true) that `holds` holds at: galloping back (1, 2, 4, … commits) to
    /// one it fails at, or the root, then halving.
    fn oldest_holding(
        &mut self,
        from: usize,
        mut holds: impl FnMut(&mut Self, usize) -> bool,
    ) -> usize {
        let (mut good, mut step) = (from, 1usize);
        let bad = loop {
            let probe = good + step;
            if self.commit_at(probe).is_none() {
                // The root is read: the line ends here.
                break self.line.len();
            }
            if holds(self, probe) {
                good = probe;
                step *= 2;
            } else {
                break probe;
            }
        };
        turning_point(self, good, bad, holds).0
    }

    /// The position of the commit that wrote `cite` into its record, as the
    /// record's text `texts` holds reads it, and the record's name there (see
    /// [`History::writing`]).
    pub(super) fn writing_of(
        &mut self,
        cite: &ResolvedCite,
        texts: &BTreeMap<String, Arc<str>>,
    ) -> Option<(usize, String)> {
        let text = texts.get(&cite.record)?;
        let written = written_in(cite, text)?;
        self.writing(&cite.record, text, written)
    }

    /// The position of the commit that wrote `written` into `record` (whose
    /// text, as the cites were read from it, is `read`) — the oldest of the
    /// run of positions back from the audited one whose record holds it — and
    /// the record's name there. `None` when the audited
    /// commit's record does not hold it (not committed yet).
    pub(super) fn writing(
        &mut self,
        record: &str,
        read: &str,
        written: &str,
    ) -> Option<(usize, String)> {
        self.writing_from(record, read, written, 0)
    }

    /// As [`History::writing`], from the record's version at `from` (a
    /// position whose record holds `written`) back.
    pub(super) fn writing_from(
        &mut self,
        record: &str,
        read: &str,
        written: &str,
        from: usize,
    ) -> Option<(usize, String)> {
        if !self.audited.contains_key(record) {
            let id = Oid::hash_object(git2::ObjectType::Blob, read.as_bytes()).ok();
            let at_audited = self.record_at(record, 0).map(|(_, id)| id);
            self.audited
                .insert(record.to_owned(), id.filter(|id| Some(*id) == at_audited));
        }
        let unchanged = self.audited.get(record).copied().flatten();
        let holds = |history: &mut Self, position: usize| {
            if unchanged.is_some()
                && history.record_at(record, position).map(|(_, id)| id) == unchanged
            {
                return true;
            }
            let Some((_, id)) = history.record_at(record, position) else {
                return false;
            };
            history.holds(record, position, id, written)
        };
        if !holds(self, from) {
            return None;
        }
        let good = self.oldest_holding(from, holds);
        // The oldest commit a shallow clone holds, with the line still
        // there: it may have been written long before.
        if self.commit_at(good + 1).is_none() && self.ends_cut_short() {
            self.cut_short
                .insert((record.to_owned(), written.to_owned()));
        }
        let (name, _) = self.record_at(record, good)?;
        Some((good, name))
    }
}

/// Where a property of the line's commits changes: given a position `holds`
/// is true at and one it is false at (either may be the newer), the two
/// neighbouring positions between them where it turns, by halving (the
/// property is taken to change once between them). Returns `(holds, fails)`.
pub(super) fn turning_point<'r>(
    history: &mut History<'r>,
    mut holds_at: usize,
    mut fails_at: usize,
    mut holds: impl FnMut(&mut History<'r>, usize) -> bool,
) -> (usize, usize) {
    while holds_at.abs_diff(fails_at) > 1 {
        let mid = holds_at.min(fails_at) + holds_at.abs_diff(fails_at) / 2;
        if holds(history, mid) {
            holds_at = mid;
        } else {
            fails_at = mid;
        }
    }
    (holds_at, fails_at)
}

/// The first eight hex digits of a commit id.
fn short(oid: Oid) -> String {
    oid.to_string()[..8].to_owned()
}

#[cfg(test)]
mod written_tests {
    use super::*;
    use crate::checks::cites::model::{CiteClass, Tier};

    fn link(text: &str, used: &str, destination: &str) -> ResolvedCite {
        let at = text.find(used).expect("the usage is in the text");
        ResolvedCite {
            record: "README.md".to_owned(),
            span: at..at + used.len(),
            kind: CiteClass::Line,
            text: "core/da.go:11".to_owned(),
            frame: "HEAD".to_owned(),
            frame_from: None,
            status: CiteStatus::Historical,
            tier: Tier::Explicit,
            expect: None,
            stale_if_history_knows: None,
            lines: None,
            evidenced: false,
            held_when_written: None,
            anchor: None,
            test: None,
            test_file_missing: false,
            destination: Some(destination.to_owned()),
            objects: None,
            label: None,
            document: false,
            proven: false,
            copied_from: None,
            located: None,
            release_notes: false,
            written_by_automation: None,
            generated_by: None,
            renamed_from: None,
            chosen_among: false,
            leaves_site: None,
            ref_assumed: None,
            earlier_notes: None,
            history_cut_short: false,
        }
    }

    #[test]
    fn a_reference_link_is_written_where_its_definition_is() {
        let url = "https://github.com/o/r/blob/main/core/da.go#L11";
        let text = format!(
            "Implements the [da][da] interface.\n{}\n[da]: {url}\n",
            "Filler line of the page.\n".repeat(40)
        );
        let cite = link(&text, "[da][da]", url);
        assert_eq!(written_in(&cite, &text), Some("core/da.go#L11"));
        // An inline link's destination is beside its text.
        let inline = format!("See [the interface]({url}).\n");
        let cite = link(&inline, "the interface", url);
        assert_eq!(written_in(&cite, &inline), Some("core/da.go#L11"));
    }

    #[test]
    fn a_forge_link_is_held_to_its_path_after_the_ref() {
        assert_eq!(
            tree_path_of("https://github.com/o/r/blob/main/core/da.go#L11"),
            Some("core/da.go#L11")
        );
        assert_eq!(
            tree_path_of("https://gitlab.com/g/p/-/tree/v1.2/docs"),
            Some("docs")
        );
        assert_eq!(tree_path_of("../core/da.go#L11"), None);
        assert_eq!(tree_path_of("https://example.com/blob/"), None);
    }
}
