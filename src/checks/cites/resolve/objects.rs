//! Stage 4, the citation family's Python object resolver: a Sphinx role's
//! object (`:func:`pkg.mod.run``) against the repository's packages at the
//! frame, read statically; what it cannot find asks the registry
//! (`intersphinx`, `unresolved-object`), and the history decides the rest
//! (`evidence/labels.rs`).

use std::sync::Arc;

use crate::checks::cites::context::{Context, locked};
use crate::checks::cites::exemptions::{
    Exemption, changelog_removal, example_code, intersphinx, unresolved_object,
};
use crate::checks::cites::labels::sphinx_folder;
use crate::checks::cites::model::{AskedObject, CiteStatus, ObjectRole};
use crate::checks::cites::pyobjects::{ObjectFate, PythonTree};

/// The frame's packages, read once a run: searched by a name's end only in
/// the audited tree.
fn python_tree<'t>(
    trees: &'t mut std::collections::BTreeMap<String, PythonTree>,
    context: &Context<'_>,
) -> &'t mut PythonTree {
    let frame = context.frame;
    trees.entry(frame.label.clone()).or_insert_with(|| {
        let snapshot = Arc::clone(&frame.snapshot);
        if frame.label == context.reads.audited {
            PythonTree::new(snapshot)
        } else {
            PythonTree::without_search(snapshot)
        }
    })
}

/// Where the repository's packages define an object whose full name is or
/// ends with `name` (`Socket.recv_into`), as Sphinx's Python domain finds
/// the target of a MyST `[](#Socket.recv_into)` cross-reference.
/// A full name is first read as Python imports it, through the package's
/// re-exports (`libpysal.weights.W`, star-imported from `weights.py`).
pub(super) fn object_named(context: &Context<'_>, name: &str) -> Option<String> {
    let mut trees = locked(&context.reads.python);
    let tree = python_tree(&mut trees, context);
    [name.to_owned(), format!(".{name}")]
        .iter()
        .find_map(|asked| match tree.fate(asked) {
            ObjectFate::Defined(at) => Some(at),
            _ => None,
        })
}

