//! Exemption `built-page`, in the link chain: an `.html` page with no
//! Markdown source here, or a page MkDocs' nav lists where a plugin or hook
//! of the site writes pages (asked by the link resolver). A reading of the link's shape: the history
//! overrules it. Never a Sphinx document reference: `:doc:` and `toctree`
//! name a document of the project, and Sphinx's build warns of one with no
//! source ("unknown document").

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link to an `.html` page with no Markdown source here: a page a documentation site builds, or another site's. Likewise a page MkDocs' nav lists that the tree lacks, where a plugin or a hook of the site writes pages as it builds (the `blog` plugin under its `blog_dir`, `coverage` at its `page_path`, `gen-files` anywhere, hooks with `on_files`, `on_pre_build` or `on_config`): a page the tree kept and renamed or deleted is no page the build writes, and the history says so. Never a Sphinx `:doc:` or `toctree` entry, whose document must have a source in the project, nor a Sphinx page's link into its own project to a page no document makes, unless the build writes that document first (a build file's `sphinx-apidoc -o` folder, a notebook the page's path mirrors), nor a page in a folder that keeps committed `.html` files (an example's rendered diagram): a file the tree lacks there.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if probe.document {
        return None;
    }
    let is_html = |path: &str| [".html", ".htm"].iter().any(|ext| path.ends_with(ext));
    if !is_html(probe.path) {
        return None;
    }
    // A Sphinx page's link into its own project: the html builder writes a
    // page there only for a document (and its own pages: the index, the
    // search, `_modules/`), so one with no document is no page, unless the
    // configuration may put other pages there.
    if probe.link
        && let Some(folder) = crate::checks::cites::labels::sphinx_folder(
            probe.context.record,
            probe.context.frame.snapshot.as_ref(),
        )
        && let Some(page) = inside(&folder, probe.path)
        && !sphinx_builds_itself(page)
        && crate::checks::cites::resolve::project_labels(probe.context, folder.clone())
            .html_beyond_documents
            .is_none()
    {
        // Unless the build writes that document before Sphinx reads the
        // sources (`sphinx-apidoc -o`, a notebook it turns into the page).
        let context = probe.context;
        let document = probe
            .path
            .trim_end_matches(".html")
            .trim_end_matches(".htm");
        return super::generated_page::made_by_build(
            &context.generator_files(),
            (context.frame.snapshot.paths(), &context.path_names()),
            document,
            &folder,
        );
    }
    // A folder that keeps committed `.html` files (an example's rendered
    // diagram beside its grammar) serves them as files: a missing one there
    // is a file the tree lacks, not a page a site builds.
    let folder = probe.path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let committed_pages = probe
        .context
        .frame
        .snapshot
        .paths()
        .iter()
        .any(|p| is_html(p) && p.rsplit_once('/').map_or("", |(folder, _)| folder) == folder);
    (!committed_pages).then(|| format!("`{}` is a built page with no source page here", probe.path))
}

/// `path` relative to a project's `folder` (`""`: the root), when it is
/// inside it.
fn inside<'p>(folder: &str, path: &'p str) -> Option<&'p str> {
    if folder.is_empty() {
        return Some(path);
    }
    path.strip_prefix(folder)?.strip_prefix('/')
}

/// Whether Sphinx's html builder writes `page` (relative to the project's
/// folder) whatever its documents are: its index, search and module index
/// pages, and the folders it fills (`_modules/`, `_static/`, `_images/`).
fn sphinx_builds_itself(page: &str) -> bool {
    let stem = page.trim_end_matches(".html").trim_end_matches(".htm");
    page.split('/').any(|segment| segment.starts_with('_'))
        || matches!(
            stem,
            "genindex" | "search" | "py-modindex" | "modindex" | "np-modindex"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_a_built_page_with_no_source() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](guide.html)",
            "guide.html",
            "docs/guide.html",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_in_a_folder_of_committed_pages() {
        let why = fires_for(
            fires,
            &[
                ("examples/README.md", ""),
                ("examples/spy_grammar.html", "<html></html>"),
            ],
            "examples/README.md",
            "[diagram](spy_parser_diagram.html)",
            "spy_parser_diagram.html",
            "examples/spy_parser_diagram.html",
            false,
            true,
        );
        assert_eq!(why, None);
    }

    #[test]
    fn stays_quiet_for_a_page_that_is_no_built_one() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](guide.md)",
            "guide.md",
            "docs/guide.md",
            false,
            true,
        );
        assert_eq!(why, None);
    }
}
