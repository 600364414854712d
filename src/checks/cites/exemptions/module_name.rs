//! Exemption `module-name`, asked by the test-id resolver for a pytest
//! module id (`pkg.test_cli::test_x`): one whose module names no file here
//! is a dotted name in prose, not a test file of this repository. A reading
//! of the name: the history overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A dotted test id (`pkg.mod.TestX`) whose module names no file here: a name in code, not a test file of this repository.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a module id is a name and not a test file, if it is: no file of the
/// tree is the module's (`files`, its candidates, is empty).
pub(in crate::checks::cites) fn fires(
    files: &[String],
    module: &str,
    path: &str,
) -> Option<String> {
    files.is_empty().then(|| {
        format!("no module `{path}` here: `{module}` is a name, not a test file of this repository")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_when_no_file_is_the_module() {
        assert!(fires(&[], "pkg.test_cli", "pkg/test_cli.py").is_some());
    }

    #[test]
    fn stays_quiet_when_a_file_is() {
        let files = vec!["tests/pkg/test_cli.py".to_owned()];
        assert_eq!(fires(&files, "pkg.test_cli", "pkg/test_cli.py"), None);
    }
}
