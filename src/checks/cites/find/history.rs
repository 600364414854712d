//! Stage 3, the citation finder's history markers ("renamed from", "was
//! removed in"): a cite a sentence marks as history names something gone on
//! purpose; and where a sentence starts.

use super::*;

// ---------------------------------------------------------------------------
// History markers.

pub(super) struct HistoryMarkers {
    markers: Vec<String>,
    longest: usize,
}

impl HistoryMarkers {
    pub(super) fn new(markers: &[String]) -> Self {
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
    pub(super) fn marks(&self, raw: &str, at: usize) -> bool {
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

pub(super) fn turns_to_new_name(between: &str) -> bool {
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
pub(super) fn normalize_marking(text: &str, mark: usize) -> (String, usize) {
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
