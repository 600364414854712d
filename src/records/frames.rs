//! Stage 2 of the pipeline (records): the frames a record declares — "measured
//! on 2026-09-12 against `be977ea7`", an amendment heading's date — and the part
//! of the record each one governs. The frames stage resolves what they name;
//! the citations, transcripts and `recount init` read which one governs a
//! place here, so every stage scopes a frame alike.
//!
//! How far a declaration reaches follows how records are written:
//!
//! - **A heading** that holds a marker, or an amendment heading ("Amendment 1
//!   — … (2026-09-14)", "Addendum, 2026-09-15") that gives a date or a commit,
//!   governs its section and the subsections under it.
//! - **A marker in a section's prose**, in the first sentence of a paragraph of
//!   its own, governs the rest of that section and its subsections.
//! - **A marker in a paragraph** — later than its first sentence, in a list
//!   item, a table or a quote, or in one of a run of paragraphs that each name
//!   a frame (a block listing which figure was measured where) — governs that
//!   paragraph (the item, the row) and, when the paragraph ends with a colon,
//!   the lists, tables and code blocks it introduces.
//!
//! Where two reach one place, the one that starts later (the nearer) governs.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::markdown::{BlockKind, Markdown};
use crate::snapshot::Day;

/// The markers a record uses to name what it was measured at, in every order
/// records write them: "measured on DATE against SHA", "Measured at SHA on
/// DATE", "Measured DATE at SHA", "measured at SHA", "as of SHA", "as of HEAD
/// SHA", "measured on DATE", "verified against the working tree on DATE".
/// The `sha` group is the commit; `date` or `date_after` the day, which stands
/// in for the commit when it is gone. Word edges and spaces are ASCII:
/// a Unicode `\b` or `\s` takes the regex engine off its DFA on every page
/// with a non-ASCII character.
pub const DEFAULT_FRAME_PATTERN: &str = r"(?i)(?:(?-u:\b)(?:measured|verified|audited|planned|as[ \t\n]+of)|(?:(?-u:\b)(?:main|master|trunk|HEAD)|`[A-Za-z0-9_.-]{1,100}`)[ \t]*@)(?:[ \t\n]+against[ \t\n]+(?:the[ \t\n]+)?(?:working[ \t\n]+tree|tree|code(?:base)?|repository))?(?:[ \t\n]+on)?[ \t\n]+(?:`?(?<date>\d{4}-\d{2}-\d{2})`?(?:,?[ \t\n]+(?:at|against|on)(?:[ \t\n]+commit)?:?[ \t\n]+)?|(?:at|against|on)[*_]{0,2}(?:[ \t\n]+commit)?:?[*_]{0,2}:?[ \t\n]+)?(?:(?:HEAD|commit)[ \t\n]+)?(?:`?(?<sha>[0-9a-f]{7,40})(?-u:\b)`?(?:,?[ \t\n]+(?:on[ \t\n]+)?`?(?<date_after>\d{4}-\d{2}-\d{2})(?-u:\b))?)?";

/// Whether a list item is a field (`- **Planned at**: …`, `- Status: open`):
/// a name of a few words and a colon, as front matter writes one.
fn is_field(item: &str) -> bool {
    let item = item
        .trim_start()
        .trim_start_matches(['-', '*', '+'])
        .trim_start();
    item.find(':').is_some_and(|colon| {
        let name = item[..colon].trim_matches(['*', '_', ' ']);
        !name.is_empty()
            && name.split_whitespace().count() <= 4
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == ' ' || c == '-')
    })
}

/// Whether the line holding `at` is one of a run of two or more list items,
/// every one a field (`- **Risk**: LOW`, `- **Planned at**: …`): a page's
/// metadata written as a list.
fn in_field_list(raw: &str, at: usize) -> bool {
    const MAX_FIELDS: usize = 64;
    let start = raw
        .get(..at)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |i| i + 1);
    let item = |line: &str| {
        let t = line.trim_start();
        t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ")
    };
    let above = raw[..start]
        .lines()
        .rev()
        .take_while(|l| item(l))
        .take(MAX_FIELDS);
    let below = raw[start..]
        .lines()
        .take_while(|l| item(l))
        .take(MAX_FIELDS);
    let run: Vec<&str> = above.chain(below).collect();
    run.len() >= 2 && run.iter().all(|line| is_field(line))
}

