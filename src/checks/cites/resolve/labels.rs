//! Stage 4, the citation family's Sphinx label resolver: a `:ref:` label
//! against the labels its Sphinx project's pages define at the frame; one no
//! page defines asks the registry (`intersphinx`, `label-elsewhere`), and the
//! history decides the rest (`evidence/labels.rs`).

use std::sync::Arc;

use crate::checks::cites::context::{Context, locked};
use crate::checks::cites::exemptions::{Exemption, intersphinx, label_elsewhere};
use crate::checks::cites::labels::{LabelFate, ProjectLabels, sphinx_folder};
use crate::checks::cites::model::CiteStatus;

/// The labels (and described objects) of the Sphinx project whose source
/// folder is `folder`, at the cite's frame: read once per frame.
pub(in crate::checks::cites) fn project_labels(
    context: &Context<'_>,
    folder: String,
) -> Arc<ProjectLabels> {
    let frame = context.frame;
    let key = (frame.label.clone(), folder);
    let cached = locked(&context.reads.labels).get(&key).cloned();
    cached.unwrap_or_else(|| {
        let read = Arc::new(ProjectLabels::of(frame.snapshot.as_ref(), &key.1));
        locked(&context.reads.labels).insert(key, Arc::clone(&read));
        read
    })
}

/// Whether a Sphinx build reads `page`: a project's source folder holds it
/// and its `exclude_patterns` do not leave it out.
pub(in crate::checks::cites) fn read_by_sphinx(context: &Context<'_>, page: &str) -> bool {
    sphinx_folder(page, context.frame.snapshot.as_ref()).is_some_and(|folder| {
        let labels = project_labels(context, folder.clone());
        !crate::checks::cites::labels::excluded_by(&labels.excluded, &folder, page)
    })
}

/// Why no Sphinx build reads the cite's page, when none does though a
/// project's folder holds it: its `exclude_patterns` leave the page out,
/// and no page the build reads includes it.
pub(in crate::checks::cites) fn left_out_of_build(context: &Context<'_>) -> bool {
    sphinx_folder(context.record, context.frame.snapshot.as_ref()).is_some()
        && !read_by_sphinx(context, context.record)
        && !context
            .includers
            .iter()
            .any(|page| read_by_sphinx(context, page))
}

/// Why no build reads the roles of the cite's page because no build of the
/// repository runs its Sphinx project at all (see
/// [`crate::checks::cites::labels::ProjectLabels::built_by_nothing`]): the
/// role set aside, whatever it names.
pub(in crate::checks::cites) fn built_by_nothing(
    context: &Context<'_>,
    name: &str,
) -> Option<CiteStatus> {
    let folder = sphinx_folder(context.record, context.frame.snapshot.as_ref())?;
    let why = project_labels(context, folder).built_by_nothing.clone()?;
    context.exemptions.ask(Exemption::LabelElsewhere, || {
        label_elsewhere::built_by_nothing(name, &why)
    })
}

/// A `:ref:` label: defined by a page of the project, another project's, or
/// set aside unless the history says the pages defined it when the record
/// cited it.
pub(super) fn resolve_label(context: &Context<'_>, label: &str) -> CiteStatus {
    let frame = context.frame;
    let exemptions = context.exemptions;
    if let Some(status) = built_by_nothing(context, label) {
        return status;
    }
    if left_out_of_build(context)
        && let Some(status) = exemptions.ask(Exemption::LabelElsewhere, || {
            label_elsewhere::left_out_of_build(label)
        })
    {
        return status;
    }
    let Some(folder) = sphinx_folder(context.record, frame.snapshot.as_ref()) else {
        return exemptions
            .ask(Exemption::LabelElsewhere, || {
                label_elsewhere::no_project(label)
            })
            .unwrap_or_else(|| {
                CiteStatus::stale(format!(
                    "`{label}`: no `conf.py` at or above this page, so no Sphinx project defines it"
                ))
            });
    };
    let labels = project_labels(context, folder.clone());
    let fate = labels.fate(label);
    if let LabelFate::Defined(page) = fate {
        return CiteStatus::Ok {
            resolved: format!("label `{label}` ({page})"),
        };
    }
    // A docstring's target, where the project renders docstrings: the
    // page autodoc writes for its module defines it (a build step may write
    // that page, as `sphinx-apidoc` run from a Makefile does).
    if labels.renders_docstrings
        && let Some(module) = context.docstring_labels().get(label)
    {
        return CiteStatus::Ok {
            resolved: format!("label `{label}` (a docstring of {module}, which autodoc renders)"),
        };
    }
    *context.found.label.borrow_mut() = Some(label.to_owned());
    exemptions
        .ask(Exemption::Intersphinx, || {
            intersphinx::label(matches!(fate, LabelFate::OtherProject), label)
        })
        .or_else(|| {
            exemptions.ask(Exemption::LabelElsewhere, || {
                label_elsewhere::undefined(&labels, label, &frame.label)
            })
        })
        .unwrap_or_else(|| {
            CiteStatus::stale(format!(
                "no page of the Sphinx project defines the label `{label}` at {}, and its `conf.py` loads neither intersphinx nor an extension of its own that could",
                frame.label
            ))
        })
}
