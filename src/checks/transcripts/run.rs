//! Stage 4 (the transcript family): re-running a parsed pipeline natively over a
//! snapshot — `git grep`, `grep`, `ls`, `find`, `git ls-files`, `git rev-list
//! --count` and the filters after them — printing what the real tools print,
//! line for line. No process is spawned and nothing is written; a path the
//! snapshot does not hold is reported, not guessed at.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use globset::GlobBuilder;

use super::parse::{Filter, GrepOptions, Pipeline, Refusal, Source, Syntax};
use crate::pathspec::{PathSpec, Style};
use crate::snapshot::Snapshot;

/// Most lines a re-run keeps: a transcript shows a screenful, and a pattern
/// that matches every line of a large tree must not hold it all in memory.
pub const MAX_LINES: usize = 1_000_000;

/// Why a pipeline could not be re-run here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// Something in it recount does not re-run after all (an invalid regex, a
    /// back-reference, an `ls` of several folders).
    Refused(Refusal),
    /// A path it names is not in the snapshot (an ignored or untracked folder
    /// such as `.venv/`, or a file that is gone).
    Missing(String),
    /// The history it counts cannot be read (a revision outside the clone).
    History(String),
    /// The run's re-runs have read [`RERUN_READ_BUDGET`] bytes already.
    OverBudget,
}

/// The most bytes of file text the re-runs of one run read, counted each time
/// a re-run reads a file (memoised or not): a page of a thousand different
/// `grep -r` over a large tree stops here, in record order, with a note.
pub const RERUN_READ_BUDGET: u64 = 2 << 30;

/// Why a transcript past [`RERUN_READ_BUDGET`] is not re-run.
pub fn over_budget() -> String {
    format!(
        "the run's re-runs had read {} GiB of files, the most one run reads",
        RERUN_READ_BUDGET >> 30
    )
}

/// Counts the commits reachable from a revision that touch the paths.
pub type History<'a> = &'a dyn Fn(&str, &[String]) -> Result<usize, String>;

/// The texts of the files re-runs read, kept for the rest of the run: a page
/// of two hundred keys over one tree reads each file once, not two hundred
/// times. Keyed by the snapshot's label (one per commit, or the working tree).
/// A file of one snapshot: (the snapshot's label, the path).
type TextKey = (String, String);

/// A re-run of one pipeline: (the snapshot's label, the revision prefix,
/// the pipeline as parsed).
type RunKey = (String, Option<String>, String);
/// What a re-run printed, or why it could not run.
type Printed = Arc<Result<Vec<String>, RunError>>;

#[derive(Default)]
pub struct Texts {
    read: Mutex<HashMap<TextKey, Option<Arc<str>>>>,
    /// What each pipeline printed, per snapshot: a record (or a thousand)
    /// showing the same command in the same tree is re-run once.
    ran: Mutex<HashMap<RunKey, Printed>>,
    /// Bytes kept so far; past [`Texts::KEPT_BYTES`] files are read again
    /// rather than kept, so a large tree does not stay in memory.
    kept: std::sync::atomic::AtomicUsize,
    /// Bytes the re-runs have read, kept or not: held to [`RERUN_READ_BUDGET`].
    scanned: std::sync::atomic::AtomicU64,
}

impl Texts {
    const KEPT_BYTES: usize = 64 << 20;

    fn get(&self, snapshot: &dyn Snapshot, path: &str) -> Option<Arc<str>> {
        let text = self.get_unscanned(snapshot, path);
        let size = text.as_ref().map_or(0, |t| t.len() as u64);
        self.scanned
            .fetch_add(size, std::sync::atomic::Ordering::Relaxed);
        text
    }