/// The frame a page's front matter pins it to: the last key whose name
/// holds `commit` and whose value is a commit id (`source_commit: 53b76e6d`,
/// `target_doc_source_commit_after: ec47ea72…`), governing the page below
/// the front matter. A generated report that records the commit its
/// evidence was read at is read there.
fn front_matter_commit(raw: &str, markdown: &Markdown) -> Option<DeclaredFrame> {
    static KEY: OnceLock<Regex> = OnceLock::new();
    let key = KEY.get_or_init(|| {
        Regex::new(r#"(?im)^[ \t]*[A-Za-z0-9_-]*commit[A-Za-z0-9_-]*[ \t]*:[ \t]*["']?(?<sha>[0-9a-f]{7,40})["']?[ \t]*$"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let block = markdown.front_matter.clone()?;
    let text = raw.get(block.clone())?;
    // A translation's `default_lang_commit` (an upstream's commit) names
    // another page's commit, the one the text was carried over from: not
    // what this page describes.
    let another = |line: &str| {
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        ["lang", "translat", "upstream", "vendor"]
            .iter()
            .any(|w| name.contains(w))
    };
    let caps = key
        .captures_iter(text)
        .filter(|c| !another(c.get(0).map_or("", |m| m.as_str())))
        .last()?;
    let sha = caps.name("sha")?;
    let at = block.start + caps.get(0)?.start();
    Some(DeclaredFrame {
        at,
        sha: Some((
            sha.as_str().to_owned(),
            block.start + sha.start()..block.start + sha.end(),
        )),
        date: None,
        by: Declaration::FrontMatter,
        governs: block.end..raw.len(),
    })
}

/// Words that make a dated heading (or a paragraph that opens so, in a record
/// without headings) an amendment: its own frame, the day it was written.
pub const AMENDMENT_WORDS: &[&str] = &[
    "amendment",
    "addendum",
    "erratum",
    "errata",
    "update",
    "correction",
    "revision",
    "postscript",
];

/// How far into a paragraph its opening words are looked for an amendment
/// word and a date, in bytes.
const OPENING_BYTES: usize = 200;

/// What declared a frame, and so how far it reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Declaration {
    /// A heading holding a marker, or an amendment heading with a date or a
    /// commit: its section.
    Heading,
    /// A marker opening a paragraph of a section's prose: the rest of the
    /// section.
    Section,
    /// A marker inside a paragraph, item or row: that block and what it
    /// introduces.
    Paragraph,
    /// A key of the page's front matter that names the commit the page was
    /// written against (`source_commit: 53b76e6d`): the whole page, kept
    /// only when the commit is this repository's.
    FrontMatter,
}

impl Declaration {
    pub fn as_str(self) -> &'static str {
        match self {
            Declaration::Heading => "heading",
            Declaration::Section => "section marker",
            Declaration::Paragraph => "paragraph marker",
            Declaration::FrontMatter => "front matter",
        }
    }
}

/// One frame a record declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredFrame {
    /// Where the declaration is written (the marker, or the heading).
    pub at: usize,
    /// The commit it names, as written.
    pub sha: Option<(String, Range<usize>)>,
    /// The day it gives, as written.
    pub date: Option<(Day, Range<usize>)>,
    pub by: Declaration,
    /// The raw bytes it governs.
    pub governs: Range<usize>,
}

impl DeclaredFrame {
    /// How the citation and transcript findings name the frame: its sha; its
    /// date when it gives no sha; `SHA@DATE` when it gives both, since the
    /// date stands in for the sha when that commit is gone.
    pub fn key(&self) -> String {
        match (&self.sha, &self.date) {
            (Some((sha, _)), Some((day, _))) => format!("{sha}@{day}"),
            (Some((sha, _)), None) => sha.clone(),
            (None, Some((day, _))) => day.to_string(),
            (None, None) => String::new(),
        }
    }

    /// Whether the sha it names is all digits: a commit only if one has it.
    pub fn numeric(&self) -> bool {
        self.sha
            .as_ref()
            .is_some_and(|(sha, _)| sha.bytes().all(|b| b.is_ascii_digit()))
    }

    /// What is shown for it, and where a frame-unresolved finding underlines:
    /// the sha when it gives one, else the date.
    pub fn shown(&self) -> (String, Range<usize>) {
        match (&self.sha, &self.date) {
            (Some((sha, span)), _) => (sha.clone(), span.clone()),
            (None, Some((day, span))) => (day.to_string(), span.clone()),
            (None, None) => (String::new(), self.at..self.at),
        }
    }
}

/// The frames one record declares, and which governs each place.
#[derive(Debug, Clone, Default)]
pub struct RecordFrames {
    declared: Vec<DeclaredFrame>,
    /// Consecutive stretches of the record and the frame governing each
    /// (an index into `declared`), sorted and disjoint.
    governed: Vec<(Range<usize>, usize)>,
}

impl RecordFrames {
    /// The frames `raw` declares with `pattern` (whose `sha`, `date` and
    /// `date_after` groups name the commit and the day). Markers quoted in code
    /// frame nothing.
    pub fn read(raw: &str, markdown: &Markdown, pattern: &Regex) -> Self {
        // Most records declare no frame: they cost one pass of the pattern
        // and a look at their headings and paragraph openings, no layout.
        let may_amend = || {
            markdown.headings.iter().any(|h| {
                raw.get(h.range.clone())
                    .is_some_and(|text| amendment_parts(text, 0).is_some())
            }) || markdown.blocks.iter().any(|b| {
                b.kind == BlockKind::Paragraph
                    && amendment_opening(raw, &b.range)
                        .is_some_and(|opening| amendment_parts(opening, 0).is_some())
            })
        };
        let pinned = front_matter_commit(raw, markdown);
        if pinned.is_none() && !pattern.is_match(raw) && !may_amend() {
            return RecordFrames::default();
        }
        let layout = Layout::new(raw, markdown);
        let mut declared: Vec<DeclaredFrame> = pinned.into_iter().collect();
        let mut in_headings: Vec<usize> = Vec::new();
        for caps in pattern.captures_iter(raw) {
            let Some(whole) = caps.get(0) else {
                continue;
            };
            // A marker quoted as code (a block, or a span holding the whole
            // phrase: `measured at be977ea7`) is an example, not a declaration.
            if markdown.in_code(whole.start())
                || markdown
                    .code_spans
                    .iter()
                    .any(|span| span.content.contains(&whole.start()))
            {
                continue;
            }
            // All digits may be a commit id (one in forty short ids is) or a
            // number (`measured at 1000000 requests`): the frames stage keeps
            // it only when it names a commit (`retain`).
            let sha = caps
                .name("sha")
                .filter(|m| !m.as_str().is_empty())
                .map(|m| (m.as_str().to_owned(), m.range()));
            let date = ["date", "date_after"].iter().find_map(|name| {
                let m = caps.name(name)?;
                Some((Day::parse(m.as_str())?, m.range()))
            });
            if sha.is_none() && date.is_none() {
                continue;
            }
            let qualifier = whole
                .as_str()
                .get(..2)
                .is_some_and(|w| w.eq_ignore_ascii_case("as"));
            let (by, governs) = layout.reach(whole.start(), qualifier);
            if by == Declaration::Heading {
                in_headings.push(governs.start);
            }
            declared.push(DeclaredFrame {
                at: whole.start(),
                sha,
                date,
                by,
                governs,
            });
        }
        for amendment in layout.amendments() {
            if !in_headings.contains(&amendment.governs.start) {
                declared.push(amendment);
            }
        }
        layout.demote_runs(&mut declared);
        declared.sort_by_key(|d| (d.governs.start, d.at));
        let governed = sweep(&declared);
        RecordFrames { declared, governed }
    }

