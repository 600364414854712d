//! Stage 4 (checks), the citation family: a Sphinx project's labels, which
//! `:ref:` and `:numref:` name. Labels are project-wide: every page under the
//! source folder (the one holding `conf.py`) defines them with explicit
//! targets (`.. _intro:`), a directive's `:name:` option, MyST's `(intro)=`,
//! and — where `conf.py` turns on `sphinx.ext.autosectionlabel` — its section
//! titles (prefixed with the document's name under
//! `autosectionlabel_prefix_document`). Sphinx compares them lower-cased,
//! whitespace collapsed.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use regex::Regex;

use super::anchors::PageAnchors;
use crate::records::rst::normalised_label;
use crate::records::sphinx_conf::SphinxConf;
use crate::snapshot::Snapshot;

/// Labels Sphinx itself provides on every project, and the pages it makes
/// of them, which a toctree may name (`../genindex`).
pub(crate) const BUILT_IN: [&str; 4] = ["genindex", "modindex", "py-modindex", "search"];

/// Pages larger than this are not read for labels (as records are not).
const MAX_PAGE_BYTES: usize = crate::snapshot::MAX_RECORD_BYTES;

/// One Sphinx project's labels at one tree.
#[derive(Debug, Default)]
pub struct ProjectLabels {
    /// Normalised label → the page that defines it.
    defined: BTreeMap<String, String>,
    /// The project's document names (`usage`, `api/reference`), for telling a
    /// document-prefixed label (`usage:Install`) from another project's.
    documents: std::collections::BTreeSet<String>,
    /// Whether `conf.py` may load intersphinx: another project may define a
    /// label no page here does.
    pub intersphinx: bool,
    /// The projects `conf.py` maps through intersphinx (its
    /// `intersphinx_mapping` keys), when it may load the extension.
    pub intersphinx_projects: Vec<String>,
    /// Whether a `:doc:` no page here has may be another project's document
    /// through intersphinx (`intersphinx_disabled_reftypes` leaves it on).
    pub documents_elsewhere: bool,
    /// Extensions of this repository that `conf.py` loads (they may make
    /// labels no page holds).
    pub local_extensions: Vec<String>,
    /// What writes pages as the build starts, if anything does: `conf.py`
    /// (it writes files) or an extension that generates documents
    /// (`autoapi.extension`), and the names `conf.py` writes as strings
    /// (`ref/capi2.md`, `notebooks`), which say where.
    pages_written: Option<(String, Vec<String>)>,
    /// The suffixes beyond `.rst`, `.md` and `.txt` that `conf.py`'s
    /// `source_suffix` makes documents of (`.rst.jinja2`).
    pub source_suffix: Vec<String>,
    /// `conf.py`'s `exclude_patterns`: what the build leaves out.
    pub excluded: globset::GlobSet,
    /// Python objects the pages describe themselves (`.. class::`,
    /// `.. autoclass::`, a method nested in one) → the page.
    objects: BTreeMap<String, String>,
    /// Objects another domain's directives describe (`.. js:function::`)
    /// → the page.
    other_domains: BTreeMap<String, String>,
    /// Classes documented with `:inherited-members:` → the page.
    inherited_members: BTreeMap<String, String>,
    /// What autodoc directives name (`.. automethod:: __contains__` inside
    /// `.. autoclass:: pkg.SortedDict`, full) → the page.
    autodoc: BTreeMap<String, String>,
    /// Short names `conf.py` maps to dotted names in a dict
    /// (`zzzeeksphinx_module_prefixes = {"_sql": "sqlalchemy.sql.expression"}`);
    /// which of them are module prefixes is the tree's to say.
    dotted: BTreeMap<String, String>,
    /// Why part of `conf.py` was not read, when part was not: the settings
    /// it may make there were taken as unknown (any extension, pages written
    /// at build), for the run's notes.
    pub conf_unread: Option<String>,
    /// What may put HTML pages into the built site beside the documents'
    /// (`html_extra_path`, `html_additional_pages`, an extension of the
    /// repository, a `conf.py` that writes files or is partly unread), if
    /// anything may.
    pub html_beyond_documents: Option<String>,
    /// Families of labels the project's templates define, one per item
    /// they render (`.. _mod_{{ mod_id }}:` in `templates/modules.tmpl`):
    /// the literal start of each (`mod_`) and the template.
    pub templated: Vec<(String, String)>,
    /// Whether `conf.py` may load an extension that renders the code's
    /// docstrings into pages (autodoc, or one that loads it), so a label
    /// target a docstring holds is the project's.
    pub renders_docstrings: bool,
    /// Why no build of the repository runs the project, when none does
    /// (its docs host builds another, and no build file runs Sphinx): no
    /// reader sees its roles resolved.
    pub built_by_nothing: Option<String>,
}

/// A Sphinx project's pages read once: its `conf.py` settings, its document
/// names, and the text of the pages asked of (all, or those the history asks
/// of), their labels made once for every question.
pub struct ProjectPages {
    /// What `conf.py` says, read statically.
    pub conf: SphinxConf,
    /// Extensions `conf.py` loads that are modules of this repository
    /// (`docs/_ext/options.py`): they may define labels no page does.
    pub local_extensions: Vec<String>,
    autosection: bool,
    prefix_document: bool,
    documents: std::collections::BTreeSet<String>,
    /// (path, document name, text).
    pages: Vec<(String, String, std::sync::Arc<str>)>,
    /// The label families the project's templates define (see
    /// [`ProjectLabels::templated`]).
    templated: Vec<(String, String)>,
    /// The labels sphinx-gallery gives the pages it writes, with the file
    /// each is written from.
    gallery_labels: Vec<(String, String)>,
    /// The modules autodoc directives of the pages pull docstrings from,
    /// with their source: a label in a docstring is the project's.
    docstrings: Vec<(String, std::sync::Arc<str>)>,
    /// Every label of the pages read, made on first use.
    all: OnceLock<ProjectLabels>,
    /// The project's requirements pin a Sphinx before 5.0, whose
    /// intersphinx looks an unknown `:doc:` up in the other projects'
    /// inventories unless `intersphinx_disabled_reftypes` says otherwise.
    sphinx_before_5: bool,
    /// See [`ProjectLabels::built_by_nothing`].
    built_by_nothing: Option<String>,
}

