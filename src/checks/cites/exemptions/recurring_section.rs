//! Exemption `recurring-section`, decided by the anchors' evidence
//! (`evidence/anchors.rs`): a link to a heading its page has dropped and
//! put back since the record linked it, and lacks again now — a section the
//! project re-adds in turn (Keep a Changelog's `Unreleased`, renamed to each
//! release as it ships and opened again by the next change). Its absence at
//! this commit is a pause between two of its returns, which the page's own
//! history shows, so the history does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link to a heading its page offered when the record cited it, dropped, offered again later, and lacks at the audited commit (`[Unreleased](CHANGELOG.md#unreleased)` on a release commit, where the pending section became the release and the next change opens it again): the page's history shows a section the project re-adds in turn, so its absence now is a pause, not a drift. A heading that went and never came back is stale as before",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a link to `file#fragment` is let be, if it is: the page lacked the
/// fragment at the first commit of `recurred` and offered it again at the
/// second, both since the record cited it.
pub(in crate::checks::cites) fn fires(
    recurred: Option<&(String, String)>,
    file: &str,
    fragment: &str,
) -> Option<String> {
    recurred.map(|(gone, back)| {
        format!(
            "{file} lacked `#{fragment}` at {gone} and offered it again at {back}: a section the project re-adds in turn, missing only between two of its returns"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_heading_that_came_back() {
        let recurred = ("abc1234".to_owned(), "def5678".to_owned());
        let why = fires(Some(&recurred), "CHANGELOG.md", "unreleased").expect("came back");
        assert!(why.contains("offered it again at def5678"), "{why}");
    }

    #[test]
    fn stays_quiet_for_a_heading_that_never_came_back() {
        assert_eq!(fires(None, "CHANGELOG.md", "unreleased"), None);
    }
}
