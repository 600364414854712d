//! Check `unused-suppression`: a record's suppression directive, or a rule
//! file's `[[ignore]]`, that no longer earns its place — expired (`until` is
//! past), or silencing nothing in the block (the paths) it applies to. Expiry is known from the audit alone, so `run` reports
//! it with the other checks; whether a directive silenced anything is known only
//! once every other check has run, so the suppression step
//! (`audit::suppress::apply`) reports that through [`unused`].

use crate::checks::audited::Audit;
use crate::checks::suppress::RecordSuppression;
use crate::checks::{CheckId, Finding, Location, Severity};

const EXPLAIN: &str = "\
unused-suppression: a suppression has expired or silences nothing

What it checks
  Every `<!-- recount: ignore[check-id] reason=\"...\" -->` directive in a
  record applies to the block that follows it (a paragraph, a list item, a
  table, a code block, a heading). Each check id it names must silence at
  least one finding of that check in that block, and a directive with
  `until=YYYY-MM-DD` applies only up to that day (UTC); after it the
  findings are reported again and so is the directive. A rule file's
  `[[ignore]]` entry (its `paths`, its `checks` or every check, its `reason`)
  must hide at least one finding too, each check it lists; one that hides
  nothing is reported at the entry.

Why
  A suppression is a promise that a finding is known and accepted. One that
  silences nothing hides the next real drift in that block without anyone
  deciding it should; one past its date was meant to be revisited.

Example
  `<!-- recount: ignore[stale-path-cite] reason=\"moved in 2.0\" until=2026-01-01 -->`
  above a paragraph citing a deleted file: from 2026-01-02 the stale-path-cite
  finding fires again and unused-suppression says the directive expired on
  2026-01-01.

How to fix
  Delete the directive (or the check id that silences nothing), or fix what
  the finding is about and then delete it; for an expired one, either fix the
  finding or move `until` with a reason a reviewer can accept.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: a warning — a stale directive hides nothing yet.
pub const SEVERITY: Severity = Severity::Warning;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    if finding.message.contains("expired") {
        "expired".to_owned()
    } else {
        "suppresses nothing".to_owned()
    }
}

/// One finding per expired directive, at its `until` date.
pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .suppressions
        .iter()
        .filter(|s| s.expired(audit.today))
        .filter_map(|s| {
            let (day, span) = s.directive.until.clone()?;
            let ids: Vec<&str> = s.directive.checks.iter().map(|(c, _)| c.as_str()).collect();
            Some(finding(
                Location::in_record(audit, &s.path, span),
                format!(
                    "the suppression of {} expired on {day}: what it silenced is reported again",
                    ids.join(", ")
                ),
            ))
        })
        .collect()
}

/// The finding for a check id a live directive names that silenced nothing.
pub(crate) fn unused(
    audit: &Audit,
    suppression: &RecordSuppression,
    id: &str,
    span: std::ops::Range<usize>,
) -> Finding {
    let message = if suppression.directive.block.is_some() {
        format!(
            "the suppression of {id} suppresses nothing: the block after it has no {id} finding"
        )
    } else {
        format!("the suppression of {id} suppresses nothing: no block follows it")
    };
    finding(Location::in_record(audit, &suppression.path, span), message)
}

/// An `unused-suppression` finding at `location`.
pub(crate) fn finding(location: Location, message: String) -> Finding {
    Finding {
        reads: Vec::new(),
        fixable: crate::checks::Fixable::No,
        check: CheckId::UnusedSuppression,
        severity: SEVERITY,
        location,
        fact: None,
        message,
        stated: None,
        observed: None,
        recipe: None,
        rule: None,
        diff: None,
        tier: None,
        label: None,
    }
}
