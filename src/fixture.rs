//! Fixture repositories built from a commit series on disk.
//!
//! Not a pipeline stage: this builds the repositories the pipeline is tested and
//! demonstrated against (integration tests, benches, the book's worked example,
//! `recount fixture`). A case is `fixtures/<case>/commits/NN-slug/`, each directory
//! the full tree of commit NN, plus an optional `series.toml` that puts commits on
//! branches, merges them and tags them. Authors, committers and dates are fixed, so a case gives
//! the same commit ids on every machine, forever.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use git2::{Oid, Repository, RepositoryInitOptions, Signature, Time};
use serde::Deserialize;

const AUTHOR_NAME: &str = "recount fixtures";
const AUTHOR_EMAIL: &str = "fixtures@recount.invalid";
/// 2026-09-01T00:00:00Z; commit NN is dated NN hours later.
const EPOCH_SECONDS: i64 = 1_788_220_800;
const MAIN: &str = "main";

/// Why a fixture case could not be built. Every variant names the offending path.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: commit directories must be named `NN-slug` (digits, a dash, a non-empty slug)", path.display())]
    BadCommitName { path: PathBuf },
    #[error("{}: holds no commit directories", path.display())]
    NoCommits { path: PathBuf },
    #[error("{} and {} share the commit number {number}", first.display(), second.display())]
    DuplicateNumber {
        number: u32,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("{}: {message}", path.display())]
    Series { path: PathBuf, message: String },
    #[error("{}: names commit `{name}`, but there is no directory commits/{name}", path.display())]
    UnknownSeriesCommit { path: PathBuf, name: String },
    #[error("{}: `{name}` is not a valid {what} name", path.display())]
    BadRefName {
        path: PathBuf,
        what: &'static str,
        name: String,
    },
    #[error("{}: tag `{tag}` is given to more than one commit", path.display())]
    DuplicateTag { path: PathBuf, tag: String },
    #[error("{}: branch `{branch}` forks from main, but no main commit comes before it", path.display())]
    BranchBeforeMain { path: PathBuf, branch: String },
    #[error("{}: `merges` names branch `{branch}`, which no earlier commit made (or the commit is itself on a branch)", path.display())]
    MergeOfNoBranch { path: PathBuf, branch: String },
    #[error("{}: no commit lands on main", path.display())]
    NoMainCommit { path: PathBuf },
    #[error("{}: a fixture tree cannot contain a `.git` entry", path.display())]
    GitEntry { path: PathBuf },
    #[error("{}: file name is not UTF-8", path.display())]
    NonUtf8Name { path: PathBuf },
    #[error("{}: only regular files, directories and symlinks can go in a fixture tree", path.display())]
    Unsupported { path: PathBuf },
    #[error("{}: destination exists and is not an empty directory", path.display())]
    DestinationNotEmpty { path: PathBuf },
    #[error("{}: {context}: {}", path.display(), source.message())]
    Git {
        path: PathBuf,
        context: &'static str,
        #[source]
        source: git2::Error,
    },
}

/// The commits a fixture build made, in series order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltFixture {
    /// (commit directory name, full commit id), in `NN` order.
    pub commits: Vec<(String, String)>,
}

