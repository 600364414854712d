//! Exemption `copied-record`, decided where records are chosen (`gather.rs`
//! and the transcripts ask it): a page whose front matter names the
//! repository it was copied from cites that repository's tree, and a page
//! whose text (after front matter) is another record's is a copy of it, read
//! once, as the original. The record's own statement and the tree's: the
//! history does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record whose front matter names the repository it was copied from (`source:`, `upstream:`): its citations are of that tree. A record whose text after front matter of its own is another record's (256 bytes or more: a knowledge store's verbatim copies): read once, as the original, the one the history had first; the same page in two folders with no front matter of its own is two pages, unless a manifest of the tree (a `.sql`, `.py`, `.json`, `.toml`, `.yaml` or `.csv` file) names the original's path with the copy's path on the same line, or names it and the SHA-256 of the copy's text anywhere in the file, as a content-hashed store does, or a build file (a `Makefile`, a shell script, a workflow) names a folder holding the copy and not the original (`internal/assets/embedded_docs`, where `make embed-assets` syncs `docs/`). Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The repository a page says it was copied from: a front matter key
/// (`repository`, `repo`, `source`, `upstream`) whose value is a git host's
/// address — a theme gallery's page is its theme's README, and its relative
/// links are of that repository's tree.
pub(crate) fn copied_from(text: &str) -> Option<String> {
    let (front, _) = split_front(text);
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

/// A record's front matter (`---` or `+++` fenced, fences and all; empty
/// when it has none) and its text after it, each trimmed: what a copy with
/// front matter of its own shares with its original is the second.
fn split_front(text: &str) -> (&str, &str) {
    let trimmed = text.trim_start_matches(['\n', '\u{feff}']);
    for fence in ["---", "+++"] {
        if let Some(rest) = trimmed.strip_prefix(&format!("{fence}\n"))
            && let Some(end) = rest.find(&format!("\n{fence}"))
        {
            let cut = fence.len() + 1 + end + 1 + fence.len();
            return (trimmed[..cut].trim(), trimmed[cut..].trim());
        }
    }
    ("", trimmed.trim())
}

/// A body shorter than this is not called a copy: two stubs, or two pages
/// that only include a third, share their few bytes by chance.
const MIN_COPY_BYTES: usize = 256;

/// The records that are verbatim copies of another record of the tree — the
/// same text after front matter, at least [`MIN_COPY_BYTES`] of it — each
/// with the record it copies (a knowledge store's content-hashed copies of a
/// project's decision records). Of a set of equal records the original is
/// the one `first_seen` says the history had first (its position back from
/// the audited commit: larger is older), ties going to the path first in
/// order; the others that carry front matter of their own, not the
/// original's, are its copies, read once, as the original (a page the same
/// but for whitespace, or with the same front matter, is the same page in
/// another folder, rendered there) — unless a manifest of the tree names it
/// as a copy of the original: `named` is asked once, with every such
/// (copy, original, copy's text), and answers which are (see
/// [`names_a_copy`]).
pub(crate) fn verbatim_copies(
    records: &[(String, std::sync::Arc<str>)],
    mut first_seen: impl FnMut(&str) -> usize,
    named: impl FnOnce(&[(&str, &str, &str)]) -> Vec<bool>,
) -> std::collections::BTreeMap<String, String> {
    let mut by_body: std::collections::BTreeMap<&str, Vec<&String>> = Default::default();
    let mut texts: std::collections::BTreeMap<&String, &str> = Default::default();
    for (path, text) in records {
        let (_, body) = split_front(text);
        if body.len() >= MIN_COPY_BYTES {
            by_body.entry(body).or_default().push(path);
            texts.insert(path, text);
        }
    }
    let mut copies = std::collections::BTreeMap::new();
    let mut undecided: Vec<(String, String)> = Vec::new();
    for (_, mut same) in by_body {
        if same.len() < 2 {
            continue;
        }
        same.sort();
        let Some(original) = same
            .iter()
            .enumerate()
            .max_by_key(|(i, path)| (first_seen(path), std::cmp::Reverse(*i)))
            .map(|(_, path)| (*path).clone())
        else {
            continue;
        };
        // A page the same byte for byte is the same page in two places
        // (a tutorial's steps, a template's locales), each rendered where it
        // is: only a copy under front matter of its own is a store's.
        let original_front = texts.get(&original).map(|t| split_front(t).0);
        for path in same {
            if *path == original {
                continue;
            }
            let text = texts.get(path).copied().unwrap_or_default();
            let front = split_front(text).0;
            if !front.is_empty() && Some(front) != original_front {
                copies.insert(path.clone(), original.clone());
            } else {
                undecided.push((path.clone(), original.clone()));
            }
        }
    }
    if !undecided.is_empty() {
        let asked: Vec<(&str, &str, &str)> = undecided
            .iter()
            .map(|(copy, original)| {
                let text = texts.get(copy).copied().unwrap_or_default();
                (copy.as_str(), original.as_str(), text)
            })
            .collect();
        let answers = named(&asked);
        for ((copy, original), is_copy) in undecided.iter().zip(answers) {
            if is_copy {
                copies.insert(copy.clone(), original.clone());
            }
        }
    }
    copies
}

/// The verbatim copies among `read` (path, text) in the tree of `commit`
/// (`None`: the working tree, its history HEAD's), each with its original
/// ([`verbatim_copies`]): the history says which was first, and the tree's
/// manifests, read only when two records are the same page with no front
/// matter to say which is the copy, each once and kept no longer. What the
/// citation checks and `recount init` both read records once by.
pub(crate) fn copies_in(
    repo: &crate::snapshot::GitRepo,
    snapshot: &dyn crate::snapshot::Snapshot,
    commit: Option<&str>,
    read: &[(String, std::sync::Arc<str>)],
) -> std::collections::BTreeMap<String, String> {
    let start = repo.commit_id(commit.unwrap_or("HEAD"));
    let mut line = Vec::new();
    verbatim_copies(
        read,
        |path| start.map_or(0, |start| first_seen(repo, start, &mut line, path)),
        |asked| {
            let mut named = vec![false; asked.len()];
            let hashes: Vec<[String; 2]> = asked
                .iter()
                .map(|(_, _, text)| content_hashes(text))
                .collect();
            // Each (copy, manifest or build file) pair searches the file's
            // text: within one budget, so thousands of copies beside large
            // manifests cost no more than it; a copy not asked stays a page
            // of its own.
            const MAX_SEARCHED_BYTES: usize = 64 * 1024 * 1024;
            let mut searched = 0usize;
            'manifests: for manifest in snapshot.paths().iter().filter(|p| may_be_manifest(p)) {
                if named.iter().all(|n| *n) {
                    break;
                }
                let Some(text) = snapshot.read_text_to_parse(manifest).ok().flatten() else {
                    continue;
                };
                for (n, (copy, original, _)) in asked.iter().enumerate() {
                    if named[n] {
                        continue;
                    }
                    searched += text.len();
                    if searched > MAX_SEARCHED_BYTES {
                        break 'manifests;
                    }
                    named[n] = names_a_copy(&text, copy, original, &hashes[n]);
                }
            }
            if named.iter().all(|n| *n) || searched > MAX_SEARCHED_BYTES {
                return named;
            }
            // A build that names the copy's folder made it (`make
            // embed-assets` syncing `docs/` into the folder a binary embeds).
            'builds: for (build, text) in super::generated_page::generator_files(snapshot) {
                if !super::generated_page::is_build_file(&build) {
                    continue;
                }
                for (n, (copy, original, _)) in asked.iter().enumerate() {
                    if named[n] {
                        continue;
                    }
                    searched += text.len();
                    if searched > MAX_SEARCHED_BYTES {
                        break 'builds;
                    }
                    named[n] = names_the_copys_folder(&text, copy, original);
                }
            }
            named
        },
    )
}

