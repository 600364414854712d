//! Stage 3 of the pipeline (claims): citations — the places where a record
//! points at something in the repository: a test (`tests/unit/test_x.py::test_y`,
//! `src/a.rs::tests::name`), lines of a file (`path:294`, `path:779-788`), or a
//! path (`` `docs/roadmap.md` ``, `` `schemas/mcp/` ``).
//!
//! The finder reads the raw text of one record (Markdown or plain text) in a few
//! linear regex passes and returns every citation with the raw bytes it occupies,
//! so a later check can underline exactly the cite. It also settles what only the
//! record itself can say: which file a `::name` or `:294` shorthand refers to,
//! whether the sentence marks the cite as history ("renamed from ..."), and which
//! commit the surrounding section says it was measured at (its frame). Whether a
//! cited thing exists is not decided here: checks do that against a snapshot.

use std::ops::Range;

use regex::Regex;

use crate::records::frames::{DeclaredFrame, RecordFrames};
use crate::records::markdown::Markdown;

/// Phrases that, shortly before a cite, mark it as naming something that no
/// longer exists on purpose.
pub const DEFAULT_HISTORY_MARKERS: [&str; 10] = [
    "renamed from",
    "deleted",
    "used to be",
    "formerly",
    "was removed",
    "no longer exists",
    "in the past",
    "previously",
    "never existed",
    "was moved",
];

/// How far (in characters) before a cite a history marker still reaches when
/// it is not in the cite's own sentence.
const HISTORY_REACH_CHARS: usize = 40;

/// How far back the sentence holding a cite is looked for, in bytes; a longer
/// "sentence" is a table or a list without punctuation, not prose.
const SENTENCE_LIMIT_BYTES: usize = 1000;

/// A parametrized id longer than this is not a parameter but an unclosed `[`.
const PARAM_LIMIT_BYTES: usize = 2000;

/// Words that end a history marker's reach: in "renamed from `a` to `b`" the
/// marker speaks of `a`, and `b` is the live name.
const REACH_STOPPERS: [&str; 6] = ["to", "into", "now", "became", "instead", "replaced by"];

/// File extensions a backticked word or an unslashed `name.ext:LINE` must end
/// with to be read as a file.
const KNOWN_EXTENSIONS: &[&str] = &[
    "adoc", "bash", "bazel", "bzl", "c", "cc", "cfg", "cjs", "conf", "cpp", "cs", "css", "csv",
    "cts", "ex", "exs", "gif", "go", "gradle", "graphql", "h", "hpp", "html", "in", "ini", "ipynb",
    "java", "jpeg", "jpg", "js", "json", "jsonc", "jsonl", "jsx", "kt", "kts", "lock", "lua", "md",
    "mdx", "mjs", "mod", "mts", "nix", "pdf", "php", "pl", "png", "proto", "ps1", "py", "pyi",
    "rb", "rs", "rst", "scss", "sh", "snap", "sql", "sum", "svg", "swift", "tex", "tf", "toml",
    "ts", "tsv", "tsx", "txt", "vue", "xml", "yaml", "yml", "zig", "zsh",
];

/// Slash-separated prose that is not a path (`and/or`) and prefixes that name
/// something other than a file (`origin/main`, `application/json`).
const NOT_PATHS: &[&str] = &[
    "and/or",
    "either/or",
    "i/o",
    "n/a",
    "w/o",
    "r/w",
    "read/write",
    "tcp/ip",
    "client/server",
    "yes/no",
    "true/false",
    "on/off",
    "pass/fail",
    "input/output",
];
const NOT_PATH_PREFIXES: &[&str] = &[
    "origin/",
    "upstream/",
    "refs/",
    "application/",
    "text/",
    "image/",
    "audio/",
    "video/",
    "multipart/",
    "font/",
];

/// What the finder is told about the record's conventions.
#[derive(Debug, Clone)]
pub struct CiteOptions {
    /// Phrases that mark a following cite as history (matched case-insensitively,
    /// whitespace-insensitively, on word boundaries).
    pub history: Vec<String>,
    /// A frame marker; its `sha` group names the commit.
    pub frame_pattern: Regex,
    /// Read bare `module::tests::name` paths as Rust test cites.
    pub rust_module_paths: bool,
    /// Where a link's leading `/` points, relative to the record's folder
    /// (`../`: the Sphinx source folder of a reStructuredText page); `None`,
    /// the site's root, which is not a path of the tree.
    pub source_root: Option<String>,
    /// The repository's own hosted address, whose file and folder links are
    /// read as paths of this tree.
    pub own_links: Option<std::sync::Arc<super::hosted::OwnLinks>>,
}

