//! Stage 5 of the pipeline: the report — the audit's facts and the checks'
//! findings as one serialisable document, and one renderer per output format.
//! Renderers return text; only the CLI prints it.

pub mod baseline;
pub use crate::escape;
pub mod fingerprint;
pub mod github;
pub mod gitlab;
pub mod history;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::checks::audited::{Audit, ClaimInRecord};
use crate::checks::{CheckId, Finding, Severity};
use crate::facts::Recipe;
use crate::number::Number;

/// The version of the JSON report's shape (`schemas/report.schema.json`).
pub const SCHEMA_VERSION: u32 = 2;

/// The whole result of a run.
#[derive(Debug, Serialize)]
pub struct Report {
    pub schema_version: u32,
    pub recount_version: &'static str,
    pub snapshot: SnapshotRef,
    /// Why recount could not run (exit 2); the facts and findings are then empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RunError>,
    pub facts: Vec<FactEntry>,
    /// How the records' citations fared: the work behind a clean run.
    pub citations: CitationCounts,
    /// How the records' transcripts fared (absent when none was found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcripts: Option<TranscriptCounts>,
    pub findings: Vec<Reported>,
    /// The range of `check --since`, and what it left out; present only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeApplied>,
    /// How the run fared against `--baseline FILE`; present only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<baseline::Applied>,
    /// Findings the records' suppression directives silenced: not in
    /// `findings`, not in the exit code, each with its directive's reason.
    pub suppressed: Vec<crate::checks::suppress::Suppressed>,
    pub notes: Vec<String>,
    /// The text of every file a finding may point into, by the path findings use.
    #[serde(skip)]
    pub sources: BTreeMap<String, Arc<str>>,
}

/// A finding as the report carries it: the check's data and its fingerprint
/// ([`fingerprint`]), which needs the whole run to compute and so is added here,
/// after the checks.
#[derive(Debug, Clone, Serialize)]
pub struct Reported {
    #[serde(flatten)]
    pub finding: Finding,
    pub fingerprint: String,
    /// What in `check --since`'s range made it (present only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The edit that mends it, when the tree or the history proves one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// An edit that mends a finding: its stated text, at the bytes it is
/// written, replaced by what the evidence proves it should read, in the
/// record's own syntax (a renamed path, a renumbered line range, a renamed
/// test, a recomputed figure). Offered only for a finding whose check marks
/// its `observed` value as proven ([`Finding::fixable`]), never for a guess.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// Byte offset and length, in the finding's file, of the text replaced.
    pub offset: usize,
    pub length: usize,
    /// The text that replaces it.
    pub replacement: String,
}

impl Fix {
    /// The fix of `finding`, when it has one: its `observed` text in place
    /// of its stated text, found at (or inside) its span. None that would
    /// bring a line break or a control character the replaced text lacks
    /// (a name read from the history or the cache): no report offers it, as
    /// a SARIF fix, a suggestion block or a JSON field, and `recount fix`
    /// leaves it to a person.
    ///
    /// `records` are the audit's records, whose structure says where the
    /// renderer reads a link reference definition (an edit made away from the
    /// finding's line goes only there).
    ///
    /// `Err` when the destination could be mended but the link's text names
    /// the old target in a form the same edit cannot mend (the finding is
    /// then held for a person, with why).
    pub fn of(
        finding: &Finding,
        sources: &BTreeMap<String, Arc<str>>,
        records: &BTreeMap<String, Arc<crate::records::Record>>,
    ) -> Result<Option<Fix>, String> {
        let fix = match Fix::placed(finding, sources, records) {
            None => return Ok(None),
            Some(placed) => placed?,
        };
        let Some(replaced) = sources
            .get(&finding.location.path)
            .and_then(|text| text.get(fix.offset..fix.offset + fix.length))
        else {
            return Ok(None);
        };
        Ok(crate::escape::brought_hazards(replaced, &fix.replacement)
            .is_empty()
            .then_some(fix))
    }

    /// [`Fix::of`] before its replacement is weighed: where the edit goes;
    /// `Some(Err)` when the link's text cannot be mended with it.
    fn placed(
        finding: &Finding,
        sources: &BTreeMap<String, Arc<str>>,
        records: &BTreeMap<String, Arc<crate::records::Record>>,
    ) -> Option<Result<Fix, String>> {
        if !finding.fixable.is_proven() {
            return None;
        }
        let (stated, replacement) = (finding.stated.as_deref()?, finding.observed.as_deref()?);
        if stated.is_empty() || stated == replacement {
            return None;
        }
        let text = sources.get(&finding.location.path)?;
        let start = finding.location.offset;
        let end = start.checked_add(finding.location.length)?;
        // Where the finding points, to the end of that line: a Markdown
        // link's finding points at its text, and its destination follows.
        let line_end = text.get(end..)?.find('\n').map_or(text.len(), |i| end + i);
        let span = text.get(start..line_end)?;
        // The stated text, once there: anything else is not an edit the
        // finding can vouch for.
        let mut at = span.match_indices(stated).map(|(i, _)| i);
        let (Some(inside), None) = (at.next(), at.next()) else {
            // Not on the finding's line at all: written where the record's
            // syntax puts it; twice there: no one edit.
            return if span.contains(stated) {
                None
            } else {
                let definitions = records
                    .get(&finding.location.path)
                    .map_or(&[][..], |r| &r.markdown().definitions[..]);
                Fix::elsewhere(text, definitions, start, stated, replacement).map(Ok)
            };
        };
        // A line its words number beside the cite ("cleared at `main.dart:64`
        // before the router is built at line 178", "`a.dart` line 182"):
        // the edit cannot check those numbers, and would leave them wrong.
        if matches!(
            finding.check,
            CheckId::StaleLineCite | CheckId::StalePathCite
        ) && numbers_lines_in_words(text, start)
        {
            return None;
        }
        // A line cite that goes on as a list (`a.ts:73,76`): recount read its
        // first number, and mending that alone leaves the list half right.
        // (`a.ts:73, 76`, `mod.rs:49/87/118` too.)
        // (The list may go on past the line: `connection.rs:200,` then `203`.)
        let after = text.as_bytes().get(start + inside + stated.len()..)?;
        if finding.check == CheckId::StaleLineCite
            && matches!(after.first(), Some(b',' | b'/'))
            && after[1..]
                .iter()
                .take(16)
                .find(|b| !b" \t\r\n`>*_".contains(b))
                .is_some_and(u8::is_ascii_digit)
        {
            return None;
        }
        if finding.check == CheckId::StaleLineCite {
            let fix = Fix {
                offset: start + inside,
                length: stated.len(),
                replacement: replacement.to_owned(),
            };
            // (A link whose text and address carry other numbers is no one
            // edit: left to a person.)
            return Fix::with_link_partner(text, fix, stated, replacement).map(Ok);
        }
        if finding.check == CheckId::StalePathCite {
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let at = start + inside;
            // The cite's paragraph but for the stated text: what else its
            // sentence says of the target (it may wrap onto lines above).
            let paragraph = paragraph_of(text, at);
            let rest = format!(
                "{}{}",
                &text[paragraph.start..at],
                text.get(at + stated.len()..paragraph.end.max(at + stated.len()))
                    .unwrap_or_default()
            );
            if let Some(words) = names_old_anchor(&rest, stated, replacement) {
                return Some(Err(format!(
                    "its line names the old anchor in words (`{}`), which the new one does not",
                    crate::escape::untrusted(&words, crate::escape::VALUE_CAP)
                )));
            }
            // A finding that points at a link's destination, or just inside
            // its text: the text is read from the bracket (or backtick) that
            // opens the link.
            let prefix = &text[line_start..start];
            let from = match link_text_start(prefix) {
                Some(i) => line_start + i,
                None if prefix.ends_with('[') => start - 1,
                None => start,
            };
            // The line around the link (its text is mended, or weighed, on
            // its own) names the old target by its name: `(`start-bare`)`
            // beside a link renamed to `start-counter`.
            let around = format!(
                "{}{}",
                &text[line_start..from],
                &span[inside + stated.len()..]
            );
            if let Some(name) = names_old_name(&around, stated, replacement) {
                return Some(Err(format!(
                    "its line names `{}` beside the link, and the new target does not",
                    crate::escape::untrusted(&name, crate::escape::VALUE_CAP)
                )));
            }
            if let Some(name) = passage_names_old(text, at, stated, replacement) {
                return Some(Err(format!(
                    "its passage still names `{}`, which this edit would leave naming the old target",
                    crate::escape::untrusted(&name, crate::escape::VALUE_CAP)
                )));
            }
            match Fix::renamed_link_text(&text[from..at], stated, replacement) {
                LinkText::Silent => {}
                LinkText::Renamed(text) => {
                    return Some(Ok(Fix {
                        offset: from,
                        length: at - from + stated.len(),
                        replacement: format!("{text}{replacement}"),
                    }));
                }
                LinkText::Unmendable(text) => {
                    return Some(Err(format!(
                        "the link's text `{}` names the old target, and no one edit mends both",
                        crate::escape::untrusted(&text, crate::escape::VALUE_CAP)
                    )));
                }
            }
        }
        Some(Ok(Fix {
            offset: start + inside,
            length: stated.len(),
            replacement: replacement.to_owned(),
        }))
    }

