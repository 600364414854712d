//! Stage 4, the citation family's gather: only the loop. It reads the
//! records the settings select, asks each record-wide exemption, places each
//! citation at the frame it is read at (`placing.rs`), hands it to the
//! resolver of its kind (`resolve/`) and collects the results for the
//! evidence (`evidence/`) and the checks, which read data and never the
//! repository.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use regex::Regex;

use super::anchors;
use super::cfg::CitesPlan;
use super::context::{Context, Reads};
use super::exemptions::{Exemption, copied_record, earlier_release};
use super::find::{Cite, CiteKind, CiteOptions, find_cites_in};
use super::locate::included_path;
use super::model::{CiteStatus, ExemptionSettings, ResolvedCite};
use super::placing::{Placed, RecordPlaces};
use super::resolve::{class_of, resolve, tier_of};
use super::scope::own_records;
use crate::checks::family_inputs::FamilyInputs;
use crate::error::Result;
use crate::frames::{Frame, Frames};
use crate::pathspec::select;
use crate::records::frames::RecordFrames;
use crate::records::{Record, RecordCache, read_record};
use crate::snapshot::Snapshot;
use rayon::prelude::*;

impl ResolvedCite {
    /// Whether the prose named it, as a reader would take a path it
    /// mentions: a backticked path, or a `path:line` cite that is no link
    /// (not a link, which is clicked, nor a test id).
    pub(super) fn named_in_prose(&self) -> bool {
        self.tier == super::model::Tier::Inferred
            || (self.kind == super::model::CiteClass::Line && self.destination.is_none())
    }

