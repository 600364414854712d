//! Snapshots of a commit's tree, read from the object database with git2.
//!
//! Stage 1 of the pipeline: [`GitRepo`] opens the audited repository, resolves the
//! revisions rules name as frames, answers ancestry questions, and hands out
//! [`GitSnapshot`]s (a commit's tree, no checkout) and working-tree snapshots.
//! Everything here is read-only: no index refresh, no locks, no ref updates.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Once};

use git2::{ErrorCode, ObjectType, Oid, Repository};

use super::worktree::WorktreeSnapshot;
use super::{Skipped, Snapshot};

/// Why a repository could not be opened or a revision could not be used.
#[derive(Debug, thiserror::Error)]
pub enum RevisionError {
    /// The revision names nothing in this repository.
    #[error("unknown revision `{rev}` in {}{}", repo.display(), shallow_hint(.shallow))]
    UnknownRevision {
        rev: String,
        repo: PathBuf,
        shallow: bool,
    },
    /// The revision names an object that does not peel to a commit.
    #[error("revision `{rev}` names a {kind}, not a commit")]
    NotACommit { rev: String, kind: String },
    /// No repository at the path or (for discovery) any directory above it.
    #[error("no git repository found at {}{}: {}", path.display(), if *.searched_upward { " or any directory above it" } else { "" }, source.message())]
    RepositoryNotFound {
        path: PathBuf,
        searched_upward: bool,
        #[source]
        source: git2::Error,
    },
    /// A working-tree snapshot was asked of a bare repository.
    #[error("{} is a bare repository: it has no working tree to read", path.display())]
    BareRepository { path: PathBuf },
    /// libgit2 failed while doing something specific.
    #[error("{context}: {}", source.message())]
    Git {
        context: String,
        #[source]
        source: git2::Error,
    },
    /// The file system failed while reading the working tree.
    #[error("{context} {}: {source}", path.display())]
    Io {
        context: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn shallow_hint(shallow: &bool) -> &'static str {
    if *shallow {
        "; this clone is shallow, so the commit may lie outside the history it holds \
         (CI needs the full history, e.g. `fetch-depth: 0` for actions/checkout)"
    } else {
        ""
    }
}

impl RevisionError {
    pub(crate) fn git(context: impl Into<String>, source: git2::Error) -> Self {
        RevisionError::Git {
            context: context.into(),
            source,
        }
    }
}

/// Turns off libgit2's re-hashing of every object it reads, once per process:
/// with it on, reading a large tree is measurably slow, and the object database
/// of the audited repository is trusted the way git itself trusts it.
fn relax_hash_verification() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// An opened repository: the source of every snapshot recount reads.
pub struct GitRepo {
    repo: Repository,
    git_dir: PathBuf,
    workdir: Option<PathBuf>,
}

impl std::fmt::Debug for GitRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitRepo")
            .field("git_dir", &self.git_dir)
            .field("workdir", &self.workdir)
            .finish()
    }
}

impl GitRepo {
    /// Finds the repository containing `start`, walking upward the way git does.
    pub fn discover(start: &Path) -> Result<GitRepo, RevisionError> {
        relax_hash_verification();
        let repo = Repository::discover(start).map_err(|source| {
            if source.code() == ErrorCode::NotFound {
                RevisionError::RepositoryNotFound {
                    path: start.to_path_buf(),
                    searched_upward: true,
                    source,
                }
            } else {
                RevisionError::git(
                    format!("cannot open the repository containing {}", start.display()),
                    source,
                )
            }
        })?;
        Ok(GitRepo::wrap(repo))
    }

    /// Opens the repository at exactly `path` (a work tree or a git directory).
    pub fn open(path: &Path) -> Result<GitRepo, RevisionError> {
        relax_hash_verification();
        let repo = Repository::open(path).map_err(|source| {
            if source.code() == ErrorCode::NotFound {
                RevisionError::RepositoryNotFound {
                    path: path.to_path_buf(),
                    searched_upward: false,
                    source,
                }
            } else {
                RevisionError::git(
                    format!("cannot open the repository at {}", path.display()),
                    source,
                )
            }
        })?;
        Ok(GitRepo::wrap(repo))
    }

