//! Exemption `unused-target`, asked before any resolver: a reStructuredText
//! hyperlink target (`.. _code of conduct: https://…`) that no reference of
//! its page, or of a page that includes it, names (`` `code of conduct`_ ``,
//! `name_`). docutils renders a target only where a reference uses it, so an
//! unused one is a link no reader can follow, as an unused Markdown
//! reference definition is. The page's own text decides: the history does
//! not overrule it.

use regex::Regex;

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "The address of a reStructuredText hyperlink target (`.. _code of conduct: https://…`) that no reference names, in its page or in a page that includes it (a file of shared targets pulled in by `.. include::`), while no `conf.py` of the repository names the page (an `rst_epilog` that reads it): docutils renders a target only where a reference uses it, so no reader can follow it, as with an unused Markdown reference definition.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The name of the hyperlink target defined on the line of `text` that holds
/// `at`, if that line is one (`.. _name: address`); an anonymous target
/// (`.. __:`) has none.
pub(in crate::checks::cites) fn target_name(text: &str, at: usize) -> Option<String> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(start..at)?.trim_start();
    let rest = line.strip_prefix(".. _")?;
    let (name, _) = rest.split_once(':')?;
    let name = name.trim_matches('`').trim();
    (!name.is_empty() && name != "_").then(|| name.to_owned())
}

/// Why the target `name` renders nowhere, if no text of `texts` (its page and
/// those that include it) references it.
pub(in crate::checks::cites) fn fires<'t>(
    name: &str,
    mut texts: impl Iterator<Item = &'t str>,
) -> Option<String> {
    (!texts.any(|text| references(text, name))).then(|| {
        let shown: String = name.chars().take(80).collect();
        format!("no reference names the target `{shown}`: docutils renders it nowhere")
    })
}

/// Whether `text` holds a reference to the target `name`: `` `name`_ `` (its
/// words may wrap), `` `text <name_>`_ ``, or `name_` for a one-word name.
fn references(text: &str, name: &str) -> bool {
    let words: Vec<String> = name.split_whitespace().map(regex::escape).collect();
    let spelled = words.join(r"\s+");
    let simple = !name.contains(char::is_whitespace)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | '+'));
    let mut pattern = format!(r"(?i)`{spelled}`__?|<{spelled}_>`");
    if simple {
        pattern.push_str(&format!(r"|(?:^|[^\w`.-]){spelled}__?(?:[^\w]|$)"));
    }
    Regex::new(&pattern).is_ok_and(|found| found.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_target_no_reference_names() {
        let refs = ".. _code of conduct: https://example.org/conduct.rst\n.. _GitHub: https://github.com/o/r\n";
        let at = refs.find("https://example.org").unwrap();
        let name = target_name(refs, at).unwrap();
        assert_eq!(name, "code of conduct");
        let page = ".. include:: refs.rst\n\nReport issues on GitHub_.\n";
        assert!(fires(&name, [refs, page].into_iter()).is_some());
    }

    #[test]
    fn stays_quiet_for_a_target_a_reference_uses() {
        let refs = ".. _code of conduct: https://example.org/conduct.rst\n.. _GitHub: https://github.com/o/r\n";
        for page in [
            "Read the `code of conduct`_ first.\n",
            "Read the `code of\n   conduct`_ first.\n",
            "Read the `rules <code of conduct_>`_.\n",
        ] {
            assert!(
                fires("code of conduct", [refs, page].into_iter()).is_none(),
                "{page}"
            );
        }
        assert!(fires("GitHub", [refs, "Issues go to GitHub_.\n"].into_iter()).is_none());
        // A line that is no target names none.
        let text = "See https://example.org/x.rst\n";
        assert_eq!(target_name(text, text.find("https").unwrap()), None);
        assert_eq!(target_name(".. __: https://x.org\n", 7), None);
    }
}
