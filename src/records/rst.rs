//! Stage 2, records: a reStructuredText record read into the same structure a
//! Markdown one has ([`Markdown`]), every range in the record's own bytes, so
//! citations, transcripts and findings read it as they read Markdown. The
//! parse is Read the Docs' tree-sitter grammar (`tree-sitter-rst`): a well-kept
//! grammar with byte offsets, where the Python reference implementation
//! (docutils) has none to give a Rust reader.
//!
//! What becomes what:
//! - section titles are headings, levelled by the order their adornment styles
//!   first appear (reStructuredText has no fixed levels);
//! - ``inline literals`` and `:file:` roles are code spans (a backticked path);
//! - `` `text <target>`_ `` references, hyperlink targets `.. _name: target`,
//!   `:download:` roles, and the arguments of `include`, `literalinclude`,
//!   `image` and `figure` are links;
//! - `:doc:` roles and `toctree` entries are document references (a
//!   document's name, relative to this one or from the source folder with a
//!   leading `/`, whatever its source suffix);
//! - `code-block`, `code` and `sourcecode` directives are fenced blocks (their
//!   argument the info string, so `console` blocks are transcripts), `::`
//!   literal blocks fenced blocks with no language (a `$ ` session in one is a
//!   transcript), doctest blocks code;
//! - comments are not rendered: their text holds no citation.
//!
//! A leading `/` (the Sphinx source folder's) is kept: the finder is told
//! where that folder is (`CiteOptions::source_root`).
//!
//! A `literalinclude`'s `:lines: N-M` makes it a line cite of the file.
//!
//! `:ref:` and `:numref:` targets are label references, resolved against
//! the project's labels by the finder.
//!
//! A `literalinclude`'s `:pyobject:` and `:start-after:`/`:end-before:` are a
//! fragment of its link the resolver holds the file to.
//!
//! The Python roles (`:func:`, `:class:`, … with `~`, and the current
//! `.. module::`) are Python object references, resolved by the finder.
//!
//! Not read yet (issue 20): `:lines:` lists and open ranges.

use std::ops::ControlFlow;
use std::ops::Range;
use std::sync::OnceLock;

use tree_sitter::{Node, Parser};

use crate::limits::Depth;

use super::markdown::{
    Block, BlockKind, CodeSpan, DocRef, FencedBlock, Heading, LabelRef, Link, Markdown, PyRef,
    push_lines,
};

/// Records of these names are reStructuredText.
pub fn is_rst(path: &str) -> bool {
    path.ends_with(".rst") || path.ends_with(".rest")
}

/// The `.txt` files a Sphinx project reads as reStructuredText: those under a
/// folder whose `conf.py` names `.txt` in `source_suffix` (Django's docs).
/// Decided from the tree alone, so every stage reads such a file alike.
pub fn sphinx_text_sources(
    snapshot: &dyn crate::snapshot::Snapshot,
) -> std::collections::BTreeSet<String> {
    let mut sources = std::collections::BTreeSet::new();
    for conf in snapshot
        .paths()
        .iter()
        .filter(|p| p.as_str() == "conf.py" || p.ends_with("/conf.py"))
    {
        let Some(text) = snapshot.read_text_to_parse(conf).ok().flatten() else {
            continue;
        };
        let names_txt = text
            .lines()
            .filter(|line| line.trim_start().starts_with("source_suffix"))
            .any(|line| line.contains(".txt"));
        if !names_txt {
            continue;
        }
        let folder = conf.strip_suffix("conf.py").unwrap_or_default();
        sources.extend(
            snapshot
                .paths()
                .iter()
                .filter(|p| p.starts_with(folder) && p.ends_with(".txt"))
                .filter(|p| {
                    !p[folder.len()..]
                        .split('/')
                        .any(|s| s.starts_with(['_', '.']))
                })
                .cloned(),
        );
    }
    sources
}

/// Indentation nested deeper than this is not given to the grammar: its
/// scanner's time and memory grow without bound past some hundred levels
/// (measured: 100 levels parse in 1 ms, 150 did not finish in 100 s and took
/// 24 GB). Real records nest a dozen.
const MAX_NESTING: usize = 64;

/// The grammar's inline-markup scanner looks ahead from every opening `*`,
/// `` ` ``, `|`, `:` … to the end of its paragraph for the closing one: a
/// paragraph of unclosed openers costs openers × length (measured: 100,000
/// `*a ` in one line did not parse in 60 s). The parse reads the record in
/// [`CHUNK`]-byte pieces and counts what it is served: past this many bytes
/// per byte of the record it is given up and the record read as plain text.
const SERVED_PER_BYTE: u64 = 64;

/// Bytes any record may be served, however short.
const SERVED_FLOOR: u64 = 1 << 20;

/// The piece the parser is served at a time: a look-ahead that stays within
/// one is not counted, so this bounds what escapes the count (at most a
/// piece per operation).
const CHUNK: usize = 256;

/// Parser operations per byte of the record past which the parse is given
/// up: the backstop for a cost the served bytes do not show (an ambiguity
/// the grammar's GLR parse explores). tree-sitter reports progress every 100
/// operations; real records take a few operations a byte.
const OPERATIONS_PER_BYTE: u64 = 64;

/// What one parse of a record may cost: bytes served and parser operations.
#[derive(Debug, Clone, Copy)]
struct Budget {
    served: u64,
    operations: u64,
}

impl Budget {
    fn for_record(raw: &str) -> Self {
        let length = raw.len() as u64;
        Budget {
            served: SERVED_FLOOR.saturating_add(SERVED_PER_BYTE.saturating_mul(length)),
            operations: (1u64 << 16).saturating_add(OPERATIONS_PER_BYTE.saturating_mul(length)),
        }
    }
}

/// The structure of a reStructuredText record. One the grammar cannot read
/// within its budget (nested past [`MAX_NESTING`], unclosed inline markup
/// past [`SCAN_PER_BYTE`], a parse past [`OPERATIONS_PER_BYTE`]) is read as
/// Markdown instead (``literals`` are code spans to both), so its citations
/// are still read, and [`Markdown::read_plain`] says why.
pub fn parse(raw: &str) -> Markdown {
    let nesting = nesting(raw);
    if nesting > MAX_NESTING {
        return read_plain(
            raw,
            format!(
                "its indentation nests {nesting} levels, past the {MAX_NESTING} the \
                 reStructuredText reader takes"
            ),
        );
    }
    let mut md = Markdown::default();
    let budget = Budget::for_record(raw);
    let first = match parse_from(raw, 0, budget) {
        Ok(tree) => tree,
        Err(why) => return read_plain(raw, why),
    };
    // Where the grammar ran a list item on past its end (a simple table in
    // an item, which it does not know, became a definition list that took in
    // the next thousand lines of xarray's changelog), the rest of the record
    // is parsed again from the line that ended the item, as docutils reads
    // it; each parse is read up to where the next begins.
    let mut pieces = vec![(0, first)];
    while pieces.len() < MAX_PIECES {
        let Some((from, tree)) = pieces.last() else {
            break;
        };
        let Some(cut) = run_on(raw, tree, *from) else {
            break;
        };
        match parse_from(raw, cut, budget) {
            Ok(tree) => pieces.push((cut, tree)),
            Err(_) => break,
        }
    }
    let mut reader = Reader {
        raw,
        md: &mut md,
        styles: Vec::new(),
        depth: Depth::ROOT,
        module: None,
        autodoc_class: None,
        window: 0..raw.len(),
    };
    for (at, (from, tree)) in pieces.iter().enumerate() {
        let until = pieces.get(at + 1).map_or(raw.len(), |(next, _)| *next);
        reader.window = *from..until;
        reader.node(tree.root_node());
    }
    md.blocks
        .sort_by_key(|b| (b.range.start, std::cmp::Reverse(b.range.end)));
    md
}