impl ProjectPages {
    /// The project under `folder` in `snapshot`, the text read of the pages
    /// `read` keeps (the others still count as documents).
    pub fn read(snapshot: &dyn Snapshot, folder: &str, read: &dyn Fn(&str) -> bool) -> Self {
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let conf = snapshot
            .read_text_to_parse(&conf_of(folder, snapshot.paths()))
            .ok()
            .flatten()
            .unwrap_or_else(|| "".into());
        let conf = SphinxConf::of(&conf);
        let autosection = conf.may_load("sphinx.ext.autosectionlabel");
        let local_extensions = local_extensions(&conf, snapshot.paths());
        let mut project = ProjectPages {
            autosection,
            prefix_document: autosection && conf.autosectionlabel_prefix_document,
            local_extensions,
            conf,
            documents: Default::default(),
            pages: Vec::new(),
            templated: templated_labels(snapshot, &prefix),
            gallery_labels: Vec::new(),
            docstrings: Vec::new(),
            all: OnceLock::new(),
            sphinx_before_5: pins_sphinx_before(snapshot, folder, 5),
            built_by_nothing: built_by_nothing(snapshot, folder),
        };
        let mut sources: Vec<(std::borrow::Cow<'_, str>, &String)> = snapshot
            .paths()
            .iter()
            .map(|p| (p.as_str().into(), p))
            .chain(linked_sources(snapshot, &prefix))
            .collect();
        sources.sort_unstable();
        for (path, source) in sources {
            let path = &*path;
            let Some(relative) = path.strip_prefix(&prefix) else {
                continue;
            };
            let Some(document) = relative
                .strip_suffix(".rst")
                .or_else(|| relative.strip_suffix(".md"))
                .or_else(|| relative.strip_suffix(".txt"))
                .or_else(|| {
                    project
                        .conf
                        .source_suffix
                        .iter()
                        .find_map(|suffix| relative.strip_suffix(suffix.as_str()))
                })
            else {
                continue;
            };
            project.documents.insert(document.to_owned());
            if !read(path) && !read(source) {
                continue;
            }
            let Some(text) = snapshot.read_text_to_parse(source).ok().flatten() else {
                continue;
            };
            if text.len() > MAX_PAGE_BYTES {
                continue;
            }
            let text = with_includes(snapshot, path, &prefix, text);
            // A page saved with CRLF line ends defines its labels as one with
            // LF does: docutils reads lines, whatever ends them.
            let text = if text.contains('\r') {
                std::sync::Arc::from(text.replace("\r\n", "\n"))
            } else {
                text
            };
            project
                .pages
                .push((path.to_owned(), document.to_owned(), text));
        }
        let mut modules = std::collections::BTreeSet::new();
        for (_, _, text) in &project.pages {
            for object in super::described::described(text).autodoc {
                modules.extend(module_source(snapshot.paths(), &object));
            }
        }
        // sphinx-gallery builds a page from each example script of the
        // folders its `sphinx_gallery_conf` names (`examples_dirs`): the
        // scripts' text (`.. _rdb:` in a docstring) is those pages' text.
        let gallery = if project.conf.may_load("sphinx_gallery.gen_gallery") {
            project.gallery_labels = gallery_labels(snapshot.paths(), folder, &project.conf);
            gallery_scripts(snapshot.paths(), folder, &project.conf)
        } else {
            Vec::new()
        };
        for module in modules.into_iter().chain(gallery) {
            if let Some(text) = snapshot
                .read_text_to_parse(&module)
                .ok()
                .flatten()
                .filter(|t| t.len() <= MAX_PAGE_BYTES)
            {
                project.docstrings.push((module, text));
            }
        }
        project
    }

    /// The labels the pages define, made once.
    pub fn labels(&self) -> &ProjectLabels {
        self.all.get_or_init(|| self.labels_made())
    }

    /// The modules whose docstrings the pages read pull in (autodoc), by
    /// path.
    pub fn docstring_modules(&self) -> Vec<String> {
        self.docstrings
            .iter()
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// Reads the docstrings of those of `modules` that `snapshot` has and
    /// `read` keeps, as well: a page the history does not read (unchanged
    /// since) may pull in a module that changed. Before the labels are made.
    pub fn add_docstrings(
        &mut self,
        snapshot: &dyn Snapshot,
        modules: &[String],
        read: &dyn Fn(&str) -> bool,
    ) {
        for module in modules {
            if !read(module) || self.docstrings.iter().any(|(path, _)| path == module) {
                continue;
            }
            if let Some(text) = snapshot
                .read_text_to_parse(module)
                .ok()
                .flatten()
                .filter(|t| t.len() <= MAX_PAGE_BYTES)
            {
                self.docstrings.push((module.clone(), text));
            }
        }
    }

    fn labels_made(&self) -> ProjectLabels {
        let mut labels = ProjectLabels {
            documents: self.documents.clone(),
            intersphinx: self.conf.has_intersphinx(),
            intersphinx_projects: if self.conf.has_intersphinx() {
                self.conf.intersphinx.clone()
            } else {
                Vec::new()
            },
            documents_elsewhere: self.conf.documents_through_intersphinx()
                || (self.sphinx_before_5
                    && self.conf.has_intersphinx()
                    && self.conf.intersphinx_disabled_reftypes.is_none()),
            local_extensions: self.local_extensions.clone(),
            pages_written: pages_written_by(&self.conf).map(|by| {
                let names = self
                    .conf
                    .literals
                    .iter()
                    .filter(|l| l.len() <= 200 && !l.contains(char::is_whitespace))
                    .cloned()
                    .collect();
                (by, names)
            }),
            source_suffix: self.conf.document_suffixes(),
            excluded: exclude_set(&self.conf.exclude_patterns),
            conf_unread: self.conf.unread.clone(),
            html_beyond_documents: html_beyond_documents(&self.conf, &self.local_extensions),
            templated: self.templated.clone(),
            renders_docstrings: DOCSTRING_RENDERERS.iter().any(|e| self.conf.may_load(e)),
            built_by_nothing: self.built_by_nothing.clone(),
            ..ProjectLabels::default()
        };
        for map in self.conf.dotted_maps.values() {
            for (short, dotted) in map {
                labels
                    .dotted
                    .entry(short.clone())
                    .or_insert_with(|| dotted.clone());
            }
        }
        for label in BUILT_IN {
            labels
                .defined
                .insert(label.to_owned(), "(Sphinx)".to_owned());
        }
        // `rst_prolog`/`rst_epilog` are part of every page.
        for text in [&self.conf.rst_prolog, &self.conf.rst_epilog]
            .into_iter()
            .flatten()
        {
            for name in explicit_labels(text) {
                labels.define(&name, "conf.py");
            }
        }
        for (path, text) in &self.docstrings {
            for name in explicit_labels(text) {
                labels.define(&name, path);
            }
        }
        for (name, from) in &self.gallery_labels {
            labels.define(name, from);
        }
        for (path, document, text) in &self.pages {
            for name in explicit_labels(text) {
                labels.define(&name, path);
            }
            let described = super::described::described(text);
            for name in described.objects {
                labels.objects.entry(name).or_insert_with(|| path.clone());
            }
            for name in described.autodoc {
                labels.autodoc.entry(name).or_insert_with(|| path.clone());
            }
            for name in described.other_domains {
                labels
                    .other_domains
                    .entry(name)
                    .or_insert_with(|| path.clone());
            }
            for class in described.inherited_members {
                labels
                    .inherited_members
                    .entry(class)
                    .or_insert_with(|| path.clone());
            }
            if self.autosection {
                let titles = if crate::records::rst::is_rst(path) || path.ends_with(".txt") {
                    section_titles(text)
                } else {
                    PageAnchors::of_page(path, text)
                        .headings
                        .into_iter()
                        .map(|(title, _)| title)
                        .collect()
                };
                for title in titles {
                    let title = title.replace("``", "").replace('`', "");
                    let name = if self.prefix_document {
                        format!("{document}:{title}")
                    } else {
                        title
                    };
                    labels.define(&name, path);
                }
            }
        }
        labels
    }
}

/// How a label fares in a project.
#[derive(Debug, PartialEq, Eq)]
pub enum LabelFate {
    /// Defined on this page.
    Defined(String),
    /// `prefix:name` where the prefix is no document of the project: another
    /// project's, through intersphinx.
    OtherProject,
    /// No page defines it.
    Undefined,
}

impl ProjectLabels {
    /// The intersphinx project named as `name`'s first part, if `conf.py`
    /// maps one (`'cupy'` for `cupy.ndarray`): a package of that name is
    /// documented by that project, whose inventory Sphinx links it to.
    pub fn maps_project_named(&self, name: &str) -> Option<&str> {
        let first = name.split('.').next().unwrap_or(name);
        self.intersphinx_projects
            .iter()
            .map(String::as_str)
            .find(|project| *project == first)
    }

    /// The labels of the project whose source folder is `folder` (`""` for
    /// the root) in `snapshot`.
    pub fn of(snapshot: &dyn Snapshot, folder: &str) -> ProjectLabels {
        let pages = ProjectPages::read(snapshot, folder, &|_| true);
        pages.labels_made()
    }

    /// `name` with its first part rewritten by a module prefix `conf.py` maps
    /// (`_sql.select` → `sqlalchemy.sql.expression.select`), when the dotted
    /// name it maps to is a module (as `is_module` says).
    pub fn prefixed(&self, name: &str, is_module: impl Fn(&str) -> bool) -> Option<String> {
        let (first, rest) = name.split_once('.').unwrap_or((name, ""));
        let module = self.dotted.get(first).filter(|m| is_module(m))?;
        Some(if rest.is_empty() {
            module.clone()
        } else {
            format!("{module}.{rest}")
        })
    }

    /// The page that describes the Python object `name` itself, if one does.
    pub fn describes(&self, name: &str) -> Option<&str> {
        self.objects.get(name).map(String::as_str)
    }

    /// The page that describes `name` with another domain's directive
    /// (`.. js:function:: OctoPrintClient.access.users.update`), if one does.
    pub fn describes_in_other_domain(&self, name: &str) -> Option<&str> {
        self.other_domains.get(name).map(String::as_str)
    }

    /// The page whose autodoc directive names `name` (a member written out
    /// inside an `.. autoclass::`), if one does.
    pub fn autodocs(&self, name: &str) -> Option<&str> {
        self.autodoc.get(name).map(String::as_str)
    }

    /// The page that documents `class` with its inherited members, if one
    /// does.
    pub fn documents_inherited(&self, class: &str) -> Option<&str> {
        self.inherited_members.get(class).map(String::as_str)
    }

    fn define(&mut self, name: &str, page: &str) {
        let label = normalised_label(name);
        if !label.is_empty() {
            self.defined.entry(label).or_insert_with(|| page.to_owned());
        }
    }

    /// Where `label` (normalised) is defined, if it is this project's.
    pub fn fate(&self, label: &str) -> LabelFate {
        if let Some(page) = self.defined.get(label) {
            return LabelFate::Defined(page.clone());
        }
        match label.split_once(':') {
            Some((prefix, _)) if !self.documents.contains(prefix) => LabelFate::OtherProject,
            _ => LabelFate::Undefined,
        }
    }
}

/// A reStructuredText page's section titles, read line by line as docutils
/// reads them: a line of text underlined (and perhaps overlined) by a run of
/// one punctuation character at least as long. Cheaper than a full parse, and
/// all a label needs.
fn section_titles(text: &str) -> Vec<String> {
    let adornment = |line: &str| {
        let line = line.trim_end();
        let mut chars = line.chars();
        chars.next().is_some_and(|first| {
            first.is_ascii_punctuation() && line.len() >= 2 && chars.all(|c| c == first)
        })
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut titles = Vec::new();
    for (i, pair) in lines.windows(2).enumerate() {
        let (title, under) = (pair[0].trim_end(), pair[1]);
        // Under an overline of the same run, docutils lets the title be
        // inset (`=====\n Rope Issues\n=====`); without one, an indented
        // line is a block quote's.
        let overlined = i
            .checked_sub(1)
            .and_then(|above| lines.get(above))
            .is_some_and(|over| adornment(over) && over.trim_end() == under.trim_end());
        let in_text = !title.trim().is_empty() && (overlined || !title.starts_with([' ', '\t']));
        if in_text
            && !adornment(title)
            && adornment(under)
            && under.trim_end().chars().count() >= title.chars().count()
            && !lines
                .get(i.wrapping_sub(1))
                .is_some_and(|l| !l.trim_end().is_empty() && !adornment(l))
        {
            titles.push(title.trim().to_owned());
        }
    }
    titles
}

/// Included files deeper than this are not followed (an include cycle ends).
const MAX_INCLUDE_DEPTH: usize = 4;

/// A page's text with the files its `.. include::` directives pull in
/// appended (relative to the page, or from the source folder with a leading
/// `/`): the labels and titles of an included file are the page's.
fn with_includes(
    snapshot: &dyn Snapshot,
    page: &str,
    source_prefix: &str,
    text: std::sync::Arc<str>,
) -> std::sync::Arc<str> {
    let mut whole: Option<String> = None;
    let mut queue: Vec<(String, std::sync::Arc<str>, usize)> =
        vec![(page.to_owned(), text.clone(), 0)];
    let mut seen = std::collections::BTreeSet::from([page.to_owned()]);
    while let Some((at, body, depth)) = queue.pop() {
        if depth >= MAX_INCLUDE_DEPTH {
            continue;
        }
        for target in super::anchors::directive_include_targets(&body) {
            let target = target.as_str();
            let path = match target.strip_prefix('/') {
                Some(rooted) => Some(format!("{source_prefix}{rooted}")),
                None => super::locate::reader_paths(&at, target)
                    .and_then(|tried| tried.into_iter().next()),
            };
            let Some(path) = path.filter(|p| seen.insert(p.clone())) else {
                continue;
            };
            let Some(included) = snapshot.read_text_to_parse(&path).ok().flatten() else {
                continue;
            };
            let all = whole.get_or_insert_with(|| text.to_string());
            if all.len() + included.len() > MAX_PAGE_BYTES {
                continue;
            }
            all.push('\n');
            all.push_str(&included);
            queue.push((path, included, depth + 1));
        }
    }
    whole.map_or(text, std::sync::Arc::from)
}

/// The example scripts sphinx-gallery turns into pages: the `.py` files
/// under each folder a string of `conf.py` names, read from the project's
/// folder (`"../../tutorial"`), when that folder holds scripts.
fn gallery_scripts(paths: &[String], folder: &str, conf: &SphinxConf) -> Vec<String> {
    let mut scripts = Vec::new();
    let conf_page = conf_of(folder, paths);
    for literal in &conf.literals {
        if literal.is_empty() || literal.contains(['*', ' ', '\n']) {
            continue;
        }
        let Some(dir) = folder_named_by(&conf_page, literal) else {
            continue;
        };
        scripts.extend(
            files_under(paths, &dir)
                .filter(|p| p.ends_with(".py") || is_gallery_header(p))
                .take(MAX_GALLERY_SCRIPTS)
                .cloned(),
        );
    }
    scripts.sort();
    scripts.dedup();
    scripts.truncate(MAX_GALLERY_SCRIPTS);
    scripts
}

/// The example scripts of a gallery read at most.
const MAX_GALLERY_SCRIPTS: usize = 500;

/// The folder of the tree a string of `conf_page` names, read from that
/// page's folder as a reader would (`../tests/gallery`).
fn folder_named_by(conf_page: &str, written: &str) -> Option<String> {
    super::locate::reader_paths(conf_page, written.trim_end_matches('/'))
        .and_then(|tried| tried.into_iter().next())
        .filter(|dir| !dir.is_empty())
}

/// The tree's files under `dir`, in order: a run of its sorted paths.
fn files_under<'p>(paths: &'p [String], dir: &str) -> impl Iterator<Item = &'p String> {
    let prefix = format!("{dir}/");
    let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
    paths[start..]
        .iter()
        .take_while(move |p| p.starts_with(&prefix))
}

/// Whether a file of a gallery's examples folder is its header, the text
/// sphinx-gallery puts at the top of the gallery's index (`README.rst`,
/// `README.txt`, `GALLERY_HEADER.rst`).
fn is_gallery_header(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "README.rst" | "README.txt" | "GALLERY_HEADER.rst")
}

