//! Stage 2a support: exact, checked arithmetic on [`Number`] shared by the source
//! evaluators and the rule-expression language.
//!
//! Every operation works on numerators and denominators directly so that no path
//! through `num_rational`'s own operators (which may panic or wrap at the edges of
//! `i128`) is taken: an overflow is always an [`ArithError`], never a wrong value.

use crate::number::Number;

/// Why an exact operation could not produce a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArithError {
    #[error("the result does not fit in 128-bit integer arithmetic")]
    Overflow,
    #[error("division by zero")]
    DivisionByZero,
    #[error("`{op}` needs integer operands, and {value} is not an integer")]
    NotInteger { op: &'static str, value: String },
    #[error("`**` needs a whole-number exponent, and {0} is not one")]
    FractionalExponent(String),
    #[error("`**` needs an exponent of 0 or more, and {0} is negative")]
    NegativeExponent(String),
    #[error("a shift count must be 0 or more, and {0} is negative")]
    NegativeShift(String),
    #[error("`{0}` is not a valid number literal")]
    BadLiteral(String),
    #[error("{value} does not fit in `{ty}`, so the cast would change it")]
    CastOutOfRange { value: String, ty: String },
}

type Outcome = Result<Number, ArithError>;

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// Builds a reduced rational from a sign and magnitudes, checking it fits `i128`.
fn from_parts(negative: bool, numer: u128, denom: u128) -> Outcome {
    if denom == 0 {
        return Err(ArithError::DivisionByZero);
    }
    if numer == 0 {
        return Ok(Number::from_integer(0));
    }
    let g = gcd(numer, denom);
    let (numer, denom) = (numer / g, denom / g);
    let denom = i128::try_from(denom).map_err(|_| ArithError::Overflow)?;
    let numer = if negative {
        0i128
            .checked_sub_unsigned(numer)
            .ok_or(ArithError::Overflow)?
    } else {
        i128::try_from(numer).map_err(|_| ArithError::Overflow)?
    };
    Ok(Number::new_raw(numer, denom))
}

/// Sign and magnitudes of a number (its denominator is always positive).
fn parts(n: &Number) -> (bool, u128, u128) {
    (
        *n.numer() < 0,
        n.numer().unsigned_abs(),
        n.denom().unsigned_abs(),
    )
}

pub fn integer(v: i128) -> Number {
    Number::from_integer(v)
}

pub fn is_integer(n: &Number) -> bool {
    *n.denom() == 1
}

/// The value as an `i128` when it is a whole number.
pub fn as_integer(n: &Number) -> Option<i128> {
    is_integer(n).then(|| *n.numer())
}

pub fn neg(a: &Number) -> Outcome {
    let (negative, n, d) = parts(a);
    from_parts(!negative, n, d)
}

pub fn add(a: &Number, b: &Number) -> Outcome {
    add_or_sub(a, b, false)
}

pub fn sub(a: &Number, b: &Number) -> Outcome {
    add_or_sub(a, b, true)
}

/// `a + b` or `a - b` over the least common denominator, every step checked.
fn add_or_sub(a: &Number, b: &Number, subtract: bool) -> Outcome {
    let (an, ad, bn, bd) = (*a.numer(), *a.denom(), *b.numer(), *b.denom());
    let g = gcd(ad.unsigned_abs(), bd.unsigned_abs());
    let g = i128::try_from(g).map_err(|_| ArithError::Overflow)?;
    let lcm = (ad / g).checked_mul(bd).ok_or(ArithError::Overflow)?;
    let left = an.checked_mul(lcm / ad).ok_or(ArithError::Overflow)?;
    let right = bn.checked_mul(lcm / bd).ok_or(ArithError::Overflow)?;
    let total = if subtract {
        left.checked_sub(right)
    } else {
        left.checked_add(right)
    }
    .ok_or(ArithError::Overflow)?;
    from_parts(total < 0, total.unsigned_abs(), lcm.unsigned_abs())
}

pub fn mul(a: &Number, b: &Number) -> Outcome {
    let (an_neg, an, ad) = parts(a);
    let (bn_neg, bn, bd) = parts(b);
    let g1 = gcd(an, bd).max(1);
    let g2 = gcd(bn, ad).max(1);
    let numer = (an / g1).checked_mul(bn / g2).ok_or(ArithError::Overflow)?;
    let denom = (ad / g2).checked_mul(bd / g1).ok_or(ArithError::Overflow)?;
    from_parts(an_neg != bn_neg, numer, denom)
}

