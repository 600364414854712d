//! Tests of the validation core as a whole: loading real schema files, the
//! composition table, fail-closed resolution, and refusals that do not echo.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;

use super::bounds::{self, Limits, Measure};
use super::refusal::{FRAGMENT_CAP, REFUSAL_CEILING};
use super::*;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validation")
}

fn load(dir: &str) -> SchemaSet {
    match SchemaSet::from_dir(&fixtures().join(dir)) {
        Ok(set) => set,
        Err(error) => panic!("{dir}: {error}"),
    }
}

fn mcp() -> (SchemaSet, ToolResolver) {
    (load("mcp"), ToolResolver::default())
}

fn call(set: &SchemaSet, resolver: &ToolResolver, tool: &str, arguments: &[u8]) -> Verdict {
    match check_call(set, resolver, tool, arguments) {
        Ok(verdict) => verdict,
        Err(error) => panic!("refusal could not be built: {error}"),
    }
}

fn refusal_of(verdict: Verdict) -> Refusal {
    match verdict {
        Verdict::Refused(refusal) => refusal,
        Verdict::Accepted => panic!("expected a refusal"),
    }
}

// --- loading -------------------------------------------------------------------

#[test]
fn a_directory_loads_keyed_by_id_and_by_file() {
    let set = load("mcp");
    assert_eq!(set.len(), 6);
    let by_file = set
        .get("knowledge-get-input.schema.json")
        .map(LoadedSchema::id);
    assert_eq!(
        by_file,
        Some("https://recount.example/mcp/knowledge-get-input.schema.json")
    );
    let by_id = set
        .get("https://recount.example/mcp/tool-context.schema.json")
        .map(LoadedSchema::file);
    assert_eq!(by_id, Some("tool-context.schema.json"));
}

#[test]
fn a_directory_is_walked_depth_first_in_name_order_without_following_links() {
    let temp = match tempfile::tempdir() {
        Ok(temp) => temp,
        Err(error) => panic!("{error}"),
    };
    let root = temp.path();
    let write = |relative: &str, text: &str| {
        let path = root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    };
    // `a/` sorts before `a.json` by file name, though `a.json` sorts first as a path:
    // the walk, not the path, decides which broken file is reported.
    write("a.json", "not json");
    write("a/b.json", "not json either");
    write("notes.txt", "not a schema, not loaded");
    let first = SchemaSet::from_dir(root).err().map(|error| error.file);
    assert_eq!(first, Some("a/b.json".to_string()));

    let missing = SchemaSet::from_dir(&root.join("absent")).err();
    assert!(
        matches!(
            &missing,
            Some(LoadError {
                problem: LoadProblem::Read(_),
                ..
            })
        ),
        "{missing:?}"
    );

    #[cfg(unix)]
    {
        let clean = root.join("clean");
        let outside = root.join("outside");
        std::fs::create_dir_all(&clean).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(&outside).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(outside.join("x.json"), "not json").unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(outside.join("x.json"), clean.join("x.json"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&outside, clean.join("linked"))
            .unwrap_or_else(|e| panic!("{e}"));
        let loaded = SchemaSet::from_dir(&clean).map(|set| set.len());
        assert!(matches!(loaded, Ok(0)), "{loaded:?}");
    }
}

fn load_error(files: &[(&str, &str)]) -> LoadError {
    match SchemaSet::from_files(files.iter().map(|(name, text)| (*name, text.as_bytes()))) {
        Ok(_) => panic!("expected a load error"),
        Err(error) => error,
    }
}

#[test]
fn a_reference_outside_the_set_is_a_located_load_error() {
    let error = load_error(&[(
        "a.schema.json",
        r#"{"$id": "https://x.example/a.json",
            "properties": {"p": {"allOf": [{"$ref": "https://elsewhere.example/b.json#/x"}]}}}"#,
    )]);
    assert_eq!(error.file, "a.schema.json");
    assert_eq!(error.pointer, "/properties/p/allOf/0/$ref");
    assert!(
        matches!(&error.problem, LoadProblem::OutsideReference { reference, target }
            if reference == "https://elsewhere.example/b.json#/x"
            && target == "https://elsewhere.example/b.json"),
        "{error}"
    );
    let message = error.to_string();
    assert!(message.contains("a.schema.json") && message.contains("elsewhere.example/b.json"));
}

