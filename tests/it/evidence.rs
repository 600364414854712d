//! The history evidence of citations: a line cite is held to what its lines held
//! when the record cited them (`fixtures/line-evidence`: a reader whose file gains
//! a licence header and a longer `Close` in commit 02 — its first line the cited
//! one, edited — a tenant check edited in place in 03, and a record citing them,
//! renamed in commit 04: the cites still date from 01).

use serde_json::Value;

use crate::support::{Repo, build, findings, json_report, stderr};

/// The citations of one kind `recount cites --format json ARGS` lists.
fn listed(repo: &Repo, extra: &[&str], kind: &str) -> Vec<Value> {
    let mut args = vec!["cites", "--format", "json"];
    args.extend_from_slice(extra);
    let output = repo.recount(&args).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let listed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    listed["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .filter(|c| c["kind"] == kind)
        .cloned()
        .collect()
}

/// `(record line, status, why)` of every line cite `recount cites` lists.
fn line_cites(repo: &Repo, extra: &[&str]) -> Vec<(u64, String, String)> {
    listed(repo, extra, "line")
        .iter()
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
                "what src/reader.go held at line 14 when the record cited it (at {written_at}) is now at line 17: moved in {moved_in}"
            ),
        ),
        // Edited in place since it was cited (commit 03 tightens the check on
        // the cited line itself): still the line it named, quiet.
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
            (
                "stale-line-cite".to_owned(),
                4,
                "../src/reader.go#L17".to_owned()
            ),
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

#[test]
fn cites_written_names_the_commit_that_wrote_each_cite_through_renames() {
    // The record is renamed in 04; its line cites date from 01 but the one
    // 03 added after the licence header.
    let repo = build("line-evidence");
    let lines = listed(&repo, &["--written"], "line");
    assert!(lines.len() > 2);
    for cite in &lines {
        let by = if cite["text"] == "src/reader.go:7" {
            "03"
        } else {
            "01"
        };
        assert_eq!(cite["written"]["commit"], repo.oid(by), "{cite:#?}");
        assert_eq!(cite["written"]["date"].as_str().map(str::len), Some(10));
    }
    assert!(
        listed(&repo, &[], "line")
            .iter()
            .all(|c| c.get("written").is_none())
    );
    // A cite not committed yet was written by no commit.
    let text = repo.read("docs/reader-design.md");
    repo.write(
        "docs/reader-design.md",
        &format!("{text}\nAn uncommitted note cites `src/reader.go:12`.\n"),
    );
    let lines = listed(&repo, &["--written"], "line");
    assert_eq!(lines.last().map(|c| &c["written"]), Some(&Value::Null));
    let human = repo
        .recount(&["cites", "--written"])
        .output()
        .expect("runs");
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(human.contains("not committed"), "{human}");
    assert!(human.contains(&repo.oid("01")[..8]), "{human}");

    // A guide added in 03, to a history that began before it.
    let repo = build("path-evidence");
    let guide: Vec<Value> = listed(&repo, &["--written"], "path")
        .into_iter()
        .filter(|c| c["record"] == "docs/hacking.md")
        .collect();
    assert!(!guide.is_empty());
    for cite in &guide {
        assert_eq!(cite["written"]["commit"], repo.oid("03"), "{cite:#?}");
    }
}

/// `(record and cite, status, exemption, why)` of every path cite `recount
/// cites` lists.
fn path_cites(repo: &Repo, extra: &[&str]) -> Vec<(String, String, String, String)> {
    listed(repo, extra, "path")
        .iter()
        .map(|c| {
            let field = |name: &str| c["status"][name].as_str().unwrap_or("").to_owned();
            (
                format!(
                    "{} {}",
                    c["record"].as_str().unwrap_or(""),
                    c["text"].as_str().unwrap_or("")
                ),
                field("status"),
                field("exemption"),
                field("why"),
            )
        })
        .collect()
}

