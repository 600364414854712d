//! The JSON report: the [`Report`] serialised as described by
//! `schemas/report.schema.json`, byte-identical for the same input, with every
//! control or bidi character in it written as a `\uXXXX` escape.

use super::Report;

/// The report schema, as published in `schemas/`.
pub const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

pub fn render(report: &Report) -> String {
    let mut text = super::escape::json_pretty(report)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the report: {e}\"}}"));
    text.push('\n');
    text
}
