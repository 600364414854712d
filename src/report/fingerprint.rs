//! Stage 5 of the pipeline (the report): each finding's fingerprint, the name a
//! baseline and a code-scanning tool know it by from one run to the next.
//!
//! A fingerprint is made of what the finding is about, never of where it is:
//! the check id, the path of the file it is in, the fact it concerns (if any),
//! the text the record states — its `stated` value, or else the bytes under its
//! span — with every run of whitespace collapsed to one space (case kept: a
//! cite's case is part of what it names), and the occurrence index of that
//! (check, path, fact, text) among the run's findings in document order. Line and
//! column are left out on purpose, so lines inserted above a finding, or a
//! paragraph rewrapped around it, leave its fingerprint as it was; the occurrence
//! index tells apart the same words stated twice in one file.
//!
//! The hash is FNV-1a 64 (written out here, no dependency) over the fields in
//! that order, each followed by a NUL byte, the index last in decimal; it is
//! shown as 16 lowercase hex digits. It identifies, it does not protect: nothing
//! relies on it being hard to collide on purpose. [`SCHEME`] names the recipe, so
//! a change to it is a new scheme rather than a silent change of every value.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::checks::Finding;

/// The recipe's name and version: SARIF's `partialFingerprints` key, and the
/// first bytes hashed.
pub const SCHEME: &str = "recount/v1";

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// `text` with every run of whitespace (line breaks included) turned into one
/// space and none at either end: a rewrapped claim is the same claim.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text a finding is about, normalised: what the record states, or, for a
/// finding with no stated value (a claim not found, a rule's glob that selects
/// nothing), the bytes under its span in `sources` (empty when it has none).
pub fn claim_text(finding: &Finding, sources: &BTreeMap<String, Arc<str>>) -> String {
    if let Some(stated) = &finding.stated {
        return normalise(stated);
    }
    let loc = &finding.location;
    let span = sources
        .get(&loc.path)
        .and_then(|text| text.get(loc.offset..loc.offset.saturating_add(loc.length)))
        .unwrap_or_default();
    normalise(span)
}

/// The fingerprint of the `occurrence`-th finding (0-based, in document order)
/// of `check` in `path` about `fact` stating `text`.
pub fn fingerprint(check: &str, path: &str, fact: &str, text: &str, occurrence: usize) -> String {
    let mut bytes =
        Vec::with_capacity(SCHEME.len() + check.len() + path.len() + fact.len() + text.len() + 26);
    for field in [SCHEME, check, path, fact, text] {
        bytes.extend_from_slice(field.as_bytes());
        bytes.push(0);
    }
    bytes.extend_from_slice(occurrence.to_string().as_bytes());
    format!("{:016x}", fnv1a64(&bytes))
}

/// The fingerprint of every finding, in the findings' order. `findings` must be
/// in document order (as [`crate::checks::run_all`] sorts them: path, line,
/// column), which is what the occurrence index counts in.
pub fn assign(findings: &[Finding], sources: &BTreeMap<String, Arc<str>>) -> Vec<String> {
    let mut seen: HashMap<(&str, &str, &str, String), usize> = HashMap::new();
    findings
        .iter()
        .map(|f| {
            let text = claim_text(f, sources);
            let fact = f.fact.as_deref().unwrap_or_default();
            let key = (f.check.as_str(), f.location.path.as_str(), fact, text);
            let occurrence = seen.entry(key.clone()).or_insert(0);
            let print = fingerprint(key.0, key.1, key.2, &key.3, *occurrence);
            *occurrence += 1;
            print
        })
        .collect()
}

/// Whether `text` has the shape of a fingerprint: 16 lowercase hex digits.
pub fn is_fingerprint(text: &str) -> bool {
    text.len() == 16
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{CheckId, Location, Severity};

    fn finding(line: usize, offset: usize, stated: &str) -> Finding {
        Finding {
            reads: Vec::new(),
            fixable: crate::checks::Fixable::No,
            check: CheckId::StalePathCite,
            severity: Severity::Warning,
            location: Location {
                path: "docs/guide.md".to_owned(),
                line,
                column: 3,
                offset,
                length: stated.len(),
                commit: None,
            },
            fact: None,
            message: format!("no file at line {line}"),
            stated: Some(stated.to_owned()),
            observed: None,
            recipe: None,
            rule: None,
            diff: None,
            tier: None,
            label: None,
        }
    }

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn the_place_does_not_count_the_words_and_their_order_do() {
        let sources = BTreeMap::new();
        let before = assign(&[finding(4, 40, "a.md"), finding(9, 90, "a.md")], &sources);
        // Ten lines inserted above, the message rewritten: the same fingerprints.
        let after = assign(
            &[finding(14, 400, "a.md"), finding(19, 900, "a.md")],
            &sources,
        );
        assert_eq!(before, after);
        // The same cite twice in one file: two fingerprints.
        assert_ne!(before[0], before[1]);
        assert!(before.iter().all(|f| is_fingerprint(f)), "{before:?}");
        // Rewrapped, the same claim; a different case, a different cite.
        let rewrapped = assign(&[finding(4, 40, "five\n  files")], &sources);
        assert_eq!(rewrapped, assign(&[finding(4, 40, "five files")], &sources));
        assert_ne!(rewrapped, assign(&[finding(4, 40, "Five files")], &sources));
    }

    #[test]
    fn a_finding_with_nothing_stated_is_known_by_the_bytes_under_its_span() {
        let mut f = finding(2, 6, "xx");
        f.stated = None;
        let sources = BTreeMap::from([(
            "docs/guide.md".to_owned(),
            Arc::<str>::from("line\n  docs/*.md\n"),
        )]);
        f.location.length = 9;
        f.location.offset = 7;
        assert_eq!(claim_text(&f, &sources), "docs/*.md");
        // A span past the end (or none) is no text, not a panic.
        f.location.offset = 100;
        assert_eq!(claim_text(&f, &sources), "");
    }

    #[test]
    fn fields_cannot_run_into_each_other() {
        assert_ne!(
            fingerprint("c", "ab", "", "x", 0),
            fingerprint("c", "a", "b", "x", 0)
        );
        assert_ne!(
            fingerprint("c", "p", "", "x", 1),
            fingerprint("c", "p", "", "x1", 0)
        );
    }
}
