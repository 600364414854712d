//! Which records the citation checks read, for the resolve stage: a project's
//! own documentation, not test material, vendored code or another project's
//! copied files; and which of them are changelogs, read as history with frames.

use std::collections::BTreeMap;

use super::exemptions::{Exemption, ExemptionSettings};
use crate::frames::Frame;
use crate::snapshot::has_file;

/// The records that are the project's own documentation, of those a record
/// glob `paths` selected: test material, vendored or copied code, pages a
/// translation platform writes and frozen documentation versions are set
/// aside, one note each ("citations of N records <what> not checked (<why>;
/// first: x)"). Citations and transcripts read the same records.
pub(crate) fn own_records(
    paths: Vec<String>,
    audited: &Frame,
    exemptions: &ExemptionSettings,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut aside = |paths: Vec<String>,
                     exemption: Exemption,
                     picks: &dyn Fn(&str) -> bool,
                     what: &str,
                     why: &str| {
        if !exemptions.is_on(exemption) {
            return paths;
        }
        let (set, kept): (Vec<String>, Vec<String>) = paths.into_iter().partition(|p| picks(p));
        if let Some(first) = set.first() {
            notes.push(format!(
                "citations of {} record{} {what} not checked ({exemption}: {why}; first: {first})",
                set.len(),
                if set.len() == 1 { "" } else { "s" }
            ));
        }
        kept
    };
    let paths = aside(
        paths,
        Exemption::TestMaterial,
        &is_test_material,
        "under fixtures or test data",
        "test material, not documentation",
    );
    let paths = aside(
        paths,
        Exemption::Vendored,
        &|p| is_vendored(p) || under_a_copied_licence(p, audited),
        "of vendored code",
        "another project's documentation, citing its own tree",
    );
    let translations = Translations::of(audited);
    let fixed_there = format!(
        "{} names them: they are fixed there, not here",
        translations.config
    );
    let paths = aside(
        paths,
        Exemption::TranslationPlatform,
        &|p| translations.manages(p),
        "a translation platform writes",
        &fixed_there,
    );
    let frozen = older_doc_versions(&paths);
    aside(
        paths,
        Exemption::FrozenDocs,
        &|p| frozen.contains(p),
        "in earlier documentation versions",
        "the docs as a release shipped them, history",
    )
}

/// Whether a record belongs to vendored code — another project's files copied
/// in (`vendor/`, `third_party/`, `node_modules/`, `_vendor/`): its links and
/// paths are of that project's tree.
pub(crate) fn is_vendored(record: &str) -> bool {
    let segments: Vec<String> = record.split('/').map(str::to_ascii_lowercase).collect();
    segments[..segments.len().saturating_sub(1)]
        .iter()
        .any(|s| {
            [
                "vendor",
                "vendored",
                "_vendor",
                "third_party",
                "third-party",
                "thirdparty",
                "node_modules",
                "bower_components",
            ]
            .contains(&s.as_str())
        })
}

