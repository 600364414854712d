//! Output where reviewers look: GitHub annotations (ten shown per level, so
//! errors first and a notice for the rest) and the Markdown step summary (one
//! cell per value, under the 1 MiB a summary may hold, the cut said).

use crate::support::{build, stderr, stdout};

/// A repository whose record has `errors` broken links and `warnings` missing
/// backticked paths.
fn drifted(errors: usize, warnings: usize) -> crate::support::Repo {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    let mut text = String::from("# Drift\n\n");
    for i in 0..warnings {
        text.push_str(&format!("The helper `src/helper_{i}.py` retries.\n\n"));
    }
    for i in 0..errors {
        text.push_str(&format!("See [page {i}](missing|{i}.md).\n\n"));
    }
    repo.write("docs/drift.md", &text);
    repo
}

#[test]
fn annotations_put_errors_first_and_count_what_github_will_not_show() {
    let repo = drifted(12, 3);
    let output = repo
        .recount(&["check", "--format", "github"])
        .output()
        .expect("runs");
    let text = stdout(&output);
    let levels: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("::").and_then(|l| l.split(' ').next()))
        .collect();
    let first_warning = levels
        .iter()
        .position(|l| *l == "warning")
        .expect("warnings");
    assert!(
        levels[..first_warning].iter().all(|l| *l == "error"),
        "{levels:?}"
    );
    let notice = text
        .lines()
        .find(|l| l.starts_with("::notice"))
        .expect("a notice for the rest");
    assert!(
        notice.contains("2 more errors and 0 more warnings"),
        "{notice}"
    );
}

