//! `recount fix --write`: a record's edits written into the working tree, and
//! nothing else. The path is the finding's, which the checkout controls, so it
//! is taken as a record path of the tree and no further: relative, no `..`, no
//! `.git`, no symbolic link anywhere on the way, a regular file at the end. The
//! file must still hold, byte for byte, the text the edits were computed
//! against (a record edited since recount read it is refused, never merged),
//! and the new text goes to a file beside it renamed over it, its
//! permissions kept. Edits replace bytes, so line endings and everything
//! around them stay as they were.
//!
//! The file beside it ([`Staged`]) is created new (`O_EXCL`: never opened if
//! something is there, a planted link included) under a name no one can
//! guess (`.<record>.recount-<random>.tmp`), and removed on every way out
//! that does not rename it into place: a refusal, an error, a panic. A file
//! already at any such name is someone else's, and is never touched.

use std::ffi::{OsStr, OsString};
use std::io::Write;
#[cfg(not(unix))]
use std::path::PathBuf;
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
    #[error(
        "it is not UTF-8 text: recount read it with U+FFFD in place of each bad sequence, \
         and writes none of that back"
    )]
    NotUtf8,
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
    let mut names: Vec<&OsStr> = relative.components().map(|c| c.as_os_str()).collect();
    let name = names.pop().ok_or(WriteRefused::NotInTree)?;
    // Every folder on the way is opened from the one before it, never by a
    // path again: a folder swapped for a link after it was opened changes
    // nothing, because what is held is the folder itself.
    let mut folder = Folder::root(root).map_err(|e| io(&e))?;
    for part in names {
        folder = folder.child(part)?;
    }
    let (mut reader, permissions) = folder.record(name)?;
    let expected = file.before.as_bytes();
    // One byte past what the edits were computed against tells a grown file.
    let now =
        match crate::validation::read_bounded(&mut reader, expected.len()).map_err(|e| io(&e))? {
            crate::validation::Body::Within(bytes) => bytes,
            crate::validation::Body::Over { .. } => return Err(WriteRefused::Changed),
        };
    // The text was read with U+FFFD for each bad sequence, so it can never
    // equal the bytes: say what the record is, not that it changed.
    if std::str::from_utf8(&now).is_err() {
        return Err(WriteRefused::NotUtf8);
    }
    if now != expected {
        return Err(WriteRefused::Changed);
    }
    let mut staged = Staged::create(&folder, name).map_err(|e| io(&e))?;
    staged
        .file
        .write_all(file.after().as_bytes())
        .map_err(|e| io(&e))?;
    // The mode is set on the open file (`fchmod`), before it has the
    // record's name: no path is followed to set it.
    staged
        .file
        .set_permissions(permissions)
        .map_err(|e| io(&e))?;
    staged.file.sync_all().map_err(|e| io(&e))?;
    staged.rename_to(name).map_err(|e| io(&e))?;
    Ok(())
}

/// A folder of the working tree held open: every name below it is opened,
/// created, renamed and removed relative to the handle, never following a
/// link (`openat` with `O_NOFOLLOW`, `renameat`, `unlinkat`).
#[cfg(unix)]
struct Folder {
    handle: rustix::fd::OwnedFd,
}

#[cfg(unix)]
impl Folder {
    /// The working tree itself: the operator's own path, so it is the one
    /// path opened as written.
    fn root(root: &Path) -> std::io::Result<Folder> {
        use rustix::fs::{Mode, OFlags};
        let handle = rustix::fs::open(
            root,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Folder { handle })
    }

    /// The folder `name` in this one, refused if it is a link or no folder.
    fn child(&self, name: &OsStr) -> Result<Folder, WriteRefused> {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(&self.handle, name, flags, Mode::empty()) {
            Ok(handle) => Ok(Folder { handle }),
            Err(e) => Err(self.refusal(name, e)),
        }
    }

    /// The regular file `name` in this folder, open for reading, and its
    /// permissions; refused if it is a link or anything but a regular file.
    fn record(&self, name: &OsStr) -> Result<(std::fs::File, std::fs::Permissions), WriteRefused> {
        use rustix::fs::{Mode, OFlags};
        // `NONBLOCK`: a FIFO under the name is refused, not waited on.
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let handle = rustix::fs::openat(&self.handle, name, flags, Mode::empty())
            .map_err(|e| self.refusal(name, e))?;
        let file = std::fs::File::from(handle);
        let meta = file.metadata().map_err(|e| io(&e))?;
        if !meta.is_file() {
            return Err(WriteRefused::NotRegular);
        }
        Ok((file, meta.permissions()))
    }

