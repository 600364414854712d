//! The fixture modelled on the motivating ADR: clean where the record is true,
//! exactly the dependent claims drifting where a constant moved.

use serde_json::Value;

use crate::support::{build, json_report, stdout};

const ADR: &str = "docs/adr/0031-tool-input-validation.md";

/// (check, path, line, column) of every finding.
fn findings(report: &Value) -> Vec<(String, String, u64, u64)> {
    crate::support::findings(report)
        .into_iter()
        .map(|(check, path, line, column, _)| (check, path, line, column))
        .collect()
}

#[test]
fn the_record_is_clean_at_the_commit_where_it_is_true() {
    let repo = build("adr-0031");
    let at = repo.oid("04");
    let (code, report) = json_report(&repo, &["--rev", &at]);
    assert_eq!(findings(&report), vec![], "{report:#}");
    assert_eq!(code, 0);
    // Every fact is stated somewhere and every statement agrees.
    for fact in report["facts"].as_array().expect("facts") {
        assert_eq!(fact["claims"]["drifted"], 0, "{fact:#}");
    }
    let stated: u64 = report["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .map(|f| f["claims"]["found"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(stated, 23, "every claim in the pack found its sentence");
}

#[test]
fn raising_one_constant_drifts_exactly_the_claims_that_depend_on_it() {
    let repo = build("adr-0031");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("05")]);
    assert_eq!(code, 1);
    assert_eq!(
        findings(&report),
        vec![
            ("fact-drift".to_owned(), ADR.to_owned(), 59, 20),
            ("fact-drift".to_owned(), ADR.to_owned(), 61, 4),
        ],
        "{report:#}"
    );
    let body = &report["findings"][0];
    assert_eq!(body["fact"], "body-cap");
    assert_eq!(body["stated"], "26,214,400 bytes");
    assert_eq!(body["observed"], "32,505,856 bytes");
    let file = &report["findings"][1];
    assert_eq!(file["fact"], "file-cap");
    assert_eq!(file["stated"], "8 MiB");
    assert_eq!(file["observed"], "10 MiB");
}

#[test]
fn the_human_report_underlines_the_stated_value_and_gives_the_recipe() {
    let repo = build("adr-0031");
    let at = repo.oid("05");
    let output = repo
        .recount(&["check", "--rev", &at])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains("fact-drift"), "{text}");
    assert!(text.contains(&format!("[{ADR}:59:20]")), "{text}");
    assert!(text.contains("the tree has 32,505,856 bytes"), "{text}");
    assert!(
        text.contains(&format!("recomputed by expr at {}", &at[..8])),
        "{text}"
    );
    assert!(text.contains("2 findings (2 fact-drift)"), "{text}");
    assert!(!text.contains('\u{1b}'), "NO_COLOR output has no escapes");
}

#[test]
fn rewording_a_sentence_is_a_claim_not_found_never_a_silent_pass() {
    let repo = build("adr-0031");
    let text = repo
        .read(ADR)
        .replace("holds **eight** files", "has eight files in it");
    repo.write(ADR, &text);
    let at = repo.oid("04");
    // The working tree carries the reworded record; audit it as it stands.
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let not_found: Vec<_> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "claim-not-found")
        .collect();
    assert_eq!(not_found.len(), 1, "{report:#}");
    assert_eq!(not_found[0]["fact"], "mcp-schema-files");
    assert_eq!(not_found[0]["location"]["path"], ADR);
    // At the commit, the old wording is still there and nothing is missing.
    let (code, _) = json_report(&repo, &["--rev", &at]);
    assert_eq!(code, 0);
}

#[test]
fn a_constant_that_no_longer_equals_its_derivation_is_an_equals_mismatch() {
    let repo = build("adr-0031");
    let server = "packages/quarry-core/src/quarry/daemon/server.py";
    let text = repo
        .read(server)
        .replace("3 * _FILE_CAP + _ENVELOPE_ALLOWANCE", "26_214_400");
    repo.write(server, &text);
    let (_, report) = json_report(&repo, &[]);
    let mismatch: Vec<_> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "equals-mismatch")
        .collect();
    assert_eq!(mismatch.len(), 1, "{report:#}");
    assert_eq!(mismatch[0]["fact"], "body-cap");
    assert_eq!(mismatch[0]["observed"], "32,505,856");
    assert_eq!(mismatch[0]["stated"], "26,214,400");
}

#[test]
fn a_listing_line_that_moved_is_one_finding_at_the_block_with_a_diff() {
    let repo = build("adr-0031");
    let text = repo
        .read(ADR)
        .replace("schemas/README.md:7", "schemas/README.md:8");
    repo.write(ADR, &text);
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let listing: Vec<_> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["fact"] == "tool-context-refs")
        .collect();
    assert_eq!(listing.len(), 1, "one finding for the block: {report:#}");
    let finding = listing[0];
    assert_eq!(finding["check"], "fact-drift");
    assert_eq!(finding["diff"]["added"], 1);
    assert_eq!(finding["diff"]["removed"], 1);
    assert_eq!(finding["diff"]["more"], 0);
    // The listed line the tree no longer has, then the hit the block lacks.
    let lines: Vec<&str> = finding["diff"]["lines"]
        .as_array()
        .expect("diff lines")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("-schemas/README.md:8"), "{lines:?}");
    assert!(lines[1].starts_with("+schemas/README.md:7"), "{lines:?}");
    assert!(
        finding["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1 line added, 1 removed"),
        "{finding:#}"
    );
    // Located at the block's command line, before the line that moved.
    assert!(
        finding["location"]["line"].as_u64() < Some(29),
        "{finding:#}"
    );
}

