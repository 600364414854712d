//! recount recomputes the facts a repository's records state and reports where the
//! prose and the tree disagree.
//!
//! The pipeline: rule files (`rules`) name facts and are resolved into a plan; a
//! `snapshot` — the working tree or a commit's tree read straight from git — is
//! where each fact is measured, at the frame its rule names (`frames` reads each
//! once); `records` parses each
//! record once; `constants` reads named values from source code; `facts` recomputes
//! each fact; `claims` finds where records state them; `checks` compares the two and
//! produces findings as data (check families gather their own inputs); `audit` is
//! the engine that runs the stages; `range` keeps, for `check --since`, what a range
//! of commits made wrong, with its cause; `report` renders the findings; `fix` turns
//! the edits the findings prove into a diff or writes them into the records. Only `cli`
//! prints.
//!
//! [`validation`] is the shared validation core, and depends on nothing else here:
//! built with `--no-default-features` (no `cli` feature), the library is that core
//! alone, without git2, tree-sitter or the CLI stack.

// `Err` is the could-not-run path, taken at most once per process and carrying the
// whole located diagnostic; boxing it would buy nothing measurable.
#![allow(clippy::result_large_err)]

// The modules of the audit pipeline and the CLI, all behind the `cli` feature. Plain
// lines, not a macro: rustfmt visits only modules it can see declared.
#[cfg(feature = "cli")]
pub mod audit;
#[cfg(feature = "cli")]
pub mod checks;
#[cfg(feature = "cli")]
pub mod claims;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod constants;
#[cfg(feature = "cli")]
pub mod error;
#[cfg(feature = "cli")]
pub mod escape;
#[cfg(feature = "cli")]
pub mod facts;
#[cfg(feature = "cli")]
pub mod fix;
#[cfg(feature = "cli")]
pub mod fixture;
#[cfg(feature = "cli")]
pub mod frames;
#[cfg(feature = "cli")]
pub mod fuzzing;
#[cfg(feature = "cli")]
pub mod history;
#[cfg(feature = "cli")]
pub mod init;
#[cfg(feature = "cli")]
pub mod limits;
#[cfg(feature = "cli")]
pub mod lines;
#[cfg(feature = "cli")]
pub mod local_file;
#[cfg(feature = "cli")]
pub mod number;
#[cfg(feature = "cli")]
pub mod pathspec;
#[cfg(feature = "cli")]
pub mod range;
#[cfg(feature = "cli")]
pub mod records;
#[cfg(feature = "cli")]
pub mod report;
#[cfg(feature = "cli")]
pub mod rules;
pub mod scope;
#[cfg(feature = "cli")]
pub mod snapshot;
#[cfg(feature = "cli")]
pub mod source;
#[cfg(feature = "cli")]
pub mod spelling;

pub mod validation;

/// Audits a repository: the whole pipeline, from rule files to the report.
#[cfg(feature = "cli")]
pub fn check(options: &audit::AuditOptions) -> error::Result<report::Report> {
    let audit = audit::run(options)?;
    let mut checked = checks::run_all(&audit);
    if let Some(scope) = &options.judged_records {
        // A scoped run reports its records' findings alone (a finding on
        // the rule file, or a record outside, is another run's).
        checked
            .findings
            .retain(|f| scope.contains(&f.location.path));
    }
    let report = report::Report::new(&audit, checked.findings).with_suppressed(checked.suppressed);
    // Every record read and parsed, freed while the report is written.
    audit::drop_elsewhere(audit);
    Ok(report)
}
