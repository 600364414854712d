//! Stage 2, records: a Sphinx project's `conf.py`, read statically — parsed
//! as Python with tree-sitter, never imported or run (it is the audited
//! repository's code). What a top-level assignment binds to a literal is
//! read: `extensions` (and `+=`, `.append`, `.extend` of it), the keys of
//! `intersphinx_mapping`, `default_role`, `primary_domain`,
//! `exclude_patterns`, `html_static_path`, `html_extra_path`,
//! `rst_prolog`/`rst_epilog`, `autosectionlabel_prefix_document`, and every
//! dict of short names to dotted names (a module-prefix map such as
//! `zzzeeksphinx_module_prefixes`; which of them are module prefixes the
//! object resolver decides from the tree). A value computed at run time
//! (a call, a name) is not known, and nothing is guessed for it.

use std::collections::BTreeMap;

use tree_sitter::Node;

use std::ops::ControlFlow;

use super::rst::{is_identifier, walk_within};
use crate::limits::Depth;

/// `conf.py` files larger than this are not read (a real one is a few KiB).
const MAX_CONF_BYTES: usize = 512 * 1024;

/// The parse of a `conf.py` is served in pieces of this many bytes and
/// counted, as the reStructuredText reader's is: a look-ahead within one
/// piece is not counted, so this bounds what escapes the count.
const CHUNK: usize = 256;

/// Bytes the Python grammar may be served per byte of `conf.py` before the
/// parse is cut there (the grammar's look-ahead is short; a real file is
/// served about once).
const SERVED_PER_BYTE: u64 = 64;

/// Bytes any `conf.py` may be served, however short.
const SERVED_FLOOR: u64 = 1 << 20;

/// Parser operations per byte of `conf.py` past which the parse is given up:
/// what bounds the time and the memory of a parse the served bytes do not
/// show (sixteen 400 KB files of nested brackets peaked at 2.4 GB). A real
/// file takes a few operations a byte; tree-sitter reports every 100.
const OPERATIONS_PER_BYTE: u64 = 64;

/// The most names bound to strings remembered (a hostile `conf.py` may
/// bind many).
const MAX_STRINGS_BOUND: usize = 4096;

/// Operations any `conf.py` may take, however short.
const OPERATIONS_FLOOR: u64 = 1 << 16;

/// What a `conf.py` sets, as far as literals say.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SphinxConf {
    /// `sphinx.ext.intersphinx`, `sphinx.ext.autosectionlabel`, …
    pub extensions: Vec<String>,
    /// The keys of `intersphinx_mapping` (`python`; a URL in the old form).
    pub intersphinx: Vec<String>,
    pub default_role: Option<String>,
    pub primary_domain: Option<String>,
    pub exclude_patterns: Vec<String>,
    /// The file suffixes Sphinx reads documents from, beyond `.rst`
    /// (`source_suffix`: a string, a list, or a dict's keys, `.rst.jinja2`).
    pub source_suffix: Vec<String>,
    pub html_static_path: Vec<String>,
    pub html_extra_path: Vec<String>,
    /// Whether it sets `html_additional_pages` (pages rendered from
    /// templates, beside the documents).
    pub html_additional_pages: bool,
    pub rst_prolog: Option<String>,
    pub rst_epilog: Option<String>,
    pub autosectionlabel_prefix_document: bool,
    /// `extensions` set from something not a literal (a call, a name), or
    /// settings made at run time (`globals().update(…)`, a star import):
    /// what it loads is not known.
    pub extensions_unknown: bool,
    /// Every string literal of the file, anywhere (a `setup()` that calls
    /// `app.setup_extension("…")` names its extension so).
    pub literals: std::collections::BTreeSet<String>,
    /// Every top-level dict whose keys are identifiers and whose values are
    /// dotted names: variable → (short name → dotted name).
    pub dotted_maps: BTreeMap<String, BTreeMap<String, String>>,
    /// `intersphinx_disabled_reftypes` when a literal list: which references
    /// intersphinx may not resolve without a project prefix.
    pub intersphinx_disabled_reftypes: Option<Vec<String>>,
    /// `conf.py` defines a `setup(app)` that does more than add stylesheets
    /// and scripts: Sphinx runs it as an extension, which may write pages
    /// (pyinfra's runs the scripts that generate its operation pages).
    pub setup_runs_code: bool,
    /// `conf.py` writes files as the build starts (opens one for writing,
    /// copies, runs a command, or a `setup()` that runs code): it may write
    /// pages the tree does not hold (fusesoc's generated `capi2.md`).
    pub writes_files: bool,
    /// sphinx-gallery's folders (`sphinx_gallery_conf`'s `examples_dirs`
    /// and `gallery_dirs`, paired in order, relative to `conf.py`): each
    /// examples folder is copied, rendered, into its gallery folder before
    /// Sphinx reads the pages.
    pub galleries: Vec<(String, String)>,
    /// Module-level names bound to a string, for settings that name them.
    strings_bound: BTreeMap<String, String>,
    /// sphinx-multiproject's projects (`multiproject_projects`): the
    /// folder of each, relative to `conf.py` (its `path`, else its name),
    /// which the extension makes Sphinx's source folder for that project.
    pub multiproject: Vec<String>,
    /// Why part of `conf.py` was not read (too large, past the parse budget,
    /// nested past the depth budget), when part was not: what it sets there
    /// is taken as unknown ([`SphinxConf::unread_rest`]).
    pub unread: Option<String>,
}

