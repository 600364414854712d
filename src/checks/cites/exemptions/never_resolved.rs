//! Exemption `never-resolved`, decided by its resolver (`gather.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "never-resolved",
    doc: "A backticked path that did not resolve when the record wrote it, nor at any commit sampled since (the evidence: the trees of the commit that wrote it and after): a typo or not this repository's from the start, not a drift. Off unless a rule file turns it on: a path that was always wrong is still wrong, and on the accuracy corpus such findings (a plan's files never made, a config file's name mistyped) were judged real. A link that never resolved is stale either way: it never worked.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: false,
};
