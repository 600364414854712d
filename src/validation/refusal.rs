//! Validation core, last step of a call: a refusal as data (what was refused, where,
//! by which constraint) plus a message rendered from fixed templates.
//!
//! Every piece of text that a caller could have influenced enters a refusal through
//! [`Fragment`], which escapes it to printable ASCII and truncates it to a fixed cap
//! while rendering, so the work and the output are bounded whatever the input's size.
//! The message is rendered from [`TEMPLATES`]; each placeholder has a fixed width, and
//! [`REFUSAL_CEILING`] is computed from the templates and those widths at compile time.
//! [`Refusal`] can only be built through the renderer, which refuses to produce a
//! message past the ceiling.

use serde::Serialize;

/// Most characters of caller-influenced text one fragment may carry, escapes and the
/// truncation marker included.
pub const FRAGMENT_CAP: usize = 64;
/// Most characters one key-path segment may take before the whole path is capped.
pub const SEGMENT_CAP: usize = 32;
/// Most characters a constraint's limit (taken from the schema) may take.
pub const LIMIT_CAP: usize = 32;
/// Widest decimal rendering of a `u64` (byte offsets and counts).
pub const NUMBER_WIDTH: usize = 20;
/// Marker appended where a fragment was truncated.
pub const TRUNCATION_MARKER: &str = "...";

/// Every keyword a refusal can name: the JSON Schema keywords the validator reports,
/// and the core's own checks, which come before the schema.
pub const KEYWORDS: &[&str] = &[
    "publishedSchema",
    "wellFormed",
    "uniqueKeys",
    "maxBodyBytes",
    "maxNesting",
    "maxNodes",
    "maxRenderedChars",
    "maxNumberChars",
    "exactNumbers",
    "additionalItems",
    "additionalProperties",
    "anyOf",
    "const",
    "contains",
    "contentEncoding",
    "contentMediaType",
    "custom",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "falseSchema",
    "format",
    "maxItems",
    "maximum",
    "maxLength",
    "maxProperties",
    "minItems",
    "minimum",
    "minLength",
    "minProperties",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "propertyNames",
    "required",
    "type",
    "unevaluatedItems",
    "unevaluatedProperties",
    "uniqueItems",
    "$ref",
];

/// Width of the longest entry in [`KEYWORDS`].
pub const KEYWORD_WIDTH: usize = {
    let mut widest = 0;
    let mut index = 0;
    while index < KEYWORDS.len() {
        if KEYWORDS[index].len() > widest {
            widest = KEYWORDS[index].len();
        }
        index += 1;
    }
    widest
};

/// The two forms a refusal's subject takes; `{name}` is a [`FRAGMENT_CAP`] fragment.
pub const SUBJECT_FORMS: [&str; 2] = ["tool '{name}'", "schema '{name}'"];

/// Width of the widest subject.
pub const SUBJECT_WIDTH: usize = {
    let mut widest = 0;
    let mut index = 0;
    while index < SUBJECT_FORMS.len() {
        let width = subject_form_width(SUBJECT_FORMS[index]);
        if width > widest {
            widest = width;
        }
        index += 1;
    }
    widest
};

/// Literal characters of a subject form plus [`FRAGMENT_CAP`] for each `{name}`.
const fn subject_form_width(form: &str) -> usize {
    let bytes = form.as_bytes();
    let placeholder = b"{name}";
    let mut width = 0;
    let mut index = 0;
    while index < bytes.len() {
        let mut matched = index + placeholder.len() <= bytes.len();
        let mut offset = 0;
        while matched && offset < placeholder.len() {
            matched = bytes[index + offset] == placeholder[offset];
            offset += 1;
        }
        if matched {
            width += FRAGMENT_CAP;
            index += placeholder.len();
        } else {
            width += 1;
            index += 1;
        }
    }
    width
}

pub const TEMPLATE_UNKNOWN_TOOL: &str = "refused: {subject} has no published input schema";
pub const TEMPLATE_MALFORMED: &str =
    "refused: {subject}: the arguments are not well-formed JSON (byte {offset})";
pub const TEMPLATE_BOUND: &str =
    "refused: {subject}: the arguments exceed {keyword} {limit} (byte {offset})";
