//! Stage 3 of the pipeline (claims): the value grammar — reading the text a
//! claim's `value` group captured ("five", "26,214,400", "12 MiB", "1.032x",
//! "7 of 7", "~352 KiB", "42%", "779-788") as an exact number, and writing an
//! observed number back the way the record writes it.
//!
//! A stated value carries its precision: `1.032x` is a claim to three decimals,
//! `~352 KiB` a claim to the whole KiB, and `26,214,400` or `12 MiB` a claim to
//! the exact byte. [`Stated::agrees`] compares at that precision, rounding half
//! away from zero, so a check neither flags honest rounding nor lets a real drift
//! hide behind it.

use num_traits::{CheckedDiv, CheckedMul, Signed};
use thiserror::Error;

use crate::number::{Number, SizeUnit};

/// Why a captured value could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ValueError {
    #[error("the claim captured no value text")]
    Empty,
    #[error(
        "`{text}` is not a value this grammar reads: expected digits (26,214,400), a number word (five), a ratio (1.032x), a size (12 MiB), a percentage (42%), \"N of M\" or a line range (779-788)"
    )]
    NotANumber { text: String },
    #[error("`{text}`: {problem}")]
    Malformed { text: String, problem: String },
    #[error(
        "`{text}`: unknown unit `{unit}` (known: bytes, byte, B, KiB, MiB, GiB, TiB, KB, kB, MB, GB, TB, x, ×, %, percent)"
    )]
    UnknownUnit { text: String, unit: String },
    #[error("`{text}` is too large to hold exactly")]
    TooLarge { text: String },
}

/// The unit a value is stated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unit {
    /// A bare number (a count, a line number).
    None,
    /// A size: `26,214,400 bytes`, `12 MiB`.
    Size(SizeUnit),
    /// A ratio or speed-up: `1.032x`, `51×`.
    Ratio,
    /// A percentage: the stated number is hundredths of the value.
    Percent,
}

impl Unit {
    /// How many base units (bytes, or 1 for counts and ratios) one stated unit is.
    pub fn factor(self) -> Number {
        match self {
            Unit::None | Unit::Ratio => Number::from_integer(1),
            Unit::Size(size) => Number::from_integer(size.bytes()),
            Unit::Percent => Number::new(1, 100),
        }
    }
}

/// Letter case of a number written in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordCase {
    Lower,
    Capitalized,
    Upper,
}

/// How the digits of a value are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Digits with no separator: `26214400`, `75.1`.
    Plain,
    /// Digits grouped in thousands by `,` or `_`: `26,214,400`, `26_214_400`.
    Grouped(char),
    /// English number words: `five`, `twenty-one`, `one hundred and five`.
    Words {
        /// `twenty-one` rather than `twenty one`.
        hyphenated: bool,
        /// `one hundred and five` rather than `one hundred five`.
        with_and: bool,
        case: WordCase,
    },
}

/// Whether a value is one number or a line range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatedKind {
    Number,
    /// `779-788` or `779–788`: both ends inclusive.
    Range {
        start: Number,
        end: Number,
    },
}

/// A value as a record states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated {
    /// The captured text, as written.
    pub text: String,
    pub kind: StatedKind,
    /// The number as written, in the stated unit (`12` for `12 MiB`, `42` for
    /// `42%`, the start of a range).
    pub number: Number,
    /// The number in base units: bytes for sizes, the fraction for a
    /// percentage (`42%` → 21/50), the number itself otherwise.
    pub value: Number,
    /// `M` of "N of M".
    pub of: Option<Number>,
    pub unit: Unit,
    /// Digits after the decimal point, as written.
    pub decimals: u32,
    /// Written with `~`, `≈`, `about`, `roughly`, `approximately` or `around`.
    pub approx: bool,
    pub style: Style,
    spelling: Spelling,
}

/// What `render` needs to write a number back the way the record wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spelling {
    /// `~`, `≈ `, `about ` — with the whitespace that followed it.
    approx_marker: String,
    plus_sign: bool,
    minus: char,
    /// Everything after the number: `MiB` with its leading space, `x`, ` %`.
    unit_text: String,
    /// The text between N and M in "N of M", e.g. ` of `.
    of_joiner: String,
    of_style: Style,
    /// The dash of a range with any spaces around it.
    range_dash: String,
    /// A scale word after the digits ("16.7 million"): what the number as
    /// written is multiplied by (1 when there is none).
    scale: i128,
}

impl Stated {
    /// Whether an observed value (in base units: bytes, a fraction for
    /// percentages) agrees with this stated value at the stated precision.
    ///
    /// Stated decimals or an approximate marker mean "rounded": the observed
    /// value, in the stated unit, is rounded half away from zero to the stated
    /// decimals and must then equal the stated number. Otherwise the two must
    /// be exactly equal. A line range never agrees with a single number; use
    /// [`Stated::agrees_range`].
    pub fn agrees(&self, observed: &Number) -> bool {
        if self.kind != StatedKind::Number {
            return false;
        }
        let Some(in_unit) = observed.checked_div(&self.factor()) else {
            return false;
        };
        if self.is_rounded() {
            round_to(&in_unit, self.decimals).is_some_and(|r| r == self.number)
        } else {
            in_unit == self.number
        }
    }

    /// Whether M of "N of M" equals the observed total exactly.
    pub fn agrees_of(&self, observed_of: &Number) -> bool {
        self.of.as_ref() == Some(observed_of)
    }

    /// Whether a stated line range equals the observed one.
    pub fn agrees_range(&self, start: &Number, end: &Number) -> bool {
        match &self.kind {
            StatedKind::Range { start: s, end: e } => s == start && e == end,
            StatedKind::Number => false,
        }
    }

    /// The observed value (in base units) written the way this value is written:
    /// same unit and spacing, decimals, separators, words, sign style and
    /// approximate marker. "N of M" keeps its `of M` as written. A value that
    /// the stated form cannot hold (a fraction where the record wrote an
    /// integer or words) falls back to a decimal.
    pub fn render(&self, observed: &Number) -> String {
        let of_part = match (&self.of, self.spelling.of_joiner.is_empty()) {
            (Some(of), false) => format!(
                "{}{}",
                self.spelling.of_joiner,
                write_number(of, 0, true, self.spelling.of_style)
            ),
            _ => String::new(),
        };
        format!("{}{of_part}", self.render_main(observed))
    }

