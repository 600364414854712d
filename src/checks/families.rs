//! Stage 4's own gathering: the families of checks that read the records
//! themselves (citations, retired claims, schema bounds, transcripts, rule
//! entries that match nothing) are registered here once, each with the gather
//! that fills its field of [`Families`] from its own part of the plan; the
//! engine runs them in registry order over one `FamilyInputs`
//! (`family_inputs.rs`) and the family's checks read the field.

use super::bounds::BoundsOutcome;
use super::cites::ResolvedCite;
use super::config_unmatched::Unmatched;
use super::family_inputs::{FamilyInputs, FamilyPlan};
use super::retired::RetiredHit;
use super::transcripts::Transcript;
use crate::error::Result;

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
            pub(crate) fn gather<P: FamilyPlan + ?Sized>(
                inputs: &mut FamilyInputs<'_, '_, P>,
            ) -> Result<Families> {
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
    cites: Vec<ResolvedCite> = |inputs, _| {
        let plan = inputs.plan;
        super::cites::gather::gather(&mut inputs.with(plan.cites_part()))?
    },
    /// Every occurrence of a retired claim, attributed or not.
    retired: Vec<RetiredHit> = |inputs, _| {
        let plan = inputs.plan;
        super::retired::gather::gather(&mut inputs.with(plan.retired_part()))?
    },
    /// Every `[[bounds]]` entry's bounds and pins.
    bounds: Vec<BoundsOutcome> = |inputs, _| {
        let part = inputs.plan.bounds_part();
        super::bounds::gather::gather(&mut inputs.with(&part))?
    },
    /// Every transcript in the records, and how its re-run fared.
    transcripts: Vec<Transcript> = |inputs, _| {
        let part = inputs.plan.transcripts_part();
        super::transcripts::gather::gather(&mut inputs.with(&part))?
    },
    /// Rule-file entries that match nothing in the audited snapshot (a cite
    /// rule's `expect` is matched against the citations gathered above).
    unmatched: Vec<Unmatched> = |inputs, earlier| {
        let part = inputs.plan.unmatched_part();
        super::config_unmatched::gather(&inputs.with(&part), &earlier.cites)
    },
}
