//! Exemption `never-resolved`, asked by the path evidence
//! (`evidence/paths.rs`) when a stale backticked path did not resolve at the
//! commit that wrote it either: a file a design proposes, a run's output, or
//! not this repository's. It is the history's own verdict, so the history
//! does not overrule it; a link (written on purpose) stays stale.

use super::{Applies, Definition};
use crate::checks::cites::model::Tier;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that did not resolve when the record wrote it — not as written, not under a test root, not as the end of a longer path of that commit's tree — nor at any commit sampled since: a file a design proposes, a run's output, or not this repository's from the start, not a drift. A name one or two edits from a file or folder beside it then is that one mistyped, and stays reported with it as the suggestion (names that differ only in digits are a numbered series, not a typo, unless the same description of two words follows another leading number: `25_add_users.up.sql` for `26_add_users.up.sql` is one item numbered twice). A link that never resolved is stale either way: it never worked. `[cites.exemptions] never-resolved = false` reports such paths too (a mistyped name is then found).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a path that never resolved is set aside, if it is: it was read from a
/// backticked path (`Tier::Inferred`), not written as a link or a test id.
pub(in crate::checks::cites) fn fires(tier: Tier, when: &str) -> Option<String> {
    (tier == Tier::Inferred).then(|| {
        format!(
            "it did not resolve when the record cited it either (at {when}): not made yet, or not this repository's"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_backticked_path() {
        assert!(fires(Tier::Inferred, "abc1234").is_some());
    }

    #[test]
    fn stays_quiet_for_an_explicit_cite() {
        assert_eq!(fires(Tier::Explicit, "abc1234"), None);
    }
}
