//! Resolves the citations records make — tests, lines, paths — against the
//! snapshot (or the frame a record section names), so the citation checks read
//! data and never the repository.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::anchors::{self, Fragment, PageAnchors};
use super::cfg::{CitesPlan, ExpectPlan, normalise_line_cite};
use super::evidence::LineTarget;
use super::exemptions::{Exemption, ExemptionSettings, Probe, placeholder};
use super::find::{Cite, CiteKind, find_cites_in};
use super::labels::{LabelFate, ProjectLabels};
use super::pyobjects::{ObjectFate, PythonTree};
use super::releases;
use super::scope::{
    copied_from, is_changelog, newest_release_files, own_records, release_file, release_name,
    superseded_changelogs,
};
use super::testdefs::{self, DefKind, TestDef, TestLanguage};
use crate::checks::families::FamilyInputs;
use crate::error::{Error, Result};
use crate::frames::Frame;
use crate::frames::{FrameRequest, FrameSite, Frames};
use crate::records::frames::RecordFrames;
use crate::snapshot::pathspec::select;
use crate::snapshot::{has_file, has_folder};

pub use crate::records::MAX_RECORD_BYTES;

/// What a citation names, as data for the checks and `recount cites`.
#[derive(Debug, Clone, Serialize)]
pub struct ResolvedCite {
    pub record: String,
    #[serde(skip)]
    pub span: Range<usize>,
    /// `test`, `line` or `path`.
    pub kind: CiteClass,
    /// The citation as recount read it.
    pub text: String,
    /// Where it was resolved: `working tree` or a frame commit.
    pub frame: String,
    /// What set that frame when it is not the audited tree: the record's
    /// declaration ("section marker at line 11"), a release's tag, a link's ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_from: Option<String>,
    pub status: CiteStatus,
    /// Cited explicitly, or inferred from a backticked path.
    pub tier: Tier,
    /// For a line cite, the index of the `[[cites.expect]]` entry that applied.
    #[serde(skip)]
    pub expect: Option<usize>,
    /// A skipped cite that is stale after all — with this reason — when the
    /// history behind the snapshot says the path was once one of its own.
    #[serde(skip)]
    pub stale_if_history_knows: Option<String>,
    /// For a line cite that resolved: the file and lines it names, which the
    /// history evidence holds to what they held when the record cited them.
    #[serde(skip)]
    pub lines: Option<LineTarget>,
    /// Whether the history's evidence decided its status (what became of a
    /// path is then said already).
    #[serde(skip)]
    pub evidenced: bool,
    /// The page and anchor a link's `#fragment` named, when the page is there
    /// and the anchor is not.
    #[serde(skip)]
    pub anchor: Option<AnchorTarget>,
    /// The file, scope and name of a test cite whose file lacks the test.
    #[serde(skip)]
    pub test: Option<TestTarget>,
    /// A link's destination as written (its span is the link's text): what
    /// the commit that wrote the cite wrote.
    #[serde(skip)]
    pub destination: Option<String>,
    /// For a Python role's object not found: the dotted names it may mean.
    #[serde(skip)]
    pub objects: Option<Vec<String>>,
}

impl ResolvedCite {
    /// A cite whose status was settled before any resolution (history, a
    /// frame this clone lacks): nothing of it for the evidence to judge.
    fn unjudged(record: &str, cite: &Cite, frame: String, status: CiteStatus) -> Self {
        ResolvedCite {
            record: record.to_owned(),
            span: cite.span.clone(),
            kind: CiteClass::of(&cite.kind),
            text: cite.cite_text(),
            frame,
            frame_from: None,
            status,
            tier: Tier::of(&cite.kind),
            expect: None,
            stale_if_history_knows: None,
            lines: None,
            evidenced: false,
            anchor: None,
            test: None,
            destination: cite.destination.clone(),
            objects: None,
        }
    }
}

/// A test file a cite names and the test it asks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestTarget {
    pub file: String,
    /// The class (Python) or module path (Rust) the cite names.
    pub scope: Option<String>,
    pub name: String,
    pub language: TestLanguage,
}

/// A page a link names and the anchor it asks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnchorTarget {
    pub file: String,
    pub fragment: String,
}

/// How surely a record means a citation: explicitly (a link target, a test
/// node id, a line cite), or as recount reads a backticked path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    Explicit,
    Inferred,
}

impl Tier {
    fn of(kind: &CiteKind) -> Tier {
        match kind {
            CiteKind::Path { .. } => Tier::Inferred,
            _ => Tier::Explicit,
        }
    }
}

/// How a citation fared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum CiteStatus {
    /// It names something that exists: `resolved` says what.
    Ok { resolved: String },
    /// The record marks it as history ("renamed from"): not checked.
    Historical,
    /// It sits under a frame that does not resolve: not checked.
    Unverified { why: String },
    /// recount read it as a path but it is not one of this repository's (a
    /// reader's file, a build output, a name that only looks like a path): not
    /// a finding; `recount cites` lists it with the reason.
    Skipped { exemption: Exemption, why: String },
    /// It names something that does not exist (any more).
    Stale {
        why: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        suggestion: Option<String>,
    },
}