/// Whether a `setup(app)` body calls anything but `app.add_css_file` and
/// its kin.
fn calls_beyond_assets(body: Node<'_>, source: &str) -> bool {
    const ASSETS: [&str; 5] = [
        "add_css_file",
        "add_js_file",
        "add_stylesheet",
        "add_javascript",
        "add_config_value",
    ];
    any_call(body, source, |called, _| {
        !ASSETS.contains(&called.rsplit('.').next().unwrap_or(called))
    })
}

/// Whether code under `node` writes files: opens one for writing, copies or
/// links one, or runs a command (`shutil.copytree`, `Path.write_text`,
/// `subprocess.run`, `os.system`).
fn writes_files(node: Node<'_>, source: &str) -> bool {
    // Methods that write whatever their receiver (`Path.write_text`).
    const WRITING_METHODS: [&str; 4] = ["write_text", "write_bytes", "symlink_to", "copytree"];
    // Functions of the modules that copy files and run commands.
    const WRITING_MODULES: [&str; 3] = ["shutil.", "subprocess.", "os.system"];
    any_call(node, source, |called, call| {
        let method = called.rsplit('.').next().unwrap_or(called);
        WRITING_METHODS.contains(&method)
            || WRITING_MODULES.iter().any(|m| called.starts_with(m))
            || ((called == "open" || called.ends_with(".open"))
                && call.child_by_field_name("arguments").is_some_and(|args| {
                    // `open(path, "w")`; `Path.open("w")` takes its mode first.
                    let skip = usize::from(called == "open");
                    let mut cursor = args.walk();
                    // (`open(path, mode="w")`: the mode by its keyword.)
                    let writing = |mode: &str| mode.len() <= 3 && mode.contains(['w', 'a', 'x']);
                    args.named_children(&mut cursor)
                        .enumerate()
                        .any(|(i, arg)| match arg.kind() {
                            "keyword_argument" => {
                                arg.child_by_field_name("name")
                                    .and_then(|n| source.get(n.byte_range()))
                                    == Some("mode")
                                    && arg
                                        .child_by_field_name("value")
                                        .and_then(|v| string(v, source))
                                        .is_some_and(|mode| writing(&mode))
                            }
                            _ => {
                                i >= skip && string(arg, source).is_some_and(|mode| writing(&mode))
                            }
                        })
                }))
    })
}

/// Whether a call under `node` (one walk of its nodes, bounded) is one
/// `matches` says yes to, given what is called as written
/// (`shutil.copytree`) and the call.
fn any_call(node: Node<'_>, source: &str, matches: impl Fn(&str, Node<'_>) -> bool) -> bool {
    const MAX_NODES: usize = 20_000;
    let (mut seen, mut found) = (0, false);
    walk_within(node, |here| {
        seen += 1;
        // Too large to read whole: it may do anything.
        found = seen > MAX_NODES
            || (here.kind() == "call"
                && here
                    .child_by_field_name("function")
                    .is_some_and(|function| matches(text(function, source), here)));
        if found {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(true)
        }
    });
    found
}

