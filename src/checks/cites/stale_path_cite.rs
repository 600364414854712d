//! Check `stale-path-cite`: a record names a repository path in backticks that
//! does not exist.

use super::cite_findings;
use crate::audit::Audit;
use crate::checks::{CheckId, Finding, Severity};

pub const EXPLAIN: &str = "\
stale-path-cite: a record names a path that does not exist

What it checks
  Relative Markdown link targets (`[guide](../docs/guide.md#setup)`) and backticked
  repository paths (`docs/roadmap.md`, `schemas/mcp/`). A path is read as a reader
  would: from the record's own folder, then the repository root, then a configured
  test root, or — for a bare file name — anywhere; `./` and `../` are normalised,
  and a symlink or submodule is a path that exists. A backticked path that names
  nothing is reported only when it is plausibly this repository's: its folder is
  one of the tree's and a file has an extension, and `.gitignore` does not ignore
  it. A reader's file (`requirements.txt`), a build's output (`target/debug`),
  another root (`~/.config`, a sibling book), `owner/repo` or a rustdoc link is
  skipped instead — `recount cites` lists it with the reason. When the history
  behind the snapshot removed the path, the finding says what became of it
  (\"renamed to `tools/schemas.sh` in 1a2b3c4d\", \"deleted in 1a2b3c4d\").

Why
  A record that points readers at a moved or deleted file sends them nowhere, and
  usually means the prose around it is out of date too.

Example
  The record says the schemas are checked by `tools/check_schemas.sh`; the script
  was renamed to `tools/schemas.sh`: stale-path-cite at the backticked path.

How to fix
  Name the path as it is now, or remove the sentence if the thing is gone.
";

/// Default severity: an error for a link target that names nothing (an
/// explicit citation); a backticked path is read as a path heuristically, so
/// its findings, the inferred tier, are warnings.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "no such path".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, "path", CheckId::StalePathCite)
}
