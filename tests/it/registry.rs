//! The registries are the single source: the fact kinds (`fact_kinds!`) and the
//! check ids (`checks!`) are held here to the schemas that publish them and to
//! the book's generated tables (tests/it/book.rs), so adding a kind or a check
//! without updating those fails a test rather than a user.

use std::collections::BTreeSet;

use serde_json::Value;

use recount::checks::{CheckId, Severity};
use recount::facts::{FactKind, FactParams};
use recount::rules::model::FactRule;

fn rules_schema() -> Value {
    serde_json::from_str(recount::rules::load::RULES_SCHEMA).expect("rules schema")
}

/// The parameters a kind's typed struct takes, as its own refusal lists them:
/// a probe key it cannot take makes serde name every key it can.
pub(crate) fn kind_parameters(kind: &str) -> BTreeSet<String> {
    let text = format!("{{ {kind} = 'x', zz_probe = 1 }}");
    let table = toml::de::ValueDeserializer::parse(&text).expect("inline table");
    let source = recount::rules::RuleSource::new("probe.toml".to_owned(), text.clone());
    let error = FactParams::deserialize(kind, table, &source)
        .expect("a registered kind")
        .expect_err("the probe key is refused");
    let message = error.to_string();
    let expected = message
        .split_once("expected ")
        .unwrap_or_else(|| panic!("{kind}: {message}"))
        .1;
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_fact_kinds_are_the_schema_kinds_in_order() {
    let schema = rules_schema();
    let one_of: Vec<&str> = schema["$defs"]["fact"]["oneOf"]
        .as_array()
        .expect("oneOf")
        .iter()
        .filter_map(|alt| alt["required"][0].as_str())
        .collect();
    assert_eq!(one_of, FactKind::NAMES);
}

#[test]
fn the_schema_fact_keys_are_the_shared_keys_and_every_kind_parameter() {
    let schema = rules_schema();
    let properties: BTreeSet<String> = schema["$defs"]["fact"]["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .cloned()
        .collect();
    let mut from_code: BTreeSet<String> = FactRule::SHARED_KEYS
        .iter()
        .map(|k| (*k).to_owned())
        .collect();
    for kind in FactKind::NAMES {
        let parameters = kind_parameters(kind);
        assert!(parameters.contains(*kind), "{kind} takes its own key");
        from_code.extend(parameters);
    }
    assert_eq!(properties, from_code);
}

#[test]
fn the_recomputing_checks_are_errors() {
    // A check that reads prose heuristically may warn; one that recomputes must
    // not: the recomputed-fact checks stay errors.
    for check in [
        CheckId::FactDrift,
        CheckId::EqualsMismatch,
        CheckId::StalePin,
    ] {
        assert_eq!(check.severity(), Severity::Error, "{check}");
    }
}

#[test]
fn every_explain_text_starts_with_its_id() {
    for check in CheckId::ALL {
        assert!(
            check
                .explain()
                .starts_with(&format!("{}: ", check.as_str())),
            "{check}"
        );
    }
}

#[test]
fn the_report_schema_allows_every_severity() {
    let schema: Value =
        serde_json::from_str(recount::report::json::REPORT_SCHEMA).expect("report schema");
    let allowed: BTreeSet<&str> = schema["$defs"]["finding"]["properties"]["severity"]["enum"]
        .as_array()
        .expect("enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let used: BTreeSet<&str> = CheckId::ALL.iter().map(|c| c.severity().as_str()).collect();
    assert!(used.is_subset(&allowed), "{used:?} ⊄ {allowed:?}");
    assert_eq!(
        allowed,
        BTreeSet::from([Severity::Warning.as_str(), Severity::Error.as_str()])
    );
}

#[test]
fn the_rules_schema_checks_table_takes_every_check_id_in_order() {
    let schema = rules_schema();
    let checks = &schema["properties"]["checks"];
    assert_eq!(checks["additionalProperties"], Value::Bool(false));
    let keys: Vec<&str> = checks["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    let registered: Vec<&str> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
    let mut sorted = registered.clone();
    sorted.sort_unstable();
    // serde_json's map sorts keys unless preserve_order is on: compare as sets too.
    assert!(keys == registered || keys == sorted, "{keys:?}");
    let levels: Vec<&str> = schema["$defs"]["level"]["enum"]
        .as_array()
        .expect("enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(levels, ["error", "warning", "off"]);
}

/// The exemption ids, in the registry's precedence order.
fn exemption_ids() -> Vec<String> {
    recount::checks::cites::exemptions::Exemption::ALL
        .iter()
        .map(|e| e.id().to_owned())
        .collect()
}

#[test]
fn the_schemas_list_every_exemption_in_precedence_order() {
    let ids = exemption_ids();
    let enum_of = |schema: &Value| -> Vec<String> {
        schema["$defs"]["exemption"]["enum"]
            .as_array()
            .expect("an exemption enum")
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(enum_of(&rules_schema()), ids);
    let cites: Value =
        serde_json::from_str(recount::report::json::CITES_SCHEMA).expect("cites schema");
    assert_eq!(enum_of(&cites), ids);
}

#[test]
fn explain_lists_every_exemption_as_the_registry_defines_it() {
    use recount::checks::cites::exemptions::Exemption;
    let explained = recount::checks::CheckId::StalePathCite.explain();
    let unwrapped = explained.split_whitespace().collect::<Vec<_>>().join(" ");
    for e in Exemption::ALL {
        assert!(
            explained.contains(&format!("    {} (", e.id())),
            "{}",
            e.id()
        );
        let doc = e.doc().split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(unwrapped.contains(&doc), "{}", e.id());
    }
}

/// Every `.rs` file under `dir`, with its text.
fn sources_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(sources_under(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            out.push((path, text));
        }
    }
    out
}

/// The top-level module (`snapshot`, `facts`, `error`) a file of `src/` is
/// in; `None` for the crate's roots.
fn top_module(src: &std::path::Path, path: &std::path::Path) -> Option<String> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
    (name != "lib" && name != "main").then_some(name)
}

#[test]
fn no_two_top_level_modules_import_each_other_round_a_cycle() {
    // DESIGN.md: the stages stand on the ground floor and each other in one
    // direction; a cycle between top-level folders (three lines of
    // hostile-input work once made one of seven) ties them into one.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources_under(&src);
    let tops: std::collections::BTreeSet<String> = files
        .iter()
        .filter_map(|(path, _)| top_module(&src, path))
        .collect();
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        std::collections::BTreeMap::new();
    for (path, text) in &files {
        let Some(from) = top_module(&src, path) else {
            continue;
        };
        // The unit tests may read what the code may not; comments name
        // modules without importing them.
        let code = text.split("#[cfg(test)]").next().unwrap_or(text);
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if name != from && tops.contains(&name) {
                    edges.entry(from.clone()).or_default().insert(name);
                }
            }
        }
    }
    // A module that reaches itself through the others is on a cycle.
    let reaches = |start: &String| {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack: Vec<&String> = edges.get(start).into_iter().flatten().collect();
        while let Some(next) = stack.pop() {
            if seen.insert(next.clone()) {
                stack.extend(edges.get(next).into_iter().flatten());
            }
        }
        seen
    };
    let cyclic: Vec<String> = tops
        .iter()
        .filter(|t| reaches(t).contains(*t))
        .cloned()
        .collect();
    assert!(
        cyclic.is_empty(),
        "top-level modules on an import cycle: {cyclic:?} ({edges:?})"
    );
}

#[test]
fn the_checks_and_the_frames_import_nothing_of_the_engine() {
    // The engine (`audit`) runs the stages; the checks, the families they
    // gather and the frames they read sit below it, so an import the other way
    // would make the stages a cycle again.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = sources_under(&src.join("checks"));
    files.push((
        src.join("frames.rs"),
        std::fs::read_to_string(src.join("frames.rs")).expect("frames.rs"),
    ));
    let offenders: Vec<String> = files
        .iter()
        .filter(|(_, text)| text.contains("crate::audit::") || text.contains("use crate::audit"))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "import the engine: {offenders:?}");
}

/// The files of `src/` (as `sources_under`) whose text names any of `paths`
/// in a `use` or a `crate::` path.
fn importers(files: &[(std::path::PathBuf, String)], paths: &[&str]) -> Vec<String> {
    files
        .iter()
        .filter(|(_, text)| {
            // The unit tests may read what the code may not.
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            paths.iter().any(|p| {
                code.lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .any(|l| l.contains(p))
            })
        })
        .map(|(path, _)| path.display().to_string())
        .collect()
}

#[test]
fn the_ground_floor_and_the_citation_model_import_nothing_above_them() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |rel: &str| {
        let path = src.join(rel);
        let text = std::fs::read_to_string(&path).expect(rel);
        (path, text)
    };
    // The snapshot reads trees; rule files are a stage above it.
    let snapshot = sources_under(&src.join("snapshot"));
    let up = importers(
        &snapshot,
        &["crate::rules", "crate::checks", "crate::report"],
    );
    assert!(
        up.is_empty(),
        "the snapshot imports a stage above it: {up:?}"
    );
    // No check imports the report: findings are data, rendered above them.
    let checks = sources_under(&src.join("checks"));
    let up = importers(&checks, &["crate::report", "crate::cli"]);
    assert!(up.is_empty(), "a check imports the report: {up:?}");
    // The shared leaf types import nothing of the pipeline.
    let pipeline = [
        "crate::rules",
        "crate::checks",
        "crate::report",
        "crate::records",
        "crate::facts",
        "crate::claims",
        "crate::frames",
        "crate::snapshot",
        "crate::audit",
    ];
    let leaves: Vec<_> = ["escape.rs", "lines.rs", "source.rs", "spelling.rs"]
        .iter()
        .map(|f| read(f))
        .collect();
    let up = importers(&leaves, &pipeline);
    assert!(
        up.is_empty(),
        "a ground-floor module imports the pipeline: {up:?}"
    );
    // The citation family's model imports nothing else of the family.
    let model = [read("checks/cites/model.rs")];
    let up = importers(&model, &["super::", "crate::checks"]);
    assert!(
        up.is_empty(),
        "the citation model imports its family: {up:?}"
    );
}

