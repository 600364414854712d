//! Fuzz target `test_defs`: see `recount::fuzzing::test_defs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::test_defs(data));