    /// Like [`Stated::render`], with M of "N of M" replaced by an observed total.
    pub fn render_with_of(&self, observed: &Number, observed_of: &Number) -> String {
        if self.of.is_none() {
            return self.render(observed);
        }
        format!(
            "{}{}{}",
            self.render_main(observed),
            self.spelling.of_joiner,
            write_number(observed_of, 0, true, self.spelling.of_style)
        )
    }

    /// A line range written with this range's dash: `779-790`.
    pub fn render_range(&self, start: &Number, end: &Number) -> String {
        let dash = if self.spelling.range_dash.is_empty() {
            "-"
        } else {
            self.spelling.range_dash.as_str()
        };
        format!(
            "{}{dash}{}",
            write_number(start, 0, false, Style::Plain),
            write_number(end, 0, false, Style::Plain)
        )
    }

    fn is_rounded(&self) -> bool {
        self.decimals > 0 || self.approx
    }

    /// What the number as written is multiplied by to give base units: the
    /// unit's factor and any scale word.
    fn factor(&self) -> Number {
        self.unit
            .factor()
            .checked_mul(&Number::from_integer(self.spelling.scale))
            .unwrap_or_else(|| self.unit.factor())
    }

    fn render_main(&self, observed: &Number) -> String {
        let Some(in_unit) = observed.checked_div(&self.factor()) else {
            return exact_fallback(observed);
        };
        let (shown, decimals) = if self.is_rounded() {
            match round_to(&in_unit, self.decimals) {
                Some(r) => (r, self.decimals),
                None => (in_unit, 0),
            }
        } else {
            (in_unit, 0)
        };
        let sign = if shown.is_negative() {
            self.spelling.minus.to_string()
        } else if self.spelling.plus_sign {
            "+".to_string()
        } else {
            String::new()
        };
        let Some(abs) = checked_abs(&shown) else {
            return exact_fallback(observed);
        };
        let magnitude = write_number(&abs, decimals, !shown.is_negative(), self.style);
        format!(
            "{}{sign}{magnitude}{}",
            self.spelling.approx_marker, self.spelling.unit_text
        )
    }
}

/// Writes a non-negative number with exactly `decimals` places (if it fits
/// them), in `style`. Words are used only for a non-negative integer written
/// without decimals; anything the stated form cannot hold becomes a decimal.
fn write_number(n: &Number, decimals: u32, words_ok: bool, style: Style) -> String {
    let negative = n.is_negative();
    let Some(magnitude) = checked_abs(n) else {
        return exact_fallback(n);
    };
    let sign = if negative { "-" } else { "" };
    if let (
        Style::Words {
            hyphenated,
            with_and,
            case,
        },
        true,
        true,
        0,
    ) = (
        style,
        words_ok && !negative,
        magnitude.is_integer(),
        decimals,
    ) {
        if let Some(words) = u128::try_from(*magnitude.numer())
            .ok()
            .and_then(|v| to_words(v, hyphenated, with_and))
        {
            return apply_case(&words, case);
        }
    }
    let separator = match style {
        Style::Grouped(c) => Some(c),
        Style::Plain | Style::Words { .. } => None,
    };
    let places = if magnitude.is_integer() && decimals == 0 {
        0
    } else if round_to(&magnitude, decimals).is_some_and(|r| r == magnitude) {
        decimals
    } else {
        // The stated form cannot hold this value: the fewest places (up to six)
        // that show it, so the reader sees why it disagrees.
        (decimals.max(1)..=6)
            .find(|&d| round_to(&magnitude, d).is_some_and(|r| r == magnitude))
            .unwrap_or(6)
    };
    let Some(rounded) = round_to(&magnitude, places) else {
        return format!("{sign}{}", exact_fallback(&magnitude));
    };
    let Some(scale) = 10i128.checked_pow(places) else {
        return format!("{sign}{}", exact_fallback(&magnitude));
    };
    let Some(scaled) = rounded.checked_mul(&Number::from_integer(scale)) else {
        return format!("{sign}{}", exact_fallback(&magnitude));
    };
    let digits = scaled.to_integer().unsigned_abs();
    let scale = scale.unsigned_abs();
    let int_part = group(&(digits / scale).to_string(), separator);
    if places == 0 {
        format!("{sign}{int_part}")
    } else {
        let frac = digits % scale;
        format!("{sign}{int_part}.{frac:0width$}", width = places as usize)
    }
}

