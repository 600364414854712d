//! The shape of a rule file, as serde types. Every field here is documented in
//! `schemas/rules.schema.json` too; a test holds the two to the same set of keys.
//! Spans are kept on every value a diagnostic may have to point at.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

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
    pub cites: Option<CitesRule>,
    /// Retired claims: phrases that may only reappear with an attribution.
    #[serde(default)]
    pub retired: Vec<RetiredRule>,
    /// JSON Schema bounds that must be pinned to code constants.
    #[serde(default)]
    pub bounds: Vec<BoundsRule>,
}

/// The `[cites]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CitesRule {
    /// Whether the citation checks run at all.
    pub enabled: Option<bool>,
    /// Record globs whose citations are checked (default: every `*.md`).
    pub records: Option<Vec<Spanned<String>>>,
    /// Folders a cited path may be relative to (`tests/unit/x.py` for `packages/core/tests/unit/x.py`).
    #[serde(default)]
    pub test_roots: Vec<Spanned<String>>,
    /// Languages whose test definitions are read: `python`, `rust`.
    pub languages: Option<Vec<Spanned<String>>>,
    /// Phrases that mark a cite as history ("renamed from"): such a cite is not stale.
    pub history: Option<Vec<String>>,
    /// Also read bare Rust paths like `module::tests::name` as test cites.
    pub rust_module_paths: Option<bool>,
    /// A regex with a `sha` group that marks the rest of a record's section as
    /// measured at that commit.
    pub frame_pattern: Option<Spanned<String>>,
    /// What a cited line must contain.
    #[serde(default)]
    pub expect: Vec<LineExpectation>,
}

/// `[[cites.expect]]`: the literal a cited line must hold.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineExpectation {
    /// The cite as records write it: `path:LINE` or `path:START-END`.
    pub cite: Spanned<String>,
    /// The text the cited line (or one of the cited lines) must contain.
    pub contains: Spanned<String>,
}

/// `[[retired]]`: a retired claim.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetiredRule {
    pub id: Spanned<String>,
    /// A verbatim phrase or figure (case and whitespace insensitive).
    pub phrase: Option<Spanned<String>>,
    /// With `phrasing`: a regex for what the claim is about.
    pub subject: Option<Spanned<String>>,
    /// With `subject`: a regex for how the retired claim phrases it.
    pub phrasing: Option<Spanned<String>>,
    /// Most characters between subject and phrasing.
    pub within: Option<usize>,
    /// Files the register applies to (records, and source files where asked).
    #[serde(rename = "in")]
    pub files: Spanned<OneOrMany>,
    /// A regex that marks an occurrence as retired ("earlier draft", "withdrawn").
    pub attribution: Spanned<String>,
    /// Most characters between an occurrence and its attribution.
    pub reach: Option<usize>,
}

/// `[[bounds]]`: schema bounds and the constants that pin them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundsRule {
    /// Glob of JSON Schemas to scan.
    pub schemas: Spanned<String>,
    /// Also scan the schemas these reference through local `$ref`s.
    #[serde(default)]
    pub follow_refs: bool,
    /// Keywords that are bounds (default: maxLength).
    pub keywords: Option<Vec<Spanned<String>>>,
    /// Each bound and the constant it transcribes.
    #[serde(default)]
    pub pins: Vec<Pin>,
}

/// One pinned bound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    /// `file#/json/pointer` of the keyword.
    pub bound: Spanned<String>,
    /// The constant the bound must equal.
    pub constant: Spanned<String>,
    /// The source file of the constant (default: the [constants] table, or a search).
    pub file: Option<Spanned<String>>,
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

/// One `[[fact]]`: exactly one kind key (`files`, `grep`, `count`, `constant`,
/// `expr`, `entries`, `json`, `validate`) plus that kind's parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactRule {
    pub id: Spanned<String>,
    pub description: Option<String>,
    /// The frame: a revision the fact is measured at.
    pub at: Option<Spanned<String>>,
    /// An expression the fact's value must equal (in the same frame).
    pub equals: Option<Spanned<String>>,

    pub files: Option<Spanned<String>>,
    pub grep: Option<Spanned<String>>,
    pub count: Option<Spanned<String>>,
    pub constant: Option<Spanned<String>>,
    pub expr: Option<Spanned<String>>,
    pub entries: Option<Spanned<String>>,
    pub json: Option<Spanned<String>>,
    pub validate: Option<Spanned<String>>,

    pub file: Option<Spanned<String>>,
    #[serde(default)]
    pub paths: Vec<Spanned<String>>,
    #[serde(default)]
    pub exclude: Vec<Spanned<String>>,
    #[serde(default)]
    pub regex: bool,
    #[serde(default)]
    pub ignore_case: bool,
    pub pointer: Option<Spanned<String>>,
    pub keyword: Option<Spanned<String>>,
    pub within: Option<Spanned<String>>,
    pub schemas: Option<Spanned<String>>,
    pub document: Option<Spanned<String>>,

    #[serde(default)]
    pub claims: Vec<ClaimRule>,
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

/// A string or a list of strings.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

/// The part of a fact a claim states.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// The fact's number (a count, a constant, an expression's value).
    #[default]
    Value,
    /// The fact's line span (`779-788`): `entries` and `constant` facts.
    Lines,
}
