//! `recount fix --write`: a record's edits written into the working tree, and
//! nothing else. The path is the finding's, which the checkout controls, so it
//! is taken as a record path of the tree and no further: relative, no `..`, no
//! `.git`, no symbolic link anywhere on the way, a regular file at the end. The
//! file must still hold, byte for byte, the text the edits were computed
//! against (a record edited since recount read it is refused, never merged),
//! and the new text goes to a file beside it renamed over it
//! ([`crate::local_file::write`]), its permissions kept. Edits replace bytes,
//! so line endings and everything around them stay as they were.

use std::path::{Component, Path};

use super::FileEdits;

/// Why a record was not written. The message names the path's rule, never
/// its contents.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteRefused {
    #[error("it is not a path of the working tree (absolute, `..` or inside .git)")]
    NotInTree,
    #[error("it leads through a symbolic link, and fix writes through none")]
    ThroughLink,
    #[error("it is not a regular file")]
    NotRegular,
    #[error("it changed since recount read it: run `recount fix` again")]
    Changed,
    #[error("{0}")]
    Io(String),
}

/// Writes `file`'s edits to the record at its path under `root` (the working
/// tree), under the rule above.
pub fn write(root: &Path, file: &FileEdits) -> Result<(), WriteRefused> {
    let relative = Path::new(&file.path);
    let plain = relative.components().all(|c| match c {
        Component::Normal(name) => !name.eq_ignore_ascii_case(".git"),
        _ => false,
    });
    if !plain || file.path.is_empty() {
        return Err(WriteRefused::NotInTree);
    }
    // Every folder on the way, and the file, as themselves: a link is refused
    // wherever it is, even one that stays inside the tree.
    let mut at = root.to_path_buf();
    for component in relative.components() {
        at.push(component);
        let meta = std::fs::symlink_metadata(&at).map_err(|e| io(&e))?;
        if meta.file_type().is_symlink() {
            return Err(WriteRefused::ThroughLink);
        }
    }
    let meta = std::fs::symlink_metadata(&at).map_err(|e| io(&e))?;
    if !meta.is_file() {
        return Err(WriteRefused::NotRegular);
    }
    let expected = file.before.as_bytes();
    let mut reader = std::fs::File::open(&at).map_err(|e| io(&e))?;
    // One byte past what the edits were computed against tells a grown file.
    let now =
        match crate::validation::read_bounded(&mut reader, expected.len()).map_err(|e| io(&e))? {
            crate::validation::Body::Within(bytes) => bytes,
            crate::validation::Body::Over { .. } => return Err(WriteRefused::Changed),
        };
    if now != expected {
        return Err(WriteRefused::Changed);
    }
    crate::local_file::write(&at, Some(root), file.after().as_bytes())
        .map_err(|why| WriteRefused::Io(why.to_string()))?;
    std::fs::set_permissions(&at, meta.permissions()).map_err(|e| io(&e))?;
    Ok(())
}

fn io(e: &std::io::Error) -> WriteRefused {
    WriteRefused::Io(e.kind().to_string())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::checks::CheckId;
    use crate::fix::Edit;

    fn edits(path: &str, before: &str) -> FileEdits {
        let offset = before.find("old.md").expect("stated");
        FileEdits {
            path: path.to_owned(),
            before: Arc::from(before),
            edits: vec![Edit {
                check: CheckId::StalePathCite,
                line: 1,
                offset,
                length: "old.md".len(),
                stated: "old.md".to_owned(),
                replacement: "new.md".to_owned(),
            }],
        }
    }

    #[test]
    fn a_record_is_rewritten_with_its_line_endings_and_mode() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("root");
        std::fs::create_dir(root.path().join("docs")).expect("mkdir");
        let text = "# Guide\r\n\r\nSee [it](old.md).\r\n";
        let path = root.path().join("docs/guide.md");
        std::fs::write(&path, text).expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("mode");
        write(root.path(), &edits("docs/guide.md", text)).expect("written");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "# Guide\r\n\r\nSee [it](new.md).\r\n"
        );
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_record_edited_since_it_was_read_is_refused_and_left_alone() {
        let root = tempfile::tempdir().expect("root");
        let read = "See [it](old.md).\n";
        let now = "See [it](old.md).\nA line added by hand.\n";
        std::fs::write(root.path().join("guide.md"), now).expect("write");
        let refused = write(root.path(), &edits("guide.md", read));
        assert_eq!(refused, Err(WriteRefused::Changed));
        let shorter = "See [it](old.md)";
        std::fs::write(root.path().join("guide.md"), shorter).expect("write");
        assert_eq!(
            write(root.path(), &edits("guide.md", read)),
            Err(WriteRefused::Changed)
        );
        assert_eq!(
            std::fs::read_to_string(root.path().join("guide.md")).expect("read"),
            shorter
        );
    }

    #[test]
    fn links_git_and_paths_out_of_the_tree_are_refused() {
        let root = tempfile::tempdir().expect("root");
        let outside = tempfile::tempdir().expect("outside");
        let text = "See [it](old.md).\n";
        std::fs::write(outside.path().join("guide.md"), text).expect("write");
        std::os::unix::fs::symlink(outside.path(), root.path().join("docs")).expect("link");
        std::os::unix::fs::symlink(
            outside.path().join("guide.md"),
            root.path().join("linked.md"),
        )
        .expect("link");
        std::fs::create_dir(root.path().join(".git")).expect("mkdir");
        std::fs::write(root.path().join(".git/notes.md"), text).expect("write");
        for (path, refusal) in [
            ("docs/guide.md", WriteRefused::ThroughLink),
            ("linked.md", WriteRefused::ThroughLink),
            (".git/notes.md", WriteRefused::NotInTree),
            ("../guide.md", WriteRefused::NotInTree),
            ("/etc/passwd", WriteRefused::NotInTree),
        ] {
            assert_eq!(
                write(root.path(), &edits(path, text)),
                Err(refusal),
                "{path}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(outside.path().join("guide.md")).expect("read"),
            text
        );
    }
}
