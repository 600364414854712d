//! A link means what its page's renderer makes of it.

use crate::support::{build, findings, json_report};

/// Docusaurus reads `api/queue.md` from its docs folder as well as from the
/// page's: quiet. A link written from the page's folder (`./`) and a page
/// never written are stale. A partial an MDX page imports has the page's
/// headings for its in-page anchors (quiet), and no others (stale).
#[test]
fn a_docusaurus_page_links_as_docusaurus_resolves_them() {
    let repo = build("docusaurus-site");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got: Vec<(String, u64, String)> = findings(&report)
        .into_iter()
        .map(|(check, path, line, _, message)| {
            (
                check,
                line,
                format!("{path}: {}", message.split(':').next().unwrap_or("")),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "stale-path-cite".to_owned(),
                1,
                "docs/guides/includes/_wake-up.md: `#idle-delay`".to_owned()
            ),
            (
                "stale-path-cite".to_owned(),
                7,
                "docs/guides/setup.md: `./api/queue.md`".to_owned()
            ),
            (
                "stale-path-cite".to_owned(),
                9,
                "docs/guides/setup.md: `api/stack.md`".to_owned()
            ),
        ]
    );
}

/// Hugo reads a path its page names in its union filesystem: the site's
/// folders, then the theme's. A theme that moved into `theme/` keeps its Hugo
/// paths (quiet), a page's URL-form link to its sibling is quiet, and a
/// partial deleted from every mount is stale with its commit.
#[test]
fn a_hugo_page_names_paths_as_hugo_mounts_them() {
    let repo = build("hugo-theme-site");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0, "{report}");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got: Vec<(u64, String)> = findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| (line, format!("{path} {message}")))
        .collect();
    assert_eq!(got.len(), 1, "{got:?}");
    let (line, text) = &got[0];
    assert_eq!(*line, 8);
    assert!(
        text.starts_with("site/content/en/docs/look.md `layouts/partials/footer.html`"),
        "{text}"
    );
    let deleted = &repo.oid("02")[..8];
    assert!(text.contains(&format!("deleted in {deleted}")), "{text}");
}

/// docsify routes a page's relative link from its site's root (the folder
/// of the `index.html` that sets `window.$docsify`): `errors.md` written on
/// `site/middleware/index.md` is `site/errors.md`, quiet; a link to a page
/// the site lacks is stale. With `relativePath: true` the page's folder is
/// where links are read, and the same root-relative link is stale.
#[test]
fn a_docsify_page_links_from_its_sites_root() {
    let repo = build("docusaurus-site");
    let index = "<div id=\"app\"></div>\n<script>\n  window.$docsify = { name: 'x', loadSidebar: true }\n</script>\n<script src=\"//cdn.jsdelivr.net/npm/docsify@4\"></script>\n";
    repo.write("site/index.html", index);
    repo.write("site/errors.md", "# Errors\n");
    repo.write(
        "site/middleware/index.md",
        "# Middleware\n\nSee [errors](errors.md) and [retries](retries.md).\n",
    );
    let site_findings = |repo: &crate::support::Repo| -> Vec<String> {
        let (_, report) = json_report(repo, &[]);
        findings(&report)
            .into_iter()
            .filter(|(_, path, ..)| path.starts_with("site/"))
            .map(|(_, path, line, _, message)| {
                format!("{path}:{line} {}", message.split(':').next().unwrap_or(""))
            })
            .collect()
    };
    assert_eq!(
        site_findings(&repo),
        ["site/middleware/index.md:3 `retries.md`"]
    );
    repo.write(
        "site/index.html",
        &index.replace("name: 'x',", "name: 'x', relativePath: true,"),
    );
    assert_eq!(
        site_findings(&repo),
        [
            "site/middleware/index.md:3 `errors.md`",
            "site/middleware/index.md:3 `retries.md`"
        ]
    );
}

/// mdBook keeps an old chapter's address serving where `book.toml`'s
/// redirect table names it: a link to its old source is quiet, a chapter
/// neither has is stale, and a page whose own address is redirected is
/// retired (quiet, said in a note). A sample to paste into the front page
/// is read from there. Another prefix of an error page's pattern is no typo
/// (quiet); one letter off is (stale, the page suggested).
#[test]
fn an_mdbook_reads_its_redirects_and_a_sample_from_where_it_is_pasted() {
    let repo = build("mdbook-redirects");
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let got: Vec<(String, u64, String)> = findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| (path, line, message))
        .collect();
    let at: Vec<(&str, u64)> = got.iter().map(|(p, l, _)| (p.as_str(), *l)).collect();
    assert_eq!(
        at,
        [
            ("src/guide/usage.md", 4),
            ("src/guide/usage.md", 8),
            ("src/samples/front-page.md", 7),
        ],
        "{got:?}"
    );
    assert!(got[1].2.contains("mistyped?"), "{got:?}");
    assert!(got[1].2.contains("src/errors/app_e0001.md"), "{got:?}");
    let notes = crate::support::stderr(&output);
    assert!(
        notes.contains("whose address their book's redirect table sends elsewhere")
            && notes.contains("src/guide/legacy.md"),
        "{notes}"
    );
}

/// `fixtures/one-word-links`: the forge reads `[notes](NOTES)` as the file
/// `NOTES` beside the page, as it reads `LICENSE` and the folder `docs`. The
/// notes' file deleted in 02 makes its link stale with that commit; the
/// file and the folder still there stay quiet.
#[test]
fn a_one_word_link_names_a_file_beside_its_page() {
    let repo = build("one-word-links");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0, "{report:#}");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    let got = findings(&report);
    assert_eq!(got.len(), 1, "{got:?}");
    let (check, path, line, _, message) = &got[0];
    assert_eq!(
        (check.as_str(), path.as_str(), *line),
        ("stale-path-cite", "README.md", 5)
    );
    let deleted = &repo.oid("02")[..8];
    assert!(
        message.starts_with("`NOTES`") && message.contains(&format!("deleted in {deleted}")),
        "{message}"
    );
}