    /// A cite whose status was settled before any resolution (history, a
    /// frame this clone lacks): nothing of it for the evidence to judge.
    pub(super) fn unjudged(record: &str, cite: &Cite, frame: String, status: CiteStatus) -> Self {
        ResolvedCite {
            record: record.to_owned(),
            span: cite.span.clone(),
            kind: class_of(&cite.kind),
            text: cite.cite_text(),
            frame,
            frame_from: None,
            status,
            tier: tier_of(&cite.kind),
            expect: None,
            stale_if_history_knows: None,
            lines: None,
            evidenced: false,
            held_when_written: None,
            anchor: None,
            test: None,
            test_file_missing: false,
            destination: cite.destination.clone(),
            objects: None,
            label: None,
            document: matches!(cite.kind, CiteKind::Link { document: true, .. }),
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
}

/// A record read for the loop: the notes its reading left, and the record
/// (`None`: skipped, and noted).
type ReadRecord = (Vec<String>, Result<Option<Arc<Record>>>);

/// A cite placed at its frame: settled there already (an earlier release's,
/// a frame this clone lacks), or to be resolved there.
enum Job {
    Settled(Box<ResolvedCite>),
    At(Box<PlacedCite>),
}

/// A cite to resolve at the frame it was placed at, with what its record
/// says around it.
struct PlacedCite {
    path: Arc<str>,
    text: Arc<str>,
    cite: Cite,
    frame: Arc<Frame>,
    /// What set the frame, when it is not the audited tree.
    frame_from: Option<String>,
    /// The tag or ref the frame was named by, for the finding to say.
    tag: Option<String>,
    release_notes: bool,
    /// The earlier release whose notes hold the cite, read in today's build.
    earlier_notes: Option<String>,
}

/// What the loop keeps across the records of one run.
struct Run<'a> {
    settings: &'a CitesPlan,
    audited: Arc<Frame>,
    tags: Arc<[String]>,
    reads: Reads,
    /// Every exemption off, for a link to the repository's own hosted page.
    no_exemptions: ExemptionSettings,
    /// Per folder of per-release notes (`release-notes/v1.2.0.md`), the
    /// newest release's file; and changelogs a current one supersedes.
    newest_notes: BTreeSet<String>,
    superseded: BTreeSet<String>,
    includers: BTreeMap<String, Vec<String>>,
    /// Every cite of the records read so far, placed at its frame.
    placed: Vec<Job>,
    history: EarlierReleases,
    hosted_count: usize,
    copies: Vec<(String, String)>,
    /// Records that are verbatim copies of another record, with it.
    verbatim: BTreeMap<String, String>,
}

/// Finds and resolves every citation in the records the settings select.
pub(crate) fn gather(inputs: &mut FamilyInputs<'_, '_, CitesPlan>) -> Result<Vec<ResolvedCite>> {
    let FamilyInputs {
        plan: settings,
        frames,
        records: cache,
        files,
        notes,
        progress,
    } = inputs;
    let settings: &CitesPlan = settings;
    if !settings.enabled {
        return Ok(Vec::new());
    }
    let audited = frames.audited();
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
    let paths = own_records(paths, &audited, &frames.tags(), &settings.exemptions, notes);
    // Which records other records include (snippets), read first: the parse
    // is kept for the loop below; a record that cannot be read is left to it,
    // which notes why. Read and parsed on every core, noted in path order.
    let snapshot = &*audited.snapshot;
    let outcomes: Vec<ReadRecord> = paths
        .par_iter()
        .map(|path| {
            let mut read_notes = Vec::new();
            let record = cache.get_or_parse(path, || read_record(snapshot, path, &mut read_notes));
            if let Ok(Some(record)) = &record {
                record.markdown();
            }
            (read_notes, record)
        })
        .collect();
    let mut unread = BTreeSet::new();
    let mut read = Vec::new();
    for (path, (read_notes, record)) in paths.iter().zip(outcomes) {
        notes.extend(read_notes);
        match record {
            Ok(Some(record)) => read.push((path.clone(), Arc::clone(&record.text))),
            // Skipped, and noted: the loop below passes it by.
            Ok(None) => {
                unread.insert(path.clone());
            }
            // The loop below reports it.
            Err(_) => {}
        }
    }
    // A knowledge store's copies of the project's records are read once, as
    // their originals: what the history had first is the original.
    let verbatim = if settings.exemptions.is_on(Exemption::CopiedRecord) {
        copied_record::copies_in(
            frames.repo(),
            audited.snapshot.as_ref(),
            audited.commit.as_deref(),
            &read,
        )
    } else {
        BTreeMap::new()
    };
    let own_links = Arc::new(own_links(settings, frames, &audited, &read, cache));
    let options = CiteOptions {
        own_links: Some(Arc::clone(&own_links)),
        ..settings.options.clone()
    };
    let mut reads = Reads::auditing(
        &audited.label,
        own_links.address.as_ref().map(|a| a.project.clone()),
        super::reader_copies::copies_in(&read),
    );
    reads.page_aliases = super::renderers::hugo::page_aliases(&read);
    let redirects = [
        super::renderers::doc_builder::redirect_aliases,
        super::renderers::mdbook::redirect_aliases,
    ];
    for read_redirects in redirects {
        for (alias, page) in read_redirects(audited.snapshot.as_ref(), audited.snapshot.paths()) {
            reads.page_aliases.entry(alias).or_insert(page);
        }
    }
    let mut run = Run {
        settings,
        tags: frames.tags().into(),
        reads,
        no_exemptions: ExemptionSettings::none(),
        newest_notes: earlier_release::newest_release_files(&paths),
        superseded: earlier_release::superseded_changelogs(&paths),
        includers: includers_of(
            audited.snapshot.as_ref(),
            read.iter().map(|(p, t)| (p.clone(), Arc::clone(t))),
        ),
        audited,
        placed: Vec::new(),
        history: EarlierReleases::default(),
        hosted_count: 0,
        copies: Vec::new(),
        verbatim,
    };
    // What each record says on its own (where its Sphinx sources are rooted,
    // its citations, the frames it declares), found on every core; the loop
    // below places and resolves them in path order.
    let snapshot = run.audited.snapshot.as_ref();
    let mut said: BTreeMap<String, Said> = read
        .par_iter()
        .filter_map(|(path, _)| {
            let record = cache.get(path)?;
            Some((
                path.clone(),
                Said::of(settings, path, &record, snapshot, &options),
            ))
        })
        .collect();
    let total = paths.len();
    for (done, path) in paths.into_iter().enumerate() {
        if let Some(progress) = progress {
            progress.records(done, total, run.placed.len());
        }
        if unread.contains(&path) {
            continue;
        }
        let audited = Arc::clone(&run.audited);
        let Some(record) =
            cache.get_or_parse(&path, || read_record(&*audited.snapshot, &path, notes))?
        else {
            continue;
        };
        if let Some(source) = settings
            .exemptions
            .is_on(Exemption::CopiedRecord)
            .then(|| copied_record::copied_from(&record.text))
            .flatten()
        {
            run.copies.push((path.clone(), source));
            continue;
        }
        if run.verbatim.contains_key(&path) {
            continue;
        }
        if settings
            .judged
            .as_ref()
            .is_some_and(|scope| !scope.contains(&path))
        {
            continue;
        }
        files.insert(path.clone(), Arc::clone(&record.text));
        let said = said.remove(&path).unwrap_or_else(|| {
            Said::of(
                settings,
                &path,
                &record,
                run.audited.snapshot.as_ref(),
                &options,
            )
        });
        record_cites(&mut run, frames, &path, &record, said)?;
    }
    // Placed in path order, resolved on every core: each cite reads only its
    // frame and the run's shared reads, and keeps its place in the order.
    let jobs = std::mem::take(&mut run.placed);
    let outcomes: Vec<Result<ResolvedCite>> = jobs
        .into_par_iter()
        .map(|job| match job {
            Job::Settled(resolved) => Ok(*resolved),
            Job::At(at) => run.resolve_at(&at),
        })
        .collect();
    let mut resolved = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        resolved.push(outcome?);
    }
    if let Some(progress) = progress {
        progress.records(total, total, resolved.len());
    }
    run.notes(&own_links, notes);
    let audited = Arc::clone(&run.audited);
    if let Some(cut) = super::evidence::judge(&mut resolved, frames, &audited, files, settings) {
        notes.push(format!(
            "warning: this clone is shallow: it holds {} commit{} of the history (back to {}), so {} citation{} written there or before could not be judged against their history (what they named when written, what became of it); fetch the whole history (`fetch-depth: 0` for actions/checkout, or `git fetch --unshallow`)",
            cut.depth,
            if cut.depth == 1 { "" } else { "s" },
            cut.boundary,
            cut.citations,
            if cut.citations == 1 { "" } else { "s" },
        ));
    }
    super::evidence::say_what_became_of(&mut resolved, frames, &audited);
    super::evidence::read_posts_on_their_day(&mut resolved, frames, &audited, files, settings);
    super::evidence::in_record_syntax(&mut resolved, &audited);
    for cite in resolved
        .iter_mut()
        .filter(|c| matches!(c.status, CiteStatus::Stale { .. }))
    {
        if let Some(link) = cite.destination.as_deref().and_then(|d| own_links.link(d))
            && own_links.read_as_default(&link.rev)
        {
            cite.ref_assumed = Some(link.rev);
        }
    }
    Ok(resolved)
}

