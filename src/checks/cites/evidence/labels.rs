//! Citations, after resolution: Sphinx cross-references held to their
//! history. A `:ref:` label no page of the project defines now is set aside as
//! one a docstring or an extension may define (`label-elsewhere`), and a
//! Python role's object the static reading does not find as one made at
//! import time (`unresolved-object`) — unless, at the commit that wrote the
//! cite into its record, the pages defined the label or the same reading found
//! the object: then it went since, and the cite is stale.

use std::collections::BTreeMap;
use std::sync::Arc;

use git2::Oid;

use super::{History, short};
use crate::checks::cites::exemptions::label_elsewhere;
use crate::checks::cites::labels::{
    LabelFate, ProjectLabels, ProjectPages, conf_of, sphinx_folder, sphinx_folder_where,
};
use crate::checks::cites::model::Exemption;
use crate::checks::cites::model::{AskedObject, CiteStatus, ObjectRole, ResolvedCite};
use crate::checks::cites::pyobjects::{ObjectFate, PythonTree};
use crate::frames::Frame;
use crate::records::sphinx_conf::SphinxConf;
use crate::snapshot::Snapshot;
use crate::snapshot::git::GitSnapshot;

pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    let repo = history.repo();
    let audited_commit = audited
        .commit
        .as_deref()
        .and_then(|c| git2::Oid::from_str(c).ok());
    // The project's labels at each writing commit, read once.
    let mut then: BTreeMap<(Oid, String), Option<Arc<ProjectPages>>> = BTreeMap::new();
    let mut trees: BTreeMap<Oid, Option<PythonTree>> = BTreeMap::new();
    let mut sisters = Sisters::default();
    // Each project's pages at the audited commit's parent, read when a
    // label's page is asked whether its text left with the label.
    let mut at_parent: BTreeMap<String, Option<Arc<ProjectPages>>> = BTreeMap::new();
    // Per project folder: its files that are no page and hold label targets.
    let mut beyond_pages: BTreeMap<String, Vec<(String, Arc<str>)>> = BTreeMap::new();
    // The modules whose docstrings each project's pages pull in today.
    let mut docstrings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for cite in resolved.iter_mut() {
        // Set aside, or stale by a static reading that proves it absent:
        // the history says whether it was there when the record cited it.
        if let (
            Some(asked),
            CiteStatus::Skipped {
                exemption: Exemption::UnresolvedObject | Exemption::Intersphinx,
                ..
            }
            | CiteStatus::Stale { .. },
        ) = (cite.objects.clone(), &cite.status)
        {
            object_then(cite, &asked, history, &mut trees, audited, texts);
            continue;
        }
        // Set aside as another project's or an extension's, or stale as no
        // page's: the history says which page defined it, if one did.
        // (A label in an earlier release's notes that the path evidence
        // found in no tree is asked too: the pages may have defined it.)
        let undefined = cite.label.is_some()
            && match cite.status {
                CiteStatus::Skipped {
                    exemption: Exemption::LabelElsewhere,
                    ..
                }
                | CiteStatus::Stale { .. } => true,
                CiteStatus::Skipped {
                    exemption: Exemption::EarlierRelease,
                    ..
                } => cite.earlier_notes.is_some(),
                _ => false,
            };
        if !undefined || cite.frame != audited.label {
            continue;
        }
        let Some(folder_now) = sphinx_folder(&cite.record, audited.snapshot.as_ref()) else {
            continue;
        };
        let Some((writing, record_then)) = history.writing_of(cite, texts) else {
            continue;
        };
        // At the writing commit; else at the audited commit's parent (a
        // label added after the cite and removed by the change under audit).
        for (position, when) in read_at(writing) {
            let Some(commit) = history.commit_at(position) else {
                continue;
            };
            // The project the page belonged to then: its source folder may
            // have had another name (`doc/` before `docs/`).
            let record = if position == writing {
                record_then.as_str()
            } else {
                cite.record.as_str()
            };
            let folder = sphinx_folder_where(record, |conf| {
                repo.file_at(commit, conf).is_some_and(|(_, bytes)| {
                    !conf.ends_with(".in")
                        || crate::checks::cites::labels::reads_as_sphinx_conf(
                            &String::from_utf8_lossy(&bytes),
                        )
                })
            })
            .unwrap_or_else(|| folder_now.clone());
            let git_dir = history.repo().git_dir().to_path_buf();
            let modules = docstrings
                .entry(folder_now.clone())
                .or_insert_with(|| {
                    ProjectPages::read(audited.snapshot.as_ref(), &folder_now, &|_| true)
                        .docstring_modules()
                })
                .clone();
            let pages = then
                .entry((commit, folder.clone()))
                .or_insert_with(|| {
                    // (`""` is the whole tree: a project at the root.) The
                    // modules whose docstrings the pages pull in today are
                    // read too, wherever they are.
                    let mut scope = vec![folder.clone()];
                    scope.extend(modules.iter().cloned());
                    let snapshot = GitSnapshot::open_scoped(&git_dir, commit, &scope).ok()?;
                    // A page as the audited tree has it defines nothing the
                    // audited tree lacks: only the pages that differ are read.
                    let pages: Vec<&str> = snapshot.paths().iter().map(String::as_str).collect();
                    let then_ids = repo.path_ids(commit, &pages);
                    let now_ids = audited_commit.map(|now| repo.path_ids(now, &pages));
                    let changed: std::collections::BTreeSet<String> = pages
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| {
                            now_ids
                                .as_ref()
                                .is_none_or(|now| now.get(*i) != then_ids.get(*i))
                        })
                        .map(|(_, p)| (*p).to_owned())
                        .collect();
                    let read = |page: &str| changed.contains(page);
                    let mut pages = ProjectPages::read(&snapshot, &folder, &read);
                    pages.add_docstrings(&snapshot, &modules, &read);
                    Some(Arc::new(pages))
                })
                .clone();
            let Some(pages) = pages else {
                continue;
            };
            if let LabelFate::Defined(page) = pages.labels().fate(&cite.text) {
                // Moved, not gone: the label lives on in a sister project
                // this one's intersphinx reaches (the skip stands).
                if let CiteStatus::Skipped { why, .. } = &mut cite.status
                    && let Some(sister) = sisters.defining(audited, &folder_now, &cite.text)
                {
                    *why = label_elsewhere::moved_to_sister(
                        &cite.text,
                        &format!("{page} defined it {when} (at {})", short(commit)),
                        &sister,
                    );
                    cite.evidenced = true;
                    break;
                }
                // The page that defined it left the repository whole, or
                // stayed and now sends its readers to another project
                // (IPython's messaging page, once the spec went to
                // jupyter_client: "see :ref:`jupyterclient:messaging`"), and
                // intersphinx is loaded: the label may be served from there,
                // which no static reading sees. Absence is not proven; the
                // skip stands with why.
                // (Not when the change under audit removed the label: the
                // parent's pages defined it, so it did not leave with them.)
                let removed_by_change = {
                    let git_dir = history.repo().git_dir().to_path_buf();
                    let parent = history.commit_at(1);
                    at_parent
                        .entry(folder_now.clone())
                        .or_insert_with(|| {
                            let snapshot = GitSnapshot::open_scoped(
                                &git_dir,
                                parent?,
                                std::slice::from_ref(&folder_now),
                            )
                            .ok()?;
                            Some(Arc::new(ProjectPages::read(
                                &snapshot,
                                &folder_now,
                                &|_| true,
                            )))
                        })
                        .as_ref()
                        .is_some_and(|pages| {
                            matches!(pages.labels().fate(&cite.text), LabelFate::Defined(_))
                        })
                };
                if let CiteStatus::Skipped { why, .. } = &mut cite.status
                    && !removed_by_change
                {
                    let conf = sisters.conf(audited.snapshot.as_ref(), &folder_now);
                    let then = format!("{page} defined it {when} (at {})", short(commit));
                    let prefix = if folder_now.is_empty() {
                        String::new()
                    } else {
                        format!("{folder_now}/")
                    };
                    let extensions = crate::checks::cites::labels::local_extensions(
                        &conf,
                        audited.snapshot.as_ref().paths(),
                    );
                    let written_by = extensions.first().and_then(|extension| {
                        let texts = beyond_pages.entry(prefix.clone()).or_insert_with(|| {
                            crate::checks::cites::labels::label_texts_beyond_pages(
                                audited.snapshot.as_ref(),
                                &prefix,
                            )
                        });
                        crate::checks::cites::labels::label_text_beyond_pages(texts, &cite.text)
                            .map(|source| (source, extension.clone()))
                    });
                    let moved = match page_now(repo, audited, &page) {
                        _ if let Some((source, extension)) = &written_by => Some(
                            label_elsewhere::written_from(&cite.text, &then, source, extension),
                        ),
                        PageNow::Deleted if conf.has_intersphinx() => {
                            Some(label_elsewhere::page_left(&cite.text, &then))
                        }
                        PageNow::Present(now)
                            if conf.has_intersphinx()
                                && shrank_to_a_pointer(repo, commit, &page, audited, &now) =>
                        {
                            hands_off(audited.snapshot.as_ref(), &now, &conf).map(|reference| {
                                label_elsewhere::page_hands_off(&cite.text, &then, &now, &reference)
                            })
                        }
                        _ => None,
                    };
                    if let Some(moved) = moved {
                        *why = moved;
                        cite.evidenced = true;
                        break;
                    }
                }
                cite.status = CiteStatus::Stale {
                    why: format!(
                        "no page of the Sphinx project defines the label `{}` at {}; {page} defined it {when} (at {})",
                        cite.text,
                        audited.label,
                        short(commit)
                    ),
                    suggestion: None,
                    guessed: false,
                };
                cite.evidenced = true;
                break;
            }
        }
    }
}

