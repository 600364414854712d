//! Tests of the citation finder: every shape, the shorthands, history
//! markers, frames and the bounds on hostile text.

use super::*;
use proptest::prelude::*;

fn find(raw: &str) -> Vec<Cite> {
    find_cites(raw, &CiteOptions::default())
}

fn spans(raw: &str) -> Vec<&str> {
    find(raw).iter().map(|c| &raw[c.span.clone()]).collect()
}

/// The targets of the link cites found in `raw`, in order.
fn link_targets(raw: &str) -> Vec<String> {
    find(raw)
        .into_iter()
        .filter_map(|c| match c.kind {
            CiteKind::Link { target, .. } => Some(target),
            _ => None,
        })
        .collect()
}

/// The file and first line of the line cites found in `raw`, in order.
fn line_starts(raw: &str) -> Vec<(String, usize)> {
    find(raw)
        .into_iter()
        .filter_map(|c| match c.kind {
            CiteKind::Line { path, start, .. } => Some((path, start)),
            _ => None,
        })
        .collect()
}

fn only(raw: &str) -> Cite {
    let mut cites = find(raw);
    assert_eq!(cites.len(), 1, "{raw:?} gave {cites:#?}");
    cites.remove(0)
}

fn test(path: &str, class: Option<&str>, name: &str, param: Option<&str>) -> CiteKind {
    CiteKind::Test {
        path: path.into(),
        class: class.map(Into::into),
        name: name.into(),
        param: param.map(Into::into),
        elided_prefix: false,
    }
}

fn line(path: &str, start: usize, end: usize) -> CiteKind {
    CiteKind::Line {
        path: path.into(),
        start,
        end,
        elided_prefix: false,
    }
}

#[test]
fn built_in_patterns_compile() {
    for pattern in [
        default_frame_pattern(),
        node_id_pattern(),
        shorthand_pattern(),
        rust_path_pattern(),
        line_pattern(),
        line_shorthand_pattern(),
        code_file_pattern(),
    ] {
        assert!(!pattern.as_str().is_empty());
    }
    assert!(CiteOptions::default().history.len() == DEFAULT_HISTORY_MARKERS.len());
}

#[test]
fn pytest_node_ids_with_and_without_class() {
    let raw = "It is held by tests/unit/test_schemas.py::test_project_id_is_required, \
               and by `tests/unit/test_a.py::TestFaces::test_five`.";
    let cites = find(raw);
    assert_eq!(cites.len(), 2);
    assert_eq!(
        &raw[cites[0].span.clone()],
        "tests/unit/test_schemas.py::test_project_id_is_required"
    );
    assert_eq!(
        cites[0].kind,
        test(
            "tests/unit/test_schemas.py",
            None,
            "test_project_id_is_required",
            None
        )
    );
    assert_eq!(
        &raw[cites[1].span.clone()],
        "tests/unit/test_a.py::TestFaces::test_five"
    );
    assert_eq!(
        cites[1].kind,
        test("tests/unit/test_a.py", Some("TestFaces"), "test_five", None)
    );
    assert!(!cites[0].shorthand && !cites[0].historical && !cites[0].in_fence);
    assert_eq!(cites[0].frame, None);
}

#[test]
fn nested_classes_make_a_class_path() {
    let cite = only("see t/test_x.py::Outer::Inner::test_y here");
    assert_eq!(
        cite.kind,
        test("t/test_x.py", Some("Outer::Inner"), "test_y", None)
    );
    assert_eq!(cite.cite_text(), "t/test_x.py::Outer::Inner::test_y");
}

#[test]
fn parametrized_ids_balance_brackets_and_keep_spaces() {
    let raw = "four: tests/unit/test_schemas.py::test_every_pattern[mcp/tool-context.schema.json-('properties', 'projectId')] moves.";
    let cite = only(raw);
    assert_eq!(
        &raw[cite.span.clone()],
        "tests/unit/test_schemas.py::test_every_pattern[mcp/tool-context.schema.json-('properties', 'projectId')]"
    );
    assert_eq!(
        cite.kind,
        test(
            "tests/unit/test_schemas.py",
            None,
            "test_every_pattern",
            Some("mcp/tool-context.schema.json-('properties', 'projectId')")
        )
    );
    let raw = "x `a/test_b.py::test_c[[1, 2]-a b-\"q\"]` y";
    let cite = only(raw);
    assert_eq!(
        &raw[cite.span.clone()],
        "a/test_b.py::test_c[[1, 2]-a b-\"q\"]"
    );
    assert_eq!(cite.cite_text(), "a/test_b.py::test_c[[1, 2]-a b-\"q\"]");
    // An unclosed bracket is not a parameter: the cite stops at the name.
    let raw = "a/test_b.py::test_c[never closed\n]";
    let cite = only(raw);
    assert_eq!(&raw[cite.span.clone()], "a/test_b.py::test_c");
    assert_eq!(cite.kind, test("a/test_b.py", None, "test_c", None));
    // Empty brackets are not a parameter either.
    assert_eq!(spans("a/test_b.py::test_c[] x"), ["a/test_b.py::test_c"]);
}

