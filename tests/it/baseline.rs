//! Baselines and fingerprints: `--write-baseline` records the findings of a run
//! as known debt, `--baseline` fails only on findings that are not in it, lists
//! the entries that no longer occur, and a finding keeps its fingerprint when
//! the lines above it change. The doc-links fixture's last commit has six
//! citation findings to start from.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use tempfile::TempDir;

use crate::support::{
    Repo, accepted_by_the_report_schema, build, findings, json_report, stderr, stdout,
};

/// A fixture (doc-links unless said), and a folder outside it for the baseline
/// file (the audited repository is not written to).
fn fixture() -> (Repo, TempDir, PathBuf) {
    fixture_of("doc-links")
}

fn fixture_of(case: &str) -> (Repo, TempDir, PathBuf) {
    let repo = build(case);
    let outside = tempfile::tempdir().expect("temp dir");
    let file = outside.path().join("baseline.json");
    (repo, outside, file)
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

/// `check --write-baseline FILE`: the exit code and stderr.
fn write_baseline(repo: &Repo, file: &Path) -> (i32, String) {
    let output = check(repo, &["--write-baseline", arg(file)]);
    (output.status.code().expect("exit code"), stderr(&output))
}

/// `check ARGS` in the repository, run to its end.
fn check(repo: &Repo, args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    repo.recount(&all).output().expect("runs")
}

/// `(check, path, stated)` of each item of a list of findings or of baseline
/// entries; `path` is the JSON pointer to the item's path.
fn described(items: &Value, path: &str) -> Vec<(String, String, String)> {
    items
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| {
            let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
            (
                text(item.get("check")),
                text(item.pointer(path)),
                text(item.get("stated")),
            )
        })
        .collect()
}

/// The stale entries of a JSON report's baseline.
fn stale(report: &Value) -> Vec<(String, String, String)> {
    described(&report["baseline"]["stale"], "/path")
}

fn triple(check: &str, path: &str, stated: &str) -> (String, String, String) {
    (check.to_owned(), path.to_owned(), stated.to_owned())
}

#[test]
fn a_baseline_passes_known_debt_and_fails_only_on_new_findings() {
    let (repo, _outside, file) = fixture();
    let before = repo.contents();
    let (code, err) = write_baseline(&repo, &file);
    assert_eq!(
        code, 0,
        "writing a baseline records debt, it does not gate: {err}"
    );
    assert!(err.contains("wrote 8 findings to the baseline"), "{err}");
    assert_eq!(
        repo.contents(),
        before,
        "the audited repository is not written to"
    );

    // Every finding is known: a clean run, the debt counted.
    let (code, report) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(findings(&report), []);
    assert_eq!(report["baseline"]["known"], 8);
    assert_eq!(stale(&report), []);
    assert!(accepted_by_the_report_schema(&report), "{report:#}");
    let output = check(&repo, &["--baseline", arg(&file)]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.starts_with("clean:") && text.contains("; 8 known findings in the baseline"),
        "{text}"
    );

    // Ten lines inserted above every finding of the guide: nothing is new.
    let guide = repo.read("docs/guide.md");
    let (title, rest) = guide.split_once('\n').expect("a title line");
    repo.write(
        "docs/guide.md",
        &format!("{title}\n{}{rest}", "Inserted above.\n\n".repeat(5)),
    );
    let (code, report) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!((code, findings(&report)), (0, vec![]), "{report:#}");
    assert_eq!(report["baseline"]["known"], 8);

    // An old drift fixed: its entry is stale, listed, and does not fail the run.
    let fixed = repo
        .read("docs/guide.md")
        .replace(" (see `legacy/handlers/old.py`)", "");
    repo.write("docs/guide.md", &fixed);
    let output = check(&repo, &["--format", "json", "--baseline", arg(&file)]);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(report["baseline"]["known"], 7);
    assert_eq!(
        stale(&report),
        [triple(
            "stale-path-cite",
            "docs/guide.md",
            "legacy/handlers/old.py"
        )]
    );
    assert!(accepted_by_the_report_schema(&report), "{report:#}");
    let err = stderr(&output);
    assert!(
        err.contains("1 baseline entry no longer occurs: remove it (debt only shrinks"),
        "{err}"
    );

    // A new drift: the run fails, on it alone.
    repo.write("docs/new.md", "# New\n\nSee [x](missing.md).\n");
    let (code, report) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        described(&report["findings"], "/location/path"),
        [triple("stale-path-cite", "docs/new.md", "missing.md")]
    );

    // Rewritten, the baseline holds the six old findings and the new one.
    let (code, _) = write_baseline(&repo, &file);
    assert_eq!(code, 0);
    let (code, report) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!((code, &report["baseline"]["known"]), (0, &Value::from(8)));
    assert_eq!(stale(&report), []);
}

#[test]
fn the_same_findings_write_the_same_file() {
    let (repo, outside, file) = fixture();
    let again = outside.path().join("again.json");
    assert_eq!(write_baseline(&repo, &file).0, 0);
    assert_eq!(write_baseline(&repo, &again).0, 0);
    let first = std::fs::read(&file).expect("written");
    assert_eq!(first, std::fs::read(&again).expect("written"));
    let baseline: Value = serde_json::from_slice(&first).expect("JSON");
    assert_eq!(baseline["recount_baseline"], 1);
    let entries = baseline["findings"].as_array().expect("findings");
    assert_eq!(entries.len(), 8);
    for entry in entries {
        let mut keys: Vec<&str> = entry
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, ["check", "fingerprint", "path", "stated"]);
    }
    // Sorted by path, then check: the file reads as the report does.
    let order: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap_or_default(),
                e["check"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
}