impl Default for CiteOptions {
    fn default() -> Self {
        CiteOptions {
            history: DEFAULT_HISTORY_MARKERS
                .iter()
                .map(|m| (*m).to_string())
                .collect(),
            frame_pattern: default_frame_pattern().clone(),
            rust_module_paths: false,
            source_root: None,
            own_links: None,
        }
    }
}

/// Why a frame pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FramePatternError {
    #[error("the frame pattern is not a valid regular expression: {0}")]
    Invalid(String),
    #[error("the frame pattern has no `sha` group, so it cannot say which commit it names")]
    NoShaGroup,
}

impl CiteOptions {
    /// Replaces the frame pattern, refusing one that cannot name a commit.
    pub fn set_frame_pattern(&mut self, pattern: &str) -> Result<(), FramePatternError> {
        if pattern.len() > crate::pathspec::MAX_PATTERN_BYTES {
            return Err(FramePatternError::Invalid(format!(
                "it is {} bytes, over the {} a pattern may have",
                pattern.len(),
                crate::pathspec::MAX_PATTERN_BYTES
            )));
        }
        let regex = Regex::new(pattern).map_err(|e| FramePatternError::Invalid(e.to_string()))?;
        if !regex.capture_names().any(|name| name == Some("sha")) {
            return Err(FramePatternError::NoShaGroup);
        }
        self.frame_pattern = regex;
        Ok(())
    }
}

/// What a citation names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CiteKind {
    /// A pytest node id: `path::name`, `path::Class::name`, `path::name[param]`.
    Test {
        /// Repository-relative as written, an elided prefix removed; empty for a
        /// `::name` shorthand with no file before it.
        path: String,
        /// The class path (`Outer::Inner`) for a method.
        class: Option<String>,
        name: String,
        /// The parametrization id between the brackets.
        param: Option<String>,
        /// The path was written with `.../` or `…/` in front: only its tail is known.
        elided_prefix: bool,
    },
    /// A Rust test in a file: `tests/x.rs::name`, `src/a/b.rs::tests::name`.
    RustTest {
        path: String,
        /// The inline modules between the file and the name (`tests`, `inner`).
        modules: Vec<String>,
        name: String,
        elided_prefix: bool,
    },
    /// A pytest node id written with the module's name for its file:
    /// `test_cli::test_x`, `tests.unit.test_cli::TestA::test_y` (the file is
    /// `test_cli.py`, `tests/unit/test_cli.py`). The module's name is a test
    /// module's (`test_*`, `*_test`, `*_tests`); whether it names a file here
    /// is for the resolver to say.
    ModuleTest {
        /// As written, dotted.
        module: String,
        /// The class path and the name.
        segments: Vec<String>,
        param: Option<String>,
    },
    /// A bare Rust path to a test: `module::tests::name` (only when
    /// [`CiteOptions::rust_module_paths`] is on).
    RustPath { segments: Vec<String> },
    /// Lines of a file: `path:LINE` or `path:START-END`.
    Line {
        path: String,
        start: usize,
        end: usize,
        elided_prefix: bool,
    },
    /// A backticked repository path; `is_dir` when written with a trailing `/`
    /// (which `path` no longer carries).
    Path { path: String, is_dir: bool },
    /// A Markdown link (or image) to a relative path: an explicit citation,
    /// read from the record's folder as GitHub renders it; `?query` dropped,
    /// `%20`-style escapes decoded. An empty target is the record itself (an
    /// in-page `#anchor`); `fragment` is what follows `#`.
    Link {
        target: String,
        is_dir: bool,
        fragment: Option<String>,
        /// A Sphinx document reference (`:doc:`usage``, a `toctree` entry),
        /// read as a link to the page built of it (`./usage.html`): its
        /// source must be in the project, as Sphinx's build warns.
        document: bool,
    },
    /// A Sphinx cross-reference to a label (`:ref:`intro``), normalised as
    /// Sphinx compares labels.
    Label { label: String },
    /// A Python role's object (`:func:`pkg.mod.run``): `names`, the dotted
    /// names it may mean, the current module's first (`pkg.run` for `run`
    /// under `.. module:: pkg`), the target as written last.
    PyObject { role: String, names: Vec<String> },
}

