//! Fuzz target `cites`: see `recount::fuzzing::cites`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::cites(data));
