//! Fact kind `files`: the paths matching a glob at a snapshot. The value is how
//! many there are; the listing is the paths themselves, sorted.

use toml::Spanned;

use super::pathspec::{PathSpec, Style, select};
use super::{Computed, Env, Recipe, reject_params};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;

#[derive(Debug)]
pub struct FilesFact {
    glob: PathSpec,
    exclude: Vec<PathSpec>,
}

impl FilesFact {
    pub fn from_rule(glob: &Spanned<String>, rule: &FactRule, source: &RuleSource) -> Result<Self> {
        reject_params(rule, source, "files", &["exclude"])?;
        Ok(FilesFact {
            glob: PathSpec::from_rule(glob.get_ref(), Style::Glob, source, glob.span())?,
            exclude: rule
                .exclude
                .iter()
                .map(|s| PathSpec::from_rule(s.get_ref(), Style::Glob, source, s.span()))
                .collect::<Result<_>>()?,
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let listing: Vec<String> = select(
            env.frame.snapshot.paths(),
            std::slice::from_ref(&self.glob),
            &self.exclude,
        )
        .into_iter()
        .map(str::to_owned)
        .collect();
        let mut inputs = vec![format!("glob {}", self.glob.text)];
        inputs.extend(self.exclude.iter().map(|e| format!("excluding {}", e.text)));
        Ok(Computed {
            value: Number::from_integer(listing.len() as i128),
            listing: Some(listing),
            lines: None,
            recipe: Recipe::new("files", env, inputs),
        })
    }
}
