//! Exemption `changelog-removal`, in the path chain: the changelog entry
//! around the path says the release removed, renamed or replaced it. The
//! entry is itself the history of the removal: the evidence does not
//! overrule it.

use super::super::releases;
use super::super::scope::is_changelog;
use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    id: "changelog-removal",
    doc: "A backticked path in a changelog entry that says the release removed, renamed or replaced it (\"Removed `lib/old.py`\"): meant to be gone. The entry records the very change that removed it, so the history does not overrule it.",
    applies: Applies::Path,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
    on_by_default: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let context = probe.context;
    (is_changelog(context.record) && releases::entry_removes(context.text, context.at))
        .then(|| "its changelog entry says the release removed, renamed or replaced it".to_owned())
}
