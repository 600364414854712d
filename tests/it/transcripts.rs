//! Transcripts: the commands a record shows with their output are re-run
//! natively and compared. The native re-run is held to the real tools: every
//! command of the fixture's page (and more), run by `sh` with the real `git`,
//! `grep`, `ls`, `find`, `wc`, `cut`, `sort`, `uniq`, `head` and `tail` in a
//! checkout of the same commit, prints what recount's re-run prints. The test
//! spawns them; recount never does.

use std::path::Path;
use std::process::Command;

use recount::checks::transcripts::find::{Form, find};
use recount::checks::transcripts::parse::{Source, parse};
use recount::checks::transcripts::run::{Context, Texts, run};
use recount::records::markdown::Markdown;
use recount::snapshot::{GitRepo, Snapshot};
use serde_json::Value;

use crate::support::{Repo, build, json_report, stderr, stdout};

/// Commands beyond the page's, so every option and pipe is held to the tools.
const MORE: &[&str] = &[
    "git grep -c -h '@handler(' -- src",
    "git grep -i -n store -- '*.py'",
    "git grep -w -n handler -- src",
    "git grep -n -e TODO -e HANDLERS -- src ':^src/ledger/util'",
    "git grep -l -E 'def [a-z]+_[a-z]+' -- src",
    "git grep -F -n 'params[' -- src",
    "git grep -n 'return' HEAD -- src/ledger/store.py",
    "git grep -c def -- src | cut -d: -f2- | sort -n",
    "grep -rc def src | sort",
    "grep -l TODO src/ledger/handlers.py src/ledger/store.py",
    "grep -c TODO src/ledger/handlers.py src/ledger/store.py",
    "grep -w -o -n handler src/ledger/util/text.py",
    "grep -E -n 'def (add|get)_' src/ledger/handlers.py",
    "grep -c '' src/ledger/store.py",
    "grep -h -n -i todo src/ledger/handlers.py src/ledger/registry.py",
    "grep -n 'e[a-z]*s\\b' src/ledger/store.py",
    "grep -r -h 'def ' src/ledger | sort -r | head -n 4",
    "grep -v '^ ' src/ledger/registry.py | grep -c def",
    "grep -r -n TODO src/",
    "grep -o '[A-Z][A-Z]*' src/ledger/registry.py | uniq -c",
    "ls src/ledger",
    "ls -1 schemas/*.json",
    "ls schemas/entry.schema.json docs/overview.md",
    "git ls-files '*.json'",
    "git ls-files | tail -n 2",
    "git rev-list --count HEAD",
    "find . -name '*.json' | sort",
    "find src -iname '*.PY' | sort",
    "find schemas -type f | sort | head -n 1",
    "find src/ledger/util -type d",
    "git ls-files | cut -d/ -f2 | sort | uniq",
];

/// The real tools in a checkout, with a locale that sorts by bytes.
fn real(dir: &Path, command: &str) -> Vec<String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env("GIT_PAGER", "cat")
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn native(repo: &GitRepo, commit: &str, command: &str) -> Vec<String> {
    let pipeline = parse(command).unwrap_or_else(|r| panic!("{command}: {r:?}"));
    let (at, rev) = match &pipeline.source {
        Source::GitGrep { revs, .. } if !revs.is_empty() => {
            let rev = revs[0].clone();
            (repo.resolve(&rev).expect("revision"), Some(rev))
        }
        _ => (commit.to_owned(), None),
    };
    let snapshot = repo.tree_snapshot(&at).expect("snapshot");
    let history = |rev: &str, paths: &[String]| {
        let rev = rev.replacen("HEAD", commit, 1);
        repo.count_commits(&rev, paths).map_err(|e| e.to_string())
    };
    let texts = Texts::default();
    let cx = Context {
        snapshot: &snapshot as &dyn Snapshot,
        texts: &texts,
        rev: rev.as_deref(),
        history: &history,
    };
    run(&pipeline, &cx).unwrap_or_else(|e| panic!("{command}: {e:?}"))
}

