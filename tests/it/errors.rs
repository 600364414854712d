//! Errors as data: a run that cannot run (exit 2) still prints a document on
//! stdout with `--format json` or `--format sarif`, carrying the error and where
//! it is, so a CI step that parses stdout gets a reason. The diagnostic still
//! goes to stderr, and the human format prints nothing on stdout.

use serde_json::Value;

use crate::support::{Repo, accepted_by_the_report_schema, build, stderr, stdout};

const BAD_RULES: &str = "[[fact]]\nid = \"x\"\nfiles = \"*.md\"\nclaimz = []\n";

/// `check ARGS --format FORMAT` in the gate fixture: exit code, stdout, stderr.
fn run(repo: &Repo, format: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["check", "--format", format];
    all.extend_from_slice(args);
    let output = repo.recount(&all).output().expect("runs");
    (output.status.code(), stdout(&output), stderr(&output))
}

fn with_bad_rules() -> Repo {
    let repo = build("gate");
    repo.write("bad.toml", BAD_RULES);
    repo
}

#[test]
fn json_carries_a_bad_rule_file_with_its_place() {
    let repo = with_bad_rules();
    let (code, out, err) = run(&repo, "json", &["--rules", "bad.toml"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown key `claimz`"),
        "stderr keeps the diagnostic: {err}"
    );
    let report: Value = serde_json::from_str(&out).expect("stdout is a JSON document");
    let error = &report["error"];
    assert_eq!(error["code"], "recount::input");
    assert!(
        error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("unknown key `claimz`"),
        "{report:#}"
    );
    assert_eq!(error["path"], "bad.toml");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(report["facts"], Value::Array(vec![]));
    assert_eq!(report["findings"], Value::Array(vec![]));
    assert!(accepted_by_the_report_schema(&report), "{report:#}");
}

#[test]
fn json_carries_an_unknown_revision() {
    let repo = build("gate");
    let (code, out, _) = run(&repo, "json", &["--rev", "no-such-rev"]);
    assert_eq!(code, Some(2));
    let report: Value = serde_json::from_str(&out).expect("stdout is a JSON document");
    assert_eq!(report["error"]["code"], "recount::run");
    assert!(
        report["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("no-such-rev"),
        "{report:#}"
    );
    assert!(report["error"].get("path").is_none());
    assert_eq!(report["snapshot"]["label"], "no-such-rev");
    assert!(accepted_by_the_report_schema(&report), "{report:#}");
    // And the schema holds the error's shape: an error with no message is refused.
    let mut broken = report.clone();
    broken["error"]
        .as_object_mut()
        .expect("error")
        .remove("message");
    assert!(!accepted_by_the_report_schema(&broken));
}

fn sarif_invocation(out: &str) -> Value {
    let sarif: Value = serde_json::from_str(out).expect("stdout is a SARIF document");
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"], Value::Array(vec![]));
    sarif["runs"][0]["invocations"][0].clone()
}

#[test]
fn sarif_carries_a_bad_rule_file_as_a_notification() {
    let repo = with_bad_rules();
    let (code, out, _) = run(&repo, "sarif", &["--rules", "bad.toml"]);
    assert_eq!(code, Some(2));
    let invocation = sarif_invocation(&out);
    assert_eq!(invocation["executionSuccessful"], false);
    let note = &invocation["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert_eq!(note["descriptor"]["id"], "recount::input");
    assert!(
        note["message"]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("unknown key `claimz`"),
        "{note:#}"
    );
    let place = &note["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], "bad.toml");
    assert_eq!(place["region"]["startLine"], 4);
    assert_eq!(place["region"]["startColumn"], 1);
}

#[test]
fn sarif_carries_an_unknown_revision() {
    let repo = build("gate");
    let (code, out, _) = run(&repo, "sarif", &["--rev", "no-such-rev"]);
    assert_eq!(code, Some(2));
    let invocation = sarif_invocation(&out);
    assert_eq!(invocation["executionSuccessful"], false);
    let note = &invocation["toolExecutionNotifications"][0];
    assert!(
        note["message"]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("no-such-rev"),
        "{note:#}"
    );
    assert!(note.get("locations").is_none());
}

#[test]
fn a_run_that_completes_says_so_in_sarif() {
    let repo = build("gate");
    let (code, out, _) = run(&repo, "sarif", &["--rev", &repo.oid("01")]);
    assert_eq!(code, Some(0));
    let invocation = sarif_invocation(&out);
    assert_eq!(invocation["executionSuccessful"], true);
    assert!(invocation.get("toolExecutionNotifications").is_none());
}

#[test]
fn github_annotates_the_error_and_human_keeps_stdout_empty() {
    let repo = with_bad_rules();
    let (code, out, _) = run(&repo, "github", &["--rules", "bad.toml"]);
    assert_eq!(code, Some(2));
    assert!(
        out.starts_with(
            "::error file=bad.toml,line=4,col=1,title=recount could not run::unknown key `claimz`"
        ),
        "{out}"
    );
    let (code, out, err) = run(&repo, "human", &["--rules", "bad.toml"]);
    assert_eq!(code, Some(2));
    assert_eq!(out, "");
    assert!(err.contains("bad.toml:4:1"), "{err}");
}

#[test]
fn a_person_reads_the_kind_of_problem_and_a_machine_the_code() {
    let repo = with_bad_rules();
    let (_, _, err) = run(&repo, "human", &["--rules", "bad.toml"]);
    assert!(err.trim_start().starts_with("bad input"), "{err}");
    assert!(!err.contains("recount::input"), "{err}");
    let (_, _, err) = run(&repo, "human", &["--rev", "no-such-revision"]);
    assert!(
        err.trim_start().starts_with("recount could not run"),
        "{err}"
    );
}

/// A copy of the fixture's git folder alone, as a mirror keeps it
/// (`MIRROR/repo`, no configuration file), in a new temporary folder.
fn git_folder_alone(repo: &Repo) -> tempfile::TempDir {
    let mirror = tempfile::tempdir().expect("temp dir");
    let to = mirror.path().join("repo");
    let status = std::process::Command::new("cp")
        .arg("-R")
        .arg(repo.path().join(".git"))
        .arg(&to)
        .status()
        .expect("cp runs");
    assert!(status.success());
    std::fs::remove_file(to.join("config")).expect("a config to remove");
    mirror
}

#[test]
fn a_git_folder_without_a_working_tree_is_read_as_bare_never_as_the_folder_around_it() {
    // libgit2 takes such a folder's parent for its working tree: read as one,
    // the audit found no records and said "clean", and init wrote there.
    let repo = build("adr-0031");
    let mirror = git_folder_alone(&repo);
    let git = mirror.path().join("repo");
    let git = git.to_str().expect("utf-8 path");
    let run = |args: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("recount").expect("binary builds");
        cmd.args(args).env("NO_COLOR", "1").output().expect("runs")
    };
    let output = run(&["check", "--repo", git]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert!(
        stderr(&output).contains("is a bare repository"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("--rev"), "{}", stderr(&output));
    // A commit is read as in any bare repository: the records are there.
    let output = run(&["check", "--repo", git, "--rev", "HEAD", "--format", "json"]);
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_ne!(output.status.code(), Some(2), "{report:#}");
    assert!(
        report["citations"]["checked"].as_u64().unwrap_or(0) > 0,
        "{report:#}"
    );
    // init has nowhere to write: nothing lands beside the git folder.
    let output = run(&["init", "--repo", git, "--rev", "HEAD"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let beside: Vec<_> = std::fs::read_dir(mirror.path())
        .expect("listing")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(beside, [std::ffi::OsString::from("repo")]);
}
