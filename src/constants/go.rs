//! Stage 2a, Go: package-level `const` declarations (single, typed, grouped, with a
//! spec that repeats the one before it) and `var` bindings of composite literals,
//! read from a tree-sitter parse. `iota` is refused rather than counted, and a
//! name defined in another file of the same package is found by the evaluator.

use tree_sitter::Node;

use crate::limits::Depth;

use super::arith;
use super::{
    BinaryOp, Collection, DefinitionParts, Language, ModuleTable, NumKind, SrcExpr, UnaryOp,
    call_not_static, definition, excerpt, integer_range, is_float_type, node_text, value_children,
};

pub(crate) fn extract(root: Node<'_>, text: &str) -> ModuleTable {
    let mut table = ModuleTable::new(Language::Go);
    for declaration in value_children(root) {
        match declaration.kind() {
            "package_clause" => {
                table.package = value_children(declaration)
                    .first()
                    .map(|name| node_text(*name, text).to_string());
            }
            "const_declaration" => const_declaration(&mut table, declaration, text),
            "var_declaration" => {
                for spec in specs(declaration, "var_spec") {
                    spec_definitions(&mut table, spec, spec, text, false);
                }
            }
            _ => {}
        }
    }
    table
}

/// The specs of a declaration, whether written alone or in a `( ... )` group.
fn specs<'t>(declaration: Node<'t>, kind: &str) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    for child in value_children(declaration) {
        if child.kind() == kind {
            found.push(child);
        } else if child.kind().ends_with("_spec_list") {
            found.extend(
                value_children(child)
                    .into_iter()
                    .filter(|c| c.kind() == kind),
            );
        }
    }
    found
}

fn const_declaration(table: &mut ModuleTable, declaration: Node<'_>, text: &str) {
    // A spec without values repeats the previous spec's expressions (and type).
    let mut previous: Option<Node<'_>> = None;
    for spec in specs(declaration, "const_spec") {
        let source = if spec.child_by_field_name("value").is_some() {
            previous = Some(spec);
            spec
        } else {
            match previous {
                Some(previous) => previous,
                None => continue,
            }
        };
        spec_definitions(table, spec, source, text, true);
    }
}

/// Defines every name of `spec`, taking values (and type) from `source`.
fn spec_definitions(
    table: &mut ModuleTable,
    spec: Node<'_>,
    source: Node<'_>,
    text: &str,
    is_const: bool,
) {
    let mut cursor = spec.walk();
    let names: Vec<Node<'_>> = spec
        .children_by_field_name("name", &mut cursor)
        .filter(|name| name.kind() == "identifier")
        .collect();
    let Some(values) = source.child_by_field_name("value") else {
        return;
    };
    let values = value_children(values);
    let ty = source.child_by_field_name("type");
    let declared_type = ty.map(|t| node_text(t, text).to_string());
    let repeated = spec != source;
    for (position, name) in names.into_iter().enumerate() {
        if node_text(name, text) == "_" {
            continue;
        }
        let Some(value_node) = values.get(position).copied() else {
            continue;
        };
        let mut value = if !is_const {
            SrcExpr::NotStatic("is a `var`, which can change at run time".to_string())
        } else if uses_iota(value_node, Depth::ROOT) && repeated {
            SrcExpr::NotStatic(
                "repeats an iota expression from the spec above, which recount does not evaluate"
                    .to_string(),
            )
        } else if uses_iota(value_node, Depth::ROOT) {
            SrcExpr::NotStatic("uses iota, which recount does not evaluate".to_string())
        } else {
            expression(value_node, text, Depth::ROOT)
        };
        if let (Some(ty), true) = (ty, is_const) {
            let ty = node_text(ty, text);
            if integer_range(ty).is_some() || is_float_type(ty) {
                value = SrcExpr::Cast(Box::new(value), ty.to_string());
            }
        }
        let parts = DefinitionParts {
            name_node: name,
            statement: binding_statement(spec),
            value_node,
            value,
            declared_type: declared_type.clone(),
            collection: collection(value_node, text),
            scope: Vec::new(),
        };
        table.definitions.push(definition(parts, text));
    }
}

