//! Exemption `never-resolved`, asked by the path evidence
//! (`evidence/paths.rs`) when a stale backticked path did not resolve at the
//! commit that wrote it either: a file a design proposes, a run's output, or
//! not this repository's. It is the history's own verdict, so the history
//! does not overrule it; a link (written on purpose) stays stale.

use super::{Applies, Definition};
use crate::checks::cites::model::{CiteClass, Tier};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that did not resolve when the record wrote it — not as written, not under a test root, not as the end of a longer path of that commit's tree — nor at any commit sampled since: a file a design proposes, a run's output, or not this repository's from the start, not a drift. A name one or two edits from a file or folder beside it then is that one mistyped, and stays reported with it as the suggestion (names that differ only in digits are a numbered series, not a typo, unless the same description of two words follows another leading number: `25_add_users.up.sql` for `26_add_users.up.sql` is one item numbered twice). A line cite (not a link) that did not resolve when written and is read today only as a file it could not have named then (the end of a longer path the tree took on since, or the one namesake left when another went: a syntax's example, `src/app.js:1-11`, read as `e2e/…/src/app.js`) is set aside likewise: nothing says the record meant that file. A link that never resolved is stale either way: it never worked. `[cites.exemptions] never-resolved = false` reports such paths too (a mistyped name is then found).",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a path that never resolved is set aside, if it is: it was read from a
/// backticked path (`Tier::Inferred`), not written as a link or a test id.
pub(in crate::checks::cites) fn fires(tier: Tier, when: &str) -> Option<String> {
    (tier == Tier::Inferred).then(|| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_backticked_path() {
        assert!(fires(Tier::Inferred, "abc1234").is_some());
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
    fn stays_quiet_for_an_explicit_cite() {
        assert_eq!(fires(Tier::Explicit, "abc1234"), None);
    }
}
