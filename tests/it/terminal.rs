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

/// `check` under a terminal of 80 and of 120 columns, `COLUMNS` unset (shells
/// do not export it): the report is laid out for the terminal's own width, no
/// line past it, and a line breaks between words, never inside one.
#[test]
fn the_report_fits_the_terminals_own_width_and_breaks_between_words() {
    let repo = build("adr-0031");
    let rev = repo.oid("06");
    let binary = env!("CARGO_BIN_EXE_recount");
    let (_, json) = crate::support::json_report(&repo, &["--rev", &rev]);
    let words: Vec<String> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .flat_map(|f| {
            f["message"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|w| w.chars().count() < 60)
        .collect();
    assert!(!words.is_empty());
    for columns in [80usize, 120] {
        // `script` gives the run a terminal of its own; stderr (the
        // progress bar, the notes) is left out of what is measured.
        let command = format!(
            "stty cols {columns} rows 50; '{binary}' check --no-cache --rev {rev} 2>/dev/null"
        );
        let output = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(repo.path())
            .env_remove("COLUMNS")
            .env("NO_COLOR", "1")
            .env("RECOUNT_CACHE_DIR", "")
            .output()
            .expect("script runs");
        let text = stdout(&output).replace('\r', "");
        assert!(text.contains("stale"), "{text}");
        // The record's own lines, quoted with their numbers and marks, are
        // shown as written (as a compiler quotes code); all else fits.
        let quoted = |line: &str| {
            let t = line.trim_start();
            t.starts_with('·')
                || t.split_once(" │")
                    .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
        };
        // A word wider than the terminal (a test id of 86 characters) has a
        // line of its own rather than be broken.
        let unbreakable = |line: &str| {
            line.split_whitespace()
                .any(|w| w.chars().count() > columns - 10)
        };
        let widest = text
            .lines()
            .filter(|l| !quoted(l) && !unbreakable(l))
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        assert!(widest <= columns, "{widest} > {columns}:\n{text}");
        // Laid out for this width, not the 100 of a pipe.
        assert!(widest > columns - 20, "{widest} for {columns}:\n{text}");
        let shown: std::collections::BTreeSet<&str> = text
            .split(|c: char| c.is_whitespace() || c == '│')
            .collect();
        for word in &words {
            assert!(
                shown.contains(word.as_str()),
                "`{word}` broken at {columns}:\n{text}"
            );
        }
    }
}

/// `-q` says nothing on a clean run; by default a run's notes are one line
/// counting them, and `-v` lists each.
#[test]
fn quiet_says_nothing_when_clean_and_notes_are_counted_unless_verbose() {
    let repo = build("one-story");
    let run = |flags: &[&str]| {
        let mut command = assert_cmd::Command::cargo_bin("recount").expect("binary");
        command
            .current_dir(repo.path())
            .env("NO_COLOR", "1")
            .env("RECOUNT_CACHE_DIR", "")
            .env_remove("COLUMNS")
            .args(flags)
            .output()
            .expect("runs")
    };
    // The event log written, linked twice, not yet renamed: clean.
    let clean = &repo.oid("03");
    let quiet = run(&["check", "-q", "--no-transcripts", "--rev", clean]);
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    assert_eq!(stdout(&quiet), "");
    assert_eq!(stderr(&quiet), "");
    let normal = run(&["check", "--no-transcripts", "--rev", clean]);
    let notes = stderr(&normal);
    assert_eq!(notes.lines().count(), 1, "{notes}");
    assert!(notes.contains("`-v` lists"), "{notes}");
    let verbose = run(&["check", "-v", "--no-transcripts", "--rev", clean]);
    assert!(
        stderr(&verbose).contains("note: no recount.toml"),
        "{}",
        stderr(&verbose)
    );
    assert!(!stderr(&verbose).contains("`-v` lists"));
}