/// One citation in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cite {
    /// Raw byte range of the whole citation (for a path cite, the text between
    /// the backticks).
    pub span: Range<usize>,
    pub kind: CiteKind,
    /// Written as `::name` or `:LINE`; the path was taken from the file the
    /// record cited last.
    pub shorthand: bool,
    /// The record marks the cite as history ("renamed from ...").
    pub historical: bool,
    /// The commit the cite's section says it was measured at.
    pub frame: Option<String>,
    /// The cite sits in a code block, fenced or indented (quoted command
    /// output, say).
    pub in_fence: bool,
    /// The address of the outside link whose text holds the cite
    /// (``[`test/e2e_test.go`](https://github.com/o/r/blob/main/test/e2e_test.go)``):
    /// the path may be of the repository that link opens.
    pub outside_link: Option<String>,
    /// The cite is a link to the repository's own hosted page
    /// (`https://github.com/o/r/blob/main/x`), read from the root.
    pub hosted: bool,
    /// For a link, whose span is its text: where it points, as written. The
    /// commit that wrote the cite is the one that wrote this.
    pub destination: Option<String>,
}

impl Cite {
    /// The cite as people write it, shorthand resolved:
    /// `tests/unit/test_x.py::TestA::test_y[param]`, `docs/a.md:3-5`.
    pub fn cite_text(&self) -> String {
        match &self.kind {
            CiteKind::Test {
                path,
                class,
                name,
                param,
                elided_prefix,
            } => {
                let mut text = elided(path, *elided_prefix);
                for part in class.iter().chain(std::iter::once(name)) {
                    text.push_str("::");
                    text.push_str(part);
                }
                if let Some(param) = param {
                    text.push('[');
                    text.push_str(param);
                    text.push(']');
                }
                text
            }
            CiteKind::RustTest {
                path,
                modules,
                name,
                elided_prefix,
            } => {
                let mut text = elided(path, *elided_prefix);
                for part in modules.iter().chain(std::iter::once(name)) {
                    text.push_str("::");
                    text.push_str(part);
                }
                text
            }
            CiteKind::RustPath { segments } => segments.join("::"),
            CiteKind::ModuleTest {
                module,
                segments,
                param,
            } => {
                let mut text = format!("{module}::{}", segments.join("::"));
                if let Some(param) = param {
                    text.push('[');
                    text.push_str(param);
                    text.push(']');
                }
                text
            }
            CiteKind::Line {
                path,
                start,
                end,
                elided_prefix,
            } => {
                let path = elided(path, *elided_prefix);
                if start == end {
                    format!("{path}:{start}")
                } else {
                    format!("{path}:{start}-{end}")
                }
            }
            CiteKind::Path { path, is_dir } => {
                if *is_dir {
                    format!("{path}/")
                } else {
                    path.clone()
                }
            }
            CiteKind::Link {
                target,
                is_dir,
                fragment,
                ..
            } => {
                let mut text = target.clone();
                if *is_dir {
                    text.push('/');
                }
                if let Some(fragment) = fragment {
                    text.push('#');
                    // A literalinclude's selection, its values escaped for the
                    // link: shown as written (`#pyobject=Cls.meth`).
                    let selection = ["pyobject=", "start-after=", "end-before="]
                        .iter()
                        .any(|p| fragment.starts_with(p));
                    match super::locate::percent_decoded(fragment).filter(|_| selection) {
                        Some(shown) => text.push_str(&shown),
                        None => text.push_str(fragment),
                    }
                }
                text
            }
            CiteKind::Label { label } => label.clone(),
            CiteKind::PyObject { names, .. } => names.last().cloned().unwrap_or_default(),
        }
    }

    /// The cited file or directory, when the cite names one.
    pub fn path(&self) -> Option<&str> {
        match &self.kind {
            CiteKind::Test { path, .. }
            | CiteKind::RustTest { path, .. }
            | CiteKind::Line { path, .. }
            | CiteKind::Path { path, .. }
            | CiteKind::Link { target: path, .. } => Some(path),
            CiteKind::RustPath { .. }
            | CiteKind::ModuleTest { .. }
            | CiteKind::Label { .. }
            | CiteKind::PyObject { .. } => None,
        }
    }
}

fn elided(path: &str, elided_prefix: bool) -> String {
    if elided_prefix {
        format!(".../{path}")
    } else {
        path.to_string()
    }
}

