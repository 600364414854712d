//! Stage 4 of the pipeline: checks. Each check reads the audited facts and the
//! records' claims (never the repository) and returns findings as data. One file
//! per check; [`CheckId`] is the registry, and each check's doc comment has the
//! fixed sections `recount explain ID` prints.

pub mod claim_not_found;
pub mod equals_mismatch;
pub mod fact_drift;
pub mod frame_unreachable;
pub mod retired_claim;
pub mod stale_line_cite;
pub mod stale_path_cite;
pub mod stale_pin;
pub mod stale_test_cite;
pub mod unpinned_bound;

use serde::Serialize;

use crate::audit::Audit;
use crate::facts::Recipe;

/// Every check recount runs. Exhaustive on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckId {
    FactDrift,
    ClaimNotFound,
    EqualsMismatch,
    FrameUnreachable,
    StaleTestCite,
    StaleLineCite,
    StalePathCite,
    RetiredClaim,
    UnpinnedBound,
    StalePin,
}

impl CheckId {
    pub const ALL: [CheckId; 10] = [
        CheckId::FactDrift,
        CheckId::ClaimNotFound,
        CheckId::EqualsMismatch,
        CheckId::FrameUnreachable,
        CheckId::StaleTestCite,
        CheckId::StaleLineCite,
        CheckId::StalePathCite,
        CheckId::RetiredClaim,
        CheckId::UnpinnedBound,
        CheckId::StalePin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CheckId::FactDrift => "fact-drift",
            CheckId::ClaimNotFound => "claim-not-found",
            CheckId::EqualsMismatch => "equals-mismatch",
            CheckId::FrameUnreachable => "frame-unreachable",
            CheckId::StaleTestCite => "stale-test-cite",
            CheckId::StaleLineCite => "stale-line-cite",
            CheckId::StalePathCite => "stale-path-cite",
            CheckId::RetiredClaim => "retired-claim",
            CheckId::UnpinnedBound => "unpinned-bound",
            CheckId::StalePin => "stale-pin",
        }
    }

    pub fn from_name(name: &str) -> Option<CheckId> {
        CheckId::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// The check's documentation: What it checks / Why / Example / How to fix.
    pub fn explain(self) -> &'static str {
        match self {
            CheckId::FactDrift => fact_drift::EXPLAIN,
            CheckId::ClaimNotFound => claim_not_found::EXPLAIN,
            CheckId::EqualsMismatch => equals_mismatch::EXPLAIN,
            CheckId::FrameUnreachable => frame_unreachable::EXPLAIN,
            CheckId::StaleTestCite => stale_test_cite::EXPLAIN,
            CheckId::StaleLineCite => stale_line_cite::EXPLAIN,
            CheckId::StalePathCite => stale_path_cite::EXPLAIN,
            CheckId::RetiredClaim => retired_claim::EXPLAIN,
            CheckId::UnpinnedBound => unpinned_bound::EXPLAIN,
            CheckId::StalePin => stale_pin::EXPLAIN,
        }
    }

    fn run(self, audit: &Audit) -> Vec<Finding> {
        match self {
            CheckId::FactDrift => fact_drift::run(audit),
            CheckId::ClaimNotFound => claim_not_found::run(audit),
            CheckId::EqualsMismatch => equals_mismatch::run(audit),
            CheckId::FrameUnreachable => frame_unreachable::run(audit),
            CheckId::StaleTestCite => stale_test_cite::run(audit),
            CheckId::StaleLineCite => stale_line_cite::run(audit),
            CheckId::StalePathCite => stale_path_cite::run(audit),
            CheckId::RetiredClaim => retired_claim::run(audit),
            CheckId::UnpinnedBound => unpinned_bound::run(audit),
            CheckId::StalePin => stale_pin::run(audit),
        }
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a finding matters; the run fails on findings at or above `--fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// Where a finding is: a file, and the exact bytes in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// Byte offset and length of the span in the file.
    pub offset: usize,
    pub length: usize,
    /// The commit the file was read at (absent for the working tree and rule files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// One disagreement between a record and the tree.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub check: CheckId,
    pub severity: Severity,
    pub location: Location,
    /// The fact the finding is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stated: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
    /// The rule that asked for the check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Location>,
}

/// Runs every check and returns the findings sorted by (path, line, column, check).
pub fn run_all(audit: &Audit) -> Vec<Finding> {
    let mut findings: Vec<Finding> = CheckId::ALL.iter().flat_map(|c| c.run(audit)).collect();
    findings.sort_by(|a, b| {
        (
            &a.location.path,
            a.location.line,
            a.location.column,
            a.check,
            &a.message,
        )
            .cmp(&(
                &b.location.path,
                b.location.line,
                b.location.column,
                b.check,
                &b.message,
            ))
    });
    findings
}

impl Location {
    /// A span of a record of the audited snapshot.
    pub fn in_record(audit: &Audit, path: &str, span: std::ops::Range<usize>) -> Location {
        let (line, column) = match audit.record(path) {
            Some(record) => record.line_col(span.start),
            None => audit.text(path).map_or((1, 1), |text| {
                crate::records::lines::LineIndex::new(text).line_col(text, span.start)
            }),
        };
        Location {
            path: path.to_owned(),
            line,
            column,
            offset: span.start,
            length: span.end.saturating_sub(span.start),
            commit: audit.commit.clone(),
        }
    }

    /// A span of a rule file.
    pub fn in_rule(audit: &Audit, origin: usize, span: std::ops::Range<usize>) -> Location {
        let (line, column) = audit
            .sources
            .get(origin)
            .map_or((1, 1), |s| s.line_col(span.start));
        Location {
            path: audit.source_paths.get(origin).cloned().unwrap_or_default(),
            line,
            column,
            offset: span.start,
            length: span.end.saturating_sub(span.start),
            commit: None,
        }
    }
}

/// Findings for the stale citations of one kind (`test`, `line`, `path`).
fn cite_findings(audit: &Audit, kind: &str, check: CheckId) -> Vec<Finding> {
    audit
        .cites
        .iter()
        .filter(|c| c.kind == kind)
        .filter_map(|c| {
            let crate::audit::CiteStatus::Stale { why, suggestion } = &c.status else {
                return None;
            };
            let mut message = format!("`{}`: {why}", c.text);
            if let Some(s) = suggestion {
                message.push_str(&format!("; did you mean `{s}`?"));
            }
            Some(Finding {
                check,
                severity: Severity::Error,
                location: Location::in_record(audit, &c.record, c.span.clone()),
                fact: None,
                message,
                stated: Some(c.text.clone()),
                observed: suggestion.clone(),
                recipe: None,
                rule: None,
            })
        })
        .collect()
}