/// The repository's other Sphinx projects at the audited tree, read only
/// when a label the history says went is asked of them.
#[derive(Default)]
struct Sisters {
    /// Source folder → its labels.
    labels: BTreeMap<String, Arc<ProjectLabels>>,
    /// Project folder → its `conf.py`, read.
    confs: BTreeMap<String, Arc<SphinxConf>>,
}

impl Sisters {
    /// The page of another Sphinx project of the repository that defines
    /// `label` at the audited tree, when the project at `folder` can reach it:
    /// its `conf.py` loads intersphinx and names the other project's folder
    /// (a path or its last part, as a string: invoke's `sites/www` maps
    /// `"docs"` to the build of `sites/docs`, where its changelog's labels
    /// moved). A label moved to a sister project is not gone.
    fn defining(&mut self, audited: &Frame, folder: &str, label: &str) -> Option<String> {
        let snapshot = audited.snapshot.as_ref();
        let conf = self.conf(snapshot, folder);
        if !conf.has_intersphinx() {
            return None;
        }
        let sisters = snapshot.paths().iter().filter_map(|path| {
            let sister = if path == "conf.py" {
                ""
            } else {
                path.strip_suffix("/conf.py")?
            };
            let named = !sister.is_empty()
                && (conf.literals.contains(sister)
                    || sister
                        .rsplit('/')
                        .next()
                        .is_some_and(|last| conf.literals.contains(last)));
            (sister != folder && named).then(|| sister.to_owned())
        });
        for sister in sisters.collect::<Vec<_>>() {
            let labels = self
                .labels
                .entry(sister.clone())
                .or_insert_with(|| Arc::new(ProjectLabels::of(snapshot, &sister)));
            if let LabelFate::Defined(page) = labels.fate(label) {
                return Some(page);
            }
        }
        None
    }

