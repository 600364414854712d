//! Stage 4, the citation evidence: what became of a stale path's target in
//! the history behind the snapshot (renamed, deleted), said on the finding,
//! with a rename as its did-you-mean.

use crate::checks::cites::locate::{backticked_paths, reader_paths};
use crate::checks::cites::model::{CiteClass, CiteStatus, ResolvedCite, Tier};
use crate::frames::{Frame, Frames};
use std::collections::{BTreeMap, BTreeSet};

use crate::checks::cites::labels::sphinx_folder;
use crate::snapshot::git::{FateChain, PathFate};
use crate::snapshot::{has_file, has_folder};

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
    let fates = followed(frames, audited, frames.fates_of(&wanted));
    for cite in resolved.iter_mut() {
        let Some(chain) = gone(cite).and_then(|path| fates.get(&path)) else {
            continue;
        };
        let fate = &chain.steps[0];
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
        if let CiteStatus::Stale {
            why,
            suggestion,
            guessed,
        } = &mut cite.status
        {
            why.push_str(&format!("; {chain}"));
            if let Some(to) = chain.suggestion() {
                *suggestion = Some(to.to_owned());
                *guessed = false;
            }
        }
    }
}

/// Each path's fate followed through the renames after it: a rename to a
/// path the audited tree lacks too is asked where that path went, for every
/// such path at once, up to [`FateChain::MAX_STEPS`] renames in a row.
fn followed(
    frames: &Frames<'_>,
    audited: &Frame,
    fates: BTreeMap<String, PathFate>,
) -> BTreeMap<String, FateChain> {
    let paths = audited.snapshot.paths();
    let there = |to: &str| has_file(paths, to) || has_folder(paths, to);
    let mut chains: BTreeMap<String, FateChain> = fates
        .into_iter()
        .map(|(path, fate)| {
            let lands = matches!(&fate, PathFate::Renamed { to, .. } if there(to));
            let chain = FateChain {
                steps: vec![fate],
                lands,
            };
            (path, chain)
        })
        .collect();
    for _ in 1..FateChain::MAX_STEPS {
        let going_on: Vec<String> = chains
            .values()
            .filter_map(|chain| match chain.steps.last() {
                Some(PathFate::Renamed { to, .. }) if !chain.lands => Some(to.clone()),
                _ => None,
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if going_on.is_empty() {
            break;
        }
        let next = frames.fates_of(&going_on);
        let mut moved = false;
        for chain in chains.values_mut() {
            let Some(PathFate::Renamed { to, commit }) = chain.steps.last() else {
                continue;
            };
            if chain.lands {
                continue;
            }
            // The newest removal of the new path must come after the rename
            // that made it (a path of that name removed long before is
            // another file's history).
            if let Some(fate) = next.get(to).filter(|fate| {
                let later = fate.commit();
                later != commit && frames.repo().is_ancestor(commit, later).unwrap_or(false)
            }) {
                chain.lands = matches!(fate, PathFate::Renamed { to, .. } if there(to));
                chain.steps.push(fate.clone());
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    chains
}

/// A stale path's suggestion in the record's own syntax, where the record
/// wrote a link or a document name rather than a repository path:
/// - a Sphinx document reference gets a document name (`:doc:`contexts`` on
///   `docs/getting/tutorial.rst`, its page now `docs/user/contexts.rst`, gets
///   `/user/contexts`: rooted at the source folder, or relative where the new
///   page is at or below the record's folder); a file outside the record's
///   Sphinx project is no document of it, and is not suggested;
/// - a relative link gets a path relative to the record, a built page's
///   `.html`, a leading `./` and a `#fragment` kept as written
///   (`unittest.html` → `how-to/unittest.html`);
/// - a link to the repository's hosted page keeps its address, the path in it
///   replaced.
pub(crate) fn in_record_syntax(resolved: &mut [ResolvedCite], audited: &Frame) {
    let paths = audited.snapshot.paths();
    for cite in resolved.iter_mut() {
        if cite.kind != CiteClass::Path {
            continue;
        }
        let Some(written) = cite.destination.clone() else {
            continue;
        };
        let CiteStatus::Stale { suggestion, .. } = &mut cite.status else {
            continue;
        };
        // Only a path of the tree is rewritten: an anchor's suggestion
        // (`guide.md#setup`) is written as the record writes it already.
        let Some(file) = suggestion.take_if(|s| has_file(paths, s) || has_folder(paths, s)) else {
            continue;
        };
        *suggestion = if cite.document {
            sphinx_folder(&cite.record, audited.snapshot.as_ref())
                .and_then(|folder| document_name(&cite.record, &folder, &file))
        } else if written.contains("://") {
            let old = cite.text.split('#').next().unwrap_or(&cite.text);
            let old = old.trim_start_matches('/');
            Some(match written.rfind(old).filter(|_| !old.is_empty()) {
                Some(at) => format!("{}{file}{}", &written[..at], &written[at + old.len()..]),
                None => file,
            })
        } else if written.starts_with('/') {
            Some(file)
        } else {
            Some(link_to(&cite.record, &file, &written))
        };
    }
}

/// `file` (repository-relative) as a link on the page `record` writes it:
/// relative to the record's folder, as a built page (`.html`) when the link
/// it replaces (`written`) named one.
fn link_to(record: &str, file: &str, written: &str) -> String {
    let here: Vec<&str> = record.split('/').collect();
    let here = &here[..here.len() - 1];
    let there: Vec<&str> = file.split('/').collect();
    let shared = here.iter().zip(&there).take_while(|(a, b)| a == b).count();
    let mut link = "../".repeat(here.len() - shared);
    link.push_str(&there[shared..].join("/"));
    let page = written.split(['#', '?']).next().unwrap_or(written);
    if page.ends_with(".html")
        && let Some(stem) = [".rst", ".md", ".txt"]
            .iter()
            .find_map(|suffix| link.strip_suffix(suffix))
    {
        link = format!("{stem}.html");
    }
    if written.starts_with("./") && !link.starts_with("../") {
        link.insert_str(0, "./");
    }
    // The part after the page (`#requirements`) goes with the page.
    link.push_str(&written[page.len()..]);
    link
}

/// `file` (repository-relative) as the document name a page `record` of the
/// project under `folder` writes for it.
fn document_name(record: &str, folder: &str, file: &str) -> Option<String> {
    let inside = if folder.is_empty() {
        file
    } else {
        file.strip_prefix(folder)?.strip_prefix('/')?
    };
    let document = [".rst", ".md", ".txt", ".ipynb"]
        .iter()
        .find_map(|suffix| inside.strip_suffix(suffix))?;
    let record_inside = if folder.is_empty() {
        record
    } else {
        record.strip_prefix(folder)?.strip_prefix('/')?
    };
    let here = record_inside.rsplit_once('/').map_or("", |(dir, _)| dir);
    let relative = if here.is_empty() {
        Some(document)
    } else {
        document
            .strip_prefix(here)
            .and_then(|rest| rest.strip_prefix('/'))
    };
    Some(relative.map_or_else(|| format!("/{document}"), str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::{document_name, link_to};

    #[test]
    fn a_page_is_suggested_as_the_document_a_record_would_name() {
        let at = |file| document_name("docs/user/contexts.rst", "docs", file);
        assert_eq!(at("docs/user/wrapping.rst").as_deref(), Some("wrapping"));
        assert_eq!(
            at("docs/advanced/wrapping.rst").as_deref(),
            Some("/advanced/wrapping")
        );
        assert_eq!(
            at("docs/user/deep/numpy.ipynb").as_deref(),
            Some("deep/numpy")
        );
        assert_eq!(
            document_name("index.rst", "", "guide/setup.md").as_deref(),
            Some("guide/setup")
        );
    }

    #[test]
    fn a_link_is_suggested_relative_to_its_record() {
        assert_eq!(
            link_to(
                "doc/en/adopt.rst",
                "doc/en/how-to/unittest.rst",
                "unittest.html"
            ),
            "how-to/unittest.html"
        );
        assert_eq!(
            link_to(
                "docs/guide/intro.md",
                "docs/reference/api.md",
                "../api.md#top"
            ),
            "../reference/api.md#top"
        );
        assert_eq!(
            link_to("README.md", "docs/setup.md", "setup.md"),
            "docs/setup.md"
        );
        assert_eq!(
            link_to("docs/intro.mdx", "docs/install.md", "./setup.md"),
            "./install.md"
        );
        assert_eq!(
            link_to("docs/a/b.md", "tools/x.py", "../../x.py"),
            "../../tools/x.py"
        );
    }

    #[test]
    fn a_file_no_document_of_the_project_is_not_suggested() {
        let at = |file| document_name("docs/user/contexts.rst", "docs", file);
        assert_eq!(at("src/pint/wrapping.py"), None);
        assert_eq!(at("docs/_static/logo.png"), None);
        assert_eq!(at("docsite/user/wrapping.rst"), None);
    }
}