/// A Python role's object: found by the static reading, another project's,
/// or set aside for the history to decide.
pub(super) fn resolve_object(context: &Context<'_>, role: &str, names: &[String]) -> CiteStatus {
    let frame = context.frame;
    if let Some(status) =
        super::labels::built_by_nothing(context, names.last().map_or("", String::as_str))
    {
        return status;
    }
    let mut trees = locked(&context.reads.python);
    let tree = python_tree(&mut trees, context);
    let written = names.last().map(String::as_str).unwrap_or_default();
    let project = sphinx_folder(context.record, frame.snapshot.as_ref())
        .map(|folder| super::labels::project_labels(context, folder));
    // A module prefix `conf.py` maps (`_sql` → `sqlalchemy.sql.expression`)
    // is how the project's build rewrites the name: that name first, then
    // the names as written.
    let mut expanded: Vec<String> = project
        .as_ref()
        .map(|p| {
            names
                .iter()
                .filter_map(|n| p.prefixed(n, |module| tree.is_module(module)))
                .collect()
        })
        .unwrap_or_default();
    expanded.extend(names.iter().cloned());
    let names = expanded.as_slice();
    let mut ours = false;
    // A name one of the repository's modules imports from another project.
    let mut imported = None;
    for name in names {
        match tree.fate(name) {
            ObjectFate::Defined(at) => return CiteStatus::Ok { resolved: at },
            ObjectFate::Undefined => ours = true,
            ObjectFate::Foreign(from) => {
                imported.get_or_insert(from);
            }
            ObjectFate::NotOurs => {}
        }
    }
    // A dotted name one package holds below its own (`unumpy.ulinalg` on a
    // page that imports `from uncertainties import unumpy`): the object is
    // there, named as the page's import reads it. Without that import the
    // name is the package's old one, moved since.
    if !ours
        && imported.is_none()
        && let Some((full, at)) = tree.under_a_package(written)
        && imports_its_first_part(context.text, &full, written)
    {
        return CiteStatus::Ok {
            resolved: format!("{at} (read under its package, as `{full}`)"),
        };
    }
    // Written under `.. module:: beets.library` as `dbcore.Database`, where
    // the module binds no `dbcore`: a reader of the package reads the name
    // from the package up (`beets.dbcore.Database`), as the project's own
    // modules name a sibling. The object is there; the text is not wrong.
    if let Some(module) = names
        .first()
        .and_then(|n| n.strip_suffix(written))
        .and_then(|n| n.strip_suffix('.'))
        .filter(|_| names.len() > 1 && !tree.owns(written))
    {
        let mut parts: Vec<&str> = module.split('.').collect();
        while parts.len() > 1 {
            parts.pop();
            let candidate = format!("{}.{written}", parts.join("."));
            if let ObjectFate::Defined(at) = tree.fate(&candidate) {
                return CiteStatus::Ok {
                    resolved: format!("{at} (read from the package up, as `{candidate}`)"),
                };
            }
        }
    }
    // Sphinx resolves a role to an object a page describes, whatever the code
    // says; and an autoclass with `:inherited-members:` documents members of
    // bases another project defines, which this tree cannot see.
    if let Some(project) = &project {
        if let Some((name, page)) = names
            .iter()
            .find_map(|n| project.describes(n).map(|page| (n, page)))
        {
            return CiteStatus::Ok {
                resolved: format!("{page}: {name} (described)"),
            };
        }
        // An autodoc directive that names the object itself (`.. autofunction::
        // unwrap` under `.. module:: funcy`), where a module of the project
        // imports it from another project and so binds it: autodoc imports
        // `funcy.unwrap` and documents it under that name, a target the role
        // resolves to, whichever project's code it is.
        if let Some(from) = &imported
            && let Some((name, page)) = names
                .iter()
                .find_map(|n| project.autodocs(n).map(|page| (n, page)))
        {
            return CiteStatus::Ok {
                resolved: format!("{page}: {name} (autodoc documents it; {from})"),
            };
        }
        // An autodoc directive that names the member itself (`.. automethod::
        // __contains__` in `.. autoclass:: pkg.SortedDict`) documents it
        // under the class's name, wherever the class gets it: from Python's
        // `dict`, which has it, it is there.
        // (Only a base whose members are known, and that has it: autodoc
        // cannot import a member another project's base may lack.)
        if let Some((name, page, base)) = names.iter().find_map(|n| {
            let page = project.autodocs(n)?;
            Some((n, page, tree.lent_by_python(n)?))
        }) {
            return CiteStatus::Ok {
                resolved: format!("{page}: {name} (autodoc documents it; inherited, {base})"),
            };
        }
        // Bound by an import from another project that `conf.py` maps
        // through intersphinx: the name serves, documented there, whatever
        // this repository's history defined (a class moved to a
        // dependency and re-exported).
        if let Some(from) = &imported
            && let Some(mapped) = from
                .split_once("imported from `")
                .and_then(|(_, rest)| rest.split('`').next())
                .and_then(|dotted| project.maps_project_named(dotted))
            && let Some(status) = context.exemptions.ask(Exemption::Intersphinx, || {
                intersphinx::reexported(written, from, mapped)
            })
        {
            return status;
        }
        let inherited = names.iter().find_map(|n| {
            let (class, _) = n.rsplit_once('.')?;
            let page = project.documents_inherited(class)?;
            Some((class, page, tree.inheritable(n)?))
        });
        if let Some((class, page, base)) = inherited
            && let Some(status) = context.exemptions.ask(Exemption::Intersphinx, || {
                intersphinx::inherited(class, page, base)
            })
        {
            return status;
        }
    }
    // A name the page's own code defines (`def index_of(` below "by defining
    // an `index_of` function") is the example's, whatever the packages had.
    if !tree.owns(written)
        && let Some(status) = context.exemptions.ask(Exemption::ExampleCode, || {
            example_code::fires(context.text, written)
        })
    {
        return status;
    }
    // Written unqualified under a `.. module::` (`str`, `count`): the current
    // module's name first, as Sphinx searches, else another project's.
    let guessed = names.len() > 1 && !tree.owns(written);
    let exemptions = context.exemptions;
    let inherits = names
        .iter()
        .find_map(|n| tree.inheritable(n).map(str::to_owned));
    let asked = |package_gone: bool| AskedObject {
        names: names.to_vec(),
        role: ObjectRole::of(role),
        // A package that imports the name is there: it went elsewhere.
        package_gone: package_gone && imported.is_none(),
        imported_from: imported.clone(),
        inherits: inherits.clone(),
    };
    // Written by its name alone, with no current module to qualify it
    // (`:class:`CvxpyQP`` on a page that never sets one), or by its class
    // and member (`:meth:`~Terminal.does_sixel``), naming an object one of
    // the packages defines: the prose names the project's own, which is
    // there, though Sphinx links only a qualified name. Another project's
    // is a name the packages define nowhere.
    let by_class = written
        .split_once('.')
        .is_some_and(|(class, _)| class.chars().next().is_some_and(char::is_uppercase));
    if !ours
        && imported.is_none()
        && names.len() == 1
        && (!written.contains('.') || by_class)
        && let ObjectFate::Defined(at) = tree.fate(&format!(".{written}"))
    {
        return CiteStatus::Ok {
            resolved: format!("{at} (by its name alone)"),
        };
    }
    // Under none of today's packages: another project's, unless the history
    // shows a package of this project's own line that defined it and went
    // whole (`evidence/labels.rs`). A name under a standard library module
    // (`distutils`) is Python's through intersphinx whatever the history had.
    // A package `conf.py` maps a project of its own name for (`'cupy'`) left
    // for that project (split out of the repository): Sphinx links the name
    // to its inventory, whatever this repository once held.
    // Asked of the name as written: the current module's guess at it
    // (`chainer.cupy.ndarray`) is no claim that the package is ours.
    // One edit from a class of the packages that has the rest of the name
    // (`Ede.leafset_bitmask`): a typo of the project's own, which Sphinx
    // leaves unlinked, not another project's.
    if imported.is_none()
        && !tree.owns(written)
        && names
            .iter()
            .all(|n| !matches!(tree.fate(n), ObjectFate::Defined(_)))
        && let Some((meant, at)) = tree.near_miss(written)
    {
        return CiteStatus::Stale {
            why: format!(
                "`{}` is under none of this repository's packages, and `{meant}` is defined at {at}: mistyped?",
                crate::escape::untrusted(written, crate::escape::VALUE_CAP)
            ),
            suggestion: Some(meant),
            guessed: true,
        };
    }
    let mapped = project
        .as_ref()
        .and_then(|p| p.maps_project_named(written).map(str::to_owned))
        .filter(|_| matches!(tree.fate(written), ObjectFate::NotOurs));
    if let Some(status) = exemptions.ask(Exemption::Intersphinx, || {
        intersphinx::object(ours && mapped.is_none(), written, role, mapped.as_deref())
    }) {
        if mapped.is_none() && !names.iter().any(|n| intersphinx::is_standard_library(n)) {
            *context.found.objects.borrow_mut() = Some(asked(true));
        }
        return status;
    }
    if let Some(status) = exemptions.ask(Exemption::Intersphinx, || {
        intersphinx::standard_library(guessed, written, role)
    }) {
        return status;
    }
    // A module on the name's path serves names at run time (a module
    // `__getattr__`), or the path leads into a submodule the tree holds
    // without its files: the name may be there, whatever the history had, so
    // it is not held to the history.
    let beyond = names.iter().find_map(|n| {
        tree.beyond_tree(n)
            .map(|folder| unresolved_object::beyond_tree(written, folder, &frame.label))
            .or_else(|| {
                tree.under_extended_path(n)
                    .map(|init| unresolved_object::under_extended_path(written, init, &frame.label))
            })
            .or_else(|| {
                let module = tree.served_at_run_time(n)?.to_owned();
                let installs = tree.installs_modules(&module);
                Some(unresolved_object::served_at_run_time(
                    written,
                    &module,
                    installs,
                    &frame.label,
                ))
            })
            .or_else(|| {
                tree.from_built_module(n).map(|import| {
                    unresolved_object::from_built_module(written, import, &frame.label)
                })
            })
            .or_else(|| {
                tree.member_of_call(n)
                    .map(|value| unresolved_object::member_of_call(written, value, &frame.label))
            })
            .or_else(|| {
                tree.given_up(n)
                    .then(|| unresolved_object::given_up(written, &frame.label))
            })
            .or_else(|| {
                let (file, from) = tree.star_from_elsewhere(n)?;
                Some(unresolved_object::star_from_elsewhere(
                    written,
                    &file,
                    &from,
                    &frame.label,
                ))
            })
    });
    match beyond {
        Some(why) => {
            if let Some(status) = exemptions.ask(Exemption::UnresolvedObject, || Some(why)) {
                return status;
            }
        }
        None => *context.found.objects.borrow_mut() = Some(asked(false)),
    }
    // Proven absent where the role looks, while the packages define an
    // object of that name elsewhere: the role names a real object at a path
    // that has none (a class moved to another module), which a reader's
    // link misses. A name defined nowhere is a promise or a proposal as
    // often, and is left to the exemption and the history.
    // A name written from one of the packages down is proven absent as
    // written: the current module's guess at it (`pkg.video.models.pkg.…`)
    // names a file the reader never meant.
    let proven_at = if guessed {
        None
    } else if tree.owns(written) {
        tree.proven_absent(written)
    } else {
        names.iter().find_map(|n| tree.proven_absent(n))
    };
    // Where the packages define it: by the most of its written tail first
    // (`HttpRequestHandler.response_from_exception`, the package's class,
    // before an example's subclass that has a method of that name), then by
    // its last name alone.
    let elsewhere = proven_at.as_ref().and_then(|_| {
        let parts: Vec<&str> = written.split('.').collect();
        (1..parts.len().min(4)).rev().find_map(|taken| {
            let tail = parts[parts.len() - taken..].join(".");
            match tree.fate(&format!(".{tail}")) {
                ObjectFate::Defined(at) => Some(at),
                _ => None,
            }
        })
    });
    // An upgrade guide names an object where it was before it moved, on
    // purpose: left to the history, as a name defined nowhere is.
    let proven = proven_at
        .filter(|_| elsewhere.is_some())
        .filter(|_| !crate::checks::cites::releases::upgrade_guide(context.record, context.text));
    // A private object (`_Base`), which no module exports, named by its
    // package as the packages' own code names it (a docstring's `:param
    // ~pkg.mlls._Base base:`): the prose and the tree agree on what to
    // call it. Left to the history, as a name defined nowhere is: stale
    // when it resolved as written and moved since. (A public name a
    // comment also names is held to its module: comments go stale too.)
    let private = written
        .rsplit('.')
        .next()
        .is_some_and(|last| last.starts_with('_') && !last.starts_with("__"));
    if proven.is_some()
        && private
        && let Some(status) = exemptions.ask(Exemption::UnresolvedObject, || {
            let at = tree.code_names(written)?;
            Some(unresolved_object::named_so_in_code(
                written,
                &at,
                &frame.label,
            ))
        })
    {
        return status;
    }
    // The entry or sentence around it says it was removed: meant to be gone.
    if let Some(status) = exemptions.ask(Exemption::ChangelogRemoval, || {
        changelog_removal::object(context)
    }) {
        return status;
    }
    exemptions
        .ask(Exemption::UnresolvedObject, || {
            unresolved_object::fires(names, guessed, proven.as_deref(), role, &frame.label)
        })
        .unwrap_or_else(|| {
            CiteStatus::stale(match &proven {
                Some(file) => format!(
                    "no module of this repository's packages defines `{written}` at {}: {file} binds no such name, and nothing in it binds names at run time (one of that name is at {})",
                    frame.label,
                    elsewhere.unwrap_or_default()
                ),
                None => format!(
                    "no module of this repository's packages defines `{written}` at {}",
                    frame.label
                ),
            })
        })
}

