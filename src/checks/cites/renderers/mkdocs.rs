//! MkDocs, as `mkdocs.yml` places it (read as data, never run): a site's
//! pages are the files under its `docs_dir` (`docs/` unless it says
//! otherwise), linked as files relative to each page, as the forge reads
//! them. What MkDocs adds is what a build makes: pages its nav lists that a
//! plugin or a hook writes at build time (`gen-files`, `coverage`, an
//! `on_files` hook), and old pages its `redirects` plugin serves.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::rewriting::Rewriter;
use crate::snapshot::{Snapshot, has_file};

/// Plugins that write pages into the site as it builds, each with the
/// option that names where (under the `docs_dir`) and its default: the
/// `blog` plugin writes its archive and category pages under its
/// `blog_dir`, `coverage` its report at `page_path`, `api-autonav` its
/// pages under `api_root_uri`. `gen-files` writes wherever its scripts say.
const GENERATORS: &[(&str, Option<(&str, &str)>)] = &[
    ("gen-files", None),
    ("coverage", Some(("page_path", "coverage"))),
    ("api-autonav", Some(("api_root_uri", "reference"))),
    ("blog", Some(("blog_dir", "blog"))),
];

/// What writes pages into a site as it builds, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Generator {
    /// A plugin's name, or `hooks`.
    by: String,
    /// The page (without `.md`) or folder, repository-relative, it writes
    /// under; `None` where it may write any page.
    at: Option<String>,
}

