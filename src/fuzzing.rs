//! Entry points for the fuzz targets in `fuzz/` and for the corpus replay test
//! (`tests/it/fuzz_corpus.rs`): each takes arbitrary bytes, runs one stage of the
//! pipeline that reads text a pull request controls, and throws the result away.
//! Outside the pipeline proper: nothing calls these but fuzzers and that test. The
//! only failure they can show is a panic (or a hang), which is the point.
//!
//! Kept to one function per target so the fuzz crate needs nothing else public.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::snapshot::memory::MemorySnapshot;

/// A fuzz target: arbitrary bytes in, nothing out but a possible panic.
pub type Target = fn(&[u8]);

/// The fuzz targets, by the name of their corpus folder under `fuzz/corpus/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("rule_file", rule_file),
    ("prose_values", prose_values),
    ("cites", cites),
    ("rst_cites", rst_cites),
    ("constants", constants),
    ("validation_bounds", validation_bounds),
    ("transcripts", transcripts),
    ("human_report", human_report),
    ("expressions", expressions),
    ("sphinx_conf", sphinx_conf),
    ("test_defs", test_defs),
    ("python_objects", python_objects),
];

/// The rule loader and resolver: TOML, the schema check, typed deserialisation,
/// then every regex, glob and expression compiled. Includes are not followed
/// (the text has no file of its own), which `load_text` already ensures.
pub fn rule_file(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(set) = crate::rules::load::load_text("fuzz.toml", text) {
        let _ = crate::rules::resolve(set);
    }
}

/// The prose view of a record with its offset map back to the raw text, the
/// claim value grammar over every line of that prose, and the record's
/// suppression directives.
pub fn prose_values(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let record = crate::records::Record::new("fuzz.md", Arc::from(text.as_ref()));
    let prose = record.prose();
    let view = prose.text();
    let mut start = 0;
    for line in view.split_inclusive('\n') {
        let end = start + line.len();
        let raw = prose.to_raw(start..end);
        assert!(raw.start <= raw.end && raw.end <= record.text.len());
        let _ = record.line_col(raw.start);
        let _ = crate::claims::value::parse_stated(line.trim());
        start = end;
    }
    let _ = crate::claims::value::parse_stated(&text);
    let _ = crate::claims::value::parse_verdict(&text);
    // The suppression directives, read from the same structure.
    let known: Vec<&str> = crate::checks::CheckId::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    let directives = crate::records::suppressions::directives(
        "fuzz.md",
        &record.text,
        record.markdown(),
        &known,
    );
    for d in directives.unwrap_or_default() {
        assert!(d.comment.end <= record.text.len());
        assert!(
            d.block
                .is_none_or(|b| b.start >= d.comment.end && b.end <= record.text.len())
        );
    }
}

/// The citation finder over a record, with the default conventions.
pub fn cites(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let options = crate::checks::cites::find::CiteOptions::default();
    for cite in crate::checks::cites::find::find_cites(&text, &options) {
        let _ = cite.cite_text();
    }
}

/// The reStructuredText reader, then the citation finder over what it read.
pub fn rst_cites(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let structure = crate::records::rst::parse(&text);
    let options = crate::checks::cites::find::CiteOptions::default();
    for cite in crate::checks::cites::find::find_cites_in(&text, &structure, &options) {
        let _ = cite.cite_text();
    }
}

/// The constant readers: the first byte picks the language (Python, Rust,
/// TypeScript, Go), the rest is the source file; every identifier it holds (the
/// first 16) is resolved and counted as a literal collection.
pub fn constants(bytes: &[u8]) {
    let Some((&pick, source)) = bytes.split_first() else {
        return;
    };
    let file = ["fuzz.py", "fuzz.rs", "fuzz.ts", "fuzz.go"][usize::from(pick % 4)];
    let text = String::from_utf8_lossy(source).into_owned();
    let names = identifiers(&text, 16);
    let snapshot = MemorySnapshot::of([(file.to_owned(), text)]);
    let constants = crate::constants::Constants::new(Arc::new(snapshot));
    for name in &names {
        let _ = constants.resolve(name, Some(file));
        let _ = constants.literal_entries(file, name);
    }
}

