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
/// Most characters one number may be written with. Numbers are compared at the
/// precision they are written (`100.000000000000001` is not at most 100), so a
/// longer one would cost big-number arithmetic on every keyword that reads it;
/// no real tool argument needs more digits than this.
pub const MAX_NUMBER_CHARS: u64 = 256;

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
    #[error("the document writes a number longer than {limit} characters at byte {offset}")]
    NumberLength { limit: u64, offset: u64 },
    #[error("the document writes a number the validator would round at byte {offset}")]
    Inexact { offset: u64 },
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

const WIDE_ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
const WIDE_HIGHS: u128 = WIDE_ONES * 0x80;
const WIDE_LOWS7: u128 = WIDE_ONES * 0x7F;

/// [`zero_bytes`] over sixteen bytes.
#[inline(always)]
fn wide_zero_bytes(word: u128) -> u128 {
    !(((word & WIDE_LOWS7).wrapping_add(WIDE_LOWS7)) | word | WIDE_LOWS7)
}

/// High bit set in each byte of `word` equal to `byte` (exact).
#[inline(always)]
fn bytes_equal(word: u64, byte: u8) -> u64 {
    zero_bytes(word ^ (ONES * u64::from(byte)))
}

/// Sum of the eight bytes of `word`, each at most 31 (so no byte of the product carries).
#[inline(always)]
fn byte_sum(word: u64) -> u64 {
    word.wrapping_mul(ONES) >> 56
}

/// High bit set in the bytes of a string word that end a run of plain charging: `"`,
/// `\` and the control characters. Only the lowest flag is exact (a byte below 0x20
/// borrows from the byte above it), which is the only one read.
#[inline(always)]
fn attention_bytes(word: u64) -> u64 {
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    below_space | bytes_equal(word, b'"') | bytes_equal(word, b'\\')
}

/// Charge of eight string bytes taken as one clean chunk, when they are one: all
/// plain printable ASCII other than `"`, `\` and `'`, or all bytes 0x80 and up (whole
/// characters or pieces of them; only 0xF0..=0xF7 count as astral leads here, so
/// 0xF8..=0xFF, which UTF-8 never holds, are charged as other leads).
#[inline(always)]
fn clean_word_charge(word: u64) -> Option<u64> {
    if word & HIGHS == 0 {
        // With every high bit clear no byte carries or borrows into the next, so each
        // test leaves the high bit of a byte set when that byte passes it.
        let not_control = (word | HIGHS).wrapping_sub(ONES * 0x20);
        let not_delete = !word.wrapping_add(ONES);
        let not_byte = |byte: u8| (word ^ (ONES * u64::from(byte))).wrapping_add(LOWS7);
        let plain = not_control & not_delete & not_byte(b'"') & not_byte(b'\\') & not_byte(b'\'');
        return (plain & HIGHS == HIGHS).then_some(8 * CHARGE_PLAIN_ASCII);
    }
    if word & HIGHS == HIGHS {
        // 11xxxxxx starts a character; 11110xxx starts an astral one.
        let leads = (word & (word << 1) & HIGHS) >> 7;
        let astral = bytes_equal(word & (ONES * 0xF8), 0xF0) >> 7;
        return Some(byte_sum(
            leads * CHARGE_BMP + astral * (CHARGE_ASTRAL - CHARGE_BMP),
        ));
    }
    None
}

/// The eight bytes of a string starting at `index`, as a little-endian word, when
/// there are eight.
#[inline(always)]
fn word_at(bytes: &[u8], index: usize) -> Option<u64> {
    let chunk = bytes.get(index..)?.first_chunk::<8>()?;
    Some(u64::from_le_bytes(*chunk))
}

