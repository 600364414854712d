//! Stage 1 of the pipeline: a read-only view of the repository's files, either the
//! working tree or the tree of a commit read straight from the object database.
//! Every later stage reads files only through [`Snapshot`]; nothing here writes.

pub mod git;
pub mod memo;
pub mod memory;
pub mod overlay;
pub mod worktree;

pub use git::{Day, FrameFailure, GitRepo, GitSnapshot, RevisionError};
pub use worktree::WorktreeSnapshot;

use std::sync::Arc;

/// Something a snapshot deliberately did not read, and why (a symlink, a
/// submodule, a file that is not text). Surfaced to the user as a note.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub path: String,
    pub why: &'static str,
    /// For a symbolic link whose target is a path inside the repository,
    /// that path from the root (`docs/changes.rst` → `../CHANGES.rst` is
    /// `CHANGES.rst`): where a renderer that follows the link reads its text.
    pub target: Option<String>,
}

impl Skipped {
    /// An entry left unread for `why`, not a link.
    pub fn unread(path: String, why: &'static str) -> Self {
        Skipped {
            path,
            why,
            target: None,
        }
    }

    /// The symbolic link at `path` whose stored target (the link's bytes) is
    /// `raw`: its target kept where it stays inside the repository.
    pub fn link(path: String, raw: &[u8]) -> Self {
        let target = link_target(&path, raw);
        Skipped {
            path,
            why: SYMBOLIC_LINK,
            target,
        }
    }
}

/// Why a symbolic link is skipped: a path that exists, never followed.
pub const SYMBOLIC_LINK: &str = "symbolic link";

/// The most symbolic links of one tree whose targets recount reads.
pub(crate) const MAX_LINKS_READ: usize = 10_000;

/// The longest link target recount reads (a path, not a text).
const MAX_LINK_TARGET_BYTES: usize = 1024;

/// The path from the repository's root that the symbolic link at `link`
/// (itself such a path) names by its stored target `raw`, joined to the
/// link's folder as the filesystem would: `None` for an absolute target, one
/// that climbs out of the repository or one that is not UTF-8. Only a name:
/// whether a file is there is the snapshot's to say, and the snapshot never
/// reads through a link.
pub fn link_target(link: &str, raw: &[u8]) -> Option<String> {
    if raw.is_empty() || raw.len() > MAX_LINK_TARGET_BYTES {
        return None;
    }
    let raw = std::str::from_utf8(raw).ok()?;
    if raw.starts_with('/') || raw.contains(['\\', '\0', '\n']) {
        return None;
    }
    let folder = link.rsplit_once('/').map_or("", |(folder, _)| folder);
    joined(folder, raw).filter(|path| !path.is_empty())
}

