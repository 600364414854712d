//! After the checks: suppressions. The records' directives are
//! gathered with the records (a bad one stops the run, located, like a bad
//! rule file), and once every check has run, each finding in a block a live
//! directive covers, of a check it names, is moved from the findings to the
//! suppressed list. A directive that silenced nothing becomes an
//! `unused-suppression` finding; an expired one silences nothing and is
//! reported by that check's `run`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use super::Audit;
use crate::checks::{CheckId, Finding, Location};
use crate::error::Result;
use crate::records::Record;
use crate::records::suppressions::{self, Directive};
use crate::snapshot::Day;

/// A directive and the record it is in.
#[derive(Debug, Clone)]
pub struct RecordSuppression {
    pub path: String,
    pub directive: Directive,
}

impl RecordSuppression {
    /// Whether `today` is past its `until` day.
    pub fn expired(&self, today: Day) -> bool {
        self.directive
            .until
            .as_ref()
            .is_some_and(|(day, _)| today > *day)
    }

    /// Whether it silences `finding`: same record, the finding starts inside
    /// the block it applies to, and its check is one it names.
    fn covers(&self, finding: &Finding) -> bool {
        finding.location.path == self.path
            && self
                .directive
                .block
                .as_ref()
                .is_some_and(|b| b.contains(&finding.location.offset))
            && self
                .directive
                .checks
                .iter()
                .any(|(id, _)| id == finding.check.as_str())
    }
}

/// A finding a directive or an `[[ignore]]` silenced: kept out of the findings
/// and the exit code, counted and listed in the report.
#[derive(Debug, Clone, Serialize)]
pub struct Suppressed {
    pub finding: Finding,
    /// The directive's (or the ignore's) reason.
    pub reason: String,
    /// Where the directive (or the `[[ignore]]` entry) is.
    pub directive: Location,
    /// A directive in the record (`in-source`) or a rule file's ignore
    /// (`external`): SARIF's suppression kinds.
    pub kind: SuppressionKind,
    /// The fingerprint the finding has when it is not suppressed, so a
    /// code-scanning tool can match it to the alert it closes (set by the
    /// report).
    pub fingerprint: String,
}

/// Where a suppression comes from, in SARIF's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SuppressionKind {
    InSource,
    External,
}

impl SuppressionKind {
    /// SARIF's `suppression.kind`.
    pub fn sarif(self) -> &'static str {
        match self {
            SuppressionKind::InSource => "inSource",
            SuppressionKind::External => "external",
        }
    }
}

/// Every directive of every record the run read, in path order. A malformed
/// directive (no reason, an unknown check id) is an error located in its record.
pub(crate) fn gather(records: &BTreeMap<String, Arc<Record>>) -> Result<Vec<RecordSuppression>> {
    let known: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
    let mut all = Vec::new();
    for (path, record) in records {
        // Most records have no directive: leave their structure unparsed.
        if !record.text.contains("recount:") {
            continue;
        }
        for directive in suppressions::directives(path, &record.text, record.markdown(), &known)? {
            all.push(RecordSuppression {
                path: path.clone(),
                directive,
            });
        }
    }
    Ok(all)
}

/// Splits `findings` into those that stand and those a live directive silences,
/// and adds an `unused-suppression` finding for each check id of a live
/// directive that silenced nothing.
pub fn apply(audit: &Audit, findings: Vec<Finding>) -> (Vec<Finding>, Vec<Suppressed>) {
    let live: Vec<&RecordSuppression> = audit
        .suppressions
        .iter()
        .filter(|s| !s.expired(audit.today))
        .collect();
    // (directive, check id) pairs that silenced something.
    let mut used = std::collections::BTreeSet::new();
    let mut kept = Vec::with_capacity(findings.len());
    let mut suppressed = Vec::new();
    for finding in findings {
        let Some((index, by)) = live.iter().enumerate().find(|(_, s)| s.covers(&finding)) else {
            kept.push(finding);
            continue;
        };
        used.insert((index, finding.check.as_str()));
        suppressed.push(Suppressed {
            reason: by.directive.reason.clone(),
            directive: Location::in_record(audit, &by.path, by.directive.comment.clone()),
            kind: SuppressionKind::InSource,
            fingerprint: String::new(),
            finding,
        });
    }
    if !audit.runs(CheckId::UnusedSuppression) {
        return (kept, suppressed);
    }
    // A check switched off finds nothing to silence: not the directive's fault.
    let on = |id: &str| CheckId::from_name(id).is_some_and(|c| audit.runs(c));
    for (index, s) in live.iter().enumerate() {
        for (id, span) in &s.directive.checks {
            if on(id) && !used.contains(&(index, id.as_str())) {
                kept.push(crate::checks::unused_suppression::unused(
                    audit,
                    s,
                    id,
                    span.clone(),
                ));
            }
        }
    }
    (kept, suppressed)
}