/// Finds and resolves every citation in the records the settings select.
pub(crate) fn gather(inputs: &mut FamilyInputs<'_, '_>) -> Result<Vec<ResolvedCite>> {
    let FamilyInputs {
        plan,
        frames,
        records: cache,
        files,
        notes,
    } = inputs;
    let settings = &plan.cites;
    if !settings.enabled {
        return Ok(Vec::new());
    }
    let audited = frames.audited();
    let mut tests_cache: BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>> = BTreeMap::new();
    let ignores = std::cell::RefCell::new(IgnoreFiles::default());
    let tags = frames.tags();
    let mut history = EarlierReleases::default();
    let pages = std::cell::RefCell::new(BTreeMap::new());
    let cited_files = std::cell::RefCell::new(BTreeMap::new());
    let labels = std::cell::RefCell::new(BTreeMap::new());
    let python = std::cell::RefCell::new(BTreeMap::new());
    let mut resolved = Vec::new();
    let mut paths: Vec<String> = select(audited.snapshot.paths(), &settings.records, &[])
        .into_iter()
        .map(str::to_owned)
        .collect();
    // A Sphinx project's `.txt` sources are its pages as its `.rst` ones are.
    if settings.default_records {
        paths.extend(cache.rst_sources().iter().cloned());
        paths.sort();
        paths.dedup();
    }
    let paths = own_records(paths, &audited, &settings.exemptions, notes);
    // Per folder of per-release notes (`release-notes/v1.2.0.md`), the newest
    // release's file; the others are history.
    let newest_notes = newest_release_files(&paths);
    let superseded = superseded_changelogs(&paths);
    // Which records other records include (snippets), read first: the parse
    // is kept for the loop below; a record that cannot be read is left to it,
    // which notes why.
    let mut unread = std::collections::BTreeSet::new();
    let mut read = Vec::new();
    for path in &paths {
        match cache.get_or_parse(path, || read_record(&audited, path, notes)) {
            Ok(Some(record)) => read.push((path.clone(), Arc::clone(&record.text))),
            // Skipped, and noted: the loop below passes it by.
            Ok(None) => {
                unread.insert(path.clone());
            }
            // The loop below reports it.
            Err(_) => {}
        }
    }
    let includers = includers_of(
        audited.snapshot.paths(),
        read.iter().map(|(p, t)| (p.clone(), Arc::clone(t))),
    );
    let own_links = Arc::new(own_links(plan, frames, &audited, &read, cache));
    let base_options = super::find::CiteOptions {
        own_links: Some(Arc::clone(&own_links)),
        ..settings.options.clone()
    };
    let mut hosted_count = 0usize;
    let no_exemptions = super::exemptions::ExemptionSettings::none();
    let mut copies: Vec<(String, String)> = Vec::new();
    for path in paths {
        if unread.contains(&path) {
            continue;
        }
        let Some(record) = cache.get_or_parse(&path, || read_record(&audited, &path, notes))?
        else {
            continue;
        };
        let text = Arc::clone(&record.text);
        if let Some(source) =
            copied_from(&text).filter(|_| settings.exemptions.is_on(Exemption::CopiedRecord))
        {
            copies.push((path.clone(), source));
            continue;
        }
        files.insert(path.clone(), Arc::clone(&text));
        // Every frame the record names is a frame use, cited under or not, so a
        // section measured at a commit that never landed is reported. A frame
        // that does not resolve is a frame-unresolved finding, and the cites
        // under it are unverified; a sha that is gone falls back to the date the
        // marker gives ("measured on 2026-09-13 against be977ea7").
        let mut marked: BTreeMap<String, (String, Result<Arc<Frame>, String>)> = BTreeMap::new();
        let markdown = record.markdown();
        let mut declared = RecordFrames::read(&text, markdown, &settings.options.frame_pattern);
        crate::frames::drop_numbers(frames, &mut declared);
        for d in declared.declared() {
            let Some(request) = FrameRequest::declared(d) else {
                continue;
            };
            let (shown, span) = d.shown();
            let site = FrameSite::Record {
                path: path.clone(),
                span,
            };
            let outcome = frames
                .at(request, site)
                .map_err(|failure| failure.explain(&shown));
            marked.entry(d.key()).or_insert_with(|| (shown, outcome));
        }
        // One release's notes beside a newer release's are history, whole.
        let earlier_file = (release_file(&path).is_some() && !newest_notes.contains(&path))
            || superseded.contains(&path);
        // A changelog's release sections are framed at their tags; a release
        // with no tag here is history.
        // A tag's tree is read only when a cite of its section needs it.
        let sections = if is_changelog(&path) {
            releases::releases(&text, record.markdown())
        } else {
            Vec::new()
        };
        // Per section: its frame and the tag it was read at, or `None` for an
        // earlier release.
        let mut release_frames: BTreeMap<usize, Option<ReleaseFrame>> = BTreeMap::new();
        let mut earlier: Vec<(String, usize)> = Vec::new();
        let rooted;
        let options = match sphinx_source_root(&path, record.rst, audited.snapshot.paths()) {
            Some(root) => {
                rooted = super::find::CiteOptions {
                    source_root: Some(root),
                    ..base_options.clone()
                };
                &rooted
            }
            None => &base_options,
        };
        for cite in find_cites_in(&text, record.markdown(), options) {
            if cite.in_fence {
                continue;
            }
            if cite.hosted {
                hosted_count += 1;
            }
            // The newest release is read at its tag (or, untagged, as the
            // release being drafted, against the tree); an earlier release's
            // notes are history nobody revises: not checked, counted in a note.
            let release = sections
                .iter()
                .position(|r| r.span.contains(&cite.span.start))
                .or(earlier_file.then_some(usize::MAX))
                .map(|i| {
                    let frame = release_frames.entry(i).or_insert_with(|| {
                        if (i > 0 || earlier_file)
                            && settings.exemptions.is_on(Exemption::EarlierRelease)
                        {
                            return None;
                        }
                        let at_tag =
                            releases::tag_of(&sections[i].version, &tags).and_then(|tag| {
                                let (_, frame) = frames.lookup(tag).ok()?;
                                Some((frame, Some(tag.to_owned())))
                            });
                        Some(at_tag.unwrap_or_else(|| (Arc::clone(&audited), None)))
                    });
                    let version = sections
                        .get(i)
                        .map_or_else(|| release_name(&path), |r| r.version.clone());
                    (frame.clone(), version)
                });
            // A link pinned to a tag or another branch names it too.
            let pin = cite.frame.as_deref().filter(|_| cite.hosted).map(|rev| {
                let short = rev.strip_prefix("refs/heads/").or_else(|| {
                    rev.strip_prefix("refs/remotes/")
                        .and_then(|r| r.split_once('/').map(|(_, b)| b))
                });
                short.unwrap_or(rev).to_owned()
            });
            let tag = release
                .as_ref()
                .and_then(|(f, _)| f.as_ref()?.1.clone())
                .or(pin);
            // A citation names what a reader opens today: it is read at the
            // audited tree, whatever frame its passage was measured at. The
            // line numbers a passage states are a measurement: they are read
            // at its frame, as a pinned link is at its ref.
            let governing = declared
                .at(cite.span.start)
                .filter(|_| !cite.hosted && matches!(cite.kind, CiteKind::Line { .. }));
            let frame_from =
                governing.map(|d| format!("{} at line {}", d.by.as_str(), record.line_col(d.at).0));
            let frame_key = match governing {
                Some(d) => Some(d.key()),
                None => cite.frame.clone().filter(|_| cite.hosted),
            };
            let frame = match frame_key.as_deref() {
                None => match release {
                    None => Arc::clone(&audited),
                    Some((Some((frame, _)), _)) => frame,
                    Some((None, version)) => {
                        match earlier.iter_mut().find(|(v, _)| *v == version) {
                            Some((_, count)) => *count += 1,
                            None => earlier.push((version.clone(), 1)),
                        }
                        resolved.push(ResolvedCite::unjudged(
                            &path,
                            &cite,
                            audited.label.clone(),
                            skipped(
                                Exemption::EarlierRelease,
                                format!(
                                    "the notes of release {version}, an earlier one, are history"
                                ),
                            ),
                        ));
                        continue;
                    }
                },
                // The marker itself was resolved (and recorded) above.
                Some(sha) => match marked.get(sha) {
                    Some((_, Ok(frame))) => Arc::clone(frame),
                    Some((rev, Err(why))) => {
                        let mut unread = ResolvedCite::unjudged(
                            &path,
                            &cite,
                            rev.clone(),
                            CiteStatus::Unverified { why: why.clone() },
                        );
                        unread.frame_from = frame_from;
                        resolved.push(unread);
                        continue;
                    }
                    // A link pinned to a commit or tag: that tree, when this
                    // clone has it.
                    None => match frames.lookup(sha) {
                        Ok((_, frame)) => frame,
                        Err(failure) => {
                            resolved.push(ResolvedCite::unjudged(
                                &path,
                                &cite,
                                sha.to_owned(),
                                CiteStatus::Unverified {
                                    why: format!(
                                        "the link shows `{sha}`, which this clone does not have ({})",
                                        failure.frame_failure().explain(sha)
                                    ),
                                },
                            ));
                            continue;
                        }
                    },
                },
            };
            let mut expect = None;
            let mut stale_if_history_knows = None;
            let mut cited_lines = None;
            let mut cited_anchor = None;
            let mut cited_test = None;
            let mut cited_objects = None;
            let mut status = if cite.historical {
                CiteStatus::Historical
            } else {
                let context = Context {
                    record: &path,
                    frame: &frame,
                    ignores: &ignores,
                    pages: &pages,
                    cited_files: &cited_files,
                    labels: &labels,
                    python: &python,
                    cited_objects: std::cell::RefCell::new(None),
                    text: &text,
                    at: cite.span.start,
                    cited_lines: std::cell::RefCell::new(None),
                    cited_anchor: std::cell::RefCell::new(None),
                    cited_test: std::cell::RefCell::new(None),
                    includers: includers.get(&path).map_or(&[], Vec::as_slice),
                    hosted: cite.hosted,
                    exemptions: if cite.hosted {
                        &no_exemptions
                    } else {
                        &settings.exemptions
                    },
                };
                let status = resolve(
                    &cite,
                    &context,
                    settings,
                    &mut tests_cache,
                    &mut expect,
                    &mut stale_if_history_knows,
                )?;
                cited_lines = context.cited_lines.take();
                cited_anchor = context.cited_anchor.take();
                cited_test = context.cited_test.take();
                cited_objects = context.cited_objects.take();
                status
            };
            // A release's entry is read at its tag, a pinned link at its ref:
            // the finding names it.
            if let (Some(tag), CiteStatus::Stale { why, .. }) = (&tag, &mut status)
                && !frame.label.starts_with(tag.as_str())
                && !tag.starts_with(frame.label.as_str())
            {
                *why = why.replace(
                    &format!("at {}", frame.label),
                    &format!("at {tag} ({})", frame.label),
                );
            }
            resolved.push(ResolvedCite {
                record: path.clone(),
                span: cite.span.clone(),
                kind: CiteClass::of(&cite.kind),
                text: cite.cite_text(),
                frame: frame.label.clone(),
                frame_from: frame_from.clone(),
                status,
                tier: Tier::of(&cite.kind),
                expect,
                stale_if_history_knows,
                lines: cited_lines,
                evidenced: false,
                anchor: cited_anchor,
                test: cited_test,
                destination: cite.destination.clone(),
                objects: cited_objects,
            });
        }
        if let Some((first, _)) = earlier.first() {
            history.cites += earlier.iter().map(|(_, n)| n).sum::<usize>();
            history.sections += earlier.len();
            history
                .first
                .get_or_insert_with(|| format!("{path}, release {first}"));
        }
    }
    if let Some(first) = &history.first {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        notes.push(format!(
            "{} citation{} in {} earlier release section{} of changelogs read as history, not checked (earlier-release; first: {first}); a changelog's newest release is checked at its tag",
            history.cites,
            plural(history.cites),
            history.sections,
            plural(history.sections),
        ));
    }
    if let Some(own) = own_links.address.as_ref().filter(|_| hosted_count > 0) {
        notes.push(format!(
            "{hosted_count} link{} to the repository's own pages ({}, from {}) read as paths of this tree; `[recount].url` names another address",
            if hosted_count == 1 { "" } else { "s" },
            own.url(),
            own.source,
        ));
    }
    if let Some((first, source)) = copies.first() {
        notes.push(format!(
            "citations of {} record{} copied from another repository not checked (copied-record: the front matter names its source; first: {first}, from {source})",
            copies.len(),
            if copies.len() == 1 { "" } else { "s" }
        ));
    }
    super::evidence::judge(&mut resolved, frames, &audited, files, settings);
    say_what_became_of(&mut resolved, frames, &audited);
    Ok(resolved)
}

/// The repository's own hosted address and its refs: `[recount].url`, else the
/// `origin` remote, else the project's metadata at the audited tree's root,
/// else the address most of the records' file links resolve under.
fn own_links(
    plan: &crate::rules::resolve::Plan,
    frames: &Frames<'_>,
    audited: &Frame,
    read: &[(String, Arc<str>)],
    cache: &crate::records::RecordCache,
) -> super::hosted::OwnLinks {
    use super::hosted;
    let repo = frames.repo();
    let remote = || {
        let url = repo.remote_url("origin")?;
        let (host, project) = hosted::parse_address(&url)?;
        Some(hosted::OwnAddress {
            host,
            project,
            source: "the origin remote".to_owned(),
        })
    };
    let majority = || {
        let all = cache.records();
        let records: Vec<&Arc<crate::records::Record>> =
            read.iter().filter_map(|(path, _)| all.get(path)).collect();
        let links = records
            .iter()
            .flat_map(|r| r.markdown().links.iter().map(|l| l.destination.as_str()));
        hosted::address_by_majority(links, audited.snapshot.paths())
    };
    let address = plan
        .url
        .clone()
        .or_else(remote)
        .or_else(|| hosted::address_from_metadata(audited.snapshot.as_ref()))
        .or_else(majority);
    hosted::OwnLinks {
        address,
        branches: repo.branch_refs().into_iter().collect(),
        defaults: repo.default_branches().into_iter().collect(),
        tags: frames.tags().into_iter().collect(),
    }
}

