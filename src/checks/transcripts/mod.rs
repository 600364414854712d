//! Stage 4, the transcript family: the commands records show with their output
//! (a `$ git grep …` block, `grep -c x f → 7` in prose), found in the records
//! (`find`), read into pipelines (`parse`), re-run natively over the snapshot of
//! the commit they name (`run`) and compared with what the record shows
//! (`compare`); `gather` does that for a run and `transcript_drift` reports
//! where they disagree. Nothing here spawns a process.

pub mod compare;
pub mod find;
pub mod gather;
pub mod parse;
pub mod run;
pub mod transcript_drift;

use std::ops::Range;

use serde::Serialize;

pub use find::Form;

/// One transcript of a record and how its re-run fared.
#[derive(Debug, Clone, Serialize)]
pub struct Transcript {
    pub record: String,
    /// Raw span of the command.
    #[serde(skip)]
    pub span: Range<usize>,
    pub form: Form,
    pub command: String,
    /// What it was re-run at: `working tree` or a commit (absent when not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// What set that frame when it is not the audited tree: the revision the
    /// command names, the date closing its parenthesis, or the record's
    /// declaration ("section marker at line 11").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_from: Option<String>,
    #[serde(flatten)]
    pub status: TranscriptStatus,
}

/// How a transcript fared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum TranscriptStatus {
    /// Re-run; it prints what the record shows.
    Agrees,
    /// Re-run; it prints something else.
    Drift {
        /// Raw span of the first shown line (or stated value) that differs.
        #[serde(skip)]
        at: Range<usize>,
        expected: String,
        actual: String,
        diff: Vec<String>,
    },
    /// Shown with no output: it asserts nothing, so it is not re-run.
    NoOutput,
    /// Checked by a rule's claim instead: in a block its `listing` claim
    /// holds, or showing a value its `says` claim states on the same
    /// characters (one finding, the rule's, not two that disagree).
    Claimed { fact: String },
    /// Outside the family recount re-runs (or after such a command in the
    /// same session): never executed.
    NotRerun { why: String },
    /// In the family, but what it reads is not here (a revision outside the
    /// clone, a path the snapshot lacks).
    Unverified { why: String },
}
