//! The shared validation core: a tool's input checked against its published JSON
//! Schema before any handler runs, fail-closed, with bounded refusals that never echo
//! the caller. It sits beside the audit pipeline — recount validates its own rule files
//! and reports through it, and the `validate` fact kind asks it for verdicts — and it is
//! usable on its own by any MCP server.
//!
//! A call goes through these steps, each refusing before the next one runs:
//! 0. [`input`]: the body is read through a bounded reader, at most
//!    [`MAX_BODY_BYTES`] plus one byte, and refused past the cap;
//! 1. [`tools`]: the tool name resolves to a loaded input schema, or the call is refused;
//! 2. [`bounds`]: size, nesting, node count and rendered-width charge, over the raw
//!    bytes;
//! 3. [`keys`]: parsing, once the bounds hold, into a [`Document`] that borrows the
//!    caller's strings; a key twice in one object is refused (a parse ambiguity:
//!    parsers disagree on which value wins);
//! 4. the schema, compiled from a [`SchemaSet`] whose `$ref`s stay inside the set,
//!    read straight off the [`Document`].
//!
//! A refusal is a [`Refusal`]: data plus a message from fixed templates, at most
//! [`REFUSAL_CEILING`] characters, built from the validator's structured error
//! (instance path, keyword, operands) and never from its message, which embeds the
//! failing value.

pub mod bounds;
pub mod document;
pub mod input;
pub mod keys;
pub mod refusal;
pub mod schema_set;
pub mod tools;

#[cfg(test)]
mod tests;

pub use bounds::{
    BoundsError, COMPOSED_CEILING, Limits, MAX_NESTING, MAX_NODES, MAX_RENDERED_CHARS, Measure,
    PUNCTUATION_PER_NODE,
};
pub use document::{BorrowedJson, Document};
pub use input::{Body, MAX_BODY_BYTES, read_bounded};
pub use keys::{KeysError, check_unique};
pub use refusal::{
    FRAGMENT_CAP, Fragment, LIMIT_CAP, REFUSAL_CEILING, Refusal, RefusalError, RefusalKind,
    RefusalParts, SEGMENT_CAP, Subject,
};
pub use schema_set::{LoadError, LoadProblem, LoadedSchema, SchemaSet, SchemaSource};
pub use tools::{NamingConvention, PopulationReport, ToolConfigError, ToolResolver};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

/// The outcome of checking one document.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "verdict", content = "refusal", rename_all = "snake_case")]
pub enum Verdict {
    Accepted,
    Refused(Refusal),
}

impl Verdict {
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted)
    }

    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            Verdict::Accepted => None,
            Verdict::Refused(refusal) => Some(refusal),
        }
    }
}

/// Why a verdict could not be given at all (as opposed to a refusal, which is a verdict).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    #[error("the schema set holds no schema with `$id` or file name {name:?}")]
    UnknownSchema { name: String },
    #[error(transparent)]
    Refusal(#[from] RefusalError),
}

/// Check `arguments` (raw JSON bytes) for a call to `tool`. Every outcome is a verdict:
/// an unknown tool is refused before its arguments are read.
pub fn check_call(
    set: &SchemaSet,
    resolver: &ToolResolver,
    tool: &str,
    arguments: &[u8],
) -> Result<Verdict, RefusalError> {
    // The subject is escaped and capped only when a refusal names it.
    let subject = || Subject::tool(tool);
    let Some(schema) = resolver.resolve(set, tool) else {
        return refused(RefusalParts {
            kind: RefusalKind::UnknownTool,
            subject: subject(),
            path: None,
            keyword: "publishedSchema",
            limit: None,
            offset: None,
            unexpected: None,
        });
    };
    check_document(schema, subject, arguments)
}

/// Check `document` against the schema of the set whose `$id` (or file name) is
/// `schema`: the entry point of the `validate` fact kind.
pub fn verdict(set: &SchemaSet, schema: &str, document: &[u8]) -> Result<Verdict, ValidationError> {
    let loaded = set
        .get(schema)
        .ok_or_else(|| ValidationError::UnknownSchema {
            name: schema.to_string(),
        })?;
    Ok(check_document(
        loaded,
        || Subject::schema(loaded.file()),
        document,
    )?)
}

