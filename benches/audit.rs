//! `cargo bench --bench audit`: wall time of `recount check` on the ADR fixture,
//! measured as a user runs it (a fresh process each time), side by side with
//! reference commands run in the same session, so the ratios survive a noisy
//! machine. Prints medians; BENCHMARKS.md records them with the command.
//!
//! Two optional inputs compare builds side by side in the same run:
//! `RECOUNT_BASELINE=/path/to/older/recount` times an older binary on the same
//! commands, and `RECOUNT_BENCH_REPOS=dir:dir` adds a zero-configuration
//! `check --rev HEAD` on each repository (a bare clone is enough).

// A bench's output is its result: the medians go to the terminal and, from there,
// into BENCHMARKS.md.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::process::Command;

#[path = "support/links_repo.rs"]
mod links_repo;
use std::time::{Duration, Instant};

const RUNS: usize = 41;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `make()` RUNS times (after 3 warm-ups) and returns the median wall time.
fn time(make: impl FnMut() -> Command) -> Duration {
    time_n(RUNS, make)
}

/// Runs `make()` `runs` times (after 3 warm-ups) and returns the median wall time.
fn time_n(runs: usize, mut make: impl FnMut() -> Command) -> Duration {
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
    median((0..runs).map(|_| run()).collect())
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
            12,
            "every check has work to do at the fixture's head"
        );
        if i >= 3 {
            samples.push(elapsed);
        }
    }
    let library = median(samples);

    // Side by side with an older build, and on real repositories.
    let baseline = std::env::var("RECOUNT_BASELINE").ok();
    let mut pairs: Vec<(String, Duration, Option<Duration>)> = Vec::new();
    // A real repository takes up to seconds a run: 11 runs keep the median
    // honest without making the bench an hour long.
    let mut compare = |name: String, args: Vec<String>, dir: &Path, runs: usize| {
        let run = |program: &str| {
            time_n(runs, || {
                let mut cmd = Command::new(program);
                cmd.current_dir(dir).env("NO_COLOR", "1").args(&args);
                cmd
            })
        };
        let ours = run(recount);
        let theirs = baseline.as_deref().map(run);
        pairs.push((name, ours, theirs));
    };
    if baseline.is_some() {
        compare(
            "fixture: check".to_owned(),
            vec!["check".to_owned()],
            &repo,
            RUNS,
        );
    }
    for dir in std::env::var("RECOUNT_BENCH_REPOS")
        .unwrap_or_default()
        .split(':')
        .filter(|d| !d.is_empty())
    {
        let path = Path::new(dir);
        let name = path
            .components()
            .rev()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .find(|c| c != "repo" && c != ".git")
            .unwrap_or_else(|| dir.to_owned());
        compare(
            format!("{name}: check --rev HEAD"),
            ["check", "--repo", dir, "--rev", "HEAD", "--format", "json"]
                .map(str::to_owned)
                .to_vec(),
            &repo,
            11,
        );
    }

    // A 4 MB record dense with citations, zero configuration: the time must
    // grow with the record, not with its square.
    let large = large_record();
    let large_rows: Vec<(&str, Duration)> = vec![
        (
            "4 MB record: check --format json",
            time_n(5, || {
                let mut cmd = Command::new(recount);
                cmd.current_dir(large.path())
                    .env("NO_COLOR", "1")
                    .args(["check", "--format", "json"]);
                cmd
            }),
        ),
        (
            "4 MB record: check (human)",
            time_n(5, || {
                let mut cmd = Command::new(recount);
                cmd.current_dir(large.path())
                    .env("NO_COLOR", "1")
                    .args(["check"]);
                cmd
            }),
        ),
    ];

    // 64,000 links in one page against the same links in 64 pages: the citation
    // checks must cost the same per link however the links are spread.
    let spread = |pages: usize, links: usize| {
        let dir = tempfile::tempdir().expect("temp dir");
        links_repo::generate(dir.path(), pages, links);
        time_n(5, || {
            let mut cmd = Command::new(recount);
            cmd.current_dir(dir.path())
                .env("NO_COLOR", "1")
                .args(["check", "--format", "json"]);
            cmd
        })
    };
    let one_page = spread(1, 64_000);
    let many_pages = spread(64, 1_000);

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
    for (name, d) in &large_rows {
        println!("{:<44} {:>8.2}ms", name, d.as_secs_f64() * 1e3);
    }
    println!(
        "{:<44} {:>8.2}ms",
        "64,000 links in 1 page: check --format json",
        one_page.as_secs_f64() * 1e3
    );
    println!(
        "{:<44} {:>8.2}ms {:>13.2}x",
        "64,000 links in 64 pages (same links)",
        many_pages.as_secs_f64() * 1e3,
        one_page.as_secs_f64() / many_pages.as_secs_f64()
    );
    if !pairs.is_empty() {
        println!();
        println!(
            "{:<44} {:>10} {:>10} {:>10}",
            "command", "this", "baseline", "ratio"
        );
        for (name, ours, theirs) in &pairs {
            match theirs {
                Some(t) => println!(
                    "{:<44} {:>8.2}ms {:>8.2}ms {:>9.2}x",
                    name,
                    ours.as_secs_f64() * 1e3,
                    t.as_secs_f64() * 1e3,
                    ours.as_secs_f64() / t.as_secs_f64()
                ),
                None => println!("{:<44} {:>8.2}ms", name, ours.as_secs_f64() * 1e3),
            }
        }
    }
}

/// A repository whose one record is 4,000,000 bytes of prose, lists and
/// citations (test ids, line cites, paths that exist and paths that do not),
/// committed so `check` reads it as a user's repository.
fn large_record() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("tests")).expect("tests");
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").expect("write");
    std::fs::write(root.join("tests/test_x.py"), "def test_y():\n    pass\n").expect("write");
    let mut text = String::from("# A large record\n\n");
    let mut i = 0usize;
    while text.len() < 4_000_000 {
        let line = match i % 6 {
            0 => format!(
                "See `src/main.rs:{}` and `tests/test_x.py::test_y`, paragraph {i}.",
                1 + i % 3
            ),
            1 => format!("The file `src/gone_{i}.rs` was removed; `docs/missing_{i}.md` too."),
            2 => format!("Run `cargo test`, then read `tests/test_x.py::test_z{i}`."),
            3 => {
                format!("Plain prose {i} with **emphasis** and a [link](https://example.com/{i}).")
            }
            4 => format!("- item `src/main.rs` and `README.md`, number {i}"),
            _ => format!("A sentence that wraps over\nlines without a cite, {i}."),
        };
        text.push_str(&line);
        text.push_str("\n\n");
        i += 1;
    }
    text.truncate(4_000_000);
    std::fs::write(root.join("RECORD.md"), text).expect("write");
    links_repo::commit_all(root, "large record");
    dir
}