/// What one record says on its own, before any frame is read: the Sphinx
/// source folder its leading `/` names, its citations, and the frames it
/// declares. Pure, so records are read on every core.
struct Said {
    cites: Vec<Cite>,
    declared: RecordFrames,
    sphinx: bool,
}

impl Said {
    fn of(
        settings: &CitesPlan,
        path: &str,
        record: &Record,
        snapshot: &dyn Snapshot,
        base_options: &CiteOptions,
    ) -> Said {
        // A Markdown page is Sphinx's when it is MyST: it writes Sphinx's roles.
        let markdown = record.markdown();
        let myst = !markdown.doc_refs.is_empty()
            || !markdown.label_refs.is_empty()
            || !markdown.py_refs.is_empty();
        let source_root = sphinx_source_root(path, record.rst || myst, snapshot);
        let sphinx = source_root.is_some();
        let cites = match source_root {
            Some(root) => {
                let rooted = CiteOptions {
                    source_root: Some(root),
                    ..base_options.clone()
                };
                find_cites_in(&record.text, markdown, &rooted)
            }
            None => find_cites_in(&record.text, markdown, base_options),
        };
        let declared = RecordFrames::read(&record.text, markdown, &settings.options.frame_pattern);
        Said {
            cites,
            declared,
            sphinx,
        }
    }
}

