//! Drafting, beside the pipeline (`recount init`): reads a snapshot's records
//! and the tree they describe, and drafts a rule file in which every rule ties
//! one claim a record makes to something the tree holds — a derivation over
//! constants found by name, a constant's stated value, a folder's file count, a
//! literal's entry count, a retired figure, the test roots citations imply.
//! What it recognises but cannot tie to the tree is listed, with why, so the
//! draft says what it left out. Like every stage it returns data; the CLI writes.

pub mod claim;
pub mod counts;
pub mod figures;
pub mod named_values;
pub mod registrations;
pub mod render;
pub mod retired;
pub mod roots;
pub mod searches;
pub mod shapes;
pub mod weigh;

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Arc;

use crate::checks::cites::exemptions::is_test_material;
use crate::checks::cites::locate::is_vendored;
use crate::checks::cites::releases::is_changelog;
use crate::constants::{Constant, ConstantError, Constants};
use crate::records::Record;
use crate::records::frames::DeclaredFrame;
use crate::snapshot::{GitRepo, Snapshot};

/// Records larger than this are not read for drafting (a generated page, a
/// dump): a rule drafted from one would be about data, not prose.
const MAX_RECORD_BYTES: usize = 1 << 20;

/// Where a drafted rule's claim is: a record and the 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub record: String,
    pub line: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.record, self.line)
    }
}

/// A fact's frame, as the record's section declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftAt {
    Rev(String),
    Date(String),
}

/// What a drafted fact computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DraftKind {
    /// `files = GLOB`.
    Files(String),
    /// `entries = NAME` in `file`.
    Entries { name: String, file: String },
    /// `constant = NAME`.
    Constant(String),
    /// `expr = EXPR`.
    Expr(String),
    /// `count = PATTERN` in `file`: a registration call's occurrences.
    Count { pattern: String, file: String },
    /// `grep = PATTERN` under `paths`: a search the record ran.
    Grep {
        pattern: String,
        ignore_case: bool,
        paths: Vec<String>,
    },
}

/// How a drafted fact is tied to the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// By what the record itself names: a constant, a folder, a literal, an
    /// expression, a search it ran. Drafted whatever the tree gives now.
    Named,
    /// By a named heuristic (a registration call named after the noun
    /// counted): drafted only when the tree gave the stated figure at the
    /// frame, when the line was written, or now.
    Guessed,
}

/// A frame the record declares over a drafted claim.
#[derive(Debug, Clone)]
pub struct DeclaredAt {
    pub frame: DeclaredFrame,
    /// What declares it, for the rule's comment: "the record's section
    /// marker", "the search's own revision".
    pub by: String,
}

/// One drafted `[[fact]]` with its one claim.
#[derive(Debug, Clone)]
pub struct DraftFact {
    pub id: String,
    /// What it checks, for the comment above it.
    pub what: String,
    pub place: Place,
    /// The record's words, for the comment: what the claim is.
    pub quote: String,
    /// The frame the record declares over the claim's passage (a header, a
    /// section, a paragraph, an amendment), as written.
    pub declared: Option<DeclaredAt>,
    /// The frame the rule is pinned to, chosen by weighing the draft against
    /// the history ([`weigh`]); `None`: the audited tree.
    pub at: Option<DraftAt>,
    pub tie: Tie,
    /// What weighing found, for the comment above the rule.
    pub weighed: weigh::Weighed,
    pub kind: DraftKind,
    /// A constant the value must equal (`NAME = EXPR` in the record).
    pub equals: Option<String>,
    /// The `says` pattern, unique in its record (`None`: the fact is an
    /// `equals` check alone).
    pub says: Option<String>,
}

/// One drafted `[[retired]]`.
#[derive(Debug, Clone)]
pub struct DraftRetired {
    pub id: String,
    pub phrase: String,
    pub place: Place,
    pub quote: String,
}

/// A passage recount recognised and did not turn into a rule, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NotDrafted {
    pub place: Place,
    pub quote: String,
    pub why: String,
}

/// The whole draft.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// What was read: `working tree` or a short commit id.
    pub label: String,
    pub records_read: usize,
    /// Records that are verbatim copies of another (copy, original): read
    /// once, as the original.
    pub copies: Vec<(String, String)>,
    /// `[recount] records`: the globs of the records the claims are in.
    pub records: Vec<String>,
    /// `[constants]`: every constant a drafted rule names, and its file.
    pub constants: BTreeMap<String, String>,
    pub test_roots: Vec<roots::TestRoot>,
    pub facts: Vec<DraftFact>,
    pub retired: Vec<DraftRetired>,
    /// Passages that retire a claim with no phrase recount could pin.
    pub retired_candidates: Vec<NotDrafted>,
    pub not_drafted: Vec<NotDrafted>,
    /// A rule to start from when none was drafted: the records' largest
    /// folder, counted.
    pub example: Option<Example>,
}

/// A `files` fact this tree gives a value to today, shown (commented out)
/// in a draft with no rule of its own: what a rule is, in the user's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The folder the records are most in (`docs`).
    pub folder: String,
    /// The glob counted (`docs/**/*.md`).
    pub glob: String,
    /// How many files it matches today.
    pub count: usize,
}

