//! The book under `docs/` against the registries: every part of a page between
//! `<!-- generated: KEY -->` and `<!-- end generated -->` is what the code gives
//! for KEY today (the `--help` texts, the check and exemption tables, each
//! check's `explain` text, the fact kinds and every key of a rule file), every
//! key the registries have is somewhere in the book, and `SUMMARY.md` lists
//! every page. `RECOUNT_BLESS=1 cargo test --test it book` writes the generated
//! parts anew (and a page for a new check) instead of failing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use recount::checks::CheckId;
use recount::checks::cites::exemptions::Exemption;
use recount::facts::FactKind;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BEGIN: &str = "<!-- generated: ";
const END: &str = "<!-- end generated -->";

fn book() -> PathBuf {
    Path::new(ROOT).join("docs/src")
}

/// Every Markdown page of the book, relative to `docs/src`, sorted.
pub(crate) fn pages() -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("a book folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let relative = path.strip_prefix(base).expect("under the book");
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(&book(), &book(), &mut out);
    out.sort();
    out
}

/// A page of the book, by its path under `docs/src`.
pub(crate) fn page(relative: &str) -> String {
    std::fs::read_to_string(book().join(relative))
        .unwrap_or_else(|e| panic!("docs/src/{relative}: {e}"))
}

/// The subcommands the binary defines, in its order (`help` aside).
fn subcommands() -> Vec<String> {
    use clap::CommandFactory;
    recount::cli::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .filter(|name| name != "help")
        .collect()
}

fn help(args: &[&str]) -> String {
    let output = assert_cmd::Command::cargo_bin("recount")
        .expect("binary")
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .args(args)
        .arg("--help")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{args:?} --help");
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn fenced(tag: &str, text: &str) -> String {
    format!("```{tag}\n{}\n```", text.trim_end())
}

/// A table cell: one line, with no `|` to end it early and no `<` to open an
/// HTML tag (a regex's `(?<value>...)`).
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
        .replace('<', "\\<")
}

/// What `explain` says a check is about: its first line, less the id.
fn summary(check: CheckId) -> String {
    let first = check.explain().lines().next().unwrap_or_default();
    first
        .strip_prefix(&format!("{}: ", check.as_str()))
        .unwrap_or(first)
        .to_owned()
}

fn rules_schema() -> Value {
    serde_json::from_str(recount::rules::load::RULES_SCHEMA).expect("rules schema")
}