fn group(digits: &str, separator: Option<char>) -> String {
    let Some(sep) = separator else {
        return digits.to_string();
    };
    let len = digits.chars().count();
    let mut out = String::with_capacity(len + len / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (len - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// Any number, exactly, for when the stated form overflows: `n` or `n/d`.
fn exact_fallback(n: &Number) -> String {
    if n.is_integer() {
        n.numer().to_string()
    } else {
        format!("{}/{}", n.numer(), n.denom())
    }
}

/// `|n|`, or `None` for the one numerator (`i128::MIN`) with no positive twin.
fn checked_abs(n: &Number) -> Option<Number> {
    Some(Number::new_raw(n.numer().checked_abs()?, *n.denom()))
}

/// Rounds half away from zero to `decimals` places; `None` on overflow.
fn round_to(x: &Number, decimals: u32) -> Option<Number> {
    let scale = 10i128.checked_pow(decimals)?;
    let scaled = x.checked_mul(&Number::from_integer(scale))?;
    let numer = *scaled.numer();
    let denom = *scaled.denom();
    let quotient = numer.checked_div(denom)?;
    let remainder = numer.checked_rem(denom)?;
    let twice = remainder.unsigned_abs().checked_mul(2)?;
    let rounded = if twice >= denom.unsigned_abs() {
        quotient.checked_add(numer.signum())?
    } else {
        quotient
    };
    Some(Number::new(rounded, scale))
}

// ---------------------------------------------------------------------------
// Parsing.

/// Reads the text a claim's `value` group captured.
pub fn parse_stated(s: &str) -> Result<Stated, ValueError> {
    let text = s.to_string();
    let trimmed = s.trim();
    if trimmed.is_empty() {
        return Err(ValueError::Empty);
    }
    let (approx_marker, rest) = split_approx(trimmed);
    let approx = !approx_marker.is_empty();

    if let Some((start, dash, end)) = split_range(rest) {
        if approx {
            return Err(ValueError::Malformed {
                text,
                problem: "a line range cannot be approximate".to_string(),
            });
        }
        let start = parse_plain_integer(start)
            .ok_or_else(|| ValueError::TooLarge { text: text.clone() })?;
        let end =
            parse_plain_integer(end).ok_or_else(|| ValueError::TooLarge { text: text.clone() })?;
        if end < start {
            return Err(ValueError::Malformed {
                text,
                problem: format!("the range ends ({end}) before it starts ({start})"),
            });
        }
        let (start, end) = (Number::from_integer(start), Number::from_integer(end));
        return Ok(Stated {
            text,
            kind: StatedKind::Range { start, end },
            number: start,
            value: start,
            of: None,
            unit: Unit::None,
            decimals: 0,
            approx: false,
            style: Style::Plain,
            spelling: Spelling {
                approx_marker: String::new(),
                plus_sign: false,
                minus: '-',
                unit_text: String::new(),
                of_joiner: String::new(),
                of_style: Style::Plain,
                range_dash: dash.to_string(),
                scale: 1,
            },
        });
    }

    let (main, of_part) = split_of(rest);
    let (of, of_joiner, of_style) = match of_part {
        Some((joiner, of_text)) => {
            let read = read_number(of_text, &text)?;
            if !read.rest.trim().is_empty() {
                return Err(ValueError::Malformed {
                    text,
                    problem: format!(
                        "unexpected `{}` after the total of \"N of M\"",
                        read.rest.trim()
                    ),
                });
            }
            (Some(read.number), joiner.to_string(), read.style)
        }
        None => (None, String::new(), Style::Plain),
    };

    let (plus_sign, minus, negative, body) = split_sign(main);
    let read = read_number(body, &text)?;
    let unit_text = read.rest.to_string();
    // Digits with a scale word ("16.7 million", "2.5 billion"): the word
    // scales the number, and what follows it is the unit.
    let (scale, unit_rest) = match scale_word(read.rest) {
        Some((scale, rest)) if !matches!(read.style, Style::Words { .. }) => (scale, rest),
        _ => (1, read.rest),
    };
    let unit = parse_unit(unit_rest.trim()).ok_or_else(|| ValueError::UnknownUnit {
        text: text.clone(),
        unit: unit_rest.trim().to_string(),
    })?;
    if of.is_some() && unit != Unit::None {
        return Err(ValueError::Malformed {
            text,
            problem: "\"N of M\" takes no unit".to_string(),
        });
    }
    let number = if negative { -read.number } else { read.number };
    let value = number
        .checked_mul(&unit.factor())
        .and_then(|v| v.checked_mul(&Number::from_integer(scale)))
        .ok_or_else(|| ValueError::TooLarge { text: text.clone() })?;
    Ok(Stated {
        text,
        kind: StatedKind::Number,
        number,
        value,
        of,
        unit,
        decimals: read.decimals,
        approx,
        style: read.style,
        spelling: Spelling {
            approx_marker: approx_marker.to_string(),
            plus_sign,
            minus,
            unit_text,
            of_joiner,
            of_style,
            range_dash: String::new(),
            scale,
        },
    })
}

/// A scale word leading `rest` ("␣million colors"): its multiplier and what
/// follows it.
fn scale_word(rest: &str) -> Option<(i128, &str)> {
    const SCALES: [(&str, i128); 4] = [
        ("thousand", 1_000),
        ("million", 1_000_000),
        ("billion", 1_000_000_000),
        ("trillion", 1_000_000_000_000),
    ];
    let spaced = rest.strip_prefix([' ', '\u{a0}'])?;
    SCALES.iter().find_map(|(word, scale)| {
        let after = spaced.strip_prefix(word)?;
        after
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
            .then_some((*scale, after))
    })
}

/// Splits a leading approximate marker (with the whitespace after it) off.
fn split_approx(s: &str) -> (&str, &str) {
    for marker in ['~', '≈'] {
        if let Some(rest) = s.strip_prefix(marker) {
            let body = rest.trim_start();
            let marker_len = s.len() - body.len();
            return (s.get(..marker_len).unwrap_or(""), body);
        }
    }
    for word in ["about", "roughly", "approximately", "around"] {
        let Some(head) = s.get(..word.len()) else {
            continue;
        };
        let Some(rest) = s.get(word.len()..) else {
            continue;
        };
        if head.eq_ignore_ascii_case(word) && rest.starts_with(char::is_whitespace) {
            let body = rest.trim_start();
            let marker_len = s.len() - body.len();
            return (s.get(..marker_len).unwrap_or(""), body);
        }
    }
    ("", s)
}

/// `779-788`, `779–788`, `779 – 788`: (start digits, dash as written, end digits).
fn split_range(s: &str) -> Option<(&str, &str, &str)> {
    let start_len = s.bytes().take_while(u8::is_ascii_digit).count();
    if start_len == 0 {
        return None;
    }
    let (start, rest) = s.split_at_checked(start_len)?;
    let after_space = rest.trim_start();
    let dash_char = after_space.chars().next()?;
    if dash_char != '-' && dash_char != '–' {
        return None;
    }
    let after_dash = after_space.get(dash_char.len_utf8()..)?.trim_start();
    if after_dash.is_empty() || !after_dash.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let dash = rest.get(..rest.len() - after_dash.len())?;
    Some((start, dash, after_dash))
}

fn parse_plain_integer(digits: &str) -> Option<i128> {
    digits.bytes().try_fold(0i128, |acc, b| {
        acc.checked_mul(10)?
            .checked_add(i128::from(b.checked_sub(b'0')?))
    })
}

/// Splits "N of M" at its `of`: (N, Some((joiner with spaces, M))).
fn split_of(s: &str) -> (&str, Option<(&str, &str)>) {
    let mut search_from = 0;
    while let Some(found) = s.get(search_from..).and_then(find_of_word) {
        let at = search_from + found;
        let before = s.get(..at).unwrap_or("");
        let after = s.get(at + 2..).unwrap_or("");
        if before.ends_with(char::is_whitespace) && after.starts_with(char::is_whitespace) {
            let main = before.trim_end();
            let total = after.trim_start();
            let joiner = s.get(main.len()..s.len() - total.len()).unwrap_or(" of ");
            return (main, Some((joiner, total)));
        }
        search_from = at + 2;
    }
    (s, None)
}

fn find_of_word(s: &str) -> Option<usize> {
    s.as_bytes()
        .windows(2)
        .position(|w| w.eq_ignore_ascii_case(b"of"))
}

/// (explicit plus, minus character to write, negative, rest).
fn split_sign(s: &str) -> (bool, char, bool, &str) {
    if let Some(rest) = s.strip_prefix('+') {
        (true, '-', false, rest)
    } else if let Some(rest) = s.strip_prefix('-') {
        (false, '-', true, rest)
    } else if let Some(rest) = s.strip_prefix('\u{2212}') {
        (false, '\u{2212}', true, rest)
    } else {
        (false, '-', false, s)
    }
}

struct Read<'a> {
    number: Number,
    decimals: u32,
    style: Style,
    rest: &'a str,
}

/// Reads digits or number words from the start of `s`; the rest is left.
fn read_number<'a>(s: &'a str, text: &str) -> Result<Read<'a>, ValueError> {
    let starts_with_digit = s.starts_with(|c: char| c.is_ascii_digit())
        || (s.starts_with('.')
            && s.get(1..)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())));
    if starts_with_digit {
        read_digits(s, text)
    } else {
        read_words(s, text)
    }
}

