//! Stage 2a, rule side: the small expression language rule files use to derive a
//! value from constants and other facts, e.g. `3 * MAX_SOURCE_FILE_BYTES + 1 MiB`.
//!
//! Grammar, loosest binding first (Python's precedence):
//!
//! ```text
//! shift   := sum (("<<" | ">>") sum)*
//! sum     := term (("+" | "-") term)*
//! term    := unary (("*" | "/" | "//" | "%") unary)*
//! unary   := "-" unary | power
//! power   := postfix ("**" unary)?            (right-associative, tighter than "-")
//! postfix := primary unit?                    (a unit only after a number or "( )")
//! primary := NUMBER | NAME | "{" fact-id "}" | "(" shift ")"
//! unit    := B | bytes | KiB | MiB | GiB | TiB | KB | MB | GB | TB
//! ```
//!
//! Numbers are digits with optional `_` separators and an optional decimal part.
//! Evaluation is exact (`/` gives a rational) and checked: overflow, division by
//! zero, a negative or fractional exponent and a shift of a fraction are errors.
//! Every node keeps the byte span it was parsed from, so a caller can point at the
//! offending part of a rule file.

use std::fmt;

use super::arith::{self, ArithError};
use crate::limits::Depth;
use crate::number::{Number, SizeUnit};

/// A problem in the text of an expression, at a byte range of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ExprError {
    /// Byte offset of the problem in the parsed text.
    pub offset: usize,
    /// Length in bytes of the problem (at least 1 unless the text ended early).
    pub len: usize,
    pub message: String,
}

/// Something an expression refers to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reference {
    /// A source constant by name: `MAX_SOURCE_FILE_BYTES`.
    Constant(String),
    /// Another fact by id: `{schema-files}`.
    Fact(String),
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Constant(name) => f.write_str(name),
            Reference::Fact(id) => write!(f, "{{{id}}}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Exact division.
    Div,
    /// Floor division.
    FloorDiv,
    /// Floored remainder (the sign of the divisor), as in Python.
    Mod,
    Pow,
    Shl,
    Shr,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "//",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "**",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Shl | BinaryOp::Shr => 1,
            BinaryOp::Add | BinaryOp::Sub => 2,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv | BinaryOp::Mod => 3,
            BinaryOp::Pow => 5,
        }
    }
}

const UNARY_PRECEDENCE: u8 = 4;
const POSTFIX_PRECEDENCE: u8 = 6;
const ATOM_PRECEDENCE: u8 = 7;
/// How deeply parentheses and signs may nest; keeps the parser's recursion
/// bounded, under the shared budget (a rule's derivation nests a few levels).
const MAX_DEPTH: usize = 100;

/// A parsed expression node with the byte span of its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub offset: usize,
    pub len: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    /// A number literal and its digits as written, without `_`.
    Number {
        value: Number,
        digits: String,
    },
    Constant(String),
    Fact(String),
    Neg(Box<Expr>),
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    WithUnit {
        value: Box<Expr>,
        unit: SizeUnit,
    },
}

/// Why an expression could not be evaluated, at the byte range of the part that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("`{reference}` could not be resolved: {message}")]
    Reference {
        reference: Reference,
        message: String,
        offset: usize,
        len: usize,
    },
    #[error("{problem}")]
    Arithmetic {
        problem: ArithError,
        offset: usize,
        len: usize,
    },
}

impl EvalError {
    /// Byte offset and length of the failing part in the parsed text.
    pub fn span(&self) -> (usize, usize) {
        match self {
            EvalError::Reference { offset, len, .. }
            | EvalError::Arithmetic { offset, len, .. } => (*offset, *len),
        }
    }
}

impl Expr {
    /// Every constant and fact the expression names, first appearance first.
    pub fn references(&self) -> Vec<Reference> {
        let mut found = Vec::new();
        self.collect_references(&mut found);
        found
    }

