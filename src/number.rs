//! Exact numbers shared by every stage: constants, facts and stated values are
//! rationals over `i128`, so `3 * MAX + 1 MiB` and `1.032x` are compared without
//! floating-point error.

/// An exact rational number. Arithmetic on it is checked by the callers
/// (`num_traits::CheckedAdd` and friends): an overflow is an error, never a wrap.
pub type Number = num_rational::Ratio<i128>;

/// A unit of size. The one table of size names and factors: stated values in
/// records and expressions in rule files read units through it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SizeUnit {
    Bytes,
    KiB,
    MiB,
    GiB,
    TiB,
    KB,
    MB,
    GB,
    TB,
}

impl SizeUnit {
    pub const ALL: [SizeUnit; 9] = [
        SizeUnit::Bytes,
        SizeUnit::KiB,
        SizeUnit::MiB,
        SizeUnit::GiB,
        SizeUnit::TiB,
        SizeUnit::KB,
        SizeUnit::MB,
        SizeUnit::GB,
        SizeUnit::TB,
    ];

    /// The symbol recount writes the unit with.
    pub fn symbol(self) -> &'static str {
        match self {
            SizeUnit::Bytes => "B",
            SizeUnit::KiB => "KiB",
            SizeUnit::MiB => "MiB",
            SizeUnit::GiB => "GiB",
            SizeUnit::TiB => "TiB",
            SizeUnit::KB => "KB",
            SizeUnit::MB => "MB",
            SizeUnit::GB => "GB",
            SizeUnit::TB => "TB",
        }
    }

    /// How many bytes one of this unit is.
    pub fn bytes(self) -> i128 {
        match self {
            SizeUnit::Bytes => 1,
            SizeUnit::KiB => 1 << 10,
            SizeUnit::MiB => 1 << 20,
            SizeUnit::GiB => 1 << 30,
            SizeUnit::TiB => 1 << 40,
            SizeUnit::KB => 1_000,
            SizeUnit::MB => 1_000_000,
            SizeUnit::GB => 1_000_000_000,
            SizeUnit::TB => 1_000_000_000_000,
        }
    }

    /// Reads a unit as it is written: its symbol, `kB`, or `byte`/`bytes`. Case
    /// matters (`MB` is not `mb`), so a name in an expression is a unit only when
    /// it is spelt as one.
    pub fn parse(text: &str) -> Option<SizeUnit> {
        match text {
            "byte" | "bytes" => Some(SizeUnit::Bytes),
            "kB" => Some(SizeUnit::KB),
            _ => SizeUnit::ALL.into_iter().find(|u| u.symbol() == text),
        }
    }
}

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
