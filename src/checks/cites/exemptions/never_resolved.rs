//! Exemption `never-resolved`, asked by the path evidence
//! (`evidence/paths.rs`) when a stale backticked path did not resolve at the
//! commit that wrote it either: a file a design proposes, a run's output, or
//! not this repository's. It is the history's own verdict, so the history
//! does not overrule it; a link (written on purpose) stays stale.

use super::{Applies, Definition};
use crate::checks::cites::model::CiteClass;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that did not resolve when the record wrote it — not as written, not under a test root, not as the end of a longer path of that commit's tree — nor at any commit sampled since: a file a design proposes, a run's output, or not this repository's from the start, not a drift. A name one or two edits from a file or folder beside it then is that one mistyped, and stays reported with it as the suggestion (names that differ only in digits are a numbered series, not a typo, unless the same description of two words follows another leading number: `25_add_users.up.sql` for `26_add_users.up.sql` is one item numbered twice). A line cite (not a link) that did not resolve when written and is read today only as a file it could not have named then (the end of a longer path the tree took on since, or the one namesake left when another went: a syntax's example, `src/app.js:1-11`, read as `e2e/…/src/app.js`) is set aside likewise: nothing says the record meant that file. A line cite (not a link) of a file no commit had, under no folder the tree had when it was written (a debugger's `src/libcore/num/bignum.rs:254` quoted in a book), is another project's source, set aside likewise; under a folder of the tree it is this repository's, and stays reported. A link that never resolved is stale either way: it never worked. `[cites.exemptions] never-resolved = false` reports such paths too (a mistyped name is then found).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a path that never resolved is set aside, if it is: the prose named
/// it (a backticked path, or a `path:line` cite that is no link), not a
/// link or a test id.
pub(in crate::checks::cites) fn fires(in_prose: bool, when: &str) -> Option<String> {
    in_prose.then(|| {
        format!(
            "it did not resolve when the record cited it either (at {when}): not made yet, or not this repository's"
        )
    })
}

/// Why a line cite (not a link) that did not resolve when written is set
/// aside: the file it is read as today (`today`) is none of the paths it
/// could be read as then (`then`): the end of a longer path the tree took on
/// since, or one a namesake's removal left alone (a syntax's example,
/// `src/app.js:1-11`, read today as `e2e/…/src/app.js`). Nothing says the
/// record meant that file: its lines are not this repository's to hold.
pub(in crate::checks::cites) fn line_cite_read_only_today(
    class: CiteClass,
    is_link: bool,
    today: Option<&str>,
    then: &[String],
    when: &str,
) -> Option<String> {
    let today = today?;
    (class == CiteClass::Line && !is_link && !then.iter().any(|p| p == today)).then(|| {
        format!(
            "its path named no file of the tree when the record cited it (at {when}); it is read as `{today}` only today: not this repository's file"
        )
    })
}

/// Why a line cite (not a link) whose file no commit had is set aside: no
/// folder it could be read in was one of the tree's when it was written
/// (`folder_then`), so it names another project's source (a debugger's
/// `src/libcore/num/bignum.rs:254`), as a backticked path under no folder of
/// the tree does. One under a folder of the tree is this repository's, and
/// stays reported.
pub(in crate::checks::cites) fn line_cite_outside_the_tree(
    class: CiteClass,
    is_link: bool,
    folder_then: bool,
    when: &str,
) -> Option<String> {
    (class == CiteClass::Line && !is_link && !folder_then).then(|| {
        format!(
            "it did not resolve when the record cited it either (at {when}), under no folder the tree had: not this repository's file"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_backticked_path() {
        assert!(fires(true, "abc1234").is_some());
    }

    #[test]
    fn a_line_cite_read_as_a_file_it_could_not_name_then_is_set_aside() {
        let then = ["src/app.js".to_owned()];
        let late = Some("e2e/mono/src/app.js");
        assert!(line_cite_read_only_today(CiteClass::Line, false, late, &then, "abc").is_some());
        // As written then: the record's own file, whose lines it got wrong.
        let same = Some("src/app.js");
        assert_eq!(
            line_cite_read_only_today(CiteClass::Line, false, same, &then, "abc"),
            None
        );
        // A link never worked, whatever it is read as.
        assert_eq!(
            line_cite_read_only_today(CiteClass::Line, true, late, &then, "abc"),
            None
        );
        assert_eq!(
            line_cite_read_only_today(CiteClass::Path, false, late, &then, "abc"),
            None
        );
    }

    #[test]
    fn a_line_cite_under_no_folder_of_the_tree_is_another_projects() {
        assert!(line_cite_outside_the_tree(CiteClass::Line, false, false, "abc").is_some());
        assert_eq!(
            line_cite_outside_the_tree(CiteClass::Line, false, true, "abc"),
            None
        );
        assert_eq!(
            line_cite_outside_the_tree(CiteClass::Line, true, false, "abc"),
            None
        );
    }

    #[test]
    fn stays_quiet_for_an_explicit_cite() {
        assert_eq!(fires(false, "abc1234"), None);
    }
}
