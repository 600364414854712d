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
use std::sync::OnceLock;

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

/// The frame markers a record uses: see [`crate::records::frames`].
pub use crate::records::frames::DEFAULT_FRAME_PATTERN;

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
        if pattern.len() > crate::facts::MAX_PATTERN_BYTES {
            return Err(FramePatternError::Invalid(format!(
                "it is {} bytes, over the {} a pattern may have",
                pattern.len(),
                crate::facts::MAX_PATTERN_BYTES
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
                    match percent_decoded(fragment).filter(|_| selection) {
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

/// Every citation in `raw`, in text order, reading its already parsed
/// Markdown structure.
pub fn find_cites_in(raw: &str, markdown: &Markdown, options: &CiteOptions) -> Vec<Cite> {
    let fences = markdown.fence_regions();
    let mut found: Vec<Found> = Vec::new();
    node_ids(raw, &mut found);
    shorthand_tests(raw, &fences, &mut found);
    if options.rust_module_paths {
        rust_paths(raw, &fences, &mut found);
    }
    module_ids(raw, &mut found);
    data_node_ids(raw, &mut found);
    line_cites(raw, &fences, &mut found);
    line_shorthands(raw, &fences, &mut found);
    path_cites(raw, markdown, &mut found);
    link_cites(markdown, options.source_root.as_deref(), &mut found);
    for reference in &markdown.py_refs {
        let mut names = Vec::new();
        if let Some(module) = &reference.module
            && !reference.target.starts_with(&format!("{module}."))
        {
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

    // Earlier first; at one start the longer reading wins; overlaps are dropped.
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
            Reading::TestShorthand { segments, param } => {
                resolve_test(segments, param, last_mention.map(|m| (&m.path, m.elided)))
            }
            Reading::LineShorthand { start, end } => match &last_file {
                // `:294` continues a cite of the same paragraph; further on, a
                // bare `:26657` is a port or a count, not a line of that file.
                Some((_, _, named)) if paragraph_break(raw.get(*named..found.span.start)) => {
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
            in_regions(&fences, start) || markdown.indented.iter().any(|r| r.contains(&start));
        // Quoted command output lists files; the author cites them in prose.
        match &kind {
            _ if in_fence => {}
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
            } if !path.is_empty() => {
                last_file = Some((path.clone(), *elided_prefix, found.span.end))
            }
            CiteKind::Path {
                path,
                is_dir: false,
            } => last_file = Some((path.clone(), false, found.span.end)),
            _ => {}
        }
        let outside_link = outside_links.around(&found.span);
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

/// Whether text holds a blank line: the end of a paragraph.
fn paragraph_break(text: Option<&str>) -> bool {
    text.is_some_and(|text| {
        let lines: Vec<&str> = text.split('\n').collect();
        // The first and last pieces are the ends of the lines the two cites sit on.
        lines.len() > 2
            && lines[1..lines.len() - 1]
                .iter()
                .any(|line| line.trim().is_empty())
    })
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
    file: Option<(&String, bool)>,
) -> CiteKind {
    let (path, elided_prefix) = file.map_or((String::new(), false), |(p, e)| (p.clone(), e));
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

// ---------------------------------------------------------------------------
// Patterns.

/// Compiles the built-in patterns now (they cost a few milliseconds: Unicode
/// classes), so a caller can do it on another core while it does other work.
pub fn warm_up() {
    let _ = (
        default_frame_pattern(),
        node_id_pattern(),
        shorthand_pattern(),
        rust_path_pattern(),
        line_pattern(),
        line_shorthand_pattern(),
        code_file_pattern(),
        module_id_pattern(),
        data_node_id_pattern(),
    );
}

fn compiled(slot: &'static OnceLock<Regex>, pattern: &'static str) -> &'static Regex {
    slot.get_or_init(|| {
        Regex::new(pattern).unwrap_or_else(|e| {
            unreachable!("built-in pattern {pattern} is tested to compile: {e}")
        })
    })
}

fn default_frame_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, DEFAULT_FRAME_PATTERN)
}

fn node_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?:py|rs))(?<segments>(?:::[_\p{L}]\w*)+)",
    )
}

/// `test_cli::test_x`, `tests.unit.test_cli::TestA::test_y`.
fn module_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<module>[_\p{L}]\w*(?:\.[_\p{L}]\w*)*)(?<segments>(?:::[_\p{L}]\w*)+)",
    )
}

/// A test case a collector makes of a data file: `tests/cases/parse.yaml::empty`.
fn data_node_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?:ya?ml|json|toml|txt|feature|ini|cfg))(?<segments>(?:::\w[\w\-]*)+)",
    )
}

fn shorthand_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"(?:::[_\p{L}]\w*)+")
}

fn rust_path_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"[_\p{L}]\w*(?:::[_\p{L}]\w*){2,}")
}

fn line_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?<ext>[A-Za-z][A-Za-z0-9]{0,9})):(?<start>[0-9]{1,19})(?:[-–](?<end>[0-9]{1,19}))?",
    )
}

fn line_shorthand_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r":(?<start>[0-9]{1,19})(?:[-–](?<end>[0-9]{1,19}))?")
}

fn code_file_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"[\w.\-/…]*[\w\-]\.(?:py|rs)")
}

// ---------------------------------------------------------------------------
// Character context.

fn char_before(raw: &str, at: usize) -> Option<char> {
    raw.get(..at).and_then(|s| s.chars().next_back())
}

fn char_at(raw: &str, at: usize) -> Option<char> {
    raw.get(at..).and_then(|s| s.chars().next())
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The match is part of a URL or an address (`https://x/a.py::t`, `user@h.rs`).
fn in_url(raw: &str, start: usize) -> bool {
    if matches!(char_before(raw, start), Some(':' | '@')) {
        return true;
    }
    let floor = floor_boundary(raw, start.saturating_sub(512));
    let before = raw.get(floor..start).unwrap_or("");
    let token_start = before
        .rfind(|c: char| c.is_whitespace() || "<([{\"'`".contains(c))
        .map_or(0, |i| i + 1);
    let token = before.get(token_start..).unwrap_or("");
    token.contains("://") || token.to_ascii_lowercase().starts_with("www.")
}

fn floor_boundary(raw: &str, mut at: usize) -> usize {
    at = at.min(raw.len());
    while at > 0 && !raw.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Splits an elided prefix off a path: `.../tests/x.py`, `…test_x.py` and
/// `packages/…/tests/x.py` keep only what follows the ellipsis; `../x.py` is
/// a relative path, not an elision.
fn split_elided(path: &str) -> (String, bool) {
    let cut = [".../", "…/"]
        .iter()
        .filter_map(|marker| path.rfind(marker).map(|i| i + marker.len()))
        .max();
    if let Some(i) = cut {
        return (path.get(i..).unwrap_or("").to_string(), true);
    }
    let bare = path.trim_start_matches(['.', '…']);
    let dots = path.len() - bare.len();
    if path.starts_with('…') || dots >= 3 {
        return (bare.to_string(), true);
    }
    (path.to_string(), false)
}

/// The end of a balanced `[...]` starting at `open`, on one line.
fn balanced_brackets(raw: &str, open: usize) -> Option<usize> {
    let rest = raw.get(open..)?;
    if !rest.starts_with('[') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        if i > PARAM_LIMIT_BYTES {
            return None;
        }
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open + i + 1);
                }
            }
            '\n' | '\r' => return None,
            _ => {}
        }
    }
    None
}