    /// The stated text written away from the finding's line, in the
    /// record's own syntax: a reference link's destination on its definition
    /// (`[mod]: ../src/a.py`, the one such definition of that path), or a
    /// `literalinclude`'s `:lines: 2-3` option in the directive's next lines
    /// for the cite `path#L2-L3` it was read as. A definition is one the
    /// renderer reads as one (`definitions`, the record's parsed link
    /// reference definitions): a line that looks like one inside a code block
    /// is an example, and is never edited.
    fn elsewhere(
        text: &str,
        definitions: &[std::ops::Range<usize>],
        start: usize,
        stated: &str,
        replacement: &str,
    ) -> Option<Fix> {
        if let Some(options) = replacement.strip_prefix(":lines: ") {
            let (_, lines) = stated.rsplit_once("#L")?;
            let written = format!(":lines: {}", lines.replace("-L", "-"));
            let window_end = text[start..]
                .match_indices('\n')
                .nth(10)
                .map_or(text.len(), |(i, _)| start + i);
            let window = &text[start..window_end];
            let mut at = window.match_indices(&written).map(|(i, _)| i);
            let (Some(inside), None) = (at.next(), at.next()) else {
                return None;
            };
            let lines_fix = Fix {
                offset: start + inside,
                length: written.len(),
                replacement: format!(":lines: {options}"),
            };
            return Some(Fix::with_lineno_start(
                text, start, lines_fix, lines, options,
            ));
        }
        let mut destinations = definitions
            .iter()
            .filter_map(|span| Fix::destination_at(text, span.clone(), stated));
        let (Some(at), None) = (destinations.next(), destinations.next()) else {
            return None;
        };
        Some(Fix {
            offset: at,
            length: stated.len(),
            replacement: replacement.to_owned(),
        })
    }

    /// A `:lines:` edit of a `literalinclude` whose options number the shown
    /// lines from the first one taken (`:lineno-start: 12` with `:lines:
    /// 12-20`): both numbers move together, as one edit over the options
    /// between them, so the page does not show the new lines under the old
    /// numbers. A `:lineno-start:` that numbers otherwise is the author's,
    /// and stays.
    fn with_lineno_start(text: &str, start: usize, lines_fix: Fix, old: &str, new: &str) -> Fix {
        let first = |range: &str| -> Option<usize> {
            range
                .trim_start_matches('L')
                .split(['-', ','])
                .next()?
                .trim()
                .parse()
                .ok()
        };
        let (Some(was), Some(now)) = (first(old), first(new)) else {
            return lines_fix;
        };
        // The directive's options: its indented `:name:` lines after it.
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let mut end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        while end < text.len() {
            let next_end = text[end + 1..]
                .find('\n')
                .map_or(text.len(), |i| end + 1 + i);
            let line = &text[end + 1..next_end];
            if !(line.starts_with([' ', '\t']) && line.trim_start().starts_with(':')) {
                break;
            }
            end = next_end;
        }
        let written = format!(":lineno-start: {was}");
        let block = &text[line_start..end];
        let mut found = block
            .match_indices(&written)
            .map(|(i, _)| line_start + i)
            .filter(|&at| !text[at + written.len()..].starts_with(|c: char| c.is_ascii_digit()));
        let (Some(at), None) = (found.next(), found.next()) else {
            return lines_fix;
        };
        let lines_end = lines_fix.offset + lines_fix.length;
        let (from, to) = (lines_fix.offset.min(at), lines_end.max(at + written.len()));
        let mut parts = [
            (
                lines_fix.offset,
                lines_fix.length,
                lines_fix.replacement.clone(),
            ),
            (at, written.len(), format!(":lineno-start: {now}")),
        ];
        parts.sort_by_key(|part| part.0);
        let mut replacement = String::new();
        let mut cursor = from;
        for (offset, length, with) in parts {
            replacement.push_str(&text[cursor..offset]);
            replacement.push_str(&with);
            cursor = offset + length;
        }
        replacement.push_str(&text[cursor..to]);
        Fix {
            offset: from,
            length: to - from,
            replacement,
        }
    }

    /// Where `stated` is the destination of the link reference definition at
    /// `span` (`[label]: destination`, the destination after blanks and at
    /// most one line break, bare or in `<…>`, then nothing or a blank before
    /// a title).
    fn destination_at(text: &str, span: std::ops::Range<usize>, stated: &str) -> Option<usize> {
        let definition = text.get(span.clone())?;
        // The label's end: the first `]:` not escaped (a label holds no
        // unescaped bracket).
        let colon = definition
            .match_indices("]:")
            .map(|(i, _)| i)
            .find(|&i| !definition[..i].ends_with('\\'))?
            + 2;
        let rest = &definition[colon..];
        let mut at = colon + (rest.len() - rest.trim_start().len());
        let angled = definition[at..].starts_with('<');
        if angled {
            at += 1;
        }
        let tail = definition.get(at..)?.strip_prefix(stated)?;
        let ends = if angled {
            tail.starts_with('>')
        } else {
            tail.is_empty() || tail.starts_with(char::is_whitespace)
        };
        ends.then_some(span.start + at)
    }

