//! The working-tree snapshot: tracked files plus untracked files git does not ignore.
//!
//! Stage 1 of the pipeline, for audits of what is on disk now (uncommitted edits
//! included). The file list is fixed when the snapshot is taken; contents are read
//! from disk on demand. Only read-only git APIs are used: the index is read, never
//! refreshed or written, and no lock file is ever taken, so auditing a repository
//! cannot disturb a concurrent `git` command.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use walkdir::WalkDir;

use super::git::{GitRepo, RevisionError};
use super::{Skipped, Snapshot};

const MODE_LINK: u32 = 0o120000;
const MODE_GITLINK: u32 = 0o160000;

/// The files of the working tree as git would see them.
#[derive(Debug, Clone)]
pub struct WorktreeSnapshot {
    workdir: PathBuf,
    paths: Vec<String>,
    skipped: Vec<Skipped>,
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

        let mut paths: BTreeSet<String> = BTreeSet::new();
        let mut skipped: BTreeSet<Skipped> = BTreeSet::new();
        // Every path the index knows, present on disk or not, so the walk below
        // only has to judge untracked files.
        let mut tracked: BTreeSet<String> = BTreeSet::new();
        let mut submodules: BTreeSet<String> = BTreeSet::new();

        for entry in index.iter() {
            let Ok(path) = String::from_utf8(entry.path.clone()) else {
                skipped.insert(Skipped {
                    path: String::from_utf8_lossy(&entry.path).into_owned(),
                    why: "path name is not UTF-8",
                });
                continue;
            };
            tracked.insert(path.clone());
            match entry.mode & 0o170000 {
                MODE_GITLINK => {
                    skipped.insert(Skipped {
                        path: path.clone(),
                        why: "submodule (gitlink)",
                    });
                    submodules.insert(path);
                    continue;
                }
                MODE_LINK => {
                    skipped.insert(Skipped {
                        path,
                        why: "symbolic link",
                    });
                    continue;
                }
                _ => {}
            }
            // A tracked file that was deleted, or replaced by a directory, is not
            // part of the working tree; files inside such a directory are found
            // by the walk as untracked files.
            match std::fs::symlink_metadata(workdir.join(&path)) {
                Ok(meta) if meta.file_type().is_file() => {
                    paths.insert(path);
                }
                Ok(meta) if meta.file_type().is_symlink() => {
                    skipped.insert(Skipped {
                        path,
                        why: "symbolic link",
                    });
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
                    skipped.insert(Skipped {
                        path: rel,
                        why: "could not be read",
                    });
                    continue;
                }
            };
            let is_dir = entry.file_type().is_dir();
            let Some(rel) = relative_slash_path(entry.path(), workdir) else {
                skipped.insert(Skipped {
                    path: entry
                        .path()
                        .strip_prefix(workdir)
                        .unwrap_or(entry.path())
                        .to_string_lossy()
                        .into_owned(),
                    why: "path name is not UTF-8",
                });
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
                if is_ignored(&rel)? {
                    walker.skip_current_dir();
                    continue;
                }
                if std::fs::symlink_metadata(entry.path().join(".git")).is_ok() {
                    skipped.insert(Skipped {
                        path: rel,
                        why: "nested repository",
                    });
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
                skipped.insert(Skipped {
                    path: rel,
                    why: "symbolic link",
                });
            } else {
                skipped.insert(Skipped {
                    path: rel,
                    why: "not a regular file",
                });
            }
        }

        Ok(WorktreeSnapshot {
            workdir: workdir.to_path_buf(),
            paths: paths.into_iter().collect(),
            skipped: skipped.into_iter().collect(),
        })
    }

    /// The directory the files are read from.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }
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
