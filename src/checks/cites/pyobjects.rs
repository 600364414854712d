//! Stage 4 (checks), the citation family: Python objects a record's roles
//! name (`:func:`pkg.mod.run``, `:class:`pkg.Client``), resolved statically
//! against one tree. A dotted name's longest prefix that is a module of the
//! repository's packages (`pkg/mod.py`, `pkg/mod/__init__.py`, under the root
//! or `src/`) is read with tree-sitter, and the rest is looked up among what
//! it defines: classes, functions and methods, module and class level
//! assignments, and the names it imports (followed, a few hops, to where they
//! are defined — `from .app import Flask` is how `pkg.Flask` is written). A
//! name whose first part is no package of the repository is another
//! project's (`dict`, `os.path.join`).
//!
//! The lookup is a walk over a graph — imports, `from .x import *`, class
//! bases — and each (module, name) pair of it is explored once per query, and
//! each name's answer is kept for the tree: a role-heavy page over a package of
//! many star imports costs the modules it reaches, not a product of them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use tree_sitter::Node;

use crate::limits::Depth;

use super::python_bases;
use crate::snapshot::{Snapshot, has_file};

/// How many imports a name is followed through.
const MAX_HOPS: usize = 8;

/// How many module reads one name's lookup makes at most: star imports and
/// bases fan out (qutip's packages star-import each other), and a lookup
/// that has not ended by then is left undecided, not taken for an absence.
const MAX_LOOKUP_STEPS: usize = 4_096;

/// How deep a folder a packaging file marks a project may be for its
/// packages to be read (`python/packages/kit/pyproject.toml`: 3).
const MAX_PROJECT_DEPTH: usize = 3;

/// The folders packages are looked for in, at most (three per project).
const MAX_PROJECT_BASES: usize = 3 + 3 * 64;

/// Modules larger than this are not read.
const MAX_MODULE_BYTES: usize = 2 * 1024 * 1024;

/// What one module defines at its top level and in its classes.
#[derive(Debug, Default)]
pub struct ModuleSymbols {
    /// `Client`, `Client.send`, `run`, `VERSION`, `Client.timeout`.
    defined: BTreeSet<String>,
    /// A name bound by an import: local name → (module as written, relative
    /// dots, the name imported or `None` for `import a.b as c`).
    imported: BTreeMap<String, (String, usize, Option<String>)>,
    /// `from .x import *`: modules whose names this one re-exports.
    star: Vec<(String, usize)>,
    /// A class's bases as written (`Scaffold`, `sansio.App`), by class.
    bases: BTreeMap<String, Vec<String>>,
    /// What a module-level `__getattr__` (PEP 562) may serve, when the module
    /// has one.
    getattr_serves: Option<Served>,
    /// The module binds names no static reading sees: it writes its own
    /// namespace (`globals()[…] =`, `vars()`, `exec`, `sys.modules[__name__]`).
    binds_at_run_time: bool,
    /// The module writes entries of `sys.modules` at import time
    /// (`sys.modules["pkg"] = other.dsl`, a package made an alias of another
    /// distribution's): any name under it may be served from there.
    installs_modules: bool,
    /// A package's `__init__` that sets or extends its `__path__`
    /// (`__path__ = constants.PLUGINS_PATH`, `pkgutil.extend_path`): its
    /// submodules may be read from other folders.
    extends_path: bool,
    /// Names bound to what a call returns (`Widget = toolkit_object("…")`, a
    /// class picked at import time): their members are the value's, which
    /// no static reading lists.
    made_by_call: BTreeSet<String>,
    /// Module-level names bound to another name (`streamspraydf =
    /// streamspraydf.streamspraydf`, `Tree = _Tree`): what the name, as
    /// Python's attribute access reads it, holds.
    aliases: BTreeMap<String, String>,
}

/// The names a module's `__getattr__` may serve at run time.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Served {
    /// It hands the name on (to a loader, `getattr`, an import), or a
    /// loader handed the module's file binds it: any name.
    Anything,
    /// It answers names it spells out (`if name == "__version__"`) and
    /// raises for the rest: these.
    Only(BTreeSet<String>),
}

impl ModuleSymbols {
    /// Adds what `other` (the module's stub) binds that this reading lacks.
    fn absorb(&mut self, other: ModuleSymbols) {
        self.defined.extend(other.defined);
        if self.getattr_serves.is_none() {
            self.getattr_serves = other.getattr_serves;
        }
        for (name, import) in other.imported {
            self.imported.entry(name).or_insert(import);
        }
        self.star.extend(other.star);
        self.binds_at_run_time |= other.binds_at_run_time;
        self.extends_path |= other.extends_path;
        self.made_by_call.extend(other.made_by_call);
        for (name, value) in other.aliases {
            self.aliases.entry(name).or_insert(value);
        }
        for (class, bases) in other.bases {
            self.bases.entry(class).or_insert(bases);
        }
    }

    /// Whether the module binds `name` at its top level: defines it,
    /// assigns it or imports it (`from x import UUID`).
    pub fn binds(&self, name: &str) -> bool {
        self.defined.contains(name) || self.imported.contains_key(name)
    }

    pub fn of(source: &str) -> ModuleSymbols {
        let mut symbols = ModuleSymbols::default();
        let mut parser = tree_sitter::Parser::new();
        if parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .is_err()
        {
            return symbols;
        }
        let Some(tree) = parser.parse(source.as_bytes(), None) else {
            return symbols;
        };
        symbols.block(tree.root_node(), source, None, Depth::ROOT);
        symbols.binds_at_run_time = binds_at_run_time(source);
        symbols.installs_modules = installs_modules(source);
        if symbols.installs_modules {
            symbols.getattr_serves = Some(Served::Anything);
        }
        symbols.extends_path = extends_path(source);
        symbols
    }

    fn block(&mut self, node: Node<'_>, source: &str, class: Option<&str>, depth: Depth) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            self.statement(child, source, class, depth.deeper());
        }
    }

    fn statement(&mut self, node: Node<'_>, source: &str, class: Option<&str>, depth: Depth) {
        if depth.exhausted() {
            return;
        }
        let text = |n: Node<'_>| source.get(n.byte_range()).unwrap_or("").to_owned();
        let qualified = |name: &str| match class {
            Some(class) => format!("{class}.{name}"),
            None => name.to_owned(),
        };
        match node.kind() {
            "decorated_definition" => {
                if let Some(inner) = node.child_by_field_name("definition") {
                    self.statement(inner, source, class, depth.deeper());
                }
            }
            "function_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    self.defined.insert(qualified(&text(name)));
                    if class.is_none() && text(name) == "__getattr__" {
                        self.getattr_serves = Some(getattr_serves(node, source));
                    }
                }
                // A method's `self.x = …` makes an attribute of the class (the
                // instance attributes autodoc documents); a member it probes
                // for by name is one of its hooks.
                if let (Some(class), Some(body)) = (class, node.child_by_field_name("body")) {
                    let mut attributes = BTreeSet::new();
                    self_attributes(
                        body,
                        source,
                        &mut attributes,
                        Depth::stopping_at(MAX_BODY_DEPTH),
                    );
                    for attribute in attributes {
                        self.defined.insert(format!("{class}.{attribute}"));
                    }
                }
            }
            "class_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let name = qualified(&text(name));
                    self.defined.insert(name.clone());
                    if let Some(arguments) = node.child_by_field_name("superclasses") {
                        let mut cursor = arguments.walk();
                        // A generic base (`BaseRunner[Request]`) is its
                        // class, subscripted.
                        let bases: Vec<String> = arguments
                            .named_children(&mut cursor)
                            .filter_map(|b| match b.kind() {
                                "subscript" => b.child_by_field_name("value"),
                                _ => Some(b),
                            })
                            .filter(|b| matches!(b.kind(), "identifier" | "attribute"))
                            .map(text)
                            .collect();
                        if !bases.is_empty() {
                            self.bases.insert(name.clone(), bases);
                        }
                    }
                    if let Some(body) = node.child_by_field_name("body") {
                        // The attributes its docstring lists are the class's
                        // documented ones: napoleon and numpydoc make each an
                        // attribute entry that `:attr:` links to.
                        for attribute in docstring_attributes(body, source) {
                            self.defined.insert(format!("{name}.{attribute}"));
                        }
                        self.block(body, source, Some(&name), depth.deeper());
                    }
                }
            }
            "expression_statement" => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                for child in children {
                    // `a = b = value` binds both: each step of the chain is
                    // an assignment whose right side is the next.
                    let mut steps = Vec::new();
                    let mut step = Some(child).filter(|c| c.kind() == "assignment");
                    while let Some(assignment) = step {
                        steps.push(assignment);
                        step = assignment
                            .child_by_field_name("right")
                            .filter(|r| r.kind() == "assignment");
                    }
                    let value = steps
                        .last()
                        .and_then(|last| last.child_by_field_name("right"));
                    for left in steps.iter().filter_map(|a| a.child_by_field_name("left")) {
                        for name in assigned_names(left, source, Depth::ROOT) {
                            // Bound by a loader handed the module's file
                            // (`attach_stub(__name__, __file__)`): it serves
                            // what the files beside it hold, any name. Bound
                            // by another call (`_make_getattr(__name__)`, a
                            // metadata proxy), what it serves is not read:
                            // no name is assumed served.
                            if class.is_none() && name == "__getattr__" {
                                let right = value.map(text);
                                self.getattr_serves =
                                    Some(if right.is_some_and(|r| r.contains("__file__")) {
                                        Served::Anything
                                    } else {
                                        Served::Only(BTreeSet::new())
                                    });
                            }
                            self.defined.insert(qualified(&name));
                        }
                        // `FanoutCache.memoize = Cache.memoize` at module
                        // level: the class the module defines gets the
                        // member, as autodoc's `:members:` shows it.
                        if class.is_none()
                            && left.kind() == "attribute"
                            && let Some(object) = left.child_by_field_name("object")
                            && object.kind() == "identifier"
                            && self.defined.contains(&text(object))
                            && let Some(member) = left.child_by_field_name("attribute")
                        {
                            self.defined
                                .insert(format!("{}.{}", text(object), text(member)));
                        }
                        // `Node = Meta('Node', (_Node,), {…})`, `type('X', (Base,), {})`:
                        // a class made by a call with `type`'s arguments, whose
                        // bases (its second argument) hold its members.
                        let made = value
                            .filter(|r| left.kind() == "identifier" && r.kind() == "call")
                            .and_then(|r| r.child_by_field_name("arguments"))
                            .map(|arguments| made_class_bases(arguments, source))
                            .unwrap_or_default();
                        // `Tree = _Tree`, `spray = spray.spray`: the name
                        // holds what the other one names.
                        if class.is_none()
                            && left.kind() == "identifier"
                            && let Some(right) =
                                value.filter(|r| matches!(r.kind(), "identifier" | "attribute"))
                            && let Some(dotted) = dotted_name(right, source)
                        {
                            self.aliases.insert(text(left), dotted);
                        }
                        if !made.is_empty() {
                            self.bases.insert(qualified(&text(left)), made);
                        } else if left.kind() == "identifier"
                            && value.is_some_and(|r| r.kind() == "call")
                        {
                            self.made_by_call.insert(qualified(&text(left)));
                        }
                    }
                }
            }
            "import_from_statement" if class.is_none() => self.import_from(node, source),
            "import_statement" if class.is_none() => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                for child in children {
                    let (module, alias) = match child.kind() {
                        "aliased_import" => (
                            child.child_by_field_name("name").map(text),
                            child.child_by_field_name("alias").map(text),
                        ),
                        "dotted_name" => (Some(text(child)), None),
                        _ => (None, None),
                    };
                    if let Some(module) = module {
                        let local = alias.unwrap_or_else(|| {
                            module.split('.').next().unwrap_or(&module).to_owned()
                        });
                        let bound = if local == module.split('.').next().unwrap_or("") {
                            module.split('.').next().unwrap_or("").to_owned()
                        } else {
                            module.clone()
                        };
                        self.imported.insert(local, (bound, 0, None));
                    }
                }
            }
            // Definitions under `if`/`try`/`with` at a level are still there.
            "if_statement" | "try_statement" | "with_statement" | "else_clause" | "elif_clause"
            | "except_clause" | "finally_clause" | "block" => {
                let mut cursor = node.walk();
                let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                for child in children {
                    if matches!(
                        child.kind(),
                        "block"
                            | "else_clause"
                            | "elif_clause"
                            | "except_clause"
                            | "finally_clause"
                    ) {
                        self.statement(child, source, class, depth.deeper());
                    }
                    if node.kind() == "block" {
                        self.statement(child, source, class, depth.deeper());
                    }
                }
            }
            _ => {}
        }
    }

    fn import_from(&mut self, node: Node<'_>, source: &str) {
        let text = |n: Node<'_>| source.get(n.byte_range()).unwrap_or("").to_owned();
        let Some(module) = node.child_by_field_name("module_name") else {
            return;
        };
        let written = text(module);
        let dots = written.chars().take_while(|c| *c == '.').count();
        let from = written[dots..].to_owned();
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            if child.id() == module.id() {
                continue;
            }
            match child.kind() {
                "wildcard_import" => self.star.push((from.clone(), dots)),
                "dotted_name" => {
                    let name = text(child);
                    self.imported
                        .insert(name.clone(), (from.clone(), dots, Some(name)));
                }
                "aliased_import" => {
                    if let (Some(name), Some(alias)) = (
                        child.child_by_field_name("name"),
                        child.child_by_field_name("alias"),
                    ) {
                        self.imported
                            .insert(text(alias), (from.clone(), dots, Some(text(name))));
                    }
                }
                _ => {}
            }
        }
    }
}

/// How deep a method body is searched for `self.x = …`.
const MAX_BODY_DEPTH: usize = 12;