/// Exact rational division.
pub fn div(a: &Number, b: &Number) -> Outcome {
    let (bn_neg, bn, bd) = parts(b);
    if bn == 0 {
        return Err(ArithError::DivisionByZero);
    }
    let (an_neg, an, ad) = parts(a);
    let g1 = gcd(an, bn).max(1);
    let g2 = gcd(bd, ad).max(1);
    let numer = (an / g1).checked_mul(bd / g2).ok_or(ArithError::Overflow)?;
    let denom = (ad / g2).checked_mul(bn / g1).ok_or(ArithError::Overflow)?;
    from_parts(an_neg != bn_neg, numer, denom)
}

/// The largest integer not above the value.
pub fn floor(a: &Number) -> Number {
    integer(a.numer().div_euclid(*a.denom()))
}

/// The value with its fractional part dropped (rounds toward zero).
pub fn trunc(a: &Number) -> Number {
    integer(a.numer() / a.denom())
}

/// Both operands whole, the divisor not zero: integer division needs no
/// fraction (whose denominator may not fit: `1 // -2**127`).
fn whole_operands(a: &Number, b: &Number) -> Option<(i128, i128)> {
    let (a, b) = (as_integer(a)?, as_integer(b)?);
    (b != 0).then_some((a, b))
}

/// Python's `//`: the floor of the exact quotient.
pub fn floor_div(a: &Number, b: &Number) -> Outcome {
    if let Some((x, y)) = whole_operands(a, b) {
        let q = x.checked_div(y).ok_or(ArithError::Overflow)?;
        let inexact = x % y != 0;
        return Ok(integer(if inexact && ((x < 0) != (y < 0)) {
            q - 1
        } else {
            q
        }));
    }
    Ok(floor(&div(a, b)?))
}

/// Python's `%`: the remainder takes the sign of the divisor.
pub fn floor_mod(a: &Number, b: &Number) -> Outcome {
    if let Some((x, y)) = whole_operands(a, b) {
        // `i128::MIN % -1` is 0, which `checked_rem` refuses.
        let r = x.checked_rem(y).unwrap_or(0);
        return Ok(integer(if r != 0 && ((r < 0) != (y < 0)) {
            r + y
        } else {
            r
        }));
    }
    sub(a, &mul(b, &floor_div(a, b)?)?)
}

/// C-family integer `/` (Rust, Go, JS bigint): the quotient rounded toward zero.
pub fn trunc_div(a: &Number, b: &Number) -> Outcome {
    if let Some((x, y)) = whole_operands(a, b) {
        return x.checked_div(y).map(integer).ok_or(ArithError::Overflow);
    }
    Ok(trunc(&div(a, b)?))
}

/// C-family `%` (Rust, Go, JS): the remainder takes the sign of the dividend.
pub fn trunc_rem(a: &Number, b: &Number) -> Outcome {
    if let Some((x, y)) = whole_operands(a, b) {
        return Ok(integer(x.checked_rem(y).unwrap_or(0)));
    }
    sub(a, &mul(b, &trunc_div(a, b)?)?)
}

/// `base ** exponent` for a whole exponent; a negative one is allowed only when
/// `allow_negative` (Python and JS give a fraction, the rule language refuses).
pub fn pow(base: &Number, exponent: &Number, allow_negative: bool) -> Outcome {
    let Some(e) = as_integer(exponent) else {
        return Err(ArithError::FractionalExponent(exponent.to_string()));
    };
    if e < 0 {
        if !allow_negative {
            return Err(ArithError::NegativeExponent(e.to_string()));
        }
        let positive = pow(
            base,
            &integer(e.checked_neg().ok_or(ArithError::Overflow)?),
            false,
        )?;
        return div(&integer(1), &positive);
    }
    let mut remaining = e.unsigned_abs();
    let mut result = integer(1);
    let mut square = *base;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = mul(&result, &square)?;
        }
        remaining >>= 1;
        if remaining > 0 {
            square = mul(&square, &square)?;
        }
    }
    Ok(result)
}

fn integer_operand(op: &'static str, n: &Number) -> Result<i128, ArithError> {
    as_integer(n).ok_or_else(|| ArithError::NotInteger {
        op,
        value: n.to_string(),
    })
}