pub const TEMPLATE_DUPLICATE_KEY: &str =
    "refused: {subject}: {path} appears twice in one object ({keyword}, byte {offset})";
pub const TEMPLATE_SCHEMA: &str = "refused: {subject}: {path} fails {keyword}";
pub const TEMPLATE_SCHEMA_LIMIT: &str = "refused: {subject}: {path} fails {keyword} {limit}";
pub const TEMPLATE_MISSING: &str = "refused: {subject}: {path} is missing ({keyword})";
pub const TEMPLATE_INEXACT: &str = "refused: {subject}: the arguments write a number that would be rounded ({keyword}, byte {offset})";
pub const TEMPLATE_UNEXPECTED: &str =
    "refused: {subject}: {path} is not a published key ({keyword}, {count} unexpected)";

/// Every message template a refusal can be rendered from.
pub const TEMPLATES: [&str; 9] = [
    TEMPLATE_UNKNOWN_TOOL,
    TEMPLATE_MALFORMED,
    TEMPLATE_BOUND,
    TEMPLATE_DUPLICATE_KEY,
    TEMPLATE_SCHEMA,
    TEMPLATE_SCHEMA_LIMIT,
    TEMPLATE_MISSING,
    TEMPLATE_UNEXPECTED,
    TEMPLATE_INEXACT,
];

/// The longest message any template can render to.
pub const REFUSAL_CEILING: usize = {
    let mut widest = 0;
    let mut index = 0;
    while index < TEMPLATES.len() {
        let width = template_width(TEMPLATES[index]);
        if width > widest {
            widest = width;
        }
        index += 1;
    }
    widest
};

/// The widest value a placeholder can take, or `None` for a name no template uses.
pub const fn placeholder_width(name: &[u8]) -> Option<usize> {
    match name {
        b"subject" => Some(SUBJECT_WIDTH),
        b"path" => Some(FRAGMENT_CAP),
        b"keyword" => Some(KEYWORD_WIDTH),
        b"limit" => Some(LIMIT_CAP),
        b"offset" | b"count" => Some(NUMBER_WIDTH),
        _ => None,
    }
}

/// Literal characters of `template` plus the widest value of each placeholder.
///
/// # Panics
///
/// On an unknown placeholder or an unclosed brace: it is meant for the built-in
/// templates, evaluated as constants, where that panic is a compile error.
/// An unknown placeholder or an unclosed brace fails compilation where this is
/// evaluated as a constant.
pub const fn template_width(template: &str) -> usize {
    let bytes = template.as_bytes();
    let mut width = 0;
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'{' {
            let mut end = index + 1;
            while end < bytes.len() && bytes[end] != b'}' {
                end += 1;
            }
            assert!(
                end < bytes.len(),
                "unclosed placeholder in a refusal template"
            );
            let (_, rest) = bytes.split_at(index + 1);
            let (name, _) = rest.split_at(end - index - 1);
            match placeholder_width(name) {
                Some(placeholder) => width += placeholder,
                None => panic!("unknown placeholder in a refusal template"),
            }
            index = end + 1;
        } else {
            width += 1;
            index += 1;
        }
    }
    width
}

/// Caller-influenced text, escaped to printable ASCII and cut to a cap.
///
/// `'` and `\` gain a backslash; any other character outside printable ASCII becomes
/// `\u{hex}`. Truncation happens on the escaped form and ends with
/// [`TRUNCATION_MARKER`]; at most `cap` characters of the input are ever looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Fragment(String);