/// The whole declaration when it declares one spec without parentheses, else the spec.
fn binding_statement(spec: Node<'_>) -> Node<'_> {
    match spec.parent() {
        Some(parent) if parent.kind().ends_with("_declaration") => {
            let mut cursor = parent.walk();
            let grouped = parent.children(&mut cursor).any(|c| c.kind() == "(");
            if grouped { spec } else { parent }
        }
        _ => spec,
    }
}

fn uses_iota(node: Node<'_>, depth: Depth) -> bool {
    if node.kind() == "iota" {
        return true;
    }
    !depth.deeper().exhausted()
        && value_children(node)
            .into_iter()
            .any(|c| uses_iota(c, depth.deeper()))
}

fn integer_literal(raw: &str) -> SrcExpr {
    let lower = raw.to_ascii_lowercase();
    let (digits, radix) = if let Some(rest) = lower.strip_prefix("0x") {
        (rest.to_string(), 16)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (rest.to_string(), 8)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (rest.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        // Go keeps C's leading-zero octal: 0755 is 493.
        (lower.trim_start_matches('0').to_string(), 8)
    } else {
        (lower, 10)
    };
    let digits = if digits.trim_matches('_').is_empty() {
        "0".to_string()
    } else {
        digits
    };
    match arith::parse_digits(&digits, radix) {
        Ok(value) => SrcExpr::Literal(value, NumKind::Int),
        Err(e) => SrcExpr::Invalid(e),
    }
}

fn float_literal(raw: &str) -> SrcExpr {
    if raw.to_ascii_lowercase().starts_with("0x") {
        return SrcExpr::NotStatic(format!(
            "is the hexadecimal float {raw}, which recount does not evaluate"
        ));
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
        "^" => UnaryOp::BitNot,
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
        "&^" => BinaryOp::BitClear,
        _ => return None,
    })
}

/// `math.MaxInt64` and friends, which Go code uses as bounds.
fn math_constant(name: &str) -> Option<i128> {
    let ty = match name {
        "MaxInt8" | "MinInt8" => "int8",
        "MaxInt16" | "MinInt16" => "int16",
        "MaxInt32" | "MinInt32" => "int32",
        "MaxInt64" | "MinInt64" | "MaxInt" | "MinInt" => "int64",
        "MaxUint8" => "uint8",
        "MaxUint16" => "uint16",
        "MaxUint32" => "uint32",
        "MaxUint64" | "MaxUint" => "uint64",
        _ => return None,
    };
    let (min, max) = integer_range(ty)?;
    Some(if name.starts_with("Min") { min } else { max })
}

pub(crate) fn expression(node: Node<'_>, text: &str, depth: Depth) -> SrcExpr {
    if depth.exhausted() {
        return SrcExpr::NotStatic(depth.too_deep());
    }
    let raw = node_text(node, text);
    match node.kind() {
        "int_literal" => integer_literal(raw),
        "float_literal" => float_literal(raw),
        "imaginary_literal" => SrcExpr::NotStatic(format!("is the imaginary number {raw}")),
        "iota" => SrcExpr::NotStatic("uses iota, which recount does not evaluate".to_string()),
        "identifier" => SrcExpr::Name(raw.to_string()),
        "parenthesized_expression" => match value_children(node).as_slice() {
            [inner] => expression(*inner, text, depth.deeper()),
            _ => SrcExpr::NotStatic(format!("is `{}`", excerpt(raw))),
        },
        "unary_expression" => super::unary_node(
            node,
            text,
            depth,
            node.child_by_field_name("operator")
                .zip(node.child_by_field_name("operand")),
            unary_op,
            expression,
        ),
        "binary_expression" => super::binary_node(node, text, depth, binary_op, expression),
        "call_expression" => {
            let function = node.child_by_field_name("function");
            let function_name = function.map(|f| node_text(f, text)).unwrap_or(raw);
            let arguments = node
                .child_by_field_name("arguments")
                .map(value_children)
                .unwrap_or_default();
            // `int64(x)` is a conversion, not a call.
            match arguments.as_slice() {
                [argument]
                    if integer_range(function_name).is_some() || is_float_type(function_name) =>
                {
                    SrcExpr::Cast(
                        Box::new(expression(*argument, text, depth.deeper())),
                        function_name.to_string(),
                    )
                }
                _ => call_not_static(function_name),
            }
        }
        "selector_expression" => {
            let operand = node
                .child_by_field_name("operand")
                .map(|o| node_text(o, text));
            let field = node
                .child_by_field_name("field")
                .map(|f| node_text(f, text));
            match (operand, field.and_then(math_constant)) {
                (Some("math"), Some(value)) => {
                    SrcExpr::Literal(arith::integer(value), NumKind::Int)
                }
                _ => SrcExpr::NotStatic(format!(
                    "refers to `{}` in another package, which recount does not follow",
                    excerpt(raw)
                )),
            }
        }
        _ => SrcExpr::NotStatic(format!(
            "is {} (`{}`), which recount does not evaluate as a number",
            describe(node),
            excerpt(raw)
        )),
    }
}

fn describe(node: Node<'_>) -> String {
    match node.kind() {
        "int_literal" | "float_literal" => "a number".to_string(),
        "interpreted_string_literal" | "raw_string_literal" => "a string".to_string(),
        "rune_literal" => "a rune".to_string(),
        "true" | "false" => "a boolean".to_string(),
        "nil" => "nil".to_string(),
        "composite_literal" => "a composite literal".to_string(),
        "call_expression" => "a function call".to_string(),
        "func_literal" => "a function".to_string(),
        "selector_expression" => "a selector".to_string(),
        "identifier" => "a name".to_string(),
        "binary_expression" | "unary_expression" => "an arithmetic expression".to_string(),
        other => format!("a `{other}` expression"),
    }
}

fn collection(node: Node<'_>, text: &str) -> Collection {
    if node.kind() != "composite_literal" {
        return Collection::Not(describe(node));
    }
    let kind = node
        .child_by_field_name("type")
        .map(|t| t.kind())
        .unwrap_or("");
    if !matches!(
        kind,
        "slice_type" | "array_type" | "implicit_length_array_type" | "map_type"
    ) {
        let ty = node
            .child_by_field_name("type")
            .map(|t| node_text(t, text))
            .unwrap_or("?");
        return Collection::Not(format!("a `{}` literal", excerpt(ty)));
    }
    let Some(body) = node.child_by_field_name("body") else {
        return Collection::Count(0);
    };
    Collection::Count(
        value_children(body)
            .into_iter()
            .filter(|e| matches!(e.kind(), "literal_element" | "keyed_element"))
            .count(),
    )
}
