//! Stage 2 of the pipeline: facts — named values recomputed from a snapshot at the
//! frame their rule names. One file per fact kind; [`FactKind`] is the registry, so
//! adding a kind is one new file plus one enum arm and the compiler finds the rest.

pub mod constant;
pub mod count;
pub mod entries;
pub mod expr;
pub mod files;
pub mod grep;
pub mod json;
pub mod pathspec;
pub mod validate;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;

use crate::constants::Constants;
use crate::error::{Error, Result};
use crate::number::Number;
use crate::rules::load::{ConstantDecl, RuleSource};
use crate::rules::model::FactRule;
use crate::snapshot::Snapshot;

/// Every fact kind recount knows. Exhaustive on purpose: each match over it is a
/// place a new kind must be handled.
#[derive(Debug)]
pub enum FactKind {
    Files(files::FilesFact),
    Grep(grep::GrepFact),
    Count(count::CountFact),
    Constant(constant::ConstantFact),
    Expr(expr::ExprFact),
    Entries(entries::EntriesFact),
    Json(json::JsonFact),
    Validate(validate::ValidateFact),
}

/// The kind keys of a rule, in the order the schema lists them.
pub const KIND_NAMES: [&str; 7] = [
    "files", "grep", "count", "constant", "expr", "entries", "json",
];

impl FactKind {
    pub fn name(&self) -> &'static str {
        match self {
            FactKind::Files(_) => "files",
            FactKind::Grep(_) => "grep",
            FactKind::Count(_) => "count",
            FactKind::Constant(_) => "constant",
            FactKind::Expr(_) => "expr",
            FactKind::Entries(_) => "entries",
            FactKind::Json(_) => "json",
            FactKind::Validate(_) => "validate",
        }
    }

    /// Builds the kind from its rule, checking the parameters the schema cannot
    /// (a regex that does not compile, a glob, an expression).
    pub fn from_rule(rule: &FactRule, source: &RuleSource) -> Result<Self> {
        Ok(if let Some(glob) = &rule.files {
            FactKind::Files(files::FilesFact::from_rule(glob, rule, source)?)
        } else if let Some(pattern) = &rule.grep {
            FactKind::Grep(grep::GrepFact::from_rule(pattern, rule, source)?)
        } else if let Some(pattern) = &rule.count {
            FactKind::Count(count::CountFact::from_rule(pattern, rule, source)?)
        } else if let Some(name) = &rule.constant {
            FactKind::Constant(constant::ConstantFact::from_rule(name, rule, source)?)
        } else if let Some(text) = &rule.expr {
            FactKind::Expr(expr::ExprFact::from_rule(text, rule, source)?)
        } else if let Some(name) = &rule.entries {
            FactKind::Entries(entries::EntriesFact::from_rule(name, rule, source)?)
        } else if let Some(glob) = &rule.json {
            FactKind::Json(json::JsonFact::from_rule(glob, rule, source)?)
        } else if let Some(schema) = &rule.validate {
            FactKind::Validate(validate::ValidateFact::from_rule(schema, rule, source)?)
        } else {
            return Err(source
                .error(
                    rule.id.span(),
                    format!("fact `{}` has no kind key", rule.id.get_ref()),
                    "fact",
                )
                .with_help(format!("kind keys: {}", KIND_NAMES.join(", "))));
        })
    }

    /// Other facts this one reads (`{id}` in an expression).
    pub fn fact_references(&self) -> Vec<String> {
        match self {
            FactKind::Expr(e) => e.fact_references(),
            FactKind::Files(_)
            | FactKind::Grep(_)
            | FactKind::Count(_)
            | FactKind::Constant(_)
            | FactKind::Entries(_)
            | FactKind::Json(_)
            | FactKind::Validate(_) => Vec::new(),
        }
    }

    pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        match self {
            FactKind::Files(f) => f.compute(env),
            FactKind::Grep(f) => f.compute(env),
            FactKind::Count(f) => f.compute(env),
            FactKind::Constant(f) => f.compute(env),
            FactKind::Expr(f) => f.compute(env),
            FactKind::Entries(f) => f.compute(env),
            FactKind::Json(f) => f.compute(env),
            FactKind::Validate(f) => f.compute(env),
        }
    }
}

/// One frame: a snapshot and the constants read from it.
pub struct Frame {
    /// `working tree`, or the commit's short id.
    pub label: String,
    pub commit: Option<String>,
    pub snapshot: Arc<dyn Snapshot>,
    pub constants: Constants,
    /// Schema sets loaded by `validate` facts, by folder: compiled once per frame
    /// however many facts check documents against them.
    pub schema_sets: std::sync::Mutex<
        BTreeMap<String, Arc<std::result::Result<crate::validation::SchemaSet, String>>>,
    >,
}

impl Frame {
    pub fn new(snapshot: Arc<dyn Snapshot>) -> Self {
        Frame {
            schema_sets: std::sync::Mutex::default(),
            label: snapshot.label(),
            commit: snapshot.commit(),
            constants: Constants::new(Arc::clone(&snapshot)),
            snapshot,
        }
    }
}

/// What a fact kind may read while it computes.
pub struct Env<'a> {
    pub frame: &'a Frame,
    pub source: &'a RuleSource,
    pub declared: &'a BTreeMap<String, ConstantDecl>,
    /// The value of another fact, by id (already computed, in its own frame).
    pub fact_value: &'a dyn Fn(&str) -> Option<Number>,
}

