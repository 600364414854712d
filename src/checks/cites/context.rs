//! Stage 4, the citation family: where one citation is read — its record,
//! the frame it is resolved at, the run's shared reads of that frame (pages'
//! anchors, Sphinx labels, Python packages, test definitions, `.gitignore`
//! files, each read once) — and what its resolver found beside its status,
//! for the evidence to judge.

use super::exemptions::news_fragment::FragmentFolders;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::anchors::PageAnchors;
use super::exemptions::generated_page::GeneratorConfig;
use super::labels::ProjectLabels;
use super::model::{AnchorTarget, AskedObject, ExemptionSettings, LineTarget, TestTarget};
use super::pyobjects::PythonTree;
use super::renderers::Renderers;
use super::testdefs::TestDef;
use crate::frames::Frame;
use crate::snapshot::has_file;

/// A lock of the run's shared reads; a thread that panicked holding it left
/// a cache, whose entries are whole.
pub(super) fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The anchors of the files a page includes, merged, and whether the text of
/// some include could not be read.
pub(super) type IncludedAnchors = (PageAnchors, bool);

/// The tests one file defines, or `None` when it is no test file recount reads.
pub(super) type TestsOfFile = Option<Arc<Vec<TestDef>>>;

/// The hyperlink target names an rst page's references use, normalised.
pub(super) type TargetNames = BTreeSet<String>;

/// What a run reads once per frame and shares between the citations of all
/// its records, keyed by frame label and path; shared by the threads that
/// resolve them (each map locked only to look up or to insert).
#[derive(Default)]
pub(super) struct Reads {
    ignores: Mutex<IgnoreFiles>,
    /// The anchors of the pages links name, by frame and page.
    pub(super) pages: Mutex<BTreeMap<(String, String), Arc<PageAnchors>>>,
    /// The anchors of the files each page includes, merged, and whether some
    /// included text could not be read, by frame and page.
    pub(super) included: Mutex<BTreeMap<(String, String), Arc<IncludedAnchors>>>,
    /// The texts of the files line cites name, by frame and file.
    pub(super) cited_files: Mutex<BTreeMap<(String, String), Arc<str>>>,
    /// Each Sphinx project's labels, by frame and source folder.
    pub(super) labels: Mutex<BTreeMap<(String, String), Arc<ProjectLabels>>>,
    /// The repository's Python packages, by frame.
    pub(super) python: Mutex<BTreeMap<String, PythonTree>>,
    /// The tests each test file defines, by frame and file.
    pub(super) tests: Mutex<BTreeMap<(String, String), TestsOfFile>>,
    /// The tree's paths by the names in them, by frame.
    pub(super) names: Mutex<BTreeMap<String, Arc<PathNames>>>,
    /// The sites the tree configures, by frame.
    pub(super) renderers: Mutex<BTreeMap<String, Arc<Renderers>>>,
    /// The files that may write pages (templates, build files) and their
    /// texts, by frame: read once, however many anchors are asked of them.
    pub(super) generators: Mutex<BTreeMap<String, Arc<GeneratorFiles>>>,
    /// The site generators' configurations that name an output folder, by
    /// frame: read once, however many links are asked of them.
    pub(super) generator_configs: Mutex<BTreeMap<String, Arc<Vec<GeneratorConfig>>>>,
    /// The folders the tree's release tools collect change notes from, with
    /// each tool's name, by frame.
    pub(super) fragment_folders: Mutex<BTreeMap<String, Arc<FragmentFolders>>>,
    /// The label targets the tree's Python files hold (docstrings autodoc
    /// renders), normalised, with the file of each, by frame.
    pub(super) docstring_labels: Mutex<BTreeMap<String, Arc<BTreeMap<String, String>>>>,
    /// The folders sphinx-gallery copies into a Sphinx source folder, by
    /// frame.
    pub(super) galleries: Mutex<BTreeMap<String, Arc<Vec<GalleryCopy>>>>,
    /// The hyperlink target names each rst page's references use, by frame
    /// and page: read once per page, however many targets it defines.
    pub(super) rst_references: Mutex<BTreeMap<(String, String), Arc<TargetNames>>>,
    /// The files each page's own code saves (`plt.savefig("step.png")`),
    /// by file name with the line that saves it, by page: read once per
    /// page, however many links it holds.
    pub(super) saved_by_page: Mutex<BTreeMap<String, Arc<BTreeMap<String, String>>>>,
    /// The audited frame's label: the one tree whose every Python module is
    /// read for Sphinx's `.name` search (a frame at a release's tag is not).
    pub(super) audited: String,
    /// The repository's own project on its forge (`owner/name`, lowercased),
    /// when known: another a page names is not this one.
    pub(super) own_project: Option<String>,
    /// The folders the records have their reader copy from the tree.
    pub(super) reader_copies: Vec<super::reader_copies::ReaderCopy>,
    /// The old addresses Hugo keeps serving (the records' `aliases:`), as
    /// tree paths → the page that lists each.
    pub(super) page_aliases: BTreeMap<String, String>,
}

