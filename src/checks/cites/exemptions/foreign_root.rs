//! Exemption `foreign-root`, in the link chain: a link into a folder this
//! repository does not have. A reading of the tree's shape: the history
//! overrules it.

use super::{Applies, Definition, Probe};
use crate::snapshot::has_folder;

pub(super) const DEFINITION: Definition = Definition {
    id: "foreign-root",
    doc: "A link into a folder this repository does not have (`../rpc/x.md` where there is no `rpc/`): a page of another site's URL space or of a sibling book.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
    on_by_default: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let (folder, _) = probe.path.rsplit_once('/')?;
    (!has_folder(probe.context.frame.snapshot.paths(), folder))
        .then(|| format!("no folder `{folder}/` here: a page of another site or root"))
}
