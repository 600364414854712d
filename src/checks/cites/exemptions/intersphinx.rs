//! Exemption `intersphinx`, asked by the Sphinx label and Python object
//! resolvers: a label whose prefix is no document of this project, or an
//! object under none of the repository's packages, is another project's,
//! reached through intersphinx. The project's own shape: the history
//! overrules it only for a package of this project's own line that went
//! whole (`evidence/labels.rs`).

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A cross-reference to another project's label or Python object, through intersphinx (`:ref:`python:tut-intro``, a prefix that is no document of this project; `:class:`dict``, `:func:`os.path.join``, a name under none of the repository's packages; `:mod:`ssl`` written under a `.. module::` that has no such name, whose first part is a module of Python's standard library, as `intersphinx.stdlib` lists them; a member the static reading does not find of a class whose base another project defines, when a page documents the class with `:inherited-members:`; a `:doc:` role no page of the project has, where `conf.py`'s `intersphinx_disabled_reftypes` leaves `std:doc` on): that project's, not this repository's. The history overrules it for one case only: a package whose module defined the name, as the role names it (for `:mod:`, a module below the package's `__init__.py`: a package's own name is how its history is told), at the commit that wrote the cite on this project's own first-parent line, and which went whole since (deleted, or moved out of the root, `src/` and `lib/`), unless `conf.py` maps through intersphinx a project of the package's own name (`'cupy'` in a repository CuPy was split out of): the package went to that project, whose inventory Sphinx links the name to; a name under a standard library module (`distutils`) stays Python's. Never a dotted name whose first part is one edit from a class of the repository's packages that has the rest (`Ede.leafset_bitmask` where `Edge.leafset_bitmask` is defined, class names of three letters or more, one such class): a typo of the project's own, which Sphinx leaves unlinked, stale with the name meant.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a Python role's object is another project's, if it is: no name it
/// may mean is under one of the repository's packages (`ours` false).
/// With `mapped`, the project `conf.py` maps through intersphinx under the
/// name's first part: its package went there, whatever the history had.
pub(in crate::checks::cites) fn object(
    ours: bool,
    written: &str,
    role: &str,
    mapped: Option<&str>,
) -> Option<String> {
    (!ours).then(|| match mapped {
        Some(project) => format!(
            "`{written}` is under none of this repository's Python packages, and `conf.py` maps a project of its package's name (`{project}`) through intersphinx: that project's {role}, whatever this repository once held"
        ),
        None => format!(
            "`{written}` is under none of this repository's Python packages: another project's {role}"
        ),
    })
}

/// Why a name the packages bind by importing it from another project is
/// that project's to document, if `conf.py` maps the project through
/// intersphinx (`gufe`, for openfe's `LigandNetwork` imported from
/// `gufe.LigandNetwork`): the implementation moved there and the name
/// still serves, linked to that project's inventory.
pub(in crate::checks::cites) fn reexported(
    written: &str,
    imported: &str,
    project: &str,
) -> Option<String> {
    Some(format!(
        "`{written}` is bound here by an import from another project ({imported}), which `conf.py` maps through intersphinx (`{project}`): that project documents it"
    ))
}

/// The standard library's top-level modules, as data.
const STANDARD_LIBRARY: &str = include_str!("intersphinx.stdlib");

/// Whether `name`'s first part is a module of Python's standard library.
pub(in crate::checks::cites) fn is_standard_library(name: &str) -> bool {
    let first = name.split('.').next().unwrap_or(name);
    super::word_list(STANDARD_LIBRARY).any(|m| m == first)
}

/// Why a name written under a `.. module::` (`:mod:`ssl`` under
/// `.. module:: trio`) is the standard library's, if it is: the current
/// module has no such name (`guessed`), and its first part is a standard
/// library module. Sphinx tries `trio.ssl` first, then `ssl`, which
/// intersphinx finds in Python's inventory.
pub(in crate::checks::cites) fn standard_library(
    guessed: bool,
    written: &str,
    role: &str,
) -> Option<String> {
    let first = written.split('.').next().unwrap_or(written);
    (guessed && is_standard_library(written)).then(|| {
        format!(
            "`{written}` is under `{first}`, a module of Python's standard library, and the current module has no such name: the standard library's {role}, through intersphinx"
        )
    })
}

/// Why a member of one of the repository's classes that the static reading
/// does not find is another project's: the class has a base another project
/// defines (`base`, as the reading found it), and a page documents the
/// class's inherited members (`.. autoclass:: Request` with
/// `:inherited-members:`), so Sphinx describes what that base defines.
pub(in crate::checks::cites) fn inherited(class: &str, page: &str, base: &str) -> Option<String> {
    Some(format!(
        "`{class}` inherits from a class of another project ({base}), and {page} documents its inherited members: that project's member, through `:inherited-members:`"
    ))
}

/// Why a `:doc:` no page of the project has is another project's: `conf.py`
/// lets intersphinx resolve documents (`intersphinx_disabled_reftypes`
/// without `std:doc`), so Sphinx looks for it in the other projects'
/// inventories (`library/re` is Python's).
pub(in crate::checks::cites) fn document(target: &str) -> String {
    let name = target.strip_suffix(".html").unwrap_or(target);
    let name = name.strip_prefix("./").unwrap_or(name);
    format!(
        "no page of this project is `{name}`, and `conf.py` lets intersphinx resolve a `:doc:` (`intersphinx_disabled_reftypes` leaves `std:doc` on): another project's document"
    )
}

/// Why a `:ref:` label is another project's, if it is: its prefix is no
/// document of this project (`other_project`, as the project's labels say).
pub(in crate::checks::cites) fn label(other_project: bool, label: &str) -> Option<String> {
    other_project.then(|| {
        format!(
            "`{label}`: its prefix is no document of this project: another project's label, through intersphinx"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_another_projects_object_or_label() {
        assert!(object(false, "dict", "class", None).is_some());
        // A package split out into a project `conf.py` maps under its name.
        assert!(
            object(false, "cupy.ndarray", "class", Some("cupy"))
                .is_some_and(|why| why.contains("a project of its package's name (`cupy`)"))
        );
        assert!(label(true, "python:tut-intro").is_some());
        assert!(inherited("pkg.Request", "docs/api.rst", "webob.BaseRequest").is_some());
        assert!(document("./library/re.html").contains("`library/re`"));
    }

    #[test]
    fn fires_for_a_standard_library_name_the_current_module_lacks() {
        assert!(standard_library(true, "ssl", "mod").is_some());
        assert!(standard_library(true, "ssl.SSLContext", "class").is_some());
    }

    #[test]
    fn stays_quiet_for_the_current_modules_own_or_another_name() {
        // Written qualified, or not a standard library module.
        assert_eq!(standard_library(false, "ssl", "mod"), None);
        assert_eq!(standard_library(true, "open_tcp_stream", "func"), None);
    }

    #[test]
    fn stays_quiet_for_the_projects_own() {
        assert_eq!(object(true, "pkg.run", "func", None), None);
        assert_eq!(label(false, "install"), None);
    }
}
