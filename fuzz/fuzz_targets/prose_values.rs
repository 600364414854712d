//! Fuzz target `prose_values`: see `recount::fuzzing::prose_values`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::prose_values(data));
