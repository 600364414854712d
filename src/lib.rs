//! recount recomputes the facts a repository's records state and reports where the
//! prose and the tree disagree.
//!
//! The pipeline: rule files (`rules`) name facts; a [`snapshot`] — the working tree
//! or a commit's tree read straight from git — is where each fact is measured, at the
//! frame its rule names; `constants` reads named values from source code; `facts`
//! recomputes each fact; `claims` finds where records state them; `checks` compares
//! the two and produces findings as data; `report` renders them. Only `cli` prints.

pub mod claims;
pub mod cli;
pub mod constants;
pub mod number;
pub mod snapshot;
pub mod validation;