    fn conf(&mut self, snapshot: &dyn Snapshot, folder: &str) -> Arc<SphinxConf> {
        let read = || {
            let text = snapshot
                .read_text_to_parse(&conf_of(folder, snapshot.paths()))
                .ok()
                .flatten();
            Arc::new(SphinxConf::of(text.as_deref().unwrap_or("")))
        };
        Arc::clone(self.confs.entry(folder.to_owned()).or_insert_with(read))
    }
}

/// Where a page that defined a label is at the audited tree.
enum PageNow {
    /// There, at this path (its own, or the one a rename chain led to).
    Present(String),
    /// Deleted: the repository no longer has its text.
    Deleted,
    /// Split, or gone past the history read.
    Unknown,
}

/// Where `page` is now: a rename chain is followed to its end
/// (`messaging.txt` renamed `messaging.rst`), a few links at most.
fn page_now(repo: &crate::snapshot::git::GitRepo, audited: &Frame, page: &str) -> PageNow {
    use crate::snapshot::git::PathFate;
    const LOOK_BACK: usize = 20_000;
    const RENAMES: usize = 8;
    let from = audited.commit.as_deref().unwrap_or("HEAD");
    // A Sphinx document is its name, whatever its source suffix
    // (`messaging.txt` became `messaging.rst`).
    let here = |path: &str| {
        let document = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
        audited.snapshot.paths().iter().find(|p| {
            p.as_str() == path
                || p.rsplit_once('.').is_some_and(|(stem, suffix)| {
                    stem == document && ["rst", "txt", "md"].contains(&suffix)
                })
        })
    };
    let mut path = page.to_owned();
    for _ in 0..RENAMES {
        if let Some(now) = here(&path) {
            return PageNow::Present(now.clone());
        }
        match repo
            .fates_of(std::slice::from_ref(&path), from, LOOK_BACK)
            .remove(&path)
        {
            Some(PathFate::Deleted { .. }) => return PageNow::Deleted,
            Some(PathFate::Renamed { to, .. }) => path = to,
            _ => return PageNow::Unknown,
        }
    }
    PageNow::Unknown
}

