//! Stage 2 of the pipeline (facts): the bound keywords of JSON Schemas, for the
//! `unpinned-bound` and `stale-pin` checks.
//!
//! Every occurrence of a configured keyword (`maxLength`, `maxItems`, ...) in a
//! schema is a bound that must be pinned to a named constant, and a finding must
//! point at the exact bytes of its value. serde_json keeps no positions, so this
//! module scans JSON itself: one pass over the bytes, an explicit stack instead
//! of recursion (a deeply nested file cannot overflow ours), numbers kept as the
//! text they were written as and read as exact rationals.
//!
//! A keyword is a member key of an object that is a schema. What is a schema
//! follows the JSON Schema vocabulary: the values of `properties`,
//! `patternProperties`, `$defs`, `definitions`, `dependentSchemas` and
//! `dependencies` are maps from names to schemas, so a property literally named
//! `maxLength` is a name, not a bound; the values of `const`, `enum`, `default`,
//! `examples` (and a few other data keywords) are data, so a `maxLength` inside
//! an example is not a bound either. Any other keyword's object or array value
//! is read as a schema: an unfamiliar keyword must not hide a bound.
//!
//! Pure: no I/O. The check reads the schema files and hands them in as
//! [`SchemaDoc`]s; [`local_refs`] tells it which further files a schema
//! references, so it can follow them.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;

use crate::number::Number;

/// A schema file's path (repository-relative, `/`-separated) and text.
#[derive(Debug, Clone, Copy)]
pub struct SchemaDoc<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

/// One occurrence of a bound keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// The schema file.
    pub path: String,
    /// JSON Pointer to the keyword, e.g. `/properties/body/maxLength`.
    pub pointer: String,
    pub keyword: String,
    /// The value, exactly; `None` when it is not a number, or a number too
    /// large for an exact `i128` rational (`text` still says what it is).
    pub value: Option<Number>,
    /// The value as written in the file.
    pub text: String,
    /// 1-based line of the value's first byte.
    pub line: usize,
    /// 1-based column of the value's first byte, counted in characters.
    pub column: usize,
    /// Byte range of the value in the file text.
    pub span: Range<usize>,
}

/// A schema file that is not valid JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{column}: {message}")]
pub struct BoundsScanError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// Byte offset of the fault in the file text.
    pub offset: usize,
    pub message: String,
}

/// Every occurrence of `keywords` in `docs`, sorted by path, then pointer (then
/// file order, for a key written twice in one object). Fails on the first file
/// that is not valid JSON.
pub fn find_bounds(
    docs: &[SchemaDoc<'_>],
    keywords: &[String],
) -> Result<Vec<Bound>, BoundsScanError> {
    let mut bounds = Vec::new();
    for doc in docs {
        let mut found: Vec<Bound> = Vec::new();
        scan(doc, &mut |member| {
            if member.in_schema && keywords.iter().any(|k| k == member.key) {
                let text = doc.text.get(member.span.clone()).unwrap_or("");
                found.push(Bound {
                    path: doc.path.to_owned(),
                    pointer: member.pointer.to_owned(),
                    keyword: member.key.to_owned(),
                    value: match member.kind {
                        ValueKind::Number => exact_number(text),
                        ValueKind::String | ValueKind::Other => None,
                    },
                    text: text.to_owned(),
                    line: 0,
                    column: 0,
                    span: member.span.clone(),
                });
            }
        })?;
        // Members complete inner-first, so starts are not in file order yet.
        found.sort_by_key(|b| b.span.start);
        let mut lines = LineTracker::new(doc.text);
        for bound in &mut found {
            (bound.line, bound.column) = lines.locate(bound.span.start);
        }
        bounds.extend(found);
    }
    bounds.sort_by(|a, b| (&a.path, &a.pointer).cmp(&(&b.path, &b.pointer)));
    Ok(bounds)
}

/// The schema files `doc` references through `$ref`, as repository-relative
/// normalised paths, sorted and without duplicates. Fragments are dropped
/// (`common.json#/$defs/x` is `common.json`); fragment-only references, absolute
/// URIs (`https://...`, `urn:...`) and references back to `doc` itself are not
/// files to follow. References that leave the repository are left out: see
/// [`scan_local_refs`] to report them. A file that is not valid JSON has no
/// references here; [`find_bounds`] reports it.
pub fn local_refs(doc: &SchemaDoc<'_>) -> Vec<String> {
    scan_local_refs(doc).map(|r| r.refs).unwrap_or_default()
}

/// What [`scan_local_refs`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocalRefs {
    /// Repository-relative paths of the referenced schema files, sorted, unique.
    pub refs: Vec<String>,
    /// References that would leave the repository, in file order.
    pub escaping: Vec<EscapingRef>,
    /// The schema's own `$id` (the root object's), as written: the base that
    /// its references resolve against when they name a schema by `$id`.
    pub id: Option<String>,
    /// Every reference to another resource (fragment-only references and those
    /// that leave the repository left out), sorted, unique: a relative one with
    /// the file it names by path, an absolute URI with none. A caller follows
    /// the file when it exists, and otherwise looks the reference up by `$id`.
    pub targets: Vec<RefSite>,
}

