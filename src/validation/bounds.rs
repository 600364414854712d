//! Validation core, step 2 of a call (after tool resolution, before parsing): bounds
//! on an untrusted document, measured in one iterative pass over its raw bytes.
//!
//! Nothing here builds a tree or allocates: the container stack is a fixed bit set,
//! so a million nested `[` costs a refusal at the first bracket past the limit rather
//! than a stack overflow, and a refused body costs no heap at all.
//!
//! # The rendered-width charge
//!
//! Every leaf (string, number, literal, and every object key) is charged an upper
//! bound on the characters it can cost in any rendering of the document as JSON
//! text: ASCII-only `\uXXXX` escaping (an astral character becomes a 12-character
//! surrogate pair), `\u{…}`-style escaping as Rust prints it, or Python-`repr`-style
//! escaping; the quotes around a string are part of its charge. Containers are
//! charged nothing; what holds them together — brackets, `, ` and `: ` — costs at
//! most [`PUNCTUATION_PER_NODE`] characters per node, so a document within the bounds
//! renders in at most [`COMPOSED_CEILING`] characters.

/// Deepest container nesting a document may have (`[[1]]` nests 2 deep).
pub const MAX_NESTING: u32 = 64;
/// Most values (containers and scalars; object keys are not values) a document may hold.
pub const MAX_NODES: u64 = 100_000;
/// Most characters the document's leaves may be charged in total.
pub const MAX_RENDERED_CHARS: u64 = 12 * 1024 * 1024;
/// Punctuation one node can add to a rendering beyond its leaf charge: its own two
/// brackets when it is a container, the `, ` before it, and the `: ` after its key.
pub const PUNCTUATION_PER_NODE: u64 = 6;
/// The widest rendering a document within the bounds can reach.
pub const COMPOSED_CEILING: u64 = MAX_RENDERED_CHARS + MAX_NODES * PUNCTUATION_PER_NODE;

/// Charge of a printable ASCII character that no rendering escapes.
pub const CHARGE_PLAIN_ASCII: u64 = 1;
/// Charge of `"`, `\` and `'`, which some rendering escapes with one backslash.
pub const CHARGE_QUOTING_ASCII: u64 = 2;
/// Charge of an ASCII control character or DEL (`\u007f` is the widest form).
pub const CHARGE_CONTROL: u64 = 6;
/// Charge of a character of the Basic Multilingual Plane outside ASCII
/// (`\u{ffff}` is the widest form; a lone surrogate escape is charged the same).
pub const CHARGE_BMP: u64 = 8;
/// Charge of an astral character (`\ud83d\ude00`, a surrogate pair, is the widest form).
pub const CHARGE_ASTRAL: u64 = 12;
/// Charge of the quotes around a string.
pub const CHARGE_STRING_QUOTES: u64 = 2;
/// Widest shortest-round-trip rendering of a double (`-2.2250738585072014e-308`).
pub const MAX_FLOAT_RENDER: u64 = 24;
/// Most digits an integer may have and still be rendered exactly as sent.
pub const MAX_EXACT_INTEGER_DIGITS: u64 = 18;

/// How deep the fixed container stack can go; [`Limits::max_nesting`] may not exceed it.
pub const NESTING_CAPACITY: u32 = 128;
const _: () = assert!(MAX_NESTING <= NESTING_CAPACITY);

/// The limits a scan enforces. [`Limits::DEFAULT`] is the published set; a caller may
/// loosen `max_nodes` and `max_rendered` (to measure a whole body, say), but nesting is
/// capped by the fixed stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_nesting: u32,
    pub max_nodes: u64,
    pub max_rendered: u64,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_nesting: MAX_NESTING,
        max_nodes: MAX_NODES,
        max_rendered: MAX_RENDERED_CHARS,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// What a complete scan measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measure {
    /// Deepest container nesting seen.
    pub nesting: u32,
    /// Values seen (containers and scalars).
    pub nodes: u64,
    /// Sum of the leaf charges.
    pub rendered: u64,
}

