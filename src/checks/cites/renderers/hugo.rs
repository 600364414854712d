//! Hugo, as its configuration places it: a site is a folder with a Hugo
//! configuration (`hugo.toml`, `config.yaml`, `config/_default/hugo.yaml`,
//! …) and a `content/` folder beside it; a theme or module is a folder with
//! `layouts/` and a `theme.toml`, a `go.mod` or a Hugo configuration of its
//! own. Hugo builds one filesystem out of the site and every such folder
//! (its union filesystem), so a page that writes `layouts/docs/list.html` or
//! `assets/scss/_variables.scss` means that path in any of them: the site's
//! own, or the theme's it falls back to.

use crate::snapshot::{Snapshot, has_file, has_folder};

/// The folders Hugo mounts from each component into its filesystem.
const COMPONENT_FOLDERS: [&str; 7] = [
    "archetypes",
    "assets",
    "content",
    "data",
    "i18n",
    "layouts",
    "static",
];

/// A Hugo configuration's file names, at a site's or a theme's root.
const CONFIGS: [&str; 8] = [
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "hugo.json",
    "config.toml",
    "config.yaml",
    "config.yml",
    "config.json",
];

/// One Hugo site: its content folder, and the roots Hugo mounts its
/// filesystem from (the site's own first), repository-relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Hugo {
    content: String,
    mounts: Vec<String>,
}

/// Every Hugo site of the tree. The themes and modules of the repository are
/// mounted into each (a theme's documentation site beside the theme, as
/// docsy keeps `docsy.dev/` and `theme/`).
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<Hugo> {
    let paths = snapshot.paths();
    let folder_of = |path: &str| {
        path.rsplit_once('/')
            .map_or("", |(folder, _)| folder)
            .to_owned()
    };
    let configured = |path: &str| {
        let name = path.rsplit('/').next().unwrap_or(path);
        CONFIGS.contains(&name) && !crate::checks::cites::locate::is_vendored(path)
    };
    let mut roots: Vec<String> = paths
        .iter()
        .filter(|p| configured(p))
        .map(|config| {
            // `config/_default/hugo.yaml` configures the folder above `config/`.
            let folder = folder_of(config);
            match folder.strip_suffix("config/_default") {
                Some(site) => site.trim_end_matches('/').to_owned(),
                None => folder,
            }
        })
        .collect();
    roots.sort();
    roots.dedup();
    let join = |root: &str, name: &str| {
        if root.is_empty() {
            name.to_owned()
        } else {
            format!("{root}/{name}")
        }
    };
    let sites: Vec<&String> = roots
        .iter()
        .filter(|root| has_folder(paths, &join(root, "content")))
        .collect();
    if sites.is_empty() {
        return Vec::new();
    }
    let mut themes: Vec<String> = paths
        .iter()
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            matches!(name, "theme.toml" | "theme.yaml" | "go.mod") || configured(p)
        })
        .map(|p| folder_of(p))
        .filter(|root| has_folder(paths, &join(root, "layouts")))
        .collect();
    themes.sort();
    themes.dedup();
    sites
        .into_iter()
        .map(|site| {
            let mut mounts = vec![site.clone()];
            mounts.extend(themes.iter().filter(|t| *t != site).cloned());
            Hugo {
                content: join(site, "content"),
                mounts,
            }
        })
        .collect()
}

impl Hugo {
    /// Whether Hugo builds `page`: it is under the site's content folder.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        page.strip_prefix(&self.content)
            .is_some_and(|rest| rest.starts_with('/'))
    }

    /// Where Hugo's filesystem finds `path` (`layouts/docs/list.html`) in
    /// the tree, when it names a component folder first: the site's own
    /// file, else a mounted theme's.
    pub(in crate::checks::cites) fn mounted(&self, paths: &[String], path: &str) -> Option<String> {
        let path = path.trim_start_matches("./").trim_start_matches('/');
        let first = path.split('/').next()?;
        if !COMPONENT_FOLDERS.contains(&first) {
            return None;
        }
        let bare = path.trim_end_matches('/');
        self.mounts.iter().find_map(|root| {
            let candidate = if root.is_empty() {
                bare.to_owned()
            } else {
                format!("{root}/{bare}")
            };
            (has_file(paths, &candidate) || has_folder(paths, &candidate)).then_some(candidate)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_site_and_a_theme_beside_it_are_one_filesystem() {
        let tree = MemorySnapshot::new(&[
            ("site/config/_default/hugo.yaml", "theme: [x/theme]\n"),
            ("site/content/en/docs/look.md", "# Look\n"),
            ("site/assets/scss/_variables_project.scss", "$x: 1;\n"),
            ("theme/theme.toml", "name = 'x'\n"),
            ("theme/layouts/docs/list.html", "<ul></ul>\n"),
            ("theme/assets/scss/_variables_project.scss", "\n"),
            ("docs/notes.md", "# Notes\n"),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1, "{sites:?}");
        let site = &sites[0];
        assert!(site.holds("site/content/en/docs/look.md"));
        assert!(!site.holds("docs/notes.md") && !site.holds("site/contents.md"));
        let paths = tree.paths();
        assert_eq!(
            site.mounted(paths, "layouts/docs/list.html").as_deref(),
            Some("theme/layouts/docs/list.html")
        );
        // The site's own file before the theme's.
        assert_eq!(
            site.mounted(paths, "assets/scss/_variables_project.scss")
                .as_deref(),
            Some("site/assets/scss/_variables_project.scss")
        );
        assert_eq!(
            site.mounted(paths, "content/en/docs/").as_deref(),
            Some("site/content/en/docs")
        );
        // Not a component folder, or nowhere mounted: not Hugo's to answer.
        assert_eq!(site.mounted(paths, "theme/go.mod"), None);
        assert_eq!(site.mounted(paths, "layouts/gone.html"), None);
    }

    #[test]
    fn a_configuration_without_content_is_no_site() {
        let tree = MemorySnapshot::new(&[
            ("config.toml", "title = 'not hugo'\n"),
            ("layouts/x.html", "\n"),
        ]);
        assert!(sites(&tree).is_empty());
    }
}
