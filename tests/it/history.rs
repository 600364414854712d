//! `recount history` and `recount bisect` on the ADR fixture's first-parent
//! line: the commit that raised the file cap is the culprit of the body-cap
//! drift, both ways; the incremental engine agrees with computing every fact
//! afresh at every commit; bad input is a plain error and exit 2.

use serde_json::Value;

#[path = "../../benches/support/gen_history_repo.rs"]
mod gen_history_repo;

use crate::support::{Repo, build, stderr, stdout};

fn run(repo: &Repo, args: &[&str]) -> (i32, String, String) {
    let output = repo.recount(args).output().expect("runs");
    (
        output.status.code().expect("exit code"),
        stdout(&output),
        stderr(&output),
    )
}

fn history_json(repo: &Repo, extra: &[&str]) -> Value {
    let mut args = vec!["history", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(repo, &args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("JSON ({e}): {out}"))
}

fn accepted_by_the_history_schema(report: &Value) -> bool {
    let set = recount::validation::SchemaSet::from_files([(
        "history.schema.json",
        recount::report::history::HISTORY_SCHEMA,
    )])
    .expect("the history schema loads");
    let bytes = serde_json::to_vec(report).expect("serialises");
    recount::validation::verdict(&set, "history.schema.json", &bytes)
        .expect("checks")
        .is_accepted()
}

fn claim<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .flat_map(|f| f["claims"].as_array().expect("claims"))
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no claim {id} in {report:#}"))
}

#[test]
fn history_names_the_commit_that_raised_the_file_cap_as_the_culprit() {
    let repo = build("adr-0031");
    let report = history_json(&repo, &[]);
    assert!(accepted_by_the_history_schema(&report), "{report:#}");
    let raised = repo.oid("05");
    // First-parent only: the branch commits 08 and 10 are not walked.
    assert_eq!(report["commits"], 8);
    let body = claim(&report, "body-cap#1");
    assert_eq!(body["first_drift"]["id"], raised.as_str(), "{body:#}");
    assert_eq!(body["drifted_since"]["id"], raised.as_str());
    assert_eq!(body["first_drift"]["subject"], "raise source file cap");
    assert_eq!(body["first_drift"]["author"], "recount fixtures");
    assert_eq!(body["status"]["status"], "drifted");
    assert_eq!(body["status"]["stated"], "26,214,400 bytes");
    assert_eq!(body["status"]["observed"], "32,505,856 bytes");
    assert_eq!(body["drifted_before_range"], false);
    // The fact's value changed at that commit, once.
    let fact = report["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .find(|f| f["id"] == "body-cap")
        .expect("body-cap");
    let changes = fact["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 1, "{fact:#}");
    assert_eq!(changes[0]["commit"]["id"], raised.as_str());
    assert_eq!(changes[0]["from"], "26,214,400");
    assert_eq!(changes[0]["to"], "32,505,856");
    // A claim that holds throughout has no culprit.
    let budget = claim(&report, "render-budget#1");
    assert_eq!(budget["status"]["status"], "holds");
    assert!(budget.get("first_drift").is_none(), "{budget:#}");
    // The verdict of commit 05 names the two new drifts.
    let verdict = report["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .find(|v| v["commit"]["id"] == raised.as_str())
        .expect("verdict of 05");
    assert_eq!(
        verdict["new_drifts"],
        serde_json::json!(["body-cap#1", "file-cap#1"])
    );
    assert_eq!(verdict["drifted"], 2);
}

#[test]
fn a_fact_pinned_by_at_keeps_its_value_while_its_records_change() {
    let repo = build("adr-0031");
    let report = history_json(&repo, &["--fact", "mcp-schema-files"]);
    let facts = report["facts"].as_array().expect("facts");
    assert_eq!(facts.len(), 1);
    let fact = &facts[0];
    assert!(fact["pinned"].is_string(), "{fact:#}");
    assert_eq!(fact["changes"], serde_json::json!([]));
    // Its claim is read from each commit's records: not found before the ADR
    // was written, holding after.
    let changes = fact["claims"][0]["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 1, "{fact:#}");
    assert_eq!(changes[0]["from"], "not-found");
    assert_eq!(changes[0]["to"], "holds");
    assert_eq!(changes[0]["commit"]["id"], repo.oid("02").as_str());
}

#[test]
fn the_human_and_markdown_reports_name_the_culprit() {
    let repo = build("adr-0031");
    let short = &repo.oid("05")[..8];
    let (code, out, _) = run(&repo, &["history", "--claim", "body-cap#1"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("body-cap#1: drifted since {short} (2026-09-01, recount fixtures): raise source file cap")),
        "{out}"
    );
    assert!(
        out.contains(&format!("26,214,400 -> 32,505,856 at {short}")),
        "{out}"
    );
    assert!(
        !out.contains("file-cap#1"),
        "--claim reports that claim only:\n{out}"
    );
    let (code, md, _) = run(&repo, &["history", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(
        md.contains(&format!("| `body-cap#1` | drifted | `{short}` 2026-09-01")),
        "{md}"
    );
}

#[test]
fn the_chart_is_an_svg_and_the_same_bytes_every_run() {
    let repo = build("adr-0031");
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("a.svg");
    let second = dir.path().join("b.svg");
    for path in [&first, &second] {
        let (code, _, err) = run(
            &repo,
            &["history", "--chart", path.to_str().expect("utf-8 path")],
        );
        assert_eq!(code, 0, "{err}");
    }
    let a = std::fs::read_to_string(&first).expect("chart");
    assert_eq!(a, std::fs::read_to_string(&second).expect("chart"));
    assert!(
        a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{a}"
    );
    assert!(a.contains("body-cap (expr)"), "{a}");
    assert!(
        a.contains(&repo.oid("05")[..8]),
        "the change is marked: {a}"
    );
    assert!(a.trim_end().ends_with("</svg>"));
}

#[test]
fn bisect_finds_the_same_commit() {
    let repo = build("adr-0031");
    let raised = repo.oid("05");
    let (code, out, err) = run(&repo, &["bisect", "--claim", "body-cap#1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!(
            "claim body-cap#1 first drifted at {} (2026-09-01, recount fixtures): raise source file cap\n  commit {raised}\n",
            &raised[..8]
        )),
        "{out}"
    );
    let (code, out, _) = run(&repo, &["bisect", "--fact", "body-cap", "--format", "json"]);
    assert_eq!(code, 0);
    let found: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(found["outcome"], "culprit");
    assert_eq!(found["commit"]["id"], raised.as_str());
    // Fewer evaluations than commits: it searches, it does not walk.
    assert!(found["steps"].as_u64().expect("steps") < 8, "{found:#}");
    // `--json`, the older spelling, prints the same.
    let (_, older, _) = run(&repo, &["bisect", "--fact", "body-cap", "--json"]);
    assert_eq!(older, out);
}

#[test]
fn bisect_says_when_a_claim_was_never_false_or_never_true_in_the_range() {
    let repo = build("adr-0031");
    let (code, out, _) = run(&repo, &["bisect", "--claim", "render-budget#1"]);
    assert_eq!(code, 1);
    assert!(out.contains("is not drifted at the newest commit"), "{out}");
    let after = format!("{}..HEAD", repo.oid("05"));
    let (code, out, _) = run(
        &repo,
        &["bisect", "--claim", "body-cap#1", "--range", &after],
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("is drifted already at the oldest commit"),
        "{out}"
    );
    // The range's end is where the search starts: before the cap was raised
    // there is nothing to find.
    let before = format!("{}..{}", repo.oid("01"), repo.oid("04"));
    let (code, _, _) = run(
        &repo,
        &["bisect", "--claim", "body-cap#1", "--range", &before],
    );
    assert_eq!(code, 1);
}

#[test]
fn a_listing_claim_is_held_to_the_listing_of_a_reused_outcome() {
    // Commit 03 of `listing` brings only the record up to date: the grep's
    // outcome at 02 is reused there, listing and all (a walk keeps a count's
    // listing only for a fact with a listing claim).
    let repo = build("listing");
    let report = history_json(&repo, &[]);
    let changes = claim(&report, "routes#2")["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            (
                c["from"].as_str().unwrap_or("").to_owned(),
                c["to"].as_str().unwrap_or("").to_owned(),
                c["commit"]["id"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect::<Vec<_>>();
    assert_eq!(
        changes,
        [
            ("holds".to_owned(), "drifted".to_owned(), repo.oid("02")),
            ("drifted".to_owned(), "holds".to_owned(), repo.oid("03")),
        ],
        "{report:#}"
    );
}

#[test]
fn incremental_results_equal_computing_every_commit_afresh() {
    let repo = build("adr-0031");
    let options = |incremental: bool, jobs: usize| recount::history::HistoryOptions {
        repo: Some(repo.path().to_path_buf()),
        rules: Vec::new(),
        range: recount::history::RangeSpec {
            range: Some("HEAD".to_owned()),
            since: None,
            max_commits: 100,
        },
        incremental,
        jobs: Some(jobs),
    };
    let evaluate = |incremental: bool, jobs: usize| {
        let mut session =
            recount::history::Session::open(&options(incremental, jobs)).expect("opens");
        let commits = session
            .commits(&options(incremental, jobs).range)
            .expect("walks");
        let all = session.evaluate_all(&commits, &|_| {}).expect("evaluates");
        (session, commits, all)
    };
    let (fresh_session, commits, fresh) = evaluate(false, 1);
    assert_eq!(commits.len(), 8);
    for jobs in [1, 3] {
        let (_, _, incremental) = evaluate(true, jobs);
        assert_eq!(incremental, fresh, "{jobs} workers");
    }
    // And commit by commit, newest first, through one shared cache.
    let (session, _, _) = evaluate(true, 1);
    for (n, &commit) in commits.iter().enumerate().rev() {
        assert_eq!(
            session.evaluate(commit).expect("evaluates"),
            fresh[n],
            "commit {n}"
        );
        assert_eq!(fresh_session.evaluate(commit).expect("evaluates"), fresh[n]);
    }
    // The facts do change along the line: the comparison is not of constants.
    assert_ne!(fresh[0], fresh[7]);
}

#[test]
fn bad_input_is_a_plain_error_and_exit_2() {
    let repo = build("adr-0031");
    let cases: &[(&[&str], &str)] = &[
        (
            &["history", "--fact", "no-such-fact"],
            "no fact `no-such-fact` in the rule files",
        ),
        (
            &["history", "--claim", "body-cap#9"],
            "fact `body-cap` has no claim #9",
        ),
        (
            &["history", "--claim", "body-cap"],
            "`body-cap` is not a claim id",
        ),
        (&["bisect", "--claim", "nope#1"], "no fact `nope`"),
        (
            &["history", "--range", "no-such-rev..HEAD"],
            "unknown revision `no-such-rev`",
        ),
        (&["history", "--range", "..HEAD"], "has no start"),
        (
            &["history", "--max-commits", "5"],
            "holds more than 5 first-parent commits (--max-commits)",
        ),
        (
            &["history", "--since", "2026-13-01"],
            "is not a calendar day",
        ),
        (
            &["history", "--since", "2030-01-01"],
            "holds no first-parent commits since 2030-01-01",
        ),
    ];
    for (args, expected) in cases {
        let (code, out, err) = run(&repo, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} prints no report: {out}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn history_without_rules_says_what_it_needs() {
    // A repository with a commit and no recount.toml: history follows rule
    // facts, and the zero-configuration citation checks are `check`'s.
    let dir = tempfile::tempdir().expect("temp dir");
    let git = git2::Repository::init(dir.path()).expect("init");
    std::fs::write(dir.path().join("README.md"), "# notes\n").expect("write");
    let mut index = git.index().expect("index");
    index
        .add_path(std::path::Path::new("README.md"))
        .expect("add");
    let tree = git
        .find_tree(index.write_tree().expect("tree"))
        .expect("tree");
    let who = git2::Signature::new("t", "t@example.invalid", &git2::Time::new(0, 0)).expect("sig");
    git.commit(Some("HEAD"), &who, &who, "first", &tree, &[])
        .expect("commit");
    let output = assert_cmd::Command::cargo_bin("recount")
        .expect("binary")
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env("RECOUNT_CACHE_DIR", "")
        .args(["history"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no recount.toml"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn incremental_results_equal_computing_afresh_on_the_generated_repository() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo.git");
    let commits = gen_history_repo::generate(
        &repo,
        gen_history_repo::Scale {
            files: 1_000,
            commits: 320,
        },
    )
    .expect("generates");
    let rules = dir.path().join("recount.toml");
    std::fs::write(&rules, gen_history_repo::RULES).expect("rules");
    let options = |incremental: bool| recount::history::HistoryOptions {
        repo: Some(repo.clone()),
        rules: vec![rules.clone()],
        range: recount::history::RangeSpec {
            range: Some("main".to_owned()),
            since: None,
            max_commits: 1_000,
        },
        incremental,
        jobs: Some(2),
    };
    let evaluate = |incremental: bool| {
        let mut session = recount::history::Session::open(&options(incremental)).expect("opens");
        let walked = session.commits(&options(incremental).range).expect("walks");
        assert_eq!(walked, commits);
        session.evaluate_all(&walked, &|_| {}).expect("evaluates")
    };
    let fresh = evaluate(false);
    let incremental = evaluate(true);
    for (n, (a, b)) in incremental.iter().zip(&fresh).enumerate() {
        assert_eq!(a, b, "commit {n}");
    }
    // Over the line the cap is raised, schemas are published and the record is
    // brought up to date: values change and claims drift and recover.
    let drifted = |eval: &recount::history::CommitEval| {
        eval.claims
            .iter()
            .flatten()
            .filter(|c| c.is_drifted())
            .count()
    };
    assert_eq!(drifted(&fresh[0]), 0);
    assert!(fresh.iter().any(|e| drifted(e) > 0));
    assert!(fresh[0].facts != fresh[fresh.len() - 1].facts);
}

#[test]
fn the_per_file_grep_cache_tells_searches_apart_by_their_case_rule() {
    // Two searches with the same text, one blind to case, share every file:
    // the cache of matching lines per file must not hand one the other's.
    let repo = build("adr-0031");
    repo.write(
        "case.toml",
        "[[fact]]\nid = \"exact\"\ngrep = \"TOOL-CONTEXT\"\n\n\
         [[fact]]\nid = \"any-case\"\ngrep = \"TOOL-CONTEXT\"\nignore_case = true\n",
    );
    let (code, out, err) = run(
        &repo,
        &[
            "facts",
            "--rev",
            "HEAD",
            "--rules",
            "case.toml",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let facts: Value = serde_json::from_str(&out).expect("JSON");
    let value = |id: &str| {
        facts["facts"]
            .as_array()
            .expect("facts")
            .iter()
            .find(|f| f["id"] == id)
            .map(|f| f["value"].clone())
            .unwrap_or_else(|| panic!("no {id}: {facts:#}"))
    };
    assert_eq!(value("exact"), "0", "{facts:#}");
    // `git grep -i -c TOOL-CONTEXT HEAD` counts 24 lines in the fixture.
    assert_eq!(value("any-case"), "24", "{facts:#}");
}

#[test]
fn the_report_is_the_same_bytes_whatever_the_number_of_workers() {
    let repo = build("adr-0031");
    let outputs: Vec<String> = ["1", "2", "5"]
        .iter()
        .map(|jobs| {
            let (code, out, err) = run(&repo, &["history", "--format", "json", "--jobs", jobs]);
            assert_eq!(code, 0, "{err}");
            out
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

#[test]
fn a_shallow_clone_says_its_history_stops_and_how_to_fetch_the_rest() {
    let repo = build("adr-0031");
    let clone = tempfile::tempdir().expect("temp dir");
    // Three first-parent commits: the cap was raised (05) before all of them.
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--depth", "3"])
        .arg(format!("file://{}", repo.path().display()))
        .arg(clone.path())
        .status()
        .expect("git clone runs");
    assert!(status.success());
    let in_clone = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("recount")
            .expect("binary")
            .current_dir(clone.path())
            .env("NO_COLOR", "1")
            .env("RECOUNT_CACHE_DIR", "")
            .args(args)
            .output()
            .expect("runs")
    };
    let hint = "this clone is shallow: its history stops at";
    let advice = "`fetch-depth: 0` for actions/checkout";
    let history = in_clone(&["history"]);
    assert_eq!(history.status.code(), Some(0), "{}", stderr(&history));
    assert!(
        stdout(&history).contains("since before the range"),
        "{}",
        stdout(&history)
    );
    let said = stderr(&history)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(said.contains(hint) && said.contains(advice), "{said}");
    let bisect = in_clone(&["bisect", "--claim", "body-cap#1"]);
    assert_eq!(bisect.status.code(), Some(1), "{}", stderr(&bisect));
    assert!(stdout(&bisect).contains("is drifted already at the oldest commit"));
    let said = stderr(&bisect)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(said.contains(hint) && said.contains(advice), "{said}");
    // The full clone walks to the root and says nothing of the kind.
    let (_, _, err) = run(&repo, &["history"]);
    assert!(!err.contains("shallow"), "{err}");
}

#[test]
fn a_claim_false_the_day_it_was_written_is_named_so_by_bisect_and_history() {
    // Commit 09 writes "trimmed to 96 characters"; the fact says 95 at every
    // commit. Nothing broke it later: it was never true.
    let repo = build("adr-0031");
    repo.write(
        "false.toml",
        "[recount]\nrecords = [\"docs/**/*.md\"]\n\n[[fact]]\nid = \"trimmed\"\nexpr = \"95\"\n\
         claims = [{ says = 'trimmed to (?<value>\\d+)' }]\n",
    );
    let written = repo.oid("09");
    let (code, out, err) = run(
        &repo,
        &["bisect", "--rules", "false.toml", "--claim", "trimmed#1"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!(
            "claim trimmed#1 was false when written, at {}",
            &written[..8]
        )),
        "{out}"
    );
    let (code, out, _) = run(
        &repo,
        &[
            "bisect",
            "--rules",
            "false.toml",
            "--claim",
            "trimmed#1",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0);
    let found: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(found["false_when_written"], true, "{found:#}");
    let report = history_json(&repo, &["--rules", "false.toml"]);
    assert!(accepted_by_the_history_schema(&report), "{report:#}");
    let trimmed = claim(&report, "trimmed#1");
    assert_eq!(trimmed["false_when_written"], true, "{trimmed:#}");
    let (_, human, _) = run(&repo, &["history", "--rules", "false.toml"]);
    assert!(
        human.contains(&format!("false when written, at {}", &written[..8])),
        "{human}"
    );
    // A range that starts at the commit that wrote it: the commit before
    // the range is read, and the claim was written false inside the range,
    // not "since before the range".
    let before = repo.oid("07");
    let (_, human, _) = run(
        &repo,
        &[
            "history",
            "--rules",
            "false.toml",
            "--range",
            &format!("{before}..main"),
        ],
    );
    assert!(
        human.contains(&format!("false when written, at {}", &written[..8]))
            && !human.contains("since before the range"),
        "{human}"
    );
    // The body cap held when written and a later commit broke it: still
    // "first drifted".
    let (_, out, _) = run(&repo, &["bisect", "--claim", "body-cap#1"]);
    assert!(out.contains("first drifted at"), "{out}");
}