/// The labels sphinx-gallery gives the pages it writes, each with the file
/// it writes it from: `sphx_glr_<gallery>_<script>` for each example script
/// (`sphx_glr_auto_examples_plot_ring.py`, a subfolder's path joined with
/// `_` too) and `sphx_glr_<gallery>` for the gallery's index, the gallery
/// folder named as `conf.py`'s `gallery_dirs` names it.
fn gallery_labels(paths: &[String], folder: &str, conf: &SphinxConf) -> Vec<(String, String)> {
    let conf_page = conf_of(folder, paths);
    let mut labels = Vec::new();
    for (examples, gallery) in &conf.galleries {
        let Some(dir) = folder_named_by(&conf_page, examples) else {
            continue;
        };
        let gallery = gallery.trim_start_matches("./").trim_end_matches('/');
        if gallery.is_empty() || gallery.contains("..") {
            continue;
        }
        let key = gallery.replace('/', "_");
        let mut header = None;
        for script in files_under(paths, &dir).take(MAX_GALLERY_SCRIPTS) {
            let relative = &script[dir.len() + 1..];
            if relative.ends_with(".py") {
                labels.push((
                    format!("sphx_glr_{key}_{}", relative.replace('/', "_")),
                    script.clone(),
                ));
            } else if header.is_none() && is_gallery_header(relative) && !relative.contains('/') {
                header = Some(script.clone());
            }
        }
        if let Some(header) = header {
            labels.push((format!("sphx_glr_{key}"), header));
        }
    }
    labels
}

