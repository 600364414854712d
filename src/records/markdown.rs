//! Records (read once per run): the Markdown structure of a record. One pass
//! over pulldown-cmark's events, each with the raw byte range it came from,
//! yields everything the later stages ask of a record's Markdown — fenced and
//! indented code, front matter, headings, code spans, link targets, HTML — and,
//! from the same events, the prose view claims are matched on. Claims,
//! citations and frames therefore all agree on what is code and what is prose.

use std::ops::Range;

use pulldown_cmark::{
    BrokenLink, CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd,
};

use super::prose::{self, ProseView};

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
    /// the end of the record (or of its container) unclosed.
    pub close: Option<Range<usize>>,
}

impl FencedBlock {
    /// Raw range from the opening fence to the closing one (or the last line).
    pub fn region(&self) -> Range<usize> {
        let last_line = self.lines.last().map_or(self.open.end, |(r, _)| r.end);
        let end = self
            .close
            .as_ref()
            .map_or(last_line, |close| close.end)
            .max(self.open.end);
        self.open.start..end
    }
}

/// A heading: its level (1–6) and the raw range of the whole heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: usize,
    pub range: Range<usize>,
}

/// An inline code span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSpan {
    /// Raw range of the whole span, backticks included.
    pub range: Range<usize>,
    /// Raw range between the backtick runs, as written (no space stripped).
    pub content: Range<usize>,
    /// Length of the backtick run that opens it.
    pub ticks: usize,
}

/// A link or image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Where it points (empty for a reference with no definition).
    pub destination: String,
    /// Raw range of the link text (the alt text of an image).
    pub text: Range<usize>,
}

/// A cross-reference to a label (`:ref:`intro``, `:ref:`the intro <intro>``).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelRef {
    /// Lower-cased, runs of whitespace one space (docutils' normalised name).
    pub label: String,
    pub text: Range<usize>,
}

/// A Sphinx document reference (`:doc:`usage``, a `toctree` entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocRef {
    /// The document's name as written, without a source suffix (`usage`,
    /// `../api/index`, `/install` from the source folder).
    pub document: String,
    pub text: Range<usize>,
}

/// A Python role's target (`:class:`~pkg.Client``): `~` and a trailing `()`
/// dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyRef {
    /// `mod`, `func`, `class`, `meth`, `attr`, `exc`, `data` or `obj`.
    pub role: String,
    pub target: String,
    /// The `.. module::` or `.. currentmodule::` in effect, if any.
    pub module: Option<String>,
    pub text: Range<usize>,
}

/// The Markdown structure of a record, every range in raw bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Markdown {
    pub fenced: Vec<FencedBlock>,
    /// Indented code blocks.
    pub indented: Vec<Range<usize>>,
    /// The YAML front matter block, `---` lines included.
    pub front_matter: Option<Range<usize>>,
    pub headings: Vec<Heading>,
    pub code_spans: Vec<CodeSpan>,
    pub links: Vec<Link>,
    /// HTML blocks, inline HTML and HTML comments.
    pub html: Vec<Range<usize>>,
    /// Text the page does not render (a reStructuredText comment, markup an
    /// HTML comment leaves out): no citation is read in it.
    pub unrendered: Vec<Range<usize>>,
    /// Link reference definitions (`[label]: https://…`), in order: a link
    /// that uses one is read where it is used; the definition's own text is
    /// rendered nowhere.
    pub definitions: Vec<Range<usize>>,
    /// Cross-references by label (reStructuredText's `:ref:` and `:numref:`):
    /// the label, normalised as Sphinx compares labels, and the raw range of
    /// the target as written.
    pub label_refs: Vec<LabelRef>,
    /// Cross-references to Python objects (`:func:`pkg.mod.run``): the
    /// target as Sphinx reads it and the module in effect where it is written.
    pub py_refs: Vec<PyRef>,
    /// Sphinx document references (`:doc:`usage``, a `toctree` entry): the
    /// document's name and the raw range of the name as written.
    pub doc_refs: Vec<DocRef>,
    /// Every block a suppression directive may apply to (paragraphs, headings,
    /// list items, tables, code blocks, block quotes, HTML blocks), in document
    /// order of where each starts; containers come before what they hold.
    pub blocks: Vec<Block>,
    /// Set when a reStructuredText record was read as plain text (as
    /// Markdown) instead, too deep or too costly for its reader: why, in words.
    pub read_plain: Option<String>,
}

