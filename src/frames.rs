//! The frames a run measures at: the audited snapshot and one per commit a rule's
//! `at` or a record's "measured at" names, each read once however many facts,
//! citations or transcripts name it, with every place it was named (the frame
//! checks read those). Frames sit under the facts and the checks: both read
//! snapshots through them.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use crate::constants::Constants;
use crate::error::{Error, Result};
use crate::records::frames::RecordFrames;
use crate::snapshot::{Day, FrameFailure, GitRepo, Snapshot};
use crate::source::RuleSource;

/// One frame: a snapshot and the constants read from it.
pub struct Frame {
    /// `working tree`, or the commit's short id.
    pub label: String,
    pub commit: Option<String>,
    pub snapshot: Arc<dyn Snapshot>,
    pub constants: Constants,
    /// Schema sets loaded by `validate` facts, by folder: compiled once per frame
    /// however many facts check documents against them.
    pub schema_sets: std::sync::Mutex<
        BTreeMap<String, Arc<std::result::Result<crate::validation::SchemaSet, String>>>,
    >,
}

impl Frame {
    pub fn new(snapshot: Arc<dyn Snapshot>) -> Self {
        Frame {
            schema_sets: std::sync::Mutex::default(),
            label: snapshot.label(),
            commit: snapshot.commit(),
            constants: Constants::new(Arc::clone(&snapshot)),
            snapshot,
        }
    }
}

/// A fact's frame, resolved: a revision, or a day on the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum At {
    Rev(String),
    Date(Day),
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Rev(rev) => f.write_str(rev),
            At::Date(day) => write!(f, "{day}"),
        }
    }
}

