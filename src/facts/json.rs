//! Fact kind `json`: values read from JSON files by JSON Pointer, or every
//! location where a key appears (for example, how many published schemas carry a
//! `pattern` under `projectId`).

use serde::Deserialize;
use serde_json::Value;
use toml::Spanned;

use super::{Computed, Env, Kind, Reads, Recipe};
use crate::error::Result;
use crate::number::Number;
use crate::rules::load::RuleSource;
use crate::snapshot::pathspec::{PathSpec, Style, select};

/// `json = "GLOB"`: a value by JSON Pointer, or every location of a key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonParams {
    /// A glob of JSON files.
    pub json: Spanned<String>,
    /// A JSON Pointer into the one matching file.
    pub pointer: Option<Spanned<String>>,
    /// A member key: every location where it appears is counted.
    pub keyword: Option<Spanned<String>>,
    /// With `keyword`: only locations whose pointer has this segment.
    pub within: Option<Spanned<String>>,
}

#[derive(Debug)]
enum Select {
    Pointer(Spanned<String>),
    Keyword { key: String, within: Option<String> },
}

#[derive(Debug)]
pub struct JsonFact {
    glob: PathSpec,
    glob_span: std::ops::Range<usize>,
    select: Select,
}

impl Kind for JsonFact {
    const NAME: &'static str = "json";
    type Params = JsonParams;

    fn resolve(params: JsonParams, source: &RuleSource) -> Result<Self> {
        let glob = &params.json;
        let select = match (&params.pointer, &params.keyword) {
            (Some(p), None) => {
                if params.within.is_some() {
                    return Err(source.error(
                        p.span(),
                        "`within` goes with `keyword`, not `pointer`",
                        "pointer",
                    ));
                }
                if !(p.get_ref().is_empty() || p.get_ref().starts_with('/')) {
                    return Err(source.error(
                        p.span(),
                        "a JSON Pointer is empty or starts with `/`",
                        "not a JSON Pointer",
                    ));
                }
                Select::Pointer(p.clone())
            }
            (None, Some(k)) => Select::Keyword {
                key: k.get_ref().clone(),
                within: params.within.as_ref().map(|w| w.get_ref().clone()),
            },
            _ => {
                return Err(source.error(
                    glob.span(),
                    "a json fact needs exactly one of `pointer` or `keyword`",
                    "json fact",
                ));
            }
        };
        Ok(JsonFact {
            glob: PathSpec::from_rule(glob.get_ref(), Style::Glob, source, glob.span())?,
            glob_span: glob.span(),
            select,
        })
    }

    fn reads(&self) -> Reads {
        Reads {
            paths: vec![self.glob.text.clone()],
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let snapshot = env.frame.snapshot.as_ref();
        let paths = select(snapshot.paths(), std::slice::from_ref(&self.glob), &[]);
        let mut documents = Vec::with_capacity(paths.len());
        for path in &paths {
            let text = snapshot
                .read_text(path)
                .map_err(|e| {
                    env.source.error(
                        self.glob_span.clone(),
                        format!("cannot read {path}: {e}"),
                        "this glob",
                    )
                })?
                .unwrap_or_else(|| "".into());
            let doc: Value = serde_json::from_str(&text).map_err(|e| {
                env.source
                    .error(
                        self.glob_span.clone(),
                        format!("{path} is not valid JSON"),
                        "selects it",
                    )
                    .with_help(format!("{path}:{}:{}: {e}", e.line(), e.column()))
            })?;
            documents.push((*path, doc));
        }
        match &self.select {
            Select::Pointer(pointer) => {
                let [(path, doc)] = documents.as_slice() else {
                    return Err(env.source.error(
                        self.glob_span.clone(),
                        format!(
                            "a json fact with `pointer` reads one file; `{}` matches {} in {}",
                            self.glob.text,
                            documents.len(),
                            env.frame.label
                        ),
                        "glob",
                    ));
                };
                let value = doc.pointer(pointer.get_ref()).ok_or_else(|| {
                    env.source.error(
                        pointer.span(),
                        format!("{path} has nothing at {}", pointer.get_ref()),
                        "no such location",
                    )
                })?;
                let number = match value {
                    Value::Number(n) => number_of(n),
                    Value::Array(a) => Some(Number::from_integer(a.len() as i128)),
                    Value::Object(o) => Some(Number::from_integer(o.len() as i128)),
                    Value::String(s) => Some(Number::from_integer(s.chars().count() as i128)),
                    Value::Bool(_) | Value::Null => None,
                };
                let number = number.ok_or_else(|| {
                    env.source.error(
                        pointer.span(),
                        format!(
                            "{path}{} is not a number, array, object or string",
                            pointer.get_ref()
                        ),
                        "not countable",
                    )
                })?;
                Ok(Computed {
                    value: number.into(),
                    listing: None,
                    lines: None,
                    recipe: Recipe::new("json", env, vec![format!("{path}#{}", pointer.get_ref())]),
                })
            }
            Select::Keyword { key, within } => {
                let mut listing = Vec::new();
                for (path, doc) in &documents {
                    keyword_locations(doc, key, &mut |pointer| {
                        if within
                            .as_ref()
                            .is_none_or(|w| pointer.split('/').any(|seg| seg == w))
                        {
                            listing.push(format!("{path}#{pointer}"));
                        }
                    });
                }
                let mut inputs = vec![format!("key {key:?} in {}", self.glob.text)];
                if let Some(w) = within {
                    inputs.push(format!("within {w}"));
                }
                Ok(Computed {
                    value: Number::from_integer(listing.len() as i128).into(),
                    listing: Some(listing),
                    lines: None,
                    recipe: Recipe::new("json", env, inputs),
                })
            }
        }
    }
}

/// An exact rational from a JSON number's decimal text.
fn number_of(n: &serde_json::Number) -> Option<Number> {
    if let Some(i) = n.as_i64() {
        return Some(Number::from_integer(i128::from(i)));
    }
    if let Some(u) = n.as_u64() {
        return Some(Number::from_integer(i128::from(u)));
    }
    let text = n.to_string();
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m.to_owned(), e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    let digits: i128 = format!("{int}{frac}").parse().ok()?;
    let scale = i32::try_from(frac.len()).ok()? - exponent;
    let ten = |p: u32| 10i128.checked_pow(p);
    Some(if scale >= 0 {
        Number::new(digits, ten(scale.unsigned_abs())?)
    } else {
        Number::from_integer(digits.checked_mul(ten(scale.unsigned_abs())?)?)
    })
}

/// Calls `found` with the JSON Pointer of every object member named `key`,
/// in document order. Walks with an explicit stack: a deep document cannot
/// overflow ours.
fn keyword_locations(root: &Value, key: &str, found: &mut dyn FnMut(&str)) {
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), root)];
    let mut out = Vec::new();
    while let Some((pointer, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (k, v) in map.iter().rev() {
                    let child = format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1"));
                    if k == key {
                        out.push(child.clone());
                    }
                    stack.push((child, v));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate().rev() {
                    stack.push((format!("{pointer}/{i}"), v));
                }
            }
            _ => {}
        }
    }
    out.sort();
    for pointer in &out {
        found(pointer);
    }
}