impl Reads {
    /// The reads of a run that audits the frame `audited`, of the repository
    /// whose forge project is `own_project` where known, whose records have
    /// their reader make `reader_copies`.
    pub(super) fn auditing(
        audited: &str,
        own_project: Option<String>,
        reader_copies: Vec<super::reader_copies::ReaderCopy>,
    ) -> Self {
        Reads {
            audited: audited.to_owned(),
            own_project,
            reader_copies,
            ..Reads::default()
        }
    }
}

/// A tree's paths (indices into its sorted list) by the name of their file
/// and by the name of each folder they are under: where a path cited as the
/// end of a longer one may be, without reading every path of the tree.
#[derive(Default)]
pub(super) struct PathNames {
    files: std::collections::HashMap<String, Vec<usize>>,
    folders: std::collections::HashMap<String, Vec<usize>>,
    /// The paths of Doxygen's configuration files (`Doxyfile`,
    /// `Doxyfile.zh-cn.in`, `x.doxyfile`), in the tree's order.
    doxyfiles: Vec<usize>,
}

impl PathNames {
    pub(super) fn of(paths: &[String]) -> PathNames {
        let mut names = PathNames::default();
        for (i, path) in paths.iter().enumerate() {
            let mut parts: Vec<&str> = path.split('/').collect();
            let Some(file) = parts.pop() else { continue };
            if file.starts_with("Doxyfile") || file.ends_with(".doxyfile") {
                names.doxyfiles.push(i);
            }
            names.files.entry(file.to_owned()).or_default().push(i);
            parts.sort_unstable();
            parts.dedup();
            for folder in parts {
                names.folders.entry(folder.to_owned()).or_default().push(i);
            }
        }
        names
    }

    /// The indices, in the tree's order, of the paths whose file (or, with
    /// `folder`, one of whose folders) is named `name`.
    pub(super) fn named(&self, name: &str, folder: bool) -> &[usize] {
        let by = if folder { &self.folders } else { &self.files };
        by.get(name).map_or(&[], Vec::as_slice)
    }

    /// The indices of the tree's Doxygen configuration files.
    pub(super) fn doxyfiles(&self) -> &[usize] {
        &self.doxyfiles
    }
}

impl Context<'_> {
    /// The sites the frame's tree configures, read once per frame.
    pub(super) fn renderers(&self) -> Arc<Renderers> {
        let mut renderers = locked(&self.reads.renderers);
        Arc::clone(
            renderers
                .entry(self.frame.label.clone())
                .or_insert_with(|| Arc::new(Renderers::read(&*self.frame.snapshot))),
        )
    }

    /// The frame's templates and build files, read once per frame.
    pub(super) fn generator_files(&self) -> Arc<GeneratorFiles> {
        let mut generators = locked(&self.reads.generators);
        Arc::clone(
            generators
                .entry(self.frame.label.clone())
                .or_insert_with(|| {
                    Arc::new(super::exemptions::generated_page::generator_files(
                        &*self.frame.snapshot,
                    ))
                }),
        )
    }

    /// The frame's site generator configurations, read once per frame.
    pub(super) fn generator_configs(&self) -> Arc<Vec<GeneratorConfig>> {
        let mut configs = locked(&self.reads.generator_configs);
        Arc::clone(configs.entry(self.frame.label.clone()).or_insert_with(|| {
            Arc::new(super::exemptions::generated_page::generator_configs(
                &*self.frame.snapshot,
            ))
        }))
    }

    /// The frame's sphinx-gallery folders, read once per frame.
    pub(super) fn galleries(&self) -> Arc<Vec<GalleryCopy>> {
        let mut galleries = locked(&self.reads.galleries);
        Arc::clone(
            galleries
                .entry(self.frame.label.clone())
                .or_insert_with(|| Arc::new(GalleryCopy::of_tree(&*self.frame.snapshot))),
        )
    }

    /// The label targets the frame's Python files hold, read once per frame.
    pub(super) fn docstring_labels(&self) -> Arc<BTreeMap<String, String>> {
        let mut labels = locked(&self.reads.docstring_labels);
        Arc::clone(
            labels.entry(self.frame.label.clone()).or_insert_with(|| {
                Arc::new(super::labels::docstring_labels(&*self.frame.snapshot))
            }),
        )
    }

    /// The folders the frame's release tools collect change notes from
    /// (`newsfragments/`, `.changeset/`), read once per frame.
    pub(super) fn fragment_folders(&self) -> Arc<FragmentFolders> {
        let mut folders = locked(&self.reads.fragment_folders);
        Arc::clone(folders.entry(self.frame.label.clone()).or_insert_with(|| {
            Arc::new(super::exemptions::news_fragment::fragment_folders(
                &*self.frame.snapshot,
            ))
        }))
    }

    /// The frame's paths by the names in them, indexed once per frame.
    pub(super) fn path_names(&self) -> Arc<PathNames> {
        let mut names = locked(&self.reads.names);
        Arc::clone(
            names
                .entry(self.frame.label.clone())
                .or_insert_with(|| Arc::new(PathNames::of(self.frame.snapshot.paths()))),
        )
    }
}

