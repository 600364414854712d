//! Fact kind `files`: the paths matching a glob at a snapshot. The value is how
//! many there are; the listing is the paths themselves, sorted.

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::error::Result;
use crate::number::Number;
use crate::pathspec::{PathSpec, Style, select};
use crate::snapshot::has_folder;
use crate::source::RuleSource;

/// A files glob that names a folder: a located error with the two globs meant.
fn a_folder(
    source: &RuleSource,
    span: std::ops::Range<usize>,
    written: &str,
) -> crate::error::Error {
    let folder = written.trim_end_matches('/');
    source
        .error(
            span,
            format!("`{written}` is a folder; a files fact counts the files a glob matches"),
            "a folder, not a glob of files",
        )
        .with_help(format!(
            "write `{folder}/*` for the files in it, or `{folder}/**` for every file below it"
        ))
}

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
    /// Where the glob is in its rule file.
    span: std::ops::Range<usize>,
    exclude: Vec<PathSpec>,
}

impl Kind for FilesFact {
    const NAME: &'static str = "files";
    type Params = FilesParams;

    fn resolve(params: FilesParams, source: &RuleSource) -> Result<Self> {
        let glob = &params.files;
        // `src/` names a folder, and a folder is no file: counted as written it
        // would be a silent 0, and every claim about it drift.
        if glob.get_ref().ends_with('/') {
            return Err(a_folder(source, glob.span(), glob.get_ref()));
        }
        Ok(FilesFact {
            span: glob.span(),
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
        // `files = "src"` names a folder as surely as `src/` does, but only the
        // tree can tell: a folder matches no file, and would count a silent 0.
        let text = &self.glob.text;
        if listing.is_empty()
            && !text.contains(['*', '?', '[', '{'])
            && has_folder(env.frame.snapshot.paths(), text)
        {
            return Err(a_folder(env.source, self.span.clone(), text));
        }
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
