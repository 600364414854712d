//! Stage 4 (the transcript family): finding the transcripts a record shows —
//! fenced blocks of commands after a `$ ` prompt with the lines they printed,
//! and inline keys in prose (`grep -c x f → 7`, `… returns five hits`).

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use crate::records::markdown::Markdown;

/// How a record shows a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// A command after a `$ ` prompt in a fenced block, and its output lines.
    Block,
    /// A command in prose followed by `→`, `->` or "returns" and a number.
    Inline,
}

/// One transcript as the record shows it.
#[derive(Debug, Clone)]
pub struct Found {
    pub form: Form,
    /// The command, continuation lines joined.
    pub command: String,
    /// Raw span of the command.
    pub span: Range<usize>,
    /// The output lines shown (a block's), each with its raw span.
    pub output: Vec<(Range<usize>, String)>,
    /// The number an inline key states, with its raw span.
    pub stated: Option<(Range<usize>, i128)>,
    /// For a block's command: the block's index and the command's position in it.
    pub block: Option<(usize, usize)>,
    /// The block is longer than recount reads ([`MAX_BLOCK_LINES`]): its
    /// output is cut, so it is not compared.
    pub cut: bool,
    /// The block narrates between its lines (`// now list the folder`, the
    /// comment line of terminal animations such as termynal): a scripted
    /// demonstration for the reader, not a recorded session.
    pub narrated: bool,
    /// A day the key's own parenthesis gives it ("(grep -c x f → 7, 2026-09-13)"):
    /// its frame, as "measured on" that day.
    pub day: Option<String>,
}

/// Info strings of fenced blocks read as terminal sessions.
const SHELL_INFO: &[&str] = &[
    "console",
    "shell",
    "sh",
    "bash",
    "zsh",
    "shell-session",
    "shellsession",
    "terminal",
    "",
    "text",
    "txt",
];

/// Most lines of one block read; a longer block is kept to its first lines.
pub const MAX_BLOCK_LINES: usize = 2_000;

/// Every transcript in a record, in text order.
pub fn find(raw: &str, markdown: &Markdown) -> Vec<Found> {
    let mut out = Vec::new();
    for (index, block) in markdown.fenced.iter().enumerate() {
        let info = block
            .info
            .split([' ', ',', '{'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if !SHELL_INFO.contains(&info.as_str()) {
            continue;
        }
        out.extend(in_block(block, index));
    }
    out.extend(inline(raw, markdown));
    out.sort_by_key(|f| f.span.start);
    out
}

fn prompt(line: &str) -> Option<usize> {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    (t.starts_with("$ ") || t == "$").then_some(indent + 1)
}

fn in_block(block: &crate::records::markdown::FencedBlock, index: usize) -> Vec<Found> {
    let lines = &block.lines[..block.lines.len().min(MAX_BLOCK_LINES)];
    let cut = block.lines.len() > MAX_BLOCK_LINES;
    let narrated = lines
        .iter()
        .any(|(_, l)| prompt(l).is_none() && l.trim_start().starts_with("// "));
    // A block with no prompt is a script or a listing, not a session.
    if !lines.iter().any(|(_, l)| prompt(l).is_some()) {
        return Vec::new();
    }
    let mut out: Vec<Found> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (range, line) = &lines[i];
        i += 1;
        let Some(at) = prompt(line) else {
            if let Some(current) = out.last_mut() {
                let t = line.trim_end();
                // A comment in a session is the author's, not the tool's.
                if !t.trim_start().starts_with("# ") {
                    current.output.push((range.clone(), t.to_owned()));
                }
            }
            continue;
        };
        let mut command = line[at..].trim().to_owned();
        let start = range.start + at + (line[at..].len() - line[at..].trim_start().len());
        let mut end = range.end;
        while command.ends_with('\\') && i < lines.len() {
            command.pop();
            let kept = command.trim_end().len();
            command.truncate(kept);
            let (next_range, next) = &lines[i];
            i += 1;
            let next = next.trim_start();
            let next = next.strip_prefix("> ").unwrap_or(next);
            command.push(' ');
            command.push_str(next.trim());
            end = next_range.end;
        }
        let position = out
            .iter()
            .filter(|f| f.block.is_some_and(|(b, _)| b == index))
            .count();
        out.push(Found {
            form: Form::Block,
            command,
            span: start..end.max(start),
            output: Vec::new(),
            stated: None,
            block: Some((index, position)),
            cut,
            narrated,
            day: None,
        });
    }
    for f in &mut out {
        while f.output.last().is_some_and(|(_, l)| l.trim().is_empty()) {
            f.output.pop();
        }
    }
    out
}

/// A stated count after its arrow or "returns", read from where the arrow
/// or the word starts (the whitespace before it is checked apart).
fn arrow_pattern() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(
            // ASCII word edges: a Unicode `\b` makes the regex engine leave its
            // DFA on any non-ASCII text (a translated page), many times slower.
            // "returns" takes a counted noun ("returns five hits"): "grep x f
            // returns 1 when nothing matches" is an exit status, not a count.
            r"^(?:(?:→|->)\s+`?(?<value>\d[\d,]*|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?-u:\b)|returns\s+(?:exactly\s+)?(?<counted>\d[\d,]*|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:hits?|lines?|files?|matches|match|results?|entries|entry|commits?|occurrences?|paths?|names?|rows?)(?-u:\b))",
        )
        .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    })
}

