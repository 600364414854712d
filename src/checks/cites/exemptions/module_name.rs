//! Exemption `module-name`, decided by its resolver (`gather.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "module-name",
    doc: "A dotted test id (`pkg.mod.TestX`) whose module names no file here: a name in code, not a test file of this repository.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
