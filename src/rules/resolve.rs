//! Stage 0 of the pipeline, second half: resolving. A loaded [`RuleSet`] (validated
//! and deserialised) becomes a [`Plan`]: every regex, glob, path spec and
//! expression compiled once, fact references ordered, every error located in the
//! rule file. Nothing after this step reads a rule file's text to find out what
//! it meant; the engine and the check families read the plan.

use std::collections::BTreeMap;
use std::ops::Range;

use rayon::prelude::*;
use toml::Spanned;

use super::load::{ConstantDecl, LoadedFact, RuleSet, RuleSource};
use super::model::{AtRule, ClaimRule, DateAt, Field};
use crate::checks::bounds::cfg::BoundsPlan;
use crate::checks::cites::cfg::CitesPlan;
use crate::checks::cites::hosted::{OwnAddress, parse_address};
use crate::checks::retired::cfg::RetiredPlan;
use crate::claims::{self, Pattern};
use crate::constants::expr::Expr;
use crate::error::Result;
use crate::facts::{FactKind, Reads};
use crate::pathspec::{PathSpec, Style};
use crate::snapshot::Day;

/// Everything a run does, compiled.
#[derive(Debug)]
pub struct Plan {
    pub sources: Vec<RuleSource>,
    pub constants: BTreeMap<String, ConstantDecl>,
    /// The facts in definition order.
    pub facts: Vec<PlannedFact>,
    /// Indexes into `facts` in an order where every `{id}` a fact reads comes
    /// before it.
    pub order: Vec<usize>,
    pub cites: CitesPlan,
    pub retired: Vec<RetiredPlan>,
    pub bounds: Vec<BoundsPlan>,
    /// The main line every frame must be an ancestor of.
    pub main: Option<(usize, Spanned<String>)>,
    /// Whether the records' transcripts are re-run.
    pub transcripts: bool,
    /// `[recount].url`: the repository's own hosted address, when the rule
    /// file states it.
    pub url: Option<OwnAddress>,
    /// `[checks]` levels by check id; a check not listed keeps its default.
    pub levels: BTreeMap<crate::checks::CheckId, crate::checks::Level>,
    /// `[[ignore]]` entries, compiled.
    pub ignores: Vec<crate::checks::ignores::IgnorePlan>,
}

pub use crate::frames::At;

impl Plan {
    /// Each fact's rule file and its `at`, in definition order: what the
    /// frames stage reads of the plan.
    pub fn fact_frames(&self) -> impl ExactSizeIterator<Item = (usize, Option<&Spanned<At>>)> {
        self.facts.iter().map(|f| (f.origin, f.at.as_ref()))
    }

    /// `[recount].main`, with the rule file that names it.
    pub fn main_line(&self) -> Option<(&RuleSource, &Spanned<String>)> {
        self.main
            .as_ref()
            .map(|(origin, main)| (&self.sources[*origin], main))
    }
}

impl crate::checks::family_inputs::FamilyPlan for Plan {
    fn cites_part(&self) -> &CitesPlan {
        &self.cites
    }

    fn retired_part(&self) -> &[RetiredPlan] {
        &self.retired
    }

    fn bounds_part(&self) -> crate::checks::family_inputs::BoundsPart<'_> {
        crate::checks::family_inputs::BoundsPart {
            bounds: &self.bounds,
            sources: &self.sources,
            constants: &self.constants,
        }
    }

    fn transcripts_part(&self) -> crate::checks::family_inputs::TranscriptsPart<'_> {
        let listings = self
            .facts
            .iter()
            .flat_map(|fact| {
                fact.claims.iter().filter(|c| c.is_listing).map(|claim| {
                    crate::checks::family_inputs::ListingClaim {
                        fact: fact.id.get_ref(),
                        records: &claim.records,
                        pattern: &claim.pattern,
                    }
                })
            })
            .collect();
        crate::checks::family_inputs::TranscriptsPart {
            enabled: self.transcripts,
            cites: &self.cites,
            listings,
        }
    }

    fn unmatched_part(&self) -> crate::checks::family_inputs::UnmatchedPart<'_> {
        crate::checks::family_inputs::UnmatchedPart {
            cites: &self.cites,
            constants: &self.constants,
            retired: &self.retired,
            bounds: &self.bounds,
        }
    }
}

/// A fact, compiled.
#[derive(Debug)]
pub struct PlannedFact {
    pub origin: usize,
    pub id: Spanned<String>,
    pub description: Option<String>,
    /// The frame the fact is measured at; `None` = the audited snapshot.
    pub at: Option<Spanned<At>>,
    pub equals: Option<(Spanned<String>, Expr)>,
    pub kind: FactKind,
    /// Span of the kind key's value, where a reference error points.
    pub kind_span: Range<usize>,
    pub claims: Vec<PlannedClaim>,
}