/// Every citation of one record, placed at its frame and resolved there.
fn record_cites(
    run: &mut Run<'_>,
    frames: &mut Frames<'_>,
    path: &str,
    record: &Record,
    said: Said,
) -> Result<()> {
    let text = Arc::clone(&record.text);
    let record_path: Arc<str> = Arc::from(path);
    // One release's notes beside a newer release's are history, whole.
    let earlier_file = (super::releases::release_file(path).is_some()
        && !run.newest_notes.contains(path))
        || run.superseded.contains(path);
    let audited = Arc::clone(&run.audited);
    let tags = Arc::clone(&run.tags);
    let mut places = RecordPlaces::read(
        frames,
        (run.settings, &audited, &tags),
        path,
        record,
        (earlier_file, said.sphinx),
        said.declared,
    );
    for cite in said.cites {
        if cite.in_fence {
            continue;
        }
        if cite.hosted {
            run.hosted_count += 1;
        }
        match places.place(frames, &cite, record) {
            Placed::Settled(resolved) => run.placed.push(Job::Settled(resolved)),
            Placed::At {
                frame,
                frame_from,
                tag,
                earlier_notes,
            } => run.placed.push(Job::At(Box::new(PlacedCite {
                path: Arc::clone(&record_path),
                text: Arc::clone(&text),
                cite,
                frame,
                frame_from,
                tag,
                release_notes: places.release_notes(),
                earlier_notes,
            }))),
        }
    }
    if let Some((first, _)) = places.earlier.first() {
        run.history.cites += places.earlier.iter().map(|(_, n)| n).sum::<usize>();
        run.history.sections += places.earlier.len();
        run.history
            .first
            .get_or_insert_with(|| format!("{path}, release {first}"));
    }
    Ok(())
}

