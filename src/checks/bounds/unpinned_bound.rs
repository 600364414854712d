//! Check `unpinned-bound`: a schema bound that no rule pins to a code constant.

use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Location, Severity};

const EXPLAIN: &str = "\
unpinned-bound: a schema bound is pinned to no constant

What it checks
  Over the schemas a `[[bounds]]` entry names (and, with `follow_refs`, the schemas
  they reference), every occurrence of a bound keyword (`maxLength` by default;
  `maxItems`, `maximum`, ... when configured) must have a pin in the rule file that
  names the code constant it transcribes.

Why
  A bound copied by hand from a constant drifts from it in whichever direction
  nothing checks: above the constant the schema promises what the code refuses,
  below it the schema refuses what the code would serve. A new bound with no pin is
  a copy nothing will ever compare.

Example
  A `title` field is added to an input schema with `\"maxLength\": 256`, and no pin:
  unpinned-bound at the 256.

How to fix
  Add a pin: { bound = \"schemas/x.schema.json#/properties/title/maxLength\",
  constant = \"MAX_TITLE_CHARS\" }, defining the constant if the code has none.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — a schema bound no constant pins is a fact the tree states and nothing checks.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "pinned to no constant".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    for outcome in &audit.families.bounds {
        for bound in &outcome.unpinned {
            let mut location = Location::in_record(audit, &bound.path, bound.span.clone());
            location.line = bound.line;
            location.column = bound.column;
            findings.push(Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::UnpinnedBound,
                severity: SEVERITY,
                location,
                fact: None,
                message: format!(
                    "{}#{} = {} is pinned to no constant",
                    bound.path, bound.pointer, bound.text
                ),
                stated: Some(bound.text.clone()),
                observed: None,
                recipe: None,
                rule: None,
                diff: None,
                tier: None,
                label: None,
            });
        }
    }
    findings
}
