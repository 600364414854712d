//! Stage 4 (the transcript family): comparing the output a record shows with
//! the output a re-run printed, as a reader would — counts as numbers, listings
//! as sequences where the tools define the order and as sets where they do not,
//! and elision only by a `...` line or a `.../` path prefix.

use std::ops::Range;

/// What a mismatch's `expected` says when every shown line agrees and the
/// re-run printed more.
pub const END_OF_SHOWN: &str = "(end of the shown output)";

/// How a shown output differs from the re-run's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Index (into the shown lines) of the first line that differs; `None`
    /// when every shown line agrees and the re-run printed more.
    pub first: Option<usize>,
    pub expected: String,
    pub actual: String,
    /// `-shown` / `+re-run` lines.
    pub diff: Vec<String>,
}

/// One shown line: an elision, or a line to match.
enum Shown<'a> {
    /// `...`: any number of lines left out here.
    Gap,
    /// `.../tail`: a line whose path was abbreviated before `tail`.
    Suffix(&'a str),
    Line(&'a str),
}

fn shown(line: &str) -> Shown<'_> {
    let t = line.trim();
    if t == "..." || t == "…" || t == "[...]" {
        return Shown::Gap;
    }
    if let Some(rest) = t.strip_prefix(".../").or_else(|| t.strip_prefix("…/")) {
        return Shown::Suffix(rest);
    }
    Shown::Line(t)
}

fn agrees(s: &Shown<'_>, actual: &str) -> bool {
    let a = actual.trim();
    match s {
        Shown::Gap => true,
        Shown::Suffix(tail) => a.ends_with(&format!("/{tail}")) || a == *tail,
        Shown::Line(l) => *l == a,
    }
}

/// A count as printed (`wc -l` pads it with spaces; a record may group digits).
pub fn as_count(line: &str) -> Option<i128> {
    let t = line.trim().replace(',', "");
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 30 {
        return None;
    }
    t.parse().ok()
}

/// Compares the shown output lines with the re-run's. `ordered`: the tools
/// define the order; `sorted`: a `sort` decides it (a reader's locale may
/// collate differently, so the same lines in another order agree).
pub fn compare(
    expected: &[(Range<usize>, String)],
    actual: &[String],
    ordered: bool,
    sorted: bool,
) -> Option<Mismatch> {
    let lines: Vec<&str> = expected.iter().map(|(_, l)| l.as_str()).collect();
    // A count: one number shown, one number printed.
    if let ([one], [got]) = (lines.as_slice(), actual) {
        if let (Some(a), Some(b)) = (as_count(one), as_count(got)) {
            return (a != b).then(|| Mismatch {
                first: Some(0),
                expected: a.to_string(),
                actual: b.to_string(),
                diff: vec![format!("-{}", one.trim()), format!("+{}", got.trim())],
            });
        }
    }
    let pattern: Vec<Shown<'_>> = lines.iter().map(|l| shown(l)).collect();
    if ordered {
        match in_order(&pattern, actual) {
            None => return None,
            Some(m) if !sorted => return Some(explain(&lines, actual, m)),
            Some(_) => {}
        }
    }
    as_set(&pattern, actual).map(|m| explain(&lines, actual, m))
}

