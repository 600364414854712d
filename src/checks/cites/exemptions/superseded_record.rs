//! Exemption `superseded-record`, decided after the history's evidence
//! (`evidence/mod.rs`): a record whose own status says it no longer governs
//! — a decision record marked superseded, deprecated or rejected, as MADR's
//! `status:` field, Nygard's `## Status` section or an rst `Status` section
//! writes it. Its prose is the decision as it was taken; nobody edits a
//! superseded record into agreement with the code that replaced it. A
//! citation there that held when its line was written and broke since is the
//! record's history. One that never held is judged as anywhere.

use std::sync::OnceLock;

use regex::Regex;

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A citation in a record whose own status, near its top, says it no longer governs (a `Status: Superseded by ADR-0007` line, a `status: deprecated` front matter field, a `## Status` or rst `Status` section whose text begins `Superseded`, `Deprecated`, `Rejected`, `Declined`, `Obsolete`, `Replaced`, `Retired`, `Withdrawn`, `Abandoned` or `Invalidated`, or a banner at the page's head that labels it so: `**DEPRECATED:** …`, `# This feature has been removed`), that held when its line was written and broke since: the record is the decision as it was taken, history nobody revises. A citation that did not hold when written is judged as on any page; a status that qualifies the word (\"Mostly rejected\", \"Accepted, partially superseded\") is no such declaration. Likewise a record that a later record of its folder, itself in force, reverses: one whose opening says it supersedes, replaces, reverses or removes it by its number (`Supersedes ADR-0043`, `ADR 0043 is replaced`), or whose title says it removes or reverses something (`Removal of Site Offline Microsite`) and whose opening names it. A record in a folder whose name says its records no longer govern (a word of it is historic, historical, superseded, deprecated, retired, obsolete or rejected: `historic-adrs/`, `superseded/`) is read so too.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// A record's status is stated near its top: the lines read at most.
const STATUS_LINES: usize = 80;

/// The lines of a status section read at most, before its next heading.
const SECTION_LINES: usize = 12;

/// Why a citation of `record` that held at `written` is the record's
/// history, if the record's own status says it no longer governs.
pub(in crate::checks::cites) fn fires(record: &str, text: &str, written: &str) -> Option<String> {
    if let Some((line, word)) = declared_status(text) {
        return Some(format!(
            "{record}:{line} gives the record's status as {word}: it is the decision as it was taken, read as of when written; this held when the record cited it (at {written})"
        ));
    }
    let folder = retired_folder(record)?;
    Some(format!(
        "{record} sits in `{folder}/`, where the project keeps the records that no longer govern: read as of when written; this held when the record cited it (at {written})"
    ))
}

/// The lines of a later record read for what it says of an earlier one: its
/// title, status and context.
const OPENING_LINES: usize = 40;

/// The sibling records read at most for one that reverses a record.
const MAX_SIBLINGS: usize = 1000;

/// Why a citation of `record` that held at `written` is the record's
/// history, if a later record of its folder, in force, reverses it: one
/// whose opening says it supersedes, replaces, reverses or removes it by its
/// number (`Supersedes ADR-0043`, `ADR 0043 is replaced`), or whose title
/// says it removes or reverses something and whose opening names it
/// (`# 0044 – Removal of Site Offline Microsite` … "ADR 0043 introduced …").
/// The earlier record's status was never updated; the later one says it no
/// longer governs.
pub(in crate::checks::cites) fn reversed(
    record: &str,
    texts: &std::collections::BTreeMap<String, std::sync::Arc<str>>,
    written: &str,
) -> Option<String> {
    let (folder, name) = record.rsplit_once('/')?;
    let number: u64 = name
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .filter(|digits| !digits.is_empty() && digits.len() <= 6)?
        .parse()
        .ok()?;
    let prefix = format!("{folder}/");
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    texts
        .range(prefix.clone()..)
        .take_while(|(path, _)| path.starts_with(&prefix))
        .filter(|(path, _)| !path[prefix.len()..].contains('/') && path.as_str() != record)
        .take(MAX_SIBLINGS)
        .find_map(|(later, text)| {
            let line = reverses(text, number, stem)?;
            Some(format!(
                "{later}:{line} says this record no longer governs: it is the decision as it was taken, read as of when written; this held when the record cited it (at {written})"
            ))
        })
}

/// The line (1-based) where a record's opening says it reverses the record
/// numbered `number` (file stem `stem`), if it does and is itself in force.
fn reverses(text: &str, number: u64, stem: &str) -> Option<usize> {
    static VERB_FIRST: OnceLock<Regex> = OnceLock::new();
    let verb_first = VERB_FIRST.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:supersed|replac|revers|revert|remov|retir|deprecat|obsolet|rescind|revok|overturn)[a-z]*(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:adr|decision|record|rfc)[ \t#:-]*0*([0-9]{1,6})(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static NAMED_FIRST: OnceLock<Regex> = OnceLock::new();
    let named_first = NAMED_FIRST.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:adr|decision|record|rfc)[ \t#:-]*0*([0-9]{1,6})(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:is|was|has[ \t]+been|are|were)[ \t]+(?:now[ \t]+|hereby[ \t]+)?(?:superseded|replaced|reversed|reverted|removed|retired|deprecated|obsolete|rescinded|revoked|overturned)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let named = NAMED.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:adr|decision|record|rfc)[ \t#:-]*0*([0-9]{1,6})(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static UNDOING_TITLE: OnceLock<Regex> = OnceLock::new();
    let undoing_title = UNDOING_TITLE.get_or_init(|| {
        Regex::new(r"(?i)^[ \t]*#[^\n]*(?-u:\b)(?:removal|removing|remove|reversal|reversing|reverse|revert|reverting|retire|retiring|retirement|sunset|sunsetting|decommission)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let lines: Vec<&str> = text.lines().take(OPENING_LINES).collect();
    // A reversal proposed, rejected or itself superseded governs nothing.
    if declared_status(text).is_some() || lines.iter().any(|l| not_in_force(l)) {
        return None;
    }
    let names_it = |caps: regex::Captures<'_>| {
        caps.get(1)
            .and_then(|n| n.as_str().parse::<u64>().ok())
            .is_some_and(|n| n == number)
    };
    if let Some(at) = lines.iter().position(|line| {
        verb_first.captures_iter(line).any(names_it)
            || named_first.captures_iter(line).any(names_it)
    }) {
        return Some(at + 1);
    }
    let titled = lines.iter().position(|line| undoing_title.is_match(line))?;
    lines
        .iter()
        .any(|line| line.contains(stem) || named.captures_iter(line).any(names_it))
        .then_some(titled + 1)
}

/// Whether a line is a status field or banner saying the record is not (yet)
/// in force: proposed, a draft, rejected.
pub(in crate::checks::cites) fn not_in_force(line: &str) -> bool {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(
            r"(?i)^[^\p{L}\p{N}\n]{0,8}status[^\p{L}\p{N}\n]{0,4}[:|][^\p{L}\p{N}\n]{0,12}(?:proposed|draft|rejected|declined|withdrawn|open|pending|under[ \t]+review)(?-u:\b)",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    field.is_match(line)
}

/// The folder above `record` whose name says it holds records that no
/// longer govern: a word of it (split at `-`, `_`, `.`) is `historic`,
/// `superseded`, `deprecated`, `retired` and the like (`historic-adrs/`,
/// `superseded_decisions/`).
fn retired_folder(record: &str) -> Option<&str> {
    const WORDS: &[&str] = &[
        "historic",
        "historical",
        "superseded",
        "deprecated",
        "retired",
        "obsolete",
        "rejected",
    ];
    let (folders, _) = record.rsplit_once('/')?;
    let mut end = folders.len();
    loop {
        let start = folders[..end].rfind('/').map_or(0, |i| i + 1);
        let name = folders[start..end].to_ascii_lowercase();
        if name
            .split(['-', '_', '.'])
            .any(|word| WORDS.contains(&word))
        {
            return Some(&folders[..end]);
        }
        if start == 0 {
            return None;
        }
        end = start - 1;
    }
}

/// The line (1-based) where `text` declares itself no longer in force, and
/// the status word it uses (lowercased), if it does.
fn declared_status(text: &str) -> Option<(usize, String)> {
    let lines: Vec<&str> = text.lines().take(STATUS_LINES).collect();
    let mut in_fence = false;
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(word) = status_field(line) {
            return Some((index + 1, word));
        }
        if !past_head(&lines[..index])
            && let Some(word) = status_banner(line)
        {
            return Some((index + 1, word));
        }
        if is_status_heading(&lines, index) {
            let body = index + if trimmed.starts_with('#') { 1 } else { 2 };
            return section_status(&lines, body);
        }
    }
    None
}

/// The status word of a one-line status field (`Status: Superseded by …`,
/// `* **Status:** rejected`, `| Status | Deprecated |`, `status: obsolete`).
fn status_field(line: &str) -> Option<String> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(r"(?i)^[^\p{L}\p{N}\n]{0,8}status[^\p{L}\p{N}\n]{0,4}[:|][^\p{L}\p{N}\n]{0,12}(superseded|deprecated|rejected|declined|obsolete|replaced|retired|withdrawn|abandoned|invalidated)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    field.captures(line).map(|c| c[1].to_lowercase())
}

/// The status word of a banner at a page's head that labels the whole page
/// (`**DEPRECATED: what follows predates …**`, `> **Obsolete.** See …`,
/// `Superseded by ADR-0009`, `# This functionality has now been removed`): the word leads the line and is a label — a
/// colon, a full stop or the end of the line after it, or `by` — not the
/// first word of a sentence about something else ("Deprecated options are
/// listed below").
fn status_banner(line: &str) -> Option<String> {
    static BANNER: OnceLock<Regex> = OnceLock::new();
    let banner = BANNER.get_or_init(|| {
        Regex::new(r"(?i)^[^\p{L}\p{N}\n]{0,12}(superseded|deprecated|obsolete|retired|withdrawn|abandoned)(?:[^\p{L}\p{N}\n]{0,4}(?::|$)|[*_]{0,2}[.!][*_]{0,2}(?:\s|$)|\s+by\s)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static SUBJECT_GONE: OnceLock<Regex> = OnceLock::new();
    let subject_gone = SUBJECT_GONE.get_or_init(|| {
        Regex::new(r"(?i)^[^\p{L}\p{N}\n]{0,12}this[ \t]+(?:[\p{L}-]+[ \t]+){0,2}(?:has|have|is|are)[ \t]+(?:now[ \t]+)?(?:been[ \t]+)?(removed|deprecated|retired|superseded|discontinued|decommissioned)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    banner
        .captures(line)
        .or_else(|| subject_gone.captures(line))
        .map(|c| c[1].to_lowercase())
}

/// Whether `lines` (the page above a line) reach past its head: a second
/// heading, Markdown or rst, starts the body, where a banner no longer
/// speaks for the whole page.
fn past_head(lines: &[&str]) -> bool {
    let headings = lines
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            line.starts_with('#')
                || (!line.trim().is_empty()
                    && lines.get(i + 1).is_some_and(|next| is_underline(next)))
        })
        .count();
    headings > 1
}

/// Whether line `index` opens a section titled `Status`: a Markdown heading,
/// or an rst title over its underline.
fn is_status_heading(lines: &[&str], index: usize) -> bool {
    let line = lines[index].trim();
    if let Some(title) = line.strip_prefix('#') {
        return title
            .trim_start_matches('#')
            .trim()
            .eq_ignore_ascii_case("status");
    }
    line.eq_ignore_ascii_case("status")
        && lines.get(index + 1).is_some_and(|next| is_underline(next))
}

/// An rst section underline (`------`, `======`, `******`).
fn is_underline(line: &str) -> bool {
    let line = line.trim_end();
    line.len() >= 3
        && line.chars().all(|c| {
            matches!(
                c,
                '=' | '-' | '~' | '^' | '*' | '#' | '+' | '`' | '"' | '\''
            )
        })
}

/// The status word a section's text begins a line with, up to its next
/// heading: Nygard's tools add `Superseded by …` under `Accepted`.
fn section_status(lines: &[&str], from: usize) -> Option<(usize, String)> {
    static OPENS: OnceLock<Regex> = OnceLock::new();
    let opens = OPENS.get_or_init(|| {
        Regex::new(r"(?i)^[^\p{L}\p{N}\n]{0,12}(superseded|deprecated|rejected|declined|obsolete|replaced|retired|withdrawn|abandoned|invalidated)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let end = (from + SECTION_LINES).min(lines.len());
    for index in from..end {
        let line = lines[index];
        let next_is_underline = lines.get(index + 1).is_some_and(|next| is_underline(next));
        if line.trim_start().starts_with('#') || (!line.trim().is_empty() && next_is_underline) {
            return None;
        }
        if let Some(found) = opens.captures(line) {
            return Some((index + 1, found[1].to_lowercase()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_record_in_force_that_reverses_one_makes_it_history() {
        let texts: std::collections::BTreeMap<String, std::sync::Arc<str>> = [
            (
                "adr/0043-site-offline.md",
                "# 0043 - Site offline\n\n- **Status**: accepted\n",
            ),
            (
                "adr/0044-site-offline.md",
                "# 0044 - Removal of Site Offline Microsite\n\n**Status**: accepted\n\nADR 0043 introduced a microsite.\n",
            ),
            ("adr/0012-queue.md", "# 12. Queue\n\nStatus: accepted\n"),
            (
                "adr/0020-bus.md",
                "# 20. Bus\n\nStatus: accepted\n\nSupersedes [ADR-0012](0012-queue.md).\n",
            ),
            ("adr/0030-cache.md", "# 30. Cache\n\nStatus: accepted\n"),
            (
                "adr/0031-cache-removal.md",
                "# 31. Remove the cache\n\nStatus: proposed\n\nADR 30 is replaced.\n",
            ),
            ("adr/0040-db.md", "# 40. Database\n\nStatus: accepted\n"),
            (
                "adr/0041-orm.md",
                "# 41. ORM\n\nStatus: accepted\n\nBuilds on ADR 40; it replaced nothing.\n",
            ),
        ]
        .into_iter()
        .map(|(p, t)| (p.to_owned(), t.into()))
        .collect();
        let why = |record: &str| reversed(record, &texts, "abc12345");
        assert!(
            why("adr/0043-site-offline.md")
                .is_some_and(|w| w.starts_with("adr/0044-site-offline.md:1 "))
        );
        assert!(why("adr/0012-queue.md").is_some_and(|w| w.starts_with("adr/0020-bus.md:5 ")));
        // A reversal only proposed, and a record merely built on: in force.
        assert_eq!(why("adr/0030-cache.md"), None);
        assert_eq!(why("adr/0040-db.md"), None);
    }

    #[test]
    fn fires_where_the_record_says_it_no_longer_governs() {
        for (text, line, word) in [
            (
                "# 3. Queues\n\n## Status\n\nSuperseded by [ADR 7](0007-streams.md)\n",
                5,
                "superseded",
            ),
            (
                "# 3. Queues\n\n## Status\n\nAccepted\n\nSuperseded by [7](0007.md)\n\n## Context\n",
                7,
                "superseded",
            ),
            (
                "Queues\n======\n\nStatus\n------\n\nSuperseded by ADR: 0003-streams.rst\n",
                7,
                "superseded",
            ),
            (
                "---\ntitle: Queues\nstatus: deprecated\n---\n\n# Queues\n",
                3,
                "deprecated",
            ),
            (
                "# Queues\n\n* Status: rejected\n* Deciders: the team\n",
                3,
                "rejected",
            ),
            ("# Queues\n\n**Status:** Obsolete\n", 3, "obsolete"),
            (
                "# Queues\n\n| Status | Withdrawn |\n|---|---|\n",
                3,
                "withdrawn",
            ),
            (
                "# Queues\n\n## Status\n\n⌛️ Superseded [0004](0004.md)\n",
                5,
                "superseded",
            ),
            ("# Queues\n\n## Status\n\n❌ Rejected\n", 5, "rejected"),
            // A banner at the page's head.
            (
                "# Decisions\n\n**DEPRECATED: what follows predates our records; read it as history.**\n\n## Make\n",
                3,
                "deprecated",
            ),
            (
                "> **Obsolete.** See the new guide.\n\n# Queues\n",
                1,
                "obsolete",
            ),
            // A page whose head says its subject is gone.
            (
                "# THIS FUNCTIONALITY HAS NOW BEEN REMOVED\n\n## Replace the data\n",
                1,
                "removed",
            ),
        ] {
            assert_eq!(
                declared_status(text),
                Some((line, word.to_owned())),
                "{text}"
            );
        }
        let why = fires("docs/adr/0003.md", "## Status\n\nDeprecated\n", "1a2b3c4d");
        assert!(
            why.is_some_and(|w| w.starts_with("docs/adr/0003.md:3 ") && w.contains("deprecated"))
        );
    }

    #[test]
    fn stays_quiet_where_the_record_is_in_force_or_only_qualified() {
        for text in [
            "# 3. Queues\n\n## Status\n\nAccepted\n\n## Context\n\nThe old design was superseded.\n",
            "# 3. Queues\n\n## Status\n\nAccepted. Supersedes [ADR 2](0002.md)\n",
            "Queues\n======\n\nStatus\n------\n\nMostly Rejected May 2021\n",
            "Queues\n======\n\nStatus\n------\n\nApproved, partially superseded by 0015\n",
            "# Queues\n\nStatus: Accepted\n\nThe deprecated endpoint stays.\n",
            "# Queues\n\n```yaml\nstatus: deprecated\n```\n",
            "# Queues\n\n## Status\n\nProposed\n\n## Decision\n\nRejected messages go to a dead-letter queue.\n",
            "# Queues\n\nThe job's status: rejected when the queue is full.\n",
            // A sentence about other things, and a banner in the body.
            "# Options\n\nDeprecated options are listed below.\n",
            "# Queues\n\n## Flags\n\n**Deprecated:** `--fast` is ignored.\n",
            // What this page removes, and a removal in the body.
            "# Cleanup\n\nThis script removes old files.\n",
            "# Queues\n\n## Flags\n\nThis flag has been removed.\n",
        ] {
            assert_eq!(declared_status(text), None, "{text}");
        }
    }

    #[test]
    fn a_folder_named_for_retired_records_holds_records_read_as_written() {
        assert_eq!(
            retired_folder("web/docs/architecture/historic-adrs/dotenv.md"),
            Some("web/docs/architecture/historic-adrs")
        );
        assert_eq!(
            retired_folder("docs/superseded/0003-queues.md"),
            Some("docs/superseded")
        );
        let why = fires("docs/historical/x.md", "# X\n", "abc1234").unwrap();
        assert!(why.contains("`docs/historical/`"), "{why}");
        for record in [
            "docs/adr/0001-history.md",
            "docs/prehistoric/x.md",
            "README.md",
            "docs/deprecations.md",
        ] {
            assert_eq!(retired_folder(record), None, "{record}");
        }
    }
}
