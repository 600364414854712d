//! Check `stale-test-cite`: a record cites a test that does not exist.

use super::findings::cite_findings;
use super::model::CiteClass;
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Severity};

const EXPLAIN: &str = "\
stale-test-cite: a record cites a test that no longer exists

What it checks
  Test citations in records: pytest node ids (`tests/unit/test_x.py::test_name`,
  `path::Class::test_name`, `path::TestClass`, `::test_name[param]`), module ids
  written without `.py` (`test_cli::test_x`), the `::test_name` shorthand for the
  test file cited last, elided prefixes (`.../test_x.py::name`), paths relative to
  a configured test root, and Rust tests (`tests/x.rs::name`, `module::tests::name`).
  A cite is stale when its file does not exist or defines no test, class or
  function of that name — a `def` or `async def` at module level or in the named
  class for Python, an `fn` with a test attribute for Rust — at the snapshot, or
  at the frame the record's section names (\"measured at 1a2b3c4d\"). A node id
  on a data file that a custom collector turns into tests is unverified, not
  stale, while the file exists. On a Python module pytest would not collect (not
  `test_*.py`, `*_test.py` or `conftest.py`, under no `tests/` folder),
  `module.py::name` names its code: a method or function of that name anywhere
  in the module resolves it.

Why
  Records cite tests as evidence. A renamed or deleted test leaves the record
  pointing at nothing, and the evidence silently stops existing.

Example
  The record cites `tests/unit/test_io.py::test_widest_body_this_transport_admits`;
  the test was renamed. recount reports the cite and asks: did you mean
  `test_widest_body_the_schema_tier_can_see`?

How to fix
  Cite the test by its new name. When the record means the old name on purpose,
  say so (\"renamed from ...\"): a cite marked as history is not checked.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — the cited file defines no test of that name.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match finding.observed.as_deref() {
        Some(s) => format!("did you mean `{s}`?"),
        None => "no such test".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    cite_findings(audit, CiteClass::Test, CheckId::StaleTestCite)
}