impl Env<'_> {
    /// Evaluates an expression in this frame: constants by name, facts by `{id}`.
    pub fn eval(
        &self,
        expr: &crate::constants::expr::Expr,
        span: Range<usize>,
        inputs: &mut Vec<String>,
    ) -> Result<Number> {
        use crate::constants::expr::Reference;
        let mut failure: Option<Error> = None;
        let value = expr.eval(&mut |reference| match reference {
            Reference::Fact(id) => match (self.fact_value)(id) {
                Some(v) => {
                    inputs.push(format!("{{{id}}} = {}", crate::number::display(&v)));
                    Ok(v)
                }
                None => Err(format!("no fact `{id}` has a value")),
            },
            Reference::Constant(name) => match constant::resolve(self, name, None, span.clone()) {
                Ok(c) => {
                    inputs.push(format!(
                        "{name} = {} ({}:{})",
                        crate::number::display(&c.value),
                        c.file,
                        c.line
                    ));
                    Ok(c.value)
                }
                Err(e) => {
                    let message = e.to_string();
                    failure = Some(e);
                    Err(message)
                }
            },
        });
        match value {
            Ok(v) => Ok(v),
            Err(e) => Err(failure.unwrap_or_else(|| {
                self.source
                    .error(span, format!("cannot evaluate: {e}"), "this expression")
            })),
        }
    }
}

/// A fact's recomputed value.
#[derive(Debug, Clone)]
pub struct Computed {
    /// The number a claim compares against: a count, a constant, a value.
    pub value: Number,
    /// The listing behind a count (`files`, `grep`, `json` keyword locations).
    pub listing: Option<Vec<String>>,
    /// The line span (`constant`, `entries`).
    pub lines: Option<(usize, usize)>,
    /// How it was computed, for people: kind, inputs.
    pub recipe: Recipe,
}

/// How a value was computed: the fact kind and what it read.
#[derive(Debug, Clone, Serialize)]
pub struct Recipe {
    pub kind: &'static str,
    pub frame: String,
    pub inputs: Vec<String>,
}

impl Recipe {
    pub fn new(kind: &'static str, env: &Env<'_>, inputs: Vec<String>) -> Self {
        Recipe {
            kind,
            frame: env.frame.label.clone(),
            inputs,
        }
    }

    /// One line: `grep "x" at be977ea7 over packages, schemas`.
    pub fn summary(&self) -> String {
        format!(
            "{} at {}: {}",
            self.kind,
            self.frame,
            self.inputs.join("; ")
        )
    }
}

/// Compiles a rule's pattern (`grep`, `count`): a fixed string unless `regex = true`.
pub(crate) fn compile_pattern(
    pattern: &toml::Spanned<String>,
    rule: &FactRule,
    source: &RuleSource,
) -> Result<regex::Regex> {
    compile_regex(pattern, source, rule.regex, rule.ignore_case)
}

/// Compiles a pattern from a rule file (as a regex, or as a fixed string when
/// `regex` is false); an error points at the pattern in the rule file.
pub(crate) fn compile_regex(
    pattern: &toml::Spanned<String>,
    source: &RuleSource,
    regex: bool,
    ignore_case: bool,
) -> Result<regex::Regex> {
    let text = if regex {
        pattern.get_ref().clone()
    } else {
        regex::escape(pattern.get_ref())
    };
    regex::RegexBuilder::new(&text)
        .case_insensitive(ignore_case)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| {
            source
                .error(
                    pattern.span(),
                    "invalid regular expression",
                    "does not compile",
                )
                .with_help(regex_error_text(&e))
        })
}

/// The last line of a regex error (the part that says what is wrong).
pub(crate) fn regex_error_text(e: &regex::Error) -> String {
    last_line(&e.to_string())
}

/// The last non-empty line of a multi-line error message, without `error: `.
pub(crate) fn last_line(message: &str) -> String {
    message
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .trim_start_matches("error: ")
        .to_owned()
}

/// A parameter that this kind does not take is a mistake worth stopping for.
pub(crate) fn reject_params(
    rule: &FactRule,
    source: &RuleSource,
    kind: &str,
    allowed: &[&str],
) -> Result<()> {
    let given: [(&str, Option<Range<usize>>); 10] = [
        ("file", rule.file.as_ref().map(|s| s.span())),
        ("paths", rule.paths.first().map(|s| s.span())),
        ("exclude", rule.exclude.first().map(|s| s.span())),
        ("regex", rule.regex.then(|| rule.id.span())),
        ("ignore_case", rule.ignore_case.then(|| rule.id.span())),
        ("pointer", rule.pointer.as_ref().map(|s| s.span())),
        ("keyword", rule.keyword.as_ref().map(|s| s.span())),
        ("within", rule.within.as_ref().map(|s| s.span())),
        ("schemas", rule.schemas.as_ref().map(|s| s.span())),
        ("document", rule.document.as_ref().map(|s| s.span())),
    ];
    for (name, span) in given {
        if let Some(span) = span
            && !allowed.contains(&name)
        {
            return Err(source.error(
                span,
                format!("`{name}` does not apply to a {kind} fact"),
                "not a parameter of this kind",
            ));
        }
    }
    Ok(())
}

/// The lines of a text as git and grep see them: a final newline ends the last
/// line rather than starting an empty one.
pub(crate) fn lines_of(text: &str) -> std::str::Split<'_, char> {
    text.strip_suffix('\n').unwrap_or(text).split('\n')
}
