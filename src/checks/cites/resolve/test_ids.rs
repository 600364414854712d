//! Stage 4, the citation family's test-id resolver: `file.py::Class::test`,
//! a Rust `file.rs::module::test`, a pytest module id `pkg.test_x::test`, a
//! bare Rust path `module::tests::name`, against the tests the frame's files
//! define; a missing file that could not be this repository's asks the
//! registry (`bare-name`, `unknown-root`, `module-name`).

use std::sync::Arc;

use crate::checks::cites::cfg::CitesPlan;
use crate::checks::cites::context::{Context, locked};
use crate::checks::cites::exemptions::{self, Exemption};
use crate::checks::cites::locate::{candidates, escapes, rooted};
use crate::checks::cites::model::{CiteStatus, TestLanguage, TestTarget};
use crate::checks::cites::testdefs::{self, DefKind, TestDef};
use crate::error::{Error, Result};

/// `tests/x.py::Class::test_y`: the test, and (its file being an example's
/// layout, not this tree's) the registry's say.
pub(super) fn resolve_python_test(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    elided: bool,
    class: Option<&str>,
    name: &str,
) -> Result<CiteStatus> {
    let status = resolve_test(context, settings, path, elided, class, name)?;
    note_test(
        context,
        &status,
        settings,
        path,
        elided,
        class.map(str::to_owned),
        name,
    );
    if elided {
        // Only its tail is known: where it could be is anyone's guess.
        return Ok(status);
    }
    Ok(example_test_file(context, settings, path, status))
}

/// `src/x.rs::tests::name`: a Rust test of a file, in its inline modules.
pub(super) fn resolve_rust_test(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    elided: bool,
    modules: &[String],
    name: &str,
) -> Result<CiteStatus> {
    let scope = (!modules.is_empty()).then(|| modules.join("::"));
    let status = resolve_test(context, settings, path, elided, scope.as_deref(), name)?;
    note_test(context, &status, settings, path, elided, scope, name);
    Ok(status)
}

/// The tests a file of the frame defines, read once per frame and file.
fn tests_of(context: &Context<'_>, file: &str) -> Result<Option<Arc<Vec<TestDef>>>> {
    let frame = context.frame;
    let key = (frame.label.clone(), file.to_owned());
    if let Some(defs) = locked(&context.reads.tests).get(&key) {
        return Ok(defs.clone());
    }
    let text = crate::snapshot::read_text_within(
        frame.snapshot.as_ref(),
        file,
        crate::snapshot::MAX_PARSED_BYTES,
    )
    .map_err(|e| Error::reading(file, e))?;
    let defs = text
        .and_then(|t| testdefs::tests_in(file, &t))
        .map(Arc::new);
    locked(&context.reads.tests).insert(key, defs.clone());
    Ok(defs)
}