    fn collect_references(&self, found: &mut Vec<Reference>) {
        let reference = match &self.kind {
            ExprKind::Number { .. } => return,
            ExprKind::Constant(name) => Reference::Constant(name.clone()),
            ExprKind::Fact(id) => Reference::Fact(id.clone()),
            ExprKind::Neg(operand) => return operand.collect_references(found),
            ExprKind::WithUnit { value, .. } => return value.collect_references(found),
            ExprKind::Binary { left, right, .. } => {
                left.collect_references(found);
                right.collect_references(found);
                return;
            }
        };
        if !found.contains(&reference) {
            found.push(reference);
        }
    }

    /// Evaluates exactly; `resolve` supplies the value of each reference.
    pub fn eval(
        &self,
        resolve: &mut dyn FnMut(&Reference) -> Result<Number, String>,
    ) -> Result<Number, EvalError> {
        let arithmetic = |problem: ArithError| EvalError::Arithmetic {
            problem,
            offset: self.offset,
            len: self.len,
        };
        match &self.kind {
            ExprKind::Number { value, .. } => Ok(*value),
            ExprKind::Constant(_) | ExprKind::Fact(_) => {
                let reference = match &self.kind {
                    ExprKind::Fact(id) => Reference::Fact(id.clone()),
                    ExprKind::Constant(name) => Reference::Constant(name.clone()),
                    _ => return Err(arithmetic(ArithError::Overflow)),
                };
                resolve(&reference).map_err(|message| EvalError::Reference {
                    reference,
                    message,
                    offset: self.offset,
                    len: self.len,
                })
            }
            ExprKind::Neg(operand) => arith::neg(&operand.eval(resolve)?).map_err(arithmetic),
            ExprKind::WithUnit { value, unit } => {
                arith::mul(&value.eval(resolve)?, &arith::integer(unit.bytes())).map_err(arithmetic)
            }
            ExprKind::Binary { op, left, right } => {
                let a = left.eval(resolve)?;
                let b = right.eval(resolve)?;
                match op {
                    BinaryOp::Add => arith::add(&a, &b),
                    BinaryOp::Sub => arith::sub(&a, &b),
                    BinaryOp::Mul => arith::mul(&a, &b),
                    BinaryOp::Div => arith::div(&a, &b),
                    BinaryOp::FloorDiv => arith::floor_div(&a, &b),
                    BinaryOp::Mod => arith::floor_mod(&a, &b),
                    BinaryOp::Pow => arith::pow(&a, &b, false),
                    BinaryOp::Shl => arith::shl(&a, &b),
                    BinaryOp::Shr => arith::shr(&a, &b),
                }
                .map_err(arithmetic)
            }
        }
    }

    fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Number { .. } | ExprKind::Constant(_) | ExprKind::Fact(_) => ATOM_PRECEDENCE,
            ExprKind::Neg(_) => UNARY_PRECEDENCE,
            ExprKind::Binary { op, .. } => op.precedence(),
            ExprKind::WithUnit { .. } => POSTFIX_PRECEDENCE,
        }
    }

    fn write_at_least(&self, f: &mut fmt::Formatter<'_>, precedence: u8) -> fmt::Result {
        if self.precedence() < precedence {
            write!(f, "({self})")
        } else {
            write!(f, "{self}")
        }
    }
}