    /// Keeps the declarations `keep` accepts, and lets the others govern
    /// nothing: an all-digit "sha" that names no commit is a number.
    pub fn retain(&mut self, keep: impl FnMut(&DeclaredFrame) -> bool) {
        self.declared.retain(keep);
        self.governed = sweep(&self.declared);
    }

    /// Every frame the record declares, in the order they start.
    pub fn declared(&self) -> &[DeclaredFrame] {
        &self.declared
    }

    /// The frame governing raw offset `at`: of those that reach it, the one
    /// that starts nearest before it.
    pub fn at(&self, at: usize) -> Option<&DeclaredFrame> {
        let i = self.governed.partition_point(|(r, _)| r.end <= at);
        let (range, index) = self.governed.get(i)?;
        if range.contains(&at) {
            self.declared.get(*index)
        } else {
            None
        }
    }
}

/// A record's headings and blocks, arranged so each question a marker asks
/// (which block holds it, where its section ends) costs a walk up the nesting,
/// not a pass over the record: a page of 64,000 markers stays linear.
struct Layout<'a> {
    raw: &'a str,
    markdown: &'a Markdown,
    /// Each heading's line start, its raw range and where its section ends,
    /// in text order.
    headings: Vec<(usize, Range<usize>, usize)>,
    /// Block indices sorted by start, containers before what they hold.
    order: Vec<usize>,
    /// Per position in `order`: the position of the block holding it.
    parent: Vec<Option<usize>>,
}

impl<'a> Layout<'a> {
    fn new(raw: &'a str, markdown: &'a Markdown) -> Self {
        let lines: Vec<(usize, usize, Range<usize>)> = markdown
            .headings
            .iter()
            .map(|h| {
                let line_start = raw
                    .get(..h.range.start)
                    .and_then(|s| s.rfind('\n'))
                    .map_or(0, |i| i + 1);
                (line_start, h.level, h.range.clone())
            })
            .collect();
        // A section ends at the next heading of its level or higher.
        let mut ends = vec![raw.len(); lines.len()];
        let mut open: Vec<usize> = Vec::new();
        for (i, &(start, level, _)) in lines.iter().enumerate() {
            while let Some(&top) = open.last() {
                if lines.get(top).is_some_and(|&(_, l, _)| l >= level) {
                    if let Some(end) = ends.get_mut(top) {
                        *end = start;
                    }
                    open.pop();
                } else {
                    break;
                }
            }
            open.push(i);
        }
        let headings = lines
            .into_iter()
            .zip(ends)
            .map(|((start, _, range), end)| (start, range, end))
            .collect();
        let blocks = &markdown.blocks;
        let mut order: Vec<usize> = (0..blocks.len()).collect();
        order.sort_by_key(|&i| {
            blocks
                .get(i)
                .map(|b| (b.range.start, std::cmp::Reverse(b.range.end)))
        });
        let mut parent = vec![None; order.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (pos, &i) in order.iter().enumerate() {
            let Some(block) = blocks.get(i) else { continue };
            while let Some(&top) = stack.last() {
                let holds = order
                    .get(top)
                    .and_then(|&t| blocks.get(t))
                    .is_some_and(|t| {
                        t.range.start <= block.range.start && block.range.end <= t.range.end
                    });
                if holds {
                    break;
                }
                stack.pop();
            }
            if let Some(p) = parent.get_mut(pos) {
                *p = stack.last().copied();
            }
            stack.push(pos);
        }
        Layout {
            raw,
            markdown,
            headings,
            order,
            parent,
        }
    }

    fn block(&self, pos: usize) -> Option<&'a super::markdown::Block> {
        self.order
            .get(pos)
            .and_then(|&i| self.markdown.blocks.get(i))
    }

    /// The blocks holding `at`, innermost first.
    fn holding(&self, at: usize) -> Vec<usize> {
        let after = self.order.partition_point(|&i| {
            self.markdown
                .blocks
                .get(i)
                .is_some_and(|b| b.range.start <= at)
        });
        let mut chain = Vec::new();
        let mut pos = after.checked_sub(1);
        while let Some(p) = pos {
            if self.block(p).is_some_and(|b| b.range.contains(&at)) {
                chain.push(p);
            }
            pos = self.parent.get(p).copied().flatten();
        }
        chain
    }

    /// Where the section holding `at` ends: the next heading at the level of
    /// the one it sits under, or higher; the record's end before any heading.
    fn section_end(&self, at: usize) -> usize {
        let under = self.headings.partition_point(|&(start, _, _)| start <= at);
        under
            .checked_sub(1)
            .and_then(|i| self.headings.get(i))
            .map_or(self.raw.len(), |&(_, _, end)| end)
    }

