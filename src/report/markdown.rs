//! The Markdown report, for `$GITHUB_STEP_SUMMARY` and pull-request comments:
//! the verdict line, the facts table, the findings table, and each finding's
//! detail in a collapsible section — always under the 1 MiB a step summary may
//! hold, with what was cut said.

use std::fmt::Write as _;

use super::Report;
use crate::checks::Severity;

/// GitHub refuses a step summary over 1 MiB; stay well inside it.
pub const SUMMARY_CAP: usize = 1024 * 1024 - 4 * 1024;

/// Text from outside (messages, cites, paths) made safe for a table cell: one
/// line, pipes escaped, recount's escaping rule for controls and length.
fn cell(text: &str) -> String {
    super::escape::untrusted(text, super::escape::VALUE_CAP)
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
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

    #[test]
    fn a_fence_is_longer_than_any_backtick_run_inside() {
        let block = fenced("run ```sh``` here");
        assert!(block.starts_with("````\n"), "{block}");
        assert!(block.ends_with("\n````\n"), "{block}");
    }
}