impl Generator {
    fn writes(&self, path: &str) -> bool {
        self.at.as_deref().is_none_or(|at| {
            path.strip_prefix(at)
                .is_some_and(|rest| rest == ".md" || rest.starts_with('/'))
        })
    }
}

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
    /// What writes pages at build time, and where.
    generators: Vec<Generator>,
    /// The pages its nav lists that the tree lacks, repository-relative.
    listed_missing: BTreeSet<String>,
    /// Old page → where the `redirects` plugin sends its readers, both
    /// repository-relative.
    redirects: BTreeMap<String, String>,
    /// A plugin stitches other trees into its URL space.
    stitched: bool,
    /// The language folders (repository-relative) the `i18n` plugin serves
    /// as the site's root (`docs_structure: folder`): a page of
    /// `docs/en/` is served as if it sat in `docs/`, beside the folders the
    /// languages share (`docs/assets/`).
    language_folders: Vec<String>,
    /// Folders under its `docs_dir` (repository-relative) a `gen-files`
    /// script names, each with that script: the script may write any page
    /// there as the site builds.
    script_folders: BTreeMap<String, String>,
    /// Its hooks that rewrite a page's Markdown or HTML as the site builds
    /// (`on_page_markdown`, `on_page_content`).
    rewriting_hooks: Vec<Rewriter>,
    /// With the `autolinks` plugin, which rewrites a link written as a bare
    /// file name to the one file of that name under the `docs_dir`: each
    /// name there → its path, `None` where two files share it.
    autolinked: BTreeMap<String, Option<String>>,
    /// Pages its nav lists that the tree lacks, each with a build file of
    /// the repository that names it (`tools/generate_docs.sh` running
    /// `protoc … --doc_opt=markdown,_ankaios.proto.md`): written before the
    /// site builds.
    built_by: BTreeMap<String, String>,
    /// The folder of the tree a build file copies into its `docs_dir` when
    /// the tree has no such folder (`cp -a docs/* $DOCS_ROOT`, with
    /// `DOCS_ROOT=docs-gen`), with that build file: its pages are the
    /// site's.
    copied_from: Option<(String, String)>,
    /// `use_directory_urls` (MkDocs' default): `a/page.md` is served at
    /// `a/page/`, where a link MkDocs does not rewrite is read by the browser.
    directory_urls: bool,
    /// `strict`: a link MkDocs cannot resolve fails the build.
    strict: bool,
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
            let value = crate::facts::json::parse_config(config, &text).ok()?;
            let mut site = MkDocs::from_config(config, &value, paths);
            // A `docs_dir` the tree lacks, written by a build file that
            // copies a folder of the tree there: that folder's pages are the
            // site's.
            if !paths
                .iter()
                .any(|p| super::in_folder(&site.docs, p) && !site.docs.is_empty())
            {
                site.copied_from =
                    crate::checks::cites::exemptions::generated_page::generator_files(snapshot)
                        .into_iter()
                        .filter(|(path, _)| {
                            crate::checks::cites::exemptions::generated_page::is_build_file(path)
                        })
                        .find_map(|(build, text)| {
                            let folder = copied_into(&text, &site.docs)?;
                            paths
                                .iter()
                                .any(|p| super::in_folder(&folder, p))
                                .then_some((folder, build))
                        });
            }
            for script in site.gen_files_scripts(&value) {
                let Some(code) = snapshot.read_text_to_parse(&script).ok().flatten() else {
                    continue;
                };
                for folder in folders_named(&code) {
                    let folder = format!("{}/{folder}", site.docs);
                    site.script_folders
                        .entry(folder)
                        .or_insert_with(|| script.clone());
                }
            }
            // A page the nav lists and the tree lacks, whose name a build
            // file of the repository writes (a script run before the site
            // builds): read only when the nav lists such a page.
            if !site.listed_missing.is_empty() {
                let builds: Vec<(String, std::sync::Arc<str>)> =
                    crate::checks::cites::exemptions::generated_page::generator_files(snapshot)
                        .into_iter()
                        .filter(|(path, _)| {
                            crate::checks::cites::exemptions::generated_page::is_build_file(path)
                        })
                        .collect();
                for page in &site.listed_missing {
                    let name = page.rsplit('/').next().unwrap_or(page);
                    if let Some((build, _)) = builds.iter().find(|(_, text)| text.contains(name)) {
                        site.built_by.insert(page.clone(), build.clone());
                    }
                }
            }
            // Hooks write pages where one adds files (`on_files`) or writes
            // into the `docs_dir` before the build (`on_pre_build`,
            // `on_config`); when every hook file reads and none of them
            // does, they write none.
            let mut hooks_write = false;
            for hook in site.hook_files(&value) {
                let Some(code) = snapshot.read_text_to_parse(&hook).ok().flatten() else {
                    hooks_write = true;
                    continue;
                };
                hooks_write |= ["def on_files(", "def on_pre_build(", "def on_config("]
                    .iter()
                    .any(|event| code.contains(event));
                if ["def on_page_markdown(", "def on_page_content("]
                    .iter()
                    .any(|event| code.contains(event))
                {
                    site.rewriting_hooks.push(Rewriter::of(hook, &code));
                }
            }
            if !hooks_write {
                site.generators.retain(|g| g.by != "hooks");
            }
            Some(site)
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
        let mut generators: Vec<Generator> = plugins
            .iter()
            .filter_map(|(name, options)| {
                let name = name.trim_start_matches("mkdocs-");
                let (by, option) = GENERATORS.iter().find(|(by, _)| *by == name)?;
                let at = option.map(|(key, default)| {
                    let at = options
                        .and_then(|o| o.get(key))
                        .and_then(Value::as_str)
                        .unwrap_or(default);
                    join(&docs, at)
                });
                Some(Generator {
                    by: (*by).to_owned(),
                    at,
                })
            })
            .collect();
        if value.get("hooks").is_some() {
            generators.push(Generator {
                by: "hooks".to_owned(),
                at: None,
            });
        }
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
        let language_folders = plugins
            .iter()
            .filter(|(name, _)| {
                matches!(name.trim_start_matches("mkdocs-"), "i18n" | "static-i18n")
            })
            .filter_map(|(_, options)| *options)
            .filter(|options| {
                options.get("docs_structure").and_then(Value::as_str) == Some("folder")
            })
            .filter_map(|options| options.get("languages")?.as_array())
            .flatten()
            .filter_map(|language| language.get("locale")?.as_str())
            .filter(|locale| !locale.is_empty() && !locale.contains(['/', '.']))
            .map(|locale| join(&docs, locale))
            .collect();
        let mut autolinked: BTreeMap<String, Option<String>> = BTreeMap::new();
        if plugins
            .iter()
            .any(|(name, _)| name.trim_start_matches("mkdocs-") == "autolinks")
        {
            let prefix = format!("{docs}/");
            for path in paths
                .iter()
                .filter(|p| docs.is_empty() || p.starts_with(&prefix))
            {
                let name = path.rsplit('/').next().unwrap_or(path);
                autolinked
                    .entry(name.to_owned())
                    .and_modify(|one| *one = None)
                    .or_insert_with(|| Some(path.clone()));
            }
        }
        MkDocs {
            copied_from: None,
            directory_urls: value
                .get("use_directory_urls")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            strict: value
                .get("strict")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            built_by: BTreeMap::new(),
            autolinked,
            stitched,
            language_folders,
            script_folders: BTreeMap::new(),
            rewriting_hooks: Vec::new(),
            config: config.to_owned(),
            docs,
            generators,
            listed_missing,
            redirects,
        }
    }

    /// Its hook files (repository-relative).
    fn hook_files(&self, value: &Value) -> Vec<String> {
        self.config_relative(value.get("hooks"))
    }

    /// The files a list of the configuration names relative to its folder
    /// (hooks, scripts), repository-relative; none that climbs out.
    fn config_relative(&self, list: Option<&Value>) -> Vec<String> {
        let root = self
            .config
            .rsplit_once('/')
            .map_or("", |(folder, _)| folder);
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|file| file.trim_start_matches("./"))
            .filter(|file| !file.split('/').any(|s| s == ".."))
            .map(|file| {
                if root.is_empty() {
                    file.to_owned()
                } else {
                    format!("{root}/{file}")
                }
            })
            .collect()
    }

    /// Its hooks that rewrite pages as it builds, and how to name the site.
    pub(super) fn rewriters(&self) -> (&[Rewriter], String) {
        (
            &self.rewriting_hooks,
            format!("the MkDocs site of {}", self.config),
        )
    }

    /// The scripts (repository-relative) its `gen-files` plugin runs as the
    /// site builds.
    fn gen_files_scripts(&self, value: &Value) -> Vec<String> {
        let options = match value.get("plugins") {
            Some(Value::Array(items)) => items
                .iter()
                .find_map(|item| item.as_object()?.get("gen-files")),
            Some(Value::Object(map)) => map.get("gen-files"),
            _ => None,
        };
        self.config_relative(options.and_then(|o| o.get("scripts")))
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

    /// Whether MkDocs builds `page`: it is under the site's `docs_dir`, or
    /// under the folder a build file copies there.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        super::in_folder(&self.docs, page)
            || self
                .copied_from
                .as_ref()
                .is_some_and(|(folder, _)| super::in_folder(folder, page))
    }

    /// The address `page` is served at when it is a folder of its own
    /// (`docs/migration.md` at `docs/migration/`, read as that folder's
    /// `index.md`), as the site's directory URLs serve every page but an
    /// index: a link MkDocs leaves as written is read from there by the
    /// browser. Not in a `strict` build, where such a link fails it.
    pub(in crate::checks::cites) fn page_folder(&self, page: &str) -> Option<String> {
        if !self.directory_urls || self.strict {
            return None;
        }
        let stem = page.strip_suffix(".md")?;
        let name = stem.rsplit('/').next().unwrap_or(stem);
        (!name.eq_ignore_ascii_case("index") && !name.eq_ignore_ascii_case("readme"))
            .then(|| format!("{stem}/index.md"))
    }

    /// The file a link written as a bare file name (`installation.md`)
    /// lands on, when the `autolinks` plugin rewrites it: the one file of
    /// that name under the `docs_dir`.
    pub(in crate::checks::cites) fn more_paths(&self, page: &str, target: &str) -> Vec<String> {
        // A page of a language folder is served from the site's root, so
        // its relative links are read from where it would sit without the
        // folder.
        if let Some(served) = self.language_folders.iter().find_map(|folder| {
            let rest = page.strip_prefix(folder.as_str())?.strip_prefix('/')?;
            Some(if self.docs.is_empty() {
                rest.to_owned()
            } else {
                format!("{}/{rest}", self.docs)
            })
        }) {
            return crate::checks::cites::locate::reader_paths(&served, target)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| super::in_folder(&self.docs, p))
                .collect();
        }
        let name = target.strip_prefix("./").unwrap_or(target);
        if name.is_empty() || name.contains('/') {
            return Vec::new();
        }
        self.autolinked
            .get(name)
            .cloned()
            .flatten()
            .into_iter()
            .collect()
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
        if let Some((folder, script)) = self.script_folders.iter().find(|(folder, _)| {
            path.strip_prefix(folder.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        }) {
            return Some(format!(
                "{path} (under `{folder}/`, a folder {script}, the `gen-files` script of {}, writes pages into as the site builds)",
                self.config
            ));
        }
        if let Some(build) = self.built_by.get(path) {
            return Some(format!(
                "{path} (a page {}'s nav lists, which {build}, a build file of the repository, writes before the site builds)",
                self.config
            ));
        }
        None
    }

    /// Why the site may serve `path` (repository-relative) though the tree
    /// lacks it: a page its nav lists where a plugin or a hook of the site
    /// writes pages as it builds. A reading of the configuration, not the
    /// tree's word: a page the tree kept and renamed is not one the build
    /// writes, and the history overrules it.
    pub(in crate::checks::cites) fn may_write(&self, path: &str) -> Option<String> {
        if !self.listed_missing.contains(path) {
            return None;
        }
        let generator = self.generators.iter().find(|g| g.writes(path))?;
        Some({
            let by = if generator.by == "hooks" {
                "its hooks".to_owned()
            } else {
                format!("its `{}` plugin", generator.by)
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
/// The folder of the tree that a build file's `text` copies into `docs`
/// (`cp -a docs/* $DOCS_ROOT` after `DOCS_ROOT=docs-gen`): the source of a
/// recursive copy whose destination, the variables the file assigns
/// replaced by their values (quotes dropped), is `docs`.
fn copied_into(text: &str, docs: &str) -> Option<String> {
    let mut expanded = text.replace(['"', '\''], "");
    for line in text.lines() {
        if let Some((name, value)) = line.trim().split_once('=')
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            let value = value.trim_matches(['"', '\'']);
            expanded = expanded
                .replace(&format!("${{{name}}}"), value)
                .replace(&format!("${name}"), value);
        }
    }
    crate::checks::cites::reader_copies::folder_copies(&expanded)
        .find(|(_, copy, _)| copy == docs)
        .map(|(source, _, _)| source)
}

fn text_includes_other_configs(value: &Value) -> bool {
    let mut pages = Vec::new();
    if let Some(nav) = value.get("nav") {
        nav_pages(nav, &mut pages, 0);
    }
    pages
        .iter()
        .any(|p| p.ends_with("mkdocs.yml") || p.ends_with("mkdocs.yaml"))
}

/// The folders a page-writing script names as the first segment of a path
/// in its string literals (`Path("reference", doc_path)`,
/// `open("reference/SUMMARY.md", "w")`): where under the site it may write.
/// A segment with a dot (`index.md`, `*.py`) names a file, not a folder.
fn folders_named(code: &str) -> BTreeSet<String> {
    static LITERAL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let literal = LITERAL.get_or_init(|| {
        regex::Regex::new(r#"["']([A-Za-z0-9_][A-Za-z0-9_-]*)(?:/[^"'\s]*)?["']"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    literal
        .captures_iter(code)
        .map(|caps| caps[1].to_owned())
        .collect()
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
        site_at("mkdocs.yml", config, files)
    }

    fn site_at(at: &str, config: &str, files: &[&str]) -> MkDocs {
        let paths: Vec<String> = files.iter().map(|f| (*f).to_owned()).collect();
        let value = crate::facts::json::parse_data(at, config).expect("yaml");
        MkDocs::from_config(at, &value, &paths)
    }

    #[test]
    fn serves_the_pages_a_plugin_writes_and_the_ones_it_redirects() {
        let mkdocs = site(
            "site_name: x\nnav:\n  - Home: index.md\n  - Reference: reference/\n  - Coverage: coverage.md\nplugins:\n  - search\n  - gen-files:\n      scripts: [docs/gen.py]\n  - redirects:\n      redirect_maps:\n        old.md: index.md\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        assert!(mkdocs.holds("docs/index.md"));
        assert!(mkdocs.may_write("docs/coverage.md").is_some());
        assert!(mkdocs.serves("docs/coverage.md").is_none());
        assert!(
            mkdocs
                .serves("docs/old.md")
                .unwrap()
                .contains("docs/index.md")
        );
    }

    #[test]
    fn a_plugin_writes_only_where_it_writes() {
        let mkdocs = site(
            "site_name: x\nnav:\n  - Home: index.md\n  - Design: design/flows.md\n  - Archive: news/archive/2024.md\n  - Coverage: cov.md\nplugins:\n  - blog:\n      blog_dir: news\n  - coverage:\n      page_path: cov\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        assert!(mkdocs.may_write("docs/news/archive/2024.md").is_some());
        assert!(mkdocs.may_write("docs/cov.md").is_some());
        // The blog writes no page outside its folder: a listed page gone
        // from there is gone.
        assert_eq!(mkdocs.may_write("docs/design/flows.md"), None);
        let default_blog = site(
            "site_name: x\nnav:\n  - Blog: blog/index.md\n  - Guide: guide.md\nplugins:\n  - blog\n",
            &["mkdocs.yml"],
        );
        assert!(default_blog.may_write("docs/blog/index.md").is_some());
        assert_eq!(default_blog.may_write("docs/guide.md"), None);
    }

    #[test]
    fn a_build_file_that_copies_a_folder_into_the_docs_dir_names_its_source() {
        let script = "set -ex\nDOCS_ROOT=docs-gen\nmkdir $DOCS_ROOT\ncp -a docs/* $DOCS_ROOT\ncp README.md $DOCS_ROOT/index.md\n";
        assert_eq!(copied_into(script, "docs-gen").as_deref(), Some("docs"));
        assert_eq!(
            copied_into("cp -r guide/. \"site-src/\"\n", "site-src").as_deref(),
            Some("guide")
        );
        // Without `-r` or `-a` no folder is copied.
        assert_eq!(copied_into("cp docs/* docs-gen\n", "docs-gen"), None);
        // A copy elsewhere, or from outside the repository, is no source.
        assert_eq!(copied_into(script, "site"), None);
        assert_eq!(
            copied_into("cp -r ../shared/docs docs-gen\n", "docs-gen"),
            None
        );
    }

    #[test]
    fn a_page_is_served_as_a_folder_of_its_own_unless_an_index_or_strict() {
        let mkdocs = site("site_name: x\n", &["docs/index.md", "docs/guide.md"]);
        assert_eq!(
            mkdocs.page_folder("docs/guide.md").as_deref(),
            Some("docs/guide/index.md")
        );
        assert_eq!(mkdocs.page_folder("docs/index.md"), None);
        let flat = site(
            "site_name: x\nuse_directory_urls: false\n",
            &["docs/guide.md"],
        );
        assert_eq!(flat.page_folder("docs/guide.md"), None);
        let strict = site("site_name: x\nstrict: true\n", &["docs/guide.md"]);
        assert_eq!(strict.page_folder("docs/guide.md"), None);
    }

    #[test]
    fn a_gen_files_script_writes_into_the_folders_its_paths_begin_with() {
        let code = "from pathlib import Path\nimport mkdocs_gen_files\nfor path in sorted(src.rglob(\"*.py\")):\n    full = Path(\"reference\", path)\n    with mkdocs_gen_files.open(full, \"w\") as fd:\n        fd.write(\"::: x\")\nwith mkdocs_gen_files.open('api/SUMMARY.md', 'w') as nav:\n    pass\n";
        let folders = folders_named(code);
        assert!(folders.contains("reference") && folders.contains("api"));
        assert!(!folders.iter().any(|f| f.contains('.')), "{folders:?}");
        let mut mkdocs = site(
            "site_name: x\nplugins:\n  - gen-files:\n      scripts: [scripts/gen.py]\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        let value = crate::facts::json::parse_data(
            "mkdocs.yml",
            "plugins:\n  - gen-files:\n      scripts: [scripts/gen.py, ../outside.py]\n",
        )
        .expect("yaml");
        assert_eq!(mkdocs.gen_files_scripts(&value), ["scripts/gen.py"]);
        mkdocs
            .script_folders
            .insert("docs/reference".to_owned(), "scripts/gen.py".to_owned());
        assert!(mkdocs.serves("docs/reference/kit/index.md").is_some());
        assert_eq!(mkdocs.serves("docs/guide/kit.md"), None);
        assert_eq!(mkdocs.serves("docs/referenced.md"), None);
    }

    #[test]
    fn its_rewriting_hooks_are_the_ones_that_edit_pages() {
        let mut mkdocs = site(
            "site_name: x\nhooks: [hooks/shortcodes.py]\n",
            &["docs/blog.md"],
        );
        let value = crate::facts::json::parse_data("mkdocs.yml", "hooks: [hooks/a.py, ../b.py]\n")
            .expect("yaml");
        assert_eq!(mkdocs.hook_files(&value), ["hooks/a.py"]);
        assert!(mkdocs.rewriters().0.is_empty());
        mkdocs.rewriting_hooks.push(Rewriter::of(
            "hooks/shortcodes.py".to_owned(),
            "def on_page_markdown(markdown, **kwargs):\n    return markdown\n",
        ));
        assert_eq!(mkdocs.rewriters().1, "the MkDocs site of mkdocs.yml");
    }

    #[test]
    fn its_autolinks_plugin_finds_a_bare_file_name_anywhere_in_the_docs() {
        let files = [
            "docs/index.md",
            "docs/home/installation.md",
            "docs/a/notes.md",
            "docs/b/notes.md",
            "mkdocs.yml",
        ];
        let linked = site(
            "site_name: x\nplugins:\n  - search\n  - autolinks\n",
            &files,
        );
        assert_eq!(
            linked.more_paths("docs/index.md", "installation.md"),
            ["docs/home/installation.md"]
        );
        assert_eq!(
            linked.more_paths("docs/index.md", "./installation.md"),
            ["docs/home/installation.md"]
        );
        // Two files of the name, a path with a folder, or no such file: none.
        assert!(linked.more_paths("docs/index.md", "notes.md").is_empty());
        assert!(
            linked
                .more_paths("docs/index.md", "home/installation.md")
                .is_empty()
        );
        assert!(linked.more_paths("docs/index.md", "gone.md").is_empty());
        let plain = site("site_name: x\nplugins:\n  - search\n", &files);
        assert!(
            plain
                .more_paths("docs/index.md", "installation.md")
                .is_empty()
        );
    }

    #[test]
    fn a_language_folder_of_the_i18n_plugin_is_served_from_the_sites_root() {
        let files = [
            "docs/docs/en/guide/tracing.md",
            "docs/docs/assets/img/trace.png",
            "docs/mkdocs.yml",
        ];
        let config = "site_name: x\ndocs_dir: docs\nplugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n        - locale: en\n          default: true\n";
        let i18n = site_at("docs/mkdocs.yml", config, &files);
        assert_eq!(
            i18n.more_paths("docs/docs/en/guide/tracing.md", "../assets/img/trace.png"),
            ["docs/docs/assets/img/trace.png"]
        );
        // Without the folder structure the language is a file suffix: no
        // folder is the root.
        let suffixed = site_at(
            "docs/mkdocs.yml",
            &config.replace("folder", "suffix"),
            &files,
        );
        assert!(
            suffixed
                .more_paths("docs/docs/en/guide/tracing.md", "../assets/img/trace.png")
                .is_empty()
        );
    }

    #[test]
    fn a_page_its_nav_lists_and_a_build_script_names_is_written_before_the_build() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "doc/mkdocs.yml",
                "site_name: x\nnav:\n  - Home: index.md\n  - Protobuf: reference/_api.proto.md\n  - Gone: reference/gone.md\n",
            ),
            ("doc/docs/index.md", "# Home\n"),
            (
                "tools/generate_docs.sh",
                "protoc --doc_out=doc/docs/reference --doc_opt=markdown,_api.proto.md api.proto\n",
            ),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1);
        assert!(
            sites[0]
                .serves("doc/docs/reference/_api.proto.md")
                .is_some_and(|why| why.contains("tools/generate_docs.sh"))
        );
        // A page the nav lists that no build file names is not served.
        assert_eq!(sites[0].serves("doc/docs/reference/gone.md"), None);
    }

    #[test]
    fn stays_quiet_for_a_page_no_build_step_writes() {
        let plain = site(
            "site_name: x\nnav:\n  - Home: index.md\n  - Gone: gone.md\n",
            &["docs/index.md", "mkdocs.yml"],
        );
        assert_eq!(plain.serves("docs/gone.md"), None);
        let generated = site(
            "docs_dir: site\nnav:\n  - Gone: gone.md\n  - Coverage: coverage.md\nplugins:\n  - coverage\n",
            &["site/index.md", "mkdocs.yml"],
        );
        assert!(!generated.holds("docs/index.md"));
        assert_eq!(generated.serves("site/other.md"), None);
        // The coverage plugin writes its one page, not every listed one.
        assert!(generated.may_write("site/coverage.md").is_some());
        assert_eq!(generated.may_write("site/gone.md"), None);
    }
}