#[test]
fn a_summary_keeps_every_value_in_its_cell() {
    let repo = drifted(2, 0);
    let output = repo
        .recount(&["check", "--format", "markdown"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.starts_with("### recount\n\n❌ 2 findings"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| error")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    // Four cells: the pipe in the cited name is escaped, not a fifth cell.
    for row in rows {
        assert!(row.contains("missing\\|"), "{row}");
        assert_eq!(row.matches(" | ").count(), 3, "{row}");
    }
    assert_eq!(
        text.matches("<details><summary>stale-path-cite").count(),
        2,
        "{text}"
    );
}

#[test]
fn a_summary_stays_under_a_mebibyte_and_says_what_it_cut() {
    let repo = drifted(6_000, 0);
    let output = repo
        .recount(&["check", "--format", "markdown"])
        .output()
        .expect("runs");
    let text = stdout(&output);
    assert!(text.len() < 1024 * 1024, "{} bytes", text.len());
    assert!(
        text.contains("more findings not shown**: a step summary holds at most 1 MiB"),
        "{}",
        &text[text.len().saturating_sub(2000)..]
    );
}

#[test]
fn a_clean_run_says_so_in_the_summary() {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    let output = repo
        .recount(&["check", "--format", "markdown"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("✅ clean"), "{}", stdout(&output));
}

/// Whether `sarif` is a document `schemas/sarif.schema.json` (SARIF 2.1.0 as
/// recount writes it) accepts; the validator's refusal when not.
pub(crate) fn sarif_verdict(sarif: &str) -> Result<(), String> {
    let set = recount::validation::SchemaSet::from_files([(
        "sarif.schema.json",
        recount::report::sarif::SARIF_SCHEMA,
    )])
    .expect("the SARIF schema loads");
    let verdict =
        recount::validation::verdict(&set, "sarif.schema.json", sarif.as_bytes()).expect("checks");
    if verdict.is_accepted() {
        Ok(())
    } else {
        Err(format!("{verdict:?}"))
    }
}

fn sarif_of(repo: &crate::support::Repo, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["check", "--format", "sarif"];
    all.extend_from_slice(args);
    let output = repo.recount(&all).output().expect("runs");
    let text = stdout(&output);
    if let Err(refusal) = sarif_verdict(&text) {
        panic!("SARIF refused by the schema ({refusal}):\n{text}");
    }
    serde_json::from_str(&text).expect("SARIF is JSON")
}

#[test]
fn sarif_is_sarif_2_1_0_in_every_shape_it_takes() {
    // Findings in records, in a schema and in a shipped pack.
    let adr = build("adr-0031");
    let sarif = sarif_of(&adr, &[]);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let in_pack = results
        .iter()
        .find(|r| r["ruleId"] == "stale-pin")
        .expect("the pin the pack holds");
    let artifact = &in_pack["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "adr-0031.toml");
    assert_eq!(artifact["uriBaseId"], "RECOUNT_PACKS");
    assert!(
        sarif["runs"][0]["originalUriBaseIds"]["RECOUNT_PACKS"]["description"]["text"].is_string()
    );
    // A file name with a space and a `#` is percent-encoded.
    let repo = drifted(1, 0);
    std::fs::rename(
        repo.path().join("docs/drift.md"),
        repo.path().join("docs/the drift#1.md"),
    )
    .expect("rename");
    let sarif = sarif_of(&repo, &[]);
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "docs/the%20drift%231.md"
    );
    // Suppressed results, and a run that could not start.
    sarif_of(&build("suppressions"), &[]);
    let sarif = sarif_of(&adr, &["--rev", "no-such-revision"]);
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
    // Under a baseline, what remains is new.
    let baseline = adr.path().join("baseline.json");
    let written = adr
        .recount(&[
            "check",
            "--write-baseline",
            "baseline.json",
            "--rev",
            &adr.oid("06"),
        ])
        .output()
        .expect("runs");
    assert_eq!(
        written.status.code(),
        Some(0),
        "{}",
        crate::support::stderr(&written)
    );
    assert!(baseline.exists());
    let sarif = sarif_of(&adr, &["--baseline", "baseline.json"]);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    assert!(results.iter().all(|r| r["baselineState"] == "new"));
}

#[test]
fn the_sarif_schema_refuses_what_sarif_does_not_allow() {
    let good = r#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"recount"}},"results":[
        {"message":{"text":"m"},"level":"error","locations":[{"physicalLocation":{
        "artifactLocation":{"uri":"docs/a%20b.md"},"region":{"startLine":1,"startColumn":1}}}]}]}]}"#;
    assert_eq!(sarif_verdict(good), Ok(()));
    for bad in [
        good.replace("\"error\"", "\"fatal\""),
        good.replace("docs/a%20b.md", "docs/a b.md"),
        good.replace("partial", "x")
            .replace("\"level\"", "\"severity\""),
        good.replace("\"startLine\":1", "\"startLine\":0"),
        good.replace("2.1.0", "2.0.0"),
    ] {
        assert!(sarif_verdict(&bad).is_err(), "accepted: {bad}");
    }
}

/// Whether the `facts` or `cites` document `text` is one its schema (which
/// refers into the report schema) accepts.
fn listing_accepted(schema: &str, text: &str) -> bool {
    let set = recount::validation::SchemaSet::from_files([
        ("report.schema.json", recount::report::json::REPORT_SCHEMA),
        ("facts.schema.json", recount::report::json::FACTS_SCHEMA),
        ("cites.schema.json", recount::report::json::CITES_SCHEMA),
    ])
    .expect("the schemas load");
    recount::validation::verdict(&set, schema, text.as_bytes())
        .expect("checks")
        .is_accepted()
}

#[test]
fn facts_and_cites_print_documents_their_schemas_describe() {
    let repo = build("adr-0031");
    for (command, extra, schema, list) in [
        ("facts", None, "facts.schema.json", "facts"),
        ("cites", None, "cites.schema.json", "citations"),
        ("cites", Some("--written"), "cites.schema.json", "citations"),
    ] {
        let run = || {
            let at = repo.oid("06");
            let mut args = vec![command, "--format", "json", "--rev", &at];
            args.extend(extra);
            let output = repo.recount(&args).output().expect("runs");
            assert_eq!(output.status.code(), Some(0));
            stdout(&output)
        };
        let text = run();
        assert_eq!(
            run(),
            text,
            "{command}: the same input gives the same bytes"
        );
        assert!(listing_accepted(schema, &text), "{command}:\n{text}");
        let document: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(document["schema_version"], 1);
        assert_eq!(document["snapshot"]["commit"], repo.oid("06"));
        assert!(!document[list].as_array().expect("list").is_empty());
        // The schema holds the shape: a document without its list is refused.
        let mut cut = document.clone();
        cut.as_object_mut().expect("object").remove(list);
        assert!(!listing_accepted(schema, &cut.to_string()), "{command}");
    }
}