impl Fragment {
    /// `text` escaped and capped at `cap` characters (`cap` at least the marker's width).
    pub fn new(text: &str, cap: usize) -> Fragment {
        Fragment(escape_capped(text, cap, false))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Display for Fragment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn push_escaped(out: &mut String, c: char, pointer: bool) {
    match c {
        '\'' => out.push_str("\\'"),
        '\\' => out.push_str("\\\\"),
        '~' if pointer => out.push_str("~0"),
        '/' if pointer => out.push_str("~1"),
        ' '..='~' => out.push(c),
        _ => {
            use std::fmt::Write;
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// Escape `text` (JSON-pointer escapes too when `pointer`), stopping at `cap` characters.
fn escape_capped(text: &str, cap: usize, pointer: bool) -> String {
    let keep = cap.saturating_sub(TRUNCATION_MARKER.len());
    let mut out = String::with_capacity(cap.min(text.len() * 2 + 2));
    let mut piece = String::with_capacity(12);
    // Escaped characters are kept while they fit in `keep`; past that, the rest is
    // rendered only while the whole could still fit in `cap` without a marker.
    let mut kept_len = None;
    for c in text.chars() {
        piece.clear();
        push_escaped(&mut piece, c, pointer);
        if out.len() + piece.len() > keep && kept_len.is_none() {
            kept_len = Some(out.len());
        }
        if out.len() + piece.len() > cap {
            out.truncate(kept_len.unwrap_or(out.len()));
            out.push_str(TRUNCATION_MARKER);
            return out;
        }
        out.push_str(&piece);
    }
    out
}

/// A key path inside the document, as a JSON pointer (`/limit`; the root is
/// empty): each segment escaped and capped at [`SEGMENT_CAP`], the whole capped
/// so that the message's quoted form (`'/limit'`) fits [`FRAGMENT_CAP`], by
/// keeping its innermost end, which names the offending key. The data carries
/// the pointer bare; only the rendered message quotes it.
pub fn key_path<'a>(segments: impl IntoIterator<Item = &'a str>) -> Fragment {
    let mut rendered = String::new();
    for segment in segments {
        rendered.push('/');
        rendered.push_str(&escape_capped(segment, SEGMENT_CAP, true));
        if rendered.len() > 8 * FRAGMENT_CAP {
            // Deep paths: keep the work bounded; the tail is re-derived below.
            let tail_start = rendered.len() - 4 * FRAGMENT_CAP;
            rendered.replace_range(..tail_start, "");
        }
    }
    let quoted_cap = FRAGMENT_CAP - 2;
    let body = if rendered.len() > quoted_cap {
        let tail_len = quoted_cap - TRUNCATION_MARKER.len();
        // Every character is ASCII, so any byte offset is a boundary.
        let tail = rendered.get(rendered.len() - tail_len..).unwrap_or("");
        format!("{TRUNCATION_MARKER}{tail}")
    } else {
        rendered
    };
    Fragment(body)
}

/// What is being refused: a tool call, or a document checked against a named schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum Subject {
    Tool(Fragment),
    Schema(Fragment),
}

impl Subject {
    pub fn tool(name: &str) -> Subject {
        Subject::Tool(Fragment::new(name, FRAGMENT_CAP))
    }

    pub fn schema(name: &str) -> Subject {
        Subject::Schema(Fragment::new(name, FRAGMENT_CAP))
    }

    fn render(&self) -> String {
        let (form, name) = match self {
            Subject::Tool(name) => (SUBJECT_FORMS[0], name),
            Subject::Schema(name) => (SUBJECT_FORMS[1], name),
        };
        form.replace("{name}", name.as_str())
    }
}

/// Which check refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    UnknownTool,
    Malformed,
    /// An object holds a key twice: which value counts depends on the parser.
    DuplicateKey,
    /// The body is over [`crate::validation::MAX_BODY_BYTES`]; it was not read further.
    BodySize,
    Nesting,
    Nodes,
    RenderedWidth,
    /// A number is written with more characters than the core compares.
    NumberLength,
    /// A number the parser would read as another value (rounded to a double).
    Inexact,
    Schema,
}

/// A bounded refusal: data plus the message rendered from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    kind: RefusalKind,
    subject: Subject,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Fragment>,
    keyword: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<Fragment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unexpected: Option<u64>,
    message: String,
    /// The schema's other violations, in the order the validator found
    /// them, at most [`MAX_OTHER_VIOLATIONS`]: a caller fixing its call
    /// needs each of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    also: Vec<Refusal>,
    /// How many more violations there were past those.
    #[serde(skip_serializing_if = "Option::is_none")]
    more: Option<u64>,
}

/// Most violations a refusal lists besides its first: what it prints is
/// bounded by this many ceilings.
pub const MAX_OTHER_VIOLATIONS: usize = 7;

/// Why a refusal could not be built: a template or value that would break the ceiling.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefusalError {
    #[error("refusal template placeholder `{{{name}}}` has no value")]
    MissingValue { name: String },
    #[error("refusal template placeholder `{{{name}}}` is not a known placeholder")]
    UnknownPlaceholder { name: String },
    #[error("refusal value for `{{{name}}}` is {width} characters, over its cap of {cap}")]
    ValueTooWide {
        name: String,
        width: usize,
        cap: usize,
    },
    #[error("refusal message would be {width} characters, over the ceiling of {REFUSAL_CEILING}")]
    PastCeiling { width: usize },
    #[error("`{keyword}` is not a keyword a refusal may name")]
    UnknownKeyword { keyword: String },
}

