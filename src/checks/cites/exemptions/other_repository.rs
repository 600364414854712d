//! Exemption `other-repository`, in the path chain: the sentence names
//! another repository (`` the `owner/name` repository ``), so its paths are
//! that tree's. A reading of prose: the history overrules it.

use super::{Applies, Definition, Probe, sentence_around};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, in a sentence that names another repository (\"in the `owner/name` repository\"): a path of that repository's tree.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    names_another_repository(&sentence_around(probe.context.text, probe.context.at)?).then(|| {
        "its sentence names another repository (`owner/name` repository): a path of that tree"
            .to_owned()
    })
}

fn names_another_repository(sentence: &str) -> bool {
    static OTHER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    OTHER
        .get_or_init(|| {
            regex::Regex::new(r"`[\w.-]+/[\w.-]+`\s+(?:repository|repo)\b")
                .unwrap_or_else(|_| unreachable!("a fixed pattern"))
        })
        .is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_a_named_repository_and_stays_quiet_on_a_path() {
        assert!(names_another_repository(
            "in the `eslint/eslint.org` repository, `tools/release-data.js` holds it"
        ));
        assert!(!names_another_repository(
            "the `tools/release-data.js` script holds it"
        ));
    }
}
