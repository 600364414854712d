//! Hostile input, written as the attacks of issue 10: rule files, records, file
//! names and tool calls that whoever opens a pull request controls. Each test is
//! the attack; each asserts the located error (exit 2) or the refusal (exit 1),
//! and that nothing the attacker wanted printed or executed gets through.

use std::io::{Read, Write};
use std::process::{Command as StdCommand, Stdio};

use crate::support::{self, Repo, stderr, stdout};

/// Set in every child's environment; no output may ever contain it.
const SECRET: &str = "s3cr3t-runner-token-4d1c";

const FORMATS: [&str; 5] = ["human", "json", "github", "sarif", "markdown"];

fn recount_bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("recount")
}

/// `recount check --format FORMAT` in `repo` with the secret in its environment:
/// exit code and everything it printed, stdout and stderr together.
fn check(repo: &Repo, format: &str) -> (i32, String) {
    let output = repo
        .recount(&["check", "--format", format])
        .env("RECOUNT_TEST_SECRET", SECRET)
        .output()
        .expect("runs");
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    (output.status.code().unwrap_or(-1), printed)
}

/// Human output with its wrapping undone: one space for each run of blanks and
/// the diagnostic's margin.
fn unwrapped(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What no output may hold: the raw escape and bidi characters the attacks use,
/// and a line that a CI runner reads as a command which recount did not write.
fn assert_inert(printed: &str, format: &str) {
    for hazard in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\u{2066}', '\r'] {
        assert!(
            !printed.contains(hazard),
            "{format}: raw {hazard:?} printed:\n{printed}"
        );
    }
    for line in printed.lines() {
        let line = line.trim_start();
        let ours = format == "github"
            && (line.starts_with("::error file=")
                || line.starts_with("::warning file=")
                || line.starts_with("::error title=recount could not run::"));
        assert!(
            !(line.starts_with("::") || line.starts_with("##[")) || ours,
            "{format}: a line a CI runner would execute:\n{line}"
        );
    }
}

// --- `include` reads any file on the machine and prints it -----------------

#[test]
fn an_include_of_the_runners_environment_is_refused_and_prints_none_of_it() {
    let repo = support::build("gate");
    repo.write(
        "recount.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\ninclude = [\"/proc/self/environ\"]\n",
    );
    for format in FORMATS {
        let (code, printed) = check(&repo, format);
        assert_eq!(code, 2, "{format}: {printed}");
        assert!(
            !printed.contains(SECRET),
            "{format} printed the secret:\n{printed}"
        );
        assert!(
            !printed.contains("PATH="),
            "{format} printed the environment:\n{printed}"
        );
        assert!(
            unwrapped(&printed).contains("absolute path"),
            "{format}: {printed}"
        );
    }
    // Human: located at the include entry, file:line:column.
    let (_, printed) = check(&repo, "human");
    assert!(printed.contains("recount.toml:3:12"), "{printed}");
}

#[test]
fn includes_that_leave_the_repository_or_follow_a_link_out_are_refused() {
    let repo = support::build("gate");
    let outside = tempfile::tempdir().expect("temp dir");
    let secret = outside.path().join("secret.toml");
    std::fs::write(&secret, format!("token = \"{SECRET}\"\n")).expect("write");
    let up = std::iter::repeat_n("..", 12).collect::<Vec<_>>().join("/");
    let escape = format!("{up}{}", secret.display());
    std::os::unix::fs::symlink(&secret, repo.path().join("link.toml")).expect("symlink");
    std::fs::create_dir_all(repo.path().join("rules")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path(), repo.path().join("rules/out")).expect("symlink");
    for (include, why) in [
        (escape.as_str(), "leaves the repository"),
        ("link.toml", "symbolic link"),
        ("rules/out/secret.toml", "symbolic link"),
        (".git/config.toml", ".git"),
        ("/etc/passwd", "absolute path"),
    ] {
        repo.write(
            "recount.toml",
            &format!("[recount]\nrecords = [\"docs/*.md\"]\ninclude = [\"{include}\"]\n"),
        );
        for format in FORMATS {
            let (code, printed) = check(&repo, format);
            assert_eq!(code, 2, "{include} {format}: {printed}");
            assert!(!printed.contains(SECRET), "{include} {format}:\n{printed}");
            assert!(!printed.contains("root:"), "{include} {format}:\n{printed}");
            assert!(
                unwrapped(&printed).contains(why),
                "{include} {format}: {printed}"
            );
        }
    }
}