/// The tree a changelog's newest release is read against, and the tag that
/// named it (none for a release still being drafted).
type ReleaseFrame = (Arc<Frame>, Option<String>);

/// What the run left unchecked in changelogs' earlier release sections.
#[derive(Default)]
struct EarlierReleases {
    cites: usize,
    sections: usize,
    first: Option<String>,
}

/// A stale path or link that the history behind the snapshot renamed or
/// deleted says so ("renamed to `x/y.rs` in 1a2b3c4d"); a rename is the
/// did-you-mean, over any near name beside it.
fn say_what_became_of(resolved: &mut [ResolvedCite], frames: &Frames<'_>, audited: &Frame) {
    let gone = |c: &ResolvedCite| -> Option<String> {
        if c.kind != CiteClass::Path || c.frame != audited.label || c.evidenced {
            return None;
        }
        match c.status {
            CiteStatus::Stale { .. } => {}
            CiteStatus::Skipped { .. } if c.stale_if_history_knows.is_some() => {}
            _ => return None,
        }
        let text = c.text.trim_end_matches('/');
        let tried = match c.tier {
            Tier::Explicit => reader_paths(&c.record, text)?,
            Tier::Inferred => backticked_paths(&c.record, text)?,
        };
        match c.tier {
            Tier::Explicit => tried.first().cloned(),
            Tier::Inferred => tried.last().cloned(),
        }
    };
    let wanted: Vec<String> = resolved.iter().filter_map(gone).collect();
    if wanted.is_empty() {
        return;
    }
    let fates = frames.fates_of(&wanted);
    for cite in resolved.iter_mut() {
        let Some(fate) = gone(cite).and_then(|path| fates.get(&path)) else {
            continue;
        };
        // The repository's own history says this was one of its paths.
        if let Some(why) = cite.stale_if_history_knows.take() {
            cite.status = stale(why);
        }
        if let CiteStatus::Stale { why, suggestion } = &mut cite.status {
            why.push_str(&format!("; {fate}"));
            if let crate::snapshot::git::PathFate::Renamed { to, .. } = fate {
                *suggestion = Some(to.clone());
            }
        }
    }
}

/// The record at `path` of `frame`, or `None` when it is absent or skipped (noted).
pub fn read_record(frame: &Frame, path: &str, notes: &mut Vec<String>) -> Result<Option<Arc<str>>> {
    match crate::records::read_text(&*frame.snapshot, path, notes)
        .map_err(|e| Error::plain(format!("cannot read record {path}: {e}")))?
    {
        crate::records::RecordText::Text(text) => Ok(Some(text)),
        _ => Ok(None),
    }
}

/// What a citation names, as the checks and `recount cites` sort them: one
/// check per class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CiteClass {
    /// A test (or an item of a test file): `stale-test-cite`.
    Test,
    /// Lines of a file: `stale-line-cite`.
    Line,
    /// A path or a link, with its anchor: `stale-path-cite`.
    Path,
}

impl CiteClass {
    /// The class a citation found in prose belongs to: which check judges it.
    pub fn of(kind: &CiteKind) -> CiteClass {
        match kind {
            CiteKind::Test { .. }
            | CiteKind::RustTest { .. }
            | CiteKind::RustPath { .. }
            | CiteKind::ModuleTest { .. } => CiteClass::Test,
            CiteKind::Line { .. } => CiteClass::Line,
            // `a.rs#L10-L20` cites lines, as `a.rs:10-20` does.
            CiteKind::Link {
                target,
                fragment: Some(fragment),
                ..
            } if !target.is_empty()
                && !anchors::is_page(target)
                && matches!(Fragment::parse(fragment), Fragment::Lines { .. }) =>
            {
                CiteClass::Line
            }
            CiteKind::Path { .. }
            | CiteKind::Link { .. }
            | CiteKind::Label { .. }
            | CiteKind::PyObject { .. } => CiteClass::Path,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CiteClass::Test => "test",
            CiteClass::Line => "line",
            CiteClass::Path => "path",
        }
    }
}

/// For a reStructuredText record, the Sphinx source folder its leading `/`
/// names — the nearest folder at or above the record holding `conf.py` — as a
/// path from the record's folder (`./`, `../`, …); `None` for any other record,
/// or one no `conf.py` is above.
fn sphinx_source_root(record: &str, rst: bool, paths: &[String]) -> Option<String> {
    if !rst {
        return None;
    }
    let folder = record.rsplit_once('/').map_or("", |(f, _)| f);
    let mut up = 0;
    let mut at = folder;
    loop {
        let conf = if at.is_empty() {
            "conf.py".to_owned()
        } else {
            format!("{at}/conf.py")
        };
        if has_file(paths, &conf) {
            return Some(if up == 0 {
                "./".to_owned()
            } else {
                "../".repeat(up)
            });
        }
        if at.is_empty() {
            return None;
        }
        at = at.rsplit_once('/').map_or("", |(f, _)| f);
        up += 1;
    }
}

/// `1 line`, `21 lines`.
fn count_of_lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}

fn skipped(exemption: Exemption, why: impl Into<String>) -> CiteStatus {
    CiteStatus::Skipped {
        exemption,
        why: why.into(),
    }
}

fn stale(why: impl Into<String>) -> CiteStatus {
    CiteStatus::Stale {
        why: why.into(),
        suggestion: None,
    }
}

/// Whether a cited path tries to leave the repository.
/// A cited path with its leading `/` (the repository's root, as a record
/// writes `/CONTRIBUTING.md:84`) dropped, when it climbs nowhere.
fn rooted(path: &str) -> String {
    match path.strip_prefix('/') {
        Some(rest) if !rest.is_empty() && !rest.split('/').any(|s| s == "..") => rest.to_owned(),
        _ => path.to_owned(),
    }
}

fn escapes(path: &str) -> bool {
    path.starts_with('/') || path.split('/').any(|s| s == "..")
}

/// The snapshot files a cited path may mean: as written, under each test root,
/// or — for an elided `.../x.py`, or when neither of those exists — any file
/// whose path ends with it (records often cite `tests/unit/x.py` for
/// `packages/core/tests/unit/x.py`).
fn candidates(frame: &Frame, path: &str, elided: bool, roots: &[String]) -> Vec<String> {
    let paths = frame.snapshot.paths();
    let has = |p: &str| has_file(paths, p);
    if !elided {
        let direct: Vec<String> = std::iter::once(path.to_owned())
            .chain(roots.iter().map(|r| format!("{r}/{path}")))
            .filter(|p| has(p))
            .collect();
        if !direct.is_empty() {
            return direct;
        }
    }
    let tail = format!("/{path}");
    paths
        .iter()
        .filter(|p| p.as_str() == path || p.ends_with(&tail))
        .cloned()
        .collect()
}

/// Resolves one cite; for a line cite, also says (in `expect`) which
/// `[[cites.expect]]` entry applied to it.
/// Where a cite is read: its record, the frame it is resolved at, and what that
/// frame's `.gitignore` ignores.
pub(super) struct Context<'a> {
    pub(super) record: &'a str,
    pub(super) frame: &'a Frame,
    ignores: &'a std::cell::RefCell<IgnoreFiles>,
    /// The anchors of the pages links name, read once per frame and page.
    pages: &'a std::cell::RefCell<BTreeMap<(String, String), Arc<PageAnchors>>>,
    /// The texts of the files line cites name, read once per frame and file.
    cited_files: &'a std::cell::RefCell<BTreeMap<(String, String), Arc<str>>>,
    /// Each Sphinx project's labels, read once per frame and source folder.
    labels: &'a std::cell::RefCell<BTreeMap<(String, String), Arc<ProjectLabels>>>,
    /// The repository's Python packages, read once per frame.
    python: &'a std::cell::RefCell<BTreeMap<String, PythonTree>>,
    /// The dotted names a Python role's object that was not found may mean.
    cited_objects: std::cell::RefCell<Option<Vec<String>>>,
    /// The record's text and where the cite sits in it.
    pub(super) text: &'a str,
    pub(super) at: usize,
    /// The lines a line cite resolved to, set where it resolves.
    cited_lines: std::cell::RefCell<Option<LineTarget>>,
    /// The page and anchor of a link whose anchor the page lacks.
    cited_anchor: std::cell::RefCell<Option<AnchorTarget>>,
    /// The file and test of a test cite whose file lacks the test.
    cited_test: std::cell::RefCell<Option<TestTarget>>,
    /// The exemptions the rule file left on, and its added words (none for a
    /// link to the repository's own hosted page).
    pub(super) exemptions: &'a ExemptionSettings,
    /// The cite is a link to the repository's own hosted page: its address
    /// names one file or folder, not a page a site renders from a source.
    pub(super) hosted: bool,
    /// The records that include this one (it is a snippet rendered there).
    includers: &'a [String],
}

