//! Drafting: counts a record ties to the tree — a folder that "holds eight
//! files" becomes a `files` fact over that folder, and a named literal that
//! "tracks five faces" an `entries` fact over the literal, when the tree has
//! that folder or defines that literal once.

use std::sync::OnceLock;

use regex::Regex;

use super::figures::NAME;
use super::{Draft, DraftFact, DraftKind, Hit, NotDrafted, Scan, Tie, in_code, slug};
use crate::snapshot::has_folder;

/// A count as records write it: digits or a number word.
pub(super) const COUNT: &str = r"(?:\d+|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty))";
/// A repository path as prose writes a folder.
const FOLDER: &str = r"(?:[\w.-]+/)*[\w.-]+/?";

fn folder_holds() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"(?<path>{FOLDER})\s+(?:holds|has|contains|keeps|held|had|contained)\s+(?:exactly\s+|only\s+)?(?<value>{COUNT})\s+(?:(?<kind>[A-Za-z]+)\s+)?files\b"
        ))
        .expect("the folder pattern compiles")
    })
}

fn files_in_folder() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<value>{COUNT})\s+(?:(?<kind>[A-Za-z]+)\s+)?files\s+(?:in|under)\s+(?<path>{FOLDER})"
        ))
        .expect("the folder pattern compiles")
    })
}

fn literal_has() -> &'static Regex {
    static SLOT: OnceLock<Regex> = OnceLock::new();
    SLOT.get_or_init(|| {
        Regex::new(&format!(
            r"\b(?<name>{NAME})\b(?:[^.;\n]|\.\S){{0,80}}?\b(?:has|holds|lists|tracks|contains|keeps|names)\s+(?<value>{COUNT})\s+[a-z]+"
        ))
        .expect("the literal pattern compiles")
    })
}

/// The glob a kind of file names: "JSON files" are `*.json`.
fn glob_of(kind: Option<&str>) -> Result<&'static str, String> {
    let Some(kind) = kind else { return Ok("*") };
    Ok(match kind.to_ascii_lowercase().as_str() {
        "json" => "*.json",
        "markdown" | "md" => "*.md",
        "python" | "py" => "*.py",
        "rust" | "rs" => "*.rs",
        "typescript" | "ts" => "*.ts",
        "go" => "*.go",
        "toml" => "*.toml",
        "yaml" | "yml" => "*.yaml",
        "schema" => "*.schema.json",
        other => {
            return Err(format!(
                "recount does not know which files \"{other} files\" means; write the glob by hand"
            ));
        }
    })
}

/// Drafts the folder and literal counts of every prose record.
pub fn draft(scan: &Scan, draft: &mut Draft) {
    let paths = scan.snapshot.paths();
    for record in scan.prose_records() {
        let prose = record.prose().text();
        let mut found = Vec::new();
        for regex in [folder_holds(), files_in_folder()] {
            for caps in regex.captures_iter(prose) {
                if let (Some(path), Some(value), Some(whole)) =
                    (caps.name("path"), caps.name("value"), caps.get(0))
                {
                    found.push((
                        path.as_str().to_owned(),
                        caps.name("kind").map(|k| k.as_str().to_owned()),
                        value.range(),
                        whole.range(),
                    ));
                }
            }
        }
        found.sort_by_key(|(_, _, v, _)| v.start);
        found.dedup_by_key(|(_, _, v, _)| v.start);
        for (path, kind, value, whole) in found {
            let folder = path.trim_end_matches('/');
            // A path must name a folder of this tree; "the build has four files" is prose.
            if in_code(record, &whole)
                || !folder.contains('/') && !path.ends_with('/')
                || !has_folder(paths, folder)
            {
                continue;
            }
            let hit = Hit {
                record,
                whole,
                value: value.clone(),
            };
            let glob = match glob_of(kind.as_deref()) {
                Ok(glob) => format!("{folder}/{glob}"),
                Err(why) => {
                    draft.not_drafted.push(NotDrafted {
                        place: hit.place(),
                        quote: hit.quote(),
                        why,
                    });
                    continue;
                }
            };
            let Some(says) = hit.says_or_list(&mut draft.not_drafted) else {
                continue;
            };
            draft.facts.push(DraftFact {
                id: format!("files-in-{}", slug(folder)),
                what: format!("Counts the files matching `{glob}` (directly in the folder; `{folder}/**` would count its subfolders too)"),
                place: hit.place(),
                quote: hit.quote(),
                declared: hit.frame(),
                at: None,
                tie: Tie::Named,
                weighed: Default::default(),
                kind: DraftKind::Files(glob),
                equals: None,
                says: Some(says),
            });
        }
        for caps in literal_has().captures_iter(prose) {
            let (Some(name), Some(value), Some(whole)) =
                (caps.name("name"), caps.name("value"), caps.get(0))
            else {
                continue;
            };
            let whole = whole.range();
            if in_code(record, &whole) {
                continue;
            }
            let name = name.as_str();
            let hit = Hit {
                record,
                whole,
                value: value.range(),
            };
            let literals: Vec<String> = scan
                .constants
                .defining_files(name)
                .into_iter()
                .filter(|file| scan.constants.literal_entries(file, name).is_ok())
                .collect();
            let file = match literals.as_slice() {
                [] => continue,
                [file] => file.clone(),
                several => {
                    draft.not_drafted.push(NotDrafted {
                        place: hit.place(),
                        quote: hit.quote(),
                        why: format!(
                            "`{name}` is a literal in {} files ({}); say which with `file`",
                            several.len(),
                            several.join(", ")
                        ),
                    });
                    continue;
                }
            };
            let Some(says) = hit.says_or_list(&mut draft.not_drafted) else {
                continue;
            };
            draft.facts.push(DraftFact {
                id: format!("entries-of-{}", slug(name)),
                what: format!("Counts the entries of the literal `{name}` in {file}"),
                place: hit.place(),
                quote: hit.quote(),
                declared: hit.frame(),
                at: None,
                tie: Tie::Named,
                weighed: Default::default(),
                kind: DraftKind::Entries {
                    name: name.to_owned(),
                    file,
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
    fn folder_counts_read_both_ways() {
        let caps = folder_holds()
            .captures("At that commit schemas/mcp/ holds eight files")
            .unwrap();
        assert_eq!((&caps["path"], &caps["value"]), ("schemas/mcp/", "eight"));
        let caps = files_in_folder()
            .captures("there are 12 JSON files under schemas/")
            .unwrap();
        assert_eq!(
            (&caps["path"], &caps["value"], &caps["kind"]),
            ("schemas/", "12", "JSON")
        );
        assert_eq!(glob_of(Some("JSON")), Ok("*.json"));
        assert!(glob_of(Some("source")).is_err());
    }

    #[test]
    fn literal_counts_skip_a_parenthesis_but_not_a_sentence() {
        let caps = literal_has()
            .captures(
                "The tuple _PROJECT_ID_FACES (tests/unit/test_schemas.py:52-58) tracks five faces",
            )
            .unwrap();
        assert_eq!(
            (&caps["name"], &caps["value"]),
            ("_PROJECT_ID_FACES", "five")
        );
        assert!(
            literal_has()
                .captures("See MAX_FOO. The list has five items")
                .is_none()
        );
    }
}
