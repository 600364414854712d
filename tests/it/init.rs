//! `recount init` drafts a rule file from the records and the tree, and the
//! rules it drafts run: on the ADR fixture the draft ties the record's folder
//! count, literal count, derivation and constant to the tree, finds the test
//! root its citations imply and the retired figure its changelog names, and
//! `recount check` with it is clean where the record is true and reports the
//! real drift where a constant moved. `recount schema` prints the schemas.

use crate::support::{Repo, build, stderr, stdout};

const ADR: &str = "docs/adr/0031-tool-input-validation.md";

/// `recount init --rev REV --output FILE` in the fixture; the draft's text.
fn drafted(repo: &Repo, rev: &str, file: &str) -> String {
    let output = repo
        .recount(&["init", "--rev", rev, "--output", file])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("9 facts, 9 claims, 1 retired rule, 1 test root"),
        "{}",
        stdout(&output)
    );
    repo.read(file)
}

/// (check, path, line) of every finding of `recount check --rules FILE`.
fn checked(repo: &Repo, rev: &str, file: &str) -> (i32, Vec<(String, String, u64)>) {
    let (code, report) = crate::support::json_report(repo, &["--rev", rev, "--rules", file]);
    let findings = crate::support::findings(&report)
        .into_iter()
        .map(|(check, path, line, _, _)| (check, path, line))
        .collect();
    (code, findings)
}

fn seen(check: &str, path: &str, line: u64) -> (String, String, u64) {
    (check.to_owned(), path.to_owned(), line)
}

