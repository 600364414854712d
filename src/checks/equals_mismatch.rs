//! Check `equals-mismatch`: a fact and the expression its rule says it equals
//! disagree (a derived cap and the live constant that claims to be it).

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::Audit;
use crate::number::display;

const EXPLAIN: &str = "\
equals-mismatch: a fact differs from what its rule says it equals

What it checks
  A fact with `equals = EXPR` is computed, EXPR is evaluated in the same frame, and
  the two must be exactly equal.

Why
  Records derive figures (\"the body cap is 3 * MAX_SOURCE_FILE_BYTES + 1 MiB\") and
  code carries the result as its own constant. When one side moves, the derivation
  is false even if no sentence quotes the number.

Example
  [[fact]]
  id = \"body-cap\"
  expr = \"3 * MAX_SOURCE_FILE_BYTES + 1 MiB\"
  equals = \"MAX_REQUEST_BODY_BYTES\"
  MAX_SOURCE_FILE_BYTES grows to 9 MiB and MAX_REQUEST_BODY_BYTES stays: mismatch.

How to fix
  Change whichever side is wrong: the constant, or the derivation in the rule and
  the record that states it.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — two recomputed values disagree.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "does not equal the fact".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .facts
        .iter()
        .filter_map(|fact| {
            let eq = fact.equals.as_ref()?;
            (fact.computed.value.number() != Some(eq.value)).then(|| {
                let location = Location::in_rule(audit, fact.origin, eq.span.clone());
                Finding {
                    reads: Vec::new(),
                    fixable: crate::checks::Fixable::No,
                    check: CheckId::EqualsMismatch,
                    severity: SEVERITY,
                    location: location.clone(),
                    fact: Some(fact.id.clone()),
                    message: format!(
                        "`{}` is {} but `{}` is {}",
                        fact.id,
                        fact.computed.value.display(),
                        eq.text,
                        display(&eq.value)
                    ),
                    stated: Some(display(&eq.value)),
                    observed: Some(fact.computed.value.display()),
                    recipe: Some(eq.recipe.clone()),
                    rule: Some(location),
                    diff: None,
                    tier: None,
                    label: None,
                }
            })
        })
        .collect()
}