/// Where an arrow or "returns" may open a stated count: the literal itself,
/// found at memchr speed, where the pattern above is then tried anchored.
fn arrow_opening() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new("→|->|returns").unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    })
}

/// Each stated count of `raw`, in order and apart: the whitespace character
/// before its arrow (where the statement starts) and the count's range.
fn stated_counts(raw: &str) -> Vec<(usize, std::ops::Range<usize>)> {
    let mut found = Vec::new();
    let mut next_from = 0;
    for opening in arrow_opening().find_iter(raw) {
        let Some(space) = raw[..opening.start()].chars().next_back() else {
            continue;
        };
        let at = opening.start() - space.len_utf8();
        if at < next_from || !space.is_whitespace() {
            continue;
        }
        let Some(caps) = arrow_pattern().captures(&raw[opening.start()..]) else {
            continue;
        };
        let (Some(whole), Some(value)) = (caps.get(0), caps.name("value").or(caps.name("counted")))
        else {
            continue;
        };
        next_from = opening.start() + whole.end();
        // "returns 0 hits outside the carve-outs": a count of part of the
        // output, which the command alone does not give.
        if counts_a_part(&raw[opening.start() + whole.end()..]) {
            continue;
        }
        found.push((
            at,
            opening.start() + value.start()..opening.start() + value.end(),
        ));
    }
    found
}

/// Whether the words after a stated count leave part of the output out of
/// it ("… outside the plans folder", "(excluding tests)").
fn counts_a_part(after: &str) -> bool {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(r"^[\s*_`]*\(?\s*(?:outside|except|excluding|besides|beyond|ignoring|other\s+than|apart\s+from|not\s+counting|aside\s+from)(?-u:\b)")
            .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    })
    .is_match(after)
}

/// Where a command of the re-run family may start in prose.
fn command_start() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(r"(?:^|[\s(,;:])(?<start>git grep|git ls-files|git rev-list|grep|ls|find) ")
            .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    })
}

/// The `YYYY-MM-DD` that closes the parenthesis a key sits in, if it does:
/// "(… → 7, ls … → 7, 2026-09-13)".
fn day_in_parenthesis(raw: &str, from: usize) -> Option<String> {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    let pattern = SLOT.get_or_init(|| {
        Regex::new(r"^[^()]{0,300}?,\s*`?(?<day>\d{4}-\d{2}-\d{2})`?\)")
            .unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
    });
    let rest = raw.get(from..)?;
    let day = pattern.captures(rest)?.name("day")?;
    // A parenthesis wraps across lines as prose does, never across a
    // paragraph.
    let between = rest.get(..day.start())?;
    (!between.contains("\n\n") && !between.contains("\n\r\n")).then(|| day.as_str().to_owned())
}

