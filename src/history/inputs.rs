//! The history's incremental step: what each fact reads, as object ids. A
//! fact's value is a function of the trees under its path specs, the blobs of
//! the files it names and of the source files its constants were read from, and
//! the values of the facts it reads; when those ids are the ones of a commit
//! where it was computed, the value is that commit's.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};

use git2::{Oid, Repository, Tree};

use crate::audit::ComputedFact;
use crate::rules::resolve::Plan;
use crate::snapshot::{Skipped, Snapshot};

/// The part of a path spec before its first glob character: the folder (or
/// file) whose object id changes whenever anything the spec selects does.
/// Empty for the whole tree (a spec that starts with a glob, or git's `:` magic).
pub(crate) fn literal_prefix(spec: &str) -> String {
    let spec = spec.trim_start_matches("./");
    if spec.starts_with(':') {
        return String::new();
    }
    let mut parts = Vec::new();
    for part in spec.split('/') {
        if part.contains(['*', '?', '[', '{', '\\']) {
            break;
        }
        parts.push(part);
    }
    parts.join("/").trim_end_matches('/').to_owned()
}

/// The object id at `path` in `tree` (the tree itself for the empty path);
/// `None` when nothing is there.
pub(crate) fn id_at(tree: &Tree<'_>, path: &str) -> Option<Oid> {
    if path.is_empty() {
        return Some(tree.id());
    }
    tree.get_path(Path::new(path)).ok().map(|e| e.id())
}

/// An input: a path, and whether only the names under it count (its shape)
/// or its contents too (its object id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Input {
    pub(crate) path: String,
    pub(crate) names_only: bool,
}

/// Tree shapes by tree id: an id for the names and modes below a tree,
/// blind to file contents, so an edit that adds, removes or renames nothing
/// keeps its shape. Each tree is read once however many commits share it.
#[derive(Debug, Default)]
pub(crate) struct Shapes {
    by_tree: Mutex<HashMap<Oid, Oid>>,
}

impl Shapes {
    /// The id of what is at `path` in `tree`, or its shape when `names_only`
    /// and it is a folder.
    pub(crate) fn id(&self, repo: &Repository, tree: &Tree<'_>, input: &Input) -> Option<Oid> {
        let id = id_at(tree, &input.path)?;
        if !input.names_only {
            return Some(id);
        }
        match repo.find_tree(id) {
            Ok(sub) => self.shape(repo, &sub),
            // A file: its name is all a listing reads of it.
            Err(_) => Some(Oid::ZERO_SHA1),
        }
    }

    fn shape(&self, repo: &Repository, tree: &Tree<'_>) -> Option<Oid> {
        if let Some(hit) = self.by_tree.lock().ok()?.get(&tree.id()) {
            return Some(*hit);
        }
        let mut text: Vec<u8> = Vec::new();
        for entry in tree.iter() {
            text.extend_from_slice(entry.name_bytes());
            text.extend_from_slice(format!("\0{:o}\0", entry.filemode()).as_bytes());
            if entry.kind() == Some(git2::ObjectType::Tree) {
                // A folder whose shape is known is not read again: most of a
                // commit's folders are its parent's.
                let known = self.by_tree.lock().ok()?.get(&entry.id()).copied();
                let shape = match known {
                    Some(shape) => shape,
                    None => self.shape(repo, &repo.find_tree(entry.id()).ok()?)?,
                };
                text.extend_from_slice(shape.as_bytes());
            }
            text.push(b'\n');
        }
        let id = Oid::hash_object(git2::ObjectType::Blob, &text).ok()?;
        self.by_tree.lock().ok()?.insert(tree.id(), id);
        Some(id)
    }
}

/// Every fact's inputs as paths whose ids key its value, and every claim's
/// records' folders.
#[derive(Debug)]
pub(crate) struct InputMap {
    /// The distinct inputs, each looked up once per commit.
    pub(crate) paths: Vec<Input>,
    /// Per fact: indexes into `paths`; empty for a fact pinned to its own frame.
    pub(crate) of_fact: Vec<Vec<usize>>,
    /// Per fact: indexes (into the plan's facts) of the facts it reads.
    pub(crate) deps: Vec<Vec<usize>>,
    /// Per fact: whether it evaluates constants (whose imports it follows to
    /// files no spec names: those are recorded as it computes).
    pub(crate) uses_constants: Vec<bool>,
    /// Indexes into `paths` of every claim's record folders.
    pub(crate) of_claims: Vec<usize>,
}

