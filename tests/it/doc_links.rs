//! The doc-links fixture: a guide that cites its tree every way a reader does.
//! At the release (01) every citation holds and every look-alike is skipped
//! with its reason; after the drift (02) exactly the real drifts fire — each
//! beside a look-alike that must stay quiet.

use serde_json::Value;

use crate::support::{Repo, build, json_report, stderr, stdout};

/// (check, record:line, stated, tier) for every finding at `commit`.
fn drift_at(repo: &Repo, commit: &str) -> Vec<(String, String, String, String)> {
    let (_, report) = json_report(repo, &["--rev", &repo.oid(commit)]);
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap_or_default().to_owned(),
                format!(
                    "{}:{}",
                    f["location"]["path"].as_str().unwrap_or_default(),
                    f["location"]["line"]
                ),
                f["stated"].as_str().unwrap_or_default().to_owned(),
                f["tier"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// `recount cites --format json` at `commit`: each citation's text and status.
fn cites_at(repo: &Repo, commit: &str) -> Vec<(String, String, String, String)> {
    let output = repo
        .recount(&["cites", "--format", "json", "--rev", &repo.oid(commit)])
        .output()
        .expect("runs");
    let list: Value = serde_json::from_str(&stdout(&output)).expect("json");
    list["citations"]
        .as_array()
        .expect("list")
        .iter()
        .map(|c| {
            let status = &c["status"];
            (
                c["text"].as_str().unwrap_or_default().to_owned(),
                status["status"].as_str().unwrap_or_default().to_owned(),
                status["why"]
                    .as_str()
                    .or(status["resolved"].as_str())
                    .unwrap_or_default()
                    .to_owned(),
                status["exemption"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn status_of<'a>(
    cites: &'a [(String, String, String, String)],
    text: &str,
) -> &'a (String, String, String, String) {
    cites
        .iter()
        .find(|c| c.0 == text)
        .unwrap_or_else(|| panic!("no citation `{text}` in {cites:#?}"))
}

#[test]
fn at_the_release_every_citation_holds_and_every_look_alike_is_skipped() {
    let repo = build("doc-links");
    assert_eq!(drift_at(&repo, "01"), []);
    let cites = cites_at(&repo, "01");
    // Each look-alike is set aside by its exemption's id, and says why.
    for (text, id, reason) in [
        ("reference.md", "gitignored", "`docs/.gitignore` ignores"),
        ("out/report.json", "kept-empty", "kept empty"),
        (
            "src/client.AppClient",
            "not-a-path",
            "`.AppClient` is no file extension",
        ),
        ("networks/ci/", "unknown-folder", "none in its history"),
        ("file.py:3", "placeholder", "placeholder"),
        ("changelogs/0.MINOR.x.md", "placeholder", "`MINOR`"),
        (
            "src/prototype.py",
            "earlier-release",
            "an earlier one, are history",
        ),
        (
            "../docs/prototype.md",
            "earlier-release",
            "an earlier one, are history",
        ),
        ("./Widget.jsx", "bare-name", "a reader's file"),
        (
            "src/schema_gen.py",
            "made-at-run-time",
            "a build makes it (\"generated\")",
        ),
        ("src/v1.0.0", "not-a-path", "ends in a version"),
        ("src/plugin.py", "code-label", "labels the code block"),
        (
            "content/first.md",
            "reader-cue",
            "reader's project (\"create `\")",
        ),
        ("tests/foo_service.py", "placeholder", "placeholder"),
        (
            "#sponsors-we-thank",
            "lint-silenced",
            "silences markdownlint's link-fragments rule (MD051)",
        ),
        (
            "tools/site-data.js",
            "other-repository",
            "names another repository",
        ),
        (
            "lib/Parser.hs",
            "declared-repository",
            "declares the repository it describes, `example-org/parser`",
        ),
        (
            "tools/metrics_test.go",
            "link-text",
            "the text of a link to `https://github.com/example-org/metrics/blob/main/tools/metrics_test.go`",
        ),
        (
            "tools/test_x.yml",
            "placeholder",
            "`x` in `tools/test_x.yml` is a placeholder",
        ),
        // A changelog of plain `v0.9.0 - December 1, 2025` lines has sections too.
        (
            "src/old_service.py",
            "earlier-release",
            "the notes of release 0.9.0, an earlier one, are history",
        ),
        (
            "shapes.frozen",
            "cross-reference",
            "no file of this tree ends in `.frozen`",
        ),
        (
            "img/logo.png",
            "site-asset",
            "served from `site/static/img/logo.png` when the site is built",
        ),
        (
            "yyyymmdd-short-title.md",
            "placeholder",
            "docs/decisions/template.md is a template new records are copied from",
        ),
    ] {
        let (_, status, why, exemption) = status_of(&cites, text);
        assert_eq!(status, "skipped", "{text}: {why}");
        assert_eq!(exemption, id, "{text}: {why}");
        assert!(why.contains(reason), "{text}: {why}");
    }
    for (text, resolved) in [
        ("./api", "docs/api.md"),
        ("api.md#usage-1", "docs/api.md"),
        ("api.md#limits-of-a-call", "docs/api.md"),
        ("../src/service.py#L2-L4", "src/service.py"),
        ("#calling-the-service", "docs/guide.md"),
        ("legacy/handlers/", "legacy/handlers"),
        ("handbook.md", "docs/handbook.md"),
        ("cases/page.md", "tests/cases/page.md"),
        ("book/index.md", "docs/book/README.md"),
        ("#Options-timeout", "docs/names.md"),
        // A badge in a heading is no part of its anchor.
        ("#thanks", "docs/names.md"),
    ] {
        let (_, status, found, _) = status_of(&cites, text);
        assert_eq!(status, "ok", "{text}: {found}");
        assert_eq!(found, resolved, "{text}");
    }
    // Vendored code, a skill copied in under its own licence and a test's input
    // pages cite their own worlds: not read. A package of the project's own,
    // licensed by the same holder, is read.
    assert!(
        cites.iter().all(|c| c.0 != "docs/design.md"
            && c.0 != "missing.md"
            && c.0 != "languages/go.md"
            && c.0 != "missing-on-purpose.md"),
        "{cites:#?}"
    );
    assert_eq!(status_of(&cites, "../../src/service.py").1, "ok");
    // A page the translation platform writes (its English anchor would be
    // stale) and a theme's README copied in (its front matter names its
    // repository): not read, one note each; 01 has no finding (above), though
    // both show `ls docs | wc -l` printing a count this tree does not have.
    assert!(
        cites
            .iter()
            .all(|c| c.0 != "screenshot-dark.png" && c.0 != "LICENSE.md"),
        "{cites:#?}"
    );
    let (_, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains(
            "1 record a translation platform writes not checked (translation-platform: crowdin.yml"
        ),
        "{notes}"
    );
    assert!(
        notes.contains("1 record in earlier documentation versions not checked"),
        "{notes}"
    );
    assert!(
        notes.contains("1 record copied from another repository not checked"),
        "{notes}"
    );
    // `:26657` is a port, a paragraph away from the file cited last.
    assert!(cites.iter().all(|c| !c.0.contains("26657")), "{cites:#?}");
}

#[test]
fn after_the_drift_exactly_the_real_drifts_fire() {
    let repo = build("doc-links");
    let drift = drift_at(&repo, "02");
    let expected = [
        (
            "stale-line-cite",
            "docs/guide.md:6",
            "src/service.py:4",
            "explicit",
        ),
        (
            "stale-line-cite",
            "docs/guide.md:12",
            "../src/service.py#L2-L4",
            "explicit",
        ),
        (
            "stale-path-cite",
            "CHANGELOG.md:10",
            "docs/limits.md",
            "inferred",
        ),
        (
            "stale-path-cite",
            "docs/guide.md:11",
            "api.md#limits-of-a-call",
            "explicit",
        ),
        (
            "stale-path-cite",
            "docs/guide.md:17",
            "legacy/handlers/",
            "inferred",
        ),
        (
            "stale-path-cite",
            "docs/guide.md:17",
            "legacy/handlers/old.py",
            "inferred",
        ),
        // The page became MDX: no renderer reads a link to `handbook.md` as
        // `handbook.mdx`.
        (
            "stale-path-cite",
            "docs/guide.md:24",
            "handbook.md",
            "explicit",
        ),
        // No file of 02 ends in `.conf`, but its history had this one.
        (
            "stale-path-cite",
            "docs/names.md:4",
            "../src/service.conf",
            "explicit",
        ),
    ];
    let mut seen: Vec<(&str, &str, &str, &str)> = drift
        .iter()
        .map(|(a, b, c, d)| (a.as_str(), b.as_str(), c.as_str(), d.as_str()))
        .collect();
    seen.sort();
    let mut expected = expected.to_vec();
    expected.sort();
    assert_eq!(seen, expected);
}

#[test]
fn each_finding_says_what_it_was_read_against() {
    let repo = build("doc-links");
    let cites = cites_at(&repo, "02");
    let release = &repo.oid("01")[..8];
    let dropped = &repo.oid("02")[..8];
    // The newest release's entry is read at its tag; the tree has the file now.
    assert!(
        status_of(&cites, "docs/limits.md")
            .2
            .contains(&format!("at v1.0.0 ({release})")),
        "{cites:#?}"
    );
    // A change note the release folded into the changelog, deleting it:
    // the notes folder is towncrier's.
    let note = status_of(&cites, "newsfragments/12.feature");
    assert_eq!(
        (note.1.as_str(), note.3.as_str()),
        ("skipped", "news-fragment"),
        "{note:?}"
    );
    assert!(note.2.contains("towncrier folds"), "{note:?}");
    // An entry that removes a path is not held to it.
    let removed = cites
        .iter()
        .find(|c| c.0 == "legacy/handlers/old.py" && c.1 == "skipped")
        .expect("the Unreleased entry");
    assert!(removed.2.contains("removed"), "{removed:?}");
    // A gone folder and file say which commit removed them.
    for text in ["legacy/handlers/", "legacy/handlers/old.py"] {
        let stale = cites
            .iter()
            .find(|c| c.0 == text && c.1 == "stale")
            .unwrap_or_else(|| panic!("{text} stale in {cites:#?}"));
        assert!(
            stale.2.contains(&format!("deleted in {dropped}")),
            "{stale:?}"
        );
    }
    // The renamed heading and the shortened file.
    assert!(
        status_of(&cites, "api.md#limits-of-a-call")
            .2
            .contains("no heading or anchor `#limits-of-a-call`")
    );
    assert!(
        status_of(&cites, "../src/service.py#L2-L4")
            .2
            .contains("has 3 lines")
    );
}

#[test]
fn what_became_of_each_missing_path_is_remembered_and_reads_back_the_same() {
    let repo = build("doc-links");
    let cache = tempfile::tempdir().expect("cache folder");
    let cache_arg = cache.path().to_str().expect("utf-8 path");
    let rev = repo.oid("02");
    let run = |extra: &[&str]| {
        let mut args = vec!["cites", "--format", "json", "--rev", &rev];
        args.extend_from_slice(extra);
        stdout(&repo.recount(&args).output().expect("runs"))
    };
    let unremembered = run(&["--no-cache"]);
    assert!(unremembered.contains("deleted in"), "{unremembered}");
    assert_eq!(run(&["--cache-dir", cache_arg]), unremembered);
    let memo = std::fs::read_dir(cache.path())
        .expect("the cache folder")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "memo"))
        .expect("a memory file");
    let text = std::fs::read_to_string(&memo).expect("memo");
    let fates: Vec<&str> = text.lines().filter(|l| l.starts_with("g ")).collect();
    // `networks/ci/` was never a path of the tree: walked once, kept as such.
    assert!(
        fates.iter().any(|l| l.ends_with(" - - networks/ci\t")),
        "{text}"
    );
    // Read back from memory, the walk is not redone and nothing changes.
    assert_eq!(run(&["--cache-dir", cache_arg]), unremembered);
}

#[test]
fn a_stale_anchor_is_labelled_as_one_in_the_human_report() {
    let repo = build("doc-links");
    let output = repo
        .recount(&["check", "--rev", &repo.oid("02")])
        .output()
        .expect("runs");
    let text = stdout(&output);
    assert!(text.contains("no such anchor"), "{text}");
}

#[test]
fn an_earlier_release_read_with_its_exemption_off_is_checked_against_the_tree() {
    // `release-notes/v0.9.0.md` is an earlier release's notes beside
    // `v1.0.0.md`: set aside by default, read against the tree (and its
    // missing page reported) when a rule file turns `earlier-release` off.
    let repo = build("doc-links");
    let by_default = cites_at(&repo, "01");
    let (_, status, _, exemption) = status_of(&by_default, "../docs/prototype.md");
    assert_eq!(
        (status.as_str(), exemption.as_str()),
        ("skipped", "earlier-release")
    );
    let rules = tempfile::tempdir().expect("temp dir");
    let file = rules.path().join("rules.toml");
    std::fs::write(&file, "[cites.exemptions]\nearlier-release = false\n").expect("rules");
    let output = repo
        .recount(&[
            "cites",
            "--format",
            "json",
            "--rev",
            &repo.oid("01"),
            "--rules",
            &file.to_string_lossy(),
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let list: Value = serde_json::from_str(&stdout(&output)).expect("json");
    let cite = list["citations"]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["text"] == "../docs/prototype.md")
        .expect("the notes' link");
    assert_eq!(cite["status"]["status"], "stale", "{cite:#}");
}

/// A `Progress` that keeps every report.
struct Reports(std::sync::Mutex<Vec<(usize, usize, usize)>>);

impl recount::audit::Progress for Reports {
    fn records(&self, done: usize, total: usize, citations: usize) {
        self.0
            .lock()
            .expect("not poisoned")
            .push((done, total, citations));
    }
}

#[test]
fn a_run_says_how_far_its_citations_are_and_ends_at_every_record() {
    let repo = build("doc-links");
    let reports = std::sync::Arc::new(Reports(std::sync::Mutex::new(Vec::new())));
    let options = recount::audit::AuditOptions {
        repo: Some(repo.path().to_path_buf()),
        rev: Some(repo.oid("01")),
        progress: Some(recount::audit::ProgressSink(reports.clone())),
        ..Default::default()
    };
    let report = recount::check(&options).expect("runs");
    let seen = reports.0.lock().expect("not poisoned").clone();
    let &(done, total, citations) = seen.last().expect("reported");
    // It ends at every record, with every citation the report counts.
    assert_eq!(done, total);
    assert!(total > 5, "{seen:?}");
    let counts = &report.citations;
    let listed = counts.checked + counts.skipped + counts.unverified + counts.historical;
    assert_eq!(citations, listed, "{seen:?}");
    // Each report is one record further, from the first.
    assert_eq!(seen.first().map(|s| s.0), Some(0));
    assert!(seen.windows(2).all(|w| w[1].0 == w[0].0 + 1), "{seen:?}");
}

/// The knowledge store's findings once its copies are read once: the
/// record's own stale link, and the reviewed copy's two (a record of its own).
const STORE_FINDINGS: [[&str; 2]; 3] = [
    ["docs/adr/0007-schema-bounds.md", "../notes.md"],
    ["kb/records/adr-0007-reviewed.md", "../guide.md"],
    ["kb/records/adr-0007-reviewed.md", "../notes.md"],
];

/// `fixtures/knowledge-store`: a verbatim copy of a record (the same text
/// after front matter of its own) is read once, as its original, the record
/// the history had first, and a note counts it; a copy with a sentence added
/// is a record of its own.
#[test]
fn a_verbatim_copy_is_read_once_as_its_original() {
    let repo = crate::support::build("knowledge-store");
    let (code, report) =
        crate::support::json_report(&repo, &["--no-cache", "--rev", &repo.oid("02")]);
    assert_eq!(code, 1);
    let got = crate::support::finding_fields(&report, &["/location/path", "/stated"]);
    assert_eq!(got, STORE_FINDINGS, "{report}");
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("1 verbatim copy of other records read once")
            && notes.contains("kb/records/adr-0007.md, a copy of docs/adr/0007-schema-bounds.md"),
        "{notes}"
    );
}

/// `fixtures/knowledge-store` at 03: a bare copy, byte for byte, is told from
/// the same page in two folders by a manifest of the tree — a migration that
/// names the record's path and the copy's SHA-256.
#[test]
fn a_bare_copy_a_manifest_names_is_read_once_and_without_it_is_a_page() {
    let repo = crate::support::build("knowledge-store");
    let (code, report) = crate::support::json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1);
    let got = crate::support::finding_fields(&report, &["/location/path", "/stated"]);
    assert_eq!(got, STORE_FINDINGS, "{report}");
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("2 verbatim copies of other records read once")
            && notes.contains("kb/mirror/0007.md, a copy of docs/adr/0007-schema-bounds.md"),
        "{notes}"
    );
    // The migration gone, the bare copy is a page of its own.
    std::fs::remove_file(repo.path().join("kb/migrations/0003_mirror.sql")).expect("remove");
    let (_, report) = crate::support::json_report(&repo, &["--no-cache"]);
    let got = crate::support::finding_fields(&report, &["/location/path", "/stated"]);
    assert!(
        got.iter()
            .any(|f| f[0] == "kb/mirror/0007.md" && f[1] == "../notes.md"),
        "{report}"
    );
}

/// `fixtures/knowledge-store`: a verbatim copy's transcripts are its
/// original's, re-run once, at the original.
#[test]
fn a_verbatim_copy_re_runs_no_transcript_of_its_own() {
    let repo = crate::support::build("knowledge-store");
    let block = "\nThe schemas folder:\n\n```console\n$ ls schemas\ntool.json\n```\n";
    for path in ["docs/adr/0007-schema-bounds.md", "kb/records/adr-0007.md"] {
        let text = repo.read(path);
        repo.write(path, &format!("{text}{block}"));
    }
    let output = repo
        .recount(&["transcripts", "--no-cache", "--color", "never"])
        .output()
        .expect("runs");
    let shown = crate::support::stdout(&output);
    assert!(
        shown.contains("docs/adr/0007-schema-bounds.md:14:3")
            && !shown.contains("kb/records/adr-0007.md:")
            && shown.contains("1 transcript: 1 agree"),
        "{shown}"
    );
}

/// `path:line message` of each finding of a plain `check`, which must find
/// some.
fn located_findings(repo: &crate::support::Repo) -> Vec<String> {
    let (code, report) = json_report(repo, &[]);
    assert_eq!(code, 1, "{report:#}");
    crate::support::findings(&report)
        .into_iter()
        .map(|(_, path, line, _, message)| format!("{path}:{line} {message}"))
        .collect()
}

/// `fixtures/mkdocs-site`: a page MkDocs' nav lists and a plugin writes as
/// the site builds, a page under a folder its `gen-files` script writes, and
/// an old address its redirects plugin keeps, are served (quiet); a page
/// nothing writes, and a page in a folder the site lacks, are stale. A
/// snippet a build hook pastes in is read where it lands, and a page
/// published through a symbolic link where it is served. An anchor a
/// rewriting hook may make is quiet where the page names its id, and stale
/// where it does not.
#[test]
fn a_mkdocs_site_serves_what_its_build_writes_and_nothing_else() {
    let repo = build("mkdocs-site");
    let cited = located_findings(&repo);
    assert_eq!(cited.len(), 5, "{cited:#?}");
    assert!(
        cited[0].starts_with("docs/index.md:4 `changelog.md`"),
        "{cited:#?}"
    );
    assert!(
        cited[2].starts_with("docs/index.md:9 `install.md#config.timeout`"),
        "{cited:#?}"
    );
    // A page published through a symbolic link is read where it is served:
    // its `../autofix.md` resolves there, its `../tuning.md` nowhere.
    assert!(
        cited[3].starts_with("rules/yaml.md:5 `../tuning.md`"),
        "{cited:#?}"
    );
    assert!(cited[1].contains("`../api/notes.md`"), "{cited:#?}");
    assert!(cited[1].contains("nor anywhere MkDocs reads"), "{cited:#?}");
    // The snippet a build hook pastes into the reference page: its link is
    // read from there, and its anchor asked of the page it lands on.
    assert!(
        cited[4].starts_with("runner/options.md:4 `install.md#manual-steps`")
            && cited[4].contains("docs/install.md has no heading or anchor"),
        "{cited:#?}"
    );
}

/// `fixtures/generator-output`: a generator's pages are exempt where it
/// writes them and nowhere else. The blog plugin writes under its own
/// folder, so a nav-listed design page outside it that nobody wrote is
/// stale; OpenAPI Generator's list of the files it wrote makes its model
/// page's unrendered anchor the generator's (quiet), not the hand-written
/// guide's beside it (stale). A page the blog's folder kept and renamed is
/// no page the plugin writes (stale).
#[test]
fn a_generator_writes_only_where_it_says_it_writes() {
    let repo = build("generator-output");
    let cited = located_findings(&repo);
    assert_eq!(cited.len(), 4, "{cited:#?}");
    assert!(
        cited[0].starts_with("clients/rust/docs/GUIDE.md:3 `#paging-results`"),
        "{cited:#?}"
    );
    // The hand-written guide's link to a page nobody wrote; the generated
    // README's link to the API page the build removed is the generator's.
    assert!(
        cited[1].starts_with("clients/rust/docs/GUIDE.md:9 `CHANGES.md`"),
        "{cited:#?}"
    );
    assert!(
        !cited.iter().any(|c| c.contains("EntriesApi")),
        "{cited:#?}"
    );
    assert!(
        cited[2].starts_with("docs/index.md:4 `design/flows.md`"),
        "{cited:#?}"
    );
    // A page under the blog's folder that the tree kept, renamed in 02: the
    // history overrules the plugin's reading.
    assert!(
        cited[3].starts_with("docs/index.md:5 `news/archive/2023.md`")
            && cited[3].contains("the built-page exemption yields"),
        "{cited:#?}"
    );
}

/// `fixtures/vitepress-site`: a link between two pages of a VitePress site
/// is held to VitePress's slugs (and the headings a plugin of the site adds
/// to every page): GitHub's spelling of a heading is no anchor there, and
/// the finding suggests the site's. The README, read on the forge, keeps
/// GitHub's.
#[test]
fn a_vitepress_sites_links_are_held_to_its_own_slugs() {
    let repo = build("vitepress-site");
    let cited = located_findings(&repo);
    assert_eq!(cited.len(), 1, "{cited:#?}");
    assert!(
        cited[0].starts_with("docs/guide.md:5 `api.md#listenport`")
            && cited[0].contains("did you mean `api.md#listen-port`"),
        "{cited:#?}"
    );
}

#[test]
fn a_link_from_an_earlier_release_to_its_notes_is_followed_today() {
    let repo = build("notes-links");
    // Before the split every link opens what it names.
    assert_eq!(drift_at(&repo, "02"), []);
    let drift = drift_at(&repo, "03");
    // The 0.9.0 entry left the changelog: the page's link to it, in the
    // 0.9.0 section, is a reader's dead end.
    assert_eq!(
        drift
            .iter()
            .map(|(check, at, stated, _)| (check.as_str(), at.as_str(), stated.as_str()))
            .collect::<Vec<_>>(),
        [("stale-path-cite", "BREAKING.md:13", "CHANGELOG.md#090")],
        "{drift:#?}"
    );
    // The entry's section went whole to the file of the 0.x releases: the
    // finding says so and names where the link should point.
    let (_, report) = json_report(&repo, &["--rev", &repo.oid("03")]);
    let finding = &report["findings"][0];
    assert!(
        finding["message"]
            .as_str()
            .is_some_and(|m| m.contains("the section moved to changelogs/0.x.md")),
        "{finding:#}"
    );
    assert_eq!(finding["observed"], "changelogs/0.x.md#090", "{finding:#}");
    // The prototype the same section names stays that release's history.
    let cites = cites_at(&repo, "03");
    let proto = status_of(&cites, "src/proto.py");
    assert_eq!(proto.3, "earlier-release", "{proto:?}");
}
