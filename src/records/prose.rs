//! Records (read once per run): the prose view of a record, built from the
//! same pulldown-cmark events as its [`Markdown`](super::markdown::Markdown)
//! structure.
//!
//! Claims are regular expressions written against what a record *says*, not how
//! its Markdown spells it, so they are matched on a prose rendering of the record:
//! emphasis and strike markers, code-span backticks and link syntax are removed,
//! wrapped lines are joined with one space, and block structure (headings, list
//! items, table rows, paragraphs) survives as line breaks. Fenced and indented
//! code, HTML and link definitions are kept verbatim so listing claims can still
//! find them. Every character of the prose remembers the raw bytes it came from,
//! which is what lets a finding point at the exact characters in the file.
//!
//! One deliberate departure from CommonMark: a `__name__` dunder identifier is
//! never strong emphasis, because records about Python code mention `__init__`
//! far more often than they embolden with underscores.

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::markdown::{line_end, trim_end};

/// One character of the prose text and the raw bytes it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seg {
    prose: usize,
    raw_start: usize,
    raw_end: usize,
}

/// A record rendered as prose, with a map from every prose character back to
/// the raw bytes it came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProseView {
    text: String,
    segs: Vec<Seg>,
}

impl ProseView {
    /// Renders `raw` (Markdown or plain text) as prose.
    pub fn new(raw: &str) -> Self {
        super::markdown::parse(raw).1
    }

    /// The record as prose.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Maps a byte range of [`Self::text`] to the raw bytes it came from: from
    /// the start of the first character in the range to the end of the last one.
    /// An empty range maps to the point [`Self::raw_offset`] gives. Offsets
    /// beyond the text are clamped; offsets inside a character count as that
    /// character.
    pub fn to_raw(&self, prose: Range<usize>) -> Range<usize> {
        if prose.start >= prose.end || self.segs.is_empty() || prose.start >= self.text.len() {
            let point = self.raw_offset(prose.start);
            return point..point;
        }
        let first = self.seg_at(prose.start);
        let last = self.seg_at(prose.end.saturating_sub(1));
        match (self.segs.get(first), self.segs.get(last)) {
            (Some(a), Some(b)) => a.raw_start..b.raw_end.max(a.raw_start),
            _ => {
                let point = self.raw_offset(prose.start);
                point..point
            }
        }
    }

    /// The raw byte offset where the prose character at `prose_offset` starts;
    /// past the end of the text, the raw end of the last prose character.
    pub fn raw_offset(&self, prose_offset: usize) -> usize {
        if prose_offset >= self.text.len() {
            return self.segs.last().map_or(0, |s| s.raw_end);
        }
        self.segs
            .get(self.seg_at(prose_offset))
            .map_or(0, |s| s.raw_start)
    }

    /// The prose offset of the first character that comes from raw offset
    /// `raw` or later (the text's length when none does).
    pub fn prose_offset(&self, raw: usize) -> usize {
        let i = self.segs.partition_point(|s| s.raw_end <= raw);
        self.segs.get(i).map_or(self.text.len(), |s| s.prose)
    }

    /// Index of the segment whose character contains the prose byte `offset`.
    fn seg_at(&self, offset: usize) -> usize {
        self.segs
            .partition_point(|s| s.prose <= offset)
            .saturating_sub(1)
    }
}

