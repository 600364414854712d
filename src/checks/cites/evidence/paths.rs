//! Citations, after resolution: paths and links held to their history. A path
//! or link that names nothing at the audited tree — stale, or skipped by an
//! exemption that reads prose or the tree's shape — or a backticked path that
//! resolves now only to a namesake elsewhere, is read at the commit that wrote
//! it into the record:
//!
//! - it resolved there as written (or at some commit since: sampled at 1, 2,
//!   4, … commits after the writing, so a file added after its record cited it
//!   counts): stale, whatever exemption fired, with the commit that broke it —
//!   the first on the line since where it is gone, found by halving — and what
//!   became of it there (renamed to, deleted);
//! - it never did: a backticked path is not this repository's drift (the
//!   `never-resolved` exemption); a link is still stale, and says it never
//!   worked.
//!
//! - its text was written by a rewrite of the record's paths (the line
//!   changed in place, one path swapped for another of the same file name):
//!   it is judged, as above, where the line first cited the path it held.
//!
//! Whether the tree ever had the path is asked at the sampled commits and at
//! the writing commit (a path held only between two samples is seen there).
//! A folder's fate is where its files went (split, when several folders).
//! A code label whose block the file never held, and a translated page that
//! was deleted (its source language's page serves it), are not overruled.
//!
//! A backticked bare file name is not held to its history; a link's counts
//! only beside its record (see `judge`).
//! Exemptions whose own fact is history (`earlier-release`,
//! `changelog-removal`), the tree's statement (`gitignored`) or no path at all
//! (`outside-checkout`) are not reopened.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use git2::Oid;

use super::{History, short, turning_point};
use crate::checks::cites::cfg::CitesPlan;
use crate::checks::cites::exemptions::{
    code_label, earlier_release, never_resolved, snapshot_page,
};
use crate::checks::cites::locate::{
    backticked_paths, nearest_sibling, nearest_sibling_folder, page_sources, reader_paths,
};
use crate::checks::cites::model::{CiteClass, CiteStatus, Exemption, ResolvedCite, Tier};
use crate::frames::Frame;
use crate::snapshot::git::{FateChain, PathFate};
use crate::snapshot::{has_file, has_folder};

/// What the evidence asks of one cite.
enum Question {
    /// It names nothing now (stale or skipped).
    Missing,
    /// A backticked path that resolves now only to `resolved`, a namesake
    /// away from where the record points.
    Namesake { resolved: String },
}

pub(super) fn judge(
    resolved: &mut [ResolvedCite],
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
) {
    let mut listings: BTreeMap<Oid, Option<Vec<String>>> = BTreeMap::new();
    let mut rewrites = Rewrites::new();
    // Where each path was found there, by the cites that found it: a cite
    // of the same path that found nothing at its own samples takes the same
    // story (one target, one fate), asked once every cite is read.
    let mut known: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut unfound: Vec<Unfound> = Vec::new();
    for (index, cite) in resolved.iter_mut().enumerate() {
        if never_anywhere(cite, history, audited, texts, settings) {
            continue;
        }
        let Some(asked) = ask(cite, audited, settings) else {
            continue;
        };
        let Asked {
            target,
            is_dir,
            bare,
            renamed_only,
            tried,
            written,
            question,
        } = asked;
        // Most exempt paths were never in the tree at all (a code block's
        // label, a reader's file): a few lookups of the path itself along the
        // line, and one where the record wrote it, say so. The writing commit
        // is looked at as well as the samples: a path the tree held only
        // between two of them (linkerd2's `charts/linkerd2`, from position
        // 5,499 to 7,567 of 9,115, between 4,096 and 8,192) is seen there.
        // (A stale cite, rare, is searched for in full: the finding says what
        // the history knows of it either way.)
        let seen = matches!(cite.status, CiteStatus::Stale { .. })
            || sampled(history)
                .into_iter()
                .any(|position| tried.iter().any(|p| history.id_at(position, p).is_some()));
        let Some((mut writing, name_then)) = history.writing_of(cite, texts) else {
            continue;
        };
        let Some(mut then) = paths_of(cite.tier)(&name_then, &target) else {
            continue;
        };
        // (A backticked `./x` is read from the root too, as ever.)
        if bare && !(cite.tier == Tier::Inferred && target.starts_with("./")) {
            then.truncate(1);
            // The one file of its name the tree held when the line was
            // written, wherever it stood, is what the name found then, as
            // the resolver reads a bare name today: held to its history
            // when it took a new extension in its own folder (a root
            // `dependencies.yaml` named in `.skills/after-release.md`).
            if renamed_only
                && then
                    .first()
                    .is_none_or(|beside| history.id_at(writing, beside).is_none())
            {
                then.extend(only_file_named(history, &mut listings, writing, &written));
            }
        }
        let mut then = with_sources(then, cite.tier);
        then.extend(settings.roots.iter().map(|r| format!("{r}/{written}")));
        then.extend(cite.copied_from.iter().cloned());
        // A bare `./x` is held only to what stood when it was written: a file
        // of its name that came later (a `./flake.nix` the repository grew)
        // is a namesake, not the one meant.
        let since: &[String] = if bare { &[] } else { &tried };
        let seen = seen || then.iter().any(|p| history.id_at(writing, p).is_some());
        let mut evidence = if seen {
            resolved_since(history, writing, &then, since, !bare).or_else(|| {
                // A backticked path with a folder resolves, as the resolver
                // reads it, wherever a path ends so (`crates/cli/tests/x.rs` in
                // a tree that keeps the crate under `pnpm/`): so it is read at
                // the writing commit too, the whole tree listed once per such
                // commit.
                (cite.tier == Tier::Inferred && written.contains('/'))
                    .then(|| tail_at(history, &mut listings, writing, &written, is_dir))
                    .flatten()
                    .map(|p| (p, writing))
            })
        } else {
            None
        };
        // Written by a rewrite of the record's paths (a sed over the docs
        // after a crate was renamed): judged as the line first cited it.
        let mut rewrite = Vec::new();
        if evidence.is_none() && matches!(question, Question::Missing) {
            let read = texts.get(&cite.record).map_or("", |t| &**t);
            let mut at = (
                writing,
                super::written_in(cite, read).unwrap_or("").to_owned(),
            );
            // The paths the text read at each step names.
            let mut named = then.clone();
            for _ in 0..MAX_REWRITES {
                let Some(old) = rewritten_from(history, &mut rewrites, &cite.record, at.0, &at.1)
                else {
                    break;
                };
                // A sed after a move swaps the old path's leading folders for
                // ones the tree had by then (`src/` for `crates/core/src/`,
                // the folder renamed to); new leading folders the tree did
                // not have at that commit were written for another reading
                // of links (a published site's layout: `../../../book/` for
                // `../../../`), on purpose: the line is judged as it is.
                let segments = |p: &str| -> Vec<String> {
                    cited_path(p)
                        .trim_end_matches('/')
                        .split('/')
                        .map(str::to_owned)
                        .collect()
                };
                let (new, was) = (segments(&at.1), segments(&old));
                let kept = new
                    .iter()
                    .rev()
                    .zip(was.iter().rev())
                    .take_while(|(a, b)| a == b)
                    .count();
                let swapped_in = |p: &String| {
                    let parts: Vec<&str> = p.split('/').collect();
                    let lead = parts.len().saturating_sub(kept);
                    lead == 0 || history.id_at(at.0, &parts[..lead].join("/")).is_some()
                };
                if !named.iter().any(swapped_in) {
                    break;
                }
                let Some((old_writing, old_name)) =
                    history.writing_from(&cite.record, read, &old, at.0 + 1)
                else {
                    break;
                };
                let old_target = cited_path(&old).trim_end_matches('/');
                let then_old = paths_of(cite.tier)(&old_name, old_target)
                    .map(|t| with_sources(t, cite.tier))
                    .unwrap_or_default();
                rewrite.push(Rewrite {
                    old: old.clone(),
                    at: history.commit_at(at.0).map(short).unwrap_or_default(),
                });
                if let Some(found) = resolved_since(history, old_writing, &then_old, &[], false) {
                    evidence = Some(found);
                    writing = old_writing;
                    break;
                }
                named = then_old;
                at = (old_writing, old);
            }
            if evidence.is_none() {
                rewrite.clear();
            }
        }
        if evidence.is_none() && !seen {
            continue;
        }
        match (evidence, question) {
            // A label whose block the file did not hold then names the
            // contents shown, another project's file of that name.
            (Some((path, present)), _)
                if matches!(
                    cite.status,
                    CiteStatus::Skipped {
                        exemption: Exemption::CodeLabel,
                        ..
                    }
                ) && !label_shows_file(history, texts, cite, present, &path) => {}
            // A reading of the prose yields to a path that held when its
            // line was written, or came with the change that wrote it; one
            // the tree took on only long after (a Docker image's
            // `certbot/certbot`, a folder's name eight years later) is a
            // coincidence of names, not what the line meant.
            (Some((ref path, present)), _)
                if matches!(cite.status, CiteStatus::Skipped { .. })
                    && rewrite.is_empty()
                    && present != writing
                    && !came_soon_after(history, path, writing, present) => {}
            (Some((path, present)), question) => {
                let at = Found {
                    path,
                    present,
                    writing,
                    rewrite,
                    is_dir,
                    renamed_only,
                };
                known.entry(at.path.clone()).or_default().insert(present);
                judge_found(cite, history, audited, texts, at, &question);
            }
            (None, Question::Missing) if renamed_only => {}
            (None, Question::Missing) => unfound.push(Unfound {
                index,
                writing,
                name_then,
                then,
                is_dir,
            }),
            (None, Question::Namesake { .. }) => {}
        }
    }
    for Unfound {
        index,
        writing,
        name_then,
        then,
        is_dir,
    } in unfound
    {
        let cite = &mut resolved[index];
        // Another cite found the path there after this one was written (a
        // page added after the link to it, renamed since): what became of
        // it is the same for both. A reading of the prose yields only to
        // what held when its line was written, as above.
        let later = then.iter().find_map(|p| {
            let newest = known.get(p)?.iter().copied().find(|&at| at < writing)?;
            Some((p.clone(), newest))
        });
        match later {
            Some((path, present)) if !matches!(cite.status, CiteStatus::Skipped { .. }) => {
                let at = Found {
                    path,
                    present,
                    writing,
                    rewrite: Vec::new(),
                    is_dir,
                    renamed_only: false,
                };
                judge_found(cite, history, audited, texts, at, &Question::Missing);
            }
            _ => {
                let never = Never {
                    writing,
                    name_then: &name_then,
                    then: &then,
                    text: texts.get(&cite.record).map(|t| &**t),
                };
                unresolved_then(cite, history, &mut listings, &never, settings);
            }
        }
    }
}