/// Every citation in `raw`, in text order.
pub fn find_cites(raw: &str, options: &CiteOptions) -> Vec<Cite> {
    find_cites_in(raw, &Markdown::new(raw), options)
}

/// The column (0-based, by the unescaped `|` before it) of a Markdown table
/// row that `at` sits in, if its line is one (`| a | b |`).
fn table_column(raw: &str, at: usize) -> Option<usize> {
    let at = at.min(raw.len());
    let start = raw[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = raw.get(start..at)?;
    if !before.trim_start().starts_with('|') {
        return None;
    }
    let bytes = before.as_bytes();
    Some(
        bytes
            .iter()
            .enumerate()
            .filter(|(i, b)| **b == b'|' && (*i == 0 || bytes[i - 1] != b'\\'))
            .count(),
    )
}

/// The header of the Markdown table column that `at` sits in (`Old Path`
/// for a cell under `| Old Path | New Path |`), if its line is a table row.
pub(in crate::checks::cites) fn table_header(raw: &str, at: usize) -> Option<&str> {
    let column = table_column(raw, at)?;
    let at = at.min(raw.len());
    let mut start = raw[..at].rfind('\n').map_or(0, |i| i + 1);
    let is_row = |line: &str| line.trim_start().starts_with('|');
    // Up the table's rows to its first, the header; a wide table stops
    // the climb at a few hundred rows.
    let mut rows = 0;
    while start > 0 && rows < 500 {
        let above = raw[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if !is_row(&raw[above..start - 1]) {
            break;
        }
        start = above;
        rows += 1;
    }
    let end = raw[start..].find('\n').map_or(raw.len(), |i| start + i);
    let header = &raw[start..end];
    // The header is followed by its delimiter row (`| --- | :-: |`).
    let next_end = raw[(end + 1).min(raw.len())..]
        .find('\n')
        .map_or(raw.len(), |i| end + 1 + i);
    let delimiter = raw.get((end + 1).min(raw.len())..next_end)?;
    if rows == 0
        || !delimiter
            .chars()
            .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t' | '\r'))
    {
        return None;
    }
    header.split('|').nth(column).map(str::trim)
}

/// The file a cite names, for a later `:LINE` shorthand: its path, whether its
/// prefix is elided, and where the cite ends.
fn file_named(kind: &CiteKind, end: usize) -> Option<(String, bool, usize)> {
    match kind {
        CiteKind::Test {
            path,
            elided_prefix,
            ..
        }
        | CiteKind::RustTest {
            path,
            elided_prefix,
            ..
        }
        | CiteKind::Line {
            path,
            elided_prefix,
            ..
        } if !path.is_empty() => Some((path.clone(), *elided_prefix, end)),
        CiteKind::Path {
            path,
            is_dir: false,
        } => Some((path.clone(), false, end)),
        _ => None,
    }
}

/// Every citation in `raw`, in text order, reading its already parsed
/// Markdown structure.
pub fn find_cites_in(raw: &str, markdown: &Markdown, options: &CiteOptions) -> Vec<Cite> {
    let mut fences = markdown.fence_regions();
    fences.extend(markdown.preformatted(raw));
    fences.extend(markdown.example_output_sections(raw));
    fences.sort_by_key(|region| region.start);
    let kept = readings(raw, markdown, options, &fences);
    cites_of(raw, markdown, options, &fences, kept)
}

/// Every shape's readings of `raw`, earlier first; at one start the longer
/// reading wins, and a reading overlapping a kept one is dropped.
fn readings(
    raw: &str,
    markdown: &Markdown,
    options: &CiteOptions,
    fences: &[Range<usize>],
) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    node_ids(raw, &mut found);
    shorthand_tests(raw, fences, &mut found);
    if options.rust_module_paths {
        rust_paths(raw, fences, &mut found);
    }
    module_ids(raw, &mut found);
    data_node_ids(raw, &mut found);
    line_cites(raw, fences, &mut found);
    line_shorthands(raw, fences, &mut found);
    path_cites(raw, markdown, &mut found);
    link_cites(markdown, options.source_root.as_deref(), &mut found);
    for reference in &markdown.py_refs {
        // Sphinx tries the name under the current module too, even one that
        // starts with the module's own name (`greenlet.switch` under
        // `.. currentmodule:: greenlet` is `greenlet.greenlet.switch`).
        let mut names = Vec::new();
        if let Some(module) = &reference.module {
            names.push(format!("{module}.{}", reference.target));
        }
        names.push(reference.target.clone());
        found.push(Found {
            span: reference.text.clone(),
            reading: Reading::Cite(CiteKind::PyObject {
                role: reference.role.clone(),
                names,
            }),
        });
    }
    for reference in &markdown.label_refs {
        found.push(Found {
            span: reference.text.clone(),
            reading: Reading::Cite(CiteKind::Label {
                label: reference.label.clone(),
            }),
        });
    }
    if let Some(own) = options.own_links.as_deref() {
        hosted_cites(raw, markdown, own, &mut found);
    }

    found.sort_by(|a, b| {
        a.span
            .start
            .cmp(&b.span.start)
            .then(b.span.end.cmp(&a.span.end))
    });
    let mut kept: Vec<Found> = Vec::with_capacity(found.len());
    for candidate in found {
        if kept
            .last()
            .is_some_and(|last| candidate.span.start < last.span.end)
        {
            continue;
        }
        kept.push(candidate);
    }

    kept
}

/// The readings kept, as citations: a shorthand resolved to the file named
/// before it, each marked as history, in a fence, in a link to another site,
/// and with the frame its section declares.
fn cites_of(
    raw: &str,
    markdown: &Markdown,
    options: &CiteOptions,
    fences: &[Range<usize>],
    kept: Vec<Found>,
) -> Vec<Cite> {
    // A file cited with a test id defines tests: a later shorthand may mean it.
    // In start order (as `kept` is), so a mention is looked up, not scanned for.
    let cited_with_tests: Vec<usize> = kept
        .iter()
        .filter(|f| {
            matches!(
                f.reading,
                Reading::Cite(CiteKind::Test { .. } | CiteKind::RustTest { .. })
            )
        })
        .map(|f| f.span.start)
        .collect();
    let mentions: Vec<Mention> = code_file_mentions(raw)
        .into_iter()
        .filter(|m| {
            looks_like_test_file(&m.path) || cited_with_tests.binary_search(&m.start).is_ok()
        })
        .collect();
    let history = HistoryMarkers::new(&options.history);
    let outside_links = OutsideLinks::of(markdown);
    let frames = RecordFrames::read(raw, markdown, &options.frame_pattern);
    let mut cites = Vec::with_capacity(kept.len());
    // The file a `:LINE` shorthand means, and where the record named it.
    let mut last_file: Option<(String, bool, usize)> = None;
    // In a table, the file each column last named, row by row: a bare
    // `:122` in a cell continues its column's file (`config.hpp:98` above
    // it), not the last file of the row before.
    let mut column_files: std::collections::BTreeMap<usize, (String, bool, usize)> =
        std::collections::BTreeMap::new();
    let mut mention_index = 0;
    let mut last_mention: Option<&Mention> = None;
    for found in kept {
        while let Some(mention) = mentions.get(mention_index) {
            if mention.start >= found.span.start {
                break;
            }
            last_mention = Some(mention);
            mention_index += 1;
        }
        let shorthand = matches!(
            found.reading,
            Reading::TestShorthand { .. } | Reading::LineShorthand { .. }
        );
        let mut pinned = None;
        let mut destination = None;
        let hosted = matches!(found.reading, Reading::Hosted { .. });
        let kind = match found.reading {
            Reading::Cite(kind) => kind,
            Reading::Hosted {
                kind,
                pin,
                destination: written,
            } => {
                pinned = pin;
                destination = written;
                kind
            }
            Reading::Link {
                kind,
                destination: written,
            } => {
                destination = Some(written);
                kind
            }
            // `::name` with no test file named before it is not a citation
            // of a test: C++'s `::testing::Test`, Ruby's `::Const` qualify a
            // name, as `:80` with no file is a port.
            Reading::TestShorthand { segments, param } => match last_mention {
                Some(mention) => resolve_test(segments, param, &mention.path, mention.elided),
                None => continue,
            },
            Reading::LineShorthand { start, end } => match &table_column(raw, found.span.start)
                .map(|column| {
                    // Its column's file, else one named earlier in its row.
                    column_files
                        .get(&column)
                        .or(last_file.as_ref().filter(|(_, _, named)| {
                            raw.get(*named..found.span.start)
                                .is_some_and(|between| !between.contains('\n'))
                        }))
                })
                .unwrap_or(last_file.as_ref())
            {
                // `:294` continues a cite of the same sentence; further on, a
                // bare `:26657` is a port or a count, `:59` the minutes of a
                // schedule, not a line of that file.
                Some((_, _, named))
                    if sentence_break(raw.get(*named..found.span.start))
                        || said_as_a_value(raw, found.span.start) =>
                {
                    continue;
                }
                Some((path, elided_prefix, _)) => CiteKind::Line {
                    path: path.clone(),
                    start,
                    end,
                    elided_prefix: *elided_prefix,
                },
                // `:80` with no file before it is not a citation of anything.
                None => continue,
            },
        };
        let start = found.span.start;
        // An indented code block is code on the rendered page as a fenced one
        // is (a man page's `$ podman run …` and the runtime's error it prints).
        let in_fence =
            in_regions(fences, start) || markdown.indented.iter().any(|r| r.contains(&start));
        // Quoted command output lists files; the author cites them in prose.
        if !in_fence && let Some(file) = file_named(&kind, found.span.end) {
            match table_column(raw, start) {
                Some(column) => {
                    column_files.insert(column, file.clone());
                }
                None => column_files.clear(),
            }
            last_file = Some(file);
        }
        let outside_link = outside_links.around(&found.span);
        // `[src/index.ts:48](https://…/blob/main/core/src/index.ts#L48)`: a
        // line cite in a link's text that restates the file the address opens
        // is the link's label (typedoc writes them); the address is the cite.
        if let (CiteKind::Line { path, .. }, Some(url)) = (&kind, &outside_link)
            && address_opens(url, path)
        {
            continue;
        }
        cites.push(Cite {
            historical: history.marks(raw, start),
            // A link pinned to a commit or tag shows that tree, whatever
            // section it sits in.
            frame: pinned.or_else(|| frames.at(start).map(DeclaredFrame::key)),
            in_fence,
            outside_link,
            hosted,
            destination,
            span: found.span,
            kind,
            shorthand,
        });
    }
    cites
}

/// The record's links to other sites (`://`), by where their text starts, so the
/// link a cite sits in is a binary search, not a scan of every link per cite
/// (which made a page of 64,000 links quadratic).
/// Whether a forge address (`https://host/o/r/blob/REF/core/src/x.ts#L4`)
/// opens `path` or a file whose path ends with it.
fn address_opens(url: &str, path: &str) -> bool {
    let url = url.split(['#', '?']).next().unwrap_or(url);
    let Some((_, rest)) = url
        .split_once("/-/blob/")
        .or_else(|| url.split_once("/blob/"))
    else {
        return false;
    };
    let path = path.trim_start_matches("./");
    // After the ref: the file (a ref with a slash in it is not told apart).
    rest.split_once('/')
        .is_some_and(|(_, file)| file == path || file.ends_with(&format!("/{path}")))
}

struct OutsideLinks<'a> {
    /// (text range, destination, place among the record's links), by text start.
    by_start: Vec<(&'a Range<usize>, &'a str, usize)>,
    /// The furthest text end among `by_start[..=k]`: where a walk back may stop.
    reach: Vec<usize>,
}