    fn get_unscanned(&self, snapshot: &dyn Snapshot, path: &str) -> Option<Arc<str>> {
        let key = (snapshot.label(), path.to_owned());
        if let Some(hit) = self.read.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return hit;
        }
        // A file that cannot be read (a blob a partial clone lacks) is skipped,
        // as git grep says so on its error stream and goes on.
        let text = snapshot.read_text(path).ok().flatten();
        let size = text.as_ref().map_or(0, |t| t.len());
        let kept = self
            .kept
            .fetch_add(size, std::sync::atomic::Ordering::Relaxed);
        if kept + size <= Self::KEPT_BYTES
            && let Ok(mut m) = self.read.lock()
        {
            m.insert(key, text.clone());
        }
        text
    }
}

/// What a re-run reads besides the snapshot.
pub struct Context<'a> {
    pub snapshot: &'a dyn Snapshot,
    pub texts: &'a Texts,
    /// The revision `git grep` was given, which prefixes each line it prints.
    pub rev: Option<&'a str>,
    /// Counts the commits reachable from a revision that touch the paths
    /// (`git rev-list --count REV -- PATH…`).
    pub history: History<'a>,
}

fn refused(why: impl Into<String>, part: impl Into<String>) -> RunError {
    RunError::Refused(Refusal {
        why: why.into(),
        part: part.into(),
    })
}

/// Runs `pipeline`, returning the lines it prints.
pub fn run(pipeline: &Pipeline, cx: &Context<'_>) -> Result<Vec<String>, RunError> {
    let key = (
        cx.snapshot.label(),
        cx.rev.map(str::to_owned),
        format!("{pipeline:?}"),
    );
    if let Some(hit) = cx.texts.ran.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return (*hit).clone();
    }
    // Re-runs happen in record order, so the cut falls at the same one
    // every time.
    if cx.texts.scanned.load(std::sync::atomic::Ordering::Relaxed) > RERUN_READ_BUDGET {
        return Err(RunError::OverBudget);
    }
    let printed = run_once(pipeline, cx);
    // Kept within the same budget as the texts read.
    let size = printed
        .as_ref()
        .map_or(0, |lines| lines.iter().map(String::len).sum::<usize>());
    let kept = cx
        .texts
        .kept
        .fetch_add(size, std::sync::atomic::Ordering::Relaxed);
    if kept + size <= Texts::KEPT_BYTES
        && let Ok(mut ran) = cx.texts.ran.lock()
    {
        ran.insert(key, Arc::new(printed.clone()));
    }
    printed
}

fn run_once(pipeline: &Pipeline, cx: &Context<'_>) -> Result<Vec<String>, RunError> {
    let mut lines = source(&pipeline.source, cx)?;
    for filter in &pipeline.filters {
        lines = apply(filter, lines)?;
    }
    Ok(lines)
}

/// The lines of a text as grep reads them: split at `\n`, no final empty line.
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let empty = text.is_empty();
    body.split('\n').filter(move |_| !empty)
}

/// A compiled grep pattern set.
pub struct Matcher {
    regex: regex::Regex,
    /// `-w`: the match is capture group 1, framed by non-word characters.
    word: bool,
}

impl Matcher {
    pub fn new(options: &GrepOptions) -> Result<Matcher, RunError> {
        let mut alternatives = Vec::new();
        for p in &options.patterns {
            let translated = match options.syntax {
                Syntax::Fixed => regex::escape(p),
                Syntax::Basic => posix_to_rust(p, false).map_err(|why| refused(why, p.clone()))?,
                Syntax::Extended => {
                    posix_to_rust(p, true).map_err(|why| refused(why, p.clone()))?
                }
            };
            alternatives.push(format!("(?:{translated})"));
        }
        let joined = alternatives.join("|");
        let body = if options.word {
            format!(r"(?:^|[^\w])({joined})(?:[^\w]|$)")
        } else {
            joined
        };
        let regex = regex::RegexBuilder::new(&body)
            .case_insensitive(options.ignore_case)
            .size_limit(1 << 24)
            .build()
            .map_err(|e| {
                let why = match e {
                    regex::Error::CompiledTooBig(_) => "a pattern too large to compile".to_owned(),
                    _ => "an invalid regular expression".to_owned(),
                };
                refused(why, options.patterns.join(" "))
            })?;
        Ok(Matcher {
            regex,
            word: options.word,
        })
    }

