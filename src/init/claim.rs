//! Drafting: the `says` pattern of a drafted claim — the stated value as a
//! `value` group between the record's own words, widened until it matches in
//! one place of the record only, and checked by running it as `recount check`
//! will (on the prose view, through the value grammar).

use std::ops::Range;

use crate::claims::{compile_pattern, find_stated};
use crate::records::Record;

/// Why a figure gets no pattern: the same words say it elsewhere in the record.
pub const NOT_ALONE: &str =
    "its figure is said the same way elsewhere in the record, so no pattern finds it alone";

/// Most words of context before the value a pattern takes.
const MAX_WORDS_BEFORE: usize = 6;

/// Units a stated size or ratio may carry, as the value grammar reads them.
const UNITS: &str = "bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB|TB";

/// How the `value` group reads the stated text: the same class of text, so a
/// changed figure still matches ("eight" becomes "nine", "8 MiB" "16 MiB").
fn value_pattern(stated: &str) -> String {
    let stated = stated.trim();
    if stated.chars().all(|c| c.is_alphabetic()) {
        return r"\w+".to_owned();
    }
    // A ratio or a percentage keeps its sign: "1.032x" may become "1.05x".
    if stated.ends_with(['x', '×', '%']) && stated.starts_with(|c: char| c.is_ascii_digit()) {
        return r"[\d,.]+\s?(?:x|×|%)".to_owned();
    }
    match stated.split_once(|c: char| c.is_whitespace() || c.is_alphabetic()) {
        Some(_) if stated.chars().any(char::is_alphabetic) => {
            let spaced = stated.contains(char::is_whitespace);
            format!(r"[\d,.]+{}(?:{UNITS})", if spaced { r"\s" } else { r"\s?" })
        }
        _ => r"[\d,.]+".to_owned(),
    }
}

/// `text` as a regex: literal, with every run of whitespace as `\s+`.
fn literal(text: &str) -> String {
    let mut out = String::new();
    let mut in_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            if !in_space {
                out.push_str(r"\s+");
            }
            in_space = true;
        } else {
            in_space = false;
            out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// Start offsets of the `n` words before `at` on its prose line (nearest last).
fn words_before(line: &str, at: usize) -> Vec<usize> {
    let before = line.get(..at).unwrap_or("");
    let mut starts = Vec::new();
    let mut prev_space = true;
    for (i, c) in before.char_indices() {
        if !c.is_whitespace() && prev_space {
            starts.push(i);
        }
        prev_space = c.is_whitespace();
    }
    starts
}

/// A `says` pattern for the value at prose range `value` of `record`, or
/// `None` when no pattern of up to six words before it (and the word after
/// it) matches there and nowhere else, or the value grammar cannot read it.
pub fn says_for(record: &Record, value: Range<usize>) -> Option<String> {
    let prose = record.prose().text();
    let stated = prose.get(value.clone())?;
    let line_start = prose.get(..value.start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = prose
        .get(value.end..)?
        .find('\n')
        .map_or(prose.len(), |i| value.end + i);
    let before = prose.get(line_start..value.start)?;
    let after = prose.get(value.end..line_end)?;
    // The text after the value up to the end of its next word: ", derived",
    // " files". A unit already in the value is not repeated.
    let next_word_end = {
        let trimmed = after.trim_start();
        let lead = after.len() - trimmed.len();
        lead + trimmed.find(char::is_whitespace).unwrap_or(trimmed.len())
    };
    let suffix = after.get(..next_word_end).unwrap_or("");
    let starts = words_before(before, before.len());
    let want = record.prose().to_raw(value.clone());
    for n in 1..=MAX_WORDS_BEFORE.min(starts.len()) {
        let start = starts.get(starts.len() - n).copied()?;
        let prefix = before.get(start..)?;
        // Punctuation alone ("(") is no context: a pattern starts at a word.
        if !prefix.chars().any(char::is_alphabetic) {
            continue;
        }
        let pattern = format!(
            "{}(?<value>{}){}",
            literal(prefix),
            value_pattern(stated),
            literal(suffix)
        );
        let Ok(compiled) = compile_pattern(&pattern) else {
            continue;
        };
        let found = find_stated(record, &compiled);
        if let [only] = found.as_slice()
            && only.span == want
            && only.stated.is_ok()
        {
            return Some(pattern);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Record {
        Record::new("docs/a.md", text.into())
    }

    fn at(record: &Record, needle: &str) -> Range<usize> {
        let prose = record.prose().text();
        let start = prose.find(needle).unwrap();
        start..start + needle.len()
    }

    #[test]
    fn a_pattern_takes_words_until_it_is_unique() {
        let r = record("The folder holds **eight** files.\n\nThe other holds nine files.\n");
        let says = says_for(&r, at(&r, "eight")).unwrap();
        assert_eq!(says, r"folder\s+holds\s+(?<value>\w+)\s+files\.");
    }

    #[test]
    fn sizes_keep_their_unit_in_the_value() {
        let r = record("a request body at 26,214,400 bytes, derived as\nfollows.\n");
        let says = says_for(&r, at(&r, "26,214,400 bytes")).unwrap();
        assert_eq!(
            says,
            r"at\s+(?<value>[\d,.]+\s(?:bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)),"
        );
        let r = record("with `MAX_X` at 8 MiB.\n");
        assert!(says_for(&r, at(&r, "8 MiB")).is_some());
    }

    #[test]
    fn a_value_said_twice_in_the_same_words_gets_no_pattern() {
        let r = record("It holds five files.\n\nIt holds five files.\n");
        assert_eq!(says_for(&r, at(&r, "five")), None);
    }
}