impl BuiltFixture {
    /// The id of the first commit whose directory name starts with `name_prefix`
    /// (`"03"` or `"03-add-parser"`).
    pub fn oid(&self, name_prefix: &str) -> Option<&str> {
        self.commits
            .iter()
            .find(|(name, _)| name.starts_with(name_prefix))
            .map(|(_, oid)| oid.as_str())
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesFile {
    #[serde(default)]
    commits: BTreeMap<String, SeriesCommit>,
    /// Settings per branch: `[branches.NAME] deleted = true`.
    #[serde(default)]
    branches: BTreeMap<String, SeriesBranch>,
}

/// What happens to a branch once the series is built.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesBranch {
    /// The branch is deleted and its commits are gone from the object
    /// database, as after a squash merge and a garbage collection: their ids
    /// name nothing in the built repository.
    #[serde(default)]
    deleted: bool,
}

/// What `series.toml` says.
#[derive(Debug, Default)]
struct Series {
    commits: BTreeMap<String, SeriesCommit>,
    /// Branches to delete, with their commits, after the build.
    deleted: BTreeSet<String>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesCommit {
    branch: Option<String>,
    tag: Option<String>,
    /// Days the commit is dated later than its number's hour (a case whose
    /// history spans months: a path that came years after a line).
    #[serde(default)]
    days_later: u16,
    /// A main-line commit that merges this branch: its second parent is the
    /// branch's tip (a pull request merged with a merge commit).
    merges: Option<String>,
    /// The author's name, when not the fixtures' own (an automation
    /// account's `docs-sync[bot]`); the email stays the fixtures'.
    author: Option<String>,
}

struct CommitDir {
    number: u32,
    name: String,
    path: PathBuf,
}

/// Builds the fixture `case_dir` into a new repository at `dest` (created if
/// missing, and refused unless empty). HEAD ends on `main`, `origin/main` equals
/// `main`, and the working tree and index are checked out to `main`.
pub fn build(case_dir: &Path, dest: &Path) -> Result<BuiltFixture, FixtureError> {
    let commit_dirs = read_commit_dirs(&case_dir.join("commits"))?;
    let series_path = case_dir.join("series.toml");
    let series = read_series(&series_path, &commit_dirs)?;

    prepare_destination(dest)?;
    let git_err = |context: &'static str| {
        move |source: git2::Error| FixtureError::Git {
            path: dest.to_path_buf(),
            context,
            source,
        }
    };
    let mut init = RepositoryInitOptions::new();
    init.initial_head(MAIN);
    let repo = Repository::init_opts(dest, &init).map_err(git_err("cannot create repository"))?;

    let mut main_tip: Option<Oid> = None;
    let mut branch_tips: BTreeMap<String, Oid> = BTreeMap::new();
    let mut commits = Vec::with_capacity(commit_dirs.len());
    for dir in &commit_dirs {
        let settings = series.commits.get(&dir.name).cloned().unwrap_or_default();
        let branch = settings.branch.filter(|b| b != MAIN);
        let signature = fixed_signature(dir.number, settings.days_later)
            .map_err(git_err("cannot make signature"))?;
        let author = match &settings.author {
            Some(name) => Signature::new(name, AUTHOR_EMAIL, &signature.when())
                .map_err(git_err("cannot make the author's signature"))?,
            None => signature.clone(),
        };
        let tree_id = write_tree(&repo, &dir.path)?;
        let tree = repo
            .find_tree(tree_id)
            .map_err(git_err("cannot read back a written tree"))?;
        let parent_id = match &branch {
            None => main_tip,
            Some(name) => match branch_tips.get(name).copied().or(main_tip) {
                Some(id) => Some(id),
                None => {
                    return Err(FixtureError::BranchBeforeMain {
                        path: dir.path.clone(),
                        branch: name.clone(),
                    });
                }
            },
        };
        let merged = match &settings.merges {
            None => None,
            Some(name) => match branch_tips.get(name) {
                Some(id) if branch.is_none() => Some(*id),
                _ => {
                    return Err(FixtureError::MergeOfNoBranch {
                        path: dir.path.clone(),
                        branch: name.clone(),
                    });
                }
            },
        };
        let parent = parent_id
            .into_iter()
            .chain(merged)
            .map(|id| repo.find_commit(id))
            .collect::<Result<Vec<_>, _>>()
            .map_err(git_err("cannot read back a parent commit"))?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        let message = dir
            .name
            .split_once('-')
            .map_or("", |(_, slug)| slug)
            .replace('-', " ");
        let commit_id = repo
            .commit(None, &author, &signature, &message, &tree, &parents)
            .map_err(git_err("cannot write commit"))?;
        match &branch {
            None => main_tip = Some(commit_id),
            Some(name) => {
                branch_tips.insert(name.clone(), commit_id);
            }
        }
        if let Some(tag) = &settings.tag {
            let target = repo
                .find_object(commit_id, None)
                .map_err(git_err("cannot read back a commit"))?;
            repo.tag(tag, &target, &signature, tag, false)
                .map_err(git_err("cannot write tag"))?;
        }
        commits.push((dir.name.clone(), commit_id.to_string()));
    }

