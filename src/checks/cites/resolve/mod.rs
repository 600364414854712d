//! Stage 4, the citation family's resolvers: one file per cite kind, each
//! reading its cite against the cite's frame and ending, where it names
//! nothing, in the exemption registry. This module only hands each cite to
//! the resolver of its kind.

mod fragments;
mod labels;
mod lines;
mod links;
mod objects;
mod paths;
mod test_ids;

pub(super) use labels::project_labels;

use std::sync::Arc;

use super::anchors::{self, Fragment};
use super::cfg::CitesPlan;
use super::context::{Context, locked};
use super::exemptions::{Exemption, changelog_removal, unused_target};
use super::find::{Cite, CiteKind};
use super::labels::sphinx_folder;
use super::model::{CiteClass, CiteStatus, Tier};
use crate::error::Result;

/// How surely a record means a citation of this kind: a backticked path is
/// read as one heuristically; every other kind is written on purpose.
pub(super) fn tier_of(kind: &CiteKind) -> Tier {
    match kind {
        CiteKind::Path { .. } => Tier::Inferred,
        _ => Tier::Explicit,
    }
}

/// The class a citation found in prose belongs to: which check judges it.
pub(super) fn class_of(kind: &CiteKind) -> CiteClass {
    match kind {
        CiteKind::Test { .. }
        | CiteKind::RustTest { .. }
        | CiteKind::RustPath { .. }
        | CiteKind::ModuleTest { .. } => CiteClass::Test,
        CiteKind::Line { .. } => CiteClass::Line,
        // `a.rs#L10-L20` cites lines, as `a.rs:10-20` does.
        CiteKind::Link {
            target,
            fragment: Some(fragment),
            ..
        } if !target.is_empty()
            && !anchors::is_page(target)
            && matches!(Fragment::parse(fragment), Fragment::Lines { .. }) =>
        {
            CiteClass::Line
        }
        CiteKind::Path { .. }
        | CiteKind::Link { .. }
        | CiteKind::Label { .. }
        | CiteKind::PyObject { .. } => CiteClass::Path,
    }
}

/// Resolves one cite with the resolver of its kind; what it found beside the
/// status is left in `context.found`.
pub(super) fn resolve(
    cite: &Cite,
    context: &Context<'_>,
    settings: &CitesPlan,
) -> Result<CiteStatus> {
    // A file the citation needs read that is over its cap leaves the
    // citation unverified, saying which file and why; the run goes on.
    match resolve_within_caps(cite, context, settings) {
        Err(crate::error::Error::TooLarge(too_large)) => Ok(CiteStatus::Unverified {
            why: format!("{}{too_large}", crate::checks::cites::model::NOT_READ),
        }),
        decided => decided,
    }
}

fn resolve_within_caps(
    cite: &Cite,
    context: &Context<'_>,
    settings: &CitesPlan,
) -> Result<CiteStatus> {
    if let Some(status) = unused_target(context, settings) {
        return Ok(status);
    }
    // A cite its author struck through (`~~`app/x.py:208`~~`) is shown
    // deleted, whatever its kind: retired on the page, not drift, whether
    // or not it still resolves (a line's text may have changed since).
    if !crate::records::rst::is_rst(context.record)
        && let Some(status) = settings.exemptions.ask(Exemption::ChangelogRemoval, || {
            changelog_removal::struck(context)
        })
    {
        return Ok(status);
    }
    Ok(match &cite.kind {
        CiteKind::Test {
            path,
            class,
            name,
            elided_prefix,
            ..
        } => test_ids::resolve_python_test(
            context,
            settings,
            path,
            *elided_prefix,
            class.as_deref(),
            name,
        )?,
        CiteKind::RustTest {
            path,
            modules,
            name,
            elided_prefix,
        } => test_ids::resolve_rust_test(context, settings, path, *elided_prefix, modules, name)?,
        CiteKind::RustPath { segments } => {
            test_ids::resolve_rust_path(context, settings, segments)?
        }
        CiteKind::ModuleTest {
            module, segments, ..
        } => test_ids::resolve_module_test(context, settings, module, segments)?,
        CiteKind::Line {
            path,
            start,
            end,
            elided_prefix,
        } => lines::resolve_line(
            context,
            settings,
            &lines::LineCite {
                cited: &cite.cite_text(),
                path,
                start: *start,
                end: *end,
                elided_prefix: *elided_prefix,
            },
        )?,
        CiteKind::Path { path, is_dir } => paths::resolve_path(
            context,
            settings,
            path,
            *is_dir,
            cite.outside_link.as_deref(),
        ),
        CiteKind::Link {
            target,
            is_dir,
            fragment,
            document,
        } => links::resolve_link(
            context,
            &links::LinkCite {
                target,
                is_dir: *is_dir,
                fragment: fragment.as_deref(),
                document: *document,
                written: cite.destination.as_deref(),
                // Written from the root, read from the source folder.
                site_rooted: cite
                    .destination
                    .as_deref()
                    .filter(|_| !*document && !target.starts_with('/'))
                    .and_then(|d| d.strip_prefix('/'))
                    .filter(|d| !d.starts_with('/'))
                    .map(|d| {
                        d.split(['#', '?'])
                            .next()
                            .unwrap_or(d)
                            .trim_end_matches('/')
                    }),
            },
        )?,
        CiteKind::Label { label } => labels::resolve_label(context, label),
        CiteKind::PyObject { role, names } => objects::resolve_object(context, role, names),
    })
}

/// The address of an rst hyperlink target no reference uses, in its page or
/// the pages that include it, set aside (`unused-target`): unless the Sphinx
/// project's `conf.py` names the page, as an `rst_epilog` that reads it does.
/// A target's address to the repository's own hosted page is asked too: the
/// rule file's exemptions decide, as the page renders it nowhere either way.
fn unused_target(context: &Context<'_>, settings: &CitesPlan) -> Option<CiteStatus> {
    if !crate::records::rst::is_rst(context.record) {
        return None;
    }
    let name = unused_target::target_name(context.text, context.at)?;
    settings.exemptions.ask(Exemption::UnusedTarget, || {
        let snapshot = &context.frame.snapshot;
        let read = |path: &str| snapshot.read_text_to_parse(path).ok().flatten();
        let file = context.record.rsplit('/').next().unwrap_or(context.record);
        if let Some(folder) = sphinx_folder(context.record, snapshot.as_ref()) {
            let conf = crate::checks::cites::labels::conf_of(&folder, snapshot.paths());
            if read(&conf).is_some_and(|text| text.contains(file)) {
                return None;
            }
        }
        // Each page's references are read once, whatever the number of
        // targets asked of it: a page of many targets stays linear.
        let names_of = |page: &str, text: Option<&str>| {
            let key = (context.frame.label.clone(), page.to_owned());
            if let Some(names) = locked(&context.reads.rst_references).get(&key) {
                return Some(Arc::clone(names));
            }
            let names = match text {
                Some(text) => unused_target::referenced_names(text),
                None => unused_target::referenced_names(&read(page)?),
            };
            let names = Arc::new(names);
            locked(&context.reads.rst_references).insert(key, Arc::clone(&names));
            Some(names)
        };
        let pages: Vec<_> = std::iter::once(names_of(context.record, Some(context.text)))
            .chain(context.includers.iter().map(|p| names_of(p, None)))
            .flatten()
            .collect();
        unused_target::fires(&name, pages.iter().map(|names| &**names))
    })
}

/// `1 line`, `21 lines`.
fn count_of_lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}
