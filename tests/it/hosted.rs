//! Links to the repository's own hosted pages (`fixtures/hosted-links`: a
//! library whose README and Sphinx index link its files on the forge by
//! absolute address; commit 02 renames a module and a folder and puts an
//! import above the line the README links; 03 moves that link to follow it;
//! 04 starts a `legacy` branch and 05 links a page that branch never held
//! from a history of releases).

use crate::support::{build, findings, json_report};

#[test]
fn links_to_the_own_forge_pages_are_held_to_the_tree() {
    let repo = build("hosted-links");
    let tree = repo.label();
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    // A link's suggestion is the link as the record writes it, the new path
    // in its address; a line cite's is the path.
    let renamed = |from: &str, to: &str, kind: &str| {
        let suggested = match kind {
            "no file " => to.to_owned(),
            _ if to.contains('.') => format!("https://github.com/tally-dev/tally/blob/main/{to}"),
            _ => format!("https://github.com/tally-dev/tally/tree/main/{to}"),
        };
        format!(
            "`/{from}`: {kind}`{from}` at {tree}; it resolved when the record cited it (at {written}) and was renamed to `{to}` in {broke}; did you mean `{suggested}`?"
        )
    };
    let got: Vec<(String, u64, String)> = findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| (path, line, message))
        .collect();
    // The newest release's link to a branch is read at the branch; the same
    // link in the earlier release's entry is that release's history.
    let expected = [
        (
            "HISTORY.md",
            5,
            format!(
                "`/docs/guide.md`: the link names no file `docs/guide.md` at legacy ({})",
                &repo.oid("04")[..8]
            ),
        ),
        (
            "README.md",
            5,
            renamed(
                "src/tally/count.py",
                "src/tally/counting.py",
                "the link names no file ",
            ),
        ),
        (
            "README.md",
            6,
            renamed(
                "src/tally/locales",
                "src/tally/locale",
                "the link names no file ",
            ),
        ),
        (
            "README.md",
            8,
            format!(
                "`/src/tally/__init__.py:6`: when the record cited it (at {written}), src/tally/__init__.py had 4 lines; the cite names line 6"
            ),
        ),
        (
            "README.md",
            11,
            format!(
                "`/src/tally/report.py`: the link names no file `src/tally/report.py` at v1.0.0 ({written})"
            ),
        ),
        (
            "README.md",
            15,
            format!(
                "`/CHANGES.md`: the link names no file `CHANGES.md` at {tree}; it did not resolve when the record cited it either (at {written})"
            ),
        ),
        (
            "docs/index.rst",
            4,
            renamed(
                "src/tally/count.py:1-3",
                "src/tally/counting.py",
                "no file ",
            )
            .replacen(
                "no file `src/tally/count.py:1-3`",
                "no file `src/tally/count.py`",
                1,
            ),
        ),
        (
            "docs/index.rst",
            5,
            renamed(
                "src/tally/locales",
                "src/tally/locale",
                "the link names no file ",
            ),
        ),
    ];
    let expected: Vec<(String, u64, String)> = expected
        .into_iter()
        .map(|(p, l, m)| (p.to_owned(), l, m))
        .collect();
    assert_eq!(got, expected);
    // At 02 the line link still named line 2, whose import moved to line 4;
    // 03 followed it there, and is held to what line 4 held in 03 (quiet).
    let (_, at_02) = json_report(&repo, &["--rev", &repo.oid("02")]);
    let moved = format!(
        "`/src/tally/__init__.py:2`: what src/tally/__init__.py held at line 2 when the record cited it (at {written}) is now at line 4: moved in {broke}; did you mean `https://github.com/tally-dev/tally/blob/main/src/tally/__init__.py#L4`?"
    );
    assert!(
        findings(&at_02).iter().any(
            |(_, path, line, _, message)| (path.as_str(), *line, message)
                == ("README.md", 7, &moved)
        ),
        "{at_02}"
    );
    // The logo, the tagged module, the fork's file, the release line this
    // clone lacks and the console block's address: quiet. The one on the
    // release line is unverified, not read against this tree.
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("14 links to the repository's own pages (https://github.com/tally-dev/tally, from pyproject.toml ([project.urls]))"),
        "{notes}"
    );
    assert!(
        notes.contains("1 citation in 1 earlier release section of changelogs and release pages read as history, not checked (earlier-release; first: HISTORY.md, release 1.0.0)"),
        "{notes}"
    );
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: serde_json::Value = serde_json::from_slice(&cites.stdout).expect("cites JSON");
    let release_line = cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .find(|c| c["at"] == "README.md:12:20")
        .expect("the release line's link is a cite");
    assert_eq!(
        release_line["status"]["status"], "unverified",
        "{release_line}"
    );
    assert_eq!(release_line["frame"], "v0.9.x", "{release_line}");
}

#[test]
fn the_rule_file_names_the_address_and_a_bad_one_is_located() {
    let repo = build("hosted-links");
    repo.write(
        "recount.toml",
        "[recount]\nurl = \"https://github.com/other-org/tally\"\n",
    );
    let (_, report) = json_report(&repo, &[]);
    let paths: Vec<String> = findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| format!("{path}:{line} {message}"))
        .collect();
    // The fork's link is now this tree's (and names nothing here); the
    // tally-dev links are another repository's.
    assert_eq!(paths.len(), 1, "{paths:?}");
    assert!(
        paths[0].starts_with("README.md:13 `/src/gone.py`"),
        "{paths:?}"
    );
    repo.write(
        "recount.toml",
        "[recount]\nurl = \"https://example.org/x\"\n",
    );
    let output = repo.recount(&["check"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`url` is not a GitHub or GitLab project's address")
            && stderr.contains("recount.toml:2:7"),
        "{stderr}"
    );
}