#[test]
fn elided_prefixes_keep_the_tail_and_say_so() {
    let raw = ".../test_schemas.py::test_schema_is_valid[tool-context.schema.json]\n\
               …/test_x.py::test_y and packages/…/tests/unit/test_z.py::test_w";
    let cites = find(raw);
    assert_eq!(cites.len(), 3);
    assert_eq!(
        &raw[cites[0].span.clone()],
        ".../test_schemas.py::test_schema_is_valid[tool-context.schema.json]"
    );
    let elided = |path: &str, name: &str, param: Option<&str>| CiteKind::Test {
        path: path.into(),
        class: None,
        name: name.into(),
        param: param.map(Into::into),
        elided_prefix: true,
    };
    assert_eq!(
        cites[0].kind,
        elided(
            "test_schemas.py",
            "test_schema_is_valid",
            Some("tool-context.schema.json")
        )
    );
    assert_eq!(&raw[cites[1].span.clone()], "…/test_x.py::test_y");
    assert_eq!(cites[1].kind, elided("test_x.py", "test_y", None));
    assert_eq!(
        cites[2].kind,
        elided("tests/unit/test_z.py", "test_w", None)
    );
    assert_eq!(cites[1].cite_text(), ".../test_x.py::test_y");
    // `../` is a relative path, not an elision: the caller refuses it.
    let cite = only("../../etc/test_x.py::test_y");
    assert_eq!(cite.kind, test("../../etc/test_x.py", None, "test_y", None));
}

#[test]
fn shorthand_takes_the_last_cited_file() {
    let raw = "tests/unit/test_a.py::test_one holds it; ::test_two and `::TestK::test_three[p]` too.\n\n\
               Then tests/unit/test_b.py::test_four, and ::test_five.";
    let cites = find(raw);
    let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
    assert_eq!(
        texts,
        [
            "tests/unit/test_a.py::test_one",
            "::test_two",
            "::TestK::test_three[p]",
            "tests/unit/test_b.py::test_four",
            "::test_five"
        ]
    );
    assert_eq!(
        cites.iter().map(|c| c.shorthand).collect::<Vec<_>>(),
        [false, true, true, false, true]
    );
    assert_eq!(
        cites[1].kind,
        test("tests/unit/test_a.py", None, "test_two", None)
    );
    assert_eq!(
        cites[2].kind,
        test(
            "tests/unit/test_a.py",
            Some("TestK"),
            "test_three",
            Some("p")
        )
    );
    assert_eq!(
        cites[4].kind,
        test("tests/unit/test_b.py", None, "test_five", None)
    );
    assert_eq!(cites[4].cite_text(), "tests/unit/test_b.py::test_five");
}

#[test]
fn shorthand_follows_a_file_named_in_prose_and_keeps_its_elision() {
    let raw = "tests/a/test_wire.py::test_x is one. tests/unit/test_input.py drives long keys; \
               ::test_never_echoed holds it. Over .../test_d.py::test_p, ::test_q.";
    let cites = find(raw);
    assert_eq!(cites.len(), 4);
    assert_eq!(
        cites[1].kind,
        test("tests/unit/test_input.py", None, "test_never_echoed", None)
    );
    assert_eq!(
        cites[3].kind,
        CiteKind::Test {
            path: "test_d.py".into(),
            class: None,
            name: "test_q".into(),
            param: None,
            elided_prefix: true
        }
    );
}

