//! Stage 2 of the pipeline, between the snapshot and the claims: records, read
//! once per run. A record's Markdown is parsed once (through pulldown-cmark) into
//! its structure ([`markdown`]) and its prose view ([`prose`]), and its line
//! index ([`lines`]) is built once; claims, citations, retired claims and every
//! report format read those, never the Markdown again.

pub mod lines;
pub mod markdown;
pub mod prose;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use lines::LineIndex;
use markdown::Markdown;
use prose::ProseView;

/// A record: a file whose prose states facts. Its Markdown structure, prose view
/// and line index are each built on first use and kept: citations need only the
/// structure, claims and retired claims the prose, findings the line index.
#[derive(Debug)]
pub struct Record {
    pub path: String,
    pub text: Arc<str>,
    markdown: OnceLock<Markdown>,
    prose: OnceLock<ProseView>,
    lines: OnceLock<LineIndex>,
}

impl Record {
    pub fn new(path: &str, text: Arc<str>) -> Self {
        Record {
            path: path.to_owned(),
            text,
            markdown: OnceLock::new(),
            prose: OnceLock::new(),
            lines: OnceLock::new(),
        }
    }

    /// The record's Markdown structure.
    pub fn markdown(&self) -> &Markdown {
        self.markdown
            .get_or_init(|| markdown::parse_with(&self.text, false).0)
    }

    /// The record as prose. The first call parses once for both the prose and,
    /// when not built yet, the structure.
    pub fn prose(&self) -> &ProseView {
        self.prose.get_or_init(|| {
            let (structure, prose) = markdown::parse_with(&self.text, true);
            let _ = self.markdown.set(structure);
            prose.unwrap_or_else(|| ProseView::new(""))
        })
    }

    /// 1-based line and character column of a byte offset of the record.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines
            .get_or_init(|| LineIndex::new(&self.text))
            .line_col(&self.text, offset)
    }
}

/// One slot per path: filled by whichever stage asks first.
type Slot = Arc<Mutex<Option<Arc<Record>>>>;

/// The records of the audited snapshot, each read and parsed at most once per
/// run and shared by every stage that reads records — the claims on one
/// thread, citations and retired claims on the other.
#[derive(Debug, Default)]
pub struct RecordCache {
    slots: Mutex<BTreeMap<String, Slot>>,
}

impl RecordCache {
    /// Every record read this run, by path.
    pub fn records(&self) -> BTreeMap<String, Arc<Record>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots
            .iter()
            .filter_map(|(path, slot)| {
                let record = slot.lock().unwrap_or_else(PoisonError::into_inner);
                record.as_ref().map(|r| (path.clone(), Arc::clone(r)))
            })
            .collect()
    }

    /// The record at `path`, parsed on first use from what `read` returns;
    /// `Ok(None)` (not a readable record) is not remembered, so each stage
    /// notes it for itself.
    pub fn get_or_parse<E>(
        &self,
        path: &str,
        read: impl FnOnce() -> Result<Option<Arc<str>>, E>,
    ) -> Result<Option<Arc<Record>>, E> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(slots.entry(path.to_owned()).or_default())
        };
        // Held while parsing: a second stage asking for the same record waits
        // for this parse instead of running its own.
        let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(record) = slot.as_ref() {
            return Ok(Some(Arc::clone(record)));
        }
        let Some(text) = read()? else {
            return Ok(None);
        };
        let record = Arc::new(Record::new(path, text));
        *slot = Some(Arc::clone(&record));
        Ok(Some(record))
    }
}
