//! reStructuredText records, with no configuration (`fixtures/sphinx-docs`: a
//! package whose Sphinx pages cite its core module, include an example and
//! list a usage page in their table of contents; commit 02 renames the module
//! and the page and deletes the example).

use serde_json::Value;

use crate::support::{build, json_report};

/// `(record:line:column, cited text, why)` of every finding.
/// What `recount cites --format json` lists, as text.
fn cites_listed(repo: &crate::support::Repo) -> String {
    let listed = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    String::from_utf8_lossy(&listed.stdout).into_owned()
}

fn findings(report: &Value) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let at = &f["location"];
            let message = f["message"].as_str().unwrap_or("");
            let cited = message.split('`').nth(1).unwrap_or("").to_owned();
            (
                format!(
                    "{}:{}:{}",
                    at["path"].as_str().unwrap_or(""),
                    at["line"],
                    at["column"]
                ),
                cited,
                message.to_owned(),
            )
        })
        .collect()
}

/// `recount cites --format json` of the repository.
fn citations(repo: &crate::support::Repo) -> Value {
    citations_with(repo, &[])
}

/// `recount cites --format json --rev REV` of the repository.
fn citations_at(repo: &crate::support::Repo, rev: &str) -> Value {
    citations_with(repo, &["--rev", rev])
}

fn citations_with(repo: &crate::support::Repo, flags: &[&str]) -> Value {
    let mut args = vec!["cites", "--format", "json"];
    args.extend_from_slice(flags);
    let output = repo.recount(&args).output().expect("runs");
    serde_json::from_slice(&output.stdout).expect("cites JSON")
}

/// The listed citation at `record:line:column`.
fn cite_at<'c>(cites: &'c Value, at: &str) -> Option<&'c Value> {
    cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .find(|c| c["at"] == at)
}

/// What a listed citation resolved to (empty when it did not).
fn resolved_to(cite: &Value) -> &str {
    cite["status"]["resolved"].as_str().unwrap_or("")
}

/// The listed citation at `at` is set aside by `exemption`, its reason
/// saying `why`.
fn assert_skipped(cites: &Value, at: &str, exemption: &str, why: &str) {
    let cite = cite_at(cites, at).unwrap_or_else(|| panic!("no citation at {at}"));
    assert_eq!(cite["status"]["exemption"], exemption, "{cite}");
    assert!(
        cite["status"]["why"].as_str().unwrap_or("").contains(why),
        "{cite}"
    );
}