#[test]
fn shorthand_skips_files_that_are_not_test_files() {
    let raw = "tests/unit/test_a.py::test_one runs; the helper sits in `src/pkg/tools.py` \
               and src/b.py, yet ::test_two is in the test file. src/c.py::helper is cited \
               with a test id, so ::test_three is in it; tests/d.rs drives ::it_works.";
    let cites = find(raw);
    let kinds: Vec<&CiteKind> = cites
        .iter()
        .filter(|c| c.shorthand)
        .map(|c| &c.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            &test("tests/unit/test_a.py", None, "test_two", None),
            &test("src/c.py", None, "test_three", None),
        ]
    );
    assert!(looks_like_test_file("pkg/parse_test.py"));
    assert!(looks_like_test_file("tests/cli.rs"));
    assert!(looks_like_test_file("test_x.py"));
    assert!(!looks_like_test_file("src/pkg/tools.py"));
    assert!(looks_like_test_file("app/tests.py"));
    assert!(!looks_like_test_file("src/tester.py"));
    assert!(!looks_like_test_file("src/testing.rs"));
}

#[test]
fn module_ids_name_test_modules_only() {
    let raw = "`test_cli::test_x` and tests.unit.test_io::TestA::test_y[p], \
               io_tests::test_z; not std::io::Read, os.path::join, self::test_q or \
               SomeSuite::testCase.";
    let cites = find(raw);
    let texts: Vec<String> = cites.iter().map(Cite::cite_text).collect();
    assert_eq!(
        texts,
        [
            "test_cli::test_x",
            "tests.unit.test_io::TestA::test_y[p]",
            "io_tests::test_z"
        ]
    );
    assert_eq!(
        cites[1].kind,
        CiteKind::ModuleTest {
            module: "tests.unit.test_io".into(),
            segments: vec!["TestA".into(), "test_y".into()],
            param: Some("p".into()),
        }
    );
    assert_eq!(cites[1].path(), None);
}

#[test]
fn data_file_node_ids_are_test_cites() {
    let raw = "`tests/cases/parse.yaml::empty_input` and features/login.feature::Logs_in[x]; \
               not https://x.io/a.yaml::b or .yaml::c.";
    let cites = find(raw);
    assert_eq!(cites.len(), 2);
    assert_eq!(
        cites[0].kind,
        test("tests/cases/parse.yaml", None, "empty_input", None)
    );
    assert_eq!(cites[1].cite_text(), "features/login.feature::Logs_in[x]");
}

#[test]
fn shorthand_without_a_file_is_no_citation() {
    // With no test file before it, `::name` qualifies a name (C++'s
    // `::testing::Test`), as `:80` with no file is a port.
    assert!(find("Only ::test_orphan is named.").is_empty());
    assert!(find("Derive from `::testing::Test` and use ::testing::AssertionResult.").is_empty());
    let cite = only("See tests/test_a.py, then ::test_b.");
    assert_ne!(cite.cite_text(), "::test_orphan");
}

#[test]
fn things_that_look_like_shorthands_but_are_code() {
    assert!(find("Vec::<u8>::new, a::b, std::fmt::Display, x.py::t").len() == 1);
    assert!(find("```\n::std::cout << x;\n```\n").is_empty());
    assert!(find("C++ `foo()::bar` and `]::x`").is_empty());
    assert!(find("see x.py; `::error` and ::new are workflow commands and code").is_empty());
}

#[test]
fn rust_test_cites_in_files() {
    let raw = "tests/cli.rs::exits_two and src/claims/prose.rs::tests::crlf_line_endings, \
               then ::tests::inner::other.";
    let cites = find(raw);
    assert_eq!(cites.len(), 3);
    assert_eq!(
        cites[0].kind,
        CiteKind::RustTest {
            path: "tests/cli.rs".into(),
            modules: vec![],
            name: "exits_two".into(),
            elided_prefix: false
        }
    );
    assert_eq!(
        cites[1].kind,
        CiteKind::RustTest {
            path: "src/claims/prose.rs".into(),
            modules: vec!["tests".into()],
            name: "crlf_line_endings".into(),
            elided_prefix: false
        }
    );
    assert_eq!(
        &raw[cites[1].span.clone()],
        "src/claims/prose.rs::tests::crlf_line_endings"
    );
    assert_eq!(
        cites[2].kind,
        CiteKind::RustTest {
            path: "src/claims/prose.rs".into(),
            modules: vec!["tests".into(), "inner".into()],
            name: "other".into(),
            elided_prefix: false
        }
    );
    assert_eq!(
        cites[2].cite_text(),
        "src/claims/prose.rs::tests::inner::other"
    );
}

