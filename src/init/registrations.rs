//! Drafting: counts of registered things — "the relay answers five tools",
//! "seven handlers are registered" — tied to the decorator or registry call
//! the tree registers them with (`@_tool(`, `@app.command(`,
//! `register_handler(`), counted by a `count` fact over the file that holds
//! them. Drafted only on the repository's evidence: the one call named
//! after the thing counted (of several, the one whose count is the stated
//! number), and some commit — the passage's frame, the one that wrote it, the
//! audited tree — must give the stated number ([`super::weigh`]). Two
//! named heuristics keep a tutorial's "two widgets" out, as the first corpus
//! run showed they must: the sentence says the things are registered
//! ([`REGISTRATION_VERBS`]), and the call is in the project's own source, not
//! in tests, examples, docs or scripts.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use super::counts::COUNT;
use super::{Draft, DraftFact, DraftKind, Hit, Scan, Tie, claim, in_code, slug};

/// Source files registrations are read from, by extension.
const SOURCES: &[&str] = &[".py", ".ts", ".js", ".mjs", ".cjs", ".tsx", ".jsx"];

/// Words that say a sentence counts what the project registers ("the server
/// registers seven tools", "the relay answers five tools").
pub const REGISTRATION_VERBS: &str =
    r"(?i)\b(?:regist\w*|answers|serves|exposes|publishes|provides|defines|ships|offers)\b";

/// Folders whose calls register nothing the project ships.
const NOT_SOURCE: &[&str] = &[
    "tests",
    "test",
    "testing",
    "examples",
    "example",
    "docs",
    "doc",
    "scripts",
    "benchmarks",
    "bench",
];

/// At most this many bytes of one source file are read for registrations.
const MAX_SOURCE_BYTES: usize = 1 << 20;

fn registration() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(r"(?m)^[ \t]*(?<call>@(?<decorator>[A-Za-z_][\w.]*)\(|(?<function>(?:register|add)_[a-z]\w*)\()")
            .expect("the registration pattern compiles")
    })
}

fn stated_count() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<value>{COUNT})\s+(?:registered\s+|published\s+)?(?<noun>[a-z]{{3,}}s)\b"
        ))
        .expect("the count pattern compiles")
    })
}

/// Whether a registration call is named after `stem` itself: `_tool`,
/// `mcp.tool`, `register_tool`, `app.command` for "commands" — not
/// `cloud_run` for "runs".
fn names(call: &str, stem: &str) -> bool {
    let last = call
        .rsplit('.')
        .next()
        .unwrap_or(call)
        .trim_matches('_')
        .to_ascii_lowercase();
    last == stem || last.strip_prefix("register_") == Some(stem)
}

fn registration_verb() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| Regex::new(REGISTRATION_VERBS).expect("the verb pattern compiles"))
}

/// The singular a plural noun is counted by: "tools" → "tool", "classes" →
/// "class".
fn singular(noun: &str) -> &str {
    if noun.ends_with("sses") {
        return noun.get(..noun.len() - 2).unwrap_or(noun);
    }
    noun.strip_suffix('s').unwrap_or(noun)
}

/// Every registration call of the tree's source files: (call as written,
/// file) → how many times.
fn registrations(scan: &Scan) -> BTreeMap<(String, String), usize> {
    let mut found = BTreeMap::new();
    for path in scan.snapshot.paths() {
        if !SOURCES.iter().any(|s| path.ends_with(s))
            || crate::checks::cites::locate::is_vendored(path)
            || crate::checks::cites::exemptions::is_test_material(path)
            || path
                .split('/')
                .rev()
                .skip(1)
                .any(|folder| NOT_SOURCE.contains(&folder))
        {
            continue;
        }
        let Ok(Some(text)) = scan.snapshot.read_text(path) else {
            continue;
        };
        if text.len() > MAX_SOURCE_BYTES {
            continue;
        }
        for caps in registration().captures_iter(&text) {
            if let Some(call) = caps.name("call") {
                let call = call.as_str().trim_start().to_owned();
                *found.entry((call, path.clone())).or_insert(0) += 1;
            }
        }
    }
    found
}