/// Whether a build file's `text` names the folder the copy was put in: the
/// folder holding `copy` below which its path is the original's, or a tail
/// of it (`internal/assets/embedded_docs` for
/// `internal/assets/embedded_docs/docs/x.md` of `docs/x.md`), two levels
/// deep at least: the build writes the copy there.
fn names_the_copys_folder(text: &str, copy: &str, original: &str) -> bool {
    copy.match_indices('/').skip(1).any(|(at, _)| {
        let (folder, rest) = (&copy[..at], &copy[at + 1..]);
        (original == rest || original.ends_with(&format!("/{rest}")))
            && !original.starts_with(&format!("{folder}/"))
            && text.match_indices(folder).any(|(found, _)| {
                // The folder as a path of its own, not the tail of a longer one.
                let before = text[..found].chars().next_back();
                let after = text[found + folder.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                    && !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            })
    })
}

/// How far back along the first-parent line from `start` the tree holds
/// `path` without a break: the position of the oldest commit of that run
/// (0 when only the audited tree has it), found by galloping and halving.
/// `line` keeps the commits read, shared by every path asked.
fn first_seen(
    repo: &crate::snapshot::GitRepo,
    start: git2::Oid,
    line: &mut Vec<git2::Oid>,
    path: &str,
) -> usize {
    /// A bound on the line read, so a cyclic or corrupt history ends.
    const DEPTH: usize = 1 << 24;
    let mut at = |position: usize| -> Option<git2::Oid> {
        if line.is_empty() {
            line.push(start);
        }
        while line.len() <= position && line.len() < DEPTH {
            let next = repo.first_parent_of(*line.last()?)?;
            line.push(next);
        }
        line.get(position).copied()
    };
    let mut holds =
        |position: usize| at(position).is_some_and(|c| repo.path_ids(c, &[path])[0].is_some());
    if !holds(0) {
        return 0;
    }
    let (mut good, mut step) = (0usize, 1usize);
    let mut bad = loop {
        let probe = good + step;
        if probe >= DEPTH || !holds(probe) {
            break probe;
        }
        good = probe;
        step *= 2;
    };
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if holds(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

/// Files a knowledge store's manifest may be (a migration, a registry, an
/// index): read only when two records are the same page and front matter
/// does not say which is the copy.
pub(crate) fn may_be_manifest(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [
        ".sql", ".py", ".json", ".jsonl", ".toml", ".yaml", ".yml", ".csv",
    ]
    .iter()
    .any(|ext| lower.ends_with(ext))
}

/// The SHA-256 (lower-case hex) of a copy's whole text and of its text
/// after front matter: what a content-hashed store records of it.
pub(crate) fn content_hashes(text: &str) -> [String; 2] {
    use sha2::Digest;
    let hex = |bytes: &[u8]| -> String {
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    [hex(text.as_bytes()), hex(split_front(text).1.as_bytes())]
}

/// Whether `manifest` names `copy` as a copy of `original`, as a
/// content-hashed store records where each copy came from: the original's
/// path with the copy's path on the same line (a row), or the original's
/// path and one of the copy's [`content_hashes`] anywhere in it (an entry,
/// however the store lays its entries out: a real store's migration puts
/// 700 bytes of metadata between the two). The hash is of the copy's very
/// text, which is the original's, so no other page can stand behind it. A
/// file that merely lists both pages on lines of their own (a site's
/// navigation) names no copy.
pub(crate) fn names_a_copy(manifest: &str, copy: &str, original: &str, hashes: &[String]) -> bool {
    if !manifest.contains(original) {
        return false;
    }
    hashes.iter().any(|h| manifest.contains(h.as_str()))
        || manifest.match_indices(original).any(|(at, _)| {
            let line_start = manifest[..at].rfind('\n').map_or(0, |n| n + 1);
            let line_end = manifest[at..].find('\n').map_or(manifest.len(), |n| at + n);
            manifest[line_start..line_end]
                .replacen(original, "", 1)
                .contains(copy)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_equal_to_another_after_front_matter_is_its_copy() {
        let page = "# Decision\n\n".to_owned() + &"We keep the schemas in one folder. ".repeat(10);
        let copy = format!("---\nsource_path: docs/adr/0001.md\nsha256: ab12\n---\n{page}\n");
        let near = page.replace("one folder", "two folders");
        let records: Vec<(String, std::sync::Arc<str>)> = vec![
            ("docs/adr/0001.md".to_owned(), page.as_str().into()),
            ("kb/adr-0001.md".to_owned(), copy.as_str().into()),
            ("kb/adr-0001-draft.md".to_owned(), near.as_str().into()),
        ];
        // The original is the one the history had first, whatever its path.
        let copies = verbatim_copies(
            &records,
            |p| if p.starts_with("docs/") { 9 } else { 2 },
            |asked| vec![false; asked.len()],
        );
        assert_eq!(
            copies.into_iter().collect::<Vec<_>>(),
            [("kb/adr-0001.md".to_owned(), "docs/adr/0001.md".to_owned())]
        );
        // A page with no front matter of its own is no store's copy, even of
        // an older page: both are read.
        let copies = verbatim_copies(
            &records,
            |p| if p.starts_with("kb/") { 9 } else { 2 },
            |asked| vec![false; asked.len()],
        );
        assert!(copies.is_empty(), "{copies:?}");
        // The same page byte for byte in two folders is two pages.
        let twins: Vec<(String, std::sync::Arc<str>)> = vec![
            ("steps/one/README.md".to_owned(), page.as_str().into()),
            ("steps/two/README.md".to_owned(), page.as_str().into()),
        ];
        assert!(verbatim_copies(&twins, |_| 0, |asked| vec![false; asked.len()]).is_empty());
        // Unless a manifest of the tree names one as a copy of the other.
        let named = verbatim_copies(
            &twins,
            |p| usize::from(p.contains("one")),
            |asked| {
                asked
                    .iter()
                    .map(|(copy, original, _)| {
                        *copy == "steps/two/README.md" && *original == "steps/one/README.md"
                    })
                    .collect()
            },
        );
        assert_eq!(
            named.into_iter().collect::<Vec<_>>(),
            [(
                "steps/two/README.md".to_owned(),
                "steps/one/README.md".to_owned()
            )]
        );
        // Short pages are never copies.
        let stubs: Vec<(String, std::sync::Arc<str>)> = vec![
            ("a.md".to_owned(), "# TODO\n".into()),
            ("b.md".to_owned(), "# TODO\n".into()),
        ];
        assert!(verbatim_copies(&stubs, |_| 0, |asked| vec![true; asked.len()]).is_empty());
    }

    #[test]
    fn a_build_that_names_the_copys_folder_made_the_copy() {
        let script = "DOCS_TARGET=\"$ROOT_DIR/internal/assets/embedded_docs/docs\"\nrsync -a --delete \"$src\"/ \"$dst\"/\n";
        let copy = "internal/assets/embedded_docs/docs/guide/assess.md";
        assert!(names_the_copys_folder(script, copy, "docs/guide/assess.md"));
        // A folder the original shares, or one named only as part of a
        // longer name, is not the copy's.
        assert!(!names_the_copys_folder(
            "mkdocs build -f docs/mkdocs.yml\n",
            "docs/a/x.md",
            "docs/b/x.md"
        ));
        assert!(!names_the_copys_folder(
            "cp x internal/assets/embedded_docs_old/\n",
            copy,
            "docs/guide/assess.md"
        ));
    }

    #[test]
    fn a_manifest_names_a_copy_by_its_path_or_its_hash_beside_its_source() {
        let page = "# Decision\n\nWe keep the schemas in one folder.\n";
        let hashes = content_hashes(page);
        let by_path = "INSERT INTO copies VALUES ('docs/adr/0001.md', 'kb/0001.md');";
        assert!(names_a_copy(
            by_path,
            "kb/0001.md",
            "docs/adr/0001.md",
            &hashes
        ));
        // The source alone, or the copy alone, is not a manifest of this copy.
        assert!(!names_a_copy(
            by_path,
            "kb/0002.md",
            "docs/adr/0002.md",
            &hashes
        ));
        assert!(!names_a_copy(
            "kb/0001.md",
            "kb/0001.md",
            "docs/adr/0001.md",
            &hashes
        ));
        // A navigation listing both pages, a line each, names no copy.
        let nav = "nav:\n  - docs/adr/0001.md\n  - kb/0001.md\n";
        assert!(!names_a_copy(
            nav,
            "kb/0001.md",
            "docs/adr/0001.md",
            &hashes
        ));
        let by_hash = format!(
            "{{\n  \"source_path\": \"docs/adr/0001.md\",\n  \"sha256\": \"{}\"\n}}",
            hashes[0]
        );
        assert!(names_a_copy(
            &by_hash,
            "kb/x.md",
            "docs/adr/0001.md",
            &hashes
        ));
        // A store's migration: the hash first, the source path after 700
        // bytes of metadata, still one entry of one file.
        let migration = format!(
            "contentSha256: {}\nmetadata:\n{}  filePath: docs/adr/0001.md\n",
            hashes[0],
            "    label: adr\n".repeat(50)
        );
        assert!(names_a_copy(
            &migration,
            "kb/x.md",
            "docs/adr/0001.md",
            &hashes
        ));
        let other = content_hashes("# Another page\n");
        assert!(!names_a_copy(
            &by_hash,
            "kb/x.md",
            "docs/adr/0001.md",
            &other
        ));
        assert!(may_be_manifest("migrations/0004_store.sql"));
        assert!(!may_be_manifest("docs/adr/0001.md"));
    }

    #[test]
    fn fires_when_the_front_matter_names_a_repository_and_stays_quiet_otherwise() {
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
}
