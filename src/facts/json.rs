//! Fact kind `json`: values read from data files by JSON Pointer, or every
//! location where a key appears (for example, how many published schemas carry a
//! `pattern` under `projectId`). JSON, TOML (`.toml`) and YAML (`.yaml`, `.yml`)
//! files are read into the same tree, so `/project/dependencies` of a
//! `pyproject.toml` is addressed like any JSON document.

use serde::Deserialize;
use serde_json::Value;
use toml::Spanned;

use super::{Computed, Env, FactValue, Kind, Reads, Recipe};
use crate::error::Result;
use crate::number::Number;
use crate::pathspec::{PathSpec, Style, select};
use crate::source::RuleSource;

/// `json = "GLOB"`: a value by JSON Pointer, or every location of a key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonParams {
    /// A glob of data files: JSON, or TOML and YAML by extension.
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
            as_text: true,
            ..Reads::default()
        }
    }

    fn compute(&self, env: &Env<'_>) -> Result<Computed> {
        let snapshot = env.frame.snapshot.as_ref();
        let paths = select(snapshot.paths(), std::slice::from_ref(&self.glob), &[]);
        let mut documents = Vec::with_capacity(paths.len());
        for path in &paths {
            let text = snapshot
                .read_text_to_parse(path)
                .map_err(|e| {
                    env.source.error(
                        self.glob_span.clone(),
                        format!("cannot read {path}: {e}"),
                        "this glob",
                    )
                })?
                .unwrap_or_else(|| "".into());
            let doc = parse_data(path, &text).map_err(|(format, why)| {
                env.source
                    .error(
                        self.glob_span.clone(),
                        format!("{path} is not valid {format}"),
                        "selects it",
                    )
                    .with_help(why)
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
                // A string is the string: compared as written (or as a
                // version), never counted.
                let number = match value {
                    Value::Number(n) => number_of(n).map(FactValue::Number),
                    Value::Array(a) => Some(Number::from_integer(a.len() as i128).into()),
                    Value::Object(o) => Some(Number::from_integer(o.len() as i128).into()),
                    Value::String(s) => Some(FactValue::Text(s.as_str().into())),
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
                    value: number,
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

/// The format a data file is read as, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Toml,
    Yaml,
}

impl Format {
    fn of_path(path: &str) -> Format {
        let ext = path
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "toml" => Format::Toml,
            "yaml" | "yml" => Format::Yaml,
            _ => Format::Json,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Toml => "TOML",
            Format::Yaml => "YAML",
        }
    }
}

/// A data file's tree: JSON as written; TOML and YAML mapped onto JSON's
/// values (TOML dates and YAML scalars that are not numbers, booleans or null
/// become strings; YAML keys that are not strings are written as text). On
/// failure, the format's name and why, located in the file.
pub(crate) fn parse_data(
    path: &str,
    text: &str,
) -> std::result::Result<Value, (&'static str, String)> {
    parse_with(path, text, false)
}

/// A program's configuration file (`mkdocs.yml`) as that program loads it:
/// a key given twice in a mapping keeps its last value (PyYAML's reading)
/// where [`parse_data`] refuses the file as a fact's input.
pub(crate) fn parse_config(
    path: &str,
    text: &str,
) -> std::result::Result<Value, (&'static str, String)> {
    parse_with(path, text, true)
}

fn parse_with(
    path: &str,
    text: &str,
    duplicate_keys: bool,
) -> std::result::Result<Value, (&'static str, String)> {
    let format = Format::of_path(path);
    let fail = |why: String| (format.name(), why);
    match format {
        Format::Json => serde_json::from_str(text)
            .map_err(|e| fail(format!("{path}:{}:{}: {e}", e.line(), e.column()))),
        Format::Toml => {
            let table: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| fail(format!("{path}: {}", e.message())))?;
            Ok(from_toml(toml::Value::Table(table)))
        }
        Format::Yaml => {
            let located = |e: &saphyr::ScanError| {
                fail(format!(
                    "{path}:{}:{}: {}",
                    e.marker().line(),
                    e.marker().col() + 1,
                    e.info()
                ))
            };
            let mut loader = saphyr::YamlLoader::<saphyr::MarkedYaml>::default();
            loader.allow_duplicate_keys(duplicate_keys);
            saphyr_parser::Parser::new_from_str(text)
                .load(&mut loader, true)
                .map_err(|e| located(&e))?;
            if let Some(e) = loader.error() {
                return Err(located(e));
            }
            let mut docs = loader.into_documents();
            match docs.len() {
                0 => Ok(Value::Null),
                1 => from_yaml(docs.remove(0), text).map_err(|why| fail(format!("{path}:{why}"))),
                n => Err(fail(format!(
                    "{path} holds {n} YAML documents; a json fact reads a file that holds one"
                ))),
            }
        }
    }
}

/// A TOML value as a JSON value.
fn from_toml(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(from_toml).collect()),
        toml::Value::Table(table) => {
            Value::Object(table.into_iter().map(|(k, v)| (k, from_toml(v))).collect())
        }
    }
}

