//! Stage 4 of the pipeline (checks), the citation family: the test, line and
//! path citations records make. `cfg` is the `[cites]` table and its resolved
//! form, `find` reads a record's text for citations,
//! `testdefs` reads test definitions from source files, `gather` resolves every
//! citation against its frame into data, and one file per check id turns that
//! data into findings.

pub mod anchors;
pub mod cfg;
pub mod evidence;
pub mod exemptions;
pub mod find;
pub mod gather;
pub mod hosted;
pub mod labels;
pub mod pyobjects;
pub mod releases;
pub mod scope;
pub mod stale_line_cite;
pub mod stale_path_cite;
pub mod stale_test_cite;
pub mod testdefs;

pub use gather::{CiteClass, CiteStatus, MAX_RECORD_BYTES, ResolvedCite, Tier, read_record};

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::Audit;

/// Findings for the stale citations of one kind (`test`, `line`, `path`).
fn cite_findings(audit: &Audit, kind: CiteClass, check: CheckId) -> Vec<Finding> {
    audit
        .families
        .cites
        .iter()
        .filter(|c| c.kind == kind)
        .filter_map(|c| {
            let CiteStatus::Stale { why, suggestion } = &c.status else {
                return None;
            };
            let mut message = format!("`{}`: {why}", c.text);
            if let Some(s) = suggestion {
                message.push_str(&format!("; did you mean `{s}`?"));
            }
            // Reading a backticked word as a path is a guess; an explicit
            // citation is not.
            let severity = match c.tier {
                Tier::Explicit => check.severity(),
                Tier::Inferred => Severity::Warning.min(check.severity()),
            };
            Some(Finding {
                check,
                severity,
                location: Location::in_record(audit, &c.record, c.span.clone()),
                fact: None,
                message,
                stated: Some(c.text.clone()),
                observed: suggestion.clone(),
                recipe: None,
                rule: None,
                diff: None,
                tier: Some(c.tier),
            })
        })
        .collect()
}
