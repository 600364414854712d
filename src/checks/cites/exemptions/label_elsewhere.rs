//! Exemption `label-elsewhere`, asked by the Sphinx label resolver: a
//! `:ref:` label no page defines may be a docstring's, an extension's or a
//! generated page's, which recount does not build. A reading of the pages:
//! the history overrules it (`evidence/labels.rs`).

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A `:ref:` label no page of the Sphinx project defines (no `.. _label:` target, `:name:` option, MyST `(label)=`, or section title under autosectionlabel): one a docstring, an extension or a generated page defines, which recount does not build. Stale when the project's pages defined it when the record cited it.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a label with no Sphinx project around its page is set aside: no
/// `conf.py` at or above the page.
pub(in crate::checks::cites) fn no_project(label: &str) -> Option<String> {
    Some(format!(
        "`{label}`: no `conf.py` at or above this page, so no Sphinx project to define it"
    ))
}

/// Why a label the project's pages do not define is set aside, if it is
/// (`defined` false).
pub(in crate::checks::cites) fn undefined(defined: bool, label: &str, at: &str) -> Option<String> {
    (!defined).then(|| {
        format!(
            "no page of the Sphinx project defines the label `{label}` at {at}: a docstring's or an extension's?"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_label_no_page_defines_or_no_project() {
        assert!(undefined(false, "api-ref", "abc1234").is_some());
        assert!(no_project("api-ref").is_some());
    }

    #[test]
    fn stays_quiet_for_a_defined_label() {
        assert_eq!(undefined(true, "install", "abc1234"), None);
    }
}