/// Size and bounds, then parse with unique keys, then the schema. `subject` names
/// what is checked in a refusal; it is called only when there is one.
pub fn check_document(
    schema: &LoadedSchema,
    subject: impl Fn() -> Subject,
    document: &[u8],
) -> Result<Verdict, RefusalError> {
    if document.len() > MAX_BODY_BYTES {
        return refused(body_refusal(subject(), MAX_BODY_BYTES));
    }
    if let Err(error) = bounds::check(document) {
        return refused(bounds_refusal(subject(), error));
    }
    let instance = match keys::parse_unique(document) {
        Ok(instance) => instance,
        Err(KeysError::Duplicate { path, offset }) => {
            return refused(RefusalParts {
                kind: RefusalKind::DuplicateKey,
                subject: subject(),
                path: Some(refusal::key_path(path.iter().map(String::as_str))),
                keyword: "uniqueKeys",
                limit: None,
                offset: Some(offset),
                unexpected: None,
            });
        }
        // The scanner accepted the shape, so this is a detail it leaves to the
        // parser (invalid UTF-8, a lone surrogate, a number out of range).
        Err(KeysError::Malformed { offset }) => return refused(malformed(subject(), offset)),
    };
    // `is_valid` stops at the first failure and builds no error: an accepted
    // call, the common one, pays for nothing else.
    if schema.validator().is_valid(&instance) {
        return Ok(Verdict::Accepted);
    }
    match schema.validator().validate(&instance) {
        // `is_valid` said no and `validate` found nothing: the validator
        // disagrees with itself, and the call is refused rather than let through.
        Ok(()) => refused(RefusalParts {
            kind: RefusalKind::Schema,
            subject: subject(),
            path: Some(refusal::key_path(std::iter::empty())),
            keyword: "custom",
            limit: None,
            offset: None,
            unexpected: None,
        }),
        Err(error) => {
            let subject = subject();
            let first = Refusal::new(schema_refusal(subject.clone(), &error))?;
            // Only a refused document pays for the rest: each violation the
            // validator finds, rendered the same bounded way, up to the cap
            // (counted, not rendered, past it).
            let mut others = Vec::new();
            let mut past = 0u64;
            for error in schema.validator().iter_errors(&instance) {
                if others.len() <= refusal::MAX_OTHER_VIOLATIONS {
                    others.push(Refusal::new(schema_refusal(subject.clone(), &error))?);
                } else {
                    past += 1;
                    if past > MAX_COUNTED_VIOLATIONS {
                        break;
                    }
                }
            }
            let mut refusal = first.with_others(others);
            if past > 0 {
                refusal = refusal.with_more(past);
            }
            Ok(Verdict::Refused(refusal))
        }
    }
}

/// Most violations past the listed ones that are counted: a document with a
/// million bad items is not walked to the end to say how many.
const MAX_COUNTED_VIOLATIONS: u64 = 10_000;

fn malformed(subject: Subject, offset: u64) -> RefusalParts {
    RefusalParts {
        kind: RefusalKind::Malformed,
        subject,
        path: None,
        keyword: "wellFormed",
        limit: None,
        offset: Some(offset),
        unexpected: None,
    }
}

fn refused(parts: RefusalParts) -> Result<Verdict, RefusalError> {
    Refusal::new(parts).map(Verdict::Refused)
}

/// Byte offset of a 1-based (line, column) position reported by serde_json.
fn byte_offset(document: &[u8], line: usize, column: usize) -> u64 {
    let mut remaining_lines = line.saturating_sub(1);
    let mut start = 0usize;
    if remaining_lines > 0 {
        for (index, byte) in document.iter().enumerate() {
            if *byte == b'\n' {
                remaining_lines -= 1;
                if remaining_lines == 0 {
                    start = index + 1;
                    break;
                }
            }
        }
    }
    (start + column.saturating_sub(1)).min(document.len()) as u64
}

/// A body over the cap: refused by its size alone, none of it parsed. The offset
/// is the first byte past the cap.
pub fn body_refusal(subject: Subject, cap: usize) -> RefusalParts {
    RefusalParts {
        kind: RefusalKind::BodySize,
        subject,
        path: None,
        keyword: "maxBodyBytes",
        limit: Some(Fragment::new(&cap.to_string(), LIMIT_CAP)),
        offset: Some(cap as u64),
        unexpected: None,
    }
}

