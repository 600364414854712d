//! Fuzz target `transcripts`: see `recount::fuzzing::transcripts`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::transcripts(data));