    let Some(main_id) = main_tip else {
        return Err(FixtureError::NoMainCommit {
            path: case_dir.to_path_buf(),
        });
    };
    for (name, tip) in &branch_tips {
        if series.deleted.contains(name) {
            continue;
        }
        repo.reference(&format!("refs/heads/{name}"), *tip, true, "fixture branch")
            .map_err(git_err("cannot write branch"))?;
    }
    repo.reference("refs/heads/main", main_id, true, "fixture main")
        .map_err(git_err("cannot write main"))?;
    repo.reference(
        "refs/remotes/origin/main",
        main_id,
        true,
        "fixture origin/main",
    )
    .map_err(git_err("cannot write origin/main"))?;
    repo.set_head("refs/heads/main")
        .map_err(git_err("cannot point HEAD at main"))?;
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
        .map_err(git_err("cannot check out main"))?;
    // A deleted branch's commits leave the object database (they are loose
    // objects: nothing here packs), so their ids resolve to nothing.
    for dir in &commit_dirs {
        let on_deleted = series
            .commits
            .get(&dir.name)
            .and_then(|c| c.branch.as_ref())
            .is_some_and(|b| series.deleted.contains(b));
        if !on_deleted {
            continue;
        }
        let Some((_, id)) = commits.iter().find(|(name, _)| *name == dir.name) else {
            continue;
        };
        let object = repo.path().join("objects").join(&id[..2]).join(&id[2..]);
        std::fs::remove_file(&object).map_err(io_err("remove", &object))?;
    }
    Ok(BuiltFixture { commits })
}

fn fixed_signature(number: u32, days_later: u16) -> Result<Signature<'static>, git2::Error> {
    let when = Time::new(
        EPOCH_SECONDS + i64::from(number) * 3600 + i64::from(days_later) * 86_400,
        0,
    );
    Signature::new(AUTHOR_NAME, AUTHOR_EMAIL, &when)
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> FixtureError {
    let path = path.to_path_buf();
    move |source| FixtureError::Io {
        action,
        path,
        source,
    }
}

fn read_commit_dirs(commits_root: &Path) -> Result<Vec<CommitDir>, FixtureError> {
    let mut by_number: BTreeMap<u32, CommitDir> = BTreeMap::new();
    let entries = std::fs::read_dir(commits_root).map_err(io_err("read", commits_root))?;
    for entry in entries {
        let entry = entry.map_err(io_err("read", commits_root))?;
        let path = entry.path();
        let file_type = entry.file_type().map_err(io_err("inspect", &path))?;
        if !file_type.is_dir() {
            return Err(FixtureError::BadCommitName { path });
        }
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(FixtureError::NonUtf8Name { path });
        };
        let number = name
            .split_once('-')
            .filter(|(digits, slug)| {
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && !slug.is_empty()
            })
            .and_then(|(digits, _)| digits.parse::<u32>().ok());
        let Some(number) = number else {
            return Err(FixtureError::BadCommitName { path });
        };
        if let Some(first) = by_number.get(&number) {
            let (first, second) = if first.path <= path {
                (first.path.clone(), path)
            } else {
                (path, first.path.clone())
            };
            return Err(FixtureError::DuplicateNumber {
                number,
                first,
                second,
            });
        }
        by_number.insert(number, CommitDir { number, name, path });
    }
    if by_number.is_empty() {
        return Err(FixtureError::NoCommits {
            path: commits_root.to_path_buf(),
        });
    }
    Ok(by_number.into_values().collect())
}

