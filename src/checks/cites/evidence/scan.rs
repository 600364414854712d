//! Citations, after resolution: how often each cite text of a record occurs in
//! one version of it, for the search of the commit that wrote each cite. Most
//! of that search's cost is here, so a version is counted from a version
//! already counted: only the bytes between their common start and common end
//! are scanned (a release-notes page that gains a paragraph a commit is
//! scanned a paragraph at a time, not a page), the blame's incremental step.

use aho_corasick::{AhoCorasick, AhoCorasickKind};

/// Up to this many cite texts in a record, its automaton is a DFA (a few MiB
/// at most; a third faster than aho-corasick's own choice on a 573-cite
/// changelog); above, aho-corasick's choice.
const DFA_PATTERNS: usize = 1_000;

/// The cite texts of one record, compiled for counting.
pub(super) struct Scan {
    automaton: AhoCorasick,
    patterns: usize,
    /// The longest cite text, in bytes (at least 1).
    longest: usize,
}

impl Scan {
    pub(super) fn new(texts: &[&str]) -> Option<Scan> {
        let kind = (texts.len() <= DFA_PATTERNS).then_some(AhoCorasickKind::DFA);
        let automaton = AhoCorasick::builder().kind(kind).build(texts).ok()?;
        Some(Scan {
            automaton,
            patterns: texts.len(),
            longest: texts.iter().map(|t| t.len()).max().unwrap_or(1).max(1),
        })
    }

    /// How often each pattern occurs in `text`, overlapping occurrences
    /// counted (one cite may hold another).
    pub(super) fn counts(&self, text: &[u8]) -> Vec<u32> {
        let mut counts = vec![0u32; self.patterns];
        for m in self.automaton.find_overlapping_iter(text) {
            counts[m.pattern().as_usize()] += 1;
        }
        counts
    }

    /// [`Scan::counts`] of `text`, from the counts `base_counts` of `base`.
    /// An occurrence lying wholly in the bytes the two share at their start,
    /// or wholly in those they share at their end, is in both: only the
    /// occurrences in the rest, widened by a pattern's length so that one
    /// straddling the edge is seen, are taken from the base and added from
    /// the text (within the widening the two are the same bytes, so what is
    /// wholly there cancels out).
    pub(super) fn counts_from(&self, base: &[u8], base_counts: &[u32], text: &[u8]) -> Vec<u32> {
        let (start, end) = common_ends(base, text);
        let widen = self.longest - 1;
        let window = |len: usize| start.saturating_sub(widen)..(len - end + widen).min(len);
        let mut counts = base_counts.to_vec();
        for m in self
            .automaton
            .find_overlapping_iter(&base[window(base.len())])
        {
            let count = &mut counts[m.pattern().as_usize()];
            *count = count.saturating_sub(1);
        }
        for m in self
            .automaton
            .find_overlapping_iter(&text[window(text.len())])
        {
            counts[m.pattern().as_usize()] += 1;
        }
        counts
    }
}

/// How many bytes `a` and `b` share at their start, and then at their end
/// (never overlapping the start: together at most the shorter's length).
fn common_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
    // Whole blocks compare as memcmp does; the last block byte by byte.
    const BLOCK: usize = 256;
    let shorter = a.len().min(b.len());
    let mut start = 0;
    while start + BLOCK <= shorter && a[start..start + BLOCK] == b[start..start + BLOCK] {
        start += BLOCK;
    }
    while start < shorter && a[start] == b[start] {
        start += 1;
    }
    let room = shorter - start;
    let mut end = 0;
    while end + BLOCK <= room
        && a[a.len() - end - BLOCK..a.len() - end] == b[b.len() - end - BLOCK..b.len() - end]
    {
        end += BLOCK;
    }
    while end < room && a[a.len() - end - 1] == b[b.len() - end - 1] {
        end += 1;
    }
    (start, end)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Scan, common_ends};

    proptest! {
        // Cite texts and versions from a three-letter alphabet overlap every
        // way they can; a version counted from another agrees with counting
        // it whole, whatever the two share.
        #[test]
        fn a_version_counted_from_another_is_counted_as_if_whole(
            mut cites in proptest::collection::vec("[ab/]{1,5}", 1..10),
            // Long enough that the shared ends span whole compared blocks.
            base in "[ab/]{0,1200}",
            cut in 0usize..1200,
            gone in 0usize..20,
            put in "[ab/]{0,20}",
        ) {
            cites.sort();
            cites.dedup();
            let texts: Vec<&str> = cites.iter().map(String::as_str).collect();
            let scan = Scan::new(&texts).expect("builds");
            // The text: the base with a stretch replaced.
            let at = cut.min(base.len());
            let to = (at + gone).min(base.len());
            let text = format!("{}{}{}", &base[..at], put, &base[to..]);
            let from = scan.counts_from(base.as_bytes(), &scan.counts(base.as_bytes()), text.as_bytes());
            prop_assert_eq!(from, scan.counts(text.as_bytes()));
        }

        #[test]
        fn the_common_ends_are_shared_and_never_overlap(
            a in "[ab]{0,700}",
            edit in "[ab]{0,700}",
            at in 0usize..700,
        ) {
            // `b` is `a` with a stretch replaced, so the two share long ends.
            let at = at.min(a.len());
            let b = format!("{}{}{}", &a[..at], &edit[..edit.len() / 8], &a[at..]);
            let (start, end) = common_ends(a.as_bytes(), b.as_bytes());
            prop_assert!(start + end <= a.len().min(b.len()));
            prop_assert_eq!(&a[..start], &b[..start]);
            prop_assert_eq!(&a[a.len() - end..], &b[b.len() - end..]);
            // Maximal: the next byte in differs (or one side ends).
            prop_assert!(start == a.len().min(b.len()) || a.as_bytes()[start] != b.as_bytes()[start]);
        }
    }

    #[test]
    fn counts_hold_overlapping_and_nested_cites() {
        let scan = Scan::new(&["src/a.py", "src/a.py:12", "py:1"]).expect("builds");
        assert_eq!(scan.counts(b"see src/a.py:12 and src/a.py"), [2, 1, 1]);
    }
}
