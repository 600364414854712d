//! Stage 4 of the pipeline: checks. Each check reads the audited facts and the
//! records' claims (never the repository) and returns findings as data. One file
//! per check; [`CheckId`] is the registry, and each check's doc comment has the
//! fixed sections `recount explain ID` prints.

pub mod audited;
pub mod bounds;
pub mod cites;
pub mod claim_not_found;
pub mod config_unmatched;
pub mod equals_mismatch;
pub mod fact_drift;
pub mod families;
pub mod family_inputs;
pub mod frame_unreachable;
pub mod frame_unresolved;
pub mod ignores;
pub mod input_missing;
pub mod retired;
pub mod suppress;
pub mod transcripts;
pub mod unused_suppression;

use bounds::{stale_pin, unpinned_bound};
use cites::{stale_line_cite, stale_path_cite, stale_test_cite};
use retired::retired_claim;
use transcripts::transcript_drift;

use serde::{Deserialize, Serialize};

use crate::facts::Recipe;
use audited::Audit;

/// The registry: one line per check, `Variant("id") => module`. Each module
/// holds the check's `explain()` text, its default `SEVERITY`, the `label` a human
/// diagnostic puts under the span, and `run`; the id, explain text, label and
/// severity everywhere (CLI, reports, schemas, the book) come from here, and tests
/// hold the schemas and the book to it.
macro_rules! checks {
    ($($variant:ident($id:literal) => $module:ident),+ $(,)?) => {
        /// Every check recount runs. Exhaustive on purpose.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum CheckId {
            $($variant),+
        }

        impl CheckId {
            pub const ALL: &'static [CheckId] = &[$(CheckId::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $id),+
                }
            }

            /// The check's documentation: What it checks / Why / Example / How to fix.
            pub fn explain(self) -> &'static str {
                match self {
                    $(CheckId::$variant => $module::explain()),+
                }
            }

            /// The severity of this check's findings: an error where a recomputed
            /// value disagrees, a warning where the check reads prose heuristically.
            pub fn severity(self) -> Severity {
                match self {
                    $(CheckId::$variant => $module::SEVERITY),+
                }
            }

            /// The few words a human diagnostic puts under the finding's span.
            pub fn label(self, finding: &Finding) -> String {
                match self {
                    $(CheckId::$variant => $module::label(finding)),+
                }
            }

            fn run(self, audit: &Audit) -> Vec<Finding> {
                match self {
                    $(CheckId::$variant => $module::run(audit)),+
                }
            }
        }
    };
}

checks! {
    FactDrift("fact-drift") => fact_drift,
    ClaimNotFound("claim-not-found") => claim_not_found,
    EqualsMismatch("equals-mismatch") => equals_mismatch,
    FrameUnreachable("frame-unreachable") => frame_unreachable,
    FrameUnresolved("frame-unresolved") => frame_unresolved,
    InputMissing("input-missing") => input_missing,
    StaleTestCite("stale-test-cite") => stale_test_cite,
    StaleLineCite("stale-line-cite") => stale_line_cite,
    StalePathCite("stale-path-cite") => stale_path_cite,
    RetiredClaim("retired-claim") => retired_claim,
    UnpinnedBound("unpinned-bound") => unpinned_bound,
    StalePin("stale-pin") => stale_pin,
    ConfigUnmatched("config-unmatched") => config_unmatched,
    UnusedSuppression("unused-suppression") => unused_suppression,
    TranscriptDrift("transcript-drift") => transcript_drift,
}

