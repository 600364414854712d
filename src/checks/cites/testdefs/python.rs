//! Stage 2, tests in Python: every `def`/`async def` and `class` a pytest node
//! id can name — at module level and in classes at module level (nested classes
//! included), a `def test*` marked as a test and any other as a plain function,
//! read from a tree-sitter parse, so a `def test_x` inside a string or a
//! comment is not a test.
//!
//! A definition under a module-level `if`/`try`/`with` is still a module
//! attribute (pytest collects it), so those blocks are walked too; a `def`
//! inside a function body is not reachable by a node id and is left out.

use tree_sitter::Node;

use crate::limits::Depth;

use super::{DefKind, TestDef, named_children, node_text, parse};

/// Every test-shaped definition of a Python module, in source order.
pub fn python_tests(source: &str) -> Vec<TestDef> {
    let Some(tree) = parse(source, &tree_sitter_python::LANGUAGE.into()) else {
        return Vec::new();
    };
    let mut defs = Vec::new();
    statements(
        tree.root_node(),
        source,
        &mut Vec::new(),
        &mut defs,
        Depth::ROOT,
    );
    defs
}

/// Walks the statements of a module, class body or block.
fn statements(
    node: Node<'_>,
    source: &str,
    scope: &mut Vec<String>,
    defs: &mut Vec<TestDef>,
    depth: Depth,
) {
    for statement in named_children(node) {
        definition(statement, source, scope, defs, depth);
    }
}

/// One statement's definitions. Past the depth budget nothing more is read
/// (classes and blocks a few deep hold every real test).
fn definition(
    node: Node<'_>,
    source: &str,
    scope: &mut Vec<String>,
    defs: &mut Vec<TestDef>,
    depth: Depth,
) {
    if depth.exhausted() {
        return;
    }
    match node.kind() {
        "function_definition" => {
            if let Some(name) = node.child_by_field_name("name") {
                let name = node_text(name, source).to_string();
                // pytest's default `python_functions = test*`.
                let kind = if name.starts_with("test") {
                    DefKind::Test
                } else {
                    DefKind::Function
                };
                defs.push(TestDef {
                    name,
                    class_or_module: scope.clone(),
                    line: node.start_position().row + 1,
                    kind,
                });
            }
        }
        "class_definition" => {
            let (Some(name), Some(body)) = (
                node.child_by_field_name("name"),
                node.child_by_field_name("body"),
            ) else {
                return;
            };
            let name = node_text(name, source).to_string();
            defs.push(TestDef {
                name: name.clone(),
                class_or_module: scope.clone(),
                line: node.start_position().row + 1,
                kind: DefKind::Class,
            });
            scope.push(name);
            statements(body, source, scope, defs, depth.deeper());
            scope.pop();
        }
        "decorated_definition" => {
            if let Some(inner) = node.child_by_field_name("definition") {
                definition(inner, source, scope, defs, depth.deeper());
            }
        }
        // Conditional definitions bind in the enclosing scope.
        "if_statement"
        | "elif_clause"
        | "else_clause"
        | "try_statement"
        | "except_clause"
        | "except_group_clause"
        | "finally_clause"
        | "with_statement" => {
            for child in named_children(node) {
                match child.kind() {
                    "block" => statements(child, source, scope, defs, depth.deeper()),
                    "elif_clause"
                    | "else_clause"
                    | "except_clause"
                    | "except_group_clause"
                    | "finally_clause" => definition(child, source, scope, defs, depth.deeper()),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(source: &str) -> Vec<(String, String, usize)> {
        python_tests(source)
            .into_iter()
            .filter(|d| d.kind != DefKind::Class)
            .map(|d| (d.class_or_module.join("::"), d.name, d.line))
            .collect()
    }

    fn def(scope: &str, name: &str, line: usize) -> (String, String, usize) {
        (scope.to_string(), name.to_string(), line)
    }

    #[test]
    fn module_class_nested_async_and_decorated() {
        let source = r#""""Docstring naming def test_in_docstring(): nothing."""
import pytest

# def test_in_comment(): pass
TEXT = "def test_in_string(): pass"


def test_plain():
    def helper_inside():
        pass


@pytest.mark.parametrize("x", [1, 2])
@other
def test_decorated(x):
    pass


async def test_async():
    pass


class TestOuter:
    def test_method(self):
        pass

    @staticmethod
    async def test_static_async():
        pass

    class TestInner:
        def test_deep(self):
            pass


@decorate
class TestDecoratedClass:
    def test_in_decorated(self):
        pass
"#;
        assert_eq!(
            found(source),
            [
                def("", "test_plain", 8),
                def("", "test_decorated", 15),
                def("", "test_async", 19),
                def("TestOuter", "test_method", 24),
                def("TestOuter", "test_static_async", 28),
                def("TestOuter::TestInner", "test_deep", 32),
                def("TestDecoratedClass", "test_in_decorated", 38),
            ]
        );
    }

    #[test]
    fn classes_and_helpers_are_definitions_but_not_tests() {
        let source = "class TestSuite:\n    class TestNested:\n        def test_deep(self): pass\n\ndef _helper(): pass\ndef test_x(): pass\n";
        let kinds: Vec<(String, String, DefKind)> = python_tests(source)
            .into_iter()
            .map(|d| (d.class_or_module.join("::"), d.name, d.kind))
            .collect();
        let entry = |scope: &str, name: &str, kind| (scope.to_string(), name.to_string(), kind);
        assert_eq!(
            kinds,
            [
                entry("", "TestSuite", DefKind::Class),
                entry("TestSuite", "TestNested", DefKind::Class),
                entry("TestSuite::TestNested", "test_deep", DefKind::Test),
                entry("", "_helper", DefKind::Function),
                entry("", "test_x", DefKind::Test),
            ]
        );
    }

    #[test]
    fn conditional_definitions_are_module_attributes() {
        let source = "import sys\nif sys.platform == 'linux':\n    def test_linux(): pass\nelif x:\n    def test_elif(): pass\nelse:\n    def test_other(): pass\ntry:\n    def test_try(): pass\nexcept ImportError:\n    def test_except(): pass\nfinally:\n    def test_finally(): pass\nwith ctx():\n    def test_with(): pass\nfor i in x:\n    def test_loop(): pass\n";
        let names: Vec<String> = python_tests(source).into_iter().map(|d| d.name).collect();
        assert!(!names.contains(&"i".to_string()));
        assert_eq!(
            names,
            [
                "test_linux",
                "test_elif",
                "test_other",
                "test_try",
                "test_except",
                "test_finally",
                "test_with"
            ]
        );
    }

    #[test]
    fn broken_and_empty_sources_do_not_panic() {
        assert!(python_tests("").is_empty());
        let names: Vec<String> = python_tests("def test_ok():\n    pass\n\ndef broken(:\n")
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert!(names.contains(&"test_ok".to_string()), "{names:?}");
        let _ = python_tests("\u{0}\u{feff}class :\n  def");
    }
}