/// A cite whose path was found nowhere the history was asked, judged once
/// every cite is read.
struct Unfound {
    index: usize,
    writing: usize,
    name_then: String,
    then: Vec<String>,
    is_dir: bool,
}

/// A path a cite named, found where the history had it.
struct Found {
    path: String,
    /// A position the path was there at.
    present: usize,
    /// The position of the commit that wrote the cite.
    writing: usize,
    rewrite: Vec<Rewrite>,
    is_dir: bool,
    renamed_only: bool,
}

/// Judges a cite by what became of the path it named, found there: gone
/// since, and how (renamed, deleted, split), or still there after all.
fn judge_found(
    cite: &mut ResolvedCite,
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    at: Found,
    question: &Question,
) {
    let Found {
        path,
        present,
        writing,
        rewrite,
        is_dir,
        renamed_only,
    } = at;
    // Gone from the working tree only when the tree audited lacks it
    // too: a record that moved away from a target still there
    // is no question of the target's history, at a commit or not.
    let paths = audited.snapshot.paths();
    let lost = audited.commit.is_none()
        && !crate::snapshot::has_file(paths, &path)
        && !crate::snapshot::has_folder(paths, &path);
    let Some(fate) = broken(history, present, &path, lost) else {
        return;
    };
    if renamed_only && !extension_changed(&path, &fate) {
        return;
    }
    // A file the project turned into its template (`conf/env.sh`
    // renamed `conf/env.sh.template`) is what every install
    // copies back to the name the record gives: it still holds.
    if let (Some(template), Broken::Commit(chain)) = (made_a_template(&path, &fate), &fate) {
        cite.status = CiteStatus::Ok {
            resolved: format!("{template} (the template a reader copies to `{path}`: {chain})"),
        };
        cite.evidenced = true;
        return;
    }
    // A translated page that went is served by its source
    // language's: only one renamed, living on elsewhere, is
    // where the link should go.
    let fallback = matches!(
        cite.status,
        CiteStatus::Skipped {
            exemption: Exemption::TranslationFallback,
            ..
        }
    );
    if fallback && !matches!(&fate, Broken::Commit(chain) if chain.suggestion().is_some()) {
        return;
    }
    // A link or path without a trailing `/` may name a folder.
    let is_dir = is_dir
        || history
            .id_at(present, &path)
            .is_some_and(|id| history.repo().is_folder(id));
    let came_with_change = present == writing || came_soon_after(history, &path, writing, present);
    let named = texts
        .get(&cite.record)
        .map(|text| super::lines::code_names_around(text, cite.span.clone()))
        .unwrap_or_default();
    let left = match &fate {
        Broken::Commit(chain) => chain.suggestion().and_then(|to| {
            super::fates::content_left(
                history.repo(),
                audited,
                (&path, history.commit_at(present), &named),
                chain,
                to,
            )
        }),
        Broken::WorkingTree => None,
    };
    let at = Resolved {
        path,
        rewrite,
        is_dir,
        when: history.commit_at(writing).map(short).unwrap_or_default(),
        present: (present != writing)
            .then(|| history.commit_at(present).map(short).unwrap_or_default()),
        came_with_change,
    };
    let text = texts.get(&cite.record).map(|t| &**t);
    broke_since(cite, &at, question, (&fate, left), audited, text);
    this_record_renamed(cite);
}

/// A backticked path read at another frame than the audited one (a
/// release's tag, for the page of its notes or the guide to it) that names
/// nothing there: set aside as `never-resolved` when neither the audited
/// tree, nor the commit that wrote it, nor any commit sampled along the
/// history had it either — a path of the reader's project (a migration
/// guide's `config/rbac/role.yaml`), never this repository's. Whether it did.
fn never_anywhere(
    cite: &mut ResolvedCite,
    history: &mut History<'_>,
    audited: &Frame,
    texts: &BTreeMap<String, Arc<str>>,
    settings: &CitesPlan,
) -> bool {
    if cite.frame == audited.label
        || cite.tier != Tier::Inferred
        || cite.kind != CiteClass::Path
        || !matches!(cite.status, CiteStatus::Stale { .. })
    {
        return false;
    }
    let target = cited_path(&cite.text).trim_end_matches('/');
    let Some(mut tried) = paths_of(cite.tier)(&cite.record, target) else {
        return false;
    };
    let written = target.trim_start_matches("./");
    tried.extend(settings.roots.iter().map(|r| format!("{r}/{written}")));
    let paths = audited.snapshot.paths();
    if target.is_empty()
        || tried
            .iter()
            .any(|p| has_file(paths, p) || has_folder(paths, p))
    {
        return false;
    }
    let Some((writing, _)) = history.writing_of(cite, texts) else {
        return false;
    };
    let seen = sampled(history)
        .into_iter()
        .chain(std::iter::once(writing))
        .any(|position| tried.iter().any(|p| history.id_at(position, p).is_some()));
    if seen {
        return false;
    }
    let when = history.commit_at(writing).map(short).unwrap_or_default();
    match settings.exemptions.ask(Exemption::NeverResolved, || {
        never_resolved::fires(cite.tier == Tier::Inferred, &when)
    }) {
        Some(skip) => {
            cite.status = skip;
            cite.evidenced = true;
            true
        }
        None => false,
    }
}

