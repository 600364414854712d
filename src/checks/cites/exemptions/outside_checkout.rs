//! Exemption `outside-checkout`, decided by its resolver (`gather.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "outside-checkout",
    doc: "A path or link that climbs out of the repository (`../shared/x.md` from the root): a path beside a checkout, which recount never reads.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