/// How many times a record is parsed again past a list item the grammar ran
/// on (each parse is linear; a hostile record gets no more than these).
const MAX_PIECES: usize = 16;

/// `raw` parsed from byte `from` (a line's start) on, each node's range the
/// record's own, and repaired where a lone colon misled the grammar.
fn parse_from(raw: &str, from: usize, budget: Budget) -> Result<tree_sitter::Tree, String> {
    let tree = parse_within(raw, from, budget)?;
    Ok(reparsed_past_classifiers(raw, from, budget, tree))
}

/// The start of the first line, at or after `from`, that a list item (or an
/// error node) of `tree` holds although it is indented no deeper than the
/// item's bullet or term: where docutils ends the item and the grammar did
/// not.
fn run_on(raw: &str, tree: &tree_sitter::Tree, from: usize) -> Option<usize> {
    let mut earliest: Option<usize> = None;
    walk(tree, |node| {
        // (An error node the grammar made of a list item it could not close
        // is read alike.)
        if (node.kind() == "list_item" || node.is_error()) && node.end_byte() > from {
            let column = node.start_position().column;
            let first_line_end = raw
                .get(node.start_byte()..)
                .and_then(|rest| rest.find('\n'))
                .map_or(node.end_byte(), |at| node.start_byte() + at + 1);
            let mut at = first_line_end;
            let end = node.end_byte().min(earliest.unwrap_or(usize::MAX));
            while at < end {
                let line_end = raw
                    .get(at..)
                    .and_then(|r| r.find('\n'))
                    .map_or(raw.len(), |n| at + n + 1);
                let line = raw.get(at..line_end).unwrap_or("");
                let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
                if at >= from && !line.trim().is_empty() && indent <= column {
                    earliest = Some(at);
                    break;
                }
                at = line_end;
            }
        }
        node.end_byte() > from
    });
    earliest
}

