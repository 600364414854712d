//! Exemption `changelog-removal`, in the path chain: the changelog entry
//! around the path says the release removed, renamed or replaced it. The
//! entry is itself the history of the removal: the evidence does not
//! overrule it.

use super::super::context::Context;
use super::super::releases;
use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path, or a Python role's object the packages no longer define, in a changelog entry that says the release removed, renamed or replaced it (\"Removed `lib/old.py`\"), or, in any record, in a sentence that says so of it (\"Delete the `charts/` folder\", a decision carried out; \"there is no longer a `project/deps.scala`\", \"there is no `.changelog/` directory\"; \"moved from `pkg/old/`\", \"formerly `x.py`\", \"`plan/x.md` was retired\", a change list's \"`docker/run.sh`: Deleted.\"), or that strikes it through (`~~old.py~~`, shown deleted; a link only so, `~~[ADR-16](0016-x.md)~~`), or that a table lists under a column headed for what was (`| Old Path | New Path |`, a column whose first word is `old`, `previous`, `former`, `before`, `from`, `removed`, `deleted` or `legacy`): meant to be gone. Likewise a path or link its line marks as not made yet (`[Mem0](./mem0.md) - memory layer (when created)`, `(to be created)`, `(coming soon)`): announced, not drift. The text records the very change that removed it, so the history does not overrule it.",
    applies: Applies::PathOrLink,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    // A link is written to be followed: only its author striking it through
    // says it is meant to be gone ("moved from [the guide](old.md)" still
    // sends the reader there).
    if probe.link {
        return releases::struck_through(probe.context.text, probe.context.at)
            .then(|| "it is struck through, shown deleted".to_owned())
            .or_else(|| not_made_yet(probe.context));
    }
    removed_here(probe.context).or_else(|| not_made_yet(probe.context))
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
    removed_here(context)
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
    fn a_link_is_meant_gone_only_when_struck_through() {
        let link = linked;
        let struck = "- ~~[ADR-16: E2E tests](../adr/0016-e2e.md)~~ (deleted per ADR-24)\n";
        assert!(link(struck, "../adr/0016-e2e.md").is_some());
        // Still a link to follow: a sentence that says it moved from there.
        let moved = "The guide moved from [the old page](../old/guide.md) last year.\n";
        assert_eq!(link(moved, "../old/guide.md"), None);
        // A struck-through word earlier on the line closes before the link.
        let other = "- ~~draft~~ see [the guide](../guide.md)\n";
        assert_eq!(link(other, "../guide.md"), None);
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
                "The old `tools/gen.sh` was removed in 2.0.\n",
                "tools/gen.sh",
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
