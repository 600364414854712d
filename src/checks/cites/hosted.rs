//! Stage 4 (checks), the citation family: links to the repository's own hosted
//! pages. A record links `https://github.com/o/r/blob/main/src/x.py#L10` so that
//! it reads the same on a package index as on the forge; that address names a
//! path of this tree as surely as `src/x.py` does. This module knows the
//! repository's own address (from the rule file, the `origin` remote, the
//! project's own metadata, or — failing those — the address most of the
//! records' links resolve under) and reads a link into it as the path, ref and
//! lines it names. Nothing is ever fetched: the address only says which links
//! are this tree's.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use super::locate::percent_decoded;
use crate::snapshot::{Snapshot, has_file, has_folder};

/// Where the repository is hosted: its forge and its project path there
/// (`github.com`, `owner/name`; GitLab's groups nest), lowercased as the forges
/// compare them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnAddress {
    pub host: String,
    pub project: String,
    /// Where the address was read: `[recount].url`, the `origin` remote,
    /// `pyproject.toml`'s `[project.urls]`, ...
    pub source: String,
}

impl OwnAddress {
    /// `https://host/project`, as people write it.
    pub fn url(&self) -> String {
        format!("https://{}/{}", self.host, self.project)
    }
}

/// Reads a repository address in any of the forms remotes and package metadata
/// write it: `https://github.com/o/r(.git)`, `git+https://…`, `git://…`,
/// `ssh://git@host/o/r.git`, `git@host:o/r.git`, npm's `github:o/r`. Only
/// GitHub and GitLab (any host named for it) are known: `None` for others, or
/// when no project path follows the host.
pub fn parse_address(url: &str) -> Option<(String, String)> {
    let url = url.trim();
    let url = url.strip_prefix("git+").unwrap_or(url);
    if let Some(project) = url.strip_prefix("github:") {
        return project_of("github.com", project);
    }
    let rest = ["https://", "http://", "git://", "ssh://"]
        .iter()
        .find_map(|scheme| url.strip_prefix(scheme));
    let (host, path) = match rest {
        Some(rest) => {
            let rest = rest.split_once('@').map_or(rest, |(user, after)| {
                // `user@host/…`: a user before the host, not an `@` in the path.
                if user.contains('/') { rest } else { after }
            });
            rest.split_once('/')?
        }
        // scp-like `git@github.com:o/r.git`.
        None => {
            let (user_host, path) = url.split_once(':')?;
            let host = user_host.rsplit_once('@').map_or(user_host, |(_, h)| h);
            if host.contains('/') || path.starts_with('/') {
                return None;
            }
            (host, path)
        }
    };
    // A port belongs to the transport, not the project's address.
    let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    project_of(&host, path)
}

fn project_of(host: &str, path: &str) -> Option<(String, String)> {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let take = if host == "github.com" {
        2
    } else if host.contains("gitlab") {
        // Up to GitLab's `/-/` separator: groups nest.
        segments
            .iter()
            .position(|s| *s == "-")
            .unwrap_or(segments.len())
    } else {
        return None;
    };
    if segments.len() < take || take < 2 {
        return None;
    }
    let mut project = segments[..take].join("/").to_ascii_lowercase();
    if let Some(bare) = project.strip_suffix(".git") {
        project = bare.to_owned();
    }
    let valid = project.split('/').all(|s| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    });
    valid.then(|| (host.to_owned(), project))
}

/// What a link into the repository's own pages names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedLink {
    /// The ref as written after `blob/` (`main`, `v1.2.0`, a commit id).
    pub rev: String,
    /// The tree the link shows: `None` for the default branch (the audited
    /// tree), else the revision to read it at (a commit id, a tag, another
    /// branch's full ref, or the ref as written when this clone lacks it).
    pub pinned: Option<String>,
    /// Repository-relative, `%`-escapes decoded.
    pub path: String,
    /// `#L10` or `#L10-L20`.
    pub lines: Option<(usize, usize)>,
    /// Any other `#fragment` (a heading of a rendered Markdown page).
    pub fragment: Option<String>,
}

/// The repository's own address and the refs a link's ref is told apart by.
#[derive(Debug, Clone, Default)]
pub struct OwnLinks {
    pub address: Option<OwnAddress>,
    /// Branches by name (local and remote-tracking, remote name dropped), with
    /// the full ref of each.
    pub branches: BTreeMap<String, String>,
    /// The branches `HEAD` and `origin/HEAD` name.
    pub defaults: BTreeSet<String>,
    pub tags: BTreeSet<String>,
}

