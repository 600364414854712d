//! Check `fact-drift`: a record states a value that the tree no longer has.

use super::{CheckId, Finding, ListingDiff, Location, Severity};
use crate::checks::audited::{Audit, AuditedClaim, AuditedFact, ClaimInRecord};
use crate::claims::Field;
use crate::claims::value::{self, Stated};
use crate::facts::FactValue;
use crate::number::Number;

const EXPLAIN: &str = "\
fact-drift: a record states a figure that no longer matches the tree

What it checks
  Every match of a claim's `says` pattern in a record is read by the value grammar
  (numbers, number words, sizes, ratios, percentages, line ranges) and compared with
  the fact recomputed at the fact's frame, at the precision the record states:
  `1.032x` to three decimals, `~352 KiB` to the KiB, `26,214,400` exactly. A
  `listing` claim compares the lines of a fenced block with the fact's listing
  (order aside): one finding per block, with a diff of its lines against the
  tree (`-` listed, no longer found; `+` found, not listed), cut after 20 lines.

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

pub fn explain() -> &'static str {
    EXPLAIN
}

/// How many lines of a listing's diff a finding keeps: a screenful. The rest
/// are counted (`… and 21 more lines`).
pub const DIFF_LINES_SHOWN: usize = 20;

/// Default severity: an error — the recomputed fact disagrees with the stated figure.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    if let Some(diff) = &finding.diff {
        return format!(
            "the tree adds {}, drops {}",
            lines(diff.added),
            lines(diff.removed)
        );
    }
    match (&finding.stated, finding.observed.as_deref()) {
        (Some(_), Some(o)) => format!("the tree has {o}"),
        // Nothing observed to set beside the stated text: it could not be read
        // as a value (an unknown unit: "16.7 million colors"), or the fact has
        // no line span — the message says which; the tree is not to blame.
        (Some(_), None) => "not a value recount can compare".to_owned(),
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
        reads: Vec::new(),
        fixable: crate::checks::Fixable::No,
        check: CheckId::FactDrift,
        severity: SEVERITY,
        location,
        fact: Some(fact.id.clone()),
        message,
        stated,
        observed,
        recipe: Some(fact.computed.recipe.clone()),
        rule: Some(Location::in_rule(audit, claim.origin, claim.span.clone())),
        diff: None,
        tier: None,
        label: None,
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
    let value = match &fact.computed.value {
        FactValue::Verdict { accepted } if claim.field == Field::Value => {
            return compare_verdict(audit, fact, claim, location, &m.text, *accepted);
        }
        FactValue::Text(text) if claim.field == Field::Value => {
            return crate::claims::text::compare(&m.text, text)
                .err()
                .map(|observed| {
                    drift(
                        audit,
                        fact,
                        claim,
                        location,
                        &m.text,
                        &format!("\"{text}\""),
                        observed,
                    )
                });
        }
        FactValue::Text(_) | FactValue::Verdict { .. } => None,
        FactValue::Number(n) => Some(*n),
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
        drift(
            audit,
            fact,
            claim,
            location,
            &m.text,
            &observed.clone(),
            observed,
        )
    })
}

/// The finding for a stated value that disagrees: `shown` is the tree's value
/// in the message, `observed` it written the way the record writes it.
fn drift(
    audit: &Audit,
    fact: &AuditedFact,
    claim: &AuditedClaim,
    location: Location,
    stated: &str,
    shown: &str,
    observed: String,
) -> Finding {
    let mut drifted = finding(
        audit,
        fact,
        claim,
        location,
        format!(
            "the record states `{stated}` for `{}`, the tree has {shown}",
            fact.id
        ),
        Some(stated.to_owned()),
        Some(observed),
    );
    // The recomputed value mends a figure of the audited tree; a figure
    // measured at a commit of its own is for a person to weigh (the
    // measurement may be what is out of date), even when that commit is the
    // one audited.
    drifted.fixable = crate::checks::Fixable::proven(!fact.framed);
    drifted
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
    let found: Vec<&str> = listing.iter().map(String::as_str).collect();
    let Some(diff) = listing_diff(&listed, &found) else {
        return Vec::new();
    };
    let mut f = finding(
        audit,
        fact,
        claim,
        Location::in_record(audit, path, block.anchor.clone()),
        format!(
            "the record's listing of `{}` differs from the tree: {} line{} added, {} removed ({} listed, {} found)",
            fact.id,
            diff.added,
            if diff.added == 1 { "" } else { "s" },
            diff.removed,
            listed.len(),
            found.len()
        ),
        None,
        None,
    );
    f.diff = Some(diff);
    vec![f]
}

