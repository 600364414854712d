//! Ground floor: the line index. Every place that turns a byte
//! offset into `line:column` — the claims' findings, rule-file errors, the
//! human, JSON, SARIF and GitHub reports — asks one [`LineIndex`], so all of
//! them agree on the column of a finding that follows a smart quote or a dash.

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Where each line of a text starts, so an offset's line is a binary search
/// rather than a scan from the top.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of every line; the first is always 0.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The text of 1-based line `line` of `text` (the text this index was
    /// built from), without its line break; `None` past the last line.
    pub fn line<'t>(&self, text: &'t str, line: usize) -> Option<&'t str> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        let end = self.starts.get(line).map_or(text.len(), |next| next - 1);
        let found = text.get(start..end)?;
        Some(found.strip_suffix('\r').unwrap_or(found))
    }

    /// 1-based line and 1-based column, counted in characters, of a byte
    /// offset of `text` (the text this index was built from). Offsets past the
    /// end are clamped; an offset inside a multi-byte character counts as that
    /// character.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0).min(offset);
        let column = text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }
}

/// A named text for miette whose reported column is the character column of
/// [`LineIndex`], so the `path:line:column` miette prints over a diagnostic
/// is the one the JSON, SARIF and GitHub reports give (miette's own counts
/// bytes). It reads only the lines around a span, found through the index —
/// miette's own reader walks the text from its start for every diagnostic,
/// which made a report of many findings in a large record quadratic.
#[derive(Debug, Clone)]
pub struct IndexedSource {
    name: String,
    text: Arc<str>,
    lines: Arc<LineIndex>,
    language: Option<String>,
    /// 0-based line, in the whole text, of this text's first line: non-zero for a
    /// window [`IndexedSource::around`] cut.
    first_line: usize,
    /// A window's span start (its offset here) and that offset's 0-based character
    /// column in the whole text, which cutting a line's start would change.
    span_column: Option<(usize, usize)>,
}

/// Most bytes of one line a diagnostic shows: a longer line is cut to a window
/// around what the span covers, the cut said (`… (N more bytes)`). A record's
/// 70,000-character line is shown as a few hundred bytes, not echoed whole (nor
/// handed to miette, whose padding to the span's column overflows past 65,535).
pub const LINE_WINDOW: usize = 240;

/// Lines of context kept either side of a span (miette shows one).
const CONTEXT_LINES: usize = 2;

/// Most lines of a span shown: a span over a whole file shows its start.
const SPAN_LINES: usize = 12;

impl IndexedSource {
    /// The snippet text and the name are shown as escaped by
    /// [`crate::escape`]: each control or bidi character of `text` becomes a
    /// visible placeholder of the same width, so spans still point where they did.
    pub fn new(name: &str, text: impl Into<Arc<str>>) -> Self {
        use crate::escape;
        let text: Arc<str> = text.into();
        let shown = match escape::same_width(&text) {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(shown) => Some(Arc::from(shown)),
        };
        let text = shown.unwrap_or(text);
        IndexedSource {
            name: escape::untrusted(name, escape::VALUE_CAP).into_owned(),
            lines: Arc::new(LineIndex::new(&text)),
            text,
            language: None,
            first_line: 0,
            span_column: None,
        }
    }