#[test]
fn a_sphinx_projects_pages_are_held_to_the_tree_as_markdown_is() {
    let repo = build("sphinx-docs");
    let tree = repo.label();
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let renamed_module = format!(
        "no file `src/pkg/core.py` at {tree}; it resolved when the record cited it (at {written}) and was renamed to `src/pkg/engine.py` in {broke}"
    );
    let renamed_page = format!(
        "no document `docs/usage` (no `usage.md`, `usage.rst`, `usage.txt`, `usage.ipynb`) at {tree}: Sphinx warns of an unknown document; it resolved when the record cited it (at {written}) and was renamed to `docs/guide.rst` in {broke}"
    );
    let got = findings(&report);
    let at: Vec<(&str, &str)> = got
        .iter()
        .map(|(at, cited, _)| (at.as_str(), cited.as_str()))
        .collect();
    // An inline literal, a `:doc:` role, a toctree entry and a literalinclude
    // (the page renamed with the module's page; the example deleted). The
    // comment's `docs/notes.rst`, the literal block's `src/pkg/cache.py`, the
    // images that are there (one from the source folder), `/install`, the
    // reference to the README and the in-page link to the page's own title
    // are quiet.
    assert_eq!(
        at,
        [
            // The changelog's newest release, not tagged yet: read against
            // the tree (its earlier release is history, in a note).
            ("CHANGES.rst:9:27", "src/pkg/core.py"),
            // From the source folder: `/usage` is `docs/usage.rst`.
            ("docs/api/reference.rst:8:48", "/usage"),
            // A literalinclude's `:lines: 1-3` of a file now one line long.
            (
                "docs/api/reference.rst:12:21",
                "../../src/pkg/__init__.py#L1-L3"
            ),
            // Labels: a target the install page dropped, and its section
            // title (autosectionlabel) retitled in 02.
            ("docs/api/reference.rst:15:37", "windows-notes"),
            ("docs/api/reference.rst:16:7", "a first program"),
            // Literalincludes: a `:pyobject:` method renamed, an end marker
            // dropped (the function kept is quiet).
            (
                "docs/api/reference.rst:21:21",
                "../../tools/runner.py#pyobject=Runner.run"
            ),
            (
                "docs/api/reference.rst:27:21",
                "../../tools/runner.py#start-after=# [start-usage]&end-before=# [end-usage]"
            ),
            // A Python role: the module that defined the function is gone
            // (the package's own export of it is quiet).
            ("docs/api/reference.rst:34:11", "pkg.core.count_words"),
            // A note's body is the page's text, and autodoc's directive
            // names the object it documents.
            ("docs/api/reference.rst:39:32", "src/pkg/core.py"),
            ("docs/api/reference.rst:41:19", "pkg.core.count_words"),
            ("docs/guide.rst:4:29", "src/pkg/core.py"),
            ("docs/index.rst:10:4", "usage"),
            ("docs/install.rst:4:29", "src/pkg/core.py"),
            ("docs/install.rst:4:59", "usage"),
            ("docs/install.rst:5:62", "#a-first-program"),
            ("docs/install.rst:11:21", "../examples/app.py"),
            // A `$ ` session in a `::` literal block is a transcript.
            ("docs/install.rst:28:5", "ls src/pkg"),
        ]
    );
    let why = |at: &str| {
        got.iter()
            .find(|(place, _, _)| place == at)
            .map(|(_, _, why)| why.as_str())
            .unwrap_or_default()
    };
    assert!(why("docs/api/reference.rst:8:48").contains(&renamed_page));
    assert!(why("docs/api/reference.rst:12:21").contains(&format!("has 1 line at {tree}")));
    let label_gone = |label: &str| {
        format!(
            "no page of the Sphinx project defines the label `{label}` at {tree}; docs/install.rst defined it when the record cited it (at {written})"
        )
    };
    assert!(why("docs/api/reference.rst:15:37").contains(&label_gone("windows-notes")));
    assert!(why("docs/api/reference.rst:16:7").contains(&label_gone("a first program")));
    assert!(why("docs/api/reference.rst:21:21").contains(
        &format!("tools/runner.py defines no `Runner.run` at {tree}: the literalinclude's `:pyobject:` has nothing to show")
    ));
    assert!(why("docs/api/reference.rst:27:21").contains(&format!(
        "tools/runner.py holds no `# [end-usage]` after the start at {tree}"
    )));
    assert!(why("docs/guide.rst:4:29").contains(&renamed_module));
    assert!(why("docs/api/reference.rst:39:32").contains(&renamed_module));
    assert!(why("CHANGES.rst:9:27").contains(&renamed_module));
    assert!(
        report["notes"].to_string().contains(
            "1 citation in 1 earlier release section of changelogs and release pages read as history, not checked (earlier-release; first: CHANGES.rst, release 1.0.0)"
        ),
        "{report}"
    );
    assert!(why("docs/index.rst:10:4").contains(&renamed_page));
    // A section retitled in 02: its anchor, docutils' id of the old title.
    assert!(why("docs/install.rst:5:62").contains(&format!(
        "in {broke} the heading became \"A first run\"; did you mean `#a-first-run`?"
    )));
    assert!(why("docs/install.rst:11:21").contains(&format!("and was deleted in {broke}")));
    assert!(
        why("docs/install.rst:28:5")
            .contains("prints `engine.py` where the record shows `core.py`")
    );
    // A label no page defines (`conf.py` loads intersphinx: another
    // project's, perhaps) and another project's are set aside, each with its
    // reason.
    let cites = citations(&repo);
    let exemption_at = |at: &str| cite_at(&cites, at).map(|c| c["status"]["exemption"].clone());
    assert_eq!(
        exemption_at("docs/api/reference.rst:16:46"),
        Some(Value::from("label-elsewhere"))
    );
    assert_eq!(
        exemption_at("docs/api/reference.rst:17:36"),
        Some(Value::from("intersphinx"))
    );
    // Python's own `str`, and a helper no module ever defined: set aside.
    for at in [
        "docs/api/reference.rst:34:57",
        "docs/api/reference.rst:35:9",
    ] {
        assert_eq!(
            exemption_at(at),
            Some(Value::from("unresolved-object")),
            "{at}"
        );
    }
    // By its name alone, on a page with no current module: the package's
    // own function is there (Sphinx links only a qualified name); a name
    // the packages define nowhere is another project's.
    assert!(
        resolved_to(cite_at(&cites, "docs/install.rst:30:29").expect("count_words"))
            .ends_with("(by its name alone)"),
        "{cites}"
    );
    assert_eq!(
        exemption_at("docs/install.rst:30:58"),
        Some(Value::from("intersphinx"))
    );
    assert!(why("docs/api/reference.rst:34:11").contains(&format!(
        "no module of this repository's packages defines `pkg.core.count_words` at {tree}; src/pkg/core.py defined it when the record cited it (at {written})"
    )));
    // At the commit that wrote the pages, every citation holds.
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0, "{report}");
}

/// `fixtures/sphinx-txt`: a Sphinx project whose pages are `.txt` files, as
/// its `conf.py`'s `source_suffix` says, is read with no configuration.
#[test]
fn a_sphinx_projects_txt_sources_are_its_pages() {
    let repo = build("sphinx-txt");
    let tree = repo.label();
    let (written, broke) = (&repo.oid("01")[..8], &repo.oid("02")[..8]);
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got: Vec<(String, String, String)> = findings(&report);
    let at: Vec<(&str, &str)> = got
        .iter()
        .map(|(at, cited, _)| (at.as_str(), cited.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            // The toctree entry and the :doc: of the deleted page, and the
            // literal of the module that became a package.
            ("docs/index.txt:7:4", "faq"),
            ("docs/index.txt:9:22", "src/app/models.py"),
            ("docs/intro.txt:4:16", "faq"),
        ]
    );
    assert!(got[0].2.contains(&format!(
        "no document `docs/faq` (no `faq.md`, `faq.rst`, `faq.txt`, `faq.ipynb`) at {tree}: Sphinx warns of an unknown document; it resolved when the record cited it (at {written}) and was deleted in {broke}"
    )));
    assert!(got[1].2.contains(&format!(
        "was renamed to `src/app/models/__init__.py` in {broke}"
    )));
    let (code, _) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0);
}

