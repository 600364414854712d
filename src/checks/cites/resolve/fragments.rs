//! Stage 4, the citation family's fragment resolver: a link's `#fragment` on
//! the file it resolved to — a heading or anchor of a page, lines of a file,
//! a literalinclude's `:pyobject:` or its start and end markers. An anchor a
//! page lacks asks the registry (`unread-include`, `lint-silenced`).

use std::sync::Arc;

use super::count_of_lines;
use crate::checks::cites::anchors::{self, Fragment, PageAnchors};
use crate::checks::cites::context::{Context, IncludedAnchors, locked};
use crate::checks::cites::exemptions::{
    Exemption, generated_page, lint_silenced, placeholder, unread_include,
};
use crate::checks::cites::labels::{LabelFate, sphinx_folder};
use crate::checks::cites::locate::included_path;
use crate::checks::cites::model::{AnchorTarget, CiteStatus, LineTarget};
use crate::checks::cites::testdefs::{self, TestLanguage};
use crate::error::{Error, Result};
use crate::records::rst::normalised_label;
use crate::snapshot::has_file;

/// A link's `#fragment` on the file it resolved to. `None` when it holds.
pub(super) fn check_fragment(
    context: &Context<'_>,
    file: &str,
    fragment: &str,
) -> Result<Option<CiteStatus>> {
    if !has_file(context.frame.snapshot.paths(), file) {
        // A folder, a submodule, a symlink: nothing here to hold an anchor.
        return Ok(None);
    }
    // `#:~:text=…`: a browser's text fragment, a search on the page, not an
    // anchor it must offer.
    // `##`: a link that goes nowhere on purpose (a tooltip's `[x](## "…")`);
    // no page can offer an id of `#` alone.
    if fragment.starts_with(":~:") || fragment.chars().all(|c| c == '#') {
        return Ok(None);
    }
    match Fragment::parse(fragment) {
        Fragment::PyObject(object) => py_object(context, file, &object),
        Fragment::Markers {
            start_after,
            end_before,
        } => markers(context, file, start_after.as_deref(), end_before.as_deref()),
        Fragment::Lines { start, end } if !anchors::is_page(file) => {
            lines(context, file, fragment, (start, end))
        }
        // `AGENTS.md#L1-L32`: the forge renders the page and marks no line,
        // as for a hosted link to it; the link is the page's.
        Fragment::Lines { .. } if anchors::is_page(file) => Ok(None),
        Fragment::Anchor(_) if anchors::is_page(file) => page_anchor(context, file, fragment),
        // An anchor into a source file, an image, a page of another kind:
        // nothing a record can be held to.
        _ => Ok(None),
    }
}

/// The text of a file of the cite's frame.
fn read(context: &Context<'_>, file: &str) -> Result<Option<Arc<str>>> {
    crate::snapshot::read_text_within(
        context.frame.snapshot.as_ref(),
        file,
        crate::snapshot::MAX_PARSED_BYTES,
    )
    .map_err(|e| Error::reading(file, e))
}

/// The docstring of the module `name` (`pkg.sub`, or `pkg.__init__`) as
/// the tree holds it: the file that ends in its path, at the root or under
/// one folder (`src/`), the one such file; its first string, unindented.
fn module_docstring(context: &Context<'_>, name: &str) -> Result<Option<String>> {
    let relative = name.replace('.', "/");
    let wanted = [format!("{relative}.py"), format!("{relative}/__init__.py")];
    let paths = context.frame.snapshot.paths();
    let mut files = paths.iter().filter(|p| {
        wanted.iter().any(|w| {
            p.as_str() == w
                || p.strip_suffix(w.as_str())
                    .and_then(|folder| folder.strip_suffix('/'))
                    .is_some_and(|folder| !folder.contains('/'))
        })
    });
    let (Some(file), None) = (files.next(), files.next()) else {
        return Ok(None);
    };
    let Some(text) = read(context, file)? else {
        return Ok(None);
    };
    Ok(crate::checks::cites::pyobjects::module_docstring(&text))
}

