//! Fact kind `grep`: lines matching a fixed string or regex under path specs, as
//! `git grep -n PATTERN REV -- PATHS` finds them: text files only, one hit per
//! matching line. The value is the number of hits; the listing is `path:line`.

use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::lines_of;
use super::{Computed, Env, Kind, Reads, Recipe, compile_regex};
use crate::error::{Error, Result};
use crate::number::Number;
use crate::pathspec::{PathSpec, Style, select};
use crate::snapshot::Snapshot;
use crate::source::RuleSource;

/// `grep = "PATTERN"`: matching lines under path specs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrepParams {
    /// A fixed string, or a regex with `regex = true`.
    pub grep: Spanned<String>,
    /// git path specs to search under (default: the whole tree).
    #[serde(default)]
    pub paths: Vec<Spanned<String>>,
    /// git path specs to leave out.
    #[serde(default)]
    pub exclude: Vec<Spanned<String>>,
    /// Read `grep` as a regular expression.
    #[serde(default)]
    pub regex: bool,
    /// Match without regard to case.
    #[serde(default)]
    pub ignore_case: bool,
}

#[derive(Debug)]
pub struct GrepFact {
    pattern: String,
    regex: regex::Regex,
    /// What the per-file cache knows this search by: the compiled pattern
    /// and its case rule (a regex's text alone does not say it).
    search_key: String,
    paths: Vec<PathSpec>,
    exclude: Vec<PathSpec>,
}

impl Kind for GrepFact {
    const NAME: &'static str = "grep";
    type Params = GrepParams;

    fn resolve(params: GrepParams, source: &RuleSource) -> Result<Self> {
        let specs = |list: &[Spanned<String>]| -> Result<Vec<PathSpec>> {
            list.iter()
                .map(|s| PathSpec::from_rule(s.get_ref(), Style::Git, source, s.span()))
                .collect()
        };
        Ok(GrepFact {
            pattern: params.grep.get_ref().clone(),
            regex: compile_regex(&params.grep, source, params.regex, params.ignore_case)?,
            search_key: format!(
                "{}:{}",
                if params.ignore_case { "i" } else { "s" },
                if params.regex {
                    params.grep.get_ref().clone()
                } else {
                    regex::escape(params.grep.get_ref())
                }
            ),
            paths: specs(&params.paths)?,
            exclude: specs(&params.exclude)?,
        })
    }

    fn reads(&self) -> Reads {
        let mut paths: Vec<String> = self.paths.iter().map(|p| p.text.clone()).collect();
        if paths.is_empty() {
            paths.push("**".to_owned());
        }
        Reads {
            paths,
            exclude: self.exclude.iter().map(|e| e.text.clone()).collect(),
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let snapshot = env.frame.snapshot.as_ref();
        let listing = grep_lines(
            snapshot,
            &self.regex,
            &self.search_key,
            &self.paths,
            &self.exclude,
        )?;
        let mut inputs = vec![format!("pattern {:?}", self.pattern)];
        if !self.paths.is_empty() {
            inputs.push(format!(
                "under {}",
                self.paths
                    .iter()
                    .map(|p| p.text.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        inputs.extend(self.exclude.iter().map(|e| format!("excluding {}", e.text)));
        Ok(Computed {
            value: Number::from_integer(listing.len() as i128).into(),
            listing: Some(listing),
            lines: None,
            recipe: Recipe::new("grep", env, inputs),
        })
    }
}

/// Every `path:line` whose line matches, in path then line order. `key`
/// names the search (pattern and case rule) for the per-file cache.
pub fn grep_lines(
    snapshot: &dyn Snapshot,
    regex: &regex::Regex,
    key: &str,
    include: &[PathSpec],
    exclude: &[PathSpec],
) -> Result<Vec<String>> {
    use rayon::prelude::*;
    let selected = select(snapshot.paths(), include, exclude);
    // Files are read and searched on every core, as git grep does; the hits
    // keep the paths' order.
    let per_file: Vec<Vec<String>> = selected
        .par_iter()
        .with_min_len(16)
        .map(|path| grep_file(snapshot, regex, key, path))
        .collect::<Result<_>>()?;
    Ok(per_file.into_iter().flatten().collect())
}

/// Matching line numbers by (pattern, blob id): a file's matches are found
/// once however many commits (a history) or facts share its contents. Cleared
/// when it grows past a bound, so memory stays bounded.
type LineCache = std::sync::Mutex<std::collections::HashMap<(String, [u8; 20]), Arc<[usize]>>>;

fn line_cache() -> &'static LineCache {
    static CACHE: std::sync::OnceLock<LineCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(LineCache::default)
}

const LINE_CACHE_BOUND: usize = 200_000;

/// The `path:line` of every line of one file that matches (none for a binary
/// file: a NUL byte in its first 8 KiB, as git decides).
fn grep_file(
    snapshot: &dyn Snapshot,
    regex: &regex::Regex,
    search: &str,
    path: &str,
) -> Result<Vec<String>> {
    let shown =
        |lines: &[usize]| -> Vec<String> { lines.iter().map(|n| format!("{path}:{n}")).collect() };
    let Some(blob) = snapshot.blob_id(path) else {
        return grep_lines_of(snapshot, regex, path).map(|lines| shown(&lines));
    };
    let key = (search.to_owned(), blob);
    if let Some(hit) = line_cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(shown(&hit));
    }
    let lines: Arc<[usize]> = grep_lines_of(snapshot, regex, path)?.into();
    if let Ok(mut cache) = line_cache().lock() {
        if cache.len() >= LINE_CACHE_BOUND {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&lines));
    }
    Ok(shown(&lines))
}

/// The (1-based) numbers of the lines of one file that match, searched where
/// the snapshot holds the bytes (a blob is not copied out first).
fn grep_lines_of(snapshot: &dyn Snapshot, regex: &regex::Regex, path: &str) -> Result<Vec<usize>> {
    let mut lines = Vec::new();
    snapshot
        .with_bytes(path, &mut |bytes| {
            if bytes[..bytes.len().min(8000)].contains(&0) {
                return;
            }
            // Valid UTF-8 (nearly every file) is searched in place, without a copy.
            let text = String::from_utf8_lossy(bytes);
            if !regex.is_match(&text) {
                return;
            }
            lines = lines_of(&text)
                .enumerate()
                .filter(|(_, line)| regex.is_match(line))
                .map(|(n, _)| n + 1)
                .collect();
        })
        .map_err(|e| Error::plain(format!("cannot read {path} from {}: {e}", snapshot.label())))?;
    Ok(lines)
}