impl<'a> OutsideLinks<'a> {
    fn of(markdown: &'a Markdown) -> Self {
        let mut by_start: Vec<_> = markdown
            .links
            .iter()
            .enumerate()
            .filter(|(_, l)| l.destination.contains("://"))
            .map(|(i, l)| (&l.text, l.destination.as_str(), i))
            .collect();
        by_start.sort_by_key(|&(text, _, i)| (text.start, i));
        let reach = by_start
            .iter()
            .scan(0, |furthest, (text, _, _)| {
                *furthest = text.end.max(*furthest);
                Some(*furthest)
            })
            .collect();
        OutsideLinks { by_start, reach }
    }

    /// The destination of the first link (in the record's order) whose text holds
    /// `span`. Link texts nest only as an image inside a link, so the walk back from
    /// the nearest start ends after a step or two.
    fn around(&self, span: &Range<usize>) -> Option<String> {
        let after = self
            .by_start
            .partition_point(|(text, _, _)| text.start <= span.start);
        let reaching = self.reach[..after]
            .iter()
            .rev()
            .take_while(|&&end| end >= span.end)
            .count();
        self.by_start[after - reaching..after]
            .iter()
            .filter(|(text, _, _)| span.end <= text.end)
            .min_by_key(|&&(_, _, i)| i)
            .map(|&(_, destination, _)| destination.to_owned())
    }
}