/// A property's description, or its `$ref` target's.
fn description(schema: &Value, property: &Value) -> String {
    if let Some(text) = property["description"].as_str() {
        return text.to_owned();
    }
    let target = property["$ref"]
        .as_str()
        .or_else(|| property["items"]["$ref"].as_str())
        .or_else(|| property["additionalProperties"]["$ref"].as_str());
    target
        .and_then(|r| schema.pointer(r.trim_start_matches('#')))
        .and_then(|t| t["description"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// Where each kind of rule-file key lives, as the key table names it.
pub(crate) const RULE_KEY_PLACES: [(&str, &str); 10] = [
    ("top level", ""),
    ("`[recount]`", "/properties/recount"),
    ("`[constants]` entry", "/$defs/constant"),
    ("`[[fact]]`", "/$defs/fact"),
    ("claim", "/$defs/claim"),
    ("`[cites]`", "/$defs/cites"),
    ("`[[cites.expect]]`", "/$defs/expect"),
    ("`[[retired]]`", "/$defs/retired"),
    ("`[[bounds]]`", "/$defs/bounds"),
    ("`pins` entry", "/$defs/pin"),
];

/// What the code gives for a generated part's KEY, or None for a key it does
/// not know.
fn render(key: &str) -> Option<String> {
    let words: Vec<&str> = key.split_whitespace().collect();
    match words.as_slice() {
        ["help"] => Some(fenced("text", &help(&[]))),
        ["help", sub] if subcommands().iter().any(|s| s == sub) => {
            Some(fenced("text", &help(&[sub])))
        }
        ["checks"] => {
            let mut text = "| check | default severity | fires when |\n|---|---|---|\n".to_owned();
            for check in CheckId::ALL {
                text.push_str(&format!(
                    "| [`{id}`]({id}.md) | {} | {} |\n",
                    check.severity().as_str(),
                    cell(&summary(*check)),
                    id = check.as_str()
                ));
            }
            Some(text.trim_end().to_owned())
        }
        ["check", id] => {
            let check = CheckId::ALL.iter().find(|c| c.as_str() == *id)?;
            let explain = check.explain();
            let body = explain.split_once('\n').map_or("", |(_, rest)| rest);
            Some(format!(
                "# `{id}`\n\n{}. Default severity: **{}**; a rule file's `[checks]` \
                 table sets another, or `off`. `recount explain {id}` prints the \
                 same text.\n\n{}",
                capitalised(&summary(*check)),
                check.severity().as_str(),
                fenced("text", body.trim_matches('\n'))
            ))
        }
        ["exemptions"] => {
            // What each one exempts is in the stale-path-cite page, inside its
            // explain text: its examples are examples, not this repository's paths.
            let mut text =
                "| exemption | applies to | the history overrules it |\n|---|---|---|\n".to_owned();
            for e in Exemption::ALL {
                let off = if e.on_by_default() {
                    ""
                } else {
                    " (off by default)"
                };
                text.push_str(&format!(
                    "| `{}` | {}{off} | {} |\n",
                    e.id(),
                    e.applies().as_str(),
                    if e.history_overrules() { "yes" } else { "no" },
                ));
            }
            Some(text.trim_end().to_owned())
        }
        ["fact-kinds"] => {
            let schema = rules_schema();
            let mut text = "| kind | value | parameters |\n|---|---|---|\n".to_owned();
            for kind in FactKind::NAMES {
                let meaning = description(&schema, &schema["$defs"]["fact"]["properties"][kind]);
                let meaning = meaning
                    .strip_prefix(&format!("Kind {kind}: "))
                    .unwrap_or(&meaning)
                    .to_owned();
                let mut parameters = crate::registry::kind_parameters(kind);
                parameters.remove(*kind);
                let parameters: Vec<String> = parameters.iter().map(|p| format!("`{p}`")).collect();
                text.push_str(&format!(
                    "| `{kind}` | {} | {} |\n",
                    cell(&meaning),
                    parameters.join(", ")
                ));
            }
            Some(text.trim_end().to_owned())
        }
        ["rule-keys"] => {
            let schema = rules_schema();
            let mut text = "| key | where | meaning |\n|---|---|---|\n".to_owned();
            for (place, pointer) in RULE_KEY_PLACES {
                let def = schema.pointer(pointer).expect("a place of the schema");
                let Some(properties) = def["properties"].as_object() else {
                    continue;
                };
                for (key, property) in properties {
                    text.push_str(&format!(
                        "| `{key}` | {place} | {} |\n",
                        cell(&description(&schema, property))
                    ));
                }
            }
            Some(text.trim_end().to_owned())
        }
        _ => None,
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// Every key the registries have, each of which the book must generate once.
fn required_keys() -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = ["help", "checks", "exemptions", "fact-kinds", "rule-keys"]
        .iter()
        .map(|k| (*k).to_owned())
        .collect();
    keys.extend(subcommands().iter().map(|s| format!("help {s}")));
    keys.extend(CheckId::ALL.iter().map(|c| format!("check {}", c.as_str())));
    keys
}

/// A page's text with each generated part as the code gives it now, and the
/// keys it generates; an unknown key or an unclosed part is an error.
fn regenerate(relative: &str, text: &str) -> Result<(String, Vec<String>), String> {
    let mut out = String::with_capacity(text.len());
    let mut keys = Vec::new();
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let trimmed = line.trim();
        let Some(key) = trimmed
            .strip_prefix(BEGIN)
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        let content = render(key).ok_or_else(|| format!("{relative}: no generator for {key:?}"))?;
        // Trailing blanks (clap pads some help lines) would not survive an
        // editor; the page keeps none.
        for generated in content.lines().map(str::trim_end) {
            if generated.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("{indent}{generated}\n"));
            }
        }
        let end = lines
            .by_ref()
            .find(|l| l.trim() == END)
            .ok_or_else(|| format!("{relative}: {key:?} has no {END}"))?;
        out.push_str(end);
        keys.push(key.to_owned());
    }
    Ok((out, keys))
}

#[test]
fn the_book_is_what_the_registries_generate() {
    let bless = std::env::var_os("RECOUNT_BLESS").is_some();
    if bless {
        // A page for every check, so a new check gets one.
        for check in CheckId::ALL {
            let path = book().join(format!("checks/{}.md", check.as_str()));
            if !path.exists() {
                let text = format!("{BEGIN}check {} -->\n{END}\n", check.as_str());
                std::fs::write(&path, text).expect("a new check page");
            }
        }
    }
    let mut stale = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for relative in pages() {
        let text = page(&relative);
        let (regenerated, keys) = regenerate(&relative, &text).unwrap_or_else(|e| panic!("{e}"));
        seen.extend(keys);
        if regenerated != text {
            if bless {
                std::fs::write(book().join(&relative), &regenerated).expect("blessed");
            } else {
                stale.push(relative);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated parts of {stale:?} differ from the registries: \
         `RECOUNT_BLESS=1 cargo test --test it book` writes them anew"
    );
    let once: BTreeSet<String> = seen.iter().cloned().collect();
    assert_eq!(once.len(), seen.len(), "a key generated twice: {seen:?}");
    let required = required_keys();
    let missing: Vec<_> = required.difference(&once).collect();
    assert!(missing.is_empty(), "the book generates no {missing:?}");
}

#[test]
fn the_summary_lists_every_page_once() {
    let summary = page("SUMMARY.md");
    let listed: Vec<String> = summary
        .lines()
        .filter_map(|l| l.split_once("](").map(|(_, rest)| rest))
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.to_owned()))
        .collect();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "a page listed twice");
    let on_disk: BTreeSet<String> = pages().into_iter().filter(|p| p != "SUMMARY.md").collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(listed, on_disk, "SUMMARY.md and docs/src disagree");
}

#[test]
fn a_part_with_an_unknown_key_or_no_end_is_refused() {
    let unknown = regenerate(
        "x.md",
        "<!-- generated: nothing such -->\n<!-- end generated -->\n",
    );
    assert!(unknown.unwrap_err().contains("no generator"));
    let open = regenerate("x.md", "<!-- generated: checks -->\n| a |\n");
    assert!(open.unwrap_err().contains("has no"));
    let (text, keys) = regenerate("x.md", "intro\n").expect("no part");
    assert_eq!((text.as_str(), keys.len()), ("intro\n", 0));
}
