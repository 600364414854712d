//! A checkout means its commit: `recount check` in a clean working tree gives
//! the findings of `recount check --rev HEAD` byte for byte, and uncommitted
//! work is the only thing that can tell the two apart.

use crate::support::{build, fixtures, json_report, stdout};

/// Every fixture, built and left clean: the working tree's run and the
/// commit's are the same bytes, and `--since HEAD` finds nothing.
#[test]
fn every_clean_fixture_checkout_reports_what_its_commit_reports() {
    let mut cases: Vec<String> = std::fs::read_dir(fixtures())
        .expect("fixtures folder")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("commits").is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() > 20, "the fixtures are found: {cases:?}");
    for case in cases {
        let repo = build(&case);
        let checkout = repo
            .recount(&["check", "--format", "json"])
            .output()
            .expect("runs");
        let commit = repo
            .recount(&["check", "--rev", "HEAD", "--format", "json"])
            .output()
            .expect("runs");
        assert_eq!(checkout.status.code(), commit.status.code(), "{case}");
        assert_eq!(stdout(&checkout), stdout(&commit), "{case}");
        let since = repo
            .recount(&["check", "--since", "HEAD"])
            .output()
            .expect("runs");
        assert_eq!(since.status.code(), Some(0), "{case}: {}", stdout(&since));
    }
}

/// A page that moved away from the pages it links, in a tree with work not
/// committed yet: its links are stale because the page moved, and nothing
/// says the pages they name were removed in the working tree (they are there).
#[test]
fn a_page_moved_away_from_its_targets_blames_no_uncommitted_work() {
    let repo = build("moved-page");
    let (code, clean) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    repo.write("notes.txt", "work not committed yet\n");
    let (code, dirty) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let messages = |report: &serde_json::Value| -> Vec<String> {
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| f["message"].as_str().expect("message").to_owned())
            .collect()
    };
    let head = &repo.oid("02")[..8];
    let (clean, dirty) = (messages(&clean), messages(&dirty));
    assert_eq!(clean.len(), 2, "{clean:?}");
    for (at_commit, at_tree) in clean.iter().zip(&dirty) {
        assert!(
            at_commit.contains("from a folder above the page"),
            "{at_commit}"
        );
        assert!(
            !at_tree.contains("removed in the working tree"),
            "{at_tree}"
        );
        assert_eq!(
            at_commit.replace(&format!("at {head}"), "at working tree"),
            *at_tree
        );
    }
}
