//! Output where reviewers look: GitHub annotations (ten shown per level, so
//! errors first and a notice for the rest) and the Markdown step summary (one
//! cell per value, under the 1 MiB a summary may hold, the cut said).

use crate::support::{build, stdout};

/// A repository whose record has `errors` broken links and `warnings` missing
/// backticked paths.
fn drifted(errors: usize, warnings: usize) -> crate::support::Repo {
    let repo = build("gate");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    let mut text = String::from("# Drift\n\n");
    for i in 0..warnings {
        text.push_str(&format!("The helper `src/helper_{i}.py` is gone.\n\n"));
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
