//! Stage 4, the citation family: where one citation is read. A citation
//! names what a reader opens today, so it is read at the audited tree; the
//! line numbers a passage states are a measurement, read at the frame its
//! section declares; a link pinned to a commit or a tag is read there; a
//! changelog's newest release at its tag, an earlier release not at all
//! (`earlier-release`). A frame this clone lacks leaves the cite unverified.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::cfg::CitesPlan;
use super::exemptions::{Exemption, earlier_release};
use super::find::{Cite, CiteKind};
use super::model::{CiteStatus, ResolvedCite};
use super::releases::{self, Release, is_changelog, release_name};
use crate::frames::{Frame, FrameRequest, FrameSite, Frames};
use crate::records::Record;
use crate::records::frames::RecordFrames;

/// The tree a changelog's newest release is read against, and the tag that
/// named it (none for a release still being drafted).
type ReleaseFrame = (Arc<Frame>, Option<String>);

/// Where a cite is read, or its status when that is settled already.
pub(super) enum Placed {
    At {
        frame: Arc<Frame>,
        /// What set the frame, when it is not the audited tree.
        frame_from: Option<String>,
        /// The tag or ref the frame was named by, for the finding to say.
        tag: Option<String>,
        /// The earlier release whose notes hold a cross-reference read in
        /// today's build.
        earlier_notes: Option<String>,
    },
    /// Not read: an earlier release's entry, or under a frame this clone
    /// lacks.
    Settled(Box<ResolvedCite>),
}

/// A project's front page or a docs index: its headings may list releases
/// without it being their notes.
fn sphinx_or_md_index(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    ["readme", "index"].contains(&stem)
}

/// One record's frames: those its sections declare, each resolved once, and
/// its release sections with the frame each is read at.
pub(super) struct RecordPlaces<'a> {
    settings: &'a CitesPlan,
    audited: &'a Arc<Frame>,
    /// The repository's tags, for a release's.
    tags: &'a [String],
    path: String,
    /// Every frame the record names, by key: as shown, and resolved (or why
    /// not). A frame use whether or not a cite sits under it, so a section
    /// measured at a commit that never landed is reported.
    marked: BTreeMap<String, (String, Result<Arc<Frame>, String>)>,
    declared: RecordFrames,
    /// A changelog's release sections; for a page that is one release's
    /// notes (`whatsnew-3.1.rst`), one section, the whole page.
    sections: Vec<Release>,
    /// The record is one release's notes page, not a changelog of many.
    release_page: bool,
    /// The section of `sections` that is the page's own release, when it is
    /// a release's page: read as the newest, wherever it is listed.
    page_section: Option<usize>,
    /// The record is a changelog, by its name or its release headings.
    changelog: bool,
    /// The record is a page of a Sphinx project, whose cross-references
    /// (`:ref:`, `:doc:`, includes, images) today's build resolves, in every
    /// page, a release's too.
    sphinx: bool,
    /// The whole record is an earlier release's notes.
    earlier_file: bool,
    /// Per section: its frame and tag, or the status an earlier release's
    /// cites get; read only when a cite of the section needs it.
    release_frames: BTreeMap<usize, Result<ReleaseFrame, CiteStatus>>,
    /// The earlier releases whose cites were set aside, with their counts.
    pub(super) earlier: Vec<(String, usize)>,
    /// The record's lines (trimmed) at each release tag a link was read at
    /// (`None` when the record was not there): a line it lacks came after.
    lines_at_tag: BTreeMap<String, Option<std::collections::HashSet<String>>>,
}

