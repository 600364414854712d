//! Stage 3 of the pipeline (claims): the prose view of a record.
//!
//! Claims are regular expressions written against what a record *says*, not how
//! its Markdown spells it, so they are matched on a prose rendering of the record:
//! emphasis and strike markers, code-span backticks and link syntax are removed,
//! wrapped lines are joined with one space, and block structure (headings, list
//! items, table rows, paragraphs) survives as line breaks. Fenced and indented
//! code, and HTML comments, are kept verbatim so listing claims can still find
//! them. Every character of the prose remembers the raw bytes it came from, which
//! is what lets a finding point at the exact characters in the file.
//!
//! The Markdown reading is CommonMark-ish and pragmatic: it follows the spec's
//! emphasis and code-span rules, but container blocks are handled one line at a
//! time rather than as a full tree. One deliberate departure: a `__name__` dunder
//! identifier is never strong emphasis, because records about Python code mention
//! `__init__` far more often than they embolden with underscores.

use std::collections::BTreeSet;
use std::ops::Range;

/// One character of the prose text and the raw bytes it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seg {
    prose: usize,
    raw_start: usize,
    raw_end: usize,
}

/// A record rendered as prose, with a map from every prose character back to
/// the raw bytes it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProseView {
    text: String,
    segs: Vec<Seg>,
}

/// A fenced code block (```` ``` ```` or `~~~`) of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FencedBlock {
    /// The info string after the opening fence, trimmed (`sh`, `text`, or empty).
    pub info: String,
    /// Each content line: its raw byte range (line terminator excluded, the
    /// fence's own indentation removed) and its text.
    pub lines: Vec<(Range<usize>, String)>,
    /// Raw byte range of the opening fence line (from the fence marker on).
    pub open: Range<usize>,
    /// Raw byte range of the closing fence line; `None` when the block runs to
    /// the end of the record (or of its block quote) unclosed.
    pub close: Option<Range<usize>>,
}

