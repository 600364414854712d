//! The git layer's memory between runs: what the citation evidence learns
//! from history that can never change — a commit's first parent, the object a
//! path names in a commit's tree, where a commit moved a path (rename
//! detection, the dearest of the three) — kept in a file outside the repository and
//! keyed by object ids alone, so an entry is true for every run that meets the
//! same objects, whatever commit it audits (a pull request's head shares the
//! main line's past with the run before it). Reading the line of a
//! 17,000-commit history and the tree lookups of its searches are the cost of
//! the evidence; with the memory a rerun reads neither.
//!
//! The file holds only what the last run used, so it never outgrows one run's
//! working set. A file that cannot be read, or is not one of ours, is ignored
//! (a cache is never a reason not to run); one that cannot be written leaves
//! a note.
//!
//! A cache folder is as untrusted as the checkout (a CI cache restored from
//! another branch's job), so the file is trusted no further than its entries
//! can be checked against the objects they name. Only the dear entries are
//! kept between runs — where a path went (rename detection) and what became
//! of a path on a line (a walk) — and each is checked by a few tree lookups
//! before it is used: the path there in the parent and gone from the commit,
//! a rename's other side the other way round. A "not renamed" or "not
//! removed" that a lookup cannot confirm is worked out again. One entry its
//! objects contradict makes the whole file untrusted for the run, with a
//! note, and it is rewritten from what the run found. First parents, path
//! lookups and dated commits are cheaper to read again than to check, and
//! are kept for the run only.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use git2::Oid;

use super::git::{PathFate, Rename};

/// The first line of a memory file: its format, and the version of it (3:
/// a deleted copy of a file its commit kept is no rename, so version 2's
/// renames are not this build's).
const HEADER: &str = "recount object memory 3";

/// A memory file larger than this is not read (a run's working set on the
/// largest repositories measured is a few MiB).
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Facts of immutable objects, read from and written back to one file.
pub struct ObjectMemo {
    file: PathBuf,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Entries from the file, not yet used by this run.
    loaded: Entries,
    /// Entries this run used or learned: what is written back.
    used: Entries,
    /// Whether `used` holds anything the file did not.
    learned: bool,
    /// Whether an entry of the file was contradicted by its objects: the
    /// file's other entries are dropped, and the run says so.
    distrusted: bool,
    /// Whether the file keeps what it held as well as what this run used:
    /// the second audit of one process (the base of `check --since`) must
    /// not shrink the file to its own working set, dropping the first's.
    adds: bool,
}

/// What the memory holds of one question.
#[derive(Debug, PartialEq, Eq)]
pub enum Remembered<V> {
    /// Worked out by this run: true.
    Found(V),
    /// Read from the file: to be checked before it is used.
    Loaded(V),
    Unknown,
}

#[derive(Default)]
struct Entries {
    /// A commit's first parent (a root, or a shallow clone's boundary, is
    /// never kept: fetching deeper gives it one).
    parents: HashMap<Oid, Oid>,
    /// The object a path names in a commit's tree, by path, then commit;
    /// `None` where the tree has no such path.
    paths: HashMap<String, HashMap<Oid, Option<Oid>>>,
    /// Where a path went in a commit, or came from (rename detection over
    /// the commit and its first parent); `None`: not renamed.
    renames: HashMap<(Oid, Rename, String), Option<String>>,
    /// The last commit of the first-parent line from a head whose commit time
    /// is at or before a cutoff (seconds): a dated frame. Only a commit found
    /// is kept (a shallow clone fetched deeper may find one where it did not).
    days: HashMap<(Oid, i64), Oid>,
    /// What became of a path on the first-parent line from a commit, within
    /// a number of commits (see `GitRepo::fates_of`); `None`: not removed
    /// within them.
    fates: HashMap<(Oid, usize, String), Option<PathFate>>,
}

impl Entries {
    fn remember(&mut self, path: &str, commit: Oid, id: Option<Oid>) {
        match self.paths.get_mut(path) {
            Some(at) => {
                at.insert(commit, id);
            }
            None => {
                self.paths
                    .insert(path.to_owned(), HashMap::from([(commit, id)]));
            }
        }
    }
}