impl<'a> RecordPlaces<'a> {
    /// Reads the frames a record declares (`declared`, as `RecordFrames::read`
    /// found them; each recorded as a frame use) and its release sections.
    pub(super) fn read(
        frames: &mut Frames<'_>,
        (settings, audited, tags): (&'a CitesPlan, &'a Arc<Frame>, &'a [String]),
        path: &str,
        record: &Record,
        (earlier_file, sphinx): (bool, bool),
        mut declared: RecordFrames,
    ) -> RecordPlaces<'a> {
        // A frame that does not resolve is a frame-unresolved finding, and
        // the cites under it are unverified; a sha that is gone falls back to
        // the date the marker gives ("measured on 2026-09-13 against
        // be977ea7").
        let mut marked = BTreeMap::new();
        crate::frames::drop_numbers(frames, &mut declared);
        for d in declared.declared() {
            let Some(request) = FrameRequest::declared(d) else {
                continue;
            };
            let (shown, span) = d.shown();
            let site = FrameSite::Record {
                path: path.to_owned(),
                span,
            };
            let outcome = frames
                .at(request, site)
                .map_err(|failure| failure.explain(&shown));
            marked.entry(d.key()).or_insert_with(|| (shown, outcome));
        }
        // A changelog by its name, or by what it holds: a page whose headings
        // name two releases or more that the tags bear out (`whats-new.rst`
        // with `v2024.05.0 (May 2024)` sections) is one, whatever its name.
        let mut sections = releases::releases(&record.text, record.markdown());
        let tagged = sections
            .iter()
            .filter(|r| releases::tag_of(&r.version, tags).is_some())
            .count();
        // An index titled for the changes (cvxpy's `updates/index.rst`,
        // "Changes to CVXPY") is one too.
        let changelog = is_changelog(path)
            || (tagged >= 2
                && (!sphinx_or_md_index(path)
                    || releases::titled_as_changes(&record.text, record.markdown())));
        if !changelog {
            sections.clear();
        }
        // A page of one release's notes (`whatsnew-3.1.rst`, a
        // `changelog-1.0.rst` of the 1.0 line's releases) is one section when
        // it has no release headings of its own.
        // A page named for a release the tags bear out (`version0.11.rst`,
        // `github-stats-0.13.rst`, `2.1.md`) is that release's page, whatever
        // its folder.
        let page = (!earlier_file)
            .then(|| {
                // An upgrade guide whose name gives the release it leads to
                // (`upgrade-guide-from-2.15.x-to-3.0.0.md`), its translations
                // too: that release's page.
                releases::upgrade_target(path)
                    .filter(|v| releases::page_tag(v, tags).is_some())
                    .or_else(|| releases::release_page(path, &record.text, record.markdown()))
                    .or_else(|| {
                        releases::version_named(path)
                            .filter(|v| releases::page_tag(v, tags).is_some())
                    })
                    // A guide to migrating to a release that a later major
                    // release followed (`Migrating to v0.10.0` in a project
                    // at 2.x) is that release's page, no longer kept current.
                    .or_else(|| {
                        releases::upgrade_guide(path, &record.text)
                            .then(|| {
                                releases::earlier_major_title(
                                    crate::checks::cites::exemptions::head_of(&record.text, 4096),
                                    tags,
                                )
                            })
                            .flatten()
                            .map(|(_, version)| version)
                    })
            })
            .flatten();
        let release_page = page.is_some();
        // The page's own release is its text before its first release
        // heading: the whole page, or the part above the notes of its
        // point releases (`v1.9` over "Bugs fixed in v1.9.1"), which is
        // the release the page is named for, read at that release's tag.
        let mut page_section = None;
        if let Some(version) = page {
            let first = sections.first().map_or(record.text.len(), |s| s.span.start);
            if first > 0 && !sections.iter().any(|s| s.version == version) {
                page_section = Some(sections.len());
                sections.push(Release {
                    span: 0..first,
                    version,
                });
            }
        }
        RecordPlaces {
            settings,
            audited,
            tags,
            path: path.to_owned(),
            marked,
            declared,
            sections,
            release_page,
            page_section,
            changelog,
            sphinx,
            earlier_file,
            release_frames: BTreeMap::new(),
            earlier: Vec::new(),
            lines_at_tag: BTreeMap::new(),
        }
    }

    /// Whether the record is release notes: a changelog, or one release's
    /// page.
    pub(super) fn release_notes(&self) -> bool {
        self.release_page || self.changelog
    }