#[test]
fn a_path_that_resolved_when_written_is_stale_whatever_its_sentence_says() {
    // `fixtures/path-evidence`: commit 02 turns `src/checkers/ast.rs` into a
    // module under a "you will want to" sentence, and deletes alpha's schema
    // while beta keeps a namesake.
    let repo = build("path-evidence");
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let at = |rev: &str| path_cites(&repo, &["--rev", &repo.oid(rev)]);
    let cites = at("02");
    let expected = vec![
        (
            "crates/alpha/README.md src/schema.rs".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "`crates/alpha/src/schema.rs` is gone at {broke} (only a namesake, `crates/beta/src/schema.rs`, is left); it resolved when the record cited it (at {written}) and was deleted in {broke}"
            ),
        ),
        // `./x` from a component's README, not under its folder: the root's.
        (
            "crates/alpha/README.md ./tools/gen-schema.sh".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `tools/gen-schema.sh` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `scripts/gen-schema.sh` in {broke} (the unknown-root exemption yields to that)"
            ),
        ),
        (
            "crates/beta/README.md src/schema.rs".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        (
            "docs/contributing.md src/checkers/ast.rs".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `src/checkers/ast.rs` at {broke}: the same module is `src/checkers/ast/mod.rs`, in the language's other file layout; it resolved when the record cited it (at {written}) and was renamed to `src/checkers/ast/mod.rs` in {broke}"
            ),
        ),
        // Mistyped from the start, one letter from a file beside it then: it
        // meant this tree, and says which file.
        (
            "docs/contributing.md src/checkers/astt.rs".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `src/checkers/astt.rs` at {broke}; it did not resolve when the record cited it either (at {written}): `src/checkers/ast.rs` mistyped?"
            ),
        ),
        // A file a plan proposes, never in the tree and like none of it: no
        // drift (the never-resolved exemption).
        (
            "docs/contributing.md src/checkers/dataflow.rs".to_owned(),
            "skipped".to_owned(),
            "never-resolved".to_owned(),
            format!(
                "it did not resolve when the record cited it either (at {written}): not made yet, or not this repository's"
            ),
        ),
        // A heading reworded in 02: what it became, and its anchor offered.
        (
            "docs/contributing.md rules.md#writing-a-rule".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "docs/rules.md has no heading or anchor `#writing-a-rule` at {broke}; it resolved when the record cited it (at {written}), and in {broke} the heading became \"Authoring a rule\""
            ),
        ),
        // A page with a template's text, whose own heading was reworded: the
        // unread-include exemption yields to its history.
        (
            "docs/contributing.md guide.md#setup".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "docs/guide.md has no heading or anchor `#setup` at {broke} (the unread-include exemption yields: the page's own headings had it); it resolved when the record cited it (at {written}), and in {broke} the heading became \"Installation\""
            ),
        ),
        // An anchor the page never had: it never worked.
        (
            "docs/contributing.md rules.md#testing-rules".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "docs/rules.md has no heading or anchor `#testing-rules` at {broke}; the page did not offer it when the record cited it either (at {written})"
            ),
        ),
        // A browser's text fragment searches the page: no anchor to hold.
        (
            "docs/contributing.md rules.md#:~:text=snapshot".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        // `docs/rules.md` is served at `docs/rules/`: its `../diagram.svg` is
        // `docs/diagram.svg`.
        (
            "docs/rules.md ../diagram.svg".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        // A snippet's link, followed from the page that includes it.
        (
            "docs/snippets/see-also.md rules.md".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        // The reader's own file, which the tree held a copy of and deleted:
        // a deletion is no proof the sentence meant this repository's.
        (
            "docs/serving.md site/public/headers.conf".to_owned(),
            "skipped".to_owned(),
            "reader-cue".to_owned(),
            "its sentence speaks of the reader's project (\"your \")".to_owned(),
        ),
        // The same sentence in a contributor's guide, whose reader works in
        // a clone of this repository: "your" tree is this one.
        (
            "docs/contributing.md site/public/headers.conf".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `site/public/headers.conf` at {broke}; it resolved when the record cited it (at {written}) and was deleted in {broke} (the reader-cue exemption yields to that)"
            ),
        ),
        // A folder drawn in a diagram rooted at another project's folder is
        // that project's: this tree's `tools/`, renamed, says nothing of it.
        (
            "docs/contributing.md tools/".to_owned(),
            "skipped".to_owned(),
            "tree-diagram".to_owned(),
            "the record draws it in an example layout (a file tree) just before".to_owned(),
        ),
        // Drawn in this tree's own layout (rooted at `.`): the rename holds.
        (
            "docs/contributing.md tools/".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no folder `tools` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `scripts` in {broke} (the tree-diagram exemption yields to that)"
            ),
        ),
        // A file the record had the reader create, named again: still theirs,
        // though one letter from `src/lib.rs`.
        (
            "docs/contributing.md src/libs.rs".to_owned(),
            "skipped".to_owned(),
            "reader-cue".to_owned(),
            "its sentence speaks of the reader's project (\"create a file\")".to_owned(),
        ),
        (
            "docs/contributing.md src/libs.rs".to_owned(),
            "skipped".to_owned(),
            "reader-cue".to_owned(),
            "line 47 of the record makes it the reader's file (\"create a file\")".to_owned(),
        ),
        // A bare name beside its record, the file renamed to a new
        // extension in its folder: the same file, stale.
        (
            "docs/contributing.md book.yml".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `docs/book.yml` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `docs/book.yaml` in {broke} (the bare-name exemption yields to that)"
            ),
        ),
        // The tree's one file of the name when written, at the root, renamed
        // to a new extension: stale. One of two files of the name then: no
        // question the history settles, and a namesake is left (ok).
        (
            "docs/contributing.md lint-order.yml".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `lint-order.yml` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `lint-order.yaml` in {broke} (the bare-name exemption yields to that)"
            ),
        ),
        (
            "docs/contributing.md settings.yml".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        // The file beside it renamed to a new extension, a namesake left
        // elsewhere: what the name finds today is not what it meant.
        (
            "crates/alpha/README.md defaults.toml".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "`crates/alpha/defaults.toml` is gone at {broke} (only a namesake, `crates/beta/defaults.toml`, is left); it resolved when the record cited it (at {written}) and was renamed to `crates/alpha/defaults.json` in {broke}"
            ),
        ),
        // A bare name whose file beside it was deleted: a name, still.
        (
            "docs/contributing.md notes.txt".to_owned(),
            "skipped".to_owned(),
            "bare-name".to_owned(),
            "no file of this repository is named `notes.txt` (a reader's file?)".to_owned(),
        ),
        // Turned into the template an install copies back to its name: it
        // holds. Renamed to another name: stale.
        (
            "docs/contributing.md config/server.env".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
        (
            "docs/contributing.md config/limits.env".to_owned(),
            "stale".to_owned(),
            String::new(),
            format!(
                "no file `config/limits.env` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `config/limits.conf` in {broke}"
            ),
        ),
        // The reader's own file, never in the tree: the exemption stands.
        (
            "docs/contributing.md src/plugin_options.rs".to_owned(),
            "skipped".to_owned(),
            "reader-cue".to_owned(),
            "its sentence speaks of the reader's project (\"your \")".to_owned(),
        ),
        // Read from the root when written, deleted there, and still the
        // layout of the book's own starter project: the namesake stands, as
        // no move took the root's file to it.
        (
            "docs/book/plugins.md plugin/hooks.toml".to_owned(),
            "ok".to_owned(),
            String::new(),
            String::new(),
        ),
    ];
    let mut expected = expected;
    expected.sort();
    let mut cites: Vec<_> = cites
        .into_iter()
        .map(|(c, s, e, w)| {
            (
                c,
                s,
                e,
                if w.starts_with("crates/") {
                    String::new()
                } else {
                    w
                },
            )
        })
        .map(|(c, s, e, w)| {
            if s == "ok" {
                (c, s, e, String::new())
            } else {
                (c, s, e, w)
            }
        })
        .collect();
    cites.sort();
    assert_eq!(cites, expected);
    // The reworded heading's new anchor is the suggestion.
    let (_, report) = json_report(&repo, &["--rev", &repo.oid("02")]);
    let observed: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["observed"].as_str())
        .collect();
    assert!(
        observed.contains(&"rules.md#authoring-a-rule"),
        "{observed:?}"
    );
    // At the commit that wrote them, the ones that broke resolve.
    let before = at("01");
    assert!(
        before
            .iter()
            .filter(|c| {
                c.0.ends_with("ast.rs") || c.0.contains("schema") || c.0.contains("writing-a-rule")
            })
            .all(|c| c.1 == "ok"),
        "{before:?}"
    );
}