/// Whether a record sits in a folder (below the root) that carries its own
/// licence, not the project's: content copied in from another project (an
/// agent skill, a vendored library's guide), whose links name that project's
/// files. A monorepo's package (a licence beside its manifest) and a package
/// whose licence names the root licence's copyright holder stay records, and
/// so does a documentation folder licensed apart (`docs/LICENSE`, CC BY).
pub(super) fn under_a_copied_licence(record: &str, frame: &Frame) -> bool {
    const LICENCES: [&str; 5] = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING"];
    const MANIFESTS: [&str; 10] = [
        "Cargo.toml",
        "package.json",
        "pyproject.toml",
        "setup.py",
        "go.mod",
        "pom.xml",
        "build.gradle",
        "Gemfile",
        "composer.json",
        "mix.exs",
    ];
    let tree = frame.snapshot.paths();
    let text_of = |path: &str| frame.snapshot.read_text(path).ok().flatten();
    let mut folder = record;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        folder = parent;
        let has = |name: &str| has_file(tree, &format!("{folder}/{name}"));
        let Some(licence) = LICENCES.iter().find(|l| has(l)) else {
            continue;
        };
        if MANIFESTS.iter().any(|m| has(m)) {
            return false;
        }
        let holder = LICENCES
            .iter()
            .find(|l| has_file(tree, l))
            .and_then(|root| text_of(root))
            .and_then(|text| copyright_holder(&text));
        let nested = text_of(&format!("{folder}/{licence}")).unwrap_or_default();
        // A project licenses its own documentation folder apart (Creative
        // Commons, say) far more often than it copies someone else's docs.
        let name = folder
            .rsplit('/')
            .next()
            .unwrap_or(folder)
            .to_ascii_lowercase();
        if [
            "docs",
            "doc",
            "documentation",
            "website",
            "site",
            "book",
            "guide",
            "guides",
            "manual",
        ]
        .contains(&name.as_str())
        {
            return false;
        }
        return !holder.is_some_and(|holder| nested.contains(&holder));
    }
    false
}

/// Who a licence says holds the copyright: the first `Copyright` line without
/// its years and marks ("Copyright (c) 2020-2025 Acme Inc." gives "Acme Inc.").
pub(super) fn copyright_holder(licence: &str) -> Option<String> {
    let line = licence
        .lines()
        .find(|l| l.trim_start().starts_with("Copyright"))?;
    let holder = line
        .trim_start()
        .trim_start_matches("Copyright")
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || c.is_whitespace() || "(cC)©,-–".contains(c)
        })
        .split("All rights reserved")
        .next()
        .unwrap_or_default()
        .trim();
    (holder.len() >= 3).then(|| holder.to_owned())
}

/// Folders that hold a project's release notes, one file or section per release.
pub(super) const RELEASE_FOLDERS: [&str; 8] = [
    "changelogs",
    "changelog",
    "changes",
    "release-notes",
    "release_notes",
    "release notes",
    "releasenotes",
    "releases",
];

/// The folder of a record that is one release's notes among others, and the
/// version its name gives (`release notes/v0.41.0.md`: 0.41.0).
pub(super) fn release_name(record: &str) -> String {
    let name = record.rsplit('/').next().unwrap_or(record);
    name.rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_owned()
}

pub(super) fn release_file(record: &str) -> Option<(&str, Vec<u64>)> {
    let (folder, name) = record.rsplit_once('/')?;
    let last = folder
        .rsplit('/')
        .next()
        .unwrap_or(folder)
        .to_ascii_lowercase();
    if !RELEASE_FOLDERS.contains(&last.as_str()) {
        return None;
    }
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let version = stem.trim_start_matches(|c: char| !c.is_ascii_digit());
    let numbers: Option<Vec<u64>> = version
        .split('.')
        .map(|part| part.parse::<u64>().ok())
        .collect();
    numbers.filter(|n| n.len() >= 2).map(|n| (folder, n))
}

/// Changelogs of one release line kept beside the current one
/// (`CHANGELOG-1.13.md` beside `CHANGELOG.md`): the notes of releases that
/// shipped, history whole, as an earlier release's notes file is.
pub(super) fn superseded_changelogs(records: &[String]) -> std::collections::BTreeSet<String> {
    let stem_of = |record: &str| -> (String, String) {
        let (folder, name) = record.rsplit_once('/').unwrap_or(("", record));
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        (folder.to_owned(), stem.to_ascii_lowercase())
    };
    let current: std::collections::BTreeSet<String> = records
        .iter()
        .map(|r| stem_of(r))
        .filter(|(_, stem)| stem == "changelog")
        .map(|(folder, _)| folder)
        .collect();
    records
        .iter()
        .filter(|r| {
            let (folder, stem) = stem_of(r);
            let versioned = stem
                .strip_prefix("changelog")
                .and_then(|rest| rest.strip_prefix(['-', '_']))
                .is_some_and(|version| {
                    version.starts_with(|c: char| c.is_ascii_digit())
                        && version
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == '.' || c == 'x')
                });
            versioned && current.contains(&folder)
        })
        .cloned()
        .collect()
}

