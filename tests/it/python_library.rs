//! A first rule file for a Python library (`fixtures/python-library`): string
//! and version facts read from `pyproject.toml`, claims made once among
//! several records, a scale word before a unit, and `bisect` on a claim whose
//! input a commit first made readable. True at 02; 03 drifts it.

use serde_json::Value;

use crate::support::{build, findings, json_report, stdout};

#[test]
fn strings_and_versions_are_compared_as_written_and_as_versions() {
    let repo = build("python-library");
    // At the release: every claim holds, though each is made in one record
    // of the several `records` names.
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("02")]);
    assert_eq!(code, 0, "{report:#}");
    let values: Vec<(String, String)> = report["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .map(|f| {
            (
                f["id"].as_str().unwrap_or_default().to_owned(),
                f["value"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert!(values.contains(&("python-floor".to_owned(), "\">=3.10\"".to_owned())));
    assert!(values.contains(&("palette".to_owned(), "16,777,216".to_owned())));

    // After the floor moved and the version changed: each drift is told in
    // the record's own form.
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let seen: Vec<(String, u64, String, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["location"]["path"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                f["location"]["line"].as_u64().unwrap_or_default(),
                f["stated"].as_str().unwrap_or_default().to_owned(),
                f["observed"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let at = |path: &str, line: u64, stated: &str, observed: &str| {
        (
            path.to_owned(),
            line,
            stated.to_owned(),
            observed.to_owned(),
        )
    };
    assert_eq!(
        seen,
        [
            at("README.md", 3, "3.10+", "3.11+"),
            at("docs/install.md", 3, "2.4.1", "2.5.0"),
            at("docs/install.md", 4, "3.10 or later", "3.11 or later"),
        ],
        "{report:#}"
    );
    assert!(
        findings(&report)
            .iter()
            .all(|f| f.0 == "fact-drift" && !f.4.contains("length"))
    );
}

#[test]
fn a_unit_after_a_scale_word_is_named_when_recount_does_not_know_it() {
    let repo = build("python-library");
    repo.write(
        "colours.toml",
        "[recount]\nrecords = [\"README.md\"]\n\n[constants]\nPALETTE_SIZE = { file = \"src/tinct/__init__.py\" }\n\n\
         [[fact]]\nid = \"palette\"\nconstant = \"PALETTE_SIZE\"\nclaims = [{ says = 'palette of (?<value>[\\d.]+ million colours)' }]\n",
    );
    let (code, report) = json_report(&repo, &["--rules", "colours.toml"]);
    assert_eq!(code, 1);
    let all = findings(&report);
    assert_eq!(all.len(), 1, "{report:#}");
    assert!(
        all[0].4.contains("unknown unit `colours`"),
        "the scale word is read, the unit named: {}",
        all[0].4
    );
}

#[test]
fn bisect_says_when_the_culprit_only_made_the_input_readable() {
    let repo = build("python-library");
    repo.write(
        "deps.toml",
        "[recount]\nrecords = [\"README.md\"]\n\n[[fact]]\nid = \"dependencies\"\njson = \"pyproject.toml\"\n\
         pointer = \"/project/dependencies\"\nclaims = [{ says = 'depends on (?<value>\\w+) packages' }]\n",
    );
    let bisect = |rules: &str, claim: &str| -> (Option<i32>, Value) {
        let output = repo
            .recount(&[
                "bisect", "--rules", rules, "--claim", claim, "--format", "json",
            ])
            .output()
            .expect("runs");
        let found = serde_json::from_str(&stdout(&output)).expect("JSON");
        (output.status.code(), found)
    };
    let (_, found) = bisect("deps.toml", "dependencies#1");
    assert_eq!(found["outcome"], "culprit", "{found:#}");
    assert_eq!(found["commit"]["id"], repo.oid("02"));
    let why = found["readable_since"].as_str().unwrap_or_default();
    assert!(why.contains("pyproject.toml"), "{found:#}");
    let human = repo
        .recount(&[
            "bisect",
            "--rules",
            "deps.toml",
            "--claim",
            "dependencies#1",
        ])
        .output()
        .expect("runs");
    assert!(stdout(&human).contains("made the claim's input readable"));

    // A claim unverified at the newest commit is neither drifted nor holding.
    repo.write(
        "gone.toml",
        "[recount]\nrecords = [\"README.md\"]\n\n[[fact]]\nid = \"floor\"\njson = \"setup.json\"\n\
         pointer = \"/python\"\nclaims = [{ says = 'Requires Python (?<value>[\\d.]+\\+)' }]\n",
    );
    let output = repo
        .recount(&[
            "bisect",
            "--rules",
            "gone.toml",
            "--claim",
            "floor#1",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let found: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    assert_eq!(found["outcome"], "unverified", "{found:#}");
    assert_eq!(output.status.code(), Some(1));
}
