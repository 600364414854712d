//! Fuzz target `validation_bounds`: see `recount::fuzzing::validation_bounds`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::validation_bounds(data));