impl PlannedFact {
    /// Every input of the fact, `equals` included.
    pub fn reads(&self) -> Reads {
        let mut reads = self.kind.reads();
        if let Some((_, expr)) = &self.equals {
            for reference in expr.references() {
                match reference {
                    crate::constants::expr::Reference::Fact(id) => reads.facts.push(id),
                    crate::constants::expr::Reference::Constant(name) => {
                        reads.constants.push(name);
                    }
                }
            }
        }
        reads.facts.sort();
        reads.facts.dedup();
        reads.constants.sort();
        reads.constants.dedup();
        reads
    }
}

/// One place records state a fact, compiled.
#[derive(Debug)]
pub struct PlannedClaim {
    pub origin: usize,
    /// Span of the `says` / `listing` pattern in the rule file.
    pub span: Range<usize>,
    pub text: String,
    pub pattern: Pattern,
    /// A `listing` claim (a fenced block) rather than a `says` claim.
    pub is_listing: bool,
    pub field: Field,
    /// The record globs as written, and compiled.
    pub globs: Vec<String>,
    pub records: Vec<PathSpec>,
}

/// Resolves a loaded rule set into a plan.
pub fn resolve(rules: RuleSet) -> Result<Plan> {
    let patterns = compile_claim_patterns(&rules.facts);
    let mut facts = Vec::with_capacity(rules.facts.len());
    for loaded in rules.facts {
        facts.push(plan_fact(
            loaded,
            &rules.sources,
            &rules.records,
            &patterns,
        )?);
    }
    let order = evaluation_order(&facts, &rules.sources)?;
    let mut cites = CitesPlan::resolve(rules.cites.as_ref(), &rules.sources)?;
    let retired = rules
        .retired
        .iter()
        .map(|(origin, rule)| RetiredPlan::resolve(*origin, rule, &rules.sources[*origin]))
        .collect::<Result<_>>()?;
    let bounds = rules
        .bounds
        .into_iter()
        .map(|(origin, rule)| BoundsPlan::resolve(origin, rule, &rules.sources[origin]))
        .collect::<Result<_>>()?;
    let ignores = rules
        .ignores
        .iter()
        .map(|(origin, rule)| {
            crate::checks::ignores::IgnorePlan::resolve(*origin, rule, &rules.sources[*origin])
        })
        .collect::<Result<_>>()?;
    let url = match &rules.url {
        None => None,
        Some((origin, url)) => match parse_address(url.get_ref()) {
            Some((host, project)) => Some(OwnAddress {
                host,
                project,
                source: "[recount].url".to_owned(),
            }),
            None => {
                return Err(rules.sources[*origin]
                    .error(
                        url.span(),
                        "`url` is not a GitHub or GitLab project's address",
                        "not owner/name on a known forge",
                    )
                    .with_help("write it as `https://github.com/owner/name` (or the GitLab project's address)"));
            }
        },
    };
    cites.url = url.clone();
    Ok(Plan {
        url,
        sources: rules.sources,
        constants: rules.constants,
        facts,
        order,
        cites,
        retired,
        bounds,
        main: rules.main,
        transcripts: rules.transcripts.unwrap_or(true),
        levels: rules.checks,
        ignores,
    })
}

type CompiledPatterns =
    BTreeMap<String, std::result::Result<Pattern, regex_automata::meta::BuildError>>;

/// Every distinct claim pattern, compiled on all cores: a Unicode class such as
/// `\w` makes each cost a fraction of a millisecond.
fn compile_claim_patterns(facts: &[LoadedFact]) -> CompiledPatterns {
    let mut texts: Vec<&str> = facts
        .iter()
        .flat_map(|f| f.rule.claims.iter())
        .filter_map(|c| c.says.as_ref().or(c.listing.as_ref()))
        .map(|s| s.get_ref().as_str())
        // One over the size cap is refused where it is resolved, never compiled.
        .filter(|t| t.len() <= crate::pathspec::MAX_PATTERN_BYTES)
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts
        .into_par_iter()
        .map(|t| (t.to_owned(), claims::compile_pattern(t)))
        .collect()
}

fn plan_fact(
    loaded: LoadedFact,
    sources: &[RuleSource],
    default_records: &[(String, usize, Range<usize>)],
    patterns: &CompiledPatterns,
) -> Result<PlannedFact> {
    let source = &sources[loaded.origin];
    let equals = loaded
        .rule
        .equals
        .as_ref()
        .map(|e| crate::facts::expr::parse_located(e, source).map(|x| (e.clone(), x)))
        .transpose()?;
    let kind = FactKind::resolve(loaded.params, source)?;
    let claims = loaded
        .rule
        .claims
        .iter()
        .map(|claim| {
            plan_claim(
                claim,
                loaded.origin,
                loaded.rule.id.span(),
                source,
                default_records,
                patterns,
            )
        })
        .collect::<Result<_>>()?;
    Ok(PlannedFact {
        origin: loaded.origin,
        id: loaded.rule.id,
        description: loaded.rule.description,
        at: loaded.rule.at.map(|at| plan_at(at, source)).transpose()?,
        equals,
        kind,
        kind_span: loaded.kind_span,
        claims,
    })
}