    pub fn is_match(&self, line: &str) -> bool {
        self.regex.is_match(line)
    }

    /// Every match in the line, as `-o` prints them.
    fn matches<'l>(&self, line: &'l str) -> Vec<&'l str> {
        if self.word {
            let mut out = Vec::new();
            let mut at = 0;
            while at <= line.len() {
                let Some(caps) = self.regex.captures_at(line, at) else {
                    break;
                };
                let Some(m) = caps.get(1) else { break };
                if !m.as_str().is_empty() {
                    out.push(m.as_str());
                }
                at = if m.end() > at { m.end() } else { at + 1 };
                while at < line.len() && !line.is_char_boundary(at) {
                    at += 1;
                }
            }
            out
        } else {
            self.regex
                .find_iter(line)
                .map(|m| m.as_str())
                .filter(|m| !m.is_empty())
                .collect()
        }
    }
}

/// A POSIX basic (`extended = false`) or extended regular expression as the
/// `regex` crate reads it: in a basic one `\(`, `\|`, `\+`, `\?`, `\{` are the
/// operators and their bare forms are literal; `\<` and `\>` are word edges.
pub fn posix_to_rust(pattern: &str, extended: bool) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    // Where a `*` is literal in a basic expression: at the start, after `\(`, `\|` or `^`.
    let mut at_start = true;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let was_start = at_start;
        at_start = false;
        match c {
            '\\' => {
                let Some(&n) = chars.get(i) else {
                    return Err("a pattern ending in a backslash".into());
                };
                i += 1;
                match n {
                    '(' | ')' | '{' | '}' | '|' | '+' | '?' if !extended => {
                        out.push(n);
                        at_start = matches!(n, '(' | '|');
                    }
                    '<' | '>' => out.push_str(r"\b"),
                    'w' | 'W' | 's' | 'S' | 'b' | 'B' => {
                        out.push('\\');
                        out.push(n);
                    }
                    '1'..='9' => {
                        return Err("a back-reference, which recount does not re-run".into());
                    }
                    _ => out.push_str(&regex::escape(&n.to_string())),
                }
            }
            '[' => {
                let (class, next) = bracket(&chars, i)?;
                out.push_str(&class);
                i = next;
            }
            '*' if was_start && !extended => out.push_str(r"\*"),
            '^' if !extended && !was_start => out.push_str(r"\^"),
            '^' => {
                out.push('^');
                at_start = true;
            }
            '$' if !extended
                && i != chars.len()
                && !chars[i..].starts_with(&['\\', ')'])
                && !chars[i..].starts_with(&['\\', '|']) =>
            {
                out.push_str(r"\$")
            }
            '(' | ')' | '|' | '+' | '?' | '{' | '}' if !extended => {
                out.push('\\');
                out.push(c);
            }
            '{' if extended && !interval(&chars[i..]) => out.push_str(r"\{"),
            '}' if extended => out.push_str(r"\}"),
            '(' | '|' if extended => {
                out.push(c);
                at_start = true;
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// Whether the text after a `{` is an interval (`3}`, `2,}`, `1,4}`).
fn interval(rest: &[char]) -> bool {
    let end = rest.iter().position(|&c| c == '}');
    end.is_some_and(|end| {
        let body: String = rest[..end].iter().collect();
        !body.is_empty()
            && body.chars().all(|c| c.is_ascii_digit() || c == ',')
            && body.matches(',').count() <= 1
            && !body.starts_with(',')
    })
}

/// A POSIX bracket expression starting after its `[`, as a `regex` class, and
/// the index after its `]`.
fn bracket(chars: &[char], mut i: usize) -> Result<(String, usize), String> {
    let mut out = String::from("[");
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    let mut first = true;
    loop {
        let Some(&c) = chars.get(i) else {
            return Err("an unterminated bracket expression".into());
        };
        i += 1;
        match c {
            ']' if !first => {
                out.push(']');
                return Ok((out, i));
            }
            '[' if matches!(chars.get(i), Some(':' | '.' | '=')) => {
                let kind = chars[i];
                let close = (i + 1..chars.len().saturating_sub(1))
                    .find(|&j| chars[j] == kind && chars[j + 1] == ']')
                    .ok_or("an unterminated character class")?;
                if kind != ':' {
                    return Err("a collating element, which recount does not re-run".into());
                }
                out.push_str("[:");
                out.extend(&chars[i + 1..close]);
                out.push_str(":]");
                i = close + 2;
            }
            '\\' | '[' | ']' | '&' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '-' if chars.get(i) == Some(&'-') => out.push_str(r"\-"),
            _ => out.push(c),
        }
        first = false;
    }
}

/// Every folder of a sorted file list.
fn folders(paths: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in paths {
        let mut at = 0;
        while let Some(i) = p[at..].find('/') {
            out.insert(p[..at + i].to_owned());
            at += i + 1;
        }
    }
    out
}

fn is_file(snapshot: &dyn Snapshot, path: &str) -> bool {
    crate::snapshot::has_file(snapshot.paths(), path)
}

fn is_folder(snapshot: &dyn Snapshot, path: &str) -> bool {
    path.is_empty() || crate::snapshot::has_folder(snapshot.paths(), path)
}

/// An operand as a repository path: `./` and a trailing `/` removed; `.` is the root.
fn normal(operand: &str) -> Result<String, RunError> {
    let mut p = operand;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let p = p.trim_end_matches('/');
    let p = if p == "." { "" } else { p };
    if operand.starts_with('/') || p.split('/').any(|s| s == "..") {
        return Err(refused("a path outside the repository", operand));
    }
    Ok(p.to_owned())
}

/// Each operand as the shell hands it over: a glob expanded to the paths it
/// matches (none is an error, as the tool's "No such file" would be), any
/// other word as written.
fn expand_operands(
    snapshot: &dyn Snapshot,
    operands: &[&super::parse::Word],
) -> Result<Vec<String>, RunError> {
    let mut named = Vec::new();
    for w in operands {
        if w.glob {
            let hits = expand(snapshot, &w.text)?;
            if hits.is_empty() {
                return Err(RunError::Missing(w.text.clone()));
            }
            named.extend(hits);
        } else {
            named.push(w.text.clone());
        }
    }
    Ok(named)
}

/// A shell glob expanded against the snapshot's files and folders, sorted;
/// hidden names match only a pattern that spells the dot.
fn expand(snapshot: &dyn Snapshot, pattern: &str) -> Result<Vec<String>, RunError> {
    let lead = pattern.strip_prefix("./").map(|_| "./").unwrap_or("");
    let normalised = normal(pattern)?;
    let glob = GlobBuilder::new(&normalised)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|_| refused("a glob recount does not read", pattern))?
        .compile_matcher();
    let depth = normalised.split('/').count();
    let pattern_parts: Vec<&str> = normalised.split('/').collect();
    let hidden_ok = |candidate: &str| {
        candidate
            .split('/')
            .zip(&pattern_parts)
            .all(|(c, p)| !c.starts_with('.') || p.starts_with('.'))
    };
    let mut out: BTreeSet<String> = BTreeSet::new();
    let dirs = folders(snapshot.paths());
    for candidate in snapshot.paths().iter().chain(dirs.iter()) {
        if candidate.split('/').count() == depth && glob.is_match(candidate) && hidden_ok(candidate)
        {
            out.insert(format!("{lead}{candidate}"));
        }
    }
    Ok(out.into_iter().collect())
}

fn source(source: &Source, cx: &Context<'_>) -> Result<Vec<String>, RunError> {
    match source {
        Source::GitGrep { options, specs, .. } => git_grep(options, specs, cx),
        Source::Grep { options, operands } => grep(options, operands, cx),
        Source::Ls { operands } => ls(operands, cx.snapshot),
        Source::LsFiles { specs } => {
            let (include, exclude) = pathspecs(specs)?;
            Ok(
                crate::pathspec::select(cx.snapshot.paths(), &include, &exclude)
                    .into_iter()
                    .filter(|p| cx.snapshot.is_tracked(p))
                    .map(git_quoted)
                    .collect(),
            )
        }
        Source::Find { dir, name, kind } => find(cx.snapshot, dir, name.as_ref(), *kind),
        Source::RevListCount { rev, paths } => {
            let paths = paths
                .iter()
                .map(|p| normal(p))
                .collect::<Result<Vec<_>, _>>()?;
            let n = (cx.history)(rev, &paths).map_err(RunError::History)?;
            Ok(vec![n.to_string()])
        }
    }
}

/// A path as git prints it by default (`core.quotePath`): in C-style quotes,
/// with octal escapes for bytes past ASCII, when it holds any such byte, a
/// control character, a `"` or a `\`.
pub fn git_quoted(path: &str) -> String {
    let needs = path
        .bytes()
        .any(|b| !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\');
    if !needs {
        return path.to_owned();
    }
    let mut out = String::from("\"");
    for b in path.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b if !(0x20..0x7f).contains(&b) => out.push_str(&format!("\\{b:03o}")),
            b => out.push(char::from(b)),
        }
    }
    out.push('"');
    out
}

