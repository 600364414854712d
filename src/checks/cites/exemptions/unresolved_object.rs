//! Exemption `unresolved-object`, decided by its resolver (`pyobjects.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "unresolved-object",
    doc: "A Python role's object (`:func:`pkg.mod.run``) under one of the repository's packages that a static reading of its modules does not find (a name made at import time, by `__getattr__`, by a decorator, or in a compiled extension). Stale when the same reading found it at the commit that wrote the cite.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
