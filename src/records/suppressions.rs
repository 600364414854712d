//! Records (stage 2, read once per run): the suppression directives a record
//! carries. A directive is an HTML comment
//! `<!-- recount: ignore[check-id, ...] reason="..." until=YYYY-MM-DD -->` (in
//! reStructuredText, a comment `.. recount: ignore[...] reason="..."`) and
//! applies to the block that follows it. Directives are found from the same
//! pulldown-cmark events as everything else of the record ([`Markdown`]), so the
//! same words in a code span or a code block are text, never a directive. The
//! engine applies them after the checks (`checks::suppress`).

use std::ops::Range;

use super::markdown::Markdown;
use crate::error::{Error, Result};
use crate::snapshot::Day;

/// The word a comment starts with to be a directive.
const MARKER: &str = "recount:";

/// How a directive is written, for the help line of every refusal.
const SHAPE: &str = "a directive is `<!-- recount: ignore[check-id, ...] reason=\"why\" -->`, \
                     optionally with `until=YYYY-MM-DD`";

/// One suppression directive of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// Raw range of the whole comment.
    pub comment: Range<usize>,
    /// The check ids it silences, each with its raw range, in the order written.
    pub checks: Vec<(String, Range<usize>)>,
    /// Why the findings are silenced (required, never empty).
    pub reason: String,
    /// The last day it applies (UTC), and the raw range of the date.
    pub until: Option<(Day, Range<usize>)>,
    /// Raw range of the block it applies to; `None` when no block follows.
    pub block: Option<Range<usize>>,
}