impl Run<'_> {
    /// One cite resolved at its frame, with what its resolver found.
    fn resolve_at(&self, placed: &PlacedCite) -> Result<ResolvedCite> {
        let PlacedCite {
            path,
            text,
            cite,
            frame,
            release_notes,
            ..
        } = placed;
        let (path, text, release_notes) = (&**path, &**text, *release_notes);
        let (tag, frame_from) = (placed.tag.as_deref(), placed.frame_from.clone());
        let context = Context {
            record: path,
            frame,
            reads: &self.reads,
            text,
            at: cite.span.start,
            exemptions: if cite.hosted {
                &self.no_exemptions
            } else {
                &self.settings.exemptions
            },
            hosted: cite.hosted,
            includers: self.includers.get(path).map_or(&[], Vec::as_slice),
            release_notes,
            found: Default::default(),
        };
        let mut status = if cite.historical {
            CiteStatus::Historical
        } else {
            resolve(cite, &context, self.settings)?
        };
        // A release's entry is read at its tag, a pinned link at its ref:
        // the finding names it.
        if let (Some(tag), CiteStatus::Stale { why, .. }) = (tag, &mut status)
            && !frame.label.starts_with(tag)
            && !tag.starts_with(frame.label.as_str())
        {
            *why = why.replace(
                &format!("at {}", frame.label),
                &format!("at {tag} ({})", frame.label),
            );
        }
        let found = context.found;
        let mut resolved = ResolvedCite::unjudged(path, cite, frame.label.clone(), status);
        resolved.frame_from = frame_from;
        resolved.earlier_notes = placed.earlier_notes.clone();
        resolved.expect = found.expect.into_inner();
        resolved.stale_if_history_knows = found.stale_if_history_knows.into_inner();
        resolved.proven = found.proven.into_inner();
        resolved.copied_from = found.copied_from.into_inner();
        resolved.lines = found.lines.into_inner();
        resolved.anchor = found.anchor.into_inner();
        resolved.test = found.test.into_inner();
        resolved.test_file_missing = found.test_file_missing.into_inner();
        resolved.objects = found.objects.into_inner();
        resolved.label = found.label.into_inner();
        resolved.release_notes = release_notes;
        resolved.chosen_among = found.chosen_among.into_inner();
        Ok(resolved)
    }

    /// The run's notes: earlier releases read as history, links to the
    /// repository's own pages, records copied from elsewhere.
    fn notes(&self, own_links: &super::hosted::OwnLinks, notes: &mut Vec<String>) {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        // A Sphinx project of the audited tree whose `conf.py` was read in
        // part: what its citations were checked against is said.
        let labels = super::context::locked(&self.reads.labels);
        for ((frame, folder), labels) in labels.iter() {
            if let Some(why) = labels
                .conf_unread
                .as_ref()
                .filter(|_| *frame == self.audited.label)
            {
                notes.push(format!(
                    "read {} in part: {why}; what the rest may set is taken as unknown (any extension loaded, pages written as the build starts)",
                    super::labels::conf_path(folder)
                ));
            }
        }
        drop(labels);
        if let Some(first) = &self.history.first {
            notes.push(format!(
                "{} citation{} in {} earlier release section{} of changelogs and release pages read as history, not checked (earlier-release; first: {first}); a changelog's newest release and a release's page are checked at its tag",
                self.history.cites,
                plural(self.history.cites),
                self.history.sections,
                plural(self.history.sections),
            ));
        }
        if let Some(own) = own_links.address.as_ref().filter(|_| self.hosted_count > 0) {
            notes.push(format!(
                "{} link{} to the repository's own pages ({}, from {}) read as paths of this tree; `[recount].url` names another address",
                self.hosted_count,
                plural(self.hosted_count),
                own.url(),
                own.source,
            ));
        }
        if let Some((first, original)) = self.verbatim.first_key_value() {
            notes.push(format!(
                "{} verbatim cop{} of other records read once, as {} (copied-record: the same text, a copy by front matter of its own or by a manifest of the tree; first: {first}, a copy of {original})",
                self.verbatim.len(),
                if self.verbatim.len() == 1 { "y" } else { "ies" },
                if self.verbatim.len() == 1 { "its original" } else { "their originals" },
            ));
        }
        if let Some((first, source)) = self.copies.first() {
            notes.push(format!(
                "citations of {} record{} copied from another repository not checked (copied-record: the front matter names its source; first: {first}, from {source})",
                self.copies.len(),
                plural(self.copies.len()),
            ));
        }
    }
}

