//! Stage 2 of the pipeline (facts about tests): which tests a source file
//! defines, read from a tree-sitter parse — Python (`python`) and Rust (`rust`).
//!
//! A record's test cite is checked against these definitions ([`defines`]); when
//! the cited name is gone, [`suggest`] names the test it was most likely
//! renamed to.

pub mod python;
pub mod rust;

pub use python::python_tests;
pub use rust::rust_tests;

use std::collections::BTreeSet;

use tree_sitter::{Node, Tree};

use crate::constants::node_text;

/// What a definition is: a cite may name any of them (pytest collects a
/// class as a suite; a record may cite a helper beside the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefKind {
    /// A test: a Python `def test*`, a Rust `fn` with a test attribute.
    Test,
    /// A Python function or method that is not a test (`_helper`).
    Function,
    /// A Python class (`TestSuite`): a node id may name it alone.
    Class,
}

/// One definition a test cite may name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TestDef {
    /// The function's or class's name.
    pub name: String,
    /// Python: the classes it sits in, outermost first. Rust: the inline
    /// modules it sits in (`tests`, `inner`).
    pub class_or_module: Vec<String>,
    /// 1-based line of the `def`/`fn`/`class` (decorators and attributes excluded).
    pub line: usize,
    pub kind: DefKind,
}

impl TestDef {
    /// `Class::name`, `tests::inner::name`, or the bare name at the top.
    pub fn qualified(&self) -> String {
        let mut parts = self.class_or_module.clone();
        parts.push(self.name.clone());
        parts.join("::")
    }
}

pub use super::model::TestLanguage;

/// The tests `source` defines, read as `language`. A text parsed before in
/// this process is not parsed again: the two audits of `check --since` read
/// nearly all the same test files, and the history evidence reads one
/// version of a file at many commits.
pub fn tests_in_language(language: TestLanguage, source: &str) -> Vec<TestDef> {
    if let Some(known) = parsed::known(language, source) {
        return known;
    }
    let defs = match language {
        TestLanguage::Python => python_tests(source),
        TestLanguage::Rust => rust_tests(source),
    };
    parsed::keep(language, source, &defs);
    defs
}

/// The definitions of every test file text this process parsed, keyed by
/// the whole text (no hash to collide), up to [`parsed::MAX_BYTES`] of text.
mod parsed {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};

    use super::{TestDef, TestLanguage};

    /// Texts kept, at most: past it, files are parsed every time.
    pub(super) const MAX_BYTES: usize = 64 * 1024 * 1024;

    type Parsed = HashMap<TestLanguage, HashMap<Arc<str>, Arc<Vec<TestDef>>>>;

    static PARSED: Mutex<Option<(Parsed, usize)>> = Mutex::new(None);

    pub(super) fn known(language: TestLanguage, source: &str) -> Option<Vec<TestDef>> {
        let held = PARSED.lock().ok()?;
        let (parsed, _) = held.as_ref()?;
        parsed
            .get(&language)?
            .get(source)
            .map(|defs| defs.as_ref().clone())
    }

    pub(super) fn keep(language: TestLanguage, source: &str, defs: &[TestDef]) {
        let Ok(mut held) = PARSED.lock() else {
            return;
        };
        let (parsed, bytes) = held.get_or_insert_with(Default::default);
        if *bytes + source.len() > MAX_BYTES {
            return;
        }
        *bytes += source.len();
        parsed
            .entry(language)
            .or_default()
            .insert(Arc::from(source), Arc::new(defs.to_vec()));
    }
}

/// The tests a file defines, when its extension names a supported language.
pub fn tests_in(path: &str, source: &str) -> Option<Vec<TestDef>> {
    TestLanguage::of_path(path).map(|language| tests_in_language(language, source))
}

/// Whether `defs` hold the test a cite names. `scope` is the cite's class path
/// (Python, `Outer::Inner`) or module path (Rust, `tests::inner`).
///
/// Python: a pytest node id names the class when there is one, so the class
/// path must be exactly the cite's (`path::name` means a module-level def).
/// Rust: a module path must match exactly; without one (`tests/x.rs::name`)
/// the test may sit in any module of the file.
pub fn defines(defs: &[TestDef], language: TestLanguage, scope: Option<&str>, name: &str) -> bool {
    defining(defs, language, scope, name).is_some()
}

/// The definition a cite names, as [`defines`] matches it: a test when one
/// matches, else a class or a plain function of that name.
pub fn defining<'a>(
    defs: &'a [TestDef],
    language: TestLanguage,
    scope: Option<&str>,
    name: &str,
) -> Option<&'a TestDef> {
    let mut matching = defs.iter().filter(|def| def.name == name).filter(|def| {
        let def_scope = def.class_or_module.join("::");
        match (language, scope) {
            (TestLanguage::Python, None) => def.class_or_module.is_empty(),
            (TestLanguage::Rust, None) => true,
            (_, Some(scope)) => def_scope == scope,
        }
    });
    let first = matching.next()?;
    if first.kind == DefKind::Test {
        return Some(first);
    }
    Some(
        matching
            .find(|def| def.kind == DefKind::Test)
            .unwrap_or(first),
    )
}

