//! The schema-bounds family's configuration: `[[bounds]]` entries as a rule file
//! writes them, and their resolution (globs compiled, pins split into file and
//! pointer).

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use crate::error::Result;
use crate::pathspec::{PathSpec, Style};
use crate::source::RuleSource;

/// `[[bounds]]`: schema bounds and the constants that pin them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundsRule {
    /// Glob of JSON Schemas to scan.
    pub schemas: Spanned<String>,
    /// Also scan the schemas these reference through local `$ref`s.
    #[serde(default)]
    pub follow_refs: bool,
    /// Keywords that are bounds (default: maxLength).
    pub keywords: Option<Vec<Spanned<String>>>,
    /// Each bound and the constant it transcribes.
    #[serde(default)]
    pub pins: Vec<Pin>,
}

/// One pinned bound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pin {
    /// `file#/json/pointer` of the keyword.
    pub bound: Spanned<String>,
    /// The constant the bound must equal.
    pub constant: Spanned<String>,
    /// The source file of the constant (default: the `[constants]` table, or a search).
    pub file: Option<Spanned<String>>,
}

/// A `[[bounds]]` entry, resolved.
#[derive(Debug)]
pub struct BoundsPlan {
    pub origin: usize,
    /// The schemas to scan, and the span of the glob in the rule file.
    pub schemas: PathSpec,
    pub schemas_span: Range<usize>,
    pub follow_refs: bool,
    pub keywords: Vec<String>,
    pub pins: Vec<PinPlan>,
}

/// A pin, resolved.
#[derive(Debug)]
pub struct PinPlan {
    /// Span of the pin's `bound` in the rule file.
    pub span: Range<usize>,
    pub file: String,
    pub pointer: String,
    pub constant: Spanned<String>,
    pub constant_file: Option<String>,
}

impl BoundsPlan {
    pub fn resolve(origin: usize, rule: BoundsRule, source: &RuleSource) -> Result<Self> {
        let schemas = PathSpec::from_rule(
            rule.schemas.get_ref(),
            Style::Glob,
            source,
            rule.schemas.span(),
        )?;
        let keywords = rule.keywords.as_ref().map_or_else(
            || vec!["maxLength".to_owned()],
            |k| k.iter().map(|s| s.get_ref().clone()).collect(),
        );
        let pins = rule
            .pins
            .into_iter()
            .map(|pin| {
                let Some((file, pointer)) = pin.bound.get_ref().split_once('#') else {
                    return Err(source.error(
                        pin.bound.span(),
                        "a pin's bound is file#/json/pointer",
                        "no `#`",
                    ));
                };
                Ok(PinPlan {
                    span: pin.bound.span(),
                    file: file.to_owned(),
                    pointer: pointer.to_owned(),
                    constant: pin.constant,
                    constant_file: pin.file.map(Spanned::into_inner),
                })
            })
            .collect::<Result<_>>()?;
        Ok(BoundsPlan {
            origin,
            schemas,
            schemas_span: rule.schemas.span(),
            follow_refs: rule.follow_refs,
            keywords,
            pins,
        })
    }
}
