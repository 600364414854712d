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
    /// Every folder of the tree Hugo mounts into its content (the content
    /// folder, and each mount whose target is `content` or a folder of it,
    /// `../geps` at `content/geps`), repository-relative: a link between two
    /// of them is read in the site's layout, not the tree's.
    content_folders: Vec<String>,
    /// The content folder of each language, where the configuration gives
    /// them (`contentDir = "content/en"`), repository-relative.
    language_content: Vec<String>,
    /// Whether a link render hook reads a page's links as Hugo pages
    /// (`.Page.GetPage`: from the page, then from its content folder): the
    /// embedded hook, on by default for a site of several languages and by
    /// `renderHooks.link.enableDefault = true`, or the site's or a theme's
    /// own `render-link.html`.
    link_hook: bool,
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
    let read_config = |root: &str| -> String {
        CONFIGS
            .iter()
            .filter_map(|name| {
                snapshot
                    .read_text_to_parse(&join(root, name))
                    .ok()
                    .flatten()
            })
            .map(|text| text.to_string())
            .collect()
    };
    // A site's content is its `content/` folder, or the folders its module
    // mounts there (`source: ../../../docs`, `target: content`): Hugo then
    // mounts no default.
    let sites: Vec<(&String, String, String)> = roots
        .iter()
        .filter_map(|root| {
            let config = read_config(root);
            let mounted = content_mounts(&config)
                .into_iter()
                .filter_map(|source| crate::snapshot::joined(root, source))
                .find(|dir| !dir.is_empty() && has_folder(paths, dir));
            let content = mounted.or_else(|| {
                let own = join(root, "content");
                has_folder(paths, &own).then_some(own)
            })?;
            Some((root, config, content))
        })
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
        .map(|(site, config, content)| {
            let mut mounts = vec![site.clone()];
            mounts.extend(themes.iter().filter(|t| *t != site).cloned());
            let language_content: Vec<String> = content_dirs(&config)
                .into_iter()
                .map(|dir| join(site, dir.trim_matches('/')))
                .filter(|dir| has_folder(paths, dir))
                .collect();
            let own_hook = mounts.iter().any(|root| {
                [
                    "layouts/_default/_markup/render-link.html",
                    "layouts/_markup/render-link.html",
                ]
                .iter()
                .any(|hook| has_file(paths, &join(root, hook)))
            });
            let link_hook = language_content.len() >= 2 || enables_link_hook(&config) || own_hook;
            let mut content_folders: Vec<String> = mounted_into_content(&config)
                .into_iter()
                .filter_map(|source| crate::snapshot::joined(site, source))
                .filter(|dir| !dir.is_empty() && has_folder(paths, dir))
                .chain(std::iter::once(content.clone()))
                .collect();
            content_folders.sort();
            content_folders.dedup();
            Hugo {
                content,
                mounts,
                content_folders,
                language_content,
                link_hook,
            }
        })
        .collect()
}

