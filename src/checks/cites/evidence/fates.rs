//! Stage 4, the citation evidence: what became of a stale path's target in
//! the history behind the snapshot (renamed, deleted), said on the finding,
//! with a rename as its did-you-mean.

use crate::checks::cites::locate::{backticked_paths, reader_paths};
use crate::checks::cites::model::{CiteClass, CiteStatus, ResolvedCite, Tier};
use crate::frames::{Frame, Frames};
use std::collections::{BTreeMap, BTreeSet};

use crate::checks::cites::labels::sphinx_folder;
use crate::snapshot::git::{FateChain, PathFate};
use crate::snapshot::{Snapshot, has_file, has_folder};

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
        let Some((from, chain)) = gone(cite).and_then(|path| fates.get(&path).map(|c| (path, c)))
        else {
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
                cite.renamed_from = Some(from.clone());
                // A rename is followed only as far as the content went: a
                // file that kept too little of itself, a folder most of whose
                // files are gone, is a name that went on, not what was cited.
                // A rename the record never saw (made before it existed)
                // is another file's history: the cite never named what the
                // new path holds.
                let before_the_record = match fate {
                    PathFate::Renamed { commit, .. } => {
                        !frames.repo().had_path_before(commit, &cite.record)
                    }
                    _ => false,
                };
                let left = if before_the_record {
                    Some(format!(
                        "a rename made before `{}` was written",
                        cite.record
                    ))
                } else {
                    content_left(frames.repo(), audited, (&from, None, &[]), chain, to)
                };
                match left {
                    Some(left) => {
                        why.push_str(&format!("; {left}"));
                        *guessed = true;
                    }
                    None => *guessed = false,
                }
            }
        }
    }
}

