//! Records (read once per run): the line index. Every place that turns a byte
//! offset into `line:column` — the claims' findings, rule-file errors, the
//! human, JSON, SARIF and GitHub reports — asks one [`LineIndex`], so all of
//! them agree on the column of a finding that follows a smart quote or a dash.

use miette::{MietteError, MietteSpanContents, NamedSource, SourceCode, SourceSpan, SpanContents};

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
/// bytes).
#[derive(Debug)]
pub struct IndexedSource {
    source: NamedSource<String>,
    lines: LineIndex,
}

impl IndexedSource {
    pub fn new(name: &str, text: String) -> Self {
        IndexedSource {
            lines: LineIndex::new(&text),
            source: NamedSource::new(name, text),
        }
    }

    /// The text read as `language` (for highlighting).
    pub fn with_language(mut self, language: &str) -> Self {
        self.source = self.source.with_language(language);
        self
    }
}

impl SourceCode for IndexedSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .source
            .read_span(span, context_lines_before, context_lines_after)?;
        let (_, column) = self
            .lines
            .line_col(self.source.inner(), inner.span().offset());
        let contents = match inner.name() {
            Some(name) => MietteSpanContents::new_named(
                name.to_owned(),
                inner.data(),
                *inner.span(),
                inner.line(),
                column - 1,
                inner.line_count(),
            ),
            None => MietteSpanContents::new(
                inner.data(),
                *inner.span(),
                inner.line(),
                column - 1,
                inner.line_count(),
            ),
        };
        Ok(Box::new(match inner.language() {
            Some(language) => contents.with_language(language),
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
}
