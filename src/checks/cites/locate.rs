//! Stage 4, the citation family's ground floor: where a reader finds what a
//! record names — a path beside the record or from the root, the files a
//! cited path may mean, the page a site renders from a source, the file an
//! include names, the sibling a mistyped name meant. Reads only the tree's
//! listing; imports nothing else of the family.

use crate::frames::Frame;
use crate::snapshot::has_file;

/// A cited path with its leading `/` (the repository's root, as a record
/// writes `/CONTRIBUTING.md:84`) dropped, when it climbs nowhere.
pub(super) fn rooted(path: &str) -> String {
    match path.strip_prefix('/') {
        Some(rest) if !rest.is_empty() && !rest.split('/').any(|s| s == "..") => rest.to_owned(),
        _ => path.to_owned(),
    }
}

/// Whether a cited path tries to leave the repository.
pub(super) fn escapes(path: &str) -> bool {
    path.starts_with('/') || path.split('/').any(|s| s == "..")
}

/// The snapshot files a cited path may mean: as written, under each test root,
/// or — for an elided `.../x.py`, or when neither of those exists — any file
/// whose path ends with it (records often cite `tests/unit/x.py` for
/// `packages/core/tests/unit/x.py`).
pub(super) fn candidates(frame: &Frame, path: &str, elided: bool, roots: &[String]) -> Vec<String> {
    let paths = frame.snapshot.paths();
    let has = |p: &str| has_file(paths, p);
    if !elided {
        let direct: Vec<String> = std::iter::once(path.to_owned())
            .chain(roots.iter().map(|r| format!("{r}/{path}")))
            .filter(|p| has(p))
            .collect();
        if !direct.is_empty() {
            return direct;
        }
    }
    let tail = format!("/{path}");
    paths
        .iter()
        .filter(|p| p.as_str() == path || p.ends_with(&tail))
        .cloned()
        .collect()
}

/// Where a reader finds a path a record names: relative to the record's own
/// folder (as GitHub renders a link), then from the repository root; `./` and
/// `../` are read against the record's folder. `None` when the path climbs out
/// of the repository.
pub(super) fn reader_paths(record: &str, path: &str) -> Option<Vec<String>> {
    // `/x` (a link into the repository's own hosted tree, read from its root).
    if let Some(rest) = path.strip_prefix('/') {
        return (!rest.starts_with('/') && !escapes(rest)).then(|| vec![rest.to_owned()]);
    }
    let folder = record.rsplit_once('/').map_or("", |(dir, _)| dir);
    let relative = path.starts_with("./") || path.starts_with("../");
    if relative || path.split('/').any(|s| s == "..") {
        return crate::snapshot::joined(if relative { folder } else { "" }, path).map(|p| vec![p]);
    }
    let mut found = Vec::new();
    if !folder.is_empty() {
        found.push(format!("{folder}/{path}"));
    }
    found.push(path.trim_start_matches("./").to_owned());
    Some(found)
}

/// A relative link's target read from each folder above the page's own,
/// nearest first, then the root (`./call/methods.md` on
/// `mdtest/generics/scoping.md` is `mdtest/call/methods.md` from the page's
/// parent): where a link written from the wrong folder meant to go. Not for
/// a rooted link, and none that climbs out of the repository.
pub(super) fn from_above(record: &str, path: &str) -> Vec<String> {
    if path.starts_with('/') || path.is_empty() {
        return Vec::new();
    }
    let mut folder = record.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut above = Vec::new();
    while !folder.is_empty() {
        folder = folder.rsplit_once('/').map_or("", |(dir, _)| dir);
        let page = if folder.is_empty() {
            "x".to_owned()
        } else {
            format!("{folder}/x")
        };
        // Read as a `./` link from there: the root as well as the folders.
        let relative = if path.starts_with("./") || path.starts_with("../") {
            path.to_owned()
        } else {
            format!("./{path}")
        };
        if let Some(found) = reader_paths(&page, &relative).and_then(|t| t.into_iter().next())
            && !above.contains(&found)
        {
            above.push(found);
        }
    }
    above
}