#[test]
fn every_format_has_its_golden_output_over_the_same_run() {
    let repo = build("adr-0031");
    let at = repo.oid("06");
    for format in [
        "human", "json", "sarif", "github", "markdown", "junit", "gitlab",
    ] {
        let run = || {
            let output = repo
                .recount(&["check", "--format", format, "--rev", &at])
                .output()
                .expect("runs");
            assert_eq!(output.status.code(), Some(1), "{format}");
            stdout(&output)
        };
        let text = run();
        assert_eq!(run(), text, "{format}: two runs, the same bytes");
        insta::assert_snapshot!(format!("format__{format}"), text);
    }
}

/// One `check` process writes every format a CI job needs: each `--output`
/// file holds what `--format` of that name prints, byte for byte, and the
/// terminal keeps its own format.
#[test]
fn one_run_writes_several_formats_with_output() {
    let repo = build("adr-0031");
    let at = repo.oid("06");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = |name: &str| dir.path().join(name).display().to_string();
    let (sarif, markdown, json) = (file("r.sarif"), file("summary.md"), file("r.json"));
    let output = repo
        .recount(&[
            "check",
            "--format",
            "github",
            "--rev",
            &at,
            "--output",
            &format!("sarif={sarif}"),
            "--output",
            &format!("markdown={markdown}"),
            "--output",
            &format!("json={json}"),
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let alone = |format: &str| {
        stdout(
            &repo
                .recount(&["check", "--format", format, "--rev", &at])
                .output()
                .expect("runs"),
        )
    };
    assert_eq!(stdout(&output), alone("github"));
    for (path, format) in [(&sarif, "sarif"), (&markdown, "markdown"), (&json, "json")] {
        assert_eq!(
            std::fs::read_to_string(path).expect("written"),
            alone(format),
            "{format}"
        );
    }
    // One path given twice, however spelled, is refused before the run: the
    // second format would silently replace the first.
    let twice = repo
        .recount(&[
            "check",
            "--rev",
            &at,
            "--output",
            &format!("sarif={sarif}"),
            "--output",
            &format!("json={}/./r.sarif", dir.path().display()),
        ])
        .output()
        .expect("runs");
    assert_eq!(twice.status.code(), Some(2), "{}", stderr(&twice));
    assert!(stderr(&twice).contains("twice"), "{}", stderr(&twice));
    // A spec that is not FORMAT=PATH, or names no format, is a usage error;
    // a file in `.git` is refused.
    for bad in ["sarif", "xml=r.xml", "json="] {
        let output = repo
            .recount(&["check", "--output", bad])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
    let output = repo
        .recount(&["check", "--output", "json=.git/recount.json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(!repo.path().join(".git/recount.json").exists());
}

/// Whether `report` is a document `schemas/gitlab-codequality.schema.json`
/// (GitLab's required fields of an issue) accepts.
fn gitlab_accepted(report: &str) -> bool {
    let set = recount::validation::SchemaSet::from_files([(
        "gitlab-codequality.schema.json",
        recount::report::gitlab::CODEQUALITY_SCHEMA,
    )])
    .expect("the code-quality schema loads");
    recount::validation::verdict(&set, "gitlab-codequality.schema.json", report.as_bytes())
        .expect("checks")
        .is_accepted()
}

/// GitLab's code-quality report in each shape a run gives it (findings, a
/// clean run, a run that could not finish) is what GitLab requires, and its
/// fingerprints tell every issue apart.
#[test]
fn the_gitlab_report_is_codequality_in_every_shape() {
    let adr = build("adr-0031");
    let at = adr.oid("06");
    for args in [
        vec!["--rev", at.as_str()],
        vec!["--rev", adr.oid("04").as_str()],
        vec!["--rev", "no-such-revision"],
    ] {
        let mut all = vec!["check", "--format", "gitlab"];
        all.extend_from_slice(&args);
        let output = adr.recount(&all).output().expect("runs");
        let text = stdout(&output);
        assert!(gitlab_accepted(&text), "{args:?}:\n{text}");
        let issues: Vec<serde_json::Value> = serde_json::from_str(&text).expect("JSON");
        let prints: std::collections::BTreeSet<&str> = issues
            .iter()
            .filter_map(|i| i["fingerprint"].as_str())
            .collect();
        assert_eq!(prints.len(), issues.len(), "{args:?}: fingerprints unique");
        match output.status.code() {
            Some(0) => assert!(issues.is_empty(), "{text}"),
            Some(1) => assert!(!issues.is_empty(), "{text}"),
            _ => assert_eq!(issues[0]["severity"], "blocker", "{text}"),
        }
    }
    for bad in [
        r#"[{"description": "x", "check_name": "a", "fingerprint": "zz", "severity": "minor", "location": {"path": "a.md", "lines": {"begin": 1}}}]"#,
        r#"[{"description": "x", "check_name": "a", "fingerprint": "0123456789abcdef", "severity": "warning", "location": {"path": "a.md", "lines": {"begin": 1}}}]"#,
        r#"[{"description": "x", "check_name": "a", "fingerprint": "0123456789abcdef", "severity": "minor", "location": {"path": "a.md"}}]"#,
    ] {
        assert!(!gitlab_accepted(bad), "accepted: {bad}");
    }
}

/// The JUnit report reads back as XML a CI panel takes: its counts agree with
/// its cases, each finding one failed case at its file and line; a clean run
/// one passing case; a run that could not finish one error. Text from the
/// records, hostile or not, stays character data.
#[test]
fn the_junit_report_is_xml_a_test_panel_reads() {
    let junit = |repo: &crate::support::Repo, args: &[&str]| -> (i32, String) {
        let mut all = vec!["check", "--format", "junit"];
        all.extend_from_slice(args);
        let output = repo.recount(&all).output().expect("runs");
        (output.status.code().expect("exit"), stdout(&output))
    };
    let adr = build("adr-0031");
    let at = adr.oid("06");
    for (args, failures, errors) in [
        (vec!["--rev", at.as_str()], None, 0),
        (vec!["--rev", adr.oid("04").as_str()], Some(0), 0),
        (vec!["--rev", "no-such-revision"], Some(0), 1),
    ] {
        let (code, text) = junit(&adr, &args);
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{args:?}: not XML ({e}):\n{text}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        let count = |name: &str| -> usize {
            root.attribute(name)
                .and_then(|v| v.parse().ok())
                .expect("a count")
        };
        let cases: Vec<_> = root
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let failed = cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
            .count();
        assert_eq!(count("tests"), cases.len(), "{args:?}");
        assert_eq!(count("failures"), failed, "{args:?}");
        assert_eq!(count("errors"), errors, "{args:?}");
        if let Some(expected) = failures {
            assert_eq!(failed, expected, "{args:?}");
        } else {
            assert!(failed > 0 && code == 1, "{args:?}: {text}");
            assert!(cases.iter().all(|c| {
                c.attribute("file").is_some()
                    && c.attribute("line")
                        .is_some_and(|l| l.parse::<usize>().is_ok())
            }));
        }
    }
    // Hostile record text: markup, entities and controls stay text.
    let repo = build("adr-0031");
    repo.write(
        "docs/evil.md",
        "# Evil\n\nSee `src/<script>&amp;\u{1b}[31m\"'gone.py` for it.\n",
    );
    let (_, text) = junit(&repo, &[]);
    let doc = roxmltree::Document::parse(&text).expect("hostile text stays XML");
    assert!(
        !text.contains('\u{1b}'),
        "a control character is shown escaped"
    );
    assert!(doc.descendants().all(|n| !n.has_tag_name("script")));
}
