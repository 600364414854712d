//! Exemption `built-page`, in the link chain: an `.html` page with no
//! Markdown source here. A reading of the link's shape: the history
//! overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    id: "built-page",
    doc: "A link to an `.html` page with no Markdown source here: a page a documentation site builds, or another site's.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
    on_by_default: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    [".html", ".htm"]
        .iter()
        .any(|ext| probe.path.ends_with(ext))
        .then(|| format!("`{}` is a built page with no source page here", probe.path))
}
