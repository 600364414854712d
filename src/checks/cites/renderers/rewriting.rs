//! Stage 4, the citation family: a site's own code that rewrites each page
//! as the site builds (a MkDocs hook's `on_page_markdown`, a VitePress
//! site's Vite plugin that transforms `.md` files), read statically, never
//! run. What it may add to a page is judged from two pieces of evidence: a
//! heading its code writes, and an id the page itself names for it to turn
//! into an anchor.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;

/// One file of a site's code that rewrites its pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Rewriter {
    /// The file, repository-relative.
    file: String,
    /// The slugs of the Markdown headings its code writes into pages.
    headings: BTreeSet<String>,
}

impl Rewriter {
    /// The rewriter in `file`, whose code is `code`.
    pub(super) fn of(file: String, code: &str) -> Rewriter {
        Rewriter {
            file,
            headings: headings_written(code),
        }
    }

    /// Whether the rewritten page may offer `#fragment`, which its source
    /// (`page_text`) does not: the code writes a heading of that slug
    /// (`## Type Declarations`), or the page names the anchor's id as a word
    /// of its text (`<!-- md:setting config.blog_dir -->`, which the code
    /// turns into `{ #config.blog_dir }`). An id the page never names, under
    /// code that writes no such heading, is still gone.
    fn may_make(&self, page_text: &str, fragment: &str) -> bool {
        self.headings.contains(fragment) || names_id(page_text, fragment)
    }

    /// Why the page `page` (its source `page_text`) may offer `#fragment`
    /// as `site` builds it, if one of `rewriters` may make it.
    pub(super) fn why_made(
        rewriters: &[Rewriter],
        site: &str,
        page: &str,
        page_text: &str,
        fragment: &str,
    ) -> Option<String> {
        let file = &rewriters
            .iter()
            .find(|r| r.may_make(page_text, fragment))?
            .file;
        Some(format!(
            "{page} is rewritten as {site} builds it ({file} edits each page): `#{fragment}` is an anchor the rewritten page may hold"
        ))
    }
}

/// The slugs of the Markdown headings a rewriter's code writes into pages (a
/// string that begins `## `, at its start or after a newline).
fn headings_written(code: &str) -> BTreeSet<String> {
    static HEADING: OnceLock<Regex> = OnceLock::new();
    let heading = HEADING.get_or_init(|| {
        Regex::new(r#"(?:["'`\n]|\\n)#{1,6} ([^"'`\n\\{$]+)"#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    heading
        .captures_iter(code)
        .map(|caps| crate::checks::cites::anchors::github_slug(&caps[1]))
        .filter(|slug| !slug.is_empty())
        .collect()
}

/// Whether `text` names `fragment`'s id (what follows any leading `+` or
/// `-`) as a whole word: not inside a longer id, nor as a link's `#id`.
pub(super) fn names_id(text: &str, fragment: &str) -> bool {
    let id = fragment.trim_start_matches(|c: char| !c.is_alphanumeric());
    if id.chars().count() < 3 {
        return false;
    }
    let part_of_id = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':');
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let mut after = text[at + id.len()..].chars();
        // A sentence's `.` or `:` after the id ends it; `config.blog` goes on.
        let goes_on = match after.next() {
            Some('.' | ':') => after.next().is_some_and(part_of_id),
            Some(c) => part_of_id(c),
            None => false,
        };
        // After a `#` it is a link to the anchor (the page's own link
        // among them), not the page naming the id.
        !before.is_some_and(|c| part_of_id(c) || c == '#') && !goes_on
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewriter_may_make_the_headings_it_writes_and_the_ids_a_page_names() {
        let hook = "def on_page_markdown(markdown, **kw):\n    return markdown + \"\\n## Type Declarations\\n\"\n";
        let plugin = "export function md() {\n  return { transform(code, id) {\n    if (!id.endsWith('.md')) return\n    return `${code}\n## Source\n\n${links}`\n  } }\n}\n";
        assert!(headings_written(hook).contains("type-declarations"));
        assert!(headings_written(plugin).contains("source"));
        let rewriters = [Rewriter::of("hooks/a.py".to_owned(), hook)];
        let page = "# Blog\n\n<!-- md:setting config.blog_dir -->\n\nSee config.blog_dir_extra.\n";
        let why = |fragment| Rewriter::why_made(&rewriters, "the site", "blog.md", page, fragment);
        for made in ["config.blog_dir", "type-declarations"] {
            let why = why(made).unwrap_or_default();
            assert!(
                why.contains("(hooks/a.py edits each page)"),
                "{made}: {why}"
            );
        }
        for gone in [
            "advanced-settings",
            "config",
            "config.blog",
            "blog_dir",
            "source",
        ] {
            assert_eq!(why(gone), None, "{gone}");
        }
        assert!(names_id(
            "<!-- md:option type:abstract -->",
            "+type:abstract"
        ));
        // A page's own link to the anchor names nothing.
        assert!(!names_id(
            "## [Claim](#claim-body)\n\nThe body.\n",
            "claim-body"
        ));
        assert!(names_id("Set `blog_dir`.", "blog_dir"));
        assert!(!names_id("Set it.", "it"));
    }
}
