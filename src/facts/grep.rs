//! Fact kind `grep`: lines matching a fixed string or regex under path specs, as
//! `git grep -n PATTERN REV -- PATHS` finds them: text files only, one hit per
//! matching line. The value is the number of hits; the listing is `path:line`.

use toml::Spanned;

use super::lines_of;
use super::pathspec::{PathSpec, Style, select};
use super::{Computed, Env, Recipe, compile_pattern, reject_params};
use crate::error::{Error, Result};
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;
use crate::snapshot::Snapshot;

#[derive(Debug)]
pub struct GrepFact {
    pattern: String,
    regex: regex::Regex,
    paths: Vec<PathSpec>,
    exclude: Vec<PathSpec>,
}

impl GrepFact {
    pub fn from_rule(
        pattern: &Spanned<String>,
        rule: &FactRule,
        source: &RuleSource,
    ) -> Result<Self> {
        reject_params(
            rule,
            source,
            "grep",
            &["paths", "exclude", "regex", "ignore_case"],
        )?;
        let specs = |list: &[Spanned<String>]| -> Result<Vec<PathSpec>> {
            list.iter()
                .map(|s| PathSpec::from_rule(s.get_ref(), Style::Git, source, s.span()))
                .collect()
        };
        Ok(GrepFact {
            pattern: pattern.get_ref().clone(),
            regex: compile_pattern(pattern, rule, source)?,
            paths: specs(&rule.paths)?,
            exclude: specs(&rule.exclude)?,
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let snapshot = env.frame.snapshot.as_ref();
        let listing = grep_lines(snapshot, &self.regex, &self.paths, &self.exclude)?;
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
            value: Number::from_integer(listing.len() as i128),
            listing: Some(listing),
            lines: None,
            recipe: Recipe::new("grep", env, inputs),
        })
    }
}

/// Every `path:line` whose line matches, in path then line order.
pub fn grep_lines(
    snapshot: &dyn Snapshot,
    regex: &regex::Regex,
    include: &[PathSpec],
    exclude: &[PathSpec],
) -> Result<Vec<String>> {
    let mut hits = Vec::new();
    for path in select(snapshot.paths(), include, exclude) {
        let text = snapshot.read_text(path).map_err(|e| {
            Error::plain(format!("cannot read {path} from {}: {e}", snapshot.label()))
        })?;
        let Some(text) = text else { continue };
        if !regex.is_match(&text) {
            continue;
        }
        for (n, line) in lines_of(&text).enumerate() {
            if regex.is_match(line) {
                hits.push(format!("{path}:{}", n + 1));
            }
        }
    }
    Ok(hits)
}
