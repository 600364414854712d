//! Scans the schemas each `[[bounds]]` entry names for bound keywords and pairs
//! every bound with its pin and the pin's constant, for the `unpinned-bound` and
//! `stale-pin` checks.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
use std::sync::Arc;

use super::find::{Bound, SchemaDoc, find_bounds, scan_local_refs};
use crate::checks::family_inputs::{BoundsPart, FamilyInputs};
use crate::constants::{Constant, ConstantError};
use crate::error::{Error, Result};
use crate::facts::Env;
use crate::pathspec::select;

/// A pin and what it found.
#[derive(Debug, Clone)]
pub struct PinOutcome {
    pub origin: usize,
    /// Span of the pin's `bound` in the rule file.
    pub span: Range<usize>,
    pub file: String,
    pub pointer: String,
    /// The constant's name, as the pin writes it, and its span in the rule file.
    pub constant_name: String,
    pub constant_span: Range<usize>,
    /// The constant; or, when it is absent (its file is not in the snapshot, or
    /// does not define it), why it could not be read.
    pub constant: std::result::Result<Constant, String>,
    /// The bound at the pinned location, if it still exists.
    pub bound: Option<Bound>,
}

/// One `[[bounds]]` entry's result.
#[derive(Debug, Clone)]
pub struct BoundsOutcome {
    pub origin: usize,
    pub keywords: Vec<String>,
    pub unpinned: Vec<Bound>,
    pub pins: Vec<PinOutcome>,
}

