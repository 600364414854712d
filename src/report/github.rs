//! The GitHub Actions report: one workflow command per finding, so each shows as
//! an annotation on the pull request's diff at the exact line and column.

use std::fmt::Write as _;

use super::Report;
use crate::checks::Severity;

/// Escapes a command's message: first recount's one rule for outside text
/// (controls, bidi, long lines), then GitHub's (`%`, CR and LF), so whatever a
/// message carries stays inside its one command line.
fn escape_data(text: &str) -> String {
    super::escape::untrusted_lines(text, super::escape::LINE_CAP)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property, which also may not hold `:` or `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes a path for the `file=` property: each character the syntax can
/// carry (`%`, CR, LF, `:`, `,`) encoded as GitHub decodes it, so the
/// annotation names the file that is there. A control character the syntax
/// has no code for (ESC and the rest) is shown escaped, never written raw into
/// the log, where it would drive the viewer's terminal.
fn escape_path(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => encoded.push_str("%25"),
            '\r' => encoded.push_str("%0D"),
            '\n' => encoded.push_str("%0A"),
            ':' => encoded.push_str("%3A"),
            ',' => encoded.push_str("%2C"),
            c => encoded.push(c),
        }
    }
    super::escape::untrusted_lines(&encoded, super::escape::LINE_CAP).into_owned()
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    if let Some(error) = &report.error {
        let mut place = String::new();
        if let Some(path) = &error.path {
            let _ = write!(place, " file={}", escape_path(path));
            if let (Some(line), Some(column)) = (error.line, error.column) {
                let _ = write!(place, ",line={line},col={column}");
            }
            place.push(',');
        } else {
            place.push(' ');
        }
        let mut message = error.message.clone();
        if let Some(help) = &error.help {
            let _ = write!(message, "\nhelp: {help}");
        }
        let _ = writeln!(
            out,
            "::error{place}title={}::{}",
            escape_property("recount could not run"),
            escape_data(&message)
        );
        return out;
    }
    // GitHub shows ten annotations per level per step: errors first, then by
    // place, so the ten shown are the ones that fail the build, in file order.
    let mut ordered: Vec<_> = report.findings.iter().collect();
    ordered.sort_by(|a, b| {
        let rank = |s: Severity| u8::from(s != Severity::Error);
        (
            rank(a.severity),
            &a.location.path,
            a.location.line,
            a.location.column,
        )
            .cmp(&(
                rank(b.severity),
                &b.location.path,
                b.location.line,
                b.location.column,
            ))
    });
    for f in ordered {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut message = f.message.clone();
        if let Some(recipe) = &f.recipe {
            let _ = write!(message, "\nrecomputed by {}", recipe.summary());
        }
        if let Some(diff) = &f.diff {
            let _ = write!(message, "\n{}", diff.text());
        }
        if let Some(fix) = &f.fix {
            let _ = write!(message, "\nfix: replace with {}", fix.replacement);
        }
        if let Some(cause) = &f.cause {
            let _ = write!(message, "\n{}", cause.summary());
        }
        let _ = writeln!(
            out,
            "::{level} file={},line={},col={},title={}::{}",
            escape_path(&f.location.path),
            f.location.line,
            f.location.column,
            escape_property(f.check.as_str()),
            escape_data(&message)
        );
        // The same finding on the line of code that caused it, where the
        // reviewer of the change is reading.
        if let Some(cause) = &f.cause
            && let (Some(path), Some(line)) = (&cause.path, cause.line)
        {
            let _ = writeln!(
                out,
                "::{level} file={},line={line},title={}::{}",
                escape_path(path),
                escape_property(f.check.as_str()),
                escape_data(&format!(
                    "this change ({}) made {}:{} stale: {}",
                    cause
                        .commit
                        .as_deref()
                        .map_or("uncommitted", |c| c.get(..8).unwrap_or(c)),
                    f.location.path,
                    f.location.line,
                    f.message
                ))
            );
        }
    }
    let beyond = |severity: Severity| {
        report
            .findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
            .saturating_sub(ANNOTATIONS_SHOWN)
    };
    let (errors, warnings) = (beyond(Severity::Error), beyond(Severity::Warning));
    if errors + warnings > 0 {
        let _ = writeln!(
            out,
            "::notice title={}::{errors} more error{} and {warnings} more warning{} than the {ANNOTATIONS_SHOWN} per level GitHub shows as annotations: this log lists them all",
            escape_property("recount"),
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        );
    }
    let _ = writeln!(out, "{}", super::human::summary(report));
    out
}

/// Annotations GitHub shows per level (error, warning) in one step.
const ANNOTATIONS_SHOWN: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_cannot_be_broken_by_what_they_carry() {
        assert_eq!(escape_data("50% of\nlines"), "50%25 of%0Alines");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
        // A path's CR and LF are encoded as the syntax decodes them, and a
        // control it has no code for stays visibly escaped.
        assert_eq!(escape_path("a\rb\nc:d,%e"), "a%0Db%0Ac%3Ad%2C%25e");
        assert!(!escape_path("a\u{1b}[31mb").contains('\u{1b}'));
    }
}