/// Every fact's frame: the audited snapshot, or the commit its `at` names
/// (each distinct frame read once), or why that does not resolve.
/// `facts` gives each fact's rule file and its `at`, in the plan's order.
pub(crate) fn frames_of<'p>(
    facts: impl ExactSizeIterator<Item = (usize, Option<&'p toml::Spanned<At>>)>,
    frames: &mut Frames<'_>,
) -> Vec<FactFrame> {
    let mut frame_of = Vec::with_capacity(facts.len());
    for (origin, at) in facts {
        let frame = match at {
            None => FactFrame::Resolved(frames.audited()),
            Some(at) => {
                let request = match at.get_ref() {
                    At::Rev(rev) => FrameRequest::Rev(rev),
                    At::Date(day) => FrameRequest::Date(*day),
                };
                let site = FrameSite::Rule {
                    origin,
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
    /// The commit that wrote the passage (or the rule's `at`) into its file,
    /// standing in for a commit that is gone (see [`Frames::stand_in`]).
    pub stood_in: Option<String>,
}

/// What stands in for a gone commit a file names: the commit that wrote it
/// there, found in the history; or why none can.
#[derive(Debug, Clone)]
enum StandIn {
    /// The commit that wrote it, and which wrote no frame naming another
    /// gone commit into the file.
    Writer(String),
    /// The commit that wrote it also wrote frames naming other gone
    /// commits: it is the tree of at most one of them.
    Shared { writer: String, others: Vec<String> },
    /// No commit of the audited line wrote it (not committed yet, or the
    /// file is not the repository's).
    Unwritten,
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

impl<'a> FrameRequest<'a> {
    /// What a record's declared frame asks for: its sha, else its day.
    pub(crate) fn declared(d: &'a crate::records::frames::DeclaredFrame) -> Option<Self> {
        match (&d.sha, &d.date) {
            (Some((sha, _)), Some((day, _))) => Some(FrameRequest::RevElseDate(sha, *day)),
            (Some((sha, _)), None) => Some(FrameRequest::Rev(sha)),
            (None, Some((day, _))) => Some(FrameRequest::Date(*day)),
            (None, None) => None,
        }
    }
}

/// Drops a record's all-digit "shas" that name no commit here: numbers
/// (`measured at 1000000 requests`), not frames; and a front matter's commit
/// that names none here (another project's, a vendored copy's upstream).
pub(crate) fn drop_numbers(frames: &mut Frames<'_>, declared: &mut RecordFrames) {
    use crate::records::frames::Declaration;
    declared.retain(|d| match &d.sha {
        Some((sha, _)) if d.numeric() || d.by == Declaration::FrontMatter => {
            frames.lookup(sha).is_ok()
        }
        _ => true,
    });
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
    /// The main line's last commit by the end of each day asked (`None`:
    /// none by then), so a day many passages name walks the line once.
    by_day: BTreeMap<Day, Option<String>>,
    uses: Vec<FrameUse>,
    /// Each rule file's path in the repository, by origin (`None`: a shipped
    /// pack, or a file outside the repository).
    rule_files: Vec<Option<String>>,
    /// What stands in for each gone commit, by the file naming it and the
    /// commit as written.
    stand_ins: BTreeMap<(String, String), StandIn>,
}

impl<'r> Frames<'r> {
    pub(crate) fn new(repo: &'r GitRepo, audited: Arc<Frame>, main_line: String) -> Self {
        Frames {
            repo,
            audited,
            main_line,
            by_commit: BTreeMap::new(),
            by_day: BTreeMap::new(),
            uses: Vec::new(),
            rule_files: Vec::new(),
            stand_ins: BTreeMap::new(),
        }
    }

    /// Each rule file's path in the repository, by origin: where a gone
    /// commit a rule's `at` names is looked for in the history.
    pub(crate) fn with_rule_files(mut self, rule_files: Vec<Option<String>>) -> Self {
        self.rule_files = rule_files;
        self
    }

    /// What stands in for `rev`, a commit the repository does not have,
    /// named at `site`: the commit of the audited first-parent line (HEAD's,
    /// for the working tree) that wrote `rev` into the file — for a
    /// squash-merged branch, the merge that brought the measured tree — unless
    /// that commit also wrote frames naming other gone commits into the file
    /// (several measurements on branch commits, landed at once: it is the
    /// tree of at most one of them, so it stands in for none).
    fn stand_in(&mut self, rev: &str, site: &FrameSite) -> StandIn {
        let path = match site {
            FrameSite::Record { path, .. } => Some(path.clone()),
            FrameSite::Rule { origin, .. } => self.rule_files.get(*origin).cloned().flatten(),
        };
        let Some(path) = path.filter(|p| !p.is_empty()) else {
            return StandIn::Unwritten;
        };
        let key = (path.clone(), rev.to_owned());
        if let Some(known) = self.stand_ins.get(&key) {
            return known.clone();
        }
        let from = match &self.audited.commit {
            Some(commit) => self.repo.commit_id(commit),
            None => self.repo.commit_id("HEAD"),
        };
        let found = match from.and_then(|from| self.repo.writing_commit(from, &path, rev)) {
            None => StandIn::Unwritten,
            Some(writer) => {
                let (before, after) = self.repo.file_before_and_after(writer, &path);
                let rule_file = matches!(site, FrameSite::Rule { .. });
                let earlier = frame_ids(&before, rule_file);
                let others: Vec<String> = frame_ids(&after, rule_file)
                    .into_iter()
                    .filter(|t| !earlier.contains(t))
                    .filter(|t| !t.starts_with(rev) && !rev.starts_with(t.as_str()))
                    .filter(|t| {
                        matches!(
                            self.repo.resolve(t).map_err(|e| e.frame_failure()),
                            Err(FrameFailure::UnknownObject)
                        )
                    })
                    .collect();
                if others.is_empty() {
                    StandIn::Writer(writer.to_string())
                } else {
                    StandIn::Shared {
                        writer: writer.to_string(),
                        others,
                    }
                }
            }
        };
        self.stand_ins.insert(key, found.clone());
        found
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

    /// The frame `request` names in `record` and its commit, without
    /// recording a use (a record's frame marker is recorded where the
    /// citations read it).
    pub(crate) fn quietly(
        &mut self,
        request: FrameRequest<'_>,
        record: &str,
    ) -> Result<(String, Arc<Frame>), FrameFailure> {
        let (found, _) = self.quietly_told(request, record);
        let frame = found?;
        let commit = frame.commit.clone().unwrap_or_default();
        Ok((commit, frame))
    }

    /// [`Frames::quietly`], with the use it would have recorded: which commit
    /// stood in for a gone one, or which day chose it.
    pub(crate) fn quietly_told(
        &mut self,
        request: FrameRequest<'_>,
        record: &str,
    ) -> (Result<Arc<Frame>, FrameFailure>, Option<FrameUse>) {
        let before = self.uses.len();
        let found = self.at(
            request,
            FrameSite::Record {
                path: record.to_owned(),
                span: 0..0,
            },
        );
        let used = self.uses.get(before).cloned();
        self.uses.truncate(before);
        (found, used)
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
        let mut stood_in = None;
        // A gone commit that a shared writer cannot stand in for is not
        // given the date either: the day's main line is not what was measured.
        let mut no_stand_in = false;
        if let Some(rev) = by_rev {
            match self.lookup(rev) {
                Ok(hit) => found = Some(hit),
                // Gone for good (a squash-merged or rebased branch): the
                // commit that wrote it stands in. A shallow clone's missing
                // commit is fetched, not stood in for.
                Err(e) if e.frame_failure() == FrameFailure::UnknownObject => {
                    match self.stand_in(rev, &site) {
                        StandIn::Writer(writer) => {
                            if let Ok(hit) = self.lookup(&writer) {
                                found = Some(hit);
                                stood_in = Some(writer);
                            }
                            failure = Some(FrameFailure::UnknownObject);
                        }
                        StandIn::Shared { writer, others } => {
                            no_stand_in = true;
                            failure = Some(FrameFailure::SharedWriter { writer, others });
                        }
                        StandIn::Unwritten => failure = Some(FrameFailure::UnknownObject),
                    }
                }
                Err(e) => failure = Some(e.frame_failure()),
            }
        }
        if found.is_none()
            && !no_stand_in
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
            stood_in,
        });
        frame
    }

    /// The last commit of the main line by the end of `day`, read once.
    fn by_day(&mut self, day: Day) -> Result<(String, Arc<Frame>), FrameFailure> {
        let no_commit = || FrameFailure::NoCommitByDate {
            main: self.main_line.clone(),
            shallow: self.repo.is_shallow(),
        };
        let commit = match self.by_day.get(&day) {
            Some(known) => known.clone(),
            None => {
                let found = self
                    .repo
                    .last_commit_by(&self.main_line, day)
                    .map_err(|e| {
                        FrameFailure::Other(format!(
                            "the main line `{}` does not resolve: {e}",
                            self.main_line
                        ))
                    })?;
                self.by_day.insert(day, found.clone());
                found
            }
        }
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

    /// Every frame use, with whether it is an ancestor of `[recount].main`
    /// (`main`: the rule file that names it, and the revision).
    pub(crate) fn reachability(
        self,
        main: Option<(&RuleSource, &toml::Spanned<String>)>,
    ) -> Result<Vec<FrameUse>> {
        let Some((source, main)) = main else {
            return Ok(self.uses);
        };
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

/// Each rule file's path inside the repository, from the names reports show
/// (repository-relative when inside it): `None` for a shipped pack or a file
/// outside the repository.
pub(crate) fn in_repository(shown: impl Iterator<Item = String>) -> Vec<Option<String>> {
    shown
        .map(|p| {
            Some(p).filter(|p| {
                !p.starts_with("pack:")
                    && !std::path::Path::new(p).is_absolute()
                    && !p.starts_with("..")
            })
        })
        .collect()
}

/// The commit ids a file names as frames: a record's "measured at" markers
/// (the default pattern's `sha`), a rule file's `at = "…"`.
fn frame_ids(text: &str, rule_file: bool) -> std::collections::BTreeSet<String> {
    static MARKER: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    static AT: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let pattern = if rule_file {
        AT.get_or_init(|| {
            regex::Regex::new(r#"(?m)^[ \t]*at[ \t]*=[ \t]*["'](?<sha>[0-9a-f]{7,40})["']"#).ok()
        })
    } else {
        MARKER.get_or_init(|| regex::Regex::new(crate::records::frames::DEFAULT_FRAME_PATTERN).ok())
    };
    let Some(pattern) = pattern else {
        return Default::default();
    };
    pattern
        .captures_iter(text)
        .filter_map(|c| c.name("sha"))
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// A note for every frame chosen by date: which commit the day named, and,
/// where a record's sha is gone, that its date stood in for it; and for every
/// gone commit the commit that wrote it stood in for.
pub(crate) fn date_notes(uses: &[FrameUse], source_paths: &[String]) -> Vec<String> {
    uses.iter()
        .filter_map(|u| {
            let commit = u.commit.as_deref()?;
            let short = &commit[..commit.len().min(12)];
            let place = match &u.site {
                FrameSite::Rule { origin, .. } => {
                    source_paths.get(*origin).cloned().unwrap_or_default()
                }
                FrameSite::Record { path, .. } => path.clone(),
            };
            if u.stood_in.is_some() {
                let what = match u.site {
                    FrameSite::Rule { .. } => "this `at`",
                    FrameSite::Record { .. } => "this passage",
                };
                return Some(format!(
                    "{place}: `{}` is not in this repository (unknown object: a squash-merged or \
                     rebased branch's commit); measured here at {short}, the commit that wrote \
                     {what} into {place}",
                    u.rev
                ));
            }
            let day = u.by_date?;
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
