//! Fuzz target `rst_cites`: see `recount::fuzzing::rst_cites`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::rst_cites(data));
