//! Exemption `translation-fallback`, in the link chain: a translation's page
//! links to a page its language lacks and the site falls back to the source
//! language's. A fact of the tree (the source language's page is there): the
//! history overrules it only when the translated page was renamed (it lives
//! on elsewhere, and the link should follow it); one deleted on purpose
//! (fastapi's pages left untranslated) is served by the fallback.

use super::super::context::PathNames;
use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link from a translation's page (`docs/de/x.md`) to a page missing in that language whose page in the source language exists (`docs/en/x.md`): the site falls back to it. Only between language folders (whole path segments, or a folder named for its source and a language: `guide-de` beside `guide`), or from a language's tree that mirrors the source docs from elsewhere (`i18n/de/pages/whats-new.md`, whose own page is `docs/whats-new.md`: `i18n/de/pages/migration.md` falls back to `docs/migration.md`), and only from a translation to its source. Stale when the history says the translated page was renamed (it lives on, and the link should follow it); one deleted is served by the fallback, as the site intends.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

pub(in crate::checks::cites) fn fires(probe: &Probe<'_>) -> Option<String> {
    let paths = probe.context.frame.snapshot.paths();
    let names = probe.context.path_names();
    let tree = (paths, &*names);
    let sibling = in_sibling_tree(probe.path, probe.context.record, tree)
        .or_else(|| in_mirrored_source(probe.path, probe.context.record, tree))?;
    Some(format!(
        "`{}` is missing here but `{sibling}` stands for it (a translation's fallback)",
        probe.path
    ))
}

/// The same path in a sibling tree — one folder of it swapped for another —
/// when exactly that exists: `docs/en/docs/x.md` for `docs/de/docs/x.md`.
fn in_sibling_tree(
    path: &str,
    record: &str,
    (paths, names): (&[String], &PathNames),
) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let folders = segments.len().saturating_sub(1);
    (0..folders).find_map(|swap| {
        // Only a translation's page falls back, and only to its source: the
        // segment swapped is a language folder (`de`, `zh-hant` as a whole
        // segment), and what stands for it is English, or, where the tree has
        // no English sibling, another language folder.
        let before = segments[..swap].join("/");
        let after = segments[swap + 1..].join("/");
        let prefix = if before.is_empty() {
            String::new()
        } else {
            format!("{before}/")
        };
        let suffix = format!("/{after}");
        // A translation named for its source and its language
        // (`guide-de`, `guide-zh-CN`, `docs_ja` beside `guide/`, `docs/`):
        // a page of it linking another of its pages falls back to the
        // source folder's page of that name, as the site that builds the
        // translations serves it. Nothing says a link into it from
        // elsewhere, or to an image, is read on such a site.
        if let Some(source) = suffixed_source(segments[swap]) {
            let translation = format!("{prefix}{}/", segments[swap]);
            if !record.starts_with(&translation) || !crate::checks::cites::anchors::is_page(path) {
                return None;
            }
            let candidate = format!("{prefix}{source}{suffix}");
            return crate::snapshot::has_file(paths, &candidate).then_some(candidate);
        }
        let written = language_of(segments[swap])?;
        if written == "en" {
            return None;
        }
        // Only the paths with the link's file name can stand for it: a
        // tree's every path is read once per frame (the name index), never
        // once per link.
        let others = file_named(paths, names, path).filter(|p| {
            p.starts_with(&prefix)
                && p.ends_with(&suffix)
                && p.len() > prefix.len() + suffix.len()
                && !p[prefix.len()..p.len() - suffix.len()].contains('/')
        });
        let other_language = |p: &&String| {
            language_of(&p[prefix.len()..p.len() - suffix.len()]).filter(|&l| l != written)
        };
        let english = |p: &&String| other_language(p) == Some("en");
        let candidates: Vec<&String> = others.filter(|p| other_language(p).is_some()).collect();
        candidates
            .iter()
            .find(|p| english(p))
            .or_else(|| {
                // Another language stands in only where the tree has no
                // English sibling folder at all.
                let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
                let no_english = !paths[start..]
                    .iter()
                    .take_while(|p| p.starts_with(&prefix))
                    .any(|p| {
                        p[prefix.len()..]
                            .split('/')
                            .next()
                            .is_some_and(|segment| language_of(segment) == Some("en"))
                    });
                no_english.then(|| candidates.first()).flatten()
            })
            .map(|p| (*p).clone())
    })
}

/// The paths of the tree whose file has the name `path`'s file has.
fn file_named<'a>(
    paths: &'a [String],
    names: &'a PathNames,
    path: &str,
) -> impl Iterator<Item = &'a String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    names
        .named(name, false)
        .iter()
        .filter_map(|&i| paths.get(i))
}

