//! VitePress, as a `.vitepress/config.*` places it (read as text, never
//! run): its pages are the Markdown files under the folder that holds
//! `.vitepress/` (or the `srcDir` its configuration names). Its links read as
//! the forge reads them; what VitePress adds that recount asks about is its
//! own code that rewrites pages as the site builds (a Vite plugin that
//! transforms `.md` files, a markdown-it rule), which may give a page
//! headings its source lacks.

use std::sync::OnceLock;

use regex::Regex;

use super::rewriting::Rewriter;
use crate::snapshot::Snapshot;

/// The files of a site's `.vitepress/` folder read for rewriting code, at
/// most.
const MAX_CODE_FILES: usize = 200;

/// One VitePress site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct VitePress {
    config: String,
    /// The folder its pages are read from, repository-relative (`""`: the
    /// root).
    pages: String,
    /// Its code that rewrites pages as it builds.
    rewriters: Vec<Rewriter>,
    /// Its configuration slugs headings its own way (a `slugify` of its
    /// own): their anchors are not known here.
    own_slugs: bool,
}

/// Every VitePress site of the tree, from each `.vitepress/config.*`.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<VitePress> {
    static SRC_DIR: OnceLock<Regex> = OnceLock::new();
    let src_dir = SRC_DIR.get_or_init(|| {
        Regex::new(r#"\bsrcDir\s*:\s*["']([^"'\n]{1,200})["']"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let code = |p: &str| {
        [".ts", ".mts", ".js", ".mjs"]
            .iter()
            .any(|ext| p.ends_with(ext))
    };
    paths
        .iter()
        .filter_map(|config| {
            let (root, name) = config.rsplit_once(".vitepress/")?;
            let root = root.strip_suffix('/').unwrap_or(root);
            (!name.contains('/') && name.starts_with("config.") && code(name))
                .then_some((config, root))
        })
        .filter(|(config, _)| !crate::checks::cites::locate::is_vendored(config))
        .map(|(config, root)| {
            let text = snapshot
                .read_text_to_parse(config)
                .ok()
                .flatten()
                .unwrap_or_default();
            let join = |rel: &str| {
                let rel = rel.trim_start_matches("./").trim_end_matches('/');
                match (root.is_empty(), rel.is_empty()) {
                    (_, true) => root.to_owned(),
                    (true, false) => rel.to_owned(),
                    (false, false) => format!("{root}/{rel}"),
                }
            };
            let pages = src_dir
                .captures(&text)
                .map(|caps| caps[1].to_owned())
                .filter(|rel| !rel.split('/').any(|s| s == ".."))
                .map_or_else(|| root.to_owned(), |rel| join(&rel));
            let folder = join(".vitepress");
            let rewriters = paths
                .iter()
                .filter(|p| p.starts_with(&format!("{folder}/")) && code(p))
                .take(MAX_CODE_FILES)
                .filter_map(|file| {
                    let code = snapshot.read_text_to_parse(file).ok().flatten()?;
                    rewrites_pages(&code).then(|| Rewriter::of(file.clone(), &code))
                })
                .collect();
            VitePress {
                config: config.clone(),
                pages,
                rewriters,
                own_slugs: text.contains("slugify"),
            }
        })
        .collect()
}

/// Whether a file of the site's code rewrites its pages: a Vite plugin's
/// `transform` of `.md` files, or a markdown-it rule it adds.
fn rewrites_pages(code: &str) -> bool {
    (code.contains("transform(") && code.contains(".md"))
        || code.contains(".core.ruler.")
        || code.contains(".renderer.rules.")
}

impl VitePress {
    /// Whether VitePress builds `page`: it is under the site's pages folder.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        super::in_folder(&self.pages, page)
    }

    /// Whether a link from `page` to `target`, both pages of this site, is
    /// followed on it with VitePress's own slugs: the site slugs headings as
    /// VitePress does (no `slugify` of its own).
    pub(in crate::checks::cites) fn slugs_link(&self, page: &str, target: &str) -> bool {
        let markdown = |p: &str| p.ends_with(".md");
        !self.own_slugs
            && markdown(page)
            && markdown(target)
            && self.holds(page)
            && self.holds(target)
    }

    /// Where the site's `public/` folder holds what a link from `page` to
    /// `target` names on the site: VitePress copies that folder to the
    /// site's root as it is, so `../assets/x.zip` from `guide/a.md` (the
    /// site's `/assets/x.zip`) is `public/assets/x.zip` of the pages folder.
    pub(super) fn public_path(&self, page: &str, target: &str) -> Option<String> {
        if !self.holds(page) || target.contains("://") || target.ends_with(".md") {
            return None;
        }
        let prefix = if self.pages.is_empty() {
            String::new()
        } else {
            format!("{}/", self.pages)
        };
        let on_site = match target.strip_prefix('/') {
            Some(rooted) => rooted.to_owned(),
            None => crate::checks::cites::locate::reader_paths(page, target)?
                .into_iter()
                .next()?
                .strip_prefix(&prefix)?
                .to_owned(),
        };
        (!on_site.is_empty() && !on_site.starts_with("public/"))
            .then(|| format!("{prefix}public/{on_site}"))
    }

    /// Its code that rewrites pages as it builds, and how to name the site.
    pub(super) fn rewriters(&self) -> (&[Rewriter], String) {
        (
            &self.rewriters,
            format!("the VitePress site of {}", self.config),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_to_the_sites_root_may_name_its_public_folder() {
        let site = VitePress {
            config: "web/docs/.vitepress/config.ts".to_owned(),
            pages: "web/docs".to_owned(),
            rewriters: Vec::new(),
            own_slugs: false,
        };
        let page = "web/docs/guide/a.md";
        assert_eq!(
            site.public_path(page, "../assets/x.zip").as_deref(),
            Some("web/docs/public/assets/x.zip")
        );
        assert_eq!(
            site.public_path(page, "/logo.svg").as_deref(),
            Some("web/docs/public/logo.svg")
        );
        // A page link, another site's address, and a page of no site.
        assert_eq!(site.public_path(page, "./b.md"), None);
        assert_eq!(site.public_path(page, "https://x.org/a.png"), None);
        assert_eq!(site.public_path("README.md", "/logo.svg"), None);
    }

    #[test]
    fn a_plugin_that_transforms_markdown_rewrites_pages_and_a_theme_does_not() {
        assert!(rewrites_pages(
            "export default { name: 'md', transform(code, id) { if (!id.endsWith('.md')) return } }"
        ));
        assert!(rewrites_pages("md.core.ruler.push('x', () => {})"));
        assert!(!rewrites_pages("export default { extends: DefaultTheme }"));
        let site = VitePress {
            config: "packages/.vitepress/config.ts".to_owned(),
            pages: "packages".to_owned(),
            rewriters: Vec::new(),
            own_slugs: false,
        };
        assert!(site.holds("packages/core/useFetch/index.md"));
        assert!(!site.holds("docs/index.md"));
        assert!(!site.holds("packages-old/index.md"));
        assert!(site.slugs_link("packages/a/index.md", "packages/b/index.md"));
        assert!(!site.slugs_link("README.md", "packages/b/index.md"));
        let own = VitePress {
            own_slugs: true,
            ..site
        };
        assert!(!own.slugs_link("packages/a/index.md", "packages/b/index.md"));
    }
}