    /// Creates `name` new (`O_EXCL`): anything already there, a link
    /// included, is `AlreadyExists` and left alone.
    fn create_new(&self, name: &OsStr) -> std::io::Result<std::fs::File> {
        use rustix::fs::{Mode, OFlags};
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle = rustix::fs::openat(&self.handle, name, flags, Mode::from_raw_mode(0o600))?;
        Ok(std::fs::File::from(handle))
    }

    fn rename(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        Ok(rustix::fs::renameat(&self.handle, from, &self.handle, to)?)
    }

    fn remove(&self, name: &OsStr) {
        let _ = rustix::fs::unlinkat(&self.handle, name, rustix::fs::AtFlags::empty());
    }

    /// Why `name` could not be opened: a link where one was refused is said
    /// as such (looked at without following it), anything else as itself.
    fn refusal(&self, name: &OsStr, e: rustix::io::Errno) -> WriteRefused {
        use rustix::io::Errno;
        if e == Errno::LOOP || e == Errno::NOTDIR || e == Errno::NXIO {
            let kind =
                rustix::fs::statat(&self.handle, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                    .map(|stat| rustix::fs::FileType::from_raw_mode(stat.st_mode));
            return match kind {
                Ok(rustix::fs::FileType::Symlink) => WriteRefused::ThroughLink,
                _ => WriteRefused::NotRegular,
            };
        }
        io(&std::io::Error::from(e))
    }
}

/// Where no folder can be held open, each name is checked as itself just
/// before it is used: the same refusals, without the guarantee against a
/// swap between the check and the use.
#[cfg(not(unix))]
struct Folder {
    path: PathBuf,
}

#[cfg(not(unix))]
impl Folder {
    fn root(root: &Path) -> std::io::Result<Folder> {
        Ok(Folder {
            path: root.to_path_buf(),
        })
    }

    fn unlinked(&self, name: &OsStr) -> Result<(PathBuf, std::fs::Metadata), WriteRefused> {
        let path = self.path.join(name);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| io(&e))?;
        if meta.file_type().is_symlink() {
            return Err(WriteRefused::ThroughLink);
        }
        Ok((path, meta))
    }

    fn child(&self, name: &OsStr) -> Result<Folder, WriteRefused> {
        let (path, meta) = self.unlinked(name)?;
        if !meta.is_dir() {
            return Err(WriteRefused::NotRegular);
        }
        Ok(Folder { path })
    }

    fn record(&self, name: &OsStr) -> Result<(std::fs::File, std::fs::Permissions), WriteRefused> {
        let (path, meta) = self.unlinked(name)?;
        if !meta.is_file() {
            return Err(WriteRefused::NotRegular);
        }
        let file = std::fs::File::open(path).map_err(|e| io(&e))?;
        Ok((file, meta.permissions()))
    }

    fn create_new(&self, name: &OsStr) -> std::io::Result<std::fs::File> {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.path.join(name))
    }

    fn rename(&self, from: &OsStr, to: &OsStr) -> std::io::Result<()> {
        std::fs::rename(self.path.join(from), self.path.join(to))
    }

    fn remove(&self, name: &OsStr) {
        let _ = std::fs::remove_file(self.path.join(name));
    }
}

/// A new file beside a record, holding its next text until it is renamed
/// over it; removed when dropped before that (a refusal, an error, a panic
/// between the two), so no way out leaves it in the working tree.
struct Staged<'f> {
    folder: &'f Folder,
    name: OsString,
    file: std::fs::File,
    /// Set once the file is renamed into place: nothing is left to remove.
    placed: bool,
}

