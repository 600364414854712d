//! Path selection over a snapshot, shared by the fact kinds and the check
//! families: record-style globs (`*` stays within a folder, `**` crosses
//! folders) and git-style path specs (a folder or file prefix, or a glob whose
//! `*` crosses folders, as `git grep -- SPEC` reads it).

use std::ops::Range;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use globset::{GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};

use crate::error::Result;
use crate::source::RuleSource;

/// Most bytes of one pattern in a rule file. Real patterns are a line; the regex
/// parser's memory grows many times a pattern's size (840 KB of pattern took
/// 220 MB before the compiled-size limit refused it).
pub(crate) const MAX_PATTERN_BYTES: usize = 8 * 1024;

/// How a pattern's `*` treats `/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// `*` stays within one folder; `**` crosses folders.
    Glob,
    /// git pathspec: a plain spec is a path or folder prefix; with glob
    /// characters, `*` also matches `/`.
    Git,
}

#[derive(Debug, Clone)]
enum Matcher {
    Prefix(String),
    Glob(GlobMatcher),
}

/// One compiled path pattern.
#[derive(Debug, Clone)]
pub struct PathSpec {
    pub text: String,
    matcher: Matcher,
}

impl PathSpec {
    /// Compiles a spec. Compiled specs are kept for the rest of the process: rule
    /// files repeat the same record glob in every claim, and each glob compiles
    /// to a regex.
    pub fn new(text: &str, style: Style) -> Result<Self, String> {
        type Cache = Mutex<HashMap<(String, Style), Result<PathSpec, String>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Cache::default);
        let key = (text.to_owned(), style);
        if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return hit;
        }
        let compiled = PathSpec::compile(text, style);
        if let Ok(mut c) = cache.lock() {
            c.insert(key, compiled.clone());
        }
        compiled
    }

    fn compile(text: &str, style: Style) -> Result<Self, String> {
        // Refused before it is compiled: a glob of hundreds of KiB panics
        // inside globset, and no path of a repository needs one.
        if text.len() > MAX_PATTERN_BYTES {
            return Err(format!(
                "the path pattern is {} bytes, over the {} a pattern may have",
                text.len(),
                MAX_PATTERN_BYTES
            ));
        }
        let trimmed = text.trim_start_matches("./");
        if trimmed.split('/').any(|seg| seg == "..") || trimmed.starts_with('/') {
            return Err(
                "a path spec must stay inside the repository (no `..`, no leading `/`)".into(),
            );
        }
        let has_glob = trimmed.contains(['*', '?', '[', '{']);
        let matcher = if style == Style::Git && !has_glob {
            Matcher::Prefix(trimmed.trim_end_matches('/').to_owned())
        } else {
            let glob = GlobBuilder::new(trimmed)
                .literal_separator(style == Style::Glob)
                .backslash_escape(true)
                .build()
                .map_err(|e| e.kind().to_string())?;
            Matcher::Glob(glob.compile_matcher())
        };
        Ok(PathSpec {
            text: text.to_owned(),
            matcher,
        })
    }

    /// Compiles a spec from a rule file, locating any error at `span`.
    pub fn from_rule(
        text: &str,
        style: Style,
        source: &RuleSource,
        span: Range<usize>,
    ) -> Result<Self> {
        PathSpec::new(text, style).map_err(|why| {
            let shown = crate::escape::untrusted(text, crate::escape::VALUE_CAP);
            source.error(span, format!("invalid path pattern `{shown}`"), why)
        })
    }

    pub fn matches(&self, path: &str) -> bool {
        match &self.matcher {
            Matcher::Prefix(prefix) => {
                prefix.is_empty()
                    || path == prefix
                    || (path.starts_with(prefix.as_str())
                        && path.as_bytes().get(prefix.len()) == Some(&b'/'))
            }
            Matcher::Glob(glob) => glob.is_match(path),
        }
    }
}

/// Many specs matched at once: the globs as one set (a path is matched
/// against all of them in one pass, however many there are), the prefixes
/// one by one.
pub struct PathSet {
    globs: GlobSet,
    /// For each glob of the set, the index of its spec.
    glob_specs: Vec<usize>,
    /// Specs tried one by one: the prefixes (and every spec, should the set
    /// not compile).
    alone: Vec<(usize, PathSpec)>,
}

