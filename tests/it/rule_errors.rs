//! Bad input gets a located, plain error and exit 2 — never a panic, never a
//! silent pass.

use crate::support::{build, stderr};

/// Runs `check` with `rules` as the rule file; returns (exit code, stderr).
fn check_with(rules: &str) -> (Option<i32>, String) {
    let repo = build("adr-0031");
    repo.write("bad.toml", rules);
    let output = repo
        .recount(&["check", "--rules", "bad.toml"])
        .output()
        .expect("runs");
    (output.status.code(), stderr(&output))
}

fn assert_located(rules: &str, message: &str, line_col: &str) {
    let (code, err) = check_with(rules);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(message), "expected {message:?} in:\n{err}");
    assert!(
        err.contains(&format!("bad.toml:{line_col}")),
        "expected bad.toml:{line_col} in:\n{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn invalid_toml() {
    assert_located("[[fact]\nid = \"x\"\n", "invalid rule file", "1:8");
}

#[test]
fn an_unknown_key_is_refused_at_the_key() {
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"*.md\"\nclaimz = []\n",
        "unknown key `claimz`",
        "4:1",
    );
    // The help names the key it most likely meant.
    let (_, err) = check_with("[[fact]]\nid = \"x\"\nfiles = \"*.md\"\nclaimz = []\n");
    assert!(err.contains("did you mean `claims`?"), "{err}");
}

#[test]
fn a_mistyped_check_id_pack_or_exemption_gets_a_did_you_mean() {
    for (rules, meant) in [
        ("[checks]\nstale-path-cites = \"off\"\n", "stale-path-cite"),
        ("[recount]\ninclude = [\"adr-031\"]\n", "adr-0031"),
        ("[cites.exemptions]\nreader-cues = false\n", "reader-cue"),
    ] {
        let (code, err) = check_with(rules);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains(&format!("did you mean `{meant}`?")),
            "{rules}: {err}"
        );
    }
}

#[test]
fn an_unknown_key_in_a_claim_is_refused_too() {
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"*.md\"\nclaims = [{ in = \"*.md\", says = '(?<value>x)', feild = \"lines\" }]\n",
        "unknown key `feild`",
        "4:48",
    );
}

#[test]
fn a_fact_needs_exactly_one_kind() {
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"*.md\"\ngrep = \"y\"\n",
        "needs exactly one kind key",
        "1:1",
    );
}

#[test]
fn an_invalid_regex_points_into_the_pattern() {
    assert_located(
        "[[fact]]\nid = \"x\"\ngrep = \"a(\"\nregex = true\n",
        "invalid regular expression",
        "3:8",
    );
}

#[test]
fn a_says_pattern_without_a_value_group() {
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"*.md\"\nclaims = [{ in = \"*.md\", says = 'holds \\w+ files' }]\n",
        "named group `value`",
        "4:33",
    );
}

#[test]
fn an_unknown_fact_reference() {
    assert_located(
        "[[fact]]\nid = \"x\"\nexpr = \"{nope} + 1\"\n",
        "`{nope}` names no fact",
        "3:8",
    );
}

#[test]
fn a_cycle_between_expressions() {
    assert_located(
        "[[fact]]\nid = \"a\"\nexpr = \"{b} + 1\"\n\n[[fact]]\nid = \"b\"\nexpr = \"{a} * 2\"\n",
        "cycle",
        "",
    );
}

#[test]
fn an_expression_syntax_error_points_at_the_character() {
    assert_located(
        "[[fact]]\nid = \"x\"\nexpr = \"3 * * 4\"\n",
        "invalid expression",
        "3:13",
    );
}

#[test]
fn an_unevaluable_constant_names_the_constant_and_why() {
    let repo = build("adr-0031");
    repo.write(
        "packages/quarry-core/src/quarry/limits.py",
        "TIERS = (1, 2, 3)\nMAX_TIER = len(TIERS)\n",
    );
    repo.write(
        "bad.toml",
        "[[fact]]\nid = \"x\"\nconstant = \"MAX_TIER\"\n",
    );
    let output = repo
        .recount(&["check", "--rules", "bad.toml"])
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("MAX_TIER"), "{err}");
    assert!(err.contains("len"), "the reason names what it met: {err}");
    assert!(err.contains("bad.toml:3:12"), "{err}");
}

