//! Exemption `label-elsewhere`, asked by the Sphinx label resolver: a
//! `:ref:` label no page defines may be a docstring's, an extension's or a
//! generated page's, which recount does not build. A reading of the pages:
//! the history overrules it (`evidence/labels.rs`).

use super::{Applies, Definition};
use crate::checks::cites::labels::ProjectLabels;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A `:doc:` or `:ref:` on a page no Sphinx project reads (no `conf.py` at or above it, nor above a page that includes it: a site generator's own role, as Nikola's posts resolve `:doc:` by a page's slug), or on a page its project's `exclude_patterns` leave out of the build, included by no page the build reads: no build reads its roles, and the forge shows them as text. A `:ref:` label no page of the Sphinx project defines (no `.. _label:` target, `:name:` option, MyST `(label)=`, or section title under autosectionlabel, included files followed, and a page the project holds as a symbolic link to a file or folder of the tree read as that file), where a template of the project (a `.tmpl`, `.j2`, `.jinja` or `.rst_t` file, or one in a `templates`/`_templates` folder) writes labels of its start from a substitution (`.. _mod_{{ mod_id }}:` makes `mod_cc_ssh`), or where `conf.py` (read statically) may load intersphinx or loads an extension of this repository (its own `setup(app)` counts, when it does more than add stylesheets and scripts: Sphinx runs it as an extension, and it may write pages as the build starts): another project's label, or one the extension makes, which recount does not build. With neither, such a label is stale, as Sphinx's own build says. Stale too when the project's pages defined it when the record cited it, or at the audited commit's parent (a label the change under audit removed), unless, while `conf.py` loads intersphinx, the page that defined it has left the repository whole, or now refers its readers to another project through intersphinx (`:ref:`jupyterclient:messaging``, a prefix `conf.py` names): its text may be another project's now, as IPython's messaging spec became jupyter_client's; or a file of the project that is no page (`_valid_examples.toml`) holds the label's target while `conf.py` loads an extension of this repository, which may write it into a page as the build starts (dipy's gallery README); or a sister Sphinx project of the repository defines it today, one whose folder (its path or last part) `conf.py` names as a string while it loads intersphinx: a label moved to a sister site (`sites/www` reaching `sites/docs`) is not gone.",
    applies: Applies::Resolver,
    history_overrules: true,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a label with no Sphinx project around its page is set aside: no
/// `conf.py` at or above the page.
pub(in crate::checks::cites) fn no_project(label: &str) -> Option<String> {
    Some(format!(
        "`{label}`: no `conf.py` at or above this page, so no Sphinx project to define it"
    ))
}

/// Why a `:doc:` with no Sphinx project around its page is set aside: no
/// `conf.py` at or above the page (nor above a page that includes it), so
/// no Sphinx build reads it, and the role is its renderer's.
/// A `:doc:` or `:ref:` on a page a Sphinx project's `exclude_patterns`
/// leave out of its build, included by no page it builds: no build reads
/// the role, and the forge renders it as text.
pub(in crate::checks::cites) fn left_out_of_build(name: &str) -> Option<String> {
    let name = name.trim_start_matches("./");
    Some(format!(
        "`{name}`: the Sphinx project's `exclude_patterns` leave this page out of its build, and no page it builds includes it: no build reads its roles"
    ))
}

/// A role on a page of a Sphinx project no build of the repository runs
/// (`why`: its docs host builds another, and no build file runs Sphinx):
/// no reader sees the role resolved, and the forge renders it as text.
pub(in crate::checks::cites) fn built_by_nothing(name: &str, why: &str) -> Option<String> {
    let name = name.trim_start_matches("./");
    Some(format!(
        "`{name}`: no build reads this page's roles ({why})"
    ))
}

pub(in crate::checks::cites) fn no_project_document(target: &str) -> Option<String> {
    let name = target.trim_start_matches("./");
    Some(format!(
        "`{name}`: no `conf.py` at or above this page, so no Sphinx project reads it; its `:doc:` is the role of whatever renders it"
    ))
}

/// Why a label the project's pages do not define is set aside, if it is:
/// intersphinx may bring another project's, or an extension of the
/// repository's own may make it.
pub(in crate::checks::cites) fn undefined(
    project: &ProjectLabels,
    label: &str,
    at: &str,
) -> Option<String> {
    let lowered = label.to_lowercase();
    if let Some((start, template)) = project
        .templated
        .iter()
        .find(|(start, _)| lowered.len() > start.len() && lowered.starts_with(start.as_str()))
    {
        return Some(format!(
            "no page of the Sphinx project defines the label `{label}` at {at}, and {template}, a template of the project, writes a `{start}…` label for each item it renders: one the build makes"
        ));
    }
    if project.intersphinx {
        return Some(format!(
            "no page of the Sphinx project defines the label `{label}` at {at}, and its `conf.py` loads intersphinx: another project's?"
        ));
    }
    project.local_extensions.first().map(|extension| {
        if extension == crate::checks::cites::labels::CONF_SETUP {
            format!(
                "no page of the Sphinx project defines the label `{label}` at {at}; `conf.py` defines a `setup()` that runs code as the build starts (Sphinx runs it as an extension), which may write the page that does"
            )
        } else {
            format!(
                "no page of the Sphinx project defines the label `{label}` at {at}; `conf.py` loads `{extension}`, an extension of this repository that may make it"
            )
        }
    })
}

/// Why a label the project's pages defined when the record cited it, and
/// no longer do, is still set aside: a sister Sphinx project of the
/// repository that this one's `conf.py` names and reaches through
/// intersphinx defines it now (`sister_page`): moved, not gone.
pub(in crate::checks::cites) fn moved_to_sister(
    label: &str,
    then: &str,
    sister_page: &str,
) -> String {
    format!(
        "no page of this Sphinx project defines the label `{label}` now ({then}), and {sister_page}, of a sister project this one's `conf.py` names and reaches through intersphinx, defines it: moved, not gone"
    )
}

/// Why a label the project's pages defined when the record cited it is
/// still set aside: no page holds it now, but `source`, a file of the
/// project that is no page, holds its target, and `conf.py` loads
/// `extension`, of this repository, which may write it into a page.
pub(in crate::checks::cites) fn written_from(
    label: &str,
    then: &str,
    source: &str,
    extension: &str,
) -> String {
    format!(
        "no page of the Sphinx project defines the label `{label}` now ({then}); {source} holds its target, and `conf.py` loads `{extension}`, an extension of this repository that may write it into a page as the build starts: moved, not proven gone"
    )
}

/// Why a label the project's pages defined when the record cited it is
/// still set aside: the page that defined it is gone from the tree whole, and
/// `conf.py` loads intersphinx, through which another project may serve it.
pub(in crate::checks::cites) fn page_left(label: &str, then: &str) -> String {
    format!(
        "no page of this Sphinx project defines the label `{label}` now; {then} and has left the repository since, and `conf.py` loads intersphinx: the page's text may be another project's now, so the label is not proven gone"
    )
}

/// Why a label the project's pages defined when the record cited it is
/// still set aside: the page that defined it (now `page`) sends its readers
/// to another project through intersphinx (`reference`), where its text went.
pub(in crate::checks::cites) fn page_hands_off(
    label: &str,
    then: &str,
    page: &str,
    reference: &str,
) -> String {
    format!(
        "no page of this Sphinx project defines the label `{label}` now; {then}, and {page} now refers its readers to another project ({reference}) through intersphinx, which `conf.py` loads: moved there, so the label is not proven gone"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_label_intersphinx_or_a_local_extension_may_define() {
        let mut intersphinx = ProjectLabels::default();
        intersphinx.intersphinx = true;
        assert!(undefined(&intersphinx, "api-ref", "abc1234").is_some());
        let mut extension = ProjectLabels::default();
        extension.local_extensions = vec!["docs_ext.options".to_owned()];
        assert!(undefined(&extension, "api-ref", "abc1234").is_some());
        let mut setup = ProjectLabels::default();
        setup.local_extensions = vec![crate::checks::cites::labels::CONF_SETUP.to_owned()];
        assert!(
            undefined(&setup, "ops:call", "abc1234")
                .unwrap()
                .contains("`setup()`")
        );
        assert!(no_project("api-ref").is_some());
        assert!(
            moved_to_sister("retry", "a.rst defined it", "sites/manual/b.rst")
                .contains("sites/manual/b.rst")
        );
    }

    #[test]
    fn stays_quiet_where_nothing_but_the_pages_can_define_it() {
        assert_eq!(
            undefined(&ProjectLabels::default(), "install", "abc1234"),
            None
        );
    }

    /// A project whose template writes a label per item it renders, beside
    /// one whose template's target is all substitution.
    fn templated_project() -> ProjectLabels {
        let tree = crate::snapshot::memory::MemorySnapshot::new(&[
            (
                "doc/conf.py",
                "extensions = ['sphinxcontrib.datatemplates']\n",
            ),
            (
                "doc/index.rst",
                "Modules\n=======\n\nSee :ref:`mod_cc_ssh`.\n",
            ),
            (
                "doc/templates/modules.tmpl",
                ".. _mod_{{ mod_id }}:\n\n{{ name }}\n{{ '=' * name|length }}\n",
            ),
            ("doc/_templates/any.html", ".. _{{ name }}:\n"),
            ("templates/elsewhere.tmpl", ".. _other_{{ x }}:\n"),
        ]);
        ProjectLabels::of(&tree, "doc")
    }

    #[test]
    fn fires_for_a_label_of_a_family_the_projects_template_writes() {
        let why = undefined(&templated_project(), "mod_cc_ssh", "abc1234").unwrap();
        assert!(why.contains("doc/templates/modules.tmpl"), "{why}");
    }

    #[test]
    fn stays_quiet_for_a_label_no_template_of_the_project_names() {
        let project = templated_project();
        // Another family's start, a template outside the project, and the
        // start alone.
        for label in ["install", "other_x", "mod_"] {
            assert_eq!(undefined(&project, label, "abc1234"), None, "{label}");
        }
    }
}
