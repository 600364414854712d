//! Stage 2a, TypeScript and JavaScript: top-level `const X = ...` (exported or not,
//! typed or not, with `as const` / `satisfies`) read from a tree-sitter parse.
//! Numbers are JavaScript numbers: `/` divides exactly and bitwise operators work on
//! 32-bit integers, except on bigint literals (`10n`), which stay integers.

use tree_sitter::Node;

use crate::limits::Depth;

use super::arith;
use super::{
    BinaryOp, Collection, DefinitionParts, Language, ModuleTable, NumKind, SrcExpr, UnaryOp,
    call_not_static, definition, excerpt, node_text, value_children,
};

pub(crate) fn extract(root: Node<'_>, text: &str, language: Language) -> ModuleTable {
    let mut table = ModuleTable::new(language);
    for statement in value_children(root) {
        let declaration = match statement.kind() {
            "export_statement" => match statement.child_by_field_name("declaration") {
                Some(declaration) => declaration,
                None => continue,
            },
            _ => statement,
        };
        let keyword = match declaration.kind() {
            "lexical_declaration" => declaration
                .child(0)
                .map(|k| node_text(k, text))
                .unwrap_or("const"),
            "variable_declaration" => "var",
            _ => continue,
        };
        for declarator in value_children(declaration) {
            if declarator.kind() != "variable_declarator" {
                continue;
            }
            let (Some(name), Some(value_node)) = (
                declarator.child_by_field_name("name"),
                declarator.child_by_field_name("value"),
            ) else {
                continue;
            };
            if name.kind() != "identifier" {
                continue;
            }
            let value = if keyword == "const" {
                expression(value_node, text, Depth::ROOT)
            } else {
                SrcExpr::NotStatic(format!(
                    "is declared with `{keyword}`, so it can change at run time"
                ))
            };
            let parts = DefinitionParts {
                name_node: name,
                statement,
                value_node,
                value,
                declared_type: None,
                collection: collection(value_node, text),
                scope: Vec::new(),
            };
            table.definitions.push(definition(parts, text));
        }
    }
    table
}

fn number_literal(raw: &str) -> SrcExpr {
    let lower = raw.to_ascii_lowercase();
    let (body, kind) = match lower.strip_suffix('n') {
        Some(body) => (body, NumKind::Int),
        None => (lower.as_str(), NumKind::Float),
    };
    let radix = [("0x", 16), ("0o", 8), ("0b", 2)]
        .into_iter()
        .find_map(|(prefix, radix)| body.strip_prefix(prefix).map(|digits| (radix, digits)));
    let parsed = match radix {
        Some((radix, digits)) => arith::parse_digits(digits, radix),
        None => {
            let legacy_octal = body.len() > 1
                && body.starts_with('0')
                && body.chars().all(|c| c.is_ascii_digit() || c == '_');
            if legacy_octal {
                return SrcExpr::NotStatic(format!("is the legacy octal literal {raw}"));
            }
            arith::parse_decimal(body)
        }
    };
    match parsed {
        Ok(value) => SrcExpr::Literal(value, kind),
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
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        "**" => BinaryOp::Pow,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        ">>>" => BinaryOp::UShr,
        "&" => BinaryOp::BitAnd,
        "|" => BinaryOp::BitOr,
        "^" => BinaryOp::BitXor,
        _ => return None,
    })
}

/// Strips what only the type checker sees: `x as const`, `x satisfies T`, `x!`.
fn without_type_syntax(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    for _ in 0..crate::limits::MAX_DEPTH {
        match current.kind() {
            "as_expression" | "satisfies_expression" | "non_null_expression" => {
                match value_children(current).first() {
                    Some(inner) => current = *inner,
                    None => break,
                }
            }
            "parenthesized_expression" => match value_children(current).as_slice() {
                [inner] => current = *inner,
                _ => break,
            },
            _ => break,
        }
    }
    current
}

pub(crate) fn expression(node: Node<'_>, text: &str, depth: Depth) -> SrcExpr {
    if depth.exhausted() {
        return SrcExpr::NotStatic(depth.too_deep());
    }
    let raw = node_text(node, text);
    match node.kind() {
        "number" => number_literal(raw),
        "identifier" => SrcExpr::Name(raw.to_string()),
        "as_expression"
        | "satisfies_expression"
        | "non_null_expression"
        | "parenthesized_expression" => {
            let inner = without_type_syntax(node);
            if inner == node {
                SrcExpr::NotStatic(format!("is `{}`", excerpt(raw)))
            } else {
                expression(inner, text, depth.deeper())
            }
        }
        "unary_expression" => super::unary_node(
            node,
            text,
            depth,
            node.child_by_field_name("operator")
                .zip(node.child_by_field_name("argument")),
            unary_op,
            expression,
        ),
        "binary_expression" => super::binary_node(node, text, depth, binary_op, expression),
        "call_expression" => call_not_static(
            node.child_by_field_name("function")
                .map(|f| node_text(f, text))
                .unwrap_or(raw),
        ),
        "member_expression" => SrcExpr::NotStatic(format!(
            "reads the property `{}`, which recount does not follow",
            excerpt(raw)
        )),
        _ => SrcExpr::NotStatic(format!(
            "is {} (`{}`), which recount does not evaluate as a number",
            describe(node),
            excerpt(raw)
        )),
    }
}

fn describe(node: Node<'_>) -> String {
    match node.kind() {
        "number" => "a number".to_string(),
        "string" | "template_string" => "a string".to_string(),
        "true" | "false" => "a boolean".to_string(),
        "null" | "undefined" => "null".to_string(),
        "array" => "an array".to_string(),
        "object" => "an object literal".to_string(),
        "arrow_function" | "function_expression" | "function" => "a function".to_string(),
        "call_expression" => "a function call".to_string(),
        "new_expression" => "a `new` expression".to_string(),
        "member_expression" | "subscript_expression" => "a property access".to_string(),
        "ternary_expression" => "a conditional expression".to_string(),
        "identifier" => "a name".to_string(),
        "binary_expression" | "unary_expression" => "an arithmetic expression".to_string(),
        other => format!("a `{other}` expression"),
    }
}

fn collection(node: Node<'_>, text: &str) -> Collection {
    let node = without_type_syntax(node);
    if node.kind() != "array" {
        return Collection::Not(describe(node));
    }
    let entries = value_children(node);
    if let Some(spread) = entries.iter().find(|e| e.kind() == "spread_element") {
        return Collection::Not(format!(
            "an array that spreads `{}`, so its length depends on another value",
            excerpt(node_text(*spread, text))
        ));
    }
    Collection::Count(entries.len())
}
