//! Every check against every fixture commit, cargo-semver-checks style: each
//! fixture is built, `recount check --format json --rev C` runs at each of its
//! commits, and what it finds is snapshotted (insta), so a change in any
//! check's behaviour on any commit is visible in review. Across the matrix every
//! check id fires somewhere, and the commit meant to be clean has no finding.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use crate::support::{Repo, build, fixtures, stderr, stdout};

/// The fixtures that are commit series.
fn series() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("commits").is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// What `check` makes of one commit, one line per finding.
fn outcome(repo: &Repo, oid: &str, fired: &mut BTreeSet<String>) -> String {
    let output = repo
        .recount(&["check", "--format", "json", "--rev", oid])
        .output()
        .expect("runs");
    let code = output.status.code().expect("exit code");
    let mut text = format!("exit {code}\n");
    if code == 2 {
        let first = stderr(&output)
            .lines()
            .find(|l| l.contains('×'))
            .unwrap_or_default()
            .trim()
            .to_owned();
        let _ = writeln!(text, "could not run: {first}");
        // The repository is built in a temporary folder: name it the same way
        // on every run (a commit of a deleted branch is an unknown revision).
        let mut text = text.replace(&repo.path().display().to_string(), "<repo>");
        if let Ok(real) = repo.path().canonicalize() {
            text = text.replace(&real.display().to_string(), "<repo>");
        }
        return text;
    }
    let report: Value = serde_json::from_str(&stdout(&output)).expect("JSON report");
    counts_are_the_findings_counts(&report, oid);
    for f in report["findings"].as_array().expect("findings") {
        let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        fired.insert(s(&f["check"]));
        let _ = writeln!(
            text,
            "{} {} {}:{}:{} {}",
            s(&f["severity"]),
            s(&f["check"]),
            s(&f["location"]["path"]),
            f["location"]["line"],
            f["location"]["column"],
            s(&f["message"]),
        );
    }
    text
}

/// Per fact, the facts table's counts are the findings' counts: `drifted` is
/// its `fact-drift` findings, `not_found` its `claim-not-found` findings, and
/// `ok` the places found that did not drift — none for an unverified fact, whose
/// places are found and never compared.
fn counts_are_the_findings_counts(report: &Value, oid: &str) {
    let findings = report["findings"].as_array().expect("findings");
    for fact in report["facts"].as_array().expect("facts") {
        let id = &fact["id"];
        let of = |check: &str| {
            findings
                .iter()
                .filter(|f| f["fact"] == *id && f["check"] == check)
                .count() as u64
        };
        let n = |key: &str| fact["claims"][key].as_u64().expect("count");
        assert_eq!(n("drifted"), of("fact-drift"), "{id} at {oid}: {fact:#}");
        assert_eq!(n("not_found"), of("claim-not-found"), "{id} at {oid}");
        if fact.get("unverified").is_some() {
            // Stated places of an unverified fact are found but never compared.
            assert_eq!((n("ok"), n("drifted")), (0, 0), "{id} at {oid}");
        } else {
            assert_eq!(n("ok") + n("drifted"), n("found"), "{id} at {oid}");
        }
    }
}

#[test]
fn every_check_runs_against_every_fixture_commit() {
    let mut fired = BTreeSet::new();
    let mut clean_commits = Vec::new();
    for case in series() {
        let repo = build(&case);
        for (name, oid) in &repo.commits {
            let text = outcome(&repo, oid, &mut fired);
            if text == "exit 0\n" {
                clean_commits.push(format!("{case}/{name}"));
            }
            insta::assert_snapshot!(format!("{case}__{name}"), text);
        }
    }
    let all: BTreeSet<String> = recount::checks::CheckId::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    let silent: Vec<&String> = all.difference(&fired).collect();
    assert!(
        silent.is_empty(),
        "checks that fire on no fixture commit: {silent:?}"
    );
    // The adr-0031 series is built so that commit 04 holds for every check.
    assert!(
        clean_commits
            .iter()
            .any(|c| c == "adr-0031/04-audit-records-with-recount"),
        "clean commits: {clean_commits:?}"
    );
}
