//! Record hygiene on the ADR fixture: each check fires at the commit that breaks
//! what it guards, and stays quiet where the record holds.

use serde_json::Value;

use crate::support::{Repo, Seen, build, json_report, stderr, stdout};

const ADR: &str = "docs/adr/0031-tool-input-validation.md";

/// Every finding at `commit`.
fn findings_at(repo: &Repo, commit: &str) -> Vec<Seen> {
    crate::support::findings(&json_report(repo, &["--rev", &repo.oid(commit)]).1)
}

fn of_check<'a>(findings: &'a [Seen], check: &str) -> Vec<&'a Seen> {
    findings.iter().filter(|f| f.0 == check).collect()
}

#[test]
fn renamed_and_deleted_tests_are_stale_and_history_is_not() {
    let repo = build("adr-0031");
    // Quiet where the tests exist: full ids, the shorthand, a parametrized id,
    // a class-based id and an elided prefix all resolve.
    assert!(of_check(&findings_at(&repo, "05"), "stale-test-cite").is_empty());
    let at = findings_at(&repo, "06");
    let stale = of_check(&at, "stale-test-cite");
    assert_eq!(stale.len(), 2, "{at:#?}");
    // The shorthand `::test_refusal_names_the_key` after a full cite: deleted.
    assert_eq!((stale[0].1.as_str(), stale[0].2, stale[0].3), (ADR, 74, 45));
    assert!(
        stale[0]
            .4
            .contains("defines no test `test_refusal_names_the_key`"),
        "{}",
        stale[0].4
    );
    assert!(!stale[0].4.contains("did you mean"), "{}", stale[0].4);
    // The parametrized cite of the renamed test, with a did-you-mean.
    assert_eq!((stale[1].2, stale[1].3), (76, 4));
    assert!(
        stale[1]
            .4
            .contains("did you mean `test_widest_body_the_schema_tier_can_see`?"),
        "{}",
        stale[1].4
    );
    // The same old name marked "renamed from" (line 88) is history, not a finding.
    assert!(stale.iter().all(|f| f.2 != 88));
}

#[test]
fn a_line_cite_holds_at_its_frame_and_breaks_at_the_head() {
    let repo = build("adr-0031");
    let at = findings_at(&repo, "06");
    let lines = of_check(&at, "stale-line-cite");
    // The Context section (measured at 77b14e7a) cites server.py:11 too, and is quiet.
    assert_eq!(lines.len(), 1, "{at:#?}");
    assert_eq!((lines[0].2, lines[0].3), (83, 4));
    assert!(lines[0].4.contains("moved to line 14"), "{}", lines[0].4);
    assert!(of_check(&findings_at(&repo, "05"), "stale-line-cite").is_empty());
}

#[test]
fn a_renamed_script_is_a_stale_path_cite() {
    let repo = build("adr-0031");
    assert!(of_check(&findings_at(&repo, "05"), "stale-path-cite").is_empty());
    let at = findings_at(&repo, "06");
    let paths = of_check(&at, "stale-path-cite");
    assert_eq!(paths.len(), 1, "{at:#?}");
    assert!(paths[0].4.contains("tools/check_schemas.sh"));
}

#[test]
fn retired_figures_need_their_attribution_within_reach() {
    let repo = build("adr-0031");
    // At 04 the figure appears twice in the changelog, its attribution right beside
    // it and 153 characters away, and the withdrawn sentence once, attributed.
    assert!(of_check(&findings_at(&repo, "04"), "retired-claim").is_empty());
    let at = findings_at(&repo, "07");
    let retired = of_check(&at, "retired-claim");
    assert_eq!(retired.len(), 2, "{at:#?}");
    let changelog = retired
        .iter()
        .find(|f| f.1 == "CHANGELOG.md")
        .expect("changelog finding");
    assert_eq!((changelog.2, changelog.3), (7, 16));
    assert!(changelog.4.contains("`interim-body-cap`"));
    assert!(
        changelog.4.contains("425 characters away (reach 200)"),
        "{}",
        changelog.4
    );
    // A reworded sentence in a docstring, caught by subject plus phrasing.
    let docstring = retired
        .iter()
        .find(|f| f.1.ends_with("quarry/mcp/validation.py"))
        .expect("docstring finding");
    assert!(docstring.4.contains("`universal-charge`"));
}

#[test]
fn schema_bounds_must_equal_their_pinned_constants_both_ways() {
    let repo = build("adr-0031");
    let quiet = findings_at(&repo, "07");
    assert!(
        of_check(&quiet, "unpinned-bound").is_empty() && of_check(&quiet, "stale-pin").is_empty()
    );
    let at = findings_at(&repo, "09");
    let unpinned = of_check(&at, "unpinned-bound");
    assert_eq!(unpinned.len(), 1, "{at:#?}");
    assert!(unpinned[0].4.contains("#/properties/title/maxLength = 256"));
    assert_eq!(
        unpinned[0].1,
        "schemas/mcp/knowledge-search-input.schema.json"
    );
    let pins = of_check(&at, "stale-pin");
    assert_eq!(pins.len(), 2, "{at:#?}");
    // The pin left behind when the bound was removed points at the rule.
    let gone = pins
        .iter()
        .find(|f| f.1 == "pack:adr-0031")
        .expect("left-behind pin");
    assert!(gone.4.contains("itemId/maxLength no longer exists"));
    // The pin whose constant changed gives both numbers and both places.
    let moved = pins
        .iter()
        .find(|f| f.1.starts_with("schemas/"))
        .expect("value mismatch");
    assert!(
        moved.4.contains("is 512 but `MAX_QUERY_CHARS` is 1,024"),
        "{}",
        moved.4
    );
    assert!(moved.4.contains("quarry/mcp/validation.py:"), "{}", moved.4);
}

