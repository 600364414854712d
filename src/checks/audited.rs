//! Stage 4's input: the audited run — every fact computed at its frame, its
//! claims located in the records, and what each family of checks gathered for
//! itself — which every check reads and none writes. The engine (`crate::audit`)
//! builds it; nothing here reads the repository.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use super::families::Families;
use super::suppress::RecordSuppression;
use super::{CheckId, Level};
use crate::claims::Field;
use crate::claims::{ListingAt, Record, StatedAt};
use crate::facts::{Computed, Recipe};
use crate::frames::FrameUse;
use crate::number::Number;
use crate::snapshot::{Day, FrameFailure};
use crate::source::RuleSource;

/// A fact after computing it, with its claims found in the records.
#[derive(Debug)]
pub struct AuditedFact {
    pub id: String,
    pub description: Option<String>,
    pub origin: usize,
    pub id_span: Range<usize>,
    pub kind: &'static str,
    pub frame: String,
    /// The rule names a frame of its own (`at`): the fact is a measurement
    /// of that commit, even when it is the commit audited.
    pub framed: bool,
    pub commit: Option<String>,
    pub computed: Computed,
    pub equals: Option<EqualsOutcome>,
    pub claims: Vec<AuditedClaim>,
}

/// A fact that was not computed: its frame does not resolve, an input is
/// missing at its frame, or it reads such a fact. Its claims are found but not
/// compared; it counts as neither passed nor drifted.
#[derive(Debug)]
pub struct UnverifiedFact {
    pub id: String,
    pub description: Option<String>,
    pub origin: usize,
    pub id_span: Range<usize>,
    pub kind: &'static str,
    /// The frame as written (a revision or a day), or the label of the commit
    /// it resolved to.
    pub frame: String,
    pub commit: Option<String>,
    pub why: Unverified,
    pub claims: Vec<AuditedClaim>,
}

impl UnverifiedFact {
    /// Places in records where the fact is stated (matches and listing blocks).
    pub fn stated_places(&self) -> usize {
        self.claims
            .iter()
            .flat_map(|c| &c.records)
            .map(|r| match r {
                ClaimInRecord::Stated { matches, .. } => matches.len(),
                ClaimInRecord::Listing { block, .. } => usize::from(block.is_some()),
            })
            .sum()
    }
}

/// Why a fact is unverified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unverified {
    /// Its frame names no commit this clone can read.
    Frame { rev: String, failure: FrameFailure },
    /// A file it reads is missing (or not text) at its frame.
    Input { path: String, why: String },
    /// It reads a fact that is unverified.
    Fact { id: String },
    /// Computing it failed at this commit (a constant not defined yet): the
    /// history records that; an audit stops on the error instead.
    Failed { why: String },
}

impl Unverified {
    /// One line for the facts table and the JSON report.
    pub fn reason(&self) -> String {
        match self {
            Unverified::Frame { rev, failure } => {
                format!("the frame `{rev}` does not resolve ({})", failure.kind())
            }
            Unverified::Input { path, why } => format!("input {path} {why}"),
            Unverified::Fact { id } => format!("reads fact `{id}`, which is unverified"),
            Unverified::Failed { why } => format!("cannot be computed: {why}"),
        }
    }
}

/// The other side of an `equals` assertion.
#[derive(Debug, Clone)]
pub struct EqualsOutcome {
    pub text: String,
    pub span: Range<usize>,
    pub value: Number,
    pub recipe: Recipe,
}

/// A claim rule and what it matched.
#[derive(Debug)]
pub struct AuditedClaim {
    pub origin: usize,
    /// Span of the `says` / `listing` pattern in the rule file.
    pub span: Range<usize>,
    pub pattern: String,
    pub field: Field,
    pub globs: Vec<String>,
    pub records: Vec<ClaimInRecord>,
    /// Files the globs select that are not read as records, and why: a claim
    /// that finds no record says these were skipped rather than missing.
    pub skipped: Vec<(String, String)>,
}

/// What one claim found in one record.
#[derive(Debug)]
pub enum ClaimInRecord {
    Stated {
        path: String,
        matches: Vec<StatedAt>,
    },
    Listing {
        path: String,
        block: Option<ListingAt>,
    },
}

impl ClaimInRecord {
    pub fn path(&self) -> &str {
        match self {
            ClaimInRecord::Stated { path, .. } | ClaimInRecord::Listing { path, .. } => path,
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            ClaimInRecord::Stated { matches, .. } => matches.is_empty(),
            ClaimInRecord::Listing { block, .. } => block.is_none(),
        }
    }
}

/// Everything the checks read.
#[derive(Debug)]
pub struct Audit {
    pub snapshot_label: String,
    pub commit: Option<String>,
    pub sources: Vec<RuleSource>,
    /// Rule-file names relative to the repository root where they are inside it.
    pub source_paths: Vec<String>,
    /// Every record the run read (for claims, citations or retired claims),
    /// each parsed once.
    pub records: BTreeMap<String, Arc<Record>>,
    pub facts: Vec<AuditedFact>,
    /// Facts that could not be computed (see [`Unverified`]), sorted by id.
    pub unverified: Vec<UnverifiedFact>,
    /// Every frame named by a rule or a record.
    pub frames: Vec<FrameUse>,
    /// What each family of checks gathered for itself (citations, retired
    /// claims, bounds, transcripts, unmatched rule entries).
    pub families: Families,
    /// Texts of other files findings point into (records read for citations,
    /// schemas, sources), by path.
    pub files: BTreeMap<String, Arc<str>>,
    pub notes: Vec<String>,
    /// Every suppression directive in the records, in path order.
    pub suppressions: Vec<RecordSuppression>,
    /// The day (UTC) suppressions expire against.
    pub today: Day,
    /// `[checks]` levels by check id; a check not listed keeps its default.
    pub levels: BTreeMap<CheckId, Level>,
    /// The rule files' `[[ignore]]` entries.
    pub ignores: Vec<crate::checks::ignores::IgnorePlan>,
}

impl Audit {
    /// Whether the rule files leave `check` on.
    pub fn runs(&self, check: CheckId) -> bool {
        self.levels.get(&check) != Some(&Level::Off)
    }

    pub fn record(&self, path: &str) -> Option<&Record> {
        self.records.get(path).map(Arc::as_ref)
    }

    /// The text of a file a finding may point into.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.records
            .get(path)
            .map(|r| &*r.text)
            .or_else(|| self.files.get(path).map(|t| &**t))
    }
}
