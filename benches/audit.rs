//! `cargo bench --bench audit`: wall time of `recount check` on the ADR fixture,
//! measured as a user runs it (a fresh process each time), side by side with
//! reference commands run in the same session, so the ratios survive a noisy
//! machine. Prints medians; BENCHMARKS.md records them with the command.

// A bench's output is its result: the medians go to the terminal and, from there,
// into BENCHMARKS.md.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 41;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `make()` RUNS times (after 3 warm-ups) and returns the median wall time.
fn time(mut make: impl FnMut() -> Command) -> Duration {
    let mut run = || {
        let start = Instant::now();
        let status = make().output().expect("command runs").status;
        let elapsed = start.elapsed();
        assert!(status.code().is_some(), "command was killed");
        elapsed
    };
    for _ in 0..3 {
        run();
    }
    median((0..RUNS).map(|_| run()).collect())
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/adr-0031");
    recount::fixture::build(&case, dir.path()).expect("fixture builds");
    let repo = dir.path().to_path_buf();
    let recount = env!("CARGO_BIN_EXE_recount");

    let in_repo = |program: &str, args: &[&str]| {
        let mut cmd = Command::new(program);
        cmd.current_dir(&repo).env("NO_COLOR", "1").args(args);
        cmd
    };
    let rows: Vec<(&str, Duration)> = vec![
        (
            "recount --version (process floor)",
            time(|| in_repo(recount, &["--version"])),
        ),
        (
            "git grep -n tool-context HEAD (reference)",
            time(|| in_repo("git", &["grep", "-n", "tool-context", "HEAD"])),
        ),
        (
            "recount check (working tree)",
            time(|| in_repo(recount, &["check"])),
        ),
        (
            "recount check --rev HEAD~4 (all true)",
            time(|| in_repo(recount, &["check", "--rev", "HEAD~4"])),
        ),
        ("recount cites", time(|| in_repo(recount, &["cites"]))),
        (
            "recount check --format json",
            time(|| in_repo(recount, &["check", "--format", "json"])),
        ),
    ];

    // In-process: the library call alone, no process start.
    let options = recount::audit::AuditOptions {
        repo: Some(repo.clone()),
        ..Default::default()
    };
    let mut samples = Vec::new();
    for i in 0..RUNS + 3 {
        let start = Instant::now();
        let report = recount::check(&options).expect("audit runs");
        let elapsed = start.elapsed();
        assert_eq!(
            report.findings.len(),
            11,
            "every check has work to do at the fixture's head"
        );
        if i >= 3 {
            samples.push(elapsed);
        }
    }
    let library = median(samples);

    let floor = rows[0].1;
    println!("fixture adr-0031, {RUNS} runs each, medians");
    println!("{:<44} {:>10} {:>14}", "command", "median", "vs floor");
    for (name, d) in &rows {
        println!(
            "{:<44} {:>8.2}ms {:>13.2}x",
            name,
            d.as_secs_f64() * 1e3,
            d.as_secs_f64() / floor.as_secs_f64()
        );
    }
    println!(
        "{:<44} {:>8.2}ms",
        "recount::check() in process",
        library.as_secs_f64() * 1e3
    );
}