impl Measure {
    /// Upper bound on the characters any rendering of the document can take.
    pub fn composed_width(&self) -> u64 {
        self.rendered
            .saturating_add(self.nodes.saturating_mul(PUNCTUATION_PER_NODE))
    }
}

/// Which bound a document broke, and at which byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoundsError {
    #[error("the document nests deeper than {limit} at byte {offset}")]
    Nesting { limit: u32, offset: u64 },
    #[error("the document holds more than {limit} values at byte {offset}")]
    Nodes { limit: u64, offset: u64 },
    #[error("the document's rendering could exceed {limit} characters at byte {offset}")]
    RenderedWidth { limit: u64, offset: u64 },
    #[error("the document is not well-formed JSON at byte {offset}")]
    Malformed { offset: u64 },
    #[error("a nesting limit of {requested} exceeds the scanner's capacity of {NESTING_CAPACITY}")]
    NestingCapacity { requested: u32 },
}

/// Scan `bytes` under the published limits.
pub fn check(bytes: &[u8]) -> Result<Measure, BoundsError> {
    check_with(bytes, Limits::DEFAULT)
}

// Byte classes inside a string body. Values below MARK_CONTROL are the charge the byte
// contributes: a UTF-8 lead byte carries its character's charge, a continuation byte 0.
const MARK_QUOTE: u8 = 0xFF;
const MARK_BACKSLASH: u8 = 0xFE;
const MARK_CONTROL: u8 = 0xFD;

const STRING_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0usize;
    while byte < 256 {
        table[byte] = match byte {
            0x00..=0x1F => MARK_CONTROL,
            0x22 => MARK_QUOTE,
            0x5C => MARK_BACKSLASH,
            0x27 => CHARGE_QUOTING_ASCII as u8,
            0x7F => CHARGE_CONTROL as u8,
            0x20..=0x7E => CHARGE_PLAIN_ASCII as u8,
            0x80..=0xBF => 0,
            0xC0..=0xEF => CHARGE_BMP as u8,
            _ => CHARGE_ASTRAL as u8,
        };
        byte += 1;
    }
    table
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const LOWS7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// High bit set in each byte of `word` that is zero (exact, no false positives).
#[inline(always)]
fn zero_bytes(word: u64) -> u64 {
    !(((word & LOWS7).wrapping_add(LOWS7)) | word | LOWS7)
}

/// Charge of eight string bytes when they need no per-byte attention: either all
/// plain printable ASCII, or all non-ASCII (whole characters or pieces of them).
#[inline(always)]
fn word_charge(word: u64) -> Option<u64> {
    if word & HIGHS == 0 {
        // Bytes below 0x20, 0x7F, quote, apostrophe or backslash need the slow path.
        let below_space = (word.wrapping_sub(ONES * 0x20)) & !word & HIGHS;
        let special = zero_bytes(word ^ (ONES * 0x22))
            | zero_bytes(word ^ (ONES * 0x5C))
            | zero_bytes(word ^ (ONES * 0x27))
            | zero_bytes(word ^ (ONES * 0x7F));
        if below_space | special == 0 {
            return Some(8 * CHARGE_PLAIN_ASCII);
        }
        return None;
    }
    if word & HIGHS == HIGHS {
        // 11xxxxxx starts a character; 11110xxx starts an astral one.
        let leads = u64::from((word & (ONES * 0x40)).count_ones());
        let astral = u64::from(zero_bytes((word & (ONES * 0xF8)) ^ (ONES * 0xF0)).count_ones());
        return Some(leads * CHARGE_BMP + astral * (CHARGE_ASTRAL - CHARGE_BMP));
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Value,
    ValueOrClose,
    Key,
    KeyOrClose,
    Colon,
    CommaOrClose,
    Done,
}

struct Scan<'b> {
    bytes: &'b [u8],
    limits: Limits,
    depth: u32,
    /// Bit `d` is set when the container at depth `d + 1` is an object.
    objects: u128,
    measure: Measure,
}

