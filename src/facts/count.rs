//! Fact kind `count`: the number of lines of one file that match a fixed string
//! or regex, as `grep -c` counts them.

use serde::Deserialize;
use toml::Spanned;

use super::lines_of;
use super::{Computed, Env, Kind, Reads, Recipe, compile_regex};
use crate::error::Result;
use crate::number::Number;
use crate::source::RuleSource;

/// `count = "PATTERN"`: matching lines of one file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountParams {
    /// A fixed string, or a regex with `regex = true`.
    pub count: Spanned<String>,
    /// The one file to count in.
    pub file: Spanned<String>,
    /// Read `count` as a regular expression.
    #[serde(default)]
    pub regex: bool,
    /// Match without regard to case.
    #[serde(default)]
    pub ignore_case: bool,
}

#[derive(Debug)]
pub struct CountFact {
    pattern: String,
    regex: regex::Regex,
    file: Spanned<String>,
}

impl Kind for CountFact {
    const NAME: &'static str = "count";
    type Params = CountParams;

    fn resolve(params: CountParams, source: &RuleSource) -> Result<Self> {
        Ok(CountFact {
            pattern: params.count.get_ref().clone(),
            regex: compile_regex(&params.count, source, params.regex, params.ignore_case)?,
            file: params.file,
        })
    }

    fn reads(&self) -> Reads {
        Reads {
            paths: vec![self.file.get_ref().clone()],
            as_text: true,
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let path = self.file.get_ref();
        let text = crate::snapshot::read_text_within(
            env.frame.snapshot.as_ref(),
            path,
            crate::snapshot::MAX_COUNTED_BYTES,
        )
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
            value: Number::from_integer(count as i128).into(),
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