/// A literalinclude's `:pyobject:`: the file must define it.
fn py_object(context: &Context<'_>, file: &str, object: &str) -> Result<Option<CiteStatus>> {
    let Some(text) = read(context, file)? else {
        return Ok(None);
    };
    let Some(defs) = testdefs::tests_in(file, &text) else {
        return Ok(None);
    };
    let (scope, name) = match object.rsplit_once('.') {
        Some((scope, name)) => (Some(scope.replace('.', "::")), name),
        None => (None, object),
    };
    if testdefs::defines(&defs, TestLanguage::Python, scope.as_deref(), name) {
        return Ok(None);
    }
    Ok(Some(CiteStatus::stale(format!(
        "{file} defines no `{object}` at {}: the literalinclude's `:pyobject:` has nothing to show",
        context.frame.label
    ))))
}

/// A literalinclude's `:start-after:` and `:end-before:` markers: the file
/// must hold them, in that order.
fn markers(
    context: &Context<'_>,
    file: &str,
    start_after: Option<&str>,
    end_before: Option<&str>,
) -> Result<Option<CiteStatus>> {
    let at = &context.frame.label;
    let Some(text) = read(context, file)? else {
        return Ok(None);
    };
    let from = match start_after {
        None => Some(0),
        Some(marker) => text.find(marker).map(|at| at + marker.len()),
    };
    let Some(from) = from else {
        return Ok(Some(CiteStatus::stale(format!(
            "{file} holds no `{}` at {at}: the literalinclude's `:start-after:` marker is gone",
            start_after.unwrap_or_default()
        ))));
    };
    if let Some(marker) = end_before
        && !text[from..].contains(marker)
    {
        return Ok(Some(CiteStatus::stale(format!(
            "{file} holds no `{marker}` after the start at {at}: the literalinclude's `:end-before:` marker is gone"
        ))));
    }
    Ok(None)
}

/// `#L10-L20` on a file that is no page: the file must have those lines,
/// which the evidence then holds to what they held.
fn lines(
    context: &Context<'_>,
    file: &str,
    fragment: &str,
    (start, end): (usize, usize),
) -> Result<Option<CiteStatus>> {
    let Some(text) = read(context, file)? else {
        return Ok(None);
    };
    let lines = crate::facts::lines_of(&text).count();
    if end > lines || start == 0 {
        return Ok(Some(CiteStatus::stale(format!(
            "{file} has {} at {}; the link's `#{fragment}` names line {end}",
            count_of_lines(lines),
            context.frame.label
        ))));
    }
    *context.found.lines.borrow_mut() = Some(LineTarget {
        file: file.to_owned(),
        start,
        end,
    });
    Ok(None)
}

/// The anchors of a page of the cite's frame, read once per frame and page.
fn anchors_of(context: &Context<'_>, file: &str) -> Result<Arc<PageAnchors>> {
    let key = (context.frame.label.clone(), file.to_owned());
    if let Some(page) = locked(&context.reads.pages).get(&key) {
        return Ok(Arc::clone(page));
    }
    let text = if file == context.record {
        Some(Arc::from(context.text))
    } else {
        read(context, file)?
    };
    let page = Arc::new(PageAnchors::of_page(file, text.as_deref().unwrap_or("")));
    locked(&context.reads.pages).insert(key, Arc::clone(&page));
    Ok(page)
}

