//! Exemption `earlier-release`, decided by its resolver (`gather.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "earlier-release",
    doc: "A citation in a changelog's earlier release section, or in an earlier release's own notes file (`release-notes/v1.2.0.md` beside newer ones, `CHANGELOG-1.13.md` beside `CHANGELOG.md`): history nobody revises. The newest release is read at its tag. Counted in one note; the history does not overrule it (it is history).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
