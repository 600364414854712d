//! Files of the machine that no snapshot serves — a rule file (discovered or named
//! by `--rules`), an include, a baseline — read, and the files a run writes on
//! request (`--write-baseline`, `init`'s draft, `history --chart`): the one place
//! recount opens such a path, so one rule holds for all of them.
//!
//! In CI everything in the checkout is the pull request's, a symbolic link
//! included, and an error about a rule file or a baseline shows the file. So:
//!
//! - A path that lies inside the repository's working tree (as written, with `.`
//!   and `..` folded) may pass through symbolic links only while every link ends
//!   inside the working tree, outside `.git`: `rules/ci.toml -> shared/ci.toml` is
//!   read, `recount.toml -> /proc/self/environ` is refused. A path outside the
//!   tree is the workflow's own file and may be anywhere.
//! - What is read must be a regular file (not a device, a FIFO or a folder), at
//!   most the reader's cap (checked on the size and again while reading, since
//!   `/proc` files report none), and UTF-8 text with no NUL byte.
//! - A file is written only where a regular file or nothing is (never through a
//!   link: the bytes go to a new file beside it, renamed over the path).
//!
//! Every refusal names the path and the rule it broke, and quotes nothing of what
//! the file holds.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::validation::{Body, read_bounded};

/// The most a rule file may hold: hand-written rules are kilobytes, and a claim
/// pattern compiles to many times its size.
pub const RULE_FILE_CAP: usize = 1 << 20;

/// The most a baseline may hold: about 100,000 findings' fingerprints.
pub const BASELINE_CAP: usize = 32 << 20;

/// Why a file was not read or written, in words about the path, which the caller
/// names before it; the file's contents are never part of the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalFileError {
    #[error("it does not exist")]
    Missing,
    #[error(
        "it leads through a symbolic link out of the repository, and recount follows a \
         link only to a file inside the working tree"
    )]
    LeavesRepository,
    #[error("it is inside .git, which holds none of the repository's files")]
    InGit,
    #[error("it is not a regular file")]
    NotRegular,
    #[error("it is a symbolic link, and recount writes through none")]
    WriteThroughLink,
    #[error("it is over the {cap}-byte cap for a {what}")]
    TooLarge { cap: usize, what: &'static str },
    #[error("it is not UTF-8 text")]
    NotText,
    #[error("{0}")]
    Io(String),
}

fn io_error(e: &std::io::Error) -> LocalFileError {
    match e.kind() {
        std::io::ErrorKind::NotFound => LocalFileError::Missing,
        kind => LocalFileError::Io(kind.to_string()),
    }
}

/// A file read under the rule: its text, and the path it resolved to (every link
/// followed), which is its identity (two routes to one file are one file).
#[derive(Debug)]
pub struct LocalText {
    pub text: String,
    pub canonical: PathBuf,
}

/// Reads the text of `path` (relative paths from the current folder) under the
/// rule above; `root` is the repository's working tree (`None` for a bare
/// repository, where nothing on disk is the repository's). `what` names the kind
/// of file in the cap's refusal ("rule file", "baseline").
pub fn read_text(
    path: &Path,
    root: Option<&Path>,
    cap: usize,
    what: &'static str,
) -> Result<LocalText, LocalFileError> {
    let io = |e: std::io::Error| io_error(&e);
    let canonical = std::fs::canonicalize(path).map_err(io)?;
    confine(path, &canonical, root)?;
    let mut file = std::fs::File::open(&canonical).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(LocalFileError::NotRegular);
    }
    let too_large = || LocalFileError::TooLarge { cap, what };
    if meta.len() > cap as u64 {
        return Err(too_large());
    }
    let bytes = match read_bounded(&mut file, cap).map_err(io)? {
        Body::Within(bytes) => bytes,
        Body::Over { .. } => return Err(too_large()),
    };
    if bytes.contains(&0) {
        return Err(LocalFileError::NotText);
    }
    let text = String::from_utf8(bytes).map_err(|_| LocalFileError::NotText)?;
    Ok(LocalText { text, canonical })
}

/// Writes `bytes` to `path` under the rule above: the folder it goes in obeys the
/// read rule, and the path holds a regular file or nothing (a link there is
/// refused, not followed). Written to a new file beside it and renamed over it,
/// so a reader never sees half a file and a link planted between the check and
/// the write is replaced, not followed.
pub fn write(path: &Path, root: Option<&Path>, bytes: &[u8]) -> Result<(), LocalFileError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(LocalFileError::WriteThroughLink);
        }
        Ok(meta) if !meta.is_file() => return Err(LocalFileError::NotRegular),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(&e)),
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let canonical_folder = std::fs::canonicalize(&folder).map_err(|e| io_error(&e))?;
    confine(&folder, &canonical_folder, root)?;
    let name = path.file_name().ok_or(LocalFileError::NotRegular)?;
    let mut staged_name = std::ffi::OsString::from(".");
    staged_name.push(name);
    staged_name.push(format!(".recount-{}.tmp", std::process::id()));
    let staged = canonical_folder.join(staged_name);
    // `create_new` refuses a path that exists, a link included: nothing planted
    // there is written through.
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&staged)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&staged, canonical_folder.join(name)));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&staged);
        return Err(io_error(&e));
    }
    Ok(())
}