#[test]
fn a_rule_file_named_on_the_command_line_may_lie_outside_the_repository() {
    let repo = support::build("gate");
    let outside = tempfile::tempdir().expect("temp dir");
    let rules = outside.path().join("rules.toml");
    std::fs::write(&rules, "[recount]\nrecords = [\"docs/*.md\"]\n").expect("write");
    let output = repo
        .recount(&["check", "--rules", &rules.display().to_string()])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

// --- a rule file or baseline that is a link to the runner's environment -----

/// `recount ARGS --format FORMAT` in `repo` with the secret in its environment.
fn run_with_secret(repo: &Repo, args: &[&str], format: &str) -> (i32, String) {
    let mut all = args.to_vec();
    all.extend(["--format", format]);
    let output = repo
        .recount(&all)
        .env("RECOUNT_TEST_SECRET", SECRET)
        .output()
        .expect("runs");
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    (output.status.code().unwrap_or(-1), printed)
}

#[test]
fn a_rule_file_or_baseline_linked_to_the_environment_prints_none_of_it() {
    let cases: [(&str, &[&str]); 3] = [
        ("recount.toml", &["check"]),
        ("rules/ci.toml", &["check", "--rules", "rules/ci.toml"]),
        ("b.json", &["check", "--baseline", "b.json"]),
    ];
    for (link, args) in cases {
        let repo = support::build("gate");
        std::fs::create_dir_all(repo.path().join("rules")).expect("mkdir");
        let _ = std::fs::remove_file(repo.path().join(link));
        std::os::unix::fs::symlink("/proc/self/environ", repo.path().join(link)).expect("symlink");
        for format in FORMATS {
            let (code, printed) = run_with_secret(&repo, args, format);
            assert_eq!(code, 2, "{link} {format}: {printed}");
            assert!(
                !printed.contains(SECRET),
                "{link} {format} printed the secret:\n{printed}"
            );
            assert!(!printed.contains("PATH="), "{link} {format}:\n{printed}");
            assert!(
                unwrapped(&printed).contains("symbolic link out of the repository"),
                "{link} {format}: {printed}"
            );
        }
    }
}

#[test]
fn a_link_inside_the_repository_to_a_rule_file_inside_it_is_followed() {
    let repo = support::build("gate");
    let rules = repo.read("recount.toml");
    repo.write("shared/ci.toml", &rules);
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    std::os::unix::fs::symlink("shared/ci.toml", repo.path().join("recount.toml"))
        .expect("symlink");
    let linked = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write("recount.toml", &rules);
    let plain = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(linked.status.code(), Some(1), "{}", stderr(&linked));
    assert_eq!(plain.status.code(), Some(1), "{}", stderr(&plain));
    // The same findings; a rule's own location names the file the link leads to.
    let findings = |output: &std::process::Output| {
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| (f["check"].to_string(), f["message"].to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(findings(&linked).len(), 3);
    assert_eq!(findings(&linked), findings(&plain));
}

/// `recount ARGS` under a 1 GiB address-space limit, so a read that does not
/// stop at its cap fails the test instead of the machine.
fn under_memory_cap(repo: &Repo, args: &str) -> std::process::Output {
    capped_in(repo.path(), args)
}

/// `recount ARGS` in `dir` under the same 1 GiB address-space limit.
fn capped_in(dir: &std::path::Path, args: &str) -> std::process::Output {
    limited_in(dir, args, "ulimit -v 1048576")
}

/// `recount ARGS` in `dir` after the shell's `limits` (`ulimit` commands).
fn limited_in(dir: &std::path::Path, args: &str, limits: &str) -> std::process::Output {
    StdCommand::new("sh")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("RECOUNT_CACHE_DIR", "")
        .arg("-c")
        .arg(format!(
            "{limits} && exec '{}' {args}",
            recount_bin().display()
        ))
        .output()
        .expect("runs")
}

#[test]
fn dev_zero_and_a_sparse_gigabyte_as_rule_file_or_baseline_are_refused_unread() {
    let repo = support::build("gate");
    let sparse = repo.path().join("huge.toml");
    std::fs::File::create(&sparse)
        .and_then(|f| f.set_len(1 << 30))
        .expect("sparse file");
    let sparse_json = repo.path().join("huge.json");
    std::fs::File::create(&sparse_json)
        .and_then(|f| f.set_len(1 << 30))
        .expect("sparse file");
    for (args, why) in [
        ("check --rules /dev/zero", "not a regular file"),
        ("check --baseline /dev/zero", "not a regular file"),
        (
            "check --rules huge.toml",
            "over the 1048576-byte cap for a rule file",
        ),
        (
            "check --baseline huge.json",
            "over the 33554432-byte cap for a baseline",
        ),
    ] {
        let output = under_memory_cap(&repo, args);
        assert_eq!(output.status.code(), Some(2), "{args}: {}", stderr(&output));
        assert!(
            unwrapped(&stderr(&output)).contains(why),
            "{args}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_baseline_is_never_written_through_a_link() {
    let repo = support::build("gate");
    let outside = tempfile::tempdir().expect("temp dir");
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "keep me\n").expect("write");
    std::os::unix::fs::symlink(&victim, repo.path().join("b.json")).expect("symlink");
    let output = repo
        .recount(&["check", "--write-baseline", "b.json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        unwrapped(&stderr(&output)).contains("symbolic link, and recount writes through none"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "keep me\n");
}

// --- an include cycle through ../ --------------------------------------------

#[test]
fn an_include_cycle_through_dot_dot_is_one_located_error_naming_the_chain() {
    let repo = support::build("gate");
    repo.write(
        "recount.toml",
        "[recount]\ninclude = [\"rules/extra.toml\"]\n",
    );
    repo.write(
        "rules/extra.toml",
        "[recount]\ninclude = [\"../recount.toml\"]\n",
    );
    let (code, printed) = check(&repo, "human");
    assert_eq!(code, 2, "{printed}");
    assert!(
        unwrapped(&printed)
            .contains("include cycle: recount.toml -> rules/extra.toml -> recount.toml"),
        "{printed}"
    );
    assert!(printed.contains("extra.toml:2:12"), "{printed}");
    assert!(!printed.contains("too long"), "{printed}");
    assert!(printed.len() < 4000, "{} bytes:\n{printed}", printed.len());
}

#[test]
fn a_file_included_twice_by_different_routes_is_loaded_once() {
    let repo = support::build("gate");
    repo.write(
        "recount.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\ninclude = [\"rules/a.toml\", \"rules/b.toml\"]\n",
    );
    repo.write("rules/a.toml", "[recount]\ninclude = [\"./b.toml\"]\n");
    repo.write(
        "rules/b.toml",
        "[[fact]]\nid = \"items\"\nconstant = \"MAX_ITEMS\"\n\n[constants]\nMAX_ITEMS = { file = \"src/limits.py\" }\n",
    );
    // Loaded twice, the fact id would be "defined twice" (exit 2). Once, the fact
    // is computed and listed once, with the value the source gives.
    let output = repo
        .recount(&["facts", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let facts: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let ids: Vec<&str> = facts["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert_eq!(ids, ["items"], "{facts:#}");
    assert_eq!(facts["facts"][0]["value"], "100", "{facts:#}");
    // Through a link inside the repository the same file is still one file.
    std::os::unix::fs::symlink("b.toml", repo.path().join("rules/c.toml")).expect("symlink");
    repo.write(
        "recount.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\ninclude = [\"rules/b.toml\", \"rules/c.toml\"]\n",
    );
    let output = repo
        .recount(&["facts", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

// --- validate accepts duplicate keys ----------------------------------------

fn validate() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("recount").expect("binary");
    command
        .arg("validate")
        .arg("--schemas")
        .arg(format!("{}/validation/mcp", support::fixtures().display()));
    command
}

#[test]
fn a_duplicate_key_is_refused_by_its_path_not_its_values() {
    for (document, path) in [
        (
            r#"{"projectId": "BAD ID!", "projectId": "abcdef", "query": "q"}"#,
            "'/projectId'",
        ),
        (
            r#"{"projectId": "abcdef", "query": "q", "filters": [{"tag": "BAD ID!", "tag": "abcdef"}]}"#,
            "'/filters/0/tag'",
        ),
    ] {
        for format in ["human", "json"] {
            let output = validate()
                .args(["--tool", "knowledge.search", "--format", format, "-"])
                .write_stdin(document)
                .output()
                .expect("runs");
            let printed = format!("{}{}", stdout(&output), stderr(&output));
            assert_eq!(output.status.code(), Some(1), "{printed}");
            assert!(printed.contains(path), "{format}: {printed}");
            assert!(printed.contains("uniqueKeys"), "{format}: {printed}");
            assert!(!printed.contains("BAD ID!"), "{format}: {printed}");
            assert!(!printed.contains("abcdef"), "{format}: {printed}");
            // The data carries the JSON pointer bare; only the message quotes it.
            if format == "json" {
                let verdict: serde_json::Value =
                    serde_json::from_str(&stdout(&output)).expect("a JSON verdict");
                let pointer = path.trim_matches('\'');
                assert_eq!(verdict["refusal"]["path"], pointer, "{printed}");
            }
        }
    }
}

// --- validate reads its whole input before the bounds check -----------------

#[test]
fn an_endless_stdin_is_refused_at_the_cap_without_reading_on() {
    let mut child = StdCommand::new(recount_bin())
        .args(["validate", "--schemas"])
        .arg(support::fixtures().join("validation/mcp"))
        .args(["--tool", "knowledge.search", "--format", "json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut stdin = child.stdin.take().expect("stdin");
    // Endless: writes until the reader is gone. The child must stop reading,
    // answer and exit, which closes the pipe and ends this thread.
    let writer = std::thread::spawn(move || {
        let block = [b' '; 64 * 1024];
        let mut sent = 0usize;
        while stdin.write_all(&block).is_ok() {
            sent += block.len();
        }
        sent
    });
    let output = child.wait_with_output().expect("exits");
    let sent = writer.join().expect("writer");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let verdict: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(verdict["refusal"]["kind"], "body_size");
    assert_eq!(verdict["refusal"]["keyword"], "maxBodyBytes");
    // It read at most the cap plus one byte, and a pipe's buffer more was queued.
    assert!(
        sent < recount::validation::MAX_BODY_BYTES + 4 * 1024 * 1024,
        "{sent}"
    );
}

#[test]
fn dev_zero_as_the_arguments_file_is_refused_at_the_cap() {
    let output = validate()
        .args(["--tool", "knowledge.search", "/dev/zero"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("exceed maxBodyBytes 26214400 (byte 26214400)"),
        "{}",
        stdout(&output)
    );
}

// --- control characters are echoed raw --------------------------------------

/// An escape sequence, an OSC window title, a bidi override and a newline that
/// starts a workflow command: what the attacks put in names and keys.
const INJECTED: &str = "a\u{1b}[2J\u{1b}]0;title\u{7}\u{202e}b\n::error title=x::owned";

#[test]
fn a_file_name_with_escapes_and_a_workflow_command_is_inert_in_every_format() {
    let repo = support::build("gate");
    // A record whose name carries the attack and whose link is stale, so every
    // format names the file in a finding.
    let name = format!("docs/{INJECTED}.md");
    repo.write(&name, "See [the design](missing-design.md).\n");
    for format in FORMATS {
        let (code, printed) = check(&repo, format);
        assert_eq!(code, 1, "{format}: {printed}");
        assert!(printed.contains("missing-design.md"), "{format}: {printed}");
        assert_inert(&printed, format);
    }
    let output = repo.recount(&["cites"]).output().expect("runs");
    assert_inert(&format!("{}{}", stdout(&output), stderr(&output)), "cites");
}

#[test]
fn an_unknown_rule_file_key_with_escapes_is_inert_in_every_format() {
    let repo = support::build("gate");
    let key = INJECTED
        .replace('\u{1b}', "\\u001b")
        .replace('\u{7}', "\\u0007")
        .replace('\u{202e}', "\\u202e")
        .replace('\n', "\\n");
    repo.write("recount.toml", &format!("[recount]\n\"{key}\" = 1\n"));
    for format in FORMATS {
        let (code, printed) = check(&repo, format);
        assert_eq!(code, 2, "{format}: {printed}");
        assert!(printed.contains("unknown key"), "{format}: {printed}");
        assert_inert(&printed, format);
    }
}

#[test]
fn registered_tool_names_with_escapes_are_inert_and_cut() {
    let dir = tempfile::tempdir().expect("temp dir");
    let list = dir.path().join("tools.json");
    let long = "x".repeat(100_030);
    let names = serde_json::json!([INJECTED, long, "knowledge.search"]);
    std::fs::write(&list, names.to_string()).expect("write");
    for format in ["human", "json"] {
        let output = validate()
            .args(["--format", format, "--population"])
            .arg(&list)
            .output()
            .expect("runs");
        let printed = format!("{}{}", stdout(&output), stderr(&output));
        assert_eq!(output.status.code(), Some(1), "{printed}");
        assert_inert(&printed, format);
        if format == "human" {
            assert!(printed.lines().all(|l| l.len() < 1024), "a line past 1 KiB");
            assert!(
                printed.contains("more bytes)"),
                "the cut is said: {printed}"
            );
        }
    }
    // A key of a call's arguments, refused as unpublished, in both formats.
    let call = serde_json::json!({"projectId": "abcdef", "query": "q", INJECTED: 1});
    for format in ["human", "json"] {
        let output = validate()
            .args(["--tool", "knowledge.search", "--format", format, "-"])
            .write_stdin(call.to_string())
            .output()
            .expect("runs");
        let printed = format!("{}{}", stdout(&output), stderr(&output));
        assert_eq!(output.status.code(), Some(1), "{printed}");
        assert!(printed.contains("unevaluatedProperties"), "{printed}");
        assert_inert(&printed, format);
    }
    // The tool name of a call, too.
    let output = validate()
        .args(["--tool", INJECTED, "-"])
        .write_stdin("{}")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert_inert(&format!("{}{}", stdout(&output), stderr(&output)), "human");
}

// --- a panic on a closed pipe; a write error ignored -------------------------

/// Runs recount with ARGS (inside `repo`, or anywhere) and its stdout a pipe
/// whose reading end is closed before recount starts writing: a shell sleeps
/// first, then becomes recount.
fn with_closed_pipe(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut child = StdCommand::new("sh")
        .arg("-c")
        .arg("sleep 0.3; exec \"$0\" \"$@\"")
        .arg(recount_bin())
        .args(args)
        .env("RECOUNT_CACHE_DIR", "")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    drop(child.stdout.take());
    let mut err = String::new();
    let _ = child.stderr.take().map(|mut e| e.read_to_string(&mut err));
    let status = child.wait().expect("exits");
    std::process::Output {
        status,
        stdout: Vec::new(),
        stderr: err.into_bytes(),
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_exit_code_of_the_run() {
    let repo = support::build("gate");
    for args in [
        &["completions", "fish"][..],
        &["man"],
        &["check", "--format", "json"],
        &["check"],
        &["explain"],
    ] {
        // The code the run has with its output read: a closed pipe must not turn
        // findings (1) into a pass, nor a pass into an error.
        let read = repo.recount(args).output().expect("runs");
        let output = with_closed_pipe(repo.path(), args);
        assert_eq!(
            output.status.code(),
            read.status.code(),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), stderr(&read), "{args:?}");
    }
}

#[test]
fn a_full_disk_is_an_error_not_a_green_build() {
    let repo = support::build("gate");
    for args in [
        &["check", "--format", "sarif"][..],
        &["check"],
        &["completions", "fish"],
        &["facts", "--format", "json"],
    ] {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let output = StdCommand::new(recount_bin())
            .args(args)
            .env("RECOUNT_CACHE_DIR", "")
            .current_dir(repo.path())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("runs");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("cannot write the output"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

// --- misleading notes ----------------------------------------------------------

#[test]
fn a_record_over_the_size_cap_is_named_as_skipped_not_as_missing() {
    let repo = support::build("gate");
    repo.write(
        "recount.toml",
        "[constants]\nMAX_ITEMS = { file = \"src/limits.py\" }\n\n[[fact]]\nid = \"max-items\"\n\
         constant = \"MAX_ITEMS\"\nclaims = [{ in = \"docs/big.md\", says = 'at most (?<value>\\d+) items' }]\n",
    );
    let mut big = String::from("The queue holds at most 64 items.\n");
    big.push_str(&"filler line of prose\n".repeat(500_000));
    repo.write("docs/big.md", &big);
    let output = repo.recount(&["check"]).output().expect("runs");
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("note: skipped docs/big.md: 10500034 bytes is over the 4 MiB"),
        "{err}"
    );
    let out = unwrapped(&out);
    assert!(
        out.contains("docs/big.md is skipped (10500034 bytes is over the 4 MiB a record may have)"),
        "{out}"
    );
    assert!(!out.contains("no record matches"), "{out}");
}

#[test]
fn a_record_that_is_not_utf8_is_read_with_a_note_naming_the_first_bad_byte() {
    let repo = support::build("gate");
    std::fs::write(
        repo.path().join("docs/latin.md"),
        b"Caf\xe9 notes: see [the queue](queue.md).\n",
    )
    .expect("write");
    let output = repo.recount(&["check"]).output().expect("runs");
    assert!(
        stderr(&output).contains("note: docs/latin.md is not valid UTF-8 from byte 3"),
        "{}",
        stderr(&output)
    );
}

// --- links per record: linear, not quadratic ---------------------------------

#[path = "../../benches/support/links_repo.rs"]
mod links_repo;

/// 64,000 links in one page are read and every missing one reported, as the
/// same links spread over 64 pages are. What each costs is the `audit`
/// bench's to measure (its one-page and 64-page shapes, side by side): the
/// scan of every link per cite made the one page 30 times slower.
#[test]
fn sixty_four_thousand_links_in_one_page_are_read_as_in_sixty_four() {
    let run = |pages: usize, links: usize| {
        let dir = tempfile::tempdir().expect("temp dir");
        links_repo::generate(dir.path(), pages, links);
        let (code, report) = run_check(dir.path());
        assert_eq!(code, Some(1), "{report}");
        report["findings"].as_array().map_or(0, Vec::len)
    };
    // One link in six names a page that is not there.
    assert!(run(1, 64_000) >= 64_000 / 6);
    assert!(run(64, 1_000) >= 64 * (1_000 / 6));
}

// --- long lines in diagnostics -----------------------------------------------

#[test]
fn a_broken_link_on_a_seventy_thousand_character_line_is_shown_in_a_window() {
    let repo = support::build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/long.md",
        &format!(
            "# Long\n\n{} [gone](missing.md) {}\n",
            "x".repeat(70_000),
            "y".repeat(5_000)
        ),
    );
    for format in FORMATS {
        let (code, printed) = check(&repo, format);
        assert_eq!(code, 1, "{format}: {}", &printed[..printed.len().min(2000)]);
        assert!(printed.contains("missing.md"), "{format}");
        // A window of the line, not the line: no run of a thousand of its bytes.
        assert!(!printed.contains(&"x".repeat(1_000)), "{format}");
        assert!(!printed.contains(&"y".repeat(1_000)), "{format}");
    }
    let (_, printed) = check(&repo, "human");
    assert!(printed.contains("docs/long.md:3:70003"), "{printed}");
    assert!(printed.contains("(69942 bytes) … "), "{printed}");
    assert!(printed.contains(" more bytes)"), "{printed}");
}

#[test]
fn a_syntax_error_beside_a_huge_line_shows_a_window_of_it() {
    let repo = support::build("gate");
    // A rule file just under its cap, one line of it a comment of 900,000 bytes.
    repo.write(
        "recount.toml",
        &format!(
            "[recount]\n# {}\nrecords = [\"docs/*.md\" oops]\n",
            "z".repeat(900_000)
        ),
    );
    let (code, printed) = check(&repo, "human");
    assert_eq!(code, 2, "{}", &printed[..printed.len().min(2000)]);
    assert!(printed.contains("recount.toml:3:"), "{printed}");
    assert!(printed.len() < 4_000, "{} bytes", printed.len());
    // A baseline of one 20 MB line with an error at its end.
    repo.write("recount.toml", "[recount]\nrecords = [\"docs/*.md\"]\n");
    repo.write(
        "b.json",
        &format!(
            "{{\"recount_baseline\": 1, \"x\": \"{}\" oops",
            "q".repeat(20_000_000)
        ),
    );
    let output = repo
        .recount(&["check", "--baseline", "b.json"])
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        &stderr(&output)[..2000]
    );
    assert!(
        stderr(&output).len() < 4_000,
        "{} bytes",
        stderr(&output).len()
    );
    assert!(
        stderr(&output).contains("more bytes"),
        "{}",
        stderr(&output)
    );
}

// --- expressions and constants the input nests without end -------------------

#[test]
fn a_ten_thousand_term_expression_is_a_located_error_not_a_stack_overflow() {
    let repo = support::build("gate");
    let sum = vec!["1"; 10_000].join("+");
    repo.write(
        "recount.toml",
        &format!(
            "[recount]\nrecords = [\"docs/*.md\"]\n\n[[fact]]\nid = \"sum\"\nexpr = \"{sum}\"\n"
        ),
    );
    let (code, printed) = check(&repo, "human");
    assert_eq!(code, 2, "{}", &printed[..printed.len().min(2000)]);
    assert!(
        unwrapped(&printed).contains("the expression has more than 256 operators"),
        "{printed}"
    );
    // Located at the 257th operator: "1+" is two bytes, from column 9 of line 6.
    assert!(printed.contains("recount.toml:6:522"), "{printed}");
    assert!(printed.len() < 4_000, "{} bytes", printed.len());
}

#[test]
fn a_chain_of_constants_nested_past_the_budget_is_refused_by_name() {
    let repo = support::build("gate");
    // Five constants, each nesting its reference to the next 95 levels deep:
    // the evaluation would recurse about 950 levels through the chain.
    let mut source = String::new();
    for i in 0..5 {
        let open = "1+(".repeat(95);
        let close = ")".repeat(95);
        source.push_str(&format!("C{i} = {open}C{} + 1{close}\n", i + 1));
    }
    source.push_str("C5 = 1\n");
    repo.write("src/deep.py", &source);
    repo.write(
        "recount.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\n\n[constants]\nC0 = { file = \"src/deep.py\" }\n\n[[fact]]\nid = \"c0\"\nconstant = \"C0\"\n",
    );
    let (code, printed) = check(&repo, "human");
    assert_eq!(code, 2, "{printed}");
    assert!(
        unwrapped(&printed)
            .contains("nests deeper than 400 levels counted through the constants it refers to"),
        "{printed}"
    );
}

#[test]
fn a_claim_pattern_of_most_of_a_megabyte_is_refused_before_it_compiles() {
    let repo = support::build("gate");
    let pattern = "a(b|c)*".repeat(120_000);
    repo.write(
        "recount.toml",
        &format!(
            "[recount]\nrecords = [\"docs/*.md\"]\n\n[constants]\nMAX_ITEMS = {{ file = \"src/limits.py\" }}\n\n[[fact]]\nid = \"items\"\nconstant = \"MAX_ITEMS\"\nclaims = [{{ says = '{pattern}(?<value>\\d+)' }}]\n"
        ),
    );
    let output = under_memory_cap(&repo, "check");
    let printed = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        &printed[..printed.len().min(2000)]
    );
    assert!(
        unwrapped(&printed)
            .contains("the pattern is 840013 bytes, over the 8192 a pattern may have"),
        "{printed}"
    );
    assert!(printed.len() < 4_000, "{} bytes", printed.len());
}

// --- numbers past what a narrow parser reads ---------------------------------

#[test]
fn a_line_cite_of_line_a_billion_is_listed_and_reported() {
    let repo = support::build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write("docs/f.txt", "one\ntwo\n");
    repo.write(
        "docs/lines.md",
        "# Lines\n\nSee `docs/f.txt:1000000000`, [this](f.txt#L1000000000) and `docs/f.txt:2`.\n",
    );
    let listed = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    let of_page: Vec<(String, String)> = cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .filter(|c| c["record"] == "docs/lines.md")
        .map(|c| (c["text"].to_string(), c["status"]["status"].to_string()))
        .collect();
    assert_eq!(
        of_page,
        [
            (
                "\"docs/f.txt:1000000000\"".to_owned(),
                "\"stale\"".to_owned()
            ),
            ("\"f.txt#L1000000000\"".to_owned(), "\"stale\"".to_owned()),
            ("\"docs/f.txt:2\"".to_owned(), "\"ok\"".to_owned()),
        ]
    );
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let lines: Vec<u64> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-line-cite")
        .map(|f| f["location"]["line"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(lines, [3, 3]);
}

#[test]
fn a_number_the_parser_would_round_or_could_not_hold_is_refused_for_what_it_is() {
    let call = |document: &str| {
        let output = validate()
            .args(["--tool", "knowledge.search", "--format", "json", "-"])
            .write_stdin(document.to_owned())
            .output()
            .expect("runs");
        let verdict: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)));
        (output.status.code(), verdict)
    };
    let base = r#"{"projectId": "atlas", "query": "q", "limit": "#;
    // `limit` is an integer of at most 100: each of these is, read as a double.
    for limit in ["100.000000000000001", "99.9999999999999999"] {
        let (code, verdict) = call(&format!("{base}{limit}}}"));
        assert_eq!(code, Some(1), "{limit}: {verdict}");
        assert_eq!(verdict["refusal"]["kind"], "inexact", "{limit}: {verdict}");
        assert_eq!(verdict["refusal"]["keyword"], "exactNumbers");
        assert!(!verdict.to_string().contains(limit), "{verdict}");
    }
    let (code, verdict) = call(&format!("{base}{}}}", "9".repeat(100_000)));
    assert_eq!(code, Some(1), "{verdict}");
    assert_eq!(verdict["refusal"]["kind"], "number_length", "{verdict}");
    assert_eq!(verdict["refusal"]["keyword"], "maxNumberChars");
    assert_eq!(verdict["refusal"]["limit"], "256");
    // Within the bounds, exactly: 100 is accepted, 101 refused by the schema.
    assert_eq!(
        call(&format!("{base}100}}")),
        (Some(0), serde_json::json!({"verdict": "accepted"}))
    );
    let (code, verdict) = call(&format!("{base}101}}"));
    assert_eq!(
        (code, &verdict["refusal"]["keyword"]),
        (Some(1), &serde_json::json!("maximum"))
    );
}

// --- hints ---------------------------------------------------------------------

#[test]
fn a_transcript_operand_that_is_a_link_is_named_as_one() {
    let repo = support::build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write("data.txt", "x\ny x\n");
    std::os::unix::fs::symlink("data.txt", repo.path().join("link.txt")).expect("symlink");
    std::os::unix::fs::symlink("docs", repo.path().join("pages")).expect("symlink");
    repo.write(
        "docs/t.md",
        "# T\n\n```console\n$ grep -c x link.txt\n2\n$ ls pages/t.md\npages/t.md\n```\n",
    );
    let output = repo
        .recount(&["transcripts", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let whys: Vec<String> = listed
        .as_array()
        .expect("transcripts")
        .iter()
        .filter(|t| t["record"] == "docs/t.md")
        .map(|t| t["why"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(
        whys,
        [
            "`link.txt` is a symbolic link at working tree, which recount does not follow (the real tools would)",
            "`pages/t.md` is under a symbolic link at working tree, which recount does not follow (the real tools would)",
        ],
        "{listed:#}"
    );
}

#[test]
fn a_repository_owned_by_another_user_gets_the_safe_directory_advice() {
    let repo = support::build("gate");
    // Needs root to hand the folder to another user; CI runs as root, so there a
    // refused chown fails the test rather than skipping it.
    if let Err(e) = std::os::unix::fs::chown(repo.path(), Some(65_534), None) {
        assert!(std::env::var_os("CI").is_none(), "chown: {e}");
        return;
    }
    let output = repo.recount(&["check"]).output().expect("runs");
    let said = unwrapped(&stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("belongs to another user")
            && said.contains("git config --global --add safe.directory"),
        "{said}"
    );
}

#[test]
fn toml_and_yaml_nested_past_their_parsers_limits_are_located_errors() {
    let repo = support::build("gate");
    repo.write(
        "deep.toml",
        &format!(
            "[recount]\nrecords = [\"docs/*.md\"]\nx = {}{}\n",
            "[".repeat(300_000),
            "]".repeat(300_000)
        ),
    );
    let output = repo
        .recount(&["check", "--rules", "deep.toml"])
        .output()
        .expect("runs");
    let said = unwrapped(&stderr(&output));
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        &said[..said.len().min(2000)]
    );
    assert!(said.contains("max recursion depth met"), "{said}");
    assert!(said.contains("deep.toml:3:"), "{said}");
    // A json fact over a YAML file a pull request nested 100,000 deep.
    repo.write(
        "data.yaml",
        &format!("{}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
    );
    repo.write(
        "deep.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\n\n[[fact]]\nid = \"y\"\njson = \"data.yaml\"\npointer = \"/0\"\n",
    );
    let output = repo
        .recount(&["check", "--rules", "deep.toml"])
        .output()
        .expect("runs");
    let said = unwrapped(&stderr(&output));
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("data.yaml:1:256: recursion limit exceeded"),
        "{said}"
    );
}

// --- round three: the cache folder a CI job restores --------------------------

/// The memory file a run writes into `cache`, after one run.
fn the_memory_file(repo: &Repo, cache: &std::path::Path) -> std::path::PathBuf {
    let cache_arg = cache.to_str().expect("utf-8 path");
    repo.recount(&["check", "--cache-dir", cache_arg])
        .output()
        .expect("runs");
    std::fs::read_dir(cache)
        .expect("the cache folder")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "memo"))
        .expect("a memory file")
}

#[test]
fn a_fifo_or_a_link_as_the_cache_file_is_refused_and_the_run_finishes() {
    let repo = support::build("path-evidence");
    let cache = tempfile::tempdir().expect("cache folder");
    let cache_arg = cache.path().to_str().expect("utf-8 path");
    let memo = the_memory_file(&repo, cache.path());
    let unremembered: serde_json::Value = serde_json::from_str(&stdout(
        &repo
            .recount(&["check", "--no-cache", "--format", "json"])
            .output()
            .expect("runs"),
    ))
    .expect("json");
    let victim = cache.path().join("victim");
    std::fs::write(&victim, "mine\n").expect("victim");
    for plant in ["fifo", "link"] {
        std::fs::remove_file(&memo).expect("unplant");
        if plant == "fifo" {
            let made = StdCommand::new("mkfifo")
                .arg(&memo)
                .status()
                .expect("mkfifo");
            assert!(made.success());
        } else {
            std::os::unix::fs::symlink(&victim, &memo).expect("link");
        }
        // A FIFO would hold `open` forever: the run is given a deadline.
        let mut child = StdCommand::new(recount_bin())
            .args(["check", "--format", "json", "--cache-dir", cache_arg])
            .current_dir(repo.path())
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while child.try_wait().expect("waits").is_none() {
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{plant}: the run did not finish");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let output = child.wait_with_output().expect("output");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{plant}: {}",
            stderr(&output)
        );
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("json");
        assert_eq!(report["findings"], unremembered["findings"], "{plant}");
        assert!(
            report["notes"].to_string().contains("not a regular file"),
            "{plant}: {}",
            report["notes"]
        );
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "mine\n");
    }
}

// --- round three: a thousand copies of one transcript -------------------------

#[test]
fn one_command_shown_many_times_is_compared_at_every_copy() {
    // Re-run once per tree and reused (the attack: 1,000 identical
    // `grep -rc` blocks over an 11 MB tree took 53 s); each copy is still
    // compared with what it shows.
    let repo = support::build("path-evidence");
    repo.write("data/words.txt", "zz\nzz\nzz\n");
    let blocks: String = (0..300)
        .map(|i| {
            let shown = if i % 3 == 0 { 4 } else { 3 };
            format!("```console\n$ grep -c zz data/words.txt\n{shown}\n```\n\n")
        })
        .collect();
    repo.write("docs/copies.md", &format!("# Copies\n\n{blocks}"));
    let (code, report) = support::json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1);
    let drifted: Vec<u64> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "transcript-drift" && f["location"]["path"] == "docs/copies.md")
        .filter_map(|f| f["location"]["line"].as_u64())
        .collect();
    // Every third block, at the line of its shown count.
    let expected: Vec<u64> = (0..300u64).step_by(3).map(|i| 5 + 5 * i).collect();
    assert_eq!(drifted, expected);
}

#[test]
fn a_glob_of_800_kib_is_refused_at_its_place_without_a_panic() {
    let repo = support::build("path-evidence");
    repo.write(
        "big.toml",
        &format!(
            "[[ignore]]\npaths = [\"{}*.md\"]\nreason = \"r\"\n",
            "[ab]".repeat(200_000)
        ),
    );
    let output = repo
        .recount(&["check", "--rules", "big.toml"])
        .output()
        .expect("runs");
    let said = stderr(&output);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        &said[..said.len().min(2000)]
    );
    assert!(
        said.contains("big.toml:2:"),
        "{}",
        &said[..said.len().min(2000)]
    );
    assert!(
        !said.contains("panicked"),
        "{}",
        &said[..said.len().min(2000)]
    );
    assert!(said.len() < 8 * 1024, "{} bytes said", said.len());
}

// --- round three: a cache trusted no further than a cache ----------------------

#[test]
fn a_poisoned_cache_gives_the_findings_no_cache_gives() {
    let repo = support::build("path-evidence");
    let cache = tempfile::tempdir().expect("cache folder");
    let cache_arg = cache.path().to_str().expect("utf-8 path");
    let findings = |args: &[&str]| {
        let output = repo.recount(args).output().expect("runs");
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("json");
        (report["findings"].clone(), report["notes"].to_string())
    };
    let (unremembered, _) = findings(&["check", "--no-cache", "--format", "json"]);
    let memo = the_memory_file(&repo, cache.path());
    let honest = std::fs::read_to_string(&memo).expect("memo");
    let (head, root) = (repo.oid("03"), repo.oid("01"));
    let renamed = honest
        .lines()
        .find(|l| l.starts_with("r ") && !l.ends_with('\t'))
        .expect("a remembered rename")
        .to_owned();
    let removed = honest
        .lines()
        .find(|l| l.starts_with("g ") && l.split(' ').nth(3) == Some("d"))
        .expect("a remembered deletion")
        .to_owned();
    let (from, _) = renamed.split_once('\t').expect("two sides");
    let fields: Vec<&str> = removed.splitn(6, ' ').collect();
    let poisons = [
        // The first parent of HEAD is the root: the history cut short.
        honest.replacen("\nr ", &format!("\nl {head} {root}\nr "), 1),
        // A path's object at a commit, edited.
        honest.replacen("\nr ", &format!("\nt {head} - docs/guide.md\nr "), 1),
        // A rename sent somewhere else of the tree.
        honest.replace(&renamed, &format!("{from}\tREADME.md")),
        // A deletion said never to have happened.
        honest.replace(
            &removed,
            &format!("g {} {} - - {}", fields[1], fields[2], fields[5]),
        ),
        // A deletion moved to a commit where the path did not go.
        honest.replace(
            &removed,
            &format!("g {} {} d {head} {}", fields[1], fields[2], fields[5]),
        ),
    ];
    for (n, poison) in poisons.iter().enumerate() {
        assert_ne!(poison, &honest, "poison {n} changed nothing");
        std::fs::write(&memo, poison).expect("poison");
        let (poisoned, notes) = findings(&["check", "--format", "json", "--cache-dir", cache_arg]);
        assert_eq!(poisoned, unremembered, "poison {n}: {poison}");
        // A lie the trees deny is said; an unconfirmed "not removed" is
        // only worked out again.
        assert_eq!(
            notes.contains("contradict"),
            n == 2 || n == 4,
            "poison {n}: {notes}"
        );
        // What the run wrote back is what an honest run writes.
        assert_eq!(
            std::fs::read_to_string(&memo).expect("memo"),
            honest,
            "poison {n} written back"
        );
    }
}

// --- round three: every run finishes, every file read is capped ---------------

/// `recount check --format json` in a fresh repository holding `files`: the
/// report.
fn checked(files: &[(&str, String)]) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        std::fs::write(path, text).expect("write");
    }
    links_repo::commit_all(dir.path(), "the attack");
    let (code, report) = run_check(dir.path());
    assert!(matches!(code, Some(0 | 1)), "{report}");
    report
}

/// `recount check --format json` in `dir`, no cache: the exit code and the
/// report (or what was printed on stderr, as a string).
fn run_check(dir: &std::path::Path) -> (Option<i32>, serde_json::Value) {
    let output = StdCommand::new(recount_bin())
        .current_dir(dir)
        .env("RECOUNT_CACHE_DIR", "")
        .args(["check", "--format", "json"])
        .output()
        .expect("runs");
    let report = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|_| serde_json::Value::from(stderr(&output)));
    (output.status.code(), report)
}

#[test]
fn unclosed_inline_markup_in_a_rst_record_costs_what_its_length_does() {
    // Each opener made the grammar scan to the end of the paragraph: 100,000
    // of them in 300 KB did not finish in 60 s.
    for opener in ["*a ", "`a ", "``a ", "|a ", "`a < ", ":class:`a "] {
        let doc = |n: usize| format!("T\n=\n\n{}\n", opener.repeat(n));
        // How the cost grows is measured by `benches/hostile-scaling.sh`;
        // here, that the large page finishes and is read as it must be.
        let small = checked(&[("doc.rst", doc(100))]);
        let large = checked(&[("doc.rst", doc(100_000))]);
        let notes = large["notes"].to_string();
        assert!(
            notes.contains("read doc.rst as plain text"),
            "{opener:?}: {notes}"
        );
        assert!(
            !small["notes"].to_string().contains("plain text"),
            "{opener:?}: {}",
            small["notes"]
        );
    }
}

#[test]
fn a_page_that_includes_one_file_thousands_of_times_reads_it_once() {
    // Every link re-read and re-parsed every include, and cutting the include
    // lines out was quadratic: 3,000 of each took past 120 s.
    let page = |n: usize, form: &str| -> String {
        let rst = form.starts_with("..");
        let mut text = String::from(if rst { "P\n=\n\n" } else { "# P\n\n" });
        for _ in 0..n {
            text.push_str(if rst {
                "`x <#nowhere>`_\n\n"
            } else {
                "[x](#nowhere)\n\n"
            });
        }
        for _ in 0..n {
            text.push_str(form);
        }
        text
    };
    for (name, form, included, body) in [
        ("page.md", "--8<-- \"a.md\"\n\n", "a.md", "# A\n"),
        ("page.rst", ".. include:: a.rst\n\n", "a.rst", "A\n=\n"),
    ] {
        // How the cost grows is measured by `benches/hostile-scaling.sh`.
        let report = checked(&[(name, page(3_000, form)), (included, body.to_owned())]);
        let stale = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["location"]["path"] == name)
            .count();
        assert_eq!(stale, 3_000, "{name}: every link to the missing anchor");
    }
}

#[test]
fn a_file_a_citation_needs_past_its_cap_is_named_and_never_read() {
    // A 99 MiB include peaked at 9.4 GB, a 56 MB test file at 4.1 GB: each is
    // now sized before it is read, under a 1 GiB address-space cap here.
    let repo = support::build("path-evidence");
    let lines = |line: &str, bytes: usize| line.repeat(bytes / line.len());
    repo.write("docs/big.md", &lines("# h\n", 24 << 20));
    repo.write("docs/page.md", "# P\n\n--8<-- \"big.md\"\n\n[x](#nope)\n");
    repo.write(
        "tests/test_big.py",
        &lines("def test_a():\n    pass\n", 24 << 20),
    );
    repo.write(
        "docs/tests.md",
        "# T\n\nSee `tests/test_big.py::test_nope`.\n",
    );
    let output = under_memory_cap(&repo, "check --format json");
    let report: serde_json::Value =
        serde_json::from_str(&stdout(&output)).unwrap_or_else(|_| panic!("{}", stderr(&output)));
    let notes = report["notes"].to_string();
    for (file, at) in [
        ("docs/big.md", "docs/page.md:5:"),
        ("tests/test_big.py", "docs/tests.md:3:"),
    ] {
        assert!(
            notes.contains(&format!("`{file}` is ")) && notes.contains(at),
            "{file}: {notes}"
        );
    }
    assert!(notes.contains("over the 4 MiB"), "{notes}");
    // Neither is reported stale: it was not read, so nothing is known of it.
    let findings = report["findings"].to_string();
    assert!(
        !findings.contains("test_nope") && !findings.contains("#nope"),
        "{findings}"
    );
}

#[test]
fn ignore_entries_past_their_cap_and_rule_files_past_theirs_are_refused_where_written() {
    let repo = support::build("path-evidence");
    let entry = "[[ignore]]\npaths = [\"docs/**\"]\nreason = \"r\"\n";
    repo.write("many.toml", &entry.repeat(10_001));
    let output = repo
        .recount(&["check", "--rules", "many.toml"])
        .output()
        .expect("runs");
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("10000 `[[ignore]]` entries"), "{said}");
    assert!(said.contains("many.toml:30001:1"), "{said}");
    // Includes do not get around the cap on a rule file's size: five files
    // of most of a megabyte each, one including the next.
    let padding = format!("# {}\n", "x".repeat(1000)).repeat(1000);
    for n in 0..5 {
        let next = if n < 4 {
            format!("[recount]\ninclude = [\"part{}.toml\"]\n", n + 1)
        } else {
            String::new()
        };
        repo.write(&format!("part{n}.toml"), &format!("{next}{padding}"));
    }
    let output = repo
        .recount(&["check", "--rules", "part0.toml"])
        .output()
        .expect("runs");
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("4 MiB they may hold together"), "{said}");
    assert!(said.contains("part3.toml:2:"), "{said}");
}

// --- issue 54: the step summary carries paths a pull request names ----------

#[test]
fn a_record_and_a_link_named_to_forge_the_summary_show_as_text() {
    // The record's folder closes the <summary> and adds an image; the link's
    // target adds cells, a Markdown image and an @-mention.
    let repo = support::build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/x</summary><img src=x> @someone/a.md",
        "# Forged\n\nSee [page](missing|✅clean|![y](evil.png).md).\n",
    );
    let output = repo
        .recount(&["check", "--format", "markdown"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    assert_inert(&text, "markdown");
    // What GitHub renders: the text outside the fenced blocks, which show
    // what they hold and run none of it.
    let mut rendered = String::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let ticks: String = line.chars().take_while(|&c| c == '`').collect();
        match &fence {
            Some(open) if line.trim_end() == ticks && ticks.len() >= open.len() => fence = None,
            Some(_) => {}
            None if ticks.len() >= 3 => fence = Some(ticks),
            None => {
                rendered.push_str(line);
                rendered.push('\n');
            }
        }
    }
    let findings = rendered.matches("<details><summary>").count();
    assert!(findings >= 1, "{text}");
    assert_eq!(rendered.matches("</summary>").count(), findings, "{text}");
    assert!(
        rendered.contains(
            "<summary>stale-path-cite at docs/x&lt;/summary&gt;&lt;img src=x&gt; @&#8203;someone/a.md:3:6</summary>"
        ),
        "{text}"
    );
    assert!(!rendered.contains("<img"), "{text}");
    assert!(!rendered.contains("@someone"), "{text}");
    assert!(!rendered.replace("\\]", "").contains("]("), "{text}");
    assert!(!rendered.lines().any(|l| l.starts_with("✅")), "{text}");
    // Each finding's row is four cells, whatever the link's target held.
    for row in rendered
        .lines()
        .filter(|l| l.starts_with("| error") || l.starts_with("| warning"))
    {
        let borders = row
            .replace("\\\\", "")
            .replace("\\|", "")
            .matches('|')
            .count();
        assert_eq!(borders, 5, "{row}");
    }
}

// --- issue 54: what `fix` writes, and what the cache may decide --------------

/// `git ARGS` in `dir`, which must succeed.
fn git(dir: &std::path::Path, args: &[&str]) {
    let status = StdCommand::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=attacker",
            "-c",
            "user.email=attacker@example.invalid",
            "-c",
            "core.quotePath=false",
        ])
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// A repository of two commits: the first has `docs/guide.md` (`record`)
/// linking `src/old.py`; the second renames `src/old.py` to `to` (edited
/// when `edited`) and adds `src/decoy.py`, another file, beside it.
fn renamed_repo(record: &[u8], to: &str, edited: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let module: String = (0..40)
        .map(|i| format!("def step_{i}(x):\n    return x + {i}\n\n"))
        .collect();
    std::fs::create_dir_all(root.join("docs")).expect("mkdir");
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(root.join("docs/guide.md"), record).expect("write");
    std::fs::write(root.join("src/old.py"), &module).expect("write");
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "a module and its guide"]);
    git(root, &["mv", "src/old.py", to]);
    if edited {
        let mut text = module.clone();
        text.push_str("def one_more(x):\n    return x\n");
        std::fs::write(root.join(to), text).expect("write");
    }
    std::fs::write(root.join("src/decoy.py"), "print('not the module')\n").expect("write");
    git(root, &["add", "-A"]);
    git(
        root,
        &["commit", "-qm", "the module moves, a decoy arrives"],
    );
    dir
}

/// `recount ARGS` in `dir` with `cache` as its cache folder (none when
/// `None`), colour off.
fn recount_in(
    dir: &std::path::Path,
    cache: Option<&std::path::Path>,
    args: &[&str],
) -> std::process::Output {
    let mut command = StdCommand::new(recount_bin());
    command
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("RECOUNT_TEST_SECRET", SECRET)
        .env_remove("COLUMNS")
        .args(args);
    match cache {
        Some(cache) => command.env("RECOUNT_CACHE_DIR", cache),
        None => command.env("RECOUNT_CACHE_DIR", ""),
    };
    command.stdin(Stdio::null()).output().expect("runs")
}

/// Every name under `dir` that is a temporary file of `fix`.
fn temporary_files(dir: &std::path::Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".recount-"))
        .collect()
}

