//! Exemption `test-material`, decided where records are chosen (`scope.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "test-material",
    doc: "A record under a test folder's fixtures or test data (`tests/data/`, `testdata/`, `fixtures/`): test material, whose links are the test's input, not documentation. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
