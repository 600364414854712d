//! The SARIF 2.1.0 report: findings as results of one run, each check a rule
//! with its `recount explain` text, for code-scanning tools.

use serde_json::{Value, json};

use super::{Report, RunError};
use crate::checks::{CheckId, Severity};

/// The part of SARIF 2.1.0 recount writes, as a schema (tests hold the output to it).
pub const SARIF_SCHEMA: &str = include_str!("../../schemas/sarif.schema.json");

/// The base a finding in a shipped rule pack is located against: the pack is
/// part of recount, not a file of the audited repository.
const PACKS: &str = "RECOUNT_PACKS";

/// Where a finding's file is, as SARIF names it: a path of the repository as a
/// relative reference, percent-encoded; a rule file outside it (`--rules
/// /tmp/x.toml`) as a `file:` URI; a shipped pack (`pack:ID`) as `ID.toml`
/// under [`PACKS`].
fn artifact_location(path: &str) -> Value {
    if let Some(id) = path.strip_prefix("pack:") {
        return json!({ "uri": encode(&format!("{id}.toml")), "uriBaseId": PACKS });
    }
    if path.starts_with('/') {
        return json!({ "uri": format!("file://{}", encode(path)) });
    }
    json!({ "uri": encode(path) })
}

/// `path` percent-encoded as a URI path: every byte but the unreserved
/// characters and `/` (a space, `#`, `%`, `?` or a non-ASCII letter in a file
/// name would otherwise change what the reference means).
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

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
                    "artifactLocation": artifact_location(&f.location.path),
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
        // Known findings never reach the results (the baseline leaves them
        // out), so under a baseline every result is new.
        if report.baseline.is_some() && fingerprint.is_some() {
            result["baselineState"] = json!("new");
        }
        if let Some(tier) = f.tier {
            result["properties"] = json!({ "tier": tier });
        }
        result
    };
    // A silenced finding is a result SARIF marks suppressed in the source, so a
    // code-scanning tool shows it dismissed, with the directive's reason.
    let mut indexes: std::collections::BTreeMap<&str, crate::lines::LineIndex> =
        std::collections::BTreeMap::new();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let mut result = result_of(f, Some(&f.fingerprint));
            if let Some(cause) = &f.cause {
                caused_by(&mut result, cause);
            }
            if let (Some(fix), Some(text)) = (&f.fix, report.sources.get(&f.location.path)) {
                // One line index per file, however many fixes it has.
                let index = indexes
                    .entry(f.location.path.as_str())
                    .or_insert_with(|| crate::lines::LineIndex::new(text));
                result["fixes"] = json!([fixed(&f.location.path, text, index, fix)]);
            }
            result
        })
        .chain(report.suppressed.iter().map(|s| {
            let mut result = result_of(&s.finding, Some(&s.fingerprint));
            result["suppressions"] = json!([{ "kind": s.kind.sarif(), "justification": s.reason }]);
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
            "originalUriBaseIds": {
                (PACKS): { "description": { "text": "The rule packs shipped inside recount (rules/ in its source)." } },
            },
            "invocations": [invocation],
            "results": results,
        }],
    });
    let mut text = super::escape::json_pretty(&sarif)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the report: {e}\"}}"));
    text.push('\n');
    text
}

/// Under `--since`, the change that made a finding: said in its message, and
/// for a change to a file as a related location at the line it changed, so a
/// code-scanning view shows the record's problem beside the code that made it.
fn caused_by(result: &mut Value, cause: &super::Cause) {
    let mut said = cause.summary();
    if let Some(subject) = &cause.subject {
        said.push_str(&format!(": {subject}"));
    }
    if let Some(text) = result["message"]["text"].as_str() {
        result["message"]["text"] = json!(format!("{text}\n{said}"));
    }
    if let Some(path) = &cause.path {
        let mut physical = json!({ "artifactLocation": artifact_location(path) });
        if let Some(line) = cause.line {
            physical["region"] = json!({ "startLine": line });
        }
        result["relatedLocations"] = json!([{
            "id": 1,
            "physicalLocation": physical,
            "message": { "text": said },
        }]);
    }
}

/// A fix as SARIF writes one: the region it deletes, by line and column as
/// the results count them, and the text it inserts.
fn fixed(path: &str, text: &str, index: &crate::lines::LineIndex, fix: &super::Fix) -> Value {
    let (start_line, start_column) = index.line_col(text, fix.offset);
    let (end_line, end_column) = index.line_col(text, fix.offset + fix.length);
    json!({
        "description": { "text": format!("replace with {}", fix.replacement) },
        "artifactChanges": [{
            "artifactLocation": artifact_location(path),
            "replacements": [{
                "deletedRegion": {
                    "startLine": start_line,
                    "startColumn": start_column,
                    "endLine": end_line,
                    "endColumn": end_column,
                },
                "insertedContent": { "text": fix.replacement },
            }],
        }],
    })
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
                "artifactLocation": artifact_location(path),
                "region": region,
            },
        }]);
    }
    notification
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_uri_references() {
        assert_eq!(
            artifact_location("docs/a b#c%.md")["uri"],
            "docs/a%20b%23c%25.md"
        );
        assert_eq!(artifact_location("docs/ré.md")["uri"], "docs/r%C3%A9.md");
        assert_eq!(
            artifact_location("/tmp/x.toml")["uri"],
            "file:///tmp/x.toml"
        );
        let pack = artifact_location("pack:adr-0031");
        assert_eq!(
            (&pack["uri"], &pack["uriBaseId"]),
            (&json!("adr-0031.toml"), &json!(PACKS))
        );
    }
}