fn checkout(repo: &Repo, oid: &str) {
    let status = Command::new("git")
        .args(["checkout", "-q", oid])
        .current_dir(repo.path())
        .status()
        .expect("git checkout");
    assert!(status.success());
}

#[test]
fn the_native_re_run_prints_what_the_real_tools_print() {
    let repo = build("transcripts");
    let git = GitRepo::open(repo.path()).expect("repository");
    let page = std::fs::read_to_string(
        crate::support::fixtures()
            .join("transcripts/commits/02-a-page-of-transcripts/docs/transcripts.md"),
    )
    .expect("page");
    let mut commands: Vec<String> = find(&page, &Markdown::new(&page))
        .into_iter()
        .filter(|f| f.form == Form::Block && !f.output.is_empty())
        .map(|f| f.command)
        .filter(|c| parse(c).is_ok())
        .collect();
    assert!(commands.len() >= 25, "the page's commands: {commands:?}");
    commands.extend(MORE.iter().map(|c| (*c).to_owned()));
    let mut compared = 0;
    for (name, oid) in &repo.commits {
        if name.starts_with("01") {
            continue;
        }
        checkout(&repo, oid);
        for command in &commands {
            let pipeline = parse(command).expect("parses");
            let mut expected = real(repo.path(), command);
            let mut actual = native(&git, oid, command);
            if !pipeline.ordered() {
                expected.sort();
                actual.sort();
            }
            assert!(!expected.is_empty(), "{command} prints nothing at {name}");
            assert_eq!(actual, expected, "`{command}` at {name}");
            compared += 1;
        }
    }
    assert!(compared >= 2 * 55, "{compared} comparisons");
}

/// `recount transcripts --format json` at a commit.
fn listed(repo: &Repo, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["transcripts", "--format", "json"];
    args.extend_from_slice(extra);
    let output = repo.recount(&args).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_str::<Value>(&stdout(&output))
        .expect("JSON")
        .as_array()
        .expect("a list")
        .clone()
}

fn at_line(list: &[Value], line: &str) -> Value {
    list.iter()
        .find(|t| {
            t["at"]
                .as_str()
                .is_some_and(|a| a.starts_with(&format!("docs/transcripts.md:{line}:")))
        })
        .unwrap_or_else(|| panic!("no transcript at line {line}: {list:#?}"))
        .clone()
}

#[test]
fn a_count_that_changed_after_its_frame_passes_there_and_drifts_without_one() {
    let repo = build("transcripts");
    let head = repo.oid("03");
    let list = listed(&repo, &["--rev", &head]);
    // "measured at 46079100": the block is re-run at that commit and agrees.
    let framed = at_line(&list, "123");
    assert_eq!(
        framed["command"],
        "grep -c '@handler(' src/ledger/handlers.py"
    );
    assert_eq!(
        (framed["status"].as_str(), framed["frame"].as_str()),
        (Some("agrees"), Some("46079100"))
    );
    // The same block under no frame is re-run at the audited commit: drift.
    let unframed = at_line(&list, "134");
    assert_eq!(unframed["command"], framed["command"]);
    assert_eq!(unframed["status"], "drift");
    assert_eq!(
        (unframed["expected"].as_str(), unframed["actual"].as_str()),
        (Some("3"), Some("4"))
    );
    // A revision in the command wins over the audited snapshot.
    let named = at_line(&list, "125");
    assert_eq!(
        (named["status"].as_str(), named["frame"].as_str()),
        (Some("agrees"), Some("46079100"))
    );

    let (code, report) = json_report(&repo, &["--rev", &head]);
    assert_eq!(code, 1);
    let drift: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["check"] == "transcript-drift")
        .collect();
    let lines: Vec<u64> = drift
        .iter()
        .map(|f| f["location"]["line"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(lines, [15, 17, 32, 44, 81, 104, 135]);
    // The finding names the commit and points at the first differing line,
    // with the diff.
    let count = drift
        .iter()
        .find(|f| f["location"]["line"] == 135)
        .expect("finding");
    assert_eq!(count["location"]["commit"], head.as_str());
    assert!(
        count["message"]
            .as_str()
            .unwrap_or("")
            .contains(&format!("re-run at {}", &head[..8]))
    );
    assert_eq!(count["diff"]["lines"], serde_json::json!(["-3", "+4"]));
    let listing = drift
        .iter()
        .find(|f| f["location"]["line"] == 15)
        .expect("finding");
    assert_eq!(
        listing["diff"]["lines"],
        serde_json::json!(["+src/ledger/handlers.py:23"])
    );

    // At 02 every transcript in the family agrees.
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("02")]);
    assert_eq!(code, 0, "{report:#}");
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("2 transcripts with output not re-run"),
        "{notes}"
    );
    assert!(notes.contains("pytest"), "{notes}");
}