#[test]
fn bare_rust_module_paths_only_when_asked() {
    let raw = "held by `claims::prose::tests::crlf_line_endings`, not by std::fmt::Display \
               nor by a::b::tests, nor in\n```\nuse x::tests::y;\n```\n";
    assert!(find(raw).is_empty());
    let options = CiteOptions {
        rust_module_paths: true,
        ..CiteOptions::default()
    };
    let cites = find_cites(raw, &options);
    assert_eq!(cites.len(), 1, "{cites:#?}");
    assert_eq!(
        &raw[cites[0].span.clone()],
        "claims::prose::tests::crlf_line_endings"
    );
    assert_eq!(
        cites[0].kind,
        CiteKind::RustPath {
            segments: vec![
                "claims".into(),
                "prose".into(),
                "tests".into(),
                "crlf_line_endings".into()
            ]
        }
    );
    assert_eq!(
        cites[0].cite_text(),
        "claims::prose::tests::crlf_line_endings"
    );
}

#[test]
fn only_python_and_rust_files_make_test_cites() {
    assert!(find("src/x.ts::name and a.go::b and x.pyc::y and ../../etc/passwd::x").is_empty());
}

#[test]
fn line_cites_single_and_ranges() {
    let raw = "docs/protocol/mcp-tools.md:50 and (tests/unit/test_schemas.py:779-788), \
               `schemas/README.md:98`, test_schemas.py:294 and src/a.rs:3–7.";
    let cites = find(raw);
    let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
    assert_eq!(
        texts,
        [
            "docs/protocol/mcp-tools.md:50",
            "tests/unit/test_schemas.py:779-788",
            "schemas/README.md:98",
            "test_schemas.py:294",
            "src/a.rs:3–7"
        ]
    );
    assert_eq!(cites[0].kind, line("docs/protocol/mcp-tools.md", 50, 50));
    assert_eq!(cites[1].kind, line("tests/unit/test_schemas.py", 779, 788));
    assert_eq!(cites[3].kind, line("test_schemas.py", 294, 294));
    assert_eq!(cites[4].kind, line("src/a.rs", 3, 7));
    assert_eq!(cites[4].cite_text(), "src/a.rs:3-7");
    assert_eq!(cites[0].cite_text(), "docs/protocol/mcp-tools.md:50");
}

#[test]
fn line_shorthand_refers_to_the_last_cited_file() {
    let raw = "a literal at test_schemas.py:294 — git grep returns two lines, :294 and :781.";
    let cites = find(raw);
    let texts: Vec<&str> = cites.iter().map(|c| &raw[c.span.clone()]).collect();
    assert_eq!(texts, ["test_schemas.py:294", ":294", ":781"]);
    assert_eq!(cites[2].kind, line("test_schemas.py", 781, 781));
    assert!(cites[2].shorthand && !cites[0].shorthand);
    // With no file cited before it, `:80` cites nothing.
    assert!(find("listen on :80 and :443").is_empty());
    // A later sentence or list item's `:59` is a schedule's minutes or a
    // port, not a line of the file named before.
    for raw in [
        "The queue is `ROADMAP.md`. It runs at `:59`, before the `:29` one.",
        "- See `sipi/server.json` for the shape.\n- Grafana at :3000 is not running.",
    ] {
        let texts: Vec<String> = find(raw)
            .iter()
            .map(|c| raw[c.span.clone()].to_owned())
            .collect();
        assert_eq!(texts.len(), 1, "{raw}: {texts:?}");
    }
    // Emoji codes and times are not shorthands.
    let raw = "docs/a.md:3 then :100: and 12:30 and at 10:30-11:00";
    assert_eq!(spans(raw), ["docs/a.md:3"]);
}

#[test]
fn non_cites_stay_quiet() {
    for raw in [
        "We met at 12:30 and 10:30–11:00.",
        "Served on http://localhost:80 and https://example.com:8443/x.py:3.",
        "See https://github.com/o/r/blob/main/tests/test_x.py::test_y",
        "e.g. a:b, key:value, ratio 3:1, v2.1:3, example.com:443",
        "Globs: `src/*.rs`, `docs/**/*.md`, `tests/test_?.py`.",
        "Flags `--rules`, `$HOME/x`, `~/x`, `/etc/passwd`, `http://a/b`.",
        "Not paths: `origin/main`, `and/or`, `application/json`, `a b/c`, `x::y`.",
        "Words: `foo`, `MAX_SOURCE_FILE_BYTES`, `os.path`, `3.12`, `.../tools.py`.",
        "Mail me@x.py:3 or me@x.py::test_z",
        "A `` `docs/a.md` `` double-backtick span quotes backticks.",
    ] {
        assert!(find(raw).is_empty(), "{raw:?} gave {:#?}", find(raw));
    }
}