/// The pages a project (its source folder and `/`, `prefix`) holds through
/// symbolic links to the tree's own files, as (the page's path, the file
/// read): a link to a file is that page (`docs/changes.rst` reading
/// `CHANGES.rst`), a link to a folder holds its files under its own name
/// (`docs/plugins` → `plugins/`, its `mux/README.rst` the page
/// `docs/plugins/mux/README.rst`). Sphinx reads them through the link;
/// recount reads the file, never the link.
fn linked_sources<'a>(
    snapshot: &'a dyn Snapshot,
    prefix: &'a str,
) -> impl Iterator<Item = (std::borrow::Cow<'a, str>, &'a String)> + 'a {
    let paths = snapshot.paths();
    snapshot
        .skipped()
        .iter()
        .filter(move |link| link.path.starts_with(prefix))
        .filter_map(|link| Some((link, link.target.as_ref()?)))
        .flat_map(move |(link, target)| {
            let file = crate::snapshot::has_file(paths, target)
                .then(|| (link.path.as_str().into(), target));
            let folder = format!("{target}/");
            let start = paths.partition_point(|p| p.as_str() < folder.as_str());
            let below = paths[start..]
                .iter()
                .take_while(move |p| p.starts_with(&folder))
                .map(move |p| {
                    let rest = &p[target.len()..];
                    (format!("{}{rest}", link.path).into(), p)
                });
            file.into_iter().chain(below)
        })
        // Links may nest folders in each other: the pages read through
        // them are bounded, however many.
        .take(MAX_LINKED_SOURCES)
}

/// The most pages read through a project's symbolic links.
const MAX_LINKED_SOURCES: usize = 20_000;

impl ProjectLabels {
    /// What writes `document` (a name of the project's, `ref/capi2`) as the
    /// build starts, if something does and `conf.py` names where: the
    /// document's first folder as a string of its own (`"notebooks"`), its
    /// file (`"ref/capi2.md"`), or sphinx-autoapi's default folder. A build that
    /// writes elsewhere (`-o generated/`) leaves a missing `modules` stale.
    pub fn written_at_build(&self, document: &str) -> Option<&str> {
        let (by, names) = self.pages_written.as_ref()?;
        let folder = document.split_once('/').map(|(first, _)| first);
        let file = document.rsplit('/').next().unwrap_or(document);
        let named = names.iter().any(|name| {
            let name = name.trim_matches('/');
            let last = name.rsplit('/').next().unwrap_or(name);
            let stem = last.rsplit_once('.').map_or(last, |(stem, _)| stem);
            folder.is_some_and(|f| name == f || name.ends_with(&format!("/{f}")))
                || (stem == file && (last != stem || name.contains('/')))
        }) || folder == Some("autoapi");
        named.then_some(by.as_str())
    }

    /// What writes the file `file` (an include's `readme.rst`) as the build
    /// starts, if `conf.py` itself writes files and names one of that name
    /// (`open(DIR / "readme.rst", "w")`): a page the build copies in.
    pub fn file_written_at_build(&self, file: &str) -> Option<&str> {
        let (by, names) = self.pages_written.as_ref()?;
        let name_of = |path: &str| {
            let path = path.trim_matches('/');
            path.rsplit('/').next().unwrap_or(path).to_owned()
        };
        let wanted = name_of(file);
        let named = wanted.contains('.') && names.iter().any(|name| name_of(name) == wanted);
        named.then_some(by.as_str())
    }
}

/// What may put HTML pages into a project's built site beside those of its
/// documents, if anything may.
/// The requirement files read at most for the Sphinx a project pins.
const MAX_REQUIREMENT_FILES: usize = 16;

/// Whether a requirements file in the Sphinx project's folder or a folder
/// above it (`doc/requirements.txt`, `requirements-docs.txt`) pins Sphinx
/// below the major version `major` (`sphinx==2.2.2`, `sphinx<5`,
/// `Sphinx~=4.3`): the build runs that Sphinx, with its defaults.
fn pins_sphinx_before(snapshot: &dyn Snapshot, folder: &str, major: u64) -> bool {
    let mut folders = vec![folder.to_owned()];
    let mut up = folder;
    while let Some((parent, _)) = up.rsplit_once('/') {
        folders.push(parent.to_owned());
        up = parent;
    }
    if !folder.is_empty() {
        folders.push(String::new());
    }
    let files: Vec<&String> = snapshot
        .paths()
        .iter()
        .filter(|path| {
            let (parent, name) = path.rsplit_once('/').unwrap_or(("", path));
            let name = name.to_ascii_lowercase();
            name.contains("requirements")
                && name.ends_with(".txt")
                && folders.iter().any(|f| f == parent)
        })
        .take(MAX_REQUIREMENT_FILES)
        .collect();
    files.into_iter().any(|file| {
        let Some(text) = snapshot.read_text_to_parse(file).ok().flatten() else {
            return false;
        };
        text.lines()
            .take(2000)
            .any(|line| sphinx_below(line).is_some_and(|below| below <= major))
    })
}

/// The major version a requirement line keeps Sphinx below, if it pins
/// Sphinx with an upper bound: `sphinx==2.2.2` (3), `sphinx<5` (5),
/// `sphinx>=3,<=4.5` (5), `Sphinx~=4.3` (5).
fn sphinx_below(line: &str) -> Option<u64> {
    let line = line.split('#').next().unwrap_or(line).trim();
    let line = line.split(';').next().unwrap_or(line);
    let name_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(line.len());
    if !line[..name_end].eq_ignore_ascii_case("sphinx") {
        return None;
    }
    let specifiers = line[name_end..].trim_start_matches(|c: char| c == '[' || c.is_whitespace());
    let major = |version: &str| -> Option<u64> { version.trim().split('.').next()?.parse().ok() };
    specifiers.split(',').map(str::trim).find_map(|spec| {
        if let Some(v) = spec.strip_prefix("==") {
            major(v.trim_end_matches(".*")).map(|m| m + 1)
        } else if let Some(v) = spec.strip_prefix("<=") {
            major(v).map(|m| m + 1)
        } else if let Some(v) = spec.strip_prefix("~=") {
            major(v).map(|m| m + 1)
        } else if let Some(v) = spec.strip_prefix('<') {
            let v = v.trim();
            let whole = v.split('.').skip(1).all(|part| part.trim() == "0");
            major(v).map(|m| if whole { m } else { m + 1 })
        } else {
            None
        }
    })
}