/// The anchors of the files `page` includes, merged, and whether the text
/// of some include could not be read: read once per frame and page, each
/// included file's anchors once per frame (a page that includes one file a
/// thousand times, or links into it a thousand times, reads it once).
fn included_anchors(
    context: &Context<'_>,
    file: &str,
    page: &PageAnchors,
) -> Result<Arc<IncludedAnchors>> {
    let key = (context.frame.label.clone(), file.to_owned());
    if let Some(included) = locked(&context.reads.included).get(&key) {
        return Ok(Arc::clone(included));
    }
    let (mut merged, mut unread) = (PageAnchors::default(), false);
    for named in &page.included {
        match included_path(context.frame.snapshot.paths(), file, named) {
            Some(path) if path != file => merged.absorb(&*anchors_of(context, &path)?),
            Some(_) => {}
            None => unread = true,
        }
    }
    let included = Arc::new((merged, unread));
    locked(&context.reads.included).insert(key, Arc::clone(&included));
    Ok(included)
}

/// Whether `fragment` is the name of a document beside `page` (its source
/// with one of the suffixes a MyST project reads): MyST resolves a `#name`
/// no target of the project has as that document.
fn names_a_document(page: &str, fragment: &str, paths: &[String]) -> bool {
    const SOURCE_SUFFIXES: [&str; 4] = ["md", "rst", "ipynb", "txt"];
    if fragment.is_empty() || fragment.contains(['#', '.']) || fragment.starts_with('/') {
        return false;
    }
    let folder = page.rsplit_once('/').map_or("", |(folder, _)| folder);
    let document = if folder.is_empty() {
        fragment.to_owned()
    } else {
        format!("{folder}/{fragment}")
    };
    SOURCE_SUFFIXES
        .iter()
        .any(|suffix| has_file(paths, &format!("{document}.{suffix}")))
}

