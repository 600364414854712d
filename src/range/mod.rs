//! Stage 5 of the pipeline, for `check --since BASE`: of the audited tree's
//! findings, only what the range `BASE..REV` made wrong. The range is the
//! first-parent line from the audited commit back to the merge base of
//! `--since` and that commit (uncommitted work too, when the working tree is
//! audited).
//!
//! The decision is by evidence, the two trees themselves: a finding is kept
//! when the range wrote the record line it is on (added or edited it, so a
//! new citation that does not resolve, or a new figure that disagrees, is
//! reported even where the same words were wrong before), or when the base's
//! own check has no finding like it — the same check, record (followed
//! through renames in the range), fact and stated text, counted, as a
//! baseline's fingerprint counts them. Whatever was true or already wrong at
//! the base stays out with no baseline file, and a finding the range caused
//! cannot be hidden by a guess about its cause: the cause is named after the
//! decision, never used to make it.
//!
//! The cause: the commit that wrote the line (as the citation evidence finds
//! it), or the newest commit of the range that changed a file the finding
//! reads — the files its check names ([`crate::checks::Finding::reads`]), else
//! the paths its recipe and message name — with the first line that commit
//! changed there, where a reviewer reading the code sees it.

pub mod base;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use git2::Oid;

use crate::error::{Error, Result};
use crate::report::fingerprint::claim_text;
use crate::report::{Cause, CauseKind, RangeApplied, Report};
use crate::snapshot::GitRepo;

/// At most this many first-parent commits are read back for one range: far
/// beyond a pull request or a year of a busy project, a bound only so that a
/// corrupt history cannot make a run endless.
const MAX_COMMITS: usize = 100_000;

/// The range a `check --since` run reports on.
#[derive(Debug, Clone)]
pub struct Range {
    /// `--since` as given.
    pub since: String,
    /// The merge base of `--since` and the audited commit: the range starts
    /// after it.
    pub base: Oid,
    /// The audited commit, or HEAD when the working tree is audited.
    pub head: Oid,
    /// The range's first-parent commits, newest first.
    pub commits: Vec<Oid>,
}

/// What one commit changed: `(path before, path after)` per file.
type Changes = Vec<(Option<String>, Option<String>)>;

/// A file's line ranges the range added or edited, and its lines at the
/// base, trimmed.
type Written = (Vec<(usize, usize)>, BTreeSet<String>);