impl ObjectMemo {
    /// The memory of the repository at `git_dir`, in `dir` (created when the
    /// run writes it back). Refused — `Err` with why — when `dir` lies inside
    /// the repository: the audited repository is never written to.
    pub fn open(dir: &Path, git_dir: &Path, workdir: Option<&Path>) -> Result<ObjectMemo, String> {
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let dir_abs = nearest_existing(dir).map_or_else(|| dir.to_path_buf(), |d| canonical(&d));
        for inside in [Some(git_dir), workdir].into_iter().flatten() {
            if dir_abs.starts_with(canonical(inside)) {
                return Err(format!(
                    "the cache folder {} is inside the repository, which recount never writes to",
                    dir.display()
                ));
            }
        }
        // One file per repository, named by its git directory (entries are keyed
        // by object ids, so a file read for another repository is merely unused).
        let name = Oid::hash_object(
            git2::ObjectType::Blob,
            canonical(git_dir).to_string_lossy().as_bytes(),
        )
        .map(|id| id.to_string()[..16].to_owned())
        .unwrap_or_else(|_| "repository".to_owned());
        let file = dir.join(format!("{name}.memo"));
        // Only a regular file is ours to read and to replace: a link, a FIFO
        // (which would block the run in `open`) or a device is refused.
        if let Ok(meta) = std::fs::symlink_metadata(&file)
            && !meta.file_type().is_file()
        {
            return Err(format!(
                "the cache file {} is not a regular file (a link, a FIFO or a device), so it is neither read nor replaced",
                file.display()
            ));
        }
        let loaded = read_entries(&file).unwrap_or_default();
        Ok(ObjectMemo {
            file,
            state: Mutex::new(State {
                loaded,
                ..State::default()
            }),
        })
    }

    /// The first parent of `commit`, from memory or from `read`.
    pub fn first_parent(&self, commit: Oid, read: impl FnOnce() -> Option<Oid>) -> Option<Oid> {
        self.recall(|e| &mut e.parents, commit, read)
    }

    /// The value of `key` in the table `table` picks: used already this
    /// run, else from the file, else from `read` (see [`recall`]).
    fn recall<K: std::hash::Hash + Eq, V: Clone>(
        &self,
        table: fn(&mut Entries) -> &mut HashMap<K, V>,
        key: K,
        read: impl FnOnce() -> Option<V>,
    ) -> Option<V> {
        let Ok(mut state) = self.state.lock() else {
            return read();
        };
        let State {
            loaded,
            used,
            learned,
            ..
        } = &mut *state;
        recall(table(used), table(loaded), key, learned, read)
    }

    /// The object `path` names in `commit`'s tree, from memory or from
    /// `read` (`Err` when the tree could not be read: nothing is kept).
    pub fn path_id(
        &self,
        commit: Oid,
        path: &str,
        read: impl FnOnce() -> Result<Option<Oid>, ()>,
    ) -> Option<Oid> {
        let Ok(mut state) = self.state.lock() else {
            return read().ok().flatten();
        };
        if let Some(&id) = state.used.paths.get(path).and_then(|at| at.get(&commit)) {
            return id;
        }
        if let Some(id) = state
            .loaded
            .paths
            .get_mut(path)
            .and_then(|at| at.remove(&commit))
        {
            state.used.remember(path, commit, id);
            return id;
        }
        match read() {
            Ok(id) => {
                state.used.remember(path, commit, id);
                state.learned = true;
                id
            }
            Err(()) => None,
        }
    }

    /// What the memory holds of where `path` went in `commit` or came from
    /// (see [`Rename`]). A [`Remembered::Loaded`] answer is taken out of the
    /// file's entries: the caller checks it, then keeps it or distrusts.
    pub fn rename(&self, commit: Oid, direction: Rename, path: &str) -> Remembered<Option<String>> {
        let Ok(mut state) = self.state.lock() else {
            return Remembered::Unknown;
        };
        let key = (commit, direction, path.to_owned());
        if let Some(found) = state.used.renames.get(&key) {
            return Remembered::Found(found.clone());
        }
        match state.loaded.renames.remove(&key) {
            Some(loaded) => Remembered::Loaded(loaded),
            None => Remembered::Unknown,
        }
    }

    /// Keeps where `path` went in `commit` or came from: worked out, or
    /// loaded and checked.
    pub fn keep_rename(&self, commit: Oid, direction: Rename, path: &str, other: Option<String>) {
        if let Ok(mut state) = self.state.lock() {
            state
                .used
                .renames
                .insert((commit, direction, path.to_owned()), other);
            state.learned = true;
        }
    }