fn word_number(word: &str) -> Option<i128> {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS.iter().position(|w| *w == word).map(|n| n as i128)
}

/// How far before its arrow a plain command is looked for.
const INLINE_REACH_BYTES: usize = 300;

fn inline(raw: &str, markdown: &Markdown) -> Vec<Found> {
    let mut out = Vec::new();
    let mut previous_end = 0;
    for (at, value) in stated_counts(raw) {
        let value_text = &raw[value.clone()];
        let prior_end = previous_end;
        previous_end = value.end;
        if markdown.in_code(at) {
            continue;
        }
        let number = match word_number(value_text) {
            Some(n) => n,
            None => match super::compare::as_count(value_text) {
                Some(n) => n,
                None => continue,
            },
        };
        let line_start = raw[..at].rfind('\n').map_or(0, |i| i + 1);
        let from = line_start
            .max(prior_end)
            .max(at.saturating_sub(INLINE_REACH_BYTES));
        let mut from = from;
        while !raw.is_char_boundary(from) {
            from += 1;
        }
        let before = &raw[from..at];
        // A backticked command right before the arrow.
        let code = markdown
            .code_spans
            .iter()
            .find(|c| c.range.end == from + before.trim_end().len() && c.range.start >= from);
        let (command, span) = if let Some(code) = code {
            let text = raw[code.content.clone()].trim();
            let first = text.split_whitespace().next().unwrap_or("");
            let looks_like_a_command = text.contains(' ')
                && first
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c))
                && first.chars().next().is_some_and(|c| c.is_ascii_lowercase());
            if !looks_like_a_command {
                continue;
            }
            (text.to_owned(), code.content.clone())
        } else {
            // The earliest start of a family command from which the rest reads
            // as a pipeline recount knows. Unquoted prose that does not parse
            // is prose ("find returns …"), not a command.
            let starts: Vec<usize> = command_start()
                .captures_iter(before)
                .filter_map(|c| c.name("start").map(|m| from + m.start()))
                .collect();
            let parses = |s: usize| super::parse::parse(raw[s..at].trim()).is_ok();
            let Some(start) = starts.iter().copied().find(|&s| parses(s)) else {
                continue;
            };
            let text = raw[start..at].trim().trim_end_matches('`');
            // A bare program name in prose ("find returns …") is a word, not a key.
            let words = text.split_whitespace().count();
            let least = if text.starts_with("git ") { 3 } else { 2 };
            if words < least {
                continue;
            }
            (text.to_owned(), start..start + text.len())
        };
        out.push(Found {
            form: Form::Inline,
            command,
            span,
            output: Vec::new(),
            stated: Some((value.clone(), number)),
            block: None,
            cut: false,
            narrated: false,
            day: day_in_parenthesis(raw, value.end),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(raw: &str) -> Vec<Found> {
        find(raw, &Markdown::new(raw))
    }

    #[test]
    fn blocks_give_commands_continuations_and_output() {
        let raw = "Text.\n\n```console\n$ git grep -n x \\\n  -- src\nsrc/a.rs:1:x\n\n$ ls docs\n# the folder\nguide.md\n```\n";
        let f = found(raw);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].command, "git grep -n x -- src");
        assert_eq!(
            f[0].output
                .iter()
                .map(|(_, l)| l.as_str())
                .collect::<Vec<_>>(),
            ["src/a.rs:1:x"]
        );
        assert_eq!(&raw[f[0].span.clone()], "git grep -n x \\\n  -- src");
        assert_eq!(f[1].output.len(), 1);
        assert!(f.iter().all(|f| !f.narrated));
        // A script block without prompts, and a block in another language, are none.
        assert!(found("```sh\ncargo build\n```\n").is_empty());
        assert!(found("```python\n$ x = 1\n```\n").is_empty());
    }

    #[test]
    fn a_block_that_narrates_between_its_lines_is_a_demonstration() {
        let raw = "```console\n// If you just type\n$ ls\n\n// ls lists the folder\nsrc  tests  README.md\n```\n";
        let f = found(raw);
        assert_eq!(f.len(), 1);
        assert!(f[0].narrated);
        // A line of output that only contains `//` is output.
        let raw = "```console\n$ grep -n x src/a.js\n1:// x marks it\n```\n";
        assert!(!found(raw)[0].narrated);
    }

    #[test]
    fn inline_keys_in_prose() {
        let raw = "The tools (grep -c '@_tool(' src/tools.py → 7,\nls schemas/*.json | wc -l → 7, 2026-09-13) agree; `git grep -n todo -- src` returns five hits.\n";
        let f = found(raw);
        let keys: Vec<(&str, i128)> = f
            .iter()
            .map(|f| (f.command.as_str(), f.stated.as_ref().unwrap().1))
            .collect();
        assert_eq!(
            keys,
            [
                ("grep -c '@_tool(' src/tools.py", 7),
                ("ls schemas/*.json | wc -l", 7),
                ("git grep -n todo -- src", 5)
            ]
        );
        assert_eq!(&raw[f[0].span.clone()], "grep -c '@_tool(' src/tools.py");
        // A count of part of the output is no statement of the command's.
        for part in [
            "`grep -r \"OLD\" .` returns 0 hits **outside the carve-outs** named below.\n",
            "`git grep -n todo -- src` returns 3 lines (excluding tests).\n",
        ] {
            assert!(found(part).is_empty(), "{part}");
        }
        // The day closing their parenthesis frames both keys in it.
        assert_eq!(f[0].day.as_deref(), Some("2026-09-13"));
        assert_eq!(f[1].day.as_deref(), Some("2026-09-13"));
        assert_eq!(f[2].day, None);
        // Arrows between words that are not commands are prose, and so is an
        // exit status or a bare program name.
        assert!(found("Maps `a` → 3 and then x -> 4.\n").is_empty());
        assert!(found("`grep x f` returns 1 when nothing matches.\n").is_empty());
        assert!(found("The find returns 0 on success; ls -> 2 here.\n").is_empty());
    }
}