/// A test id of a file (`path::scope::name`) against the tests the file
/// defines at the frame; a missing file is left in `found` for the evidence.
fn resolve_test(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    elided: bool,
    scope: Option<&str>,
    name: &str,
) -> Result<CiteStatus> {
    let frame = context.frame;
    let at = &frame.label;
    // `/tests/x.py::name`: a leading slash is the repository's root.
    let path = &rooted(path);
    if escapes(path) {
        return Ok(CiteStatus::stale(format!(
            "`{path}` leaves the repository; recount reads nothing outside it"
        )));
    }
    let Some(language) = TestLanguage::of_path(path) else {
        // A data file a collector (a conftest.py hook, a plugin) turns into
        // tests: recount can say the file is there, not which cases it holds.
        let files = candidates(frame, path, elided, &settings.roots);
        return Ok(match files.first() {
            None => {
                *context.found.test_file_missing.borrow_mut() = true;
                CiteStatus::stale(format!("no file `{path}` at {at}"))
            }
            Some(file) => CiteStatus::Unverified {
                why: format!(
                    "{file} is there, but its tests are made by a collector recount does not run"
                ),
            },
        });
    };
    let enabled = match language {
        TestLanguage::Python => settings.python,
        TestLanguage::Rust => settings.rust,
    };
    let files = candidates(frame, path, elided, &settings.roots);
    if files.is_empty() {
        // `cli/tests/name.rs::test_name`, `.../test_x.py::test_y`: the form
        // of a command, a slot for the reader's own test.
        if let Some(skip) = context.exemptions.ask(Exemption::Placeholder, || {
            exemptions::placeholder::test_name(name)
                .or_else(|| exemptions::placeholder::placeholder(path))
        }) {
            return Ok(skip);
        }
        *context.found.test_file_missing.borrow_mut() = true;
        return Ok(CiteStatus::stale(format!("no file `{path}` at {at}")));
    }
    if !enabled {
        return Ok(CiteStatus::Ok {
            resolved: format!(
                "{} (test discovery off for this language)",
                files.join(", ")
            ),
        });
    }
    let qualified = scope.map_or_else(|| name.to_owned(), |s| format!("{s}::{name}"));
    let mut all = Vec::new();
    for file in &files {
        let Some(defs) = tests_of(context, file)? else {
            continue;
        };
        let found = testdefs::defining(&defs, language, scope, name);
        // A Rust item named like a test but without a test attribute is a
        // helper the record takes for a test; any other item is a reference
        // to code (`graph.rs::walk_deps`).
        if let Some(def) = found
            && language == TestLanguage::Rust
            && def.kind == DefKind::Function
            && (name.starts_with("test_") || name.ends_with("_test"))
        {
            return Ok(CiteStatus::Stale {
                why: format!(
                    "{file} defines `{qualified}` without a test attribute: a helper, not a test, at {at}"
                ),
                suggestion: None,
                guessed: false,
            });
        }
        if let Some(def) = found {
            let what = match def.kind {
                DefKind::Test => "",
                DefKind::Class => " (a class: its tests)",
                DefKind::Function => " (defined, not a test)",
            };
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{qualified}{what}"),
            });
        }
        // A Python module that is no test file names its code, not a test:
        // `scheduler.py::update_graph` points a reader at the method of
        // that name, whatever class or function it sits in.
        if language == TestLanguage::Python
            && scope.is_none()
            && !is_python_test_file(file)
            && let Some(def) = defs.iter().find(|def| def.name == name)
        {
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{} (its code, not a test)", def.qualified()),
            });
        }
        // Or a name the module assigns or imports at its top
        // (`settings.py::INSTALLED_APPS`, `models.py::UUID`: a module beside
        // the tests, which pytest does not collect: its file is not named as
        // a test module, nor the name as a test).
        let test_module = {
            let file_name = file.rsplit('/').next().unwrap_or(file);
            file_name.starts_with("test_") || file_name.ends_with("_test.py")
        };
        if language == TestLanguage::Python
            && scope.is_none()
            && !test_module
            && !name.starts_with("test")
            && !name.starts_with("Test")
            && crate::snapshot::read_text_within(
                frame.snapshot.as_ref(),
                file,
                crate::snapshot::MAX_PARSED_BYTES,
            )
            .map_err(|e| Error::reading(file, e))?
            .is_some_and(|text| {
                assigns_at_top(&text, name)
                    || crate::checks::cites::pyobjects::ModuleSymbols::of(&text).binds(name)
            })
        {
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{name} (a name it binds, not a test)"),
            });
        }
        all.extend(defs.iter().cloned());
    }
    // The outermost name cited is bound by nothing the file spells out, and
    // the file writes its own namespace (`globals().update(make_tests(…))`,
    // a driver's classes made from spec files at import): pytest collects
    // what the import made, which no static reading sees.
    if language == TestLanguage::Python {
        let outermost = scope.and_then(|s| s.split("::").next()).unwrap_or(name);
        let spelled = all
            .iter()
            .any(|def| def.class_or_module.is_empty() && def.name == outermost);
        if !spelled {
            for file in &files {
                let text = crate::snapshot::read_text_within(
                    frame.snapshot.as_ref(),
                    file,
                    crate::snapshot::MAX_PARSED_BYTES,
                )
                .map_err(|e| Error::reading(file, e))?;
                if text.is_some_and(|t| crate::checks::cites::pyobjects::binds_at_run_time(&t)) {
                    return Ok(CiteStatus::Unverified {
                        why: format!(
                            "{file} defines no `{outermost}`, but writes its own namespace at import (`globals()`, `exec`, `sys.modules`): the test may be made then, which no static reading sees"
                        ),
                    });
                }
            }
        }
    }
    // A class is suggested for a class (`TestSuites` -> `TestSuite`), a
    // function for a function.
    let wants_class = name.starts_with(|c: char| c.is_uppercase());
    all.retain(|def| (def.kind == DefKind::Class) == wants_class);
    // `tests/test_histogram.py::test_name`: the form of a command, with the
    // reader's own test in it.
    if let Some(skip) = context.exemptions.ask(Exemption::Placeholder, || {
        exemptions::placeholder::test_name(name)
    }) {
        return Ok(skip);
    }
    let suggestion = testdefs::suggest(&all, name);
    Ok(CiteStatus::Stale {
        why: format!("{} defines no test `{qualified}` at {at}", files.join(", ")),
        suggestion,
        guessed: true,
    })
}

