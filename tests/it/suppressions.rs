//! Suppression directives in records (`<!-- recount: ignore[...] reason="..." -->`)
//! and per-check severities in the rule file. The `suppressions` fixture's one
//! commit holds a live directive, one a block too early for its finding, an
//! expired one, an unused one, and the same words in a code span and a code
//! block; extra records and rule files are written into its working tree.

use serde_json::Value;

use crate::support::{
    Repo, Seen, accepted_by_the_report_schema, build, findings, json_report, stderr, stdout,
};

fn fixture() -> Repo {
    build("suppressions")
}

fn seen(check: &str, line: u64, column: u64, message: &str) -> Seen {
    (
        check.to_owned(),
        "docs/notes.md".to_owned(),
        line,
        column,
        message.to_owned(),
    )
}

fn stale(repo: &Repo, line: u64, column: u64, target: &str) -> Seen {
    let tree = repo.label();
    seen(
        "stale-path-cite",
        line,
        column,
        &format!(
            "`../src/{target}`: the link names no file `src/{target}` at {tree}; it did not resolve when the record cited it either (at {})",
            &repo.oid("01")[..8]
        ),
    )
}

#[test]
fn a_directive_silences_its_check_in_the_next_block_only() {
    let repo = fixture();
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&report),
        vec![
            // One block after the live directive: it still fires.
            stale(&repo, 8, 34, "runner_checks.py"),
            // The expired directive silences nothing and says so.
            seen(
                "unused-suppression",
                10,
                92,
                "the suppression of stale-path-cite expired on 2000-01-01: what it silenced \
                 is reported again"
            ),
            stale(&repo, 11, 28, "migrate.py"),
            seen(
                "unused-suppression",
                13,
                22,
                "the suppression of stale-line-cite suppresses nothing: the block after it has \
                 no stale-line-cite finding"
            ),
            // A directive in a code span or a code block is text: no
            // unused-suppression for either, and the findings after them fire.
            stale(&repo, 18, 48, "helpers.py"),
            stale(&repo, 24, 34, "helper_index.py"),
        ]
    );
    let suppressed = report["suppressed"].as_array().expect("suppressed");
    assert_eq!(suppressed.len(), 1, "{suppressed:#?}");
    let one = &suppressed[0];
    assert_eq!(one["finding"]["check"], "stale-path-cite");
    assert_eq!(one["finding"]["location"]["line"], 6);
    assert_eq!(one["finding"]["stated"], "../src/runner.py");
    assert_eq!(
        one["reason"],
        "the runner is being rewritten; its page follows it"
    );
    assert_eq!(
        (&one["directive"]["line"], &one["directive"]["column"]),
        (&Value::from(5), &Value::from(1))
    );
    assert!(accepted_by_the_report_schema(&report));
}

