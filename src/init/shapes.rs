//! Drafting: the figure shapes decision records write beside a derivation — a
//! ratio of the derived figure to one of its constants ("= 12,982,912
//! characters, 1.032x the constant alone"), and a product written out twice,
//! once with a constant and once with its value ("500 × 200 × BYTES_PER_CHAR =
//! 500 × 200 × 4"), which states the constant's value where it stands and is
//! never an assignment of the figure before it. A shape is drafted only when
//! the tree bears it out: the ratio must agree with one constant of the
//! derivation, the written-out operands with the rest of the product.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

use super::figures::{NAME, expression};
use super::{DraftFact, DraftKind, Hit, Scan, Tie, claim, slug};
use crate::constants::expr::{self, Reference};
use crate::number::Number;
use num_traits::CheckedDiv;

/// One operand or operator of an expression as the record wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Operand(Range<usize>),
    Operator(char),
}

/// Splits `text[range]` into operands and operators, offsets into `text`.
fn tokens(text: &str, range: Range<usize>) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let body = text.get(range.clone()).unwrap_or_default();
    for (i, c) in body.char_indices() {
        let at = range.start + i;
        if matches!(c, '*' | '×' | '+' | '/' | '-') {
            if let Some(s) = start.take() {
                out.push(Token::Operand(trimmed(text, s..at)));
            }
            out.push(Token::Operator(if c == '×' { '*' } else { c }));
        } else if start.is_none() && !c.is_whitespace() {
            start = Some(at);
        }
    }
    if let Some(s) = start {
        out.push(Token::Operand(trimmed(text, s..range.end)));
    }
    out
}

fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let body = text.get(range.clone()).unwrap_or_default();
    let lead = body.len() - body.trim_start().len();
    let trail = body.len() - body.trim_end().len();
    range.start + lead..range.end - trail
}

fn written_out() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        let e = expression();
        Regex::new(&format!(r"(?<lhs>{e})\s*=\s*(?<rhs>{e})"))
            .expect("the written-out pattern compiles")
    })
}

fn is_name(text: &str) -> bool {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| Regex::new(&format!("^{NAME}$")).expect("the name pattern compiles"))
        .is_match(text)
}

fn number(text: &str) -> Option<Number> {
    let parsed = expr::parse(&text.replace(',', "")).ok()?;
    parsed.eval(&mut |_| Err(String::new())).ok()
}

/// Each constant a written-out product states the value of: the constant's
/// name, where its value is written, and the whole `A × B = a × b` span.
/// Drafted only when every other operand is written the same on both sides.
pub fn written_out_products(prose: &str) -> Vec<(String, Range<usize>, Range<usize>)> {
    let mut found = Vec::new();
    for caps in written_out().captures_iter(prose) {
        let (Some(lhs), Some(rhs), Some(whole)) = (caps.name("lhs"), caps.name("rhs"), caps.get(0))
        else {
            continue;
        };
        let (left, right) = (tokens(prose, lhs.range()), tokens(prose, rhs.range()));
        if left.len() != right.len() {
            continue;
        }
        let mut named = Vec::new();
        let mut same_shape = true;
        for (l, r) in left.iter().zip(&right) {
            match (l, r) {
                (Token::Operator(a), Token::Operator(b)) if a == b => {}
                (Token::Operand(a), Token::Operand(b)) => {
                    let (a_text, b_text) = (
                        prose.get(a.clone()).unwrap_or_default(),
                        prose.get(b.clone()).unwrap_or_default(),
                    );
                    if is_name(a_text) && number(b_text).is_some() {
                        named.push((a_text.to_owned(), b.clone()));
                    } else if number(a_text).is_none() || number(a_text) != number(b_text) {
                        same_shape = false;
                    }
                }
                _ => same_shape = false,
            }
        }
        if same_shape {
            for (name, value) in named {
                found.push((name, value, whole.range()));
            }
        }
    }
    found
}

fn ratio_after() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(r"^[\s\p{L}]{0,24},?\s+(?<ratio>\d+(?:\.\d+)?\s?[x×])(?:\s|[,.;:)]|$)")
            .expect("the ratio pattern compiles")
    })
}

/// A ratio stated right after a derived figure (`= N characters, 1.032x the
/// constant alone`), drafted as the derivation over the one constant of it
/// the stated ratio agrees with.
pub fn ratio_of(
    scan: &Scan,
    hit: &Hit<'_>,
    expr_text: &str,
    names: &[String],
    id: &str,
) -> Option<DraftFact> {
    let prose = hit.record.prose().text();
    let rest = prose.get(hit.value.end..)?;
    let caps = ratio_after().captures(rest)?;
    let ratio = caps.name("ratio")?;
    let stated = crate::claims::value::parse_stated(ratio.as_str()).ok()?;
    let value = |name: &str| scan.constant(name).ok().map(|c| c.value);
    let derived = expr::parse(expr_text)
        .ok()?
        .eval(&mut |reference| match reference {
            Reference::Constant(name) => value(name).ok_or_else(String::new),
            Reference::Fact(_) => Err(String::new()),
        });
    let derived = derived.ok()?;
    let over: Vec<&String> = names
        .iter()
        .filter(|name| {
            value(name)
                .and_then(|v| derived.checked_div(&v))
                .is_some_and(|r| stated.agrees(&r))
        })
        .collect();
    let [over] = over.as_slice() else {
        return None;
    };
    let range = hit.value.end + ratio.start()..hit.value.end + ratio.end();
    let says = claim::says_for(hit.record, range.clone())?;
    let ratio_hit = Hit {
        record: hit.record,
        whole: hit.whole.start..range.end,
        value: range,
    };
    Some(DraftFact {
        id: format!("{id}-over-{}", slug(over)),
        what: format!(
            "Recomputes `({expr_text}) / {over}`, the derived figure over its constant, and compares the record's ratio"
        ),
        place: ratio_hit.place(),
        quote: ratio_hit.quote(),
        declared: ratio_hit.frame(),
        at: None,
        tie: Tie::Named,
        weighed: Default::default(),
        kind: DraftKind::Expr(format!("({expr_text}) / {over}")),
        equals: None,
        says: Some(says),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_out_product_states_the_value_where_the_constant_stands() {
        let text = "A full batch is 500 × 200 × BYTES_PER_CHAR = 500 × 200 × 4 bytes at worst.";
        let found = written_out_products(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "BYTES_PER_CHAR");
        assert_eq!(&text[found[0].1.clone()], "4 bytes");
        // Operands that differ between the sides are no written-out product.
        assert!(written_out_products("500 × MAX_A = 400 × 4").is_empty());
        assert!(written_out_products("MAX_A + MAX_B * 4 = 12,982,912").is_empty());
    }

    #[test]
    fn a_ratio_is_read_right_after_the_figure() {
        let caps = ratio_after()
            .captures(" characters, 1.032x the constant alone")
            .unwrap();
        assert_eq!(&caps["ratio"], "1.032x");
        assert!(
            ratio_after()
                .captures(" bytes; the ratio was 2.0x")
                .is_none()
        );
    }
}
