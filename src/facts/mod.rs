//! Stage 2 of the pipeline: facts — named values recomputed from a snapshot at the
//! frame their rule names. One file per fact kind, each implementing [`Kind`]:
//! its typed parameters, their resolution, the paths it reads, its computation.
//! The `fact_kinds!` line list is the registry, so adding a kind is one new file
//! plus one line there; the schema tests and the book's generated tables find the rest.

pub mod constant;
pub mod count;
pub mod entries;
pub mod expr;
pub mod files;
pub mod grep;
pub mod json;
pub mod validate;

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::constants::ConstantDecl;
use crate::error::{Error, Result};
use crate::frames::Frame;
use crate::number::Number;
use crate::source::RuleSource;

/// What every fact kind is. A kind owns its parameters as a rule file writes
/// them (a serde struct with `deny_unknown_fields`, the kind key included), how
/// they compile, what it reads from a snapshot, and how it computes.
pub trait Kind: Sized + std::fmt::Debug {
    /// The kind key of a `[[fact]]` (`files`, `grep`, ...).
    const NAME: &'static str;
    /// The parameters as deserialised from the rule file.
    type Params: serde::de::DeserializeOwned + std::fmt::Debug;
    /// Compiles the parameters: every regex, glob, path spec and expression,
    /// every error located in the rule file.
    fn resolve(params: Self::Params, source: &RuleSource) -> Result<Self>;
    /// What the fact reads from a snapshot (and which other facts it needs).
    fn reads(&self) -> Reads;
    fn compute(&self, env: &Env<'_>) -> Result<Computed>;
}

/// The inputs of a fact: the paths, constants and other facts its value depends
/// on. A value whose inputs did not change between two commits did not change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reads {
    /// Path specs (globs or git path specs) of the files it lists or reads;
    /// `**` is the whole tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Whether the files named outright in `paths` are read as text (a kind
    /// that reads a file rather than one that lists what a spec selects): one
    /// that is binary at the frame counts as missing, like one that is absent.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub as_text: bool,
    /// Path specs excluded from `paths`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Whether it reads only which files `paths` selects, never their
    /// contents (a `files` count): an edit that adds, removes or renames
    /// nothing leaves its value as it was.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub names_only: bool,
    /// Constants it evaluates, by the name the rule uses (their files come from
    /// `[constants]`, the rule's `file`, or a search of the tree).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<String>,
    /// Other facts it reads (`{id}` in an expression).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<String>,
}

/// The registry: one line per fact kind. It declares [`FactKind`] (the resolved
/// kinds), the kind names in schema order, and every dispatch over them, so a new
/// kind is one new file plus one line here.
macro_rules! fact_kinds {
    ($($variant:ident($module:ident::$ty:ident)),+ $(,)?) => {
        /// Every fact kind recount knows, resolved (compiled) from its rule.
        #[derive(Debug)]
        pub enum FactKind {
            $($variant($module::$ty)),+
        }

        impl FactKind {
            /// The kind keys, in the order the schema lists them.
            pub const NAMES: &'static [&'static str] = &[$(<$module::$ty as Kind>::NAME),+];

            pub fn name(&self) -> &'static str {
                match self {
                    $(FactKind::$variant(_) => <$module::$ty as Kind>::NAME),+
                }
            }

            pub fn reads(&self) -> Reads {
                match self {
                    $(FactKind::$variant(k) => k.reads()),+
                }
            }

            pub fn compute(&self, env: &Env<'_>) -> Result<Computed> {
                match self {
                    $(FactKind::$variant(k) => k.compute(env)),+
                }
            }

            /// Compiles deserialised parameters into the kind.
            pub fn resolve(params: FactParams, source: &RuleSource) -> Result<Self> {
                match params {
                    $(FactParams::$variant(p) => {
                        <$module::$ty as Kind>::resolve(p, source).map(FactKind::$variant)
                    })+
                }
            }
        }

        /// A fact's parameters as the rule file wrote them, typed by its kind
        /// and not yet compiled.
        #[derive(Debug)]
        pub enum FactParams {
            $($variant(<$module::$ty as Kind>::Params)),+
        }

        impl FactParams {
            /// Deserialises the parameters of the kind called `name` from
            /// `table` (the kind key and every other parameter of the
            /// `[[fact]]`); `None` when no kind has that name.
            pub fn deserialize(
                name: &str,
                table: toml::de::ValueDeserializer<'_>,
                source: &RuleSource,
            ) -> Option<Result<Self>> {
                $(
                    if name == <$module::$ty as Kind>::NAME {
                        return Some(
                            params_of::<$module::$ty>(table, source).map(FactParams::$variant),
                        );
                    }
                )+
                None
            }
        }
    };
}