#[test]
fn a_relative_reference_resolves_against_the_id_and_stays_in_the_set() {
    let set = SchemaSet::from_files([
        (
            "dir/a.json",
            r#"{"$id": "https://x.example/s/a.json", "$ref": "b.json#/$defs/n"}"#,
        ),
        (
            "b.json",
            r#"{"$id": "https://x.example/s/b.json", "$defs": {"n": {"type": "integer"}}}"#,
        ),
    ]);
    let set = match set {
        Ok(set) => set,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(
        verdict(&set, "dir/a.json", b"3").map(|v| v.is_accepted()),
        Ok(true)
    );
    assert_eq!(
        verdict(&set, "dir/a.json", b"\"3\"").map(|v| v.is_accepted()),
        Ok(false)
    );
    // A relative reference to a file the set lacks leaves it.
    let error = load_error(&[(
        "a.json",
        r#"{"$id": "https://x.example/s/a.json", "$ref": "missing.json"}"#,
    )]);
    assert!(matches!(
        error.problem,
        LoadProblem::OutsideReference { .. }
    ));
}

#[test]
fn a_reference_to_the_meta_schema_leaves_the_set() {
    let error = load_error(&[(
        "a.json",
        r#"{"$id": "https://x.example/a.json", "$ref": "https://json-schema.org/draft/2020-12/schema"}"#,
    )]);
    assert!(matches!(
        error.problem,
        LoadProblem::OutsideReference { .. }
    ));
}

#[test]
fn an_unknown_schema_dialect_is_a_located_load_error() {
    let error = load_error(&[(
        "old.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://x.example/o.json"}"#,
    )]);
    assert_eq!(
        (error.file.as_str(), error.pointer.as_str()),
        ("old.json", "/$schema")
    );
    assert!(matches!(error.problem, LoadProblem::UnknownSchema { .. }));
    let nested = load_error(&[(
        "n.json",
        r#"{"$id": "https://x.example/n.json", "$defs": {"d": {"$schema": "https://example.com/custom"}}}"#,
    )]);
    assert_eq!(nested.pointer, "/$defs/d/$schema");
}