/// What the evidence asks of one cite, and where it looks for its path.
struct Asked {
    /// The path the cite names, as written, without a trailing `/`.
    target: String,
    is_dir: bool,
    /// A file name with no folder.
    bare: bool,
    /// A bare backticked name with an extension: held to its history only
    /// where the file beside the record took a new extension.
    renamed_only: bool,
    /// Where a reader finds it today (and under each test root).
    tried: Vec<String>,
    /// As written, without a leading `./`.
    written: String,
    question: Question,
}

/// How a cite of this tier is read as paths: a link as the forge renders
/// it, a backticked path from the root too.
fn paths_of(tier: Tier) -> fn(&str, &str) -> Option<Vec<String>> {
    match tier {
        Tier::Explicit => reader_paths,
        Tier::Inferred => backticked_paths,
    }
}

/// A path in the record's prose that the history renamed into the record
/// itself names this very page under a name it had (a session log that says
/// "update `docs/x_transcript.md`", the log's own first name): the reader is
/// on it. A link to the old name still lands nowhere, and stays stale.
fn this_record_renamed(cite: &mut ResolvedCite) {
    let renamed_here = matches!(
        &cite.status,
        CiteStatus::Stale { suggestion: Some(to), guessed: false, .. } if *to == cite.record
    );
    if renamed_here && cite.tier == Tier::Inferred {
        cite.status = CiteStatus::Ok {
            resolved: format!("{} (this record, under a name it had)", cite.record),
        };
    }
}

/// Whether the history is asked about a cite, and what: a path (or a test's
/// file) that names nothing now, or a backticked path that resolves only to
/// a namesake away from where the record points.
fn ask(cite: &ResolvedCite, audited: &Frame, settings: &CitesPlan) -> Option<Asked> {
    let paths = audited.snapshot.paths();
    // A test cite is asked only about its file, and only when the file is
    // missing (what the file defines is `tests`' question). A test id is
    // explicit: one whose file never was is still stale (a record that says
    // a test covers something names a test that must exist), with what the
    // history says of its file.
    let missing_test_file = cite.kind == CiteClass::Test
        && cite.test_file_missing
        && (matches!(cite.status, CiteStatus::Stale { .. })
            || (matches!(cite.status, CiteStatus::Skipped { .. })
                && cite.stale_if_history_knows.is_some()));
    // A label or a Python object is no path: its own evidence is in
    // `labels.rs`.
    let names_no_path = matches!(
        cite.status,
        CiteStatus::Skipped {
            exemption: Exemption::LabelElsewhere
                | Exemption::UnresolvedObject
                | Exemption::Intersphinx,
            ..
        }
    );
    // A path the tree itself resolves as the page's renderer reads it is
    // that file, not a namesake (`proven`).
    let read_by_renderer = cite.proven && matches!(cite.status, CiteStatus::Ok { .. });
    if !(matches!(cite.kind, CiteClass::Path | CiteClass::Line) || missing_test_file)
        || names_no_path
        || read_by_renderer
        || cite.frame != audited.label
    {
        return None;
    }
    let target = cited_path(&cite.text);
    let is_dir = target.ends_with('/');
    let target = target.trim_end_matches('/');
    if target.is_empty() {
        return None;
    }
    // A bare file name is a name before it is a path: a tutorial's
    // `requirements.txt`, a site's `index.md`, are the reader's, whatever
    // file of that name the tree once held beside the record or at the
    // root (measured: every such finding on the corpus was a namesake).
    // Only a link, written to be followed, is held to its history so.
    // (An extensionless bare name, `./bin`, `Makefile`, is held to what
    // stood beside its record.)
    // The one exception is the file beside the record renamed to a new
    // extension in its own folder (`build.ts` to `build.mts`, `codecov.yml`
    // to `codecov.yaml`): the same file under the name the page gives, not
    // a namesake (`renamed_only`; a deletion or any other rename stays the
    // reader's), or the one file of the name the tree held then, wherever
    // it stood. So is a name that resolves today to a namesake away from
    // the record, when the file it found then took a new extension.
    let bare = !is_dir && !target.trim_start_matches("./").contains('/');
    let renamed_only =
        bare && cite.tier == Tier::Inferred && target.contains('.') && !target.starts_with("./");
    if renamed_only
        && !matches!(
            cite.status,
            CiteStatus::Skipped {
                exemption: Exemption::BareName,
                ..
            } | CiteStatus::Ok { .. }
        )
    {
        return None;
    }
    let mut tried =
        paths_of(cite.tier)(&cite.record, target).map(|t| with_sources(t, cite.tier))?;
    // Under a test root, as the resolver reads it (`tests/unit/x.py` for
    // `packages/core/tests/unit/x.py`).
    let written = target.trim_start_matches("./").to_owned();
    tried.extend(settings.roots.iter().map(|r| format!("{r}/{written}")));
    tried.extend(cite.copied_from.iter().cloned());
    let as_written = |p: &str| has_file(paths, p) || has_folder(paths, p);
    let question = match &cite.status {
        // A page that is there with an anchor it lacks is the anchor's
        // question, not the path's.
        // (The page may be there by a reading `tried` lacks: a snippet's
        // link, read from the page that includes it.)
        CiteStatus::Stale { .. }
            if cite.anchor.is_none() && !tried.iter().any(|p| as_written(p)) =>
        {
            Question::Missing
        }
        CiteStatus::Skipped { exemption, .. } if exemption.history_overrules() => Question::Missing,
        CiteStatus::Ok { resolved: now }
            if cite.tier == Tier::Inferred || cite.kind == CiteClass::Line =>
        {
            let now = CiteStatus::resolved_path(now);
            // A line cite resolves to `file:start-end`.
            let now = if cite.kind == CiteClass::Line {
                cited_path(now)
            } else {
                now
            };
            if tried.iter().any(|p| p == now) {
                return None;
            }
            Question::Namesake {
                resolved: now.to_owned(),
            }
        }
        _ => return None,
    };
    Some(Asked {
        target: target.to_owned(),
        is_dir,
        bare,
        renamed_only,
        tried,
        written,
        question,
    })
}

/// The template a chain of fates turned the path into (`x.sh` to
/// `x.sh.template`, `.example`, `.sample`, `.dist`, `.tmpl`), when it did.
fn made_a_template(path: &str, fate: &Broken) -> Option<String> {
    let Broken::Commit(chain) = fate else {
        return None;
    };
    let to = chain.suggestion()?;
    let suffix = to.strip_prefix(path)?.strip_prefix('.')?;
    ["template", "example", "sample", "dist", "tmpl"]
        .contains(&suffix)
        .then(|| to.to_owned())
}