/// A block of a record: its raw range and what kind of block it is (an HTML
/// block may itself be a directive rather than something a directive applies
/// to; a paragraph's frame marker reaches the list or table it introduces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub range: Range<usize>,
    pub kind: BlockKind,
}

/// What a [`Block`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Paragraph,
    Heading,
    /// A list item.
    Item,
    /// A whole list (reStructuredText's reader gives these; Markdown's gives
    /// the items alone).
    List,
    Table,
    Code,
    Quote,
    Html,
}

impl Block {
    pub fn is_html(&self) -> bool {
        self.kind == BlockKind::Html
    }
}

impl Markdown {
    /// Whether `at` is in a link reference definition (they are in order
    /// and do not overlap: found by halving).
    pub fn in_definition(&self, at: usize) -> bool {
        let after = self.definitions.partition_point(|r| r.start <= at);
        after
            .checked_sub(1)
            .is_some_and(|i| self.definitions[i].contains(&at))
    }

    pub fn new(raw: &str) -> Self {
        parse_with(raw, false).0
    }

    /// Whether the raw byte `at` lies in a fenced or indented code block.
    pub fn in_code(&self, at: usize) -> bool {
        self.fenced.iter().any(|b| b.region().contains(&at))
            || self.indented.iter().any(|r| r.contains(&at))
    }

    /// Raw ranges of the fenced blocks, fence lines included, in order.
    pub fn fence_regions(&self) -> Vec<Range<usize>> {
        self.fenced.iter().map(FencedBlock::region).collect()
    }

