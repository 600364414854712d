//! Exemption `link-text`, asked by the path resolver before it reads the
//! path: a backticked path that is the text of a link to another
//! repository's page names a file of that repository. A reading of the
//! record: the history overrules it.

use super::{Applies, Definition};
use crate::snapshot::{has_file, has_folder};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that is the text of a link to another repository's page (`[`src/x.rs`](https://github.com/o/other/...)`): a path of that page's repository. A link into this repository's own tree keeps the cite.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a backticked path that is the text of a link to `url` is that page's
/// repository's, if it is: the address does not open a path of this tree.
pub(in crate::checks::cites) fn fires(url: &str, paths: &[String]) -> Option<String> {
    (!links_into_this_tree(url, paths))
        .then(|| format!("it is the text of a link to `{url}`: a path of that page's repository"))
}

/// Whether a hosted repository's file or folder address
/// (`https://github.com/o/r/blob/main/py-polars/Cargo.toml#L4`) names a path
/// this tree has: the link opens this repository, or a copy of it.
fn links_into_this_tree(url: &str, paths: &[String]) -> bool {
    let url = url.split(['#', '?']).next().unwrap_or(url);
    let Some((_, rest)) = url
        .split_once("/blob/")
        .or_else(|| url.split_once("/tree/"))
        .or_else(|| url.split_once("/-/blob/"))
    else {
        return false;
    };
    // After the ref: the path (a ref with a slash in it is not told apart).
    let Some((_, path)) = rest.split_once('/') else {
        return false;
    };
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        return false;
    }
    // The file itself, or (the link names the default branch, which moves on)
    // a folder two levels deep that this tree has too: `py-polars/runtime/`.
    let folders: Vec<&str> = path.split('/').collect();
    has_file(paths, path)
        || has_folder(paths, path)
        || (2..folders.len()).any(|depth| has_folder(paths, &folders[..depth].join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> Vec<String> {
        ["py-polars/runtime/Cargo.toml", "src/a.rs"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect()
    }

    #[test]
    fn fires_for_a_link_to_another_repositorys_file() {
        let paths = paths();
        assert!(
            fires(
                "https://github.com/o/other/blob/main/test/e2e_test.go",
                &paths
            )
            .is_some()
        );
        assert!(
            fires(
                "https://github.com/o/other/blob/main/src/other/x.go",
                &paths
            )
            .is_some()
        );
        assert!(fires("https://example.org/docs/src/a.rs", &paths).is_some());
    }

    #[test]
    fn stays_quiet_for_a_link_into_this_tree() {
        let paths = paths();
        for url in [
            "https://github.com/o/r/blob/main/py-polars/runtime/Cargo.toml#L4",
            "https://github.com/o/r/tree/v1.0/src",
            "https://github.com/o/r/blob/main/py-polars/runtime/template/Cargo.toml",
        ] {
            assert_eq!(fires(url, &paths), None, "{url}");
        }
    }
}
