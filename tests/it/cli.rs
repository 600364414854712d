//! The CLI as documented: every check is explained in the fixed sections, every
//! schema key is described, the book's worked example is what recount prints,
//! colour follows `--color` and `NO_COLOR`.

use serde_json::Value;

use crate::support::{build, stdout};

fn recount(args: &[&str]) -> std::process::Output {
    assert_cmd::Command::cargo_bin("recount")
        .expect("binary")
        .env("NO_COLOR", "1")
        .env("RECOUNT_CACHE_DIR", "")
        .env_remove("COLUMNS")
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn the_check_ids_are_stable() {
    let ids: Vec<&str> = recount::checks::CheckId::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    insta::assert_snapshot!(ids.join("\n"), @r"
    fact-drift
    claim-not-found
    equals-mismatch
    frame-unreachable
    frame-unresolved
    input-missing
    stale-test-cite
    stale-line-cite
    stale-path-cite
    retired-claim
    unpinned-bound
    stale-pin
    config-unmatched
    unused-suppression
    transcript-drift
    ");
    // The report schema allows exactly these ids.
    let schema: Value = serde_json::from_str(recount::report::json::REPORT_SCHEMA).expect("schema");
    let allowed: Vec<&str> = schema["$defs"]["finding"]["properties"]["check"]["enum"]
        .as_array()
        .expect("enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(allowed, ids);
}

#[test]
fn every_check_is_explained_in_the_fixed_sections() {
    for check in recount::checks::CheckId::ALL {
        let output = recount(&["explain", check.as_str()]);
        assert_eq!(output.status.code(), Some(0));
        let text = stdout(&output);
        assert!(text.starts_with(check.as_str()), "{text}");
        let mut last = 0;
        for section in ["What it checks", "Why", "Example", "How to fix"] {
            let at = text
                .find(&format!("\n{section}\n"))
                .unwrap_or_else(|| panic!("{check}: no {section}"));
            assert!(at > last, "{check}: sections out of order");
            last = at;
        }
    }
    let unknown = recount(&["explain", "no-such-check"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn every_schema_property_has_a_description() {
    let schema: Value = serde_json::from_str(recount::rules::load::RULES_SCHEMA).expect("schema");
    let mut stack = vec![("".to_owned(), &schema)];
    let mut missing = Vec::new();
    while let Some((path, node)) = stack.pop() {
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            for (key, sub) in props {
                if sub.get("description").is_none() && sub.get("$ref").is_none() {
                    missing.push(format!("{path}/{key}"));
                }
                stack.push((format!("{path}/{key}"), sub));
            }
        }
        if let Some(defs) = node.get("$defs").and_then(Value::as_object) {
            for (key, sub) in defs {
                stack.push((format!("{path}/$defs/{key}"), sub));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn the_rule_model_accepts_exactly_the_schema_keys() {
    // A rule file using every key deserialises; the serde model and the schema agree.
    let text = r#"
[recount]
include = []
records = ["*.md"]
[constants]
A = { file = "a.py", name = "B" }
[[fact]]
id = "x"
description = "d"
at = "HEAD"
equals = "1"
grep = "p"
paths = ["."]
exclude = ["b"]
regex = false
ignore_case = false
claims = [{ in = "*.md", says = '(?<value>\d+)', field = "value" }, { listing = "x" }]
[[fact]]
id = "y"
json = "*.json"
pointer = "/a"
[[fact]]
id = "z"
json = "*.json"
keyword = "k"
within = "w"
[[fact]]
id = "w"
entries = "E"
file = "f.py"
[checks]
stale-path-cite = "warning"
retired-claim = "off"
fact-drift = "error"
"#;
    let set = recount::rules::load::load_text("all.toml", text).expect("loads");
    assert_eq!(set.facts.len(), 4);
    assert_eq!(set.checks.len(), 3);
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let repo = build("adr-0031");
    let never = repo
        .recount(&["--color", "never", "check"])
        .output()
        .expect("runs");
    assert!(!stdout(&never).contains('\u{1b}'));
    let always = repo
        .recount(&["--color", "always", "check"])
        .output()
        .expect("runs");
    assert!(
        stdout(&always).contains('\u{1b}'),
        "--color always colours even off a terminal"
    );
    // auto: not a terminal here, so no colour whatever NO_COLOR says
    let auto = repo
        .recount(&["check"])
        .env_remove("NO_COLOR")
        .output()
        .expect("runs");
    assert!(!stdout(&auto).contains('\u{1b}'));
    // unless the environment forces it, as CI logs that show colour do;
    // FORCE_COLOR=0 forces nothing.
    for (name, value) in [("FORCE_COLOR", "1"), ("CLICOLOR_FORCE", "1")] {
        let forced = repo
            .recount(&["check"])
            .env_remove("NO_COLOR")
            .env(name, value)
            .output()
            .expect("runs");
        assert!(stdout(&forced).contains('\u{1b}'), "{name}={value}");
    }
    let zero = repo
        .recount(&["check"])
        .env_remove("NO_COLOR")
        .env("FORCE_COLOR", "0")
        .output()
        .expect("runs");
    assert!(!stdout(&zero).contains('\u{1b}'));
}

#[test]
fn the_book_states_the_live_refusal_ceiling() {
    // REFUSAL_CEILING is computed by a const block over the templates, which the
    // constant reader rightly refuses to evaluate; this test pins the book's figure.
    let ceiling = recount::validation::refusal::REFUSAL_CEILING;
    assert!(
        crate::book::page("validation.md").contains(&format!(
            "no refusal message is longer than {ceiling} characters"
        )),
        "the book must state the refusal ceiling {ceiling}"
    );
}

#[test]
fn completions_and_the_man_page_come_from_the_same_definitions() {
    let bash = recount(&["completions", "bash"]);
    assert_eq!(bash.status.code(), Some(0));
    assert!(stdout(&bash).contains("recount"));
    assert!(
        stdout(&bash).contains("cites"),
        "every subcommand completes"
    );
    let man = recount(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    assert!(stdout(&man).starts_with(".ie"), "{}", stdout(&man));
    assert!(stdout(&man).contains("validate"));
}

#[test]
fn the_worked_example_is_what_recount_prints() {
    let page = crate::book::page("worked-example.md");
    let marker = "The second run reports";
    let after = &page[page.find(marker).expect("worked example")..];
    let start = after.find("```text\n").expect("example block") + "```text\n".len();
    let block = &after[start..start + after[start..].find("```").expect("block end")];
    let repo = build("adr-0031");
    // `recount check --rev HEAD~3`, as the book runs it.
    let output = repo
        .recount(&["check", "--rev", "HEAD~3"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let printed = stdout(&output);
    assert!(
        printed.starts_with(block),
        "the book:\n{block}\nprinted:\n{printed}"
    );
    // The front page shows the same finding.
    let front =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let after = &front[front
        .find("## What a finding looks like")
        .expect("the finding")..];
    let start = after.find("```text\n").expect("a block") + "```text\n".len();
    let shown = &after[start..start + after[start..].find("```").expect("block end")];
    assert!(
        printed.starts_with(shown),
        "README:\n{shown}\nprinted:\n{printed}"
    );
    let clean = repo
        .recount(&["check", "--rev", "HEAD~4"])
        .output()
        .expect("runs");
    assert_eq!(
        clean.status.code(),
        Some(0),
        "the book says HEAD~4 is clean"
    );
    // The third run, on main: the amendment's frame is gone.
    let marker = "(a third stale-test-cite):";
    let after = &page[page.find(marker).expect("third run")..];
    let start = after.find("```text\n").expect("example block") + "```text\n".len();
    let block = &after[start..start + after[start..].find("```").expect("block end")];
    let main = repo.recount(&["check"]).output().expect("runs");
    assert_eq!(main.status.code(), Some(1));
    let printed = stdout(&main);
    assert!(
        printed.contains(block),
        "the book:\n{block}\nprinted:\n{printed}"
    );
}

#[test]
fn select_and_ignore_run_only_the_checks_named() {
    // 02 of the fixture has a line cite that moved and a mistyped path.
    let repo = build("sample-output-and-plans");
    let rev = repo.oid("02");
    let checks = |extra: &[&str]| -> (i32, Vec<String>) {
        let mut args = vec!["check", "--format", "json", "--rev", rev.as_str()];
        args.extend_from_slice(extra);
        let output = repo.recount(&args).output().expect("runs");
        let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
        let mut ids: Vec<String> = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter_map(|f| f["check"].as_str().map(str::to_owned))
            .collect();
        ids.sort();
        (output.status.code().expect("exit"), ids)
    };
    assert_eq!(checks(&[]).1, ["stale-line-cite", "stale-path-cite"]);
    assert_eq!(
        checks(&["--ignore", "stale-line-cite"]).1,
        ["stale-path-cite"]
    );
    assert_eq!(
        checks(&["--select", "stale-line-cite"]).1,
        ["stale-line-cite"]
    );
    // Both: the selection, less what is ignored; nothing left is a clean run.
    assert_eq!(
        checks(&[
            "--select",
            "stale-line-cite,stale-path-cite",
            "--ignore",
            "stale-line-cite"
        ])
        .1,
        ["stale-path-cite"]
    );
    assert_eq!(
        checks(&["--ignore", "stale-line-cite,stale-path-cite"]),
        (0, vec![])
    );
    // An id no check has stops the run, with the one it most likely meant.
    let typo = repo
        .recount(&["check", "--rev", rev.as_str(), "--select", "stale-lin-cite"])
        .output()
        .expect("runs");
    assert_eq!(typo.status.code(), Some(2));
    let said = String::from_utf8_lossy(&typo.stderr);
    assert!(
        said.contains("--select names no check `stale-lin-cite`"),
        "{said}"
    );
    assert!(said.contains("did you mean `stale-line-cite`?"), "{said}");
}
