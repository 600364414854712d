//! Check `config-unmatched`: configuration that matches nothing in the audited
//! snapshot — a `[[cites.expect]]` entry no cite meets, a `[constants]` entry
//! whose file is not there, a `[[retired]]` `in` glob or a `[[bounds]]`
//! `schemas` glob that selects no file. Such an entry checks nothing, silently;
//! this check says so, at the entry in its rule file.

use std::ops::Range;

use crate::checks::audited::Audit;
use crate::checks::cites::ResolvedCite;
use crate::checks::family_inputs::{FamilyInputs, UnmatchedPart};
use crate::checks::{CheckId, Finding, Location, Severity};
use crate::pathspec::select;

const EXPLAIN: &str = "\
config-unmatched: a rule-file entry matches nothing, so it checks nothing

What it checks
  Every entry of a rule file that names things in the repository must find
  one in the audited snapshot: a `[[cites.expect]]` entry must apply to a line
  cite some record makes (the rule may write the full repository path where
  the record writes a shorter one, under a `[cites] test_roots` folder or as
  the tail of a longer path); a `[constants]` entry's file must exist; each
  glob of a `[[retired]]` entry's `in`, and a `[[bounds]]` entry's `schemas`,
  must select at least one file.

Why
  Configuration that matches nothing is a check that cannot fail: a record
  reworded, a file moved or a glob mistyped switches it off with no word. The
  principle that rewording a record must never switch a check off holds for
  the rules as much as for the claims.

Example
  `[[cites.expect]]` says `cite = \"src/pkg/limits.py:12\"` must contain
  `MAX_ITEMS`, but the record now cites `src/pkg/limits.py:14`: the entry
  applies to no cite, and config-unmatched points at its `cite`.

How to fix
  Point the entry at what it means now (the cite as the record writes it, the
  constant's new file, the glob's new folder), or delete it if what it
  checked is gone on purpose.
";

pub fn explain() -> &'static str {
    EXPLAIN
}

/// Default severity: a warning — the rule file, not a record, is out of step,
/// and what the entry meant is a guess recount cannot make.
pub const SEVERITY: Severity = Severity::Warning;

/// The words under the finding's span in a human diagnostic.
pub fn label(_: &Finding) -> String {
    "matches nothing".to_owned()
}

/// A rule-file entry that matched nothing: where it is, and what it missed.
#[derive(Debug, Clone)]
pub struct Unmatched {
    pub origin: usize,
    pub span: Range<usize>,
    pub message: String,
}

/// Every entry of the plan that matches nothing in the audited snapshot;
/// `cites` are the run's resolved citations (which `[[cites.expect]]` entry
/// applied to each).
pub(crate) fn gather(
    inputs: &FamilyInputs<'_, '_, UnmatchedPart<'_>>,
    cites: &[ResolvedCite],
) -> Vec<Unmatched> {
    let plan = inputs.plan;
    let frame = inputs.frames.audited();
    let paths = frame.snapshot.paths();
    let at = &frame.label;
    let mut unmatched = Vec::new();

    let settings = plan.cites;
    for (index, e) in settings.expect.iter().enumerate() {
        if cites.iter().any(|c| c.expect == Some(index)) {
            continue;
        }
        let why = if settings.enabled {
            "no record cites these lines".to_owned()
        } else {
            "the citation checks are off (`[cites] enabled = false`)".to_owned()
        };
        unmatched.push(Unmatched {
            origin: e.origin,
            span: e.span.clone(),
            message: format!(
                "`[[cites.expect]]` `{}` applies to no cite at {at}: {why}",
                e.cite
            ),
        });
    }

    for (name, decl) in plan.constants {
        if paths.binary_search(&decl.file).is_err() {
            unmatched.push(Unmatched {
                origin: decl.origin,
                span: decl.span.clone(),
                message: format!(
                    "`[constants]` `{name}` names {}, which is not in the snapshot at {at}",
                    decl.file
                ),
            });
        }
    }

    for retired in plan.retired {
        for glob in &retired.files {
            if select(paths, std::slice::from_ref(glob), &[]).is_empty() {
                unmatched.push(Unmatched {
                    origin: retired.origin,
                    span: retired.files_span.clone(),
                    message: format!(
                        "`[[retired]]` `{}`: `in` glob `{}` selects no file at {at}",
                        retired.id, glob.text
                    ),
                });
            }
        }
    }

    for bounds in plan.bounds {
        if select(paths, std::slice::from_ref(&bounds.schemas), &[]).is_empty() {
            unmatched.push(Unmatched {
                origin: bounds.origin,
                span: bounds.schemas_span.clone(),
                message: format!(
                    "`[[bounds]]` `schemas` glob `{}` selects no file at {at}",
                    bounds.schemas.text
                ),
            });
        }
    }
    unmatched
}

pub fn run(audit: &Audit) -> Vec<Finding> {
    audit
        .families
        .unmatched
        .iter()
        .map(|u| {
            let location = Location::in_rule(audit, u.origin, u.span.clone());
            Finding {
                reads: Vec::new(),
                fixable: crate::checks::Fixable::No,
                check: CheckId::ConfigUnmatched,
                severity: SEVERITY,
                location: location.clone(),
                fact: None,
                message: u.message.clone(),
                stated: None,
                observed: None,
                recipe: None,
                rule: Some(location),
                diff: None,
                tier: None,
                label: None,
            }
        })
        .collect()
}
