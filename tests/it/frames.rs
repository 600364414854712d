//! Frames that do not resolve, date frames and missing inputs: each is a
//! finding (exit 1) and the rest of the audit still runs; exit 2 stays for
//! what stops recount from running at all.

use serde_json::Value;

use crate::support::{Repo, build, json_report, stderr};

/// Runs `check --format json` with `rules` as the rule file.
fn check_with(repo: &Repo, rules: &str) -> (i32, Value) {
    repo.write("frames.toml", rules);
    json_report(repo, &["--rules", "frames.toml"])
}

/// The findings of the checks this file is about (the fixture's records have
/// stale cites of their own).
fn ours(report: &Value) -> Vec<&Value> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "frame-unresolved" || f["check"] == "input-missing")
        .collect()
}

/// Those findings located in the test's own rule file (the fixture's record has a
/// frame of its own that is gone).
fn in_rule_file(report: &Value) -> Vec<&Value> {
    ours(report)
        .into_iter()
        .filter(|f| f["location"]["path"] == "frames.toml")
        .collect()
}

fn checks_of(report: &Value) -> Vec<String> {
    in_rule_file(report)
        .iter()
        .map(|f| f["check"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn fact<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no fact {id} in {report:#}"))
}

#[test]
fn a_rule_frame_that_does_not_resolve_is_a_finding_at_its_at() {
    let repo = build("adr-0031");
    let (code, report) = check_with(
        &repo,
        "[[fact]]\nid = \"gone\"\nat = \"deadbeef\"\nfiles = \"*.md\"\n\n\
         [[fact]]\nid = \"reads-gone\"\nexpr = \"{gone} + 1\"\n\n\
         [[fact]]\nid = \"here\"\nfiles = \"*.md\"\n",
    );
    assert_eq!(code, 1, "{report:#}");
    let finding = in_rule_file(&report)[0];
    assert_eq!(finding["check"], "frame-unresolved", "{report:#}");
    assert_eq!(finding["location"]["path"], "frames.toml");
    assert_eq!(finding["location"]["line"], 3);
    assert_eq!(finding["location"]["column"], 6);
    let message = finding["message"].as_str().expect("message");
    assert!(message.contains("unknown object"), "{message}");
    assert!(
        message.contains("`gone`") && message.contains("`reads-gone`"),
        "{message}"
    );
    // The unresolved fact and its reader have no value; the other is audited.
    for id in ["gone", "reads-gone"] {
        assert!(fact(&report, id).get("value").is_none(), "{report:#}");
        assert!(fact(&report, id)["unverified"].is_string(), "{report:#}");
        assert_eq!(fact(&report, id)["claims"]["ok"], 0);
    }
    assert!(fact(&report, "here")["value"].is_string(), "{report:#}");
    assert_eq!(checks_of(&report), ["frame-unresolved"]);
}

#[test]
fn unresolved_frames_in_the_human_report_name_every_frame() {
    let repo = build("adr-0031");
    repo.write(
        "frames.toml",
        "[[fact]]\nid = \"a\"\nat = \"deadbeef\"\nfiles = \"*.md\"\n\n\
         [[fact]]\nid = \"b\"\nat = \"cafef00d\"\nfiles = \"*.md\"\n",
    );
    let output = repo
        .recount(&["check", "--rules", "frames.toml"])
        .output()
        .expect("runs");
    let out = crate::support::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{out}{}", stderr(&output));
    assert!(
        out.contains("deadbeef") && out.contains("cafef00d"),
        "{out}"
    );
    assert!(out.contains("unverified"), "{out}");
}

#[test]
fn a_fact_whose_file_is_missing_is_an_input_missing_finding() {
    let repo = build("adr-0031");
    let (code, report) = check_with(
        &repo,
        "[[fact]]\nid = \"lines\"\ncount = \"x\"\nfile = \"no/such/file.py\"\n\n\
         [[fact]]\nid = \"limit\"\nconstant = \"X\"\nfile = \"src/gone.py\"\n\n\
         [[fact]]\nid = \"here\"\nfiles = \"*.md\"\n",
    );
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(checks_of(&report), ["input-missing", "input-missing"]);
    let messages: Vec<&str> = in_rule_file(&report)
        .iter()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert!(
        messages[0].contains("`lines`") && messages[0].contains("no/such/file.py"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("`limit`") && messages[1].contains("src/gone.py"),
        "{messages:?}"
    );
    assert!(
        fact(&report, "lines")["unverified"]
            .as_str()
            .unwrap_or_default()
            .contains("does not exist")
    );
    assert!(fact(&report, "here")["value"].is_string());
}

#[test]
fn a_rule_may_frame_a_fact_by_date() {
    let repo = build("adr-0031");
    // Every fixture commit is dated 2026-09-01; HEAD is main's last commit.
    let (code, report) = check_with(
        &repo,
        "[[fact]]\nid = \"by-day\"\nat = { date = \"2026-09-01\" }\nfiles = \"*.md\"\n\n\
         [[fact]]\nid = \"too-early\"\nat = { date = \"2020-01-01\" }\nfiles = \"*.md\"\n",
    );
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        fact(&report, "by-day")["commit"].as_str(),
        Some(git_head(&repo).as_str()),
        "{report:#}"
    );
    let notes = report["notes"].to_string();
    assert!(notes.contains("the frame 2026-09-01 is"), "{notes}");
    assert_eq!(checks_of(&report), ["frame-unresolved"]);
    let message = in_rule_file(&report)[0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains("2020-01-01") && message.contains("`too-early`"),
        "{message}"
    );
}

fn git_head(repo: &Repo) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(repo.path())
        .args(["rev-parse", "HEAD"])
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn a_shallow_clone_reports_its_frames_as_not_in_this_clone() {
    let repo = build("adr-0031");
    let clone = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--depth", "1"])
        .arg(format!("file://{}", repo.path().display()))
        .arg(clone.path())
        .status()
        .expect("git clone runs");
    assert!(status.success());
    let mut cmd = assert_cmd::Command::cargo_bin("recount").expect("binary");
    let output = cmd
        .current_dir(clone.path())
        .env("NO_COLOR", "1")
        .env("RECOUNT_CACHE_DIR", "")
        .args(["check", "--format", "json"])
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_str(&out).expect("JSON report");
    let unresolved: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "frame-unresolved")
        .collect();
    assert!(!unresolved.is_empty(), "{report:#}");
    for f in &unresolved {
        let message = f["message"].as_str().unwrap_or_default();
        assert!(message.contains("not in this clone"), "{message}");
        assert!(message.contains("fetch-depth: 0"), "{message}");
    }
    // The facts at the audited snapshot are still computed.
    assert!(
        report["facts"]
            .as_array()
            .expect("facts")
            .iter()
            .any(|f| f["value"].is_string()),
        "{report:#}"
    );
}

/// The `frames` fixture at HEAD: a record and a rule framed at a commit of a
/// deleted branch, a record measured by date, a fact whose file was removed.
#[test]
fn the_frames_fixture_reports_each_frame_and_audits_the_rest() {
    let repo = build("frames");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let seen: Vec<(String, String, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap_or_default().to_owned(),
                f["location"]["path"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                f["location"]["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let expected: Vec<(String, String, u64)> = [
        ("stale-path-cite", "docs/queue.md", 3),
        // One commit wrote both bullets' gone commits: it stands in for
        // neither, and their dates are not taken instead.
        ("frame-unresolved", "docs/queue.md", 25),
        ("frame-unresolved", "docs/queue.md", 26),
        ("input-missing", "recount.toml", 15),
    ]
    .iter()
    .map(|(c, p, l)| ((*c).to_owned(), (*p).to_owned(), *l))
    .collect();
    assert_eq!(seen, expected, "{report:#}");
    // The squash-merged commit is gone: the squash, which wrote its name into
    // the record and the rule file, stands in for it (the branch's limit);
    // the date frames resolve to day one.
    assert_eq!(fact(&report, "experiment-items")["value"], "200");
    assert_eq!(
        fact(&report, "experiment-items")["commit"].as_str(),
        Some(repo.oid("30").as_str())
    );
    assert_eq!(fact(&report, "day-one-items")["value"], "100");
    assert_eq!(fact(&report, "day-one-items")["claims"]["ok"], 1);
    assert_eq!(fact(&report, "max-items")["value"], "200");
    assert!(
        fact(&report, "queue-functions")["unverified"]
            .as_str()
            .unwrap_or_default()
            .contains("src/queue.py")
    );
    let notes = report["notes"].to_string();
    let squash = &repo.oid("30")[..12];
    for (file, what) in [("docs/queue.md", "passage"), ("recount.toml", "`at`")] {
        assert!(
            notes.contains(&format!(
                "{file}: `a8f2c75b` is not in this repository (unknown object: a squash-merged \
                 or rebased branch's commit); measured here at {squash}, the commit that wrote \
                 this {what} into {file}"
            )),
            "{notes}"
        );
    }
    let shared: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "frame-unresolved")
        .filter_map(|f| f["message"].as_str())
        .collect();
    let amendment = &repo.oid("32")[..12];
    assert!(
        shared.iter().all(|m| m.contains(&format!(
            "{amendment}, the commit that wrote it here, also wrote"
        ))),
        "{shared:#?}"
    );
}

#[test]
fn a_shallow_clone_of_the_frames_fixture_says_why_each_frame_is_missing() {
    let repo = build("frames");
    let clone = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--depth", "1"])
        .arg(format!("file://{}", repo.path().display()))
        .arg(clone.path())
        .status()
        .expect("git clone runs");
    assert!(status.success());
    let mut cmd = assert_cmd::Command::cargo_bin("recount").expect("binary");
    let output = cmd
        .current_dir(clone.path())
        .env("NO_COLOR", "1")
        .env("RECOUNT_CACHE_DIR", "")
        .args(["check", "--format", "json"])
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{out}");
    let report: Value = serde_json::from_str(&out).expect("JSON report");
    let messages: Vec<String> = ours(&report)
        .iter()
        .filter(|f| f["check"] == "frame-unresolved")
        .map(|f| f["message"].as_str().unwrap_or_default().to_owned())
        .collect();
    // The sha (twice: record and rule) and the day (record alone, record with a
    // sha, rule) are all beyond the one commit a depth-1 clone holds.
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`a8f2c75b`") && m.contains("not in this clone")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`2026-09-01`") && m.contains("shallow clone")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().all(|m| m.contains("fetch-depth: 0")),
        "{messages:#?}"
    );
    assert!(fact(&report, "day-one-items").get("value").is_none());
    assert_eq!(fact(&report, "max-items")["value"], "200");
}

#[test]
fn a_report_with_unverified_facts_validates_against_its_schema() {
    let set = recount::validation::SchemaSet::from_files([(
        "report.schema.json",
        recount::report::json::REPORT_SCHEMA,
    )])
    .expect("the report schema loads");
    let repo = build("frames");
    let (_, report) = json_report(&repo, &[]);
    assert!(fact(&report, "queue-functions")["unverified"].is_string());
    let bytes = serde_json::to_vec(&report).expect("serialises");
    let verdict = recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
    assert!(verdict.is_accepted(), "{verdict:?}");
    // A fact with neither a value nor a reason is refused.
    let mut broken = report.clone();
    let facts = broken["facts"].as_array_mut().expect("facts");
    let gone = facts
        .iter_mut()
        .find(|f| f["id"] == "queue-functions")
        .expect("fact");
    gone.as_object_mut().expect("object").remove("unverified");
    let bytes = serde_json::to_vec(&broken).expect("serialises");
    let verdict = recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
    assert!(!verdict.is_accepted());
}

#[test]
fn a_marker_quoted_in_a_code_block_frames_nothing() {
    let repo = build("gate");
    let record = repo.read("docs/queue.md");
    repo.write(
        "docs/queue.md",
        &format!(
            "{record}\n## What recount printed\n\n```text\nMeasured at `deadbeef`: quoted output.\n```\n\n    \
             Measured at `cafebabe`, indented as code.\n"
        ),
    );
    let (_, report) = json_report(&repo, &[]);
    let frames: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "frame-unresolved")
        .collect();
    // Only the record's own prose marker (the branch experiment) is a frame.
    assert!(
        frames.iter().all(
            |f| !f["message"].as_str().unwrap_or("").contains("deadbeef")
                && !f["message"].as_str().unwrap_or("").contains("cafebabe")
        ),
        "{report:#}"
    );
}

