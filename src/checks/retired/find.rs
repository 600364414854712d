//! Stage 3 of the pipeline (claims): occurrences of retired claims in a record,
//! for the `retired-claim` check.
//!
//! A retired claim is a phrase or figure that earlier drafts of a record stated
//! and that may only reappear next to an attribution marking it as retired
//! ("earlier draft", "withdrawn", ...). Matching runs on the record's prose view,
//! so a line wrap, emphasis or backticks cannot hide an occurrence; every
//! occurrence maps back to the raw bytes it came from. Distances are counted in
//! characters of the prose, because that is what a rule author counts when
//! writing "within 200 characters".
//!
//! Pure: no I/O and no rule parsing. The check builds a [`RetiredSpec`] per
//! register entry, validates it once ([`validate_spec`]), and runs a
//! [`RetiredMatcher`] over each record.

use std::ops::Range;

use regex::Regex;

use crate::records::prose::ProseView;

/// What identifies a retired claim in prose.
#[derive(Debug, Clone)]
pub enum RetiredKey {
    /// A phrase or figure, matched case-insensitively, with any run of
    /// whitespace in the key matching any run of whitespace in the text. A match
    /// must not start or end inside a word or number (`3.0x` does not match in
    /// `13.0x`), so a figure cannot be found inside a different figure.
    Verbatim(String),
    /// A reworded sentence: a `subject` match with a `phrasing` match no more
    /// than `within` characters away, in either order.
    Near {
        subject: Regex,
        phrasing: Regex,
        /// Characters between the end of one match and the start of the other;
        /// overlapping matches are 0 apart.
        within: usize,
    },
}

/// One entry of the retired-claim register, as the matcher needs it.
#[derive(Debug, Clone)]
pub struct RetiredSpec {
    pub key: RetiredKey,
    /// What marks an occurrence as retired ("earlier draft", "withdrawn", ...).
    pub attribution: Regex,
    /// How many characters before the start or after the end of an occurrence
    /// the attribution may sit.
    pub reach: usize,
}

/// One place a retired claim occurs in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// Raw byte range in the record.
    pub span: Range<usize>,
    /// The matched text as the prose view reads it.
    pub text: String,
    /// An attribution lies within reach.
    pub attributed: bool,
    /// The closest attribution anywhere in the record, even beyond reach, so a
    /// near miss is visible; `None` when the record has none.
    pub nearest_attribution: Option<NearestAttribution>,
}

/// The attribution closest to an occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearestAttribution {
    /// The attribution as the prose view reads it.
    pub text: String,
    /// Raw byte range in the record.
    pub span: Range<usize>,
    /// Characters of prose between the occurrence and the attribution; 0 when
    /// they touch or overlap.
    pub distance: usize,
}

/// Rejects a key that would match nothing meaningful: an empty or
/// whitespace-only phrase, or a pattern that can match the empty string (it
/// would "occur" everywhere).
pub fn validate_key(key: &RetiredKey) -> Result<(), String> {
    match key {
        RetiredKey::Verbatim(phrase) => {
            if phrase.trim().is_empty() {
                Err(
                    "the retired phrase is empty; give the words or figure that must not reappear"
                        .to_owned(),
                )
            } else {
                Ok(())
            }
        }
        RetiredKey::Near {
            subject, phrasing, ..
        } => {
            reject_empty_match("subject", subject)?;
            reject_empty_match("phrasing", phrasing)
        }
    }
}

/// [`validate_key`], and the same test for the attribution pattern: an
/// attribution that matches the empty string would attribute every occurrence.
pub fn validate_spec(spec: &RetiredSpec) -> Result<(), String> {
    validate_key(&spec.key)?;
    reject_empty_match("attribution", &spec.attribution)
}

fn reject_empty_match(role: &str, pattern: &Regex) -> Result<(), String> {
    if can_match_empty(pattern) {
        Err(format!(
            "the {role} pattern `{}` can match the empty string, so it would match everywhere; \
             make it require at least one character",
            pattern.as_str()
        ))
    } else {
        Ok(())
    }
}

