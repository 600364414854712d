//! Exemption `unread-include`, asked by the anchor resolver: a page that
//! pulls in text recount cannot read (a template marker, an include whose
//! file is not in the tree) may offer the anchor through it. A reading of
//! the page: the history overrules it when the page's own headings offered
//! the anchor when the record cited it (`evidence/anchors.rs`).

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "An anchor a page does not offer, on a page that pulls in text recount cannot read (a template marker, an include whose file is not in the tree, a code block the site runs as it builds and renders the output of, markdown-exec's `exec=\"on\"`): the anchor may be a heading of that text. Includes that can be read are read and their headings checked, and a page whose own headings offered the anchor when the record cited it is held to that.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why an anchor `file` lacks may be a heading of text it pulls in, if it
/// may: some of that text could not be read (`unread`).
pub(in crate::checks::cites) fn fires(unread: bool, file: &str, fragment: &str) -> Option<String> {
    unread.then(|| {
        format!(
            "{file} pulls in text from elsewhere that cannot be read here; `#{fragment}` may be a heading of that"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_when_included_text_could_not_be_read() {
        assert!(fires(true, "docs/a.md", "setup").is_some());
    }

    #[test]
    fn stays_quiet_when_every_include_was_read() {
        assert_eq!(fires(false, "docs/a.md", "setup"), None);
    }
}
