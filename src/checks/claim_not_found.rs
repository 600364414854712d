//! Check `claim-not-found`: a claim's pattern matches nothing in a record it
//! names, so the figure it guards is no longer checked.

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::Audit;

const EXPLAIN: &str = "\
claim-not-found: a claim's pattern matches nothing in a record it names

What it checks
  Every claim names records (`in`) and a pattern (`says` or `listing`). The glob
  must select at least one record, and at least one of the records it selects
  must contain a match: a claim made once, in the README, is not missing from
  every other page a wider glob selects. When no record states it, the finding
  is one: at the record when the glob selects one, else at the claim.

Why
  Rewording a sentence must not switch its check off. A claim that silently matches
  nothing is a check that can no longer fail, which is worse than no check.

Example
  says = 'schemas/mcp/ holds (?<value>\\w+) files'
  The record is edited to \"the schemas/mcp/ folder has eight files\": the pattern no
  longer matches, and recount says so instead of passing.

How to fix
  Update the claim's pattern to the record's new wording, or remove the claim if the
  record no longer states the fact.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — a configured claim checks nothing: a silent pass is worse than a failure.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "matches nothing".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    for fact in &audit.facts {
        for claim in &fact.claims {
            let rule = Location::in_rule(audit, claim.origin, claim.span.clone());
            // Stated somewhere it names: found.
            if claim.records.iter().any(|r| !r.is_empty()) {
                continue;
            }
            // One finding: at the claim when it reads no record or several, at
            // the record when it reads one.
            let (location, message) = match claim.records.as_slice() {
                [] if claim.skipped.is_empty() => (
                    rule.clone(),
                    format!(
                        "no record matches {} in {}, so this claim about `{}` checks nothing",
                        claim.globs.join(", "),
                        audit.snapshot_label,
                        fact.id
                    ),
                ),
                // The glob does select files: say they were skipped, and why,
                // rather than that nothing matches.
                [] => {
                    let skipped: Vec<String> = claim
                        .skipped
                        .iter()
                        .map(|(path, why)| format!("{path} is skipped ({why})"))
                        .collect();
                    (
                        rule.clone(),
                        format!(
                            "no record {} selects in {} could be read: {}; so this claim \
                             about `{}` checks nothing",
                            claim.globs.join(", "),
                            audit.snapshot_label,
                            skipped.join("; "),
                            fact.id
                        ),
                    )
                }
                [in_record] => (
                    Location::in_record(audit, in_record.path(), 0..0),
                    format!(
                        "the claim about `{}` matches nothing in {}: pattern {:?}",
                        fact.id,
                        in_record.path(),
                        claim.pattern
                    ),
                ),
                records => (
                    rule.clone(),
                    format!(
                        "the claim about `{}` matches nothing in any of the {} records {} selects: pattern {:?}",
                        fact.id,
                        records.len(),
                        claim.globs.join(", "),
                        claim.pattern
                    ),
                ),
            };
            findings.push(Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::ClaimNotFound,
                severity: SEVERITY,
                location,
                fact: Some(fact.id.clone()),
                message,
                stated: None,
                observed: None,
                recipe: None,
                rule: Some(rule),
                diff: None,
                tier: None,
                label: None,
            });
        }
    }
    findings
}
