//! Exemption `lint-silenced`, decided by its resolver (`gather.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "lint-silenced",
    doc: "An anchor on a line where the record silences markdownlint's link-fragments rule (MD051): its authors know the page does not show it.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