/// Names that mean a repository's default branch wherever they are written:
/// the audited tree is what a reader of such a link sees.
const DEFAULT_BRANCHES: [&str; 7] = [
    "main",
    "master",
    "trunk",
    "develop",
    "development",
    "default",
    "HEAD",
];

/// Most slash-separated segments a ref name is looked for in (`release/1.x`).
const MAX_REF_SEGMENTS: usize = 4;

impl OwnLinks {
    /// The path, ref and lines `url` names when it is a link to one of this
    /// repository's files or folders: `https://github.com/O/R/blob|tree|raw|
    /// blame|edit/REF/path`, `https://raw.githubusercontent.com/O/R/REF/path`,
    /// GitLab's `https://host/group/name/-/blob|tree|raw|blame/REF/path`.
    /// `None` for any other address, and for the project's root.
    pub fn link(&self, url: &str) -> Option<HostedLink> {
        let own = self.address.as_ref()?;
        let url = url.trim();
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))?;
        let (host, rest) = rest.split_once('/')?;
        let host = host.to_ascii_lowercase();
        let host = host.strip_prefix("www.").unwrap_or(&host);
        let (address, fragment) = match rest.split_once('#') {
            Some((a, f)) => (a, Some(f)),
            None => (rest, None),
        };
        let (address, query) = address.split_once('?').unwrap_or((address, ""));
        let segments: Vec<&str> = address.split('/').collect();
        let project: Vec<&str> = own.project.split('/').collect();
        let owned = |at: &[&str]| {
            at.len() >= project.len()
                && at
                    .iter()
                    .zip(&project)
                    .all(|(a, b)| a.eq_ignore_ascii_case(b))
        };
        // Whether the forge shows the file rendered (a `blob/` page with no
        // `?plain=1`): then a page's `#L10` marks no line.
        let mut rendered = false;
        let after = if host == "raw.githubusercontent.com" && own.host == "github.com" {
            if !owned(&segments) {
                return None;
            }
            let mut after = &segments[project.len()..];
            // `refs/heads/main/x`: the ref spelled in full.
            if after.len() > 2 && after[0] == "refs" && matches!(after[1], "heads" | "tags") {
                after = &after[2..];
            }
            after
        } else if host == own.host {
            if !owned(&segments) {
                return None;
            }
            let mut after = &segments[project.len()..];
            if after.first() == Some(&"-") {
                after = &after[1..];
            }
            match after.first() {
                Some(&("blob" | "tree" | "raw" | "blame" | "edit")) => {
                    rendered =
                        after.first() == Some(&"blob") && !query.split('&').any(|q| q == "plain=1");
                    &after[1..]
                }
                _ => return None,
            }
        } else {
            return None;
        };
        let (rev, path) = self.split_ref(after)?;
        // A ref as git names one (`main`, `v1.2.0`, `release/1.x`, a commit
        // id): anything else (`@{-1}`, `:/text`, `a..b`) is no ref a forge
        // shows, and is never handed to the revision parser.
        let plausible = rev
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'+'))
            && !rev.starts_with(['-', '.', '/'])
            && !rev.contains("..");
        if !plausible {
            return None;
        }
        let path = percent_decoded(path.trim_end_matches('/'))?;
        if path.is_empty() || path.split('/').any(|s| s == ".." || s == ".") {
            return None;
        }
        let lines = fragment.and_then(line_range);
        // A page the forge renders (Markdown, reStructuredText) shown as a
        // page: a line fragment does nothing there, the reader lands on the
        // page's top (`0002-naming.rst#L1` links the record itself).
        if lines.is_some() && rendered && crate::checks::cites::anchors::is_page(&path) {
            return Some(HostedLink {
                pinned: self.pinned(&rev),
                rev,
                path,
                lines: None,
                fragment: None,
            });
        }
        let fragment = fragment
            .filter(|f| !f.is_empty() && lines.is_none())
            .and_then(percent_decoded);
        let pinned = self.pinned(&rev);
        Some(HostedLink {
            rev,
            pinned,
            path,
            lines,
            fragment,
        })
    }

    /// The ref and the path after it: the longest run of leading segments that
    /// names a branch or tag here, else the first segment.
    fn split_ref(&self, after: &[&str]) -> Option<(String, String)> {
        if after.len() < 2 || after[0].is_empty() {
            return None;
        }
        let known = |name: &str| self.branches.contains_key(name) || self.tags.contains(name);
        let take = (1..after.len().min(MAX_REF_SEGMENTS + 1))
            .rev()
            .find(|&n| known(&after[..n].join("/")))
            .unwrap_or(1);
        // The forge collapses a doubled `/` in the path (`tree/main//test/x`
        // shows `test/x`), as a browser's server does.
        let path: Vec<&str> = after[take..]
            .iter()
            .copied()
            .filter(|segment| !segment.is_empty())
            .collect();
        Some((after[..take].join("/"), path.join("/")))
    }

    /// The revision a link's ref shows: `None` for the default branch (a link
    /// to `main` shows whatever `main` holds, which is the audited tree); a
    /// commit id or tag as written; another branch at its tip here
    /// (`v0.34.x`, a release line); a ref this clone does not have as written,
    /// so it is looked up, fails, and the cite is unverified rather than read
    /// against a tree the link does not show.
    /// Whether `rev` is read as the default branch only because it is a
    /// usual default name this clone has no branch of, while the default
    /// here is another (`master` where `HEAD` is `next`): the forge may show
    /// another line of the project there (a renamed branch it redirects),
    /// so what the link shows is a guess, to check, never to rewrite from.
    pub fn read_as_default(&self, rev: &str) -> bool {
        DEFAULT_BRANCHES.contains(&rev)
            && rev != "HEAD"
            && !self.defaults.is_empty()
            && !self.defaults.contains(rev)
            && !self.branches.contains_key(rev)
    }

    fn pinned(&self, rev: &str) -> Option<String> {
        if self.defaults.contains(rev) {
            return None;
        }
        // A usual default name that is another branch here (deptrac's `main`,
        // left behind when `4.x` became the default) shows that branch.
        if DEFAULT_BRANCHES.contains(&rev)
            && (self.defaults.is_empty() || !self.branches.contains_key(rev))
        {
            return None;
        }
        match self.branches.get(rev) {
            Some(full) if !self.tags.contains(rev) => Some(full.clone()),
            _ => Some(rev.to_owned()),
        }
    }
}