#[test]
fn a_path_gone_before_the_record_cited_it_was_stale_when_written() {
    // Commit 03 adds a guide that names the visitor's file as it was before 02
    // made it a module, beside a file a plan proposes and the setup guide 03
    // deletes.
    let repo = build("path-evidence");
    let tree = repo.label();
    let (moved, written) = (&repo.oid("02")[..8], &repo.oid("03")[..8]);
    let cites: Vec<_> = path_cites(&repo, &[])
        .into_iter()
        .filter(|c| c.0.starts_with("docs/hacking.md "))
        .collect();
    assert_eq!(
        cites,
        [
            (
                "docs/hacking.md src/checkers/ast.rs".to_owned(),
                "stale".to_owned(),
                String::new(),
                format!(
                    "no file `src/checkers/ast.rs` at {tree}: the same module is `src/checkers/ast/mod.rs`, in the language's other file layout; it did not resolve when the record cited it either (at {written}), but `src/checkers/ast.rs` had been there: it was renamed to `src/checkers/ast/mod.rs` in {moved}, before the record cited it"
                ),
            ),
            (
                "docs/hacking.md src/checkers/taint.rs".to_owned(),
                "skipped".to_owned(),
                "never-resolved".to_owned(),
                format!(
                    "it did not resolve when the record cited it either (at {written}): not made yet, or not this repository's"
                ),
            ),
            // Deleted (not moved) before the guide was written: the name is
            // the reader's file, whatever the repository once had.
            (
                "docs/hacking.md docs/guide.md".to_owned(),
                "skipped".to_owned(),
                "never-resolved".to_owned(),
                format!(
                    "it did not resolve when the record cited it either (at {written}): not made yet, or not this repository's"
                ),
            ),
            // A folder deleted whole before the guide existed: what became
            // of it does not overrule the skip (the record never stood beside
            // it), unlike a file the repository renamed.
            (
                "docs/hacking.md retired/codegen/emit.py".to_owned(),
                "skipped".to_owned(),
                "unknown-root".to_owned(),
                "`retired/codegen/` is no folder of this repository (another root, a build output, or not a path)".to_owned(),
            ),
        ]
    );
}