/// Whether the page imports the first part of `written` from the package
/// that holds it in `full` (`from uncertainties import unumpy` for
/// `unumpy.ulinalg` in `uncertainties.unumpy.ulinalg`).
fn imports_its_first_part(text: &str, full: &str, written: &str) -> bool {
    let Some(parent) = full.strip_suffix(written).and_then(|p| p.strip_suffix('.')) else {
        return false;
    };
    let first = written.split('.').next().unwrap_or(written);
    let from = format!("from {parent} import ");
    let dotted = format!("import {parent}.{first}");
    text.lines().any(|line| {
        line.contains(&dotted)
            || line.split_once(&from).is_some_and(|(_, names)| {
                names
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|name| name == first)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::imports_its_first_part;

    #[test]
    fn a_name_is_read_under_its_package_only_where_the_page_imports_it_so() {
        let full = "uncertainties.unumpy.ulinalg";
        assert!(imports_its_first_part(
            ">>> from uncertainties import ufloat, unumpy\n",
            full,
            "unumpy.ulinalg"
        ));
        assert!(imports_its_first_part(
            "import uncertainties.unumpy as unumpy\n",
            full,
            "unumpy.ulinalg"
        ));
        assert!(!imports_its_first_part(
            "from uncertainties import unumpyx\n",
            full,
            "unumpy.ulinalg"
        ));
        assert!(!imports_its_first_part(
            "The :mod:`unumpy.ulinalg` module.\n",
            full,
            "unumpy.ulinalg"
        ));
    }
}
