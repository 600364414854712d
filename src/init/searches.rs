//! Drafting: the count of a search a record ran and showed — "Searching for
//! it at the measured commit gives five hits:" above a `$ git grep -n PATTERN
//! REV -- PATHS` block — becomes a `grep` fact over the same pattern and path
//! specs, measured at the revision the command names (else at the frame
//! governing the passage). The block itself is re-run by the transcript
//! checks; the figure in the prose above it is what nothing else holds.
//!
//! Drafted only when the command is one a `grep` fact computes exactly: `git
//! grep` of one literal pattern, one hit per matching line (no `-c`, `-l`,
//! `-v`, `-o`, `-w`), its lines only cut, sorted or counted after it. The
//! stated count is the one count of hits, lines or matches in the paragraph
//! that introduces the block, or the number an inline key states (`git grep
//! -n x -- src` "returns exactly two lines"): the transcript check re-runs
//! that key too, and defers to the drafted claim on the same characters.

use std::sync::OnceLock;

use regex::Regex;

use super::counts::COUNT;
use super::{DeclaredAt, Draft, DraftFact, DraftKind, Hit, NotDrafted, Scan, Tie, slug};
use crate::checks::transcripts::find::{Form, Found, find};
use crate::checks::transcripts::parse::{Filter, GrepOptions, Source, Syntax, parse};
use crate::records::Record;
use crate::records::frames::{Declaration, DeclaredFrame};

fn stated_hits() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<value>{COUNT})\s+(?:hits?|lines?|matches|results?|occurrences|references|mentions)\b"
        ))
        .expect("the hit-count pattern compiles")
    })
}

/// What a search computes, when a `grep` fact computes exactly that: the
/// pattern, whether case is ignored, the path specs, and the revision the
/// command names.
struct Search {
    pattern: String,
    ignore_case: bool,
    specs: Vec<String>,
    rev: Option<String>,
}

/// Why a `git grep` line is not one a `grep` fact computes, or the search.
fn search_of(command: &str) -> Option<Result<Search, String>> {
    let pipeline = parse(command).ok()?;
    let Source::GitGrep {
        options,
        revs,
        specs,
        dashdash,
    } = pipeline.source
    else {
        return None;
    };
    Some((|| {
        let GrepOptions {
            patterns,
            syntax,
            ignore_case,
            word,
            invert,
            count,
            files_only,
            only_matching,
            ..
        } = options;
        if count || files_only || invert || only_matching || word {
            return Err(
                "the search counts something other than matching lines (-c, -l, -v, -o or -w)"
                    .to_owned(),
            );
        }
        let [pattern] = patterns.as_slice() else {
            return Err("the search has more than one pattern".to_owned());
        };
        let literal = syntax == Syntax::Fixed
            || !pattern.contains([
                '.', '[', ']', '*', '^', '$', '\\', '+', '?', '(', ')', '{', '}', '|',
            ]);
        if !literal {
            return Err(
                "its pattern is a regular expression in grep's dialect; write the rule's by hand"
                    .to_owned(),
            );
        }
        // Lines cut, sorted or counted are still one per hit.
        if pipeline.filters.iter().any(|f| {
            !matches!(
                f,
                Filter::Cut { .. } | Filter::WcLines | Filter::Sort { unique: false, .. }
            )
        }) {
            return Err("its output is filtered beyond cut, sort and wc -l".to_owned());
        }
        // Without `--`, git decides whether a word is a revision or a path.
        let (rev, specs) = match (revs.as_slice(), dashdash) {
            ([], _) => (None, specs),
            ([rev], true) => (Some(rev.clone()), specs),
            _ => return Err("its revisions and paths are not told apart by `--`".to_owned()),
        };
        Ok(Search {
            pattern: pattern.clone(),
            ignore_case,
            specs,
            rev,
        })
    })())
}

