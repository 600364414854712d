//! Stage 2a, Rust: `const` and `static` items at the top of a file and inside inline
//! `mod` blocks, read from a tree-sitter parse. Literals keep Rust's meaning: an
//! integer literal is an integer (so `7 / 2` is 3), suffixes and `_` are dropped,
//! `as` casts are checked to keep the value, and `u32::MAX`-style bounds are known.

use tree_sitter::Node;

use crate::limits::Depth;

use super::arith;
use super::{
    BinaryOp, Collection, DefinitionParts, Language, ModuleTable, NumKind, SrcExpr, UnaryOp,
    call_not_static, definition, excerpt, integer_range, node_text, value_children,
};

pub(crate) fn extract(root: Node<'_>, text: &str) -> ModuleTable {
    let mut table = ModuleTable::new(Language::Rust);
    items(&mut table, root, text, &mut Vec::new(), Depth::ROOT);
    table
}

fn items(
    table: &mut ModuleTable,
    parent: Node<'_>,
    text: &str,
    scope: &mut Vec<String>,
    depth: Depth,
) {
    if depth.exhausted() {
        return;
    }
    for item in value_children(parent) {
        match item.kind() {
            "const_item" | "static_item" => item_definition(table, item, text, scope),
            "use_declaration" if !scope.is_empty() => {
                if let Some(argument) = item.child_by_field_name("argument") {
                    let path: String = node_text(argument, text)
                        .chars()
                        .filter(|c| !c.is_whitespace())
                        .collect();
                    table
                        .super_uses
                        .entry(scope.clone())
                        .or_default()
                        .push(path);
                }
            }
            "mod_item" => {
                let (Some(name), Some(body)) = (
                    item.child_by_field_name("name"),
                    item.child_by_field_name("body"),
                ) else {
                    continue;
                };
                scope.push(node_text(name, text).to_string());
                items(table, body, text, scope, depth.deeper());
                scope.pop();
            }
            _ => {}
        }
    }
}

fn item_definition(table: &mut ModuleTable, item: Node<'_>, text: &str, scope: &[String]) {
    let (Some(name), Some(value_node)) = (
        item.child_by_field_name("name"),
        item.child_by_field_name("value"),
    ) else {
        return;
    };
    let mutable = value_children(item)
        .iter()
        .any(|child| child.kind() == "mutable_specifier");
    let value = if mutable {
        SrcExpr::NotStatic("is a `static mut`, which can change at run time".to_string())
    } else {
        expression(value_node, text, Depth::ROOT)
    };
    let declared_type = item
        .child_by_field_name("type")
        .map(|ty| node_text(ty, text).to_string());
    let parts = DefinitionParts {
        name_node: name,
        statement: item,
        value_node,
        value,
        declared_type,
        collection: collection(value_node, text),
        scope: scope.to_vec(),
    };
    table.definitions.push(definition(parts, text));
}

const INTEGER_SUFFIXES: [&str; 12] = [
    "u128", "i128", "usize", "isize", "u16", "u32", "u64", "i16", "i32", "i64", "u8", "i8",
];

fn integer_literal(raw: &str) -> SrcExpr {
    let mut body = raw;
    let mut suffix_type = None;
    for suffix in INTEGER_SUFFIXES {
        if let Some(rest) = raw.strip_suffix(suffix) {
            body = rest;
            suffix_type = Some(suffix);
            break;
        }
    }
    let lower = body.to_ascii_lowercase();
    let (digits, radix) = if let Some(rest) = lower.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (rest, 8)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (rest, 2)
    } else {
        (lower.as_str(), 10)
    };
    let literal = match arith::parse_digits(digits, radix) {
        Ok(value) => SrcExpr::Literal(value, NumKind::Int),
        Err(e) => return SrcExpr::Invalid(e),
    };
    // `300u8` carries its type: the cast checks the range and records the width.
    match suffix_type {
        Some(ty) => SrcExpr::Cast(Box::new(literal), ty.to_string()),
        None => literal,
    }
}

fn float_literal(raw: &str) -> SrcExpr {
    let body = raw
        .strip_suffix("f32")
        .or_else(|| raw.strip_suffix("f64"))
        .unwrap_or(raw);
    match arith::parse_decimal(body.trim_end_matches('_')) {
        Ok(value) => SrcExpr::Literal(value, NumKind::Float),
        Err(e) => SrcExpr::Invalid(e),
    }
}

fn unary_op(symbol: &str) -> Option<UnaryOp> {
    Some(match symbol {
        "-" => UnaryOp::Neg,
        "!" => UnaryOp::BitNot,
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
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        "&" => BinaryOp::BitAnd,
        "|" => BinaryOp::BitOr,
        "^" => BinaryOp::BitXor,
        _ => return None,
    })
}