/// Whether `pattern` can produce an empty match. The regex crate does not
/// expose a pattern's minimum length, so this probes: the empty text, and every
/// position of short texts that put word, non-word, line-break and text-edge
/// characters on either side, which covers what the assertions (`^`, `$`,
/// `\b`, `\B`, with or without `(?m)`) can look at.
pub fn can_match_empty(pattern: &Regex) -> bool {
    const PROBES: [&str; 8] = ["", "a", " ", "a a", "a\nb", "\r\n", "1.0", "é_"];
    PROBES.iter().any(|probe| {
        let mut at = 0;
        loop {
            if pattern.find_at(probe, at).is_some_and(|m| m.is_empty()) {
                return true;
            }
            match probe.get(at..).and_then(|rest| rest.chars().next()) {
                Some(c) => at += c.len_utf8(),
                None => return false,
            }
        }
    })
}

/// Every occurrence of the retired claim `spec` in `prose`, in order of their
/// start. A spec that does not validate ([`validate_spec`]) finds nothing;
/// validate it first to tell the user why. When a spec runs over many records,
/// build one [`RetiredMatcher`] instead.
pub fn find_retired(prose: &ProseView, spec: &RetiredSpec) -> Vec<Occurrence> {
    match RetiredMatcher::new(spec) {
        Ok(matcher) => matcher.find(prose),
        Err(_) => Vec::new(),
    }
}

/// A validated, compiled retired claim, reusable across records.
#[derive(Debug, Clone)]
pub struct RetiredMatcher {
    key: CompiledKey,
    attribution: Regex,
    reach: usize,
}

#[derive(Debug, Clone)]
enum CompiledKey {
    Verbatim {
        pattern: Regex,
        word_start: bool,
        word_end: bool,
    },
    Near {
        subject: Regex,
        phrasing: Regex,
        within: usize,
    },
}

impl RetiredMatcher {
    /// Validates `spec` and compiles its key.
    pub fn new(spec: &RetiredSpec) -> Result<Self, String> {
        validate_spec(spec)?;
        let key = match &spec.key {
            RetiredKey::Verbatim(phrase) => {
                let words: Vec<String> = phrase.split_whitespace().map(regex::escape).collect();
                let pattern = Regex::new(&format!("(?i){}", words.join(r"\s+"))).map_err(|e| {
                    format!("the retired phrase {phrase:?} is too long to match: {e}")
                })?;
                let trimmed = phrase.trim();
                CompiledKey::Verbatim {
                    pattern,
                    word_start: trimmed.chars().next().is_some_and(is_word_char),
                    word_end: trimmed.chars().next_back().is_some_and(is_word_char),
                }
            }
            RetiredKey::Near {
                subject,
                phrasing,
                within,
            } => CompiledKey::Near {
                subject: subject.clone(),
                phrasing: phrasing.clone(),
                within: *within,
            },
        };
        Ok(RetiredMatcher {
            key,
            attribution: spec.attribution.clone(),
            reach: spec.reach,
        })
    }