#[test]
fn a_frame_on_a_branch_that_never_merged_is_unreachable() {
    let repo = build("adr-0031");
    let branch = repo.oid("10");
    // A rule frame on the branch, in a rule file beside the pack (which names main).
    repo.write(
        "branch.toml",
        &format!("[recount]\ninclude = [\"adr-0031\"]\n\n[[fact]]\nid = \"tuned-nodes\"\nat = \"{}\"\nconstant = \"MAX_PARAMS_NODES\"\n", &branch[..8]),
    );
    // And a record section measured at it.
    let text = repo.read(ADR).replace(
        "## Consequences",
        &format!(
            "## Tuning\n\nMeasured at `{}`: the node bound is 50,000.\n\n## Consequences",
            &branch[..8]
        ),
    );
    repo.write(ADR, &text);
    let output = repo
        .recount(&["check", "--format", "json", "--rules", "branch.toml"])
        .output()
        .expect("runs");
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let unreachable: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "frame-unreachable")
        .collect();
    assert_eq!(unreachable.len(), 2, "{report:#}");
    assert!(
        unreachable
            .iter()
            .any(|f| f["location"]["path"] == "branch.toml" && f["location"]["line"] == 6)
    );
    assert!(unreachable.iter().any(|f| f["location"]["path"] == ADR));
    // The frames of the pack itself are on main: no finding names them.
    assert!(unreachable.iter().all(|f| {
        f["stated"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&branch[..8])
    }));
}

#[test]
fn with_no_rule_file_the_citation_checks_run_over_every_markdown_file() {
    let repo = build("adr-0031");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("no recount.toml"),
        "{}",
        stderr(&output)
    );
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let found: Vec<(String, String)> = report["findings"]
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
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("stale-test-cite", ADR),
        ("stale-test-cite", ADR),
        // `server.py:11`, cited when line 11 held the body cap; a later commit
        // moved it to line 14 (the history evidence of line cites).
        ("stale-line-cite", ADR),
        ("stale-path-cite", ADR),
        // Two gone commits that one commit of main wrote into the record:
        // it stands in for neither.
        ("frame-unresolved", ADR),
        ("frame-unresolved", ADR),
        // The amendment's test cite, under a frame that is gone, is read at
        // the working tree: no commit of main ever defined it.
        ("stale-test-cite", ADR),
        // `schemas/README.md` names two tests the history never had: no drift
        // (never-resolved), not reported.
    ]
    .iter()
    .map(|(c, p)| ((*c).to_owned(), (*p).to_owned()))
    .collect();
    assert_eq!(found, expected, "{report:#}");
}

#[test]
fn cites_lists_what_recount_understood() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "listing is not judging");
    let cites: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let list = cites["citations"].as_array().expect("list");
    let kinds: std::collections::BTreeSet<&str> =
        list.iter().filter_map(|c| c["kind"].as_str()).collect();
    assert_eq!(kinds, ["line", "path", "test"].into_iter().collect());
    let historical = list
        .iter()
        .filter(|c| c["status"]["status"] == "historical")
        .count();
    assert_eq!(historical, 1);
    // The Context section's line numbers are read at its frame; its test and
    // path cites name what a reader opens today, at the working tree.
    let framed: Vec<&str> = list
        .iter()
        .filter(|c| c["frame"] == "77b14e7a")
        .filter_map(|c| c["kind"].as_str())
        .collect();
    assert_eq!(framed, ["line", "line", "line"], "{list:#?}");
    assert!(
        list.iter()
            .filter(|c| c["frame"] == "77b14e7a")
            .all(|c| c["frame_from"] == "section marker at line 12")
    );
    // Wide, and the cell's wrapping squeezed out: the reason names the test
    // a rename left.
    let human = repo
        .recount(&["cites"])
        .env("COLUMNS", "600")
        .output()
        .expect("runs");
    let squeezed: String = stdout(&human)
        .chars()
        .filter(|c| !c.is_whitespace() && !"│┆".contains(*c))
        .collect();
    assert!(squeezed.contains("didyoumean`test_widest_body_the_schema_tier_can_see`?"));
    // At the default width every line fits 100 columns.
    let narrow = repo.recount(&["cites"]).output().expect("runs");
    assert!(
        stdout(&narrow).lines().all(|l| l.chars().count() <= 100),
        "{}",
        stdout(&narrow)
    );
}