/// A parametrization id right after `end`, if any: the new end and the id.
fn param_after(raw: &str, end: usize) -> (usize, Option<String>) {
    match balanced_brackets(raw, end) {
        Some(close) if close > end + 2 => {
            (close, raw.get(end + 1..close - 1).map(ToString::to_string))
        }
        _ => (end, None),
    }
}

fn segments_of(text: &str) -> Vec<String> {
    text.split("::")
        .filter(|s| !s.is_empty())
        .map(ToString::to_string)
        .collect()
}

// ---------------------------------------------------------------------------
// The passes.

fn node_ids(raw: &str, found: &mut Vec<Found>) {
    for caps in node_id_pattern().captures_iter(raw) {
        let (Some(whole), Some(path), Some(segments)) =
            (caps.get(0), caps.name("path"), caps.name("segments"))
        else {
            continue;
        };
        if in_url(raw, whole.start()) {
            continue;
        }
        let (path_text, elided_prefix) = split_elided(path.as_str());
        if file_stem_missing(&path_text) {
            continue;
        }
        let mut segments = segments_of(segments.as_str());
        let (kind, end) = if path_text.ends_with(".rs") {
            let name = segments.pop().unwrap_or_default();
            (
                CiteKind::RustTest {
                    path: path_text,
                    modules: segments,
                    name,
                    elided_prefix,
                },
                whole.end(),
            )
        } else {
            let (end, param) = param_after(raw, whole.end());
            (python_test(path_text, segments, param, elided_prefix), end)
        };
        found.push(Found {
            span: whole.start()..end,
            reading: Reading::Cite(kind),
        });
    }
}

/// A pytest module id: a test module's dotted name, then `::` and the test.
fn module_ids(raw: &str, found: &mut Vec<Found>) {
    for caps in module_id_pattern().captures_iter(raw) {
        let (Some(whole), Some(module), Some(segments)) =
            (caps.get(0), caps.name("module"), caps.name("segments"))
        else {
            continue;
        };
        if char_before(raw, whole.start()).is_some_and(|c| is_word(c) || ":.-/…@".contains(c))
            || in_url(raw, whole.start())
        {
            continue;
        }
        let last = module.as_str().rsplit('.').next().unwrap_or_default();
        let test_module =
            last.starts_with("test_") || last.ends_with("_test") || last.ends_with("_tests");
        if !test_module {
            continue;
        }
        let (end, param) = param_after(raw, whole.end());
        found.push(Found {
            span: whole.start()..end,
            reading: Reading::Cite(CiteKind::ModuleTest {
                module: module.as_str().to_owned(),
                segments: segments_of(segments.as_str()),
                param,
            }),
        });
    }
}

/// Node ids whose file is data a collector turns into tests (YAML cases, a
/// Gherkin feature): read as Python-style ids; recount cannot read their tests.
fn data_node_ids(raw: &str, found: &mut Vec<Found>) {
    for caps in data_node_id_pattern().captures_iter(raw) {
        let (Some(whole), Some(path), Some(segments)) =
            (caps.get(0), caps.name("path"), caps.name("segments"))
        else {
            continue;
        };
        if in_url(raw, whole.start()) {
            continue;
        }
        let (path_text, elided_prefix) = split_elided(path.as_str());
        if path_text.rsplit('/').next().unwrap_or("").starts_with('.') {
            continue;
        }
        let (end, param) = param_after(raw, whole.end());
        found.push(Found {
            span: whole.start()..end,
            reading: Reading::Cite(python_test(
                path_text,
                segments_of(segments.as_str()),
                param,
                elided_prefix,
            )),
        });
    }
}

/// `.py` alone, or a path ending in `/.py`, names no file.
fn file_stem_missing(path: &str) -> bool {
    path.rsplit('/').next().unwrap_or("").len() <= 3
}

fn shorthand_tests(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
    for m in shorthand_pattern().find_iter(raw) {
        // `a::b`, `Vec::<T>::new`, `x.py::t` are not shorthands; neither is a
        // `::` inside a code block, where it is most likely code.
        if char_before(raw, m.start()).is_some_and(|c| is_word(c) || ":.-/>)]…".contains(c))
            || in_regions(fences, m.start())
        {
            continue;
        }
        let segments = segments_of(m.as_str());
        // A bare `::name` is a test only when it reads as one (`::test_x`,
        // `::TestClass::test_y`, `::tests::name`): `::error` or `::new` in prose
        // is code, and reading it as a cite would be a false alarm.
        if !segments
            .iter()
            .any(|s| s.to_ascii_lowercase().starts_with("test"))
        {
            continue;
        }
        let (end, param) = param_after(raw, m.end());
        found.push(Found {
            span: m.start()..end,
            reading: Reading::TestShorthand { segments, param },
        });
    }
}

fn rust_paths(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
    for m in rust_path_pattern().find_iter(raw) {
        if char_before(raw, m.start()).is_some_and(|c| is_word(c) || ":.-/…".contains(c))
            || in_regions(fences, m.start())
        {
            continue;
        }
        let segments = segments_of(m.as_str());
        let tests_inside = segments
            .iter()
            .take(segments.len().saturating_sub(1))
            .any(|s| s == "tests");
        if tests_inside {
            found.push(Found {
                span: m.range(),
                reading: Reading::Cite(CiteKind::RustPath { segments }),
            });
        }
    }
}

/// What may follow a line number: not more of a word or number (`:12abc`,
/// `:1.5`, `:12:30` read as a time).
fn line_number_ends(raw: &str, end: usize) -> bool {
    match char_at(raw, end) {
        None => true,
        Some(c) if is_word(c) => false,
        Some('.') => !raw
            .get(end + 1..)
            .and_then(|s| s.chars().next())
            .is_some_and(|c| c.is_ascii_digit()),
        Some(_) => true,
    }
}

/// The lines a cite names. Up to 19 digits always fit; a range written
/// backwards (`:12-3`) names its first line.
fn line_numbers(caps: &regex::Captures<'_>) -> Option<(usize, usize)> {
    let start: usize = caps.name("start")?.as_str().parse().ok()?;
    let end = match caps.name("end") {
        Some(end) => end.as_str().parse().ok()?,
        None => start,
    };
    Some((start, end.max(start)))
}

