//! Exemption `frozen-docs`, decided where records are chosen (`scope.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "frozen-docs",
    doc: "A record in a shipped documentation version (every `versioned_docs/version-1.2/` of Docusaurus, which writes the current docs elsewhere; an older `content/v0.9/` beside `latest/` or a newer version): the docs as a release shipped them, history. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