/// Whether a Python module's text assigns `name` at its top level (`NAME =`,
/// `NAME: tuple[str, ...] =`, at the start of a line).
fn assigns_at_top(text: &str, name: &str) -> bool {
    text.lines().any(|line| {
        line.strip_prefix(name).is_some_and(|rest| {
            let rest = rest.trim_start();
            (rest.starts_with('=') && !rest.starts_with("=="))
                || (rest.starts_with(':') && rest.contains('='))
        })
    })
}

/// `test_cli::test_x`: a pytest node id with the module's dotted name for its
/// file. It is one when a file `test_cli.py` (`a/b/test_cli.py` for `a.b.test_cli`)
/// is here — as written, under a test root, or anywhere its path ends so —
/// and is then resolved as `test_cli.py::test_x`; otherwise it is a name in
/// prose, not a citation, and is skipped.
pub(super) fn resolve_module_test(
    context: &Context<'_>,
    settings: &CitesPlan,
    module: &str,
    segments: &[String],
) -> Result<CiteStatus> {
    let path = format!("{}.py", module.replace('.', "/"));
    let Some((name, class)) = segments.split_last() else {
        return Ok(CiteStatus::stale("an empty test id"));
    };
    let frame = context.frame;
    if let Some(skip) = context.exemptions.ask(Exemption::ModuleName, || {
        exemptions::module_name::fires(
            &candidates(frame, &path, false, &settings.roots),
            module,
            &path,
        )
    }) {
        return Ok(skip);
    }
    let scope = (!class.is_empty()).then(|| class.join("::"));
    resolve_test(context, settings, &path, false, scope.as_deref(), name)
}

/// `module::tests::name` with no file: any Rust file of the snapshot whose test
/// `name` sits in a module path ending with the cited modules.
pub(super) fn resolve_rust_path(
    context: &Context<'_>,
    settings: &CitesPlan,
    segments: &[String],
) -> Result<CiteStatus> {
    let frame = context.frame;
    let Some((name, modules)) = segments.split_last() else {
        return Ok(CiteStatus::stale("an empty Rust path"));
    };
    if !settings.rust {
        return Ok(CiteStatus::Ok {
            resolved: "(Rust test discovery is off)".to_owned(),
        });
    }
    let needle = name.as_bytes();
    let files: Vec<String> = frame
        .snapshot
        .paths()
        .iter()
        .filter(|p| p.ends_with(".rs"))
        .cloned()
        .collect();
    for file in files {
        let Some(bytes) = frame
            .snapshot
            .read(&file)
            .map_err(|e| Error::plain(format!("cannot read {file}: {e}")))?
        else {
            continue;
        };
        if !bytes.windows(needle.len().max(1)).any(|w| w == needle) {
            continue;
        }
        let Some(defs) = tests_of(context, &file)? else {
            continue;
        };
        // A test's full module path is the file's module (`src/parser.rs` is
        // `parser`) followed by the inline modules it sits in.
        let file_modules = rust_file_modules(&file);
        let hit = defs.iter().any(|d| {
            let full: Vec<&String> = file_modules
                .iter()
                .chain(d.class_or_module.iter())
                .collect();
            d.name == *name
                && full.len() >= modules.len()
                && full[full.len() - modules.len()..]
                    .iter()
                    .zip(modules)
                    .all(|(a, b)| *a == b)
        });
        if hit {
            return Ok(CiteStatus::Ok {
                resolved: format!("{file}::{}", segments.join("::")),
            });
        }
    }
    Ok(CiteStatus::stale(format!(
        "no Rust test `{}` at {}",
        segments.join("::"),
        frame.label
    )))
}

