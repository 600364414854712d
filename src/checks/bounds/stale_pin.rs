//! Check `stale-pin`: a pin whose bound is gone, or whose bound no longer equals
//! the constant it pins.

use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Location, Severity};
use crate::number::display;

const EXPLAIN: &str = "\
stale-pin: a pinned bound is gone, or differs from its constant

What it checks
  Every pin in a `[[bounds]]` entry names a bound (file#/json/pointer) and a
  constant. The bound must still exist, the constant must still be defined (its
  file in the snapshot, its name in the file), and the bound's value must equal
  the constant's live value. A mismatch reports both numbers and both locations;
  an absent constant is reported at the pin, with why it could not be read.

Why
  Population equality in both directions: a pin left behind after its bound was
  removed is a check of nothing, and a bound that no longer equals its constant is
  exactly the drift the pin exists to catch.

Example
  MAX_QUERY_CHARS becomes 1024 and the schema still says `\"maxLength\": 512`:
  stale-pin at the 512, naming the constant's file and line.

How to fix
  Make the schema and the constant agree, or move the pin to where the bound now
  lives (or name the file the constant moved to); delete a pin whose bound was
  removed on purpose.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — a pinned bound and its constant disagree, or the bound is gone.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match (finding.stated.as_deref(), finding.observed.as_deref()) {
        (_, Some(o)) => format!("the constant is {o}"),
        (Some(_), None) => "this constant cannot be read".to_owned(),
        (None, None) => "this pin's bound is gone".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    for outcome in &audit.families.bounds {
        for pin in &outcome.pins {
            let rule = Location::in_rule(audit, pin.origin, pin.span.clone());
            let name = &pin.constant_name;
            if let (Err(why), Some(_)) = (&pin.constant, &pin.bound) {
                let at = Location::in_rule(audit, pin.origin, pin.constant_span.clone());
                findings.push(Finding {
                    reads: Vec::new(),
                    fixable: crate::checks::Fixable::No,
                    check: CheckId::StalePin,
                    severity: SEVERITY,
                    location: at.clone(),
                    fact: None,
                    message: format!(
                        "the pin of {}#{} names `{name}`, which cannot be read: {why}",
                        pin.file, pin.pointer
                    ),
                    stated: Some(name.clone()),
                    observed: None,
                    recipe: None,
                    rule: Some(at),
                    diff: None,
                    tier: None,
                    label: None,
                });
            }
            match (&pin.bound, &pin.constant) {
                (None, constant) => findings.push(Finding {
 reads: Vec::new(),
 fixable: crate::checks::Fixable::No,
                    check: CheckId::StalePin,
                    severity: SEVERITY,
                    location: rule.clone(),
                    fact: None,
                    message: match constant {
                        Ok(_) => format!(
                            "the pinned bound {}#{} no longer exists; the pin to `{name}` checks nothing",
                            pin.file, pin.pointer
                        ),
                        Err(why) => format!(
                            "the pinned bound {}#{} no longer exists, nor can `{name}` be read ({why}); the pin checks nothing",
                            pin.file, pin.pointer
                        ),
                    },
                    stated: None,
                    observed: None,
                    recipe: None,
                    rule: Some(rule),
                    diff: None,
                    tier: None,
                    label: None,
                }),
                (Some(bound), Ok(constant)) if bound.value != Some(constant.value) => {
                    let mut location = Location::in_record(audit, &bound.path, bound.span.clone());
                    location.line = bound.line;
                    location.column = bound.column;
                    findings.push(Finding {
 reads: Vec::new(),
 fixable: crate::checks::Fixable::No,
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
                        tier: None,
                        label: None,
                    });
                }
                _ => {}
            }
        }
    }
    findings
}