/// A record's day that no commit reaches is reported only when something is
/// measured under it: "as of 2020-01-01, …" over prose and a path anchors
/// nothing, while the same day over a line cite leaves that cite unverified.
#[test]
fn a_day_no_commit_reaches_is_a_finding_only_over_what_it_measures() {
    let repo = build("frames");
    repo.write(
        "docs/dated.md",
        "# Dated\n\nAs of 2020-01-01, `src/limits.py` set the queue's limit.\n",
    );
    let (_, report) = json_report(&repo, &[]);
    let dated = |report: &Value| -> Vec<String> {
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["location"]["path"] == "docs/dated.md")
            .map(|f| f["check"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(dated(&report), Vec::<String>::new(), "{report:#}");
    repo.write(
        "docs/dated.md",
        "# Dated\n\nAs of 2020-01-01, `src/limits.py:1` set the queue's limit.\n",
    );
    let (_, report) = json_report(&repo, &[]);
    assert_eq!(dated(&report), ["frame-unresolved"], "{report:#}");
    let message = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["location"]["path"] == "docs/dated.md")
        .and_then(|f| f["message"].as_str())
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.contains("unverified: 1 line cite under it"),
        "{message}"
    );
}

#[test]
fn a_transcript_under_a_gone_frame_is_re_run_at_its_stand_in_as_the_citations_are() {
    // The experiment's section is measured at `a8f2c75b`, gone; the squash
    // (30) that wrote it stands in, for a transcript as for a line cite.
    let repo = build("frames");
    let record = repo.read("docs/queue.md").replace(
        "was squash-merged into this commit and deleted.\n",
        "was squash-merged into this commit and deleted.\n\n```console\n$ grep -c MAX_ITEMS src/limits.py\n1\n```\n",
    );
    repo.write("docs/queue.md", &record);
    let output = repo
        .recount(&["transcripts", "--format", "json"])
        .output()
        .expect("runs");
    let list: Value = serde_json::from_str(&crate::support::stdout(&output)).expect("json");
    let shown = list
        .as_array()
        .expect("a list")
        .iter()
        .find(|t| t["command"] == "grep -c MAX_ITEMS src/limits.py")
        .unwrap_or_else(|| panic!("{list:#}"));
    assert_eq!(
        shown["frame"].as_str(),
        Some(&repo.oid("30")[..8]),
        "{shown:#}"
    );
    assert_eq!(shown["status"], "agrees", "{shown:#}");
}
