//! Fixture repositories built from a commit series on disk.
//!
//! Not a pipeline stage: this builds the repositories the pipeline is tested and
//! demonstrated against (integration tests, benches, the README's worked example,
//! `recount fixture`). A case is `fixtures/<case>/commits/NN-slug/`, each directory
//! the full tree of commit NN, plus an optional `series.toml` that puts commits on
//! branches and tags them. Authors, committers and dates are fixed, so a case gives
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
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesCommit {
    branch: Option<String>,
    tag: Option<String>,
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
        let settings = series.get(&dir.name).cloned().unwrap_or_default();
        let branch = settings.branch.filter(|b| b != MAIN);
        let signature = fixed_signature(dir.number).map_err(git_err("cannot make signature"))?;
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
        let parent = parent_id
            .map(|id| repo.find_commit(id))
            .transpose()
            .map_err(git_err("cannot read back a parent commit"))?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        let message = dir.name.split_once('-').map_or("", |(_, slug)| slug).replace('-', " ");
        let commit_id = repo
            .commit(None, &signature, &signature, &message, &tree, &parents)
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
        repo.reference(&format!("refs/heads/{name}"), *tip, true, "fixture branch")
            .map_err(git_err("cannot write branch"))?;
    }
    repo.reference("refs/heads/main", main_id, true, "fixture main")
        .map_err(git_err("cannot write main"))?;
    repo.reference("refs/remotes/origin/main", main_id, true, "fixture origin/main")
        .map_err(git_err("cannot write origin/main"))?;
    repo.set_head("refs/heads/main")
        .map_err(git_err("cannot point HEAD at main"))?;
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
        .map_err(git_err("cannot check out main"))?;
    Ok(BuiltFixture { commits })
}

fn fixed_signature(number: u32) -> Result<Signature<'static>, git2::Error> {
    let when = Time::new(EPOCH_SECONDS + i64::from(number) * 3600, 0);
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

fn read_series(
    path: &Path,
    commit_dirs: &[CommitDir],
) -> Result<BTreeMap<String, SeriesCommit>, FixtureError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
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
    Ok(series.commits)
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
    struct Frame {
        path: PathBuf,
        name: Option<String>,
        pending: Vec<(String, PathBuf)>,
        done: Vec<(String, Oid, i32)>,
    }
    let open = |path: &Path, name: Option<String>| -> Result<Frame, FixtureError> {
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
        Ok(Frame {
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