    /// Every occurrence in `prose`, ordered by start (then end).
    pub fn find(&self, prose: &ProseView) -> Vec<Occurrence> {
        let text = prose.text();
        let chars = CharIndex::new(text);
        let mut found: Vec<Range<usize>> = match &self.key {
            CompiledKey::Verbatim {
                pattern,
                word_start,
                word_end,
            } => verbatim_matches(text, pattern, *word_start, *word_end),
            CompiledKey::Near {
                subject,
                phrasing,
                within,
            } => near_matches(text, &chars, subject, phrasing, *within),
        };
        found.sort_by_key(|r| (r.start, r.end));
        if found.is_empty() {
            return Vec::new();
        }
        let attributions = spans(text, &chars, &self.attribution);
        found
            .into_iter()
            .map(|range| {
                let at = CharSpan::of(&chars, range.clone());
                let nearest = nearest(&attributions, at).map(|(i, distance)| {
                    let a = &attributions[i];
                    NearestAttribution {
                        text: text.get(a.bytes.clone()).unwrap_or("").to_owned(),
                        span: prose.to_raw(a.bytes.clone()),
                        distance,
                    }
                });
                Occurrence {
                    span: prose.to_raw(range.clone()),
                    text: text.get(range).unwrap_or("").to_owned(),
                    attributed: nearest.as_ref().is_some_and(|n| n.distance <= self.reach),
                    nearest_attribution: nearest,
                }
            })
            .collect()
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Non-overlapping, non-empty matches of a verbatim key that neither start nor
/// end inside a word. A match rejected for its edges is retried one character
/// later, so an acceptable match overlapping it is not lost.
fn verbatim_matches(
    text: &str,
    pattern: &Regex,
    word_start: bool,
    word_end: bool,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at <= text.len() {
        let Some(m) = pattern.find_at(text, at) else {
            break;
        };
        let before = text.get(..m.start()).and_then(|s| s.chars().next_back());
        let after = text.get(m.end()..).and_then(|s| s.chars().next());
        let clean_start = !word_start || !before.is_some_and(is_word_char);
        let clean_end = !word_end || !after.is_some_and(is_word_char);
        if !m.is_empty() && clean_start && clean_end {
            out.push(m.range());
            at = m.end();
        } else {
            let step = text
                .get(m.start()..)
                .and_then(|s| s.chars().next())
                .map_or(1, char::len_utf8);
            at = m.start() + step;
        }
    }
    out
}

/// One subject match with the closest phrasing match within `within`
/// characters, as the range from the earlier start to the later end.
fn near_matches(
    text: &str,
    chars: &CharIndex<'_>,
    subject: &Regex,
    phrasing: &Regex,
    within: usize,
) -> Vec<Range<usize>> {
    let phrasings = spans(text, chars, phrasing);
    spans(text, chars, subject)
        .into_iter()
        .filter_map(|s| {
            let (i, distance) = nearest(&phrasings, s.chars)?;
            if distance > within {
                return None;
            }
            let p = phrasings.get(i)?;
            Some(s.bytes.start.min(p.bytes.start)..s.bytes.end.max(p.bytes.end))
        })
        .collect()
}

/// A match: its byte range in the prose and its character range.
#[derive(Debug, Clone)]
struct Span {
    bytes: Range<usize>,
    chars: CharSpan,
}

#[derive(Debug, Clone, Copy)]
struct CharSpan {
    start: usize,
    end: usize,
}

impl CharSpan {
    fn of(chars: &CharIndex<'_>, bytes: Range<usize>) -> Self {
        CharSpan {
            start: chars.at(bytes.start),
            end: chars.at(bytes.end),
        }
    }
}

/// The non-empty matches of `pattern`, in order. `find_iter` yields
/// non-overlapping matches, so both starts and ends ascend, which [`nearest`]
/// relies on.
fn spans(text: &str, chars: &CharIndex<'_>, pattern: &Regex) -> Vec<Span> {
    pattern
        .find_iter(text)
        .filter(|m| !m.is_empty())
        .map(|m| Span {
            bytes: m.range(),
            chars: CharSpan::of(chars, m.range()),
        })
        .collect()
}

/// Characters between two ranges; 0 when they touch or overlap.
fn gap(a: CharSpan, b: CharSpan) -> usize {
    if a.end <= b.start {
        b.start - a.end
    } else {
        a.start.saturating_sub(b.end)
    }
}

/// The index of the match in `sorted` closest to `target`, and its distance.
/// Of disjoint ascending matches only two can be closest: the last one ending
/// at or before the target's start, and the first one ending after it (which
/// either overlaps the target or is the first to follow it). A tie goes to the
/// earlier one.
fn nearest(sorted: &[Span], target: CharSpan) -> Option<(usize, usize)> {
    let first_after = sorted.partition_point(|s| s.chars.end <= target.start);
    let before = first_after
        .checked_sub(1)
        .and_then(|i| Some((i, gap(sorted.get(i)?.chars, target))));
    let after = sorted
        .get(first_after)
        .map(|s| (first_after, gap(s.chars, target)));
    match (before, after) {
        (Some(b), Some(a)) => Some(if a.1 < b.1 { a } else { b }),
        (b, a) => b.or(a),
    }
}

/// Byte offset to character index, in O(log n + STRIDE) per lookup and n/STRIDE
/// memory, so a 10 MB record does not need a table entry per byte.
struct CharIndex<'a> {
    text: &'a str,
    /// Byte offset of every `STRIDE`-th character.
    checkpoints: Vec<usize>,
}

const STRIDE: usize = 64;

impl<'a> CharIndex<'a> {
    fn new(text: &'a str) -> Self {
        let checkpoints = text
            .char_indices()
            .step_by(STRIDE)
            .map(|(i, _)| i)
            .collect();
        CharIndex { text, checkpoints }
    }

