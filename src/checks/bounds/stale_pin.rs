//! Check `stale-pin`: a pin whose bound is gone, or whose bound no longer equals
//! the constant it pins.

use crate::audit::Audit;
use crate::checks::{CheckId, Finding, Location, Severity};
use crate::number::display;

pub const EXPLAIN: &str = "\
stale-pin: a pinned bound is gone, or differs from its constant

What it checks
  Every pin in a `[[bounds]]` entry names a bound (file#/json/pointer) and a
  constant. The bound must still exist, and its value must equal the constant's
  live value. A mismatch reports both numbers and both locations.

Why
  Population equality in both directions: a pin left behind after its bound was
  removed is a check of nothing, and a bound that no longer equals its constant is
  exactly the drift the pin exists to catch.

Example
  MAX_QUERY_CHARS becomes 1024 and the schema still says `\"maxLength\": 512`:
  stale-pin at the 512, naming the constant's file and line.

How to fix
  Make the schema and the constant agree, or move the pin to where the bound now
  lives; delete a pin whose bound was removed on purpose.
";

/// Default severity: an error — a pinned bound and its constant disagree, or the bound is gone.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match finding.observed.as_deref() {
        Some(o) => format!("the constant is {o}"),
        None => "this pin's bound is gone".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    for outcome in &audit.bounds {
        for pin in &outcome.pins {
            let constant = &pin.constant;
            let rule = Location::in_rule(audit, pin.origin, pin.span.clone());
            match &pin.bound {
                None => findings.push(Finding {
                    check: CheckId::StalePin,
                    severity: SEVERITY,
                    location: rule.clone(),
                    fact: None,
                    message: format!(
                        "the pinned bound {}#{} no longer exists; the pin to `{}` checks nothing",
                        pin.file, pin.pointer, constant.name
                    ),
                    stated: None,
                    observed: None,
                    recipe: None,
                    rule: Some(rule),
                    diff: None,
                }),
                Some(bound) if bound.value != Some(constant.value) => {
                    let mut location = Location::in_record(audit, &bound.path, bound.span.clone());
                    location.line = bound.line;
                    location.column = bound.column;
                    findings.push(Finding {
                        check: CheckId::StalePin,
                        severity: SEVERITY,
                        location,
                        fact: None,
                        message: format!(
                            "{}#{} is {} but `{}` is {} ({}:{})",
                            bound.path,
                            bound.pointer,
                            bound.text,
                            constant.name,
                            display(&constant.value),
                            constant.file,
                            constant.line
                        ),
                        stated: Some(bound.text.clone()),
                        observed: Some(display(&constant.value)),
                        recipe: None,
                        rule: Some(rule),
                        diff: None,
                    });
                }
                Some(_) => {}
            }
        }
    }
    findings
}
