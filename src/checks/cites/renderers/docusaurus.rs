//! Docusaurus, as `docusaurus.config.{js,ts,mjs,cjs}` configures it: each
//! docs plugin's content folder (`path`, `docs` by default). Its Markdown
//! link resolver reads a link to a file from the page's folder, and one that
//! starts with neither `./` nor `../` from each content folder and then the
//! site's own folder as well, so `api/Store.md` on `docs/usage/x.md` is
//! `docs/api/Store.md`, and `docs/api/Store.md` there is the same file.

use std::sync::OnceLock;

use regex::Regex;

use crate::snapshot::{Snapshot, has_folder};

const CONFIGS: [&str; 4] = [
    "docusaurus.config.js",
    "docusaurus.config.ts",
    "docusaurus.config.mjs",
    "docusaurus.config.cjs",
];

/// One Docusaurus site: its folder and its docs plugins' content folders,
/// repository-relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Docusaurus {
    pub(in crate::checks::cites) content_roots: Vec<String>,
    /// `trailingSlash: true`: every page's address ends in `/`, an index
    /// page's too, so its links are read from its own folder.
    pub(in crate::checks::cites) trailing_slash: bool,
    /// Docs whose front matter gives another `id` than their file's name
    /// (`docs/API.md`, `id: api`): the address the id makes (`docs/api`,
    /// the folder and the id) → the file.
    pub(in crate::checks::cites) ids: std::collections::BTreeMap<String, String>,
    /// The site's own folder (its configuration's; `""` at the root), the
    /// last place Docusaurus 2 and later read a link to a Markdown file
    /// from; `None` for a version 1 site, which does not.
    pub(in crate::checks::cites) site: Option<String>,
}

