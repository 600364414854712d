//! Stage 2 of the pipeline, between the snapshot and the claims: records, read
//! once per run. A record's Markdown is parsed once (through pulldown-cmark) into
//! its structure ([`markdown`]; reStructuredText into the same shape, [`rst`])
//! and its prose view ([`prose`]), and its line
//! index ([`lines`]) is built once; claims, citations, retired claims and every
//! report format read those, never the Markdown again.

pub mod frames;
pub mod markdown;
pub mod mdx;
pub mod myst;
pub mod prose;
pub mod rst;
pub mod sphinx_conf;
pub mod suppressions;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::lines::LineIndex;
use markdown::Markdown;
use prose::ProseView;

/// A record: a file whose prose states facts. Its Markdown structure, prose view
/// and line index are each built on first use and kept: citations need only the
/// structure, claims and retired claims the prose, findings the line index.
#[derive(Debug)]
pub struct Record {
    pub path: String,
    pub text: Arc<str>,
    /// Read as reStructuredText: by its name, or as a Sphinx project's `.txt`
    /// source.
    pub rst: bool,
    markdown: OnceLock<Markdown>,
    prose: OnceLock<ProseView>,
    lines: OnceLock<LineIndex>,
}

impl Record {
    pub fn new(path: &str, text: Arc<str>) -> Self {
        Record::of_kind(path, text, rst::is_rst(path))
    }

    /// A record read as reStructuredText when `rst`, whatever its name.
    pub fn of_kind(path: &str, text: Arc<str>, rst: bool) -> Self {
        Record {
            path: path.to_owned(),
            text,
            rst,
            markdown: OnceLock::new(),
            prose: OnceLock::new(),
            lines: OnceLock::new(),
        }
    }

    /// The record's structure: its Markdown, or its reStructuredText read into
    /// the same shape.
    pub fn markdown(&self) -> &Markdown {
        self.markdown.get_or_init(|| {
            if self.rst {
                rst::parse(&self.text)
            } else if mdx::is_mdx(&self.path) {
                mdx::parse(&self.text)
            } else {
                markdown::parse_with(&self.text, false).0
            }
        })
    }

    /// The record as prose. The first call parses once for both the prose and,
    /// when not built yet, the structure.
    pub fn prose(&self) -> &ProseView {
        self.prose.get_or_init(|| {
            // reStructuredText's prose is read as Markdown reads plain text
            // (its paragraphs are paragraphs to either).
            if self.rst {
                return markdown::parse_with(&self.text, true)
                    .1
                    .unwrap_or_else(|| ProseView::new(""));
            }
            let (structure, prose) = if mdx::is_mdx(&self.path) {
                mdx::parse_with(&self.text, true)
            } else {
                markdown::parse_with(&self.text, true)
            };
            let _ = self.markdown.set(structure);
            prose.unwrap_or_else(|| ProseView::new(""))
        })
    }

    /// Why this reStructuredText record was read as plain text, when its
    /// structure was read and it was.
    pub fn read_plain(&self) -> Option<&str> {
        self.markdown.get().and_then(|m| m.read_plain.as_deref())
    }

    /// 1-based line and character column of a byte offset of the record.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines
            .get_or_init(|| LineIndex::new(&self.text))
            .line_col(&self.text, offset)
    }

    /// The text of the line holding a byte offset of the record.
    pub fn line_at(&self, offset: usize) -> &str {
        let (line, _) = self.line_col(offset);
        self.lines
            .get_or_init(|| LineIndex::new(&self.text))
            .line(&self.text, line)
            .unwrap_or_default()
    }
}

use crate::snapshot::MAX_RECORD_BYTES;

/// A record as read from a snapshot.
#[derive(Debug, Clone)]
pub enum RecordText {
    Text(Arc<str>),
    /// The snapshot has no such file.
    Absent,
    /// The file is there but is not read as a record; why, in words.
    Skipped(String),
}

/// Reads the record at `path`. A file that is skipped, and one whose bytes are
/// not all UTF-8 (decoded with U+FFFD in place of each bad sequence), leaves a
/// note saying so, so a record never goes missing, or changes, without a word.
pub fn read_text(
    snapshot: &dyn crate::snapshot::Snapshot,
    path: &str,
    notes: &mut Vec<String>,
) -> std::io::Result<RecordText> {
    // Sized before it is read: an over-large record is never read.
    let bytes = match crate::snapshot::read_within(snapshot, path, MAX_RECORD_BYTES as u64) {
        Err(e) if crate::snapshot::too_large(&e).is_some() => {
            let size = crate::snapshot::too_large(&e).map_or(0, |t| t.size);
            let why = format!(
                "{size} bytes is over the {} MiB a record may have",
                MAX_RECORD_BYTES >> 20
            );
            notes.push(format!("skipped {path}: {why}"));
            return Ok(RecordText::Skipped(why));
        }
        read => read?,
    };
    let Some(bytes) = bytes else {
        return Ok(RecordText::Absent);
    };
    let skipped = if bytes[..bytes.len().min(8000)].contains(&0) {
        // As git decides: a NUL in the first 8000 bytes.
        Some("a binary file cannot be a record".to_owned())
    } else {
        None
    };
    if let Some(why) = skipped {
        notes.push(format!("skipped {path}: {why}"));
        return Ok(RecordText::Skipped(why));
    }
    Ok(RecordText::Text(match crate::snapshot::utf8(&bytes) {
        Ok(text) => Arc::from(text),
        Err(error) => {
            notes.push(format!(
                "{path} is not valid UTF-8 from byte {}: read with U+FFFD in place of each \
                 bad sequence",
                error.valid_up_to()
            ));
            Arc::from(String::from_utf8_lossy(&bytes).as_ref())
        }
    }))
}

/// The record at `path` of `snapshot`, or `None` when it is absent or skipped (noted).
pub fn read_record(
    snapshot: &dyn crate::snapshot::Snapshot,
    path: &str,
    notes: &mut Vec<String>,
) -> crate::error::Result<Option<Arc<str>>> {
    match read_text(snapshot, path, notes)
        .map_err(|e| crate::error::Error::plain(format!("cannot read record {path}: {e}")))?
    {
        RecordText::Text(text) => Ok(Some(text)),
        _ => Ok(None),
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
    /// Files read as reStructuredText whatever their name (a Sphinx
    /// project's `.txt` sources), fixed before any stage reads a record.
    rst_sources: std::collections::BTreeSet<String>,
}

impl RecordCache {
    /// A cache that reads `rst_sources` as reStructuredText.
    pub fn with_rst_sources(rst_sources: std::collections::BTreeSet<String>) -> Self {
        RecordCache {
            slots: Mutex::default(),
            rst_sources,
        }
    }

    /// The files read as reStructuredText whatever their name.
    pub fn rst_sources(&self) -> &std::collections::BTreeSet<String> {
        &self.rst_sources
    }

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

    /// The record at `path` if a stage has read it already.
    pub fn get(&self, path: &str) -> Option<Arc<Record>> {
        let slot = {
            let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(slots.get(path)?)
        };
        let record = slot.lock().unwrap_or_else(PoisonError::into_inner);
        record.as_ref().map(Arc::clone)
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
        let rst = rst::is_rst(path) || self.rst_sources.contains(path);
        let record = Arc::new(Record::of_kind(path, text, rst));
        *slot = Some(Arc::clone(&record));
        Ok(Some(record))
    }
}