/// Whether a chain of fates ends in the same file under another extension,
/// in its own folder (`ci/build.ts` to `ci/build.mts`).
fn extension_changed(path: &str, fate: &Broken) -> bool {
    let Broken::Commit(chain) = fate else {
        return false;
    };
    let Some(to) = chain.suggestion() else {
        return false;
    };
    let split = |p: &str| -> Option<(String, String)> {
        let (folder, name) = p.rsplit_once('/').unwrap_or(("", p));
        let (stem, extension) = name.rsplit_once('.')?;
        (!stem.is_empty()).then(|| (format!("{folder}/{stem}"), extension.to_owned()))
    };
    matches!((split(path), split(to)), (Some((a, x)), Some((b, y))) if a == b && x != y)
}

/// Whether the path at `at` is, in its sentence, what the reader takes from
/// this repository or the folder they put something in: no "your" before it
/// in its sentence, and "a file inside of" / "in" / "into" right before it
/// or a "to your …" after it.
fn this_trees_side(text: &str, at: usize) -> bool {
    let start = crate::checks::cites::find::sentence_start(text, at);
    let before = text.get(start..at).unwrap_or_default().to_ascii_lowercase();
    if before.contains("your ") {
        return false;
    }
    let mut end = (at + 300).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let after = text.get(at..end).unwrap_or_default().to_ascii_lowercase();
    let after = after.split(". ").next().unwrap_or_default();
    let lead = before
        .trim_end_matches(['`', '*', '_', '\'', '"'])
        .trim_end();
    // ("inside of the `docs/changelog` directory": past its article.)
    let lead = [" the", " a", " an", " your"]
        .iter()
        .find_map(|article| lead.strip_suffix(article))
        .unwrap_or(lead);
    let container = [" inside of", " inside", " in", " into", " under"]
        .iter()
        .any(|word| lead.ends_with(word));
    let source = after.contains(" to your ") || after.contains(" into your ");
    container || source
}

/// Whether `record` is a guide for the project's own contributors (its
/// name or its folder's says so: `CONTRIBUTING.md`, `HOWTOCONTRIBUTE.rst`,
/// `docs/development/…`, `TRANSLATING.md`): its reader works in a clone of
/// this repository, so "your" tree is this one.
fn contributors_guide(record: &str) -> bool {
    const WORDS: [&str; 10] = [
        "contributing",
        "howtocontribute",
        "contribute",
        "contributors",
        "developing",
        "development",
        "developerguide",
        "devguide",
        "hacking",
        "translating",
    ];
    let squashed = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let mut segments = record.rsplit('/');
    let name = segments.next().unwrap_or(record);
    let stem = name.split('.').next().unwrap_or(name);
    WORDS.contains(&squashed(stem).as_str())
        || segments.any(|folder| WORDS.contains(&squashed(folder).as_str()))
}

/// Whether any folder of the tree, at any depth, has this name.
fn has_folder_named(paths: &[String], name: &str) -> bool {
    paths
        .iter()
        .any(|p| p.split('/').rev().skip(1).any(|segment| segment == name))
}

/// Where a cite's path resolved after the record wrote it.
struct Resolved {
    path: String,
    /// The rewrites that wrote the cite's text, newest first, when it was
    /// judged as the line first cited it.
    rewrite: Vec<Rewrite>,
    is_dir: bool,
    /// The writing commit, short.
    when: String,
    /// The commit it resolved at, when that is later than the writing one.
    present: Option<String>,
    /// Whether it came with the change that wrote the line (a plan naming
    /// the file its own work then added): it held for the record's time.
    came_with_change: bool,
}