/// A frame as written, checked: a date must be a real `YYYY-MM-DD` day.
fn plan_at(at: Spanned<AtRule>, source: &RuleSource) -> Result<Spanned<At>> {
    let span = at.span();
    let resolved = match at.into_inner() {
        AtRule::Rev(rev) => At::Rev(rev),
        AtRule::Date(DateAt { date }) => At::Date(Day::parse(&date).ok_or_else(|| {
            source
                .error(span.clone(), format!("`{date}` is not a date"), "this date")
                .with_help("write the day as YYYY-MM-DD, e.g. { date = \"2026-09-13\" }")
        })?),
    };
    Ok(Spanned::new(span, resolved))
}

fn plan_claim(
    claim: &ClaimRule,
    origin: usize,
    fact_span: Range<usize>,
    source: &RuleSource,
    default_records: &[(String, usize, Range<usize>)],
    patterns: &CompiledPatterns,
) -> Result<PlannedClaim> {
    let (pattern, is_listing) = match (&claim.says, &claim.listing) {
        (Some(s), None) => (s, false),
        (None, Some(l)) => (l, true),
        // The schema already requires exactly one; this keeps the plan total.
        _ => {
            return Err(source.error(
                fact_span,
                "a claim needs exactly one of `says` or `listing`",
                "claim",
            ));
        }
    };
    crate::facts::check_pattern_size(pattern, source)?;
    let compiled = patterns
        .get(pattern.get_ref())
        .cloned()
        .unwrap_or_else(|| claims::compile_pattern(pattern.get_ref()));
    let regex = compiled.map_err(|e| {
        source
            .error(
                pattern.span(),
                "invalid regular expression",
                "does not compile",
            )
            .with_help(claims::pattern_error_text(&e))
    })?;
    if !is_listing && !claims::has_value_group(&regex) {
        return Err(source
            .error(
                pattern.span(),
                "a `says` pattern needs a named group `value`",
                "no (?<value>...) group",
            )
            .with_help(
                "wrap the stated figure in (?<value>...), e.g. 'holds (?<value>\\w+) files'",
            ));
    }
    if is_listing && claim.field != Field::Value {
        return Err(source.error(
            pattern.span(),
            "a listing claim compares the listing; `field` does not apply",
            "listing",
        ));
    }
    let globs: Vec<(String, Range<usize>)> = match &claim.records {
        Some(r) => r
            .get_ref()
            .to_vec()
            .into_iter()
            .map(|g| (g, r.span()))
            .collect(),
        None => default_records
            .iter()
            .map(|(g, _, span)| (g.clone(), span.clone()))
            .collect(),
    };
    if globs.is_empty() {
        return Err(source
            .error(pattern.span(), "this claim names no records", "claim")
            .with_help("give the claim `in = \"docs/adr/*.md\"`, or set [recount].records"));
    }
    // A default glob lives in the file that set `[recount].records`; its errors
    // point there only when it is this file.
    let records = globs
        .iter()
        .map(|(g, span)| PathSpec::from_rule(g, Style::Glob, source, span.clone()))
        .collect::<Result<_>>()?;
    Ok(PlannedClaim {
        origin,
        span: pattern.span(),
        text: pattern.get_ref().clone(),
        pattern: regex,
        is_listing,
        field: claim.field,
        globs: globs.into_iter().map(|(g, _)| g).collect(),
        records,
    })
}