/// Refuses a path inside the working tree whose links lead out of it or into
/// `.git`; a path outside the tree is the caller's own and passes.
fn confine(path: &Path, canonical: &Path, root: Option<&Path>) -> Result<(), LocalFileError> {
    let Some(root) = root else {
        return Ok(());
    };
    let written = folded(path);
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| folded(root));
    let inside = [folded(root), canonical_root.clone()]
        .iter()
        .any(|r| written.starts_with(r));
    if !inside {
        return Ok(());
    }
    let Ok(relative) = canonical.strip_prefix(&canonical_root) else {
        return Err(LocalFileError::LeavesRepository);
    };
    if relative
        .components()
        .any(|c| c.as_os_str().eq_ignore_ascii_case(".git"))
    {
        return Err(LocalFileError::InGit);
    }
    Ok(())
}

/// `path` made absolute from the current folder, with `.` and `..` folded as
/// written (no link followed).
fn folded(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (tempfile::TempDir, tempfile::TempDir) {
        let repo = tempfile::tempdir().expect("repo");
        let outside = tempfile::tempdir().expect("outside");
        std::fs::create_dir_all(repo.path().join("rules")).expect("mkdir");
        std::fs::create_dir_all(repo.path().join(".git")).expect("mkdir");
        std::fs::write(repo.path().join("rules/real.toml"), "[recount]\n").expect("write");
        std::fs::write(repo.path().join(".git/config"), "x").expect("write");
        std::fs::write(outside.path().join("secret.toml"), "token = 1\n").expect("write");
        (repo, outside)
    }

    #[test]
    fn a_link_inside_the_tree_to_a_file_inside_it_is_followed() {
        let (repo, _outside) = tree();
        std::os::unix::fs::symlink("rules/real.toml", repo.path().join("recount.toml"))
            .expect("symlink");
        let read = read_text(
            &repo.path().join("recount.toml"),
            Some(repo.path()),
            RULE_FILE_CAP,
            "rule file",
        )
        .expect("read");
        assert_eq!(read.text, "[recount]\n");
        assert!(read.canonical.ends_with("rules/real.toml"));
    }

    #[test]
    fn links_out_of_the_tree_or_into_git_are_refused() {
        let (repo, outside) = tree();
        let root = Some(repo.path());
        std::os::unix::fs::symlink(
            outside.path().join("secret.toml"),
            repo.path().join("a.toml"),
        )
        .expect("symlink");
        std::os::unix::fs::symlink(outside.path(), repo.path().join("rules/out")).expect("link");
        std::os::unix::fs::symlink(".git/config", repo.path().join("b.toml")).expect("link");
        for (name, want) in [
            ("a.toml", "LeavesRepository"),
            ("rules/out/secret.toml", "LeavesRepository"),
            ("rules/../a.toml", "LeavesRepository"),
            ("b.toml", "InGit"),
        ] {
            let error = read_text(&repo.path().join(name), root, RULE_FILE_CAP, "rule file")
                .expect_err(name);
            assert!(format!("{error:?}").starts_with(want), "{name}: {error:?}");
            assert!(!error.to_string().contains("token"), "{error}");
        }
        // The same file named outside the tree is the caller's own.
        let own = read_text(
            &outside.path().join("secret.toml"),
            root,
            RULE_FILE_CAP,
            "rule file",
        );
        assert!(own.is_ok(), "{own:?}");
    }

    #[test]
    fn devices_oversized_files_and_binary_text_are_refused_by_what_they_are() {
        let (repo, _outside) = tree();
        let root = Some(repo.path());
        assert!(matches!(
            read_text(Path::new("/dev/zero"), root, 1024, "baseline"),
            Err(LocalFileError::NotRegular)
        ));
        let big = repo.path().join("big.json");
        std::fs::write(&big, vec![b'a'; 2048]).expect("write");
        let binary = repo.path().join("nul.toml");
        std::fs::write(&binary, b"a = 1\n\0secret").expect("write");
        assert!(matches!(
            read_text(&big, root, 1024, "baseline"),
            Err(LocalFileError::TooLarge { cap: 1024, .. })
        ));
        assert!(matches!(
            read_text(&binary, root, 1024, "baseline"),
            Err(LocalFileError::NotText)
        ));
        assert!(matches!(
            read_text(Path::new("/proc/self/environ"), None, 1 << 20, "rule file"),
            Err(LocalFileError::NotText)
        ));
        assert!(matches!(
            read_text(&repo.path().join("nope.toml"), root, 1024, "rule file"),
            Err(LocalFileError::Missing)
        ));
    }

    #[test]
    fn a_write_replaces_a_file_and_never_goes_through_a_link() {
        let (repo, outside) = tree();
        let root = Some(repo.path());
        let target = repo.path().join("baseline.json");
        write(&target, root, b"one").expect("new file");
        write(&target, root, b"two").expect("replaced");
        assert_eq!(std::fs::read(&target).expect("read"), b"two");
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "keep").expect("write");
        std::os::unix::fs::symlink(&victim, repo.path().join("link.json")).expect("link");
        assert!(matches!(
            write(&repo.path().join("link.json"), root, b"x"),
            Err(LocalFileError::WriteThroughLink)
        ));
        assert!(matches!(
            write(&repo.path().join("rules/out/b.json"), root, b"x"),
            Err(LocalFileError::Missing)
        ));
        std::os::unix::fs::symlink(outside.path(), repo.path().join("rules/out")).expect("link");
        assert!(matches!(
            write(&repo.path().join("rules/out/b.json"), root, b"x"),
            Err(LocalFileError::LeavesRepository)
        ));
        assert_eq!(std::fs::read(&victim).expect("read"), b"keep");
        assert!(!outside.path().join("b.json").exists());
    }
}
