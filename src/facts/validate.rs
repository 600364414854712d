//! Fact kind `validate`: whether a schema accepts a document, recomputed with
//! recount's own validation core over an offline schema set read from the
//! snapshot. A record's "form X rejects the valid document" is audited like any
//! other figure: the value is 1 for accepted, 0 for refused.

use std::sync::Arc;

use toml::Spanned;

use super::{Computed, Env, Recipe, reject_params};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::rules::model::FactRule;
use crate::validation::{SchemaSet, Verdict, verdict};

#[derive(Debug)]
pub struct ValidateFact {
    schema: Spanned<String>,
    schemas: Spanned<String>,
    document: Spanned<String>,
}

impl ValidateFact {
    pub fn from_rule(
        schema: &Spanned<String>,
        rule: &FactRule,
        source: &RuleSource,
    ) -> Result<Self> {
        reject_params(rule, source, "validate", &["schemas", "document"])?;
        let (Some(schemas), Some(document)) = (rule.schemas.clone(), rule.document.clone()) else {
            return Err(source
                .error(
                    schema.span(),
                    "a validate fact needs `schemas` and `document`",
                    "validate",
                )
                .with_help(
                    "schemas = the folder of the schema set, document = the JSON file to check",
                ));
        };
        Ok(ValidateFact {
            schema: schema.clone(),
            schemas,
            document,
        })
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let snapshot = env.frame.snapshot.as_ref();
        let folder = self.schemas.get_ref();
        let cached = {
            let mut sets =
                env.frame.schema_sets.lock().map_err(|_| {
                    crate::error::Error::plain("a schema-set cache lock was poisoned")
                })?;
            Arc::clone(sets.entry(folder.clone()).or_insert_with(|| {
                Arc::new(SchemaSet::from_source(snapshot, folder).map_err(|e| e.to_string()))
            }))
        };
        let set = cached.as_ref().as_ref().map_err(|e| {
            env.source
                .error(
                    self.schemas.span(),
                    format!(
                        "the schema set {folder} does not load at {}",
                        env.frame.label
                    ),
                    "this schema set",
                )
                .with_help(e.clone())
        })?;
        let path = self.document.get_ref();
        let bytes = snapshot
            .read(path)
            .map_err(|e| {
                env.source.error(
                    self.document.span(),
                    format!("cannot read {path}: {e}"),
                    "this document",
                )
            })?
            .ok_or_else(|| {
                env.source.error(
                    self.document.span(),
                    format!("{path} does not exist at {}", env.frame.label),
                    "no such document",
                )
            })?;
        let outcome = verdict(set, self.schema.get_ref(), &bytes).map_err(|e| {
            env.source
                .error(
                    self.schema.span(),
                    format!("cannot check {path}"),
                    "this schema",
                )
                .with_help(e.to_string())
        })?;
        let (value, said) = match &outcome {
            Verdict::Accepted => (1, "accepted".to_owned()),
            Verdict::Refused(refusal) => (0, refusal.message().to_owned()),
        };
        Ok(Computed {
            value: Number::from_integer(value),
            listing: None,
            lines: None,
            recipe: Recipe::new(
                "validate",
                env,
                vec![
                    format!(
                        "{path} against {} in {}",
                        self.schema.get_ref(),
                        self.schemas.get_ref()
                    ),
                    said,
                ],
            ),
        })
    }
}