/// Visits `tree`'s nodes in document order without recursion (a hostile
/// record nests deep), into a node's children when `visit` says so.
fn walk(tree: &tree_sitter::Tree, mut visit: impl FnMut(Node<'_>) -> bool) {
    walk_within(tree.root_node(), |node| ControlFlow::Continue(visit(node)));
}

/// Visits `node` and the nodes below it in document order without
/// recursion (a hostile file nests deep): into a node's children when
/// `visit` continues with `true`, past them with `false`, and no further
/// when it breaks.
pub(crate) fn walk_within(
    node: Node<'_>,
    mut visit: impl FnMut(Node<'_>) -> ControlFlow<(), bool>,
) {
    // A cursor made at `node` goes no higher than `node`.
    let mut cursor = node.walk();
    loop {
        match visit(cursor.node()) {
            ControlFlow::Break(()) => return,
            ControlFlow::Continue(true) if cursor.goto_first_child() => continue,
            ControlFlow::Continue(_) => {}
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The grammar reads a ` : ` in running text as a definition list's
/// classifier, and its classifier then runs on over every later line it can
/// take, or it wraps the rest of the record in one error node: every later
/// section, literal and role unread (a changelog line "fix warning: 'inline'
/// : macro redefinition" hid 560 lines of Pillow's, headings included).
/// docutils reads a classifier on its term's line only. Where the parse is
/// damaged so, the record is parsed again with each lone colon blanked, and
/// the parse with fewer damaged bytes is read. The blanking keeps every
/// byte's offset, and the reader takes its text from the record itself.
fn reparsed_past_classifiers(
    raw: &str,
    from: usize,
    budget: Budget,
    tree: tree_sitter::Tree,
) -> tree_sitter::Tree {
    let damaged = damaged_bytes(&tree);
    if damaged == 0 {
        return tree;
    }
    let mut masked = raw.as_bytes().to_vec();
    for at in 1..masked.len() {
        let after = masked.get(at + 1).copied();
        if masked[at] == b':'
            && raw.as_bytes()[at - 1] == b' '
            && matches!(after, None | Some(b' ' | b'\t' | b'\n' | b'\r'))
        {
            masked[at] = b' ';
        }
    }
    let Ok(masked) = String::from_utf8(masked) else {
        return tree;
    };
    match parse_within(&masked, from, budget) {
        Ok(again) if damaged_bytes(&again) < damaged => again,
        _ => tree,
    }
}

/// How many bytes of the record a parse leaves damaged: those under its
/// outermost error nodes, and those of a classifier past its term's line.
fn damaged_bytes(tree: &tree_sitter::Tree) -> usize {
    let mut total = 0;
    walk(tree, |node| {
        let damaged = node.is_error()
            || (node.kind() == "classifier" && node.end_position().row > node.start_position().row);
        if damaged {
            total += node.byte_range().len();
        }
        !damaged
    });
    total
}

fn read_plain(raw: &str, why: String) -> Markdown {
    Markdown {
        read_plain: Some(why),
        ..Markdown::new(raw)
    }
}

/// A parse of `raw` within `budget`, or why there is none.
fn parse_within(raw: &str, from: usize, budget: Budget) -> Result<tree_sitter::Tree, String> {
    parse_range(raw, from..raw.len(), budget)
}

/// A parse of the bytes `range` of `raw` alone within `budget`, each node's
/// range the record's own.
fn parse_range(
    raw: &str,
    range: Range<usize>,
    budget: Budget,
) -> Result<tree_sitter::Tree, String> {
    let (from, until) = (range.start, range.end.min(raw.len()));
    static LANGUAGE: OnceLock<tree_sitter::Language> = OnceLock::new();
    let language = LANGUAGE.get_or_init(|| tree_sitter_rst::LANGUAGE.into());
    let mut parser = Parser::new();
    parser
        .set_language(language)
        .map_err(|e| format!("the reStructuredText grammar did not load: {e}"))?;
    if from > 0 || until < raw.len() {
        // Only the record from `from` to `until` is read; its nodes keep
        // their places.
        let point = |at: usize| {
            let before = raw.get(..at).unwrap_or(raw);
            let row = before.matches('\n').count();
            let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1);
            tree_sitter::Point { row, column }
        };
        parser
            .set_included_ranges(&[tree_sitter::Range {
                start_byte: from,
                end_byte: until,
                start_point: point(from),
                end_point: point(until),
            }])
            .map_err(|e| format!("the reStructuredText reader could not start at a line: {e}"))?;
    }
    // Both are counts, so the cut falls at the same place on every machine.
    let mut served = 0u64;
    let mut over = false;
    let bytes = raw.as_bytes();
    let mut read = |at: usize, _: tree_sitter::Point| {
        // Each piece ends on a character's boundary: tree-sitter reads a
        // character cut by a piece's end by asking again, and an empty answer
        // there (the cut below) sent its decoder past the piece (the fuzzer
        // found it: a SEGV in ts_decode_utf8).
        let mut end = at.saturating_add(CHUNK).min(raw.len());
        while !raw.is_char_boundary(end) {
            end += 1;
        }
        let piece = bytes.get(at..end).unwrap_or_default();
        served += piece.len() as u64;
        if served > budget.served {
            // The end of input: the parse finishes at once, and is dropped.
            over = true;
            return &[][..];
        }
        piece
    };
    let mut reports = 0u64;
    let mut progress = |_: &tree_sitter::ParseState| {
        // Called every 100 operations.
        reports += 1;
        if reports.saturating_mul(100) > budget.operations {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    match tree {
        Some(tree) if !over => Ok(tree),
        Some(_) => Err(format!(
            "its inline markup cost the reStructuredText reader more than {} bytes read \
             ({SERVED_PER_BYTE} a byte of the record)",
            budget.served
        )),
        None => Err(format!(
            "the reStructuredText reader gave up after {} parser operations \
             ({OPERATIONS_PER_BYTE} a byte of the record)",
            budget.operations
        )),
    }
}

struct Reader<'a> {
    raw: &'a str,
    md: &'a mut Markdown,
    /// Adornment styles in the order they first appear: (character, overlined).
    styles: Vec<(char, bool)>,
    /// How deep the walk is: nesting past the shared budget is not read (a
    /// hostile record must not exhaust the stack).
    depth: Depth,
    /// The module a `.. module::` or `.. currentmodule::` directive set.
    module: Option<String>,
    /// The class an `.. autoclass::` documents, while its body is read: a
    /// member directive there (`.. automethod:: convex_hull`) documents that
    /// class's member, as autodoc reads it.
    autodoc_class: Option<String>,
    /// The bytes the parse being read answers for: another parse reads the
    /// record past them.
    window: Range<usize>,
}

impl Reader<'_> {
    fn text(&self, node: Node<'_>) -> &str {
        self.raw.get(node.byte_range()).unwrap_or("")
    }

    fn node(&mut self, node: Node<'_>) {
        // Deeper than the shared budget a record's nested lists and quotes
        // are not read (indentation past `MAX_NESTING` is read as plain text
        // before it gets here).
        if self.depth.deeper().exhausted()
            || node.start_byte() >= self.window.end
            || (node.end_byte() <= self.window.start && node.parent().is_some())
        {
            return;
        }
        let outer = self.depth;
        self.depth = outer.deeper();
        self.visit(node);
        self.depth = outer;
    }

    fn visit(&mut self, node: Node<'_>) {
        match node.kind() {
            "section" => self.section(node),
            "literal" => self.literal(node),
            "interpreted_text" => self.role(node),
            "reference" => self.reference(node),
            "target" => {
                self.target(node);
            }
            "standalone_hyperlink" => self.md.links.push(Link {
                destination: self.text(node).to_owned(),
                text: node.byte_range(),
            }),
            "directive" => self.directive(node),
            // A literal block is a code block with no language: one whose lines
            // are a `$ ` session is a transcript, as an unlabelled fence's is.
            "literal_block" => {
                let lines = self.block_lines(node);
                self.md.fenced.push(FencedBlock {
                    info: String::new(),
                    lines,
                    open: node.start_byte()..node.start_byte(),
                    close: None,
                });
            }
            "doctest_block" => self.md.indented.push(node.byte_range()),
            // A target whose address runs onto indented lines is one docutils
            // reads as a target (the address joined), though the grammar
            // calls it a comment.
            "comment" if self.text(node).starts_with(".. _") && self.target(node) => {}
            "comment" => self.md.unrendered.push(node.byte_range()),
            _ => {
                if matches!(
                    node.kind(),
                    "paragraph" | "bullet_list" | "enumerated_list" | "block_quote" | "list_item"
                ) {
                    self.block(node);
                }
                self.children(node);
            }
        }
    }

    /// The lines of a block's content, each from its own start with the
    /// block's indentation stripped, as a fence's is.
    fn block_lines(&self, content: Node<'_>) -> Vec<(Range<usize>, String)> {
        let mut lines = Vec::new();
        let from = line_start(self.raw, content.start_byte());
        push_lines(self.raw, from..content.end_byte(), &mut lines);
        let indent = content.start_byte() - from;
        strip_indent(&mut lines, indent);
        lines
    }

    /// A block a suppression directive may apply to.
    fn block(&mut self, node: Node<'_>) {
        let kind = match node.kind() {
            "section" => BlockKind::Heading,
            "list_item" => BlockKind::Item,
            "bullet_list" | "enumerated_list" => BlockKind::List,
            "block_quote" => BlockKind::Quote,
            _ => BlockKind::Paragraph,
        };
        self.md.blocks.push(Block {
            range: node.byte_range(),
            kind,
        });
    }

    fn children(&mut self, node: Node<'_>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            self.node(child);
        }
    }

    fn section(&mut self, node: Node<'_>) {
        let text = self.text(node);
        let lines: Vec<&str> = text.lines().collect();
        let adornment = |line: &str| {
            let line = line.trim_end();
            let first = line.chars().next()?;
            (line.len() >= 2 && first.is_ascii_punctuation() && line.chars().all(|c| c == first))
                .then_some(first)
        };
        let under = lines.last().and_then(|l| adornment(l));
        let over = lines
            .first()
            .and_then(|l| adornment(l))
            .filter(|_| lines.len() >= 3);
        let style = match (over, under) {
            (Some(o), Some(u)) if o == u => (u, true),
            (_, Some(u)) => (u, false),
            (Some(o), None) => (o, true),
            (None, None) => ('?', false),
        };
        let level = match self.styles.iter().position(|s| *s == style) {
            Some(at) => at + 1,
            None => {
                self.styles.push(style);
                self.styles.len()
            }
        };
        self.md.headings.push(Heading {
            level: level.min(6),
            range: node.byte_range(),
        });
        self.block(node);
        // A title holds inline markup (a literal, a reference) like a paragraph.
        self.children(node);
    }

    fn literal(&mut self, node: Node<'_>) {
        let range = node.byte_range();
        let text = self.text(node);
        if text.len() >= 4 && text.starts_with("``") && text.ends_with("``") {
            // reStructuredText's plain inline literal: what a single backtick
            // run is to Markdown (a path is written so), not a longer run.
            self.md.code_spans.push(CodeSpan {
                content: range.start + 2..range.end - 2,
                range,
                ticks: 1,
            });
        }
    }

    /// `:role:`text`` (or `` `text`:role: ``): the roles that name a file of
    /// the tree.
    fn role(&mut self, node: Node<'_>) {
        let mut cursor = node.walk();
        let role = node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "role")
            .map(|r| self.text(r).trim_matches(':').to_owned())
            .unwrap_or_default();
        let Some((content, whole)) = backticked(self.raw, node.byte_range()) else {
            return;
        };
        let raw = self.raw;
        let (target, at) = titled_target(raw, content.clone());
        if link_suppressed(raw, &content) && role != "file" && role != "samp" {
            return;
        }
        match role.as_str() {
            "file" | "samp" => self.md.code_spans.push(CodeSpan {
                range: whole,
                content,
                ticks: 1,
            }),
            "download" => self.link(target, at),
            // A label of the project (`:ref:`intro``); another project's
            // through intersphinx (`python:tut-intro`) is told apart where the
            // project's documents are known.
            // A Python object (`:func:`pkg.run``, `:py:class:`~pkg.Client``);
            // `!name` suppresses the link, and a leading `.` searches.
            "mod" | "func" | "class" | "meth" | "attr" | "exc" | "data" | "obj" | "py:mod"
            | "py:func" | "py:class" | "py:meth" | "py:attr" | "py:exc" | "py:data" | "py:obj" => {
                if let Some(target) = python_target(target) {
                    self.md.py_refs.push(PyRef {
                        role: role.trim_start_matches("py:").to_owned(),
                        target: target.to_owned(),
                        module: self.module.clone(),
                        text: at,
                    });
                }
            }
            "ref" | "numref" => {
                let label = normalised_label(target);
                if !label.is_empty() {
                    self.md.label_refs.push(LabelRef { label, text: at });
                }
            }
            "doc" => {
                // A document's name, without its suffix, relative to this one
                // (a leading `/` is the source folder's).
                if let Some(document) = document(target.trim()) {
                    self.md.doc_refs.push(DocRef { document, text: at });
                }
            }
            _ => {}
        }
    }

    /// `` `text <target>`_ `` (an embedded target) or `` `text`_ `` (named: its
    /// target is read where it is defined).
    fn reference(&mut self, node: Node<'_>) {
        let raw = self.raw;
        let text = raw.get(node.byte_range()).unwrap_or("");
        let start = node.start_byte();
        if let (Some(open), Some(close)) = (text.rfind('<'), text.rfind('>'))
            && open < close
        {
            let target = &text[open + 1..close];
            self.link(target, start + open + 1..start + close);
        }
    }

    /// `.. _name: target`: a hyperlink target's address, its lines joined.
    /// Whether the node is one.
    fn target(&mut self, node: Node<'_>) -> bool {
        let text = self.text(node);
        let start = node.start_byte();
        let Some(rest) = text.strip_prefix(".. _") else {
            return false;
        };
        // The name ends at the first `: ` (a name may be backquoted).
        let Some(colon) = rest.find(": ").or_else(|| rest.find(":\n")) else {
            return false;
        };
        let after = 4 + colon + 1;
        // The address ends at the first blank line: docutils reads a
        // target's block until a blank, and an indented list after one is
        // a block of its own.
        let block = &text[after..];
        let block = block
            .match_indices('\n')
            .map(|(at, _)| at)
            .find(|&at| {
                let next = &block[at + 1..];
                let line = next.split('\n').next().unwrap_or(next);
                line.trim().is_empty() && !block[..at].trim().is_empty()
            })
            .map_or(block, |end| &block[..end]);
        let target = block.trim();
        if target.is_empty() {
            return true;
        }
        let at = start + after + block.find(target).unwrap_or(0);
        let len = target.len();
        let target = target.split_whitespace().collect::<String>();
        self.md.links.push(Link {
            destination: target,
            text: at..at + len,
        });
        true
    }

    fn link(&mut self, target: &str, at: Range<usize>) {
        // An address wrapped onto the next line is one address: docutils
        // removes the whitespace inside it, but keeps an escaped space
        // (`imviz\ icon.svg` names `imviz icon.svg`).
        let target = target
            .split("\\ ")
            .map(|part| part.split_whitespace().collect::<String>())
            .collect::<Vec<_>>()
            .join(" ");
        // (A leading `/` names the Sphinx source folder, which the finder is
        // told.) A trailing `_` is a reference to a named target, not a path.
        if target.is_empty() || target.ends_with('_') {
            return;
        }
        self.md.links.push(Link {
            destination: target,
            text: at,
        });
    }

    fn directive(&mut self, node: Node<'_>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        let kind = children
            .iter()
            .find(|c| c.kind() == "type")
            .map(|c| self.text(*c).to_owned())
            .unwrap_or_default();
        let body = children.iter().find(|c| c.kind() == "body").copied();
        let part = |name: &str| {
            body.and_then(|b| {
                let mut cursor = b.walk();
                b.named_children(&mut cursor).find(|c| c.kind() == name)
            })
        };
        let arguments = part("arguments");
        let content = part("content");
        self.block(node);
        match kind.as_str() {
            "include" | "literalinclude" | "image" | "figure" => {
                if let Some(args) = arguments {
                    let range = args.byte_range();
                    let target = self.text(args).trim().to_owned();
                    // A literalinclude's selection is held to the file as a
                    // fragment: `:pyobject: Cls.meth` the definition
                    // (`#pyobject=Cls.meth`), `:start-after:`/`:end-before:`
                    // the markers (`#start-after=…&end-before=…`), else
                    // `:lines: 3-9` those lines, as `file#L3-L9` does (a list or
                    // an open range is not read).
                    let include = kind == "literalinclude";
                    let of = |name: &str| include.then(|| option(self.raw, body, name)).flatten();
                    let markers: Vec<String> = ["start-after", "end-before"]
                        .iter()
                        .filter_map(|name| {
                            of(name)
                                .filter(|m| !m.is_empty())
                                .map(|m| format!("{name}={}", fragment_value(&m)))
                        })
                        .collect();
                    let target = if let Some(object) = of("pyobject").filter(|o| !o.is_empty()) {
                        format!("{target}#pyobject={}", fragment_value(&object))
                    } else if !markers.is_empty() {
                        format!("{target}#{}", markers.join("&"))
                    } else {
                        match of("lines").and_then(|spec| line_range(&spec)) {
                            Some((a, b)) => format!("{target}#L{a}-L{b}"),
                            None => target,
                        }
                    };
                    // A selection is written with the file: the cite's text
                    // runs to the end of its option, so the commit that wrote
                    // the cite is the one that wrote the selection too (a
                    // `:lines:` rewritten after the file changed cites anew).
                    let written = self.text(args).trim().len();
                    let selection_end = include
                        .then(|| {
                            option_end(
                                self.raw,
                                body,
                                &["pyobject", "start-after", "end-before", "lines"],
                            )
                        })
                        .flatten();
                    let end = selection_end.unwrap_or(range.start + written);
                    self.link(&target, range.start..end.max(range.start + written));
                }
                // A figure's caption is text like any paragraph's.
                if let Some(content) = content {
                    self.node(content);
                }
            }
            // A `parsed-literal` block renders preformatted, as a literal
            // block does: nbsphinx writes a cell's captured output into one
            // (warnings naming the author's own files).
            "code-block" | "code" | "sourcecode" | "parsed-literal" => {
                let info = arguments
                    .map(|a| self.text(a).trim().to_owned())
                    .unwrap_or_default();
                // Docutils ends a directive's content at the first line
                // indented no deeper than the directive, whatever the
                // indentation inside (a log whose lines are indented
                // unevenly); the grammar may end it sooner.
                let end = directive_end(self.raw, node.start_byte());
                let lines = directive_content(self.raw, node.start_byte(), end);
                let open_end = self.raw[node.start_byte()..]
                    .find('\n')
                    .map_or(node.end_byte(), |n| node.start_byte() + n);
                self.md.fenced.push(FencedBlock {
                    info,
                    lines,
                    open: node.start_byte()..open_end,
                    close: None,
                });
            }
            // autodoc's `automodule` writes a `py:module` directive, which
            // sets the module for the rest of the document too.
            "module" | "currentmodule" | "py:module" | "py:currentmodule" | "automodule"
            | "py:automodule" => {
                let name = arguments.map(|a| self.text(a).trim().to_owned());
                self.module = name.filter(|n| n != "None" && !n.is_empty());
            }
            "toctree" => {
                let Some(content) = content else {
                    return;
                };
                let glob = body.is_some_and(|b| self.text(b).contains(":glob:"));
                let start = content.start_byte();
                let text = self.text(content).to_owned();
                let mut offset = 0;
                for line in text.split_inclusive('\n') {
                    let entry = line.trim();
                    let at = start + offset + (line.len() - line.trim_start().len());
                    offset += line.len();
                    if entry.is_empty()
                        || entry == "self"
                        || (glob && entry.contains(['*', '?', '[']))
                        || entry.contains("://")
                    {
                        continue;
                    }
                    let (target, range) = titled_target(self.raw, at..at + entry.len());
                    // `Overview <self>`: the page holding the toctree, by
                    // Sphinx's reserved name, as a bare `self` is.
                    if target.contains("://") || target.trim() == "self" {
                        continue;
                    }
                    if let Some(document) = toctree_document(target.trim()) {
                        self.md.doc_refs.push(DocRef {
                            document,
                            text: range,
                        });
                    }
                }
            }
            // autodoc documents the object its argument names, imported at
            // build time: a cite of it as a role's (`.. autoclass:: Client`
            // is `:class:`Client``), read under the module in effect. An
            // explicit signature after the name is not part of it.
            "autofunction" | "autodecorator" | "autoclass" | "automethod" | "autoattribute"
            | "autoproperty" | "autoexception" | "autodata" => {
                if let Some(args) = arguments {
                    let text = self.text(args);
                    let lead = text.len() - text.trim_start().len();
                    let name = text
                        .trim_start()
                        .split(['(', ' ', '\n'])
                        .next()
                        .unwrap_or("");
                    if let Some(target) = python_target(name) {
                        let at = args.start_byte() + lead;
                        let member = matches!(
                            kind.as_str(),
                            "automethod" | "autoattribute" | "autoproperty"
                        );
                        let target = match &self.autodoc_class {
                            Some(class) if member && !target.contains('.') => {
                                format!("{class}.{target}")
                            }
                            _ => target.to_owned(),
                        };
                        self.md.py_refs.push(PyRef {
                            role: autodoc_role(&kind).to_owned(),
                            target,
                            module: self.module.clone(),
                            text: at..at + name.len(),
                        });
                    }
                }
                if let Some(content) = content {
                    let class = arguments
                        .filter(|_| matches!(kind.as_str(), "autoclass" | "autoexception"))
                        .map(|args| self.text(args))
                        .and_then(|text| text.trim_start().split(['(', ' ', '\n']).next())
                        .and_then(python_target)
                        .map(str::to_owned);
                    let inner = class.or_else(|| self.autodoc_class.clone());
                    let outer = std::mem::replace(&mut self.autodoc_class, inner);
                    self.body(
                        content.start_byte()
                            ..directive_end(self.raw, node.start_byte()).max(content.end_byte()),
                    );
                    self.autodoc_class = outer;
                }
            }
            // The body of a note, a warning, a table, a card, an object's
            // description is text docutils parses as the page's own: the
            // grammar leaves it one flat node, so it is parsed again alone.
            // A titled one's first line is text too (`.. warning:: See
            // ``x.ini``.`); an object's is its signature.
            _ => match body_read_as_text(&kind) {
                Some(with_arguments) => {
                    let from = arguments
                        .filter(|_| with_arguments)
                        .or(content)
                        .map(|n| n.start_byte());
                    if let Some(from) = from {
                        let end = directive_end(self.raw, node.start_byte())
                            .max(content.map_or(from, |c| c.end_byte()));
                        self.body(from..end);
                    }
                }
                None => {
                    if let Some(content) = content {
                        self.node(content);
                    }
                }
            },
        }
    }

    /// The text `range` of a directive's body, parsed on its own and read
    /// as the page's: its literals, roles and links are the record's, at
    /// their places. A body the grammar cannot read within its budget is
    /// left unread, as it was before.
    fn body(&mut self, range: Range<usize>) {
        if range.is_empty() || self.depth.deeper().exhausted() {
            return;
        }
        let budget = Budget::for_record(self.raw.get(range.clone()).unwrap_or(""));
        let Ok(tree) = parse_range(self.raw, range.clone(), budget) else {
            return;
        };
        let outer = std::mem::replace(&mut self.window, range);
        let depth = self.depth;
        self.depth = depth.deeper();
        self.node(tree.root_node());
        self.depth = depth;
        self.window = outer;
    }
}

/// docutils' and Sphinx's admonitions: a body of text under a title.
pub(crate) const ADMONITIONS: &[&str] = &[
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "note",
    "tip",
    "warning",
    "admonition",
    "seealso",
    "versionadded",
    "versionchanged",
    "versionremoved",
    "deprecated",
];

/// The role that names what an autodoc directive documents.
fn autodoc_role(kind: &str) -> &'static str {
    match kind {
        "autoclass" => "class",
        "automethod" => "meth",
        "autoattribute" | "autoproperty" => "attr",
        "autoexception" => "exc",
        "autodata" => "data",
        _ => "func",
    }
}

/// Whether docutils or Sphinx reads a directive's body as text of the page
/// (`Some`), and whether its first line is text as well (`Some(true)`: a
/// note, a titled admonition, a card) or an object's signature
/// (`Some(false)`: `.. py:function::`, `.. autoclass::`, whose description
/// below is text). `None` for the rest: code, math, raw markup, a diagram,
/// a plot's script, or an extension's directive whose body is its own.
fn body_read_as_text(kind: &str) -> Option<bool> {
    const TITLED: &[&str] = &[
        "todo",
        "topic",
        "sidebar",
        "container",
        "only",
        "rubric",
        "compound",
        "epigraph",
        "highlights",
        "pull-quote",
        "centered",
        "hlist",
        "glossary",
        "table",
        "list-table",
        "tab",
        "tabs",
        "tab-set",
        "tab-item",
        "group-tab",
        "card",
        "grid",
        "grid-item",
        "grid-item-card",
        "dropdown",
        "details",
    ];
    const OBJECTS: &[&str] = &[
        "function",
        "class",
        "method",
        "classmethod",
        "staticmethod",
        "attribute",
        "property",
        "data",
        "exception",
        "decorator",
        "describe",
        "object",
        "option",
        "envvar",
        "confval",
    ];
    let kind = kind.trim().to_ascii_lowercase();
    if ADMONITIONS.contains(&kind.as_str()) || TITLED.contains(&kind.as_str()) {
        return Some(true);
    }
    // A domain's directive (`py:function`, `c:macro`, `rst:directive`) and
    // autodoc's (`autofunction`) describe an object: the signature first.
    let object = kind.rsplit(':').next().unwrap_or(&kind);
    (kind.contains(':') || kind.starts_with("auto") || OBJECTS.contains(&object)).then_some(false)
}

/// Takes up to `indent` leading spaces or tabs off each line (a block's own
/// indentation; a line indented less keeps what it has).
fn strip_indent(lines: &mut [(Range<usize>, String)], indent: usize) {
    for (range, text) in lines {
        let strip = text
            .bytes()
            .take(indent)
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        range.start += strip;
        text.drain(..strip);
    }
}

/// Where the directive that starts at `start` ends, as docutils reads it: at
/// the end of the last line before the first non-blank line indented no
/// deeper than the directive's own marker.
fn directive_end(raw: &str, start: usize) -> usize {
    let marker_line = line_start(raw, start);
    let indent = start - marker_line;
    let mut end = raw[start..].find('\n').map_or(raw.len(), |n| start + n);
    let mut at = (end + 1).min(raw.len());
    while at < raw.len() {
        let line_end = raw[at..].find('\n').map_or(raw.len(), |n| at + n);
        let line = &raw[at..line_end];
        if !line.trim().is_empty() {
            let deeper = line.len() - line.trim_start_matches([' ', '\t']).len();
            if deeper <= indent {
                break;
            }
            end = line_end;
        }
        at = line_end + 1;
    }
    end
}

/// The content lines of the directive at `start` that ends at `end`: past
/// its marker line and its options (`:class: x`), each without the first
/// content line's indentation.
fn directive_content(raw: &str, start: usize, end: usize) -> Vec<(Range<usize>, String)> {
    let mut at = raw[start..].find('\n').map_or(raw.len(), |n| start + n + 1);
    // The options: lines opening with a field marker, before any blank line.
    while at < end {
        let line_end = raw[at..].find('\n').map_or(raw.len(), |n| at + n);
        let line = raw[at..line_end].trim_start();
        if !line.starts_with(':') || line.is_empty() {
            break;
        }
        at = (line_end + 1).min(raw.len());
    }
    let mut lines = Vec::new();
    if at >= end {
        return lines;
    }
    push_lines(raw, at..end, &mut lines);
    let indent = lines
        .iter()
        .find(|(_, text)| !text.trim().is_empty())
        .map_or(0, |(_, text)| {
            text.len() - text.trim_start_matches([' ', '\t']).len()
        });
    strip_indent(&mut lines, indent);
    // Blank lines before the content are not its lines.
    let first = lines
        .iter()
        .position(|(_, text)| !text.trim().is_empty())
        .unwrap_or(lines.len());
    lines.drain(..first);
    lines
}

/// A Python identifier (ASCII letters, digits, `_`; not starting with a
/// digit).
/// A Python role's target as Sphinx looks it up: `~` and a trailing `()`
/// dropped, a leading `.` kept (Sphinx searches for an object whose name
/// ends so: `.CacheRegion`); `None` for one it does not look up (`!name`
/// suppresses the link) or that is no dotted name.
pub(crate) fn python_target(target: &str) -> Option<&str> {
    let target = target.trim().trim_start_matches('~');
    let target = target.strip_suffix("()").unwrap_or(target);
    let dotted = target.strip_prefix('.').unwrap_or(target);
    (!dotted.is_empty() && !target.starts_with('!') && dotted.split('.').all(is_identifier))
        .then_some(target)
}

/// Whether `name` is a Python identifier (ASCII or not).
pub(crate) fn is_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A label as Sphinx compares labels: lower-cased, runs of whitespace one
/// space (docutils' `fully_normalize_name`).
pub fn normalised_label(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A document's name as written. `None` for what is not this project's
/// document: another project's through intersphinx (`werkzeug:test`) or an
/// address.
pub(crate) fn document(target: &str) -> Option<String> {
    // A name with dots (`release-9.1.1`) is a name, not a file with a suffix;
    // a written `.rst` suffix is dropped, as Sphinx drops it.
    if target.is_empty() || target.contains(':') || target.contains("://") {
        return None;
    }
    // `usage/` is `usage`, as Sphinx normalises a document's name.
    let target = target.trim_end_matches('/');
    // The pages Sphinx builds of its own (the general and module indexes,
    // the search page) are documents of every project.
    if ["genindex", "modindex", "py-modindex", "search"].contains(&target) {
        return None;
    }
    Some(target.strip_suffix(".rst").unwrap_or(target).to_owned())
}

/// A toctree entry's document: as [`document`], and a MyST, notebook or
/// plain-text source's suffix (`intro.md`, `tour.ipynb`, `README.txt` where
/// `source_suffix = '.txt'`) dropped too, as Sphinx drops any source suffix
/// from a toctree entry.
pub(crate) fn toctree_document(target: &str) -> Option<String> {
    let name = document(target)?;
    Some(
        [".md", ".ipynb", ".txt"]
            .iter()
            .find_map(|suffix| name.strip_suffix(suffix))
            .unwrap_or(&name)
            .to_owned(),
    )
}

/// Where the last of a directive's options `names` present ends (the end of
/// its value), if any is.
fn option_end(raw: &str, body: Option<Node<'_>>, names: &[&str]) -> Option<usize> {
    let body = body?;
    let text = raw.get(body.byte_range())?;
    let mut offset = 0;
    let mut end = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if names
            .iter()
            .any(|name| trimmed.starts_with(&format!(":{name}:")))
        {
            end = Some(body.start_byte() + offset + line.trim_end().len());
        }
        offset += line.len();
    }
    end
}

/// The value of a directive's option `:name: value`, if it has one.
fn option(raw: &str, body: Option<Node<'_>>, name: &str) -> Option<String> {
    let body = body?;
    let text = raw.get(body.byte_range())?;
    let key = format!(":{name}:");
    text.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix(key.as_str()))
        .map(|value| value.trim().to_owned())
}