/// git path specs: includes and `:(exclude)`/`:!`/`:^` excludes.
fn pathspecs(specs: &[String]) -> Result<(Vec<PathSpec>, Vec<PathSpec>), RunError> {
    let mut include = Vec::new();
    let mut exclude = Vec::new();
    for spec in specs {
        let (text, out) = if let Some(rest) = spec
            .strip_prefix(":(exclude)")
            .or_else(|| spec.strip_prefix(":!"))
            .or_else(|| spec.strip_prefix(":^"))
        {
            (rest, true)
        } else if spec.starts_with(':') {
            return Err(refused(
                "a path spec magic recount does not re-run",
                spec.clone(),
            ));
        } else {
            (spec.as_str(), false)
        };
        let text = if text == "." { "" } else { text };
        let compiled = PathSpec::new(text, Style::Git).map_err(|why| refused(why, spec.clone()))?;
        if out {
            exclude.push(compiled);
        } else {
            include.push(compiled);
        }
    }
    Ok((include, exclude))
}

fn read(cx: &Context<'_>, path: &str) -> Result<Option<Arc<str>>, RunError> {
    Ok(cx.texts.get(cx.snapshot, path))
}

fn push(out: &mut Vec<String>, line: String) -> Result<(), RunError> {
    if out.len() >= MAX_LINES {
        return Err(refused(
            "a command that prints more lines than recount keeps",
            "",
        ));
    }
    out.push(line);
    Ok(())
}