fn line_cites(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
    for caps in line_pattern().captures_iter(raw) {
        let (Some(whole), Some(path), Some(ext)) =
            (caps.get(0), caps.name("path"), caps.name("ext"))
        else {
            continue;
        };
        if in_regions(fences, whole.start())
            || in_url(raw, whole.start())
            || !line_number_ends(raw, whole.end())
        {
            continue;
        }
        let (path_text, elided_prefix) = split_elided(path.as_str());
        // Without a directory, only a known extension makes `name.ext` a file:
        // `example.com:443` and `v2.x:3` are not.
        let known = KNOWN_EXTENSIONS.contains(&ext.as_str().to_ascii_lowercase().as_str());
        if path_text.is_empty() || (!path_text.contains('/') && !known) {
            continue;
        }
        let Some((start, end)) = line_numbers(&caps) else {
            continue;
        };
        found.push(Found {
            span: whole.range(),
            reading: Reading::Cite(CiteKind::Line {
                path: path_text,
                start,
                end,
                elided_prefix,
            }),
        });
    }
}

fn line_shorthands(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
    for caps in line_shorthand_pattern().captures_iter(raw) {
        let Some(whole) = caps.get(0) else {
            continue;
        };
        let opens = match char_before(raw, whole.start()) {
            None => true,
            Some(c) => c.is_whitespace() || "(,`".contains(c),
        };
        if !opens
            || char_at(raw, whole.end()) == Some(':')
            || !line_number_ends(raw, whole.end())
            || in_regions(fences, whole.start())
        {
            continue;
        }
        let Some((start, end)) = line_numbers(&caps) else {
            continue;
        };
        found.push(Found {
            span: whole.range(),
            reading: Reading::LineShorthand { start, end },
        });
    }
}

fn path_cites(raw: &str, markdown: &Markdown, found: &mut Vec<Found>) {
    for span in code_spans(markdown) {
        let Some(content) = raw.get(span.clone()) else {
            continue;
        };
        if let Some((path, is_dir)) = path_like(content) {
            found.push(Found {
                span,
                reading: Reading::Cite(CiteKind::Path { path, is_dir }),
            });
        }
    }
}

/// Relative link targets: `[the guide](../docs/guide.md#setup)`.
fn link_cites(markdown: &Markdown, source_root: Option<&str>, found: &mut Vec<Found>) {
    for link in &markdown.links {
        let rooted = match (source_root, link.destination.strip_prefix('/')) {
            (Some(root), Some(rest)) if !rest.starts_with('/') => Some(format!("{root}{rest}")),
            _ => None,
        };
        let destination = rooted.as_deref().unwrap_or(&link.destination);
        let Some((target, is_dir, fragment)) = link_target(destination) else {
            continue;
        };
        found.push(Found {
            span: link.text.clone(),
            reading: Reading::Link {
                kind: CiteKind::Link {
                    target,
                    is_dir,
                    fragment,
                },
                destination: link.destination.clone(),
            },
        });
    }
}

/// Links to the repository's own hosted files and folders
/// (`https://github.com/o/r/blob/main/src/x.py#L10`): written as links, as
/// autolinks, or bare in the text (`<img src="…">` too); not in code blocks or
/// text the page does not render. A line range is a line cite, anything else
/// a link cite, from the root (`/src/x.py`).
fn hosted_cites(
    raw: &str,
    markdown: &Markdown,
    own: &super::hosted::OwnLinks,
    found: &mut Vec<Found>,
) {
    static BARE: OnceLock<Regex> = OnceLock::new();
    let bare = BARE.get_or_init(|| {
        Regex::new(r#"https?://[^\s<>"'`()\[\]{}|\\^]+"#)
            .expect("the bare address pattern compiles")
    });
    let hosted = |url: &str| -> Option<(CiteKind, Option<String>)> {
        let link = own.link(url)?;
        let target = format!("/{}", link.path);
        let kind = match link.lines {
            Some((start, end)) => CiteKind::Line {
                path: target,
                start,
                end,
                elided_prefix: false,
            },
            None => CiteKind::Link {
                target,
                is_dir: false,
                fragment: link.fragment,
            },
        };
        Some((kind, link.pinned))
    };
    let mut linked = std::collections::BTreeSet::new();
    for link in &markdown.links {
        if let Some((kind, pin)) = hosted(&link.destination) {
            linked.insert(link.destination.trim());
            found.push(Found {
                span: link.text.clone(),
                reading: Reading::Hosted {
                    kind,
                    pin,
                    destination: Some(link.destination.clone()),
                },
            });
        }
    }
    let unread = |at: usize| {
        markdown.in_code(at)
            || markdown.unrendered.iter().any(|r| r.contains(&at))
            || markdown
                .front_matter
                .as_ref()
                .is_some_and(|r| r.contains(&at))
    };
    for m in bare.find_iter(raw) {
        // Sentence punctuation after an address is not part of it.
        let url = m
            .as_str()
            .trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_', '\'']);
        if linked.contains(url) {
            continue;
        }
        // The address first (a string's cost); where the page's code is, a scan.
        if let Some((kind, pin)) = hosted(url).filter(|_| !unread(m.start())) {
            found.push(Found {
                span: m.start()..m.start() + url.len(),
                reading: Reading::Hosted {
                    kind,
                    pin,
                    destination: None,
                },
            });
        }
    }
}

/// The repository path a link destination names, and its `#fragment`, if it
/// names one: not a URL, an e-mail address, a site-absolute path, or a rustdoc
/// intra-doc link (`crate::extract::Path`, `fn@from_fn`, a bare item name) —
/// a path has a `/` or a file extension. An in-page `#anchor` names the
/// record itself (an empty path).
fn link_target(destination: &str) -> Option<(String, bool, Option<String>)> {
    let destination = destination.trim();
    let lower = destination.to_ascii_lowercase();
    let fragment = destination
        .split_once('#')
        .map(|(_, f)| f)
        .filter(|f| !f.is_empty())
        .and_then(percent_decoded);
    if let Some(anchor) = destination.strip_prefix('#') {
        // `#!` and `#/route` are a script's, not a heading's.
        let heading_like = !anchor.is_empty()
            && !anchor.starts_with(['!', '/'])
            && !anchor.contains(char::is_whitespace);
        return heading_like.then(|| (String::new(), false, fragment));
    }
    if destination.is_empty()
        || destination.starts_with(['/', '<', '{', '$', '~'])
        || destination.contains("://")
        || lower.starts_with("mailto:")
        || lower.starts_with("tel:")
        || lower.starts_with("data:")
        || lower.starts_with("javascript:")
        || destination.contains(char::is_whitespace)
        || destination.contains("::")
        || destination.contains('@')
    {
        return None;
    }
    let path = destination.split(['#', '?']).next().unwrap_or_default();
    let path = percent_decoded(path)?;
    if path.is_empty() || path == "." || path == "./" {
        return None;
    }
    let is_dir = path.ends_with('/');
    let last = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    if !path.contains('/') && !last.contains('.') {
        return None;
    }
    Some((path.trim_end_matches('/').to_owned(), is_dir, fragment))
}

/// `%20` and friends decoded; `None` for an escape that is not UTF-8.
pub(crate) fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b,
            bytes.get(i + 1).and_then(|&c| hex(c)),
            bytes.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push(u8::try_from(high * 16 + low).ok()?);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The path a code span's text names, if it looks like a repository path.
