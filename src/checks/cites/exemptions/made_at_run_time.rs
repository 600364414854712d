//! Exemption `made-at-run-time`, in the path chain: the sentence says a
//! command or a build makes the file ("generated", "is created"). A reading of
//! prose: the history overrules it.

use super::{Applies, Definition, Exemption, Probe, cue_in};

pub(super) const WORDS: &str = include_str!("made_at_run_time.words");

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that says a command or a build makes it (\"generated\", \"is created\", \"written to\"): run-time output, never committed. Likewise a Sphinx document (`:doc:`, a toctree entry) no source of the project holds, where its `conf.py` writes files as the build starts (opens one for writing, copies with `shutil`, runs a command, or defines a `setup()` that runs code) or loads an extension that generates documents (`autoapi.extension`, `sphinxcontrib.apidoc`, `exhale`). The phrases are data (made_at_run_time.words); `[cites.exemption-words] made-at-run-time = [...]` adds more.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let cue = cue_in(probe, Exemption::MadeAtRunTime, WORDS)?;
    Some(format!(
        "its sentence says a command or a build makes it (\"{cue}\")"
    ))
}

/// Why a Sphinx document no source of the project holds is set aside: the
/// project's build writes pages first (`by`: its `conf.py`, or an extension
/// that generates documents).
pub(in crate::checks::cites) fn document(document: &str, by: &str) -> Option<String> {
    Some(format!(
        "no source of the document `{document}` is in the tree, and its pages are written as the build starts by {by}: it may be one"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::first_cue;
    use super::*;

    fn cue(text: &str) -> Option<String> {
        first_cue(text, WORDS)
    }

    #[test]
    fn fires_when_a_build_makes_the_file() {
        assert_eq!(
            cue("The bindings in `src/gen/api.rs` are generated.").as_deref(),
            Some("generated")
        );
        assert_eq!(
            cue("This would create the following class (`github/AuthenticatedApp.py`).").as_deref(),
            Some("would create")
        );
    }

    #[test]
    fn stays_quiet_on_a_committed_file() {
        assert_eq!(cue("The bindings are in `src/api.rs`."), None);
    }
}