fn lines(n: usize) -> String {
    format!("{n} line{}", if n == 1 { "" } else { "s" })
}

/// The diff of a listing block (`listed`) against the recomputed listing
/// (`found`), or `None` when they hold the same lines. Lines compare as a set
/// (order does not matter, as a reordered block states the same listing); the
/// diff walks both in their own order, so a `-` line stands where the block has
/// it and a `+` line where the listing has it, removals first between two lines
/// both share.
pub fn listing_diff(listed: &[&str], found: &[&str]) -> Option<ListingDiff> {
    use std::collections::BTreeSet;
    let in_found: BTreeSet<&str> = found.iter().copied().collect();
    let in_listed: BTreeSet<&str> = listed.iter().copied().collect();
    let (mut i, mut j) = (0, 0);
    let mut all = Vec::new();
    let (mut added, mut removed) = (0, 0);
    while i < listed.len() || j < found.len() {
        if let Some(line) = listed.get(i).filter(|l| !in_found.contains(*l)) {
            all.push(format!("-{line}"));
            removed += 1;
            i += 1;
        } else if let Some(line) = found.get(j).filter(|l| !in_listed.contains(*l)) {
            all.push(format!("+{line}"));
            added += 1;
            j += 1;
        } else {
            // Both at a shared line (or one side done): step past it.
            i = (i + 1).min(listed.len());
            j = (j + 1).min(found.len());
        }
    }
    if all.is_empty() {
        return None;
    }
    let more = all.len().saturating_sub(ListingDiff::SHOWN);
    all.truncate(ListingDiff::SHOWN);
    Some(ListingDiff {
        added,
        removed,
        lines: all,
        more,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_diff_interleaves_in_each_side_s_order() {
        let diff = listing_diff(&["a:1", "a:5", "b:2"], &["a:1", "a:6", "b:2", "c:9"]).unwrap();
        assert_eq!(diff.lines, ["-a:5", "+a:6", "+c:9"]);
        assert_eq!((diff.added, diff.removed, diff.more), (2, 1, 0));
    }

    #[test]
    fn the_same_lines_in_another_order_are_no_diff() {
        assert_eq!(listing_diff(&["b", "a"], &["a", "b"]), None);
        assert_eq!(listing_diff(&[], &[]), None);
    }

    #[test]
    fn a_long_diff_is_cut_to_a_screenful_and_says_how_much_is_left() {
        let found: Vec<String> = (1..=45).map(|n| format!("x.py:{n}")).collect();
        let found: Vec<&str> = found.iter().map(String::as_str).collect();
        let diff = listing_diff(&["x.py:1", "gone.py:3"], &found).unwrap();
        assert_eq!((diff.added, diff.removed), (44, 1));
        assert_eq!(diff.lines.len(), ListingDiff::SHOWN);
        assert_eq!(diff.lines[0], "-gone.py:3");
        assert_eq!(diff.lines[1], "+x.py:2");
        assert_eq!(diff.more, 45 - ListingDiff::SHOWN);
        assert!(diff.text().ends_with("\n… and 25 more lines"));
    }

    #[test]
    fn the_report_schema_caps_a_diff_where_the_check_cuts_it() {
        let schema: serde_json::Value =
            serde_json::from_str(crate::report::json::REPORT_SCHEMA).unwrap();
        let lines = &schema["$defs"]["finding"]["properties"]["diff"]["properties"]["lines"];
        assert_eq!(lines["maxItems"], ListingDiff::SHOWN);
    }
}