/// `fixtures/sphinx-root`: labels held to their history in a Sphinx project at
/// the repository's root; a label from an included file and a document that
/// exists are quiet, a document never written and a label no page has are
/// stale, since `conf.py` loads no intersphinx.
#[test]
fn a_label_of_a_project_at_the_root_is_held_to_its_history() {
    let repo = build("sphinx-root");
    let tree = repo.label();
    let written = &repo.oid("01")[..8];
    let second = repo.oid("02");
    let at_second = &second[..8];
    let (code, report) = json_report(&repo, &["--rev", &second]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(at, ["index.rst:4:29", "index.rst:7:41", "index.rst:8:7"]);
    assert!(got[0].2.contains(&format!(
        "no page of the Sphinx project defines the label `setup` at {at_second}; setup.rst defined it when the record cited it (at {written})"
    )));
    assert!(
        got[1]
            .2
            .contains(&format!("no document `faq` (no `faq.md`, `faq.rst`, `faq.txt`, `faq.ipynb`) at {at_second}: Sphinx warns of an unknown document")),
        "{got:?}"
    );
    assert!(got[2].2.contains(&format!(
        "no page of the Sphinx project defines the label `release-steps` at {at_second}, and its `conf.py` loads neither intersphinx nor an extension of its own that could"
    )));
    // 03: intersphinx may resolve documents. The `:doc:` of the missing page
    // may be another project's now; a toctree entry is this project's page
    // still, and the label no page has may be another project's.
    let third = repo.oid("03");
    let at_third = &third[..8];
    let (code, report) = json_report(&repo, &["--rev", &third]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(
        at,
        ["index.rst:4:29", "index.rst:15:4", "index.rst:17:33"],
        "{got:?}"
    );
    assert!(got[1].2.contains("no document `roadmap`"), "{got:?}");
    // Added after the index cited it, dropped by the audited commit: the
    // parent's pages say so, though another project may define labels now.
    assert!(
        got[2].2.contains(&format!(
            "no page of the Sphinx project defines the label `first-steps` at {at_third}; setup.rst defined it at the audited commit's parent (at {at_second})"
        )),
        "{got:?}"
    );
    assert_skipped(
        &citations_at(&repo, &third),
        "index.rst:7:41",
        "intersphinx",
        "lets intersphinx resolve a `:doc:`",
    );
    // 04: the setup page left whole. Its label may be served through
    // intersphinx by the project its text went to: not proven gone. The
    // toctree entry for the page is this project's, and stale.
    let fourth = repo.oid("04");
    let (code, report) = json_report(&repo, &["--rev", &fourth]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(at, ["index.rst:14:4", "index.rst:15:4"], "{got:?}");
    assert!(got[0].2.contains("no document `setup`"), "{got:?}");
    assert_skipped(
        &citations_at(&repo, &fourth),
        "index.rst:4:29",
        "label-elsewhere",
        &format!(
            "setup.rst defined it when the record cited it (at {written}) and has left the repository since"
        ),
    );
    // 05: the change under audit moves the protocol's text away and leaves a
    // pointer: the index's `wire-protocol` is the change's to update.
    let (_, report) = json_report(&repo, &["--rev", &repo.oid("05")]);
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(
        at,
        ["index.rst:14:4", "index.rst:15:4", "index.rst:20:35"],
        "{at:?}"
    );
    // 06: later, the protocol page is a pointer to the project its text
    // went to through intersphinx: its old label is not proven gone.
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(at, ["index.rst:14:4", "index.rst:15:4"], "{at:?} at {tree}");
    assert_skipped(
        &citations(&repo),
        "index.rst:20:35",
        "label-elsewhere",
        "protocol.rst now refers its readers to another project (:ref:`wire:wire-protocol`)",
    );
}

/// `fixtures/sphinx-sisters`: a label moved to a sister Sphinx project that
/// the citing project's `conf.py` names and reaches through intersphinx is not
/// gone; one that went, or lives on only in a project the site never names (a
/// test root), is stale.
#[test]
fn a_label_moved_to_a_sister_project_is_not_gone() {
    let repo = build("sphinx-sisters");
    let written = &repo.oid("01")[..8];
    let parted = repo.oid("02");
    let (code, report) = json_report(&repo, &["--rev", &parted]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(at, ["sites/www/changelog.rst:8:40"], "{got:?}");
    assert!(
        got[0].2.contains(&format!(
            "no page of the Sphinx project defines the label `legacy-flags` at {}; docs/manual.rst defined it when the record cited it (at {written})",
            &parted[..8]
        )),
        "{got:?}"
    );
    assert_skipped(
        &citations(&repo),
        "sites/www/changelog.rst:7:42",
        "label-elsewhere",
        "sites/manual/index.rst, of a sister project this one's `conf.py` names and reaches through intersphinx, defines it: moved, not gone",
    );
}

/// `fixtures/sphinx-sisters` 03-05: a page moved twice since a `:doc:` named
/// it. The finding follows both renames, never suggesting the first new path
/// (itself gone), and suggests the document as the record would name it.
#[test]
fn a_document_moved_twice_is_suggested_where_it_is_now() {
    let repo = build("sphinx-sisters");
    let short = |n: &str| repo.oid(n)[..8].to_owned();
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let moved = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["location"]["path"] == "sites/manual/index.rst")
        .unwrap_or_else(|| panic!("no finding on the manual's index: {report}"));
    // A toctree entry whose source page is a symlink (to the root's
    // changelog) is a page of the project.
    let cites = citations(&repo);
    let changes = cite_at(&cites, "sites/manual/index.rst:21:4").expect("the toctree entry");
    assert_eq!(
        changes["status"]["resolved"], "sites/manual/changes.rst",
        "{changes}"
    );
    // Links from the root, which Sphinx leaves to the site's root: a file
    // the repository has from its root is what they name; one it has
    // nowhere is stale, named as written.
    let hop = cite_at(&cites, "sites/manual/index.rst:23:49").expect("the hop link");
    assert_eq!(hop["status"]["status"], "ok", "{hop}");
    let replay = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["location"]["line"] == 24 && f["location"]["path"] == "sites/manual/index.rst")
        .unwrap_or_else(|| panic!("no finding for the replay link: {report}"));
    assert_eq!(replay["stated"], "/replay.py", "{replay}");
    // A member of a `dict` subclass that the API page has autodoc document
    // resolves (the class gets it from Python's `dict`); one no page names
    // stays for the history to decide.
    // A blog post no Sphinx project reads: its `:doc:` is its generator's.
    assert_skipped(
        &cites,
        "blog/posts/launch.rst:5:11",
        "label-elsewhere",
        "no Sphinx project reads it",
    );
    let contains = cite_at(&cites, "sites/manual/index.rst:26:37").expect("the dict member");
    assert!(
        resolved_to(contains).contains("autodoc documents it; inherited"),
        "{contains}"
    );
    assert_skipped(
        &cites,
        "sites/manual/index.rst:27:8",
        "unresolved-object",
        "made at import time",
    );
    assert_eq!(moved["stated"], "tuning", "{moved}");
    assert_eq!(moved["observed"], "reference/tuning", "{moved}");
    let message = moved["message"].as_str().unwrap_or("");
    assert!(
        message.contains(&format!(
            "renamed to `sites/manual/knobs/tuning.rst` in {}, then renamed to `sites/manual/reference/tuning.rst` in {}; did you mean `reference/tuning`?",
            short("04"),
            short("05")
        )),
        "{message}"
    );
}

/// `fixtures/sphinx-releases`: a page of one release's notes is read at that
/// release's tag, its cross-references in today's build; a page of a release
/// still being drafted is read against the tree, and one of a release that
/// shipped with no tag here is history, in a note.
#[test]
fn a_release_page_is_read_at_its_tag_and_its_references_today() {
    let repo = build("sphinx-releases");
    let tree = repo.label();
    let written = &repo.oid("01")[..8];
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<(&str, &str)> = got
        .iter()
        .map(|(at, cited, _)| (at.as_str(), cited.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            // MyST: a document never written, the dropped label, and a
            // literalinclude of a file never there (the page that exists and
            // the current module's method are quiet).
            ("docs/guide.md:6:68", "upgrading"),
            ("docs/guide.md:7:11", "install-notes"),
            ("docs/guide.md:9:21", "../src/shop/totals.py"),
            // A literalinclude whose lines moved: at its `:lines:`, suggested
            // as that option (its twin, whose option 02 rewrote, is quiet).
            ("docs/install.rst:10:4", "../src/shop/prices.py#L3-L4"),
            // The released page's `:ref:`, in today's build.
            ("docs/whatsnew-1.0.rst:5:41", "install-notes"),
            // Being drafted: the tree's.
            ("docs/whatsnew-2.0.rst:4:25", "shop.cart.Cart.total"),
            ("docs/whatsnew-2.0.rst:5:3", "src/shop/cart.py"),
        ]
    );
    assert!(got[3].2.contains("is now at lines 5-6: moved in"));
    assert!(
        got[3].2.ends_with("did you mean `:lines: 5-6`?"),
        "{}",
        got[3].2
    );
    assert!(got[4].2.contains(&format!(
        "no page of the Sphinx project defines the label `install-notes` at {tree}; docs/install.rst defined it when the record cited it (at {written})"
    )));
    assert!(got[0].2.contains("Sphinx warns of an unknown document"));
    assert_eq!(
        cite_at(&citations(&repo), "docs/guide.md:7:54").map(|c| c["status"]["resolved"].clone()),
        Some(Value::from("src/shop/basket.py: Cart.sum"))
    );
    assert!(
        report["notes"].to_string().contains(
            "2 citations in 1 earlier release section of changelogs and release pages read as history, not checked (earlier-release; first: docs/notes-0.9.rst, release 0.9)"
        ),
        "{report}"
    );
    let cites = citations(&repo);
    let frame_at =
        |at: &str| cite_at(&cites, at).map(|c| (c["frame"].clone(), c["status"]["status"].clone()));
    // A member of a class whose base is another project's, documented with
    // its inherited members, and a function only a page describes: resolved
    // as Sphinx resolves them.
    assert_skipped(
        &cites,
        "docs/whatsnew-2.0.rst:7:33",
        "intersphinx",
        "docs/api.rst documents its inherited members",
    );
    let described = cite_at(&cites, "docs/whatsnew-2.0.rst:8:22").expect("refund");
    assert_eq!(
        described["status"]["resolved"],
        "docs/api.rst: shop.basket.refund (described)"
    );
    // A module prefix `conf.py` maps, and a label of a docstring autodoc
    // renders (stale otherwise: `conf.py` loads no intersphinx).
    let prefixed = cite_at(&cites, "docs/whatsnew-2.0.rst:9:19").expect("_basket.Cart");
    assert_eq!(prefixed["status"]["resolved"], "src/shop/basket.py: Cart");
    let docstring = cite_at(&cites, "docs/whatsnew-2.0.rst:9:65").expect("web-notes");
    assert_eq!(
        docstring["status"]["resolved"],
        "label `web-notes` (src/shop/web.py)"
    );
    // The 1.0 page's path and method hold at v1.0.0.
    for at in ["docs/whatsnew-1.0.rst:4:42", "docs/whatsnew-1.0.rst:5:8"] {
        let (frame, state) = frame_at(at).expect(at);
        assert_eq!(state, "ok", "{at}: {cites}");
        assert!(
            frame.as_str().unwrap_or("").starts_with(written),
            "{at}: {frame}"
        );
    }
    // A line the page gained after the tag is no part of the release: read
    // against the tree, where the basket is (v1.0.0 has none).
    let (frame, state) = frame_at("docs/whatsnew-1.0.rst:7:46").expect("the later link");
    assert_eq!(state, "ok", "{cites}");
    assert_eq!(frame, Value::from(tree.as_str()), "{cites}");
}

/// `fixtures/sphinx-package-gone`: a Python role's object under none of
/// today's packages is another project's, unless the history shows a package
/// of this project's own line that defined it and went whole.
#[test]
fn a_package_deleted_whole_leaves_its_names_stale() {
    let repo = build("sphinx-package-gone");
    let written = &repo.oid("01")[..8];
    let second = repo.oid("02");
    let (code, report) = json_report(&repo, &["--rev", &second]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(
        at,
        [
            "CONTRIBUTING.rst:4:58",
            "docs/index.rst:6:31",
            "docs/index.rst:7:7",
            "docs/index.rst:14:30",
            "docs/notes.md:4:2"
        ],
        "{got:?}"
    );
    // A module of a package still here, deleted: stale as `:mod:`.
    assert!(
        got[3]
            .2
            .contains("src/beacon/signal.py defined it when the record cited it"),
        "{got:?}"
    );
    // A page Sphinx includes reads its `:doc:` names from the including page
    // (`index` is the docs' own, quiet); `roadmap` names no page there.
    assert!(got[0].2.contains("no document `roadmap`"), "{got:?}");
    // A MyST page's `#api-overview` is a label of the project (quiet);
    // `#wire-format` is a target of no page.
    assert!(
        got[4].2.contains("no heading or anchor `#wire-format`"),
        "{got:?}"
    );
    let got = &got[1..3];
    assert!(
        got[0].2.contains(&format!(
            "no package of this repository is `relay` at {}; src/relay/__init__.py defined `relay.forward` when the record cited it (at {written}), and the package went since",
            &second[..8]
        )),
        "{got:?}"
    );
    assert!(
        got[1].2.contains("src/relay/wire.py defined `relay.wire`"),
        "{got:?}"
    );
    // A root script's module is no function, a standard library module's
    // name is Python's, and a package never here is another project's.
    let cites = repo
        .recount(&["cites", "--rev", &second, "--format", "json"])
        .output()
        .expect("runs");
    let cites: Value = serde_json::from_slice(&cites.stdout).expect("cites JSON");
    // A package's own name is how its history is told.
    for at in [
        "docs/index.rst:9:36",
        "docs/index.rst:10:8",
        "docs/index.rst:10:47",
        "docs/index.rst:12:43",
    ] {
        assert_skipped(
            &cites,
            at,
            "intersphinx",
            "under none of this repository's Python packages",
        );
    }
    // The same module named as an attribute: the history found a module,
    // which is not what `:attr:` names, so it says nothing of it.
    assert_skipped(
        &cites,
        "docs/index.rst:14:72",
        "unresolved-object",
        "made at import time",
    );
    assert_eq!(
        cite_at(&cites, "docs/index.rst:7:58").expect("ping")["status"]["status"],
        "ok",
        "{cites}"
    );
}

/// `fixtures/sphinx-sisters` 03-04: a label defined in the docstring of a
/// module autodoc renders (outside the docs folder), dropped by a commit that
/// leaves every page as it was, is stale, with the module that defined it.
/// A method a class with another library's base dropped, on a page that
/// documents inherited members, is the base's now as far as the tree can say.
#[test]
fn a_label_a_docstring_took_away_is_stale() {
    let repo = build("sphinx-sisters");
    let written = &repo.oid("03")[..8];
    let (_, report) = json_report(&repo, &[]);
    let got = findings(&report);
    let label: Vec<&(String, String, String)> = got
        .iter()
        .filter(|(_, cited, _)| cited == "backoff-formula")
        .collect();
    assert_eq!(label.len(), 1, "{got:?}");
    assert_eq!(label[0].0, "sites/manual/index.rst:13:30");
    assert!(
        label[0].2.contains(&format!(
            "src/hopper/retry.py defined it when the record cited it (at {written})"
        )),
        "{label:?}"
    );
    // A method the class defined when cited and dropped since, on a page
    // that documents inherited members: the base (another library's) may
    // have it now, as Sphinx would document it; the history cannot say, and
    // both methods stay the other library's.
    assert!(
        got.iter()
            .all(|(_, cited, _)| !cited.starts_with("hopper.retry.Backoff")),
        "{got:?}"
    );
    let cites = citations(&repo);
    for at in [
        "sites/manual/index.rst:15:33",
        "sites/manual/index.rst:16:25",
    ] {
        assert_skipped(&cites, at, "intersphinx", "documents its inherited members");
    }
    // At 03, where the docstring still has it, the label resolves.
    let (_, at_03) = json_report(&repo, &["--rev", &repo.oid("03")]);
    assert!(
        findings(&at_03)
            .iter()
            .all(|(_, cited, _)| cited != "backoff-formula"),
        "{at_03}"
    );
}

/// `fixtures/sphinx-sisters` 03-05: a method a `dict` subclass dropped, and a
/// class its module now imports from another library, are stale, each
/// saying where the name is now: the class's base of another project, the
/// library the module imports it from (never "the package went").
#[test]
fn a_name_gone_to_another_project_says_where() {
    let repo = build("sphinx-sisters");
    let tree = repo.label();
    let written = &repo.oid("03")[..8];
    let (_, report) = json_report(&repo, &[]);
    let got = findings(&report);
    let said = |cited: &str| -> String {
        got.iter()
            .find(|(_, c, _)| c == cited)
            .map(|(_, _, why)| why.clone())
            .unwrap_or_else(|| panic!("no finding for {cited}: {got:?}"))
    };
    // `dict` has no `tally`: Python's own base is known not to lend it.
    assert!(
        said("hopper.retry.Attempts.tally").contains(&format!(
            "defines `hopper.retry.Attempts.tally` at {tree}; src/hopper/retry.py defined it when the record cited it (at {written})"
        )),
        "{got:?}"
    );
    assert!(
        said("hopper.wire.Hop.send").contains(&format!(
            "(its class has a base of another project, src/hopper/wire.py: Relay, imported from `relaylib.Relay.send`, whose members no page here documents); src/hopper/wire.py defined it when the record cited it (at {written})"
        )),
        "{got:?}"
    );
    let frame = said("hopper.wire.Frame");
    assert!(
        frame.contains(&format!(
            "this repository's `hopper.wire.Frame` is another project's (src/hopper/wire.py: Frame, imported from `framelib.Frame`); src/hopper/wire.py defined it when the record cited it (at {written})"
        )),
        "{frame}"
    );
    assert!(!frame.contains("the package went"), "{frame}");
    // Imported from the same library, but documented by autodoc under the
    // module's name: the role resolves to the API page's entry.
    assert!(
        got.iter()
            .all(|(_, cited, _)| cited != "hopper.wire.Signal"),
        "{got:?}"
    );
    let cites = citations(&repo);
    let signal = cite_at(&cites, "sites/manual/index.rst:34:33").expect("the Signal role");
    assert!(
        resolved_to(signal)
            .contains("sites/manual/api.rst: hopper.wire.Signal (autodoc documents it;"),
        "{signal}"
    );
}

/// `fixtures/sphinx-lazy-package`: a lazily loading package's names are read
/// from its stub; a name only its module `__getattr__` may serve is not
/// proven gone, whatever the history had; a name deleted from a module with
/// no `__getattr__` is stale.
#[test]
fn a_lazy_packages_names_are_read_from_its_stub_and_its_getattr_proves_nothing_gone() {
    let repo = build("sphinx-lazy-package");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 0, "{report}");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(at, ["docs/index.rst:8:30"], "{got:?}");
    assert!(
        got[0]
            .2
            .contains("src/imgkit/core.py defined it when the record cited it"),
        "{got:?}"
    );
    let cites = citations(&repo);
    assert_eq!(
        resolved_to(cite_at(&cites, "docs/index.rst:4:21").expect("as_float")),
        "src/imgkit/util/dtype.py: as_float"
    );
    assert_skipped(
        &cites,
        "docs/index.rst:6:27",
        "unresolved-object",
        "src/imgkit/util/__init__.py defines a `__getattr__` that may serve it at run time",
    );
}

/// `fixtures/sphinx-wrong-module`: a role that names a class in a module
/// that binds no such name, and could bind none unseen, while another module
/// defines it, is stale from its first day, with where the class is; a
/// helper no module defines is left to the history (quiet), as is a name a
/// star import hands on (found).
#[test]
fn a_role_naming_a_class_in_a_module_that_cannot_have_it_is_stale() {
    let repo = build("sphinx-wrong-module");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got = findings(&report);
    let at: Vec<(&str, &str)> = got
        .iter()
        .map(|(at, cited, _)| (at.as_str(), cited.as_str()))
        .collect();
    assert_eq!(
        at,
        [
            ("docs/index.rst:5:9", "shopfront.views.base.ItemList"),
            ("docs/index.rst:19:30", "shopfront.views.base.ItemList"),
            (
                "docs/index.rst:25:29",
                "shopfront.views.base.ItemList.render"
            ),
            // A letter short of the list view, which has `render`: a typo.
            ("docs/index.rst:27:26", "ItemLst.render")
        ],
        "{got:?}"
    );
    let listed = cites_listed(&repo);
    for why in [
        "the packages' own code names it so too (src/shopfront/views/base.py:11)",
        "src/shopfront/legacy/__init__.py writes entries of `sys.modules` at import time",
    ] {
        assert!(listed.contains(why), "{why}: {listed}");
    }
    assert!(
        got[2]
            .2
            .contains("one of that name is at src/shopfront/views/items.py: ItemList.render"),
        "{got:?}"
    );
    for (_, _, message) in &got[..2] {
        assert!(
            message.contains("src/shopfront/views/base.py binds no such name")
                && message
                    .contains("one of that name is at src/shopfront/views/items.py: ItemList"),
            "{got:?}"
        );
    }
}

/// `fixtures/sphinx-source-suffix`: a document read from a suffix `conf.py`'s
/// `source_suffix` names is there (its template's ids unread, quiet); a
/// MyST `[](#Client.send)` names a Python object the packages define
/// (quiet); a toctree entry no suffix finds, a MyST target nothing
/// defines, and a link to an `.html` page no document of the project builds,
/// are stale; the builder's own `genindex.html` is quiet.
#[test]
fn documents_come_from_every_source_suffix_and_myst_targets_from_every_domain() {
    let repo = build("sphinx-source-suffix");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got = findings(&report);
    let cited: Vec<&str> = got.iter().map(|(_, cited, _)| cited.as_str()).collect();
    assert_eq!(
        cited,
        ["retired", "changes.html", "#Client.resend"],
        "{got:?}"
    );
}

/// `fixtures/upgrade-guides`: a guide to migrating to 1.0, in a project a
/// 2.0 release followed, is read at v1.0.0 (its method held there: quiet);
/// a page kept current naming the same renamed method is stale.
#[test]
fn a_guide_to_an_earlier_major_release_is_read_at_its_tag() {
    let repo = build("upgrade-guides");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got = findings(&report);
    let at: Vec<&str> = got.iter().map(|(at, _, _)| at.as_str()).collect();
    assert_eq!(at, ["docs/guide.rst:4:32"], "{got:?}");
}

/// Each finding's page (its location less line and column) and cite.
fn pages_and_cites(report: &Value) -> Vec<(String, String)> {
    findings(report)
        .into_iter()
        .map(|(at, cited, _)| (at.split(':').next().unwrap_or("").to_owned(), cited))
        .collect()
}

/// `fixtures/sphinx-gallery`: a gallery's README is read where
/// sphinx-gallery copies it, and the documents the gallery writes (its
/// index, a script's page) are found; what it does not write stays stale.
#[test]
fn a_gallery_page_is_read_where_sphinx_gallery_copies_it() {
    let repo = build("sphinx-gallery");
    let (code, report) = json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1, "{report}");
    let cited = pages_and_cites(&report);
    assert_eq!(
        cited,
        [
            (
                "doc/examples/README.rst".to_owned(),
                "../plotting".to_owned()
            ),
            (
                "doc/source/index.rst".to_owned(),
                "tutorials/plot_square".to_owned()
            ),
        ]
    );
}

/// `fixtures/sphinx-multiproject`: each project sphinx-multiproject builds
/// from one `conf.py` is its own source folder, where `/` and `..` stop.
#[test]
fn each_multiproject_project_is_its_own_source_folder() {
    let repo = build("sphinx-multiproject");
    let (code, report) = json_report(&repo, &["--no-cache"]);
    assert_eq!(code, 1, "{report}");
    let cited = pages_and_cites(&report);
    assert_eq!(
        cited,
        [
            (
                "docs/developer/index.rst".to_owned(),
                "../roadmap".to_owned()
            ),
            ("docs/user/index.rst".to_owned(), "/glossary".to_owned()),
        ]
    );
}

/// `fixtures/sphinx-docstring-labels`: a label target in a docstring is the
/// project's where `conf.py` loads autodoc, though the page that renders its
/// module is written by a build step (quiet at 01); a label nothing holds is
/// stale; with autodoc dropped (02) the docstring's label is stale too.
#[test]
fn a_docstrings_label_is_the_projects_where_autodoc_renders_it() {
    let repo = build("sphinx-docstring-labels");
    let (code, report) = json_report(&repo, &["--rev", &repo.oid("01")]);
    assert_eq!(code, 1, "{report}");
    let cited: Vec<String> = findings(&report)
        .into_iter()
        .map(|(_, cited, _)| cited)
        .collect();
    assert_eq!(cited, ["queue-limits"], "{report}");
    let cites = citations_at(&repo, &repo.oid("01"));
    assert!(
        resolved_to(cite_at(&cites, "docs/index.rst:4:39").expect("the cite"))
            .contains("a docstring of src/relay/hop.py, which autodoc renders"),
        "{cites}"
    );
    let (_, report) = json_report(&repo, &[]);
    let cited: Vec<String> = findings(&report)
        .into_iter()
        .map(|(_, cited, _)| cited)
        .collect();
    // 02 also renames the member the class docstring describes.
    assert_eq!(
        cited,
        ["hop-limits", "queue-limits", "relay.hop.Hop.forward"],
        "{report}"
    );
}

/// `fixtures/sphinx-build-layout`: a package read from the folder its
/// build finds packages in, a member a module-level assignment gives a
/// class, a module a page's `.. module::` describes, and a name imported
/// from a compiled core are quiet; a function dropped from the package is
/// stale.
#[test]
fn a_package_is_read_as_its_build_lays_it_out() {
    let repo = build("sphinx-build-layout");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got = findings(&report);
    let cited: Vec<&str> = got.iter().map(|(_, cited, _)| cited.as_str()).collect();
    assert_eq!(cited, ["kit.cache.purge"], "{got:?}");
    let listed = cites_listed(&repo);
    assert!(
        listed.contains("imports `load` from `kit._native`, a module with no source in the tree"),
        "{listed}"
    );
}

/// `fixtures/sphinx-merged-branch`: a role written on a branch, whose
/// function the branch dropped before the merge, resolved when written
/// there: stale, dated by the branch commit, though the first-parent line
/// first sees the role with the merge.
#[test]
fn a_role_written_on_a_merged_branch_is_held_to_that_branch() {
    let repo = build("sphinx-merged-branch");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let got = findings(&report);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, "toolbar.add_panel", "{got:?}");
    assert!(
        got[0]
            .2
            .contains("defined it when the record cited it, on the branch merged later"),
        "{got:?}"
    );
}