/// A value for a link fragment, escaped twice over: the link reader decodes a
/// fragment once, and what is left must still split at `&` and `=` and keep
/// no white space.
fn fragment_value(value: &str) -> String {
    let mut once = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.') {
            once.push(byte as char);
        } else {
            once.push_str(&format!("%{byte:02X}"));
        }
    }
    once.replace('%', "%25")
}

/// `N` or `N-M` as a range of lines, first ≤ last, both at least 1.
fn line_range(spec: &str) -> Option<(usize, usize)> {
    let (a, b) = match spec.split_once('-') {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let n = spec.trim().parse().ok()?;
            (n, n)
        }
    };
    (a >= 1 && a <= b).then_some((a, b))
}

/// The range between the backquotes of an interpreted text, and the whole.
fn backticked(raw: &str, whole: Range<usize>) -> Option<(Range<usize>, Range<usize>)> {
    let text = raw.get(whole.clone())?;
    let open = text.find('`')?;
    let close = text.rfind('`')?;
    (close > open).then(|| (whole.start + open + 1..whole.start + close, whole))
}

/// Whether a cross-reference role's content starts with `!` (after `~`):
/// Sphinx then makes no link and looks nothing up (`:func:`!pkg.command``,
/// a name that stands for any of several).
pub(crate) fn link_suppressed(raw: &str, content: &Range<usize>) -> bool {
    raw.get(content.clone())
        .is_some_and(|text| text.trim_start().trim_start_matches('~').starts_with('!'))
}

