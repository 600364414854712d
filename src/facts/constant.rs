//! Fact kind `constant`: a named constant's live value, read from source code and
//! evaluated exactly (see `crate::constants`).

use std::ops::Range;

use toml::Spanned;

use super::{Computed, Env, Recipe, reject_params};
use crate::constants::Constant;
use crate::error::Result;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;

#[derive(Debug)]
pub struct ConstantFact {
    name: Spanned<String>,
    file: Option<String>,
}

impl ConstantFact {
    pub fn from_rule(name: &Spanned<String>, rule: &FactRule, source: &RuleSource) -> Result<Self> {
        reject_params(rule, source, "constant", &["file"])?;
        Ok(ConstantFact {
            name: name.clone(),
            file: rule.file.as_ref().map(|f| f.get_ref().clone()),
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let c = resolve(
            env,
            self.name.get_ref(),
            self.file.as_deref(),
            self.name.span(),
        )?;
        Ok(Computed {
            value: c.value,
            listing: None,
            lines: Some((c.line, c.line)),
            recipe: Recipe::new(
                "constant",
                env,
                vec![format!("{} = {} ({}:{})", c.name, c.source, c.file, c.line)],
            ),
        })
    }
}

/// Resolves a constant by the name a rule uses: the `[constants]` table says
/// which file (and which source name) when it lists the name; otherwise `file`
/// if given, otherwise a search of the frame's source files.
pub fn resolve(
    env: &Env<'_>,
    name: &str,
    file: Option<&str>,
    span: Range<usize>,
) -> Result<Constant> {
    let (source_name, file) = match env.declared.get(name) {
        Some(decl) if file.is_none() => (decl.source_name.as_str(), Some(decl.file.as_str())),
        _ => (name, file),
    };
    env.frame.constants.resolve(source_name, file).map_err(|e| {
        env.source
            .error(
                span,
                format!("cannot read constant `{name}` at {}", env.frame.label),
                "this constant",
            )
            .with_help(e.to_string())
    })
}
