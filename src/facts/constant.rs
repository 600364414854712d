//! Fact kind `constant`: a named constant's live value, read from source code and
//! evaluated exactly (see `crate::constants`).

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::constants::{Constant, ConstantError};
use crate::error::Result;
use crate::source::RuleSource;

/// `constant = "NAME"`: a named value read from source code.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstantParams {
    /// The constant's name (as the rule or the `[constants]` table calls it).
    pub constant: Spanned<String>,
    /// The source file that defines it (default: `[constants]`, or a search).
    pub file: Option<Spanned<String>>,
}

#[derive(Debug)]
pub struct ConstantFact {
    name: Spanned<String>,
    file: Option<String>,
}

impl Kind for ConstantFact {
    const NAME: &'static str = "constant";
    type Params = ConstantParams;

    fn resolve(params: ConstantParams, _source: &RuleSource) -> Result<Self> {
        Ok(ConstantFact {
            name: params.constant,
            file: params.file.map(Spanned::into_inner),
        })
    }

    fn reads(&self) -> Reads {
        Reads {
            paths: self.file.iter().cloned().collect(),
            constants: vec![self.name.get_ref().clone()],
            as_text: true,
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let c = resolve(
            env,
            self.name.get_ref(),
            self.file.as_deref(),
            self.name.span(),
        )?;
        Ok(Computed {
            value: c.value.into(),
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
    lookup(env, name, file).map_err(|e| {
        env.source
            .error(
                span,
                format!("cannot read constant `{name}` at {}", env.frame.label),
                "this constant",
            )
            .with_help(e.to_string())
    })
}

/// [`resolve`], with why the constant could not be read as data: for callers
/// that report an absent constant as a finding rather than stop the run.
pub fn lookup(env: &Env<'_>, name: &str, file: Option<&str>) -> Result<Constant, ConstantError> {
    let (source_name, file) = match env.declared.get(name) {
        Some(decl) if file.is_none() => (decl.source_name.as_str(), Some(decl.file.as_str())),
        _ => (name, file),
    };
    env.frame.constants.resolve(source_name, file)
}
