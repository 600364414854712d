//! MkDocs, as `mkdocs.yml` places it (read as data, never run): a site's
//! pages are the files under its `docs_dir` (`docs/` unless it says
//! otherwise), linked as files relative to each page, as the forge reads
//! them. What MkDocs adds is what a build makes: pages its nav lists that a
//! plugin or a hook writes at build time (`gen-files`, `coverage`, an
//! `on_files` hook), and old pages its `redirects` plugin serves.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::snapshot::{Snapshot, has_file};

/// Plugins that write pages into the site as it builds.
const GENERATORS: &[&str] = &["gen-files", "coverage", "api-autonav", "blog"];

/// Plugins that stitch other folders or languages into the site's URL
/// space: a link there may land on a page this `docs_dir` does not hold.
const STITCHERS: &[&str] = &[
    "monorepo",
    "multirepo",
    "i18n",
    "static-i18n",
    "techdocs-core",
];

/// The configuration bytes read at most.
const MAX_CONFIG_BYTES: usize = 1024 * 1024;

/// One MkDocs site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct MkDocs {
    config: String,
    /// Its `docs_dir`, repository-relative.
    docs: String,
    /// What writes pages at build time (a plugin's name, or `hooks`), if
    /// anything does.
    generator: Option<String>,
    /// The pages its nav lists that the tree lacks, repository-relative.
    listed_missing: BTreeSet<String>,
    /// Old page → where the `redirects` plugin sends its readers, both
    /// repository-relative.
    redirects: BTreeMap<String, String>,
    /// A plugin stitches other trees into its URL space.
    stitched: bool,
}

/// Every MkDocs site of the tree, from each `mkdocs.yml`.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<MkDocs> {
    let paths = snapshot.paths();
    paths
        .iter()
        .filter(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            matches!(name, "mkdocs.yml" | "mkdocs.yaml")
                && !crate::checks::cites::locate::is_vendored(p)
        })
        .filter_map(|config| {
            // Sized before it is read; a configuration past its cap is not
            // read at all (a cut YAML would be another document).
            let text = snapshot.read_text_to_parse(config).ok().flatten()?;
            if text.len() > MAX_CONFIG_BYTES {
                return None;
            }
            let value = crate::facts::json::parse_data(config, &text).ok()?;
            Some(MkDocs::from_config(config, &value, paths))
        })
        .collect()
}

impl MkDocs {
    fn from_config(config: &str, value: &Value, paths: &[String]) -> MkDocs {
        let root = config.rsplit_once('/').map_or("", |(folder, _)| folder);
        let join = |a: &str, b: &str| {
            let b = b.trim_start_matches("./").trim_end_matches('/');
            if a.is_empty() {
                b.to_owned()
            } else {
                format!("{a}/{b}")
            }
        };
        let docs = join(
            root,
            value
                .get("docs_dir")
                .and_then(Value::as_str)
                .unwrap_or("docs"),
        );
        let plugins: Vec<(String, Option<&Value>)> = match value.get("plugins") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Value::String(name) => Some((name.clone(), None)),
                    Value::Object(map) => map.iter().next().map(|(k, v)| (k.clone(), Some(v))),
                    _ => None,
                })
                .collect(),
            Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), Some(v))).collect(),
            _ => Vec::new(),
        };
        let generator = plugins
            .iter()
            .map(|(name, _)| name.trim_start_matches("mkdocs-"))
            .find(|name| GENERATORS.contains(name))
            .map(str::to_owned)
            .or_else(|| value.get("hooks").map(|_| "hooks".to_owned()));
        let mut listed = Vec::new();
        if let Some(nav) = value.get("nav") {
            nav_pages(nav, &mut listed, 0);
        }
        let listed_missing = listed
            .iter()
            .map(|page| join(&docs, page))
            .filter(|page| !has_file(paths, page))
            .collect();
        let redirects = plugins
            .iter()
            .find(|(name, _)| name.trim_start_matches("mkdocs-") == "redirects")
            .and_then(|(_, options)| (*options)?.get("redirect_maps")?.as_object())
            .map(|maps| {
                maps.iter()
                    .filter_map(|(old, new)| Some((join(&docs, old), join(&docs, new.as_str()?))))
                    .collect()
            })
            .unwrap_or_default();
        let stitched = plugins
            .iter()
            .any(|(name, _)| STITCHERS.contains(&name.trim_start_matches("mkdocs-")))
            || text_includes_other_configs(value);
        MkDocs {
            stitched,
            config: config.to_owned(),
            docs,
            generator,
            listed_missing,
            redirects,
        }
    }

    /// How deep its `docs_dir` is: the deepest of two sites holding a page
    /// builds it.
    pub(in crate::checks::cites) fn docs_len(&self) -> usize {
        self.docs.len()
    }

    /// Whether every link of its pages lands in its own `docs_dir`: no
    /// plugin stitches other trees or languages in.
    pub(in crate::checks::cites) fn self_contained(&self) -> bool {
        !self.stitched
    }

    /// Whether MkDocs builds `page`: it is under the site's `docs_dir`.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        self.docs.is_empty()
            || page
                .strip_prefix(&self.docs)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// Why the site serves `path` (repository-relative) though the tree
    /// lacks it, if it does: a page its nav lists that a build step writes,
    /// or an old page its redirects plugin keeps.
    pub(in crate::checks::cites) fn serves(&self, path: &str) -> Option<String> {
        if let Some(to) = self.redirects.get(path) {
            return Some(format!(
                "{path} (a page {}'s redirects plugin serves, sending its readers to {to})",
                self.config
            ));
        }
        let generator = self.generator.as_deref()?;
        self.listed_missing.contains(path).then(|| {
            let by = if generator == "hooks" {
                "its hooks".to_owned()
            } else {
                format!("its `{generator}` plugin")
            };
            format!(
                "{path} (a page {}'s nav lists and {by} may write as the site builds)",
                self.config
            )
        })
    }
}