/// A folder sphinx-gallery copies, its pages rendered, into a Sphinx
/// source folder before the build reads it (`conf.py`'s
/// `sphinx_gallery_conf`): a page of it is read where the copy lands.
pub(super) struct GalleryCopy {
    /// The `conf.py` that says so.
    pub(super) conf: String,
    /// The examples folder and the gallery folder, repository-relative.
    pub(super) examples: String,
    pub(super) gallery: String,
}

impl GalleryCopy {
    /// Every copy the tree's `conf.py` files (at most 50) configure.
    fn of_tree(snapshot: &dyn crate::snapshot::Snapshot) -> Vec<GalleryCopy> {
        const MAX_CONFS: usize = 50;
        snapshot
            .paths()
            .iter()
            .filter(|p| p.rsplit('/').next() == Some("conf.py"))
            .take(MAX_CONFS)
            .flat_map(|conf| {
                let text = snapshot.read_text_to_parse(conf).ok().flatten();
                let settings = text
                    .filter(|t| t.contains("sphinx_gallery_conf"))
                    .map(|t| crate::records::sphinx_conf::SphinxConf::of(&t).galleries)
                    .unwrap_or_default();
                settings.into_iter().filter_map(move |(examples, gallery)| {
                    let at = |dir: &str| {
                        super::locate::reader_paths(
                            conf,
                            &format!("./{}/", dir.trim_start_matches("./").trim_end_matches('/')),
                        )?
                        .into_iter()
                        .next()
                        .map(|p| p.trim_end_matches('/').to_owned())
                    };
                    Some(GalleryCopy {
                        conf: conf.clone(),
                        examples: at(&examples)?,
                        gallery: at(&gallery)?,
                    })
                })
            })
            .collect()
    }

    /// The source sphinx-gallery renders the document `page` (`…/index.html`
    /// or `…/plot_ring` below the gallery folder) from, if `is_file` finds
    /// it: a folder's `README.rst` (`.txt`, or `GALLERY_HEADER.rst`) for its
    /// `index`, an example script for its page.
    pub(super) fn source_of(&self, page: &str, is_file: impl Fn(&str) -> bool) -> Option<String> {
        let below = page.strip_prefix(&format!("{}/", self.gallery))?;
        let stem = below.strip_suffix(".html").unwrap_or(below);
        let (folder, name) = match stem.rsplit_once('/') {
            Some((folder, name)) => (format!("{}/{folder}", self.examples), name),
            None => (self.examples.clone(), stem),
        };
        let sources: Vec<String> = if name == "index" {
            ["README.rst", "README.txt", "GALLERY_HEADER.rst"]
                .iter()
                .map(|header| format!("{folder}/{header}"))
                .collect()
        } else {
            vec![format!("{folder}/{name}.py")]
        };
        sources.into_iter().find(|source| is_file(source))
    }

    /// Where `record` lands when its gallery is copied, if it is a page of
    /// an examples folder: the same path below the gallery folder.
    pub(super) fn published(&self, record: &str) -> Option<String> {
        let below = record.strip_prefix(&format!("{}/", self.examples))?;
        Some(format!("{}/{below}", self.gallery))
    }
}

/// A tree's files that may write pages: a template engine's (`*.mustache`)
/// and a build's (`Makefile`, `*.mk`, `*.sh`), each with its text.
pub(super) type GeneratorFiles = Vec<(String, Arc<str>)>;

