//! recount recomputes the facts a repository's records state and reports where the
//! prose and the tree disagree.
//!
//! The pipeline: rule files (`rules`) name facts; a [`snapshot`] — the working tree
//! or a commit's tree read straight from git — is where each fact is measured, at the
//! frame its rule names; `constants` reads named values from source code; `facts`
//! recomputes each fact; `claims` finds where records state them; `checks` compares
//! the two and produces findings as data; `report` renders them. Only `cli` prints.

// `Err` is the could-not-run path, taken at most once per process and carrying the
// whole located diagnostic; boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

pub mod audit;
pub mod checks;
pub mod claims;
pub mod cli;
pub mod constants;
pub mod error;
pub mod facts;
pub mod fixture;
pub mod number;
pub mod records;
pub mod report;
pub mod rules;
pub mod snapshot;

pub mod validation;

/// Audits a repository: the whole pipeline, from rule files to the report.
pub fn check(options: &audit::AuditOptions) -> error::Result<report::Report> {
    let audit = audit::run(options)?;
    let findings = checks::run_all(&audit);
    Ok(report::Report::new(&audit, findings))
}