impl SphinxConf {
    /// `conf.py`'s text read. One too large is not read, and one whose parse
    /// passes its budget is read as far as the parse got: what the rest sets
    /// is unknown, never taken as unset ([`SphinxConf::unread_rest`]).
    pub fn of(source: &str) -> SphinxConf {
        let mut conf = SphinxConf::default();
        if source.len() > MAX_CONF_BYTES {
            conf.unread_rest(format!(
                "it is {} bytes, past the {MAX_CONF_BYTES} the `conf.py` reader takes",
                source.len()
            ));
            return conf;
        }
        let (tree, cut) = parse_within(source);
        if let Some(why) = cut {
            conf.unread_rest(why);
        }
        let Some(tree) = tree else {
            return conf;
        };
        conf.block(tree.root_node(), source, Depth::ROOT);
        conf.literals_of(tree.root_node(), source, Depth::ROOT);
        conf.writes_files |= conf.setup_runs_code || writes_files(tree.root_node(), source);
        conf
    }

    /// Part of `conf.py` left unread, for `why`: what it may set there is
    /// unknown, so nothing may become a finding for want of it. Any extension
    /// may be loaded (intersphinx, autosectionlabel: labels and objects may
    /// come from them) and the build may write pages; the first reason is
    /// kept for the note.
    fn unread_rest(&mut self, why: String) {
        self.extensions_unknown = true;
        self.writes_files = true;
        self.unread.get_or_insert(why);
    }

    fn literals_of(&mut self, node: Node<'_>, source: &str, depth: Depth) {
        if depth.exhausted() {
            self.unread_rest(format!("an expression in it {}", depth.too_deep()));
            return;
        }
        // Settings made at run time (`globals().update(build_config(…))`,
        // `from theme.conf import *`, `exec(…)`, a loader handed the
        // namespace, `load_into_locals(locals())`, as IPython's reads its
        // extensions from `sphinx.toml`): what is loaded is not known.
        let dynamic = match node.kind() {
            "wildcard_import" => true,
            "call" => {
                node.child_by_field_name("function").is_some_and(|f| {
                    matches!(
                        text(f, source),
                        "globals().update" | "vars().update" | "locals().update" | "exec"
                    )
                }) || node.child_by_field_name("arguments").is_some_and(|args| {
                    let mut cursor = args.walk();
                    args.named_children(&mut cursor)
                        .any(|arg| matches!(text(arg, source), "locals()" | "globals()" | "vars()"))
                })
            }
            _ => false,
        };
        self.extensions_unknown |= dynamic;
        if node.kind() == "string" {
            if let Some(value) = string(node, source).filter(|v| v.len() <= 200) {
                self.literals.insert(value);
            }
            return;
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            self.literals_of(child, source, depth.deeper());
        }
    }

    /// Whether the project may load the extension `name`: `extensions` names
    /// it, or is not a literal, or the file names it anywhere (loaded in
    /// `setup()`). A commented-out name is not one.
    pub fn may_load(&self, name: &str) -> bool {
        self.loads(name) || self.extensions_unknown || self.literals.contains(name)
    }

    /// Every suffix a document of the project may have beyond `.rst`: its
    /// `source_suffix`, and the suffixes the extensions it may load
    /// register as source parsers (nbsphinx reads notebooks, nbsphinx_link
    /// a `.nblink` file that points at one, MyST a `.md`).
    pub fn document_suffixes(&self) -> Vec<String> {
        const REGISTERED: [(&str, &[&str]); 5] = [
            ("nbsphinx", &[".ipynb"]),
            ("nbsphinx_link", &[".nblink"]),
            ("myst_nb", &[".ipynb", ".md", ".myst"]),
            ("myst_parser", &[".md"]),
            ("recommonmark", &[".md"]),
        ];
        let mut suffixes = self.source_suffix.clone();
        for (extension, registered) in REGISTERED {
            if self.may_load(extension) {
                for suffix in registered {
                    if !suffixes.iter().any(|s| s == suffix) {
                        suffixes.push((*suffix).to_owned());
                    }
                }
            }
        }
        suffixes
    }