    /// How far a marker at `at` reaches, by the block it is written in. An
    /// "as of" that does not open its paragraph qualifies the clause it is in
    /// ("the page, as of `76e1628c`, grants …"): that paragraph alone.
    fn reach(&self, at: usize, qualifier: bool) -> (Declaration, Range<usize>) {
        let under = self.headings.partition_point(|&(start, _, _)| start <= at);
        if let Some((start, range, end)) = under.checked_sub(1).and_then(|i| self.headings.get(i))
            && range.contains(&at)
        {
            return (Declaration::Heading, *start..*end);
        }
        // "All references below were verified against …", "measured at X
        // throughout this document": the sentence says how far it reaches.
        if reaches_below(sentence_at(self.raw, at)) {
            return (Declaration::Section, at..self.raw.len());
        }
        let holding = self.holding(at);
        let blocks = || holding.iter().filter_map(|&p| self.block(p));
        // A list item, a table or a quote: that block (a table's row).
        if let Some(container) = blocks().find(|b| {
            matches!(
                b.kind,
                BlockKind::Item | BlockKind::Table | BlockKind::Quote
            )
        }) {
            // A field of the page's lead list ("- **Planned at**: commit
            // `c63cb120`"), as front matter would hold it: the page's.
            if container.kind == BlockKind::Item
                && is_field(self.raw.get(container.range.clone()).unwrap_or_default())
            {
                if self.is_lead(&container.range) {
                    return (Declaration::Section, at..self.section_end(at));
                }
                // A list of fields under its own heading (`## Status`): the
                // plan's metadata, which speaks for the page below it.
                if in_field_list(self.raw, at) {
                    return (Declaration::Section, at..self.raw.len());
                }
            }
            let range = if container.kind == BlockKind::Table {
                line_of(self.raw, at)
            } else {
                container.range.clone()
            };
            return (Declaration::Paragraph, range);
        }
        let Some(paragraph) = blocks().find(|b| b.kind == BlockKind::Paragraph) else {
            return (Declaration::Section, at..self.section_end(at));
        };
        let text = self.raw.get(paragraph.range.clone()).unwrap_or_default();
        if text.trim_end().ends_with(':') {
            let introduced = self.introduced(&paragraph.range);
            if introduced > paragraph.range.end {
                return (Declaration::Paragraph, paragraph.range.start..introduced);
            }
        }
        // The lead paragraph under a page's title says what the page is:
        // "Ground-truth audit of every surface as of 2026-07-09" dates the
        // page, not a clause.
        if self.is_lead(&paragraph.range) {
            return (Declaration::Section, at..self.section_end(at));
        }
        let first_sentence_end = paragraph.range.start + first_sentence_len(text);
        let opens = self
            .raw
            .get(paragraph.range.start..at)
            .is_some_and(|before| before.chars().all(|c| !c.is_alphanumeric()));
        if at < first_sentence_end && (opens || !qualifier) {
            (Declaration::Section, at..self.section_end(at))
        } else {
            (Declaration::Paragraph, paragraph.range.clone())
        }
    }

    /// Whether the paragraph at `range` is the page's lead: the first
    /// paragraph, before any heading but the page's title.
    fn is_lead(&self, range: &Range<usize>) -> bool {
        let before_sections = self.headings.iter().enumerate().all(|(i, (start, _, _))| {
            *start >= range.start || (i == 0 && *start == self.title_start())
        });
        before_sections
            && !self.markdown.blocks.iter().any(|b| {
                b.kind == BlockKind::Paragraph
                    && b.range.start < range.start
                    && !self.in_front_matter(b.range.start)
            })
    }

    /// Where the page's title heading starts, when its first heading is a
    /// title (level one); else nowhere.
    fn title_start(&self) -> usize {
        match self.markdown.headings.first() {
            Some(h) if h.level == 1 => self.headings.first().map_or(usize::MAX, |(s, _, _)| *s),
            _ => usize::MAX,
        }
    }

    fn in_front_matter(&self, at: usize) -> bool {
        self.markdown
            .front_matter
            .as_ref()
            .is_some_and(|f| f.contains(&at))
    }

    /// The end of the lists, tables, code blocks and quotes that follow the
    /// paragraph at `paragraph` with nothing between them but other such
    /// blocks (the paragraph's own end when none does).
    fn introduced(&self, paragraph: &Range<usize>) -> usize {
        let mut end = paragraph.end;
        let from = self.order.partition_point(|&i| {
            self.markdown
                .blocks
                .get(i)
                .is_some_and(|b| b.range.start < paragraph.end)
        });
        for pos in from.. {
            let Some(block) = self.block(pos) else { break };
            // What the run's blocks hold.
            if block.range.start < end {
                continue;
            }
            let between = self.raw.get(end..block.range.start).unwrap_or_default();
            if !between.trim().is_empty() {
                break;
            }
            match block.kind {
                BlockKind::Item
                | BlockKind::List
                | BlockKind::Table
                | BlockKind::Code
                | BlockKind::Quote => end = block.range.end,
                _ => break,
            }
        }
        end
    }

    /// Whether the block at `pos` is a paragraph of the record's prose, not
    /// held by a list, a table or a quote.
    fn top_level_paragraph(&self, pos: usize) -> bool {
        if self
            .block(pos)
            .is_none_or(|b| b.kind != BlockKind::Paragraph)
        {
            return false;
        }
        let mut up = self.parent.get(pos).copied().flatten();
        while let Some(p) = up {
            if self.block(p).is_some_and(|b| b.kind != BlockKind::Heading) {
                return false;
            }
            up = self.parent.get(p).copied().flatten();
        }
        true
    }