    /// A line cite that is one half of a link whose other half numbers the
    /// same lines (`[route.ts:34](../src/route.ts#L34)`): the edit takes in
    /// both, so text and address move together. `None` when the other half
    /// numbers lines the edit cannot vouch for.
    fn with_link_partner(text: &str, fix: Fix, stated: &str, replacement: &str) -> Option<Fix> {
        static LINK: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        static NUMBERS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        let link = LINK.get_or_init(|| {
            regex::Regex::new(r"\[([^\]\n]*)\]\(([^)\n]*)\)")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        let numbers = NUMBERS.get_or_init(|| {
            regex::Regex::new(r"(?:#L|:|\bL)(\d+)(?:-L?(\d+))?")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        let range = |cite: &str| -> Option<(usize, usize)> {
            let found = numbers.captures_iter(cite).last()?;
            let start = found.get(1)?.as_str().parse().ok()?;
            let end = found
                .get(2)
                .map_or(Some(start), |e| e.as_str().parse().ok())?;
            Some((start, end))
        };
        let (Some(old), Some(new)) = (range(stated), range(replacement)) else {
            return Some(fix);
        };
        let line_start = text[..fix.offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[fix.offset..]
            .find('\n')
            .map_or(text.len(), |i| fix.offset + i);
        let line = &text[line_start..line_end];
        let (from, to) = (
            fix.offset - line_start,
            fix.offset - line_start + fix.length,
        );
        let Some(found) = link
            .captures_iter(line)
            .find(|c| c.get(0).is_some_and(|m| m.start() <= from && to <= m.end()))
        else {
            return Some(fix);
        };
        let (Some(shown), Some(address)) = (found.get(1), found.get(2)) else {
            return Some(fix);
        };
        let partner = if shown.start() <= from && to <= shown.end() {
            address
        } else if address.start() <= from && to <= address.end() {
            shown
        } else {
            return Some(fix);
        };
        let Some(there) = numbers.captures_iter(partner.as_str()).last() else {
            return Some(fix);
        };
        let numbered = (|| {
            let start: usize = there.get(1)?.as_str().parse().ok()?;
            let end = there
                .get(2)
                .map_or(Some(start), |e| e.as_str().parse().ok())?;
            Some((start, end))
        })();
        if numbered == Some(new) {
            return Some(fix);
        }
        if numbered != Some(old) {
            return None;
        }
        // The partner's numbers in its own form, moved as the cite's are.
        let whole = there.get(0)?;
        let written = whole.as_str();
        let moved = {
            let first = there.get(1)?;
            let mut out = String::new();
            out.push_str(&written[..first.start() - whole.start()]);
            out.push_str(&new.0.to_string());
            match there.get(2) {
                Some(last) => {
                    out.push_str(
                        &written[first.end() - whole.start()..last.start() - whole.start()],
                    );
                    out.push_str(&new.1.to_string());
                    out.push_str(&written[last.end() - whole.start()..]);
                }
                None => out.push_str(&written[first.end() - whole.start()..]),
            }
            out
        };
        let at = line_start + partner.start() + whole.start();
        let (lo, hi) = (
            fix.offset.min(at),
            (fix.offset + fix.length).max(at + written.len()),
        );
        let mut parts = [
            (fix.offset, fix.length, fix.replacement.clone()),
            (at, written.len(), moved),
        ];
        parts.sort_by_key(|part| part.0);
        let mut replaced = String::new();
        let mut cursor = lo;
        for (offset, length, with) in parts {
            replaced.push_str(text.get(cursor..offset)?);
            replaced.push_str(&with);
            cursor = offset + length;
        }
        replaced.push_str(text.get(cursor..hi)?);
        Some(Fix {
            offset: lo,
            length: hi - lo,
            replacement: replaced,
        })
    }

    /// A link whose text names the file it links (`[a.md](./a.md)`, rst's
    /// `` `a.md <./a.md>`_ ``): when the file was renamed, its text is
    /// renamed by the same path arithmetic, so the mended link does not read
    /// one name and open another. The text is the destination or a tail of
    /// it (`[src/a.py](../src/a.py)`): it becomes the same tail of the
    /// replacement, when the part before it is unchanged; the text mentions
    /// the file's name in other words: its name is swapped only when the
    /// rename kept the folder. Anything else is no one edit.
    fn renamed_link_text(before: &str, stated: &str, replacement: &str) -> LinkText {
        let path = |p: &str| p.split(['#', '?']).next().unwrap_or_default().to_owned();
        let (stated_path, replaced_path) = (path(stated), path(replacement));
        let name = |p: &str| -> String {
            p.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        let folder = |p: &str| -> String {
            let p = p.trim_end_matches('/');
            p.rsplit_once('/')
                .map(|(f, _)| f.to_owned())
                .unwrap_or_default()
        };
        let (old, new) = (name(&stated_path), name(&replaced_path));
        // The destination starts right there, or after a forge address whose
        // path the stated text is (`](https://host/o/r/blob/main` + `/a.md`).
        let opener = ["](", " <"]
            .iter()
            .filter_map(|o| before.rfind(o).map(|at| (at, at + o.len())))
            .max_by_key(|(_, end)| *end);
        let Some((text_end, destination)) = opener else {
            return LinkText::Silent;
        };
        let address = &before[destination..];
        let link = address.is_empty()
            || (address.contains("://") && !address.contains(char::is_whitespace));
        if !link {
            return LinkText::Silent;
        }
        let written = &before[..text_end];
        // Text that names the old target in words (`[Digital Identity]` for
        // `digital-identity.md`, `[Install steps]` for `#install-steps`) would
        // read one thing and open another once the target is renamed.
        // (`[10. JS Components]` for `0010-js-components.md` renamed
        // `0016-…`: numbers by their value.)
        let link_text = written.rfind('[').map_or("", |i| &written[i + 1..]);
        let fragment = |p: &str| {
            p.split_once('#')
                .map(|(_, f)| f.to_owned())
                .unwrap_or_default()
        };
        let stem_of = |name: &str| {
            name.rsplit_once('.')
                .map_or(name, |(stem, _)| stem)
                .to_owned()
        };
        let (old_fragment, new_fragment) = (fragment(stated), fragment(replacement));
        // The text names it when it holds every word of the old name (or
        // anchor) and one of them is gone from the new.
        let said = name_words(link_text);
        let names_old = [
            (old_fragment.as_str(), new_fragment.as_str()),
            (&*stem_of(&old), &*stem_of(&new)),
        ]
        .into_iter()
        .any(|(was, is)| {
            let (was, kept) = (name_words(was), name_words(is));
            !was.is_empty()
                && was.iter().all(|w| said.contains(w))
                && was.iter().any(|w| !kept.contains(w))
        });
        // Or it numbers it as the old name did (`[ADR 0036]` for
        // `0036-…` renumbered `0047-…`), or spells its name as code does
        // (`GuideParser` for `guide_parser.rb` renamed
        // `parts_content_parser.rb`).
        let numbers_old = number_gone(link_text, &old, &new, 1).is_some()
            || spelled_as_code(link_text, &stem_of(&old), &stem_of(&new));
        let literal =
            written.contains(old.as_str()) || link_text.trim_matches('`') == stem_of(&old);
        if !literal && (names_old || numbers_old) {
            return LinkText::Unmendable(link_text.to_owned());
        }
        if old.is_empty() || new.is_empty() || stated_path == replaced_path {
            return LinkText::Silent;
        }
        // The text names the file by its name, or by its name without its
        // extension (`[0004-catalog](adr/0004-catalog.md)`).
        let stem = |name: &str| -> String {
            match name.rsplit_once('.') {
                Some((stem, _)) if stem.len() >= 4 => stem.to_owned(),
                _ => name.to_owned(),
            }
        };
        let shown_text = written
            .rfind('[')
            .map_or(written, |i| &written[i + 1..])
            .trim_matches('`');
        // A word that is the old name's stem still names the new target
        // when the new name is that stem with a variant after a dot
        // (`[extend]` for `extend.md` become `extend.zh-CN.md`): the text is
        // the sentence's word, not the file's name.
        if shown_text == stem(&old) && stem(&new).starts_with(&format!("{shown_text}.")) {
            return LinkText::Silent;
        }
        let (old, new) = if written.contains(old.as_str()) {
            (old, new)
        } else if shown_text == stem(&old) {
            (stem(&old), stem(&new))
        } else {
            return LinkText::Silent;
        };
        // The text itself, inside its brackets or backticks.
        let text_start = match written.rfind('[') {
            Some(i) => i + 1,
            None => written.rfind('`').map_or(0, |i| i + 1),
        };
        let shown = &written[text_start..];
        let bare = shown.trim_matches('`');
        let quoted = shown.len() - shown.trim_start_matches('`').len();
        // A tail of the destination, on a folder's boundary.
        // (Never a text that climbs, `../docs/a.md`, nor the new path's last
        // names picked to fit: the text names the path from a base of its
        // own, which the new one may not share.)
        let climbs = |p: &str| p.split('/').any(|segment| segment == "..");
        if !bare.is_empty()
            && let Some(head) = stated_path.strip_suffix(bare)
            && (head.is_empty() || head.ends_with('/'))
        {
            let tail = match replaced_path.strip_prefix(head) {
                Some(tail) if !climbs(tail) => Some(tail.to_owned()),
                _ => None,
            };
            if tail.as_deref() == Some(bare) {
                return LinkText::Silent;
            }
            if let Some(tail) = tail {
                let mut renamed = written[..text_start + quoted].to_owned();
                renamed.push_str(&tail);
                renamed.push_str(&shown[quoted + bare.len()..]);
                renamed.push_str(&before[text_end..]);
                return LinkText::Renamed(renamed);
            }
        }
        if old == new && !bare.contains('/') {
            return LinkText::Silent;
        }
        // The name alone, or in words when the rename kept its folder.
        if written.matches(old.as_str()).count() == 1
            && !bare.contains('/')
            && (bare == old || folder(&stated_path) == folder(&replaced_path))
        {
            return LinkText::Renamed(before.replacen(&old, &new, 1));
        }
        LinkText::Unmendable(shown.to_owned())
    }

    /// The lines the fix touches, whole, as they read once it is applied:
    /// what a pull-request suggestion block replaces them with.
    pub fn lines_after(&self, text: &str) -> Option<String> {
        let end = self.offset.checked_add(self.length)?;
        let first = text.get(..self.offset)?.rfind('\n').map_or(0, |i| i + 1);
        let last = text.get(end..)?.find('\n').map_or(text.len(), |i| end + i);
        Some(format!(
            "{}{}{}",
            text.get(first..self.offset)?,
            self.replacement,
            text.get(end..last)?
        ))
    }
}

/// Whether the paragraph of the cite at `at` numbers a line in words ("line
/// 178", "lines 10-12", "(around line 182)") or by a bare number of the
/// same file (`` `:251-267` ``, "(`#L40`)").
fn numbers_lines_in_words(text: &str, at: usize) -> bool {
    static WORDS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        regex::Regex::new(r"(?i)\blines?\s+\d|(?:^|[\s(`,;])(?::|#L)\d")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    words.is_match(&text[paragraph_of(text, at)])
}

/// The paragraph around `at` (its sentence may wrap; a blank line ends
/// it), within a bounded reach either side.
fn paragraph_of(text: &str, at: usize) -> std::ops::Range<usize> {
    paragraph_within(text, at, 1024)
}

/// The bytes of `text` up to `reach` either side of `at`, on character
/// boundaries.
fn within(text: &str, at: usize, reach: usize) -> (usize, usize) {
    let mut floor = at.saturating_sub(reach);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    let mut ceiling = (at + reach).min(text.len());
    while !text.is_char_boundary(ceiling) {
        ceiling -= 1;
    }
    (floor, ceiling)
}

/// [`paragraph_of`], within `reach` bytes either side (a table of many rows
/// is one paragraph).
pub(crate) fn paragraph_within(text: &str, at: usize, reach: usize) -> std::ops::Range<usize> {
    let (floor, ceiling) = within(text, at, reach);
    let start = text[floor..at]
        .rfind("\n\n")
        .map_or(floor, |i| floor + i + 2);
    let end = text[at..ceiling].find("\n\n").map_or(ceiling, |i| at + i);
    start..end
}

/// The words of a name or of a link's text that say which target it is:
/// lowercased, a number by its value (`0010` is `10`), short words and
/// articles left out.
fn name_words(text: &str) -> std::collections::BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter_map(|word| {
            let word = word.to_lowercase();
            if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
                let value = word.trim_start_matches('0');
                return Some(if value.is_empty() { "0" } else { value }.to_owned());
            }
            (word.chars().count() >= 3 && !["the", "and", "for", "with"].contains(&&*word))
                .then_some(word)
        })
        .collect()
}

/// Where the text of the link whose destination starts at the end of
/// `line` begins: after the `[` of `[text](`, or the backtick of rst's
/// `` `text <``. None when no link opens there.
fn link_text_start(line: &str) -> Option<usize> {
    if let Some(head) = line.strip_suffix("](") {
        return head.rfind('[');
    }
    let head = line.strip_suffix(" <").or_else(|| line.strip_suffix('<'))?;
    head.rfind('`')
}

/// The old anchor's words, when the rest of a cite's line (`rest`: the line
/// without the stated text) names them and the new anchor does not: a
/// sentence that says to set `worker.setFirmwareClassPath`, or a table of
/// contents entry `[Deployment pipeline]`, still reads the old section.
fn names_old_anchor(rest: &str, stated: &str, replacement: &str) -> Option<String> {
    let fragment = |p: &str| p.split_once('#').map(|(_, f)| f.to_owned());
    let (old, new) = (fragment(stated)?, fragment(replacement).unwrap_or_default());
    let compact = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (was, is) = (compact(&old), compact(&new));
    (was.chars().count() >= 6 && was != is && !is.contains(&was) && compact(rest).contains(&was))
        .then_some(old)
}

/// The old target's last name (`start-bare`, `sample.conf`), when the
/// text around a cite (`around`: its line but for the cite and its link
/// text) names it whole, as a word or a path's last part, and the
/// replacement does not.
fn names_old_name(around: &str, stated: &str, replacement: &str) -> Option<String> {
    let (old, new) = (plain_path(stated), plain_path(replacement));
    let name = old.rsplit('/').next().unwrap_or(&old);
    let new_name = new.rsplit('/').next().unwrap_or(&new);
    // A number the old name carried and the new one does not, written
    // beside the link (`ADR 0034: [Provide a queue](0045-provide-a-queue.md)`):
    // the line still numbers the old target. A number of one digit is too
    // common in prose to be read as the name's.
    if let Some(number) = number_gone(around, name, new_name, 2) {
        return Some(number);
    }
    // A folder of the old path the new one does not have, named beside the
    // link (`is defined in the `support/sync15-traits` crate` beside a link
    // into that crate, merged since into another).
    let kept: Vec<&str> = new.split('/').collect();
    if let Some(folder) = old
        .split('/')
        .rev()
        .skip(1)
        .filter(|folder| folder.chars().count() >= 6 && !kept.contains(folder))
        .find(|folder| whole_names(around, folder, false).next().is_some())
    {
        return Some(folder.to_owned());
    }
    if name.chars().count() < 4 || new.contains(name) {
        return None;
    }
    whole_names(around, name, false)
        .next()
        .map(|_| name.to_owned())
}

/// What of the old target the cite's passage still names past its own
/// line, which an edit of the cite alone would leave behind: the old file's
/// name in the lines the cite's list item holds below it (a nested list
/// that says what `up_framebuffer.c` provides), or a Python module's import
/// in its section (`from evennia.contrib import multidescer` above a
/// sentence citing `evennia/contrib/multidescer.py`).
fn passage_names_old(text: &str, at: usize, stated: &str, replacement: &str) -> Option<String> {
    /// How far the passage is read either side of the cite.
    const REACH: usize = 4096;
    let (old, new) = (plain_path(stated), plain_path(replacement));
    let name = old.rsplit('/').next().unwrap_or(&old).to_owned();
    // The lines below the cite's own that are indented deeper than it:
    // what its list item holds.
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = |line: &str| line.len() - line.trim_start().len();
    let own = indent(&text[line_start..]);
    let mut below = String::new();
    let after = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let mut taken = 0;
    for line in text[after..].split_inclusive('\n') {
        taken += line.len();
        if taken > REACH || (!line.trim().is_empty() && indent(line) <= own) {
            break;
        }
        below.push_str(line);
    }
    if name.chars().count() >= 4
        && !new.contains(name.as_str())
        && whole_names(&below, &name, false).next().is_some()
    {
        return Some(name);
    }
    // A Python module's import, in the section around the cite.
    let module = old.strip_suffix(".py")?;
    // A module made a package keeps its import (`pkg/util.py` became
    // `pkg/util/__init__.py`).
    if new.strip_suffix("/__init__.py") == Some(module) {
        return None;
    }
    let module = module
        .strip_prefix("src/")
        .unwrap_or(module)
        .replace('/', ".");
    let (parent, stem) = module.rsplit_once('.')?;
    let (floor, ceiling) = within(text, at, REACH);
    // The section: from the last heading above the cite to the next one,
    // a `#` line inside a code fence (a comment) being none.
    let (mut start, mut end) = (floor, ceiling);
    let mut fenced = false;
    let mut offset = floor;
    for line in text[floor..ceiling].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            if offset < line_start {
                start = offset;
            } else if offset >= after {
                end = offset;
                break;
            }
        }
        offset += line.len();
    }
    let section = &text[start..end];
    let imported = format!("from {parent} import {stem}");
    (whole_names(section, &module, false).next().is_some()
        || section.lines().any(|line| {
            line.trim_start()
                .strip_prefix(&imported)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ',', '\r']))
        }))
    .then_some(module)
}