/// What one file contributes to `grep`/`git grep` output, `name` being how the
/// tool names it (`None` when it prints no name).
fn grep_file(
    options: &GrepOptions,
    matcher: &Matcher,
    name: Option<&str>,
    text: &str,
    zero_counts: bool,
    out: &mut Vec<String>,
) -> Result<(), RunError> {
    let prefix = |n: Option<usize>| {
        let mut p = String::new();
        if let Some(name) = name {
            p.push_str(name);
            p.push(':');
        }
        if let Some(n) = n.filter(|_| options.line_number) {
            p.push_str(&n.to_string());
            p.push(':');
        }
        p
    };
    let mut count = 0usize;
    for (i, line) in text_lines(text).enumerate() {
        if matcher.is_match(line) == options.invert {
            continue;
        }
        count += 1;
        if options.files_only {
            break;
        }
        if options.count {
            continue;
        }
        if options.only_matching {
            if options.invert {
                continue;
            }
            for m in matcher.matches(line) {
                push(out, format!("{}{m}", prefix(Some(i + 1))))?;
            }
        } else {
            push(out, format!("{}{line}", prefix(Some(i + 1))))?;
        }
    }
    if options.files_only {
        if count > 0 {
            push(out, name.unwrap_or("(standard input)").to_owned())?;
        }
    } else if options.count && (count > 0 || zero_counts) {
        let line = match name {
            Some(name) => format!("{name}:{count}"),
            None => count.to_string(),
        };
        push(out, line)?;
    }
    Ok(())
}

