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

/// Levenshtein distance in characters; `None` past [`EDIT_DISTANCE_LIMIT_CHARS`].
pub fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > EDIT_DISTANCE_LIMIT_CHARS || b.len() > EDIT_DISTANCE_LIMIT_CHARS {
        return None;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        if let Some(first) = current.first_mut() {
            *first = i + 1;
        }
        for (j, &cb) in b.iter().enumerate() {
            let substitute = previous
                .get(j)
                .map_or(usize::MAX, |&d| d + usize::from(ca != cb));
            let delete = previous.get(j + 1).map_or(usize::MAX, |&d| d + 1);
            let insert = current.get(j).map_or(usize::MAX, |&d| d + 1);
            if let Some(cell) = current.get_mut(j + 1) {
                *cell = substitute.min(delete).min(insert);
            }
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().copied()
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
