//! `recount fix`'s preview: a unified diff of each record's edits, three lines
//! of context, as `git diff` lays one out. Record lines are the pull request's
//! text, so each line shown is escaped as every other output escapes outside
//! text (a tab stays a tab) and cut at [`crate::escape::LINE_CAP`] bytes; a
//! line's `\r` is not shown. The preview is for reading; `--write` makes the
//! edits byte for byte.

use std::fmt::Write;

use super::FileEdits;
use crate::escape::{LINE_CAP, is_hazard};

/// Lines of unchanged text shown around each change.
pub const CONTEXT: usize = 3;

/// The unified diff of one record's edits (empty when it has none).
pub fn unified(file: &FileEdits) -> String {
    let before: &str = &file.before;
    if file.edits.is_empty() {
        return String::new();
    }
    let starts = line_starts(before);
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    // Each change: the lines it spans, merged when edits share a line.
    let mut changes: Vec<Change> = Vec::new();
    for (at, edit) in file.edits.iter().enumerate() {
        let first = line_of(edit.offset);
        let last = line_of(
            (edit.offset + edit.length)
                .saturating_sub(1)
                .max(edit.offset),
        );
        match changes.last_mut() {
            Some(change) if first <= change.last + 1 => {
                change.last = change.last.max(last);
                change.edits.end = at + 1;
            }
            _ => changes.push(Change {
                first,
                last,
                edits: at..at + 1,
            }),
        }
    }
    let lines = starts.len();
    let end_of = |line: usize| starts.get(line + 1).copied().unwrap_or(before.len());
    let mut out = format!(
        "--- a/{path}\n+++ b/{path}\n",
        path = crate::escape::untrusted(&file.path, crate::escape::VALUE_CAP)
    );
    // Changes whose context would touch or overlap share a hunk.
    let mut hunks: Vec<Vec<&Change>> = Vec::new();
    for change in &changes {
        match hunks.last_mut() {
            Some(hunk) if change.first <= hunk.last().expect("a change").last + 2 * CONTEXT + 1 => {
                hunk.push(change);
            }
            _ => hunks.push(vec![change]),
        }
    }
    let mut delta: isize = 0;
    for hunk in hunks {
        let from = hunk[0].first.saturating_sub(CONTEXT);
        let to = (hunk.last().expect("a change").last + CONTEXT).min(lines - 1);
        let mut body = String::new();
        let (mut old_count, mut new_count) = (0usize, 0usize);
        let mut line = from;
        for change in hunk {
            while line < change.first {
                push_line(&mut body, ' ', &before[starts[line]..end_of(line)]);
                (old_count, new_count) = (old_count + 1, new_count + 1);
                line += 1;
            }
            let (start, end) = (starts[change.first], end_of(change.last));
            for old in before[start..end].split_inclusive('\n') {
                push_line(&mut body, '-', old);
                old_count += 1;
            }
            let mut replaced = String::with_capacity(end - start);
            let mut at = start;
            for edit in &file.edits[change.edits.clone()] {
                replaced.push_str(&before[at..edit.offset]);
                replaced.push_str(&edit.replacement);
                at = edit.offset + edit.length;
            }
            replaced.push_str(&before[at..end]);
            for new in replaced.split_inclusive('\n') {
                push_line(&mut body, '+', new);
                new_count += 1;
            }
            line = change.last + 1;
        }
        while line <= to {
            push_line(&mut body, ' ', &before[starts[line]..end_of(line)]);
            (old_count, new_count) = (old_count + 1, new_count + 1);
            line += 1;
        }
        let new_from = (from as isize + 1 + delta).max(0);
        let _ = writeln!(
            out,
            "@@ -{},{old_count} +{new_from},{new_count} @@",
            from + 1
        );
        out.push_str(&body);
        delta += new_count as isize - old_count as isize;
    }
    out
}

/// A run of changed lines and the edits (by index) made in it.
struct Change {
    first: usize,
    last: usize,
    edits: std::ops::Range<usize>,
}

/// The byte offset where each line starts (a text always has line 0).
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        text.match_indices('\n')
            .map(|(i, _)| i + 1)
            .filter(|&i| i < text.len()),
    );
    starts
}

/// One diff line: its mark, the line escaped and cut, and the marker git
/// writes after a last line with no newline.
fn push_line(out: &mut String, mark: char, line: &str) {
    let ends = line.ends_with('\n');
    let text = line.trim_end_matches('\n').trim_end_matches('\r');
    out.push(mark);
    let mut taken = 0;
    for c in text.chars() {
        if taken + c.len_utf8() > LINE_CAP {
            let _ = write!(out, "… ({} more bytes)", text.len() - taken);
            break;
        }
        taken += c.len_utf8();
        if is_hazard(c) && c != '\t' {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out.push('\n');
    if !ends {
        out.push_str("\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::checks::CheckId;
    use crate::fix::Edit;

    fn file(before: &str, edits: &[(&str, &str)]) -> FileEdits {
        let mut from = 0;
        let edits = edits
            .iter()
            .map(|(stated, replacement)| {
                let offset = from + before[from..].find(stated).expect("stated text");
                from = offset + stated.len();
                Edit {
                    check: CheckId::StalePathCite,
                    line: 0,
                    offset,
                    length: stated.len(),
                    stated: (*stated).to_owned(),
                    replacement: (*replacement).to_owned(),
                    mends: Default::default(),
                }
            })
            .collect();
        FileEdits {
            path: "docs/guide.md".to_owned(),
            before: Arc::from(before),
            edits,
        }
    }

    #[test]
    fn one_edit_shows_three_lines_of_context_each_side() {
        let text = "1\n2\n3\n4\nsee `src/a.py`\n6\n7\n8\n9\n";
        let diff = unified(&file(text, &[("src/a.py", "src/b.py")]));
        assert_eq!(
            diff,
            "--- a/docs/guide.md\n+++ b/docs/guide.md\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n\
             -see `src/a.py`\n+see `src/b.py`\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn far_apart_edits_are_two_hunks_and_near_ones_share_one() {
        let lines: Vec<String> = (1..=30).map(|n| format!("line {n}")).collect();
        let text = lines.join("\n") + "\n";
        let diff = unified(&file(
            &text,
            &[
                ("line 2\n", "line two\n"),
                ("line 5\n", "line five\n"),
                ("line 25", "line 25!"),
            ],
        ));
        let headers: Vec<&str> = diff.lines().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(headers, ["@@ -1,8 +1,8 @@", "@@ -22,7 +22,7 @@"]);
    }

    #[test]
    fn a_last_line_with_no_newline_says_so_and_hazards_are_inert() {
        let text = "a\n\u{1b}[2J `x.md`";
        let diff = unified(&file(text, &[("x.md", "y.md")]));
        assert!(diff.contains("-\\u{1b}[2J `x.md`\n\\ No newline at end of file\n"));
        assert!(diff.contains("+\\u{1b}[2J `y.md`\n\\ No newline at end of file\n"));
        assert!(!diff.contains('\u{1b}'));
    }

    #[test]
    fn a_crlf_record_shows_its_lines_without_the_carriage_return() {
        let text = "one\r\nsee `a.md`\r\n";
        let diff = unified(&file(text, &[("a.md", "b.md")]));
        assert!(diff.ends_with(" one\n-see `a.md`\n+see `b.md`\n"), "{diff}");
    }
}