#[test]
fn bad_records_are_handled_without_a_panic() {
    let repo = build("adr-0031");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    // Invalid UTF-8: read lossily, its cites still found.
    let mut bytes =
        b"# Notes\n\nSee `tests/unit/test_schemas.py::test_gone` \xff\xfe here.\n".to_vec();
    // Cites that would leave the repository: never read. A test cite is reported
    // as leaving it; a backticked path outside any checkout (`../../etc/hosts`)
    // is no claim about the tree and is skipped. A bare `../../etc/passwd::x`
    // names no test file type, so it is not a cite at all.
    bytes.extend_from_slice(
        "And `../../etc/passwd::x`, `../../etc/passwd.py::test_x` and `../../etc/hosts`.\n"
            .as_bytes(),
    );
    std::fs::write(repo.path().join("docs/notes.md"), bytes).expect("write");
    // A binary file a record glob matches.
    std::fs::write(repo.path().join("docs/diagram.md"), b"PNG\0\0\x01binary").expect("write");
    // A 10 MB record.
    std::fs::write(repo.path().join("docs/huge.md"), "word ".repeat(2_000_000)).expect("write");
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("docs/diagram.md: a binary file cannot be a record"),
        "{err}"
    );
    assert!(
        err.contains("docs/huge.md: 10000000 bytes is over the 4 MiB"),
        "{err}"
    );
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let notes: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["location"]["path"] == "docs/notes.md")
        .collect();
    assert_eq!(notes.len(), 2, "{report:#}");
    assert!(
        notes[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("test_gone")
    );
    for escaping in &notes[1..] {
        assert!(
            escaping["message"]
                .as_str()
                .unwrap_or_default()
                .contains("leaves the repository"),
            "{escaping:#}"
        );
    }
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_str(&stdout(&cites)).expect("json");
    let hosts = listed["citations"]
        .as_array()
        .expect("cites")
        .iter()
        .find(|c| c["text"] == "../../etc/hosts")
        .expect("listed");
    assert_eq!(hosts["status"]["status"], "skipped", "{hosts:#}");
}

#[test]
fn github_annotations_point_at_the_same_places() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&["check", "--format", "github", "--rev", &repo.oid("06")])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        text.contains(&format!(
            "::error file={ADR},line=76,col=4,title=stale-test-cite::"
        )),
        "{text}"
    );
    let commands = text
        .lines()
        .filter(|l| l.starts_with("::error ") || l.starts_with("::warning "))
        .count();
    assert_eq!(commands, findings_at(&repo, "06").len());
}

#[test]
fn rust_test_cites_resolve_through_files_and_module_paths() {
    let repo = build("rust-cites");
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let stale: Vec<(u64, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            assert_eq!(f["check"], "stale-test-cite");
            (
                f["location"]["line"].as_u64().unwrap_or_default(),
                f["stated"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    // Quiet: a file cite, a file cite with an inline module, and two bare module
    // paths (one through a nested module and a #[tokio::test]). Firing: a test
    // never written, a helper named like a test, and a bare path to nothing.
    assert_eq!(
        stale,
        vec![
            (8, "tests/cli.rs::exits_three_on_no_input".to_owned()),
            (9, "src/parser.rs::test_input".to_owned()),
            (10, "parser::tests::reads_two_numbers".to_owned()),
        ]
    );
    // Without rust_module_paths, a bare module path is not read as a cite at all.
    repo.write("recount.toml", "[cites]\nrust_module_paths = false\n");
    let output = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: Value = serde_json::from_str(&stdout(&output)).expect("json");
    assert_eq!(cites["citations"].as_array().expect("list").len(), 4);
}

#[test]
fn sarif_names_every_check_and_locates_every_finding() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&["check", "--format", "sarif", "--rev", &repo.oid("06")])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let sarif: Value = serde_json::from_str(&stdout(&output)).expect("json");
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), recount::checks::CheckId::ALL.len());
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), findings_at(&repo, "06").len());
    let stale = results
        .iter()
        .find(|r| r["ruleId"] == "stale-line-cite")
        .expect("the moved line");
    let region = &stale["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(83), Some(4))
    );
    assert_eq!(
        rules[stale["ruleIndex"].as_u64().unwrap_or(0) as usize]["id"],
        "stale-line-cite"
    );
}

#[test]
fn a_configured_frame_pattern_moves_line_cites_to_that_commit_and_leaves_the_rest() {
    let repo = build("adr-0031");
    let frame = repo.oid("05");
    // The section says "snapshot <sha>", which only a configured pattern reads.
    // Its line cite is a measurement, read at the frame; its test cite names
    // what a reader opens today, read at the working tree whatever the frame.
    let text = repo.read(ADR).replace(
        "## Consequences",
        &format!(
            "## Before the rename\n\nSnapshot {}: `packages/quarry-core/tests/unit/test_input_validation.py:26-27` held the last test.\n\nAnd `tests/unit/test_input_validation.py::test_refusal_names_the_key` too.\n\n## Consequences",
            &frame[..8]
        ),
    );
    repo.write(ADR, &text);
    let line = text
        .lines()
        .position(|l| l.starts_with("Snapshot"))
        .expect("the new section")
        + 1;
    let cites = |rules: &str| -> Vec<Value> {
        repo.write("frames.toml", rules);
        let output = repo
            .recount(&["cites", "--format", "json", "--rules", "frames.toml"])
            .output()
            .expect("runs");
        let list: Value = serde_json::from_str(&stdout(&output)).expect("json");
        list["citations"]
            .as_array()
            .expect("list")
            .iter()
            .filter(|c| {
                let at = c["at"].as_str().unwrap_or_default();
                at.starts_with(&format!("{ADR}:{line}:"))
                    || at.starts_with(&format!("{ADR}:{}:", line + 2))
            })
            .cloned()
            .collect()
    };
    let default = cites("[cites]\ntest_roots = [\"packages/quarry-core\"]\n");
    assert_eq!(default.len(), 2, "{default:#?}");
    assert_eq!(
        (
            default[0]["kind"].as_str(),
            default[0]["status"]["status"].as_str()
        ),
        (Some("line"), Some("stale")),
        "read at the working tree, the file is shorter"
    );
    assert_eq!(default[1]["status"]["status"], "stale", "{default:#?}");
    let configured = cites(
        "[cites]\ntest_roots = [\"packages/quarry-core\"]\nframe_pattern = '(?i)snapshot (?<sha>[0-9a-f]{7,40})'\n",
    );
    assert_eq!(configured.len(), 2, "{configured:#?}");
    assert_eq!(configured[0]["frame"], &frame[..8]);
    assert_eq!(
        configured[0]["frame_from"],
        format!("section marker at line {line}")
    );
    assert_eq!(configured[0]["status"]["status"], "ok");
    // The test cite under the same frame is still read at the working tree.
    assert_eq!(configured[1]["frame"], "working tree");
    assert_eq!(configured[1]["status"]["status"], "stale");
}

