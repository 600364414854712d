//! Exemption `unresolved-object`, asked by the Python object resolver: an
//! object under one of the repository's packages that a static reading does
//! not find may be made at import time. A reading of the source: the history
//! overrules it (`evidence/labels.rs`).

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A Python role's object (`:func:`pkg.mod.run``) under one of the repository's packages that a static reading of its modules does not find (a name made at import time, by `__getattr__`, by a decorator, or in a compiled extension). Stale when the same reading found it at the commit that wrote the cite, unless a module on its path defines a module-level `__getattr__` (PEP 562), or the class it is a member of (or a base the lookup reaches) defines `__getattr__`, either of which may serve it at run time, or writes entries of `sys.modules` at import time (`sys.modules[\"pkg\"] = other.dsl`, a package made an alias of another distribution's modules), or imports it from a module of the packages with no source in the tree (`from ._native import load`, an extension the build compiles), or it is a member of a name bound to what a call returns (`Widget = toolkit_object(\"widget:Widget\")`, a class a toolkit picks at import time), or the module its path names star-imports a module of another project (`from arviz_stats import *` in `arviz/__init__.py`, an implementation split out and re-exported), or its path (through the imports that bind it) leads into a git submodule or link the tree holds without its files, or runs under a package whose `__init__` sets its `__path__` (`__path__ = constants.PLUGINS_PATH`, `pkgutil.extend_path`), so Python may find the submodule in another folder: whatever the history had, absence is not proven there. A module's stub beside it (`__init__.pyi`, as lazy loaders use) is read with it. Never when absence is proven and the name is another object's: the module the name's path names (`pkg.views.base` for `pkg.views.base.AppList`) binds nothing of that name, by definition or import, nothing in it could bind one unseen (no star import, no module `__getattr__`, no `globals()`, `vars()`, `exec` or `sys.modules[__name__]`), and another module of the packages defines an object of that name (`pkg.views.app.AppList`): the role names a real object where it is not, stale whatever the history had. A name no module defines is left to the history (a helper a docstring promises, never written), and so is a private one (`_Base`, which no module exports) whose exact dotted name the packages' own code writes too (a docstring's `:param ~pkg.mlls._Base base:`): prose and code agree on what to call it.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why an object of the repository's packages that the static reading did
/// not find is set aside. `names` are the dotted names it may mean, the
/// written one last; `guessed` says the first is the current module's guess.
pub(in crate::checks::cites) fn fires(
    names: &[String],
    guessed: bool,
    proven_absent: Option<&str>,
    role: &str,
    at: &str,
) -> Option<String> {
    // The module its path names binds nothing of it and could bind nothing
    // unseen: absence is proven, not a guess at import-time magic.
    if proven_absent.is_some() {
        return None;
    }
    let written = names.last()?;
    Some(if guessed {
        format!(
            "neither `{}` nor `{written}` is defined by this repository's packages at {at}, as a static reading finds them: another project's {role}, or made at import time?",
            names[0]
        )
    } else {
        format!(
            "no module of this repository's packages defines `{written}` at {at}, as a static reading finds it: made at import time?"
        )
    })
}

/// Why a private object its path's module lacks, though the packages define
/// one of its name elsewhere, is left to the history: the packages' own code
/// writes it so too (`at`, a docstring's `:param ~pkg.mlls._Base base:`).
pub(in crate::checks::cites) fn named_so_in_code(written: &str, at: &str, label: &str) -> String {
    format!(
        "`{written}` is not where its module path says at {label}, but the packages' own code names it so too ({at}): the prose follows the code's usage"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: `module` on its path defines a module-level `__getattr__` (PEP 562)
/// or writes `sys.modules` at import time, which may serve it at run time.
pub(in crate::checks::cites) fn served_at_run_time(
    written: &str,
    module: &str,
    installs_modules: bool,
    at: &str,
) -> String {
    let how = if installs_modules {
        "writes entries of `sys.modules` at import time, which may serve it"
    } else {
        "defines a `__getattr__` that may serve it at run time"
    };
    format!(
        "no module of this repository's packages defines `{written}` at {at} as a static reading finds it, and {module} {how}: not proven gone"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: the module on its path star-imports another project's module,
/// which may export it (an implementation split out to a distribution of
/// its own and re-exported under the old name).
pub(in crate::checks::cites) fn star_from_elsewhere(
    written: &str,
    file: &str,
    from: &str,
    at: &str,
) -> String {
    format!(
        "no module of this repository's packages defines `{written}` at {at}, and {file} star-imports `{from}`, another project's, which may export it: not proven gone"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: it is a member of `value`, bound at import time to what a call
/// returns (a class a toolkit picks), whose members no static reading lists.
pub(in crate::checks::cites) fn member_of_call(written: &str, value: &str, at: &str) -> String {
    format!(
        "no module of this repository's packages defines `{written}` at {at} as a static reading finds it, and it is a member of {value}, bound to what a call returns at import time: not proven gone"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: its path leads (through the imports that bind it) into `folder`, a
/// git submodule or link the tree holds without its files.
pub(in crate::checks::cites) fn given_up(written: &str, at: &str) -> String {
    format!(
        "the static reading of this repository's packages followed `{written}` at {at} through more imports and bases than it reads for one name, without an answer: not proven gone"
    )
}

pub(in crate::checks::cites) fn beyond_tree(written: &str, folder: &str, at: &str) -> String {
    format!(
        "no module this tree holds defines `{written}` at {at}, and its path leads into `{folder}`, which the tree holds without its files (a git submodule or a link): not proven gone"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: `import` binds it from a module of the packages with no source in
/// the tree, a compiled extension the build makes.
pub(in crate::checks::cites) fn from_built_module(written: &str, import: &str, at: &str) -> String {
    format!(
        "no module this tree holds defines `{written}` at {at} as a static reading finds it, and {import}, a module with no source in the tree (an extension the build compiles): not proven gone"
    )
}

/// Why an object no static reading finds is set aside whatever the history
/// says: its path runs under a package whose `__init__` (`init`) sets its
/// `__path__`, so Python may find the submodule in another folder.
pub(in crate::checks::cites) fn under_extended_path(written: &str, init: &str, at: &str) -> String {
    format!(
        "no module this tree holds at the path of `{written}` at {at}, and {init} sets its package's `__path__`, so Python may read the submodule from another folder: not proven gone"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_with_the_names_it_may_mean() {
        let names = vec!["pkg.mod.run".to_owned(), "run".to_owned()];
        let why = fires(&names, true, None, "func", "abc1234").unwrap();
        assert!(why.contains("`pkg.mod.run` nor `run`"), "{why}");
        let why = fires(&names[..1], false, None, "func", "abc1234").unwrap();
        assert!(why.contains("made at import time"), "{why}");
    }

    #[test]
    fn stays_quiet_with_no_name_or_when_absence_is_proven() {
        assert_eq!(fires(&[], false, None, "func", "abc1234"), None);
        let names = vec!["pkg.views.base.AppList".to_owned()];
        assert_eq!(
            fires(
                &names,
                false,
                Some("src/pkg/views/base.py"),
                "class",
                "abc1234"
            ),
            None
        );
    }
}