/// The same page in the source tree a translation's tree mirrors from
/// elsewhere (`i18n/de/pages/` mirroring `docs/`, as a build that copies the
/// source docs per language lays them out): a page of the translated folder
/// whose path below it one source page outside every language folder ends
/// with (`whats-new.md` → `docs/whats-new.md`) gives the source root, and
/// the link's page is looked for there.
fn in_mirrored_source(
    path: &str,
    record: &str,
    (paths, names): (&[String], &PathNames),
) -> Option<String> {
    let segments: Vec<&str> = record.split('/').collect();
    let language = segments
        .iter()
        .position(|s| language_of(s).is_some_and(|l| l != "en"))?;
    let untranslated = |p: &str| {
        !p.split('/')
            .any(|s| language_of(s).is_some_and(|l| l != "en"))
    };
    // Each folder below the language folder, deepest first, may be the
    // mirror of the source root.
    (language + 1..segments.len()).rev().find_map(|from| {
        let translated_root = format!("{}/", segments[..from].join("/"));
        let rest = path.strip_prefix(&translated_root)?;
        let start = paths.partition_point(|p| p.as_str() < translated_root.as_str());
        let source_root = paths[start..]
            .iter()
            .take_while(|p| p.starts_with(&translated_root))
            .take(64)
            .find_map(|page| {
                let tail = &page[translated_root.len()..];
                let ending = format!("/{tail}");
                let mut sources = file_named(paths, names, tail)
                    .filter(|p| (p.ends_with(&ending) || p.as_str() == tail) && untranslated(p));
                let source = sources.next()?;
                sources
                    .next()
                    .is_none()
                    .then(|| source[..source.len() - tail.len()].to_owned())
            })?;
        let candidate = format!("{source_root}{rest}");
        crate::snapshot::has_file(paths, &candidate).then_some(candidate)
    })
}

/// The source folder a translation's folder is named for, when its name is
/// that folder's and a language other than English after a `-` or `_`
/// (`guide-de` → `guide`, `guide-zh-CN` → `guide`, `docs_ja` → `docs`).
fn suffixed_source(segment: &str) -> Option<&str> {
    segment
        .match_indices(['-', '_'])
        .map(|(at, _)| at)
        .find_map(|at| {
            let (source, language) = (&segment[..at], &segment[at + 1..]);
            let code = language_of(language)?;
            (code != "en" && !source.is_empty() && language_of(source).is_none()).then_some(source)
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
            in_sibling_tree(
                "docs/de/x.md",
                "docs/de/index.md",
                (&paths, &PathNames::of(&paths))
            )
            .as_deref(),
            Some("docs/en/x.md")
        );
        // The source language stands for nothing, nor does a folder that is
        // not a language.
        let paths = ["docs/de/x.md".to_owned(), "docs/guide/y.md".to_owned()];
        assert_eq!(
            in_sibling_tree(
                "docs/en/x.md",
                "docs/en/index.md",
                (&paths, &PathNames::of(&paths))
            ),
            None
        );
        assert_eq!(
            in_sibling_tree(
                "docs/howto/y.md",
                "docs/howto/index.md",
                (&paths, &PathNames::of(&paths))
            ),
            None
        );
    }

    #[test]
    fn a_language_tree_mirrored_from_the_source_docs_falls_back_to_them() {
        let paths: Vec<String> = [
            "docs/migration.md",
            "docs/whats-new.md",
            "i18n/de/pages/whats-new.md",
            "i18n/fr/pages/whats-new.md",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            in_mirrored_source(
                "i18n/de/pages/migration.md",
                "i18n/de/pages/whats-new.md",
                (&paths, &PathNames::of(&paths))
            )
            .as_deref(),
            Some("docs/migration.md")
        );
        // A page the source lacks too, and a page of no language.
        assert_eq!(
            in_mirrored_source(
                "i18n/de/pages/gone.md",
                "i18n/de/pages/whats-new.md",
                (&paths, &PathNames::of(&paths))
            ),
            None
        );
        assert_eq!(
            in_mirrored_source(
                "docs/gone.md",
                "docs/whats-new.md",
                (&paths, &PathNames::of(&paths))
            ),
            None
        );
    }

    #[test]
    fn a_folder_named_for_its_source_and_a_language_falls_back_to_the_source() {
        // (Sorted, as a tree's paths are.)
        let paths = [
            "docs/guide-de/README.md".to_owned(),
            "docs/guide/intro.md".to_owned(),
        ];
        for translated in ["docs/guide-de/intro.md", "docs/guide-zh-CN/intro.md"] {
            assert_eq!(
                in_sibling_tree(
                    translated,
                    &translated.replace("intro", "README"),
                    (&paths, &PathNames::of(&paths))
                )
                .as_deref(),
                Some("docs/guide/intro.md"),
                "{translated}"
            );
        }
        // Missing in the source too, English named so, and a name whose end
        // only looks like a language (`api-v2`, `tools-de-x`).
        let from = |page: &str, record: &str| {
            in_sibling_tree(page, record, (&paths, &PathNames::of(&paths)))
        };
        assert_eq!(
            from("docs/guide-de/gone.md", "docs/guide-de/README.md"),
            None
        );
        assert_eq!(
            from("docs/guide-en/intro.md", "docs/guide-en/README.md"),
            None
        );
        assert_eq!(
            from("docs/guide-v2/intro.md", "docs/guide-v2/README.md"),
            None
        );
        // A link into the translation from another folder, and an image.
        assert_eq!(
            from("docs/guide-de/intro.md", "docs/notes-de/README.md"),
            None
        );
        let paths = [
            "docs/guide-de/README.md".to_owned(),
            "docs/guide/flow.png".to_owned(),
        ];
        assert_eq!(
            in_sibling_tree(
                "docs/guide-de/flow.png",
                "docs/guide-de/README.md",
                (&paths, &PathNames::of(&paths))
            ),
            None
        );
    }
}
