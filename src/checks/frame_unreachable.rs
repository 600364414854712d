//! Check `frame-unreachable`: a frame (a rule's `at`, a record's "measured at")
//! that is not an ancestor of the main line — a record anchored to a commit that
//! never landed.

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::Audit;
use crate::frames::FrameSite;

const EXPLAIN: &str = "\
frame-unreachable: a frame is not an ancestor of the main line

What it checks
  With `main = \"origin/main\"` in [recount], every frame a rule names (`at`) and
  every frame a record names (\"measured at 1a2b3c4d\") must be an ancestor of that
  main line. A frame that is not in the clone at all is frame-unresolved instead.

Why
  A measurement anchored to a branch commit that was squashed or abandoned can no
  longer be reproduced by anyone: the commit disappears when the branch is deleted
  or garbage-collected, and the record's evidence goes with it.

Example
  [recount]
  main = \"origin/main\"
  [[fact]]
  at = \"76e1628c\"      # a commit on the PR branch, not the merge
  The frame is not on origin/main: frame-unreachable at the `at`.

How to fix
  Re-anchor the figure to the commit on the main line that carries the same tree
  (the merge or the squashed commit), and re-measure if the trees differ.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — a frame off the main line measures code that never landed.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "not on the main line".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for frame in &audit.frames {
        let (Some((main, false)), Some(commit)) = (&frame.on_main, &frame.commit) else {
            continue;
        };
        let location = match &frame.site {
            FrameSite::Rule { origin, span } => Location::in_rule(audit, *origin, span.clone()),
            FrameSite::Record { path, span } => Location::in_record(audit, path, span.clone()),
        };
        if !seen.insert((location.path.clone(), location.offset)) {
            continue;
        }
        findings.push(Finding {
 reads: Vec::new(),
 fixable: crate::checks::Fixable::No,
            check: CheckId::FrameUnreachable,
            severity: SEVERITY,
            location,
            fact: None,
            message: format!(
                "the frame `{}` ({}) is not an ancestor of {main}: it never landed on the main line",
                frame.rev,
                &commit[..commit.len().min(12)]
            ),
            stated: Some(frame.rev.clone()),
            observed: None,
            recipe: None,
            rule: None,
            diff: None,
            tier: None,
            label: None,
        });
    }
    findings
}
