//! Exemption `unused-target`, asked before any resolver: a reStructuredText
//! hyperlink target (`.. _code of conduct: https://…`) that no reference of
//! its page, or of a page that includes it, names (`` `code of conduct`_ ``,
//! `name_`). docutils renders a target only where a reference uses it, so an
//! unused one is a link no reader can follow, as an unused Markdown
//! reference definition is. The page's own text decides: the history does
//! not overrule it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "The address of a reStructuredText hyperlink target (`.. _code of conduct: https://…`) that no reference names, in its page or in a page that includes it (a file of shared targets pulled in by `.. include::`), while no `conf.py` of the repository names the page (an `rst_epilog` that reads it): docutils renders a target only where a reference uses it, so no reader can follow it, as with an unused Markdown reference definition.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The name of the hyperlink target whose address the line of `text`
/// holding `at` carries, if it is one: the target's own line (`.. _name:
/// address`) or an indented line continuing it (`.. _name:` with the address
/// below, as docutils reads a block). An anonymous target (`.. __:`) has
/// none.
pub(in crate::checks::cites) fn target_name(text: &str, at: usize) -> Option<String> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(start..at)?;
    if let Some(rest) = line.trim_start().strip_prefix(".. _") {
        return named(rest);
    }
    // A continuation line: indented, with the target's line above it and
    // no blank line between (a block's lines are indented past its `..`).
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(line);
    if own == 0 {
        return None;
    }
    for above in text[..start].lines().rev().take(MAX_CONTINUATION_LINES) {
        if above.trim().is_empty() {
            return None;
        }
        if let Some(rest) = above.trim_start().strip_prefix(".. _") {
            return (indent(above) < own).then(|| named(rest)).flatten();
        }
        if indent(above) < own {
            return None;
        }
    }
    None
}

/// The lines of a target's address read above one at most.
const MAX_CONTINUATION_LINES: usize = 8;

/// The name a target's line gives after its `.. _`, as docutils reads it:
/// up to the first colon followed by white space or the line's end
/// (`eli5:eli5:` names `eli5:eli5`), or quoted (`` `a: b`: ``).
fn named(rest: &str) -> Option<String> {
    let name = match rest.strip_prefix('`') {
        Some(quoted) => quoted.split_once("`:").map(|(name, _)| name)?,
        None => {
            let end = rest.char_indices().find_map(|(i, c)| {
                (c == ':' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace))
                    .then_some(i)
            })?;
            &rest[..end]
        }
    };
    let name = name.trim();
    (!name.is_empty() && name != "_").then(|| name.to_owned())
}

/// Why the target `name` renders nowhere, if no page of `pages` (the
/// names the references of its page and of those that include it use, as
/// [`referenced_names`] reads them) names it.
pub(in crate::checks::cites) fn fires<'p>(
    name: &str,
    mut pages: impl Iterator<Item = &'p BTreeSet<String>>,
) -> Option<String> {
    let key = normalised(name);
    (!pages.any(|names| names.contains(&key))).then(|| {
        let shown: String = name.chars().take(80).collect();
        format!("no reference names the target `{shown}`: docutils renders it nowhere")
    })
}

/// Every target name the references of `text` use, normalised as docutils
/// compares them (lower case, runs of white space one space): `` `name`_ ``,
/// `` `text <name_>`_ ``, and `name_` for a one-word name. One pass over the
/// text, whatever the number of targets asked of it.
pub(in crate::checks::cites) fn referenced_names(text: &str) -> BTreeSet<String> {
    static REFERENCE: OnceLock<Regex> = OnceLock::new();
    let reference = REFERENCE.get_or_init(|| {
        Regex::new(r"`([^`]+)`__?|(?:^|[^\w`.:-])(\w[\w.+-]*?)__?(?:[^\w:]|$)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let mut names = BTreeSet::new();
    for caps in reference.captures_iter(text) {
        if let Some(quoted) = caps.get(1) {
            let quoted = quoted.as_str();
            // `text <name_>`_ names `name`; `text <https://…>`_ names none.
            match quoted.rsplit_once('<') {
                Some((_, inner)) => {
                    if let Some(target) = inner.strip_suffix('>').and_then(|t| t.strip_suffix('_'))
                    {
                        names.insert(normalised(target));
                    }
                }
                None => {
                    names.insert(normalised(quoted));
                }
            }
        } else if let Some(word) = caps.get(2) {
            names.insert(normalised(word.as_str()));
        }
    }
    names
}

fn normalised(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
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
        let pages = [referenced_names(refs), referenced_names(page)];
        assert!(fires(&name, pages.iter()).is_some());
    }

    #[test]
    fn stays_quiet_for_a_target_a_reference_uses() {
        let refs = ".. _code of conduct: https://example.org/conduct.rst\n.. _GitHub: https://github.com/o/r\n";
        for page in [
            "Read the `code of conduct`_ first.\n",
            "Read the `code of\n   conduct`_ first.\n",
            "Read the `rules <code of conduct_>`_.\n",
        ] {
            let pages = [referenced_names(refs), referenced_names(page)];
            assert!(fires("code of conduct", pages.iter()).is_none(), "{page}");
        }
        let pages = [
            referenced_names(refs),
            referenced_names("Issues go to GitHub_.\n"),
        ];
        assert!(fires("GitHub", pages.iter()).is_none());
        // A definition is no reference to itself.
        assert!(!referenced_names(refs).contains("github"));
        // A line that is no target names none.
        let text = "See https://example.org/x.rst\n";
        assert_eq!(target_name(text, text.find("https").unwrap()), None);
        assert_eq!(target_name(".. __: https://x.org\n", 7), None);
    }

    #[test]
    fn a_targets_name_and_address_are_read_as_docutils_reads_them() {
        // The address on an indented line below the name.
        let text = ".. _beartype pephint:\n   beartype/_pephint.py\n\nText.\n   indented\n";
        let at = text.find("beartype/").unwrap();
        assert_eq!(target_name(text, at).as_deref(), Some("beartype pephint"));
        assert_eq!(target_name(text, text.find("indented").unwrap()), None);
        // A name holding a colon ends at the colon before white space.
        let text = ".. _eli5:eli5: https://example.org/\n";
        assert_eq!(
            target_name(text, text.find("https").unwrap()).as_deref(),
            Some("eli5:eli5")
        );
        let text = ".. _`a: b`: https://example.org/\n";
        assert_eq!(
            target_name(text, text.find("https").unwrap()).as_deref(),
            Some("a: b")
        );
    }
}
