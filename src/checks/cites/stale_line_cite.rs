//! Check `stale-line-cite`: a record cites lines of a file that no longer has
//! them, or whose cited line no longer holds what the rule says it holds.

use super::findings::cite_findings;
use super::model::CiteClass;
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Severity};

const EXPLAIN: &str = "\
stale-line-cite: a record cites a line that is not there any more

What it checks
  `path:LINE`, `path:START-END` and `path#LSTART-LEND` cites in records (and
  `:LINE` after a file was cited): the file must exist at the snapshot (or the
  record section's frame) and have those lines. With no rule, the history decides
  the rest: the commit that wrote the cite into the record is found (the oldest of
  the unbroken run of commits whose record holds its text, the record followed
  through renames), and the cited lines as the file had them there are mapped
  through the diff to the audited tree. Lines that moved are stale with their new
  numbers as the suggestion; lines that changed or went are stale; each names the
  commit that did it. A cite not committed yet is judged by the tree alone. With
  `[[cites.expect]]` in the rules, the cited line must contain a given text; when
  it moved, recount names the line it moved to.

Why
  Line numbers are the most fragile evidence a record can cite: any edit above the
  line moves it, and the record keeps pointing at whatever slid into its place.

Example
  [[cites.expect]]
  cite = \"src/daemon/server.py:11\"
  contains = \"MAX_REQUEST_BODY_BYTES\"
  Two lines are added above the constant: the cite is stale, and the finding says
  it moved to line 13.

  With no rule: `reader.go:313` was cited when line 313 opened `Next`; a licence
  header added since moved it to 316, and the finding says it is \"now at line
  316: moved in\" the commit that added the header.

How to fix
  Update the line number, or anchor the cite to a frame (\"measured at ...\") if
  the record means the file as it was.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: a warning — line numbers are read from prose, and a cited line moves with every edit above it.
pub const SEVERITY: Severity = Severity::Warning;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match finding.observed.as_deref() {
        Some(s) => format!("now at `{s}`"),
        None => "not there".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, CiteClass::Line, CheckId::StaleLineCite)
}