/// `title <target>` as the target and its range, else the whole as written.
pub(crate) fn titled_target(raw: &str, range: Range<usize>) -> (&str, Range<usize>) {
    let text = raw.get(range.clone()).unwrap_or("");
    let text = text.trim_start_matches(['~', '!']);
    let skipped = raw.get(range.clone()).map_or(0, |t| t.len() - text.len());
    if text.ends_with('>')
        && let Some(open) = text.rfind('<')
    {
        let start = range.start + skipped + open + 1;
        let end = range.start + skipped + text.len() - 1;
        return (raw.get(start..end).unwrap_or(""), start..end);
    }
    (text, range.start + skipped..range.end)
}

/// How many levels of indentation the record nests at its deepest: each
/// non-blank line indented further than the one before opens a level, one
/// indented less closes those deeper than it.
fn nesting(raw: &str) -> usize {
    let mut open: Vec<usize> = Vec::new();
    let mut deepest = 0;
    for line in raw.lines() {
        let body = line.trim_start_matches([' ', '\t']);
        if body.is_empty() {
            continue;
        }
        let indent = line.len() - body.len();
        while open.last().is_some_and(|&top| top > indent) {
            open.pop();
        }
        if open.last().is_none_or(|&top| top < indent) {
            open.push(indent);
        }
        deepest = deepest.max(open.len());
    }
    deepest
}