    /// The index of the character starting at byte `offset` (the character
    /// count of the text before it); an offset inside a character counts as
    /// that character, offsets past the end as the end.
    fn at(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let block = self
            .checkpoints
            .partition_point(|&b| b <= offset)
            .saturating_sub(1);
        let base = self.checkpoints.get(block).copied().unwrap_or(0);
        block * STRIDE + self.text.get(base..offset).map_or(0, |s| s.chars().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn re(p: &str) -> Regex {
        Regex::new(p).unwrap()
    }

    fn attribution() -> Regex {
        re(r"(?i)earlier draft|recorded as|withdrawn|interim|replaced")
    }

    fn verbatim(key: &str, reach: usize) -> RetiredSpec {
        RetiredSpec {
            key: RetiredKey::Verbatim(key.to_owned()),
            attribution: attribution(),
            reach,
        }
    }

    fn near(subject: &str, phrasing: &str, within: usize) -> RetiredSpec {
        RetiredSpec {
            key: RetiredKey::Near {
                subject: re(subject),
                phrasing: re(phrasing),
                within,
            },
            attribution: attribution(),
            reach: 200,
        }
    }

    /// Filler of exactly `n` characters that matches no key or attribution.
    /// Starts and ends with a space, so it never joins a neighbouring word.
    fn filler(n: usize) -> String {
        let mut chars: Vec<char> = "lorem ipsum dolor sit amet "
            .chars()
            .cycle()
            .take(n)
            .collect();
        if let Some(first) = chars.first_mut() {
            *first = ' ';
        }
        if let Some(last) = chars.last_mut() {
            *last = ' ';
        }
        chars.into_iter().collect()
    }

    #[test]
    fn verbatim_survives_line_wrap_emphasis_and_case() {
        let raw = "The cost was **roughly 3.0x**\nthe wire bytes, and `Roughly  3.0X` THE wire bytes again.";
        let view = ProseView::new(raw);
        let found = find_retired(&view, &verbatim("roughly 3.0x the wire bytes", 200));
        assert_eq!(found.len(), 2);
        assert_eq!(
            &raw[found[0].span.clone()],
            "roughly 3.0x**\nthe wire bytes"
        );
        assert_eq!(found[0].text, "roughly 3.0x the wire bytes");
        assert_eq!(&raw[found[1].span.clone()], "Roughly  3.0X` THE wire bytes");
        assert!(
            found
                .iter()
                .all(|o| !o.attributed && o.nearest_attribution.is_none())
        );
    }

    #[test]
    fn verbatim_does_not_match_inside_another_figure() {
        let view = ProseView::new("13.0x here, 3.0xs there, 3.0x. and (3.0x)");
        let found = find_retired(&view, &verbatim("3.0x", 10));
        let texts: Vec<usize> = found.iter().map(|o| o.span.start).collect();
        assert_eq!(texts, [25, 36]);
        // Overlapping candidates: the rejected one must not hide the next.
        let view = ProseView::new("aa a");
        let found = find_retired(&view, &verbatim("a", 0));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].span, 3..4);
    }

    #[test]
    fn attribution_within_reach_is_quiet_and_beyond_reach_fires() {
        let figure = "3.0x the wire bytes";
        let quiet = format!("{figure}{}recorded as an earlier figure", filler(150));
        let view = ProseView::new(&quiet);
        let found = find_retired(&view, &verbatim(figure, 200));
        assert_eq!(found.len(), 1);
        assert!(found[0].attributed);
        let nearest = found[0].nearest_attribution.as_ref().unwrap();
        assert_eq!(nearest.distance, 150);
        assert_eq!(nearest.text, "recorded as");
        assert_eq!(&quiet[nearest.span.clone()], "recorded as");

        let loud = format!("{figure}{}recorded as an earlier figure", filler(400));
        let view = ProseView::new(&loud);
        let found = find_retired(&view, &verbatim(figure, 200));
        assert_eq!(found.len(), 1);
        assert!(!found[0].attributed);
        let nearest = found[0].nearest_attribution.as_ref().unwrap();
        assert_eq!(nearest.distance, 400);
        assert_eq!(&loud[nearest.span.clone()], "recorded as");
    }

