//! `recount fix` on `fixtures/fix-edits`: the edits the evidence proves (a
//! renamed module, moved lines, a renamed heading, a renamed test, a raised
//! figure written as a word, in an LF and a CRLF record) shown as a diff,
//! written in place, and then gone from `check`; what only a person can
//! decide (a deleted file, two tests folded into one, a figure measured at
//! its own frame) listed and left alone; a record with uncommitted changes
//! never written unasked. On `fixtures/fix-held`, what no edit may touch:
//! words that narrate the past (a page's sentence, a decision record's
//! context), and renames whose content did not go with the name.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::{Repo, build, stdout};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `(check, path, line)` of every finding `check` reports.
fn findings(repo: &Repo) -> BTreeSet<(String, String, u64)> {
    let output = repo
        .recount(&["check", "--format", "json"])
        .output()
        .expect("runs");
    let report: Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["check"].as_str().expect("check").to_owned(),
                f["location"]["path"].as_str().expect("path").to_owned(),
                f["location"]["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

/// Whether `text` is a document `schemas/fix.schema.json` (which refers into
/// the report schema) accepts.
fn described_by_the_fix_schema(text: &str) -> bool {
    let set = recount::validation::SchemaSet::from_files([
        ("report.schema.json", recount::report::json::REPORT_SCHEMA),
        ("fix.schema.json", recount::fix::FIX_SCHEMA),
    ])
    .expect("the schemas load");
    recount::validation::verdict(&set, "fix.schema.json", text.as_bytes())
        .expect("checks")
        .is_accepted()
}

#[test]
fn the_fix_schema_refuses_what_the_plan_never_holds() {
    let good = r#"{"schema_version":1,"recount_version":"0.1.0","snapshot":{"label":"working tree"},
        "edits":[{"path":"a.md","edits":[{"check":"stale-path-cite","line":1,"offset":0,"length":4,"stated":"a.py","replacement":"b.py"}]}],
        "needs_a_person":[{"check":"fact-drift","path":"a.md","line":2,"message":"m","why":"framed"}]}"#;
    assert!(described_by_the_fix_schema(good));
    for bad in [
        good.replace("stale-path-cite", "retired-claim"),
        good.replace("\"length\":4", "\"length\":0"),
        good.replace("framed", "tired"),
        good.replace("\"schema_version\":1", "\"schema_version\":2"),
    ] {
        assert!(!described_by_the_fix_schema(&bad), "accepted: {bad}");
    }
}

#[test]
fn the_preview_is_a_diff_of_what_the_evidence_proves_and_writes_nothing() {
    let repo = build("fix-edits");
    let before = repo.contents();
    let output = repo.recount(&["fix"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output), @r"
    --- a/docs/guide.md
    +++ b/docs/guide.md
    @@ -1,10 +1,10 @@
     # The tally, for maintainers
     
    -Batches live in [their module](../src/tally/store.py), and every
    -batch is rounded by `ROUNDING` at `src/tally/limits.py:3`. A batch holds seven items.
    +Batches live in [their module](../src/tally/ledger.py), and every
    +batch is rounded by `ROUNDING` at `src/tally/limits.py:5`. A batch holds ten items.
     
    -Set up a clone as [the setup page](setup.md#install-steps) says. The order of a
    -batch is pinned by `tests/test_store.py::test_store_keeps_order`.
    +Set up a clone as [the setup page](setup.md#installing) says. The order of a
    +batch is pinned by `tests/test_store.py::test_ledger_keeps_order`.
     
     Imports once went through [the old importer](../src/tally/legacy.py), and the
     cap was pinned by `tests/test_limits.py::test_batch_cap_is_seven`.
    --- a/docs/notes.md
    +++ b/docs/notes.md
    @@ -1,4 +1,4 @@
     # Notes for maintainers
     
    -The batch store is [a module of its own](../src/tally/store.py), and its
    +The batch store is [a module of its own](../src/tally/ledger.py), and its
     batches are kept in the order they came.
    ");
    let told = stderr(&output);
    assert!(told.contains("6 edits in 2 records proposed"), "{told}");
    assert!(
        told.contains(
            "with the edits made: each mended finding is gone, and nothing new is reported"
        ),
        "{told}"
    );
    for left in [
        "docs/guide.md:9: stale-path-cite (the evidence names nothing to put in its place)",
        "docs/guide.md:10: stale-test-cite (the suggestion is a guess, or not in the record's form)",
        "docs/guide.md:12: fact-drift (the figure is measured at its own frame, not the audited tree)",
    ] {
        assert!(told.contains(left), "{left}\n{told}");
    }
    assert_eq!(repo.contents(), before, "a preview writes nothing");
    // `--check` fails while there is something to fix.
    let gate = repo.recount(&["fix", "--check"]).output().expect("runs");
    assert_eq!(gate.status.code(), Some(1));
    // At the tree the guide was written against, nothing is to be fixed; the
    // release figure was wrong from the start, and is a person's to mend.
    let first = repo
        .recount(&["fix", "--rev", "HEAD~1", "--check"])
        .output()
        .expect("runs");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(stdout(&first), "");
    assert!(
        stderr(&first).contains("nothing to fix; 1 finding needs a person"),
        "{}",
        stderr(&first)
    );
}

#[test]
fn written_edits_mend_their_findings_and_keep_each_records_line_endings() {
    let repo = build("fix-edits");
    let found = findings(&repo);
    let plan = repo
        .recount(&["fix", "--format", "json"])
        .output()
        .expect("runs");
    let plan = stdout(&plan);
    assert!(described_by_the_fix_schema(&plan), "{plan}");
    let plan: Value = serde_json::from_str(&plan).expect("JSON");
    let mended: BTreeSet<(String, String, u64)> = each_edit(&plan)
        .map(|(path, e)| {
            (
                e["check"].as_str().expect("check").to_owned(),
                path.to_owned(),
                e["line"].as_u64().expect("line"),
            )
        })
        .collect();
    assert_eq!(mended.len(), 6);
    assert!(mended.is_subset(&found), "{mended:?} ⊄ {found:?}");

    let written = repo.recount(&["fix", "--write"]).output().expect("runs");
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    assert!(stderr(&written).contains("wrote docs/guide.md (5 edits)"));
    assert!(stderr(&written).contains("wrote docs/notes.md (1 edit)"));

    let after = findings(&repo);
    assert!(
        after.is_disjoint(&mended),
        "still reported: {:?}",
        after.intersection(&mended).collect::<Vec<_>>()
    );
    let left: BTreeSet<_> = found.difference(&mended).cloned().collect();
    assert_eq!(after, left, "only what needs a person is left");
    let notes = std::fs::read(repo.path().join("docs/notes.md")).expect("notes");
    let text = String::from_utf8(notes).expect("UTF-8");
    assert_eq!(text.matches("\r\n").count(), text.matches('\n').count());
    assert!(text.contains("[a module of its own](../src/tally/ledger.py)"));
    // Nothing left to fix: the hook passes.
    let gate = repo.recount(&["fix", "--check"]).output().expect("runs");
    assert_eq!(gate.status.code(), Some(0));
}

#[test]
fn a_record_with_uncommitted_changes_is_written_only_when_told() {
    let repo = build("fix-edits");
    let edited = format!(
        "{}\nA line not committed yet.\n",
        repo.read("docs/guide.md")
    );
    repo.write("docs/guide.md", &edited);
    let refused = repo
        .recount(&["fix", "--write"])
        .write_stdin("")
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("uncommitted changes"),
        "{}",
        stderr(&refused)
    );
    assert!(stderr(&refused).contains("docs/guide.md"));
    assert_eq!(repo.read("docs/guide.md"), edited);
    assert!(
        repo.read("docs/notes.md").contains("store.py"),
        "nothing written"
    );

    let told = repo
        .recount(&["fix", "--write", "--yes"])
        .output()
        .expect("runs");
    assert_eq!(told.status.code(), Some(0), "{}", stderr(&told));
    let mended = repo.read("docs/guide.md");
    assert!(mended.contains("(../src/tally/ledger.py)"));
    assert!(mended.ends_with("A line not committed yet.\n"));
}

#[test]
fn write_refuses_a_revision_and_a_bare_repository() {
    let repo = build("fix-edits");
    let both = repo
        .recount(&["fix", "--write", "--rev", "HEAD"])
        .output()
        .expect("runs");
    assert_eq!(both.status.code(), Some(2));
    let bare = tempfile::tempdir().expect("bare");
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--bare"])
        .arg(repo.path())
        .arg(bare.path().join("r.git"))
        .status()
        .expect("git");
    assert!(status.success());
    let output = repo
        .recount(&["fix", "--write", "--yes", "--repo"])
        .arg(bare.path().join("r.git"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("bare"), "{}", stderr(&output));
}

/// Each edit of a `fix --format json` plan, with its record's path.
fn each_edit(plan: &Value) -> impl Iterator<Item = (&str, &Value)> {
    plan["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .flat_map(|file| {
            let path = file["path"].as_str().expect("path");
            file["edits"]
                .as_array()
                .expect("edits")
                .iter()
                .map(move |edit| (path, edit))
        })
}

/// `(path, line, stated → replacement)` of each edit of a `fix --format json`
/// plan, and `(path, line, why)` of each finding it leaves to a person.
type Planned = (
    BTreeSet<(String, u64, String)>,
    BTreeSet<(String, u64, String)>,
);

fn planned(repo: &Repo, rev: Option<&str>) -> Planned {
    let mut args = vec!["fix", "--format", "json"];
    if let Some(rev) = rev {
        args.extend(["--rev", rev]);
    }
    let output = repo.recount(&args).output().expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(described_by_the_fix_schema(&text), "{text}");
    let plan: Value = serde_json::from_str(&text).expect("JSON");
    let edits = each_edit(&plan)
        .map(|(path, e)| {
            (
                path.to_owned(),
                e["line"].as_u64().expect("line"),
                format!(
                    "{} → {}",
                    e["stated"].as_str().expect("stated"),
                    e["replacement"].as_str().expect("replacement")
                ),
            )
        })
        .collect();
    let left = plan["needs_a_person"]
        .as_array()
        .expect("left")
        .iter()
        .map(|l| {
            (
                l["path"].as_str().expect("path").to_owned(),
                l["line"].as_u64().expect("line"),
                l["why"].as_str().expect("why").to_owned(),
            )
        })
        .collect();
    (edits, left)
}

fn rows(rows: &[(&str, u64, &str)]) -> BTreeSet<(String, u64, String)> {
    rows.iter()
        .map(|(path, line, text)| ((*path).to_owned(), *line, (*text).to_owned()))
        .collect()
}

#[test]
fn line_cites_are_read_as_written_and_synced_or_numbered_links_are_left() {
    let repo = build("fix-line-renames");
    let (edits, left) = planned(&repo, None);
    assert_eq!(
        edits,
        rows(&[
            // Its file moved to `src/relay/` since the notes were written:
            // read under the name it had, the line moved with a comment.
            ("docs/notes.md", 5, "wire.py:3 → wire.py:5"),
            // A link whose words say nothing of the number.
            (
                "docs/codec.md",
                3,
                "adr/0004-encode-as-utf8.md → adr/0008-encode-as-utf8.md"
            ),
        ])
    );
    assert_eq!(
        left,
        rows(&[
            // `ADR 0003:` beside the link renumbered 7.
            ("docs/decisions.md", 3, "link-text"),
            // `[ADR 0004]` for the record renumbered 8.
            ("docs/decisions.md", 4, "link-text"),
            // The translation's automation account writes it again.
            ("docs/ja/codec.md", 3, "generated"),
            // Written in the commit that changed the cited lines.
            ("docs/notes.md", 7, "guessed"),
            // The text of a link that opens no file: renumbered, the link
            // would still be broken.
            ("docs/notes.md", 9, "guessed"),
        ])
    );
}

#[test]
fn words_that_still_name_the_old_target_and_links_off_the_site_are_no_edit() {
    let repo = build("fix-link-words");
    let (edits, left) = planned(&repo, None);
    assert_eq!(
        edits,
        rows(&[
            // A page that sat at the root when it linked its sibling, both
            // moved since: the link is read from where the page is now.
            ("auth/design.md", 3, "seccomp.md → ../node/seccomp.md"),
            // The same rename, where the link's text says nothing of it.
            (
                "docs/queue.md",
                3,
                "plans/0003-queue-in-memory.md → plans/0005-queue-in-memory.md"
            ),
            // A page renamed inside its site.
            ("site/index.md", 3, "intro.md → start.md"),
        ])
    );
    assert_eq!(
        left,
        rows(&[
            // A table of contents entry is the old heading's words.
            ("docs/guide.md", 5, "link-text"),
            // A shell block runs the old path.
            ("docs/guide.md", 10, "named-elsewhere"),
            // The sentence says to set `relay.maxRate`.
            ("docs/guide.md", 18, "link-text"),
            // `3. Queue in memory` for the plan renumbered 5.
            ("docs/guide.md", 20, "link-text"),
            // A section reworded and rewritten in one commit.
            ("docs/notes.md", 3, "guessed"),
            // Named before the page existed: a plan of its day.
            ("docs/notes.md", 5, "guessed"),
            // Cited after the rename, by the old name: stale when written.
            ("docs/notes.md", 7, "guessed"),
            // Moved into the folder of retired pages: put away, not moved.
            ("docs/queue.md", 5, "guessed"),
            // Deleted; the module's other layout is another file's content.
            ("docs/queue.md", 7, "guessed"),
            // A Sphinx page's link to a file moved out of its source folder.
            ("manual/schemas.rst", 4, "renderer-form"),
            // A record named for its day is that day's account.
            ("docs/specs/2026-08-30-queue-design.md", 3, "history"),
            // Moved out of the MkDocs site: a dead link there.
            ("site/index.md", 5, "renderer-form"),
        ])
    );
}

#[test]
fn history_and_renames_whose_content_left_are_no_edit() {
    let repo = build("fix-held");
    let (edits, left) = planned(&repo, None);
    assert_eq!(
        edits,
        rows(&[
            // A decision record in force is kept current: its decision is.
            (
                "docs/adr/0001-keep-the-rules-in-one-module.md",
                10,
                "src/app/rules.py → src/app/policy.py"
            ),
            (
                "docs/guide.md",
                3,
                "../src/app/rules.py → ../src/app/policy.py"
            ),
            (
                "docs/guide.md",
                4,
                "[src/app/rules.py](../src/app/rules.py → [src/app/policy.py](../src/app/policy.py"
            ),
            (
                "docs/guide.md",
                10,
                "../src/app/limits.py#L3 → ../src/app/limits.py#L6"
            ),
            (
                "docs/guide.md",
                11,
                "src/app/limits.py:3 → src/app/limits.py:6"
            ),
        ])
    );
    // The audit's front matter pins it to the first commit: its line cite is
    // that commit's, neither a finding nor an edit.
    assert!(
        !edits
            .iter()
            .chain(&left)
            .any(|row| row.0.contains("limits-audit")),
        "{edits:?} {left:?}"
    );
    assert_eq!(
        left,
        rows(&[
            // OpenAPI Generator wrote the page (its FILES lists it): the
            // next generation would write the old link back.
            ("client/docs/PetApi.md", 4, "generated"),
            // Its context is the tree the decision changed.
            (
                "docs/adr/0001-keep-the-rules-in-one-module.md",
                5,
                "history"
            ),
            ("docs/guide.md", 6, "guessed"),
            ("docs/guide.md", 8, "guessed"),
            // The version 1 page became version 2's: which one is meant is a
            // person's choice.
            ("docs/guide.md", 13, "renderer-form"),
            ("docs/origins.md", 3, "history"),
        ])
    );
    // Before the content moved on, the same rename carried it: then it is
    // an edit.
    let (edits, _) = planned(&repo, Some("HEAD~1"));
    assert!(
        edits.contains(&(
            "docs/guide.md".to_owned(),
            6,
            "../src/app/store.py → ../src/app/ledger.py".to_owned()
        )),
        "{edits:?}"
    );
}

/// `fixtures/hosted-links`, its default branch renamed: a forge link to
/// `blob/main/…` is read as the default branch only by its usual name, so
/// where its file went on `main` is a person's to find, never an edit.
#[test]
fn a_forge_link_to_a_branch_this_clone_lacks_is_left_to_a_person() {
    let repo = build("hosted-links");
    let held_for_the_branch = |repo: &Repo| {
        let output = repo
            .recount(&["fix", "--format", "json"])
            .output()
            .expect("runs");
        let plan: Value = serde_json::from_slice(&output.stdout).expect("plan JSON");
        plan["needs_a_person"]
            .as_array()
            .expect("left")
            .iter()
            .any(|l| {
                l["path"] == "README.md"
                    && l["line"] == 5
                    && l.to_string().contains("a branch this clone does not have")
            })
    };
    assert!(!held_for_the_branch(&repo));
    for args in [
        &["branch", "-q", "-m", "main", "next"][..],
        &["update-ref", "-d", "refs/remotes/origin/main"][..],
    ] {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(repo.path())
            .args(args)
            .status()
            .expect("git");
        assert!(status.success());
    }
    assert!(held_for_the_branch(&repo));
}

/// `fixtures/astro-site`: a page of an Astro site reads its links as
/// addresses, so a renamed sibling's file path is no edit of it; the same
/// rename linked from a forge page is.
#[test]
fn a_link_on_a_page_astro_addresses_is_left_to_a_person() {
    let repo = build("astro-site");
    let (edits, _) = planned(&repo, None);
    assert_eq!(
        edits,
        rows(&[("docs/index.md", 3, "./publishing.md → ./releasing.md")])
    );
    let output = repo
        .recount(&["fix", "--format", "json"])
        .output()
        .expect("runs");
    let plan: Value = serde_json::from_slice(&output.stdout).expect("plan JSON");
    let left = &plan["needs_a_person"];
    assert!(
        left.as_array().expect("left").iter().any(|l| l["path"]
            == "website/src/content/docs/guide/start.md"
            && l["line"] == 5
            && l["why"] == "renderer-form"
            && l["message"].as_str().is_some_and(|m| m.contains("Astro"))),
        "{left}"
    );
}

#[test]
fn a_cite_follows_its_own_copy_and_a_site_page_is_not_sent_off_its_site() {
    let repo = build("fix-copies-and-sites");
    let (edits, left) = planned(&repo, None);
    assert_eq!(
        edits,
        rows(&[
            // Its own example's key set, not the identical one beside it.
            (
                "examples-lowlevel/sign/README.md",
                3,
                "examples/sign/set1.cks → examples-lowlevel/sign/set1.cks"
            ),
            // The forge opens the logger from the root.
            ("notes/logging.md", 3, "src/log.ts → ../src/log.ts"),
        ])
    );
    // The VitePress site serves `web/` alone: no relative path reaches the
    // logger there.
    assert_eq!(left, rows(&[("web/logging.md", 3, "guessed")]));
}
