//! Drafting: a figure stated without the constant's name — "at most 100,000
//! nodes", "12 MiB of characters", "four characters of punctuation" — tied
//! to the one constant of the project's source whose value is that figure
//! and whose name says what is counted (`MAX_PARAMS_NODES`,
//! `MAX_PARAMS_RENDERED_CHARS`, `_NODE_PUNCTUATION`: the last noun, "of
//! punctuation", is what is counted). Named heuristics, each from a false tie
//! the corpus showed: the figure states a bound ("at most", "cut at", "≥") or
//! a rate ("for each", "per") — "a 1 MiB body" in an example does not; it is
//! more than one; the sentence names another word of the constant ("clock
//! tolerance: ≤ 30 seconds" for `DEFAULT_CLOCK_SKEW_TOLERANCE_SEC`, not "p95 no
//! more than 300 seconds" for `DEFAULT_ROTATION_BUFFER_SEC`);
//! a name that spells its value (`HTTP_500_…`) is a label. The tie is
//! [`Tie::Guessed`]: drafted only when the value and the noun single one
//! constant out, and weighed against the history like every draft.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use super::counts::COUNT;
use super::{Draft, Hit, NotDrafted, Scan, Tie, claim, in_code};
use crate::checks::cites::exemptions::is_test_material;
use crate::checks::cites::locate::is_vendored;
use crate::constants::Language;

/// At most this many bytes of one source file are read for names.
const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Nouns a constant's name abbreviates: "characters" is `CHARS`.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("character", "CHAR"),
    ("second", "SEC"),
    ("millisecond", "MS"),
    ("message", "MSG"),
    ("parameter", "PARAM"),
    ("argument", "ARG"),
    ("connection", "CONN"),
    ("request", "REQ"),
    ("attempt", "ATTEMPT"),
    ("retry", "RETR"),
    ("retries", "RETR"),
];

/// Words that are no noun of what is counted.
const NOT_NOUNS: &[&str] = &[
    "of", "the", "a", "an", "and", "or", "to", "in", "at", "on", "for", "per", "each", "every",
    "more", "less", "than", "times", "are", "is", "was", "were",
];

fn stated_figure() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"(?<value>(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\s?(?:bytes|KiB|MiB|GiB|KB|MB|GB))?|{COUNT})\s+(?:of\s+)?(?<noun>[a-z]{{3,}})(?:\s+of\s+(?<noun2>[a-z]{{3,}}))?"
        ))
        .expect("the figure pattern compiles")
    })
}

/// A bound stated just before the figure: "at most 100,000 nodes", "cut at
/// 280 characters", "caps a query at eight terms", "shorter than three
/// characters", "≥ 32 bytes". A figure in an example ("a 1 MiB body", "a
/// 500 error", "64 terms over 20,000 chunks") states no bound, and shares its
/// value with a constant by chance.
fn bound_before() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(
            r"(?i)(?:\bat (?:most|least)|\bup to|\bno (?:more|fewer|less) than|\bcapped at|\bcaps?\b[^.;]{0,40}\bat|\bcut at|\blimit(?:ed|s)? (?:to|at)|\bmaximum(?: of)?|\bminimum(?: of)?|\bunder|\bbelow|\babove|\bexceeds?|\bbounded by|\b(?:shorter|longer|fewer|more|less|larger|smaller|greater) than|[≥≤<>])\s*$",
        )
        .expect("the bound pattern compiles")
    })
}

/// A rate stated just after the figure: "four characters of punctuation
/// allowed for each of …", "8 bytes per entry".
fn rate_after() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(r"^[^.;]{0,50}?\b(?:per|for each)\b").expect("the rate pattern compiles")
    })
}

/// Whether a word is written the way constants are (as [`NAME`] reads
/// them): capitals, digits and underscores, either led by underscores or
/// starting with a capital and holding an underscore between words.
fn is_constant_name(word: &str) -> bool {
    if !word
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return false;
    }
    let body = word.trim_start_matches('_');
    if body.len() < word.len() {
        return body
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric());
    }
    body.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && body.trim_end_matches('_').contains('_')
        && !body.ends_with('_')
        && !body.contains("__")
}

