//! The citation family's configuration: the `[cites]` table as a rule file
//! writes it, and its resolution with defaults filled in (record globs and the
//! frame pattern compiled).

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use std::collections::BTreeMap;

use super::find::{CiteOptions, DEFAULT_HISTORY_MARKERS};
use super::model::{Exemption, ExemptionSettings};
use crate::error::{Error, Result};
use crate::pathspec::{PathSpec, Style};
use crate::source::RuleSource;

/// The `[cites]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CitesRule {
    /// Whether the citation checks run at all.
    pub enabled: Option<bool>,
    /// Record globs whose citations are checked (default: every `*.md`,
    /// `*.mdx` and `*.rst`).
    pub records: Option<Vec<Spanned<String>>>,
    /// Folders a cited path may be relative to (`tests/unit/x.py` for `packages/core/tests/unit/x.py`).
    #[serde(default)]
    pub test_roots: Vec<Spanned<String>>,
    /// Languages whose test definitions are read: `python`, `rust`.
    pub languages: Option<Vec<Spanned<String>>>,
    /// Phrases that mark a cite as history ("renamed from"): such a cite is not stale.
    pub history: Option<Vec<String>>,
    /// Also read bare Rust paths like `module::tests::name` as test cites.
    pub rust_module_paths: Option<bool>,
    /// A regex with a `sha` group that marks the rest of a record's section as
    /// measured at that commit.
    pub frame_pattern: Option<Spanned<String>>,
    /// What a cited line must contain.
    #[serde(default)]
    pub expect: Vec<LineExpectation>,
    /// Exemptions turned off (`reader-cue = false`) or left on, by id.
    #[serde(default)]
    pub exemptions: BTreeMap<Spanned<String>, Spanned<bool>>,
    /// Phrases added to an exemption's word list, by id
    /// (`reader-cue = ["in the app you"]`).
    #[serde(default, rename = "exemption-words")]
    pub exemption_words: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
}

/// `[[cites.expect]]`: the literal a cited line must hold.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineExpectation {
    /// The cite as records write it: `path:LINE` or `path:START-END`.
    pub cite: Spanned<String>,
    /// The text the cited line (or one of the cited lines) must contain.
    pub contains: Spanned<String>,
}

/// The `[cites]` settings with defaults filled in, compiled.
#[derive(Debug)]
pub struct CitesPlan {
    pub enabled: bool,
    pub records: Vec<PathSpec>,
    /// The records are the default globs (no `[cites] records`): a Sphinx
    /// project's `.txt` sources are records too.
    pub default_records: bool,
    pub roots: Vec<String>,
    pub python: bool,
    pub rust: bool,
    pub options: CiteOptions,
    /// What cited lines must hold, in rule-file order.
    pub expect: Vec<ExpectPlan>,
    /// Which exemptions apply, and the words the rule file added.
    pub exemptions: ExemptionSettings,
    /// `[recount].url`: the repository's own hosted address, when the rule
    /// file states it (a link to it is read as a path of this tree).
    pub url: Option<super::hosted::OwnAddress>,
    /// When set, only these records' citations and transcripts are placed,
    /// resolved and judged (every record is still read, for what one record
    /// learns of the others: includes, copies, labels): `check --since`
    /// checks its base for the records its findings are in, and no more;
    /// `check PATH…` judges the records at or under the paths it names.
    pub judged: Option<std::sync::Arc<crate::scope::RecordScope>>,
}

/// A `[[cites.expect]]` entry, resolved. It applies to a line cite with the
/// same lines whose path is written the same way, or resolves to the same file:
/// the rule may write the full repository path where the record writes it
/// under a test root, or as the tail of a longer path.
#[derive(Debug)]
pub struct ExpectPlan {
    pub origin: usize,
    /// Span of the entry's `cite` in its rule file.
    pub span: Range<usize>,
    /// The cite, normalised (`path:LINE` or `path:START-END`).
    pub cite: String,
    /// Its path, and its first and last line (`None` when they do not parse:
    /// such an entry can match no cite).
    pub path: String,
    pub lines: Option<(usize, usize)>,
    pub contains: String,
}

impl ExpectPlan {
    fn new(origin: usize, e: &LineExpectation) -> Self {
        let cite = normalise_line_cite(e.cite.get_ref());
        let (path, lines) = split_line_cite(&cite);
        let number = |t: &str| t.trim().parse::<usize>().ok();
        let lines = match lines.split_once('-') {
            Some((a, b)) => number(a).zip(number(b)),
            None => number(lines).map(|n| (n, n)),
        };
        ExpectPlan {
            origin,
            span: e.cite.span(),
            path: path.to_owned(),
            lines,
            cite,
            contains: e.contains.get_ref().clone(),
        }
    }
}

