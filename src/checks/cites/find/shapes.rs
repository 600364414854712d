//! Stage 3, the citation finder's shapes: one linear regex pass per shape
//! a citation takes (node ids, module ids, Rust paths, line cites and their
//! shorthands, backticked paths, links, hosted addresses), each leaving its
//! readings for the finder to order.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::checks::cites::locate::percent_decoded;
use crate::records::frames::DEFAULT_FRAME_PATTERN;

use super::*;
use crate::records::frames::{DeclaredFrame, RecordFrames};
use crate::records::markdown::Markdown;

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

pub(super) fn compiled(slot: &'static OnceLock<Regex>, pattern: &'static str) -> &'static Regex {
    slot.get_or_init(|| {
        Regex::new(pattern).unwrap_or_else(|e| {
            unreachable!("built-in pattern {pattern} is tested to compile: {e}")
        })
    })
}

pub(super) fn default_frame_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, DEFAULT_FRAME_PATTERN)
}

pub(super) fn node_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?:py|rs))(?<segments>(?:::[_\p{L}]\w*)+)",
    )
}

/// `test_cli::test_x`, `tests.unit.test_cli::TestA::test_y`.
pub(super) fn module_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<module>[_\p{L}]\w*(?:\.[_\p{L}]\w*)*)(?<segments>(?:::[_\p{L}]\w*)+)",
    )
}

/// A test case a collector makes of a data file: `tests/cases/parse.yaml::empty`.
pub(super) fn data_node_id_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?:ya?ml|json|toml|txt|feature|ini|cfg))(?<segments>(?:::\w[\w\-]*)+)",
    )
}

pub(super) fn shorthand_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"(?:::[_\p{L}]\w*)+")
}

pub(super) fn rust_path_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"[_\p{L}]\w*(?:::[_\p{L}]\w*){2,}")
}

pub(super) fn line_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(
        &SLOT,
        r"(?<path>[\w.\-/…]*[\w\-]\.(?<ext>[A-Za-z][A-Za-z0-9]{0,9})):(?<start>[0-9]{1,19})(?:[-–](?<end>[0-9]{1,19}))?",
    )
}

pub(super) fn line_shorthand_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r":(?<start>[0-9]{1,19})(?:[-–](?<end>[0-9]{1,19}))?")
}

pub(super) fn code_file_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    compiled(&SLOT, r"[\w.\-/…]*[\w\-]\.(?:py|rs)")
}

// ---------------------------------------------------------------------------
// Searching only the lines that can hold a shape.

/// The matches of `pattern` in the lines of `raw` that `may_hold` keeps, with
/// offsets into `raw`. No shape above spans a line break, so these are the
/// matches of the whole text; a shape's required text (`.py`, `::`, `:`
/// and a digit) rules out most lines at memchr speed, where the pattern,
/// opening on a Unicode class, would otherwise be run over every byte.
pub(super) fn matches_on_lines<'r>(
    raw: &'r str,
    pattern: &'static Regex,
    may_hold: impl Fn(&str) -> bool,
) -> impl Iterator<Item = (usize, regex::Captures<'r>)> {
    lines_holding(raw, may_hold)
        .flat_map(move |(at, line)| pattern.captures_iter(line).map(move |caps| (at, caps)))
}

/// [`matches_on_lines`] for a pattern whose groups are not wanted: the
/// whole matches alone, which the regex engine finds without capturing.
pub(super) fn finds_on_lines<'r>(
    raw: &'r str,
    pattern: &'static Regex,
    may_hold: impl Fn(&str) -> bool,
) -> impl Iterator<Item = (usize, regex::Match<'r>)> {
    lines_holding(raw, may_hold)
        .flat_map(move |(at, line)| pattern.find_iter(line).map(move |m| (at, m)))
}

/// Each line of `raw` that `may_hold` keeps (its break kept), and where it
/// starts.
fn lines_holding(
    raw: &str,
    may_hold: impl Fn(&str) -> bool,
) -> impl Iterator<Item = (usize, &str)> {
    raw.split_inclusive('\n')
        .scan(0usize, |start, line| {
            let at = *start;
            *start += line.len();
            Some((at, line))
        })
        .filter(move |(_, line)| may_hold(line))
}