    /// The lines around `span` as a source of their own, each line longer than
    /// [`LINE_WINDOW`] cut to a window around the part of the span it holds, with
    /// the line numbers and the span's column of the whole text; and the span's
    /// place in it. What a diagnostic shows is then bounded whatever the text.
    pub fn around(&self, span: std::ops::Range<usize>) -> (IndexedSource, std::ops::Range<usize>) {
        use std::fmt::Write as _;
        let text: &str = &self.text;
        let floor = |mut at: usize| {
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let ceil = |mut at: usize| {
            while !text.is_char_boundary(at) {
                at += 1;
            }
            at
        };
        let start = floor(span.start.min(text.len()));
        let first = self.line_of(start);
        let last_line = self.line_of(span.end.saturating_sub(1).max(start).min(text.len()));
        let last = last_line.min(first + SPAN_LINES - 1);
        // Where a line's text ends (before its `\n`) and where the next begins.
        let line_end = |line: usize| {
            let next = self
                .lines
                .starts
                .get(line + 1)
                .copied()
                .unwrap_or(text.len());
            let content = if self.lines.starts.get(line + 1).is_some() {
                next - 1
            } else {
                next
            };
            (content, next)
        };
        let end = ceil(span.end.clamp(start, line_end(last).0.max(start)));
        let from = first.saturating_sub(CONTEXT_LINES);
        let to = (last + CONTEXT_LINES).min(self.lines.starts.len() - 1);
        let mut out = String::new();
        let (mut local_start, mut local_end) = (0, 0);
        for line in from..=to {
            let line_start = self.lines.starts[line];
            let (content_end, next) = line_end(line);
            let (a, b) = if (first..=last).contains(&line) {
                (
                    start.max(line_start),
                    end.min(content_end).max(start.max(line_start)),
                )
            } else {
                (line_start, line_start)
            };
            let (kept_from, kept_to) = if content_end - line_start <= LINE_WINDOW {
                (line_start, content_end)
            } else {
                let b = floor(b.min(a + LINE_WINDOW));
                let kept_from = floor(a.saturating_sub(LINE_WINDOW / 4).max(line_start));
                let kept_to = ceil(b.max(kept_from + LINE_WINDOW).min(content_end));
                (kept_from, kept_to)
            };
            if kept_from > line_start {
                let _ = write!(out, "({} bytes) … ", kept_from - line_start);
            }
            let here = |at: usize| out.len() + (at.clamp(kept_from, kept_to) - kept_from);
            if line == first {
                local_start = here(start);
            }
            if line == last {
                local_end = here(end);
            }
            out.push_str(&text[kept_from..kept_to]);
            if kept_to < content_end {
                let _ = write!(out, " … ({} more bytes)", content_end - kept_to);
            }
            out.push_str(&text[content_end..next]);
        }
        let column = self.lines.line_col(text, start).1 - 1;
        let local_end = local_end.max(local_start);
        let window = IndexedSource {
            name: self.name.clone(),
            lines: Arc::new(LineIndex::new(&out)),
            text: out.into(),
            language: self.language.clone(),
            first_line: self.first_line + from,
            span_column: Some((local_start, column)),
        };
        (window, local_start..local_end)
    }

    /// The text read as `language` (for highlighting).
    pub fn with_language(mut self, language: &str) -> Self {
        self.language = Some(language.to_owned());
        self
    }

    /// 0-based index of the line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.lines
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }
}

