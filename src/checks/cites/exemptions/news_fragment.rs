//! Exemption `news-fragment`, in the path chain: a file in the folder a
//! release tool collects its change notes from, which each release empties
//! into the changelog. The tool's configuration is the tree's own word, and
//! the commit that deleted the fragment is the release that used it: the
//! history does not overrule it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path or link that names nothing here, inside the folder a release tool of the repository collects its change notes from: towncrier's `directory` (its `towncrier.toml` or `pyproject.toml`'s `[tool.towncrier]`; `newsfragments/` beside the configuration, or under its `package`, when it names none), changesets' `.changeset/` (with its `config.json`), scriv's `fragment_directory` (`changelog.d/` unless its configuration names another). Each release deletes the fragments it folds into the changelog, so a page that names one (a contributing guide's example, `newsfragments/3651.minor`) names a file the release process consumes, not a drift; the history does not overrule it (the deleting commit is that release).",
    applies: Applies::PathOrLink,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let folders = probe.context.fragment_folders();
    let (folder, tool) = folders
        .iter()
        .find(|(folder, _)| probe.path.starts_with(&format!("{folder}/")))?;
    Some(format!(
        "`{folder}/` holds the change notes {tool} folds into the changelog at each release, deleting them"
    ))
}

/// Folders release tools collect change notes from, each with the tool's
/// name (`("newsfragments", "towncrier")`).
pub(in crate::checks::cites) type FragmentFolders = Vec<(String, &'static str)>;

/// The folders the tree's release tools collect change notes from, each
/// with the tool's name: read from their configuration at the root.
pub(in crate::checks::cites) fn fragment_folders(
    snapshot: &dyn crate::snapshot::Snapshot,
) -> FragmentFolders {
    let read = |path: &str| -> Option<toml::Table> {
        let text = snapshot.read_text_to_parse(path).ok().flatten()?;
        text.parse::<toml::Table>().ok()
    };
    let string = |table: &toml::Table, key: &str| -> Option<String> {
        table
            .get(key)?
            .as_str()
            .map(|s| s.trim_matches('/').trim_start_matches("./").to_owned())
            .filter(|s| !s.is_empty() && !s.split('/').any(|part| part == ".."))
    };
    let tool = |table: Option<&toml::Table>, name: &str| -> Option<toml::Table> {
        table?.get("tool")?.get(name)?.as_table().cloned()
    };
    let mut found = FragmentFolders::new();
    let pyproject = read("pyproject.toml");
    let towncrier = read("towncrier.toml")
        .as_ref()
        .and_then(|t| tool(Some(t), "towncrier"))
        .or_else(|| tool(pyproject.as_ref(), "towncrier"));
    if let Some(config) = towncrier {
        let folder = string(&config, "directory").unwrap_or_else(|| {
            // towncrier's default: `newsfragments` in the package, else
            // beside the configuration.
            match (string(&config, "package_dir"), string(&config, "package")) {
                (Some(dir), Some(package)) => format!("{dir}/{package}/newsfragments"),
                (None, Some(package)) => format!("{package}/newsfragments"),
                _ => "newsfragments".to_owned(),
            }
        });
        found.push((folder, "towncrier"));
    }
    if snapshot
        .paths()
        .binary_search_by(|p| p.as_str().cmp(".changeset/config.json"))
        .is_ok()
    {
        found.push((".changeset".to_owned(), "changesets"));
    }
    let scriv = read("scriv.toml")
        .as_ref()
        .and_then(|t| tool(Some(t), "scriv"))
        .or_else(|| tool(pyproject.as_ref(), "scriv"));
    if let Some(config) = scriv {
        let folder =
            string(&config, "fragment_directory").unwrap_or_else(|| "changelog.d".to_owned());
        found.push((folder, "scriv"));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    fn folders(files: &[(&str, &str)]) -> FragmentFolders {
        fragment_folders(&MemorySnapshot::new(files))
    }

    #[test]
    fn fires_in_the_folders_the_release_tools_name() {
        let towncrier =
            "[tool.towncrier]\npackage = \"allmydata\"\ndirectory = \"newsfragments\"\n";
        assert_eq!(
            folders(&[("towncrier.toml", towncrier)]),
            [("newsfragments".to_owned(), "towncrier")]
        );
        // No `directory`: the package's own `newsfragments`.
        let packaged = "[tool.towncrier]\npackage_dir = \"src\"\npackage = \"kit\"\n";
        assert_eq!(
            folders(&[("pyproject.toml", packaged)]),
            [("src/kit/newsfragments".to_owned(), "towncrier")]
        );
        assert_eq!(
            folders(&[(".changeset/config.json", "{}"), ("README.md", "")]),
            [(".changeset".to_owned(), "changesets")]
        );
        assert_eq!(
            folders(&[("pyproject.toml", "[tool.scriv]\nformat = \"md\"\n")]),
            [("changelog.d".to_owned(), "scriv")]
        );
    }

    #[test]
    fn stays_quiet_with_no_release_tool() {
        // A project table that is not a release tool's, a folder that leaves
        // the repository, and a `.changeset/` folder with no configuration.
        assert!(folders(&[("pyproject.toml", "[tool.black]\nline-length = 88\n")]).is_empty());
        assert!(
            folders(&[(
                "towncrier.toml",
                "[tool.towncrier]\ndirectory = \"../notes\"\n"
            )])
            .iter()
            .all(|(folder, _)| folder == "newsfragments")
        );
        assert!(folders(&[(".changeset/README.md", "")]).is_empty());
    }
}
