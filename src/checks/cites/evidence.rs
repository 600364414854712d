//! Citations, after resolution: what the repository's history proves about a
//! citation that resolves today. A line cite (`reader.go:313`, `x.rs#L10-L20`)
//! names lines by number, and the commonest way it rots is that the file changes
//! under it: the number still exists and holds other code. So each line cite is
//! checked against what its lines held when the record cited them — the commit
//! that wrote the cite into the record (the oldest of the unbroken run of
//! commits whose record holds it, the record followed through renames), the
//! cited file there, and those lines
//! mapped through the diff from that commit to the audited tree, as
//! `git blame --reverse` maps them. Lines that moved are stale with where they
//! are now; lines that changed or went are stale; either way with the commit
//! that did it, found from the file's own history. No heuristic reads the
//! prose: the evidence decides.

use std::collections::BTreeMap;
use std::sync::Arc;

use git2::Oid;

use super::gather::{CiteStatus, ResolvedCite};
use crate::audit::Frames;
use crate::facts::Frame;
use crate::snapshot::GitRepo;

/// The lines a line cite resolved to in the audited tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineTarget {
    pub file: String,
    pub start: usize,
    pub end: usize,
}

/// How far back the commit that changed a cited file's lines is looked for
/// (first-parent commits from the audited one back to the writing commit).
const LOOK_BACK: usize = 20_000;

/// One hunk of a line diff with no context: `(old_start, old_lines, new_start,
/// new_lines)` as git numbers them.
type Hunk = (usize, usize, usize, usize);

/// What became of lines `start..=end` (1-based) of a file between two versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineFate {
    /// The same lines, at the same numbers.
    Same,
    /// The same lines, now at `start..=end`.
    Moved { start: usize, end: usize },
    /// Some of the lines were changed or removed, or lines were put among them.
    Changed,
}

/// Maps lines `start..=end` through the hunks of a diff with no context, each
/// `(old_start, old_lines, new_start, new_lines)` as git numbers them (a pure
/// insertion's `old_start` is the line it follows).
pub fn map_lines(hunks: &[Hunk], start: usize, end: usize) -> LineFate {
    let mut shift: i64 = 0;
    for &(old_start, old_lines, _, new_lines) in hunks {
        let grown = new_lines as i64 - old_lines as i64;
        if old_lines == 0 {
            // Inserted after line `old_start`.
            if old_start < start {
                shift += grown;
            } else if old_start < end {
                return LineFate::Changed;
            }
        } else {
            let old_end = old_start + old_lines - 1;
            if old_end < start {
                shift += grown;
            } else if old_start <= end {
                return LineFate::Changed;
            }
        }
    }
    if shift == 0 {
        return LineFate::Same;
    }
    let moved = |line: usize| usize::try_from(line as i64 + shift).unwrap_or(0);
    LineFate::Moved {
        start: moved(start),
        end: moved(end),
    }
}

/// Checks every line cite that resolved at the audited tree against what its
/// lines held when the record cited them; one whose lines moved or changed
/// since becomes stale, saying where they went and which commit did it.
pub(super) fn lines_as_written(
    resolved: &mut [ResolvedCite],
    frames: &Frames<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    let repo = frames.repo();
    // The working tree's records are read back from HEAD; a cite HEAD's record
    // does not hold is not committed yet, and is judged by the tree alone.
    let at = audited.commit.clone().unwrap_or_else(|| "HEAD".to_owned());
    let mut citing: Vec<Citing> = Vec::new();
    for (index, cite) in resolved.iter().enumerate() {
        let judged = cite.lines.is_some()
            && cite.expect.is_none()
            && cite.frame == audited.label
            && matches!(cite.status, CiteStatus::Ok { .. });
        let Some(text) = texts.get(&cite.record).filter(|_| judged) else {
            continue;
        };
        // The cite as the record writes it: its text (a link's destination, a
        // backticked path), else the bytes it was read from (a `:294` shorthand).
        let written = if text.contains(cite.text.as_str()) {
            cite.text.as_str()
        } else {
            text.get(cite.span.clone()).unwrap_or("")
        };
        if written.is_empty() {
            continue;
        }
        citing.push(Citing {
            index,
            record: cite.record.clone(),
            written: written.to_owned(),
            writing: None,
        });
    }
    if citing.is_empty() {
        return;
    }
    let line = writing_commits(repo, &at, &mut citing);
    let mut history = FileHistory {
        repo,
        versions: BTreeMap::new(),
        hunks: BTreeMap::new(),
        line,
    };
    for cite in citing {
        let (Some(writing), Some(target)) = (cite.writing, resolved[cite.index].lines.clone())
        else {
            continue;
        };
        let Some(now) = audited
            .snapshot
            .read(&target.file)
            .ok()
            .flatten()
            .map(|bytes| Version::of(&bytes))
        else {
            continue;
        };
        let written = resolved[cite.index].text.clone();
        if let Some(status) = history.judge(writing, &target, &now, &written) {
            resolved[cite.index].status = status;
        }
    }
}