#[test]
fn an_exemption_a_rule_file_turns_off_or_on_is_applied_so() {
    let repo = build("path-evidence");
    let rules = tempfile::tempdir().expect("temp dir");
    let file = rules.path().join("rules.toml");
    std::fs::write(
        &file,
        "[cites.exemptions]\nreader-cue = false\nnever-resolved = false\n",
    )
    .expect("rules written");
    let file = file.to_string_lossy().into_owned();
    let cites = path_cites(&repo, &["--rules", &file]);
    let status = |text: &str| {
        cites
            .iter()
            .find(|c| c.0.ends_with(text))
            .map(|c| (c.1.clone(), c.2.clone()))
            .unwrap_or_default()
    };
    // reader-cue off: the reader's file is checked; never-resolved off: it and
    // the planned file, which never resolved, are reported.
    assert_eq!(
        status("src/plugin_options.rs"),
        ("stale".to_owned(), String::new())
    );
    assert_eq!(
        status("src/checkers/dataflow.rs"),
        ("stale".to_owned(), String::new())
    );
    // An id the registry does not have, and words for an exemption that
    // reads none: located errors.
    for (rules, why) in [
        (
            "[cites.exemptions]\nreader-cues = false\n",
            "unknown exemption",
        ),
        (
            "[cites.exemption-words]\nplaceholder = [\"zzz\"]\n",
            "this exemption has no word list",
        ),
    ] {
        std::fs::write(&file, rules).expect("rules written");
        let output = repo
            .recount(&["check", "--rules", &file])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2));
        let printed = stderr(&output);
        assert!(printed.contains(why), "{printed}");
        assert!(printed.contains("rules.toml:2:1"), "{printed}");
    }
}

