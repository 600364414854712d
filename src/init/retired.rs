//! Drafting: retired claims — a passage that says a figure was withdrawn, was an
//! earlier draft's, or no longer holds. When the passage names the figure as an
//! expression over constants of this tree ("an earlier draft recorded the cap as
//! 2 * MAX_SOURCE_FILE_BYTES"), that phrase becomes a `[[retired]]` rule: it may
//! come back only beside an attribution. Otherwise the passage is listed as a
//! candidate for a rule written by hand.

use std::sync::OnceLock;

use regex::Regex;

use super::figures::{constant_names, expression};
use super::{Draft, DraftRetired, Hit, NotDrafted, Scan, in_code, slug};

/// The words that attribute a retired figure; the drafted rules' `attribution`.
pub const ATTRIBUTION: &str = "(?i)earlier draft|withdrawn|superseded|retracted|no longer|interim|previously|replaced|recorded as";

fn marker() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:withdrawn|earlier draft|no longer|superseded|retracted|recorded as)\b",
        )
        .expect("the marker pattern compiles")
    })
}

/// A figure the retiring sentence quotes ("recorded as "roughly 3.0x the
/// wire bytes, 75.1 MiB""): the quoted words, when they hold a digit.
fn quoted_figure() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(
            r#""(?<q>[^"\n]{1,120}?\d[^"\n]{0,120}?)"|“(?<c>[^”\n]{1,120}?\d[^”\n]{0,120}?)”"#,
        )
        .expect("the quote pattern compiles")
    })
}

fn phrase() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| Regex::new(&expression()).expect("the expression pattern compiles"))
}

/// Whether a record is a decision record (an ADR, an RFC, a design note), by
/// the folders it is filed under.
fn is_decision_record(path: &str) -> bool {
    let folders: Vec<String> = path.split('/').map(str::to_ascii_lowercase).collect();
    folders[..folders.len().saturating_sub(1)].iter().any(|f| {
        [
            "adr",
            "adrs",
            "decisions",
            "decision-records",
            "rfc",
            "rfcs",
            "design",
            "architecture",
        ]
        .contains(&f.as_str())
    })
}

/// The sentence of prose `text` around byte `at`.
pub(super) fn sentence(text: &str, at: usize) -> std::ops::Range<usize> {
    let before = text.get(..at).unwrap_or("");
    let start = [before.rfind(". "), before.rfind('\n')]
        .into_iter()
        .flatten()
        .max()
        .map_or(0, |i| i + 1);
    let after = text.get(at..).unwrap_or("");
    let end = [after.find(". "), after.find('\n')]
        .into_iter()
        .flatten()
        .min()
        .map_or(text.len(), |i| at + i + 1);
    let start = start
        + text
            .get(start..)
            .map_or(0, |s| s.len() - s.trim_start().len());
    start..end.min(text.len())
}

/// Drafts retired rules and candidates from every record, changelogs included.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    for record in &scan.records {
        let prose = record.prose().text();
        let mut last_sentence = None;
        for m in marker().find_iter(prose) {
            let range = sentence(prose, m.start());
            if last_sentence == Some(range.clone()) || in_code(record, &range) {
                continue;
            }
            last_sentence = Some(range.clone());
            let Some(text) = prose.get(range.clone()) else {
                continue;
            };
            // "No longer" is everyday changelog and manual prose; it retires a
            // claim only in a decision record.
            if m.as_str().eq_ignore_ascii_case("no longer") && !is_decision_record(&record.path) {
                continue;
            }
            let hit = Hit {
                record,
                whole: range.clone(),
                value: range.clone(),
            };
            let mut pinned: Vec<String> = phrase()
                .find_iter(text)
                .map(|p| p.as_str().split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|p| {
                    constant_names(p)
                        .is_some_and(|names| names.iter().all(|n| scan.constant(n).is_ok()))
                })
                .collect();
            if pinned.is_empty() {
                pinned = quoted_figure()
                    .captures_iter(text)
                    .filter_map(|c| c.name("q").or_else(|| c.name("c")))
                    .map(|q| q.as_str().split_whitespace().collect::<Vec<_>>().join(" "))
                    .collect();
            }
            if pinned.is_empty() {
                draft.retired_candidates.push(NotDrafted {
                    place: hit.place(),
                    quote: hit.quote(),
                    why: "names no figure recount can pin as a phrase".to_owned(),
                });
                continue;
            }
            for phrase in pinned {
                if draft.retired.iter().any(|r| r.phrase == phrase) {
                    continue;
                }
                draft.retired.push(DraftRetired {
                    id: format!("retired-{}", slug(&phrase)),
                    phrase,
                    place: hit.place(),
                    quote: hit.quote(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_at_a_full_stop_or_a_line() {
        let text = "First one. An earlier draft said 2 * MAX_A; it is withdrawn. Next.\nOther";
        let at = text.find("earlier").unwrap();
        assert_eq!(
            &text[sentence(text, at)],
            "An earlier draft said 2 * MAX_A; it is withdrawn."
        );
        let caps: Vec<&str> = phrase()
            .find_iter(&text[sentence(text, at)])
            .map(|m| m.as_str())
            .collect();
        assert_eq!(caps, ["2 * MAX_A"]);
        let quoted: Vec<&str> = quoted_figure()
            .captures_iter(r#"Memory, recorded as "roughly 3.0x the wire bytes, 75.1 MiB", is withdrawn; "the cap" too."#)
            .filter_map(|c| c.name("q").map(|m| m.as_str()))
            .collect();
        assert_eq!(quoted, ["roughly 3.0x the wire bytes, 75.1 MiB"]);
    }
}
