//! Exemption `copied-record`, decided where records are chosen (`scope.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "copied-record",
    doc: "A record whose front matter names the repository it was copied from (`source:`, `upstream:`): its citations are of that tree. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
