//! Drafting: figures over constants — a stated value derived from constants
//! ("26,214,400 bytes, derived as `3 * MAX_SOURCE_FILE_BYTES + 1 MiB`", "A + B *
//! 4 = N", "NAME = EXPR") becomes an `expr` fact, and a constant's stated value
//! ("with `MAX_SOURCE_FILE_BYTES` at 8 MiB") a `constant` fact. A name becomes a
//! rule only when the tree defines it in exactly one place.

use std::sync::OnceLock;

use regex::Regex;

use super::{Draft, DraftFact, DraftKind, Hit, NotDrafted, Scan, Tie, claim, in_code, slug};
use crate::constants::ConstantError;
use crate::constants::expr::{self, Reference};

/// A name written the way constants are: upper case with underscores.
pub const NAME: &str = r"(?:_+[A-Z0-9][A-Z0-9_]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)";
/// A size unit after a number.
const UNIT: &str = r"(?:\s?(?:bytes|KiB|MiB|GiB|TiB|KB|MB|GB|TB|B)\b)";
/// A stated figure: digits with optional thousands separators and decimals.
const VALUE: &str = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?";

fn operand() -> String {
    format!(r"(?:\b{NAME}\b|\b\d[\d_,]*(?:\.\d+)?{UNIT}?)")
}

/// An arithmetic expression with at least one operator (`×` is `*`).
pub fn expression() -> String {
    let op = operand();
    format!(r"{op}(?:\s*[-+*/×]\s*{op})+")
}

fn derived_as() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"(?<value>{VALUE}{UNIT}?)(?:,?\s+(?:derived as|computed as|which is|i\.e\.)\s+|\s*=\s*)(?<expr>{})",
            expression()
        ))
        .expect("the derivation pattern compiles")
    })
}

fn equals_value() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"(?<expr>{})\s*=\s*(?<value>{VALUE}{UNIT}?)",
            expression()
        ))
        .expect("the derivation pattern compiles")
    })
}

fn name_equals_expr() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<name>{NAME})\s*=\s*(?<expr>{})",
            expression()
        ))
        .expect("the derivation pattern compiles")
    })
}

fn constant_at() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<name>{NAME})(?:\s+(?:is set to|set to|is|at|of|equals)\s+|\s+=\s*|\s*\(\s*|,\s+)(?<value>{VALUE}{UNIT}?)"
        ))
        .expect("the constant pattern compiles")
    })
}