fn read_digits<'a>(s: &'a str, text: &str) -> Result<Read<'a>, ValueError> {
    let malformed = |problem: String| ValueError::Malformed {
        text: text.to_string(),
        problem,
    };
    let too_large = || ValueError::TooLarge {
        text: text.to_string(),
    };
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut int_digits = String::new();
    let mut separator: Option<u8> = None;
    let mut groups: Vec<usize> = vec![0];
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                int_digits.push(char::from(b));
                if let Some(last) = groups.last_mut() {
                    *last += 1;
                }
            }
            b',' | b'_'
                if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) && !int_digits.is_empty() =>
            {
                if separator.is_some_and(|sep| sep != b) {
                    return Err(malformed(
                        "mixes `,` and `_` as digit separators".to_string(),
                    ));
                }
                separator = Some(b);
                groups.push(0);
            }
            _ => break,
        }
        i += 1;
    }
    if separator == Some(b',') {
        let first_ok = groups.first().is_some_and(|&g| (1..=3).contains(&g));
        let rest_ok = groups.iter().skip(1).all(|&g| g == 3);
        if !first_ok || !rest_ok {
            return Err(malformed(format!(
                "`,` must group digits in threes (as in 26,214,400), found `{}`",
                s.get(..i).unwrap_or(s)
            )));
        }
    }
    let mut frac_digits = String::new();
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            frac_digits.push(char::from(b));
            i += 1;
        }
    }
    let all_digits = format!("{int_digits}{frac_digits}");
    let numer = parse_plain_integer(&all_digits).ok_or_else(too_large)?;
    let decimals = u32::try_from(frac_digits.len()).map_err(|_| too_large())?;
    let scale = 10i128.checked_pow(decimals).ok_or_else(too_large)?;
    let style = match separator {
        Some(sep) => Style::Grouped(char::from(sep)),
        None => Style::Plain,
    };
    Ok(Read {
        number: Number::new(numer, scale),
        decimals,
        style,
        rest: s.get(i..).unwrap_or(""),
    })
}

const SMALL: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
const SCALES: [(&str, u128); 4] = [
    ("trillion", 1_000_000_000_000),
    ("billion", 1_000_000_000),
    ("million", 1_000_000),
    ("thousand", 1_000),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Small(u128),
    Tens(u128),
    Hundred,
    Scale(u128),
    And,
    A,
}

fn classify(token: &str) -> Option<Word> {
    let lower = token.to_ascii_lowercase();
    if let Some(v) = SMALL.iter().position(|w| *w == lower) {
        return Some(Word::Small(v as u128));
    }
    if let Some(v) = TENS.iter().position(|w| *w == lower) {
        return Some(Word::Tens((v as u128 + 2) * 10));
    }
    if lower == "hundred" {
        return Some(Word::Hundred);
    }
    if let Some((_, v)) = SCALES.iter().find(|(w, _)| *w == lower) {
        return Some(Word::Scale(*v));
    }
    match lower.as_str() {
        "and" => Some(Word::And),
        "a" | "an" => Some(Word::A),
        _ => None,
    }
}

/// Tokens of `s` split at whitespace and hyphens, with their byte ranges.
fn word_tokens(s: &str) -> Vec<(usize, usize)> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        let boundary = c.is_whitespace() || c == '-';
        match (boundary, start) {
            (true, Some(st)) => {
                tokens.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        tokens.push((st, s.len()));
    }
    tokens
}

fn read_words<'a>(s: &'a str, text: &str) -> Result<Read<'a>, ValueError> {
    let tokens = word_tokens(s);
    let mut words = Vec::new();
    let mut end = 0;
    for &(start, stop) in &tokens {
        let Some(word) = s.get(start..stop).and_then(classify) else {
            break;
        };
        words.push((word, start, stop));
        end = stop;
    }
    // A trailing `and` or `a` belongs to the prose, not to the number.
    while matches!(words.last(), Some((Word::And | Word::A, _, _))) {
        words.pop();
        end = words.last().map_or(0, |w| w.2);
    }
    if words.is_empty() {
        return Err(ValueError::NotANumber {
            text: text.to_string(),
        });
    }
    let spelled = s.get(..end).unwrap_or(s);
    let kinds: Vec<Word> = words.iter().map(|w| w.0).collect();
    let value = words_value(&kinds).ok_or_else(|| ValueError::Malformed {
        text: text.to_string(),
        problem: format!("the number words `{spelled}` do not form a number"),
    })?;
    let value = i128::try_from(value).map_err(|_| ValueError::TooLarge {
        text: text.to_string(),
    })?;
    let hyphenated = spelled.contains('-') || !has_spaced_compound(&words, s);
    let with_and = kinds.contains(&Word::And);
    let letters: Vec<char> = spelled.chars().filter(|c| c.is_alphabetic()).collect();
    let case = if letters.len() > 1 && letters.iter().all(|c| c.is_uppercase()) {
        WordCase::Upper
    } else if letters.first().is_some_and(|c| c.is_uppercase()) {
        WordCase::Capitalized
    } else {
        WordCase::Lower
    };
    Ok(Read {
        number: Number::from_integer(value),
        decimals: 0,
        style: Style::Words {
            hyphenated,
            with_and,
            case,
        },
        rest: s.get(end..).unwrap_or(""),
    })
}

/// Whether a tens word is followed by a unit word across a space (`twenty one`).
fn has_spaced_compound(words: &[(Word, usize, usize)], s: &str) -> bool {
    words.windows(2).any(|pair| match pair {
        [(Word::Tens(_), _, a_end), (Word::Small(v), b_start, _)] if (1..10).contains(v) => s
            .get(*a_end..*b_start)
            .is_some_and(|between| !between.contains('-')),
        _ => false,
    })
}