/// A line cite, and how its record writes it.
struct Citing {
    index: usize,
    record: String,
    /// The cite as the record writes it (`src/reader.go:313`).
    written: String,
    /// The commit that wrote it: the oldest of the unbroken run of first-parent
    /// commits, back from the audited one, whose record holds it. The cite's
    /// own text, not its line: an edit elsewhere on the line (a ticked box, a
    /// reworded sentence) does not make the numbers new.
    writing: Option<Oid>,
}

/// Finds each cite's writing commit in one walk back along the
/// first-parent line from `at`: a record's version is read only where it
/// changed, and the walk stops once every cite is placed (or after
/// [`LOOK_BACK`] commits). A cite the newest record does not hold is not
/// committed, and has none. Returns the commits walked, newest first.
fn writing_commits(repo: &GitRepo, at: &str, citing: &mut [Citing]) -> Vec<Oid> {
    let records: Vec<String> = citing
        .iter()
        .map(|c| c.record.clone())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    // Each record's path as the walk goes back: a record renamed is followed to
    // its earlier path, as blame follows it.
    let mut names: Vec<String> = records.clone();
    // Per record: the blob last read and its text.
    let mut held: Vec<(Option<Oid>, String)> = vec![(None, String::new()); records.len()];
    let mut pending: Vec<usize> = (0..citing.len()).collect();
    let mut line: Vec<Oid> = Vec::new();
    let mut next = repo.commit_id(at);
    while let Some(commit) = next.filter(|_| !pending.is_empty() && line.len() < LOOK_BACK) {
        let position = line.len();
        let newer = line.last().copied();
        line.push(commit);
        next = repo.first_parent_of(commit);
        let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut ids = repo.path_ids(commit, &wanted);
        for (r, slot) in ids.iter_mut().enumerate() {
            if slot.is_none()
                && held[r].0.is_some()
                && let Some(newer) = newer
                && let Some(earlier) = repo.renamed_from(newer, &names[r])
            {
                *slot = repo.path_ids(commit, &[earlier.as_str()])[0];
                names[r] = earlier;
            }
        }
        let mut changed = vec![false; records.len()];
        for (r, id) in ids.iter().enumerate() {
            if held[r].0 != *id || position == 0 {
                changed[r] = true;
                let text = id
                    .and_then(|id| repo.blob_bytes(id))
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .unwrap_or_default();
                held[r] = (*id, text);
            }
        }
        pending.retain(|&c| {
            let r = records
                .iter()
                .position(|r| *r == citing[c].record)
                .unwrap_or(0);
            // A record unchanged since the newer commit holds what it held.
            if !changed[r] || held[r].1.contains(citing[c].written.as_str()) {
                // Still there: written here or earlier.
                citing[c].writing = Some(commit);
                true
            } else {
                false
            }
        });
    }
    line
}

/// The cited files' versions along the history, read once each, and the
/// first-parent line of the audited commit, walked once.
struct FileHistory<'r> {
    repo: &'r GitRepo,
    versions: BTreeMap<(Oid, String), Option<Version>>,
    /// The line diff between two versions, by their blob ids: every cite of a
    /// file is mapped through the same diff.
    hunks: BTreeMap<(Oid, Oid), Arc<Vec<Hunk>>>,
    /// The first-parent line the writing commits were found on, newest first.
    line: Vec<Oid>,
}

impl<'r> FileHistory<'r> {
    /// The first-parent commits after `writing`, oldest first.
    fn since(&self, writing: Oid) -> Vec<Oid> {
        let at = self
            .line
            .iter()
            .position(|&oid| oid == writing)
            .unwrap_or(self.line.len());
        self.line[..at].iter().rev().copied().collect()
    }

    fn version(&mut self, commit: Oid, file: &str) -> Option<Version> {
        self.versions
            .entry((commit, file.to_owned()))
            .or_insert_with(|| {
                self.repo.file_at(commit, file).map(|(id, bytes)| Version {
                    id,
                    bytes: Arc::from(bytes),
                })
            })
            .clone()
    }

    /// What the evidence says of lines cited at `writing` that read `now`
    /// today: `None` when they hold what they held (or the file was not there
    /// to cite, so there is nothing to hold them to).
    fn judge(
        &mut self,
        writing: Oid,
        target: &LineTarget,
        now: &Version,
        written: &str,
    ) -> Option<CiteStatus> {
        // The file may have come to this path after the cite was written (a
        // folder renamed around it): then the first commit since where the
        // record cites it and the file is there is what the lines are held to.
        let writing = self.first_with_file(writing, &target.file)?;
        let then = self.version(writing, &target.file)?;
        let fate = self.fate(&then, now, target);
        if fate == LineFate::Same {
            return None;
        }
        let culprit = self.culprit(writing, &then, target);
        let when = short(writing);
        let by = culprit.map_or_else(String::new, |c| format!(" in {}", short(c)));
        let LineTarget { file, start, end } = target;
        let cited = if start == end {
            format!("line {start}")
        } else {
            format!("lines {start}-{end}")
        };
        Some(match fate {
            LineFate::Moved { start: s, end: e } => {
                let now_at = if s == e {
                    format!("line {s}")
                } else {
                    format!("lines {s}-{e}")
                };
                CiteStatus::Stale {
                    why: format!(
                        "what {file} held at {cited} when the record cited it (at {when}) is now at {now_at}: moved{by}"
                    ),
                    suggestion: Some(renumbered(written, *start, *end, s, e)),
                }
            }
            _ => CiteStatus::Stale {
                why: format!(
                    "what {file} held at {cited} when the record cited it (at {when}) was changed{by}"
                ),
                suggestion: None,
            },
        })
    }

