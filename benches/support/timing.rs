//! Timing whole processes for the benches: one run of a command, the median
//! of several, as milliseconds.

// Each bench includes this file and uses the part it needs.
#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

pub(crate) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// One timed run of `command`, which must succeed (recount's exit 1 counts:
/// it means findings).
pub(crate) fn timed(command: &mut Command) -> Duration {
    let start = Instant::now();
    let output = command.output().expect("command runs");
    let elapsed = start.elapsed();
    assert!(
        output.status.code().is_some_and(|c| c <= 1),
        "command failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    elapsed
}

/// The median of `runs` runs of the command `make` builds, after one warm-up.
pub(crate) fn time_n(runs: usize, mut make: impl FnMut() -> Command) -> Duration {
    timed(&mut make());
    median((0..runs).map(|_| timed(&mut make())).collect())
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{:.2}ms", d.as_secs_f64() * 1000.0)
}
