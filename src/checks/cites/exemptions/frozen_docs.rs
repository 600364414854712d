//! Exemption `frozen-docs`, decided where records are chosen (`scope.rs`
//! asks it): a documentation version a release shipped, kept beside the
//! current docs, is history. The tree's own shape: the history does not
//! overrule it.

use std::collections::BTreeMap;

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record in a shipped documentation version (every `versioned_docs/version-1.2/` of Docusaurus, which writes the current docs elsewhere; an older `content/v0.9/` beside `latest/` or a newer version): the docs as a release shipped them, history. Likewise a record in a folder the project keeps its retired pages in (`archive/`, `archived/`, `archives/`, `old/`, `attic/`, `obsolete/`). Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Folders that hold a project's retired pages.
const ARCHIVE_FOLDERS: &[&str] = &[
    "archive", "archived", "archives", "old", "attic", "obsolete",
];

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
    // A folder the project keeps its retired pages in (`docs/archive/`,
    // `docs/old/`): kept for the record, no longer maintained.
    frozen.extend(
        records
            .iter()
            .filter(|r| {
                r.split('/')
                    .rev()
                    .skip(1)
                    .any(|folder| ARCHIVE_FOLDERS.contains(&folder.to_ascii_lowercase().as_str()))
            })
            .cloned(),
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_the_older_versions_and_stays_quiet_for_the_current_docs() {
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
            "docs/archive/cleanup-plan.md",
            "docs/old/qa.md",
            "docs/oldies.md",
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
                "docs/archive/cleanup-plan.md",
                "docs/old/qa.md",
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
}