#[test]
fn the_grep_fact_agrees_with_git_grep_on_the_same_tree() {
    let repo = build("adr-0031");
    for commit in ["01", "03", "05"] {
        let oid = repo.oid(commit);
        let git = std::process::Command::new("git")
            .current_dir(repo.path())
            .args([
                "grep",
                "-n",
                "tool-context",
                &oid,
                "--",
                "packages",
                "schemas",
                "docs",
                "tools",
            ])
            .output()
            .expect("git runs");
        let expected: Vec<String> = stdout(&git)
            .lines()
            .map(|l| {
                let mut parts = l.splitn(4, ':');
                let (_, path, line) = (
                    parts.next(),
                    parts.next().unwrap_or(""),
                    parts.next().unwrap_or(""),
                );
                format!("{path}:{line}")
            })
            .collect();
        repo.write(
            "grep.toml",
            &format!(
                "[[fact]]\nid = \"refs\"\nat = \"{oid}\"\ngrep = \"tool-context\"\npaths = [\"packages\", \"schemas\", \"docs\", \"tools\"]\n"
            ),
        );
        let output = repo
            .recount(&["facts", "--format", "json", "--rules", "grep.toml"])
            .output()
            .expect("runs");
        let facts: Value = serde_json::from_str(&stdout(&output)).expect("json");
        let listing: Vec<String> = facts["facts"][0]["listing"]
            .as_array()
            .expect("listing")
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(listing, expected, "at {commit}");
        assert!(!expected.is_empty());
    }
}

#[test]
fn the_json_report_validates_against_its_published_schema() {
    // Through recount's own validation core, as recount validates its rule files.
    let set = recount::validation::SchemaSet::from_files([(
        "report.schema.json",
        recount::report::json::REPORT_SCHEMA,
    )])
    .expect("the report schema loads");
    let repo = build("adr-0031");
    for extra in [vec![], vec!["--rev".to_owned(), repo.oid("04")]] {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let (_, report) = json_report(&repo, &extra);
        let bytes = serde_json::to_vec(&report).expect("serialises");
        let verdict =
            recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
        assert!(verdict.is_accepted(), "{verdict:?}");
    }
    // And the check can fail: a report with an unknown check id is refused.
    let (_, mut report) = json_report(&repo, &[]);
    report["findings"][0]["check"] = Value::from("no-such-check");
    let bytes = serde_json::to_vec(&report).expect("serialises");
    let verdict = recount::validation::verdict(&set, "report.schema.json", &bytes).expect("checks");
    assert!(!verdict.is_accepted());
}

#[test]
fn a_run_leaves_the_repository_byte_identical() {
    let repo = build("adr-0031");
    let before = repo.contents();
    let _ = repo.recount(&["check"]).output().expect("runs");
    let _ = repo
        .recount(&["check", "--rev", "HEAD~1", "--format", "json"])
        .output()
        .expect("runs");
    let _ = repo.recount(&["facts"]).output().expect("runs");
    assert!(before == repo.contents(), "the audited repository changed");
}

#[test]
fn the_same_input_gives_byte_identical_output() {
    let repo = build("adr-0031");
    let first = repo.recount(&["check"]).output().expect("runs");
    let second = repo.recount(&["check"]).output().expect("runs");
    assert_eq!(first.stdout, second.stdout);
    let first = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    let second = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn facts_prints_the_table_alone() {
    let repo = build("adr-0031");
    let output = repo.recount(&["facts"]).output().expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "facts reports values, not findings"
    );
    let text = stdout(&output);
    for id in [
        "body-cap",
        "render-ceiling-ratio",
        "tool-context-refs",
        "project-id-faces",
    ] {
        assert!(text.contains(id), "{text}");
    }
    assert!(text.contains("32,505,856"), "{text}");
    assert!(text.contains("77b14e7a"), "frames are shown: {text}");
    assert!(!text.contains("fact-drift"), "{text}");
}

#[test]
fn a_composition_cell_that_misstates_the_verdict_drifts() {
    let repo = build("adr-0031");
    let text = repo.read(ADR).replace(
        "| `allOf: [{$ref}]`, `additionalProperties: false` | rejects the valid call | rejects",
        "| `allOf: [{$ref}]`, `additionalProperties: false` | rejects the valid call | accepts",
    );
    repo.write(ADR, &text);
    let (_, report) = json_report(&repo, &[]);
    let cell: Vec<_> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["fact"] == "allof-additional-open-valid")
        .collect();
    assert_eq!(cell.len(), 1, "{report:#}");
    assert_eq!(cell[0]["stated"], "accepts");
    assert_eq!(cell[0]["observed"], "rejects");
    assert_eq!(cell[0]["recipe"]["kind"], "validate");
}

#[test]
fn a_claim_whose_glob_selects_no_record_is_reported_at_the_rule() {
    let repo = build("adr-0031");
    repo.write(
        "moved.toml",
        "[[fact]]\nid = \"mcp-schema-files\"\nfiles = \"schemas/mcp/*.json\"\nclaims = [{ in = \"docs/decisions/*.md\", says = 'holds (?<value>\\w+) files' }]\n",
    );
    let output = repo
        .recount(&["check", "--format", "json", "--rules", "moved.toml"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let not_found: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "claim-not-found")
        .collect();
    assert_eq!(not_found.len(), 1, "{report:#}");
    assert_eq!(not_found[0]["location"]["path"], "moved.toml");
    assert_eq!(not_found[0]["location"]["line"], 4);
    assert!(
        not_found[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("no record matches docs/decisions/*.md")
    );
}
