//! Fuzz target `constants`: see `recount::fuzzing::constants`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::constants(data));
