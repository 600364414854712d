//! At the desk: tables fit the terminal's width (`COLUMNS`), and a terminal
//! that cannot draw Unicode (`TERM=dumb`, a locale that is not UTF-8) gets
//! plain ASCII boxes and marks.

use crate::support::{build, stderr, stdout};

#[test]
fn the_facts_table_fits_the_terminal_width() {
    let repo = build("adr-0031");
    for columns in ["80", "60"] {
        let output = repo
            .recount(&["facts"])
            .env("COLUMNS", columns)
            .output()
            .expect("runs");
        let text = stdout(&output);
        let width: usize = columns.parse().expect("number");
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= width, "{widest} > {width}:\n{text}");
        assert!(text.contains("fact"), "{text}");
    }
}

#[test]
fn a_plain_terminal_gets_ascii_tables_and_diagnostics() {
    let repo = build("adr-0031");
    let fixture_commit = repo.oid("06");
    for (name, value) in [("TERM", "dumb"), ("LC_ALL", "C")] {
        let output = repo
            .recount(&["check", "--rev", &fixture_commit])
            .env(name, value)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1));
        let text = stdout(&output);
        assert!(text.contains("+---"), "{name}={value}:\n{text}");
        assert!(text.is_ascii(), "{name}={value}:\n{text}");
    }
    // A rule-file error, too.
    repo.write("bad.toml", "[[fact]]\nid = \"x\"\nfiles = \"docs/\"\n");
    let output = repo
        .recount(&["check", "--rules", "bad.toml"])
        .env("TERM", "dumb")
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert!(err.contains("bad.toml:3:9"), "{err}");
    assert!(err.is_ascii(), "{err}");
}