/// A YAML node as a JSON value. Walks with an explicit stack, like the rest of
/// this file: a deeply nested document cannot overflow ours. On failure, why,
/// after the `line:column:` it happened at.
fn from_yaml(root: saphyr::MarkedYaml<'_>, text: &str) -> std::result::Result<Value, String> {
    use saphyr::{MarkedYaml, Scalar, YamlData};

    /// A node still to convert, or a collection whose members are converted.
    enum Step<'a> {
        Node(MarkedYaml<'a>),
        Array(usize),
        Object(Vec<String>),
    }

    fn scalar(s: Scalar<'_>) -> Value {
        match s {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(b),
            Scalar::Integer(i) => Value::from(i),
            Scalar::FloatingPoint(f) => {
                serde_json::Number::from_f64(f.into_inner()).map_or(Value::Null, Value::Number)
            }
            Scalar::String(s) => Value::String(s.into_owned()),
        }
    }

    let lines = LineStarts::default();
    let key_text = |key: &MarkedYaml<'_>| -> std::result::Result<String, String> {
        let mut key = key;
        while let YamlData::Tagged(_, inner) = &key.data {
            key = inner;
        }
        match &key.data {
            YamlData::Value(Scalar::String(s)) => Ok(s.to_string()),
            YamlData::Value(s) => Ok(match scalar(s.clone()) {
                Value::Null => "null".to_owned(),
                Value::String(s) => s,
                other => other.to_string(),
            }),
            YamlData::Representation(text, ..) => Ok(text.to_string()),
            YamlData::BadValue => Ok(match foreign_scalar(key, text, &lines)? {
                Value::String(s) => s,
                _ => "null".to_owned(),
            }),
            _ => Err(format!(
                "{}:{}: a mapping key is a collection; recount reads keys that are scalars",
                key.span.start.line(),
                key.span.start.col() + 1
            )),
        }
    };

    let mut steps = vec![Step::Node(root)];
    let mut done: Vec<Value> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Node(node) => match node.data {
                YamlData::Value(s) => done.push(scalar(s)),
                YamlData::Representation(text, ..) => done.push(Value::String(text.into_owned())),
                YamlData::Tagged(_, inner) => steps.push(Step::Node(*inner)),
                YamlData::Sequence(items) => {
                    steps.push(Step::Array(items.len()));
                    steps.extend(items.into_iter().rev().map(Step::Node));
                }
                YamlData::Mapping(map) => {
                    let mut keys = Vec::with_capacity(map.len());
                    let mut values = Vec::with_capacity(map.len());
                    for (k, v) in map {
                        keys.push(key_text(&k)?);
                        values.push(v);
                    }
                    steps.push(Step::Object(keys));
                    steps.extend(values.into_iter().rev().map(Step::Node));
                }
                YamlData::Alias(_) => {
                    return Err(format!(
                        "{}:{}: an alias names no anchor before it",
                        node.span.start.line(),
                        node.span.start.col() + 1
                    ));
                }
                YamlData::BadValue => done.push(foreign_scalar(&node, text, &lines)?),
            },
            Step::Array(n) => {
                let items = done.split_off(done.len() - n);
                done.push(Value::Array(items));
            }
            Step::Object(keys) => {
                let values = done.split_off(done.len() - keys.len());
                done.push(Value::Object(keys.into_iter().zip(values).collect()));
            }
        }
    }
    Ok(done.pop().unwrap_or(Value::Null))
}

/// The core-schema types whose text YAML itself defines: a scalar under one
/// of these tags that does not read as its type is an error in the file.
const CORE_SCALAR_TAGS: &[&str] = &["bool", "int", "float", "null", "str"];

/// A scalar the YAML library left unread because of its tag. Under a tag of
/// another language's loader (`!!python/name:material.extensions.emoji.twemoji`
/// in a `mkdocs.yml`, which PyYAML turns into a Python object) it is read as
/// an unknown tag is, as its text (`null` when it has none): the rest of the
/// document stays data. Under a core type it cannot be (`!!int ten`), it is an
/// error, located.
fn foreign_scalar(
    node: &saphyr::MarkedYaml<'_>,
    text: &str,
    lines: &LineStarts,
) -> std::result::Result<Value, String> {
    let (line, col) = (node.span.start.line(), node.span.start.col());
    let written = lines
        .slice(text, &node.span.start, &node.span.end)
        .unwrap_or("");
    let (tag, value) = written
        .strip_prefix("!!")
        .map(|rest| rest.split_once(char::is_whitespace).unwrap_or((rest, "")))
        .unwrap_or(("", written));
    let core = tag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
    if tag.is_empty() || CORE_SCALAR_TAGS.contains(&core) {
        let tag = crate::escape::untrusted(tag, 40);
        return Err(format!(
            "{line}:{}: a scalar's value does not fit its tag `!!{tag}`",
            col + 1
        ));
    }
    let value = value.trim();
    Ok(if value.is_empty() {
        Value::Null
    } else {
        Value::String(value.to_owned())
    })
}