#[test]
fn the_human_report_shows_each_stale_cite_in_its_record() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&["check", "--rev", &repo.oid("06")])
        .output()
        .expect("runs");
    let text = stdout(&output);
    assert!(text.contains(&format!("[{ADR}:76:4]")), "{text}");
    assert!(
        text.contains("did you mean `test_widest_body_the_schema_tier_can_see`?"),
        "{text}"
    );
    assert!(
        text.contains("now at `packages/quarry-core/src/quarry/daemon/server.py:14`"),
        "{text}"
    );
    assert!(text.contains("no such path"), "{text}");
}

#[test]
fn a_backticked_name_that_is_not_this_repositorys_path_is_skipped_with_its_reason() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/guide.md",
        "# Guide\n\n\
         Build into `target/debug/app`, pin `requirements.txt`, fork `owner/repo`, \
         mind `read/write` and `~/.config/app.toml`.\n\n\
         The limits live in `./queue.md`, `../src/limits.py` and `src/limits.py`; \
         `src/retry.py` and `docs/old-queue.md` hold the retry rules; `src/limits.pyc` is \
         compiled on import.\n\n\
         Links: [the queue](queue.md), [the retry notes](retry-notes.md), \
         [an item](crate::queue::Item), [the site](../site/index.html), \
         [a sibling book](../../book/ch01.md).\n",
    );
    repo.write(".gitignore", "*.pyc\n");
    let (code, report) = crate::support::json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let stale: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-path-cite")
        .map(|f| f["stated"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        stale,
        ["src/retry.py", "docs/old-queue.md", "retry-notes.md"],
        "{report:#}"
    );
    // A link is an explicit citation (an error); a backticked path is inferred
    // (a warning).
    let tiers: Vec<(String, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-path-cite")
        .map(|f| {
            (
                f["tier"].as_str().unwrap_or_default().to_owned(),
                f["severity"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let pair = |t: &str, s: &str| (t.to_owned(), s.to_owned());
    assert_eq!(
        tiers,
        [
            pair("inferred", "warning"),
            pair("inferred", "warning"),
            pair("explicit", "error")
        ]
    );
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_str(&stdout(&cites)).expect("json");
    let status = |text: &str| {
        listed["citations"]
            .as_array()
            .expect("cites")
            .iter()
            .find(|c| c["text"] == text)
            .map(|c| c["status"].clone())
            .unwrap_or_else(|| panic!("{text} not listed: {listed:#}"))
    };
    for skipped in ["target/debug/app", "requirements.txt", "owner/repo"] {
        let s = status(skipped);
        assert_eq!(s["status"], "skipped", "{skipped}: {s:#}");
        assert!(s["why"].as_str().is_some_and(|w| !w.is_empty()));
    }
    let compiled = status("src/limits.pyc");
    assert_eq!(compiled["status"], "skipped", "{compiled:#}");
    assert!(
        compiled["why"]
            .as_str()
            .is_some_and(|w| w.contains(".gitignore")),
        "{compiled:#}"
    );
    assert_eq!(status("queue.md")["status"], "ok");
    for elsewhere in ["../site/index.html", "../../book/ch01.md"] {
        assert_eq!(status(elsewhere)["status"], "skipped", "{elsewhere}");
    }
    assert!(
        listed["citations"]
            .as_array()
            .expect("cites")
            .iter()
            .all(|c| c["text"] != "crate::queue::Item"),
        "an intra-doc link is no citation"
    );
    for present in ["./queue.md", "../src/limits.py", "src/limits.py"] {
        assert_eq!(status(present)["status"], "ok", "{present}");
    }
}

#[test]
fn history_the_readers_project_translations_and_test_material_are_not_findings() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    // A changelog names files as they were at its release.
    repo.write(
        "CHANGELOG.md",
        "# Changes\n\n## 0.2\n\n- Moved `src/old_limits.py` into `src/limits.py`.\n",
    );
    // The reader's own files, said so in the sentence; a move narrated.
    repo.write(
        "docs/howto.md",
        "# How to\n\nIn your project, put the hook in `src/hooks.py`.\n\n\
         Here is a sample `src/app_config.py` file.\n\n\
         The retry loop lives in `src/retry_loop.py`.\n\n\
         The backoff moved out of `src/backoff_old.py` into `src/limits.py`.\n",
    );
    // A translation links the page its site falls back to.
    repo.write("docs/en/limits.md", "# Limits\n");
    repo.write(
        "docs/de/index.md",
        "# Index\n\nSiehe [Grenzen](limits.md) und [alt](gone.md).\n",
    );
    // The source language falls back to nothing: a German page does not stand
    // for a missing English one, nor a sibling component for another.
    repo.write("docs/de/setup.md", "# Einrichtung\n");
    // A page linked as a folder (`limits.md/`, as directory URLs render it).
    repo.write(
        "docs/en/guide.md",
        "# Guide\n\nFirst [set up](setup.md), within [the limits](limits.md/).\n",
    );
    repo.write("components/beta/src/schema.md", "# Schema\n");
    repo.write("components/alpha/src/lib.md", "# Lib\n");
    repo.write(
        "components/alpha/README.md",
        "# Alpha\n\nIts [schema](src/schema.md).\n",
    );
    // A test's data: its cites are of the test's world.
    repo.write("tests/data/broken.md", "See `src/never_here.py`.\n");
    let (_, report) = crate::support::json_report(&repo, &[]);
    let stale: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-path-cite")
        .map(|f| {
            format!(
                "{} {}",
                f["location"]["path"].as_str().unwrap_or_default(),
                f["stated"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        stale,
        [
            "components/alpha/README.md src/schema.md",
            "docs/de/index.md gone.md",
            "docs/en/guide.md setup.md",
            "docs/howto.md src/retry_loop.py"
        ],
        "{report:#}"
    );
    assert!(
        report["notes"]
            .to_string()
            .contains("1 record under fixtures or test data not checked"),
        "{report:#}"
    );
}

#[test]
fn the_summary_counts_citations_and_says_one_in_the_singular() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/notes.md",
        "# Notes\n\nThe limits are in `src/limits.py`; pin `requirements.txt`.\n",
    );
    let output = repo.recount(&["check"]).output().expect("runs");
    let text = stdout(&output);
    let last = text.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "clean: 0 facts, 0 stated places and 1 citation agree with working tree; \
         1 citation skipped as not this repository's (recount cites)",
        "{text}"
    );
}

#[test]
fn a_bare_name_resolves_only_in_the_records_own_folders_and_says_which() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write("src/queue_helpers.py", "X = 1\n");
    repo.write("docs/tools/queue_helpers.py", "X = 2\n");
    repo.write("tools/runner.py", "X = 3\n");
    repo.write("docs/runner.py", "X = 4\n");
    repo.write(
        "docs/guide/notes.md",
        "# Notes\n\nSee `queue_helpers.py` and `runner.py`.\n\nThe lines: `queue_helpers.py:1` and `runner.py:1`.\n",
    );
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_str(&stdout(&cites)).expect("json");
    let status = |text: &str| {
        listed["citations"]
            .as_array()
            .expect("cites")
            .iter()
            .find(|c| c["text"] == text)
            .map(|c| c["status"].clone())
            .expect("listed")
    };
    // `docs/` holds the record's folder: its `runner.py` is the one meant.
    let runner = status("runner.py");
    assert_eq!(
        runner["resolved"], "docs/runner.py (the nearest of 2 paths ending so)",
        "{runner:#}"
    );
    // Neither `queue_helpers.py` is on the record's way to the root: a guess
    // between them would be quiet and wrong as often as right.
    let helpers = status("queue_helpers.py");
    assert_eq!(helpers["status"], "skipped", "{helpers:#}");
    assert!(
        helpers["why"]
            .as_str()
            .unwrap_or_default()
            .starts_with("2 files are named `queue_helpers.py`, none in this record's folders"),
        "{helpers:#}"
    );
    // A line cite of a bare name takes the same care.
    assert_eq!(status("runner.py:1")["resolved"], "docs/runner.py:1-1");
    let line = status("queue_helpers.py:1");
    assert_eq!(line["status"], "skipped", "{line:#}");
}

#[test]
fn a_mistyped_path_beside_a_real_file_suggests_it() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/typo.md",
        "# Typo\n\nThe limits are in `src/limit.py`; the plan is in `src/roadmap.py`.\n",
    );
    let (_, report) = crate::support::json_report(&repo, &[]);
    let suggested: Vec<(String, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-path-cite")
        .map(|f| {
            (
                f["stated"].as_str().unwrap_or_default().to_owned(),
                f["observed"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        suggested,
        [
            ("src/limit.py".to_owned(), "src/limits.py".to_owned()),
            ("src/roadmap.py".to_owned(), String::new())
        ],
        "{report:#}"
    );
}

#[test]
fn an_anchor_an_included_file_provides_is_found_and_one_nothing_provides_is_stale() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "docs/snippets/retries.md",
        "## Retry budget\n\nThree tries.\n",
    );
    repo.write(
        "docs/guide.md",
        "# Guide\n\n--8<-- \"docs/snippets/retries.md\"\n\n{{#include snippets/retries.md}}\n",
    );
    // A template whose text cannot be read here keeps its anchors undecided.
    repo.write(
        "docs/templated.md",
        "# Templated\n\n{{ render_options() }}\n",
    );
    repo.write(
        "docs/index.md",
        "# Index\n\nSee [the budget](guide.md#retry-budget), [the limit](guide.md#retry-limit) \
         and [an option](templated.md#an-option).\n",
    );
    let (_, report) = crate::support::json_report(&repo, &[]);
    let stale: Vec<String> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "stale-path-cite")
        .map(|f| f["stated"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(stale, ["guide.md#retry-limit"], "{report:#}");
}

/// Pins are one set across the plan's `[[bounds]]` entries: a schema one entry
/// reaches through a `$ref` (`data-config`'s context schema, by its `$id`) is
/// pinned by another, and no entry reports it unpinned — nor twice when two
/// entries reach it unpinned.
#[test]
fn a_bound_pinned_by_another_bounds_entry_is_pinned() {
    let repo = build("data-config");
    let at = repo.oid("02");
    let rules = |second_pins: &str| {
        format!(
            "[constants]\nMAX_NAME_CHARS = {{ file = \"packages/core/src/demo/limits.py\" }}\nMAX_NOTE_CHARS = {{ file = \"packages/core/src/demo/limits.py\" }}\n\n\
             [[bounds]]\nschemas = \"schemas/input/*-input.schema.json\"\nfollow_refs = true\npins = [\n  {{ bound = \"schemas/input/search-input.schema.json#/properties/note/maxLength\", constant = \"MAX_NOTE_CHARS\" }},\n]\n\n\
             [[bounds]]\nschemas = \"schemas/context.schema.json\"\npins = [{second_pins}]\n"
        )
    };
    let unpinned = |text: &str| {
        repo.write("split.toml", text);
        let (_, report) =
            crate::support::json_report(&repo, &["--rev", &at, "--rules", "split.toml"]);
        let found = crate::support::findings(&report);
        found
            .into_iter()
            .filter(|f| f.0 == "unpinned-bound")
            .map(|f| f.4)
            .collect::<Vec<_>>()
    };
    let pinned_elsewhere = rules(
        "{ bound = \"schemas/context.schema.json#/properties/name/maxLength\", constant = \"MAX_NAME_CHARS\" }",
    );
    assert_eq!(unpinned(&pinned_elsewhere), Vec::<String>::new());
    // Pinned by neither: reported once, by the first entry that reaches it.
    let nowhere = unpinned(&rules(""));
    assert_eq!(nowhere.len(), 1, "{nowhere:?}");
    assert!(
        nowhere[0].contains("#/properties/name/maxLength"),
        "{nowhere:?}"
    );
}

/// A claim is looked for across the records its glob selects: stated in one,
/// it is found; stated in none, it is one finding, at the claim.
#[test]
fn a_claim_stated_in_one_of_its_records_is_found_and_in_none_is_one_finding() {
    let repo = build("data-config");
    // A second page under `docs/` that states no figure.
    repo.write("docs/notes.md", "# Notes\n\nNothing measured here.\n");
    let run = |rules: &str| {
        repo.write("claims.toml", rules);
        let (_, report) = crate::support::json_report(&repo, &["--rules", "claims.toml"]);
        crate::support::findings(&report)
            .into_iter()
            .filter(|f| f.0 == "claim-not-found")
            .collect::<Vec<_>>()
    };
    let fact = |says: &str| {
        format!(
            "[[fact]]\nid = \"workers\"\njson = \"config/service.yaml\"\npointer = \"/service/workers\"\nclaims = [{{ in = \"docs/**/*.md\", says = '{says}' }}]\n"
        )
    };
    assert_eq!(run(&fact(r"runs (?<value>\d+) workers")), vec![]);
    let none = run(&fact(r"spawns (?<value>\d+) threads"));
    assert_eq!(none.len(), 1, "{none:?}");
    assert_eq!(none[0].1, "claims.toml");
    assert!(
        none[0].4.contains("matches nothing in any of the"),
        "{none:?}"
    );
}

/// `fixtures/working-folder`: a path the text names after it has its reader
/// `cd` into a folder of the tree is read from that folder (quiet); the same
/// path above the `cd`, written before the move, is stale. A page that moved
/// into the package with its files reads them from the package's root
/// (quiet).
#[test]
fn a_path_after_a_cd_is_read_from_that_folder() {
    let repo = build("working-folder");
    let (code, report) = crate::support::json_report(&repo, &["--rev", &repo.oid("02")]);
    assert_eq!(code, 1, "{report:#}");
    let got: Vec<(u64, String)> = crate::support::findings(&report)
        .into_iter()
        .map(|(_, _, line, _, message)| (line, message))
        .collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 3, "{got:?}");
    assert!(
        got[0]
            .1
            .contains("renamed to `extension/test/unit/runner.ts`"),
        "{got:?}"
    );
}

/// `fixtures/working-folder` at 03: the guide moved, and the path it wrote of
/// itself is this very page under its former name (quiet), while the stale
/// path above its steps stays stale.
#[test]
fn a_records_own_former_name_in_its_prose_is_the_record() {
    let repo = build("working-folder");
    let (code, report) = crate::support::json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let got: Vec<(String, u64)> = crate::support::findings(&report)
        .into_iter()
        .map(|(_, path, line, _, _)| (path, line))
        .collect();
    assert_eq!(
        got,
        [("docs/guide/contributing.md".to_owned(), 3)],
        "{report:#}"
    );
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_str(&stdout(&cites)).expect("json");
    let own = listed["citations"]
        .as_array()
        .expect("cites")
        .iter()
        .find(|c| c["text"] == "docs/contributing.md")
        .expect("the guide's own former name is listed");
    assert_eq!(
        own["status"]["resolved"], "docs/guide/contributing.md (this record, under a name it had)",
        "{own}"
    );
}

/// `module.py::name` on a module pytest would not collect names its code: a
/// method or function of that name anywhere in it resolves; a name it lacks,
/// and a test file's missing test, are stale.
#[test]
fn a_node_id_into_a_module_that_is_no_test_file_names_its_code() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    repo.write(
        "pkg/scheduler.py",
        "class Scheduler:\n    def update_graph(self):\n        pass\n",
    );
    repo.write(
        "tests/test_scheduler.py",
        "class Helper:\n    def update_graph(self):\n        pass\n\ndef test_runs():\n    pass\n",
    );
    repo.write(
        "docs/journey.md",
        "# Journey\n\n\
         Start at `pkg/scheduler.py::update_graph`, not `pkg/scheduler.py::submit`.\n\n\
         The suite checks it in `tests/test_scheduler.py::update_graph`.\n",
    );
    let (code, report) = crate::support::json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let stale: Vec<(u64, String)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["location"]["line"].as_u64().unwrap_or_default(),
                f["stated"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        stale,
        [
            (3, "pkg/scheduler.py::submit".to_owned()),
            (5, "tests/test_scheduler.py::update_graph".to_owned())
        ],
        "{report:#}"
    );
}

/// A plain `check` of a built fixture: its exit code, and each finding as
/// its record, line and message.
fn checked(repo: &Repo) -> (i32, Value, Vec<(String, u64, String)>) {
    let (code, report) = json_report(repo, &[]);
    let got = crate::support::findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| (path, line, message))
        .collect();
    (code, report, got)
}

/// What `recount cites` lists for a built fixture: for a record and a part
/// of a cite's text, that cite's status and the exemption that set it
/// aside, if one did.
fn cite_statuses(repo: &Repo) -> impl Fn(&str, &str) -> (String, Option<String>) {
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let listed: Value = serde_json::from_str(&stdout(&cites)).expect("json");
    move |record: &str, text: &str| {
        let cite = listed["citations"]
            .as_array()
            .expect("cites")
            .iter()
            .find(|c| c["record"] == record && c["text"].as_str().is_some_and(|t| t.contains(text)))
            .unwrap_or_else(|| panic!("no cite of {text} in {record}"));
        (
            cite["status"]["status"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            cite["status"]["exemption"].as_str().map(str::to_owned),
        )
    }
}

/// `fixtures/reader-workflows`: a path under the folder the docs have the
/// reader copy from the sample is read in the sample (quiet while there,
/// stale with the commit that deleted it); a changelog section the project
/// re-adds in turn is quiet between its returns (`recurring-section`), one
/// that went for good is stale; an "Older releases" section's plain release
/// lines are read at their tags; a template's line cite is its example's
/// (`placeholder`), the same cite in a guide is stale. A path of the
/// reader's project that a guide read at its release's tag names, and the
/// repository never had, is `never-resolved`; one it had is stale. A dated
/// plan's line cite past the file's end is that day's (`snapshot-page`).
/// A link to an old address a page's `aliases:` keep lands on that page, as
/// one to an address from the site's root its `redirect_from:` keeps does;
/// there, the ids an MDX component renders for what it documents are
/// offered. A whole file's range as an editor numbers it (`1-4` of 3 lines)
/// holds, as does its rest from a line (`2-4`); a page's `#L1-L3` is the
/// page's.
#[test]
fn a_readers_workflow_is_read_as_the_reader_follows_it() {
    let repo = build("reader-workflows");
    let (code, report, got) = checked(&repo);
    assert_eq!(code, 1, "{report:#}");
    let places: Vec<(&str, u64)> = got.iter().map(|(p, l, _)| (p.as_str(), *l)).collect();
    assert_eq!(
        places,
        [
            ("CONTRIBUTING.md", 4),
            ("docs/guide.md", 3),
            ("docs/guide.md", 5),
            ("docs/guide.md", 9),
            ("docs/setup.md", 10),
            ("docs/upgrading/0.2.0.md", 5)
        ],
        "{got:#?}"
    );
    assert!(got[0].2.contains("`#upgrading`"), "{got:#?}");
    assert!(
        got[4].2.contains("reader's copy of `inventory/sample`")
            && got[4]
                .2
                .contains(&format!("deleted in {}", &repo.oid("04")[..8])),
        "{got:#?}"
    );
    let status_of = cite_statuses(&repo);
    assert_eq!(
        status_of("CONTRIBUTING.md", "#unreleased").1.as_deref(),
        Some("recurring-section")
    );
    assert_eq!(
        status_of("docs/templates/review.md", "src/app.py:40")
            .1
            .as_deref(),
        Some("placeholder")
    );
    assert_eq!(
        status_of("CHANGELOG.md", "src/old.py").1.as_deref(),
        Some("earlier-release")
    );
    assert_eq!(
        status_of("docs/upgrading/0.2.0.md", "config/rbac/role.yaml")
            .1
            .as_deref(),
        Some("never-resolved")
    );
    assert_eq!(
        status_of("docs/plans/2026-02-01-verbose-run.md", "src/app.py:12")
            .1
            .as_deref(),
        Some("snapshot-page")
    );
    assert!(got[2].2.contains("`#capsules`"), "{got:#?}");
    assert!(got[3].2.contains("`#receive`"), "{got:#?}");
    for cite in ["legacy/api#send", "legacy/api#send-timeout"] {
        assert_eq!(
            status_of("docs/guide.md", cite).0,
            "ok".to_owned(),
            "{cite}"
        );
    }
    assert_eq!(
        status_of("docs/guide.md", "old-types/#strings").0,
        "ok".to_owned()
    );
    assert_eq!(
        status_of("docs/guide.md", "src/app.py:1-4").0,
        "ok".to_owned()
    );
    assert_eq!(
        status_of("docs/guide.md", "src/app.py:2-4").0,
        "ok".to_owned()
    );
    // Lines of a page the forge renders: it marks none, the link is the page's.
    assert_eq!(
        status_of("docs/guide.md", "setup.md#L1-L3").0,
        "ok".to_owned()
    );
    assert_eq!(
        status_of("docs/setup.md", "all.yml"),
        ("ok".to_owned(), None)
    );
}

/// `fixtures/snapshot-pages`: a proposal whose folder declares its pages
/// point-in-time snapshots keeps a cite that held when written (quiet, listed
/// as `snapshot-page`); a decision record in a folder that declares nothing
/// is stale, and one whose status now says it was superseded is the
/// decision as taken (quiet, `superseded-record`); a folder whose README
/// says it is not maintained is set aside (`frozen-docs`) and a generated
/// page's missing anchor is its generator's (`generated-page`). A link to the title the
/// README opened with still opens it at its top (quiet, `page-title`); a
/// link to a heading further down that went is stale.
#[test]
fn a_snapshot_page_and_a_page_title_are_read_as_their_project_says() {
    let repo = build("snapshot-pages");
    let (code, report, got) = checked(&repo);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(got.len(), 4, "{got:#?}");
    assert_eq!(got[0].0, "docs/adr/001-cache.md", "{got:#?}");
    assert!(got[0].2.contains("src/cache/store.py"), "{got:#?}");
    assert_eq!(
        (got[1].0.as_str(), got[1].1),
        ("docs/guide.md", 4),
        "{got:#?}"
    );
    assert!(got[1].2.contains("`#setup`"), "{got:#?}");
    // A plan planned and not started is followed: its path is stale; one
    // whose status reports its steps landed on a day is that day's.
    // The internals page's storage section (its outdated example's
    // section is read as written).
    assert_eq!(
        (got[2].0.as_str(), got[2].1),
        ("docs/internals.md", 5),
        "{got:#?}"
    );
    assert_eq!(got[3].0, "docs/plans/refresh.md", "{got:#?}");
    let status_of = cite_statuses(&repo);
    let exemption_of = |record: &str, text: &str| status_of(record, text).1;
    assert_eq!(
        exemption_of("docs/rfc/0001-cache.md", "src/store/cache.py").as_deref(),
        Some("snapshot-page")
    );
    assert_eq!(
        exemption_of("docs/adr/000-no-cache.md", "src/store/cache.py").as_deref(),
        Some("superseded-record")
    );
    assert_eq!(
        exemption_of("docs/plans/ingest.md", "src/store/cache.py").as_deref(),
        Some("snapshot-page")
    );
    assert_eq!(
        exemption_of("docs/archived-guide.md", "src/store/cache.py").as_deref(),
        Some("snapshot-page")
    );
    assert_eq!(
        exemption_of("docs/guide.md", "#table-of-contents").as_deref(),
        Some("page-title")
    );
    assert_eq!(
        exemption_of("docs/reference/api.md", "#google-protobuf-struct").as_deref(),
        Some("generated-page")
    );
    let (_, quiet) = crate::support::json_report(&repo, &[]);
    assert!(
        quiet
            .to_string()
            .contains("under a folder its index says is no longer maintained"),
        "{quiet:#}"
    );
}

/// `fixtures/plan-history`: a plan in a folder kept as historical
/// documentation names the file its own work then added, and a line that
/// was there: both held for its time, quiet (`snapshot-page`), while a
/// living guide's same cites are stale. A bare `playbook.md:9` on a page
/// that writes `docs/ops/playbook.md` in full is that file's line, not its
/// three-line namesake's beside the page. A report its `Date:` field dates
/// cites its day's tree, a file no commit had included (quiet); an undated
/// page's cite of it is stale. A roadmap's step whose heading marks it done
/// records the change that landed (quiet); its next step's cite is stale.
#[test]
fn a_plan_a_dated_report_and_a_name_spelled_in_full_are_read_as_written() {
    let repo = build("plan-history");
    let (code, report, got) = checked(&repo);
    assert_eq!(code, 1, "{report:#}");
    let places: Vec<(&str, u64)> = got.iter().map(|g| (g.0.as_str(), g.1)).collect();
    assert_eq!(
        places,
        [
            ("docs/engine.md", 3),
            ("docs/guide.md", 3),
            ("docs/guide.md", 3),
            ("docs/roadmap.md", 9)
        ],
        "{got:#?}"
    );
    let status_of = cite_statuses(&repo);
    for (record, text, status, exemption) in [
        (
            "docs/plans/warmup.md",
            "src/store/warm.py",
            "skipped",
            Some("snapshot-page"),
        ),
        (
            "docs/plans/warmup.md",
            "src/store/cache.py:4",
            "skipped",
            Some("snapshot-page"),
        ),
        (
            "docs/QuarterReport.md",
            "src/store/engine.py:3",
            "skipped",
            Some("snapshot-page"),
        ),
        ("docs/notes/rollback.md", "playbook.md:9", "ok", None),
        // The roadmap's finished step records the change that landed; its
        // next step still builds on the retired file: stale (above).
        (
            "docs/roadmap.md",
            "src/store/warm.py",
            "skipped",
            Some("snapshot-page"),
        ),
    ] {
        let (got_status, got_exemption) = status_of(record, text);
        assert_eq!(
            (got_status.as_str(), got_exemption.as_deref()),
            (status, exemption),
            "{record} {text}"
        );
    }
}

/// A line cite written from its record's folder (`../../src/x.py:1`, as
/// mdBook's `{{#include ../../x:7:}}` writes one) is read from there: it
/// holds, and one whose file is not there is stale for that, not for leaving
/// the repository.
#[test]
fn a_line_cite_written_from_its_records_folder_is_read_from_there() {
    let repo = build("snapshot-pages");
    repo.write(
        "docs/deep/notes.md",
        "# Notes\n\nThe store opens at `../../src/cache/store.py:1`; the old one was `../../src/cache/gone.py:1`.\n",
    );
    let (code, report) = crate::support::json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let notes: Vec<String> = crate::support::findings(&report)
        .into_iter()
        .filter(|(_, path, ..)| path == "docs/deep/notes.md")
        .map(|(.., message)| message)
        .collect();
    assert_eq!(notes.len(), 1, "{notes:#?}");
    assert!(notes[0].contains("gone.py"), "{notes:#?}");
    assert!(!notes[0].contains("leaves the repository"), "{notes:#?}");
}
