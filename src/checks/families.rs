//! Stage 4's own gathering: the families of checks that read the records
//! themselves (citations, retired claims, schema bounds, transcripts, rule
//! entries that match nothing) are registered here once, each with the gather
//! that fills its field of [`Families`]; the engine runs them in registry order
//! over one [`FamilyInputs`] and the family's checks read the field.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::bounds::BoundsOutcome;
use super::cites::ResolvedCite;
use super::config_unmatched::Unmatched;
use super::retired::RetiredHit;
use super::transcripts::Transcript;
use crate::error::Result;
use crate::frames::Frames;
use crate::records::RecordCache;
use crate::rules::resolve::Plan;

/// What the engine hands every family: the plan, the frames (the audited
/// snapshot and any other a record names), the records of the run — each read
/// and parsed once, shared with the claims — and where to leave notes and the
/// texts findings point into.
pub(crate) struct FamilyInputs<'a, 'r> {
    pub(crate) plan: &'a Plan,
    pub(crate) frames: &'a mut Frames<'r>,
    pub(crate) records: &'a RecordCache,
    pub(crate) files: BTreeMap<String, Arc<str>>,
    pub(crate) notes: Vec<String>,
}

/// The registry: one line per family, `field: Output = |inputs, earlier| gather`.
/// A family's gather may read what the families above it gathered (`earlier`).
macro_rules! families {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty = |$inputs:ident, $earlier:pat_param| $gather:expr),+ $(,)?) => {
        /// What every family gathered, one field per registry line.
        #[derive(Debug, Default)]
        pub struct Families {
            $($(#[doc = $doc])* pub $field: $ty),+
        }

        impl Families {
            /// Runs every family's gather in registry order.
            pub(crate) fn gather(inputs: &mut FamilyInputs<'_, '_>) -> Result<Families> {
                let mut families = Families::default();
                $(
                    let found: $ty = {
                        let $inputs = &mut *inputs;
                        let $earlier = &families;
                        $gather
                    };
                    families.$field = found;
                )+
                Ok(families)
            }
        }
    };
}

families! {
    /// Every citation found in the records, resolved.
    cites: Vec<ResolvedCite> = |inputs, _| super::cites::gather::gather(inputs)?,
    /// Every occurrence of a retired claim, attributed or not.
    retired: Vec<RetiredHit> = |inputs, _| super::retired::gather::gather(inputs)?,
    /// Every `[[bounds]]` entry's bounds and pins.
    bounds: Vec<BoundsOutcome> = |inputs, _| super::bounds::gather::gather(inputs)?,
    /// Every transcript in the records, and how its re-run fared.
    transcripts: Vec<Transcript> = |inputs, _| super::transcripts::gather::gather(inputs)?,
    /// Rule-file entries that match nothing in the audited snapshot (a cite
    /// rule's `expect` is matched against the citations gathered above).
    unmatched: Vec<Unmatched> =
        |inputs, earlier| super::config_unmatched::gather(inputs, &earlier.cites),
}