/// A module's docstring: its first statement when that is a string
/// literal (`"""…"""` or `'''…'''`, a prefix `r`/`u` allowed), after
/// comments and blank lines, with the common indentation of its later
/// lines removed, as `inspect.cleandoc` does.
pub fn module_docstring(source: &str) -> Option<String> {
    let start = source
        .lines()
        .scan(0usize, |at, line| {
            let here = *at;
            *at += line.len() + 1;
            Some((here, line))
        })
        .find(|(_, line)| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with('#')
        })?
        .0;
    let rest = source.get(start..)?.trim_start();
    let rest = rest.strip_prefix(['r', 'R', 'u', 'U']).unwrap_or(rest);
    let quote = ["\"\"\"", "\'\'\'"]
        .into_iter()
        .find(|q| rest.starts_with(q))?;
    let body = &rest[quote.len()..];
    let body = &body[..body.find(quote)?];
    let mut lines = body.lines();
    let first = lines.next().unwrap_or_default().trim().to_owned();
    let later: Vec<&str> = lines.collect();
    let indent = later
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut text = first;
    for line in later {
        text.push('\n');
        text.push_str(line.get(indent..).unwrap_or(line.trim_start()));
    }
    Some(text)
}

/// The attributes `self.x = …` assigns anywhere in a method's body.
/// The bases a call with `type`'s arguments gives the class it makes: its
/// first argument a string (the class's name), its second a tuple of names.
/// The names an `Attributes` section of a class's docstring lists, in the
/// numpy form (`Attributes` over a rule of dashes, `params_ : DataFrame`) or
/// the Google one (`Attributes:`, `params_ (DataFrame): …`), and the members
/// it describes with a directive (`.. py:attribute:: forward`).
fn docstring_attributes(body: Node<'_>, source: &str) -> Vec<String> {
    let Some(first) = body.named_child(0) else {
        return Vec::new();
    };
    let docstring = match first.kind() {
        "expression_statement" => first.named_child(0).filter(|n| n.kind() == "string"),
        _ => None,
    };
    let Some(text) = docstring.and_then(|d| source.get(d.byte_range())) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut names = Vec::new();
    // A member the docstring describes with a directive of its own
    // (`.. py:attribute:: autocomplete_function`): autodoc renders the
    // docstring, and Sphinx defines the member where it does.
    for line in &lines {
        let directive = line.trim().strip_prefix("..").map(str::trim_start);
        let Some((kind, rest)) = directive.and_then(|d| d.split_once("::")) else {
            continue;
        };
        let kind = kind.strip_prefix("py:").unwrap_or(kind);
        if matches!(
            kind,
            "attribute" | "method" | "property" | "data" | "classmethod" | "staticmethod"
        ) {
            let rest = rest.trim();
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end > 0 {
                names.push(rest[..end].to_owned());
            }
        }
    }
    let mut at = 0;
    while at < lines.len() {
        let heading = lines[at].trim();
        let numpy = heading == "Attributes"
            && lines.get(at + 1).is_some_and(|rule| {
                rule.trim().len() >= 3 && rule.trim().chars().all(|c| c == '-')
            });
        let google = heading == "Attributes:";
        if !(numpy || google) {
            at += 1;
            continue;
        }
        let indent = lines[at].len() - lines[at].trim_start().len();
        let rule = |line: Option<&&str>| {
            line.is_some_and(|l| l.trim().len() >= 3 && l.trim().chars().all(|c| c == '-'))
        };
        let mut next = at + if numpy { 2 } else { 1 };
        // A Google entry's indentation: the first entry's.
        let mut entry_indent = None;
        while let Some(line) = lines.get(next) {
            let own = line.len() - line.trim_start().len();
            let entry = line.trim();
            next += 1;
            if entry.is_empty() {
                continue;
            }
            // The next section (a numpy heading over its rule, a Google
            // `Note:` back at the heading's indentation) ends the list.
            if own < indent || (numpy && rule(lines.get(next))) || (!numpy && own <= indent) {
                break;
            }
            // A numpy entry stands at the section's indentation, a Google
            // one deeper; a line further in is its description.
            let is_entry = if numpy {
                own == indent
            } else {
                *entry_indent.get_or_insert(own) == own
            };
            if !is_entry {
                continue;
            }
            let end = entry
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(entry.len());
            let name = &entry[..end];
            if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                names.push(name.to_owned());
            }
            if names.len() >= 256 {
                return names;
            }
        }
        break;
    }
    names
}

/// A name written as plain identifiers and dots (`a.b.c`), without
/// comments or spaces inside: an attribute chain of calls or subscripts is
/// none.
fn dotted_name(node: Node<'_>, source: &str) -> Option<String> {
    let written = source.get(node.byte_range())?;
    (!written.is_empty()
        && written.len() <= 256
        && written.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c == '_' || c.is_alphabetic())
                && part.chars().all(|c| c == '_' || c.is_alphanumeric())
        }))
    .then(|| written.to_owned())
}

fn made_class_bases(arguments: Node<'_>, source: &str) -> Vec<String> {
    let mut cursor = arguments.walk();
    let positional: Vec<Node<'_>> = arguments
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "keyword_argument" && a.kind() != "comment")
        .take(2)
        .collect();
    let [name, bases] = positional.as_slice() else {
        return Vec::new();
    };
    if name.kind() != "string" {
        return Vec::new();
    }
    // The bases as a tuple, or built of tuples and lists (`tuple(extensions
    // + [CMSToolbarBase])`): the classes those literals name, read through
    // `+` and a `tuple(…)`/`list(…)` around them.
    const MAX_BASE_NODES: usize = 256;
    let mut found = Vec::new();
    let mut pending = vec![(*bases, false)];
    let mut seen = 0;
    while let Some((node, in_literal)) = pending.pop() {
        seen += 1;
        if seen > MAX_BASE_NODES {
            break;
        }
        match node.kind() {
            "identifier" | "attribute" if in_literal => {
                found.push(source.get(node.byte_range()).unwrap_or("").to_owned());
            }
            "tuple" | "list" => {
                let mut cursor = node.walk();
                pending.extend(node.named_children(&mut cursor).map(|c| (c, true)));
            }
            "binary_operator" | "parenthesized_expression" => {
                let mut cursor = node.walk();
                pending.extend(node.named_children(&mut cursor).map(|c| (c, false)));
            }
            "call" => {
                let wraps = node
                    .child_by_field_name("function")
                    .and_then(|f| source.get(f.byte_range()))
                    .is_some_and(|f| f == "tuple" || f == "list");
                if wraps && let Some(arguments) = node.child_by_field_name("arguments") {
                    let mut cursor = arguments.walk();
                    pending.extend(arguments.named_children(&mut cursor).map(|c| (c, false)));
                }
            }
            _ => {}
        }
    }
    // In the order written.
    found.reverse();
    found
}

