//! Exemption `bare-name`, in the path chain: a file name with no folder that
//! no file of the tree has. A reading of the name: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    id: "bare-name",
    doc: "A backticked bare file name (`Component.jsx`, `./setup.cfg`) that no file of the tree has: a reader's file or an import specifier as often as one of this repository's. A test id's missing file of such a name (`module.py::function`) is the form of a node id, set aside the same way unless the history had the file.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
    on_by_default: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    // `./Component.jsx` names no folder: it is as bare as `Component.jsx`.
    // `../dist` from `build-project/` is as bare once read: `dist`.
    let bare = !probe.cited.trim_start_matches("./").contains('/') || !probe.path.contains('/');
    (!probe.is_dir && bare).then(|| {
        format!(
            "no file of this repository is named `{}` (a reader's file?)",
            probe.cited
        )
    })
}
