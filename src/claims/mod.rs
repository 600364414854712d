//! Stage 3 of the pipeline: claims — the places in a record where a fact is stated.

pub mod prose;
pub mod value;