/// For each folder of per-release files, the newest release's file.
pub(super) fn newest_release_files(records: &[String]) -> std::collections::BTreeSet<String> {
    let mut newest: BTreeMap<&str, (Vec<u64>, &str)> = BTreeMap::new();
    for record in records {
        if let Some((folder, version)) = release_file(record) {
            let entry = newest.entry(folder).or_insert((version.clone(), record));
            if version > entry.0 {
                *entry = (version, record);
            }
        }
    }
    newest.into_values().map(|(_, r)| r.to_owned()).collect()
}

/// The repository a page says it was copied from: a front matter key
/// (`repository`, `repo`, `source`, `upstream`) whose value is a git host's
/// address — a theme gallery's page is its theme's README, and its relative
/// links are of that repository's tree.
pub(crate) fn copied_from(text: &str) -> Option<String> {
    let fence = ["+++", "---"].into_iter().find(|f| {
        text.strip_prefix('\n')
            .unwrap_or(text)
            .trim_start_matches('\u{feff}')
            .starts_with(&format!("{f}\n"))
    })?;
    let body = text
        .trim_start_matches(['\n', '\u{feff}'])
        .get(fence.len() + 1..)?;
    let front = &body[..body.find(&format!("\n{fence}")).unwrap_or(0)];
    front.lines().find_map(|line| {
        let (key, value) = line.split_once(['=', ':'])?;
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().trim_matches(['"', '\'']);
        (["repository", "repo", "source", "upstream"].contains(&key.as_str())
            && [
                "github.com/",
                "gitlab.com/",
                "codeberg.org/",
                "bitbucket.org/",
                "sr.ht/",
            ]
            .iter()
            .any(|host| value.contains(host)))
        .then(|| value.to_owned())
    })
}