    /// Where one cite of the record is read.
    pub(super) fn place(
        &mut self,
        frames: &mut Frames<'_>,
        cite: &Cite,
        record: &Record,
    ) -> Placed {
        // Today's build resolves a Sphinx page's cross-references, whatever
        // release the page records; a release's own page (a migration guide
        // to 14, the notes of 2.0) links pages a reader opens today, while
        // the code it names is that release's. A link to the forge's page of
        // a file is no cross-reference: the build leaves it as written, and
        // it is read as the release's other citations are. Nor is a
        // reStructuredText hyperlink (`Walkthrough <walkthrough.html>`_):
        // docutils writes its target as it is, where MyST resolves a
        // Markdown page's link to a document as a cross-reference, and
        // Sphinx copies a `:download:` role's file at every build.
        let built = match &cite.kind {
            CiteKind::Label { .. } => self.sphinx || self.release_page,
            CiteKind::Link { .. } if cite.hosted => false,
            CiteKind::Link { target, .. } => {
                (self.sphinx
                    && (!crate::records::rst::is_rst(&self.path)
                        || download_role(&record.text, cite.span.start)))
                    || (self.release_page && crate::checks::cites::anchors::is_page(target))
            }
            _ => false,
        };
        // A link to the repository's hosted page on its default branch
        // (`…/tree/master/crates/x`) opens today's tree, in the newest
        // release's notes too; an earlier release's entry stays history,
        // and so does the page of a release a later one followed.
        let on_default_branch = cite.hosted && cite.frame.is_none();
        // A link to release notes (`../CHANGELOG.md#090` in an earlier
        // release's section of a breaking-changes page) opens notes that are
        // kept as they were: history is what the link sits in, not what it
        // opens, so a reader follows it today and it is read in today's tree.
        let to_notes = match &cite.kind {
            CiteKind::Link { target, .. } if !cite.hosted => {
                let target = if target.is_empty() {
                    &self.path
                } else {
                    target
                };
                is_changelog(target) || releases::release_file(target).is_some()
            }
            _ => false,
        };
        let release = if built || to_notes {
            None
        } else {
            match self.release_of(frames, cite) {
                Some((Ok(_), version))
                    if on_default_branch
                        && self.release_page
                        && releases::superseded(&version, self.tags) =>
                {
                    if let Some(status) =
                        self.settings.exemptions.ask(Exemption::EarlierRelease, || {
                            earlier_release::followed(&version)
                        })
                    {
                        return self.earlier_release(self.audited, cite, version, status);
                    }
                    None
                }
                Some((Ok(_), _)) if on_default_branch => None,
                // A link the page gained after the release was tagged (an
                // image added to the release's article the next day) is one
                // a reader opens today, no part of what the release shipped:
                // it is read in the audited tree. A path the prose names
                // stays a claim about the release, read at its tag.
                Some((Ok((frame, Some(tag))), _))
                    if matches!(cite.kind, CiteKind::Link { .. })
                        && self.written_after(&frame, &tag, cite, record) =>
                {
                    None
                }
                other => other,
            }
        };
        let audited = self.audited;
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
            .and_then(|(f, _)| f.as_ref().ok()?.1.clone())
            .or(pin);
        // The line numbers a passage states are a measurement: they are
        // read at its frame, as a pinned link is at its ref.
        let governing = self
            .declared
            .at(cite.span.start)
            .filter(|_| !cite.hosted && matches!(cite.kind, CiteKind::Line { .. }));
        let frame_from =
            governing.map(|d| format!("{} at line {}", d.by.as_str(), record.line_col(d.at).0));
        let frame_key = match governing {
            Some(d) => Some(d.key()),
            None => cite.frame.clone().filter(|_| cite.hosted),
        };
        // A link to a branch opens whatever the branch holds today, so in an
        // earlier release's entry it is history like a default-branch link:
        // only a commit or a tag pins what the release pointed at.
        let on_branch = governing.is_none()
            && cite.hosted
            && cite.frame.as_deref().is_some_and(|rev| {
                rev.starts_with("refs/heads/") || rev.starts_with("refs/remotes/")
            });
        if on_branch && let Some((Err(earlier), version)) = release {
            return self.earlier_release(audited, cite, version, earlier);
        }
        let frame = match frame_key.as_deref() {
            None => match release {
                None => Arc::clone(audited),
                Some((Ok((frame, _)), _)) => frame,
                Some((Err(earlier), version)) => {
                    return self.earlier_release(audited, cite, version, earlier);
                }
            },
            Some(key) => match self.framed(frames, cite, key, frame_from.clone()) {
                Ok(frame) => frame,
                Err(settled) => return Placed::Settled(settled),
            },
        };
        // A cross-reference in an earlier release's notes is read in
        // today's build, but one that never resolved there never drifted.
        let earlier_notes = built
            .then(|| self.section_of(cite))
            .flatten()
            .filter(|(_, earlier)| *earlier)
            .map(|(i, _)| self.version_of(i));
        Placed::At {
            frame,
            frame_from,
            tag,
            earlier_notes,
        }
    }

    /// The release section a cite sits in (`usize::MAX` for an earlier
    /// release's own notes file), and whether that release is an earlier
    /// one than the page's newest.
    fn section_of(&self, cite: &Cite) -> Option<(usize, bool)> {
        let i = self
            .sections
            .iter()
            .position(|r| r.span.contains(&cite.span.start))
            // A release page's text after its point releases' notes (iris'
            // `v3.0` page: highlights, the v3.0.1 … v3.0.4 fixes, then the
            // 3.0 features) is the page's own release too.
            .or(self.page_section)
            .or(self.earlier_file.then_some(usize::MAX))?;
        let newest = if self.page_section == Some(i) { 0 } else { i };
        Some((i, newest > 0 || self.earlier_file))
    }

    /// The release of section `i`, as [`Self::section_of`] numbers them.
    fn version_of(&self, i: usize) -> String {
        self.sections
            .get(i)
            .map_or_else(|| release_name(&self.path), |r| r.version.clone())
    }