/// The module path a Rust file gives its items: `src/a/b.rs` -> `a::b`,
/// `src/a/mod.rs` -> `a`, `src/lib.rs` -> (the crate root).
fn rust_file_modules(path: &str) -> Vec<String> {
    let inside = path.rsplit_once("src/").map_or(path, |(_, rest)| rest);
    let stem = inside.strip_suffix(".rs").unwrap_or(inside);
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Keeps a stale test cite's file, scope and name for the evidence, when
/// its file is there (the test is what went).
fn note_test(
    context: &Context<'_>,
    status: &CiteStatus,
    settings: &CitesPlan,
    path: &str,
    elided: bool,
    scope: Option<String>,
    name: &str,
) {
    if !matches!(status, CiteStatus::Stale { .. }) {
        return;
    }
    let Some(language) = TestLanguage::of_path(path) else {
        return;
    };
    if let Some(file) = candidates(context.frame, path, elided, &settings.roots).first() {
        *context.found.test.borrow_mut() = Some(TestTarget {
            file: file.clone(),
            scope,
            name: name.to_owned(),
            language,
        });
    }
}

/// A test id whose file is missing and could not be this repository's — a
/// placeholder's name (`tests/test_foo.py`), a
/// bare `module.py` no file of the tree is named, or a file under a folder the
/// tree does not have (`tests/foobar/` where the suite is `testing/`) — is the
/// form of a node id or an example's layout, set aside (`placeholder`,
/// `bare-name`, `unknown-root`) unless the history says the file was there when the record
/// cited it. A missing file in one of the tree's folders stays stale: a record
/// naming a test that was never written is the drift this check is for.
fn example_test_file(
    context: &Context<'_>,
    settings: &CitesPlan,
    path: &str,
    status: CiteStatus,
) -> CiteStatus {
    let CiteStatus::Stale { why, .. } = &status else {
        return status;
    };
    if !*context.found.test_file_missing.borrow() {
        return status;
    }
    let paths = context.frame.snapshot.paths();
    // `tests/test_foo.py::test_name`: a guide showing the form of a test id,
    // with names a reader fills in.
    let skip = context
        .exemptions
        .ask(Exemption::Placeholder, || exemptions::placeholder(path))
        .or_else(|| {
            context.exemptions.ask(Exemption::BareName, || {
                exemptions::bare_name::test_file(paths, path)
            })
        })
        .or_else(|| {
            context.exemptions.ask(Exemption::UnknownRoot, || {
                exemptions::unknown_root::test_file(paths, &settings.roots, path)
            })
        });
    match skip {
        Some(skip) => {
            *context.found.stale_if_history_knows.borrow_mut() = Some(why.clone());
            skip
        }
        None => status,
    }
}

/// Whether pytest would collect `file` as a test module: `test_*.py` or
/// `*_test.py`, a `conftest.py`, or any module under a `tests`/`test`
/// folder (a suite's helpers are its own).
fn is_python_test_file(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.starts_with("test_")
        || name.ends_with("_test.py")
        || name == "conftest.py"
        || file
            .split('/')
            .rev()
            .skip(1)
            .any(|folder| matches!(folder, "tests" | "test" | "testing"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::context::Reads;
    use crate::checks::cites::model::{Exemption, ExemptionSettings};
    use crate::checks::cites::testing;

    fn status_of(path: &str, name: &str) -> CiteStatus {
        let frame = testing::frame(&[("tests/test_app.py", "def test_run():\n    pass\n")]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let text = format!("Run `{path}::{name}`.");
        let context = testing::context(&frame, &reads, &on, "AGENTS.md", &text);
        let settings = CitesPlan::resolve(None, &[]).expect("defaults");
        resolve_python_test(&context, &settings, path, false, None, name).expect("resolves")
    }

    fn status(path: &str) -> CiteStatus {
        status_of(path, "test_resume")
    }

    #[test]
    fn a_module_that_is_no_test_file_names_what_it_assigns() {
        let text =
            "INSTALLED_APPS = (\n    \"a\",\n)\nDEBUG: bool = True\nif DEBUG == 1:\n    pass\n";
        assert!(assigns_at_top(text, "INSTALLED_APPS"));
        assert!(assigns_at_top(text, "DEBUG"));
        assert!(!assigns_at_top(text, "DEBUGGER"));
        assert!(!assigns_at_top("if DEBUG == 1:\n    DEBUG = 2\n", "DEBUG"));
        let frame = testing::frame(&[("tests/projects/settings.py", text)]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let cited = "Add it to `tests/projects/settings.py::INSTALLED_APPS`.";
        let context = testing::context(&frame, &reads, &on, "AGENTS.md", cited);
        let settings = CitesPlan::resolve(None, &[]).expect("defaults");
        let resolve = |name: &str| {
            resolve_python_test(
                &context,
                &settings,
                "tests/projects/settings.py",
                false,
                None,
                name,
            )
            .expect("resolves")
        };
        assert!(matches!(resolve("INSTALLED_APPS"), CiteStatus::Ok { .. }));
        assert!(matches!(resolve("MIDDLEWARE"), CiteStatus::Stale { .. }));
    }

    #[test]
    fn a_placeholders_test_file_is_the_form_of_a_test_id() {
        assert!(status("tests/test_foo.py").skipped_by(Exemption::Placeholder));
        // The reader's own test in a file of the suite.
        assert!(status_of("tests/test_app.py", "test_name").skipped_by(Exemption::Placeholder));
        assert!(status_of("tests/test_app.py", "test_function").skipped_by(Exemption::Placeholder));
    }

    #[test]
    fn a_missing_test_file_in_the_suites_folder_stays_stale() {
        assert!(matches!(
            status("tests/test_gone.py"),
            CiteStatus::Stale { .. }
        ));
        assert!(matches!(
            status("tests/test_app.py"),
            CiteStatus::Stale { .. }
        ));
    }

    #[test]
    fn a_test_class_made_at_import_is_not_proven_gone() {
        let frame = testing::frame(&[(
            "test/test_stream.py",
            "class TestStream:\n    def test_open(self):\n        pass\n\nglobals().update(generate_test_classes(SPEC_DIR))\n",
        )]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let settings = CitesPlan::resolve(None, &[]).expect("defaults");
        let ask = |scope: &str, name: &str| {
            let text = format!("Run `test/test_stream.py::{scope}::{name}`.");
            let context = testing::context(&frame, &reads, &on, "CONTRIBUTING.md", &text);
            resolve_python_test(
                &context,
                &settings,
                "test/test_stream.py",
                false,
                Some(scope),
                name,
            )
            .expect("resolves")
        };
        // A class the file never spells out may be one the import makes.
        assert!(matches!(
            ask("TestUnifiedStreamErrors", "test_errors"),
            CiteStatus::Unverified { .. }
        ));
        // A class spelled out is read as written: its missing test is gone.
        assert!(matches!(
            ask("TestStream", "test_close"),
            CiteStatus::Stale { .. }
        ));
    }
}
