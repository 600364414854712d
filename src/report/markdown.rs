//! The Markdown report, for `$GITHUB_STEP_SUMMARY` and pull-request comments:
//! the verdict line, the facts table, the findings table, and each finding's
//! detail in a collapsible section — always under the 1 MiB a step summary may
//! hold, with what was cut said.

use std::fmt::Write as _;

use super::Report;
use crate::checks::Severity;

/// GitHub refuses a step summary over 1 MiB; stay well inside it.
pub const SUMMARY_CAP: usize = 1024 * 1024 - 4 * 1024;

/// Text from outside (messages, cites, paths, rename targets, notes) as
/// Markdown that shows it and does nothing else, wherever the summary puts it:
/// a table cell, a paragraph, a list item or a `<summary>`. One line, no HTML,
/// no new cell, no link, image or mention ([`super::escape::markdown`]).
fn cell(text: &str) -> String {
    super::escape::markdown(text, super::escape::VALUE_CAP)
}

/// Text for a code block inside a details section: a fence longer than any
/// run of backticks inside it cannot be closed early by what it shows.
fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!(
        "{fence}\n{}\n{fence}\n",
        super::escape::untrusted_lines(text, super::escape::LINE_CAP)
    )
}

/// A GitHub suggestion block: the lines as the fix leaves them, fenced as
/// [`fenced`] fences, so what they hold cannot close it early.
fn suggestion_block(lines: &str) -> String {
    let longest = lines.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!(
        "{fence}suggestion\n{}\n{fence}\n",
        super::escape::untrusted_lines(lines, super::escape::LINE_CAP)
    )
}

/// The summary, with no line a CI runner reads as a command: a step summary is
/// also printed to the log when a workflow `cat`s it, and a message's own line
/// breaks inside a details block can put an outside value at a line's start.
pub fn render(report: &Report) -> String {
    super::escape::guard_lines(&render_unguarded(report)).into_owned()
}