impl PathSet {
    pub fn of<'s>(specs: impl IntoIterator<Item = &'s PathSpec>) -> PathSet {
        let specs: Vec<&PathSpec> = specs.into_iter().collect();
        let mut builder = GlobSetBuilder::new();
        let (mut glob_specs, mut alone) = (Vec::new(), Vec::new());
        for (index, spec) in specs.iter().enumerate() {
            match &spec.matcher {
                Matcher::Glob(glob) => {
                    builder.add(glob.glob().clone());
                    glob_specs.push(index);
                }
                Matcher::Prefix(_) => alone.push((index, (*spec).clone())),
            }
        }
        match builder.build() {
            Ok(globs) => PathSet {
                globs,
                glob_specs,
                alone,
            },
            // Each glob compiled alone already; a set that does not is read
            // as its specs one by one.
            Err(_) => PathSet {
                globs: GlobSet::empty(),
                glob_specs: Vec::new(),
                alone: specs
                    .iter()
                    .enumerate()
                    .map(|(i, spec)| (i, (*spec).clone()))
                    .collect(),
            },
        }
    }

    /// The indices of the specs `path` matches, in order.
    pub fn matching(&self, path: &str) -> Vec<usize> {
        let mut found: Vec<usize> = self
            .globs
            .matches(path)
            .into_iter()
            .filter_map(|i| self.glob_specs.get(i).copied())
            .collect();
        found.extend(
            self.alone
                .iter()
                .filter(|(_, spec)| spec.matches(path))
                .map(|(i, _)| *i),
        );
        found.sort_unstable();
        found
    }
}

/// Paths selected by `include` specs (all paths when empty) minus `exclude` specs.
pub fn select<'p>(paths: &'p [String], include: &[PathSpec], exclude: &[PathSpec]) -> Vec<&'p str> {
    paths
        .iter()
        .filter(|p| include.is_empty() || include.iter().any(|s| s.matches(p)))
        .filter(|p| !exclude.iter().any(|s| s.matches(p)))
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_matches_what_its_specs_match_one_by_one() {
        let specs: Vec<PathSpec> = [
            ("docs/**", Style::Glob),
            ("docs/*.md", Style::Glob),
            ("src", Style::Git),
            ("*.md", Style::Glob),
            ("docs/a?.md", Style::Glob),
            ("src/**/*.rs", Style::Git),
        ]
        .iter()
        .map(|(text, style)| PathSpec::new(text, *style).expect("spec"))
        .collect();
        let set = PathSet::of(&specs);
        for path in [
            "docs/a.md",
            "docs/ab.md",
            "docs/x/y.md",
            "README.md",
            "src/lib.rs",
            "src/x/y.rs",
            "srcs/a.rs",
            "other.txt",
        ] {
            let one_by_one: Vec<usize> = (0..specs.len())
                .filter(|&i| specs[i].matches(path))
                .collect();
            assert_eq!(set.matching(path), one_by_one, "{path}");
        }
    }

    #[test]
    fn a_pattern_past_the_cap_is_refused_before_it_is_compiled() {
        let huge = format!("{}*.md", "[ab]".repeat(200_000));
        let why = PathSpec::new(&huge, Style::Glob).expect_err("refused");
        assert!(why.contains("over the"), "{why}");
        assert!(why.len() < 200, "{why}");
    }

    #[test]
    fn glob_star_stays_in_folder() {
        let spec = PathSpec::new("schemas/mcp/*.json", Style::Glob).unwrap();
        assert!(spec.matches("schemas/mcp/a.json"));
        assert!(!spec.matches("schemas/mcp/sub/a.json"));
        let deep = PathSpec::new("docs/**/*.md", Style::Glob).unwrap();
        assert!(deep.matches("docs/adr/0031.md"));
    }

    #[test]
    fn git_spec_is_a_prefix_or_a_crossing_glob() {
        let spec = PathSpec::new("packages", Style::Git).unwrap();
        assert!(spec.matches("packages/a/b.py"));
        assert!(!spec.matches("packages-old/b.py"));
        let glob = PathSpec::new("*.py", Style::Git).unwrap();
        assert!(glob.matches("a/b/c.py"));
    }

    #[test]
    fn specs_cannot_escape_the_repository() {
        assert!(PathSpec::new("../etc/passwd", Style::Git).is_err());
        assert!(PathSpec::new("/etc", Style::Glob).is_err());
    }
}