pub(crate) fn gather(
    inputs: &mut FamilyInputs<'_, '_, BoundsPart<'_>>,
) -> Result<Vec<BoundsOutcome>> {
    let frame = &*inputs.frames.audited();
    let FamilyInputs {
        plan, files, notes, ..
    } = inputs;
    let mut outcomes = Vec::new();
    // Pins are one set across every entry: a schema one entry reaches through
    // a `$ref` may be pinned by another. Each unpinned bound is reported once,
    // by the first entry that reaches it.
    let pinned: BTreeSet<(String, String)> = plan
        .bounds
        .iter()
        .flat_map(|rule| rule.pins.iter())
        .map(|pin| (pin.file.clone(), pin.pointer.clone()))
        .collect();
    let mut reported: BTreeSet<(String, String)> = BTreeSet::new();
    // The snapshot's schemas by `$id`, read the first time a reference needs it.
    let mut ids: Option<BTreeMap<String, String>> = None;
    for rule in plan.bounds {
        let origin = &rule.origin;
        let source = &plan.sources[*origin];
        let mut wanted: VecDeque<String> = select(
            frame.snapshot.paths(),
            std::slice::from_ref(&rule.schemas),
            &[],
        )
        .into_iter()
        .map(str::to_owned)
        .collect();
        // The schemas, and (when asked) every schema they reach through local $refs.
        let mut texts: BTreeMap<String, Arc<str>> = BTreeMap::new();
        while let Some(path) = wanted.pop_front() {
            if texts.contains_key(&path) {
                continue;
            }
            let text = match frame.snapshot.read_text_to_parse(&path) {
                Err(e) if crate::snapshot::too_large(&e).is_some() => {
                    notes.push(format!("{e}: its bounds are not scanned"));
                    continue;
                }
                read => read.map_err(|e| Error::reading(&path, e))?,
            };
            let Some(text) = text else {
                notes.push(format!(
                    "{path} is referenced by a scanned schema but is not a text file at {}",
                    frame.label
                ));
                continue;
            };
            if rule.follow_refs {
                let refs = scan_local_refs(&SchemaDoc {
                    path: &path,
                    text: &text,
                })
                .map_err(|e| {
                    source
                        .error(
                            rule.schemas_span.clone(),
                            format!("{} is not valid JSON", e.path),
                            "selects it",
                        )
                        .with_help(e.to_string())
                })?;
                for escaping in &refs.escaping {
                    // `/schemas/x.json` under an `$id` base names a schema by
                    // `$id`, not a file outside the repository.
                    if refs.id.is_some() {
                        let ids = ids.get_or_insert_with(|| schema_ids(&frame.snapshot, notes));
                        if let Some(file) = by_id(ids, refs.id.as_deref(), &escaping.reference) {
                            wanted.push_back(file.to_owned());
                            continue;
                        }
                    }
                    notes.push(format!(
                        "{path}:{}:{}: $ref {} leaves the repository; not followed",
                        escaping.line, escaping.column, escaping.reference
                    ));
                }
                // A reference is followed to the file it names by path; failing
                // that, to the schema whose `$id` it names (absolute, or relative
                // to this schema's `$id`), as the validation core's offline
                // registry resolves it. Nothing is fetched.
                for site in &refs.targets {
                    if let Some(file) = &site.file
                        && frame.snapshot.paths().binary_search(file).is_ok()
                    {
                        wanted.push_back(file.clone());
                        continue;
                    }
                    let ids = ids.get_or_insert_with(|| schema_ids(&frame.snapshot, notes));
                    match by_id(ids, refs.id.as_deref(), &site.reference) {
                        Some(file) => wanted.push_back(file.to_owned()),
                        None => notes.push(match &site.file {
                            Some(file) => {
                                format!("{path}: $ref {file} names no file at {}", frame.label)
                            }
                            None => format!(
                                "{path}: $ref {} names no schema `$id` at {}; not followed",
                                site.reference, frame.label
                            ),
                        }),
                    }
                }
            }
            texts.insert(path, text);
        }
        let docs: Vec<SchemaDoc<'_>> = texts
            .iter()
            .map(|(path, text)| SchemaDoc { path, text })
            .collect();
        let keywords = rule.keywords.clone();
        let bounds = find_bounds(&docs, &keywords).map_err(|e| {
            source
                .error(
                    rule.schemas_span.clone(),
                    format!("{} is not valid JSON", e.path),
                    "selects it",
                )
                .with_help(e.to_string())
        })?;
        let lookup = |_: &str| None;
        let env = Env {
            frame,
            source,
            declared: plan.constants,
            fact_value: &lookup,
        };
        let mut pins = Vec::with_capacity(rule.pins.len());
        for pin in &rule.pins {
            let (file, pointer) = (pin.file.as_str(), pin.pointer.as_str());
            // An absent constant is the pin's finding (stale-pin); a constant
            // that is there but cannot be evaluated, or is ambiguous, is a rule
            // the run cannot check.
            let name = pin.constant.get_ref();
            let constant =
                match crate::facts::constant::lookup(&env, name, pin.constant_file.as_deref()) {
                    Ok(c) => Ok(c),
                    Err(
                        e @ (ConstantError::FileNotFound { .. }
                        | ConstantError::NotInFile { .. }
                        | ConstantError::NotFound { .. }),
                    ) => Err(e.to_string()),
                    Err(e) => {
                        return Err(source
                            .error(
                                pin.constant.span(),
                                format!("cannot read constant `{name}` at {}", frame.label),
                                "this constant",
                            )
                            .with_help(e.to_string()));
                    }
                };
            let bound = bounds
                .iter()
                .find(|b| b.path == file && b.pointer == pointer)
                .cloned();
            pins.push(PinOutcome {
                origin: *origin,
                span: pin.span.clone(),
                file: file.to_owned(),
                pointer: pointer.to_owned(),
                constant_name: name.clone(),
                constant_span: pin.constant.span(),
                constant,
                bound,
            });
        }
        let unpinned = bounds
            .into_iter()
            .filter(|b| {
                let at = (b.path.clone(), b.pointer.clone());
                !pinned.contains(&at) && reported.insert(at)
            })
            .collect();
        for (path, text) in texts {
            files.insert(path, text);
        }
        outcomes.push(BoundsOutcome {
            origin: *origin,
            keywords,
            unpinned,
            pins,
        });
    }
    Ok(outcomes)
}

