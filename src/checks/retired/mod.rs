//! Stage 4 of the pipeline (checks), the retired-claim family: phrases and
//! figures an earlier draft stated that may only reappear next to an
//! attribution. `cfg` is the `[[retired]]` register and its compiled form,
//! `find` matches a register entry on a record's prose view,
//! `gather` runs every entry over the files it names, and `retired_claim` turns
//! unattributed occurrences into findings.

pub mod cfg;
pub mod find;
pub mod gather;
pub mod retired_claim;

pub use gather::RetiredHit;