/// The normalised form: single spaces around binary operators, `_` dropped from
/// numbers, only the parentheses the precedence needs.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number { digits, .. } => f.write_str(digits),
            ExprKind::Constant(name) => f.write_str(name),
            ExprKind::Fact(id) => write!(f, "{{{id}}}"),
            ExprKind::Neg(operand) => {
                f.write_str("-")?;
                operand.write_at_least(f, UNARY_PRECEDENCE)
            }
            ExprKind::WithUnit { value, unit } => {
                if matches!(value.kind, ExprKind::Number { .. }) {
                    write!(f, "{value} {}", unit.symbol())
                } else {
                    write!(f, "({value}) {}", unit.symbol())
                }
            }
            ExprKind::Binary { op, left, right } => {
                let p = op.precedence();
                let (left_min, right_min) = if *op == BinaryOp::Pow {
                    (POSTFIX_PRECEDENCE, UNARY_PRECEDENCE)
                } else {
                    (p, p + 1)
                };
                left.write_at_least(f, left_min)?;
                write!(f, " {} ", op.symbol())?;
                right.write_at_least(f, right_min)
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Number { value: Number, digits: String },
    Name(String),
    Fact(String),
    Op(&'static str),
    LeftParen,
    RightParen,
}

#[derive(Debug, Clone)]
struct Spanned {
    token: Token,
    offset: usize,
    len: usize,
}

fn error(offset: usize, len: usize, message: impl Into<String>) -> ExprError {
    ExprError {
        offset,
        len,
        message: message.into(),
    }
}

fn tokenize(src: &str) -> Result<Vec<Spanned>, ExprError> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let start = i;
        let at = |j: usize| bytes.get(j).copied().unwrap_or(0);
        let token = match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                i = digit_run(bytes, i)
                    .map_err(|bad| error(bad, 1, "`_` in a number must sit between two digits"))?;
                if at(i) == b'.' && at(i + 1).is_ascii_digit() {
                    i = digit_run(bytes, i + 1).map_err(|bad| {
                        error(bad, 1, "`_` in a number must sit between two digits")
                    })?;
                } else if at(i) == b'.' {
                    return Err(error(i, 1, "a decimal point must be followed by digits"));
                }
                let text = src.get(start..i).unwrap_or("");
                let digits: String = text.chars().filter(|c| *c != '_').collect();
                let value = arith::parse_decimal(&digits).map_err(|e| {
                    error(
                        start,
                        i - start,
                        format!("the number {text} is out of range: {e}"),
                    )
                })?;
                Token::Number { value, digits }
            }
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                while at(i).is_ascii_alphanumeric() || at(i) == b'_' {
                    i += 1;
                }
                Token::Name(src.get(start..i).unwrap_or("").to_string())
            }
            b'{' => {
                let close = src
                    .get(start..)
                    .and_then(|rest| rest.find('}'))
                    .map(|pos| start + pos)
                    .ok_or_else(|| {
                        error(
                            start,
                            src.len() - start,
                            "`{` opens a fact reference that is never closed with `}`",
                        )
                    })?;
                let id = src.get(start + 1..close).unwrap_or("");
                let valid = id
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                    && id.bytes().all(|b| {
                        b.is_ascii_lowercase()
                            || b.is_ascii_digit()
                            || matches!(b, b'.' | b'_' | b'-')
                    });
                if !valid {
                    return Err(error(
                        start,
                        close + 1 - start,
                        format!(
                            "`{{{id}}}` is not a fact reference: an id starts with a lowercase letter or digit and holds only a-z, 0-9, `.`, `_` and `-`"
                        ),
                    ));
                }
                i = close + 1;
                Token::Fact(id.to_string())
            }
            b'(' => {
                i += 1;
                Token::LeftParen
            }
            b')' => {
                i += 1;
                Token::RightParen
            }
            b'*' if at(i + 1) == b'*' => {
                i += 2;
                Token::Op("**")
            }
            b'/' if at(i + 1) == b'/' => {
                i += 2;
                Token::Op("//")
            }
            b'<' if at(i + 1) == b'<' => {
                i += 2;
                Token::Op("<<")
            }
            b'>' if at(i + 1) == b'>' => {
                i += 2;
                Token::Op(">>")
            }
            b'*' | b'/' | b'%' | b'+' | b'-' => {
                i += 1;
                Token::Op(match byte {
                    b'*' => "*",
                    b'/' => "/",
                    b'%' => "%",
                    b'+' => "+",
                    _ => "-",
                })
            }
            _ => {
                let ch = src
                    .get(start..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('?');
                return Err(error(
                    start,
                    ch.len_utf8(),
                    format!("`{ch}` is not part of the expression language"),
                ));
            }
        };
        tokens.push(Spanned {
            token,
            offset: start,
            len: i - start,
        });
    }
    Ok(tokens)
}

