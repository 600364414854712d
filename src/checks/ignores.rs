//! After the checks, beside the records' suppressions: the rule files'
//! `[[ignore]]` entries. Each names paths whose findings the team does not act
//! on (`docs/archive/**`), for the checks it lists or for all, with a reason.
//! A finding located under one of them moves from the findings to the
//! suppressed list (SARIF `kind: external`), like a directive's. An entry that
//! hides nothing becomes an `unused-suppression` finding at the entry, since
//! it no longer describes the tree.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::suppress::{Suppressed, SuppressionKind};
use super::{Audit, CheckId, Finding, Location};
use crate::error::Result;
use crate::pathspec::{PathSet, PathSpec, Style};
use crate::source::RuleSource;

/// One `[[ignore]]` entry as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IgnoreRule {
    pub paths: Vec<Spanned<String>>,
    #[serde(default)]
    pub checks: Vec<Spanned<String>>,
    pub reason: Spanned<String>,
}

/// One `[[ignore]]` entry, compiled.
#[derive(Debug)]
pub struct IgnorePlan {
    pub origin: usize,
    /// The whole entry, where an unused one is reported.
    pub span: Range<usize>,
    pub paths: Vec<PathSpec>,
    /// The checks it applies to, each with where it is named; empty: all.
    pub checks: Vec<(CheckId, Range<usize>)>,
    pub reason: String,
}

impl IgnorePlan {
    /// Compiles an entry: every glob, every check id (a located error, with a
    /// did-you-mean, for one recount does not have), and a reason that says
    /// something.
    pub fn resolve(
        origin: usize,
        rule: &Spanned<IgnoreRule>,
        source: &RuleSource,
    ) -> Result<IgnorePlan> {
        let entry = rule.get_ref();
        let paths = entry
            .paths
            .iter()
            .map(|p| PathSpec::from_rule(p.get_ref(), Style::Glob, source, p.span()))
            .collect::<Result<Vec<_>>>()?;
        let mut checks = Vec::new();
        for id in &entry.checks {
            let check = crate::checks::check_id(source, id)?;
            checks.push((check, id.span()));
        }
        if entry.reason.get_ref().trim().is_empty() {
            return Err(source.error(
                entry.reason.span(),
                "an `[[ignore]]` needs a reason",
                "says nothing",
            ));
        }
        Ok(IgnorePlan {
            origin,
            span: rule.span(),
            paths,
            checks,
            reason: entry.reason.get_ref().clone(),
        })
    }

    /// Whether the entry applies to findings of `check` (its paths aside).
    fn covers_check(&self, check: CheckId) -> bool {
        self.checks.is_empty() || self.checks.iter().any(|(c, _)| *c == check)
    }
}

/// Moves each finding an entry covers to `suppressed`, and adds an
/// `unused-suppression` finding for each entry (or each check an entry lists)
/// that hid nothing. Findings of the unused check itself are never hidden.
pub fn apply(
    audit: &Audit,
    findings: Vec<Finding>,
    suppressed: &mut Vec<Suppressed>,
) -> Vec<Finding> {
    if audit.ignores.is_empty() {
        return findings;
    }
    let mut used: std::collections::BTreeSet<(usize, Option<CheckId>)> =
        std::collections::BTreeSet::new();
    let mut kept = Vec::with_capacity(findings.len());
    // Every entry's globs as one set, each finding's path matched once: ten
    // thousand entries cost one pass per path, not ten thousand.
    let mut entry_of_spec: Vec<usize> = Vec::new();
    let set = PathSet::of(audit.ignores.iter().enumerate().flat_map(|(index, entry)| {
        entry_of_spec.extend(std::iter::repeat_n(index, entry.paths.len()));
        entry.paths.iter()
    }));
    let mut entries_at: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for finding in findings {
        let by = if finding.check == CheckId::UnusedSuppression {
            None
        } else {
            let entries = entries_at
                .entry(finding.location.path.clone())
                .or_insert_with(|| {
                    let mut entries: Vec<usize> = set
                        .matching(&finding.location.path)
                        .into_iter()
                        .filter_map(|spec| entry_of_spec.get(spec).copied())
                        .collect();
                    entries.dedup();
                    entries
                });
            // The first entry, in the rule files' order, whose checks it is.
            entries.iter().copied().find(|&index| {
                audit
                    .ignores
                    .get(index)
                    .is_some_and(|entry| entry.covers_check(finding.check))
            })
        };
        let Some(index) = by else {
            kept.push(finding);
            continue;
        };
        let Some(entry) = audit.ignores.get(index) else {
            kept.push(finding);
            continue;
        };
        used.insert((index, (!entry.checks.is_empty()).then_some(finding.check)));
        suppressed.push(Suppressed {
            reason: entry.reason.clone(),
            directive: Location::in_rule(audit, entry.origin, entry.span.clone()),
            kind: SuppressionKind::External,
            fingerprint: String::new(),
            finding,
        });
    }
    if !audit.runs(CheckId::UnusedSuppression) {
        return kept;
    }
    for (index, entry) in audit.ignores.iter().enumerate() {
        let unused: Vec<(Option<CheckId>, Range<usize>)> = if entry.checks.is_empty() {
            if used.contains(&(index, None)) {
                Vec::new()
            } else {
                vec![(None, entry.span.clone())]
            }
        } else {
            entry
                .checks
                .iter()
                // A check switched off finds nothing to hide.
                .filter(|(c, _)| audit.runs(*c) && !used.contains(&(index, Some(*c))))
                .map(|(c, span)| (Some(*c), span.clone()))
                .collect()
        };
        for (check, span) in unused {
            let what = match check {
                Some(c) => format!("`{}` findings", c.as_str()),
                None => "findings".to_owned(),
            };
            kept.push(crate::checks::unused_suppression::finding(
                Location::in_rule(audit, entry.origin, span),
                format!(
                    "this `[[ignore]]` hides no {what} under its paths at {}: delete it, or fix its paths",
                    audit.snapshot_label
                ),
            ));
        }
    }
    kept
}