/// A match's range in `raw`, from its line's offset.
pub(super) fn placed(at: usize, m: regex::Match<'_>) -> Range<usize> {
    at + m.start()..at + m.end()
}

/// Whether some `first` byte of `line` is followed by a byte `then` keeps
/// (memchr finds each `first`: a per-line substring search was a measurable
/// part of a run on a large documentation tree).
fn byte_then(line: &str, first: u8, then: impl Fn(&[u8]) -> bool) -> bool {
    let bytes = line.as_bytes();
    memchr::memchr_iter(first, bytes).any(|i| then(bytes.get(i + 1..).unwrap_or_default()))
}

/// Whether `line` has a `:` right before a digit: where a line number can be.
pub(super) fn has_line_number(line: &str) -> bool {
    byte_then(line, b':', |rest| {
        rest.first().is_some_and(u8::is_ascii_digit)
    })
}

/// Whether `line` has a `::`.
pub(super) fn has_double_colon(line: &str) -> bool {
    byte_then(line, b':', |rest| rest.first() == Some(&b':'))
}

/// Whether `line` names a `.py` or `.rs` file.
pub(super) fn has_code_file(line: &str) -> bool {
    byte_then(line, b'.', |rest| {
        rest.starts_with(b"py") || rest.starts_with(b"rs")
    })
}

// ---------------------------------------------------------------------------
// Character context.

pub(super) fn char_before(raw: &str, at: usize) -> Option<char> {
    raw.get(..at).and_then(|s| s.chars().next_back())
}

pub(super) fn char_at(raw: &str, at: usize) -> Option<char> {
    raw.get(at..).and_then(|s| s.chars().next())
}