#[test]
fn a_line_cite_in_an_indented_block_of_output_is_in_code() {
    let raw = "Exit codes:\n\n    $ tool run /etc\n    Error: runner.go:346: permission denied\n\nSee `runner.go:12`.\n";
    let cites = find(raw);
    let in_code: Vec<(&str, bool)> = cites
        .iter()
        .map(|c| (&raw[c.span.clone()], c.in_fence))
        .collect();
    assert_eq!(in_code, [("runner.go:346", true), ("runner.go:12", false)]);
}

#[test]
fn line_and_path_cites_in_fenced_output_are_not_cites() {
    let raw = "Measured:\n\n```text\n$ git grep -n x\ndocs/a.md:50: x\n`docs/b.md`\ntests/t.py::test_listed PASSED\n```\n\nafter :50";
    let cites = find(raw);
    assert_eq!(cites.len(), 1, "{raw:?} gave {cites:#?}");
    assert_eq!(&raw[cites[0].span.clone()], "tests/t.py::test_listed");
    assert!(cites[0].in_fence);
}

#[test]
fn a_path_in_the_text_of_an_outside_link_knows_the_address() {
    let raw = "Its suite ([`test/e2e_test.go`](https://github.com/o/r/blob/main/test/e2e_test.go)) and [`docs/a.md`](docs/a.md).";
    let cites = find(raw);
    let seen: Vec<(String, Option<&str>)> = cites
        .iter()
        .map(|c| (c.cite_text(), c.outside_link.as_deref()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                "test/e2e_test.go".to_owned(),
                Some("https://github.com/o/r/blob/main/test/e2e_test.go")
            ),
            ("docs/a.md".to_owned(), None),
        ]
    );
}

#[test]
fn path_cites_files_and_directories() {
    let raw = "See `docs/roadmap.md`, `schemas/mcp/`, `Cargo.toml`, `src/claims` and `./x/y.rs`.";
    let cites = find(raw);
    let kinds: Vec<CiteKind> = cites.iter().map(|c| c.kind.clone()).collect();
    let path = |p: &str, is_dir| CiteKind::Path {
        path: p.into(),
        is_dir,
    };
    assert_eq!(
        kinds,
        [
            path("docs/roadmap.md", false),
            path("schemas/mcp", true),
            path("Cargo.toml", false),
            path("src/claims", false),
            path("./x/y.rs", false)
        ]
    );
    assert_eq!(&raw[cites[1].span.clone()], "schemas/mcp/");
    assert_eq!(cites[1].cite_text(), "schemas/mcp/");
    assert_eq!(cites[1].path(), Some("schemas/mcp"));
    // A code span may wrap a line, but not cross a blank line.
    let raw = "`docs/a.md\n` and `x\n\nb/c.md` `";
    assert!(find(raw).is_empty(), "{:#?}", find(raw));
}

#[test]
fn a_line_shorthand_follows_a_path_cite() {
    let raw = "In `src/server.py`, :12-14 set it.";
    let cites = find(raw);
    assert_eq!(cites.len(), 2);
    assert_eq!(cites[1].kind, line("src/server.py", 12, 14));
    // Lines listed after it still are its own.
    let raw = "See `src/server.py:3`, `:12` and `:20`.";
    assert_eq!(find(raw).len(), 3, "{:#?}", find(raw));
    // A name of the file between them: still the file's lines.
    let raw = "The check (`src/builder.cs:65`, before `GetDecorators` at `:67`) runs.";
    assert_eq!(find(raw).len(), 2, "{:#?}", find(raw));
    // Said as a value (a default, a port): not a line.
    let raw = "The coordinator (`tasks/api_server.rs`) reads it, and \
               `listen.client_addr` (default `:7070`) is parsed but unbound.";
    let cites = find(raw);
    assert_eq!(cites.len(), 1, "{cites:#?}");
    let raw = "- `client.ts` + `provider.ts`: opens the browser, runs a local callback \
               server on `:8090`, then lists tools.";
    let cites = find(raw);
    assert_eq!(cites.len(), 2, "{cites:#?}");
    // A value's word further back says nothing of a name's line.
    let raw = "- `scheduler/cidr.go:23-55`: empty allowlist, localhost-only \
               (`parseAllowlist` :60-63).";
    assert_eq!(find(raw).len(), 2, "{:#?}", find(raw));
}