#[test]
fn a_renamed_test_is_stale_with_what_it_became() {
    let repo = build("path-evidence");
    let tree = repo.label();
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let cites = listed(&repo, &[], "test");
    let statuses: Vec<(String, String, String)> = cites
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap_or("").to_owned(),
                c["status"]["why"].as_str().unwrap_or("").to_owned(),
                c["status"]["suggestion"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [(
            "tests/test_rules.py::test_visitor_counts_nodes".to_owned(),
            format!(
                "tests/test_rules.py defines no test `test_visitor_counts_nodes` at {tree}; it was defined when the record cited it (at {written}) and renamed to `test_visitor_counts_every_node` in {broke}"
            ),
            "tests/test_rules.py::test_visitor_counts_every_node".to_owned(),
        )]
    );
}

#[test]
fn a_line_cite_whose_file_moved_says_where_it_went() {
    let repo = build("path-evidence");
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let cites = line_cites(&repo, &["--rev", &repo.oid("02")]);
    assert_eq!(
        cites,
        [
            (
                16,
                "stale".to_owned(),
                format!(
                    "no file `src/checkers/ast.rs` at {broke}; it resolved when the record cited it (at {written}) and was renamed to `src/checkers/ast/mod.rs` in {broke}"
                )
            ),
            // `/src/lib.rs:1`: a leading slash is the root.
            (24, "ok".to_owned(), String::new()),
        ]
    );
    let before = line_cites(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(before[0].1, "ok", "{before:?}");
}

#[test]
fn what_history_proved_is_remembered_outside_the_repository_and_changes_nothing() {
    let repo = build("path-evidence");
    let cache = tempfile::tempdir().expect("cache folder");
    let cache_dir = cache.path().join("recount");
    let cache_arg = cache_dir.to_str().expect("utf-8 path");
    let before = repo.contents();
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        let output = repo.recount(&args).output().expect("runs");
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        output.stdout
    };
    let unremembered = run(&["--no-cache"]);
    let first = run(&["--cache-dir", cache_arg]);
    let memo: Vec<_> = std::fs::read_dir(&cache_dir)
        .expect("the cache folder is made")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(memo.len(), 1, "{memo:?}");
    let text = std::fs::read_to_string(&memo[0]).expect("memo");
    assert!(text.starts_with("recount object memory 3\n"), "{text}");
    // The dear answers are kept; first parents and path lookups are not.
    assert!(text.lines().any(|l| l.starts_with("r ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("g ")), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("l ") || l.starts_with("t ")),
        "{text}"
    );
    // Read back, it gives the same report, byte for byte, as no memory does.
    let second = run(&["--cache-dir", cache_arg]);
    assert_eq!(first, unremembered);
    assert_eq!(second, unremembered);
    // A damaged memory is no memory.
    std::fs::write(&memo[0], "recount object memory 3\nr zz\n").expect("damage");
    assert_eq!(run(&["--cache-dir", cache_arg]), unremembered);
    assert_eq!(
        repo.contents(),
        before,
        "the audited repository is never written to"
    );
}

#[test]
fn a_cache_folder_inside_the_repository_is_refused_with_a_note() {
    let repo = build("path-evidence");
    let before = repo.contents();
    let inside = repo.path().join("cache");
    let (code, report) = json_report(
        &repo,
        &["--cache-dir", inside.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, 1);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("no cache kept") && notes.contains("inside the repository"),
        "{notes}"
    );
    assert!(!inside.exists());
    assert_eq!(repo.contents(), before);
}

/// `fixtures/module-layouts`: a path that never resolved, but whose module the
/// tree holds in the language's other file layout, or whose last folder and
/// file one file of the tree alone has, is stale with that file as the fix,
/// whatever its sentence says; one no layout has, a tail two files share and
/// a reader's path under no folder of the tree stay quiet.
#[test]
fn a_module_named_by_its_other_layout_is_stale_with_the_file() {
    let repo = crate::support::build("module-layouts");
    let (code, report) = crate::support::json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got = crate::support::finding_fields(&report, &["/stated", "/observed"]);
    let want = [
        ["src/checkers/ast.rs", "src/checkers/ast/mod.rs"],
        ["pkg/util.py", "pkg/util/__init__.py"],
        ["src/lints/rules/unused.rs", "src/checkers/rules/unused.rs"],
    ];
    assert_eq!(got, want, "{report}");
}

/// `fixtures/history-shapes`: the history sees every kind of target — a
/// folder there only between two sampled commits (split: both folders named),
/// a file with no extension, a link read from the root, a cite a rewrite of
/// the record's paths carried to a path that never was (judged as the line
/// first cited it), a translated page renamed — and a link written from the
/// wrong folder is stale with the file above its page. The reader's
/// rewritten path, links to pages never anywhere, a translated page
/// deleted (served by the source language's) and a code label whose block
/// the file never held stay quiet.
#[test]
fn every_kind_of_target_is_held_to_its_history() {
    let repo = crate::support::build("history-shapes");
    let (code, report) = crate::support::json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1);
    let findings = report["findings"].as_array().expect("findings");
    let got = crate::support::finding_fields(&report, &["/location/path", "/stated", "/observed"]);
    let want = [
        ["BUILD.md", "charts/web", ""],
        ["BUILD.md", "charts/web/templates", ""],
        [
            "CONTRIBUTING.md",
            "crates/core/src/plugins/settings.rs",
            "crates/core/src/rules/plugins/settings.rs",
        ],
        ["TEST.md", "bin/load-images", "bin/push-images"],
        ["docs/de/intro.md", "setup.md", "install/setup.md"],
        ["docs/loaders.md", "bin/load-images", "bin/push-images"],
        [
            "guide/topics/scoping.md",
            "./calls/methods.md",
            "../calls/methods.md",
        ],
        ["tools/README.md", "../ci/release.yml", ""],
    ];
    assert_eq!(got, want, "{report}");
    let message = |i: usize| findings[i]["message"].as_str().unwrap_or("").to_owned();
    assert!(
        message(0).contains("no folder `charts/web`")
            && message(0).contains("split into `charts/web-core` and `charts/web-crds`"),
        "{}",
        message(0)
    );
    assert!(
        message(2).contains("a rewrite of the record's paths wrote it")
            && message(2).contains("over `src/plugins/settings.rs`"),
        "{}",
        message(2)
    );
    assert!(
        message(3).contains("not-a-path exemption yields"),
        "{}",
        message(3)
    );
    assert!(
        message(4).contains("renamed to `docs/de/install/setup.md`"),
        "{}",
        message(4)
    );
    assert!(
        message(5).contains("code-label exemption yields"),
        "{}",
        message(5)
    );
    assert!(
        message(6).contains("from a folder above the page"),
        "{}",
        message(6)
    );
}

/// `fixtures/late-namesake`: a guide's sentence about the reader's project
/// names two files. The one its change brought (an hour later) held with the
/// line, so its deletion is stale; the one the tree took on 400 days later is
/// a coincidence of names, and the reading of the sentence stands (quiet).
#[test]
fn a_name_the_tree_took_long_after_the_line_does_not_overrule_the_prose() {
    let repo = build("late-namesake");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let found = crate::support::findings(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].4.starts_with("`config/sample.toml`")
            && found[0].4.contains("reader-cue exemption yields"),
        "{found:#?}"
    );
}