/// Builds the prose view while the event stream goes by.
pub(crate) struct Builder<'a> {
    raw: &'a str,
    /// Link reference definitions (pulldown-cmark gives them no event), by start.
    definitions: Vec<Range<usize>>,
    next_definition: usize,
    text: String,
    segs: Vec<Seg>,
    /// Raw end of the last block written, for the separator before the next.
    last_end: usize,
    /// Raw end of the last character written.
    cover_end: usize,
    /// A run of inline content (paragraph, heading, tight list item) is open.
    inline_open: bool,
    /// Where the open inline run starts in `text`.
    run_start: usize,
    /// A soft (' ') or hard ('\n') break waiting for the next content, and the
    /// raw offset it starts at.
    pending_break: Option<(char, usize)>,
    /// A list item's marker, written before the item's first content.
    item_prefix: Option<Range<usize>>,
    quote_depth: usize,
    /// Events still to skip: the inside of a block already written verbatim,
    /// or of a dunder identifier.
    skip: usize,
    headings: Vec<Range<usize>>,
    /// Inside a table row: the raw offset up to which the row is written.
    row: Option<usize>,
    row_end: usize,
    /// Open emphasis, links and the like inside a table row.
    row_depth: usize,
    /// Per open strikethrough: written with one tilde (kept as text).
    tildes: Vec<bool>,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(raw: &'a str, definitions: Vec<Range<usize>>) -> Self {
        Builder {
            raw,
            definitions,
            next_definition: 0,
            text: String::with_capacity(raw.len()),
            segs: Vec::with_capacity(raw.len()),
            last_end: 0,
            cover_end: 0,
            inline_open: false,
            run_start: 0,
            pending_break: None,
            item_prefix: None,
            quote_depth: 0,
            skip: 0,
            headings: Vec::new(),
            row: None,
            row_end: 0,
            row_depth: 0,
            tildes: Vec::new(),
        }
    }

    pub(crate) fn finish(mut self) -> ProseView {
        self.end_run();
        self.flush_definitions(usize::MAX);
        if let Some(prefix) = self.item_prefix.take() {
            self.verbatim(prefix.start, prefix.end, false);
        }
        ProseView {
            text: self.text,
            segs: self.segs,
        }
    }

    pub(crate) fn event(&mut self, event: &Event<'_>, range: Range<usize>) {
        if self.skip > 0 {
            match event {
                Event::Start(_) => self.skip += 1,
                Event::End(_) => self.skip -= 1,
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(*tag, range),
            Event::Text(text) => self.text_event(text, range),
            Event::Code(code) => self.code(code, range),
            Event::SoftBreak => self.line_break(' ', range),
            Event::HardBreak => self.line_break('\n', range),
            Event::Rule => {
                self.end_run();
                self.verbatim(range.start, range.end, true);
            }
            _ => {
                self.before_content(range.start);
                self.push_raw(range.start, range.end);
            }
        }
    }

    fn start(&mut self, tag: &Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Emphasis | Tag::Link { .. } | Tag::Image { .. } => self.open_inline(&range),
            Tag::Strong => {
                if is_dunder(self.raw, &range) {
                    self.before_content(range.start);
                    self.push_raw(range.start, range.end);
                    self.skip = 1;
                } else {
                    self.open_inline(&range);
                }
            }
            Tag::Strikethrough => {
                let single = !self
                    .raw
                    .get(range.clone())
                    .is_some_and(|s| s.starts_with("~~"));
                self.tildes.push(single);
                self.open_inline(&range);
                if single {
                    self.before_content(range.start);
                    self.push_raw(range.start, range.start + 1);
                }
            }
            Tag::Superscript | Tag::Subscript => self.open_inline(&range),
            _ => {
                self.end_run();
                self.flush_definitions(range.start);
                match tag {
                    Tag::BlockQuote(_) => self.quote_depth += 1,
                    Tag::CodeBlock(_) | Tag::HtmlBlock | Tag::MetadataBlock(_) => {
                        let fenced = matches!(
                            tag,
                            Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(_))
                        );
                        self.verbatim(range.start, range.end, !fenced);
                        self.skip = 1;
                    }
                    Tag::Heading { .. } => self.headings.push(range),
                    Tag::Item => self.item_prefix = Some(list_marker(self.raw, range.start)),
                    Tag::TableHead | Tag::TableRow => {
                        self.begin_block(range.start);
                        self.row = Some(range.start);
                        self.row_end =
                            trim_end(self.raw, range.start, line_end(self.raw, range.start));
                        self.row_depth = 0;
                    }
                    _ => {}
                }
            }
        }
    }

    fn end(&mut self, tag: TagEnd, range: Range<usize>) {
        match tag {
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::Superscript
            | TagEnd::Subscript => self.close_inline(&range),
            TagEnd::Strikethrough => {
                if self.tildes.pop().unwrap_or(false) && range.end > range.start {
                    self.before_content(range.end - 1);
                    self.push_raw(range.end - 1, range.end);
                }
                self.close_inline(&range);
            }
            TagEnd::TableCell => {}
            _ => {
                self.end_run();
                match tag {
                    TagEnd::BlockQuote(_) => self.quote_depth = self.quote_depth.saturating_sub(1),
                    TagEnd::Heading(_) => {
                        if let Some(heading) = self.headings.pop() {
                            self.setext_underline(heading);
                        }
                    }
                    TagEnd::Item => {
                        if let Some(prefix) = self.item_prefix.take() {
                            let end = trim_end(self.raw, prefix.start, prefix.end);
                            self.verbatim(prefix.start, end, false);
                        }
                    }
                    TagEnd::TableHead | TagEnd::TableRow => {
                        if let Some(cursor) = self.row.take() {
                            self.push_raw(cursor, self.row_end.max(cursor));
                            self.last_end = self.cover_end;
                        }
                        if tag == TagEnd::TableHead {
                            self.delimiter_row(range.end);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn open_inline(&mut self, range: &Range<usize>) {
        if let Some(cursor) = self.row {
            if self.row_depth == 0 {
                self.push_raw(cursor, range.start.max(cursor));
            }
            self.row = Some(range.start.max(cursor));
            self.row_depth += 1;
        }
    }

    fn close_inline(&mut self, range: &Range<usize>) {
        if let Some(cursor) = self.row {
            self.row_depth = self.row_depth.saturating_sub(1);
            self.row = Some(cursor.max(range.end));
        }
    }

    /// Gets ready to write content whose raw bytes start at `at`: opens the
    /// block, writes a waiting line break, or the table row's bytes up to it.
    fn before_content(&mut self, at: usize) {
        if let Some(cursor) = self.row {
            if self.row_depth == 0 {
                self.push_raw(cursor, at.max(cursor));
            }
            return;
        }
        if !self.inline_open {
            self.begin_block(at);
            self.inline_open = true;
            self.run_start = self.text.len();
        } else if let Some((c, start)) = self.pending_break.take() {
            self.push(c, start.min(at), at);
        }
    }

    fn after_content(&mut self, end: usize) {
        if let Some(cursor) = self.row {
            self.row = Some(cursor.max(end));
        }
    }

    fn text_event(&mut self, text: &str, range: Range<usize>) {
        let raw = self.raw;
        let mut start = range.start;
        // pulldown-cmark leaves an escaping backslash out of every event: the
        // escaped character stands for both bytes.
        let escaped = start > 0
            && start > self.cover_end
            && raw.as_bytes().get(start - 1) == Some(&b'\\')
            && text.starts_with(|c: char| c.is_ascii_punctuation());
        if escaped {
            start -= 1;
        }
        self.before_content(start);
        // An entity reference (`&amp;`) is kept as written, like any text whose
        // decoding differs from its bytes.
        self.push_chars(range.start, range.end, start);
        self.after_content(range.end);
    }

    fn code(&mut self, code: &CowStr<'_>, range: Range<usize>) {
        let raw = self.raw;
        let ticks = raw
            .get(range.clone())
            .map_or(0, |s| s.bytes().take_while(|&b| b == b'`').count());
        let inner = (range.start + ticks)..range.end.saturating_sub(ticks).max(range.start + ticks);
        self.before_content(range.start);
        let stripped = (inner.start + 1)..inner.end.saturating_sub(1).max(inner.start + 1);
        if raw.get(inner.clone()) == Some(&**code) {
            self.push_raw(inner.start, inner.end);
        } else if inner.end - inner.start >= 2 && raw.get(stripped.clone()) == Some(&**code) {
            self.push_raw(stripped.start, stripped.end);
        } else {
            self.push_aligned(code, inner);
        }
        self.after_content(range.end);
    }

    fn line_break(&mut self, c: char, range: Range<usize>) {
        if !self.inline_open || self.row.is_some() {
            return;
        }
        self.trim_run();
        let start = if self.text.len() > self.run_start {
            self.cover_end
        } else {
            range.start
        };
        self.pending_break = Some((c, start));
    }

    /// Ends the open inline run: trailing blanks go, a waiting break is dropped.
    fn end_run(&mut self) {
        if self.inline_open {
            self.trim_run();
            self.last_end = self.cover_end;
        }
        self.inline_open = false;
        self.pending_break = None;
    }

    fn trim_run(&mut self) {
        while self.text.len() > self.run_start && self.text.ends_with([' ', '\t']) {
            self.text.pop();
            self.segs.pop();
        }
        if let Some(last) = self.segs.last() {
            self.cover_end = last.raw_end;
        }
    }

    /// Starts a block: one `\n` after the previous block, two when a blank
    /// line separated them, standing for the raw bytes between the two; then a
    /// waiting list marker.
    fn begin_block(&mut self, first_raw: usize) {
        self.flush_definitions(first_raw);
        match self.item_prefix.take() {
            Some(prefix) if prefix.start <= first_raw => {
                let same_line = prefix.end == first_raw;
                let end = if same_line {
                    prefix.end
                } else {
                    trim_end(self.raw, prefix.start, prefix.end)
                };
                self.separate(prefix.start);
                self.push_raw(prefix.start, end);
                if !same_line {
                    self.last_end = self.cover_end;
                    self.separate(first_raw);
                }
            }
            _ => self.separate(first_raw),
        }
    }

    fn separate(&mut self, first_raw: usize) {
        if !self.text.is_empty() {
            let start = self.last_end.min(first_raw);
            let count = if blank_between(self.raw, start, first_raw) {
                2
            } else {
                1
            };
            for _ in 0..count {
                self.push('\n', start, first_raw);
            }
        }
    }

    /// Writes the lines of `start..end` as they are, each on a line of its own,
    /// block-quote markers removed; `drop_blank_tail` leaves out trailing blank
    /// lines (which belong to no block).
    fn verbatim(&mut self, start: usize, end: usize, drop_blank_tail: bool) {
        let raw = self.raw;
        let line_start = raw
            .get(..start)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1);
        let content = strip_quotes(raw, line_start, line_end(raw, line_start), self.quote_depth);
        // Indentation before the block's first byte is part of what it shows.
        let first = if content <= start
            && raw
                .get(content..start)
                .is_some_and(|s| s.trim_matches([' ', '\t']).is_empty())
        {
            content
        } else {
            start
        };
        let mut lines: Vec<Range<usize>> = Vec::new();
        let mut at = first;
        while at < end {
            let stop = line_end(raw, at).min(end);
            let stop = if stop > at && raw.as_bytes().get(stop - 1) == Some(&b'\r') {
                stop - 1
            } else {
                stop
            };
            lines.push(at..stop);
            let next = raw
                .get(at..)
                .and_then(|s| s.find('\n'))
                .map_or(raw.len(), |i| at + i + 1);
            if next >= end {
                break;
            }
            at = strip_quotes(raw, next, line_end(raw, next), self.quote_depth);
        }
        if drop_blank_tail {
            while lines
                .last()
                .is_some_and(|l| raw.get(l.clone()).is_none_or(|s| s.trim().is_empty()))
            {
                lines.pop();
            }
        }
        let Some(head) = lines.first() else {
            return;
        };
        self.begin_block(head.start);
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                let from = self.cover_end.min(line.start);
                self.push('\n', from, line.start);
            }
            self.push_raw(line.start, line.end);
            self.cover_end = self.cover_end.max(line.end);
        }
        self.last_end = self.cover_end;
    }

    /// A setext heading's underline stays a line of its own.
    fn setext_underline(&mut self, heading: Range<usize>) {
        let raw = self.raw;
        let Some(text) = raw.get(heading.clone()) else {
            return;
        };
        if text.trim_start().starts_with('#') {
            return;
        }
        let body = text.trim_end_matches(['\n', '\r']);
        let Some(newline) = body.rfind('\n') else {
            return;
        };
        let start = heading.start + newline + 1;
        let end = line_end(raw, start);
        let content = skip_blanks(raw, strip_quotes(raw, start, end, self.quote_depth), end);
        self.verbatim(content, trim_end(raw, content, end), false);
    }

    /// A table's delimiter row (`|---|:--:|`) has no event: it is the line
    /// after the header row.
    fn delimiter_row(&mut self, head_end: usize) {
        let raw = self.raw;
        let start = if head_end > 0 && raw.as_bytes().get(head_end - 1) == Some(&b'\n') {
            head_end
        } else {
            raw.get(head_end..)
                .and_then(|s| s.find('\n'))
                .map_or(raw.len(), |i| head_end + i + 1)
        };
        let end = line_end(raw, start);
        let content = skip_blanks(raw, strip_quotes(raw, start, end, self.quote_depth), end);
        self.verbatim(content, trim_end(raw, content, end), false);
    }

    fn flush_definitions(&mut self, before: usize) {
        while let Some(def) = self
            .definitions
            .get(self.next_definition)
            .filter(|d| d.start < before)
            .cloned()
        {
            self.next_definition += 1;
            let end = trim_end(self.raw, def.start, def.end);
            let end = self
                .raw
                .get(def.start..end)
                .map_or(end, |s| def.start + s.trim_end().len());
            self.verbatim(def.start, end, true);
        }
    }

    fn push(&mut self, c: char, raw_start: usize, raw_end: usize) {
        self.segs.push(Seg {
            prose: self.text.len(),
            raw_start,
            raw_end: raw_end.max(raw_start),
        });
        self.text.push(c);
        self.cover_end = self.cover_end.max(raw_end);
    }

    /// Writes `start..end` character for character.
    fn push_raw(&mut self, start: usize, end: usize) {
        self.push_chars(start, end, start);
    }

    /// Like [`Self::push_raw`], the first character standing from `first_from`.
    fn push_chars(&mut self, start: usize, end: usize, first_from: usize) {
        let Some(slice) = self.raw.get(start..end) else {
            return;
        };
        for (i, c) in slice.char_indices() {
            let at = start + i;
            let from = if i == 0 { first_from.min(at) } else { at };
            self.push(c, from, at + c.len_utf8());
        }
    }

    /// Writes `text` (a code span's content, line endings read as spaces) over
    /// the raw bytes `raw`: each character stands for the bytes from the end of
    /// the previous one through its own. Text that does not line up with its
    /// bytes is written as the bytes.
    fn push_aligned(&mut self, text: &str, raw: Range<usize>) {
        let source = self.raw.get(raw.clone()).unwrap_or("");
        let mut pos = 0;
        let mut aligned = Vec::with_capacity(text.len());
        for c in text.chars() {
            let rest = source.get(pos..).unwrap_or("");
            let found = if c == ' ' {
                // A space stands for the line-ending byte it replaced, or for nothing.
                Some(
                    rest.chars()
                        .next()
                        .filter(|r| r.is_whitespace())
                        .map_or(pos, |r| pos + r.len_utf8()),
                )
            } else {
                rest.char_indices()
                    .find(|&(_, r)| r == c)
                    .map(|(i, r)| pos + i + r.len_utf8())
            };
            let Some(end) = found else {
                self.push_raw(raw.start, raw.end);
                return;
            };
            aligned.push((c, raw.start + pos, raw.start + end));
            pos = end;
        }
        for (c, start, end) in aligned {
            self.push(c, start, end);
        }
    }
}

/// Whether a blank line (or a line of block-quote markers alone) lies between
/// two blocks.
fn blank_between(raw: &str, start: usize, end: usize) -> bool {
    let Some(gap) = raw.get(start..end) else {
        return false;
    };
    let pieces: Vec<&str> = gap.split('\n').collect();
    pieces.len() > 2
        && pieces.iter().skip(1).take(pieces.len() - 2).any(|line| {
            line.trim_matches(|c: char| c.is_whitespace() || c == '>')
                .is_empty()
        })
}

/// A list item's marker and the blanks after it on its line.
fn list_marker(raw: &str, start: usize) -> Range<usize> {
    let bytes = raw.as_bytes();
    let mut end = start;
    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    if bytes.get(end).is_some_and(|b| b"-*+.)".contains(b)) {
        end += 1;
    }
    while matches!(bytes.get(end), Some(b' ' | b'\t')) {
        end += 1;
    }
    start..end.min(raw.len())
}

/// `__name__`: an identifier, not strong emphasis.
fn is_dunder(raw: &str, range: &Range<usize>) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let Some(s) = raw.get(range.clone()) else {
        return false;
    };
    let before = raw.get(..range.start).and_then(|b| b.chars().next_back());
    let after = raw.get(range.end..).and_then(|a| a.chars().next());
    s.len() >= 5
        && s.starts_with("__")
        && s.ends_with("__")
        && !s.get(..s.len() - 2).is_some_and(|t| t.ends_with('_'))
        && s.get(2..)
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_alphanumeric)
        && s.chars().all(word)
        && !before.is_some_and(word)
        && !after.is_some_and(word)
}