/// A finding as the base and the audited tree are compared by: check,
/// record, fact, stated text.
type Key = (&'static str, String, String, String);

impl Range {
    /// The range from `since` to `rev` (HEAD for the working tree); `now`
    /// (Unix seconds) is what an age such as `7.days.ago` counts back from.
    pub fn resolve(repo: &GitRepo, since: &str, rev: Option<&str>, now: i64) -> Result<Range> {
        let head_name = rev.unwrap_or("HEAD");
        let head = repo
            .resolve(head_name)
            .ok()
            .and_then(|sha| Oid::from_str(&sha).ok())
            .ok_or_else(|| {
                Error::plain(format!(
                    "--since needs a commit to count from, and `{head_name}` names none"
                ))
            })?;
        let named = base::resolve(repo, since, head, now)?;
        let base = repo.merge_base(named, head).ok_or_else(|| {
            let help = if repo.is_shallow() {
                "this is a shallow clone: fetch the history back to where the two lines \
                 meet (`git fetch --deepen=N`, or `fetch-depth: 0` in actions/checkout)"
            } else {
                "name a commit of the audited commit's own history"
            };
            Error::plain(format!(
                "--since {since}: it and `{head_name}` share no commit this clone holds"
            ))
            .with_help(help)
        })?;
        let mut commits = Vec::new();
        let mut at = head;
        while at != base && commits.len() < MAX_COMMITS {
            // A commit the base's history holds (the base line merged into
            // the branch) is not the range's.
            if repo.raw().graph_descendant_of(base, at).unwrap_or(false) {
                break;
            }
            commits.push(at);
            match repo.first_parent_of(at) {
                Some(parent) => at = parent,
                None => break,
            }
        }
        Ok(Range {
            since: since.to_owned(),
            base,
            head,
            commits,
        })
    }

    /// Keeps in `report` only the findings the range made, each with its
    /// cause; `at_base` is the base's own report (`None` when the audited
    /// tree has no finding to compare: nothing is left out then).
    pub fn apply(&self, repo: &GitRepo, at_base: Option<&Report>, report: &mut Report) {
        let renamed = self.renamed_records(repo);
        let mut known: HashMap<Key, usize> = HashMap::new();
        let no_sources = BTreeMap::new();
        let base_sources = at_base.map_or(&no_sources, |r| &r.sources);
        for finding in at_base.map_or(&[][..], |r| &r.findings[..]) {
            let path = renamed
                .iter()
                .find(|(_, old)| **old == finding.location.path)
                .map_or_else(|| finding.location.path.clone(), |(new, _)| new.clone());
            let key = (
                finding.check.as_str(),
                path,
                finding.fact.clone().unwrap_or_default(),
                claim_text(finding, base_sources),
            );
            *known.entry(key).or_default() += 1;
        }
        // Per file: the line ranges the range added or edited, and the file's
        // lines at the base (trimmed), to tell a line moved from one written.
        let mut written: BTreeMap<String, Written> = BTreeMap::new();
        let mut changes: Vec<Option<Changes>> = vec![None; self.commits.len()];
        let before = report.findings.len();
        let mut causes: Vec<Option<Cause>> = vec![None; before];
        // First the lines the range wrote: reported whatever the base said,
        // and each takes the base's like finding, if any, with it. A line
        // the range only moved (the same text in the base's file, and the
        // base with the same finding: a page sorted anew) was not written.
        for (i, finding) in report.findings.iter().enumerate() {
            let path = &finding.location.path;
            let (hunks, at_base) = written.entry(path.clone()).or_insert_with(|| {
                let old = renamed.get(path).unwrap_or(path);
                let text = report.sources.get(path).map_or(&b""[..], |t| t.as_bytes());
                match repo.file_at(self.base, old) {
                    Some((_, bytes)) => (
                        repo.line_hunks(&bytes, text)
                            .into_iter()
                            .filter(|&(_, _, _, lines)| lines > 0)
                            .map(|(_, _, start, lines)| (start, start + lines - 1))
                            .collect(),
                        String::from_utf8_lossy(&bytes)
                            .lines()
                            .map(|l| l.trim().to_owned())
                            .filter(|l| !l.is_empty())
                            .collect(),
                    ),
                    None => (vec![(1, usize::MAX)], BTreeSet::new()),
                }
            });
            let (first, last) = lines_of(report, i);
            let text = report.sources.get(path).map_or("", |t| &**t);
            let moved = known.get(&key_of(report, i)).is_some_and(|c| *c > 0)
                && text
                    .lines()
                    .skip(first.saturating_sub(1))
                    .take(last + 1 - first)
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .all(|l| at_base.contains(l));
            if !moved && hunks.iter().any(|&(a, b)| a <= last && first <= b) {
                if let Some(count) = known.get_mut(&key_of(report, i)).filter(|c| **c > 0) {
                    *count -= 1;
                }
                causes[i] = Some(self.wrote(repo, report, i, first));
            }
        }
        for (i, cause) in causes.iter_mut().enumerate() {
            if cause.is_some() {
                continue;
            }
            match known.get_mut(&key_of(report, i)).filter(|c| **c > 0) {
                Some(count) => *count -= 1,
                None => *cause = Some(self.changed(repo, report, i, &mut changes)),
            }
        }
        let mut causes = causes.into_iter();
        report
            .findings
            .retain_mut(|finding| match causes.next().flatten() {
                Some(cause) => {
                    finding.cause = Some(cause);
                    true
                }
                None => false,
            });
        let applied = RangeApplied {
            since: self.since.clone(),
            base: self.base.to_string(),
            commits: self.commits.len(),
            at_base: before - report.findings.len(),
        };
        report.notes.push(format!(
            "--since {}: the range after {} ({} commit{}); {} finding{} there at the base \
             too, left out",
            self.since,
            short(&applied.base),
            applied.commits,
            if applied.commits == 1 { "" } else { "s" },
            applied.at_base,
            if applied.at_base == 1 { "" } else { "s" },
        ));
        report.range = Some(applied);
    }

    /// The records `report`'s findings are in, by their paths at the base:
    /// all the base's check needs to weigh them.
    pub fn records_at_base(&self, repo: &GitRepo, report: &Report) -> BTreeSet<String> {
        let renamed = self.renamed_records(repo);
        report
            .findings
            .iter()
            .map(|f| &f.location.path)
            .map(|path| renamed.get(path).unwrap_or(path).clone())
            .collect()
    }

    /// Each file the range renamed, by its new path: its path at the base.
    fn renamed(&self, repo: &GitRepo) -> BTreeMap<String, String> {
        repo.changes_between(self.base, self.head)
            .into_iter()
            .filter_map(|(old, new)| Some((new?, old?)))
            .filter(|(new, old)| new != old)
            .collect()
    }

    fn renamed_records(&self, repo: &GitRepo) -> BTreeMap<String, String> {
        if self.commits.is_empty() {
            return BTreeMap::new();
        }
        self.renamed(repo)
    }

    /// The cause of a finding on a line the range wrote.
    fn wrote(&self, repo: &GitRepo, report: &Report, i: usize, line: usize) -> Cause {
        let finding = &report.findings[i];
        let path = &finding.location.path;
        let text = report.sources.get(path).map_or("", |t| &**t);
        let written = text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .trim();
        let commit = (!written.is_empty())
            .then(|| repo.writing_commit(self.head, path, written))
            .flatten()
            .filter(|c| self.commits.contains(c));
        Cause {
            how: CauseKind::Wrote,
            commit: commit.map(|c| c.to_string()),
            subject: commit.and_then(|c| repo.commit_subject(c)),
            path: None,
            line: None,
            change: "wrote this line".to_owned(),
        }
    }

    /// The cause of a finding the base did not have, on a line the range
    /// did not write: the newest commit that changed a file it reads.
    fn changed(
        &self,
        repo: &GitRepo,
        report: &Report,
        i: usize,
        changes: &mut [Option<Changes>],
    ) -> Cause {
        let finding = &report.findings[i];
        let named = names_of(finding);
        for (at, &commit) in self.commits.iter().enumerate() {
            let made = changes[at].get_or_insert_with(|| match repo.first_parent_of(commit) {
                Some(parent) => repo.changes_between(parent, commit),
                None => Vec::new(),
            });
            let hit = made.iter().find(|(old, new)| {
                [old, new]
                    .into_iter()
                    .flatten()
                    .any(|path| named.iter().any(|n| names(n, path)))
            });
            let Some((old, new)) = hit else {
                continue;
            };
            let (path, change) = match (old, new) {
                (Some(old), Some(new)) if old != new => {
                    (new.clone(), format!("renamed from {old}"))
                }
                (Some(old), None) => (old.clone(), "deleted".to_owned()),
                (None, Some(new)) => (new.clone(), "added".to_owned()),
                (_, Some(new)) => (new.clone(), "edited".to_owned()),
                (None, None) => continue,
            };
            let line = new.as_ref().and_then(|new| {
                let (_, after) = repo.file_at(commit, new)?;
                let before = old
                    .as_ref()
                    .zip(repo.first_parent_of(commit))
                    .and_then(|(old, parent)| repo.file_at(parent, old))
                    .map(|(_, bytes)| bytes)
                    .unwrap_or_default();
                // A file renamed or added whole: its first line.
                let first = repo.line_hunks(&before, &after).first().map(|h| h.2);
                Some(first.unwrap_or(1).max(1))
            });
            return Cause {
                how: CauseKind::Changed,
                commit: Some(commit.to_string()),
                subject: repo.commit_subject(commit),
                path: Some(path),
                line,
                change,
            };
        }
        Cause {
            how: CauseKind::Changed,
            commit: None,
            subject: None,
            path: None,
            line: None,
            change: "not at the base; no commit of the range changed a file it names".to_owned(),
        }
    }
}

/// The first and last line of finding `i`'s span.
fn lines_of(report: &Report, i: usize) -> (usize, usize) {
    let location = &report.findings[i].location;
    let text = report.sources.get(&location.path).map_or("", |t| &**t);
    let span = text
        .get(location.offset..location.offset.saturating_add(location.length))
        .unwrap_or("");
    let breaks = span.trim_end_matches('\n').matches('\n').count();
    (location.line, location.line + breaks)
}

fn key_of(report: &Report, i: usize) -> Key {
    let finding = &report.findings[i];
    (
        finding.check.as_str(),
        finding.location.path.clone(),
        finding.fact.clone().unwrap_or_default(),
        claim_text(finding, &report.sources),
    )
}

/// The files and folders a finding reads: what its check says, else every
/// path-shaped word of its recipe (`SIZE = 3 (src/a.py:12)`, `under schemas`,
/// `schemas/*.json`) and of its message and stated value.
fn names_of(finding: &crate::checks::Finding) -> Vec<String> {
    if !finding.reads.is_empty() {
        return finding.reads.clone();
    }
    let mut named = Vec::new();
    let mut add = |text: &str, bare_words: bool| {
        for word in text.split(|c: char| c.is_whitespace() || "`'\"(),;[]<>".contains(c)) {
            let word = word.split(['#', '?']).next().unwrap_or("");
            let word = word.trim_end_matches(|c: char| c.is_ascii_digit() || c == ':' || c == '-');
            let word = crate::history::inputs::literal_prefix(word.trim_matches('.'));
            let shaped = word.contains('/') || word.contains('.');
            if !word.is_empty() && (shaped || bare_words) {
                named.push(word);
            }
        }
    };
    if let Some(recipe) = &finding.recipe {
        for input in &recipe.inputs {
            add(input, true);
        }
    }
    add(&finding.message, false);
    if let Some(stated) = &finding.stated {
        add(stated, false);
    }
    named.sort();
    named.dedup();
    named
}

/// Whether `path` is the file `name` names, or lies under the folder it names.
fn names(name: &str, path: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn short(sha: &str) -> &str {
    sha.get(..8).unwrap_or(sha)
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_name_is_the_file_or_the_folder_above_it() {
        assert!(names("src/a.py", "src/a.py"));
        assert!(names("schemas", "schemas/mcp/x.json"));
        assert!(!names("src/a", "src/ab.py"));
        assert!(!names("src/a.py", "src/a.pyc"));
    }
}
