//! A link means what its page's renderer makes of it.

use crate::support::{build, findings, json_report};

/// Docusaurus reads `api/queue.md` from its docs folder as well as from the
/// page's: quiet. A link written from the page's folder (`./`) and a page
/// never written are stale.
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
