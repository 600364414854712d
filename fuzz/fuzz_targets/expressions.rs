//! Fuzz target `expressions`: see `recount::fuzzing::expressions`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::expressions(data));