/// The expression as the rule language reads it: numbers lose their
/// thousands separators (`1,024` is `1024`), and `×` is `*`.
fn normalise(expr_text: &str) -> String {
    let bytes: Vec<char> = expr_text.chars().collect();
    let mut out = String::new();
    for (i, &c) in bytes.iter().enumerate() {
        let digit_around = i > 0
            && bytes.get(i - 1).is_some_and(char::is_ascii_digit)
            && bytes.get(i + 1).is_some_and(char::is_ascii_digit);
        if c == ',' && digit_around {
            continue;
        }
        out.push(if c == '×' { '*' } else { c });
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The constants an expression names, if it parses and names at least one.
pub fn constant_names(expr_text: &str) -> Option<Vec<String>> {
    let parsed = expr::parse(&normalise(expr_text)).ok()?;
    let names: Vec<String> = parsed
        .references()
        .into_iter()
        .filter_map(|r| match r {
            Reference::Constant(name) => Some(name),
            Reference::Fact(_) => None,
        })
        .collect();
    (!names.is_empty()).then_some(names)
}

/// Why a name cannot back a rule, when the tree does not define it once.
fn unusable(scan: &Scan, name: &str) -> Option<String> {
    match scan.constant(name) {
        Ok(_) => None,
        Err(ConstantError::NotFound { .. }) => Some(format!("no source file defines `{name}`")),
        Err(ConstantError::Ambiguous { candidates, .. }) => {
            let shown: Vec<&str> = candidates.iter().take(3).map(String::as_str).collect();
            let more = candidates.len().saturating_sub(shown.len());
            Some(format!(
                "`{name}` is defined in {} places ({}{}); name its file under [constants]",
                candidates.len(),
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ))
        }
        Err(other) => Some(format!("`{name}` cannot be read: {other}")),
    }
}

/// Drafts a `constant` fact reading `name` for the figure `hit` found, and
/// records the file the tree defines it in under `[constants]`. `how` ends
/// the comment "Reads `NAME` …".
pub(super) fn push_constant(
    scan: &Scan,
    draft: &mut Draft,
    hit: &Hit<'_>,
    name: &str,
    how: &str,
    says: String,
    tie: Tie,
) {
    if let Ok(c) = scan.constant(name) {
        draft.constants.insert(name.to_owned(), c.file);
    }
    draft.facts.push(DraftFact {
        id: slug(name),
        what: format!("Reads `{name}`{how}"),
        place: hit.place(),
        quote: hit.quote(),
        declared: hit.frame(),
        at: None,
        tie,
        weighed: Default::default(),
        kind: DraftKind::Constant(name.to_owned()),
        equals: None,
        says: Some(says),
    });
}

/// Drafts the derivation and constant facts of every prose record.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    for record in scan.prose_records() {
        let prose = record.prose().text();
        let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
        // value, expression, and the name the record equates them with.
        let mut derivations = Vec::new();
        for caps in derived_as().captures_iter(prose) {
            if let (Some(v), Some(e), Some(w)) =
                (caps.name("value"), caps.name("expr"), caps.get(0))
            {
                derivations.push((Some(v.range()), e.range(), w.range()));
            }
        }
        for caps in equals_value().captures_iter(prose) {
            if let (Some(v), Some(e), Some(w)) =
                (caps.name("value"), caps.name("expr"), caps.get(0))
            {
                derivations.push((Some(v.range()), e.range(), w.range()));
            }
        }
        for caps in name_equals_expr().captures_iter(prose) {
            if let (Some(e), Some(w)) = (caps.name("expr"), caps.get(0)) {
                derivations.push((None, e.range(), w.range()));
            }
        }
        derivations.sort_by_key(|(v, e, _)| (e.start, v.is_none()));
        // A product written out twice ("500 × 200 × BYTES_PER_CHAR = 500 × 200
        // × 4") states each constant's value where it stands.
        for (name, value, whole) in super::shapes::written_out_products(prose) {
            if in_code(record, &whole) || scan.constant(&name).is_err() {
                continue;
            }
            let hit = Hit {
                record,
                whole: whole.clone(),
                value: value.clone(),
            };
            taken.push(whole.clone());
            let Some(says) = hit.says_or_list(&mut draft.not_drafted) else {
                continue;
            };
            push_constant(
                scan,
                draft,
                &hit,
                &name,
                " from the code and compares the value the record writes in its place in the product",
                says,
                Tie::Named,
            );
        }
        for (value, expr_range, whole) in derivations {
            if in_code(record, &whole) || taken.iter().any(|t| t.contains(&expr_range.start)) {
                continue;
            }
            // `EXPR = 500 × 200 × 4`: the figure starts a product, not a value.
            if let Some(v) = &value
                && prose
                    .get(v.end..)
                    .is_some_and(|rest| rest.trim_start().starts_with(['*', '×', '+', '/']))
            {
                continue;
            }
            let Some(expr_text) = prose.get(expr_range.clone()) else {
                continue;
            };
            let Some(names) = constant_names(expr_text) else {
                continue;
            };
            let hit = Hit {
                record,
                whole: whole.clone(),
                value: value.clone().unwrap_or(expr_range.clone()),
            };
            // The name the record equates the derivation with: `NAME = EXPR`.
            let equals = prose.get(..expr_range.start).and_then(|before| {
                let trimmed = before.trim_end().strip_suffix('=')?.trim_end();
                let start = trimmed
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |i| i + 1);
                let name = trimmed.get(start..)?;
                Regex::new(&format!("^{NAME}$"))
                    .ok()?
                    .is_match(name)
                    .then(|| name.to_owned())
            });
            // A derivation over names this tree never defines is about
            // something else (a specification's symbols): not a draft at all.
            if !names.iter().any(|n| {
                scan.constant(n).is_ok()
                    || matches!(scan.constant(n), Err(ConstantError::Ambiguous { .. }))
            }) {
                taken.push(whole);
                continue;
            }
            let mut problems: Vec<String> = names
                .iter()
                .chain(equals.iter())
                .filter_map(|n| unusable(scan, n))
                .collect();
            let says = match &value {
                Some(v) => {
                    let says = claim::says_for(record, v.clone());
                    if says.is_none() {
                        problems.push(claim::NOT_ALONE.to_owned());
                    }
                    says
                }
                None if equals.is_none() => continue,
                None => None,
            };
            if !problems.is_empty() {
                problems.dedup();
                draft.not_drafted.push(NotDrafted {
                    place: hit.place(),
                    quote: hit.quote(),
                    why: problems.join("; "),
                });
                taken.push(whole);
                continue;
            }
            for name in names.iter().chain(equals.iter()) {
                if let Ok(c) = scan.constant(name) {
                    draft.constants.insert(name.clone(), c.file);
                }
            }
            let normalised = normalise(expr_text);
            let what = match (&equals, value.is_some()) {
                (Some(e), true) => format!(
                    "Recomputes `{normalised}` from the code's constants, holds `{e}` to it, and compares the record's figure"
                ),
                (Some(e), false) => {
                    format!("Holds `{e}` to `{normalised}`, recomputed from the code's constants")
                }
                (None, _) => format!(
                    "Recomputes `{normalised}` from the code's constants and compares the record's figure"
                ),
            };
            let id = match &equals {
                Some(e) => slug(e),
                None => format!(
                    "{}-derived",
                    slug(names.first().map_or("value", String::as_str))
                ),
            };
            let ratio = value
                .as_ref()
                .and_then(|_| super::shapes::ratio_of(scan, &hit, &normalised, &names, &id));
            draft.facts.push(DraftFact {
                id,
                what,
                place: hit.place(),
                quote: hit.quote(),
                declared: hit.frame(),
                at: None,
                tie: Tie::Named,
                weighed: Default::default(),
                kind: DraftKind::Expr(normalised),
                equals,
                says,
            });
            draft.facts.extend(ratio);
            taken.push(whole);
        }
        for caps in constant_at().captures_iter(prose) {
            let (Some(name), Some(value), Some(whole)) =
                (caps.name("name"), caps.name("value"), caps.get(0))
            else {
                continue;
            };
            let whole = whole.range();
            if in_code(record, &whole) || taken.iter().any(|t| t.contains(&value.start())) {
                continue;
            }
            // `NAME = 3 * X`: the figure starts an expression, not a statement
            // of the value; `500 × NAME = 500 × 4`: the name ends one.
            let rest = prose.get(value.end()..).unwrap_or("").trim_start();
            if rest.starts_with(['*', '×', '+', '/', '-']) && !rest.starts_with("- ") {
                continue;
            }
            let before = prose.get(..name.start()).unwrap_or("").trim_end();
            if before.ends_with(['*', '×', '+', '/']) {
                continue;
            }
            let name = name.as_str();
            let hit = Hit {
                record,
                whole: whole.clone(),
                value: value.range(),
            };
            match scan.constant(name) {
                Ok(_) => {}
                Err(ConstantError::Ambiguous { .. }) => {
                    if let Some(why) = unusable(scan, name) {
                        draft.not_drafted.push(NotDrafted {
                            place: hit.place(),
                            quote: hit.quote(),
                            why,
                        });
                    }
                    continue;
                }
                // A shouting word that is no constant of this tree is prose; a
                // string or a computed value is no figure to compare.
                Err(_) => continue,
            }
            let Some(says) = hit.says_or_list(&mut draft.not_drafted) else {
                continue;
            };
            push_constant(
                scan,
                draft,
                &hit,
                name,
                " from the code and compares the record's figure",
                says,
                Tie::Named,
            );
            taken.push(whole);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_name_their_constants() {
        assert_eq!(
            constant_names("3 * MAX_SOURCE_FILE_BYTES + 1 MiB"),
            Some(vec!["MAX_SOURCE_FILE_BYTES".to_owned()])
        );
        assert_eq!(constant_names("1,024 * 4"), None);
        assert_eq!(normalise("1,024 *\n  A_B"), "1024 * A_B");
    }

    #[test]
    fn the_finders_read_the_forms_records_use() {
        let text = "caps it at 26,214,400 bytes, derived as 3 * MAX_FILE_BYTES + 1 MiB here";
        let caps = derived_as().captures(text).unwrap();
        assert_eq!(&caps["value"], "26,214,400 bytes");
        assert_eq!(&caps["expr"], "3 * MAX_FILE_BYTES + 1 MiB");
        let caps = equals_value()
            .captures("so MAX_A + MAX_B * 4 = 12,982,912 in all")
            .unwrap();
        assert_eq!(&caps["expr"], "MAX_A + MAX_B * 4");
        assert_eq!(&caps["value"], "12,982,912");
        let caps = constant_at()
            .captures("with MAX_SOURCE_FILE_BYTES at 8 MiB.")
            .unwrap();
        assert_eq!(&caps["name"], "MAX_SOURCE_FILE_BYTES");
        assert_eq!(&caps["value"], "8 MiB");
        assert!(constant_at().captures("ADR-0031 is 3 pages").is_none());
        // An environment variable set for a command is no statement of a value.
        assert!(
            constant_at()
                .captures("run MDTEST_UPDATE_SNAPSHOTS=1 cargo test")
                .is_none()
        );
    }
}