    /// The sections of `raw` a heading names as an example of output
    /// ("Example Report", "Sample output", "Example response"): what a run
    /// would print, shown as a block of output is, whose `path:line`s are
    /// the example's.
    pub fn example_output_sections(&self, raw: &str) -> Vec<Range<usize>> {
        use std::sync::OnceLock;
        static TITLE: OnceLock<regex::Regex> = OnceLock::new();
        let title = TITLE.get_or_init(|| {
            regex::Regex::new(r"(?i)^(?:an?\s+)?(?:example|sample)s?\s+(?:of\s+(?:the\s+|an?\s+)?)?(?:report|output|response|result|run|log|review|comment)s?\b")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        self.headings
            .iter()
            .enumerate()
            .filter(|(_, heading)| {
                raw.get(heading.range.clone()).is_some_and(|text| {
                    let line = text.lines().next().unwrap_or_default();
                    let line = line.trim_start_matches('#').trim().trim_matches(['*', '_']);
                    title.is_match(line)
                })
            })
            .map(|(at, heading)| {
                let end = self.headings[at + 1..]
                    .iter()
                    .find(|next| next.level <= heading.level)
                    .map_or(raw.len(), |next| next.range.start);
                heading.range.start..end
            })
            .collect()
    }

    /// The HTML blocks of `raw` that are preformatted text (`<pre …>` …
    /// `</pre>`): a page's pasted terminal output, rendered as a code block
    /// is (a test run's stack frame `lib/index.mjs:11:43` is the example's
    /// file, not a citation).
    pub fn preformatted(&self, raw: &str) -> Vec<Range<usize>> {
        self.html
            .iter()
            .filter(|range| {
                raw.get((*range).clone()).is_some_and(|text| {
                    let text = text.trim_start();
                    text.get(..4)
                        .is_some_and(|open| open.eq_ignore_ascii_case("<pre"))
                        && text[4..].starts_with(['>', ' ', '\t', '\n'])
                })
            })
            .cloned()
            .collect()
    }
}

/// Parses a record once: its Markdown structure and its prose view.
pub fn parse(raw: &str) -> (Markdown, ProseView) {
    let (markdown, prose) = parse_with(raw, true);
    (markdown, prose.unwrap_or_else(|| ProseView::new("")))
}

/// `raw` with the tabs after a bare code fence (a "```\t" line) turned into
/// spaces, byte for byte: GitHub's parser closes a fence there, pulldown-cmark
/// does not, and a fence left open swallows every heading below it.
pub fn fences_without_trailing_tabs(raw: &str) -> std::borrow::Cow<'_, str> {
    let is_tabbed_fence = |line: &str| {
        let body = line.trim_end_matches(['\n', '\r']);
        let bare = body.trim_end_matches([' ', '\t']);
        let marks = bare.trim_start_matches(' ');
        bare.len() != body.len()
            && body[bare.len()..].contains('\t')
            && bare.len() - marks.len() <= 3
            && marks.len() >= 3
            && (marks.bytes().all(|b| b == b'`') || marks.bytes().all(|b| b == b'~'))
    };
    if !raw.split_inclusive('\n').any(is_tabbed_fence) {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    for line in raw.split_inclusive('\n') {
        if is_tabbed_fence(line) {
            out.push_str(&line.replace('\t', " "));
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A page's front matter: a `---` first line up to the next `---` or `...`
/// line, the closing line included. Only the page's start holds one; a `---`
/// pair further down is two thematic breaks, as every renderer reads them.
pub fn front_matter(raw: &str) -> Option<Range<usize>> {
    let mut lines = raw.split_inclusive('\n');
    let first = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut end = first.len();
    for line in lines {
        end += line.len();
        if matches!(line.trim_end(), "---" | "...") {
            return Some(0..end);
        }
    }
    None
}

/// The text to parse as Markdown, with its front matter (if any) blanked to
/// spaces, offsets kept: the parser reads metadata blocks anywhere in a page
/// when asked to read them at all, so it is never asked.
pub fn parse_text(raw: &str) -> (std::borrow::Cow<'_, str>, Option<Range<usize>>) {
    let raw = fences_without_trailing_tabs(raw);
    let Some(matter) = front_matter(&raw) else {
        return (raw, None);
    };
    let mut bytes = raw.as_bytes().to_vec();
    for byte in &mut bytes[matter.clone()] {
        if *byte != b'\n' && *byte != b'\r' {
            *byte = b' ';
        }
    }
    // Every byte replaced was of the front matter, wholly, so the text stays
    // UTF-8; a failure here would be a bug, and the page is then read whole.
    match String::from_utf8(bytes) {
        Ok(text) => (std::borrow::Cow::Owned(text), Some(matter)),
        Err(_) => (raw, None),
    }
}

/// Parses a record: its Markdown structure, and its prose view when asked for
/// (building the view costs more than the parse; citations need only the
/// structure).
pub fn parse_with(raw: &str, with_prose: bool) -> (Markdown, Option<ProseView>) {
    let original = raw;
    let (normalized, matter) = parse_text(raw);
    let raw: &str = &normalized;
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // `[text][label]` reads as a link even when `label` is defined nowhere:
    // records cite ADRs that way and mean the words. A bare `[x]` stays
    // bracketed prose unless it is defined.
    let mut broken = |link: BrokenLink<'_>| match link.link_type {
        LinkType::Shortcut => None,
        _ => Some((CowStr::Borrowed(""), CowStr::Borrowed(""))),
    };
    let parser = Parser::new_with_broken_link_callback(raw, options, Some(&mut broken));
    let mut definitions: Vec<Range<usize>> = parser
        .reference_definitions()
        .iter()
        .map(|(_, def)| def.span.clone())
        .collect();
    definitions.sort_by_key(|r| r.start);
    let mut structure = Collector::new(raw);
    let mut view = with_prose.then(|| prose::Builder::new(raw, definitions.clone()));
    for (event, range) in parser.into_offset_iter() {
        structure.event(&event, range.clone());
        if let Some(view) = view.as_mut() {
            view.event(&event, range);
        }
    }
    let mut markdown = structure.finish();
    markdown.front_matter = matter;
    markdown.definitions = definitions;
    super::myst::read(raw, &mut markdown);
    // A code block's lines are the record's own bytes: a tabbed fence line
    // inside another block was made spaces only for the parser's sake.
    if let std::borrow::Cow::Owned(_) = normalized {
        for block in &mut markdown.fenced {
            for (range, text) in &mut block.lines {
                if let Some(own) = original.get(range.clone()) {
                    *text = own.to_owned();
                }
            }
        }
    }
    (markdown, view.map(prose::Builder::finish))
}

/// Gathers the [`Markdown`] structure from the event stream.
struct Collector<'a> {
    raw: &'a str,
    md: Markdown,
    /// The fenced block being read, and the byte its fence is made of.
    fence: Option<(FencedBlock, u8, usize)>,
    /// Indices (in `md.links`) of the links being read, innermost last.
    links: Vec<usize>,
    link_started: Vec<bool>,
}

impl<'a> Collector<'a> {
    fn new(raw: &'a str) -> Self {
        Collector {
            raw,
            md: Markdown::default(),
            fence: None,
            links: Vec::new(),
            link_started: Vec::new(),
        }
    }

    fn event(&mut self, event: &Event<'_>, range: Range<usize>) {
        let raw = self.raw;
        if matches!(
            event,
            Event::Text(_)
                | Event::Code(_)
                | Event::InlineHtml(_)
                | Event::SoftBreak
                | Event::HardBreak
        ) {
            for (&index, started) in self.links.iter().zip(self.link_started.iter_mut()) {
                if let Some(link) = self.md.links.get_mut(index) {
                    if *started {
                        link.text.end = link.text.end.max(range.end);
                    } else {
                        link.text = range.clone();
                        *started = true;
                    }
                }
            }
        }
        if let Event::Start(
            tag @ (Tag::Paragraph
            | Tag::Heading { .. }
            | Tag::Item
            | Tag::Table(_)
            | Tag::CodeBlock(_)
            | Tag::BlockQuote(_)
            | Tag::HtmlBlock),
        ) = event
        {
            let kind = match tag {
                Tag::Paragraph => BlockKind::Paragraph,
                Tag::Heading { .. } => BlockKind::Heading,
                Tag::Item => BlockKind::Item,
                Tag::Table(_) => BlockKind::Table,
                Tag::CodeBlock(_) => BlockKind::Code,
                Tag::BlockQuote(_) => BlockKind::Quote,
                _ => BlockKind::Html,
            };
            self.md.blocks.push(Block {
                range: range.clone(),
                kind,
            });
        }
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let open_end = line_end(raw, range.start);
                let marker = raw.as_bytes().get(range.start).copied().unwrap_or(b'`');
                let len = raw
                    .get(range.start..open_end)
                    .map_or(3, |s| s.bytes().take_while(|&b| b == marker).count());
                let block = FencedBlock {
                    info: info.trim().to_string(),
                    lines: Vec::new(),
                    open: range.start..trim_end(raw, range.start, open_end),
                    close: None,
                };
                self.fence = Some((block, marker, len));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)) => {
                self.md.indented.push(range);
            }
            Event::Text(_) if self.fence.is_some() => {
                if let Some((block, _, _)) = self.fence.as_mut() {
                    push_lines(raw, range, &mut block.lines);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((mut block, marker, len)) = self.fence.take() {
                    let last_start = raw
                        .get(..range.end)
                        .and_then(|s| s.trim_end_matches(['\n', '\r']).rfind('\n'))
                        .map_or(range.start, |i| i + 1);
                    let last_end = line_end(raw, last_start);
                    let last = raw.get(last_start..last_end).unwrap_or("");
                    let content = last.trim_start_matches([' ', '\t', '>']);
                    let run = content.bytes().take_while(|&b| b == marker).count();
                    let is_close = last_start > block.open.start
                        && run >= len
                        && content.get(run..).is_some_and(|r| r.trim().is_empty());
                    if is_close {
                        let start = last_end - content.len();
                        block.close = Some(start..trim_end(raw, start, last_end));
                        // A closing fence is never a content line, even when
                        // the last text event reached into it.
                        block.lines.retain(|(r, _)| r.start < last_start);
                    }
                    self.md.fenced.push(block);
                }
            }
            Event::Start(Tag::Heading { level, .. }) => self.md.headings.push(Heading {
                level: *level as usize,
                range,
            }),
            Event::Code(_) => {
                let ticks = raw
                    .get(range.clone())
                    .map_or(0, |s| s.bytes().take_while(|&b| b == b'`').count());
                let content = (range.start + ticks)..range.end.saturating_sub(ticks);
                let content = content.start..content.end.max(content.start);
                self.md.code_spans.push(CodeSpan {
                    range,
                    content,
                    ticks,
                });
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                self.links.push(self.md.links.len());
                // Empty until the first piece of link text arrives.
                self.md.links.push(Link {
                    destination: dest_url.to_string(),
                    text: range.end..range.end,
                });
                self.link_started.push(false);
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                self.links.pop();
                self.link_started.pop();
            }
            Event::Start(Tag::HtmlBlock) | Event::InlineHtml(_) => {
                // Markup an HTML comment leaves out (an image disabled as
                // `<!--![demo](…/demo.gif)-->`) renders nothing and is read
                // by no one: no citation is read in it. A comment of prose
                // speaks to whoever edits the page (a pull request
                // template's "Please read our [guide](…)"), and its links
                // are followed from the editor.
                let mut from = range.start;
                while let Some(open) = raw.get(from..range.end).and_then(|t| t.find("<!--")) {
                    let start = from + open;
                    let end = raw
                        .get(start + 4..)
                        .and_then(|t| t.find("-->"))
                        .map_or(raw.len(), |close| start + 4 + close + 3);
                    let body = raw.get(start + 4..end).unwrap_or_default().trim_start();
                    if body.starts_with("![") || body.starts_with('[') || body.starts_with('<') {
                        self.md.unrendered.push(start..end);
                    }
                    from = end;
                }
                self.md.html.push(range)
            }
            _ => {}
        }
    }

    fn finish(self) -> Markdown {
        self.md
    }
}

/// Splits a code text event into its lines: raw range (terminator excluded)
/// and the raw text, so a line's text is always exactly its bytes.
pub(crate) fn push_lines(raw: &str, range: Range<usize>, lines: &mut Vec<(Range<usize>, String)>) {
    let mut start = range.start;
    while start < range.end {
        let newline = raw
            .get(start..range.end)
            .and_then(|s| s.find('\n'))
            .map(|i| start + i);
        let (end, next) = match newline {
            Some(n) => (n, n + 1),
            None => (range.end, range.end),
        };
        let end = if end > start && raw.as_bytes().get(end - 1) == Some(&b'\r') {
            end - 1
        } else {
            end
        };
        if let Some(text) = raw.get(start..end) {
            lines.push((start..end, text.to_string()));
        }
        start = next;
    }
}

/// End of the line holding `at`, terminator excluded.
pub(crate) fn line_end(raw: &str, at: usize) -> usize {
    let end = raw
        .get(at..)
        .and_then(|s| s.find('\n'))
        .map_or(raw.len(), |i| at + i);
    if end > at && raw.as_bytes().get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    }
}

pub(crate) fn trim_end(raw: &str, start: usize, end: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut e = end;
    while e > start && matches!(bytes.get(e - 1), Some(b' ' | b'\t')) {
        e -= 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_an_html_comment_leaves_out_is_text_the_page_does_not_render() {
        let raw = "# Demo\n\n<!--![demo.gif](https://example.org/demo.gif)-->\n\nSee `src/app.rs` <!-- [old](src/old.rs) --> now.\n\n<!--\nPlease read our [guide](CONTRIBUTING.md) first.\n-->\n";
        let (md, _) = parse(raw);
        let hidden: Vec<&str> = md.unrendered.iter().map(|r| &raw[r.clone()]).collect();
        assert_eq!(
            hidden,
            [
                "<!--![demo.gif](https://example.org/demo.gif)-->",
                "<!-- [old](src/old.rs) -->"
            ]
        );
        assert!(
            !md.unrendered
                .iter()
                .any(|r| r.contains(&raw.find("src/app.rs").unwrap()))
        );
    }
}