/// `fixtures/sphinx-excluded`: a page the project's `exclude_patterns`
/// leave out of the build has roles no build reads (quiet), and links the
/// forge renders (stale); a page the build reads keeps its roles checked.
/// A fragment a docstring includes reads its figure from the source folder.
#[test]
fn roles_of_a_page_the_build_leaves_out_are_read_by_no_build() {
    let repo = build("sphinx-excluded");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1);
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(
        at,
        [
            "docs/drafts/notes.rst:9:29",
            "docs/fragments/flow.rst:6:12",
            "docs/index.rst:8:11"
        ],
        "{report}"
    );
}

/// `fixtures/sphinx-point-releases`: a release's page over the notes of its
/// point releases is read at its own release's tag above them and below.
#[test]
fn a_release_pages_top_is_its_release_above_its_point_releases() {
    let repo = build("sphinx-point-releases");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 0, "{report}");
    let cites = repo
        .recount(&["cites", "--format", "json"])
        .output()
        .expect("runs");
    let cites: Value = serde_json::from_slice(&cites.stdout).expect("cites JSON");
    let top = cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .find(|c| c["at"] == "docs/whatsnew/1.0.rst:4:28")
        .expect("the page's top cite");
    assert_eq!(top["frame"], repo.oid("01")[..8], "{top}");
    assert_eq!(top["status"]["status"], "ok", "{top}");
    // After the point releases, a section of the page's own release.
    let after = cites["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .find(|c| c["at"] == "docs/whatsnew/1.0.rst:19:19")
        .expect("the cite after the point releases");
    assert_eq!(after["frame"], repo.oid("01")[..8], "{after}");
    assert_eq!(after["status"]["status"], "ok", "{after}");
}

