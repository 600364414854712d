//! Names that only look like this repository's paths, for the resolve stage:
//! placeholders, a reader's files, run-time output, code-block labels and
//! example layouts. Each returns why a missing path is not a finding, so
//! `recount cites` can say it.

/// Whether the cite's line ends with a colon and a fenced block follows it —
/// "`pkg/__init__.py`:" or "And this `src/main.mjs` file:" — so the path names
/// the contents shown below, as tutorials and Markdown test suites label them.
pub(super) fn labels_a_block(text: &str, at: usize) -> bool {
    let Some(after) = text.get(at..) else {
        return false;
    };
    let mut lines = after.split('\n');
    let Some(rest_of_line) = lines.next() else {
        return false;
    };
    // The label is the line's last words: "`x.py`:", "this `x.py` file:" —
    // not a cite sentences earlier on a long line that ends "is below:".
    let rest = rest_of_line.trim_end();
    if !rest.ends_with(':') || rest.len() > 60 || rest.contains(". ") {
        return false;
    }
    lines
        .find(|line| !line.trim().is_empty())
        .is_some_and(|next| {
            let next = next.trim_start();
            next.starts_with("```") || next.starts_with("~~~")
        })
}

/// Whether the record drew the path's file in a tree diagram (`└── mod.rs`)
/// shortly before citing it: the layout of an example, not of this tree.
pub(super) fn drawn_in_a_tree(text: &str, at: usize, path: &str) -> bool {
    // A diagram a reader still has in view; bounded, so a long record stays linear.
    const REACH: usize = 2_000;
    let name = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path);
    let mut from = at.saturating_sub(REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let Some(before) = text.get(from..at) else {
        return false;
    };
    // Most records draw no tree: one fast search before reading lines.
    if !before.contains("── ") && !before.contains("-- ") {
        return false;
    }
    before.lines().any(|line| {
        let line = line.trim_end();
        ["── ", "-- "].iter().any(|branch| {
            line.rsplit_once(branch)
                .is_some_and(|(_, drawn)| drawn.trim_end_matches('/') == name)
        }) && (line.contains('└') || line.contains('├') || line.contains('│'))
    })
}

/// The folder of a path, when the tree keeps it empty with a marker file
/// (`.gitkeep`, `.keep`): whatever a record names inside it is made at run time.
pub(super) fn kept_empty<'p>(path: &'p str, paths: &[String]) -> Option<&'p str> {
    let (folder, _) = path.rsplit_once('/')?;
    let prefix = format!("{folder}/");
    let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
    let inside: Vec<&str> = paths[start..]
        .iter()
        .take_while(|p| p.starts_with(&prefix))
        .map(|p| &p[prefix.len()..])
        .collect();
    (!inside.is_empty()
        && inside
            .iter()
            .all(|name| [".gitkeep", ".keep", ".gitignore"].contains(name)))
    .then_some(folder)
}

/// Letters standing for digits read the same in either case: `xxx`,
/// `yyyymmdd`, `NNNN` (a lowercase `name` or `version` is a real word).
fn stands_for_digits(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    w.len() >= 3
        && (w.chars().all(|c| c == 'x')
            || w.chars().all(|c| c == 'n')
            || ["yyyy", "yyyymm", "yyyymmdd", "yyyymmddhhmmss"].contains(&w.as_str()))
}

/// Why a link target is a template's placeholder (`yyyymmdd-xxx.md`, a
/// new record's name to be), if it is one. Narrower than [`placeholder`]: a
/// link is written on purpose, so only letters that stand for digits count.
pub(super) fn link_placeholder(target: &str) -> Option<String> {
    target
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| stands_for_digits(w))
        .map(|word| format!("`{word}` in `{target}` is a placeholder, not a name"))
}

/// Why a path is a placeholder a reader fills in rather than a file —
/// `file.py:123`, `changelogs/0.MINOR.x.md`, `foo/bar.rs` — if it is one.
pub(super) fn placeholder(path: &str) -> Option<String> {
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
        });
    if let Some(word) = word {
        Some(format!("`{word}` in `{path}` is a placeholder, not a name"))
    } else if STEMS.contains(&stem.as_str()) || metasyntactic {
        Some(format!(
            "`{path}` is a placeholder name, not a file of this repository"
        ))
    } else {
        None
    }
}

/// Words that, in the sentence around a path, say it is the reader's own file
/// rather than this repository's: "here is a sample `ci.yml`", "in your
/// package", "such as `tests/common/mod.rs`".
pub(super) const READERS_PROJECT_CUES: [&str; 15] = [
    "your ",
    // "If `.changeset/config.json` does not exist, ...": no claim that it does.
    "does not exist",
    "doesn't exist",
    // "**Example:** the file `content/blog/x.md` will yield ...".
    "example:",
    // A tutorial's step: "Create `content/blog/first.md` with ...".
    "create `",
    "create a file",
    "create a new file",
    "create the file",
    // "the source files ... would be located at `docs/about.md`": a hypothetical.
    "would be ",
    "a sample",
    "an example",
    "for example",
    "e.g.",
    "such as",
    "for instance",
];

/// The cue of a sentence that names another repository ("In the
/// `eslint/eslint.org` repository, ... `tools/release-data.js`"): its paths are
/// that repository's.
pub(super) const ANOTHER_REPOSITORY: &str = "the `owner/name` repository";