fn git_grep(
    options: &GrepOptions,
    specs: &[String],
    cx: &Context<'_>,
) -> Result<Vec<String>, RunError> {
    use rayon::prelude::*;
    let matcher = Matcher::new(options)?;
    let (include, exclude) = pathspecs(specs)?;
    let (snapshot, texts, rev) = (cx.snapshot, cx.texts, cx.rev);
    let mut selected = crate::pathspec::select(snapshot.paths(), &include, &exclude);
    // git grep reads what git tracks, not an untracked file beside it.
    selected.retain(|p| snapshot.is_tracked(p));
    // Files are read and searched on every core, as git grep does; the lines
    // come back in path order.
    let per_file: Vec<Result<Vec<String>, RunError>> = selected
        .par_iter()
        .map(|path| {
            let mut out = Vec::new();
            let Some(text) = texts.get(snapshot, path) else {
                return Ok(out);
            };
            if !options.invert && !matcher.is_match(&text) {
                return Ok(out);
            }
            let name = match rev {
                Some(rev) => format!("{rev}:{}", git_quoted(path)),
                None => git_quoted(path),
            };
            let shown = (!options.no_filename || options.files_only).then_some(name.as_str());
            grep_file(options, &matcher, shown, &text, false, &mut out)?;
            Ok(out)
        })
        .collect();
    let mut out = Vec::new();
    for lines in per_file {
        for line in lines? {
            push(&mut out, line)?;
        }
    }
    Ok(out)
}

fn grep(
    options: &GrepOptions,
    operands: &[super::parse::Word],
    cx: &Context<'_>,
) -> Result<Vec<String>, RunError> {
    let snapshot = cx.snapshot;
    let matcher = Matcher::new(options)?;
    let operands: Vec<&super::parse::Word> = operands.iter().filter(|w| w.text != "--").collect();
    let mut named = expand_operands(snapshot, &operands)?;
    if named.is_empty() {
        if !options.recursive {
            return Err(refused("grep of its standard input is not re-run", "grep"));
        }
        named.push(String::new());
    }
    let single = named.len() == 1;
    let mut out = Vec::new();
    for operand in &named {
        let path = normal(operand)?;
        if !operand.is_empty() && is_file(snapshot, &path) {
            let shown = !options.no_filename && !single;
            let Some(text) = read(cx, &path)? else {
                continue;
            };
            let name = shown.then_some(operand.as_str());
            grep_file(options, &matcher, name, &text, true, &mut out)?;
        } else if is_folder(snapshot, &path) {
            if !options.recursive {
                // grep says "Is a directory" on its error stream and goes on.
                continue;
            }
            let under: Vec<&String> = snapshot
                .paths()
                .iter()
                .filter(|p| path.is_empty() || p.starts_with(&format!("{path}/")))
                .collect();
            for file in under {
                let rel = if path.is_empty() {
                    file.as_str()
                } else {
                    &file[path.len() + 1..]
                };
                let name = if operand.is_empty() {
                    rel.to_owned()
                } else {
                    format!("{}/{rel}", operand.trim_end_matches('/'))
                };
                let Some(text) = read(cx, file)? else {
                    continue;
                };
                let shown = (!options.no_filename || options.files_only).then_some(name.as_str());
                grep_file(options, &matcher, shown, &text, true, &mut out)?;
            }
        } else {
            return Err(RunError::Missing(operand.clone()));
        }
    }
    Ok(out)
}