/// A path that resolved when the record cited it (or since) and broke
/// later: stale whatever exemption fired, with what became of it.
fn broke_since(
    cite: &mut ResolvedCite,
    at: &Resolved,
    question: &Question,
    (fate, left): (&Broken, Option<String>),
    audited: &Frame,
    text: Option<&str>,
) {
    // A sentence that speaks of the reader's project ("you can add a
    // `docs/public/_redirects` file") yields to a rename, which shows the
    // file was this repository's and moved, but not to a deletion with no
    // rename before it: a tool that documents itself with itself keeps a
    // copy of the reader's example and may drop it (vitepress), and the
    // sentence is still true of the reader's project. Not where the path is
    // what the reader takes from this repository or puts things in ("add the
    // `autocomplete/adr` script to your …", "create a file inside of
    // `docs/changelog`"): the cue speaks of the reader's side, the path is
    // this tree's. Nor on a contributor's guide, whose reader works in a
    // clone of this repository: "change your directory to `asv_bench/`"
    // is this tree's folder, and its deletion leaves the guide wrong.
    if let (
        CiteStatus::Skipped {
            exemption: Exemption::ReaderCue,
            ..
        },
        Broken::Commit(chain),
    ) = (&cite.status, fate)
        && !chain
            .steps
            .iter()
            .any(|step| matches!(step, crate::snapshot::git::PathFate::Renamed { .. }))
        && !text.is_some_and(|text| this_trees_side(text, cite.span.start))
        && !contributors_guide(&cite.record)
    {
        return;
    }
    // A path drawn in a diagram rooted at a folder that is neither this
    // tree's nor the project's name (`mypackage/` above `├── docs`) is that
    // project's: the history of this tree's namesake says nothing of it.
    if let (
        CiteStatus::Skipped {
            exemption: Exemption::TreeDiagram,
            ..
        },
        Some(text),
    ) = (&cite.status, text)
        && let Some(root) = crate::checks::cites::exemptions::tree_diagram::diagram_root(
            text,
            cite.span.start,
            cited_path(&cite.text),
        )
        && !has_folder_named(audited.snapshot.paths(), &root)
        && crate::checks::cites::hosted::address_from_metadata(audited.snapshot.as_ref())
            .is_none_or(|own| own.project.rsplit('/').next() != Some(root.as_str()))
    {
        return;
    }
    // A path read from the root when written, that the tree still has
    // elsewhere by its whole tail in the page's own documentation tree (a
    // book's `cmd/main.go`, the one in the book's sample project), whose own
    // file the history did not move there (it was deleted, or renamed to
    // another path): the root's file and the namesake were each a project of
    // that layout, and the page shows the one beside it. Only a move to the
    // namesake shows the file meant went there.
    // (A path read from the record's own folder, a component's README
    // naming its `src/schema.rs`, names that component's file.)
    // The namesake must be the page's own: in its documentation tree (two
    // folders in common with the record, `docs/book/` for the book's
    // sample project), not a test's data or another example's copy
    // (`tests/data/src` for the project's `src/`).
    let record_folder = cite.record.rsplit_once('/').map(|(folder, _)| folder);
    let from_own_folder =
        record_folder.is_some_and(|folder| at.path.starts_with(&format!("{folder}/")));
    let shared_folders = |namesake: &str| {
        namesake
            .split('/')
            .zip(cite.record.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    if let (Question::Namesake { resolved }, Broken::Commit(chain)) = (question, fate)
        && !from_own_folder
        && shared_folders(resolved) >= 2
        && chain
            .suggestion()
            .is_none_or(|to| to.trim_end_matches('/') != resolved.trim_end_matches('/'))
    {
        return;
    }
    let Resolved {
        path,
        rewrite,
        is_dir,
        when,
        present,
        came_with_change,
    } = at;
    let rewrites: Vec<String> = rewrite
        .iter()
        .map(|Rewrite { old, at }| format!("{at} over `{old}`"))
        .collect();
    let resolved_then = match present {
        _ if !rewrites.is_empty() => format!(
            "a rewrite of the record's paths wrote it ({}), and as the line first cited it `{path}` resolved (at {when})",
            rewrites.join(", ")
        ),
        None => format!("it resolved when the record cited it (at {when})"),
        Some(at) => format!("it resolved after the record cited it (at {when}; at {at})"),
    };
    let what = if *is_dir { "folder" } else { "file" };
    let now = match (question, &cite.status) {
        (Question::Missing, CiteStatus::Stale { why, .. }) => why.clone(),
        (Question::Missing, _) => format!(
            "no {what} `{}` at {}",
            if rewrite.is_empty() {
                path.as_str()
            } else {
                cited_path(&cite.text).trim_end_matches('/')
            },
            audited.label
        ),
        (Question::Namesake { resolved }, _) => format!(
            "`{path}` is gone at {} (only a namesake, `{resolved}`, is left)",
            audited.label
        ),
    };
    let (became, suggestion) = match fate {
        Broken::Commit(chain) => (chain.to_string(), chain.suggestion().map(str::to_owned)),
        Broken::WorkingTree => ("removed in the working tree".to_owned(), None),
    };
    let overruled = match &cite.status {
        CiteStatus::Skipped { exemption, .. } => {
            format!(" (the {exemption} exemption yields to that)")
        }
        _ => String::new(),
    };
    let earlier = match &cite.status {
        CiteStatus::Stale {
            suggestion,
            guessed,
            ..
        } => suggestion.clone().map(|s| (s, *guessed)),
        _ => None,
    };
    if suggestion.is_some() {
        cite.renamed_from = Some(path.clone());
    }
    // The words may mean another path than the one that was renamed: the
    // sentence speaks of the reader's project (an exemption the history
    // overruled), or the path came into the tree only after the line was
    // written, and not with the change that wrote it.
    // (Any reading of the prose the history overruled: the history proves
    // the tree changed, not that these words meant the path that changed.)
    // A namesake the tree still has under another folder may be the one
    // the words mean as well (`data/dataset` in a column of paths written
    // from `data_pipeline/`).
    let written = cited_path(&cite.text)
        .trim_start_matches("./")
        .trim_end_matches('/');
    let namesake = !written.starts_with("../")
        && written.contains('/')
        && audited.snapshot.paths().iter().any(|p| {
            p.strip_suffix(written)
                .is_some_and(|head| head.ends_with('/'))
                || p.contains(&format!("/{written}/"))
        });
    // (A path the line named before the tree had it, whenever it came, was
    // a plan of its time: the file the plan meant, not proven the one a
    // rename later moved.)
    let another_path = !overruled.is_empty() || present.is_some() || namesake;
    let (suggestion, guessed) = match (suggestion, earlier) {
        // The name went on, but what was cited did not go with it.
        (Some(renamed), _) if left.is_some() || another_path => (Some(renamed), true),
        (Some(proved), _) => (Some(proved), false),
        // The history says the file the cite named was deleted, not moved:
        // the tree's other proof of the same name (the module in the
        // language's other layout, the one file with its tail) is a name,
        // not the content the cite meant.
        (None, Some((earlier, guessed))) => (
            Some(earlier),
            guessed || matches!(fate, Broken::Commit(chain) if chain.suggestion().is_none()),
        ),
        (None, None) => (None, false),
    };
    let left = left.map(|left| format!(", {left}")).unwrap_or_default();
    cite.status = CiteStatus::Stale {
        why: format!("{now}; {resolved_then} and was {became}{left}{overruled}"),
        suggestion,
        guessed,
    };
    cite.evidenced = true;
    // A path that came with the change that wrote its line held for the
    // record's time too, from the commit it came at: a page read as of
    // its time (a finished plan) reads it so.
    if rewrite.is_empty() && *came_with_change {
        cite.held_when_written = Some(present.as_ref().unwrap_or(when).clone());
    }
}

/// The longest a path may take to appear after the line naming it was
/// written and still be what the line meant: a change's review, its
/// follow-ups.
const CAME_WITH_THE_CHANGE_SECONDS: i64 = 30 * 86_400;

/// Whether `path`, absent at `writing` and there at `present` (positions on
/// the audited line, `present` the newer), came within a change's time of
/// the line's writing: the commit that brought it, not the one sampled.
fn came_soon_after(history: &mut History<'_>, path: &str, writing: usize, present: usize) -> bool {
    let (came, _) = super::turning_point(history, present, writing, |h, at| {
        h.id_at(at, path).is_some()
    });
    let (Some(written), Some(there)) = (history.commit_at(writing), history.commit_at(came)) else {
        return true;
    };
    let repo = history.repo();
    match (repo.commit_seconds(written), repo.commit_seconds(there)) {
        (Some(written), Some(there)) => there - written <= CAME_WITH_THE_CHANGE_SECONDS,
        _ => true,
    }
}

/// Whether the block a `code-label` cite labels shows the file `path` as it
/// was at `position` (see [`code_label::block_shows`]).
fn label_shows_file(
    history: &mut History<'_>,
    texts: &BTreeMap<String, Arc<str>>,
    cite: &ResolvedCite,
    position: usize,
    path: &str,
) -> bool {
    let Some(text) = texts.get(&cite.record) else {
        return true;
    };
    // A file past a record's cap is read by no one here: the history decides.
    let within_cap = history
        .id_at(position, path)
        .and_then(|id| history.repo().object_size(id))
        .is_some_and(|size| size <= crate::snapshot::MAX_RECORD_BYTES);
    if !within_cap {
        return true;
    }
    let Some((_, bytes)) = history
        .commit_at(position)
        .and_then(|commit| history.repo().file_at(commit, path))
    else {
        return true;
    };
    code_label::block_shows(text, cite.span.start, &bytes)
}

/// How many rewrites of a record's paths in a row a cite is followed back
/// through (ruff's `src/` → `crates/ruff/src/` → `crates/ruff_linter/src/`
/// is two).
const MAX_REWRITES: usize = 4;

/// A rewrite of a record's paths that wrote a cite's text.
struct Rewrite {
    /// The cite as the line held it before.
    old: String,
    /// The commit that rewrote it, short.
    at: String,
}

/// Per record and writing position: the lines the commit there changed in
/// place (new, old), from the hunks that replaced as many lines as they
/// removed, as a rewrite of paths does. Diffed once per pair of versions.
type Rewrites = BTreeMap<(String, usize), Arc<Vec<(String, String)>>>;

/// What the record's line held before the commit at `writing` wrote `cite`
/// into it, when that commit only rewrote a path (a sed over the docs after
/// a folder was renamed): the line, changed in place, held one other path
/// with the same file name where this one is. `None` when the line was
/// written anew, or held no such path, or held several.
fn rewritten_from(
    history: &mut History<'_>,
    rewrites: &mut Rewrites,
    record: &str,
    writing: usize,
    cite: &str,
) -> Option<String> {
    let path = cited_path(cite).trim_end_matches('/');
    let name = path.rsplit('/').next().filter(|n| !n.is_empty())?;
    if !path.contains('/') {
        return None;
    }
    let key = (record.to_owned(), writing);
    let pairs = match rewrites.get(&key) {
        Some(pairs) => pairs.clone(),
        None => {
            let pairs = Arc::new(changed_in_place(history, record, writing).unwrap_or_default());
            rewrites.insert(key, pairs.clone());
            pairs
        }
    };
    let mut found: Option<String> = None;
    for (new, old) in pairs.iter().filter(|(new, _)| new.contains(cite)) {
        for token in paths_named(old, name) {
            // (A path the new line still has, as a whole, was not rewritten.)
            if token == path || paths_named(new, name).contains(&token) {
                continue;
            }
            match &found {
                None => found = Some(token.to_owned()),
                Some(f) if f == token => {}
                Some(_) => return None,
            }
        }
    }
    found
}

/// The lines the record's version at `writing` changed in place from the
/// one before it (see [`Rewrites`]).
fn changed_in_place(
    history: &mut History<'_>,
    record: &str,
    writing: usize,
) -> Option<Vec<(String, String)>> {
    let (_, new_id) = history.record_at(record, writing)?;
    let (_, old_id) = history.record_at(record, writing + 1)?;
    let new = history.version(new_id, writing);
    let old = history.version(old_id, writing + 1);
    let (new_text, old_text) = (String::from_utf8_lossy(&new), String::from_utf8_lossy(&old));
    let (new_lines, old_lines): (Vec<&str>, Vec<&str>) =
        (new_text.lines().collect(), old_text.lines().collect());
    let mut pairs = Vec::new();
    for (old_start, old_count, new_start, new_count) in history.repo().line_hunks(&old, &new) {
        if old_count != new_count {
            continue;
        }
        for k in 0..new_count {
            let (Some(n), Some(o)) = (
                new_lines.get((new_start + k).saturating_sub(1)),
                old_lines.get((old_start + k).saturating_sub(1)),
            ) else {
                continue;
            };
            pairs.push(((*n).to_owned(), (*o).to_owned()));
        }
    }
    Some(pairs)
}

/// The paths written in `line` whose file is `name`: each run of path
/// characters ending in it, with a folder.
fn paths_named<'l>(line: &'l str, name: &str) -> Vec<&'l str> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_.-/".contains(c);
    let mut found = Vec::new();
    for (at, _) in line.match_indices(name) {
        let end = at + name.len();
        if line[end..].chars().next().is_some_and(is_path) {
            continue;
        }
        let start = line[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_path(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let token = &line[start..end];
        if token.contains('/') && token.rsplit('/').next() == Some(name) && !found.contains(&token)
        {
            found.push(token);
        }
    }
    found
}

/// The writing commit of a cite that did not resolve then either, and the
/// paths it was read as there.
struct Never<'a> {
    writing: usize,
    name_then: &'a str,
    then: &'a [String],
    /// The record's text.
    text: Option<&'a str>,
}

/// A path that did not resolve when the record cited it: a file mistyped,
/// one the repository had before and lost, or (read from backticks) never
/// this repository's (`never-resolved`); a link stays stale, it never worked.
fn unresolved_then(
    cite: &mut ResolvedCite,
    history: &mut History<'_>,
    listings: &mut BTreeMap<Oid, Option<Vec<String>>>,
    never: &Never<'_>,
    settings: &CitesPlan,
) {
    let Never {
        writing,
        name_then,
        then,
        text,
    } = *never;
    let when = history.commit_at(writing).map(short).unwrap_or_default();
    // A name one edit or two from a file the tree had beside it then, or a
    // file of its name deeper in the nearest folder of its path the tree had
    // (`clippy_lints/lib.rs` for `clippy_lints/src/lib.rs`), is that file
    // mistyped: the record meant this tree.
    let stale = matches!(cite.status, CiteStatus::Stale { .. });
    let typo_of = if stale && cite.named_in_prose() {
        let listing = listing_at(history, listings, writing);
        let listing = listing.map_or(&[][..], Vec::as_slice);
        // A reading whose folder the tree had is the one the record meant
        // (`scripts/changes/x.md` from the root, where `scripts/changes/`
        // was): a typo is looked for there, not as a namesake below the
        // record's own folder.
        let folder_there = |p: &&String| {
            p.rsplit_once('/').is_some_and(|(folder, _)| {
                let prefix = format!("{folder}/");
                let start = listing.partition_point(|x| x.as_str() < prefix.as_str());
                listing.get(start).is_some_and(|x| x.starts_with(&prefix))
            })
        };
        let meant: Vec<&String> = then.iter().filter(folder_there).collect();
        let readings: Vec<&String> = if meant.is_empty() {
            then.iter().collect()
        } else {
            meant
        };
        readings.into_iter().find_map(|p| {
            nearest_sibling(p, listing)
                .or_else(|| misplaced(p, listing))
                .or_else(|| nearest_sibling_folder(p, listing))
                .filter(|file| *file != name_then)
        })
    } else {
        None
    };
    // A path the repository had before the record cited it (on the main
    // line, or on the branch the record's text was merged from) was this
    // repository's: the cite was stale when written.
    let gone_before = if stale && typo_of.is_none() {
        gone_before_writing(history, writing, then)
    } else {
        None
    };
    // A line cite's file as the writing commit alone could read it: the
    // one file of that tree its path named, or ended (a longer path under a
    // package); none where it named several or none.
    let alone_then: Vec<String> = if stale && cite.kind == CiteClass::Line {
        let listing = listing_at(history, listings, writing).map_or(&[][..], Vec::as_slice);
        let named: BTreeSet<&String> = then
            .iter()
            .flat_map(|reading| {
                let tail = format!("/{reading}");
                listing
                    .iter()
                    .filter(move |p| *p == reading || p.ends_with(&tail))
            })
            .collect();
        match named.into_iter().collect::<Vec<_>>().as_slice() {
            [one] => vec![(*one).clone()],
            _ => Vec::new(),
        }
    } else {
        Vec::new()
    };
    // Whether a folder the cite could be read in was one of the tree's
    // when it was written: a `path:line` under none (gdb's
    // `src/libcore/num/bignum.rs:254` in a book) names another project's
    // source.
    let folder_then = stale && cite.kind == CiteClass::Line && {
        let listing = listing_at(history, listings, writing).map_or(&[][..], Vec::as_slice);
        then.iter().any(|reading| {
            reading
                .rsplit_once('/')
                .is_none_or(|(folder, _)| crate::snapshot::has_folder(listing, folder))
        })
    };
    let (inferred, proven) = (cite.tier == Tier::Inferred, cite.proven);
    let Some((why, suggestion, guessed)) = cite.status.stale_mut() else {
        return;
    };
    cite.evidenced = true;
    if let Some(file) = typo_of {
        why.push_str(&format!(
            "; it did not resolve when the record cited it either (at {when}): `{file}` mistyped?"
        ));
        // A name the history had beside it: a guess at the typo. Whatever
        // else the resolver suggested is a guess too: the cite never named a
        // file of the repository, so no history says what it meant.
        *guessed = true;
        suggestion.get_or_insert(file);
    } else if let Some(gone) = gone_before {
        let branch = if gone.on_branch {
            " on the branch merged there"
        } else {
            ""
        };
        why.push_str(&format!(
            "; it did not resolve when the record cited it either (at {when}), but `{}` had been there: it was {}{branch}, before the record cited it",
            gone.path, gone.fate
        ));
        // Renamed before the record was written: the record used the old
        // name, and the rename proves the name it has now; but a cite stale
        // the day it was written may describe what the old name held, not
        // what the new one holds: a suggestion, never an edit.
        if let PathFate::Renamed { to, .. } = gone.fate {
            *suggestion = Some(to);
        }
        *guessed = true;
    } else if let Some(skip) = settings
        .exemptions
        .ask(Exemption::NeverResolved, || {
            never_resolved::fires(inferred, &when)
        })
        .filter(|_| !proven)
    {
        cite.status = skip;
    } else if let Some(skip) = settings.exemptions.ask(Exemption::SnapshotPage, || {
        // A line cite (not a link) of a dated report, of a file this
        // history never had: the report's tree of that day (a page
        // written elsewhere and brought in), not this one's.
        (cite.kind == CiteClass::Line && cite.destination.is_none())
            .then(|| snapshot_page::dated_report_never_here(&cite.record, text))
            .flatten()
    }) {
        cite.status = skip;
    } else if let Some(skip) = cite
        .earlier_notes
        .as_deref()
        // (A label only: the label evidence asks the pages of the
        // writing commit after this, and undoes the skip when they
        // defined it. A link's path read here is not what its renderer
        // resolved then: `./coding.html` was the page of `coding.md`.)
        .filter(|_| !proven && cite.label.is_some())
        .and_then(|version| {
            settings.exemptions.ask(Exemption::EarlierRelease, || {
                earlier_release::never_resolved(version, &when)
            })
        })
    {
        cite.status = skip;
    } else if let Some(skip) = settings
        .exemptions
        .ask(Exemption::NeverResolved, || {
            let today = cite.lines.as_ref().map(|target| target.file.as_str());
            let readable: Vec<String> = then.iter().chain(&alone_then).cloned().collect();
            never_resolved::line_cite_read_only_today(
                cite.kind,
                cite.destination.is_some(),
                today,
                &readable,
                &when,
            )
            .or_else(|| {
                never_resolved::line_cite_outside_the_tree(
                    cite.kind,
                    cite.destination.is_some(),
                    folder_then || !alone_then.is_empty(),
                    &when,
                )
            })
        })
        .filter(|_| !proven)
    {
        cite.status = skip;
    } else {
        why.push_str(&format!(
            "; it did not resolve when the record cited it either (at {when})"
        ));
        // What the resolver found instead (a namesake elsewhere, the page
        // from a folder above) is a reading of a cite that never resolved.
        *guessed = true;
    }
}

/// A path a cite names that the repository had before the commit that wrote
/// the cite, and what became of it.
struct GoneBefore {
    path: String,
    fate: PathFate,
    /// Gone on the branch a merge brought the record's text from.
    on_branch: bool,
}

/// A path gone before the writing commit says the cite was stale when
/// written only when the path was renamed: what it named lives on in the
/// repository, under the name the suggestion gives. A file deleted before the
/// record was written says nothing of what the record meant by the name (a
/// project that once kept a `.changeset/config.json` documents the reader's).
fn renamed(path: &str, fate: PathFate, on_branch: bool) -> Option<GoneBefore> {
    matches!(fate, PathFate::Renamed { .. }).then(|| GoneBefore {
        path: path.to_owned(),
        fate,
        on_branch,
    })
}

/// At most this many commits of a merged branch are read back from the merge
/// (a branch longer than this is read as far, then as the main line is).
const BRANCH_DEPTH: usize = 1024;

/// The first of `then` that is in a tree older than the writing commit — on
/// the first-parent line back from it (sampled at 1, 2, 4, … commits), else on
/// the line of a merge's other parent when the writing commit is a merge (the
/// record's text came from that branch) — with where it went after, when it
/// was renamed (see [`renamed`]).
fn gone_before_writing(
    history: &mut History<'_>,
    writing: usize,
    then: &[String],
) -> Option<GoneBefore> {
    let mut step = 1;
    while history.commit_at(writing + step).is_some() {
        let older = writing + step;
        if let Some(path) = then.iter().find(|p| history.id_at(older, p).is_some()) {
            let (_, absent) =
                turning_point(history, older, writing, |h, at| h.id_at(at, path).is_some());
            let commit = history.commit_at(absent)?;
            let fate = history.repo().fate_at(commit, path)?;
            return renamed(path, fate, false);
        }
        step *= 2;
    }
    let merge = history.commit_at(writing)?;
    let repo = history.repo();
    for branch_tip in repo.parents_of(merge).into_iter().skip(1) {
        // The branch's own line, newest first, read as far as it is sampled.
        let mut line = vec![branch_tip];
        let mut at = 0;
        while at < BRANCH_DEPTH {
            while line.len() <= at {
                let next = repo.first_parent_of(*line.last()?)?;
                line.push(next);
            }
            let found = then
                .iter()
                .find(|p| repo.path_ids(line[at], &[p.as_str()])[0].is_some());
            if let Some(path) = found {
                if at == 0 {
                    // Still there at the branch's tip: the merge dropped it,
                    // not a question of the branch.
                    return None;
                }
                // Where it went: the newest commit of the branch without it,
                // whose first parent has it.
                let (mut present, mut newer) = (at, 0usize);
                while present - newer > 1 {
                    let mid = newer + (present - newer) / 2;
                    if repo.path_ids(line[mid], &[path.as_str()])[0].is_some() {
                        present = mid;
                    } else {
                        newer = mid;
                    }
                }
                let fate = repo.fate_at(line[newer], path)?;
                return renamed(path, fate, true);
            }
            at = if at == 0 { 1 } else { at * 2 };
        }
    }
    None
}

/// The first of `then` (a cite's reader paths at its writing commit) that is
/// there at `writing` or at a commit since (sampled, see [`sampled`]), with
/// the position it was found at, the oldest first.
fn resolved_since(
    history: &mut History<'_>,
    writing: usize,
    then: &[String],
    now: &[String],
    later: bool,
) -> Option<(String, usize)> {
    if let Some(p) = then.iter().find(|p| history.id_at(writing, p).is_some()) {
        return Some((p.clone(), writing));
    }
    if !later {
        return None;
    }
    // Since, newest first (the culprit is searched for after the last
    // presence), read from where the record was then or where it is now: a
    // record moved after it was written may have made its link right.
    sampled(history)
        .into_iter()
        .filter(|&p| p < writing)
        .find_map(|position| {
            then.iter()
                .chain(now)
                .find(|p| history.id_at(position, p).is_some())
                .map(|p| (p.clone(), position))
        })
}

/// The path of the tree at `position` that ends with `written` (a file) or
/// holds it as a folder, the one nearest the root; the tree listed once per
/// commit.
fn tail_at(
    history: &mut History<'_>,
    listings: &mut BTreeMap<Oid, Option<Vec<String>>>,
    position: usize,
    written: &str,
    is_dir: bool,
) -> Option<String> {
    let listing = listing_at(history, listings, position)?;
    let (file_tail, dir_tail) = (format!("/{written}"), format!("/{written}/"));
    listing
        .iter()
        .filter_map(|p| {
            if is_dir {
                p.find(&dir_tail)
                    .map(|at| p[..at + dir_tail.len() - 1].to_owned())
            } else {
                p.ends_with(&file_tail).then(|| p.clone())
            }
        })
        .min_by_key(|p| (p.len(), p.clone()))
}

/// The one file of the tree at `position` named `name` (a vendored copy
/// aside, which no bare name names), if exactly one is.
fn only_file_named(
    history: &mut History<'_>,
    listings: &mut BTreeMap<Oid, Option<Vec<String>>>,
    position: usize,
    name: &str,
) -> Option<String> {
    let listing = listing_at(history, listings, position)?;
    let mut named = listing.iter().filter(|p| {
        p.rsplit('/').next() == Some(name) && !crate::checks::cites::locate::is_vendored(p)
    });
    let only = named.next()?;
    named.next().is_none().then(|| only.clone())
}

/// A file named as `path` is, under the deepest folder of `path` that
/// `listing` has (not the root): the one nearest that folder.
fn misplaced(path: &str, listing: &[String]) -> Option<String> {
    let (folder, name) = path.rsplit_once('/')?;
    let mut folder = folder;
    loop {
        let prefix = format!("{folder}/");
        let start = listing.partition_point(|p| p.as_str() < prefix.as_str());
        let inside = listing[start..]
            .iter()
            .take_while(|p| p.starts_with(&prefix));
        let mut found: Vec<&String> = Vec::new();
        let mut any = false;
        for p in inside {
            any = true;
            if p.rsplit('/').next() == Some(name) {
                found.push(p);
            }
        }
        if any {
            return found
                .into_iter()
                .min_by_key(|p| (p.matches('/').count(), p.as_str()))
                .cloned();
        }
        folder = folder.rsplit_once('/')?.0;
    }
}

/// Every path of the tree at `position`, listed once per commit.
fn listing_at<'l>(
    history: &mut History<'_>,
    listings: &'l mut BTreeMap<Oid, Option<Vec<String>>>,
    position: usize,
) -> Option<&'l Vec<String>> {
    let commit = history.commit_at(position)?;
    let repo = history.repo();
    listings
        .entry(commit)
        .or_insert_with(|| {
            repo.tree_snapshot(&commit.to_string())
                .ok()
                .map(|snapshot| crate::snapshot::Snapshot::paths(&snapshot).to_vec())
        })
        .as_ref()
}

