//! Stage 4's own gathering, its inputs: what the engine hands each family
//! that gathers its own inputs — the frames, the records, where to leave
//! notes, and only its own part of the plan ([`FamilyPlan`], which the rule
//! stage's plan implements). Below both the registry (`families.rs`) and the
//! families, so neither imports the other through it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::bounds::cfg::BoundsPlan;
use super::cites::cfg::CitesPlan;
use super::retired::cfg::RetiredPlan;
use crate::frames::Frames;
use crate::records::RecordCache;

/// What the families read of the plan, each family its own part, as
/// cargo-deny hands a check its `CheckCtx<T>`. The rule stage's `Plan`
/// implements it, so no family imports the rule stage.
pub(crate) trait FamilyPlan {
    fn cites_part(&self) -> &CitesPlan;
    fn retired_part(&self) -> &[RetiredPlan];
    fn bounds_part(&self) -> BoundsPart<'_>;
    fn transcripts_part(&self) -> TranscriptsPart<'_>;
    fn unmatched_part(&self) -> UnmatchedPart<'_>;
}

/// Where a long run says how far it is: the records of the citation family
/// read, of all it reads, and the citations found in them so far (resolved
/// on every core once all are found; the last report counts them all). The CLI draws
/// it on a terminal; a library caller may pass its own, or none.
pub trait Progress: Send + Sync {
    fn records(&self, done: usize, total: usize, citations: usize);
}

/// What the engine hands every family: its own part of the plan (`P`), the
/// frames (the audited snapshot and any other a record names), the records of
/// the run — each read and parsed once, shared with the claims — and where to
/// leave notes and the texts findings point into.
pub(crate) struct FamilyInputs<'a, 'r, P: ?Sized> {
    pub(crate) plan: &'a P,
    pub(crate) frames: &'a mut Frames<'r>,
    pub(crate) records: &'a RecordCache,
    pub(crate) files: &'a mut BTreeMap<String, Arc<str>>,
    pub(crate) notes: &'a mut Vec<String>,
    pub(crate) progress: Option<&'a dyn Progress>,
}

impl<'r, P: ?Sized> FamilyInputs<'_, 'r, P> {
    /// The same inputs, with the plan narrowed to one family's part.
    pub(crate) fn with<'b, Q: ?Sized>(&'b mut self, part: &'b Q) -> FamilyInputs<'b, 'r, Q> {
        FamilyInputs {
            plan: part,
            frames: &mut *self.frames,
            records: self.records,
            files: &mut *self.files,
            notes: &mut *self.notes,
            progress: self.progress,
        }
    }
}

/// A fact's listing claim, as the transcripts family reads it: a block a rule
/// checks is the rule's, not a transcript's.
pub(crate) struct ListingClaim<'a> {
    pub(crate) fact: &'a str,
    pub(crate) records: &'a [crate::pathspec::PathSpec],
    pub(crate) pattern: &'a crate::claims::Pattern,
}

/// The transcripts family's part of the plan: whether transcripts run, the
/// records the citation settings select, and the facts' listing claims.
pub(crate) struct TranscriptsPart<'a> {
    pub(crate) enabled: bool,
    pub(crate) cites: &'a CitesPlan,
    pub(crate) listings: Vec<ListingClaim<'a>>,
}

/// The bounds family's part of the plan: its entries, the rule files they
/// came from (for located errors) and the declared constants they read.
pub(crate) struct BoundsPart<'a> {
    pub(crate) bounds: &'a [BoundsPlan],
    pub(crate) sources: &'a [crate::source::RuleSource],
    pub(crate) constants: &'a BTreeMap<String, crate::constants::ConstantDecl>,
}

/// What `config-unmatched` reads: every entry of the rule files that names
/// things in the repository.
pub(crate) struct UnmatchedPart<'a> {
    pub(crate) cites: &'a CitesPlan,
    pub(crate) constants: &'a BTreeMap<String, crate::constants::ConstantDecl>,
    pub(crate) retired: &'a [RetiredPlan],
    pub(crate) bounds: &'a [BoundsPlan],
}
