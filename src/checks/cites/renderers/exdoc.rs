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
        // A call of a function the file defines (`extras: extras()`) is that
        // function's list (`defp extras do [ … ] end`).
        let rest = &text[start + "extras:".len()..];
        let rest = &rest[..floor_boundary(rest, 8192)];
        let trimmed = rest.trim_start();
        let called = function_body(&text, trimmed);
        let trimmed = called.unwrap_or(trimmed);
        let value = if trimmed.starts_with('[') {
            list_of(trimmed)
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

/// The largest char boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A list from its `[` to the `]` that closes it (nested lists and keyword
/// options inside), or to the end of `text`.
fn list_of(text: &str) -> &str {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[..at];
                }
            }
            _ => {}
        }
    }
    text
}

/// When `value` is a call of a function `text` defines (`extras()`, `extras`),
/// that function's body from its first `[` (bounded).
fn function_body<'t>(text: &'t str, value: &str) -> Option<&'t str> {
    let name: String = value
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
        return None;
    }
    let after = value[name.len()..].trim_start();
    if !(after.is_empty() || after.starts_with("()") || after.starts_with(',')) {
        return None;
    }
    let body = [format!("defp {name} do"), format!("def {name} do")]
        .iter()
        .find_map(|head| text.find(head.as_str()).map(|at| at + head.len()))?;
    let rest = &text[body..];
    let open = rest.find('[')?;
    // The list opens the function, not a later expression.
    if !rest[..open].trim().is_empty() {
        return None;
    }
    let rest = &rest[open..];
    Some(&rest[..floor_boundary(rest, 65_536)])
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
        // The page ExDoc writes for an extra: `ecto.html` for `guides/ecto.md`.
        let page = name.strip_suffix(".html");
        found.extend(
            self.extras
                .iter()
                .filter(|p| {
                    let base = p.rsplit('/').next().unwrap_or(p);
                    base == name
                        || page.is_some_and(|page| {
                            base.rsplit_once('.').is_some_and(|(stem, _)| stem == page)
                        })
                })
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

    #[test]
    fn extras_a_function_of_the_file_lists_are_its_extras() {
        let tree = MemorySnapshot::new(&[
            (
                "mix.exs",
                "defp docs do\n  [extras: extras(), main: \"overview\"]\nend\n\ndefp extras do\n  [\n    \"guides/intro/overview.md\",\n    \"guides/real_time/channels.md\": [title: \"Channels\"],\n    \"CHANGELOG.md\"\n  ]\nend\n",
            ),
            ("guides/intro/overview.md", "[channels](channels.md)\n"),
            ("guides/real_time/channels.md", "# Channels\n"),
            ("CHANGELOG.md", "# Changes\n"),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1);
        assert!(sites[0].holds("guides/intro/overview.md"));
        assert!(sites[0].holds("CHANGELOG.md"));
        assert_eq!(
            sites[0].more_paths("channels.md"),
            ["guides/real_time/channels.md"]
        );
        // The page ExDoc writes for it, from any folder.
        assert_eq!(
            sites[0].more_paths("../channels.html"),
            ["guides/real_time/channels.md"]
        );
    }
}