/// The Sphinx `conf.py` reader, read statically (never run) within its parse
/// and depth budgets, then every question the citation family asks of it.
pub fn sphinx_conf(bytes: &[u8]) {
    use crate::records::sphinx_conf::SphinxConf;
    let text = String::from_utf8_lossy(bytes);
    let conf = SphinxConf::of(&text);
    let _ = conf.has_intersphinx();
    let _ = conf.documents_through_intersphinx();
    for name in identifiers(&text, 16) {
        let _ = conf.may_load(&name);
    }
    // A file read in part is said so, and then nothing it may set is taken
    // as unset.
    if conf.unread.is_some() {
        assert!(conf.extensions_unknown && conf.writes_files);
    }
}

/// The test-definition readers: the first byte picks Python or Rust, the
/// rest is the test file. Every definition found sits on a line the file
/// has, and is then asked for by name and by a near name.
pub fn test_defs(bytes: &[u8]) {
    use crate::checks::cites::testdefs::{self, TestLanguage};
    let Some((&pick, source)) = bytes.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(source);
    let language = if pick % 2 == 0 {
        TestLanguage::Python
    } else {
        TestLanguage::Rust
    };
    let defs = match language {
        TestLanguage::Python => testdefs::python_tests(&text),
        TestLanguage::Rust => testdefs::rust_tests(&text),
    };
    let lines = text.lines().count().max(1);
    for def in defs.iter().take(16) {
        assert!(
            (1..=lines).contains(&def.line),
            "{} at line {} of {lines}",
            def.qualified(),
            def.line
        );
        // Asked for as a cite spells it, the definition is found.
        let scope = def.class_or_module.join("::");
        let scope = (!scope.is_empty()).then_some(scope.as_str());
        assert!(
            testdefs::defines(&defs, language, scope, &def.name),
            "{} is not found by its own name",
            def.qualified()
        );
        let _ = testdefs::suggest(&defs, &format!("{}_x", def.name));
    }
}

/// The Python object reader a page's roles are checked against: the module's
/// own symbols read from its parse, then each of its first 16 identifiers
/// asked for as `fuzz.NAME` and as `.NAME` of a one-module tree.
pub fn python_objects(bytes: &[u8]) {
    use crate::checks::cites::pyobjects::{ModuleSymbols, PythonTree};
    let text = String::from_utf8_lossy(bytes).into_owned();
    let _ = ModuleSymbols::of(&text);
    let names = identifiers(&text, 16);
    let snapshot = MemorySnapshot::of([("fuzz.py".to_owned(), text)]);
    let mut tree = PythonTree::new(Arc::new(snapshot));
    for name in &names {
        let _ = tree.fate(&format!("fuzz.{name}"));
        let _ = tree.fate(&format!(".{name}"));
    }
}

/// The validation core's steps before the schema: the bounds scan, the parse
/// with its duplicate-key check, then a whole check against a schema that accepts
/// any object. The parse must build what serde_json builds, and refuse what it
/// refuses: a difference panics, since the schema reads the one while handlers
/// read the other.
pub fn validation_bounds(bytes: &[u8]) {
    let _ = crate::validation::bounds::check(bytes);
    let parsed = crate::validation::keys::parse_unique(bytes);
    let reference = serde_json::from_slice::<serde_json::Value>(bytes);
    match (&parsed, &reference) {
        (Ok(document), Ok(value)) => assert!(document.to_value() == *value),
        (Ok(_), Err(_)) => panic!("the core parsed a document serde_json refuses"),
        (Err(crate::validation::KeysError::Malformed { .. }), Ok(_)) => {
            panic!("the core refused as malformed a document serde_json parses")
        }
        _ => {}
    }
    let _ = crate::validation::verdict(any_object_schema(), "any.json", bytes);
}

fn any_object_schema() -> &'static crate::validation::SchemaSet {
    static SET: std::sync::OnceLock<crate::validation::SchemaSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        crate::validation::SchemaSet::from_files([(
            "any.json",
            r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:any", "type": "object", "properties": {"name": {"type": "string", "maxLength": 8}}}"#,
        )])
        .unwrap_or_else(|error| panic!("the fuzz schema loads: {error}"))
    })
}

