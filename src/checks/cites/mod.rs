//! Stage 4 of the pipeline (checks), the citation family: the test, line and
//! path citations records make. `model` is what a resolved citation is (and
//! imports nothing else of the family); `cfg` is the `[cites]` table and its
//! resolved form; `find` reads a record's text for citations; `locate`,
//! `anchors`, `labels`, `pyobjects`, `testdefs`, `releases` and `hosted` read
//! the tree and the pages; `gather` is only the loop: `scope` picks the
//! records, `placing` the frame each cite is read at, `resolve/` holds one
//! resolver per cite kind, each ending in the exemption registry
//! (`exemptions/`, one file per exemption id); `evidence/` asks the history;
//! one file per check id turns the data into findings.

pub mod anchors;
pub mod cfg;
mod context;
pub mod described;
pub mod evidence;
pub mod exemptions;
pub mod find;
mod findings;
pub mod gather;
pub mod hosted;
pub mod labels;
pub(crate) mod locate;
pub mod model;
pub mod narration;
mod placing;
pub mod pyobjects;
pub mod python_bases;
mod reader_copies;
pub mod releases;
mod renderers;
mod resolve;
pub mod scope;
pub mod stale_line_cite;
pub mod stale_path_cite;
pub mod stale_test_cite;
pub mod testdefs;
#[cfg(test)]
mod testing;

pub use model::{CiteClass, CiteStatus, ResolvedCite, Tier};
