//! Stage 3 of the pipeline: claims — the places in a record where a fact is
//! stated. Records are matched on their prose view (`prose`), and every match
//! maps back to the exact raw bytes; the stated text is read by the value
//! grammar (`value`).

pub mod text;
pub mod value;

use std::ops::Range;

pub use crate::records::Record;
use serde::Deserialize;
use value::Stated;

/// One place a `says` pattern matched.
#[derive(Debug, Clone)]
pub struct StatedAt {
    /// Raw byte range of the `value` group in the record.
    pub span: Range<usize>,
    /// The text of the `value` group, as the prose view reads it.
    pub text: String,
    /// The value grammar's reading of it, or why it could not read it.
    pub stated: Result<Stated, String>,
}

/// A compiled claim pattern (`says` or `listing`).
pub type Pattern = regex_automata::meta::Regex;

/// Compiles a claim pattern, with regex syntax and semantics. The one-pass DFA
/// is left out: it serves anchored searches only, which claims never run, and
/// building it for a Unicode class such as `\w` costs about 0.6 ms a pattern
/// (measured: 1.02 ms -> 0.40 ms).
pub fn compile_pattern(pattern: &str) -> Result<Pattern, regex_automata::meta::BuildError> {
    Pattern::builder()
        .configure(
            Pattern::config()
                .onepass(false)
                .nfa_size_limit(Some(1 << 22)),
        )
        .build(pattern)
}

/// Whether a pattern has a named group `value`.
pub fn has_value_group(pattern: &Pattern) -> bool {
    pattern
        .group_info()
        .to_index(regex_automata::PatternID::ZERO, "value")
        .is_some()
}

/// Every match of a claim pattern in a record.
pub fn find_stated(record: &Record, pattern: &Pattern) -> Vec<StatedAt> {
    let prose = record.prose().text();
    pattern
        .captures_iter(prose)
        .filter_map(|caps| caps.get_group_by_name("value"))
        .filter_map(|span| {
            let text = prose.get(span.range())?;
            Some(StatedAt {
                span: record.prose().to_raw(span.range()),
                text: text.to_owned(),
                stated: value::parse_stated(text).map_err(|e| e.to_string()),
            })
        })
        .collect()
}

/// A listing a record states as the lines of a fenced block.
#[derive(Debug, Clone)]
pub struct ListingAt {
    /// Raw byte range of the line that located the block (its command line).
    pub anchor: Range<usize>,
    /// The listed lines: raw byte range and text, command lines (`$ ...`) left out.
    pub lines: Vec<(Range<usize>, String)>,
}

/// The first fenced block one of whose lines matches `pattern`.
pub fn find_listing(record: &Record, pattern: &Pattern) -> Option<ListingAt> {
    record.markdown().fenced.iter().find_map(|block| {
        let anchor = block
            .lines
            .iter()
            .find(|(_, l)| pattern.is_match(l))?
            .0
            .clone();
        // A command line (`$ ...`) and its `\` continuations are not listed output.
        let mut continued = false;
        let mut lines = Vec::new();
        for (range, line) in &block.lines {
            let is_command = continued || line.trim_start().starts_with("$ ");
            continued = is_command && line.trim_end().ends_with('\\');
            if !is_command && !line.trim().is_empty() {
                lines.push((range.clone(), line.clone()));
            }
        }
        Some(ListingAt { anchor, lines })
    })
}

/// What is wrong with a pattern that does not compile, in one line.
pub fn pattern_error_text(error: &regex_automata::meta::BuildError) -> String {
    match error.syntax_error() {
        Some(syntax) => crate::facts::last_line(&syntax.to_string()),
        None => crate::facts::last_line(&error.to_string()),
    }
}

/// The part of a fact a claim states.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// The fact's number (a count, a constant, an expression's value).
    #[default]
    Value,
    /// The fact's line span (`779-788`): `entries` and `constant` facts.
    Lines,
}
