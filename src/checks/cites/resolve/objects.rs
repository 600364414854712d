//! Stage 4, the citation family's Python object resolver: a Sphinx role's
//! object (`:func:`pkg.mod.run``) against the repository's packages at the
//! frame, read statically; what it cannot find asks the registry
//! (`intersphinx`, `unresolved-object`), and the history decides the rest
//! (`evidence/labels.rs`).

use std::sync::Arc;

use crate::checks::cites::context::Context;
use crate::checks::cites::exemptions::{Exemption, intersphinx, unresolved_object};
use crate::checks::cites::model::CiteStatus;
use crate::checks::cites::pyobjects::{ObjectFate, PythonTree};

/// A Python role's object: found by the static reading, another project's,
/// or set aside for the history to decide.
pub(super) fn resolve_object(context: &Context<'_>, role: &str, names: &[String]) -> CiteStatus {
    let frame = context.frame;
    let mut trees = context.reads.python.borrow_mut();
    let tree = trees
        .entry(frame.label.clone())
        .or_insert_with(|| PythonTree::new(Arc::clone(&frame.snapshot)));
    let written = names.last().map(String::as_str).unwrap_or_default();
    let mut ours = false;
    for name in names {
        match tree.fate(name) {
            ObjectFate::Defined(at) => return CiteStatus::Ok { resolved: at },
            ObjectFate::Undefined => ours = true,
            ObjectFate::NotOurs | ObjectFate::Foreign(_) => {}
        }
    }
    // Written unqualified under a `.. module::` (`str`, `count`): the current
    // module's name first, as Sphinx searches, else another project's.
    let guessed = names.len() > 1 && !tree.owns(written);
    *context.found.objects.borrow_mut() = Some(names.to_vec());
    let exemptions = context.exemptions;
    exemptions
        .ask(Exemption::Intersphinx, || {
            intersphinx::object(ours, written, role)
                .or_else(|| intersphinx::standard_library(guessed, written, role))
        })
        .or_else(|| {
            exemptions.ask(Exemption::UnresolvedObject, || {
                unresolved_object::fires(names, guessed, role, &frame.label)
            })
        })
        .unwrap_or_else(|| {
            CiteStatus::stale(format!(
                "no module of this repository's packages defines `{written}` at {}",
                frame.label
            ))
        })
}
