//! Fuzz target `rule_file`: see `recount::fuzzing::rule_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::rule_file(data));
