//! Check `fact-drift`: a record states a value that the tree no longer has.

use super::{CheckId, Finding, Location, Severity};
use crate::audit::{Audit, AuditedClaim, AuditedFact, ClaimInRecord};
use crate::claims::value::{self, Stated};
use crate::facts::FactValue;
use crate::number::Number;
use crate::rules::model::Field;

pub const EXPLAIN: &str = "\
fact-drift: a record states a figure that no longer matches the tree

What it checks
  Every match of a claim's `says` pattern in a record is read by the value grammar
  (numbers, number words, sizes, ratios, percentages, line ranges) and compared with
  the fact recomputed at the fact's frame, at the precision the record states:
  `1.032x` to three decimals, `~352 KiB` to the KiB, `26,214,400` exactly. A
  `listing` claim compares the lines of a fenced block with the fact's listing.

Why
  A measured figure in an ADR goes stale the day the code moves, and nothing says
  so. Recomputing it from the repository is the only way to know it still holds.

Example
  [[fact]]
  id = \"mcp-schema-files\"
  files = \"schemas/mcp/*.json\"
  claims = [{ in = \"docs/adr/*.md\", says = 'schemas/mcp/ holds (?<value>\\w+) files' }]
  The record says \"holds eight files\"; the tree has nine: fact-drift at the word.

How to fix
  If the tree is right, correct the record (the finding's help gives the
  recomputed value, written the way the record writes it). If the record is a
  dated measurement, pin the fact to the commit it was measured at (`at = ...`).
";

/// Default severity: an error — the recomputed fact disagrees with the stated figure.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match (&finding.stated, finding.observed.as_deref()) {
        (Some(_), Some(o)) => format!("the tree has {o}"),
        (Some(_), None) => "not in the tree".to_owned(),
        (None, Some(o)) => format!("missing {o}"),
        (None, None) => "here".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    for fact in &audit.facts {
        for claim in &fact.claims {
            for in_record in &claim.records {
                match in_record {
                    ClaimInRecord::Stated { path, matches } => {
                        for m in matches {
                            if let Some(f) = compare_stated(audit, fact, claim, path, m) {
                                findings.push(f);
                            }
                        }
                    }
                    ClaimInRecord::Listing {
                        path,
                        block: Some(block),
                    } => {
                        findings.extend(compare_listing(audit, fact, claim, path, block));
                    }
                    ClaimInRecord::Listing { block: None, .. } => {}
                }
            }
        }
    }
    findings
}

fn finding(
    audit: &Audit,
    fact: &AuditedFact,
    claim: &AuditedClaim,
    location: Location,
    message: String,
    stated: Option<String>,
    observed: Option<String>,
) -> Finding {
    Finding {
        check: CheckId::FactDrift,
        severity: SEVERITY,
        location,
        fact: Some(fact.id.clone()),
        message,
        stated,
        observed,
        recipe: Some(fact.computed.recipe.clone()),
        rule: Some(Location::in_rule(audit, claim.origin, claim.span.clone())),
    }
}

fn compare_stated(
    audit: &Audit,
    fact: &AuditedFact,
    claim: &AuditedClaim,
    path: &str,
    m: &crate::claims::StatedAt,
) -> Option<Finding> {
    let location = Location::in_record(audit, path, m.span.clone());
    let value = match fact.computed.value {
        FactValue::Verdict { accepted } if claim.field == Field::Value => {
            return compare_verdict(audit, fact, claim, location, &m.text, accepted);
        }
        FactValue::Verdict { .. } => None,
        FactValue::Number(n) => Some(n),
    };
    let stated: &Stated = match &m.stated {
        Ok(s) => s,
        Err(why) => {
            return Some(finding(
                audit,
                fact,
                claim,
                location,
                format!(
                    "`{}` states fact `{}`, but recount cannot read it as a value: {why}",
                    m.text, fact.id
                ),
                Some(m.text.clone()),
                None,
            ));
        }
    };
    let (agrees, observed) = match claim.field {
        Field::Value => match value {
            Some(v) => (stated.agrees(&v), stated.render(&v)),
            None => return None,
        },
        Field::Lines => match fact.computed.lines {
            Some((start, end)) => (
                stated.agrees_range(
                    &Number::from_integer(start as i128),
                    &Number::from_integer(end as i128),
                ),
                if start == end {
                    start.to_string()
                } else {
                    format!("{start}-{end}")
                },
            ),
            None => {
                return Some(finding(
                    audit,
                    fact,
                    claim,
                    location,
                    format!(
                        "fact `{}` is a {} fact and has no line span to compare",
                        fact.id, fact.kind
                    ),
                    Some(m.text.clone()),
                    None,
                ));
            }
        },
    };
    (!agrees).then(|| {
        finding(
            audit,
            fact,
            claim,
            location,
            format!(
                "the record states `{}` for `{}`, the tree has {observed}",
                m.text, fact.id
            ),
            Some(m.text.clone()),
            Some(observed),
        )
    })
}

/// A `validate` fact is stated with a verdict word ("rejects the valid document").
fn compare_verdict(
    audit: &Audit,
    fact: &AuditedFact,
    claim: &AuditedClaim,
    location: Location,
    text: &str,
    accepted: bool,
) -> Option<Finding> {
    let observed = value::render_verdict(text, accepted);
    match value::parse_verdict(text) {
        Some(stated) if stated == accepted => None,
        Some(_) => Some(finding(
            audit,
            fact,
            claim,
            location,
            format!(
                "the record says the schema {text} the document (`{}`), recount's validation core {observed} it",
                fact.id
            ),
            Some(text.to_owned()),
            Some(observed),
        )),
        None => Some(finding(
            audit,
            fact,
            claim,
            location,
            format!(
                "`{text}` states fact `{}`, but it is not a verdict word (accepts, rejects, ...)",
                fact.id
            ),
            Some(text.to_owned()),
            None,
        )),
    }
}

fn compare_listing(
    audit: &Audit,
    fact: &AuditedFact,
    claim: &AuditedClaim,
    path: &str,
    block: &crate::claims::ListingAt,
) -> Vec<Finding> {
    let Some(listing) = &fact.computed.listing else {
        return vec![finding(
            audit,
            fact,
            claim,
            Location::in_record(audit, path, block.anchor.clone()),
            format!(
                "fact `{}` is a {} fact and has no listing to compare with this block",
                fact.id, fact.kind
            ),
            None,
            None,
        )];
    };
    let listed: Vec<&str> = block.lines.iter().map(|(_, l)| l.trim()).collect();
    let mut findings = Vec::new();
    for (range, line) in &block.lines {
        if !listing.iter().any(|l| l == line.trim()) {
            findings.push(finding(
                audit,
                fact,
                claim,
                Location::in_record(audit, path, range.clone()),
                format!(
                    "the record lists `{}`, which `{}` no longer finds",
                    line.trim(),
                    fact.id
                ),
                Some(line.trim().to_owned()),
                None,
            ));
        }
    }
    for item in listing {
        if !listed.contains(&item.as_str()) {
            findings.push(finding(
                audit,
                fact,
                claim,
                Location::in_record(audit, path, block.anchor.clone()),
                format!(
                    "`{}` finds `{item}`, which the record's listing does not show",
                    fact.id
                ),
                None,
                Some(item.clone()),
            ));
        }
    }
    findings
}