    /// The release section a cite sits in (or the earlier release the whole
    /// record is), with its frame: `None` inside for an earlier release.
    fn release_of(
        &mut self,
        frames: &mut Frames<'_>,
        cite: &Cite,
    ) -> Option<(Result<ReleaseFrame, CiteStatus>, String)> {
        let (settings, audited, tags) = (self.settings, self.audited, self.tags);
        let (i, _) = self.section_of(cite)?;
        let version = self.version_of(i);
        let (sections, earlier_file, page) = (&self.sections, self.earlier_file, self.release_page);
        let newest = if self.page_section == Some(i) { 0 } else { i };
        let frame = self.release_frames.entry(i).or_insert_with(|| {
            // The newest release is read at its tag (or, untagged, as the
            // release being drafted, against the tree); an earlier release's
            // notes are history nobody revises.
            if let Some(earlier) = settings.exemptions.ask(Exemption::EarlierRelease, || {
                earlier_release::fires(newest, earlier_file, &version)
            }) {
                return Err(earlier);
            }
            let version = sections.get(i).map(|s| s.version.as_str());
            let tag_of = if page {
                releases::page_tag
            } else {
                releases::tag_of
            };
            let at_tag = version.and_then(|v| tag_of(v, tags)).and_then(|tag| {
                let (_, frame) = frames.lookup(tag).ok()?;
                Some((frame, Some(tag.to_owned())))
            });
            // A release page whose release shipped with no tag here to read
            // it at: its mentions of the API are of that release, history.
            if at_tag.is_none()
                && page
                && let Some(untagged) =
                    version
                        .filter(|v| releases::shipped(v, tags))
                        .and_then(|v| {
                            settings
                                .exemptions
                                .ask(Exemption::EarlierRelease, || earlier_release::untagged(v))
                        })
            {
                return Err(untagged);
            }
            Ok(at_tag.unwrap_or_else(|| (Arc::clone(audited), None)))
        });
        Some((frame.clone(), version))
    }

    /// Whether the record was at the release's `tag` without the line that
    /// holds the cite: the line came after the release. A record the tag
    /// lacks says nothing of when its lines came (notes written after the
    /// tag). The tag's lines are read once, into a set: each link asks it
    /// in the time its own line takes.
    fn written_after(&mut self, frame: &Frame, tag: &str, cite: &Cite, record: &Record) -> bool {
        let line = record.line_at(cite.span.start).trim();
        if line.is_empty() {
            return false;
        }
        let path = &self.path;
        let then = self.lines_at_tag.entry(tag.to_owned()).or_insert_with(|| {
            let text = frame.snapshot.read_text(path).ok().flatten()?;
            Some(text.lines().map(|l| l.trim().to_owned()).collect())
        });
        then.as_ref().is_some_and(|then| !then.contains(line))
    }

    /// An earlier release's cite: not checked, counted in the run's note.
    fn earlier_release(
        &mut self,
        audited: &Frame,
        cite: &Cite,
        version: String,
        status: CiteStatus,
    ) -> Placed {
        match self.earlier.iter_mut().find(|(v, _)| *v == version) {
            Some((_, count)) => *count += 1,
            None => self.earlier.push((version.clone(), 1)),
        }
        Placed::Settled(Box::new(ResolvedCite::unjudged(
            &self.path,
            cite,
            audited.label.clone(),
            status,
        )))
    }

    /// The frame a declared marker or a pinned link names: resolved (and
    /// recorded) with the record's frames, else looked up; a frame this
    /// clone lacks settles the cite as unverified.
    fn framed(
        &self,
        frames: &mut Frames<'_>,
        cite: &Cite,
        key: &str,
        frame_from: Option<String>,
    ) -> Result<Arc<Frame>, Box<ResolvedCite>> {
        match self.marked.get(key) {
            Some((_, Ok(frame))) => Ok(Arc::clone(frame)),
            Some((rev, Err(why))) => {
                let mut unread = ResolvedCite::unjudged(
                    &self.path,
                    cite,
                    rev.clone(),
                    CiteStatus::Unverified { why: why.clone() },
                );
                unread.frame_from = frame_from;
                Err(Box::new(unread))
            }
            // A link pinned to a commit or tag: that tree, when this clone
            // has it.
            None => frames
                .lookup(key)
                .map(|(_, frame)| frame)
                .map_err(|failure| {
                    Box::new(ResolvedCite::unjudged(
                        &self.path,
                        cite,
                        key.to_owned(),
                        CiteStatus::Unverified {
                            why: format!(
                                "the link shows `{key}`, which this clone does not have ({})",
                                failure.frame_failure().explain(key)
                            ),
                        },
                    ))
                }),
        }
    }
}

/// Whether the link at `at` is a `:download:` role's target (the role, its
/// backtick, then the title and `<`, or the path alone), as its line shows.
fn download_role(text: &str, at: usize) -> bool {
    let Some(before) = text.get(..at) else {
        return false;
    };
    let line = before.rsplit('\n').next().unwrap_or(before);
    line.rfind('`')
        .is_some_and(|tick| line[..tick].ends_with(":download:"))
}
