//! The working-tree snapshot: tracked files plus untracked files git does not ignore.
//!
//! Stage 1 of the pipeline, for audits of what is on disk now (uncommitted edits
//! included). The file list is fixed when the snapshot is taken; contents are read
//! from disk on demand. Only read-only git APIs are used: the index is read, never
//! refreshed or written, and no lock file is ever taken, so auditing a repository
//! cannot disturb a concurrent `git` command.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use walkdir::WalkDir;

use super::git::{GitRepo, RevisionError};
use super::{Skipped, Snapshot};

const MODE_LINK: u32 = 0o120000;
const MODE_GITLINK: u32 = 0o160000;

/// The files of the working tree as git would see them.
#[derive(Debug)]
pub struct WorktreeSnapshot {
    workdir: PathBuf,
    paths: Vec<String>,
    skipped: Vec<Skipped>,
    /// The paths the index knows: what `git grep` and `git ls-files` read.
    tracked: BTreeSet<String>,
    /// The folders found to be real folders (not links) on the way to a file:
    /// a read looks at each folder once a run, not once per file under it.
    real_dirs: Mutex<BTreeMap<String, bool>>,
}

impl WorktreeSnapshot {
    /// Lists the working tree of `repo`: every index entry still present on disk
    /// as a regular file, and every untracked, unignored regular file.
    pub fn capture(repo: &GitRepo) -> Result<WorktreeSnapshot, RevisionError> {
        let Some(workdir) = repo.workdir() else {
            return Err(RevisionError::BareRepository {
                path: repo.git_dir().to_path_buf(),
            });
        };
        let raw = repo.raw();
        let index = raw
            .index()
            .map_err(|source| RevisionError::git("cannot read the index", source))?;

        let mut skipped: BTreeSet<Skipped> = BTreeSet::new();
        // Every path the index knows, present on disk or not, so the walk below
        // only has to judge untracked files.
        let mut tracked: BTreeSet<String> = BTreeSet::new();
        let mut submodules: BTreeSet<String> = BTreeSet::new();
        // The tracked files to look for on disk.
        let mut files: Vec<String> = Vec::new();
        let mut links_read = 0;

        for entry in index.iter() {
            let Ok(path) = String::from_utf8(entry.path.clone()) else {
                skipped.insert(Skipped::unread(
                    String::from_utf8_lossy(&entry.path).into_owned(),
                    "path name is not UTF-8",
                ));
                continue;
            };
            tracked.insert(path.clone());
            match entry.mode & 0o170000 {
                MODE_GITLINK => {
                    skipped.insert(Skipped::unread(path.clone(), "submodule (gitlink)"));
                    submodules.insert(path);
                }
                MODE_LINK => {
                    // The link as git stores it (its blob), never the disk's
                    // link: nothing is read through the filesystem for it.
                    let raw = (links_read < super::MAX_LINKS_READ)
                        .then(|| raw.find_blob(entry.id).ok())
                        .flatten();
                    links_read += 1;
                    skipped.insert(match raw {
                        Some(blob) => Skipped::link(path, blob.content()),
                        None => Skipped::unread(path, super::SYMBOLIC_LINK),
                    });
                }
                _ => files.push(path),
            }
        }

        // The tracked files on disk are looked at on one thread while the
        // walk for untracked ones (which needs the repository, not shareable
        // across threads) runs on this one.
        let (on_disk, walked) = std::thread::scope(|scope| {
            let on_disk = scope.spawn(|| tracked_on_disk(workdir, files));
            let walked = Self::untracked(raw, workdir, &tracked, &submodules);
            (on_disk.join(), walked)
        });
        let (mut paths, found_skipped, real_dirs) =
            on_disk.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        let (untracked, walk_skipped) = walked?;
        paths.extend(untracked);
        skipped.extend(found_skipped);
        skipped.extend(walk_skipped);

        Ok(WorktreeSnapshot {
            workdir: workdir.to_path_buf(),
            paths: paths.into_iter().collect(),
            skipped: skipped.into_iter().collect(),
            tracked,
            real_dirs: Mutex::new(real_dirs),
        })
    }

