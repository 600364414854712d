//! Exemption `ambiguous-name`, decided by its resolver (`gather.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "ambiguous-name",
    doc: "A bare file name (`main.py`, `mod.rs:12`) that several files of the tree have, none in the record's folder or a folder above it; which one is meant, if any, is a guess (most likely a reader's file).",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
