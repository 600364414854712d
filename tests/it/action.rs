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

/// A clone of `repo`'s last commit alone, as actions/checkout makes one.
fn shallow_clone(repo: &crate::support::Repo) -> tempfile::TempDir {
    let clone = tempfile::tempdir().expect("temp");
    let status = Command::new("git")
        .args(["clone", "-q", "--depth", "1"])
        .arg(format!("file://{}", repo.path().display()))
        .arg(clone.path())
        .status()
        .expect("git clone");
    assert!(status.success());
    clone
}

#[test]
fn a_shallow_checkout_is_deepened_to_the_pull_requests_base() {
    let repo = build("since-range");
    let runner = runner_with_recount();
    let clone = shallow_clone(&repo);
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

#[test]
fn a_shallow_checkout_says_what_it_could_not_judge_until_deepened_whole() {
    // `fixtures/since-range` on a clone of its last commit alone: the check
    // says the history stops short and how many citations it could not
    // judge; a push's deepen step (no range) fetches the whole history, and
    // the note is gone.
    let repo = build("since-range");
    let clone = shallow_clone(&repo);
    let check = || {
        let out = Command::new(env!("CARGO_BIN_EXE_recount"))
            .args(["check", "--no-cache"])
            .current_dir(clone.path())
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let before = check();
    assert!(
        before.contains("this clone is shallow: it holds 1 commit of the history"),
        "{before}"
    );
    assert!(before.contains("could not be judged"), "{before}");
    let deepen = Command::new("bash")
        .args(["-c", &step("deepen")])
        .current_dir(clone.path())
        .env("SINCE_INPUT", "auto")
        .env("PR_BASE_SHA", "")
        .env("PR_COMMITS", "")
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("runs");
    assert!(deepen.success());
    let after = check();
    assert!(!after.contains("shallow"), "{after}");
}

/// A `git` that runs nothing: it logs each call (one line, its arguments
/// separated by U+001F) to `log`, says the clone is shallow, and fails every
/// other command, so `deepen.sh` takes each of its fallbacks in turn.
fn fake_git(dir: &Path, log: &Path) -> std::path::PathBuf {
    let bin = dir.join("fake-bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let git = bin.join("git");
    std::fs::write(
        &git,
        format!(
            "#!/usr/bin/env bash\n\
             {{ printf '%s' git; for a in \"$@\"; do printf '\\037%s' \"$a\"; done; printf '\\n'; }} >> '{}'\n\
             if [ \"$1\" = rev-parse ] && [ \"$2\" = --is-shallow-repository ]; then echo true; exit 0; fi\n\
             exit 1\n",
            log.display()
        ),
    )
    .expect("fake git");
    Command::new("chmod")
        .args(["+x", &git.display().to_string()])
        .status()
        .expect("chmod");
    bin
}

/// The deepen step run under the fake `git` with these inputs: every git call
/// as its argument list, and what the step printed on stderr.
fn deepen_with_fake_git(since: &str, base_sha: &str, commits: &str) -> (Vec<Vec<String>>, String) {
    let dir = tempfile::tempdir().expect("temp");
    let log = dir.path().join("git.log");
    let bin = fake_git(dir.path(), &log);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("bash")
        .args(["-c", &step("deepen")])
        .current_dir(dir.path())
        .env("PATH", path)
        .env("SINCE_INPUT", since)
        .env("PR_BASE_SHA", base_sha)
        .env("PR_COMMITS", commits)
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let calls = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(|line| line.split('\u{1f}').skip(1).map(str::to_owned).collect())
        .collect();
    (calls, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Whether no argument of `call` holds `value` before git's options end (`--`,
/// or `--end-of-options` for rev-parse) except glued into one `--opt=VALUE`
/// word, which git reads as that option's value and nothing else.
fn only_after_the_options(call: &[String], value: &str) -> bool {
    let end = call
        .iter()
        .position(|a| a == "--" || a == "--end-of-options")
        .unwrap_or(call.len());
    call[..end].iter().all(|arg| {
        !arg.contains(value)
            || arg
                .split_once('=')
                .is_some_and(|(option, rest)| option.starts_with("--") && rest == value)
    })
}

#[test]
fn deepen_hands_git_an_input_only_as_data_and_evaluates_no_number() {
    let temp = tempfile::tempdir().expect("temp");
    let upload = temp.path().join("upload-pack-ran");
    let arithmetic = temp.path().join("arithmetic-ran");
    let since = format!("--upload-pack=touch {}", upload.display());
    let commits = format!("PATH[$(touch {})]", arithmetic.display());
    let sha = "0123456789abcdef0123456789abcdef01234567";

    // A pull request whose length is not a number: the base fetched from the
    // remote (the remote first), the length read as 0, then the whole history.
    let (calls, stderr) = deepen_with_fake_git("auto", sha, &commits);
    let fetches: Vec<&Vec<String>> = calls.iter().filter(|c| c[0] == "fetch").collect();
    assert_eq!(
        fetches[0][1..],
        ["--no-tags", "--quiet", "--depth=1", "--", "origin", sha],
        "{calls:?}"
    );
    assert_eq!(
        fetches[1][1..],
        ["--no-tags", "--quiet", "--deepen=2", "--", "origin"]
    );
    assert_eq!(
        fetches[2][1..],
        ["--no-tags", "--quiet", "--unshallow", "--", "origin"]
    );
    assert!(stderr.contains("PR_COMMITS is not a number"), "{stderr}");
    for call in &calls {
        assert!(only_after_the_options(call, sha), "{call:?}");
    }

    // A `since` that is an option: every git call gets it as a revision or as
    // a date, never as an option of its own.
    let (calls, _) = deepen_with_fake_git(&since, sha, &commits);
    let uses: Vec<&Vec<String>> = calls
        .iter()
        .filter(|c| c.iter().any(|a| a.contains(&since)))
        .collect();
    assert_eq!(
        uses.len(),
        3,
        "a fetch, a rev-parse, a shallow-since: {calls:?}"
    );
    for call in &calls {
        assert!(only_after_the_options(call, &since), "{call:?}");
        if call[0] == "fetch" {
            let remote = call.iter().position(|a| a == "origin").expect("a remote");
            assert_eq!(call[remote - 1], "--", "{call:?}");
        }
    }
    assert_eq!(
        uses[0][1..],
        [
            "--no-tags",
            "--quiet",
            "--depth=1",
            "--",
            "origin",
            since.as_str()
        ]
    );
    assert!(!upload.exists(), "the since input ran a command");
    assert!(!arithmetic.exists(), "PR_COMMITS ran a command");
}

#[test]
fn a_hostile_since_runs_nothing_through_a_real_fetch() {
    // The attack as git would carry it out: an upload-pack option reaches a
    // local fetch, which runs the command through the shell.
    let repo = build("since-range");
    let clone = shallow_clone(&repo);
    let marker = clone.path().join("upload-pack-ran");
    let arithmetic = clone.path().join("arithmetic-ran");
    let deepen = Command::new("bash")
        .args(["-c", &step("deepen")])
        .current_dir(clone.path())
        .env(
            "SINCE_INPUT",
            format!("--upload-pack=touch {}", marker.display()),
        )
        .env("PR_BASE_SHA", "")
        .env(
            "PR_COMMITS",
            format!("PATH[$(touch {})]", arithmetic.display()),
        )
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("runs");
    assert!(deepen.success());
    assert!(!marker.exists(), "the since input ran a command");
    assert!(!arithmetic.exists(), "PR_COMMITS ran a command");
}

/// The binary's cache key names what it is made from: a release by its
/// version, a build by the digest of its sources (the same sources, the
/// same key; never the ref the workflow wrote). A version that is no
/// release number stops the job before it reaches a key or an address.
#[test]
fn the_binary_is_cached_by_what_it_is_made_from() {
    let script = step("binary");
    let key = |version: &str, action_ref: &str| -> (Option<i32>, String) {
        let out = tempfile::NamedTempFile::new().expect("output file");
        let run = std::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
            .env("GITHUB_OUTPUT", out.path())
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("ACTION_REF", action_ref)
            .env("VERSION_INPUT", version)
            .env("RELEASE_URL", "")
            .output()
            .expect("bash runs");
        (
            run.status.code(),
            std::fs::read_to_string(out.path()).expect("output"),
        )
    };
    assert_eq!(
        key("v0.2.1", "main"),
        (
            Some(0),
            "key=recount-bin-version-0.2.1-Linux-X64\n".to_owned()
        )
    );
    assert_eq!(
        key("", "v0.3.0").1,
        "key=recount-bin-version-0.3.0-Linux-X64\n"
    );
    let (code, built) = key("", "main");
    assert_eq!(code, Some(0));
    assert!(built.starts_with("key=recount-bin-source-"), "{built}");
    // Another ref of the same sources is the same binary.
    assert_eq!(key("", "").1, built);
    for hostile in ["x$(id)", "1.0\nkey=evil", "../1.0"] {
        let (code, written) = key(hostile, "main");
        assert_eq!(code, Some(1), "{hostile:?}");
        assert!(written.is_empty(), "{hostile:?}: {written}");
    }
}