/// Skips up to `depth` block-quote markers (`>` and one optional blank) at the
/// start of the line `start..end`; returns where the rest begins.
fn strip_quotes(raw: &str, start: usize, end: usize, depth: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut pos = start;
    for _ in 0..depth {
        let mut p = pos;
        let mut spaces = 0;
        while p < end && spaces < 3 && bytes.get(p) == Some(&b' ') {
            p += 1;
            spaces += 1;
        }
        if p < end && bytes.get(p) == Some(&b'>') {
            p += 1;
            if p < end && matches!(bytes.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            pos = p;
        } else {
            break;
        }
    }
    pos
}

fn skip_blanks(raw: &str, mut at: usize, end: usize) -> usize {
    while at < end && matches!(raw.as_bytes().get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::markdown::Markdown;
    use proptest::prelude::*;

    /// The raw bytes that the first occurrence of `needle` in the prose maps to.
    fn raw_of<'a>(raw: &'a str, needle: &str) -> &'a str {
        let view = ProseView::new(raw);
        let at = view
            .text()
            .find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in prose {:?}", view.text()));
        let range = view.to_raw(at..at + needle.len());
        &raw[range]
    }

    fn line_col(raw: &str, offset: usize) -> (usize, usize) {
        crate::lines::LineIndex::new(raw).line_col(raw, offset)
    }

    fn prose(raw: &str) -> String {
        ProseView::new(raw).text().to_string()
    }

    #[test]
    fn emphasis_markers_are_removed_and_map_to_the_inner_text() {
        assert_eq!(prose("**five** hits"), "five hits");
        assert_eq!(prose("*five* hits"), "five hits");
        assert_eq!(prose("_five_ hits"), "five hits");
        assert_eq!(prose("__two words__ here"), "two words here");
        assert_eq!(prose("***both*** ways"), "both ways");
        assert_eq!(prose("a **b *c* d** e"), "a b c d e");
        assert_eq!(raw_of("is **five** hits", "five"), "five");
        assert_eq!(
            raw_of("is **five** hits", "is five hits"),
            "is **five** hits"
        );
        assert_eq!(raw_of("***both***", "both"), "both");
        assert_eq!(raw_of("x _em_ y", "em y"), "em_ y");
    }

    #[test]
    fn underscores_inside_words_are_not_emphasis() {
        for text in [
            "MAX_SOURCE_FILE_BYTES is 8 MiB",
            "a snake_case name",
            "the __init__ method",
            "see foo.__init__.py and __main__",
            "_PROJECT_ID_FACES tracks five faces",
            "x_y_z and a_b",
        ] {
            assert_eq!(prose(text), text);
        }
        assert_eq!(
            raw_of("`x` and MAX_SOURCE_FILE_BYTES", "MAX_SOURCE_FILE_BYTES"),
            "MAX_SOURCE_FILE_BYTES"
        );
    }

    #[test]
    fn spaced_asterisks_are_arithmetic_not_emphasis() {
        assert_eq!(prose("3 * MAX + 1 MiB"), "3 * MAX + 1 MiB");
        assert_eq!(prose("a * b * c"), "a * b * c");
        assert_eq!(prose("2 ** 10 bytes"), "2 ** 10 bytes");
        assert_eq!(prose("an unmatched *star"), "an unmatched *star");
    }

    #[test]
    fn strikethrough_is_removed_but_single_tilde_stays() {
        assert_eq!(prose("~~four~~ five hits"), "four five hits");
        assert_eq!(raw_of("~~four~~ five", "four"), "four");
        assert_eq!(prose("~352 KiB"), "~352 KiB");
        assert_eq!(
            prose("~~~ is not a fence mid-line ~"),
            "~~~ is not a fence mid-line ~"
        );
    }

    #[test]
    fn code_spans_lose_backticks_and_keep_content_verbatim() {
        assert_eq!(prose("`12 MiB` cap"), "12 MiB cap");
        assert_eq!(raw_of("the `12 MiB` cap", "12 MiB"), "12 MiB");
        assert_eq!(
            raw_of("the `12 MiB` cap", "the 12 MiB cap"),
            "the `12 MiB` cap"
        );
        assert_eq!(prose("`*not* _em_` here"), "*not* _em_ here");
        assert_eq!(prose("`` a `tick` ``"), "a `tick`");
        assert_eq!(prose("a lone ` tick"), "a lone ` tick");
        assert_eq!(prose("`[not](a link)`"), "[not](a link)");
        assert_eq!(raw_of("`` a `tick` ``", "a `tick`"), "a `tick`");
    }

    #[test]
    fn links_images_and_autolinks_keep_their_text() {
        assert_eq!(
            prose(r#"see [the table](docs/x.md "Title") now"#),
            "see the table now"
        );
        assert_eq!(
            raw_of(r#"see [the table](docs/x.md "Title") now"#, "the table"),
            "the table"
        );
        assert_eq!(prose("[five files][ref] here"), "five files here");
        assert_eq!(prose("[five files][] here"), "five files here");
        assert_eq!(prose("![a diagram](img/d.png) here"), "a diagram here");
        assert_eq!(raw_of("![a diagram](img/d.png)", "diagram"), "diagram");
        assert_eq!(
            prose("go <https://example.com/a_b> now"),
            "go https://example.com/a_b now"
        );
        assert_eq!(
            raw_of("go <https://example.com/a_b>", "https://example.com/a_b"),
            "https://example.com/a_b"
        );
        assert_eq!(prose("mail <ops@example.com>"), "mail ops@example.com");
        assert_eq!(prose("[wiki](https://x.org/A_(b)) page"), "wiki page");
        assert_eq!(prose("[**bold** link](u)"), "bold link");
        assert_eq!(prose("[![img](i.png)](u)"), "img");
    }

    #[test]
    fn shortcut_links_need_a_definition() {
        let raw = "see [ADR-0030] and [x] here\n\n[adr-0030]: docs/adr/0030.md\n";
        assert_eq!(
            prose(raw),
            "see ADR-0030 and [x] here\n\n[adr-0030]: docs/adr/0030.md"
        );
    }

    #[test]
    fn wrapped_lines_join_with_one_space() {
        let raw = "schemas/mcp/ holds eight\n   files, of which\none is input-side.";
        assert_eq!(
            prose(raw),
            "schemas/mcp/ holds eight files, of which one is input-side."
        );
        assert_eq!(raw_of(raw, "eight files"), "eight\n   files");
        assert_eq!(prose("trailing space \nnext"), "trailing space next");
        assert_eq!(
            raw_of("trailing space \nnext", "space next"),
            "space \nnext"
        );
    }

    #[test]
    fn blank_lines_are_paragraph_breaks() {
        assert_eq!(prose("one\n\ntwo"), "one\n\ntwo");
        assert_eq!(prose("one\n\n\n\ntwo\n"), "one\n\ntwo");
        assert_eq!(prose("\n\n  one  \n\n"), "one");
        let raw = "one\n\n\ntwo";
        assert_eq!(raw_of(raw, "one\n\ntwo"), raw);
    }

    #[test]
    fn headings_lists_and_tables_start_new_lines() {
        // CommonMark reads a table line right after a list item as a lazy
        // continuation of the item, so the table here follows a blank line.
        let raw = "## Decision #1 ##\ntext *a*\nwraps\n- item *one*\n  continues\n* item two\n+ three\n10. ten\n2) two\n\n| a | **b** |\n|---|---|\n| 1 | 2 |";
        assert_eq!(
            prose(raw),
            "Decision #1\ntext a wraps\n- item one continues\n* item two\n+ three\n10. ten\n2) two\n\n| a | b |\n|---|---|\n| 1 | 2 |"
        );
        assert_eq!(raw_of(raw, "Decision #1"), "Decision #1");
        assert_eq!(raw_of(raw, "one continues"), "one*\n  continues");
    }

    #[test]
    fn numbers_at_line_starts_do_not_interrupt_prose() {
        assert_eq!(
            prose("measured in\n2026. The end"),
            "measured in 2026. The end"
        );
        assert_eq!(prose("a plus\n+\nalone"), "a plus + alone");
        assert_eq!(
            prose("steps:\n1. first\n2. second"),
            "steps:\n1. first\n2. second"
        );
        assert_eq!(prose("items:\n- one\n- two"), "items:\n- one\n- two");
    }

    #[test]
    fn list_paragraphs_and_lazy_lines_join() {
        let raw = "- first item\nlazy continuation\n\n  second paragraph\n  of the item\n\nAfter the list.";
        assert_eq!(
            prose(raw),
            "- first item lazy continuation\n\nsecond paragraph of the item\n\nAfter the list."
        );
    }

    #[test]
    fn tables_without_outer_pipes() {
        let raw = "a | b\n--- | ---\n1 | 2\n\nafter";
        assert_eq!(prose(raw), "a | b\n--- | ---\n1 | 2\n\nafter");
    }

    #[test]
    fn block_quotes_lose_markers_and_join() {
        let raw = "> quoted *five*\n> hits here\n>\n> second\n\nplain";
        assert_eq!(prose(raw), "quoted five hits here\n\nsecond\n\nplain");
        assert_eq!(raw_of(raw, "five hits"), "five*\n> hits");
        assert_eq!(prose("> > nested\n> > joined"), "nested joined");
        assert_eq!(prose("text\n> quote"), "text\nquote");
        assert_eq!(prose("> quote\nlazy"), "quote lazy");
    }

    #[test]
    fn hard_breaks_keep_the_newline() {
        assert_eq!(prose("one  \ntwo\\\nthree"), "one\ntwo\nthree");
        assert_eq!(raw_of("one  \ntwo", "one\ntwo"), "one  \ntwo");
        assert_eq!(raw_of("two\\\nthree", "\n"), "\\\n");
        assert_eq!(prose("ends with a backslash\\"), "ends with a backslash\\");
    }

    #[test]
    fn fenced_code_is_verbatim_with_fences() {
        let raw = "Collected:\n\n```sh\n$ git grep -n \"x\" | wc -l\n  *5*  \n\n```\nafter\n~~~\nraw_text\n~~~";
        assert_eq!(
            prose(raw),
            "Collected:\n\n```sh\n$ git grep -n \"x\" | wc -l\n  *5*  \n\n```\nafter\n~~~\nraw_text\n~~~"
        );
        assert_eq!(raw_of(raw, "*5*  "), "*5*  ");
        let blocks = Markdown::new(raw).fenced;
        assert_eq!(blocks.len(), 2);
        let first = &blocks[0];
        assert_eq!(first.info, "sh");
        assert_eq!(&raw[first.open.clone()], "```sh");
        let lines: Vec<&str> = first.lines.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(lines, ["$ git grep -n \"x\" | wc -l", "  *5*  ", ""]);
        for (range, text) in &first.lines {
            assert_eq!(&raw[range.clone()], text);
        }
        assert_eq!(first.close.clone().map(|r| &raw[r]), Some("```"));
        assert_eq!(blocks[1].info, "");
        assert_eq!(blocks[1].lines.len(), 1);
    }

    #[test]
    fn fences_in_lists_and_quotes_and_unclosed() {
        let raw = "- item\n\n  ```text\n  a\n    b\n  ```\n\n> ```\n> quoted\n> ```\n\n````\nnever closed\n```\n";
        let blocks = Markdown::new(raw).fenced;
        assert_eq!(blocks.len(), 3);
        let texts: Vec<Vec<&str>> = blocks
            .iter()
            .map(|b| b.lines.iter().map(|(_, t)| t.as_str()).collect())
            .collect();
        assert_eq!(
            texts,
            [
                vec!["a", "  b"],
                vec!["quoted"],
                vec!["never closed", "```"]
            ]
        );
        assert!(blocks[2].close.is_none());
        for block in &blocks {
            for (range, text) in &block.lines {
                assert_eq!(&raw[range.clone()], text);
            }
        }
    }

    #[test]
    fn indented_code_is_verbatim_and_not_joined() {
        let raw = "Para:\n\n    $ grep *x*\n    docs/a.md:50\n\nafter";
        assert_eq!(
            prose(raw),
            "Para:\n\n    $ grep *x*\n    docs/a.md:50\n\nafter"
        );
        // Indentation after a paragraph line is a continuation, not code.
        assert_eq!(prose("para\n    more"), "para more");
    }

    #[test]
    fn html_comments_are_kept() {
        assert_eq!(
            prose("before <!-- *note* --> after"),
            "before <!-- *note* --> after"
        );
        let raw = "<!-- recount:\n  *five* -->\ntext";
        assert_eq!(prose(raw), "<!-- recount:\n  *five* -->\ntext");
        assert_eq!(prose("a <br> b"), "a <br> b");
    }

    #[test]
    fn backslash_escapes_map_to_the_escape_and_the_char() {
        assert_eq!(prose(r"\*not em\*"), "*not em*");
        assert_eq!(raw_of(r"x \*not em\* y", "*not em*"), r"\*not em\*");
        assert_eq!(prose(r"a\_b \\ c"), r"a_b \ c");
    }

    #[test]
    fn thematic_breaks_and_setext_underlines_are_own_lines() {
        assert_eq!(prose("a\n\n***\n\nb"), "a\n\n***\n\nb");
        assert_eq!(prose("Title\n=====\nbody"), "Title\n=====\nbody");
        assert_eq!(prose("* * *"), "* * *");
    }

    #[test]
    fn crlf_line_endings() {
        let raw = "one **two**\r\nthree\r\n\r\nfour\r\n";
        assert_eq!(prose(raw), "one two three\n\nfour");
        assert_eq!(raw_of(raw, "two three"), "two**\r\nthree");
    }

    #[test]
    fn multibyte_text_maps_to_char_boundaries() {
        let raw = "Größe **fünf** × 3 — “quoted” `naïve`";
        assert_eq!(prose(raw), "Größe fünf × 3 — “quoted” naïve");
        assert_eq!(raw_of(raw, "fünf × 3"), "fünf** × 3");
        assert_eq!(raw_of(raw, "naïve"), "naïve");
        assert_eq!(raw_of(raw, "“quoted”"), "“quoted”");
    }

    #[test]
    fn empty_ranges_map_to_points_and_offsets_clamp() {
        let raw = "a **b** c";
        let view = ProseView::new(raw);
        assert_eq!(view.text(), "a b c");
        assert_eq!(view.to_raw(2..2), 4..4);
        assert_eq!(view.raw_offset(2), 4);
        assert_eq!(view.raw_offset(5), 9);
        assert_eq!(view.raw_offset(500), 9);
        assert_eq!(view.to_raw(4..500), 8..9);
        assert_eq!(view.to_raw(Range { start: 3, end: 1 }), view.to_raw(3..3));
        let empty = ProseView::new("");
        assert_eq!(empty.text(), "");
        assert_eq!(empty.to_raw(0..3), 0..0);
    }

    #[test]
    fn regex_matches_on_prose_point_at_raw_bytes() {
        let raw = "`schemas/mcp/` holds **eight**\n  files; the body cap is\n*26,214,400* bytes.";
        let view = ProseView::new(raw);
        let re = regex::Regex::new(r"schemas/mcp/ holds (?<value>\w+) files").unwrap();
        let caps = re.captures(view.text()).unwrap();
        let value = caps.name("value").unwrap();
        assert_eq!(&raw[view.to_raw(value.range())], "eight");
        let whole = caps.get(0).unwrap();
        assert_eq!(
            &raw[view.to_raw(whole.range())],
            "schemas/mcp/` holds **eight**\n  files"
        );
        let re = regex::Regex::new(r"cap is (?<value>[\d,]+) bytes").unwrap();
        let value = re.captures(view.text()).unwrap().name("value").unwrap();
        let raw_range = view.to_raw(value.range());
        assert_eq!(&raw[raw_range.clone()], "26,214,400");
        assert_eq!(line_col(raw, raw_range.start), (3, 2));
    }

    #[test]
    fn line_col_counts_chars_from_one() {
        let raw = "ab\nçd ×e\n";
        assert_eq!(line_col(raw, 0), (1, 1));
        assert_eq!(line_col(raw, 2), (1, 3));
        assert_eq!(line_col(raw, 3), (2, 1));
        let e = raw.find('e').unwrap();
        assert_eq!(line_col(raw, e), (2, 5));
        // Inside a multi-byte char: that char's column.
        assert_eq!(line_col(raw, 4), (2, 1));
        assert_eq!(line_col(raw, raw.len()), (3, 1));
        assert_eq!(line_col(raw, 10_000), (3, 1));
        assert_eq!(line_col("", 0), (1, 1));
    }

    fn markdownish() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("*"),
            Just("**"),
            Just("_"),
            Just("__"),
            Just("~~"),
            Just("`"),
            Just("```"),
            Just("["),
            Just("]"),
            Just("("),
            Just(")"),
            Just("!"),
            Just("<"),
            Just(">"),
            Just("\\"),
            Just("\n"),
            Just("\r\n"),
            Just("  "),
            Just("    "),
            Just("#"),
            Just("- "),
            Just("1. "),
            Just("|"),
            Just("<!--"),
            Just("-->"),
            Just("é"),
            Just("×"),
            Just("—"),
            Just("😀"),
            Just("word"),
            Just(" "),
            Just("~~~"),
            Just("> "),
            Just("[r]: u\n"),
            Just(":"),
            Just("x"),
            Just("\t"),
        ];
        prop::collection::vec(atom, 0..80).prop_map(|parts| parts.concat())
    }

    fn check_view(raw: &str) -> Result<(), TestCaseError> {
        let view = ProseView::new(raw);
        let mut previous = 0;
        for seg in &view.segs {
            prop_assert!(seg.raw_start <= seg.raw_end && seg.raw_end <= raw.len());
            prop_assert!(raw.is_char_boundary(seg.raw_start) && raw.is_char_boundary(seg.raw_end));
            prop_assert!(seg.raw_start >= previous, "map goes backwards in {raw:?}");
            previous = seg.raw_start;
            let c = view.text()[seg.prose..].chars().next().unwrap_or(' ');
            let source = &raw[seg.raw_start..seg.raw_end];
            prop_assert!(
                source.contains(c) || c == ' ' || c == '\n',
                "{c:?} from {source:?} in {raw:?}"
            );
        }
        let len = view.text().len();
        for start in 0..=len + 1 {
            for end in [start, start + 1, start + 3, len] {
                let range = view.to_raw(start..end);
                prop_assert!(range.start <= range.end && range.end <= raw.len());
                prop_assert!(raw.is_char_boundary(range.start) && raw.is_char_boundary(range.end));
            }
        }
        for block in Markdown::new(raw).fenced {
            for (range, text) in block.lines {
                prop_assert_eq!(raw.get(range), Some(text.as_str()));
            }
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn never_panics_and_maps_to_char_boundaries(raw in any::<String>()) {
            check_view(&raw)?;
        }

        #[test]
        fn markdown_soup_maps_to_char_boundaries(raw in markdownish()) {
            check_view(&raw)?;
        }
    }
}
