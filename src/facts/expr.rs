//! Fact kind `expr`: exact arithmetic over constants, other facts (`{id}`),
//! numbers and units, such as `3 * MAX_SOURCE_FILE_BYTES + 1 MiB`.

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::constants::expr::{self, Expr, Reference};
use crate::error::Result;
use crate::source::RuleSource;

/// `expr = "3 * MAX_SOURCE_FILE_BYTES + 1 MiB"`: exact arithmetic.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExprParams {
    /// Constants by name, other facts as `{id}`, numbers and units.
    pub expr: Spanned<String>,
}

#[derive(Debug)]
pub struct ExprFact {
    text: Spanned<String>,
    expr: Expr,
}

impl Kind for ExprFact {
    const NAME: &'static str = "expr";
    type Params = ExprParams;

    fn resolve(params: ExprParams, source: &RuleSource) -> Result<Self> {
        Ok(ExprFact {
            expr: parse_located(&params.expr, source)?,
            text: params.expr,
        })
    }

    fn reads(&self) -> Reads {
        let mut reads = Reads::default();
        for reference in self.expr.references() {
            match reference {
                Reference::Fact(id) => reads.facts.push(id),
                Reference::Constant(name) => reads.constants.push(name),
            }
        }
        reads
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let mut inputs = vec![self.expr.to_string()];
        let value = env.eval(&self.expr, self.text.span(), &mut inputs)?;
        Ok(Computed {
            value: value.into(),
            listing: None,
            lines: None,
            recipe: Recipe::new("expr", env, inputs),
        })
    }
}

/// The fact ids an expression reads.
pub fn fact_references(expr: &Expr) -> Vec<String> {
    expr.references()
        .into_iter()
        .filter_map(|r| match r {
            Reference::Fact(id) => Some(id),
            Reference::Constant(_) => None,
        })
        .collect()
}

/// Parses an expression from a rule file; a syntax error points at the exact
/// character inside the TOML string (the string's opening quote is skipped).
pub fn parse_located(text: &Spanned<String>, source: &RuleSource) -> Result<Expr> {
    expr::parse(text.get_ref()).map_err(|e| {
        let span = text.span();
        let raw = source.text.get(span.clone()).unwrap_or("");
        let quote = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
            3
        } else {
            1
        };
        let start = (span.start + quote + e.offset).min(span.end);
        let end = (start + e.len.max(1)).min(span.end);
        source.error(
            start..end,
            format!("invalid expression: {}", e.message),
            "here",
        )
    })
}