#[test]
fn a_malformed_baseline_is_an_error_at_its_place() {
    let (repo, _outside, file) = fixture();
    for (text, message, line) in [
        (
            "{\n  \"recount_baseline\": 1,\n  \"findings\": [,]\n}\n",
            "expected value",
            3,
        ),
        (
            "{\n  \"recount_baseline\": 2,\n  \"findings\": []\n}\n",
            "version 2",
            2,
        ),
        (
            "{\n  \"recount_baseline\": 1\n}\n",
            "missing field `findings`",
            3,
        ),
        (
            "{\"recount_baseline\": 1,\n\"findings\": [{\"fingerprint\": \"nope\", \"check\": \"c\", \"path\": \"p\", \"stated\": \"s\"}]}\n",
            "16 lowercase hex digits",
            2,
        ),
    ] {
        std::fs::write(&file, text).expect("write");
        let output = check(&repo, &["--baseline", arg(&file)]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{text:?}: {err}");
        // miette wraps the message at 100 columns: read it as one line.
        let flat = err
            .replace('│', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(flat.contains(message), "{text:?}: {err}");
        assert!(
            err.contains(&format!("baseline.json:{line}:")),
            "{text:?} is located: {err}"
        );
        // A machine-read format says why on stdout, at the same place.
        let (code, report) = json_report(&repo, &["--baseline", arg(&file)]);
        assert_eq!(code, 2);
        assert_eq!(report["error"]["code"], "recount::input", "{report:#}");
        assert_eq!(report["error"]["line"], line, "{report:#}");
        assert!(report["error"]["column"].as_u64().is_some(), "{report:#}");
        assert!(accepted_by_the_report_schema(&report), "{report:#}");
    }
}

#[test]
fn a_missing_baseline_is_an_error_not_an_empty_one() {
    let (repo, _outside, file) = fixture();
    let output = check(&repo, &["--baseline", arg(&file)]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("no baseline file"), "{err}");
    assert!(err.contains("--write-baseline"), "{err}");
}

#[test]
fn sarif_carries_the_json_fingerprints() {
    let (repo, _outside, _file) = fixture();
    let (_, report) = json_report(&repo, &[]);
    let from_json: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["fingerprint"].as_str().expect("every finding has one"))
        .collect();
    assert_eq!(from_json.len(), 8);
    assert!(accepted_by_the_report_schema(&report), "{report:#}");
    let output = check(&repo, &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&stdout(&output)).expect("SARIF is JSON");
    let from_sarif: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            r["partialFingerprints"]["recount/v1"]
                .as_str()
                .expect("every result has one")
        })
        .collect();
    assert_eq!(from_sarif, from_json);
}

#[test]
fn a_baseline_and_a_new_one_cannot_be_asked_for_at_once() {
    let (repo, _outside, file) = fixture();
    let both = ["--baseline", arg(&file), "--write-baseline", arg(&file)];
    let output = check(&repo, &both);
    assert_eq!(output.status.code(), Some(2));
    assert!(!file.exists());
}

#[test]
fn a_fact_drift_keeps_its_fingerprint_above_an_edit_and_loses_it_when_fixed() {
    let (repo, _outside, file) = fixture_of("adr-0031");
    assert_eq!(write_baseline(&repo, &file).0, 0);
    let (_, report) = json_report(&repo, &[]);
    let adr = "docs/adr/0031-tool-input-validation.md";
    let drift = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["check"] == "fact-drift" && f["fact"] == "file-cap")
        .expect("the fixture's file-cap drift")
        .clone();
    assert_eq!(drift["location"]["path"], adr);

    // Ten lines under the title: every finding of the ADR moves, none is new.
    let text = repo.read(adr);
    let (title, rest) = text.split_once('\n').expect("a title line");
    let inserted = "Inserted above.\n\n".repeat(5);
    repo.write(adr, &format!("{title}\n{inserted}{rest}"));
    let (code, moved) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!((code, findings(&moved)), (0, vec![]), "{moved:#}");
    assert_eq!(
        moved["baseline"]["known"],
        report["findings"].as_array().map_or(0, Vec::len)
    );

    // The stated value corrected to the tree's: its entry is stale, not failing.
    let at = drift["location"]["offset"].as_u64().expect("offset") as usize + inserted.len();
    let end = at + drift["location"]["length"].as_u64().expect("length") as usize;
    let observed = drift["observed"].as_str().expect("observed");
    let text = repo.read(adr);
    repo.write(adr, &format!("{}{observed}{}", &text[..at], &text[end..]));
    let (code, fixed) = json_report(&repo, &["--baseline", arg(&file)]);
    assert_eq!(code, 0, "{fixed:#}");
    let stated = drift["stated"].as_str().expect("stated");
    assert_eq!(stale(&fixed), [triple("fact-drift", adr, stated)]);
}