/// The data a refusal carries before its message is rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusalParts {
    pub kind: RefusalKind,
    pub subject: Subject,
    pub path: Option<Fragment>,
    pub keyword: &'static str,
    pub limit: Option<Fragment>,
    pub offset: Option<u64>,
    pub unexpected: Option<u64>,
}

impl Refusal {
    /// Render `parts` with the template for their kind.
    pub fn new(parts: RefusalParts) -> Result<Refusal, RefusalError> {
        let template = match (parts.kind, &parts.limit, parts.unexpected) {
            (RefusalKind::UnknownTool, _, _) => TEMPLATE_UNKNOWN_TOOL,
            (RefusalKind::Malformed, _, _) => TEMPLATE_MALFORMED,
            (
                RefusalKind::BodySize
                | RefusalKind::Nesting
                | RefusalKind::Nodes
                | RefusalKind::RenderedWidth
                | RefusalKind::NumberLength,
                _,
                _,
            ) => TEMPLATE_BOUND,
            (RefusalKind::Inexact, _, _) => TEMPLATE_INEXACT,
            (RefusalKind::DuplicateKey, _, _) => TEMPLATE_DUPLICATE_KEY,
            (RefusalKind::Schema, _, Some(_)) => TEMPLATE_UNEXPECTED,
            (RefusalKind::Schema, Some(_), None) => TEMPLATE_SCHEMA_LIMIT,
            // The path names the key that is not there.
            (RefusalKind::Schema, None, None) if parts.keyword == "required" => TEMPLATE_MISSING,
            (RefusalKind::Schema, None, None) => TEMPLATE_SCHEMA,
        };
        Refusal::from_template(template, parts)
    }

