//! The GitHub Action's steps run here as a runner would run them (`action.yml`
//! read as YAML, each step's script under bash with the runner's variables):
//! one `recount check` process prints the annotations and writes the SARIF and
//! the step summary; an argument with a space stays one argument; and the
//! SARIF upload is decided both ways.

use std::path::Path;
use std::process::Command;

use saphyr::{LoadableYamlNode, Yaml};

use crate::support::build;

/// `node[key]` of a YAML mapping.
fn get<'y>(node: &'y Yaml<'y>, key: &str) -> Option<&'y Yaml<'y>> {
    node.as_mapping()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

/// The `run` script of the step whose `id` is `id`.
fn step(id: &str) -> String {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml"))
        .expect("action.yml");
    let docs = Yaml::load_from_str(&text).expect("YAML");
    let doc = docs.first().expect("a document");
    let steps = get(doc, "runs")
        .and_then(|r| get(r, "steps"))
        .and_then(Yaml::as_vec)
        .expect("steps");
    let found = steps
        .iter()
        .find(|s| get(s, "id").and_then(Yaml::as_str) == Some(id))
        .unwrap_or_else(|| panic!("no step {id}"));
    get(found, "run")
        .and_then(Yaml::as_str)
        .expect("run")
        .to_owned()
}

#[test]
fn the_check_step_runs_recount_once_for_every_output() {
    let repo = build("adr-0031");
    // The rule file under a name with a space: passed as one argument.
    let rules = repo.read("recount.toml");
    repo.write("my rules.toml", &rules);
    let temp = tempfile::tempdir().expect("temp");
    let runner = temp.path();
    std::fs::create_dir_all(runner.join("recount/bin")).expect("bin");
    let runs = runner.join("runs");
    // The installed binary, wrapped to count its runs.
    let wrapper = runner.join("recount/bin/recount");
    std::fs::write(
        &wrapper,
        format!(
            "#!/usr/bin/env bash\necho run >> '{}'\nexec '{}' \"$@\"\n",
            runs.display(),
            env!("CARGO_BIN_EXE_recount")
        ),
    )
    .expect("wrapper");
    Command::new("chmod")
        .args(["+x", &wrapper.display().to_string()])
        .status()
        .expect("chmod");
    let script = step("check");
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(repo.path())
        .env("RUNNER_TEMP", runner)
        .env("GITHUB_OUTPUT", runner.join("output"))
        .env("GITHUB_STEP_SUMMARY", runner.join("summary"))
        .env(
            "RECOUNT_ARGS",
            "--rules\nmy rules.toml\n\n--fail-on\nerror\n",
        )
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&runs).expect("ran").lines().count(),
        1,
        "one check process"
    );
    assert!(stdout.contains("::error file="), "{stdout}");
    let sarif: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(runner.join("recount.sarif")).expect("sarif written"),
    )
    .expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let summary = std::fs::read_to_string(runner.join("summary")).expect("summary");
    assert!(summary.contains("recount"), "{summary}");
    let outputs = std::fs::read_to_string(runner.join("output")).expect("outputs");
    assert_eq!(outputs.trim(), "exit-code=1");
}

fn decide(upload: &str, fork: &str, dir: &Path) -> (String, String) {
    let script = step("sarif");
    let out = dir.join(format!("{upload}-{fork}"));
    let output = Command::new("bash")
        .args(["-c", &script])
        .env("UPLOAD", upload)
        .env("FORK", fork)
        .env("GITHUB_OUTPUT", &out)
        .output()
        .expect("runs");
    assert!(output.status.success());
    (
        std::fs::read_to_string(&out).expect("decided"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn the_sarif_upload_is_skipped_with_a_notice_where_the_token_cannot_write() {
    let dir = tempfile::tempdir().expect("temp");
    let (fork, notice) = decide("auto", "true", dir.path());
    assert_eq!(fork, "upload=false\n");
    assert!(notice.contains("::notice"), "{notice}");
    let (own, _) = decide("auto", "false", dir.path());
    assert_eq!(own, "upload=true\nstrict=false\n");
    let (strict, _) = decide("true", "true", dir.path());
    assert_eq!(strict, "upload=true\nstrict=true\n");
    let (never, _) = decide("false", "false", dir.path());
    assert_eq!(never, "upload=false\n");
}

/// A runner folder whose installed `recount` is this build.
fn runner_with_recount() -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("temp");
    let bin = temp.path().join("recount/bin");
    std::fs::create_dir_all(&bin).expect("bin");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_recount"), bin.join("recount"))
        .expect("link the binary");
    temp
}

/// The check step run in `dir` as a workflow of `event` would run it: its
/// stdout and the exit code it reports.
fn check_step(dir: &Path, runner: &Path, since: &str, base_sha: &str) -> (String, String) {
    let output = Command::new("bash")
        .args(["-c", &step("check")])
        .current_dir(dir)
        .env("RUNNER_TEMP", runner)
        .env("GITHUB_OUTPUT", runner.join("output"))
        .env("GITHUB_STEP_SUMMARY", runner.join("summary"))
        .env("RECOUNT_ARGS", "--no-cache")
        .env("SINCE_INPUT", since)
        .env("PR_BASE_SHA", base_sha)
        .output()
        .expect("runs");
    let outputs = std::fs::read_to_string(runner.join("output")).expect("outputs");
    std::fs::remove_file(runner.join("output")).expect("reset");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        outputs.trim().to_owned(),
    )
}

#[test]
fn a_pull_request_is_held_to_its_range_and_a_push_to_everything() {
    let repo = build("since-range");
    let runner = runner_with_recount();
    // A pull request whose base is 05: only the cap its commit 06 raised,
    // annotated on the record and on the line of code that raised it.
    let (stdout, code) = check_step(repo.path(), runner.path(), "auto", &repo.oid("05"));
    assert_eq!(code, "exit-code=1");
    let annotations: Vec<&str> = stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 2, "{stdout}");
    assert!(
        annotations[0].starts_with("::error file=docs/guide.md,line=5,"),
        "{stdout}"
    );
    assert!(
        annotations[1].starts_with("::error file=src/limits.py,line=1,"),
        "{stdout}"
    );
    // A push (no pull request): the full check, old findings and all.
    let (stdout, _) = check_step(repo.path(), runner.path(), "auto", "");
    assert!(stdout.contains("tools/launch.py"), "{stdout}");
    // Turned off: the full check on a pull request too.
    let (stdout, _) = check_step(repo.path(), runner.path(), "", &repo.oid("05"));
    assert!(stdout.contains("tools/launch.py"), "{stdout}");
}

#[test]
fn a_shallow_checkout_is_deepened_to_the_pull_requests_base() {
    let repo = build("since-range");
    let runner = runner_with_recount();
    let clone = tempfile::tempdir().expect("temp");
    let status = Command::new("git")
        .args(["clone", "-q", "--depth", "1"])
        .arg(format!("file://{}", repo.path().display()))
        .arg(clone.path())
        .status()
        .expect("git clone");
    assert!(status.success());
    let base = repo.oid("03");
    let deepen = Command::new("bash")
        .args(["-c", &step("deepen")])
        .current_dir(clone.path())
        .env("SINCE_INPUT", "auto")
        .env("PR_BASE_SHA", &base)
        .env("PR_COMMITS", "3")
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("runs");
    assert!(deepen.success());
    let (stdout, code) = check_step(clone.path(), runner.path(), "auto", &base);
    assert_eq!(code, "exit-code=1", "{stdout}");
    assert!(stdout.contains("file=docs/guide.md,line=11,"), "{stdout}");
    assert!(!stdout.contains("tools/launch.py"), "{stdout}");
}
