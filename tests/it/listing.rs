//! A listing claim against the `listing` fixture: the record lists five grep
//! hits; at commit 02 the tree has forty. One finding for the block, whatever
//! the number of lines, with a diff cut to a screenful in every format.

use serde_json::Value;

use crate::support::{build, json_report, stdout};

const RECORD: &str = "docs/routes.md";

fn listing_findings(report: &Value) -> Vec<Value> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f.get("diff").is_some())
        .cloned()
        .collect()
}

#[test]
fn a_listing_that_matches_is_quiet() {
    let repo = build("listing");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["findings"], Value::Array(vec![]));
    assert_eq!(report["facts"][0]["claims"]["ok"], 2);
}

#[test]
fn a_listing_that_grew_is_one_finding_with_a_cut_diff() {
    let repo = build("listing");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("02")]);
    assert_eq!(code, 1);
    let listing = listing_findings(&report);
    assert_eq!(listing.len(), 1, "{report:#}");
    let f = &listing[0];
    assert_eq!(f["check"], "fact-drift");
    assert_eq!(f["location"]["path"], RECORD);
    assert_eq!(f["location"]["line"], 8, "at the block's command line");
    assert_eq!(
        f["message"],
        "the record's listing of `routes` differs from the tree: 38 lines added, 3 removed (5 listed, 40 found)"
    );
    let diff = &f["diff"];
    assert_eq!(
        (diff["added"].as_u64(), diff["removed"].as_u64()),
        (Some(38), Some(3))
    );
    let lines: Vec<&str> = diff["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(diff["more"], 41 - 20);
    assert_eq!(
        &lines[..4],
        [
            "-src/relay/handlers.py:16",
            "-src/relay/handlers.py:21",
            "-src/relay/handlers.py:26",
            "+src/relay/handlers.py:18",
        ]
    );
    // The facts table counts the two drifted places (the figure and the block).
    assert_eq!(report["facts"][0]["claims"]["drifted"], 2);
    assert_eq!(report["facts"][0]["claims"]["ok"], 0);
}

#[test]
fn every_format_shows_the_diff() {
    let repo = build("listing");
    let rev = repo.oid("02");
    let run = |format: &str| {
        let output = repo
            .recount(&["check", "--rev", &rev, "--format", format])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1));
        stdout(&output)
    };
    let human = run("human");
    assert!(human.contains("-src/relay/handlers.py:16"), "{human}");
    assert!(human.contains("… and 21 more lines"), "{human}");

    let github = run("github");
    let annotation = github
        .lines()
        .find(|l| l.contains("listing of `routes`"))
        .expect("an annotation for the block");
    assert!(annotation.starts_with("::error file=docs/routes.md,line=8,col=1,"));
    assert!(
        annotation.contains("%0A-src/relay/handlers.py:16%0A"),
        "{annotation}"
    );
    assert!(
        annotation.ends_with("%0A… and 21 more lines"),
        "{annotation}"
    );

    let sarif: Value = serde_json::from_str(&run("sarif")).expect("SARIF is JSON");
    let texts: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["message"]["text"].as_str())
        .collect();
    let text = texts
        .iter()
        .find(|t| t.contains("listing of `routes`"))
        .expect("a result for the block");
    assert!(text.contains("\n+src/relay/topics.py:6\n"), "{text}");
    assert!(text.ends_with("\n… and 21 more lines"), "{text}");
}

#[test]
fn the_report_with_a_diff_validates_against_its_schema() {
    let set = recount::validation::SchemaSet::from_files([(
        "report.schema.json",
        recount::report::json::REPORT_SCHEMA,
    )])
    .expect("the report schema loads");
    let repo = build("listing");
    let (_, report) = json_report(&repo, &["--rev", &repo.oid("02")]);
    let bytes = serde_json::to_vec(&report).expect("serialises");
    let verdict = recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
    assert!(verdict.is_accepted(), "{verdict:?}");
    // A diff line that is neither `-` nor `+` is refused.
    let mut report = report;
    let finding = report["findings"]
        .as_array_mut()
        .expect("findings")
        .iter_mut()
        .find(|f| f.get("diff").is_some())
        .expect("a listing finding");
    finding["diff"]["lines"][0] = Value::from(" context");
    let bytes = serde_json::to_vec(&report).expect("serialises");
    let verdict = recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
    assert!(!verdict.is_accepted());
}

#[test]
fn a_block_held_by_an_unverified_facts_listing_is_unverified_not_checked() {
    let repo = build("listing");
    let rows = |extra: &[&str]| -> Vec<Value> {
        let mut args = vec!["transcripts", "--format", "json"];
        args.extend_from_slice(extra);
        let output = repo.recount(&args).output().expect("runs");
        let list: Vec<Value> = serde_json::from_str(&stdout(&output)).expect("json");
        list.into_iter().filter(|t| t["record"] == RECORD).collect()
    };
    // As the fixture has it, the block is the listing claim's.
    let held = rows(&[]);
    assert!(held.iter().any(|t| t["status"] == "claimed"), "{held:#?}");
    // The same fact measured at a commit the repository does not have: its
    // listing checks nothing, and the block says so.
    let rules = repo.read("recount.toml").replace(
        "grep = \"@route(\"",
        "at = \"deadbeef\"\ngrep = \"@route(\"",
    );
    repo.write("gone.toml", &rules);
    let gone = rows(&["--rules", "gone.toml"]);
    let unverified = gone
        .iter()
        .find(|t| t["status"] == "unverified")
        .unwrap_or_else(|| panic!("{gone:#?}"));
    let why = unverified["why"].as_str().unwrap_or_default();
    assert!(
        why.contains("fact `routes`'s claim") && why.contains("`deadbeef`"),
        "{why}"
    );
    assert!(!gone.iter().any(|t| t["status"] == "claimed"), "{gone:#?}");
}
