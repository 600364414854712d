//! Exemption `changelog-removal`, in the path chain: the changelog entry
//! around the path says the release removed, renamed or replaced it. The
//! entry is itself the history of the removal: the evidence does not
//! overrule it.

use super::super::context::Context;
use super::super::releases;
use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path, or a Python role's object the packages no longer define, in a changelog entry that says the release removed, renamed or replaced it (\"Removed `lib/old.py`\"), or, in any record, in a sentence that says so of it (\"Delete the `charts/` folder\", a decision carried out; \"there is no longer a `project/deps.scala`\", \"there is no `.changelog/` directory\"; \"there was also a `../documentation` folder\"; \"intended to replace `../src/client`\"; a deprecation's \"`app.views.legacy` will be removed\"; \"moved from `pkg/old/`\", \"extracted … out of `src/mcp/tools/`\", \"formerly `x.py`\", \"`plan/x.md` was retired\", a change list's \"`docker/run.sh`: Deleted.\"), or that strikes it through (`~~old.py~~`, shown deleted: any cite so, a link, a line cite `~~app/x.py:208~~` or a test id, whether or not it resolves, set aside before it is read), or that a table lists under a column headed for what was (`| Old Path | New Path |`, a column whose first word is `old`, `previous`, `former`, `before`, `from`, `removed`, `deleted` or `legacy`): meant to be gone. A Python role's object under a section titled for retired API (\"LEGACY objects\", \"Deprecated helpers\": the nearest heading above it or one it sits under) is kept on the page on purpose. Likewise a path or link its line marks as not made yet (`[Mem0](./mem0.md) - memory layer (when created)`, `(to be created)`, `(coming soon)`): announced, not drift. The text records the very change that removed it, so the history does not overrule it.",
    applies: Applies::PathOrLink,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    // A link is written to be followed: only its author striking it through
    // (set aside for every kind of cite before it is resolved: `resolve`)
    // or marking it not made yet says it is meant to be gone ("moved from
    // [the guide](old.md)" still sends the reader there).
    if probe.link {
        return not_made_yet(probe.context);
    }
    removed_here(probe.context).or_else(|| not_made_yet(probe.context))
}

/// Why a cite of any kind its author struck through (`~~`app/x.py:208`~~`,
/// `~~[ADR-16](0016-x.md)~~`) is no drift: the renderer shows it deleted.
/// Asked before the cite is resolved (`resolve`), so a line cite whose
/// lines changed since is set aside as well as a path that went.
pub(in crate::checks::cites) fn struck(context: &Context<'_>) -> Option<String> {
    releases::struck_through(context.text, context.at)
        .then(|| "it is struck through, shown deleted".to_owned())
}

/// Why a cite its line marks as not made yet ("(when created)", "(to be
/// created)") is no drift: the page announces it.
fn not_made_yet(context: &Context<'_>) -> Option<String> {
    releases::marked_future(context.text, context.at)
        .then(|| "its line marks it as not made yet (\"when created\")".to_owned())
}

/// Why a Python role's object the packages no longer define is meant to be
/// gone, if its changelog entry or sentence says so ("Removed
/// :meth:`Resource.export_field`").
pub(in crate::checks::cites) fn object(context: &Context<'_>) -> Option<String> {
    removed_here(context).or_else(|| retired_section(context.record, context.text, context.at))
}