fn ls(operands: &[super::parse::Word], snapshot: &dyn Snapshot) -> Result<Vec<String>, RunError> {
    let operands: Vec<&super::parse::Word> = operands.iter().collect();
    let mut named = expand_operands(snapshot, &operands)?;
    if named.is_empty() {
        named.push(".".to_owned());
    }
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for operand in named {
        let path = normal(&operand)?;
        if is_file(snapshot, &path) {
            files.push(operand);
        } else if is_folder(snapshot, &path) {
            dirs.push(path);
        } else {
            return Err(RunError::Missing(operand));
        }
    }
    match (files.is_empty(), dirs.as_slice()) {
        (true, [dir]) => {
            let prefix = if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            };
            let mut names = BTreeSet::new();
            for p in snapshot.paths() {
                if let Some(rest) = p.strip_prefix(&prefix) {
                    let name = rest.split('/').next().unwrap_or(rest);
                    if !name.starts_with('.') {
                        names.insert(name.to_owned());
                    }
                }
            }
            Ok(names.into_iter().collect())
        }
        (_, []) => Ok(files),
        _ => Err(refused(
            "ls of a folder beside other operands is not re-run",
            dirs.join(" "),
        )),
    }
}

fn find(
    snapshot: &dyn Snapshot,
    dir: &str,
    name: Option<&(String, bool)>,
    kind: Option<char>,
) -> Result<Vec<String>, RunError> {
    let root = normal(dir)?;
    let shown_root = dir.trim_end_matches('/');
    let shown_root = if shown_root.is_empty() {
        "/"
    } else {
        shown_root
    };
    let matcher = match name {
        Some((pattern, ci)) => Some(
            GlobBuilder::new(pattern)
                .literal_separator(true)
                .case_insensitive(*ci)
                .backslash_escape(true)
                .build()
                .map_err(|_| refused("a -name pattern recount does not read", pattern.clone()))?
                .compile_matcher(),
        ),
        None => None,
    };
    let base_matches = |p: &str| {
        let base = p.rsplit('/').next().unwrap_or(p);
        matcher.as_ref().is_none_or(|m| m.is_match(base))
    };
    let mut out = Vec::new();
    if is_file(snapshot, &root) && !root.is_empty() {
        if kind != Some('d') && base_matches(shown_root) {
            out.push(shown_root.to_owned());
        }
        return Ok(out);
    }
    if !is_folder(snapshot, &root) {
        return Err(RunError::Missing(dir.to_owned()));
    }
    if kind != Some('f') && base_matches(shown_root) {
        out.push(shown_root.to_owned());
    }
    let prefix = if root.is_empty() {
        String::new()
    } else {
        format!("{root}/")
    };
    let under: Vec<&String> = snapshot
        .paths()
        .iter()
        .filter(|p| p.starts_with(&prefix))
        .collect();
    let shown = |rel: &str| format!("{shown_root}/{rel}");
    if kind != Some('f') {
        let subdirs = folders(
            &under
                .iter()
                .map(|p| p[prefix.len()..].to_owned())
                .collect::<Vec<_>>(),
        );
        for d in subdirs {
            if base_matches(&d) {
                push(&mut out, shown(&d))?;
            }
        }
    }
    if kind != Some('d') {
        for p in under {
            let rel = &p[prefix.len()..];
            if base_matches(rel) {
                push(&mut out, shown(rel))?;
            }
        }
    }
    Ok(out)
}

