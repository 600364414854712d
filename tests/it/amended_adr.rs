//! A decision record read as its author wrote it (`fixtures/amended-adr`): a
//! header frame whose sha is gone, an amendment heading with a date of its own,
//! frames in every phrasing scoped to their item, paragraph or section, a grep
//! key naming a revision that is gone, and bounds pinned across two entries.
//! True at commit 26; commit 50 drifts it.

use serde_json::Value;

use crate::support::{Repo, build, findings, json_report, stdout};

const ADR: &str = "docs/adr/0007-body-cap.md";

fn listing(repo: &Repo, command: &str, rev: &str, key: &str) -> Vec<Value> {
    let output = repo
        .recount(&[command, "--format", "json", "--rev", rev])
        .output()
        .expect("runs");
    let document: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    let list = match key {
        "" => document,
        key => document[key].clone(),
    };
    list.as_array().expect("a list").clone()
}

/// `(line, frame, frame_from)` of each item of `list` in the record.
fn frames_of(list: &[Value]) -> Vec<(u64, String, String)> {
    list.iter()
        .filter_map(|item| {
            let at = item["at"].as_str()?;
            let line = at.strip_prefix(&format!("{ADR}:"))?.split(':').next()?;
            Some((
                line.parse().ok()?,
                item["frame"].as_str().unwrap_or("-").to_owned(),
                item["frame_from"].as_str().unwrap_or("-").to_owned(),
            ))
        })
        .collect()
}

#[test]
fn the_amended_record_is_clean_where_it_is_true() {
    let repo = build("amended-adr");
    let landed = repo.oid("26");
    let (code, report) = json_report(&repo, &["--rev", &landed]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(findings(&report), Vec::new());
    // The header's sha is gone: the commit that wrote it into the record
    // stands in for it, with a note.
    let notes: Vec<&str> = report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let record_day = repo.oid("03");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("`151f400e` is not in this repository")
                && n.contains(&format!(
                    "measured here at {}, the commit that wrote this passage",
                    &record_day[..12]
                ))),
        "{notes:#?}"
    );
}

#[test]
fn each_line_cite_is_read_at_the_frame_that_governs_it_and_the_rest_at_the_tree() {
    let repo = build("amended-adr");
    let landed = repo.oid("26");
    let day_one = &repo.oid("03")[..8];
    let branch = &repo.oid("25")[..8];
    let first = &repo.oid("01")[..8];
    let cites = listing(&repo, "cites", &landed, "citations");
    let tree = "working tree".to_owned();
    let frames: Vec<(u64, String, String)> = frames_of(&cites)
        .into_iter()
        .map(|(line, frame, from)| {
            // `--rev` audits the commit: its label is its short id.
            let frame = if frame == landed[..8] {
                tree.clone()
            } else {
                frame
            };
            (line, frame, from)
        })
        .collect();
    let at = |line: u64, frame: &str, from: &str| (line, frame.to_owned(), from.to_owned());
    assert_eq!(
        frames,
        [
            // Under the header, whose sha is gone: its day, 2026-09-01.
            at(13, day_one, "section marker at line 6"),
            at(14, day_one, "section marker at line 6"),
            // Test cites name what a reader opens today, whatever the frame.
            at(18, "working tree", "-"),
            at(31, "working tree", "-"),
            // The amendment's list of anchors: each item its own frame.
            at(40, branch, "paragraph marker at line 39"),
            at(42, first, "paragraph marker at line 41"),
            at(45, "working tree", "-"),
            // The addendum's "Measured DATE at SHA:" governs its section.
            at(56, branch, "section marker at line 54"),
        ]
    );
    assert!(
        cites.iter().all(|c| c["status"]["status"] == "ok"),
        "{cites:#?}"
    );
}

#[test]
fn transcripts_take_their_parenthesis_or_passage_frame_and_a_gone_revision_is_unverified() {
    let repo = build("amended-adr");
    let landed = repo.oid("26");
    let day_one = &repo.oid("03")[..8];
    let branch = &repo.oid("25")[..8];
    let list = listing(&repo, "transcripts", &landed, "");
    let seen: Vec<(u64, String, String, String)> = frames_of(&list)
        .into_iter()
        .zip(list.iter().filter(|t| {
            t["at"]
                .as_str()
                .is_some_and(|a| a.starts_with(&format!("{ADR}:")))
        }))
        .map(|((line, frame, from), t)| {
            (
                line,
                frame,
                from,
                t["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let at = |line: u64, frame: &str, from: &str, status: &str| {
        (line, frame.to_owned(), from.to_owned(), status.to_owned())
    };
    assert_eq!(
        seen,
        [
            // Both keys of the parenthesis that closes with a day, though it
            // wraps across two lines.
            at(16, day_one, "the date closing its parenthesis", "agrees"),
            at(17, day_one, "the date closing its parenthesis", "agrees"),
            // `git grep … 151f400e` without `--`: a revision this clone lacks,
            // not a path that prints nothing.
            at(26, "-", "-", "unverified"),
            // "as of SHA" inside a clause: its paragraph.
            at(50, branch, "paragraph marker at line 48", "agrees"),
            at(55, branch, "section marker at line 54", "agrees"),
        ]
    );
}

#[test]
fn the_commit_that_drifts_the_record_gives_exactly_its_findings() {
    let repo = build("amended-adr");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let seen: Vec<(String, String, u64)> = findings(&report)
        .into_iter()
        .map(|(check, path, line, _, _)| (check, path, line))
        .collect();
    let at = |check: &str, path: &str, line: u64| (check.to_owned(), path.to_owned(), line);
    assert_eq!(
        seen,
        [
            // The README's count is unframed: a sixth tool drifts it. The
            // amendment's own count is framed at the branch and still agrees.
            at("transcript-drift", "README.md", 5),
            at("retired-claim", "README.md", 7),
            // Derived from the live constants, so checked at the tree.
            at("fact-drift", ADR, 44),
            at("stale-test-cite", ADR, 45),
        ],
        "{report:#}"
    );
    let messages: Vec<String> = findings(&report).into_iter().map(|f| f.4).collect();
    assert!(messages[3].contains("renamed to `test_the_body_cap_follows_the_spool_cap`"));
}