/// `fixtures/sphinx-changes-index`: a docs index titled for the changes is
/// the changelog; its earlier release's cross-reference that never resolved
/// is history (quiet), one whose label went since is drift (stale), its
/// plain hyperlink to a page renamed since is history (docutils writes it as
/// it is; no build resolves it), and the newest release's notes are read
/// against today's build (stale).
#[test]
fn an_earlier_releases_cross_reference_that_never_resolved_never_drifted() {
    let repo = build("sphinx-changes-index");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(
        at,
        [
            "docs/updates/index.rst:7:27",
            "docs/updates/index.rst:12:27"
        ],
        "{report}"
    );
}

/// `fixtures/sphinx-conf-writes-page`: a page `conf.py` writes by its
/// file's name resolves in every build, though the history deleted the
/// committed copy (quiet); a deleted page nothing writes is stale.
#[test]
fn a_page_conf_py_writes_by_name_is_there_in_every_build() {
    let repo = build("sphinx-conf-writes-page");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(at, ["docs/index.md:3:48"], "{report}");
}

/// `fixtures/sphinx-build-writes-pages`: pages a build file's
/// `sphinx-apidoc -o` writes, and pages made of the notebooks the docs'
/// paths mirror, are there for the toctree and the `.html` links (quiet);
/// a page nothing makes is stale both ways. An included changelog's
/// include of a draft the including page's folder ignores is the build's,
/// and so is an image the page's own code saves.
#[test]
fn pages_the_build_writes_before_sphinx_reads_are_there() {
    let repo = build("sphinx-build-writes-pages");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(
        at,
        [
            "CHANGELOG.rst:6:14",
            "doc/plots.rst:10:12",
            "doc/user_guide/index.rst:4:37",
            "doc/user_guide/index.rst:9:4"
        ],
        "{report}"
    );
}