/// The value of a sequence of number words, or `None` if they do not form an
/// English number (`five five`, `twenty twelve`, `hundred`).
fn words_value(words: &[Word]) -> Option<u128> {
    if words == [Word::Small(0)] {
        return Some(0);
    }
    let mut total: u128 = 0;
    let mut group: u128 = 0;
    let mut last_scale = u128::MAX;
    let mut seen_hundred = false;
    let mut seen_tens = false;
    let mut seen_small = false;
    let mut previous: Option<Word> = None;
    for (i, &word) in words.iter().enumerate() {
        let next = words.get(i + 1).copied();
        match word {
            Word::A => {
                if i != 0 || !matches!(next, Some(Word::Hundred | Word::Scale(_))) {
                    return None;
                }
                group = 1;
                seen_small = true;
            }
            Word::Small(0) => return None,
            Word::Small(v) => {
                if seen_small || (seen_tens && v >= 10) {
                    return None;
                }
                group = group.checked_add(v)?;
                seen_small = true;
            }
            Word::Tens(v) => {
                if seen_tens || seen_small {
                    return None;
                }
                group = group.checked_add(v)?;
                seen_tens = true;
            }
            Word::Hundred => {
                if seen_hundred || seen_tens || !(1..=9).contains(&group) {
                    return None;
                }
                group = group.checked_mul(100)?;
                seen_hundred = true;
                seen_small = false;
            }
            Word::Scale(scale) => {
                if group == 0 || scale >= last_scale {
                    return None;
                }
                total = total.checked_add(group.checked_mul(scale)?)?;
                last_scale = scale;
                group = 0;
                seen_hundred = false;
                seen_tens = false;
                seen_small = false;
            }
            Word::And => {
                let after_hundred_or_scale =
                    matches!(previous, Some(Word::Hundred | Word::Scale(_)));
                if !after_hundred_or_scale || !matches!(next, Some(Word::Small(_) | Word::Tens(_)))
                {
                    return None;
                }
            }
        }
        previous = Some(word);
    }
    total.checked_add(group)
}

