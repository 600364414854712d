//! Exemption `page-title`, decided by the anchors' evidence
//! (`evidence/anchors.rs`): a link to the anchor of the title a page opened
//! with when the record cited it. A browser that finds no element with the
//! fragment's id shows the page from its top, which is where that title
//! stood: rewording the title (or moving it into front matter) leaves the
//! reader where the link meant. The fact is the page's own history, so the
//! history does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link to the anchor of the title its page opened with when the record cited it (`[Contents](README.md#table-of-contents)` written while the README began `# Table of contents`), since reworded or moved into front matter; or, where the page offered no such anchor when the record cited it, a fragment whose words open or close the title the page showed at its top then (its opening heading, or the `title:` of its front matter, which site generators show there: `#table-of-contents` for \"Docs - Table of contents\"): the browser opens the page at its top, where the title stood, so the reader lands where the link meant. An anchor further down the page is stale as before",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a link to `file#fragment` still lands where it meant, if it does:
/// the fragment named the title `file` opened with at `when`.
pub(in crate::checks::cites) fn fires(
    opened_with: bool,
    file: &str,
    fragment: &str,
    when: &str,
) -> Option<String> {
    opened_with.then(|| {
        format!(
            "`#{fragment}` was the title {file} opened with when the record cited it (at {when}); the page still opens at its top, where the title stood"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::anchors::PageAnchors;

    #[test]
    fn fires_for_the_title_a_page_opens_with() {
        let page = PageAnchors::of_markdown("<!-- note -->\n# Table of contents\n\n## Setup\n");
        assert!(page.names_top("table-of-contents"));
        assert!(
            fires(
                page.names_top("table-of-contents"),
                "README.md",
                "table-of-contents",
                "abc1234"
            )
            .is_some()
        );
        let matter = PageAnchors::of_markdown(
            "---\ntitle: The store - Table of contents\n---\n\n## Setup\n",
        );
        assert!(matter.names_top("table-of-contents"));
        assert!(!matter.names_top("setup"));
        let rst = PageAnchors::of_rst(".. _top:\n\n=====\nGuide\n=====\n\nText.\n\nUsage\n-----\n");
        assert!(rst.names_top("guide"));
    }

    #[test]
    fn stays_quiet_for_a_heading_below_text_or_further_down() {
        let page = PageAnchors::of_markdown("# Title\n\n## Setup\n");
        assert!(!page.names_top("setup"));
        let late = PageAnchors::of_markdown("Some words first.\n\n# Title\n");
        assert!(!late.names_top("title"));
        let second = PageAnchors::of_markdown("## Overview\n\nText.\n");
        assert!(!second.names_top("overview"));
        assert_eq!(fires(false, "README.md", "setup", "abc1234"), None);
    }
}