/// The byte where the line holding `at` starts.
fn line_start(raw: &str, at: usize) -> usize {
    raw.get(..at)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |n| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GUIDE: &str = "Guide\n=====\n\nSee ``src/app.py`` and :doc:`install` or :doc:`Setup <setup/index>`.\nA `local <docs/a.rst>`_ and :file:`conf/app.toml`.\n\n.. _home: ../README.rst\n\nPart\n----\n\n.. literalinclude:: ../examples/app.py\n   :lines: 1-10\n\n.. image:: _static/logo.png\n\n.. code-block:: console\n\n   $ tool run\n   ok\n\nLiteral::\n\n    src/not_a_cite.py\n\n.. toctree::\n   :maxdepth: 2\n\n   install\n   API <api/index>\n\n.. a comment naming src/gone.py\n\nAgain\n=====\n";

    fn at(raw: &str, range: &Range<usize>) -> String {
        raw[range.clone()].to_owned()
    }

    #[test]
    fn a_python_roles_target_is_read_as_sphinx_looks_it_up() {
        assert_eq!(python_target("~pkg.Client.send()"), Some("pkg.Client.send"));
        // A leading dot searches; it is kept for the resolver to search.
        assert_eq!(python_target(".CacheRegion"), Some(".CacheRegion"));
        assert_eq!(
            python_target(".region.CacheRegion"),
            Some(".region.CacheRegion")
        );
        assert_eq!(python_target("!pkg.run"), None);
        let raw = ":func:`!pkg.command.usage` and :func:`~pkg.run`";
        assert!(link_suppressed(raw, &(7..25)));
        assert!(!link_suppressed(raw, &(38..46)));
        assert_eq!(python_target("."), None);
        assert_eq!(python_target("a b"), None);
    }

    #[test]
    fn a_lone_colon_in_running_text_hides_no_later_section() {
        // The titles and code spans of a record, as read.
        fn read(text: &str) -> (Vec<String>, Vec<String>) {
            let md = parse(text);
            let titles = md
                .headings
                .iter()
                .map(|h| at(text, &h.range).lines().next().unwrap_or("").to_owned())
                .collect();
            let spans = md.code_spans.iter().map(|c| at(text, &c.content)).collect();
            (titles, spans)
        }
        // The grammar reads "a : b" as a term and its classifier; in a list
        // item whose next line is not indented further, its classifier ran on
        // over the sections below (and, in a plain paragraph, an error node
        // swallowed them).
        for text in [
            "Log\n===\n\n- Fix warning: 'inline' : macro redefinition\n  [someone]\n\n\
             1.0\n---\n\n- Moved ``src/a.py``\n\nPre-fork\n========\n\nOld.\n",
            "Log\n===\n\nA paragraph : with a colon.\n\n1.0\n---\n\n- Moved ``src/a.py``\n\n\
             Pre-fork\n========\n\nOld.\n",
        ] {
            let (titles, spans) = read(text);
            assert_eq!(titles, ["Log", "1.0", "Pre-fork"], "{text}");
            assert_eq!(spans, ["src/a.py"], "{text}");
        }
        // A simple table in a list item, which the grammar does not know,
        // ran the item on over every later section; docutils ends the item
        // at the first line indented no deeper than its bullet.
        let table = "Log\n===\n\n2.0\n---\n\n- Minimum versions changed\n\n  ====== ===\n   dep    new\n  ====== ===\n    a      1.2\n  ====== ===\n\n\
                     - Moved ``src/b.py``\n\n1.0\n---\n\n- Moved ``src/a.py``\n";
        let (titles, spans) = read(table);
        assert_eq!(titles, ["Log", "2.0", "1.0"]);
        assert_eq!(spans, ["src/b.py", "src/a.py"]);
        // A real definition list keeps its reading: its term is text.
        let list = "Terms\n=====\n\nname : str\n    The ``a.py`` name.\n";
        assert_eq!(parse(list).headings.len(), 1);
        assert_eq!(parse(list).code_spans.len(), 1);
    }

    #[test]
    fn sections_are_headings_levelled_by_the_order_of_their_adornments() {
        let md = parse(GUIDE);
        let headings: Vec<(usize, String)> = md
            .headings
            .iter()
            .map(|h| {
                (
                    h.level,
                    at(GUIDE, &h.range).lines().next().unwrap_or("").to_owned(),
                )
            })
            .collect();
        assert_eq!(
            headings,
            [
                (1, "Guide".to_owned()),
                (2, "Part".to_owned()),
                (1, "Again".to_owned())
            ]
        );
    }

    #[test]
    fn a_directive_body_of_text_is_read_and_one_of_code_or_signature_is_not() {
        let raw = "Guide\n=====\n\n.. note::\n\n   The file ``./pytest.ini`` holds it.\n   See :func:`pkg.run`.\n\n.. warning:: See ``b.ini`` now,\n   and ``c.ini``.\n\n.. py:function:: run(``sig.py``)\n\n   Reads ``d.py``.\n\n.. math::\n\n   ``e.py``\n\n.. currentmodule:: pkg\n\n.. autoclass:: Client(url)\n\n   See ``g.py``.\n\nAfter ``f.py``.\n";
        let md = parse(raw);
        let spans: Vec<&str> = md
            .code_spans
            .iter()
            .map(|c| &raw[c.content.clone()])
            .collect();
        assert_eq!(
            spans,
            ["./pytest.ini", "b.ini", "c.ini", "d.py", "g.py", "f.py"]
        );
        let objects: Vec<(&str, &str, Option<&str>, &str)> = md
            .py_refs
            .iter()
            .map(|r| {
                (
                    r.role.as_str(),
                    r.target.as_str(),
                    r.module.as_deref(),
                    &raw[r.text.clone()],
                )
            })
            .collect();
        assert_eq!(
            objects,
            [
                ("func", "pkg.run", None, "pkg.run"),
                ("class", "Client", Some("pkg"), "Client")
            ]
        );
    }

    #[test]
    fn an_address_wrapped_onto_the_next_line_is_one_address() {
        let raw = "Guide\n=====\n\nSee `the pool sample <https://github.com/o/r/tree/main/samples/\nconnection_pool.py>`__ for more.\n";
        let md = parse(raw);
        let links: Vec<&str> = md.links.iter().map(|l| l.destination.as_str()).collect();
        assert_eq!(
            links,
            ["https://github.com/o/r/tree/main/samples/connection_pool.py"]
        );
    }

    #[test]
    fn an_escaped_space_in_an_address_is_a_space() {
        let raw = ".. |logo| image:: ../logos/imviz\\ icon.svg\n    :height: 42px\n\nGuide\n=====\n\n.. image:: ../logos/plain.svg\n";
        let md = parse(raw);
        let links: Vec<&str> = md.links.iter().map(|l| l.destination.as_str()).collect();
        assert_eq!(links, ["../logos/imviz icon.svg", "../logos/plain.svg"]);
    }

    #[test]
    fn a_target_address_continued_on_indented_lines_is_one_address() {
        let raw = "Guide\n=====\n\nSee `the flag`_.\n\n.. _the flag: https://github.com/o/r/blob/main/docs/0010-course\n   -flag.rst\n\nAfter.\n";
        let md = parse(raw);
        let links: Vec<&str> = md.links.iter().map(|l| l.destination.as_str()).collect();
        assert_eq!(
            links,
            ["https://github.com/o/r/blob/main/docs/0010-course-flag.rst"]
        );
    }

    #[test]
    fn a_target_address_ends_at_the_first_blank_line() {
        let raw = "Guide\n=====\n\nSee here_.\n\n.. _here: https://github.com/o/r/blob/main/src/Game.hs\n\n - The first player locks a sum.\n\n - Any player guesses.\n";
        let md = parse(raw);
        let links: Vec<&str> = md.links.iter().map(|l| l.destination.as_str()).collect();
        assert_eq!(links, ["https://github.com/o/r/blob/main/src/Game.hs"]);
    }

    #[test]
    fn literals_roles_references_targets_and_directives_are_read_where_written() {
        let md = parse(GUIDE);
        let spans: Vec<String> = md
            .code_spans
            .iter()
            .map(|s| at(GUIDE, &s.content))
            .collect();
        assert_eq!(spans, ["src/app.py", "conf/app.toml"]);
        let links: Vec<(String, String)> = md
            .links
            .iter()
            .map(|l| (l.destination.clone(), at(GUIDE, &l.text)))
            .collect();
        assert_eq!(
            links,
            [
                ("docs/a.rst".to_owned(), "docs/a.rst".to_owned()),
                ("../README.rst".to_owned(), "../README.rst".to_owned()),
                // A selection's text runs to the end of its option.
                (
                    "../examples/app.py#L1-L10".to_owned(),
                    "../examples/app.py\n   :lines: 1-10".to_owned()
                ),
                ("_static/logo.png".to_owned(), "_static/logo.png".to_owned()),
            ]
        );
        // `:doc:` roles and toctree entries: documents, by name as written.
        let documents: Vec<(String, String)> = md
            .doc_refs
            .iter()
            .map(|d| (d.document.clone(), at(GUIDE, &d.text)))
            .collect();
        assert_eq!(
            documents,
            [
                ("install".to_owned(), "install".to_owned()),
                ("setup/index".to_owned(), "setup/index".to_owned()),
                ("install".to_owned(), "install".to_owned()),
                ("api/index".to_owned(), "api/index".to_owned()),
            ]
        );
    }

    #[test]
    fn a_code_block_runs_to_the_first_line_indented_no_deeper_than_its_directive() {
        let raw = "T\n=\n\n.. code-block:: text\n    :class: wide\n\n        0.00ns INFO a.py:3 start\n   Saturating at 10\n    9.00ns INFO b.py:364 end\n\nAfter `c.py:1`.\n";
        let md = parse(raw);
        let block = md.fenced.first().expect("a code block");
        let texts: Vec<&str> = block.lines.iter().map(|(_, t)| t.trim()).collect();
        assert_eq!(
            texts,
            [
                "0.00ns INFO a.py:3 start",
                "Saturating at 10",
                "9.00ns INFO b.py:364 end"
            ]
        );
        let after = raw.find("After").expect("after");
        assert!(block.lines.iter().all(|(r, _)| r.end < after));
    }

    #[test]
    fn code_blocks_and_literal_blocks_are_fenced_and_comments_unrendered() {
        let md = parse(GUIDE);
        assert_eq!(md.fenced.len(), 2);
        assert_eq!(md.fenced[0].info, "console");
        let lines: Vec<&str> = md.fenced[0].lines.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(lines, ["$ tool run", "ok"]);
        let (range, text) = &md.fenced[0].lines[0];
        assert_eq!(&GUIDE[range.clone()], text);
        // The literal block: no language, its line as written.
        assert_eq!(md.fenced[1].info, "");
        let (range, text) = &md.fenced[1].lines[0];
        assert_eq!(&GUIDE[range.clone()], "src/not_a_cite.py");
        assert_eq!(text, "src/not_a_cite.py");
        assert_eq!(md.unrendered.len(), 1);
        assert!(at(GUIDE, &md.unrendered[0]).contains("src/gone.py"));
        // A notebook cell's captured output, in a `parsed-literal` block.
        let output = "Run\n===\n\n.. parsed-literal::\n\n    /home/me/src/pkg/metrics.py:880: UserWarning: few spikes\n\nDone.\n";
        let md = parse(output);
        assert_eq!(md.fenced.len(), 1);
        assert!(
            md.fenced[0].lines[0]
                .1
                .starts_with("/home/me/src/pkg/metrics.py:880")
        );
    }

    #[test]
    fn a_toctree_entry_is_a_document_not_self_and_without_its_suffix() {
        let md = parse(
            "Home\n====\n\n.. toctree::\n\n   Overview <self>\n   self\n   Guide <guide>\n   usage/quickstart.md\n   tour.ipynb\n",
        );
        let docs: Vec<&str> = md.doc_refs.iter().map(|d| d.document.as_str()).collect();
        // A source's suffix is dropped, as Sphinx drops it from an entry.
        assert_eq!(docs, ["guide", "usage/quickstart", "tour"]);
    }

    const QUOTED_DEPTH: usize = 3_000;

    #[test]
    fn hostile_text_parses_without_a_panic() {
        let deep = "* ".repeat(2_000) + "x\n";
        let quoted: String = (0..QUOTED_DEPTH)
            .map(|i| format!("{}x\n\n", " ".repeat(i)))
            .collect();
        let long = "a".repeat(70_000) + " ``b`` :doc:`c\n";
        for raw in [
            deep.as_str(),
            quoted.as_str(),
            long.as_str(),
            "``",
            ":doc:`",
            ".. _:",
            "`<>`_",
            "\u{feff}=\n=\n",
        ] {
            let _ = parse(raw);
        }
        // Nested past what the grammar reads safely: read as Markdown, its
        // literal still a code span.
        let nested = format!("{quoted}See ``src/app.py``.\n");
        assert!(nesting(&nested) > MAX_NESTING);
        let md = parse(&nested);
        assert_eq!(md.code_spans.len(), 1);
        assert!(md.read_plain.is_some_and(|why| why.contains("nests")));
        assert_eq!(nesting("a\n  b\n    c\n  d\ne\n"), 3);
    }

    #[test]
    fn unclosed_inline_markup_past_the_budget_is_read_as_plain_text() {
        for opener in ["*a ", "`a ", "``a ", "|a ", "`a < ", ":class:`a "] {
            let hostile = format!("T\n=\n\nSee ``src/app.py``. {}\n", opener.repeat(50_000));
            let md = parse(&hostile);
            assert!(
                md.read_plain
                    .as_deref()
                    .is_some_and(|why| why.contains("bytes read")),
                "{opener:?}: {:?}",
                md.read_plain
            );
            // Still read: its literal is a code span.
            assert!(
                md.code_spans
                    .iter()
                    .any(|c| hostile.get(c.content.clone()) == Some("src/app.py")),
                "{opener:?}"
            );
        }
        // The same markup closed, as real records write it, is parsed.
        let closed = "T\n=\n\n".to_owned() + &"*a* `b` ``c`` |d| :class:`e` ".repeat(5_000);
        let md = parse(&closed);
        assert_eq!(md.read_plain, None);
        assert_eq!(md.headings.len(), 1);
    }
}