    /// Render `parts` with `template`. Fails, rather than building an over-long
    /// refusal, when a value is wider than its cap or the message passes the ceiling.
    pub fn from_template(template: &str, parts: RefusalParts) -> Result<Refusal, RefusalError> {
        if !KEYWORDS.contains(&parts.keyword) {
            return Err(RefusalError::UnknownKeyword {
                keyword: parts.keyword.to_string(),
            });
        }
        let subject = parts.subject.render();
        let offset = parts.offset.map(|offset| offset.to_string());
        // Quoted in the message, so the root (an empty pointer) reads `''`.
        let path = parts.path.as_ref().map(|p| format!("'{}'", p.as_str()));
        let count = parts.unexpected.map(|count| count.to_string());
        let value = |name: &str| -> Option<&str> {
            match name {
                "subject" => Some(subject.as_str()),
                "path" => path.as_deref(),
                "keyword" => Some(parts.keyword),
                "limit" => parts.limit.as_ref().map(Fragment::as_str),
                "offset" => offset.as_deref(),
                "count" => count.as_deref(),
                _ => None,
            }
        };
        let mut message = String::with_capacity(REFUSAL_CEILING);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            message.push_str(rest.get(..open).unwrap_or(""));
            let after = rest.get(open + 1..).unwrap_or("");
            let close = after
                .find('}')
                .ok_or_else(|| RefusalError::UnknownPlaceholder {
                    name: after.to_string(),
                })?;
            let name = after.get(..close).unwrap_or("");
            let cap = placeholder_width(name.as_bytes()).ok_or_else(|| {
                RefusalError::UnknownPlaceholder {
                    name: name.to_string(),
                }
            })?;
            let text = value(name).ok_or_else(|| RefusalError::MissingValue {
                name: name.to_string(),
            })?;
            if text.len() > cap {
                return Err(RefusalError::ValueTooWide {
                    name: name.to_string(),
                    width: text.len(),
                    cap,
                });
            }
            message.push_str(text);
            rest = after.get(close + 1..).unwrap_or("");
        }
        message.push_str(rest);
        if message.len() > REFUSAL_CEILING {
            return Err(RefusalError::PastCeiling {
                width: message.len(),
            });
        }
        Ok(Refusal {
            kind: parts.kind,
            subject: parts.subject,
            path: parts.path,
            keyword: parts.keyword,
            limit: parts.limit,
            offset: parts.offset,
            unexpected: parts.unexpected,
            message,
            also: Vec::new(),
            more: None,
        })
    }

    /// This refusal with the schema's other violations: the first
    /// [`MAX_OTHER_VIOLATIONS`] of `others` (each listed once, and none
    /// the same as this one), and a count of the rest.
    pub fn with_others(mut self, others: impl IntoIterator<Item = Refusal>) -> Refusal {
        let mut more = 0u64;
        for other in others {
            let same = |r: &Refusal| r.path == other.path && r.keyword == other.keyword;
            if same(&self) || self.also.iter().any(same) {
                continue;
            }
            if self.also.len() < MAX_OTHER_VIOLATIONS {
                self.also.push(other);
            } else {
                more += 1;
            }
        }
        self.more = (more > 0).then_some(more);
        self
    }

    /// This refusal with `count` more violations past those listed.
    pub fn with_more(mut self, count: u64) -> Refusal {
        self.more = Some(self.more.unwrap_or(0).saturating_add(count));
        self
    }

    /// The other violations listed (see [`Refusal::with_others`]).
    pub fn also(&self) -> &[Refusal] {
        &self.also
    }

    /// How many violations there were past those listed.
    pub fn more(&self) -> Option<u64> {
        self.more
    }

    pub fn kind(&self) -> RefusalKind {
        self.kind
    }

    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    pub fn path(&self) -> Option<&Fragment> {
        self.path.as_ref()
    }

    pub fn keyword(&self) -> &'static str {
        self.keyword
    }

    pub fn limit(&self) -> Option<&Fragment> {
        self.limit.as_ref()
    }

    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    pub fn unexpected(&self) -> Option<u64> {
        self.unexpected
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The keyword from [`KEYWORDS`] equal to `name`, or `custom` for one outside it.
pub fn known_keyword(name: &str) -> &'static str {
    KEYWORDS
        .iter()
        .find(|known| **known == name)
        .copied()
        .unwrap_or("custom")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widest value each placeholder can be given, built through the public
    /// constructors rather than read from the width table.
    fn widest_parts(kind: RefusalKind, limit: bool, unexpected: bool) -> RefusalParts {
        let huge: String = "\u{10ffff}".repeat(10_000);
        RefusalParts {
            kind,
            subject: Subject::schema(&huge),
            path: Some(key_path(std::iter::repeat_n(huge.as_str(), 64))),
            keyword: KEYWORDS
                .iter()
                .copied()
                .max_by_key(|k| k.len())
                .unwrap_or(""),
            limit: limit.then(|| Fragment::new(&huge, LIMIT_CAP)),
            offset: Some(u64::MAX),
            unexpected: unexpected.then_some(u64::MAX),
        }
    }

    #[test]
    fn the_ceiling_is_recomputed_from_the_live_templates_and_caps() {
        let widest_subject = SUBJECT_FORMS
            .iter()
            .map(|form| form.replace("{name}", &"x".repeat(FRAGMENT_CAP)).len())
            .max()
            .unwrap_or(0);
        let widest_keyword = KEYWORDS.iter().map(|k| k.len()).max().unwrap_or(0);
        let fill = |template: &str| {
            template
                .replace("{subject}", &"s".repeat(widest_subject))
                .replace("{path}", &"p".repeat(FRAGMENT_CAP))
                .replace("{keyword}", &"k".repeat(widest_keyword))
                .replace("{limit}", &"l".repeat(LIMIT_CAP))
                .replace("{offset}", &u64::MAX.to_string())
                .replace("{count}", &u64::MAX.to_string())
        };
        let recomputed = TEMPLATES.iter().map(|t| fill(t).len()).max().unwrap_or(0);
        assert_eq!(REFUSAL_CEILING, recomputed);
        assert_eq!(REFUSAL_CEILING, 228);
    }

    #[test]
    fn every_template_fits_the_ceiling_with_its_widest_values() {
        for (kind, limit, unexpected) in [
            (RefusalKind::UnknownTool, false, false),
            (RefusalKind::Malformed, false, false),
            (RefusalKind::DuplicateKey, false, false),
            (RefusalKind::BodySize, true, false),
            (RefusalKind::Nesting, true, false),
            (RefusalKind::RenderedWidth, true, false),
            (RefusalKind::NumberLength, true, false),
            (RefusalKind::Inexact, false, false),
            (RefusalKind::Schema, false, false),
            (RefusalKind::Schema, true, false),
            (RefusalKind::Schema, false, true),
        ] {
            let refusal = Refusal::new(widest_parts(kind, limit, unexpected));
            let refusal = match refusal {
                Ok(refusal) => refusal,
                Err(error) => panic!("{kind:?}: {error}"),
            };
            assert!(refusal.message().len() <= REFUSAL_CEILING);
            assert!(refusal.message().is_ascii());
        }
    }

    #[test]
    fn a_refusal_past_the_ceiling_cannot_be_built() {
        let parts = widest_parts(RefusalKind::Schema, true, false);
        // One literal character past the ceiling, whatever the values.
        let padded = format!("{TEMPLATE_SCHEMA_LIMIT}{}", ".".repeat(REFUSAL_CEILING));
        assert!(matches!(
            Refusal::from_template(&padded, parts.clone()),
            Err(RefusalError::PastCeiling { .. })
        ));
        let wide_limit = RefusalParts {
            limit: Some(Fragment("9".repeat(LIMIT_CAP + 1))),
            ..parts.clone()
        };
        assert!(matches!(
            Refusal::new(wide_limit),
            Err(RefusalError::ValueTooWide { .. })
        ));
        assert!(matches!(
            Refusal::from_template("refused: {caller}", parts.clone()),
            Err(RefusalError::UnknownPlaceholder { .. })
        ));
        let stray_keyword = RefusalParts {
            keyword: "anything",
            ..parts
        };
        assert!(matches!(
            Refusal::new(stray_keyword),
            Err(RefusalError::UnknownKeyword { .. })
        ));
    }

    #[test]
    fn fragments_escape_and_cap() {
        assert_eq!(Fragment::new("plain", 64).as_str(), "plain");
        assert_eq!(Fragment::new("it's\\", 64).as_str(), "it\\'s\\\\");
        assert_eq!(
            Fragment::new("a\u{0}\n\u{7f}\u{1f600}", 64).as_str(),
            "a\\u{0}\\u{a}\\u{7f}\\u{1f600}"
        );
        let long = Fragment::new(&"k".repeat(10_000), FRAGMENT_CAP);
        assert_eq!(long.len(), FRAGMENT_CAP);
        assert!(long.as_str().ends_with(TRUNCATION_MARKER));
        // Exactly at the cap: no marker.
        assert_eq!(Fragment::new(&"k".repeat(64), 64).as_str(), "k".repeat(64));
        let escaped = Fragment::new(&"\u{1}".repeat(100), 20);
        assert!(escaped.len() <= 20, "{escaped}");
    }

    #[test]
    fn key_paths_escape_pointer_characters_and_keep_the_innermost_end() {
        assert_eq!(key_path(["a/b", "~c", "0"]).as_str(), "/a~1b/~0c/0");
        assert_eq!(key_path(std::iter::empty::<&str>()).as_str(), "");
        let deep: Vec<String> = (0..64).map(|i| format!("level{i}")).collect();
        let path = key_path(deep.iter().map(String::as_str));
        assert!(path.len() <= FRAGMENT_CAP);
        assert!(path.as_str().ends_with("/level63"), "{path}");
    }
}
