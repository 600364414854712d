//! Citations, after resolution: test cites held to their history. A test cite
//! whose file is there but no longer defines the test is read at the commit
//! that wrote it into the record: the file defined it there → the finding says
//! which commit took it away and what it became (one definition of the same
//! scope gone and one come in that commit: "renamed to `test_z`", the new name
//! the suggestion); it never did → the finding says so.

use std::collections::BTreeMap;
use std::sync::Arc;

use git2::Oid;

use super::{History, short, turning_point};
use crate::checks::cites::model::{CiteStatus, ResolvedCite, TestTarget};
use crate::checks::cites::testdefs::{self, TestDef};
use crate::frames::Frame;

pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    let mut files = Definitions::default();
    for cite in resolved.iter_mut() {
        let Some(target) = cite.test.clone() else {
            continue;
        };
        if cite.frame != audited.label || !matches!(cite.status, CiteStatus::Stale { .. }) {
            continue;
        }
        let Some((writing, _)) = history.writing_of(cite, texts) else {
            continue;
        };
        let defines = |files: &mut Definitions, history: &mut History<'_>, position: usize| {
            files
                .at(history, position, &target)
                .map(|defs| defines(&defs, &target))
        };
        let Some(defined) = defines(&mut files, history, writing) else {
            continue;
        };
        let when = history.commit_at(writing).map(short).unwrap_or_default();
        let Some((why, suggestion, guessed)) = cite.status.stale_mut() else {
            continue;
        };
        cite.evidenced = true;
        if !defined {
            why.push_str(&format!(
                "; {} did not define it when the record cited it either (at {when})",
                target.file
            ));
            continue;
        }
        if defines(&mut files, history, 0) == Some(true) {
            // Still defined at the newest commit: what the resolver says of it
            // (a helper with no test attribute, an edit not committed) stands.
            continue;
        }
        let (present, absent) = turning_point(history, writing, 0, |h, at| {
            defines(&mut files, h, at) == Some(true)
        });
        let Some(commit) = history.commit_at(absent) else {
            continue;
        };
        cite.held_when_written = Some(when.clone());
        let became = match (
            files.at(history, present, &target),
            files.at(history, absent, &target),
        ) {
            (Some(before), Some(after)) => renamed_to(&before, &after, &target),
            _ => None,
        };
        match became {
            Some(name) => {
                why.push_str(&format!(
                    "; it was defined when the record cited it (at {when}) and renamed to `{name}` in {}",
                    short(commit)
                ));
                if let Some(cited) = cite.text.rsplit_once("::").map(|(head, _)| head) {
                    *suggestion = Some(format!("{cited}::{name}"));
                    *guessed = false;
                }
            }
            None => why.push_str(&format!(
                "; it was defined when the record cited it (at {when}) and went in {}",
                short(commit)
            )),
        }
    }
}

fn defines(defs: &[TestDef], target: &TestTarget) -> bool {
    testdefs::defines(defs, target.language, target.scope.as_deref(), &target.name)
}

/// The definition that came where the cited one went: the one of the same
/// scope and kind added by the commit, when the commit removed only the cited
/// one there.
fn renamed_to(before: &[TestDef], after: &[TestDef], target: &TestTarget) -> Option<String> {
    let scope_of = |d: &TestDef| d.class_or_module.join("::");
    let cited = testdefs::defining(
        before,
        target.language,
        target.scope.as_deref(),
        &target.name,
    )?;
    let same_place = |d: &&TestDef| scope_of(d) == scope_of(cited) && d.kind == cited.kind;
    let names = |defs: &[TestDef]| -> Vec<String> {
        defs.iter()
            .filter(same_place)
            .map(|d| d.name.clone())
            .collect()
    };
    let (old, new) = (names(before), names(after));
    let went: Vec<&String> = old.iter().filter(|n| !new.contains(n)).collect();
    let came: Vec<&String> = new.iter().filter(|n| !old.contains(n)).collect();
    match (went.as_slice(), came.as_slice()) {
        ([one], [name]) if **one == target.name => Some((*name).clone()),
        _ => None,
    }
}

/// A test file's definitions along the history, by blob id.
#[derive(Default)]
struct Definitions {
    parsed: BTreeMap<Oid, Arc<Vec<TestDef>>>,
}

impl Definitions {
    fn at(
        &mut self,
        history: &mut History<'_>,
        position: usize,
        target: &TestTarget,
    ) -> Option<Arc<Vec<TestDef>>> {
        let id = history.id_at(position, &target.file)?;
        let repo = history.repo();
        Some(Arc::clone(self.parsed.entry(id).or_insert_with(|| {
            let bytes = repo
                .blob_bytes(id, crate::snapshot::MAX_PARSED_BYTES)
                .unwrap_or_default();
            Arc::new(testdefs::tests_in_language(
                target.language,
                &String::from_utf8_lossy(&bytes),
            ))
        })))
    }
}
