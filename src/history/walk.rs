//! The history's first step: which commits a range names. The first-parent line
//! of the range's end, back to (not including) its start, cut at `--since`, and
//! refused when it holds more than `--max-commits` commits.

use git2::{Oid, Repository, Sort};

use crate::error::{Error, Result};
use crate::snapshot::{Day, GitRepo};

/// One commit of the walked range, as reports show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CommitInfo {
    /// The full commit id.
    pub id: String,
    /// The first eight hex digits.
    pub short: String,
    pub author: String,
    /// The author date, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// The first line of the message.
    pub subject: String,
}

impl CommitInfo {
    pub(crate) fn of(commit: &git2::Commit<'_>) -> CommitInfo {
        let id = commit.id().to_string();
        let author = commit.author();
        CommitInfo {
            short: id[..8].to_owned(),
            id,
            author: String::from_utf8_lossy(author.name_bytes()).into_owned(),
            date: iso_utc(author.when().seconds()),
            subject: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                .into_owned(),
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since the Unix epoch.
pub(crate) fn iso_utc(seconds: i64) -> String {
    let day = Day::from_unix(seconds);
    let of_day = seconds.rem_euclid(86_400);
    format!(
        "{day}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        (of_day % 3600) / 60,
        of_day % 60
    )
}

/// What to walk.
#[derive(Debug, Clone)]
pub struct RangeSpec {
    /// `A..B`, `A..` (A..HEAD), or `B` (B back to the root); `None` = `HEAD`.
    pub range: Option<String>,
    /// Only commits dated (committer date, UTC) on or after this day.
    pub since: Option<Day>,
    /// The most commits the range may hold.
    pub max_commits: usize,
}

/// The range as written, split into its excluded start and its end.
fn split(range: &str) -> Result<(Option<&str>, &str)> {
    match range.split_once("..") {
        Some((_, end)) if end.starts_with('.') => Err(Error::plain(format!(
            "`{range}` is not a range recount walks: give `A..B` (first-parent commits after A \
             up to B), `A..` or one revision (the commits up to it)"
        ))),
        Some((start, end)) => {
            if start.is_empty() {
                return Err(Error::plain(format!(
                    "the range `{range}` has no start: give `A..B`, or the end alone (`{}`) to \
                     walk back to the first commit",
                    if end.is_empty() { "HEAD" } else { end }
                )));
            }
            Ok((Some(start), if end.is_empty() { "HEAD" } else { end }))
        }
        None if range.is_empty() => Err(Error::plain("the range is empty: give `A..B`")),
        None => Ok((None, range)),
    }
}

/// The first-parent commits of the range, oldest first.
pub(crate) fn commits(repo: &GitRepo, spec: &RangeSpec) -> Result<Vec<Oid>> {
    let text = spec.range.as_deref().unwrap_or("HEAD");
    let (start, end) = split(text)?;
    let revision = |rev: &str| {
        repo.resolve(rev)
            .map_err(|e| Error::plain(format!("in the range `{text}`: {e}")))
            .and_then(|id| Oid::from_str(&id).map_err(|e| Error::plain(e.to_string())))
    };
    let end = revision(end)?;
    let start = start.map(revision).transpose()?;
    walk(repo.raw(), end, start, spec, text)
}

/// The oldest commit walked, as `short (date)`, when it is where a shallow
/// clone's history stops (its parents are not in the clone), not where the range
/// asked to start.
pub(crate) fn shallow_boundary(repo: &GitRepo, oldest: Oid) -> Option<String> {
    if !repo.is_shallow() {
        return None;
    }
    let raw = repo.raw();
    let commit = raw.find_commit(oldest).ok()?;
    let cut = commit.parent_count() == 0
        || commit
            .parent_ids()
            .any(|parent| raw.find_commit(parent).is_err());
    cut.then(|| {
        let short = oldest.to_string()[..8].to_owned();
        let day = iso_utc(commit.time().seconds());
        format!("{short} ({})", &day[..10])
    })
}

fn walk(
    raw: &Repository,
    end: Oid,
    start: Option<Oid>,
    spec: &RangeSpec,
    text: &str,
) -> Result<Vec<Oid>> {
    let git = |e: git2::Error| Error::plain(format!("cannot walk `{text}`: {}", e.message()));
    let mut walk = raw.revwalk().map_err(git)?;
    walk.set_sorting(Sort::NONE).map_err(git)?;
    walk.simplify_first_parent().map_err(git)?;
    walk.push(end).map_err(git)?;
    if let Some(start) = start {
        walk.hide(start).map_err(git)?;
    }
    let cutoff = spec.since.map(|day| day.end_utc() - 86_399);
    let mut out = Vec::new();
    for oid in walk {
        // A shallow clone's line stops where a parent is missing.
        let Ok(oid) = oid else { break };
        if let Some(cutoff) = cutoff {
            let Ok(commit) = raw.find_commit(oid) else {
                break;
            };
            if commit.time().seconds() < cutoff {
                break;
            }
        }
        if out.len() == spec.max_commits {
            let since = spec
                .since
                .map(|d| format!(" since {d}"))
                .unwrap_or_default();
            return Err(Error::plain(format!(
                "the range `{text}`{since} holds more than {} first-parent commits (--max-commits)",
                spec.max_commits
            ))
            .with_help(
                "narrow it (`--since DATE`, `--range A..B`) or raise `--max-commits`".to_owned(),
            ));
        }
        out.push(oid);
    }
    out.reverse();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_split_into_start_and_end() {
        assert_eq!(split("a..b").ok(), Some((Some("a"), "b")));
        assert_eq!(split("a..").ok(), Some((Some("a"), "HEAD")));
        assert_eq!(split("b").ok(), Some((None, "b")));
        assert!(split("..b").is_err());
        assert!(split("a...b").is_err());
        assert!(split("").is_err());
    }

    #[test]
    fn dates_print_as_utc() {
        assert_eq!(
            iso_utc(1_788_220_800 + 5 * 3600 + 61),
            "2026-09-01T05:01:01Z"
        );
    }
}