/// Words too common in test names to say two names are related.
const FILLER_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "in", "is", "it", "its", "of", "on",
    "or", "that", "the", "this", "to", "with",
];

/// "Did you mean": the test in `defs` whose name is clearly close to `wanted`
/// (a renamed test keeps most of its words, or most of its spelling), as
/// [`TestDef::qualified`]; `None` when nothing is clearly close. Ties go to the
/// name that sorts first.
///
/// Close means: half the meaningful words shared (Jaccard ≥ 1/2); or at least
/// two shared words covering half of the shorter name's words; or an edit
/// distance at most a third of the longer name (the `test_` prefix aside).
pub fn suggest(defs: &[TestDef], wanted: &str) -> Option<String> {
    let wanted_words = words(wanted);
    let wanted_stem = stem(wanted);
    let candidates: BTreeSet<(String, &str)> = defs
        .iter()
        .map(|def| (def.qualified(), def.name.as_str()))
        .collect();
    let mut best: Option<(f64, &String)> = None;
    for (qualified, name) in &candidates {
        let Some(score) = closeness(&wanted_words, &wanted_stem, name) else {
            continue;
        };
        // Strictly greater: on a tie the first in sorted order stays.
        if best.is_none_or(|(top, _)| score > top) {
            best = Some((score, qualified));
        }
    }
    best.map(|(_, qualified)| qualified.clone())
}

/// How close `name` is to the wanted name, when it is clearly close at all.
fn closeness(wanted_words: &BTreeSet<String>, wanted_stem: &str, name: &str) -> Option<f64> {
    let name_words = words(name);
    let shared = wanted_words.intersection(&name_words).count();
    let union = wanted_words.union(&name_words).count();
    let smaller = wanted_words.len().min(name_words.len());
    let jaccard = ratio(shared, union);
    let overlap = ratio(shared, smaller);

    let name_stem = stem(name);
    let longer = wanted_stem.chars().count().max(name_stem.chars().count());
    let spelling = crate::spelling::edit_distance(wanted_stem, &name_stem)
        .filter(|_| longer > 0)
        .map(|distance| (distance, 1.0 - ratio(distance, longer)));
    let spelled_close = spelling.is_some_and(|(distance, _)| distance * 3 <= longer);

    let close = jaccard >= 0.5 || (shared >= 2 && overlap >= 0.5) || spelled_close;
    close.then(|| {
        0.5 * jaccard + 0.2 * overlap + 0.3 * spelling.map_or(0.0, |(_, similarity)| similarity)
    })
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        // Counts of words and characters: far below f64's exact-integer range.
        part as f64 / whole as f64
    }
}

/// A name without the `test_` prefix every pytest name shares, lowercased.
fn stem(name: &str) -> String {
    let lower = name.to_lowercase();
    lower
        .strip_prefix("test_")
        .or_else(|| lower.strip_prefix("test"))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&lower)
        .to_string()
}

/// The meaningful `_`-separated words of a name.
fn words(name: &str) -> BTreeSet<String> {
    stem(name)
        .split('_')
        .filter(|word| !word.is_empty() && !FILLER_WORDS.contains(word))
        .map(ToString::to_string)
        .collect()
}

fn parse(source: &str, language: &tree_sitter::Language) -> Option<Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(language).ok()?;
    parser.parse(source.as_bytes(), None)
}

fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn def(scope: &[&str], name: &str) -> TestDef {
        TestDef {
            name: name.into(),
            class_or_module: scope.iter().map(|s| (*s).to_string()).collect(),
            line: 1,
            kind: DefKind::Test,
        }
    }

    #[test]
    fn python_cites_name_the_class_exactly() {
        let defs = [
            def(&[], "test_top"),
            def(&["TestA"], "test_method"),
            def(&["TestA", "TestB"], "test_deep"),
        ];
        let py = TestLanguage::Python;
        assert!(defines(&defs, py, None, "test_top"));
        assert!(!defines(&defs, py, None, "test_method"));
        assert!(defines(&defs, py, Some("TestA"), "test_method"));
        assert!(!defines(&defs, py, Some("TestB"), "test_deep"));
        assert!(defines(&defs, py, Some("TestA::TestB"), "test_deep"));
        assert!(!defines(&defs, py, Some("TestA"), "test_top"));
        assert!(!defines(&defs, py, None, "test_missing"));
    }

    #[test]
    fn a_cite_names_a_class_or_a_helper_and_prefers_a_test() {
        let class = |scope: &[&str], name: &str| TestDef {
            kind: DefKind::Class,
            ..def(scope, name)
        };
        let helper = TestDef {
            kind: DefKind::Function,
            ..def(&[], "test_shadowed")
        };
        let defs = [
            class(&[], "TestSuite"),
            class(&["TestSuite"], "TestNested"),
            helper,
            def(&[], "test_shadowed"),
        ];
        let py = TestLanguage::Python;
        let kind = |scope, name| defining(&defs, py, scope, name).map(|d| d.kind);
        assert_eq!(kind(None, "TestSuite"), Some(DefKind::Class));
        assert_eq!(kind(Some("TestSuite"), "TestNested"), Some(DefKind::Class));
        assert_eq!(kind(None, "TestNested"), None);
        assert_eq!(kind(None, "test_shadowed"), Some(DefKind::Test));
    }

    #[test]
    fn rust_cites_match_any_module_unless_they_name_one() {
        let defs = [def(&["tests"], "a"), def(&["tests", "inner"], "b")];
        let rs = TestLanguage::Rust;
        assert!(defines(&defs, rs, None, "a"));
        assert!(defines(&defs, rs, None, "b"));
        assert!(defines(&defs, rs, Some("tests"), "a"));
        assert!(!defines(&defs, rs, Some("tests"), "b"));
        assert!(defines(&defs, rs, Some("tests::inner"), "b"));
        assert!(!defines(&defs, rs, None, "c"));
    }

    #[test]
    fn files_are_read_by_extension() {
        assert_eq!(TestLanguage::of_path("a/b.py"), Some(TestLanguage::Python));
        assert_eq!(TestLanguage::of_path("a/b.rs"), Some(TestLanguage::Rust));
        assert_eq!(TestLanguage::of_path("a/b.ts"), None);
        let defs = tests_in("t/test_x.py", "def test_x():\n    pass\n").unwrap_or_default();
        assert_eq!(defs, [def(&[], "test_x")]);
        let defs = tests_in("t/x.rs", "#[test]\nfn x() {}\n").unwrap_or_default();
        assert_eq!(defs[0].qualified(), "x");
        assert!(tests_in("a.md", "def test_x(): pass").is_none());
    }

    #[test]
    fn suggest_finds_a_renamed_test() {
        let defs = [
            def(&[], "test_every_refusal_template_fits_the_ceiling"),
            def(
                &[],
                "test_the_widest_body_the_schema_tier_can_see_is_refused_without_echoing_it",
            ),
            def(&[], "test_project_id_is_required_on_every_tool_call"),
            def(&[], "test_widest_body_the_schema_tier_can_see"),
        ];
        assert_eq!(
            suggest(
                &defs,
                "test_the_widest_body_this_transport_admits_is_refused_without_echoing_it"
            )
            .as_deref(),
            Some("test_the_widest_body_the_schema_tier_can_see_is_refused_without_echoing_it")
        );
        assert_eq!(
            suggest(&defs, "test_widest_body_this_transport_admits").as_deref(),
            Some("test_widest_body_the_schema_tier_can_see")
        );
        // A typo is close by spelling alone.
        assert_eq!(
            suggest(&defs, "test_every_refusal_templat_fits_the_celing").as_deref(),
            Some("test_every_refusal_template_fits_the_ceiling")
        );
    }

    #[test]
    fn suggest_names_the_class_and_stays_quiet_when_nothing_is_close() {
        let defs = [
            def(&["TestFaces"], "test_five_faces_are_pinned"),
            def(&[], "test_schema_is_valid"),
            def(&[], "test_x"),
        ];
        assert_eq!(
            suggest(&defs, "test_five_faces_pinned").as_deref(),
            Some("TestFaces::test_five_faces_are_pinned")
        );
        assert_eq!(
            suggest(&defs, "test_the_cap_is_derived_from_the_file"),
            None
        );
        assert_eq!(suggest(&defs, "test_y"), None);
        assert_eq!(suggest(&defs, "test_is_the"), None);
        assert_eq!(suggest(&[], "test_x"), None);
        assert_eq!(suggest(&defs, ""), None);
    }

    #[test]
    fn suggest_breaks_ties_by_name() {
        let defs = [def(&[], "test_b_alpha"), def(&[], "test_a_alpha")];
        assert_eq!(
            suggest(&defs, "test_c_alpha").as_deref(),
            Some("test_a_alpha")
        );
        let reversed = [def(&[], "test_a_alpha"), def(&[], "test_b_alpha")];
        assert_eq!(
            suggest(&reversed, "test_c_alpha").as_deref(),
            Some("test_a_alpha")
        );
    }

    proptest! {
        #[test]
        fn suggest_never_panics_and_only_returns_defined_names(
            names in prop::collection::vec("[a-z_]{0,20}", 0..6),
            wanted in "\\PC{0,30}",
        ) {
            let defs: Vec<TestDef> = names.iter().map(|n| def(&[], n)).collect();
            if let Some(hit) = suggest(&defs, &wanted) {
                prop_assert!(names.contains(&hit));
            }
        }

        #[test]
        fn parsers_never_panic(source in "\\PC{0,200}") {
            let _ = python_tests(&source);
            let _ = rust_tests(&source);
        }
    }
}
