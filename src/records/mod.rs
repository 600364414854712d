//! Stage 2 of the pipeline, between the snapshot and the claims: records, read
//! once per run. A record's Markdown is parsed once (through pulldown-cmark) into
//! its structure ([`markdown`]) and its prose view ([`prose`]), and its line
//! index ([`lines`]) is built once; claims, citations, retired claims and every
//! report format read those, never the Markdown again.

pub mod lines;
pub mod markdown;
pub mod prose;

use std::sync::Arc;

use lines::LineIndex;
use markdown::Markdown;
use prose::ProseView;

/// A record: a file whose prose states facts, parsed.
#[derive(Debug)]
pub struct Record {
    pub path: String,
    pub text: Arc<str>,
    pub prose: ProseView,
    pub markdown: Markdown,
    pub lines: LineIndex,
}

impl Record {
    pub fn new(path: &str, text: Arc<str>) -> Self {
        let (markdown, prose) = markdown::parse(&text);
        Record {
            path: path.to_owned(),
            lines: LineIndex::new(&text),
            prose,
            markdown,
            text,
        }
    }

    /// 1-based line and character column of a byte offset of the record.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(&self.text, offset)
    }
}
