//! Finds every occurrence of each retired claim in the files its register entry
//! names, with the attribution nearest to it, for the `retired-claim` check.

use std::ops::Range;
use std::sync::Arc;

use super::cfg::RetiredPlan;
use super::find::Occurrence;
use crate::checks::family_inputs::FamilyInputs;
use crate::error::Result;
use crate::pathspec::select;
use crate::records::read_record;

/// One occurrence of a retired claim.
#[derive(Debug, Clone)]
pub struct RetiredHit {
    pub id: String,
    pub origin: usize,
    /// Span of the rule's key (`phrase` or `subject`) in its rule file.
    pub rule_span: Range<usize>,
    pub reach: usize,
    pub path: String,
    pub occurrence: Occurrence,
}

pub(crate) fn gather(inputs: &mut FamilyInputs<'_, '_, [RetiredPlan]>) -> Result<Vec<RetiredHit>> {
    let frame = &*inputs.frames.audited();
    let FamilyInputs {
        plan: whole,
        records: cache,
        files,
        notes,
        ..
    } = inputs;
    let mut hits = Vec::new();
    for plan in whole.iter() {
        let paths: Vec<String> = select(frame.snapshot.paths(), &plan.files, &[])
            .into_iter()
            .map(str::to_owned)
            .collect();
        for path in paths {
            let Some(record) =
                cache.get_or_parse(&path, || read_record(&*frame.snapshot, &path, notes))?
            else {
                continue;
            };
            files
                .entry(path.clone())
                .or_insert_with(|| Arc::clone(&record.text));
            for occurrence in plan.matcher.find(record.prose()) {
                hits.push(RetiredHit {
                    id: plan.id.clone(),
                    origin: plan.origin,
                    rule_span: plan.key_span.clone(),
                    reach: plan.reach,
                    path: path.clone(),
                    occurrence,
                });
            }
        }
    }
    Ok(hits)
}