/// Whether the page that defined a label (`then`, at `commit`) is now (`now`)
/// a pointer to where its text went: under a quarter of its size then.
fn shrank_to_a_pointer(
    repo: &crate::snapshot::git::GitRepo,
    commit: Oid,
    then: &str,
    audited: &Frame,
    now: &str,
) -> bool {
    let before = repo
        .file_at(commit, then)
        .map_or(0, |(_, bytes)| bytes.len());
    let after = audited
        .snapshot
        .size(now)
        .ok()
        .flatten()
        .map_or(u64::MAX, |size| size);
    after.saturating_mul(4) < before as u64
}

/// The first cross-reference on `page` into another project through
/// intersphinx (`:ref:`jupyterclient:messaging``: a prefix `conf.py` names as
/// a string, its mapping's key), if it has one.
fn hands_off(
    snapshot: &dyn crate::snapshot::Snapshot,
    page: &str,
    conf: &SphinxConf,
) -> Option<String> {
    static PREFIXED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let prefixed = PREFIXED.get_or_init(|| {
        regex::Regex::new(r":(?:std:)?(?:ref|doc|label):`(?:[^`<]*<)?([A-Za-z][\w.-]*):[^`:>]+>?`")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let text = snapshot.read_text_to_parse(page).ok().flatten()?;
    prefixed
        .captures_iter(&text)
        .find(|caps| {
            caps.get(1)
                .is_some_and(|p| conf.literals.contains(p.as_str()))
        })
        .and_then(|caps| caps.get(0))
        .map(|whole| whole.as_str().chars().take(200).collect())
}

/// Where the history is read for a name undefined today: at the commit that
/// wrote the cite, else at the audited commit's parent (what the change under
/// audit removed), with the words the finding says it in.
/// How a finding says the history was read at the writing commit.
const WHEN_CITED: &str = "when the record cited it";

/// How a finding says the history was read at the branch commit that wrote
/// a line a merge brought.
const WHEN_CITED_ON_BRANCH: &str = "when the record cited it, on the branch merged later";

fn read_at(writing: usize) -> impl Iterator<Item = (usize, &'static str)> {
    std::iter::once((writing, WHEN_CITED))
        .chain((writing != 1).then_some((1, "at the audited commit's parent")))
}

/// Whether a definition the reading found (`pkg/mod.py: Class`, or a
/// module's file) is what the role names: a module for `:mod:`, a name a
/// module defines for `:func:`, `:class:`, `:attr:` and the others (h11's
/// `:attr:`headers`` was never its `headers.py`; a root `setup.py` is a
/// module, not the function `:func:`setup`` names), either for `:obj:`. For
/// a package gone whole, a module below the package's own `__init__.py`: a
/// package's name alone (`:mod:`repoze.bfg`` in a renamed project's pages)
/// is how its history is told.
fn as_the_role_names(asked: &AskedObject, at: &str) -> bool {
    let module = !at.contains(": ");
    match asked.role {
        ObjectRole::Module => module && !(asked.package_gone && at.ends_with("__init__.py")),
        ObjectRole::Name => !module,
        ObjectRole::Either => true,
    }
}

/// A Python object the static reading did not find: stale when the same
/// reading found it at the commit that wrote the cite (or, for a layout that
/// hid it, at the audited commit's parent), as the role names it
/// ([`as_the_role_names`]). One under none of today's packages is held to
/// more: the package that defined it then was on this project's own
/// first-parent line (the writing commit is).
fn object_then(
    cite: &mut ResolvedCite,
    asked: &AskedObject,
    history: &mut History<'_>,
    trees: &mut BTreeMap<Oid, Option<PythonTree>>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
) {
    if cite.frame != audited.label {
        return;
    }
    let Some((writing, record_then)) = history.writing_of(cite, texts) else {
        return;
    };
    // At the writing commit; else at the audited commit's parent
    // (a module the writing commit's layout hid from a static reading
    // — a lazily loading package — may have had it just before).
    let mut reads: Vec<(Oid, &'static str)> = read_at(writing)
        .filter_map(|(position, when)| Some((history.commit_at(position)?, when)))
        .collect();
    // A line that came in with a merge was written on the branch merged
    // there: the branch commit that wrote it is when the record cited it
    // (the first-parent line only sees the merge, whose tree may already
    // hold what the branch changed after).
    if let Some(merge) = history.commit_at(writing) {
        let repo = history.repo();
        let parents = repo.parents_of(merge);
        if let Some(branch) = parents.get(1)
            && let Some(needle) = texts
                .get(&cite.record)
                .and_then(|text| super::written_in(cite, text))
            && let Some(wrote) = repo.writing_commit(*branch, &record_then, needle)
        {
            reads.insert(1.min(reads.len()), (wrote, WHEN_CITED_ON_BRANCH));
        }
    }
    let git_dir = history.repo().git_dir().to_path_buf();
    let mut found = None;
    for (commit, when) in reads {
        let Some(tree) = trees
            .entry(commit)
            .or_insert_with(|| {
                let snapshot = GitSnapshot::open(&git_dir, commit).ok()?;
                Some(PythonTree::without_search(Arc::new(snapshot)))
            })
            .as_mut()
        else {
            continue;
        };
        found = asked.names.iter().find_map(|name| match tree.fate(name) {
            ObjectFate::Defined(at) if as_the_role_names(asked, &at) => Some((
                name,
                at.split(": ").next().unwrap_or(&at).to_owned(),
                commit,
                when,
            )),
            _ => None,
        });
        if found.is_some() {
            break;
        }
    }
    if let Some((name, at, commit, when)) = found {
        let why = if let Some(from) = &asked.imported_from {
            format!(
                "at {} this repository's `{}` is another project's ({from}); {at} defined it {when} (at {})",
                audited.label,
                cite.text,
                short(commit)
            )
        } else if asked.package_gone {
            let package = name.split('.').next().unwrap_or(name);
            format!(
                "no package of this repository is `{package}` at {}; {at} defined `{name}` {when} (at {}), and the package went since",
                audited.label,
                short(commit)
            )
        } else {
            // A class that now gets its members from another project's base
            // (quart's `Quart` from Flask's `App`): no page here documents
            // them, so the role resolves to nothing.
            let base = asked
                .inherits
                .as_ref()
                .map(|base| format!(" (its class has a base of another project, {base}, whose members no page here documents)"))
                .unwrap_or_default();
            format!(
                "no module of this repository's packages defines `{}` at {}{base}; {at} defined it {when} (at {})",
                cite.text,
                audited.label,
                short(commit)
            )
        };
        cite.status = CiteStatus::Stale {
            why,
            suggestion: None,
            guessed: false,
        };
        cite.evidenced = true;
        if when == WHEN_CITED || when == WHEN_CITED_ON_BRANCH {
            cite.held_when_written = Some(short(commit));
        }
    }
}
