//! The GitLab code-quality report (`artifacts:reports:codequality`): a JSON
//! array of issues, each with its check, severity, fingerprint and place, so
//! a merge request's widget and diff show every finding where it is.

use serde_json::{Value, json};

use super::Report;
use crate::checks::Severity;

/// What the report is held to: GitLab's required fields of an issue
/// (`schemas/gitlab-codequality.schema.json`).
pub const CODEQUALITY_SCHEMA: &str = include_str!("../../schemas/gitlab-codequality.schema.json");

/// GitLab's severity of a finding: an error fails the gate (`major`), a
/// warning is `minor`.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
    }
}

pub fn render(report: &Report) -> String {
    let text = |t: &str| super::escape::untrusted_lines(t, super::escape::LINE_CAP).into_owned();
    let mut issues: Vec<Value> = Vec::new();
    if let Some(error) = &report.error {
        // A run that could not finish is one issue the widget shows, at the
        // file at fault when there is one (the repository's root when not).
        let mut message = error.message.clone();
        if let Some(help) = &error.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        issues.push(json!({
            "description": text(&format!("recount could not run: {message}")),
            "check_name": "recount-could-not-run",
            "fingerprint": super::fingerprint::fingerprint(
                "recount-could-not-run",
                error.path.as_deref().unwrap_or_default(),
                "",
                &message,
                0,
            ),
            "severity": "blocker",
            "location": {
                "path": text(error.path.as_deref().unwrap_or(".")),
                "lines": { "begin": error.line.unwrap_or(1).max(1) },
            },
        }));
    }
    for reported in &report.findings {
        let f = &reported.finding;
        issues.push(json!({
            "description": text(&f.message),
            "check_name": f.check.as_str(),
            // GitLab tells issues apart, and across runs, by this alone.
            "fingerprint": reported.fingerprint,
            "severity": severity(f.severity),
            "location": {
                "path": text(&f.location.path),
                "lines": { "begin": f.location.line.max(1) },
            },
        }));
    }
    let mut out = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".to_owned());
    out.push('\n');
    out
}
