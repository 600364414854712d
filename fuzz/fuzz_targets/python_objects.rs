//! Fuzz target `python_objects`: see `recount::fuzzing::python_objects`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| recount::fuzzing::python_objects(data));
