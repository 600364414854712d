//! Snapshots of a commit's tree, read from the object database with git2.
//!
//! Stage 1 of the pipeline: [`GitRepo`] opens the audited repository, resolves the
//! revisions rules name as frames, answers ancestry questions, and hands out
//! [`GitSnapshot`]s (a commit's tree, no checkout) and working-tree snapshots.
//! Everything here is read-only: no index refresh, no locks, no ref updates.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};

use git2::{ErrorCode, ObjectType, Oid, Repository};

use super::memo::Remembered;
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
    /// git's ownership check refused the repository (CVE-2022-24765): it belongs
    /// to another user, as a checkout does inside a CI container.
    #[error(
        "{} belongs to another user, and git reads such a repository only when it is \
         marked safe: if you trust it, run `git config --global --add safe.directory {}` \
         (in CI, a step before recount; actions/checkout in a container needs it too)",
        path.display(),
        path.display()
    )]
    NotOwned { path: PathBuf },
    /// A working-tree snapshot was asked of a bare repository.
    #[error("{} is a bare repository: it has no working tree to read; name a commit with --rev (HEAD, say)", path.display())]
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

/// Why a frame (a rule's `at`, a record's "measured at") names no commit this
/// clone can read: the reason a `frame-unresolved` finding gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameFailure {
    /// Not in this clone: the clone is shallow, so the commit may lie beyond
    /// the history it holds.
    NotInClone,
    /// No object by that name in a full clone: the commit was on a branch that
    /// was squash-merged or rebased away, or the id is mistyped.
    UnknownObject,
    /// A prefix that more than one object shares.
    AmbiguousPrefix,
    /// A date before the first commit of the main line this clone holds.
    NoCommitByDate { main: String, shallow: bool },
    /// Gone for good, and the commit that wrote it into its file also wrote
    /// other gone commits there: it stands in for none of them.
    SharedWriter { writer: String, others: Vec<String> },
    /// Anything else (it names a tree or a blob, the object cannot be read).
    Other(String),
}

impl FrameFailure {
    /// A short name for the reason: `not in this clone`, `unknown object`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            FrameFailure::NotInClone => "not in this clone",
            FrameFailure::UnknownObject => "unknown object",
            FrameFailure::AmbiguousPrefix => "ambiguous prefix",
            FrameFailure::NoCommitByDate { .. } => "no commit by that date",
            FrameFailure::SharedWriter { .. } => "unknown object",
            FrameFailure::Other(_) => "unreadable",
        }
    }

    /// Why, for people, with what to do about it.
    pub fn explain(&self, rev: &str) -> String {
        match self {
            FrameFailure::NotInClone => format!(
                "not in this clone: the clone is shallow and `{rev}` may lie beyond the history \
                 it holds (fetch the full history: `fetch-depth: 0` for actions/checkout, or \
                 `git fetch --unshallow`)"
            ),
            FrameFailure::UnknownObject => format!(
                "unknown object: no commit `{rev}` in this repository (a commit of a branch \
                 that was squash-merged or rebased away, or a mistyped id)"
            ),
            FrameFailure::AmbiguousPrefix => format!(
                "ambiguous prefix: more than one object starts with `{rev}` (give more hex digits)"
            ),
            FrameFailure::NoCommitByDate { main, shallow } => format!(
                "no commit of the first-parent line of `{main}` is dated on or before {rev}{}",
                if *shallow {
                    " in this shallow clone (fetch the full history: `fetch-depth: 0` for \
                     actions/checkout)"
                } else {
                    ""
                }
            ),
            FrameFailure::SharedWriter { writer, others } => format!(
                "unknown object: no commit `{rev}` in this repository (a commit of a branch \
                 that was squash-merged or rebased away); {}, the commit that wrote it here, \
                 also wrote {}, so it is the tree of at most one of them and stands in for none \
                 (name the commit each was measured at that the repository has)",
                &writer[..writer.len().min(12)],
                others
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FrameFailure::Other(why) => why.clone(),
        }
    }
}

impl RevisionError {
    /// The reason a frame naming this revision is unresolved.
    pub fn frame_failure(&self) -> FrameFailure {
        match self {
            RevisionError::UnknownRevision { shallow: true, .. } => FrameFailure::NotInClone,
            RevisionError::UnknownRevision { shallow: false, .. } => FrameFailure::UnknownObject,
            RevisionError::Git { source, .. } if source.code() == ErrorCode::Ambiguous => {
                FrameFailure::AmbiguousPrefix
            }
            other => FrameFailure::Other(other.to_string()),
        }
    }
}

/// A calendar day (UTC), as a date frame names it: `2026-09-13`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Day {
    /// Parses `YYYY-MM-DD`; `None` unless it is a real calendar day.
    pub fn parse(text: &str) -> Option<Day> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let digits = |r: std::ops::Range<usize>| {
            let s = text.get(r)?;
            s.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| s.parse::<u32>().ok())
                .flatten()
        };
        let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days_in_month = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (1..=days_in_month).contains(&day).then_some(Day {
            year: i32::try_from(year).ok()?,
            month,
            day,
        })
    }

    /// The day (UTC) holding `seconds` since the Unix epoch.
    pub fn from_unix(seconds: i64) -> Day {
        // The civil date of a day number (H. Hinnant's algorithm).
        let z = seconds.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Day {
            year: i32::try_from(year).unwrap_or(i32::MAX),
            month: u32::try_from(month).unwrap_or(1),
            day: u32::try_from(day).unwrap_or(1),
        }
    }

    /// Today, UTC, by the system clock.
    pub fn today() -> Day {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        Day::from_unix(seconds)
    }

    /// The last second of the day, UTC, as seconds since the Unix epoch.
    pub fn end_utc(self) -> i64 {
        // Days from the civil date (H. Hinnant's algorithm).
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        days * 86_400 + 86_399
    }
}

impl std::fmt::Display for Day {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
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

/// The repository libgit2's ownership check names (`repository path '/x' is not
/// owned by current user`): the folder `safe.directory` must list, which is the
/// repository's root, not the folder discovery started from.
fn owned_path(error: &git2::Error) -> Option<PathBuf> {
    let message = error.message();
    let start = message.find('\'')? + 1;
    let end = start + message.get(start..)?.find('\'')?;
    Some(PathBuf::from(message.get(start..end)?))
}

/// Turns off libgit2's re-hashing of every object it reads, once per process:
/// with it on, reading a large tree is measurably slow, and the object database
/// of the audited repository is trusted the way git itself trusts it.
/// The names a listing of libgit2's gives (tags, remotes), owned: none when
/// it cannot list them, a name that is not UTF-8 left out.
fn owned_strings(listed: Result<git2::string_array::StringArray, git2::Error>) -> Vec<String> {
    listed
        .map(|names| {
            names
                .iter()
                .flatten()
                .flatten()
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn relax_hash_verification() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// Turns libgit2's object cache off for the rest of the process, for a walk
/// over a range of commits (`history`, `bisect`). The cache keeps every small
/// tree and commit read, up to 256 MiB per repository handle, and a walk reads
/// each commit's trees about once: kept, they only make memory grow with the
/// range (140 MiB over 2,000 commits of the history bench, 85 MiB without; the
/// walk no slower). A single audit re-reads the same trees (the citation
/// evidence looks paths up commit by commit) and keeps the cache: off, it cost
/// 7-22% of `check`'s wall time on corpus repositories (BENCHMARKS.md).
pub fn drop_object_cache_for_walks() {
    git2::opts::enable_caching(false);
}

/// Which way a rename is asked about, from the commit that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rename {
    /// Where a path of the parent went.
    To,
    /// Where a path of the commit came from.
    From,
}

/// What became of a path that is gone: renamed (to where, in which commit) or
/// deleted (in which commit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathFate {
    Renamed {
        to: String,
        commit: String,
    },
    Deleted {
        commit: String,
    },
    /// A folder whose files went to several folders, the one most went to
    /// first.
    Split {
        into: Vec<String>,
        commit: String,
    },
}

/// At most this many files of a gone folder are followed to where they went
/// (a folder of thousands is judged by its first ones, in tree order).
const FOLDER_FILES: usize = 256;

impl PathFate {
    /// The commit it went in (short).
    pub fn commit(&self) -> &str {
        match self {
            PathFate::Renamed { commit, .. }
            | PathFate::Deleted { commit }
            | PathFate::Split { commit, .. } => commit,
        }
    }
}

impl std::fmt::Display for PathFate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathFate::Renamed { to, commit } => write!(f, "renamed to `{to}` in {commit}"),
            PathFate::Deleted { commit } => write!(f, "deleted in {commit}"),
            PathFate::Split { into, commit } => {
                f.write_str("split into ")?;
                for (i, folder) in into.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == into.len() { " and " } else { ", " })?;
                    }
                    write!(f, "`{folder}`")?;
                }
                write!(f, " in {commit}")
            }
        }
    }
}

/// What became of a gone path, followed through every rename after the
/// first: a file renamed to a path that is itself gone since went on (pint's
/// `docs/wrapping.rst` became `docs/user/wrapping.rst`, then
/// `docs/advanced/wrapping.rst`). Each step but the last is a rename.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FateChain {
    pub steps: Vec<PathFate>,
    /// Whether the last step's path is there at the audited tree (a rename
    /// followed to its end), so it may be suggested.
    pub lands: bool,
}

impl FateChain {
    /// How many renames in a row are followed before the chain is cut (each
    /// is one more walk of the history).
    pub const MAX_STEPS: usize = 8;

    /// The path the chain ends at, when it ends at one the tree has: the
    /// did-you-mean. Never a path that is itself gone.
    pub fn suggestion(&self) -> Option<&str> {
        match self.steps.last()? {
            PathFate::Renamed { to, .. } if self.lands => Some(to),
            _ => None,
        }
    }
}

impl std::fmt::Display for FateChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(", then ")?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

/// At most this many added and deleted files in one diff are paired by
/// similarity (git's rename detection); beyond it, by identical contents.
const MAX_SIMILARITY_PAIRING: usize = 400;

/// An opened repository: the source of every snapshot recount reads.
pub struct GitRepo {
    repo: Repository,
    git_dir: PathBuf,
    workdir: Option<PathBuf>,
    /// The files two trees add and delete, by the trees' ids: a commit that
    /// moved a whole tree is diffed once however many paths it moved.
    changes: std::sync::Mutex<std::collections::BTreeMap<(Oid, Oid), Arc<TreeChanges>>>,
    /// First parents and path lookups remembered between runs, when a cache
    /// folder is given.
    memo: Option<super::memo::ObjectMemo>,
    /// The entries of the trees path lookups went through, by tree id.
    trees: std::sync::Mutex<TreeEntries>,
}

