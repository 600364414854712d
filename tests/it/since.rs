//! `check --since BASE`: only what a range made wrong (`fixtures/since-range`:
//! a guide whose launcher link never resolved, 02 edits a file no record
//! links and is tagged v1.0.0, 03 renames the module the guide links, 04 adds
//! a line linking a missing page, 05 mends the misnamed indexer link, 06
//! raises the body cap the guide states).

use serde_json::Value;

use crate::support::{Repo, accepted_by_the_report_schema, build, json_report, stderr, stdout};

/// `(check, line, how, commit, cause path, cause line, change)` of each finding.
type Caused = (String, u64, String, String, String, u64, String);

fn caused(report: &Value) -> Vec<Caused> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            let cause = &f["cause"];
            (
                text(&f["check"]),
                f["location"]["line"].as_u64().unwrap_or_default(),
                text(&cause["how"]),
                text(&cause["commit"]),
                text(&cause["path"]),
                cause["line"].as_u64().unwrap_or_default(),
                text(&cause["change"]),
            )
        })
        .collect()
}

fn since(repo: &Repo, base: &str, rev: &str) -> (i32, Value) {
    let (base, rev) = (repo.oid(base), repo.oid(rev));
    json_report(repo, &["--rev", &rev, "--since", &base])
}

#[test]
fn a_rename_in_the_range_is_reported_with_the_commit_and_the_file_it_renamed() {
    let repo = build("since-range");
    let (code, report) = since(&repo, "02", "03");
    assert_eq!(code, 1);
    assert_eq!(
        caused(&report),
        vec![(
            "stale-path-cite".to_owned(),
            3,
            "changed".to_owned(),
            repo.oid("03"),
            "src/server.py".to_owned(),
            1,
            "renamed from src/app.py".to_owned(),
        )]
    );
    // The evidence's suggestion is the fix: the path the rename gave it, in
    // place of the link's destination.
    assert_eq!(report["findings"][0]["observed"], "../src/server.py");
    let fix = &report["findings"][0]["fix"];
    assert_eq!(fix["replacement"], "../src/server.py");
    let guide = repo.read("docs/guide.md");
    let at = fix["offset"].as_u64().expect("offset") as usize;
    assert_eq!(&guide[at..at + 13], "../src/app.py");
    // The launcher and indexer links, stale since 01, were there at the base.
    assert_eq!(report["range"]["at_base"], 2);
    assert_eq!(report["range"]["commits"], 1);
    assert!(accepted_by_the_report_schema(&report));
}

#[test]
fn an_edit_no_record_reads_leaves_the_range_clean() {
    let repo = build("since-range");
    let (code, report) = since(&repo, "01", "02");
    assert_eq!(code, 0, "{report}");
    assert_eq!(caused(&report), vec![]);
    assert_eq!(report["range"]["at_base"], 2);
}

#[test]
fn a_line_the_range_wrote_is_reported_and_older_findings_stay_out() {
    let repo = build("since-range");
    let (code, report) = since(&repo, "03", "04");
    assert_eq!(code, 1);
    assert_eq!(
        caused(&report),
        vec![(
            "stale-path-cite".to_owned(),
            11,
            "wrote".to_owned(),
            repo.oid("04"),
            String::new(),
            0,
            "wrote this line".to_owned(),
        )]
    );
}

#[test]
fn a_range_that_mends_an_old_citation_reports_nothing() {
    let repo = build("since-range");
    let (code, report) = since(&repo, "04", "05");
    assert_eq!(code, 0, "{report}");
    assert_eq!(caused(&report), vec![]);
}

#[test]
fn a_guessed_name_is_a_did_you_mean_and_never_a_fix() {
    let repo = build("since-range");
    // The nearest name beside a path that never resolved is a guess.
    let guide = repo.read("docs/guide.md");
    repo.write(
        "docs/guide.md",
        &format!("{guide}\nSmall helpers live in `src/helper.py`.\n"),
    );
    let (_, report) = json_report(&repo, &[]);
    let guessed = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["stated"] == "src/helper.py")
        .expect("the misspelt path is a finding");
    assert_eq!(guessed["observed"], "src/helpers.py");
    assert_eq!(guessed.get("fix"), None, "{guessed}");
    // The figure recomputed at the audited tree is one.
    let figure = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["check"] == "fact-drift")
        .expect("the raised cap");
    assert_eq!(figure["fix"]["replacement"], "2,048");
}

#[test]
fn a_changed_constant_is_traced_to_the_line_that_changed_it() {
    let repo = build("since-range");
    let (code, report) = since(&repo, "05", "06");
    assert_eq!(code, 1);
    assert_eq!(
        caused(&report),
        vec![(
            "fact-drift".to_owned(),
            5,
            "changed".to_owned(),
            repo.oid("06"),
            "src/limits.py".to_owned(),
            1,
            "edited".to_owned(),
        )]
    );
}

