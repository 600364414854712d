//! Exemption `test-material`, decided where records are chosen (`scope.rs`
//! asks it): a fixture or a test's data is the test's input, not the
//! project's documentation. The tree's own shape: the history does not
//! overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record under a test folder's fixtures or test data (`tests/data/`, `testdata/`, `fixtures/`): test material, whose links are the test's input, not documentation. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Whether a record is test material — a fixture or a test's data — rather
/// than the project's documentation: its citations are of the test's world.
pub(crate) fn is_test_material(record: &str) -> bool {
    let segments: Vec<String> = record.split('/').map(str::to_ascii_lowercase).collect();
    let folders = &segments[..segments.len().saturating_sub(1)];
    let name = segments.last().map_or("", String::as_str);
    let test_at = folders.iter().position(|s| {
        [
            "tests",
            "test",
            "testsuite",
            "test-suite",
            "integration-tests",
            "integration_tests",
            "__tests__",
            "e2e",
        ]
        .contains(&s.as_str())
    });
    // A test suite's own README explains the suite; any other page under a
    // test folder's subfolders is a case's input (a test book, a page to render).
    let readme = name.starts_with("readme");
    folders.iter().any(|s| {
        [
            "fixtures",
            "testdata",
            "test-data",
            "test_data",
            "__fixtures__",
            "snapshots",
        ]
        .contains(&s.as_str())
    }) || test_at.is_some_and(|i| {
        folders[i + 1..]
            .iter()
            .any(|s| s == "data" || s == "expected")
            || (!readme && folders.len() > i + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_under_fixtures_and_a_test_suites_cases() {
        assert!(is_test_material("tests/testsuite/book/src/SUMMARY.md"));
        assert!(is_test_material(
            "packages/core/integration-tests/ro-project/docs/adr/x.md"
        ));
        assert!(is_test_material("src/__tests__/cases/page.md"));
        assert!(is_test_material("crates/x/tests/fixtures/page.md"));
    }

    #[test]
    fn stays_quiet_for_a_suites_readme_and_the_docs() {
        assert!(!is_test_material("tests/README.md"));
        assert!(!is_test_material("docs/testing.md"));
    }
}
