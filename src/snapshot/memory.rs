//! Stage 1, a snapshot held in memory: files given as text, for unit tests
//! and fuzz targets that need a tree without a repository.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Skipped, Snapshot};

/// A tree of text files, sorted by path as every snapshot's listing is.
pub struct MemorySnapshot {
    files: BTreeMap<String, String>,
    paths: Vec<String>,
    skipped: Vec<Skipped>,
}

impl MemorySnapshot {
    pub fn new(files: &[(&str, &str)]) -> Self {
        Self::of(
            files
                .iter()
                .map(|(path, text)| ((*path).to_owned(), (*text).to_owned())),
        )
    }

    /// A tree of these (path, text) pairs; a path given twice keeps its last.
    pub fn of(files: impl IntoIterator<Item = (String, String)>) -> Self {
        let files: BTreeMap<String, String> = files.into_iter().collect();
        let paths = files.keys().cloned().collect();
        MemorySnapshot {
            files,
            paths,
            skipped: Vec::new(),
        }
    }

    /// The same tree holding `path` as a git submodule: there, unread.
    pub fn with_submodule(mut self, path: &str) -> Self {
        self.skipped
            .push(Skipped::unread(path.to_owned(), "submodule (gitlink)"));
        self
    }

    /// The same tree holding `path` as a symbolic link to `target` (as the
    /// link stores it, `../CHANGES.rst`): there, unread.
    pub fn with_link(mut self, path: &str, target: &str) -> Self {
        self.skipped
            .push(Skipped::link(path.to_owned(), target.as_bytes()));
        self
    }
}

impl Snapshot for MemorySnapshot {
    fn paths(&self) -> &[String] {
        &self.paths
    }
    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        Ok(self.files.get(path).map(|text| Arc::from(text.as_bytes())))
    }
    fn label(&self) -> String {
        "memory".to_owned()
    }
    fn commit(&self) -> Option<String> {
        None
    }
    fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }
}