/// Whether a nav entry pulls in another site's configuration (the monorepo
/// plugin's `!include`, read as a string naming a `mkdocs.yml`).
fn text_includes_other_configs(value: &Value) -> bool {
    let mut pages = Vec::new();
    if let Some(nav) = value.get("nav") {
        nav_pages(nav, &mut pages, 0);
    }
    pages
        .iter()
        .any(|p| p.ends_with("mkdocs.yml") || p.ends_with("mkdocs.yaml"))
}

/// The page paths a nav lists (`- Home: index.md`, nested sections), skipping
/// links to other sites.
fn nav_pages(nav: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    match nav {
        Value::String(page) if !page.contains("://") => out.push(page.clone()),
        Value::Array(items) => items.iter().for_each(|i| nav_pages(i, out, depth + 1)),
        Value::Object(map) => map.values().for_each(|v| nav_pages(v, out, depth + 1)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(config: &str, files: &[&str]) -> MkDocs {
        let paths: Vec<String> = files.iter().map(|f| (*f).to_owned()).collect();
        let value = crate::facts::json::parse_data("mkdocs.yml", config).expect("yaml");
        MkDocs::from_config("mkdocs.yml", &value, &paths)
    }

    #[test]
    fn serves_the_pages_a_plugin_writes_and_the_ones_it_redirects() {
        let mkdocs = site(
            "site_name: x\nnav:\n  - Home: index.md\n  - Reference: reference/\n  - Coverage: coverage.md\nplugins:\n  - search\n  - gen-files:\n      scripts: [docs/gen.py]\n  - redirects:\n      redirect_maps:\n        old.md: index.md\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        assert!(mkdocs.holds("docs/index.md"));
        assert!(mkdocs.serves("docs/coverage.md").is_some());
        assert!(
            mkdocs
                .serves("docs/old.md")
                .unwrap()
                .contains("docs/index.md")
        );
    }

    #[test]
    fn stays_quiet_for_a_page_no_build_step_writes() {
        let plain = site(
            "site_name: x\nnav:\n  - Home: index.md\n  - Gone: gone.md\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        assert_eq!(plain.serves("docs/gone.md"), None);
        let generated = site(
            "docs_dir: site\nnav:\n  - Gone: gone.md\nplugins:\n  - coverage\n",
            &["site/index.md", "mkdocs.yml"],
        );
        assert!(!generated.holds("docs/index.md"));
        assert_eq!(generated.serves("site/other.md"), None);
        assert!(generated.serves("site/gone.md").is_some());
    }
}