/// Every directive of the record `path`. `known` are the check ids a directive
/// may name. A comment that starts with `recount:` but is not a well-formed
/// directive is an error located in the record: a typo must not silently leave
/// a finding unsilenced, nor silence one without a reason.
pub fn directives(path: &str, raw: &str, md: &Markdown, known: &[&str]) -> Result<Vec<Directive>> {
    // Most records have none: skip the scan.
    if !raw.contains(MARKER) {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for html in &md.html {
        let mut at = html.start;
        while let Some(open) = raw.get(at..html.end).and_then(|s| s.find("<!--")) {
            let start = at + open;
            let body_start = start + 4;
            // pulldown-cmark's range covers a whole comment, inline or block:
            // searching no further keeps a record of many unclosed `<!--` linear.
            let Some(close) = raw.get(body_start..html.end).and_then(|s| s.find("-->")) else {
                break;
            };
            let end = body_start + close + 3;
            if let Some(directive) =
                parse_comment(path, raw, start..end, body_start..end - 3, known)?
            {
                found.push(directive);
            }
            at = end;
        }
    }
    // A reStructuredText comment, `.. recount: ignore[...] reason="..."`:
    // Sphinx renders none of it, as a browser shows no HTML comment.
    for comment in &md.unrendered {
        let Some(text) = raw.get(comment.clone()) else {
            continue;
        };
        // An MDX page's `{/* recount: ignore[...] */}`.
        if let Some(body) = text.strip_prefix("{/*").and_then(|t| t.strip_suffix("*/}")) {
            let body = comment.start + 3..comment.start + 3 + body.len();
            if let Some(directive) = parse_comment(path, raw, comment.clone(), body, known)? {
                found.push(directive);
            }
            continue;
        }
        let Some(after) = text.strip_prefix("..") else {
            continue;
        };
        let body_end = comment.start + 2 + after.trim_end().len();
        if let Some(directive) = parse_comment(
            path,
            raw,
            comment.start..body_end,
            comment.start + 2..body_end,
            known,
        )? {
            found.push(directive);
        }
    }
    found.sort_by_key(|d| d.comment.start);
    found.dedup_by_key(|d| d.comment.start);
    // The block a directive applies to: the first that starts after it, passing
    // over HTML blocks that hold directives themselves, so stacked directives
    // share the block below them.
    let holds_directive = |block: &Range<usize>| {
        found
            .iter()
            .any(|d| block.start <= d.comment.start && d.comment.start < block.end)
    };
    let blocks: Vec<Option<Range<usize>>> = found
        .iter()
        .map(|d| {
            md.blocks
                .iter()
                .find(|b| {
                    b.range.start >= d.comment.end && !(b.is_html() && holds_directive(&b.range))
                })
                .map(|b| b.range.clone())
        })
        .collect();
    for (directive, block) in found.iter_mut().zip(blocks) {
        directive.block = block;
    }
    Ok(found)
}

/// One comment: `None` when it is not a directive (it does not start with
/// `recount:`), an error when it is one written wrongly.
fn parse_comment(
    path: &str,
    raw: &str,
    comment: Range<usize>,
    body: Range<usize>,
    known: &[&str],
) -> Result<Option<Directive>> {
    let text = raw.get(body.clone()).unwrap_or_default();
    let lead = text.len() - text.trim_start().len();
    if !text[lead..].starts_with(MARKER) {
        return Ok(None);
    }
    let error = |span: Range<usize>, message: String, label: &str| {
        Error::in_record(path, raw, span, message, label).with_help(SHAPE)
    };
    let mut p = Cursor {
        raw,
        at: body.start + lead + MARKER.len(),
        end: body.end,
    };
    p.skip_space();
    let verb_start = p.at;
    if !p.eat("ignore[") {
        let word_end = p.find_from(p.at, |c| c.is_whitespace() || c == '[');
        return Err(error(
            verb_start..word_end.max(verb_start + 1).min(body.end),
            "unknown recount directive: the only one is `ignore[...]`".to_owned(),
            "not a directive",
        ));
    }
    let ids_start = p.at;
    let Some(ids_end) = raw.get(ids_start..body.end).and_then(|s| s.find(']')) else {
        return Err(error(
            verb_start..body.end,
            "the check list of a suppression has no closing `]`".to_owned(),
            "unclosed",
        ));
    };
    let ids_end = ids_start + ids_end;
    let mut checks = Vec::new();
    let mut piece_start = ids_start;
    for piece in raw[ids_start..ids_end].split(',') {
        // A list wrapped inside a block quote carries the quote's `>` on its
        // next line: not part of an id.
        let rest = piece.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
        let lead = piece.len() - rest.len();
        let id = rest.trim_end();
        let span = piece_start + lead..piece_start + lead + id.len();
        piece_start += piece.len() + 1;
        if id.is_empty() {
            return Err(error(
                span.start..span.start + 1,
                "a suppression names an empty check id".to_owned(),
                "no check id",
            ));
        }
        if !known.contains(&id) {
            return Err(Error::in_record(
                path,
                raw,
                span,
                format!(
                    "unknown check id `{}` in a suppression",
                    crate::escape::untrusted(id, crate::escape::VALUE_CAP)
                ),
                "not a check",
            )
            .with_help(format!("check ids: {}", known.join(", "))));
        }
        checks.push((id.to_owned(), span));
    }
    p.at = ids_end + 1;
    let mut reason: Option<String> = None;
    let mut until = None;
    loop {
        p.skip_space();
        if p.at >= p.end {
            break;
        }
        let key_start = p.at;
        let key_end = p.find_from(key_start, |c| c == '=' || c.is_whitespace());
        let key = &raw[key_start..key_end];
        // The key is the record's text: shown escaped, as every outside value is.
        let shown = crate::escape::untrusted(key, crate::escape::VALUE_CAP);
        p.at = key_end;
        if !p.eat("=") {
            return Err(error(
                key_start..key_end.max(key_start + 1),
                format!("expected `{shown}=...` in a suppression"),
                "no value",
            ));
        }
        let (value, value_span) = if p.eat("\"") {
            let Some(close) = raw.get(p.at..p.end).and_then(|s| s.find('"')) else {
                return Err(error(
                    p.at - 1..p.end,
                    "a quoted value of a suppression has no closing `\"`".to_owned(),
                    "unclosed",
                ));
            };
            let span = p.at..p.at + close;
            p.at = span.end + 1;
            (&raw[span.clone()], span)
        } else {
            let end = p.find_from(p.at, char::is_whitespace);
            let span = p.at..end;
            p.at = end;
            (&raw[span.clone()], span)
        };
        let repeated = match key {
            "reason" => reason.replace(value.trim().to_owned()).is_some(),
            "until" => {
                let Some(day) = Day::parse(value) else {
                    return Err(error(
                        value_span.start..value_span.end.max(value_span.start + 1),
                        "`until` of a suppression is not a day `YYYY-MM-DD`".to_owned(),
                        "not a day",
                    ));
                };
                until.replace((day, value_span.clone())).is_some()
            }
            _ => {
                return Err(error(
                    key_start..key_end.max(key_start + 1),
                    format!(
                        "unknown key `{shown}` in a suppression: it takes `reason` and `until`"
                    ),
                    "not a key",
                ));
            }
        };
        if repeated {
            return Err(error(
                key_start..key_end,
                format!("`{shown}` is given twice in one suppression"),
                "repeated",
            ));
        }
    }
    let reason = match reason {
        Some(reason) if !reason.is_empty() => reason,
        // A silenced finding must say why, so a reviewer can judge it.
        _ => {
            return Err(error(
                comment.clone(),
                "a suppression needs a reason: `reason=\"...\"`".to_owned(),
                "no reason given",
            ));
        }
    };
    Ok(Some(Directive {
        comment,
        checks,
        reason,
        until,
        block: None,
    }))
}

/// A position in a comment's body.
struct Cursor<'a> {
    raw: &'a str,
    at: usize,
    end: usize,
}

