//! Exemption `bare-name`, in the path chain: a file name with no folder that
//! no file of the tree has. A reading of the name: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked bare file name (`Component.jsx`, `./setup.cfg`) that no file of the tree has: a reader's file or an import specifier as often as one of this repository's. A test id's missing file of such a name (`module.py::function`) is the form of a node id, set aside the same way unless the history had the file.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
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

/// Why a test id's missing file is the form of a node id, if it is: a bare
/// file name (`module.py::function`) no file of the tree has.
pub(in crate::checks::cites) fn test_file(paths: &[String], path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    (!path.contains('/') && !paths.iter().any(|p| p.rsplit('/').next() == Some(name))).then(|| {
        format!(
            "no file of this tree is `{path}`, nor could be (no file of the tree has its name): the form of a node id, or an example's layout"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Vec<String> {
        ["tests/test_a.py", "src/a.py"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect()
    }

    #[test]
    fn fires_for_a_bare_name_no_file_has() {
        assert!(test_file(&tree(), "module.py").is_some());
    }

    #[test]
    fn stays_quiet_for_a_name_the_tree_has_or_a_path_with_a_folder() {
        assert_eq!(test_file(&tree(), "test_a.py"), None);
        assert_eq!(test_file(&tree(), "tests/test_b.py"), None);
    }
}
