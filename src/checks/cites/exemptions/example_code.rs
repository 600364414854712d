//! Exemption `example-code`, asked by the Python object resolver: a role
//! names a function or class that the page's own code defines ("by defining
//! an `index_of` function", with the `def` in the block below). A reading of
//! the page: the name is the example's, so what the packages had under that
//! name once does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A Python role's object under none of the repository's packages (`:func:`index_of``) whose first name the page's own code defines (`def index_of(` or `class index_of` in a code block or a doctest of the same page): the function or class the example has the reader write, not the packages'. A namesake the packages once had does not make it theirs, so the history does not overrule it.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a role's object is the page's example: the line of the page whose
/// code defines the name's first part.
pub(in crate::checks::cites) fn fires(text: &str, written: &str) -> Option<String> {
    let first = written.split('.').next().filter(|n| !n.is_empty())?;
    let line = text
        .lines()
        .position(|line| defined_by(line) == Some(first))?;
    Some(format!(
        "the page's own code defines `{first}` (line {}): the example's, not the packages'",
        line + 1
    ))
}

/// The name a line of Python defines with `def` or `class`, read past a
/// doctest prompt and the block's indentation.
fn defined_by(line: &str) -> Option<&str> {
    let code = line.trim_start();
    let code = code
        .strip_prefix(">>>")
        .or_else(|| code.strip_prefix("..."))
        .unwrap_or(code)
        .trim_start();
    let code = code.strip_prefix("async ").unwrap_or(code);
    let rest = code
        .strip_prefix("def ")
        .or_else(|| code.strip_prefix("class "))?
        .trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    let after = rest[end..].trim_start();
    (!name.is_empty() && (after.starts_with('(') || after.starts_with(':'))).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "Peaks\n=====\n\nFind the index by defining an :func:`index_of` function::\n\n    def index_of(arrval, value):\n        return 0\n\n>>> class Shape:\n...     pass\n";

    #[test]
    fn fires_for_a_name_the_pages_code_defines() {
        assert!(fires(PAGE, "index_of").unwrap().contains("line 6"));
        assert!(fires(PAGE, "Shape.area").unwrap().contains("line 9"));
    }

    #[test]
    fn stays_quiet_for_a_name_the_page_only_mentions() {
        assert_eq!(fires(PAGE, "index_off"), None);
        assert_eq!(fires(PAGE, "arrval"), None);
        assert_eq!(fires("The define index_of step.\n", "index_of"), None);
        assert_eq!(fires("def index_of = 3\n", "index_of"), None);
    }
}
