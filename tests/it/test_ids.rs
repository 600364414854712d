//! Test ids as records write them on real repositories: a class alone, a
//! module's name for its file, a helper, a shorthand after a non-test file, and
//! cases a collector makes of a data file — each valid form quiet beside a
//! stale one that still fires.

use serde_json::Value;

use crate::support::{build, stdout};

#[test]
fn every_shape_of_test_id_is_read_as_pytest_reads_it() {
    let repo = build("pytest-ids");
    let output = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let seen: Vec<(String, String, String)> = cites["citations"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|c| c["kind"] == "test")
        .map(|c| {
            let status = &c["status"];
            let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            let detail = match s(&status["status"]).as_str() {
                "ok" => s(&status["resolved"]),
                "stale" => s(&status["suggestion"]),
                _ => String::new(),
            };
            (s(&c["text"]), s(&status["status"]), detail)
        })
        .collect();
    let row = |text: &str, status: &str, detail: &str| {
        (text.to_owned(), status.to_owned(), detail.to_owned())
    };
    assert_eq!(
        seen,
        [
            row(
                "tests/unit/test_suite.py::TestSuite",
                "ok",
                "tests/unit/test_suite.py::TestSuite (a class: its tests)"
            ),
            row(
                "tests/unit/test_suite.py::TestSuite::TestNested::test_deep",
                "ok",
                "tests/unit/test_suite.py::TestSuite::TestNested::test_deep"
            ),
            row("tests/unit/test_suite.py::TestSuites", "stale", "TestSuite"),
            row(
                "test_cli::test_exit_code",
                "ok",
                "tests/test_cli.py::test_exit_code"
            ),
            row("test_cli::test_exit_status", "stale", ""),
            row("test_network::test_timeout", "skipped", ""),
            row(
                "src/pkg/tools.py::_helper",
                "ok",
                "src/pkg/tools.py::_helper (defined, not a test)"
            ),
            row("src/pkg/tools.py::_triple", "stale", ""),
            row(
                "tests/unit/test_suite.py::test_top",
                "ok",
                "tests/unit/test_suite.py::test_top"
            ),
            // `::test_top` after a backticked `src/pkg/tools.py`: still the test file.
            row(
                "tests/unit/test_suite.py::test_top",
                "ok",
                "tests/unit/test_suite.py::test_top"
            ),
            row("tests/unit/test_suite.py::test_bottom", "stale", ""),
            row("tests/cases/parse.yaml::empty_input", "unverified", ""),
            row("tests/cases/lex.yaml::one_token", "stale", ""),
        ]
    );

    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let fired: Vec<(u64, String)> = report["findings"]
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
    let at = |line: u64, text: &str| (line, text.to_owned());
    assert_eq!(
        fired,
        [
            at(7, "tests/unit/test_suite.py::TestSuites"),
            at(12, "test_cli::test_exit_status"),
            at(18, "src/pkg/tools.py::_triple"),
            at(24, "tests/unit/test_suite.py::test_bottom"),
            at(29, "tests/cases/lex.yaml::one_token"),
        ]
    );
}

/// `fixtures/test-id-forms`: the shape of a node id (`module.py::function`) and
/// an example's layout (`tests/foobar/…` where the suite is `testing/`) are set
/// aside; a test whose folder went is stale by its history, and one never
/// written in one of the tree's folders is stale as ever.
#[test]
fn a_node_ids_form_is_set_aside_and_a_test_of_the_tree_is_held_to_it() {
    let repo = build("test-id-forms");
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let output = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let seen: Vec<(String, String)> = cites["citations"]
        .as_array()
        .expect("list")
        .iter()
        .map(|c| {
            let status = &c["status"];
            let verdict = match status["exemption"].as_str() {
                Some(exemption) => format!("skipped: {exemption}"),
                None => status["status"].as_str().unwrap_or_default().to_owned(),
            };
            (c["text"].as_str().unwrap_or_default().to_owned(), verdict)
        })
        .collect();
    let row = |text: &str, verdict: &str| (text.to_owned(), verdict.to_owned());
    assert_eq!(
        seen,
        [
            row("module.py::function", "skipped: bare-name"),
            row("module.py::Class::method", "skipped: bare-name"),
            row("module.py::function[param]", "skipped: bare-name"),
            row("tests/foobar/test_one.py::test_a", "skipped: placeholder"),
            row("testing/test_core.py::test_count", "ok"),
            row("suite/test_io.py::test_read", "stale"),
            row("testing/test_planned.py::test_hit", "stale"),
        ]
    );
    let why = |text: &str| {
        cites["citations"]
            .as_array()
            .expect("list")
            .iter()
            .find(|c| c["text"] == text)
            .and_then(|c| c["status"]["why"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        why("suite/test_io.py::test_read").contains(&format!(
            "it resolved when the record cited it (at {written}) and was deleted in {broke}"
        )),
        "{cites}"
    );
}
