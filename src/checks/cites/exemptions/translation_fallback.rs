//! Exemption `translation-fallback`, in the link chain: a translation's page
//! links to a page its language lacks and the site falls back to the source
//! language's. A fact of the tree (the source language's page is there): the
//! history overrules it only when the translated page was renamed (it lives
//! on elsewhere, and the link should follow it); one deleted on purpose
//! (fastapi's pages left untranslated) is served by the fallback.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link from a translation's page (`docs/de/x.md`) to a page missing in that language whose page in the source language exists (`docs/en/x.md`): the site falls back to it. Only between language folders (whole path segments), and only from a translation to its source. Stale when the history says the translated page was renamed (it lives on, and the link should follow it); one deleted is served by the fallback, as the site intends.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let sibling = in_sibling_tree(probe.path, probe.context.frame.snapshot.paths())?;
    Some(format!(
        "`{}` is missing here but `{sibling}` stands for it (a translation's fallback)",
        probe.path
    ))
}

/// The same path in a sibling tree — one folder of it swapped for another —
/// when exactly that exists: `docs/en/docs/x.md` for `docs/de/docs/x.md`.
fn in_sibling_tree(path: &str, paths: &[String]) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let folders = segments.len().saturating_sub(1);
    (0..folders).find_map(|swap| {
        // Only a translation's page falls back, and only to its source: the
        // segment swapped is a language folder (`de`, `zh-hant` as a whole
        // segment), and what stands for it is English, or, where the tree has
        // no English sibling, another language folder.
        let written = language_of(segments[swap])?;
        if written == "en" {
            return None;
        }
        let before = segments[..swap].join("/");
        let after = segments[swap + 1..].join("/");
        let prefix = if before.is_empty() {
            String::new()
        } else {
            format!("{before}/")
        };
        let suffix = format!("/{after}");
        let english = paths.iter().any(|p| {
            p.strip_prefix(&prefix)
                .and_then(|rest| rest.split('/').next())
                .is_some_and(|segment| language_of(segment) == Some("en"))
        });
        paths
            .iter()
            .find(|p| {
                p.starts_with(&prefix)
                    && p.ends_with(&suffix)
                    && p.len() > prefix.len() + suffix.len()
                    && {
                        let segment = &p[prefix.len()..p.len() - suffix.len()];
                        !segment.contains('/')
                            && language_of(segment)
                                .is_some_and(|l| l != written && (l == "en" || !english))
                    }
            })
            .cloned()
    })
}

/// The language a folder name names (`de`, `pt-BR`, `zh_hant` → `de`, `pt`,
/// `zh`): an ISO 639-1 code, alone or with a region or script.
fn language_of(segment: &str) -> Option<&'static str> {
    let base = segment.split(['-', '_']).next()?;
    let rest = &segment[base.len()..];
    let region_ok = rest.is_empty()
        || (rest.len() <= 8 && rest[1..].chars().all(|c| c.is_ascii_alphanumeric()));
    if !region_ok {
        return None;
    }
    LANGUAGES
        .iter()
        .copied()
        .find(|l| l.eq_ignore_ascii_case(base))
}

/// ISO 639-1 codes documentation sites translate into.
const LANGUAGES: &[&str] = &[
    "af", "am", "ar", "az", "be", "bg", "bn", "bs", "ca", "cs", "cy", "da", "de", "el", "en", "eo",
    "es", "et", "eu", "fa", "fi", "fr", "ga", "gl", "gu", "he", "hi", "hr", "hu", "hy", "id", "is",
    "it", "ja", "ka", "kk", "km", "kn", "ko", "ku", "ky", "lo", "lt", "lv", "mk", "ml", "mn", "mr",
    "ms", "my", "nb", "ne", "nl", "nn", "no", "pa", "pl", "ps", "pt", "ro", "ru", "si", "sk", "sl",
    "sq", "sr", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "uk", "ur", "uz", "vi", "yo",
    "zh", "zu",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_translation_of_a_source_and_stays_quiet_for_anything_else() {
        let paths = ["docs/en/x.md".to_owned(), "docs/guide/y.md".to_owned()];
        assert_eq!(
            in_sibling_tree("docs/de/x.md", &paths).as_deref(),
            Some("docs/en/x.md")
        );
        // The source language stands for nothing, nor does a folder that is
        // not a language.
        let paths = ["docs/de/x.md".to_owned(), "docs/guide/y.md".to_owned()];
        assert_eq!(in_sibling_tree("docs/en/x.md", &paths), None);
        assert_eq!(in_sibling_tree("docs/howto/y.md", &paths), None);
    }
}