/// Why the content of `from` did not go with the renames of `chain` to `to`
/// in the audited tree, when it did not: a file keeps the majority of its
/// lines as they were when the record cited it (else just before its first
/// rename); a folder, the majority of its files (by their names inside it). None when it went, or when what
/// it was cannot be read (the rename is then trusted, as git paired it).
pub(super) fn content_left(
    repo: &crate::snapshot::GitRepo,
    audited: &Frame,
    (from, cited_at, named): (&str, Option<git2::Oid>, &[String]),
    chain: &FateChain,
    to: &str,
) -> Option<String> {
    // What was cited: the path as the commit that wrote the cite had it,
    // else as it was just before its first rename (a file emptied into a
    // shim before it moved is still not what the record meant).
    let before = match cited_at {
        Some(commit) => commit,
        None => {
            let first = repo.commit_id(chain.steps.first()?.commit())?;
            repo.first_parent_of(first)?
        }
    };
    // Moved into a folder the project keeps retired material in (`.archive/`,
    // `docs/old/`): put away, not given a new home; a sentence about today
    // does not mean it.
    let folders = |p: &str| -> Vec<String> {
        let p = p.trim_end_matches('/');
        p.rsplit_once('/')
            .map(|(folder, _)| folder.split('/').map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let archived = |p: &str| {
        folders(p)
            .iter()
            .any(|f| crate::checks::cites::exemptions::frozen_docs::is_archive_folder(f))
    };
    if archived(to) && !archived(from) {
        return Some(format!(
            "but `{to}` is in a folder the project keeps retired material in: put away, not moved"
        ));
    }
    let snapshot = audited.snapshot.as_ref();
    let lines = |bytes: &[u8]| -> BTreeSet<String> {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    };
    if let Some((_, was)) = repo.file_at(before, from) {
        let now = snapshot.read(to).ok()??;
        // What the sentence names of the file (a type it defined) went
        // elsewhere: the name stayed, the content the record means did not.
        if let Some(name) = named
            .iter()
            .find(|name| super::lines::defines(name, &was) && !super::lines::defines(name, &now))
        {
            return Some(format!(
                "but `{to}` no longer defines `{name}`, which the record's sentence names"
            ));
        }
        let (was, now) = (lines(&was), lines(&now));
        let kept = was.intersection(&now).count();
        if !was.is_empty() && kept * 2 < was.len() {
            return Some(format!(
                "but `{to}` holds {kept} of the {} lines `{from}` had: its content did not go with the name",
                was.len()
            ));
        }
        // A file split in the commit that renamed it: another file that
        // commit added took a good part of it (a quarter of its lines).
        let first = chain.steps.first()?;
        let renamed_to = match first {
            PathFate::Renamed { to, .. } => to.as_str(),
            _ => to,
        };
        let renaming = repo.commit_id(first.commit())?;
        let parent = repo.first_parent_of(renaming)?;
        const ADDED_READ: usize = 64;
        let split = repo
            .changes_between(parent, renaming)
            .into_iter()
            .filter_map(|(old, new)| old.is_none().then_some(new).flatten())
            .filter(|added| added != renamed_to && added != to)
            .take(ADDED_READ)
            .find(|added| {
                repo.file_at(renaming, added).is_some_and(|(_, bytes)| {
                    was.len() >= 8 && was.intersection(&lines(&bytes)).count() * 4 >= was.len()
                })
            });
        return split.map(|other| {
            format!(
                "but the commit that renamed it split `{from}`: `{other}` took a part of it too"
            )
        });
    }
    let then = repo.tree_snapshot(&before.to_string()).ok()?;
    let inside = |paths: &[String], folder: &str| -> BTreeSet<String> {
        let prefix = format!("{}/", folder.trim_end_matches('/'));
        let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
        paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .map(|p| p[prefix.len()..].to_owned())
            .collect()
    };
    let now = inside(snapshot.paths(), to);
    // The files of `folder` (at `at`) that `to/` holds today by their names
    // and most of their lines: folders merged into one keep each other's
    // names, not content. (Up to `READ` files are read; the rest count by
    // their names.)
    const READ: usize = 64;
    let to_folder = to.trim_end_matches('/');
    let kept_of = |tree: &[String], folder: &str, at: git2::Oid| -> (usize, usize) {
        let was = inside(tree, folder);
        let folder = folder.trim_end_matches('/');
        let common: Vec<&String> = was.intersection(&now).collect();
        let rewritten = common
            .iter()
            .take(READ)
            .filter(|name| {
                let old = repo
                    .file_at(at, &format!("{folder}/{name}"))
                    .map(|(_, bytes)| lines(&bytes));
                let new = snapshot
                    .read(&format!("{to_folder}/{name}"))
                    .ok()
                    .flatten()
                    .map(|bytes| lines(&bytes));
                match (old, new) {
                    (Some(old), Some(new)) => {
                        !old.is_empty() && old.intersection(&new).count() * 2 < old.len()
                    }
                    _ => false,
                }
            })
            .count();
        (common.len() - rewritten, was.len())
    };
    let (kept, had) = kept_of(then.paths(), from, before);
    if had > 0 && kept * 2 < had {
        return Some(format!(
            "but `{to}/` holds {kept} of the {had} files `{from}/` had: its content did not go with the name"
        ));
    }
    // Another folder the renaming commit took away that `to/` holds as much
    // of: folders merged into one (identical copies paired to any of them),
    // not this one renamed.
    let renaming = repo.commit_id(chain.steps.first()?.commit())?;
    let parent = repo.first_parent_of(renaming)?;
    let depth = from.trim_end_matches('/').split('/').count();
    // The folders whose files went into `to/` first, then those deleted.
    const WEIGHED: usize = 16;
    let folder_of = |path: &str| {
        let segments: Vec<&str> = path.split('/').collect();
        (segments.len() > depth).then(|| segments[..depth].join("/"))
    };
    let into = format!("{to_folder}/");
    let mut removed: Vec<String> = Vec::new();
    let changes = repo.changes_between(parent, renaming);
    let sources = changes
        .iter()
        .filter(|(_, new)| new.as_deref().is_some_and(|n| n.starts_with(&into)))
        .chain(changes.iter().filter(|(_, new)| new.is_none()));
    for (old, _) in sources {
        if let Some(folder) = old.as_deref().and_then(folder_of)
            && folder != from.trim_end_matches('/')
            && folder != to_folder
            && !removed.contains(&folder)
        {
            removed.push(folder);
            if removed.len() == WEIGHED {
                break;
            }
        }
    }
    let at_parent = repo.tree_snapshot(&parent.to_string()).ok()?;
    let (own, _) = kept_of(at_parent.paths(), from, parent);
    removed
        .iter()
        .find(|other| kept_of(at_parent.paths(), other, parent).0 >= own.max(1))
        .map(|other| {
            format!(
                "but `{to}/` holds as much of `{other}/`, which the same commit took away: folders merged, not this one renamed"
            )
        })
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
    // The sites the audited tree builds, read once if a link is mended.
    let mut renderers: Option<crate::checks::cites::renderers::Renderers> = None;
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
        // A link its page's site reads inside its own folder stays there:
        // a new target outside it is a dead link on the site, though the
        // forge would open it.
        let folder = cite.record.rsplit_once('/').map_or("", |(f, _)| f);
        let read_here = written.split(['#', '?']).next().unwrap_or_default();
        if !written.contains("://")
            && !written.starts_with('/')
            && let Some(here) = crate::snapshot::joined(folder, read_here)
        {
            let sites = renderers.get_or_insert_with(|| {
                crate::checks::cites::renderers::Renderers::read(audited.snapshot.as_ref())
            });

            cite.leaves_site = sites
                .leaves_site(&cite.record, &file)
                .filter(|_| sites.leaves_site(&cite.record, &here).is_none())
                .or_else(|| sites.addresses_only(&cite.record));
            // A Sphinx page's link is read on the built site, which holds
            // what the project's source folder builds (and the files its
            // configuration copies to the site's root, under their own
            // addresses): never a path of the tree outside that folder.
            if cite.leaves_site.is_none()
                && let Some(source) = sphinx_folder(&cite.record, audited.snapshot.as_ref())
            {
                let inside = |p: &str| {
                    source.is_empty()
                        || p.strip_prefix(source.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                };
                // Nor a page its `exclude_patterns` keep out of the build
                // (a template a build step copies into the pages it builds).
                let excluded = |p: &str| excluded_from_build(audited.snapshot.as_ref(), &source, p);
                if inside(&here) && (!inside(&file) || (excluded(&file) && !excluded(&here))) {
                    cite.leaves_site = Some("Sphinx");
                }
            }
        }
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
        } else if let Some(rest) = cite
            .renamed_from
            .as_deref()
            .and_then(|from| from_the_root(&cite.record, from, &written))
        {
            // Written from the repository's root, not the page's folder (a
            // `.github/` instructions file naming `docs/x.md`): the new path
            // is written from the same base.
            Some(format!("{file}{rest}"))
        } else {
            Some(link_to(&cite.record, &file, &written))
        };
    }
}

/// When the relative link `written` named its old target (`cited`, from the
/// root) read from the repository's root rather than from `record`'s
/// folder: what follows its path (`#fragment`), to follow the new one.
fn from_the_root<'w>(record: &str, cited: &str, written: &'w str) -> Option<&'w str> {
    let old = cited
        .split('#')
        .next()
        .unwrap_or(cited)
        .trim_end_matches('/');
    let page = written.split(['#', '?']).next().unwrap_or(written);
    // A name with no folder (`seccomp.md`) read from the root is a file of
    // the root, which a page that sat at the root when it was written
    // named from its own folder too: the page moved since, and its link is
    // read from where the page is (`../node/seccomp.md`), as its renderer
    // reads every link.
    if !old.contains('/') {
        return None;
    }
    let folder = record.rsplit_once('/').map_or("", |(folder, _)| folder);
    let from_page = crate::snapshot::joined(folder, page);
    (!folder.is_empty()
        && from_page.as_deref().map(|p| p.trim_end_matches('/')) != Some(old)
        && page.trim_start_matches("./").trim_end_matches('/') == old)
        .then(|| &written[page.len()..])
}

/// Whether the Sphinx project of the source folder `source` leaves `path`
/// (repository-relative, inside that folder) out of its build: a pattern
/// of its `conf.py`'s `exclude_patterns` matches the path or a folder it is
/// in, as Sphinx prunes an excluded folder whole.
fn excluded_from_build(snapshot: &dyn crate::snapshot::Snapshot, source: &str, path: &str) -> bool {
    let conf = crate::checks::cites::labels::conf_of(source, snapshot.paths());
    let Some(text) = snapshot.read_text_to_parse(&conf).ok().flatten() else {
        return false;
    };
    let patterns = crate::records::sphinx_conf::SphinxConf::of(&text).exclude_patterns;
    let excluded = crate::checks::cites::labels::exclude_set(&patterns);
    crate::checks::cites::labels::excluded_by(&excluded, source, path)
}

/// `file` (repository-relative) as a link on the page `record` writes it:
/// relative to the record's folder, as a built page (`.html`) when the link
/// it replaces (`written`) named one.
pub(super) fn link_to(record: &str, file: &str, written: &str) -> String {
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
