//! Citations, after resolution: line cites held to their history. A line cite
//! (`reader.go:313`, `x.rs#L10-L20`) names lines by number, and the commonest
//! way it rots is that the file changes under it: the number still exists and
//! holds other code. So each line cite is checked against what its lines held
//! at the commit that wrote the cite, those lines mapped through the diff from
//! that commit to the audited tree, as `git blame --reverse` maps them. Lines
//! that moved are stale with where they are now; lines that changed or went are
//! stale; either way with the commit that did it, found from the file's own
//! history. No heuristic reads the prose: the evidence decides.

use std::collections::BTreeMap;
use std::sync::Arc;

use git2::Oid;

use super::{History, short};
use crate::checks::cites::model::{CiteStatus, LineTarget, ResolvedCite};
use crate::frames::Frame;

/// One hunk of a line diff with no context: `(old_start, old_lines, new_start,
/// new_lines)` as git numbers them.
type Hunk = (usize, usize, usize, usize);

/// What became of lines `start..=end` (1-based) of a file between two versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineFate {
    /// The same lines, at the same numbers.
    Same,
    /// The same lines, now at `start..=end`.
    Moved { start: usize, end: usize },
    /// Some of the lines were changed or removed, or lines were put among them.
    Changed,
}

/// The fewest lines a span cites for an edit among them, its first and last
/// lines kept, to leave it in place: a block of code, not a line or two.
const MIN_FRAMING_SPAN: usize = 5;

/// Maps lines `start..=end` through the hunks of a diff with no context, each
/// `(old_start, old_lines, new_start, new_lines)` as git numbers them (a pure
/// insertion's `old_start` is the line it follows).
pub fn map_lines(hunks: &[Hunk], start: usize, end: usize) -> LineFate {
    map_lines_keeping(hunks, start, end, |_, _| false)
}

/// [`map_lines`], where a hunk among the cited lines whose first lines stand
/// for the old ones one for one — each cited old line `kept(old, new)` by the
/// new line at its place in the hunk (the same line, edited: `go 1.17`
/// become `go 1.26`, with a `toolchain` line put after it) — leaves them where
/// they were: a line cite names a place, and an edit in place keeps it.
fn map_lines_keeping(
    hunks: &[Hunk],
    start: usize,
    end: usize,
    kept: impl Fn(usize, usize) -> bool,
) -> LineFate {
    let mut shift: i64 = 0;
    for &(old_start, old_lines, new_start, new_lines) in hunks {
        let grown = new_lines as i64 - old_lines as i64;
        if old_lines == 0 {
            // Inserted after line `old_start`.
            if old_start < start {
                shift += grown;
            } else if old_start < end {
                return LineFate::Changed;
            }
            continue;
        }
        let old_end = old_start + old_lines - 1;
        if old_end < start {
            shift += grown;
            continue;
        }
        if old_start > end {
            continue;
        }
        // Cited lines wholly inside a hunk: where among its new lines they
        // stand, edited (the same place first, else the nearest): an import
        // renamed under a line put above it has moved, not gone.
        if start >= old_start && end <= old_end {
            let span = end - start;
            let in_place = new_start + (start - old_start);
            let fits = |p: usize| (0..=span).all(|i| kept(start + i, p + i));
            let last = (new_start + new_lines).saturating_sub(span + 1);
            let mut places: Vec<usize> = (new_start..=last).collect();
            places.sort_by_key(|&p| p.abs_diff(in_place));
            return match places.into_iter().find(|&p| new_lines > span && fits(p)) {
                Some(p) if p == start => LineFate::Same,
                Some(p) => LineFate::Moved {
                    start: p,
                    end: p + span,
                },
                None => LineFate::Changed,
            };
        }
        // A hunk strictly among the lines of a span (five lines or more)
        // that keeps their count and rewrites at most half of them: the
        // span's first and last lines stand where they stood, and what it
        // frames (a class, a handler a snippet shows) was edited between
        // them. A line cite names a place, and the place holds.
        let span = end - start + 1;
        if old_start > start
            && old_end < end
            && grown == 0
            && span >= MIN_FRAMING_SPAN
            && 2 * old_lines <= span
        {
            continue;
        }
        let edited_in_place = (start.max(old_start)..=end.min(old_end)).all(|line| {
            let at = line - old_start;
            at < new_lines && kept(line, new_start + at)
        });
        // Cited lines after the hunk, moved by it against those in it: lines
        // were put among them, or taken from among them.
        if !edited_in_place || (end > old_end && grown != 0) {
            return LineFate::Changed;
        }
    }
    if shift == 0 {
        return LineFate::Same;
    }
    let moved = |line: usize| usize::try_from(line as i64 + shift).unwrap_or(0);
    LineFate::Moved {
        start: moved(start),
        end: moved(end),
    }
}