/// A link's or a path's file part: what comes before `#` or `?`, without
/// a leading `./` or a closing `/`.
pub(crate) fn plain_path(p: &str) -> String {
    p.split(['#', '?'])
        .next()
        .unwrap_or_default()
        .trim_start_matches("./")
        .trim_end_matches('/')
        .to_owned()
}

/// Whether `text` holds the name `old` with its separators and case gone
/// (`GuideParser`, `guideParser` for `guide_parser`), of eight letters or
/// more, and `new` does not hold it so.
fn spelled_as_code(text: &str, old: &str, new: &str) -> bool {
    let compact = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (was, is) = (compact(old), compact(new));
    was.chars().count() >= 8 && !is.contains(&was) && compact(text).contains(&was)
}

/// A number written in `text` (a word of digits) whose value the name `old`
/// carries as a word of its own and `new` does not (`0034-dlq.md` renamed
/// `0045-dlq.md`: `34`), written with at least `min_digits` digits.
fn number_gone(text: &str, old: &str, new: &str, min_digits: usize) -> Option<String> {
    let numbers = |name: &str| -> std::collections::BTreeSet<String> {
        name_words(name)
            .into_iter()
            .filter(|word| word.bytes().all(|b| b.is_ascii_digit()))
            .collect()
    };
    let stem = |name: &str| {
        name.rsplit_once('.')
            .map_or(name, |(stem, _)| stem)
            .to_owned()
    };
    let (was, is) = (numbers(&stem(old)), numbers(&stem(new)));
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() >= min_digits && word.bytes().all(|b| b.is_ascii_digit()))
        .find(|word| {
            let value = word.trim_start_matches('0');
            let value = if value.is_empty() { "0" } else { value };
            was.contains(value) && !is.contains(value)
        })
        .map(str::to_owned)
}

