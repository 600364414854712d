//! Exemption `link-text`, decided by its resolver (`gather.rs`). The history's evidence overrules it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "link-text",
    doc: "A backticked path that is the text of a link to another repository's page (`[`src/x.rs`](https://github.com/o/other/...)`): a path of that page's repository. A link into this repository's own tree keeps the cite.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
