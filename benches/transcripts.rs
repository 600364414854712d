//! `cargo bench --bench transcripts`: the transcript family's two speed goals.
//!
//! 1. A record of 200 `git grep` keys, each a console block with its count,
//!    found, parsed, re-run natively over this repository's HEAD and compared —
//!    the whole page, snapshot opening included — well under a second.
//! 2. The native `git grep` against the real one on a large tree:
//!    `RECOUNT_BENCH_GREP_REPO=/path/to/repo` (a bare clone is enough) times
//!    `git grep -n PATTERN HEAD` both ways, same output asserted.
//!
//! The real `git` is spawned here, by the bench, for expected values and the
//! reference timing; recount never spawns it.

// A bench's output is its result.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use recount::checks::transcripts::compare::compare;
use recount::checks::transcripts::find::find;
use recount::checks::transcripts::parse::{Source, parse};
use recount::checks::transcripts::run::{Context, Texts, run};
use recount::records::markdown::Markdown;
use recount::snapshot::{GitRepo, Snapshot};

const RUNS: usize = 11;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut last = f();
    let mut samples = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        last = f();
        samples.push(start.elapsed());
    }
    (median(samples), last)
}

fn git(repo: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_PAGER", "cat")
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Re-runs every transcript of `page` at HEAD of `repo`; the number that agree.
fn re_run_page(repo: &Path, page: &str) -> usize {
    let git_repo = GitRepo::discover(repo).expect("repository");
    let head = git_repo.resolve("HEAD").expect("HEAD");
    let snapshot = git_repo.tree_snapshot(&head).expect("snapshot");
    let history = |rev: &str, paths: &[String]| {
        git_repo
            .count_commits(rev, paths)
            .map_err(|e| e.to_string())
    };
    let texts = Texts::default();
    let mut agree = 0;
    for found in find(page, &Markdown::new(page)) {
        let pipeline = parse(&found.command).expect("parses");
        let rev = match &pipeline.source {
            Source::GitGrep { revs, .. } => revs.first().map(String::as_str),
            _ => None,
        };
        let cx = Context {
            snapshot: &snapshot as &dyn Snapshot,
            texts: &texts,
            rev,
            history: &history,
        };
        let printed = run(&pipeline, &cx).expect("runs");
        if compare(
            &found.output,
            &printed,
            pipeline.ordered(),
            pipeline.sorted(),
        )
        .is_none()
        {
            agree += 1;
        }
    }
    agree
}

fn main() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    // 200 function names of this repository's source, each a key.
    let names = git(
        here,
        &[
            "grep",
            "-h",
            "-o",
            "-E",
            "fn [a-z_][a-z0-9_]{3,}",
            "HEAD",
            "--",
            "src",
        ],
    );
    let mut names: Vec<&str> = names
        .lines()
        .filter_map(|l| l.strip_prefix("fn "))
        .collect();
    names.sort_unstable();
    names.dedup();
    let names: Vec<&str> = names.into_iter().take(200).collect();
    assert_eq!(names.len(), 200, "this repository has 200 function names");
    let mut page = String::from("# Two hundred keys\n\n");
    for name in &names {
        let command = format!("git grep -n -w {name} HEAD -- src | wc -l");
        let count = git(here, &["grep", "-n", "-w", name, "HEAD", "--", "src"])
            .lines()
            .count();
        page.push_str(&format!("```console\n$ {command}\n{count}\n```\n\n"));
    }
    let (page_time, agree) = time(RUNS, || re_run_page(here, &page));
    assert_eq!(agree, 200, "every key agrees with the real git grep");
    println!(
        "| record of 200 `git grep -n -w NAME HEAD -- src | wc -l` keys, re-run on this repository | {:.2?} |",
        page_time
    );

    let Ok(large) = std::env::var("RECOUNT_BENCH_GREP_REPO") else {
        println!(
            "(set RECOUNT_BENCH_GREP_REPO=/path/to/a/large/repo to time git grep on a large tree)"
        );
        return;
    };
    let large = Path::new(&large);
    let files = git(large, &["ls-tree", "-r", "--name-only", "HEAD"])
        .lines()
        .count();
    println!("large tree: {} ({files} files at HEAD)", large.display());
    if std::env::var("RECOUNT_BENCH_PROFILE").is_ok() {
        use rayon::prelude::*;
        let (open, snapshot) = time(3, || {
            let repo = GitRepo::open(large).expect("repository");
            let head = repo.resolve("HEAD").expect("HEAD");
            repo.tree_snapshot(&head).expect("snapshot")
        });
        let (seq, _) = time(3, || {
            snapshot
                .paths()
                .iter()
                .filter_map(|p| snapshot.read(p).ok().flatten())
                .map(|b| b.len())
                .sum::<usize>()
        });
        let (par, _) = time(3, || {
            snapshot
                .paths()
                .par_iter()
                .filter_map(|p| snapshot.read(p).ok().flatten())
                .map(|b| b.len())
                .sum::<usize>()
        });
        let (text, _) = time(3, || {
            snapshot
                .paths()
                .par_iter()
                .filter_map(|p| snapshot.read_text(p).ok().flatten())
                .map(|b| b.len())
                .sum::<usize>()
        });
        println!("open {open:.2?} read seq {seq:.2?} read par {par:.2?} read_text par {text:.2?}");
    }
    println!("| pattern | real git grep | native | ratio |");
    println!("|---|---:|---:|---:|");
    for (flags, pattern) in [
        ("-n", "TODO"),
        ("-n -E", "fn [a-z]+_new\\b"),
        ("-n -i -w", "error"),
    ] {
        let mut args: Vec<&str> = vec!["grep"];
        args.extend(flags.split(' '));
        args.extend([pattern, "HEAD"]);
        let (real_time, real_out) = time(RUNS, || git(large, &args));
        let command = format!("git grep {flags} '{pattern}' HEAD");
        let pipeline = parse(&command).expect("parses");
        let (native_time, native_out) = time(RUNS, || {
            let repo = GitRepo::open(large).expect("repository");
            let head = repo.resolve("HEAD").expect("HEAD");
            let snapshot = repo.tree_snapshot(&head).expect("snapshot");
            let history = |_: &str, _: &[String]| Ok(0);
            let texts = Texts::default();
            let cx = Context {
                snapshot: &snapshot as &dyn Snapshot,
                texts: &texts,
                rev: Some("HEAD"),
                history: &history,
            };
            run(&pipeline, &cx).expect("runs")
        });
        let real_lines: Vec<&str> = real_out.lines().collect();
        assert_eq!(
            native_out.len(),
            real_lines.len(),
            "{command}: same number of lines"
        );
        if let Some((a, b)) = native_out.iter().zip(&real_lines).find(|(a, b)| a != *b) {
            panic!("{command}: native `{a}` where git prints `{b}`");
        }
        println!(
            "| `{command}` ({} lines) | {real_time:.2?} | {native_time:.2?} | {:.2}x |",
            real_lines.len(),
            native_time.as_secs_f64() / real_time.as_secs_f64()
        );
    }
}