/// A `$ref` to another resource: as written (fragment dropped, escapes
/// decoded), and the repository file it names when read as a relative path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefSite {
    pub reference: String,
    pub file: Option<String>,
}

/// A `$ref` that points outside the repository: `..` past its root, or an
/// absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EscapingRef {
    /// The reference as the schema states it (JSON escapes decoded).
    pub reference: String,
    /// JSON Pointer to the `$ref` member.
    pub pointer: String,
    pub line: usize,
    pub column: usize,
    /// Byte range of the `$ref` value in the file text.
    pub span: Range<usize>,
}

/// [`local_refs`], with the references that escape the repository reported
/// rather than dropped, and invalid JSON as an error.
pub fn scan_local_refs(doc: &SchemaDoc<'_>) -> Result<LocalRefs, BoundsScanError> {
    let own_path = crate::snapshot::joined("", doc.path);
    let mut refs = BTreeSet::new();
    let mut targets = BTreeSet::new();
    let mut escaping = Vec::new();
    let mut id = None;
    let bytes = doc.text.as_bytes();
    scan(doc, &mut |member| {
        if !member.in_schema || member.kind != ValueKind::String {
            return;
        }
        if member.key == "$id" && member.pointer == "/$id" {
            if let Ok((_, Some(text))) = read_string(bytes, member.span.start, true) {
                id = Some(text);
            }
            return;
        }
        if member.key != "$ref" {
            return;
        }
        let Ok((_, Some(reference))) = read_string(bytes, member.span.start, true) else {
            return;
        };
        let without_fragment = reference
            .split_once('#')
            .map_or(reference.as_str(), |(head, _)| head);
        match ref_target(doc.path, &reference) {
            RefTarget::File(path) => {
                if own_path.as_deref() != Some(path.as_str()) {
                    refs.insert(path.clone());
                    targets.insert(RefSite {
                        reference: without_fragment.to_owned(),
                        file: Some(path),
                    });
                }
            }
            RefTarget::NotAFile => {
                if !without_fragment.is_empty() {
                    targets.insert(RefSite {
                        reference: without_fragment.to_owned(),
                        file: None,
                    });
                }
            }
            RefTarget::Escapes => escaping.push(EscapingRef {
                reference,
                pointer: member.pointer.to_owned(),
                line: 0,
                column: 0,
                span: member.span.clone(),
            }),
        }
    })?;
    escaping.sort_by_key(|e| e.span.start);
    let mut lines = LineTracker::new(doc.text);
    for e in &mut escaping {
        (e.line, e.column) = lines.locate(e.span.start);
    }
    Ok(LocalRefs {
        refs: refs.into_iter().collect(),
        escaping,
        id,
        targets: targets.into_iter().collect(),
    })
}

enum RefTarget {
    File(String),
    NotAFile,
    Escapes,
}

fn ref_target(doc_path: &str, reference: &str) -> RefTarget {
    let end = reference.find(['#', '?']).unwrap_or(reference.len());
    let path = reference.get(..end).unwrap_or("");
    if path.is_empty() || has_scheme(path) || path.starts_with("//") {
        return RefTarget::NotAFile;
    }
    if path.starts_with('/') {
        return RefTarget::Escapes;
    }
    let path = percent_decode(path);
    let doc_dir = doc_path.rsplit_once('/').map_or("", |(folder, _)| folder);
    match crate::snapshot::joined(doc_dir, &path) {
        Some(p) if p.is_empty() => RefTarget::NotAFile,
        Some(p) => RefTarget::File(p),
        None => RefTarget::Escapes,
    }
}

/// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` before any `/`.
fn has_scheme(reference: &str) -> bool {
    let Some(colon) = reference.find(':') else {
        return false;
    };
    let scheme = reference.get(..colon).unwrap_or("");
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Decodes `%XX` escapes; a malformed escape, or a result that is not UTF-8,
/// leaves the text as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The exact value of a JSON number's text (`64`, `-2.5`, `1e3`, `10.0`);
/// `None` when it does not fit an `i128` rational.
fn exact_number(text: &str) -> Option<Number> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Some(Number::from_integer(0));
    }
    let exponent: i64 = match exponent {
        Some(e) => e.strip_prefix('+').unwrap_or(e).parse().ok()?,
        None => 0,
    };
    let trimmed = significant.trim_end_matches('0');
    let moved = i64::try_from(significant.len() - trimmed.len()).ok()?;
    let scale = exponent
        .checked_sub(i64::try_from(frac.len()).ok()?)?
        .checked_add(moved)?;
    let mut value: i128 = trimmed.parse().ok()?;
    if negative {
        value = value.checked_neg()?;
    }
    let power = 10i128.checked_pow(u32::try_from(scale.unsigned_abs()).ok()?)?;
    Some(if scale >= 0 {
        Number::from_integer(value.checked_mul(power)?)
    } else {
        Number::new(value, power)
    })
}

