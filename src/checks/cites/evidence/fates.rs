//! Stage 4, the citation evidence: what became of a stale path's target in
//! the history behind the snapshot (renamed, deleted), said on the finding,
//! with a rename as its did-you-mean.

use crate::checks::cites::locate::{backticked_paths, reader_paths};
use crate::checks::cites::model::{CiteClass, CiteStatus, ResolvedCite, Tier};
use crate::frames::{Frame, Frames};
use crate::snapshot::git::PathFate;

/// A stale path or link that the history behind the snapshot renamed or
/// deleted says so ("renamed to `x/y.rs` in 1a2b3c4d"); a rename is the
/// did-you-mean, over any near name beside it.
pub(crate) fn say_what_became_of(
    resolved: &mut [ResolvedCite],
    frames: &Frames<'_>,
    audited: &Frame,
) {
    let gone = |c: &ResolvedCite| -> Option<String> {
        if c.kind != CiteClass::Path || c.frame != audited.label || c.evidenced {
            return None;
        }
        match c.status {
            CiteStatus::Stale { .. } => {}
            CiteStatus::Skipped { .. } if c.stale_if_history_knows.is_some() => {}
            _ => return None,
        }
        let text = c.text.trim_end_matches('/');
        let tried = match c.tier {
            Tier::Explicit => reader_paths(&c.record, text)?,
            Tier::Inferred => backticked_paths(&c.record, text)?,
        };
        match c.tier {
            Tier::Explicit => tried.first().cloned(),
            Tier::Inferred => tried.last().cloned(),
        }
    };
    let wanted: Vec<String> = resolved.iter().filter_map(gone).collect();
    if wanted.is_empty() {
        return;
    }
    let fates = frames.fates_of(&wanted);
    for cite in resolved.iter_mut() {
        let Some(fate) = gone(cite).and_then(|path| fates.get(&path)) else {
            continue;
        };
        // The repository's own history says this was one of its paths: a
        // file it renamed, or one it deleted while the record was there. A
        // path deleted before the record existed was not the record's to
        // cite (deform's contributing guide names `deformdemo/test.py`, of a
        // repository split off five years before the guide was written).
        if cite.stale_if_history_knows.is_some()
            && let PathFate::Deleted { commit } = fate
            && !frames.repo().had_path_before(commit, &cite.record)
        {
            continue;
        }
        if let Some(why) = cite.stale_if_history_knows.take() {
            cite.status = CiteStatus::stale(why);
        }
        if let CiteStatus::Stale { why, suggestion } = &mut cite.status {
            why.push_str(&format!("; {fate}"));
            if let PathFate::Renamed { to, .. } = fate {
                *suggestion = Some(to.clone());
            }
        }
    }
}