fn html_beyond_documents(conf: &SphinxConf, local_extensions: &[String]) -> Option<String> {
    if !conf.html_extra_path.is_empty() {
        return Some("its `html_extra_path` copies files into the site".to_owned());
    }
    if conf.html_additional_pages {
        return Some("its `html_additional_pages` renders pages from templates".to_owned());
    }
    if let Some(extension) = local_extensions.first() {
        return Some(format!(
            "it runs an extension of this repository ({extension})"
        ));
    }
    if let Some(why) = &conf.unread {
        return Some(format!("part of its `conf.py` was not read ({why})"));
    }
    pages_written_by(conf)
}

/// Why no build of the repository runs the Sphinx project in `folder`, when
/// none does: the docs host's configuration (`.readthedocs.yaml`) builds
/// another project (MkDocs, or the Sphinx project of another `conf.py`),
/// and no build file of the repository names Sphinx or an HTML build (the
/// `Makefile` `sphinx-quickstart` writes beside a project runs it only when
/// someone does, so it is not counted).
fn built_by_nothing(snapshot: &dyn Snapshot, folder: &str) -> Option<String> {
    let paths = snapshot.paths();
    let host = [".readthedocs.yaml", ".readthedocs.yml"]
        .into_iter()
        .find(|p| crate::snapshot::has_file(paths, p))?;
    let text = snapshot.read_text_to_parse(host).ok().flatten()?;
    let conf = conf_of(folder, paths);
    let (mut section, mut other) = ("", None);
    let mut sphinx_named = false;
    for line in text.lines() {
        let code = line.split('#').next().unwrap_or("").trim_end();
        if code.trim().is_empty() {
            continue;
        }
        if !code.starts_with([' ', '\t']) {
            section = code;
            match code {
                "mkdocs:" => other = Some(format!("{host} builds MkDocs")),
                "sphinx:" => sphinx_named = true,
                _ => {}
            }
        } else if section == "sphinx:"
            && let Some(value) = code.trim().strip_prefix("configuration:")
        {
            let value = value
                .trim()
                .trim_matches(['"', '\''])
                .trim_start_matches("./");
            if value == conf {
                return None;
            }
            other = Some(format!(
                "{host} builds the Sphinx project of `{}`",
                crate::escape::untrusted(value, crate::escape::VALUE_CAP)
            ));
        }
    }
    // (`sphinx:` with no `configuration:` builds the first `conf.py` found.)
    if sphinx_named && other.as_deref().is_some_and(|o| o.ends_with("MkDocs")) {
        return None;
    }
    let other = other?;
    use super::exemptions::generated_page::{files_read, is_build_file};
    let runs_a_build = files_read(snapshot, is_build_file)
        .filter(|(p, text)| p != host && !text.contains("SPHINXBUILD"))
        .any(|(_, text)| {
            let lower = text.to_ascii_lowercase();
            lower.contains("sphinx") || lower.contains("html")
        });
    (!runs_a_build).then(|| format!("{other}, and no build file of the repository runs Sphinx"))
}

/// What writes a project's pages as its build starts: `conf.py` itself, or
/// an extension that generates documents.
fn pages_written_by(conf: &SphinxConf) -> Option<String> {
    // (exhale writes a page per C++ entity Doxygen finds, under its
    // `containmentFolder`.)
    // (nbsite's gallery writes a gallery's pages from its `nbsite_gallery_conf`.)
    const GENERATORS: [&str; 4] = [
        "autoapi.extension",
        "sphinxcontrib.apidoc",
        "exhale",
        "nbsite.gallery",
    ];
    if conf.writes_files {
        return Some("its `conf.py`, which writes files as the build starts".to_owned());
    }
    GENERATORS
        .iter()
        .find(|g| conf.loads(g))
        .map(|g| format!("`{g}`, which `conf.py` loads and which generates documents"))
}

/// The files of a project's folder (`prefix`, with its `/`) that are no
/// page yet hold label targets (`.. _examples:` in a gallery's
/// `_valid_examples.toml`): text an extension of the project may write into
/// a page as the build starts. Read once per project, at most 2,000 files.
pub fn label_texts_beyond_pages(
    snapshot: &dyn Snapshot,
    prefix: &str,
) -> Vec<(String, std::sync::Arc<str>)> {
    const MAX_FILES: usize = 2_000;
    const DATA_SUFFIXES: [&str; 9] = [
        ".toml", ".yaml", ".yml", ".json", ".py", ".j2", ".jinja", ".tpl", ".cfg",
    ];
    snapshot
        .paths()
        .iter()
        .filter(|p| p.starts_with(prefix))
        .filter(|p| DATA_SUFFIXES.iter().any(|s| p.ends_with(s)))
        .take(MAX_FILES)
        .filter_map(|p| {
            let text = snapshot.read_text_to_parse(p).ok().flatten()?;
            (text.len() <= MAX_PAGE_BYTES && text.contains(".. _")).then(|| (p.clone(), text))
        })
        .collect()
}

/// The extensions that render a module's docstrings into a page (the last
/// three load autodoc themselves, or read the source as it does).
const DOCSTRING_RENDERERS: [&str; 5] = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "autoapi.extension",
    "sphinx_automodapi.automodapi",
];

/// The label targets the tree's Python files hold (`.. _core_builtins:` in a
/// module's docstring), normalised, each with the first file that holds it:
/// where autodoc renders the docstrings, the project defines them, whether
/// the page that renders the module is in the tree or a build step writes
/// it (`sphinx-apidoc` run from a Makefile). Read once per tree, when a
/// label no page defines is asked; at most 50,000 files.
pub fn docstring_labels(snapshot: &dyn Snapshot) -> BTreeMap<String, String> {
    const MAX_FILES: usize = 50_000;
    let mut labels = BTreeMap::new();
    for path in snapshot
        .paths()
        .iter()
        .filter(|p| p.ends_with(".py"))
        .take(MAX_FILES)
    {
        let Some(text) = snapshot.read_text_to_parse(path).ok().flatten() else {
            continue;
        };
        if text.len() > MAX_PAGE_BYTES || !text.contains(".. _") {
            continue;
        }
        for name in explicit_labels(&text) {
            let label = normalised_label(&name);
            if !label.is_empty() {
                labels.entry(label).or_insert_with(|| path.clone());
            }
        }
    }
    labels
}

/// The first of `texts` (see [`label_texts_beyond_pages`]) holding
/// `label`'s target.
pub fn label_text_beyond_pages(
    texts: &[(String, std::sync::Arc<str>)],
    label: &str,
) -> Option<String> {
    let wanted = format!(".. _{label}:");
    texts
        .iter()
        .find(|(_, text)| text.contains(&wanted))
        .map(|(path, _)| path.clone())
}

/// How [`local_extensions`] names `conf.py`'s own `setup(app)`.
pub(crate) const CONF_SETUP: &str = "setup() of conf.py";