fn bounds_refusal(subject: Subject, error: BoundsError) -> RefusalParts {
    let (kind, keyword, limit, offset) = match error {
        BoundsError::Nesting { limit, offset } => (
            RefusalKind::Nesting,
            "maxNesting",
            Some(u64::from(limit)),
            offset,
        ),
        BoundsError::Nodes { limit, offset } => {
            (RefusalKind::Nodes, "maxNodes", Some(limit), offset)
        }
        BoundsError::RenderedWidth { limit, offset } => (
            RefusalKind::RenderedWidth,
            "maxRenderedChars",
            Some(limit),
            offset,
        ),
        BoundsError::NumberLength { limit, offset } => (
            RefusalKind::NumberLength,
            "maxNumberChars",
            Some(limit),
            offset,
        ),
        BoundsError::Inexact { offset } => (RefusalKind::Inexact, "exactNumbers", None, offset),
        BoundsError::Malformed { offset } => (RefusalKind::Malformed, "wellFormed", None, offset),
        // The published limits never exceed the stack; a scan that says otherwise is
        // reported as a document this core cannot measure.
        BoundsError::NestingCapacity { requested } => (
            RefusalKind::Nesting,
            "maxNesting",
            Some(u64::from(requested)),
            0,
        ),
    };
    RefusalParts {
        kind,
        subject,
        path: None,
        keyword,
        limit: limit.map(|limit| Fragment::new(&limit.to_string(), LIMIT_CAP)),
        offset: Some(offset),
        unexpected: None,
    }
}

/// The instance path of a validator error as unescaped segments.
fn path_segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// A refusal from the error's structured parts: its instance path, its keyword and the
/// keyword's operands from the schema. The error's `Display` is never used.
fn schema_refusal(subject: Subject, error: &jsonschema::ValidationError<'_>) -> RefusalParts {
    let mut segments = path_segments(error.instance_path().as_str());
    let kind = error.kind();
    let keyword = refusal::known_keyword(kind.keyword());
    let mut unexpected = None;
    let limit: Option<String> = match kind {
        ValidationErrorKind::AdditionalProperties { unexpected: keys }
        | ValidationErrorKind::UnevaluatedProperties { unexpected: keys } => {
            // The keys are the caller's; one of them (capped) names the path.
            if let Some(first) = keys.iter().min() {
                segments.push(first.clone());
            }
            unexpected = Some(keys.len() as u64);
            None
        }
        ValidationErrorKind::Required { property } => {
            if let Value::String(name) = property {
                segments.push(name.clone());
            }
            None
        }
        ValidationErrorKind::MaxItems { limit }
        | ValidationErrorKind::MaxLength { limit }
        | ValidationErrorKind::MaxProperties { limit }
        | ValidationErrorKind::MinItems { limit }
        | ValidationErrorKind::MinLength { limit }
        | ValidationErrorKind::MinProperties { limit } => Some(limit.to_string()),
        ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit } => Some(limit.to_string()),
        ValidationErrorKind::AdditionalItems { limit } => Some(limit.to_string()),
        ValidationErrorKind::MultipleOf { multiple_of } => Some(multiple_of.to_string()),
        ValidationErrorKind::Pattern { pattern } => Some(pattern.clone()),
        // The string was not decided: say the limit, never the pattern's
        // verdict (the error's text would name the engine, not the schema).
        // Within `LIMIT_CAP`: "(backtrack limit 10000 hit)".
        ValidationErrorKind::BacktrackLimitExceeded { .. } => Some(format!(
            "(backtrack limit {} hit)",
            schema_set::BACKTRACK_LIMIT
        )),
        ValidationErrorKind::Format { format } => Some(format.clone()),
        ValidationErrorKind::Type { kind } => Some(match kind {
            TypeKind::Single(single) => single.to_string(),
            TypeKind::Multiple(many) => many
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join("|"),
        }),
        ValidationErrorKind::ContentEncoding { content_encoding } => Some(content_encoding.clone()),
        ValidationErrorKind::ContentMediaType { content_media_type } => {
            Some(content_media_type.clone())
        }
        _ => None,
    };
    RefusalParts {
        kind: RefusalKind::Schema,
        subject,
        path: Some(refusal::key_path(segments.iter().map(String::as_str))),
        keyword,
        limit: limit.map(|limit| Fragment::new(&limit, LIMIT_CAP)),
        offset: None,
        unexpected,
    }
}