/// `fixtures/line-moves-back`: a cited line moved in 02, came back in 05 and
/// moved again in 06: the commit named is the last break, 06, not the first.
#[test]
fn a_line_that_moved_back_and_moved_again_broke_at_its_last_move() {
    let repo = build("line-moves-back");
    let cites = line_cites(&repo, &[]);
    let (written_at, last_move) = (&repo.oid("01")[..8], &repo.oid("06")[..8]);
    assert_eq!(
        cites,
        [(
            3,
            "stale".to_owned(),
            format!(
                "what src/table.py held at line 4 when the record cited it (at {written_at}) is now at line 6: moved in {last_move}"
            )
        )]
    );
}

/// `fixtures/site-layout-links`: a link rewritten in place, after its page
/// moved, to a folder the tree never had (the published site's layout) was
/// written on purpose, not by a sed that followed the move: not judged as
/// the line first cited it, and quiet as a page of another root. (The sed
/// that did follow a move is `fixtures/history-shapes`' 08.)
#[test]
fn a_link_rewritten_for_the_sites_layout_is_not_a_rewrite_that_followed_a_move() {
    let repo = build("site-layout-links");
    let (code, report) = json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 0, "{report}");
    let listed = listed(&repo, &["--no-cache"], "path");
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(
        listed[0]["status"]["exemption"], "foreign-root",
        "{listed:?}"
    );
}

