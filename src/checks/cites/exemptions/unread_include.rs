//! Exemption `unread-include`, decided by its resolver (`gather.rs`). The history's evidence overrules it when the page's own headings offered the anchor then.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "unread-include",
    doc: "An anchor a page does not offer, on a page that pulls in text recount cannot read (a template marker, an include whose file is not in the tree): the anchor may be a heading of that text. Includes that can be read are read and their headings checked, and a page whose own headings offered the anchor when the record cited it is held to that.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