fn read_series(path: &Path, commit_dirs: &[CommitDir]) -> Result<Series, FixtureError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Series::default()),
        Err(source) => {
            return Err(FixtureError::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let series: SeriesFile = toml::from_str(&text).map_err(|err| FixtureError::Series {
        path: path.to_path_buf(),
        message: err.to_string().trim_end().to_string(),
    })?;
    let known: BTreeSet<&str> = commit_dirs.iter().map(|d| d.name.as_str()).collect();
    let mut tags = BTreeSet::new();
    for (name, settings) in &series.commits {
        if !known.contains(name.as_str()) {
            return Err(FixtureError::UnknownSeriesCommit {
                path: path.to_path_buf(),
                name: name.clone(),
            });
        }
        if let Some(branch) = &settings.branch
            && !git2::Reference::is_valid_name(&format!("refs/heads/{branch}"))
        {
            return Err(FixtureError::BadRefName {
                path: path.to_path_buf(),
                what: "branch",
                name: branch.clone(),
            });
        }
        if let Some(tag) = &settings.tag {
            if !git2::Reference::is_valid_name(&format!("refs/tags/{tag}")) {
                return Err(FixtureError::BadRefName {
                    path: path.to_path_buf(),
                    what: "tag",
                    name: tag.clone(),
                });
            }
            if !tags.insert(tag.clone()) {
                return Err(FixtureError::DuplicateTag {
                    path: path.to_path_buf(),
                    tag: tag.clone(),
                });
            }
        }
    }
    let deleted: BTreeSet<String> = series
        .branches
        .iter()
        .filter(|(_, b)| b.deleted)
        .map(|(name, _)| name.clone())
        .collect();
    for name in series.branches.keys() {
        let used = series
            .commits
            .values()
            .any(|c| c.branch.as_deref() == Some(name.as_str()));
        if !used || name == MAIN {
            return Err(FixtureError::Series {
                path: path.to_path_buf(),
                message: format!("[branches.{name}] names no branch a commit is on"),
            });
        }
    }
    for (name, settings) in &series.commits {
        if settings.tag.is_some()
            && settings
                .branch
                .as_ref()
                .is_some_and(|b| deleted.contains(b))
        {
            return Err(FixtureError::Series {
                path: path.to_path_buf(),
                message: format!("commit `{name}` is on a deleted branch and cannot be tagged"),
            });
        }
    }
    Ok(Series {
        commits: series.commits,
        deleted,
    })
}

fn prepare_destination(dest: &Path) -> Result<(), FixtureError> {
    match std::fs::read_dir(dest) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(FixtureError::DestinationNotEmpty {
                    path: dest.to_path_buf(),
                });
            }
            Ok(())
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dest).map_err(io_err("create", dest))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotADirectory => {
            Err(FixtureError::DestinationNotEmpty {
                path: dest.to_path_buf(),
            })
        }
        Err(source) => Err(FixtureError::Io {
            action: "read",
            path: dest.to_path_buf(),
            source,
        }),
    }
}

/// Writes `root` and everything below it as a tree. Directories are visited
/// children-first with an explicit stack; empty directories vanish, as in git.
fn write_tree(repo: &Repository, root: &Path) -> Result<Oid, FixtureError> {
    let git_err = |path: &Path, context: &'static str| {
        let path = path.to_path_buf();
        move |source: git2::Error| FixtureError::Git {
            path,
            context,
            source,
        }
    };
    // Each frame: a directory, its name in its parent (none for the root), its
    // entries still to visit, and the finished (name, oid, mode) entries.
    struct PendingDir {
        path: PathBuf,
        name: Option<String>,
        pending: Vec<(String, PathBuf)>,
        done: Vec<(String, Oid, i32)>,
    }
    let open = |path: &Path, name: Option<String>| -> Result<PendingDir, FixtureError> {
        let mut pending = Vec::new();
        for entry in std::fs::read_dir(path).map_err(io_err("read", path))? {
            let entry = entry.map_err(io_err("read", path))?;
            let child = entry.path();
            let Some(child_name) = entry.file_name().to_str().map(str::to_string) else {
                return Err(FixtureError::NonUtf8Name { path: child });
            };
            if child_name == ".git" {
                return Err(FixtureError::GitEntry { path: child });
            }
            pending.push((child_name, child));
        }
        Ok(PendingDir {
            path: path.to_path_buf(),
            name,
            pending,
            done: Vec::new(),
        })
    };

    let mut stack = vec![open(root, None)?];
    while let Some(frame) = stack.last_mut() {
        if let Some((name, child)) = frame.pending.pop() {
            let meta = std::fs::symlink_metadata(&child).map_err(io_err("inspect", &child))?;
            let file_type = meta.file_type();
            let (oid, mode) = if file_type.is_dir() {
                let next = open(&child, Some(name))?;
                stack.push(next);
                continue;
            } else if file_type.is_file() {
                let bytes = std::fs::read(&child).map_err(io_err("read", &child))?;
                let oid = repo
                    .blob(&bytes)
                    .map_err(git_err(&child, "cannot write blob"))?;
                (oid, file_mode(&meta))
            } else if file_type.is_symlink() {
                let target = std::fs::read_link(&child).map_err(io_err("read link", &child))?;
                let oid = repo
                    .blob(link_target_bytes(&target, &child)?.as_slice())
                    .map_err(git_err(&child, "cannot write blob"))?;
                (oid, 0o120000)
            } else {
                return Err(FixtureError::Unsupported { path: child });
            };
            frame.done.push((name, oid, mode));
            continue;
        }
        // Every entry is done: write the directory's tree and hand it to its parent.
        let Some(finished) = stack.pop() else {
            break;
        };
        let mut builder = repo
            .treebuilder(None)
            .map_err(git_err(&finished.path, "cannot start tree"))?;
        for (name, oid, mode) in &finished.done {
            builder
                .insert(name, *oid, *mode)
                .map_err(git_err(&finished.path, "cannot add tree entry"))?;
        }
        let tree_id = builder
            .write()
            .map_err(git_err(&finished.path, "cannot write tree"))?;
        match (stack.last_mut(), finished.name) {
            (Some(parent), Some(name)) => {
                if !finished.done.is_empty() {
                    parent.done.push((name, tree_id, 0o040000));
                }
            }
            _ => return Ok(tree_id),
        }
    }
    // Unreachable in practice: the root frame returns above when it finishes.
    Err(FixtureError::Unsupported {
        path: root.to_path_buf(),
    })
}