/// `u32::MAX`, `i64::MIN`, `u8::BITS`.
fn primitive_bound(ty: &str, item: &str) -> Option<SrcExpr> {
    let (min, max) = integer_range(ty)?;
    let value = match item {
        "MAX" if ty == "u128" => return Some(SrcExpr::Invalid(arith::ArithError::Overflow)),
        "MAX" => max,
        "MIN" => min,
        "BITS" => match ty {
            "u8" | "i8" => 8,
            "u16" | "i16" => 16,
            "u32" | "i32" => 32,
            "u64" | "i64" | "usize" | "isize" => 64,
            _ => 128,
        },
        _ => return None,
    };
    Some(SrcExpr::Literal(arith::integer(value), NumKind::Int))
}

fn path_segments(node: Node<'_>, text: &str, depth: Depth) -> Option<Vec<String>> {
    if depth.exhausted() {
        return None;
    }
    match node.kind() {
        "scoped_identifier" => {
            let mut path = match node.child_by_field_name("path") {
                Some(path) => path_segments(path, text, depth.deeper())?,
                None => Vec::new(),
            };
            path.push(node_text(node.child_by_field_name("name")?, text).to_string());
            Some(path)
        }
        "identifier" | "super" | "self" | "crate" | "primitive_type" => {
            Some(vec![node_text(node, text).to_string()])
        }
        _ => None,
    }
}

pub(crate) fn expression(node: Node<'_>, text: &str, depth: Depth) -> SrcExpr {
    if depth.exhausted() {
        return SrcExpr::NotStatic(depth.too_deep());
    }
    let raw = node_text(node, text);
    match node.kind() {
        "integer_literal" => integer_literal(raw),
        "float_literal" => float_literal(raw),
        "identifier" => SrcExpr::Name(raw.to_string()),
        "scoped_identifier" => match path_segments(node, text, Depth::ROOT) {
            Some(path) => match path.as_slice() {
                [ty, item] => primitive_bound(ty, item).unwrap_or(SrcExpr::Path(path)),
                _ => SrcExpr::Path(path),
            },
            None => SrcExpr::NotStatic(format!("refers to `{}`", excerpt(raw))),
        },
        "parenthesized_expression" => match value_children(node).as_slice() {
            [inner] => expression(*inner, text, depth.deeper()),
            _ => SrcExpr::NotStatic(format!("is `{}`", excerpt(raw))),
        },
        "unary_expression" => super::unary_node(
            node,
            text,
            depth,
            node.child(0).zip(value_children(node).into_iter().last()),
            unary_op,
            expression,
        ),
        "binary_expression" => super::binary_node(node, text, depth, binary_op, expression),
        "type_cast_expression" => {
            let (Some(value), Some(ty)) = (
                node.child_by_field_name("value"),
                node.child_by_field_name("type"),
            ) else {
                return SrcExpr::NotStatic(format!("is `{}`", excerpt(raw)));
            };
            SrcExpr::Cast(
                Box::new(expression(value, text, depth.deeper())),
                node_text(ty, text).to_string(),
            )
        }
        "call_expression" => call_not_static(
            node.child_by_field_name("function")
                .map(|f| node_text(f, text))
                .unwrap_or(raw),
        ),
        "macro_invocation" => SrcExpr::NotStatic(format!(
            "invokes the macro `{}`, which recount does not evaluate",
            excerpt(
                node.child_by_field_name("macro")
                    .map(|m| node_text(m, text))
                    .unwrap_or(raw)
            )
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
        "integer_literal" | "float_literal" => "a number".to_string(),
        "string_literal" | "raw_string_literal" => "a string".to_string(),
        "char_literal" => "a character".to_string(),
        "boolean_literal" => "a boolean".to_string(),
        "array_expression" => "an array".to_string(),
        "tuple_expression" => "a tuple".to_string(),
        "struct_expression" => "a struct literal".to_string(),
        "reference_expression" => "a reference".to_string(),
        "call_expression" => "a function call".to_string(),
        "macro_invocation" => "a macro invocation".to_string(),
        "field_expression" => "a field access".to_string(),
        "index_expression" => "an index expression".to_string(),
        "block" | "unsafe_block" => "a block".to_string(),
        "if_expression" | "match_expression" => "a conditional expression".to_string(),
        "identifier" | "scoped_identifier" => "a name".to_string(),
        "binary_expression" | "unary_expression" | "type_cast_expression" => {
            "an arithmetic expression".to_string()
        }
        other => format!("a `{other}` expression"),
    }
}

fn collection(node: Node<'_>, text: &str) -> Collection {
    let mut current = node;
    for _ in 0..crate::limits::MAX_DEPTH {
        match current.kind() {
            "reference_expression" => match current.child_by_field_name("value") {
                Some(value) => current = value,
                None => break,
            },
            "parenthesized_expression" => match value_children(current).as_slice() {
                [inner] => current = *inner,
                _ => break,
            },
            _ => break,
        }
    }
    if current.kind() != "array_expression" {
        return Collection::Not(describe(current));
    }
    if let Some(length) = current.child_by_field_name("length") {
        return Collection::Repeat(expression(length, text, Depth::ROOT));
    }
    let entries = value_children(current)
        .into_iter()
        .filter(|child| child.kind() != "attribute_item")
        .count();
    Collection::Count(entries)
}
