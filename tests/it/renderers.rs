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