/// `a/b.py:40-42` -> (`a/b.py`, `40-42`); a cite with no `:` is all path.
pub(crate) fn split_line_cite(cite: &str) -> (&str, &str) {
    cite.rsplit_once(':').unwrap_or((cite, ""))
}

impl CitesPlan {
    pub fn resolve(cites: Option<&(usize, CitesRule)>, sources: &[RuleSource]) -> Result<Self> {
        let mut s = CitesPlan {
            enabled: true,
            records: vec![
                PathSpec::new("**/*.md", Style::Glob).map_err(Error::plain)?,
                PathSpec::new("**/*.rst", Style::Glob).map_err(Error::plain)?,
                PathSpec::new("**/*.mdx", Style::Glob).map_err(Error::plain)?,
            ],
            default_records: true,
            roots: Vec::new(),
            python: true,
            rust: true,
            options: CiteOptions::default(),
            expect: Vec::new(),
            exemptions: ExemptionSettings::default(),
            url: None,
            judged: None,
        };
        let Some((origin, cites)) = cites else {
            return Ok(s);
        };
        let source = &sources[*origin];
        s.enabled = cites.enabled.unwrap_or(true);
        if let Some(records) = &cites.records {
            s.default_records = false;
            s.records = records
                .iter()
                .map(|g| PathSpec::from_rule(g.get_ref(), Style::Glob, source, g.span()))
                .collect::<Result<_>>()?;
        }
        s.roots = cites
            .test_roots
            .iter()
            .map(|r| r.get_ref().trim_end_matches('/').to_owned())
            .collect();
        if let Some(languages) = &cites.languages {
            s.python = languages.iter().any(|l| l.get_ref() == "python");
            s.rust = languages.iter().any(|l| l.get_ref() == "rust");
        }
        if let Some(history) = &cites.history {
            s.options.history = history.clone();
        } else {
            s.options.history = DEFAULT_HISTORY_MARKERS
                .iter()
                .map(|m| (*m).to_owned())
                .collect();
        }
        s.options.rust_module_paths = cites.rust_module_paths.unwrap_or(false);
        if let Some(pattern) = &cites.frame_pattern {
            s.options
                .set_frame_pattern(pattern.get_ref())
                .map_err(|e| {
                    source
                        .error(pattern.span(), "invalid frame pattern", "here")
                        .with_help(e.to_string())
                })?;
        }
        s.exemptions = exemption_settings(cites, source)?;
        s.expect = cites
            .expect
            .iter()
            .map(|e| ExpectPlan::new(*origin, e))
            .collect();
        Ok(s)
    }
}

/// `a/b.py:40`, `a/b.py:40-42` and `a/b.py:40–42` compare equal.
pub(crate) fn normalise_line_cite(text: &str) -> String {
    text.trim().replace('–', "-")
}

/// The `[cites.exemptions]` and `[cites.exemption-words]` tables, each id
/// checked against the registry (an unknown one is a located error).
fn exemption_settings(cites: &CitesRule, source: &RuleSource) -> Result<ExemptionSettings> {
    let known = |id: &Spanned<String>| {
        Exemption::from_id(id.get_ref()).ok_or_else(|| {
            source
                .error(id.span(), "unknown exemption", "no exemption has this id")
                .with_help({
                    let ids: Vec<&str> = Exemption::ALL.iter().map(|e| e.id()).collect();
                    format!(
                        "{}the exemptions are: {}",
                        crate::spelling::did_you_mean(id.get_ref(), &ids),
                        ids.join(", ")
                    )
                })
        })
    };
    let mut set = BTreeMap::new();
    for (id, on) in &cites.exemptions {
        set.insert(known(id)?, *on.get_ref());
    }
    let mut words = BTreeMap::new();
    for (id, list) in &cites.exemption_words {
        let exemption = known(id)?;
        if !exemption.takes_words() {
            return Err(source
                .error(id.span(), "this exemption has no word list", "here")
                .with_help("only reader-cue and made-at-run-time read words from the sentence"));
        }
        words.insert(
            exemption,
            list.iter()
                .map(|w| w.get_ref().to_lowercase())
                .filter(|w| !w.trim().is_empty())
                .collect(),
        );
    }
    Ok(ExemptionSettings::new(set, words))
}