    /// Amendment headings, and paragraphs opening so in records without
    /// headings ("Amendment 1 — … (2026-09-14, …)", "Addendum, 2026-09-15 —
    /// …"), that give a date or a commit: each its own frame, for its section.
    fn amendments(&self) -> Vec<DeclaredFrame> {
        let mut found = Vec::new();
        for (start, range, end) in &self.headings {
            let text = self.raw.get(range.clone()).unwrap_or_default();
            if let Some((sha, date)) = amendment_parts(text, range.start) {
                found.push(DeclaredFrame {
                    at: *start,
                    sha,
                    date,
                    by: Declaration::Heading,
                    governs: *start..*end,
                });
            }
        }
        for pos in 0..self.order.len() {
            let Some(paragraph) = self.block(pos).filter(|b| b.kind == BlockKind::Paragraph) else {
                continue;
            };
            let Some(opening) = amendment_opening(self.raw, &paragraph.range) else {
                continue;
            };
            if !self.top_level_paragraph(pos) {
                continue;
            }
            if let Some((sha, date)) = amendment_parts(opening, paragraph.range.start) {
                found.push(DeclaredFrame {
                    at: paragraph.range.start,
                    sha,
                    date,
                    by: Declaration::Heading,
                    governs: paragraph.range.start..self.section_end(paragraph.range.start),
                });
            }
        }
        found
    }

    /// The paragraph holding `at`, innermost.
    fn paragraph_at(&self, at: usize) -> Option<Range<usize>> {
        self.holding(at)
            .into_iter()
            .filter_map(|p| self.block(p))
            .find(|b| b.kind == BlockKind::Paragraph)
            .map(|b| b.range.clone())
    }

    /// A run of paragraphs one after another that each open with a marker is
    /// a block saying which figure was measured where: each governs only
    /// itself.
    fn demote_runs(&self, declared: &mut [DeclaredFrame]) {
        let mut opening: Vec<Range<usize>> = declared
            .iter()
            .filter(|d| d.by == Declaration::Section)
            .filter_map(|d| self.paragraph_at(d.at))
            .collect();
        opening.sort_by_key(|r| r.start);
        opening.dedup();
        let adjacent = |a: &Range<usize>, b: &Range<usize>| {
            a.end <= b.start
                && self
                    .raw
                    .get(a.end..b.start)
                    .is_some_and(|s| s.trim().is_empty())
        };
        let in_run: Vec<bool> = (0..opening.len())
            .map(|i| {
                let own = &opening[i];
                let before = i.checked_sub(1).and_then(|j| opening.get(j));
                before.is_some_and(|b| adjacent(b, own))
                    || opening.get(i + 1).is_some_and(|a| adjacent(own, a))
            })
            .collect();
        for d in declared.iter_mut().filter(|d| d.by == Declaration::Section) {
            let Some(own) = self.paragraph_at(d.at) else {
                continue;
            };
            let Ok(i) = opening.binary_search_by_key(&own.start, |r| r.start) else {
                continue;
            };
            if in_run.get(i).copied().unwrap_or(false) {
                d.by = Declaration::Paragraph;
                d.governs = own;
            }
        }
    }
}

/// The bytes of `text`'s first sentence: up to a `.`, `!` or `?` followed by
/// white space, or a blank line.
/// The sentence of `raw` holding offset `at`: from the end of the one before
/// (or a blank line) to its own end.
fn sentence_at(raw: &str, at: usize) -> &str {
    let ends = |text: &str| -> Vec<usize> {
        [". ", "! ", "? ", ".\n", "\n\n"]
            .iter()
            .filter_map(|end| text.rfind(end).map(|i| i + end.len()))
            .collect()
    };
    let before = raw.get(..at).unwrap_or_default();
    let start = ends(before).into_iter().max().unwrap_or(0);
    let after = raw.get(at..).unwrap_or_default();
    let end = [". ", "! ", "? ", ".\n", "\n\n"]
        .iter()
        .filter_map(|end| after.find(end).map(|i| at + i + 1))
        .min()
        .unwrap_or(raw.len());
    raw.get(start..end).unwrap_or_default()
}

/// Whether a marker's sentence says it reaches past its paragraph, to the
/// rest of the record ("below", "throughout", "in this document").
fn reaches_below(sentence: &str) -> bool {
    static BELOW: OnceLock<Regex> = OnceLock::new();
    BELOW
        .get_or_init(|| {
            Regex::new(r"(?i)(?-u:\b)(?:below|throughout|in[ \t\n]+this[ \t\n]+(?:document|file|page|review|report|spec|plan))(?-u:\b)")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        })
        .is_match(sentence)
}

fn first_sentence_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        if matches!(b, b'.' | b'!' | b'?') && next.is_none_or(|n| n.is_ascii_whitespace()) {
            return i + 1;
        }
    }
    text.len()
}

fn line_of(raw: &str, at: usize) -> Range<usize> {
    let start = raw
        .get(..at)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = raw
        .get(at..)
        .and_then(|s| s.find('\n'))
        .map_or(raw.len(), |i| at + i);
    start..end
}

/// A paragraph's first line when it opens with an amendment word
/// ("Amendment 1 — …", "Addendum, 2026-09-15 — …").
fn amendment_opening<'r>(raw: &'r str, paragraph: &Range<usize>) -> Option<&'r str> {
    let text = raw.get(paragraph.clone())?;
    let mut cut = OPENING_BYTES.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let opening = text.get(..cut)?.split('\n').next()?;
    let words = opening.trim_start_matches(|c: char| !c.is_alphanumeric());
    AMENDMENT_WORDS
        .iter()
        .any(|w| starts_with_word(words, w))
        .then_some(opening)
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.get(..word.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(word))
        && text
            .get(word.len()..)
            .and_then(|rest| rest.chars().next())
            .is_none_or(|c| !c.is_alphanumeric())
}

