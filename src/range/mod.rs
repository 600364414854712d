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

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use git2::Oid;

use crate::error::{Error, Result};
use crate::lines::LineIndex;
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

/// What one commit changed: `(path before, path after)` per file, and each
/// path of either side by the index of its first change, so a finding's
/// files are looked up, not searched for among a tree's thousands.
#[derive(Default)]
struct Changes {
    list: Vec<(Option<String>, Option<String>)>,
    by_path: BTreeMap<String, usize>,
}

impl Changes {
    fn of(list: Vec<(Option<String>, Option<String>)>) -> Changes {
        let mut by_path = BTreeMap::new();
        for (i, (old, new)) in list.iter().enumerate() {
            for path in [old, new].into_iter().flatten() {
                by_path.entry(path.clone()).or_insert(i);
            }
        }
        Changes { list, by_path }
    }

    /// The first change (in the diff's order) to a file `named` names: the
    /// file itself, or one under the folder it names.
    fn first_to(&self, named: &[String]) -> Option<usize> {
        named
            .iter()
            .filter_map(|name| {
                let exact = self.by_path.get(name).copied();
                let folder = format!("{name}/");
                let under = self
                    .by_path
                    .range(folder.clone()..)
                    .take_while(|(path, _)| path.starts_with(&folder))
                    .map(|(_, &i)| i)
                    .min();
                exact.into_iter().chain(under).min()
            })
            .min()
    }
}

/// One file findings are in: the line ranges the range added or edited, its
/// lines at the base (trimmed), and where its lines start in the audited tree.
struct Written {
    hunks: Vec<(usize, usize)>,
    at_base: HashSet<String>,
    lines: LineIndex,
}

/// The versions of the files the range's commits hold, each read once: the
/// blob of a path at a commit, the lines (trimmed) of each blob, and each
/// commit's subject. Asked once per finding on a written line, so a record of
/// 20,000 such findings reads each version once, not 20,000 times.
#[derive(Default)]
struct Versions {
    blobs: HashMap<(Oid, String), Option<Oid>>,
    lines: HashMap<Oid, HashSet<String>>,
    subjects: HashMap<Oid, Option<String>>,
    /// The first line a commit changed in the file of its change `usize`.
    first_changed: HashMap<(Oid, usize), Option<usize>>,
}

