//! Stage 5 of the pipeline (the report): baselines. A baseline is a file of the
//! fingerprints ([`super::fingerprint`]) of findings a team has accepted as
//! known debt; a run given one fails only on findings that are not in it, counts
//! the known ones, and lists the entries that no longer occur so the file only
//! shrinks. Reading, rendering and applying it are data in, data out; the CLI
//! reads and writes the file.

use std::collections::BTreeSet;
use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize};

use super::{Report, Reported};
use crate::error::Error;

/// The version of the baseline file's shape (its `recount_baseline` field).
pub const VERSION: u32 = 1;

/// How many stale entries the note names.
const STALE_SHOWN: usize = 5;

/// A baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Always [`VERSION`]; any other value is refused rather than guessed at.
    #[serde(deserialize_with = "version")]
    pub recount_baseline: u32,
    pub findings: Vec<Entry>,
}

/// One known finding. Only the fingerprint is matched; the other fields are
/// for the people who review the file in a pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    #[serde(deserialize_with = "fingerprint")]
    pub fingerprint: String,
    pub check: String,
    pub path: String,
    /// The normalised text the fingerprint was made from.
    pub stated: String,
}

impl Entry {
    /// The order of a baseline file: by path, then check, then text, so it
    /// reads as the report does and a rewrite changes only what changed.
    fn order(&self) -> (&str, &str, &str, &str) {
        (&self.path, &self.check, &self.stated, &self.fingerprint)
    }
}

fn version<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let found = u32::deserialize(deserializer)?;
    if found == VERSION {
        Ok(found)
    } else {
        Err(serde::de::Error::custom(format!(
            "this is a version {found} baseline; this recount reads version {VERSION}"
        )))
    }
}

fn fingerprint<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = String::deserialize(deserializer)?;
    if super::fingerprint::is_fingerprint(&text) {
        Ok(text)
    } else {
        Err(serde::de::Error::custom(
            "a fingerprint is 16 lowercase hex digits",
        ))
    }
}

/// How a run fared against a baseline, as the JSON report carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Applied {
    /// The baseline file, as given.
    pub file: String,
    /// Findings of this run the baseline knows: left out of `findings`.
    pub known: usize,
    /// Baseline entries no finding of this run has: debt paid, to be removed.
    pub stale: Vec<Entry>,
}

impl Baseline {
    /// The baseline of `findings`: one entry each, sorted, so the same findings
    /// always give the same file.
    pub fn of(report: &Report) -> Baseline {
        let mut findings: Vec<Entry> = report
            .findings
            .iter()
            .map(|f| Entry {
                path: f.location.path.clone(),
                check: f.check.as_str().to_owned(),
                stated: super::fingerprint::claim_text(f, &report.sources),
                fingerprint: f.fingerprint.clone(),
            })
            .collect();
        findings.sort_by(|a, b| a.order().cmp(&b.order()));
        Baseline {
            recount_baseline: VERSION,
            findings,
        }
    }

    /// The file's text: pretty JSON, outside text escaped as in every report,
    /// ending with a newline.
    pub fn render(&self) -> String {
        let mut text = super::escape::json_pretty(self)
            .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise the baseline: {e}\"}}"));
        text.push('\n');
        text
    }

    /// Reads a baseline file's text; `name` is how errors name the file. A file
    /// that is not a version-1 baseline is an error at its line and column.
    pub fn parse(name: &str, text: &str) -> Result<Baseline, Error> {
        serde_json::from_str(text).map_err(|e| {
            let at = byte_offset(text, e.line(), e.column());
            let label = match e.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    "not JSON"
                }
                serde_json::error::Category::Data | serde_json::error::Category::Io => {
                    "not a baseline"
                }
            };
            // The location is shown by the diagnostic; serde_json's message
            // repeats it at its end.
            let message = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let message = message.strip_suffix(&suffix).unwrap_or(&message);
            located(
                name,
                text,
                at..at,
                format!("cannot read the baseline {name}: {message}"),
                label,
            )
            .with_help(format!(
                "a baseline is {{\"recount_baseline\": {VERSION}, \"findings\": [...]}} as \
                     `recount check --write-baseline FILE` writes it; run that to write it anew"
            ))
        })
    }

    /// Splits `report`'s findings against the baseline: the known ones leave
    /// `findings` and are counted, and the entries no finding matched are listed.
    /// Notes say both, so every format tells the reader.
    pub fn apply(&self, file: &str, report: &mut Report) {
        let known: BTreeSet<&str> = self
            .findings
            .iter()
            .map(|e| e.fingerprint.as_str())
            .collect();
        let found: BTreeSet<String> = report
            .findings
            .iter()
            .map(|f| f.fingerprint.clone())
            .collect();
        let before = report.findings.len();
        report
            .findings
            .retain(|f: &Reported| !known.contains(f.fingerprint.as_str()));
        let mut stale: Vec<Entry> = self
            .findings
            .iter()
            .filter(|e| !found.contains(&e.fingerprint))
            .cloned()
            .collect();
        stale.sort_by(|a, b| a.order().cmp(&b.order()));
        stale.dedup();
        let applied = Applied {
            file: file.to_owned(),
            known: before - report.findings.len(),
            stale,
        };
        if applied.known > 0 {
            report.notes.push(format!(
                "{} in the baseline {file}, left out",
                counted(applied.known, "known finding")
            ));
        }
        if !applied.stale.is_empty() {
            // A note is one line: the first few entries, and JSON for the rest.
            let mut listed: Vec<String> = applied
                .stale
                .iter()
                .take(STALE_SHOWN)
                .map(|e| format!("{} {} `{}`", e.check, e.path, e.stated))
                .collect();
            if applied.stale.len() > STALE_SHOWN {
                listed.push(format!(
                    "and {} more (`--format json` lists them all)",
                    applied.stale.len() - STALE_SHOWN
                ));
            }
            report.notes.push(format!(
                "{} no longer {}: remove {} (debt only shrinks; \
                 `recount check --write-baseline {file}` rewrites it): {}",
                counted(applied.stale.len(), "baseline entry"),
                if applied.stale.len() == 1 {
                    "occurs"
                } else {
                    "occur"
                },
                if applied.stale.len() == 1 {
                    "it"
                } else {
                    "them"
                },
                listed.join("; ")
            ));
        }
        report.baseline = Some(applied);
    }
}