impl Context<'_> {
    /// Keeps a stale test cite's file, scope and name for the evidence, when
    /// its file is there (the test is what went).
    fn note_test(
        &self,
        status: &CiteStatus,
        settings: &CitesPlan,
        path: &str,
        elided: bool,
        scope: Option<String>,
        name: &str,
    ) {
        if !matches!(status, CiteStatus::Stale { .. }) {
            return;
        }
        let Some(language) = TestLanguage::of_path(path) else {
            return;
        };
        if let Some(file) = candidates(self.frame, path, elided, &settings.roots).first() {
            *self.cited_test.borrow_mut() = Some(TestTarget {
                file: file.clone(),
                scope,
                name: name.to_owned(),
                language,
            });
        }
    }

    /// Whether the cite's line carries `markdownlint-disable-line MD051` (or
    /// `link-fragments`), or the line before it `...-disable-next-line` with the
    /// same rule: its authors silenced this very check, on purpose.
    fn silences_markdownlint_fragments(&self) -> bool {
        let start = self
            .text
            .get(..self.at)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |i| i + 1);
        let end = self
            .text
            .get(self.at..)
            .and_then(|a| a.find('\n'))
            .map_or(self.text.len(), |i| self.at + i);
        let line = self.text.get(start..end).unwrap_or("");
        let previous = self
            .text
            .get(..start.saturating_sub(1))
            .map(|before| before.rsplit('\n').next().unwrap_or(before))
            .unwrap_or("");
        let names_rule = |l: &str| l.contains("MD051") || l.contains("link-fragments");
        (line.contains("markdownlint-disable-line") && names_rule(line))
            || (previous.contains("markdownlint-disable-next-line") && names_rule(previous))
    }

    /// A path a `.gitignore` ignores — the root's or one in a folder on its
    /// way, the deepest that speaks deciding, as git reads them — is a build's
    /// or a run's output, never committed: skipped, with that reason.
    pub(super) fn ignored(&self, path: &str, is_dir: bool) -> Option<String> {
        let mut files = self.ignores.borrow_mut();
        let folders: Vec<&str> = std::iter::once("")
            .chain(path.match_indices('/').map(|(i, _)| &path[..i]))
            .collect();
        for folder in folders.iter().rev() {
            let Some(matcher) = files.of(self.frame, folder) else {
                continue;
            };
            let within = if folder.is_empty() {
                path
            } else {
                &path[folder.len() + 1..]
            };
            match matcher.matched_path_or_any_parents(within, is_dir) {
                ignore::Match::Ignore(_) => {
                    let file = if folder.is_empty() {
                        ".gitignore".to_owned()
                    } else {
                        format!("{folder}/.gitignore")
                    };
                    return Some(format!(
                        "`{file}` ignores `{path}`: a build's or a run's output, never committed"
                    ));
                }
                ignore::Match::Whitelist(_) => return None,
                ignore::Match::None => {}
            }
        }
        None
    }
}

/// The `.gitignore` files of the frames a run reads, parsed once each.
#[derive(Default)]
struct IgnoreFiles {
    parsed: BTreeMap<(String, String), Option<Arc<Gitignore>>>,
}

impl IgnoreFiles {
    fn of(&mut self, frame: &Frame, folder: &str) -> Option<Arc<Gitignore>> {
        self.parsed
            .entry((frame.label.clone(), folder.to_owned()))
            .or_insert_with(|| gitignore_of(frame, folder).map(Arc::new))
            .clone()
    }
}

/// The `.gitignore` in one folder of a frame, if there is one.
fn gitignore_of(frame: &Frame, folder: &str) -> Option<Gitignore> {
    let file = if folder.is_empty() {
        ".gitignore".to_owned()
    } else {
        format!("{folder}/.gitignore")
    };
    if !has_file(frame.snapshot.paths(), &file) {
        return None;
    }
    let text = frame.snapshot.read_text(&file).ok()??;
    let mut builder = GitignoreBuilder::new("");
    for line in text.lines() {
        // A line the matcher cannot read ignores nothing.
        let _ = builder.add_line(None, line);
    }
    builder.build().ok()
}

fn resolve(
    cite: &Cite,
    context: &Context<'_>,
    settings: &CitesPlan,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
    expect: &mut Option<usize>,
    stale_if_history_knows: &mut Option<String>,
) -> Result<CiteStatus> {
    let frame = context.frame;
    let at = &frame.label;
    Ok(match &cite.kind {
        CiteKind::Test { path, .. } | CiteKind::RustTest { path, .. } if path.is_empty() => {
            stale("a `::name` shorthand with no test file named before it in the record")
        }
        CiteKind::Test {
            path,
            class,
            name,
            elided_prefix,
            ..
        } => {
            let status = resolve_test(
                frame,
                settings,
                cache,
                path,
                *elided_prefix,
                class.as_deref(),
                name,
            )?;
            context.note_test(&status, settings, path, *elided_prefix, class.clone(), name);
            if *elided_prefix {
                // Only its tail is known: where it could be is anyone's guess.
                status
            } else {
                example_test_file(context, settings, path, status, stale_if_history_knows)
            }
        }
        CiteKind::RustTest {
            path,
            modules,
            name,
            elided_prefix,
        } => {
            let scope = (!modules.is_empty()).then(|| modules.join("::"));
            let status = resolve_test(
                frame,
                settings,
                cache,
                path,
                *elided_prefix,
                scope.as_deref(),
                name,
            )?;
            context.note_test(&status, settings, path, *elided_prefix, scope, name);
            status
        }
        CiteKind::RustPath { segments } => resolve_rust_path(frame, settings, cache, segments)?,
        CiteKind::ModuleTest {
            module, segments, ..
        } => resolve_module_test(frame, settings, cache, module, segments)?,
        CiteKind::Line {
            path,
            start,
            end,
            elided_prefix,
        } => {
            // `/CONTRIBUTING.md:84`: a leading slash is the repository's root,
            // and names that one file (as a hosted link's address does).
            let from_root = path.starts_with('/');
            let path = &rooted(path);
            if escapes(path) {
                return Ok(stale(format!(
                    "`{path}` leaves the repository; recount reads nothing outside it"
                )));
            }
            let direct = has_file(frame.snapshot.paths(), path);
            if !direct
                && context.exemptions.is_on(Exemption::Placeholder)
                && let Some(why) = placeholder(path)
            {
                return Ok(skipped(Exemption::Placeholder, why));
            }
            let mut files = if from_root {
                [path.clone()]
                    .into_iter()
                    .filter(|p| has_file(frame.snapshot.paths(), p))
                    .collect()
            } else {
                candidates(frame, path, *elided_prefix, &settings.roots)
            };
            // `main.py:12` with several `main.py` in the tree: the one on the
            // record's way to the root, else no guess (as for a bare path).
            if !path.contains('/') && files.len() > 1 {
                let on_the_way: Vec<String> = files
                    .iter()
                    .filter(|f| on_the_way(context.record, f))
                    .cloned()
                    .collect();
                if on_the_way.is_empty() && context.exemptions.is_on(Exemption::AmbiguousName) {
                    return Ok(skipped(
                        Exemption::AmbiguousName,
                        format!(
                            "several files are named `{path}`, none in this record's folders: which one, if any, is meant?"
                        ),
                    ));
                }
                if !on_the_way.is_empty() {
                    files = on_the_way;
                }
                files.sort_by_key(|f| std::cmp::Reverse(f.len()));
            }
            let Some(file) = files.first() else {
                let beside = context
                    .record
                    .rsplit_once('/')
                    .map(|(folder, _)| format!("{folder}/{path}"));
                if let Some(why) = beside
                    .iter()
                    .map(String::as_str)
                    .chain([path.as_str()])
                    .filter(|_| context.exemptions.is_on(Exemption::Gitignored))
                    .find_map(|p| context.ignored(p, false))
                {
                    return Ok(skipped(Exemption::Gitignored, why));
                }
                // `.../websocket.go:137`, `garbagecollector.go:517`,
                // `vendor/k8s.io/x/helpers.go:20` where no file of the tree has
                // that name and the path names no folder of it: a line of another
                // repository (a log line, a dependency's source), not one of this
                // tree gone stale.
                let name = path.rsplit('/').next().unwrap_or(path);
                let first_folder = path.split_once('/').map(|(first, _)| first);
                let elsewhere = *elided_prefix
                    || first_folder.is_none_or(|f| !has_folder(frame.snapshot.paths(), f));
                if elsewhere
                    && context.exemptions.is_on(Exemption::ForeignLine)
                    && !frame
                        .snapshot
                        .paths()
                        .iter()
                        .any(|p| p.rsplit('/').next() == Some(name))
                {
                    return Ok(skipped(
                        Exemption::ForeignLine,
                        format!(
                            "no file of this tree is named `{name}` and the cite names no folder of it: a line of another repository?"
                        ),
                    ));
                }
                // The expectation the rule wrote for this cite still met it.
                let written = normalise_line_cite(&cite.cite_text());
                *expect = settings.expect.iter().position(|e| {
                    e.lines == Some((*start, *end)) && (e.cite == written || e.path == *path)
                });
                return Ok(stale(format!("no file `{path}` at {at}")));
            };
            let key = (frame.label.clone(), file.clone());
            let cached = context.cited_files.borrow().get(&key).cloned();
            let text = match cached {
                Some(text) => text,
                None => {
                    let text = frame
                        .snapshot
                        .read_text(file)
                        .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))?
                        .unwrap_or_else(|| "".into());
                    context
                        .cited_files
                        .borrow_mut()
                        .insert(key, Arc::clone(&text));
                    text
                }
            };
            let lines: Vec<&str> = crate::facts::lines_of(&text).collect();
            if *end > lines.len() || *start == 0 {
                return Ok(stale(format!(
                    "{file} has {} at {at}; the cite names line {end}",
                    count_of_lines(lines.len())
                )));
            }
            let written = normalise_line_cite(&cite.cite_text());
            // The expectation for these lines: written as the record writes
            // the cite, or naming (by any spelling the cite resolution accepts)
            // the file the cite resolved to.
            let applies = |e: &ExpectPlan| {
                e.lines == Some((*start, *end))
                    && (e.cite == written
                        || e.path == *path
                        || candidates(frame, &e.path, false, &settings.roots).contains(file))
            };
            let found = settings.expect.iter().position(applies);
            *expect = found;
            match found.map(|i| &settings.expect[i].contains) {
                None => {
                    *context.cited_lines.borrow_mut() = Some(LineTarget {
                        file: file.clone(),
                        start: *start,
                        end: *end,
                    });
                    CiteStatus::Ok {
                        resolved: format!("{file}:{start}-{end}"),
                    }
                }
                Some(literal) => {
                    let held = lines[start - 1..*end]
                        .iter()
                        .any(|l| l.contains(literal.as_str()));
                    if held {
                        CiteStatus::Ok {
                            resolved: format!("{file}:{start}-{end} holds {literal:?}"),
                        }
                    } else {
                        let moved: Vec<usize> = lines
                            .iter()
                            .enumerate()
                            .filter(|(_, l)| l.contains(literal.as_str()))
                            .map(|(i, _)| i + 1)
                            .collect();
                        match moved.first() {
                            Some(line) => CiteStatus::Stale {
                                why: format!(
                                    "{file}:{start} no longer holds {literal:?} at {at}; it moved to line {line}"
                                ),
                                suggestion: Some(format!("{path}:{line}")),
                            },
                            None => stale(format!("{file} no longer holds {literal:?} at {at}")),
                        }
                    }
                }
            }
        }
        CiteKind::Path { path, is_dir } => match cite.outside_link.as_deref() {
            // The text of a link to another repository's page names that
            // repository's file; a link into this repository's own tree (its
            // path after `blob/REF/` is one of the tree's) keeps the cite.
            Some(url)
                if context.exemptions.is_on(Exemption::LinkText)
                    && !links_into_this_tree(url, frame.snapshot.paths()) =>
            {
                skipped(
                    Exemption::LinkText,
                    format!(
                        "it is the text of a link to `{url}`: a path of that page's repository"
                    ),
                )
            }
            _ => resolve_path(context, path, *is_dir, settings, stale_if_history_knows),
        },
        CiteKind::Link {
            target,
            is_dir,
            fragment,
        } => resolve_link(
            context,
            target,
            *is_dir,
            fragment.as_deref(),
            stale_if_history_knows,
        )?,
        CiteKind::Label { label } => resolve_label(context, label),
        CiteKind::PyObject { role, names } => resolve_object(context, role, names),
    })
}