#[test]
fn suppressed_findings_leave_the_exit_code_and_are_counted() {
    let repo = fixture();
    repo.write(
        "docs/notes.md",
        "# Notes\n\n<!-- recount: ignore[stale-path-cite] reason=\"rewritten\" -->\n\
         See [the runner](../src/runner.py).\n",
    );
    let output = repo.recount(&["check"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.contains("; 1 suppressed"), "{out}");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 0);
    assert_eq!(findings(&report), Vec::<Seen>::new());
    assert_eq!(report["suppressed"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_directive_inside_a_list_applies_to_the_next_item() {
    let repo = fixture();
    repo.write(
        "docs/notes.md",
        "# Notes\n\n- [the runner](../src/runner.py)\n  \
         <!-- recount: ignore[stale-path-cite] reason=\"going\" -->\n\
         - [the migration](../src/migrate.py)\n",
    );
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let checks: Vec<(String, u64)> = findings(&report)
        .into_iter()
        .map(|(check, _, line, _, _)| (check, line))
        .collect();
    assert_eq!(checks, [("stale-path-cite".to_owned(), 3)]);
    assert_eq!(
        report["suppressed"][0]["finding"]["location"]["line"],
        Value::from(5)
    );
}

/// `check` over a record holding `text`: the exit code and stderr.
fn bad_record(text: &str) -> (Option<i32>, String, Value) {
    let repo = fixture();
    repo.write("docs/bad.md", text);
    let output = repo.recount(&["check"]).output().expect("runs");
    let (_, report) = json_report(&repo, &[]);
    (output.status.code(), stderr(&output), report)
}

#[test]
fn a_directive_without_a_reason_stops_the_run_at_its_place() {
    let (code, err, report) = bad_record(
        "# Bad\n\nSome text.\n\n<!-- recount: ignore[stale-path-cite] -->\nMore text.\n",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a suppression needs a reason"), "{err}");
    assert!(err.contains("docs/bad.md:5:1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let error = &report["error"];
    assert_eq!(error["path"], "docs/bad.md");
    assert_eq!(
        (&error["line"], &error["column"]),
        (&Value::from(5), &Value::from(1))
    );
}

#[test]
fn an_unknown_check_id_stops_the_run_at_the_id() {
    let (code, err, report) = bad_record(
        "# Bad\n\n<!-- recount: ignore[stale-path-cite, stale-pth-cite] reason=\"x\" -->\ntext\n",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown check id `stale-pth-cite`"), "{err}");
    assert!(err.contains("docs/bad.md:3:39"), "{err}");
    assert!(
        err.contains("unused-suppression"),
        "the help lists the ids: {err}"
    );
    assert_eq!(report["error"]["column"], Value::from(39));
}

#[test]
fn a_directive_in_a_fenced_block_or_code_span_is_never_read() {
    // Malformed on purpose: read as a directive, it would stop the run.
    let (code, err, report) = bad_record(
        "# Fine\n\n```markdown\n<!-- recount: ignore[nope] -->\n```\n\n\
         `<!-- recount: ignore[nope] -->`\n\n    <!-- recount: ignore[nope] -->\n",
    );
    assert_eq!(code, Some(1), "the fixture's own findings: {err}");
    assert!(report.get("error").is_none(), "{report:#}");
}

#[test]
fn the_report_is_byte_identical_run_to_run() {
    let repo = fixture();
    let run = || {
        stdout(
            &repo
                .recount(&["check", "--format", "json"])
                .output()
                .expect("runs"),
        )
    };
    let first = run();
    assert!(first.contains("\"suppressed\""), "{first}");
    assert_eq!(first, run());
    let human = |()| stdout(&repo.recount(&["check"]).output().expect("runs"));
    assert_eq!(human(()), human(()));
}

#[test]
fn explain_knows_unused_suppression() {
    let repo = fixture();
    let output = repo
        .recount(&["explain", "unused-suppression"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("unused-suppression: "));
}

/// `check --format json` with `rules` as the repository's recount.toml, and
/// `--fail-on` when given.
fn with_rules(rules: &str, extra: &[&str]) -> (i32, Value) {
    let repo = fixture();
    repo.write("recount.toml", rules);
    json_report(&repo, extra)
}

/// (check, severity, line) of every finding in the record `path`.
fn severities_in(report: &Value, path: &str) -> Vec<(String, String, u64)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["location"]["path"] == path)
        .map(|f| {
            (
                f["check"].as_str().unwrap_or_default().to_owned(),
                f["severity"].as_str().unwrap_or_default().to_owned(),
                f["location"]["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_check_set_off_does_not_run() {
    let (code, report) = with_rules("[checks]\nstale-path-cite = \"off\"\n", &[]);
    assert_eq!(code, 1);
    // No stale-path-cite, and its directives are not blamed for silencing
    // nothing; the expired one still expired, and the stale-line-cite one is
    // still unused.
    assert_eq!(
        severities_in(&report, "docs/notes.md"),
        [
            ("unused-suppression".to_owned(), "warning".to_owned(), 10),
            ("unused-suppression".to_owned(), "warning".to_owned(), 13),
        ]
    );
    assert_eq!(report["suppressed"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_check_set_to_warning_lets_fail_on_error_pass() {
    let (code, _) = with_rules("", &["--fail-on", "error"]);
    assert_eq!(code, 1, "stale-path-cite is an error by default");
    let rules = "[checks]\nstale-path-cite = \"warning\"\n";
    let (code, report) = with_rules(rules, &["--fail-on", "error"]);
    assert_eq!(code, 0);
    let severities: Vec<(String, String, u64)> = severities_in(&report, "docs/notes.md");
    assert_eq!(severities.len(), 6, "{severities:?}");
    assert!(
        severities.iter().all(|(_, s, _)| s == "warning"),
        "{severities:?}"
    );
    // A suppressed finding carries the severity it would have had.
    assert_eq!(report["suppressed"][0]["finding"]["severity"], "warning");
}

#[test]
fn a_check_set_to_error_raises_a_warning_check() {
    let rules = "[checks]\nunused-suppression = \"error\"\n";
    let (code, report) = with_rules(rules, &["--fail-on", "error"]);
    assert_eq!(code, 1);
    let unused: Vec<String> = severities_in(&report, "docs/notes.md")
        .into_iter()
        .filter(|(c, _, _)| c == "unused-suppression")
        .map(|(_, s, _)| s)
        .collect();
    assert_eq!(unused, ["error", "error"]);
}

#[test]
fn an_unknown_check_or_level_in_checks_stops_the_run_located() {
    for (rules, says, at) in [
        (
            "[checks]\nstale-path-cite = \"off\"\nstale-pth-cite = \"off\"\n",
            "unknown key `stale-pth-cite` in `checks`",
            "recount.toml:3:1",
        ),
        (
            "[checks]\nstale-path-cite = \"loud\"\n",
            "must be one of",
            "recount.toml:2:19",
        ),
    ] {
        let repo = fixture();
        repo.write("recount.toml", rules);
        let output = repo.recount(&["check"]).output().expect("runs");
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{says:?} in {err}");
        assert!(err.contains(at), "{at:?} in {err}");
        if says.starts_with("unknown key") {
            assert!(err.contains("unused-suppression"), "lists the ids: {err}");
        }
    }
}

#[test]
fn an_inferred_path_stays_a_warning_whatever_its_checks_level() {
    let repo = fixture();
    repo.write("recount.toml", "[checks]\nstale-path-cite = \"error\"\n");
    repo.write("docs/more.md", "# More\n\nThe helper was `src/gone.py`.\n");
    let (_, report) = json_report(&repo, &[]);
    let more = severities_in(&report, "docs/more.md");
    assert_eq!(
        more,
        [("stale-path-cite".to_owned(), "warning".to_owned(), 3)]
    );
}

#[test]
fn the_including_file_sets_a_level_before_what_it_includes() {
    let repo = fixture();
    repo.write(
        "recount.toml",
        "[recount]\ninclude = [\"more.toml\"]\n\n[checks]\nstale-path-cite = \"warning\"\n",
    );
    repo.write(
        "more.toml",
        "[checks]\nstale-path-cite = \"off\"\nunused-suppression = \"off\"\n",
    );
    let (code, report) = json_report(&repo, &["--fail-on", "error"]);
    assert_eq!(code, 0);
    let seen = severities_in(&report, "docs/notes.md");
    let expected: Vec<(String, String, u64)> = [8, 11, 18, 24]
        .into_iter()
        .map(|line| ("stale-path-cite".to_owned(), "warning".to_owned(), line))
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn sarif_marks_a_silenced_finding_suppressed_in_source() {
    let repo = fixture();
    let output = repo
        .recount(&["check", "--format", "sarif"])
        .output()
        .expect("runs");
    let sarif: Value = serde_json::from_str(&stdout(&output)).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let suppressed: Vec<&Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 1, "{results:#?}");
    assert_eq!(suppressed[0]["ruleId"], "stale-path-cite");
    assert_eq!(suppressed[0]["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        suppressed[0]["suppressions"][0]["justification"],
        "the runner is being rewritten; its page follows it"
    );
    assert_eq!(results.len(), 7);
}

/// `[[ignore]]` in a rule file: findings under its paths, of its checks, are
/// listed as suppressed (SARIF `external`) with its reason; the same finding
/// elsewhere is reported; an entry that hides nothing is reported; a reason
/// that says nothing is refused, located.
#[test]
fn an_ignore_hides_its_paths_findings_and_nothing_else() {
    let repo = fixture();
    repo.write(
        "docs/drafts/old.md",
        "# Old\n\nSee [the runner](../../src/runner.py).\n",
    );
    repo.write(
        "ignore.toml",
        "[[ignore]]\npaths = [\"docs/drafts/**\"]\nchecks = [\"stale-path-cite\"]\nreason = \"archived pages, kept as they were\"\n\n\
         [[ignore]]\npaths = [\"docs/retired/**\"]\nreason = \"pages we stopped updating\"\n",
    );
    let (code, report) = json_report(&repo, &["--rules", "ignore.toml"]);
    assert_eq!(code, 1);
    let reported = findings(&report);
    assert!(
        reported.iter().all(|f| f.1 != "docs/drafts/old.md"),
        "{reported:#?}"
    );
    // The same stale path in docs/notes.md is still reported.
    assert!(
        reported
            .iter()
            .any(|f| f.0 == "stale-path-cite" && f.1 == "docs/notes.md")
    );
    // The entry under docs/retired hides nothing: reported at the entry.
    let unused: Vec<&Seen> = reported
        .iter()
        .filter(|f| f.0 == "unused-suppression" && f.1 == "ignore.toml")
        .collect();
    assert_eq!(unused.len(), 1, "{reported:#?}");
    assert_eq!(unused[0].2, 6);
    assert!(unused[0].4.contains("hides no findings"), "{}", unused[0].4);
    let suppressed = report["suppressed"].as_array().expect("suppressed");
    let archived: Vec<&Value> = suppressed
        .iter()
        .filter(|s| s["finding"]["location"]["path"] == "docs/drafts/old.md")
        .collect();
    assert_eq!(archived.len(), 1, "{suppressed:#?}");
    assert_eq!(archived[0]["kind"], "external");
    assert_eq!(archived[0]["reason"], "archived pages, kept as they were");
    assert_eq!(archived[0]["directive"]["path"], "ignore.toml");
    assert!(accepted_by_the_report_schema(&report));

    // SARIF: the ignored result is suppressed `external`, and every result,
    // suppressed or not, carries its fingerprint.
    let output = repo
        .recount(&["check", "--rules", "ignore.toml", "--format", "sarif"])
        .output()
        .expect("runs");
    let sarif: Value = serde_json::from_str(&stdout(&output)).expect("SARIF");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().all(|r| r["partialFingerprints"]
            .as_object()
            .is_some_and(|o| !o.is_empty())),
        "{results:#?}"
    );
    assert!(
        results
            .iter()
            .any(|r| r["suppressions"][0]["kind"] == "external")
    );
    assert!(
        results
            .iter()
            .any(|r| r["suppressions"][0]["kind"] == "inSource")
    );

    // Suppressing a finding leaves its fingerprint as it was when reported.
    let unignored = {
        repo.write("plain.toml", "[recount]\n");
        let (_, report) = json_report(&repo, &["--rules", "plain.toml"]);
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .find(|f| f["location"]["path"] == "docs/drafts/old.md")
            .and_then(|f| f["fingerprint"].as_str())
            .map(str::to_owned)
    };
    assert_eq!(
        archived[0]["fingerprint"].as_str().map(str::to_owned),
        unignored
    );

    // A reason that says nothing, and one missing, are refused, located.
    for entry in [
        "[[ignore]]\npaths = [\"docs/**\"]\nreason = \"  \"\n",
        "[[ignore]]\npaths = [\"docs/**\"]\n",
        "[[ignore]]\npaths = [\"docs/**\"]\nchecks = [\"stale-path-cit\"]\nreason = \"r\"\n",
    ] {
        repo.write("bad.toml", entry);
        let output = repo
            .recount(&["check", "--rules", "bad.toml"])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{entry}");
        let err = stderr(&output);
        assert!(err.contains("bad.toml:"), "{err}");
    }
    repo.write(
        "bad.toml",
        "[[ignore]]\npaths = [\"docs/**\"]\nchecks = [\"stale-path-cit\"]\nreason = \"r\"\n",
    );
    let output = repo
        .recount(&["check", "--rules", "bad.toml"])
        .output()
        .expect("runs");
    assert!(stderr(&output).contains("did you mean `stale-path-cite`"));
}