/// `L10`, `L10-L20`, `L10C3-L20C8`: the lines a forge highlights.
fn line_range(fragment: &str) -> Option<(usize, usize)> {
    let line = |part: &str| -> Option<usize> {
        let digits = part.strip_prefix('L')?;
        let digits = digits.split('C').next()?;
        digits.parse().ok().filter(|&n| n > 0)
    };
    match fragment.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (line(a)?, line(b)?);
            Some((a.min(b), a.max(b)))
        }
        None => line(fragment).map(|n| (n, n)),
    }
}

/// The files whose metadata names the project's address, in the order they are
/// asked, and how each is read.
const METADATA: [(&str, &str); 9] = [
    ("pyproject.toml", "[project.urls]"),
    ("setup.cfg", "[metadata] project_urls, url"),
    ("setup.py", "setup(url=…)"),
    ("go.mod", "module"),
    ("pom.xml", "<scm><url>"),
    ("Cargo.toml", "package.repository"),
    ("package.json", "repository"),
    ("mkdocs.yml", "repo_url"),
    ("book.toml", "output.html.git-repository-url"),
];

/// The address the project's own metadata gives: at the tree's root first,
/// then in a package one or two folders down (a workspace's member crate, a
/// monorepo's package), in path order, when every such package that names
/// a project names the same one. Packages below the root that name two
/// projects are copies of other projects' crates (a workspace that vendors
/// `async-openai` and `reqwest-eventsource` beside its own silent members):
/// no one of them is this tree's.
pub fn address_from_metadata(snapshot: &dyn Snapshot) -> Option<OwnAddress> {
    let of = |path: &str, name: &str, key: &str| -> Option<OwnAddress> {
        let text = snapshot.read_text_to_parse(path).ok().flatten()?;
        urls_in(name, &text).iter().find_map(|url| {
            let (host, project) = parse_address(url)?;
            Some(OwnAddress {
                host,
                project,
                source: format!("{path} ({key})"),
            })
        })
    };
    METADATA
        .iter()
        .find_map(|(file, key)| of(file, file, key))
        .or_else(|| {
            let mut named = snapshot.paths().iter().filter_map(|path| {
                let depth = path.matches('/').count();
                let name = path.rsplit('/').next().unwrap_or(path);
                let (file, key) = METADATA.iter().find(|(file, _)| *file == name)?;
                ((1..=2).contains(&depth) && !super::locate::is_vendored(path))
                    .then(|| of(path, file, key))
                    .flatten()
            });
            let first = named.next()?;
            let others: Vec<OwnAddress> = named.collect();
            let same = |a: &OwnAddress, b: &OwnAddress| a.host == b.host && a.project == b.project;
            if others.iter().all(|other| same(other, &first)) {
                return Some(first);
            }
            // Packages that disagree: a monorepo's own address is the one
            // most of them name, three or more (its absorbed packages keep
            // their old repositories'); two copied crates elect nothing.
            let all: Vec<&OwnAddress> = std::iter::once(&first).chain(&others).collect();
            let (votes, winner) = all
                .iter()
                .map(|candidate| {
                    (
                        all.iter().filter(|a| same(a, candidate)).count(),
                        *candidate,
                    )
                })
                .max_by_key(|(votes, _)| *votes)?;
            (votes >= 3 && votes * 2 > all.len()).then(|| winner.clone())
        })
}