type Parts = (Option<(String, Range<usize>)>, Option<(Day, Range<usize>)>);

/// The date and the commit an amendment heading gives, when it is one: it
/// names an amendment word as a title does — followed by a number, a date, a
/// dash, a colon, a comma or a parenthesis ("Amendment 1 —", "Addendum,
/// 2026-09-15", "Update (2026-09-14)"), not by a word ("Update the API") —
/// and a date or a commit id of its own (not one inside a link's address).
fn amendment_parts(text: &str, offset: usize) -> Option<Parts> {
    // Most headings and paragraphs name no amendment word: one literal search
    // (no captures, no word boundaries) turns them away before the full one.
    static CUE: OnceLock<Regex> = OnceLock::new();
    let cue_word = CUE.get_or_init(|| {
        Regex::new(&format!("(?i){}", AMENDMENT_WORDS.join("|")))
            .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    });
    if !cue_word.is_match(text) {
        return None;
    }
    static SLOT: OnceLock<Regex> = OnceLock::new();
    let pattern = SLOT.get_or_init(|| {
        let words = AMENDMENT_WORDS.join("|");
        Regex::new(&format!(
            r"(?i)(?<cue>\b(?:{words})\b\s*(?:$|[—–:,(\-]|\d))|(?<date>\b\d{{4}}-\d{{2}}-\d{{2}}\b)|(?<sha>\b[0-9a-f]{{7,40}}\b)"
        ))
        .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    });
    let mut cue = false;
    let mut sha = None;
    let mut date = None;
    let in_address = |range: &Range<usize>| {
        let before = text.get(..range.start).and_then(|s| s.chars().next_back());
        let after = text.get(range.end..).and_then(|s| s.chars().next());
        before.is_some_and(|c| matches!(c, '/' | '#' | '=' | '@' | '.' | '-'))
            || after.is_some_and(|c| matches!(c, '/' | '#' | '.' | '-'))
    };
    for caps in pattern.captures_iter(text) {
        if let Some(m) = caps.name("date") {
            if date.is_none()
                && let Some(day) = Day::parse(m.as_str())
            {
                date = Some((day, offset + m.start()..offset + m.end()));
            }
        } else if let Some(m) = caps.name("sha") {
            let s = m.as_str();
            // A commit id has letters and digits; `1234567` is a number.
            if sha.is_none()
                && s.bytes().any(|b| b.is_ascii_digit())
                && s.bytes().any(|b| b.is_ascii_alphabetic())
                && !in_address(&m.range())
            {
                sha = Some((s.to_owned(), offset + m.start()..offset + m.end()));
            }
        } else if caps.name("cue").is_some() {
            cue = true;
        }
    }
    // A date right after the word ("Review 2026-01-13") began inside the
    // cue's match: read it on its own.
    if cue && date.is_none() {
        static DATE: OnceLock<Regex> = OnceLock::new();
        let day = DATE.get_or_init(|| {
            Regex::new(r"\b\d{4}-\d{2}-\d{2}\b")
                .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
        });
        date = day.find_iter(text).find_map(|m| {
            Day::parse(m.as_str()).map(|d| (d, offset + m.start()..offset + m.end()))
        });
    }
    (cue && (sha.is_some() || date.is_some())).then_some((sha, date))
}

