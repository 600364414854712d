//! Resolves the citations records make — tests, lines, paths — against the
//! snapshot (or the frame a record section names), so the citation checks read
//! data and never the repository.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::cfg::{CitesPlan, ExpectPlan, normalise_line_cite};
use super::find::{Cite, CiteKind, find_cites_in, frame_key};
use super::testdefs::{self, DefKind, TestDef, TestLanguage};
use crate::audit::{FamilyInputs, FrameRequest, FrameSite, Frames};
use crate::error::{Error, Result};
use crate::facts::Frame;
use crate::snapshot::Day;
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
    pub kind: &'static str,
    /// The citation as recount read it.
    pub text: String,
    /// Where it was resolved: `working tree` or a frame commit.
    pub frame: String,
    pub status: CiteStatus,
    /// Cited explicitly, or inferred from a backticked path.
    pub tier: Tier,
    /// For a line cite, the index of the `[[cites.expect]]` entry that applied.
    #[serde(skip)]
    pub expect: Option<usize>,
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
    Skipped { why: String },
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
    let mut ignores: BTreeMap<String, Arc<Gitignore>> = BTreeMap::new();
    let mut resolved = Vec::new();
    let paths: Vec<String> = select(audited.snapshot.paths(), &settings.records, &[])
        .into_iter()
        .map(str::to_owned)
        .collect();
    let (material, paths): (Vec<String>, Vec<String>) =
        paths.into_iter().partition(|p| is_test_material(p));
    if let Some(first) = material.first() {
        notes.push(format!(
            "citations of {} record{} under fixtures or test data not checked (test material, not documentation; first: {first})",
            material.len(),
            if material.len() == 1 { "" } else { "s" }
        ));
    }
    for path in paths {
        let Some(record) = cache.get_or_parse(&path, || read_record(&audited, &path, notes))?
        else {
            continue;
        };
        let text = Arc::clone(&record.text);
        files.insert(path.clone(), Arc::clone(&text));
        // Every frame the record names is a frame use, cited under or not, so a
        // section measured at a commit that never landed is reported. A frame
        // that does not resolve is a frame-unresolved finding, and the cites
        // under it are unverified; a sha that is gone falls back to the date the
        // marker gives ("measured on 2026-09-13 against be977ea7").
        let mut marked: BTreeMap<String, (String, Result<Arc<Frame>, String>)> = BTreeMap::new();
        let markdown = record.markdown();
        for marker in settings.options.frame_pattern.captures_iter(&text) {
            // A marker quoted in a code block (a transcript, an example of
            // recount's output) frames nothing.
            if marker.get(0).is_some_and(|m| markdown.in_code(m.start())) {
                continue;
            }
            let sha = marker
                .name("sha")
                .filter(|m| !m.as_str().is_empty())
                // `measured at 1000000 requests`: a number, not a commit.
                .filter(|m| !m.as_str().bytes().all(|b| b.is_ascii_digit()));
            let date = marker.name("date").and_then(|m| Some((m, Day::parse(m.as_str())?)));
            let (key, request, span) = match (sha, date) {
                (Some(sha), Some((_, day))) => (
                    sha.as_str(),
                    FrameRequest::RevElseDate(sha.as_str(), day),
                    sha.range(),
                ),
                (Some(sha), None) => (sha.as_str(), FrameRequest::Rev(sha.as_str()), sha.range()),
                (None, Some((m, day))) => (m.as_str(), FrameRequest::Date(day), m.range()),
                (None, None) => continue,
            };
            let site = FrameSite::Record {
                path: path.clone(),
                span,
            };
            let outcome = frames
                .at(request, site)
                .map_err(|failure| failure.explain(key));
            if let Some(cite_key) = frame_key(&marker) {
                marked
                    .entry(cite_key)
                    .or_insert_with(|| (key.to_owned(), outcome));
            }
        }
        for cite in find_cites_in(&text, record.markdown(), &settings.options) {
            if cite.in_fence {
                continue;
            }
            let frame = match cite
                .frame
                .as_deref()
                .filter(|sha| !sha.bytes().all(|b| b.is_ascii_digit()))
            {
                None => Arc::clone(&audited),
                // The marker itself was resolved (and recorded) above.
                Some(sha) => match marked.get(sha) {
                    Some((_, Ok(frame))) => Arc::clone(frame),
                    Some((rev, Err(why))) => {
                        resolved.push(ResolvedCite {
                            record: path.clone(),
                            span: cite.span.clone(),
                            kind: kind_name(&cite.kind),
                            text: cite.cite_text(),
                            frame: rev.clone(),
                            status: CiteStatus::Unverified { why: why.clone() },
                            tier: Tier::of(&cite.kind),
                            expect: None,
                        });
                        continue;
                    }
                    None => {
                        frames
                            .lookup(sha)
                            .map_err(|e| {
                                Error::plain(format!(
                                    "the frame `{sha}` of {path} does not resolve: {e}"
                                ))
                            })?
                            .1
                    }
                },
            };
            let mut expect = None;
            let status = if cite.historical {
                CiteStatus::Historical
            } else {
                let ignored = Arc::clone(
                    ignores
                        .entry(frame.label.clone())
                        .or_insert_with(|| Arc::new(gitignore_of(&frame))),
                );
                let context = Context {
                    record: &path,
                    frame: &frame,
                    ignored: &ignored,
                    text: &text,
                    at: cite.span.start,
                };
                resolve(&cite, &context, settings, &mut tests_cache, &mut expect)?
            };
            resolved.push(ResolvedCite {
                record: path.clone(),
                span: cite.span.clone(),
                kind: kind_name(&cite.kind),
                text: cite.cite_text(),
                frame: frame.label.clone(),
                status,
                tier: Tier::of(&cite.kind),
                expect,
            });
        }
    }
    say_what_became_of(&mut resolved, frames, &audited);
    Ok(resolved)
}

