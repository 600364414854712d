//! The history evidence of citations: a line cite is held to what its lines held
//! when the record cited them (`fixtures/line-evidence`: a reader whose file gains
//! a licence header and a longer `Close` in commit 02, and a record citing it,
//! renamed in commit 04: the cites still date from 01).

use serde_json::Value;

use crate::support::{Repo, build, stderr};

/// `(record line, status, why)` of every line cite `recount cites` lists.
fn line_cites(repo: &Repo, extra: &[&str]) -> Vec<(u64, String, String)> {
    let mut args = vec!["cites", "--format", "json"];
    args.extend_from_slice(extra);
    let output = repo.recount(&args).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    listed["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .filter(|c| c["kind"] == "line")
        .map(|c| {
            let line = c["at"]
                .as_str()
                .and_then(|at| at.split(':').nth(1))
                .and_then(|l| l.parse().ok())
                .unwrap_or(0);
            (
                line,
                c["status"]["status"].as_str().unwrap_or("").to_owned(),
                c["status"]["why"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn line_cites_are_held_to_what_their_lines_held_when_written() {
    let repo = build("line-evidence");
    let moved_in = &repo.oid("02")[..8];
    let written_at = &repo.oid("01")[..8];
    let cites = line_cites(&repo, &[]);
    let expected = vec![
        (
            3,
            "stale".to_owned(),
            format!(
                "what src/reader.go held at line 4 when the record cited it (at {written_at}) is now at line 7: moved in {moved_in}"
            ),
        ),
        (
            4,
            "stale".to_owned(),
            format!(
                "what src/reader.go held at lines 9-11 when the record cited it (at {written_at}) is now at lines 12-14: moved in {moved_in}"
            ),
        ),
        (
            4,
            "stale".to_owned(),
            format!(
                "what src/reader.go held at line 14 when the record cited it (at {written_at}) was changed in {moved_in}"
            ),
        ),
        // Unchanged since it was cited: quiet.
        (6, "ok".to_owned(), String::new()),
        // Cited after the header went in, at its new number: quiet.
        (8, "ok".to_owned(), String::new()),
    ];
    assert_eq!(cites, expected);
    // At the commit that wrote the record every cite held.
    let at_01 = line_cites(&repo, &["--rev", &repo.oid("01")]);
    assert!(
        at_01.iter().all(|(_, status, _)| status == "ok"),
        "{at_01:?}"
    );
}

#[test]
fn a_moved_line_cite_is_a_finding_with_its_new_number_as_the_suggestion() {
    let repo = build("line-evidence");
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let found: Vec<(String, u64, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap_or("").to_owned(),
                f["location"]["line"].as_u64().unwrap_or(0),
                f["observed"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "stale-line-cite".to_owned(),
                3,
                "src/reader.go:7".to_owned()
            ),
            (
                "stale-line-cite".to_owned(),
                4,
                "src/reader.go:12-14".to_owned()
            ),
            ("stale-line-cite".to_owned(), 4, String::new()),
        ]
    );
}

#[test]
fn a_line_cite_not_yet_committed_is_judged_by_the_tree_alone() {
    let repo = build("line-evidence");
    let text = repo.read("docs/reader-design.md");
    repo.write(
        "docs/reader-design.md",
        &format!("{text}\nAn uncommitted note cites `src/reader.go:12`.\n"),
    );
    let cites = line_cites(&repo, &[]);
    assert_eq!(cites.last(), Some(&(10, "ok".to_owned(), String::new())));
}