#[test]
fn history_markers_in_the_sentence_before_the_cite() {
    let raw = "Over the wire, tests/d.py::test_the_widest_body_the_schema_tier_can_see — renamed \
               from tests/d.py::test_the_widest_body_this_transport_admits in Amendment 1's change.";
    let cites = find(raw);
    assert_eq!(cites.len(), 2);
    assert!(!cites[0].historical, "the new name is live");
    assert!(cites[1].historical);

    let raw = "The test that used to be here, far back in this long sentence about the \
               transport and its many layers of framing, was tests/x.py::test_old.";
    assert!(only(raw).historical);

    let raw = "It was *Renamed\nFrom* `tests/x.py::test_old` to `tests/x.py::test_new`.";
    let cites = find(raw);
    assert!(cites[0].historical);
    assert!(!cites[1].historical, "`to` ends the marker's reach");
}

#[test]
fn history_markers_reach_forty_characters_across_sentences() {
    for within in [
        "| deleted in 2.0 | tests/x.py::test_a |",
        "Deleted in 2.0:\n\n- tests/x.py::test_a",
    ] {
        assert!(only(within).historical, "{within:?}");
    }
    let beyond = "| deleted in 2.0 | the suite has been reorganised since | tests/x.py::test_a |";
    assert!(!only(beyond).historical);
    let full_stop = "The pin was rewritten rather than deleted. tests/x.py::test_a holds it.";
    assert!(!only(full_stop).historical);
    let after = "tests/x.py::test_a was removed.";
    assert!(
        !only(after).historical,
        "markers speak of what follows them"
    );
    let word = "The undeleted rows: tests/x.py::test_a.";
    assert!(!only(word).historical);
    let custom = CiteOptions {
        history: vec!["retired".into()],
        ..CiteOptions::default()
    };
    let cites = find_cites(
        "Retired: tests/x.py::test_a; the other one was deleted: tests/x.py::test_b",
        &custom,
    );
    assert_eq!(
        cites.iter().map(|c| c.historical).collect::<Vec<_>>(),
        [true, false]
    );
    let none = CiteOptions {
        history: vec![" ".into()],
        ..CiteOptions::default()
    };
    assert!(!find_cites("deleted tests/x.py::test_b", &none)[0].historical);
}

#[test]
fn frames_cover_their_section_only() {
    let raw = "# ADR\n\nIntro tests/a.py::test_before.\n\n## Context\n\nMeasured at `be977ea7`: \
               tests/a.py::test_in\n\n### Detail\n\n`docs/in.md` too\n\n## Decision\n\n\
               tests/a.py::test_after\n";
    let cites = find(raw);
    let frames: Vec<(&str, Option<&str>)> = cites
        .iter()
        .map(|c| (&raw[c.span.clone()], c.frame.as_deref()))
        .collect();
    assert_eq!(
        frames,
        [
            ("tests/a.py::test_before", None),
            ("tests/a.py::test_in", Some("be977ea7")),
            ("docs/in.md", Some("be977ea7")),
            ("tests/a.py::test_after", None)
        ]
    );
}

#[test]
fn frames_before_any_heading_reach_the_end_and_later_markers_win() {
    let raw = "Measured against commit 1234abc.\n\ntests/a.py::test_one\n\n\
               ## Part\n\nmeasured on abcdef0123 tests/a.py::test_two\n\nPart two\n========\n\ntests/a.py::test_three";
    let cites = find(raw);
    let frames: Vec<Option<&str>> = cites.iter().map(|c| c.frame.as_deref()).collect();
    assert_eq!(
        frames,
        [Some("1234abc"), Some("abcdef0123"), Some("1234abc")]
    );
    // A marker quoted in a fenced block sets no frame.
    let raw = "```\nmeasured at 1234567\n```\ntests/a.py::test_one";
    assert_eq!(only(raw).frame, None);
}

#[test]
fn markers_may_give_a_date_with_or_without_a_sha() {
    let options = CiteOptions::default();
    let frame_of = |raw: &str| find_cites(raw, &options)[0].frame.clone();
    assert_eq!(
        frame_of("Measured on 2026-09-13 against `be977ea7`: tests/a.py::test_one"),
        Some("be977ea7@2026-09-13".to_owned())
    );
    assert_eq!(
        frame_of("Measured on `2026-09-13`. tests/a.py::test_one"),
        Some("2026-09-13".to_owned())
    );
    assert_eq!(
        frame_of("measured at be977ea7: tests/a.py::test_one"),
        Some("be977ea7".to_owned())
    );
    assert_eq!(frame_of("measured on a laptop: tests/a.py::test_one"), None);
}

