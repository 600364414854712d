//! Exemption `never-resolved`, decided by its resolver (`gather.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "never-resolved",
    doc: "A backticked path that did not resolve when the record wrote it — not as written, not under a test root, not as the end of a longer path of that commit's tree — nor at any commit sampled since: a file a design proposes, a run's output, or not this repository's from the start, not a drift. A name one or two edits from a file beside it then is that file mistyped, and stays reported with it as the suggestion (names that differ only in digits are a numbered series, not a typo). A link that never resolved is stale either way: it never worked. `[cites.exemptions] never-resolved = false` reports such paths too (a mistyped name is then found).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