    /// The untracked, unignored files of the working tree, and what the walk
    /// set aside (links, nested repositories, unreadable folders).
    #[allow(clippy::type_complexity)]
    fn untracked(
        raw: &git2::Repository,
        workdir: &Path,
        tracked: &BTreeSet<String>,
        submodules: &BTreeSet<String>,
    ) -> Result<(BTreeSet<String>, BTreeSet<Skipped>), RevisionError> {
        let mut paths: BTreeSet<String> = BTreeSet::new();
        let mut skipped: BTreeSet<Skipped> = BTreeSet::new();
        // Every folder on the way to a tracked path. git never ignores those
        // as a whole (their tracked files stay), so the walk goes into them
        // without asking, and asks of each untracked file found there instead
        // (git's answer for a file weighs the folders above it).
        let mut tracked_dirs: HashSet<&str> = HashSet::new();
        for path in tracked {
            let mut rest = path.as_str();
            while let Some((dir, _)) = rest.rsplit_once('/') {
                if !tracked_dirs.insert(dir) {
                    break;
                }
                rest = dir;
            }
        }
        let is_ignored = |rel: &str| {
            raw.is_path_ignored(rel).map_err(|source| {
                RevisionError::git(format!("cannot tell whether `{rel}` is ignored"), source)
            })
        };

        let mut walker = WalkDir::new(workdir)
            .min_depth(1)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter();
        while let Some(next) = walker.next() {
            let entry = match next {
                Ok(entry) => entry,
                Err(err) => {
                    let rel = err
                        .path()
                        .and_then(|p| p.strip_prefix(workdir).ok())
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    skipped.insert(Skipped::unread(rel, "could not be read"));
                    continue;
                }
            };
            let is_dir = entry.file_type().is_dir();
            let Some(rel) = relative_slash_path(entry.path(), workdir) else {
                skipped.insert(Skipped::unread(
                    entry
                        .path()
                        .strip_prefix(workdir)
                        .unwrap_or(entry.path())
                        .to_string_lossy()
                        .into_owned(),
                    "path name is not UTF-8",
                ));
                if is_dir {
                    walker.skip_current_dir();
                }
                continue;
            };
            // The repository's own `.git` (a directory, or a file in a linked worktree).
            if entry.depth() == 1 && entry.file_name() == ".git" {
                if is_dir {
                    walker.skip_current_dir();
                }
                continue;
            }
            if is_dir {
                if submodules.contains(&rel) {
                    walker.skip_current_dir();
                    continue;
                }
                if !tracked_dirs.contains(rel.as_str()) && is_ignored(&rel)? {
                    walker.skip_current_dir();
                    continue;
                }
                if std::fs::symlink_metadata(entry.path().join(".git")).is_ok() {
                    skipped.insert(Skipped::unread(rel, "nested repository"));
                    walker.skip_current_dir();
                }
                continue;
            }
            if tracked.contains(&rel) || is_ignored(&rel)? {
                continue;
            }
            let file_type = entry.file_type();
            if file_type.is_file() {
                paths.insert(rel);
            } else if file_type.is_symlink() {
                skipped.insert(Skipped::unread(rel, super::SYMBOLIC_LINK));
            } else {
                skipped.insert(Skipped::unread(rel, "not a regular file"));
            }
        }

        Ok((paths, skipped))
    }

    /// The directory the files are read from.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }
}

/// Which of the tracked `files` are regular files on disk under `workdir`,
/// and which are links; a file below a folder that became a link, deleted,
/// or replaced by a folder is in neither (the walk finds a folder's files).
/// Also which folders on the way were real.
#[allow(clippy::type_complexity)]
fn tracked_on_disk(
    workdir: &Path,
    files: Vec<String>,
) -> Result<(BTreeSet<String>, BTreeSet<Skipped>, BTreeMap<String, bool>), RevisionError> {
    let mut paths: BTreeSet<String> = BTreeSet::new();
    let mut skipped: BTreeSet<Skipped> = BTreeSet::new();
    // Directories already checked by `beyond_symlink`: whether each is real.
    let mut real_dirs: BTreeMap<String, bool> = BTreeMap::new();
    for path in files {
        // A file below a directory that became a symlink is, to git, deleted;
        // reading through the link could also leave the working tree.
        if beyond_symlink(workdir, &path, &mut real_dirs).map_err(|source| RevisionError::Io {
            context: "cannot inspect the directories of",
            path: workdir.join(&path),
            source,
        })? {
            continue;
        }
        match std::fs::symlink_metadata(workdir.join(&path)) {
            Ok(meta) if meta.file_type().is_file() => {
                paths.insert(path);
            }
            Ok(meta) if meta.file_type().is_symlink() => {
                skipped.insert(Skipped::unread(path, super::SYMBOLIC_LINK));
            }
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotADirectory => {}
            Err(source) => {
                return Err(RevisionError::Io {
                    context: "cannot inspect",
                    path: workdir.join(&path),
                    source,
                });
            }
        }
    }
    Ok((paths, skipped, real_dirs))
}