/// Whether a fragment could be a Python name, dotted or not
/// (`tensor_split`, `Socket.recv_into`): no hyphen, which no identifier has.
fn identifier_shaped(fragment: &str) -> bool {
    fragment
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && fragment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Whether a MyST fragment is written as an object's name (`Socket.recv_into`,
/// `Authenticator`) rather than a heading's slug, which MyST writes lowercase
/// with hyphens: a dotted name, or a capital and no hyphen.
fn names_an_object(fragment: &str) -> bool {
    !fragment.contains('-')
        && (fragment.contains('.') || fragment.chars().any(|c| c.is_ascii_uppercase()))
        && fragment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Whether a Sphinx page's object directives (`.. autoclass:: pkg.App`,
/// `.. py:method:: run`, MyST's ```` ```{autofunction} pkg.run ````) name
/// `fragment` or an object it is a member of: in full, as the page's
/// `.. module::` makes it, or as written, a run of the fragment's dotted
/// parts.
fn documents_object(text: &str, fragment: &str) -> bool {
    let described = crate::checks::cites::described::described(text);
    let parts: Vec<&str> = fragment.split('.').collect();
    described
        .objects
        .iter()
        .chain(&described.autodoc)
        .any(|name| {
            let named: Vec<&str> = name.split('.').collect();
            parts
                .windows(named.len())
                .any(|run| run == named.as_slice())
        })
}

/// Whether a Sphinx page describes an object (`.. data:: PATH`, a method
/// nested in its class) whose full name is `fragment`.
fn describes_in_full(text: &str, fragment: &str) -> bool {
    crate::checks::cites::described::described(text)
        .objects
        .contains(fragment)
}

/// A heading or anchor of a page: offered by the page or by the text its
/// includes pull in; one it lacks is stale with the nearest anchor, unless
/// an exemption sets it aside.
fn page_anchor(context: &Context<'_>, file: &str, fragment: &str) -> Result<Option<CiteStatus>> {
    let page = anchors_of(context, file)?;
    let slugger = context.renderers().slugger(context.record, file);
    if page.offers_on(fragment, slugger) {
        return Ok(None);
    }
    // The files its includes name are read and searched too; only text that
    // cannot be read (a template, a missing include) leaves the anchor
    // undecided.
    let mut unread = page.includes_text && page.opaque;
    if page.includes_text {
        let included = included_anchors(context, file, &page)?;
        if included.0.offers(fragment) {
            return Ok(None);
        }
        unread |= included.1;
    }
    // A page autodoc renders a module's docstring into offers that
    // docstring's sections (`.. automodule:: pkg` over its "Basic usage").
    for module in &page.automodules {
        if let Some(docstring) = module_docstring(context, module)?
            && PageAnchors::of_rst(&docstring).offers(fragment)
        {
            return Ok(None);
        }
    }
    // A snippet's own `#name` link is rendered inside each page that
    // includes it (a Docusaurus partial an MDX page imports): the anchor may
    // be that page's.
    // (With what that page's other includes bring: a heading a sibling
    // snippet holds, mdBook's `{{#include labels-parameter.md}}`.)
    if file == context.record {
        for including in context.includers {
            if !has_file(context.frame.snapshot.paths(), including) {
                continue;
            }
            let host = anchors_of(context, including)?;
            if host.offers(fragment)
                || (host.includes_text
                    && included_anchors(context, including, &host)?
                        .0
                        .offers(fragment))
            {
                return Ok(None);
            }
        }
    }
    // A MyST page's own `#name` link names a target of any page of its Sphinx
    // project (`(name)=` above a heading elsewhere): MyST resolves it there.
    // Any domain's target, a Python object's too (`[](#Socket.recv_into)`,
    // `zmq.Socket.recv_into` as its API page documents it), and a document,
    // named from the page's folder as Sphinx joins document names
    // (`[Security](#security)` beside `security.md`). An object by the end
    // of its dotted name too (`[](#tensor_split)` for
    // `quimb.tensor.tensor_core.tensor_split`): MyST searches the Python
    // domain as a fuzzy cross-reference does, so any identifier is asked.
    if file == context.record
        && anchors::is_markdown(file)
        && let Some(folder) = sphinx_folder(file, context.frame.snapshot.as_ref())
        && let project = super::labels::project_labels(context, folder)
        && (matches!(
            project.fate(&normalised_label(fragment)),
            LabelFate::Defined(_)
        ) || project.describes_in_other_domain(fragment).is_some()
            || (identifier_shaped(fragment)
                && super::objects::object_named(context, fragment).is_some())
            || names_a_document(file, fragment, context.frame.snapshot.paths()))
    {
        return Ok(None);
    }
    // An object a Sphinx page describes has its full name for an id: one
    // described in the page's own words (`.. data:: PATH`), whatever the
    // code says (`settings.html#PATH`); one an autodoc directive documents
    // (`.. autoclass:: cyclopts.App` and its members), while the packages
    // define it (`api.html#cyclopts.App.interactive_shell`).
    let sphinx_page = || {
        sphinx_folder(file, context.frame.snapshot.as_ref())?;
        context
            .frame
            .snapshot
            .read_text_to_parse(file)
            .ok()
            .flatten()
    };
    if let Some(text) = sphinx_page()
        && (describes_in_full(&text, fragment)
            || (fragment.contains('.')
                && names_an_object(fragment)
                && documents_object(&text, fragment)
                && super::objects::object_named(context, fragment).is_some()))
    {
        return Ok(None);
    }
    let target = AnchorTarget {
        file: file.to_owned(),
        fragment: fragment.to_owned(),
        slugger,
    };
    let exemptions = context.exemptions;
    if let Some(skip) = exemptions.ask(Exemption::UnreadInclude, || {
        unread_include::fires(unread, file, fragment)
    }) {
        // The evidence may still say the page itself had it.
        *context.found.anchor.borrow_mut() = Some(target);
        return Ok(Some(skip));
    }
    if let Some(skip) = exemptions.ask(Exemption::Placeholder, || {
        placeholder::in_template(context.record, fragment)
            .or_else(|| placeholder::link_placeholder(fragment))
    }) {
        return Ok(Some(skip));
    }
    if let Some(skip) = exemptions.ask(Exemption::LintSilenced, || {
        lint_silenced::fires(context.text, context.at, fragment)
    }) {
        return Ok(Some(skip));
    }
    if let Some(skip) = exemptions.ask(Exemption::GeneratedPage, || {
        let snapshot = context.frame.snapshot.as_ref();
        generated_page::fires(context.record, context.text, fragment)
            .or_else(|| {
                generated_page::in_generated_region(
                    context.record,
                    context.text,
                    context.at,
                    fragment,
                )
            })
            .or_else(|| generated_page::in_generator_output(snapshot, context.record, fragment))
            .or_else(|| {
                let generators = context.generator_files();
                generated_page::in_template_input(&generators, file, fragment)
                    .or_else(|| generated_page::in_build_output(&generators, file, fragment))
            })
            .or_else(|| {
                let text = snapshot.read_text_to_parse(file).ok().flatten()?;
                context.renderers().rewritten_anchor(file, &text, fragment)
            })
    }) {
        return Ok(Some(skip));
    }
    *context.found.anchor.borrow_mut() = Some(target);
    Ok(Some(CiteStatus::Stale {
        why: format!(
            "{file} has no heading or anchor `#{fragment}` at {}",
            context.frame.label
        ),
        suggestion: page.nearest_on(fragment, slugger).map(|near| {
            let target = if file == context.record { "" } else { file };
            format!("{target}#{near}")
        }),
        guessed: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::names_an_object;

    #[test]
    fn a_myst_name_beside_its_page_is_a_document() {
        // The tree's paths, sorted as a snapshot keeps them.
        let paths: Vec<String> = [
            "docs/x/architecture.md",
            "docs/x/nb.ipynb",
            "docs/x/security.md",
        ]
        .iter()
        .map(|p| (*p).to_owned())
        .collect();
        assert!(super::names_a_document(
            "docs/x/architecture.md",
            "security",
            &paths
        ));
        assert!(super::names_a_document(
            "docs/x/architecture.md",
            "nb",
            &paths
        ));
        // A heading's slug that names no document, and a document elsewhere.
        assert!(!super::names_a_document(
            "docs/x/architecture.md",
            "storage",
            &paths
        ));
        assert!(!super::names_a_document(
            "docs/architecture.md",
            "security",
            &paths
        ));
    }

    #[test]
    fn a_page_documents_the_objects_its_directives_name_and_their_members() {
        let page = "API\n===\n\n.. autoclass:: cyclopts.App\n   :members: run\n\n.. py:function:: helper\n";
        assert!(super::documents_object(page, "cyclopts.App.run"));
        assert!(super::documents_object(page, "cyclopts.App"));
        assert!(super::documents_object(page, "cyclopts.helper"));
        assert!(!super::documents_object(page, "cyclopts.Group.run"));
        let myst = "# API\n\n```{autofunction} kit.load\n```\n";
        assert!(super::documents_object(myst, "kit.load"));
        assert!(!super::documents_object("Text only.\n", "kit.load"));
    }

    #[test]
    fn an_object_the_page_describes_has_its_full_name_for_an_id() {
        let page = "Settings\n========\n\n.. data:: PATH\n\n   Where.\n\n.. module:: pelican.utils\n\n.. function:: slugify(value)\n";
        assert!(super::describes_in_full(page, "PATH"));
        assert!(super::describes_in_full(page, "pelican.utils.slugify"));
        assert!(
            !super::describes_in_full(page, "slugify"),
            "its full name only"
        );
        assert!(!super::describes_in_full(page, "THEME"));
    }

    #[test]
    fn a_fragment_written_as_a_name_is_an_objects_and_a_slug_is_not() {
        for name in ["Socket.recv_into", "Authenticator", "JupyterHubHTTPClient"] {
            assert!(names_an_object(name), "{name}");
        }
        for slug in ["installation", "a-first-program", "setup-1", "Hello-World"] {
            assert!(!names_an_object(slug), "{slug}");
        }
    }
}