fn path_like(content: &str) -> Option<(String, bool)> {
    let lower = content.to_ascii_lowercase();
    let allowed = |c: char| c.is_alphanumeric() || "_.-/+@".contains(c);
    if content.is_empty()
        || !content.chars().all(allowed)
        || content.starts_with(['-', '/', '@', '~', '$'])
        || lower.starts_with("http")
        || lower.starts_with("www.")
        || content.contains("...")
        || content.contains("//")
        || content.ends_with('.')
        || !content.chars().any(char::is_alphanumeric)
        || NOT_PATHS.contains(&lower.as_str())
        || NOT_PATH_PREFIXES.iter().any(|p| lower.starts_with(p))
    {
        return None;
    }
    let is_dir = content.ends_with('/');
    let path = content.trim_end_matches('/');
    let file = path.rsplit('/').next().unwrap_or("");
    let known_extension = file.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && KNOWN_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    });
    if !(path.contains('/') || is_dir || known_extension) || path.is_empty() {
        return None;
    }
    Some((path.to_string(), is_dir))
}

/// Raw ranges of the contents of single-backtick code spans: a path is
/// written `` `docs/a.md` ``, and longer runs quote code.
fn code_spans(markdown: &Markdown) -> impl Iterator<Item = Range<usize>> + '_ {
    markdown
        .code_spans
        .iter()
        .filter(|span| span.ticks == 1)
        .map(|span| span.content.clone())
}

// ---------------------------------------------------------------------------
// Files mentioned, for `::name` shorthands.

struct Mention {
    start: usize,
    path: String,
    elided: bool,
}

/// Whether a file's name says it holds tests: pytest's `test_*.py` and
/// `*_test.py`, Django's `tests.py`, or a file under a `tests/`/`test/` folder (Rust's integration
/// tests, a Python test tree).
fn looks_like_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    stem.starts_with("test_")
        || stem == "tests"
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || path
            .split('/')
            .rev()
            .skip(1)
            .any(|folder| folder == "tests" || folder == "test")
}