#[cfg(unix)]
fn file_mode(meta: &std::fs::Metadata) -> i32 {
    use std::os::unix::fs::PermissionsExt;
    if meta.permissions().mode() & 0o111 != 0 {
        0o100755
    } else {
        0o100644
    }
}

#[cfg(not(unix))]
fn file_mode(_meta: &std::fs::Metadata) -> i32 {
    0o100644
}

#[cfg(unix)]
fn link_target_bytes(target: &Path, _link: &Path) -> Result<Vec<u8>, FixtureError> {
    use std::os::unix::ffi::OsStrExt;
    Ok(target.as_os_str().as_bytes().to_vec())
}

#[cfg(not(unix))]
fn link_target_bytes(target: &Path, link: &Path) -> Result<Vec<u8>, FixtureError> {
    target
        .to_str()
        .map(|t| t.replace('\\', "/").into_bytes())
        .ok_or_else(|| FixtureError::NonUtf8Name {
            path: link.to_path_buf(),
        })
}

/// Helpers for tests across the crate that need a small repository.
#[cfg(test)]
pub(crate) mod testing {
    use std::path::{Path, PathBuf};

    use super::{BuiltFixture, build};

    /// One commit: its directory name and its full tree as (path, bytes).
    pub(crate) type CommitSpec<'a> = (&'a str, &'a [(&'a str, &'a [u8])]);

