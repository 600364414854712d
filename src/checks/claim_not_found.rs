//! Check `claim-not-found`: a claim's pattern matches nothing in a record it
//! names, so the figure it guards is no longer checked.

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::Audit;

const EXPLAIN: &str = "\
claim-not-found: a claim's pattern matches nothing in a record it names

What it checks
  Every claim names records (`in`) and a pattern (`says` or `listing`). Each record
  the glob selects must contain at least one match, and the glob must select at
  least one record.

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
            if claim.records.is_empty() {
                findings.push(Finding {
                    check: CheckId::ClaimNotFound,
                    severity: SEVERITY,
                    location: rule.clone(),
                    fact: Some(fact.id.clone()),
                    message: if claim.skipped.is_empty() {
                        format!(
                            "no record matches {} in {}, so this claim about `{}` checks nothing",
                            claim.globs.join(", "),
                            audit.snapshot_label,
                            fact.id
                        )
                    } else {
                        // The glob does select files: say they were skipped, and why,
                        // rather than that nothing matches.
                        let skipped: Vec<String> = claim
                            .skipped
                            .iter()
                            .map(|(path, why)| format!("{path} is skipped ({why})"))
                            .collect();
                        format!(
                            "no record {} selects in {} could be read: {}; so this claim \
                             about `{}` checks nothing",
                            claim.globs.join(", "),
                            audit.snapshot_label,
                            skipped.join("; "),
                            fact.id
                        )
                    },
                    stated: None,
                    observed: None,
                    recipe: None,
                    rule: Some(rule),
                    diff: None,
                    tier: None,
                });
                continue;
            }
            for in_record in claim.records.iter().filter(|r| r.is_empty()) {
                let location = Location::in_record(audit, in_record.path(), 0..0);
                findings.push(Finding {
                    check: CheckId::ClaimNotFound,
                    severity: SEVERITY,
                    location,
                    fact: Some(fact.id.clone()),
                    message: format!(
                        "the claim about `{}` matches nothing in {}: pattern {:?}",
                        fact.id,
                        in_record.path(),
                        claim.pattern
                    ),
                    stated: None,
                    observed: None,
                    recipe: None,
                    rule: Some(rule.clone()),
                    diff: None,
                    tier: None,
                });
            }
        }
    }
    findings
}