/// `1 known finding`, `2 baseline entries`.
fn counted(n: usize, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        (_, None) => format!("{n} {noun}s"),
    }
}

/// A baseline error at `span` of the file, shown as JSON.
fn located(name: &str, text: &str, span: Range<usize>, message: String, label: &str) -> Error {
    Error::located_in("json", name, text, span, message, label)
}

/// The byte offset of serde_json's 1-based `line` and `column` (bytes; 0 when
/// the error is at a line's end), clamped into the text.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rendered_baseline_reads_back() {
        let baseline = Baseline {
            recount_baseline: VERSION,
            findings: vec![Entry {
                path: "docs/a.md".to_owned(),
                check: "stale-path-cite".to_owned(),
                stated: "src/old.py".to_owned(),
                fingerprint: "0123456789abcdef".to_owned(),
            }],
        };
        assert_eq!(
            Baseline::parse("b.json", &baseline.render()).ok(),
            Some(baseline)
        );
    }

    #[test]
    fn errors_point_at_the_bytes_at_fault() {
        let text = "{\n  \"recount_baseline\": 2,\n  \"findings\": []\n}\n";
        let Err(Error::Located { span, message, .. }) = Baseline::parse("b.json", text) else {
            panic!("a version 2 baseline is refused");
        };
        assert!(message.contains("version 2"), "{message}");
        assert_eq!(&text[..span.offset()].lines().count(), &2);
        for bad in [
            "",
            "[]",
            "{\"recount_baseline\": 1}",
            "{\"recount_baseline\": 1, \"findings\": [{\"fingerprint\": \"xyz\"}]}",
        ] {
            assert!(
                matches!(Baseline::parse("b.json", bad), Err(Error::Located { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn offsets_stay_inside_the_text() {
        assert_eq!(byte_offset("ab\ncd", 2, 2), 4);
        assert_eq!(byte_offset("ab\ncd", 9, 9), 5);
        assert_eq!(byte_offset("é", 1, 2), 0);
        assert_eq!(byte_offset("", 1, 0), 0);
    }

    #[test]
    fn stale_entries_are_all_in_the_json_and_the_first_few_in_the_note() {
        let entry = |i: usize| Entry {
            fingerprint: format!("{i:016x}"),
            check: "stale-path-cite".to_owned(),
            path: "docs/a.md".to_owned(),
            stated: format!("gone-{i}.md"),
        };
        let baseline = Baseline {
            recount_baseline: VERSION,
            findings: (0..7).map(entry).collect(),
        };
        let mut report = Report::failed(
            "working tree",
            super::super::RunError {
                code: "recount::run".to_owned(),
                message: String::new(),
                path: None,
                line: None,
                column: None,
                label: None,
                help: None,
            },
        );
        baseline.apply("b.json", &mut report);
        let applied = report.baseline.as_ref().expect("applied");
        assert_eq!((applied.known, applied.stale.len()), (0, 7));
        assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
        let note = &report.notes[0];
        assert!(
            note.starts_with("7 baseline entries no longer occur: remove them"),
            "{note}"
        );
        assert!(note.contains("`gone-4.md`; and 2 more"), "{note}");
        assert!(!note.contains("gone-5.md"), "{note}");
    }

    #[test]
    fn nouns_are_counted() {
        assert_eq!(counted(1, "baseline entry"), "1 baseline entry");
        assert_eq!(counted(2, "baseline entry"), "2 baseline entries");
        assert_eq!(counted(3, "known finding"), "3 known findings");
    }
}
