//! Exemption `vendored`, decided where records are chosen (`scope.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "vendored",
    doc: "A record of vendored code (`vendor/`, `third_party/`, `node_modules/`, `_vendor/`, or a folder under another holder's licence): another project's documentation, citing its own tree. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
