//! Check `transcript-drift`: a command a record shows with its output (a
//! console block, an inline `cmd → N` key), re-run natively at the commit it
//! names, prints something else.

use super::TranscriptStatus;
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, ListingDiff, Location, Severity};

const EXPLAIN: &str = "\
transcript-drift: a command a record shows prints something else when re-run

What it checks
  Every transcript in the records: a command after a `$ ` prompt in a fenced
  block (console, shell, sh, bash, or untagged) with the lines it printed, and
  an inline key in prose — `grep -c x f → 7`, `… returns five hits` (not a
  count of part of the output: `… returns 0 hits outside the plans`). Those in
  a fixed read-only family (git grep, grep, ls, find, git ls-files,
  git rev-list --count, piped into wc -l, cut, sort, uniq, head, tail, grep)
  are re-run natively, without spawning a process, at the revision the command
  names, else the frame the record declares for the passage (\"measured at
  X\"), else the audited snapshot. Counts compare as numbers, listings line by
  line (as a set where the tool's order is not defined), and a `...` line or a
  `.../` path prefix elides. Anything else is never executed: it is listed by
  `recount transcripts` and summed up in a note.

Why
  A transcript says exactly how to recompute itself, which makes it the
  strongest claim a record makes — and the one nobody re-runs once it is
  pasted. When the tree moves on, the block still reads as evidence.

Example
  A record shows `$ git grep -l TODO -- src` and three files; one of them no
  longer has a TODO. The finding points at that line, shows `-src/old.rs`, and
  names the commit it was re-run at.

How to fix
  Paste the command's output again, or name the commit the output was taken
  at — in the command (`git grep -n x be977ea7 -- src`) or as the passage's
  frame (\"measured at be977ea7\"). A block that is illustration, not evidence,
  takes `<!-- recount: ignore[transcript-drift] reason=\"...\" -->` above it;
  `[recount] transcripts = false` or `--no-transcripts` turns the re-runs off.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — the record's own command disagrees with it.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(finding: &Finding) -> String {
    match &finding.observed {
        Some(observed) if !observed.is_empty() => format!("re-run prints `{observed}`"),
        _ => "re-run prints otherwise".to_owned(),
    }
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .families.transcripts
        .iter()
        .filter_map(|t| {
            let TranscriptStatus::Drift {
                at,
                expected,
                actual,
                diff,
            } = &t.status
            else {
                return None;
            };
            let frame = t.frame.clone().unwrap_or_default();
            let shown = ListingDiff::SHOWN;
            let removed = diff.iter().filter(|l| l.starts_with('-')).count();
            let added = diff.iter().filter(|l| l.starts_with('+')).count();
            Some(Finding {
 reads: Vec::new(),
 fixable: crate::checks::Fixable::No,
                check: CheckId::TranscriptDrift,
                severity: SEVERITY,
                location: Location::in_record(audit, &t.record, at.clone()),
                fact: None,
                message: if expected == super::compare::END_OF_SHOWN {
                    format!(
                        "`{}` re-run at {frame} prints more than the record shows, from `{actual}` on",
                        crate::escape::untrusted(&t.command, 120)
                    )
                } else {
                    format!(
                        "`{}` re-run at {frame} prints `{actual}` where the record shows `{expected}`",
                        crate::escape::untrusted(&t.command, 120)
                    )
                },
                stated: Some(expected.clone()),
                observed: Some(actual.clone()),
                recipe: None,
                rule: None,
                diff: Some(ListingDiff {
                    added,
                    removed,
                    lines: diff.iter().take(shown).cloned().collect(),
                    more: diff.len().saturating_sub(shown),
                }),
                tier: None,
                label: None,
            })
        })
        .collect()
}