fn apply(filter: &Filter, lines: Vec<String>) -> Result<Vec<String>, RunError> {
    Ok(match filter {
        Filter::WcLines => vec![lines.len().to_string()],
        Filter::Head(n) => lines.into_iter().take(*n).collect(),
        Filter::Tail(n) => {
            let skip = lines.len().saturating_sub(*n);
            lines.into_iter().skip(skip).collect()
        }
        Filter::Cut { delimiter, fields } => lines
            .into_iter()
            .map(|line| {
                if !line.contains(*delimiter) {
                    return line;
                }
                let parts: Vec<&str> = line.split(*delimiter).collect();
                let kept: Vec<&str> = parts
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| {
                        let n = i + 1;
                        fields
                            .iter()
                            .any(|(s, e)| n >= *s && e.is_none_or(|e| n <= e))
                    })
                    .map(|(_, p)| *p)
                    .collect();
                kept.join(&delimiter.to_string())
            })
            .collect(),
        Filter::Sort {
            unique,
            numeric,
            reverse,
        } => {
            let mut lines = lines;
            if *numeric {
                lines.sort_by(|a, b| {
                    leading_number(a)
                        .partial_cmp(&leading_number(b))
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then_with(|| a.cmp(b))
                });
            } else {
                lines.sort();
            }
            if *reverse {
                lines.reverse();
            }
            if *unique {
                lines.dedup();
            }
            lines
        }
        Filter::Uniq { count } => {
            let mut out: Vec<(usize, String)> = Vec::new();
            for line in lines {
                match out.last_mut() {
                    Some((n, last)) if *last == line => *n += 1,
                    _ => out.push((1, line)),
                }
            }
            out.into_iter()
                .map(|(n, l)| if *count { format!("{n:>7} {l}") } else { l })
                .collect()
        }
        Filter::Grep(options) => {
            let matcher = Matcher::new(options)?;
            let mut out = Vec::new();
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            grep_file(options, &matcher, None, &text, true, &mut out)?;
            out
        }
    })
}

fn leading_number(line: &str) -> f64 {
    let t = line.trim_start();
    let end = t
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == '-')))
        .map_or(t.len(), |(i, _)| i);
    t[..end].parse().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_and_extended_patterns_translate() {
        let re = |p: &str, e: bool| regex::Regex::new(&posix_to_rust(p, e).unwrap()).unwrap();
        assert!(re("a|b", false).is_match("xa|by"));
        assert!(!re("a|b", false).is_match("a"));
        assert!(re(r"a\|b", false).is_match("b"));
        assert!(re("a|b", true).is_match("b"));
        assert!(re("@_tool(", false).is_match("@_tool(x)"));
        assert!(re("f(x)", false).is_match("f(x)"));
        assert!(re("*x", false).is_match("*x"));
        assert!(re("[[:digit:]]+", true).is_match("a1"));
        assert!(re(r"\<word\>", false).is_match("a word b"));
        assert!(re("x{", true).is_match("x{"));
        assert!(re("a$b", false).is_match("a$b"));
        assert!(re("[]a]", false).is_match("]"));
        assert!(posix_to_rust(r"\(a\)\1", false).is_err());
        assert!(posix_to_rust("[abc", false).is_err());
    }

    #[test]
    fn past_the_read_budget_nothing_more_is_re_run_and_what_ran_is_reused() {
        let snapshot = crate::snapshot::memory::MemorySnapshot::of([(
            "words.txt".to_owned(),
            "zz\nzz\n".to_owned(),
        )]);
        let history = |_: &str, _: &[String]| -> Result<usize, String> { Ok(0) };
        let texts = Texts::default();
        let cx = Context {
            snapshot: &snapshot,
            texts: &texts,
            rev: None,
            history: &history,
        };
        let pipeline =
            |command: &str| crate::checks::transcripts::parse::parse(command).expect("parses");
        let counted = pipeline("grep -c zz words.txt");
        assert_eq!(run(&counted, &cx), Ok(vec!["2".to_owned()]));
        texts
            .scanned
            .store(RERUN_READ_BUDGET + 1, std::sync::atomic::Ordering::Relaxed);
        // Already re-run: reused, whatever the budget.
        assert_eq!(run(&counted, &cx), Ok(vec!["2".to_owned()]));
        assert_eq!(
            run(&pipeline("grep -c z words.txt"), &cx),
            Err(RunError::OverBudget)
        );
    }

    #[test]
    fn git_quotes_paths_past_ascii() {
        assert_eq!(git_quoted("src/a.rs"), "src/a.rs");
        assert_eq!(git_quoted("a…b"), "\"a\\342\\200\\246b\"");
        assert_eq!(git_quoted("a\"b"), "\"a\\\"b\"");
    }
}