/// The extensions `conf.py` loads that are modules of this repository (not
/// Sphinx's own, even in Sphinx's repository), its own `setup()` first when
/// that does more than add assets.
pub(crate) fn local_extensions(conf: &SphinxConf, paths: &[String]) -> Vec<String> {
    // `conf.py`'s own `setup(app)` is an extension Sphinx runs first.
    let own_setup = conf
        .setup_runs_code
        .then(|| CONF_SETUP.to_owned())
        .into_iter();
    own_setup
        .chain(conf.extensions.iter().cloned())
        .filter(|e| !e.starts_with("sphinx."))
        .filter(|e| {
            if e == CONF_SETUP {
                return true;
            }
            let file = e.replace('.', "/");
            paths.iter().any(|p| {
                [format!("{file}.py"), format!("{file}/__init__.py")]
                    .iter()
                    .any(|f| p == f || p.ends_with(&format!("/{f}")))
            })
        })
        .collect()
}

/// The labels a page defines outright: `.. _name:` targets (not those that
/// point elsewhere, `.. _name: https://…`; a name ends, as docutils reads
/// it, at the colon that ends its line, so `.. _eli5:eli5:` defines
/// `eli5:eli5`), `:name:` options, MyST `(name)=`.
fn explicit_labels(text: &str) -> Vec<String> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        Regex::new(
            r"(?m)^[ \t]*(?:\.\.[ \t]+_(?:`([^`\n]+)`|([^`\s][^\n]*?)):[ \t]*$|:name:[ \t]*(\S[^\n]*?)[ \t]*$|\(([^()\s][^()\n]*)\)=[ \t]*$)",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    pattern
        .captures_iter(text)
        .filter_map(|caps| {
            (1..=4)
                .find_map(|i| caps.get(i))
                .map(|m| m.as_str().to_owned())
        })
        .collect()
}

/// The source file of the module a dotted name is in (`pkg.base.Client`:
/// `src/pkg/base.py`), the longest prefix that is one.
fn module_source(paths: &[String], dotted: &str) -> Option<String> {
    let parts: Vec<&str> = dotted.split('.').collect();
    (1..=parts.len()).rev().find_map(|split| {
        let module = parts[..split].join("/");
        ["", "src/", "lib/"].iter().find_map(|base| {
            [
                format!("{base}{module}/__init__.py"),
                format!("{base}{module}.py"),
            ]
            .into_iter()
            .find(|f| crate::snapshot::has_file(paths, f))
        })
    })
}

