//! Astro, as the tree lays it out: a site is the folder of an
//! `astro.config.*`, and its Markdown pages are the files of its content
//! collections (`src/content/docs/`, where Starlight reads them) and of its
//! `src/pages/` routes. Astro serves each page at an address of its own
//! (`src/content/docs/guide/start.md` at `/guide/start/`) and leaves a
//! link's destination as written: a relative file path (`usage.md`) is read
//! from the page's address, where no file is. So the form a link takes on
//! such a page is an address, never a path of the tree.

use crate::snapshot::Snapshot;

/// The folders of one Astro site that hold pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Astro {
    pages: [String; 2],
}

impl Astro {
    /// Whether the site builds `page` into one of its addresses.
    pub(super) fn holds(&self, page: &str) -> bool {
        self.pages
            .iter()
            .any(|folder| super::in_folder(folder, page))
    }
}

/// Every Astro site of the tree, by its configuration file.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<Astro> {
    const CONFIGS: [&str; 5] = [
        "astro.config.mjs",
        "astro.config.js",
        "astro.config.ts",
        "astro.config.mts",
        "astro.config.cjs",
    ];
    snapshot
        .paths()
        .iter()
        .filter(|path| !crate::checks::cites::locate::is_vendored(path))
        .filter_map(|path| {
            let (root, name) = path.rsplit_once('/').unwrap_or(("", path));
            CONFIGS.contains(&name).then_some(root)
        })
        .map(|root| {
            let under = |folder: &str| match root {
                "" => folder.to_owned(),
                _ => format!("{root}/{folder}"),
            };
            Astro {
                pages: [under("src/content/docs"), under("src/pages")],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_site_holds_its_content_collections_and_routes() {
        let tree = MemorySnapshot::new(&[
            ("website/astro.config.mjs", "export default {}"),
            ("website/src/content/docs/guide/start.md", ""),
            ("docs/readme.md", ""),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1);
        assert!(sites[0].holds("website/src/content/docs/guide/start.md"));
        assert!(sites[0].holds("website/src/pages/about.md"));
        assert!(!sites[0].holds("docs/readme.md"));
        assert!(!sites[0].holds("website/README.md"));
    }
}