    #[test]
    fn reach_is_inclusive_and_works_before_and_after() {
        let before = format!("Withdrawn:{}3.0x", filler(20));
        let view = ProseView::new(&before);
        let found = find_retired(&view, &verbatim("3.0x", 20));
        assert!(!found[0].attributed);
        assert_eq!(found[0].nearest_attribution.as_ref().unwrap().distance, 21);
        let found = find_retired(&view, &verbatim("3.0x", 21));
        assert!(found[0].attributed);

        let after = format!("3.0x{}withdrawn", filler(7));
        let found = find_retired(&ProseView::new(&after), &verbatim("3.0x", 7));
        assert!(found[0].attributed);
        let found = find_retired(&ProseView::new(&after), &verbatim("3.0x", 6));
        assert!(!found[0].attributed);
        assert_eq!(found[0].nearest_attribution.as_ref().unwrap().distance, 7);
    }

    #[test]
    fn nearest_picks_the_closer_side_and_overlap_is_zero() {
        let text = format!("interim{}3.0x{}replaced", filler(30), filler(10));
        let found = find_retired(&ProseView::new(&text), &verbatim("3.0x", 5));
        let nearest = found[0].nearest_attribution.as_ref().unwrap();
        assert_eq!((nearest.text.as_str(), nearest.distance), ("replaced", 10));

        let spec = RetiredSpec {
            key: RetiredKey::Verbatim("earlier draft figure".to_owned()),
            attribution: re("draft"),
            reach: 0,
        };
        let found = find_retired(&ProseView::new("the earlier draft figure"), &spec);
        assert!(found[0].attributed);
        assert_eq!(found[0].nearest_attribution.as_ref().unwrap().distance, 0);
    }

    #[test]
    fn reworded_sentence_is_caught_by_subject_and_phrasing() {
        let raw = "In the end, the *charge* is applied to\nevery leaf of the tree.";
        let view = ProseView::new(raw);
        let found = find_retired(&view, &near("charge", "every leaf", 40));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "charge is applied to every leaf");
        assert_eq!(
            &raw[found[0].span.clone()],
            "charge* is applied to\nevery leaf"
        );

        // Phrasing before the subject counts too.
        let view = ProseView::new("every leaf pays the charge");
        let found = find_retired(&view, &near("charge", "every leaf", 40));
        assert_eq!(found[0].text, "every leaf pays the charge");
    }