impl<'f> Staged<'f> {
    /// Creates `.<name>.recount-<random>.tmp` in `folder`, new: a name taken
    /// (by anything: a file, a link, a folder) is passed over for another,
    /// never opened, never removed.
    fn create(folder: &'f Folder, name: &OsStr) -> std::io::Result<Staged<'f>> {
        let mut last = None;
        for _ in 0..16 {
            let mut staged = OsString::from(".");
            staged.push(name);
            staged.push(format!(".recount-{:016x}.tmp", unguessable()));
            match folder.create_new(&staged) {
                Ok(file) => {
                    return Ok(Staged {
                        folder,
                        name: staged,
                        file,
                        placed: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
    }

    /// Renames the file over `to` in the same folder; on failure it stays
    /// staged, and is removed when dropped.
    fn rename_to(mut self, to: &OsStr) -> std::io::Result<()> {
        self.folder.rename(&self.name, to)?;
        self.placed = true;
        Ok(())
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.placed {
            self.folder.remove(&self.name);
        }
    }
}

/// 64 bits no one outside the process can predict: the standard library's
/// per-process random hash keys (seeded from the system's random source),
/// stirred with a counter, the process id and the time, so two names of one
/// run differ as well.
fn unguessable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    if let Ok(since) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(since.as_nanos());
    }
    hasher.finish()
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
                mends: Default::default(),
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
    fn a_file_at_the_old_temporary_name_is_left_alone_and_none_is_left_behind() {
        let root = tempfile::tempdir().expect("root");
        let text = "See [it](old.md).\n";
        std::fs::write(root.path().join("guide.md"), text).expect("write");
        // What the old name was, and a link planted under it.
        let old_name = format!(".guide.md.recount-{}.tmp", std::process::id());
        std::fs::write(root.path().join(&old_name), "someone's\n").expect("write");
        std::os::unix::fs::symlink("guide.md", root.path().join(".guide.md.recount-0.tmp"))
            .expect("link");
        write(root.path(), &edits("guide.md", text)).expect("written");
        assert_eq!(
            std::fs::read_to_string(root.path().join("guide.md")).expect("read"),
            "See [it](new.md).\n"
        );
        assert_eq!(
            std::fs::read_to_string(root.path().join(&old_name)).expect("kept"),
            "someone's\n"
        );
        let mut left: Vec<String> = std::fs::read_dir(root.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [".guide.md.recount-0.tmp", &old_name, "guide.md"],
            "a temporary file left behind"
        );
    }

    #[test]
    fn a_staged_file_is_removed_on_every_way_out_but_the_rename() {
        let root = tempfile::tempdir().expect("root");
        let name = std::ffi::OsStr::new("guide.md");
        let folder = Folder::root(root.path()).expect("open");
        let count = || std::fs::read_dir(root.path()).expect("list").count();
        // Dropped unrenamed (an error or a refusal after it was made).
        drop(Staged::create(&folder, name).expect("staged"));
        assert_eq!(count(), 0);
        // A rename that fails: onto a folder that is not empty.
        std::fs::create_dir(root.path().join("full")).expect("mkdir");
        std::fs::write(root.path().join("full/x"), "x").expect("write");
        let staged = Staged::create(&folder, name).expect("staged");
        assert!(staged.rename_to(OsStr::new("full")).is_err());
        assert_eq!(count(), 1, "only the folder");
        // A panic while it is staged.
        let panicked = std::panic::catch_unwind(|| {
            let _staged = Staged::create(&folder, name).expect("staged");
            panic!("midway");
        });
        assert!(panicked.is_err());
        assert_eq!(count(), 1, "only the folder");
        // Two at once get two names.
        let (a, b) = (
            Staged::create(&folder, name).expect("a"),
            Staged::create(&folder, name).expect("b"),
        );
        assert_ne!(a.name, b.name);
        let shown = a.name.to_string_lossy().into_owned();
        assert!(
            shown.starts_with(".guide.md.recount-") && shown.ends_with(".tmp"),
            "{shown}"
        );
    }

    #[test]
    fn a_record_that_is_not_utf8_is_refused_as_such() {
        let root = tempfile::tempdir().expect("root");
        let bytes = b"See [it](old.md) \xe9t\xe9.\n";
        std::fs::write(root.path().join("guide.md"), bytes).expect("write");
        let read = String::from_utf8_lossy(bytes).into_owned();
        assert_eq!(
            write(root.path(), &edits("guide.md", &read)),
            Err(WriteRefused::NotUtf8)
        );
        assert!(
            WriteRefused::NotUtf8.to_string().contains("not UTF-8"),
            "{}",
            WriteRefused::NotUtf8
        );
        assert_eq!(
            std::fs::read(root.path().join("guide.md")).expect("read"),
            bytes
        );
        assert_eq!(std::fs::read_dir(root.path()).expect("list").count(), 1);
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