fn render_unguarded(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### recount\n");
    if let Some(error) = &report.error {
        let _ = writeln!(out, "**recount could not run:** {}", cell(&error.message));
        if let Some(help) = &error.help {
            let _ = writeln!(out, "\n{}", cell(help));
        }
        return out;
    }
    let verdict = super::human::summary(report);
    let mark = if report.findings.is_empty() {
        "✅"
    } else {
        "❌"
    };
    let _ = writeln!(out, "{mark} {}\n", cell(&verdict));

    if !report.facts.is_empty() {
        let _ = writeln!(
            out,
            "| fact | kind | value | frame | stated | agree | drifted |"
        );
        let _ = writeln!(out, "|---|---|---:|---|---:|---:|---:|");
        for fact in &report.facts {
            let value = fact
                .value
                .as_deref()
                .map_or_else(|| "unverified".to_owned(), cell);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                cell(&fact.id),
                fact.kind,
                value,
                cell(&fact.frame),
                fact.claims.found,
                fact.claims.ok,
                fact.claims.drifted,
            );
        }
        out.push('\n');
    }

    let mut details = String::new();
    if !report.findings.is_empty() {
        let _ = writeln!(out, "| severity | check | where | finding |");
        let _ = writeln!(out, "|---|---|---|---|");
    }
    let mut shown = 0;
    for f in &report.findings {
        let severity = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let place = format!(
            "{}:{}:{}",
            f.location.path, f.location.line, f.location.column
        );
        let row = format!(
            "| {severity} | `{}` | {} | {} |\n",
            f.check.as_str(),
            cell(&place),
            cell(&f.message)
        );
        let mut detail = format!(
            "<details><summary>{} at {}</summary>\n\n",
            f.check.as_str(),
            cell(&place)
        );
        detail.push_str(&fenced(&f.message));
        if let Some(recipe) = &f.recipe {
            let _ = writeln!(detail, "\nrecomputed by {}", cell(&recipe.summary()));
        }
        if let Some(diff) = &f.diff {
            detail.push('\n');
            detail.push_str(&fenced(&diff.text()));
        }
        if let Some(lines) = f.fix.as_ref().and_then(|fix| {
            let text = report.sources.get(&f.location.path)?;
            fix.lines_after(text)
        }) {
            // Ready to paste as a review comment on the record's line.
            let _ = writeln!(detail, "\nthe fix the evidence gives:\n");
            detail.push_str(&suggestion_block(&lines));
        }
        if let Some(cause) = &f.cause {
            let _ = writeln!(detail, "\n{}", cell(&cause.summary()));
            if let Some(subject) = &cause.subject {
                let _ = writeln!(detail, "\n{}", cell(subject));
            }
        }
        detail.push_str("\n</details>\n");
        // Rows first, details after: both must fit, with room for the note
        // that says what was cut.
        if out.len() + row.len() + details.len() + detail.len() + 512 > SUMMARY_CAP {
            break;
        }
        out.push_str(&row);
        details.push_str(&detail);
        shown += 1;
    }
    let cut = report.findings.len() - shown;
    if cut > 0 {
        let _ = writeln!(
            out,
            "\n**{cut} more finding{} not shown**: a step summary holds at most 1 MiB; the JSON or SARIF report has them all.",
            if cut == 1 { "" } else { "s" }
        );
    }
    if !details.is_empty() {
        out.push('\n');
        out.push_str(&details);
    }
    if !report.notes.is_empty() {
        let _ = writeln!(out, "\n<details><summary>notes</summary>\n");
        for note in &report.notes {
            let _ = writeln!(out, "- {}", cell(note));
        }
        let _ = writeln!(out, "\n</details>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_stays_one_cell_whatever_it_carries() {
        // The newline becomes recount's visible escape (its backslash escaped
        // for Markdown), never a new table row; the pipe never a new cell.
        assert_eq!(cell("a | b\nc"), "a \\| b\\\\u{a}c");
        assert!(!cell("x\u{1b}[2Jy").contains('\u{1b}'));
    }

    /// What a pull request can name a record, a cited file or a rename
    /// target: each a try at forging the summary.
    const HOSTILE: [&str; 7] = [
        "docs/x</summary><img src=x onerror=alert(1)>.md",
        "| ✅ all clean | | | |",
        "![x](http://evil.example/p.png)[click](https://evil.example)",
        "@someone and team@example.com at www.evil.example",
        "line one\n::error ::forged\r\u{1b}[2J\u{1b}]0;title\u{7}",
        "`a` then `b|c` then `open",
        "# heading",
    ];

    /// The pipes of a line that GFM reads as cell borders: those not escaped
    /// by a backslash (itself not escaped).
    fn borders(line: &str) -> usize {
        let mut count = 0;
        let mut escaped = false;
        for c in line.chars() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '|' {
                count += 1;
            }
        }
        count
    }

    #[test]
    fn a_hostile_value_shows_as_text_and_does_nothing() {
        for value in HOSTILE {
            let shown = cell(value);
            for raw in ['<', '>', '"', '\n', '\r', '\u{1b}', '\u{7}'] {
                assert!(
                    !shown
                        .replace("<code>", "")
                        .replace("</code>", "")
                        .contains(raw),
                    "{raw:?} in {shown}"
                );
            }
            assert_eq!(borders(&shown), 0, "{shown}");
            assert!(!shown.replace("\\]", "").contains("]("), "{shown}");
            assert!(!shown.contains("@s"), "{shown}");
            assert!(!shown.contains("://"), "{shown}");
        }
        assert_eq!(
            cell(HOSTILE[0]),
            "docs/x&lt;/summary&gt;&lt;img src=x onerror=alert(1)&gt;.md"
        );
        assert_eq!(cell(HOSTILE[1]), "\\| ✅ all clean \\| \\| \\| \\|");
        assert_eq!(
            cell(HOSTILE[2]),
            "!\\[x\\](http:&#8203;//evil.example/p.png)\\[click\\](https:&#8203;//evil.example)"
        );
        assert_eq!(
            cell(HOSTILE[3]),
            "@&#8203;someone and team@&#8203;example.com at w&#8203;ww.evil.example"
        );
        assert_eq!(
            cell(HOSTILE[4]),
            "line one\\\\u{a}::error ::forged\\\\u{d}\\\\u{1b}\\[2J\\\\u{1b}\\]0;title\\\\u{7}"
        );
        // Backticks pair into balanced code tags, the last one closed.
        assert_eq!(
            cell(HOSTILE[5]),
            "<code>a</code> then <code>b\\|c</code> then <code>open</code>"
        );
        assert_eq!(cell(HOSTILE[6]), "\\# heading");
        assert_eq!(cell("1. first"), "1\\. first");
        assert_eq!(cell("-- x"), "\\-- x");
        // Not a block marker: left as it is.
        assert_eq!(cell("1.031789"), "1.031789");
        assert_eq!(cell("-1"), "-1");
        assert_eq!(cell("#x"), "#x");
    }

    #[test]
    fn a_value_that_is_no_attack_reads_as_before() {
        for plain in [
            "docs/adr/0031-tool-input-validation.md:59:20",
            "MAX_SOURCE_FILE_BYTES = 10,485,760 (src/quarry/security/paths.py:10)",
            "over 22 facts and 19 citations at bd8f9884",
        ] {
            assert_eq!(cell(plain), plain);
        }
        assert_eq!(cell("src/pkg/__init__.py"), "src/pkg/\\_\\_init\\_\\_.py");
        assert_eq!(cell("3 * X"), "3 \\* X");
    }

    /// A report with one finding whose record path, message, recipe-free cause
    /// and note all carry `value`.
    fn report_carrying(value: &str) -> Report {
        use crate::checks::{CheckId, Finding, Location};
        let mut report = Report::empty("HEAD");
        report.findings.push(super::super::Reported {
            finding: Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::ALL[0],
                severity: Severity::Error,
                location: Location {
                    path: value.to_owned(),
                    line: 1,
                    column: 1,
                    offset: 0,
                    length: 0,
                    commit: None,
                },
                fact: None,
                message: format!("`{value}`: no file `{value}`; did you mean `{value}`?"),
                stated: None,
                observed: None,
                recipe: None,
                rule: None,
                diff: None,
                tier: None,
                label: None,
            },
            fingerprint: "x".to_owned(),
            cause: None,
            fix: None,
        });
        report.notes.push(format!("{value} was skipped"));
        report
    }

    /// `text` without its fenced code blocks, which show what they hold as it
    /// is and act on none of it.
    fn outside_fences(text: &str) -> String {
        let mut out = String::new();
        let mut fence: Option<String> = None;
        for line in text.lines() {
            let ticks: String = line.chars().take_while(|&c| c == '`').collect();
            match &fence {
                Some(open) if ticks.len() >= open.len() && line.trim_end() == ticks => fence = None,
                Some(_) => {}
                None if ticks.len() >= 3 => fence = Some(ticks),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        out
    }

    #[test]
    fn a_hostile_path_forges_nothing_in_the_summary() {
        for value in HOSTILE {
            let rendered = render(&report_carrying(value));
            assert!(
                !rendered.contains('\u{1b}') && !rendered.contains('\r'),
                "{rendered}"
            );
            let text = outside_fences(&rendered);
            // One details section per finding and one for the notes: a path
            // closes no <summary> and opens no tag.
            assert_eq!(text.matches("<summary>").count(), 2, "{text}");
            assert_eq!(text.matches("</summary>").count(), 2, "{text}");
            assert_eq!(text.matches("<details>").count(), 2, "{text}");
            assert_eq!(text.matches("</details>").count(), 2, "{text}");
            assert!(!text.contains("<img"), "{text}");
            assert_eq!(
                text.matches("<code>").count(),
                text.matches("</code>").count(),
                "{text}"
            );
            // One table row, four cells; nothing else a table.
            let rows: Vec<&str> = text.lines().filter(|l| borders(l) > 0).collect();
            assert_eq!(rows.len(), 3, "{text}");
            assert_eq!(borders(rows[2]), 5, "{}", rows[2]);
            for line in text.lines() {
                assert!(!line.starts_with("::"), "{line}");
                assert!(!line.starts_with('#') || line == "### recount", "{line}");
            }
            assert!(!text.replace("\\]", "").contains("]("), "{text}");
            assert!(!text.contains("@s") && !text.contains("://"), "{text}");
            // Clean is said only by recount, and not here.
            assert!(!text.contains("✅ clean"), "{text}");
        }
    }

    #[test]
    fn a_fence_is_longer_than_any_backtick_run_inside() {
        let block = fenced("run ```sh``` here");
        assert!(block.starts_with("````\n"), "{block}");
        assert!(block.ends_with("\n````\n"), "{block}");
    }
}