    /// Keeps, when the file is written back, what it held too.
    pub fn add_to_what_it_holds(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.adds = true;
        }
    }

    /// Drops every entry of the file: one was contradicted by the objects it
    /// names. The run goes on without them and says so.
    pub fn distrust(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.loaded = Entries::default();
            state.distrusted = true;
            state.learned = true;
        }
    }

    /// The note for a run that found the file contradicted, if it did.
    pub fn distrust_note(&self) -> Option<String> {
        let state = self.state.lock().ok()?;
        state.distrusted.then(|| {
            format!(
                "the cache {} held an entry its objects contradict: none of its entries were used, \
                 and it was rewritten from what this run found",
                self.file.display()
            )
        })
    }

    /// The last commit by `cutoff` on the first-parent line from `head`,
    /// from memory or from `read`.
    pub fn last_commit_by(
        &self,
        head: Oid,
        cutoff: i64,
        read: impl FnOnce() -> Option<Oid>,
    ) -> Option<Oid> {
        self.recall(|e| &mut e.days, (head, cutoff), read)
    }

    /// What the memory holds of each of `paths` walked back `limit` commits
    /// from `from` (its fate, or none). Loaded answers are taken out of the
    /// file's entries, for the caller to check.
    pub fn fates(
        &self,
        from: Oid,
        limit: usize,
        paths: &[String],
    ) -> Vec<Remembered<Option<PathFate>>> {
        let Ok(mut state) = self.state.lock() else {
            return paths.iter().map(|_| Remembered::Unknown).collect();
        };
        let State { loaded, used, .. } = &mut *state;
        paths
            .iter()
            .map(|path| {
                let key = (from, limit, path.clone());
                if let Some(fate) = used.fates.get(&key) {
                    return Remembered::Found(fate.clone());
                }
                match loaded.fates.remove(&key) {
                    Some(fate) => Remembered::Loaded(fate),
                    None => Remembered::Unknown,
                }
            })
            .collect()
    }

    /// Keeps what a walk found of `path` (see [`ObjectMemo::fates`]).
    pub fn keep_fate(&self, from: Oid, limit: usize, path: &str, fate: Option<PathFate>) {
        if let Ok(mut state) = self.state.lock() {
            state
                .used
                .fates
                .insert((from, limit, path.to_owned()), fate);
            state.learned = true;
        }
    }

    /// Writes back what this run used, when it learned anything or left
    /// entries unused (so the file shrinks to the working set). `Err` says why
    /// it could not be written.
    pub fn save(&self) -> Result<(), String> {
        let Ok(state) = self.state.lock() else {
            return Ok(());
        };
        // Entries are moved from `loaded` to `used` as they are used, so the
        // two never share one: kept together, neither is written twice.
        let kept = state.adds && !state.distrusted;
        let unused = !kept && (!state.loaded.renames.is_empty() || !state.loaded.fates.is_empty());
        if !state.learned && !unused {
            return Ok(());
        }
        let failed =
            |e: std::io::Error| format!("the cache {} was not written: {e}", self.file.display());
        let dir = self.file.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(failed)?;
        // Written beside and renamed over, so a run reading it meanwhile (a
        // parallel job) sees the old file or the new one, never half of one.
        // The temporary file is created new, never opened if it exists: a
        // link planted under its name is not written through.
        let (temp, created) = create_new_beside(&self.file).map_err(failed)?;
        let write = || -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(created);
            writeln!(out, "{HEADER}")?;
            let mut lines = 1usize;
            // (A path with a line break or a tab in it is not kept: the
            // file is one entry a line, its fields split by spaces and tabs.)
            let plain = |p: &str| !p.contains(['\n', '\r', '\t']);
            let mut renames: Vec<_> = state
                .used
                .renames
                .iter()
                .chain(state.loaded.renames.iter().filter(|_| kept))
                .collect();
            renames.sort();
            for ((commit, direction, path), other) in renames {
                if !plain(path) || !other.as_deref().is_none_or(plain) {
                    continue;
                }
                let way = match direction {
                    Rename::To => "to",
                    Rename::From => "from",
                };
                let other = other.as_deref().unwrap_or("");
                writeln!(out, "r {commit} {way} {path}\t{other}")?;
                lines += 1;
            }
            let mut fates: Vec<_> = state
                .used
                .fates
                .iter()
                .chain(state.loaded.fates.iter().filter(|_| kept))
                .collect();
            fates.sort_by(|a, b| a.0.cmp(b.0));
            for ((from, limit, path), fate) in fates {
                let (kind, commit, to) = match fate {
                    None => ("-", "-", ""),
                    Some(PathFate::Deleted { commit }) => ("d", commit.as_str(), ""),
                    Some(PathFate::Renamed { to, commit }) => ("r", commit.as_str(), to.as_str()),
                    // Only a file's walk is kept, and a split is a folder's.
                    Some(PathFate::Split { .. }) => continue,
                };
                if !plain(path) || !plain(to) || commit.contains([' ', '\t', '\n']) {
                    continue;
                }
                writeln!(out, "g {from} {limit} {kind} {commit} {path}\t{to}")?;
                lines += 1;
            }
            // The last line counts the ones before it: a file cut short (a run
            // killed while writing, a full disk) is not read as a shorter one.
            writeln!(out, "end {lines}")?;
            out.into_inner().map_err(|e| e.into_error())?;
            std::fs::rename(&temp, &self.file)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            failed(e)
        })
    }
}