/// Where `text` names `name` whole: not inside a longer word or name (a
/// letter, digit, `_` or `-` beside it, a `.` before it or a `.x` after
/// it). A path's last part (`examples/start-bare`) is whole, unless
/// `after_folder`: then a `/` on either side joins it to a longer path.
pub(crate) fn whole_names<'t>(
    text: &'t str,
    name: &'t str,
    after_folder: bool,
) -> impl Iterator<Item = usize> + 't {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-');
    text.match_indices(name).filter_map(move |(at, _)| {
        let before = text[..at].chars().next_back();
        let mut after = text[at + name.len()..].chars();
        let (next, then) = (after.next(), after.next());
        let joined = before.is_some_and(|c| part(c) || c == '.' || (after_folder && c == '/'))
            || next.is_some_and(|c| part(c) || (after_folder && c == '/'))
            || (next == Some('.') && then.is_some_and(char::is_alphanumeric));
        (!joined).then_some(at)
    })
}

/// What becomes of a link's text when its destination is mended.
#[derive(Debug, PartialEq, Eq)]
enum LinkText {
    /// It does not name the target: the destination alone is edited.
    Silent,
    /// The text up to the destination, its name of the target mended.
    Renamed(String),
    /// It names the old target in a way the same edit cannot mend.
    Unmendable(String),
}

/// What in the range of `check --since BASE` made a finding: the range wrote
/// the record line it is on, or changed a file it reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cause {
    pub how: CauseKind,
    /// The commit, when one is known (none for work not committed yet, or
    /// when no commit of the range changed a file the finding names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The commit's subject line, as written (escaped where shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// For `changed`: the file the commit changed, by its path in the audited
    /// tree (a renamed file by its new name, a deleted one by its old).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The first line the commit changed in `path`, when the file is still
    /// there: where a reviewer reading the change sees it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What the change was, in words: `renamed to docs/b.md`, `deleted`,
    /// `edited`; for `wrote`, `wrote this line`.
    pub change: String,
}

/// How a range made a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CauseKind {
    /// The range added or edited the record line the finding is on.
    Wrote,
    /// The range changed a file the finding reads (or the finding is new in
    /// the range and no commit of it changed a file it names).
    Changed,
}

impl Cause {
    /// One line for a reader: `caused by 1a2b3c4d (src/a.py:12, edited)`.
    pub fn summary(&self) -> String {
        let commit = self
            .commit
            .as_deref()
            .map_or("work not committed yet", |c| c.get(..8).unwrap_or(c));
        let place = match (&self.path, self.line) {
            (Some(path), Some(line)) => format!("{path}:{line}, {}", self.change),
            (Some(path), None) => format!("{path}, {}", self.change),
            _ => self.change.clone(),
        };
        let verb = match self.how {
            CauseKind::Wrote => "written by",
            CauseKind::Changed => "caused by",
        };
        format!("{verb} {commit} ({place})")
    }
}

impl std::ops::Deref for Reported {
    type Target = Finding;

    fn deref(&self) -> &Finding {
        &self.finding
    }
}

/// How `check --since BASE` narrowed the run, as the JSON report carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RangeApplied {
    /// `--since` as given.
    pub since: String,
    /// The commit the range starts after: the merge base of `--since` and the
    /// audited commit.
    pub base: String,
    /// How many first-parent commits the range holds (uncommitted work aside).
    pub commits: usize,
    /// Findings of the audited tree that were there at the base too: left out.
    pub at_base: usize,
}

/// Transcripts found in the records, by how they fared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TranscriptCounts {
    /// Re-run and compared: agreeing, or drifting.
    pub rerun: usize,
    pub drift: usize,
    /// Shown with output but outside the commands recount re-runs.
    pub not_rerun: usize,
    /// In the family, but naming a revision this clone lacks.
    pub unverified: usize,
}

impl TranscriptCounts {
    fn of(transcripts: &[crate::checks::transcripts::Transcript]) -> Option<Self> {
        use crate::checks::transcripts::TranscriptStatus;
        if transcripts.is_empty() {
            return None;
        }
        let mut counts = TranscriptCounts::default();
        for t in transcripts {
            match t.status {
                TranscriptStatus::Agrees => counts.rerun += 1,
                TranscriptStatus::Drift { .. } => {
                    counts.rerun += 1;
                    counts.drift += 1;
                }
                TranscriptStatus::NotRerun { .. } => counts.not_rerun += 1,
                TranscriptStatus::Unverified { .. } => counts.unverified += 1,
                TranscriptStatus::NoOutput | TranscriptStatus::Claimed { .. } => {}
            }
        }
        Some(counts)
    }
}

/// Citations found in the records, by how they fared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CitationCounts {
    /// Resolved against the tree: present, or stale.
    pub checked: usize,
    pub stale: usize,
    /// Read as paths but not this repository's (a reader's file, a build's
    /// output, another root): listed by `recount cites`, never findings.
    pub skipped: usize,
    /// Under a frame that does not resolve.
    pub unverified: usize,
    /// Marked by the record as history ("renamed from").
    pub historical: usize,
    /// Written at or before the oldest commit a shallow clone holds: judged
    /// by the tree alone, not by what they named when written.
    #[serde(skip_serializing_if = "is_zero")]
    pub unjudged: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CitationCounts {
    fn of(cites: &[crate::checks::cites::ResolvedCite]) -> Self {
        use crate::checks::cites::CiteStatus;
        let mut counts = CitationCounts::default();
        for cite in cites {
            counts.unjudged += usize::from(cite.history_cut_short);
            match cite.status {
                CiteStatus::Ok { .. } => counts.checked += 1,
                CiteStatus::Stale { .. } => {
                    counts.checked += 1;
                    counts.stale += 1;
                }
                CiteStatus::Skipped { .. } => counts.skipped += 1,
                CiteStatus::Unverified { .. } => counts.unverified += 1,
                CiteStatus::Historical => counts.historical += 1,
            }
        }
        counts
    }
}

