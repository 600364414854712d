//! Stage 0 of `check --since`: what `--since` names. A revision first (a sha,
//! a branch such as `origin/main`, a tag such as `v2.3.0`, `HEAD~5`), as
//! `--rev` resolves one; else a time, for a scheduled run ("what went stale
//! this week"): a day (`2026-11-25`) or an age (`7.days.ago`, `2 weeks ago`,
//! `36.hours.ago`), which names the last commit of the audited line committed
//! by then.

use git2::Oid;

use crate::error::{Error, Result};
use crate::snapshot::{Day, GitRepo};

/// Seconds in each unit an age may be written in (a month is 30 days, a year
/// 365, as git's approxidate counts them).
const UNITS: &[(&str, i64)] = &[
    ("second", 1),
    ("minute", 60),
    ("hour", 3_600),
    ("day", 86_400),
    ("week", 7 * 86_400),
    ("month", 30 * 86_400),
    ("year", 365 * 86_400),
];

/// A time `--since` may name, as Unix seconds: the end of a day, or `now`
/// less an age. `None` when `text` is neither.
pub fn time_named(text: &str, now: i64) -> Option<i64> {
    if let Some(day) = Day::parse(text) {
        return Some(day.end_utc());
    }
    let words: Vec<&str> = text
        .split(['.', ' ', '_'])
        .filter(|w| !w.is_empty())
        .collect();
    let [count, unit, "ago"] = words.as_slice() else {
        return None;
    };
    let count: i64 = count.parse().ok().filter(|n| *n >= 0)?;
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    let (_, seconds) = UNITS.iter().find(|(name, _)| *name == unit)?;
    Some(now.saturating_sub(count.saturating_mul(*seconds)))
}

/// The commit `since` names, read back from `head` when it names a time.
pub fn resolve(repo: &GitRepo, since: &str, head: Oid, now: i64) -> Result<Oid> {
    let revision = match repo.resolve(since) {
        Ok(sha) => return Oid::from_str(&sha).map_err(|e| Error::plain(e.to_string())),
        Err(error) => error,
    };
    let Some(cutoff) = time_named(since, now) else {
        // Neither: the revision's own error, with its shallow-clone advice.
        return Err(Error::plain(format!("--since: {revision}")).with_help(
            "--since takes a revision (a sha, a branch, a tag), a day (2026-11-25) \
             or an age (7.days.ago)",
        ));
    };
    repo.last_commit_before(head, cutoff).ok_or_else(|| {
        let why = if repo.is_shallow() {
            "this shallow clone's history ends after that time: fetch more of it \
             (`git fetch --shallow-since=DATE`, or `fetch-depth: 0` in actions/checkout)"
        } else {
            "the audited line's first commit is younger: the range would be its whole \
             history, which the full check (without --since) reports"
        };
        Error::plain(format!(
            "--since {since}: no commit of the audited line is that old"
        ))
        .with_help(why)
    })
}

#[cfg(test)]
mod tests {
    use super::time_named;

    const NOW: i64 = 1_800_000_000;

    #[test]
    fn an_age_counts_back_from_now_in_its_unit() {
        assert_eq!(time_named("7.days.ago", NOW), Some(NOW - 7 * 86_400));
        assert_eq!(time_named("1.week.ago", NOW), Some(NOW - 7 * 86_400));
        assert_eq!(time_named("2 weeks ago", NOW), Some(NOW - 14 * 86_400));
        assert_eq!(time_named("36.hours.ago", NOW), Some(NOW - 36 * 3_600));
    }

    #[test]
    fn a_day_is_its_end_and_anything_else_is_no_time() {
        assert_eq!(time_named("2026-11-25", NOW), Some(1_795_651_199));
        for not_a_time in [
            "v2.3.0",
            "origin/main",
            "7.days",
            "seven.days.ago",
            "-1.days.ago",
        ] {
            assert_eq!(time_named(not_a_time, NOW), None, "{not_a_time}");
        }
    }
}