/// The folder (its first part) most of the records are in, with the
/// records' most common suffix there, and how many files of the tree the
/// glob matches: `docs/**/*.rst`, 37. Ties go to the first in path order;
/// no folder (every record at the root) gives none.
fn example_of(records: &[Arc<Record>], paths: &[String]) -> Option<Example> {
    let mut by_folder: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for record in records {
        let Some((folder, _)) = record.path.split_once('/') else {
            continue;
        };
        let suffix = record.path.rsplit_once('.').map_or("md", |(_, s)| s);
        *by_folder.entry((folder, suffix)).or_insert(0) += 1;
    }
    let mut best: Option<((&str, &str), usize)> = None;
    for (key, count) in by_folder {
        if best.is_none_or(|(_, most)| count > most) {
            best = Some((key, count));
        }
    }
    let ((folder, suffix), _) = best?;
    let (prefix, ending) = (format!("{folder}/"), format!(".{suffix}"));
    let count = paths
        .iter()
        .filter(|p| p.starts_with(&prefix) && p.ends_with(&ending))
        .count();
    Some(Example {
        folder: folder.to_owned(),
        glob: format!("{folder}/**/*.{suffix}"),
        count,
    })
}

/// The records and the tree the finders read, and what they have drafted so far.
pub struct Scan {
    pub snapshot: Arc<dyn Snapshot>,
    pub constants: Constants,
    /// Records in path order.
    pub records: Vec<Arc<Record>>,
    resolved: std::sync::Mutex<HashMap<String, Result<Constant, ConstantError>>>,
}

impl Scan {
    /// Reads the records of `snapshot`: every Markdown, MDX or
    /// reStructuredText file that is the project's own documentation (not
    /// vendored, not test material).
    pub fn new(snapshot: Arc<dyn Snapshot>) -> std::io::Result<Scan> {
        let mut records = Vec::new();
        for path in snapshot.paths() {
            let lower = path.to_ascii_lowercase();
            if ![".md", ".markdown", ".mdx", ".rst"]
                .iter()
                .any(|suffix| lower.ends_with(suffix))
                || is_vendored(path)
                || is_test_material(path)
            {
                continue;
            }
            let Some(text) = snapshot.read_text(path)? else {
                continue;
            };
            if text.len() > MAX_RECORD_BYTES {
                continue;
            }
            records.push(Arc::new(Record::new(path, text)));
        }
        Ok(Scan {
            constants: Constants::new(Arc::clone(&snapshot)),
            snapshot,
            records,
            resolved: std::sync::Mutex::new(HashMap::new()),
        })
    }

    /// A constant by name, searched for in the whole tree, remembered.
    pub fn constant(&self, name: &str) -> Result<Constant, ConstantError> {
        let mut cache = self
            .resolved
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .entry(name.to_owned())
            .or_insert_with(|| match self.constants.resolve(name, None) {
                // Fixtures and vendored copies define the project's names again;
                // the project's own definition is the one a rule means.
                Err(ConstantError::Ambiguous { candidates, name }) => {
                    let mut own: Vec<&str> = candidates
                        .iter()
                        .filter_map(|c| c.rsplit_once(':').map(|(file, _)| file))
                        .filter(|file| !is_test_material(file) && !is_vendored(file))
                        .collect();
                    own.dedup();
                    match own.as_slice() {
                        [file] => self.constants.resolve(&name, Some(file)),
                        [] => Err(ConstantError::NotFound { name }),
                        _ => Err(ConstantError::Ambiguous { candidates, name }),
                    }
                }
                other => other,
            })
            .clone()
    }

    /// The records figures are drafted from: changelogs are history, their
    /// figures true of a release, not of the tree.
    pub fn prose_records(&self) -> impl Iterator<Item = &Arc<Record>> {
        self.records.iter().filter(|r| !is_changelog(&r.path))
    }
}

/// One place in a record's prose view a finder matched.
pub struct Hit<'a> {
    pub record: &'a Record,
    /// The whole match, in prose offsets.
    pub whole: Range<usize>,
    /// The stated value, in prose offsets.
    pub value: Range<usize>,
}

impl Hit<'_> {
    pub fn place(&self) -> Place {
        let raw = self.record.prose().raw_offset(self.value.start);
        Place {
            record: self.record.path.clone(),
            line: self.record.line_col(raw).0,
        }
    }

    /// The `says` pattern for the value, or `None` with the passage listed as
    /// not drafted: no pattern finds the value alone.
    pub fn says_or_list(&self, not_drafted: &mut Vec<NotDrafted>) -> Option<String> {
        let says = claim::says_for(self.record, self.value.clone());
        if says.is_none() {
            not_drafted.push(NotDrafted {
                place: self.place(),
                quote: self.quote(),
                why: claim::NOT_ALONE.to_owned(),
            });
        }
        says
    }

    /// The record's words around the match, on one line, shortened.
    pub fn quote(&self) -> String {
        quote(self.record.prose().text(), self.whole.clone())
    }

    /// The frame that governs the value's passage, as the record declares
    /// it: its header's, section's, paragraph's or amendment's, the one its
    /// citations are read at too. Which commit the rule is pinned to is
    /// decided by weighing ([`weigh`]).
    pub fn frame(&self) -> Option<DeclaredAt> {
        let raw = self.record.prose().raw_offset(self.value.start);
        let frame = crate::checks::cites::find::governing_frame(
            &self.record.text,
            self.record.markdown(),
            raw,
        )?;
        Some(DeclaredAt {
            by: format!("the record's {}", frame.by.as_str()),
            frame,
        })
    }
}

