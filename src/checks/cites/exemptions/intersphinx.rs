//! Exemption `intersphinx`, decided by its resolver (`labels.rs`). The history's evidence does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    id: "intersphinx",
    doc: "A cross-reference to another project's label or Python object, through intersphinx (`:ref:`python:tut-intro``, a prefix that is no document of this project; `:class:`dict``, `:func:`os.path.join``, a name under none of the repository's packages): that project's, not this repository's.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
    on_by_default: true,
};
