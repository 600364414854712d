//! Exemption `foreign-root`, in the link chain: a link into a folder this
//! repository does not have. A reading of the tree's shape: the history
//! overrules it.

use super::{Applies, Definition, Probe};
use crate::checks::cites::locate::reader_paths;
use crate::snapshot::has_folder;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link into a folder this repository does not have (`../rpc/x.md` where there is no `rpc/`): a page of another site's URL space or of a sibling book.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let (folder, _) = probe.path.rsplit_once('/')?;
    let paths = probe.context.frame.snapshot.paths();
    // A page rendered elsewhere (a snippet, a sample to paste) is read from
    // there too: a folder there is this tree's, and the link a miss in it.
    let from_includer = probe.context.includers.iter().any(|page| {
        reader_paths(page, probe.cited)
            .unwrap_or_default()
            .iter()
            .any(|p| {
                p.rsplit_once('/')
                    .is_some_and(|(f, _)| has_folder(paths, f))
            })
    });
    (!has_folder(paths, folder) && !from_includer)
        .then(|| format!("no folder `{folder}/` here: a page of another site or root"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_a_link_into_a_folder_the_tree_lacks() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](/blog/post.md)",
            "/blog/post.md",
            "blog/post.md",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_in_a_folder_of_the_tree() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](b.md)",
            "b.md",
            "docs/b.md",
            false,
            true,
        );
        assert_eq!(why, None);
    }
}