/// Splits the record into stretches, each governed by the frame that reaches
/// it and starts last (of two starting together, the narrower).
fn sweep(declared: &[DeclaredFrame]) -> Vec<(Range<usize>, usize)> {
    use std::cmp::Reverse;
    use std::collections::BTreeSet;
    let mut points: Vec<(usize, bool, usize)> = Vec::with_capacity(declared.len() * 2);
    for (i, d) in declared.iter().enumerate() {
        if d.governs.start < d.governs.end {
            points.push((d.governs.start, true, i));
            points.push((d.governs.end, false, i));
        }
    }
    points.sort_unstable();
    let mut active: BTreeSet<(usize, Reverse<usize>, usize)> = BTreeSet::new();
    let mut governed: Vec<(Range<usize>, usize)> = Vec::new();
    let mut last = 0usize;
    let mut k = 0;
    while k < points.len() {
        let Some(&(at, _, _)) = points.get(k) else {
            break;
        };
        if let Some(&(_, _, i)) = active.last()
            && last < at
        {
            match governed.last_mut() {
                Some((range, prev)) if *prev == i && range.end == last => range.end = at,
                _ => governed.push((last..at, i)),
            }
        }
        while let Some(&(p, starts, i)) = points.get(k) {
            if p != at {
                break;
            }
            if let Some(d) = declared.get(i) {
                let key = (d.governs.start, Reverse(d.governs.end), i);
                if starts {
                    active.insert(key);
                } else {
                    active.remove(&key);
                }
            }
            k += 1;
        }
        last = at;
    }
    governed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(raw: &str) -> RecordFrames {
        let markdown = Markdown::new(raw);
        let pattern = Regex::new(DEFAULT_FRAME_PATTERN).unwrap();
        RecordFrames::read(raw, &markdown, &pattern)
    }

    fn key_at(raw: &str, needle: &str) -> Option<String> {
        let at = raw.find(needle).unwrap();
        frames(raw).at(at).map(DeclaredFrame::key)
    }

    #[test]
    fn a_plan_names_the_commit_it_was_planned_at() {
        let raw = "# Plan 009\n\n- **Planned at**: commit `c63cb120`, 2026-07-10\n- **Status**: open\n\n## Steps\n\nEdit `src/export.ts:189`.\n";
        assert_eq!(key_at(raw, "Edit"), Some("c63cb120@2026-07-10".to_owned()));
        // A list of fields under its own heading speaks for the page below.
        let raw = "# Plan 009\n\n> Run the drift check first.\n\n## Status\n\n- **Risk**: LOW\n- **Planned at**: commit `c63cb120`\n\n## Why\n\nEdit `src/export.ts:189`.\n";
        assert_eq!(key_at(raw, "Edit"), Some("c63cb120".to_owned()));
        // An item further down dates itself only.
        let raw = "# Plan\n\nThe lead.\n\n- Planned at: commit `c63cb120`\n- Edit `src/a.ts:1`.\n\nEdit `src/export.ts:189`.\n";
        assert_eq!(key_at(raw, "Edit `src/export"), None);
    }

    #[test]
    fn an_as_of_in_the_pages_lead_dates_the_page() {
        let raw = "---\ntitle: Audit\n---\n\n# Audit\n\nGround-truth audit of every surface as of 2026-07-09.\n\n## Findings\n\nSee `src/a.rs:10`.\n";
        assert_eq!(key_at(raw, "See"), Some("2026-07-09".to_owned()));
        // Past the lead, an "as of" inside a sentence qualifies its clause.
        let raw = "# Audit\n\nThe lead.\n\nThe page, as of 2026-07-09, grants it.\n\n## Findings\n\nSee `src/a.rs:10`.\n";
        assert_eq!(key_at(raw, "See"), None);
    }

    #[test]
    fn a_marker_that_says_below_reaches_the_rest_of_the_record() {
        let raw = "# Review\n\n## Notes\n\nThe work is planned. All file and line references below were verified against the working tree on 2026-06-11.\n\n## Task 1\n\nEdit `src/a.rs`.\n";
        assert_eq!(key_at(raw, "Edit"), Some("2026-06-11".to_owned()));
        // Without "below", a marker past a paragraph's first sentence
        // qualifies that paragraph alone.
        let raw = "# Review\n\n## Notes\n\nThe work is planned. The references were verified against the working tree on 2026-06-11.\n\n## Task 1\n\nEdit `src/a.rs`.\n";
        assert_eq!(key_at(raw, "Edit"), None);
    }

    #[test]
    fn every_phrasing_gives_the_sha_and_the_date_whatever_the_order() {
        for (text, key) in [
            (
                "Measured on 2026-09-12 against `be977ea7`.",
                "be977ea7@2026-09-12",
            ),
            (
                "Measured at `be977ea7` on 2026-09-12.",
                "be977ea7@2026-09-12",
            ),
            (
                "Measured 2026-09-14 at 172e9d28, a branch commit.",
                "172e9d28@2026-09-14",
            ),
            ("measured at be977ea7: here.", "be977ea7"),
            ("Measured against commit 1234abc.", "1234abc"),
            (
                "As of `76e1628c` on the branch, the section holds it.",
                "76e1628c",
            ),
            ("Measured on `2026-09-13`.", "2026-09-13"),
            ("As of 2026-09-13 the tree holds it.", "2026-09-13"),
            ("As of HEAD `efdced78e`, the list holds it.", "efdced78e"),
            (
                "Every reference was verified against the working tree on 2026-06-11.",
                "2026-06-11",
            ),
            (
                "**Date:** 2026-08-14 · **Target:** `kit` @ `21c3f6a` (branch `x`)",
                "21c3f6a",
            ),
            ("Audited at main @ 1c3e2ccb.", "1c3e2ccb"),
        ] {
            let raw = format!("{text}\n\nAfter.\n");
            assert_eq!(key_at(&raw, "After"), Some(key.to_owned()), "{text}");
        }
        // All digits: a commit only if the clone has one (the frames stage
        // decides).
        let raw = "measured at 1000000 requests.\n\nAfter.\n";
        let f = frames(raw);
        assert!(f.at(raw.find("After").unwrap()).unwrap().numeric());
        for text in [
            "measured on a laptop.",
            "as of this change.",
            "Measured on jsonschema==4.26.0, required names none.",
            "Write to ops@example.com for access.",
            "Install `kit` @ `latest` first.",
        ] {
            let raw = format!("{text}\n\nAfter.\n");
            assert_eq!(key_at(&raw, "After"), None, "{text}");
        }
    }

    #[test]
    fn a_header_frame_gives_way_to_an_amendment_heading() {
        let raw = "# ADR\n\nEvery figure below was measured on 2026-09-12 against `be977ea7`.\n\n\
                   ## Context\n\nfigure one\n\n## Amendment 1 — the cap (2026-09-14, #669)\n\n\
                   figure two\n\n### Detail\n\nfigure three\n";
        assert_eq!(
            key_at(raw, "figure one").as_deref(),
            Some("be977ea7@2026-09-12")
        );
        assert_eq!(key_at(raw, "figure two").as_deref(), Some("2026-09-14"));
        assert_eq!(key_at(raw, "figure three").as_deref(), Some("2026-09-14"));
        let f = frames(raw);
        assert_eq!(
            f.at(raw.find("figure two").unwrap()).unwrap().by,
            Declaration::Heading
        );
        // A heading that only mentions a date is no amendment, nor is a
        // paragraph that opens with the verb and links a commit.
        let raw = "# Notes (2026-09-14)\n\nfigure\n";
        assert_eq!(key_at(raw, "figure"), None);
        let raw = "## API\n\nUpdate [Ctx](https://github.com/o/r/blob/0f37b3120643/api.proto#L8) to add it.\n\nfigure\n";
        assert_eq!(key_at(raw, "figure"), None);
        let raw = "## Update the API (2026-09-14)\n\nfigure\n";
        assert_eq!(key_at(raw, "figure"), None);
        let raw = "## Update: 2026-09-14\n\nfigure\n";
        assert_eq!(key_at(raw, "figure").as_deref(), Some("2026-09-14"));
        // The date right after the word.
        let raw = "## Addendum 2026-09-15\n\nfigure\n";
        assert_eq!(key_at(raw, "figure").as_deref(), Some("2026-09-15"));
    }

    #[test]
    fn an_amendment_paragraph_frames_a_record_without_headings() {
        let raw = "Measured on 2026-09-12 against be977ea7, the whole record.\n\nfigure one\n\n\
                   Amendment 1 — the cap (2026-09-14, #669)\n\nfigure two\n\n\
                   Addendum, 2026-09-15 — round two: more.\n\nfigure three\n";
        assert_eq!(
            key_at(raw, "figure one").as_deref(),
            Some("be977ea7@2026-09-12")
        );
        assert_eq!(key_at(raw, "figure two").as_deref(), Some("2026-09-14"));
        assert_eq!(key_at(raw, "figure three").as_deref(), Some("2026-09-15"));
    }

    #[test]
    fn a_marker_later_in_a_paragraph_or_in_an_item_governs_that_block() {
        // "as of" inside a clause qualifies that paragraph alone.
        let raw = "## Compliance\n\nThe page, as of `76e1628c`, says so.\n\nfigure one\n";
        assert_eq!(key_at(raw, "says so").as_deref(), Some("76e1628c"));
        assert_eq!(key_at(raw, "figure one"), None);
        let raw = "## Compliance\n\nAs of `76e1628c`, the page says so.\n\nfigure one\n";
        assert_eq!(key_at(raw, "figure one").as_deref(), Some("76e1628c"));
        let raw = "## Compliance\n\nIt is settled. The page, as of `76e1628c`, says so.\n\n\
                   figure one\n\n- an item measured at `abc1234f` here\n- figure two\n";
        assert_eq!(key_at(raw, "says so").as_deref(), Some("76e1628c"));
        assert_eq!(key_at(raw, "figure one"), None);
        assert_eq!(key_at(raw, "here").as_deref(), Some("abc1234f"));
        assert_eq!(key_at(raw, "figure two"), None);
    }

    #[test]
    fn an_introducing_paragraph_governs_the_list_it_introduces() {
        let raw = "## Compliance\n\nMeasured at `be977ea7` on 2026-09-12, not re-measured:\n\n\
                   - figure one\n- figure two\n\nLanded since:\n\n- figure three\n";
        assert_eq!(
            key_at(raw, "figure one").as_deref(),
            Some("be977ea7@2026-09-12")
        );
        assert_eq!(
            key_at(raw, "figure two").as_deref(),
            Some("be977ea7@2026-09-12")
        );
        assert_eq!(key_at(raw, "figure three"), None);
    }

    #[test]
    fn a_run_of_marker_paragraphs_is_a_list_of_anchors() {
        let raw = "## Amendment 1 (2026-09-14)\n\nWhere the figures come from:\n\n\
                   Measured 2026-09-14 at 172e9d28 — the cap.\n\n\
                   Measured 2026-09-15 at 5f96c781 — the table.\n\nfigure body\n";
        assert_eq!(
            key_at(raw, "the cap").as_deref(),
            Some("172e9d28@2026-09-14")
        );
        assert_eq!(
            key_at(raw, "the table").as_deref(),
            Some("5f96c781@2026-09-15")
        );
        assert_eq!(key_at(raw, "figure body").as_deref(), Some("2026-09-14"));
    }

    #[test]
    fn a_front_matter_commit_frames_the_page_below_it() {
        let raw = "---\nreport: true\nsource_commit_before: 1234abcd\nsource_commit_after: \"abcdef01\"\n---\n\n# Report\n\nfigure one\n\n## Later\n\nmeasured at 7654321 here.\n\nfigure two";
        assert_eq!(key_at(raw, "figure one").as_deref(), Some("abcdef01"));
        // A marker in the body is nearer, and wins where it reaches.
        assert_eq!(key_at(raw, "figure two").as_deref(), Some("7654321"));
        let f = frames(raw);
        assert_eq!(f.declared()[0].by, Declaration::FrontMatter);
        // A translation's commit of its source page is another page's.
        let raw = "---\ntitle: x\ndefault_lang_commit: abcdef0123\n---\n\nfigure";
        assert_eq!(key_at(raw, "figure"), None);
        // A commit-looking value under another key, or no front matter.
        assert_eq!(key_at("---\nid: abcdef0123\n---\n\nfigure", "figure"), None);
        assert_eq!(
            key_at("source_commit: abcdef0123\n\nfigure", "figure"),
            None
        );
    }

    #[test]
    fn section_frames_nest_and_later_markers_win() {
        let raw = "Measured against commit 1234abc.\n\nfigure one\n\n\
                   ## Part\n\nmeasured on abcdef0123 now.\n\nfigure two\n\n# Part two\n\nfigure three";
        assert_eq!(key_at(raw, "figure one").as_deref(), Some("1234abc"));
        assert_eq!(key_at(raw, "figure two").as_deref(), Some("abcdef0123"));
        assert_eq!(key_at(raw, "figure three").as_deref(), Some("1234abc"));
        // A marker quoted in a fenced block or a code span frames nothing.
        let raw = "```\nmeasured at 1234567\n```\nfigure";
        assert_eq!(key_at(raw, "figure"), None);
        let raw = "Write `measured at abc1234f` to frame it.\n\nfigure";
        assert_eq!(key_at(raw, "figure"), None);
    }
}
