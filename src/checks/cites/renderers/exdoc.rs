//! ExDoc (Elixir), as a `mix.exs` configures it: its `extras` (listed files
//! and `Path.wildcard` globs, from the `mix.exs` folder) are rendered into
//! one flat folder, each page named by its file's base name, and a link to
//! an extra's `.md` is resolved by that base name whatever folder it writes
//! (`api/001-intro.md` from `pages/user/x.md` is `pages/api/001-intro.md`).

use std::sync::OnceLock;

use globset::GlobBuilder;
use regex::Regex;

use crate::snapshot::Snapshot;

/// One ExDoc project: the files it renders as extras, repository-relative,
/// sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct ExDoc {
    extras: Vec<String>,
    /// `assets:`: each folder of the output (`assets`) and the folder of the
    /// tree copied there (`doc/images`), as `%{"images/" => "assets"}` or a
    /// bare `"assets"` says.
    assets: Vec<(String, String)>,
}

/// Every ExDoc project of the tree: each `mix.exs` whose `extras:` names
/// files of the tree.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<ExDoc> {
    static QUOTED: OnceLock<Regex> = OnceLock::new();
    let quoted = QUOTED.get_or_init(|| {
        Regex::new(r#""([^"\n]{1,300})""#).unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut sites = Vec::new();
    for config in paths.iter().filter(|p| {
        (p.as_str() == "mix.exs" || p.ends_with("/mix.exs"))
            && !crate::checks::cites::locate::is_vendored(p)
    }) {
        let Ok(Some(bytes)) = snapshot.read(config) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let Some(start) = text.find("extras:") else {
            continue;
        };
        // The value: a list up to its closing `]`, else the rest of the line
        // (`Path.wildcard("pages/*/*.md")`); bounded, whatever the file holds.
        let rest = &text[start + "extras:".len()..];
        let rest = &rest[..rest.len().min(8192)];
        let trimmed = rest.trim_start();
        let value = if trimmed.starts_with('[') {
            trimmed.find(']').map_or(trimmed, |end| &trimmed[..end])
        } else {
            trimmed.lines().next().unwrap_or("")
        };
        let folder = config.rsplit_once('/').map_or("", |(dir, _)| dir);
        let mut extras: Vec<String> = Vec::new();
        for caps in quoted.captures_iter(value) {
            let written = caps[1].trim_start_matches("./");
            if written.starts_with('/') || written.split('/').any(|s| s == "..") {
                continue;
            }
            let full = if folder.is_empty() {
                written.to_owned()
            } else {
                format!("{folder}/{written}")
            };
            if written.contains(['*', '?', '[', '{']) {
                let Ok(glob) = GlobBuilder::new(&full).literal_separator(true).build() else {
                    continue;
                };
                let matcher = glob.compile_matcher();
                extras.extend(
                    paths
                        .iter()
                        .filter(|p| matcher.is_match(p.as_str()))
                        .cloned(),
                );
            } else if crate::snapshot::has_file(paths, &full) {
                extras.push(full);
            }
        }
        extras.sort();
        extras.dedup();
        if !extras.is_empty() {
            let assets = assets_of(&text, config);
            sites.push(ExDoc { extras, assets });
        }
    }
    sites
}

/// The `assets:` of a `mix.exs`: (output folder, tree folder) pairs.
fn assets_of(text: &str, config: &str) -> Vec<(String, String)> {
    static PAIR: OnceLock<Regex> = OnceLock::new();
    let pair = PAIR.get_or_init(|| {
        Regex::new(r#""([^"\n]{1,200})"\s*=>\s*"([^"\n]{1,200})""#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let Some(start) = text.find("assets:") else {
        return Vec::new();
    };
    let value = text[start + "assets:".len()..].lines().next().unwrap_or("");
    let inside = |rel: &str| super::docusaurus::config_relative(config, rel);
    let pairs: Vec<(String, String)> = pair
        .captures_iter(value)
        .filter_map(|caps| {
            let out = caps[2]
                .trim_start_matches("./")
                .trim_end_matches('/')
                .to_owned();
            Some((out, inside(&caps[1])?))
        })
        .collect();
    if !pairs.is_empty() {
        return pairs;
    }
    // `assets: "assets"`: that folder, copied as it is named.
    let bare = value.trim().trim_end_matches(',').trim_matches('"');
    inside(bare)
        .map(|tree| vec![(bare.trim_end_matches('/').to_owned(), tree)])
        .unwrap_or_default()
}

impl ExDoc {
    pub(super) fn holds(&self, page: &str) -> bool {
        self.extras
            .binary_search_by(|p| p.as_str().cmp(page))
            .is_ok()
    }

    /// A link to an extra's file, by its base name: the extras of that name.
    pub(super) fn more_paths(&self, target: &str) -> Vec<String> {
        if target.contains("://") {
            return Vec::new();
        }
        // The output is one flat folder: an asset is read from it.
        let flat = target.trim_start_matches("./");
        let mut found: Vec<String> = self
            .assets
            .iter()
            .filter_map(|(out, tree)| {
                let rest = flat.strip_prefix(out.as_str())?.strip_prefix('/')?;
                Some(format!("{tree}/{rest}"))
            })
            .collect();
        let name = target.rsplit('/').next().unwrap_or(target);
        if name.is_empty() {
            return found;
        }
        found.extend(
            self.extras
                .iter()
                .filter(|p| p.rsplit('/').next() == Some(name))
                .cloned(),
        );
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn an_extra_is_found_by_its_base_name_from_any_folder() {
        let tree = MemorySnapshot::new(&[
            (
                "doc/mix.exs",
                "def docs do\n  [\n    extras: Path.wildcard(\"pages/*/*.md\"),\n    assets: %{\"images/\" => \"assets\"},\n    main: \"intro\"\n  ]\nend\n",
            ),
            ("doc/images/flow.svg", "<svg/>"),
            ("doc/pages/api/001-intro.md", "# Intro\n"),
            (
                "doc/pages/user/010-realms.md",
                "[intro](api/001-intro.md)\n",
            ),
            ("doc/notes.md", "not an extra\n"),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1);
        let site = &sites[0];
        assert!(site.holds("doc/pages/user/010-realms.md"));
        assert!(!site.holds("doc/notes.md"));
        assert_eq!(
            site.more_paths("api/001-intro.md"),
            ["doc/pages/api/001-intro.md"]
        );
        assert!(site.more_paths("api/002-gone.md").is_empty());
        assert_eq!(site.more_paths("assets/flow.svg"), ["doc/images/flow.svg"]);
        // A project with no extras renders no page.
        let bare = MemorySnapshot::new(&[("mix.exs", "def project, do: []\n"), ("a.md", "")]);
        assert!(super::sites(&bare).is_empty());
    }
}
