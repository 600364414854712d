//! Exemption `foreign-root`, in the link chain: a link into a folder this
//! repository does not have. A reading of the tree's shape: the history
//! overrules it.

use super::{Applies, Definition, Probe};
use crate::checks::cites::locate::reader_paths;
use crate::snapshot::has_folder;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link into a folder this repository does not have (`../rpc/x.md` where there is no `rpc/`): a page of another site's URL space or of a sibling book. Never in the root README, the repository's front page, which the forge renders reading its links from the root (a README written from `docs/index.md` with the docs' links is a dead end there).",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let (folder, _) = probe.path.rsplit_once('/')?;
    // The forge renders the repository's front page, its root README, and
    // reads each of its relative links from the root: a folder the tree
    // lacks is a dead link there, whichever site builds a copy of the page
    // too (a README written from `docs/index.md` keeps the docs' links).
    let record = probe.context.record;
    let front_page = !record.contains('/') && record.to_ascii_lowercase().starts_with("readme");
    if front_page && probe.context.includers.is_empty() {
        return None;
    }
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
    // The page's renderer may read it from elsewhere (an i18n plugin's
    // language folder served at the site's root): a folder there is this
    // tree's too.
    let from_renderer = || {
        probe
            .context
            .renderers()
            .more_paths(record, probe.cited)
            .iter()
            .any(|p| {
                p.rsplit_once('/')
                    .is_some_and(|(f, _)| has_folder(paths, f))
            })
    };
    (!has_folder(paths, folder) && !from_includer && !from_renderer())
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
    fn the_front_page_the_forge_renders_is_read_from_the_root() {
        let why = fires_for(
            fires,
            &[("README.md", ""), ("docs/tutorial/install.md", "")],
            "README.md",
            "[install](tutorial/install.md)",
            "tutorial/install.md",
            "tutorial/install.md",
            false,
            true,
        );
        assert_eq!(why, None);
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