#[test]
fn the_draft_ties_each_recognised_figure_to_the_tree() {
    let repo = build("adr-0031");
    let text = drafted(&repo, &repo.oid("04"), "drafted.toml");
    for expected in [
        "records = ['docs/adr/*.md', 'docs/protocol/*.md']",
        // "registers 7 tools": the one registration call the tree counts 7 of.
        "id = 'registered-tools'\nat = '77b14e7a'\ncount = '@_tool('\nfile = 'packages/quarry-core/src/quarry/mcp/tools.py'",
        "test_roots = ['packages/quarry-core']",
        "MAX_SOURCE_FILE_BYTES = { file = 'packages/quarry-core/src/quarry/security/paths.py' }",
        // The folder count, measured at the frame the record's section names.
        "id = 'files-in-schemas-mcp'\nat = '77b14e7a'\nfiles = 'schemas/mcp/*'",
        "entries = '_PROJECT_ID_FACES'\nfile = 'packages/quarry-core/tests/unit/test_schemas.py'",
        "expr = '3 * MAX_SOURCE_FILE_BYTES + 1 MiB'",
        // "gives five hits:" above the search it ran: the same search, at
        // the revision its command names.
        "id = 'hits-of-tool-context'\nat = '77b14e7a'\ngrep = 'tool-context'\npaths = ['packages', 'schemas', 'docs', 'tools']",
        // Figures that do not name their constant: the one whose value and
        // name fit ("of punctuation" is what is counted).
        "constant = 'MAX_PARAMS_RENDERED_CHARS'",
        "constant = '_NODE_PUNCTUATION'",
        "constant = 'MAX_SOURCE_FILE_BYTES'",
        // Each rule says where its claim is.
        &format!("# {ADR}:14: \"schemas/mcp/ holds eight files\""),
        // The withdrawn sentence names no figure: a candidate, not a rule.
        "that sentence is withdrawn.\" (names no figure recount can pin as a phrase)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // No schema file is dropped into the repository unasked.
    assert!(!text.contains("#:schema"), "{text}");
    assert!(!repo.path().join("recount.schema.json").exists());
}

#[test]
fn init_writes_the_schema_beside_the_rule_file_only_when_asked() {
    let repo = build("adr-0031");
    let output = repo
        .recount(&[
            "init",
            "--rev",
            &repo.oid("04"),
            "--output",
            "drafted.toml",
            "--schema",
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Paths as the user would type them from where recount ran.
    assert!(
        stdout(&output).starts_with("wrote drafted.toml (")
            && stdout(&output).contains(" and recount.schema.json\n"),
        "{}",
        stdout(&output)
    );
    assert!(
        repo.read("drafted.toml")
            .starts_with("#:schema ./recount.schema.json\n")
    );
    assert_eq!(
        repo.read("recount.schema.json"),
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/schemas/rules.schema.json"
        ))
        .expect("schema")
    );
}

#[test]
fn init_with_no_figure_to_tie_shows_a_rule_to_start_from_that_checks() {
    let repo = build("doc-links");
    let output = repo
        .recount(&["init", "--output", "drafted.toml"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("an example rule to start from"),
        "{}",
        stdout(&output)
    );
    let text = repo.read("drafted.toml");
    assert!(
        text.contains("# [[fact]]\n# id = \"docs-pages\"\n# files = \"docs/**/*.md\"\n"),
        "{text}"
    );
    // Uncommented, it is a rule `check` reads and recounts.
    let uncommented: String = text
        .lines()
        .map(|line| {
            ["[[fact]]", "id = ", "files = ", "claims = "]
                .iter()
                .find_map(|key| line.strip_prefix("# ").filter(|rest| rest.starts_with(key)))
                .unwrap_or(line)
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(repo.path().join("drafted.toml"), uncommented).expect("write");
    let checked = repo
        .recount(&["check", "--rules", "drafted.toml", "--format", "json"])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_str(&stdout(&checked)).expect("json");
    let checks: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["check"].as_str())
        .filter(|c| c.starts_with("claim") || c.starts_with("fact"))
        .collect();
    assert_eq!(checks, ["claim-not-found"], "{}", stderr(&checked));
}

#[test]
fn the_drafted_rules_are_clean_where_the_record_is_true_and_report_real_drift() {
    let repo = build("adr-0031");
    let at = repo.oid("04");
    drafted(&repo, &at, "drafted.toml");
    let (_, findings) = checked(&repo, &at, "drafted.toml");
    // Clean: the two backticked tests `schemas/README.md` names were never in
    // the fixture's history, which makes them no drift (never-resolved).
    assert_eq!(findings, vec![]);
    // At main, drafted from main's own tree: the file cap was raised (05), so
    // the derivation and the stated cap drift, and the changelog (07) brings
    // back the retired figure without its attribution.
    let main = repo.oid("09");
    let text = drafted(&repo, &main, "drafted-main.toml");
    assert!(
        text.contains("phrase = '2 * MAX_SOURCE_FILE_BYTES'"),
        "{text}"
    );
    // The two live figures the raised cap made stale are drafted, and the
    // draft says so before check does.
    assert!(
        text.contains(&format!(
            "# 2 drafted figures already disagree with the tree (each says how below):\n#   {ADR}:59:"
        )),
        "{text}"
    );
    let (code, findings) = checked(&repo, &main, "drafted-main.toml");
    assert_eq!(code, 1);
    let drift: Vec<_> = findings
        .into_iter()
        .filter(|(check, _, _)| check == "fact-drift" || check == "retired-claim")
        .collect();
    assert_eq!(
        drift,
        vec![
            seen("retired-claim", "CHANGELOG.md", 7),
            seen("fact-drift", ADR, 59),
            seen("fact-drift", ADR, 61),
        ]
    );
}

#[test]
fn init_never_overwrites_without_force_and_is_deterministic() {
    let repo = build("adr-0031");
    let main = repo.oid("09");
    let first = drafted(&repo, &main, "drafted.toml");
    let again = repo
        .recount(&["init", "--rev", &main, "--output", "drafted.toml"])
        .output()
        .expect("runs");
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("drafted.toml exists; recount init does not overwrite it"),
        "{}",
        stderr(&again)
    );
    assert!(stderr(&again).contains("--force"));
    let forced = repo
        .recount(&[
            "init",
            "--rev",
            &main,
            "--output",
            "drafted.toml",
            "--force",
        ])
        .output()
        .expect("runs");
    assert_eq!(forced.status.code(), Some(0));
    assert_eq!(
        repo.read("drafted.toml"),
        first,
        "the same tree drafts the same bytes"
    );
    // The working tree's recount.toml is the fixture's own: kept.
    let kept = repo.read("recount.toml");
    let refused = repo.recount(&["init"]).output().expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(repo.read("recount.toml"), kept);
    // --stdout prints the same draft and writes nothing.
    let printed = repo
        .recount(&["init", "--rev", &main, "--stdout"])
        .output()
        .expect("runs");
    assert_eq!(printed.status.code(), Some(0));
    assert_eq!(stdout(&printed), first);
}

#[test]
fn a_bare_repository_needs_an_output() {
    let repo = build("adr-0031");
    let bare = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--bare"])
        .arg(repo.path())
        .arg(bare.path().join("r.git"))
        .status()
        .expect("git runs");
    assert!(status.success());
    let output = repo
        .recount(&["init", "--rev", "HEAD", "--repo"])
        .arg(bare.path().join("r.git"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("a bare repository has no working tree"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn schema_prints_the_published_schemas() {
    let repo = build("adr-0031");
    for (name, file) in [
        ("rules", "rules.schema.json"),
        ("report", "report.schema.json"),
        ("history", "history.schema.json"),
    ] {
        let output = repo.recount(&["schema", name]).output().expect("runs");
        assert_eq!(output.status.code(), Some(0));
        let published =
            std::fs::read_to_string(format!("{}/schemas/{file}", env!("CARGO_MANIFEST_DIR")))
                .expect("schema");
        assert_eq!(stdout(&output), published);
    }
}

/// The seed's figure shapes, in `fixtures/amended-adr`: derivations over
/// constants, a ratio of one to its constant, a product written out twice,
/// constants stated by value, counts of registered tools and a retired figure
/// in quotes. Drafted where the record is true (26), every rule checks clean
/// there. Each is pinned to the frame that governs its passage, as its
/// citations are read: the header's sha is gone, so the commit that wrote the
/// passage (03) stands in, and says so; the amendment's figures are measured
/// on its day. The product is never read as `BYTES_PER_CHAR = 500`.
#[test]
fn init_drafts_the_seed_shapes_and_each_draft_checks_clean_where_the_record_is_true() {
    let repo = build("amended-adr");
    let landed = repo.oid("26");
    let output = repo
        .recount(&["init", "--rev", &landed, "--output", "drafted.toml"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = repo.read("drafted.toml");
    let facts = text.matches("\n[[fact]]\n").count();
    assert!(facts >= 10, "{facts} facts drafted:\n{text}");
    for expected in [
        "expr = 'MAX_RENDER_CHARS + MAX_NODES * 4'",
        // The ratio, over the one constant it agrees with.
        "expr = '(MAX_RENDER_CHARS + MAX_NODES * 4) / MAX_RENDER_CHARS'",
        "expr = '3 * MAX_SPOOL_BYTES + 1 MiB'",
        // The written-out product states BYTES_PER_CHAR where it stands.
        "says = 'BYTES_PER_CHAR\\s+=\\s+500\\s+×\\s+200\\s+×\\s+(?<value>",
        "count = '@_tool('\nfile = 'src/relay/tools.py'",
        // The paragraph that measured "as of" the branch commit is pinned there.
        &format!("at = '{}'\ncount = '@_tool('", &repo.oid("25")[..8]),
        "constant = 'MAX_NODES'",
        "phrase = 'twice the spool cap, 12,582,912 bytes'",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let stand_in = &repo.oid("03")[..8];
    for expected in [
        format!("at = '{stand_in}'\nconstant = 'MAX_SPOOL_BYTES'"),
        format!(
            "# Frame: the record's section marker names `151f400e`, which is not in this repository; {stand_in}, the commit that wrote this passage, stands in for it"
        ),
        // "four tools" under the header: the count at the stand-in, which
        // the landed tree no longer has (it has five).
        format!(
            "at = '{stand_in}'\ncount = '@_tool('\nfile = 'src/relay/tools.py'\nclaims = [{{ in = 'docs/adr/0007-body-cap.md', says = 'The\\s+relay\\s+answers\\s+(?<value>\\w+)\\s+tools' }}]"
        ),
        "at = { date = '2026-09-02' }\nexpr = '3 * MAX_SPOOL_BYTES + 1 MiB'".to_owned(),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("at = '151f400e'"), "{text}");
    assert!(!text.contains("Disagrees:"), "{text}");
    assert!(
        !text.contains("says = 'BYTES_PER_CHAR\\s+=\\s+(?<value>"),
        "{text}"
    );
    let (code, findings) = checked(&repo, &landed, "drafted.toml");
    assert_eq!((code, findings), (0, vec![]));
    // At 50 the spool cap grew and a sixth tool arrived: the live count
    // drifts, and only it; the figures measured at a frame stay as measured.
    let (code, findings) = checked(&repo, &repo.oid("50"), "drafted.toml");
    assert_eq!(code, 1);
    let drift: Vec<_> = findings
        .into_iter()
        .filter(|(check, _, _)| check == "fact-drift")
        .collect();
    assert_eq!(drift, vec![seen("fact-drift", "README.md", 5)]);
}

/// A figure that disagrees today is drafted and said to disagree, with the
/// commit it held at; a count tied by a guess that no commit bears out is
/// listed as not drafted, with what each commit gave.
#[test]
fn init_drafts_a_figure_that_disagrees_today_and_says_so() {
    let repo = build("amended-adr");
    let grown = repo.oid("50");
    let output = repo
        .recount(&["init", "--rev", &grown, "--stdout"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let writer = &repo.oid("26")[..8];
    for expected in [
        "# 1 drafted figure already disagrees with the tree (each says how below):\n#   README.md:5: \"five tools\"".to_owned(),
        format!(
            "# Disagrees: the tree now gives six; it gave the record's figure when {writer}, the commit that wrote this line, was made"
        ),
        "id = 'registered-tools'\ncount = '@_tool('".to_owned(),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in:\n{text}");
    }
    // A search the record ran inline, with the count it returned: drafted
    // as the same search, at the day closing its parenthesis.
    repo.write(
        "docs/searches.md",
        "# Searches\n\nThe spool cap is read in one file (`git grep -n MAX_SPOOL_BYTES -- src`\nreturns exactly two lines, 2026-09-03).\n",
    );
    let output = repo.recount(&["init", "--stdout"]).output().expect("runs");
    let text = stdout(&output);
    assert!(
        text.contains(
            "at = { date = '2026-09-03' }\ngrep = 'MAX_SPOOL_BYTES'\npaths = ['src']\nclaims = [{ in = 'docs/searches.md', says = 'exactly\\s+(?<value>\\w+)\\s+lines,' }]"
        ),
        "{text}"
    );
    // In the working tree, a count no commit ever had.
    repo.write("README.md", "# relay\n\nThe relay registers nine tools.\n");
    let output = repo.recount(&["init", "--stdout"]).output().expect("runs");
    let text = stdout(&output);
    assert!(
        text.contains(
            "#   README.md:3: \"nine tools\" (recount's guess at what it counts (`@_tool(` registrations in src/relay/tools.py) gives six now: no commit bears the guess out)"
        ),
        "{text}"
    );
    assert!(!text.contains("in = 'README.md'"), "{text}");
}