/// The records of documentation versions a site keeps frozen beside the
/// current one (`site/content/en/v1.6/…` beside `…/latest/`, Docusaurus'
/// `versioned_docs/version-2.0/…`): each is the docs as that release shipped
/// them, history no one revises. Where a `latest`, `next`, `current` or `main`
/// folder sits beside the versions, every version is history; otherwise all
/// but the newest.
pub(crate) fn older_doc_versions(records: &[String]) -> std::collections::BTreeSet<String> {
    fn version_of(segment: &str) -> Option<Vec<u64>> {
        let digits = segment.strip_prefix("version-").unwrap_or(segment);
        let digits = digits.strip_prefix('v').unwrap_or(digits);
        // `1.0.0-beta.10`: a pre-release is a version too.
        let digits = digits
            .split_once('-')
            .map_or(digits, |(release, _)| release);
        // `version-v3.13.x`: a release line, its patch level open.
        let parts: Option<Vec<u64>> = digits
            .split('.')
            .enumerate()
            .map(|(i, p)| match p {
                "x" | "X" if i > 0 => Some(0),
                _ => p.parse().ok(),
            })
            .collect();
        parts.filter(|p| p.len() >= 2)
    }
    // Per parent folder: the version folders under it, and whether a current one is there.
    let mut parents: BTreeMap<String, (BTreeMap<Vec<u64>, String>, bool)> = BTreeMap::new();
    for record in records {
        let segments: Vec<&str> = record.split('/').collect();
        for (i, segment) in segments
            .iter()
            .enumerate()
            .take(segments.len().saturating_sub(1))
        {
            let parent = segments[..i].join("/");
            if let Some(version) = version_of(segment) {
                parents
                    .entry(parent)
                    .or_default()
                    .0
                    .insert(version, (*segment).to_owned());
            } else if ["latest", "next", "current", "main", "master"].contains(segment) {
                parents.entry(parent).or_default().1 = true;
            }
        }
    }
    let mut frozen = std::collections::BTreeSet::new();
    for (parent, (versions, has_current)) in parents {
        let docusaurus = parent.rsplit('/').next() == Some("versioned_docs");
        if versions.is_empty() || (versions.len() < 2 && !has_current && !docusaurus) {
            continue;
        }
        // Docusaurus keeps the docs being written elsewhere (`docs/`): every
        // version under `versioned_docs/` is one a release shipped.
        let docusaurus = parent.rsplit('/').next() == Some("versioned_docs");
        let keep = if has_current || docusaurus {
            None
        } else {
            versions.values().next_back().cloned()
        };
        for folder in versions.values().filter(|f| Some(*f) != keep.as_ref()) {
            let prefix = if parent.is_empty() {
                format!("{folder}/")
            } else {
                format!("{parent}/{folder}/")
            };
            frozen.extend(records.iter().filter(|r| r.starts_with(&prefix)).cloned());
        }
    }
    frozen
}

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
            let Ok(Some(text)) = frame.snapshot.read_text(config) else {
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

/// Whether a record is test material — a fixture or a test's data — rather
/// than the project's documentation: its citations are of the test's world.
pub(crate) fn is_test_material(record: &str) -> bool {
    let segments: Vec<String> = record.split('/').map(str::to_ascii_lowercase).collect();
    let folders = &segments[..segments.len().saturating_sub(1)];
    let name = segments.last().map_or("", String::as_str);
    let test_at = folders.iter().position(|s| {
        [
            "tests",
            "test",
            "testsuite",
            "test-suite",
            "integration-tests",
            "integration_tests",
            "__tests__",
            "e2e",
        ]
        .contains(&s.as_str())
    });
    // A test suite's own README explains the suite; any other page under a
    // test folder's subfolders is a case's input (a test book, a page to render).
    let readme = name.starts_with("readme");
    folders.iter().any(|s| {
        [
            "fixtures",
            "testdata",
            "test-data",
            "test_data",
            "__fixtures__",
            "snapshots",
        ]
        .contains(&s.as_str())
    }) || test_at.is_some_and(|i| {
        folders[i + 1..]
            .iter()
            .any(|s| s == "data" || s == "expected")
            || (!readme && folders.len() > i + 1)
    })
}

/// Whether a record is a changelog: its entries are history, each naming files
/// as they were at that release.
pub(crate) fn is_changelog(record: &str) -> bool {
    let name = record
        .rsplit('/')
        .next()
        .unwrap_or(record)
        .to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    // `CHANGELOG`, `changelog-2024`, `HISTORY.rst`; not `newsletter` or `changes-guide`.
    let word = stem
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .next()
        .unwrap_or(stem);
    ["changelog", "changes", "history", "release-notes", "release_notes", "releases", "news"]
        .iter()
        .any(|s| {
            word == *s
                // `CHANGELOG-fusion.md`: a changelog of one part of the project.
                || (*s == "changelog" && word.strip_prefix(s).is_some_and(|rest| rest.starts_with(['-', '_'])))
                || word
                    .strip_prefix(s)
                    .is_some_and(|rest| rest.starts_with(['-', '_']) && rest[1..].chars().all(|c| c.is_ascii_digit() || c == '.' || c == '-'))
        })
        || release_file(record).is_some()
        || record.starts_with("changelogs/")
        || record.contains("/changelogs/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_lines_changelog_beside_the_current_one_is_history() {
        let records: Vec<String> = [
            "CHANGELOG.md",
            "CHANGELOG-1.13.md",
            "CHANGELOG-fusion.md",
            "docs/CHANGELOG-2.x.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let superseded = superseded_changelogs(&records);
        // A part's changelog, and one with no current changelog beside it,
        // are read.
        assert_eq!(
            superseded.into_iter().collect::<Vec<_>>(),
            ["CHANGELOG-1.13.md"]
        );
    }

    #[test]
    fn changelogs_are_told_from_files_that_only_start_alike() {
        for log in [
            "CHANGELOG.md",
            "docs/release-notes.md",
            "HISTORY.md",
            "changelog-2024.md",
            "CHANGELOG-fusion.md",
            "changelogs/0.5.x.md",
            "NEWS.md",
        ] {
            assert!(is_changelog(log), "{log}");
        }
        for doc in [
            "docs/newsletter.md",
            "changes-guide.md",
            "historyless.md",
            "README.md",
        ] {
            assert!(!is_changelog(doc), "{doc}");
        }
    }

    #[test]
    fn copied_code_is_told_from_the_projects_own_packages() {
        assert!(is_vendored("vendor/github.com/x/README.md"));
        assert!(is_vendored("src/pip/_vendor/rich/README.md"));
        assert!(!is_vendored("docs/vendors.md"));
        assert_eq!(
            copyright_holder(
                "MIT License\n\nCopyright (c) 2020-2025 Acme Inc.  All rights reserved.\n"
            ),
            Some("Acme Inc.".to_owned())
        );
    }

    #[test]
    fn release_files_are_read_by_their_version() {
        let records: Vec<String> = [
            "release notes/v0.9.0.md",
            "release notes/v0.10.0.md",
            "docs/guide.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let newest = newest_release_files(&records);
        assert!(newest.contains("release notes/v0.10.0.md"), "{newest:?}");
        assert_eq!(newest.len(), 1);
        assert!(is_test_material("tests/testsuite/book/src/SUMMARY.md"));
        assert!(!is_test_material("tests/README.md"));
        assert!(is_test_material(
            "packages/core/integration-tests/ro-project/docs/adr/x.md"
        ));
        assert!(is_test_material("src/__tests__/cases/page.md"));
    }

    #[test]
    fn a_page_copied_from_another_repository_says_so_in_its_front_matter() {
        let theme = "\n+++\ntitle = \"Anpu\"\n[extra]\nrepository = \"https://github.com/a/b.git\"\n+++\n# Anpu\n";
        assert_eq!(
            copied_from(theme).as_deref(),
            Some("https://github.com/a/b.git")
        );
        let yaml = "---\nrepo: https://gitlab.com/x/y\n---\ntext";
        assert!(copied_from(yaml).is_some());
        assert_eq!(
            copied_from("---\ntitle: Guide\n---\nrepository = https://github.com/a/b"),
            None
        );
        assert_eq!(
            copied_from("# Guide\nrepository = https://github.com/a/b\n"),
            None
        );
        assert_eq!(copied_from("---\nsource: docs/guide.md\n---\n"), None);
    }

    #[test]
    fn frozen_documentation_versions_are_the_older_ones() {
        let records: Vec<String> = [
            "site/content/en/latest/api.md",
            "site/content/en/v1.6/api.md",
            "site/content/en/v1.7/api.md",
            "website/versioned_docs/version-2.0/intro.md",
            "website/versioned_docs/version-2.1/intro.md",
            "web/versioned_docs/version-v3.9.x/a.md",
            "web/versioned_docs/version-v3.10.x/a.md",
            "site/versioned_docs/version-1.0.0-beta.10/b.md",
            "docs/v1.0/notes.md",
            "README.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let frozen = older_doc_versions(&records);
        let frozen: Vec<&str> = frozen.iter().map(String::as_str).collect();
        assert_eq!(
            frozen,
            [
                "site/content/en/v1.6/api.md",
                "site/content/en/v1.7/api.md",
                "site/versioned_docs/version-1.0.0-beta.10/b.md",
                "web/versioned_docs/version-v3.10.x/a.md",
                "web/versioned_docs/version-v3.9.x/a.md",
                "website/versioned_docs/version-2.0/intro.md",
                "website/versioned_docs/version-2.1/intro.md",
            ]
        );
    }

    #[test]
    fn crowdin_patterns_name_the_translated_pages_only() {
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
