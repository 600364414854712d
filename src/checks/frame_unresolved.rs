//! Check `frame-unresolved`: a frame (a rule's `at`, a record's "measured at")
//! that names no commit this clone can read. Everything measured there is
//! unverified — not computed, not compared — and the rest of the audit runs.

use std::collections::BTreeMap;

use super::{CheckId, Finding, Location, Severity};
use crate::checks::audited::{Audit, Unverified};
use crate::checks::cites::CiteStatus;
use crate::checks::transcripts::TranscriptStatus;
use crate::frames::FrameSite;

const EXPLAIN: &str = "\
frame-unresolved: a frame names no commit this clone can read

What it checks
  Every frame a rule names (`at = \"be977ea7\"`, `at = { date = \"2026-09-13\" }`)
  and every frame a record names (\"measured at be977ea7\", \"measured on
  2026-09-13\") must resolve to a commit in the clone recount reads. One finding
  per frame and file, saying why it does not resolve (not in this clone: the
  clone is shallow; unknown object: squash-merged, rebased or mistyped; an
  ambiguous prefix; a date before the main line's first commit) and listing what
  the frame holds: the facts measured there, and the line numbers and
  transcripts of the part of the record it governs. Those are unverified: not
  computed, not compared, not passed. A record's day that no commit here
  reaches, with nothing measured under it (\"as of 2023-06-06, the tests …\" in
  a shallow clone), is not reported: it anchors nothing. A record's test and
  path citations are not: they name what a reader opens today and are read at
  the audited tree, whatever frame their passage was measured at. A commit
  gone for good (unknown object) is stood in for by the commit of the audited
  line that wrote its id into the record or rule file, with a note; unless
  that commit also wrote other gone commits there, when it stands in for none
  and the frame is reported. A record's \"measured on DATE against SHA\" falls
  back to the date only when no commit wrote the passage yet.

Why
  Squash merges, rebased branches and shallow CI clones are normal, and they
  take a record's measured-at commit with them. A gate that stops there checks
  nothing else; a gate that skips it silently passes figures nobody recomputed.

Example
  ## Throughput
  Measured at `be977ea7`: the parser keeps 5 buffers (src/buf.rs:40).
  be977ea7 was on a branch that was squash-merged: frame-unresolved at the sha;
  the line cite under it is unverified.

How to fix
  In CI, fetch the full history (`fetch-depth: 0` for actions/checkout). For a
  commit that is gone, re-anchor the figure to the commit on the main line that
  carries the same tree (the squashed commit), or write the day instead: a rule's
  `at = { date = \"2026-09-13\" }`, a record's \"measured on 2026-09-13\".
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: an error — what the frame holds could not be verified.
pub const SEVERITY: Severity = Severity::Error;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "this frame does not resolve".to_owned()
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    // One finding per frame and file: the first place it is named there.
    let mut first: BTreeMap<(String, String), Finding> = BTreeMap::new();
    for frame in &audit.frames {
        let (None, Some(failure)) = (&frame.commit, &frame.failure) else {
            continue;
        };
        let location = match &frame.site {
            FrameSite::Rule { origin, span } => Location::in_rule(audit, *origin, span.clone()),
            FrameSite::Record { path, span } => Location::in_record(audit, path, span.clone()),
        };
        let key = (location.path.clone(), frame.rev.clone());
        if first.contains_key(&key) {
            continue;
        }
        let holds = holds(audit, &frame.site, &location.path, &frame.rev);
        // A record's day ("as of 2023-06-06, …") that no commit here reaches
        // (a shallow clone, a day before the first commit) and under which
        // nothing is measured names no anchor a reader follows: nothing to
        // report. A commit id that is gone is a broken anchor either way.
        let nothing_held = holds.starts_with("nothing measured");
        if nothing_held
            && matches!(frame.site, FrameSite::Record { .. })
            && crate::snapshot::Day::parse(&frame.rev).is_some()
        {
            continue;
        }
        first.insert(
            key,
            Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::FrameUnresolved,
                severity: SEVERITY,
                location,
                fact: None,
                message: format!(
                    "the frame `{}` does not resolve: {}; {holds}",
                    frame.rev,
                    failure.explain(&frame.rev)
                ),
                stated: Some(frame.rev.clone()),
                observed: None,
                recipe: None,
                rule: None,
                diff: None,
                tier: None,
                label: None,
            },
        );
    }
    first.into_values().collect()
}

/// What the frame holds, unverified: the facts a rule file measures there (and
/// the facts that read them), or the cites under a record's sections.
fn holds(audit: &Audit, site: &FrameSite, path: &str, rev: &str) -> String {
    match site {
        FrameSite::Rule { .. } => {
            let framed: Vec<&str> = audit
                .unverified
                .iter()
                .filter(|f| {
                    matches!(&f.why, Unverified::Frame { rev: r, .. } if r == rev)
                        && audit.source_paths.get(f.origin).map(String::as_str) == Some(path)
                })
                .map(|f| f.id.as_str())
                .collect();
            let readers: Vec<&str> = audit
                .unverified
                .iter()
                .filter(
                    |f| matches!(&f.why, Unverified::Fact { id } if framed.contains(&id.as_str())),
                )
                .map(|f| f.id.as_str())
                .collect();
            let mut text = format!(
                "unverified: {} measured there ({})",
                plural(framed.len(), "fact"),
                quoted(&framed)
            );
            if !readers.is_empty() {
                text.push_str(&format!(
                    ", and {} reading them ({})",
                    plural(readers.len(), "fact"),
                    quoted(&readers)
                ));
            }
            text
        }
        FrameSite::Record { .. } => {
            let mut held: Vec<&str> = audit
                .families
                .cites
                .iter()
                .filter(|c| {
                    c.record == path
                        && c.frame == rev
                        && matches!(c.status, CiteStatus::Unverified { .. })
                })
                .map(|c| c.text.as_str())
                .collect();
            let cites = held.len();
            held.extend(
                audit
                    .families
                    .transcripts
                    .iter()
                    .filter(|t| {
                        t.record == path
                            && matches!(&t.status, TranscriptStatus::Unverified { why }
                                if why.starts_with("the frame of its passage")
                                    && why.contains(&format!("`{rev}`")))
                    })
                    .map(|t| t.command.as_str()),
            );
            let transcripts = held.len() - cites;
            match (cites, transcripts) {
                (0, 0) => "nothing measured under it depends on it (citations are read at the \
                           audited tree)"
                    .to_owned(),
                (c, 0) => format!(
                    "unverified: {} under it ({})",
                    plural(c, "line cite"),
                    quoted(&held)
                ),
                (0, t) => format!(
                    "unverified: {} under it ({})",
                    plural(t, "transcript"),
                    quoted(&held)
                ),
                (c, t) => format!(
                    "unverified: {} and {} under it ({})",
                    plural(c, "line cite"),
                    plural(t, "transcript"),
                    quoted(&held)
                ),
            }
        }
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn quoted(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
