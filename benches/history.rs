//! `cargo bench --bench history`: `recount history` on a generated repository
//! (benches/support/gen_history_repo.rs: 20,000 files, 2,000 commits by
//! default, `RECOUNT_HISTORY_SCALE=FILES:COMMITS` to scale it), side by side
//! with what it replaces — `recount check --rev` once per commit — and a
//! `grep` fact at one revision side by side with `git grep`. Fresh processes,
//! as a user runs them; medians. BENCHMARKS.md records the results.
//!
//! `RECOUNT_HISTORY_REPO=DIR` keeps the generated repository there (reused when
//! it exists); `RECOUNT_CHECK_EVERY=N` times `check --rev` on every N-th commit
//! of the 1,000 and scales the sum by N (default 1: every commit);
//! `RECOUNT_GREP_REPOS=dir:dir` adds the grep comparison on other repositories
//! (one whose clone lacks blobs, as a partial clone does, is skipped);
//! `RECOUNT_BENCH_PARTS=history,memory,grep` runs only the parts named.

#![allow(clippy::print_stdout)]

#[path = "support/gen_history_repo.rs"]
mod gen_history_repo;
#[path = "support/timing.rs"]
mod timing;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use timing::{median, ms, time_n};

/// Peak resident memory of a command, in MiB, by `/usr/bin/time -f %M`.
fn peak_mib(program: &str, args: &[&str]) -> Option<f64> {
    let output = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(program)
        .args(args)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&output.stderr);
    let kib: f64 = err.lines().last()?.trim().parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let recount = env!("CARGO_BIN_EXE_recount");
    let scale = gen_history_repo::Scale::from_env();
    let kept = std::env::var_os("RECOUNT_HISTORY_REPO").map(PathBuf::from);
    let temp = tempfile::tempdir().expect("temp dir");
    let base = kept.unwrap_or_else(|| temp.path().to_path_buf());
    let repo = base.join("repo.git");
    let rules = base.join("recount.toml");
    let started = Instant::now();
    let commits = if repo.join("HEAD").exists() {
        let git = git2::Repository::open(&repo).expect("open the generated repository");
        let mut walk = git.revwalk().expect("walk");
        walk.push_head().expect("head");
        walk.simplify_first_parent().expect("first parent");
        let mut ids: Vec<git2::Oid> = walk.map(|r| r.expect("commit")).collect();
        ids.reverse();
        ids
    } else {
        std::fs::create_dir_all(&base).expect("folder");
        gen_history_repo::generate(&repo, scale).expect("the repository generates")
    };
    std::fs::write(&rules, gen_history_repo::RULES).expect("rules");
    println!(
        "repository: {} files, {} commits ({} to generate or open)",
        scale.files + 10,
        commits.len(),
        ms(started.elapsed())
    );
    let repo_arg = repo.to_str().expect("utf-8 path");
    let rules_arg = rules.to_str().expect("utf-8 path");
    let cmd = |args: &[&str]| {
        let mut c = Command::new(recount);
        c.env("NO_COLOR", "1")
            .args(args)
            .args(["--repo", repo_arg, "--rules", rules_arg]);
        c
    };

    let parts =
        std::env::var("RECOUNT_BENCH_PARTS").unwrap_or_else(|_| "history,memory,grep".to_owned());
    let part = |name: &str| parts.split(',').any(|p| p == name);
    if part("history") {
        history_vs_checks(&commits, &cmd);
    }
    if part("memory") {
        memory(recount, &commits, repo_arg, rules_arg);
    }
    if part("grep") {
        grep(recount, &base, &repo);
    }
}