#[test]
fn every_exemption_decides_in_its_own_file_with_tests_both_ways() {
    // One file per exemption id, named by it, holding a unit test where it
    // fires and one where it stays quiet.
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks/cites/exemptions");
    for e in recount::checks::cites::exemptions::Exemption::ALL {
        let file = folder.join(format!("{}.rs", e.id().replace('-', "_")));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|_| panic!("{} has no file of its own", e.id()));
        assert!(
            text.starts_with(&format!("//! Exemption `{}`", e.id())),
            "{}: its file's first line names another id",
            e.id()
        );
        let tests = text.split("#[cfg(test)]").nth(1).unwrap_or_default();
        assert!(
            tests.contains("fn fires") && tests.contains("quiet"),
            "{} needs a unit test where it fires and one where it stays quiet",
            e.id()
        );
    }
    // Nothing outside the exemption files builds a skip by hand: a resolver
    // asks the registry (`ask`, or the path and link chains), so the
    // decision stays in the exemption's file.
    let cites =
        sources_under(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/checks/cites"));
    let inline: Vec<String> = cites
        .iter()
        .filter(|(path, _)| !path.to_string_lossy().contains("/exemptions/"))
        .filter(|(path, _)| !path.ends_with("model.rs"))
        .filter(|(_, text)| {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            let built = regex::Regex::new(r"Skipped\s*\{\s*exemption:\s*Exemption::\w+,\s*why")
                .expect("a fixed pattern");
            code.contains("skipped(Exemption::") || built.is_match(code)
        })
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(
        inline.is_empty(),
        "an exemption decided outside its file: {inline:?}"
    );
}