#[test]
fn custom_frame_patterns_are_checked() {
    let mut options = CiteOptions::default();
    assert_eq!(
        options.set_frame_pattern("at (?<commit>[0-9a-f]+)"),
        Err(FramePatternError::NoShaGroup)
    );
    assert!(matches!(
        options.set_frame_pattern("("),
        Err(FramePatternError::Invalid(_))
    ));
    assert_eq!(options.set_frame_pattern(r"@(?<sha>[0-9a-f]{7})"), Ok(()));
    let cites = find_cites("@abcdef0 tests/a.py::test_one", &options);
    assert_eq!(cites[0].frame.as_deref(), Some("abcdef0"));
    assert!(options.set_frame_pattern("(?<sha>x*)").is_ok());
    assert_eq!(find_cites("tests/a.py::test_one", &options)[0].frame, None);
}

#[test]
fn cites_come_in_text_order_with_multibyte_text_around() {
    let raw = "Größe — `docs/ä.md` × tests/ü.py::test_ö, then docs/é.md:3 and ::test_ß";
    let texts = spans(raw);
    assert_eq!(
        texts,
        ["docs/ä.md", "tests/ü.py::test_ö", "docs/é.md:3", "::test_ß"]
    );
    let cites = find(raw);
    assert_eq!(cites[3].kind, test("tests/ü.py", None, "test_ß", None));
}

fn soup() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("tests/x.py"),
        Just("a.rs"),
        Just("::"),
        Just(":"),
        Just("12"),
        Just("-"),
        Just("–"),
        Just("["),
        Just("]"),
        Just("`"),
        Just("```"),
        Just("\n"),
        Just("#"),
        Just("## "),
        Just("==="),
        Just("---\n"),
        Just(" "),
        Just("."),
        Just("..."),
        Just("…"),
        Just("/"),
        Just("test_x"),
        Just("tests"),
        Just("measured at 1234567 "),
        Just("renamed from "),
        Just(" to "),
        Just("http://"),
        Just("é"),
        Just("😀"),
        Just("|"),
        Just("> "),
        Just("1. "),
        Just("c.yaml"),
        Just("\r\n"),
        Just("tests.unit"),
    ];
    prop::collection::vec(atom, 0..60).prop_map(|parts| parts.concat())
}

fn check(raw: &str) -> Result<(), TestCaseError> {
    let options = CiteOptions {
        rust_module_paths: true,
        ..CiteOptions::default()
    };
    let cites = find_cites(raw, &options);
    let mut previous_end = 0;
    for cite in &cites {
        prop_assert!(cite.span.start < cite.span.end && cite.span.end <= raw.len());
        prop_assert!(raw.is_char_boundary(cite.span.start));
        prop_assert!(raw.is_char_boundary(cite.span.end));
        prop_assert!(
            cite.span.start >= previous_end,
            "overlap or disorder in {raw:?}"
        );
        previous_end = cite.span.end;
        let _ = cite.cite_text();
    }
    Ok(())
}

proptest! {
    #[test]
    fn never_panics_on_any_text(raw in any::<String>()) {
        check(&raw)?;
    }

    #[test]
    fn never_panics_on_citation_soup(raw in soup()) {
        check(&raw)?;
    }

    /// Searching only the lines that can hold a shape finds what searching
    /// the whole text finds, for every pattern searched that way.
    #[test]
    fn the_lines_searched_hold_every_match(raw in soup()) {
        use shapes::*;
        type LineFilter = fn(&str) -> bool;
        let searched: [(&Regex, LineFilter); 5] = [
            (node_id_pattern(), |l| has_double_colon(l) && has_code_file(l)),
            (module_id_pattern(), has_double_colon),
            (data_node_id_pattern(), has_double_colon),
            (line_pattern(), has_line_number),
            (code_file_pattern(), has_code_file),
        ];
        for (pattern, may_hold) in searched {
            let whole: Vec<_> = pattern.find_iter(&raw).map(|m| m.range()).collect();
            let by_line: Vec<_> = matches_on_lines(&raw, pattern, may_hold)
                .filter_map(|(at, caps)| caps.get(0).map(|m| placed(at, m)))
                .collect();
            let found: Vec<_> = finds_on_lines(&raw, pattern, may_hold)
                .map(|(at, m)| placed(at, m))
                .collect();
            prop_assert_eq!(&whole, &by_line, "{}", pattern.as_str());
            prop_assert_eq!(&whole, &found, "{}", pattern.as_str());
        }
    }
}

#[test]
fn myst_project_and_path_links_name_the_path_after_their_scheme() {
    let raw = "See [the options](project:configuration.md#top), [data](path:example.txt) \
               and [mail](mailto:a@b.c).";
    let targets = link_targets(raw);
    assert_eq!(targets, ["configuration.md", "example.txt"]);
}

