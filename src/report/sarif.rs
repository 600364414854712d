//! The SARIF 2.1.0 report: findings as results of one run, each check a rule
//! with its `recount explain` text, for code-scanning tools.

use serde_json::{Value, json};

use super::{Report, RunError};
use crate::checks::{CheckId, Severity};

pub fn render(report: &Report) -> String {
    let rules: Vec<Value> = CheckId::ALL
        .iter()
        .map(|check| {
            let explain = check.explain();
            let short = explain.lines().next().unwrap_or_default();
            json!({
                "id": check.as_str(),
                "shortDescription": { "text": short },
                "fullDescription": { "text": explain },
            })
        })
        .collect();
    let result_of = |f: &crate::checks::Finding, fingerprint: Option<&str>| {
            let mut message = f.message.clone();
            if let Some(recipe) = &f.recipe {
                message.push_str(&format!("\nrecomputed by {}", recipe.summary()));
            }
            if let Some(diff) = &f.diff {
                message.push_str(&format!("\n{}", diff.text()));
            }
            let mut result = json!({
                "ruleId": f.check.as_str(),
                "ruleIndex": CheckId::ALL.iter().position(|c| *c == f.check).unwrap_or(0),
                "level": match f.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": { "text": message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": f.location.path },
                        "region": {
                            "startLine": f.location.line,
                            "startColumn": f.location.column,
                        },
                    },
                }],
            });
            // The same value as the JSON report's `fingerprint`: what a
            // code-scanning tool matches results across runs by, so a finding
            // that moved down the file is not a new alert.
            if let Some(fingerprint) = fingerprint {
                result["partialFingerprints"] = json!({ (super::fingerprint::SCHEME): fingerprint });
            }
            if let Some(tier) = f.tier {
                result["properties"] = json!({ "tier": tier });
            }
            result
        };
    // A silenced finding is a result SARIF marks suppressed in the source, so a
    // code-scanning tool shows it dismissed, with the directive's reason.
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| result_of(f, Some(&f.fingerprint)))
        .chain(report.suppressed.iter().map(|s| {
            let mut result = result_of(&s.finding, None);
            result["suppressions"] = json!([{ "kind": "inSource", "justification": s.reason }]);
            result
        }))
        .collect();
    let mut invocation = json!({ "executionSuccessful": report.error.is_none() });
    if let Some(error) = &report.error {
        invocation["toolExecutionNotifications"] = json!([notification(error)]);
    }
    let sarif = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "recount",
                "version": report.recount_version,
                "rules": rules,
            } },
            "invocations": [invocation],
            "results": results,
        }],
    });
    let mut text = super::escape::json_pretty(&sarif)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the report: {e}\"}}"));
    text.push('\n');
    text
}

/// A could-not-run error as a SARIF notification, at its file, line and column
/// when it has them.
fn notification(error: &RunError) -> Value {
    let mut text = error.message.clone();
    if let Some(label) = &error.label {
        text.push_str(&format!(" ({label})"));
    }
    if let Some(help) = &error.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let mut notification = json!({
        "level": "error",
        "descriptor": { "id": error.code },
        "message": { "text": text },
    });
    if let Some(path) = &error.path {
        let mut region = json!({});
        if let Some(line) = error.line {
            region["startLine"] = json!(line);
        }
        if let Some(column) = error.column {
            region["startColumn"] = json!(column);
        }
        notification["locations"] = json!([{
            "physicalLocation": {
                "artifactLocation": { "uri": path },
                "region": region,
            },
        }]);
    }
    notification
}