/// A Python role's object against the repository's packages at the frame:
/// found by the static reading, another project's, or set aside for the
/// history to decide (`evidence/labels.rs`).
fn resolve_object(context: &Context<'_>, role: &str, names: &[String]) -> CiteStatus {
    let frame = context.frame;
    let mut trees = context.python.borrow_mut();
    let tree = trees
        .entry(frame.label.clone())
        .or_insert_with(|| PythonTree::new(Arc::clone(&frame.snapshot)));
    let written = names.last().map(String::as_str).unwrap_or_default();
    let mut ours = false;
    for name in names {
        match tree.fate(name) {
            ObjectFate::Defined(at) => return CiteStatus::Ok { resolved: at },
            ObjectFate::Undefined => ours = true,
            ObjectFate::NotOurs | ObjectFate::Foreign(_) => {}
        }
    }
    // Written unqualified under a `.. module::` (`str`, `count`): the current
    // module's name first, as Sphinx searches, else another project's.
    let guessed = names.len() > 1 && !tree.owns(written);
    *context.cited_objects.borrow_mut() = Some(names.to_vec());
    if !ours && context.exemptions.is_on(Exemption::Intersphinx) {
        return skipped(
            Exemption::Intersphinx,
            format!(
                "`{written}` is under none of this repository's Python packages: another project's {role}"
            ),
        );
    }
    let why = format!(
        "no module of this repository's packages defines `{written}` at {}",
        frame.label
    );
    if context.exemptions.is_on(Exemption::UnresolvedObject) {
        let why = if guessed {
            format!(
                "neither `{}` nor `{written}` is defined by this repository's packages at {}, as a static reading finds them: another project's {role}, or made at import time?",
                names[0], frame.label
            )
        } else {
            format!("{why}, as a static reading finds it: made at import time?")
        };
        return skipped(Exemption::UnresolvedObject, why);
    }
    stale(why)
}

/// A test id whose file is missing and could not be this repository's — a
/// bare `module.py` no file of the tree is named, or a file under a folder the
/// tree does not have (`tests/foobar/` where the suite is `testing/`) — is the
/// form of a node id or an example's layout, set aside unless the history
/// says the file was there when the record cited it. A missing file in one of
/// the tree's folders stays stale: a record naming a test that was never
/// written is the drift this check is for.
fn example_test_file(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    status: CiteStatus,
    stale_if_history_knows: &mut Option<String>,
) -> CiteStatus {
    let CiteStatus::Stale { why, .. } = &status else {
        return status;
    };
    if !why.starts_with("no file") {
        return status;
    }
    let paths = context.frame.snapshot.paths();
    let name = path.rsplit('/').next().unwrap_or(path);
    let exemption = match path.split_once('/') {
        None if !paths.iter().any(|p| p.rsplit('/').next() == Some(name)) => Exemption::BareName,
        Some((first, _))
            if !has_folder(paths, first)
                && !settings
                    .roots
                    .iter()
                    .any(|root| has_folder(paths, &format!("{root}/{first}"))) =>
        {
            Exemption::UnknownRoot
        }
        _ => return status,
    };
    if !context.exemptions.is_on(exemption) {
        return status;
    }
    *stale_if_history_knows = Some(why.clone());
    skipped(
        exemption,
        format!(
            "no file of this tree is `{path}`, nor could be ({}): the form of a node id, or an example's layout",
            if exemption == Exemption::BareName {
                "no file of the tree has its name"
            } else {
                "its first folder is none of the tree's"
            }
        ),
    )
}

/// A `:ref:` label against its Sphinx project's pages at the frame. One no
/// page defines is set aside (a docstring's, an extension's) unless the
/// history says the pages defined it when the record cited it
/// (`evidence/labels.rs`).
fn resolve_label(context: &Context<'_>, label: &str) -> CiteStatus {
    let frame = context.frame;
    let Some(folder) = super::labels::sphinx_folder(context.record, frame.snapshot.paths()) else {
        return skipped(
            Exemption::LabelElsewhere,
            format!(
                "`{label}`: no `conf.py` at or above this page, so no Sphinx project to define it"
            ),
        );
    };
    let key = (frame.label.clone(), folder.clone());
    let cached = context.labels.borrow().get(&key).cloned();
    let labels = cached.unwrap_or_else(|| {
        let read = Arc::new(ProjectLabels::of(frame.snapshot.as_ref(), &folder));
        context.labels.borrow_mut().insert(key, Arc::clone(&read));
        read
    });
    match labels.fate(label) {
        LabelFate::Defined(page) => CiteStatus::Ok {
            resolved: format!("label `{label}` ({page})"),
        },
        LabelFate::OtherProject if context.exemptions.is_on(Exemption::Intersphinx) => skipped(
            Exemption::Intersphinx,
            format!(
                "`{label}`: its prefix is no document of this project: another project's label, through intersphinx"
            ),
        ),
        _ if context.exemptions.is_on(Exemption::LabelElsewhere) => skipped(
            Exemption::LabelElsewhere,
            format!(
                "no page of the Sphinx project defines the label `{label}` at {}: a docstring's or an extension's?",
                frame.label
            ),
        ),
        _ => stale(format!(
            "no page of the Sphinx project defines the label `{label}` at {}",
            frame.label
        )),
    }
}

/// Whether a hosted repository's file or folder address
/// (`https://github.com/o/r/blob/main/py-polars/Cargo.toml#L4`) names a path
/// this tree has: the link opens this repository, or a copy of it.
fn links_into_this_tree(url: &str, paths: &[String]) -> bool {
    let url = url.split(['#', '?']).next().unwrap_or(url);
    let Some((_, rest)) = url
        .split_once("/blob/")
        .or_else(|| url.split_once("/tree/"))
        .or_else(|| url.split_once("/-/blob/"))
    else {
        return false;
    };
    // After the ref: the path (a ref with a slash in it is not told apart).
    let Some((_, path)) = rest.split_once('/') else {
        return false;
    };
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        return false;
    }
    // The file itself, or (the link names the default branch, which moves on)
    // a folder two levels deep that this tree has too: `py-polars/runtime/`.
    let folders: Vec<&str> = path.split('/').collect();
    has_file(paths, path)
        || has_folder(paths, path)
        || (2..folders.len()).any(|depth| has_folder(paths, &folders[..depth].join("/")))
}

