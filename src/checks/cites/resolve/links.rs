//! Stage 4, the citation family's link resolver: a relative link's target
//! as the forge or the documentation site renders it (beside the page, from
//! the root, a page from its source, a snippet from the pages including it);
//! one that names nothing here ends in the registry's link chain, and a
//! fragment is read by `fragments.rs`.

use super::fragments;
use crate::checks::cites::anchors;
use crate::checks::cites::context::Context;
use crate::checks::cites::exemptions::{Exemption, Probe, outside_checkout};
use crate::checks::cites::locate::{page_sources, reader_paths};
use crate::checks::cites::model::CiteStatus;
use crate::error::Result;
use crate::snapshot::{has_file, has_folder};

/// Resolves a relative link target: from the record's folder (then the root),
/// a folder link to any folder, a page link (`x.html`) to the Markdown page a
/// documentation site renders it from (`x.md`). A link is an explicit
/// citation, so one that names nothing is stale unless `.gitignore` says the
/// target is made by a build.
pub(super) fn resolve_link(
    context: &Context<'_>,
    target: &str,
    is_dir: bool,
    fragment: Option<&str>,
) -> Result<CiteStatus> {
    let status = resolve_link_target(context, target, is_dir);
    let (CiteStatus::Ok { resolved }, Some(fragment)) = (&status, fragment) else {
        return Ok(status);
    };
    Ok(fragments::check_fragment(context, resolved, fragment)?.unwrap_or(status))
}

/// A link's target (its page or file, not its fragment).
fn resolve_link_target(context: &Context<'_>, target: &str, is_dir: bool) -> CiteStatus {
    let frame = context.frame;
    if target.is_empty() {
        // An in-page `#anchor`: the record itself.
        return CiteStatus::Ok {
            resolved: context.record.to_owned(),
        };
    }
    let Some(tried) = reader_paths(context.record, target) else {
        return context
            .exemptions
            .ask(Exemption::OutsideCheckout, || {
                outside_checkout::link(context.record, target)
            })
            .unwrap_or_else(|| {
                CiteStatus::stale(format!(
                    "`{target}` leaves the repository; recount reads nothing outside it"
                ))
            });
    };
    let paths = frame.snapshot.paths();
    let is_file = |p: &str| has_file(paths, p);
    let is_folder = |p: &str| has_folder(paths, p);
    let page_source = |p: &str| page_sources(p).into_iter().find(|md| is_file(md));
    for p in &tried {
        // `overview.md/`: a page written as a folder, as directory URLs render
        // it, is that page.
        let page_as_folder = is_dir && anchors::is_markdown(p) && is_file(p);
        if (!is_dir && is_file(p))
            || page_as_folder
            || is_folder(p)
            || frame.snapshot.holds_unread(p)
        {
            return CiteStatus::Ok {
                resolved: p.clone(),
            };
        }
        if let Some(md) = page_source(p).filter(|_| !context.hosted) {
            return CiteStatus::Ok { resolved: md };
        }
    }
    // A site with directory URLs serves `a/page.md` at `a/page/`, so the page's
    // `../x.png` is `a/x.png`: read from the page as a folder too.
    if target.starts_with("../")
        && let Some(page) = context
            .record
            .strip_suffix(".md")
            .or_else(|| context.record.strip_suffix(".mdx"))
    {
        let as_folder = format!("{page}/index.md");
        for p in reader_paths(&as_folder, target).unwrap_or_default() {
            if (!is_dir && is_file(&p)) || is_folder(&p) || page_source(&p).is_some() {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!(
                        "{found} (from the page's own address, `{page}/`, as a site with directory URLs serves it)"
                    ),
                };
            }
        }
    }
    // A snippet is rendered inside the pages that include it: its relative
    // links are followed from there.
    for page in context.includers {
        for p in reader_paths(page, target).unwrap_or_default() {
            if (!is_dir && is_file(&p)) || is_folder(&p) || page_source(&p).is_some() {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!("{found} (from {page}, which includes this page)"),
                };
            }
        }
    }
    let written = tried.first().cloned().unwrap_or_default();
    let missing = format!(
        "the link names no {} `{written}` at {}",
        if is_dir { "folder" } else { "file" },
        frame.label
    );
    let probe = Probe {
        context,
        cited: target,
        path: &written,
        is_dir,
        link: true,
    };
    match context.exemptions.first(&probe, true) {
        Some((exemption, why)) => {
            if exemption.stale_if_history_knows() {
                *context.found.stale_if_history_knows.borrow_mut() = Some(missing);
            }
            CiteStatus::Skipped { exemption, why }
        }
        None => CiteStatus::stale(missing),
    }
}
