//! The shape of a rule file, as serde types. Every field here is documented in
//! `schemas/rules.schema.json` too; a test holds the two to the same set of keys.
//! Spans are kept on every value a diagnostic may have to point at.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

pub use crate::claims::Field;
pub use crate::source::OneOrMany;

/// One rule file (`recount.toml` or a pack).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    /// Settings that apply to the whole run.
    #[serde(default)]
    pub recount: Settings,
    /// Named constants and the source file each is read from.
    #[serde(default)]
    pub constants: BTreeMap<String, Spanned<ConstantRule>>,
    /// The facts to recompute, each with the claims that state it.
    #[serde(default)]
    pub fact: Vec<FactRule>,
    /// How test, line and path citations in records are checked.
    pub cites: Option<crate::checks::cites::cfg::CitesRule>,
    /// Retired claims: phrases that may only reappear with an attribution.
    #[serde(default)]
    pub retired: Vec<crate::checks::retired::cfg::RetiredRule>,
    /// JSON Schema bounds that must be pinned to code constants.
    #[serde(default)]
    pub bounds: Vec<crate::checks::bounds::cfg::BoundsRule>,
    /// Per-check severities (`error`, `warning`) or `off`, by check id.
    #[serde(default)]
    pub checks: BTreeMap<Spanned<String>, Spanned<crate::checks::Level>>,
    /// Paths whose findings are not acted on, with the reason.
    #[serde(default)]
    pub ignore: Vec<Spanned<crate::checks::ignores::IgnoreRule>>,
}

/// The `[recount]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Other rule files (paths relative to this file) or shipped packs (by id).
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
    /// Record globs a claim uses when it names no `in` of its own.
    #[serde(default)]
    pub records: Vec<Spanned<String>>,
    /// The main line: every frame must be an ancestor of it.
    pub main: Option<Spanned<String>>,
    /// Whether the records' transcripts are re-run (default: true).
    pub transcripts: Option<bool>,
    /// The repository's own hosted address.
    pub url: Option<Spanned<String>>,
}

/// Where a constant is defined.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstantRule {
    /// Repository-relative source file that defines the constant.
    pub file: Spanned<String>,
    /// The name in the source, when the rule uses another name for it.
    pub name: Option<Spanned<String>>,
}

/// One `[[fact]]`: the keys every kind shares. The kind key (`files`, `grep`,
/// ...) and that kind's parameters are deserialised by the kind itself into its
/// own typed struct ([`crate::facts::FactParams`]), which refuses the keys the
/// kind does not take.
#[derive(Debug, Deserialize)]
pub struct FactRule {
    pub id: Spanned<String>,
    pub description: Option<String>,
    /// The frame: a revision the fact is measured at, or a date (the last
    /// commit of the main line at or before the end of that day, UTC).
    pub at: Option<Spanned<AtRule>>,
    /// An expression the fact's value must equal (in the same frame).
    pub equals: Option<Spanned<String>>,
    #[serde(default)]
    pub claims: Vec<ClaimRule>,
    /// The kind key and its parameters, read by the kind.
    #[serde(flatten)]
    pub kind_keys: BTreeMap<String, serde::de::IgnoredAny>,
}

impl FactRule {
    /// The keys every kind shares; every other key belongs to the kind.
    pub const SHARED_KEYS: [&'static str; 5] = ["id", "description", "at", "equals", "claims"];
}

/// A fact's frame as a rule file writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum AtRule {
    /// `at = "be977ea7"`: a revision (sha, branch, tag, `HEAD~3`).
    Rev(String),
    /// `at = { date = "2026-09-13" }`: the last commit of the first-parent main
    /// line (`[recount].main`, else HEAD) at or before the end of that day, UTC.
    Date(DateAt),
}

/// `{ date = "YYYY-MM-DD" }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DateAt {
    pub date: String,
}

/// One place records state a fact.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRule {
    /// Record glob(s); defaults to `[recount].records`.
    #[serde(rename = "in", default)]
    pub records: Option<Spanned<OneOrMany>>,
    /// A regex with a named group `value`, matched on the record's prose view.
    pub says: Option<Spanned<String>>,
    /// A regex that finds a fenced block whose lines are the fact's listing.
    pub listing: Option<Spanned<String>>,
    /// Which part of the fact the claim states.
    #[serde(default)]
    pub field: Field,
}