#[test]
fn a_line_in_preformatted_output_is_no_citation() {
    let raw = "The handler is `src/run.mjs:12`.\n\n<pre style=\"color:#eee\"><span>FAIL</span> test/a.test.js\n <span>lib/index.mjs:11:43</span>\n</pre>\n\nSee src/run.mjs:14 too.\n";
    assert_eq!(
        line_starts(raw),
        [
            ("src/run.mjs".to_owned(), 12),
            ("src/run.mjs".to_owned(), 14)
        ]
    );
}

#[test]
fn a_line_in_an_example_report_is_no_citation() {
    let raw = "# Rules\n\nFlag new wiring in src/server.go:40.\n\n### Example Report\n\n> **src/server.go:400-425** adds a client.\n\n## Next\n\nSee src/server.go:44.\n";
    assert_eq!(
        line_starts(raw),
        [
            ("src/server.go".to_owned(), 40),
            ("src/server.go".to_owned(), 44)
        ]
    );
}

#[test]
fn a_one_word_destination_is_a_path_and_a_schemes_uri_is_none() {
    let raw = "See [the licence](LICENSE), [the guide](docs/), \
               [a file](gh-file:pulumi#pkg/x.go), [a pin](gh-permalink:pulumi?abc#x/y.go) \
               and [a drive](c:/x.md).";
    let targets = link_targets(raw);
    assert_eq!(targets, ["LICENSE", "docs"]);
}

#[test]
fn a_line_cite_that_labels_the_address_of_its_link_is_the_link() {
    let text = "Defined in: [src/index.ts:48](https://github.com/o/r/blob/main/core/src/index.ts#L48)\nAnd [src/other.ts:3](https://github.com/o/r/blob/main/core/src/index.ts#L3)\n";
    let cites = find(text);
    let lines: Vec<String> = cites
        .iter()
        .filter(|c| matches!(c.kind, CiteKind::Line { .. }))
        .map(|c| c.cite_text())
        .collect();
    assert_eq!(lines, ["src/other.ts:3"], "{cites:?}");
}

/// The names each Python role of an rst page is tried under, in order.
fn py_object_names(raw: &str) -> Vec<Vec<String>> {
    let markdown = crate::records::rst::parse(raw);
    find_cites_in(raw, &markdown, &CiteOptions::default())
        .into_iter()
        .filter_map(|c| match c.kind {
            CiteKind::PyObject { names, .. } => Some(names),
            _ => None,
        })
        .collect()
}

#[test]
fn a_role_under_a_current_module_is_tried_under_it_even_when_it_starts_so() {
    let raw = ".. currentmodule:: greenlet\n\nCall :meth:`greenlet.switch` now.\n";
    assert_eq!(
        py_object_names(raw),
        [vec![
            "greenlet.greenlet.switch".to_owned(),
            "greenlet.switch".to_owned()
        ]]
    );
}

#[test]
fn an_automodule_sets_the_module_of_the_rest_of_its_document() {
    let raw = ".. automodule:: glom.core\n\nThus the :class:`Invoke` spec.\n";
    assert_eq!(
        py_object_names(raw),
        [vec!["glom.core.Invoke".to_owned(), "Invoke".to_owned()]]
    );
}

#[test]
fn a_line_shorthand_in_a_table_continues_its_columns_file() {
    let raw = "| knob | where | build |\n| --- | --- | --- |\n\
               | `kStripes` (`config.hpp:98`) | count | `esp/CMakeLists.txt:285` |\n\
               | `kCacheLine` (`:122`) | padding | `esp/CMakeLists.txt:303` |\n\
               | `kSlots` (`:149`) | count | inherited (`:310`) |\n";
    let lines: Vec<String> = find(raw)
        .iter()
        .filter_map(|c| match &c.kind {
            CiteKind::Line { path, start, .. } => Some(format!("{path}:{start}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        [
            "config.hpp:98",
            "esp/CMakeLists.txt:285",
            "config.hpp:122",
            "esp/CMakeLists.txt:303",
            "config.hpp:149",
            "esp/CMakeLists.txt:310"
        ]
    );
    // Out of a table, a shorthand takes the last file named, as before.
    let prose = find("See `config.hpp:98`, then `:122`.\n");
    assert!(matches!(
        &prose[1].kind,
        CiteKind::Line { path, start: 122, .. } if path == "config.hpp"
    ));
}
