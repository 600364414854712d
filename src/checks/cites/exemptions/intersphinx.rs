//! Exemption `intersphinx`, asked by the Sphinx label and Python object
//! resolvers: a label whose prefix is no document of this project, or an
//! object under none of the repository's packages, is another project's,
//! reached through intersphinx. The project's own shape: the history does
//! not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A cross-reference to another project's label or Python object, through intersphinx (`:ref:`python:tut-intro``, a prefix that is no document of this project; `:class:`dict``, `:func:`os.path.join``, a name under none of the repository's packages): that project's, not this repository's.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a Python role's object is another project's, if it is: no name it
/// may mean is under one of the repository's packages (`ours` false).
pub(in crate::checks::cites) fn object(ours: bool, written: &str, role: &str) -> Option<String> {
    (!ours).then(|| {
        format!(
            "`{written}` is under none of this repository's Python packages: another project's {role}"
        )
    })
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
        assert!(object(false, "dict", "class").is_some());
        assert!(label(true, "python:tut-intro").is_some());
    }

    #[test]
    fn stays_quiet_for_the_projects_own() {
        assert_eq!(object(true, "pkg.run", "func"), None);
        assert_eq!(label(false, "install"), None);
    }
}