fact_kinds! {
    Files(files::FilesFact),
    Grep(grep::GrepFact),
    Count(count::CountFact),
    Constant(constant::ConstantFact),
    Expr(expr::ExprFact),
    Entries(entries::EntriesFact),
    Json(json::JsonFact),
    Validate(validate::ValidateFact),
}

/// Deserialises one kind's parameters; a key the kind does not take is
/// refused by its struct, located at the key.
fn params_of<K: Kind>(
    table: toml::de::ValueDeserializer<'_>,
    source: &RuleSource,
) -> Result<K::Params> {
    K::Params::deserialize(table).map_err(|e| {
        let message = e.message().trim();
        let label = if message.starts_with("unknown field") {
            "not a parameter of this kind"
        } else {
            "this fact"
        };
        source.error(
            e.span().unwrap_or(0..0),
            format!("invalid `{}` fact: {message}", K::NAME),
            label,
        )
    })
}

/// What a fact kind may read while it computes.
pub struct Env<'a> {
    pub frame: &'a Frame,
    pub source: &'a RuleSource,
    pub declared: &'a BTreeMap<String, ConstantDecl>,
    /// The value of another fact, by id (already computed, in its own frame).
    pub fact_value: &'a dyn Fn(&str) -> Option<FactValue>,
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
                Some(FactValue::Verdict { .. }) => {
                    Err(format!("fact `{id}` is a verdict, not a number"))
                }
                Some(FactValue::Text(_)) => Err(format!("fact `{id}` is a string, not a number")),
                Some(FactValue::Number(v)) => {
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

/// What a fact kind recomputes: a number, a string, or a schema's verdict on
/// a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FactValue {
    /// A count, a constant, an expression's value.
    Number(Number),
    /// A string a data file holds (`/project/requires-python` = `>=3.10`):
    /// compared exactly, or as versions when it is a version or a specifier.
    Text(std::sync::Arc<str>),
    /// A `validate` fact: whether the schema accepts the document.
    Verdict { accepted: bool },
}

impl FactValue {
    /// The number, for expressions and figures; a verdict is not one.
    pub fn number(&self) -> Option<Number> {
        match self {
            FactValue::Number(n) => Some(*n),
            FactValue::Text(_) | FactValue::Verdict { .. } => None,
        }
    }

    /// The value as reports show it: the number, or `accepted` / `refused`.
    pub fn display(&self) -> String {
        match self {
            FactValue::Number(n) => crate::number::display(n),
            FactValue::Text(text) => format!("\"{text}\""),
            FactValue::Verdict { accepted: true } => "accepted".to_owned(),
            FactValue::Verdict { accepted: false } => "refused".to_owned(),
        }
    }
}

impl From<Number> for FactValue {
    fn from(n: Number) -> Self {
        FactValue::Number(n)
    }
}

/// A fact's recomputed value.
#[derive(Debug, Clone)]
pub struct Computed {
    /// What a claim compares against.
    pub value: FactValue,
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

use crate::pathspec::MAX_PATTERN_BYTES;

/// Refuses a rule file's pattern longer than [`MAX_PATTERN_BYTES`], at the pattern.
pub(crate) fn check_pattern_size(
    pattern: &toml::Spanned<String>,
    source: &RuleSource,
) -> Result<()> {
    let len = pattern.get_ref().len();
    if len <= MAX_PATTERN_BYTES {
        return Ok(());
    }
    Err(source
        .error(
            pattern.span(),
            format!("the pattern is {len} bytes, over the {MAX_PATTERN_BYTES} a pattern may have"),
            "too long",
        )
        .with_help("a claim pattern matches the words around one figure: a line is plenty"))
}

/// Compiles a pattern from a rule file (as a regex, or as a fixed string when
/// `regex` is false); an error points at the pattern in the rule file.
pub(crate) fn compile_regex(
    pattern: &toml::Spanned<String>,
    source: &RuleSource,
    regex: bool,
    ignore_case: bool,
) -> Result<regex::Regex> {
    check_pattern_size(pattern, source)?;
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

/// The lines of a text as git and grep see them: a final newline ends the last
/// line rather than starting an empty one.
pub(crate) fn lines_of(text: &str) -> std::str::Split<'_, char> {
    text.strip_suffix('\n').unwrap_or(text).split('\n')
}
