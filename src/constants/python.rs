//! Stage 2a, Python: module-level bindings (`NAME = expr`, `NAME: Final[int] = expr`),
//! imports (`from pkg.mod import NAME as ALIAS`, relative forms, `import a.b as c`)
//! and literal collections, read from a tree-sitter parse of one file.
//!
//! Only direct children of the module count: an assignment inside a function, an
//! `if` block, a docstring or a comment is not a module-level constant.

use tree_sitter::Node;

use crate::limits::Depth;

use super::arith;
use super::{
    BinaryOp, Collection, DefinitionParts, Import, Language, ModuleRef, ModuleTable, NumKind,
    SrcExpr, UnaryOp, call_not_static, definition, excerpt, node_text, position, value_children,
};

pub(crate) fn extract(root: Node<'_>, text: &str) -> ModuleTable {
    let mut table = ModuleTable::new(Language::Python);
    for statement in value_children(root) {
        match statement.kind() {
            "expression_statement" => {
                for inner in value_children(statement) {
                    match inner.kind() {
                        "assignment" => assignment(&mut table, statement, inner, text),
                        "augmented_assignment" => {
                            if let Some(left) = inner.child_by_field_name("left") {
                                other_binding(&mut table, left, text, Depth::ROOT);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "import_from_statement" => import_from(&mut table, statement, text),
            "import_statement" => import_plain(&mut table, statement, text),
            "function_definition" | "class_definition" => {
                if let Some(name) = statement.child_by_field_name("name") {
                    other_binding(&mut table, name, text, Depth::ROOT);
                }
            }
            "decorated_definition" => {
                if let Some(name) = statement
                    .child_by_field_name("definition")
                    .and_then(|d| d.child_by_field_name("name"))
                {
                    other_binding(&mut table, name, text, Depth::ROOT);
                }
            }
            _ => {}
        }
    }
    table
}

/// Records every identifier bound by a target that is not a plain name.
fn other_binding(table: &mut ModuleTable, target: Node<'_>, text: &str, depth: Depth) {
    // Past the budget a target's names are not recorded: a binding no one
    // writes so deep, and the stack must not follow the input down.
    if depth.exhausted() {
        return;
    }
    if target.kind() == "identifier" {
        let (line, _) = position(target, text);
        table
            .other_bindings
            .entry(node_text(target, text).to_string())
            .or_default()
            .push(line);
        return;
    }
    if matches!(
        target.kind(),
        "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "parenthesized_expression"
    ) {
        for child in value_children(target) {
            other_binding(table, child, text, depth.deeper());
        }
    }
}

fn assignment(table: &mut ModuleTable, statement: Node<'_>, node: Node<'_>, text: &str) {
    // `A = B = value` nests assignments on the right; every left side gets the value.
    let mut targets = Vec::new();
    let mut current = node;
    let value = loop {
        if let Some(left) = current.child_by_field_name("left") {
            targets.push(left);
        }
        match current.child_by_field_name("right") {
            Some(right) if right.kind() == "assignment" => current = right,
            other => break other,
        }
    };
    let Some(value_node) = value else {
        // A bare annotation (`X: int`) binds nothing.
        return;
    };
    for target in targets {
        if target.kind() != "identifier" {
            other_binding(table, target, text, Depth::ROOT);
            continue;
        }
        let parts = DefinitionParts {
            name_node: target,
            statement,
            value_node,
            value: expression(value_node, text, Depth::ROOT),
            declared_type: None,
            collection: collection(value_node, text),
            scope: Vec::new(),
        };
        table.definitions.push(definition(parts, text));
    }
}

fn dotted(node: Node<'_>, text: &str) -> Vec<String> {
    node_text(node, text)
        .split('.')
        .map(|part| part.trim().to_string())
        .filter(|part| !part.is_empty())
        .collect()
}

fn module_ref(node: Node<'_>, text: &str) -> ModuleRef {
    if node.kind() == "relative_import" {
        let mut level = 0;
        let mut names = Vec::new();
        for child in value_children(node) {
            match child.kind() {
                "import_prefix" => {
                    level = node_text(child, text).chars().filter(|c| *c == '.').count()
                }
                "dotted_name" => names = dotted(child, text),
                _ => {}
            }
        }
        ModuleRef {
            level,
            dotted: names,
        }
    } else {
        ModuleRef {
            level: 0,
            dotted: dotted(node, text),
        }
    }
}

fn import_from(table: &mut ModuleTable, statement: Node<'_>, text: &str) {
    let Some(module_node) = statement.child_by_field_name("module_name") else {
        return;
    };
    let module = module_ref(module_node, text);
    let (line, _) = position(statement, text);
    let mut cursor = statement.walk();
    for name in statement.children_by_field_name("name", &mut cursor) {
        let (imported, local) = match name.kind() {
            "aliased_import" => {
                let (Some(original), Some(alias)) = (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) else {
                    continue;
                };
                (node_text(original, text), node_text(alias, text))
            }
            _ => (node_text(name, text), node_text(name, text)),
        };
        table
            .imports
            .entry(local.to_string())
            .or_default()
            .push(Import {
                module: module.clone(),
                name: Some(imported.to_string()),
                line,
            });
    }
}

fn import_plain(table: &mut ModuleTable, statement: Node<'_>, text: &str) {
    let (line, _) = position(statement, text);
    let mut cursor = statement.walk();
    for name in statement.children_by_field_name("name", &mut cursor) {
        let (module, local) = match name.kind() {
            "aliased_import" => {
                let (Some(original), Some(alias)) = (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) else {
                    continue;
                };
                (dotted(original, text), node_text(alias, text).to_string())
            }
            // `import a.b.c` binds `a`; later `a.b.c.X` walks down from it.
            _ => {
                let parts = dotted(name, text);
                let Some(first) = parts.first().cloned() else {
                    continue;
                };
                (vec![first.clone()], first)
            }
        };
        table.imports.entry(local).or_default().push(Import {
            module: ModuleRef {
                level: 0,
                dotted: module,
            },
            name: None,
            line,
        });
    }
}

fn integer_literal(raw: &str) -> SrcExpr {
    let lower = raw.to_ascii_lowercase();
    if lower.ends_with('j') {
        return SrcExpr::NotStatic(format!("is the imaginary number {raw}"));
    }
    let (digits, radix) = if let Some(rest) = lower.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (rest, 8)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (rest, 2)
    } else {
        (lower.as_str(), 10)
    };
    match arith::parse_digits(digits, radix) {
        Ok(value) => SrcExpr::Literal(value, NumKind::Int),
        Err(e) => SrcExpr::Invalid(e),
    }
}

fn float_literal(raw: &str) -> SrcExpr {
    if raw.ends_with(['j', 'J']) {
        return SrcExpr::NotStatic(format!("is the imaginary number {raw}"));
    }
    match arith::parse_decimal(raw) {
        Ok(value) => SrcExpr::Literal(value, NumKind::Float),
        Err(e) => SrcExpr::Invalid(e),
    }
}

fn unary_op(symbol: &str) -> Option<UnaryOp> {
    Some(match symbol {
        "-" => UnaryOp::Neg,
        "+" => UnaryOp::Plus,
        "~" => UnaryOp::BitNot,
        _ => return None,
    })
}

fn binary_op(symbol: &str) -> Option<BinaryOp> {
    Some(match symbol {
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::TrueDiv,
        "//" => BinaryOp::FloorDiv,
        "%" => BinaryOp::FloorMod,
        "**" => BinaryOp::Pow,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        "&" => BinaryOp::BitAnd,
        "|" => BinaryOp::BitOr,
        "^" => BinaryOp::BitXor,
        _ => return None,
    })
}

/// The dotted segments of `a.b.c` when every part is a plain name.
fn attribute_path(node: Node<'_>, text: &str) -> Option<Vec<String>> {
    // Walked down the `object` chain, not recursed: `a.b.b.…` ten thousand
    // deep is one loop, and a chain past any real name's is not one.
    let mut path = Vec::new();
    let mut node = node;
    while node.kind() == "attribute" {
        if path.len() >= crate::limits::MAX_DEPTH {
            return None;
        }
        path.push(node_text(node.child_by_field_name("attribute")?, text).to_string());
        node = node.child_by_field_name("object")?;
    }
    (node.kind() == "identifier").then(|| {
        path.push(node_text(node, text).to_string());
        path.reverse();
        path
    })
}

pub(crate) fn expression(node: Node<'_>, text: &str, depth: Depth) -> SrcExpr {
    if depth.exhausted() {
        return SrcExpr::NotStatic(depth.too_deep());
    }
    let raw = node_text(node, text);
    match node.kind() {
        "integer" => integer_literal(raw),
        "float" => float_literal(raw),
        "identifier" => SrcExpr::Name(raw.to_string()),
        "parenthesized_expression" => match value_children(node).as_slice() {
            [inner] => expression(*inner, text, depth.deeper()),
            _ => SrcExpr::NotStatic(format!(
                "is `{}`, which recount does not evaluate",
                excerpt(raw)
            )),
        },
        "unary_operator" => super::unary_node(
            node,
            text,
            depth,
            node.child_by_field_name("operator")
                .zip(node.child_by_field_name("argument")),
            unary_op,
            expression,
        ),
        "binary_operator" => super::binary_node(node, text, depth, binary_op, expression),
        "attribute" => match attribute_path(node, text) {
            Some(path) => SrcExpr::Path(path),
            None => SrcExpr::NotStatic(format!(
                "reads attribute `{}` of a computed value",
                excerpt(raw)
            )),
        },
        "call" => call_not_static(
            node.child_by_field_name("function")
                .map(|f| node_text(f, text))
                .unwrap_or(raw),
        ),
        _ => SrcExpr::NotStatic(format!(
            "is {} (`{}`), which recount does not evaluate as a number",
            describe(node, text),
            excerpt(raw)
        )),
    }
}

/// A noun phrase for what a value node is.
fn describe(node: Node<'_>, text: &str) -> String {
    match node.kind() {
        "integer" | "float" => "a number".to_string(),
        "string" | "concatenated_string" => "a string".to_string(),
        "true" | "false" => "a boolean".to_string(),
        "none" => "None".to_string(),
        "tuple" | "expression_list" => "a tuple".to_string(),
        "list" => "a list".to_string(),
        "dictionary" => "a dict".to_string(),
        "set" => "a set".to_string(),
        "list_comprehension" => "a list comprehension".to_string(),
        "dictionary_comprehension" => "a dict comprehension".to_string(),
        "set_comprehension" => "a set comprehension".to_string(),
        "generator_expression" => "a generator expression".to_string(),
        "conditional_expression" => "a conditional expression".to_string(),
        "boolean_operator" | "not_operator" => "a boolean expression".to_string(),
        "comparison_operator" => "a comparison".to_string(),
        "subscript" => "an index or slice expression".to_string(),
        "lambda" => "a lambda".to_string(),
        "call" => format!(
            "a call to {}()",
            excerpt(
                node.child_by_field_name("function")
                    .map(|f| node_text(f, text))
                    .unwrap_or("?")
            )
        ),
        "identifier" => format!("the name `{}`", node_text(node, text)),
        "attribute" => format!("the attribute `{}`", excerpt(node_text(node, text))),
        "binary_operator" | "unary_operator" => "an arithmetic expression".to_string(),
        other => format!("a `{other}` expression"),
    }
}

fn collection(node: Node<'_>, text: &str) -> Collection {
    let node = unwrap_parentheses(node);
    match node.kind() {
        "tuple" | "list" | "set" | "expression_list" | "dictionary" => {
            let entries = value_children(node);
            if let Some(splat) = entries
                .iter()
                .find(|e| matches!(e.kind(), "list_splat" | "dictionary_splat"))
            {
                return Collection::Not(format!(
                    "{} that unpacks `{}`, so its length depends on another value",
                    describe(node, text),
                    excerpt(node_text(*splat, text))
                ));
            }
            Collection::Count(entries.len())
        }
        _ => Collection::Not(describe(node, text)),
    }
}

fn unwrap_parentheses(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    for _ in 0..crate::limits::MAX_DEPTH {
        if current.kind() != "parenthesized_expression" {
            break;
        }
        match value_children(current).as_slice() {
            [inner] => current = *inner,
            _ => break,
        }
    }
    current
}

#[cfg(test)]
mod deep_input {
    use super::*;

    fn right_side(source: &str) -> SrcExpr {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .expect("grammar");
        let tree = parser.parse(source, None).expect("parse");
        let assignment = tree
            .root_node()
            .named_child(0)
            .and_then(|statement| statement.named_child(0))
            .expect("assignment");
        let right = assignment.child_by_field_name("right").expect("right");
        expression(right, source, Depth::ROOT)
    }

    #[test]
    fn an_attribute_chain_of_any_length_is_read_without_recursion() {
        assert_eq!(
            right_side("X = limits.MAX\n"),
            SrcExpr::Path(vec!["limits".to_owned(), "MAX".to_owned()])
        );
        let hostile = format!("X = a{}\n", ".b".repeat(10_000));
        assert!(matches!(right_side(&hostile), SrcExpr::NotStatic(_)));
    }
}