#[derive(Debug, Serialize)]
pub struct SnapshotRef {
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// One fact as the report shows it.
#[derive(Debug, Serialize)]
pub struct FactEntry {
    pub id: String,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub frame: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The value for people (`26,214,400`, `1.032`); absent when unverified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The exact value: an integer, or `numerator/denominator`; absent when unverified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    /// Why the fact was not computed (its frame does not resolve, an input is
    /// missing): it has no value and its claims were not compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unverified: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<[usize; 2]>,
    pub recipe: Recipe,
    pub claims: ClaimCounts,
}

/// How the claims about one fact fared, counted as the findings count them:
/// `found = ok + drifted`, `drifted` is the fact's `fact-drift` findings (one
/// per stated match or listing block that disagrees), `not_found` its
/// `claim-not-found` findings (one per claim that no record it names states,
/// or whose glob selects no record).
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct ClaimCounts {
    /// Places in records where the fact is stated (matches and listing blocks).
    pub found: usize,
    /// Places that agree with the tree.
    pub ok: usize,
    /// Places that disagree: the fact's `fact-drift` findings.
    pub drifted: usize,
    /// The fact's `claim-not-found` findings.
    pub not_found: usize,
}

/// The exact text of a number: `26214400` or `129/125`.
pub fn exact(n: &Number) -> String {
    if n.is_integer() {
        n.numer().to_string()
    } else {
        format!("{}/{}", n.numer(), n.denom())
    }
}

impl Report {
    pub fn new(audit: &Audit, findings: Vec<Finding>) -> Report {
        let facts = audit
            .facts
            .iter()
            .map(|fact| {
                let mut counts = ClaimCounts::default();
                for claim in &fact.claims {
                    for r in &claim.records {
                        counts.found += match r {
                            ClaimInRecord::Stated { matches, .. } => matches.len(),
                            ClaimInRecord::Listing { block, .. } => usize::from(block.is_some()),
                        };
                    }
                }
                // One fact-drift finding per place that disagrees (a stated
                // match, a listing block), one claim-not-found per claim no
                // record states: the counts are the findings' counts.
                for f in findings
                    .iter()
                    .filter(|f| f.fact.as_deref() == Some(&fact.id))
                {
                    match f.check {
                        CheckId::FactDrift => counts.drifted += 1,
                        CheckId::ClaimNotFound => counts.not_found += 1,
                        CheckId::EqualsMismatch
                        | CheckId::FrameUnreachable
                        | CheckId::FrameUnresolved
                        | CheckId::InputMissing
                        | CheckId::StaleTestCite
                        | CheckId::StaleLineCite
                        | CheckId::StalePathCite
                        | CheckId::RetiredClaim
                        | CheckId::UnpinnedBound
                        | CheckId::StalePin
                        | CheckId::ConfigUnmatched
                        | CheckId::UnusedSuppression
                        | CheckId::TranscriptDrift => {}
                    }
                }
                counts.ok = counts.found.saturating_sub(counts.drifted);
                FactEntry {
                    id: fact.id.clone(),
                    kind: fact.kind,
                    description: fact.description.clone(),
                    frame: fact.frame.clone(),
                    commit: fact.commit.clone(),
                    value: Some(fact.computed.value.display()),
                    exact: Some(
                        fact.computed
                            .value
                            .number()
                            .map_or_else(|| fact.computed.value.display(), |n| exact(&n)),
                    ),
                    unverified: None,
                    listing: fact.computed.listing.clone(),
                    lines: fact.computed.lines.map(|(a, b)| [a, b]),
                    recipe: fact.computed.recipe.clone(),
                    claims: counts,
                }
            })
            .chain(audit.unverified.iter().map(unverified_entry))
            .collect::<Vec<_>>();
        let mut facts = facts;
        facts.sort_by(|a, b| a.id.cmp(&b.id));
        let mut sources: BTreeMap<String, Arc<str>> = audit
            .records
            .iter()
            .map(|(path, record)| (path.clone(), Arc::clone(&record.text)))
            .chain(audit.files.iter().map(|(p, t)| (p.clone(), Arc::clone(t))))
            .collect();
        for (path, source) in audit.source_paths.iter().zip(&audit.sources) {
            sources.insert(path.clone(), Arc::from(source.text.as_str()));
        }
        let prints = fingerprint::assign(&findings, &sources);
        let findings = findings
            .into_iter()
            .zip(prints)
            .map(|(mut finding, fingerprint)| {
                let fix = Fix::of(&finding, &sources, &audit.records).unwrap_or_else(|why| {
                    finding.fixable =
                        crate::checks::Fixable::Held(crate::checks::Held::LinkText, why);
                    None
                });
                Reported {
                    fix,
                    finding,
                    fingerprint,
                    cause: None,
                }
            })
            .collect();
        Report {
            schema_version: SCHEMA_VERSION,
            recount_version: env!("CARGO_PKG_VERSION"),
            snapshot: SnapshotRef {
                label: audit.snapshot_label.clone(),
                commit: audit.commit.clone(),
            },
            error: None,
            facts,
            citations: CitationCounts::of(&audit.families.cites),
            transcripts: TranscriptCounts::of(&audit.families.transcripts),
            findings,
            range: None,
            baseline: None,
            suppressed: Vec::new(),
            notes: audit.notes.clone(),
            sources,
        }
    }

    /// The report of a run that could not run: no facts, no findings, the
    /// error as data, so a CI step that parses stdout gets the reason.
    /// `snapshot` is what the run was asked to audit (`working tree`, or the
    /// revision as given).
    pub fn failed(snapshot: &str, error: RunError) -> Report {
        Report {
            error: Some(error),
            ..Report::empty(snapshot)
        }
    }

    /// A report of nothing at `snapshot`: no error, no facts, no findings.
    pub fn empty(snapshot: &str) -> Report {
        Report {
            schema_version: SCHEMA_VERSION,
            recount_version: env!("CARGO_PKG_VERSION"),
            snapshot: SnapshotRef {
                label: snapshot.to_owned(),
                commit: None,
            },
            error: None,
            facts: Vec::new(),
            citations: CitationCounts::default(),
            transcripts: None,
            findings: Vec::new(),
            range: None,
            baseline: None,
            suppressed: Vec::new(),
            notes: Vec::new(),
            sources: BTreeMap::new(),
        }
    }

    /// The report with the findings the records' directives and the rule
    /// files' ignores silenced. Fingerprints are counted over the findings and
    /// the suppressed together, in report order, so suppressing one finding
    /// leaves every other's fingerprint as it was, and a suppressed finding
    /// carries the one it has when reported: what code scanning matches it by.
    pub fn with_suppressed(
        mut self,
        mut suppressed: Vec<crate::checks::suppress::Suppressed>,
    ) -> Self {
        if !suppressed.is_empty() {
            let key = |f: &Finding| {
                (
                    f.location.path.clone(),
                    f.location.line,
                    f.location.column,
                    f.check,
                    f.message.clone(),
                )
            };
            // (sort key, suppressed?, index)
            let mut order: Vec<(_, bool, usize)> = self
                .findings
                .iter()
                .enumerate()
                .map(|(i, r)| (key(&r.finding), false, i))
                .chain(
                    suppressed
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (key(&s.finding), true, i)),
                )
                .collect();
            order.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            let all: Vec<Finding> = order
                .iter()
                .filter_map(|(_, is_suppressed, i)| {
                    if *is_suppressed {
                        suppressed.get(*i).map(|s| s.finding.clone())
                    } else {
                        self.findings.get(*i).map(|r| r.finding.clone())
                    }
                })
                .collect();
            let prints = fingerprint::assign(&all, &self.sources);
            for ((_, is_suppressed, i), print) in order.iter().zip(prints) {
                if *is_suppressed {
                    if let Some(s) = suppressed.get_mut(*i) {
                        s.fingerprint = print;
                    }
                } else if let Some(r) = self.findings.get_mut(*i) {
                    r.fingerprint = print;
                }
            }
        }
        self.suppressed = suppressed;
        self
    }

    /// Whether any finding is at or above `threshold`.
    pub fn fails(&self, threshold: Severity) -> bool {
        self.findings.iter().any(|f| f.severity >= threshold)
    }
}

/// A could-not-run error as data: its message, and where it is when the error
/// points into a file (a rule file, a pack), line and column counted as every
/// report counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunError {
    /// `recount::input` (a file the user wrote is at fault) or `recount::run`
    /// (a repository, a revision).
    pub code: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The words under the span in the human diagnostic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl RunError {
    /// The error a diagnostic describes, located at its first label.
    pub fn from_diagnostic(diagnostic: &dyn miette::Diagnostic) -> RunError {
        let mut error = RunError {
            code: diagnostic
                .code()
                .map_or_else(|| "recount::run".to_owned(), |c| c.to_string()),
            message: diagnostic.to_string(),
            path: None,
            line: None,
            column: None,
            label: None,
            help: diagnostic.help().map(|h| h.to_string()),
        };
        let label = diagnostic.labels().and_then(|mut labels| labels.next());
        if let (Some(source), Some(label)) = (diagnostic.source_code(), label) {
            error.label = label.label().map(str::to_owned);
            if let Ok(contents) = source.read_span(label.inner(), 0, 0) {
                error.path = contents.name().map(str::to_owned);
                error.line = Some(contents.line() + 1);
                error.column = Some(contents.column() + 1);
            }
        }
        error
    }
}