/// The stems a constant's name would carry for `noun`: `NODE` for "nodes",
/// `CHAR` for "characters".
fn stems(noun: &str) -> Vec<String> {
    let noun = noun.to_ascii_lowercase();
    if NOT_NOUNS.contains(&noun.as_str()) {
        return Vec::new();
    }
    let singular = noun
        .strip_suffix("ies")
        .map(|s| format!("{s}y"))
        .or_else(|| noun.strip_suffix('s').map(str::to_owned))
        .unwrap_or_else(|| noun.clone());
    let mut out = vec![singular.to_ascii_uppercase()];
    for (word, short) in ABBREVIATIONS {
        if singular == *word || noun == *word {
            out.push((*short).to_owned());
        }
    }
    out
}

/// Whether `name` ends in `stem`, the thing it counts (`MAX_PARAMS_NODES`
/// counts `NODE`; `NODEPOOL_SIZE` and `MIGRATION_ENGINE_VERSION` count
/// neither nodes nor migrations).
fn carries(name: &str, stem: &str) -> bool {
    name.split('_')
        .rfind(|word| !word.is_empty())
        .and_then(|word| word.strip_prefix(stem))
        .is_some_and(|rest| rest.is_empty() || rest == "S" || rest == "ES")
}

/// Words of a name that say no more than "a bound".
const BOUND_WORDS: &[&str] = &[
    "MAX", "MAXIMUM", "MIN", "MINIMUM", "DEFAULT", "NUM", "N", "TOTAL", "LIMIT",
];

/// Whether the sentence names a word of `name` besides the counted noun and
/// the bound words: a sentence word starting with it, or it with the
/// sentence word ("render" for `RENDERED`), four letters at least.
fn sentence_names(sentence: &str, name: &str) -> bool {
    let words: Vec<String> = name
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let own: Vec<&String> = words
        .iter()
        .take(words.len().saturating_sub(1))
        .filter(|w| w.len() >= 3 && !BOUND_WORDS.contains(&w.to_ascii_uppercase().as_str()))
        .collect();
    sentence
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 3)
        .map(str::to_ascii_lowercase)
        .any(|word| {
            own.iter()
                .any(|w| word.starts_with(w.as_str()) || (word.len() >= 4 && w.starts_with(&word)))
        })
}

/// Every constant-like name in the project's own source files.
fn names(scan: &Scan) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for path in scan.snapshot.paths() {
        if Language::of_path(path).is_none() || is_vendored(path) || is_test_material(path) {
            continue;
        }
        let Ok(Some(text)) = scan.snapshot.read_text(path) else {
            continue;
        };
        if text.len() > MAX_SOURCE_BYTES {
            continue;
        }
        // Split by hand: a word regex over every source file of a large
        // tree was the slowest step of a draft.
        found.extend(
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|word| is_constant_name(word))
                .map(str::to_owned),
        );
    }
    found
}

