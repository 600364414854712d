//! Check `retired-claim`: a retired phrase or figure reappears without the
//! attribution that marks it retired.

use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Location, Severity};

const EXPLAIN: &str = "\
retired-claim: a retired claim reappears without its attribution

What it checks
  The rule file keeps a register of retired claims (`[[retired]]`): a verbatim
  phrase or figure, or a subject pattern plus a phrasing pattern within N
  characters of each other, and the files it applies to. Every occurrence must have
  an attribution (\"earlier draft\", \"withdrawn\", \"interim\", ...) within `reach`
  characters. Matching runs on the prose view, so a line wrap or emphasis cannot
  hide an occurrence. The finding names the nearest attribution and its distance.

Why
  A figure that was measured over a favourable instance and then corrected tends to
  come back: in a changelog heading, in a docstring, in a new paragraph that quotes
  the old draft. Without its attribution it reads as a live claim again.

Example
  [[retired]]
  id = \"interim-body-cap\"
  phrase = \"2 * MAX_SOURCE_FILE_BYTES\"
  in = [\"CHANGELOG.md\"]
  attribution = '(?i)earlier draft|interim|withdrawn'
  A release note says bodies up to 2 * MAX_SOURCE_FILE_BYTES are accepted again,
  with no attribution near it: retired-claim.

How to fix
  Remove the retired claim, or attribute it where it stands (\"an earlier draft
  said ...\").
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: a warning — whether an attribution is near enough is read from prose heuristically.
pub const SEVERITY: Severity = Severity::Warning;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "retired, and not attributed".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .families
        .retired
        .iter()
        .filter(|hit| !hit.occurrence.attributed)
        .map(|hit| {
            let nearest = match &hit.occurrence.nearest_attribution {
                Some(n) => format!(
                    "; the nearest attribution, `{}`, is {} characters away (reach {})",
                    n.text, n.distance, hit.reach
                ),
                None => "; the file has no attribution at all".to_owned(),
            };
            Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::RetiredClaim,
                severity: SEVERITY,
                location: Location::in_record(audit, &hit.path, hit.occurrence.span.clone()),
                fact: None,
                message: format!(
                    "retired claim `{}` appears without an attribution{nearest}",
                    hit.id
                ),
                stated: Some(hit.occurrence.text.clone()),
                observed: None,
                recipe: None,
                rule: Some(Location::in_rule(audit, hit.origin, hit.rule_span.clone())),
                diff: None,
                tier: None,
                label: None,
            }
        })
        .collect()
}
