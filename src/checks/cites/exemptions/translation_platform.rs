//! Exemption `translation-platform`, decided where records are chosen (`scope.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "translation-platform",
    doc: "A record a translation platform writes (its config, `crowdin.yml` and the like, names the files): fixed on the platform, not here. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