/// The candidate addresses one metadata file holds, most telling first.
fn urls_in(file: &str, text: &str) -> Vec<String> {
    let str_at = |value: &toml::Value, keys: &[&str]| -> Option<String> {
        let mut at = value;
        for key in keys {
            at = at.get(key)?;
        }
        at.as_str().map(str::to_owned)
    };
    match file {
        "pyproject.toml" => {
            let Ok(value) = text.parse::<toml::Table>() else {
                return Vec::new();
            };
            let Some(urls) = value
                .get("project")
                .and_then(|p| p.get("urls"))
                .and_then(toml::Value::as_table)
            else {
                return Vec::new();
            };
            let mut entries: Vec<(&String, &toml::Value)> = urls.iter().collect();
            entries.sort_by_key(|(k, _)| project_url_rank(k));
            entries
                .into_iter()
                .filter_map(|(_, v)| v.as_str().map(str::to_owned))
                .collect()
        }
        "Cargo.toml" | "book.toml" => {
            let Ok(value) = text.parse::<toml::Table>() else {
                return Vec::new();
            };
            let value = toml::Value::Table(value);
            let paths: &[&[&str]] = if file == "Cargo.toml" {
                &[
                    &["package", "repository"],
                    &["workspace", "package", "repository"],
                ]
            } else {
                &[&["output", "html", "git-repository-url"]]
            };
            paths.iter().filter_map(|p| str_at(&value, p)).collect()
        }
        "package.json" => {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
                return Vec::new();
            };
            match value.get("repository") {
                Some(serde_json::Value::String(s)) if !s.contains(':') && s.contains('/') => {
                    vec![format!("github:{s}")]
                }
                Some(serde_json::Value::String(s)) => vec![s.clone()],
                Some(repo) => repo
                    .get("url")
                    .and_then(|u| u.as_str())
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
                None => Vec::new(),
            }
        }
        "setup.cfg" => setup_cfg_urls(text),
        // A Go module's path is its repository's on GitHub or GitLab
        // (`github.com/o/r/v2`: the version is past the project).
        "go.mod" => text
            .lines()
            .find_map(|line| line.trim().strip_prefix("module "))
            .map(|module| format!("https://{}", module.trim().trim_matches('"')))
            .into_iter()
            .collect(),
        "setup.py" => setup_py_urls(text),
        "pom.xml" => text
            .split_once("<scm>")
            .and_then(|(_, scm)| scm.split_once("</scm>"))
            .and_then(|(scm, _)| scm.split_once("<url>"))
            .and_then(|(_, url)| url.split_once("</url>"))
            .map(|(url, _)| url.trim().to_owned())
            .into_iter()
            .collect(),
        // A YAML key at the top level; its value on the same line.
        _ => text
            .lines()
            .filter_map(|line| line.strip_prefix("repo_url:"))
            .map(|v| v.trim().trim_matches(['"', '\'']).to_owned())
            .take(1)
            .collect(),
    }
}

/// The addresses a `setup.cfg`'s `[metadata]` gives: its `project_urls`
/// (`Source Code = https://…`, one per indented line), the repository's own
/// entry first, then its `url`.
fn setup_cfg_urls(text: &str) -> Vec<String> {
    let mut in_metadata = false;
    let mut in_project_urls = false;
    let mut entries: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_metadata = trimmed == "[metadata]";
            in_project_urls = false;
            continue;
        }
        if !in_metadata || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        let continued = line.starts_with([' ', '\t']);
        let Some((key, value)) = trimmed.split_once(['=', ':']) else {
            continue;
        };
        let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
        if !continued {
            in_project_urls = key == "project_urls";
            if key == "url" || key == "home_page" {
                entries.push((PROJECT_URL_RANKS.len(), value.to_owned()));
            }
        } else if in_project_urls {
            // `Source Code = https://…`: the split above stopped at the
            // first `=` or `:`, which may be the URL's own colon.
            let Some((key, value)) = trimmed.split_once('=') else {
                continue;
            };
            entries.push((project_url_rank(key), value.trim().to_owned()));
        }
    }
    entries.sort_by_key(|(rank, _)| *rank);
    entries.into_iter().map(|(_, url)| url).collect()
}