/// Whether a directory on the way to `path` (a `/`-separated path below
/// `workdir`) is a symlink or is missing. `known` remembers answers per directory.
fn beyond_symlink(
    workdir: &Path,
    path: &str,
    known: &mut BTreeMap<String, bool>,
) -> std::io::Result<bool> {
    let mut end = 0;
    while let Some(offset) = path.get(end..).and_then(|rest| rest.find('/')) {
        end += offset;
        let dir = path.get(..end).unwrap_or(path);
        let is_real = match known.get(dir) {
            Some(&is_real) => is_real,
            None => {
                let is_real = match std::fs::symlink_metadata(workdir.join(dir)) {
                    Ok(meta) => meta.file_type().is_dir(),
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => false,
                    Err(err) if err.kind() == std::io::ErrorKind::NotADirectory => false,
                    Err(err) => return Err(err),
                };
                known.insert(dir.to_string(), is_real);
                is_real
            }
        };
        if !is_real {
            return Ok(true);
        }
        end += 1;
    }
    Ok(false)
}

/// `path` relative to `root`, `/`-separated; `None` when a component is not UTF-8.
fn relative_slash_path(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for component in rel.components() {
        let Component::Normal(name) = component else {
            return None;
        };
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(name.to_str()?);
    }
    Some(out)
}

impl Snapshot for WorktreeSnapshot {
    fn paths(&self) -> &[String] {
        &self.paths
    }

    fn is_tracked(&self, path: &str) -> bool {
        self.tracked.contains(path)
    }

