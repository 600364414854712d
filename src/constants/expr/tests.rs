//! Tests of the rule-expression language (stage 2a): precedence, units, references,
//! error spans, normalised display, and property tests against i128 arithmetic.

use super::*;
use proptest::prelude::*;

fn int(v: i128) -> Number {
    Number::from_integer(v)
}

fn eval_with(src: &str, values: &[(&str, i128)]) -> Result<Number, EvalError> {
    let expr = parse(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    expr.eval(&mut |reference| {
        let key = reference.to_string();
        values
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, v)| int(*v))
            .ok_or_else(|| format!("no value for {key}"))
    })
}

fn eval(src: &str) -> Number {
    eval_with(src, &[]).unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn parse_error(src: &str) -> (usize, usize, String) {
    match parse(src) {
        Err(e) => (e.offset, e.len, e.message),
        Ok(expr) => panic!("{src} parsed as {expr}"),
    }
}

#[test]
fn precedence_follows_python() {
    assert_eq!(eval("2 + 3 * 4"), int(14));
    assert_eq!(eval("(2 + 3) * 4"), int(20));
    assert_eq!(eval("-2 ** 2"), int(-4));
    assert_eq!(eval("(-2) ** 2"), int(4));
    assert_eq!(eval("2 ** 3 ** 2"), int(512));
    assert_eq!(eval("1 << 2 + 1"), int(8));
    assert_eq!(eval("64 >> 1 + 1"), int(16));
    assert_eq!(eval("10 - 4 - 3"), int(3));
    assert_eq!(eval("2 * 3 // 4"), int(1));
    assert_eq!(eval("- - 3"), int(3));
}

#[test]
fn division_and_remainder_are_exact_and_floored() {
    assert_eq!(eval("7 / 2"), Number::new(7, 2));
    assert_eq!(eval("7 // 2"), int(3));
    assert_eq!(eval("-7 // 2"), int(-4));
    assert_eq!(eval("-7 % 3"), int(2));
    assert_eq!(eval("7 % -3"), int(-2));
    assert_eq!(eval("1.032 * 1_000"), int(1032));
    assert_eq!(eval("0.1 + 0.2"), Number::new(3, 10));
}

#[test]
fn units_scale_numbers_and_parentheses() {
    assert_eq!(eval("1 MiB"), int(1_048_576));
    assert_eq!(eval("2KiB"), int(2048));
    assert_eq!(eval("(1 + 1) KiB"), int(2048));
    assert_eq!(eval("1.5 GiB"), int(1_610_612_736));
    assert_eq!(eval("1 TiB"), int(1 << 40));
    assert_eq!(eval("3 KB + 2 MB + 1 GB"), int(1_002_003_000));
    assert_eq!(eval("12 bytes + 1 B"), int(13));
    assert_eq!(
        eval_with(
            "3 * MAX_SOURCE_FILE_BYTES + 1 MiB",
            &[("MAX_SOURCE_FILE_BYTES", 8_388_608)]
        ),
        Ok(int(26_214_400))
    );
}

#[test]
fn references_are_deduplicated_in_order() {
    let expr = parse("A + {body-cap} * A - C + {body-cap} + {v1.2_x}").unwrap();
    assert_eq!(
        expr.references(),
        vec![
            Reference::Constant("A".into()),
            Reference::Fact("body-cap".into()),
            Reference::Constant("C".into()),
            Reference::Fact("v1.2_x".into()),
        ]
    );
    assert_eq!(
        eval_with("{body-cap} - 1", &[("{body-cap}", 10)]),
        Ok(int(9))
    );
    assert!(parse("12 * 3").unwrap().references().is_empty());
}

#[test]
fn parse_errors_point_at_the_problem() {
    assert_eq!(parse_error("1 + ").0, 4);
    assert_eq!(parse_error("1 + ").1, 0);
    assert_eq!(
        parse_error("1 $ 2"),
        (2, 1, "`$` is not part of the expression language".into())
    );
    let (offset, len, message) = parse_error("(1 + 2");
    assert_eq!((offset, len), (0, 1));
    assert!(message.contains("never closed"));
    assert_eq!(parse_error("1 + 2)").0, 5);
    let (offset, len, message) = parse_error("MAX MiB");
    assert_eq!((offset, len), (4, 3));
    assert!(message.contains("only a number"), "{message}");
    assert_eq!(parse_error("MiB + 1").0, 0);
    assert_eq!(parse_error("2 + {Bad}"), (4, 5, parse_error("{Bad}").2));
    assert_eq!(parse_error("{-x}").0, 0);
    assert!(parse_error("{open").2.contains("never closed"));
    assert_eq!(parse_error("1__0").0, 1);
    assert_eq!(parse_error("10_").0, 2);
    assert_eq!(parse_error("1.").0, 1);
    assert_eq!(parse_error("2 3").0, 2);
    assert_eq!(parse_error("* 3").0, 0);
    assert_eq!(parse_error("").0, 0);
    assert_eq!(parse_error("1 + é").1, 2);
    let deep = format!("{}1{}", "(".repeat(150), ")".repeat(150));
    assert!(parse_error(&deep).2.contains("nests deeper"));
}

#[test]
fn eval_errors_carry_spans() {
    let err = eval_with("1 + 2 ** -1", &[]).unwrap_err();
    assert_eq!(err.span(), (4, 7));
    assert!(matches!(
        err,
        EvalError::Arithmetic {
            problem: ArithError::NegativeExponent(_),
            ..
        }
    ));
    let err = eval_with("(1 / 0)", &[]).unwrap_err();
    assert_eq!(err.span(), (0, 7));
    assert!(matches!(
        err,
        EvalError::Arithmetic {
            problem: ArithError::DivisionByZero,
            ..
        }
    ));
    assert!(matches!(
        eval_with("1 << 0.5", &[]),
        Err(EvalError::Arithmetic {
            problem: ArithError::NotInteger { .. },
            ..
        })
    ));
    assert!(matches!(
        eval_with("2 ** 0.5", &[]),
        Err(EvalError::Arithmetic {
            problem: ArithError::FractionalExponent(_),
            ..
        })
    ));
    assert!(matches!(
        eval_with("2 ** 200", &[]),
        Err(EvalError::Arithmetic {
            problem: ArithError::Overflow,
            ..
        })
    ));
    let err = eval_with("1 + MISSING", &[]).unwrap_err();
    assert_eq!(err.span(), (4, 7));
    assert_eq!(
        err.to_string(),
        "`MISSING` could not be resolved: no value for MISSING"
    );
}

#[test]
fn display_is_normalised_and_reparses() {
    let cases = [
        (
            "3*MAX_SOURCE_FILE_BYTES+1 MiB",
            "3 * MAX_SOURCE_FILE_BYTES + 1 MiB",
        ),
        ("(1+2)*3", "(1 + 2) * 3"),
        ("((4))", "4"),
        ("-(2 ** 2)", "-2 ** 2"),
        ("(-2) ** 2", "(-2) ** 2"),
        ("1_000", "1000"),
        ("2 - (3 - 4)", "2 - (3 - 4)"),
        ("(2 - 3) - 4", "2 - 3 - 4"),
        ("(2 ** 3) ** 2", "(2 ** 3) ** 2"),
        ("2 ** (3 ** 2)", "2 ** 3 ** 2"),
        ("(1 + {x}) KiB", "(1 + {x}) KiB"),
        ("1<<(2+1)", "1 << 2 + 1"),
        ("(1<<2)+1", "(1 << 2) + 1"),
        ("2 ** -1", "2 ** -1"),
        ("- - 3", "--3"),
    ];
    for (input, normalised) in cases {
        let expr = parse(input).unwrap();
        assert_eq!(expr.to_string(), normalised, "{input}");
        assert_eq!(parse(normalised).unwrap().to_string(), normalised);
    }
}

/// Python's floor division and modulo on i128, `None` where they overflow.
fn floor_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// Python's `%` on integers: its value always fits when the operands do
/// (`|r| < |b|`), so it is taken from the remainder, not from `a - b * q`,
/// whose product may overflow on the way.
fn floor_mod(a: i128, b: i128) -> Option<i128> {
    if b == 0 {
        return None;
    }
    // `i128::MIN % -1` is 0, which `checked_rem` refuses.
    let r = a.checked_rem(b).unwrap_or(0);
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

#[derive(Debug, Clone)]
enum Tree {
    Leaf(i128),
    Neg(Box<Tree>),
    Bin(&'static str, Box<Tree>, Box<Tree>),
    Pow(Box<Tree>, u32),
    Shl(Box<Tree>, u32),
}

impl Tree {
    fn source(&self) -> String {
        match self {
            Tree::Leaf(v) if *v < 0 => format!("(-{})", v.unsigned_abs()),
            Tree::Leaf(v) => v.to_string(),
            Tree::Neg(t) => format!("(-{})", t.source()),
            Tree::Bin(op, l, r) => format!("({} {op} {})", l.source(), r.source()),
            Tree::Pow(t, e) => format!("({} ** {e})", t.source()),
            Tree::Shl(t, e) => format!("({} << {e})", t.source()),
        }
    }

    fn reference(&self) -> Option<i128> {
        match self {
            Tree::Leaf(v) => Some(*v),
            Tree::Neg(t) => t.reference()?.checked_neg(),
            Tree::Bin(op, l, r) => {
                let (a, b) = (l.reference()?, r.reference()?);
                match *op {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "//" => floor_div(a, b),
                    "%" => floor_mod(a, b),
                    _ => None,
                }
            }
            Tree::Pow(t, e) => t.reference()?.checked_pow(*e),
            Tree::Shl(t, e) => {
                let a = t.reference()?;
                // Zero shifted any distance is zero; `checked_shl` refuses
                // distances of 128 and more whatever the value.
                if a == 0 {
                    return Some(0);
                }
                let shifted = a.checked_shl(*e)?;
                (shifted >> e == a).then_some(shifted)
            }
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        (-1000i128..1000).prop_map(Tree::Leaf),
        (i128::MIN + 1..=i128::MAX).prop_map(Tree::Leaf),
    ];
    leaf.prop_recursive(5, 32, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Tree::Neg(Box::new(t))),
            (
                prop::sample::select(vec!["+", "-", "*", "//", "%"]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, l, r)| Tree::Bin(op, Box::new(l), Box::new(r))),
            (inner.clone(), 0u32..6).prop_map(|(t, e)| Tree::Pow(Box::new(t), e)),
            (inner, 0u32..130).prop_map(|(t, e)| Tree::Shl(Box::new(t), e)),
        ]
    })
}

proptest! {
    #[test]
    fn parse_never_panics(src in ".{0,64}") {
        let _ = parse(&src);
    }

    #[test]
    fn parse_never_panics_on_expression_characters(src in "[0-9_. ()+*/%<>{}a-zA-Z-]{0,48}") {
        if let Ok(expr) = parse(&src) {
            let _ = expr.eval(&mut |_| Ok(int(3)));
            let normalised = expr.to_string();
            let reparsed = parse(&normalised);
            prop_assert!(reparsed.is_ok(), "{normalised}");
            prop_assert_eq!(reparsed.map(|e| e.to_string()).unwrap_or_default(), normalised);
        }
    }

    #[test]
    fn integer_arithmetic_matches_checked_i128(t in tree()) {
        let src = t.source();
        let got = match parse(&src) {
            Ok(expr) => expr.eval(&mut |_| Err("no references".to_string())),
            Err(e) => return Err(TestCaseError::fail(format!("{src}: {e}"))),
        };
        match t.reference() {
            Some(expected) => prop_assert_eq!(got, Ok(int(expected)), "{}", src),
            None => prop_assert!(got.is_err(), "{src} gave {got:?}"),
        }
    }
}