/// The repository's own hosted address and its refs: `[recount].url`, else the
/// `origin` remote, else the project's metadata at the audited tree's root,
/// else the address most of the records' file links resolve under.
fn own_links(
    settings: &CitesPlan,
    frames: &Frames<'_>,
    audited: &Frame,
    read: &[(String, Arc<str>)],
    cache: &RecordCache,
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
    let address = settings
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

/// What the run left unchecked in changelogs' earlier release sections.
#[derive(Default)]
struct EarlierReleases {
    cites: usize,
    sections: usize,
    first: Option<String>,
}

/// For a reStructuredText (or MyST) record, the Sphinx source folder its leading `/`
/// names — the nearest folder at or above the record holding `conf.py`, or
/// the sphinx-multiproject project folder the record is under — as a path
/// from the record's folder (`./`, `../`, …); `None` for any other record,
/// or one no `conf.py` is above.
fn sphinx_source_root(record: &str, rst: bool, snapshot: &dyn Snapshot) -> Option<String> {
    if !rst {
        return None;
    }
    let source = super::labels::sphinx_folder(record, snapshot)?;
    let folder = record.rsplit_once('/').map_or("", |(f, _)| f);
    let below = if source.is_empty() {
        folder
    } else {
        folder
            .strip_prefix(source.as_str())?
            .trim_start_matches('/')
    };
    let up = if below.is_empty() {
        0
    } else {
        below.split('/').count()
    };
    Some(if up == 0 {
        "./".to_owned()
    } else {
        "../".repeat(up)
    })
}

/// The page a sample's opening tells its reader to paste it into ("Copy
/// and paste the markdown below into the [main README](../../README.md)"):
/// its relative links are written for that page, as a snippet's are for the
/// page that includes it.
fn pasted_into(text: &str) -> Option<String> {
    static TOLD: OnceLock<Regex> = OnceLock::new();
    let told = TOLD.get_or_init(|| {
        Regex::new(r"(?i)\b(?:copy|paste)\b[^\n]*?\binto\b[^\n\[]*\[[^\]\n]*\]\(([^)\s#]+\.mdx?)\)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    text.lines()
        .take(30)
        .find_map(|line| told.captures(line))
        .map(|caps| caps[1].to_owned())
}

/// Per record rendered at another place: the records that include it (a
/// snippet), and the symbolic links of the tree that name it (a page a
/// documentation folder publishes from beside the code). Its relative links
/// are followed from where it is rendered.
fn includers_of(
    snapshot: &dyn Snapshot,
    texts: impl Iterator<Item = (String, Arc<str>)>,
) -> BTreeMap<String, Vec<String>> {
    let paths = snapshot.paths();
    let mut includers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let texts: Vec<(String, Arc<str>)> = texts.collect();
    let records: BTreeSet<String> = texts.iter().map(|(page, _)| page.clone()).collect();
    // Places folder links publish pages at, counted: thousands of links to
    // one large folder add no more than this (each a path kept for the run).
    const MAX_PUBLISHED: usize = 100_000;
    let mut published = 0usize;
    for link in snapshot.skipped() {
        let Some(target) = &link.target else {
            continue;
        };
        if records.contains(target.as_str()) {
            includers
                .entry(target.clone())
                .or_default()
                .push(link.path.clone());
        }
        // A link to a folder publishes every page under it at the link's
        // place (`docs/reference/schemas` → `../includes/generated/schemas`).
        // Beside its target (`skills` → `.skills`) it reads each relative
        // link as the target does: nothing new.
        let parent = |p: &str| {
            p.rsplit_once('/')
                .map_or("", |(folder, _)| folder)
                .to_owned()
        };
        if parent(&link.path) == parent(target) {
            continue;
        }
        let folder = format!("{target}/");
        for page in records.range(folder.clone()..) {
            let Some(rest) = page.strip_prefix(folder.as_str()) else {
                break;
            };
            if published >= MAX_PUBLISHED {
                break;
            }
            published += 1;
            includers
                .entry(page.clone())
                .or_default()
                .push(format!("{}/{rest}", link.path));
        }
    }
    // Markdown's snippets, and the files a Sphinx page includes (whose
    // `:doc:` and relative links Sphinx reads from the including page): each
    // page searched on any core, in page order after.
    let found: Vec<(String, Vec<String>, Option<String>)> = texts
        .into_par_iter()
        .map(|(page, text)| {
            let mut included = anchors::include_targets(&text);
            included.extend(anchors::directive_include_targets(&text));
            included.extend(anchors::mdx_imported_pages(&text));
            (page, included, pasted_into(&text))
        })
        .collect();
    // A layout no record is (`_includes/main.html`) that a page includes
    // pastes its own includes in turn: each is rendered inside that page.
    const MAX_LAYOUTS: usize = 200;
    let layouts: BTreeSet<String> = found
        .iter()
        .flat_map(|(page, included, _)| {
            included
                .iter()
                .filter_map(|named| included_path(paths, page, named))
        })
        .filter(|path| path.ends_with(".html") && !records.contains(path.as_str()))
        .take(MAX_LAYOUTS)
        .collect();
    let found: Vec<(String, Vec<String>, Option<String>)> = found
        .into_iter()
        .chain(layouts.into_iter().filter_map(|layout| {
            let text = snapshot.read_text_to_parse(&layout).ok().flatten()?;
            let included = anchors::include_targets(&text);
            Some((layout, included, None))
        }))
        .collect();
    for (page, included, pasted) in found {
        // A sample to paste is read from the page it is pasted into.
        if let Some(into) = pasted.and_then(|into| included_path(paths, &page, &into))
            && into != page
        {
            includers.entry(page.clone()).or_default().push(into);
        }
        for included in included {
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
