//! Stage 2, tests in Rust: every `fn` carrying a test attribute (`#[test]`,
//! `#[tokio::test]`, any attribute whose path ends in `test`, and `#[rstest]`
//! and `#[test_case(..)]`), at any depth of inline modules, with the module path
//! a cite like `src/a.rs::tests::inner::name` spells; and every other named
//! item (functions, types, constants, macros, modules, methods under their
//! type), since records name those the same way (`src/graph.rs::walk_deps`).
//!
//! Tests that a macro expands to (`proptest! { .. }`) are invisible to a parse
//! and are not reported; a module declared in another file (`mod tests;`) is
//! read when that file is.

use tree_sitter::Node;

use crate::limits::Depth;

use super::{DefKind, TestDef, named_children, node_text, parse};

/// Every attributed test function of a Rust file, in source order.
pub fn rust_tests(source: &str) -> Vec<TestDef> {
    let Some(tree) = parse(source, &tree_sitter_rust::LANGUAGE.into()) else {
        return Vec::new();
    };
    let mut defs = Vec::new();
    items(
        tree.root_node(),
        source,
        &mut Vec::new(),
        &mut defs,
        Depth::ROOT,
    );
    defs
}

/// Walks the items of a file or an inline module body. Attributes are the
/// items' preceding siblings in the tree. Modules nested past the depth
/// budget are not read (a test sits a few deep at most): a test cited there
/// is one the file is not known to define, as in a file not read.
fn items(
    node: Node<'_>,
    source: &str,
    modules: &mut Vec<String>,
    defs: &mut Vec<TestDef>,
    depth: Depth,
) {
    let mut is_test = false;
    for item in named_children(node) {
        match item.kind() {
            "attribute_item" => is_test |= is_test_attribute(item, source),
            "line_comment" | "block_comment" => {}
            "function_item" => {
                let kind = if is_test {
                    DefKind::Test
                } else {
                    DefKind::Function
                };
                named(item, source, modules.clone(), kind, defs);
                is_test = false;
            }
            // `a.rs::walk_deps`, `a.rs::Cursor`: records name any item of a
            // Rust file this way, not only its tests.
            "struct_item" | "enum_item" | "trait_item" | "type_item" | "const_item"
            | "static_item" | "union_item" | "macro_definition" => {
                named(item, source, modules.clone(), DefKind::Function, defs);
                is_test = false;
            }
            // `a.rs::Walker::step`: a method, under its type.
            "impl_item" => {
                if let (Some(ty), Some(body)) = (
                    item.child_by_field_name("type"),
                    item.child_by_field_name("body"),
                ) {
                    let ty = node_text(ty, source);
                    let ty = ty.split('<').next().unwrap_or(ty).trim().to_string();
                    for method in named_children(body) {
                        if method.kind() == "function_item" {
                            let mut scope = modules.clone();
                            scope.push(ty.clone());
                            named(method, source, scope, DefKind::Function, defs);
                        }
                    }
                }
                is_test = false;
            }
            "mod_item" => {
                // `tests.rs::parity` names the module (a filter of its tests,
                // as `cargo test parity` runs them), inline or declared.
                named(item, source, modules.clone(), DefKind::Function, defs);
                // Modules nested past any real file's are not read: a
                // hostile file must not exhaust the stack.
                if let (Some(name), Some(body), true) = (
                    item.child_by_field_name("name"),
                    item.child_by_field_name("body"),
                    !depth.deeper().exhausted(),
                ) {
                    modules.push(node_text(name, source).to_string());
                    items(body, source, modules, defs, depth.deeper());
                    modules.pop();
                }
                is_test = false;
            }
            _ => is_test = false,
        }
    }
}

/// Records the item `node` defines by its `name` field, if it has one.
fn named(node: Node<'_>, source: &str, scope: Vec<String>, kind: DefKind, defs: &mut Vec<TestDef>) {
    if let Some(name) = node.child_by_field_name("name") {
        defs.push(TestDef {
            name: node_text(name, source).to_string(),
            class_or_module: scope,
            line: node.start_position().row + 1,
            kind,
        });
    }
}