/// Drafts a `constant` fact for each figure one constant's value and name
/// single out.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    let mut known: Option<BTreeSet<String>> = None;
    let mut values: BTreeMap<String, Option<crate::number::Number>> = BTreeMap::new();
    for record in scan.prose_records() {
        let prose = record.prose().text();
        for caps in stated_figure().captures_iter(prose) {
            let (Some(value), Some(noun), Some(whole)) =
                (caps.name("value"), caps.name("noun"), caps.get(0))
            else {
                continue;
            };
            if in_code(record, &whole.range()) {
                continue;
            }
            let Ok(stated) = crate::claims::value::parse_stated(value.as_str()) else {
                continue;
            };
            // The bound is in the few words before the figure; a `$`-anchored
            // match over the whole record before it would cost the record's
            // length for every figure.
            let mut from = value.start().saturating_sub(80);
            while !prose.is_char_boundary(from) {
                from -= 1;
            }
            let before = prose.get(from..value.start()).unwrap_or_default();
            let after = prose.get(whole.end()..).unwrap_or_default();
            // "one", "zero": said of everything. A figure tied by its value
            // alone must state a bound or a rate.
            if stated.number <= crate::number::Number::from_integer(1)
                || !(bound_before().is_match(before) || rate_after().is_match(after))
            {
                continue;
            }
            // What is counted is the last noun: "characters of punctuation"
            // counts punctuation, which a `BYTES_PER_CHAR` of the same value
            // does not name.
            let wanted = stems(caps.name("noun2").unwrap_or(noun).as_str());
            if wanted.is_empty() {
                continue;
            }
            let hit = Hit {
                record,
                whole: whole.range(),
                value: value.range(),
            };
            let place = hit.place();
            // A figure a rule already reads (the record names its constant,
            // or it is a derivation's value) is not guessed at again.
            if draft
                .facts
                .iter()
                .any(|f| f.place == place && f.quote.contains(value.as_str()))
            {
                continue;
            }
            let sentence = prose
                .get(super::retired::sentence(prose, value.start()))
                .unwrap_or_default();
            let known = known.get_or_insert_with(|| names(scan));
            let digits: String = value
                .as_str()
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            let fitting: Vec<&String> = known
                .iter()
                .filter(|name| wanted.iter().any(|s| carries(name, s)))
                // `HTTP_500_INTERNAL_SERVER_ERROR` spells its value: a label,
                // not a measurement.
                .filter(|name| digits.is_empty() || !name.contains(&digits))
                // Cheap before the value, which reads the tree.
                .filter(|name| sentence_names(sentence, name))
                .filter(|name| {
                    let value = values
                        .entry((*name).clone())
                        .or_insert_with(|| scan.constant(name).ok().map(|c| c.value));
                    value.as_ref().is_some_and(|v| stated.agrees(v))
                })
                .collect();
            let name = match fitting.as_slice() {
                [] => continue,
                [name] => (*name).clone(),
                several => {
                    let shown: Vec<&str> = several.iter().take(3).map(|n| n.as_str()).collect();
                    draft.not_drafted.push(NotDrafted {
                        place,
                        quote: hit.quote(),
                        why: format!(
                            "{} constants have its value and a name that fits ({}); name one in the record or under [constants]",
                            several.len(),
                            shown.join(", ")
                        ),
                    });
                    continue;
                }
            };
            let Some(says) = claim::says_for(record, value.range()) else {
                continue;
            };
            super::figures::push_constant(
                scan,
                draft,
                &hit,
                &name,
                ", the one constant whose value and name fit the figure, and compares it",
                says,
                Tie::Guessed,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_carries_the_noun_it_counts() {
        assert!(
            stems("nodes")
                .iter()
                .any(|s| carries("MAX_PARAMS_NODES", s))
        );
        assert!(
            stems("characters")
                .iter()
                .any(|s| carries("MAX_PARAMS_RENDERED_CHARS", s))
        );
        assert!(
            stems("punctuation")
                .iter()
                .any(|s| carries("_NODE_PUNCTUATION", s))
        );
        assert!(!stems("nodes").iter().any(|s| carries("NODEPOOL_SIZE", s)));
        assert!(
            !stems("migration")
                .iter()
                .any(|s| carries("MIGRATION_ENGINE_VERSION", s))
        );
        assert!(sentence_names(
            "terms under three characters skip the trigram index",
            "_MIN_TRIGRAM_CHARS"
        ));
        assert!(!sentence_names(
            "two characters fall below the floor",
            "_MIN_SCAN_CHARS"
        ));
        assert!(sentence_names(
            "costs 12 MiB of characters to render",
            "MAX_PARAMS_RENDERED_CHARS"
        ));
        assert!(!sentence_names(
            "26 migrations and 26 bodies",
            "MINIMUM_MIGRATIONS"
        ));
        assert!(stems("of").is_empty());
        for name in ["MAX_PARAMS_NODES", "_NODE_PUNCTUATION", "__ALL", "A1_B2"] {
            assert!(is_constant_name(name), "{name}");
        }
        for word in ["MAX", "Max_Nodes", "MAX_", "_", "max_nodes"] {
            assert!(!is_constant_name(word), "{word}");
        }
        let caps = stated_figure()
            .captures("costs at most 12 MiB of characters")
            .unwrap();
        assert_eq!((&caps["value"], &caps["noun"]), ("12 MiB", "characters"));
        let caps = stated_figure()
            .captures("With four characters of punctuation")
            .unwrap();
        assert_eq!(
            (&caps["value"], &caps["noun"], &caps["noun2"]),
            ("four", "characters", "punctuation")
        );
    }
}