/// Scan `bytes` under `limits`: one forward pass, no recursion, no allocation.
pub fn check_with(bytes: &[u8], limits: Limits) -> Result<Measure, BoundsError> {
    if limits.max_nesting > NESTING_CAPACITY {
        return Err(BoundsError::NestingCapacity {
            requested: limits.max_nesting,
        });
    }
    let mut scan = Scan {
        bytes,
        limits,
        depth: 0,
        objects: 0,
        measure: Measure::default(),
    };
    scan.run()?;
    Ok(scan.measure)
}

fn malformed(offset: usize) -> BoundsError {
    BoundsError::Malformed {
        offset: offset as u64,
    }
}

impl Scan<'_> {
    fn run(&mut self) -> Result<(), BoundsError> {
        let bytes = self.bytes;
        let mut state = State::Value;
        let mut at = 0usize;
        loop {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
                at += 1;
            }
            let Some(&byte) = bytes.get(at) else {
                return if state == State::Done {
                    Ok(())
                } else {
                    Err(malformed(at))
                };
            };
            state = match (state, byte) {
                (State::ValueOrClose, b']') | (State::CommaOrClose, b']') if !self.in_object() => {
                    at += 1;
                    self.close()
                }
                (State::KeyOrClose, b'}') | (State::CommaOrClose, b'}') if self.in_object() => {
                    at += 1;
                    self.close()
                }
                (State::Value | State::ValueOrClose, _) => {
                    let (next, after) = self.value(at, byte)?;
                    at = next;
                    after
                }
                (State::Key | State::KeyOrClose, b'"') => {
                    let (end, charge) = self.string(at)?;
                    self.charge(charge, at)?;
                    at = end;
                    State::Colon
                }
                (State::Colon, b':') => {
                    at += 1;
                    State::Value
                }
                (State::CommaOrClose, b',') => {
                    at += 1;
                    if self.in_object() {
                        State::Key
                    } else {
                        State::Value
                    }
                }
                _ => return Err(malformed(at)),
            };
        }
    }

    #[inline]
    fn in_object(&self) -> bool {
        self.depth > 0 && (self.objects >> (self.depth - 1)) & 1 == 1
    }

    #[inline]
    fn after_value(&self) -> State {
        if self.depth == 0 {
            State::Done
        } else {
            State::CommaOrClose
        }
    }

    #[inline]
    fn close(&mut self) -> State {
        self.depth -= 1;
        self.after_value()
    }

    #[inline]
    fn node(&mut self, at: usize) -> Result<(), BoundsError> {
        self.measure.nodes += 1;
        if self.measure.nodes > self.limits.max_nodes {
            return Err(BoundsError::Nodes {
                limit: self.limits.max_nodes,
                offset: at as u64,
            });
        }
        Ok(())
    }

    #[inline]
    fn charge(&mut self, charge: u64, at: usize) -> Result<(), BoundsError> {
        self.measure.rendered = self.measure.rendered.saturating_add(charge);
        if self.measure.rendered > self.limits.max_rendered {
            return Err(BoundsError::RenderedWidth {
                limit: self.limits.max_rendered,
                offset: at as u64,
            });
        }
        Ok(())
    }

    #[inline]
    fn open(&mut self, at: usize, object: bool) -> Result<(), BoundsError> {
        if self.depth >= self.limits.max_nesting {
            return Err(BoundsError::Nesting {
                limit: self.limits.max_nesting,
                offset: at as u64,
            });
        }
        let bit = 1u128 << self.depth;
        if object {
            self.objects |= bit;
        } else {
            self.objects &= !bit;
        }
        self.depth += 1;
        self.measure.nesting = self.measure.nesting.max(self.depth);
        Ok(())
    }

    /// A value starting at `at`; returns where it ends and the state after it.
    #[inline]
    fn value(&mut self, at: usize, byte: u8) -> Result<(usize, State), BoundsError> {
        self.node(at)?;
        match byte {
            b'{' => {
                self.open(at, true)?;
                Ok((at + 1, State::KeyOrClose))
            }
            b'[' => {
                self.open(at, false)?;
                Ok((at + 1, State::ValueOrClose))
            }
            b'"' => {
                let (end, charge) = self.string(at)?;
                self.charge(charge, at)?;
                Ok((end, self.after_value()))
            }
            b'-' | b'0'..=b'9' => {
                let (end, charge) = self.number(at)?;
                self.charge(charge, at)?;
                Ok((end, self.after_value()))
            }
            b't' | b'f' | b'n' => {
                let literal: &[u8] = match byte {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                let end = at + literal.len();
                if self.bytes.get(at..end) != Some(literal) {
                    return Err(malformed(at));
                }
                self.charge(literal.len() as u64, at)?;
                Ok((end, self.after_value()))
            }
            _ => Err(malformed(at)),
        }
    }

    /// A string whose opening quote is at `at`: where it ends, and its charge.
    fn string(&mut self, at: usize) -> Result<(usize, u64), BoundsError> {
        let bytes = self.bytes;
        let mut charge = CHARGE_STRING_QUOTES;
        let mut index = at + 1;
        // The charge is checked against the budget every chunk, so a huge string is
        // refused near the byte that crossed the budget, not at its end.
        let budget = self
            .limits
            .max_rendered
            .saturating_sub(self.measure.rendered);
        loop {
            while let Some(chunk) = bytes.get(index..index + 8) {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                match word_charge(u64::from_le_bytes(word)) {
                    Some(more) => {
                        charge += more;
                        index += 8;
                        if charge > budget {
                            return Err(BoundsError::RenderedWidth {
                                limit: self.limits.max_rendered,
                                offset: index as u64,
                            });
                        }
                    }
                    None => break,
                }
            }
            // Byte-wise until the next byte that needs attention, at most one word.
            let stop = (index + 8).min(bytes.len());
            while index < stop {
                let Some(&byte) = bytes.get(index) else {
                    break;
                };
                let class = STRING_CLASS[usize::from(byte)];
                if class >= MARK_CONTROL {
                    break;
                }
                charge += u64::from(class);
                index += 1;
            }
            let Some(&byte) = bytes.get(index) else {
                return Err(malformed(index));
            };
            match STRING_CLASS[usize::from(byte)] {
                MARK_QUOTE => return Ok((index + 1, charge)),
                MARK_CONTROL => return Err(malformed(index)),
                MARK_BACKSLASH => {
                    let (next, more) = escape(bytes, index)?;
                    charge += more;
                    index = next;
                }
                _ => {}
            }
            if charge > budget {
                return Err(BoundsError::RenderedWidth {
                    limit: self.limits.max_rendered,
                    offset: index as u64,
                });
            }
        }
    }

    #[inline]
    fn number(&mut self, at: usize) -> Result<(usize, u64), BoundsError> {
        let bytes = self.bytes;
        // Short plain integers (the common case) are charged their digits.
        let mut end = at;
        while end < at + 8 && matches!(bytes.get(end), Some(b'0'..=b'9')) {
            end += 1;
        }
        if end > at
            && end < at + 8
            && !matches!(bytes.get(end), Some(b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            return Ok((end, (end - at) as u64));
        }
        let mut index = at;
        if bytes.get(index) == Some(&b'-') {
            index += 1;
        }
        let digits_start = index;
        index = skip_digits(bytes, index);
        let integer_digits = (index - digits_start) as u64;
        if integer_digits == 0 {
            return Err(malformed(index));
        }
        let mut exact_integer = true;
        if bytes.get(index) == Some(&b'.') {
            exact_integer = false;
            let start = index + 1;
            index = skip_digits(bytes, start);
            if index == start {
                return Err(malformed(index));
            }
        }
        if let Some(b'e' | b'E') = bytes.get(index) {
            exact_integer = false;
            index += 1;
            if let Some(b'+' | b'-') = bytes.get(index) {
                index += 1;
            }
            let start = index;
            index = skip_digits(bytes, start);
            if index == start {
                return Err(malformed(index));
            }
        }
        let wire = (index - at) as u64;
        let negative_zero = bytes.get(at..at + 2) == Some(b"-0") && integer_digits == 1;
        let charge =
            if exact_integer && integer_digits <= MAX_EXACT_INTEGER_DIGITS && !negative_zero {
                wire
            } else {
                wire.max(MAX_FLOAT_RENDER)
            };
        Ok((index, charge))
    }
}

fn skip_digits(bytes: &[u8], mut index: usize) -> usize {
    while let Some(b'0'..=b'9') = bytes.get(index) {
        index += 1;
    }
    index
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let mut value = 0u32;
    for &digit in digits {
        value = value * 16 + char::from(digit).to_digit(16)?;
    }
    Some(value)
}

/// The escape whose backslash is at `at`: where it ends, and the charge of the
/// character it stands for.
fn escape(bytes: &[u8], at: usize) -> Result<(usize, u64), BoundsError> {
    let Some(&kind) = bytes.get(at + 1) else {
        return Err(malformed(at));
    };
    match kind {
        b'"' | b'\\' => Ok((at + 2, CHARGE_QUOTING_ASCII)),
        b'/' => Ok((at + 2, CHARGE_PLAIN_ASCII)),
        b'b' | b'f' | b'n' | b'r' | b't' => Ok((at + 2, CHARGE_CONTROL)),
        b'u' => {
            let unit = hex4(bytes, at + 2).ok_or(malformed(at))?;
            if (0xD800..0xDC00).contains(&unit)
                && bytes.get(at + 6..at + 8) == Some(b"\\u")
                && hex4(bytes, at + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low))
            {
                return Ok((at + 12, CHARGE_ASTRAL));
            }
            let charge = match unit {
                0x22 | 0x27 | 0x5C => CHARGE_QUOTING_ASCII,
                0x20..=0x7E => CHARGE_PLAIN_ASCII,
                0x00..=0x1F | 0x7F => CHARGE_CONTROL,
                _ => CHARGE_BMP,
            };
            Ok((at + 6, charge))
        }
        _ => Err(malformed(at)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_composed_ceiling_is_recomputed_from_the_live_constants() {
        let recomputed = MAX_RENDERED_CHARS
            .checked_add(MAX_NODES.checked_mul(PUNCTUATION_PER_NODE).unwrap_or(0))
            .unwrap_or(0);
        assert_eq!(COMPOSED_CEILING, recomputed);
        assert_eq!(MAX_RENDERED_CHARS, 12_582_912);
        assert_eq!(COMPOSED_CEILING, 13_182_912);
    }

    #[test]
    fn a_small_document_is_measured() {
        let measure = check(br#"{"a": [1, "xy", true, null], "b": {}}"#).ok();
        // nodes: object, array, 1, "xy", true, null, {} = 7
        // charges: "a" 3, 1 1, "xy" 4, true 4, null 4, "b" 3
        assert_eq!(
            measure,
            Some(Measure {
                nesting: 2,
                nodes: 7,
                rendered: 19
            })
        );
    }

    #[test]
    fn a_million_nested_brackets_are_refused_at_the_first_bracket_past_the_limit() {
        let body = vec![b'['; 1_000_000];
        assert_eq!(
            check(&body),
            Err(BoundsError::Nesting {
                limit: MAX_NESTING,
                offset: u64::from(MAX_NESTING)
            })
        );
    }

    #[test]
    fn nesting_at_the_limit_passes_and_one_more_is_refused() {
        let depth = MAX_NESTING as usize;
        let at_limit = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(
            check(at_limit.as_bytes()).map(|m| m.nesting),
            Ok(MAX_NESTING)
        );
        let past = format!("{}{}", "[".repeat(depth + 1), "]".repeat(depth + 1));
        assert!(matches!(
            check(past.as_bytes()),
            Err(BoundsError::Nesting { .. })
        ));
    }

    #[test]
    fn node_count_at_the_limit_passes_and_one_more_is_refused() {
        let values = (MAX_NODES - 1) as usize; // plus the array itself
        let at_limit = format!("[{}0]", "0,".repeat(values - 1));
        assert_eq!(check(at_limit.as_bytes()).map(|m| m.nodes), Ok(MAX_NODES));
        let past = format!("[{}0]", "0,".repeat(values));
        assert!(matches!(
            check(past.as_bytes()),
            Err(BoundsError::Nodes { .. })
        ));
    }

    #[test]
    fn escape_classes_are_charged_their_widest_rendering() {
        let cases: &[(&str, u64)] = &[
            (r#""a""#, 2 + 1),
            (r#""'""#, 2 + 2),
            (r#""\"""#, 2 + 2),
            (r#""\\""#, 2 + 2),
            (r#""\/""#, 2 + 1),
            (r#""\n""#, 2 + 6),
            (r#""\u0001""#, 2 + 6),
            (r#""\u0041""#, 2 + 1),
            ("\"\u{7f}\"", 2 + 6),
            ("\"\u{600}\"", 2 + 8),
            ("\"\u{ffff}\"", 2 + 8),
            ("\"\u{1f600}\"", 2 + 12),
            (r#""\ud83d\ude00""#, 2 + 12),
            (r#""\ud83d""#, 2 + 8),
            ("1", 1),
            ("-12", 3),
            ("-0", 24),
            ("1.5", 24),
            ("1234567890123456789", 24),
            ("true", 4),
            ("false", 5),
            ("null", 4),
        ];
        for (text, charge) in cases {
            assert_eq!(
                check(text.as_bytes()).map(|m| m.rendered),
                Ok(*charge),
                "{text}"
            );
        }
    }

    #[test]
    fn the_word_path_and_the_byte_path_charge_alike() {
        // Strings long enough to take the eight-byte path, in every alignment.
        let pieces = [
            "abcdefgh",
            "\u{600}",
            "\u{4e2d}",
            "\u{1f600}",
            "'",
            "\u{7f}",
        ];
        for shift in 0..8 {
            let mut text = "x".repeat(shift);
            let mut expected = CHARGE_STRING_QUOTES + shift as u64;
            for round in 0..40 {
                let piece = pieces[round % pieces.len()];
                text.push_str(piece);
                expected += piece
                    .chars()
                    .map(|c| match c as u32 {
                        0x27 => CHARGE_QUOTING_ASCII,
                        0x7F => CHARGE_CONTROL,
                        0x20..=0x7E => CHARGE_PLAIN_ASCII,
                        0x80..=0xFFFF => CHARGE_BMP,
                        _ => CHARGE_ASTRAL,
                    })
                    .sum::<u64>();
            }
            let body = format!("\"{text}\"");
            assert_eq!(
                check(body.as_bytes()).map(|m| m.rendered),
                Ok(expected),
                "shift {shift}"
            );
        }
    }

    #[test]
    fn malformed_documents_are_refused_with_an_offset() {
        for text in [
            "",
            "[",
            "]",
            "{",
            "{\"a\"}",
            "{\"a\":}",
            "[1,]",
            "[1 2]",
            "tru",
            "\"abc",
            "01x",
            "1.",
            "1e",
            "{1:2}",
            "[1]]",
            "\"\u{1}\"",
            "\"\\x\"",
            "[}",
            "{]",
        ] {
            assert!(
                matches!(check(text.as_bytes()), Err(BoundsError::Malformed { .. })),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_string_past_the_budget_is_refused_near_the_crossing_byte() {
        let limit = 100u64;
        let limits = Limits {
            max_rendered: limit,
            ..Limits::DEFAULT
        };
        let body = format!("\"{}\"", "a".repeat(10_000));
        match check_with(body.as_bytes(), limits) {
            Err(BoundsError::RenderedWidth { offset, .. }) => assert!(offset <= limit + 16),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_nesting_limit_past_the_stack_capacity_is_an_error() {
        let limits = Limits {
            max_nesting: NESTING_CAPACITY + 1,
            ..Limits::DEFAULT
        };
        assert!(matches!(
            check_with(b"[]", limits),
            Err(BoundsError::NestingCapacity { .. })
        ));
    }
}