    fn wrap(repo: Repository) -> GitRepo {
        let git_dir = repo.path().to_path_buf();
        let workdir = repo.workdir().map(Path::to_path_buf);
        GitRepo {
            repo,
            git_dir,
            workdir,
        }
    }

    /// The working directory, or `None` for a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.workdir.as_deref()
    }

    /// The git directory (`.git`, or the per-worktree directory of a linked worktree).
    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// Whether this is a shallow clone, whose history stops short of the root.
    pub fn is_shallow(&self) -> bool {
        self.repo.is_shallow()
    }

    pub(crate) fn raw(&self) -> &Repository {
        &self.repo
    }

    /// The full hex id of the commit `rev` names: a full or short id, a branch,
    /// a tag (peeled to its commit), `HEAD~3`, `origin/main`, ...
    pub fn resolve(&self, rev: &str) -> Result<String, RevisionError> {
        self.resolve_oid(rev).map(|oid| oid.to_string())
    }

    fn resolve_oid(&self, rev: &str) -> Result<Oid, RevisionError> {
        let object = self.repo.revparse_single(rev).map_err(|source| {
            match source.code() {
                ErrorCode::NotFound | ErrorCode::InvalidSpec | ErrorCode::UnbornBranch => {
                    RevisionError::UnknownRevision {
                        rev: rev.to_string(),
                        repo: self.display_root().to_path_buf(),
                        shallow: self.is_shallow(),
                    }
                }
                ErrorCode::Ambiguous => RevisionError::git(
                    format!("revision `{rev}` is ambiguous: give more hex digits"),
                    source,
                ),
                _ => RevisionError::git(format!("cannot resolve revision `{rev}`"), source),
            }
        })?;
        let kind = object.kind();
        object
            .peel_to_commit()
            .map(|commit| commit.id())
            .map_err(|_| RevisionError::NotACommit {
                rev: rev.to_string(),
                kind: kind.map_or("object of unknown type", |kind| kind.str()).to_string(),
            })
    }

    fn display_root(&self) -> &Path {
        self.workdir.as_deref().unwrap_or(&self.git_dir)
    }

    /// Whether `ancestor` is reachable from `descendant`; a commit counts as its
    /// own ancestor.
    pub fn is_ancestor(&self, ancestor: &str, descendant: &str) -> Result<bool, RevisionError> {
        let ancestor_oid = self.resolve_oid(ancestor)?;
        let descendant_oid = self.resolve_oid(descendant)?;
        if ancestor_oid == descendant_oid {
            return Ok(true);
        }
        self.repo
            .graph_descendant_of(descendant_oid, ancestor_oid)
            .map_err(|source| {
                RevisionError::git(
                    format!("cannot tell whether `{ancestor}` is an ancestor of `{descendant}`"),
                    source,
                )
            })
    }

    /// The tree of the commit `commit` names, read straight from the object database.
    pub fn tree_snapshot(&self, commit: &str) -> Result<GitSnapshot, RevisionError> {
        let oid = self.resolve_oid(commit)?;
        GitSnapshot::new(&self.git_dir, oid)
    }

    /// The working tree: tracked files still on disk plus untracked files git
    /// does not ignore.
    pub fn worktree_snapshot(&self) -> Result<WorktreeSnapshot, RevisionError> {
        WorktreeSnapshot::capture(self)
    }
}

/// A commit's tree. Paths are listed when the snapshot is made; contents are
/// looked up lazily through the snapshot's own repository handle.
pub struct GitSnapshot {
    commit: Oid,
    /// Sorted paths; `blobs[i]` is the blob of `paths[i]`.
    paths: Vec<String>,
    blobs: Vec<Oid>,
    skipped: Vec<Skipped>,
    /// git2 handles are not `Sync`; the mutex lets one snapshot serve many readers.
    repo: Mutex<Repository>,
}

impl std::fmt::Debug for GitSnapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitSnapshot")
            .field("commit", &self.commit)
            .field("paths", &self.paths.len())
            .field("skipped", &self.skipped)
            .finish()
    }
}