    /// Whether `extensions` loads `name` (`sphinx.ext.intersphinx`).
    pub fn loads(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// Whether another project's labels and objects can be reached: the
    /// intersphinx extension may be loaded (a mapping alone loads nothing).
    pub fn has_intersphinx(&self) -> bool {
        self.may_load("sphinx.ext.intersphinx")
    }

    /// Whether a `:doc:` no page of the project has may be another
    /// project's through intersphinx: `intersphinx_disabled_reftypes` is a
    /// list that leaves `std:doc` on (Sphinx's default since 5.0 turns it
    /// off). The setting says intersphinx is in use, whichever extension
    /// loads it (`sphinx_scrapy` does).
    pub fn documents_through_intersphinx(&self) -> bool {
        self.intersphinx_disabled_reftypes
            .as_ref()
            .is_some_and(|types| {
                !types
                    .iter()
                    .any(|t| ["*", "std:*", "std:doc", "doc"].contains(&t.as_str()))
            })
    }

    fn block(&mut self, node: Node<'_>, source: &str, depth: Depth) {
        if depth.exhausted() {
            self.unread_rest(format!("a block in it {}", depth.too_deep()));
            return;
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            match child.kind() {
                "expression_statement" => self.expression(child, source),
                "function_definition" => {
                    let named_setup = child
                        .child_by_field_name("name")
                        .is_some_and(|name| text(name, source) == "setup");
                    if named_setup && let Some(body) = child.child_by_field_name("body") {
                        self.setup_runs_code |= calls_beyond_assets(body, source);
                    }
                }
                // `from extensions import extensions` (lmfit's, a file its
                // Makefile copies in): a list bound from another module is
                // not known here.
                "import_from_statement" => {
                    let mut cursor = child.walk();
                    let binds_extensions =
                        child
                            .children_by_field_name("name", &mut cursor)
                            .any(|name| {
                                let bound = name.child_by_field_name("alias").unwrap_or(name);
                                text(bound, source) == "extensions"
                            });
                    self.extensions_unknown |= binds_extensions;
                }
                // A setting made under `if`/`try` is still made on some path.
                "if_statement" | "try_statement" | "with_statement" | "block" | "else_clause"
                | "elif_clause" | "except_clause" | "finally_clause" => {
                    self.block(child, source, depth.deeper())
                }
                _ => {}
            }
        }
    }

    fn expression(&mut self, node: Node<'_>, source: &str) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            match child.kind() {
                "assignment" | "augmented_assignment" => {
                    let (Some(left), Some(right)) = (
                        child.child_by_field_name("left"),
                        child.child_by_field_name("right"),
                    ) else {
                        continue;
                    };
                    if left.kind() == "identifier" {
                        let adding = child.kind() == "augmented_assignment";
                        self.assign(text(left, source), right, source, adding);
                    }
                }
                // `extensions.append("x")`, `.extend([...])`, `.update({...})`.
                "call" => {
                    let (Some(function), Some(arguments)) = (
                        child.child_by_field_name("function"),
                        child.child_by_field_name("arguments"),
                    ) else {
                        continue;
                    };
                    let (Some(object), Some(method)) = (
                        function.child_by_field_name("object"),
                        function.child_by_field_name("attribute"),
                    ) else {
                        continue;
                    };
                    let name = text(object, source);
                    let mut cursor = arguments.walk();
                    let Some(argument) = arguments.named_children(&mut cursor).next() else {
                        continue;
                    };
                    match text(method, source) {
                        "append" => {
                            if let Some(value) = string(argument, source) {
                                self.extend_list(name, vec![value]);
                            }
                        }
                        "extend" | "update" => self.assign(name, argument, source, true),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// `name = value` (or `+=` when `adding`).
    fn assign(&mut self, name: &str, value: Node<'_>, source: &str, adding: bool) {
        // A name bound to a string (`GALLERY_DIRS: str = "generated/gallery"`)
        // stands for it where a later setting names it.
        if !adding
            && self.strings_bound.len() < MAX_STRINGS_BOUND
            && let Some(bound) = string(value, source)
        {
            self.strings_bound.insert(name.to_owned(), bound);
        }
        match name {
            "source_suffix" => {
                let suffixes = match value.kind() {
                    "dictionary" => pairs(value, source).into_iter().map(|(k, _)| k).collect(),
                    _ => strings(value, source)
                        .or_else(|| string(value, source).map(|s| vec![s]))
                        .unwrap_or_default(),
                };
                self.source_suffix = suffixes
                    .into_iter()
                    .filter(|s| s.starts_with('.') && s.len() <= 40)
                    .collect();
            }
            "extensions" | "exclude_patterns" | "html_static_path" | "html_extra_path" => {
                let Some(items) = strings(value, source) else {
                    self.extensions_unknown |= name == "extensions";
                    return;
                };
                if !adding {
                    self.list_mut(name).map(Vec::clear);
                }
                self.extend_list(name, items);
            }
            "intersphinx_mapping" => {
                if !adding {
                    self.intersphinx.clear();
                }
                if value.kind() == "dictionary" {
                    for (key, _) in pairs(value, source) {
                        self.intersphinx.push(key);
                    }
                }
            }
            "intersphinx_disabled_reftypes" => {
                self.intersphinx_disabled_reftypes = strings(value, source);
            }
            "default_role" => self.default_role = string(value, source),
            "primary_domain" => self.primary_domain = string(value, source),
            "rst_prolog" => self.rst_prolog = string(value, source),
            "rst_epilog" => self.rst_epilog = string(value, source),
            // MyST-NB reads the formats `nb_custom_formats` registers
            // (`.Rmd` through jupytext) as documents, as `source_suffix` does;
            // nbsphinx its `nbsphinx_custom_formats` (`.pct.py`).
            "nb_custom_formats" | "nbsphinx_custom_formats" if value.kind() == "dictionary" => {
                for (suffix, _) in pairs(value, source) {
                    if suffix.starts_with('.')
                        && suffix.len() <= 40
                        && !self.source_suffix.contains(&suffix)
                    {
                        self.source_suffix.push(suffix);
                    }
                }
            }
            "html_additional_pages" => self.html_additional_pages = true,
            "sphinx_gallery_conf" if value.kind() == "dictionary" => {
                let bound = &self.strings_bound;
                let folders = |node: Node<'_>| {
                    strings(node, source)
                        .or_else(|| string(node, source).map(|s| vec![s]))
                        .or_else(|| {
                            (node.kind() == "identifier")
                                .then(|| bound.get(text(node, source)).cloned())
                                .flatten()
                                .map(|s| vec![s])
                        })
                        .unwrap_or_default()
                };
                let (mut examples, mut galleries) = (Vec::new(), Vec::new());
                for (key, v) in pairs(value, source) {
                    match key.as_str() {
                        "examples_dirs" => examples = folders(v),
                        "gallery_dirs" => galleries = folders(v),
                        _ => {}
                    }
                }
                self.galleries = examples.into_iter().zip(galleries).collect();
            }
            "multiproject_projects" if value.kind() == "dictionary" => {
                self.multiproject = pairs(value, source)
                    .into_iter()
                    .map(|(name, settings)| {
                        let path = (settings.kind() == "dictionary")
                            .then(|| pairs(settings, source))
                            .into_iter()
                            .flatten()
                            .find(|(key, _)| key == "path")
                            .and_then(|(_, path)| string(path, source));
                        path.unwrap_or(name)
                    })
                    .collect();
            }
            "autosectionlabel_prefix_document" => {
                self.autosectionlabel_prefix_document = text(value, source) == "True";
            }
            _ => {
                if value.kind() != "dictionary" {
                    return;
                }
                let map: BTreeMap<String, String> = pairs(value, source)
                    .into_iter()
                    .filter_map(|(key, v)| {
                        let v = string(v, source)?;
                        (is_identifier(&key) && is_dotted(&v)).then_some((key, v))
                    })
                    .collect();
                if !map.is_empty() {
                    let entry = self.dotted_maps.entry(name.to_owned()).or_default();
                    if !adding {
                        entry.clear();
                    }
                    entry.extend(map);
                }
            }
        }
    }

    fn list_mut(&mut self, name: &str) -> Option<&mut Vec<String>> {
        match name {
            "extensions" => Some(&mut self.extensions),
            "exclude_patterns" => Some(&mut self.exclude_patterns),
            "html_static_path" => Some(&mut self.html_static_path),
            "html_extra_path" => Some(&mut self.html_extra_path),
            _ => None,
        }
    }

    fn extend_list(&mut self, name: &str, items: Vec<String>) {
        if let Some(list) = self.list_mut(name) {
            for item in items {
                if !list.contains(&item) {
                    list.push(item);
                }
            }
        }
    }
}

fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// A string literal's value (implicitly concatenated parts joined); `None`
/// for an f-string or anything not a literal.
fn string(node: Node<'_>, source: &str) -> Option<String> {
    // `((("x")))`, however deep, unwrapped in a loop: a hostile `conf.py`
    // must not exhaust the stack.
    let mut node = node;
    while node.kind() == "parenthesized_expression" {
        let mut cursor = node.walk();
        node = node.named_children(&mut cursor).next()?;
    }
    match node.kind() {
        "string" => literal(node, source),
        // Its parts are plain literals in the grammar: read without recursion.
        "concatenated_string" => {
            let mut cursor = node.walk();
            let parts: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
            parts.into_iter().map(|p| literal(p, source)).collect()
        }
        _ => None,
    }
}

/// One `string` node's value; `None` for an f-string or another node.
fn literal(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut value = String::new();
    let mut cursor = node.walk();
    for part in node.named_children(&mut cursor) {
        match part.kind() {
            "string_content" => value.push_str(text(part, source)),
            "interpolation" => return None,
            _ => {}
        }
    }
    Some(value)
}

/// `source` parsed as Python within the parse budget: the tree (of as much as
/// was served, when the served bytes ran out; none when the operations did)
/// and, when the budget cut the parse, why.
fn parse_within(source: &str) -> (Option<tree_sitter::Tree>, Option<String>) {
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_python::LANGUAGE.into())
        .is_err()
    {
        return (None, Some("the Python grammar did not load".to_owned()));
    }
    let length = source.len() as u64;
    let served_budget = SERVED_FLOOR.saturating_add(SERVED_PER_BYTE.saturating_mul(length));
    let operations_budget =
        OPERATIONS_FLOOR.saturating_add(OPERATIONS_PER_BYTE.saturating_mul(length));
    // Both are counts, so the cut falls at the same place on every machine.
    let mut served = 0u64;
    let mut cut_at = None;
    let bytes = source.as_bytes();
    let mut read = |at: usize, _: tree_sitter::Point| {
        // Each piece ends on a character's boundary: a character split by a
        // piece's end and then answered with the empty end of input sent
        // tree-sitter's decoder past the piece (rst.rs found it so).
        let mut end = at.saturating_add(CHUNK).min(source.len());
        while !source.is_char_boundary(end) {
            end += 1;
        }
        let piece = bytes.get(at..end).unwrap_or_default();
        served += piece.len() as u64;
        if served > served_budget {
            // The end of input: the parse finishes with what it was served.
            cut_at.get_or_insert(at);
            return &[][..];
        }
        piece
    };
    let mut reports = 0u64;
    let mut progress = |_: &tree_sitter::ParseState| {
        // Called every 100 operations.
        reports += 1;
        if reports.saturating_mul(100) > operations_budget {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(&mut read, None, Some(options));
    let why = match (&tree, cut_at) {
        (None, _) => Some(format!(
            "the Python parser gave up after {operations_budget} operations \
             ({OPERATIONS_PER_BYTE} a byte of the file)"
        )),
        (Some(_), Some(at)) => Some(format!(
            "it cost the Python parser more than {served_budget} bytes read \
             ({SERVED_PER_BYTE} a byte of the file); read up to byte {at}"
        )),
        (Some(_), None) => None,
    };
    (tree, why)
}

/// A list or tuple of string literals (the non-literals left out).
fn strings(node: Node<'_>, source: &str) -> Option<Vec<String>> {
    if !matches!(node.kind(), "list" | "tuple") {
        return None;
    }
    let mut cursor = node.walk();
    let items: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    Some(
        items
            .into_iter()
            .filter_map(|i| string(i, source))
            .collect(),
    )
}

/// A dict literal's string keys and their value nodes.
fn pairs<'t>(node: Node<'t>, source: &str) -> Vec<(String, Node<'t>)> {
    let mut cursor = node.walk();
    let items: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    items
        .into_iter()
        .filter(|p| p.kind() == "pair")
        .filter_map(|p| {
            let key = string(p.child_by_field_name("key")?, source)?;
            Some((key, p.child_by_field_name("value")?))
        })
        .collect()
}

fn is_dotted(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(is_identifier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphinx_gallerys_folders_are_paired_in_order() {
        let conf = SphinxConf::of(
            "sphinx_gallery_conf = {\n    'examples_dirs': ['../examples', '../tutorials'],\n    'gallery_dirs': ['auto_examples', 'auto_tutorials'],\n    'filename_pattern': '/',\n}\n",
        );
        assert_eq!(
            conf.galleries,
            [
                ("../examples".to_owned(), "auto_examples".to_owned()),
                ("../tutorials".to_owned(), "auto_tutorials".to_owned())
            ]
        );
        let formats = SphinxConf::of(
            "source_suffix = ['.rst', '.md']\nnb_custom_formats = {\".Rmd\": [\"jupytext.reads\", {\"fmt\": \"Rmd\"}]}\n",
        );
        assert!(formats.source_suffix.contains(&".Rmd".to_owned()));
        let nbsphinx = SphinxConf::of(
            "nbsphinx_custom_formats = {\n    '.pct.py': ['jupytext.reads', {'fmt': 'py:percent'}],\n}\n",
        );
        assert!(nbsphinx.source_suffix.contains(&".pct.py".to_owned()));
        // An extension's own parser makes documents of its suffix.
        let linked = SphinxConf::of("extensions = ['nbsphinx', 'nbsphinx_link']\n");
        assert!(linked.document_suffixes().contains(&".nblink".to_owned()));
        assert!(!formats.document_suffixes().contains(&".nblink".to_owned()));
        let named = SphinxConf::of(
            "CODE: str = '../gallery_code'\nOUT = 'generated/gallery'\nsphinx_gallery_conf = {'examples_dirs': CODE, 'gallery_dirs': OUT}\n",
        );
        assert_eq!(
            named.galleries,
            [("../gallery_code".to_owned(), "generated/gallery".to_owned())]
        );
        let one = SphinxConf::of(
            "sphinx_gallery_conf = {'examples_dirs': '../ex', 'gallery_dirs': 'tutorials'}\n",
        );
        assert_eq!(
            one.galleries,
            [("../ex".to_owned(), "tutorials".to_owned())]
        );
    }

    #[test]
    fn literal_settings_are_read() {
        let conf = SphinxConf::of(
            r#"
import os
extensions = ["sphinx.ext.autodoc", 'sphinx.ext.autosectionlabel']
extensions += ["sphinx.ext.intersphinx"]
if os.environ.get("X"):
    extensions.append("sphinx.ext.todo")
intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}
default_role = "py:obj"
exclude_patterns = ["_build", "drafts/*"]
html_static_path = ["_static"]
rst_epilog = """
.. _pypi: https://pypi.org/
"""
autosectionlabel_prefix_document = True
zzzeeksphinx_module_prefixes = {"_sql": "pkg.sql.expression", "_orm": "pkg.orm"}
html_theme_options = {"color": "red-ish"}
multiproject_projects = {"user": {"use_config_file": False}, "dev": {"path": "developer"}}
"#,
        );
        assert_eq!(conf.multiproject, ["user", "developer"]);
        assert_eq!(
            conf.extensions,
            [
                "sphinx.ext.autodoc",
                "sphinx.ext.autosectionlabel",
                "sphinx.ext.intersphinx",
                "sphinx.ext.todo"
            ]
        );
        assert!(conf.has_intersphinx());
        assert_eq!(conf.intersphinx, ["python"]);
        assert_eq!(conf.default_role.as_deref(), Some("py:obj"));
        assert_eq!(conf.exclude_patterns, ["_build", "drafts/*"]);
        assert_eq!(conf.html_static_path, ["_static"]);
        assert!(
            conf.rst_epilog
                .as_deref()
                .is_some_and(|e| e.contains("_pypi"))
        );
        assert!(conf.autosectionlabel_prefix_document);
        assert_eq!(
            conf.dotted_maps["zzzeeksphinx_module_prefixes"]["_sql"],
            "pkg.sql.expression"
        );
        // "red-ish" is no dotted name.
        assert!(!conf.dotted_maps.contains_key("html_theme_options"));
        // Sphinx's default leaves a `:doc:` to the project.
        assert!(!conf.documents_through_intersphinx());
        let fallback = SphinxConf::of(
            "intersphinx_disabled_reftypes: Sequence[str] = []
",
        );
        assert!(fallback.documents_through_intersphinx());
        let off = SphinxConf::of(
            "intersphinx_disabled_reftypes = ['std:doc']
",
        );
        assert!(!off.documents_through_intersphinx());
    }

    #[test]
    fn a_string_in_parentheses_of_any_depth_is_read_without_recursion() {
        let conf = SphinxConf::of("default_role = ((('obj')))\n");
        assert_eq!(conf.default_role.as_deref(), Some("obj"));
        let deep = format!(
            "default_role = {}'obj'{}\n",
            "(".repeat(50_000),
            ")".repeat(50_000)
        );
        let conf = SphinxConf::of(&deep);
        assert_eq!(conf.default_role.as_deref(), Some("obj"));
    }

    #[test]
    fn a_setup_that_does_more_than_add_assets_runs_code() {
        let assets =
            "def setup(app):\n    app.add_css_file('x.css')\n    app.add_js_file('y.js')\n";
        assert!(!SphinxConf::of(assets).setup_runs_code);
        let generates = "def setup(app):\n    for name in ('ops',):\n        if True:\n            local.shell('python gen.py')\n";
        assert!(SphinxConf::of(generates).setup_runs_code);
        let connects = "def setup(app):\n    app.connect('builder-inited', make_pages)\n";
        assert!(SphinxConf::of(connects).setup_runs_code);
        assert!(!SphinxConf::of("def build(app):\n    run()\n").setup_runs_code);
    }

    #[test]
    fn a_conf_that_copies_opens_for_writing_or_runs_a_command_writes_files() {
        for conf in [
            "import shutil\nshutil.copytree('../notebooks', 'notebooks')\n",
            "with open('ref/capi2.md', 'w') as f:\n    f.write(doc)\n",
            "Path('x.md').write_text(doc)\n",
            "import subprocess\nsubprocess.run(['make', 'pages'])\n",
            "import shutil\nshutil.copy('../README.md', 'readme.md')\n",
            "out = docs / 'README.md'\nwith out.open('w') as f:\n    f.write(text)\n",
            "with open(\"reference.md\", mode=\"w\") as f:\n    f.write(text)\n",
        ] {
            assert!(SphinxConf::of(conf).writes_files, "{conf}");
        }
        for conf in [
            "with open('../VERSION') as f:\n    version = f.read()\n",
            "extensions = ['sphinx.ext.autodoc']\n",
            "html_theme_options = base_options.copy()\n",
            "with (root / 'VERSION').open() as f:\n    version = f.read()\n",
            "with source.open('r') as f:\n    text = f.read()\n",
            "with open('../VERSION', mode='r') as f:\n    version = f.read()\n",
        ] {
            assert!(!SphinxConf::of(conf).writes_files, "{conf}");
        }
    }

    #[test]
    fn what_is_computed_or_commented_out_is_not_read() {
        let conf = SphinxConf::of("from extensions import extensions\n");
        assert!(conf.extensions_unknown && conf.has_intersphinx());
        let conf = SphinxConf::of("from ext import standard as extensions\n");
        assert!(conf.extensions_unknown);
        let conf = SphinxConf::of("from os import path\nextensions = []\n");
        assert!(!conf.extensions_unknown && !conf.has_intersphinx());
        let conf = SphinxConf::of("extensions = load_extensions()\n");
        assert!(conf.extensions.is_empty());
        // Loaded by a call: not known, so it may be loaded.
        assert!(conf.extensions_unknown && conf.has_intersphinx());
        let built =
            SphinxConf::of("from theme import conf\nglobals().update(conf.build_config('x'))\n");
        assert!(built.has_intersphinx());
        let handed = SphinxConf::of(
            "from sphinx_toml import load_into_locals\nload_into_locals(locals())\n",
        );
        assert!(handed.has_intersphinx(), "a loader handed the namespace");
        let kept = SphinxConf::of("print(locals)\nrelease = dict(version='1')\n");
        assert!(!kept.has_intersphinx());
        let star = SphinxConf::of("from theme.conf import *\n");
        assert!(star.has_intersphinx());
        let commented =
            SphinxConf::of("# extensions = ['sphinx.ext.intersphinx']\nextensions = []\n");
        assert!(!commented.has_intersphinx());
        assert!(SphinxConf::of("def (:\n").extensions.is_empty());
    }
}
