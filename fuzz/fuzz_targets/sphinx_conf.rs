//! Fuzz target `sphinx_conf`: see `recount::fuzzing::sphinx_conf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::sphinx_conf(data));
