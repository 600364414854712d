//! Stage 0 of the pipeline: rule files. `model` holds the serde types a rule file
//! deserialises into; `load` validates a file against `schemas/rules.schema.json`,
//! deserialises it and follows `include`s into a [`RuleSet`]; `resolve` compiles
//! that into the [`Plan`] the rest of the pipeline reads.

pub mod load;
pub mod model;
pub mod resolve;

pub use load::{RuleSet, RuleSource, load_rules};
pub use resolve::{Plan, resolve};