/// Where a reader finds a path a record names in backticks: as for a link
/// ([`reader_paths`]), and a `./x` that is not under the record's folder from
/// the repository root too, as a command line run at the root writes it
/// (`./crates/x/lib/mod.nu` in `crates/x/README.md`).
pub(super) fn backticked_paths(record: &str, path: &str) -> Option<Vec<String>> {
    let mut tried = reader_paths(record, path)?;
    if let Some(rest) = path.strip_prefix("./")
        && !rest.split('/').any(|s| s == "..")
        && record.contains('/')
    {
        let rest = rest.trim_start_matches("./").to_owned();
        if !tried.contains(&rest) {
            tried.push(rest);
        }
    }
    Some(tried)
}

/// The files that make a folder a project of its own (a package of a
/// monorepo, a site with its own build, a coding agent's plugin, whose
/// manifest sits in its `.claude-plugin/` folder).
pub(crate) const PROJECT_MANIFESTS: [&str; 11] = [
    ".claude-plugin/plugin.json",
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

/// The nearest folder above `record` (not the root) that a manifest makes a
/// project of its own: `web/` for `web/docs/setup.md` when `web/package.json`
/// is there. Its docs write paths from that root, where its readers work.
pub(super) fn enclosing_project(record: &str, paths: &[String]) -> Option<String> {
    let mut folder = record;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        folder = parent;
        if PROJECT_MANIFESTS
            .iter()
            .any(|m| has_file(paths, &format!("{folder}/{m}")))
        {
            return Some(folder.to_owned());
        }
    }
    None
}

/// Whether `text` writes `path` whole somewhere (`docs/ops/playbook.md`,
/// not as the tail of a longer name such as `mydocs/ops/playbook.md`).
pub(super) fn spells_path(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + path.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            && !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '/'))
    })
}

/// Whether a candidate for a bare name sits on the record's way to the root:
/// in the record's folder or one of its ancestors.
pub(super) fn on_the_way(record: &str, candidate: &str) -> bool {
    let record_folder = record.rsplit_once('/').map_or("", |(dir, _)| dir);
    let folder = candidate.rsplit_once('/').map_or("", |(dir, _)| dir);
    folder.is_empty() || record_folder == folder || record_folder.starts_with(&format!("{folder}/"))
}

/// The most siblings a missing name is compared with: the nearest in sorted
/// order.
const MAX_SIBLINGS_COMPARED: usize = 1024;

