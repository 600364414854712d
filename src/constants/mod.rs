//! Stage 2a of the pipeline: named values read from source code with real parsers
//! (tree-sitter), evaluated exactly, following references to other constants in the
//! same module and to names imported from other modules of the same repository.
//!
//! INTERFACE (filled in by the constants work): see `Constants::resolve`,
//! `literal_entries` and `expr`.

pub mod expr;
pub mod go;
pub mod python;
pub mod rust;
pub mod typescript;
