//! Exemption `placeholder`, in both chains (and for line cites and test ids): a name a
//! reader fills in (`file.py:123`, `docs/adr/NNNN-title.md`, `foo/bar.rs`),
//! not a file. A reading of the name: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path, a line cite or a test id's missing file whose name is a placeholder a reader fills in: letters standing for digits (`NNNN`, `yyyymmdd`, `XXX`), `MAJOR`/`MINOR`/`VERSION`, a lone `x`, metasyntactic names (`foo`, `bar`, `file.py`, `my-crate`, `path/to/`), \"my\" and a kind of thing (`myprovider/`, `myapp.py`), a kind of thing and `name` (`module_name.py`, `package-name/`), `test_` and a kind of thing (`test_file.py`, a test id's `::test_function`), \"new\" at a word's edge joined to a kind of thing (`NewPotential.py`, `new_widget/`, `potential-new.rst`, `new_dump_plugin.py`: the file a recipe has the reader add). For a link, only letters standing for digits, and a page named by a lone letter (`./x.md`), count: a link is written on purpose; an anchor likewise (`CHANGELOG.md#vXYZ`, the release being written). Any citation of a template new records are copied from (`doc/adr/template.md`, `adr-template.md`, a file under `templates/`) is an example to replace, and so is one on a record's line copied unchanged from a template of its folder (a status line left as the template wrote it).",
    applies: Applies::PathOrLink,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if let Some(why) = in_template(probe.context.record, probe.cited) {
        return Some(why);
    }
    if let Some(why) = template_line(probe.context, probe.cited) {
        return Some(why);
    }
    if let Some(why) = substituted(probe.cited) {
        return Some(why);
    }
    if probe.link {
        link_placeholder(probe.cited)
    } else {
        placeholder(probe.path)
    }
}

/// Whether `record` is a template new records are copied from
/// (`doc/adr/template.md`, `adr-template.md`, `templates/decision.md`): its
/// links and paths are examples to replace (`[ADR-0005](0005-example.md)`).
pub(in crate::checks::cites) fn is_template(record: &str) -> bool {
    let mut segments = record.split('/').rev();
    let name = segments.next().unwrap_or(record).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or(&name);
    // A word of the file's stem: `template`, `PULL_REQUEST_TEMPLATE`,
    // `RELEASE-sample` (a release note's sample, copied and filled in).
    stem.split(['-', '_'])
        .any(|word| matches!(word, "template" | "sample"))
        || segments.any(|folder| {
            matches!(
                folder.to_ascii_lowercase().as_str(),
                "template" | "templates"
            )
        })
}

/// Why a citation in a template record is an example, if the record is one.
pub(in crate::checks::cites) fn in_template(record: &str, cited: &str) -> Option<String> {
    is_template(record).then(|| {
        format!(
            "{record} is a template new records are copied from: `{cited}` is an example to replace"
        )
    })
}

/// Why a cite on a line copied unchanged from a template of the record's
/// folder (`Status: [Proposed | … | superseded by [ADR-0005](0005-example.md)]`
/// as `999-template.md` writes it) is that template's example, left
/// unfilled: the line is the template's, not the record's claim.
fn template_line(context: &super::super::context::Context<'_>, cited: &str) -> Option<String> {
    let text = context.text;
    let at = context.at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[start..end].trim();
    // A line long enough to be the template's own words, not a bare link.
    if line.len() < 24 {
        return None;
    }
    let record = context.record;
    let folder = record.rsplit_once('/').map_or("", |(folder, _)| folder);
    let snapshot = &context.frame.snapshot;
    snapshot
        .paths()
        .iter()
        .filter(|p| {
            p.as_str() != record
                && p.rsplit_once('/').map_or("", |(f, _)| f) == folder
                && is_template(p)
        })
        .take(4)
        .find_map(|template| {
            let body = snapshot.read_text_to_parse(template).ok().flatten()?;
            body.lines().any(|l| l.trim() == line).then(|| {
                format!(
                    "its line is {template}'s, copied unfilled: `{cited}` is the template's example"
                )
            })
        })
}

