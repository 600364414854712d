//! Exemption `made-at-run-time`, in the path chain: the sentence says a
//! command or a build makes the file ("generated", "is created"). A reading of
//! prose: the history overrules it.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{Applies, Definition, Exemption, Probe, cue_in};
use crate::checks::cites::context::locked;

pub(super) const WORDS: &str = include_str!("made_at_run_time.words");

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that says a command or a build makes it (\"generated\", \"is created\", \"written to\"): run-time output, never committed. Likewise a file the page's own code saves by that name (`plt.savefig(\"step.png\")` in an `.. ipython::` block above `.. image:: step.png`), written as the build runs the page; for a link (written on purpose), only that. Likewise a Sphinx document (`:doc:`, a toctree entry) no source of the project holds, where its `conf.py` writes files as the build starts (opens one for writing, copies with `shutil`, runs a command, or defines a `setup()` that runs code) or loads an extension that generates documents (`autoapi.extension`, `sphinxcontrib.apidoc`, `exhale`). The phrases are data (made_at_run_time.words); `[cites.exemption-words] made-at-run-time = [...]` adds more.",
    applies: Applies::PathOrLink,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if let Some(line) = saved_by_page(probe) {
        return Some(format!(
            "the page's own code writes it as the build runs it (`{}`)",
            crate::escape::untrusted(&line, crate::escape::VALUE_CAP)
        ));
    }
    // A link is written on purpose: only the page's own code proves the
    // build makes its target, never a word of its sentence.
    if probe.link {
        return None;
    }
    let cue = cue_in(probe, Exemption::MadeAtRunTime, WORDS)?;
    Some(format!(
        "its sentence says a command or a build makes it (\"{cue}\")"
    ))
}

/// The line of the page's own code that saves a file of the cited name
/// (`plt.savefig("step.png")` in an `.. ipython::` block above `.. image::
/// step.png`): a page whose code the build runs writes it. The page's
/// saved names are read once.
fn saved_by_page(probe: &Probe<'_>) -> Option<String> {
    let context = probe.context;
    let name = probe.cited.trim_start_matches("./");
    let name = name.rsplit('/').next().unwrap_or(name);
    let cached = locked(&context.reads.saved_by_page)
        .get(context.record)
        .cloned();
    let saved = cached.unwrap_or_else(|| {
        let saved = Arc::new(saved_names(context.text));
        locked(&context.reads.saved_by_page).insert(context.record.to_owned(), Arc::clone(&saved));
        saved
    });
    saved.get(name).cloned()
}

/// The file names a page's lines save by a call that writes
/// (`savefig("step.png")`, `.save('out.gif')`, `open("x.csv", "w")`), each
/// with its line, trimmed.
fn saved_names(text: &str) -> BTreeMap<String, String> {
    const SAVING: [&str; 6] = [
        "savefig(",
        ".save(",
        "to_file(",
        "write_image(",
        "write_html(",
        "open(",
    ];
    let mut saved = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        let writes = SAVING.iter().any(|call| {
            line.contains(call) && (*call != "open(" || line.contains("'w") || line.contains("\"w"))
        });
        if !writes {
            continue;
        }
        for quote in ['"', '\''] {
            for (i, quoted) in line.split(quote).enumerate() {
                let name = quoted.rsplit('/').next().unwrap_or(quoted);
                if i % 2 == 1
                    && name.len() >= 3
                    && name.contains('.')
                    && !name.contains(char::is_whitespace)
                {
                    saved
                        .entry(name.to_owned())
                        .or_insert_with(|| line.chars().take(120).collect());
                }
            }
        }
    }
    saved
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
    fn a_file_the_pages_own_code_saves_is_made_as_the_build_runs_it() {
        let page =
            ".. ipython::\n\n    In [16]: plt.savefig(\"img/step.png\")\n\n.. image:: step.png\n";
        let saved = saved_names(page);
        assert!(saved.get("step.png").is_some_and(|l| l.contains("savefig")));
        let read = "data = open('step.png').read()\n.. image:: step.png\n";
        assert!(saved_names(read).is_empty());
        assert_eq!(saved.get("other.png"), None);
    }

    #[test]
    fn stays_quiet_on_a_committed_file() {
        assert_eq!(cue("The bindings are in `src/api.rs`."), None);
    }
}