/// Every `.py`/`.rs` file the record names, cited or not: records write
/// "tests/unit/x.py drives ...; ::test_y holds ...", and the shorthand means
/// that file (when it is a test file: see [`find_cites_in`]).
fn code_file_mentions(raw: &str) -> Vec<Mention> {
    code_file_pattern()
        .find_iter(raw)
        .filter(|m| !char_at(raw, m.end()).is_some_and(is_word) && !in_url(raw, m.start()))
        .filter_map(|m| {
            let (path, elided) = split_elided(m.as_str());
            (!file_stem_missing(&path)).then_some(Mention {
                start: m.start(),
                path,
                elided,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Fenced blocks, headings and frames.

fn in_regions(regions: &[Range<usize>], at: usize) -> bool {
    let index = regions.partition_point(|r| r.end <= at);
    regions.get(index).is_some_and(|r| r.contains(&at))
}

/// The frame the passage at raw offset `at` itself says it was measured at
/// ([`RecordFrames::measured_at`]), with the default frame pattern. What
/// `recount init` drafts a fact's `at` from.
pub fn measured_at(raw: &str, markdown: &Markdown, at: usize) -> Option<DeclaredFrame> {
    RecordFrames::read(raw, markdown, default_frame_pattern())
        .measured_at(at)
        .cloned()
}

// ---------------------------------------------------------------------------
// History markers.

struct HistoryMarkers {
    markers: Vec<String>,
    longest: usize,
}

impl HistoryMarkers {
    fn new(markers: &[String]) -> Self {
        let markers: Vec<String> = markers
            .iter()
            .map(|m| normalize_marking(m, usize::MAX).0.trim().to_string())
            .filter(|m| !m.is_empty())
            .collect();
        let longest = markers.iter().map(|m| m.chars().count()).max().unwrap_or(0);
        HistoryMarkers { markers, longest }
    }

    /// A marker sits in the sentence before `at`, or ends within
    /// [`HISTORY_REACH_CHARS`] characters of it, and nothing between it and
    /// `at` turns to a new name ("... to", "now").
    fn marks(&self, raw: &str, at: usize) -> bool {
        if self.markers.is_empty() {
            return false;
        }
        let sentence = sentence_start(raw, at);
        let before = raw.get(..at).unwrap_or("");
        let reach = before
            .char_indices()
            .rev()
            .nth(HISTORY_REACH_CHARS + self.longest)
            .map_or(0, |(i, _)| i);
        let window_start = sentence.min(reach);
        let Some(window) = raw.get(window_start..at) else {
            return false;
        };
        let (text, sentence_index) = normalize_marking(window, sentence - window_start);
        self.markers.iter().any(|marker| {
            text.match_indices(marker.as_str()).any(|(i, _)| {
                let end = i + marker.len();
                let bounded = !text
                    .get(..i)
                    .and_then(|s| s.chars().next_back())
                    .is_some_and(is_word)
                    && !text
                        .get(end..)
                        .and_then(|s| s.chars().next())
                        .is_some_and(is_word);
                let after = text.get(end..).unwrap_or("");
                // Beyond its sentence a marker reaches into the next table cell
                // or list item, but not past a full stop: "... rather than
                // deleted. `x` holds" speaks of `x` as live.
                let near = i >= sentence_index
                    || (after.chars().count() <= HISTORY_REACH_CHARS
                        && ![". ", "! ", "? ", "; "]
                            .iter()
                            .any(|end| after.contains(end)));
                bounded && near && !turns_to_new_name(after)
            })
        })
    }
}

fn turns_to_new_name(between: &str) -> bool {
    REACH_STOPPERS.iter().any(|stopper| {
        between.match_indices(stopper).any(|(i, _)| {
            let end = i + stopper.len();
            !between
                .get(..i)
                .and_then(|s| s.chars().next_back())
                .is_some_and(is_word)
                && !between
                    .get(end..)
                    .and_then(|s| s.chars().next())
                    .is_some_and(is_word)
        })
    })
}

/// Lowercase, whitespace runs as one space, emphasis and code marks dropped, so
/// a marker wrapped over a line or set in italics is still found; also maps the
/// byte offset `mark` of `text` into the result.
fn normalize_marking(text: &str, mark: usize) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut mapped = None;
    let mut in_space = false;
    for (i, c) in text.char_indices() {
        if mapped.is_none() && i >= mark {
            mapped = Some(out.len());
        }
        if c.is_whitespace() {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
            continue;
        }
        if c == '*' || c == '`' {
            continue;
        }
        in_space = false;
        out.extend(c.to_lowercase());
    }
    let len = out.len();
    (out, mapped.unwrap_or(len))
}

/// Raw offset where the sentence holding `at` begins: after `.`, `!`, `?` or
/// `;` followed by whitespace, after a blank line, at a heading, list item,
/// quote or table row, or at a table cell.
pub(crate) fn sentence_start(raw: &str, at: usize) -> usize {
    let bytes = raw.as_bytes();
    let floor = floor_boundary(raw, at.saturating_sub(SENTENCE_LIMIT_BYTES));
    let mut i = at.min(raw.len());
    let mut line_start = i;
    let mut blank_since_newline = true;
    let mut newline_seen = false;
    while i > floor {
        let Some(&b) = bytes.get(i - 1) else {
            break;
        };
        match b {
            b'\n' => {
                if newline_seen && blank_since_newline {
                    return line_start;
                }
                let line = raw.get(i..).unwrap_or("").trim_start();
                let after_digits = line.trim_start_matches(|c: char| c.is_ascii_digit());
                let numbered = after_digits.len() < line.len()
                    && (after_digits.starts_with(". ") || after_digits.starts_with(") "));
                if line.starts_with(['#', '>', '|', '-', '*', '+']) || numbered {
                    return i;
                }
                newline_seen = true;
                blank_since_newline = true;
                line_start = i;
            }
            b'.' | b'!' | b'?' | b';'
                if i < at && bytes.get(i).is_some_and(u8::is_ascii_whitespace) =>
            {
                return i;
            }
            b'|' => return i,
            _ if !b.is_ascii_whitespace() => blank_since_newline = false,
            _ => {}
        }
        i -= 1;
    }
    floor
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn find(raw: &str) -> Vec<Cite> {
        find_cites(raw, &CiteOptions::default())
    }

    fn spans(raw: &str) -> Vec<&str> {
        find(raw).iter().map(|c| &raw[c.span.clone()]).collect()
    }

    fn only(raw: &str) -> Cite {
        let mut cites = find(raw);
        assert_eq!(cites.len(), 1, "{raw:?} gave {cites:#?}");
        cites.remove(0)
    }

    fn test(path: &str, class: Option<&str>, name: &str, param: Option<&str>) -> CiteKind {
        CiteKind::Test {
            path: path.into(),
            class: class.map(Into::into),
            name: name.into(),
            param: param.map(Into::into),
            elided_prefix: false,
        }
    }

    fn line(path: &str, start: usize, end: usize) -> CiteKind {
        CiteKind::Line {
            path: path.into(),
            start,
            end,
            elided_prefix: false,
        }
    }

    #[test]
    fn built_in_patterns_compile() {
        for pattern in [
            default_frame_pattern(),
            node_id_pattern(),
            shorthand_pattern(),
            rust_path_pattern(),
            line_pattern(),
            line_shorthand_pattern(),
            code_file_pattern(),
        ] {
            assert!(!pattern.as_str().is_empty());
        }
        assert!(CiteOptions::default().history.len() == DEFAULT_HISTORY_MARKERS.len());
    }

    #[test]
    fn pytest_node_ids_with_and_without_class() {
        let raw = "It is held by tests/unit/test_schemas.py::test_project_id_is_required, \
                   and by `tests/unit/test_a.py::TestFaces::test_five`.";
        let cites = find(raw);
        assert_eq!(cites.len(), 2);
        assert_eq!(
            &raw[cites[0].span.clone()],
            "tests/unit/test_schemas.py::test_project_id_is_required"
        );
        assert_eq!(
            cites[0].kind,
            test(
                "tests/unit/test_schemas.py",
                None,
                "test_project_id_is_required",
                None
            )
        );
        assert_eq!(
            &raw[cites[1].span.clone()],
            "tests/unit/test_a.py::TestFaces::test_five"
        );
        assert_eq!(
            cites[1].kind,
            test("tests/unit/test_a.py", Some("TestFaces"), "test_five", None)
        );
        assert!(!cites[0].shorthand && !cites[0].historical && !cites[0].in_fence);
        assert_eq!(cites[0].frame, None);
    }

    #[test]
    fn nested_classes_make_a_class_path() {
        let cite = only("see t/test_x.py::Outer::Inner::test_y here");
        assert_eq!(
            cite.kind,
            test("t/test_x.py", Some("Outer::Inner"), "test_y", None)
        );
        assert_eq!(cite.cite_text(), "t/test_x.py::Outer::Inner::test_y");
    }

    #[test]
    fn parametrized_ids_balance_brackets_and_keep_spaces() {
        let raw = "four: tests/unit/test_schemas.py::test_every_pattern[mcp/tool-context.schema.json-('properties', 'projectId')] moves.";
        let cite = only(raw);
        assert_eq!(
            &raw[cite.span.clone()],
            "tests/unit/test_schemas.py::test_every_pattern[mcp/tool-context.schema.json-('properties', 'projectId')]"
        );
        assert_eq!(
            cite.kind,
            test(
                "tests/unit/test_schemas.py",
                None,
                "test_every_pattern",
                Some("mcp/tool-context.schema.json-('properties', 'projectId')")
            )
        );
        let raw = "x `a/test_b.py::test_c[[1, 2]-a b-\"q\"]` y";
        let cite = only(raw);
        assert_eq!(
            &raw[cite.span.clone()],
            "a/test_b.py::test_c[[1, 2]-a b-\"q\"]"
        );
        assert_eq!(cite.cite_text(), "a/test_b.py::test_c[[1, 2]-a b-\"q\"]");
        // An unclosed bracket is not a parameter: the cite stops at the name.
        let raw = "a/test_b.py::test_c[never closed\n]";
        let cite = only(raw);
        assert_eq!(&raw[cite.span.clone()], "a/test_b.py::test_c");
        assert_eq!(cite.kind, test("a/test_b.py", None, "test_c", None));
        // Empty brackets are not a parameter either.
        assert_eq!(spans("a/test_b.py::test_c[] x"), ["a/test_b.py::test_c"]);
    }

    #[test]
    fn elided_prefixes_keep_the_tail_and_say_so() {
        let raw = ".../test_schemas.py::test_schema_is_valid[tool-context.schema.json]\n\
                   …/test_x.py::test_y and packages/…/tests/unit/test_z.py::test_w";
        let cites = find(raw);
        assert_eq!(cites.len(), 3);
        assert_eq!(
            &raw[cites[0].span.clone()],
            ".../test_schemas.py::test_schema_is_valid[tool-context.schema.json]"
        );
        let elided = |path: &str, name: &str, param: Option<&str>| CiteKind::Test {
            path: path.into(),
            class: None,
            name: name.into(),
            param: param.map(Into::into),
            elided_prefix: true,
        };
        assert_eq!(
            cites[0].kind,
            elided(
                "test_schemas.py",
                "test_schema_is_valid",
                Some("tool-context.schema.json")
            )
        );
        assert_eq!(&raw[cites[1].span.clone()], "…/test_x.py::test_y");
        assert_eq!(cites[1].kind, elided("test_x.py", "test_y", None));
        assert_eq!(
            cites[2].kind,
            elided("tests/unit/test_z.py", "test_w", None)
        );
        assert_eq!(cites[1].cite_text(), ".../test_x.py::test_y");
        // `../` is a relative path, not an elision: the caller refuses it.
        let cite = only("../../etc/test_x.py::test_y");
        assert_eq!(cite.kind, test("../../etc/test_x.py", None, "test_y", None));
    }

    #[test]
    fn shorthand_takes_the_last_cited_file() {
        let raw = "tests/unit/test_a.py::test_one holds it; ::test_two and `::TestK::test_three[p]` too.\n\n\
                   Then tests/unit/test_b.py::test_four, and ::test_five.";
        let cites = find(raw);
        let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
        assert_eq!(
            texts,
            [
                "tests/unit/test_a.py::test_one",
                "::test_two",
                "::TestK::test_three[p]",
                "tests/unit/test_b.py::test_four",
                "::test_five"
            ]
        );
        assert_eq!(
            cites.iter().map(|c| c.shorthand).collect::<Vec<_>>(),
            [false, true, true, false, true]
        );
        assert_eq!(
            cites[1].kind,
            test("tests/unit/test_a.py", None, "test_two", None)
        );
        assert_eq!(
            cites[2].kind,
            test(
                "tests/unit/test_a.py",
                Some("TestK"),
                "test_three",
                Some("p")
            )
        );
        assert_eq!(
            cites[4].kind,
            test("tests/unit/test_b.py", None, "test_five", None)
        );
        assert_eq!(cites[4].cite_text(), "tests/unit/test_b.py::test_five");
    }

    #[test]
    fn shorthand_follows_a_file_named_in_prose_and_keeps_its_elision() {
        let raw = "tests/a/test_wire.py::test_x is one. tests/unit/test_input.py drives long keys; \
                   ::test_never_echoed holds it. Over .../test_d.py::test_p, ::test_q.";
        let cites = find(raw);
        assert_eq!(cites.len(), 4);
        assert_eq!(
            cites[1].kind,
            test("tests/unit/test_input.py", None, "test_never_echoed", None)
        );
        assert_eq!(
            cites[3].kind,
            CiteKind::Test {
                path: "test_d.py".into(),
                class: None,
                name: "test_q".into(),
                param: None,
                elided_prefix: true
            }
        );
    }

    #[test]
    fn shorthand_skips_files_that_are_not_test_files() {
        let raw = "tests/unit/test_a.py::test_one runs; the helper sits in `src/pkg/tools.py` \
                   and src/b.py, yet ::test_two is in the test file. src/c.py::helper is cited \
                   with a test id, so ::test_three is in it; tests/d.rs drives ::it_works.";
        let cites = find(raw);
        let kinds: Vec<&CiteKind> = cites
            .iter()
            .filter(|c| c.shorthand)
            .map(|c| &c.kind)
            .collect();
        assert_eq!(
            kinds,
            [
                &test("tests/unit/test_a.py", None, "test_two", None),
                &test("src/c.py", None, "test_three", None),
            ]
        );
        assert!(looks_like_test_file("pkg/parse_test.py"));
        assert!(looks_like_test_file("tests/cli.rs"));
        assert!(looks_like_test_file("test_x.py"));
        assert!(!looks_like_test_file("src/pkg/tools.py"));
        assert!(looks_like_test_file("app/tests.py"));
        assert!(!looks_like_test_file("src/tester.py"));
        assert!(!looks_like_test_file("src/testing.rs"));
    }

    #[test]
    fn module_ids_name_test_modules_only() {
        let raw = "`test_cli::test_x` and tests.unit.test_io::TestA::test_y[p], \
                   io_tests::test_z; not std::io::Read, os.path::join, self::test_q or \
                   SomeSuite::testCase.";
        let cites = find(raw);
        let texts: Vec<String> = cites.iter().map(Cite::cite_text).collect();
        assert_eq!(
            texts,
            [
                "test_cli::test_x",
                "tests.unit.test_io::TestA::test_y[p]",
                "io_tests::test_z"
            ]
        );
        assert_eq!(
            cites[1].kind,
            CiteKind::ModuleTest {
                module: "tests.unit.test_io".into(),
                segments: vec!["TestA".into(), "test_y".into()],
                param: Some("p".into()),
            }
        );
        assert_eq!(cites[1].path(), None);
    }

    #[test]
    fn data_file_node_ids_are_test_cites() {
        let raw = "`tests/cases/parse.yaml::empty_input` and features/login.feature::Logs_in[x]; \
                   not https://x.io/a.yaml::b or .yaml::c.";
        let cites = find(raw);
        assert_eq!(cites.len(), 2);
        assert_eq!(
            cites[0].kind,
            test("tests/cases/parse.yaml", None, "empty_input", None)
        );
        assert_eq!(cites[1].cite_text(), "features/login.feature::Logs_in[x]");
    }

    #[test]
    fn shorthand_without_a_file_has_an_empty_path() {
        let cite = only("Only ::test_orphan is named.");
        assert!(cite.shorthand);
        assert_eq!(cite.kind, test("", None, "test_orphan", None));
        assert_eq!(cite.cite_text(), "::test_orphan");
    }

    #[test]
    fn things_that_look_like_shorthands_but_are_code() {
        assert!(find("Vec::<u8>::new, a::b, std::fmt::Display, x.py::t").len() == 1);
        assert!(find("```\n::std::cout << x;\n```\n").is_empty());
        assert!(find("C++ `foo()::bar` and `]::x`").is_empty());
        assert!(find("see x.py; `::error` and ::new are workflow commands and code").is_empty());
    }

    #[test]
    fn rust_test_cites_in_files() {
        let raw = "tests/cli.rs::exits_two and src/claims/prose.rs::tests::crlf_line_endings, \
                   then ::tests::inner::other.";
        let cites = find(raw);
        assert_eq!(cites.len(), 3);
        assert_eq!(
            cites[0].kind,
            CiteKind::RustTest {
                path: "tests/cli.rs".into(),
                modules: vec![],
                name: "exits_two".into(),
                elided_prefix: false
            }
        );
        assert_eq!(
            cites[1].kind,
            CiteKind::RustTest {
                path: "src/claims/prose.rs".into(),
                modules: vec!["tests".into()],
                name: "crlf_line_endings".into(),
                elided_prefix: false
            }
        );
        assert_eq!(
            &raw[cites[1].span.clone()],
            "src/claims/prose.rs::tests::crlf_line_endings"
        );
        assert_eq!(
            cites[2].kind,
            CiteKind::RustTest {
                path: "src/claims/prose.rs".into(),
                modules: vec!["tests".into(), "inner".into()],
                name: "other".into(),
                elided_prefix: false
            }
        );
        assert_eq!(
            cites[2].cite_text(),
            "src/claims/prose.rs::tests::inner::other"
        );
    }

    #[test]
    fn bare_rust_module_paths_only_when_asked() {
        let raw = "held by `claims::prose::tests::crlf_line_endings`, not by std::fmt::Display \
                   nor by a::b::tests, nor in\n```\nuse x::tests::y;\n```\n";
        assert!(find(raw).is_empty());
        let options = CiteOptions {
            rust_module_paths: true,
            ..CiteOptions::default()
        };
        let cites = find_cites(raw, &options);
        assert_eq!(cites.len(), 1, "{cites:#?}");
        assert_eq!(
            &raw[cites[0].span.clone()],
            "claims::prose::tests::crlf_line_endings"
        );
        assert_eq!(
            cites[0].kind,
            CiteKind::RustPath {
                segments: vec![
                    "claims".into(),
                    "prose".into(),
                    "tests".into(),
                    "crlf_line_endings".into()
                ]
            }
        );
        assert_eq!(
            cites[0].cite_text(),
            "claims::prose::tests::crlf_line_endings"
        );
    }

    #[test]
    fn only_python_and_rust_files_make_test_cites() {
        assert!(find("src/x.ts::name and a.go::b and x.pyc::y and ../../etc/passwd::x").is_empty());
    }

    #[test]
    fn line_cites_single_and_ranges() {
        let raw = "docs/protocol/mcp-tools.md:50 and (tests/unit/test_schemas.py:779-788), \
                   `schemas/README.md:98`, test_schemas.py:294 and src/a.rs:3–7.";
        let cites = find(raw);
        let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
        assert_eq!(
            texts,
            [
                "docs/protocol/mcp-tools.md:50",
                "tests/unit/test_schemas.py:779-788",
                "schemas/README.md:98",
                "test_schemas.py:294",
                "src/a.rs:3–7"
            ]
        );
        assert_eq!(cites[0].kind, line("docs/protocol/mcp-tools.md", 50, 50));
        assert_eq!(cites[1].kind, line("tests/unit/test_schemas.py", 779, 788));
        assert_eq!(cites[3].kind, line("test_schemas.py", 294, 294));
        assert_eq!(cites[4].kind, line("src/a.rs", 3, 7));
        assert_eq!(cites[4].cite_text(), "src/a.rs:3-7");
        assert_eq!(cites[0].cite_text(), "docs/protocol/mcp-tools.md:50");
    }

    #[test]
    fn line_shorthand_refers_to_the_last_cited_file() {
        let raw = "a literal at test_schemas.py:294 — git grep returns two lines, :294 and :781.";
        let cites = find(raw);
        let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
        assert_eq!(texts, ["test_schemas.py:294", ":294", ":781"]);
        assert_eq!(cites[2].kind, line("test_schemas.py", 781, 781));
        assert!(cites[2].shorthand && !cites[0].shorthand);
        // With no file cited before it, `:80` cites nothing.
        assert!(find("listen on :80 and :443").is_empty());
        // Emoji codes and times are not shorthands.
        let raw = "docs/a.md:3 then :100: and 12:30 and at 10:30-11:00";
        assert_eq!(spans(raw), ["docs/a.md:3"]);
    }

    #[test]
    fn non_cites_stay_quiet() {
        for raw in [
            "We met at 12:30 and 10:30–11:00.",
            "Served on http://localhost:80 and https://example.com:8443/x.py:3.",
            "See https://github.com/o/r/blob/main/tests/test_x.py::test_y",
            "e.g. a:b, key:value, ratio 3:1, v2.1:3, example.com:443",
            "Globs: `src/*.rs`, `docs/**/*.md`, `tests/test_?.py`.",
            "Flags `--rules`, `$HOME/x`, `~/x`, `/etc/passwd`, `http://a/b`.",
            "Not paths: `origin/main`, `and/or`, `application/json`, `a b/c`, `x::y`.",
            "Words: `foo`, `MAX_SOURCE_FILE_BYTES`, `os.path`, `3.12`, `.../tools.py`.",
            "Mail me@x.py:3 or me@x.py::test_z",
            "A `` `docs/a.md` `` double-backtick span quotes backticks.",
        ] {
            assert!(find(raw).is_empty(), "{raw:?} gave {:#?}", find(raw));
        }
    }

    #[test]
    fn a_line_cite_in_an_indented_block_of_output_is_in_code() {
        let raw = "Exit codes:\n\n    $ tool run /etc\n    Error: runner.go:346: permission denied\n\nSee `runner.go:12`.\n";
        let cites = find(raw);
        let in_code: Vec<(&str, bool)> = cites
            .iter()
            .map(|c| (&raw[c.span.clone()], c.in_fence))
            .collect();
        assert_eq!(in_code, [("runner.go:346", true), ("runner.go:12", false)]);
    }

    #[test]
    fn line_and_path_cites_in_fenced_output_are_not_cites() {
        let raw = "Measured:\n\n```text\n$ git grep -n x\ndocs/a.md:50: x\n`docs/b.md`\ntests/t.py::test_listed PASSED\n```\n\nafter :50";
        let cites = find(raw);
        assert_eq!(cites.len(), 1, "{raw:?} gave {cites:#?}");
        assert_eq!(&raw[cites[0].span.clone()], "tests/t.py::test_listed");
        assert!(cites[0].in_fence);
    }

    #[test]
    fn a_path_in_the_text_of_an_outside_link_knows_the_address() {
        let raw = "Its suite ([`test/e2e_test.go`](https://github.com/o/r/blob/main/test/e2e_test.go)) and [`docs/a.md`](docs/a.md).";
        let cites = find(raw);
        let seen: Vec<(String, Option<&str>)> = cites
            .iter()
            .map(|c| (c.cite_text(), c.outside_link.as_deref()))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "test/e2e_test.go".to_owned(),
                    Some("https://github.com/o/r/blob/main/test/e2e_test.go")
                ),
                ("docs/a.md".to_owned(), None),
            ]
        );
    }

    #[test]
    fn path_cites_files_and_directories() {
        let raw =
            "See `docs/roadmap.md`, `schemas/mcp/`, `Cargo.toml`, `src/claims` and `./x/y.rs`.";
        let cites = find(raw);
        let kinds: Vec<CiteKind> = cites.iter().map(|c| c.kind.clone()).collect();
        let path = |p: &str, is_dir| CiteKind::Path {
            path: p.into(),
            is_dir,
        };
        assert_eq!(
            kinds,
            [
                path("docs/roadmap.md", false),
                path("schemas/mcp", true),
                path("Cargo.toml", false),
                path("src/claims", false),
                path("./x/y.rs", false)
            ]
        );
        assert_eq!(&raw[cites[1].span.clone()], "schemas/mcp/");
        assert_eq!(cites[1].cite_text(), "schemas/mcp/");
        assert_eq!(cites[1].path(), Some("schemas/mcp"));
        // A code span may wrap a line, but not cross a blank line.
        let raw = "`docs/a.md\n` and `x\n\nb/c.md` `";
        assert!(find(raw).is_empty(), "{:#?}", find(raw));
    }

    #[test]
    fn a_line_shorthand_follows_a_path_cite() {
        let raw = "In `src/server.py`, :12-14 set it.";
        let cites = find(raw);
        assert_eq!(cites.len(), 2);
        assert_eq!(cites[1].kind, line("src/server.py", 12, 14));
    }

    #[test]
    fn history_markers_in_the_sentence_before_the_cite() {
        let raw = "Over the wire, tests/d.py::test_the_widest_body_the_schema_tier_can_see — renamed \
                   from tests/d.py::test_the_widest_body_this_transport_admits in Amendment 1's change.";
        let cites = find(raw);
        assert_eq!(cites.len(), 2);
        assert!(!cites[0].historical, "the new name is live");
        assert!(cites[1].historical);

        let raw = "The test that used to be here, far back in this long sentence about the \
                   transport and its many layers of framing, was tests/x.py::test_old.";
        assert!(only(raw).historical);

        let raw = "It was *Renamed\nFrom* `tests/x.py::test_old` to `tests/x.py::test_new`.";
        let cites = find(raw);
        assert!(cites[0].historical);
        assert!(!cites[1].historical, "`to` ends the marker's reach");
    }

    #[test]
    fn history_markers_reach_forty_characters_across_sentences() {
        for within in [
            "| deleted in 2.0 | tests/x.py::test_a |",
            "Deleted in 2.0:\n\n- tests/x.py::test_a",
        ] {
            assert!(only(within).historical, "{within:?}");
        }
        let beyond =
            "| deleted in 2.0 | the suite has been reorganised since | tests/x.py::test_a |";
        assert!(!only(beyond).historical);
        let full_stop = "The pin was rewritten rather than deleted. tests/x.py::test_a holds it.";
        assert!(!only(full_stop).historical);
        let after = "tests/x.py::test_a was removed.";
        assert!(
            !only(after).historical,
            "markers speak of what follows them"
        );
        let word = "The undeleted rows: tests/x.py::test_a.";
        assert!(!only(word).historical);
        let custom = CiteOptions {
            history: vec!["retired".into()],
            ..CiteOptions::default()
        };
        let cites = find_cites(
            "Retired: tests/x.py::test_a; the other one was deleted: tests/x.py::test_b",
            &custom,
        );
        assert_eq!(
            cites.iter().map(|c| c.historical).collect::<Vec<_>>(),
            [true, false]
        );
        let none = CiteOptions {
            history: vec![" ".into()],
            ..CiteOptions::default()
        };
        assert!(!find_cites("deleted tests/x.py::test_b", &none)[0].historical);
    }

    #[test]
    fn frames_cover_their_section_only() {
        let raw = "# ADR\n\nIntro tests/a.py::test_before.\n\n## Context\n\nMeasured at `be977ea7`: \
                   tests/a.py::test_in\n\n### Detail\n\n`docs/in.md` too\n\n## Decision\n\n\
                   tests/a.py::test_after\n";
        let cites = find(raw);
        let frames: Vec<(&str, Option<&str>)> = cites
            .iter()
            .map(|c| (&raw[c.span.clone()], c.frame.as_deref()))
            .collect();
        assert_eq!(
            frames,
            [
                ("tests/a.py::test_before", None),
                ("tests/a.py::test_in", Some("be977ea7")),
                ("docs/in.md", Some("be977ea7")),
                ("tests/a.py::test_after", None)
            ]
        );
    }

    #[test]
    fn frames_before_any_heading_reach_the_end_and_later_markers_win() {
        let raw = "Measured against commit 1234abc.\n\ntests/a.py::test_one\n\n\
                   ## Part\n\nmeasured on abcdef0123 tests/a.py::test_two\n\nPart two\n========\n\ntests/a.py::test_three";
        let cites = find(raw);
        let frames: Vec<Option<&str>> = cites.iter().map(|c| c.frame.as_deref()).collect();
        assert_eq!(
            frames,
            [Some("1234abc"), Some("abcdef0123"), Some("1234abc")]
        );
        // A marker quoted in a fenced block sets no frame.
        let raw = "```\nmeasured at 1234567\n```\ntests/a.py::test_one";
        assert_eq!(only(raw).frame, None);
    }

    #[test]
    fn markers_may_give_a_date_with_or_without_a_sha() {
        let options = CiteOptions::default();
        let frame_of = |raw: &str| find_cites(raw, &options)[0].frame.clone();
        assert_eq!(
            frame_of("Measured on 2026-09-13 against `be977ea7`: tests/a.py::test_one"),
            Some("be977ea7@2026-09-13".to_owned())
        );
        assert_eq!(
            frame_of("Measured on `2026-09-13`. tests/a.py::test_one"),
            Some("2026-09-13".to_owned())
        );
        assert_eq!(
            frame_of("measured at be977ea7: tests/a.py::test_one"),
            Some("be977ea7".to_owned())
        );
        assert_eq!(frame_of("measured on a laptop: tests/a.py::test_one"), None);
    }

    #[test]
    fn custom_frame_patterns_are_checked() {
        let mut options = CiteOptions::default();
        assert_eq!(
            options.set_frame_pattern("at (?<commit>[0-9a-f]+)"),
            Err(FramePatternError::NoShaGroup)
        );
        assert!(matches!(
            options.set_frame_pattern("("),
            Err(FramePatternError::Invalid(_))
        ));
        assert_eq!(options.set_frame_pattern(r"@(?<sha>[0-9a-f]{7})"), Ok(()));
        let cites = find_cites("@abcdef0 tests/a.py::test_one", &options);
        assert_eq!(cites[0].frame.as_deref(), Some("abcdef0"));
        assert!(options.set_frame_pattern("(?<sha>x*)").is_ok());
        assert_eq!(find_cites("tests/a.py::test_one", &options)[0].frame, None);
    }

    #[test]
    fn cites_come_in_text_order_with_multibyte_text_around() {
        let raw = "Größe — `docs/ä.md` × tests/ü.py::test_ö, then docs/é.md:3 and ::test_ß";
        let texts = spans(raw);
        assert_eq!(
            texts,
            ["docs/ä.md", "tests/ü.py::test_ö", "docs/é.md:3", "::test_ß"]
        );
        let cites = find(raw);
        assert_eq!(cites[3].kind, test("tests/ü.py", None, "test_ß", None));
    }

    fn soup() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("tests/x.py"),
            Just("a.rs"),
            Just("::"),
            Just(":"),
            Just("12"),
            Just("-"),
            Just("–"),
            Just("["),
            Just("]"),
            Just("`"),
            Just("```"),
            Just("\n"),
            Just("#"),
            Just("## "),
            Just("==="),
            Just("---\n"),
            Just(" "),
            Just("."),
            Just("..."),
            Just("…"),
            Just("/"),
            Just("test_x"),
            Just("tests"),
            Just("measured at 1234567 "),
            Just("renamed from "),
            Just(" to "),
            Just("http://"),
            Just("é"),
            Just("😀"),
            Just("|"),
            Just("> "),
            Just("1. "),
        ];
        prop::collection::vec(atom, 0..60).prop_map(|parts| parts.concat())
    }

    fn check(raw: &str) -> Result<(), TestCaseError> {
        let options = CiteOptions {
            rust_module_paths: true,
            ..CiteOptions::default()
        };
        let cites = find_cites(raw, &options);
        let mut previous_end = 0;
        for cite in &cites {
            prop_assert!(cite.span.start < cite.span.end && cite.span.end <= raw.len());
            prop_assert!(raw.is_char_boundary(cite.span.start));
            prop_assert!(raw.is_char_boundary(cite.span.end));
            prop_assert!(
                cite.span.start >= previous_end,
                "overlap or disorder in {raw:?}"
            );
            previous_end = cite.span.end;
            let _ = cite.cite_text();
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn never_panics_on_any_text(raw in any::<String>()) {
            check(&raw)?;
        }

        #[test]
        fn never_panics_on_citation_soup(raw in soup()) {
            check(&raw)?;
        }
    }
}
