//! Stage 4, the citation family's link resolver: a relative link's target
//! as the forge or the documentation site renders it (beside the page, from
//! the root, a page from its source, a snippet from the pages including it);
//! one that names nothing here ends in the registry's link chain, and a
//! fragment is read by `fragments.rs`.

use super::fragments;
use crate::checks::cites::anchors;
use crate::checks::cites::context::Context;
use crate::checks::cites::exemptions::{
    Exemption, Probe, generated_page, intersphinx, made_at_run_time, not_a_path, outside_checkout,
    placeholder,
};
use crate::checks::cites::labels::sphinx_folder;
use crate::checks::cites::locate::{from_above, page_sources, reader_paths};
use crate::checks::cites::model::CiteStatus;
use crate::error::Result;
use crate::snapshot::{Snapshot, has_file, has_folder};

/// Resolves a relative link target: from the record's folder (then the root),
/// a folder link to any folder, a page link (`x.html`) to the Markdown page a
/// documentation site renders it from (`x.md`). A link is an explicit
/// citation, so one that names nothing is stale unless `.gitignore` says the
/// target is made by a build.
pub(super) fn resolve_link(context: &Context<'_>, link: &LinkCite<'_>) -> Result<CiteStatus> {
    let fragment = link.fragment;
    let mut status = resolve_link_target(context, link, link.target, link.is_dir, link.document);
    // A rooted link of a Sphinx page (`</bottle.py>`) is an address on the
    // site: its pages come from the source folder, where it was looked for,
    // and a file the site serves beside them may be the repository's own at
    // that path from its root (bottle's download link to its one module).
    if !matches!(status, CiteStatus::Ok { .. })
        && let Some(path) = link.site_rooted
        && let paths = context.frame.snapshot.paths()
        && (has_file(paths, path) || (link.is_dir && has_folder(paths, path)))
    {
        status = CiteStatus::Ok {
            resolved: format!(
                "{path} (a rooted link of a Sphinx page, not in the source folder: the repository's own path from its root)"
            ),
        };
    }
    let (CiteStatus::Ok { resolved }, Some(fragment)) = (&status, fragment) else {
        return Ok(status);
    };
    // The anchor is asked of the page the link resolved to, whatever note
    // says how it was reached.
    let page = CiteStatus::resolved_path(resolved);
    Ok(fragments::check_fragment(context, page, fragment)?.unwrap_or(status))
}

/// The page of a Sphinx document reference, as Sphinx joins a document's
/// name to the referring one's: a relative name (`./x`, `../topics/x`, as the
/// finder writes every name without a leading `/`) from the referring page's
/// folder within the project's source folder, `..` stopping at that folder
/// (`:doc:`../topics/x`` from a page at the top is `topics/x`). A name from
/// the source folder the finder already made a repository path.
fn document_page(record: &str, target: &str, snapshot: &dyn Snapshot) -> Option<String> {
    if !target.starts_with("./") && !target.starts_with("../") {
        return reader_paths(record, target).and_then(|tried| tried.into_iter().last());
    }
    let Some(root) = sphinx_folder(record, snapshot) else {
        return reader_paths(record, target).and_then(|tried| tried.into_iter().next());
    };
    let prefix = if root.is_empty() {
        String::new()
    } else {
        format!("{root}/")
    };
    let inside = record.strip_prefix(&prefix)?;
    let mut parts: Vec<&str> = inside.split('/').collect();
    parts.pop();
    for segment in target.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    Some(format!("{prefix}{}", parts.join("/")))
}

/// Whether the reference at `at` is written as a `:doc:` role (rst's
/// `:doc:`x``, MyST's `{doc}`x``), not a toctree entry: the role's name
/// before the backtick that opens it, on the same line.
fn written_as_role(text: &str, at: usize) -> bool {
    // A role's title is short: a bounded look back, whatever the line's length.
    let mut from = at.saturating_sub(256);
    while from < at && !text.is_char_boundary(from) {
        from += 1;
    }
    let Some(window) = text.get(from..at) else {
        return false;
    };
    let before = window.rsplit('\n').next().unwrap_or(window);
    before
        .rfind('`')
        .is_some_and(|tick| before[..tick].ends_with(":doc:") || before[..tick].ends_with("{doc}"))
}