/// Where a reader finds a path a record names: relative to the record's own
/// folder (as GitHub renders a link), then from the repository root; `./` and
/// `../` are read against the record's folder. `None` when the path climbs out
/// of the repository.
pub(super) fn reader_paths(record: &str, path: &str) -> Option<Vec<String>> {
    // `/x` (a link into the repository's own hosted tree, read from its root).
    if let Some(rest) = path.strip_prefix('/') {
        return (!rest.starts_with('/') && !escapes(rest)).then(|| vec![rest.to_owned()]);
    }
    let folder = record.rsplit_once('/').map_or("", |(dir, _)| dir);
    let relative = path.starts_with("./") || path.starts_with("../");
    let joined = |base: &str| -> Option<String> {
        let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
        for segment in path.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        Some(parts.join("/"))
    };
    if relative || path.split('/').any(|s| s == "..") {
        return joined(if relative { folder } else { "" }).map(|p| vec![p]);
    }
    let mut found = Vec::new();
    if !folder.is_empty() {
        found.push(format!("{folder}/{path}"));
    }
    found.push(path.trim_start_matches("./").to_owned());
    Some(found)
}

/// Where a reader finds a path a record names in backticks: as for a link
/// ([`reader_paths`]), and a `./x` that is not under the record's folder from
/// the repository root too, as a command line run at the root writes it
/// (`./crates/x/lib/mod.nu` in `crates/x/README.md`).
pub(super) fn backticked_paths(record: &str, path: &str) -> Option<Vec<String>> {
    let mut tried = reader_paths(record, path)?;
    if let Some(rest) = path.strip_prefix("./")
        && !rest.split('/').any(|s| s == "..")
        && record.contains('/')
    {
        let rest = rest.trim_start_matches("./").to_owned();
        if !tried.contains(&rest) {
            tried.push(rest);
        }
    }
    Some(tried)
}

