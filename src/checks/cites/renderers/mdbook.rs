//! Stage 4, the citation family: mdBook, read statically. A book's
//! `book.toml` may keep old addresses serving: `[output.html.redirect]`
//! maps a page's built address (`/2024h2/slate.html`) to where its readers
//! go, and mdBook writes a redirect page there. A link to the old page's
//! source (`./slate.md`, which the book builds into that address) lands on
//! the new page, as front matter's `aliases:` do on a Hugo site.

use std::collections::BTreeMap;

use crate::snapshot::Snapshot;

/// The `book.toml` bytes read at most: settings and a redirect table.
const MAX_BOOK_TOML_BYTES: usize = 256 * 1024;

/// The most books read.
const MAX_BOOKS: usize = 16;

/// One entry of a book's redirect table: the source path the book would
/// build into the old address (`src/2024h2/slate.md`), and where the entry
/// sends readers, read from the book's source folder (`2024h2/index.html`),
/// unless another site.
struct Redirect {
    old_page: String,
    source: String,
    to: Option<String>,
}

/// Each book of the tree: its source folder (`book.toml`'s `[book] src`,
/// `src` by default, from the book's folder) and its settings.
fn books(snapshot: &dyn Snapshot, paths: &[String]) -> Vec<(String, toml::Table)> {
    paths
        .iter()
        .filter(|p| p.rsplit('/').next() == Some("book.toml"))
        .take(MAX_BOOKS)
        .filter_map(|book| {
            let text = snapshot.read_text_to_parse(book).ok().flatten()?;
            if text.len() > MAX_BOOK_TOML_BYTES {
                return None;
            }
            let settings = text.parse::<toml::Table>().ok()?;
            let root = book.rsplit_once('/').map_or("", |(folder, _)| folder);
            let src = settings
                .get("book")
                .and_then(|b| b.get("src"))
                .and_then(toml::Value::as_str)
                .unwrap_or("src")
                .trim_matches('/');
            let source = [root, src]
                .iter()
                .filter(|s| !s.is_empty() && **s != ".")
                .copied()
                .collect::<Vec<_>>()
                .join("/");
            Some((source, settings))
        })
        .collect()
}

/// mdBook's own preprocessors, which add no anchor a page does not write.
const BUILT_IN_PREPROCESSORS: [&str; 2] = ["links", "index"];

/// A book whose `book.toml` runs a preprocessor of its own choosing
/// (`[preprocessor.spec]`: mdbook-spec turns a rule's `r[macro.decl]` into
/// the anchor `#r-macro.decl`): the source folder of its pages, and the
/// first such preprocessor.
#[derive(Debug, Clone)]
pub(in crate::checks::cites) struct PreprocessedBook {
    source: String,
    preprocessor: String,
}

impl PreprocessedBook {
    /// Every such book of the tree.
    pub(in crate::checks::cites) fn of_tree(snapshot: &dyn Snapshot) -> Vec<PreprocessedBook> {
        books(snapshot, snapshot.paths())
            .into_iter()
            .filter_map(|(source, settings)| {
                let preprocessor = settings
                    .get("preprocessor")
                    .and_then(toml::Value::as_table)?
                    .keys()
                    .find(|name| !BUILT_IN_PREPROCESSORS.contains(&name.as_str()))?
                    .clone();
                Some(PreprocessedBook {
                    source,
                    preprocessor,
                })
            })
            .collect()
    }