/// How `page`, one of the places the record is rendered, renders it: a
/// symbolic link to it, or a page including it.
fn how_rendered(context: &Context<'_>, page: &str) -> &'static str {
    let snapshot = &context.frame.snapshot;
    if snapshot.link_target(page).is_some() {
        "a symbolic link that publishes this page"
    } else if page
        .match_indices('/')
        .any(|(at, _)| snapshot.link_target(&page[..at]).is_some())
    {
        "where a symbolic link to its folder publishes it"
    } else {
        "which includes this page"
    }
}

/// A link cite as the finder read it.
pub(super) struct LinkCite<'a> {
    pub target: &'a str,
    pub is_dir: bool,
    pub fragment: Option<&'a str>,
    /// A Sphinx document reference.
    pub document: bool,
    /// Where the link points, as its page writes it (the finder writes a
    /// relative target with `./`): what its renderer reads.
    pub written: Option<&'a str>,
    /// A link written from the root (`/x.py`) that the finder read from a
    /// Sphinx page's source folder: the path from the repository's root.
    pub site_rooted: Option<&'a str>,
}

/// A link's target (its page or file, not its fragment).
fn resolve_link_target(
    context: &Context<'_>,
    link: &LinkCite<'_>,
    target: &str,
    is_dir: bool,
    document: bool,
) -> CiteStatus {
    let frame = context.frame;
    if target.is_empty() {
        // An in-page `#anchor`: the record itself.
        return CiteStatus::Ok {
            resolved: context.record.to_owned(),
        };
    }
    // A `:doc:` on a page no Sphinx project reads (no `conf.py` at or above
    // it, nor above a page that includes it, nor a gallery sphinx-gallery
    // copies into a project): the role is whatever renders the page's (a
    // site generator's own, which Nikola resolves by a page's slug), not a
    // Sphinx document's.
    if document
        && sphinx_folder(context.record, frame.snapshot.as_ref()).is_none()
        && context
            .includers
            .iter()
            .all(|page| sphinx_folder(page, frame.snapshot.as_ref()).is_none())
        && !context.galleries().iter().any(|copy| {
            context
                .record
                .strip_prefix(copy.examples.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        })
        && let Some(status) = context.exemptions.ask(Exemption::LabelElsewhere, || {
            crate::checks::cites::exemptions::label_elsewhere::no_project_document(target)
        })
    {
        return status;
    }
    // Nor one of a project no build of the repository runs.
    if document && let Some(status) = super::labels::built_by_nothing(context, target) {
        return status;
    }
    // Nor one a project holds but its build leaves out (`exclude_patterns`),
    // included by no page the build reads: no Sphinx build reads its roles.
    if document
        && super::labels::left_out_of_build(context)
        && let Some(status) = context.exemptions.ask(Exemption::LabelElsewhere, || {
            crate::checks::cites::exemptions::label_elsewhere::left_out_of_build(target)
        })
    {
        return status;
    }
    let tried = match document {
        true => document_page(context.record, target, frame.snapshot.as_ref()).map(|p| vec![p]),
        false => reader_paths(context.record, target).map(|mut tried| {
            // The forge reads a Markdown page's relative link from the
            // page's folder and nowhere else: `README_CN.md` on
            // `tools/b/README.md` is `tools/b/README_CN.md`, never the
            // root's namesake (a site's renderer may read further).
            if forge_only(context) {
                tried.truncate(1);
            }
            tried
        }),
    };
    let Some(tried) = tried else {
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
    // A source page may be a symlink (webtest's `docs/changelog.rst` to the
    // root's changelog): Sphinx reads it, so it is the page's source.
    // A Sphinx project reads documents from every suffix its `source_suffix`
    // names (`envvars.rst.jinja2` is the document `envvars`).
    let suffixes: Vec<String> = sphinx_folder(context.record, frame.snapshot.as_ref())
        .map(|folder| {
            super::labels::project_labels(context, folder)
                .source_suffix
                .clone()
        })
        .unwrap_or_default();
    let page_source = |p: &str| {
        let stem = p
            .strip_suffix(".html")
            .or_else(|| (!p.rsplit('/').next().unwrap_or(p).contains('.')).then_some(p));
        page_sources(p)
            .into_iter()
            .chain(
                stem.into_iter()
                    .flat_map(|stem| suffixes.iter().map(move |s| format!("{stem}{s}"))),
            )
            .find(|md| is_file(md) || frame.snapshot.holds_unread(md))
    };
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
    }
    // A snippet is written for the pages that include it: a file its link
    // names beside one of them is the one meant, before a page the folder
    // serves under another name (`index.md` read as the snippet's own
    // `README.md`).
    for page in context.includers {
        for p in reader_paths(page, target).unwrap_or_default() {
            let page_as_folder = is_dir && anchors::is_markdown(&p) && is_file(&p);
            if (!is_dir && is_file(&p)) || page_as_folder || is_folder(&p) {
                return CiteStatus::Ok {
                    resolved: format!("{p} (from {page}, {})", how_rendered(context, page)),
                };
            }
            // A file the including page's folder ignores (a draft the docs
            // build writes there, `.gitignore`d) is the build's, as one
            // beside the page would be.
            if let Some(status) = context
                .exemptions
                .ask(Exemption::Gitignored, || context.ignored(&p, is_dir))
            {
                return status;
            }
        }
    }
    // A page the build leaves out and no page of it includes is text a
    // docstring includes (`.. include:: fragments/flow.rst`): autodoc
    // renders it on a page the build writes at its source folder, and
    // Sphinx reads an included file's paths from the including page.
    if !is_dir
        && super::labels::left_out_of_build(context)
        && let Some(folder) = sphinx_folder(context.record, frame.snapshot.as_ref())
    {
        let written = match folder.as_str() {
            "" => "index.rst".to_owned(),
            folder => format!("{folder}/index.rst"),
        };
        if let Some(p) = reader_paths(&written, target)
            .unwrap_or_default()
            .into_iter()
            .find(|p| is_file(p))
        {
            return CiteStatus::Ok {
                resolved: format!(
                    "{p} (from the source folder, where autodoc renders the docstring that includes this page the build leaves out)"
                ),
            };
        }
    }
    for p in &tried {
        if let Some(md) = page_source(p).filter(|_| !context.hosted) {
            return CiteStatus::Ok { resolved: md };
        }
    }
    // An old address a page keeps in its front matter (`aliases:`,
    // `redirect_from:`) or a redirect table lists: the site writes a
    // redirect to the page there.
    if !context.hosted
        && let Some((alias, page)) = tried.iter().find_map(|p| {
            let alias = p.trim_end_matches('/');
            context.reads.page_aliases.get_key_value(alias)
        })
        && is_file(page)
    {
        *context.found.proven.borrow_mut() = true;
        // (An old page's source, `slate.md`, names the address built from
        // it; any other alias is a folder's address.)
        let address = if anchors::is_markdown(alias) {
            alias.clone()
        } else {
            format!("{alias}/")
        };
        return CiteStatus::Ok {
            resolved: format!("{page} (the site keeps `{address}` as an old address of it)"),
        };
    }
    // A page sphinx-gallery copies into a Sphinx source folder is read by
    // Sphinx where the copy lands (`../tutorial` from the gallery's folder).
    if !context.hosted {
        for copy in context.galleries().iter() {
            // A document the gallery writes: its folder's header or an
            // example's page.
            if let Some(source) = tried.iter().find_map(|p| copy.source_of(p, is_file)) {
                *context.found.proven.borrow_mut() = true;
                return CiteStatus::Ok {
                    resolved: format!(
                        "{source} (sphinx-gallery renders it into `{}`, as {} has it)",
                        copy.gallery, copy.conf
                    ),
                };
            }
            let Some(published) = copy.published(context.record) else {
                continue;
            };
            for p in reader_paths(&published, target).unwrap_or_default() {
                let found = if is_file(&p) {
                    Some(p)
                } else {
                    page_source(&p)
                };
                if let Some(found) = found {
                    *context.found.proven.borrow_mut() = true;
                    return CiteStatus::Ok {
                        resolved: format!(
                            "{found} (from {published}, where {} has sphinx-gallery copy the page)",
                            copy.conf
                        ),
                    };
                }
            }
        }
    }
    // What the page's renderer reads the link as, beyond its folder
    // (Docusaurus: from its content folder too).
    if !context.hosted {
        let written = link
            .written
            .map(|w| w.split(['#', '?']).next().unwrap_or(w))
            .unwrap_or(target);
        for p in context.renderers().more_paths(context.record, written) {
            if (!is_dir && is_file(&p)) || is_folder(&p) || page_source(&p).is_some() {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!(
                        "{found} (from its site's content folder, as its renderer reads the link)"
                    ),
                };
            }
        }
    }
    // A page the site writes as it builds, or keeps as a redirect (MkDocs'
    // nav pages a plugin generates, its redirect maps).
    if !context.hosted
        && let Some(served) = tried
            .iter()
            .find_map(|p| context.renderers().serves(context.record, p))
    {
        return CiteStatus::Ok { resolved: served };
    }
    // A listed page where a plugin or hook writes pages: the build's, unless
    // the history shows the tree kept it (a page renamed is not written).
    if !context.hosted
        && let Some(status) = context.exemptions.ask(Exemption::BuiltPage, || {
            tried
                .iter()
                .find_map(|p| context.renderers().may_write(context.record, p))
        })
    {
        return status;
    }
    // A site with directory URLs serves `a/page.md` at `a/page/`, so the page's
    // `../x.png` is `a/x.png`: read from the page as a folder too. On a MkDocs
    // site so, a link MkDocs cannot rewrite is left to the browser, which
    // reads any relative link from there (`studio.png` on `docs/migration.md`
    // is `docs/migration/studio.png`).
    let as_folder = if target.starts_with("../") {
        context
            .record
            .strip_suffix(".md")
            .or_else(|| context.record.strip_suffix(".mdx"))
            .map(|page| format!("{page}/index.md"))
    } else if !context.hosted && !target.starts_with('/') {
        context.renderers().page_folder(context.record)
    } else {
        None
    };
    if let Some(as_folder) = as_folder {
        let page = as_folder.strip_suffix("/index.md").unwrap_or(&as_folder);
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
    // A package README the npm registry shows: npm reads its relative links
    // from the repository's root, where its `package.json` names no
    // `directory` (`./LICENSE` is the root's).
    if !context.hosted {
        for p in context.renderers().registry_paths(context.record, target) {
            if (!is_dir && is_file(&p)) || is_folder(&p) {
                return CiteStatus::Ok {
                    resolved: format!(
                        "{p} (from the repository's root, as the npm registry renders the package's README)"
                    ),
                };
            }
        }
    }
    // A snippet is rendered inside the pages that include it: its relative
    // links are followed from there.
    for page in context.includers {
        for p in reader_paths(page, target).unwrap_or_default() {
            // Under a link (the place a folder link publishes the page at)
            // nothing is read: only a file of the tree proves the link. (A
            // link itself, `LICENSE` → `pkg/LICENSE`, is an entry of the tree.)
            let under_link = frame
                .snapshot
                .unread_entry(&p)
                .is_some_and(|entry| entry != p);
            if (!is_dir && is_file(&p))
                || is_folder(&p)
                || (!under_link && page_source(&p).is_some())
            {
                let found = page_source(&p).filter(|_| !is_file(&p)).unwrap_or(p);
                return CiteStatus::Ok {
                    resolved: format!("{found} (from {page}, {})", how_rendered(context, page)),
                };
            }
        }
    }
    let written = tried.first().cloned().unwrap_or_default();
    // The tree's own proof of what a link written from the wrong folder
    // meant: a file (with a file type's extension) there from a folder above
    // the page. The forge reads a link from its page, so it never worked;
    // stale whatever the sentence says, with that file as the fix. Not on a
    // template a project is generated from: its links are the generated
    // project's, whose files sit beside it there.
    // A file the page's Sphinx project writes as the build starts (its
    // `conf.py` writes files and names this one) is the build's, whatever
    // file of that name stands above the page.
    if !is_dir
        && !document
        && let Some(status) = context.exemptions.ask(Exemption::MadeAtRunTime, || {
            let folder = sphinx_folder(context.record, frame.snapshot.as_ref())?;
            let project = super::labels::project_labels(context, folder);
            let by = project.file_written_at_build(&written)?;
            Some(format!(
                "no commit of the tree keeps `{written}`, and {by} (it names `{}`)",
                written.rsplit('/').next().unwrap_or(&written)
            ))
        })
    {
        return status;
    }
    // A translation's page that links a page its language lacks lands on
    // the source language's, as the site's fallback serves it (MkDocs'
    // i18n plugin beside `docs/`): the renderer's answer comes before the
    // tree's guess that the link was written from the wrong folder.
    // (The one probe of this link, which the exemption chain reads below.)
    let probe = Probe {
        context,
        cited: target,
        path: &written,
        is_dir,
        link: true,
        document,
    };
    if let Some(status) = context.exemptions.ask(Exemption::TranslationFallback, || {
        crate::checks::cites::exemptions::translation_fallback::fires(&probe)
    }) {
        return status;
    }
    let file_named = target
        .rsplit('/')
        .next()
        .is_some_and(not_a_path::has_extension);
    if !document
        && !is_dir
        && file_named
        && !placeholder::is_template(context.record)
        && let Some(found) = from_above(context.record, target)
            .into_iter()
            .find(|p| !tried.contains(p) && is_file(p))
    {
        *context.found.proven.borrow_mut() = true;
        let mut why = format!(
            "the link names no file `{written}` at {} (it is read from its page's folder); `{found}` is there, from a folder above the page",
            frame.label
        );
        // The forge would open it from there; a site that builds the page
        // from its own folder would not: the link's right form there is
        // for a person to choose (an address of the forge, a page).
        let site = context.renderers().leaves_site(context.record, &found);
        if let Some(site) = site {
            why.push_str(&format!(
                ", outside the {site} site that builds the page: a dead link there too"
            ));
        }
        return CiteStatus::Stale {
            why,
            suggestion: Some(found),
            guessed: site.is_some(),
        };
    }
    // `genindex`, `modindex`, `search`: pages Sphinx makes itself, which a
    // toctree entry may name from any folder of the project.
    let page_name = written.rsplit('/').next().unwrap_or(&written);
    if document
        && crate::checks::cites::labels::BUILT_IN
            .contains(&page_name.strip_suffix(".html").unwrap_or(page_name))
    {
        return CiteStatus::Ok {
            resolved: format!("{written} (a page Sphinx makes itself)"),
        };
    }
    if document {
        // A document is the project's or nothing: no reading of the link's
        // shape sets it aside, only a build that makes it (autosummary's
        // `generated/`, a gallery), as `.gitignore` says.
        let sources = page_sources(&written);
        let stem = written.strip_suffix(".html").unwrap_or(&written);
        // A `:doc:` role (not a toctree entry) of a project that lets
        // intersphinx resolve documents: another project's, perhaps.
        let elsewhere = || {
            let role = written_as_role(context.text, context.at);
            let folder = sphinx_folder(context.record, frame.snapshot.as_ref())?;
            let project = super::labels::project_labels(context, folder);
            (role && project.documents_elsewhere).then(|| intersphinx::document(target))
        };
        // A page `conf.py` itself writes by its file's name (wradlib's
        // `open("reference.md", mode="w")`) is there in every build: the
        // build resolves it, whatever the history kept or deleted.
        if let Some(folder) = sphinx_folder(context.record, frame.snapshot.as_ref()) {
            let project = super::labels::project_labels(context, folder);
            if let Some((source, by)) = sources
                .iter()
                .find_map(|source| Some((source, project.file_written_at_build(source)?)))
            {
                return CiteStatus::Ok {
                    resolved: format!("{source} ({by})"),
                };
            }
        }
        // A page the build writes before Sphinx reads the sources.
        let written_at_build = || {
            let folder = sphinx_folder(context.record, frame.snapshot.as_ref())?;
            let document = if folder.is_empty() {
                stem
            } else {
                stem.strip_prefix(&format!("{folder}/"))?
            };
            let project = super::labels::project_labels(context, folder);
            made_at_run_time::document(stem, project.written_at_build(document)?)
        };
        return context
            .exemptions
            .ask(Exemption::Gitignored, || {
                sources.iter().find_map(|s| context.ignored(s, false))
            })
            .or_else(|| context.exemptions.ask(Exemption::Intersphinx, elsewhere))
            .or_else(|| {
                context
                    .exemptions
                    .ask(Exemption::MadeAtRunTime, written_at_build)
            })
            .or_else(|| {
                context.exemptions.ask(Exemption::GeneratedPage, || {
                    generated_page::named_by_build(
                        &context.generator_files(),
                        (frame.snapshot.paths(), &context.path_names()),
                        &sources,
                    )
                    .or_else(|| {
                        let folder = sphinx_folder(context.record, frame.snapshot.as_ref())?;
                        generated_page::made_by_build(
                            &context.generator_files(),
                            (frame.snapshot.paths(), &context.path_names()),
                            stem,
                            &folder,
                        )
                    })
                })
            })
            .unwrap_or_else(|| {
                CiteStatus::stale(format!(
                    "no document `{stem}` (no {}) at {}: Sphinx warns of an unknown document",
                    sources
                        .iter()
                        .map(|s| format!("`{}`", s.rsplit('/').next().unwrap_or(s)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    frame.label
                ))
            });
    }
    // A file the build writes before the renderer reads the pages: named
    // by a build file, or, on a Sphinx page, by the project's `conf.py`,
    // which writes files as the build starts.
    if !is_dir {
        let built = context.exemptions.ask(Exemption::GeneratedPage, || {
            generated_page::named_by_build(
                &context.generator_files(),
                (frame.snapshot.paths(), &context.path_names()),
                &tried,
            )
            .or_else(|| {
                // (A link relative to its page; one from the root is not
                // moved with it.)
                (!target.starts_with('/'))
                    .then(|| {
                        generated_page::generator_input(
                            &context.generator_configs(),
                            frame.snapshot.paths(),
                            context.record,
                            target,
                        )
                    })
                    .flatten()
            })
            .or_else(|| {
                generated_page::unwritten_by_openapi_generator(
                    frame.snapshot.as_ref(),
                    context.record,
                    target,
                )
            })
        });
        if let Some(status) = built {
            return status;
        }
    }
    let missing = format!(
        "the link names no {} `{written}` at {}",
        if is_dir { "folder" } else { "file" },
        frame.label
    );
    // A web address written without its scheme is read as a path by every
    // renderer: it never worked, and the address it meant is plain.
    let as_written = link.written.unwrap_or(target);
    if !document
        && let Some(address) = crate::checks::cites::exemptions::cross_reference::web_address(
            as_written,
            frame.snapshot.paths(),
        )
    {
        return CiteStatus::Stale {
            why: format!(
                "{missing}: `{as_written}` is a web address written without `https://`, which its page's renderer reads as a path of this repository"
            ),
            suggestion: Some(address),
            guessed: true,
        };
    }
    // A folder the tree lacks is another site's guess only where no site
    // of the tree builds the page: a site's renderer has just read a link to
    // a page every way it would, and a reader who follows it lands on
    // nothing. (An asset may be served from a folder the site copies.)
    let site = context.renderers().of_page(context.record).site_name();
    match context.exemptions.first(&probe, true) {
        Some((Exemption::ForeignRoot, _))
            if let Some(site) = site
                .filter(|_| !document && (target.ends_with(".md") || target.ends_with(".mdx"))) =>
        {
            CiteStatus::stale(format!(
                "{missing}, nor anywhere {site} reads a link of this page from"
            ))
        }
        Some((exemption, why)) => {
            if exemption.stale_if_history_knows() {
                *context.found.stale_if_history_knows.borrow_mut() = Some(missing);
            }
            CiteStatus::Skipped { exemption, why }
        }
        // Read by the page's site from elsewhere too, and missing there.
        None if let Some(site) = site
            && let elsewhere = context.renderers().more_paths(context.record, as_written)
            && let Some(first) = elsewhere.first() =>
        {
            CiteStatus::stale(format!(
                "{missing}, nor at `{first}`, where {site} reads a link of this page from"
            ))
        }
        None => CiteStatus::stale(missing),
    }
}

/// Whether the page is a Markdown page no site renders, in a folder: the
/// forge alone reads its links. Not a page an agent reads (a skill, a plan,
/// an agent's instructions: the agent works at the repository's root and
/// reads its paths from there), nor one a `Doxyfile` takes as input (Doxygen
/// reads its links by the paths its run names them by).
fn forge_only(context: &Context<'_>) -> bool {
    let markdown = [".md", ".markdown"]
        .iter()
        .any(|ext| context.record.ends_with(ext));
    markdown
        && context.record.contains('/')
        && !agent_read(context.record)
        && matches!(
            context.renderers().of_page(context.record),
            crate::checks::cites::renderers::Renderer::Forge
        )
        && !doxygen_input(context)
}

/// Whether a coding agent is the page's reader: under an agent's folder
/// (`.agents/`, `.claude/`, `.cursor/`, `.github/instructions/`), or named
/// as an agent's page (`AGENTS.md`, `CLAUDE.md`, `SKILL.md`, `x.plan.md`,
/// `x.prompt.md`, `x.instructions.md`).
fn agent_read(record: &str) -> bool {
    const FOLDERS: &[&str] = &[
        ".agents/",
        ".agent/",
        ".claude/",
        ".cursor/",
        ".codex/",
        ".windsurf/",
        ".github/instructions/",
        ".github/prompts/",
    ];
    const NAMES: &[&str] = &["AGENTS.md", "CLAUDE.md", "GEMINI.md", "SKILL.md"];
    const ENDINGS: &[&str] = &[".plan.md", ".prompt.md", ".instructions.md"];
    let name = record.rsplit('/').next().unwrap_or(record);
    FOLDERS
        .iter()
        .any(|f| record.starts_with(f) || record.contains(&format!("/{f}")))
        || NAMES.contains(&name)
        || ENDINGS.iter().any(|e| name.ends_with(e))
}

/// Whether a Doxyfile of the tree names the page among its inputs.
fn doxygen_input(context: &Context<'_>) -> bool {
    // A tree keeps a Doxyfile or two, found by name in the index of the
    // tree's names (no pass over the tree per link); each read capped as a
    // parsed file.
    const MAX_DOXYFILES: usize = 4;
    let names = context.path_names();
    let snapshot = context.frame.snapshot.as_ref();
    let paths = snapshot.paths();
    names
        .doxyfiles()
        .iter()
        .filter_map(|&i| paths.get(i))
        .take(MAX_DOXYFILES)
        .any(|doxyfile| {
            snapshot
                .read_text_to_parse(doxyfile)
                .ok()
                .flatten()
                .is_some_and(|text| text.contains(context.record))
        })
}

#[cfg(test)]
mod tests {
    use super::{LinkCite, document_page, resolve_link};
    use crate::checks::cites::context::Reads;
    use crate::checks::cites::model::{CiteStatus, ExemptionSettings};
    use crate::checks::cites::testing;

    /// What the resolver makes of a link to `target` (a Sphinx document's
    /// name when `document`) on `record`, in a tree of `files`.
    fn link_status(
        files: &[(&str, &str)],
        record: &str,
        target: &str,
        document: bool,
    ) -> CiteStatus {
        let frame = testing::frame(files);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let context = testing::context(&frame, &reads, &on, record, target);
        let link = LinkCite {
            target,
            is_dir: false,
            fragment: None,
            document,
            written: None,
            site_rooted: None,
        };
        resolve_link(&context, &link).expect("resolves")
    }

    #[test]
    fn a_forge_page_reads_a_relative_link_from_its_folder_alone() {
        // The root's namesake is not the page's sibling: a dead link.
        let files = [
            ("README_CN.md", "# Root\n"),
            ("tools/b/README.md", "[中文](README_CN.md)\n"),
        ];
        let status = link_status(&files, "tools/b/README.md", "README_CN.md", false);
        assert!(matches!(status, CiteStatus::Stale { .. }), "{status:?}");
        // The sibling the page means.
        let files = [
            ("README_CN.md", "# Root\n"),
            ("tools/b/README_CN.md", "# B\n"),
            ("tools/b/README.md", "[中文](README_CN.md)\n"),
        ];
        let status = link_status(&files, "tools/b/README.md", "README_CN.md", false);
        assert!(
            matches!(&status, CiteStatus::Ok { resolved } if resolved == "tools/b/README_CN.md"),
            "{status:?}"
        );
    }

    #[test]
    fn an_agents_page_and_a_doxygen_input_read_links_from_the_root() {
        let files = [
            ("README_CN.md", "# Root\n"),
            ("plans/next.plan.md", "[x](README_CN.md)\n"),
            ("doc/dom.md", "[x](README_CN.md)\n"),
            (
                "doc/Doxyfile.zh-cn.in",
                "INPUT = readme.md \\\n  ./doc/dom.md\n",
            ),
        ];
        for page in ["plans/next.plan.md", "doc/dom.md"] {
            let status = link_status(&files, page, "README_CN.md", false);
            assert!(
                matches!(status, CiteStatus::Ok { .. }),
                "{page}: {status:?}"
            );
        }
    }

    #[test]
    fn a_translations_link_falls_back_before_any_folder_above_is_guessed() {
        let files = [
            ("docs/agents.md", "# Agents\n"),
            ("docs/ja/agents.md", "# Agents\n"),
            ("docs/ref/lifecycle.md", "# Lifecycle\n"),
        ];
        let status = |record: &str| link_status(&files, record, "ref/lifecycle.md", false);
        // The Japanese page's link lands on the source page, as the site
        // serves it; the same link on an English page beside `ref/`
        // resolves, and one written a folder too deep is stale.
        assert!(matches!(
            status("docs/ja/agents.md"),
            CiteStatus::Skipped { .. }
        ));
        assert!(matches!(status("docs/agents.md"), CiteStatus::Ok { .. }));
        assert!(matches!(
            status("docs/guide/agents.md"),
            CiteStatus::Stale { .. }
        ));
    }

    #[test]
    fn a_web_address_without_its_scheme_is_stale_with_the_address_guessed() {
        let files = [("README.md", ""), ("pandas/io/api.py", "")];
        let status = |target: &str| link_status(&files, "README.md", target, false);
        match status("docs.sentry.io/platforms/") {
            CiteStatus::Stale {
                suggestion,
                guessed,
                why,
            } => {
                assert_eq!(
                    suggestion.as_deref(),
                    Some("https://docs.sentry.io/platforms/")
                );
                assert!(guessed, "a guess is never offered as a fix");
                assert!(why.contains("without `https://`"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        // A name in code the tree has (a MyST cross-reference) stays a name.
        assert!(matches!(status("pandas.io"), CiteStatus::Skipped { .. }));
    }

    #[test]
    fn the_pages_sphinx_makes_itself_are_documents_of_every_project() {
        let files = [("docs/conf.py", ""), ("docs/api/index.md", "")];
        let status = |target: &str| link_status(&files, "docs/api/index.md", target, true);
        assert!(matches!(
            status("docs/genindex.html"),
            CiteStatus::Ok { .. }
        ));
        assert!(matches!(status("docs/modindex"), CiteStatus::Ok { .. }));
        assert!(matches!(status("docs/usage"), CiteStatus::Stale { .. }));
    }

    #[test]
    fn a_document_name_is_joined_as_sphinx_joins_it() {
        let paths = crate::snapshot::memory::MemorySnapshot::new(&[
            ("docs/conf.py", ""),
            ("docs/user_guide.rst", ""),
            ("docs/topics/x.md", ""),
        ]);
        // `..` stops at the source folder.
        assert_eq!(
            document_page("docs/user_guide.rst", "../topics/x.html", &paths).as_deref(),
            Some("docs/topics/x.html")
        );
        assert_eq!(
            document_page("docs/topics/x.md", "./y.html", &paths).as_deref(),
            Some("docs/topics/y.html")
        );
        // Made a repository path by the finder (a leading `/`).
        assert_eq!(
            document_page("docs/topics/x.md", "docs/usage.html", &paths).as_deref(),
            Some("docs/usage.html")
        );
    }
}
