//! Stage 1, a snapshot with some files' texts replaced: the audited tree as
//! `recount fix` would leave it, its edits made in memory, so the audit can
//! check them again before a byte is written.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Skipped, Snapshot};

/// `base` with the texts of `replaced` in place of its own. No longer any
/// commit's tree: it is read as work not committed yet.
pub struct OverlaySnapshot {
    base: Arc<dyn Snapshot>,
    replaced: Arc<BTreeMap<String, Arc<str>>>,
}

impl OverlaySnapshot {
    /// Only files `base` has are replaced: an overlay adds no path.
    pub fn new(base: Arc<dyn Snapshot>, replaced: Arc<BTreeMap<String, Arc<str>>>) -> Self {
        OverlaySnapshot { base, replaced }
    }

    fn replaced(&self, path: &str) -> Option<&Arc<str>> {
        self.replaced
            .get(path)
            .filter(|_| super::has_file(self.base.paths(), path))
    }
}

impl Snapshot for OverlaySnapshot {
    fn paths(&self) -> &[String] {
        self.base.paths()
    }

    fn read(&self, path: &str) -> std::io::Result<Option<Arc<[u8]>>> {
        match self.replaced(path) {
            Some(text) => Ok(Some(Arc::from(text.as_bytes()))),
            None => self.base.read(path),
        }
    }

    fn with_bytes(&self, path: &str, f: &mut dyn FnMut(&[u8])) -> std::io::Result<bool> {
        match self.replaced(path) {
            Some(text) => {
                f(text.as_bytes());
                Ok(true)
            }
            None => self.base.with_bytes(path, f),
        }
    }

    fn label(&self) -> String {
        "working tree".to_owned()
    }

    fn commit(&self) -> Option<String> {
        None
    }

    fn skipped(&self) -> &[Skipped] {
        self.base.skipped()
    }

    fn blob_id(&self, path: &str) -> Option<[u8; 20]> {
        match self.replaced(path) {
            Some(_) => None,
            None => self.base.blob_id(path),
        }
    }

    fn is_tracked(&self, path: &str) -> bool {
        self.base.is_tracked(path)
    }

    fn size(&self, path: &str) -> std::io::Result<Option<u64>> {
        match self.replaced(path) {
            Some(text) => Ok(Some(text.len() as u64)),
            None => self.base.size(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_replaced_file_reads_as_its_new_text_and_nothing_is_added() {
        let base: Arc<dyn Snapshot> = Arc::new(MemorySnapshot::new(&[
            ("docs/a.md", "old\n"),
            ("src/b.py", "b\n"),
        ]));
        let replaced: BTreeMap<String, Arc<str>> = [
            ("docs/a.md".to_owned(), Arc::from("new\n")),
            ("docs/c.md".to_owned(), Arc::from("never\n")),
        ]
        .into_iter()
        .collect();
        let overlay = OverlaySnapshot::new(base, Arc::new(replaced));
        assert_eq!(
            overlay.read_text("docs/a.md").unwrap().as_deref(),
            Some("new\n")
        );
        assert_eq!(
            overlay.read_text("src/b.py").unwrap().as_deref(),
            Some("b\n")
        );
        assert_eq!(overlay.read("docs/c.md").unwrap(), None);
        assert_eq!(overlay.size("docs/a.md").unwrap(), Some(4));
        assert_eq!(overlay.commit(), None);
        assert_eq!(overlay.paths(), ["docs/a.md", "src/b.py"]);
    }
}