/// A stale path or link that the history behind the snapshot renamed or
/// deleted says so ("renamed to `x/y.rs` in 1a2b3c4d"); a rename is the
/// did-you-mean, over any near name beside it.
fn say_what_became_of(resolved: &mut [ResolvedCite], frames: &Frames<'_>, audited: &Frame) {
    let gone = |c: &ResolvedCite| -> Option<String> {
        if c.kind != "path" || c.frame != audited.label {
            return None;
        }
        let CiteStatus::Stale { .. } = c.status else {
            return None;
        };
        let text = c.text.trim_end_matches('/');
        let tried = reader_paths(&c.record, text)?;
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

pub fn kind_name(kind: &CiteKind) -> &'static str {
    match kind {
        CiteKind::Test { .. }
        | CiteKind::RustTest { .. }
        | CiteKind::RustPath { .. }
        | CiteKind::ModuleTest { .. } => "test",
        CiteKind::Line { .. } => "line",
        CiteKind::Path { .. } | CiteKind::Link { .. } => "path",
    }
}

fn stale(why: impl Into<String>) -> CiteStatus {
    CiteStatus::Stale {
        why: why.into(),
        suggestion: None,
    }
}

/// Whether a cited path tries to leave the repository.
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
struct Context<'a> {
    record: &'a str,
    frame: &'a Frame,
    ignored: &'a Gitignore,
    /// The record's text and where the cite sits in it.
    text: &'a str,
    at: usize,
}

impl Context<'_> {
    /// A path the frame's `.gitignore` ignores is a build's or a run's output,
    /// never committed: skipped, with that reason.
    fn ignores(&self, path: &str, is_dir: bool) -> Option<CiteStatus> {
        self.ignored
            .matched_path_or_any_parents(path, is_dir)
            .is_ignore()
            .then(|| CiteStatus::Skipped {
                why: format!(
                    "`.gitignore` ignores `{path}`: a build's or a run's output, never committed"
                ),
            })
    }
}

