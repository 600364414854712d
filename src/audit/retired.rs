//! Finds every occurrence of each retired claim in the files its register entry
//! names, with the attribution nearest to it, for the `retired-claim` check.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use super::cites::read_record;
use crate::claims::retired::{Occurrence, RetiredKey, RetiredMatcher, RetiredSpec};
use crate::error::Result;
use crate::facts::Frame;
use crate::facts::pathspec::{PathSpec, Style, select};
use crate::records::RecordCache;
use crate::rules::load::{RuleSet, RuleSource};

/// Characters allowed between a subject and its phrasing when the rule says none.
pub const DEFAULT_WITHIN: usize = 80;
/// Characters allowed between an occurrence and its attribution when the rule says none.
pub const DEFAULT_REACH: usize = 200;

/// One occurrence of a retired claim.
#[derive(Debug, Clone)]
pub struct RetiredHit {
    pub id: String,
    pub origin: usize,
    /// Span of the rule's key (`phrase` or `subject`) in its rule file.
    pub rule_span: Range<usize>,
    pub reach: usize,
    pub path: String,
    pub occurrence: Occurrence,
}

fn compile(source: &RuleSource, pattern: &toml::Spanned<String>) -> Result<regex::Regex> {
    crate::facts::compile_regex(pattern, source, true, false)
}

pub(super) fn find_all(
    rules: &RuleSet,
    frame: &Frame,
    cache: &RecordCache,
    files: &mut BTreeMap<String, Arc<str>>,
    notes: &mut Vec<String>,
) -> Result<Vec<RetiredHit>> {
    let mut hits = Vec::new();
    for (origin, rule) in &rules.retired {
        let source = &rules.sources[*origin];
        let (key, key_span) = match (&rule.phrase, &rule.subject, &rule.phrasing) {
            (Some(phrase), None, None) => (
                RetiredKey::Verbatim(phrase.get_ref().clone()),
                phrase.span(),
            ),
            (None, Some(subject), Some(phrasing)) => (
                RetiredKey::Near {
                    subject: compile(source, subject)?,
                    phrasing: compile(source, phrasing)?,
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
            attribution: compile(source, &rule.attribution)?,
            reach,
        };
        let matcher = RetiredMatcher::new(&spec).map_err(|why| {
            source.error(
                key_span.clone(),
                format!("retired claim `{}` cannot be matched", rule.id.get_ref()),
                why,
            )
        })?;
        let globs: Vec<PathSpec> = rule
            .files
            .get_ref()
            .to_vec()
            .iter()
            .map(|g| PathSpec::from_rule(g, Style::Glob, source, rule.files.span()))
            .collect::<Result<_>>()?;
        let paths: Vec<String> = select(frame.snapshot.paths(), &globs, &[])
            .into_iter()
            .map(str::to_owned)
            .collect();
        for path in paths {
            let Some(record) = cache.get_or_parse(&path, || read_record(frame, &path, notes))?
            else {
                continue;
            };
            files
                .entry(path.clone())
                .or_insert_with(|| Arc::clone(&record.text));
            for occurrence in matcher.find(&record.prose) {
                hits.push(RetiredHit {
                    id: rule.id.get_ref().clone(),
                    origin: *origin,
                    rule_span: key_span.clone(),
                    reach,
                    path: path.clone(),
                    occurrence,
                });
            }
        }
    }
    Ok(hits)
}