/// The path a path, line or test cite names: without a `#fragment`, a line
/// cite's `:N` or `:N-M`, or a test cite's `::name`.
pub(super) fn cited_path(text: &str) -> &str {
    // A test cite's file: `tests/x.py::TestA::test_b`.
    let text = text.split("::").next().unwrap_or(text);
    let path = text.split('#').next().unwrap_or(text);
    match path.rsplit_once(':') {
        Some((head, lines))
            if !lines.is_empty()
                && lines
                    .chars()
                    .all(|c| c.is_ascii_digit() || "-–,".contains(c)) =>
        {
            head
        }
        _ => path,
    }
}

/// A link's paths and the pages a site renders at them (`x.html`, `x`, `x/`
/// from `x.md`, `x.mdx`, `x/index.md`, `x/README.md`), as the resolver reads a
/// link ([`page_sources`]): the page's source is what the history must have had.
fn with_sources(tried: Vec<String>, tier: Tier) -> Vec<String> {
    if tier == Tier::Inferred {
        return tried;
    }
    let mut all = Vec::new();
    for p in tried {
        let sources = page_sources(&p);
        all.push(p);
        all.extend(sources);
    }
    all
}

/// The positions a path's presence is sampled at: 1, 2, 4, … commits back
/// from the audited one, to the root.
fn sampled(history: &mut History<'_>) -> Vec<usize> {
    let mut positions = Vec::new();
    let mut position = 1;
    while history.commit_at(position).is_some() {
        positions.push(position);
        position *= 2;
    }
    // The line ended before the next power of two: its root too.
    let root = history.len().saturating_sub(1);
    if root > 0 && positions.last() != Some(&root) {
        positions.push(root);
    }
    positions
}