/// Letters standing for digits read the same in either case: `xxx`,
/// `yyyymmdd`, `NNNN` (a lowercase `name` or `version` is a real word).
fn stands_for_digits(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    (w.len() >= 3
        && (w.chars().all(|c| c == 'x')
            || w.chars().all(|c| c == 'n')
            || ["yyyy", "yyyymm", "yyyymmdd", "yyyymmddhhmmss"].contains(&w.as_str())))
        || version_slot(word)
}

/// A name ending in capitals that stand for a version's digits, after its
/// lowercase stem: `pyodideXYZ`, `pythonXY`, `cpXXX` (a file per version,
/// `constraints-pyodide312.txt`, named by its pattern).
fn version_slot(word: &str) -> bool {
    let slot = word
        .bytes()
        .rev()
        .take_while(|b| b"XYZN".contains(b))
        .count();
    slot >= 2 && slot < word.len() && word.as_bytes()[word.len() - slot - 1].is_ascii_lowercase()
}

/// Why a link target is a template's placeholder (`yyyymmdd-xxx.md`, a
/// new record's name to be), if it is one. Narrower than [`placeholder`]: a
/// link is written on purpose, so only letters that stand for digits count.
pub(in crate::checks::cites) fn link_placeholder(target: &str) -> Option<String> {
    if let Some(word) = target
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| stands_for_digits(w))
    {
        return Some(format!(
            "`{word}` in `{target}` is a placeholder, not a name"
        ));
    }
    // A page named by a lone letter (`./x.md`, `../a.md`) is a slot in an
    // example of link syntax: no one names a page so on purpose. (A
    // metasyntactic word is a name someone may give a page: `foo.md` stays.)
    let page = target.split(['#', '?']).next().unwrap_or(target);
    let name = page
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(page);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let lone_letter = stem.len() == 1 && stem.bytes().all(|b| b.is_ascii_alphabetic());
    (name.contains('.') && lone_letter)
        .then(|| format!("`{name}` in `{target}` is a placeholder page, not a name"))
}

