//! Exemption `label-elsewhere`, decided by its resolver (`labels.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "label-elsewhere",
    doc: "A `:ref:` label no page of the Sphinx project defines (no `.. _label:` target, `:name:` option, MyST `(label)=`, or section title under autosectionlabel): one a docstring, an extension or a generated page defines, which recount does not build. Stale when the project's pages defined it when the record cited it.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