/// The addresses a `setup.py` passes to `setup()`: its `url=`, and the
/// values of its `project_urls` whose key names the source, as written
/// (string literals only: nothing is run).
fn setup_py_urls(text: &str) -> Vec<String> {
    static URL: OnceLock<Regex> = OnceLock::new();
    let url = URL.get_or_init(|| {
        Regex::new(r#"(?:\burl\s*=\s*|["'](?i:source|source code|code|repository)["']\s*:\s*)["'](https?://[^"'\s]+)["']"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let mut found: Vec<String> = url.captures_iter(text).map(|c| c[1].to_owned()).collect();
    // A project URL that is a forge's before a homepage.
    found.sort_by_key(|u| parse_address(u).is_none());
    found
}

/// The words a project-URL key holds, the repository's own entry before a
/// homepage or a tracker.
const PROJECT_URL_RANKS: [&str; 6] = [
    "repository",
    "source",
    "code",
    "github",
    "gitlab",
    "homepage",
];

fn project_url_rank(key: &str) -> usize {
    let key = key.to_ascii_lowercase();
    PROJECT_URL_RANKS
        .iter()
        .position(|k| key.contains(k))
        .unwrap_or(usize::MAX)
}

/// The address under which most of the records' links into a forge name paths
/// of this tree, when at least two do and no other address ties it: the
/// fallback for a repository with no remote and no metadata naming it.
pub fn address_by_majority<'a>(
    links: impl Iterator<Item = &'a str>,
    paths: &[String],
) -> Option<OwnAddress> {
    // Per project: its links that resolve in this tree, and those that do not.
    let mut resolving: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for url in links {
        let Some((host, project)) = forge_project(url) else {
            continue;
        };
        let candidate = OwnLinks {
            address: Some(OwnAddress {
                host: host.clone(),
                project: project.clone(),
                source: String::new(),
            }),
            ..OwnLinks::default()
        };
        let Some(link) = candidate.link(url) else {
            continue;
        };
        // A community file (`CODE_OF_CONDUCT.md`) is in nearly every tree,
        // so a link to another repository's copy (an organisation's shared
        // guides) resolves here by its name alone, and tells nothing.
        if is_community_file(&link.path) {
            continue;
        }
        let tally = resolving.entry((host, project)).or_default();
        if has_file(paths, &link.path) || has_folder(paths, &link.path) {
            tally.0 += 1;
        } else if link.pinned.is_none() {
            // (A link pinned to a commit or a tag shows that tree, which
            // may have had the path: it tells nothing against.)
            tally.1 += 1;
        }
    }
    // A project most of whose file links name nothing here is another one
    // (a framework the records document beside its example): the few that
    // resolve share a layout, not a tree. This tree's own links resolve but
    // where they drifted.
    let mut ranked: Vec<((String, String), usize)> = resolving
        .into_iter()
        .filter(|(_, (found, missing))| found >= missing)
        .map(|(project, (found, _))| (project, found))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let ((host, project), count) = ranked.first()?.clone();
    let tied = ranked.get(1).is_some_and(|(_, n)| *n == count);
    (count >= 2 && !tied).then(|| OwnAddress {
        host,
        project,
        source: format!("the records' links ({count} of them resolve in this tree)"),
    })
}

/// Whether `path` is one of the files a forge reads as a project's community
/// health files (its README among them), which an organisation may keep
/// once for all its repositories, and nearly every tree holds: at the root,
/// in `.github/` or in `docs/`.
fn is_community_file(path: &str) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = name.split('.').next().unwrap_or(name).to_ascii_uppercase();
    matches!(folder, "" | ".github" | "docs")
        && matches!(
            stem.as_str(),
            "README"
                | "CODE_OF_CONDUCT"
                | "CONTRIBUTING"
                | "SECURITY"
                | "SUPPORT"
                | "GOVERNANCE"
                | "FUNDING"
                | "LICENSE"
                | "LICENCE"
        )
}

/// The forge project a file or folder address opens, whoever's it is.
fn forge_project(url: &str) -> Option<(String, String)> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    if host == "raw.githubusercontent.com" {
        return project_of("github.com", path);
    }
    let has_view = path.contains("/blob/") || path.contains("/tree/") || path.contains("/-/");
    has_view.then(|| project_of(&host, path)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(host: &str, project: &str) -> OwnLinks {
        OwnLinks {
            address: Some(OwnAddress {
                host: host.into(),
                project: project.into(),
                source: "test".into(),
            }),
            branches: [
                ("main".to_owned(), "refs/heads/main".to_owned()),
                (
                    "release/1.x".to_owned(),
                    "refs/remotes/origin/release/1.x".to_owned(),
                ),
            ]
            .into(),
            defaults: ["main".to_owned(), "trunk-2".to_owned()].into(),
            tags: ["v1.0.0".to_owned()].into(),
        }
    }

    #[test]
    fn a_usual_default_name_that_is_another_branch_here_shows_that_branch() {
        // deptrac: `4.x` is the default, `main` a branch left behind.
        let mut links = own("github.com", "o/r");
        links.defaults = ["4.x".to_owned()].into();
        let link = links
            .link("https://github.com/o/r/blob/main/deptrac.yaml")
            .unwrap();
        assert_eq!(link.pinned.as_deref(), Some("refs/heads/main"));
        // No branch of that name here: the name means the default branch,
        // a reading to check by, never to rewrite from.
        let link = links
            .link("https://github.com/o/r/blob/master/x.md")
            .unwrap();
        assert_eq!(link.pinned, None);
        assert!(links.read_as_default("master"));
        assert!(!links.read_as_default("4.x"));
        // A detached checkout that knows no default (a pull request's CI
        // job): a usual default name is the audited tree.
        links.defaults.clear();
        let link = links.link("https://github.com/o/r/blob/main/x.md").unwrap();
        assert_eq!(link.pinned, None);
    }

    #[test]
    fn addresses_are_read_in_every_form_remotes_write() {
        let gh = Some(("github.com".to_owned(), "o/r".to_owned()));
        for url in [
            "https://github.com/o/r",
            "https://github.com/O/R.git",
            "git+https://github.com/o/r.git",
            "git://github.com/o/r.git",
            "ssh://git@github.com/o/r.git",
            "git@github.com:o/r.git",
            "github:o/r",
            "https://www.github.com/o/r/tree/main/docs",
        ] {
            assert_eq!(parse_address(url), gh, "{url}");
        }
        assert_eq!(
            parse_address("https://gitlab.com/g/sub/name/-/tree/main"),
            Some(("gitlab.com".to_owned(), "g/sub/name".to_owned()))
        );
        assert_eq!(parse_address("https://example.org/o/r"), None);
        assert_eq!(parse_address("https://github.com/o"), None);
    }

    #[test]
    fn a_link_into_the_own_tree_names_its_path_ref_and_lines() {
        let links = own("github.com", "o/r");
        let link = links
            .link("https://github.com/O/r/blob/main/src/a%20b.py#L10-L20")
            .unwrap();
        assert_eq!(link.path, "src/a b.py");
        assert_eq!((link.rev.as_str(), link.pinned.as_deref()), ("main", None));
        assert_eq!(link.lines, Some((10, 20)));
        // The forge collapses a doubled `/` in the path.
        let doubled = links
            .link("https://github.com/o/r/tree/main//test/e2e/admission.go#L39")
            .expect("own file");
        assert_eq!(
            (doubled.path.as_str(), doubled.lines),
            ("test/e2e/admission.go", Some((39, 39)))
        );
        // A page the forge renders marks no line: the link is the page's.
        let page = links
            .link("https://github.com/o/r/blob/main/docs/adr/0002-naming.rst#L1")
            .expect("own page");
        assert_eq!(
            (page.path.as_str(), page.lines, page.fragment),
            ("docs/adr/0002-naming.rst", None, None)
        );
        let plain = links
            .link("https://github.com/o/r/blob/main/docs/guide.md?plain=1#L5-L9")
            .expect("own page, shown plain");
        assert_eq!(plain.lines, Some((5, 9)));
        let folder = links
            .link("https://github.com/o/r/tree/release/1.x/docs/")
            .unwrap();
        assert_eq!(
            (folder.rev.as_str(), folder.path.as_str()),
            ("release/1.x", "docs")
        );
        let raw = links
            .link("https://raw.githubusercontent.com/o/r/refs/heads/main/logo.png")
            .unwrap();
        assert_eq!(raw.path, "logo.png");
        let pinned = links
            .link("https://github.com/o/r/blob/0123abcd/x.md#usage")
            .unwrap();
        assert_eq!(pinned.pinned.as_deref(), Some("0123abcd"));
        assert_eq!(pinned.fragment.as_deref(), Some("usage"));
        assert_eq!(
            links
                .link("https://github.com/o/r/blob/v1.0.0/x.md")
                .unwrap()
                .pinned
                .as_deref(),
            Some("v1.0.0")
        );
        // Another branch is read at its tip; a ref this clone lacks is looked
        // up as written (and fails): not the audited tree.
        assert_eq!(
            folder.pinned.as_deref(),
            Some("refs/remotes/origin/release/1.x")
        );
        assert_eq!(
            links
                .link("https://github.com/o/r/blob/v2.3/x.md")
                .unwrap()
                .pinned
                .as_deref(),
            Some("v2.3")
        );
        for default in ["master", "trunk-2", "HEAD"] {
            let url = format!("https://github.com/o/r/blob/{default}/x.md");
            assert_eq!(links.link(&url).unwrap().pinned, None, "{url}");
        }
        for other in [
            "https://github.com/o/r/blob/@{-1}/x.md",
            "https://github.com/o/r/blob/:x/y.md",
            "https://github.com/o/r/blob/a..b/y.md",
            "https://github.com/o/r",
            "https://github.com/o/r/tree/main",
            "https://github.com/o/r/issues/12",
            "https://github.com/o/other/blob/main/x.md",
            "https://github.com/o/r/blob/main/../x",
            "https://gitlab.com/o/r/-/blob/main/x.md",
        ] {
            assert_eq!(links.link(other), None, "{other}");
        }
        let lab = own("gitlab.example.com", "g/sub/r");
        assert_eq!(
            lab.link("https://gitlab.example.com/g/sub/r/-/blob/main/a.rb#L3")
                .map(|l| (l.path, l.lines)),
            Some(("a.rb".to_owned(), Some((3, 3))))
        );
    }

    #[test]
    fn packages_below_the_root_name_the_address_only_when_they_agree() {
        use crate::snapshot::memory::MemorySnapshot;
        let crate_of = |url: &str| format!("[package]\nname = \"x\"\nrepository = \"{url}\"\n");
        let (own, again, other) = (
            crate_of("https://github.com/me/mono"),
            crate_of("https://github.com/me/mono"),
            crate_of("https://github.com/someone/lib"),
        );
        let agreeing = MemorySnapshot::new(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/a\"]\n"),
            ("crates/a/Cargo.toml", &own),
            ("crates/b/Cargo.toml", &again),
        ]);
        let found = address_from_metadata(&agreeing).expect("the members agree");
        assert_eq!(found.project, "me/mono");
        // A workspace whose only addressed members are two copied crates.
        let copies = MemorySnapshot::new(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/a\"]\n"),
            ("external-crates/lib/Cargo.toml", &other),
            ("external-crates/sse/Cargo.toml", &own),
        ]);
        assert!(address_from_metadata(&copies).is_none());
        // A monorepo most of whose packages name it, one its old home.
        let monorepo = MemorySnapshot::new(&[
            ("packages/a/Cargo.toml", &own),
            ("packages/b/Cargo.toml", &other),
            ("packages/c/Cargo.toml", &own),
            ("packages/d/Cargo.toml", &own),
        ]);
        let found = address_from_metadata(&monorepo).expect("most agree");
        assert_eq!(found.project, "me/mono");
    }

    #[test]
    fn metadata_names_the_address_in_each_ecosystem_s_key() {
        let py = "[project.urls]\nHomepage = \"https://example.org\"\nSource = \"https://github.com/a/b\"\n";
        assert_eq!(urls_in("pyproject.toml", py)[0], "https://github.com/a/b");
        let cargo = "[workspace.package]\nrepository = \"https://github.com/a/c\"\n";
        assert_eq!(urls_in("Cargo.toml", cargo), ["https://github.com/a/c"]);
        assert_eq!(
            urls_in(
                "package.json",
                r#"{"repository": {"url": "git+https://github.com/a/d.git"}}"#
            ),
            ["git+https://github.com/a/d.git"]
        );
        assert_eq!(
            urls_in("package.json", r#"{"repository": "a/e"}"#),
            ["github:a/e"]
        );
        assert_eq!(
            urls_in("go.mod", "module github.com/a/h/v2\n\ngo 1.22\n"),
            ["https://github.com/a/h/v2"]
        );
        assert_eq!(
            parse_address("https://github.com/a/h/v2"),
            Some(("github.com".to_owned(), "a/h".to_owned()))
        );
        assert_eq!(
            urls_in(
                "setup.py",
                "setup(\n    name='i',\n    url='https://i.example.org',\n    project_urls={'Source': 'https://github.com/a/i'},\n)\n"
            ),
            ["https://github.com/a/i", "https://i.example.org"]
        );
        assert_eq!(
            urls_in(
                "pom.xml",
                "<project><url>https://j.example.org</url><scm><connection>x</connection><url>https://github.com/a/j</url></scm></project>"
            ),
            ["https://github.com/a/j"]
        );
        let cfg = "[metadata]\nname = b\nurl = https://b.example.org\nproject_urls =\n    Bug Tracker = https://github.com/a/g/issues\n    Source Code = https://github.com/a/g\n[options]\nurl = https://no.example\n";
        assert_eq!(
            urls_in("setup.cfg", cfg),
            [
                "https://github.com/a/g",
                "https://b.example.org",
                "https://github.com/a/g/issues"
            ]
        );
        assert_eq!(
            urls_in(
                "mkdocs.yml",
                "site_name: x\nrepo_url: 'https://github.com/a/f'\n"
            ),
            ["https://github.com/a/f"]
        );
    }

    #[test]
    fn the_majority_address_needs_two_resolving_links_and_no_tie() {
        let paths = vec!["docs/a.md".to_owned(), "src/x.py".to_owned()];
        let links = [
            "https://github.com/me/proj/blob/main/docs/a.md",
            "https://github.com/me/proj/tree/master/src",
            "https://github.com/other/lib/blob/main/README.md",
        ];
        let found = address_by_majority(links.into_iter(), &paths).unwrap();
        assert_eq!(
            (found.host.as_str(), found.project.as_str()),
            ("github.com", "me/proj")
        );
        assert_eq!(
            address_by_majority(links[..1].iter().copied(), &paths),
            None
        );
        let tie = [
            links[0],
            links[1],
            "https://github.com/fork/proj/blob/main/src/x.py",
            "https://github.com/fork/proj/tree/main/docs",
        ];
        assert_eq!(address_by_majority(tie.into_iter(), &paths), None);
    }

    #[test]
    fn a_project_most_of_whose_links_name_nothing_here_is_another() {
        let paths = vec!["docs/guide.md".to_owned(), "src/app.cs".to_owned()];
        // The framework the example documents: two of its links happen to
        // name paths here, three do not.
        let links = [
            "https://github.com/acme/framework/blob/main/docs/guide.md",
            "https://github.com/acme/framework/blob/main/src/app.cs",
            "https://github.com/acme/framework/blob/main/docs/features-a.md",
            "https://github.com/acme/framework/blob/main/docs/features-b.md",
            "https://github.com/acme/framework/blob/main/docs/features-c.md",
        ];
        assert_eq!(address_by_majority(links.into_iter(), &paths), None);
        // This tree's own, one of whose links drifted: still its own. Its
        // permalinks to paths since moved show the trees they name.
        let own = [
            "https://github.com/acme/example/blob/main/docs/guide.md",
            "https://github.com/acme/example/blob/main/src/app.cs",
            "https://github.com/acme/example/blob/main/src/gone.cs",
            "https://github.com/acme/example/blob/8327f68043e692c77f70d6a6dafa463636c01578/src/a.cs",
            "https://github.com/acme/example/blob/8327f68043e692c77f70d6a6dafa463636c01578/src/b.cs",
        ];
        let found = address_by_majority(own.into_iter(), &paths).expect("its own");
        assert_eq!(found.project, "acme/example");
    }

    #[test]
    fn links_to_an_organisation_s_shared_community_files_elect_no_address() {
        let paths = vec![
            "CODE_OF_CONDUCT.md".to_owned(),
            "CONTRIBUTING.md".to_owned(),
            "src/x.py".to_owned(),
        ];
        let shared = [
            "https://github.com/org/community/blob/main/CODE_OF_CONDUCT.md",
            "https://github.com/org/community/blob/main/CONTRIBUTING.md",
        ];
        assert_eq!(address_by_majority(shared.into_iter(), &paths), None);
        // A vendor's driver repository, linked by its README's sections.
        let vendor = [
            "https://github.com/vendor/proj-driver/blob/master/README.rst#options",
            "https://github.com/vendor/proj-driver/blob/master/README.rst#install",
        ];
        let paths_with_readme = vec!["README.rst".to_owned(), "src/x.py".to_owned()];
        assert_eq!(
            address_by_majority(vendor.into_iter(), &paths_with_readme),
            None
        );
        let own = [
            shared[0],
            shared[1],
            "https://github.com/org/proj/blob/main/src/x.py",
            "https://github.com/org/proj/blob/main/CONTRIBUTING.md",
            "https://github.com/org/proj/tree/main/src",
        ];
        let found = address_by_majority(own.into_iter(), &paths).unwrap();
        assert_eq!(found.project, "org/proj");
    }
}