/// The root `.gitignore` of a frame: a path a record names that it ignores is
/// made by a build or at run time, never committed, so never stale.
fn gitignore_of(frame: &Frame) -> Gitignore {
    let mut builder = GitignoreBuilder::new("");
    if let Ok(Some(text)) = frame.snapshot.read_text(".gitignore") {
        for line in text.lines() {
            // A line the matcher cannot read ignores nothing.
            let _ = builder.add_line(None, line);
        }
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

fn resolve(
    cite: &Cite,
    context: &Context<'_>,
    settings: &CitesPlan,
    cache: &mut BTreeMap<(String, String), Option<Arc<Vec<TestDef>>>>,
    expect: &mut Option<usize>,
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
        } => resolve_test(
            frame,
            settings,
            cache,
            path,
            *elided_prefix,
            class.as_deref(),
            name,
        )?,
        CiteKind::RustTest {
            path,
            modules,
            name,
            elided_prefix,
        } => {
            let scope = (!modules.is_empty()).then(|| modules.join("::"));
            resolve_test(
                frame,
                settings,
                cache,
                path,
                *elided_prefix,
                scope.as_deref(),
                name,
            )?
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
            if escapes(path) {
                return Ok(stale(format!(
                    "`{path}` leaves the repository; recount reads nothing outside it"
                )));
            }
            let files = candidates(frame, path, *elided_prefix, &settings.roots);
            let Some(file) = files.first() else {
                // The expectation the rule wrote for this cite still met it.
                let written = normalise_line_cite(&cite.cite_text());
                *expect = settings
                    .expect
                    .iter()
                    .position(|e| {
                        e.lines == Some((*start, *end)) && (e.cite == written || e.path == *path)
                    });
                return Ok(stale(format!("no file `{path}` at {at}")));
            };
            let text = frame
                .snapshot
                .read_text(file)
                .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))?
                .unwrap_or_else(|| "".into());
            let lines: Vec<&str> = crate::facts::lines_of(&text).collect();
            if *end > lines.len() || *start == 0 {
                return Ok(stale(format!(
                    "{file} has {} lines at {at}; the cite names line {end}",
                    lines.len()
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
                None => CiteStatus::Ok {
                    resolved: format!("{file}:{start}-{end}"),
                },
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
        CiteKind::Path { path, is_dir } => resolve_path(context, path, *is_dir, settings),
        CiteKind::Link { target, is_dir } => resolve_link(context, target, *is_dir),
    })
}

/// Where a reader finds a path a record names: relative to the record's own
/// folder (as GitHub renders a link), then from the repository root; `./` and
/// `../` are read against the record's folder. `None` when the path climbs out
/// of the repository.
fn reader_paths(record: &str, path: &str) -> Option<Vec<String>> {
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

/// Resolves a path a record names in backticks. One that names no path here is
/// stale only when it is plausibly one of this repository's: its first folder
/// is a folder of the tree and it has a file extension. Anything else — a
/// reader's `main.py`, a build's `target/debug`, `owner/repo`, `read/write` —
/// is skipped, with the reason, rather than reported.
fn resolve_path(context: &Context<'_>, path: &str, is_dir: bool, settings: &CitesPlan) -> CiteStatus {
    let (record, frame) = (context.record, context.frame);
    let at = &frame.label;
    let Some(tried) = reader_paths(record, path) else {
        return stale(format!(
            "`{path}` leaves the repository; recount reads nothing outside it"
        ));
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let exists = |p: &str| (!is_dir && is_file(p)) || is_folder(p) || frame.snapshot.holds_unread(p);
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
    if let Some(nearest) = matches
        .iter()
        .max_by(|a, b| shared(a).cmp(&shared(b)).then_with(|| b.cmp(a)))
    {
        return CiteStatus::Ok {
            resolved: if matches.len() > 1 {
                format!("{nearest} (the nearest of {} paths ending so)", matches.len())
            } else {
                nearest.clone()
            },
        };
    }
    if let Some(skipped) = context.ignores(&written, is_dir) {
        return skipped;
    }
    if is_changelog(record) {
        return CiteStatus::Skipped {
            why: "a changelog names paths as they were at its release".to_owned(),
        };
    }
    if let Some(cue) = readers_project_cue(context.text, context.at) {
        return CiteStatus::Skipped {
            why: format!("its sentence speaks of the reader's project (\"{cue}\")"),
        };
    }
    match plausibly_ours(record, &written, is_dir, paths) {
        Ok(()) => CiteStatus::Stale {
            why: format!(
                "no {} `{path}` at {at}",
                if is_dir { "folder" } else { "file" }
            ),
            suggestion: (!is_dir).then(|| nearest_sibling(&written, paths)).flatten(),
        },
        Err(why) => CiteStatus::Skipped { why },
    }
}

/// The file beside a missing one whose name is nearly its name (a typo, a
/// small rename): `.github/renovate.json5` for `.github/renovatebot.json5`.
fn nearest_sibling(path: &str, paths: &[String]) -> Option<String> {
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
fn resolve_link(context: &Context<'_>, target: &str, is_dir: bool) -> CiteStatus {
    let frame = context.frame;
    let Some(tried) = reader_paths(context.record, target) else {
        return CiteStatus::Skipped {
            why: format!("`{target}` leaves the repository: a page of another root"),
        };
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let page_source = |p: &str| {
        p.strip_suffix(".html")
            .map(|stem| format!("{stem}.md"))
            .filter(|md| is_file(md))
    };
    for p in &tried {
        if (!is_dir && is_file(p)) || is_folder(p) || frame.snapshot.holds_unread(p) {
            return CiteStatus::Ok {
                resolved: p.clone(),
            };
        }
        if let Some(md) = page_source(p) {
            return CiteStatus::Ok { resolved: md };
        }
    }
    let written = tried.first().cloned().unwrap_or_default();
    if let Some(skipped) = context.ignores(&written, is_dir) {
        return skipped;
    }
    // A page with no Markdown source here is one a documentation site builds,
    // or one of another site's (a sibling book): not this repository's file.
    if [".html", ".htm"].iter().any(|ext| written.ends_with(ext)) {
        return CiteStatus::Skipped {
            why: format!("`{written}` is a built page with no source page here"),
        };
    }
    // A translation's page links to the page its site falls back to: the same
    // path in a sibling tree (`docs/de/x.md` for `docs/en/x.md`).
    if let Some(sibling) = in_sibling_tree(&written, paths) {
        return CiteStatus::Skipped {
            why: format!("`{written}` is missing here but `{sibling}` stands for it (a translation's fallback)"),
        };
    }
    // A link into a folder this repository does not have points into another
    // root (a sibling book, a site's URL space), not at a file of this tree.
    if let Some((folder, _)) = written.rsplit_once('/')
        && !is_folder(folder)
    {
        return CiteStatus::Skipped {
            why: format!("no folder `{folder}/` here: a page of another site or root"),
        };
    }
    stale(format!(
        "the link names no {} `{written}` at {}",
        if is_dir { "folder" } else { "file" },
        frame.label
    ))
}

/// The same path in a sibling tree — one folder of it swapped for another —
/// when exactly that exists: `docs/en/docs/x.md` for `docs/de/docs/x.md`.
fn in_sibling_tree(path: &str, paths: &[String]) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let folders = segments.len().saturating_sub(1);
    (0..folders).find_map(|swap| {
        let before = segments[..swap].join("/");
        let after = segments[swap + 1..].join("/");
        let prefix = if before.is_empty() {
            String::new()
        } else {
            format!("{before}/")
        };
        let suffix = format!("/{after}");
        paths
            .iter()
            .find(|p| {
                p.starts_with(&prefix)
                    && p.ends_with(&suffix)
                    && p.len() > prefix.len() + suffix.len()
                    && !p[prefix.len()..p.len() - suffix.len()].contains('/')
            })
            .cloned()
    })
}

/// Whether a record is test material — a fixture or a test's data — rather
/// than the project's documentation: its citations are of the test's world.
pub(crate) fn is_test_material(record: &str) -> bool {
    let segments: Vec<String> = record
        .split('/')
        .map(str::to_ascii_lowercase)
        .collect();
    let folders = &segments[..segments.len().saturating_sub(1)];
    let test_at = folders.iter().position(|s| s == "tests" || s == "test");
    folders.iter().any(|s| {
        ["fixtures", "testdata", "test-data", "test_data", "__fixtures__", "snapshots"]
            .contains(&s.as_str())
    }) || test_at.is_some_and(|i| folders[i + 1..].iter().any(|s| s == "data" || s == "expected"))
}

/// Whether a record is a changelog: its entries are history, each naming files
/// as they were at that release.
fn is_changelog(record: &str) -> bool {
    let name = record.rsplit('/').next().unwrap_or(record).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    // `CHANGELOG`, `changelog-2024`, `HISTORY.rst`; not `newsletter` or `changes-guide`.
    let word = stem
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .next()
        .unwrap_or(stem);
    ["changelog", "changes", "history", "release-notes", "release_notes", "releases", "news"]
        .iter()
        .any(|s| {
            word == *s
                || word
                    .strip_prefix(s)
                    .is_some_and(|rest| rest.starts_with(['-', '_']) && rest[1..].chars().all(|c| c.is_ascii_digit() || c == '.' || c == '-'))
        })
        || record.starts_with("changelogs/")
        || record.contains("/changelogs/")
}

/// Words that, in the sentence around a path, say it is the reader's own file
/// rather than this repository's: "here is a sample `ci.yml`", "in your
/// package", "such as `tests/common/mod.rs`".
const READERS_PROJECT_CUES: [&str; 7] = [
    "your ",
    "a sample",
    "an example",
    "for example",
    "e.g.",
    "such as",
    "for instance",
];

fn readers_project_cue(text: &str, at: usize) -> Option<&'static str> {
    let start = crate::checks::cites::find::sentence_start(text, at);
    // A sentence ends within a few hundred characters; looking further would
    // make every cite of a long record read the rest of it.
    let mut limit = (at + 600).min(text.len());
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let rest = text.get(at..limit)?;
    let end = rest
        .find(". ")
        .into_iter()
        .chain(rest.find(".\n"))
        .chain(rest.find("\n\n"))
        .min()
        .map_or(limit, |i| at + i);
    let sentence = text.get(start..end)?.to_ascii_lowercase();
    READERS_PROJECT_CUES
        .iter()
        .find(|cue| sentence.contains(*cue))
        .copied()
}

/// Whether a path that names nothing here is plausibly one of this
/// repository's paths gone stale, or why not: its folder (everything before the
/// last `/`) is a folder of the tree — at the root, under the record's own
/// folder, or deeper when it is specific enough to mean one place (two
/// segments or more, as a record writes `tests/unit/x.py` for
/// `packages/core/tests/unit/x.py`) — and a file has an extension. A bare name, a folder no tree of this repository has
/// (`target/debug`, `owner/repo`, `~/.config`), or a slash-separated word
/// (`read/write`) is not a path of this repository.
fn plausibly_ours(record: &str, path: &str, is_dir: bool, paths: &[String]) -> Result<(), String> {
    let Some((folder, last)) = path.rsplit_once('/') else {
        return Err(if is_dir {
            format!("no folder `{path}` here: a folder of another tree or a build's")
        } else {
            format!("no file of this repository is named `{path}` (a reader's file?)")
        });
    };
    let at_root = format!("{folder}/");
    let beside = record
        .rsplit_once('/')
        .map(|(dir, _)| format!("{dir}/{folder}/"));
    let deeper = folder.contains('/').then(|| format!("/{folder}/"));
    let first = folder.split('/').next().unwrap_or(folder);
    let first_deep = format!("/{first}/");
    let has_folder = paths.iter().any(|p| {
        p.starts_with(&at_root)
            || beside.as_ref().is_some_and(|b| p.starts_with(b.as_str()))
            || deeper.as_ref().is_some_and(|d| p.contains(d.as_str()))
            // A test file under a deeper test folder: a record writes
            // `tests/integration/x.py` for `packages/core/tests/...`.
            || (!is_dir
                && folder.contains('/')
                && ["tests", "test", "spec", "specs"].contains(&first)
                && p.contains(first_deep.as_str()))
    });
    if !has_folder {
        return Err(format!(
            "`{folder}/` is no folder of this repository (another root, a build output, or not a path)"
        ));
    }
    let has_extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=10).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if !is_dir && !has_extension {
        return Err(format!(
            "`{path}` has no file extension and names nothing here (a name, not a path?)"
        ));
    }
    Ok(())
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
        if let Some(def) = testdefs::defining(&defs, language, scope, name) {
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
        return Ok(CiteStatus::Skipped {
            why: format!("no module `{path}` here: `{module}` is a name, not a test file of this repository"),
        });
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
    use super::{is_changelog, rust_file_modules};

    #[test]
    fn changelogs_are_told_from_files_that_only_start_alike() {
        for log in [
            "CHANGELOG.md",
            "docs/release-notes.md",
            "HISTORY.md",
            "changelog-2024.md",
            "changelogs/0.5.x.md",
            "NEWS.md",
        ] {
            assert!(is_changelog(log), "{log}");
        }
        for doc in ["docs/newsletter.md", "changes-guide.md", "historyless.md", "README.md"] {
            assert!(!is_changelog(doc), "{doc}");
        }
    }

    #[test]
    fn rust_files_name_their_modules() {
        assert_eq!(rust_file_modules("src/lib.rs"), Vec::<String>::new());
        assert_eq!(rust_file_modules("src/parser.rs"), vec!["parser"]);
        assert_eq!(rust_file_modules("crates/x/src/a/mod.rs"), vec!["a"]);
        assert_eq!(rust_file_modules("src/a/b.rs"), vec!["a", "b"]);
    }
}
