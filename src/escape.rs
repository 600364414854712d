//! Ground floor: the one escaping rule for text that came from outside recount — file names,
//! cites, keys, tool names, stated values, rule-file and record text — applied
//! wherever such text is printed, in every output format, before the CLI prints.
//!
//! A pull request controls that text, and a CI log or a terminal interprets some
//! characters: escape sequences (`ESC[2J`, OSC titles), carriage returns that
//! overwrite a line, bidi overrides that reorder what a reviewer reads, and a
//! newline followed by `::error …`, which GitHub Actions runs as a workflow
//! command. So:
//! - control characters (C0, DEL, C1), line and paragraph separators and the bidi
//!   controls are written as `\u{..}`, visible and inert, never raw;
//! - a value longer than its cap is cut at a character boundary and says so:
//!   `… (N more bytes)`;
//! - [`guard_lines`] makes sure no line of human output starts a workflow command.
//!
//! Backslashes are left alone (paths and regexes are full of them), so `\u{1b}`
//! typed literally and an escaped ESC read alike; the point is that neither acts.

use std::borrow::Cow;
use std::fmt::Write;

/// Most bytes of one outside value printed before it is cut: enough for any
/// real path or cite, far short of the 100,030-character line it stops.
pub const VALUE_CAP: usize = 512;

/// Whether a character must not reach an output stream raw.
pub fn is_hazard(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Line and paragraph separators: a new line to some readers.
            '\u{2028}' | '\u{2029}'
            // Bidi embeddings, overrides and isolates, and the bidi marks.
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}' | '\u{200F}' | '\u{061C}'
        )
}

/// The hazards ([`is_hazard`]: line breaks, C0 and C1 controls, DEL, the
/// bidi controls) that `after` holds and `before` does not, each once: what
/// an edit replacing `before` with `after` would bring into a record. A
/// record's own (a tab the cite already had) may stay.
pub fn brought_hazards(before: &str, after: &str) -> Vec<char> {
    let mut found: Vec<char> = Vec::new();
    for c in after.chars() {
        if is_hazard(c) && !before.contains(c) && !found.contains(&c) {
            found.push(c);
        }
    }
    found
}