/// The label families the templates under a Sphinx project's folder
/// (`prefix`) define: a template (a file named as one, `.tmpl`, `.j2`,
/// `.jinja`, `.rst_t`, or any file of a `templates`/`_templates` folder)
/// whose label target is written from a substitution (`.. _mod_{{ mod_id
/// }}:`), as extensions that render data through templates
/// (sphinxcontrib-datatemplates, autosummary's templates) write one label
/// per item. The literal start must be a word's worth (two characters or
/// more): a target that is all substitution says nothing of its labels.
fn templated_labels(snapshot: &dyn Snapshot, prefix: &str) -> Vec<(String, String)> {
    /// The most templates read for one project.
    const MAX_TEMPLATES: usize = 200;
    let is_template = |relative: &str| {
        let name = relative.rsplit('/').next().unwrap_or(relative);
        [".tmpl", ".j2", ".jinja", ".jinja2", ".rst_t", ".tpl"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
            || relative
                .split('/')
                .rev()
                .skip(1)
                .any(|folder| matches!(folder, "templates" | "_templates"))
    };
    let mut families = Vec::new();
    for path in snapshot
        .paths()
        .iter()
        .filter(|p| p.strip_prefix(prefix).is_some_and(is_template))
        .take(MAX_TEMPLATES)
    {
        let Some(text) = snapshot.read_text_to_parse(path).ok().flatten() else {
            continue;
        };
        if text.len() > MAX_PAGE_BYTES {
            continue;
        }
        for line in text.lines() {
            let Some(target) = line.trim_start().strip_prefix(".. _") else {
                continue;
            };
            let Some((start, _)) = target.split_once("{{") else {
                continue;
            };
            if start.chars().count() >= 2 && !start.contains(['`', ':', '{', '}']) {
                let family = (start.to_lowercase(), path.clone());
                if !families.contains(&family) {
                    families.push(family);
                }
            }
        }
    }
    families
}

/// The source folder of the Sphinx project a page belongs to: the nearest
/// folder at or above it holding `conf.py` (`""`: the root), or, where that
/// `conf.py` loads sphinx-multiproject, the folder of the project the page
/// is under (`docs/user` beside `docs/conf.py`), which the extension hands
/// Sphinx as the source folder; `None` when no `conf.py` is above.
pub fn sphinx_folder(page: &str, snapshot: &dyn Snapshot) -> Option<String> {
    let paths = snapshot.paths();
    let conf_folder = sphinx_folder_where(page, |conf| {
        crate::snapshot::has_file(paths, conf)
            && (!conf.ends_with(".in")
                || snapshot
                    .read_text_to_parse(conf)
                    .ok()
                    .flatten()
                    .is_some_and(|text| reads_as_sphinx_conf(&text)))
    })?;
    let project = multiproject_folders(snapshot, &conf_folder)
        .iter()
        .find(|folder| {
            page.strip_prefix(folder.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .cloned();
    Some(project.unwrap_or(conf_folder))
}

/// Each `conf.py` read for sphinx-multiproject (its text's hash and
/// folder) → the source folders it makes.
type MultiprojectFolders = std::collections::HashMap<(u64, String), Arc<Vec<String>>>;

/// The source folders sphinx-multiproject makes of the projects the
/// `conf.py` of `conf_folder` declares, as paths of the tree; none when it
/// does not load the extension. Each `conf.py` text is read once per
/// process (it is asked per cite).
fn multiproject_folders(snapshot: &dyn Snapshot, conf_folder: &str) -> Arc<Vec<String>> {
    use std::hash::{Hash, Hasher};
    /// The most `conf.py` texts remembered.
    const MAX_REMEMBERED: usize = 256;
    static READ: OnceLock<std::sync::Mutex<MultiprojectFolders>> = OnceLock::new();
    let Some(text) = snapshot
        .read_text_to_parse(&conf_of(conf_folder, snapshot.paths()))
        .ok()
        .flatten()
        .filter(|text| text.contains("multiproject_projects"))
    else {
        return Arc::default();
    };
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let key = (hasher.finish(), conf_folder.to_owned());
    let read = READ.get_or_init(Default::default);
    if let Some(known) = read.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Arc::clone(known);
    }
    let conf = SphinxConf::of(&text);
    let folders: Vec<String> = if conf.may_load("multiproject") {
        conf.multiproject
            .iter()
            .filter_map(|relative| {
                let relative = relative.trim_start_matches("./").trim_end_matches('/');
                let relative_ok = !relative.is_empty()
                    && !relative.starts_with('/')
                    && relative
                        .split('/')
                        .all(|part| !part.is_empty() && part != "..");
                relative_ok.then(|| {
                    if conf_folder.is_empty() {
                        relative.to_owned()
                    } else {
                        format!("{conf_folder}/{relative}")
                    }
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let folders = Arc::new(folders);
    let mut read = read.lock().unwrap_or_else(|e| e.into_inner());
    if read.len() >= MAX_REMEMBERED {
        read.clear();
    }
    read.insert(key, Arc::clone(&folders));
    folders
}

/// The `conf.py` of the Sphinx project whose source folder is `folder`
/// (`""`: the root), where it has its own.
pub fn conf_path(folder: &str) -> String {
    if folder.is_empty() {
        "conf.py".to_owned()
    } else {
        format!("{folder}/conf.py")
    }
}

/// What `exclude_patterns` leave out of a build, compiled once.
pub fn exclude_set(patterns: &[String]) -> globset::GlobSet {
    let mut builder = globset::GlobSetBuilder::new();
    for pattern in patterns.iter().take(MAX_EXCLUDE_PATTERNS) {
        if let Ok(glob) = globset::GlobBuilder::new(pattern.trim_start_matches("./"))
            .literal_separator(true)
            .build()
        {
            builder.add(glob);
        }
    }
    builder
        .build()
        .unwrap_or_else(|_| globset::GlobSet::empty())
}

/// Whether `excluded`, the `exclude_patterns` of the Sphinx project of the
/// source folder `source`, leave `path` (repository-relative, inside that
/// folder) out of its build: a pattern matches the path or a folder it is
/// in, as Sphinx prunes an excluded folder whole.
pub fn excluded_by(excluded: &globset::GlobSet, source: &str, path: &str) -> bool {
    let inside = if source.is_empty() {
        path
    } else {
        match path
            .strip_prefix(source)
            .and_then(|rest| rest.strip_prefix('/'))
        {
            Some(rest) => rest,
            None => return false,
        }
    };
    let mut at = inside;
    loop {
        if excluded.is_match(at) {
            return true;
        }
        match at.rsplit_once('/') {
            Some((folder, _)) => at = folder,
            None => return false,
        }
    }
}

/// The most `exclude_patterns` entries read (a hostile `conf.py` may list
/// many).
const MAX_EXCLUDE_PATTERNS: usize = 256;

/// The `conf.py` Sphinx reads for the source folder `folder`: its own, else
/// the nearest above it (sphinx-multiproject's projects share one).
/// A `conf.py.in` is the same file before the build configures it (CMake's
/// `configure_file` writes `conf.py` from it): read as the project's.
pub fn conf_of(folder: &str, paths: &[String]) -> String {
    let mut at = folder;
    loop {
        let conf = conf_path(at);
        if crate::snapshot::has_file(paths, &conf) {
            return conf;
        }
        let template = format!("{conf}.in");
        if crate::snapshot::has_file(paths, &template) {
            return template;
        }
        if at.is_empty() {
            return conf;
        }
        at = at.rsplit_once('/').map_or("", |(f, _)| f);
    }
}

/// Whether a configuration template (`conf.py.in`) is Sphinx's: it sets
/// what only a Sphinx configuration sets. Another tool's template of the
/// same name (a static site generator's `conf.py.in`) makes no Sphinx
/// project of its folder.
pub fn reads_as_sphinx_conf(text: &str) -> bool {
    [
        "sphinx",
        "html_theme",
        "master_doc",
        "root_doc",
        "source_suffix",
    ]
    .iter()
    .any(|word| text.contains(word))
}

/// [`sphinx_folder`] in a tree that `has` answers for (a commit's, say).
pub fn sphinx_folder_where(page: &str, has: impl Fn(&str) -> bool) -> Option<String> {
    let mut at = page.rsplit_once('/').map_or("", |(f, _)| f);
    loop {
        if has(&conf_path(at)) || has(&format!("{}.in", conf_path(at))) {
            return Some(at.to_owned());
        }
        if at.is_empty() {
            return None;
        }
        at = at.rsplit_once('/').map_or("", |(f, _)| f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphinx_gallery_labels_the_pages_it_writes() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "doc/conf.py",
                "extensions = ['sphinx_gallery.gen_gallery']\nsphinx_gallery_conf = {'examples_dirs': '../tests/gallery', 'gallery_dirs': 'gallery'}\n",
            ),
            ("doc/index.rst", "Index\n=====\n"),
            (
                "tests/gallery/README.rst",
                ".. _gallery:\n\nGallery\n=======\n",
            ),
            ("tests/gallery/sub/test_b.py", "\"\"\"B\"\"\"\n"),
            ("tests/gallery/test_a.py", "\"\"\"A\"\"\"\n"),
        ]);
        let labels = ProjectLabels::of(&tree, "doc");
        for label in [
            "gallery",
            "sphx_glr_gallery",
            "sphx_glr_gallery_test_a.py",
            "sphx_glr_gallery_sub_test_b.py",
        ] {
            assert!(
                matches!(labels.fate(label), LabelFate::Defined(_)),
                "{label}"
            );
        }
        // A script the gallery lacks, and another gallery's name.
        for label in [
            "sphx_glr_gallery_test_c.py",
            "sphx_glr_auto_examples_test_a.py",
        ] {
            assert!(
                !matches!(labels.fate(label), LabelFate::Defined(_)),
                "{label}"
            );
        }
    }

    #[test]
    fn a_requirement_line_says_which_sphinx_majors_it_keeps_below() {
        assert_eq!(sphinx_below("sphinx==2.2.2"), Some(3));
        assert_eq!(sphinx_below("Sphinx<5"), Some(5));
        assert_eq!(sphinx_below("sphinx>=3,<=4.5  # docs"), Some(5));
        assert_eq!(sphinx_below("sphinx~=4.3"), Some(5));
        assert_eq!(sphinx_below("sphinx<5.1"), Some(6));
        assert_eq!(sphinx_below("sphinx>=4"), None);
        assert_eq!(sphinx_below("sphinx-rtd-theme==0.5"), None);
        assert_eq!(sphinx_below("sphinx"), None);
    }

    #[test]
    fn an_extension_that_generates_documents_writes_pages() {
        let exhale = SphinxConf::of(
            "extensions = ['breathe', 'exhale']\nexhale_args = {'containmentFolder': 'otel_docs'}\n",
        );
        assert!(pages_written_by(&exhale).is_some_and(|by| by.contains("`exhale`")));
        // breathe only renders what Doxygen wrote into pages of the tree.
        assert_eq!(
            pages_written_by(&SphinxConf::of("extensions = ['breathe']\n")),
            None
        );
    }

    #[test]
    fn a_conf_template_the_build_configures_makes_its_folder_a_project() {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "doc/conf.py.in",
                "project = '@PROJECT@'\nextensions = ['sphinx.ext.autodoc']\n",
            ),
            ("doc/api.rst", ""),
            ("site/conf.py.in", "BLOG_AUTHOR = '${AUTHOR}'\n"),
            ("site/posts/x.rst", ""),
        ]);
        assert_eq!(sphinx_folder("doc/api.rst", &tree).as_deref(), Some("doc"));
        assert_eq!(conf_of("doc", tree.paths()), "doc/conf.py.in");
        // Another tool's template of the name is no Sphinx project.
        assert_eq!(sphinx_folder("site/posts/x.rst", &tree), None);
    }

    #[test]
    fn a_multiproject_conf_makes_each_projects_folder_the_source_folder() {
        let conf = "extensions = ['multiproject']\nmultiproject_projects = {'user': {}, 'dev': {'path': 'developer'}}\n";
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            ("docs/conf.py", conf),
            ("docs/user/index.rst", ""),
            ("docs/developer/guide/x.rst", ""),
            ("docs/shared.rst", ""),
        ]);
        assert_eq!(
            sphinx_folder("docs/user/index.rst", &tree).as_deref(),
            Some("docs/user")
        );
        assert_eq!(
            sphinx_folder("docs/developer/guide/x.rst", &tree).as_deref(),
            Some("docs/developer")
        );
        // A page of no project, and the project's `conf.py`, shared.
        assert_eq!(
            sphinx_folder("docs/shared.rst", &tree).as_deref(),
            Some("docs")
        );
        assert_eq!(conf_of("docs/user", tree.paths()), "docs/conf.py");
        // The same settings with the extension not loaded say nothing.
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "docs/conf.py",
                &conf.replace("'multiproject'", "'myst_parser'"),
            ),
            ("docs/user/index.rst", ""),
        ]);
        assert_eq!(
            sphinx_folder("docs/user/index.rst", &tree).as_deref(),
            Some("docs")
        );
    }

    #[test]
    fn a_document_is_written_at_build_where_conf_py_names_its_place() {
        let labels = ProjectLabels {
            pages_written: Some((
                "its `conf.py`".to_owned(),
                [
                    "ref/capi2.md",
                    "notebooks",
                    "contributing.md",
                    "generated/",
                    "modules",
                ]
                .map(str::to_owned)
                .to_vec(),
            )),
            ..ProjectLabels::default()
        };
        for document in [
            "ref/capi2",
            "notebooks/SimpleExample",
            "contributing",
            "autoapi/index",
        ] {
            assert!(labels.written_at_build(document).is_some(), "{document}");
        }
        // Written elsewhere (`-o generated/`), or named by a bare word.
        for document in ["modules", "usage", "ref/other"] {
            assert_eq!(labels.written_at_build(document), None, "{document}");
        }
        assert_eq!(
            ProjectLabels::default().written_at_build("ref/capi2"),
            None,
            "nothing writes pages"
        );
        // An include's file: named by its whole name, wherever it goes.
        assert!(
            labels
                .file_written_at_build("docs/contributing.md")
                .is_some()
        );
        assert!(labels.file_written_at_build("capi2.md").is_some());
        for quiet in ["docs/contributing.rst", "notebooks", "docs/usage.md"] {
            assert_eq!(labels.file_written_at_build(quiet), None, "{quiet}");
        }
    }

    #[test]
    fn a_crlf_pages_labels_are_defined_as_an_lf_pages() {
        let files = crate::snapshot::memory::MemorySnapshot::new(&[
            ("docs/conf.py", ""),
            (
                "docs/install.rst",
                ".. _installing:\r\n\r\nInstalling\r\n==========\r\n\r\nText.\r\n",
            ),
        ]);
        assert!(matches!(
            ProjectLabels::of(&files, "docs").fate("installing"),
            LabelFate::Defined(page) if page == "docs/install.rst"
        ));
    }

    #[test]
    fn a_labels_target_in_a_file_that_is_no_page_is_found() {
        let files = crate::snapshot::memory::MemorySnapshot::new(&[
            ("doc/conf.py", ""),
            (
                "doc/examples/_valid.toml",
                "readme = '''\n.. _examples:\n\nExamples\n'''\n",
            ),
            ("other/data.toml", ".. _elsewhere:\n"),
        ]);
        let texts = label_texts_beyond_pages(&files, "doc/");
        assert_eq!(
            label_text_beyond_pages(&texts, "examples").as_deref(),
            Some("doc/examples/_valid.toml")
        );
        // Outside the project, or nowhere: none.
        assert_eq!(label_text_beyond_pages(&texts, "elsewhere"), None);
        assert_eq!(label_text_beyond_pages(&texts, "gone"), None);
    }

    #[test]
    fn a_page_held_as_a_symbolic_link_defines_its_targets_labels() {
        let files = crate::snapshot::memory::MemorySnapshot::new(&[
            ("docs/conf.py", ""),
            ("docs/index.rst", "Index\n=====\n"),
            ("CHANGES.rst", ".. _changes:\n\nChanges\n=======\n"),
            ("plugins/mux/README.rst", ".. _mux-plugin:\n\nMux\n===\n"),
            ("notes/gone.rst", ".. _unlinked:\n\nGone\n====\n"),
        ])
        .with_link("docs/changes.rst", "../CHANGES.rst")
        .with_link("docs/plugins", "../plugins")
        // A link out of the repository is never read.
        .with_link("docs/outside.rst", "../../elsewhere.rst");
        let labels = ProjectLabels::of(&files, "docs");
        assert!(matches!(
            labels.fate("changes"),
            LabelFate::Defined(page) if page == "docs/changes.rst"
        ));
        assert!(matches!(
            labels.fate("mux-plugin"),
            LabelFate::Defined(page) if page == "docs/plugins/mux/README.rst"
        ));
        assert!(!matches!(labels.fate("unlinked"), LabelFate::Defined(_)));
    }

    #[test]
    fn explicit_targets_names_and_myst_labels_are_defined() {
        let text = ".. _intro:\n\nIntro\n=====\n\n.. _`With Space`:\n\n.. _elsewhere: https://x.org\n\n.. figure:: a.png\n   :name: fig-a\n\n(myst-label)=\n\n..  _two-spaces:\n\n.. _eli5:eli5:\n";
        assert_eq!(
            explicit_labels(text),
            [
                "intro",
                "With Space",
                "fig-a",
                "myst-label",
                "two-spaces",
                "eli5:eli5"
            ]
        );
    }

    #[test]
    fn section_titles_are_read_as_docutils_reads_them() {
        let text = "=====\nTitle\n=====\n\nA paragraph\nof two lines.\n\nUsage\n-----\n\n  Indented\n  --------\n\nShort\n---\n";
        assert_eq!(section_titles(text), ["Title", "Usage"]);
        // Overlined, a title may be inset; underlined alone, an indented
        // line stays a block quote's.
        let inset = "=============\n Rope Issues\n=============\n\nText.\n\n  Quoted\n  ------\n";
        assert_eq!(section_titles(inset), ["Rope Issues"]);
    }

    #[test]
    fn a_prefixed_label_is_another_projects_unless_its_prefix_is_a_document() {
        let mut labels = ProjectLabels::default();
        labels.documents.insert("usage".to_owned());
        labels.define("usage:Install", "docs/usage.rst");
        assert_eq!(
            labels.fate("usage:install"),
            LabelFate::Defined("docs/usage.rst".to_owned())
        );
        assert_eq!(labels.fate("python:tut-intro"), LabelFate::OtherProject);
        assert_eq!(labels.fate("usage:gone"), LabelFate::Undefined);
        assert_eq!(labels.fate("gone"), LabelFate::Undefined);
    }

    #[test]
    fn a_gallery_scripts_labels_are_the_projects() {
        let files = |conf: &'static str| {
            crate::snapshot::memory::MemorySnapshot::new(&[
                ("docs/source/conf.py", conf),
                ("docs/source/faq.rst", "FAQ\n===\n\nSee :ref:`rdb`.\n"),
                (
                    "tutorial/recipes/001_rdb.py",
                    "\"\"\"\n.. _rdb:\n\nSaving to a database\n====================\n\"\"\"\n",
                ),
            ])
        };
        let gallery = files(
            "extensions = ['sphinx_gallery.gen_gallery']\nsphinx_gallery_conf = {'examples_dirs': ['../../tutorial'], 'gallery_dirs': ['tutorial']}\n",
        );
        assert!(matches!(
            ProjectLabels::of(&gallery, "docs/source").fate("rdb"),
            LabelFate::Defined(page) if page == "tutorial/recipes/001_rdb.py"
        ));
        // Without the extension, a folder a string names builds nothing.
        let plain = files("examples = ['../../tutorial']\n");
        assert_eq!(
            ProjectLabels::of(&plain, "docs/source").fate("rdb"),
            LabelFate::Undefined
        );
    }
}