/// What a resolver found beside a citation's status, set where it resolves,
/// for the evidence to judge.
#[derive(Default)]
pub(super) struct Found {
    /// The lines a line cite resolved to.
    pub(super) lines: RefCell<Option<LineTarget>>,
    /// The page and anchor of a link whose anchor the page lacks.
    pub(super) anchor: RefCell<Option<AnchorTarget>>,
    /// The file and test of a test cite whose file lacks the test.
    pub(super) test: RefCell<Option<TestTarget>>,
    /// A test cite's file is not in the tree.
    pub(super) test_file_missing: RefCell<bool>,
    /// A Python role's object that was not found, for the history.
    pub(super) objects: RefCell<Option<AskedObject>>,
    /// A `:ref:` label no page of the project defines.
    pub(super) label: RefCell<Option<String>>,
    /// For a line cite, the `[[cites.expect]]` entry that applied.
    pub(super) expect: RefCell<Option<usize>>,
    /// A skipped cite that is stale after all, with this reason, when the
    /// history says the path was once one of its own.
    pub(super) stale_if_history_knows: RefCell<Option<String>>,
    /// The tree proves what a path means, whatever the history had: the same
    /// module in the other file layout (stale), or the file the page's
    /// renderer reads (resolved).
    pub(super) proven: RefCell<bool>,
    /// A path under a reader's copy: the file it names in the copy's source.
    pub(super) copied_from: RefCell<Option<String>>,
    /// The cite's path named several files of the tree, and one was chosen.
    pub(super) chosen_among: RefCell<bool>,
}

/// Where a cite is read: its record, the frame it is resolved at, the run's
/// shared reads, and what the rule file left of the exemptions.
pub(super) struct Context<'a> {
    pub(super) record: &'a str,
    pub(super) frame: &'a Frame,
    pub(super) reads: &'a Reads,
    /// The record's text and where the cite sits in it.
    pub(super) text: &'a str,
    pub(super) at: usize,
    /// The exemptions the rule file left on, and its added words (none for a
    /// link to the repository's own hosted page).
    pub(super) exemptions: &'a ExemptionSettings,
    /// The cite is a link to the repository's own hosted page: its address
    /// names one file or folder, not a page a site renders from a source.
    pub(super) hosted: bool,
    /// Where else this record is rendered: the records that include it (a
    /// snippet), and the symbolic links that publish it.
    pub(super) includers: &'a [String],
    /// The record is release notes: a changelog, or one release's page
    /// (`whatsnew-3.1.rst`), whose entries say what a release removed.
    pub(super) release_notes: bool,
    pub(super) found: Found,
}

impl Context<'_> {
    /// A path a `.gitignore` ignores — the root's or one in a folder on its
    /// way, the deepest that speaks deciding, as git reads them — is a build's
    /// or a run's output, never committed: skipped, with that reason.
    pub(super) fn ignored(&self, path: &str, is_dir: bool) -> Option<String> {
        let mut files = locked(&self.reads.ignores);
        let folders: Vec<&str> = std::iter::once("")
            .chain(path.match_indices('/').map(|(i, _)| &path[..i]))
            .collect();
        for folder in folders.iter().rev() {
            let Some(matcher) = files.of(self.frame, folder) else {
                continue;
            };
            let within = if folder.is_empty() {
                path
            } else {
                &path[folder.len() + 1..]
            };
            match matcher.matched_path_or_any_parents(within, is_dir) {
                ignore::Match::Ignore(_) => {
                    let file = if folder.is_empty() {
                        ".gitignore".to_owned()
                    } else {
                        format!("{folder}/.gitignore")
                    };
                    return Some(format!(
                        "`{file}` ignores `{path}`: a build's or a run's output, never committed"
                    ));
                }
                ignore::Match::Whitelist(_) => return None,
                ignore::Match::None => {}
            }
        }
        None
    }
}

/// The `.gitignore` files of the frames a run reads, parsed once each.
#[derive(Default)]
struct IgnoreFiles {
    parsed: BTreeMap<(String, String), Option<Arc<Gitignore>>>,
}

impl IgnoreFiles {
    fn of(&mut self, frame: &Frame, folder: &str) -> Option<Arc<Gitignore>> {
        self.parsed
            .entry((frame.label.clone(), folder.to_owned()))
            .or_insert_with(|| gitignore_of(frame, folder).map(Arc::new))
            .clone()
    }
}

/// The `.gitignore` in one folder of a frame, if there is one.
fn gitignore_of(frame: &Frame, folder: &str) -> Option<Gitignore> {
    let file = if folder.is_empty() {
        ".gitignore".to_owned()
    } else {
        format!("{folder}/.gitignore")
    };
    if !has_file(frame.snapshot.paths(), &file) {
        return None;
    }
    let text = frame.snapshot.read_text_to_parse(&file).ok()??;
    let mut builder = GitignoreBuilder::new("");
    for line in text.lines() {
        // A line the matcher cannot read ignores nothing.
        let _ = builder.add_line(None, line);
    }
    builder.build().ok()
}