/// `text` with every hazard escaped as `\u{hex}` and, past `cap` bytes, cut with
/// the cut said. Borrowed when there is nothing to change.
pub fn untrusted(text: &str, cap: usize) -> Cow<'_, str> {
    if text.len() <= cap && !text.chars().any(is_hazard) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(cap) + 24);
    let mut taken = 0;
    for c in text.chars() {
        if taken + c.len_utf8() > cap {
            break;
        }
        taken += c.len_utf8();
        if is_hazard(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    if taken < text.len() {
        let _ = write!(out, "… ({} more bytes)", text.len() - taken);
    }
    Cow::Owned(out)
}

/// Outside text as one line of GitHub-flavoured Markdown that shows the text and
/// does nothing else: for a table cell, a paragraph, a list item or a
/// `<summary>`, in the step summary a pull request's author partly writes. The
/// text first goes through [`untrusted`] (no newline or control character stays
/// raw, so a value cannot end its cell, row or line; cut at `cap` bytes); then:
/// - `&`, `<`, `>` and `"` become entities, so no tag (`</summary>`, `<img>`),
///   no autolink `<…>` and no attribute can be written;
/// - `\`, `|`, `[`, `]` and `*` are backslash-escaped: no new table cell (the
///   pipe), no link or image (`![x](http://…)` shows as typed), no emphasis
///   forged round a banner; `_` too, except between two letters or digits,
///   where GFM never reads it as emphasis (`MAX_SOURCE_FILE_BYTES` stays as it
///   is);
/// - a backtick never opens a code span, in which every escape above would show
///   raw: each pair of backticks becomes `<code>`…`</code>` (the text between
///   them escaped as the rest), and one left open is closed at the end, so the
///   tags always balance and nothing past the value is in them;
/// - `@` before a letter or digit gets a zero-width space (`&#8203;`) after it,
///   and `://` and `www.` one inside them: no one is @-mentioned, no e-mail
///   address or bare web address becomes a link;
/// - a first character that would start a block where the value begins a line
///   (`# ` a heading, `- `, `+ ` or `1. ` a list, `---`, `===` or `_` a rule,
///   `~~~` a fence) is backslash-escaped.
///
/// Entities read the same inside an HTML block (a `<summary>`, where Markdown is
/// not parsed) and in Markdown text; a backslash escape shows its backslash in an
/// HTML block, which costs only looks, never safety.
pub fn markdown(text: &str, cap: usize) -> String {
    let shown = untrusted(text, cap);
    let chars: Vec<char> = shown.chars().collect();
    let mut out = String::with_capacity(shown.len() + 16);
    let mut in_code = false;
    let word = |at: Option<&char>| at.is_some_and(|c| c.is_alphanumeric());
    for (at, &c) in chars.iter().enumerate() {
        let before = at.checked_sub(1).and_then(|i| chars.get(i));
        let after = chars.get(at + 1);
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '`' => {
                out.push_str(if in_code { "</code>" } else { "<code>" });
                in_code = !in_code;
            }
            '\\' | '|' | '[' | ']' | '*' => {
                out.push('\\');
                out.push(c);
            }
            '_' if !(word(before) && word(after)) => out.push_str("\\_"),
            '@' if word(after) => out.push_str("@&#8203;"),
            ':' if chars.get(at + 1..at + 3) == Some(&['/', '/'][..]) => out.push_str(":&#8203;"),
            'w' | 'W'
                if !word(before)
                    && chars.get(at..at + 4).is_some_and(|w| {
                        w[..3].iter().all(|c| c.eq_ignore_ascii_case(&'w')) && w[3] == '.'
                    }) =>
            {
                out.push(c);
                out.push_str("&#8203;");
            }
            // A block marker is one only before a blank, the end or more of
            // itself (`- x`, `##`, `---`): `-1` and `#x` stay as they are.
            '#' | '-' | '+' | '=' | '~'
                if at == 0 && after.is_none_or(|&a| a.is_whitespace() || a == c) =>
            {
                out.push('\\');
                out.push(c);
            }
            '.' | ')'
                if at > 0
                    && chars[..at].iter().all(char::is_ascii_digit)
                    && after.is_none_or(|a| a.is_whitespace()) =>
            {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    if in_code {
        out.push_str("</code>");
    }
    out
}

/// Most bytes of one line of a message recount composed around outside values.
pub const LINE_CAP: usize = 4096;

/// [`untrusted`] for text recount composed (a finding's message, a note, an
/// error) around values it did not escape itself: its own line breaks stay, and
/// each line is escaped and cut at `cap` bytes.
pub fn untrusted_lines(text: &str, cap: usize) -> Cow<'_, str> {
    if !text
        .split('\n')
        .any(|line| line.len() > cap || line.chars().any(is_hazard))
    {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<'_, str>> = text.split('\n').map(|line| untrusted(line, cap)).collect();
    Cow::Owned(lines.join("\n"))
}

/// The same number of bytes with each hazard replaced by a visible placeholder
/// of its own width (`?` for one byte, `¿` for two, `\u{fffd}` for three), so a
/// byte span computed on `text` still points at the same characters: for the
/// snippets a diagnostic shows of a rule file or a record. `\n` and `\t` stay,
/// and `\r` directly before `\n` (a CRLF line end) stays.
pub fn same_width(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let hazard_at = |at: usize, c: char| {
        is_hazard(c) && c != '\n' && c != '\t' && !(c == '\r' && bytes.get(at + 1) == Some(&b'\n'))
    };
    if !text.char_indices().any(|(at, c)| hazard_at(at, c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        if hazard_at(at, c) {
            out.push(match c.len_utf8() {
                1 => '?',
                2 => '¿',
                _ => '\u{fffd}',
            });
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Human output with no line that a CI system reads as a command: a line whose
/// first non-blank characters are `::` (GitHub Actions workflow commands) or
/// `##[` (the older Azure Pipelines / Actions form) gets its first character
/// escaped. Every outside value is already on one line ([`untrusted`]); this
/// covers a value that happens to begin a line.
pub fn guard_lines(text: &str) -> Cow<'_, str> {
    let starts_command = |line: &str| {
        let line = line.trim_start();
        line.starts_with("::") || line.starts_with("##[")
    };
    if !text.split('\n').any(starts_command) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        if starts_command(line) {
            let blank = line.len() - line.trim_start().len();
            let (indent, rest) = line.split_at(blank);
            let mut chars = rest.chars();
            if let Some(first) = chars.next() {
                let _ = write!(
                    out,
                    "{indent}\\u{{{:x}}}{}",
                    u32::from(first),
                    chars.as_str()
                );
            }
        } else {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

/// `value` as pretty-printed JSON in which no hazard appears raw. serde_json
/// already escapes C0 controls; the rest (DEL, C1, separators, bidi controls) is
/// written as a `\uXXXX` escape too, which every JSON parser reads back as the
/// same character: the data is unchanged, only its bytes on the stream are inert.
pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    json_with(value, serde_json::ser::PrettyFormatter::new())
}

/// [`json_pretty`] on one line.
pub fn json_compact<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    json_with(value, serde_json::ser::CompactFormatter)
}

fn json_with<T, F>(value: &T, inner: F) -> Result<String, serde_json::Error>
where
    T: serde::Serialize + ?Sized,
    F: serde_json::ser::Formatter,
{
    let mut bytes = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, InertJson(inner));
    value.serialize(&mut serializer)?;
    // serde_json writes UTF-8; a failure here would be its bug, reported as text.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// A JSON formatter that escapes every hazard in strings and otherwise formats as
/// the one it wraps.
struct InertJson<F>(F);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            fn $name<W: ?Sized + std::io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
                self.0.$name(writer $(, $arg)*)
            }
        )*
    };
}

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for InertJson<F> {
    delegate! {
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        end_object_key(),
        begin_object_value(),
        end_object_value(),
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut plain = 0;
        for (at, c) in fragment.char_indices() {
            if is_hazard(c) {
                writer.write_all(&fragment.as_bytes()[plain..at])?;
                // Every hazard is in the Basic Multilingual Plane: one \uXXXX.
                write!(writer, "\\u{:04x}", u32::from(c))?;
                plain = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[plain..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_passes_borrowed() {
        assert!(matches!(
            untrusted("docs/adr/0031 – naïve.md", 512),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn controls_separators_and_bidi_are_escaped() {
        assert_eq!(untrusted("a\u{1b}[2Jb", 512), "a\\u{1b}[2Jb");
        assert_eq!(untrusted("x\n::error ::y", 512), "x\\u{a}::error ::y");
        assert_eq!(untrusted("\r\u{85}\u{2028}", 512), "\\u{d}\\u{85}\\u{2028}");
        assert_eq!(
            untrusted("ab\u{202e}cd\u{2066}", 512),
            "ab\\u{202e}cd\\u{2066}"
        );
    }

    #[test]
    fn a_long_value_is_cut_and_says_so() {
        let long = "é".repeat(100);
        let cut = untrusted(&long, 11);
        assert_eq!(cut, format!("{} (190 more bytes)", "é".repeat(5) + "…"));
        assert!(!untrusted(&"x".repeat(100_030), VALUE_CAP).contains('\n'));
    }

    #[test]
    fn message_lines_stay_but_each_is_escaped_and_cut() {
        assert_eq!(untrusted_lines("one\u{1b}\ntwo", 512), "one\\u{1b}\ntwo");
        assert_eq!(untrusted_lines("abcdef\nab", 4), "abcd… (2 more bytes)\nab");
    }

    #[test]
    fn same_width_keeps_every_byte_offset() {
        for text in [
            "a\u{1b}b",
            "a\u{85}b",
            "a\u{202e}b",
            "crlf\r\nline\rx",
            "tab\tok\n",
        ] {
            let shown = same_width(text);
            assert_eq!(shown.len(), text.len(), "{text:?}");
            assert!(
                !shown
                    .chars()
                    .any(|c| is_hazard(c) && c != '\n' && c != '\t' && c != '\r')
            );
        }
        assert_eq!(same_width("crlf\r\nline\rx"), "crlf\r\nline?x");
    }

    #[test]
    fn json_carries_hazards_as_escapes_and_reads_back_the_same() {
        let value = serde_json::json!({"name": "a\u{1b}[2J\u{85}\u{202e}z", "n": [1, 2]});
        for text in [json_pretty(&value), json_compact(&value)] {
            let text = text.unwrap_or_default();
            assert!(!text.chars().any(|c| is_hazard(c) && c != '\n'), "{text}");
            assert!(text.contains("\\u202e"), "{text}");
            let back: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            assert_eq!(back, value);
        }
        assert_eq!(
            json_pretty(&value).unwrap_or_default().lines().count(),
            serde_json::to_string_pretty(&value)
                .unwrap_or_default()
                .lines()
                .count()
        );
    }

    #[test]
    fn no_line_of_human_output_starts_a_workflow_command() {
        let guarded = guard_lines("ok\n::error file=x::owned\n  ##[error]x\nfine :: here");
        assert_eq!(
            guarded,
            "ok\n\\u{3a}:error file=x::owned\n  \\u{23}#[error]x\nfine :: here"
        );
    }
}
