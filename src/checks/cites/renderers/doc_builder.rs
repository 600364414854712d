//! Stage 4, the citation family: Hugging Face's doc-builder, read
//! statically. A docs language folder's `_redirects.yml` (`old-page:
//! guides/new-page`) keeps each old page's address serving the new page, as
//! front matter's `aliases:` do on a Hugo site (`hugo::page_aliases`).

use std::collections::BTreeMap;

use crate::snapshot::Snapshot;

/// The names doc-builder reads its redirect table from.
const TABLES: [&str; 2] = ["_redirects.yml", "_redirects.yaml"];

/// The table bytes read at most: a table lists page names.
const MAX_TABLE_BYTES: usize = 256 * 1024;

/// The most redirect tables read.
const MAX_TABLES: usize = 64;

/// The old addresses redirect tables keep, as a path of the tree (no
/// extension) → the page its entry sends readers to, for each entry whose
/// page the tree has (`docs/source/en/package_reference/login` →
/// `docs/source/en/package_reference/authentication.md`). An entry is read
/// from its table's folder.
pub(in crate::checks::cites) fn redirect_aliases(
    snapshot: &dyn Snapshot,
    paths: &[String],
) -> BTreeMap<String, String> {
    let mut aliases = BTreeMap::new();
    let tables = paths
        .iter()
        .filter(|p| TABLES.contains(&p.rsplit('/').next().unwrap_or(p)))
        .take(MAX_TABLES);
    for table in tables {
        let Ok(Some(text)) = snapshot.read_text_to_parse(table) else {
            continue;
        };
        let folder = table.rsplit_once('/').map_or("", |(folder, _)| folder);
        let text = text.get(..MAX_TABLE_BYTES.min(text.len())).unwrap_or(&text);
        for (old, new) in entries(text) {
            let under = |name: &str| {
                if folder.is_empty() {
                    name.to_owned()
                } else {
                    format!("{folder}/{name}")
                }
            };
            let target = under(new);
            let page = [".md", ".mdx", ".rst"]
                .iter()
                .map(|ext| format!("{target}{ext}"))
                .chain([format!("{target}/index.md")])
                .find(|page| paths.binary_search(page).is_ok());
            if let Some(page) = page {
                aliases.insert(under(old), page);
            }
        }
    }
    aliases
}

/// A table's `old: new` entries (comments and blank lines left out), each
/// name without a leading or trailing `/`.
fn entries(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines().filter_map(|line| {
        let line = line.split(" #").next().unwrap_or(line).trim();
        if line.starts_with('#') {
            return None;
        }
        let (old, new) = line.split_once(':')?;
        let old = old.trim().trim_matches(['"', '\'']).trim_matches('/');
        let new = new.trim().trim_matches(['"', '\'']).trim_matches('/');
        let named = |s: &str| {
            !s.is_empty()
                && !s.contains("..")
                && !s.contains("://")
                && s.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        };
        (named(old) && named(new)).then_some((old, new))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_redirect_tables_entries_send_an_old_page_to_the_new_one() {
        let tree = MemorySnapshot::new(&[
            (
                "docs/source/en/_redirects.yml",
                "# Moved pages\nhow-to-cache: guides/manage-cache\npackage_reference/login: package_reference/authentication\ngone: nowhere\n",
            ),
            ("docs/source/en/guides/manage-cache.md", "# Cache\n"),
            (
                "docs/source/en/package_reference/authentication.md",
                "# Auth\n",
            ),
        ]);
        let paths = tree.paths().to_vec();
        let aliases = redirect_aliases(&tree, &paths);
        assert_eq!(
            aliases
                .get("docs/source/en/package_reference/login")
                .map(String::as_str),
            Some("docs/source/en/package_reference/authentication.md")
        );
        assert_eq!(
            aliases
                .get("docs/source/en/how-to-cache")
                .map(String::as_str),
            Some("docs/source/en/guides/manage-cache.md")
        );
        // An entry whose page the tree lacks sends readers nowhere.
        assert_eq!(aliases.get("docs/source/en/gone"), None);
    }
}