/// The lines of a text, trimmed, blank ones left out.
fn trimmed_lines(text: &str) -> HashSet<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A finding as the base and the audited tree are compared by: check,
/// record, fact, stated text.
type Key = (&'static str, String, String, String);

impl Range {
    /// The range from `since` to `rev` (HEAD for the working tree); `now`
    /// (Unix seconds) is what an age such as `7.days.ago` counts back from.
    pub fn resolve(repo: &GitRepo, since: &str, rev: Option<&str>, now: i64) -> Result<Range> {
        let head_name = rev.unwrap_or("HEAD");
        // The revision's own error (with its shallow-clone advice), as the
        // audit would give it.
        let head = repo
            .resolve(head_name)
            .map_err(|e| Error::plain(e.to_string()))
            .and_then(|sha| Oid::from_str(&sha).map_err(|e| Error::plain(e.to_string())))?;
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
        // The first-parent line from the head back to the base, less every
        // commit the base's history holds (the base line merged into the
        // branch): one walk of the graph, not one per commit.
        let git_error = |e: git2::Error| Error::plain(format!("--since {since}: {}", e.message()));
        let mut walk = repo.raw().revwalk().map_err(git_error)?;
        walk.simplify_first_parent().map_err(git_error)?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL)
            .map_err(git_error)?;
        walk.push(head).map_err(git_error)?;
        walk.hide(base).map_err(git_error)?;
        let mut commits = Vec::new();
        for at in walk {
            if commits.len() >= MAX_COMMITS {
                break;
            }
            // A commit this clone lacks (a shallow edge) ends the line.
            let Ok(at) = at else { break };
            commits.push(at);
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
        let renamed = self.renamed(repo);
        let mut known: HashMap<Key, usize> = HashMap::new();
        let no_sources = BTreeMap::new();
        let base_sources = at_base.map_or(&no_sources, |r| &r.sources);
        let renamed_to: HashMap<&str, &str> = renamed
            .iter()
            .map(|(new, old)| (old.as_str(), new.as_str()))
            .collect();
        for finding in at_base.map_or(&[][..], |r| &r.findings[..]) {
            let at = finding.location.path.as_str();
            let path = renamed_to.get(at).copied().unwrap_or(at).to_owned();
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
        let mut changes: Vec<Option<Changes>> = self.commits.iter().map(|_| None).collect();
        let before = report.findings.len();
        let mut causes: Vec<Option<Cause>> = vec![None; before];
        // First the lines the range wrote: reported whatever the base said,
        // and each takes the base's like finding, if any, with it. A line
        // the range only moved (the same text in the base's file, and the
        // base with the same finding: a page sorted anew) was not written.
        let mut versions = Versions::default();
        for (i, finding) in report.findings.iter().enumerate() {
            let path = &finding.location.path;
            let text = report.sources.get(path).map_or("", |t| &**t);
            let file = written.entry(path.clone()).or_insert_with(|| {
                let old = renamed.get(path).unwrap_or(path);
                // A shipped pack or a rule file outside the repository is no
                // file a commit of the range (or uncommitted work) wrote.
                let outside = crate::frames::in_repository(std::iter::once(path.clone()))
                    .pop()
                    .flatten()
                    .is_none();
                let (hunks, at_base) = match repo.file_at(self.base, old) {
                    _ if outside => (Vec::new(), HashSet::new()),
                    Some((_, bytes)) => (
                        repo.line_hunks(&bytes, text.as_bytes())
                            .into_iter()
                            .filter(|&(_, _, _, lines)| lines > 0)
                            .map(|(_, _, start, lines)| (start, start + lines - 1))
                            .collect(),
                        trimmed_lines(&String::from_utf8_lossy(&bytes)),
                    ),
                    None => (vec![(1, usize::MAX)], HashSet::new()),
                };
                Written {
                    hunks,
                    at_base,
                    lines: LineIndex::new(text),
                }
            });
            let (first, last) = lines_of(report, i);
            let line = |n: usize| file.lines.line(text, n).unwrap_or("").trim();
            let moved = known.get(&key_of(report, i)).is_some_and(|c| *c > 0)
                && (first..=last)
                    .map(line)
                    .filter(|l| !l.is_empty())
                    .all(|l| file.at_base.contains(l));
            if !moved && file.hunks.iter().any(|&(a, b)| a <= last && first <= b) {
                if let Some(count) = known.get_mut(&key_of(report, i)).filter(|c| **c > 0) {
                    *count -= 1;
                }
                causes[i] = Some(self.wrote(repo, &mut versions, path, line(first)));
            }
        }
        for (i, cause) in causes.iter_mut().enumerate() {
            if cause.is_some() {
                continue;
            }
            match known.get_mut(&key_of(report, i)).filter(|c| **c > 0) {
                Some(count) => *count -= 1,
                None => {
                    *cause =
                        Some(self.changed(repo, &report.findings[i], &mut changes, &mut versions));
                }
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
        let renamed = self.renamed(repo);
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

    /// The cause of a finding on a line the range wrote: `line` is the finding's first line, trimmed. Its writer is the oldest
    /// commit of the unbroken run, back from the newest of the range, whose
    /// file holds the line; none when the newest does not (work not
    /// committed yet).
    fn wrote(&self, repo: &GitRepo, versions: &mut Versions, path: &str, line: &str) -> Cause {
        let mut commit = None;
        for &at in self.commits.iter().filter(|_| !line.is_empty()) {
            let blob = *versions
                .blobs
                .entry((at, path.to_owned()))
                .or_insert_with(|| {
                    let (blob, bytes) = repo.file_at(at, path)?;
                    versions
                        .lines
                        .entry(blob)
                        .or_insert_with(|| trimmed_lines(&String::from_utf8_lossy(&bytes)));
                    Some(blob)
                });
            if !blob.is_some_and(|b| versions.lines.get(&b).is_some_and(|l| l.contains(line))) {
                break;
            }
            commit = Some(at);
        }
        let subject = commit.and_then(|c| {
            versions
                .subjects
                .entry(c)
                .or_insert_with(|| repo.commit_subject(c))
                .clone()
        });
        Cause {
            how: CauseKind::Wrote,
            commit: commit.map(|c| c.to_string()),
            subject,
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
        finding: &crate::checks::Finding,
        changes: &mut [Option<Changes>],
        versions: &mut Versions,
    ) -> Cause {
        let named = names_of(finding);
        for (at, &commit) in self.commits.iter().enumerate() {
            let made = changes[at].get_or_insert_with(|| {
                Changes::of(match repo.first_parent_of(commit) {
                    Some(parent) => repo.changes_between(parent, commit),
                    None => Vec::new(),
                })
            });
            let Some(hit) = made.first_to(&named) else {
                continue;
            };
            let (old, new) = &made.list[hit];
            let (path, change) = match (old, new) {
                (Some(old), Some(new)) if old != new => {
                    (new.clone(), format!("renamed from {old}"))
                }
                (Some(old), None) => (old.clone(), "deleted".to_owned()),
                (None, Some(new)) => (new.clone(), "added".to_owned()),
                (_, Some(new)) => (new.clone(), "edited".to_owned()),
                (None, None) => continue,
            };
            let line = *versions
                .first_changed
                .entry((commit, hit))
                .or_insert_with(|| {
                    let (_, after) = repo.file_at(commit, new.as_ref()?)?;
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
            let subject = versions
                .subjects
                .entry(commit)
                .or_insert_with(|| repo.commit_subject(commit))
                .clone();
            return Cause {
                how: CauseKind::Changed,
                commit: Some(commit.to_string()),
                subject,
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

fn short(sha: &str) -> &str {
    sha.get(..8).unwrap_or(sha)
}

#[cfg(test)]
mod tests {
    use super::Changes;

    #[test]
    fn a_name_finds_its_file_or_a_file_under_its_folder_first_in_the_diff() {
        let change = |old: &str, new: &str| {
            let side = |p: &str| (!p.is_empty()).then(|| p.to_owned());
            (side(old), side(new))
        };
        let changes = Changes::of(vec![
            change("src/ab.py", "src/ab.py"),
            change("schemas/mcp/x.json", ""),
            change("src/a.py", "src/b.py"),
            change("", "src/a.pyc"),
        ]);
        let named = |names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
            changes.first_to(&names)
        };
        assert_eq!(named(&["src/a.py"]), Some(2));
        assert_eq!(named(&["src/b.py"]), Some(2));
        assert_eq!(named(&["schemas"]), Some(1));
        assert_eq!(named(&["src/a.py", "src"]), Some(0));
        assert_eq!(named(&["src/a"]), None);
        assert_eq!(named(&["docs"]), None);
    }
}
