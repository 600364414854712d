//! MDX pages read as Markdown (`fixtures/mdx-pages`: a site whose introduction
//! imports components and links its setup page; commit 02 renames the page and
//! deletes a component).

use crate::support::{build, findings, json_report};

#[test]
fn an_mdx_page_is_read_with_its_esm_and_jsx_comments_set_aside() {
    let repo = build("mdx-pages");
    let tree = repo.label();
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got: Vec<(String, u64, String)> = findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| (path, line, message))
        .collect();
    assert_eq!(
        got,
        [(
            "docs/intro.mdx".to_owned(),
            16,
            format!(
                "`./setup.md#requirements`: the link names no file `docs/setup.md` at {tree}; it resolved when the record cited it (at {written}) and was renamed to `docs/install.md` in {broke}; did you mean `./install.md#requirements`?"
            )
        )]
    );
    // The banner's deleted file, named under a `{/* recount: ignore */}`.
    let suppressed = report["suppressed"].as_array().expect("suppressed");
    assert_eq!(suppressed.len(), 1, "{suppressed:?}");
    assert_eq!(suppressed[0]["finding"]["location"]["line"], 27);
    // Nothing is read from the ESM block (the deleted component's import),
    // the JSX comment (`docs/drafts/plan.md`) or the code block.
    let output = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let lines: Vec<u64> = cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .filter_map(|c| c["at"].as_str()?.split(':').nth(1)?.parse().ok())
        .collect();
    assert_eq!(lines, [16, 16, 21, 27], "{cites}");
}