/// An unverified fact as the report shows it: no value, the reason, its claims
/// found but none compared.
fn unverified_entry(fact: &crate::checks::audited::UnverifiedFact) -> FactEntry {
    FactEntry {
        id: fact.id.clone(),
        kind: fact.kind,
        description: fact.description.clone(),
        frame: fact.frame.clone(),
        commit: fact.commit.clone(),
        value: None,
        exact: None,
        unverified: Some(fact.why.reason()),
        listing: None,
        lines: None,
        recipe: Recipe {
            kind: fact.kind,
            frame: fact.frame.clone(),
            inputs: Vec::new(),
        },
        claims: ClaimCounts {
            found: fact.stated_places(),
            ..ClaimCounts::default()
        },
    }
}

#[cfg(test)]
mod fix_tests {
    use super::{Fix, LinkText};

    #[test]
    fn a_link_naming_its_renamed_file_is_renamed_in_its_text_too() {
        let renamed = |text: &str| LinkText::Renamed(text.to_owned());
        assert_eq!(
            Fix::renamed_link_text("[`details.md`](", "./details.md", "./context.md"),
            renamed("[`context.md`](")
        );
        assert_eq!(
            Fix::renamed_link_text("`ci.yml <", "/.github/ci.yml", "/.github/checks.yml"),
            renamed("`checks.yml <")
        );
        assert_eq!(
            Fix::renamed_link_text(
                "[ci.yml](https://github.com/o/r/blob/main",
                "/.github/ci.yml",
                "/.github/checks.yml"
            ),
            renamed("[checks.yml](https://github.com/o/r/blob/main")
        );
        // A tail of the destination becomes the same tail of the new one.
        assert_eq!(
            Fix::renamed_link_text("See [src/a.py](", "../src/a.py", "../lib/core/a.py"),
            renamed("See [lib/core/a.py](")
        );
        // Text that does not name the file, or the same name in a new folder.
        assert_eq!(
            Fix::renamed_link_text("[the module](", "../src/store.py", "../src/ledger.py"),
            LinkText::Silent
        );
        assert_eq!(
            Fix::renamed_link_text("[a.md](", "./a.md", "../b/a.md"),
            LinkText::Silent
        );
        // A backticked path has no link text before it.
        assert_eq!(
            Fix::renamed_link_text("", "src/a.py", "src/b.py"),
            LinkText::Silent
        );
        // A word of the sentence that is the old name's stem, the new name
        // that stem with a variant: the word still names it.
        assert_eq!(
            Fix::renamed_link_text(
                "use [extend](https://github.com/o/r/blob/main",
                "/docs/zh-cn/extend.md",
                "/site/docs/extend.zh-CN.md"
            ),
            LinkText::Silent
        );
    }

    #[test]
    fn link_text_naming_the_old_target_in_words_is_no_one_edit() {
        assert_eq!(
            Fix::renamed_link_text(
                "See [Digital Identity](",
                "docs/digital-identity.md",
                "docs/one-login.md"
            ),
            LinkText::Unmendable("Digital Identity".to_owned())
        );
        assert_eq!(
            Fix::renamed_link_text(
                "As [Install steps](",
                "setup.md#install-steps",
                "setup.md#installing"
            ),
            LinkText::Unmendable("Install steps".to_owned())
        );
        // Every word of the old name, one of them gone from the new (a
        // number by its value).
        assert_eq!(
            Fix::renamed_link_text("[the store](", "../src/store.py", "../src/ledger.py"),
            LinkText::Unmendable("the store".to_owned())
        );
        assert_eq!(
            Fix::renamed_link_text(
                "Uses [10. JS Components](",
                "0010-js-components.md",
                "0016-js-components.md"
            ),
            LinkText::Unmendable("10. JS Components".to_owned())
        );
        // Words that do not name it: the destination alone.
        assert_eq!(
            Fix::renamed_link_text(
                "As [the setup page](",
                "setup.md#install-steps",
                "setup.md#installing"
            ),
            LinkText::Silent
        );
    }

    #[test]
    fn a_number_or_a_code_spelling_of_the_old_name_is_no_one_edit() {
        // `[ADR 0036]` for the record renumbered 47.
        assert_eq!(
            Fix::renamed_link_text(
                "See [ADR 0036](",
                "0036-reject-routing.md",
                "0047-reject-routing.md"
            ),
            LinkText::Unmendable("ADR 0036".to_owned())
        );
        // `GuideParser` for `guide_parser.rb`, renamed with its class.
        assert_eq!(
            Fix::renamed_link_text(
                "is [`Parsing::GuideParser`](",
                "../lib/guide_parser.rb",
                "../lib/parts_content_parser.rb"
            ),
            LinkText::Unmendable("`Parsing::GuideParser`".to_owned())
        );
        // A number the new name keeps is no name of the old.
        assert_eq!(
            Fix::renamed_link_text("See [ADR 0036](", "0036-routing.md", "0036-rejection.md"),
            LinkText::Silent
        );
    }

    #[test]
    fn a_passage_that_still_names_the_old_file_or_module_is_found() {
        use super::passage_names_old;
        let nested = "* ``arch/up_fb.c`` is built;\n\n   * ``up_fb.c`` provides ``up_init``.\n\n* Next item.\n";
        let at = nested.find("arch/").expect("cite");
        assert_eq!(
            passage_names_old(nested, at, "arch/up_fb.c", "arch/sim_fb.c").as_deref(),
            Some("up_fb.c")
        );
        // The next item of the list is another passage.
        let later = "* ``arch/up_fb.c`` is built;\n* ``up_fb.c`` provides it.\n";
        let at = later.find("arch/").expect("cite");
        assert_eq!(
            passage_names_old(later, at, "arch/up_fb.c", "arch/sim_fb.c"),
            None
        );
        let python = "## Use it\n\n```python\n# the file mygame/x.py\nfrom game.contrib import desc\n# [...]\n```\n\nWe import `game/contrib/desc.py` at the top.\n";
        let at = python.find("game/contrib/desc.py").expect("cite");
        assert_eq!(
            passage_names_old(
                python,
                at,
                "game/contrib/desc.py",
                "game/contrib/systems/desc/desc.py"
            )
            .as_deref(),
            Some("game.contrib.desc")
        );
        // A module made a package keeps its import.
        assert_eq!(
            passage_names_old(
                python,
                at,
                "game/contrib/desc.py",
                "game/contrib/desc/__init__.py"
            ),
            None
        );
        // Another section's import is not this passage's.
        let apart =
            "## One\n\nfrom game.contrib import desc\n\n## Two\n\nSee `game/contrib/desc.py`.\n";
        let at = apart.find("game/contrib/desc.py").expect("cite");
        assert_eq!(
            passage_names_old(apart, at, "game/contrib/desc.py", "game/x/desc.py"),
            None
        );
    }

    #[test]
    fn a_line_naming_the_old_number_or_folder_beside_its_link_is_no_one_edit() {
        use super::names_old_name;
        assert_eq!(
            names_old_name(
                "- ADR 0034: []()",
                "0034-provide-a-queue.md",
                "0045-provide-a-queue.md"
            ),
            Some("0034".to_owned())
        );
        // One digit is too common in prose to be the name's.
        assert_eq!(
            names_old_name("- Step 3: []()", "3-setup.md", "4-setup.md"),
            None
        );
        // A folder of the old path, gone from the new, named beside it.
        assert_eq!(
            names_old_name(
                "- []() is defined in the `support/sync15-traits` crate",
                "components/support/sync15-traits/src/engine.rs",
                "components/sync15/src/engine/sync_engine.rs"
            ),
            Some("sync15-traits".to_owned())
        );
        assert_eq!(
            names_old_name(
                "- []() is defined in the `sync15` crate",
                "components/support/sync15-traits/src/engine.rs",
                "components/sync15/src/engine/sync_engine.rs"
            ),
            None
        );
    }