/// Charge of the bytes of `word` flagged (high bit) in `wanted`, none of them an
/// attention byte, each as [`STRING_CLASS`] charges it.
#[inline(always)]
fn bytes_charge(word: u64, wanted: u64) -> u64 {
    let ascii = !word & HIGHS;
    let apostrophe = bytes_equal(word, b'\'');
    let delete = bytes_equal(word, 0x7F);
    let lead = word & (word << 1) & HIGHS;
    let astral = lead & (word << 2) & (word << 3);
    let per_byte = (ascii >> 7) * CHARGE_PLAIN_ASCII
        + (apostrophe >> 7) * (CHARGE_QUOTING_ASCII - CHARGE_PLAIN_ASCII)
        + (delete >> 7) * (CHARGE_CONTROL - CHARGE_PLAIN_ASCII)
        + (lead >> 7) * CHARGE_BMP
        + (astral >> 7) * (CHARGE_ASTRAL - CHARGE_BMP);
    byte_sum(per_byte & ((wanted >> 7) * 0xFF))
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
                    if self.in_object() {
                        at += 1;
                        State::Key
                    } else {
                        let after = self.small_values(at);
                        if after == at {
                            at += 1;
                            State::Value
                        } else {
                            at = after;
                            State::CommaOrClose
                        }
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

    /// Runs of `,digits,digits,…` in an array, sixteen bytes at a time, starting at
    /// the comma at `at`: returns the comma after the last value taken (`at` when none
    /// was). Each run is a plain integer of at most fifteen digits, charged its digits
    /// as [`Scan::number`] charges it; a window that could cross a limit is left to the
    /// token-at-a-time path so the refusal names the same byte.
    #[inline]
    fn small_values(&mut self, mut at: usize) -> usize {
        while let Some(window) = self.bytes.get(at..).and_then(<[u8]>::first_chunk::<16>) {
            let word = u128::from_le_bytes(*window);
            let from_zero = word ^ (WIDE_ONES * u128::from(b'0'));
            let digits =
                !(((from_zero & WIDE_LOWS7) + WIDE_ONES * (0x80 - 10)) | from_zero) & WIDE_HIGHS;
            let commas = wide_zero_bytes(word ^ (WIDE_ONES * u128::from(b',')));
            if digits | commas != WIDE_HIGHS || commas & (commas << 8) != 0 {
                break;
            }
            let comma_count =
                byte_sum((commas as u64) >> 7) + byte_sum(((commas >> 64) as u64) >> 7);
            // When a comma follows a window that ends in a digit, the whole window is
            // values; otherwise they end at its last comma (the first byte is one).
            let (last, values) = if self.bytes.get(at + 16) == Some(&b',') && commas >> 127 == 0 {
                (16, comma_count)
            } else {
                (
                    ((127 - commas.leading_zeros()) / 8) as usize,
                    comma_count - 1,
                )
            };
            if values == 0 {
                break;
            }
            let charge = last as u64 - values;
            if self.measure.nodes.saturating_add(values) > self.limits.max_nodes
                || self.measure.rendered.saturating_add(charge) > self.limits.max_rendered
            {
                break;
            }
            self.measure.nodes += values;
            self.measure.rendered += charge;
            at += last;
        }
        at
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
    ///
    /// The bytes go eight at a time from the string's first byte and from the end of
    /// every escape, and the charge is checked against the budget after each such
    /// chunk and after each escape, so a huge string is refused near the byte that
    /// crossed the budget, not at its end (the reference scanner in the tests spells
    /// out exactly where).
    fn string(&mut self, at: usize) -> Result<(usize, u64), BoundsError> {
        let bytes = self.bytes;
        let mut charge = CHARGE_STRING_QUOTES;
        let mut index = at + 1;
        let budget = self
            .limits
            .max_rendered
            .saturating_sub(self.measure.rendered);
        loop {
            // Clean chunks in a row (the bulk of ordinary text) in a tight loop.
            while let Some(word) = word_at(bytes, index) {
                let Some(more) = clean_word_charge(word) else {
                    break;
                };
                charge += more;
                index += 8;
                if charge > budget {
                    return Err(self.over_budget(index));
                }
            }
            let Some(word) = word_at(bytes, index) else {
                return self.string_tail(index, charge, budget);
            };
            let attention = attention_bytes(word);
            if attention == 0 {
                // Not a clean chunk (the loop above takes those): charged byte by byte.
                charge += bytes_charge(word, HIGHS);
                index += 8;
            } else {
                // Charge the bytes below the first one that needs attention.
                let lowest = attention & attention.wrapping_neg();
                charge += bytes_charge(word, lowest.wrapping_sub(1) & HIGHS);
                index += (attention.trailing_zeros() / 8) as usize;
            }
            match bytes.get(index) {
                None => return Err(malformed(index)),
                Some(b'"') => return Ok((index + 1, charge)),
                Some(b'\\') => {
                    // Escapes in a row are decoded in a row; each is a chunk of its own.
                    loop {
                        let (next, more) = escape(bytes, index)?;
                        charge += more;
                        index = next;
                        if charge > budget {
                            return Err(self.over_budget(index));
                        }
                        match bytes.get(index..index + 2) {
                            Some([b'\\', _]) => {}
                            // One character byte between two escapes is charged as
                            // the chunk that begins with it would charge it.
                            Some(&[byte, b'\\'])
                                if STRING_CLASS[usize::from(byte)] < MARK_CONTROL =>
                            {
                                charge += u64::from(STRING_CLASS[usize::from(byte)]);
                                index += 1;
                            }
                            _ => break,
                        }
                    }
                    continue;
                }
                Some(&byte) if byte < 0x20 => return Err(malformed(index)),
                Some(_) => {}
            }
            if charge > budget {
                return Err(self.over_budget(index));
            }
        }
    }

    /// The last chunk of a string, fewer than eight bytes before the input ends.
    #[cold]
    fn string_tail(
        &self,
        mut index: usize,
        mut charge: u64,
        budget: u64,
    ) -> Result<(usize, u64), BoundsError> {
        let bytes = self.bytes;
        loop {
            while let Some(&byte) = bytes.get(index) {
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
                MARK_BACKSLASH => {
                    let (next, more) = escape(bytes, index)?;
                    charge += more;
                    index = next;
                }
                _ => return Err(malformed(index)),
            }
            if charge > budget {
                return Err(self.over_budget(index));
            }
        }
    }

    fn over_budget(&self, offset: usize) -> BoundsError {
        BoundsError::RenderedWidth {
            limit: self.limits.max_rendered,
            offset: offset as u64,
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
        if wire > MAX_NUMBER_CHARS {
            return Err(BoundsError::NumberLength {
                limit: MAX_NUMBER_CHARS,
                offset: at as u64,
            });
        }
        let short_integer = exact_integer && integer_digits <= MAX_EXACT_INTEGER_DIGITS;
        if !(short_integer || read_exactly(&bytes[at..index])) {
            return Err(BoundsError::Inexact { offset: at as u64 });
        }
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

/// Whether the parser reads `number` (a well-formed JSON number of at most
/// [`MAX_NUMBER_CHARS`] bytes) as exactly the value written. An integer that fits
/// 64 bits is read exactly; anything else becomes a double, which is exact only
/// when the shortest decimal that reads back as that double is the number written
/// (`0.1`, `1e300`, `2.5`). `100.000000000000001` reads as 100, and an integer
/// bound of 100 would accept it: such a number is refused rather than rounded, so
/// every number the schema sees is compared at the precision it was written.
fn read_exactly(number: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(number) else {
        return false;
    };
    if !text.contains(['.', 'e', 'E'])
        && (text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok())
    {
        return true;
    }
    let Ok(double) = text.parse::<f64>() else {
        return false;
    };
    if !double.is_finite() {
        return false;
    }
    let mut shortest = StackText::default();
    if std::fmt::Write::write_fmt(&mut shortest, format_args!("{double:e}")).is_err() {
        return false;
    }
    Decimal::of(number) == Decimal::of(shortest.as_bytes())
}

/// A number's value as (negative, significant digits, power of ten of the first
/// digit), so that `1.50e2`, `150` and `0.15e3` compare equal. Zero has no digits
/// and no sign (`-0` is 0).
#[derive(PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: [u8; MAX_NUMBER_CHARS as usize],
    len: usize,
    exponent: i64,
}

impl Decimal {
    fn of(text: &[u8]) -> Decimal {
        let mut decimal = Decimal {
            negative: text.first() == Some(&b'-'),
            digits: [0; MAX_NUMBER_CHARS as usize],
            len: 0,
            exponent: 0,
        };
        let mut point: i64 = 0;
        let mut seen_point = false;
        let mut leading = true;
        let mut rest = text
            .iter()
            .copied()
            .skip(usize::from(decimal.negative))
            .peekable();
        while let Some(&c) = rest.peek() {
            match c {
                b'0'..=b'9' => {
                    if leading && c == b'0' {
                        // A leading zero moves the point, not the digits.
                        if seen_point {
                            point -= 1;
                        }
                    } else {
                        leading = false;
                        if let Some(slot) = decimal.digits.get_mut(decimal.len) {
                            *slot = c;
                            decimal.len += 1;
                        }
                        if !seen_point {
                            point += 1;
                        }
                    }
                }
                b'.' => seen_point = true,
                _ => break,
            }
            rest.next();
        }
        let mut exponent: i64 = 0;
        if matches!(rest.next(), Some(b'e' | b'E')) {
            let negative = rest.peek() == Some(&b'-');
            if matches!(rest.peek(), Some(b'+' | b'-')) {
                rest.next();
            }
            for c in rest.filter(u8::is_ascii_digit) {
                exponent = exponent
                    .saturating_mul(10)
                    .saturating_add(i64::from(c - b'0'));
            }
            if negative {
                exponent = -exponent;
            }
        }
        while decimal.len > 0 && decimal.digits[decimal.len - 1] == b'0' {
            decimal.len -= 1;
        }
        for slot in &mut decimal.digits[decimal.len..] {
            *slot = 0;
        }
        if decimal.len == 0 {
            decimal.negative = false;
        } else {
            decimal.exponent = point.saturating_add(exponent);
        }
        decimal
    }
}

/// A double's `{:e}` rendering, written on the stack (the scan allocates nothing).
#[derive(Default)]
struct StackText {
    bytes: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let end = self.len + text.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn skip_digits(bytes: &[u8], mut index: usize) -> usize {
    while let Some(b'0'..=b'9') = bytes.get(index) {
        index += 1;
    }
    index
}

/// Value of each byte as a hex digit; [`NOT_HEX`] for the rest.
const HEX_VALUE: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut byte = 0usize;
    while byte < 256 {
        table[byte] = match byte as u8 {
            digit @ b'0'..=b'9' => digit - b'0',
            letter @ b'a'..=b'f' => letter - b'a' + 10,
            letter @ b'A'..=b'F' => letter - b'A' + 10,
            _ => NOT_HEX,
        };
        byte += 1;
    }
    table
};
const NOT_HEX: u8 = 0x10;

/// Charge of the character an ASCII `\uXXXX` escape stands for, by code unit.
const ASCII_UNIT_CHARGE: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut unit = 0usize;
    while unit < 128 {
        table[unit] = match unit {
            0x22 | 0x27 | 0x5C => CHARGE_QUOTING_ASCII as u8,
            0x20..=0x7E => CHARGE_PLAIN_ASCII as u8,
            _ => CHARGE_CONTROL as u8,
        };
        unit += 1;
    }
    table
};

/// Charge of the character a two-byte escape stands for, by the byte after the
/// backslash; 0 for the rest (`u` and the bytes that make no escape).
const SIMPLE_ESCAPE_CHARGE: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'"' as usize] = CHARGE_QUOTING_ASCII as u8;
    table[b'\\' as usize] = CHARGE_QUOTING_ASCII as u8;
    table[b'/' as usize] = CHARGE_PLAIN_ASCII as u8;
    table[b'b' as usize] = CHARGE_CONTROL as u8;
    table[b'f' as usize] = CHARGE_CONTROL as u8;
    table[b'n' as usize] = CHARGE_CONTROL as u8;
    table[b'r' as usize] = CHARGE_CONTROL as u8;
    table[b't' as usize] = CHARGE_CONTROL as u8;
    table
};

#[inline(always)]
fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let mut value = 0u32;
    let mut seen = 0u8;
    for &digit in digits {
        let nibble = HEX_VALUE[usize::from(digit)];
        seen |= nibble;
        value = (value << 4) | u32::from(nibble);
    }
    (seen & NOT_HEX == 0).then_some(value)
}