/// Where a record states the count of a search it shows: the one count of
/// hits, lines or matches in the paragraph that introduces a block (ending
/// with a colon), or the number an inline key gives (`git grep -n x -- src`
/// "returns exactly two lines"). `None` when it states none, or several.
fn stated_count<'r>(record: &'r Record, transcript: &Found) -> Option<Hit<'r>> {
    let prose = record.prose().text();
    if transcript.form == Form::Inline {
        let (span, _) = transcript.stated.as_ref()?;
        let view = record.prose();
        let value = view.prose_offset(span.start)..view.prose_offset(span.end);
        let whole = view.prose_offset(transcript.span.start)..value.end;
        return (!value.is_empty() && prose.get(value.clone()).is_some()).then_some(Hit {
            record,
            whole,
            value,
        });
    }
    if transcript.block.is_some_and(|(_, at)| at > 0) {
        return None;
    }
    // The paragraph just above the block, in the prose view.
    let fence = record
        .markdown()
        .fence_regions()
        .into_iter()
        .find(|r| r.contains(&transcript.span.start))?;
    let block_start = record.prose().prose_offset(fence.start).min(prose.len());
    let above = prose.get(..block_start)?.trim_end();
    let line_start = above.rfind('\n').map_or(0, |i| i + 1);
    let paragraph = above.get(line_start..).unwrap_or("");
    if !paragraph.trim_end().ends_with(':') {
        return None;
    }
    let counts: Vec<_> = stated_hits().captures_iter(paragraph).collect();
    let [caps] = counts.as_slice() else {
        return None;
    };
    let (value, whole) = (caps.name("value")?, caps.get(0)?);
    Some(Hit {
        record,
        whole: line_start + whole.start()..line_start + whole.end(),
        value: line_start + value.start()..line_start + value.end(),
    })
}

/// Drafts a `grep` fact for each search count a record states beside the
/// search it shows.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    for record in scan.prose_records() {
        for transcript in find(&record.text, record.markdown()) {
            let Some(search) = search_of(&transcript.command) else {
                continue;
            };
            let Some(hit) = stated_count(record, &transcript) else {
                continue;
            };
            let search = match search {
                Ok(search) => search,
                Err(why) => {
                    draft.not_drafted.push(NotDrafted {
                        place: hit.place(),
                        quote: hit.quote(),
                        why: format!("`{}`: {why}", transcript.command.trim()),
                    });
                    continue;
                }
            };
            let Some(says) = hit.says_or_list(&mut draft.not_drafted) else {
                continue;
            };
            // The revision the command searches is the frame the count was
            // taken at; without one, the passage's own frame.
            let declared = match &search.rev {
                Some(rev) => Some(DeclaredAt {
                    frame: DeclaredFrame {
                        at: transcript.span.start,
                        sha: Some((rev.clone(), transcript.span.clone())),
                        date: None,
                        by: Declaration::Paragraph,
                        governs: transcript.span.clone(),
                    },
                    by: "the search's own command".to_owned(),
                }),
                // An inline key's own day ("→ 7, 2026-09-13)"), else the
                // passage's frame.
                None => match transcript
                    .day
                    .as_deref()
                    .and_then(crate::snapshot::Day::parse)
                {
                    Some(day) => Some(DeclaredAt {
                        frame: DeclaredFrame {
                            at: transcript.span.start,
                            sha: None,
                            date: Some((day, transcript.span.clone())),
                            by: Declaration::Paragraph,
                            governs: transcript.span.clone(),
                        },
                        by: "the day closing its parenthesis".to_owned(),
                    }),
                    None => hit.frame(),
                },
            };
            let under = if search.specs.is_empty() {
                String::new()
            } else {
                format!(" under {}", search.specs.join(", "))
            };
            draft.facts.push(DraftFact {
                id: format!("hits-of-{}", slug(&search.pattern)),
                what: format!(
                    "Counts the lines matching `{}`{under}, as the record's `git grep` does",
                    search.pattern
                ),
                place: hit.place(),
                quote: hit.quote(),
                declared,
                at: None,
                tie: Tie::Named,
                weighed: Default::default(),
                kind: DraftKind::Grep {
                    pattern: search.pattern,
                    ignore_case: search.ignore_case,
                    paths: search.specs,
                },
                equals: None,
                says: Some(says),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_is_drafted_only_when_a_grep_fact_computes_it() {
        let search =
            search_of(r#"git grep -n "tool-context" 77b14e7a -- packages schemas | cut -d: -f2,3"#)
                .unwrap()
                .unwrap();
        assert_eq!(search.pattern, "tool-context");
        assert_eq!(search.rev.as_deref(), Some("77b14e7a"));
        assert_eq!(search.specs, ["packages", "schemas"]);
        assert!(search_of("git grep -l MAX_BODY 151f400e").unwrap().is_err());
        assert!(search_of("git grep -n 'a.*b' -- src").unwrap().is_err());
        assert!(
            search_of("git grep -n x -- src | head -3")
                .unwrap()
                .is_err()
        );
        assert!(search_of("grep -rn x src").is_none());
        let caps = stated_hits()
            .captures("at the measured commit gives five hits:")
            .unwrap();
        assert_eq!(&caps["value"], "five");
    }
}