#[test]
fn the_switches_and_a_suppression_turn_the_re_runs_off() {
    let repo = build("transcripts");
    // The working tree is commit 03: drift.
    let (code, _) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let (code, report) = json_report(&repo, &["--no-transcripts"]);
    assert_eq!(code, 0, "{report:#}");
    repo.write("recount.toml", "[recount]\ntranscripts = false\n");
    let (code, _) = json_report(&repo, &[]);
    assert_eq!(code, 0);
    assert!(listed(&repo, &[]).is_empty());
    std::fs::remove_file(repo.path().join("recount.toml")).expect("remove");

    // A directive above each drifting block silences it; the page says why.
    let page = repo.read("docs/transcripts.md");
    let directive = "<!-- recount: ignore[transcript-drift] reason=\"the page describes the first release\" -->\n";
    let mut silenced = String::new();
    for (i, block) in page.split("```console\n").enumerate() {
        if i > 0 {
            silenced.push_str(directive);
            silenced.push_str("```console\n");
        }
        silenced.push_str(block);
    }
    let silenced = silenced
        .replace("```sh\n", &format!("{directive}```sh\n"))
        .replace("```bash\n", &format!("{directive}```bash\n"))
        .replace("In prose:", &format!("{directive}In prose:"));
    repo.write("docs/transcripts.md", &silenced);
    let (code, report) = json_report(&repo, &[]);
    let checks: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["check"].as_str())
        .collect();
    assert!(!checks.contains(&"transcript-drift"), "{report:#}");
    assert_eq!(
        report["suppressed"].as_array().map(Vec::len),
        Some(7),
        "{report:#}"
    );
    // Directives over blocks with nothing to silence are unused-suppression.
    assert!(
        code == 1 && checks.iter().all(|c| *c == "unused-suppression"),
        "{checks:?}"
    );
}

