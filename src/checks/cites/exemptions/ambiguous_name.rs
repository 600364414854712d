//! Exemption `ambiguous-name`, asked by the path and line resolvers: a bare
//! file name several files of the tree have, none on the record's way to the
//! root, names no one of them surely. A reading of the tree's shape: the
//! history overrules it.

use super::{Applies, Definition};
use crate::checks::cites::locate::on_the_way;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A bare file name (`main.py`, `mod.rs:12`) that several files of the tree have, none in the record's folder or a folder above it, and none that the page writes in full elsewhere (`pkg/types/x.go` beside a later `x.go` names that one); which one is meant, if any, is a guess (most likely a reader's file).",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a backticked bare name (`main.py`) that these paths end with is a
/// guess, if it is: more than one, none in the record's folders.
pub(in crate::checks::cites) fn among_files(
    record: &str,
    cited: &str,
    matches: &[String],
) -> Option<String> {
    (!cited.trim_start_matches("./").contains('/')
        && matches.len() > 1
        && !matches.iter().any(|m| on_the_way(record, m)))
    .then(|| {
        format!(
            "{} files are named `{cited}`, none in this record's folders: which one, if any, is meant? (a reader's file?)",
            matches.len()
        )
    })
}

/// Why a line cite's bare file name (`mod.rs:12`) is a guess, if it is: the
/// files of that name, none on the record's way to the root.
pub(in crate::checks::cites) fn among_line_files(
    record: &str,
    path: &str,
    files: &[String],
) -> Option<String> {
    (!path.contains('/') && files.len() > 1 && !files.iter().any(|f| on_the_way(record, f))).then(|| {
        format!(
            "several files are named `{path}`, none in this record's folders: which one, if any, is meant?"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn fires_for_a_name_several_far_folders_have() {
        let far = files(&["a/main.py", "b/main.py"]);
        assert!(among_files("docs/guide.md", "main.py", &far).is_some());
        assert!(among_line_files("docs/guide.md", "main.py", &far).is_some());
    }

    #[test]
    fn stays_quiet_for_one_file_a_near_one_or_a_folder() {
        assert_eq!(
            among_files("docs/guide.md", "main.py", &files(&["a/main.py"])),
            None
        );
        let near = files(&["docs/main.py", "b/main.py"]);
        assert_eq!(among_files("docs/guide.md", "main.py", &near), None);
        assert_eq!(among_line_files("docs/guide.md", "main.py", &near), None);
        let far = files(&["x/a/main.py", "y/a/main.py"]);
        assert_eq!(among_files("docs/guide.md", "a/main.py", &far), None);
    }
}
