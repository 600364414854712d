//! The npm registry, as a package's `package.json` describes it: npm shows a
//! published package's `README.md` on the package's page and rewrites its
//! relative links to the repository the `repository` field names, from that
//! repository's root unless the field's `directory` says where the package
//! lives. A package README in a folder of a monorepo whose `repository`
//! names no `directory` is read from the root there (`[MIT](./LICENSE)` in
//! `packages/kit/README.md` opens the root's `LICENSE`), whatever the forge
//! makes of it.

use crate::snapshot::Snapshot;

/// The most of a `package.json` read.
const MAX_MANIFEST_BYTES: usize = 256 * 1024;

/// The READMEs (repository-relative) npm renders with links read from the
/// repository's root: each beside a published `package.json` below the root
/// whose `repository` names no `directory`.
pub(super) fn root_read_readmes(snapshot: &dyn Snapshot) -> Vec<String> {
    let paths = snapshot.paths();
    paths
        .iter()
        .filter_map(|manifest| {
            let folder = manifest.strip_suffix("/package.json")?;
            if crate::checks::cites::locate::is_vendored(manifest) {
                return None;
            }
            let readme = format!("{folder}/README.md");
            crate::snapshot::has_file(paths, &readme).then_some(())?;
            let text = snapshot.read_text_to_parse(manifest).ok().flatten()?;
            if text.len() > MAX_MANIFEST_BYTES {
                return None;
            }
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            reads_from_root(&value).then_some(readme)
        })
        .collect()
}

/// Whether npm reads a package's README links from its repository's root:
/// the package is published (not `private`) and its `repository` (a string,
/// or an object with a `url`) names no `directory`.
fn reads_from_root(manifest: &serde_json::Value) -> bool {
    if manifest.get("private").and_then(serde_json::Value::as_bool) == Some(true) {
        return false;
    }
    match manifest.get("repository") {
        Some(serde_json::Value::String(url)) => !url.is_empty(),
        Some(serde_json::Value::Object(fields)) => {
            fields.get("url").is_some_and(serde_json::Value::is_string)
                && !fields.contains_key("directory")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_package_readme_with_no_directory_is_read_from_the_root() {
        let snapshot = MemorySnapshot::new(&[
            ("LICENSE", "MIT"),
            ("package.json", r#"{"private": true}"#),
            ("packages/kit/README.md", "[MIT](./LICENSE)"),
            (
                "packages/kit/package.json",
                r#"{"name": "kit", "repository": "https://github.com/o/r"}"#,
            ),
            ("packages/cli/README.md", "[MIT](./LICENSE)"),
            (
                "packages/cli/package.json",
                r#"{"name": "cli", "repository": {"type": "git", "url": "https://github.com/o/r", "directory": "packages/cli"}}"#,
            ),
            ("packages/internal/README.md", ""),
            (
                "packages/internal/package.json",
                r#"{"private": true, "repository": "https://github.com/o/r"}"#,
            ),
        ]);
        assert_eq!(root_read_readmes(&snapshot), ["packages/kit/README.md"]);
    }
}
