//! Stage 4, the citation family's findings: whether a stale cite's words are
//! history — a sentence that narrates a change or reports work done, release
//! notes, a dated post, a decision record's account of the tree it changed —
//! so that the replacement the evidence proves is said, and never written
//! over them (`recount fix`, and every report's suggested edit). The check's
//! own history rules are its clauses: the sentence that says its path went
//! (`releases::sentence_says_gone`, which the `changelog-removal` exemption
//! asks) and a decision record's account of what it changed
//! (`decided_change::decision_at`): one reading of "these words are about
//! the past" for both.

use std::sync::OnceLock;

use regex::Regex;

use super::exemptions::decided_change::{decision_at, is_decision_record};
use super::exemptions::frozen_docs::{dated_post, named_for_its_day, post_day};
use super::exemptions::sentence_around;
use super::exemptions::snapshot_page::dated_line;
use super::releases;

/// Why the words around the cite at `at` of `record` are history, when they
/// are. `release_notes`: the record is a changelog or one release's page.
pub(crate) fn narrated(record: &str, text: &str, at: usize, release_notes: bool) -> Option<String> {
    if let Some(words) = releases::sentence_says_gone(text, at) {
        return Some(format!("its sentence says it went (\"{words}\")"));
    }
    if release_notes || releases::is_changelog(record) {
        return Some("release notes record what their release was".to_owned());
    }
    // A decision record in force is kept current (the check holds it so);
    // its account of the tree it was written against (its `Context`, a
    // sentence deciding to change the path) is the decision's history.
    if is_decision_record(record)
        && let Some(found) = decision_at(text, at, true)
    {
        return Some(format!(
            "the decision record's words are the tree its decision changed (\"{found}\")"
        ));
    }
    if dated_post(record) || post_day(record, text).is_some() {
        return Some("a dated post describes its own day".to_owned());
    }
    // A record named for its day (a design spec, a meeting's notes, a
    // report: `specs/2026-06-11-migrate-x.md`) is that day's account, as a
    // post is, wherever it is kept; a decision record in force is current.
    if !is_decision_record(record) && named_for_its_day(record) {
        return Some("the record is named for its day: an account of that day".to_owned());
    }
    // A record that dates itself at its head (a handoff "Landed 2026-06-02",
    // a report's "Date: 2025-03-01") is that day's account; a decision
    // record in force is kept current, dated or not.
    if !is_decision_record(record)
        && let Some(day) = dated_head(text)
    {
        return Some(format!(
            "the record dates itself ({day}): an account of that day"
        ));
    }
    if let Some(day) = dated_line_around(text, at) {
        return Some(format!("its line is dated ({day}): an entry of that day"));
    }
    if let Some(commit) = section_commit(text, at) {
        return Some(format!(
            "its section's heading names commit {commit}: an account of that commit's tree"
        ));
    }
    if names_what_was(text, at) {
        return Some("an arrow after it names what it became: it is what was".to_owned());
    }
    narrating_word(text, at).map(|word| format!("its sentence narrates a change (\"{word}\")"))
}