fn shift_count(op: &'static str, n: &Number) -> Result<u32, ArithError> {
    let count = integer_operand(op, n)?;
    if count < 0 {
        return Err(ArithError::NegativeShift(count.to_string()));
    }
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

pub fn shl(a: &Number, b: &Number) -> Outcome {
    let value = integer_operand("<<", a)?;
    let count = shift_count("<<", b)?;
    if value == 0 {
        return Ok(integer(0));
    }
    match count {
        0..=126 => value
            .checked_mul(1i128 << count)
            .map(integer)
            .ok_or(ArithError::Overflow),
        127 if value == -1 => Ok(integer(i128::MIN)),
        _ => Err(ArithError::Overflow),
    }
}

/// Arithmetic right shift: the floor of `a / 2**b`, as in Python, Rust and Go.
pub fn shr(a: &Number, b: &Number) -> Outcome {
    let value = integer_operand(">>", a)?;
    let count = shift_count(">>", b)?;
    Ok(integer(value >> count.min(127)))
}

pub fn bit_and(a: &Number, b: &Number) -> Outcome {
    Ok(integer(integer_operand("&", a)? & integer_operand("&", b)?))
}

pub fn bit_or(a: &Number, b: &Number) -> Outcome {
    Ok(integer(integer_operand("|", a)? | integer_operand("|", b)?))
}

pub fn bit_xor(a: &Number, b: &Number) -> Outcome {
    Ok(integer(integer_operand("^", a)? ^ integer_operand("^", b)?))
}

/// Go's `&^` (and not).
pub fn bit_clear(a: &Number, b: &Number) -> Outcome {
    Ok(integer(
        integer_operand("&^", a)? & !integer_operand("&^", b)?,
    ))
}

/// Bitwise not in an unsigned type of `bits` width: `2**bits - 1 - a`.
pub fn unsigned_not(a: &Number, bits: u32) -> Outcome {
    let value = integer_operand("!", a)?;
    if value < 0 {
        return Err(ArithError::CastOutOfRange {
            value: value.to_string(),
            ty: format!("u{bits}"),
        });
    }
    if bits >= 127 {
        return Err(ArithError::Overflow);
    }
    Ok(integer((1i128 << bits) - 1 - value))
}

pub fn bit_not(a: &Number) -> Outcome {
    Ok(integer(!integer_operand("~", a)?))
}

/// JavaScript's ToInt32: the number's integer part, wrapped to a signed 32-bit value.
fn to_int32(n: &Number) -> i32 {
    let whole = *trunc(n).numer();
    whole.rem_euclid(1 << 32) as u32 as i32
}

/// JavaScript bitwise operators on plain numbers work on 32-bit integers.
pub fn js_bitwise(op: &str, a: &Number, b: &Number) -> Outcome {
    let (x, y) = (to_int32(a), to_int32(b));
    let count = (y as u32) & 31;
    let value: i128 = match op {
        "&" => (x & y).into(),
        "|" => (x | y).into(),
        "^" => (x ^ y).into(),
        "<<" => x.wrapping_shl(count).into(),
        ">>" => (x >> count).into(),
        ">>>" => ((x as u32) >> count).into(),
        _ => {
            return Err(ArithError::NotInteger {
                op: "?",
                value: op.to_string(),
            });
        }
    };
    Ok(integer(value))
}

pub fn js_bit_not(a: &Number) -> Outcome {
    Ok(integer((!to_int32(a)).into()))
}

/// Parses digits (with `_` separators already allowed by the grammar) in a radix.
pub fn parse_digits(digits: &str, radix: u32) -> Outcome {
    let mut value: i128 = 0;
    let mut any = false;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let Some(d) = c.to_digit(radix) else {
            return Err(ArithError::BadLiteral(digits.to_string()));
        };
        any = true;
        value = value
            .checked_mul(radix.into())
            .and_then(|v| v.checked_add(d.into()))
            .ok_or(ArithError::Overflow)?;
    }
    if !any {
        return Err(ArithError::BadLiteral(digits.to_string()));
    }
    Ok(integer(value))
}