/// A new temporary file beside `file`, created exclusively under the first
/// free name of a few (a name taken, by a killed run or a planted link, is
/// passed over, never opened).
fn create_new_beside(file: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let mut last = None;
    for attempt in 0..8 {
        let temp = file.with_extension(format!("memo.{}.{attempt}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(created) => return Ok((temp, created)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// The value of `key`: used already this run, else from the file (moved to
/// what this run used), else from `read` — kept unless it is `None`.
fn recall<K: std::hash::Hash + Eq, V: Clone>(
    used: &mut HashMap<K, V>,
    loaded: &mut HashMap<K, V>,
    key: K,
    learned: &mut bool,
    read: impl FnOnce() -> Option<V>,
) -> Option<V> {
    if let Some(value) = used.get(&key) {
        return Some(value.clone());
    }
    let value = match loaded.remove(&key) {
        Some(value) => value,
        None => {
            let value = read()?;
            *learned = true;
            value
        }
    };
    used.insert(key, value.clone());
    Some(value)
}

/// `path` itself or its nearest ancestor that exists.
fn nearest_existing(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    absolute
        .ancestors()
        .find(|p| p.exists())
        .map(Path::to_path_buf)
}

/// `file` opened for reading: never through a link, and never waiting on a
/// FIFO swapped in after the check in [`ObjectMemo::open`] (the caller reads
/// only what is a regular file once opened).
#[cfg(unix)]
fn open_unfollowed(file: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file)
}

#[cfg(not(unix))]
fn open_unfollowed(file: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(file)
}

/// The entries of a memory file; `None` when it is missing, too large, not
/// ours, or damaged anywhere (a damaged file is read as none at all).
fn read_entries(file: &Path) -> Option<Entries> {
    let handle = open_unfollowed(file).ok()?;
    let meta = handle.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let mut text = String::new();
    handle.take(MAX_FILE_BYTES).read_to_string(&mut text).ok()?;
    let mut lines = text.lines();
    if lines.next()? != HEADER {
        return None;
    }
    let mut entries = Entries::default();
    for (count, line) in (1usize..).zip(lines) {
        let (kind, rest) = line.split_once(' ')?;
        match kind {
            "r" => {
                let (commit, rest) = rest.split_once(' ')?;
                let (way, rest) = rest.split_once(' ')?;
                let direction = match way {
                    "to" => Rename::To,
                    "from" => Rename::From,
                    _ => return None,
                };
                let (path, other) = rest.split_once('\t')?;
                let other = (!other.is_empty()).then(|| other.to_owned());
                entries.renames.insert(
                    (Oid::from_str(commit).ok()?, direction, path.to_owned()),
                    other,
                );
            }
            "g" => {
                let mut fields = rest.splitn(5, ' ');
                let from = Oid::from_str(fields.next()?).ok()?;
                let limit = fields.next()?.parse::<usize>().ok()?;
                let kind = fields.next()?;
                let commit = fields.next()?.to_owned();
                let (path, to) = fields.next()?.split_once('\t')?;
                let fate = match kind {
                    "-" => None,
                    "d" => Some(PathFate::Deleted { commit }),
                    "r" => Some(PathFate::Renamed {
                        to: to.to_owned(),
                        commit,
                    }),
                    _ => return None,
                };
                entries.fates.insert((from, limit, path.to_owned()), fate);
            }
            "end" => return (rest.parse::<usize>().ok()? == count).then_some(entries),
            _ => return None,
        }
    }
    // No `end` line: cut short.
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(n: u8) -> Oid {
        Oid::from_bytes(&[n; 20]).expect("oid")
    }

    #[test]
    fn renames_and_fates_are_read_back_to_be_checked_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let cache = dir.path().join("cache");
        let memo = ObjectMemo::open(&cache, repo.path(), None).expect("memo");
        assert_eq!(memo.first_parent(oid(1), || Some(oid(2))), Some(oid(2)));
        assert_eq!(
            memo.path_id(oid(1), "a b.md", || Ok(Some(oid(4)))),
            Some(oid(4))
        );
        assert_eq!(
            memo.last_commit_by(oid(1), 100, || Some(oid(8))),
            Some(oid(8))
        );
        memo.keep_rename(oid(1), Rename::To, "a b.md", Some("new home.md".to_owned()));
        memo.keep_rename(oid(1), Rename::From, "a b.md", None);
        assert_eq!(
            memo.rename(oid(1), Rename::To, "a b.md"),
            Remembered::Found(Some("new home.md".to_owned()))
        );
        let (deleted, renamed) = (
            PathFate::Deleted {
                commit: "abcd1234".to_owned(),
            },
            PathFate::Renamed {
                to: "new place/b.md".to_owned(),
                commit: "abcd1234".to_owned(),
            },
        );
        memo.keep_fate(oid(1), 2000, "a b.md", Some(deleted.clone()));
        memo.keep_fate(oid(1), 2000, "c d.md", Some(renamed.clone()));
        memo.keep_fate(oid(1), 2000, "never.md", None);
        memo.save().expect("save");

        let again = ObjectMemo::open(&cache, repo.path(), None).expect("memo");
        // Cheaper to read again than to check: never read back.
        assert_eq!(again.first_parent(oid(1), || Some(oid(9))), Some(oid(9)));
        assert_eq!(
            again.path_id(oid(1), "a b.md", || Ok(Some(oid(6)))),
            Some(oid(6))
        );
        assert_eq!(
            again.last_commit_by(oid(1), 100, || Some(oid(7))),
            Some(oid(7))
        );
        // Read back as loaded, for the caller to check; once.
        assert_eq!(
            again.rename(oid(1), Rename::To, "a b.md"),
            Remembered::Loaded(Some("new home.md".to_owned()))
        );
        assert_eq!(
            again.rename(oid(1), Rename::From, "a b.md"),
            Remembered::Loaded(None)
        );
        assert_eq!(
            again.rename(oid(2), Rename::To, "a b.md"),
            Remembered::Unknown
        );
        let asked = ["a b.md", "c d.md", "never.md", "unknown.md"].map(str::to_owned);
        assert_eq!(
            again.fates(oid(1), 2000, &asked),
            vec![
                Remembered::Loaded(Some(deleted)),
                Remembered::Loaded(Some(renamed)),
                Remembered::Loaded(None),
                Remembered::Unknown
            ]
        );
        assert_eq!(
            again.fates(oid(1), 10, &asked[..1]),
            vec![Remembered::Unknown]
        );
    }

    #[test]
    fn a_second_audit_adds_to_the_file_and_a_lone_one_shrinks_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let cache = dir.path().join("cache");
        let first = ObjectMemo::open(&cache, repo.path(), None).expect("memo");
        first.keep_rename(oid(1), Rename::To, "a.md", Some("b.md".to_owned()));
        first.save().expect("saved");
        let renames = |memo: &ObjectMemo| memo.state.lock().expect("state").loaded.renames.len();
        // The base of `check --since` learns another and leaves the first
        // unused: both are kept.
        let second = ObjectMemo::open(&cache, repo.path(), None).expect("memo");
        second.add_to_what_it_holds();
        second.keep_rename(oid(2), Rename::To, "c.md", None);
        second.save().expect("saved");
        assert_eq!(
            renames(&ObjectMemo::open(&cache, repo.path(), None).expect("memo")),
            2
        );
        // A lone run keeps its working set only.
        let lone = ObjectMemo::open(&cache, repo.path(), None).expect("memo");
        lone.keep_rename(oid(3), Rename::To, "d.md", None);
        lone.save().expect("saved");
        assert_eq!(
            renames(&ObjectMemo::open(&cache, repo.path(), None).expect("memo")),
            1
        );
    }

    #[test]
    fn a_contradicted_file_is_dropped_whole_said_and_rewritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let memo = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
        memo.keep_rename(oid(1), Rename::To, "a.md", Some("b.md".to_owned()));
        memo.keep_rename(oid(2), Rename::To, "c.md", Some("d.md".to_owned()));
        memo.save().expect("save");
        let again = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
        assert!(matches!(
            again.rename(oid(1), Rename::To, "a.md"),
            Remembered::Loaded(_)
        ));
        assert_eq!(again.distrust_note(), None);
        again.distrust();
        assert_eq!(
            again.rename(oid(2), Rename::To, "c.md"),
            Remembered::Unknown
        );
        assert!(
            again
                .distrust_note()
                .is_some_and(|n| n.contains("contradict"))
        );
        again.keep_rename(oid(1), Rename::To, "a.md", None);
        again.save().expect("rewritten");
        let third = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
        assert_eq!(
            third.rename(oid(1), Rename::To, "a.md"),
            Remembered::Loaded(None)
        );
        assert_eq!(
            third.rename(oid(2), Rename::To, "c.md"),
            Remembered::Unknown
        );
    }

    #[test]
    fn a_damaged_or_foreign_file_is_read_as_no_memory() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let memo = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
        memo.keep_rename(oid(1), Rename::To, "a.md", Some("b.md".to_owned()));
        memo.save().expect("save");
        let file = std::fs::read_dir(dir.path())
            .expect("dir")
            .next()
            .expect("a file")
            .expect("entry")
            .path();
        let whole = std::fs::read_to_string(&file).expect("read");
        assert!(whole.ends_with("end 2\n"), "{whole}");
        for damaged in [
            "not ours\n".to_owned(),
            whole.replace("end 2", "end 3"),
            whole[..whole.len() - 6].to_owned(),
            whole.replace(HEADER, "recount object memory 2"),
            format!("{HEADER}\nl {} {}\nend 2\n", oid(1), oid(2)),
            format!("{HEADER}\nq {} {}\nend 2\n", oid(1), oid(2)),
        ] {
            std::fs::write(&file, damaged).expect("write");
            let memo = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
            assert_eq!(memo.rename(oid(1), Rename::To, "a.md"), Remembered::Unknown);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_under_the_temporary_name_is_not_written_through() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "mine\n").expect("victim");
        let memo = ObjectMemo::open(dir.path(), repo.path(), None).expect("memo");
        let planted = memo
            .file
            .with_extension(format!("memo.{}.0.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).expect("plant");
        memo.keep_rename(oid(1), Rename::To, "a.md", None);
        memo.save().expect("saved under another name");
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "mine\n");
        let meta = std::fs::symlink_metadata(&memo.file).expect("the memory");
        assert!(meta.file_type().is_file(), "{meta:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_cache_file_that_is_a_link_or_a_fifo_is_refused_not_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = tempfile::tempdir().expect("repo");
        let file = ObjectMemo::open(dir.path(), repo.path(), None)
            .expect("memo")
            .file;
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, format!("{HEADER}\nend 1\n")).expect("target");
        std::os::unix::fs::symlink(&target, &file).expect("link");
        let why = ObjectMemo::open(dir.path(), repo.path(), None).err();
        assert!(why.is_some_and(|w| w.contains("not a regular file")));
        std::fs::remove_file(&file).expect("unlink");
        let made = std::process::Command::new("mkfifo")
            .arg(&file)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Refused before any `open`, which on a FIFO would wait forever.
        let why = ObjectMemo::open(dir.path(), repo.path(), None).err();
        assert!(why.is_some_and(|w| w.contains("not a regular file")));
        assert!(read_entries(&file).is_none());
    }

    #[test]
    fn a_cache_folder_inside_the_repository_is_refused() {
        let repo = tempfile::tempdir().expect("repo");
        let git_dir = repo.path().join(".git");
        std::fs::create_dir(&git_dir).expect("git dir");
        for inside in [repo.path().join("cache"), git_dir.join("recount")] {
            let refused = ObjectMemo::open(&inside, &git_dir, Some(repo.path()));
            assert!(refused.is_err(), "{}", inside.display());
        }
        let outside = tempfile::tempdir().expect("outside");
        assert!(ObjectMemo::open(outside.path(), &git_dir, Some(repo.path())).is_ok());
    }
}
