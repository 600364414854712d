//! Stage 4 of the pipeline (checks), the schema-bounds family: JSON Schema bound
//! keywords (`maxLength`, ...) that must equal a code constant. `cfg` is the
//! `[[bounds]]` configuration and its resolution, `find` scans a
//! schema's bytes for bounds with their exact positions, `gather` reads the
//! schemas each `[[bounds]]` entry names and pairs bounds with pins and
//! constants, and one file per check id turns that into findings.

pub mod cfg;
pub mod find;
pub mod gather;
pub mod stale_pin;
pub mod unpinned_bound;

pub use gather::{BoundsOutcome, PinOutcome};
