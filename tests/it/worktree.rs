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

/// `recount check PATH…` judges the records at or under the paths it names,
/// each taken from the current directory: a file names itself, a folder
/// what lies below it; a path the tree lacks, or one outside the
/// repository, stops the run (a typo must not pass as a clean run).
#[test]
fn named_paths_scope_the_run_to_their_records() {
    let repo = build("history-shapes");
    let paths = |extra: &[&str]| -> Vec<String> {
        let (_, report) = json_report(&repo, extra);
        let mut seen: Vec<String> = crate::support::finding_fields(&report, &["/location/path"])
            .into_iter()
            .map(|mut f| f.remove(0))
            .collect();
        seen.dedup();
        seen
    };
    let all = paths(&[]);
    assert!(all.len() > 4, "{all:?}");
    assert_eq!(
        paths(&["BUILD.md", "docs/"]),
        ["BUILD.md", "docs/de/intro.md", "docs/loaders.md"]
    );
    assert_eq!(paths(&["./guide/../docs/de"]), ["docs/de/intro.md"]);
    // The root is the whole repository.
    assert_eq!(paths(&["."]), all);
    // From a folder below the root, paths are that folder's.
    let below = repo
        .recount(&["check", "--format", "json", "intro.md"])
        .current_dir(repo.path().join("docs/de"))
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_str(&stdout(&below)).expect("JSON");
    assert_eq!(
        crate::support::finding_fields(&report, &["/location/path"]),
        [["docs/de/intro.md"]]
    );
    for (wrong, says) in [
        ("doc", "is not a file or folder"),
        ("../elsewhere", "outside the repository"),
    ] {
        let output = repo.recount(&["check", wrong]).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{wrong}");
        assert!(
            crate::support::stderr(&output).contains(says),
            "{wrong}: {}",
            crate::support::stderr(&output)
        );
    }
    // A commit's tree is asked as well: `--rev` reads the paths there.
    let (code, report) = json_report(&repo, &["--rev", "HEAD", "TEST.md"]);
    assert_eq!(code, 1);
    assert_eq!(
        crate::support::finding_fields(&report, &["/location/path"]),
        [["TEST.md"]]
    );
}