#[test]
fn hostile_blocks_are_never_executed_and_nothing_panics() {
    let repo = build("transcripts");
    let mut page =
        String::from("# Hostile\n\n```console\n$ rm -rf docs\n\n$ touch CANARY\nok\n```\n\n");
    page.push_str("```console\n$ grep -c x $(touch CANARY2)\n3\n```\n\n");
    page.push_str("```console\n$ git grep -n handler -- src > CANARY3\n1\n```\n\n");
    page.push_str("```console\n$ grep -c 'handler src/ledger/handlers.py\n3\n```\n\n");
    page.push_str("```console\n$ grep -E -c '(' src/ledger/handlers.py\n0\n```\n\n");
    page.push_str("```console\n$ grep -c x .venv/lib/site.py\n0\n```\n\n");
    page.push_str("```console\n$ git grep -n handler deadbeefdeadbeef -- src\nx\n```\n\n");
    // A key dated before the first commit: its day names no commit.
    page.push_str("Counted then (grep -c '@handler(' src/ledger/handlers.py → 3, 2026-08-31).\n\n");
    page.push_str("```console\n$ git grep -n handler -- src\n");
    for i in 0..10_000 {
        page.push_str(&format!("src/ledger/handlers.py:{i}:x\n"));
    }
    page.push_str("```\n");
    repo.write("docs/hostile.md", &page);
    let output = repo
        .recount(&["transcripts", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let list: Vec<Value> = serde_json::from_str::<Value>(&stdout(&output))
        .expect("JSON")
        .as_array()
        .expect("list")
        .iter()
        .filter(|t| t["record"] == "docs/hostile.md")
        .cloned()
        .collect();
    let status = |i: usize| {
        (
            list[i]["status"].as_str().unwrap_or("").to_owned(),
            list[i]["why"].as_str().unwrap_or("").to_owned(),
        )
    };
    assert_eq!(status(0).0, "no-output");
    let whys: Vec<(String, String)> = (0..list.len()).map(status).collect();
    assert_eq!(whys[1].0, "not-rerun", "{whys:#?}");
    assert!(
        whys[1].1.contains("follows `rm -rf`") || whys[1].1.contains("`touch`"),
        "{whys:#?}"
    );
    assert!(
        whys[2].1.contains("command substitution") && whys[2].1.contains("$(touch"),
        "{whys:#?}"
    );
    assert!(
        whys[3].1.contains("redirection") && whys[3].1.contains('>'),
        "{whys:#?}"
    );
    assert!(whys[4].1.contains("unterminated quote"), "{whys:#?}");
    assert!(
        whys[5].1.contains("invalid regular expression"),
        "{whys:#?}"
    );
    assert_eq!(whys[6].0, "not-rerun", "{whys:#?}");
    assert!(whys[6].1.contains(".venv/lib/site.py"), "{whys:#?}");
    assert_eq!(whys[7].0, "unverified", "{whys:#?}");
    assert!(whys[7].1.contains("deadbeefdeadbeef"), "{whys:#?}");
    // The day in the key's parenthesis is its frame.
    assert_eq!(whys[8].0, "unverified", "{whys:#?}");
    assert!(whys[8].1.contains("2026-08-31"), "{whys:#?}");
    // The long block is read to its first lines and not compared.
    assert_eq!(whys[9].0, "not-rerun", "{whys:#?}");
    assert!(whys[9].1.contains("longer than"), "{whys:#?}");
    for canary in ["CANARY", "CANARY2", "CANARY3"] {
        assert!(!repo.path().join(canary).exists(), "{canary} was created");
    }
    assert!(repo.path().join("docs/overview.md").exists(), "rm -rf ran");
    // Notes, located, and a check that does not stop.
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("docs/hostile.md:") && notes.contains("fetch-depth: 0"),
        "{notes}"
    );
}

#[test]
fn in_the_working_tree_git_reads_tracked_files_and_grep_reads_every_file() {
    let repo = build("transcripts");
    checkout(&repo, &repo.oid("02"));
    repo.write("src/ledger/extra.py", "@handler(\"entry.extra\")\n");
    // The real tools agree: git does not see the untracked file, grep does.
    assert_eq!(
        real(
            repo.path(),
            "git grep -c '@handler(' -- src ':(exclude)src/ledger/util'"
        ),
        ["src/ledger/handlers.py:3"]
    );
    assert_eq!(real(repo.path(), "git ls-files src | wc -l"), ["4"]);
    assert!(real(repo.path(), "grep -rl handler src").contains(&"src/ledger/extra.py".to_owned()));
    let list = listed(&repo, &[]);
    assert_eq!(at_line(&list, "16")["status"], "agrees");
    assert_eq!(at_line(&list, "66")["status"], "agrees");
    let grep = at_line(&list, "36");
    assert_eq!(grep["status"], "drift");
    assert_eq!(grep["diff"], serde_json::json!(["+src/ledger/extra.py"]));
}

/// `git grep -n PATTERN REV` with no `--`: a word the clone resolves is a
/// revision; one it does not, but the tree has as a path, is a path (as git
/// reads it); one that is neither is a revision this clone lacks, and the
/// transcript is unverified — not re-run with it as a path and reported as
/// printing nothing.
#[test]
fn a_git_grep_word_that_is_neither_revision_nor_path_is_a_missing_revision() {
    let repo = build("transcripts");
    let page = "# Greps\n\n```console\n$ git grep -c handler 1234abcd\n1234abcd:src/ledger/handlers.py:3\n```\n\n```console\n$ git grep -c handler src\nsrc/ledger/handlers.py:3\n```\n";
    repo.write("docs/greps.md", page);
    let list: Vec<Value> = listed(&repo, &[])
        .into_iter()
        .filter(|t| t["record"] == "docs/greps.md")
        .collect();
    assert_eq!(list.len(), 2, "{list:#?}");
    assert_eq!(list[0]["status"], "unverified", "{list:#?}");
    assert!(
        list[0]["why"].as_str().unwrap_or("").contains("1234abcd"),
        "{list:#?}"
    );
    // `src` is no revision but a folder of the tree: a path, re-run.
    assert_ne!(list[1]["status"], "unverified", "{list:#?}");
}

#[test]
fn a_shown_count_a_rule_also_claims_is_one_finding_the_rules() {
    // "(`grep -c '@handler(' src/ledger/handlers.py` → 3)" at line 104: at 03
    // the tree has four. Zero config, the transcript drifts there.
    let repo = build("transcripts");
    let head = repo.oid("03");
    let at_104 = |report: &Value| -> Vec<String> {
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| {
                f["location"]["path"] == "docs/transcripts.md" && f["location"]["line"] == 104
            })
            .map(|f| f["check"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let (_, report) = json_report(&repo, &["--rev", &head]);
    assert_eq!(at_104(&report), ["transcript-drift"], "{report:#}");
    // A rule that claims the same figure: its fact decides, once, and the
    // transcript defers to it instead of a second finding on the same
    // characters.
    repo.write(
        "handlers.toml",
        "[recount]\nrecords = [\"docs/*.md\"]\n\n[[fact]]\nid = \"handlers\"\n\
         grep = \"@handler(\"\npaths = [\"src/ledger/handlers.py\"]\n\
         claims = [{ says = '(?<value>\\d+)\\), the input schemas number' }]\n",
    );
    let (_, report) = json_report(&repo, &["--rev", &head, "--rules", "handlers.toml"]);
    assert_eq!(at_104(&report), ["fact-drift"], "{report:#}");
    let list = listed(&repo, &["--rev", &head, "--rules", "handlers.toml"]);
    let shown = at_line(&list, "104");
    assert_eq!(
        (shown["status"].as_str(), shown["fact"].as_str()),
        (Some("claimed"), Some("handlers"))
    );
}

#[test]
fn a_session_after_a_cd_earlier_on_its_page_is_not_re_run_and_one_before_it_is() {
    let repo = build("transcripts");
    // The same listing twice, each wrong for the root: before the page's
    // `cd` it is the root's and drifts; after it, the reader's shell is in
    // the folder the page made, and it is not re-run.
    let page = "# Start\n\n```console\n$ ls src\nnothing-here.py\n```\n\n```console\n$ mkproject demo\n```\n\n```console\n$ cd demo\n```\n\n```console\n$ ls src\nnothing-here.py\n```\n";
    repo.write("docs/session.md", page);
    let list: Vec<Value> = listed(&repo, &[])
        .into_iter()
        .filter(|t| t["record"] == "docs/session.md" && t["command"] == "ls src")
        .collect();
    assert_eq!(list.len(), 2, "{list:#?}");
    assert_eq!(list[0]["status"], "drift", "{list:#?}");
    assert_eq!(list[1]["status"], "not-rerun", "{list:#?}");
    assert!(
        list[1]["why"].as_str().unwrap_or("").contains("cd demo"),
        "{list:#?}"
    );
}