#[test]
fn a_longer_range_holds_each_finding_it_caused_and_only_those() {
    let repo = build("since-range");
    // Every finding at 06 not there at 01: the rename (03), the new line
    // (04), the raised cap (06); the launcher link was there at 01.
    let (_, report) = since(&repo, "01", "06");
    let seen: Vec<(String, u64, String)> = caused(&report)
        .into_iter()
        .map(|(check, line, _, commit, ..)| (check, line, commit))
        .collect();
    assert_eq!(
        seen,
        vec![
            ("stale-path-cite".to_owned(), 3, repo.oid("03")),
            ("fact-drift".to_owned(), 5, repo.oid("06")),
            ("stale-path-cite".to_owned(), 11, repo.oid("04")),
        ]
    );
    // A tag names the base as a sha does.
    let (_, by_tag) = json_report(&repo, &["--rev", &repo.oid("06"), "--since", "v1.0.0"]);
    let (_, by_sha) = since(&repo, "02", "06");
    assert_eq!(by_tag["findings"], by_sha["findings"]);
}

#[test]
fn every_format_names_the_cause_and_sarif_and_github_point_at_the_changed_code() {
    let repo = build("since-range");
    let (base, rev) = (repo.oid("02"), repo.oid("03"));
    let run = |format: &str| {
        let output = repo
            .recount(&["check", "--rev", &rev, "--since", &base, "--format", format])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        stdout(&output)
    };
    let short = &rev[..8];
    let human = run("human");
    assert!(
        human.contains(&format!(
            "caused by {short} (src/server.py:1, renamed from src/app.py)"
        )),
        "{human}"
    );
    let sarif = run("sarif");
    crate::ci_output::sarif_verdict(&sarif).expect("SARIF 2.1.0");
    let sarif: Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    let change = &sarif["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0];
    assert_eq!(
        change["replacements"][0]["insertedContent"]["text"],
        "../src/server.py"
    );
    let related = &sarif["runs"][0]["results"][0]["relatedLocations"][0]["physicalLocation"];
    assert_eq!(related["artifactLocation"]["uri"], "src/server.py");
    assert_eq!(related["region"]["startLine"], 1);
    let github = run("github");
    assert!(
        github
            .lines()
            .any(|l| l.starts_with("::error file=src/server.py,line=1,")
                && l.contains(&format!("this change ({short}) made docs/guide.md:3 stale"))),
        "{github}"
    );
    let markdown = run("markdown");
    assert!(
        markdown.contains(&format!("caused by {short}")),
        "{markdown}"
    );
    assert!(
        markdown.contains("```suggestion\nThe entry point is [one module](../src/server.py); it reads its limits\n```"),
        "{markdown}"
    );
}

#[test]
fn uncommitted_work_is_its_own_cause() {
    let repo = build("since-range");
    let guide = repo.read("docs/guide.md");
    repo.write(
        "docs/guide.md",
        &format!("{guide}\nRollback steps are in [the runbook](runbook.md).\n"),
    );
    let (code, report) = json_report(&repo, &["--since", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(
        caused(&report),
        vec![(
            "stale-path-cite".to_owned(),
            13,
            "wrote".to_owned(),
            String::new(),
            String::new(),
            0,
            "wrote this line".to_owned(),
        )]
    );
}

#[test]
fn a_base_that_names_nothing_is_a_could_not_run_error() {
    let repo = build("since-range");
    for (since, says) in [
        ("no-such-branch", "--since: "),
        ("2026-08-30", "no commit of the audited line is that old"),
    ] {
        let output = repo
            .recount(&["check", "--since", since])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{since}");
        assert!(
            stderr(&output).contains(says),
            "{since}: {}",
            stderr(&output)
        );
    }
    // A baseline holds every finding of the tree, never a range's.
    let output = repo
        .recount(&["check", "--since", "HEAD~1", "--write-baseline", "b.json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot be used with"),
        "{}",
        stderr(&output)
    );
}

/// `fixtures/sphinx-package-gone`: a Python object names no path; its cause
/// is the commit that changed the module it was defined in, never "work not
/// committed yet" on a clean tree.
#[test]
fn a_python_objects_cause_is_the_commit_that_changed_its_module() {
    let repo = build("sphinx-package-gone");
    let (code, report) = since(&repo, "01", "02");
    assert_eq!(code, 1, "{report}");
    let objects: Vec<Caused> = caused(&report)
        .into_iter()
        .filter(|c| c.1 == 6 || c.1 == 7 || c.1 == 14)
        .collect();
    assert_eq!(objects.len(), 3, "{report}");
    for cause in objects {
        assert_eq!(cause.3, repo.oid("02"), "{cause:?}");
        assert!(cause.4.starts_with("src/"), "{cause:?}");
        assert_eq!(cause.6, "deleted", "{cause:?}");
    }
}
