//! Exemption `gitignored`, in both chains (and for line cites): a
//! `.gitignore` on the path's way ignores it, so a build or a run makes it.
//! The tree's own statement, not a reading of prose, and one a checkout that
//! has been built makes true: the history does not overrule it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    id: "gitignored",
    doc: "A path or link that names nothing here and that a `.gitignore` of the tree ignores (the root's or one on its way, the deepest that speaks deciding, as git reads them): a build's or a run's output, never committed. It holds in a built checkout, so the history does not overrule it.",
    applies: Applies::PathOrLink,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
    on_by_default: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    probe.context.ignored(probe.path, probe.is_dir)
}