/// Tree entries read by path lookups, sorted by name, by tree id: libgit2
/// keeps no tree over 4 KiB in its object cache, so a folder of thousands
/// of files was inflated again for every path looked up in it (16,000
/// missing links in one folder: 24 s, the time in zlib's checksum).
#[derive(Default)]
struct TreeEntries {
    by_tree: std::collections::HashMap<Oid, Entries>,
    held: usize,
}

/// One tree's entries, by name: each name and the object it names.
type Entries = Arc<Vec<(Box<str>, Oid)>>;

/// The most entries [`TreeEntries`] holds before it starts over.
const MAX_TREE_ENTRIES_HELD: usize = 1 << 20;

/// How many of `a`'s non-blank lines `b` holds too, each line of `b` used
/// once: the likeness of two texts, as a diff would count what it keeps.
fn shared_lines(a: &str, b: &str) -> usize {
    let mut left: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for line in b.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *left.entry(line).or_default() += 1;
    }
    a.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter(|line| match left.get_mut(line) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count()
}

/// What one tree diff adds and deletes, by path and blob id.
#[derive(Default)]
struct TreeChanges {
    added: Vec<(Oid, String)>,
    deleted: std::collections::BTreeMap<String, Oid>,
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
            if source.code() == ErrorCode::Owner {
                RevisionError::NotOwned {
                    path: owned_path(&source).unwrap_or_else(|| start.to_path_buf()),
                }
            } else if source.code() == ErrorCode::NotFound {
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
            if source.code() == ErrorCode::Owner {
                RevisionError::NotOwned {
                    path: owned_path(&source).unwrap_or_else(|| path.to_path_buf()),
                }
            } else if source.code() == ErrorCode::NotFound {
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
        // libgit2 takes a git folder without configuration (no `core.bare`)
        // for a repository whose working tree is the folder around it,
        // whatever that holds: a bare copy kept as `mirror/repo` would be
        // audited as `mirror/` (no records, a silent "clean") and `init`
        // would write there. A working tree holds a `.git` (a folder, or a
        // linked worktree's file) or is named by `core.worktree`; any other
        // is no working tree, and the repository is read as bare.
        let named = || {
            repo.config()
                .is_ok_and(|config| config.get_path("core.worktree").is_ok())
        };
        let workdir = repo
            .workdir()
            .filter(|dir| dir.join(".git").exists() || named())
            .map(Path::to_path_buf);
        GitRepo {
            repo,
            git_dir,
            workdir,
            changes: Default::default(),
            memo: None,
            trees: Default::default(),
        }
    }

    /// Remembers first parents and path lookups in `dir` between runs (see
    /// [`super::memo`]); `Err` says why not (a folder inside the repository).
    pub fn remember_in(&mut self, dir: &Path) -> Result<(), String> {
        let memo = super::memo::ObjectMemo::open(dir, &self.git_dir, self.workdir.as_deref())?;
        self.memo = Some(memo);
        Ok(())
    }

    /// Has the cache file keep what it held when this run writes it back.
    pub fn remember_as_well(&self) {
        if let Some(memo) = &self.memo {
            memo.add_to_what_it_holds();
        }
    }

    /// Writes back what this run remembered; `Some` says why it could not.
    pub fn save_memo(&self) -> Option<String> {
        self.memo.as_ref()?.save().err()
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

    /// The names of the repository's tags (none when it cannot list them).
    pub fn tag_names(&self) -> Vec<String> {
        let mut names = owned_strings(self.repo.tag_names(None));
        names.sort();
        names
    }

    /// The repository's branches, local and remote-tracking, by name (the
    /// remote's dropped: `origin/main` is `main`), each with the full ref that
    /// names it; a local branch before a remote one of the same name. A
    /// remote-tracking ref counts only for a remote the repository has: in a
    /// mirror, `refs/remotes/public/master` is a ref the upstream happened to
    /// hold, tracking nothing, and no branch a forge serves.
    pub fn branch_refs(&self) -> Vec<(String, String)> {
        let remotes = owned_strings(self.repo.remotes());
        let mut refs: Vec<(String, String)> = self
            .repo
            .branches(None)
            .map(|branches| {
                branches
                    .flatten()
                    .filter_map(|(branch, kind)| {
                        let full = branch.get().name().ok()?.to_owned();
                        let name = branch.name().ok().flatten()?;
                        let name = match kind {
                            git2::BranchType::Local => name.to_owned(),
                            git2::BranchType::Remote => remotes
                                .iter()
                                .find_map(|remote| {
                                    name.strip_prefix(remote.as_str())?.strip_prefix('/')
                                })?
                                .to_owned(),
                        };
                        (name != "HEAD").then_some((name, full))
                    })
                    .collect()
            })
            .unwrap_or_default();
        // `refs/heads/` sorts before `refs/remotes/`.
        refs.sort();
        refs.dedup_by(|a, b| a.0 == b.0);
        refs
    }

    /// The branches that are the repository's default: the one `HEAD` names,
    /// and the one `origin/HEAD` names.
    pub fn default_branches(&self) -> Vec<String> {
        let mut names = Vec::new();
        if let Ok(head) = self.repo.find_reference("HEAD")
            && let Ok(Some(target)) = head.symbolic_target()
            && let Some(name) = target.strip_prefix("refs/heads/")
        {
            names.push(name.to_owned());
        }
        if let Ok(head) = self.repo.find_reference("refs/remotes/origin/HEAD")
            && let Ok(Some(target)) = head.symbolic_target()
            && let Some(name) = target.strip_prefix("refs/remotes/origin/")
        {
            names.push(name.to_owned());
        }
        names
    }

    /// The address of the remote `name`, as its configuration gives it.
    pub fn remote_url(&self, name: &str) -> Option<String> {
        let remote = self.repo.find_remote(name).ok()?;
        remote.url().ok().map(str::to_owned)
    }

    /// The full hex id of the commit `rev` names: a full or short id, a branch,
    /// a tag (peeled to its commit), `HEAD~3`, `origin/main`, ...
    pub fn resolve(&self, rev: &str) -> Result<String, RevisionError> {
        self.resolve_oid(rev).map(|oid| oid.to_string())
    }

    fn resolve_oid(&self, rev: &str) -> Result<Oid, RevisionError> {
        let object = self
            .repo
            .revparse_single(rev)
            .map_err(|source| match source.code() {
                ErrorCode::NotFound | ErrorCode::InvalidSpec | ErrorCode::UnbornBranch => {
                    RevisionError::UnknownRevision {
                        rev: rev.to_string(),
                        repo: self.display_root().components().collect(),
                        shallow: self.is_shallow(),
                    }
                }
                ErrorCode::Ambiguous => RevisionError::git(
                    format!("revision `{rev}` is too short or ambiguous: give more hex digits"),
                    source,
                ),
                _ => RevisionError::git(format!("cannot resolve revision `{rev}`"), source),
            })?;
        let kind = object.kind();
        object
            .peel_to_commit()
            .map(|commit| commit.id())
            .map_err(|_| RevisionError::NotACommit {
                rev: rev.to_string(),
                kind: kind
                    .map_or("object of unknown type", |kind| kind.str())
                    .to_string(),
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

    /// The last commit of the first-parent line of `main` committed at or before
    /// the end of `day` (UTC): the commit a date frame names. `Ok(None)` when
    /// the line this clone holds starts after that day.
    pub fn last_commit_by(&self, main: &str, day: Day) -> Result<Option<String>, RevisionError> {
        let cutoff = day.end_utc();
        let head = self.resolve_oid(main)?;
        let walk = || {
            let mut oid = head;
            loop {
                // A shallow clone's history stops at a commit whose parent is absent.
                let commit = self.repo.find_commit(oid).ok()?;
                if commit.time().seconds() <= cutoff {
                    return Some(oid);
                }
                oid = commit.parent_ids().next()?;
            }
        };
        let found = match &self.memo {
            Some(memo) => memo.last_commit_by(head, cutoff, walk),
            None => walk(),
        };
        Ok(found.map(|oid| oid.to_string()))
    }

    /// What became of each of `paths` on the first-parent line that ends at
    /// `from` (a revision): the newest commit where a path was there in the
    /// parent and gone from the commit, and what git's rename detection says it
    /// became. One walk back over at most `limit` commits serves every path; a
    /// path not removed within them (never there, removed earlier, or a shallow
    /// history) has no entry.
    pub fn fates_of(
        &self,
        paths: &[String],
        from: &str,
        limit: usize,
    ) -> std::collections::BTreeMap<String, PathFate> {
        let mut fates = std::collections::BTreeMap::new();
        let Ok(start) = self.resolve_oid(from) else {
            return fates;
        };
        // A path whose walk from this commit is remembered is not walked again.
        let mut pending: Vec<&String> = Vec::new();
        match &self.memo {
            Some(memo) => {
                for (path, known) in paths.iter().zip(memo.fates(start, limit, paths)) {
                    match known {
                        Remembered::Found(Some(fate)) => {
                            fates.insert(path.clone(), fate);
                        }
                        Remembered::Found(None) => {}
                        // A loaded fate is checked against the trees; a loaded
                        // "not removed" cannot be without the walk, so is walked.
                        Remembered::Loaded(Some(fate)) if self.fate_holds(path, &fate) => {
                            memo.keep_fate(start, limit, path, Some(fate.clone()));
                            fates.insert(path.clone(), fate);
                        }
                        Remembered::Loaded(Some(_)) => {
                            memo.distrust();
                            pending.push(path);
                        }
                        Remembered::Loaded(None) | Remembered::Unknown => pending.push(path),
                    }
                }
            }
            None => pending.extend(paths),
        }
        let walked: Vec<&String> = pending.clone();
        let reached_the_end = self.walk_fates(start, limit, pending, &mut fates);
        if let Some(memo) = &self.memo {
            for path in walked {
                let fate = fates.get(path.as_str()).cloned();
                // "Not removed" is final only when the walk used its whole
                // length or reached a root, not where a shallow clone stops.
                if fate.is_some() || reached_the_end {
                    memo.keep_fate(start, limit, path, fate);
                }
            }
        }
        fates
    }

    /// The walk of [`GitRepo::fates_of`] for `pending`, adding to `fates`;
    /// `false` when it stopped short of `limit` commits at a commit that
    /// could not be read or a missing parent (a shallow clone's boundary).
    fn walk_fates(
        &self,
        start: Oid,
        limit: usize,
        mut pending: Vec<&String>,
        fates: &mut std::collections::BTreeMap<String, PathFate>,
    ) -> bool {
        if pending.is_empty() {
            return true;
        }
        let Ok(mut commit) = self.repo.find_commit(start) else {
            return false;
        };
        let Ok(mut here) = commit.tree() else {
            return false;
        };
        for _ in 0..limit {
            if pending.is_empty() {
                break;
            }
            if commit.parent_count() == 0 {
                return true;
            }
            let Ok(parent) = commit.parent(0) else {
                return false;
            };
            let Ok(before) = parent.tree() else {
                return false;
            };
            // Only a path under a top-level entry the commit changed can have
            // gone in it: each pending path's first name is looked up in the
            // two root trees once, not every pending path twice in full.
            let mut firsts: std::collections::BTreeMap<&str, bool> = Default::default();
            let gone: Vec<&String> = pending
                .iter()
                .copied()
                .filter(|path| {
                    let first = path.split('/').next().unwrap_or(path);
                    let changed = *firsts.entry(first).or_insert_with(|| {
                        before.get_name(first).map(|e| e.id())
                            != here.get_name(first).map(|e| e.id())
                    });
                    if !changed {
                        return false;
                    }
                    let target = std::path::Path::new(path.as_str());
                    before.get_path(target).is_ok() && here.get_path(target).is_err()
                })
                .collect();
            if !gone.is_empty() {
                let id = commit.id().to_string();
                let short = id.get(..8).unwrap_or(&id).to_owned();
                // One diff per commit serves every path it removed.
                let renames = self.renames_between(&before, &here, &gone);
                for path in &gone {
                    let fate = match renames.get(path.as_str()) {
                        Some(to) => PathFate::Renamed {
                            to: to.clone(),
                            commit: short.clone(),
                        },
                        None => PathFate::Deleted {
                            commit: short.clone(),
                        },
                    };
                    fates.insert((*path).clone(), fate);
                }
                pending.retain(|p| !gone.contains(p));
            }
            commit = parent;
            here = before;
        }
        true
    }

    /// Whether `path` was in the tree of `rev`'s first parent: whether a
    /// file was there when commit `rev` changed the tree (`false` when
    /// anything cannot be read).
    pub fn had_path_before(&self, rev: &str, path: &str) -> bool {
        let Some(parent) = self
            .resolve_oid(rev)
            .ok()
            .and_then(|c| self.first_parent_of(c))
        else {
            return false;
        };
        self.path_ids(parent, &[path])
            .first()
            .is_some_and(Option::is_some)
    }

    /// The object ids of `paths` in `commit`'s tree (`None` where a path is not
    /// there), the tree read once.
    pub fn path_ids(&self, commit: Oid, paths: &[&str]) -> Vec<Option<Oid>> {
        let mut root = None;
        let mut read = |path: &str| -> Result<Option<Oid>, ()> {
            if root.is_none() {
                let found = self.repo.find_commit(commit).map(|c| c.tree_id());
                root = Some(found.map_err(|_| ())?);
            }
            let Some(mut at) = root else {
                return Err(());
            };
            // Down the path's folders through their entries, each tree read
            // once (see [`TreeEntries`]).
            for name in path.trim_matches('/').split('/') {
                let entries = self.tree_entries(at)?;
                match entries.binary_search_by(|(n, _)| (**n).cmp(name)) {
                    Ok(i) => at = entries[i].1,
                    Err(_) => return Ok(None),
                }
            }
            Ok(Some(at))
        };
        paths
            .iter()
            .map(|path| match &self.memo {
                Some(memo) => memo.path_id(commit, path, || read(path)),
                None => read(path).ok().flatten(),
            })
            .collect()
    }

    /// The entries of the tree `id`, sorted by name: read once, then
    /// remembered. `Err` when `id` is no tree this clone holds (a path
    /// through a file names nothing).
    fn tree_entries(&self, id: Oid) -> Result<Entries, ()> {
        let mut held = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entries) = held.by_tree.get(&id) {
            return Ok(Arc::clone(entries));
        }
        let entries: Entries = match self.repo.find_tree(id) {
            Ok(tree) => {
                let mut entries: Vec<(Box<str>, Oid)> = tree
                    .iter()
                    .filter_map(|e| {
                        Some((Box::from(std::str::from_utf8(e.name_bytes()).ok()?), e.id()))
                    })
                    .collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                Arc::new(entries)
            }
            // A blob in the way: the path goes through a file.
            Err(e) if e.code() == ErrorCode::NotFound || e.class() == git2::ErrorClass::Invalid => {
                Arc::new(Vec::new())
            }
            Err(_) => return Err(()),
        };
        if held.held + entries.len() > MAX_TREE_ENTRIES_HELD {
            held.by_tree.clear();
            held.held = 0;
        }
        held.held += entries.len();
        held.by_tree.insert(id, Arc::clone(&entries));
        Ok(entries)
    }

    /// The path in `commit`'s first parent that `path` — in `commit`, not in
    /// the parent — was renamed from, by git's rename detection (a record moved
    /// to another folder keeps its history).
    pub fn renamed_from(&self, commit: Oid, path: &str) -> Option<String> {
        self.renamed(commit, Rename::From, path)
    }

    /// Where `path` — in `commit`'s first parent — went in `commit` (`To`), or
    /// where `path` — in `commit` — came from (`From`), by rename detection;
    /// remembered between runs by commit and path.
    fn renamed(&self, commit: Oid, direction: Rename, path: &str) -> Option<String> {
        let read = || -> Result<Option<String>, ()> {
            let here = self.repo.find_commit(commit).map_err(drop)?;
            // A root, or a shallow clone's boundary: nothing to say, nothing kept.
            let parent = here.parent(0).map_err(drop)?;
            let (here, parent) = (here.tree().map_err(drop)?, parent.tree().map_err(drop)?);
            let wanted = path.to_owned();
            // Walked backwards, the path is the one that goes and its source the
            // one that comes: the question `renames_between` answers forwards.
            let (from, to) = match direction {
                Rename::To => (&parent, &here),
                Rename::From => (&here, &parent),
            };
            Ok(self.renames_between(from, to, &[&wanted]).remove(path))
        };
        let Some(memo) = &self.memo else {
            return read().ok().flatten();
        };
        match memo.rename(commit, direction, path) {
            Remembered::Found(other) => return other,
            Remembered::Loaded(other) => {
                match self.rename_holds(commit, direction, path, other.as_deref()) {
                    Some(true) => {
                        memo.keep_rename(commit, direction, path, other.clone());
                        return other;
                    }
                    // A rename the trees deny is a lie; a "not renamed" they
                    // cannot confirm is only worked out again.
                    Some(false) if other.is_some() => memo.distrust(),
                    _ => {}
                }
                // A rename whose two sides hold different objects is what
                // rename detection says of them, or a lie: worked out again
                // as with no memory, and the line is one only if they differ
                // (another file added by the same commit named as where the
                // path went).
                let found = read().ok()?;
                if other.is_some() && found != other {
                    memo.distrust();
                }
                memo.keep_rename(commit, direction, path, found.clone());
                return found;
            }
            Remembered::Unknown => {}
        }
        let found = read().ok()?;
        memo.keep_rename(commit, direction, path, found.clone());
        found
    }

    /// Whether the trees of `commit` and its first parent bear out a
    /// remembered rename: the path on its side and not the other, the other
    /// path the other way round, and the same object on both sides (an exact
    /// rename, which rename detection pairs first); "not renamed" where the
    /// path never left (`To`: still in the commit) or was already there
    /// (`From`: in the parent). `Some(false)`: the trees deny it; `None`:
    /// they cannot confirm it (a rename with its content edited, which only
    /// rename detection's similarity can judge).
    fn rename_holds(
        &self,
        commit: Oid,
        direction: Rename,
        path: &str,
        other: Option<&str>,
    ) -> Option<bool> {
        let Some(parent) = self.first_parent_of(commit) else {
            return Some(false);
        };
        let (gone_from, come_to) = match direction {
            Rename::To => (parent, commit),
            Rename::From => (commit, parent),
        };
        // `To`: `path` in the parent went to `other` in the commit; `From`:
        // `path` in the commit came from `other` in the parent.
        let id = |c: Oid, p: &str| self.path_ids(c, &[p]).first().copied().flatten();
        let at = |c: Oid, p: &str| id(c, p).is_some();
        match other {
            Some(other) => {
                let sides = at(gone_from, path)
                    && !at(come_to, path)
                    && at(come_to, other)
                    && !at(gone_from, other);
                if !sides {
                    return Some(false);
                }
                (id(gone_from, path) == id(come_to, other)).then_some(true)
            }
            None => at(come_to, path).then_some(true),
        }
    }

    /// Whether the trees bear out a remembered fate: the path there in the
    /// parent of the commit named and gone from it, and a rename's
    /// destination there holding the same object (else what rename detection
    /// says of the commit, worked out again, must name it: a file merely
    /// added by the same commit is not where the path went).
    fn fate_holds(&self, path: &str, fate: &PathFate) -> bool {
        let (commit, to) = match fate {
            PathFate::Deleted { commit } => (commit, None),
            PathFate::Renamed { to, commit } => (commit, Some(to.as_str())),
            PathFate::Split { .. } => return false,
        };
        let Some(commit) = self.resolve_oid(commit).ok() else {
            return false;
        };
        let Some(parent) = self.first_parent_of(commit) else {
            return false;
        };
        let id = |c: Oid, p: &str| self.path_ids(c, &[p]).first().copied().flatten();
        let at = |c: Oid, p: &str| id(c, p).is_some();
        if !at(parent, path) || at(commit, path) {
            return false;
        }
        let Some(to) = to else {
            return true;
        };
        if !at(commit, to) {
            return false;
        }
        id(parent, path) == id(commit, to)
            || matches!(
                self.fate_at(commit, path),
                Some(PathFate::Renamed { to: found, .. }) if found == to
            )
    }

    /// A note when the cache held an entry its objects contradict.
    pub fn memo_note(&self) -> Option<String> {
        self.memo.as_ref()?.distrust_note()
    }

    /// What became of `path`, there in `commit`'s first parent and gone from
    /// `commit`: renamed (by git's rename detection) or deleted. A folder
    /// goes where its files went, each file's place inside it kept: renamed
    /// when they went to one folder, split when to several (linkerd2's
    /// `charts/linkerd2` into `charts/linkerd-control-plane` and
    /// `charts/linkerd-crds`), deleted when none was renamed.
    pub fn fate_at(&self, commit: Oid, path: &str) -> Option<PathFate> {
        let here = self.repo.find_commit(commit).ok()?;
        let parent = here.parent(0).ok()?;
        let before = parent.tree().ok()?;
        let entry = before.get_path(std::path::Path::new(path)).ok()?;
        let short = commit.to_string()[..8].to_owned();
        if entry.kind() != Some(ObjectType::Tree) {
            return Some(match self.renamed(commit, Rename::To, path) {
                Some(to) => PathFate::Renamed { to, commit: short },
                None => PathFate::Deleted { commit: short },
            });
        }
        let folder = self.repo.find_tree(entry.id()).ok()?;
        let mut inside: Vec<String> = Vec::new();
        let _ = folder.walk(git2::TreeWalkMode::PreOrder, |dir, item| {
            if inside.len() >= FOLDER_FILES {
                return git2::TreeWalkResult::Abort;
            }
            if item.kind() == Some(ObjectType::Blob)
                && let Ok(name) = item.name()
            {
                inside.push(format!("{dir}{name}"));
            }
            git2::TreeWalkResult::Ok
        });
        let files: Vec<String> = inside.iter().map(|i| format!("{path}/{i}")).collect();
        let wanted: Vec<&String> = files.iter().collect();
        let now = here.tree().ok()?;
        let renames = self.renames_between(&before, &now, &wanted);
        // Each destination folder, by how many of the files went there.
        let mut went: std::collections::BTreeMap<String, usize> = Default::default();
        for (file, inner) in files.iter().zip(&inside) {
            if let Some(folder) = renames
                .get(file.as_str())
                .and_then(|to| to.strip_suffix(&format!("/{inner}")))
            {
                *went.entry(folder.to_owned()).or_default() += 1;
            }
        }
        // A lone file that went elsewhere (a template copied out to another
        // chart) is that file's move, not a part of the folder.
        let moved: usize = went.values().sum();
        let mut into: Vec<(String, usize)> = went
            .into_iter()
            .filter(|(_, n)| *n >= 2 || *n * 10 >= moved)
            .collect();
        into.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Some(match into.len() {
            0 => PathFate::Deleted { commit: short },
            1 => PathFate::Renamed {
                to: into.remove(0).0,
                commit: short,
            },
            _ => PathFate::Split {
                into: into.into_iter().map(|(folder, _)| folder).collect(),
                commit: short,
            },
        })
    }

    /// The size in bytes of the object `id`, read from its header (the
    /// object itself is not inflated).
    pub fn object_size(&self, id: Oid) -> Option<usize> {
        self.object_header(id).map(|(size, _)| size)
    }

    /// Whether the object `id` is a tree (a folder's entry).
    pub fn is_folder(&self, id: Oid) -> bool {
        self.object_header(id)
            .is_some_and(|(_, kind)| kind == ObjectType::Tree)
    }

    fn object_header(&self, id: Oid) -> Option<(usize, ObjectType)> {
        self.repo.odb().ok()?.read_header(id).ok()
    }

    /// The bytes of the blob `id`.
    /// The bytes of a blob; `None` when it is not one, or is larger than
    /// `cap` (found from its header, never read).
    pub fn blob_bytes(&self, id: Oid, cap: u64) -> Option<Vec<u8>> {
        if self.object_size(id)? as u64 > cap {
            return None;
        }
        Some(self.repo.find_blob(id).ok()?.content().to_vec())
    }

    /// The bytes of `path` in `commit`'s tree (`None` when it is not a file
    /// there, or is larger than [`crate::snapshot::MAX_COUNTED_BYTES`]).
    pub fn file_at(&self, commit: Oid, path: &str) -> Option<(Oid, Vec<u8>)> {
        let tree = self.repo.find_commit(commit).ok()?.tree().ok()?;
        let entry = tree.get_path(std::path::Path::new(path)).ok()?;
        if self.object_size(entry.id())? as u64 > crate::snapshot::MAX_COUNTED_BYTES {
            return None;
        }
        let blob = self.repo.find_blob(entry.id()).ok()?;
        Some((entry.id(), blob.content().to_vec()))
    }

    /// The hunks of a line diff between two versions of a file, with no context
    /// lines: `(old_start, old_lines, new_start, new_lines)` as git numbers them.
    pub fn line_hunks(&self, old: &[u8], new: &[u8]) -> Vec<(usize, usize, usize, usize)> {
        let mut options = git2::DiffOptions::new();
        options.context_lines(0).force_text(true);
        let Ok(patch) = git2::Patch::from_buffers(old, None, new, None, Some(&mut options)) else {
            return Vec::new();
        };
        (0..patch.num_hunks())
            .filter_map(|i| patch.hunk(i).ok())
            .map(|(hunk, _)| {
                (
                    hunk.old_start() as usize,
                    hunk.old_lines() as usize,
                    hunk.new_start() as usize,
                    hunk.new_lines() as usize,
                )
            })
            .collect()
    }

    /// The commit `rev` names, if it names one.
    /// The commit that wrote `needle` into `path`: the oldest of the unbroken
    /// run of first-parent commits back from `from` whose `path` holds it,
    /// found by doubling steps back and then halving (the text is taken to
    /// arrive once). `None` when `from`'s own `path` does not hold it.
    pub fn writing_commit(&self, from: Oid, path: &str, needle: &str) -> Option<Oid> {
        let mut line = vec![from];
        let holds = |repo: &Self, line: &mut Vec<Oid>, position: usize| -> Option<bool> {
            while line.len() <= position {
                let last = *line.last()?;
                line.push(repo.first_parent_of(last)?);
            }
            let (_, bytes) = match repo.file_at(line[position], path) {
                Some(found) => found,
                None => return Some(false),
            };
            Some(
                bytes
                    .windows(needle.len().max(1))
                    .any(|w| w == needle.as_bytes()),
            )
        };
        if holds(self, &mut line, 0) != Some(true) {
            return None;
        }
        let (mut good, mut step) = (0usize, 1usize);
        let mut bad = loop {
            match holds(self, &mut line, good + step) {
                Some(true) => {
                    good += step;
                    step *= 2;
                }
                Some(false) => break good + step,
                // The line ends (a root, a shallow boundary) before it.
                None => break line.len(),
            }
        };
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            match holds(self, &mut line, mid) {
                Some(true) => good = mid,
                _ => bad = mid,
            }
        }
        line.get(good).copied()
    }

    /// The text of `path` in `commit` and in its first parent (empty where it
    /// is not there): what a commit changed of one file.
    pub fn file_before_and_after(&self, commit: Oid, path: &str) -> (String, String) {
        let text = |c: Option<Oid>| {
            c.and_then(|c| self.file_at(c, path))
                .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default()
        };
        (text(self.first_parent_of(commit)), text(Some(commit)))
    }

    /// The best common ancestor of two commits, as `git merge-base` finds it;
    /// `None` when this clone holds none (unrelated lines, or a shallow
    /// clone cut above it).
    pub fn merge_base(&self, one: Oid, two: Oid) -> Option<Oid> {
        self.repo.merge_base(one, two).ok()
    }

    /// The last commit of the first-parent line back from `head` committed at
    /// or before `seconds` (Unix time); `None` when the line this clone holds
    /// starts after it.
    pub fn last_commit_before(&self, head: Oid, seconds: i64) -> Option<Oid> {
        let mut oid = head;
        for _ in 0..10_000_000 {
            let commit = self.repo.find_commit(oid).ok()?;
            if commit.time().seconds() <= seconds {
                return Some(oid);
            }
            oid = self.first_parent_of(oid)?;
        }
        None
    }

    /// A commit's subject line (its message's first line), as written.
    pub fn commit_subject(&self, commit: Oid) -> Option<String> {
        let commit = self.repo.find_commit(commit).ok()?;
        let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
        message.lines().next().map(str::to_owned)
    }

    /// Every file that differs between the trees of two commits, as
    /// `(path before, path after)`: `(Some, None)` deleted, `(None, Some)`
    /// added, both the same for an edit, both different for a rename found
    /// by git's rename detection.
    pub fn changes_between(
        &self,
        before: Oid,
        after: Oid,
    ) -> Vec<(Option<String>, Option<String>)> {
        let tree = |c: Oid| self.repo.find_commit(c).ok()?.tree().ok();
        let (Some(old), Some(new)) = (tree(before), tree(after)) else {
            return Vec::new();
        };
        let Ok(mut diff) = self.repo.diff_tree_to_tree(Some(&old), Some(&new), None) else {
            return Vec::new();
        };
        let path_of = |file: git2::DiffFile<'_>| file.path()?.to_str().map(str::to_owned);
        let moved = diff
            .deltas()
            .filter(|d| matches!(d.status(), git2::Delta::Added | git2::Delta::Deleted))
            .count();
        // Similarity is worth its cost on a few files; a commit that moves
        // a whole tree (10,706 files, measured: two minutes of libgit2's
        // pairing) is paired by identical contents alone, as git's own
        // exact-rename pass pairs it.
        if moved <= MAX_SIMILARITY_PAIRING {
            let mut find = git2::DiffFindOptions::new();
            find.renames(true);
            let _ = diff.find_similar(Some(&mut find));
        }
        let mut changes: Vec<(Option<String>, Option<String>)> = Vec::new();
        let mut added: std::collections::BTreeMap<Oid, AddedPaths> = Default::default();
        let mut deleted: Vec<(Oid, String)> = Vec::new();
        for delta in diff.deltas() {
            match delta.status() {
                git2::Delta::Added => {
                    if let Some(p) = path_of(delta.new_file()) {
                        added
                            .entry(delta.new_file().id())
                            .or_default()
                            .paths
                            .push(p);
                    }
                }
                git2::Delta::Deleted => {
                    if let Some(p) = path_of(delta.old_file()) {
                        deleted.push((delta.old_file().id(), p));
                    }
                }
                _ => {
                    let (old, new) = (path_of(delta.old_file()), path_of(delta.new_file()));
                    if old.is_some() || new.is_some() {
                        changes.push((old, new));
                    }
                }
            }
        }
        for (id, old) in deleted {
            // The same contents under a new name: renamed (the same file
            // name first, where one blob went to several places).
            let name = old.rsplit('/').next().unwrap_or(&old);
            let to = added.get_mut(&id).and_then(|group| group.take(name));
            changes.push((Some(old), to));
        }
        let mut left: Vec<(Option<String>, Option<String>)> = added
            .into_values()
            .flat_map(AddedPaths::left)
            .map(|p| (None, Some(p)))
            .collect();
        changes.append(&mut left);
        changes.sort();
        changes
    }

    pub fn commit_id(&self, rev: &str) -> Option<Oid> {
        self.resolve_oid(rev).ok()
    }

    /// When `commit` was committed, in seconds since the Unix epoch.
    pub fn commit_seconds(&self, commit: Oid) -> Option<i64> {
        Some(self.repo.find_commit(commit).ok()?.time().seconds())
    }

    /// The name of `commit`'s author, when an automation account made it: a
    /// GitHub App's `name[bot]` (a translation sync, a generator's job).
    pub fn automation_author(&self, commit: Oid) -> Option<String> {
        let commit = self.repo.find_commit(commit).ok()?;
        let author = commit.author();
        let name = String::from_utf8_lossy(author.name_bytes()).into_owned();
        let email = String::from_utf8_lossy(author.email_bytes()).into_owned();
        (name.ends_with("[bot]") || email.contains("[bot]@")).then_some(name)
    }

    /// The day (UTC) `commit` was committed on.
    pub fn commit_day(&self, commit: Oid) -> Option<Day> {
        let commit = self.repo.find_commit(commit).ok()?;
        Some(Day::from_unix(commit.time().seconds()))
    }

    /// Every parent of `commit` this clone has, the first first.
    pub fn parents_of(&self, commit: Oid) -> Vec<Oid> {
        let Ok(here) = self.repo.find_commit(commit) else {
            return Vec::new();
        };
        let odb = self.repo.odb().ok();
        here.parent_ids()
            .filter(|id| odb.as_ref().is_some_and(|odb| odb.exists(*id)))
            .collect()
    }

    /// A commit's first parent (`None` at a root, or where a shallow clone stops).
    pub fn first_parent_of(&self, commit: Oid) -> Option<Oid> {
        let read = || {
            let parent = self.repo.find_commit(commit).ok()?.parent_id(0).ok()?;
            // A shallow clone's boundary names a parent it does not have.
            self.repo.odb().ok()?.exists(parent).then_some(parent)
        };
        match &self.memo {
            Some(memo) => memo.first_parent(commit, read),
            None => read(),
        }
    }

    /// Whether `commit` is where a shallow clone's history stops short: one
    /// `.git/shallow` lists (libgit2 reads it as parentless), or one naming
    /// a first parent the clone lacks.
    pub fn parent_missing(&self, commit: Oid) -> bool {
        if !self.repo.is_shallow() {
            return false;
        }
        // The list git keeps of its shallow boundary: a line per commit id,
        // read up to a bound (a clone of many boundaries stays readable).
        const MAX_SHALLOW_BYTES: u64 = 1024 * 1024;
        let listed = std::fs::File::open(self.repo.commondir().join("shallow"))
            .ok()
            .and_then(|file| {
                let mut text = String::new();
                std::io::Read::read_to_string(
                    &mut std::io::Read::take(file, MAX_SHALLOW_BYTES),
                    &mut text,
                )
                .ok()?;
                Some(text)
            })
            .is_some_and(|text| {
                text.lines()
                    .any(|line| Oid::from_str(line.trim()).ok() == Some(commit))
            });
        listed
            || self
                .repo
                .find_commit(commit)
                .ok()
                .and_then(|c| c.parent_id(0).ok())
                .is_some_and(|parent| self.repo.odb().ok().is_some_and(|odb| !odb.exists(parent)))
    }

    /// How many commits reachable from `rev` touch any of `paths` (all of them
    /// when `paths` is empty), as `git rev-list --count REV -- PATH…` counts
    /// them under git's default history simplification: a merge that leaves
    /// the paths as one parent had them is not counted, and only that parent's
    /// line is followed.
    pub fn count_commits(&self, rev: &str, paths: &[String]) -> Result<usize, RevisionError> {
        let start = self.resolve_oid(rev)?;
        let entry = |tree: &git2::Tree<'_>, path: &str| -> Option<Oid> {
            if path.is_empty() {
                return Some(tree.id());
            }
            tree.get_path(std::path::Path::new(path))
                .ok()
                .map(|e| e.id())
        };
        let ids = |commit: &git2::Commit<'_>| -> Vec<Option<Oid>> {
            match commit.tree() {
                Ok(tree) => paths.iter().map(|p| entry(&tree, p)).collect(),
                Err(_) => Vec::new(),
            }
        };
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![start];
        let mut count = 0;
        while let Some(oid) = stack.pop() {
            if !seen.insert(oid) {
                continue;
            }
            let commit = self
                .repo
                .find_commit(oid)
                .map_err(|e| RevisionError::git(format!("cannot read commit {oid}"), e))?;
            if paths.is_empty() {
                count += 1;
                stack.extend(commit.parent_ids());
                continue;
            }
            let here = ids(&commit);
            let parents: Vec<git2::Commit<'_>> = commit.parents().collect();
            if parents.is_empty() {
                if here.iter().any(Option::is_some) {
                    count += 1;
                }
                continue;
            }
            match parents.iter().find(|p| ids(p) == here) {
                // TREESAME to a parent: not counted, and only that parent followed.
                Some(same) => stack.push(same.id()),
                None => {
                    count += 1;
                    stack.extend(parents.iter().map(git2::Commit::id));
                }
            }
        }
        Ok(count)
    }

    /// Where each of `gone` went between two trees: the one added file with the
    /// same contents, else git's similarity detection against the files added
    /// with its name, then with its stem, then with its extension (at most 200 each, as git itself
    /// limits it with `diff.renameLimit`: comparing a commit that rewrites
    /// thousands of files whole cost 29 s on one repository). A commit that
    /// adds nothing renamed nothing, and costs one tree diff.
    fn renames_between(
        &self,
        before: &git2::Tree<'_>,
        after: &git2::Tree<'_>,
        gone: &[&String],
    ) -> std::collections::BTreeMap<String, String> {
        // At most this many files are compared with one path for similarity.
        const SIMILARITY_LIMIT: usize = 200;
        let mut found = std::collections::BTreeMap::new();
        let path_of = |file: git2::DiffFile<'_>| file.path()?.to_str().map(str::to_owned);
        let key = (before.id(), after.id());
        let cached = self
            .changes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .cloned();
        let changes = match cached {
            Some(changes) => changes,
            None => {
                let Ok(diff) = self.repo.diff_tree_to_tree(Some(before), Some(after), None) else {
                    return found;
                };
                let mut changes = TreeChanges::default();
                for delta in diff.deltas() {
                    match delta.status() {
                        git2::Delta::Added => changes
                            .added
                            .extend(path_of(delta.new_file()).map(|p| (delta.new_file().id(), p))),
                        git2::Delta::Deleted => {
                            if let Some(p) = path_of(delta.old_file()) {
                                changes.deleted.insert(p, delta.old_file().id());
                            }
                        }
                        _ => {}
                    }
                }
                let changes = Arc::new(changes);
                self.changes
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(key, Arc::clone(&changes));
                changes
            }
        };
        let (added, deleted) = (&changes.added, &changes.deleted);
        let mut unsettled = Vec::new();
        for path in gone {
            let Some(oid) = deleted.get(path.as_str()) else {
                continue;
            };
            let same_contents: Vec<&String> = added
                .iter()
                .filter(|(a, _)| a == oid)
                .map(|(_, p)| p)
                .collect();
            match same_contents.as_slice() {
                [to] => {
                    found.insert((*path).clone(), (*to).clone());
                }
                // One blob went to several places (identical copies moved
                // together): the one whose path keeps most of the old one's
                // tail, as git pairs them (`a/sign/set1.cks` to
                // `b/sign/set1.cks`, not to its copy `b/key/set1.cks`).
                [] => unsettled.push(path.as_str()),
                many => match closest_by_tail(path, many) {
                    Some(to) => {
                        found.insert((*path).clone(), to.clone());
                    }
                    None => unsettled.push(path.as_str()),
                },
            }
        }
        if unsettled.is_empty() || added.is_empty() {
            return found;
        }
        let renamed =
            |diff: &mut git2::Diff<'_>, found: &mut std::collections::BTreeMap<String, String>| {
                let mut find = git2::DiffFindOptions::new();
                find.renames(true);
                if diff.find_similar(Some(&mut find)).is_err() {
                    return;
                }
                for delta in diff.deltas() {
                    if delta.status() != git2::Delta::Renamed {
                        continue;
                    }
                    if let (Some(old), Some(new)) =
                        (path_of(delta.old_file()), path_of(delta.new_file()))
                        && unsettled.contains(&old.as_str())
                    {
                        found.insert(old, new);
                    }
                }
            };
        // Each path against the files added under its own name (a move with
        // edits keeps its name), then under its own stem (`build.ts` to
        // `build.mts`, an extension changed), then against those with its
        // extension (`ast.rs` to `ast/mod.rs`): similarity is costly per file
        // compared, so a commit that adds thousands of files costs what a
        // small one does.
        let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
        let extension = |p: &str| name(p).rsplit_once('.').map(|(_, e)| e.to_owned());
        let stem = |p: &str| {
            let name = name(p);
            name.rsplit_once('.')
                .map_or(name.clone(), |(s, _)| s.to_owned())
        };
        for path in unsettled.clone() {
            let namesakes: Vec<&String> = added
                .iter()
                .map(|(_, p)| p)
                .filter(|p| name(p) == name(path))
                .take(SIMILARITY_LIMIT)
                .collect();
            let stem_sakes: Vec<&String> = added
                .iter()
                .map(|(_, p)| p)
                .filter(|p| name(p) != name(path) && stem(p) == stem(path))
                .take(SIMILARITY_LIMIT)
                .collect();
            let kin: Vec<&String> = added
                .iter()
                .map(|(_, p)| p)
                .filter(|p| extension(p).is_some() && extension(p) == extension(path))
                .take(SIMILARITY_LIMIT)
                .collect();
            for candidates in [namesakes, stem_sakes, kin] {
                if candidates.is_empty() || found.contains_key(path) {
                    continue;
                }
                let mut options = git2::DiffOptions::new();
                options.pathspec(path).disable_pathspec_match(true);
                for p in candidates {
                    options.pathspec(p);
                }
                if let Ok(mut narrow) =
                    self.repo
                        .diff_tree_to_tree(Some(before), Some(after), Some(&mut options))
                {
                    renamed(&mut narrow, &mut found);
                }
            }
        }
        found.retain(|old, new| {
            let Some(&old_id) = deleted.get(old.as_str()) else {
                return true;
            };
            let new_id = added.iter().find(|(_, p)| p == new).map(|(id, _)| *id);
            !self.duplicate_kept(before, after, old, old_id, new, new_id)
        });
        found
    }