    /// Writes a case directory under `root/case`.
    pub(crate) fn write_case(
        root: &Path,
        commits: &[CommitSpec<'_>],
        series: Option<&str>,
    ) -> PathBuf {
        let case = root.join("case");
        for (name, files) in commits {
            let dir = case.join("commits").join(name);
            std::fs::create_dir_all(&dir).expect("create commit dir");
            for (path, bytes) in *files {
                let file = dir.join(path);
                if let Some(parent) = file.parent() {
                    std::fs::create_dir_all(parent).expect("create parent");
                }
                std::fs::write(&file, bytes).expect("write fixture file");
            }
        }
        if let Some(series) = series {
            std::fs::write(case.join("series.toml"), series).expect("write series");
        }
        case
    }

    /// A temporary directory holding a case and the repository built from it.
    pub(crate) struct BuiltCase {
        pub(crate) _temp: tempfile::TempDir,
        pub(crate) repo: PathBuf,
        pub(crate) built: BuiltFixture,
    }

    pub(crate) fn build_case(commits: &[CommitSpec<'_>], series: Option<&str>) -> BuiltCase {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(temp.path(), commits, series);
        let repo = temp.path().join("repo");
        let built = build(&case, &repo).expect("fixture builds");
        BuiltCase {
            _temp: temp,
            repo,
            built,
        }
    }

    /// The usual small history: three commits on main, one on `feature`, tags.
    pub(crate) fn standard() -> BuiltCase {
        build_case(
            &[
                (
                    "01-first-files",
                    &[("README.md", b"hello\n"), ("src/a.py", b"A = 1\n")],
                ),
                (
                    "02-add-docs",
                    &[
                        ("README.md", b"hello\n"),
                        ("src/a.py", b"A = 2\n"),
                        ("docs/adr.md", b"five hits\n"),
                    ],
                ),
                (
                    "03-try-idea",
                    &[("README.md", b"hello\n"), ("idea.txt", b"x\n")],
                ),
                (
                    "04-drop-docs",
                    &[("README.md", b"hello again\n"), ("src/a.py", b"A = 3\n")],
                ),
            ],
            Some(
                "[commits.\"03-try-idea\"]\nbranch = \"feature\"\n\n\
                 [commits.\"02-add-docs\"]\ntag = \"v1\"\n",
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{build_case, standard, write_case};
    use super::*;

    fn open(path: &Path) -> Repository {
        Repository::open(path).expect("open built repository")
    }

    fn tree_paths(repo: &Repository, commit: &str) -> Vec<String> {
        let commit = repo
            .find_commit(Oid::from_str(commit).expect("oid"))
            .expect("commit");
        let mut out = Vec::new();
        commit
            .tree()
            .expect("tree")
            .walk(git2::TreeWalkMode::PreOrder, |root, entry| {
                if entry.kind() == Some(git2::ObjectType::Blob) {
                    out.push(format!("{root}{}", entry.name().unwrap_or("?")));
                }
                git2::TreeWalkResult::Ok
            })
            .expect("walk");
        out.sort();
        out
    }

    #[test]
    fn same_case_twice_gives_identical_ids() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[
                ("01-start", &[("a.txt", b"a\n")]),
                ("02-more", &[("a.txt", b"a\n"), ("b/c.txt", b"c\n")]),
            ],
            Some("[commits.\"02-more\"]\ntag = \"v1\"\n"),
        );
        let first = build(&case, &temp.path().join("one")).expect("first build");
        let second = build(&case, &temp.path().join("two")).expect("second build");
        assert_eq!(first, second);
        assert_eq!(first.commits.len(), 2);
        let tag_one = open(&temp.path().join("one"))
            .revparse_single("v1")
            .expect("tag")
            .id();
        let tag_two = open(&temp.path().join("two"))
            .revparse_single("v1")
            .expect("tag")
            .id();
        assert_eq!(tag_one, tag_two);
    }

    #[test]
    fn commits_carry_fixed_identity_dates_and_messages() {
        let case = standard();
        let repo = open(&case.repo);
        let id = case.built.oid("04").expect("04 built");
        let commit = repo
            .find_commit(Oid::from_str(id).expect("oid"))
            .expect("commit");
        assert_eq!(commit.message().ok(), Some("drop docs"));
        for sig in [commit.author(), commit.committer()] {
            assert_eq!(sig.name().ok(), Some("recount fixtures"));
            assert_eq!(sig.email().ok(), Some("fixtures@recount.invalid"));
            assert_eq!(sig.when().seconds(), 1_788_220_800 + 4 * 3600);
            assert_eq!(sig.when().offset_minutes(), 0);
        }
        // 2026-09-01T01:00:00Z, written independently of EPOCH_SECONDS.
        let first = repo
            .find_commit(Oid::from_str(case.built.oid("01").expect("01")).expect("oid"))
            .expect("commit");
        assert_eq!(first.time().seconds(), 1_788_224_400);
        assert_eq!(first.parent_count(), 0);
    }

    #[test]
    fn branch_commit_stays_off_main_and_tag_points_at_its_commit() {
        let case = standard();
        let repo = open(&case.repo);
        let oid = |name: &str| Oid::from_str(case.built.oid(name).expect("built")).expect("oid");
        let main = repo.revparse_single("main").expect("main").id();
        assert_eq!(main, oid("04"));
        let feature = repo.revparse_single("feature").expect("feature").id();
        assert_eq!(feature, oid("03"));
        // 03 forks from 02 and 04 follows 02, not 03.
        let c3 = repo.find_commit(oid("03")).expect("03");
        assert_eq!(c3.parent_id(0).expect("parent"), oid("02"));
        let c4 = repo.find_commit(oid("04")).expect("04");
        assert_eq!(c4.parent_ids().collect::<Vec<_>>(), vec![oid("02")]);
        assert_eq!(
            tree_paths(&repo, case.built.oid("04").expect("04")),
            vec!["README.md", "src/a.py"]
        );
        assert_eq!(
            tree_paths(&repo, case.built.oid("03").expect("03")),
            vec!["README.md", "idea.txt"]
        );
        let tag = repo.revparse_single("v1").expect("v1");
        assert_eq!(tag.kind(), Some(git2::ObjectType::Tag));
        assert_eq!(tag.peel_to_commit().expect("peel").id(), oid("02"));
    }

    #[test]
    fn a_deleted_branch_leaves_no_ref_and_no_commit() {
        let case = build_case(
            &[
                ("01-base", &[("a", b"1")]),
                ("02-side", &[("a", b"1"), ("s", b"1")]),
                ("03-main", &[("a", b"2")]),
            ],
            Some("[commits.\"02-side\"]\nbranch = \"side\"\n[branches.side]\ndeleted = true\n"),
        );
        let repo = open(&case.repo);
        let gone = case.built.oid("02").expect("02 is listed");
        assert!(repo.revparse_single("side").is_err());
        assert!(repo.revparse_single(gone).is_err(), "{gone} still resolves");
        assert!(repo.revparse_single(&gone[..8]).is_err());
        assert!(repo.revparse_single("main").is_ok());
    }

    #[test]
    fn a_branches_entry_must_name_a_branch() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")])],
            Some("[branches.side]\ndeleted = true\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("no such branch");
        assert!(err.to_string().contains("names no branch"), "{err}");
    }

    #[test]
    fn later_commits_on_a_branch_extend_it() {
        let case = build_case(
            &[
                ("01-base", &[("a", b"1")]),
                ("02-side", &[("a", b"1"), ("s", b"1")]),
                ("03-main", &[("a", b"2")]),
                ("04-side-again", &[("a", b"1"), ("s", b"2")]),
            ],
            Some(
                "[commits.\"02-side\"]\nbranch = \"side\"\n\
                 [commits.\"04-side-again\"]\nbranch = \"side\"\n",
            ),
        );
        let repo = open(&case.repo);
        let oid = |name: &str| Oid::from_str(case.built.oid(name).expect("built")).expect("oid");
        assert_eq!(repo.revparse_single("side").expect("side").id(), oid("04"));
        let c4 = repo.find_commit(oid("04")).expect("04");
        assert_eq!(c4.parent_id(0).expect("parent"), oid("02"));
        assert_eq!(repo.revparse_single("main").expect("main").id(), oid("03"));
    }

    #[test]
    fn head_origin_main_index_and_working_tree_match_main() {
        let case = standard();
        let repo = open(&case.repo);
        let head = repo.find_reference("HEAD").expect("HEAD");
        assert_eq!(
            head.symbolic_target().ok().flatten(),
            Some("refs/heads/main")
        );
        let main = repo.refname_to_id("refs/heads/main").expect("main");
        assert_eq!(
            repo.refname_to_id("refs/remotes/origin/main")
                .expect("origin/main"),
            main
        );
        assert_eq!(
            std::fs::read(case.repo.join("README.md")).expect("checked out"),
            b"hello again\n"
        );
        assert!(!case.repo.join("docs").exists());
        // git itself agrees that nothing differs from main.
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(&case.repo)
            .args(["status", "--porcelain", "--untracked-files=all"])
            .output()
            .expect("git runs");
        assert!(status.status.success());
        assert_eq!(String::from_utf8_lossy(&status.stdout), "");
    }

    #[cfg(unix)]
    #[test]
    fn executable_bit_and_symlinks_are_kept_and_empty_dirs_vanish() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-start", &[("run.sh", b"#!/bin/sh\n")])],
            None,
        );
        let dir = case.join("commits/01-start");
        std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        std::os::unix::fs::symlink("run.sh", dir.join("link")).expect("symlink");
        std::fs::create_dir_all(dir.join("empty/inner")).expect("empty dirs");
        let built = build(&case, &temp.path().join("repo")).expect("builds");
        let repo = open(&temp.path().join("repo"));
        let tree = repo
            .find_commit(Oid::from_str(built.oid("01").expect("01")).expect("oid"))
            .expect("commit")
            .tree()
            .expect("tree");
        let modes: Vec<(String, i32)> = tree
            .iter()
            .map(|e| (e.name().unwrap_or("?").to_string(), e.filemode()))
            .collect();
        assert_eq!(
            modes,
            vec![
                ("link".to_string(), 0o120000),
                ("run.sh".to_string(), 0o100755)
            ]
        );
    }

    #[test]
    fn bad_commit_directory_name_is_named() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(temp.path(), &[("first", &[("a", b"1")])], None);
        let err = build(&case, &temp.path().join("repo")).expect_err("bad name");
        assert!(matches!(err, FixtureError::BadCommitName { .. }), "{err}");
        assert!(err.to_string().contains("first"), "{err}");
    }