impl ProseView {
    /// Renders `raw` (Markdown or plain text) as prose.
    pub fn new(raw: &str) -> Self {
        scan(raw).0
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

    /// Index of the segment whose character contains the prose byte `offset`.
    fn seg_at(&self, offset: usize) -> usize {
        self.segs
            .partition_point(|s| s.prose <= offset)
            .saturating_sub(1)
    }
}

/// 1-based line and 1-based column (counted in characters) of a raw byte
/// offset. Offsets past the end are clamped; an offset inside a multi-byte
/// character counts as that character.
pub fn line_col(raw: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(raw.len());
    while offset > 0 && !raw.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = raw.get(..offset).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = raw.get(line_start..offset).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

/// The fenced code blocks of a record, in order, with the raw ranges of their
/// content lines.
pub fn fenced_blocks(raw: &str) -> Vec<FencedBlock> {
    scan(raw).1
}

// ---------------------------------------------------------------------------
// Block level: one raw line at a time.

/// A raw line: `start..end` is its content, without `\n` or a trailing `\r`.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
}

fn split_lines(raw: &str) -> Vec<Line> {
    let bytes = raw.as_bytes();
    let mut lines = Vec::new();
    let mut pos = 0;
    while let Some(nl) = raw.get(pos..).and_then(|rest| rest.find('\n')) {
        let newline = pos + nl;
        let end = if newline > pos && bytes.get(newline - 1) == Some(&b'\r') {
            newline - 1
        } else {
            newline
        };
        lines.push(Line { start: pos, end });
        pos = newline + 1;
    }
    if pos < raw.len() {
        lines.push(Line {
            start: pos,
            end: raw.len(),
        });
    }
    lines
}

/// One character of a block's text on its way through inline processing.
#[derive(Debug, Clone, Copy)]
struct Ch {
    c: char,
    start: usize,
    end: usize,
    /// Taken as written: never a delimiter, escape or bracket.
    literal: bool,
}

fn chars_of(raw: &str, range: Range<usize>, literal_until: usize) -> Vec<Ch> {
    let base = range.start;
    raw.get(range)
        .unwrap_or("")
        .char_indices()
        .map(|(i, c)| Ch {
            c,
            start: base + i,
            end: base + i + c.len_utf8(),
            literal: base + i < literal_until,
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ParaKind {
    Text,
    ListItem,
}

/// A paragraph (or list item) still collecting its wrapped lines.
struct Para {
    stream: Vec<Ch>,
    kind: ParaKind,
    depth: usize,
    lines: usize,
    /// Raw end of the last line's content, trailing whitespace excluded.
    prev_end: usize,
    /// Trailing spaces after `prev_end`: two or more make a hard break.
    trailing_spaces: usize,
}

struct OpenFence {
    marker: u8,
    len: usize,
    indent: usize,
    depth: usize,
    block: FencedBlock,
}

struct Scanner<'a> {
    raw: &'a str,
    defs: BTreeSet<String>,
    text: String,
    segs: Vec<Seg>,
    /// Raw offset where the previously emitted block ended.
    last_end: usize,
    blank_seen: bool,
    para: Option<Para>,
    fence: Option<OpenFence>,
    in_html_comment: bool,
    in_table: bool,
    /// Content column of the innermost list item, while inside a list.
    list_indent: Option<usize>,
    fences: Vec<FencedBlock>,
}

fn scan(raw: &str) -> (ProseView, Vec<FencedBlock>) {
    let lines = split_lines(raw);
    let mut scanner = Scanner {
        raw,
        defs: link_definitions(raw, &lines),
        text: String::with_capacity(raw.len()),
        segs: Vec::with_capacity(raw.len()),
        last_end: 0,
        blank_seen: false,
        para: None,
        fence: None,
        in_html_comment: false,
        in_table: false,
        list_indent: None,
        fences: Vec::new(),
    };
    for line in lines {
        scanner.line(line);
    }
    scanner.flush_para();
    if let Some(fence) = scanner.fence.take() {
        scanner.fences.push(fence.block);
    }
    (
        ProseView {
            text: scanner.text,
            segs: scanner.segs,
        },
        scanner.fences,
    )
}

impl Scanner<'_> {
    fn push(&mut self, ch: Ch) {
        self.segs.push(Seg {
            prose: self.text.len(),
            raw_start: ch.start,
            raw_end: ch.end.max(ch.start),
        });
        self.text.push(ch.c);
    }

    fn push_raw(&mut self, range: Range<usize>) {
        for ch in chars_of(self.raw, range, 0) {
            self.push(ch);
        }
    }

    /// Starts a block on a new line: one `\n` after the previous block, two
    /// when a blank line separated them. The separator stands for the raw bytes
    /// between the two blocks.
    fn begin_block(&mut self, first_raw: usize) {
        if !self.text.is_empty() {
            let count = if self.blank_seen { 2 } else { 1 };
            let start = self.last_end.min(first_raw);
            for _ in 0..count {
                self.push(Ch {
                    c: '\n',
                    start,
                    end: first_raw,
                    literal: true,
                });
            }
        }
        self.blank_seen = false;
    }

    /// A line kept exactly as written, on a line of its own.
    fn verbatim(&mut self, range: Range<usize>) {
        self.flush_para();
        self.begin_block(range.start);
        self.last_end = range.end;
        self.push_raw(range);
    }

    /// A single-line block whose text is inline-processed (heading, table row).
    fn inline_block(&mut self, range: Range<usize>) {
        self.flush_para();
        self.begin_block(range.start);
        self.last_end = range.end;
        let mut stream = chars_of(self.raw, range, 0);
        for ch in inline(&mut stream, &self.defs) {
            self.push(ch);
        }
    }

    fn start_para(
        &mut self,
        kind: ParaKind,
        content: Range<usize>,
        literal_until: usize,
        line_end: usize,
        depth: usize,
    ) {
        self.flush_para();
        self.begin_block(content.start);
        self.para = Some(Para {
            stream: chars_of(self.raw, content.clone(), literal_until),
            kind,
            depth,
            lines: 1,
            prev_end: content.end,
            trailing_spaces: line_end.saturating_sub(content.end),
        });
    }

    fn continue_para(&mut self, content: Range<usize>, line_end: usize) {
        let raw = self.raw;
        let Some(para) = self.para.as_mut() else {
            return;
        };
        let trailing_backslashes = para
            .stream
            .iter()
            .rev()
            .take_while(|ch| ch.c == '\\' && !ch.literal)
            .count();
        if trailing_backslashes % 2 == 1 {
            // A backslash before the line end is a hard line break.
            let start = para.stream.pop().map_or(para.prev_end, |bs| bs.start);
            para.stream.push(Ch {
                c: '\n',
                start,
                end: content.start,
                literal: false,
            });
        } else {
            let c = if para.trailing_spaces >= 2 { '\n' } else { ' ' };
            para.stream.push(Ch {
                c,
                start: para.prev_end,
                end: content.start,
                literal: false,
            });
        }
        para.stream.extend(chars_of(raw, content.clone(), 0));
        para.prev_end = content.end;
        para.trailing_spaces = line_end.saturating_sub(content.end);
        para.lines += 1;
    }

    fn flush_para(&mut self) {
        if let Some(mut para) = self.para.take() {
            for ch in inline(&mut para.stream, &self.defs) {
                self.push(ch);
            }
            self.last_end = para.prev_end;
        }
    }

    fn line(&mut self, line: Line) {
        let raw = self.raw;
        if let Some(fence) = self.fence.as_ref() {
            let (depth, pos) = strip_quotes(raw, line, fence.depth);
            if depth >= fence.depth {
                self.fence_line(line, pos);
                return;
            }
            // The block quote holding the fence ended, and so did the fence.
            if let Some(fence) = self.fence.take() {
                self.fences.push(fence.block);
            }
        }
        let (depth, pos) = strip_quotes(raw, line, usize::MAX);
        if self.in_html_comment {
            self.begin_block(pos);
            self.last_end = line.end;
            self.push_raw(pos..line.end);
            if raw.get(pos..line.end).is_some_and(|s| s.contains("-->")) {
                self.in_html_comment = false;
            }
            return;
        }
        let (indent, start) = indentation(raw, pos, line.end);
        let end = trim_end(raw, start, line.end);
        let content = raw.get(start..end).unwrap_or("");
        if content.is_empty() {
            self.flush_para();
            self.blank_seen = true;
            self.in_table = false;
            return;
        }
        let para_depth = self.para.as_ref().map(|p| p.depth);
        if para_depth.is_some_and(|pd| depth > pd) {
            self.flush_para();
        }
        if self.para.is_none() && self.list_indent.is_some_and(|li| indent < li) {
            self.list_indent = None;
        }
        let base = self.list_indent.unwrap_or(0);
        let para = self.para.as_ref().map(|p| (p.depth, p.lines, p.kind));

        if indent < base + 4 {
            if let Some((marker, len, info)) = fence_open(content) {
                self.verbatim(pos..line.end);
                self.fence = Some(OpenFence {
                    marker,
                    len,
                    indent,
                    depth,
                    block: FencedBlock {
                        info,
                        lines: Vec::new(),
                        open: start..end,
                        close: None,
                    },
                });
                return;
            }
            if content.starts_with("<!--") {
                self.verbatim(pos..line.end);
                let after_opener = raw.get(start + 4..line.end).unwrap_or("");
                self.in_html_comment = !after_opener.contains("-->");
                return;
            }
            if let Some(heading) = atx_heading(raw, start, end) {
                self.inline_block(heading);
                return;
            }
            if let Some((pd, lines, kind)) = para {
                if pd == depth
                    && lines == 1
                    && kind == ParaKind::Text
                    && is_table_delimiter_row(content)
                {
                    self.inline_block(start..end);
                    self.in_table = true;
                    return;
                }
                if pd == depth && is_setext_underline(content) {
                    self.verbatim(pos..line.end);
                    return;
                }
            }
            if is_thematic_break(content) {
                self.verbatim(pos..line.end);
                return;
            }
            let list_item = list_marker(content).filter(|&(marker_len, content_offset)| {
                // Outside a list, wrapped prose such as "in\n2026. The" must not
                // become a list: only a bullet or `1.` with text may interrupt a
                // paragraph (CommonMark's rule).
                let interrupts_prose = para.is_some() && self.list_indent.is_none();
                !interrupts_prose
                    || (content_offset < content.len()
                        && (marker_len == 1
                            || content.starts_with("1.")
                            || content.starts_with("1)")))
            });
            if let Some((marker_len, content_offset)) = list_item {
                let content_col =
                    indent + marker_len + content_offset.saturating_sub(marker_len).max(1);
                self.start_para(
                    ParaKind::ListItem,
                    start..end,
                    start + marker_len,
                    line.end,
                    depth,
                );
                self.list_indent = Some(content_col);
                return;
            }
            if content.starts_with('|') || (self.in_table && content.contains('|')) {
                self.inline_block(start..end);
                self.in_table = true;
                return;
            }
            if para.is_none() && is_link_definition(content) {
                self.verbatim(pos..line.end);
                return;
            }
        }
        self.in_table = false;
        if para.is_some() {
            self.continue_para(start..end, line.end);
            return;
        }
        if indent >= base + 4 {
            self.verbatim(pos..line.end);
            return;
        }
        self.start_para(ParaKind::Text, start..end, start, line.end, depth);
    }

    fn fence_line(&mut self, line: Line, pos: usize) {
        let raw = self.raw;
        let Some(fence) = self.fence.as_mut() else {
            return;
        };
        let (indent, start) = indentation(raw, pos, line.end);
        let end = trim_end(raw, start, line.end);
        let content = raw.get(start..end).unwrap_or("");
        if indent <= fence.indent + 3 && is_fence_close(content, fence.marker, fence.len) {
            fence.block.close = Some(start..end);
            if let Some(done) = self.fence.take() {
                self.fences.push(done.block);
            }
            self.begin_block(pos);
            self.last_end = line.end;
            self.push_raw(pos..line.end);
            return;
        }
        // Content lines lose at most the fence's own indentation.
        let mut content_start = pos;
        let bytes = raw.as_bytes();
        let mut removed = 0;
        while removed < fence.indent
            && content_start < line.end
            && bytes.get(content_start) == Some(&b' ')
        {
            content_start += 1;
            removed += 1;
        }
        let text = raw.get(content_start..line.end).unwrap_or("").to_string();
        fence.block.lines.push((content_start..line.end, text));
        let newline_start = self.last_end.min(pos);
        self.push(Ch {
            c: '\n',
            start: newline_start,
            end: pos,
            literal: true,
        });
        self.last_end = line.end;
        self.push_raw(pos..line.end);
    }
}

/// Strips up to `max_depth` block-quote markers (`>` plus one optional space)
/// from the start of a line: the depth found and where the rest begins.
fn strip_quotes(raw: &str, line: Line, max_depth: usize) -> (usize, usize) {
    let bytes = raw.as_bytes();
    let mut pos = line.start;
    let mut depth = 0;
    while depth < max_depth {
        let mut p = pos;
        let mut spaces = 0;
        while p < line.end && spaces < 3 && bytes.get(p) == Some(&b' ') {
            p += 1;
            spaces += 1;
        }
        if p < line.end && bytes.get(p) == Some(&b'>') {
            p += 1;
            if p < line.end && matches!(bytes.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            pos = p;
            depth += 1;
        } else {
            break;
        }
    }
    (depth, pos)
}

/// Leading indentation in columns (a tab advances to the next multiple of 4)
/// and where the text after it begins.
fn indentation(raw: &str, from: usize, end: usize) -> (usize, usize) {
    let bytes = raw.as_bytes();
    let mut cols = 0;
    let mut pos = from;
    while pos < end {
        match bytes.get(pos) {
            Some(b' ') => cols += 1,
            Some(b'\t') => cols += 4 - cols % 4,
            _ => break,
        }
        pos += 1;
    }
    (cols, pos)
}

fn trim_end(raw: &str, start: usize, end: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut e = end;
    while e > start && matches!(bytes.get(e - 1), Some(b' ' | b'\t')) {
        e -= 1;
    }
    e
}

/// An opening fence: marker byte, run length and info string.
fn fence_open(content: &str) -> Option<(u8, usize, String)> {
    let marker = *content.as_bytes().first()?;
    if marker != b'`' && marker != b'~' {
        return None;
    }
    let len = content.bytes().take_while(|&b| b == marker).count();
    if len < 3 {
        return None;
    }
    let info = content.get(len..)?.trim();
    if marker == b'`' && info.contains('`') {
        return None;
    }
    Some((marker, len, info.to_string()))
}

fn is_fence_close(content: &str, marker: u8, len: usize) -> bool {
    let run = content.bytes().take_while(|&b| b == marker).count();
    run >= len
        && content
            .get(run..)
            .is_some_and(|rest| rest.trim().is_empty())
}

/// The raw range of an ATX heading's text, markers and closing sequence removed.
fn atx_heading(raw: &str, start: usize, end: usize) -> Option<Range<usize>> {
    let content = raw.get(start..end)?;
    let level = content.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let after = content.get(level..)?;
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return None;
    }
    let mut text_start = start + level;
    let bytes = raw.as_bytes();
    while text_start < end && matches!(bytes.get(text_start), Some(b' ' | b'\t')) {
        text_start += 1;
    }
    let mut text_end = end;
    let closing = raw
        .get(text_start..end)?
        .bytes()
        .rev()
        .take_while(|&b| b == b'#')
        .count();
    if closing > 0 {
        let before_closing = text_end - closing;
        if before_closing == text_start
            || matches!(bytes.get(before_closing - 1), Some(b' ' | b'\t'))
        {
            text_end = trim_end(raw, text_start, before_closing);
        }
    }
    Some(text_start..text_end)
}

fn is_thematic_break(content: &str) -> bool {
    let Some(first) = content.bytes().next() else {
        return false;
    };
    if !matches!(first, b'*' | b'-' | b'_') {
        return false;
    }
    let mut count = 0;
    for b in content.bytes() {
        if b == first {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

fn is_setext_underline(content: &str) -> bool {
    let Some(first) = content.bytes().next() else {
        return false;
    };
    (first == b'=' || first == b'-') && content.trim_end().bytes().all(|b| b == first)
}

/// A list marker at the start of `content`: its length and the offset where
/// the item's text begins.
fn list_marker(content: &str) -> Option<(usize, usize)> {
    let bytes = content.as_bytes();
    let marker_len = match bytes.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(bytes.get(digits), Some(b'.' | b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    match bytes.get(marker_len) {
        None => Some((marker_len, marker_len)),
        Some(b' ' | b'\t') => {
            let spaces = bytes
                .get(marker_len..)?
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            Some((marker_len, marker_len + spaces))
        }
        Some(_) => None,
    }
}

/// A GFM table delimiter row such as `|---|:--:|` or `--- | ---`.
fn is_table_delimiter_row(content: &str) -> bool {
    if !content.contains('|') {
        return false;
    }
    let inner = content.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').all(|cell| {
        let cell = cell.trim();
        let cell = cell.strip_prefix(':').unwrap_or(cell);
        let cell = cell.strip_suffix(':').unwrap_or(cell);
        !cell.is_empty() && cell.bytes().all(|b| b == b'-')
    })
}

/// `[label]: destination` — a link reference definition line.
fn is_link_definition(content: &str) -> bool {
    definition_label(content).is_some()
}

fn definition_label(content: &str) -> Option<String> {
    let rest = content.strip_prefix('[')?;
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => return None,
            ']' => {
                let label = rest.get(..i)?;
                let after = rest.get(i + 1..)?.strip_prefix(':')?;
                if label.trim().is_empty() || after.trim().is_empty() {
                    return None;
                }
                return Some(normalize_label(label.chars()));
            }
            _ => {}
        }
    }
    None
}

fn normalize_label(chars: impl Iterator<Item = char>) -> String {
    let collected: String = chars.flat_map(char::to_lowercase).collect();
    collected.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Labels of every link reference definition, so `[label]` shortcut links can
/// be told apart from bracketed prose.
fn link_definitions(raw: &str, lines: &[Line]) -> BTreeSet<String> {
    lines
        .iter()
        .filter_map(|&line| {
            let (_, pos) = strip_quotes(raw, line, usize::MAX);
            let (indent, start) = indentation(raw, pos, line.end);
            if indent > 3 {
                return None;
            }
            definition_label(raw.get(start..line.end)?)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Inline level: code spans, escapes, autolinks, links, emphasis.

#[derive(Debug, Clone, Copy)]
struct Delim {
    c: char,
    /// Remaining (unmatched) delimiter characters are `start..end` of the stream.
    start: usize,
    end: usize,
    original_len: usize,
    can_open: bool,
    can_close: bool,
    active: bool,
}

#[derive(Debug, Clone, Copy)]
struct Bracket {
    pos: usize,
    image: bool,
    delim_bottom: usize,
    active: bool,
}

fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// Inline-processes one block's characters; returns those that stay in the prose.
fn inline(stream: &mut [Ch], defs: &BTreeSet<String>) -> Vec<Ch> {
    let n = stream.len();
    let mut dropped = vec![false; n];
    let mut delims: Vec<Delim> = Vec::new();
    let mut brackets: Vec<Bracket> = Vec::new();
    let c_at = |s: &[Ch], i: usize| s.get(i).map(|ch| ch.c);
    let mut i = 0;
    while let Some(&ch) = stream.get(i) {
        if ch.literal {
            i += 1;
            continue;
        }
        match ch.c {
            '\\' => {
                let next = stream.get(i + 1).copied();
                match next {
                    Some(next) if next.c.is_ascii_punctuation() && !next.literal => {
                        set(&mut dropped, i);
                        if let Some(escaped) = stream.get_mut(i + 1) {
                            escaped.start = ch.start;
                            escaped.literal = true;
                        }
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
            '`' => {
                let run = run_len(stream, i, '`');
                match find_backtick_close(stream, i + run, run) {
                    Some(close) => {
                        for k in (i..i + run).chain(close..close + run) {
                            set(&mut dropped, k);
                        }
                        for k in i + run..close {
                            if let Some(c) = stream.get_mut(k) {
                                c.literal = true;
                            }
                        }
                        let content = stream.get(i + run..close).unwrap_or(&[]);
                        let is_space =
                            |c: Option<&Ch>| c.is_some_and(|c| c.c == ' ' || c.c == '\n');
                        if content.len() >= 2
                            && is_space(content.first())
                            && is_space(content.last())
                            && !content.iter().all(|c| c.c == ' ' || c.c == '\n')
                        {
                            set(&mut dropped, i + run);
                            set(&mut dropped, close - 1);
                        }
                        i = close + run;
                    }
                    None => i += run,
                }
            }
            '<' => {
                if let Some(end) = autolink(stream, i) {
                    set(&mut dropped, i);
                    set(&mut dropped, end - 1);
                    i = end;
                } else if let Some(end) = html_comment(stream, i).or_else(|| html_tag(stream, i)) {
                    i = end;
                } else {
                    i += 1;
                }
            }
            '!' if c_at(stream, i + 1) == Some('[')
                && stream.get(i + 1).is_some_and(|c| !c.literal) =>
            {
                brackets.push(Bracket {
                    pos: i,
                    image: true,
                    delim_bottom: delims.len(),
                    active: true,
                });
                i += 2;
            }
            '[' => {
                brackets.push(Bracket {
                    pos: i,
                    image: false,
                    delim_bottom: delims.len(),
                    active: true,
                });
                i += 1;
            }
            ']' => {
                let Some(opener) = brackets.pop() else {
                    i += 1;
                    continue;
                };
                if !opener.active {
                    i += 1;
                    continue;
                }
                let text_start = opener.pos + if opener.image { 2 } else { 1 };
                let label =
                    normalize_label(stream.get(text_start..i).unwrap_or(&[]).iter().map(|c| c.c));
                match link_tail(stream, i + 1, &label, defs) {
                    Some(after) => {
                        set(&mut dropped, opener.pos);
                        if opener.image {
                            set(&mut dropped, opener.pos + 1);
                        }
                        for k in i..after {
                            set(&mut dropped, k);
                        }
                        process_emphasis(&mut delims, opener.delim_bottom, &mut dropped);
                        delims.truncate(opener.delim_bottom);
                        if !opener.image {
                            // Links cannot contain links.
                            for b in brackets.iter_mut().filter(|b| !b.image) {
                                b.active = false;
                            }
                        }
                        i = after;
                    }
                    None => i += 1,
                }
            }
            '*' | '_' | '~' => {
                let run = run_len(stream, i, ch.c);
                if ch.c == '_' && run == 2 {
                    if let Some(end) = dunder_end(stream, i) {
                        i = end;
                        continue;
                    }
                }
                if ch.c == '~' && run != 2 {
                    i += run;
                    continue;
                }
                let before = if i == 0 {
                    ' '
                } else {
                    c_at(stream, i - 1).unwrap_or(' ')
                };
                let after = c_at(stream, i + run).unwrap_or(' ');
                let left = !after.is_whitespace()
                    && (!is_punct(after) || before.is_whitespace() || is_punct(before));
                let right = !before.is_whitespace()
                    && (!is_punct(before) || after.is_whitespace() || is_punct(after));
                let (can_open, can_close) = if ch.c == '_' {
                    (
                        left && (!right || is_punct(before)),
                        right && (!left || is_punct(after)),
                    )
                } else {
                    (left, right)
                };
                if can_open || can_close {
                    delims.push(Delim {
                        c: ch.c,
                        start: i,
                        end: i + run,
                        original_len: run,
                        can_open,
                        can_close,
                        active: true,
                    });
                }
                i += run;
            }
            _ => i += 1,
        }
    }
    process_emphasis(&mut delims, 0, &mut dropped);
    stream
        .iter()
        .zip(dropped)
        .filter(|(_, d)| !d)
        .map(|(ch, _)| *ch)
        .collect()
}

fn set(flags: &mut [bool], i: usize) {
    if let Some(f) = flags.get_mut(i) {
        *f = true;
    }
}

fn run_len(stream: &[Ch], from: usize, c: char) -> usize {
    stream
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|ch| ch.c == c && !ch.literal)
        .count()
}

/// The next backtick run of exactly `len` after `from`.
fn find_backtick_close(stream: &[Ch], from: usize, len: usize) -> Option<usize> {
    let mut i = from;
    while i < stream.len() {
        if stream.get(i).is_some_and(|c| c.c == '`') {
            let run = run_len(stream, i, '`');
            if run == len {
                return Some(i);
            }
            i += run.max(1);
        } else {
            i += 1;
        }
    }
    None
}

/// End (exclusive) of a `__name__` identifier starting at `from`.
fn dunder_end(stream: &[Ch], from: usize) -> Option<usize> {
    let word_char = |c: &Ch| !c.literal && (c.c.is_alphanumeric() || c.c == '_');
    if from > 0 && stream.get(from - 1).is_some_and(word_char) {
        return None;
    }
    let len = stream
        .get(from..)?
        .iter()
        .take_while(|c| word_char(c))
        .count();
    let word = stream.get(from..from + len)?;
    let inner = word.get(2..len.checked_sub(2)?)?;
    let ends_with_two = word.len() >= 5
        && word.iter().rev().take_while(|c| c.c == '_').count() == 2
        && inner.first().is_some_and(|c| c.c.is_alphanumeric());
    ends_with_two.then_some(from + len)
}

/// `<scheme:...>` or `<user@host>`: end (exclusive) of the autolink.
fn autolink(stream: &[Ch], from: usize) -> Option<usize> {
    let rest = stream.get(from + 1..)?;
    let close = rest.iter().position(|c| c.c == '>')?;
    let inner: Vec<char> = rest.get(..close)?.iter().map(|c| c.c).collect();
    if inner
        .iter()
        .any(|c| c.is_whitespace() || c.is_control() || *c == '<')
        || inner.is_empty()
    {
        return None;
    }
    let colon = inner.iter().position(|&c| c == ':');
    let is_uri = colon.is_some_and(|colon| {
        (2..=32).contains(&colon)
            && inner.first().is_some_and(char::is_ascii_alphabetic)
            && inner.get(..colon).is_some_and(|s| {
                s.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
            })
    });
    let is_email = !is_uri && {
        let at = inner.iter().position(|&c| c == '@');
        at.is_some_and(|at| {
            at > 0
                && at + 1 < inner.len()
                && inner.get(at + 1..).is_some_and(|host| {
                    host.iter()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.'))
                })
        })
    };
    (is_uri || is_email).then_some(from + 1 + close + 1)
}

fn html_comment(stream: &[Ch], from: usize) -> Option<usize> {
    let opener = ['<', '!', '-', '-'];
    let head = stream.get(from..from + 4)?;
    if !head.iter().map(|c| c.c).eq(opener) {
        return None;
    }
    let mut i = from + 4;
    while i + 3 <= stream.len() {
        let window = stream.get(i..i + 3)?;
        if window.iter().map(|c| c.c).eq(['-', '-', '>']) {
            return Some(i + 3);
        }
        i += 1;
    }
    None
}

/// An inline HTML tag such as `<br>` or `</span>`: kept as written.
fn html_tag(stream: &[Ch], from: usize) -> Option<usize> {
    let mut i = from + 1;
    if stream.get(i).is_some_and(|c| c.c == '/') {
        i += 1;
    }
    if !stream.get(i).is_some_and(|c| c.c.is_ascii_alphabetic()) {
        return None;
    }
    while let Some(c) = stream.get(i) {
        match c.c {
            '>' => return Some(i + 1),
            '<' | '\n' => return None,
            _ => i += 1,
        }
    }
    None
}

/// What follows a link's `]` at `from`: an inline destination, a reference, or
/// nothing for a shortcut link whose label is defined. Returns where the link
/// ends (exclusive).
fn link_tail(stream: &[Ch], from: usize, label: &str, defs: &BTreeSet<String>) -> Option<usize> {
    let c_at = |i: usize| stream.get(i).filter(|c| !c.literal).map(|c| c.c);
    if c_at(from) == Some('(') {
        if let Some(end) = inline_destination(stream, from + 1) {
            return Some(end);
        }
    }
    if c_at(from) == Some('[') {
        let mut i = from + 1;
        while let Some(c) = c_at(i) {
            match c {
                ']' => return Some(i + 1),
                '[' => break,
                '\\' => i += 2,
                _ => i += 1,
            }
            if i - from > 1000 {
                break;
            }
        }
    }
    (!label.is_empty() && defs.contains(label)).then_some(from)
}

/// Parses `dest "title")` after a link's `(`; returns the index after `)`.
fn inline_destination(stream: &[Ch], from: usize) -> Option<usize> {
    let c_at = |i: usize| stream.get(i).map(|c| c.c);
    let skip_ws = |mut i: usize| {
        while c_at(i).is_some_and(char::is_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(from);
    if c_at(i) == Some('<') {
        i += 1;
        loop {
            match c_at(i)? {
                '>' => {
                    i += 1;
                    break;
                }
                '<' | '\n' => return None,
                '\\' => i += 2,
                _ => i += 1,
            }
        }
    } else {
        let mut depth = 0usize;
        while let Some(c) = c_at(i) {
            match c {
                '\\' => i += 2,
                '(' => {
                    depth += 1;
                    i += 1;
                }
                ')' if depth == 0 => break,
                ')' => {
                    depth -= 1;
                    i += 1;
                }
                c if c.is_whitespace() || c.is_control() => break,
                _ => i += 1,
            }
        }
    }
    let before_title = i;
    i = skip_ws(i);
    if i > before_title {
        if let Some(open) = c_at(i).filter(|c| matches!(c, '"' | '\'' | '(')) {
            let close = if open == '(' { ')' } else { open };
            i += 1;
            loop {
                match c_at(i)? {
                    '\\' => i += 2,
                    c if c == close => {
                        i += 1;
                        break;
                    }
                    _ => i += 1,
                }
            }
            i = skip_ws(i);
        }
    }
    (c_at(i) == Some(')')).then_some(i + 1)
}

/// CommonMark's delimiter-run matching over `delims[bottom..]`: matched
/// delimiter characters are marked dropped; the rest stay as literal text.
fn process_emphasis(delims: &mut [Delim], bottom: usize, dropped: &mut [bool]) {
    let mut closer = bottom;
    while closer < delims.len() {
        let Some(&d) = delims.get(closer) else {
            break;
        };
        if !d.active || !d.can_close || d.end <= d.start {
            closer += 1;
            continue;
        }
        let mut found = None;
        let mut o = closer;
        while o > bottom {
            o -= 1;
            let Some(op) = delims.get(o) else {
                break;
            };
            if !op.active || op.c != d.c || !op.can_open || op.end <= op.start {
                continue;
            }
            if d.c == '~' {
                if op.original_len == d.original_len {
                    found = Some(o);
                    break;
                }
                continue;
            }
            let sum = op.original_len + d.original_len;
            if (op.can_close || d.can_open)
                && sum % 3 == 0
                && !(op.original_len % 3 == 0 && d.original_len % 3 == 0)
            {
                continue;
            }
            found = Some(o);
            break;
        }
        let Some(o) = found else {
            if !d.can_open {
                if let Some(d) = delims.get_mut(closer) {
                    d.active = false;
                }
            }
            closer += 1;
            continue;
        };
        let op_remaining = delims.get(o).map_or(0, |op| op.end - op.start);
        let cl_remaining = d.end - d.start;
        let used = if op_remaining >= 2 && cl_remaining >= 2 {
            2
        } else {
            1
        };
        if let Some(op) = delims.get_mut(o) {
            for k in op.end - used..op.end {
                set(dropped, k);
            }
            op.end -= used;
            if op.end <= op.start {
                op.active = false;
            }
        }
        for between in delims.iter_mut().take(closer).skip(o + 1) {
            between.active = false;
        }
        if let Some(cl) = delims.get_mut(closer) {
            for k in cl.start..cl.start + used {
                set(dropped, k);
            }
            cl.start += used;
            if cl.end <= cl.start {
                cl.active = false;
                closer += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let raw = "## Decision #1 ##\ntext *a*\nwraps\n- item *one*\n  continues\n* item two\n+ three\n10. ten\n2) two\n| a | **b** |\n|---|---|\n| 1 | 2 |";
        assert_eq!(
            prose(raw),
            "Decision #1\ntext a wraps\n- item one continues\n* item two\n+ three\n10. ten\n2) two\n| a | b |\n|---|---|\n| 1 | 2 |"
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
        let blocks = fenced_blocks(raw);
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
        let blocks = fenced_blocks(raw);
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
        for block in fenced_blocks(raw) {
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