    /// `writing` if `file` is there, else the oldest commit since (on the
    /// line walked) where it is: files come to a path and stay, so a binary
    /// search finds it.
    fn first_with_file(&mut self, writing: Oid, file: &str) -> Option<Oid> {
        if self.version(writing, file).is_some() {
            return Some(writing);
        }
        let line = self.since(writing);
        let (mut low, mut high) = (0usize, line.len());
        while low < high {
            let mid = (low + high) / 2;
            if self.version(line[mid], file).is_some() {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        line.get(low).copied()
    }

    fn fate(&mut self, then: &Version, now: &Version, target: &LineTarget) -> LineFate {
        if then.id == now.id {
            return LineFate::Same;
        }
        let repo = self.repo;
        let hunks = self
            .hunks
            .entry((then.id, now.id))
            .or_insert_with(|| Arc::new(repo.line_hunks(&then.bytes, &now.bytes)));
        map_lines(hunks, target.start, target.end)
    }

    /// The oldest first-parent commit after `writing` at which the cited lines
    /// no longer stand as written: a binary search over the commits since,
    /// each read as the file's version there.
    fn culprit(&mut self, writing: Oid, then: &Version, target: &LineTarget) -> Option<Oid> {
        let line = self.since(writing);
        let (mut low, mut high) = (0usize, line.len());
        while low < high {
            let mid = (low + high) / 2;
            let moved = match self.version(line[mid], &target.file) {
                Some(version) => self.fate(then, &version, target) != LineFate::Same,
                None => true,
            };
            if moved {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        line.get(low).copied()
    }
}

/// A file's bytes at some commit, with its blob id (what two versions are
/// compared by).
#[derive(Clone)]
struct Version {
    id: Oid,
    bytes: Arc<[u8]>,
}

impl Version {
    /// The audited tree's bytes, with the id git would give them.
    fn of(bytes: &[u8]) -> Version {
        Version {
            id: Oid::hash_object(git2::ObjectType::Blob, bytes).unwrap_or(Oid::ZERO_SHA1),
            bytes: Arc::from(bytes),
        }
    }
}

fn short(oid: Oid) -> String {
    oid.to_string()[..8].to_owned()
}

/// The cite as written with its line numbers replaced (`a.go:313` → `a.go:411`,
/// `a.rs#L10-L20` → `a.rs#L12-L22`).
fn renumbered(written: &str, start: usize, end: usize, new_start: usize, new_end: usize) -> String {
    let (head, tail) = match written.rfind(['#', ':']) {
        Some(at) => written.split_at(at + 1),
        None => return written.to_owned(),
    };
    let link = tail.starts_with('L');
    let one = |n: usize| if link { format!("L{n}") } else { n.to_string() };
    let cited_one = start == end && !tail.contains(['-', '–']);
    if cited_one {
        format!("{head}{}", one(new_start))
    } else {
        format!("{head}{}-{}", one(new_start), one(new_end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_mapped_through_the_hunks_before_them() {
        // Three lines inserted after line 2, one removed at 30.
        let hunks = [(2, 0, 3, 3), (30, 1, 32, 0)];
        assert_eq!(map_lines(&hunks, 1, 2), LineFate::Same);
        assert_eq!(
            map_lines(&hunks, 10, 12),
            LineFate::Moved { start: 13, end: 15 }
        );
        assert_eq!(
            map_lines(&hunks, 29, 29),
            LineFate::Moved { start: 32, end: 32 }
        );
        assert_eq!(map_lines(&hunks, 30, 31), LineFate::Changed);
        assert_eq!(
            map_lines(&hunks, 40, 41),
            LineFate::Moved { start: 42, end: 43 }
        );
        // An insertion among the cited lines splits them.
        assert_eq!(map_lines(&[(5, 0, 6, 2)], 4, 8), LineFate::Changed);
        // One inserted and one removed before them: back where they were.
        assert_eq!(
            map_lines(&[(1, 0, 2, 1), (3, 1, 4, 0)], 10, 10),
            LineFate::Same
        );
        // A changed line among them.
        assert_eq!(map_lines(&[(11, 1, 11, 1)], 10, 12), LineFate::Changed);
    }

    #[test]
    fn a_cite_is_renumbered_in_the_form_it_was_written() {
        assert_eq!(
            renumbered("reader.go:313", 313, 313, 411, 411),
            "reader.go:411"
        );
        assert_eq!(renumbered("a.rs:10-20", 10, 20, 12, 22), "a.rs:12-22");
        assert_eq!(renumbered("a.rs#L10-L20", 10, 20, 12, 22), "a.rs#L12-L22");
        assert_eq!(renumbered("a.rs#L7", 7, 7, 9, 9), "a.rs#L9");
    }
}