/// Resolves a path a record names in backticks. One that names no path here is
/// stale only when it is plausibly one of this repository's: its first folder
/// is a folder of the tree and it has a file extension. Anything else — a
/// reader's `main.py`, a build's `target/debug`, `owner/repo`, `read/write` —
/// is skipped, with the reason, rather than reported.
fn resolve_path(
    context: &Context<'_>,
    path: &str,
    is_dir: bool,
    settings: &CitesPlan,
    stale_if_history_knows: &mut Option<String>,
) -> CiteStatus {
    let (record, frame) = (context.record, context.frame);
    let at = &frame.label;
    // `../shared` in backticks is a path beside a checkout (a sibling
    // workspace, a reader's folder), not a claim about this tree.
    let Some(tried) = backticked_paths(record, path) else {
        return skipped(
            Exemption::OutsideCheckout,
            format!("`{path}` leaves the repository: a path outside any checkout of it"),
        );
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let exists =
        |p: &str| (!is_dir && is_file(p)) || is_folder(p) || frame.snapshot.holds_unread(p);
    let written = tried.last().cloned().unwrap_or_default();
    // As a reader finds it, under a test root, or (like a file cite) anywhere
    // whose path ends with it: `tool-context.schema.json`, `mcp/x.json`.
    let tail = format!("/{written}");
    let dir_tail = format!("/{written}/");
    let direct = tried
        .iter()
        .cloned()
        .chain(settings.roots.iter().map(|r| format!("{r}/{written}")))
        .find(|p| exists(p));
    if let Some(p) = direct {
        return CiteStatus::Ok { resolved: p };
    }
    // Anywhere whose path ends with it; the match nearest the record (the
    // longest folder prefix shared with it) is the one a reader means, and when
    // there are several, `recount cites` says which was taken.
    let mut matches: Vec<String> = paths
        .iter()
        .filter(|x| {
            if is_dir {
                x.contains(&dir_tail)
            } else {
                x.ends_with(&tail)
            }
        })
        .map(|x| {
            if is_dir {
                let end = x
                    .find(&dir_tail)
                    .map_or(x.len(), |i| i + dir_tail.len() - 1);
                x[..end].to_owned()
            } else {
                x.clone()
            }
        })
        .collect();
    matches.dedup();
    let shared = |candidate: &str| {
        candidate
            .split('/')
            .zip(record.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    // A bare name (`main.py`) found only away from the record's own folders,
    // in several places, is a guess: most likely a reader's file that happens
    // to share a name with some of this tree's. Say so rather than pick one.
    if !path.trim_start_matches("./").contains('/')
        && matches.len() > 1
        && !matches.iter().any(|m| on_the_way(record, m))
        && context.exemptions.is_on(Exemption::AmbiguousName)
    {
        return skipped(
            Exemption::AmbiguousName,
            format!(
                "{} files are named `{path}`, none in this record's folders: which one, if any, is meant? (a reader's file?)",
                matches.len()
            ),
        );
    }
    if let Some(nearest) = matches
        .iter()
        .max_by(|a, b| shared(a).cmp(&shared(b)).then_with(|| b.cmp(a)))
    {
        return CiteStatus::Ok {
            resolved: if matches.len() > 1 {
                format!(
                    "{nearest} (the nearest of {} paths ending so)",
                    matches.len()
                )
            } else {
                nearest.clone()
            },
        };
    }
    let probe = Probe {
        context,
        cited: path,
        path: &written,
        is_dir,
        link: false,
    };
    let missing = format!(
        "no {} `{path}` at {at}",
        if is_dir { "folder" } else { "file" }
    );
    let Some((exemption, why)) = context.exemptions.first(&probe, false) else {
        return CiteStatus::Stale {
            why: missing,
            suggestion: (!is_dir)
                .then(|| nearest_sibling(&written, paths))
                .flatten(),
        };
    };
    // History settles it for a path with a folder that names a folder
    // (`internal/state/`) or a file (`pkg/grammar/checker.go`); a bare name
    // or an extensionless `x/paramfilter` is as often a module's name as a
    // path, and a namesake deleted years ago is not the file the sentence
    // means.
    let has_extension = written.rsplit('/').next().is_some_and(|n| n.contains('.'));
    if exemption.stale_if_history_knows() && written.contains('/') && (is_dir || has_extension) {
        *stale_if_history_knows = Some(missing);
    }
    CiteStatus::Skipped { exemption, why }
}

/// Whether a candidate for a bare name sits on the record's way to the root:
/// in the record's folder or one of its ancestors.
fn on_the_way(record: &str, candidate: &str) -> bool {
    let record_folder = record.rsplit_once('/').map_or("", |(dir, _)| dir);
    let folder = candidate.rsplit_once('/').map_or("", |(dir, _)| dir);
    folder.is_empty() || record_folder == folder || record_folder.starts_with(&format!("{folder}/"))
}

/// The file beside a missing one whose name is nearly its name (a typo, a
/// small rename): `.github/renovate.json5` for `.github/renovatebot.json5`.
pub(super) fn nearest_sibling(path: &str, paths: &[String]) -> Option<String> {
    let (folder, name) = path.rsplit_once('/')?;
    let prefix = format!("{folder}/");
    let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
    paths[start..]
        .iter()
        .take_while(|p| p.starts_with(&prefix))
        .filter_map(|p| {
            let sibling = p.get(prefix.len()..)?;
            if sibling.contains('/') {
                return None;
            }
            // Names that differ only in their digits are files of a numbered
            // series (`changelog/2574.bugfix.rst`, `2761.bugfix.rst`), each its
            // own: a number is no typo of another.
            let letters = |n: &str| {
                n.chars()
                    .filter(|c| !c.is_ascii_digit())
                    .collect::<String>()
            };
            if sibling != name && letters(sibling) == letters(name) {
                return None;
            }
            let distance = testdefs::edit_distance(name, sibling)?;
            // Close enough to be the same name mistyped or shortened.
            (distance <= (name.chars().count() / 4).max(2)).then_some((distance, p))
        })
        .min()
        .map(|(_, p)| p.clone())
}

/// Resolves a relative link target: from the record's folder (then the root),
/// a folder link to any folder, a page link (`x.html`) to the Markdown page a
/// documentation site renders it from (`x.md`). A link is an explicit
/// citation, so one that names nothing is stale unless `.gitignore` says the
/// target is made by a build.
fn resolve_link(
    context: &Context<'_>,
    target: &str,
    is_dir: bool,
    fragment: Option<&str>,
    stale_if_history_knows: &mut Option<String>,
) -> Result<CiteStatus> {
    let status = resolve_link_target(context, target, is_dir, stale_if_history_knows);
    let (CiteStatus::Ok { resolved }, Some(fragment)) = (&status, fragment) else {
        return Ok(status);
    };
    Ok(check_fragment(context, resolved, fragment)?.unwrap_or(status))
}

/// A link's `#fragment` on the file it resolved to: a heading (or id) of a
/// Markdown page, or lines of any other file. `None` when it holds.
fn check_fragment(context: &Context<'_>, file: &str, fragment: &str) -> Result<Option<CiteStatus>> {
    let frame = context.frame;
    let at = &frame.label;
    if !has_file(frame.snapshot.paths(), file) {
        // A folder, a submodule, a symlink: nothing here to hold an anchor.
        return Ok(None);
    }
    let read = |file: &str| -> Result<Option<Arc<str>>> {
        frame
            .snapshot
            .read_text(file)
            .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))
    };
    // `#:~:text=…`: a browser's text fragment, a search on the page, not an
    // anchor it must offer.
    if fragment.starts_with(":~:") {
        return Ok(None);
    }
    match Fragment::parse(fragment) {
        Fragment::PyObject(object) => {
            let Some(text) = read(file)? else {
                return Ok(None);
            };
            let Some(defs) = super::testdefs::tests_in(file, &text) else {
                return Ok(None);
            };
            let (scope, name) = match object.rsplit_once('.') {
                Some((scope, name)) => (Some(scope.replace('.', "::")), name),
                None => (None, object.as_str()),
            };
            let language = super::testdefs::TestLanguage::Python;
            if super::testdefs::defines(&defs, language, scope.as_deref(), name) {
                return Ok(None);
            }
            Ok(Some(stale(format!(
                "{file} defines no `{object}` at {at}: the literalinclude's `:pyobject:` has nothing to show"
            ))))
        }
        Fragment::Markers {
            start_after,
            end_before,
        } => {
            let Some(text) = read(file)? else {
                return Ok(None);
            };
            let from = match start_after.as_deref() {
                None => Some(0),
                Some(marker) => text.find(marker).map(|at| at + marker.len()),
            };
            let Some(from) = from else {
                return Ok(Some(stale(format!(
                    "{file} holds no `{}` at {at}: the literalinclude's `:start-after:` marker is gone",
                    start_after.unwrap_or_default()
                ))));
            };
            if let Some(marker) = end_before.as_deref()
                && !text[from..].contains(marker)
            {
                return Ok(Some(stale(format!(
                    "{file} holds no `{marker}` after the start at {at}: the literalinclude's `:end-before:` marker is gone"
                ))));
            }
            Ok(None)
        }
        Fragment::Lines { start, end } if !anchors::is_page(file) => {
            let Some(text) = read(file)? else {
                return Ok(None);
            };
            let lines = crate::facts::lines_of(&text).count();
            if end > lines || start == 0 {
                return Ok(Some(stale(format!(
                    "{file} has {} at {at}; the link's `#{fragment}` names line {end}",
                    count_of_lines(lines)
                ))));
            }
            *context.cited_lines.borrow_mut() = Some(LineTarget {
                file: file.to_owned(),
                start,
                end,
            });
            Ok(None)
        }
        Fragment::Anchor(_) | Fragment::Lines { .. } if anchors::is_page(file) => {
            let page = {
                let mut pages = context.pages.borrow_mut();
                let key = (frame.label.clone(), file.to_owned());
                match pages.get(&key) {
                    Some(page) => Arc::clone(page),
                    None => {
                        let text = if file == context.record {
                            Some(Arc::from(context.text))
                        } else {
                            read(file)?
                        };
                        let page =
                            Arc::new(PageAnchors::of_page(file, text.as_deref().unwrap_or("")));
                        pages.insert(key, Arc::clone(&page));
                        page
                    }
                }
            };
            if page.offers(fragment) {
                return Ok(None);
            }
            if page.includes_text {
                // The files its includes name are read and searched too; only
                // text that cannot be read (a template, a missing include) leaves
                // the anchor undecided.
                let mut unread = page.opaque;
                for included in &page.included {
                    match included_text(frame, file, included) {
                        Some(text) if PageAnchors::of_page(included, &text).offers(fragment) => {
                            return Ok(None);
                        }
                        Some(_) => {}
                        None => unread = true,
                    }
                }
                if unread && context.exemptions.is_on(Exemption::UnreadInclude) {
                    // The evidence may still say the page itself had it.
                    *context.cited_anchor.borrow_mut() = Some(AnchorTarget {
                        file: file.to_owned(),
                        fragment: fragment.to_owned(),
                    });
                    return Ok(Some(skipped(
                        Exemption::UnreadInclude,
                        format!(
                            "{file} pulls in text from elsewhere that cannot be read here; `#{fragment}` may be a heading of that"
                        ),
                    )));
                }
            }
            if context.exemptions.is_on(Exemption::LintSilenced)
                && context.silences_markdownlint_fragments()
            {
                return Ok(Some(skipped(
                    Exemption::LintSilenced,
                    format!(
                        "the record silences markdownlint's link-fragments rule (MD051) here: `#{fragment}` is an anchor its authors know the page does not show"
                    ),
                )));
            }
            *context.cited_anchor.borrow_mut() = Some(AnchorTarget {
                file: file.to_owned(),
                fragment: fragment.to_owned(),
            });
            Ok(Some(CiteStatus::Stale {
                why: format!("{file} has no heading or anchor `#{fragment}` at {at}"),
                suggestion: page.nearest(fragment).map(|near| {
                    let target = if file == context.record { "" } else { file };
                    format!("{target}#{near}")
                }),
            }))
        }
        // An anchor into a source file, an image, a page of another kind:
        // nothing a record can be held to.
        _ => Ok(None),
    }
}

fn resolve_link_target(
    context: &Context<'_>,
    target: &str,
    is_dir: bool,
    stale_if_history_knows: &mut Option<String>,
) -> CiteStatus {
    let frame = context.frame;
    if target.is_empty() {
        // An in-page `#anchor`: the record itself.
        return CiteStatus::Ok {
            resolved: context.record.to_owned(),
        };
    }
    let Some(tried) = reader_paths(context.record, target) else {
        return skipped(
            Exemption::OutsideCheckout,
            format!("`{target}` leaves the repository: a page of another root"),
        );
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let page_source = |p: &str| page_sources(p).into_iter().find(|md| is_file(md));
    for p in &tried {
        // `overview.md/`: a page written as a folder, as directory URLs render
        // it, is that page.
        let page_as_folder = is_dir && anchors::is_markdown(p) && is_file(p);
        if (!is_dir && is_file(p))
            || page_as_folder
            || is_folder(p)
            || frame.snapshot.holds_unread(p)
        {
            return CiteStatus::Ok {
                resolved: p.clone(),
            };
        }
        if let Some(md) = page_source(p).filter(|_| !context.hosted) {
            return CiteStatus::Ok { resolved: md };
        }
    }
    // A site with directory URLs serves `a/page.md` at `a/page/`, so the page's
    // `../x.png` is `a/x.png`: read from the page as a folder too.
    if target.starts_with("../")
        && let Some(page) = context
            .record
            .strip_suffix(".md")
            .or_else(|| context.record.strip_suffix(".mdx"))
    {
        let as_folder = format!("{page}/index.md");
        for p in reader_paths(&as_folder, target).unwrap_or_default() {
            if (!is_dir && is_file(&p)) || is_folder(&p) || page_source(&p).is_some() {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!(
                        "{found} (from the page's own address, `{page}/`, as a site with directory URLs serves it)"
                    ),
                };
            }
        }
    }
    // A snippet is rendered inside the pages that include it: its relative
    // links are followed from there.
    for page in context.includers {
        for p in reader_paths(page, target).unwrap_or_default() {
            if (!is_dir && is_file(&p)) || is_folder(&p) || page_source(&p).is_some() {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!("{found} (from {page}, which includes this page)"),
                };
            }
        }
    }
    let written = tried.first().cloned().unwrap_or_default();
    let missing = format!(
        "the link names no {} `{written}` at {}",
        if is_dir { "folder" } else { "file" },
        frame.label
    );
    let probe = Probe {
        context,
        cited: target,
        path: &written,
        is_dir,
        link: true,
    };
    match context.exemptions.first(&probe, true) {
        Some((exemption, why)) => {
            if exemption.stale_if_history_knows() {
                *stale_if_history_knows = Some(missing);
            }
            CiteStatus::Skipped { exemption, why }
        }
        None => stale(missing),
    }
}

/// The sources a documentation site renders a link's page from, in the order
/// they are tried: `x.html` from `x.md`, `x.rst` (Sphinx) or `x.txt` (a
/// `source_suffix` that says so); an extensionless `x` or `x/` (a pretty URL)
/// from `x.md`, `x.mdx`, `x.rst`, `x/index.md`, `x/README.md`, `x/index.rst`;
/// `x.md` from the MDX page it extends, and a book's `index.md` from the
/// `README.md` its renderer makes it of (mdBook). None for another file.
pub(super) fn page_sources(p: &str) -> Vec<String> {
    let extensionless = !p.rsplit('/').next().unwrap_or(p).contains('.');
    match p.strip_suffix(".html").or_else(|| p.strip_suffix(".htm")) {
        Some(stem) => ["md", "rst", "txt"]
            .iter()
            .map(|ext| format!("{stem}.{ext}"))
            .collect(),
        None if p.ends_with(".md") => {
            let mut sources = vec![format!("{p}x")];
            if let Some(folder) = p.strip_suffix("index.md") {
                sources.push(format!("{folder}README.md"));
            }
            sources
        }
        None if extensionless => ["md", "mdx", "rst"]
            .iter()
            .map(|ext| format!("{p}.{ext}"))
            .chain(
                ["index.md", "README.md", "index.rst"]
                    .iter()
                    .map(|page| format!("{p}/{page}")),
            )
            .collect(),
        None => Vec::new(),
    }
}

/// The text an include of `page` names, read from beside the page, from the
/// repository root or from `docs/` (mkdocs' snippets resolve from a base path,
/// most often one of those); `None` when none of them is a file here.
fn included_text(frame: &Frame, page: &str, included: &str) -> Option<Arc<str>> {
    let path = included_path(frame.snapshot.paths(), page, included)?;
    frame.snapshot.read_text(&path).ok().flatten()
}