    #[test]
    fn a_line_naming_the_old_target_beside_its_link_is_no_one_edit() {
        use super::names_old_name;
        let link = "https://github.com/o/r/tree/main/examples/start-bare";
        let renamed = "https://github.com/o/r/tree/main/examples/start-counter";
        assert_eq!(
            names_old_name("- [Bare]() (`start-bare`)", link, renamed),
            Some("start-bare".to_owned())
        );
        // Inside a longer name, or named by the new path too: not the old.
        assert_eq!(
            names_old_name("- [Bare]() (`start-bare-v2`)", link, renamed),
            None
        );
        assert_eq!(
            names_old_name("see `notes.md`", "docs/notes.md", "guide/notes.md"),
            None
        );
    }

    #[test]
    fn link_text_naming_the_old_target_another_way_is_no_one_edit() {
        // The text names the file from another folder than the link does:
        // swapping its name would name a file that is not there.
        assert_eq!(
            Fix::renamed_link_text(
                "[.github/CLAUDE.md](",
                "../.github/CLAUDE.md",
                "../AGENTS.md"
            ),
            LinkText::Renamed("[AGENTS.md](".to_owned())
        );
        // The text never climbs: the same number of last names instead.
        assert_eq!(
            Fix::renamed_link_text(
                "[docs/RELEASE.md](",
                "../docs/RELEASE.md",
                "../../docs/RELEASE.md"
            ),
            LinkText::Unmendable("docs/RELEASE.md".to_owned())
        );
        assert_eq!(
            Fix::renamed_link_text("[docs/CLAUDE.md](", "../.github/CLAUDE.md", "../AGENTS.md"),
            LinkText::Unmendable("docs/CLAUDE.md".to_owned())
        );
        // The name without its extension is a name too.
        assert_eq!(
            Fix::renamed_link_text(
                "- [0004-version-catalog](",
                "foundation/0004-version-catalog.md",
                "foundation/found-004-version-catalog.md"
            ),
            LinkText::Renamed("- [found-004-version-catalog](".to_owned())
        );
        // Prose naming the file, when the rename moved it: no name swap.
        assert_eq!(
            Fix::renamed_link_text("[see ios.md for it](", "./ios.md", "../mobile/apple.md"),
            LinkText::Unmendable("see ios.md for it".to_owned())
        );
    }

    /// `Fix::elsewhere` over `text`, with its definitions as the Markdown
    /// reader finds them.
    fn elsewhere(text: &str, start: usize, stated: &str, replacement: &str) -> Option<Fix> {
        let definitions = crate::records::markdown::Markdown::new(text).definitions;
        Fix::elsewhere(text, &definitions, start, stated, replacement)
    }

    #[test]
    fn a_destination_written_away_from_its_line_is_found_in_the_records_syntax() {
        let markdown = "See [the module][mod].\n\n[mod]: ../src/a.py \"the module\"\n";
        let fix = elsewhere(markdown, 4, "../src/a.py", "../src/b.py").expect("a fix");
        assert_eq!(
            &markdown[fix.offset..fix.offset + fix.length],
            "../src/a.py"
        );
        // Named twice by definitions, or only in prose: no one edit.
        let twice = format!("{markdown}[again]: ../src/a.py\n");
        assert_eq!(elsewhere(&twice, 4, "../src/a.py", "../src/b.py"), None);
        let prose = "See [it][x].\n\nThe file ../src/a.py is gone.\n";
        assert_eq!(elsewhere(prose, 4, "../src/a.py", "../src/b.py"), None);
        let rst = ".. literalinclude:: ../src/l.py\n   :lines: 2-3\n";
        let fix = elsewhere(rst, 3, "../src/l.py#L2-L3", ":lines: 4-5").expect("a fix");
        assert_eq!(&rst[fix.offset..fix.offset + fix.length], ":lines: 2-3");
        assert_eq!(fix.replacement, ":lines: 4-5");
    }

    #[test]
    fn a_links_text_and_address_numbering_the_same_lines_move_together() {
        let text = "See [route.ts:34](../src/route.ts#L34) for it.\n";
        let edit = |stated: &str, replacement: &str| {
            let offset = text.find(stated).expect("stated");
            let fix = Fix {
                offset,
                length: stated.len(),
                replacement: replacement.to_owned(),
            };
            Fix::with_link_partner(text, fix, stated, replacement).map(|fix| {
                let mut after = text.to_owned();
                after.replace_range(fix.offset..fix.offset + fix.length, &fix.replacement);
                after
            })
        };
        let both = "See [route.ts:83](../src/route.ts#L83) for it.\n".to_owned();
        assert_eq!(edit("route.ts:34", "route.ts:83"), Some(both.clone()));
        assert_eq!(
            edit("../src/route.ts#L34", "../src/route.ts#L83"),
            Some(both)
        );
        // Text numbering other lines than its address: no one edit.
        let other = "See [route.ts:30](../src/route.ts#L34) for it.\n";
        let offset = other.find("../src").expect("stated");
        let fix = Fix {
            offset,
            length: "../src/route.ts#L34".len(),
            replacement: "../src/route.ts#L83".to_owned(),
        };
        assert_eq!(
            Fix::with_link_partner(other, fix, "../src/route.ts#L34", "../src/route.ts#L83"),
            None
        );
    }

    #[test]
    fn a_lineno_start_that_numbers_from_the_first_line_taken_moves_with_it() {
        let rst = ".. literalinclude:: ../src/l.py\n   :lines: 12-14\n   :lineno-start: 12\n   :emphasize-lines: 2\n\nAfter.\n";
        let fix = elsewhere(rst, 3, "../src/l.py#L12-L14", ":lines: 20-22").expect("a fix");
        let mut after = rst.to_owned();
        after.replace_range(fix.offset..fix.offset + fix.length, &fix.replacement);
        assert_eq!(
            after,
            ".. literalinclude:: ../src/l.py\n   :lines: 20-22\n   :lineno-start: 20\n   :emphasize-lines: 2\n\nAfter.\n"
        );
        // Numbered otherwise: the author's numbering stays.
        let own = ".. literalinclude:: ../src/l.py\n   :lineno-start: 1\n   :lines: 12-14\n";
        let fix = elsewhere(own, 3, "../src/l.py#L12-L14", ":lines: 20-22").expect("a fix");
        assert_eq!(&own[fix.offset..fix.offset + fix.length], ":lines: 12-14");
        // A `:lineno-start:` of the next directive is not this one's.
        let next = ".. literalinclude:: ../src/l.py\n   :lines: 12-14\n\n.. literalinclude:: ../src/m.py\n   :lineno-start: 12\n";
        let fix = elsewhere(next, 3, "../src/l.py#L12-L14", ":lines: 20-22").expect("a fix");
        assert_eq!(&next[fix.offset..fix.offset + fix.length], ":lines: 12-14");
    }

    #[test]
    fn a_definition_inside_a_code_block_is_an_example_and_never_edited() {
        // The example is the only line that looks like a definition; the
        // real one has its destination on the next line, in angle brackets.
        let text = "See [two].\n\n```md\n[two]: ../src/a.py\n```\n\n    [two]: ../src/a.py\n\n\
                    [two]:\n  <../src/a.py> 'title'\n";
        let fix = elsewhere(text, 4, "../src/a.py", "../src/b.py").expect("a fix");
        assert_eq!(&text[fix.offset..fix.offset + fix.length], "../src/a.py");
        assert!(text[..fix.offset].ends_with("[two]:\n  <"), "{fix:?}");
        // Only the examples: nothing to edit.
        let examples = "See [two].\n\n```md\n[two]: ../src/a.py\n```\n";
        assert_eq!(elsewhere(examples, 4, "../src/a.py", "../src/b.py"), None);
        // A destination that only starts with the stated path is another.
        let longer = "See [two].\n\n[two]: ../src/a.py.bak\n";
        assert_eq!(elsewhere(longer, 4, "../src/a.py", "../src/b.py"), None);
    }
}