/// `text` with its comments, string literals and character literals blanked
/// (same length, newlines kept), so braces and names in them do not count.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let blank = |out: &mut String, piece: &str| {
        out.extend(piece.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
    };
    while at < bytes.len() {
        let rest = &text[at..];
        let after_word = at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let end = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |e| e + 2)
        } else if !after_word
            && (rest.starts_with("r#") || rest.starts_with("r\"") || rest.starts_with("br"))
        {
            let start = rest.find('"').unwrap_or(0);
            let hashes = &rest[rest.find(['#', '"']).unwrap_or(0)..start];
            let close = format!("\"{hashes}");
            if hashes.chars().all(|c| c == '#') && start > 0 && start <= 3 + hashes.len() {
                rest[start + 1..]
                    .find(&close)
                    .map_or(rest.len(), |e| start + 1 + e + close.len())
            } else {
                0
            }
        } else if rest.starts_with('"') {
            let mut i = 1;
            while i < rest.len() && rest.as_bytes()[i] != b'"' {
                i += if rest.as_bytes()[i] == b'\\' { 2 } else { 1 };
            }
            (i + 1).min(rest.len())
        } else if let Some(body) = rest.strip_prefix('\'') {
            // A character literal ('x', '\n', '\u{1b}'), not a lifetime ('a).
            let quote = if let Some(escaped) = body.strip_prefix('\\') {
                escaped.find('\'').map(|e| e + 1)
            } else {
                body.char_indices()
                    .nth(1)
                    .filter(|(_, c)| *c == '\'')
                    .map(|(i, _)| i)
            };
            quote.map_or(0, |q| q + 2)
        } else {
            0
        };
        if end == 0 {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            at += c.len_utf8();
        } else {
            blank(&mut out, &rest[..end]);
            at += end;
        }
    }
    out
}

