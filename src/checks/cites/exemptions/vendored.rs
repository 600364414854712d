//! Exemption `vendored`, decided where records are chosen (`scope.rs` asks
//! it): a record of another project's code copied in — a vendoring folder,
//! or a folder under another holder's licence — cites that project's tree.
//! The tree's own shape, set aside whole: the history does not overrule it.

use super::{Applies, Definition};
use crate::checks::cites::locate::PROJECT_MANIFESTS;
use crate::frames::Frame;
use crate::snapshot::has_file;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record of vendored code (`vendor/`, `third_party/`, `node_modules/`, `_vendor/`, `deps/`, `3rdparty/`, `extern/`, or a folder under another holder's licence, or a folder a sync or provenance file under a dot-folder names as the destination of another repository's files: `repo: owner/name` … `subdir: docs/crucible-go`, or an agent skill's folder, `…/skills/NAME/`, that the root's `skills-lock.json` records as installed from another repository, or a crate as its registry published it, stamped `.cargo_vcs_info.json`): another project's documentation, citing its own tree. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Whether a record sits in a folder (below the root) that carries its own
/// licence, not the project's: content copied in from another project (an
/// agent skill, a vendored library's guide), whose links name that project's
/// files. A monorepo's package (a licence beside its manifest) and a package
/// whose licence names the root licence's copyright holder stay records, and
/// so does a documentation folder licensed apart (`docs/LICENSE`, CC BY).
pub(in crate::checks::cites) fn under_a_copied_licence(record: &str, frame: &Frame) -> bool {
    const LICENCES: [&str; 5] = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING"];
    let tree = frame.snapshot.paths();
    let text_of = |path: &str| frame.snapshot.read_text_to_parse(path).ok().flatten();
    let mut folder = record;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        folder = parent;
        let has = |name: &str| has_file(tree, &format!("{folder}/{name}"));
        let Some(licence) = LICENCES.iter().find(|l| has(l)) else {
            continue;
        };
        if PROJECT_MANIFESTS.iter().any(|m| has(m)) {
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

/// The folders that hold a package as its registry published it: `cargo
/// package` writes `.cargo_vcs_info.json` (the commit of the repository it
/// was cut from) into every crate it packs, and no project's own source tree
/// has one. Such a folder is a crate copied in (a benchmark's input, a
/// patched dependency); its pages cite the tree it was packed from, and
/// files the packing left out.
pub(in crate::checks::cites) fn packaged_folders(frame: &Frame) -> Vec<String> {
    frame
        .snapshot
        .paths()
        .iter()
        .filter_map(|path| path.strip_suffix("/.cargo_vcs_info.json"))
        .map(str::to_owned)
        .collect()
}

/// The folders a sync or provenance file of the tree says another
/// repository's files are copied into: a configuration file (`.yaml`,
/// `.yml`, `.json`, `.toml`, under a dot-folder: a tool's own) that names a
/// repository as a source (`repo: owner/name`, `repo_url:
/// https://github.com/owner/name`) and, as a destination (`subdir:`,
/// `dest:`, `target:`, `into:`, an `outputs` entry …), a folder the tree
/// has below its root (`docs/crucible-go`). The files there are that
/// repository's, kept in step by a tool, and cite its tree.
pub(in crate::checks::cites) fn synced_folders(frame: &Frame) -> Vec<String> {
    use std::sync::OnceLock;
    const MAX_FILES: usize = 200;
    const MAX_FILE_BYTES: usize = 64 * 1024;
    static SOURCE: OnceLock<regex::Regex> = OnceLock::new();
    static DESTINATION: OnceLock<regex::Regex> = OnceLock::new();
    let source = SOURCE.get_or_init(|| {
        regex::Regex::new(r#"(?im)^[ \t-]*"?(?:repo|repo_url|repository|source_repo|upstream|upstream_repo)"?[ \t]*[:=][ \t]*"?(?:https?://[a-z0-9.-]+/)?[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"?[ \t]*,?[ \t]*$"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let destination = DESTINATION.get_or_init(|| {
        regex::Regex::new(r#"(?i)(?:^|[\s{,"])(?:subdir|dest|dest_dir|destination|target|target_dir|into|output|output_dir|doc|docs|config|schema|schemas)"?[ \t]*[:=][ \t]*"?([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)"?"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let tree = frame.snapshot.paths();
    let mut folders = Vec::new();
    let configs = tree
        .iter()
        .filter(|p| {
            let config = [".yaml", ".yml", ".json", ".toml"]
                .iter()
                .any(|e| p.ends_with(e));
            // A tool's own folder (`.goneat/`), not the root's manifests
            // (`package.json`, `mkdocs.yml`), which name the project itself.
            config && p.starts_with('.') && p.contains('/') && !p.starts_with(".github/")
        })
        .take(MAX_FILES);
    for path in configs {
        let size = frame.snapshot.size(path).ok().flatten();
        if size.is_none_or(|size| size > MAX_FILE_BYTES as u64) {
            continue;
        }
        let Some(text) = frame.snapshot.read_text_to_parse(path).ok().flatten() else {
            continue;
        };
        if !source.is_match(&text) {
            continue;
        }
        for caps in destination.captures_iter(&text) {
            let Some(folder) = caps.get(1).map(|m| m.as_str().trim_end_matches('/')) else {
                continue;
            };
            if folder.contains('/')
                && !folder.starts_with('.')
                && crate::snapshot::has_folder(tree, folder)
                && !folders.iter().any(|f| f == folder)
            {
                folders.push(folder.to_owned());
            }
        }
    }
    folders.extend(installed_skills(frame));
    folders.sort();
    folders.dedup();
    folders
}

/// The folders of agent skills a skills lock file (`skills-lock.json` at
/// the root, as skill installers write it) records as installed from
/// another repository (`"source": "vercel-labs/agent-skills"`): each
/// `…/skills/NAME/` folder of the tree for a skill named so. Its pages are
/// that repository's, pinned by hash, and cite its tree.
fn installed_skills(frame: &Frame) -> Vec<String> {
    const MAX_LOCK_BYTES: u64 = 1024 * 1024;
    const LOCK: &str = "skills-lock.json";
    let tree = frame.snapshot.paths();
    if !has_file(tree, LOCK)
        || frame
            .snapshot
            .size(LOCK)
            .ok()
            .flatten()
            .is_none_or(|size| size > MAX_LOCK_BYTES)
    {
        return Vec::new();
    }
    let Some(lock) = frame
        .snapshot
        .read_text_to_parse(LOCK)
        .ok()
        .flatten()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
    else {
        return Vec::new();
    };
    let Some(skills) = lock.get("skills").and_then(serde_json::Value::as_object) else {
        return Vec::new();
    };
    let installed: Vec<&str> = skills
        .iter()
        .filter(|(_, skill)| {
            skill
                .get("source")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|source| {
                    let parts: Vec<&str> = source.trim_end_matches('/').split('/').collect();
                    parts.len() >= 2 && parts.iter().all(|p| !p.is_empty() && *p != "..")
                })
        })
        .map(|(name, _)| name.as_str())
        .filter(|name| !name.is_empty() && !name.contains(['/', '\\']) && *name != "..")
        .collect();
    let mut folders: Vec<String> = Vec::new();
    for path in tree {
        for name in &installed {
            let tail = format!("skills/{name}/");
            let Some(at) = path.find(&tail) else {
                continue;
            };
            if at > 0 && !path[..at].ends_with('/') {
                continue;
            }
            let folder = &path[..at + tail.len() - 1];
            if !folders.iter().any(|f| f == folder) {
                folders.push(folder.to_owned());
            }
        }
    }
    folders
}

/// Who a licence says holds the copyright: the first `Copyright` line without
/// its years and marks ("Copyright (c) 2020-2025 Acme Inc." gives "Acme Inc.").
fn copyright_holder(licence: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::locate::is_vendored;

    #[test]
    fn fires_for_a_vendoring_folder_and_another_holders_licence() {
        assert!(is_vendored("vendor/github.com/x/README.md"));
        assert!(is_vendored("src/pip/_vendor/rich/README.md"));
        assert!(is_vendored("deps/c-ares/README.md"));
        assert_eq!(
            copyright_holder(
                "MIT License\n\nCopyright (c) 2020-2025 Acme Inc.  All rights reserved.\n"
            ),
            Some("Acme Inc.".to_owned())
        );
    }

    #[test]
    fn a_folder_a_sync_file_fills_from_another_repository_is_its() {
        use crate::snapshot::memory::MemorySnapshot;
        let frame =
            |files: &[(&str, &str)]| Frame::new(std::sync::Arc::new(MemorySnapshot::new(files)));
        let consumer = "sources:\n  - name: crucible\n    repo: acme/crucible\n    ref: v0.4.5\n    assets:\n      - type: doc\n        subdir: docs/crucible-go\n";
        let tree = frame(&[
            (".tool/ssot-consumer.yaml", consumer),
            ("docs/crucible-go/guide.md", "# Guide\n"),
            ("docs/own.md", "# Own\n"),
        ]);
        assert_eq!(synced_folders(&tree), ["docs/crucible-go"]);
        // A destination with no source repository named, or a folder the
        // tree lacks, is no such copy.
        let tree = frame(&[
            ("deploy.yaml", "target: docs/site\noutput: build/out\n"),
            ("docs/site/index.md", "# Site\n"),
        ]);
        assert!(synced_folders(&tree).is_empty());
        let tree = frame(&[(".sync.yaml", consumer), ("docs/own.md", "# Own\n")]);
        assert!(synced_folders(&tree).is_empty());
    }

    #[test]
    fn a_skill_a_lock_file_installs_from_another_repository_is_its() {
        use crate::snapshot::memory::MemorySnapshot;
        let lock = r#"{"version": 1, "skills": {"zod": {"source": "acme/agent-skills", "computedHash": "ab"}, "ours": {"source": "", "computedHash": "cd"}}}"#;
        let frame = Frame::new(std::sync::Arc::new(MemorySnapshot::new(&[
            ("skills-lock.json", lock),
            (".agents/skills/zod/AGENTS.md", "# Zod\n"),
            (".claude/skills/zod/SKILL.md", "# Zod\n"),
            (".agents/skills/ours/SKILL.md", "# Ours\n"),
            ("docs/zod/guide.md", "# Guide\n"),
        ])));
        assert_eq!(
            synced_folders(&frame),
            [".agents/skills/zod", ".claude/skills/zod"]
        );
        // No lock file: no skill is another repository's.
        let frame = Frame::new(std::sync::Arc::new(MemorySnapshot::new(&[(
            ".agents/skills/zod/AGENTS.md",
            "# Zod\n",
        )])));
        assert!(synced_folders(&frame).is_empty());
    }

    #[test]
    fn a_folder_holding_a_published_crate_is_that_crates() {
        use crate::snapshot::memory::MemorySnapshot;
        let frame = Frame::new(std::sync::Arc::new(MemorySnapshot::new(&[
            ("bench/cargo-0.87.1/.cargo_vcs_info.json", "{}"),
            ("bench/cargo-0.87.1/README.md", "# Cargo\n"),
            ("bench/own/README.md", "# Own\n"),
            ("Cargo.toml", "[package]\n"),
        ])));
        assert_eq!(packaged_folders(&frame), ["bench/cargo-0.87.1"]);
        let frame = Frame::new(std::sync::Arc::new(MemorySnapshot::new(&[(
            "crates/own/Cargo.toml",
            "[package]\n",
        )])));
        assert!(packaged_folders(&frame).is_empty());
    }

    #[test]
    fn stays_quiet_for_the_projects_own_pages() {
        assert!(!is_vendored("docs/vendors.md"));
        assert!(!is_vendored("docs/deps.md"));
        assert!(!is_vendored("README.md"));
        assert_eq!(copyright_holder("MIT License\n"), None);
    }
}