const MODE_BLOB: i32 = 0o100644;
const MODE_BLOB_GROUP_WRITABLE: i32 = 0o100664;
const MODE_EXECUTABLE: i32 = 0o100755;
const MODE_LINK: i32 = 0o120000;

impl GitSnapshot {
    fn new(git_dir: &Path, commit: Oid) -> Result<GitSnapshot, RevisionError> {
        let repo = Repository::open(git_dir).map_err(|source| {
            RevisionError::git(
                format!("cannot reopen the repository at {}", git_dir.display()),
                source,
            )
        })?;
        let (mut files, mut skipped) = {
            let commit_object = repo
                .find_commit(commit)
                .map_err(|source| RevisionError::git(format!("cannot read commit {commit}"), source))?;
            let tree = commit_object.tree().map_err(|source| {
                RevisionError::git(format!("cannot read the tree of commit {commit}"), source)
            })?;
            list_tree(&repo, &tree)?
        };
        files.sort();
        skipped.sort();
        let (paths, blobs) = files.into_iter().unzip();
        Ok(GitSnapshot {
            commit,
            paths,
            blobs,
            skipped,
            repo: Mutex::new(repo),
        })
    }
}

/// Every (path, blob) of a tree, and the entries left out.
type TreeListing = (Vec<(String, Oid)>, Vec<Skipped>);

/// Lists every regular or executable blob below `root` with an explicit stack,
/// so a deep tree cannot exhaust the call stack.
fn list_tree(
    repo: &Repository,
    root: &git2::Tree<'_>,
) -> Result<TreeListing, RevisionError> {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut pending: Vec<(String, Oid)> = vec![(String::new(), root.id())];
    while let Some((prefix, tree_id)) = pending.pop() {
        let tree = repo.find_tree(tree_id).map_err(|source| {
            RevisionError::git(format!("cannot read tree {tree_id} at `{prefix}`"), source)
        })?;
        for entry in tree.iter() {
            let name = match std::str::from_utf8(entry.name_bytes()) {
                Ok(name) => name,
                Err(_) => {
                    skipped.push(Skipped {
                        path: format!(
                            "{prefix}{}",
                            String::from_utf8_lossy(entry.name_bytes())
                        ),
                        why: "path name is not UTF-8",
                    });
                    continue;
                }
            };
            let path = format!("{prefix}{name}");
            match (entry.kind(), entry.filemode()) {
                (Some(ObjectType::Tree), _) => pending.push((format!("{path}/"), entry.id())),
                (Some(ObjectType::Blob), MODE_LINK) => skipped.push(Skipped {
                    path,
                    why: "symbolic link",
                }),
                (Some(ObjectType::Blob), MODE_BLOB | MODE_BLOB_GROUP_WRITABLE | MODE_EXECUTABLE) => {
                    files.push((path, entry.id()))
                }
                (Some(ObjectType::Commit), _) => skipped.push(Skipped {
                    path,
                    why: "submodule (gitlink)",
                }),
                _ => skipped.push(Skipped {
                    path,
                    why: "not a regular file",
                }),
            }
        }
    }
    Ok((files, skipped))
}

impl Snapshot for GitSnapshot {
    fn paths(&self) -> &[String] {
        &self.paths
    }

    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        let Ok(index) = self.paths.binary_search_by(|p| p.as_str().cmp(path)) else {
            return Ok(None);
        };
        let Some(&blob_id) = self.blobs.get(index) else {
            return Ok(None);
        };
        let repo = self
            .repo
            .lock()
            .map_err(|_| std::io::Error::other("snapshot repository lock poisoned"))?;
        let blob = repo.find_blob(blob_id).map_err(|err| {
            std::io::Error::other(format!(
                "cannot read blob {blob_id} for `{path}` at {}: {}",
                self.commit,
                err.message()
            ))
        })?;
        Ok(Some(Arc::from(blob.content())))
    }

    fn label(&self) -> String {
        let mut label = self.commit.to_string();
        label.truncate(8);
        label
    }

    fn commit(&self) -> Option<String> {
        Some(self.commit.to_string())
    }

    fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }
}