pub(super) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The match is part of a URL or an address (`https://x/a.py::t`, `user@h.rs`).
pub(super) fn in_url(raw: &str, start: usize) -> bool {
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

pub(super) fn floor_boundary(raw: &str, mut at: usize) -> usize {
    at = at.min(raw.len());
    while at > 0 && !raw.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Splits an elided prefix off a path: `.../tests/x.py`, `…test_x.py` and
/// `packages/…/tests/x.py` keep only what follows the ellipsis; `../x.py` is
/// a relative path, not an elision.
pub(super) fn split_elided(path: &str) -> (String, bool) {
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
pub(super) fn balanced_brackets(raw: &str, open: usize) -> Option<usize> {
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
pub(super) fn param_after(raw: &str, end: usize) -> (usize, Option<String>) {
    match balanced_brackets(raw, end) {
        Some(close) if close > end + 2 => {
            (close, raw.get(end + 1..close - 1).map(ToString::to_string))
        }
        _ => (end, None),
    }
}

pub(super) fn segments_of(text: &str) -> Vec<String> {
    text.split("::")
        .filter(|s| !s.is_empty())
        .map(ToString::to_string)
        .collect()
}

// ---------------------------------------------------------------------------
// The passes.

pub(super) fn node_ids(raw: &str, found: &mut Vec<Found>) {
    let lines = matches_on_lines(raw, node_id_pattern(), |l| {
        has_double_colon(l) && has_code_file(l)
    });
    for (at, caps) in lines {
        let (Some(whole), Some(path), Some(segments)) =
            (caps.get(0), caps.name("path"), caps.name("segments"))
        else {
            continue;
        };
        let whole = placed(at, whole);
        if in_url(raw, whole.start) {
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
                whole.end,
            )
        } else {
            let (end, param) = param_after(raw, whole.end);
            (python_test(path_text, segments, param, elided_prefix), end)
        };
        found.push(Found {
            span: whole.start..end,
            reading: Reading::Cite(kind),
        });
    }
}

/// A pytest module id: a test module's dotted name, then `::` and the test.
pub(super) fn module_ids(raw: &str, found: &mut Vec<Found>) {
    for (at, caps) in matches_on_lines(raw, module_id_pattern(), has_double_colon) {
        let (Some(whole), Some(module), Some(segments)) =
            (caps.get(0), caps.name("module"), caps.name("segments"))
        else {
            continue;
        };
        let whole = placed(at, whole);
        if char_before(raw, whole.start).is_some_and(|c| is_word(c) || ":.-/…@".contains(c))
            || in_url(raw, whole.start)
        {
            continue;
        }
        let last = module.as_str().rsplit('.').next().unwrap_or_default();
        let test_module =
            last.starts_with("test_") || last.ends_with("_test") || last.ends_with("_tests");
        if !test_module {
            continue;
        }
        let (end, param) = param_after(raw, whole.end);
        found.push(Found {
            span: whole.start..end,
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
pub(super) fn data_node_ids(raw: &str, found: &mut Vec<Found>) {
    for (at, caps) in matches_on_lines(raw, data_node_id_pattern(), has_double_colon) {
        let (Some(whole), Some(path), Some(segments)) =
            (caps.get(0), caps.name("path"), caps.name("segments"))
        else {
            continue;
        };
        let whole = placed(at, whole);
        if in_url(raw, whole.start) {
            continue;
        }
        let (path_text, elided_prefix) = split_elided(path.as_str());
        if path_text.rsplit('/').next().unwrap_or("").starts_with('.') {
            continue;
        }
        let (end, param) = param_after(raw, whole.end);
        found.push(Found {
            span: whole.start..end,
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
pub(super) fn file_stem_missing(path: &str) -> bool {
    path.rsplit('/').next().unwrap_or("").len() <= 3
}

pub(super) fn shorthand_tests(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
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

pub(super) fn rust_paths(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
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
pub(super) fn line_number_ends(raw: &str, end: usize) -> bool {
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
pub(super) fn line_numbers(caps: &regex::Captures<'_>) -> Option<(usize, usize)> {
    let start: usize = caps.name("start")?.as_str().parse().ok()?;
    let end = match caps.name("end") {
        Some(end) => end.as_str().parse().ok()?,
        None => start,
    };
    Some((start, end.max(start)))
}

pub(super) fn line_cites(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
    for (at, caps) in matches_on_lines(raw, line_pattern(), has_line_number) {
        let (Some(whole), Some(path), Some(ext)) =
            (caps.get(0), caps.name("path"), caps.name("ext"))
        else {
            continue;
        };
        let whole = placed(at, whole);
        if in_regions(fences, whole.start)
            || in_url(raw, whole.start)
            || !line_number_ends(raw, whole.end)
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
            span: whole,
            reading: Reading::Cite(CiteKind::Line {
                path: path_text,
                start,
                end,
                elided_prefix,
            }),
        });
    }
}

pub(super) fn line_shorthands(raw: &str, fences: &[Range<usize>], found: &mut Vec<Found>) {
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

pub(super) fn path_cites(raw: &str, markdown: &Markdown, found: &mut Vec<Found>) {
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
pub(super) fn link_cites(markdown: &Markdown, source_root: Option<&str>, found: &mut Vec<Found>) {
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
                    document: false,
                },
                destination: link.destination.clone(),
            },
        });
    }
    // A document's name is a link to the page Sphinx builds of it: `x.html`
    // is found from `x.rst` or MyST's `x.md`. A name is relative to this page
    // (`./api/index`), never the root's; a leading `/` is the source folder's.
    for reference in &markdown.doc_refs {
        let name = &reference.document;
        let page = if name.starts_with(['/', '.']) {
            format!("{name}.html")
        } else {
            format!("./{name}.html")
        };
        let rooted = match (source_root, page.strip_prefix('/')) {
            (Some(root), Some(rest)) if !rest.starts_with('/') => format!("{root}{rest}"),
            _ => page.clone(),
        };
        let Some((target, is_dir, fragment)) = link_target(&rooted) else {
            continue;
        };
        found.push(Found {
            span: reference.text.clone(),
            reading: Reading::Link {
                kind: CiteKind::Link {
                    target,
                    is_dir,
                    fragment,
                    document: true,
                },
                destination: page,
            },
        });
    }
}

/// Links to the repository's own hosted files and folders
/// (`https://github.com/o/r/blob/main/src/x.py#L10`): written as links, as
/// autolinks, or bare in the text (`<img src="…">` too); not in code blocks or
/// text the page does not render. A line range is a line cite, anything else
/// a link cite, from the root (`/src/x.py`).
pub(super) fn hosted_cites(
    raw: &str,
    markdown: &Markdown,
    own: &crate::checks::cites::hosted::OwnLinks,
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
                document: false,
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
            // A reference definition renders nothing: a link that uses it is
            // read where it is used, and one no link uses no reader sees.
            || markdown.in_definition(at)
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
        // An address cut short by a template's `{{ name }}` (a copier
        // template's file, `ci-{{app_name}}.yml.jinja`) is not a shorter
        // address: the page's link, read whole, is the cite.
        // A link's destination may hold balanced parentheses
        // (`…/From%20CAPD(docker).md`), where the bare pattern stops: the
        // link, read whole, is the cite, not the address's first part.
        let within_link = linked
            .range(url..)
            .next()
            .is_some_and(|destination| destination.starts_with(url));
        if within_link || raw[m.end()..].starts_with('{') {
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
/// intra-doc link (`crate::extract::Path`, `fn@from_fn`). An in-page `#anchor` names the
/// record itself (an empty path).
pub(super) fn link_target(destination: &str) -> Option<(String, bool, Option<String>)> {
    let destination = destination.trim();
    // MyST's `project:intro.md` (a page of the project) and `path:data.csv`
    // (a file to download) name the path after their scheme.
    let destination = ["project:", "path:"]
        .iter()
        .find_map(|scheme| destination.strip_prefix(scheme))
        .unwrap_or(destination);
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
    // A first segment with a colon is a scheme (RFC 3986 §4.2): a URI of
    // the scheme's own (MyST's `gh-file:pulumi#x.go`), never a relative path.
    let first_segment = destination
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    if let Some((scheme, _)) = first_segment.split_once(':')
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return None;
    }
    let path = destination.split(['#', '?']).next().unwrap_or_default();
    let path = percent_decoded(path)?;
    if path.is_empty() || path == "." || path == "./" {
        return None;
    }
    // A one-word destination (`LICENSE`, `docs`) is a file or folder beside
    // the page wherever the forge renders it, and a route a site may serve:
    // whether it names either is the resolver's question, not its shape's.
    let is_dir = path.ends_with('/');
    Some((path.trim_end_matches('/').to_owned(), is_dir, fragment))
}

/// The path a code span's text names, if it looks like a repository path.
pub(super) fn path_like(content: &str) -> Option<(String, bool)> {
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
pub(super) fn code_spans(markdown: &Markdown) -> impl Iterator<Item = Range<usize>> + '_ {
    markdown
        .code_spans
        .iter()
        .filter(|span| span.ticks == 1)
        .map(|span| span.content.clone())
}

// ---------------------------------------------------------------------------
// Files mentioned, for `::name` shorthands.

pub(super) struct Mention {
    pub(super) start: usize,
    pub(super) path: String,
    pub(super) elided: bool,
}

/// Whether a file's name says it holds tests: pytest's `test_*.py` and
/// `*_test.py`, Django's `tests.py`, or a file under a `tests/`/`test/` folder (Rust's integration
/// tests, a Python test tree).
pub(super) fn looks_like_test_file(path: &str) -> bool {
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
pub(super) fn code_file_mentions(raw: &str) -> Vec<Mention> {
    finds_on_lines(raw, code_file_pattern(), has_code_file)
        .filter_map(|(at, m)| {
            let whole = placed(at, m);
            if char_at(raw, whole.end).is_some_and(is_word) || in_url(raw, whole.start) {
                return None;
            }
            let (path, elided) = split_elided(m.as_str());
            (!file_stem_missing(&path)).then_some(Mention {
                start: whole.start,
                path,
                elided,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Fenced blocks, headings and frames.

pub(super) fn in_regions(regions: &[Range<usize>], at: usize) -> bool {
    let index = regions.partition_point(|r| r.end <= at);
    regions.get(index).is_some_and(|r| r.contains(&at))
}

/// The frame that governs raw offset `at` ([`RecordFrames::at`]: a heading's,
/// a section's, a paragraph's, an amendment's), with the default frame
/// pattern: the frame `recount init` weighs a drafted fact's `at` from, as
/// the citations and transcripts of the same passage are read at it.
pub fn governing_frame(raw: &str, markdown: &Markdown, at: usize) -> Option<DeclaredFrame> {
    RecordFrames::read(raw, markdown, default_frame_pattern())
        .at(at)
        .cloned()
}