/// How a path went.
enum Broken {
    Commit(FateChain),
    /// Still committed at HEAD, gone from the working tree audited.
    WorkingTree,
}

/// The commit, after `present` (a position where `path` is there), at which
/// `path` is gone, and what became of it; `None` when it is there at the
/// audited commit after all (the record moved away from it, and its relative
/// path with it: not a question of the target's history).
fn broken(
    history: &mut History<'_>,
    present: usize,
    path: &str,
    lost_in_working_tree: bool,
) -> Option<Broken> {
    if history.id_at(0, path).is_some() {
        return lost_in_working_tree.then_some(Broken::WorkingTree);
    }
    let (_, absent) = turning_point(history, present, 0, |h, at| h.id_at(at, path).is_some());
    let commit = history.commit_at(absent)?;
    let first = history.repo().fate_at(commit, path)?;
    Some(Broken::Commit(followed(history, first, absent)))
}

/// `fate` (of a path gone at position `at`) followed through the renames
/// after it: a new path gone from the audited commit too is looked for
/// where it went, so the finding names the path as it is now, or says it
/// went.
fn followed(history: &mut History<'_>, fate: PathFate, mut at: usize) -> FateChain {
    let mut chain = FateChain {
        steps: vec![fate],
        lands: false,
    };
    while let Some(PathFate::Renamed { to, .. }) = chain.steps.last() {
        let to = to.clone();
        if history.id_at(0, &to).is_some() {
            chain.lands = true;
            break;
        }
        if chain.steps.len() >= FateChain::MAX_STEPS || history.id_at(at, &to).is_none() {
            break;
        }
        let (_, absent) = turning_point(history, at, 0, |h, p| h.id_at(p, &to).is_some());
        let Some(next) = history
            .commit_at(absent)
            .and_then(|commit| history.repo().fate_at(commit, &to))
        else {
            break;
        };
        chain.steps.push(next);
        at = absent;
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contributors_guide_is_read_in_this_trees_clone() {
        for guide in [
            "CONTRIBUTING.md",
            "docs/source/contributing.rst",
            "HOWTOCONTRIBUTE.rst",
            "TRANSLATING.md",
            "docs/development/setup.md",
            "docs/Developer-Guide.md",
        ] {
            assert!(contributors_guide(guide), "{guide}");
        }
        for page in [
            "README.md",
            "docs/guide/install.md",
            "docs/contributors-list.txt",
        ] {
            assert!(!contributors_guide(page), "{page}");
        }
    }

    #[test]
    fn a_path_the_reader_takes_or_fills_is_this_trees() {
        let side = |text: &str, path: &str| this_trees_side(text, text.find(path).unwrap_or(0));
        let copy = "To have it, add the `autocomplete/adr` script to your `/etc/bash.d`.";
        assert!(side(copy, "autocomplete/adr"));
        let folder = "Then you create a file inside of the ``docs/changelog`` folder.";
        assert!(side(folder, "docs/changelog"));
        // The reader's own file: what they add, or theirs by "your".
        let theirs = "On Netlify you can add a `docs/public/_redirects` file.";
        assert!(!side(theirs, "docs/public/_redirects"));
        let possessed = "Put it in your `docs/public/_headers` file.";
        assert!(!side(possessed, "docs/public/_headers"));
    }

    #[test]
    fn a_file_of_the_name_deeper_in_the_nearest_folder_is_the_one_meant() {
        let listing: Vec<String> = [
            "clippy_lints/Cargo.toml",
            "clippy_lints/src/lib.rs",
            "clippy_lints/src/methods/lib.rs",
            "docs/call/constructor.md",
        ]
        .iter()
        .map(|p| (*p).to_owned())
        .collect();
        assert_eq!(
            misplaced("clippy_lints/lib.rs", &listing).as_deref(),
            Some("clippy_lints/src/lib.rs")
        );
        assert_eq!(
            misplaced("docs/class/constructor.md", &listing).as_deref(),
            Some("docs/call/constructor.md")
        );
        // Its folder has no file of the name: nothing meant.
        assert_eq!(misplaced("docs/class/destructor.md", &listing), None);
        // The root is no evidence.
        assert_eq!(misplaced("other/lib.rs", &listing), None);
    }

    #[test]
    fn a_line_names_each_path_of_a_file_whole() {
        let line = "see `crates/ruff/src/a/settings.rs` and xsettings.rs, or settings.rs alone";
        assert_eq!(
            paths_named(line, "settings.rs"),
            ["crates/ruff/src/a/settings.rs"]
        );
        // A path inside a longer one is not a path of its own.
        assert_eq!(
            paths_named("`crates/core/src/a/settings.rs`", "settings.rs"),
            ["crates/core/src/a/settings.rs"]
        );
        assert!(paths_named("settings.rsx/y", "settings.rs").is_empty());
    }

    #[test]
    fn a_line_cite_names_its_path_without_its_lines() {
        assert_eq!(cited_path("src/a.rs:10-12"), "src/a.rs");
        assert_eq!(cited_path("src/a.rs:10–12"), "src/a.rs");
        assert_eq!(cited_path("src/a.rs#L10"), "src/a.rs");
        assert_eq!(cited_path("docs/x.md"), "docs/x.md");
    }
}