/// Whether a prose range lies in a fenced or indented code block (the prose
/// view keeps code verbatim; a figure in a code sample is not a claim).
pub fn in_code(record: &Record, prose: &Range<usize>) -> bool {
    let raw = record.prose().raw_offset(prose.start);
    record
        .markdown()
        .fence_regions()
        .iter()
        .any(|r| r.contains(&raw))
}

/// `text[range]` on one line, at most 120 characters.
pub fn quote(text: &str, range: Range<usize>) -> String {
    let words: Vec<&str> = text.get(range).unwrap_or("").split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= 120 {
        joined
    } else {
        let cut: String = joined.chars().take(117).collect();
        format!("{cut}...")
    }
}

/// A rule id from words: lowercase, `-` between runs of letters and digits.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_end_matches('-');
    let mut id: String = trimmed.chars().take(48).collect();
    while id.ends_with('-') {
        id.pop();
    }
    if id.is_empty() { "fact".to_owned() } else { id }
}

/// Drafts a rule file from the records and tree of `snapshot`, a tree of
/// `repo`, each drafted fact weighed against `repo`'s history.
pub fn draft(repo: &GitRepo, snapshot: Arc<dyn Snapshot>) -> crate::error::Result<Draft> {
    let label = snapshot.label();
    let mut scan = Scan::new(snapshot).map_err(|e| {
        crate::error::Error::plain(format!("cannot read the repository's files: {e}"))
    })?;
    // A knowledge store's verbatim copies of the records are read once, as
    // their originals, as `check` reads them: a rule per copy would say
    // every figure twice.
    let texts: Vec<(String, Arc<str>)> = scan
        .records
        .iter()
        .map(|r| (r.path.clone(), Arc::clone(&r.text)))
        .collect();
    let copies = crate::checks::cites::exemptions::copied_record::copies_in(
        repo,
        scan.snapshot.as_ref(),
        scan.snapshot.commit().as_deref(),
        &texts,
    );
    scan.records.retain(|r| !copies.contains_key(&r.path));
    let mut draft = Draft {
        label,
        records_read: scan.records.len() + copies.len(),
        copies: copies.into_iter().collect(),
        ..Draft::default()
    };
    figures::draft(&scan, &mut draft);
    counts::draft(&scan, &mut draft);
    registrations::draft(&scan, &mut draft);
    searches::draft(&scan, &mut draft);
    named_values::draft(&scan, &mut draft);
    retired::draft(&scan, &mut draft);
    draft.test_roots = roots::infer(&scan);
    draft.example = example_of(&scan.records, scan.snapshot.paths());
    finish(&mut draft);
    weigh::weigh(&mut draft, &scan, repo)?;
    finish(&mut draft);
    Ok(draft)
}

/// Ids made unique, facts in record order, the `[recount] records` globs.
fn finish(draft: &mut Draft) {
    draft
        .facts
        .sort_by(|a, b| a.place.cmp(&b.place).then(a.id.cmp(&b.id)));
    let mut seen: HashMap<String, usize> = HashMap::new();
    for fact in &mut draft.facts {
        let n = seen.entry(fact.id.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            fact.id = format!("{}-{n}", fact.id);
        }
    }
    let mut globs: Vec<String> = draft
        .facts
        .iter()
        .filter(|f| f.says.is_some())
        .map(|f| {
            // The record's own kind: a claim drafted from `docs/x.rst` is
            // looked for in `docs/*.rst`.
            let suffix = f
                .place
                .record
                .rsplit_once('.')
                .map_or("md", |(_, suffix)| suffix);
            match f.place.record.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/*.{suffix}"),
                None => format!("*.{suffix}"),
            }
        })
        .collect();
    globs.sort();
    globs.dedup();
    draft.records = globs;
    draft.not_drafted.sort();
    draft.not_drafted.dedup();
    draft.retired_candidates.sort();
    draft.retired_candidates.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_rule_ids() {
        assert_eq!(slug("MAX_SOURCE_FILE_BYTES"), "max-source-file-bytes");
        assert_eq!(slug("_PROJECT_ID_FACES"), "project-id-faces");
        assert_eq!(slug("schemas/mcp/"), "schemas-mcp");
        assert_eq!(slug("***"), "fact");
    }

    #[test]
    fn quotes_are_one_shortened_line() {
        assert_eq!(quote("a\n  b c", 0..7), "a b c");
        let long = "word ".repeat(40);
        let q = quote(&long, 0..long.len());
        assert!(q.ends_with("...") && q.chars().count() == 120);
    }
}
