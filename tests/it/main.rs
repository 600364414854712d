//! recount's one integration-test binary: the CLI driven as a user drives it,
//! against fixture repositories built from `fixtures/` with fixed dates.

mod action;
mod adr_fixture;
mod amended_adr;
mod baseline;
mod book;
mod ci_output;
mod cli;
mod columns;
mod doc_links;
mod errors;
mod evidence;
mod fix;
mod frames;
mod fuzz_corpus;
mod history;
mod hosted;
mod hostile;
mod hygiene;
mod init;
mod listing;
mod matrix;
mod mdx;
mod python_library;
mod registry;
mod release;
mod rule_errors;
mod since;
mod sphinx;
mod support;
mod suppressions;
mod terminal;
mod test_ids;
mod transcripts;
mod validate;
mod worktree;
