//! docsify, as its `index.html` configures it: a site is the folder of an
//! `index.html` that sets `window.$docsify` and loads docsify, and its pages
//! are the Markdown files under that folder. docsify routes a page's link
//! from the site's root, not from the page (`getting-started/errors.md`
//! written on `middleware/index.md` opens `getting-started/errors`), unless
//! `relativePath: true` asks for the page's folder; a `basePath` that is a
//! folder of the site moves that root.

use std::sync::OnceLock;

use regex::Regex;

use crate::snapshot::{Snapshot, has_folder, joined};

/// The most of an `index.html` read for its configuration: a page's head and
/// its inline scripts, not a built bundle.
const MAX_INDEX_BYTES: usize = 64 * 1024;

/// One docsify site: the folder its `index.html` is in, and the folder its
/// links are routed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Docsify {
    folder: String,
    /// `None` when `relativePath: true`: links are read from their page.
    links_from: Option<String>,
}

/// Every docsify site of the tree. A `basePath` that is an address or that
/// names no folder of the tree leaves the site unread: where its links land
/// is not the tree's to say.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<Docsify> {
    static RELATIVE: OnceLock<Regex> = OnceLock::new();
    static BASE: OnceLock<Regex> = OnceLock::new();
    let relative = RELATIVE.get_or_init(|| {
        Regex::new(r#"["']?relativePath["']?\s*:\s*true\b"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let base = BASE.get_or_init(|| {
        Regex::new(r#"["']?basePath["']?\s*:\s*["']([^"'\n]{0,200})["']"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut sites = Vec::new();
    for index in paths
        .iter()
        .filter(|p| p.as_str() == "index.html" || p.ends_with("/index.html"))
    {
        let Some(text) = snapshot.read_text_to_parse(index).ok().flatten() else {
            continue;
        };
        let head = super::super::exemptions::head_of(&text, MAX_INDEX_BYTES);
        if !head.contains("window.$docsify") || !head.contains("docsify") {
            continue;
        }
        let folder = index.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned();
        let links_from = if relative.is_match(head) {
            None
        } else {
            match base.captures(head).map(|c| c[1].to_owned()) {
                None => Some(folder.clone()),
                Some(base) if base.contains("://") || base.starts_with('/') => continue,
                Some(base) => match joined(&folder, &base) {
                    Some(root) if root.is_empty() || has_folder(paths, &root) => Some(root),
                    _ => continue,
                },
            }
        };
        sites.push(Docsify { folder, links_from });
    }
    sites
}

impl Docsify {
    /// The length of the site's folder: the deepest site holding a page is
    /// its.
    pub(super) fn folder_len(&self) -> usize {
        self.folder.len()
    }

    /// Whether docsify builds `page`: a Markdown page under the site's folder.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        page.ends_with(".md") && super::in_folder(&self.folder, page)
    }

    /// Where docsify routes a link of its pages (`getting-started/errors.md`,
    /// `./errors.md`, `../x.md`): from the site's root, as its router reads
    /// every relative link. An address, a `/` path or a bare anchor is not
    /// routed here.
    pub(in crate::checks::cites) fn more_paths(&self, target: &str) -> Vec<String> {
        let Some(root) = self.links_from.as_deref() else {
            return Vec::new();
        };
        if target.starts_with('/') || target.starts_with('#') || target.contains("://") {
            return Vec::new();
        }
        joined(root, target).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    const INDEX: &str = "<html><body><div id=\"app\"></div>\n<script>\n  window.$docsify = {\n    name: 'x',\n    loadSidebar: true,\n  }\n</script>\n<script src=\"//cdn.jsdelivr.net/npm/docsify@4\"></script>\n</body></html>\n";

    #[test]
    fn a_docsify_site_routes_its_links_from_its_root() {
        let tree = MemorySnapshot::new(&[
            ("docs/index.html", INDEX),
            (
                "docs/middleware/index.md",
                "[x](middleware/included/auth.md)\n",
            ),
            ("docs/middleware/included/auth.md", "# Auth\n"),
            ("README.md", "# x\n"),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1, "{sites:?}");
        let site = &sites[0];
        assert!(site.holds("docs/middleware/index.md"));
        assert!(!site.holds("README.md") && !site.holds("docs/index.html"));
        assert_eq!(
            site.more_paths("middleware/included/auth.md"),
            ["docs/middleware/included/auth.md"]
        );
        assert_eq!(
            site.more_paths("./getting-started.md"),
            ["docs/getting-started.md"]
        );
        assert!(site.more_paths("https://example.com/x.md").is_empty());
        assert!(site.more_paths("/x.md").is_empty());
    }

    #[test]
    fn relative_paths_and_a_base_path_are_read_as_configured() {
        let relative = INDEX.replace("name: 'x',", "name: 'x', relativePath: true,");
        let tree = MemorySnapshot::new(&[("docs/index.html", relative.as_str())]);
        assert!(sites(&tree)[0].more_paths("a/b.md").is_empty());
        let based = INDEX.replace("name: 'x',", "basePath: 'pages/',");
        let tree = MemorySnapshot::new(&[
            ("site/index.html", based.as_str()),
            ("site/pages/a.md", "# A\n"),
        ]);
        assert_eq!(sites(&tree)[0].more_paths("a.md"), ["site/pages/a.md"]);
        // A base path that is an address: where links land is not the tree's.
        let remote = INDEX.replace("name: 'x',", "basePath: 'https://cdn.example.com/docs/',");
        let tree = MemorySnapshot::new(&[("docs/index.html", remote.as_str())]);
        assert!(sites(&tree).is_empty());
        // An `index.html` that is no docsify site.
        let tree = MemorySnapshot::new(&[("site/index.html", "<html>hello</html>\n")]);
        assert!(sites(&tree).is_empty());
    }
}
