//! Stage 4, the citation family: the program that builds each page for its
//! readers, read statically from the repository's own configuration (never
//! run). A link means what its page's renderer makes of it; a page no site
//! claims is the forge's (GitHub/GitLab: relative to the page).
//!
//! Read once per frame (`Context::renderers`) and asked by the link resolver
//! where the forge's reading finds nothing.

mod astro;
pub(super) mod doc_builder;
mod docsify;
mod docusaurus;
mod exdoc;
pub(super) mod hugo;
pub(super) mod mdbook;
mod mkdocs;
mod npm;
mod rewriting;
mod vitepress;
mod writerside;

use super::model::Slugger;
use crate::snapshot::Snapshot;
pub(super) use docsify::Docsify;
pub(super) use docusaurus::Docusaurus;
pub(super) use exdoc::ExDoc;
pub(super) use hugo::Hugo;
pub(super) use mkdocs::MkDocs;
use rewriting::Rewriter;
pub(super) use vitepress::VitePress;
pub(super) use writerside::Writerside;

/// Whether `page` is under `folder` (repository-relative; `""` is the root,
/// which holds every page).
fn in_folder(folder: &str, page: &str) -> bool {
    folder.is_empty()
        || page
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The renderer of one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Renderer<'a> {
    /// GitHub or GitLab: a link is read from the page's folder.
    Forge,
    /// A docsify site whose folder holds the page.
    Docsify(&'a Docsify),
    /// A Docusaurus docs plugin whose content folder holds the page.
    Docusaurus(&'a Docusaurus),
    /// An ExDoc project that renders the page as one of its extras.
    ExDoc(&'a ExDoc),
    /// A Hugo site whose content folder holds the page.
    Hugo(&'a Hugo),
    /// A MkDocs site whose `docs_dir` holds the page.
    MkDocs(&'a MkDocs),
    /// A Writerside module whose topics folder holds the page.
    Writerside(&'a Writerside),
}

impl Renderer<'_> {
    /// The site generator's name, for a page a site builds; `None` for the
    /// forge's.
    pub(super) fn site_name(&self) -> Option<&'static str> {
        match self {
            Renderer::Forge => None,
            Renderer::Docsify(_) => Some("docsify"),
            Renderer::Docusaurus(_) => Some("Docusaurus"),
            Renderer::ExDoc(_) => Some("ExDoc"),
            Renderer::Hugo(_) => Some("Hugo"),
            // A site that stitches other trees in reads links beyond its
            // own folder: what it reads there is not known here.
            Renderer::MkDocs(site) => site.self_contained().then_some("MkDocs"),
            Renderer::Writerside(_) => Some("Writerside"),
        }
    }
}

/// The sites a tree configures.
#[derive(Debug, Default)]
pub(super) struct Renderers {
    /// Astro sites: asked only whether they build a page.
    astro: Vec<astro::Astro>,
    docsify: Vec<Docsify>,
    docusaurus: Vec<Docusaurus>,
    exdoc: Vec<ExDoc>,
    hugo: Vec<Hugo>,
    /// mdBook books that run a preprocessor of their own choosing: asked
    /// only what it adds to a page.
    mdbook_preprocessed: Vec<mdbook::PreprocessedBook>,
    mkdocs: Vec<MkDocs>,
    /// Package READMEs the npm registry renders with links read from the
    /// repository's root.
    npm_readmes: Vec<String>,
    /// VitePress sites: asked only what their own code adds to a page.
    vitepress: Vec<VitePress>,
    writerside: Vec<Writerside>,
}

impl Renderers {
    /// The sites `snapshot` configures, each from its configuration file.
    pub(super) fn read(snapshot: &dyn Snapshot) -> Renderers {
        Renderers {
            astro: astro::sites(snapshot),
            docsify: docsify::sites(snapshot),
            docusaurus: docusaurus::sites(snapshot),
            exdoc: exdoc::sites(snapshot),
            hugo: hugo::sites(snapshot),
            mdbook_preprocessed: mdbook::PreprocessedBook::of_tree(snapshot),
            mkdocs: mkdocs::sites(snapshot),
            npm_readmes: npm::root_read_readmes(snapshot),
            vitepress: vitepress::sites(snapshot),
            writerside: writerside::sites(snapshot),
        }
    }

    /// The renderer of `page`: the ExDoc project that lists it as an extra,
    /// else the Hugo site whose content folder holds it, else the MkDocs site
    /// whose `docs_dir` holds it (the deepest), else the Docusaurus site whose
    /// content folder holds it (the deepest), else the docsify site whose
    /// folder holds it (the deepest), else the forge.
    pub(super) fn of_page(&self, page: &str) -> Renderer<'_> {
        if let Some(site) = self.exdoc.iter().find(|site| site.holds(page)) {
            return Renderer::ExDoc(site);
        }
        if let Some(site) = self.writerside.iter().find(|site| site.holds(page)) {
            return Renderer::Writerside(site);
        }
        if let Some(site) = self.hugo.iter().find(|site| site.holds(page)) {
            return Renderer::Hugo(site);
        }
        if let Some(site) = self
            .mkdocs
            .iter()
            .filter(|site| site.holds(page))
            .max_by_key(|site| site.docs_len())
        {
            return Renderer::MkDocs(site);
        }
        if let Some(site) = self
            .docusaurus
            .iter()
            .filter(|site| site.holds(page))
            .max_by_key(|site| site.content_root_of(page).map_or(0, str::len))
        {
            return Renderer::Docusaurus(site);
        }
        self.docsify
            .iter()
            .filter(|site| site.holds(page))
            .max_by_key(|site| site.folder_len())
            .map_or(Renderer::Forge, Renderer::Docsify)
    }

    /// Whether only the forge renders `page`: no site of the tree (ExDoc,
    /// Writerside, Hugo, MkDocs, Docusaurus, docsify, VitePress) builds it.
    pub(super) fn forge_only(&self, page: &str) -> bool {
        matches!(self.of_page(page), Renderer::Forge)
            && !self.vitepress.iter().any(|site| site.holds(page))
    }

    /// The site generator that builds `page` into a site holding only its own
    /// folder, when `path` (from the root) is outside it: a link from the
    /// page to `path` is a dead link on that site, whatever the forge makes
    /// of it. (A MkDocs site that stitches other trees in may hold it.)
    /// The site generator that builds `page` at an address and reads its
    /// links as addresses, never as paths of the tree (Astro): no file
    /// path is a link's form there.
    pub(super) fn addresses_only(&self, page: &str) -> Option<&'static str> {
        self.astro
            .iter()
            .any(|site| site.holds(page))
            .then_some("Astro")
    }

    pub(super) fn leaves_site(&self, page: &str, path: &str) -> Option<&'static str> {
        // Hugo lays its mounted folders out anew: a link from one mounted
        // folder to a file of another (or of none) is read in the site's
        // layout, where the tree's relative path lands elsewhere.
        if let Some(site) = self
            .hugo
            .iter()
            .find(|site| site.content_folder_of(page).is_some())
            && site.content_folder_of(page) != site.content_folder_of(path)
        {
            return Some("Hugo");
        }
        // VitePress serves its pages folder (and its `public/`): a file of
        // the tree outside it is no page of the site.
        if self
            .vitepress
            .iter()
            .any(|site| site.holds(page) && !site.holds(path))
            && matches!(self.of_page(page), Renderer::Forge)
        {
            return Some("VitePress");
        }
        match self.of_page(page) {
            Renderer::MkDocs(site) if site.self_contained() && !site.holds(path) => Some("MkDocs"),
            Renderer::Docusaurus(site) if !site.holds(path) => Some("Docusaurus"),
            _ => None,
        }
    }

    /// The paths a link from `page` may name beyond the forge's reading of
    /// it, in the order its renderer tries them.
    pub(super) fn more_paths(&self, page: &str, target: &str) -> Vec<String> {
        // A VitePress site serves its `public/` folder at its root.
        let public = self
            .vitepress
            .iter()
            .filter_map(|site| site.public_path(page, target));
        let by_renderer = match self.of_page(page) {
            Renderer::Forge => Vec::new(),
            // docsify routes a relative link from its site's root.
            Renderer::Docsify(site) => site.more_paths(target),
            Renderer::Docusaurus(site) => site.more_paths(page, target),
            Renderer::ExDoc(site) => site.more_paths(target),
            Renderer::Writerside(site) => site.more_paths(target),
            // (Hugo's other links are page URLs: the link resolver's site
            // routes.)
            Renderer::Hugo(site) => site.more_paths(page, target),
            // MkDocs reads a link as a file relative to its page, as the
            // forge, unless a plugin finds a bare file name anywhere.
            Renderer::MkDocs(site) => site.more_paths(page, target),
        };
        by_renderer.into_iter().chain(public).collect()
    }

    /// The paths a link from `page` names as the npm registry renders it: a
    /// package README whose links npm reads from the repository's root.
    pub(super) fn registry_paths(&self, page: &str, target: &str) -> Vec<String> {
        if !self.npm_readmes.iter().any(|readme| readme == page) {
            return Vec::new();
        }
        crate::checks::cites::locate::reader_paths("README.md", target).unwrap_or_default()
    }

    /// Where the renderer of `page` serves it as a folder of its own, read
    /// as that folder's `index.md` (a MkDocs site's directory URLs), when a
    /// link it leaves as written is read from there by the browser.
    pub(super) fn page_folder(&self, page: &str) -> Option<String> {
        match self.of_page(page) {
            Renderer::MkDocs(site) => site.page_folder(page),
            _ => None,
        }
    }

    /// Why the renderer of `page` serves `path` (a page a link names, read
    /// as the forge reads it) though the tree lacks it, if it does: MkDocs'
    /// pages a build file writes, a `gen-files` script's folders, or the
    /// old pages its redirects keep.
    pub(super) fn serves(&self, page: &str, path: &str) -> Option<String> {
        match self.of_page(page) {
            Renderer::MkDocs(site) => site.serves(path),
            _ => None,
        }
    }

    /// Why the renderer of `page` may serve `path` though the tree lacks
    /// it: a page MkDocs' nav lists where a plugin or hook writes pages as
    /// the site builds (a reading the history overrules).
    pub(super) fn may_write(&self, page: &str, path: &str) -> Option<String> {
        match self.of_page(page) {
            Renderer::MkDocs(site) => site.may_write(path),
            _ => None,
        }
    }

    /// Why `#fragment`, which the source of `page` does not show, may be an
    /// anchor its renderer's build gives it: MkDocs hooks, a VitePress
    /// site's own code, or an mdBook preprocessor, that rewrite pages.
    pub(super) fn rewritten_anchor(
        &self,
        page: &str,
        page_text: &str,
        fragment: &str,
    ) -> Option<String> {
        if let Some(book) = self.mdbook_preprocessed.iter().find(|b| b.holds(page)) {
            return book.why_made(page, page_text, fragment);
        }
        let (rewriters, site) = match self.of_page(page) {
            Renderer::MkDocs(site) => site.rewriters(),
            _ => self
                .vitepress
                .iter()
                .find(|site| site.holds(page))?
                .rewriters(),
        };
        Rewriter::why_made(rewriters, &site, page, page_text, fragment)
    }

    /// The site a link from `page` to `target` is followed on, when recount
    /// holds its anchors to that site's own slugs: VitePress, both pages its.
    pub(super) fn slugger(&self, page: &str, target: &str) -> Option<Slugger> {
        self.vitepress
            .iter()
            .any(|site| site.slugs_link(page, target))
            .then_some(Slugger::VitePress)
    }

    /// Where the renderer of `page` finds a path its prose names, when it
    /// reads one otherwise than the forge: Hugo's union filesystem
    /// (`layouts/docs/list.html` in the site or a theme it mounts).
    pub(super) fn prose_path(&self, paths: &[String], page: &str, path: &str) -> Option<String> {
        match self.of_page(page) {
            Renderer::Hugo(site) => site.mounted(paths, path),
            _ => None,
        }
    }
}