/// The file of the tree an include of `page` names (see [`included_text`]).
fn included_path(paths: &[String], page: &str, included: &str) -> Option<String> {
    let folder = page.rsplit_once('/').map_or("", |(dir, _)| dir);
    let tried = [
        reader_paths(page, included)
            .and_then(|p| p.into_iter().next())
            .unwrap_or_default(),
        included.trim_start_matches("./").to_owned(),
        format!("docs/{}", included.trim_start_matches("./")),
        format!("{folder}/{}", included.trim_start_matches("./")),
    ];
    tried
        .into_iter()
        .find(|p| !p.is_empty() && has_file(paths, p))
}

/// Per record another record includes (a snippet): the records that include
/// it. A snippet's relative links are followed from where it is rendered.
fn includers_of(
    paths: &[String],
    texts: impl Iterator<Item = (String, Arc<str>)>,
) -> BTreeMap<String, Vec<String>> {
    let mut includers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (page, text) in texts {
        for included in anchors::include_targets(&text) {
            if let Some(path) = included_path(paths, &page, &included)
                && path != page
            {
                let pages = includers.entry(path).or_default();
                if !pages.contains(&page) {
                    pages.push(page.clone());
                }
            }
        }
    }
    includers
}

fn tests_of(
    frame: &Frame,
    file: &str,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
) -> Result<Option<Arc<Vec<TestDef>>>> {
    let key = (frame.label.clone(), file.to_owned());
    if let Some(defs) = cache.get(&key) {
        return Ok(defs.clone());
    }
    let text = frame
        .snapshot
        .read_text(file)
        .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))?;
    let defs = text
        .and_then(|t| testdefs::tests_in(file, &t))
        .map(Arc::new);
    cache.insert(key, defs.clone());
    Ok(defs)
}

#[allow(clippy::too_many_arguments)]
fn resolve_test(
    frame: &Frame,
    settings: &CitesPlan,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
    path: &str,
    elided: bool,
    scope: Option<&str>,
    name: &str,
) -> Result<CiteStatus> {
    let at = &frame.label;
    // `/tests/x.py::name`: a leading slash is the repository's root.
    let path = &rooted(path);
    if escapes(path) {
        return Ok(stale(format!(
            "`{path}` leaves the repository; recount reads nothing outside it"
        )));
    }
    let Some(language) = TestLanguage::of_path(path) else {
        // A data file a collector (a conftest.py hook, a plugin) turns into
        // tests: recount can say the file is there, not which cases it holds.
        let files = candidates(frame, path, elided, &settings.roots);
        return Ok(match files.first() {
            None => stale(format!("no file `{path}` at {at}")),
            Some(file) => CiteStatus::Unverified {
                why: format!(
                    "{file} is there, but its tests are made by a collector recount does not run"
                ),
            },
        });
    };
    let enabled = match language {
        TestLanguage::Python => settings.python,
        TestLanguage::Rust => settings.rust,
    };
    let files = candidates(frame, path, elided, &settings.roots);
    if files.is_empty() {
        return Ok(stale(format!("no file `{path}` at {at}")));
    }
    if !enabled {
        return Ok(CiteStatus::Ok {
            resolved: format!(
                "{} (test discovery off for this language)",
                files.join(", ")
            ),
        });
    }
    let qualified = scope.map_or_else(|| name.to_owned(), |s| format!("{s}::{name}"));
    let mut all = Vec::new();
    for file in &files {
        let Some(defs) = tests_of(frame, file, cache)? else {
            continue;
        };
        let found = testdefs::defining(&defs, language, scope, name);
        // A Rust item named like a test but without a test attribute is a
        // helper the record takes for a test; any other item is a reference
        // to code (`graph.rs::walk_deps`).
        if let Some(def) = found
            && language == TestLanguage::Rust
            && def.kind == DefKind::Function
            && (name.starts_with("test_") || name.ends_with("_test"))
        {
            return Ok(CiteStatus::Stale {
                why: format!(
                    "{file} defines `{qualified}` without a test attribute: a helper, not a test, at {at}"
                ),
                suggestion: None,
            });
        }
        if let Some(def) = found {
            let what = match def.kind {
                DefKind::Test => "",
                DefKind::Class => " (a class: its tests)",
                DefKind::Function => " (defined, not a test)",
            };
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{qualified}{what}"),
            });
        }
        all.extend(defs.iter().cloned());
    }
    // A class is suggested for a class (`TestSuites` -> `TestSuite`), a
    // function for a function.
    let wants_class = name.starts_with(|c: char| c.is_uppercase());
    all.retain(|def| (def.kind == DefKind::Class) == wants_class);
    let suggestion = testdefs::suggest(&all, name);
    Ok(CiteStatus::Stale {
        why: format!("{} defines no test `{qualified}` at {at}", files.join(", ")),
        suggestion,
    })
}

/// `test_cli::test_x`: a pytest node id with the module's dotted name for its
/// file. It is one when a file `test_cli.py` (`a/b/test_cli.py` for `a.b.test_cli`)
/// is here — as written, under a test root, or anywhere its path ends so —
/// and is then resolved as `test_cli.py::test_x`; otherwise it is a name in
/// prose, not a citation, and is skipped.
fn resolve_module_test(
    frame: &Frame,
    settings: &CitesPlan,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
    module: &str,
    segments: &[String],
) -> Result<CiteStatus> {
    let path = format!("{}.py", module.replace('.', "/"));
    let Some((name, class)) = segments.split_last() else {
        return Ok(stale("an empty test id"));
    };
    if candidates(frame, &path, false, &settings.roots).is_empty() {
        return Ok(skipped(
            Exemption::ModuleName,
            format!(
                "no module `{path}` here: `{module}` is a name, not a test file of this repository"
            ),
        ));
    }
    let scope = (!class.is_empty()).then(|| class.join("::"));
    resolve_test(frame, settings, cache, &path, false, scope.as_deref(), name)
}

/// `module::tests::name` with no file: any Rust file of the snapshot whose test
/// `name` sits in a module path ending with the cited modules.
fn resolve_rust_path(
    frame: &Frame,
    settings: &CitesPlan,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
    segments: &[String],
) -> Result<CiteStatus> {
    let Some((name, modules)) = segments.split_last() else {
        return Ok(stale("an empty Rust path"));
    };
    if !settings.rust {
        return Ok(CiteStatus::Ok {
            resolved: "(Rust test discovery is off)".to_owned(),
        });
    }
    let needle = name.as_bytes();
    let files: Vec<String> = frame
        .snapshot
        .paths()
        .iter()
        .filter(|p| p.ends_with(".rs"))
        .cloned()
        .collect();
    for file in files {
        let Some(bytes) = frame
            .snapshot
            .read(&file)
            .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))?
        else {
            continue;
        };
        if !bytes.windows(needle.len().max(1)).any(|w| w == needle) {
            continue;
        }
        let Some(defs) = tests_of(frame, &file, cache)? else {
            continue;
        };
        // A test's full module path is the file's module (`src/parser.rs` is
        // `parser`) followed by the inline modules it sits in.
        let file_modules = rust_file_modules(&file);
        let hit = defs.iter().any(|d| {
            let full: Vec<&String> = file_modules
                .iter()
                .chain(d.class_or_module.iter())
                .collect();
            d.name == *name
                && full.len() >= modules.len()
                && full[full.len() - modules.len()..]
                    .iter()
                    .zip(modules)
                    .all(|(a, b)| *a == b)
        });
        if hit {
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{}", segments.join("::")),
            });
        }
    }
    Ok(stale(format!(
        "no Rust test `{}` at {}",
        segments.join("::"),
        frame.label
    )))
}

/// The module path a Rust file gives its items: `src/a/b.rs` -> `a::b`,
/// `src/a/mod.rs` -> `a`, `src/lib.rs` -> (the crate root).
fn rust_file_modules(path: &str) -> Vec<String> {
    let inside = path.rsplit_once("src/").map_or(path, |(_, rest)| rest);
    let stem = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_hosted_address_into_this_tree_is_told_from_another_repository() {
        let paths: Vec<String> = ["py-polars/runtime/Cargo.toml", "src/a.rs"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        assert!(links_into_this_tree(
            "https://github.com/o/r/blob/main/py-polars/runtime/Cargo.toml#L4",
            &paths
        ));
        assert!(links_into_this_tree(
            "https://github.com/o/r/tree/v1.0/src",
            &paths
        ));
        assert!(links_into_this_tree(
            "https://github.com/o/r/blob/main/py-polars/runtime/template/Cargo.toml",
            &paths
        ));
        assert!(!links_into_this_tree(
            "https://github.com/o/other/blob/main/test/e2e_test.go",
            &paths
        ));
        assert!(!links_into_this_tree(
            "https://github.com/o/other/blob/main/src/other/x.go",
            &paths
        ));
        assert!(!links_into_this_tree(
            "https://example.org/docs/src/a.rs",
            &paths
        ));
    }
    use super::{links_into_this_tree, rust_file_modules};

    #[test]
    fn rust_files_name_their_modules() {
        assert_eq!(rust_file_modules("src/lib.rs"), Vec::<String>::new());
        assert_eq!(rust_file_modules("src/parser.rs"), vec!["parser"]);
        assert_eq!(rust_file_modules("crates/x/src/a/mod.rs"), vec!["a"]);
        assert_eq!(rust_file_modules("src/a/b.rs"), vec!["a", "b"]);
    }
}