/// Where each line of a text starts, to turn the YAML library's markers
/// (a 1-based line and a column counted in characters) into byte offsets.
/// Counted only once a node needs it.
#[derive(Default)]
struct LineStarts(std::cell::OnceCell<Vec<usize>>);

impl LineStarts {
    fn byte_at(&self, text: &str, line: usize, col: usize) -> Option<usize> {
        let starts = self.0.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let start = *starts.get(line.checked_sub(1)?)?;
        let rest = &text[start..];
        Some(start + rest.char_indices().nth(col).map_or(rest.len(), |(i, _)| i))
    }

    /// The text a node spans.
    fn slice<'t>(
        &self,
        text: &'t str,
        start: &saphyr::Marker,
        end: &saphyr::Marker,
    ) -> Option<&'t str> {
        let from = self.byte_at(text, start.line(), start.col())?;
        let to = self.byte_at(text, end.line(), end.col())?;
        text.get(from..to.max(from))
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{parse_config, parse_data};

    #[test]
    fn toml_and_yaml_read_into_the_json_tree() {
        let pyproject = r#"
[project]
name = "demo"
dependencies = ["a>=1", "b", "c"]
released = 2024-05-01

[tool.limits]
ratio = 1.5
"#;
        let doc = parse_data("pyproject.toml", pyproject).unwrap();
        assert_eq!(
            doc.pointer("/project/dependencies")
                .unwrap()
                .as_array()
                .unwrap()
                .len(),
            3
        );
        assert_eq!(
            doc.pointer("/project/released").unwrap(),
            &json!("2024-05-01")
        );
        assert_eq!(doc.pointer("/tool/limits/ratio").unwrap(), &json!(1.5));

        let yaml = "\
retries: 5
base: &base { timeout: 30 }
jobs:
  - name: build
    <<: *base
  - name: test
flags: [true, null, ~]
7: seven
";
        let doc = parse_data("ci/config.YML", yaml).unwrap();
        assert_eq!(doc.pointer("/retries").unwrap(), &json!(5));
        assert_eq!(doc.pointer("/jobs").unwrap().as_array().unwrap().len(), 2);
        assert_eq!(doc.pointer("/jobs/1/name").unwrap(), &json!("test"));
        assert_eq!(doc.pointer("/flags").unwrap(), &json!([true, null, null]));
        assert_eq!(doc.pointer("/7").unwrap(), &json!("seven"));
        assert_eq!(parse_data("empty.yaml", "").unwrap(), json!(null));
    }

    #[test]
    fn another_languages_tags_read_as_text_and_a_core_type_that_does_not_fit_is_located() {
        let mkdocs = "\
site_name: Demo
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - toc:
      slugify: !!python/object/apply:pymdownx.slugs.slugify
        kwds: { case: lower }
extra:
  key: !ENV [ANALYTICS_KEY, none]
  név: !!python/str ünïcode
";
        let doc = parse_data("mkdocs.yml", mkdocs).unwrap();
        assert_eq!(doc.pointer("/site_name").unwrap(), &json!("Demo"));
        assert_eq!(
            doc.pointer("/markdown_extensions/0/pymdownx.emoji/emoji_index")
                .unwrap(),
            &json!(null)
        );
        assert_eq!(
            doc.pointer("/markdown_extensions/1/toc/slugify/kwds/case")
                .unwrap(),
            &json!("lower")
        );
        assert_eq!(doc.pointer("/extra/név").unwrap(), &json!("ünïcode"));

        let (_, why) = parse_data("a.yaml", "a: 1\nb: !!int ten\n").unwrap_err();
        assert_eq!(
            why,
            "a.yaml:2:4: a scalar's value does not fit its tag `!!int`"
        );
    }

    #[test]
    fn malformed_data_files_say_which_format_and_where() {
        let (format, why) = parse_data("a.toml", "x = [1,").unwrap_err();
        assert_eq!(format, "TOML");
        assert!(why.starts_with("a.toml: "), "{why}");
        let (format, why) = parse_data("a.yaml", "a: [1, 2\nb: 3\n").unwrap_err();
        assert_eq!(format, "YAML");
        assert!(why.starts_with("a.yaml:"), "{why}");
        let (_, why) = parse_data("two.yaml", "a: 1\n---\nb: 2\n").unwrap_err();
        // A fact's input holds each key once; a generator's configuration
        // is read as its generator reads it, the last value kept.
        assert!(parse_data("a.yaml", "a: 1\na: 2\n").is_err());
        assert_eq!(
            parse_config("a.yaml", "a: 1\na: 2\n").unwrap(),
            json!({"a": 2})
        );
        assert!(why.contains("2 YAML documents"), "{why}");
        let (format, _) = parse_data("a.json", "{").unwrap_err();
        assert_eq!(format, "JSON");
    }
}