    /// Only listed paths can be read, so a rule cannot reach an ignored file or
    /// climb out of the working tree. A file deleted since the snapshot was
    /// taken, or replaced by a symlink, reads as absent.
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        if self
            .paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_err()
        {
            return Ok(None);
        }
        let beyond = match self.real_dirs.lock() {
            Ok(mut known) => beyond_symlink(&self.workdir, path, &mut known)?,
            Err(_) => beyond_symlink(&self.workdir, path, &mut BTreeMap::new())?,
        };
        if beyond {
            return Ok(None);
        }
        let full = self.workdir.join(path);
        match std::fs::symlink_metadata(&full) {
            Ok(meta) if meta.file_type().is_file() => {}
            Ok(_) => return Ok(None),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err),
        }
        match std::fs::read(&full) {
            Ok(bytes) => Ok(Some(Arc::from(bytes))),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }

    fn size(&self, path: &str) -> std::io::Result<Option<u64>> {
        if self
            .paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .is_err()
        {
            return Ok(None);
        }
        // A link or a folder in its place reads as absent, as `read` has it.
        match std::fs::symlink_metadata(self.workdir.join(path)) {
            Ok(meta) if meta.file_type().is_file() => Ok(Some(meta.len())),
            Ok(_) => Ok(None),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err),
        }
    }

    fn label(&self) -> String {
        "working tree".to_string()
    }

    fn commit(&self) -> Option<String> {
        None
    }

    fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::fixture::testing::{BuiltCase, build_case};

    fn ignore_case() -> BuiltCase {
        build_case(
            &[
                ("01-start", &[("a.txt", b"one\n")]),
                (
                    "02-layout",
                    &[
                        (".gitignore", b"*.log\nbuild/\n"),
                        ("a.txt", b"two\n"),
                        ("docs/b.md", b"bee\n"),
                        ("keep.log", b"tracked although ignored\n"),
                        ("bin.dat", b"ab\0cd"),
                    ],
                ),
            ],
            None,
        )
    }

    /// Every file under `root` (the `.git` directory included) with its bytes.
    fn every_file(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        for entry in WalkDir::new(root).sort_by_file_name() {
            let entry = entry.expect("walk");
            let meta = entry.path().symlink_metadata().expect("metadata");
            let bytes = if meta.file_type().is_symlink() {
                std::fs::read_link(entry.path())
                    .expect("read link")
                    .to_string_lossy()
                    .into_owned()
                    .into_bytes()
            } else if meta.is_file() {
                std::fs::read(entry.path()).expect("read")
            } else {
                b"<dir>".to_vec()
            };
            files.insert(entry.path().to_path_buf(), bytes);
        }
        files
    }

    #[test]
    fn checked_out_fixture_equals_main() {
        let case = ignore_case();
        let repo = GitRepo::open(&case.repo).expect("open");
        let worktree = repo.worktree_snapshot().expect("worktree");
        let main = repo.tree_snapshot("main").expect("main");
        assert_eq!(worktree.paths(), main.paths());
        for path in main.paths() {
            assert_eq!(
                worktree.read(path).expect("worktree read"),
                main.read(path).expect("tree read"),
                "{path}"
            );
        }
        assert_eq!(worktree.label(), "working tree");
        assert_eq!(worktree.commit(), None);
        assert!(worktree.skipped().is_empty(), "{:?}", worktree.skipped());
    }

    #[test]
    fn untracked_ignored_deleted_and_edited_files() {
        let case = ignore_case();
        let root = &case.repo;
        std::fs::write(root.join("a.txt"), b"edited, not committed\n").expect("edit");
        std::fs::remove_file(root.join("docs/b.md")).expect("delete");
        std::fs::write(root.join("new.txt"), b"untracked\n").expect("untracked");
        std::fs::create_dir_all(root.join("notes/deep")).expect("mkdir");
        std::fs::write(root.join("notes/deep/n.md"), b"deep\n").expect("untracked deep");
        std::fs::write(root.join("debug.log"), b"ignored\n").expect("ignored");
        std::fs::create_dir_all(root.join("build/x")).expect("mkdir");
        std::fs::write(root.join("build/x/out.txt"), b"ignored dir\n").expect("ignored dir");
        std::fs::create_dir_all(root.join("empty")).expect("empty dir");

        let repo = GitRepo::open(root).expect("open");
        let snap = repo.worktree_snapshot().expect("worktree");
        assert_eq!(
            snap.paths(),
            [
                ".gitignore",
                "a.txt",
                "bin.dat",
                "keep.log",
                "new.txt",
                "notes/deep/n.md"
            ]
        );
        assert_eq!(
            snap.read_text("a.txt").expect("read").as_deref(),
            Some("edited, not committed\n")
        );
        assert_eq!(snap.read("docs/b.md").expect("read deleted"), None);
        assert_eq!(snap.read("debug.log").expect("read ignored"), None);
        assert_eq!(snap.read("build/x/out.txt").expect("read ignored"), None);
        assert_eq!(snap.read("../outside").expect("read outside"), None);
        assert!(snap.read("bin.dat").expect("read binary").is_some());
        assert_eq!(snap.read_text("bin.dat").expect("read binary"), None);
        assert_eq!(
            snap.read_text("notes/deep/n.md").expect("read").as_deref(),
            Some("deep\n")
        );
    }

    #[test]
    fn invalid_utf8_on_disk_reads_lossily() {
        let case = ignore_case();
        std::fs::write(case.repo.join("a.txt"), b"na\xefve\n").expect("write");
        let snap = GitRepo::open(&case.repo)
            .expect("open")
            .worktree_snapshot()
            .expect("worktree");
        assert_eq!(
            snap.read_text("a.txt").expect("read").as_deref(),
            Some("na\u{fffd}ve\n")
        );
    }

    #[test]
    fn file_deleted_after_the_snapshot_reads_as_absent() {
        let case = ignore_case();
        let snap = GitRepo::open(&case.repo)
            .expect("open")
            .worktree_snapshot()
            .expect("worktree");
        std::fs::remove_file(case.repo.join("a.txt")).expect("delete");
        assert_eq!(snap.read("a.txt").expect("read"), None);
    }

    #[test]
    fn nested_repositories_are_skipped_with_a_note() {
        let case = ignore_case();
        let nested = case.repo.join("vendor/lib");
        git2::Repository::init(&nested).expect("nested repo");
        std::fs::write(nested.join("inside.txt"), b"x\n").expect("file in nested");
        let snap = GitRepo::open(&case.repo)
            .expect("open")
            .worktree_snapshot()
            .expect("worktree");
        assert!(!snap.paths().iter().any(|p| p.starts_with("vendor/")));
        assert_eq!(
            snap.skipped(),
            [Skipped::unread(
                "vendor/lib".to_string(),
                "nested repository"
            )]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_skipped_with_a_note() {
        let case = ignore_case();
        std::os::unix::fs::symlink("a.txt", case.repo.join("alias.txt")).expect("symlink");
        // A tracked file replaced by a symlink is no longer a regular file.
        std::fs::remove_file(case.repo.join("keep.log")).expect("remove");
        std::os::unix::fs::symlink("a.txt", case.repo.join("keep.log")).expect("symlink");
        let snap = GitRepo::open(&case.repo)
            .expect("open")
            .worktree_snapshot()
            .expect("worktree");
        assert!(
            !snap
                .paths()
                .iter()
                .any(|p| p == "alias.txt" || p == "keep.log")
        );
        assert_eq!(
            snap.skipped(),
            [
                Skipped::unread("alias.txt".to_string(), "symbolic link"),
                Skipped::unread("keep.log".to_string(), "symbolic link"),
            ]
        );
        assert_eq!(snap.read("keep.log").expect("read"), None);
    }

    #[cfg(unix)]
    #[test]
    fn tracked_files_below_a_symlinked_directory_are_not_read_through_it() {
        let case = ignore_case();
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("b.md"), b"outside the repository\n").expect("write");
        std::fs::remove_dir_all(case.repo.join("docs")).expect("remove docs");
        std::os::unix::fs::symlink(outside.path(), case.repo.join("docs")).expect("symlink");
        let snap = GitRepo::open(&case.repo)
            .expect("open")
            .worktree_snapshot()
            .expect("worktree");
        assert!(!snap.paths().iter().any(|p| p.starts_with("docs")));
        assert_eq!(
            snap.skipped(),
            [Skipped::unread("docs".to_string(), "symbolic link")]
        );
        assert_eq!(snap.read("docs/b.md").expect("read"), None);
    }

    #[test]
    fn taking_and_reading_snapshots_leaves_the_repository_byte_identical() {
        let case = ignore_case();
        let root = &case.repo;
        // A dirty working tree: the kind of state in which a careless tool
        // would refresh the index.
        std::fs::write(root.join("a.txt"), b"edited\n").expect("edit");
        std::fs::write(root.join("new.txt"), b"untracked\n").expect("untracked");
        std::fs::write(root.join("debug.log"), b"ignored\n").expect("ignored");
        std::fs::remove_file(root.join("docs/b.md")).expect("delete");
        // Same content, new mtime: the index's stat data for it is now stale,
        // which is what makes `git status` rewrite the index.
        let later =
            std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(2_000_000_000);
        std::fs::File::options()
            .write(true)
            .open(root.join("bin.dat"))
            .and_then(|file| file.set_modified(later))
            .expect("touch");
        let before = every_file(root);
        assert!(before.keys().any(|p| p.ends_with(".git/index")));

        let repo = GitRepo::discover(root).expect("discover");
        let worktree = repo.worktree_snapshot().expect("worktree");
        for path in worktree.paths() {
            worktree.read(path).expect("read worktree");
        }
        for rev in ["HEAD", "main~1", "origin/main"] {
            let tree = repo.tree_snapshot(rev).expect("tree");
            for path in tree.paths() {
                tree.read_text(path).expect("read tree");
            }
        }
        repo.is_ancestor("HEAD~1", "HEAD").expect("ancestry");
        drop(worktree);
        drop(repo);

        let after = every_file(root);
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "files appeared or vanished"
        );
        for (path, bytes) in &before {
            assert!(after.get(path) == Some(bytes), "{} changed", path.display());
        }
    }
}
