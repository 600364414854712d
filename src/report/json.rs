//! The JSON report: the [`Report`] serialised as described by
//! `schemas/report.schema.json`, byte-identical for the same input, with every
//! control or bidi character in it written as a `\uXXXX` escape.

use serde::Serialize;

use super::{FactEntry, Report, SnapshotRef};

/// The report schema, as published in `schemas/`.
pub const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// The schema of `recount facts --format json`.
pub const FACTS_SCHEMA: &str = include_str!("../../schemas/facts.schema.json");
/// The schema of `recount cites --format json`.
pub const CITES_SCHEMA: &str = include_str!("../../schemas/cites.schema.json");

/// The version of the `facts` and `cites` documents' shape.
pub const LISTING_VERSION: u32 = 1;

/// `recount facts --format json`: the facts table as a document.
#[derive(Debug, Serialize)]
pub struct FactsDocument<'a> {
    pub schema_version: u32,
    pub recount_version: &'static str,
    pub snapshot: &'a SnapshotRef,
    pub facts: &'a [FactEntry],
}

impl<'a> FactsDocument<'a> {
    pub fn of(report: &'a Report) -> Self {
        FactsDocument {
            schema_version: LISTING_VERSION,
            recount_version: env!("CARGO_PKG_VERSION"),
            snapshot: &report.snapshot,
            facts: &report.facts,
        }
    }
}

/// `recount cites --format json`: every citation as a document.
#[derive(Debug, Serialize)]
pub struct CitesDocument {
    pub schema_version: u32,
    pub recount_version: &'static str,
    pub snapshot: SnapshotRef,
    pub citations: Vec<serde_json::Value>,
}

pub fn render(report: &Report) -> String {
    let mut text = super::escape::json_pretty(report)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the report: {e}\"}}"));
    text.push('\n');
    text
}