impl CheckId {
    pub fn from_name(name: &str) -> Option<CheckId> {
        CheckId::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl Serialize for CheckId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for CheckId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How much a finding matters; the run fails on findings at or above `--fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A rule file's `[checks]` setting for one check: the severity its findings
/// get, or `off` (the check does not run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Off,
}

impl Level {
    /// The severity it sets; `None` for `off`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Off => None,
        }
    }
}

/// Where a finding is: a file, and the exact bytes in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// Byte offset and length of the span in the file.
    pub offset: usize,
    pub length: usize,
    /// The commit the file was read at (absent for the working tree and rule files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// One disagreement between a record and the tree.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub check: CheckId,
    pub severity: Severity,
    pub location: Location,
    /// The fact the finding is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stated: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<Recipe>,
    /// The rule that asked for the check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Location>,
    /// How a listing block differs from the recomputed listing (`fact-drift` on a
    /// `listing` claim).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<ListingDiff>,
    /// For a citation: whether the record cites it explicitly (a link target, a
    /// test node id, a line cite) or recount inferred it from a backticked path;
    /// an inferred finding is one severity lower than its check's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<crate::checks::cites::Tier>,
    /// The words under the finding's span in a human diagnostic, when the
    /// check that made it says them (a stale anchor, not a stale path);
    /// otherwise the check's own label.
    #[serde(skip)]
    pub label: Option<&'static str>,
    /// The repository files the finding's verdict was read from (a citation's
    /// target file, as the record's folder resolves it), when the check knows
    /// them: `check --since` looks for the commit of its range that changed one.
    /// Empty where the check does not say; the recipe and message then name them.
    #[serde(skip)]
    pub reads: Vec<String>,
    /// Whether `observed` is what the tree or the history proves the stated
    /// text should read, in the record's own syntax, not a guess: the report
    /// offers it as the fix of the stated text (a SARIF fix, a suggestion).
    #[serde(skip)]
    pub fixable: Fixable,
}

/// Whether a finding's `observed` text may replace its stated text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Fixable {
    /// No: a guess, nothing proven, or a finding no record edit mends.
    #[default]
    No,
    /// Yes: the evidence proves it, in the record's own syntax.
    Proven,
    /// The evidence proves what the cited thing became, but the record's
    /// words must not be rewritten to it: left to a person, with why.
    Held(Held, String),
}

impl Fixable {
    /// Proven, or not.
    pub fn proven(proven: bool) -> Fixable {
        if proven { Fixable::Proven } else { Fixable::No }
    }

    pub fn is_proven(&self) -> bool {
        matches!(self, Fixable::Proven)
    }
}

/// Why a replacement the evidence proves is still no edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// The cite's words are history: its sentence narrates the change, or
    /// its record is a changelog, a decision record or a dated post, which
    /// describe their own time ([`cites::narration`]).
    History,
    /// The replacement cannot be written in the link's form as its page's
    /// renderer reads it (a page address made a file path, a `.html` made a
    /// source's name).
    Form,
    /// The link's text names the old target in a form the same edit cannot
    /// mend: mending the destination alone would leave the two disagreeing.
    LinkText,
    /// The record says a generator writes it: the words are mended at their
    /// source.
    Generated,
}

/// A unified diff of a record's listing block against the recomputed listing:
/// `-line` for each listed line the tree no longer has, `+line` for each line
/// the tree has that the block does not list, the block's order interleaved with
/// the listing's. At most [`ListingDiff::SHOWN`] lines are kept; `more` counts the rest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListingDiff {
    /// Lines the tree has that the block does not list.
    pub added: usize,
    /// Listed lines the tree no longer has.
    pub removed: usize,
    /// The first lines of the diff, each `-` or `+` then the line.
    pub lines: Vec<String>,
    /// Diff lines left out after the first [`ListingDiff::SHOWN`].
    pub more: usize,
}

impl ListingDiff {
    /// The diff lines kept: a screenful.
    pub const SHOWN: usize = fact_drift::DIFF_LINES_SHOWN;

    /// The diff as text, one line each, ending with `… and N more lines` when cut.
    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        if self.more > 0 {
            text.push_str(&format!(
                "\n… and {} more line{}",
                self.more,
                if self.more == 1 { "" } else { "s" }
            ));
        }
        text
    }
}

/// What the checks found: the findings that stand, sorted by (path, line,
/// column, check), and those the records' directives silenced.
#[derive(Debug)]
pub struct Checked {
    pub findings: Vec<Finding>,
    pub suppressed: Vec<crate::checks::suppress::Suppressed>,
}

/// Runs every check the rule files leave on, applies the records'
/// suppressions, then the rule files' severities.
pub fn run_all(audit: &Audit) -> Checked {
    let findings: Vec<Finding> = CheckId::ALL
        .iter()
        .filter(|c| audit.runs(**c))
        .flat_map(|c| c.run(audit))
        .collect();
    let (findings, mut suppressed) = crate::checks::suppress::apply(audit, findings);
    let mut findings = crate::checks::ignores::apply(audit, findings, &mut suppressed);
    for finding in findings
        .iter_mut()
        .chain(suppressed.iter_mut().map(|s| &mut s.finding))
    {
        set_severity(audit, finding);
    }
    sort(&mut findings);
    suppressed.sort_by(|a, b| {
        (&a.finding.location, a.finding.check, &a.finding.message).cmp(&(
            &b.finding.location,
            b.finding.check,
            &b.finding.message,
        ))
    });
    Checked {
        findings,
        suppressed,
    }
}

/// A `[checks]` severity in place of the check's default; a citation recount
/// inferred from a backticked path stays a warning whatever its check's level,
/// as it does under the default.
fn set_severity(audit: &Audit, finding: &mut Finding) {
    let Some(severity) = audit
        .levels
        .get(&finding.check)
        .and_then(|level| level.severity())
    else {
        return;
    };
    finding.severity = match finding.tier {
        Some(cites::Tier::Inferred) => severity.min(Severity::Warning),
        _ => severity,
    };
}

/// Findings in report order: (path, line, column, check, message).
fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (
            &a.location.path,
            a.location.line,
            a.location.column,
            a.check,
            &a.message,
        )
            .cmp(&(
                &b.location.path,
                b.location.line,
                b.location.column,
                b.check,
                &b.message,
            ))
    });
}

impl Location {
    /// A span of a record of the audited snapshot.
    pub fn in_record(audit: &Audit, path: &str, span: std::ops::Range<usize>) -> Location {
        let (line, column) = match audit.record(path) {
            Some(record) => record.line_col(span.start),
            None => audit.text(path).map_or((1, 1), |text| {
                crate::lines::LineIndex::new(text).line_col(text, span.start)
            }),
        };
        Location {
            path: path.to_owned(),
            line,
            column,
            offset: span.start,
            length: span.end.saturating_sub(span.start),
            commit: audit.commit.clone(),
        }
    }

    /// A span of a rule file.
    pub fn in_rule(audit: &Audit, origin: usize, span: std::ops::Range<usize>) -> Location {
        let (line, column) = audit
            .sources
            .get(origin)
            .map_or((1, 1), |s| s.line_col(span.start));
        Location {
            path: audit.source_paths.get(origin).cloned().unwrap_or_default(),
            line,
            column,
            offset: span.start,
            length: span.end.saturating_sub(span.start),
            commit: None,
        }
    }
}
/// The check a rule file names by id, or a located error with a did-you-mean
/// and the list of ids.
pub(crate) fn check_id(
    source: &crate::source::RuleSource,
    id: &toml::Spanned<String>,
) -> crate::error::Result<CheckId> {
    CheckId::from_name(id.get_ref()).ok_or_else(|| {
        let ids: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
        source
            .error(
                id.span(),
                format!(
                    "unknown check id `{}`",
                    crate::escape::untrusted(id.get_ref(), crate::escape::VALUE_CAP)
                ),
                "not a check",
            )
            .with_help(format!(
                "{}check ids: {}",
                crate::spelling::did_you_mean(id.get_ref(), &ids),
                ids.join(", ")
            ))
    })
}