/// Consumes `digit (_? digit)*` from `i`; returns the end, or the offset of a bad `_`.
fn digit_run(bytes: &[u8], mut i: usize) -> Result<usize, usize> {
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii_digit() {
            i += 1;
        } else if b == b'_' {
            if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i += 1;
            } else {
                return Err(i);
            }
        } else {
            break;
        }
    }
    Ok(i)
}

struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Spanned>,
    position: usize,
    depth: Depth,
}

/// How many operators one expression may hold. A sum is a left-leaning tree as
/// deep as it is long, and evaluating, printing and dropping it recurse that
/// deep: a 10,000-term sum overflowed the stack. Real derivations have a handful.
const MAX_OPERATORS: usize = 256;

/// Parses an expression; the error carries the byte span of the problem.
pub fn parse(src: &str) -> Result<Expr, ExprError> {
    let tokens = tokenize(src)?;
    if let Some(past) = tokens
        .iter()
        .filter(|t| matches!(t.token, Token::Op(_)))
        .nth(MAX_OPERATORS)
    {
        return Err(error(
            past.offset,
            past.len,
            format!("the expression has more than {MAX_OPERATORS} operators"),
        ));
    }
    let mut parser = Parser {
        src,
        tokens,
        position: 0,
        depth: Depth::stopping_at(MAX_DEPTH),
    };
    let expr = parser.shift()?;
    if let Some(extra) = parser.peek() {
        let message = match &extra.token {
            Token::Name(name) if SizeUnit::parse(name).is_some() => {
                format!("the unit `{name}` can follow only a number or a parenthesised expression")
            }
            Token::RightParen => "this `)` has no matching `(`".to_string(),
            _ => format!(
                "expected an operator before `{}`",
                src.get(extra.offset..extra.offset + extra.len)
                    .unwrap_or("")
            ),
        };
        return Err(error(extra.offset, extra.len, message));
    }
    Ok(expr)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Spanned> {
        self.tokens.get(self.position)
    }

    fn peek_op(&self, ops: &[&'static str]) -> Option<&'static str> {
        match self.peek().map(|t| &t.token) {
            Some(Token::Op(op)) if ops.contains(op) => Some(op),
            _ => None,
        }
    }

    fn end_error(&self, message: &str) -> ExprError {
        error(self.src.len(), 0, message)
    }

    fn binary(left: Expr, op: &str, right: Expr) -> Expr {
        let op = match op {
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Sub,
            "*" => BinaryOp::Mul,
            "/" => BinaryOp::Div,
            "//" => BinaryOp::FloorDiv,
            "%" => BinaryOp::Mod,
            "**" => BinaryOp::Pow,
            "<<" => BinaryOp::Shl,
            _ => BinaryOp::Shr,
        };
        let offset = left.offset;
        let len = (right.offset + right.len).saturating_sub(offset);
        Expr {
            kind: ExprKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            offset,
            len,
        }
    }

    fn left_assoc(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Self) -> Result<Expr, ExprError>,
    ) -> Result<Expr, ExprError> {
        let mut left = next(self)?;
        while let Some(op) = self.peek_op(ops) {
            self.position += 1;
            let right = next(self)?;
            left = Self::binary(left, op, right);
        }
        Ok(left)
    }

    fn shift(&mut self) -> Result<Expr, ExprError> {
        self.left_assoc(&["<<", ">>"], Self::sum)
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        self.left_assoc(&["+", "-"], Self::term)
    }

    fn term(&mut self) -> Result<Expr, ExprError> {
        self.left_assoc(&["*", "/", "//", "%"], Self::unary)
    }

    fn enter(&mut self, offset: usize) -> Result<(), ExprError> {
        self.depth = self.depth.deeper();
        if self.depth.exhausted() {
            return Err(error(
                offset,
                1,
                format!("the expression {}", self.depth.too_deep()),
            ));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if self.peek_op(&["-"]).is_some() {
            let offset = self.peek().map(|t| t.offset).unwrap_or(0);
            self.enter(offset)?;
            self.position += 1;
            let operand = self.unary()?;
            self.depth = self.depth.shallower();
            let len = (operand.offset + operand.len).saturating_sub(offset);
            return Ok(Expr {
                kind: ExprKind::Neg(Box::new(operand)),
                offset,
                len,
            });
        }
        self.power()
    }

    fn power(&mut self) -> Result<Expr, ExprError> {
        let base = self.postfix()?;
        if self.peek_op(&["**"]).is_some() {
            self.position += 1;
            let offset = self.peek().map(|t| t.offset).unwrap_or(self.src.len());
            self.enter(offset)?;
            let exponent = self.unary()?;
            self.depth = self.depth.shallower();
            return Ok(Self::binary(base, "**", exponent));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> Result<Expr, ExprError> {
        let (primary, unit_allowed) = self.primary()?;
        let unit = match self.peek() {
            Some(Spanned {
                token: Token::Name(name),
                offset,
                len,
            }) => SizeUnit::parse(name).map(|unit| (unit, *offset, *len)),
            _ => None,
        };
        let Some((unit, unit_offset, unit_len)) = unit else {
            return Ok(primary);
        };
        if !unit_allowed {
            return Err(error(
                unit_offset,
                unit_len,
                format!(
                    "the unit `{}` can follow only a number or a parenthesised expression",
                    unit.symbol()
                ),
            ));
        }
        self.position += 1;
        let offset = primary.offset;
        Ok(Expr {
            kind: ExprKind::WithUnit {
                value: Box::new(primary),
                unit,
            },
            offset,
            len: unit_offset + unit_len - offset,
        })
    }

    /// A primary expression, and whether a unit may follow it.
    fn primary(&mut self) -> Result<(Expr, bool), ExprError> {
        let Some(next) = self.peek().cloned() else {
            return Err(self.end_error("the expression ends where a value was expected"));
        };
        self.position += 1;
        let leaf = |kind| Expr {
            kind,
            offset: next.offset,
            len: next.len,
        };
        match next.token {
            Token::Number { value, digits } => Ok((leaf(ExprKind::Number { value, digits }), true)),
            Token::Name(name) => {
                if SizeUnit::parse(&name).is_some() {
                    return Err(error(
                        next.offset,
                        next.len,
                        format!(
                            "the unit `{name}` needs a number before it (a name that is also a unit cannot be a constant reference)"
                        ),
                    ));
                }
                Ok((leaf(ExprKind::Constant(name)), false))
            }
            Token::Fact(id) => Ok((leaf(ExprKind::Fact(id)), false)),
            Token::LeftParen => {
                self.enter(next.offset)?;
                let mut inner = self.shift()?;
                self.depth = self.depth.shallower();
                match self.peek() {
                    Some(Spanned {
                        token: Token::RightParen,
                        offset,
                        len,
                    }) => {
                        let end = offset + len;
                        self.position += 1;
                        // The span of a parenthesised expression includes its parentheses.
                        inner.len = end - next.offset;
                        inner.offset = next.offset;
                        Ok((inner, true))
                    }
                    Some(other) => Err(error(
                        other.offset,
                        other.len,
                        "expected `)` to close the `(` opened earlier",
                    )),
                    None => Err(error(next.offset, 1, "this `(` is never closed")),
                }
            }
            Token::RightParen => Err(error(next.offset, next.len, "expected a value before `)`")),
            Token::Op(op) => Err(error(
                next.offset,
                next.len,
                format!("expected a value before `{op}`"),
            )),
        }
    }
}

#[cfg(test)]
mod tests;

/// The parser and the evaluator over arbitrary text, every name bound to 7 and
/// every fact to 3, for the `expressions` fuzz target: the only outcome that
/// matters is that neither panics nor overflows the stack.
pub fn fuzz_one(src: &str) -> Option<String> {
    let expr = parse(src).ok()?;
    let _ = expr.references();
    let shown = expr.to_string();
    let value = expr.eval(&mut |reference| {
        Ok(match reference {
            Reference::Constant(_) => arith::integer(7),
            Reference::Fact(_) => arith::integer(3),
        })
    });
    Some(format!("{shown} = {value:?}"))
}