    #[test]
    fn duplicate_number_is_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")]), ("1-b", &[("a", b"2")])],
            None,
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("duplicate");
        assert!(
            matches!(err, FixtureError::DuplicateNumber { number: 1, .. }),
            "{err}"
        );
    }

    #[test]
    fn series_naming_a_missing_commit_is_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")])],
            Some("[commits.\"02-b\"]\ntag = \"v1\"\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("unknown commit");
        assert!(
            matches!(&err, FixtureError::UnknownSeriesCommit { name, .. } if name == "02-b"),
            "{err}"
        );
        assert!(err.to_string().contains("series.toml"), "{err}");
    }

    #[test]
    fn unknown_series_key_and_bad_names_are_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")])],
            Some("[commits.\"01-a\"]\nbrnch = \"x\"\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("typo");
        assert!(matches!(err, FixtureError::Series { .. }), "{err}");

        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")])],
            Some("[commits.\"01-a\"]\nbranch = \"bad..name\"\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("bad branch");
        assert!(
            matches!(err, FixtureError::BadRefName { what: "branch", .. }),
            "{err}"
        );
    }

    #[test]
    fn a_merge_has_the_branch_tip_as_second_parent_and_a_merge_of_no_branch_is_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[
                ("01-a", &[("a", b"1")]),
                ("02-b", &[("a", b"2")]),
                ("03-c", &[("a", b"2")]),
            ],
            Some("[commits.\"02-b\"]\nbranch = \"side\"\n[commits.\"03-c\"]\nmerges = \"side\"\n"),
        );
        let built = build(&case, &temp.path().join("repo")).expect("builds");
        let repo = Repository::open(temp.path().join("repo")).expect("opens");
        let id = |prefix: &str| Oid::from_str(built.oid(prefix).expect("built")).expect("an id");
        let merge = repo.find_commit(id("03")).expect("the merge commit");
        assert_eq!(merge.parent_ids().collect::<Vec<_>>(), [id("01"), id("02")]);

        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")]), ("02-b", &[("a", b"2")])],
            Some("[commits.\"02-b\"]\nmerges = \"side\"\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("no such branch");
        assert!(matches!(err, FixtureError::MergeOfNoBranch { .. }), "{err}");
    }

    #[test]
    fn branch_before_any_main_commit_is_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(
            temp.path(),
            &[("01-a", &[("a", b"1")]), ("02-b", &[("a", b"2")])],
            Some("[commits.\"01-a\"]\nbranch = \"side\"\n"),
        );
        let err = build(&case, &temp.path().join("repo")).expect_err("no fork point");
        assert!(
            matches!(err, FixtureError::BranchBeforeMain { .. }),
            "{err}"
        );
    }

    #[test]
    fn non_empty_destination_is_refused() {
        let temp = tempfile::tempdir().expect("tempdir");
        let case = write_case(temp.path(), &[("01-a", &[("a", b"1")])], None);
        let dest = temp.path().join("dest");
        std::fs::create_dir_all(&dest).expect("dest");
        std::fs::write(dest.join("keep"), b"x").expect("file");
        let err = build(&case, &dest).expect_err("not empty");
        assert!(
            matches!(err, FixtureError::DestinationNotEmpty { .. }),
            "{err}"
        );
        assert_eq!(std::fs::read(dest.join("keep")).expect("untouched"), b"x");
    }

    #[test]
    fn missing_commits_directory_names_it() {
        let temp = tempfile::tempdir().expect("tempdir");
        let err = build(temp.path(), &temp.path().join("repo")).expect_err("no commits");
        assert!(matches!(err, FixtureError::Io { .. }), "{err}");
        assert!(err.to_string().contains("commits"), "{err}");
    }
}