/// `fixtures/duplicate-licence`: a package's copy of the root's licence is
/// dropped in the commit that vendors a folder with a licence that reads
/// alike, and its notices file moves: the notices were renamed, the licence
/// deleted (the root's keeps its text), and no fix points into the vendored
/// folder.
#[test]
fn a_deleted_copy_of_a_kept_file_is_no_rename() {
    let repo = build("duplicate-licence");
    let (code, report) = json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1, "{report}");
    let messages: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["message"].as_str().unwrap_or("").to_owned())
        .collect();
    let dropped = &repo.oid("02")[..8];
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].starts_with("`./LICENSE`")
            && messages[0].contains(&format!("was deleted in {dropped}"))
            && !messages[0].contains("vendor/"),
        "{messages:#?}"
    );
    assert!(
        messages[1].starts_with("`./NOTICE`")
            && messages[1].contains("renamed to `packages/web/legal/NOTICE`"),
        "{messages:#?}"
    );
}

/// `fixtures/line-lands`: a cited blank line still between the lines either
/// side of it puts the reader where the record meant (quiet); a blank line
/// pushed down past code, a declaration pushed down past code and one
/// pushed a line down below its lengthened doc comment are stale, each with
/// its new number.
#[test]
fn a_cited_gap_still_between_its_neighbours_is_quiet_and_moved_lines_are_not() {
    let repo = build("line-lands");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let found = findings(&report);
    let moves: Vec<(&str, &str)> = found
        .iter()
        .map(|(_, _, _, _, message)| {
            let cited = message.split('`').nth(1).unwrap_or("");
            let suggested = message.rsplit('`').nth(1).unwrap_or("");
            (cited, suggested)
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("../src/stream.go#L6", "../src/stream.go#L7"),
            ("src/stream.go:13", "src/stream.go:18"),
            ("src/stream.go:14", "src/stream.go:19"),
        ],
        "{found:?}"
    );
}

/// `fixtures/blog-post-day`: a post whose front matter dates it is read on
/// its day, whenever the blog was committed: its paths to files the tree
/// had that day are quiet; its link to one of them, clicked today, is
/// stale. The same front matter outside a blog dates no post: its path is
/// stale.
#[test]
fn a_posts_paths_are_read_on_the_day_its_header_gives() {
    let repo = build("blog-post-day");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let found = findings(&report);
    let at: Vec<(&str, u64, &str)> = found
        .iter()
        .map(|(_, path, line, _, message)| {
            (
                path.as_str(),
                *line,
                message.split('`').nth(1).unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        at,
        [
            ("blog/2026/first-release.md", 9, "../../docs/setup.md"),
            ("notes/first-release.md", 8, "src/old/cli.py"),
        ],
        "{found:?}"
    );
    let said = listed(&repo, &[], "path");
    assert!(
        said.iter().any(|cite| cite["status"]["why"]
            .as_str()
            .unwrap_or("")
            .starts_with("blog/2026/first-release.md:3 is a post its header dates (2026-09-15)")),
        "{said:?}"
    );
}

/// `fixtures/one-story`: two links to one page, one written before the page
/// and one with it, both broken by the page's rename: one story for both,
/// though the page's commit lies between the history's samples for the
/// older link.
#[test]
fn one_target_renamed_once_tells_one_story_in_every_record() {
    let repo = build("one-story");
    let (_, report) = json_report(&repo, &[]);
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 2, "{report:#}");
    let renamed = &repo.oid("04")[..8];
    for finding in findings {
        let message = finding["message"].as_str().unwrap_or("");
        assert!(
            message.contains(&format!("renamed to `docs/history.md` in {renamed}")),
            "{message}"
        );
    }
}