/// Where an ordered match fails: the shown index, or `None` for extra lines.
fn in_order(pattern: &[Shown<'_>], actual: &[String]) -> Option<Option<usize>> {
    let mut a = 0;
    let mut gap = false;
    for (i, s) in pattern.iter().enumerate() {
        if let Shown::Gap = s {
            gap = true;
            continue;
        }
        if gap {
            match actual[a..].iter().position(|l| agrees(s, l)) {
                Some(at) => a += at + 1,
                None => return Some(Some(i)),
            }
            gap = false;
        } else if actual.get(a).is_some_and(|l| agrees(s, l)) {
            a += 1;
        } else {
            return Some(Some(i));
        }
    }
    (!gap && a < actual.len()).then_some(None)
}

/// Where a set match fails.
fn as_set(pattern: &[Shown<'_>], actual: &[String]) -> Option<Option<usize>> {
    let mut used = vec![false; actual.len()];
    let gap = pattern.iter().any(|s| matches!(s, Shown::Gap));
    for (i, s) in pattern.iter().enumerate() {
        if let Shown::Gap = s {
            continue;
        }
        // Exact lines first, so a `.../` suffix does not take a line shown in full.
        let hit = (0..actual.len())
            .find(|&j| !used[j] && matches!(s, Shown::Line(l) if *l == actual[j].trim()))
            .or_else(|| (0..actual.len()).find(|&j| !used[j] && agrees(s, &actual[j])));
        match hit {
            Some(j) => used[j] = true,
            None => return Some(Some(i)),
        }
    }
    (!gap && used.iter().any(|u| !u)).then_some(None)
}

/// The diff of shown against printed lines, and the first differing pair.
fn explain(lines: &[&str], actual: &[String], first: Option<usize>) -> Mismatch {
    let pattern: Vec<Shown<'_>> = lines.iter().map(|l| shown(l)).collect();
    let mut used = vec![false; actual.len()];
    let mut missing = Vec::new();
    for (i, s) in pattern.iter().enumerate() {
        if let Shown::Gap = s {
            continue;
        }
        match (0..actual.len()).find(|&j| !used[j] && agrees(s, &actual[j])) {
            Some(j) => used[j] = true,
            None => missing.push(i),
        }
    }
    let gap = pattern.iter().any(|s| matches!(s, Shown::Gap));
    let mut diff: Vec<String> = missing
        .iter()
        .map(|&i| format!("-{}", lines[i].trim()))
        .collect();
    if !gap {
        diff.extend(
            actual
                .iter()
                .zip(&used)
                .filter(|(_, u)| !**u)
                .map(|(l, _)| format!("+{}", l.trim())),
        );
    }
    if diff.is_empty() {
        // The same lines in another order.
        diff.push("(the same lines, in another order)".to_owned());
    }
    let expected = first
        .and_then(|i| lines.get(i))
        .map_or_else(|| END_OF_SHOWN.to_owned(), |l| l.trim().to_owned());
    let actual_line = match first {
        Some(i) => {
            // The printed line in the same position, skipping elisions.
            let shown_before = pattern[..i]
                .iter()
                .filter(|s| !matches!(s, Shown::Gap))
                .count();
            actual
                .get(shown_before)
                .cloned()
                .unwrap_or_else(|| "(no more lines)".to_owned())
        }
        None => actual
            .iter()
            .zip(&used)
            .find(|(_, u)| !**u)
            .map_or_else(String::new, |(l, _)| l.clone()),
    };
    Mismatch {
        first,
        expected,
        actual: actual_line.trim().to_owned(),
        diff,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown_lines(lines: &[&str]) -> Vec<(Range<usize>, String)> {
        lines.iter().map(|l| (0..0, (*l).to_owned())).collect()
    }
    fn printed(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| (*l).to_owned()).collect()
    }

    #[test]
    fn counts_compare_as_numbers() {
        assert_eq!(
            compare(&shown_lines(&["       7"]), &printed(&["7"]), true, false),
            None
        );
        let m = compare(&shown_lines(&["7"]), &printed(&["8"]), true, false).unwrap();
        assert_eq!((m.expected.as_str(), m.actual.as_str()), ("7", "8"));
    }

    #[test]
    fn listings_compare_in_order_or_as_sets() {
        let a = printed(&["a", "b", "c"]);
        assert_eq!(
            compare(&shown_lines(&["a", "b", "c"]), &a, true, false),
            None
        );
        assert!(compare(&shown_lines(&["b", "a", "c"]), &a, true, false).is_some());
        assert_eq!(
            compare(&shown_lines(&["b", "a", "c"]), &a, false, false),
            None
        );
        assert_eq!(
            compare(&shown_lines(&["c", "a", "b"]), &a, true, true),
            None
        );
        let m = compare(&shown_lines(&["a", "x", "c"]), &a, true, false).unwrap();
        assert_eq!(m.first, Some(1));
        assert_eq!(m.diff, ["-x", "+b"]);
        let m = compare(&shown_lines(&["a", "b"]), &a, true, false).unwrap();
        assert_eq!(m.first, None);
    }

    #[test]
    fn elision_is_a_gap_line_or_a_path_prefix_only() {
        let a = printed(&["src/a/one.rs:3", "x", "y", "src/b/two.rs:9"]);
        assert_eq!(
            compare(
                &shown_lines(&[".../one.rs:3", "...", ".../two.rs:9"]),
                &a,
                true,
                false
            ),
            None
        );
        assert!(compare(&shown_lines(&["one.rs:3", "..."]), &a, true, false).is_some());
        assert!(compare(&shown_lines(&["src/a/one.rs:3", "x", "y"]), &a, true, false).is_some());
    }
}