/// Words that say a file is made by a command or a build, not committed.
pub(super) const RUN_TIME_CUES: [&str; 7] = [
    "generated",
    "will be created",
    "is created",
    "are created",
    "creates",
    "written to",
    "will be written",
];

pub(super) fn readers_project_cue(text: &str, at: usize) -> Option<&'static str> {
    let mut start = crate::checks::cites::find::sentence_start(text, at);
    // "(e.g. `x.rs`)": the abbreviation's full stop is not a sentence's end.
    let before = text.get(..start).unwrap_or_default();
    if let Some(abbreviation) = ["e.g.", "i.e.", "etc."].iter().find(|a| {
        before
            .get(before.len().saturating_sub(a.len())..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(a))
    }) {
        start -= abbreviation.len();
    }
    // A sentence ends within a few hundred characters; looking further would
    // make every cite of a long record read the rest of it.
    let mut limit = (at + 600).min(text.len());
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let rest = text.get(at..limit)?;
    let end = rest
        .find(". ")
        .into_iter()
        .chain(rest.find(".\n"))
        .chain(rest.find("\n\n"))
        .min()
        .map_or(limit, |i| at + i);
    let sentence = text.get(start..end)?.to_ascii_lowercase();
    static OTHER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let other = OTHER.get_or_init(|| {
        regex::Regex::new(r"`[\w.-]+/[\w.-]+`\s+(?:repository|repo)\b")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    if other.is_match(&sentence) {
        return Some(ANOTHER_REPOSITORY);
    }
    READERS_PROJECT_CUES
        .iter()
        .chain(RUN_TIME_CUES.iter())
        .find(|cue| sentence.contains(*cue))
        .copied()
}

/// Whether a path that names nothing here is plausibly one of this
/// repository's paths gone stale, or why not: its folder (everything before the
/// last `/`) is a folder of the tree — at the root, under the record's own
/// folder, or deeper when it is specific enough to mean one place (two
/// segments or more, as a record writes `tests/unit/x.py` for
/// `packages/core/tests/unit/x.py`) — and a file has an extension. A bare name, a folder no tree of this repository has
/// (`target/debug`, `owner/repo`, `~/.config`), or a slash-separated word
/// (`read/write`) is not a path of this repository.
pub(super) fn plausibly_ours(
    record: &str,
    path: &str,
    is_dir: bool,
    paths: &[String],
) -> Result<(), String> {
    let Some((folder, last)) = path.rsplit_once('/') else {
        return Err(if is_dir {
            format!("no folder `{path}` here: a folder of another tree or a build's")
        } else {
            format!("no file of this repository is named `{path}` (a reader's file?)")
        });
    };
    let at_root = format!("{folder}/");
    let beside = record
        .rsplit_once('/')
        .map(|(dir, _)| format!("{dir}/{folder}/"));
    let deeper = folder.contains('/').then(|| format!("/{folder}/"));
    let first = folder.split('/').next().unwrap_or(folder);
    let first_deep = format!("/{first}/");
    let has_folder = paths.iter().any(|p| {
        p.starts_with(&at_root)
            || beside.as_ref().is_some_and(|b| p.starts_with(b.as_str()))
            || deeper.as_ref().is_some_and(|d| p.contains(d.as_str()))
            // A test file under a deeper test folder: a record writes
            // `tests/integration/x.py` for `packages/core/tests/...`.
            || (!is_dir
                && folder.contains('/')
                && ["tests", "test", "spec", "specs"].contains(&first)
                && p.contains(first_deep.as_str()))
    });
    if !has_folder {
        return Err(format!(
            "`{folder}/` is no folder of this repository (another root, a build output, or not a path)"
        ));
    }
    // `grpc.AppClient`, `fmt.Println`: a mixed-case "extension" is an
    // identifier after a package path, not a file type.
    let has_extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=10).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            // `api/v1.9.0`: a version, not a file type.
            && ext.chars().any(|c| c.is_ascii_alphabetic())
            && (ext.chars().all(|c| !c.is_ascii_uppercase())
                || ext.chars().all(|c| !c.is_ascii_lowercase()))
    });
    if !is_dir && !has_extension {
        if let Some((_, member)) = last.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) {
            if member.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "`{path}` ends in a version, not a file extension (a tag or a module's version?)"
                ));
            }
            return Err(format!(
                "`.{member}` is no file extension: `{path}` names something in code after its package path"
            ));
        }
        return Err(format!(
            "`{path}` has no file extension and names nothing here (a name, not a path?)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_standing_for_digits_are_placeholders_in_either_case() {
        for path in [
            "yyyymmdd-xxx.md",
            "docs/adr/NNNN-title.md",
            "adr-XXXX.md",
            "0.MINOR.x.md",
            "tests/ui/foo_functions.rs",
            "crates/my-crate/src/generic_file.rs",
            ".github/workflows/test_x.yml",
            "release-notes/vX.Y.Z.yaml",
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
            "src/x86/cpu.rs",
            "docs/xml.md",
        ] {
            assert_eq!(placeholder(path), None, "{path}");
        }
        assert!(link_placeholder("yyyymmdd-xxx.md").is_some());
        assert_eq!(link_placeholder("foo.md"), None);
    }
}