/// The transcript family over a record: every transcript found, its command
/// read by the parser (and each line of the input read as a command too), and
/// whatever parses re-run over a small tree and compared with the output shown.
pub fn transcripts(bytes: &[u8]) {
    use crate::checks::transcripts::{compare, find, parse, run};
    let text = String::from_utf8_lossy(bytes);
    let markdown = crate::records::markdown::Markdown::new(&text);
    let tree = MemorySnapshot::of(
        ["README.md", "docs/a.md", "src/lib.rs", "src/sub/x.py"].map(|path| {
            (
                path.to_owned(),
                format!("# {path}\nfn main() {{}}\n\nTODO: x = 1 | y\n"),
            )
        }),
    );
    let history = |_: &str, paths: &[String]| -> Result<usize, String> { Ok(paths.len()) };
    let texts = run::Texts::default();
    let cx = run::Context {
        snapshot: &tree,
        texts: &texts,
        rev: None,
        history: &history,
    };
    type Shown = Vec<(std::ops::Range<usize>, String)>;
    let mut commands: Vec<(String, Shown)> = find::find(&text, &markdown)
        .into_iter()
        .map(|f| {
            assert!(f.span.start <= f.span.end && f.span.end <= text.len());
            (f.command, f.output)
        })
        .collect();
    commands.extend(text.lines().take(64).map(|l| (l.to_owned(), Vec::new())));
    for (command, output) in commands {
        let Ok(pipeline) = parse::parse(&command) else {
            continue;
        };
        if let Ok(lines) = run::run(&pipeline, &cx) {
            let _ = compare::compare(&output, &lines, pipeline.ordered(), pipeline.sorted());
        }
    }
}

/// Up to `most` distinct identifiers of `text`, in order of first appearance.
fn identifiers(text: &str, most: usize) -> Vec<String> {
    let mut seen = BTreeMap::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if seen.len() == most {
            break;
        }
        if word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let next = seen.len();
            seen.entry(word.to_owned()).or_insert(next);
        }
    }
    let mut names: Vec<(usize, String)> = seen.into_iter().map(|(w, i)| (i, w)).collect();
    names.sort();
    names.into_iter().map(|(_, w)| w).collect()
}

/// The human report over a record: the first ten bytes place a finding (offset,
/// length, both little-endian, then the terminal width), the rest is the record.
/// Every span, width and text must render, in both themes, without a panic.
pub fn human_report(bytes: &[u8]) {
    use crate::checks::{CheckId, Finding, Location, Severity};
    use crate::report::{Report, Reported};
    let Some((head, body)) = bytes.split_at_checked(10) else {
        return;
    };
    let number = |range: std::ops::Range<usize>| {
        head[range]
            .iter()
            .rev()
            .fold(0usize, |n, &b| (n << 8) | usize::from(b))
    };
    let text = String::from_utf8_lossy(body).into_owned();
    let offset = number(0..4) % (text.len() + 1);
    let length = number(4..8) % (text.len() - offset + 1);
    let width = 20 + number(8..10) % 400;
    let mut report = Report::empty("fuzz");
    report
        .sources
        .insert("fuzz.md".to_owned(), Arc::from(text.as_str()));
    let index = crate::lines::LineIndex::new(&text);
    let (line, column) = index.line_col(&text, offset);
    report.findings.push(Reported {
        finding: Finding {
            reads: Vec::new(),
            fixable: crate::checks::Fixable::No,
            check: CheckId::ALL[offset % CheckId::ALL.len()],
            severity: Severity::Error,
            location: Location {
                path: "fuzz.md".to_owned(),
                line,
                column,
                offset,
                length,
                commit: None,
            },
            fact: None,
            message: text.chars().take(200).collect(),
            stated: Some(text.chars().skip(offset).take(64).collect()),
            observed: None,
            recipe: None,
            rule: None,
            diff: None,
            tier: None,
            label: None,
        },
        fingerprint: "fuzz".to_owned(),
        cause: None,
        fix: None,
    });
    for ascii in [false, true] {
        let style = crate::report::human::Style {
            color: ascii,
            width,
            ascii,
            wrap_summary: false,
        };
        let _ = crate::report::human::render(&report, style);
    }
}

/// The expression grammar of `expr` facts and `equals`: parsed, then evaluated
/// with every name it uses bound to the input's length, so deep nesting, long
/// sums and huge numbers all reach the evaluator.
pub fn expressions(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let _ = crate::constants::expr::fuzz_one(&text);
}
