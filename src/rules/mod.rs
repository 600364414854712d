//! Stage 0 of the pipeline: rule files. `model` holds the serde types a rule file
//! deserialises into; `load` validates a file against `schemas/rules.schema.json`,
//! deserialises it, follows `include`s and resolves it into [`RuleSet`].

pub mod load;
pub mod model;

pub use load::{RuleSet, RuleSource, load_rules};
