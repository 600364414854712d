//! Fact kind `entries`: how many entries a literal collection bound to a name
//! holds (a Python tuple, list, dict or set; a Rust array or slice; ...), and the
//! line span of the binding.

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::error::Result;
use crate::number::Number;
use crate::source::RuleSource;

/// `entries = "NAME"`: the entries of a literal collection.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntriesParams {
    /// The name the collection is bound to.
    pub entries: Spanned<String>,
    /// The source file that binds it.
    pub file: Spanned<String>,
}

#[derive(Debug)]
pub struct EntriesFact {
    name: Spanned<String>,
    file: Spanned<String>,
}

impl Kind for EntriesFact {
    const NAME: &'static str = "entries";
    type Params = EntriesParams;

    fn resolve(params: EntriesParams, _source: &RuleSource) -> Result<Self> {
        Ok(EntriesFact {
            name: params.entries,
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
            value: Number::from_integer(entries.count as i128).into(),
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