/// English words for `n` (below 10^15), lower case.
pub(crate) fn to_words(n: u128, hyphenated: bool, with_and: bool) -> Option<String> {
    if n == 0 {
        return Some("zero".to_string());
    }
    if n >= 1_000_000_000_000_000 {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    let mut rest = n;
    for (name, scale) in SCALES {
        if rest >= scale {
            parts.push(format!(
                "{} {name}",
                below_thousand(rest / scale, hyphenated, with_and)?
            ));
            rest %= scale;
        }
    }
    if rest > 0 {
        if !parts.is_empty() && with_and && rest < 100 {
            parts.push("and".to_string());
        }
        parts.push(below_thousand(rest, hyphenated, with_and)?);
    }
    Some(parts.join(" "))
}

fn below_thousand(n: u128, hyphenated: bool, with_and: bool) -> Option<String> {
    let hundreds = n / 100;
    let rest = n % 100;
    let mut out = String::new();
    if hundreds > 0 {
        out.push_str(SMALL.get(usize::try_from(hundreds).ok()?)?);
        out.push_str(" hundred");
        if rest > 0 {
            out.push_str(if with_and { " and " } else { " " });
        }
    }
    if rest > 0 || hundreds == 0 {
        out.push_str(&below_hundred(rest, hyphenated)?);
    }
    Some(out)
}

fn below_hundred(n: u128, hyphenated: bool) -> Option<String> {
    let index = usize::try_from(n).ok()?;
    if n < 20 {
        return SMALL.get(index).map(|s| s.to_string());
    }
    let tens = TENS.get(index / 10 - 2)?;
    let units = index % 10;
    if units == 0 {
        return Some(tens.to_string());
    }
    let joiner = if hyphenated { "-" } else { " " };
    Some(format!("{tens}{joiner}{}", SMALL.get(units)?))
}

fn apply_case(words: &str, case: WordCase) -> String {
    match case {
        WordCase::Lower => words.to_string(),
        WordCase::Upper => words.to_uppercase(),
        WordCase::Capitalized => {
            let mut chars = words.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    }
}

fn parse_unit(unit: &str) -> Option<Unit> {
    match unit {
        "" => return Some(Unit::None),
        "%" => return Some(Unit::Percent),
        "x" | "X" | "×" => return Some(Unit::Ratio),
        _ => {}
    }
    if let Some(size) = SizeUnit::parse(unit) {
        return Some(Unit::Size(size));
    }
    // Words are written in any case in prose: `Bytes`, `Percent`.
    match unit.to_ascii_lowercase().as_str() {
        "percent" | "per cent" => Some(Unit::Percent),
        lower => SizeUnit::parse(lower)
            .filter(|u| *u == SizeUnit::Bytes)
            .map(Unit::Size),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_scale_word_scales_digits_and_leaves_the_unit_to_follow() {
        let s = parse_stated("16.7 million").unwrap();
        assert_eq!(s.value, Number::from_integer(16_700_000));
        assert!(s.agrees(&Number::from_integer(16_700_000)));
        assert!(s.agrees(&Number::from_integer(16_650_000)));
        assert!(!s.agrees(&Number::from_integer(16_777_216 + 100_000)));
        assert_eq!(s.render(&Number::from_integer(16_777_216)), "16.8 million");
        let kib = parse_stated("2 thousand KiB").unwrap();
        assert_eq!(kib.value, Number::from_integer(2_048_000));
        // The word scales; what follows it is the unit, named when unknown.
        assert_eq!(
            parse_stated("16.7 million colors"),
            Err(ValueError::UnknownUnit {
                text: "16.7 million colors".to_owned(),
                unit: "colors".to_owned()
            })
        );
        // A millionth is not a million.
        assert!(parse_stated("3 millionths").is_err());
    }

    fn n(v: i128) -> Number {
        Number::from_integer(v)
    }

    fn q(numer: i128, denom: i128) -> Number {
        Number::new(numer, denom)
    }

    fn stated(s: &str) -> Stated {
        parse_stated(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn digits_with_separators_and_decimals() {
        let s = stated("26,214,400");
        assert_eq!(
            (s.number, s.value, s.style, s.decimals),
            (n(26_214_400), n(26_214_400), Style::Grouped(','), 0)
        );
        let s = stated("26_214_400");
        assert_eq!((s.value, s.style), (n(26_214_400), Style::Grouped('_')));
        let s = stated("26214400");
        assert_eq!((s.value, s.style), (n(26_214_400), Style::Plain));
        let s = stated("75.1");
        assert_eq!(
            (s.value, s.decimals, s.style),
            (q(751, 10), 1, Style::Plain)
        );
        let s = stated("1,234.50");
        assert_eq!(
            (s.value, s.decimals, s.style),
            (q(12345, 10), 2, Style::Grouped(','))
        );
        assert_eq!(stated("  5  ").value, n(5));
        assert_eq!(stated("0").value, n(0));
    }

    #[test]
    fn malformed_digits_are_refused_with_a_reason() {
        for bad in ["1,2345", "12,34", "1,234_567", "1234,567"] {
            let err = parse_stated(bad).unwrap_err();
            assert!(matches!(err, ValueError::Malformed { .. }), "{bad}: {err}");
        }
        let err = parse_stated("1,2345").unwrap_err().to_string();
        assert!(err.contains("threes"), "{err}");
        let err = parse_stated("999999999999999999999999999999999999999999").unwrap_err();
        assert!(matches!(err, ValueError::TooLarge { .. }));
    }

    #[test]
    fn number_words_zero_to_ninety_nine_and_beyond() {
        let cases = [
            ("zero", 0),
            ("five", 5),
            ("Five", 5),
            ("FIVE", 5),
            ("twelve", 12),
            ("nineteen", 19),
            ("twenty", 20),
            ("twenty-one", 21),
            ("twenty one", 21),
            ("Ninety-Nine", 99),
            ("one hundred", 100),
            ("a hundred", 100),
            ("one hundred and five", 105),
            ("one hundred five", 105),
            ("three hundred forty-two", 342),
            ("two thousand", 2000),
            ("a thousand", 1000),
            ("two thousand and five", 2005),
            ("one million two hundred thousand", 1_200_000),
        ];
        for (text, value) in cases {
            let s = stated(text);
            assert_eq!(s.value, n(value), "{text}");
            assert_eq!(s.unit, Unit::None, "{text}");
            assert!(matches!(s.style, Style::Words { .. }), "{text}");
        }
    }

    #[test]
    fn word_sequences_that_are_not_numbers_are_refused() {
        for bad in [
            "five five",
            "twenty twelve",
            "hundred",
            "zero five",
            "thirty forty",
            "one hundred hundred",
            "two thousand three thousand",
            "five and",
        ] {
            assert!(parse_stated(bad).is_err(), "{bad} should not parse");
        }
        let err = parse_stated("five five").unwrap_err().to_string();
        assert!(
            err.contains("five five") && err.contains("do not form a number"),
            "{err}"
        );
        let err = parse_stated("several").unwrap_err();
        assert!(matches!(err, ValueError::NotANumber { .. }), "{err}");
    }

    #[test]
    fn n_of_m() {
        let s = stated("7 of 7");
        assert_eq!((s.value, s.of), (n(7), Some(n(7))));
        let s = stated("seven of seven");
        assert_eq!((s.value, s.of), (n(7), Some(n(7))));
        let s = stated("4 OF 5");
        assert_eq!((s.value, s.of), (n(4), Some(n(5))));
        assert!(s.agrees(&n(4)) && s.agrees_of(&n(5)) && !s.agrees_of(&n(6)));
        assert_eq!(stated("7 of 7").render(&n(6)), "6 of 7");
        assert_eq!(
            stated("seven of seven").render_with_of(&n(6), &n(8)),
            "six of eight"
        );
        assert!(parse_stated("7 of 7 MiB").is_err());
        assert!(parse_stated("7 of").is_err());
    }

    #[test]
    fn sizes_with_units_spaced_or_not() {
        let s = stated("12 MiB");
        assert_eq!(
            (s.number, s.value, s.unit),
            (n(12), n(12 << 20), Unit::Size(SizeUnit::MiB))
        );
        assert_eq!(stated("12MiB").value, n(12_582_912));
        assert_eq!(stated("352 KiB").value, n(352 * 1024));
        assert_eq!(stated("2 GiB").value, n(2 << 30));
        assert_eq!(stated("3 KB").value, n(3000));
        assert_eq!(stated("3kB").value, n(3000));
        assert_eq!(stated("5 MB").value, n(5_000_000));
        assert_eq!(stated("2 GB").value, n(2_000_000_000));
        assert_eq!(stated("1 byte").value, n(1));
        assert_eq!(stated("26,214,400 bytes").value, n(26_214_400));
        assert_eq!(stated("100B").unit, Unit::Size(SizeUnit::Bytes));
        assert_eq!(stated("75.1 MiB").value, q(751 << 20, 10));
        assert_eq!(stated("twelve MiB").value, n(12 << 20));
        let err = parse_stated("12 Mb").unwrap_err();
        assert_eq!(
            err,
            ValueError::UnknownUnit {
                text: "12 Mb".to_string(),
                unit: "Mb".to_string()
            }
        );
        assert!(
            parse_stated("12 parsecs")
                .unwrap_err()
                .to_string()
                .contains("unknown unit `parsecs`")
        );
    }

    #[test]
    fn ratios_with_signs() {
        let s = stated("1.032x");
        assert_eq!(
            (s.value, s.unit, s.decimals),
            (q(1032, 1000), Unit::Ratio, 3)
        );
        assert_eq!(stated("51×").value, n(51));
        assert_eq!(stated("\u{2212}14.88x").value, q(-1488, 100));
        assert_eq!(stated("-3x").value, n(-3));
        assert_eq!(stated("+0.12x").value, q(12, 100));
        assert_eq!(stated("2 x").unit, Unit::Ratio);
    }

    #[test]
    fn approximate_values() {
        for text in [
            "~352 KiB",
            "~ 352 KiB",
            "≈352 KiB",
            "about 352 KiB",
            "roughly 352 KiB",
            "Approximately 352 KiB",
        ] {
            let s = stated(text);
            assert!(s.approx, "{text}");
            assert_eq!(s.value, n(352 * 1024), "{text}");
        }
        assert!(!stated("352 KiB").approx);
        assert_eq!(stated("about five").value, n(5));
        // A word that merely starts like a marker is not one.
        assert!(parse_stated("aboutfive").is_err());
    }

    #[test]
    fn percentages_are_fractions() {
        let s = stated("42%");
        assert_eq!(
            (s.number, s.value, s.unit),
            (n(42), q(21, 50), Unit::Percent)
        );
        let s = stated("3.5 %");
        assert_eq!((s.value, s.decimals), (q(35, 1000), 1));
        assert_eq!(stated("12 percent").value, q(12, 100));
    }

    #[test]
    fn line_ranges() {
        let s = stated("779-788");
        assert_eq!(
            s.kind,
            StatedKind::Range {
                start: n(779),
                end: n(788)
            }
        );
        assert!(s.agrees_range(&n(779), &n(788)));
        assert!(!s.agrees_range(&n(779), &n(790)));
        assert!(!s.agrees(&n(779)));
        assert_eq!(s.render_range(&n(779), &n(790)), "779-790");
        let s = stated("779–788");
        assert!(s.agrees_range(&n(779), &n(788)));
        assert_eq!(s.render_range(&n(780), &n(791)), "780–791");
        assert_eq!(stated("779 – 788").render_range(&n(1), &n(2)), "1 – 2");
        assert!(parse_stated("788-779").is_err());
        assert!(parse_stated("~779-788").is_err());
        // A leading minus is a sign, not a range.
        assert_eq!(stated("-3").kind, StatedKind::Number);
        assert!(!stated("5").agrees_range(&n(5), &n(5)));
    }

    #[test]
    fn exact_values_compare_exactly() {
        let cap = stated("12 MiB");
        assert!(cap.agrees(&n(12_582_912)));
        assert!(!cap.agrees(&n(12_582_913)));
        assert!(!cap.agrees(&n(12_582_911)));
        let body = stated("26,214,400");
        assert!(body.agrees(&n(26_214_400)));
        assert!(!body.agrees(&n(26_214_401)));
        assert!(stated("five").agrees(&n(5)));
        assert!(!stated("five").agrees(&n(6)));
        assert!(!stated("five").agrees(&q(51, 10)));
        assert!(stated("51×").agrees(&n(51)));
        assert!(!stated("51×").agrees(&q(511, 10)));
    }

    #[test]
    fn stated_decimals_compare_after_rounding_half_away_from_zero() {
        let ratio = stated("1.032x");
        assert!(ratio.agrees(&q(10324, 10_000)));
        assert!(ratio.agrees(&q(10315, 10_000)), "1.0315 rounds up to 1.032");
        assert!(
            !ratio.agrees(&q(10325, 10_000)),
            "1.0325 rounds up to 1.033"
        );
        assert!(!ratio.agrees(&q(10314, 10_000)));
        let negative = stated("\u{2212}14.88x");
        assert!(
            negative.agrees(&q(-14875, 1000)),
            "-14.875 rounds away from zero to -14.88"
        );
        assert!(!negative.agrees(&q(-14885, 1000)));
        assert!(negative.agrees(&q(-148849, 10_000)));
        let size = stated("75.1 MiB");
        assert!(size.agrees(&n(78_748_057)));
        assert!(!size.agrees(&n(79_000_000)));
        assert!(stated("3.5 %").agrees(&q(349, 10_000)));
        assert!(!stated("3.5 %").agrees(&q(344, 10_000)));
    }

    #[test]
    fn approximate_values_compare_to_the_stated_unit() {
        let s = stated("~352 KiB");
        assert!(s.agrees(&n(360_548)), "360548 / 1024 = 352.1");
        assert!(s.agrees(&n(360_959)), "352.499 rounds to 352");
        assert!(!s.agrees(&n(360_960)), "352.5 rounds to 353");
        assert!(!s.agrees(&n(359_935)), "351.499 rounds to 351");
        assert!(stated("about five").agrees(&q(51, 10)));
        assert!(!stated("about five").agrees(&q(55, 10)));
        // Without the marker, the same figure is exact.
        assert!(!stated("352 KiB").agrees(&n(360_548)));
    }

    #[test]
    fn percentages_compare_as_fractions() {
        assert!(stated("42%").agrees(&q(42, 100)));
        assert!(!stated("42%").agrees(&q(421, 1000)));
        assert!(stated("~42%").agrees(&q(421, 1000)));
    }

    #[test]
    fn render_keeps_the_records_form() {
        assert_eq!(stated("five").render(&n(6)), "six");
        assert_eq!(stated("Five").render(&n(21)), "Twenty-one");
        assert_eq!(stated("FIVE").render(&n(6)), "SIX");
        assert_eq!(stated("twenty one").render(&n(32)), "thirty two");
        assert_eq!(stated("twenty-one").render(&n(32)), "thirty-two");
        assert_eq!(
            stated("one hundred and five").render(&n(106)),
            "one hundred and six"
        );
        assert_eq!(
            stated("one hundred five").render(&n(2005)),
            "two thousand five"
        );
        assert_eq!(
            stated("two thousand and five").render(&n(2005)),
            "two thousand and five"
        );
        assert_eq!(stated("26,214,400").render(&n(26_214_401)), "26,214,401");
        assert_eq!(stated("26_214_400").render(&n(26_214_401)), "26_214_401");
        assert_eq!(stated("26214400").render(&n(26_214_401)), "26214401");
        assert_eq!(stated("26,214,400 bytes").render(&n(999)), "999 bytes");
        assert_eq!(stated("1.032x").render(&q(10334, 10_000)), "1.033x");
        assert_eq!(stated("1.032x").render(&n(1)), "1.000x");
        assert_eq!(stated("51×").render(&n(52)), "52×");
        assert_eq!(stated("\u{2212}14.88x").render(&n(-15)), "\u{2212}15.00x");
        assert_eq!(stated("\u{2212}14.88x").render(&q(3, 2)), "1.50x");
        assert_eq!(stated("+0.12x").render(&q(2, 10)), "+0.20x");
        assert_eq!(stated("+0.12x").render(&q(-2, 10)), "-0.20x");
        assert_eq!(stated("-3x").render(&n(-4)), "-4x");
        assert_eq!(stated("12 MiB").render(&n(13 << 20)), "13 MiB");
        assert_eq!(stated("12MiB").render(&n(13 << 20)), "13MiB");
        assert_eq!(stated("75.1 MiB").render(&n(80 << 20)), "80.0 MiB");
        assert_eq!(stated("~352 KiB").render(&n(370_000)), "~361 KiB");
        assert_eq!(stated("about 352 KiB").render(&n(370_000)), "about 361 KiB");
        assert_eq!(stated("about five").render(&q(61, 10)), "about six");
        assert_eq!(stated("42%").render(&q(43, 100)), "43%");
        assert_eq!(stated("3.5 %").render(&q(41, 1000)), "4.1 %");
        assert_eq!(stated("5").render(&n(1_000_000)), "1000000");
    }

    #[test]
    fn render_falls_back_to_a_decimal_the_form_cannot_hold() {
        assert_eq!(stated("five").render(&q(5, 2)), "2.5");
        assert_eq!(stated("five").render(&n(-3)), "-3");
        assert_eq!(
            stated("12 MiB").render(&n(12_582_912 + 524_288)),
            "12.5 MiB"
        );
        assert_eq!(
            stated("26,214,400").render(&q(262_144_005, 10)),
            "26,214,400.5"
        );
        assert_eq!(stated("7").render(&q(1, 3)), "0.333333");
        assert_eq!(
            stated("five").render(&n(1_000_000_000_000_000)),
            "1000000000000000"
        );
    }

    #[test]
    fn extreme_observed_values_do_not_panic() {
        let extremes = [
            n(i128::MAX),
            n(i128::MIN),
            q(i128::MAX, 3),
            q(i128::MIN, 7),
            q(1, i128::MAX),
        ];
        for text in [
            "five",
            "1.032x",
            "~352 KiB",
            "42%",
            "26,214,400",
            "-3x",
            "7 of 7",
            "779-788",
            "12 TiB",
        ] {
            let s = stated(text);
            for observed in &extremes {
                let _ = s.agrees(observed);
                assert!(!s.render(observed).is_empty(), "{text}");
            }
        }
    }

    #[test]
    fn errors_say_what_was_not_understood() {
        assert_eq!(parse_stated("").unwrap_err(), ValueError::Empty);
        assert_eq!(parse_stated("   ").unwrap_err(), ValueError::Empty);
        assert_eq!(
            parse_stated("n/a").unwrap_err().to_string(),
            "`n/a` is not a value this grammar reads: expected digits (26,214,400), a number word (five), a ratio (1.032x), a size (12 MiB), a percentage (42%), \"N of M\" or a line range (779-788)"
        );
    }

    #[test]
    fn the_text_is_kept_as_written() {
        assert_eq!(stated(" ~352 KiB ").text, " ~352 KiB ");
    }

    fn word_style() -> impl Strategy<Value = (bool, WordCase)> {
        (
            any::<bool>(),
            prop_oneof![
                Just(WordCase::Lower),
                Just(WordCase::Capitalized),
                Just(WordCase::Upper)
            ],
        )
    }

    proptest! {
        #[test]
        fn words_round_trip_zero_to_ninety_nine(v in 0i128..=99, (hyphenated, case) in word_style()) {
            let words = apply_case(&to_words(v.unsigned_abs(), hyphenated, false).unwrap_or_default(), case);
            let s = parse_stated(&words).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(s.value, n(v));
            // Rendering through a stated value of the same style gives the same words.
            prop_assert_eq!(s.render(&n(v)), words);
        }

        #[test]
        fn words_render_parses_back(stated_word in 0i128..=99, observed in 0i128..=99) {
            let s = stated(&to_words(stated_word.unsigned_abs(), true, false).unwrap_or_default());
            let rendered = s.render(&n(observed));
            prop_assert_eq!(stated(&rendered).value, n(observed));
        }

        #[test]
        fn large_words_round_trip(v in 0u128..1_000_000_000_000_000, with_and in any::<bool>()) {
            let words = to_words(v, true, with_and).unwrap_or_default();
            let s = parse_stated(&words).map_err(|e| TestCaseError::fail(format!("{words}: {e}")))?;
            prop_assert_eq!(s.value, Number::from_integer(i128::try_from(v).unwrap_or(0)));
        }

        #[test]
        fn grouped_digits_round_trip(v in any::<i64>(), sep in prop_oneof![Just(','), Just('_')]) {
            let s = stated(&format!("1{sep}000"));
            let rendered = s.render(&n(i128::from(v)));
            let back = stated(&rendered);
            prop_assert_eq!(back.value, n(i128::from(v)));
        }

        #[test]
        fn rounded_render_agrees(numer in -10_000_000i128..10_000_000, denom in 1i128..10_000) {
            let observed = q(numer, denom);
            for text in ["1.032x", "~352 KiB", "3.5 %", "\u{2212}14.88x", "75.1 MiB"] {
                let s = stated(text);
                let rendered = s.render(&observed);
                let back = parse_stated(&rendered).map_err(|e| TestCaseError::fail(format!("{rendered}: {e}")))?;
                prop_assert!(back.agrees(&observed), "{} rendered {} which does not agree", text, rendered);
            }
        }

        #[test]
        fn parse_never_panics(s in any::<String>()) {
            let _ = parse_stated(&s);
        }

        #[test]
        fn parse_never_panics_on_value_soup(parts in prop::collection::vec(prop_oneof![
            Just("1"), Just("9"), Just(","), Just("_"), Just("."), Just("-"), Just("–"), Just("\u{2212}"),
            Just("+"), Just("~"), Just("≈"), Just(" "), Just("x"), Just("×"), Just("%"), Just("KiB"),
            Just("of"), Just("five"), Just("twenty"), Just("hundred"), Just("and"), Just("a"), Just("thousand"),
            Just("about "), Just("bytes"), Just("é"),
        ], 0..12)) {
            let _ = parse_stated(&parts.concat());
        }
    }
}

/// A verdict word, for claims about whether a schema accepts a document:
/// `Some(true)` for accept/admit/pass, `Some(false)` for reject/refuse/fail.
pub fn parse_verdict(text: &str) -> Option<bool> {
    let word = text.trim().to_lowercase();
    const YES: [&str; 9] = [
        "accept", "accepts", "accepted", "admit", "admits", "admitted", "pass", "passes", "passed",
    ];
    const NO: [&str; 9] = [
        "reject", "rejects", "rejected", "refuse", "refuses", "refused", "fail", "fails", "failed",
    ];
    if YES.contains(&word.as_str()) {
        Some(true)
    } else if NO.contains(&word.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// The verdict `accepted` written in the tense the record used for `stated`.
pub fn render_verdict(stated: &str, accepted: bool) -> String {
    let stated = stated.trim().to_lowercase();
    let (yes, no) = if stated.ends_with("ed") {
        ("accepted", "rejected")
    } else if stated.ends_with('s') {
        ("accepts", "rejects")
    } else {
        ("accept", "reject")
    };
    if accepted { yes } else { no }.to_owned()
}

#[cfg(test)]
mod verdict_tests {
    use super::*;

    #[test]
    fn verdict_words_read_both_ways() {
        assert_eq!(parse_verdict("Rejects"), Some(false));
        assert_eq!(parse_verdict("admitted"), Some(true));
        assert_eq!(parse_verdict("maybe"), None);
        assert_eq!(render_verdict("rejects", true), "accepts");
        assert_eq!(render_verdict("refused", false), "rejected");
    }
}
