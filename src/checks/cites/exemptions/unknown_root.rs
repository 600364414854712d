//! Exemption `unknown-root`, in the path chain: a path whose folder is no
//! folder of this repository. A reading of the tree's shape: the history
//! overrules it (and a path the history once had is stale).

use super::super::context::PathNames;
use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path whose folder is no folder of this repository — not at the root, not under the record's folder, and not deeper when it is specific enough to mean one place (`target/debug/x`, `~/.config/x.toml`, `owner/repo/x`): another root, a build output, or not a path. A test id's missing file under such a folder (`tests/foobar/test_a.py::test_x` where the suite is `testing/`) is an example's layout, set aside the same way. Stale when the history behind the snapshot once had it.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let (folder, _) = probe.path.rsplit_once('/')?;
    let paths = probe.context.frame.snapshot.paths();
    (!probe.is_dir
        && !has_folder(
            probe.context.record,
            folder,
            paths,
            &probe.context.path_names(),
        ))
    .then(|| {
        format!(
            "`{folder}/` is no folder of this repository (another root, a build output, or not a path)"
        )
    })
}

/// Whether `folder` (a path's folder as a record writes it) is a folder of
/// the tree: at the root, under the record's own folder, or deeper when it is
/// specific enough to mean one place (two segments or more, as a record
/// writes `tests/unit/x.py` for `packages/core/tests/unit/x.py`). `names`
/// indexes `paths`: only paths with a folder named as `folder`'s first are
/// searched for it deeper down.
fn has_folder(record: &str, folder: &str, paths: &[String], names: &PathNames) -> bool {
    let beside = record
        .rsplit_once('/')
        .map(|(dir, _)| format!("{dir}/{folder}"));
    if crate::snapshot::has_folder(paths, folder)
        || beside.is_some_and(|b| crate::snapshot::has_folder(paths, &b))
    {
        return true;
    }
    if !folder.contains('/') {
        return false;
    }
    let deeper = format!("/{folder}/");
    let first = folder.split('/').next().unwrap_or(folder);
    let first_deep = format!("/{first}/");
    // A test file under a deeper test folder: a record writes
    // `tests/integration/x.py` for `packages/core/tests/...`.
    let test_folder = ["tests", "test", "spec", "specs"].contains(&first);
    names.named(first, true).iter().any(|&i| {
        paths.get(i).is_some_and(|p| {
            p.contains(deeper.as_str()) || (test_folder && p.contains(first_deep.as_str()))
        })
    })
}

/// Why a test id's missing file is an example's layout, if it is: its
/// first folder is none of the tree's, at the root or under a test root
/// (`tests/foobar/test_a.py` where the suite is `testing/`).
pub(in crate::checks::cites) fn test_file(
    paths: &[String],
    roots: &[String],
    path: &str,
) -> Option<String> {
    let (first, _) = path.split_once('/')?;
    let known = crate::snapshot::has_folder(paths, first)
        || roots
            .iter()
            .any(|root| crate::snapshot::has_folder(paths, &format!("{root}/{first}")));
    (!known).then(|| {
        format!(
            "no file of this tree is `{path}`, nor could be (its first folder is none of the tree's): the form of a node id, or an example's layout"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_of_the_tree_is_found_where_a_reader_looks() {
        let paths = [
            "docs/guide/a.md".to_owned(),
            "packages/core/tests/unit/x.py".to_owned(),
        ];
        let names = PathNames::of(&paths);
        let has_folder = |record, folder| has_folder(record, folder, &paths, &names);
        assert!(has_folder("README.md", "docs/guide"));
        assert!(has_folder("docs/index.md", "guide"));
        assert!(has_folder("README.md", "tests/unit"));
        assert!(has_folder("README.md", "tests/e2e"));
        assert!(!has_folder("README.md", "target/debug"));
        assert!(!has_folder("README.md", "guide"));
        assert!(!has_folder("README.md", "core/tests/e2e"));
    }

    #[test]
    fn fires_for_a_test_file_under_a_folder_the_tree_lacks() {
        let paths = ["testing/test_a.py".to_owned()];
        assert!(test_file(&paths, &[], "tests/foobar/test_a.py").is_some());
    }

    #[test]
    fn stays_quiet_under_a_folder_of_the_tree_or_a_test_root() {
        let paths = [
            "pkg/tests/unit/x.py".to_owned(),
            "testing/test_a.py".to_owned(),
        ];
        assert_eq!(test_file(&paths, &[], "testing/test_b.py"), None);
        assert_eq!(
            test_file(&paths, &["pkg".to_owned()], "tests/unit/y.py"),
            None
        );
        assert_eq!(test_file(&paths, &[], "test_b.py"), None);
    }
}
