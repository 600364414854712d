//! Exemption `reader-cue`, in the path chain: the sentence speaks of the
//! reader's own project ("your", "for example", "such as"), so the path is
//! theirs. A reading of prose: the history overrules it.

use super::{Applies, Definition, Exemption, Probe, cue_in};

pub(super) const WORDS: &str = include_str!("reader_cue.words");

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that speaks of the reader's own project (\"your\", \"for example\", \"such as\", \"create a file\"): the reader's file, not this repository's. The phrases are data (reader_cue.words); `[cites.exemption-words] reader-cue = [...]` adds more.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let cue = cue_in(probe, Exemption::ReaderCue, WORDS)?;
    Some(format!(
        "its sentence speaks of the reader's project (\"{cue}\")"
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
    fn fires_on_a_sentence_about_the_readers_project() {
        assert_eq!(
            cue("Put it in `src/app.rs` of your crate.").as_deref(),
            Some("your ")
        );
        assert_eq!(
            cue("Helpers live in files (e.g. `tests/common/mod.rs`).").as_deref(),
            Some("e.g.")
        );
    }

    #[test]
    fn stays_quiet_on_a_plain_statement() {
        assert_eq!(cue("The parser is `src/parse.rs`. Your call."), None);
        assert_eq!(cue("The parser lives in `src/parse.rs`."), None);
    }
}
