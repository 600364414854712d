//! Citations, after resolution: `:ref:` labels held to their history. A label
//! no page of the Sphinx project defines now is set aside as one a docstring
//! or an extension may define (`label-elsewhere`) — unless the project's pages
//! defined it at the commit that wrote the cite into its record: then it went
//! since, and the cite is stale.

use std::collections::BTreeMap;
use std::sync::Arc;

use git2::Oid;

use super::{History, short};
use crate::checks::cites::exemptions::Exemption;
use crate::checks::cites::gather::{CiteStatus, ResolvedCite};
use crate::checks::cites::labels::{LabelFate, ProjectLabels, sphinx_folder};
use crate::frames::Frame;
use crate::snapshot::git::GitSnapshot;

pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    // The project's labels at each writing commit, read once.
    let mut then: BTreeMap<(Oid, String), Option<Arc<ProjectLabels>>> = BTreeMap::new();
    for cite in resolved.iter_mut() {
        let set_aside = matches!(
            cite.status,
            CiteStatus::Skipped {
                exemption: Exemption::LabelElsewhere,
                ..
            }
        );
        if !set_aside || cite.frame != audited.label {
            continue;
        }
        let Some(folder) = sphinx_folder(&cite.record, audited.snapshot.paths()) else {
            continue;
        };
        let Some((writing, _)) = history.writing_of(cite, texts) else {
            continue;
        };
        let Some(commit) = history.commit_at(writing) else {
            continue;
        };
        let git_dir = history.repo().git_dir().to_path_buf();
        let labels = then
            .entry((commit, folder.clone()))
            .or_insert_with(|| {
                let scope = if folder.is_empty() {
                    Vec::new()
                } else {
                    vec![folder.clone()]
                };
                let snapshot = GitSnapshot::open_scoped(&git_dir, commit, &scope).ok()?;
                Some(Arc::new(ProjectLabels::of(&snapshot, &folder)))
            })
            .clone();
        let Some(labels) = labels else {
            continue;
        };
        if let LabelFate::Defined(page) = labels.fate(&cite.text) {
            cite.status = CiteStatus::Stale {
                why: format!(
                    "no page of the Sphinx project defines the label `{}` at {}; {page} defined it when the record cited it (at {})",
                    cite.text,
                    audited.label,
                    short(commit)
                ),
                suggestion: None,
            };
            cite.evidenced = true;
        }
    }
}