impl SourceCode for IndexedSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &'a str = &self.text;
        let start = span.offset();
        let end = start + span.len();
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        // The window: the span's lines with the context asked for, plus a
        // line either side so miette sees the same line breaks it would in
        // the whole text.
        let first = self.line_of(start);
        let last = self.line_of(end.saturating_sub(1).max(start));
        let from = first.saturating_sub(context_lines_before + 1);
        let to = last + context_lines_after + 2;
        let window_start = self.lines.starts.get(from).copied().unwrap_or(0);
        let window_end = self
            .lines
            .starts
            .get(to)
            .copied()
            .unwrap_or(text.len())
            .min(text.len());
        let window = text.get(window_start..window_end).unwrap_or("");
        let local = SourceSpan::from((start - window_start, span.len()));
        let inner = window.read_span(&local, context_lines_before, context_lines_after)?;
        let read_from = inner.span().offset() + window_start;
        let column = match self.span_column {
            Some((at, column)) if at == read_from => column,
            _ => self.lines.line_col(text, read_from).1 - 1,
        };
        let data: &'a [u8] = inner.data();
        let absolute = SourceSpan::from((read_from, inner.span().len()));
        let contents = MietteSpanContents::new_named(
            self.name.clone(),
            data,
            absolute,
            inner.line() + from + self.first_line,
            column,
            // miette counts every line break from the start of the text.
            inner.line_count() + from + self.first_line,
        );
        Ok(Box::new(match &self.language {
            Some(language) => contents.with_language(language.clone()),
            None => contents,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_col(text: &str, offset: usize) -> (usize, usize) {
        LineIndex::new(text).line_col(text, offset)
    }

    #[test]
    fn counts_lines_and_chars_from_one() {
        let raw = "ab\nçd ×e\n";
        assert_eq!(line_col(raw, 0), (1, 1));
        assert_eq!(line_col(raw, 2), (1, 3));
        assert_eq!(line_col(raw, 3), (2, 1));
        let e = raw.find('e').unwrap_or(0);
        assert_eq!(line_col(raw, e), (2, 5));
        // Inside a multi-byte char: that char's column.
        assert_eq!(line_col(raw, 4), (2, 1));
        assert_eq!(line_col(raw, raw.len()), (3, 1));
        assert_eq!(line_col(raw, 10_000), (3, 1));
        assert_eq!(line_col("", 0), (1, 1));
    }

    #[test]
    fn a_smart_quote_and_a_dash_are_one_column_each() {
        let raw = "x\n“a” — b";
        let b = raw.find('b').unwrap_or(0);
        assert_eq!(line_col(raw, b), (2, 7));
        assert_eq!(line_col("a\r\nb", 3), (2, 1));
    }

    #[test]
    fn miette_reads_the_character_column() {
        let text = "x\n“a” — b".to_string();
        let b = text.find('b').unwrap_or(0);
        let source = IndexedSource::new("r.md", text);
        let span = SourceSpan::from((b, 1));
        let contents = source.read_span(&span, 0, 0).map_err(|e| e.to_string());
        let contents = contents.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((contents.line() + 1, contents.column() + 1), (2, 7));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span_with_its_line_and_column() {
        let text = format!(
            "# title\n{} [x](gone.md) {}\nend\n",
            "a".repeat(70_000),
            "b".repeat(9_000)
        );
        let at = text.find("gone.md").unwrap_or(0);
        let source = IndexedSource::new("r.md", text.as_str());
        let (window, span) = source.around(at..at + 7);
        assert_eq!(&window.text[span.clone()], "gone.md");
        assert!(window.text.len() < 3 * LINE_WINDOW, "{}", window.text.len());
        assert!(window.text.contains("(69945 bytes) … "), "{}", window.text);
        assert!(
            window.text.contains(" more bytes)\nend\n"),
            "{}",
            window.text
        );
        let contents = window
            .read_span(&SourceSpan::from((span.start, span.len())), 0, 0)
            .map_err(|e| e.to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((contents.line() + 1, contents.column() + 1), (2, 70_006));
    }

    proptest::proptest! {
        /// A window shows the span's lines (each at most a window wide, the cut
        /// said), the span's own text when it fits one window, and the line and
        /// column of the whole text, whatever the text.
        #[test]
        fn a_window_is_bounded_and_keeps_the_span_and_its_place(
            lines in proptest::collection::vec("[a-zé ]{0,600}", 1..12),
            pick in 0usize..10_000,
            len in 0usize..400,
        ) {
            let text = lines.join("\n");
            let start = (pick % (text.len() + 1)).min(text.len());
            let mut start = start;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + len).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let source = IndexedSource::new("r.md", text.as_str());
            let (window, span) = source.around(start..end);
            for line in window.text.split('\n') {
                proptest::prop_assert!(line.len() <= 2 * LINE_WINDOW + 48, "{}", line.len());
            }
            let one_line = !text[start..end].contains('\n');
            if one_line && end - start <= LINE_WINDOW {
                proptest::prop_assert_eq!(&window.text[span.clone()], &text[start..end]);
            }
            let contents = window
                .read_span(&SourceSpan::from((span.start, span.len())), 0, 0)
                .map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
            let (line, column) = line_col(&text, start);
            proptest::prop_assert_eq!((contents.line() + 1, contents.column() + 1), (line, column));
        }
    }

    proptest::proptest! {
        /// Reading only a window around the span gives miette what its own
        /// reader gives from the whole text: the same lines, span, line and
        /// line count.
        /// With `\r\n` line ends miette's own reader can place a span a line
        /// early; there the window's line is the line index's, which every
        /// other report format uses.
        #[test]
        fn a_windowed_read_is_what_miette_reads(
            lines in proptest::collection::vec("[a-z ]{0,12}", 1..30),
            crlf in proptest::bool::ANY,
            at in 0usize..400,
            len in 0usize..30,
            before in 0usize..4,
            after in 0usize..4,
        ) {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let start = at.min(text.len());
            let len = len.min(text.len() - start);
            let span = SourceSpan::from((start, len));
            let ours = IndexedSource::new("r.md", text.as_str());
            let theirs = miette::NamedSource::new("r.md", text.clone());
            let a = ours.read_span(&span, before, after).expect("ours reads");
            let b = theirs.read_span(&span, before, after).expect("miette reads");
            if crlf {
                let (line, _) = LineIndex::new(&text).line_col(&text, start);
                let data = std::str::from_utf8(a.data()).expect("utf-8");
                proptest::prop_assert!(a.span().offset() <= start);
                proptest::prop_assert!(data.len() >= len);
                proptest::prop_assert!(a.line() < line);
            } else {
                proptest::prop_assert_eq!(a.data(), b.data());
                proptest::prop_assert_eq!(a.span(), b.span());
                proptest::prop_assert_eq!(a.line(), b.line());
                proptest::prop_assert_eq!(a.line_count(), b.line_count());
                // The column is the line index's on purpose (miette's own
                // resets to 0 when it reads lines after the span).
                let (_, column) = LineIndex::new(&text).line_col(&text, a.span().offset());
                proptest::prop_assert_eq!(a.column() + 1, column);
            }
        }
    }
}
