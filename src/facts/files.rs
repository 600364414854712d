//! Fact kind `files`: the paths matching a glob at a snapshot. The value is how
//! many there are; the listing is the paths themselves, sorted.

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::snapshot::pathspec::{PathSpec, Style, select};

/// `files = "GLOB"`: how many paths match.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilesParams {
    /// A glob of repository paths (`*` stays within a folder, `**` crosses folders).
    pub files: Spanned<String>,
    /// Globs of paths not to count.
    #[serde(default)]
    pub exclude: Vec<Spanned<String>>,
}

#[derive(Debug)]
pub struct FilesFact {
    glob: PathSpec,
    exclude: Vec<PathSpec>,
}

impl Kind for FilesFact {
    const NAME: &'static str = "files";
    type Params = FilesParams;

    fn resolve(params: FilesParams, source: &RuleSource) -> Result<Self> {
        let glob = &params.files;
        // `src/` names a folder, and a folder is no file: counted as written it
        // would be a silent 0, and every claim about it drift.
        if let Some(folder) = glob.get_ref().strip_suffix('/') {
            return Err(source
                .error(
                    glob.span(),
                    format!("`{}` is a folder; a files fact counts the files a glob matches", glob.get_ref()),
                    "a folder, not a glob of files",
                )
                .with_help(format!(
                    "write `{folder}/*` for the files in it, or `{folder}/**` for every file below it"
                )));
        }
        Ok(FilesFact {
            glob: PathSpec::from_rule(glob.get_ref(), Style::Glob, source, glob.span())?,
            exclude: params
                .exclude
                .iter()
                .map(|s| PathSpec::from_rule(s.get_ref(), Style::Glob, source, s.span()))
                .collect::<Result<_>>()?,
        })
    }

    fn reads(&self) -> Reads {
        Reads {
            paths: vec![self.glob.text.clone()],
            exclude: self.exclude.iter().map(|e| e.text.clone()).collect(),
            names_only: true,
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
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
            value: Number::from_integer(listing.len() as i128).into(),
            listing: Some(listing),
            lines: None,
            recipe: Recipe::new("files", env, inputs),
        })
    }
}