/// Whether text between two cites ends a sentence: a blank line, a new list
/// item, or a full stop (`?`, `!`) before more words.
fn sentence_break(text: Option<&str>) -> bool {
    text.is_some_and(|text| {
        let lines: Vec<&str> = text.split('\n').collect();
        // The first and last pieces are the ends of the lines the two cites sit on.
        let inner = lines.get(1..).unwrap_or_default();
        inner.iter().enumerate().any(|(at, line)| {
            let line = line.trim_start();
            (at + 1 < inner.len() && line.is_empty())
                || line.starts_with("- ")
                || line.starts_with("* ")
                || line.starts_with("+ ")
        }) || [". ", ".\n", "? ", "?\n", "! ", "!\n"]
            .iter()
            .any(|end| text.contains(end))
    })
}

/// Whether the words just before a `:LINE` shorthand at `at` say it is a
/// value, not a line: a port or an address (`listen.client_addr` (default
/// `:7070`), `binds to port `:8080``, "a local callback server on
/// `:8090`": the last word, or the one before a preposition), where
/// `GetDecorators` at `:67`, or `parseCIDRAllowlist` after "localhost-only"
/// at `:60-63`, is a line of the file named before.
fn said_as_a_value(raw: &str, at: usize) -> bool {
    const VALUE_WORDS: [&str; 15] = [
        "default",
        "port",
        "ports",
        "listen",
        "listens",
        "listening",
        "bind",
        "binds",
        "address",
        "localhost",
        "host",
        "server",
        "servers",
        "proxy",
        "endpoint",
    ];
    let mut from = at.saturating_sub(60);
    while !raw.is_char_boundary(from) {
        from += 1;
    }
    let before = raw.get(from..at).unwrap_or_default().to_ascii_lowercase();
    // (Not past the sentence's start: a word of the one before says
    // nothing of this value.)
    let before = before.rsplit(['.', '\n']).next().unwrap_or_default();
    // The last word, or the one before a preposition ("server on").
    let mut words = before
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .rev();
    match words.next() {
        Some(word) if VALUE_WORDS.contains(&word) => true,
        Some("on" | "at" | "to" | "is" | "of" | "via") => {
            words.next().is_some_and(|word| VALUE_WORDS.contains(&word))
        }
        _ => false,
    }
}