    /// Whether the book builds `page`.
    pub(in crate::checks::cites) fn holds(&self, page: &str) -> bool {
        self.source.is_empty()
            || page
                .strip_prefix(&self.source)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// Why `#fragment`, which the source of `page` does not show, may be an
    /// anchor the book's preprocessor writes: the page names its id, or its
    /// id past a short prefix (`r-macro.decl` for a page that writes
    /// `r[macro.decl]`, `grammar-MacroRule` where it writes `MacroRule`), as a
    /// word of its text. An id the page never names is still gone.
    pub(in crate::checks::cites) fn why_made(
        &self,
        page: &str,
        page_text: &str,
        fragment: &str,
    ) -> Option<String> {
        // Only an id shaped as an identifier (`r-macro.decl`, `MacroRule`)
        // counts, never plain words (`documents`, `swap-key`), which any
        // page says.
        let identifier = |id: &str| {
            id.chars()
                .any(|c| c == '.' || c == '_' || c.is_ascii_uppercase())
        };
        let stem = fragment
            .split_once('-')
            .filter(|(prefix, _)| {
                (1..=12).contains(&prefix.len()) && prefix.chars().all(|c| c.is_ascii_alphabetic())
            })
            .map(|(_, stem)| stem);
        let named = std::iter::once(fragment)
            .chain(stem)
            .any(|id| identifier(id) && super::rewriting::names_id(page_text, id));
        named.then(|| {
            format!(
                "{page} is preprocessed as its book builds (book.toml runs `{}`): `#{fragment}` is an anchor the preprocessor writes from what the page names",
                self.preprocessor
            )
        })
    }
}

/// Every entry of the redirect tables of the tree's books.
fn redirects(snapshot: &dyn Snapshot, paths: &[String]) -> Vec<Redirect> {
    let mut found = Vec::new();
    for (source, settings) in books(snapshot, paths) {
        let Some(table) = settings
            .get("output")
            .and_then(|o| o.get("html"))
            .and_then(|h| h.get("redirect"))
            .and_then(toml::Value::as_table)
        else {
            continue;
        };
        let under = |name: &str| {
            if source.is_empty() {
                name.to_owned()
            } else {
                format!("{source}/{name}")
            }
        };
        for (old, new) in table {
            let Some(new) = new.as_str() else {
                continue;
            };
            let old = old.trim_start_matches('/');
            let Some(old_page) = built_from(old) else {
                continue;
            };
            // The target is read from the old address's folder, or from the
            // book's root when it starts with `/`.
            let old_folder = old.rsplit_once('/').map_or("", |(folder, _)| folder);
            let new = new.split('#').next().unwrap_or(new);
            let to = (!new.contains("://"))
                .then(|| match new.strip_prefix('/') {
                    Some(absolute) => absolute.to_owned(),
                    None if old_folder.is_empty() => new.to_owned(),
                    None => format!("{old_folder}/{new}"),
                })
                .and_then(|to| crate::snapshot::joined("", &to));
            found.push(Redirect {
                old_page: under(&old_page),
                source: source.clone(),
                to,
            });
        }
    }
    found
}

/// The old pages a book's redirect table keeps serving, as the source path
/// the book would build into that address (`src/2024h2/slate.md`) → the
/// page of the tree its entry sends readers to (`src/2024h2/README.md`,
/// which mdBook builds into `index.html`). An entry whose target the book
/// does not build from a page of the tree sends readers elsewhere and is
/// left out.
pub(in crate::checks::cites) fn redirect_aliases(
    snapshot: &dyn Snapshot,
    paths: &[String],
) -> BTreeMap<String, String> {
    let mut aliases = BTreeMap::new();
    for redirect in redirects(snapshot, paths) {
        let Some(to) = &redirect.to else {
            continue;
        };
        let page = pages_of(to)
            .into_iter()
            .map(|p| {
                if redirect.source.is_empty() {
                    p
                } else {
                    format!("{}/{p}", redirect.source)
                }
            })
            .find(|p| paths.binary_search(p).is_ok());
        if let Some(page) = page {
            aliases.insert(redirect.old_page, page);
        }
    }
    aliases
}

/// The pages of the tree whose own address their book's redirect table
/// sends elsewhere: mdBook writes the redirect there and refuses to build
/// the page over it, so the book has retired the page.
pub(in crate::checks::cites) fn redirected_pages(
    snapshot: &dyn Snapshot,
    paths: &[String],
) -> std::collections::BTreeSet<String> {
    redirects(snapshot, paths)
        .into_iter()
        .map(|r| r.old_page)
        .filter(|page| paths.binary_search(page).is_ok())
        .collect()
}

/// The source page mdBook builds into the address `built` (`a/b.html` from
/// `a/b.md`), if the address is a page's.
fn built_from(built: &str) -> Option<String> {
    let stem = built.strip_suffix(".html")?;
    (!stem.is_empty() && !stem.contains("..")).then(|| format!("{stem}.md"))
}

/// The source pages that may be built into the address `built`: a chapter
/// `b.html` from `b.md`, a folder's `index.html` from its `index.md` or its
/// `README.md` (mdBook renders a README as the folder's index).
fn pages_of(built: &str) -> Vec<String> {
    let (folder, name) = built.rsplit_once('/').unwrap_or(("", built));
    let within = |file: &str| {
        if folder.is_empty() {
            file.to_owned()
        } else {
            format!("{folder}/{file}")
        }
    };
    match name {
        "" | "index.html" => vec![within("index.md"), within("README.md")],
        _ => built_from(built).into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preprocessor_makes_only_identifier_shaped_anchors_the_page_names() {
        let book = PreprocessedBook {
            source: "src".to_owned(),
            preprocessor: "spec".to_owned(),
        };
        let page = "# Retries\n\nr[retry.limit]\nAt most five.\n\nStructRule -> Name\n\nThe documents it keeps.\n\n## [Body](#claim-body)\n";
        let made = |fragment| book.why_made("src/retries.md", page, fragment).is_some();
        assert!(made("r-retry.limit"));
        assert!(made("grammar-StructRule"));
        assert!(!made("r-retry.jitter"));
        assert!(!made("documents"));
        assert!(!made("claim-body"));
        assert!(book.holds("src/retries.md") && !book.holds("srcx/a.md"));
    }
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_books_redirect_table_keeps_an_old_chapter_serving_its_new_page() {
        let tree = MemorySnapshot::new(&[
            (
                "book/book.toml",
                "[book]\nsrc = \"pages\"\n\n[output.html.redirect]\n\"/2024/slate.html\" = \"index.html\"\n\"/old.html\" = \"/guide/new.html#top\"\n\"/gone.html\" = \"nowhere.html\"\n\"/away.html\" = \"https://example.com/\"\n",
            ),
            ("book/pages/2024/README.md", "# 2024\n"),
            ("book/pages/guide/new.md", "# New\n"),
        ]);
        let paths = tree.paths().to_vec();
        let aliases = redirect_aliases(&tree, &paths);
        assert_eq!(
            aliases.get("book/pages/2024/slate.md").map(String::as_str),
            Some("book/pages/2024/README.md")
        );
        assert_eq!(
            aliases.get("book/pages/old.md").map(String::as_str),
            Some("book/pages/guide/new.md")
        );
        // A target the tree has no page for, or another site, is no page
        // of the book's.
        assert_eq!(aliases.get("book/pages/gone.md"), None);
        assert_eq!(aliases.get("book/pages/away.md"), None);
    }

    #[test]
    fn a_book_without_a_redirect_table_keeps_no_old_address() {
        let tree = MemorySnapshot::new(&[
            ("book.toml", "[book]\ntitle = \"T\"\n"),
            ("src/README.md", "# T\n"),
        ]);
        let paths = tree.paths().to_vec();
        assert!(redirect_aliases(&tree, &paths).is_empty());
        assert!(redirected_pages(&tree, &paths).is_empty());
    }

    #[test]
    fn a_page_whose_own_address_is_redirected_is_retired_by_its_book() {
        let tree = MemorySnapshot::new(&[
            (
                "book.toml",
                "[output.html.redirect]\n\"/about/old.html\" = \"new.html\"\n\"/gone.html\" = \"new.html\"\n",
            ),
            ("src/about/old.md", "# Old\n"),
            ("src/about/new.md", "# New\n"),
        ]);
        let paths = tree.paths().to_vec();
        let retired: Vec<String> = redirected_pages(&tree, &paths).into_iter().collect();
        assert_eq!(retired, ["src/about/old.md"]);
    }
}