/// The `contentDir` values a configuration's text gives its languages.
fn content_dirs(config: &str) -> Vec<&str> {
    static DIR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        regex::Regex::new(r#"(?m)^\s*"?contentDir"?\s*[:=]\s*["']?([^"'\s,#]+)"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    dir.captures_iter(config)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|d| !d.contains(".."))
        .collect()
}

/// The `source` of each module mount a configuration's text targets at
/// `content` (YAML `- source: ../docs` then `target: content`, TOML's
/// `[[module.mounts]]` alike), as written: relative to the site's folder.
fn content_mounts(config: &str) -> Vec<&str> {
    mounts_of(config)
        .into_iter()
        .filter(|(_, target)| *target == "content")
        .map(|(source, _)| source)
        .collect()
}

/// The `source` of each module mount a configuration's text targets at
/// `content` or a folder of it (`target: content/geps`), as written.
fn mounted_into_content(config: &str) -> Vec<&str> {
    mounts_of(config)
        .into_iter()
        .filter(|(_, target)| target.split('/').next() == Some("content"))
        .map(|(source, _)| source)
        .collect()
}

/// Each module mount a configuration's text gives, `(source, target)` as
/// written: a mount's `target` is read from its own lines, up to the next
/// mount's `source`.
fn mounts_of(config: &str) -> Vec<(&str, &str)> {
    static SOURCE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static TARGET: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let source = SOURCE.get_or_init(|| {
        regex::Regex::new(r#"(?m)^[\s-]*"?source"?\s*[:=]\s*["']?([^"'\s,#}]+)"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let target = TARGET.get_or_init(|| {
        regex::Regex::new(r#"(?m)^[\s-]*"?target"?\s*[:=]\s*["']?([^"'\s,#}]+)["']?\s*(?:$|[,#}])"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let found: Vec<regex::Captures<'_>> = source.captures_iter(config).collect();
    found
        .iter()
        .enumerate()
        .filter_map(|(i, caps)| {
            let whole = caps.get(0)?;
            let end = found
                .get(i + 1)
                .and_then(|next| next.get(0))
                .map_or(config.len(), |m| m.start())
                .min(whole.end() + 400);
            let entry = config.get(whole.end()..end)?;
            let to = target.captures(entry)?.get(1)?.as_str();
            Some((caps.get(1)?.as_str(), to))
        })
        .collect()
}

/// Whether a configuration's text turns the embedded link render hook on
/// (`enableDefault = true` under `renderHooks.link`).
fn enables_link_hook(config: &str) -> bool {
    config.split("link").skip(1).any(|after| {
        let near = &after[..after.len().min(120)];
        near.contains("enableDefault") && near.contains("true")
    })
}

impl Hugo {
    /// Where a link render hook finds a page a link of `page` names
    /// (`docs/tasks/run.md`, neither `./` nor `../` nor `/`): from the
    /// content folder of the page's language, as `.Page.GetPage` reads it.
    pub(in crate::checks::cites) fn more_paths(&self, page: &str, target: &str) -> Vec<String> {
        if !self.link_hook
            || target.starts_with("./")
            || target.starts_with("../")
            || target.starts_with('/')
            || target.contains("://")
        {
            return Vec::new();
        }
        let root = self
            .language_content
            .iter()
            .filter(|dir| page.starts_with(&format!("{dir}/")))
            .max_by_key(|dir| dir.len())
            .unwrap_or(&self.content);
        vec![format!("{root}/{target}")]
    }

    /// Whether Hugo builds `page`: it is under the site's content folder.
    /// The folder of the tree Hugo mounts into its content that holds
    /// `path` (the deepest), if any.
    pub(in crate::checks::cites) fn content_folder_of(&self, path: &str) -> Option<&str> {
        self.content_folders
            .iter()
            .filter(|dir| super::in_folder(dir, path))
            .max_by_key(|dir| dir.len())
            .map(String::as_str)
    }

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

/// The old addresses a site keeps serving for its pages, from their front
/// matter: Hugo's `aliases:`, jekyll-redirect-from's `redirect_from:`, and
/// the `redirectFrom:` of Gatsby-built docs platforms, as a path of the tree
/// (no trailing `/`) → the page that lists it. Each generator writes a
/// redirect to the page there, so a link to the old address lands on it. A
/// relative alias (`../configuration-syntax/types_and_values/`) is read from
/// its page's folder, as Hugo joins it. One from the site's root
/// (`/react/development-testing/static-typing`) names an address whose
/// leading segments are the site's base path and whose rest is read under
/// the folder the site is built from, which the tree does not say: it is
/// read under each folder above the page, its first segments dropped in
/// turn while two are left (`docs/source/development-testing/static-typing`).
pub(in crate::checks::cites) fn page_aliases(
    records: &[(String, std::sync::Arc<str>)],
) -> std::collections::BTreeMap<String, String> {
    /// The most aliases kept: front matter lists a page's old addresses.
    const MAX_ALIASES: usize = 10_000;
    const KEYS: [&str; 4] = [
        "aliases:",
        "redirect_from:",
        "redirectFrom:",
        "redirect-from:",
    ];
    let mut aliases = std::collections::BTreeMap::new();
    for (record, text) in records {
        let Some(front) = text
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---").map(|(front, _)| front))
        else {
            continue;
        };
        let lines: Vec<&str> = front.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let Some(inline) = KEYS.iter().find_map(|key| line.strip_prefix(key)) else {
                continue;
            };
            let inline = inline.trim();
            let listed: Vec<&str> = if let Some(items) = inline.strip_prefix('[') {
                items.trim_end_matches(']').split(',').collect()
            } else if !inline.is_empty() {
                vec![inline]
            } else {
                lines[at + 1..]
                    .iter()
                    .take_while(|line| line.starts_with([' ', '\t', '-']))
                    .filter_map(|line| line.trim_start().strip_prefix('-'))
                    .collect()
            };
            for alias in listed {
                let alias = alias.split(" #").next().unwrap_or(alias);
                let alias = alias.trim().trim_matches(['"', '\'']).trim();
                if alias.is_empty() || alias.contains("://") {
                    continue;
                }
                for path in alias_paths(record, alias) {
                    aliases.entry(path).or_insert_with(|| record.clone());
                    if aliases.len() >= MAX_ALIASES {
                        return aliases;
                    }
                }
            }
        }
    }
    aliases
}

/// The tree paths an alias of the page `record` may stand for (see
/// [`page_aliases`]).
fn alias_paths(record: &str, alias: &str) -> Vec<String> {
    let Some(from_root) = alias.strip_prefix('/') else {
        let written = if alias.starts_with("./") || alias.starts_with("../") {
            alias.to_owned()
        } else {
            format!("./{alias}")
        };
        return crate::checks::cites::locate::reader_paths(record, &written)
            .and_then(|tried| tried.into_iter().next())
            .map(|path| path.trim_end_matches('/').to_owned())
            .into_iter()
            .collect();
    };
    let segments: Vec<&str> = from_root
        .split('/')
        .filter(|s| !s.is_empty() && *s != "." && *s != "..")
        .collect();
    let mut paths = Vec::new();
    let mut folder = record.rsplit_once('/').map(|(folder, _)| folder);
    while let Some(root) = folder {
        for dropped in 0..segments.len() {
            let tail = &segments[dropped..];
            if dropped > 0 && tail.len() < 2 {
                break;
            }
            paths.push(format!("{root}/{}", tail.join("/")));
        }
        folder = root.rsplit_once('/').map(|(up, _)| up);
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_pages_relative_aliases_are_its_old_addresses() {
        let page = "---\ntitle: Types\naliases:\n  - ../configuration-syntax/types/ # the old address\n  - /docs/latest/types/\n---\n# Types\n";
        let other = "---\naliases: [\"./old-name/\"]\n---\n";
        let found = page_aliases(&[
            (
                "docs/get-started/expressions/types.md".to_owned(),
                page.into(),
            ),
            ("docs/reference/new-name.md".to_owned(), other.into()),
            ("docs/plain.md".to_owned(), "# No front matter\n".into()),
        ]);
        let pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|(a, p)| (a.as_str(), p.as_str()))
            .collect();
        let page_of = |alias: &str| found.get(alias).map(String::as_str);
        assert_eq!(
            page_of("docs/get-started/configuration-syntax/types"),
            Some("docs/get-started/expressions/types.md")
        );
        assert_eq!(
            page_of("docs/reference/old-name"),
            Some("docs/reference/new-name.md")
        );
        // From the site's root: under a folder above the page, the base
        // path's segments dropped while two are left.
        assert_eq!(
            page_of("docs/latest/types"),
            Some("docs/get-started/expressions/types.md")
        );
        assert_eq!(page_of("docs/types"), None);
        assert!(pairs.iter().all(|(_, page)| *page != "docs/plain.md"));
    }

    #[test]
    fn a_pages_redirect_from_front_matter_keeps_its_old_addresses() {
        let jekyll = "---\ntitle: Install\nredirect_from:\n  - ./setup/\n---\n";
        let gatsby =
            "---\ntitle: TypeScript\nredirectFrom: /react/development-testing/static-typing\n---\n";
        let found = page_aliases(&[
            ("docs/guide/install.md".to_owned(), jekyll.into()),
            ("docs/source/data/typescript.mdx".to_owned(), gatsby.into()),
        ]);
        assert_eq!(
            found.get("docs/guide/setup").map(String::as_str),
            Some("docs/guide/install.md")
        );
        assert_eq!(
            found
                .get("docs/source/development-testing/static-typing")
                .map(String::as_str),
            Some("docs/source/data/typescript.mdx")
        );
        assert_eq!(found.get("docs/source/static-typing"), None);
    }

    #[test]
    fn a_link_between_folders_hugo_mounts_apart_leaves_the_site() {
        let config = "[[module.mounts]]\nsource = \"content/en\"\ntarget = \"content\"\n\n[[module.mounts]]\nsource = \"../geps\"\ntarget = \"content/geps\"\n";
        let tree = MemorySnapshot::new(&[
            ("site/hugo.toml", config),
            ("site/content/en/geps/overview.md", "# Overview\n"),
            ("geps/gep-1/index.md", "[states](../overview.md)\n"),
            ("geps/gep-2/index.md", "# Two\n"),
            ("README.md", "# Readme\n"),
        ]);
        let renderers = super::super::Renderers::read(&tree);
        // From a mounted folder to a file of another: the tree's path is
        // not the site's.
        assert_eq!(
            renderers.leaves_site("geps/gep-1/index.md", "site/content/en/geps/overview.md"),
            Some("Hugo")
        );
        assert_eq!(
            renderers.leaves_site("geps/gep-1/index.md", "README.md"),
            Some("Hugo")
        );
        // Within one mounted folder the layout is the tree's.
        assert_eq!(
            renderers.leaves_site("geps/gep-1/index.md", "geps/gep-2/index.md"),
            None
        );
        // A page no mount holds is the forge's.
        assert_eq!(
            renderers.leaves_site("README.md", "geps/gep-2/index.md"),
            None
        );
    }

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
    fn a_site_of_several_languages_reads_links_as_pages_of_its_content() {
        let config = "[languages]\n  [languages.en]\n    contentDir = \"content/en\"\n  [languages.zh]\n    contentDir = \"content/zh\"\n";
        let tree = MemorySnapshot::new(&[
            ("site/hugo.toml", config),
            ("site/content/en/docs/a.md", "[b](docs/tasks/b.md)\n"),
            ("site/content/en/docs/tasks/b.md", "# B\n"),
            ("site/content/zh/docs/a.md", "[b](docs/tasks/b.md)\n"),
        ]);
        let site = sites(&tree).pop().expect("a site");
        assert_eq!(
            site.more_paths("site/content/zh/docs/a.md", "docs/tasks/b.md"),
            ["site/content/zh/docs/tasks/b.md"]
        );
        assert!(
            site.more_paths("site/content/en/docs/a.md", "./b.md")
                .is_empty()
        );
        // One language and no hook: the forge's reading alone.
        let plain = MemorySnapshot::new(&[
            ("hugo.toml", "title = 'x'\n"),
            ("content/docs/a.md", "[b](docs/b.md)\n"),
        ]);
        let site = sites(&plain).pop().expect("a site");
        assert!(site.more_paths("content/docs/a.md", "docs/b.md").is_empty());
    }

    #[test]
    fn a_module_mount_gives_the_site_its_content() {
        let config = "module:\n  mounts:\n    - source: layouts\n      target: layouts\n    - source: '../../docs'   # the pages\n      target: 'content'\n      excludeFiles: 'talks/**'\n";
        let tree = MemorySnapshot::new(&[
            ("tools/site/hugo.yaml", config),
            ("tools/site/content/.gitkeep", ""),
            ("tools/site/layouts/_default/_markup/render-link.html", "\n"),
            ("docs/faq/a.md", "[b](reference/b.md)\n"),
            ("docs/reference/b.md", "# B\n"),
        ]);
        let site = sites(&tree).pop().expect("a site");
        assert!(site.holds("docs/faq/a.md"));
        assert_eq!(
            site.more_paths("docs/faq/a.md", "reference/b.md"),
            ["docs/reference/b.md"]
        );
        // TOML's mounts, and a mount of another component only.
        let toml = "[[module.mounts]]\nsource = \"pages\"\ntarget = \"content\"\n";
        assert_eq!(content_mounts(toml), ["pages"]);
        assert!(
            content_mounts("[[module.mounts]]\nsource = \"img\"\ntarget = \"static\"\n").is_empty()
        );
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
