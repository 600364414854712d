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
  a symlink or submodule is a path that exists, and a link to `x`, `x/` or
  `x.html` finds the page a documentation site renders from `x.md`. A link's
  `#heading` must be a heading (GitHub's slug, or any site's spelling of it) or
  an `id` of the page it names, in-page `#anchors` included; `#L10-L20` on a
  source file is a line cite (stale-line-cite).
  A backticked path that names nothing is reported when it is plausibly this
  repository's — its folder is one of the tree's and a file has an extension —
  or when the history behind the snapshot had it (a folder, `internal/state/`, is
  reported only then). Skipped instead, and listed by `recount cites` with the
  reason: what a `.gitignore` (the root's or a folder's) ignores, a file inside a
  folder kept empty with `.gitkeep`, a reader's file (`requirements.txt`, a
  sentence with \"your\" or \"for example\"), a placeholder (`file.py`,
  `0.MINOR.x.md`), another root (`~/.config`, a sibling book), `owner/repo`,
  `pkg/client.AppClient`, a rustdoc link, and an extensionless link the history
  never had (a site's route). In a changelog the newest release is read at its
  tag, earlier releases are history, and an entry that removes or renames a path
  is not held to it. When the history removed the path, the finding says what
  became of it (\"renamed to `tools/schemas.sh` in 1a2b3c4d\", \"deleted in
  1a2b3c4d\").

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
pub fn label(finding: &Finding) -> String {
    // `a.md#heading` whose page is there but whose heading is not.
    if finding.message.contains("no heading or anchor") {
        "no such anchor".to_owned()
    } else {
        "no such path".to_owned()
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, "path", CheckId::StalePathCite)
}