/// Whether `sibling` is `name` with a whole word of it swapped for another
/// (`lib_r0001.md` and `pc_r0001.md`: the same pattern, another prefix):
/// another name, not a typo of it. A typo keeps some of each word's
/// letters in place; words of one letter are left to the distance, and the
/// extension to the distance (`build.rs` for `build.py` is the same file
/// ported).
fn word_replaced(name: &str, sibling: &str) -> bool {
    let stem = |n: &str| n.rsplit_once('.').map_or(n, |(stem, _)| stem).to_owned();
    let words = |n: &str| -> Vec<String> {
        stem(n)
            .split(['-', '_', '.', ' '])
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let (ours, theirs) = (words(name), words(sibling));
    ours.len() == theirs.len()
        && ours.iter().zip(&theirs).any(|(a, b)| {
            let longest = a.chars().count().max(b.chars().count());
            a != b
                && longest >= 2
                && crate::spelling::edit_distance(a, b).is_some_and(|d| d >= longest)
        })
}

/// Whether two names are one item numbered twice: the same description
/// (two words or more) after a different leading number, as migrations and
/// decision records are named (`25_add_users.up.sql`, `26_add_users.up.sql`).
/// A series numbers items that differ in kind only (`2574.bugfix.rst`,
/// `page1.md`, `test_case3.py`): a description names one item, so another
/// number before it is a slip, not another of a series.
fn renumbered(name: &str, sibling: &str) -> bool {
    let rest = |n: &str| {
        n.trim_start_matches(|c: char| c.is_ascii_digit())
            .to_owned()
    };
    let (ours, theirs) = (rest(name), rest(sibling));
    let stem = ours.split('.').next().unwrap_or("");
    ours == theirs
        && ours.len() < name.len()
        && theirs.len() < sibling.len()
        && !stem.chars().any(|c| c.is_ascii_digit())
        && stem
            .split(|c: char| !c.is_alphabetic())
            .filter(|word| word.chars().count() >= 3)
            .count()
            >= 2
}

/// The file beside a missing one whose name is nearly its name (a typo, a
/// small rename): `.github/renovate.json5` for `.github/renovatebot.json5`.
pub(super) fn nearest_sibling(path: &str, paths: &[String]) -> Option<String> {
    let (folder, name) = path.rsplit_once('/')?;
    let prefix = format!("{folder}/");
    let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
    let end = start + paths[start..].partition_point(|p| p.starts_with(&prefix));
    // A folder of thousands of files is searched near the name's own place
    // in it (names that share its start), so that many missing names in a
    // large folder cost a window each, not the folder each.
    let at = start + paths[start..end].partition_point(|p| p.as_str() < path);
    let window = at.saturating_sub(MAX_SIBLINGS_COMPARED / 2).max(start)
        ..(at + MAX_SIBLINGS_COMPARED / 2).min(end);
    paths[window]
        .iter()
        .filter_map(|p| {
            let sibling = p.get(prefix.len()..)?;
            if sibling.contains('/') {
                return None;
            }
            Some((mistyped_by(name, sibling)?, p))
        })
        .min()
        .map(|(_, p)| p.clone())
}

/// The folder beside a missing one whose name is nearly its name
/// (`scripts/deployment` for `scripts/deploy`), under a folder the tree has
/// (never the root, whose folders are the project's first names).
pub(super) fn nearest_sibling_folder(path: &str, paths: &[String]) -> Option<String> {
    let (folder, name) = path.trim_end_matches('/').rsplit_once('/')?;
    let prefix = format!("{folder}/");
    let mut at = paths.partition_point(|p| p.as_str() < prefix.as_str());
    let mut best: Option<(usize, &str)> = None;
    // One step per child folder: past a child's files at once (`/` sorts
    // just before `0`).
    for _ in 0..MAX_SIBLINGS_COMPARED {
        let Some(child) = paths
            .get(at)
            .and_then(|p| p.strip_prefix(&prefix))
            .map(|rest| rest.split_once('/').map(|(child, _)| child))
        else {
            break;
        };
        let Some(child) = child else {
            at += 1;
            continue;
        };
        if let Some(distance) = mistyped_by(name, child)
            && best.is_none_or(|(d, _)| distance < d)
        {
            best = Some((distance, child));
        }
        let past = format!("{prefix}{child}0");
        at += paths[at..].partition_point(|p| p.as_str() < past.as_str());
    }
    best.map(|(_, child)| format!("{prefix}{child}"))
}

/// How far `sibling` is from `name` when it is that name mistyped or
/// shortened; `None` when it is another name.
fn mistyped_by(name: &str, sibling: &str) -> Option<usize> {
    let longest = name.chars().count();
    // The distance is at least the difference of the lengths.
    if sibling.len().abs_diff(name.len()) > (longest / 4).max(2) * 4 {
        return None;
    }
    // Names that differ only in their digits are files of a numbered
    // series (`changelog/2574.bugfix.rst`, `2761.bugfix.rst`), each its
    // own: a number is no typo of another.
    let letters = |n: &str| {
        n.chars()
            .filter(|c| !c.is_ascii_digit())
            .collect::<String>()
    };
    if sibling != name && letters(sibling) == letters(name) && !renumbered(name, sibling) {
        return None;
    }
    if word_replaced(name, sibling) {
        return None;
    }
    let distance = crate::spelling::edit_distance(name, sibling)?;
    // Close enough to be the same name mistyped or shortened.
    (distance <= (longest / 4).max(2)).then_some(distance)
}

/// The sources a documentation site renders a link's page from, in the order
/// they are tried: `x.html` from `x.md`, `x.rst` (Sphinx) or `x.txt` (a
/// `source_suffix` that says so); an extensionless `x` or `x/` (a pretty URL)
/// from `x.md`, `x.mdx`, `x.rst`, `x/index.md`, `x/README.md`, `x/index.rst`;
/// a book's `index.md` from the `README.md` its renderer makes it of
/// (mdBook). None for another file. A link written `x.md` is a file's path
/// to every renderer that reads one (the forge; Docusaurus resolves a file
/// link by its exact name): no renderer serves it from `x.mdx`, so a page
/// renamed to MDX leaves such a link dead.
pub(super) fn page_sources(p: &str) -> Vec<String> {
    let extensionless = !p.rsplit('/').next().unwrap_or(p).contains('.');
    match p.strip_suffix(".html").or_else(|| p.strip_suffix(".htm")) {
        Some(stem) => ["md", "rst", "txt", "ipynb"]
            .iter()
            .map(|ext| format!("{stem}.{ext}"))
            .collect(),
        None if p.ends_with(".md") => p
            .strip_suffix("index.md")
            .map(|folder| format!("{folder}README.md"))
            .into_iter()
            .collect(),
        None if extensionless => ["md", "mdx", "rst"]
            .iter()
            .map(|ext| format!("{p}.{ext}"))
            .chain(
                ["index.md", "README.md", "index.rst"]
                    .iter()
                    .map(|page| format!("{p}/{page}")),
            )
            .collect(),
        // A page whose name holds a dot, served without its suffix
        // (`entry.client.tsx` from `entry.client.tsx.md`).
        None => ["md", "mdx"]
            .iter()
            .map(|ext| format!("{p}.{ext}"))
            .collect(),
    }
}

/// The file of the tree an include of `page` names, read from beside the
/// page, from the repository root or from `docs/` (mkdocs' snippets resolve
/// from a base path, most often one of those); `None` when none of them is a
/// file here.
pub(super) fn included_path(paths: &[String], page: &str, included: &str) -> Option<String> {
    let folder = page.rsplit_once('/').map_or("", |(dir, _)| dir);
    // VitePress reads `@shared/x.md` (`@/shared/x.md`) from the site's
    // source root: the folder above the page that holds its `.vitepress/`.
    if let Some(rest) = included.strip_prefix('@') {
        let rest = rest.trim_start_matches('/');
        return std::iter::successors(Some(folder), |f| {
            (!f.is_empty()).then(|| f.rsplit_once('/').map_or("", |(up, _)| up))
        })
        .find(|root| {
            let config = if root.is_empty() {
                ".vitepress/".to_owned()
            } else {
                format!("{root}/.vitepress/")
            };
            let at = paths.partition_point(|p| p.as_str() < config.as_str());
            paths.get(at).is_some_and(|p| p.starts_with(&config))
        })
        .map(|root| {
            if root.is_empty() {
                rest.to_owned()
            } else {
                format!("{root}/{rest}")
            }
        })
        .filter(|p| has_file(paths, p));
    }
    let tried = [
        reader_paths(page, included)
            .and_then(|p| p.into_iter().next())
            .unwrap_or_default(),
        included.trim_start_matches("./").to_owned(),
        format!("docs/{}", included.trim_start_matches("./")),
        format!("{folder}/{}", included.trim_start_matches("./")),
    ];
    tried
        .into_iter()
        .find(|p| !p.is_empty() && has_file(paths, p))
        .or_else(|| {
            // Liquid's `{% include x %}` reads `x` from the site's
            // `_includes/` folder, at the page's folder or one above it.
            std::iter::successors(Some(folder), |f| {
                (!f.is_empty()).then(|| f.rsplit_once('/').map_or("", |(up, _)| up))
            })
            .map(|root| {
                let name = included.trim_start_matches("./");
                if root.is_empty() {
                    format!("_includes/{name}")
                } else {
                    format!("{root}/_includes/{name}")
                }
            })
            .find(|p| has_file(paths, p))
        })
}

/// `%20` and friends decoded; `None` for an escape that is not UTF-8.
pub(crate) fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b,
            bytes.get(i + 1).and_then(|&c| hex(c)),
            bytes.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push(u8::try_from(high * 16 + low).ok()?);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Whether a record belongs to vendored code — another project's files copied
/// in (`vendor/`, `third_party/`, `node_modules/`, `_vendor/`, `deps/`): its links and
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
                "deps",
                "3rdparty",
                "extern",
            ]
            .contains(&s.as_str())
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_name_with_a_word_swapped_for_another_is_no_typo_of_it() {
        let paths: Vec<String> = ["docs/build.rs", "docs/errors/app_e0001.md"]
            .map(str::to_owned)
            .to_vec();
        // Another prefix of the same pattern: another name.
        assert_eq!(nearest_sibling("docs/errors/lib_e0001.md", &paths), None);
        // A letter off within the word: mistyped.
        assert_eq!(
            nearest_sibling("docs/errors/ap_e0001.md", &paths).as_deref(),
            Some("docs/errors/app_e0001.md")
        );
        // The extension is no word of the name: the file ported.
        assert_eq!(
            nearest_sibling("docs/build.py", &paths).as_deref(),
            Some("docs/build.rs")
        );
    }

    #[test]
    fn a_folder_beside_a_missing_one_with_nearly_its_name_is_it_mistyped() {
        let paths: Vec<String> = [
            "scripts/deployment/run.sh",
            "scripts/deployment/stop.sh",
            "scripts/lint.sh",
            "scripts/tools/a.py",
            "src/a.rs",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            nearest_sibling_folder("scripts/deploymnt/", &paths).as_deref(),
            Some("scripts/deployment")
        );
        assert_eq!(nearest_sibling_folder("scripts/release", &paths), None);
        // A first folder of the project is its own name, not a typo.
        assert_eq!(nearest_sibling_folder("scr", &paths), None);
    }

    #[test]
    fn one_described_item_numbered_twice_is_a_slip_a_series_is_not() {
        let paths: Vec<String> = [
            "changelog/2574.bugfix.rst",
            "db/26_add_users.up.sql",
            "docs/adr/0007-use-kafka.md",
            "tests/test_case1.py",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            nearest_sibling("db/25_add_users.up.sql", &paths).as_deref(),
            Some("db/26_add_users.up.sql")
        );
        assert_eq!(
            nearest_sibling("docs/adr/0005-use-kafka.md", &paths).as_deref(),
            Some("docs/adr/0007-use-kafka.md")
        );
        assert_eq!(nearest_sibling("changelog/2761.bugfix.rst", &paths), None);
        assert_eq!(nearest_sibling("tests/test_case3.py", &paths), None);
    }

    use super::*;

    #[test]
    fn an_include_is_found_from_the_page_the_root_docs_or_a_vitepress_source_root() {
        let paths: Vec<String> = [
            "docs/snippets/retries.md",
            "site/.vitepress/config.ts",
            "site/api/useConnect.md",
            "site/shared/mutation-options.md",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            included_path(&paths, "docs/guide.md", "snippets/retries.md").as_deref(),
            Some("docs/snippets/retries.md")
        );
        // `@` is the VitePress site's source root, with or without a `/`.
        for written in [
            "@shared/mutation-options.md",
            "@/shared/mutation-options.md",
        ] {
            assert_eq!(
                included_path(&paths, "site/api/useConnect.md", written).as_deref(),
                Some("site/shared/mutation-options.md"),
                "{written}"
            );
        }
        assert_eq!(
            included_path(&paths, "site/api/useConnect.md", "@shared/gone.md"),
            None
        );
        assert_eq!(
            included_path(&paths, "docs/guide.md", "@shared/mutation-options.md"),
            None
        );
    }

    #[test]
    fn a_link_is_read_from_each_folder_above_its_page() {
        assert_eq!(
            from_above("mdtest/generics/scoping.md", "./call/methods.md"),
            ["mdtest/call/methods.md", "call/methods.md"]
        );
        assert_eq!(from_above("a/b/c/page.md", "../x.md"), ["a/x.md", "x.md"]);
        // A page at the root has no folder above it; a rooted link is read
        // from the root already.
        assert!(from_above("README.md", "./x.md").is_empty());
        assert!(from_above("docs/page.md", "/x.md").is_empty());
    }

    #[test]
    fn a_page_link_names_the_sources_a_site_serves_it_from() {
        assert_eq!(page_sources("api/setup.html")[0], "api/setup.md");
        assert_eq!(page_sources("guide")[..2], ["guide.md", "guide.mdx"]);
        // A file link is the file it names: `x.md` is not the MDX page `x.mdx`.
        assert!(page_sources("docs/handbook.md").is_empty());
        assert_eq!(page_sources("book/index.md"), ["book/README.md"]);
        // A page named with a dot, its suffix left off by the site.
        assert_eq!(
            page_sources("conventions/entry.client.tsx"),
            [
                "conventions/entry.client.tsx.md",
                "conventions/entry.client.tsx.mdx"
            ]
        );
    }
}
