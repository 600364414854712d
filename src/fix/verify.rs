//! `recount fix`, before anything is written: the plan's edits made in
//! memory, and the records they touch checked again at the same tree. An edit
//! stands only when the finding it mends is gone and its record reports
//! nothing it did not report before; any other edit is taken out of the plan
//! and left to a person, with what the second check said.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{NeedsAPerson, Plan, Unproven};
use crate::audit::AuditOptions;
use crate::checks::Finding;
use crate::error::Result;
use crate::escape::{VALUE_CAP, untrusted};
use crate::report::Report;

/// A finding as the two checks are compared by: its check, its line and its
/// stated text (an edit changes no line's number: it brings no line break).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FindingKey {
    pub check: &'static str,
    pub line: usize,
    pub stated: Option<String>,
}

impl FindingKey {
    pub fn of(finding: &Finding) -> FindingKey {
        FindingKey {
            check: finding.check.as_str(),
            line: finding.location.line,
            stated: finding.stated.clone(),
        }
    }
}

/// What the second check found of the plan.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    /// Edits that held: made in memory, their findings gone, nothing new.
    pub held: usize,
    /// Edits taken out of the plan.
    pub dropped: usize,
    /// What the records were checked again at.
    pub at: String,
}

/// The rounds of checking again: each one that finds an edit not holding
/// takes it out and checks the rest again; past this many, what is left is
/// not proven to hold alone, and is dropped too.
const ROUNDS: usize = 3;

/// Checks `plan`'s edits, made in memory, against the audit `options`
/// describe (the one that made `before`), and takes out each edit that does
/// not hold.
pub fn verify(options: &AuditOptions, before: &Report, plan: &mut Plan) -> Result<Verification> {
    let mut verification = Verification {
        at: before.snapshot.label.clone(),
        ..Verification::default()
    };
    let mut round = 0;
    while !plan.files.is_empty() {
        round += 1;
        let overlay: BTreeMap<String, Arc<str>> = plan
            .files
            .iter()
            .map(|file| (file.path.clone(), Arc::from(file.after())))
            .collect();
        let records: BTreeSet<String> = overlay.keys().cloned().collect();
        let again = crate::check(&AuditOptions {
            overlay: Some(Arc::new(overlay)),
            judged_records: Some(crate::scope::RecordScope::Only(records.clone())),
            progress: None,
            cache_adds: true,
            ..options.clone()
        })?;
        let keys = |report: &Report| -> BTreeMap<(String, FindingKey), String> {
            report
                .findings
                .iter()
                .filter(|r| records.contains(&r.finding.location.path))
                .map(|r| {
                    (
                        (r.finding.location.path.clone(), FindingKey::of(&r.finding)),
                        r.finding
                            .message
                            .lines()
                            .next()
                            .unwrap_or_default()
                            .to_owned(),
                    )
                })
                .collect()
        };
        let (was, is) = (keys(before), keys(&again));
        let last_round = round >= ROUNDS;
        let mut failed = false;
        for file in &mut plan.files {
            let new: Vec<(&FindingKey, &String)> = is
                .iter()
                .filter(|((path, key), _)| {
                    *path == file.path && !was.contains_key(&(path.clone(), key.clone()))
                })
                .map(|((_, key), message)| (key, message))
                .collect();
            // A new finding on a line an edit is on is that edit's to answer
            // for; one elsewhere, every edit's of the record.
            let edited: BTreeSet<usize> = file
                .edits
                .iter()
                .flat_map(|edit| [edit.line, edit.mends.line])
                .collect();
            let stray = new.iter().find(|(key, _)| !edited.contains(&key.line));
            let mut kept = Vec::new();
            for edit in std::mem::take(&mut file.edits) {
                let still = is.get(&(file.path.clone(), edit.mends.clone()));
                let brought = new
                    .iter()
                    .find(|(key, _)| key.line == edit.line || key.line == edit.mends.line)
                    .or(stray);
                let why = match (still, brought) {
                    (Some(message), _) => Some(format!("it is still reported: {message}")),
                    (None, Some((key, message))) => Some(format!(
                        "line {} would report {}: {message}",
                        key.line, key.check
                    )),
                    (None, None) if last_round => Some(
                        "it was not shown to hold alone after others were taken out".to_owned(),
                    ),
                    (None, None) => None,
                };
                match why {
                    None => kept.push(edit),
                    Some(why) => {
                        failed = true;
                        verification.dropped += 1;
                        plan.needs_a_person.push(NeedsAPerson {
                            stated: edit.mends.stated.clone(),
                            observed: None,
                            check: edit.check,
                            path: file.path.clone(),
                            line: edit.line,
                            message: format!(
                                "`{}` would become `{}`; checked again with the edit made, {}",
                                untrusted(&edit.stated, VALUE_CAP),
                                untrusted(&edit.replacement, VALUE_CAP),
                                untrusted(&why, VALUE_CAP * 2)
                            ),
                            why: Unproven::Unverified,
                        });
                    }
                }
            }
            file.edits = kept;
        }
        plan.files.retain(|file| !file.edits.is_empty());
        if !failed {
            break;
        }
        // An edit taken out may leave its line or record half mended.
        plan.hold_half_mended_lines(&before.sources);
    }
    plan.needs_a_person
        .sort_by(|a, b| (&a.path, a.line, a.check).cmp(&(&b.path, b.line, b.check)));
    verification.held = plan.edits();
    Ok(verification)
}