#[test]
fn a_constant_defined_twice_lists_the_candidates() {
    let repo = build("adr-0031");
    repo.write(
        "packages/quarry-core/src/quarry/other.py",
        "MAX_PARAMS_NODES = 5\n",
    );
    repo.write(
        "bad.toml",
        "[[fact]]\nid = \"x\"\nconstant = \"MAX_PARAMS_NODES\"\n",
    );
    let output = repo
        .recount(&["check", "--rules", "bad.toml"])
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("other.py:1"), "{err}");
    assert!(err.contains("validation.py:"), "{err}");
    assert!(err.contains("defined in 2 places"), "{err}");
}

#[test]
fn an_unknown_revision_is_a_clear_error() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&["check", "--rev", "no-such-branch"])
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("no-such-branch"), "{err}");
}

#[test]
fn a_date_frame_that_is_not_a_day_is_located() {
    assert_located(
        "[[fact]]\nid = \"x\"\nat = { date = \"2026-02-30\" }\nfiles = \"*.md\"\n",
        "is not a date",
        "3:6",
    );
}

#[test]
fn a_retired_pattern_that_matches_the_empty_string_is_refused() {
    assert_located(
        "[[retired]]\nid = \"x\"\nsubject = 'a*'\nphrasing = 'b'\nin = \"*.md\"\nattribution = 'draft'\n",
        "cannot be matched",
        "3:11",
    );
}

#[test]
fn a_pin_naming_an_unknown_constant_is_a_located_finding_not_an_error() {
    // An absent constant is the pin's stale-pin finding, at the constant in
    // the rule file; the rest of the audit runs (the bounds the pin does not
    // cover are reported too).
    let repo = build("adr-0031");
    repo.write(
        "bad.toml",
        "[[bounds]]\nschemas = \"schemas/mcp/*-input.schema.json\"\npins = [{ bound = \"schemas/mcp/knowledge-get-input.schema.json#/properties/itemId/maxLength\", constant = \"NO_SUCH_CONSTANT\" }]\n",
    );
    let output = repo
        .recount(&["check", "--rules", "bad.toml", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value =
        serde_json::from_str(&crate::support::stdout(&output)).expect("JSON report");
    let findings = report["findings"].as_array().expect("findings");
    let pin = findings
        .iter()
        .find(|f| f["check"] == "stale-pin")
        .expect("a stale-pin finding");
    assert_eq!(pin["location"]["path"], "bad.toml");
    assert_eq!(pin["location"]["line"], 3);
    let message = pin["message"].as_str().unwrap_or_default();
    assert!(message.contains("`NO_SUCH_CONSTANT`"), "{message}");
    assert!(message.contains("defines `NO_SUCH_CONSTANT`"), "{message}");
    assert!(findings.iter().any(|f| f["check"] == "unpinned-bound"));
}

#[test]
fn a_main_line_that_does_not_resolve_is_located() {
    assert_located(
        "[recount]\nmain = \"origin/nowhere\"\n",
        "does not resolve",
        "2:8",
    );
}

#[test]
fn a_frame_pattern_without_a_sha_group_is_located() {
    assert_located(
        "[cites]\nframe_pattern = 'as of (?<commit>[0-9a-f]+)'\n",
        "invalid frame pattern",
        "2:17",
    );
}

#[test]
fn a_misspelt_kind_key_lists_every_kind_from_the_registry() {
    for rules in [
        // A kind key misspelt: refused at the key, and no kind remains.
        "[[fact]]\nid = \"x\"\nfiels = \"*.md\"\n",
        // No kind key at all.
        "[[fact]]\nid = \"x\"\nfile = \"a.py\"\n",
    ] {
        let (code, err) = check_with(rules);
        assert_eq!(code, Some(2), "{err}");
        for kind in recount::facts::FactKind::NAMES {
            assert!(err.contains(kind), "{kind} missing from:\n{err}");
        }
        assert_eq!(recount::facts::FactKind::NAMES.len(), 8);
    }
}

#[test]
fn a_parameter_of_another_kind_is_refused_at_the_key() {
    assert_located(
        "[[fact]]\nid = \"x\"\ngrep = \"y\"\npointer = \"/a\"\n",
        "invalid `grep` fact: unknown field `pointer`",
        "4:1",
    );
    assert_located(
        "[[fact]]\nid = \"x\"\ncount = \"y\"\n",
        "invalid `count` fact: missing field `file`",
        "1:1",
    );
}

#[test]
fn a_folder_given_as_a_files_glob_is_refused_with_the_globs_that_count_it() {
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"schemas/\"\n",
        "`schemas/` is a folder; a files fact counts the files a glob matches",
        "3:9",
    );
    let (_, err) = check_with("[[fact]]\nid = \"x\"\nfiles = \"schemas/\"\n");
    assert!(
        err.contains("`schemas/*`") && err.contains("`schemas/**`"),
        "{err}"
    );
}

#[test]
fn a_folder_named_without_its_slash_is_refused_once_the_tree_shows_it() {
    // Only the tree tells `schemas` (a folder) from `Makefile` (a file).
    assert_located(
        "[[fact]]\nid = \"x\"\nfiles = \"schemas\"\n",
        "`schemas` is a folder; a files fact counts the files a glob matches",
        "3:9",
    );
    let (_, err) = check_with("[[fact]]\nid = \"x\"\nfiles = \"schemas\"\n");
    assert!(
        err.contains("`schemas/*`") && err.contains("`schemas/**`"),
        "{err}"
    );
    // A file named exactly is counted; a name the tree does not have is an input
    // that is missing (unverified, with why), not a silent 0.
    for (glob, field, said) in [
        ("CHANGELOG.md", "value", "1"),
        (
            "no-such-thing",
            "unverified",
            "input no-such-thing does not exist at working tree",
        ),
    ] {
        let repo = build("adr-0031");
        repo.write(
            "bad.toml",
            &format!("[[fact]]\nid = \"x\"\nfiles = \"{glob}\"\n"),
        );
        let output = repo
            .recount(&["facts", "--rules", "bad.toml", "--format", "json"])
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(0), "{glob}: {}", stderr(&output));
        let facts: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(facts["facts"][0][field], said, "{glob}: {facts:#}");
    }
}