impl Cursor<'_> {
    fn skip_space(&mut self) {
        self.at = self.find_from(self.at, |c| !c.is_whitespace());
    }

    /// Consumes `word` when the body continues with it.
    fn eat(&mut self, word: &str) -> bool {
        let hit = self
            .raw
            .get(self.at..self.end)
            .is_some_and(|s| s.starts_with(word));
        if hit {
            self.at += word.len();
        }
        hit
    }

    /// The first byte at or after `from` (before the body's end) whose
    /// character meets `stop`; the body's end when none does.
    fn find_from(&self, from: usize, stop: impl Fn(char) -> bool) -> usize {
        self.raw
            .get(from..self.end)
            .and_then(|s| s.char_indices().find(|&(_, c)| stop(c)))
            .map_or(self.end, |(i, _)| from + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["stale-path-cite", "stale-line-cite"];

    fn parse(raw: &str) -> Result<Vec<Directive>> {
        directives("r.md", raw, &Markdown::new(raw), KNOWN)
    }

    fn block_text<'a>(raw: &'a str, d: &Directive) -> &'a str {
        d.block.clone().map_or("", |b| &raw[b])
    }

    #[test]
    fn an_rst_comment_is_a_directive_for_the_block_after_it() {
        let raw = "Guide\n=====\n\n.. recount: ignore[stale-path-cite] reason=\"the reader's file\"\n\nEdit ``conf/app.toml``.\n\n.. a plain comment\n\nLater.\n";
        let md = crate::records::rst::parse(raw);
        let found = directives("r.rst", raw, &md, KNOWN).expect("parses");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].reason, "the reader's file");
        assert_eq!(
            block_text(raw, &found[0]).trim_end(),
            "Edit ``conf/app.toml``."
        );
        // A comment that starts like a directive but is not one is refused,
        // located, as an HTML one is.
        let bad = "Para.\n\n.. recount: ignor[stale-path-cite] reason=\"x\"\n\nText.\n";
        let md = crate::records::rst::parse(bad);
        assert!(directives("r.rst", bad, &md, KNOWN).is_err());
    }

    #[test]
    fn a_directive_applies_to_the_next_block() {
        let raw = "intro\n\n<!-- recount: ignore[stale-path-cite, stale-line-cite] reason=\"moved\" -->\nsee `a/b.py`\n\nlater\n";
        let found = parse(raw).expect("parses");
        assert_eq!(found.len(), 1);
        let d = &found[0];
        let ids: Vec<&str> = d.checks.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(ids, ["stale-path-cite", "stale-line-cite"]);
        assert_eq!(&raw[d.checks[1].1.clone()], "stale-line-cite");
        assert_eq!(d.reason, "moved");
        assert_eq!(d.until, None);
        assert_eq!(block_text(raw, d).trim_end(), "see `a/b.py`");
    }

    #[test]
    fn stacked_directives_share_the_block_below_and_list_items_are_blocks() {
        let raw = "<!-- recount: ignore[stale-path-cite] reason=\"a\" -->\n<!-- recount: ignore[stale-line-cite] reason=\"b\" until=2999-12-31 -->\n- one\n- two\n";
        let found = parse(raw).expect("parses");
        assert_eq!(found.len(), 2);
        for d in &found {
            assert_eq!(block_text(raw, d).trim_end(), "- one");
        }
        assert_eq!(
            found[1]
                .until
                .as_ref()
                .map(|(d, _)| d.to_string())
                .as_deref(),
            Some("2999-12-31")
        );
    }

    #[test]
    fn an_inline_directive_applies_to_the_block_after_its_paragraph() {
        let raw = "text <!-- recount: ignore[stale-path-cite]\nreason=\"r\" --> more\n\nnext\n";
        let found = parse(raw).expect("parses");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].reason, "r");
        assert_eq!(block_text(raw, &found[0]).trim_end(), "next");
    }

    #[test]
    fn a_list_wrapped_in_a_block_quote_reads_its_ids() {
        let raw = "> <!-- recount: ignore[stale-path-cite,\n> stale-line-cite] reason=\"q\" -->\n> quoted\n";
        let found = parse(raw).expect("parses");
        let ids: Vec<&str> = found[0].checks.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(ids, ["stale-path-cite", "stale-line-cite"]);
    }

    #[test]
    fn code_is_never_a_directive() {
        let raw = "`<!-- recount: ignore[nope] -->`\n\n```md\n<!-- recount: ignore[nope] -->\n```\n\n    <!-- recount: ignore[nope] -->\n";
        assert_eq!(parse(raw).expect("no directive"), Vec::new());
    }

    #[test]
    fn other_comments_are_not_directives_and_a_last_directive_has_no_block() {
        let raw =
            "<!-- a note -->\ntext\n\n<!-- recount: ignore[stale-path-cite] reason=\"r\" -->\n";
        let found = parse(raw).expect("parses");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].block, None);
    }

    #[test]
    fn a_bad_directive_is_a_located_error() {
        for (raw, says) in [
            (
                "<!-- recount: ignore[stale-path-cite] -->\nx\n",
                "needs a reason",
            ),
            (
                "<!-- recount: ignore[stale-path-cite] reason=\"\" -->\nx\n",
                "needs a reason",
            ),
            (
                "<!-- recount: ignore[stale-pth-cite] reason=\"r\" -->\nx\n",
                "unknown check id `stale-pth-cite`",
            ),
            (
                "<!-- recount: ignore[] reason=\"r\" -->\nx\n",
                "empty check id",
            ),
            (
                "<!-- recount: ignroe[stale-path-cite] reason=\"r\" -->\nx\n",
                "unknown recount directive",
            ),
            (
                "<!-- recount: ignore[stale-path-cite] reason=\"r\" until=soon -->\nx\n",
                "not a day",
            ),
            (
                "<!-- recount: ignore[stale-path-cite] reason=\"r\" why=\"x\" -->\nx\n",
                "unknown key `why`",
            ),
            (
                "<!-- recount: ignore[stale-path-cite] reason=\"r -->\nx\n",
                "no closing",
            ),
            (
                "<!-- recount: ignore[stale-path-cite reason=\"r\" -->\nx\n",
                "no closing `]`",
            ),
        ] {
            let error = parse(raw).expect_err(raw);
            assert!(error.to_string().contains(says), "{raw}: {error}");
            assert!(matches!(error, Error::Located { .. }), "{raw}");
        }
    }
}
