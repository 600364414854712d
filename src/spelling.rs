//! Ground floor, shared by the stages that refuse or suggest a name (rule-file
//! keys, check ids, packs, exemptions, a cited test, file or anchor): edit
//! distance, and the known name a mistyped one most likely meant, for a "did
//! you mean". Imports nothing of the pipeline.

/// The candidate nearest `wanted` by edit distance, when it is near enough to
/// be a typo: at most a third of the longer name (and at least one edit
/// allowed), a case-only difference always. Ties go to the candidate listed
/// first.
pub fn nearest<'a>(wanted: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for &candidate in candidates {
        if candidate.to_lowercase() == wanted_lower {
            return Some(candidate);
        }
        let Some(distance) = edit_distance(&wanted_lower, &candidate.to_lowercase()) else {
            continue;
        };
        let room = (wanted.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= room && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// `; did you mean `x`?` for a refusal's help, or nothing.
pub fn did_you_mean(wanted: &str, candidates: &[&str]) -> String {
    nearest(wanted, candidates).map_or_else(String::new, |near| format!("did you mean `{near}`? "))
}

/// Levenshtein is only worth its quadratic cost on names of a sane length.
const EDIT_DISTANCE_LIMIT_CHARS: usize = 256;

/// Levenshtein distance in characters (`strsim`'s); `None` past
/// [`EDIT_DISTANCE_LIMIT_CHARS`].
pub fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let too_long = |s: &str| s.chars().nth(EDIT_DISTANCE_LIMIT_CHARS).is_some();
    if too_long(a) || too_long(b) {
        return None;
    }
    Some(strsim::levenshtein(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_is_levenshtein() {
        assert_eq!(edit_distance("kitten", "sitting"), Some(3));
        assert_eq!(edit_distance("", "abc"), Some(3));
        assert_eq!(edit_distance("abc", ""), Some(3));
        assert_eq!(edit_distance("flaw", "lawn"), Some(2));
        assert_eq!(edit_distance("größe", "grösse"), Some(2));
        assert_eq!(edit_distance(&"a".repeat(300), "a"), None);
    }

    #[test]
    fn a_typo_finds_its_name_and_a_stranger_finds_none() {
        let keys = ["records", "test_roots", "exemptions"];
        assert_eq!(nearest("recrods", &keys), Some("records"));
        assert_eq!(nearest("Test_Roots", &keys), Some("test_roots"));
        assert_eq!(nearest("frobnicate", &keys), None);
        assert_eq!(
            did_you_mean("exemption", &keys),
            "did you mean `exemptions`? "
        );
        assert_eq!(did_you_mean("zz", &keys), "");
    }
}