fn is_test_attribute(item: Node<'_>, source: &str) -> bool {
    let Some(attribute) = named_children(item)
        .into_iter()
        .find(|n| n.kind() == "attribute")
    else {
        return false;
    };
    let Some(path) = named_children(attribute).into_iter().next() else {
        return false;
    };
    let path = node_text(path, source);
    let last = path.rsplit("::").next().unwrap_or("").trim();
    matches!(last, "test" | "rstest" | "test_case")
}

#[cfg(test)]
mod tests {
    #[test]
    fn modules_nested_past_any_real_files_are_not_read() {
        let deep = format!(
            "{}#[test]\nfn buried() {{}}\n{}",
            "mod a {\n".repeat(20_000),
            "}\n".repeat(20_000)
        );
        let defs = super::rust_tests(&deep);
        assert!(defs.iter().all(|d| d.name != "buried"), "{}", defs.len());
        let shallow = "mod a {\n    mod b {\n        #[test]\n        fn kept() {}\n    }\n}\n";
        assert!(super::rust_tests(shallow).iter().any(|d| d.name == "kept"));
    }

    use super::*;

    fn found(source: &str) -> Vec<(String, String, usize)> {
        rust_tests(source)
            .into_iter()
            .filter(|d| d.kind == DefKind::Test)
            .map(|d| (d.class_or_module.join("::"), d.name, d.line))
            .collect()
    }

    #[test]
    fn every_named_item_is_known_as_defined_not_a_test() {
        let source = "fn walk_deps() {}\npub struct Cursor;\nenum Shape { A }\nconst LIMIT: u8 = 1;\n\
                      impl<T> Walker<T> {\n    fn step(&self) {}\n}\nmod m {\n    pub fn inner() {}\n}\n";
        let defs: Vec<(String, String, DefKind)> = rust_tests(source)
            .into_iter()
            .map(|d| (d.class_or_module.join("::"), d.name, d.kind))
            .collect();
        let function =
            |scope: &str, name: &str| (scope.to_owned(), name.to_owned(), DefKind::Function);
        assert_eq!(
            defs,
            [
                function("", "walk_deps"),
                function("", "Cursor"),
                function("", "Shape"),
                function("", "LIMIT"),
                function("Walker", "step"),
                function("", "m"),
                function("m", "inner"),
            ]
        );
    }

    fn def(scope: &str, name: &str, line: usize) -> (String, String, usize) {
        (scope.to_string(), name.to_string(), line)
    }

    #[test]
    fn attribute_variants_and_nested_modules() {
        let source = r##"//! #[test] fn in_doc() {}
#[test]
fn top_level() {}

fn helper_without_attribute() {}

#[tokio::test(flavor = "multi_thread")]
async fn async_tokio() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline]
    fn not_a_test() {}

    /// Documented.
    #[test]
    // a comment between attribute and fn
    #[should_panic(expected = "x")]
    fn with_comment_and_more_attributes() {}

    #[rstest]
    #[case(1)]
    fn rstest_case(#[case] x: u8) {}

    #[test_case(1 ; "one")]
    fn test_case_form(x: u8) {}

    mod inner {
        #[::core::prelude::v1::test]
        pub fn deep() {}
    }

    const S: &str = "#[test] fn in_string() {}";

    #[test]
    struct NotAFunction;
    fn after_struct() {}
}

mod declared_elsewhere;
"##;
        assert_eq!(
            found(source),
            [
                def("", "top_level", 3),
                def("", "async_tokio", 8),
                def("tests", "with_comment_and_more_attributes", 21),
                def("tests", "rstest_case", 25),
                def("tests", "test_case_form", 28),
                def("tests::inner", "deep", 32),
            ]
        );
    }

    #[test]
    fn a_module_is_a_named_item_as_a_test_filter_names_it() {
        let source = "mod parity {\n    #[test]\n    fn same() {}\n}\nmod declared;\n";
        let named: Vec<String> = rust_tests(source)
            .into_iter()
            .filter(|d| d.kind == DefKind::Function)
            .map(|d| d.qualified())
            .collect();
        assert_eq!(named, ["parity", "declared"]);
    }

    #[test]
    fn broken_and_empty_sources_do_not_panic() {
        assert!(rust_tests("").is_empty());
        let _ = rust_tests("#[test]\nfn (\nmod { #[test");
        assert!(rust_tests("#[test]").is_empty());
    }
}