/// Every Docusaurus site of the tree, read from its configuration's text:
/// each `path: '…'` the file names that is a folder of the tree, and the
/// default `docs` beside the configuration when it is there.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<Docusaurus> {
    static PATH: OnceLock<Regex> = OnceLock::new();
    let path = PATH.get_or_init(|| {
        Regex::new(r#"(?m)\bpath\s*:\s*["'`]([^"'`\n]{1,200})["'`]"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static TRAILING: OnceLock<Regex> = OnceLock::new();
    let trailing = TRAILING.get_or_init(|| {
        Regex::new(r"\btrailingSlash\s*:\s*true\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut sites = Vec::new();
    for config in paths.iter().filter(|p| {
        let name = p.rsplit('/').next().unwrap_or(p);
        CONFIGS.contains(&name) && !crate::checks::cites::locate::is_vendored(p)
    }) {
        let join = |rel: &str| config_relative(config, rel);
        let Ok(Some(bytes)) = snapshot.read(config) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut roots: Vec<String> = path
            .captures_iter(&text)
            .filter_map(|caps| join(&caps[1]))
            .chain(join("docs"))
            .filter(|root| has_folder(paths, root))
            .collect();
        roots.extend(translated_roots(paths, config));
        roots.sort();
        roots.dedup();
        if !roots.is_empty() {
            let ids = doc_ids(snapshot, &roots);
            sites.push(Docusaurus {
                content_roots: roots,
                trailing_slash: trailing.is_match(&text),
                ids,
                site: Some(
                    config
                        .rsplit_once('/')
                        .map_or("", |(folder, _)| folder)
                        .to_owned(),
                ),
            });
        }
    }
    sites.extend(version_one_sites(snapshot));
    sites
}

/// Every Docusaurus 1 site of the tree: a `siteConfig.js` beside a
/// `package.json` that depends on `docusaurus`. Its docs are the folder its
/// `customDocsPath` names, `docs` by default, both read from the folder
/// above the site's; it reads a page's link to a file from the page's
/// folder, then as a path from the docs folder (its docs are keyed by their
/// path there), as version 2 does.
fn version_one_sites(snapshot: &dyn Snapshot) -> Vec<Docusaurus> {
    static DOCS_PATH: OnceLock<Regex> = OnceLock::new();
    let docs_path = DOCS_PATH.get_or_init(|| {
        Regex::new(r#"\bcustomDocsPath\s*:\s*["'`]([^"'`\n]{1,200})["'`]"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static DEPENDS: OnceLock<Regex> = OnceLock::new();
    let depends = DEPENDS.get_or_init(|| {
        Regex::new(r#""docusaurus"\s*:"#).unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let read = |path: &str| {
        snapshot
            .read_text_to_parse(path)
            .ok()
            .flatten()
            .unwrap_or_default()
    };
    let mut sites = Vec::new();
    for config in paths.iter().filter(|p| {
        p.rsplit('/').next() == Some("siteConfig.js")
            && !crate::checks::cites::locate::is_vendored(p)
    }) {
        let site = config.rsplit_once('/').map_or("", |(folder, _)| folder);
        let manifest = if site.is_empty() {
            "package.json".to_owned()
        } else {
            format!("{site}/package.json")
        };
        if !depends.is_match(&read(&manifest)) {
            continue;
        }
        let text = read(config);
        let docs = docs_path
            .captures(&text)
            .map_or("docs".to_owned(), |caps| caps[1].to_owned());
        // Read from the folder above the site's, as from a file there.
        let Some(root) = config_relative(site, &docs).filter(|root| has_folder(paths, root)) else {
            continue;
        };
        let roots = vec![root];
        sites.push(Docusaurus {
            ids: doc_ids(snapshot, &roots),
            content_roots: roots,
            trailing_slash: false,
            site: None,
        });
    }
    sites
}

/// The folders of a site's translated docs, which Docusaurus reads as the
/// docs of each locale (`i18n/ja/docusaurus-plugin-content-docs/current`,
/// and a docs plugin's own, `…-content-docs-community/current`).
fn translated_roots(paths: &[String], config: &str) -> std::collections::BTreeSet<String> {
    let site = config.rsplit_once('/').map_or("", |(folder, _)| folder);
    let prefix = if site.is_empty() {
        "i18n/".to_owned()
    } else {
        format!("{site}/i18n/")
    };
    paths
        .iter()
        .filter_map(|p| {
            let rest = p.strip_prefix(&prefix)?;
            let mut parts = rest.splitn(4, '/');
            let (locale, plugin, version) = (parts.next()?, parts.next()?, parts.next()?);
            parts.next()?;
            (plugin.starts_with("docusaurus-plugin-content-docs") && version == "current")
                .then(|| format!("{prefix}{locale}/{plugin}/current"))
        })
        .collect()
}

/// Whether a content folder holds a locale's translated docs.
fn is_translation(root: &str) -> bool {
    root.contains("/docusaurus-plugin-content-docs")
        && (root.starts_with("i18n/") || root.contains("/i18n/"))
}

/// The docs of `roots` whose front matter names an `id` other than their
/// file's stem, by the address that id makes: the doc's folder and its id.
fn doc_ids(
    snapshot: &dyn Snapshot,
    roots: &[String],
) -> std::collections::BTreeMap<String, String> {
    const MAX_DOCS_READ: usize = 5_000;
    const FRONT_MATTER_BYTES: usize = 2_048;
    let mut ids = std::collections::BTreeMap::new();
    let docs = snapshot
        .paths()
        .iter()
        .filter(|p| p.ends_with(".md") || p.ends_with(".mdx"))
        .filter(|p| roots.iter().any(|r| p.starts_with(&format!("{r}/"))))
        .take(MAX_DOCS_READ);
    for doc in docs {
        let Ok(Some(bytes)) = snapshot.read(doc) else {
            continue;
        };
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(FRONT_MATTER_BYTES)]);
        let Some(front) = head
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---").map(|(front, _)| front))
        else {
            continue;
        };
        let id = front.lines().find_map(|line| {
            let value = line.strip_prefix("id:")?.trim().trim_matches(['"', '\'']);
            (!value.is_empty() && !value.contains('/')).then_some(value)
        });
        let (folder, name) = doc.rsplit_once('/').unwrap_or(("", doc));
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        if let Some(id) = id.filter(|id| *id != stem) {
            ids.insert(format!("{folder}/{id}"), doc.clone());
        }
    }
    ids
}

/// A folder a configuration names, from the configuration's own folder
/// (`..` folded, as a link is read); `None` outside the repository or for
/// the repository itself.
pub(super) fn config_relative(config: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let rel = rel.trim_end_matches('/');
    let written = if rel.starts_with("./") || rel.starts_with("../") {
        rel.to_owned()
    } else {
        format!("./{rel}")
    };
    crate::checks::cites::locate::reader_paths(config, &written)?
        .into_iter()
        .next()
        .filter(|p| !p.is_empty())
}

impl Docusaurus {
    /// The content folder that holds `page`, the deepest.
    pub(super) fn content_root_of(&self, page: &str) -> Option<&str> {
        self.content_roots
            .iter()
            .filter(|root| page.starts_with(&format!("{root}/")))
            .max_by_key(|root| root.len())
            .map(String::as_str)
    }

    fn read_from_index_address(&self, page: &str, target: &str) -> Option<String> {
        if self.trailing_slash || !self.holds(page) || target.starts_with('/') {
            return None;
        }
        let last = target
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(target);
        if last.ends_with(".md") || last.ends_with(".mdx") || target.contains("://") {
            return None;
        }
        let (folder, name) = page.rsplit_once('/')?;
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let folder_name = folder.rsplit('/').next().unwrap_or(folder);
        let index = stem.eq_ignore_ascii_case("index")
            || stem.eq_ignore_ascii_case("readme")
            || stem == folder_name;
        if !index {
            return None;
        }
        let written = if target.starts_with("./") || target.starts_with("../") {
            target.to_owned()
        } else {
            format!("./{target}")
        };
        // The folder above reads the link as the index's address does.
        crate::checks::cites::locate::reader_paths(folder, &written)?
            .into_iter()
            .next()
    }

    pub(super) fn holds(&self, page: &str) -> bool {
        self.content_root_of(page).is_some()
    }

    /// A link to a file that starts with neither `./` nor `../` (nor `/`),
    /// read from each content folder, the page's own first. A link to an
    /// address (no `.md` or `.mdx`) on a folder's index page (`index.md`,
    /// `README.md`, `x/x.md`) is read as a browser reads it from the index's
    /// address, the folder's own without a trailing slash: from the folder
    /// above, unless `trailingSlash: true` gives the address its slash.
    pub(super) fn more_paths(&self, page: &str, target: &str) -> Vec<String> {
        if let Some(above) = self.read_from_index_address(page, target) {
            return vec![above];
        }
        // An address (no `.md`) names a doc by the address its front
        // matter's `id` makes: `../api` from `docs/advanced/x.md` is the doc
        // `docs/API.md` whose id is `api`.
        if self.holds(page) && !target.starts_with('/') && !target.contains("://") {
            let written = if target.starts_with("./") || target.starts_with("../") {
                target.to_owned()
            } else {
                format!("./{target}")
            };
            let by_id = crate::checks::cites::locate::reader_paths(page, &written)
                .and_then(|tried| tried.into_iter().next())
                .and_then(|address| self.ids.get(address.trim_end_matches('/')));
            if let Some(doc) = by_id {
                return vec![doc.clone()];
            }
        }
        if target.starts_with("./") || target.starts_with("../") {
            return Vec::new();
        }
        // Docusaurus 2 and later read a link to a Markdown file that starts
        // with `/` from the content folders and the site's folder only, one
        // that starts with neither `./` nor `../` from those too before the
        // page's own (`docs/guide/x.md` on `website/docs/a/b.md` is
        // `website/docs/guide/x.md`).
        let markdown = {
            let file = target.split(['#', '?']).next().unwrap_or(target);
            file.ends_with(".md") || file.ends_with(".mdx")
        };
        let in_site = self
            .site
            .as_deref()
            .filter(|_| markdown && self.holds(page))
            .map(|site| match site {
                "" => target.trim_start_matches('/').to_owned(),
                site => format!("{site}/{}", target.trim_start_matches('/')),
            });
        if target.starts_with('/') {
            return in_site.into_iter().collect();
        }
        // A translated page's link is read from its locale's docs, then
        // from the site's own (where an untranslated page falls back to),
        // never from another locale's.
        let own = self.content_root_of(page);
        own.into_iter()
            .chain(
                self.content_roots
                    .iter()
                    .map(String::as_str)
                    .filter(|r| Some(*r) != own && !is_translation(r)),
            )
            .map(|root| format!("{root}/{target}"))
            .chain(in_site)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn an_address_names_the_doc_whose_id_makes_it() {
        let tree = MemorySnapshot::new(&[
            ("website/docusaurus.config.js", "docs: { path: '../docs' }"),
            ("docs/API.md", "---\nid: api\ntitle: API\n---\n## Buffers\n"),
            (
                "docs/advanced/Channels.md",
                "See [buffers](../api#buffers).\n",
            ),
            ("docs/Glossary.md", "---\nid: Glossary\n---\n"),
        ]);
        let site = sites(&tree).pop().expect("a site");
        assert_eq!(
            site.more_paths("docs/advanced/Channels.md", "../api"),
            ["docs/API.md"]
        );
        // An id the same as the file's name adds nothing; no doc, no path.
        assert!(site.ids.len() == 1);
        assert!(
            site.more_paths("docs/advanced/Channels.md", "../nowhere")
                .is_empty()
        );
    }

    #[test]
    fn a_version_one_site_reads_its_docs_from_the_folder_above_it() {
        let tree = MemorySnapshot::new(&[
            (
                "website/siteConfig.js",
                "const siteConfig = { title: 'x' };",
            ),
            (
                "website/package.json",
                r#"{ "devDependencies": { "docusaurus": "^1.14.0" } }"#,
            ),
            ("docs/concepts/middleware.md", "# Middleware\n"),
            ("docs/API/index.md", "[x](concepts/middleware.md)\n"),
            ("other/siteConfig.js", "module.exports = {};"),
            ("other/package.json", r#"{ "name": "not-a-site" }"#),
            ("other/docs/a.md", "# A\n"),
        ]);
        let found = sites(&tree);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].content_roots, ["docs"]);
        assert_eq!(
            found[0].more_paths("docs/API/index.md", "concepts/middleware.md"),
            ["docs/concepts/middleware.md"]
        );
        // `customDocsPath` names another folder.
        let tree = MemorySnapshot::new(&[
            ("website/siteConfig.js", "customDocsPath: 'guides',"),
            (
                "website/package.json",
                r#"{ "dependencies": { "docusaurus": "1.9.0" } }"#,
            ),
            ("guides/a.md", "# A\n"),
        ]);
        assert_eq!(sites(&tree)[0].content_roots, ["guides"]);
    }

    #[test]
    fn a_link_not_written_from_the_page_is_read_from_the_content_folder() {
        let tree = MemorySnapshot::new(&[
            (
                "website/docusaurus.config.ts",
                "presets: [['classic', { docs: { path: '../docs' } }]]",
            ),
            ("docs/api/Store.md", "# Store\n"),
            ("docs/usage/guide.md", "[store](api/Store.md)\n"),
            (
                "site/docusaurus.config.js",
                "module.exports = { path: '../../etc' }",
            ),
            ("site/docs/intro.md", "# Intro\n"),
        ]);
        // `../docs` from `website/` is the root's `docs`; a folder above the
        // repository is none of its pages.
        assert_eq!(
            sites(&tree),
            [
                Docusaurus {
                    content_roots: vec!["site/docs".to_owned()],
                    trailing_slash: false,
                    ids: Default::default(),
                    site: Some("site".to_owned()),
                },
                Docusaurus {
                    content_roots: vec!["docs".to_owned()],
                    trailing_slash: false,
                    ids: Default::default(),
                    site: Some("website".to_owned()),
                },
            ]
        );
        let site = Docusaurus {
            content_roots: vec!["docs".to_owned()],
            trailing_slash: false,
            ids: Default::default(),
            site: Some("website".to_owned()),
        };
        assert_eq!(
            site.more_paths("docs/usage/guide.md", "api/Store.md"),
            ["docs/api/Store.md", "website/api/Store.md"]
        );
        // From the site's folder, a path written from there
        // (`docs/guide.md` in `website/`), with `/` too; an address that is
        // no Markdown file is not.
        let site = Docusaurus {
            content_roots: vec!["website/docs".to_owned()],
            trailing_slash: false,
            ids: Default::default(),
            site: Some("website".to_owned()),
        };
        assert_eq!(
            site.more_paths("website/docs/a/b.md", "docs/c/d.mdx#part"),
            [
                "website/docs/docs/c/d.mdx#part",
                "website/docs/c/d.mdx#part"
            ]
        );
        assert_eq!(
            site.more_paths("website/docs/a/b.md", "/docs/c/d.md"),
            ["website/docs/c/d.md"]
        );
        assert!(
            site.more_paths("website/docs/a/b.md", "/docs/c/d")
                .is_empty()
        );
        assert!(
            site.more_paths("docs/usage/guide.md", "./api/Store.md")
                .is_empty()
        );
        assert!(
            site.more_paths("docs/usage/guide.md", "../api/Store.md")
                .is_empty()
        );
    }

    #[test]
    fn a_translated_page_reads_a_link_from_its_locale_then_from_the_sites_docs() {
        let tree = MemorySnapshot::new(&[
            ("website/docusaurus.config.js", "docs: { path: 'docs' }"),
            ("website/docs/concepts/html.mdx", "# HTML\n"),
            (
                "website/i18n/ja/docusaurus-plugin-content-docs/current/intro.mdx",
                "[html](concepts/html.mdx)\n",
            ),
            (
                "website/i18n/ko/docusaurus-plugin-content-docs/current/concepts/html.mdx",
                "# HTML\n",
            ),
            ("website/i18n/ja/code.json", "{}"),
        ]);
        let site = &sites(&tree)[0];
        let ja = "website/i18n/ja/docusaurus-plugin-content-docs/current";
        assert!(site.holds(&format!("{ja}/intro.mdx")));
        assert_eq!(
            site.more_paths(&format!("{ja}/intro.mdx"), "concepts/html.mdx"),
            [
                format!("{ja}/concepts/html.mdx"),
                "website/docs/concepts/html.mdx".to_owned(),
                "website/concepts/html.mdx".to_owned()
            ]
        );
        // An English page is never read from a locale's docs.
        assert_eq!(
            site.more_paths("website/docs/intro.mdx", "concepts/html.mdx"),
            [
                "website/docs/concepts/html.mdx",
                "website/concepts/html.mdx"
            ]
        );
    }

    #[test]
    fn an_index_pages_address_links_are_read_from_the_folder_above() {
        let site = Docusaurus {
            content_roots: vec!["docs".to_owned()],
            trailing_slash: false,
            ids: Default::default(),
            site: Some(String::new()),
        };
        // `/dev/architecture` is the index's address: `./architecture/x`
        // from it is `/dev/architecture/x`.
        assert_eq!(
            site.more_paths(
                "docs/dev/architecture/index.md",
                "./architecture/networking"
            ),
            ["docs/dev/architecture/networking"]
        );
        assert_eq!(
            site.more_paths(
                "docs/dev/architecture/architecture.md",
                "architecture/nodes"
            ),
            ["docs/dev/architecture/nodes"]
        );
        // A link to a file is read from the page's folder, as any page's.
        assert!(
            site.more_paths("docs/dev/architecture/index.md", "./networking.md")
                .is_empty()
        );
        // Not on a page that is no index, nor with `trailingSlash: true`.
        assert!(
            site.more_paths("docs/dev/guide.md", "./architecture/networking")
                .is_empty()
        );
        let slashed = Docusaurus {
            trailing_slash: true,
            ids: Default::default(),
            ..site
        };
        assert!(
            slashed
                .more_paths(
                    "docs/dev/architecture/index.md",
                    "./architecture/networking"
                )
                .is_empty()
        );
    }
}
