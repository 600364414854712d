//! Fuzz target `human_report`: see `recount::fuzzing::human_report`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::human_report(data));
