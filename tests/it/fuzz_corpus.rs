//! The fuzz corpus replayed on stable: every input under `fuzz/corpus/<target>/`
//! (minimised by `cargo fuzz cmin`, crashes found included) goes through the same
//! `recount::fuzzing` function its fuzz target calls. A panic fails the test; see
//! FUZZING.md for the runs that built the corpus.

use std::path::Path;

#[test]
fn every_corpus_input_runs_through_its_target_without_a_panic() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    for (target, run) in recount::fuzzing::TARGETS {
        let dir = corpus.join(target);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_file())
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "{target}: the corpus is empty");
        for input in inputs {
            let bytes =
                std::fs::read(&input).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{target} panics on {}", input.display());
        }
    }
}
