//! `cargo bench --bench blame`: the citation evidence's blame — the commit that
//! wrote each citation into its record — side by side with `git blame -L` on
//! the same lines, on real repositories. Fresh processes, as a user runs them;
//! medians, the two commands run in turn so the machine's drift hits both.
//!
//! `RECOUNT_BLAME_REPOS=dir:dir` names the repositories (bare or not; none
//! given, recount's own checkout). In each, at `HEAD`, the records with the
//! most citations (`RECOUNT_BLAME_RECORDS`, default 3) are audited one at a
//! time (`[cites] records` naming just that one), three ways:
//!
//! - `recount cites` (the audit alone: reading, resolving, judging);
//! - `recount cites --written` (the audit and the writing commit of every
//!   citation: the difference is the blame's own cost);
//! - `git blame --first-parent -L N,N …` over the citations' distinct lines.
//!
//! `RECOUNT_BENCH_RUNS` sets the runs per command (default 7).

#![allow(clippy::print_stdout)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/timing.rs"]
mod timing;

use timing::{median, ms, timed};

/// The git folder of `dir` for `git --git-dir` (a bare repository is its own).
fn git_dir(dir: &Path) -> PathBuf {
    if dir.join(".git").exists() {
        dir.join(".git")
    } else {
        dir.to_path_buf()
    }
}

fn main() {
    let recount = env!("CARGO_BIN_EXE_recount");
    let repos: Vec<PathBuf> = match std::env::var_os("RECOUNT_BLAME_REPOS") {
        Some(list) => std::env::split_paths(&list).collect(),
        None => vec![PathBuf::from(env!("CARGO_MANIFEST_DIR"))],
    };
    let per_repo: usize = std::env::var("RECOUNT_BLAME_RECORDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let runs: usize = std::env::var("RECOUNT_BENCH_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(7);
    let scratch = tempfile::tempdir().expect("temp dir");
    println!(
        "| repository | record | citations | lines | `recount cites` | `recount cites --written` | blame's own cost | `git blame -L` | blame / git |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for repo in &repos {
        let repo_arg = repo.to_str().expect("utf-8 path");
        // Every citation at HEAD, to pick the records with the most.
        let output = Command::new(recount)
            .args([
                "cites", "--repo", repo_arg, "--rev", "HEAD", "--format", "json",
            ])
            .output()
            .expect("recount cites runs");
        let listing: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("the cites JSON");
        let mut lines: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for cite in listing["citations"].as_array().into_iter().flatten() {
            let (Some(record), Some(at)) = (cite["record"].as_str(), cite["at"].as_str()) else {
                continue;
            };
            // `record:line:column`; the record may hold colons of its own.
            let mut parts = at.rsplitn(3, ':');
            let (_, Some(line)) = (parts.next(), parts.next().and_then(|l| l.parse().ok())) else {
                continue;
            };
            lines.entry(record.to_owned()).or_default().insert(line);
            *counts.entry(record.to_owned()).or_default() += 1;
        }
        let mut records: Vec<(&String, &usize)> = counts.iter().collect();
        records.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (record, count) in records.into_iter().take(per_repo) {
            let rules = scratch.path().join("rules.toml");
            let quoted = serde_json::to_string(record).expect("a TOML basic string");
            std::fs::write(&rules, format!("[cites]\nrecords = [{quoted}]\n")).expect("rules");
            let rules_arg = rules.to_str().expect("utf-8 path");
            let cites = |written: bool| {
                let mut c = Command::new(recount);
                c.args([
                    "cites", "--repo", repo_arg, "--rev", "HEAD", "--rules", rules_arg,
                ])
                .args(["--format", "json"]);
                if written {
                    c.arg("--written");
                }
                c
            };
            let cited = &lines[record];
            let blame = || {
                let mut c = Command::new("git");
                c.arg("--git-dir").arg(git_dir(repo)).args([
                    "blame",
                    "--first-parent",
                    "--porcelain",
                ]);
                for line in cited {
                    c.arg("-L").arg(format!("{line},{line}"));
                }
                c.args(["HEAD", "--", record]);
                c
            };
            // A warm-up of each, then the three in turn.
            timed(&mut cites(false));
            timed(&mut cites(true));
            timed(&mut blame());
            let (mut alone, mut with, mut git) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..runs {
                alone.push(timed(&mut cites(false)));
                with.push(timed(&mut cites(true)));
                git.push(timed(&mut blame()));
            }
            let (alone, with, git) = (median(alone), median(with), median(git));
            let own = with.saturating_sub(alone);
            let name = repo
                .file_name()
                .filter(|n| *n != "repo")
                .or_else(|| repo.parent().and_then(Path::file_name))
                .map_or_else(|| repo_arg.to_owned(), |n| n.to_string_lossy().into_owned());
            println!(
                "| {name} | `{record}` | {count} | {} | {} | {} | {} | {} | {:.2}x |",
                cited.len(),
                ms(alone),
                ms(with),
                ms(own),
                ms(git),
                own.as_secs_f64() / git.as_secs_f64().max(1e-9),
            );
        }
    }
}
