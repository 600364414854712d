//! Exact numbers shared by every stage: constants, facts and stated values are
//! rationals over `i128`, so `3 * MAX + 1 MiB` and `1.032x` are compared without
//! floating-point error.

/// An exact rational number. Arithmetic on it is checked by the callers
/// (`num_traits::CheckedAdd` and friends): an overflow is an error, never a wrap.
pub type Number = num_rational::Ratio<i128>;

/// Renders a number for people: integers with `,` thousands separators,
/// other rationals as a decimal with up to six places.
pub fn display(n: &Number) -> String {
    if n.is_integer() {
        group_thousands(*n.numer())
    } else {
        let places = 6u32;
        let scale = 10i128.pow(places);
        let scaled = (n * Number::from_integer(scale)).round();
        let v = *scaled.numer();
        let sign = if v < 0 { "-" } else { "" };
        let v = v.unsigned_abs();
        let int = v / scale as u128;
        let frac = v % scale as u128;
        let mut frac = format!("{frac:0width$}", width = places as usize);
        while frac.ends_with('0') {
            frac.pop();
        }
        if frac.is_empty() {
            format!("{sign}{}", group_thousands(int as i128))
        } else {
            format!("{sign}{}.{frac}", group_thousands(int as i128))
        }
    }
}

/// `26214400` -> `26,214,400`.
pub fn group_thousands(v: i128) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_grouped() {
        assert_eq!(display(&Number::from_integer(26_214_400)), "26,214,400");
        assert_eq!(display(&Number::from_integer(-1_000)), "-1,000");
        assert_eq!(display(&Number::from_integer(999)), "999");
    }

    #[test]
    fn fractions_are_decimal() {
        assert_eq!(display(&Number::new(1032, 1000)), "1.032");
        assert_eq!(display(&Number::new(1, 3)), "0.333333");
    }
}