/// The title of a section holding the byte `at` (the nearest heading above
/// it, or one that heading sits under) that names what it describes as
/// retired ("LEGACY objects", "Deprecated API", "Removed options"): its
/// objects are kept on the page on purpose, no longer defined.
fn retired_section(record: &str, text: &str, at: usize) -> Option<String> {
    const RETIRED: [&str; 6] = [
        "legacy",
        "deprecated",
        "removed",
        "retired",
        "obsolete",
        "defunct",
    ];
    // The headings of the last stretch above only: a page of many retired
    // objects reads its text once per object, so the reach is bounded.
    const REACH: usize = 64 * 1024;
    let floor = (at.saturating_sub(REACH)..=at).find(|i| text.is_char_boundary(*i))?;
    let before = text.get(floor..at)?;
    let lines: Vec<&str> = before.lines().collect();
    let rst = crate::records::rst::is_rst(record);
    // Each heading above, with its level: `#`s in Markdown; in
    // reStructuredText, the order in which its adornment first appears.
    let mut styles: Vec<(char, bool)> = Vec::new();
    let mut headings: Vec<(usize, &str)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if rst {
            let Some(under) = lines.get(i + 1) else {
                continue;
            };
            let title = line.trim_end();
            let mark = under.trim_end();
            let Some(c) = mark.chars().next() else {
                continue;
            };
            if title.is_empty()
                || title.starts_with(char::is_whitespace)
                || !c.is_ascii_punctuation()
                || mark.chars().count() < 3
                || !mark.chars().all(|m| m == c)
                || title.chars().all(|t| t == c)
            {
                continue;
            }
            let over = i > 0
                && lines[i - 1].trim_end().chars().all(|m| m == c)
                && !lines[i - 1].trim().is_empty();
            let style = (c, over);
            let level = styles.iter().position(|s| *s == style).unwrap_or_else(|| {
                styles.push(style);
                styles.len() - 1
            });
            headings.push((level, title));
        } else if let Some(rest) = line.strip_prefix('#') {
            let hashes = 1 + rest.len() - rest.trim_start_matches('#').len();
            let title = rest.trim_start_matches('#');
            if hashes <= 6 && title.starts_with([' ', '\t']) {
                headings.push((hashes, title.trim()));
            }
        }
    }
    // The nearest heading, then each one above it of a higher level.
    let mut level = usize::MAX;
    headings.iter().rev().find_map(|&(at_level, title)| {
        if at_level >= level {
            return None;
        }
        level = at_level;
        let lower = title.to_ascii_lowercase();
        lower
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|word| RETIRED.contains(&word))
            .then(|| {
                format!(
                    "its section, \"{}\", keeps it as retired",
                    title.chars().take(60).collect::<String>()
                )
            })
    })
}

/// Whether the entry or sentence around the cite at `context.at` says what
/// it names was removed.
fn removed_here(context: &Context<'_>) -> Option<String> {
    if context.release_notes && releases::entry_removes(context.text, context.at) {
        return Some(
            "its changelog entry says the release removed, renamed or replaced it".to_owned(),
        );
    }
    releases::sentence_says_gone(context.text, context.at)
        .map(|words| format!("its sentence says it is gone (\"{words}\")"))
        .or_else(|| said_gone_in_paragraph(context.record, context.text, context.at))
        .or_else(|| {
            // A move table's `Old Path` column: what each path was.
            let header = crate::checks::cites::find::table_header(context.text, context.at)?;
            let first = header
                .trim_matches(|c: char| !c.is_alphanumeric())
                .split(|c: char| !c.is_alphanumeric())
                .next()?
                .to_ascii_lowercase();
            matches!(
                first.as_str(),
                "old"
                    | "previous"
                    | "former"
                    | "before"
                    | "from"
                    | "removed"
                    | "deleted"
                    | "legacy"
            )
            .then(|| format!("its table's column `{header}` names what it was"))
        })
}