/// JSON files larger than this are not read for their `$id`: a schema this size
/// is almost surely data.
const MAX_SCHEMA_BYTES: usize = 4 * 1024 * 1024;

/// The `$id` (normalised, fragment dropped) of every JSON file of the snapshot
/// whose root object declares one, to the file's path: the offline registry the
/// validation core keys schemas by. The first file (in path order) to declare
/// an `$id` keeps it; a second is noted.
fn schema_ids(
    snapshot: &Arc<dyn crate::snapshot::Snapshot>,
    notes: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut ids = BTreeMap::new();
    for path in snapshot.paths() {
        if !path.to_ascii_lowercase().ends_with(".json") {
            continue;
        }
        let Ok(Some(bytes)) =
            crate::snapshot::read_within(snapshot.as_ref(), path, MAX_SCHEMA_BYTES as u64)
        else {
            continue;
        };
        if !bytes.windows(5).any(|w| w == b"\"$id\"") {
            continue;
        }
        let Ok(serde_json::Value::Object(root)) = serde_json::from_slice(&bytes) else {
            continue;
        };
        let Some(serde_json::Value::String(id)) = root.get("$id") else {
            continue;
        };
        let Some(id) = normalised_uri(id) else {
            continue;
        };
        match ids.get(&id) {
            None => {
                ids.insert(id, path.clone());
            }
            Some(first) => notes.push(format!(
                "{path} declares `$id` {id}, as {first} does; references to it follow {first}"
            )),
        }
    }
    ids
}

/// An absolute URI without its fragment, normalised as the validation core
/// normalises `$id`s; `None` when `text` is not one.
fn normalised_uri(text: &str) -> Option<String> {
    let uri = jsonschema::uri::from_str(text).ok()?;
    let text = uri.as_str();
    Some(
        text.split_once('#')
            .map_or(text, |(head, _)| head)
            .to_owned(),
    )
}

/// The file whose schema a `$ref` names by `$id`: `reference` resolved against
/// `base` (the referring schema's `$id`), or on its own when it is absolute.
fn by_id<'i>(
    ids: &'i BTreeMap<String, String>,
    base: Option<&str>,
    reference: &str,
) -> Option<&'i str> {
    let target = match base.and_then(|b| jsonschema::uri::from_str(b).ok()) {
        Some(base) => {
            let resolved = jsonschema::uri::resolve_against(&base.borrow(), reference).ok()?;
            normalised_uri(resolved.as_str())?
        }
        None if reference.contains(':') => normalised_uri(reference)?,
        None => return None,
    };
    ids.get(&target).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::by_id;

    #[test]
    fn references_name_schemas_by_id_absolute_or_relative_to_the_base() {
        let ids: BTreeMap<String, String> = [
            (
                "https://example.org/schemas/tool-context.schema.json",
                "schemas/mcp/context.json",
            ),
            ("urn:example:shared", "schemas/shared.json"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
        let base = Some("https://example.org/schemas/search-input.schema.json");
        let context = Some("schemas/mcp/context.json");
        assert_eq!(
            by_id(
                &ids,
                None,
                "https://example.org/schemas/tool-context.schema.json"
            ),
            context
        );
        assert_eq!(by_id(&ids, base, "tool-context.schema.json"), context);
        assert_eq!(
            by_id(&ids, base, "./sub/../tool-context.schema.json"),
            context
        );
        assert_eq!(
            by_id(&ids, base, "/schemas/tool-context.schema.json"),
            context
        );
        assert_eq!(
            by_id(&ids, base, "urn:example:shared"),
            Some("schemas/shared.json")
        );
        // With no base, a relative reference names no `$id`.
        assert_eq!(by_id(&ids, None, "tool-context.schema.json"), None);
        assert_eq!(by_id(&ids, base, "https://example.org/other.json"), None);
    }
}
