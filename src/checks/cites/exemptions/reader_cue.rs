//! Exemption `reader-cue`, in the path chain: the sentence speaks of the
//! reader's own project ("your", "for example", "such as"), so the path is
//! theirs. A reading of prose: the history overrules it.

use super::{Applies, Definition, Exemption, Probe, cue_in, sentence_around, word_list};

pub(super) const WORDS: &str = include_str!("reader_cue.words");

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that speaks of the reader's own project (\"your\", \"for example\", \"such as\", \"create a file\"), or that brings it in with an indefinite article (\"a short `docs/landing.rst` page\", at most two words between): the reader's file, or one to be made, not this repository's. The phrases are data (reader_cue.words); `[cites.exemption-words] reader-cue = [...]` adds more.",
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
    if let Some(article) = introduced_as_new(probe.context.text, probe.context.at) {
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

/// The indefinite article a backticked path follows, with at most two words
/// between ("a short `docs/landing.rst` page", "an `index.rst`"): the
/// sentence brings in a file as one of a kind, to be made or the reader's,
/// where this tree's own file is "the" file or named bare. Asked only of a
/// path that names nothing here; one the history knew is judged by it.
fn introduced_as_new(text: &str, at: usize) -> Option<&'static str> {
    static ARTICLE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let article = ARTICLE.get_or_init(|| {
        regex::Regex::new(r"(?i)(?:^|[\s(\[])(an?)(?:[ \t]+[a-z][a-z-]*){0,2}[ \t]+$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let before = text.get(..at)?;
    let before = before.strip_suffix('`')?;
    let before = before.strip_suffix('`').unwrap_or(before);
    let line = before.rsplit('\n').next().unwrap_or(before);
    let found = article.captures(line)?;
    Some(if found[1].len() == 1 { "a" } else { "an" })
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
        let at = |text: &str| text.find("docs/").unwrap_or(0);
        let plan = "or a short `docs/landing.rst` page linked from the index";
        assert_eq!(introduced_as_new(plan, at(plan)), Some("a"));
        let task = "- [x] Add a `docs/landing.rst` page only if needed.";
        assert_eq!(introduced_as_new(task, at(task)), Some("a"));
        let rst = "Write an ``docs/extra.rst`` for it.";
        assert_eq!(introduced_as_new(rst, at(rst)), Some("an"));
        // This tree's own file, or an article too far before the path.
        let own = "The page `docs/landing.rst` links it.";
        assert_eq!(introduced_as_new(own, at(own)), None);
        let far = "a page that the build writes to `docs/landing.rst`";
        assert_eq!(introduced_as_new(far, at(far)), None);
        let word = "Ask Dana `docs/landing.rst` now.";
        assert_eq!(introduced_as_new(word, at(word)), None);
    }

    #[test]
    fn stays_quiet_on_a_plain_statement() {
        assert_eq!(cue("The parser is `src/parse.rs`. Your call."), None);
        assert_eq!(cue("The parser lives in `src/parse.rs`."), None);
    }
}