#[test]
fn a_rename_target_holding_a_newline_and_escape_is_left_to_a_person_and_said_escaped() {
    let record = b"# Guide\n\nThe steps live in [the module](../src/old.py).\n";
    let target = "src/new\n::add-mask::\u{1b}[31mred.py";
    let repo = renamed_repo(record, target, false);
    let root = repo.path();
    let output = recount_in(root, None, &["fix", "--write"]);
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert_eq!(
        std::fs::read(root.join("docs/guide.md")).expect("read"),
        record,
        "the record was written: {out}{err}"
    );
    assert_inert(&format!("{out}{err}"), "human");
    assert!(err.contains("nothing to fix"), "{err}");
    assert!(err.contains("control character"), "{err}");
    assert!(
        err.contains(r"../src/new\u{a}::add-mask::\u{1b}[31mred.py"),
        "{err}"
    );
    assert!(err.contains(r"`\u{a}`, `\u{1b}`"), "{err}");
    // The plan as JSON says the same, and proposes no edit.
    let output = recount_in(root, None, &["fix", "--format", "json"]);
    let plan: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("json");
    assert_eq!(plan["edits"], serde_json::json!([]), "{plan}");
    let left = &plan["needs_a_person"][0];
    assert_eq!(left["why"], "control-character", "{plan}");
    assert!(
        !left["message"]
            .as_str()
            .expect("message")
            .contains('\u{1b}')
    );
    // No report offers the edit either: not as a JSON field, a SARIF fix or
    // a summary's suggestion block a reviewer could apply in one click.
    let output = recount_in(root, None, &["check", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("json");
    let finding = &report["findings"][0];
    assert_eq!(finding["check"], "stale-path-cite", "{report}");
    assert!(finding.get("fix").is_none(), "{report}");
    let sarif = stdout(&recount_in(root, None, &["check", "--format", "sarif"]));
    assert!(!sarif.contains("\"fixes\""), "{sarif}");
    let summary = stdout(&recount_in(root, None, &["check", "--format", "markdown"]));
    assert!(!summary.contains("```suggestion"), "{summary}");
    assert!(temporary_files(root).is_empty());
}

#[test]
fn a_definition_shown_in_a_code_block_is_not_rewritten_and_the_real_one_is() {
    let record = "# Guide\n\nThe steps live in [the module][two].\n\n\
                  A definition is written like this:\n\n\
                  ```md\n[two]: ../src/old.py\n```\n\n\
                  or indented:\n\n    [two]: ../src/old.py\n\n\
                  [two]: ../src/old.py\n";
    let repo = renamed_repo(record.as_bytes(), "src/new.py", false);
    let root = repo.path();
    let output = recount_in(root, None, &["fix", "--write"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let written = std::fs::read_to_string(root.join("docs/guide.md")).expect("read");
    let expected = format!(
        "{}[two]: ../src/new.py\n",
        record
            .strip_suffix("[two]: ../src/old.py\n")
            .expect("the real one")
    );
    assert_eq!(written, expected);
    // Then nothing is left to fix.
    let output = recount_in(root, None, &["fix"]);
    assert!(
        stderr(&output).contains("nothing to fix"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_file_at_the_temporary_name_survives_and_fix_leaves_none_of_its_own() {
    let record = b"# Guide\n\nThe steps live in [the module](../src/old.py).\n";
    let repo = renamed_repo(record, "src/new.py", false);
    let root = repo.path();
    // The name the write used to take, for this process (the library's
    // write, run here), and for the next processes (the binary's).
    let ours = format!(".guide.md.recount-{}.tmp", std::process::id());
    let planted: Vec<String> = (0..64)
        .map(|n| format!(".guide.md.recount-{}.tmp", std::process::id() + n))
        .collect();
    for name in &planted {
        std::fs::write(root.join("docs").join(name), "someone else's\n").expect("plant");
    }
    let text = String::from_utf8(record.to_vec()).expect("utf-8");
    let offset = text.find("../src/old.py").expect("stated");
    let file = recount::fix::FileEdits {
        path: "docs/guide.md".to_owned(),
        before: std::sync::Arc::from(text.as_str()),
        edits: vec![recount::fix::Edit {
            check: recount::checks::CheckId::StalePathCite,
            line: 3,
            offset,
            length: "../src/old.py".len(),
            stated: "../src/old.py".to_owned(),
            replacement: "../src/new.py".to_owned(),
            mends: Default::default(),
        }],
    };
    recount::fix::apply::write(root, &file).expect("written");
    assert!(planted.contains(&ours));
    // And by the binary, on a fresh copy of the stale record.
    git(root, &["checkout", "-q", "--", "docs/guide.md"]);
    let output = recount_in(root, None, &["fix", "--write"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(root.join("docs/guide.md")).expect("read"),
        "# Guide\n\nThe steps live in [the module](../src/new.py).\n"
    );
    for name in &planted {
        assert_eq!(
            std::fs::read_to_string(root.join("docs").join(name)).expect("survives"),
            "someone else's\n",
            "{name}"
        );
    }
    let mut left = temporary_files(root);
    left.sort();
    let mut want = planted.clone();
    want.sort();
    assert_eq!(left, want, "a temporary file of fix left behind");
}

#[test]
fn a_record_that_is_not_utf8_is_refused_by_fix_as_not_utf8() {
    let record = b"# Guide\n\nCaf\xe9: the steps live in [the module](../src/old.py).\n";
    let repo = renamed_repo(record, "src/new.py", false);
    let root = repo.path();
    for args in [&["fix", "--write"][..], &["fix", "--write", "--yes"]] {
        let output = recount_in(root, None, args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(
            err.contains("docs/guide.md: it is not UTF-8 text"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("changed since"), "{args:?}: {err}");
        assert!(!err.contains("uncommitted"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read(root.join("docs/guide.md")).expect("read"),
            record
        );
        assert!(temporary_files(root).is_empty());
    }
}
#[test]
fn a_cache_line_naming_another_added_file_as_the_rename_is_neither_reported_nor_written() {
    let record = b"# Guide\n\nThe steps live in [the module](../src/old.py).\n";
    for edited in [false, true] {
        let repo = renamed_repo(record, "src/new.py", edited);
        let root = repo.path();
        let cache = tempfile::tempdir().expect("cache folder");
        let findings = |cache: Option<&std::path::Path>| {
            let output = recount_in(root, cache, &["check", "--format", "json"]);
            assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
            let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("json");
            (report["findings"].clone(), report["notes"].to_string())
        };
        let (unremembered, _) = findings(None);
        assert!(
            unremembered.to_string().contains("../src/new.py"),
            "edited {edited}: {unremembered}"
        );
        // One run to write the memory; then the attacker's edit of it.
        let (remembered, _) = findings(Some(cache.path()));
        assert_eq!(remembered, unremembered, "edited {edited}");
        let memo = std::fs::read_dir(cache.path())
            .expect("cache")
            .map(|e| e.expect("entry").path())
            .find(|p| p.extension().is_some_and(|e| e == "memo"))
            .expect("a memory file");
        let honest = std::fs::read_to_string(&memo).expect("memo");
        assert!(
            honest
                .lines()
                .any(|l| l.starts_with("r ") && l.ends_with("\tsrc/new.py")),
            "edited {edited}: no remembered rename:\n{honest}"
        );
        let poison = honest.replace("\tsrc/new.py", "\tsrc/decoy.py");
        assert_ne!(poison, honest);
        std::fs::write(&memo, &poison).expect("poison");
        let (poisoned, notes) = findings(Some(cache.path()));
        assert_eq!(poisoned, unremembered, "edited {edited}: {poison}");
        assert!(!poisoned.to_string().contains("decoy"), "edited {edited}");
        assert!(notes.contains("contradict"), "edited {edited}: {notes}");
        assert_eq!(
            std::fs::read_to_string(&memo).expect("memo"),
            honest,
            "edited {edited}: the poison was saved back"
        );
        // The same poison, then `fix --write`: the rename the objects show.
        std::fs::write(&memo, &poison).expect("poison");
        let output = recount_in(root, Some(cache.path()), &["fix", "--write"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let written = std::fs::read_to_string(root.join("docs/guide.md")).expect("read");
        assert_eq!(
            written, "# Guide\n\nThe steps live in [the module](../src/new.py).\n",
            "edited {edited}"
        );
        assert!(!stdout(&output).contains("decoy"), "edited {edited}");
        assert_eq!(
            std::fs::read_to_string(&memo).expect("memo"),
            honest,
            "edited {edited}: the poison was saved back by fix"
        );
    }
}

// --- round four: no recursion whose depth the input controls -----------------

/// How deep each attack nests: five hundred times the shared depth budget,
/// and past what the main thread's stack held for any of the readers.
const DEEP: usize = 100_000;

/// `recount ARGS` in `dir` under the 1 GiB address-space cap, no cache: the
/// exit code and everything printed. A stack overflow or a panic is no exit
/// code of recount's (134, or 101), so every caller asserts 0, 1 or 2.
fn run_capped(dir: &std::path::Path, args: &str) -> (Option<i32>, String) {
    let output = capped_in(dir, args);
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    (output.status.code(), printed)
}

/// A fresh repository holding `files`, committed, checked under the cap.
fn check_capped(files: &[(&str, String)]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
        std::fs::write(path, text).expect("write");
    }
    links_repo::commit_all(dir.path(), "the attack");
    run_capped(dir.path(), "check --format json")
}

fn assert_finished(attack: &str, (code, printed): &(Option<i32>, String)) {
    let shown = &printed[..printed.len().min(3_000)];
    assert!(
        matches!(code, Some(0..=2)),
        "{attack}: exit {code:?}, not recount's own:\n{shown}"
    );
    assert!(
        !printed.contains("overflow") && !printed.contains("panicked"),
        "{attack}:\n{shown}"
    );
}

#[test]
fn a_conf_py_nested_a_hundred_thousand_deep_is_read_in_part_and_said_so() {
    let conf = format!(
        "extensions = []\ndefault_role = {}'obj'{}\n",
        "(".repeat(DEEP),
        ")".repeat(DEEP)
    );
    let page = "Page\n====\n\nSee :ref:`somewhere-else` and `x`.\n".to_owned();
    let outcome = check_capped(&[("docs/conf.py", conf), ("docs/index.rst", page)]);
    assert_finished("conf.py", &outcome);
    assert!(
        outcome.1.contains("read docs/conf.py in part"),
        "{}",
        &outcome.1[..outcome.1.len().min(3_000)]
    );
}

#[test]
fn a_conf_py_past_its_parse_budget_is_cut_with_a_note_and_nothing_found_for_it() {
    // A conf.py that loads intersphinx and then runs past the served-bytes
    // budget of the parse: the label another project defines stays
    // unverified, never stale, because what conf.py set is not known.
    let mut conf = String::from("extensions = ['sphinx.ext.intersphinx']\n");
    while conf.len() < 500 * 1024 {
        conf.push_str("x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n");
    }
    let page = "Page\n====\n\nSee :ref:`python:comparisons`.\n".to_owned();
    let whole = check_capped(&[
        ("docs/conf.py", conf.clone()),
        ("docs/index.rst", page.clone()),
    ]);
    assert_finished("conf.py", &whole);
    // Past the 512 KiB cap: not read at all, said, and nothing found for it.
    conf.push_str(&"# padding\n".repeat(4_000));
    let over = check_capped(&[("docs/conf.py", conf), ("docs/index.rst", page)]);
    assert_finished("conf.py past its cap", &over);
    assert!(over.1.contains("read docs/conf.py in part"), "{}", over.1);
    assert!(over.1.contains("the `conf.py` reader takes"), "{}", over.1);
    for (code, printed) in [&whole, &over] {
        assert_eq!(*code, Some(0), "{printed}");
    }
}

#[test]
fn a_rust_test_file_of_a_hundred_thousand_nested_modules_is_checked_without_a_crash() {
    let mut source = "mod a {\n".repeat(DEEP);
    source.push_str("#[test]\nfn deep() {}\n");
    source.push_str(&"}\n".repeat(DEEP));
    let record =
        "# Tests\n\nSee `tests/deep.rs::a::a::deep` and `tests/deep.rs::gone`.\n".to_owned();
    let outcome = check_capped(&[("tests/deep.rs", source), ("docs/tests.md", record)]);
    assert_finished("Rust modules", &outcome);
}

#[test]
fn python_constants_a_hundred_thousand_deep_are_not_static_not_a_crash() {
    for (attack, value) in [
        ("attributes", format!("a{}", ".b".repeat(DEEP))),
        (
            "parentheses",
            format!("{}1{}", "(".repeat(DEEP), ")".repeat(DEEP)),
        ),
        ("signs", format!("{}1", "-".repeat(DEEP))),
    ] {
        let rules = "[recount]\nrecords = [\"docs/*.md\"]\n\n[constants]\nX = { file = \"src/deep.py\" }\n\n[[fact]]\nid = \"x\"\nconstant = \"X\"\nclaims = [{ in = \"docs/a.md\", says = 'X is (?<value>\\d+)' }]\n";
        let outcome = check_capped(&[
            ("recount.toml", rules.to_owned()),
            ("src/deep.py", format!("X = {value}\n")),
            ("docs/a.md", "# A\n\nX is 1.\n".to_owned()),
        ]);
        assert_finished(attack, &outcome);
        // Refused for what it is: not static, never evaluated.
        assert!(
            outcome.1.contains("nests deeper than")
                || outcome.1.contains("cannot be evaluated statically"),
            "{attack}: {}",
            &outcome.1[..outcome.1.len().min(3_000)]
        );
    }
}

#[test]
fn markdown_and_rst_pages_nested_a_hundred_thousand_deep_are_read_without_a_crash() {
    let quotes = format!("# Q\n\n{}[x](gone.md)\n", "> ".repeat(DEEP));
    let lists = format!("# L\n\n{}[x](gone.md)\n", "- ".repeat(DEEP));
    let mut rst = String::from("R\n=\n\n");
    for level in 0..2_000 {
        rst.push_str(&" ".repeat(level));
        rst.push_str("- item\n\n");
    }
    let rst_quotes = format!("Q\n=\n\n{}`x <gone.rst>`_\n", "  ".repeat(DEEP / 10));
    for (attack, path, text) in [
        ("blockquotes", "docs/q.md", quotes),
        ("lists", "docs/l.md", lists),
        ("rst lists", "docs/r.rst", rst),
        ("rst quotes", "docs/rq.rst", rst_quotes),
    ] {
        let outcome = check_capped(&[(path, text)]);
        assert_finished(attack, &outcome);
    }
}

#[test]
fn a_json_document_a_hundred_thousand_arrays_deep_is_refused_by_validate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let document = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
    std::fs::write(dir.path().join("deep.json"), &document).expect("write");
    let args = format!(
        "validate --schemas '{}/validation/mcp' --tool knowledge.search deep.json",
        support::fixtures().display()
    );
    let outcome = run_capped(dir.path(), &args);
    assert_finished("JSON", &outcome);
    assert!(matches!(outcome.0, Some(1 | 2)), "{}", outcome.1);
}

// --- round four: a schema's pattern that backtracks --------------------------

#[test]
fn a_catastrophic_pattern_is_refused_at_the_backtrack_limit_and_says_so() {
    let schemas = tempfile::tempdir().expect("temp dir");
    // A back-reference sends the pattern to fancy-regex's backtracking VM;
    // `(a|a)+` doubles the paths at each `a`.
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://recount.example/probe/run-input.schema.json",
        "title": "probe.run input",
        "x-tool": "probe.run",
        "type": "object",
        "properties": { "word": { "type": "string", "pattern": "^(a|a)+\\1b$" } },
        "unevaluatedProperties": false
    });
    std::fs::write(
        schemas.path().join("run-input.schema.json"),
        serde_json::to_string(&schema).expect("json"),
    )
    .expect("write");
    let word = format!("{}!", "a".repeat(40));
    let output = assert_cmd::Command::cargo_bin("recount")
        .expect("binary")
        .args(["validate", "--schemas"])
        .arg(schemas.path())
        .args(["--tool", "probe.run", "-"])
        .write_stdin(format!("{{\"word\": \"{word}\"}}"))
        .output()
        .expect("runs");
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(
        unwrapped(&printed).contains("fails pattern (backtrack limit 10000 hit)"),
        "{printed}"
    );
    assert!(!printed.contains(&word), "{printed}");
}

#[test]
fn a_folder_swapped_for_a_link_while_fix_writes_never_sends_a_write_outside() {
    use std::os::unix::fs::PermissionsExt;
    let repo = tempfile::tempdir().expect("repo");
    let outside = tempfile::tempdir().expect("outside");
    let root = repo.path();
    let old = "See [it](old.md).\n";
    let new = "See [it](new.md).\n";
    std::fs::create_dir(root.join("docs")).expect("mkdir");
    std::fs::write(root.join("docs/guide.md"), old).expect("write");
    // The same record outside, so a write sent there would pass the check
    // that the file still holds what the edits were computed against.
    std::fs::write(outside.path().join("guide.md"), old).expect("write");
    std::fs::set_permissions(
        outside.path().join("guide.md"),
        std::fs::Permissions::from_mode(0o600),
    )
    .expect("mode");
    std::os::unix::fs::symlink(outside.path(), root.join("swap")).expect("link");
    let edits = |from: &str, to: &str, before: &str| recount::fix::FileEdits {
        path: "docs/guide.md".to_owned(),
        before: std::sync::Arc::from(before),
        edits: vec![recount::fix::Edit {
            check: recount::checks::CheckId::StalePathCite,
            line: 1,
            offset: before.find(from).expect("stated"),
            length: from.len(),
            stated: from.to_owned(),
            replacement: to.to_owned(),
            mends: Default::default(),
        }],
    };
    let (forth, back) = (
        edits("old.md", "new.md", old),
        edits("new.md", "old.md", new),
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // The attacker: `docs` becomes the link to the outside folder and back,
    // over and over, while the writes run.
    let swapper = {
        let (root, stop) = (root.to_path_buf(), std::sync::Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut swaps = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::fs::rename(root.join("docs"), root.join("held")).expect("hold");
                std::fs::rename(root.join("swap"), root.join("docs")).expect("plant");
                std::thread::yield_now();
                std::fs::rename(root.join("docs"), root.join("swap")).expect("unplant");
                std::fs::rename(root.join("held"), root.join("docs")).expect("restore");
                // Long enough in place for writes to begin, so that some
                // are midway when the folder goes.
                std::thread::sleep(std::time::Duration::from_micros(200));
                swaps += 1;
            }
            swaps
        })
    };
    let (mut written, mut refused) = (0u32, 0u32);
    // Bounded: until 300 writes have landed, or 300,000 attempts.
    for _ in 0..150_000 {
        if written >= 300 {
            break;
        }
        for file in [&forth, &back] {
            match recount::fix::apply::write(root, file) {
                Ok(()) => written += 1,
                Err(_) => refused += 1,
            }
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let swaps = swapper.join().expect("the swapper ran");
    assert!(
        swaps > 0 && written > 0,
        "no race: {swaps} swaps, {written} writes"
    );
    assert!(refused > 0, "every write found the folder in place");
    assert_eq!(
        std::fs::read_to_string(outside.path().join("guide.md")).expect("read"),
        old,
        "a write went outside the repository"
    );
    let mode = std::fs::metadata(outside.path().join("guide.md"))
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "the outside file's mode changed");
    let names: Vec<String> = std::fs::read_dir(outside.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["guide.md"], "a file was left outside");
    assert!(
        temporary_files(root).is_empty(),
        "a temporary file left behind"
    );
}

// --- issue 54, item 3: the three quadratic passes, run at their issue sizes --
//
// How each cost grows is measured by `benches/hostile-scaling.sh`, never
// timed here. These run each attack at (or past) the size the issue measured
// and bound the run's processor time the way `capped_in` bounds its memory:
// the quadratic passes took 31 s to 95 s of it there in a release build, the
// linear ones take one to fifteen in a debug build, so a limit of 60 s (of
// processor time, which a loaded machine does not stretch) is a resource cap
// with a wide margin on both sides, not a measure of speed.

/// A repository built by `git fast-import` from `stream`, nothing checked
/// out (the porcelain is too slow at these sizes): recount reads `main`.
fn imported(stream: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    let mut child = StdCommand::new("git")
        .current_dir(dir.path())
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("fast-import runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stream.as_bytes())
        .expect("stream written");
    assert!(child.wait().expect("fast-import ends").success());
    dir
}

/// `recount ARGS` in `dir` under the memory cap and `cpu_seconds` of
/// processor time: the exit code and everything printed.
fn run_cpu_capped(dir: &std::path::Path, args: &str, cpu_seconds: u32) -> (Option<i32>, String) {
    let output = cpu_capped_in(dir, args, cpu_seconds);
    let printed = format!("{}{}", stdout(&output), stderr(&output));
    (output.status.code(), printed)
}

/// `recount ARGS` in `dir` under the memory cap and `cpu_seconds` of
/// processor time.
fn cpu_capped_in(dir: &std::path::Path, args: &str, cpu_seconds: u32) -> std::process::Output {
    limited_in(
        dir,
        args,
        &format!("ulimit -v 1048576 && ulimit -t {cpu_seconds}"),
    )
}

/// One fast-import commit at `seconds` past 2026-01-01 holding `body`.
fn commit_at(seconds: u64, message: &str, body: &str) -> String {
    format!(
        "commit refs/heads/main\ncommitter attacker <attacker@example.invalid> {} +0000\ndata {}\n{message}\n{body}",
        1_767_225_600 + seconds,
        message.len() + 1
    )
}

#[test]
fn a_commit_moving_eighty_thousand_identical_files_is_paired_within_the_cap() {
    // Every file the same contents, every name changed: the old pairing
    // scanned and shifted the whole list of added paths per deleted one
    // (73 s at 40,000 in the issue; 42 s here in a release build, so twice
    // the files to be four times that).
    const FILES: usize = 80_000;
    let readme = "# Notes\n\nSee `a/f1.txt`.\n";
    let mut stream = format!(
        "blob\nmark :1\ndata 5\nsame\nblob\nmark :2\ndata {}\n{readme}",
        readme.len()
    );
    let mut first = String::from("M 100644 :2 README.md\n");
    let mut second = String::from("D a\n");
    for i in 1..=FILES {
        first.push_str(&format!("M 100644 :1 a/f{i}.txt\n"));
        second.push_str(&format!("M 100644 :1 b/g{i}.txt\n"));
    }
    stream.push_str(&commit_at(0, "one", &first));
    stream.push_str(&commit_at(60, "two", &second));
    let repo = imported(&stream);
    let run = run_cpu_capped(repo.path(), "check --rev main --since main~1", 30);
    assert_finished("identical files moved", &run);
    assert_eq!(run.0, Some(1), "{}", &run.1[..run.1.len().min(3_000)]);
    assert!(run.1.contains("renamed to `b/g1.txt`"), "{}", run.1);
}

#[test]
fn a_range_of_thirty_two_thousand_commits_is_walked_within_the_cap() {
    // A merge-base walk per commit of the range took 15 s at 8,000 in a
    // release build, sixteen times that at four times the commits.
    const COMMITS: u64 = 32_000;
    let mut stream = String::from("blob\nmark :1\ndata 11\n# Project\n\n");
    for i in 0..COMMITS {
        let line = format!("{i}\n");
        let body = format!(
            "M 100644 :1 README.md\nM 100644 inline log.txt\ndata {}\n{line}",
            line.len()
        );
        stream.push_str(&commit_at(i, "c", &body));
    }
    let repo = imported(&stream);
    let root = StdCommand::new("git")
        .current_dir(repo.path())
        .args(["rev-list", "--max-parents=0", "main"])
        .output()
        .expect("rev-list");
    let root = stdout(&root).trim().to_owned();
    let run = run_cpu_capped(
        repo.path(),
        &format!("check --rev main --since {root} --format json"),
        30,
    );
    assert_finished("a long range", &run);
    assert_eq!(run.0, Some(0), "{}", &run.1[..run.1.len().min(3_000)]);
    assert!(
        run.1.contains("(31999 commits)"),
        "{}",
        &run.1[..run.1.len().min(3_000)]
    );
}

#[test]
fn thirty_two_thousand_missing_links_in_a_folder_of_as_many_files_are_checked_within_the_cap() {
    // Each lookup re-inflated the folder's tree and compared the name with
    // every sibling: 24 s at 16,000 in a release build, four times that at
    // twice the links.
    const FILES: usize = 32_000;
    let mut stream = String::from("blob\nmark :1\ndata 4\n# p\n");
    let mut readme = String::from("# R\n\n");
    let mut body = String::new();
    for i in 0..FILES {
        body.push_str(&format!("M 100644 :1 docs/page{i:05}.md\n"));
        readme.push_str(&format!("[x](docs/gone{i:05}.md)\n"));
    }
    body.push_str(&format!(
        "M 100644 inline README.md\ndata {}\n{readme}",
        readme.len()
    ));
    stream.push_str(&commit_at(0, "one", &body));
    let repo = imported(&stream);
    let output = cpu_capped_in(repo.path(), "check --rev main --format json", 60);
    let run = (output.status.code(), stderr(&output));
    assert_finished("missing links in a large folder", &run);
    assert_eq!(run.0, Some(1), "{}", &run.1[..run.1.len().min(3_000)]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("a JSON report");
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(FILES),
        "every missing link is a finding"
    );
}