/// `path` read from the folder `base` (both `/`-separated, from the
/// repository's root), `.` and empty segments dropped and `..` applied:
/// `None` when `..` climbs past the root.
pub fn joined(base: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for segment in base.split('/').chain(path.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` is a file of `paths` (a snapshot's sorted file list).
pub fn has_file(paths: &[String], path: &str) -> bool {
    paths.binary_search_by(|x| x.as_str().cmp(path)).is_ok()
}

/// Whether `path` is a folder of `paths` (a snapshot's sorted file list): some
/// file lies under it.
pub fn has_folder(paths: &[String], path: &str) -> bool {
    let dir = format!("{}/", path.trim_end_matches('/'));
    let start = paths.partition_point(|x| x.as_str() < dir.as_str());
    paths.get(start).is_some_and(|x| x.starts_with(&dir))
}

/// A read-only set of files at one point in history.
pub trait Snapshot: Send + Sync {
    /// Repository-relative, `/`-separated paths of every regular file, sorted.
    fn paths(&self) -> &[String];
    /// The bytes of one file, or `None` when the snapshot has no such file.
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>>;
    /// Calls `f` with the bytes of one file, read in place where the snapshot
    /// can (a commit's blob is searched where libgit2 inflated it, not copied
    /// first); `Ok(false)` when the snapshot has no such file.
    fn with_bytes(&self, path: &str, f: &mut dyn FnMut(&[u8])) -> std::io::Result<bool> {
        match self.read(path)? {
            Some(bytes) => {
                f(&bytes);
                Ok(true)
            }
            None => Ok(false),
        }
    }
    /// What people call this snapshot: `working tree` or a short commit id.
    fn label(&self) -> String;
    /// The full commit id, when the snapshot is a commit.
    fn commit(&self) -> Option<String>;
    /// Entries left out on purpose (symlinks, submodules).
    fn skipped(&self) -> &[Skipped];

    /// The git object id of a file's contents, where the snapshot knows it
    /// without reading the file (a commit's tree): per-file work keyed by it is
    /// done once however many commits share the file.
    fn blob_id(&self, _path: &str) -> Option<[u8; 20]> {
        None
    }

    /// Whether git tracks `path`: every file of a commit's tree; in the working
    /// tree, those the index knows (`git grep` and `git ls-files` read no other).
    fn is_tracked(&self, _path: &str) -> bool {
        true
    }

    /// Whether `path` is an entry the snapshot holds without reading it (a
    /// symbolic link, a submodule), or a path inside one (a submodule's
    /// `resources/tutorials/index.rst`, which its own repository holds): a
    /// path that may exist, never followed.
    fn holds_unread(&self, path: &str) -> bool {
        self.unread_entry(path).is_some() || self.holds_unread_below(path)
    }

    /// Whether `path` is a folder holding only entries the snapshot does
    /// not read (a `licenses/` of symbolic links): git keeps the folder, so
    /// the forge shows it.
    fn holds_unread_below(&self, path: &str) -> bool {
        let dir = format!("{}/", path.trim_end_matches('/'));
        dir.len() > 1 && self.skipped().iter().any(|s| s.path.starts_with(&dir))
    }

    /// The path from the root a symbolic link at `path` names, when it
    /// stays inside the repository.
    fn link_target(&self, path: &str) -> Option<&str> {
        self.skipped()
            .iter()
            .find(|s| s.path == path && s.why == SYMBOLIC_LINK)
            .and_then(|s| s.target.as_deref())
    }

    /// The entry held without reading (a submodule's gitlink, a link) that
    /// is `path` or holds it.
    fn unread_entry(&self, path: &str) -> Option<String> {
        self.skipped()
            .iter()
            .find(|s| {
                s.path == path
                    || path
                        .strip_prefix(s.path.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .map(|s| s.path.clone())
    }

    /// The size of one file in bytes, or `None` when the snapshot has no such
    /// file: read from the object's header or the file's metadata, never its
    /// contents, where the snapshot can.
    fn size(&self, path: &str) -> std::io::Result<Option<u64>> {
        Ok(self.read(path)?.map(|bytes| bytes.len() as u64))
    }

    /// The file as text to parse, as [`Snapshot::read_text`] but never past
    /// [`MAX_PARSED_BYTES`]: a larger file is an error of kind `FileTooLarge`
    /// (see [`too_large`]), found from its size, never read.
    fn read_text_to_parse(&self, path: &str) -> std::io::Result<Option<Arc<str>>> {
        within(self, path, MAX_PARSED_BYTES)?;
        self.read_text(path)
    }

    /// The file as text: `None` when absent or binary (a NUL byte in its first
    /// 8 KiB, as git decides); invalid UTF-8 is replaced, never a panic.
    fn read_text(&self, path: &str) -> std::io::Result<Option<Arc<str>>> {
        Ok(self.read(path)?.and_then(|bytes| {
            let head = &bytes[..bytes.len().min(8000)];
            if head.contains(&0) {
                None
            } else {
                Some(Arc::from(match utf8(&bytes) {
                    Ok(text) => std::borrow::Cow::Borrowed(text),
                    Err(_) => String::from_utf8_lossy(&bytes),
                }))
            }
        }))
    }
}

/// The most bytes recount reads of one file it parses because a record or a
/// rule names it (a page whose anchors a link needs, an included file, a test
/// file, a Python module, a fact's document or source): the record cap, since
/// a parse costs many times its input (a 56 MB test file took 4.1 GB).
pub const MAX_PARSED_BYTES: u64 = MAX_RECORD_BYTES as u64;

/// Records larger than this are skipped with a note: a record is prose, and a
/// file this size matched by a record glob is almost surely not one.
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// The most bytes recount reads of one file it only counts in (the lines a
/// line cite needs, a fact's line count).
pub const MAX_COUNTED_BYTES: u64 = 64 * 1024 * 1024;

/// A file over the cap it was read under, found from its size alone.
#[derive(Debug, thiserror::Error)]
#[error("`{path}` is {size} bytes, over the {cap_mib} MiB recount reads of a file it {purpose}")]
pub struct TooLarge {
    pub path: String,
    pub size: u64,
    pub cap_mib: u64,
    pub purpose: &'static str,
}

/// `read_text` under `cap`: a file larger is an error of kind
/// `FileTooLarge` (its inner error a [`TooLarge`]), never read.
pub fn read_text_within(
    snapshot: &(impl Snapshot + ?Sized),
    path: &str,
    cap: u64,
) -> std::io::Result<Option<Arc<str>>> {
    within(snapshot, path, cap)?;
    snapshot.read_text(path)
}

/// `read` under `cap`, as [`read_text_within`].
pub fn read_within(
    snapshot: &(impl Snapshot + ?Sized),
    path: &str,
    cap: u64,
) -> std::io::Result<Option<Arc<[u8]>>> {
    within(snapshot, path, cap)?;
    snapshot.read(path)
}

fn within(snapshot: &(impl Snapshot + ?Sized), path: &str, cap: u64) -> std::io::Result<()> {
    match snapshot.size(path)? {
        Some(size) if size > cap => Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            TooLarge {
                path: path.to_owned(),
                size,
                cap_mib: cap >> 20,
                purpose: if cap <= MAX_PARSED_BYTES {
                    "parses"
                } else {
                    "counts in"
                },
            },
        )),
        _ => Ok(()),
    }
}

/// The [`TooLarge`] an error of a capped read carries, if it is one.
pub fn too_large(error: &std::io::Error) -> Option<&TooLarge> {
    error.get_ref()?.downcast_ref::<TooLarge>()
}

/// `bytes` as UTF-8 text, checked with SIMD (every file a run reads is
/// checked: on a translated documentation tree the standard library's check
/// was a tenth of the run); the standard library's error, which says where,
/// for bytes that are not.
pub fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

// The validation core defines its own file source so that it builds without this
// module; every snapshot is one, and the `validate` fact loads schema sets from it.
impl crate::validation::SchemaSource for dyn Snapshot + '_ {
    fn paths(&self) -> &[String] {
        Snapshot::paths(self)
    }
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        Snapshot::read(self, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_target_is_joined_to_the_links_folder_and_kept_inside() {
        assert_eq!(
            link_target("docs/changes.rst", b"../CHANGES.rst").as_deref(),
            Some("CHANGES.rst")
        );
        assert_eq!(
            link_target("docs/rules/yaml.md", b"../../src/rules/./yaml.md").as_deref(),
            Some("src/rules/yaml.md")
        );
        assert_eq!(link_target("a.md", b"b/c.md").as_deref(), Some("b/c.md"));
        // Out of the repository, absolute, or not a path: no target.
        assert_eq!(link_target("docs/x.md", b"../../x.md"), None);
        assert_eq!(link_target("x.md", b"/etc/passwd"), None);
        assert_eq!(link_target("x.md", b"."), None);
        assert_eq!(link_target("x.md", b""), None);
        assert_eq!(link_target("x.md", b"a\xffb"), None);
        assert_eq!(link_target("x.md", &[b'a'; 2000]), None);
    }

    #[test]
    fn a_folder_of_unread_entries_is_held() {
        let snap = memory::MemorySnapshot::of([("README.md".to_owned(), String::new())])
            .with_link("licenses/MIT.txt", "../README.md");
        assert!(snap.holds_unread("licenses") && snap.holds_unread("licenses/"));
        assert!(!snap.holds_unread("license") && !snap.holds_unread(""));
        assert_eq!(snap.link_target("licenses/MIT.txt"), Some("README.md"));
    }
}
