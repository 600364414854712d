//! The retired-claim family's configuration: the `[[retired]]` register as a
//! rule file writes it, and its resolution into compiled matchers.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::find::{RetiredKey, RetiredMatcher, RetiredSpec};
use crate::error::Result;
use crate::pathspec::{PathSpec, Style};
use crate::source::OneOrMany;
use crate::source::RuleSource;

/// Characters allowed between a subject and its phrasing when the rule says none.
pub const DEFAULT_WITHIN: usize = 80;
/// Characters allowed between an occurrence and its attribution when the rule says none.
pub const DEFAULT_REACH: usize = 200;

/// `[[retired]]`: a retired claim.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetiredRule {
    pub id: Spanned<String>,
    /// A verbatim phrase or figure (case and whitespace insensitive).
    pub phrase: Option<Spanned<String>>,
    /// With `phrasing`: a regex for what the claim is about.
    pub subject: Option<Spanned<String>>,
    /// With `subject`: a regex for how the retired claim phrases it.
    pub phrasing: Option<Spanned<String>>,
    /// Most characters between subject and phrasing.
    pub within: Option<usize>,
    /// Files the register applies to (records, and source files where asked).
    #[serde(rename = "in")]
    pub files: Spanned<OneOrMany>,
    /// A regex that marks an occurrence as retired ("earlier draft", "withdrawn").
    pub attribution: Spanned<String>,
    /// Most characters between an occurrence and its attribution.
    pub reach: Option<usize>,
}

/// A register entry, compiled.
#[derive(Debug)]
pub struct RetiredPlan {
    pub id: String,
    pub origin: usize,
    /// Span of the rule's key (`phrase` or `subject`) in its rule file.
    pub key_span: Range<usize>,
    pub reach: usize,
    pub matcher: RetiredMatcher,
    /// The files the entry applies to, and the span of `in` in the rule file.
    pub files: Vec<PathSpec>,
    pub files_span: Range<usize>,
}

impl RetiredPlan {
    pub fn resolve(origin: usize, rule: &RetiredRule, source: &RuleSource) -> Result<Self> {
        let compile =
            |pattern: &Spanned<String>| crate::facts::compile_regex(pattern, source, true, false);
        let (key, key_span) = match (&rule.phrase, &rule.subject, &rule.phrasing) {
            (Some(phrase), None, None) => (
                RetiredKey::Verbatim(phrase.get_ref().clone()),
                phrase.span(),
            ),
            (None, Some(subject), Some(phrasing)) => (
                RetiredKey::Near {
                    subject: compile(subject)?,
                    phrasing: compile(phrasing)?,
                    within: rule.within.unwrap_or(DEFAULT_WITHIN),
                },
                subject.span(),
            ),
            _ => {
                return Err(source.error(
                    rule.id.span(),
                    "a retired claim needs either `phrase`, or `subject` and `phrasing`",
                    "retired claim",
                ));
            }
        };
        let reach = rule.reach.unwrap_or(DEFAULT_REACH);
        let spec = RetiredSpec {
            key,
            attribution: compile(&rule.attribution)?,
            reach,
        };
        let matcher = RetiredMatcher::new(&spec).map_err(|why| {
            source.error(
                key_span.clone(),
                format!("retired claim `{}` cannot be matched", rule.id.get_ref()),
                why,
            )
        })?;
        let files = rule
            .files
            .get_ref()
            .to_vec()
            .iter()
            .map(|g| PathSpec::from_rule(g, Style::Glob, source, rule.files.span()))
            .collect::<Result<_>>()?;
        Ok(RetiredPlan {
            id: rule.id.get_ref().clone(),
            origin,
            key_span,
            reach,
            matcher,
            files,
            files_span: rule.files.span(),
        })
    }
}
