//! Records (read once per run): an MDX page read as the Markdown it is, with
//! what MDX adds set aside. Its ESM lines (`import Tabs from '@theme/Tabs'`,
//! `export const meta = {…}`) and its JSX comments (`{/* … */}`) are code the
//! page's build runs, not text it shows: they are blanked to spaces (every
//! offset kept, so findings point into the page as written) and recorded as
//! unrendered, where no citation is read and a `{/* recount: ignore[…] */}`
//! comment is a suppression directive. JSX elements (`<Tabs>`, `<TabItem>`)
//! are HTML to the Markdown reader already.

use std::ops::Range;

use super::markdown::{self, Markdown};
use super::prose::ProseView;

/// Whether `path` is an MDX page.
pub fn is_mdx(path: &str) -> bool {
    path.ends_with(".mdx")
}

/// The page's structure, offsets those of `raw`.
pub fn parse(raw: &str) -> Markdown {
    parse_with(raw, false).0
}

/// The page's structure and, when asked, its prose view.
pub fn parse_with(raw: &str, with_prose: bool) -> (Markdown, Option<ProseView>) {
    let (masked, aside) = masked(raw);
    let (mut structure, prose) = markdown::parse_with(&masked, with_prose);
    structure.unrendered.extend(aside);
    structure.unrendered.sort_by_key(|r| r.start);
    (structure, prose)
}

/// `raw` with its ESM blocks and JSX comments blanked, and where they were.
fn masked(raw: &str) -> (String, Vec<Range<usize>>) {
    let mut aside: Vec<Range<usize>> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    // An ESM block runs from an `import`/`export` line at the top level to the
    // next blank line (a multi-line import's braces, an exported object).
    let mut esm: Option<usize> = None;
    let mut at = 0;
    for line in raw.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_end_matches(['\n', '\r']);
        let trimmed = text.trim_start();
        if let Some(open) = esm {
            if trimmed.is_empty() {
                aside.push(open..start);
                esm = None;
            }
            continue;
        }
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = marker {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            match fence {
                Some((f, n)) if f == c && run >= n && trimmed[run..].trim().is_empty() => {
                    fence = None;
                }
                None if run >= 3 => fence = Some((c, run)),
                _ => {}
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        let unindented = text.len() == trimmed.len();
        if unindented && (trimmed.starts_with("import ") || trimmed.starts_with("export ")) {
            esm = Some(start);
        }
    }
    if let Some(open) = esm {
        aside.push(open..raw.len());
    }
    aside.extend(jsx_comments(raw, &aside));
    aside.sort_by_key(|r| r.start);
    let mut bytes = raw.as_bytes().to_vec();
    for range in &aside {
        for b in &mut bytes[range.clone()] {
            // Spaces for every byte (a multi-byte character becomes as many
            // spaces), line breaks kept: the text stays UTF-8 and its lines
            // where they were.
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    let masked = String::from_utf8(bytes).unwrap_or_else(|_| raw.to_owned());
    (masked, aside)
}

/// `{/* … */}` comments outside the ranges already set aside.
fn jsx_comments(raw: &str, aside: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = raw.get(from..).and_then(|s| s.find("{/*")) {
        let start = from + open;
        let Some(close) = raw.get(start + 3..).and_then(|s| s.find("*/}")) else {
            break;
        };
        let end = start + 3 + close + 3;
        if !aside.iter().any(|r| r.contains(&start)) {
            found.push(start..end);
        }
        from = end;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esm_lines_and_jsx_comments_are_set_aside_with_their_offsets() {
        let raw = "import Tabs from '@theme/Tabs';\nimport {\n  A,\n} from './a';\n\n# Guide\n\n{/* see `src/old.rs` */}\nRead `src/x.rs`.\n\n```js\nimport x from 'y';\n```\n";
        let (masked, aside) = masked(raw);
        assert_eq!(masked.len(), raw.len());
        assert_eq!(aside.len(), 2, "{aside:?}");
        assert!(masked.starts_with("                               \n        \n"));
        assert!(masked.contains("\n# Guide\n"));
        assert!(!masked.contains("src/old.rs"));
        assert!(masked.contains("Read `src/x.rs`."));
        // Inside a code block, an import is the example's.
        assert!(masked.contains("import x from 'y';"));
        let md = parse(raw);
        assert_eq!(md.headings.len(), 1);
        assert_eq!(&raw[md.code_spans[0].content.clone()], "src/x.rs");
    }

    #[test]
    fn an_indented_import_is_text_and_an_unclosed_block_runs_to_the_end() {
        let (_, aside) = masked("Text\n  import x from 'y'\n");
        assert!(aside.is_empty());
        let raw = "# T\n\nexport const a = {\n  b: 1,";
        let (_, aside) = masked(raw);
        assert_eq!(aside, vec![5..raw.len()]);
    }
}
