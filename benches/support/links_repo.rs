//! A repository of Markdown pages dense with links, for the bench and the test
//! that hold the citation checks linear in the number of links per record: the
//! same links in one page or spread over many must cost about the same.
//!
//! Every page has forty headings, and cycles through six kinds of link: to a file
//! that exists, to one that does not, a line cite, an anchor on the page, a link
//! to another site with a backticked path beside it, and a test id.

use std::path::Path;
use std::process::Command;

/// Writes `pages` pages of `links` links each under `docs/`, with the files they
/// cite, into a new repository at `root`, and commits them.
pub(crate) fn generate(root: &Path, pages: usize, links: usize) {
    std::fs::create_dir_all(root.join("docs")).expect("docs");
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("tests")).expect("tests");
    for module in 0..50 {
        let body: String = (0..12).map(|l| format!("x{l} = {l}\n")).collect();
        std::fs::write(root.join(format!("src/mod{module}.py")), body).expect("write");
    }
    let tests: String = (0..20)
        .map(|t| format!("def test_{t}():\n    pass\n"))
        .collect();
    std::fs::write(root.join("tests/test_a.py"), tests).expect("write");
    let headings: String = (0..40)
        .map(|h| format!("## Heading {h}\n\ntext\n\n"))
        .collect();
    for page in 0..pages {
        let mut text = headings.clone();
        for i in 0..links {
            let line = match i % 6 {
                0 => format!("See [item {i}](../src/mod{}.py) here.", i % 50),
                1 => format!("See [gone {i}](gone{i}.md) here."),
                2 => format!("Line `src/mod{}.py:{}` cited.", i % 50, i % 9 + 1),
                3 => format!("Anchor [h](#heading-{}) here.", i % 40),
                4 => format!("Out [x](https://example.com/{i}) and `docs/x{i}.md`."),
                _ => format!("Test `tests/test_a.py::test_{}` cited.", i % 20),
            };
            text.push_str(&line);
            text.push_str("\n\n");
        }
        std::fs::write(root.join(format!("docs/page{page}.md")), text).expect("write");
    }
    commit_all(root, "pages of links");
}

/// `git init` at `root` and one commit of everything under it.
pub(crate) fn commit_all(root: &Path, message: &str) {
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.invalid",
            "commit",
            "-qm",
            message,
        ],
    ] {
        let status = Command::new("git")
            .current_dir(root)
            .args(args)
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?}");
    }
}