/// The functions of `source` that take a tree-sitter `Node` and can reach
/// themselves again (a call of their own name, as `self.name` / `Self::name`,
/// or through other functions of the file: mutual recursion) along calls
/// none of which takes the shared depth budget, `limits::Depth`, or spends
/// it (a walker that keeps the budget in its reader checks
/// `depth.deeper().exhausted()`): (line, name).
fn unbudgeted_walkers(source: &str) -> Vec<(usize, String)> {
    let code = code_only(source);
    // (line, name, signature, body) of every function with a body.
    let mut functions: Vec<(usize, String, &str, &str)> = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|i| from + i) {
        from = at + 3;
        if at > 0
            && (code.as_bytes()[at - 1].is_ascii_alphanumeric() || code.as_bytes()[at - 1] == b'_')
        {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The signature runs to the body's `{` (or a `;`: no body).
        let Some(open) = code[at..].find(['{', ';']).map(|i| at + i) else {
            break;
        };
        if code.as_bytes()[open] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut close = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let line = code[..at].matches('\n').count() + 1;
        functions.push((line, name, &code[at..open], &code[open + 1..close]));
    }
    let calls = |body: &str, name: &str| {
        body.match_indices(&format!("{name}(")).any(|(i, _)| {
            let before = &body[..i];
            let plain = !before
                .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':');
            plain || before.ends_with("self.") || before.ends_with("Self::")
        })
    };
    // The call graph among the functions that take no budget: a cycle there
    // is a recursion whose depth nothing counts.
    let unbudgeted: Vec<usize> = (0..functions.len())
        .filter(|&f| !functions[f].2.contains("Depth") && !functions[f].3.contains(".exhausted()"))
        .collect();
    let callees: Vec<Vec<usize>> = unbudgeted
        .iter()
        .map(|&f| {
            (0..unbudgeted.len())
                .filter(|&g| calls(functions[f].3, &functions[unbudgeted[g]].1))
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    for (start, &f) in unbudgeted.iter().enumerate() {
        if !functions[f].2.contains("Node<") {
            continue;
        }
        let mut seen = vec![false; unbudgeted.len()];
        let mut stack = callees[start].clone();
        while let Some(g) = stack.pop() {
            if g == start {
                found.push((functions[f].0, functions[f].1.clone()));
                break;
            }
            if !std::mem::replace(&mut seen[g], true) {
                stack.extend(&callees[g]);
            }
        }
    }
    found
}

#[test]
fn the_walker_scan_finds_a_recursive_walker_without_the_budget() {
    let unbudgeted = "fn walk(node: Node<'_>) {\n    // walk(\n    for c in children(node) { walk(c); }\n}\n\
                      fn string(node: Node<'_>) -> &str { \"walk({\" }\n\
                      fn budgeted(node: Node<'_>, depth: Depth) { budgeted(node, depth.deeper()) }\n\
                      impl R { fn visit(&mut self, node: Node<'_>) { self.visit(node) } }\n\
                      fn named(node: Node<'_>) -> Vec<Node<'_>> { node.named(&mut c).collect() }\n\
                      fn item(node: Node<'_>) { block(node) }\n\
                      fn block(node: Node<'_>) { for c in kids(node) { item(c) } }\n\
                      fn entry(node: Node<'_>, depth: Depth) { helper(node) }\n\
                      fn helper(node: Node<'_>) { entry(node, Depth::new()) }\n\
                      fn node(&mut self, node: Node<'_>) { if self.depth.deeper().exhausted() { return; } self.visit_kind(node) }\n\
                      fn visit_kind(&mut self, node: Node<'_>) { self.node(node) }\n";
    assert_eq!(
        unbudgeted_walkers(unbudgeted),
        [
            (1, "walk".to_owned()),
            (7, "visit".to_owned()),
            (9, "item".to_owned()),
            (10, "block".to_owned())
        ]
    );
}

#[test]
fn every_recursive_walker_over_tree_sitter_nodes_takes_the_depth_budget() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut walkers = 0;
    for (path, text) in sources_under(&src) {
        let found = unbudgeted_walkers(&text);
        offenders.extend(
            found
                .into_iter()
                .map(|(line, name)| format!("{}:{line} {name}", path.display())),
        );
        walkers += text.matches(": Depth").count();
    }
    assert!(
        offenders.is_empty(),
        "recursive walkers over tree-sitter nodes without `limits::Depth` (a hostile input \
         controls how deep they go):\n{}",
        offenders.join("\n")
    );
    // The scan reads the sources it should: the walkers that take the budget.
    assert!(walkers >= 15, "{walkers} parameters of type Depth found");
}