/// A file's lines (1-based by index + 1), lossy where it is not UTF-8.
fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Whether `after` is `before` edited, not another line: what they share at
/// their start and end is at least half the longer one (`go 1.22` / `go 1.26`,
/// `MaxSize = 10` / `MaxSize = 20`; not a blank line, nor a line replaced by
/// an unrelated one); or the same words with other numbers in them (a
/// version bumped: `# v1.43.0` / `# v2.10.1`).
fn same_line_edited(before: &str, after: &str) -> bool {
    let (a, b) = (before.trim().as_bytes(), after.trim().as_bytes());
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let words = |line: &[u8]| -> Vec<u8> {
        let mut kept = Vec::with_capacity(line.len());
        for &byte in line {
            if !byte.is_ascii_digit() {
                kept.push(byte);
            } else if kept.last() != Some(&b'0') {
                kept.push(b'0');
            }
        }
        kept
    };
    let letters = a.iter().filter(|b| b.is_ascii_alphabetic()).count();
    if letters >= 1 && a.iter().any(u8::is_ascii_digit) && words(a) == words(b) {
        return true;
    }
    // The same names in the same order, only punctuation and spacing
    // changed: a statement rewritten in form (`print x` / `print(x)`, quotes
    // swapped by a formatter), not another line.
    let names = |line: &[u8]| -> Vec<Vec<u8>> {
        line.split(|b| !b.is_ascii_alphanumeric() && *b != b'_')
            .filter(|w| !w.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let named = names(a);
    let renamed = names(b);
    if named.len() >= 2 && named == renamed {
        return true;
    }
    // Most of its names (four or more) kept in their order, a few put in or
    // taken out: a directive's flags changed (`//go:generate mockgen …
    // -build_flags=…` / `//go:generate go tool mockgen …`), the line the
    // prose names still.
    let shared = shared_in_order(&named, &renamed);
    if shared >= 4 && shared * 3 >= 2 * named.len().max(renamed.len()) {
        return true;
    }
    // The same declaration or key with another value: `const Image = "…"`,
    // `version: 1.2` — what is named before the first `=` or `:` is the same.
    let head = |line: &[u8]| -> Option<usize> {
        let at = line.iter().position(|&b| b == b'=' || b == b':')?;
        let named = line[..at]
            .iter()
            .filter(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        (named >= 3).then_some(at)
    };
    if let (Some(x), Some(y)) = (head(a), head(b))
        && a[..x].trim_ascii() == b[..y].trim_ascii()
    {
        return true;
    }
    // The same name declared in another syntax: `exports.assetExts = [` /
    // `export const assetExts: Array<string> = [` (the module system or a
    // type annotation changed, not what the line defines). The name is the
    // last word before the first `=`, `:` or `(`, four letters or more.
    let declared = |line: &[u8]| -> Option<Vec<u8>> {
        let at = line.iter().position(|&b| matches!(b, b'=' | b':' | b'('))?;
        let head = line[..at].trim_ascii_end();
        let name = head
            .rsplit(|b| !b.is_ascii_alphanumeric() && *b != b'_')
            .next()
            .filter(|w| w.len() >= 4 && w.iter().any(u8::is_ascii_alphabetic))?;
        Some(name.to_vec())
    };
    if let Some(name) = declared(a)
        && declared(b) == Some(name)
    {
        return true;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    // The whole line kept, with text put inside it: an argument added to a
    // call (`@get("/")` / `@get("/", sync_to_thread=False)`).
    let whole_kept =
        prefix + suffix == a.len() && a.len() >= 4 && a.iter().any(u8::is_ascii_alphabetic);
    whole_kept || 2 * (prefix + suffix) >= a.len().max(b.len())
}

/// How many of `a`'s words `b` holds in the same order (the longest common
/// subsequence), for lines of at most 64 words each (0 past that: a long
/// line is not weighed word by word).
fn shared_in_order(a: &[Vec<u8>], b: &[Vec<u8>]) -> usize {
    const MOST: usize = 64;
    if a.len() > MOST || b.len() > MOST {
        return 0;
    }
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The lines a suggested line cite names (`a.rs:12`, `a.rs:12-20`,
/// `a.rs#L12-L20`, `:lines: 12-20`).
fn lines_named(cite: &str) -> Option<(usize, usize)> {
    let at = cite.rfind([':', '#', ' '])?;
    let range = cite[at + 1..].trim();
    let range = range.strip_prefix('L').unwrap_or(range);
    let (start, end) = match range.split_once('-') {
        Some((start, end)) => (start, end.strip_prefix('L').unwrap_or(end)),
        None => (range, range),
    };
    let (start, end) = (start.parse().ok()?, end.parse().ok()?);
    (start >= 1 && end >= start).then_some((start, end))
}

/// Whether lines `start..=end` of `bytes` do not bear out the words around
/// the cite at `span`, and why when a name disagrees: no code name its cell
/// or sentence gives is on them (`Some(Some(why))`), or it gives none
/// (`Some(None)`) (then nothing says the lines are the
/// ones the record meant: a cite already off when written moves faithfully
/// to more of the wrong thing).
fn words_not_borne_out(
    text: &str,
    span: std::ops::Range<usize>,
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Option<Option<String>> {
    let mut names: Vec<String> = name_beside(text, span.start)
        .map(str::to_owned)
        .into_iter()
        .collect();
    names.extend(code_names_around(text, span));
    let Some(first) = names.first() else {
        return Some(None);
    };
    (!names.iter().any(|name| holds_name(name, bytes, start, end))).then(|| {
        Some(format!(
            "but `{first}`, which its words name, is not on those lines"
        ))
    })
}

/// When the first-parent commit that first had the cite at `writing` is a
/// merge, and the branch commit that wrote the cite's line (the merge's
/// second parent, back while the record holds the line) had other text at
/// the cited lines than the merge has: that branch commit, short.
fn merged_lines_differ(
    history: &mut History<'_>,
    writing: usize,
    cite: &ResolvedCite,
    texts: &BTreeMap<String, Arc<str>>,
    (record_then, target): (&str, &LineTarget),
) -> Option<String> {
    let merge = history.commit_at(writing)?;
    let repo = history.repo();
    let branch = *repo.parents_of(merge).get(1)?;
    let needle = texts
        .get(&cite.record)
        .and_then(|text| super::written_in(cite, text))?;
    let wrote = repo.writing_commit(branch, record_then, needle)?;
    let lines = |commit| -> Option<Vec<String>> {
        let (_, bytes) = repo.file_at(commit, &target.file)?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Some(
            text.lines()
                .skip(target.start.saturating_sub(1))
                .take(target.end + 1 - target.start.max(1))
                .map(str::to_owned)
                .collect(),
        )
    };
    let (then, merged) = (lines(wrote)?, lines(merge)?);
    (then != merged).then(|| short(wrote))
}

/// Checks every line cite that resolved at the audited tree against what its
/// lines held when the record cited them; one whose lines moved or changed
/// since becomes stale, saying where they went and which commit did it.
pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    let mut files = FileVersions::default();
    // The audited tree's version of each cited file, read and hashed once
    // (generated API pages cite one file hundreds of times).
    let mut current: BTreeMap<String, Option<Version>> = BTreeMap::new();
    for cite in resolved.iter_mut() {
        let ours = cite.lines.is_some() && cite.expect.is_none() && cite.frame == audited.label;
        // Past its file's end today, within it when written (a file split
        // up since): its lines held then, and a page read as of its time
        // reads them so.
        if ours && matches!(cite.status, CiteStatus::Stale { .. }) {
            if let Some((writing, _)) = history.writing_of(cite, texts)
                && let Some(target) = cite.lines.as_ref()
                && let Some(writing) = files.first_with_file(history, writing, &target.file)
                && let Some(then) = files.version(history, writing, &target.file)
                && files.lines_of(&then).len() >= target.end
            {
                cite.held_when_written = history.commit_at(writing).map(short);
            }
            continue;
        }
        if !(ours && matches!(cite.status, CiteStatus::Ok { .. })) {
            continue;
        }
        let Some((writing, record_then)) = history.writing_of(cite, texts) else {
            continue;
        };
        let Some(target) = cite.lines.clone() else {
            continue;
        };
        let Some(now) = current
            .entry(target.file.clone())
            .or_insert_with(|| {
                audited
                    .snapshot
                    .read(&target.file)
                    .ok()
                    .flatten()
                    .map(|bytes| Version::of(&bytes))
            })
            .clone()
        else {
            continue;
        };
        // A link whose words quote what its lines hold today (a test list
        // linking each `It("…")` by its name) says itself what it means,
        // and its lines show it, whatever they held when it was written.
        if cite.destination.is_some()
            && let Some(words) = texts
                .get(&cite.record)
                .and_then(|t| t.get(cite.span.clone()))
            && shown_by(words, &now.bytes, target.start, target.end)
        {
            continue;
        }
        // A cite of one line beside the name that line holds today (a
        // table's `kPinPayloadRatio` (`:262`), where line 262 declares it)
        // says what it means, and its line shows it. (A range that still
        // holds the name somewhere may have slid off the rest.)
        if target.start == target.end
            && let Some(name) = texts
                .get(&cite.record)
                .and_then(|t| name_beside(t, cite.span.start))
            && holds_name(name, &now.bytes, target.start, target.end)
        {
            continue;
        }
        // A link of one line whose sentence names a class or function it
        // shows (the sparse :class:`pkg.basic.Cast` op `code <…#L753>`_)
        // that is defined within a screen's few lines of that line today
        // lands its reader on it, whatever the line held when written.
        if target.start == target.end
            && cite.destination.is_some()
            && let Some(name) = texts
                .get(&cite.record)
                .and_then(|t| named_in_sentence(t, cite.span.start))
            && defines_near(name, &now.bytes, target.start)
        {
            continue;
        }
        // A cite in prose that repeats a place the sample output just above
        // it prints ("the top is wireRuntime at wire.go:182", under a pasted
        // `wire.go:182:1: inject …`) reads the sample, which printed the
        // lines of its day.
        if cite.destination.is_none()
            && texts
                .get(&cite.record)
                .is_some_and(|text| echoes_a_sample(text, cite.span.clone()))
        {
            continue;
        }
        let (written, located) = record_syntax(cite, texts);
        if let Some((mut status, held)) = files.judge(history, writing, &target, &now, &written) {
            // Where the lines went is read from the first-parent commit that
            // first had the cite; one a merge brought was written on its
            // branch, whose lines may have held something else by the
            // merge. Their new place is then not what the author meant.
            if let CiteStatus::Stale {
                why,
                suggestion: Some(_),
                guessed,
            } = &mut status
                && let Some(branch) =
                    merged_lines_differ(history, writing, cite, texts, (&record_then, &target))
            {
                why.push_str(&format!(
                    "; but the branch commit that wrote the cite ({branch}) had other lines there before the merge"
                ));
                *guessed = true;
            }
            // A cite that is a link's text is one citation with its link:
            // a destination that opens no file of the tree, or another file
            // than the cite names, leaves the link broken whatever the
            // text's numbers say (the link may have been off since it was
            // written: then so may the numbers).
            if let CiteStatus::Stale {
                why,
                suggestion: Some(_),
                guessed,
            } = &mut status
                && !*guessed
                && cite.destination.is_none()
                && let Some(destination) = texts
                    .get(&cite.record)
                    .and_then(|text| destination_after(text, cite.span.end))
                && !destination.contains("://")
                && !destination.starts_with('#')
            {
                let path = destination.split(['#', '?']).next().unwrap_or_default();
                let folder = cite.record.rsplit_once('/').map_or("", |(f, _)| f);
                let opened = if let Some(rooted) = path.strip_prefix('/') {
                    Some(rooted.to_owned())
                } else {
                    crate::snapshot::joined(folder, path)
                };
                if opened.as_deref() != Some(target.file.as_str()) {
                    why.push_str(&format!(
                        "; but the link it is the text of opens `{}`, not {}",
                        crate::escape::untrusted(path, crate::escape::VALUE_CAP),
                        target.file
                    ));
                    *guessed = true;
                }
            }
            // An edit to the new lines only where they bear out the cite's
            // words: a name its cell or sentence gives is on them.
            if let CiteStatus::Stale {
                why,
                suggestion: Some(to),
                guessed,
            } = &mut status
                && !*guessed
                && let Some((start, end)) = lines_named(to)
                && let Some(doubt) = texts.get(&cite.record).and_then(|text| {
                    words_not_borne_out(text, cite.span.clone(), &now.bytes, start, end)
                })
            {
                // (Words that name nothing leave the suggestion as likely as
                // ever: said only where a name the words give disagrees.)
                if let Some(doubt) = doubt {
                    why.push_str(&format!("; {doubt}"));
                }
                *guessed = true;
            }
            cite.held_when_written = held;
            if matches!(
                &status,
                CiteStatus::Stale {
                    suggestion: Some(_),
                    ..
                }
            ) {
                cite.located = located;
            }
            cite.status = status;
        }
    }
}

/// Whether the cite's text (`wire.go:182`) is printed, followed by no
/// further digit, inside a fenced code block that closes within the few
/// lines above the cite: a sample of a tool's output that the prose reads.
fn echoes_a_sample(text: &str, span: std::ops::Range<usize>) -> bool {
    // How far above a sample the prose that reads it may sit.
    const NEAR: usize = 12;
    let Some(written) = text.get(span.clone()).map(str::trim) else {
        return false;
    };
    if written.is_empty() || !written.contains(':') {
        return false;
    }
    let before = text.get(..span.start).unwrap_or_default();
    let mut fenced = false;
    let mut sample_lines: Vec<(usize, &str)> = Vec::new();
    for (index, line) in before.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            sample_lines.push((index, line));
        }
    }
    let cite_line = before.matches('\n').count();
    sample_lines
        .iter()
        .filter(|(index, _)| cite_line.saturating_sub(*index) <= NEAR)
        .any(|(_, line)| {
            line.match_indices(written).any(|(at, _)| {
                !line[at + written.len()..].starts_with(|c: char| c.is_ascii_digit())
            })
        })
}

/// The destination of the Markdown link whose text ends at `end` (the cite
/// is, or ends, the text: `[a.go:12](../a.go)`), when one does.
fn destination_after(text: &str, end: usize) -> Option<&str> {
    let rest = text.get(end..)?;
    let rest = rest.trim_start_matches('`');
    let inside = rest.strip_prefix("](")?;
    let close = inside.find(')')?;
    let destination = inside[..close].trim();
    (!destination.is_empty() && !destination.contains(char::is_whitespace)).then_some(destination)
}

/// Whether a link's words are on the lines `start..=end` of `bytes`: words
/// long enough to mean one thing (`should reject an empty name`, 24 bytes
/// or more with a space), or the whole of a string literal there
/// (`"canary-*"`, 4 bytes or more).
fn shown_by(words: &str, bytes: &[u8], start: usize, end: usize) -> bool {
    const MIN_WORDS: usize = 24;
    const MIN_LITERAL: usize = 4;
    let words = words.trim().trim_matches('`');
    let sentence = words.len() >= MIN_WORDS && words.contains(' ');
    if !sentence && words.len() < MIN_LITERAL {
        return false;
    }
    let literal = format!("\"{words}\"");
    // Only the cited lines are read (a file cited a thousand times is not
    // decoded whole each time).
    bytes
        .split(|&b| b == b'\n')
        .skip(start.saturating_sub(1))
        .take(end.saturating_sub(start) + 1)
        .map(String::from_utf8_lossy)
        .any(|line| (sentence && line.contains(words)) || line.contains(&literal))
}

/// The code name written just before a cite in its table cell or sentence
/// (`` `kPinPayloadRatio` (`:262`) ``, `` `parse_header` in `src/x.rs:40` ``):
/// the last backticked identifier among the 80 bytes before it, on its line
/// and in its cell, long enough (6 bytes or more) to mean one thing.
fn name_beside(text: &str, at: usize) -> Option<&str> {
    const MIN_NAME: usize = 6;
    const WINDOW: usize = 80;
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut from = line_start.max(at.saturating_sub(WINDOW));
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = &text[from..at];
    let before = before.rsplit_once('|').map_or(before, |(_, cell)| cell);
    // The cite's own opening backtick, if it has one, is not a name's.
    let before = before.trim_end().strip_suffix('`').unwrap_or(before);
    let last = before.split('`').skip(1).step_by(2).last()?;
    let name = last.trim().trim_end_matches("()");
    let last_part = name.rsplit(['.', ':']).next().unwrap_or(name);
    (last_part.len() >= MIN_NAME
        && last_part
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && last_part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    .then_some(last_part)
}

/// The code name a cite's sentence gives before it, in its paragraph (a
/// role's `:class:`pkg.basic.Cast``, a backticked `parse_header`): the
/// last backticked identifier among the 200 bytes before the cite, after
/// any blank line; its last part, three bytes or more.
fn named_in_sentence(text: &str, at: usize) -> Option<&str> {
    const WINDOW: usize = 200;
    const MIN_NAME: usize = 3;
    let at = at.min(text.len());
    let mut from = at.saturating_sub(WINDOW);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = &text[from..at];
    let before = before.rsplit_once("\n\n").map_or(before, |(_, p)| p);
    before
        .split('`')
        .skip(1)
        .step_by(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .find_map(|quoted| {
            let name = quoted.trim().trim_end_matches("()");
            let last = name.rsplit(['.', ':']).next().unwrap_or(name);
            (last.len() >= MIN_NAME
                && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && last.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
            .then_some(last)
        })
}

/// Whether a line within a few of `line` in `bytes` defines `name` (`class
/// Cast`, `def cast`, `fn cast`, `func Cast`, `struct Cast`, …).
fn defines_near(name: &str, bytes: &[u8], line: usize) -> bool {
    const NEAR: usize = 5;
    let start = line.saturating_sub(NEAR).max(1);
    bytes
        .split(|&b| b == b'\n')
        .skip(start - 1)
        .take(line + NEAR - start + 1)
        .any(|text| line_defines(text, name))
}

/// Whether `line` defines `name` (`class Cast`, `def cast`, `fn cast`,
/// `func Cast`, `struct Cast`, …).
fn line_defines(line: &[u8], name: &str) -> bool {
    const KEYWORDS: [&str; 12] = [
        "class",
        "def",
        "fn",
        "func",
        "function",
        "struct",
        "enum",
        "interface",
        "type",
        "trait",
        "const",
        "macro_rules!",
    ];
    KEYWORDS
        .iter()
        .any(|keyword| has_whole_word(line, format!("{keyword} {name}").as_bytes()))
}

/// Whether `needle` stands in `line` as a whole word (no identifier
/// character either side).
pub(super) fn has_whole_word(line: &[u8], needle: &[u8]) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    !needle.is_empty()
        && line.windows(needle.len()).enumerate().any(|(i, w)| {
            w == needle
                && (i == 0 || !word(line[i - 1]))
                && line.get(i + needle.len()).is_none_or(|&c| !word(c))
        })
}

/// The code names a cite's sentence (or table cell) gives in backticks
/// nearest it (`` `start_engine()` ``, `` `ProjectMetadata` ``; the last
/// snippet before it, else the first after): each word of five bytes or
/// more of that snippet, never a path, and not a word every file has.
pub(super) fn code_names_around(text: &str, span: std::ops::Range<usize>) -> Vec<String> {
    const REACH: usize = 400;
    let at = span.start.min(text.len());
    let end_of_cite = span.end.clamp(at, text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut floor = at.saturating_sub(REACH);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    // A table row is its own; a sentence may wrap, within its paragraph.
    let floor = if text[line_start..].trim_start().starts_with('|') {
        line_start
    } else {
        text[floor..at]
            .rfind("\n\n")
            .map_or(floor, |i| floor + i + 2)
    };
    let mut ceiling = (end_of_cite + REACH).min(text.len());
    while !text.is_char_boundary(ceiling) {
        ceiling -= 1;
    }
    // The cite's own backticks are not a snippet's.
    let (mut before, mut after) = (
        &text[floor..at],
        text.get(end_of_cite..ceiling).unwrap_or(""),
    );
    if before.ends_with('`') && after.starts_with('`') {
        before = &before[..before.len() - 1];
        after = &after[1..];
    }
    // (A table row is read whole before the cite: its first cells name
    // what the row is about, `| `get_pip_command` | `deps.py` |`.)
    let before = before
        .rsplit_once(". ")
        .map_or(before, |(_, sentence)| sentence);
    let end = ["\n\n", ". ", ".\n", "|"]
        .iter()
        .filter_map(|stop| after.find(stop))
        .min()
        .unwrap_or(after.len());
    // reStructuredText quotes code in double backticks (``name()``): one
    // quote as Markdown's single one.
    let (before, after) = (before.replace("``", "`"), after[..end].replace("``", "`"));
    // An odd backtick before the cite opens a snippet the cite sits in:
    // what is quoted is counted from the other side of it.
    let before_quoted = before.split('`').skip(1).step_by(2);
    let mut after_quoted = after.split('`').skip(1).step_by(2);
    // Words too common in code to say which line is meant.
    const COMMON: [&str; 14] = [
        "false", "await", "async", "return", "const", "class", "print", "match", "super", "crate",
        "where", "yield", "while", "break",
    ];
    // The snippet nearest the cite: the last before it in its sentence,
    // else the first after (`X collapse into the one at `cite``: X).
    let nearest: Vec<&str> = before_quoted
        .filter(|quoted| !quoted.contains('/'))
        .last()
        .or_else(|| after_quoted.find(|quoted| !quoted.contains('/')))
        .into_iter()
        .collect();
    let mut names: Vec<String> = Vec::new();
    for quoted in nearest {
        // A path is no name; a snippet (`posts.publish_post(...)`,
        // `#![expect(clippy::unwrap_used)]`) gives each of its words.
        if quoted.contains('/') {
            continue;
        }
        for word in quoted.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word.len() >= 5
                && word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && !COMMON.contains(&word.to_ascii_lowercase().as_str())
                && !names.iter().any(|n| n == word)
            {
                names.push(word.to_owned());
            }
        }
    }
    names
}

/// Whether `bytes` define `name` (`struct name`, `fn name`, `def name`, …)
/// on some line.
pub(super) fn defines(name: &str, bytes: &[u8]) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .any(|line| line_defines(line, name))
}

/// Whether `name` stands as a whole word on the lines `start..=end` of
/// `bytes`.
fn holds_name(name: &str, bytes: &[u8], start: usize, end: usize) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .skip(start.saturating_sub(1))
        .take(end.saturating_sub(start) + 1)
        .any(|line| has_whole_word(line, name.as_bytes()))
}

/// The cited files' versions along the history, read once each, and the line
/// diffs between them.
#[derive(Default)]
struct FileVersions {
    versions: BTreeMap<(Oid, String), Option<Version>>,
    /// The line diff between two versions, by their blob ids: every cite of a
    /// file is mapped through the same diff.
    hunks: BTreeMap<(Oid, Oid), Arc<Vec<Hunk>>>,
    /// Each version's lines, by blob id.
    lines: BTreeMap<Oid, Arc<Vec<String>>>,
}

impl FileVersions {
    fn version(
        &mut self,
        history: &mut History<'_>,
        position: usize,
        file: &str,
    ) -> Option<Version> {
        let commit = history.commit_at(position)?;
        let repo = history.repo();
        self.versions
            .entry((commit, file.to_owned()))
            .or_insert_with(|| {
                repo.file_at(commit, file).map(|(id, bytes)| Version {
                    id,
                    bytes: Arc::from(bytes),
                })
            })
            .clone()
    }

    /// What the evidence says of lines cited at `writing` (a position on the
    /// line) that read `now` today: `None` when they hold what they held (or
    /// the file was not there to cite, so there is nothing to hold them to).
    fn judge(
        &mut self,
        history: &mut History<'_>,
        writing: usize,
        target: &LineTarget,
        now: &Version,
        written: &str,
    ) -> Option<(CiteStatus, Option<String>)> {
        // The file may have come to this path after the cite was written (a
        // folder renamed around it): the lines the record meant are the
        // file's as it was then, under the name it had, which the rename that
        // brought it here gives. A file that came from nowhere the rename
        // detection sees is held to its first version here, but where those
        // lines went is a reading: the author read some other text.
        let arrived = self.first_with_file(history, writing, &target.file)?;
        let (writing, then, then_file, unfollowed) =
            match self.came_from(history, writing, arrived, &target.file) {
                Some((old, version)) => (writing, version, old, false),
                None => (
                    arrived,
                    self.version(history, arrived, &target.file)?,
                    target.file.clone(),
                    true,
                ),
            };
        // Lines past the file's end then were never the lines the record
        // meant (a link copied from another version): whatever they hold now,
        // the history says the cite did not resolve when it was written.
        let had = self.lines_of(&then).len();
        // `19-136` of a 135-line file is its rest from line 19, as an editor
        // numbers a file that ends in a newline.
        let to_the_end = target.start < target.end && target.end == had + 1;
        if had < target.end && !to_the_end {
            let when = short(history.commit_at(writing)?);
            return Some((
                CiteStatus::Stale {
                    why: format!(
                        "when the record cited it (at {when}), {} had {}; the cite names line {}",
                        target.file,
                        if had == 1 {
                            "1 line".to_owned()
                        } else {
                            format!("{had} lines")
                        },
                        target.end
                    ),
                    suggestion: None,
                    guessed: false,
                },
                None,
            ));
        }
        let clamped;
        let target = if to_the_end {
            clamped = LineTarget {
                end: had,
                ..target.clone()
            };
            &clamped
        } else {
            target
        };
        let fate = self.fate(history, &then, now, target);
        if fate == LineFate::Same {
            return None;
        }
        if matches!(fate, LineFate::Moved { .. })
            && target.start == target.end
            && self.gap_still_between(history, &then, now, target)
        {
            return None;
        }
        let culprit = self.culprit(history, writing, (&then, &then_file), target);
        let when = short(history.commit_at(writing)?);
        let by = culprit.map_or_else(String::new, |c| format!(" in {}", short(c)));
        let LineTarget { start, end, .. } = target;
        // Named as it was when the record cited it.
        let file = &then_file;
        let cited = if start == end {
            format!("line {start}")
        } else {
            format!("lines {start}-{end}")
        };
        // The commit that wrote the cite changed the cited file too (it was
        // there before, with other text): the record may describe the file
        // before that commit or after it, so where its lines went is a
        // reading, not a proof. A file the commit created has one version.
        let also_changed_then = self
            .version(history, writing + 1, &then_file)
            .is_some_and(|before| before.id != then.id);
        let status = match fate {
            LineFate::Moved { start: s, end: e } => {
                // Lines that moved and were edited on the way are the same
                // lines by the diff, but hold other text: where the record's
                // words went is a reading.
                let (old, new) = (self.lines_of(&then), self.lines_of(now));
                let edited = end - start != e - s
                    || (*start..=*end).zip(s..=e).any(|(a, b)| {
                        old.get(a - 1).map(|l| l.trim()) != new.get(b - 1).map(|l| l.trim())
                    });
                let now_at = if s == e {
                    format!("line {s}")
                } else {
                    format!("lines {s}-{e}")
                };
                CiteStatus::Stale {
                    why: format!(
                        "what {file} held at {cited} when the record cited it (at {when}) is now at {now_at}: moved{by}"
                    ),
                    suggestion: Some(renumbered(written, *start, *end, s, e)),
                    guessed: also_changed_then || edited || unfollowed,
                }
            }
            _ => CiteStatus::Stale {
                why: format!(
                    "what {file} held at {cited} when the record cited it (at {when}) was changed{by}"
                ),
                suggestion: None,
                guessed: false,
            },
        };
        Some((status, Some(when)))
    }

    /// When `file` came to its path at `arrived`, after the cite was written
    /// at `writing`: the path it was renamed from there and that path's
    /// version at `writing`. `None` when it was there all along (then the
    /// version at `writing` is `file`'s own), or came from no path that held
    /// it when the cite was written.
    fn came_from(
        &mut self,
        history: &mut History<'_>,
        writing: usize,
        arrived: usize,
        file: &str,
    ) -> Option<(String, Version)> {
        if arrived == writing {
            return Some((file.to_owned(), self.version(history, writing, file)?));
        }
        let commit = history.commit_at(arrived)?;
        let old = history.repo().renamed_from(commit, file)?;
        let version = self.version(history, writing, &old)?;
        Some((old, version))
    }

    /// `writing` if `file` is there, else the oldest position since (nearer
    /// the audited commit) where it is: files come to a path and stay, so a
    /// binary search finds it.
    fn first_with_file(
        &mut self,
        history: &mut History<'_>,
        writing: usize,
        file: &str,
    ) -> Option<usize> {
        if self.version(history, writing, file).is_some() {
            return Some(writing);
        }
        // Positions `writing - 1` down to 0, oldest first.
        let (mut low, mut high) = (0usize, writing);
        while low < high {
            let mid = (low + high) / 2;
            let position = writing - 1 - mid;
            if self.version(history, position, file).is_some() {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        (low < writing).then(|| writing - 1 - low)
    }

    fn fate(
        &mut self,
        history: &History<'_>,
        then: &Version,
        now: &Version,
        target: &LineTarget,
    ) -> LineFate {
        if then.id == now.id {
            return LineFate::Same;
        }
        let repo = history.repo();
        let (old, new) = (self.lines_of(then), self.lines_of(now));
        let hunks = self
            .hunks
            .entry((then.id, now.id))
            .or_insert_with(|| Arc::new(repo.line_hunks(&then.bytes, &now.bytes)));
        map_lines_keeping(hunks, target.start, target.end, |a, b| {
            match (old.get(a - 1), new.get(b - 1)) {
                (Some(a), Some(b)) => same_line_edited(a, b),
                _ => false,
            }
        })
    }

    /// Whether a cited blank line that moved still puts the reader where the
    /// record meant. A blank line names nothing but its place: it is held to
    /// the lines either side of it, and stands while its number still falls
    /// between where they went. (A declaration pushed a line down below a new
    /// comment is not held so: judged, those links were real, records that
    /// meant the declaration's own line.)
    fn gap_still_between(
        &mut self,
        history: &History<'_>,
        then: &Version,
        now: &Version,
        target: &LineTarget,
    ) -> bool {
        let cited = target.start;
        let old = self.lines_of(then);
        let blank = |n: usize| old.get(n - 1).is_none_or(|l| l.trim().is_empty());
        if !blank(cited) {
            return false;
        }
        let before = (1..cited).rev().find(|&n| !blank(n));
        let after = (cited + 1..=old.len()).find(|&n| !blank(n));
        // Where a neighbour is now: `None` when it is not the same line.
        let mut now_at = |n: usize| {
            let one = LineTarget {
                start: n,
                end: n,
                ..target.clone()
            };
            match self.fate(history, then, now, &one) {
                LineFate::Same => Some(n),
                LineFate::Moved { start, .. } => Some(start),
                LineFate::Changed => None,
            }
        };
        let below = match before {
            Some(n) => now_at(n).is_some_and(|at| at <= cited),
            None => true,
        };
        let above = match after {
            Some(n) => now_at(n).is_some_and(|at| cited <= at),
            None => true,
        };
        (before.is_some() || after.is_some()) && below && above
    }

    /// A version's lines, split once.
    fn lines_of(&mut self, version: &Version) -> Arc<Vec<String>> {
        Arc::clone(
            self.lines
                .entry(version.id)
                .or_insert_with(|| Arc::new(lines_of(&version.bytes))),
        )
    }

    /// The first-parent commit after which the cited lines have not stood as
    /// written: the newest break. Lines that moved, came back and moved again
    /// were broken last by the last move, so the search starts from the
    /// audited commit: it gallops back (1, 2, 4, … commits) to a commit where
    /// they stood, then halves the span between it and the newest commit seen
    /// broken. Each commit is read as the file's version there.
    fn culprit(
        &mut self,
        history: &mut History<'_>,
        writing: usize,
        (then, then_file): (&Version, &str),
        target: &LineTarget,
    ) -> Option<Oid> {
        // Position 0 is the audited commit (broken), `writing` the commit that
        // wrote the cite (standing). Before the file came to its path it is
        // read under the name it had when the cite was written.
        let mut stands = |this: &mut Self, position: usize| match this
            .version(history, position, &target.file)
            .or_else(|| this.version(history, position, then_file))
        {
            Some(version) => this.fate(history, then, &version, target) == LineFate::Same,
            None => false,
        };
        let (mut broken, mut standing) = (0usize, writing);
        let mut probe = 1usize;
        while probe < writing {
            if stands(self, probe) {
                standing = probe;
                break;
            }
            broken = probe;
            probe = probe.saturating_mul(2);
        }
        while standing - broken > 1 {
            let mid = broken + (standing - broken) / 2;
            if stands(self, mid) {
                standing = mid;
            } else {
                broken = mid;
            }
        }
        (standing > 0)
            .then(|| history.commit_at(standing - 1))
            .flatten()
    }
}

/// A file's bytes at some commit, with its blob id (what two versions are
/// compared by).
#[derive(Clone)]
struct Version {
    id: Oid,
    bytes: Arc<[u8]>,
}

impl Version {
    /// The audited tree's bytes, with the id git would give them.
    fn of(bytes: &[u8]) -> Version {
        Version {
            id: Oid::hash_object(git2::ObjectType::Blob, bytes).unwrap_or(Oid::ZERO_SHA1),
            bytes: Arc::from(bytes),
        }
    }
}

/// The cite in the record's own syntax, for a suggestion to replace, and
/// where that is in the record when not at the cite's start: a
/// literalinclude's `:lines: 14-20` option (its cite runs from the file to
/// the option), a link's whole address (`…/blob/main/x.py#L102`), else the
/// cite's text.
fn record_syntax(
    cite: &ResolvedCite,
    texts: &BTreeMap<String, Arc<str>>,
) -> (String, Option<std::ops::Range<usize>>) {
    let raw = texts
        .get(&cite.record)
        .and_then(|t| t.get(cite.span.clone()).map(str::to_owned));
    if let Some(raw) = raw.filter(|r| r.contains('\n'))
        && let Some(at) = raw.rfind(":lines:")
    {
        let option = raw[at..].lines().next().unwrap_or("").trim_end();
        let start = cite.span.start + at;
        return (option.to_owned(), Some(start..start + option.len()));
    }
    match cite.destination.as_deref() {
        Some(address) if address.contains("://") && address.contains("#L") => {
            (address.to_owned(), None)
        }
        _ => (cite.text.clone(), None),
    }
}

/// The cite as written with its line numbers replaced (`a.go:313` → `a.go:411`,
/// `a.rs#L10-L20` → `a.rs#L12-L22`).
fn renumbered(written: &str, start: usize, end: usize, new_start: usize, new_end: usize) -> String {
    // A literalinclude's option, as rst writes it.
    if written.starts_with(":lines:") {
        return if start == end && !written.contains('-') {
            format!(":lines: {new_start}")
        } else {
            format!(":lines: {new_start}-{new_end}")
        };
    }
    let (head, tail) = match written.rfind(['#', ':']) {
        Some(at) => written.split_at(at + 1),
        None => return written.to_owned(),
    };
    let link = tail.starts_with('L');
    let one = |n: usize| if link { format!("L{n}") } else { n.to_string() };
    let cited_one = start == end && !tail.contains(['-', '–']);
    if cited_one {
        format!("{head}{}", one(new_start))
    } else {
        format!("{head}{}-{}", one(new_start), one(new_end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cite_that_repeats_the_sample_output_above_it_reads_the_sample() {
        let page = "If the error is:\n\n```\nwire: /src/cli/wire.go:182:1: inject x\n```\n\nthen the top is at wire.go:182.\n";
        let at = page.rfind("wire.go:182").expect("the cite");
        assert!(echoes_a_sample(page, at..at + "wire.go:182".len()));
        // The sample printed another line, or the same file's line 1820.
        let other = page.replace("182:1", "1820:1");
        let at = other.rfind("wire.go:182").expect("the cite");
        assert!(!echoes_a_sample(&other, at..at + "wire.go:182".len()));
        // Far below the sample, the prose cites the code.
        let far = page.replace("\n\nthen", &format!("{}then", "\nmore prose.\n".repeat(14)));
        let at = far.rfind("wire.go:182").expect("the cite");
        assert!(!echoes_a_sample(&far, at..at + "wire.go:182".len()));
    }

    #[test]
    fn the_destination_of_the_link_a_cite_is_the_text_of_is_read() {
        let page =
            "([synthesizer.go:897-903](../../server/synthesizer.go)), and [`b.go:3`](./b.go#L3)";
        let end = page.find("](").expect("a link");
        assert_eq!(
            destination_after(page, end),
            Some("../../server/synthesizer.go")
        );
        let end = page.find("b.go:3").expect("b") + "b.go:3".len();
        assert_eq!(destination_after(page, end), Some("./b.go#L3"));
        assert_eq!(destination_after("see `a.go:3` here", 10), None);
    }

    #[test]
    fn code_in_double_backticks_names_what_a_cite_means() {
        let page = "The source is the ``_insert_var_dels()``\nmethod in https://x/blob/main/pkg/interp.py.\n";
        let at = page.find("https").expect("the link");
        assert_eq!(
            code_names_around(page, at..at + 30),
            vec!["_insert_var_dels".to_owned()]
        );
    }

    #[test]
    fn a_link_beside_the_class_its_sentence_names_lands_on_it() {
        let page = "See the sparse :class:`pkg.basic.Cast` op `code\n<https://x/blob/master/pkg/basic.py#L5>`_ for an example.\n";
        let at = page.find("https").expect("the link");
        assert_eq!(named_in_sentence(page, at), Some("Cast"));
        let code = b"import x\n\n\n\n\n\n\nclass Cast(Op):\n    pass\n";
        assert!(defines_near("Cast", code, 5));
        // Too far, or only used there: no.
        assert!(!defines_near("Cast", code, 1));
        assert!(!defines_near("Op", code, 5));
        // A paragraph before a blank line names nothing for this one.
        let page = "Use `Cast`.\n\nSee [the code](https://x/pkg/basic.py#L5).\n";
        let at = page.find("https").expect("the link");
        assert_eq!(named_in_sentence(page, at), None);
    }

    #[test]
    fn a_links_words_on_its_lines_show_what_it_means() {
        let file = b"package e2e\n\n\tginkgo.It(\"should not return an error if the definition is valid\", func() {\n";
        let words = "should not return an error if the definition is valid";
        assert!(super::shown_by(words, file, 3, 3));
        assert!(!super::shown_by(words, file, 1, 2));
        // Too short, or one word: no quotation, unless a string says it whole.
        assert!(!super::shown_by("func", file, 3, 3));
        assert!(!super::shown_by(
            "package_e2e_definition_is_valid",
            file,
            1,
            3
        ));
        let annotation = b"var _ = framework.DescribeAnnotation(\"canary-*\", func() {\n";
        assert!(super::shown_by("canary-*", annotation, 1, 1));
        // The name written beside a cite, and whether its line holds it.
        let table = "| `kPinPayloadRatio` (`:262`) | ratio |\n";
        let at = table.find(":262").expect("cite");
        assert_eq!(super::name_beside(table, at - 1), Some("kPinPayloadRatio"));
        let prose = "Parsing starts in `parse_header` at `src/x.rs:40`.\n";
        assert_eq!(
            super::name_beside(prose, prose.find("src/x").expect("cite") - 1),
            Some("parse_header")
        );
        // A short name, or one in another cell, is no such name.
        assert_eq!(super::name_beside("| `kCap` | `x.hpp:9` |\n", 13), None);
        let source = b"struct C {\n  static constexpr int kPinPayloadRatio = 0;\n};\n";
        assert!(super::holds_name("kPinPayloadRatio", source, 2, 2));
        assert!(!super::holds_name("kPinPayload", source, 2, 2));
        assert!(!super::holds_name("kPinPayloadRatio", source, 1, 1));
        assert!(!super::shown_by("canary", annotation, 1, 1));
    }

    #[test]
    fn an_edited_line_is_told_from_a_replaced_one() {
        assert!(same_line_edited("go 1.22", "go 1.26"));
        assert!(same_line_edited("# v1.43.0", "# v2.10.1"));
        assert!(!same_line_edited("12", "34"));
        assert!(same_line_edited(
            r#"const Image = "kindest/haproxy:2.1.1-alpine""#,
            r#"const Image = "docker.io/envoyproxy/envoy:v1.36.2""#
        ));
        assert!(!same_line_edited("name: alpha", "port: 8080"));
        assert!(same_line_edited("    MaxSize = 10", "\tMaxSize = 20"));
        assert!(!same_line_edited(
            "func Close() error {",
            "// Deprecated: use Shutdown."
        ));
        assert!(!same_line_edited("", "x := 1"));
        // Text put inside a line that is otherwise kept whole.
        assert!(same_line_edited(
            r#"@get("/")"#,
            r#"@get("/", sync_to_thread=False)"#
        ));
        assert!(!same_line_edited("}", "} else {"));
        // The same names, only punctuation changed (2to3's print).
        assert!(same_line_edited(
            "    print \"  Min %s\" % min(fits)",
            "    print(\"  Min %s\" % min(fits))"
        ));
        assert!(!same_line_edited("f(a, b)", "f(b, a)"));
        // The same name declared in another module system, typed.
        assert!(same_line_edited(
            "exports.assetExts = [",
            "export const assetExts: Array<string> = ["
        ));
        assert!(same_line_edited(
            "def handle(self, event):",
            "async def handle(self, event, ctx):"
        ));
        assert!(!same_line_edited(
            "exports.assetExts = [",
            "module.exports = {"
        ));
        // A name too short to stand for itself is no declaration's identity.
        assert!(!same_line_edited("self.id = parent", "other.id = child"));
        // Most of its words kept in order: the same directive, flags changed.
        assert!(same_line_edited(
            "//go:generate mockgen -package mocks -destination=../../../mocks/$GOFILE -source=$GOFILE -build_flags=-mod=vendor",
            "//go:generate go tool mockgen -package mocks -destination=../../../mocks/$GOFILE -source=$GOFILE"
        ));
        // Words shared out of order, or too few kept, are another line.
        assert!(!same_line_edited(
            "return parse(config, strict, cache)",
            "log.debug(cache, strict, config)"
        ));
        assert!(!same_line_edited(
            "if user.is_admin and request.method == POST:",
            "if user.is_active:"
        ));
    }

    #[test]
    fn a_span_edited_between_its_first_and_last_lines_holds_its_place() {
        // Lines 12-14 of a span 10-20 rewritten, three for three.
        assert_eq!(map_lines(&[(12, 3, 12, 3)], 10, 20), LineFate::Same);
        // Rewritten behind lines put above it: the span moved whole.
        assert_eq!(
            map_lines(&[(2, 0, 3, 2), (12, 3, 14, 3)], 10, 20),
            LineFate::Moved { start: 12, end: 22 }
        );
        // Lines put among them, or a boundary line replaced: changed.
        assert_eq!(map_lines(&[(12, 3, 12, 5)], 10, 20), LineFate::Changed);
        assert_eq!(map_lines(&[(10, 1, 10, 1)], 10, 20), LineFate::Changed);
        assert_eq!(map_lines(&[(20, 1, 20, 1)], 10, 20), LineFate::Changed);
    }

    #[test]
    fn lines_are_mapped_through_the_hunks_before_them() {
        // Three lines inserted after line 2, one removed at 30.
        let hunks = [(2, 0, 3, 3), (30, 1, 32, 0)];
        assert_eq!(map_lines(&hunks, 1, 2), LineFate::Same);
        assert_eq!(
            map_lines(&hunks, 10, 12),
            LineFate::Moved { start: 13, end: 15 }
        );
        assert_eq!(
            map_lines(&hunks, 29, 29),
            LineFate::Moved { start: 32, end: 32 }
        );
        assert_eq!(map_lines(&hunks, 30, 31), LineFate::Changed);
        assert_eq!(
            map_lines(&hunks, 40, 41),
            LineFate::Moved { start: 42, end: 43 }
        );
        // An insertion among the cited lines splits them.
        assert_eq!(map_lines(&[(5, 0, 6, 2)], 4, 8), LineFate::Changed);
        // One inserted and one removed before them: back where they were.
        assert_eq!(
            map_lines(&[(1, 0, 2, 1), (3, 1, 4, 0)], 10, 10),
            LineFate::Same
        );
        // A changed line among them.
        assert_eq!(map_lines(&[(11, 1, 11, 1)], 10, 12), LineFate::Changed);
        // The same line edited in place keeps its place; lines put above it
        // still move it.
        let kept = |_: usize, _: usize| true;
        assert_eq!(
            map_lines_keeping(&[(11, 1, 11, 1)], 10, 12, kept),
            LineFate::Same
        );
        assert_eq!(
            map_lines_keeping(&[(2, 0, 3, 2), (11, 1, 13, 1)], 10, 12, kept),
            LineFate::Moved { start: 12, end: 14 }
        );
        // An edited line with a line put after it: still in place; but a
        // cited line after that one is moved against it.
        assert_eq!(
            map_lines_keeping(&[(11, 1, 11, 3)], 11, 11, kept),
            LineFate::Same
        );
        assert_eq!(
            map_lines_keeping(&[(11, 1, 11, 2)], 10, 12, kept),
            LineFate::Changed
        );
        // A line edited where lines were put above it, in the same hunk: it
        // moved to where its edited self stands.
        assert_eq!(
            map_lines_keeping(&[(2, 1, 2, 3)], 2, 2, |a, b| (a, b) == (2, 4)),
            LineFate::Moved { start: 4, end: 4 }
        );
        // Fewer new lines than the cited ones: not each kept.
        assert_eq!(
            map_lines_keeping(&[(10, 3, 10, 1)], 10, 12, kept),
            LineFate::Changed
        );
    }

    #[test]
    fn a_cite_is_renumbered_in_the_form_it_was_written() {
        assert_eq!(
            renumbered("reader.go:313", 313, 313, 411, 411),
            "reader.go:411"
        );
        assert_eq!(renumbered("a.rs:10-20", 10, 20, 12, 22), "a.rs:12-22");
        assert_eq!(renumbered("a.rs#L10-L20", 10, 20, 12, 22), "a.rs#L12-L22");
        assert_eq!(renumbered("a.rs#L7", 7, 7, 9, 9), "a.rs#L9");
        assert_eq!(renumbered(":lines: 14", 14, 14, 15, 15), ":lines: 15");
        assert_eq!(renumbered(":lines: 10-23", 10, 23, 12, 25), ":lines: 12-25");
        assert_eq!(
            renumbered(
                "https://github.com/o/r/blob/main/x.py#L102",
                102,
                102,
                130,
                130
            ),
            "https://github.com/o/r/blob/main/x.py#L130"
        );
    }
}
