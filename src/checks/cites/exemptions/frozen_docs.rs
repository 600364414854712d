//! Exemption `frozen-docs`, decided where records are chosen (`scope.rs`
//! asks it): a documentation version a release shipped, kept beside the
//! current docs, is history. The tree's own shape: the history does not
//! overrule it.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use regex::Regex;

use super::snapshot_page::INDEX_NAMES;
use super::{Applies, Definition};
use crate::snapshot::Snapshot;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record in a shipped documentation version (every `versioned_docs/version-1.2/` of Docusaurus, which writes the current docs elsewhere; an older `content/v0.9/` beside `latest/` or a newer version, and the newest of a series too, `implementation/v0.4/` beside `v0.3/`, once the tags bear out a later release, `v0.5.1`): the docs as a release shipped them, history. Likewise a record in a folder the project keeps its retired pages in (a word of its name is `archive`, `archived`, `archives`, `old`, `attic`, `obsolete`, `legacy` or `defunct`: `archive/`, `archived_notes/`, `design/defunct/`), or a site's dated post (`content/posts/2020-09-16-x.md`, `_posts/`, a `blog/` post named for its day: news as published), or in the finished column of a work board (`tasks/completed/` beside `tasks/active/` or `tasks/backlog/`: a folder named `completed`, `done`, `finished` or `closed` beside one named for open work), or in a change folder that holds its own archiving report (`docs/changes/export/archive-report.md`, an `ARCHIVED.md`: a workflow closed the change when its work landed), or a page whose own address its mdBook's redirect table (`[output.html.redirect]` in `book.toml`) sends elsewhere, so the book no longer builds it, or under a folder whose own index (its `README.md`, `index.md`, …; never the repository's root README) says near its top that its pages are no longer maintained or are its archive (\"This specification is not maintained. See …\", \"They … may not be up-to-date\", \"Everything below is … possibly out of date\", \"This list is currently frozen\", \"kept for historical reference only\", \"This directory is the archive for …\", \"This documentation has moved to …\"), or that a page of a folder above it says the project archived its material there (\"v1.0 and v1.1 complete and archived under `.planning/milestones/`\", \"all phase directories archived under `milestones/v1.3-*`\"). Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Folders that hold a project's retired pages.
const ARCHIVE_FOLDERS: &[&str] = &[
    "archive", "archived", "archives", "old", "attic", "obsolete", "legacy", "defunct",
];

/// Whether a folder's name says it keeps retired pages: a word of it is
/// one of [`ARCHIVE_FOLDERS`] (`archived_notes/`, `old-docs/`,
/// `notes-archive/`, `.archive/`), but `archive` leading other words is a
/// verb naming what the folder does (`archive-history/` holds a tool that
/// archives), not what it keeps.
pub(crate) fn is_archive_folder(folder: &str) -> bool {
    let folder = folder.to_ascii_lowercase();
    let words: Vec<&str> = folder
        .split(['_', '-', '.'])
        .filter(|word| !word.is_empty())
        .collect();
    words.iter().enumerate().any(|(at, word)| {
        ARCHIVE_FOLDERS.contains(word) && (*word != "archive" || at + 1 == words.len())
    })
}

/// The version folders under one parent, by version (and name: `v0.3.4a`
/// and `v0.3.4b` are both 0.3.4), each folder's name.
type VersionFolders = BTreeMap<(Vec<u64>, String), String>;

/// The records of documentation versions a site keeps frozen beside the
/// current one (`site/content/en/v1.6/…` beside `…/latest/`, Docusaurus'
/// `versioned_docs/version-2.0/…`): each is the docs as that release shipped
/// them, history no one revises. Where a `latest`, `next`, `current` or `main`
/// folder sits beside the versions, every version is history; otherwise all
/// but the newest, and the newest too once `tags` bear out a later release
/// (`implementation/version/v0.4/` with `v0.5.1` tagged).
pub(crate) fn older_doc_versions(
    records: &[String],
    tags: &[String],
) -> std::collections::BTreeSet<String> {
    fn version_of(segment: &str) -> Option<Vec<u64>> {
        let digits = segment.strip_prefix("version-").unwrap_or(segment);
        let digits = digits.strip_prefix('v').unwrap_or(digits);
        // `1.0.0-beta.10`: a pre-release is a version too.
        let digits = digits
            .split_once('-')
            .map_or(digits, |(release, _)| release);
        let last = digits.split('.').count().saturating_sub(1);
        // `version-v3.13.x`: a release line, its patch level open; `0.3.4b`,
        // a lettered step of 0.3.4.
        let parts: Option<Vec<u64>> = digits
            .split('.')
            .enumerate()
            .map(|(i, p)| match p {
                "x" | "X" if i > 0 => Some(0),
                _ if i == last && i > 0 => {
                    let number = p.trim_end_matches(|c: char| c.is_ascii_lowercase());
                    (number.len() + 1 >= p.len())
                        .then(|| number.parse().ok())
                        .flatten()
                }
                _ => p.parse().ok(),
            })
            .collect();
        parts.filter(|p| p.len() >= 2)
    }
    // The released versions the tags name (`v0.5.1`, `1.2.0`; not a
    // pre-release).
    let released: Vec<Vec<u64>> = tags
        .iter()
        .filter_map(|tag| {
            let name = tag.rsplit('/').next().unwrap_or(tag);
            let digits = name.strip_prefix('v').unwrap_or(name);
            let parts: Option<Vec<u64>> = digits.split('.').map(|p| p.parse().ok()).collect();
            parts.filter(|p| p.len() >= 2)
        })
        .collect();
    // A version a later release followed: a tag's version, cut to as many
    // numbers as the folder's, is greater (`0.5` after `v0.4`; `2.3.1` is
    // of the `v2.3` line).
    let followed = |version: &[u64]| {
        released.iter().any(|tag| {
            tag.iter()
                .take(version.len())
                .copied()
                .collect::<Vec<_>>()
                .as_slice()
                > version
        })
    };
    // Per parent folder: the version folders under it, and whether a current one is there.
    let mut parents: BTreeMap<String, (VersionFolders, bool)> = BTreeMap::new();
    for record in records {
        let segments: Vec<&str> = record.split('/').collect();
        for (i, segment) in segments
            .iter()
            .enumerate()
            .take(segments.len().saturating_sub(1))
        {
            let parent = segments[..i].join("/");
            if let Some(version) = version_of(segment) {
                parents
                    .entry(parent)
                    .or_default()
                    .0
                    .insert((version, (*segment).to_owned()), (*segment).to_owned());
            } else if ["latest", "next", "current", "main", "master"].contains(segment) {
                parents.entry(parent).or_default().1 = true;
            }
        }
    }
    let mut frozen = std::collections::BTreeSet::new();
    // A folder the project keeps its retired pages in (`docs/archive/`,
    // `docs/old/`): kept for the record, no longer maintained.
    frozen.extend(
        records
            .iter()
            .filter(|r| {
                // A word of the folder's name counts (`archived_notes/`,
                // `old-docs/`, `notes-archive/`), but `archive` leading
                // other words is a verb naming what the folder does
                // (`archive-history/` holds a tool that archives), not
                // what it keeps.
                r.split('/').rev().skip(1).any(is_archive_folder)
            })
            .cloned(),
    );
    frozen.extend(finished_work(records));
    frozen.extend(archived_changes(records));
    frozen.extend(records.iter().filter(|r| dated_post(r)).cloned());
    for (parent, (versions, has_current)) in parents {
        let docusaurus = parent.rsplit('/').next() == Some("versioned_docs");
        if versions.is_empty() || (versions.len() < 2 && !has_current && !docusaurus) {
            continue;
        }
        // Docusaurus keeps the docs being written elsewhere (`docs/`): every
        // version under `versioned_docs/` is one a release shipped.
        let docusaurus = parent.rsplit('/').next() == Some("versioned_docs");
        let keep = if has_current || docusaurus {
            None
        } else {
            versions
                .iter()
                .next_back()
                .filter(|((version, _), _)| !followed(version))
                .map(|(_, folder)| folder.clone())
        };
        for folder in versions.values().filter(|f| Some(*f) != keep.as_ref()) {
            let prefix = if parent.is_empty() {
                format!("{folder}/")
            } else {
                format!("{parent}/{folder}/")
            };
            frozen.extend(records.iter().filter(|r| r.starts_with(&prefix)).cloned());
        }
    }
    frozen
}

/// Whether `record` is a site's dated post (`content/posts/2020-09-16-x.md`,
/// Jekyll's `_posts/`, Docusaurus' `blog/`): a folder of posts or a blog,
/// and a file named for its day, as those renderers date a post by its
/// name. News of that day, published as it was.
pub(crate) fn dated_post(record: &str) -> bool {
    named_for_its_day(record) && in_posts(record)
}

/// Whether `record`'s file name begins with a day (`2026-06-11-x.md`).
pub(crate) fn named_for_its_day(record: &str) -> bool {
    let name = record.rsplit('/').next().unwrap_or(record);
    name.len() > 11
        && name.as_bytes()[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Whether `record` sits under a site's folder of posts or its blog.
fn in_posts(record: &str) -> bool {
    record.rsplit('/').skip(1).any(|folder| {
        matches!(
            folder.to_ascii_lowercase().as_str(),
            "posts" | "_posts" | "blog" | "news"
        )
    })
}

/// The day a post of a site's blog or news gives in its own header, and
/// that line, where the file name does not (`docs/blog/2025/speedup.rst`
/// opening with ABlog's `.. post:: 2025-04-04`; a Hugo or Jekyll post whose
/// front matter says `date: 2021-03-02`): the renderer publishes it as
/// news of that day.
pub(crate) fn post_day<'t>(record: &str, text: &'t str) -> Option<(usize, &'t str)> {
    if !in_posts(record) {
        return None;
    }
    header_day(text)
}

/// The day a page's header gives, and its line: ABlog's `.. post::`
/// directive with a date among the first lines, or a `date` field of the
/// front matter (YAML's `date:`, TOML's `date =`).
fn header_day(text: &str) -> Option<(usize, &str)> {
    static DATED: OnceLock<Regex> = OnceLock::new();
    let dated = DATED.get_or_init(|| {
        Regex::new(r"^(?:\.\. post::|date\s*[:=])\s*['\x22]?(\d{4}-\d{2}-\d{2})(?:$|[^0-9])")
            .expect("the header date pattern is valid")
    });
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next()?;
    let day_on = |line: &'_ str, directive: &str| {
        dated
            .captures(line)
            .and_then(|c| c.get(1))
            .filter(|_| line.starts_with(directive))
            .map(|day| day.range())
    };
    let fence = first.trim_end();
    let (lines, directive, most): (Vec<(usize, &str)>, &str, usize) =
        if fence == "---" || fence == "+++" {
            // The front matter, up to its closing fence.
            (
                lines
                    .take_while(|(_, line)| line.trim_end() != fence)
                    .collect(),
                "date",
                usize::MAX,
            )
        } else {
            (
                std::iter::once((0, first)).chain(lines).collect(),
                ".. post::",
                20,
            )
        };
    lines.into_iter().take(most).find_map(|(at, line)| {
        let range = day_on(line, directive)?;
        Some((at + 1, &line[range]))
    })
}

/// The folders of a work board (`tasks/active/`, `tasks/backlog/`,
/// `tasks/completed/`) whose name says the work in them is finished.
const FINISHED_COLUMNS: &[&str] = &["completed", "done", "finished", "closed"];

/// The folders of a work board whose name says the work in them is still to
/// do or under way.
const OPEN_COLUMNS: &[&str] = &[
    "active",
    "backlog",
    "todo",
    "doing",
    "in-progress",
    "in_progress",
    "open",
    "pending",
    "planned",
    "wip",
    "current",
    "ongoing",
];

/// The records in a work board's finished column: a folder named for
/// finished work (`completed/`) beside a folder of records named for work
/// still open (`active/`, `backlog/`). Each is the log of a task as it was
/// done, naming the tree of its day; the board moves it there when the
/// work ends, and no one revises it after.
fn finished_work(records: &[String]) -> Vec<String> {
    let column = |record: &str| -> Option<(String, String)> {
        let mut segments: Vec<&str> = record.split('/').collect();
        segments.pop()?;
        // The nearest folder above the record that is a column of a board.
        (0..segments.len()).rev().find_map(|at| {
            let name = segments[at].to_ascii_lowercase();
            let parent = segments[..at].join("/");
            (FINISHED_COLUMNS.contains(&name.as_str()) || OPEN_COLUMNS.contains(&name.as_str()))
                .then_some((parent, name))
        })
    };
    let mut open_boards = std::collections::BTreeSet::new();
    for record in records {
        if let Some((parent, name)) = column(record)
            && OPEN_COLUMNS.contains(&name.as_str())
        {
            open_boards.insert(parent);
        }
    }
    records
        .iter()
        .filter(|record| {
            column(record).is_some_and(|(parent, name)| {
                FINISHED_COLUMNS.contains(&name.as_str()) && open_boards.contains(&parent)
            })
        })
        .cloned()
        .collect()
}

/// The records of a folder that holds its own archiving report
/// (`docs/changes/code-export/archive-report.md`, an `ARCHIVED.md`): a
/// change, proposal or spec folder a workflow closed when its work landed,
/// each page of it the record of that work as it was done.
fn archived_changes(records: &[String]) -> Vec<String> {
    let archived: std::collections::BTreeSet<&str> = records
        .iter()
        .filter_map(|record| {
            let (folder, name) = record.rsplit_once('/')?;
            let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
            matches!(
                stem.as_str(),
                "archive-report" | "archive_report" | "archived" | "archival-report"
            )
            .then_some(folder)
        })
        .collect();
    records
        .iter()
        .filter(|record| {
            archived.iter().any(|folder| {
                record
                    .strip_prefix(folder)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
        })
        .cloned()
        .collect()
}

/// A folder's declaration that its pages are left as they are is made near
/// the top of its index: the bytes read at most.
const DECLARATION_BYTES: usize = 4096;

/// The folders whose index says their pages are no longer maintained, asked
/// per record: each folder's index is read once.
pub(crate) struct Unmaintained<'s> {
    snapshot: &'s dyn Snapshot,
    folders: RefCell<HashMap<String, bool>>,
    /// Per folder, the folders its own pages say were archived there.
    archived: RefCell<HashMap<String, Vec<Archived>>>,
}

/// A folder a page says its project archived material under: the folder
/// itself, or every folder whose name starts so (`milestones/v1.3-*`).
#[derive(Debug, PartialEq)]
struct Archived {
    path: String,
    starts: bool,
}

impl<'s> Unmaintained<'s> {
    pub(crate) fn new(snapshot: &'s dyn Snapshot) -> Self {
        Unmaintained {
            snapshot,
            folders: RefCell::default(),
            archived: RefCell::default(),
        }
    }

    /// Whether `record` sits in or under a folder (never the root) whose own
    /// index declares its pages no longer maintained.
    pub(crate) fn holds(&self, record: &str) -> bool {
        let mut folder = record;
        while let Some((parent, _)) = folder.rsplit_once('/') {
            folder = parent;
            let declared = *self
                .folders
                .borrow_mut()
                .entry(folder.to_owned())
                .or_insert_with(|| self.declares(folder));
            if declared {
                return true;
            }
        }
        false
    }

    fn declares(&self, folder: &str) -> bool {
        self.said_archived(folder) || self.index_declares(folder)
    }

    /// Whether a page of a folder above `folder` (or of the root) says the
    /// project archived its material there ("v1.2 complete and archived
    /// under `.planning/milestones/`", "all phase directories archived
    /// under `milestones/v1.3-*`"): the project's own word that the
    /// folder is its record of finished work.
    fn said_archived(&self, folder: &str) -> bool {
        let mut above = folder;
        loop {
            above = above.rsplit_once('/').map_or("", |(parent, _)| parent);
            let mut archived = self.archived.borrow_mut();
            let said = archived
                .entry(above.to_owned())
                .or_insert_with(|| self.archived_by_pages_of(above));
            if said.iter().any(|a| {
                folder == a.path
                    || (a.starts
                        && folder.starts_with(&a.path)
                        && !folder[a.path.len()..].contains('/'))
            }) {
                return true;
            }
            if above.is_empty() {
                return false;
            }
        }
    }

    /// The folders the pages directly in `dir` say were archived, each
    /// read from the page's folder or, failing that, the root.
    fn archived_by_pages_of(&self, dir: &str) -> Vec<Archived> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let paths = self.snapshot.paths();
        let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
        let mut said = Vec::new();
        for page in paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .filter(|p| !p[prefix.len()..].contains('/'))
            .filter(|p| crate::checks::cites::anchors::is_page(p))
        {
            let Some(text) = self.snapshot.read_text_to_parse(page).ok().flatten() else {
                continue;
            };
            for written in archived_folders(&text) {
                let starts = written.ends_with('*');
                let written = written.trim_end_matches('*').trim_end_matches('/');
                let written = written.strip_prefix("./").unwrap_or(written);
                let folder_of = |path: &str| {
                    if starts {
                        // `v1.3-*`: the folders whose names start so, under
                        // a folder that is there.
                        let parent = path.rsplit_once('/').map_or("", |(parent, _)| parent);
                        parent.is_empty() || crate::snapshot::has_folder(paths, parent)
                    } else {
                        crate::snapshot::has_folder(paths, path)
                    }
                };
                let found = crate::snapshot::joined(dir, written)
                    .filter(|path| !path.is_empty() && folder_of(path))
                    .or_else(|| {
                        (!written.is_empty() && folder_of(written)).then(|| written.to_owned())
                    });
                if let Some(path) = found {
                    said.push(Archived { path, starts });
                }
            }
        }
        said
    }

    fn index_declares(&self, folder: &str) -> bool {
        INDEX_NAMES.iter().any(|name| {
            let path = format!("{folder}/{name}");
            // Sized before it is read: a huge index is never read whole.
            self.snapshot
                .read_text_to_parse(&path)
                .ok()
                .flatten()
                .is_some_and(|text| declares_unmaintained(&text))
        })
    }
}

/// The paths a page says material was archived under ("archived under
/// `.planning/milestones/`", "archived in [the archive](old/)"), as
/// written: a code span or a link's target right after the words.
fn archived_folders(text: &str) -> Vec<&str> {
    static SAYS: OnceLock<Regex> = OnceLock::new();
    let says = SAYS.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)archived[ \t\n]+(?:under|in|into|to)[ \t\n]+(?:the[ \t\n]+)?(?:`([^`\s]+)`|\[[^\]\n]*\]\(([^)\s]+)\))")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    says.captures_iter(text)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str())
        .collect()
}

/// Whether the head of an index says the pages it introduces are no longer
/// maintained (\"This specification is not maintained\", \"these pages are
/// no longer updated\", \"unmaintained\").
fn declares_unmaintained(text: &str) -> bool {
    static SAYS: OnceLock<Regex> = OnceLock::new();
    let says = SAYS.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:this|these|the)[ \t\n]+(?:specifications?|specs?|documents?|documentation|docs|pages?|notes|folder|directory|guides?)[ \t\n]+(?:is|are)[ \t\n]+(?:not|no[ \t\n]+longer)[ \t\n]+(?:being[ \t\n]+)?(?:maintained|updated|kept[ \t\n]+up[ \t\n-]to[ \t\n-]date)(?-u:\b)|(?-u:\b)(?:this|these|the)[ \t\n]+(?:specifications?|specs?|documents?|documentation|docs|pages?|notes|folder|directory|guides?)[ \t\n]+(?:is|are)[ \t\n]+unmaintained(?-u:\b)|(?-u:\b)(?:they|these|those|this)[ \t\n]+(?:[a-z,;-]+[ \t\n]+){0,20}?(?:may|might|can)[ \t\n]+(?:not[ \t\n]+be[ \t\n]+up[ \t\n-]to[ \t\n-]date|be[ \t\n]+out[ \t\n-]of[ \t\n-]date)(?-u:\b)|(?-u:\b)(?:everything|all|they|these|those|this|the[ \t\n]+(?:documents|docs|pages|notes))[ \t\n]+(?:[a-z,;-]+[ \t\n]+){0,12}?(?:is|are)[ \t\n]+(?:[a-z,;-]+[ \t\n]+){0,6}?(?:possibly|probably|likely|perhaps|maybe)[ \t\n]+(?:out[ \t\n-]of[ \t\n-]date|outdated|stale|obsolete)(?-u:\b)|(?-u:\b)(?:this|the)[ \t\n]+(?:list|folder|directory|archive|collection|section|index)[ \t\n]+is[ \t\n]+(?:currently[ \t\n]+|now[ \t\n]+)?frozen(?-u:\b)|(?-u:\b)(?:kept|retained|preserved)[ \t\n]+(?:only[ \t\n]+)?(?:for|as)[ \t\n]+(?:a[ \t\n]+)?historical[ \t\n]+(?:reference|record)|(?-u:\b)for[ \t\n]+historical[ \t\n]+reference[ \t\n]+only(?-u:\b)|(?-u:\b)(?:this|the)[ \t\n]+(?:directory|folder)[ \t\n]+is[ \t\n]+(?:the|an)[ \t\n]+archive(?-u:\b)|(?-u:\b)(?:this|these|the)[ \t\n]+(?:documentation|docs|documents|pages|guides?)[ \t\n]+(?:has|have)[ \t\n]+moved[ \t\n]+to(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    says.is_match(super::head_of(text, DECLARATION_BYTES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_post_is_frozen_and_an_undated_page_of_the_blog_is_not() {
        let records: Vec<String> = [
            "site/content/posts/2020-09-16-Velero-1.5.md",
            "website/blog/2023-01-05-release/index.md",
            "_posts/2019-02-01-hello.md",
            "website/blog/authors.md",
            "docs/2020-09-16-notes.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let frozen = older_doc_versions(&records, &[]);
        assert!(frozen.contains("site/content/posts/2020-09-16-Velero-1.5.md"));
        assert!(frozen.contains("_posts/2019-02-01-hello.md"));
        assert!(!frozen.contains("website/blog/authors.md"));
        assert!(!frozen.contains("docs/2020-09-16-notes.md"));
    }

    #[test]
    fn a_post_its_header_dates_is_dated_and_a_page_without_one_is_not() {
        let post = ".. post:: 2025-04-04\n   :tags: tests\n\nTitle\n=====\n";
        assert_eq!(
            post_day("docs/blog/2025/x.rst", post),
            Some((1, "2025-04-04"))
        );
        assert_eq!(post_day("docs/guide/x.rst", post), None);
        let yaml = "---\ntitle: Hi\ndate: 2021-03-02T10:00:00Z\n---\nText\n";
        assert_eq!(header_day(yaml), Some((3, "2021-03-02")));
        assert_eq!(
            header_day("+++\ndate = 2021-03-02\n+++\n"),
            Some((2, "2021-03-02"))
        );
        assert_eq!(header_day("---\ntitle: Hi\n---\ndate: 2021-03-02\n"), None);
        assert_eq!(
            header_day("Title\n=====\n\n.. post is not a directive\n"),
            None
        );
        assert_eq!(header_day(""), None);
    }

    #[test]
    fn a_boards_finished_column_is_frozen_and_its_open_ones_are_not() {
        let records: Vec<String> = [
            "tasks/active/ui.md",
            "tasks/backlog/cache.md",
            "tasks/completed/15-remove-sandbox.md",
            "tasks/completed/2026/split.md",
            "docs/completed.md",
            "release/done/notes.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let frozen = older_doc_versions(&records, &[]);
        assert!(frozen.contains("tasks/completed/15-remove-sandbox.md"));
        assert!(frozen.contains("tasks/completed/2026/split.md"));
        // Open work, a page named so, and a `done/` folder on no board.
        for kept in [
            "tasks/active/ui.md",
            "tasks/backlog/cache.md",
            "docs/completed.md",
            "release/done/notes.md",
        ] {
            assert!(!frozen.contains(kept), "{kept}");
        }
    }

    #[test]
    fn a_folder_a_page_above_it_says_was_archived_there_is_frozen() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "plan/PROJECT.md",
                "v1.0 and v1.1 complete and archived under `plan/milestones/`.\n",
            ),
            (
                "plan/STATE.md",
                "All phase folders archived under `done/v2-*`; see `work/`.\n",
            ),
            ("plan/done/v2-phases/01/PLAN.md", "x"),
            ("plan/done/v3-phases/01/PLAN.md", "x"),
            ("plan/milestones/v1.1/PLAN.md", "x"),
            ("plan/work/PLAN.md", "x"),
            ("other/milestones/PLAN.md", "x"),
        ]);
        let unmaintained = Unmaintained::new(&tree);
        assert!(unmaintained.holds("plan/milestones/v1.1/PLAN.md"));
        assert!(unmaintained.holds("plan/done/v2-phases/01/PLAN.md"));
        // A folder the glob leaves out, one merely named, and a namesake
        // elsewhere stay checked.
        assert!(!unmaintained.holds("plan/done/v3-phases/01/PLAN.md"));
        assert!(!unmaintained.holds("plan/work/PLAN.md"));
        assert!(!unmaintained.holds("other/milestones/PLAN.md"));
        assert_eq!(
            archived_folders("Old runs are archived in [the archive](old/). Archived: `x/`."),
            ["old/"]
        );
    }

    #[test]
    fn an_index_that_says_its_pages_are_unmaintained_freezes_them() {
        for text in [
            "# Light Client\n\n## Disclaimer\n\nThis specification is not maintained. See the spec repository.\n",
            "# Old guides\n\nThese pages are no longer updated.\n",
            "The documentation is unmaintained.",
            "These are design documents. They exist to help document the design process, but may not be up-to-date.",
            "These notes might be out of date.",
            "# ADRs\n\nThis list is currently frozen and kept for reference purposes. To add new ADRs, see the parent folder.\n",
            "This list is frozen as-is, and new RFCs should be added above.",
            "# Design\n\nAdmittedly it's quite much junk.\n\nEverything below is AI-generated and possibly out of date.\n",
            "# Archived Notes\n\nDo not load these files as routine context. They are kept for historical reference only.\n",
            "# History\n\nThis directory is the archive for all project history records.\n",
            "# Docs\n\nThis documentation has moved to [Read the Docs](https://docs.example.org/).\n",
        ] {
            assert!(declares_unmaintained(text), "{text}");
        }
        for text in [
            "# Guides\n\nThese pages are maintained by the docs team.\n",
            "# Client\n\nThe client is not maintained for Python 2.\n",
            "# Plugins\n\nThis plugin is no longer maintained upstream.\n",
            "# Guides\n\nThese pages are kept up to date with each release.\n",
            "# Config\n\nYour lock file may be out of date; run `lock` again.\n",
            "# Storage\n\nThe archive format is kept for historical reasons.\n",
            "# Backups\n\nThis directory is where the archive tool writes.\n",
            "# Guide\n\nThe config file has moved to `etc/`.\n",
        ] {
            assert!(!declares_unmaintained(text), "{text}");
        }
    }

    #[test]
    fn fires_for_the_older_versions_and_stays_quiet_for_the_current_docs() {
        let records: Vec<String> = [
            "site/content/en/latest/api.md",
            "site/content/en/v1.6/api.md",
            "site/content/en/v1.7/api.md",
            "website/versioned_docs/version-2.0/intro.md",
            "website/versioned_docs/version-2.1/intro.md",
            "web/versioned_docs/version-v3.9.x/a.md",
            "web/versioned_docs/version-v3.10.x/a.md",
            "site/versioned_docs/version-1.0.0-beta.10/b.md",
            "docs/v1.0/notes.md",
            "docs/archive/cleanup-plan.md",
            "docs/old/qa.md",
            "docs/oldies.md",
            "design/defunct/one-pager.md",
            "docs/legacy/CLI.md",
            "archived_notes/review.md",
            "src/archiver/README.md",
            ".agents/skills/archive-history/SKILL.md",
            "README.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let frozen = older_doc_versions(&records, &[]);
        let frozen: Vec<&str> = frozen.iter().map(String::as_str).collect();
        assert_eq!(
            frozen,
            [
                "archived_notes/review.md",
                "design/defunct/one-pager.md",
                "docs/archive/cleanup-plan.md",
                "docs/legacy/CLI.md",
                "docs/old/qa.md",
                "site/content/en/v1.6/api.md",
                "site/content/en/v1.7/api.md",
                "site/versioned_docs/version-1.0.0-beta.10/b.md",
                "web/versioned_docs/version-v3.10.x/a.md",
                "web/versioned_docs/version-v3.9.x/a.md",
                "website/versioned_docs/version-2.0/intro.md",
                "website/versioned_docs/version-2.1/intro.md",
            ]
        );
    }

    #[test]
    fn a_folder_that_holds_its_archiving_report_is_frozen() {
        let records: Vec<String> = [
            "docs/changes/export/archive-report.md",
            "docs/changes/export/spec.md",
            "docs/changes/import/spec.md",
            "docs/reports/archive-history.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let frozen = older_doc_versions(&records, &[]);
        let frozen: Vec<&str> = frozen.iter().map(String::as_str).collect();
        assert_eq!(
            frozen,
            [
                "docs/changes/export/archive-report.md",
                "docs/changes/export/spec.md"
            ]
        );
    }

    #[test]
    fn the_newest_version_of_a_series_is_frozen_once_a_later_release_is_tagged() {
        let records: Vec<String> = [
            "docs/impl/v0.3/notes.md",
            "docs/impl/v0.4/notes.md",
            "docs/logs/v0.3.4a/summary.md",
            "docs/logs/v0.3.4b/summary.md",
            "docs/api/v2.3/guide.md",
            "docs/api/v2.4/guide.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let tags: Vec<String> = ["v0.4.4", "v0.5.1", "v2.4.7"].map(String::from).into();
        let frozen = older_doc_versions(&records, &tags);
        let frozen: Vec<&str> = frozen.iter().map(String::as_str).collect();
        // `v2.4` is the line `v2.4.7` is of: current.
        assert_eq!(
            frozen,
            [
                "docs/api/v2.3/guide.md",
                "docs/impl/v0.3/notes.md",
                "docs/impl/v0.4/notes.md",
                "docs/logs/v0.3.4a/summary.md",
                "docs/logs/v0.3.4b/summary.md",
            ]
        );
        // Without the tags, the newest of each series is current.
        let current = older_doc_versions(&records, &[]);
        assert!(!current.contains("docs/impl/v0.4/notes.md"));
        assert!(!current.contains("docs/logs/v0.3.4b/summary.md"));
    }
}