/// Topological order of the facts by their `{id}` references; a reference to
/// an unknown fact or a cycle is a located error.
fn evaluation_order(facts: &[PlannedFact], sources: &[RuleSource]) -> Result<Vec<usize>> {
    let index: BTreeMap<&str, usize> = facts
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id.get_ref().as_str(), i))
        .collect();
    // Where a reference error points: the expression that makes the reference.
    let reference_span = |f: &PlannedFact, id: &str| -> Range<usize> {
        if f.kind.reads().facts.iter().any(|r| r == id) {
            f.kind_span.clone()
        } else {
            f.equals
                .as_ref()
                .map_or(f.id.span(), |(text, _)| text.span())
        }
    };
    let mut deps: Vec<Vec<usize>> = Vec::with_capacity(facts.len());
    for f in facts {
        let mut list = Vec::new();
        for r in f.reads().facts {
            match index.get(r.as_str()) {
                Some(&i) => list.push(i),
                None => {
                    let known: Vec<&str> = index.keys().copied().collect();
                    return Err(sources[f.origin]
                        .error(
                            reference_span(f, &r),
                            format!("`{{{r}}}` names no fact"),
                            "unknown fact reference",
                        )
                        .with_help(format!("facts defined: {}", known.join(", "))));
                }
            }
        }
        deps.push(list);
    }
    // Depth-first with colours; the order is by definition, so output is stable.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; facts.len()];
    let mut order = Vec::with_capacity(facts.len());
    for root in 0..facts.len() {
        if mark[root] != Mark::New {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&dep) = deps[node].get(*next) {
                *next += 1;
                match mark[dep] {
                    Mark::Done => {}
                    Mark::New => {
                        mark[dep] = Mark::Active;
                        stack.push((dep, 0));
                    }
                    Mark::Active => {
                        let start = stack.iter().position(|(n, _)| *n == dep).unwrap_or(0);
                        let mut cycle: Vec<&str> = stack[start..]
                            .iter()
                            .map(|(n, _)| facts[*n].id.get_ref().as_str())
                            .collect();
                        cycle.push(facts[dep].id.get_ref());
                        let f = &facts[node];
                        let dep_id = facts[dep].id.get_ref();
                        return Err(sources[f.origin].error(
                            reference_span(f, dep_id),
                            format!(
                                "facts refer to each other in a cycle: {}",
                                cycle.join(" -> ")
                            ),
                            "closes the cycle",
                        ));
                    }
                }
            } else {
                mark[node] = Mark::Done;
                order.push(node);
                stack.pop();
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load::load_text;

    fn plan(rules: &str) -> Plan {
        resolve(load_text("test.toml", rules).expect("loads")).expect("resolves")
    }

    #[test]
    fn every_kind_declares_what_it_reads() {
        let plan = plan(
            r#"
[[fact]]
id = "schemas"
files = "schemas/*.json"
exclude = ["schemas/old-*.json"]

[[fact]]
id = "hits"
grep = "tool-context"
paths = ["packages", "docs"]

[[fact]]
id = "anywhere"
grep = "x"

[[fact]]
id = "defs"
count = "def "
file = "src/a.py"

[[fact]]
id = "cap"
constant = "CAP"
file = "src/a.py"

[[fact]]
id = "derived"
expr = "3 * CAP + {defs}"
equals = "BODY"

[[fact]]
id = "faces"
entries = "FACES"
file = "src/b.py"

[[fact]]
id = "patterns"
json = "schemas/*.json"
keyword = "pattern"

[[fact]]
id = "accepts"
validate = "tool.schema.json"
schemas = "schemas"
document = "docs/call.json"
"#,
        );
        let reads: BTreeMap<&str, Reads> = plan
            .facts
            .iter()
            .map(|f| (f.id.get_ref().as_str(), f.reads()))
            .collect();
        let paths = |id: &str| reads[id].paths.clone();
        assert_eq!(paths("schemas"), ["schemas/*.json"]);
        assert_eq!(reads["schemas"].exclude, ["schemas/old-*.json"]);
        assert!(reads["schemas"].names_only);
        assert!(!reads["hits"].names_only && !reads["defs"].names_only);
        assert_eq!(paths("hits"), ["packages", "docs"]);
        assert_eq!(paths("anywhere"), ["**"]);
        assert_eq!(paths("defs"), ["src/a.py"]);
        assert_eq!(paths("cap"), ["src/a.py"]);
        assert_eq!(reads["cap"].constants, ["CAP"]);
        assert_eq!(reads["derived"].constants, ["BODY", "CAP"]);
        assert_eq!(reads["derived"].facts, ["defs"]);
        assert!(reads["derived"].paths.is_empty());
        assert_eq!(paths("faces"), ["src/b.py"]);
        assert_eq!(paths("patterns"), ["schemas/*.json"]);
        assert_eq!(paths("accepts"), ["schemas", "docs/call.json"]);
        // `{defs}` is computed before the fact that reads it.
        let position = |id: &str| {
            plan.order
                .iter()
                .position(|&i| plan.facts[i].id.get_ref() == id)
                .expect("ordered")
        };
        assert!(position("defs") < position("derived"));
    }

    #[test]
    fn a_reference_to_no_fact_points_at_the_expression() {
        let error = resolve(
            load_text("test.toml", "[[fact]]\nid = \"a\"\nexpr = \"{nope} + 1\"\n").expect("loads"),
        )
        .expect_err("unknown reference");
        assert!(
            error.to_string().contains("`{nope}` names no fact"),
            "{error}"
        );
    }
}