/// Parses a decimal literal such as `1_000.5e-3` exactly: `int.frac` times ten to
/// the exponent, without ever going through a binary float.
pub fn parse_decimal(text: &str) -> Outcome {
    let lower = text.to_ascii_lowercase();
    let (mantissa, exponent) = match lower.split_once('e') {
        Some((m, e)) => (m, e),
        None => (lower.as_str(), "0"),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = whole
        .chars()
        .chain(fraction.chars())
        .filter(|c| *c != '_')
        .collect();
    let fraction_len = fraction.chars().filter(|c| *c != '_').count();
    let digits = if digits.is_empty() {
        "0".to_string()
    } else {
        digits
    };
    let mantissa = parse_digits(&digits, 10)?;
    if *mantissa.numer() == 0 {
        return Ok(mantissa);
    }
    let (exp_negative, exp_digits) = match exponent.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, exponent.strip_prefix('+').unwrap_or(exponent)),
    };
    let exp = as_integer(&parse_digits(exp_digits, 10)?).unwrap_or(0);
    let exp = if exp_negative { -exp } else { exp };
    let scale = exp
        .checked_sub(i128::try_from(fraction_len).map_err(|_| ArithError::Overflow)?)
        .ok_or(ArithError::Overflow)?;
    if scale.unsigned_abs() > 60 {
        return Err(ArithError::Overflow);
    }
    let factor = pow(&integer(10), &integer(scale), true)?;
    mul(&mantissa, &factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(a: i128, b: i128) -> Number {
        Number::new(a, b)
    }

    #[test]
    fn whole_division_by_the_most_negative_integer_needs_no_fraction() {
        let min = integer(i128::MIN);
        assert_eq!(floor_div(&integer(129_283), &min), Ok(integer(-1)));
        assert_eq!(
            floor_mod(&integer(129_283), &min),
            Ok(integer(129_283 + i128::MIN))
        );
        assert_eq!(trunc_div(&integer(129_283), &min), Ok(integer(0)));
        assert_eq!(trunc_rem(&min, &integer(-1)), Ok(integer(0)));
        assert_eq!(floor_div(&min, &integer(-1)), Err(ArithError::Overflow));
        assert_eq!(floor_div(&integer(-7), &integer(2)), Ok(integer(-4)));
        assert_eq!(floor_mod(&integer(-7), &integer(2)), Ok(integer(1)));
        assert_eq!(trunc_rem(&integer(-7), &integer(2)), Ok(integer(-1)));
    }

    #[test]
    fn rational_ops_are_exact() {
        assert_eq!(add(&n(1, 3), &n(1, 6)), Ok(n(1, 2)));
        assert_eq!(div(&integer(7), &integer(2)), Ok(n(7, 2)));
        assert_eq!(floor_div(&integer(-7), &integer(2)), Ok(integer(-4)));
        assert_eq!(floor_mod(&integer(-7), &integer(2)), Ok(integer(1)));
        assert_eq!(trunc_div(&integer(-7), &integer(2)), Ok(integer(-3)));
        assert_eq!(trunc_rem(&integer(-7), &integer(2)), Ok(integer(-1)));
        assert_eq!(pow(&integer(2), &integer(-2), true), Ok(n(1, 4)));
        assert_eq!(pow(&integer(3), &integer(4), false), Ok(integer(81)));
        assert_eq!(shr(&integer(-5), &integer(1)), Ok(integer(-3)));
        assert_eq!(shl(&integer(3), &integer(4)), Ok(integer(48)));
    }

    #[test]
    fn edges_are_errors() {
        assert_eq!(
            div(&integer(1), &integer(0)),
            Err(ArithError::DivisionByZero)
        );
        assert_eq!(
            mul(&integer(i128::MAX), &integer(2)),
            Err(ArithError::Overflow)
        );
        assert_eq!(neg(&integer(i128::MIN)), Err(ArithError::Overflow));
        assert_eq!(
            pow(&integer(2), &integer(127), false),
            Err(ArithError::Overflow)
        );
        assert_eq!(shl(&integer(1), &integer(200)), Err(ArithError::Overflow));
        assert!(matches!(
            shl(&n(1, 2), &integer(1)),
            Err(ArithError::NotInteger { .. })
        ));
        assert!(matches!(
            pow(&integer(2), &integer(-1), false),
            Err(ArithError::NegativeExponent(_))
        ));
        assert_eq!(
            pow(&integer(2), &integer(126), false),
            Ok(integer(1 << 126))
        );
    }

    #[test]
    fn decimals_parse_exactly() {
        assert_eq!(parse_decimal("1_000.5"), Ok(n(2001, 2)));
        assert_eq!(parse_decimal("1.5e3"), Ok(integer(1500)));
        assert_eq!(parse_decimal("25E-2"), Ok(n(1, 4)));
        assert_eq!(parse_decimal(".5"), Ok(n(1, 2)));
        assert_eq!(parse_decimal("0e999"), Ok(integer(0)));
        assert_eq!(parse_decimal("1e400"), Err(ArithError::Overflow));
        assert_eq!(
            parse_digits("19", 8),
            Err(ArithError::BadLiteral("19".into()))
        );
        assert_eq!(
            parse_digits("_", 10),
            Err(ArithError::BadLiteral("_".into()))
        );
    }

    #[test]
    fn unsigned_not_uses_the_width() {
        assert_eq!(unsigned_not(&integer(0), 8), Ok(integer(255)));
        assert_eq!(
            unsigned_not(&integer(1), 64),
            Ok(integer(i128::from(u64::MAX) - 1))
        );
        assert_eq!(unsigned_not(&integer(0), 128), Err(ArithError::Overflow));
        assert!(matches!(
            unsigned_not(&integer(-1), 8),
            Err(ArithError::CastOutOfRange { .. })
        ));
    }

    #[test]
    fn js_bitwise_wraps_to_32_bits() {
        assert_eq!(
            js_bitwise("<<", &integer(1), &integer(31)),
            Ok(integer(-2_147_483_648))
        );
        assert_eq!(
            js_bitwise(">>>", &integer(-1), &integer(0)),
            Ok(integer(4_294_967_295))
        );
        assert_eq!(js_bit_not(&integer(0)), Ok(integer(-1)));
    }
}
