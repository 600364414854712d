//! Exemption `reader-cue`, in the path chain: the sentence speaks of the
//! reader's own project ("your", "for example", "such as"), so the path is
//! theirs. A reading of prose: the history overrules it.

use super::{Applies, Definition, Exemption, Probe, cue_in, sentence_around, word_list};

pub(super) const WORDS: &str = include_str!("reader_cue.words");

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that speaks of the reader's own project (\"your\", \"for example\", \"such as\", \"create a file\"), or that brings it in with an English indefinite article and an adjective of making (\"a short `docs/landing.rst` page\", \"a new `x`\") or as a kind of file (\"an `AGENTS.md` file\"): the reader's file, or one to be made, not this repository's. The phrases are data (reader_cue.words); `[cites.exemption-words] reader-cue = [...]` adds more.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if let Some(cue) = cue_in(probe, Exemption::ReaderCue, WORDS) {
        return Some(format!(
            "its sentence speaks of the reader's project (\"{cue}\")"
        ));
    }
    if let Some(article) = introduced_as_new(probe.context.text, probe.context.at, probe.cited) {
        return Some(format!(
            "its sentence brings it in with \"{article}\" (\"{article} … `{}`\"): a file to be made, or the reader's",
            crate::escape::untrusted(probe.cited, crate::escape::VALUE_CAP)
        ));
    }
    let words: Vec<String> = word_list(WORDS)
        .chain(
            probe
                .context
                .exemptions
                .words(Exemption::ReaderCue)
                .iter()
                .cloned(),
        )
        .collect();
    let (line, cue) =
        named_before_as_theirs(probe.context.text, probe.context.at, probe.cited, &words)?;
    Some(format!(
        "line {line} of the record makes it the reader's file (\"{cue}\")"
    ))
}

/// The indefinite article a backticked path follows, with one or two
/// adjectives of making between ("a short `docs/landing.rst` page", "a
/// new `index.rst`"), or that brings in the path as a kind of file ("an
/// `AGENTS.md` file"): the sentence introduces a file as one of its kind,
/// to be made or the reader's, where this tree's own file is "the" file or
/// named bare. English words only: `a` alone before a path is a
/// preposition in other languages ("Adicione o idioma a `x.yml`"). Asked
/// only of a path that names nothing here; one the history knew is judged
/// by it.
fn introduced_as_new(text: &str, at: usize, cited: &str) -> Option<&'static str> {
    static BEFORE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static AFTER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let before_pattern = BEFORE.get_or_init(|| {
        regex::Regex::new(r"(?i)(?:^|[\s(\[])(an?)((?:[ \t]+(?:new|short|small|separate|dedicated|custom|local|single|minimal|simple|standalone|brief|optional|top-level|empty|own))*)[ \t]+$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let after_pattern = AFTER.get_or_init(|| {
        regex::Regex::new(r"^`{0,2}[ \t]+(?:[a-z-]+[ \t]+)?(?:file|page|folder|directory|document|module|script)s?(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let before = text.get(..at)?;
    let before = before.strip_suffix('`')?;
    let before = before.strip_suffix('`').unwrap_or(before);
    let line = before.rsplit('\n').next().unwrap_or(before);
    let found = before_pattern.captures(line)?;
    let adjectives = found
        .get(2)
        .map_or(0, |m| m.as_str().split_whitespace().count());
    let after = text.get(at + cited.len()..).unwrap_or_default();
    let as_a_kind = after_pattern.is_match(after);
    ((1..=2).contains(&adjectives) || as_a_kind).then_some(if found[1].len() == 1 {
        "a"
    } else {
        "an"
    })
}

/// Where the record named the same path, backticked, earlier in a sentence
/// that makes it the reader's ("you could create a file `doc/ext.py`"): a
/// tutorial that has the reader make a file names it again later without
/// the cue, and it is still theirs. The line and the cue.
fn named_before_as_theirs(
    text: &str,
    at: usize,
    cited: &str,
    words: &[String],
) -> Option<(usize, String)> {
    // A record names a path a few times at most; bounded, so a long record
    // stays linear.
    const MENTIONS: usize = 8;
    let cited = cited.trim();
    if cited.is_empty() {
        return None;
    }
    let before = text.get(..at)?;
    before
        .match_indices(cited)
        .filter(|(i, _)| before[..*i].ends_with('`') && before[i + cited.len()..].starts_with('`'))
        .take(MENTIONS)
        .find_map(|(i, _)| {
            let sentence = sentence_around(text, i)?;
            let cue = words.iter().find(|w| sentence.contains(w.as_str()))?;
            Some((before[..i].matches('\n').count() + 1, cue.clone()))
        })
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
        assert_eq!(
            cue("Create a `jest.setup.ts` file and add the following").as_deref(),
            Some("create a `")
        );
    }

    #[test]
    fn a_path_the_record_made_the_readers_stays_theirs_when_named_again() {
        let words: Vec<String> = word_list(WORDS).collect();
        let text = "Say you set it up. You could create a file\n``doc/ext.py`` and define it.\n\n\
                    Later.\n\nThe function is defined in ``doc/ext.py`` and imported.";
        let at = text.rfind("doc/ext.py").unwrap_or(0);
        assert_eq!(
            named_before_as_theirs(text, at, "doc/ext.py", &words),
            Some((2, "create a file".to_owned()))
        );
        // Named before only as the project's own, or not named before: no cue.
        let plain = "The parser is ``src/p.py``.\n\nIt is in ``src/p.py`` still.";
        let at = plain.rfind("src/p.py").unwrap_or(0);
        assert_eq!(named_before_as_theirs(plain, at, "src/p.py", &words), None);
        // A longer path that merely contains it is another path.
        let other = "Create a file `a/doc/ext.py.bak` now.\n\nIt is ``doc/ext.py``.";
        let at = other.rfind("doc/ext.py").unwrap_or(0);
        assert_eq!(
            named_before_as_theirs(other, at, "doc/ext.py", &words),
            None
        );
    }

    #[test]
    fn a_path_brought_in_by_an_indefinite_article_is_one_to_be_made() {
        let new = |text: &str| {
            let at = text.find("docs/").unwrap_or(0);
            let cited = text[at..].split('`').next().unwrap_or_default();
            introduced_as_new(text, at, cited)
        };
        assert_eq!(
            new("or a short `docs/landing.rst` page linked from it"),
            Some("a")
        );
        assert_eq!(
            new("- [x] Add a new `docs/landing.rst` only if needed."),
            Some("a")
        );
        assert_eq!(new("Write an ``docs/extra.rst`` file for it."), Some("an"));
        // This tree's own file, an article too far before the path, or a
        // bare `a` that another language makes a preposition.
        assert_eq!(new("The page `docs/landing.rst` links it."), None);
        assert_eq!(
            new("a page that the build writes to `docs/landing.rst`"),
            None
        );
        assert_eq!(new("Ask Dana `docs/landing.rst` now."), None);
        assert_eq!(new("Adicione o novo idioma a `docs/language.yml`."), None);
        assert_eq!(
            new("Notes belong in a `docs/guide.md` kept in each fork."),
            None
        );
    }

    #[test]
    fn stays_quiet_on_a_plain_statement() {
        assert_eq!(cue("The parser is `src/parse.rs`. Your call."), None);
        assert_eq!(cue("The parser lives in `src/parse.rs`."), None);
    }
}
