//! Exemption `foreign-line`, decided by its resolver (`gather.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "foreign-line",
    doc: "A line cite (`.../websocket.go:137`) whose file name no file of the tree has and whose path names no folder of it: a line of another repository (a log line, a dependency's source).",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
