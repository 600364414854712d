//! Check `stale-path-cite`: a record names a repository path in backticks that
//! does not exist.

use super::cite_findings;
use crate::audit::Audit;
use crate::checks::{CheckId, Finding, Severity};

pub const EXPLAIN: &str = "\
stale-path-cite: a record names a path that does not exist

What it checks
  Backticked repository paths in records (`docs/roadmap.md`, `schemas/mcp/`): the
  file or folder must exist at the snapshot (or the record section's frame), as
  written, under a configured test root, or — for a bare file name — anywhere.

Why
  A record that points readers at a moved or deleted file sends them nowhere, and
  usually means the prose around it is out of date too.

Example
  The record says the schemas are checked by `tools/check_schemas.sh`; the script
  was renamed to `tools/schemas.sh`: stale-path-cite at the backticked path.

How to fix
  Name the path as it is now, or remove the sentence if the thing is gone.
";

/// Default severity: a warning — which backticked words are paths is read from prose heuristically.
pub const SEVERITY: Severity = Severity::Warning;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "no such path".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, "path", CheckId::StalePathCite)
}
