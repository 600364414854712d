//! Fact kind `count`: the number of lines of one file that match a fixed string
//! or regex, as `grep -c` counts them.

use toml::Spanned;

use super::lines_of;
use super::{Computed, Env, Recipe, compile_pattern, reject_params};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;

#[derive(Debug)]
pub struct CountFact {
    pattern: String,
    regex: regex::Regex,
    file: Spanned<String>,
}

impl CountFact {
    pub fn from_rule(
        pattern: &Spanned<String>,
        rule: &FactRule,
        source: &RuleSource,
    ) -> Result<Self> {
        reject_params(rule, source, "count", &["file", "regex", "ignore_case"])?;
        let Some(file) = rule.file.clone() else {
            return Err(source.error(
                pattern.span(),
                "a count fact needs `file`",
                "count in which file?",
            ));
        };
        Ok(CountFact {
            pattern: pattern.get_ref().clone(),
            regex: compile_pattern(pattern, rule, source)?,
            file,
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let path = self.file.get_ref();
        let text = env
            .frame
            .snapshot
            .read_text(path)
            .map_err(|e| {
                env.source.error(
                    self.file.span(),
                    format!("cannot read {path}: {e}"),
                    "this file",
                )
            })?
            .ok_or_else(|| {
                env.source.error(
                    self.file.span(),
                    format!("{path} is not a text file in {}", env.frame.label),
                    "no such text file",
                )
            })?;
        let count = lines_of(&text).filter(|l| self.regex.is_match(l)).count();
        Ok(Computed {
            value: Number::from_integer(count as i128),
            listing: None,
            lines: None,
            recipe: Recipe::new(
                "count",
                env,
                vec![format!("pattern {:?} in {path}", self.pattern)],
            ),
        })
    }
}