#[test]
fn ids_are_required_absolute_and_unique() {
    let missing = load_error(&[("m.json", r#"{"type": "object"}"#)]);
    assert!(matches!(missing.problem, LoadProblem::MissingId));
    let relative = load_error(&[("r.json", r#"{"$id": "r.json"}"#)]);
    assert!(matches!(relative.problem, LoadProblem::BadId { .. }));
    let duplicate = load_error(&[
        ("a.json", r#"{"$id": "https://x.example/same.json"}"#),
        ("b.json", r#"{"$id": "https://x.example/same.json"}"#),
    ]);
    assert!(matches!(duplicate.problem, LoadProblem::DuplicateId { .. }));
    assert_eq!(duplicate.file, "b.json");
}

#[test]
fn unparsable_and_uncompilable_files_are_located() {
    let parse = load_error(&[("p.json", "{\n  \"$id\": ,\n}")]);
    assert!(
        matches!(parse.problem, LoadProblem::Parse { line: 2, .. }),
        "{parse}"
    );
    let compile = load_error(&[(
        "c.json",
        r#"{"$id": "https://x.example/c.json", "properties": {"a": {"minLength": -1}}}"#,
    )]);
    assert_eq!(compile.file, "c.json");
    assert!(
        matches!(compile.problem, LoadProblem::Compile { .. }),
        "{compile}"
    );
}

// --- the composition table ------------------------------------------------------

#[derive(Debug, PartialEq, Eq)]
struct Cell {
    accepts_valid: bool,
    refuses_unknown: bool,
}

#[test]
fn exactly_one_composition_admits_the_valid_document_and_refuses_the_unknown_key() {
    let valid = std::fs::read(fixtures().join("composition/valid.json")).unwrap_or_default();
    let unknown =
        std::fs::read(fixtures().join("composition/unknown-key.json")).unwrap_or_default();
    assert!(!valid.is_empty() && !unknown.is_empty());
    let forms = [
        "ref-siblings-additional.schema.json",
        "allof-additional.schema.json",
        "allof-unevaluated.schema.json",
    ];
    let mut table = Vec::new();
    for referent in ["closed", "open"] {
        let set = load(&format!("composition/{referent}"));
        for form in forms {
            let outcome = |document: &[u8]| match verdict(&set, form, document) {
                Ok(verdict) => verdict,
                Err(error) => panic!("{referent}/{form}: {error}"),
            };
            let cell = Cell {
                accepts_valid: outcome(&valid).is_accepted(),
                refuses_unknown: !outcome(&unknown).is_accepted(),
            };
            table.push(((referent, form), cell));
        }
    }
    let working: Vec<_> = table
        .iter()
        .filter(|(_, cell)| cell.accepts_valid && cell.refuses_unknown)
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(working, vec![("open", "allof-unevaluated.schema.json")]);
    // Every other cell rejects the valid document outright.
    for ((referent, form), cell) in &table {
        if (*referent, *form) != ("open", "allof-unevaluated.schema.json") {
            assert!(!cell.accepts_valid, "{referent}/{form}");
        }
    }
    // The working cell names the unknown key and the keyword that closed the object.
    let set = load("composition/open");
    let refusal = refusal_of(
        verdict(&set, "allof-unevaluated.schema.json", &unknown).unwrap_or(Verdict::Accepted),
    );
    assert_eq!(refusal.keyword(), "unevaluatedProperties");
    assert_eq!(refusal.path().map(Fragment::as_str), Some("/priority"));
    assert_eq!(refusal.unexpected(), Some(1));
}

// --- tool resolution ------------------------------------------------------------

#[test]
fn a_typical_call_is_accepted() {
    let (set, resolver) = mcp();
    let body = std::fs::read(fixtures().join("typical-call.json")).unwrap_or_default();
    assert_eq!(
        call(&set, &resolver, "knowledge.search", &body),
        Verdict::Accepted
    );
}

#[test]
fn an_unknown_tool_is_refused_before_its_arguments_are_read() {
    let (set, resolver) = mcp();
    // Arguments that would fail every later step: malformed, too deep, too wide.
    let refusal = refusal_of(call(&set, &resolver, "knowledge.delete", &[b'['; 10_000]));
    assert_eq!(refusal.kind(), RefusalKind::UnknownTool);
    assert_eq!(
        refusal.message(),
        "refused: tool 'knowledge.delete' has no published input schema"
    );
    // A schema that is not an input schema is not a tool either.
    let response = refusal_of(call(&set, &resolver, "tool.context", b"{}"));
    assert_eq!(response.kind(), RefusalKind::UnknownTool);
}

#[test]
fn an_explicit_map_takes_precedence_and_must_name_a_loaded_schema() {
    let set = load("mcp");
    let resolver = ToolResolver::default().with_explicit(
        &set,
        [(
            "search".to_string(),
            "knowledge-search-input.schema.json".to_string(),
        )],
    );
    let resolver = match resolver {
        Ok(resolver) => resolver,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(
        call(
            &set,
            &resolver,
            "search",
            br#"{"projectId": "atlas", "query": "q"}"#
        ),
        Verdict::Accepted
    );
    assert!(matches!(
        ToolResolver::default()
            .with_explicit(&set, [("x".to_string(), "nowhere.json".to_string())]),
        Err(ToolConfigError::UnknownSchema { .. })
    ));
}

#[test]
fn the_population_check_reports_both_directions() {
    let (set, resolver) = mcp();
    let registered: Vec<String> = [
        "knowledge.get",
        "knowledge.search",
        "review.search",
        "admin.purge",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let report = resolver.population(&set, &registered);
    assert_eq!(report.tools_without_schema, vec!["admin.purge".to_string()]);
    assert_eq!(
        report.schemas_without_tool,
        vec!["proposal-create-input.schema.json".to_string()]
    );
    let text = std::fs::read_to_string(fixtures().join("mcp-tools.txt")).unwrap_or_default();
    let all = tools::parse_tool_list(&text).unwrap_or_default();
    assert_eq!(all.len(), 4);
    assert!(resolver.population(&set, &all).is_clean());
}

// --- refusals -------------------------------------------------------------------

/// Whether any run of more than `FRAGMENT_CAP` characters of `message` occurs in `input`.
fn echoes(message: &str, input: &[u8]) -> bool {
    let window = FRAGMENT_CAP + 1;
    let bytes = message.as_bytes();
    if bytes.len() < window || input.len() < window {
        return false;
    }
    bytes
        .windows(window)
        .any(|piece| input.windows(window).any(|candidate| candidate == piece))
}

fn assert_bounded(refusal: &Refusal, input: &[u8]) {
    let message = refusal.message();
    assert!(
        message.len() <= REFUSAL_CEILING,
        "{} > ceiling",
        message.len()
    );
    assert!(
        message.bytes().all(|b| (0x20..0x7F).contains(&b)),
        "{message:?}"
    );
    assert!(!echoes(message, input), "{message}");
}

#[test]
fn a_ten_thousand_character_unknown_key_gives_a_short_refusal() {
    let (set, resolver) = mcp();
    let key = "k".repeat(10_000);
    let body = format!(r#"{{"projectId": "atlas", "itemId": "x", "{key}": 1}}"#);
    let refusal = refusal_of(call(&set, &resolver, "knowledge.get", body.as_bytes()));
    assert_eq!(refusal.keyword(), "unevaluatedProperties");
    assert_bounded(&refusal, body.as_bytes());
    let path = refusal.path().map(Fragment::as_str).unwrap_or("");
    assert!(path.len() <= FRAGMENT_CAP && path.contains("kkk"), "{path}");
}

#[test]
fn a_ten_thousand_character_tool_name_gives_a_short_refusal() {
    let (set, resolver) = mcp();
    let tool = "t".repeat(10_000);
    let refusal = refusal_of(call(&set, &resolver, &tool, b"{}"));
    assert_eq!(refusal.kind(), RefusalKind::UnknownTool);
    assert_bounded(&refusal, tool.as_bytes());
}

#[test]
fn control_characters_never_reach_a_refusal_raw() {
    let (set, resolver) = mcp();
    let tool = "evil\u{0}\u{1b}[31m\r\ntool\u{7f}\u{202e}";
    let refusal = refusal_of(call(&set, &resolver, tool, b"{}"));
    assert_bounded(&refusal, tool.as_bytes());
    assert!(
        refusal
            .message()
            .contains("evil\\u{0}\\u{1b}[31m\\u{d}\\u{a}tool")
    );

    let body = r#"{"projectId": "atlas", "itemId": "x", "a\u0000\u001b[2J\n": true}"#;
    let refusal = refusal_of(call(&set, &resolver, "knowledge.get", body.as_bytes()));
    assert_bounded(&refusal, body.as_bytes());
    assert_eq!(
        refusal.path().map(Fragment::as_str),
        Some("/a\\u{0}\\u{1b}[2J\\u{a}")
    );
}

#[test]
fn a_refused_value_is_never_echoed_back() {
    let (set, resolver) = mcp();
    let secret = "s3cr3t-value-".repeat(400);
    let body = format!(r#"{{"projectId": "atlas", "itemId": "{secret}"}}"#);
    let refusal = refusal_of(call(&set, &resolver, "knowledge.get", body.as_bytes()));
    assert_eq!(refusal.keyword(), "maxLength");
    assert_eq!(refusal.limit().map(Fragment::as_str), Some("64"));
    assert!(!refusal.message().contains("s3cr3t"));
    assert_bounded(&refusal, body.as_bytes());
}

#[test]
fn a_26_mb_string_is_refused_by_its_charge_without_being_echoed() {
    let (set, resolver) = mcp();
    let mut body = br#"{"projectId": "atlas", "path": "a.md", "body": ""#.to_vec();
    body.resize(26_214_400 - 2, b'x');
    body.extend_from_slice(b"\"}");
    let refusal = refusal_of(call(&set, &resolver, "proposal.create", &body));
    assert_eq!(refusal.kind(), RefusalKind::RenderedWidth);
    assert_eq!(
        refusal.limit().map(Fragment::as_str),
        Some(MAX_RENDERED_CHARS.to_string().as_str())
    );
    let message = refusal.message();
    assert!(message.len() <= REFUSAL_CEILING);
    assert!(!message.contains("xxxxxxxx"), "{message}");
}

#[test]
fn bounds_refusals_name_the_limit_and_the_byte() {
    let (set, resolver) = mcp();
    let deep = format!(
        r#"{{"projectId": "atlas", "query": {}"#,
        "[".repeat(1_000_000)
    );
    let refusal = refusal_of(call(&set, &resolver, "knowledge.search", deep.as_bytes()));
    assert_eq!(refusal.kind(), RefusalKind::Nesting);
    assert_eq!(refusal.limit().map(Fragment::as_str), Some("64"));
    assert_eq!(
        refusal.message(),
        "refused: tool 'knowledge.search': the arguments exceed maxNesting 64 (byte 95)"
    );
    let malformed = refusal_of(call(&set, &resolver, "knowledge.search", b"{\"query\": }"));
    assert_eq!(malformed.kind(), RefusalKind::Malformed);
    assert_eq!(malformed.offset(), Some(10));
    // What only the parser catches is refused as malformed too: invalid UTF-8.
    let bad_utf8 = refusal_of(call(
        &set,
        &resolver,
        "knowledge.search",
        b"{\"projectId\": \"atlas\", \"query\": \"\xff\"}",
    ));
    assert_eq!(bad_utf8.kind(), RefusalKind::Malformed);
}

#[test]
fn schema_refusals_carry_the_constraint_and_its_limit() {
    let (set, resolver) = mcp();
    let cases: &[(&str, &str, &str, &str, Option<&str>)] = &[
        (
            "knowledge.search",
            r#"{"projectId": "atlas"}"#,
            "required",
            "/query",
            None,
        ),
        (
            "knowledge.search",
            r#"{"projectId": "atlas", "query": "q", "limit": 500}"#,
            "maximum",
            "/limit",
            Some("100"),
        ),
        (
            "knowledge.search",
            r#"{"projectId": "atlas", "query": "q", "cursor": 5}"#,
            "type",
            "/cursor",
            Some("null|string"),
        ),
        (
            "proposal.create",
            r#"{"projectId": "atlas", "path": "a", "body": "", "labels": ["ok", "NOT OK"]}"#,
            "pattern",
            "/labels/1",
            Some("^[a-z0-9-]{1,32}$"),
        ),
    ];
    for (tool, body, keyword, path, limit) in cases {
        let refusal = refusal_of(call(&set, &resolver, tool, body.as_bytes()));
        assert_eq!(refusal.keyword(), *keyword, "{body}");
        assert_eq!(refusal.path().map(Fragment::as_str), Some(*path), "{body}");
        assert_eq!(refusal.limit().map(Fragment::as_str), *limit, "{body}");
        assert_bounded(&refusal, body.as_bytes());
    }
}

#[test]
fn an_unknown_schema_name_is_an_error_not_a_refusal() {
    let set = load("mcp");
    assert!(matches!(
        verdict(&set, "nowhere.json", b"{}"),
        Err(ValidationError::UnknownSchema { .. })
    ));
}

// --- the composed ceiling, driven -----------------------------------------------

/// JSON text escaped to ASCII (an astral character as a surrogate pair), with the
/// widest separators.
fn render_ascii(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => render_ascii_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                render_ascii(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                render_ascii_string(key, out);
                out.push_str(": ");
                render_ascii(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn render_ascii_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

/// JSON text with Rust's `escape_default` for strings (`\u{…}` escapes).
fn render_braced(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push('"');
            out.extend(text.chars().flat_map(char::escape_default));
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                render_braced(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                render_braced(&Value::String(key.clone()), out);
                out.push_str(": ");
                render_braced(item, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn widest_render(document: &[u8]) -> Option<usize> {
    let value: Value = serde_json::from_slice(document).ok()?;
    let mut ascii = String::new();
    render_ascii(&value, &mut ascii);
    let mut braced = String::new();
    render_braced(&value, &mut braced);
    Some(ascii.len().max(braced.len()))
}

#[test]
fn the_worst_instance_at_the_bounds_renders_under_the_composed_ceiling() {
    // Every node an object member holding an empty container — the most punctuation a
    // node can carry — plus one string of the widest-escaping class filling the
    // remaining charge.
    let members = (MAX_NODES - 2) as usize; // the root object and the string
    let mut body = String::from("{");
    let mut charge = 0u64;
    for index in 0..members {
        let key = format!("{index:x}");
        charge += key.len() as u64 + 2;
        body.push_str(&format!("\"{key}\":[],"));
    }
    // The string's key "" costs 2, its quotes 2; every U+0001 costs 6 as `\u0001`.
    let remaining = MAX_RENDERED_CHARS - charge - 4;
    let controls = remaining / 6;
    body.push_str("\"\":\"");
    body.push_str(&"\\u0001".repeat(controls as usize));
    body.push_str("\"}");
    let measure = bounds::check(body.as_bytes());
    let measure = match measure {
        Ok(measure) => measure,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(measure.nodes, MAX_NODES);
    assert!(MAX_RENDERED_CHARS - measure.rendered < 6, "{measure:?}");
    let rendered = widest_render(body.as_bytes()).unwrap_or(usize::MAX) as u64;
    assert!(
        rendered <= measure.composed_width(),
        "{rendered} > {measure:?}"
    );
    assert!(rendered <= COMPOSED_CEILING);
    // Tight: the punctuation allowance is nearly used.
    assert!(COMPOSED_CEILING - rendered < MAX_NODES, "{rendered}");
}

// --- properties -----------------------------------------------------------------

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z]{60,200}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn document_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Arbitrary bytes, mostly not JSON.
        prop::collection::vec(any::<u8>(), 0..256),
        // JSON values, compact or pretty.
        json_value().prop_map(|v| serde_json::to_vec(&v).unwrap_or_default()),
        json_value().prop_map(|v| serde_json::to_vec_pretty(&v).unwrap_or_default()),
        // Tool-call shaped objects with arbitrary extra keys and values.
        (json_value(), any::<String>(), "[a-z]{0,80}").prop_map(|(v, key, query)| {
            let mut object = serde_json::Map::new();
            object.insert("projectId".into(), Value::from("atlas"));
            object.insert("query".into(), Value::from(query));
            object.insert(key, v);
            serde_json::to_vec(&Value::Object(object)).unwrap_or_default()
        }),
        // Valid JSON with a byte flipped.
        (json_value(), any::<usize>(), any::<u8>()).prop_map(|(v, at, byte)| {
            let mut bytes = serde_json::to_vec(&v).unwrap_or_default();
            if !bytes.is_empty() {
                let index = at % bytes.len();
                bytes[index] = byte;
            }
            bytes
        }),
    ]
}

/// 4,096 cases per property by default; `PROPTEST_CASES` asks for a longer run.
fn property_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(4096)
}

fn tool_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("knowledge.search".to_string()),
        Just("knowledge.get".to_string()),
        Just("proposal.create".to_string()),
        any::<String>(),
        "[a-z.]{60,300}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: property_cases(), ..ProptestConfig::default() })]

    #[test]
    fn any_call_gives_a_bounded_verdict_that_echoes_nothing(
        tool in tool_name(),
        document in document_bytes(),
    ) {
        let (set, resolver) = mcp_cached();
        let verdict = check_call(set, resolver, &tool, &document);
        prop_assert!(verdict.is_ok(), "{verdict:?}");
        if let Ok(Verdict::Refused(refusal)) = verdict {
            let message = refusal.message();
            prop_assert!(message.len() <= REFUSAL_CEILING);
            prop_assert!(message.bytes().all(|b| (0x20..0x7F).contains(&b)));
            prop_assert!(!echoes(message, &document), "{message}");
            prop_assert!(!echoes(message, tool.as_bytes()), "{message}");
        }
    }

    #[test]
    fn the_scan_agrees_with_the_parser_and_bounds_the_render(document in document_bytes()) {
        let loose = Limits { max_nodes: u64::MAX, max_rendered: u64::MAX, ..Limits::DEFAULT };
        let scanned: Result<Measure, _> = bounds::check_with(&document, loose);
        let parsed = serde_json::from_slice::<Value>(&document);
        if parsed.is_ok() {
            // Everything the parser accepts the scanner measures (no false
            // refusal), but for a number the parser would round, or one longer
            // than the core compares: those are refused on purpose.
            prop_assert!(
                matches!(
                    scanned,
                    Ok(_) | Err(BoundsError::Inexact { .. } | BoundsError::NumberLength { .. })
                ),
                "{scanned:?}"
            );
        }
        if let (Ok(measure), Some(width)) = (scanned, widest_render(&document)) {
            prop_assert!(width as u64 <= measure.composed_width(), "{width} > {measure:?}");
        }
    }
}

fn mcp_cached() -> (&'static SchemaSet, &'static ToolResolver) {
    static SET: std::sync::OnceLock<(SchemaSet, ToolResolver)> = std::sync::OnceLock::new();
    let (set, resolver) = SET.get_or_init(mcp);
    (set, resolver)
}

// --- loading from a source subtree -----------------------------------------------

struct MemorySnapshot {
    paths: Vec<String>,
    files: std::collections::BTreeMap<String, std::sync::Arc<[u8]>>,
}

impl SchemaSource for MemorySnapshot {
    fn paths(&self) -> &[String] {
        &self.paths
    }
    fn read(&self, path: &str) -> std::io::Result<Option<std::sync::Arc<[u8]>>> {
        Ok(self.files.get(path).cloned())
    }
}

#[test]
fn a_snapshot_subtree_loads_with_names_relative_to_it() {
    let mut files = std::collections::BTreeMap::new();
    for name in [
        "tool-context.schema.json",
        "knowledge-get-input.schema.json",
    ] {
        let bytes = std::fs::read(fixtures().join("mcp").join(name)).unwrap_or_default();
        files.insert(format!("schemas/mcp/{name}"), std::sync::Arc::from(bytes));
    }
    files.insert(
        "schemas/README.md".to_string(),
        std::sync::Arc::from(&b"# notes"[..]),
    );
    files.insert(
        "other/x.json".to_string(),
        std::sync::Arc::from(&b"not even json"[..]),
    );
    let snapshot = MemorySnapshot {
        paths: files.keys().cloned().collect(),
        files,
    };
    let set = match SchemaSet::from_source(&snapshot, "schemas/mcp/") {
        Ok(set) => set,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(
        set.files().collect::<Vec<_>>(),
        vec![
            "knowledge-get-input.schema.json",
            "tool-context.schema.json"
        ]
    );
    let resolver = ToolResolver::default();
    assert_eq!(
        call(
            &set,
            &resolver,
            "knowledge.get",
            br#"{"projectId": "atlas", "itemId": "n"}"#
        ),
        Verdict::Accepted
    );
    // The whole snapshot includes the file that is not JSON, which fails, located.
    let error = SchemaSet::from_source(&snapshot, "").err();
    assert_eq!(error.map(|e| e.file), Some("other/x.json".to_string()));
}

// --- standing alone ----------------------------------------------------------------

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(error) => panic!("{}: {error}", dir.display()),
    };
    for entry in listing.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// A crate-root path prefix, spelled in two pieces so that this file, which the rule
/// reads too, does not trip it.
const CRATE_ROOT: &str = concat!("crate", "::");

/// The places in `text` where a crate-root path names something other than the
/// validation module itself, as `line: text`.
fn crate_paths_outside_validation(text: &str) -> Vec<String> {
    let mut outside = Vec::new();
    for (number, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices(CRATE_ROOT) {
            let rest = &line[at + CRATE_ROOT.len()..];
            let named = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            if named != "validation" {
                outside.push(format!("{}: {}", number + 1, line.trim()));
            }
        }
    }
    outside
}

#[test]
fn the_rule_finds_a_path_out_of_the_core() {
    let found = |tail: &str| crate_paths_outside_validation(&format!("{CRATE_ROOT}{tail}"));
    assert!(found("validation::bounds;").is_empty());
    assert!(found("validation::Verdict").is_empty());
    for tail in [
        "snapshot::Snapshot;",
        "{validation, error};",
        "validation_extra::f()",
        "error::Result",
    ] {
        assert_eq!(found(tail).len(), 1, "{tail}");
    }
    let two = format!("use {CRATE_ROOT}validation::Verdict; use {CRATE_ROOT}facts::Env;");
    assert_eq!(crate_paths_outside_validation(&two).len(), 1, "{two}");
}

// An MCP server embeds this core built with `--no-default-features`, where nothing
// else in the crate exists; a path out of it would break that build, and this test
// says so in the default build too, where such a path would otherwise compile.
#[test]
fn the_core_names_nothing_else_in_the_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/validation");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("schema_set.rs")),
        "{files:?}"
    );
    let mut outside = Vec::new();
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(error) => panic!("{}: {error}", file.display()),
        };
        for place in crate_paths_outside_validation(&text) {
            outside.push(format!("{}:{place}", file.display()));
        }
    }
    assert!(
        outside.is_empty(),
        "src/validation/ must name nothing in the crate but the validation module:\n{}",
        outside.join("\n")
    );
}

// --- the borrowed document against serde_json's Value -----------------------------

/// One schema with most keywords of Draft 2020-12, each on a property the generated
/// documents use, so the two representations are compared keyword by keyword.
const EVERY_KEYWORD: &str = r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:every-keyword",
  "$defs": { "small": { "type": "integer", "maximum": 3 } },
  "properties": {
    "a": { "enum": [1, "1", [1, { "x": 1.0 }], { "y": [null] }, true] },
    "b": { "const": { "k": [1, 2.0] } },
    "c": {
      "type": "array", "uniqueItems": true, "prefixItems": [{ "type": "number" }],
      "contains": { "$ref": "#/$defs/small" }, "maxContains": 2
    },
    "d": { "type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]" },
    "e": { "multipleOf": 0.5, "exclusiveMinimum": -10, "maximum": 1e6 },
    "f": { "format": "date" },
    "g": { "if": { "type": "string" }, "then": { "minLength": 1 }, "else": { "type": "integer" } },
    "h": {
      "not": { "type": "null" },
      "anyOf": [{ "type": "array", "items": { "$ref": "#" } }, { "type": "object", "propertyNames": { "maxLength": 1 } }]
    },
    "i": { "oneOf": [{ "type": "integer" }, { "minimum": 0 }] }
  },
  "patternProperties": { "^x": { "type": "boolean" } },
  "dependentRequired": { "a": ["b"] },
  "dependentSchemas": { "c": { "required": ["d"] } },
  "minProperties": 1,
  "maxProperties": 6,
  "items": { "$ref": "#/$defs/small" },
  "unevaluatedProperties": { "type": ["integer", "string"] }
}"##;

/// Values whose keys are the schema's property names (and a few others), with
/// leaves that sit on either side of its bounds.
fn keyword_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-12i64..12).prop_map(Value::from),
        prop::sample::select(vec![0.5, 1.0, 2.0, -0.25, 1e7, 2.5]).prop_map(Value::from),
        "[a-zA-Z1é]{0,6}".prop_map(Value::String),
        Just(Value::from("2026-12-03")),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-ikxz]{1,2}", inner, 0..7)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Each error as the core reads it: where, which keyword, and its kind in full.
fn error_list<'i>(errors: impl Iterator<Item = jsonschema::ValidationError<'i>>) -> Vec<String> {
    errors
        .map(|error| {
            format!(
                "{} {} {:?}",
                error.instance_path().as_str(),
                error.schema_path().as_str(),
                error.kind()
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: property_cases(), ..ProptestConfig::default() })]

    /// The core validates a [`Document`] where the crate's own path validates a
    /// `Value`: the verdicts and every error, in order, must be the same.
    #[test]
    fn the_document_validates_as_the_value_does(value in keyword_value()) {
        static SCHEMAS: std::sync::OnceLock<(SchemaSet, jsonschema::Validator)> =
            std::sync::OnceLock::new();
        let (set, by_value) = SCHEMAS.get_or_init(|| {
            let set = SchemaSet::from_files([("every.json", EVERY_KEYWORD)])
                .unwrap_or_else(|error| panic!("{error}"));
            let schema: Value = serde_json::from_str(EVERY_KEYWORD).unwrap_or_default();
            let by_value = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .build(&schema)
                .unwrap_or_else(|error| panic!("{error}"));
            (set, by_value)
        });
        let by_document = set.get("every.json").map(LoadedSchema::validator);
        let Some(by_document) = by_document else {
            panic!("the schema is in its set");
        };
        let bytes = serde_json::to_vec(&value).unwrap_or_default();
        let document = keys::parse_unique(&bytes);
        prop_assert!(document.is_ok(), "{document:?}");
        let Ok(document) = document else { unreachable!() };
        let reparsed: Value = serde_json::from_slice(&bytes).unwrap_or_default();
        prop_assert_eq!(document.to_value(), reparsed.clone());
        prop_assert_eq!(by_document.is_valid(&document), by_value.is_valid(&reparsed));
        prop_assert_eq!(
            error_list(by_document.iter_errors(&document)),
            error_list(by_value.iter_errors(&reparsed))
        );
    }
}

/// A server shares one set across its worker threads; the representation the
/// schemas compile for must not take that away.
#[test]
fn a_schema_set_can_be_shared_across_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<SchemaSet>();
    shared::<ToolResolver>();
}
