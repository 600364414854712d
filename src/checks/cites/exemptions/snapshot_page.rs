//! Exemption `snapshot-page`, decided after the history's evidence
//! (`evidence/mod.rs`): a page whose folder's own index declares its pages
//! point-in-time snapshots, read as of when they were written (an RFC folder
//! whose README says a merged RFC's prose is left as written and superseded,
//! not edited into agreement with the code). A citation there that held when
//! its line was written and broke since is the page's history, as the
//! project asks it to be read. One that never held is judged as anywhere.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use super::{Applies, Definition};
use crate::snapshot::Snapshot;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path or line cite (not a link) on a page filed under a folder named `implemented` beside the proposals still open (`design/Implemented/`), or on a change proposal written to its template (two or more of the headings `Problem description`, `Proposed change`, `Work items`, `Alternatives`, `Implementation plan`, `Design details`, one of them `Proposed change` or `Work items`: an OpenStack spec, a design RFC), or a citation on a page that says in its opening that it records the tree as it was when written (\"This report reflects the codebase as of 2026-07-19\", \"all `file:line` citations are to the tree at the time of research\", \"**Historical reference.**\", \"**Historical snapshot** -- …\", \"grounded in the current tree as of the revision date\", \"Proposals are point-in-time designs and decisions\", an archived project's \"This project is archived and no longer developed or maintained\", \"remains unchanged below for historic purposes\"; and of its line numbers alone, \"`path:line` is approximate\", \"All line numbers below were verified against … on 2026-07-15\", \"treat line numbers only as hints\"), or on a page whose folder's own index (`README.md`, `index.md`, `README.rst`, … in the same folder, never the repository's root README) declares the folder's pages point-in-time snapshots, as of when they were written (\"the RFC's narrative is a point-in-time snapshot … as of when it was written\", \"these are *historical references*\", plans that \"stay … as historical documentation\"), or one of whose pages says the citations of its records are never rewritten (a decision record's \"the evidence and the citations are the record of what was decided at that time, and they are never rewritten\"), or a path or line cite (not a link) on a decision record, not a draft or a proposal, of a folder whose index, a guide of the project (`AGENTS.md`, `CLAUDE.md`, `CONTRIBUTING.md`) or one of its own decisions says its decision records are immutable (\"An ADR that has shipped in a release is immutable\", a decision titled \"ADRs are immutable decision events\"): the record is read against the tree it was decided on, or whose folder (not the root) holds a task list (a Markdown page named for its tasks: `tasks.md`, `ralph-tasks.md`) with every task checked off, five or more (a spec whose work is done: its requirements and design planned it), or one of whose pages names the folder as its feature's branch (`**Feature Branch**: `008-adk-adapter`` in `specs/008-adk-adapter/`: a feature's plan, on this branch because its work landed), or on a work record whose own status near its top says its work is done (a story's `Status: done`, `status: completed`, a plan's `**Status: IMPLEMENTED** - all phases completed`, or that its work landed on a day, `**Status:** I1 and I2 both LANDED (2026-07-17)`, `Status as of 2026-07-08, after the push landed`; not one that plans or denies it, `planned, not started (2026-07-09)`), or whose outcome field reports it shipped, withdrawn or decided (`## Outcome: **G5 shipped.**`), or a path or line cite (not a link) on a prompt given to a coding agent (a page under a `prompts/` folder or named for a prompt, `0008-implementation-prompt.md`, whose opening calls it a prompt in a heading or addresses the agent, \"You are working in …\": an order of work, consumed by the run it was written for), that held when its line was written and broke since: the page is read as the project says to read it. A path or line cite (not a link) in a section whose own introduction, before its subsections, says its content is outdated (\"Note that these code snippets are outdated\", \"This section is out of date\"), that held when its line was written and broke since: the section shows what it showed, as it was. A path or line cite (not a link) under a Markdown heading that marks its section's work done (`### PR 1 — scaffold ✅ Complete`, `## Phase 2 (done)`; not `## Definition of done`), that held when its line was written and broke since: the section records the change that landed. A path (not a link: a link is clicked whatever its line says) on a line that names a day (`- `pkg/queue`: `Nov 2 2023` - `33.9%``, a design's test-coverage entry, or a statement it dates, \"As of early 2024, the UI was under `src/client`\") that held when its line was written and broke since: the line records the tree of that day. Likewise a path (not a link) on a line that names a commit of this history by its id (a data manifest's \"generated by `tests/test_energies.py` … corresponds to commit 02dba85c\"): the line records that commit's tree. A citation of a report its path names whose opening dates it with a `Date:` field (`research/…/CI_CD_AUDIT_REPORT.md` with `**Date**: 2025-11-20`, a generated review's `**Generated:** 2026-05-31T03:50:35Z`; not a decision record), likewise. A citation of a report its path dates and names (a word of its path is `audit`, `review`, `report`, `plan`, `log`, `retrospective`, `postmortem`, `incident`, `meeting`, `session`, `investigation`, `analysis`, `assessment`, `evaluation`, `summary`, …: `security/audits/2026-06-10-pinning.md`, `plans/2026-02-01-verbose-run.md`), or names for a release a later release followed (`security/v0.3.3-security-audit.md` with `v0.5.1` tagged), a path or a link as well as a line cite, that held when its line was written and broke since: the report tells that day's (that release's) tree (a dated decision record is no report, and is read as any page). A line cite of a record its path dates (`audit/2026-06/findings.md`, `security-audit-2026-07-06.md`), or whose opening dates it with a `Date:` field (a design note's `Date: 2026-03-11`; not a decision record or a changelog) or as an audit, a review or research (`**Audited:** 2026-05-21`, `**Researched:** 2026-07-25`), or whose title names a release of the project that a later major release followed (`# SDK 2.0 Development`, with tags `v2.0.0` and `v4.8.0`: the tags bear out that the version is this project's), whose lines held when written and moved since: its line numbers are that day's (its paths, and a line cite whose file went, are read as on any page). A line cite under a day that its paragraph or list item (up to the cite's line) or its section's Markdown heading names (a log's entry, `## timerid progress, 2026-08-11`; a lesson's `(2026-08-08, the brief)`), written by a commit of that day or the two after it, whose lines held when written and moved since: that day's line numbers (not in a decision record, whose dated amendments are kept current with it). A line cite of a record its path dates, or of a report its opening dates with a `Date:` field, is that day's even where no commit held its lines, while its file is there: a dated plan numbers the lines of the tree it was written against, the lines its own work was adding included; and such a report's line cite of a file no commit of this history had cites the tree of its day, which this history lacks (a page written elsewhere and brought in). A path that came with the change that wrote its line (a plan naming the file its own work added, within 30 days) held for the record's time, as one there when written did; a line cite past its file's end today held if the file was that long when written. A path (not a link) in a post of a site's blog or news whose header dates it (ABlog's `.. post:: 2025-04-04`, a front matter `date: 2021-03-02`) that the tree had at the end of that day: the post tells that day's tree, whenever the blog was committed (old posts brought in as published). A citation that did not hold when written is judged as on any page.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The names a folder's index goes by.
pub(super) const INDEX_NAMES: &[&str] = &[
    "README.md",
    "readme.md",
    "README.rst",
    "README.markdown",
    "README",
    "index.md",
    "index.rst",
    "_index.md",
];

/// The index bytes read at most: a declaration sits in its prose.
const MAX_INDEX_BYTES: usize = 256 * 1024;

/// Per folder that holds a cited record: the index that declares its pages
/// snapshots and the line it says so on, if one does.
#[derive(Default)]
pub(in crate::checks::cites) struct SnapshotFolders {
    folders: BTreeMap<String, Option<(String, usize, Declared)>>,
    /// The repository's tags: which releases a title may name.
    tags: Vec<String>,
}

impl SnapshotFolders {
    /// None read yet, in a repository with these tags.
    pub(in crate::checks::cites) fn with_tags(tags: Vec<String>) -> SnapshotFolders {
        SnapshotFolders {
            folders: BTreeMap::new(),
            tags,
        }
    }
}

/// How a folder says its pages are history.
#[derive(Clone, Copy)]
enum Declared {
    /// Its index says its pages are point-in-time snapshots.
    Snapshots,
    /// Its task list has every task checked off: the pages beside it
    /// planned work that is done (a spec's requirements and design).
    FinishedTasks,
    /// A page of it names the folder as its feature's branch (`**Feature
    /// Branch**: `008-adk-adapter``): the folder is the plan a feature
    /// branch carried, on this branch because its work landed.
    FeaturePackage,
    /// A guide of the project (`AGENTS.md`, `CONTRIBUTING.md`, the folder's
    /// index) says its decision records are immutable: each is the tree it
    /// was decided against, by path and line (a link is still clicked).
    ImmutableRecords,
}

impl SnapshotFolders {
    /// Why a citation on `record` that held at `written` is the page's
    /// history, if its folder's index declares the page a snapshot.
    pub(in crate::checks::cites) fn fires(
        &mut self,
        snapshot: &dyn Snapshot,
        record: &str,
        text: Option<&str>,
        form: CiteForm,
        written: &str,
        dated_line: Option<(usize, &str)>,
    ) -> Option<String> {
        // A design filed among those carried out (`design/Implemented/`,
        // beside the proposals still open) is the plan as it was made: the
        // code it cites by path or line is that day's. (A link between
        // pages is clicked as on any page.)
        let line_cite = form == CiteForm::Line;
        if form != CiteForm::Link
            && let Some(folder) = implemented_folder(snapshot.paths(), record)
        {
            return Some(format!(
                "{record} is filed under `{folder}/` with the designs carried out: the code it cites is read as of when written; this held when the record cited it (at {written})"
            ));
        }
        // A change proposal in its template's form (an OpenStack spec, a
        // design RFC: "Problem description", "Proposed change", "Work
        // items") names the files its change would touch as they were when
        // proposed; once the change lands, nobody rewrites the proposal.
        // (A link between pages is clicked as on any page.)
        if form != CiteForm::Link
            && let Some(sections) = text.and_then(proposal_sections)
        {
            return Some(format!(
                "{record} is a change proposal (its sections: {sections}): the files it would change are read as they were when proposed; this held when the record cited it (at {written})"
            ));
        }
        // A line that dates itself (a coverage entry of a design's test plan,
        // "`pkg/queue`: `Nov 2 2023` - `33.9%`") records the tree of that day.
        if let Some((line, day)) = dated_line {
            return Some(format!(
                "{record}:{line} dates its line ({day}): it is read as the tree stood that day; this held when the record cited it (at {written})"
            ));
        }
        // A page that says so of its `file:line` citations says it of their
        // line numbers alone: its paths, and a line cite whose file is gone,
        // are read as on any page.
        if let Some((line, _)) = text
            .and_then(|text| declares_itself(super::head_of(text, OPENING_BYTES)))
            .filter(|(_, of_lines)| line_cite || !of_lines)
        {
            return Some(format!(
                "{record}:{line} says the page records the tree as it was when written; this held when the record cited it (at {written})"
            ));
        }
        // A report of a day (`security/audits/2026-06-10-pinning.md`,
        // `plans/2026-02-01-verbose-run.md`): its path dates it and names
        // it a report, a plan, a review, a log. It tells what the tree was
        // that day, its paths and links included; nobody edits last June's
        // audit when a file moves. (A dated decision record is no report: it
        // governs until superseded.)
        if let Some((day, kind)) = dated_report(record) {
            return Some(format!(
                "{record} is {} {kind} dated by its path ({day}): it tells the tree of that day; this held when the record cited it (at {written})",
                article(kind)
            ));
        }
        // Likewise a report its path names and its opening dates
        // (`research/…/CI_CD_AUDIT_REPORT.md` with `**Date**: 2025-11-20`);
        // a decision record is no report, nor a changelog (`ChangeLog.md`).
        if let Some((line, day, kind)) = text.and_then(|text| field_dated_report(record, text)) {
            return Some(format!(
                "{record}:{line} dates the {kind} ({day}): it tells the tree of that day; this held when the record cited it (at {written})"
            ));
        }
        // A record its path dates (`audit/2026-06/findings.md`,
        // `security-audit-2026-07-06.md`) gives line numbers as they stood on
        // that day: lines that moved since are its history. (Its paths are
        // read as any page's: a dated decision record's link that 404s is
        // one a reader clicks.)
        if line_cite && let Some(day) = dated_path(record) {
            return Some(format!(
                "{record} is dated by its path ({day}): its line numbers are read as they stood when written; this held when the record cited it (at {written})"
            ));
        }
        // Likewise a page its opening dates with a `Date:` field, whatever
        // its path calls it (a design note's `Date: 2026-03-11`): its line
        // numbers are that day's.
        if line_cite && let Some((line, day)) = text.and_then(|text| field_dated_page(record, text))
        {
            return Some(format!(
                "{record}:{line} dates the page ({day}): its line numbers are read as they stood when written; this held when the record cited it (at {written})"
            ));
        }
        // Likewise a record whose opening dates it as an audit, a review or research
        // (`**Audited:** 2026-05-21`): its line numbers are that day's.
        if line_cite
            && let Some((line, day)) =
                text.and_then(|text| audit_date(super::head_of(text, OPENING_BYTES)))
        {
            return Some(format!(
                "{record}:{line} dates the record as an audit, a review or research ({day}): its line numbers are read as they stood when written; this held when the record cited it (at {written})"
            ));
        }
        // A report its path names for a release a later release followed
        // (`security/v0.3.3-security-audit.md`, `testing/v0.2.x-test-report.md`
        // with `v0.5.1` tagged): the tree of that release, as a date's.
        if let Some((version, kind)) = released_report(record, &self.tags) {
            return Some(format!(
                "{record} is {} {kind} of release {version}, which a later release followed: it tells that release's tree; this held when the record cited it (at {written})",
                article(kind)
            ));
        }
        // Likewise a record whose title names a release of the project that
        // a later major release followed (`# SDK 2.0 Development`, tags
        // `v2.0.0` and `v4.8.0`): its line numbers are that release's.
        if line_cite
            && let Some((line, version)) = text.and_then(|text| {
                crate::checks::cites::releases::earlier_major_title(
                    super::head_of(text, OPENING_BYTES),
                    &self.tags,
                )
            })
        {
            return Some(format!(
                "{record}:{line} is titled for release {version}, which a later major release followed: its line numbers are read as they stood when written; this held when the record cited it (at {written})"
            ));
        }
        // A work record whose own status says its work is done (a story
        // or plan's `Status: done`): what it planned has landed, and it is
        // read as of when written.
        if let Some(line) = text.and_then(|text| work_done(super::head_of(text, OPENING_BYTES))) {
            return Some(format!(
                "{record}:{line} says its work is done: the page planned work that has landed, and is read as of when written; this held when the record cited it (at {written})"
            ));
        }
        // A to-do list or task page whose own tasks are all checked off
        // (`plans/wasm32-todo.md`, nine `[x]` and none open): its work is
        // done, and its targets are that work's.
        if named_for(record, &["todo", "tasks", "checklist"])
            && let Some(line) =
                text.and_then(|text| all_checked(super::head_of(text, MAX_INDEX_BYTES)))
        {
            return Some(format!(
                "{record}:{line} checks off every one of its tasks: the page planned work that is done, and is read as of when written; this held when the record cited it (at {written})"
            ));
        }
        // A prompt given to a coding agent (`docs/prompts/0008-implementation-
        // prompt.md`, "You are working in the … repository. Implement
        // ADR-0008"): an order of work, consumed when the agent ran it; the
        // code it names by path or line is that run's. (A link is clicked as
        // on any page.)
        if form != CiteForm::Link
            && prompt_named(record)
            && let Some(line) =
                text.and_then(|text| addresses_an_agent(super::head_of(text, OPENING_BYTES)))
        {
            return Some(format!(
                "{record}:{line} is a prompt given to a coding agent: an order of work, read as of the run it was written for; this held when the record cited it (at {written})"
            ));
        }
        let (folder, name) = record.rsplit_once('/')?;
        if INDEX_NAMES.contains(&name) {
            return None;
        }
        // A folder's rule for its records (accepted ones are not edited)
        // leaves one still a draft or a proposal: it is being written.
        let drafted = text.is_some_and(|text| {
            text.lines()
                .take(40)
                .any(super::superseded_record::not_in_force)
        });
        let (index, line, declared) = self
            .folders
            .entry(folder.to_owned())
            .or_insert_with(|| {
                declaring_index(snapshot, folder)
                    .or_else(|| declaring_record(snapshot, folder))
                    .map(|(index, line)| (index, line, Declared::Snapshots))
                    .or_else(|| {
                        finished_task_list(snapshot, folder)
                            .map(|(list, line)| (list, line, Declared::FinishedTasks))
                    })
                    .or_else(|| {
                        feature_package(snapshot, folder)
                            .map(|(page, line)| (page, line, Declared::FeaturePackage))
                    })
                    .or_else(|| {
                        immutable_records(snapshot, folder)
                            .map(|(guide, line)| (guide, line, Declared::ImmutableRecords))
                    })
            })
            .clone()?;
        if drafted
            && matches!(declared, Declared::Snapshots)
            && !INDEX_NAMES.contains(&index.rsplit('/').next().unwrap_or(&index))
        {
            return None;
        }
        // Immutable once decided: a draft or a proposal is still written,
        // and a link is clicked whatever the rule.
        if matches!(declared, Declared::ImmutableRecords) && (drafted || form == CiteForm::Link) {
            return None;
        }
        Some(match declared {
            Declared::Snapshots => format!(
                "{index}:{line} declares the pages of `{folder}/` point-in-time snapshots, read as of when written; this held when the record cited it (at {written})"
            ),
            Declared::FinishedTasks => format!(
                "{index}:{line} checks off every task of `{folder}/`: its pages planned work that is done, and are read as of when written; this held when the record cited it (at {written})"
            ),
            Declared::ImmutableRecords => format!(
                "{index}:{line} says the project's decision records are immutable: {record} is read against the tree it was decided on; this held when the record cited it (at {written})"
            ),
            Declared::FeaturePackage => format!(
                "{index}:{line} names `{folder}/` as its feature's branch: the folder is the plan of a feature whose work landed with it, read as of when written; this held when the record cited it (at {written})"
            ),
        })
    }
}

/// The sections that make a page a change proposal, if at least two of a
/// proposal template's are its headings and one of them proposes the change
/// (`Proposed change`, `Work items`): an OpenStack spec, a design RFC or
/// enhancement proposal written to a template, which plans a change rather
/// than describing the tree.
fn proposal_sections(text: &str) -> Option<String> {
    static HEADING: OnceLock<Regex> = OnceLock::new();
    let heading = HEADING.get_or_init(|| {
        Regex::new(r"(?im)^(?:#{1,6}[ \t]+)?(problem description|proposed changes?|work items|alternatives(?: considered)?|implementation plan|design details)[ \t]*:?[ \t]*\r?$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let mut found: Vec<String> = Vec::new();
    for caps in heading.captures_iter(text) {
        let name = caps[1].to_ascii_lowercase();
        if !found.contains(&name) {
            found.push(name);
        }
    }
    let proposes = found
        .iter()
        .any(|s| s.starts_with("proposed change") || s == "work items");
    (found.len() >= 2 && proposes).then(|| {
        found
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// Whether `record`'s path names it a prompt: a folder of it is `prompts`
/// (or `prompt`), or a word of its file name is `prompt`
/// (`0008-implementation-prompt.md`).
fn prompt_named(record: &str) -> bool {
    let (folders, name) = record.rsplit_once('/').unwrap_or(("", record));
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    folders
        .split('/')
        .any(|f| f.eq_ignore_ascii_case("prompts") || f.eq_ignore_ascii_case("prompt"))
        || stem
            .split(['-', '_', '.', ' '])
            .any(|word| word.eq_ignore_ascii_case("prompt"))
}

/// The line of a page's opening that addresses a coding agent, if one does:
/// a title that calls the page a prompt (`# Codex CLI prompt: Implement
/// ADR-0008`), or a line that tells the agent who it is and where ("You are
/// working in the RingDrill repository").
fn addresses_an_agent(opening: &str) -> Option<usize> {
    static ADDRESS: OnceLock<Regex> = OnceLock::new();
    let address = ADDRESS.get_or_init(|| {
        Regex::new(r"(?i)^(?:#{1,6}[ \t]+.*\bprompt\b|\W{0,4}you are (?:working|an?|the|acting|implementing)\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    opening
        .lines()
        .position(|line| address.is_match(line.trim_start()))
        .map(|i| i + 1)
}

/// How a citation names what it cites, as the page-wide readings ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::checks::cites) enum CiteForm {
    /// Lines of a file (`x.go:69`, `x.go#L69`), read where they are.
    Line,
    /// A path in the prose, or lines of a file that is gone.
    Path,
    /// A link to a page or a file, which a reader clicks.
    Link,
}

/// The folder above `record` named for designs carried out
/// (`implemented`), when its parent holds other Markdown pages beside it
/// (the proposals still open): a design repository's filing of the plans
/// it carried out.
fn implemented_folder(paths: &[String], record: &str) -> Option<String> {
    let segments: Vec<&str> = record.split('/').collect();
    let at = (0..segments.len().saturating_sub(1))
        .rev()
        .find(|&i| segments[i].eq_ignore_ascii_case("implemented"))?;
    let folder = segments[..=at].join("/");
    let parent = segments[..at].join("/");
    let prefix = if parent.is_empty() {
        String::new()
    } else {
        format!("{parent}/")
    };
    let open = markdown_pages_of(paths, &prefix)
        .any(|page| !INDEX_NAMES.contains(&page.rsplit('/').next().unwrap_or(page)));
    open.then_some(folder)
}

/// The fewest checked tasks that make a list a plan's, not a stray box.
const MIN_TASKS: usize = 5;

/// The pages of `folder` read at most for a task list.
const MAX_TASK_PAGES: usize = 32;

/// The Markdown pages directly in the folder `prefix` (`specs/008/`) names,
/// of the tree's sorted `paths`.
fn markdown_pages_of<'p>(
    paths: &'p [String],
    prefix: &'p str,
) -> impl Iterator<Item = &'p String> + 'p {
    let start = paths.partition_point(|p| p.as_str() < prefix);
    paths[start..]
        .iter()
        .take_while(move |p| p.starts_with(prefix))
        .filter(move |p| !p[prefix.len()..].contains('/') && p.ends_with(".md"))
}

/// A task list of `folder` (a Markdown page whose name says it holds tasks:
/// `tasks.md`, `ralph-tasks.md`) whose tasks are all checked off, at least
/// [`MIN_TASKS`] of them, and the line of its first: the folder's work is
/// done.
fn finished_task_list(snapshot: &dyn Snapshot, folder: &str) -> Option<(String, usize)> {
    let prefix = format!("{folder}/");
    markdown_pages_of(snapshot.paths(), &prefix)
        .filter(|p| named_for(p, &["tasks"]))
        .take(MAX_TASK_PAGES)
        .find_map(|path| {
            let text = snapshot.read_text_to_parse(path).ok().flatten()?;
            all_checked(super::head_of(&text, MAX_INDEX_BYTES)).map(|line| (path.clone(), line))
        })
}

/// Whether a word of the page's file name (split at `-`, `_`, `.`) is one
/// of `words`: `ralph-tasks.md` is named for its tasks, `wasm32-todo.md`
/// for a to-do list.
fn named_for(page: &str, words: &[&str]) -> bool {
    let name = page.rsplit('/').next().unwrap_or(page);
    name.rsplit_once('.').is_some_and(|(stem, _)| {
        stem.to_ascii_lowercase()
            .split(['-', '_', '.'])
            .any(|word| words.contains(&word))
    })
}

/// The line (1-based) of the first task of a list whose tasks (`- [x]`,
/// `* [X]`, numbered too) are all checked, at least [`MIN_TASKS`] of them.
fn all_checked(text: &str) -> Option<usize> {
    let mut first = None;
    let mut checked = 0;
    for (at, line) in text.lines().enumerate() {
        let item = line.trim_start();
        let item = item.strip_prefix(['-', '*', '+']).or_else(|| {
            let digits = item.len() - item.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            (digits > 0)
                .then(|| item[digits..].strip_prefix(['.', ')']))
                .flatten()
        });
        let Some(item) = item.map(str::trim_start) else {
            continue;
        };
        if item.starts_with("[ ]") {
            return None;
        }
        if item.starts_with("[x]") || item.starts_with("[X]") {
            checked += 1;
            first.get_or_insert(at + 1);
        }
    }
    (checked >= MIN_TASKS).then_some(first).flatten()
}

/// A page of `folder` whose opening names the folder as its feature's branch
/// (`**Feature Branch**: `008-adk-adapter`` in `specs/008-adk-adapter/`), and
/// the line it does so on: the folder is a feature's plan, written on that
/// branch and brought here when its work landed.
fn feature_package(snapshot: &dyn Snapshot, folder: &str) -> Option<(String, usize)> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(r"(?im)^[ \t>*_-]*feature[ \t]+branch[ \t]*[*_]*:[*_ \t]*`?([A-Za-z0-9._/-]+)`?")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let name = folder.rsplit('/').next()?;
    markdown_pages_of(snapshot.paths(), &format!("{folder}/"))
        .take(MAX_TASK_PAGES)
        .find_map(|path| {
            let text = snapshot.read_text_to_parse(path).ok().flatten()?;
            let opening = super::head_of(&text, OPENING_BYTES);
            let caps = field.captures(opening)?;
            let branch = caps.get(1)?;
            let named = branch.as_str().rsplit('/').next() == Some(name);
            named.then(|| {
                let line = opening[..branch.start()].matches('\n').count() + 1;
                (path.clone(), line)
            })
        })
}

/// The line (1-based) of a status field in a work record's opening that says
/// its work is done (`Status: done`, `**Status**: Completed`, front matter's
/// `status: complete`), or that it landed on a day (`**Status:** I1 and I2
/// both LANDED (2026-07-17)`, `Status as of 2026-07-08, after the push
/// landed`), or of an outcome field that reports it shipped or was decided
/// (`## Outcome: **G5 shipped.**`). A status that plans or denies the work
/// (`planned, not started (2026-07-09)`, `to be implemented by 2026-09-01`)
/// says nothing done.
fn work_done(opening: &str) -> Option<usize> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    static REPORTED: OnceLock<Regex> = OnceLock::new();
    static LANDED: OnceLock<Regex> = OnceLock::new();
    static DECIDED: OnceLock<Regex> = OnceLock::new();
    static NOT_YET: OnceLock<Regex> = OnceLock::new();
    let compiled = |slot: &'static OnceLock<Regex>, pattern: &str| -> &'static Regex {
        slot.get_or_init(|| Regex::new(pattern).unwrap_or_else(|_| unreachable!("a fixed pattern")))
    };
    let field = compiled(
        &FIELD,
        r"(?im)^[ \t>*_-]*status[ \t]*[*_]*:[*_ \t]*(?:[✅✔☑]\x{FE0F}?[*_ \t]*)?(?:done|completed?|finished|implemented)(?:[ \t*_.]*$|[*_]*[ \t]+[-–—(][^\n]*$)",
    );
    let line_of = |at: usize| opening[..at].matches('\n').count() + 1;
    if let Some(found) = field.find(opening) {
        return Some(line_of(found.start()));
    }
    // A status that reports work landed on a day, or an outcome reported.
    let reported = compiled(
        &REPORTED,
        r"(?im)^[ \t>*_#-]*(?:status(?:[ \t]+as[ \t]+of[ \t]+\d{4}-\d{2}-\d{2})?|(outcome))[ \t]*[*_]*[:,][ \t]*([^\n]*)$",
    );
    let landed = compiled(
        &LANDED,
        r"(?i)(?-u:\b)(?:landed|implemented|shipped|merged|completed?|done|finished)(?-u:\b)",
    );
    let decided = compiled(
        &DECIDED,
        r"(?i)(?-u:\b)(?:shipped|landed|implemented|merged|withdrawn|decided)(?-u:\b)",
    );
    let not_yet = compiled(
        &NOT_YET,
        r"(?i)(?-u:\b)(?:not|yet|to[ \t]+be|will|planned|pending|proposed|draft|partially|once)(?-u:\b)",
    );
    let says = |words: &Regex, value: &str| {
        words
            .find(value)
            .is_some_and(|verb| !not_yet.is_match(&value[..verb.start()]))
    };
    reported.captures_iter(opening).find_map(|caps| {
        let whole = caps.get(0)?;
        // A field with a value on its own line, outside a code block (a
        // YAML sample's `status:` mapping is no page's status).
        let fenced = opening[..whole.start()].matches("```").count() % 2 == 1;
        if fenced || caps.get(2)?.as_str().trim().is_empty() {
            return None;
        }
        // The field's value runs on to the end of its paragraph
        // ("implemented and committed on branch\n`x` (2026-07-15)").
        let from = caps.get(2)?.start();
        let rest = &opening[from..];
        let end = rest.find("\n\n").unwrap_or(rest.len()).min(400);
        let value = rest.get(..end).unwrap_or(caps.get(2)?.as_str());
        let done = if caps.get(1).is_some() {
            says(decided, value)
        } else {
            (has_day(whole.as_str()) || has_day(value)) && says(landed, value)
        };
        done.then(|| line_of(whole.start()))
    })
}

/// Whether `text` names a day (`2026-07-17`).
fn has_day(text: &str) -> bool {
    text.as_bytes().windows(10).any(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    })
}

/// The line of the Markdown heading over `at` and the mark by which it says
/// its section's work is done (`### PR 1 — scaffold ✅ Complete`, `## Phase
/// 2 (done)`, `### [x] Split the store`), when it says so. A heading that
/// only speaks of doneness (`## Definition of done`) marks nothing.
pub(in crate::checks::cites) fn done_section(text: &str, at: usize) -> Option<(usize, String)> {
    static MARK: OnceLock<Regex> = OnceLock::new();
    let mark = MARK.get_or_init(|| {
        Regex::new(
            r"(?i)[✅✔☑]|\[x\]|(?:[-–—:(\[|]|\s)\s*(?:complete[d]?|done|finished|implemented|merged|shipped|landed)[\s)\].!*_]*$",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let before = text.get(..at)?;
    // The nearest heading line above, found walking back from the cite
    // (a page of many stale cites is not read whole for each).
    let start = match before.rfind("\n#") {
        Some(i) => i + 1,
        None if before.starts_with('#') => 0,
        None => return None,
    };
    let heading = before[start..].lines().next()?.trim_end();
    let found = mark.find(heading)?;
    let line = before[..start].matches('\n').count() + 1;
    Some((
        line,
        found
            .as_str()
            .trim_matches([' ', '-', '–', '—', ':', '('])
            .to_owned(),
    ))
}

/// The first index of `folder` that declares its pages snapshots, and the
/// line that does.
fn declaring_index(snapshot: &dyn Snapshot, folder: &str) -> Option<(String, usize)> {
    INDEX_NAMES.iter().find_map(|name| {
        let path = format!("{folder}/{name}");
        // Sized before it is read: a huge index is never read whole.
        let text = snapshot.read_text_to_parse(&path).ok().flatten()?;
        declares_snapshots(super::head_of(&text, MAX_INDEX_BYTES)).map(|line| (path, line))
    })
}

/// The pages of a folder read at most for one that says its records'
/// citations are never rewritten.
const MAX_POLICY_PAGES: usize = 512;

/// The bytes of each read for it.
const POLICY_BYTES: usize = 16 * 1024;

/// The first page of `folder` that says the citations of its records are
/// never rewritten (a decision record's "the evidence and the citations are
/// the record of what was decided at that time, and they are never
/// rewritten"), and the line that does: the project's own rule for reading
/// its records as of when written.
fn declaring_record(snapshot: &dyn Snapshot, folder: &str) -> Option<(String, usize)> {
    static NEVER_REWRITTEN: OnceLock<Regex> = OnceLock::new();
    let never_rewritten = NEVER_REWRITTEN.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:citations?|file:line[ \t]+references|evidence[ \t]+links)(?-u:\b)[^.]{0,160}?(?-u:\b)(?:are|is)[ \t\n]+never[ \t\n]+(?:rewritten|re-written|updated|edited|revised|corrected)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let prefix = format!("{folder}/");
    markdown_pages_of(snapshot.paths(), &prefix)
        .take(MAX_POLICY_PAGES)
        .find_map(|page| {
            let text = snapshot.read_text_to_parse(page).ok().flatten()?;
            let head = super::head_of(&text, POLICY_BYTES);
            let at = never_rewritten.find(head)?.start();
            Some((page.clone(), head[..at].matches('\n').count() + 1))
        })
}

/// The guides a project states its rules for contributors in, from the
/// root, read for one that says its decision records are immutable.
const GUIDES: &[&str] = &[
    "AGENTS.md",
    "CLAUDE.md",
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
];

/// Where the project says the decision records of `folder` (a folder of
/// them: `doc/adr`, `docs/decisions`) are immutable — "An ADR that has
/// shipped in a release is immutable", "decision records are never edited"
/// — and the line that does: the folder's own index first, then the root's
/// guides for contributors, then the folder's own decisions.
fn immutable_records(snapshot: &dyn Snapshot, folder: &str) -> Option<(String, usize)> {
    static IMMUTABLE: OnceLock<Regex> = OnceLock::new();
    let immutable = IMMUTABLE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:ADRs?|(?:architecture[ \t]+)?decision[ \t]+records?|architecture[ \t]+decisions?)(?-u:\b)[^.\n]{0,120}?(?-u:\b)(?:is|are)[ \t]+(?:immutable|never[ \t]+(?:edited|changed|modified|rewritten))(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    if !super::decided_change::is_decision_record(&format!("{folder}/record.md")) {
        return None;
    }
    let indexes = INDEX_NAMES.iter().map(|name| format!("{folder}/{name}"));
    // A decision of the folder's own may set the rule (jaunder's ADR-0127,
    // "ADRs are immutable decision events"): its title and opening say so.
    let prefix = format!("{folder}/");
    let records = markdown_pages_of(snapshot.paths(), &prefix)
        .filter(|page| !INDEX_NAMES.contains(&page.rsplit('/').next().unwrap_or(page)))
        .take(MAX_POLICY_PAGES)
        .cloned();
    indexes
        .chain(GUIDES.iter().map(|guide| (*guide).to_owned()))
        .chain(records)
        .find_map(|page| {
            let text = snapshot.read_text_to_parse(&page).ok().flatten()?;
            let head = super::head_of(&text, MAX_INDEX_BYTES);
            let at = immutable.find(head)?.start();
            Some((page, head[..at].matches('\n').count() + 1))
        })
}

/// The line (1-based) and day of a field in a record's opening that dates it
/// as an audit, a review or research (`**Audited:** 2026-05-21`, `Review date:
/// 2026-03`, `Date of audit: 2026-01-09`).
fn audit_date(opening: &str) -> Option<(usize, &str)> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(r"(?im)^[ \t>*_-]*(?:audited|researched|audit[ \t]+date|date[ \t]+of[ \t]+(?:the[ \t]+)?(?:audit|review)|reviewed[ \t]+on|review[ \t]+date)[ \t]*[*_]*:[*_ \t]*((?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12][0-9]|3[01]))?)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let caps = field.captures(opening)?;
    let day = caps.get(1)?;
    let line = opening[..day.start()].matches('\n').count() + 1;
    Some((line, day.as_str()))
}

/// Why a line cite of a record its path dates is that day's, whatever the
/// history had: a dated plan or log numbers the lines of the tree it was
/// written against, its own work in progress included (lines it was about
/// to add), which no commit may hold. Only while the cited file is there
/// (`file_there`): a file that went is read as on any page.
/// Why a line cite under a day its place names (`dated_place`) that held
/// when written is that day's.
pub(in crate::checks::cites) fn dated_place_lines(
    record: &str,
    line: usize,
    day: &str,
    written: &str,
) -> String {
    format!(
        "{record}:{line} names the day its text was written ({day}): its line numbers are that day's; this held when the record cited it (at {written})"
    )
}

pub(in crate::checks::cites) fn dated_lines(
    record: &str,
    text: Option<&str>,
    file_there: impl FnOnce() -> bool,
) -> Option<String> {
    if let Some(day) = dated_path(record) {
        return file_there().then(|| format!(
            "{record} is dated by its path ({day}): its line numbers are those of the tree it was written against that day"
        ));
    }
    // A report its opening dates (`**Date:** 2025-11-10`) likewise, and
    // any page so dated (a design note's `Date: 2026-03-11`): its line
    // numbers are that day's, whatever its path calls it.
    let text = text?;
    let (line, day, kind) = field_dated_report(record, text).or_else(|| {
        let (line, day) = field_dated_page(record, text)?;
        Some((line, day, "page"))
    })?;
    file_there().then(|| format!(
        "{record}:{line} dates the {kind} ({day}): its line numbers are those of the tree it was written against that day"
    ))
}

/// Why a line cite of a dated report (its path dates and names it, or its
/// opening dates it with a `Date:` field), of a file this history never
/// had, is no drift: the report cites the tree of its day, and this history
/// does not hold that tree (a page written elsewhere and brought in).
pub(in crate::checks::cites) fn dated_report_never_here(
    record: &str,
    text: Option<&str>,
) -> Option<String> {
    const NEVER: &str = "it cites the tree of that day, and no commit here had the file";
    if let Some((day, kind)) = dated_report(record) {
        return Some(format!(
            "{record} is dated by its path ({day}), a {kind}: {NEVER}"
        ));
    }
    let (line, day, kind) = field_dated_report(record, text?)?;
    Some(format!("{record}:{line} dates the {kind} ({day}): {NEVER}"))
}

/// The line and day of the `Date:` field that dates a report its path
/// names (`docs/RectificationPlan.md` with `**Date:** 2025-11-10`), and its
/// kind; a decision record or a changelog is no report.
fn field_dated_report<'t>(record: &str, text: &'t str) -> Option<(usize, &'t str, &'static str)> {
    let kind = report_kind(record)?;
    let (line, day) = field_dated_page(record, text)?;
    Some((line, day, kind))
}

/// The line and day of the `Date:` field that dates a page in its opening
/// (a design note's `Date: 2026-03-11`), whatever its path calls it; a
/// decision record or a changelog is dated by its entries, not so.
fn field_dated_page<'t>(record: &str, text: &'t str) -> Option<(usize, &'t str)> {
    if super::decided_change::is_decision_record(record)
        || crate::checks::cites::releases::is_changelog(record)
    {
        return None;
    }
    date_field(super::head_of(text, OPENING_BYTES))
}

/// The day or month a record's path is named for, if one is: a folder or
/// file name holding `YYYY-MM` or `YYYY-MM-DD` (`_` for `-` too), or a
/// day written whole (`20211210-launch-templates.md`).
fn dated_path(record: &str) -> Option<&str> {
    static DATED: OnceLock<Regex> = OnceLock::new();
    let dated = DATED.get_or_init(|| {
        Regex::new(r"(?:^|[/_. -])((?:19|20)[0-9]{2}[-_](?:0[1-9]|1[0-2])(?:[-_](?:0[1-9]|[12][0-9]|3[01]))?|(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01]))(?:$|[/_. -])")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    dated
        .captures(record)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// The day a record's path dates it and the kind of report a word of its
/// path names it (`audit`, `plan`, `review`, `log`, `retrospective`, …), if
/// both: a record of what was found or planned that day.
fn dated_report(record: &str) -> Option<(&str, &'static str)> {
    let day = dated_path(record)?;
    Some((day, report_kind(record)?))
}

/// The indefinite article before a kind of report (`an audit`, `a plan`).
fn article(kind: &str) -> &'static str {
    if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The release a report's path names (`v0.3.3-security-audit.md`,
/// `devlogs/version/v0.3.4b/summary.md`: a version at a word's edge) and
/// the kind of report, when the tags bear out a later release.
fn released_report(record: &str, tags: &[String]) -> Option<(String, &'static str)> {
    static VERSION: OnceLock<Regex> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        Regex::new(
            r"(?:^|[/_ -])v?([0-9]{1,4}\.[0-9]{1,4}(?:\.(?:[0-9]{1,4}|x))?)[a-z]?(?:$|[/_. -])",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    if super::decided_change::is_decision_record(record) {
        return None;
    }
    let kind = report_kind(record)?;
    let named = version.captures(record)?.get(1)?.as_str();
    let release = named.strip_suffix(".x").unwrap_or(named);
    crate::checks::cites::releases::superseded(release, tags).then(|| (named.to_owned(), kind))
}

/// The kind of report a word of `record`'s path names it (`audit`, `plan`,
/// `review`, `log`, `research`, `sprint`, …), if one does.
fn report_kind(record: &str) -> Option<&'static str> {
    const KINDS: &[(&str, &str)] = &[
        ("audit", "audit"),
        ("audits", "audit"),
        ("review", "review"),
        ("reviews", "review"),
        ("report", "report"),
        ("reports", "report"),
        ("plan", "plan"),
        ("plans", "plan"),
        ("log", "log"),
        ("logs", "log"),
        ("worklog", "log"),
        ("devlog", "log"),
        ("journal", "log"),
        ("retro", "retrospective"),
        ("retros", "retrospective"),
        ("retrospective", "retrospective"),
        ("retrospectives", "retrospective"),
        ("postmortem", "postmortem"),
        ("postmortems", "postmortem"),
        ("incident", "incident report"),
        ("incidents", "incident report"),
        ("meeting", "meeting's notes"),
        ("meetings", "meeting's notes"),
        ("minutes", "meeting's notes"),
        ("session", "session's notes"),
        ("sessions", "session's notes"),
        ("handoff", "handoff"),
        ("investigation", "investigation"),
        ("investigations", "investigation"),
        ("research", "research note"),
        ("findings", "report"),
        ("analysis", "analysis"),
        ("analyses", "analysis"),
        ("assessment", "assessment"),
        ("assessments", "assessment"),
        ("evaluation", "evaluation"),
        ("evaluations", "evaluation"),
        ("summary", "summary"),
        ("summaries", "summary"),
        ("sprint", "sprint's notes"),
        ("sprints", "sprint's notes"),
    ];
    let path = record.rsplit_once('.').map_or(record, |(stem, _)| stem);
    // The whole word first (`PostMortems`), then the words its case
    // writes (`RectificationPlan`).
    path.split(['/', '-', '_', '.', ' '])
        .flat_map(|word| {
            let parts = camel_words(word);
            let split = parts.len() > 1;
            std::iter::once(word).chain(parts.into_iter().filter(move |_| split))
        })
        .find_map(|word| {
            let word = word.to_ascii_lowercase();
            KINDS
                .iter()
                .find(|(w, _)| *w == word)
                .map(|(_, kind)| *kind)
        })
}

/// A name's words as its case writes them (`RectificationPlan`:
/// `Rectification`, `Plan`); a name in one case is one word (`AUDIT`).
fn camel_words(name: &str) -> Vec<&str> {
    let bytes = name.as_bytes();
    let mut words = Vec::new();
    let mut start = 0;
    for i in 1..bytes.len() {
        if bytes[i].is_ascii_uppercase() && bytes[i - 1].is_ascii_lowercase() {
            words.push(&name[start..i]);
            start = i;
        }
    }
    words.push(&name[start..]);
    words
}

/// The line (1-based) and day of a `Date:` field in a record's opening
/// (`**Date**: 2025-11-20`, `- Date: 2026-01-09`, a generated report's
/// `**Generated:** 2026-05-31T03:50:35Z`): the day the page was written
/// for.
fn date_field(opening: &str) -> Option<(usize, &str)> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(r"(?im)^[ \t>*_-]*(?:date|generated(?:[ \t]+on)?|created(?:[ \t]+on)?)[ \t]*[*_]*:[*_ \t]*((?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))(?:T[0-9]|[^0-9A-Za-z]|$)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let day = field.captures(opening)?.get(1)?;
    Some((
        opening[..day.start()].matches('\n').count() + 1,
        day.as_str(),
    ))
}

/// The line (1-based) holding `at` in `text` and the day it names, if it
/// names one: `2022-11-17`, `2023.01.30`, `25 Nov 2022`, `Nov 2 2023`,
/// `November 2, 2023`.
pub(in crate::checks::cites) fn dated_line(text: &str, at: usize) -> Option<(usize, &str)> {
    static DAY: OnceLock<Regex> = OnceLock::new();
    let day = DAY.get_or_init(|| {
        Regex::new(r"(?i)\b(?:(?:19|20)\d{2}[-./](?:0?[1-9]|1[0-2])[-./](?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+(?:19|20)\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?,?\s+(?:19|20)\d{2}|as\s+of\s+(?:(?:early|mid|late)[\s-]+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+)?(?:19|20)\d{2})\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let (line, whole) = line_holding(text, at);
    Some((line, day.find(whole)?.as_str()))
}

/// The line (1-based) holding the byte `at` of `text`, and its text.
fn line_holding(text: &str, at: usize) -> (usize, &str) {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (text[..start].matches('\n').count() + 1, &text[start..end])
}

/// The line (1-based) of the heading whose section holds `at` in the page
/// `record` (its own or one above it) and whose introduction, before any
/// subsection, says the section's content is outdated ("Note that these
/// code snippets are outdated, since …"), and the words that say so.
pub(in crate::checks::cites) fn outdated_section(
    record: &str,
    text: &str,
    at: usize,
) -> Option<(usize, String)> {
    static OUTDATED: OnceLock<Regex> = OnceLock::new();
    let outdated = OUTDATED.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:is|are)[ \t\n]+(?:now[ \t\n]+)?(?:outdated|out[- ]of[- ]date|obsolete|no[ \t\n]+longer[ \t\n]+(?:current|accurate|valid|up[- ]to[- ]date))(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let headings = if crate::records::rst::is_rst(record) {
        crate::records::rst::parse(text).headings
    } else {
        crate::records::markdown::parse_with(text, false).0.headings
    };
    // The headings over `at`: the nearest, then each one above it of a
    // higher level.
    let mut level = usize::MAX;
    let mut over = Vec::new();
    for (i, heading) in headings.iter().enumerate().rev() {
        if heading.range.start <= at && heading.level < level {
            level = heading.level;
            over.push(i);
        }
    }
    over.into_iter().find_map(|i| {
        let heading = &headings[i];
        let end = headings
            .get(i + 1)
            .map_or(text.len(), |next| next.range.start);
        let intro = text.get(heading.range.end..end)?;
        let found = outdated.find(intro)?;
        Some((
            text[..heading.range.start].matches('\n').count() + 1,
            found.as_str().to_owned(),
        ))
    })
}

/// The line (1-based) holding `at` in `text` and the commit id it names, if
/// it names one: seven to forty hexadecimal digits standing as a word, a
/// letter and a digit among them (`02dba85c51dcff3e…`, not `deadbeef` nor
/// `1234567`).
pub(in crate::checks::cites) fn commit_named(text: &str, at: usize) -> Option<(usize, &str)> {
    static COMMIT: OnceLock<Regex> = OnceLock::new();
    let commit = COMMIT.get_or_init(|| {
        Regex::new(r"(?-u:\b)[0-9a-f]{7,40}(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let (line, whole) = line_holding(text, at);
    let found = commit.find_iter(whole).find(|m| {
        let id = m.as_str();
        id.bytes().any(|b| b.is_ascii_digit()) && id.bytes().any(|b| b.is_ascii_alphabetic())
    })?;
    Some((line, found.as_str()))
}

/// The day a line cite's place names, and the line that names it: its
/// paragraph or list item up to the cite's line ("(2026-08-08, the vgpr
/// brief) … AGENTS.md:71"), else the Markdown heading of its section (a
/// log's entry, `## timerid progress, 2026-08-11`, a timestamp's day too).
/// A line number written under a day is that day's.
pub(in crate::checks::cites) fn dated_place(text: &str, at: usize) -> Option<(usize, &str)> {
    static ISO_DAY: OnceLock<Regex> = OnceLock::new();
    let iso_day = ISO_DAY.get_or_init(|| {
        Regex::new(r"(?:^|[^0-9])((?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))(?:[^0-9]|$)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let at = at.min(text.len());
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let day_in = |from: usize, to: usize| {
        let found = iso_day.captures(&text[from..to])?.get(1)?;
        Some((line_of(from + found.start()), found.as_str()))
    };
    // The paragraph or list item: back to a blank line, or to the line that
    // opens the item.
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    loop {
        let line = text[start..]
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start();
        let opens_item = line.starts_with(['-', '*', '+'])
            || line
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if opens_item || line.starts_with('#') || start == 0 {
            break;
        }
        let above = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if text[above..start].trim().is_empty() {
            break;
        }
        start = above;
    }
    if let Some(found) = day_in(start, end) {
        return Some(found);
    }
    // The heading of its section.
    let mut offset = start;
    while offset > 0 {
        let above = text[..offset - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[above..offset];
        if line.starts_with('#') {
            return day_in(above, offset);
        }
        offset = above;
    }
    None
}

/// A page says what it is in its opening: the bytes read at most.
const OPENING_BYTES: usize = 4096;

/// The line (1-based) where a page's opening says the page itself records
/// the tree as it was when written ("This report reflects the codebase as of
/// 2026-07-19", "All `file:line` citations are to the tree at the time of
/// research", "**Historical reference.**"), and whether it says so of its
/// line citations alone.
fn declares_itself(opening: &str) -> Option<(usize, bool)> {
    static DECLARES: OnceLock<Regex> = OnceLock::new();
    let declares = DECLARES.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)reflects[ \t\n]+the[ \t\n]+(?:codebase|code|source|tree|repository)(?-u:\b)[^.]{0,80}?(?-u:\b)as[ \t\n]+of(?-u:\b)|(?-u:\b)(?:citations|references)(?-u:\b)[^.]{0,40}?(?-u:\b)(?:are|were)[ \t\n]+(?:to|against|of)[ \t\n]+the(?-u:\b)[^.]{0,40}?(?-u:\b)(?:tree|code|codebase)[ \t\n]+(?:at|as[ \t\n]+of)[ \t\n]+the[ \t\n]+time(?-u:\b)|(?m:^)[ \t>*_]*historical[ \t\n]+(?:reference|record|snapshot)[*_]*[ \t]*(?:[.:]|--|—|–)|(?-u:\b)(?:this|the)[ \t\n]+(?:page|document|report|review|audit|record)[ \t\n]+is[ \t\n]+an?[ \t\n]+[*_]{0,2}(?:historical|point[- \t\n]in[- \t\n]time)[ \t\n]+(?:references?|records?|snapshots?)|(?-u:\b)grounded[ \t\n]+in[ \t\n]+the[ \t\n]+(?:current[ \t\n]+)?(?:tree|codebase|code|source)[ \t\n]+as[ \t\n]+of(?-u:\b)|(?:(?:path|file):line|(?-u:\b)line[ \t\n]+(?:numbers|references|citations|cites))[`'*_]*[ \t\n]+(?:is|are)[ \t\n]+(?:only[ \t\n]+)?approximate(?-u:\b)|(?-u:\b)(?:is|are)[ \t\n]+(?:an?[ \t\n]+)?point[- \t\n]in[- \t\n]time[ \t\n]+(?:designs?|documents?|records?)(?-u:\b)|(?-u:\b)line[ \t\n]+numbers(?-u:\b)(?s:.){0,300}?(?-u:\b)(?:verified|checked)(?-u:\b)(?s:.){0,300}?(?-u:\b)\d{4}-\d{2}-\d{2}(?-u:\b)|(?-u:\b)(?:treat|read|use)[ \t\n]+(?:the[ \t\n]+)?line[ \t\n]+numbers[ \t\n]+(?:only[ \t\n]+)?as[ \t\n]+(?:hints|approximate)|(?-u:\b)line(?:[ \t\n]+numbers|s)[ \t\n]+(?:will|may|can)[ \t\n]+drift(?-u:\b)|(?-u:\b)remains?[ \t\n]+unchanged(?-u:\b)[^.]{0,60}?(?-u:\b)for[ \t\n]+histor(?:ic|ical)[ \t\n]+(?:purposes|reference)(?-u:\b)|(?-u:\b)(?:this|the)[ \t\n]+(?:project|repository)[ \t\n]+(?:is|has[ \t\n]+been)[ \t\n]+archived[ \t\n]+and[ \t\n]+(?:is[ \t\n]+)?no[ \t\n]+longer[ \t\n]+(?:developed|maintained)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let found = declares.find(opening)?;
    // ("All `file:line` citations are to the tree at the time": the
    // sentence's subject, before the words matched.)
    let sentence = opening
        .get(..found.start())
        .and_then(|before| before.rsplit(['.', '\n']).next())
        .unwrap_or_default();
    let of_lines = found.as_str().contains("line") || sentence.contains("line");
    let at = found.start();
    Some((opening.get(..at)?.matches('\n').count() + 1, of_lines))
}

/// The line (1-based) where `text` says its pages are point-in-time
/// snapshots, as of when written.
fn declares_snapshots(text: &str) -> Option<usize> {
    static DECLARES: OnceLock<Regex> = OnceLock::new();
    let declares = DECLARES.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)point[- \t\n]in[- \t\n]time[ \t\n](?:snapshot|record)s?(?-u:\b)[^.]{0,160}(?-u:\b)as[ \t\n]+of[ \t\n]+(?:when|the[ \t\n]+(?:time|day|date))(?-u:\b)|(?-u:\b)snapshots?[ \t\n]+of[^.]{0,160}(?-u:\b)as[ \t\n]+of[ \t\n]+when[ \t\n]+(?:it|they)[ \t\n]+(?:was|were)[ \t\n]+written|(?-u:\b)(?:are|as|become)[ \t\n]+[*_]{0,2}historical[ \t\n]+(?:references?|records?|documents?|documentation)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let at = declares.find(text)?.start();
    Some(text.get(..at)?.matches('\n').count() + 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_heading_that_marks_its_work_done_frames_its_section() {
        use super::done_section;
        let text = "# Plan\n\n### PR 1 — Scaffold ✅ Complete\n\n**Files:** `a.py`\n\n### PR 3 — Next\n\n`b.py`\n";
        assert_eq!(
            done_section(text, text.find("a.py").unwrap_or(0)),
            Some((3, "✅".to_owned()))
        );
        assert_eq!(done_section(text, text.find("b.py").unwrap_or(0)), None);
        let done = "## Phase 2 (done)\n\n`x.rs`";
        assert!(done_section(done, done.find("x.rs").unwrap_or(0)).is_some());
        // Speaking of doneness marks nothing.
        let definition = "## Definition of done for a release\n\n`x.rs`";
        assert_eq!(
            done_section(definition, definition.find("x.rs").unwrap_or(0)),
            None
        );
    }

    use super::*;

    #[test]
    fn a_record_that_says_the_folders_citations_are_never_rewritten_declares_it() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            ("docs/adr/0014-deploy.md", "# 14. Deploy\n"),
            (
                "docs/adr/0045-immutable.md",
                "# 45. The status line is mutable\n\nThe Context, the evidence, and the citations are the record of\nwhat was decided at that time, and they are never\nrewritten.\n",
            ),
            ("notes/a.md", "# A\n"),
            (
                "notes/b.md",
                "Citations are checked in CI and updated when files move.\n",
            ),
        ]);
        let mut folders = SnapshotFolders::default();
        let fires = |folders: &mut SnapshotFolders, record: &str| {
            folders.fires(
                &tree,
                record,
                Some("# x\n"),
                CiteForm::Path,
                "1a2b3c4d",
                None,
            )
        };
        assert!(
            fires(&mut folders, "docs/adr/0014-deploy.md")
                .is_some_and(|why| why.starts_with("docs/adr/0045-immutable.md:3 "))
        );
        assert_eq!(fires(&mut folders, "notes/a.md"), None);
    }

    #[test]
    fn a_guide_that_says_decision_records_are_immutable_declares_them_read_as_decided() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "AGENTS.md",
                "# Working here\n\nRun the tests.\n\nAn ADR that has shipped in a release is immutable. Supersede it instead.\n",
            ),
            ("doc/adr/0007-retries.md", "# 7. Retries\n"),
            ("doc/guide/setup.md", "# Setup\n"),
        ]);
        let mut folders = SnapshotFolders::default();
        let mut fires = |record: &str, text: &str, form: CiteForm| {
            folders.fires(&tree, record, Some(text), form, "1a2b3c4d", None)
        };
        let accepted = "# 7. Retries\n\nStatus: Accepted\n";
        assert!(
            fires("doc/adr/0007-retries.md", accepted, CiteForm::Line).is_some_and(|why| why
                .starts_with("AGENTS.md:5 says the project's decision records are immutable"))
        );
        assert!(fires("doc/adr/0007-retries.md", accepted, CiteForm::Path).is_some());
        // A link is still clicked; a proposal is still being written; a
        // page that is no decision record is read as any page.
        assert_eq!(
            fires("doc/adr/0007-retries.md", accepted, CiteForm::Link),
            None
        );
        assert_eq!(
            fires(
                "doc/adr/0007-retries.md",
                "# 7. Retries\n\nStatus: Proposed\n",
                CiteForm::Line
            ),
            None
        );
        assert_eq!(
            fires("doc/guide/setup.md", "# Setup\n", CiteForm::Line),
            None
        );
        // Without the rule, an accepted record is read as any page.
        let plain = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "AGENTS.md",
                "# Working here\n\nADRs are reviewed by two people.\n",
            ),
            ("doc/adr/0007-retries.md", "# 7. Retries\n"),
        ]);
        assert_eq!(
            SnapshotFolders::default().fires(
                &plain,
                "doc/adr/0007-retries.md",
                Some(accepted),
                CiteForm::Line,
                "1a2b3c4d",
                None
            ),
            None
        );
        // A decision of the folder's own can set the rule.
        let decided = crate::snapshot::memory::MemorySnapshot::new(&[
            ("doc/adr/0007-retries.md", "# 7. Retries\n"),
            (
                "doc/adr/0127-log.md",
                "# ADR-0127: ADRs are immutable decision events\n\n- Status: accepted\n",
            ),
        ]);
        assert!(
            SnapshotFolders::default()
                .fires(
                    &decided,
                    "doc/adr/0007-retries.md",
                    Some(accepted),
                    CiteForm::Line,
                    "1a2b3c4d",
                    None
                )
                .is_some_and(|why| why.starts_with("doc/adr/0127-log.md:1 says"))
        );
    }

    #[test]
    fn a_line_cite_under_a_day_its_item_or_heading_names_is_that_days() {
        let log = "# Orchestrator\n\n## Standing rules\n\nSee `AGENTS.md:12`.\n\n## timerid progress, 2026-08-11\n\n- **U2 merged.** The guide `AGENTS.md:75`\n  makes it mandatory.\n\n## Epic registered 2026-08-18T04:44:26Z: brk\n\nThe brief cites `AGENTS.md:134`.\n\n- A lesson (2026-08-08, the brief) refuted\n  with AGENTS.md:71, the rule.\n";
        let at = |needle: &str| log.find(needle).expect("in the log");
        assert_eq!(dated_place(log, at("AGENTS.md:12")), None);
        assert_eq!(
            dated_place(log, at("AGENTS.md:75")),
            Some((7, "2026-08-11"))
        );
        assert_eq!(
            dated_place(log, at("AGENTS.md:134")),
            Some((12, "2026-08-18"))
        );
        assert_eq!(
            dated_place(log, at("AGENTS.md:71")),
            Some((16, "2026-08-08"))
        );
        assert!(
            dated_place_lines("log.md", 7, "2026-08-11", "1a2b3c4d")
                .starts_with("log.md:7 names the day")
        );
    }

    #[test]
    fn fires_for_a_prompt_given_to_a_coding_agent_and_stays_quiet_elsewhere() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[("README.md", "# x\n")]);
        let mut folders = SnapshotFolders::default();
        let mut fires = |record: &str, text: &str, form: CiteForm| {
            folders.fires(&tree, record, Some(text), form, "1a2b3c4d", None)
        };
        let prompt = "# Codex CLI prompt: Implement ADR-0008\n\nCopy everything below.\n\n---\n\nYou are working in the repository.\n";
        assert!(
            fires(
                "docs/prompts/0008-implementation-prompt.md",
                prompt,
                CiteForm::Path
            )
            .is_some_and(|why| why.starts_with(
                "docs/prompts/0008-implementation-prompt.md:1 is a prompt given to a coding agent"
            ))
        );
        let handoff = "# Stage 2\n\nYou are implementing stage 2 of the design.\n";
        assert!(
            fires(
                "docs/prompts/DESIGN-007-stage-2-handoff.md",
                handoff,
                CiteForm::Line
            )
            .is_some()
        );
        // A link is clicked; a page no path names a prompt, and a prompt
        // folder's page that addresses no agent, are read as any page.
        assert_eq!(
            fires(
                "docs/prompts/0008-implementation-prompt.md",
                prompt,
                CiteForm::Link
            ),
            None
        );
        assert_eq!(fires("docs/guide.md", prompt, CiteForm::Path), None);
        assert_eq!(
            fires(
                "docs/prompts/README.md",
                "# Prompts\n\nOne per task.\n",
                CiteForm::Path
            ),
            None
        );
    }

    #[test]
    fn a_report_its_opening_dates_is_read_as_of_its_day() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[("README.md", "# x\n")]);
        let report = "# CI/CD Audit Report\n\n**Date**: 2025-11-20\n**Status**: production-ready\n";
        let mut folders = SnapshotFolders::default();
        let mut fires = |record: &str, text: &str| {
            folders.fires(&tree, record, Some(text), CiteForm::Link, "1a2b3c4d", None)
        };
        assert!(
            fires("docs/research/week1/CI_CD_AUDIT_REPORT.md", report)
                .is_some_and(|why| why.starts_with(
                    "docs/research/week1/CI_CD_AUDIT_REPORT.md:3 dates the research note (2025-11-20)"
                ))
        );
        // No report by its path, no date, or a decision record: as any page.
        assert_eq!(fires("docs/guide/ci.md", report), None);
        assert_eq!(
            fires("docs/research/week1/AUDIT.md", "# Audit\n\nSoon.\n"),
            None
        );
        assert_eq!(fires("docs/adr/0003-plan-storage.md", report), None);
        // A report named in CamelCase; a changelog is none.
        assert!(
            fires("docs/RectificationPlan.md", report)
                .is_some_and(|why| why.starts_with("docs/RectificationPlan.md:3 dates the plan"))
        );
        assert_eq!(fires("docs/ChangeLog.md", report), None);
        // A word in CamelCase that is itself a kind stays one.
        assert!(
            fires("Docs/PostMortems/Inbox/bug.md", report)
                .is_some_and(|why| why.contains("dates the postmortem"))
        );
        assert_eq!(fires("docs/Explanation.md", report), None);
        // A generated review's timestamp dates it too.
        let generated =
            "# Code Review Report\n\n**Target:** v0.2\n**Generated:** 2026-05-31T03:50:35Z\n";
        assert!(fires("docs/QA_REVIEW.md", generated).is_some_and(|why| {
            why.starts_with("docs/QA_REVIEW.md:4 dates the review (2026-05-31)")
        }));
    }

    #[test]
    fn a_report_named_for_a_release_a_later_one_followed_is_that_releases() {
        let tags: Vec<String> = ["v0.3.3", "v0.5.1"].map(String::from).into();
        assert_eq!(
            released_report("docs/security/v0.3.3-security-audit.md", &tags),
            Some(("0.3.3".to_owned(), "audit"))
        );
        assert_eq!(
            released_report("docs/testing/v0.2.x-test-report.md", &tags),
            Some(("0.2.x".to_owned(), "report"))
        );
        // The newest release's report, a page that is no report, a
        // decision record.
        assert_eq!(
            released_report("docs/security/v0.5.1-audit.md", &tags),
            None
        );
        assert_eq!(released_report("docs/guide/v0.3.3-upgrade.md", &tags), None);
        assert_eq!(released_report("docs/adr/0003-v0.2-plan.md", &tags), None);
    }

    #[test]
    fn a_report_its_path_dates_is_read_as_of_its_day() {
        assert_eq!(
            dated_report("docs/security/audits/2026-06-10-policy-pinning.md"),
            Some(("2026-06-10", "audit"))
        );
        assert_eq!(
            dated_report("docs/plans/2026-02-01-verbose-run.md"),
            Some(("2026-02-01", "plan"))
        );
        assert_eq!(
            dated_report("notes/2024-03-retro.md"),
            Some(("2024-03", "retrospective"))
        );
        // A folder named for its day holds that day's analyses.
        assert_eq!(
            dated_report("eventloop/docs/tournament/2026-02-03/ROBUSTNESS_ANALYSIS.md"),
            Some(("2026-02-03", "analysis"))
        );
        // A dated decision, and a report with no day: read as any page.
        assert_eq!(dated_report("docs/adr/2021-03-04-use-postgres.md"), None);
        assert_eq!(dated_report("docs/reports/coverage.md"), None);
    }

    #[test]
    fn a_design_filed_as_implemented_beside_open_proposals_is_read_as_written() {
        let paths: Vec<String> = [
            "design/Implemented/plugin-versioning.md",
            "design/README.md",
            "design/new-proposal.md",
            "notes/implemented/x.md",
            "notes/README.md",
        ]
        .iter()
        .map(|p| (*p).to_owned())
        .collect();
        assert_eq!(
            implemented_folder(&paths, "design/Implemented/plugin-versioning.md").as_deref(),
            Some("design/Implemented")
        );
        // No open proposal beside the folder.
        assert_eq!(implemented_folder(&paths, "notes/implemented/x.md"), None);
        assert_eq!(implemented_folder(&paths, "design/new-proposal.md"), None);
    }

    #[test]
    fn fires_on_a_change_proposal_and_stays_quiet_on_a_guide() {
        let spec = "Add globals.d\n=============\n\nProblem description\n===================\n\nOne file.\n\nProposed change\n===============\n\n- Edit ``tools/run``.\n\nWork Items\n----------\n\n- Edit ``tools/run``.\n";
        assert!(
            proposal_sections(spec).is_some_and(|s| s.contains("\"proposed change\"")),
            "{spec}"
        );
        // A guide with an alternatives section proposes nothing.
        let guide = "# Install\n\n## Alternatives\n\nUse pip.\n\n## Problem description\n\nNone.\n";
        assert_eq!(proposal_sections(guide), None);
    }

    #[test]
    fn fires_where_the_folder_says_its_pages_are_snapshots() {
        let readme = "# Proposals\n\nA proposal describes a problem.\n\nOnce merged, its narrative is a point-in-time snapshot of the system and the plan as of when it was written, and is read that way later.\n";
        assert_eq!(declares_snapshots(readme), Some(5));
        let other = "Each page is a snapshot of the design as of when it was written.";
        assert_eq!(declares_snapshots(other), Some(1));
        let historical = "# Decisions\n\nNote that these are *historical references* that do not supersede\nthe living documentation.";
        assert_eq!(declares_snapshots(historical), Some(3));
        let kept = "# Plans\n\nPlans are permanent records: they stay after the feature ships as historical documentation of how it was built.";
        assert_eq!(declares_snapshots(kept), Some(3));
        // Of something else than the folder's pages being history.
        let living = "# Guides\n\nKeep these pages current with the code.";
        assert_eq!(declares_snapshots(living), None);
        assert_eq!(
            declares_snapshots("See the historical notes in `old/`."),
            None
        );
    }

    #[test]
    fn fires_where_the_page_itself_says_it_records_the_tree_as_it_was() {
        for (text, line, of_lines) in [
            (
                "# Audit\n\n> **Historical reference.** This report reflects the codebase and remediation state as of 2026-07-19.\n",
                3,
                false,
            ),
            (
                "# Plan\n\n> Status: design. All `file:line` citations are to the shipped tree at the time of research.\n",
                3,
                true,
            ),
            (
                "# Review\n\nThis page is a point-in-time record of the review.\n",
                3,
                false,
            ),
            (
                "# Code Review\n\n> **Historical snapshot** -- point-in-time review.\n",
                3,
                false,
            ),
            (
                "# Plan\n\n> **Note on accuracy.** This plan is grounded in the current tree as of the\n> revision date.\n",
                3,
                false,
            ),
            (
                "# Scratch\n\nEach block was kept verbatim. `path:line` is approximate (post-edit).\n",
                3,
                true,
            ),
            (
                "# Proposal\n\n*Disclaimer*: Proposals are point-in-time designs and decisions.\n",
                3,
                false,
            ),
        ] {
            assert_eq!(declares_itself(text), Some((line, of_lines)), "{text}");
        }
        for text in [
            "# Guide\n\nThe history of the project is told in the changelog.\n",
            "# Guide\n\nThe timer is a point-in-time reading of the clock.\n",
            "# Plan\n\nCitations are to files under `src/`.\n",
            "# Notes\n\nThe cache reflects the tree of the last build.\n",
            "# Guide\n\nTimings are approximate; see `src/x.py:12`.\n",
        ] {
            assert_eq!(declares_itself(text), None, "{text}");
        }
    }

    #[test]
    fn a_title_naming_a_release_a_later_major_followed_dates_its_line_numbers() {
        let tags: Vec<String> = ["v2.0.0", "v2.0.1", "v3.1.0", "v4.8.0"]
            .map(str::to_owned)
            .to_vec();
        let page = "# SDK 2.0 Development\n\nSee [tests](build.yml#L12).\n";
        let mut folders = SnapshotFolders::with_tags(tags);
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[("kb/0007-sdk-2.md", page)]);
        let why = folders.fires(
            &tree,
            "kb/0007-sdk-2.md",
            Some(page),
            CiteForm::Line,
            "1a2b3c4d",
            None,
        );
        assert!(why.is_some_and(|why| why.contains("release 2.0")));
        let link = folders.fires(
            &tree,
            "kb/0007-sdk-2.md",
            Some(page),
            CiteForm::Path,
            "1a2b3c4d",
            None,
        );
        assert_eq!(link, None, "its paths are read as any page's");
    }

    #[test]
    fn fires_on_a_line_cite_of_a_record_its_opening_dates_as_an_audit() {
        let audit = "# Refactor plan\n\n**Audited:** 2026-05-21\n**Scope:** `src/`\n";
        assert_eq!(audit_date(audit), Some((3, "2026-05-21")));
        // Research notes the day its work was done, as an audit does.
        assert_eq!(
            audit_date(
                "# Architecture Research\n\n**Domain:** triage\n**Researched:** 2026-07-25\n"
            ),
            Some((4, "2026-07-25"))
        );
        assert_eq!(
            audit_date("# Review\n\nDate of audit: 2026-01\n"),
            Some((3, "2026-01"))
        );
        // The quiet side: a living page's dates, or an audit's in its prose.
        for text in [
            "# Guide\n\nLast updated: 2026-05-21\n",
            "# Guide\n\nWe audited the code on 2026-05-21.\n",
            "# Guide\n\n**Audited:** soon\n",
        ] {
            assert_eq!(audit_date(text), None, "{text}");
        }
        let mut folders = SnapshotFolders::default();
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[("ui/docs/plan.md", audit)]);
        let fires = |folders: &mut SnapshotFolders, line_cite: bool| {
            folders.fires(
                &tree,
                "ui/docs/plan.md",
                Some(audit),
                if line_cite {
                    CiteForm::Line
                } else {
                    CiteForm::Path
                },
                "1a2b3c4d",
                None,
            )
        };
        assert!(fires(&mut folders, true).is_some_and(|why| why.contains("2026-05-21")));
        // Its paths are read as any page's.
        assert!(fires(&mut folders, false).is_none());
    }

    #[test]
    fn a_dated_records_line_numbers_are_that_days_while_the_file_is_there() {
        let why = dated_lines("docs/plans/2026-08-16-readiness.md", None, || true).expect("dated");
        assert!(why.contains("(2026-08-16)"), "{why}");
        assert_eq!(
            dated_lines("docs/plans/2026-08-16-readiness.md", None, || false),
            None
        );
        // An undated record's file is not even looked for.
        assert_eq!(
            dated_lines("docs/plans/readiness.md", None, || unreachable!(
                "not dated"
            )),
            None
        );
        // A report its opening dates, not a decision record.
        let report = "# Gap analysis\n\n**Date:** 2025-11-10\n";
        let why = dated_lines("docs/RectificationPlan.md", Some(report), || true).expect("dated");
        assert!(
            why.starts_with("docs/RectificationPlan.md:3 dates the plan (2025-11-10)"),
            "{why}"
        );
        assert_eq!(
            dated_lines("docs/adr/0007-plan.md", Some(report), || true),
            None
        );
        // Any page its opening dates so, whatever its path calls it.
        let note = "# Runtime internals\n\nDate: 2026-03-11\n";
        let why = dated_lines("design-docs/runtime.md", Some(note), || true).expect("dated");
        assert!(
            why.starts_with("design-docs/runtime.md:3 dates the page (2026-03-11)"),
            "{why}"
        );
        assert_eq!(
            dated_lines("design-docs/runtime.md", Some("# Runtime\n"), || true),
            None
        );
        // And one of a file no commit here had.
        let why =
            dated_report_never_here("docs/RectificationPlan.md", Some(report)).expect("dated");
        assert!(why.ends_with("no commit here had the file"), "{why}");
        assert_eq!(dated_report_never_here("docs/guide.md", Some(report)), None);
    }

    #[test]
    fn a_path_named_for_a_day_or_a_month_dates_its_record() {
        for (record, day) in [
            ("docs/audit/2026-06/01-findings.md", "2026-06"),
            ("docs/security/security-audit-2026-07-06.md", "2026-07-06"),
            (
                "docs/security/2026-08-14-appsec-review/findings.md",
                "2026-08-14",
            ),
            ("agent/handoff_2026_05_30.md", "2026_05_30"),
            ("docs/proposal/20211210-launch-templates.md", "20211210"),
        ] {
            assert_eq!(dated_path(record), Some(day), "{record}");
        }
        for record in [
            "docs/guide.md",
            "docs/v2026.1/notes.md",
            "docs/2026/plan.md",
            "src/x-20261-y.md",
            "docs/issues/20261399-notes.md",
            "data/12345678-run.md",
        ] {
            assert_eq!(dated_path(record), None, "{record}");
        }
        let mut folders = SnapshotFolders::default();
        let tree =
            crate::snapshot::memory::MemorySnapshot::new(&[("docs/audit/2026-06/a.md", "x")]);
        let line = folders.fires(
            &tree,
            "docs/audit/2026-06/a.md",
            Some("# A\n"),
            CiteForm::Line,
            "1a2b3c4d",
            None,
        );
        assert!(line.is_some_and(|why| why.contains("(2026-06)")));
        // An audit's path too: the report tells that day's tree.
        assert!(
            folders
                .fires(
                    &tree,
                    "docs/audit/2026-06/a.md",
                    Some("# A\n"),
                    CiteForm::Path,
                    "1a2b3c4d",
                    None
                )
                .is_some_and(|why| why.contains("is an audit dated by its path (2026-06)"))
        );
        // A path or a link of a dated record that reports nothing (a
        // decision) is read as on any page.
        let tree =
            crate::snapshot::memory::MemorySnapshot::new(&[("docs/decisions/2026-06/a.md", "x")]);
        assert!(
            folders
                .fires(
                    &tree,
                    "docs/decisions/2026-06/a.md",
                    Some("# A\n"),
                    CiteForm::Path,
                    "1a2b3c4d",
                    None
                )
                .is_none()
        );
    }

    #[test]
    fn fires_on_a_line_that_dates_itself() {
        let text = "## Unit tests\n\n- `pkg/queue`: `Nov 2 2023` - `33.9%`\n- `pkg/cache`: `2022-11-17` - `83%`\n- `pkg/job`: `25 Nov 2022` - `0%`\n- `pkg/x`: needs tests.\n";
        for (path, day) in [
            ("pkg/queue", "Nov 2 2023"),
            ("pkg/cache", "2022-11-17"),
            ("pkg/job", "25 Nov 2022"),
        ] {
            let at = text.find(path).expect("in the text");
            assert_eq!(dated_line(text, at).map(|(_, d)| d), Some(day), "{path}");
        }
        // The next line's date is not this one's; a version is no day.
        assert_eq!(dated_line(text, text.find("pkg/x").expect("x")), None);
        assert_eq!(dated_line("See `src/a.go` for v1.22.3.\n", 5), None);
        // A statement dated by its own "as of".
        let text = "- As of early 2024, the UI was still under `src/client`.\n";
        let at = text.find("src/client").expect("in the text");
        assert_eq!(
            dated_line(text, at).map(|(_, d)| d),
            Some("As of early 2024")
        );
        assert_eq!(dated_line("Since 2024 it lives in `src/ui`.\n", 20), None);
    }

    #[test]
    fn a_task_list_with_every_task_checked_off_says_the_work_is_done() {
        let done = "# Tasks\n\n- [x] T001 Move the policy sources\n- [x] T002 Update the project file\n  - [X] nested step\n1. [x] Run the tests\n* [x] Review\n";
        assert_eq!(all_checked(done), Some(3));
        let open = "- [x] a\n- [x] b\n- [x] c\n- [x] d\n- [x] e\n- [ ] f\n";
        assert_eq!(all_checked(open), None, "a task still open");
        assert_eq!(
            all_checked("- [x] a\n- [x] b\n"),
            None,
            "too few to be a plan"
        );
        assert_eq!(all_checked("Status: done.\n"), None);
    }

    #[test]
    fn a_status_that_reports_work_landed_on_a_day_or_an_outcome_says_done() {
        for (opening, line) in [
            (
                "# Plan\n\n**Status:** I1 and I2 both LANDED (2026-07-17, branch `x`).\n",
                3,
            ),
            (
                "# Plan\n\n**Status:** Gaps A, B implemented and committed on branch\n`x` (2026-07-15). Gap E remains parked.\n",
                3,
            ),
            (
                "# Plan\n\nStatus as of 2026-07-08, after the locking push landed in both repos\n",
                3,
            ),
            (
                "# Compute parity\n\n> ## Outcome: **G2 withdrawn; G5 shipped.**\n",
                3,
            ),
        ] {
            assert_eq!(work_done(opening), Some(line), "{opening}");
        }
        for opening in [
            "# Plan\n\nStatus: planned, not started (2026-07-09).\n",
            "# Plan\n\n**Status:** to be implemented by 2026-09-01.\n",
            "# Plan\n\n**Status:** partially implemented (2026-07-01).\n",
            // Done words with no day: a plan's aim, not its report.
            "# Plan\n\n**Status:** P3 landed on branch `x`; P4 open.\n",
            // A sample's mapping, in a block or with its value below it.
            "# CRR\n\n```yaml\nstatus: the run landed 2026-07-01\n```\n",
            "# CRR\n\nstatus:\n  completionTime: 2021-03-22, finished\n",
        ] {
            assert_eq!(work_done(opening), None, "{opening}");
        }
    }

    #[test]
    fn an_archived_projects_page_kept_unchanged_is_read_as_written() {
        let opening = "# This project is archived and no longer developed or maintained.\n\nThe README as of the archival date remains unchanged below for historic purposes.\n";
        assert_eq!(declares_itself(opening).map(|(line, _)| line), Some(1));
        let living = "# Kit\n\nThe old API remains available for compatibility.\n";
        assert_eq!(declares_itself(living), None);
    }

    #[test]
    fn a_page_that_says_its_line_numbers_are_that_days_hints_frames_its_lines() {
        let opening = "# Plan\n\n- All line numbers below were verified against `src/kit/table.py`,\n  `src/kit/groups.py` on 2026-07-15. Lines WILL drift; locate code by symbol.\n";
        assert_eq!(declares_itself(opening), Some((3, true)));
        let hints = "# Notes\n\nTreat line numbers only as hints.\n";
        assert_eq!(declares_itself(hints), Some((3, true)));
        let plain = "# Notes\n\nThe parser reads line numbers from the source map.\n";
        assert_eq!(declares_itself(plain), None);
    }

    #[test]
    fn a_section_whose_introduction_says_it_is_outdated_is_read_as_written() {
        let page = "Interface\n=========\n\nIt reads `src/a.c`.\n\nExamples\n========\n\nHere is code from the old module. Note that these snippets are outdated.\n\nThe header ``include/old.h``\n-----------------------------\n\nIt declares the cache.\n";
        let at = page.find("include/old.h").expect("cite");
        assert_eq!(
            outdated_section("docs/c.rst", page, at),
            Some((6, "are outdated".to_owned()))
        );
        assert_eq!(
            outdated_section("docs/c.rst", page, page.find("src/a.c").expect("cite")),
            None
        );
        let md = "# Guide\n\n## Old API\n\nThis section is out of date.\n\nSee `lib/x.py`.\n\n## New API\n\nSee `lib/y.py`.\n";
        assert!(outdated_section("docs/g.md", md, md.find("lib/x.py").expect("x")).is_some());
        assert_eq!(
            outdated_section("docs/g.md", md, md.find("lib/y.py").expect("y")),
            None
        );
    }

    #[test]
    fn a_line_names_a_commit_by_its_id() {
        let text = "- `ref.json` - generated by `tests/test_e.py`, at commit 02dba85c51dcff3e in PR #802\n";
        assert_eq!(
            commit_named(text, text.find("tests/").expect("path")),
            Some((1, "02dba85c51dcff3e"))
        );
        for plain in [
            "See `src/a.py` for the 1234567 rows.\n",
            "See `src/a.py`, deadbeef.\n",
            "See `src/a.py`.\nThen 02dba85c.\n",
        ] {
            assert_eq!(commit_named(plain, 5), None, "{plain}");
        }
    }

    #[test]
    fn a_page_is_named_for_its_tasks_by_a_word_of_its_name() {
        assert!(named_for("plans/wasm32-todo.md", &["todo", "tasks"]));
        assert!(named_for("specs/ralph-tasks.md", &["tasks"]));
        assert!(!named_for("docs/todomvc.md", &["todo"]));
        assert!(!named_for("docs/tasks/guide.md", &["tasks"]));
    }

    #[test]
    fn a_work_record_whose_status_says_done_is_read_as_written() {
        assert_eq!(
            work_done("# Story 1A.2: Reorganize\n\nStatus: done\n"),
            Some(3)
        );
        assert_eq!(work_done("---\nstatus: complete\n---\n"), Some(2));
        assert_eq!(work_done("**Status**: Completed\n"), Some(1));
        assert_eq!(
            work_done(
                "# Plan\n\n> **Status: IMPLEMENTED** - All 6 phases completed on 2026-01-31\n"
            ),
            Some(3)
        );
        assert_eq!(
            work_done("# Report\n\n**Date:** 2025-12-01  \n**Status:** ✅ **COMPLETED**\n"),
            Some(4)
        );
        for open in [
            "Status: in progress\n",
            "Status: review\n",
            "## Status\n\nAccepted\n",
            "The status: done when CI passes, then merge.\n",
            "- Status: done only for the parser; the rest is open\n",
            "Status: done-ish\n",
        ] {
            assert_eq!(work_done(open), None, "{open}");
        }
    }

    #[test]
    fn a_folder_its_page_names_as_its_feature_branch_is_that_features_plan() {
        let snapshot = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "specs/008-adk-adapter/spec.md",
                "# Feature Specification: Adapter\n\n**Feature Branch**: `008-adk-adapter`\n**Status**: Draft\n",
            ),
            ("specs/008-adk-adapter/tasks.md", "- [ ] T001\n"),
            (
                "specs/009-other/spec.md",
                "**Feature Branch**: `010-renamed`\n",
            ),
            ("docs/guide.md", "# Guide\n"),
        ]);
        assert_eq!(
            feature_package(&snapshot, "specs/008-adk-adapter"),
            Some(("specs/008-adk-adapter/spec.md".to_owned(), 3))
        );
        // A branch named for another folder, or no branch named at all.
        assert_eq!(feature_package(&snapshot, "specs/009-other"), None);
        assert_eq!(feature_package(&snapshot, "docs"), None);
    }

    #[test]
    fn stays_quiet_for_indexes_that_say_no_such_thing() {
        for text in [
            "# Decisions\n\nAn ADR is edited in place when a later change extends it.\n",
            "Take a point-in-time backup before upgrading.",
            "Snapshot tests are kept in `tests/snapshots/`.",
        ] {
            assert_eq!(declares_snapshots(text), None, "{text}");
        }
    }
}