    /// Whether the file `old` (blob `old_id`) that a commit deleted was a
    /// duplicate of a file the commit kept rather than moved to `new`: a
    /// file of its name in a folder above it or above `new`, in both trees,
    /// whose text shares at least as many of its lines as `new`'s does (a
    /// package's `LICENSE` dropped for the root's, not moved into an
    /// unrelated vendored folder whose licence reads alike).
    fn duplicate_kept(
        &self,
        before: &git2::Tree<'_>,
        after: &git2::Tree<'_>,
        old: &str,
        old_id: Oid,
        new: &str,
        new_id: Option<Oid>,
    ) -> bool {
        const MAX_BYTES: usize = 256 * 1024;
        let name = old.rsplit('/').next().unwrap_or(old);
        let mut kept: Vec<String> = Vec::new();
        for path in [old, new] {
            let mut folder = path.rsplit_once('/').map(|(f, _)| f);
            while let Some(here) = folder {
                folder = here.rsplit_once('/').map(|(f, _)| f);
                let candidate = format!("{here}/{name}");
                if !kept.contains(&candidate) {
                    kept.push(candidate);
                }
            }
            if !kept.iter().any(|k| k == name) {
                kept.push(name.to_owned());
            }
        }
        let text = |id: Oid| -> Option<String> {
            let blob = self.repo.find_blob(id).ok()?;
            (blob.size() <= MAX_BYTES).then(|| String::from_utf8_lossy(blob.content()).into_owned())
        };
        let Some(old_text) = text(old_id) else {
            return false;
        };
        let new_share = new_id
            .and_then(text)
            .map_or(0, |t| shared_lines(&old_text, &t));
        kept.iter()
            .filter(|k| k.as_str() != old && k.as_str() != new)
            .filter(|k| before.get_path(std::path::Path::new(k.as_str())).is_ok())
            .filter_map(|k| after.get_path(std::path::Path::new(k.as_str())).ok())
            .filter_map(|entry| text(entry.id()))
            .any(|t| shared_lines(&old_text, &t) >= new_share.max(1))
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

    /// The commit a working tree stands for, when it holds nothing else: no
    /// tracked file changed, staged or deleted, no untracked file git would
    /// see. Such a tree *is* its commit, so it is audited as that commit and
    /// gives that commit's findings byte for byte. `None` for a bare
    /// repository, an unborn branch, or any uncommitted work.
    pub fn clean_worktree_commit(&self) -> Result<Option<String>, RevisionError> {
        if self.repo.workdir().is_none() {
            return Ok(None);
        }
        let Ok(head) = self.repo.head().and_then(|h| h.peel_to_commit()) else {
            return Ok(None);
        };
        let mut options = git2::StatusOptions::new();
        // Read-only: the index is read, never refreshed or written back.
        options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_ignored(false)
            .exclude_submodules(true)
            .update_index(false);
        let statuses = self.repo.statuses(Some(&mut options)).map_err(|source| {
            RevisionError::git("cannot compare the working tree with HEAD", source)
        })?;
        Ok(statuses.is_empty().then(|| head.id().to_string()))
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
    /// Where blobs are read from: through a handle of the reading thread's own
    /// (git2 handles are not `Sync`), so readers on many threads inflate
    /// blobs at once.
    git_dir: PathBuf,
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
    /// The tree of `commit` in the repository whose git directory is
    /// `git_dir`, through a handle of its own (for worker threads, which
    /// cannot share a [`GitRepo`]).
    pub fn open(git_dir: &Path, commit: Oid) -> Result<GitSnapshot, RevisionError> {
        relax_hash_verification();
        GitSnapshot::new(git_dir, commit)
    }

    /// The part of `commit`'s tree under `scope` (folders or files; the empty
    /// path is the whole tree): a snapshot for a reader that is known to look
    /// nowhere else, at the cost of listing only what it may look at.
    pub fn open_scoped(
        git_dir: &Path,
        commit: Oid,
        scope: &[String],
    ) -> Result<GitSnapshot, RevisionError> {
        relax_hash_verification();
        GitSnapshot::build(git_dir, commit, Some(scope))
    }

    fn new(git_dir: &Path, commit: Oid) -> Result<GitSnapshot, RevisionError> {
        GitSnapshot::build(git_dir, commit, None)
    }

    fn build(
        git_dir: &Path,
        commit: Oid,
        scope: Option<&[String]>,
    ) -> Result<GitSnapshot, RevisionError> {
        let repo = Repository::open(git_dir).map_err(|source| {
            RevisionError::git(
                format!("cannot reopen the repository at {}", git_dir.display()),
                source,
            )
        })?;
        let (mut files, mut skipped) = {
            let commit_object = repo.find_commit(commit).map_err(|source| {
                RevisionError::git(format!("cannot read commit {commit}"), source)
            })?;
            let tree = commit_object.tree().map_err(|source| {
                RevisionError::git(format!("cannot read the tree of commit {commit}"), source)
            })?;
            match scope {
                None => list_tree(&repo, &tree)?,
                Some(scope) => list_scope(&repo, &tree, scope)?,
            }
        };
        files.sort();
        skipped.sort();
        let (paths, blobs) = files.into_iter().unzip();
        Ok(GitSnapshot {
            commit,
            paths,
            blobs,
            skipped,
            git_dir: git_dir.to_path_buf(),
        })
    }
}

/// Runs `f` with this thread's handle on the repository at `git_dir`, opened on
/// first use. A thread keeps handles on the few repositories it read last.
fn with_handle<R>(
    git_dir: &Path,
    f: impl FnOnce(&Repository) -> Result<R, git2::Error>,
) -> Result<R, git2::Error> {
    const KEPT: usize = 4;
    thread_local! {
        static HANDLES: std::cell::RefCell<Vec<(PathBuf, Repository)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    HANDLES.with(|handles| {
        let mut handles = handles.borrow_mut();
        let at = match handles.iter().position(|(dir, _)| dir == git_dir) {
            Some(at) => at,
            None => {
                let repo = Repository::open(git_dir)?;
                if handles.len() == KEPT {
                    handles.remove(0);
                }
                handles.push((git_dir.to_path_buf(), repo));
                handles.len() - 1
            }
        };
        f(&handles[at].1)
    })
}

/// Every (path, blob) of a tree, and the entries left out.
type TreeListing = (Vec<(String, Oid)>, Vec<Skipped>);

/// Of several paths, the one that shares the most trailing segments with
/// `old` (its name, then its folders), when one shares strictly more than
/// any other.
fn closest_by_tail<'a>(old: &str, candidates: &[&'a String]) -> Option<&'a String> {
    let tail = |p: &str| {
        old.rsplit('/')
            .zip(p.rsplit('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut ranked: Vec<(usize, &String)> = candidates.iter().map(|p| (tail(p), *p)).collect();
    ranked.sort_by_key(|b| std::cmp::Reverse(b.0));
    match ranked.as_slice() {
        [(best, path), rest @ ..] if rest.first().is_none_or(|(next, _)| next < best) => Some(path),
        _ => None,
    }
}

/// The paths one blob was added at in a commit, handed to the deleted paths
/// of the same contents in turn: the one of the same file name first, else
/// the first left. Each hand-out is constant time, so a commit moving N
/// identical files pairs them in linear time (a scan and a shift per deleted
/// path took 73 s at 40,000).
#[derive(Default)]
struct AddedPaths {
    paths: Vec<String>,
    taken: Vec<bool>,
    /// File name → indices into `paths`, the last the lowest (popped first).
    by_name: Option<std::collections::HashMap<String, Vec<usize>>>,
    /// No path before this index is left.
    first_left: usize,
}

impl AddedPaths {
    /// The added path a deleted one named `name` went to, if any is left.
    fn take(&mut self, name: &str) -> Option<String> {
        if self.taken.len() != self.paths.len() {
            self.taken = vec![false; self.paths.len()];
        }
        let paths = &self.paths;
        let by_name = self.by_name.get_or_insert_with(|| {
            let mut by_name: std::collections::HashMap<String, Vec<usize>> = Default::default();
            for (at, path) in paths.iter().enumerate().rev() {
                let file = path.rsplit('/').next().unwrap_or(path);
                by_name.entry(file.to_owned()).or_default().push(at);
            }
            by_name
        });
        let same_name = by_name.get_mut(name).and_then(|stack| {
            while let Some(at) = stack.pop() {
                if !self.taken[at] {
                    return Some(at);
                }
            }
            None
        });
        let at = match same_name {
            Some(at) => at,
            None => {
                while self.first_left < self.paths.len() && self.taken[self.first_left] {
                    self.first_left += 1;
                }
                (self.first_left < self.paths.len()).then_some(self.first_left)?
            }
        };
        self.taken[at] = true;
        Some(std::mem::take(&mut self.paths[at]))
    }

    /// The added paths no deleted one went to.
    fn left(self) -> impl Iterator<Item = String> {
        let taken = self.taken;
        self.paths
            .into_iter()
            .enumerate()
            .filter(move |(at, _)| !taken.get(*at).copied().unwrap_or(false))
            .map(|(_, path)| path)
    }
}

/// Lists every regular or executable blob below `root` with an explicit stack,
/// so a deep tree cannot exhaust the call stack.
fn list_tree(repo: &Repository, root: &git2::Tree<'_>) -> Result<TreeListing, RevisionError> {
    list_below(repo, vec![(String::new(), root.id())])
}

/// Lists the entries under each path of `scope` (a path inside another is
/// listed once).
fn list_scope(
    repo: &Repository,
    root: &git2::Tree<'_>,
    scope: &[String],
) -> Result<TreeListing, RevisionError> {
    let mut scope: Vec<&str> = scope.iter().map(|p| p.trim_matches('/')).collect();
    scope.sort_unstable();
    scope.dedup();
    if scope.contains(&"") {
        return list_tree(repo, root);
    }
    let inside =
        |p: &str, q: &str| p.len() > q.len() && p.starts_with(q) && p.as_bytes()[q.len()] == b'/';
    let outer: Vec<&str> = scope
        .iter()
        .copied()
        .filter(|p| !scope.iter().any(|q| inside(p, q)))
        .collect();
    let mut folders = Vec::new();
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for path in outer {
        let Ok(entry) = root.get_path(Path::new(path)) else {
            continue;
        };
        match (entry.kind(), entry.filemode()) {
            (Some(ObjectType::Tree), _) => folders.push((format!("{path}/"), entry.id())),
            (Some(ObjectType::Blob), MODE_BLOB | MODE_BLOB_GROUP_WRITABLE | MODE_EXECUTABLE) => {
                files.push((path.to_owned(), entry.id()));
            }
            (Some(ObjectType::Blob), MODE_LINK) => {
                skipped.push(read_link(repo, path.to_owned(), entry.id(), skipped.len()));
            }
            _ => skipped.push(Skipped::unread(path.to_owned(), "not a regular file")),
        }
    }
    let (more_files, more_skipped) = list_below(repo, folders)?;
    files.extend(more_files);
    skipped.extend(more_skipped);
    Ok((files, skipped))
}

/// The symbolic link at `path` whose blob is `id`, its target read unless
/// `already` entries were skipped before it (a tree of countless links costs
/// a bounded number of reads).
fn read_link(repo: &Repository, path: String, id: Oid, already: usize) -> Skipped {
    match (already < super::MAX_LINKS_READ)
        .then(|| repo.find_blob(id).ok())
        .flatten()
    {
        Some(blob) => Skipped::link(path, blob.content()),
        None => Skipped::unread(path, super::SYMBOLIC_LINK),
    }
}

/// Lists every regular or executable blob below each (prefix, tree).
fn list_below(repo: &Repository, start: Vec<(String, Oid)>) -> Result<TreeListing, RevisionError> {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut pending: Vec<(String, Oid)> = start;
    while let Some((prefix, tree_id)) = pending.pop() {
        let tree = repo.find_tree(tree_id).map_err(|source| {
            RevisionError::git(format!("cannot read tree {tree_id} at `{prefix}`"), source)
        })?;
        for entry in tree.iter() {
            let name = match std::str::from_utf8(entry.name_bytes()) {
                Ok(name) => name,
                Err(_) => {
                    skipped.push(Skipped::unread(
                        format!("{prefix}{}", String::from_utf8_lossy(entry.name_bytes())),
                        "path name is not UTF-8",
                    ));
                    continue;
                }
            };
            let path = format!("{prefix}{name}");
            match (entry.kind(), entry.filemode()) {
                (Some(ObjectType::Tree), _) => pending.push((format!("{path}/"), entry.id())),
                (Some(ObjectType::Blob), MODE_LINK) => {
                    skipped.push(read_link(repo, path, entry.id(), skipped.len()));
                }
                (
                    Some(ObjectType::Blob),
                    MODE_BLOB | MODE_BLOB_GROUP_WRITABLE | MODE_EXECUTABLE,
                ) => files.push((path, entry.id())),
                (Some(ObjectType::Commit), _) => {
                    skipped.push(Skipped::unread(path, "submodule (gitlink)"))
                }
                _ => skipped.push(Skipped::unread(path, "not a regular file")),
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
        let mut read = None;
        self.with_bytes(path, &mut |bytes| read = Some(Arc::from(bytes)))?;
        Ok(read)
    }

    fn with_bytes(&self, path: &str, f: &mut dyn FnMut(&[u8])) -> std::io::Result<bool> {
        let Ok(index) = self.paths.binary_search_by(|p| p.as_str().cmp(path)) else {
            return Ok(false);
        };
        let Some(&blob_id) = self.blobs.get(index) else {
            return Ok(false);
        };
        let read = with_handle(&self.git_dir, |repo| {
            repo.find_blob(blob_id).map(|blob| f(blob.content()))
        });
        read.map(|()| true).map_err(|err| {
            std::io::Error::other(format!(
                "cannot read blob {blob_id} for `{path}` at {}: {}",
                self.commit,
                err.message()
            ))
        })
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

    fn size(&self, path: &str) -> std::io::Result<Option<u64>> {
        let Ok(index) = self.paths.binary_search_by(|p| p.as_str().cmp(path)) else {
            return Ok(None);
        };
        let Some(&blob_id) = self.blobs.get(index) else {
            return Ok(None);
        };
        let header = with_handle(&self.git_dir, |repo| repo.odb()?.read_header(blob_id));
        header.map(|(size, _)| Some(size as u64)).map_err(|err| {
            std::io::Error::other(format!(
                "cannot read the size of blob {blob_id} for `{path}` at {}: {}",
                self.commit,
                err.message()
            ))
        })
    }

    fn blob_id(&self, path: &str) -> Option<[u8; 20]> {
        let index = self.paths.binary_search_by(|p| p.as_str().cmp(path)).ok()?;
        self.blobs.get(index)?.as_bytes().try_into().ok()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn identical_copies_moved_together_pair_by_their_paths_tails() {
        let sign = "b/crypto/sign/set1.cks".to_owned();
        let key = "b/crypto/key/set1.cks".to_owned();
        assert_eq!(
            super::closest_by_tail("a/crypto/sign/set1.cks", &[&key, &sign]),
            Some(&sign)
        );
        // No tail longer than another's: not settled by the paths.
        assert_eq!(super::closest_by_tail("a/x/set1.cks", &[&key, &sign]), None);
    }
    #[test]
    fn identical_added_paths_go_to_deleted_ones_of_their_name_first() {
        let mut added = AddedPaths {
            paths: ["b/x.txt", "b/y.txt", "c/y.txt", "b/z.txt"]
                .map(str::to_owned)
                .to_vec(),
            ..AddedPaths::default()
        };
        assert_eq!(added.take("y.txt").as_deref(), Some("b/y.txt"));
        assert_eq!(added.take("y.txt").as_deref(), Some("c/y.txt"));
        // No name left: the first path left.
        assert_eq!(added.take("y.txt").as_deref(), Some("b/x.txt"));
        assert_eq!(added.take("z.txt").as_deref(), Some("b/z.txt"));
        assert_eq!(added.take("q.txt"), None);
        assert_eq!(added.left().count(), 0);
    }

    use super::*;
    use crate::fixture::testing::{build_case, standard};

    fn repo_of(case: &crate::fixture::testing::BuiltCase) -> GitRepo {
        GitRepo::open(&case.repo).expect("open fixture")
    }

    #[test]
    fn every_revision_form_resolves() {
        let case = standard();
        let repo = repo_of(&case);
        let c = |name: &str| case.built.oid(name).expect("built").to_string();
        let full = c("02");
        assert_eq!(full.len(), 40);
        assert_eq!(repo.resolve(&full).expect("full id"), full);
        assert_eq!(repo.resolve(&full[..7]).expect("short id"), full);
        assert_eq!(repo.resolve("main").expect("branch"), c("04"));
        assert_eq!(repo.resolve("feature").expect("branch"), c("03"));
        assert_eq!(repo.resolve("v1").expect("annotated tag"), full);
        assert_eq!(repo.resolve("refs/tags/v1").expect("tag ref"), full);
        assert_eq!(repo.resolve("HEAD").expect("HEAD"), c("04"));
        assert_eq!(repo.resolve("HEAD~2").expect("HEAD~2"), c("01"));
        assert_eq!(repo.resolve("origin/main").expect("remote branch"), c("04"));
    }

    #[test]
    fn a_tree_moved_whole_is_paired_by_contents_and_a_small_move_by_similarity() {
        // 450 files moved (past similarity pairing), one of them edited too.
        let contents: Vec<(String, String)> = (0..450)
            .map(|i| (format!("{i}.txt"), format!("file {i}\n")))
            .collect();
        let tree = |folder: &str, edited: bool| -> Vec<(String, Vec<u8>)> {
            contents
                .iter()
                .map(|(name, text)| {
                    let text = if edited && name == "7.txt" {
                        format!("{text}and more\n")
                    } else {
                        text.clone()
                    };
                    (format!("{folder}/{name}"), text.into_bytes())
                })
                .collect()
        };
        let (before, after) = (tree("crates", false), tree("moved", true));
        let b: Vec<(&str, &[u8])> = before
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_slice()))
            .collect();
        let a: Vec<(&str, &[u8])> = after
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_slice()))
            .collect();
        let case = build_case(&[("01-before", &b), ("02-after", &a)], None);
        let repo = repo_of(&case);
        let c = |name: &str| Oid::from_str(case.built.oid(name).expect("built")).expect("oid");
        let changes = repo.changes_between(c("01"), c("02"));
        let renamed = changes
            .iter()
            .filter(|(old, new)| {
                old.as_deref()
                    .zip(new.as_deref())
                    .is_some_and(|(o, n)| o.strip_prefix("crates/") == n.strip_prefix("moved/"))
            })
            .count();
        // Every file of the same contents is paired; the edited one is not
        // (a deletion and an addition), as git's exact pass leaves it.
        assert_eq!(renamed, 449);
        assert!(changes.contains(&(Some("crates/7.txt".to_owned()), None)));
        assert!(changes.contains(&(None, Some("moved/7.txt".to_owned()))));
        // A small move is paired by similarity, the edit and all.
        let small = build_case(
            &[
                ("01-before", &[("docs/a.md", b"one\ntwo\nthree\nfour\n")]),
                ("02-after", &[("guide/a.md", b"one\ntwo\nthree\nfour!\n")]),
            ],
            None,
        );
        let repo = repo_of(&small);
        let c = |name: &str| Oid::from_str(small.built.oid(name).expect("built")).expect("oid");
        assert_eq!(
            repo.changes_between(c("01"), c("02")),
            vec![(Some("docs/a.md".to_owned()), Some("guide/a.md".to_owned()))]
        );
    }

    #[test]
    fn a_file_whose_extension_changed_with_an_edit_was_renamed_not_deleted() {
        let body = b"// Three calls in a row.\nconst a = build();\nconst b = a.with(1);\nconst c = b.with(2);\n";
        let edited = b"// Three calls in a row.\nconst a = build();\nconst b = a.with(1);\nconst c = b.with(3);\n";
        let case = build_case(
            &[
                (
                    "01-before",
                    &[("adr/0017-snippets.ts", body), ("src/x.ts", b"x\n")],
                ),
                (
                    "02-after",
                    &[("adr/0017-snippets.md", edited), ("src/x.ts", b"x\n")],
                ),
            ],
            None,
        );
        let repo = repo_of(&case);
        let c = |name: &str| Oid::from_str(case.built.oid(name).expect("built")).expect("oid");
        assert_eq!(
            repo.renamed_from(c("02"), "adr/0017-snippets.md")
                .as_deref(),
            Some("adr/0017-snippets.ts")
        );
    }

    #[test]
    fn unknown_revision_is_an_error_without_shallow_hint() {
        let case = standard();
        let repo = repo_of(&case);
        for rev in [
            "no-such-branch",
            "HEAD~9",
            "deadbeefdeadbeef",
            "0000000000000000000000000000000000000000",
        ] {
            let err = repo.resolve(rev).expect_err(rev);
            assert!(
                matches!(&err, RevisionError::UnknownRevision { rev: r, shallow: false, .. } if r == rev),
                "{rev}: {err:?}"
            );
            let message = err.to_string();
            assert!(message.contains(rev), "{message}");
            assert!(!message.contains("shallow"), "{message}");
        }
    }

    #[test]
    fn revision_of_a_tree_or_blob_is_not_a_commit() {
        let case = standard();
        let repo = repo_of(&case);
        let err = repo.resolve("HEAD:README.md").expect_err("blob");
        assert!(
            matches!(&err, RevisionError::NotACommit { kind, .. } if kind == "blob"),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "revision `HEAD:README.md` names a blob, not a commit"
        );
        let err = repo.resolve("HEAD^{tree}").expect_err("tree");
        assert!(matches!(err, RevisionError::NotACommit { .. }), "{err:?}");
    }

    #[test]
    fn shallow_clone_explains_a_commit_outside_it() {
        let case = standard();
        let clone_parent = tempfile::tempdir().expect("tempdir");
        let clone = clone_parent.path().join("clone");
        let url = format!("file://{}", case.repo.display());
        let output = std::process::Command::new("git")
            .args(["clone", "-q", "--depth", "1", &url])
            .arg(&clone)
            .output()
            .expect("git runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let repo = GitRepo::open(&clone).expect("open clone");
        assert!(repo.is_shallow());
        assert!(!repo_of(&case).is_shallow());
        let head = case.built.oid("04").expect("04");
        assert_eq!(repo.resolve("HEAD").expect("head"), head);
        let outside = case.built.oid("01").expect("01");
        for rev in [outside, "HEAD~1"] {
            let err = repo.resolve(rev).expect_err(rev);
            assert!(
                matches!(err, RevisionError::UnknownRevision { shallow: true, .. }),
                "{rev}: {err:?}"
            );
            let message = err.to_string();
            assert!(message.contains("shallow"), "{message}");
            assert!(message.contains("fetch-depth: 0"), "{message}");
            assert!(message.contains("actions/checkout"), "{message}");
        }
        assert!(matches!(
            repo.is_ancestor(outside, "HEAD"),
            Err(RevisionError::UnknownRevision { shallow: true, .. })
        ));
    }

    #[test]
    fn a_remote_tracking_ref_counts_only_for_a_remote_the_repository_has() {
        let case = standard();
        let raw = git2::Repository::open(&case.repo).expect("open");
        let tip = raw.refname_to_id("refs/heads/feature").expect("feature");
        // A mirror's copy of a ref the upstream held: no remote `public`.
        raw.reference("refs/remotes/public/stale", tip, true, "test")
            .expect("ref");
        raw.reference("refs/remotes/origin/review", tip, true, "test")
            .expect("ref");
        let names = |repo: &GitRepo| -> Vec<String> {
            repo.branch_refs()
                .into_iter()
                .map(|(name, _)| name)
                .collect()
        };
        let before = names(&repo_of(&case));
        assert!(!before.contains(&"stale".to_owned()), "{before:?}");
        assert!(!before.contains(&"review".to_owned()), "{before:?}");
        raw.remote("origin", "https://example.invalid/x.git")
            .expect("remote");
        let after = names(&repo_of(&case));
        assert!(after.contains(&"review".to_owned()), "{after:?}");
        assert!(after.contains(&"main".to_owned()), "{after:?}");
        assert!(!after.contains(&"stale".to_owned()), "{after:?}");
    }

    #[test]
    fn ancestry_follows_the_graph() {
        let case = standard();
        let repo = repo_of(&case);
        let c = |name: &str| case.built.oid(name).expect("built");
        assert!(repo.is_ancestor(c("01"), c("04")).expect("01 -> 04"));
        assert!(repo.is_ancestor(c("01"), "main").expect("01 -> main"));
        assert!(!repo.is_ancestor(c("04"), c("01")).expect("04 -> 01"));
        assert!(repo.is_ancestor("main", "main").expect("equal"));
        assert!(repo.is_ancestor(c("02"), "feature").expect("fork point"));
        assert!(
            !repo
                .is_ancestor("feature", "main")
                .expect("branch not on main")
        );
        assert!(
            !repo
                .is_ancestor("main", "feature")
                .expect("main not on branch")
        );
        assert!(repo.is_ancestor("v1", "HEAD").expect("tag"));
        assert!(matches!(
            repo.is_ancestor("nope", "main"),
            Err(RevisionError::UnknownRevision { .. })
        ));
    }

    #[test]
    fn tree_snapshot_lists_and_reads_a_commit() {
        let case = standard();
        let repo = repo_of(&case);
        let id = case.built.oid("02").expect("02");
        let snap = repo.tree_snapshot("v1").expect("snapshot");
        assert_eq!(snap.paths(), ["README.md", "docs/adr.md", "src/a.py"]);
        assert_eq!(snap.commit().as_deref(), Some(id));
        assert_eq!(snap.label(), id[..8]);
        assert!(snap.skipped().is_empty());
        assert_eq!(
            snap.read("src/a.py").expect("read").as_deref(),
            Some(&b"A = 2\n"[..])
        );
        assert_eq!(snap.read("docs").expect("read dir"), None);
        assert_eq!(snap.read("absent").expect("read absent"), None);
        // The working tree holds main, where docs/ is gone: the snapshot did not look at it.
        assert!(!case.repo.join("docs/adr.md").exists());
        let head = repo.tree_snapshot("HEAD").expect("head snapshot");
        assert_eq!(head.read("docs/adr.md").expect("read"), None);
        assert_eq!(
            head.read_text("src/a.py").expect("read").as_deref(),
            Some("A = 3\n")
        );
    }

    #[test]
    fn snapshots_are_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>(_: &T) {}
        let case = standard();
        let repo = repo_of(&case);
        let snap = repo.tree_snapshot("HEAD").expect("snapshot");
        assert_send_sync(&snap);
        let shared = Arc::new(snap);
        let reader = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || shared.read("README.md").map(|b| b.map(|b| b.len())))
        };
        assert_eq!(reader.join().expect("thread").expect("read"), Some(12));
    }

    #[test]
    fn binary_blob_has_no_text_and_invalid_utf8_reads_lossily() {
        let case = build_case(
            &[(
                "01-mixed",
                &[
                    ("bin.dat", b"\x89PNG\r\n\x1a\n\0\0\0"),
                    ("latin.txt", b"caf\xe9 ok\n"),
                ],
            )],
            None,
        );
        let repo = repo_of(&case);
        let snap = repo.tree_snapshot("HEAD").expect("snapshot");
        assert!(snap.read("bin.dat").expect("read").is_some());
        assert_eq!(snap.read_text("bin.dat").expect("read"), None);
        assert_eq!(
            snap.read_text("latin.txt").expect("read").as_deref(),
            Some("caf\u{fffd} ok\n")
        );
    }

    #[test]
    fn symlinks_gitlinks_and_non_utf8_names_are_skipped_with_notes() {
        let temp = tempfile::tempdir().expect("tempdir");
        let raw = Repository::init(temp.path()).expect("init");
        let blob = raw.blob(b"text\n").expect("blob");
        let link = raw.blob(b"a.txt").expect("link blob");
        let mut sub = raw.treebuilder(None).expect("builder");
        sub.insert("inner.txt", blob, 0o100644).expect("insert");
        sub.insert(b"bad\xffname".to_vec(), blob, 0o100644)
            .expect("insert non-UTF-8");
        let sub_id = sub.write().expect("write sub");
        let mut root = raw.treebuilder(None).expect("builder");
        root.insert("a.txt", blob, 0o100644).expect("insert");
        root.insert("run.sh", blob, 0o100755).expect("insert");
        root.insert("link", link, 0o120000).expect("insert link");
        // A gitlink names a commit of another repository; any id will do.
        let foreign = Oid::from_str("1234567890123456789012345678901234567890").expect("oid");
        root.insert("vendor", foreign, 0o160000)
            .expect("insert gitlink");
        root.insert("dir", sub_id, 0o040000).expect("insert dir");
        let tree_id = root.write().expect("write root");
        let tree = raw.find_tree(tree_id).expect("tree");
        let sig =
            git2::Signature::new("t", "t@example.invalid", &git2::Time::new(0, 0)).expect("sig");
        raw.commit(Some("HEAD"), &sig, &sig, "m", &tree, &[])
            .expect("commit");

        let repo = GitRepo::open(temp.path()).expect("open");
        let snap = repo.tree_snapshot("HEAD").expect("snapshot");
        assert_eq!(snap.paths(), ["a.txt", "dir/inner.txt", "run.sh"]);
        assert_eq!(
            snap.skipped(),
            [
                Skipped::unread("dir/bad\u{fffd}name".to_string(), "path name is not UTF-8"),
                Skipped::link("link".to_string(), b"a.txt"),
                Skipped::unread("vendor".to_string(), "submodule (gitlink)"),
            ]
        );
        assert_eq!(snap.read("link").expect("read"), None);
        assert_eq!(snap.link_target("link"), Some("a.txt"));
        assert_eq!(snap.read("vendor").expect("read"), None);
        // What a submodule holds is its repository's: it may be there.
        assert!(snap.holds_unread("vendor") && snap.holds_unread("vendor/docs/index.rst"));
        assert!(!snap.holds_unread("vendored/x.md") && !snap.holds_unread("dir/inner.txt"));
    }

    #[test]
    fn discover_walks_up_and_missing_or_bare_repositories_are_named() {
        let case = standard();
        let found = GitRepo::discover(&case.repo.join("src")).expect("discover from subdir");
        let workdir = found.workdir().expect("workdir");
        assert_eq!(
            workdir.canonicalize().expect("canon"),
            case.repo.canonicalize().expect("canon")
        );
        assert!(found.git_dir().ends_with(".git"));

        let empty = tempfile::tempdir().expect("tempdir");
        let err = GitRepo::open(empty.path()).expect_err("not a repository");
        assert!(
            matches!(
                err,
                RevisionError::RepositoryNotFound {
                    searched_upward: false,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains(&empty.path().display().to_string()),
            "{err}"
        );

        let bare_dir = tempfile::tempdir().expect("tempdir");
        Repository::init_bare(bare_dir.path()).expect("bare");
        let bare = GitRepo::open(bare_dir.path()).expect("open bare");
        assert_eq!(bare.workdir(), None);
        let err = bare
            .worktree_snapshot()
            .expect_err("bare has no working tree");
        assert!(
            matches!(err, RevisionError::BareRepository { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("bare repository"), "{err}");
    }
}

#[cfg(test)]
mod day_tests {
    use super::Day;

    #[test]
    fn days_parse_and_end_at_midnight_utc() {
        let day = Day::parse("2026-09-01").expect("a day");
        // 2026-09-01T00:00:00Z is 1_788_220_800.
        assert_eq!(day.end_utc(), 1_788_220_800 + 86_399);
        assert_eq!(day.to_string(), "2026-09-01");
        assert_eq!(Day::parse("1970-01-01").map(Day::end_utc), Some(86_399));
        assert!(Day::parse("2024-02-29").is_some());
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-9-01",
            "2026-09-31",
            "yesterday",
            "2026-09-01x",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_unix_time_falls_on_its_utc_day() {
        for text in [
            "1970-01-01",
            "2000-02-29",
            "2026-09-01",
            "2026-12-31",
            "2999-12-31",
        ] {
            let day = Day::parse(text).expect("a day");
            assert_eq!(Day::from_unix(day.end_utc()), day, "{text}");
            assert_eq!(Day::from_unix(day.end_utc() - 86_399), day, "{text}");
        }
        assert_eq!(Day::from_unix(-1).to_string(), "1969-12-31");
    }
}
