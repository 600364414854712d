//! Check `input-missing`: a fact whose input file is missing (or not text) at
//! its frame. The fact is unverified — not computed, its claims not compared —
//! and the rest of the audit runs.

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::{Audit, Unverified};

const EXPLAIN: &str = "\
input-missing: a file a fact reads is missing at its frame

What it checks
  Before a fact is computed, every file it names outright (a `count` or
  `entries` file, a `constant` or `[constants]` source, a `json` file, a
  `validate` document) must exist at the fact's frame, as text. When one does
  not, the fact is unverified: it gets no value, its claims are not compared,
  and the facts that read it are unverified too. One finding per fact, at the
  fact in the rule file, naming the file and the frame.

Why
  Files move and are deleted; a rule that names one should say so as a finding
  about that fact, not stop the whole audit, and the fact must not pass
  unchecked either.

Example
  [[fact]]
  id = \"max-items\"
  constant = \"MAX_ITEMS\"
  file = \"src/limits.py\"     # removed in a refactor
  src/limits.py does not exist at the audited commit: input-missing at
  `max-items`.

How to fix
  Point the rule at the file's new place (`file`, `[constants]`), or measure the
  fact at a commit that still has it (`at`), or retire the fact and its claims.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — the fact could not be verified.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "its input is missing".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .unverified
        .iter()
        .filter_map(|fact| {
            let Unverified::Input { path, why } = &fact.why else {
                return None;
            };
            let readers: Vec<String> = audit
                .unverified
                .iter()
                .filter(|f| matches!(&f.why, Unverified::Fact { id } if *id == fact.id))
                .map(|f| format!("`{}`", f.id))
                .collect();
            let places = fact.stated_places();
            let mut message = format!(
                "fact `{}` reads {path}, which {why}: the fact is unverified ({} in records not compared)",
                fact.id,
                match places {
                    1 => "1 stated place".to_owned(),
                    n => format!("{n} stated places"),
                }
            );
            if !readers.is_empty() {
                message.push_str(&format!(", and so are the facts reading it ({})", readers.join(", ")));
            }
            Some(Finding {
 reads: Vec::new(),
 fixable: crate::checks::Fixable::No,
                check: CheckId::InputMissing,
                severity: SEVERITY,
                location: Location::in_rule(audit, fact.origin, fact.id_span.clone()),
                fact: Some(fact.id.clone()),
                message,
                stated: None,
                observed: Some(path.clone()),
                recipe: None,
                rule: None,
                diff: None,
                tier: None,
                label: None,
            })
        })
        .collect()
}
