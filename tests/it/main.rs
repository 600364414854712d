//! recount's one integration-test binary: the CLI driven as a user drives it,
//! against fixture repositories built from `fixtures/` with fixed dates.

// Cargo.toml can only deny unsafe code (one bench needs it); the tests forbid it.
#![forbid(unsafe_code)]

mod adr_fixture;
mod cli;
mod hygiene;
mod rule_errors;
mod support;
mod validate;