fn history_vs_checks(commits: &[git2::Oid], cmd: &dyn Fn(&[&str]) -> Command) {
    // history over the last 1,000 commits vs check --rev on each of them.
    let span = 1000.min(commits.len() - 1);
    let start = commits[commits.len() - 1 - span].to_string();
    let range = format!("{start}..main");
    let history = time_n(5, || {
        cmd(&[
            "history",
            "--range",
            &range,
            "--format",
            "json",
            "--max-commits",
            "5000",
        ])
    });
    let history_one_job = time_n(3, || {
        cmd(&[
            "history", "--range", &range, "--format", "json", "--jobs", "1",
        ])
    });
    let every: usize = std::env::var("RECOUNT_CHECK_EVERY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let last = &commits[commits.len() - span..];
    let sampled: Vec<String> = last.iter().step_by(every).map(|c| c.to_string()).collect();
    let one_check = time_n(5, || {
        cmd(&["check", "--rev", &sampled[0], "--fail-on", "never"])
    });
    let started = Instant::now();
    for rev in &sampled {
        let out = cmd(&[
            "check",
            "--rev",
            rev,
            "--fail-on",
            "never",
            "--format",
            "json",
        ])
        .output()
        .expect("check runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let checks = started
        .elapsed()
        .mul_f64(span as f64 / sampled.len() as f64);
    println!("\n| command | wall | vs history |");
    println!("|---|---:|---:|");
    println!(
        "| `history` over {span} commits | {} | 1.00x |",
        ms(history)
    );
    println!(
        "| `history --jobs 1` over {span} commits | {} | {:.2}x |",
        ms(history_one_job),
        history_one_job.as_secs_f64() / history.as_secs_f64()
    );
    println!(
        "| `check --rev` once per commit, {span} commits{} | {} | {:.1}x |",
        if every > 1 {
            format!(" (every {every}th timed, sum scaled by {every})")
        } else {
            String::new()
        },
        ms(checks),
        checks.as_secs_f64() / history.as_secs_f64()
    );
    println!("| one `check --rev` | {} | |", ms(one_check));
}

fn memory(recount: &str, commits: &[git2::Oid], repo_arg: &str, rules_arg: &str) {
    // Peak memory by the length of the range, on both cores and on one: flat
    // once recount's own bounded caches are full (libgit2's object cache,
    // which grew with the range, is off for walks).
    println!("\npeak memory of `history` by range");
    println!("| range | peak | peak, `--jobs 1` |");
    println!("|---|---:|---:|");
    for n in [100usize, 500, 1000, 2000, 4000, 8000] {
        if n > commits.len() {
            break;
        }
        // The last `n` first-parent commits: the range after the one before
        // them, or the whole line back to the root.
        let range = match commits.len().checked_sub(n + 1) {
            Some(before) => format!("{}..HEAD", commits[before]),
            None => "HEAD".to_owned(),
        };
        let peak = |jobs: &str| {
            peak_mib(
                recount,
                &[
                    "history", "--repo", repo_arg, "--rules", rules_arg, "--format", "json",
                    "--range", &range, "--jobs", jobs,
                ],
            )
            .map_or("-".to_owned(), |p| format!("{p:.1} MiB"))
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        println!(
            "| {n} commits | {} | {} |",
            peak(&cores.to_string()),
            peak("1")
        );
    }
}

fn grep(recount: &str, base: &Path, repo: &Path) {
    // A grep fact at one revision vs git grep, same pattern, revision, path specs.
    let mut grep_repos: Vec<(String, PathBuf, String)> = vec![(
        "generated".to_owned(),
        repo.to_path_buf(),
        "TODO".to_owned(),
    )];
    for dir in std::env::var("RECOUNT_GREP_REPOS")
        .unwrap_or_default()
        .split(':')
    {
        if !dir.is_empty() {
            grep_repos.push((dir.to_owned(), PathBuf::from(dir), "TODO".to_owned()));
        }
    }
    println!(
        "\n| repository | files | grep fact in-process (list tree + search) | `git grep -c` | ratio | `recount facts` process (whole audit) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, dir, pattern) in grep_repos {
        let grep_rules = base.join(format!("grep-{}.toml", grep_rules_name(&dir)));
        std::fs::write(
            &grep_rules,
            format!("[[fact]]\nid = \"todo\"\ngrep = \"{pattern}\"\n"),
        )
        .expect("rules");
        let complete = Command::new("git")
            .args([
                "--git-dir",
                &git_dir(&dir),
                "grep",
                "-c",
                &pattern,
                "HEAD",
                "--",
            ])
            .output()
            .is_ok_and(|o| o.status.code().is_some_and(|c| c <= 1));
        if !complete {
            println!(
                "| {name} | git grep cannot read it (blobs missing from the clone): skipped | | | | |"
            );
            continue;
        }
        let dir_arg = dir.to_str().expect("utf-8 path").to_owned();
        let rules_arg = grep_rules.to_str().expect("utf-8 path").to_owned();
        let process = time_n(11, || {
            let mut c = Command::new(recount);
            c.args([
                "facts", "--repo", &dir_arg, "--rules", &rules_arg, "--rev", "HEAD",
            ]);
            c
        });
        let git = time_n(11, || {
            let mut c = Command::new("git");
            c.args([
                "--git-dir",
                &git_dir(&dir),
                "grep",
                "-c",
                &pattern,
                "HEAD",
                "--",
            ]);
            c
        });
        // The fact alone, in the library: the tree listed and every file
        // searched, as git grep does; a fresh search key each run, so the
        // per-file cache never answers.
        let git_repo = recount::snapshot::GitRepo::open(&dir).expect("opens");
        let regex = regex::Regex::new(&regex::escape(&pattern)).expect("regex");
        let mut files = 0;
        let mut samples = Vec::new();
        for run in 0..12 {
            let start = Instant::now();
            let snapshot = git_repo.tree_snapshot("HEAD").expect("HEAD");
            let hits = recount::facts::grep::grep_lines(
                &snapshot,
                &regex,
                &format!("bench-{run}"),
                &[],
                &[],
            )
            .expect("greps");
            std::hint::black_box(hits);
            files = recount::snapshot::Snapshot::paths(&snapshot).len();
            if run > 0 {
                samples.push(start.elapsed());
            }
        }
        let ours = median(samples);
        println!(
            "| {name} | {files} | {} | {} | {:.2}x | {} |",
            ms(ours),
            ms(git),
            ours.as_secs_f64() / git.as_secs_f64(),
            ms(process)
        );
    }
}

fn grep_rules_name(dir: &Path) -> String {
    dir.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The git directory of a repository given as a work tree or a bare clone.
fn git_dir(dir: &Path) -> String {
    let dot_git = dir.join(".git");
    if dot_git.exists() {
        dot_git.to_string_lossy().into_owned()
    } else {
        dir.to_string_lossy().into_owned()
    }
}
