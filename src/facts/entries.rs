//! Fact kind `entries`: how many entries a literal collection bound to a name
//! holds (a Python tuple, list, dict or set; a Rust array or slice; ...), and the
//! line span of the binding.

use toml::Spanned;

use super::{Computed, Env, Recipe, reject_params};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;

#[derive(Debug)]
pub struct EntriesFact {
    name: Spanned<String>,
    file: Spanned<String>,
}

impl EntriesFact {
    pub fn from_rule(name: &Spanned<String>, rule: &FactRule, source: &RuleSource) -> Result<Self> {
        reject_params(rule, source, "entries", &["file"])?;
        let Some(file) = rule.file.clone() else {
            return Err(source.error(
                name.span(),
                "an entries fact needs `file`",
                "in which file?",
            ));
        };
        Ok(EntriesFact {
            name: name.clone(),
            file,
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let entries = env
            .frame
            .constants
            .literal_entries(self.file.get_ref(), self.name.get_ref())
            .map_err(|e| {
                env.source
                    .error(
                        self.name.span(),
                        format!(
                            "cannot count the entries of `{}` at {}",
                            self.name.get_ref(),
                            env.frame.label
                        ),
                        "this name",
                    )
                    .with_help(e.to_string())
            })?;
        Ok(Computed {
            value: Number::from_integer(entries.count as i128),
            listing: None,
            lines: Some((entries.first_line, entries.last_line)),
            recipe: Recipe::new(
                "entries",
                env,
                vec![format!(
                    "{} in {}:{}-{}",
                    entries.name, entries.file, entries.first_line, entries.last_line
                )],
            ),
        })
    }
}
