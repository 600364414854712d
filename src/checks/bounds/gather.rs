//! Scans the schemas each `[[bounds]]` entry names for bound keywords and pairs
//! every bound with its pin and the pin's constant, for the `unpinned-bound` and
//! `stale-pin` checks.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
use std::sync::Arc;

use super::find::{Bound, SchemaDoc, find_bounds, scan_local_refs};
use crate::constants::Constant;
use crate::error::{Error, Result};
use crate::facts::Env;
use crate::audit::FamilyInputs;
use crate::snapshot::pathspec::select;

/// A pin and what it found.
#[derive(Debug, Clone)]
pub struct PinOutcome {
    pub origin: usize,
    /// Span of the pin's `bound` in the rule file.
    pub span: Range<usize>,
    pub file: String,
    pub pointer: String,
    pub constant: Constant,
    /// The bound at the pinned location, if it still exists.
    pub bound: Option<Bound>,
}

/// One `[[bounds]]` entry's result.
#[derive(Debug, Clone)]
pub struct BoundsOutcome {
    pub origin: usize,
    pub keywords: Vec<String>,
    pub unpinned: Vec<Bound>,
    pub pins: Vec<PinOutcome>,
}

pub(crate) fn gather(inputs: &mut FamilyInputs<'_, '_>) -> Result<Vec<BoundsOutcome>> {
    let frame = &*inputs.frames.audited();
    let FamilyInputs {
        plan, files, notes, ..
    } = inputs;
    let mut outcomes = Vec::new();
    for rule in &plan.bounds {
        let origin = &rule.origin;
        let source = &plan.sources[*origin];
        let mut wanted: VecDeque<String> = select(
            frame.snapshot.paths(),
            std::slice::from_ref(&rule.schemas),
            &[],
        )
        .into_iter()
        .map(str::to_owned)
        .collect();
        // The schemas, and (when asked) every schema they reach through local $refs.
        let mut texts: BTreeMap<String, Arc<str>> = BTreeMap::new();
        while let Some(path) = wanted.pop_front() {
            if texts.contains_key(&path) {
                continue;
            }
            let Some(text) = frame
                .snapshot
                .read_text(&path)
                .map_err(|e| Error::plain(format!("cannot read {path}: {e}")))?
            else {
                notes.push(format!(
                    "{path} is referenced by a scanned schema but is not a text file at {}",
                    frame.label
                ));
                continue;
            };
            if rule.follow_refs {
                let refs = scan_local_refs(&SchemaDoc {
                    path: &path,
                    text: &text,
                })
                .map_err(|e| {
                    source
                        .error(
                            rule.schemas_span.clone(),
                            format!("{} is not valid JSON", e.path),
                            "selects it",
                        )
                        .with_help(e.to_string())
                })?;
                for escaping in &refs.escaping {
                    notes.push(format!(
                        "{path}:{}:{}: $ref {} leaves the repository; not followed",
                        escaping.line, escaping.column, escaping.reference
                    ));
                }
                for target in refs.refs {
                    if frame.snapshot.paths().binary_search(&target).is_ok() {
                        wanted.push_back(target);
                    } else {
                        notes.push(format!(
                            "{path}: $ref {target} names no file at {}",
                            frame.label
                        ));
                    }
                }
            }
            texts.insert(path, text);
        }
        let docs: Vec<SchemaDoc<'_>> = texts
            .iter()
            .map(|(path, text)| SchemaDoc { path, text })
            .collect();
        let keywords = rule.keywords.clone();
        let bounds = find_bounds(&docs, &keywords).map_err(|e| {
            source
                .error(
                    rule.schemas_span.clone(),
                    format!("{} is not valid JSON", e.path),
                    "selects it",
                )
                .with_help(e.to_string())
        })?;
        let lookup = |_: &str| None;
        let env = Env {
            frame,
            source,
            declared: &plan.constants,
            fact_value: &lookup,
        };
        let mut pinned: BTreeSet<(String, String)> = BTreeSet::new();
        let mut pins = Vec::with_capacity(rule.pins.len());
        for pin in &rule.pins {
            let (file, pointer) = (pin.file.as_str(), pin.pointer.as_str());
            let constant = crate::facts::constant::resolve(
                &env,
                pin.constant.get_ref(),
                pin.constant_file.as_deref(),
                pin.constant.span(),
            )?;
            let bound = bounds
                .iter()
                .find(|b| b.path == file && b.pointer == pointer)
                .cloned();
            pinned.insert((file.to_owned(), pointer.to_owned()));
            pins.push(PinOutcome {
                origin: *origin,
                span: pin.span.clone(),
                file: file.to_owned(),
                pointer: pointer.to_owned(),
                constant,
                bound,
            });
        }
        let unpinned = bounds
            .into_iter()
            .filter(|b| !pinned.contains(&(b.path.clone(), b.pointer.clone())))
            .collect();
        for (path, text) in texts {
            files.insert(path, text);
        }
        outcomes.push(BoundsOutcome {
            origin: *origin,
            keywords,
            unpinned,
            pins,
        });
    }
    Ok(outcomes)
}