/// A stated figure with a unit recount does not know is said to be that, under
/// its span too — not "not in the tree".
#[test]
fn a_figure_in_an_unknown_unit_is_named_as_such() {
    let repo = build("adr-0031");
    repo.write(
        "docs/colors.md",
        "# Panel\n\nThe panel shows 16.7 million colors.\n",
    );
    repo.write(
        "colors.toml",
        "[[fact]]\nid = \"colors\"\nexpr = \"3\"\nclaims = [{ in = \"docs/colors.md\", says = 'shows (?<value>[\\d.]+ million colors)' }]\n",
    );
    let output = repo
        .recount(&["check", "--rules", "colors.toml"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout).to_string() + &stderr(&output);
    assert!(text.contains("unknown unit `colors`"), "{text}");
    assert!(
        text.contains("╰── not a value recount can compare"),
        "{text}"
    );
    assert!(!text.contains("not in the tree"), "{text}");
}

/// Rules are found where Python and Rust tools keep theirs: `.recount.toml`,
/// else `recount.toml`, else a `pyproject.toml`'s `[tool.recount]` (ruff's
/// order); a pyproject.toml's error is located in it, and one with no
/// `[tool.recount]` leaves the run unconfigured.
#[test]
fn rules_are_found_in_dot_recount_toml_and_pyproject() {
    let repo = build("adr-0031");
    let facts = |repo: &crate::support::Repo| -> usize {
        let (_, report) = crate::support::json_report(repo, &[]);
        report["facts"].as_array().map_or(0, Vec::len)
    };
    let configured = facts(&repo);
    assert!(configured > 3, "{configured}");
    let rules = std::fs::read_to_string(repo.path().join("recount.toml")).expect("rules");
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");
    assert_eq!(facts(&repo), 0, "no rule file: citations only");
    // A pyproject.toml of another tool's settings alone is not a rule file.
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"kit\"\n\n[tool.ruff]\nline-length = 99\n",
    );
    assert_eq!(facts(&repo), 0);
    let under_tool = rules
        .replace("[recount]", "[tool.recount.recount]")
        .replace("[[fact]]", "[[tool.recount.fact]]");
    repo.write(
        "pyproject.toml",
        &format!("[project]\nname = \"kit\"\n\n[tool.ruff]\nline-length = 99\n\n{under_tool}"),
    );
    assert_eq!(facts(&repo), configured, "[tool.recount] is the rule file");
    // Its mistakes are located in it, line and column of the pyproject.toml.
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"kit\"\n\n[tool.recount.recount]\nincludes = [\"adr-0031\"]\n",
    );
    let output = repo.recount(&["check"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains("unknown key `includes`") && err.contains("pyproject.toml:5:1"),
        "{err}"
    );
    // `.recount.toml` comes first.
    repo.write(".recount.toml", "[recount]\ninclude = [\"adr-0031\"]\n");
    assert_eq!(facts(&repo), configured);
    // Named with --rules, a pyproject.toml with no [tool.recount] is refused.
    repo.write("pyproject.toml", "[project]\nname = \"kit\"\n");
    let output = repo
        .recount(&["check", "--rules", "pyproject.toml"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no [tool.recount] table"),
        "{}",
        stderr(&output)
    );
}