/// The commit the heading of the cite's section names (`## Stage 1.2: split
/// the adapter (commit 6c6e372)`), when it names one: a log's entry about
/// that commit, whose line numbers are that commit's.
fn section_commit(text: &str, at: usize) -> Option<String> {
    static COMMIT: OnceLock<Regex> = OnceLock::new();
    let commit = COMMIT.get_or_init(|| {
        Regex::new(r"(?i)\bcommit\s+`?([0-9a-f]{7,40})\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let heading = text[..at.min(text.len())]
        .lines()
        .rev()
        .find(|line| line.starts_with('#'))?;
    commit.captures(heading).map(|caps| caps[1].to_owned())
}

/// The day the cite's line gives outside its code and link destinations
/// (`**Status (2026-08-20)**: resolved at `x.rs:979``), when it gives one:
/// the line is that day's entry. (A day inside a path names a file.)
fn dated_line_around(text: &str, at: usize) -> Option<String> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = code().replace_all(&text[start..end], " ");
    dated_line(&line, 0).map(|(_, day)| day.to_owned())
}

/// The day a record gives in its first lines (outside code and link
/// destinations), when it gives one.
fn dated_head(text: &str) -> Option<String> {
    const HEAD_LINES: usize = 12;
    text.lines().take(HEAD_LINES).find_map(|line| {
        let line = code().replace_all(line, " ");
        dated_line(&line, 0).map(|(_, day)| day.to_owned())
    })
}

/// Whether the cite is the left side of an arrow on its line (`a.py` →
/// `b.py`, `old -> new`): a move's record names what was, then what is.
fn names_what_was(text: &str, at: usize) -> bool {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let rest = &text[at..end];
    // Past the cite itself: its closing backtick, or its link's `)`.
    let after = match rest.strip_prefix('`') {
        Some(inner) => inner.find('`').map(|i| &inner[i + 1..]),
        None => rest.find(')').map(|i| &rest[i + 1..]),
    };
    after.is_some_and(|after| {
        let after = after.trim_start_matches(['*', '_', ' ', '\t']);
        ["→", "->", "=>", "⇒", "⟶"]
            .iter()
            .any(|arrow| after.starts_with(arrow))
    })
}

/// Code spans, link destinations and autolinks: not the sentence's words.
fn code() -> &'static Regex {
    static CODE: OnceLock<Regex> = OnceLock::new();
    CODE.get_or_init(|| {
        Regex::new(r"`[^`\n]*`|\]\([^)\n]*\)|<[^>\n]*>")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    })
}

/// The first word of the cite's sentence that tells of a change or of a
/// past ("renamed", "was", "used to"), of work done ("created",
/// "implemented", "added", "now", "new": a report of what a change did), or
/// of a change to make ("delete", "rename": a plan for the path), outside
/// backticks and link destinations (a path's own name is not the
/// sentence's words).
fn narrating_word(text: &str, at: usize) -> Option<String> {
    static WORDS: OnceLock<Regex> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        Regex::new(
            r"\b(?:renamed|renaming|moved|moving|replaced|removed|deleted|gone|formerly|previously|originally|was|were|used\s+to|no\s+longer|superseded|deprecated|retired|migrated|relocated|legacy|old|older|created|added|implemented|introduced|landed|shipped|merged|extracted|refactored|rewrote|rewritten|consolidated|converted|ported|fixed|updated|changed|wrote|now|new|rename|move|delete|deleting|remove|removing|replace|drop|migrate|deprecate|introduce|add|create|untouched|modified|modify|pr|pull\s+request)\b",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let sentence = sentence_around(text, at)?;
    let prose = code().replace_all(&sentence, " ");
    words.find(&prose).map(|m| m.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, cite: &str) -> usize {
        text.find(cite).expect("the cite is in the text")
    }

    #[test]
    fn a_section_whose_heading_names_a_commit_is_that_commits_account() {
        let log = "# Progress\n\n## Stage 1.2: split the adapter (commit 6c6e372)\n\n- `tile/core/Base.ts:68` holds the manager.\n";
        assert_eq!(
            section_commit(log, at(log, "tile/")).as_deref(),
            Some("6c6e372")
        );
        let plain = "# Progress\n\n## Stage 1.2: split the adapter\n\nThe commit 6c6e372 did it.\n\n- `tile/core/Base.ts:68`\n";
        assert_eq!(section_commit(plain, at(plain, "tile/")), None);
    }

    #[test]
    fn a_sentence_that_tells_of_a_change_is_history() {
        for text in [
            "The `pkg/client` package was renamed to `pkg/esclient` in 2.0.\n",
            "*Exit:* `pkg/client` gone, its callers moved over.\n",
            "The checker used to live in `src/check.py` before the split.\n",
            "Formerly the guide was at [the guide](old/guide.md).\n",
            "- Created `api/swagger.yaml` with the complete definition\n",
            "Implemented in `crates/core/src/import.rs` as part of PR #37.\n",
            "- `lib/views/list.dart` — a tap now opens the sheet.\n",
            "`test/views/old_test.dart` (delete once the new one lands)\n",
            "- `scripts/gate-1b-check.py` → `scripts/fix-bug/check.py`\n",
            "**Status (2026-08-20)**: resolved at `preview.rs:979` for good.\n",
            "(`crates/core/src/command.rs` is untouched in this PR;\n",
        ] {
            let cite = text.find('`').or_else(|| text.find('[')).unwrap();
            assert!(
                narrated("docs/guide.md", text, cite, false).is_some(),
                "{text}"
            );
        }
    }

    #[test]
    fn a_sentence_about_today_is_not() {
        let text = "Batches live in [the store](../src/old_store.py), beside `src/was.py`.\n";
        assert_eq!(
            narrated("docs/guide.md", text, at(text, "[the store]"), false),
            None
        );
        // The right side of an arrow is what is; a day in a path is a name.
        let moved = "- `scripts/a.py` → `scripts/b/a.py`\n";
        assert_eq!(
            narrated("docs/guide.md", moved, at(moved, "`scripts/b"), false),
            None
        );
        let dated = "Track it in `todos/2026-07-21-batches.md` until it closes.\n";
        assert_eq!(
            narrated("docs/guide.md", dated, at(dated, "`todos"), false),
            None
        );
    }

    #[test]
    fn a_record_named_for_its_day_is_that_days_account() {
        let text = "The stack lives in `server/validator-next.ts`.\n";
        let at = text.find('`').unwrap();
        assert!(narrated("docs/specs/2026-06-11-migrate-design.md", text, at, false).is_some());
        assert!(narrated("docs/specs/migrate-design.md", text, at, false).is_none());
    }

    #[test]
    fn a_record_dated_at_its_head_is_that_days_account() {
        let handoff = "# Script rename\n\nLanded 2026-06-02 in three commits.\n\n- `lib/views/program_view.dart` reads the script.\n";
        assert!(
            narrated(
                "docs/prompts/handoff.md",
                handoff,
                at(handoff, "`lib"),
                false
            )
            .is_some()
        );
        let adr =
            "# 4. Store\n\nDate: 2026-06-02\n\n## Decision\n\nBatches live in `src/store.py`.\n";
        assert!(narrated("docs/adr/0004-store.md", adr, at(adr, "`src"), false).is_none());
    }

    #[test]
    fn release_notes_decisions_and_posts_are_history_whatever_the_sentence() {
        let text = "Batches live in [the store](../src/store.py).\n";
        let cite = at(text, "[the store]");
        assert!(narrated("CHANGELOG.md", text, cite, false).is_some());
        assert!(narrated("docs/whatsnew/3.1.md", text, cite, true).is_some());
        // A decision record in force is kept current; its context is not.
        assert!(narrated("docs/adr/0004-store.md", text, cite, false).is_none());
        let adr = "# 4. Store\n\n## Context\n\nBatches live in [the store](../src/store.py).\n";
        assert!(narrated("docs/adr/0004-store.md", adr, at(adr, "[the"), false).is_some());
        let post = "---\ndate: 2021-03-04\n---\nBatches live in [the store](../src/store.py).\n";
        assert!(narrated("blog/2021-03-04-store.md", post, at(post, "[the"), false).is_some());
        assert!(narrated("docs/guide.md", text, cite, false).is_none());
    }
}
