//! Exemption `translation-platform`, decided where records are chosen
//! (`scope.rs` asks it): the pages a translation platform's configuration
//! says it writes are fixed on the platform, not in the repository. The
//! tree's own statement: the history does not overrule it.

use super::{Applies, Definition};
use crate::frames::Frame;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record a translation platform writes (its config, `crowdin.yml` and the like, names the files): fixed on the platform, not here. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The configuration files of Crowdin, the translation platform whose
/// `translation:` patterns say which files it writes.
const CROWDIN_CONFIGS: [&str; 4] = [
    "crowdin.yml",
    "crowdin.yaml",
    ".crowdin.yml",
    ".crowdin.yaml",
];

/// The records a translation platform writes: a translated page is synced
/// from the platform, so a link it translated wrong (an English `#anchor` on a
/// German page) is fixed there, not in the repository, and a pull request
/// cannot act on it.
#[derive(Debug, Default)]
pub(crate) struct Translations {
    patterns: Vec<regex::Regex>,
    /// The configuration file that said so.
    pub(crate) config: String,
}

impl Translations {
    /// Reads the `translation:` patterns of a Crowdin configuration at the
    /// root of the snapshot, if it has one.
    pub(crate) fn of(frame: &Frame) -> Translations {
        for config in CROWDIN_CONFIGS {
            let Ok(Some(text)) = frame.snapshot.read_text_to_parse(config) else {
                continue;
            };
            let patterns = text
                .lines()
                .filter_map(|line| {
                    line.trim_start()
                        .trim_start_matches("- ")
                        .strip_prefix("translation:")
                })
                .filter_map(|value| {
                    let value = value.split(" #").next().unwrap_or(value).trim();
                    translation_regex(value.trim_matches(['\'', '"']))
                })
                .collect();
            return Translations {
                patterns,
                config: config.to_owned(),
            };
        }
        Translations::default()
    }

    pub(crate) fn manages(&self, record: &str) -> bool {
        self.patterns.iter().any(|p| p.is_match(record))
    }
}

/// A Crowdin `translation:` pattern as a regex over repository paths. The
/// locale placeholders match locale codes only (`de-DE`, `pt_BR`, `fr`), so a
/// source folder (`docs/config/`) is never taken for a translation.
fn translation_regex(pattern: &str) -> Option<regex::Regex> {
    const LOCALE: &str = "(?:[a-z]{2,3}(?:[-_][A-Z]{2}|[-_][A-Z][a-z]{3})|[a-z]{2})";
    let pattern = pattern.trim_start_matches('/');
    if !pattern.contains('%') {
        return None;
    }
    let mut out = String::from("^");
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if c == '%'
            && let Some(end) = rest[1..].find('%')
        {
            let name = &rest[1..=end];
            out.push_str(match name {
                "locale"
                | "two_letters_code"
                | "three_letters_code"
                | "locale_with_underscore"
                | "android_code"
                | "osx_code"
                | "osx_locale" => LOCALE,
                _ => "[^/]*",
            });
            rest = &rest[end + 2..];
        } else if let Some(after) = rest.strip_prefix("**/") {
            out.push_str("(?:[^/]+/)*");
            rest = after;
        } else if let Some(after) = rest.strip_prefix("**") {
            out.push_str(".*");
            rest = after;
        } else if let Some(after) = rest.strip_prefix('*') {
            out.push_str("[^/]*");
            rest = after;
        } else {
            out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
            rest = &rest[c.len_utf8()..];
        }
    }
    out.push('$');
    regex::Regex::new(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_translated_pages_and_stays_quiet_for_the_sources() {
        let docs = translation_regex("/docs/%locale%/**/%original_file_name%").unwrap();
        assert!(docs.is_match("docs/de-DE/config/README.md"));
        assert!(docs.is_match("docs/ckb-IR/README.md"));
        assert!(docs.is_match("docs/fr/guide.md"));
        assert!(!docs.is_match("docs/config/README.md"));
        assert!(!docs.is_match("docs/presets/README.md"));
        let readme =
            translation_regex("/docs/%locale%/guide/%file_name%.%file_extension%").unwrap();
        assert!(readme.is_match("docs/pt-BR/guide/README.md"));
        assert!(translation_regex("/docs/no-placeholder.md").is_none());
    }
}