/// Drafts a `count` fact for each stated count of registered things the tree
/// bears out.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    let mut sites: Option<BTreeMap<(String, String), usize>> = None;
    for record in scan.prose_records() {
        let prose = record.prose().text();
        for caps in stated_count().captures_iter(prose) {
            let (Some(value), Some(noun), Some(whole)) =
                (caps.name("value"), caps.name("noun"), caps.get(0))
            else {
                continue;
            };
            if in_code(record, &whole.range())
                || !registration_verb().is_match(
                    prose
                        .get(super::retired::sentence(prose, value.start()))
                        .unwrap_or_default(),
                )
            {
                continue;
            }
            let Ok(stated) = crate::claims::value::parse_stated(value.as_str()) else {
                continue;
            };
            let stem = singular(noun.as_str());
            let sites = sites.get_or_insert_with(|| registrations(scan));
            // The one call named after the noun; of several, the one whose
            // count here is the stated one. Whether any commit bears the
            // guess out is weighed before the draft is written.
            let named: Vec<(&(String, String), &usize)> = sites
                .iter()
                .filter(|((call, _), _)| {
                    names(call.trim_start_matches('@').trim_end_matches('('), stem)
                })
                .collect();
            let matching: Vec<&(String, String)> = match named.as_slice() {
                [(site, _)] => vec![*site],
                several => several
                    .iter()
                    .filter(|(_, n)| {
                        stated.agrees(&crate::number::Number::from_integer(**n as i128))
                    })
                    .map(|(site, _)| *site)
                    .collect(),
            };
            let [(call, file)] = matching.as_slice() else {
                continue;
            };
            let hit = Hit {
                record,
                whole: whole.range(),
                value: value.range(),
            };
            let Some(says) = claim::says_for(record, value.range()) else {
                continue;
            };
            if draft
                .facts
                .iter()
                .any(|f| f.place == hit.place() && f.says.as_deref() == Some(&says))
            {
                continue;
            }
            draft.facts.push(DraftFact {
                id: format!("registered-{}", slug(noun.as_str())),
                what: format!(
                    "Counts the `{call}` registrations in {file}, the {} the record counts",
                    noun.as_str()
                ),
                place: hit.place(),
                quote: hit.quote(),
                declared: hit.frame(),
                at: None,
                tie: Tie::Guessed,
                weighed: Default::default(),
                kind: DraftKind::Count {
                    pattern: (*call).clone(),
                    file: (*file).clone(),
                },
                equals: None,
                says: Some(says),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registration_call_is_named_after_what_it_registers() {
        assert!(names("_tool", "tool"));
        assert!(names("mcp.tool", "tool"));
        assert!(names("register_tool", "tool"));
        assert!(names("app.command", "command"));
        assert!(!names("tooling", "tool"));
        assert!(!names("cloud_run", "run"));
        assert!(!names("add_widget", "widget"));
        let text = "We have two widgets. The relay answers five tools now. Next.";
        let at = text.find("five").unwrap();
        let sentence = |at: usize| &text[crate::init::retired::sentence(text, at)];
        assert_eq!(sentence(at), "The relay answers five tools now.");
        assert!(registration_verb().is_match(sentence(at)));
        assert!(!registration_verb().is_match(sentence(8)));
        assert_eq!(singular("tools"), "tool");
        assert_eq!(singular("classes"), "class");
        let caps = registration().captures("@_tool(\"spool.send\")\n").unwrap();
        assert_eq!(&caps["call"], "@_tool(");
        let caps = stated_count()
            .captures("The relay answers five tools now")
            .unwrap();
        assert_eq!((&caps["value"], &caps["noun"]), ("five", "tools"));
    }
}