/// A cite before shorthand resolution.
struct Found {
    span: Range<usize>,
    reading: Reading,
}

enum Reading {
    /// Complete as written.
    Cite(CiteKind),
    /// `::a::b[param]`: the file is the last `.py`/`.rs` file mentioned before it.
    TestShorthand {
        segments: Vec<String>,
        param: Option<String>,
    },
    /// `:LINE`: the file is the last file cited before it.
    LineShorthand { start: usize, end: usize },
    /// A link to one of the repository's own hosted pages; `pin`, the commit
    /// or tag it shows, when not a branch; `destination`, the address as the
    /// link wrote it (none for a bare address, which is its own span).
    Hosted {
        kind: CiteKind,
        pin: Option<String>,
        destination: Option<String>,
    },
    /// A relative link, its span the link's text: `destination` is where it
    /// points, as written.
    Link { kind: CiteKind, destination: String },
}

fn resolve_test(
    segments: Vec<String>,
    param: Option<String>,
    path: &str,
    elided_prefix: bool,
) -> CiteKind {
    let path = path.to_owned();
    if path.ends_with(".rs") {
        let mut modules = segments;
        let name = modules.pop().unwrap_or_default();
        CiteKind::RustTest {
            path,
            modules,
            name,
            elided_prefix,
        }
    } else {
        python_test(path, segments, param, elided_prefix)
    }
}

fn python_test(
    path: String,
    mut segments: Vec<String>,
    param: Option<String>,
    elided_prefix: bool,
) -> CiteKind {
    let name = segments.pop().unwrap_or_default();
    CiteKind::Test {
        path,
        class: (!segments.is_empty()).then(|| segments.join("::")),
        name,
        param,
        elided_prefix,
    }
}

mod history;
mod shapes;
#[cfg(test)]
mod tests;

pub(crate) use history::sentence_start;
use history::*;
use shapes::*;
pub use shapes::{governing_frame, warm_up};