/// `fixtures/sphinx-unbuilt`: the roles of a Sphinx project that no build
/// runs (the docs host builds MkDocs, no build file runs Sphinx) are read by
/// no one (quiet) while its plain links stay checked; once the host builds
/// it, its roles are checked again.
#[test]
fn roles_of_a_sphinx_project_no_build_runs_are_read_by_no_one() {
    let repo = build("sphinx-unbuilt");
    let first = repo.oid("01");
    let at = |extra: &[&str]| -> Vec<String> {
        let (code, report) = json_report(&repo, extra);
        assert_eq!(code, 1, "{report}");
        findings(&report).into_iter().map(|(at, _, _)| at).collect()
    };
    assert_eq!(at(&["--rev", first.as_str()]), ["docs/index.rst:5:28"]);
    assert_eq!(at(&[]), ["docs/index.rst:4:32", "docs/index.rst:5:28"]);
}

/// `fixtures/sphinx-reexported`: a name the package now imports from a
/// project `conf.py` maps through intersphinx is that project's to document
/// (quiet); one imported from a project no mapping names, which the package
/// defined when the page cited it, is stale.
#[test]
fn a_name_moved_to_a_mapped_project_and_imported_back_is_documented_there() {
    let repo = build("sphinx-reexported");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    assert_eq!(at, ["docs/index.rst:4:49"], "{report}");
}

/// `fixtures/myst-object-links`: a MyST `[text](#pkg.mod.Class.member)` link
/// is a cross-reference to the member, read through the package's star
/// re-export (quiet); a member no module defines is stale.
#[test]
fn a_myst_link_to_a_reexported_member_is_that_member() {
    let repo = build("myst-object-links");
    let (code, report) = json_report(&repo, &[]);
    assert_eq!(code, 1, "{report}");
    let at: Vec<String> = findings(&report).into_iter().map(|(at, _, _)| at).collect();
    // And a function by its name alone is the package's (quiet) where a
    // name no package defines is not.
    assert_eq!(
        at,
        ["docs/migration.md:4:13", "docs/migration.md:7:2"],
        "{report}"
    );
}