    #[test]
    fn pairs_beyond_within_are_not_matched() {
        let text = format!("charge{}every leaf", filler(41));
        let found = find_retired(&ProseView::new(&text), &near("charge", "every leaf", 40));
        assert!(found.is_empty());
        let found = find_retired(&ProseView::new(&text), &near("charge", "every leaf", 41));
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn each_subject_pairs_with_its_closest_phrasing() {
        let text = format!(
            "every leaf{}charge{}every leaf{}charge",
            filler(5),
            filler(2),
            filler(100)
        );
        let found = find_retired(&ProseView::new(&text), &near("charge", "every leaf", 10));
        assert_eq!(found.len(), 1);
        let start = text.find("charge").unwrap();
        assert_eq!(found[0].span.start, start);
        assert!(found[0].text.ends_with("every leaf"));
    }

    #[test]
    fn distances_count_characters_not_bytes() {
        // Multi-byte characters (2 to 4 bytes each) between figure and attribution.
        let gap_text = " é×—“”😀ß→€ñü ";
        assert_eq!(gap_text.chars().count(), 13);
        assert_eq!(gap_text.len(), 31);
        let text = format!("Größe 3.0x{gap_text}withdrawn");
        let found = find_retired(&ProseView::new(&text), &verbatim("3.0x", 13));
        assert!(found[0].attributed);
        assert_eq!(found[0].nearest_attribution.as_ref().unwrap().distance, 13);
        let found = find_retired(&ProseView::new(&text), &verbatim("3.0x", 12));
        assert!(!found[0].attributed);

        let text = format!("charge{gap_text}every leaf");
        assert_eq!(
            find_retired(&ProseView::new(&text), &near("charge", "every leaf", 13)).len(),
            1
        );
        assert!(find_retired(&ProseView::new(&text), &near("charge", "every leaf", 12)).is_empty());
    }

    #[test]
    fn char_index_agrees_with_counting() {
        let text: String = "aé😀 ".repeat(100);
        let index = CharIndex::new(&text);
        for (n, (i, _)) in text.char_indices().enumerate() {
            assert_eq!(index.at(i), n);
        }
        assert_eq!(index.at(text.len()), text.chars().count());
        assert_eq!(index.at(2), 1);
    }

    #[test]
    fn empty_keys_and_empty_matching_patterns_are_rejected() {
        for phrase in ["", "   ", "\n\t"] {
            let err = validate_key(&RetiredKey::Verbatim(phrase.to_owned())).unwrap_err();
            assert!(err.contains("empty"), "{err}");
        }
        for pattern in [
            "", "a*", "x?", r"\b", r"\B", "^", "$", "(?m)^", "foo|", r"\d*\b",
        ] {
            let key = RetiredKey::Near {
                subject: re(pattern),
                phrasing: re("leaf"),
                within: 10,
            };
            let err = validate_key(&key).unwrap_err();
            assert!(
                err.contains("empty string") && err.contains("subject"),
                "{pattern}: {err}"
            );
            let key = RetiredKey::Near {
                subject: re("leaf"),
                phrasing: re(pattern),
                within: 10,
            };
            assert!(validate_key(&key).unwrap_err().contains("phrasing"));
        }
        assert!(
            validate_key(&RetiredKey::Near {
                subject: re("charge"),
                phrasing: re(r"\bevery\s+leaf\b"),
                within: 10
            })
            .is_ok()
        );
        let mut spec = verbatim("3.0x", 10);
        spec.attribution = re("(draft)?");
        assert!(validate_spec(&spec).unwrap_err().contains("attribution"));
        // An invalid spec finds nothing rather than matching everywhere.
        assert!(find_retired(&ProseView::new("some text"), &spec).is_empty());
        assert!(find_retired(&ProseView::new("some text"), &verbatim(" ", 10)).is_empty());
    }

    #[test]
    fn matcher_is_reusable_and_ordered() {
        let matcher = RetiredMatcher::new(&near("charge", "leaf", 30)).unwrap();
        let found = matcher.find(&ProseView::new("leaf then charge. charge on leaf."));
        let starts: Vec<usize> = found.iter().map(|o| o.span.start).collect();
        assert_eq!(starts, [0, 18]);
        assert!(matcher.find(&ProseView::new("")).is_empty());
    }

    fn check(raw: &str, spec: &RetiredSpec) -> Result<(), TestCaseError> {
        let view = ProseView::new(raw);
        let found = find_retired(&view, spec);
        let mut previous = 0;
        for o in &found {
            prop_assert!(o.span.start <= o.span.end && o.span.end <= raw.len());
            prop_assert!(raw.is_char_boundary(o.span.start) && raw.is_char_boundary(o.span.end));
            prop_assert!(!o.text.is_empty());
            prop_assert!(o.span.start >= previous);
            previous = o.span.start;
            if let Some(n) = &o.nearest_attribution {
                prop_assert!(n.span.start <= n.span.end && n.span.end <= raw.len());
                prop_assert!(
                    raw.is_char_boundary(n.span.start) && raw.is_char_boundary(n.span.end)
                );
                prop_assert_eq!(o.attributed, n.distance <= spec.reach);
            } else {
                prop_assert!(!o.attributed);
            }
        }
        Ok(())
    }

    fn soup() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("3.0x"),
            Just("charge"),
            Just("leaf"),
            Just("draft"),
            Just("**"),
            Just("`"),
            Just("\n"),
            Just(" "),
            Just("é"),
            Just("😀"),
            Just("x"),
            Just("_"),
            Just("- "),
        ];
        prop::collection::vec(atom, 0..60).prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn never_panics_and_spans_sit_on_char_boundaries(
            raw in prop_oneof![any::<String>(), soup()],
            reach in 0usize..40,
            within in 0usize..40,
        ) {
            let attribution = re("draft|é");
            check(&raw, &RetiredSpec { key: RetiredKey::Verbatim("3.0x".into()), attribution: attribution.clone(), reach })?;
            check(&raw, &RetiredSpec { key: RetiredKey::Verbatim("x é".into()), attribution: attribution.clone(), reach })?;
            check(&raw, &RetiredSpec {
                key: RetiredKey::Near { subject: re("charge|😀"), phrasing: re("leaf|x"), within },
                attribution,
                reach,
            })?;
        }
    }
}