/// 1-based line and character column of byte offsets visited in ascending
/// order, in one pass over the text however many offsets are asked for.
struct LineTracker<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> LineTracker<'a> {
    fn new(text: &'a str) -> Self {
        LineTracker {
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
            column: 1,
        }
    }

    fn locate(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.bytes.len());
        while self.at < offset {
            match self.bytes.get(self.at) {
                Some(b'\n') => {
                    self.line += 1;
                    self.column = 1;
                }
                // A UTF-8 continuation byte is part of the character before it.
                Some(b) if b & 0xC0 == 0x80 => {}
                _ => self.column += 1,
            }
            self.at += 1;
        }
        (self.line, self.column)
    }
}

// ---------------------------------------------------------------------------
// The scanner.

/// What an object's members are, in the JSON Schema vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A schema: its member keys are keywords.
    Schema,
    /// A map from names to schemas (`properties`, `$defs`, ...): its keys are names.
    NameMap,
    /// Data (`const`, `enum`, `examples`, ...): nothing inside is a schema.
    Data,
}

/// The role of the value of member `key` in an object of role `container`.
fn member_role(container: Role, key: &str) -> Role {
    match container {
        Role::Data => Role::Data,
        Role::NameMap => Role::Schema,
        Role::Schema => match key {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            | "dependencies" => Role::NameMap,
            "const" | "enum" | "default" | "examples" | "example" | "required" | "$vocabulary"
            | "dependentRequired" => Role::Data,
            _ => Role::Schema,
        },
    }
}

/// The role of the elements of an array of role `container`: the arrays of a
/// schema (`allOf`, `prefixItems`, array-form `items`) hold schemas.
fn element_role(container: Role) -> Role {
    match container {
        Role::Schema => Role::Schema,
        Role::NameMap | Role::Data => Role::Data,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ValueKind {
    String,
    Number,
    Other,
}

/// One object member, reported when its value is complete.
struct Member<'s> {
    /// JSON Pointer to the member.
    pointer: &'s str,
    key: &'s str,
    /// The object holding the member is a schema, so the key is a keyword.
    in_schema: bool,
    /// Byte range of the value.
    span: Range<usize>,
    kind: ValueKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    KeyOrEnd,
    Key,
    Colon,
    ValueOrEnd,
    Value,
    CommaOrEnd,
}

/// One open object or array on the walk's stack.
struct Container {
    object: bool,
    role: Role,
    /// Length of the pointer string naming this container.
    pointer_len: usize,
    /// Index of the next element (arrays).
    index: usize,
    expect: Expect,
    /// The current member's key (objects).
    key: String,
    /// Where the current member's or element's value starts.
    value_start: usize,
}

struct Scanner<'d, 'f> {
    doc: &'d SchemaDoc<'d>,
    bytes: &'d [u8],
    stack: Vec<Container>,
    pointer: String,
    done: bool,
    on_member: &'f mut dyn FnMut(&Member<'_>),
}