/// Why the cite at `at` names something its paragraph (in a Markdown page,
/// its section) says is gone: an earlier or later mention of the same path
/// there, in backticks, whose sentence says so ("The former
/// `internal/dynamo/` was removed … The same rule `internal/dynamo` had
/// …"; a heading "The runtime moved out of `x.js`").
fn said_gone_in_paragraph(record: &str, text: &str, at: usize) -> Option<String> {
    /// The bytes of a paragraph read either side of the cite at most.
    const REACH: usize = 4096;
    let cited = text.get(at..)?;
    let cited = cited.strip_prefix('`').unwrap_or(cited);
    let name = cited.split(['`', '\n']).next()?.trim_end_matches('/');
    if name.len() < 3 || !name.contains('/') {
        return None;
    }
    let floor = (at.saturating_sub(REACH)..=at).find(|i| text.is_char_boundary(*i))?;
    let ceiling = (at.saturating_add(REACH).min(text.len())..=text.len())
        .find(|i| text.is_char_boundary(*i))?;
    // The paragraph, or in a Markdown page the section: a heading that says
    // the runtime moved out of `x.js` speaks for its section's mentions.
    let sectioned = !crate::records::rst::is_rst(record);
    let start = match sectioned {
        true => text[floor..at]
            .rfind("\n#")
            .map(|i| floor + i + 1)
            .or_else(|| (floor == 0 && text.starts_with('#')).then_some(0)),
        false => None,
    }
    .or_else(|| text[floor..at].rfind("\n\n").map(|i| floor + i + 2))
    .unwrap_or(floor);
    let end = match sectioned {
        true => text[at..ceiling].find("\n#").map(|i| at + i),
        false => None,
    }
    .or_else(|| text[at..ceiling].find("\n\n").map(|i| at + i))
    .unwrap_or(ceiling);
    let paragraph = &text[start..end];
    [format!("`{name}`"), format!("`{name}/`")]
        .iter()
        .flat_map(|quoted| {
            paragraph
                .match_indices(quoted.as_str())
                .map(|(i, _)| start + i)
        })
        .filter(|&other| other.abs_diff(at) > 1)
        .find_map(|other| releases::sentence_says_gone(text, other + 1))
        .map(|words| format!("its paragraph or section says it is gone (\"{words}\")"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    /// What the exemption says of `path`, backticked in `text`, the whole
    /// of the record `record` and the tree's only file.
    fn said(record: &str, text: &str, path: &str) -> Option<String> {
        fires_for(
            fires,
            &[(record, text)],
            record,
            text,
            path,
            path,
            false,
            false,
        )
    }

    #[test]
    fn a_path_its_paragraph_says_is_gone_is_gone_at_each_mention() {
        let text = "Adapters live in `internal/`. (The former `internal/dynamo/` was removed in the move.) The rule `internal/dynamo` had applies to all.\n\nSee `internal/dynamo` for the rule.\n";
        let second = text.find("The rule `").unwrap() + "The rule ".len();
        assert!(
            said_gone_in_paragraph("a.md", text, second)
                .is_some_and(|why| why.contains("was removed"))
        );
        // Another paragraph's mention is read on its own.
        let last = text.rfind('`').unwrap() - "internal/dynamo".len() - 1;
        assert_eq!(said_gone_in_paragraph("a.md", text, last), None);
        // In a Markdown page the section speaks, as far as its next heading;
        // in reStructuredText, only the paragraph.
        let sections = "## Runtime\n\nThe `lib/rt.js` file is gone.\n\n- Tools naming `lib/rt.js` fail.\n\n## Build\n\nPoint tools at `lib/rt.js`.\n";
        let item = sections.find("naming `").unwrap() + "naming ".len();
        assert!(said_gone_in_paragraph("a.md", sections, item).is_some());
        assert_eq!(said_gone_in_paragraph("a.rst", sections, item), None);
        assert_eq!(
            said_gone_in_paragraph("a.md", sections, sections.rfind("`lib").unwrap()),
            None
        );
    }

    #[test]
    fn an_object_in_a_section_titled_for_retired_api_is_kept_on_purpose() {
        let core = "Core\n====\n\nObjects\n-------\n\nLEGACY objects\n--------------\n\nWaveformExtractor\n^^^^^^^^^^^^^^^^^\n\nThe :py:class:`~pkg.WaveformExtractor` class.\n\nLater\n-----\n\nUse :py:class:`pkg.Gone`.\n";
        let legacy = core.find(":py:class:`~pkg").unwrap();
        assert!(
            retired_section("doc/core.rst", core, legacy)
                .is_some_and(|why| why.contains("LEGACY objects"))
        );
        let later = core.find(":py:class:`pkg.Gone").unwrap();
        assert_eq!(retired_section("doc/core.rst", core, later), None);
        let md = "# API\n\n## Deprecated helpers\n\n### run_all\n\nSee `pkg.run_all`.\n\n## Current\n\nSee `pkg.run`.\n";
        assert!(retired_section("docs/api.md", md, md.find("`pkg.run_all").unwrap()).is_some());
        assert_eq!(
            retired_section("docs/api.md", md, md.find("`pkg.run`").unwrap()),
            None
        );
    }

    #[test]
    fn fires_for_a_path_its_changelog_entry_removed() {
        let text = "## 1.2.0\n\n- Removed `lib/old.py`, superseded by the new loader.\n";
        let why = said("CHANGELOG.md", text, "lib/old.py");
        assert!(why.is_some());
    }

    #[test]
    fn a_move_tables_old_column_names_what_was() {
        let table = "| Old Path | New Path |\n| --- | --- |\n| `docs/plans/a.yaml` | `docs/dev/a/plan.yaml` |\n";
        let why = said("docs/plans/README.md", table, "docs/plans/a.yaml");
        assert!(why.is_some_and(|w| w.contains("`Old Path`")));
        // The new column, and a table whose column says nothing of the kind.
        assert_eq!(
            said("docs/plans/README.md", table, "docs/dev/a/plan.yaml"),
            None
        );
        let files = "| File | Role |\n|---|---|\n| `src/a.py` | entry |\n";
        assert_eq!(said("docs/guide.md", files, "src/a.py"), None);
        // A row that is no table's: no header above a delimiter.
        let loose = "| `src/a.py` | old |\n";
        assert_eq!(said("docs/guide.md", loose, "src/a.py"), None);
    }

    /// What the exemption says of the link `target` in `text`.
    fn linked(text: &str, target: &str) -> Option<String> {
        fires_for(
            fires,
            &[("docs/notes.md", text)],
            "docs/notes.md",
            text,
            target,
            target,
            false,
            true,
        )
    }

    #[test]
    fn a_cite_its_line_marks_as_not_made_yet_is_announced() {
        let text = "- [Mem0](./mem0.md) - Personalised memory layer (when created)\n- [Guide](./guide.md) (to be created)\n- [Graph](./graph.md) - graphs, created when needed\n";
        for target in ["./mem0.md", "./guide.md"] {
            assert!(linked(text, target).is_some(), "{target}");
        }
        assert_eq!(linked(text, "./graph.md"), None);
    }

    #[test]
    fn a_link_is_not_meant_gone_by_a_sentence_that_says_it_moved() {
        // Still a link to follow: a sentence that says it moved from there.
        let moved = "The guide moved from [the old page](../old/guide.md) last year.\n";
        assert_eq!(linked(moved, "../old/guide.md"), None);
    }

    #[test]
    fn stays_quiet_for_an_entry_that_adds_it_or_a_page_that_is_no_changelog() {
        let text = "## 1.2.0\n\n- Added `lib/new.py`.\n";
        let why = said("CHANGELOG.md", text, "lib/new.py");
        assert_eq!(why, None);
        // The new name of a rename, "to" wrapped onto the line before it.
        let text = "1.2.0\n=====\n\nRenamed ``bench/bnech.py`` to\n``bench/bench.py`` to match the docs.\n";
        let why = said("CHANGES.rst", text, "bench/bench.py");
        assert_eq!(why, None);
        // "is now" names a new state only before a new name.
        let guide = "The `pyproject.toml` file is now required.\n";
        let why = said("docs/guide.md", guide, "pyproject.toml");
        assert_eq!(why, None);
        // A move's new place, a path that only sits beside a struck-through
        // one, and a path a page says it was moved *to*.
        for (guide, path) in [
            (
                "The vocabulary moved from `pkg/old/` to `pkg/new/`.\n",
                "pkg/new/",
            ),
            // A word of the path's own name says nothing of it.
            ("The helper was `src/gone.py`.\n", "src/gone.py"),
            (
                "There was a race in `src/queue.py` until 2.0.\n",
                "src/queue.py",
            ),
            ("- ~~`pkg/a.py`~~ replaced by `pkg/b.py`\n", "pkg/b.py"),
            (
                "Settings were moved into `conf/app.toml`.\n",
                "conf/app.toml",
            ),
        ] {
            let why = said("docs/guide.md", guide, path);
            assert_eq!(why, None, "{guide}");
        }
        // Outside a changelog, only a sentence that says it of the path.
        // "There is no" before other words is about those words.
        let guide = "There is no need to edit `config/app.yml` by hand.\n";
        let why = said("docs/guide.md", guide, "config/app.yml");
        assert_eq!(why, None);
        // A change list's entry of a file created beside a deleted one, and
        // a dash that goes on to other words.
        for (guide, path) in [
            (
                "## Changes\n\n- `docker/run.sh`: Deleted.\n- `deploy/go.sh`: Created.\n",
                "deploy/go.sh",
            ),
            (
                "- `lib/new.py` - replaces the removed loader\n",
                "lib/new.py",
            ),
        ] {
            let why = said("docs/adr/0005.md", guide, path);
            assert_eq!(why, None, "{guide}");
        }
        let guide = "Run `lib/clean.py`, which removed stale files.\n";
        let why = said("docs/guide.md", guide, "lib/clean.py");
        assert_eq!(why, None);
    }

    #[test]
    fn fires_for_a_path_any_records_sentence_says_is_gone() {
        for (text, path) in [
            (
                "| `opal/corelib/runtime.js` path gone | **hard** | Point tooling at `opal/runtime/` |\n",
                "opal/corelib/runtime.js",
            ),
            (
                "## Decision\n\nDelete the `resources/charts` folder.\n",
                "resources/charts",
            ),
            (
                "There is no longer an sbt build or a `project/Deps.scala` file.\n",
                "project/Deps.scala",
            ),
            (
                "There is no `CHANGELOG.md` and no `.changelog/` directory, and neither should come back.\n",
                ".changelog/",
            ),
            ("There is no `setup.py` any more.\n", "setup.py"),
            (
                "In the not distant past, there was also a `../documentation` folder.\n",
                "../documentation",
            ),
            (
                "The next client, intended to replace `../src/client`.\n",
                "../src/client",
            ),
            (
                "The old `tools/gen.sh` was removed in 2.0.\n",
                "tools/gen.sh",
            ),
            (
                "* The legacy views inside :mod:`app.views.legacy` will be removed.\n",
                "app.views.legacy",
            ),
            (
                "- The `examples/api/` directory is now `examples/api_project/`.\n",
                "examples/api/",
            ),
            (
                "The vocabulary (moved from `pkg/as_vocab/`) lives in `pkg/wire/`.\n",
                "pkg/as_vocab/",
            ),
            (
                "We extracted the handler layer out of `src/mcp/tools/` to `src/tools/`.\n",
                "src/mcp/tools/",
            ),
            (
                "> The new adapters replace the AWS-era `internal/dynamo` per ADR-023.\n",
                "internal/dynamo",
            ),
            (
                "It was relocated there from `pkg/demo/bot.py` (issue #1375).\n",
                "pkg/demo/bot.py",
            ),
            (
                "`plan/NOTES.md` and `plan/PRIORITIES.md` were retired in June.\n",
                "plan/PRIORITIES.md",
            ),
            (
                "- ~~`pkg/demo/three_actor.py`~~ (deleted in #1720)\n",
                "pkg/demo/three_actor.py",
            ),
            // A change list that says each file's fate after it.
            (
                "## Changes\n\n- `docker/run.sh`: Deleted.\n- `deploy/go.sh`: Created.\n",
                "docker/run.sh",
            ),
            ("- `lib/old.py` (removed)\n", "lib/old.py"),
        ] {
            let why = said("docs/adr/0005.md", text, path);
            assert!(why.is_some_and(|w| w.contains("says it is gone")), "{text}");
        }
    }
}
