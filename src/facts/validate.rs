//! Fact kind `validate`: whether a schema accepts a document, recomputed with
//! recount's own validation core over an offline schema set read from the
//! snapshot. A record's "form X rejects the valid document" is audited like any
//! other figure: the value is a verdict, accepted or refused.

use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::{Computed, Env, FactValue, Kind, Reads, Recipe};
use crate::error::Result;
use crate::source::RuleSource;
use crate::validation::{SchemaSet, Verdict, verdict};

/// `validate = "SCHEMA"`: whether a schema accepts a document.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateParams {
    /// The schema, by file name or `$id`, within the set.
    pub validate: Spanned<String>,
    /// The folder of the offline schema set.
    pub schemas: Spanned<String>,
    /// The JSON document to check.
    pub document: Spanned<String>,
}

#[derive(Debug)]
pub struct ValidateFact {
    schema: Spanned<String>,
    schemas: Spanned<String>,
    document: Spanned<String>,
}

impl Kind for ValidateFact {
    const NAME: &'static str = "validate";
    type Params = ValidateParams;

    fn resolve(params: ValidateParams, _source: &RuleSource) -> Result<Self> {
        Ok(ValidateFact {
            schema: params.validate,
            schemas: params.schemas,
            document: params.document,
        })
    }

    fn reads(&self) -> Reads {
        Reads {
            paths: vec![
                self.schemas.get_ref().clone(),
                self.document.get_ref().clone(),
            ],
            as_text: true,
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
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
        let bytes = crate::snapshot::read_within(snapshot, path, crate::snapshot::MAX_PARSED_BYTES)
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
        let (accepted, said) = match &outcome {
            Verdict::Accepted => (true, "accepted".to_owned()),
            Verdict::Refused(refusal) => (false, refusal.message().to_owned()),
        };
        Ok(Computed {
            value: FactValue::Verdict { accepted },
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