/// Walks `doc`, calling `on_member` for every object member once its value is
/// complete (inner members before the member holding them).
fn scan(
    doc: &SchemaDoc<'_>,
    on_member: &mut dyn FnMut(&Member<'_>),
) -> Result<(), BoundsScanError> {
    let mut scanner = Scanner {
        doc,
        bytes: doc.text.as_bytes(),
        stack: Vec::new(),
        pointer: String::new(),
        done: false,
        on_member,
    };
    scanner.run()
}

impl Scanner<'_, '_> {
    fn run(&mut self) -> Result<(), BoundsScanError> {
        // A byte-order mark is not JSON, but editors write one; it hides nothing.
        let mut pos = if self.doc.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        loop {
            pos = skip_whitespace(self.bytes, pos);
            let next = self.bytes.get(pos).copied();
            if self.done {
                return match next {
                    None => Ok(()),
                    Some(_) => Err(self.error(
                        pos,
                        format!(
                            "unexpected {} after the end of the JSON document",
                            self.found(pos)
                        ),
                    )),
                };
            }
            let Some(c) = next else {
                let message = match self.stack.last() {
                    None => "the file is empty: expected a JSON value",
                    Some(f) if f.object => "the file ends inside an object: expected `}`",
                    Some(_) => "the file ends inside an array: expected `]`",
                };
                return Err(self.error(pos, message.to_owned()));
            };
            let expect = self.stack.last().map_or(Expect::Value, |f| f.expect);
            pos = match (expect, c) {
                (Expect::KeyOrEnd, b'}') | (Expect::ValueOrEnd, b']') => self.close(pos),
                (Expect::KeyOrEnd | Expect::Key, b'"') => {
                    let (end, key) = read_string(self.bytes, pos, true)
                        .map_err(|(at, message)| self.error(at, message))?;
                    if let Some(frame) = self.stack.last_mut() {
                        frame.key = key.unwrap_or_default();
                        frame.expect = Expect::Colon;
                    }
                    end
                }
                (Expect::KeyOrEnd | Expect::Key, _) => {
                    let wanted = if expect == Expect::KeyOrEnd {
                        "a string key or `}`"
                    } else {
                        "a string key"
                    };
                    return Err(
                        self.error(pos, format!("expected {wanted}, found {}", self.found(pos)))
                    );
                }
                (Expect::Colon, b':') => {
                    if let Some(frame) = self.stack.last_mut() {
                        frame.expect = Expect::Value;
                    }
                    pos + 1
                }
                (Expect::Colon, _) => {
                    return Err(self.error(
                        pos,
                        format!("expected `:` after the key, found {}", self.found(pos)),
                    ));
                }
                (Expect::Value | Expect::ValueOrEnd, _) => self.value(pos, c)?,
                (Expect::CommaOrEnd, b',') => {
                    if let Some(frame) = self.stack.last_mut() {
                        frame.expect = if frame.object {
                            Expect::Key
                        } else {
                            Expect::Value
                        };
                    }
                    pos + 1
                }
                (Expect::CommaOrEnd, b'}' | b']') => {
                    let object = self.stack.last().is_some_and(|f| f.object);
                    if object != (c == b'}') {
                        let wanted = if object { "`,` or `}`" } else { "`,` or `]`" };
                        return Err(self
                            .error(pos, format!("expected {wanted}, found {}", self.found(pos))));
                    }
                    self.close(pos)
                }
                (Expect::CommaOrEnd, _) => {
                    let object = self.stack.last().is_some_and(|f| f.object);
                    let wanted = if object { "`,` or `}`" } else { "`,` or `]`" };
                    return Err(
                        self.error(pos, format!("expected {wanted}, found {}", self.found(pos)))
                    );
                }
            };
        }
    }

    /// Starts the value at `pos` (first byte `c`): opens a container, or reads
    /// a scalar whole. Returns where scanning continues.
    fn value(&mut self, pos: usize, c: u8) -> Result<usize, BoundsScanError> {
        let role = match self.stack.last_mut() {
            None => Role::Schema,
            Some(frame) => {
                frame.value_start = pos;
                if frame.object {
                    self.pointer.push('/');
                    push_escaped(&mut self.pointer, &frame.key);
                    member_role(frame.role, &frame.key)
                } else {
                    // Writing to a String cannot fail.
                    let _ = write!(self.pointer, "/{}", frame.index);
                    element_role(frame.role)
                }
            }
        };
        let (end, kind) = match c {
            b'{' | b'[' => {
                self.stack.push(Container {
                    object: c == b'{',
                    role,
                    pointer_len: self.pointer.len(),
                    index: 0,
                    expect: if c == b'{' {
                        Expect::KeyOrEnd
                    } else {
                        Expect::ValueOrEnd
                    },
                    key: String::new(),
                    value_start: pos,
                });
                return Ok(pos + 1);
            }
            b'"' => {
                let (end, _) = read_string(self.bytes, pos, false)
                    .map_err(|(at, message)| self.error(at, message))?;
                (end, ValueKind::String)
            }
            b'-' | b'0'..=b'9' => {
                let end = read_number(self.bytes, pos)
                    .map_err(|(at, message)| self.error(at, message))?;
                (end, ValueKind::Number)
            }
            _ => {
                let literal = [&b"true"[..], b"false", b"null"]
                    .into_iter()
                    .find(|word| self.bytes.get(pos..pos + word.len()) == Some(word));
                match literal {
                    Some(word) => (pos + word.len(), ValueKind::Other),
                    None => {
                        return Err(self.error(
                            pos,
                            format!("expected a JSON value, found {}", self.found(pos)),
                        ));
                    }
                }
            }
        };
        self.value_done(end, kind);
        Ok(end)
    }

    /// Closes the container whose closing bracket is at `pos`.
    fn close(&mut self, pos: usize) -> usize {
        self.stack.pop();
        self.value_done(pos + 1, ValueKind::Other);
        pos + 1
    }

    /// The value that started at the top frame's `value_start` ended at `end`.
    fn value_done(&mut self, end: usize, kind: ValueKind) {
        let Some(frame) = self.stack.last_mut() else {
            self.done = true;
            return;
        };
        if frame.object {
            (self.on_member)(&Member {
                pointer: &self.pointer,
                key: &frame.key,
                in_schema: frame.role == Role::Schema,
                span: frame.value_start..end,
                kind,
            });
        } else {
            frame.index += 1;
        }
        self.pointer.truncate(frame.pointer_len);
        frame.expect = Expect::CommaOrEnd;
    }

    fn found(&self, pos: usize) -> String {
        match self.doc.text.get(pos..).and_then(|s| s.chars().next()) {
            Some(c) if c.is_control() => format!("{:?}", c),
            Some(c) => format!("`{c}`"),
            None => "the end of the file".to_owned(),
        }
    }

    fn error(&self, offset: usize, message: String) -> BoundsScanError {
        let (line, column) = LineTracker::new(self.doc.text).locate(offset);
        BoundsScanError {
            path: self.doc.path.to_owned(),
            line,
            column,
            offset: offset.min(self.bytes.len()),
            message,
        }
    }
}

/// RFC 8259 whitespace.
fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// JSON Pointer escaping (RFC 6901): `~` as `~0`, `/` as `~1`.
fn push_escaped(pointer: &mut String, key: &str) {
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

type ScanFault = (usize, String);

/// Reads the string whose opening quote is at `start`; returns the offset
/// after its closing quote and, when asked, its decoded text.
fn read_string(
    bytes: &[u8],
    start: usize,
    decode: bool,
) -> Result<(usize, Option<String>), ScanFault> {
    let mut decoded: Vec<u8> = Vec::new();
    let mut i = start + 1;
    let mut plain_from = i;
    loop {
        let Some(&b) = bytes.get(i) else {
            return Err((start, "this string is never closed".to_owned()));
        };
        match b {
            b'"' => {
                let text = decode.then(|| {
                    decoded.extend_from_slice(bytes.get(plain_from..i).unwrap_or_default());
                    String::from_utf8_lossy(&decoded).into_owned()
                });
                return Ok((i + 1, text));
            }
            b'\\' => {
                if decode {
                    decoded.extend_from_slice(bytes.get(plain_from..i).unwrap_or_default());
                }
                let (next, c) = read_escape(bytes, i)?;
                if decode {
                    let mut buf = [0u8; 4];
                    decoded.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                i = next;
                plain_from = i;
            }
            0x00..=0x1F => {
                return Err((
                    i,
                    format!("control character U+{b:04X} inside a string; write it as an escape"),
                ));
            }
            _ => i += 1,
        }
    }
}

/// Reads the escape whose backslash is at `at`: the offset after it and the
/// character it stands for.
fn read_escape(bytes: &[u8], at: usize) -> Result<(usize, char), ScanFault> {
    let simple = match bytes.get(at + 1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return read_unicode_escape(bytes, at),
        Some(&other) => {
            let shown = char::from(other);
            return Err((
                at,
                format!("invalid escape `\\{}` in a string", shown.escape_default()),
            ));
        }
        None => return Err((at, "the file ends inside a string escape".to_owned())),
    };
    Ok((at + 2, simple))
}

fn read_unicode_escape(bytes: &[u8], at: usize) -> Result<(usize, char), ScanFault> {
    let unit = |from: usize| -> Option<u32> {
        let hex = bytes.get(from..from + 4)?;
        if !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
    };
    let bad_hex = || (at, "`\\u` must be followed by four hex digits".to_owned());
    let first = unit(at + 2).ok_or_else(bad_hex)?;
    match first {
        0xD800..=0xDBFF => {
            let low = if bytes.get(at + 6..at + 8) == Some(b"\\u") {
                unit(at + 8)
            } else {
                None
            };
            match low {
                Some(low @ 0xDC00..=0xDFFF) => {
                    let code = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00);
                    char::from_u32(code)
                        .map(|c| (at + 12, c))
                        .ok_or_else(|| (at, "invalid surrogate pair".to_owned()))
                }
                _ => Err((
                    at,
                    format!(
                        "lone surrogate `\\u{first:04X}`: a high surrogate must be followed by a low one"
                    ),
                )),
            }
        }
        0xDC00..=0xDFFF => Err((
            at,
            format!("lone surrogate `\\u{first:04X}`: a low surrogate must follow a high one"),
        )),
        code => char::from_u32(code)
            .map(|c| (at + 6, c))
            .ok_or_else(bad_hex),
    }
}

/// Reads the number starting at `start` by the JSON grammar; returns the offset
/// after it.
fn read_number(bytes: &[u8], start: usize) -> Result<usize, ScanFault> {
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = start;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'0') => {
            i += 1;
            if bytes.get(i).is_some_and(u8::is_ascii_digit) {
                return Err((start, "a number must not have leading zeros".to_owned()));
            }
        }
        Some(b'1'..=b'9') => i = digits_from(i),
        _ => return Err((i, "expected a digit after `-`".to_owned())),
    }
    if bytes.get(i) == Some(&b'.') {
        let after = digits_from(i + 1);
        if after == i + 1 {
            return Err((i + 1, "expected a digit after the decimal point".to_owned()));
        }
        i = after;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let after = digits_from(i);
        if after == i {
            return Err((i, "expected a digit in the exponent".to_owned()));
        }
        i = after;
    }
    // Out of a double's range, a JSON reader (serde_json, and so the
    // validator) refuses the document: the scanner does too.
    let written = std::str::from_utf8(&bytes[start..i]).unwrap_or("0");
    if written.parse::<f64>().is_ok_and(f64::is_infinite) {
        return Err((start, "the number is out of range".to_owned()));
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn doc<'a>(path: &'a str, text: &'a str) -> SchemaDoc<'a> {
        SchemaDoc { path, text }
    }

    fn keywords(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| (*k).to_owned()).collect()
    }

    fn pointers(bounds: &[Bound]) -> Vec<&str> {
        bounds.iter().map(|b| b.pointer.as_str()).collect()
    }

    const NESTED: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "body": { "type": "string", "maxLength": 26214400 },
    "maxLength": { "type": "integer", "maximum": 64 },
    "tags": {
      "type": "array",
      "maxItems": 8,
      "items": { "type": "string", "maxLength": 1e3 }
    },
    "ratio": { "maximum": 10.0 }
  },
  "$defs": {
    "name": { "maxLength": "MAX_NAME" },
    "pair": { "prefixItems": [ { "maxLength": 4 }, { "maxLength": 5 } ] }
  },
  "allOf": [ { "properties": { "note": { "maxLength": 140 } } } ],
  "examples": [ { "maxLength": 999 } ],
  "default": { "body": "", "maxLength": 1 }
}"#;

    #[test]
    fn nested_bounds_are_found_and_property_names_are_not() {
        let docs = [doc("schemas/input.json", NESTED)];
        let bounds = find_bounds(&docs, &keywords(&["maxLength"])).unwrap();
        assert_eq!(
            pointers(&bounds),
            [
                "/$defs/name/maxLength",
                "/$defs/pair/prefixItems/0/maxLength",
                "/$defs/pair/prefixItems/1/maxLength",
                "/allOf/0/properties/note/maxLength",
                "/properties/body/maxLength",
                "/properties/tags/items/maxLength",
            ]
        );
        for bound in &bounds {
            assert_eq!(bound.path, "schemas/input.json");
            assert_eq!(bound.keyword, "maxLength");
            assert_eq!(&NESTED[bound.span.clone()], bound.text);
        }
        let by_pointer = |p: &str| bounds.iter().find(|b| b.pointer == p).unwrap();
        let body = by_pointer("/properties/body/maxLength");
        assert_eq!(body.value, Some(Number::from_integer(26_214_400)));
        assert_eq!((body.line, body.column), (5, 46));
        let tags = by_pointer("/properties/tags/items/maxLength");
        assert_eq!(tags.value, Some(Number::from_integer(1000)));
        assert_eq!(tags.text, "1e3");
        let name = by_pointer("/$defs/name/maxLength");
        assert_eq!(name.value, None);
        assert_eq!(name.text, "\"MAX_NAME\"");

        let bounds = find_bounds(&docs, &keywords(&["maximum", "maxItems"])).unwrap();
        assert_eq!(
            pointers(&bounds),
            [
                "/properties/maxLength/maximum",
                "/properties/ratio/maximum",
                "/properties/tags/maxItems"
            ]
        );
        assert_eq!(bounds[1].value, Some(Number::from_integer(10)));
        assert_eq!(bounds[1].text, "10.0");
        assert_eq!(&NESTED[bounds[0].span.clone()], "64");
    }

    #[test]
    fn a_property_named_like_the_keyword_is_data_but_its_schema_is_not() {
        let text = r#"{"properties":{"maxLength":{"maxLength":3}}}"#;
        let bounds = find_bounds(&[doc("a.json", text)], &keywords(&["maxLength"])).unwrap();
        assert_eq!(pointers(&bounds), ["/properties/maxLength/maxLength"]);
        assert_eq!(bounds[0].span, 40..41);
        assert_eq!((bounds[0].line, bounds[0].column), (1, 41));
    }

    #[test]
    fn pointers_escape_and_keys_decode() {
        let text =
            "{\"properties\":{\"a/b~c\":{\"max\\u004cength\":7},\"\u{e9}\":{\"maxLength\":\n  8}}}";
        let bounds = find_bounds(&[doc("x.json", text)], &keywords(&["maxLength"])).unwrap();
        assert_eq!(
            pointers(&bounds),
            [
                "/properties/a~1b~0c/maxLength",
                "/properties/\u{e9}/maxLength"
            ]
        );
        assert_eq!((bounds[1].line, bounds[1].column), (2, 3));
        assert_eq!(&text[bounds[1].span.clone()], "8");
    }

    #[test]
    fn composite_values_span_whole_and_count_as_not_numbers() {
        let text = "{ \"maxLength\": { \"$ref\": \"#/x\" }, \"minLength\": [1, 2] }";
        let bounds = find_bounds(
            &[doc("c.json", text)],
            &keywords(&["maxLength", "minLength"]),
        )
        .unwrap();
        assert_eq!(bounds.len(), 2);
        assert_eq!(bounds[0].text, "{ \"$ref\": \"#/x\" }");
        assert_eq!(bounds[1].text, "[1, 2]");
        assert!(bounds.iter().all(|b| b.value.is_none()));
    }

    #[test]
    fn output_is_sorted_by_path_then_pointer_across_docs() {
        let b = r#"{"maxLength":1,"items":{"maxLength":2}}"#;
        let a = r#"{"properties":{"z":{"maxLength":3},"a":{"maxLength":4}}}"#;
        let docs = [doc("b.json", b), doc("a.json", a)];
        let bounds = find_bounds(&docs, &keywords(&["maxLength"])).unwrap();
        let got: Vec<(&str, &str, &str)> = bounds
            .iter()
            .map(|b| (b.path.as_str(), b.pointer.as_str(), b.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("a.json", "/properties/a/maxLength", "4"),
                ("a.json", "/properties/z/maxLength", "3"),
                ("b.json", "/items/maxLength", "2"),
                ("b.json", "/maxLength", "1"),
            ]
        );
    }

    #[test]
    fn numbers_are_exact() {
        let cases = [
            ("64", Some(Number::from_integer(64))),
            ("-0", Some(Number::from_integer(0))),
            ("1e3", Some(Number::from_integer(1000))),
            ("1E+3", Some(Number::from_integer(1000))),
            ("10.0", Some(Number::from_integer(10))),
            ("2.5", Some(Number::new(5, 2))),
            ("-2.5e-1", Some(Number::new(-1, 4))),
            ("1000e-3", Some(Number::from_integer(1))),
            ("0.000e99999999999999999999", Some(Number::from_integer(0))),
            ("1e400", None),
            ("1e-400", None),
            ("1e99999999999999999999", None),
            (
                "170141183460469231731687303715884105727",
                Some(Number::from_integer(i128::MAX)),
            ),
            ("170141183460469231731687303715884105728", None),
            // Trailing zeros are moved into the exponent before the digits are read.
            (
                "123456789012345678901234567890123456789000000e-6",
                Some(Number::from_integer(
                    123_456_789_012_345_678_901_234_567_890_123_456_789,
                )),
            ),
            ("923456789012345678901234567890123456789000000e-6", None),
            (
                "12345678901234567890123456789012345678e-2",
                Some(Number::new(12345678901234567890123456789012345678, 100)),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(exact_number(text), expected, "{text}");
        }
    }

    #[test]
    fn invalid_json_is_located() {
        let cases: [(&str, (usize, usize), &str); 10] = [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", (3, 7), "expected `:`"),
            ("{\"a\": [1, 2}", (1, 12), "`,` or `]`"),
            ("{\"a\": tru}", (1, 7), "expected a JSON value"),
            ("", (1, 1), "empty"),
            ("{\"a\": 1}\n x", (2, 2), "after the end"),
            ("{\"a\": \"é\n\"}", (1, 9), "control character"),
            ("{\"a\": 01}", (1, 7), "leading zeros"),
            ("[1.]", (1, 4), "decimal point"),
            ("{\"a\": \"\\ud800\"}", (1, 8), "lone surrogate"),
            ("{\"a\": {\"b\": 1}", (1, 15), "ends inside an object"),
        ];
        for (text, (line, column), fragment) in cases {
            let err = find_bounds(&[doc("bad.json", text)], &keywords(&["maxLength"])).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
            assert!(err.message.contains(fragment), "{text:?}: {err}");
            assert_eq!(err.path, "bad.json");
            assert!(
                err.to_string()
                    .starts_with(&format!("bad.json:{line}:{column}: "))
            );
        }
        let err = find_bounds(&[doc("s.json", "{\"a\": \"open")], &[]).unwrap_err();
        assert_eq!((err.line, err.column, err.offset), (1, 7, 6));
        assert!(err.message.contains("never closed"));
    }

    #[test]
    fn byte_order_mark_and_deep_nesting_are_fine() {
        let text = "\u{feff}{\"maxLength\": 5}";
        let bounds = find_bounds(&[doc("b.json", text)], &keywords(&["maxLength"])).unwrap();
        assert_eq!(&text[bounds[0].span.clone()], "5");
        let depth = 100_000;
        let deep = format!(
            "{}{{\"maxLength\": 1}}{}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let bounds = find_bounds(&[doc("d.json", &deep)], &keywords(&["maxLength"])).unwrap();
        assert_eq!(bounds.len(), 1);
        assert_eq!(bounds[0].pointer.len(), depth * 2 + "/maxLength".len());
    }

    #[test]
    fn local_refs_strip_fragments_and_resolve_against_the_directory() {
        let text = r##"{
  "properties": {
    "a": { "$ref": "common.json#/$defs/id" },
    "b": { "$ref": "./common.json" },
    "c": { "$ref": "../shared/types.json#/$defs/t" },
    "d": { "$ref": "#/$defs/local" },
    "e": { "$ref": "https://example.com/s.json" },
    "f": { "$ref": "urn:example:thing" },
    "g": { "$ref": "sub/dir/../x%20y.json" },
    "h": { "$ref": "input.json#/$defs/self" },
    "$ref": { "type": "string" }
  },
  "examples": [ { "$ref": "not-a-schema.json" } ]
}"##;
        let schema = doc("schemas/mcp/input.json", text);
        assert_eq!(
            local_refs(&schema),
            [
                "schemas/mcp/common.json",
                "schemas/mcp/sub/x y.json",
                "schemas/shared/types.json"
            ]
        );
        assert!(scan_local_refs(&schema).unwrap().escaping.is_empty());
    }

    #[test]
    fn refs_escaping_the_repository_are_reported_not_followed() {
        let text = "{\"allOf\": [\n {\"$ref\": \"../../../etc/passwd\"},\n {\"$ref\": \"/abs.json\"},\n {\"$ref\": \"../../top.json\"}]}";
        let schema = doc("schemas/mcp/input.json", text);
        let scanned = scan_local_refs(&schema).unwrap();
        assert_eq!(scanned.refs, ["top.json"]);
        let escaping: Vec<(&str, &str, usize, usize)> = scanned
            .escaping
            .iter()
            .map(|e| (e.reference.as_str(), e.pointer.as_str(), e.line, e.column))
            .collect();
        assert_eq!(
            escaping,
            [
                ("../../../etc/passwd", "/allOf/0/$ref", 2, 11),
                ("/abs.json", "/allOf/1/$ref", 3, 11),
            ]
        );
        assert_eq!(
            &text[scanned.escaping[0].span.clone()],
            "\"../../../etc/passwd\""
        );
        assert_eq!(local_refs(&schema), ["top.json"]);
        // A schema at the root cannot go up at all.
        assert!(local_refs(&doc("root.json", r#"{"$ref":"../x.json"}"#)).is_empty());
        assert!(local_refs(&doc("bad.json", "{")).is_empty());
        assert!(scan_local_refs(&doc("bad.json", "{")).is_err());
    }

    #[test]
    fn refs_by_id_keep_the_reference_as_written_and_the_schemas_own_id() {
        let text = r##"{
  "$id": "https://example.org/schemas/search.schema.json",
  "allOf": [
    { "$ref": "https://example.org/schemas/tool-context.schema.json" },
    { "$ref": "common.json#/$defs/id" },
    { "$ref": "#/$defs/local" }
  ],
  "$defs": { "local": { "$id": "nested.json" } }
}"##;
        let scanned = scan_local_refs(&doc("schemas/search.json", text)).unwrap();
        assert_eq!(
            scanned.id.as_deref(),
            Some("https://example.org/schemas/search.schema.json")
        );
        let targets: Vec<(&str, Option<&str>)> = scanned
            .targets
            .iter()
            .map(|t| (t.reference.as_str(), t.file.as_deref()))
            .collect();
        assert_eq!(
            targets,
            [
                ("common.json", Some("schemas/common.json")),
                ("https://example.org/schemas/tool-context.schema.json", None),
            ]
        );
    }

    fn jsonish() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("{"),
            Just("}"),
            Just("["),
            Just("]"),
            Just(","),
            Just(":"),
            Just("\"maxLength\""),
            Just("\"properties\""),
            Just("\"$ref\""),
            Just("\"a\\\"b\""),
            Just("\"\\u00e9\""),
            Just("\"é\""),
            Just("12"),
            Just("-0.5e2"),
            Just("0"),
            Just("true"),
            Just("null"),
            Just(" "),
            Just("\n"),
            Just("\""),
            Just("\\"),
            Just("x"),
        ];
        prop::collection::vec(atom, 0..40).prop_map(|parts| parts.concat())
    }

    fn check(text: &str) -> Result<(), TestCaseError> {
        let docs = [doc("p.json", text)];
        let result = find_bounds(&docs, &keywords(&["maxLength", "$ref"]));
        let serde_ok = serde_json::from_str::<serde_json::Value>(text).is_ok();
        prop_assert_eq!(result.is_ok(), serde_ok, "{:?}: {:?}", text, result);
        match result {
            Ok(bounds) => {
                let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
                for b in bounds {
                    prop_assert!(
                        text.is_char_boundary(b.span.start) && text.is_char_boundary(b.span.end)
                    );
                    let at = value.pointer(&b.pointer);
                    prop_assert!(at.is_some(), "{} not in {:?}", b.pointer, text);
                    // With a key written twice serde_json keeps the last value,
                    // so only the shape can be compared with it.
                    let reparsed: Option<serde_json::Value> = serde_json::from_str(&b.text).ok();
                    prop_assert!(reparsed.is_some(), "{:?} is not a JSON value", b.text);
                    prop_assert_eq!(&text[b.span.clone()], b.text.as_str());
                }
            }
            Err(e) => prop_assert!(e.offset <= text.len()),
        }
        let _ = local_refs(&docs[0]);
        Ok(())
    }

    proptest! {
        #[test]
        fn agrees_with_serde_json_and_never_panics(text in prop_oneof![jsonish(), any::<String>()]) {
            check(&text)?;
        }
    }
}
