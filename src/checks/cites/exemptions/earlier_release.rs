//! Exemption `earlier-release`, asked by the gather loop for a changelog's
//! sections and for per-release notes files: an earlier release's notes
//! are history nobody revises, so their citations are not checked (the
//! newest release is read at its tag). History itself: the history does not
//! overrule it.

use std::collections::{BTreeMap, BTreeSet};

use super::{Applies, Definition};
use crate::checks::cites::releases::release_file;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A citation in a changelog's earlier release section, or in an earlier release's own notes file (`release-notes/v1.2.0.md` beside newer ones, a package's `changelogs/kit/0.29.0.md` beside its newer ones, `CHANGELOG-1.13.md` beside `CHANGELOG.md`): history nobody revises. The newest release is read at its tag, as is a page of one release's notes (`whatsnew-3.1.rst`, \"What's new in X 3.1\") or a guide to migrating to a release that a later major release followed (`Migrating to v0.10.0` in a project at 2.x: a guide to the current major is kept current); when that release shipped with no tag here, the page's citations are history too, and once a later release is tagged its links to the default branch are. A link the page or section gained after the tag (the page at the tag lacks its text: an image added to a release's article the next day) is one a reader opens today, read in the audited tree; a path the prose names stays a claim about the release, read at the tag. A Sphinx page's cross-references are always read in today's build (one in an earlier release's notes that did not resolve when written either is history: it never drifted), and a link to release notes (`CHANGELOG.md#090`, `release-notes/v0.9.0.md`) wherever it sits: the notes it opens are kept as they were, so a reader follows it today. Counted in one note; the history does not overrule it (it is history).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a citation of a release's notes is history, if it is: a section after
/// a changelog's first (newest), or any section of a notes file that is
/// itself an earlier release's (`earlier_file`).
pub(in crate::checks::cites) fn fires(
    section: usize,
    earlier_file: bool,
    version: &str,
) -> Option<String> {
    (section > 0 || earlier_file)
        .then(|| format!("the notes of release {version}, an earlier one, are history"))
}

/// Why a cross-reference in an earlier release's notes, which today's build
/// reads, is history when it did not resolve when written either: the
/// notes were so from the start, and nothing drifted since.
pub(in crate::checks::cites) fn never_resolved(version: &str, when: &str) -> Option<String> {
    Some(format!(
        "the notes of release {version}, an earlier one, are history, and the cross-reference did not resolve when they cited it either (at {when})"
    ))
}

/// Why a link to the default branch on a release's page is history when a
/// later release is tagged (`notes/coredns-007.md` once `v008` is): the
/// page is that release's notes, not revised as the branch moves on.
pub(in crate::checks::cites) fn followed(version: &str) -> Option<String> {
    Some(format!(
        "the notes of release {version}, which a later release followed, are history"
    ))
}

/// Why a release page's citations are history when no tag names its
/// release and a later one shipped (`whatsnew-3.1.rst` in a clone whose
/// tags start at 4.0): there is no tree of that release to read them at.
pub(in crate::checks::cites) fn untagged(version: &str) -> Option<String> {
    Some(format!(
        "the notes of release {version}, which shipped with no tag here to read it at, are history"
    ))
}

/// Changelogs of one release line kept beside the current one
/// (`CHANGELOG-1.13.md` beside `CHANGELOG.md`): the notes of releases that
/// shipped, history whole, as an earlier release's notes file is.
pub(in crate::checks::cites) fn superseded_changelogs(records: &[String]) -> BTreeSet<String> {
    let stem_of = |record: &str| -> (String, String) {
        let (folder, name) = record.rsplit_once('/').unwrap_or(("", record));
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        (folder.to_owned(), stem.to_ascii_lowercase())
    };
    let current: BTreeSet<String> = records
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
pub(in crate::checks::cites) fn newest_release_files(records: &[String]) -> BTreeSet<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_after_the_newest_section_and_for_an_earlier_notes_file() {
        assert!(fires(1, false, "1.2.0").is_some());
        assert!(fires(0, true, "1.2.0").is_some());
    }

    #[test]
    fn stays_quiet_for_the_newest_release() {
        assert_eq!(fires(0, false, "2.0.0"), None);
    }

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
        // A monorepo's notes, one folder per package: each package's newest.
        let records: Vec<String> = [
            "changelogs/drizzle-orm/0.29.0.md",
            "changelogs/drizzle-orm/0.30.4.md",
            "changelogs/drizzle-kit/0.20.1.md",
            "docs/guide/0.1.md",
        ]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
        let newest = newest_release_files(&records);
        assert_eq!(
            newest,
            BTreeSet::from([
                "changelogs/drizzle-kit/0.20.1.md".to_owned(),
                "changelogs/drizzle-orm/0.30.4.md".to_owned(),
            ])
        );
    }
}