fn self_attributes(node: Node<'_>, source: &str, found: &mut BTreeSet<String>, depth: Depth) {
    if depth.exhausted() {
        return;
    }
    if node.kind() == "assignment"
        && let Some(left) = node.child_by_field_name("left")
        && left.kind() == "attribute"
        && let (Some(object), Some(attribute)) = (
            left.child_by_field_name("object"),
            left.child_by_field_name("attribute"),
        )
        && source.get(object.byte_range()) == Some("self")
    {
        found.insert(source.get(attribute.byte_range()).unwrap_or("").to_owned());
    }
    // `hasattr(cls, "_hook")`, `getattr(self, "_hook", None)`: the class
    // probes for a member its subclasses may define, an optional hook its
    // documentation names (a base client's `_attrs_module`).
    if node.kind() == "call"
        && let Some(function) = node.child_by_field_name("function")
        && matches!(
            source.get(function.byte_range()),
            Some("hasattr" | "getattr")
        )
        && let Some(arguments) = node.child_by_field_name("arguments")
        && let (Some(object), Some(name)) = (arguments.named_child(0), arguments.named_child(1))
        && matches!(source.get(object.byte_range()), Some("self" | "cls"))
        && name.kind() == "string"
        && let Some(probed) = source
            .get(name.byte_range())
            .map(|s| s.trim_matches(|c| c == '"' || c == '\''))
        && !probed.is_empty()
        && probed.chars().all(|c| c == '_' || c.is_alphanumeric())
    {
        found.insert(probed.to_owned());
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    for child in children {
        // A nested function or class has a `self` of its own.
        if !matches!(child.kind(), "function_definition" | "class_definition") {
            self_attributes(child, source, found, depth.deeper());
        }
    }
}

/// The names an assignment's left side binds (`a = …`, `a, b = …`,
/// `a: int = …`).
/// What a module's `def __getattr__(name)` may serve: any name when it
/// passes its parameter on to a call (a loader, `getattr`, `import_module`),
/// else the string literals its body spells out.
fn getattr_serves(function: Node<'_>, source: &str) -> Served {
    let text = |n: Node<'_>| source.get(n.byte_range()).unwrap_or("");
    // (`def __getattr__(name: str)`: a typed parameter's name is its first
    // identifier.)
    let parameter = function
        .child_by_field_name("parameters")
        .and_then(|p| p.named_child(0))
        .map(|p| match p.kind() {
            "identifier" => p,
            _ => p
                .child_by_field_name("name")
                .or_else(|| p.named_child(0))
                .unwrap_or(p),
        })
        .map(text)
        .unwrap_or("name");
    let Some(body) = function.child_by_field_name("body") else {
        return Served::Anything;
    };
    let mut literals = BTreeSet::new();
    let mut cursor = body.walk();
    // (A bounded walk: a hostile body is read no further.)
    let mut visited = 0usize;
    loop {
        let node = cursor.node();
        visited += 1;
        if visited > 100_000 {
            return Served::Anything;
        }
        if node.kind() == "call"
            && let Some(arguments) = node.child_by_field_name("arguments")
        {
            let mut inner = arguments.walk();
            let handed: Vec<Node<'_>> = arguments.named_children(&mut inner).collect();
            // A call handed the name and a literal table of names
            // (`deprecate_imports(__name__, {"art": …}, name)`) serves what
            // the table spells out: the literals decide.
            let table = handed
                .iter()
                .any(|a| matches!(a.kind(), "dictionary" | "set" | "list" | "tuple"));
            if !table
                && handed
                    .iter()
                    .any(|argument| argument.kind() == "identifier" && text(*argument) == parameter)
            {
                return Served::Anything;
            }
        }
        if node.kind() == "string" {
            let value = text(node).trim_matches(|c| c == '"' || c == '\'');
            literals.insert(value.to_owned());
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == body {
                return Served::Only(literals);
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Served::Only(literals);
            }
        }
    }
}

fn assigned_names(left: Node<'_>, source: &str, depth: Depth) -> Vec<String> {
    if depth.exhausted() {
        return Vec::new();
    }
    match left.kind() {
        "identifier" => vec![source.get(left.byte_range()).unwrap_or("").to_owned()],
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut cursor = left.walk();
            let children: Vec<Node<'_>> = left.named_children(&mut cursor).collect();
            children
                .into_iter()
                .flat_map(|c| assigned_names(c, source, depth.deeper()))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// How a dotted name fares in one tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectFate {
    /// Found: where it is defined (`src/pkg/app.py: Flask`).
    Defined(String),
    /// A name the repository's module imports from another project
    /// (`pkg.mod.io` for `import io`): that project's object.
    Foreign(String),
    /// Its first part is no package or module of this repository.
    NotOurs,
    /// A package of this repository, but the static reading finds no such
    /// name in it.
    Undefined,
}

/// Where a lookup ended.
enum Found {
    Here(String),
    Elsewhere(String),
}

/// The repository's Python packages in one tree, and the modules read.
pub struct PythonTree {
    snapshot: Arc<dyn Snapshot>,
    /// Top-level package or module name → its folder (`src/flask`) or file.
    roots: BTreeMap<String, String>,
    modules: BTreeMap<String, Option<Arc<ModuleSymbols>>>,
    /// Every name asked of this tree, and its answer.
    fates: BTreeMap<String, ObjectFate>,
    /// For the query under way: each (module file, name in it) explored, with
    /// the fewest hops it was reached at. Reached again with no fewer hops
    /// left, it has nothing new to give (found, the query would have ended;
    /// on the stack, a cycle).
    explored: BTreeMap<(String, String), usize>,
    /// For the query under way: a base of the class that another project
    /// defines, which may hold the member the query did not find.
    /// (Whether the base is one whose members are known: Python's own, or
    /// collections.abc's, that lends the member.)
    foreign_base: Option<(String, bool)>,
    /// Names not found whose class has such a base, with it.
    inheritable: BTreeMap<String, (String, bool)>,
    /// For the query under way: a module the lookup reached that defines a
    /// module-level `__getattr__`, which may serve the name at run time.
    getattr_module: Option<String>,
    /// Names not found that such a module may serve, with its file.
    served_at_run_time: BTreeMap<String, String>,
    /// For the query under way: a folder on the name's path that the tree
    /// holds without its files (a git submodule, a symbolic link).
    unseen_folder: Option<String>,
    /// Set during one lookup: the import that led it to a module of the
    /// packages the tree has no source for (`from ._native import load`).
    built_import: Option<String>,
    /// For names [`fate`](Self::fate) did not find: the import that binds
    /// them from a module with no source in the tree, a compiled extension
    /// the build makes (setuptools-rust's `cbor2._cbor2`).
    from_built: BTreeMap<String, String>,
    /// Names not found whose path leads into such a folder, with it.
    beyond_tree: BTreeMap<String, String>,
    /// For the query under way: a package on the name's path whose
    /// `__init__` sets its `__path__`, so a submodule the tree lacks under
    /// it may be read from another folder.
    path_package: Option<String>,
    /// Names not found under such a package, with its `__init__`.
    under_extended_path: BTreeMap<String, String>,
    /// For the query under way: a value on the name's path that a call
    /// made (`pkg/widget.py: Widget`), whose members no static reading lists.
    call_value: Option<String>,
    /// Names not found that are members of such a value, with it.
    member_of_call: BTreeMap<String, String>,
    /// For the query under way: the modules' names read so far, against
    /// [`MAX_LOOKUP_STEPS`].
    steps: usize,
    /// For the query under way: a path of imports and bases ran past
    /// [`MAX_HOPS`] (altair's `Chart` reaches `SchemaBase` nine bases up).
    out_of_hops: bool,
    /// Names whose lookup read its whole budget, or ran past the hops it
    /// follows, without an answer.
    given_up: BTreeSet<String>,
    /// Every name the packages' modules define, dotted in full, with its
    /// file: read once, for Sphinx's `.name` search.
    everywhere: Option<Arc<Everywhere>>,
    /// Whether a `.name` is searched for in every module: in the audited
    /// tree, not in the trees the history reads (each would parse every
    /// module of its commit again).
    searches: bool,
}

/// Every name the packages' modules define or bind, dotted in full, and
/// where each last part is: a `.name` search looks up its last part, not
/// every name.
#[derive(Default)]
struct Everywhere {
    names: Vec<String>,
    by_last: BTreeMap<String, Vec<usize>>,
}

impl Everywhere {
    /// The full names that are `dotted` (`pkg.mod.Name`) or end with it
    /// after a dot.
    fn ending(&self, dotted: &str) -> impl Iterator<Item = &str> {
        let last = dotted.rsplit('.').next().unwrap_or(dotted);
        let suffix = format!(".{dotted}");
        self.by_last
            .get(last)
            .into_iter()
            .flatten()
            .filter_map(|&at| self.names.get(at))
            .filter(move |full| *full == dotted || full.ends_with(&suffix))
            .map(String::as_str)
    }
}

/// The packaging files named `names` at the root or a project's folder
/// (at most [`MAX_PROJECT_DEPTH`] deep), the first 20, each with its text:
/// what the build readers below read.
fn packaging_files<'s>(
    snapshot: &'s dyn Snapshot,
    names: &'s [&str],
) -> impl Iterator<Item = (&'s String, Arc<str>)> + 's {
    /// The most packaging files read.
    const MAX_FILES: usize = 20;
    snapshot
        .paths()
        .iter()
        .filter(move |p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            names.contains(&name) && p.split('/').count() <= MAX_PROJECT_DEPTH + 1
        })
        .take(MAX_FILES)
        .filter_map(move |file| Some((file, snapshot.read_text_to_parse(file).ok().flatten()?)))
}

/// The top-level packages a `setup.py` or `setup.cfg` maps to a folder by
/// `package_dir` (`{'pyrocko': 'src'}`, `pyrocko = src`), each with that
/// folder from the repository's root, where the folder is in the tree.
/// (The `''` key, every package under one folder, is a base of packages:
/// [`package_folders`].)
fn mapped_packages(snapshot: &dyn Snapshot) -> Vec<(String, String)> {
    static DICT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let dict = DICT.get_or_init(|| {
        regex::Regex::new(r"package_dir\s*=\s*(?:dict\s*\(|\{)([^})]{0,2000})[})]")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static PAIR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pair = PAIR.get_or_init(|| {
        regex::Regex::new(
            r#"["']([A-Za-z_][A-Za-z0-9_]*)["']\s*:\s*["']([A-Za-z0-9_./-]{1,200})["']"#,
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static CFG: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let cfg = CFG.get_or_init(|| {
        regex::Regex::new(r"(?m)^package_dir\s*=\s*\n?((?:[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*=[ \t]*[A-Za-z0-9_./-]+[ \t]*\n?)+)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut mapped = Vec::new();
    for (file, text) in packaging_files(snapshot, &["setup.py", "setup.cfg"]) {
        let folder = file.rsplit_once('/').map_or("", |(folder, _)| folder);
        let pairs: Vec<(String, String)> = if file.ends_with(".py") {
            dict.captures_iter(&text)
                .flat_map(|c| {
                    pair.captures_iter(c.get(1).map_or("", |m| m.as_str()))
                        .map(|p| (p[1].to_owned(), p[2].to_owned()))
                        .collect::<Vec<_>>()
                })
                .collect()
        } else {
            cfg.captures_iter(&text)
                .flat_map(|c| {
                    c[1].lines()
                        .filter_map(|line| {
                            let (key, value) = line.split_once('=')?;
                            Some((key.trim().to_owned(), value.trim().to_owned()))
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        for (package, dir) in pairs {
            let dir = dir.trim_start_matches("./").trim_end_matches('/');
            if package.is_empty() || dir.is_empty() || dir.split('/').any(|s| s == "..") {
                continue;
            }
            let root = if folder.is_empty() {
                dir.to_owned()
            } else {
                format!("{folder}/{dir}")
            };
            if crate::snapshot::has_folder(paths, &root) {
                mapped.push((package, root));
            }
        }
    }
    mapped
}

/// The folders the packaging files of the tree (`pyproject.toml`,
/// `setup.cfg`, `setup.py`, at the root or a project's folder) name as where
/// the build finds packages, each with the packaging file's folder:
/// setuptools' `where = ["python"]`, maturin's `python-source = "python"`,
/// `find_packages("lib")` / `find_packages(where="lib")`, and a
/// `package_dir` (`package-dir`) whose `""` key maps every package to one
/// folder. Only folders the tree has, never leaving the repository.
fn package_folders(snapshot: &dyn Snapshot) -> Vec<(String, String)> {
    static SAYS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let says = SAYS.get_or_init(|| {
        regex::Regex::new(concat!(
            r#"(?m)(?:^[ \t]*where[ \t]*=[ \t]*\[[ \t]*["']([^"'\]\n]{1,200})["']"#,
            r#"|^[ \t]*where[ \t]*=[ \t]*([A-Za-z0-9_./-]{1,200})[ \t]*$"#,
            r#"|^[ \t]*python-source[ \t]*=[ \t]*["']([^"'\n]{1,200})["']"#,
            r#"|find_(?:namespace_)?packages\([ \t]*(?:where[ \t]*=[ \t]*)?["']([^"'\n]{1,200})["']"#,
            r#"|package[-_]dir[ \t]*=[ \t]*(?:dict\([ \t]*)?\{[ \t]*["']{2}[ \t]*[:=][ \t]*["']([^"'\n]{1,200})["'])"#,
        ))
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut found = Vec::new();
    for (file, text) in packaging_files(snapshot, &["pyproject.toml", "setup.cfg", "setup.py"]) {
        let folder = file.rsplit_once('/').map_or("", |(folder, _)| folder);
        for caps in says.captures_iter(&text) {
            let Some(source) = (1..=5).find_map(|i| caps.get(i)) else {
                continue;
            };
            let source = source
                .as_str()
                .trim()
                .trim_start_matches("./")
                .trim_end_matches('/');
            if source.is_empty() || source == "." || source.split('/').any(|s| s == "..") {
                continue;
            }
            let whole = if folder.is_empty() {
                source.to_owned()
            } else {
                format!("{folder}/{source}")
            };
            if crate::snapshot::has_folder(paths, &whole) {
                found.push((folder.to_owned(), source.to_owned()));
            }
        }
    }
    found
}

impl PythonTree {
    pub fn new(snapshot: Arc<dyn Snapshot>) -> Self {
        let mut roots = BTreeMap::new();
        let paths = snapshot.paths();
        // The repository's root, then each folder a packaging file marks a
        // project (`hypothesis/pyproject.toml`, its package in
        // `hypothesis/src/`): Sphinx imports the package from wherever
        // `pip install` or `conf.py`'s `sys.path` puts it, not only from the
        // root. A project at the root wins a name over a nested one.
        let mut bases: Vec<String> = ["", "src/", "lib/"].map(str::to_owned).to_vec();
        for path in paths {
            let Some((folder, file)) = path.rsplit_once('/') else {
                continue;
            };
            if matches!(file, "pyproject.toml" | "setup.py" | "setup.cfg")
                && folder.split('/').count() <= MAX_PROJECT_DEPTH
                && bases.len() < MAX_PROJECT_BASES
                && !bases.iter().any(|b| b == &format!("{folder}/"))
            {
                bases.extend([
                    format!("{folder}/"),
                    format!("{folder}/src/"),
                    format!("{folder}/lib/"),
                ]);
            }
        }
        // The folders a build finds its packages in (`where = ["python"]`,
        // maturin's `python-source`, `find_packages("lib")`, a `package_dir`
        // of `""`): packages there are imported by their own names.
        for (folder, source) in package_folders(snapshot.as_ref()) {
            let base = if folder.is_empty() {
                format!("{source}/")
            } else {
                format!("{folder}/{source}/")
            };
            if bases.len() < MAX_PROJECT_BASES && !bases.contains(&base) {
                bases.push(base);
            }
        }
        // `{base}{package}/__init__.py`: a package whose folder is `base`'s.
        let package_in = |base: &str, rest: &str| {
            rest.strip_suffix("/__init__.py")
                .filter(|package| !package.contains('/'))
                .map(|package| (package.to_owned(), format!("{base}{package}")))
        };
        let packages = paths.iter().filter(|p| p.ends_with("/__init__.py"));
        for path in packages {
            for base in &bases[3..] {
                let Some(rest) = path.strip_prefix(base.as_str()) else {
                    continue;
                };
                if let Some((package, root)) = package_in(base, rest) {
                    roots.entry(package).or_insert(root);
                } else if let Some((namespace, inner)) = rest
                    .strip_suffix("/__init__.py")
                    .and_then(|package| package.split_once('/'))
                    .filter(|(namespace, inner)| {
                        !inner.contains('/')
                            && crate::records::rst::is_identifier(namespace)
                            && crate::records::rst::is_identifier(inner)
                    })
                    && !has_file(paths, &format!("{base}{namespace}/__init__.py"))
                {
                    // A namespace package (PEP 420) several projects share
                    // (`bodhi-server/bodhi/server/`, `bodhi-client/bodhi/client/`):
                    // each project's part is a root of its own, by its
                    // dotted name.
                    roots
                        .entry(format!("{namespace}.{inner}"))
                        .or_insert_with(|| format!("{base}{namespace}/{inner}"));
                }
            }
        }
        // A folder of modules with no `__init__.py` under a project's base
        // (`optional_plugins/mux/avocado_mux/mux.py` beside its `setup.py`):
        // a namespace package (PEP 420), as at the root.
        for path in paths.iter().filter(|p| p.ends_with(".py")) {
            for base in &bases[3..] {
                let Some((package, _)) = path
                    .strip_prefix(base.as_str())
                    .and_then(|rest| rest.split_once('/'))
                    .filter(|(package, module)| {
                        !module.contains('/')
                            && crate::records::rst::is_identifier(package)
                            && *package != "tests"
                    })
                else {
                    continue;
                };
                if !has_file(paths, &format!("{base}{package}/__init__.py")) {
                    roots
                        .entry(package.to_owned())
                        .or_insert_with(|| format!("{base}{package}"));
                }
            }
        }
        let nested = std::mem::take(&mut roots);
        for path in paths {
            for base in ["", "src/", "lib/"] {
                let Some(rest) = path.strip_prefix(base) else {
                    continue;
                };
                if let Some((package, root)) = package_in(base, rest) {
                    roots.entry(package).or_insert(root);
                } else if let Some(package) = rest.strip_suffix("/__init__.py")
                    && let Some((namespace, inner)) = package.split_once('/')
                    && !inner.contains('/')
                    && !crate::snapshot::has_file(paths, &format!("{base}{namespace}/__init__.py"))
                    // A folder a packaging file marks is a project holding
                    // packages (`hypothesis/pyproject.toml`), not one.
                    && !bases.contains(&format!("{base}{namespace}/"))
                {
                    // A namespace package (PEP 420): `src/zope/` holds no
                    // `__init__.py`, and `zope.interface` is a package in it.
                    roots
                        .entry(namespace.to_owned())
                        .or_insert_with(|| format!("{base}{namespace}"));
                } else if let Some(module) = rest.strip_suffix(".py")
                    && !module.contains('/')
                {
                    // A single-module project (`flask.py`, as flask began).
                    // (A root script, `setup.py`, is a module nobody cites.)
                    roots
                        .entry(module.to_owned())
                        .or_insert_with(|| format!("{base}{module}.py"));
                }
            }
        }
        for (package, root) in nested {
            roots.entry(package).or_insert(root);
        }
        // A package the build maps to a folder of another name
        // (`package_dir={'pyrocko': 'src'}`) is imported from that folder:
        // the build's word over the folders' names.
        let mapped = mapped_packages(snapshot.as_ref());
        // The modules in a folder the build maps to a package (`lib/ca.py`
        // with `{'epics': 'lib'}`) are that package's (`epics.ca`), not
        // top-level modules of their own.
        roots.retain(|name, path| {
            !mapped.iter().any(|(package, folder)| {
                name != package
                    && path
                        .strip_prefix(folder.as_str())
                        .and_then(|rest| rest.strip_prefix('/'))
                        .is_some()
            })
        });
        for (package, root) in mapped {
            roots.insert(package, root);
        }
        // Python imports a package only by a name that is an identifier: a
        // hidden folder of scripts (`.evergreen/`) or `my-tools/` is none.
        roots.retain(|name, _| {
            name.split('.').all(|part| {
                let mut chars = part.chars();
                chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                    && chars.all(|c| c.is_alphanumeric() || c == '_')
            })
        });
        PythonTree {
            snapshot,
            roots,
            modules: BTreeMap::new(),
            fates: BTreeMap::new(),
            explored: BTreeMap::new(),
            foreign_base: None,
            inheritable: BTreeMap::new(),
            getattr_module: None,
            served_at_run_time: BTreeMap::new(),
            unseen_folder: None,
            built_import: None,
            from_built: BTreeMap::new(),
            beyond_tree: BTreeMap::new(),
            path_package: None,
            under_extended_path: BTreeMap::new(),
            call_value: None,
            member_of_call: BTreeMap::new(),
            steps: 0,
            out_of_hops: false,
            given_up: BTreeSet::new(),
            everywhere: None,
            searches: true,
        }
    }

    /// The tree of a commit the history reads: a `.name` is not searched for
    /// in it (its dotted candidates are asked as ever).
    pub fn without_search(snapshot: Arc<dyn Snapshot>) -> Self {
        PythonTree {
            searches: false,
            ..PythonTree::new(snapshot)
        }
    }

    /// Whether [`fate`](Self::fate) stopped looking for a name it did not
    /// find after [`MAX_LOOKUP_STEPS`] module reads, or down a chain of more
    /// than [`MAX_HOPS`] imports and bases: its absence is not proven.
    pub fn given_up(&self, name: &str) -> bool {
        self.given_up.contains(name)
    }

    /// For a name [`fate`](Self::fate) did not find, the module on its path
    /// that defines a module-level `__getattr__` (PEP 562: lazy loaders,
    /// deprecation shims), which may serve it at run time: its absence is
    /// not proven.
    /// For a name [`fate`](Self::fate) did not find, the import that binds
    /// it from a module of the packages with no source in the tree (a
    /// compiled extension the build makes): not proven gone.
    pub fn from_built_module(&self, name: &str) -> Option<&str> {
        self.from_built.get(name).map(String::as_str)
    }

    pub fn served_at_run_time(&self, name: &str) -> Option<&str> {
        self.served_at_run_time.get(name).map(String::as_str)
    }

    /// Whether the module `file` (one [`served_at_run_time`] named) serves
    /// names by writing `sys.modules`, rather than by a `__getattr__`.
    ///
    /// [`served_at_run_time`]: Self::served_at_run_time
    pub fn installs_modules(&mut self, file: &str) -> bool {
        self.symbols(file)
            .is_some_and(|symbols| symbols.installs_modules)
    }

    /// For a name [`fate`](Self::fate) did not find, the folder on its path
    /// (followed through imports) that the tree holds without its files: a
    /// git submodule (asyncpg's `pgproto`, whose types `asyncpg.types`
    /// re-exports). What it defines is not this tree's to say.
    pub fn beyond_tree(&self, name: &str) -> Option<&str> {
        self.beyond_tree.get(name).map(String::as_str)
    }

    /// For a name [`fate`](Self::fate) did not find, the `__init__` of a
    /// package on its path that sets its `__path__` (volatility3's
    /// `plugins/__init__.py`, whose submodules live in `framework/plugins/`):
    /// where Python finds the submodule is not this reading's to say.
    pub fn under_extended_path(&self, name: &str) -> Option<&str> {
        self.under_extended_path.get(name).map(String::as_str)
    }

    /// For a name [`fate`](Self::fate) did not find, the value on its path
    /// that a call made at import time (`pyface/widget.py: Widget`, bound to
    /// `toolkit_object("widget:Widget")`): the name is a member of whatever
    /// the call returns, which no static reading lists.
    pub fn member_of_call(&self, name: &str) -> Option<&str> {
        self.member_of_call.get(name).map(String::as_str)
    }

    /// Where the tree defines a name Sphinx searches for (`.CacheRegion`,
    /// `.region.CacheRegion`: a leading dot asks for the object of that full
    /// name, else any whose full name ends so), among every module of the
    /// repository's packages: what a module defines or binds by import, and
    /// a member a class gets from its bases (`.ValuesBase.return_defaults`
    /// from `UpdateBase`).
    /// The name a dotted role most likely meant when its first part is one
    /// edit from a class the packages define that has the rest
    /// (`Ede.leafset_bitmask` for `Edge.leafset_bitmask`): a typo of the
    /// project's own, not another project's name. Class names only (both
    /// capitalised, three letters or more), and only one such class.
    pub fn near_miss(&mut self, written: &str) -> Option<(String, String)> {
        let (first, rest) = written.split_once('.')?;
        let capitalised = |name: &str| name.chars().next().is_some_and(char::is_uppercase);
        if first.chars().count() < 3 || !capitalised(first) || rest.is_empty() {
            return None;
        }
        if self.roots.is_empty() || !self.searches {
            return None;
        }
        let everywhere = self.everywhere();
        let near: Vec<String> = everywhere
            .by_last
            .keys()
            .filter(|class| capitalised(class) && class.as_str() != first)
            .filter(|class| crate::spelling::edit_distance(first, class) == Some(1))
            .map(|class| format!("{class}.{rest}"))
            .collect();
        let mut found =
            near.into_iter()
                .filter_map(|meant| match self.fate(&format!(".{meant}")) {
                    ObjectFate::Defined(at) => Some((meant, at)),
                    _ => None,
                });
        let one = found.next()?;
        found.next().is_none().then_some(one)
    }

    /// Every definition of the packages, read once per tree when a search
    /// first needs it.
    fn everywhere(&mut self) -> Arc<Everywhere> {
        if let Some(read) = &self.everywhere {
            return Arc::clone(read);
        }
        let read = Arc::new(self.read_everywhere());
        self.everywhere = Some(Arc::clone(&read));
        read
    }

    fn searched(&mut self, suffix: &str) -> ObjectFate {
        if self.roots.is_empty() {
            return ObjectFate::NotOurs;
        }
        if !self.searches {
            return ObjectFate::Undefined;
        }
        let everywhere = self.everywhere();
        let dotted = suffix.trim_start_matches('.');
        // (A full name is never a search: one read with an empty package
        // name, `.name`, is not a candidate.)
        let mut candidates: Vec<String> = everywhere
            .ending(dotted)
            .filter(|full| !full.starts_with('.'))
            .map(str::to_owned)
            .collect();
        // A member: the classes whose names end so, each asked for it as a
        // dotted name is (its bases followed).
        if candidates.is_empty()
            && let Some((class, member)) = dotted.rsplit_once('.')
        {
            candidates = everywhere
                .ending(class)
                .map(|full| format!("{full}.{member}"))
                .collect();
        }
        // Sphinx links one of them; a reader is best sent to the shallowest
        // definition outside the tests (`pkg.util.helper.Helper`, not a
        // test module that binds the same name for itself).
        candidates.sort_by_key(|full| {
            let in_tests = full
                .split('.')
                .any(|part| part == "tests" || part == "test" || part.starts_with("test_"));
            (in_tests, full.matches('.').count(), full.clone())
        });
        candidates
            .into_iter()
            .find_map(|full| match self.fate(&full) {
                ObjectFate::Defined(at) => Some(ObjectFate::Defined(at)),
                _ => None,
            })
            .unwrap_or(ObjectFate::Undefined)
    }

    /// Every name every module of the packages defines or binds (a bounded
    /// number of modules, each within the size read).
    fn read_everywhere(&mut self) -> Everywhere {
        const MAX_MODULES: usize = 4_000;
        let files: Vec<String> = self
            .snapshot
            .paths()
            .iter()
            .filter(|p| p.ends_with(".py") || p.ends_with(".pyi"))
            .filter(|p| {
                self.roots
                    .values()
                    .any(|root| root == *p || p.starts_with(&format!("{root}/")))
            })
            .take(MAX_MODULES)
            .cloned()
            .collect();
        let mut names = Vec::new();
        for file in files {
            let module = module_of(&file, &self.roots);
            if module.is_empty() {
                continue;
            }
            // The module is a name too (`:mod:`.tweaks.param_dash``).
            names.push(module.clone());
            if let Some(symbols) = self.symbols(&file) {
                names.extend(
                    symbols
                        .defined
                        .iter()
                        .chain(symbols.imported.keys())
                        .map(|name| format!("{module}.{name}")),
                );
            }
        }
        names.sort();
        names.dedup();
        let mut by_last: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (at, full) in names.iter().enumerate() {
            let last = full.rsplit('.').next().unwrap_or(full);
            by_last.entry(last.to_owned()).or_default().push(at);
        }
        Everywhere { names, by_last }
    }

    /// For a name [`fate`](Self::fate) did not find, a base of its class that
    /// another project defines (`src/pkg/request.py: BaseRequest, imported
    /// from `webob.BaseRequest.json_body``): it may define the member.
    pub fn inheritable(&self, name: &str) -> Option<&str> {
        self.inheritable.get(name).map(|(base, _)| base.as_str())
    }

    /// The base [`PythonTree::inheritable`] names, when it is one of Python's
    /// own or collections.abc's and is known to lend the member.
    pub fn lent_by_python(&self, name: &str) -> Option<&str> {
        self.inheritable
            .get(name)
            .filter(|(_, known)| *known)
            .map(|(base, _)| base.as_str())
    }

    /// Whether `module` (`pkg.sql.expression`) is a module of the tree.
    pub fn is_module(&self, module: &str) -> bool {
        self.module_file(module).is_some()
    }

    /// Whether `name`'s first part is one of this repository's packages.
    pub fn owns(&self, name: &str) -> bool {
        let first = name.split('.').next().unwrap_or(name);
        self.roots.contains_key(first)
            || self
                .roots
                .range(format!("{first}.")..)
                .next()
                .is_some_and(|(key, _)| key.starts_with(&format!("{first}.")))
    }

    /// The root a dotted name is under, by the longest prefix of it that
    /// names one (`bodhi.server` before `bodhi`), and the name's parts
    /// below that root.
    fn root_of<'n>(&self, name: &'n str) -> Option<(&String, Vec<&'n str>)> {
        let parts: Vec<&str> = name.split('.').collect();
        (1..=parts.len().min(2)).rev().find_map(|take| {
            let root = self.roots.get(&parts[..take].join("."))?;
            Some((root, parts[take..].to_vec()))
        })
    }

    /// A dotted name under none of the packages that one of them holds below
    /// its own name (`unumpy.ulinalg` for `uncertainties.unumpy.ulinalg`), as
    /// a reader reads it after `from uncertainties import unumpy`: the full
    /// name and where it is defined.
    pub fn under_a_package(&mut self, name: &str) -> Option<(String, String)> {
        const MAX_ROOTS_TRIED: usize = 64;
        if !name.contains('.') || self.owns(name) {
            return None;
        }
        let roots: Vec<String> = self.roots.keys().take(MAX_ROOTS_TRIED).cloned().collect();
        roots.into_iter().find_map(|root| {
            let full = format!("{root}.{name}");
            match self.fate(&full) {
                ObjectFate::Defined(at) => Some((full, at)),
                _ => None,
            }
        })
    }

    /// The folder of a dotted module name when the tree holds it without
    /// its files (a submodule's gitlink, a symbolic link).
    fn unread_folder(&self, module: &str) -> Option<String> {
        let (root, rest) = self.root_of(module)?;
        if rest.is_empty() || root.ends_with(".py") {
            return None;
        }
        let folder = format!("{root}/{}", rest.join("/"));
        // The entry itself (a submodule's gitlink), however deep the name.
        self.snapshot.unread_entry(&folder)
    }

    /// For a name [`fate`](Self::fate) did not find: the file of the module
    /// its path names (the longest prefix that is one) and the module of
    /// another project it star-imports (`from arviz_stats import *` in
    /// `arviz/__init__.py`, the implementation split out to a distribution
    /// of its own): the name may be that project's, re-exported, and what
    /// it exports is not this tree's to list. Python's own modules export
    /// none of a project's names.
    pub fn star_from_elsewhere(&mut self, name: &str) -> Option<(String, String)> {
        let parts: Vec<&str> = name.split('.').collect();
        let split = (1..parts.len())
            .rev()
            .find(|&split| self.module_file(&parts[..split].join(".")).is_some())?;
        let file = self.module_file(&parts[..split].join("."))?;
        let symbols = self.symbols(&file)?;
        let from = symbols
            .star
            .iter()
            .filter(|(from, dots)| *dots == 0 && !from.is_empty())
            .map(|(from, _)| from)
            .find(|from| {
                !self.owns(from)
                    && !crate::checks::cites::exemptions::intersphinx::is_standard_library(from)
            })?
            .clone();
        Some((file, from))
    }

    /// For a name [`fate`](Self::fate) did not find: the file of the module
    /// its path names (the longest prefix that is one), when that module binds
    /// nothing of the name's next part and nothing in it could bind a name
    /// unseen — no star import, no module `__getattr__`, no write to its own
    /// namespace. Then the name is proven absent there
    /// (`oauth2_provider.views.base.ApplicationList`, a class of another
    /// module).
    pub fn proven_absent(&mut self, name: &str) -> Option<String> {
        let parts: Vec<&str> = name.split('.').collect();
        let split = (1..parts.len())
            .rev()
            .find(|&split| self.module_file(&parts[..split].join(".")).is_some())?;
        let file = self.module_file(&parts[..split].join("."))?;
        let first = parts.get(split)?;
        let symbols = self.symbols(&file)?;
        let bound = symbols.defined.contains(*first) || symbols.imported.contains_key(*first);
        let open = !symbols.star.is_empty()
            || symbols.getattr_serves.is_some()
            || symbols.binds_at_run_time;
        (!bound && !open).then_some(file)
    }

    /// Where the packages' own code writes `dotted` (a docstring's
    /// `:param ~pkg.mlls._Base base:`, a comment), as `file:line`: the first
    /// Python file under the root `dotted` starts from that has it as a
    /// whole dotted word. A bounded read: the files of that root up to a
    /// count, each as far as a record's cap.
    pub fn code_names(&self, dotted: &str) -> Option<String> {
        const MAX_FILES_READ: usize = 5_000;
        let (root, _) = self.root_of(dotted)?;
        let folder = root
            .strip_suffix(".py")
            .map_or_else(|| format!("{root}/"), |_| root.clone());
        let paths = self.snapshot.paths();
        let start = paths.partition_point(|p| p.as_str() < folder.as_str());
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
        paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&folder) || *p == root)
            .filter(|p| p.ends_with(".py"))
            .take(MAX_FILES_READ)
            .find_map(|file| {
                let text = self.snapshot.read_text_to_parse(file).ok().flatten()?;
                text.lines().enumerate().find_map(|(at, line)| {
                    let bytes = line.as_bytes();
                    line.match_indices(dotted).find_map(|(i, _)| {
                        let end = i + dotted.len();
                        let alone = (i == 0 || !word(bytes[i - 1]))
                            && bytes.get(end).is_none_or(|&c| !word(c));
                        alone.then(|| format!("{file}:{}", at + 1))
                    })
                })
            })
    }

    /// The Cython or C source of a dotted module name with no Python file or
    /// stub (`gevent/resolver/cares.pyx`, msgspec's `_core.c`): a compiled
    /// module, whose names a static reading of Python cannot see.
    fn compiled_source(&self, module: &str) -> Option<String> {
        let (root, rest) = self.root_of(module)?;
        if root.ends_with(".py") || rest.is_empty() {
            return None;
        }
        let stem = format!("{root}/{}", rest.join("/"));
        ["pyx", "c", "cpp", "cc"]
            .iter()
            .map(|extension| format!("{stem}.{extension}"))
            .find(|source| has_file(self.snapshot.paths(), source))
    }

    /// The file of a dotted module name, if the tree has it.
    fn module_file(&self, module: &str) -> Option<String> {
        let (root, rest) = self.root_of(module)?;
        if root.ends_with(".py") {
            return rest.is_empty().then(|| root.clone());
        }
        let folder = if rest.is_empty() {
            root.clone()
        } else {
            format!("{root}/{}", rest.join("/"))
        };
        let paths = self.snapshot.paths();
        // A compiled module is known by its stub (`_speedups.pyi`); a folder
        // of modules with no `__init__.py` is a namespace package (PEP 420),
        // a module that binds nothing itself.
        [
            format!("{folder}/__init__.py"),
            format!("{folder}.py"),
            format!("{folder}/__init__.pyi"),
            format!("{folder}.pyi"),
        ]
        .into_iter()
        .find(|f| has_file(paths, f))
        .or_else(|| crate::snapshot::has_folder(paths, &folder).then_some(folder))
    }

    fn symbols(&mut self, file: &str) -> Option<Arc<ModuleSymbols>> {
        if let Some(read) = self.modules.get(file) {
            return read.clone();
        }
        // The same module text at another commit is parsed once: the trees
        // the history reads share most of their files with today's.
        let key = self
            .snapshot
            .blob_id(file)
            .map(|module| (module, self.snapshot.blob_id(&format!("{file}i"))));
        if let Some(key) = &key
            && let Some(hit) = parsed_modules()
                .lock()
                .ok()
                .and_then(|m| m.get(key).cloned())
        {
            self.modules.insert(file.to_owned(), Some(Arc::clone(&hit)));
            return Some(hit);
        }
        let text_of = |path: &str| {
            self.snapshot
                .read_text_to_parse(path)
                .ok()
                .flatten()
                .filter(|t| t.len() <= MAX_MODULE_BYTES)
        };
        let text = text_of(file);
        let mut read = text.as_deref().map(ModuleSymbols::of);
        // A module's stub beside it (`__init__.pyi`) is what a lazily loading
        // package binds: it hands a loader its own name and file
        // (`lazy_loader.attach_stub(__name__, __file__)`), which reads the
        // stub at run time and serves its names through the module's
        // `__getattr__`. A module that binds its names itself is what Sphinx
        // imports, whatever its stub declares.
        static READS_OWN_STUB: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        let reads_own_stub = READS_OWN_STUB.get_or_init(|| {
            regex::Regex::new(r"\(\s*__name__\s*,\s*__file__\b")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        });
        let lazy = text.as_deref().is_some_and(|t| reads_own_stub.is_match(t));
        if file.ends_with(".py")
            && lazy
            && let Some(stub) = text_of(&format!("{file}i"))
        {
            let stub = ModuleSymbols::of(&stub);
            read.get_or_insert_with(ModuleSymbols::default).absorb(stub);
        }
        let read = read.map(Arc::new);
        if let (Some(key), Some(parsed)) = (key, &read)
            && let Ok(mut cache) = parsed_modules().lock()
            && cache.len() < MAX_PARSED_MODULES
        {
            cache.insert(key, Arc::clone(parsed));
        }
        self.modules.insert(file.to_owned(), read.clone());
        read
    }

    /// Where the tree defines `name` (`pkg.mod.Class.meth`, or `.Class.meth`
    /// for any object whose name ends so).
    pub fn fate(&mut self, name: &str) -> ObjectFate {
        if name.starts_with('.') {
            if let Some(fate) = self.fates.get(name) {
                return fate.clone();
            }
            // Undefined while it is searched: a search that comes back to
            // the same name (a module read with an empty package name binds
            // `.name`) ends there rather than recursing without end.
            self.fates.insert(name.to_owned(), ObjectFate::Undefined);
            let fate = self.searched(name);
            self.fates.insert(name.to_owned(), fate.clone());
            return fate;
        }
        if !self.owns(name) {
            return ObjectFate::NotOurs;
        }
        if let Some(fate) = self.fates.get(name) {
            return fate.clone();
        }
        self.explored.clear();
        self.foreign_base = None;
        self.getattr_module = None;
        self.unseen_folder = None;
        self.built_import = None;
        self.path_package = None;
        self.call_value = None;
        self.steps = 0;
        self.out_of_hops = false;
        let fate = match self.find(name, 0) {
            Some(Found::Here(found)) => ObjectFate::Defined(found),
            Some(Found::Elsewhere(found)) => ObjectFate::Foreign(found),
            None => ObjectFate::Undefined,
        };
        self.explored.clear();
        if let (ObjectFate::Undefined, Some(base)) = (&fate, self.foreign_base.take()) {
            self.inheritable.insert(name.to_owned(), base);
        }
        if let (ObjectFate::Undefined, Some(module)) = (&fate, self.getattr_module.take()) {
            self.served_at_run_time.insert(name.to_owned(), module);
        }
        if let (ObjectFate::Undefined, Some(import)) = (&fate, self.built_import.take()) {
            self.from_built.insert(name.to_owned(), import);
        }
        if let (ObjectFate::Undefined, Some(folder)) = (&fate, self.unseen_folder.take()) {
            self.beyond_tree.insert(name.to_owned(), folder);
        }
        if let (ObjectFate::Undefined, Some(init)) = (&fate, self.path_package.take()) {
            self.under_extended_path.insert(name.to_owned(), init);
        }
        if let (ObjectFate::Undefined, Some(value)) = (&fate, self.call_value.take()) {
            self.member_of_call.insert(name.to_owned(), value);
        }
        if matches!(fate, ObjectFate::Undefined)
            && (self.steps > MAX_LOOKUP_STEPS || self.out_of_hops)
        {
            self.given_up.insert(name.to_owned());
        }
        self.fates.insert(name.to_owned(), fate.clone());
        fate
    }

    fn find(&mut self, name: &str, hops: usize) -> Option<Found> {
        if hops > MAX_HOPS {
            self.out_of_hops = true;
            return None;
        }
        let parts: Vec<&str> = name.split('.').collect();
        // The longest prefix that is a module; the rest is in it.
        for split in (1..=parts.len()).rev() {
            let module = parts[..split].join(".");
            let Some(file) = self.module_file(&module) else {
                if let Some(folder) = self
                    .unread_folder(&module)
                    .or_else(|| self.compiled_source(&module))
                {
                    self.unseen_folder.get_or_insert(folder);
                }
                // A submodule the tree lacks under a package that sets its
                // `__path__`: Python may find it in another folder.
                if split >= 2
                    && self.path_package.is_none()
                    && let Some(init) = self
                        .module_file(&parts[..split - 1].join("."))
                        .filter(|f| f.ends_with("__init__.py"))
                    && self.symbols(&init).is_some_and(|s| s.extends_path)
                {
                    self.path_package = Some(init);
                }
                continue;
            };
            let rest = parts[split..].join(".");
            if rest.is_empty() {
                return Some(Found::Here(file));
            }
            if let Some(found) = self.in_module(&module, &file, &rest, hops) {
                return Some(found);
            }
            // A name an import was followed to names its module exactly: its
            // package is not searched for `module.rest` again (through star
            // imports that search was a product of every module's names).
            // The name as the record wrote it may still be an attribute its
            // package binds.
            if hops > 0 {
                return None;
            }
        }
        None
    }

    /// `rest` (`Class.meth`) in the module `module` read from `file`.
    fn in_module(&mut self, module: &str, file: &str, rest: &str, hops: usize) -> Option<Found> {
        // A chain of imports and bases longer than any this reading
        // follows (cycles end earlier, at a name already explored).
        if hops > MAX_HOPS {
            self.out_of_hops = true;
            return None;
        }
        // Star imports and bases across a large package can fan a lookup out
        // past any use: it stops, and the name is left undecided.
        self.steps += 1;
        if self.steps > MAX_LOOKUP_STEPS {
            return None;
        }
        let key = (file.to_owned(), rest.to_owned());
        if self.explored.get(&key).is_some_and(|&at| at <= hops) {
            return None;
        }
        self.explored.insert(key, hops);
        let symbols = self.symbols(file)?;
        if symbols.defined.contains(rest) {
            return Some(Found::Here(format!("{file}: {rest}")));
        }
        let first_name = rest.split('.').next().unwrap_or(rest);
        let served = match &symbols.getattr_serves {
            Some(Served::Anything) => true,
            Some(Served::Only(names)) => names.contains(first_name),
            None => false,
        };
        if served {
            self.getattr_module.get_or_insert_with(|| file.to_owned());
        }
        // A class that defines `__getattr__` (or a base of one the lookup
        // reaches) serves any attribute at run time: dnf's `BaseConfig`
        // reads its options from a library's object.
        if let Some((class, _)) = rest.rsplit_once('.')
            && symbols.defined.contains(&format!("{class}.__getattr__"))
        {
            self.getattr_module
                .get_or_insert_with(|| format!("{file}: class {class}"));
        }
        // A member of a value a call made: what the call returns has it or
        // not, which this reading cannot tell.
        if let Some(value) = rest
            .match_indices('.')
            .map(|(at, _)| &rest[..at])
            .find(|prefix| symbols.made_by_call.contains(*prefix))
        {
            self.call_value
                .get_or_insert_with(|| format!("{file}: {value}"));
        }
        let (first, tail) = match rest.split_once('.') {
            Some((first, tail)) => (first, Some(tail)),
            None => (rest, None),
        };
        // A name the module imports: followed to where it comes from.
        let package = if file.ends_with("/__init__.py") {
            module.to_owned()
        } else {
            module.rsplit_once('.').map_or("", |(p, _)| p).to_owned()
        };
        let absolute = |from: &str, dots: usize| -> String {
            if dots == 0 {
                return from.to_owned();
            }
            let mut base: Vec<&str> = package.split('.').filter(|s| !s.is_empty()).collect();
            for _ in 1..dots {
                base.pop();
            }
            if !from.is_empty() {
                base.push(from);
            }
            base.join(".")
        };
        // A name the module rebinds to another (`spray = spray.spray` after
        // `from . import spray`; `Tree = _Tree`): attribute access reads the
        // later binding, so the rest is looked up in what it names. (The
        // alias's own first part, when it is the name itself, is the binding
        // before it: the import.)
        if let Some(value) = symbols.aliases.get(first) {
            let (head, more) = match value.split_once('.') {
                Some((head, more)) => (head, Some(more)),
                None => (value.as_str(), None),
            };
            let base = if head != first
                || !symbols.defined.contains(head)
                || symbols.imported.contains_key(head)
            {
                match symbols.imported.get(head) {
                    Some((from, dots, Some(original))) => {
                        Some(format!("{}.{original}", absolute(from, *dots)))
                    }
                    Some((from, dots, None)) => Some(absolute(from, *dots)),
                    None if head != first && symbols.defined.contains(head) => {
                        Some(format!("{module}.{head}"))
                    }
                    None => None,
                }
            } else {
                None
            };
            if let Some(base) = base {
                let mut target = base;
                for part in more.into_iter().chain(tail) {
                    target.push('.');
                    target.push_str(part);
                }
                if self.owns(&target)
                    && let Some(found) = self.find(&target, hops + 1)
                {
                    return Some(found);
                }
            }
        }
        if let Some((from, dots, imported)) = symbols.imported.get(first) {
            let source = absolute(from, *dots);
            let mut target = match imported {
                Some(original) => format!("{source}.{original}"),
                None => source,
            };
            if let Some(tail) = tail {
                target = format!("{target}.{tail}");
            }
            if self.owns(&target) {
                let found = self.find(&target, hops + 1);
                // Imported from a module of the packages with no source in
                // the tree, nor a folder: the build makes it (a compiled
                // extension), and what it binds is not this reading's.
                let origin = absolute(from, *dots);
                if found.is_none() && self.module_file(&origin).is_none() {
                    self.built_import
                        .get_or_insert_with(|| format!("{file} imports `{first}` from `{origin}`"));
                }
                return found;
            }
            // Imported from another project: that project's object.
            return Some(Found::Elsewhere(format!(
                "{file}: {first}, imported from `{target}`"
            )));
        }
        // A member a class inherits (`Flask.route` from its base `App`): the
        // base as this module names it, followed.
        if let Some((class, member)) = rest.rsplit_once('.')
            && let Some(bases) = symbols.bases.get(class)
        {
            for base in bases.clone() {
                let inherited = if symbols.defined.contains(&base) {
                    self.in_module(module, file, &format!("{base}.{member}"), hops + 1)
                } else {
                    match self.in_module(module, file, &format!("{base}.{member}"), hops + 1) {
                        // A typing marker (`Generic[T]`, `Protocol`) or
                        // `abc.ABC` gives a subclass no member to inherit.
                        Some(Found::Elsewhere(_)) if lends_nothing(&symbols, &base) => None,
                        // A collections.abc class: what it lends is known.
                        Some(Found::Elsewhere(from)) if let Some(abc) = abc_of(&symbols, &base) => {
                            if python_bases::lends(abc, member) {
                                self.foreign_base.get_or_insert((from, true));
                            }
                            None
                        }
                        Some(Found::Elsewhere(from)) => {
                            // Whether another project's base has the member
                            // is not for this tree to say.
                            self.foreign_base.get_or_insert((from, false));
                            None
                        }
                        // Python's own class (`dict`, `Exception`), bound
                        // nowhere in the module: what it lends is known.
                        None if let Some(builtin) = python_bases::is_builtin(&base) => {
                            if python_bases::lends(builtin, member) {
                                self.foreign_base.get_or_insert((
                                    format!("{file}: {class}, from Python's `{base}`"),
                                    true,
                                ));
                            }
                            None
                        }
                        found => found,
                    }
                };
                if inherited.is_some() {
                    return inherited;
                }
            }
        }
        for (from, dots) in symbols.star.clone() {
            let target = format!("{}.{rest}", absolute(&from, dots));
            if self.owns(&target)
                && let Some(found) = self.find(&target, hops + 1)
            {
                return Some(found);
            }
        }
        None
    }
}

/// Whether a module's text writes its own namespace, binding names no static
/// reading sees: `globals()[…] =`, `globals().update(…)`, `vars()`, `exec`,
/// `sys.modules[__name__]` (a test module that makes its classes from spec
/// files at import time).
pub fn binds_at_run_time(source: &str) -> bool {
    static RUN_TIME: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RUN_TIME
        .get_or_init(|| {
            regex::Regex::new(r"(?-u:\b)(?:globals|vars|locals)\(\s*\)|(?-u:\b)exec\(|sys\.modules\[\s*__name__\s*\]|setattr\(\s*sys\.modules")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        })
        .is_match(source)
}

/// Whether a module's text writes entries of `sys.modules` (`sys.modules[
/// name] = module`, `sys.modules.update(…)`), so that importing a name under
/// it may reach whatever module it put there.
fn installs_modules(source: &str) -> bool {
    static INSTALLS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    INSTALLS
        .get_or_init(|| {
            regex::Regex::new(
                r"(?m)^[ \t]*sys\.modules(?:\[[^\]\n]*\][ \t]*=[^=]|\.(?:update|setdefault)\()",
            )
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        })
        .is_match(source)
}

/// Whether a package's `__init__` text sets or extends its `__path__`, so
/// Python looks for its submodules in other folders too.
fn extends_path(source: &str) -> bool {
    static PATH: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        regex::Regex::new(r"(?m)^[ \t]*__path__[ \t]*(?:\+?=[^=]|\.(?:append|extend|insert)\()|(?-u:\b)extend_path\(")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    })
    .is_match(source)
}

/// How many parsed modules the run keeps by content (a bound on memory).
const MAX_PARSED_MODULES: usize = 50_000;

/// A module's blob id and its stub's.
type ModuleKey = ([u8; 20], Option<[u8; 20]>);

/// The modules parsed in this run, by the content of the module and its
/// stub, whatever commit's tree read them.
fn parsed_modules() -> &'static std::sync::Mutex<BTreeMap<ModuleKey, Arc<ModuleSymbols>>> {
    static PARSED: std::sync::OnceLock<std::sync::Mutex<BTreeMap<ModuleKey, Arc<ModuleSymbols>>>> =
        std::sync::OnceLock::new();
    PARSED.get_or_init(Default::default)
}

/// The dotted module a file of the packages is (`src/pkg/a/b.py`:
/// `pkg.a.b`; `src/pkg/a/__init__.py`: `pkg.a`), from the roots; empty for
/// a file under none.
fn module_of(file: &str, roots: &BTreeMap<String, String>) -> String {
    for (name, root) in roots {
        if file == root {
            return name.clone();
        }
        let Some(rest) = file.strip_prefix(&format!("{root}/")) else {
            continue;
        };
        let rest = rest
            .strip_suffix(".pyi")
            .or_else(|| rest.strip_suffix(".py"))
            .unwrap_or(rest);
        let rest = rest.strip_suffix("/__init__").unwrap_or(rest);
        if rest == "__init__" {
            return name.clone();
        }
        return format!("{name}.{}", rest.replace('/', "."));
    }
    String::new()
}

/// Whether `base` is bound by an import of a class that lends its
/// subclasses no member: `typing.Generic`, `typing.Protocol` (or
/// `typing_extensions`'), `abc.ABC`. A member such a class's subclass lacks
/// is not the base's.
fn lends_nothing(symbols: &ModuleSymbols, base: &str) -> bool {
    let Some((module, 0, imported)) = symbols.imported.get(base) else {
        return false;
    };
    let name = imported.as_deref().unwrap_or(base);
    matches!(
        (module.as_str(), name),
        ("typing" | "typing_extensions", "Generic" | "Protocol") | ("abc", "ABC")
    )
}

/// The collections.abc class `base` is bound to by an absolute import in
/// `symbols`, if it is one.
fn abc_of(symbols: &ModuleSymbols, base: &str) -> Option<&'static str> {
    let (module, 0, imported) = symbols.imported.get(base)? else {
        return None;
    };
    python_bases::is_abc(module, imported.as_deref().unwrap_or(base))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_module_docstring_is_its_first_statement_unindented() {
        let source = "#!/usr/bin/env python\n# notes\n\nr\"\"\"Basic usage\n    ===========\n\n    Run it.\n    \"\"\"\nimport os\n";
        assert_eq!(
            module_docstring(source).as_deref(),
            Some("Basic usage\n===========\n\nRun it.\n")
        );
        assert_eq!(
            module_docstring("import os\n\"\"\"Not first.\"\"\"\n"),
            None
        );
    }

    use super::*;

    #[test]
    fn typing_markers_lend_no_members_and_another_projects_base_may() {
        let symbols = ModuleSymbols::of(
            "from typing import Generic, Protocol as P\nimport abc\nfrom abc import ABC\nfrom flask import App\n",
        );
        assert!(lends_nothing(&symbols, "Generic"));
        assert!(lends_nothing(&symbols, "P"));
        assert!(lends_nothing(&symbols, "ABC"));
        assert!(!lends_nothing(&symbols, "App"));
        assert!(!lends_nothing(&symbols, "Mapping"));
    }

    fn tree(files: &[(&str, &str)]) -> PythonTree {
        PythonTree::new(Arc::new(crate::snapshot::memory::MemorySnapshot::new(
            files,
        )))
    }

    #[test]
    fn a_member_a_module_level_assignment_gives_its_class_is_defined() {
        let mut python = tree(&[(
            "kit/__init__.py",
            "class Cache:\n    def memoize(self):\n        pass\n\nclass Fanout:\n    pass\n\nFanout.memoize = Cache.memoize\nunknown.attr = 1\n",
        )]);
        assert!(matches!(
            python.fate("kit.Fanout.memoize"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("kit.Fanout.other"), ObjectFate::Undefined);
        assert_eq!(python.fate("kit.unknown.attr"), ObjectFate::Undefined);
    }

    #[test]
    fn a_package_in_the_folder_its_build_finds_packages_in_is_read_there() {
        // cbor2 after its Rust rewrite: setuptools finds `python/cbor2`,
        // whose names come from a compiled module its stub declares.
        let mut python = tree(&[
            (
                "pyproject.toml",
                "[project]\nname = \"kit\"\n\n[tool.setuptools.packages.find]\nwhere = [\"python\"]\n",
            ),
            (
                "python/kit/__init__.py",
                "from ._native import load as load\n",
            ),
            ("python/kit/__init__.pyi", "def load(fp): ...\n"),
            ("python/kit/tool.py", "def main():\n    pass\n"),
        ]);
        assert_eq!(
            python.fate("kit.tool.main"),
            ObjectFate::Defined("python/kit/tool.py: main".to_owned())
        );
        assert_eq!(python.fate("kit.load"), ObjectFate::Undefined);
        assert_eq!(
            python.from_built_module("kit.load"),
            Some("python/kit/__init__.py imports `load` from `kit._native`")
        );
        assert_eq!(python.from_built_module("kit.tool.gone"), None);
    }

    #[test]
    fn names_are_followed_through_imports_and_bases_and_cycles_end() {
        let mut python = tree(&[
            (
                "src/pkg/__init__.py",
                "from .app import App as App\nimport os\n",
            ),
            (
                "src/pkg/app.py",
                "from .base import Base\nclass App(Base):\n    pass\nclass Loop(Loop):\n    pass\n",
            ),
            (
                "src/pkg/base.py",
                "class Base:\n    def route(self):\n        pass\n",
            ),
            (
                "src/pkg/runner.py",
                "from typing import Generic\nclass BaseRunner(Generic[T]):\n    def cleanup(self):\n        pass\nclass AppRunner(BaseRunner[Request]):\n    pass\n",
            ),
        ]);
        // A generic base is followed as its class.
        assert!(
            matches!(python.fate("pkg.runner.AppRunner.cleanup"), ObjectFate::Defined(at) if at.ends_with("BaseRunner.cleanup"))
        );
        assert!(
            matches!(python.fate("pkg.App.route"), ObjectFate::Defined(at) if at.starts_with("src/pkg/base.py"))
        );
        assert!(matches!(python.fate("pkg.os"), ObjectFate::Foreign(_)));
        assert_eq!(python.fate("pkg.Loop.gone"), ObjectFate::Undefined);
        assert_eq!(python.inheritable("pkg.Loop.gone"), None);
        // A cycle ends at a name already explored: absence is proven.
        assert!(!python.given_up("pkg.Loop.gone"));
        assert_eq!(python.fate("dict"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_name_a_module_rebinds_to_another_holds_what_that_one_names() {
        let mut python = tree(&[
            (
                "src/pkg/__init__.py",
                "from . import spray\nfrom ._tree import _Tree\nspray = spray.spray\nTree = _Tree\nOther = missing.name\n",
            ),
            (
                "src/pkg/spray.py",
                "class base:\n    def track(self):\n        pass\nclass spray(base):\n    pass\n",
            ),
            (
                "src/pkg/_tree.py",
                "class _Tree:\n    def grow(self):\n        pass\n",
            ),
        ]);
        // The package rebinds its submodule's name to the class: attribute
        // access (autodoc's) reads the class, and its base's method.
        assert!(
            matches!(python.fate("pkg.spray.track"), ObjectFate::Defined(at) if at.ends_with("base.track"))
        );
        assert!(
            matches!(python.fate("pkg.Tree.grow"), ObjectFate::Defined(at) if at.ends_with("_Tree.grow"))
        );
        // What the alias names lacks it: not there.
        assert_eq!(python.fate("pkg.Tree.wither"), ObjectFate::Undefined);
        assert_eq!(python.fate("pkg.Other.thing"), ObjectFate::Undefined);
    }

    #[test]
    fn a_package_the_build_maps_to_another_folder_is_read_there() {
        let mut python = tree(&[
            (
                "setup.py",
                "setup(name='pyrocko', package_dir={'pyrocko': 'src'}, packages=['pyrocko'])\n",
            ),
            ("src/__init__.py", ""),
            ("src/gf/__init__.py", ""),
            ("src/gf/meta.py", "class Config:\n    pass\n"),
            ("src/util.py", "def ensure():\n    pass\n"),
            (
                "tools/setup.cfg",
                "[options]\npackage_dir =\n    kit = lib_kit\n",
            ),
            ("tools/lib_kit/__init__.py", "def run():\n    pass\n"),
        ]);
        assert!(matches!(
            python.fate("pyrocko.gf.meta.Config"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("pyrocko.gf.meta.Gone"), ObjectFate::Undefined);
        assert!(matches!(python.fate("kit.run"), ObjectFate::Defined(_)));
        // A module of the mapped folder is the package's, not a top-level
        // module of its own.
        assert!(matches!(
            python.fate("pyrocko.util.ensure"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("util.ensure"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_class_with_getattr_may_serve_any_attribute_at_run_time() {
        let mut python = tree(&[
            (
                "pkg/config.py",
                "class Base:\n    def __getattr__(self, name):\n        return 1\nclass Main(Base):\n    pass\nclass Plain:\n    pass\n",
            ),
            ("pkg/__init__.py", "from pkg.config import Main as Conf\n"),
        ]);
        assert_eq!(
            python.fate("pkg.config.Base.anything"),
            ObjectFate::Undefined
        );
        assert!(
            python
                .served_at_run_time("pkg.config.Base.anything")
                .is_some_and(|at| at.contains("class Base"))
        );
        assert_eq!(
            python.fate("pkg.config.Plain.anything"),
            ObjectFate::Undefined
        );
        assert_eq!(python.served_at_run_time("pkg.config.Plain.anything"), None);
    }

    #[test]
    fn a_namespace_package_several_projects_share_is_read_in_each() {
        let mut python = tree(&[
            ("srv/pyproject.toml", "[project]\nname = 'app-server'\n"),
            ("srv/app/server/__init__.py", ""),
            ("srv/app/server/logs.py", "class Limiter:\n    pass\n"),
            ("cli/pyproject.toml", "[project]\nname = 'app-client'\n"),
            ("cli/app/client/__init__.py", "def main():\n    pass\n"),
        ]);
        assert!(matches!(
            python.fate("app.server.logs.Limiter"),
            ObjectFate::Defined(at) if at.starts_with("srv/app/server/logs.py")
        ));
        assert!(matches!(
            python.fate("app.client.main"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("app.server.logs.Gone"), ObjectFate::Undefined);
        assert_eq!(python.fate("other.thing"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_package_is_read_where_a_packaging_file_marks_its_project() {
        let mut python = tree(&[
            ("hypo/pyproject.toml", "[project]\nname = 'hypo'\n"),
            (
                "hypo/src/hypo/__init__.py",
                "from hypo.control import assume\n",
            ),
            ("hypo/src/hypo/control.py", "def assume(c):\n    pass\n"),
            ("tools/setup.py", ""),
            ("tools/kit/__init__.py", "def nested():\n    pass\n"),
            ("kit/__init__.py", "def rooted():\n    pass\n"),
            ("docs/examples/demo/__init__.py", "def demo():\n    pass\n"),
            ("plugins/mux/setup.py", ""),
            (
                "plugins/mux/avocado_mux/mux.py",
                "class MuxPlugin:\n    pass\n",
            ),
            ("plugins/mux/tests/test_mux.py", "def test_a():\n    pass\n"),
        ]);
        // A namespace package beside its project's `setup.py`.
        assert!(matches!(
            python.fate("avocado_mux.mux.MuxPlugin"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("tests.test_mux.test_a"), ObjectFate::NotOurs);
        assert!(matches!(python.fate("avocado_mux"), ObjectFate::Defined(_)));
        assert_eq!(python.fate("avocado_mux.Gone"), ObjectFate::Undefined);
        assert!(matches!(python.fate("hypo.assume"), ObjectFate::Defined(_)));
        assert_eq!(python.fate("hypo.gone"), ObjectFate::Undefined);
        // The project at the root keeps its name.
        assert!(matches!(python.fate("kit.rooted"), ObjectFate::Defined(_)));
        assert_eq!(python.fate("kit.nested"), ObjectFate::Undefined);
        // A folder no packaging file marks holds none of the packages.
        assert_eq!(python.fate("demo.demo"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_base_chain_longer_than_the_hops_followed_is_left_undecided() {
        // `C0(C1)`, `C1(C2)`, … `C11` defines `run`: twelve bases up, past
        // the hops a lookup follows, so `run` is neither found nor gone.
        let mut classes = String::new();
        for i in 0..12 {
            classes.push_str(&format!("class C{i}(C{}):\n    pass\n", i + 1));
        }
        classes.push_str("class C12:\n    def run(self):\n        pass\n");
        let mut python = tree(&[("pkg/__init__.py", ""), ("pkg/chain.py", &classes)]);
        assert!(matches!(
            python.fate("pkg.chain.C8.run"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(python.fate("pkg.chain.C0.run"), ObjectFate::Undefined);
        assert!(python.given_up("pkg.chain.C0.run"));
        // A member no class of a short chain has is proven absent.
        assert_eq!(python.fate("pkg.chain.C8.gone"), ObjectFate::Undefined);
        assert!(!python.given_up("pkg.chain.C8.gone"));
    }

    #[test]
    fn a_member_a_class_probes_for_by_name_is_one_of_its_hooks() {
        let mut python = tree(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/client.py",
                "class BaseClient:\n    @classmethod\n    def register(cls):\n        if hasattr(cls, \"_attrs_module\"):\n            pass\n        hook = getattr(self, '_on_close', None)\n        hasattr(other, 'elsewhere')\n",
            ),
        ]);
        assert!(matches!(
            python.fate("pkg.client.BaseClient._attrs_module"),
            ObjectFate::Defined(_)
        ));
        assert!(matches!(
            python.fate("pkg.client.BaseClient._on_close"),
            ObjectFate::Defined(_)
        ));
        // A probe of another object names none of the class's members.
        assert_eq!(
            python.fate("pkg.client.BaseClient.elsewhere"),
            ObjectFate::Undefined
        );
    }

    #[test]
    fn a_lazily_loading_package_offers_what_its_stub_imports() {
        // `lazy_loader.attach_stub`: the package binds its names only in the
        // stub beside it; the module itself serves them by `__getattr__`.
        let mut python = tree(&[
            (
                "src/imgkit/util/__init__.py",
                "import lazy_loader as lazy\n__getattr__, __dir__, __all__ = lazy.attach_stub(__name__, __file__)\n",
            ),
            (
                "src/imgkit/util/__init__.pyi",
                "from .dtype import as_float\nfrom ._invert import invert\n",
            ),
            (
                "src/imgkit/util/dtype.py",
                "def as_float(image):\n    return image\n",
            ),
            (
                "src/imgkit/util/_invert.py",
                "def invert(image):\n    return image\n",
            ),
            (
                "src/imgkit/_speedups.pyi",
                "def blur(image: object) -> object: ...\n",
            ),
        ]);
        assert!(
            matches!(python.fate("imgkit.util.as_float"), ObjectFate::Defined(at) if at == "src/imgkit/util/dtype.py: as_float")
        );
        assert!(matches!(
            python.fate("imgkit.util.invert"),
            ObjectFate::Defined(_)
        ));
        // A compiled module known by its stub.
        assert!(matches!(
            python.fate("imgkit._speedups.blur"),
            ObjectFate::Defined(_)
        ));
        // A module that binds its own names is what Sphinx imports: a name
        // only its stub still declares is gone.
        let mut eager = tree(&[
            ("kit/__init__.py", "from ._make import make\n"),
            (
                "kit/__init__.pyi",
                "def make() -> None: ...\ndef renamed_away() -> None: ...\n",
            ),
            ("kit/_make.py", "def make():\n    pass\n"),
        ]);
        assert!(matches!(eager.fate("kit.make"), ObjectFate::Defined(_)));
        assert_eq!(eager.fate("kit.renamed_away"), ObjectFate::Undefined);
        // A name neither binds: the module's `__getattr__` may still serve it.
        assert_eq!(python.fate("imgkit.util.gone"), ObjectFate::Undefined);
        assert_eq!(
            python.served_at_run_time("imgkit.util.gone"),
            Some("src/imgkit/util/__init__.py")
        );
    }

    #[test]
    fn a_name_reexported_from_a_submodule_is_beyond_the_tree() {
        // `asyncpg.types` re-exports the geometry types of `asyncpg/pgproto`,
        // a git submodule the tree holds as a link only.
        let snapshot = crate::snapshot::memory::MemorySnapshot::new(&[
            ("asyncpg/__init__.py", "from .connection import connect\n"),
            ("asyncpg/connection.py", "def connect():\n    pass\n"),
            (
                "asyncpg/types.py",
                "from asyncpg.pgproto.types import Box, Circle\n",
            ),
        ])
        .with_submodule("asyncpg/pgproto");
        let mut python = PythonTree::new(Arc::new(snapshot));
        assert_eq!(python.fate("asyncpg.types.Box"), ObjectFate::Undefined);
        assert_eq!(
            python.beyond_tree("asyncpg.types.Box"),
            Some("asyncpg/pgproto")
        );
        // A name of a module the tree holds whole is not beyond it.
        assert_eq!(
            python.fate("asyncpg.connection.gone"),
            ObjectFate::Undefined
        );
        assert_eq!(python.beyond_tree("asyncpg.connection.gone"), None);
    }

    #[test]
    fn a_leading_dot_searches_every_module_for_a_name_ending_so() {
        let mut python = tree(&[
            ("cachekit/__init__.py", "from .region import make_region\n"),
            (
                "cachekit/region.py",
                "class CacheRegion:\n    def get(self):\n        pass\n\ndef make_region():\n    pass\n",
            ),
        ]);
        assert_eq!(
            python.fate(".CacheRegion"),
            ObjectFate::Defined("cachekit/region.py: CacheRegion".to_owned())
        );
        assert!(matches!(
            python.fate(".region.CacheRegion.get"),
            ObjectFate::Defined(_)
        ));
        assert_eq!(
            python.fate(".Region"),
            ObjectFate::Undefined,
            "a whole name, not a tail of one"
        );
        assert_eq!(python.fate(".Gone"), ObjectFate::Undefined);
        assert!(
            matches!(python.fate(".region"), ObjectFate::Defined(_)),
            "a module's own name"
        );
        assert_eq!(tree(&[]).fate(".Gone"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_search_that_reads_a_hidden_folders_module_ends() {
        // mongo-python-driver's `.evergreen/scripts/` holds modules whose
        // names, read from the root, begin with a dot: a search that came
        // back to its own name recursed until the stack ran out.
        let mut python = tree(&[
            ("pyproject.toml", "[project]\nname = \"runner\"\n"),
            ("runner.py", "def main():\n    pass\n"),
            (".evergreen/scripts/__init__.py", ""),
            (
                ".evergreen/scripts/setup_tests.py",
                "def run_tests():\n    pass\n",
            ),
            (".evergreen/run.py", "def run_tests():\n    pass\n"),
        ]);
        assert!(matches!(
            python.fate(".run_tests"),
            ObjectFate::Undefined | ObjectFate::NotOurs
        ));
        assert!(matches!(
            python.fate(".main"),
            ObjectFate::Defined(_) | ObjectFate::NotOurs
        ));
    }

    #[test]
    fn a_dotted_name_is_found_below_a_package_only_when_it_is_not_one() {
        let mut python = tree(&[
            ("uncertainties/__init__.py", "from .core import ufloat\n"),
            ("uncertainties/core.py", "def ufloat():\n    pass\n"),
            ("uncertainties/unumpy/__init__.py", ""),
            ("uncertainties/unumpy/ulinalg.py", "def inv():\n    pass\n"),
        ]);
        let (full, _) = python.under_a_package("unumpy.ulinalg.inv").unwrap();
        assert_eq!(full, "uncertainties.unumpy.ulinalg.inv");
        assert!(python.under_a_package("unumpy.ulinalg").is_some());
        assert_eq!(python.under_a_package("unumpy.linalg"), None);
        assert_eq!(python.under_a_package("ufloat"), None, "a lone name");
        assert_eq!(
            python.under_a_package("uncertainties.ufloat"),
            None,
            "already a package's name"
        );
    }

    #[test]
    fn the_attributes_a_class_docstring_lists_are_the_classs() {
        let module = "class Fitter:\n    \"\"\"A fitter.\n\n    Attributes\n    ----------\n    params_ : Series\n        The coefficients.\n    baseline_hazard_: DataFrame\n\n    Examples\n    --------\n    >>> x = 1\n    \"\"\"\n\n\nclass Client:\n    \"\"\"A client.\n\n    Attributes:\n        session (Session): the session.\n            More words.\n        retries: how often.\n\n    Note:\n        said.\n    \"\"\"\n";
        let symbols = ModuleSymbols::of(module);
        for name in [
            "Fitter.params_",
            "Fitter.baseline_hazard_",
            "Client.session",
            "Client.retries",
        ] {
            assert!(
                symbols.defined.contains(name),
                "{name}: {:?}",
                symbols.defined
            );
        }
        for name in [
            "Fitter.The",
            "Fitter.Examples",
            "Fitter.x",
            "Client.More",
            "Client.said",
        ] {
            assert!(!symbols.defined.contains(name), "{name}");
        }
    }

    #[test]
    fn the_members_a_class_docstring_describes_with_a_directive_are_the_classs() {
        let module = "class Widget:\n    \"\"\"A widget.\n\n    .. py:attribute:: autocomplete_function\n\n        The callback's name.\n\n    .. method:: render(context)\n    \"\"\"\n";
        let symbols = ModuleSymbols::of(module);
        for name in ["Widget.autocomplete_function", "Widget.render"] {
            assert!(
                symbols.defined.contains(name),
                "{name}: {:?}",
                symbols.defined
            );
        }
        assert!(!symbols.defined.contains("Widget.callback"));
    }

    #[test]
    fn a_member_of_a_value_a_call_made_is_not_proven_gone() {
        // pyface picks each widget class from the toolkit at import time.
        let mut python = tree(&[
            ("kit/__init__.py", ""),
            (
                "kit/widget.py",
                "from .toolkit import toolkit_object\n\nWidget = toolkit_object(\"widget:Widget\")\nLIMIT = 3\n",
            ),
            (
                "kit/toolkit.py",
                "toolkit = toolkit_object = find_toolkit(\"kit.toolkits\")\n",
            ),
        ]);
        assert_eq!(
            python.fate("kit.widget.Widget.create"),
            ObjectFate::Undefined
        );
        assert_eq!(
            python.member_of_call("kit.widget.Widget.create"),
            Some("kit/widget.py: Widget")
        );
        // A name the module never binds, or one bound to a literal, is no
        // member of a call's value.
        assert_eq!(
            python.fate("kit.widget.Gadget.create"),
            ObjectFate::Undefined
        );
        assert_eq!(python.member_of_call("kit.widget.Gadget.create"), None);
        assert_eq!(python.fate("kit.widget.LIMIT.real"), ObjectFate::Undefined);
        assert_eq!(python.member_of_call("kit.widget.LIMIT.real"), None);
        // Each name of a chained assignment is bound.
        assert!(matches!(
            python.fate("kit.toolkit.toolkit_object"),
            ObjectFate::Defined(_)
        ));
        assert!(matches!(
            python.fate("kit.toolkit.toolkit"),
            ObjectFate::Defined(_)
        ));
    }

    #[test]
    fn a_searched_name_is_answered_by_the_shallowest_definition_outside_the_tests() {
        let mut python = tree(&[
            ("kit/__init__.py", ""),
            (
                "kit/tests/test_panes.py",
                "Helper = pick(\"util:Helper\")\n",
            ),
            ("kit/ui/qt/util/helper.py", "class Helper:\n    pass\n"),
            ("kit/util/helper.py", "class Helper:\n    pass\n"),
        ]);
        assert_eq!(
            python.fate(".Helper"),
            ObjectFate::Defined("kit/util/helper.py: Helper".to_owned())
        );
    }

    #[test]
    fn a_getattr_that_spells_out_its_names_serves_only_those() {
        // attrs' `__getattr__` answers its metadata names and raises for the
        // rest: a renamed function is not one it may serve.
        let mut python = tree(&[
            (
                "kit/__init__.py",
                "from ._make import make\n\ndef __getattr__(name):\n    if name in (\"__version__\", \"__url__\"):\n        return _meta(name.strip('_'))\n    raise AttributeError(f\"no {name}\")\n",
            ),
            ("kit/_make.py", "def make():\n    pass\n"),
        ]);
        assert_eq!(python.fate("kit.renamed_away"), ObjectFate::Undefined);
        assert_eq!(python.served_at_run_time("kit.renamed_away"), None);
        // (`name.strip(...)` hands on no bare `name`: the literals decide.)
        assert_eq!(python.fate("kit.__url__"), ObjectFate::Undefined);
        assert_eq!(
            python.served_at_run_time("kit.__url__"),
            Some("kit/__init__.py")
        );
    }

    #[test]
    fn a_package_that_writes_sys_modules_may_serve_any_name_and_one_that_reads_it_does_not() {
        // elasticsearch-dsl's shim: the package puts another distribution's
        // modules in `sys.modules` under its own name at import time.
        let mut python = tree(&[
            (
                "shim/__init__.py",
                "import sys\nfrom other import dsl\n\nfor mod in list(sys.modules):\n    sys.modules[mod.replace(\"other.dsl\", \"shim\")] = sys.modules[mod]\n",
            ),
            (
                "kit/__init__.py",
                "import sys\n\nif sys.modules.get(\"kit.fast\") is None:\n    pass\n",
            ),
        ]);
        assert_eq!(python.fate("shim.Search"), ObjectFate::Undefined);
        assert_eq!(
            python.served_at_run_time("shim.Search"),
            Some("shim/__init__.py")
        );
        assert!(python.installs_modules("shim/__init__.py"));
        assert_eq!(python.fate("kit.Search"), ObjectFate::Undefined);
        assert_eq!(python.served_at_run_time("kit.Search"), None);
        assert_eq!(
            python.proven_absent("kit.Search"),
            Some("kit/__init__.py".to_owned())
        );
    }

    #[test]
    fn a_typed_getattr_that_hands_its_name_on_serves_any_name() {
        // cyclopts' lazy imports: `def __getattr__(name: str)` passes its
        // parameter to `getattr(module, name)`.
        let mut python = tree(&[
            (
                "kit/__init__.py",
                "_LAZY = {\"edit\": \"kit._edit\"}\n\ndef __getattr__(name: str):\n    if name in _LAZY:\n        import importlib\n        module = importlib.import_module(_LAZY[name])\n        return getattr(module, name)\n    raise AttributeError(name)\n",
            ),
            ("kit/_edit.py", "def edit():\n    pass\n"),
        ]);
        assert_eq!(python.fate("kit.edit"), ObjectFate::Undefined);
        assert_eq!(
            python.served_at_run_time("kit.edit"),
            Some("kit/__init__.py")
        );
        // beets' deprecation shim hands the name on with a table of the old
        // names it serves: those alone.
        let mut python = tree(&[(
            "kit/__init__.py",
            "def __getattr__(name: str):\n    return deprecate_imports(__name__, {\"art\": \"kit._utils\"}, name)\n",
        )]);
        assert_eq!(python.fate("kit.Plugin"), ObjectFate::Undefined);
        assert_eq!(python.served_at_run_time("kit.Plugin"), None);
        assert_eq!(python.fate("kit.art"), ObjectFate::Undefined);
        assert_eq!(
            python.served_at_run_time("kit.art"),
            Some("kit/__init__.py")
        );
    }

    #[test]
    fn a_lookup_that_fans_out_past_its_budget_is_left_undecided() {
        // Forty modules that each star-import all the others (qutip's
        // packages import each other so): a name none defines is looked for
        // within the budget, then left undecided rather than proven gone.
        let modules: Vec<(String, String)> = (0..40)
            .map(|i| {
                let imports: String = (0..40)
                    .filter(|j| *j != i)
                    .map(|j| format!("from .m{j} import *\n"))
                    .collect();
                (
                    format!("kit/m{i}.py"),
                    format!("{imports}def f{i}():\n    pass\n"),
                )
            })
            .chain(std::iter::once((
                "kit/__init__.py".to_owned(),
                "from .m0 import *\n".to_owned(),
            )))
            .collect();
        let files: Vec<(&str, &str)> = modules
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut python = tree(&files);
        assert!(matches!(python.fate("kit.f39"), ObjectFate::Defined(_)));
        assert_eq!(python.fate("kit.gone"), ObjectFate::Undefined);
        assert!(python.given_up("kit.gone"));
        assert!(!python.given_up("kit.f39"));
    }

    #[test]
    fn a_name_no_getattr_can_serve_is_not_said_to_be_served() {
        let mut python = tree(&[
            ("pkg/__init__.py", "from .core import run\n"),
            ("pkg/core.py", "def run():\n    pass\n"),
        ]);
        assert_eq!(python.fate("pkg.gone"), ObjectFate::Undefined);
        assert_eq!(python.served_at_run_time("pkg.gone"), None);
        assert_eq!(python.fate("pkg.core.gone"), ObjectFate::Undefined);
        assert_eq!(python.served_at_run_time("pkg.core.gone"), None);
    }

    #[test]
    fn a_namespace_package_is_one_of_the_repositorys_packages() {
        // PEP 420: `src/zope/` has no `__init__.py`; `zope.interface` is a
        // package inside it, and its names are this repository's.
        let mut python = tree(&[
            (
                "src/zope/interface/__init__.py",
                "from .interface import Interface
",
            ),
            (
                "src/zope/interface/interface.py",
                "class Interface:
    pass
",
            ),
        ]);
        assert!(
            matches!(python.fate("zope.interface.Interface"), ObjectFate::Defined(at) if at.starts_with("src/zope/interface/interface.py"))
        );
        assert_eq!(python.fate("zope.interface.Gone"), ObjectFate::Undefined);
        assert_eq!(python.fate("zope.other.Thing"), ObjectFate::Undefined);
        assert_eq!(python.fate("twisted.Thing"), ObjectFate::NotOurs);
    }

    #[test]
    fn a_member_not_found_may_be_another_projects_base_classs() {
        let mut python = tree(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/request.py",
                "from webob import BaseRequest\nclass Request(BaseRequest):\n    def route_url(self):\n        pass\n",
            ),
        ]);
        assert_eq!(
            python.fate("pkg.request.Request.json_body"),
            ObjectFate::Undefined
        );
        assert!(
            python
                .inheritable("pkg.request.Request.json_body")
                .is_some_and(|base| base.contains("webob.BaseRequest")),
            "{:?}",
            python.inheritable("pkg.request.Request.json_body")
        );
        assert!(matches!(
            python.fate("pkg.request.Request.route_url"),
            ObjectFate::Defined(_)
        ));
    }

    #[test]
    fn a_submodule_under_a_package_that_sets_its_path_is_not_proven_gone() {
        let mut python = tree(&[
            ("tool/__init__.py", ""),
            (
                "tool/plugins/__init__.py",
                "from tool.framework import constants\n__path__ = constants.PLUGINS_PATH\n",
            ),
            ("tool/framework/__init__.py", ""),
            ("tool/framework/plugins/scan.py", "class Scan:\n    pass\n"),
            ("tool/layers/__init__.py", ""),
        ]);
        assert_eq!(python.fate("tool.plugins.scan.Scan"), ObjectFate::Undefined);
        assert_eq!(
            python.under_extended_path("tool.plugins.scan.Scan"),
            Some("tool/plugins/__init__.py")
        );
        // A package that keeps its own `__path__` proves its absence.
        assert_eq!(python.fate("tool.layers.gone.Gone"), ObjectFate::Undefined);
        assert_eq!(python.under_extended_path("tool.layers.gone.Gone"), None);
    }

    #[test]
    fn a_compiled_modules_names_are_beyond_a_static_reading() {
        let mut python = tree(&[
            ("src/pkg/__init__.py", ""),
            ("src/pkg/fast.pyx", "cdef class Channel:\n    pass\n"),
        ]);
        assert!(matches!(
            python.fate("pkg.fast.Channel"),
            ObjectFate::Undefined
        ));
        assert_eq!(
            python.beyond_tree("pkg.fast.Channel"),
            Some("src/pkg/fast.pyx")
        );
        assert!(matches!(
            python.fate("pkg.slow.Channel"),
            ObjectFate::Undefined
        ));
        assert_eq!(python.beyond_tree("pkg.slow.Channel"), None);
        // A C extension's names, bound by the package from it.
        let mut python = tree(&[
            ("src/spec/__init__.py", "from ._core import Struct\n"),
            ("src/spec/_core.c", "/* the extension */\n"),
        ]);
        assert!(matches!(python.fate("spec.Struct"), ObjectFate::Undefined));
        assert_eq!(python.beyond_tree("spec.Struct"), Some("src/spec/_core.c"));
    }

    #[test]
    fn a_name_a_static_module_does_not_bind_is_proven_absent() {
        let mut python = tree(&[
            ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
            ("src/pkg/__init__.py", ""),
            ("src/pkg/views/__init__.py", "from .app import AppList\n"),
            ("src/pkg/views/base.py", "class Base:\n    pass\n"),
            ("src/pkg/views/app.py", "class AppList:\n    pass\n"),
            ("src/pkg/views/open.py", "from .app import *\n"),
            (
                "src/pkg/views/made.py",
                "for n in ('A', 'B'):\n    globals()[n] = n\n",
            ),
        ]);
        for name in [
            "pkg.views.base.AppList",
            "pkg.views.open.Gone",
            "pkg.views.made.A",
        ] {
            assert!(matches!(python.fate(name), ObjectFate::Undefined), "{name}");
        }
        assert_eq!(
            python.proven_absent("pkg.views.base.AppList").as_deref(),
            Some("src/pkg/views/base.py")
        );
        // A star import or a write to its own namespace may bind it unseen;
        // a member of a class it binds is not its to prove.
        assert_eq!(python.proven_absent("pkg.views.open.Gone"), None);
        assert_eq!(python.proven_absent("pkg.views.made.A"), None);
        assert_eq!(python.proven_absent("pkg.views.base.Base.nothing"), None);
    }

    #[test]
    fn a_star_import_of_another_projects_module_may_export_any_name() {
        let mut python = tree(&[
            ("pyproject.toml", "[project]\nname = \"viz\"\n"),
            (
                "src/viz/__init__.py",
                "try:\n    from viz_stats import *\nexcept ModuleNotFoundError:\n    raise\nfrom os.path import *\n",
            ),
            (
                "src/viz/plots/__init__.py",
                "from os.path import *\nfrom .bar import *\n",
            ),
            ("src/viz/plots/bar.py", "def bars():\n    pass\n"),
        ]);
        assert_eq!(python.fate("viz.compare"), ObjectFate::Undefined);
        assert_eq!(
            python.star_from_elsewhere("viz.compare"),
            Some(("src/viz/__init__.py".to_owned(), "viz_stats".to_owned()))
        );
        // Python's own modules and the project's own export none unseen.
        assert_eq!(python.star_from_elsewhere("viz.plots.gone"), None);
    }

    #[test]
    fn a_package_of_star_imports_is_walked_once_per_name() {
        // Twelve modules that each re-export all the others. A missing name
        // that fell back, at every module, to the package with a longer name
        // (`m3.Missing`, `m7.m3.Missing`, …) never finished.
        let count = 12;
        let star: String = (0..count)
            .map(|k| format!("from .m{k} import *\n"))
            .collect();
        let mut files: Vec<(String, String)> = (0..count)
            .map(|k| (format!("src/pkg/m{k}.py"), format!("{star}x{k} = {k}\n")))
            .collect();
        files.push(("src/pkg/__init__.py".to_owned(), star.clone()));
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut python = tree(&files);
        assert_eq!(python.fate("pkg.Missing"), ObjectFate::Undefined);
        assert!(
            matches!(python.fate("pkg.x7"), ObjectFate::Defined(at) if at.starts_with("src/pkg/m7.py"))
        );
        // Both answers are kept for the tree.
        assert_eq!(python.fates.len(), 2);
    }

    #[test]
    fn a_deeply_nested_module_is_read_without_exhausting_the_stack() {
        let mut source = String::new();
        for depth in 0..5_000 {
            source.push_str(&" ".repeat(depth));
            source.push_str("if x:\n");
        }
        source.push_str(&" ".repeat(5_000));
        source.push_str("y = ((((((((((a))))))))))\n");
        let _ = ModuleSymbols::of(&source);
    }

    #[test]
    fn a_class_made_by_a_call_with_types_arguments_has_its_bases_members() {
        let mut tree = tree(&[(
            "pkg/__init__.py",
            "class _Node:\n    def serialize(self):\n        pass\n\nNode = _Meta('Node', (_Node,), {'__doc__': _Node.__doc__})\nOther = make(_Node)\nBar = type('Bar', tuple(extensions + [_Node]), dict())\n",
        )]);
        // Bases built of a list and a run-time one, wrapped in `tuple(…)`.
        assert!(matches!(
            tree.fate("pkg.Bar.serialize"),
            ObjectFate::Defined(_)
        ));
        assert!(matches!(
            tree.fate("pkg.Node.serialize"),
            ObjectFate::Defined(_)
        ));
        assert!(matches!(tree.fate("pkg.Node.gone"), ObjectFate::Undefined));
        // Any other call makes no class the reading can see into.
        assert!(matches!(
            tree.fate("pkg.Other.serialize"),
            ObjectFate::Undefined
        ));
    }

    #[test]
    fn a_module_defines_its_classes_functions_assignments_and_imports() {
        let source = "from .app import Flask as Flask\nfrom . import json\nimport os.path\nVERSION = '1'\n\n@decorator\ndef run():\n    pass\n\nclass Client(Base):\n    timeout: int = 3\n    def send(self):\n        local = 1\n        if local:\n            self.sent = True\n\nif True:\n    def maybe():\n        pass\n";
        let symbols = ModuleSymbols::of(source);
        for name in [
            "VERSION",
            "run",
            "Client",
            "Client.send",
            "Client.timeout",
            "maybe",
        ] {
            assert!(symbols.defined.contains(name), "{name}: {symbols:?}");
        }
        assert!(!symbols.defined.contains("local"));
        assert_eq!(
            symbols.imported.get("Flask"),
            Some(&("app".to_owned(), 1, Some("Flask".to_owned())))
        );
        assert!(symbols.imported.contains_key("json"));
        assert!(symbols.imported.contains_key("os"));
    }
}
