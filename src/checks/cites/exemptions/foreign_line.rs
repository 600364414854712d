//! Exemption `foreign-line`, asked by the line resolver when the cited file
//! is not in the tree: a file name no file here has, under no folder of the
//! tree, is a line of another repository (a log line, a dependency's
//! source). A reading of the tree's shape: the history overrules it.

use super::{Applies, Definition};
use crate::snapshot::has_folder;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A line cite (`.../websocket.go:137`) whose file name no file of the tree has and whose path names no folder of it: a line of another repository (a log line, a dependency's source). Likewise one under a first folder the tree lacks that is named as a package release unpacks (`rodauth-2.45.0/lib/x.rb:783`): that package's line, whatever file names the trees share.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a line cite's missing file is another repository's, if it is:
/// `.../websocket.go:137`, `garbagecollector.go:517`,
/// `vendor/k8s.io/x/helpers.go:20` where no file of the tree has that name
/// and the path names no folder of it.
pub(in crate::checks::cites) fn fires(
    paths: &[String],
    path: &str,
    elided: bool,
) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let first_folder = path.split_once('/').map(|(first, _)| first);
    let elsewhere = elided || first_folder.is_none_or(|f| !has_folder(paths, f));
    if !elsewhere {
        return None;
    }
    // `rodauth-2.45.0/lib/…/base.rb:783`: a package unpacked under its name
    // and version (a gem, an sdist, a tarball) is that package's tree,
    // whatever file names this tree shares with it.
    if let Some(package) = first_folder.filter(|f| versioned_package(f)) {
        return Some(format!(
            "`{package}/` is a package unpacked under its name and version, no folder of this tree: a line of that package"
        ));
    }
    (!paths.iter().any(|p| p.rsplit('/').next() == Some(name))).then(|| {
        format!(
            "no file of this tree is named `{name}` and the cite names no folder of it: a line of another repository?"
        )
    })
}

/// A folder named as a package release unpacks (`rodauth-2.45.0`,
/// `requests-2.31.0`): a name, a hyphen, a version of two parts or more.
fn versioned_package(folder: &str) -> bool {
    folder.rsplit_once('-').is_some_and(|(name, version)| {
        name.starts_with(|c: char| c.is_ascii_alphabetic())
            && version.split('.').count() >= 2
            && version
                .split('.')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Vec<String> {
        ["docs/guide.md", "src/server.go"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect()
    }

    #[test]
    fn fires_for_a_name_and_folder_the_tree_lacks() {
        assert!(fires(&tree(), "vendor/k8s.io/x/helpers.go", false).is_some());
        assert!(fires(&tree(), "garbagecollector.go", false).is_some());
        assert!(fires(&tree(), "net/websocket.go", true).is_some());
        // A package's unpacked tree, though this tree has a `server.go`.
        assert!(fires(&tree(), "gorilla-1.8.0/src/server.go", false).is_some());
    }

    #[test]
    fn stays_quiet_in_a_folder_of_the_tree_or_for_a_name_it_has() {
        // `src/` is the tree's: a file gone from it is this tree's drift.
        assert_eq!(fires(&tree(), "src/client.go", false), None);
        assert_eq!(fires(&tree(), "lib/server.go", false), None);
        assert_eq!(fires(&tree(), "build-2/server.go", false), None);
    }
}
