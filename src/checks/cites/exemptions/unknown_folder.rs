//! Exemption `unknown-folder`, in the path chain: a folder that names nothing
//! here is as often one a command makes as one of the tree's. A reading of
//! the name: the history overrules it (and a folder the history once had is
//! stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked folder (`src/`, `networks/ci/`) that names nothing here: as often one a command makes or a pattern's example as one of the tree's. Stale when the history behind the snapshot once had it.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    probe.is_dir.then(|| {
        format!(
            "no folder `{}` here and none in its history (one a command makes, or an example?)",
            probe.cited
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_a_folder_the_tree_lacks() {
        let why = fires_for(
            fires,
            &[("src/a.rs", "")],
            "README.md",
            "Output goes to `out/`.",
            "out/",
            "out",
            true,
            false,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_for_a_file() {
        let why = fires_for(
            fires,
            &[("src/a.rs", "")],
            "README.md",
            "See `out/x.txt`.",
            "out/x.txt",
            "out/x.txt",
            false,
            false,
        );
        assert_eq!(why, None);
    }
}