#[cfg(test)]
mod stated_count_search {
    use proptest::prelude::*;

    /// The whole-text form of the search: a whitespace character, then the
    /// statement.
    fn whole_text(raw: &str) -> Vec<(usize, std::ops::Range<usize>)> {
        let pattern = regex::Regex::new(&format!(
            r"\s{}",
            super::arrow_pattern().as_str().trim_start_matches('^')
        ))
        .expect("pattern");
        pattern
            .captures_iter(raw)
            .filter_map(|caps| {
                let value = caps.name("value").or(caps.name("counted"))?;
                Some((caps.get(0)?.start(), value.range()))
            })
            .collect()
    }

    fn statements() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("→"),
            Just("->"),
            Just("-->"),
            Just("returns"),
            Just(" "),
            Just("\n"),
            Just("\u{2003}"),
            Just("`"),
            Just("7"),
            Just("1,200"),
            Just("five"),
            Just("exactly"),
            Just("hits"),
            Just("lines"),
            Just("x"),
            Just("é"),
            Just("grep -c a f"),
        ];
        prop::collection::vec(atom, 0..40).prop_map(|parts| parts.concat())
    }

    proptest! {
        /// Opening at each literal finds what a whole-text search finds.
        #[test]
        fn the_literal_led_search_finds_every_stated_count(raw in statements()) {
            prop_assert_eq!(super::stated_counts(&raw), whole_text(&raw));
        }
    }
}