/// Why a path holds a variable a build substitutes before the page is read
/// (`inc/summary_{IDF_TARGET_NAME}.rst`, `${VERSION}/notes.md`,
/// `{{ site }}/x.md`): one file per value, no file of that name.
fn substituted(path: &str) -> Option<String> {
    static VARIABLE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let variable = VARIABLE.get_or_init(|| {
        regex::Regex::new(r"\$?\{\{?[ \t]*[A-Za-z_][A-Za-z0-9_.]*[ \t]*\}\}?")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let found = variable.find(path)?;
    Some(format!(
        "`{}` in `{path}` is a variable its build substitutes, not a name",
        found.as_str()
    ))
}

/// Why a path is a placeholder a reader fills in rather than a file —
/// `file.py:123`, `changelogs/0.MINOR.x.md`, `foo/bar.rs` — if it is one.
pub(in crate::checks::cites) fn placeholder(path: &str) -> Option<String> {
    const STEMS: [&str; 12] = [
        "file",
        "filename",
        "foo",
        "bar",
        "baz",
        "qux",
        "example",
        "sample",
        "something",
        "myfile",
        "my_file",
        "my-file",
    ];
    const WORDS: [&str; 9] = [
        "MAJOR", "MINOR", "PATCH", "VERSION", "YYYY", "NNNN", "XXX", "XXXX", "NAME",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let words = path.split(|c: char| !c.is_ascii_alphanumeric());
    // `test_x.yml`, `vX.Y.Z`: a lone `x` (or `X.Y`) stands for a name or a number.
    let word = words.clone().find(|w| {
        WORDS.contains(w) || stands_for_digits(w) || w.eq_ignore_ascii_case("x") || *w == "vX"
    });
    // `foo/`, and `foo_functions.rs`: a name built on a metasyntactic word.
    let metasyntactic = path
        .split(['/', '_', '-', '.'])
        .any(|s| ["foo", "bar", "baz", "qux"].contains(&s.to_ascii_lowercase().as_str()))
        || path.split('/').any(|segment| {
            // `crates/my-crate/src/x.rs`, `my_app/`: the reader's own.
            let lower = segment.to_ascii_lowercase();
            lower.len() > 3 && (lower.starts_with("my-") || lower.starts_with("my_"))
                // `myprovider/`, `myapp.py`: "my" and a kind of thing.
                || lower
                    .split('.')
                    .next()
                    .and_then(|stem| stem.strip_prefix("my"))
                    .is_some_and(|kind| KINDS.contains(&kind) || MY_KINDS.contains(&kind))
        })
        // `NewPotential.py`, `new_widget/`, `potential-new.rst`: the file a
        // recipe has the reader add, named as "new" and its kind.
        || path.split('/').any(new_of_a_kind)
        // `tests/path/to/test.py`: the words that say "your path goes here".
        || path
            .split('/')
            .collect::<Vec<_>>()
            .windows(2)
            .any(|pair| pair[0].eq_ignore_ascii_case("path") && pair[1].eq_ignore_ascii_case("to"));
    if let Some(word) = word {
        Some(format!("`{word}` in `{path}` is a placeholder, not a name"))
    } else if STEMS.contains(&stem.as_str())
        || metasyntactic
        || path.split('/').any(|segment| {
            kind_of_name(
                &segment
                    .split('.')
                    .next()
                    .unwrap_or(segment)
                    .to_ascii_lowercase(),
            )
        })
    {
        Some(format!(
            "`{path}` is a placeholder name, not a file of this repository"
        ))
    } else {
        None
    }
}

/// Whether a path segment names the new one of a kind, the file a recipe
/// has the reader add: "new" at a word's edge joined to a kind
/// (`NewPotential.py`, `new_widget`, `potential-new.rst`).
/// Words that merely hold the letters (`news.md`, `renew.py`,
/// `newsletter.md`, `newton.py`) are names.
fn new_of_a_kind(segment: &str) -> bool {
    let stem = segment.split('.').next().unwrap_or(segment);
    let lower = stem.to_ascii_lowercase();
    let letters = |s: &str| s.len() >= 3 && s.bytes().all(|b| b.is_ascii_alphabetic());
    // `NewPotential`: a capital starts the kind.
    let camel = stem
        .strip_prefix("New")
        .is_some_and(|kind| kind.starts_with(|c: char| c.is_ascii_uppercase()) && letters(kind));
    // `new_widget`, or words ending in a kind (`new_dump_plugin`).
    let joined = lower
        .strip_prefix("new")
        .and_then(|kind| kind.strip_prefix(['_', '-']))
        .is_some_and(|kind| {
            letters(kind)
                || kind.split(['_', '-']).all(letters)
                    && kind
                        .rsplit(['_', '-'])
                        .next()
                        .is_some_and(|last| KINDS.contains(&last) || MY_KINDS.contains(&last))
        });
    // (Only across a separator: `whatsnew.rst` is a name.)
    let after = lower
        .strip_suffix("new")
        .and_then(|kind| kind.strip_suffix(['_', '-']))
        .is_some_and(letters);
    camel || joined || after
}

/// The kinds of thing a reader puts in a slot (`module_name`, `myapp`).
const KINDS: [&str; 14] = [
    "module", "file", "test", "class", "package", "project", "app", "dir", "folder", "function",
    "method", "plugin", "crate", "your",
];

/// More kinds a reader's own one is named by after "my" (`myprovider/`).
const MY_KINDS: [&str; 10] = [
    "provider",
    "service",
    "component",
    "extension",
    "lib",
    "library",
    "tool",
    "site",
    "handler",
    "command",
];

/// A test's name that stands for the reader's own: `test_` and a kind of
/// thing (`test_name`, `test_function`, `test_file.py`), as a guide writes
/// the form of a command (`pytest tests/test_file.py::test_function`).
pub(in crate::checks::cites) fn test_name(name: &str) -> Option<String> {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let kind = stem.strip_prefix("test_")?;
    // `test_y`: a lone letter stands for a name, as `x` does in a path.
    let letter = kind.len() == 1 && kind.bytes().all(|b| b.is_ascii_alphabetic());
    (letter || KINDS.contains(&kind) || ["name", "case", "something"].contains(&kind)).then(|| {
        format!("`{name}` is a placeholder for the reader's own test, not one of this repository's")
    })
}

/// A stem that names the kind of thing a reader puts there
/// (`module_name`, `test-name`, `classname`): a slot, not a file.
fn kind_of_name(stem: &str) -> bool {
    if test_name(stem).is_some() {
        return true;
    }
    stem.strip_suffix("name").is_some_and(|kind| {
        let kind = kind.trim_end_matches(['_', '-']);
        KINDS.contains(&kind)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_in_a_template_record_and_stays_quiet_in_a_record() {
        for record in [
            "doc/adr/template.md",
            "docs/adr-template.md",
            "docs/templates/decision.md",
            "adr/0000-template.md",
            ".github/PULL_REQUEST_TEMPLATE.md",
            "hypo/RELEASE-sample.rst",
        ] {
            assert!(in_template(record, "0005-example.md").is_some(), "{record}");
        }
        for record in [
            "doc/adr/0005-templating.md",
            "docs/guide.md",
            "docs/templating/a.md",
            "docs/samples.md",
            "docs/sampler-guide.md",
        ] {
            assert_eq!(in_template(record, "0005-example.md"), None, "{record}");
        }
        assert!(link_placeholder("vXYZ").is_some());
    }

    #[test]
    fn fires_for_a_variable_a_build_substitutes() {
        for path in [
            "inc/summary_{IDF_TARGET_NAME}.rst",
            "${VERSION}/notes.md",
            "{{ site.baseurl }}/install.md",
        ] {
            assert!(substituted(path).is_some(), "{path}");
        }
        for path in ["docs/install.md", "src/{a,b}.rs", "notes/{}.md"] {
            assert!(substituted(path).is_none(), "{path}");
        }
    }

    #[test]
    fn fires_for_letters_standing_for_digits_and_stays_quiet_for_real_names() {
        for path in [
            "yyyymmdd-xxx.md",
            "docs/adr/NNNN-title.md",
            "adr-XXXX.md",
            "0.MINOR.x.md",
            "tests/ui/foo_functions.rs",
            "crates/my-crate/src/generic_file.rs",
            ".github/workflows/test_x.yml",
            "release-notes/vX.Y.Z.yaml",
            "test/dir/module_name.py",
            "src/package-name/__init__.py",
            "pkg/resources/constraints-pyodideXYZ.txt",
            "tests/path/to/test.py",
            "path/to/config.toml",
            "tests/unit/providers/suggest/myprovider/test_provider.py",
            "tests/test_file.py",
            "src/myapp.py",
            "galpy/potential/NewPotential.py",
            "doc/source/reference/potential-new.rst",
            "src/widgets/new_widget/index.ts",
            "craft_parts/plugins/new_dump_plugin.py",
        ] {
            assert!(placeholder(path).is_some(), "{path}");
        }
        for path in [
            "docs/name.md",
            "src/version.rs",
            "docs/nginx.md",
            "box.md",
            "tests/fixtures/xx.md",
            "src/food.rs",
            "src/barrier.rs",
            "src/mysql.rs",
            "docs/myst.md",
            "mypy/stubs.py",
            "src/mylibrary_loader.rs",
            "src/x86/cpu.rs",
            "docs/xml.md",
            "src/filename_parser.rs",
            "src/rename.rs",
            "src/parseJSON.rs",
            "docs/TODO.md",
            "docs/path/guide.md",
            "src/to/path.rs",
            "docs/news.md",
            "src/renew.py",
            "docs/newsletter.md",
            "src/newton.py",
            "src/Newton.py",
            "docs/whatsnew.rst",
            "src/anew.rs",
            "src/new_relic_agent.rs",
        ] {
            assert_eq!(placeholder(path), None, "{path}");
        }
        assert!(link_placeholder("yyyymmdd-xxx.md").is_some());
        assert!(test_name("test_name").is_some() && test_name("test_function").is_some());
        assert!(test_name("test_y").is_some());
        assert_eq!(test_name("test_io"), None);
        assert_eq!(test_name("test_histogram"), None);
        assert_eq!(test_name("test_filename_parsing"), None);
        assert_eq!(link_placeholder("foo.md"), None);
        assert!(link_placeholder("./x.md").is_some() && link_placeholder("../a.md#top").is_some());
        assert_eq!(link_placeholder("./x86.md"), None);
        assert_eq!(link_placeholder("#a"), None);
    }
}