/// The escape whose backslash is at `at`: where it ends, and the charge of the
/// character it stands for.
#[inline(always)]
fn escape(bytes: &[u8], at: usize) -> Result<(usize, u64), BoundsError> {
    let Some(&kind) = bytes.get(at + 1) else {
        return Err(malformed(at));
    };
    let simple = SIMPLE_ESCAPE_CHARGE[usize::from(kind)];
    if simple != 0 {
        return Ok((at + 2, u64::from(simple)));
    }
    match kind {
        b'u' => {
            let unit = hex4(bytes, at + 2).ok_or(malformed(at))?;
            if let Some(&charge) = ASCII_UNIT_CHARGE.get(unit as usize) {
                return Ok((at + 6, u64::from(charge)));
            }
            if (0xD800..0xDC00).contains(&unit)
                && bytes.get(at + 6..at + 8) == Some(b"\\u")
                && hex4(bytes, at + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low))
            {
                return Ok((at + 12, CHARGE_ASTRAL));
            }
            Ok((at + 6, CHARGE_BMP))
        }
        _ => Err(malformed(at)),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_number_is_read_exactly_or_refused() {
        for exact in [
            "0.1",
            "2.5",
            "1e300",
            "-0",
            "0.0",
            "1E2",
            "100",
            "-7",
            "18446744073709551615",
            "-9223372036854775808",
            "1.7976931348623157e308",
            "5e-324",
            "100000000000000000000",
            "1.50e2",
            "0.000001",
        ] {
            assert!(read_exactly(exact.as_bytes()), "{exact}");
            assert!(check(exact.as_bytes()).is_ok(), "{exact}");
        }
        for rounded in [
            "100.000000000000001",
            "0.10000000000000001",
            "9007199254740993.0",
            "123456789012345678901",
            "1e400",
            "18446744073709551616",
        ] {
            assert!(!read_exactly(rounded.as_bytes()), "{rounded}");
            assert_eq!(
                check(format!("[1, {rounded}]").as_bytes()),
                Err(BoundsError::Inexact { offset: 4 }),
                "{rounded}"
            );
        }
        let long = "1".repeat(100_000);
        assert_eq!(
            check(long.as_bytes()),
            Err(BoundsError::NumberLength {
                limit: MAX_NUMBER_CHARS,
                offset: 0
            })
        );
    }
    use super::*;
    use proptest::prelude::*;

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

    // --- the differential contract --------------------------------------------
    //
    // A byte-at-a-time scanner kept here as the specification of every result the
    // fast scanner gives: charges, node counts, nesting, error kinds and offsets.
    // Inside a string the budget is checked where the fast scanner's chunking checks
    // it, so that is spelled out too: from the string's first byte and from the end
    // of every escape, the bytes go in chunks of eight; a chunk that is whole and
    // "clean" (all plain printable ASCII other than `"`, `\` and `'`, or all bytes
    // 0x80 and up) is charged as a unit and the budget checked after it; otherwise
    // the bytes are charged one at a time up to the first that needs attention or
    // the chunk's end, that byte (or the one after the chunk) is dealt with, and
    // the budget is checked. A clean chunk of high bytes charges 0xF8..0xFF as lead
    // bytes of 8 rather than 12 (they never occur in UTF-8).

    struct Reference<'b> {
        bytes: &'b [u8],
        limits: Limits,
        stack: Vec<bool>,
        measure: Measure,
    }

    fn reference_check(bytes: &[u8], limits: Limits) -> Result<Measure, BoundsError> {
        if limits.max_nesting > NESTING_CAPACITY {
            return Err(BoundsError::NestingCapacity {
                requested: limits.max_nesting,
            });
        }
        let mut scan = Reference {
            bytes,
            limits,
            stack: Vec::new(),
            measure: Measure::default(),
        };
        scan.run()?;
        Ok(scan.measure)
    }

    fn reference_class(byte: u8) -> Option<u64> {
        match byte {
            0x00..=0x1F | b'"' | b'\\' => None,
            b'\'' => Some(2),
            0x7F => Some(6),
            0x20..=0x7E => Some(1),
            0x80..=0xBF => Some(0),
            0xC0..=0xEF => Some(8),
            _ => Some(12),
        }
    }

    fn reference_clean_chunk(chunk: &[u8]) -> Option<u64> {
        if chunk
            .iter()
            .all(|&b| (0x20..0x7F).contains(&b) && !matches!(b, b'"' | b'\\' | b'\''))
        {
            return Some(chunk.len() as u64);
        }
        if chunk.iter().all(|&b| b >= 0x80) {
            return Some(
                chunk
                    .iter()
                    .map(|&b| match b {
                        0xF0..=0xF7 => 12,
                        0xC0..=0xFF => 8,
                        _ => 0,
                    })
                    .sum(),
            );
        }
        None
    }

    fn reference_hex4(bytes: &[u8], at: usize) -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(text, 16).ok()
    }

    fn reference_escape(bytes: &[u8], at: usize) -> Result<(usize, u64), BoundsError> {
        match bytes.get(at + 1) {
            Some(b'"' | b'\\') => Ok((at + 2, 2)),
            Some(b'/') => Ok((at + 2, 1)),
            Some(b'b' | b'f' | b'n' | b'r' | b't') => Ok((at + 2, 6)),
            Some(b'u') => {
                let unit = reference_hex4(bytes, at + 2).ok_or(malformed(at))?;
                let low = reference_hex4(bytes, at + 8);
                if (0xD800..0xDC00).contains(&unit)
                    && bytes.get(at + 6) == Some(&b'\\')
                    && bytes.get(at + 7) == Some(&b'u')
                    && low.is_some_and(|low| (0xDC00..0xE000).contains(&low))
                {
                    return Ok((at + 12, 12));
                }
                let charge = match unit {
                    0x22 | 0x27 | 0x5C => 2,
                    0x20..=0x7E => 1,
                    0x00..=0x1F | 0x7F => 6,
                    _ => 8,
                };
                Ok((at + 6, charge))
            }
            _ => Err(malformed(at)),
        }
    }

    impl Reference<'_> {
        fn over(&self, offset: usize) -> BoundsError {
            BoundsError::RenderedWidth {
                limit: self.limits.max_rendered,
                offset: offset as u64,
            }
        }

        fn charge(&mut self, charge: u64, at: usize) -> Result<(), BoundsError> {
            self.measure.rendered = self.measure.rendered.saturating_add(charge);
            if self.measure.rendered > self.limits.max_rendered {
                return Err(self.over(at));
            }
            Ok(())
        }

        fn after_value(&self) -> State {
            if self.stack.is_empty() {
                State::Done
            } else {
                State::CommaOrClose
            }
        }

        fn run(&mut self) -> Result<(), BoundsError> {
            let mut state = State::Value;
            let mut at = 0usize;
            loop {
                let Some(&byte) = self.bytes.get(at) else {
                    return if state == State::Done {
                        Ok(())
                    } else {
                        Err(malformed(at))
                    };
                };
                if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                    at += 1;
                    continue;
                }
                let in_object = self.stack.last() == Some(&true);
                let in_array = self.stack.last() == Some(&false);
                state = match (state, byte) {
                    (State::ValueOrClose | State::CommaOrClose, b']') if in_array => {
                        self.stack.pop();
                        at += 1;
                        self.after_value()
                    }
                    (State::KeyOrClose | State::CommaOrClose, b'}') if in_object => {
                        self.stack.pop();
                        at += 1;
                        self.after_value()
                    }
                    (State::Value | State::ValueOrClose, _) => self.value(&mut at, byte)?,
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
                        if in_object { State::Key } else { State::Value }
                    }
                    _ => return Err(malformed(at)),
                };
            }
        }

        fn value(&mut self, at: &mut usize, byte: u8) -> Result<State, BoundsError> {
            let start = *at;
            self.measure.nodes += 1;
            if self.measure.nodes > self.limits.max_nodes {
                return Err(BoundsError::Nodes {
                    limit: self.limits.max_nodes,
                    offset: start as u64,
                });
            }
            match byte {
                b'{' | b'[' => {
                    if self.stack.len() as u32 >= self.limits.max_nesting {
                        return Err(BoundsError::Nesting {
                            limit: self.limits.max_nesting,
                            offset: start as u64,
                        });
                    }
                    self.stack.push(byte == b'{');
                    self.measure.nesting = self.measure.nesting.max(self.stack.len() as u32);
                    *at += 1;
                    Ok(if byte == b'{' {
                        State::KeyOrClose
                    } else {
                        State::ValueOrClose
                    })
                }
                b'"' => {
                    let (end, charge) = self.string(start)?;
                    self.charge(charge, start)?;
                    *at = end;
                    Ok(self.after_value())
                }
                b'-' | b'0'..=b'9' => {
                    let (end, charge) = self.number(start)?;
                    self.charge(charge, start)?;
                    *at = end;
                    Ok(self.after_value())
                }
                b't' | b'f' | b'n' => {
                    let literal: &[u8] = match byte {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    for (offset, expected) in literal.iter().enumerate() {
                        if self.bytes.get(start + offset) != Some(expected) {
                            return Err(malformed(start));
                        }
                    }
                    self.charge(literal.len() as u64, start)?;
                    *at = start + literal.len();
                    Ok(self.after_value())
                }
                _ => Err(malformed(start)),
            }
        }

        fn number(&self, at: usize) -> Result<(usize, u64), BoundsError> {
            let digit = |index: usize| self.bytes.get(index).is_some_and(u8::is_ascii_digit);
            let mut index = at;
            if self.bytes.get(index) == Some(&b'-') {
                index += 1;
            }
            let digits_start = index;
            while digit(index) {
                index += 1;
            }
            let integer_digits = index - digits_start;
            if integer_digits == 0 {
                return Err(malformed(index));
            }
            let mut exact = true;
            if self.bytes.get(index) == Some(&b'.') {
                exact = false;
                index += 1;
                let start = index;
                while digit(index) {
                    index += 1;
                }
                if index == start {
                    return Err(malformed(index));
                }
            }
            if matches!(self.bytes.get(index), Some(b'e' | b'E')) {
                exact = false;
                index += 1;
                if matches!(self.bytes.get(index), Some(b'+' | b'-')) {
                    index += 1;
                }
                let start = index;
                while digit(index) {
                    index += 1;
                }
                if index == start {
                    return Err(malformed(index));
                }
            }
            let wire = (index - at) as u64;
            if wire > MAX_NUMBER_CHARS {
                return Err(BoundsError::NumberLength {
                    limit: MAX_NUMBER_CHARS,
                    offset: at as u64,
                });
            }
            let short_integer = exact && integer_digits <= 18;
            if !(short_integer || super::read_exactly(&self.bytes[at..index])) {
                return Err(BoundsError::Inexact { offset: at as u64 });
            }
            let negative_zero = digits_start > at
                && integer_digits == 1
                && self.bytes.get(digits_start) == Some(&b'0');
            let charge = if exact && integer_digits <= 18 && !negative_zero {
                wire
            } else {
                wire.max(24)
            };
            Ok((index, charge))
        }

        fn string(&self, at: usize) -> Result<(usize, u64), BoundsError> {
            let bytes = self.bytes;
            let budget = self
                .limits
                .max_rendered
                .saturating_sub(self.measure.rendered);
            let mut charge = 2u64;
            let mut index = at + 1;
            loop {
                // `index` starts a chunk.
                if let Some(more) = bytes.get(index..index + 8).and_then(reference_clean_chunk) {
                    charge += more;
                    index += 8;
                    if charge > budget {
                        return Err(self.over(index));
                    }
                    continue;
                }
                let stop = (index + 8).min(bytes.len());
                while index < stop {
                    match bytes.get(index).copied().and_then(reference_class) {
                        Some(more) => {
                            charge += more;
                            index += 1;
                        }
                        None => break,
                    }
                }
                match bytes.get(index) {
                    None => return Err(malformed(index)),
                    Some(b'"') => return Ok((index + 1, charge)),
                    Some(b'\\') => {
                        let (next, more) = reference_escape(bytes, index)?;
                        charge += more;
                        index = next;
                    }
                    Some(0x00..=0x1F) => return Err(malformed(index)),
                    Some(_) => {}
                }
                if charge > budget {
                    return Err(self.over(index));
                }
            }
        }
    }

    #[test]
    fn every_limit_crossed_inside_a_fast_path_names_the_reference_byte() {
        let bodies = [
            format!("[{}0]", "0,".repeat(60)),
            format!("[{}7]", "12,3,456,".repeat(20)),
            format!(
                "[1,[{}0],{}2]",
                "0,".repeat(30),
                "98765432101234,".repeat(6)
            ),
            format!("\"{}\"", "\\u0001\\n\u{7f}\\t\\u001b".repeat(12)),
            format!("\"{}\"", "ab\u{600}'\u{1f600}xyz\\\"".repeat(12)),
            format!("[\"{}\", \"{}\"]", "a".repeat(100), "\u{4e2d}".repeat(40)),
        ];
        for body in &bodies {
            let loose = Limits {
                max_nodes: u64::MAX,
                max_rendered: u64::MAX,
                ..Limits::DEFAULT
            };
            let whole = reference_check(body.as_bytes(), loose);
            assert_eq!(check_with(body.as_bytes(), loose), whole, "{body}");
            let Ok(whole) = whole else {
                panic!("{body} is malformed: {whole:?}");
            };
            for max_nodes in 0..=whole.nodes {
                let limits = Limits { max_nodes, ..loose };
                assert_eq!(
                    check_with(body.as_bytes(), limits),
                    reference_check(body.as_bytes(), limits),
                    "{body} under {limits:?}"
                );
            }
            for max_rendered in 0..=whole.rendered {
                let limits = Limits {
                    max_rendered,
                    ..loose
                };
                assert_eq!(
                    check_with(body.as_bytes(), limits),
                    reference_check(body.as_bytes(), limits),
                    "{body} under {limits:?}"
                );
            }
        }
    }

    fn json_string() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[ -~]{0,20}".prop_map(String::into_bytes),
            "[a-z]{0,40}".prop_map(String::into_bytes),
            prop::sample::select(vec![
                "\\n",
                "\\\"",
                "\\\\",
                "\\/",
                "\\b",
                "\\u0001",
                "\\u0041",
                "\\u0027",
                "\\u007f",
                "\\u007F",
                "\\u0022",
                "\\u005c",
                "\\u00e9",
                "\\uFFFF",
                "\\ud83d\\ude00",
                "\\uD83D\\uDE00",
                "\\ud83d",
                "\\ud83d\\u0041",
                "\\udc00",
                "\\x",
                "\\u12",
                "\\u12g4",
                "\\",
                "'",
                "\u{7f}",
                "\u{600}",
                "\u{4e2d}",
                "\u{1f600}",
                "\t",
                "\u{1}",
                "\\u0001\\n\u{7f}\\t\\u001b",
            ])
            .prop_map(|text| text.as_bytes().to_vec()),
            any::<char>().prop_map(|c| c.to_string().into_bytes()),
            (any::<char>(), 1..12usize).prop_map(|(c, n)| c.to_string().repeat(n).into_bytes()),
            prop::collection::vec(0x80u8.., 1..12),
            prop::collection::vec(any::<u8>(), 1..4),
        ];
        prop::collection::vec(piece, 0..8).prop_map(|pieces| {
            let mut text = vec![b'"'];
            for piece in pieces {
                text.extend(piece);
            }
            text.push(b'"');
            text
        })
    }

    fn json_leaf() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            json_string(),
            "-?[0-9]{1,26}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{0,3})?".prop_map(String::into_bytes),
            "[0-9]{1,9}".prop_map(String::into_bytes),
            prop::sample::select(vec![
                "true", "false", "null", "tru", "nul", "-", "-0", "-0.0"
            ])
            .prop_map(|text| text.as_bytes().to_vec()),
        ]
    }

    fn json_like() -> impl Strategy<Value = Vec<u8>> {
        let space = prop::sample::select(vec!["", "", "", " ", "\n  ", "\t"]);
        json_leaf().prop_recursive(6, 96, 12, move |inner| {
            let space = space.clone();
            prop_oneof![
                (
                    prop::collection::vec((inner.clone(), space.clone()), 0..12),
                    any::<bool>()
                )
                    .prop_map(|(items, spaced)| {
                        let mut text = vec![b'['];
                        for (index, (item, gap)) in items.into_iter().enumerate() {
                            if index > 0 {
                                text.push(b',');
                                if spaced {
                                    text.push(b' ');
                                }
                            }
                            text.extend(item);
                            text.extend(gap.as_bytes());
                        }
                        text.push(b']');
                        text
                    }),
                prop::collection::vec((json_string(), inner, space), 0..6).prop_map(|items| {
                    let mut text = vec![b'{'];
                    for (index, (key, item, gap)) in items.into_iter().enumerate() {
                        if index > 0 {
                            text.push(b',');
                        }
                        text.extend(key);
                        text.extend(gap.as_bytes());
                        text.push(b':');
                        text.extend(item);
                    }
                    text.push(b'}');
                    text
                }),
            ]
        })
    }

    fn documents() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..256),
            prop::collection::vec(
                prop::sample::select(b",0123456789[]{}\" :-.eE\\utrfalsn".to_vec()),
                0..200
            ),
            json_like(),
            // Arrays of small integers, sometimes spaced, nested or cut short.
            (
                prop::collection::vec(("[0-9]{1,3}", any::<bool>()), 0..48),
                any::<bool>(),
                any::<usize>(),
            )
                .prop_map(|(items, nested, cut)| {
                    let mut text = String::from(if nested { "[[0]," } else { "[" });
                    for (index, (item, spaced)) in items.iter().enumerate() {
                        if index > 0 {
                            text.push_str(if *spaced && cut % 7 == 0 { ", " } else { "," });
                        }
                        text.push_str(item);
                    }
                    text.push(']');
                    let mut bytes = text.into_bytes();
                    if cut % 5 == 0 {
                        bytes.truncate(cut % (bytes.len() + 1));
                    }
                    bytes
                }),
            // Truncated or with one byte replaced.
            (json_like(), any::<usize>(), any::<u8>(), any::<bool>()).prop_map(
                |(mut text, at, byte, truncate)| {
                    if !text.is_empty() {
                        let index = at % text.len();
                        if truncate {
                            text.truncate(index);
                        } else {
                            text[index] = byte;
                        }
                    }
                    text
                }
            ),
        ]
    }

    fn limits() -> impl Strategy<Value = Limits> {
        prop_oneof![
            Just(Limits::DEFAULT),
            Just(Limits {
                max_nodes: u64::MAX,
                max_rendered: u64::MAX,
                ..Limits::DEFAULT
            }),
            (0..10u32, 0..40u64, 0..300u64).prop_map(|(max_nesting, max_nodes, max_rendered)| {
                Limits {
                    max_nesting,
                    max_nodes,
                    max_rendered,
                }
            }),
        ]
    }

    fn property_cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(4096)
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: property_cases(),
            ..ProptestConfig::default()
        })]

        #[test]
        fn the_fast_scan_agrees_with_the_byte_at_a_time_reference(
            document in documents(),
            limits in limits(),
        ) {
            prop_assert_eq!(
                check_with(&document, limits),
                reference_check(&document, limits)
            );
        }
    }
}