impl InputMap {
    pub(crate) fn new(plan: &Plan) -> InputMap {
        let mut paths: Vec<Input> = Vec::new();
        let index = |path: String, names_only: bool, paths: &mut Vec<Input>| {
            let input = Input { path, names_only };
            paths.iter().position(|p| *p == input).unwrap_or_else(|| {
                paths.push(input);
                paths.len() - 1
            })
        };
        let ids: BTreeMap<&str, usize> = plan
            .facts
            .iter()
            .enumerate()
            .map(|(i, f)| (f.id.get_ref().as_str(), i))
            .collect();
        let mut of_fact = Vec::new();
        let mut deps = Vec::new();
        let mut uses_constants = Vec::new();
        for fact in &plan.facts {
            let reads = fact.reads();
            uses_constants.push(!reads.constants.is_empty());
            deps.push(
                reads
                    .facts
                    .iter()
                    .filter_map(|id| ids.get(id.as_str()).copied())
                    .collect(),
            );
            if fact.at.is_some() {
                of_fact.push(Vec::new());
                continue;
            }
            let mut mine: BTreeSet<usize> = BTreeSet::new();
            for spec in reads.paths.iter().chain(&reads.exclude) {
                mine.insert(index(literal_prefix(spec), reads.names_only, &mut paths));
            }
            // A `constant` fact with its own `file` reads that file; any other
            // constant is read from the file `[constants]` declares, else found
            // by a search of the whole tree.
            let own_file =
                matches!(fact.kind, crate::facts::FactKind::Constant(_)) && !reads.paths.is_empty();
            for name in &reads.constants {
                if own_file && fact.equals.is_none() {
                    continue;
                }
                let path = plan
                    .constants
                    .get(name)
                    .map_or_else(String::new, |d| d.file.clone());
                mine.insert(index(path, false, &mut paths));
            }
            of_fact.push(mine.into_iter().collect());
        }
        let mut of_claims = BTreeSet::new();
        for fact in &plan.facts {
            for claim in &fact.claims {
                for glob in &claim.globs {
                    of_claims.insert(index(literal_prefix(glob), false, &mut paths));
                }
            }
        }
        InputMap {
            paths,
            of_fact,
            deps,
            uses_constants,
            of_claims: of_claims.into_iter().collect(),
        }
    }

    /// Every fact's key at a commit whose path ids are `ids`: its own inputs'
    /// ids, then its dependencies' keys.
    pub(crate) fn keys(&self, plan: &Plan, ids: &[Option<Oid>]) -> Vec<Vec<Option<Oid>>> {
        let mut keys: Vec<Vec<Option<Oid>>> = vec![Vec::new(); plan.facts.len()];
        for &i in &plan.order {
            let mut key: Vec<Option<Oid>> = self.of_fact[i].iter().map(|&p| ids[p]).collect();
            for &d in &self.deps[i] {
                key.push(None);
                key.extend(keys[d].iter().copied());
            }
            keys[i] = key;
        }
        keys
    }
}

/// One computed outcome and the files (beyond its key) it read: the source
/// files its constants came from, with their ids when it was computed.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) reads: Vec<(String, Option<Oid>)>,
    pub(crate) outcome: ComputedFact,
}

/// A fact's key: the ids of its inputs (`None` where a path is absent, and
/// between a fact's own inputs and each dependency's key).
pub(crate) type Key = Vec<Option<Oid>>;

/// Fact outcomes by fact and key, shared by every worker. Bounded: each fact
/// keeps its last [`KEPT_PER_FACT`] outcomes, so memory follows the number of
/// facts, not of commits (a line that returns to an older state recomputes it).
#[derive(Debug, Default)]
pub(crate) struct FactCache {
    entries: Mutex<HashMap<usize, Kept>>,
}

/// One fact's outcomes, oldest first.
type Kept = VecDeque<(Key, Arc<Entry>)>;

/// How many outcomes the cache keeps per fact.
pub(crate) const KEPT_PER_FACT: usize = 32;

impl FactCache {
    /// The outcome of fact `fact` keyed `key` whose recorded reads have the
    /// same ids in `tree`.
    pub(crate) fn get(
        &self,
        fact: usize,
        key: &[Option<Oid>],
        tree: &Tree<'_>,
    ) -> Option<Arc<Entry>> {
        let candidates: Vec<Arc<Entry>> = {
            let map = self.entries.lock().ok()?;
            map.get(&fact)?
                .iter()
                .rev()
                .filter(|(k, _)| k.as_slice() == key)
                .map(|(_, e)| Arc::clone(e))
                .collect()
        };
        candidates
            .into_iter()
            .find(|e| e.reads.iter().all(|(path, id)| id_at(tree, path) == *id))
    }

    pub(crate) fn put(&self, fact: usize, key: Key, entry: Entry) {
        if let Ok(mut map) = self.entries.lock() {
            let list = map.entry(fact).or_default();
            if list.len() == KEPT_PER_FACT {
                list.pop_front();
            }
            list.push_back((key, Arc::new(entry)));
        }
    }
}

/// A snapshot that remembers every file read through it: the constant reader
/// gets one, so the files a constant's imports led to key its value too.
pub(crate) struct Recording {
    pub(crate) inner: Arc<dyn Snapshot>,
    pub(crate) read: Mutex<BTreeSet<String>>,
}

impl Snapshot for Recording {
    fn paths(&self) -> &[String] {
        self.inner.paths()
    }
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        if let Ok(mut read) = self.read.lock() {
            read.insert(path.to_owned());
        }
        self.inner.read(path)
    }
    fn size(&self, path: &str) -> std::io::Result<Option<u64>> {
        self.inner.size(path)
    }
    fn label(&self) -> String {
        self.inner.label()
    }
    fn commit(&self) -> Option<String> {
        self.inner.commit()
    }
    fn skipped(&self) -> &[Skipped] {
        self.inner.skipped()
    }
}

#[cfg(test)]
mod tests {
    use super::literal_prefix;

    #[test]
    fn a_spec_is_keyed_by_the_folder_before_its_first_glob() {
        assert_eq!(literal_prefix("schemas/mcp/*.json"), "schemas/mcp");
        assert_eq!(literal_prefix("./src/"), "src");
        assert_eq!(literal_prefix("README.md"), "README.md");
        assert_eq!(literal_prefix("**/*.md"), "");
        assert_eq!(literal_prefix(":(exclude)vendor"), "");
        assert_eq!(literal_prefix("docs/adr/0031-*.md"), "docs/adr");
    }
}
