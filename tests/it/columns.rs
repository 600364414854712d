//! One line index for every format: a finding after a smart quote and an em
//! dash gets the same `line:column` (in characters) in the human report as in
//! the JSON report.

use crate::support::{Repo, build, json_report, stdout};

const ADR: &str = "docs/adr/0031-tool-input-validation.md";

fn with_cite_after_non_ascii() -> (Repo, String) {
    let repo = build("adr-0031");
    let mut text = repo.read(ADR);
    text.push_str("\n“Quoted” — and Größe — see `docs/never-written.md` here.\n");
    repo.write(ADR, &text);
    let line = text.lines().count();
    (repo, format!("{ADR}:{line}:"))
}

#[test]
fn human_and_json_reports_agree_on_a_character_column() {
    let (repo, at_line) = with_cite_after_non_ascii();
    let (_, report) = json_report(&repo, &[]);
    let finding = crate::support::findings(&report)
        .into_iter()
        .find(|f| f.0 == "stale-path-cite" && f.4.contains("never-written"))
        .unwrap_or_else(|| panic!("no stale-path-cite in {report:#}"));
    let location = format!("{}:{}:{}", finding.1, finding.2, finding.3);
    assert!(location.starts_with(&at_line), "{location} vs {at_line}");
    // "“Quoted” — and Größe — see `": 28 characters (38 bytes) before the path.
    assert_eq!(finding.3, 29, "{location}");

    let output = repo.recount(&["check"]).output().expect("runs");
    let human = stdout(&output);
    assert!(
        human.contains(&format!("[{location}]")),
        "expected [{location}] in:\n{human}"
    );
}
