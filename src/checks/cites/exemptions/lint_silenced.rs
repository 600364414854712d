//! Exemption `lint-silenced`, asked by the anchor resolver: the record
//! silences markdownlint's link-fragments rule on the cite's line, so its
//! authors know the page does not show the anchor. The record's own
//! statement: the history does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "An anchor on a line where the record silences markdownlint's link-fragments rule (MD051): its authors know the page does not show it.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why an anchor the page lacks is the authors' known exception, if it is:
/// the cite at `at` of `text` sits where markdownlint's MD051 is silenced.
pub(in crate::checks::cites) fn fires(text: &str, at: usize, fragment: &str) -> Option<String> {
    silences_markdownlint_fragments(text, at).then(|| {
        format!(
            "the record silences markdownlint's link-fragments rule (MD051) here: `#{fragment}` is an anchor its authors know the page does not show"
        )
    })
}

/// Whether the cite's line carries `markdownlint-disable-line MD051` (or
/// `link-fragments`), or the line before it `...-disable-next-line` with the
/// same rule: its authors silenced this very check, on purpose.
fn silences_markdownlint_fragments(text: &str, at: usize) -> bool {
    let start = text
        .get(..at)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |i| i + 1);
    let end = text
        .get(at..)
        .and_then(|a| a.find('\n'))
        .map_or(text.len(), |i| at + i);
    let line = text.get(start..end).unwrap_or("");
    let previous = text
        .get(..start.saturating_sub(1))
        .map(|before| before.rsplit('\n').next().unwrap_or(before))
        .unwrap_or("");
    let names_rule = |l: &str| l.contains("MD051") || l.contains("link-fragments");
    (line.contains("markdownlint-disable-line") && names_rule(line))
        || (previous.contains("markdownlint-disable-next-line") && names_rule(previous))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_the_silenced_line_and_after_a_next_line_comment() {
        let same = "See [x](a.md#gone) <!-- markdownlint-disable-line MD051 -->\n";
        assert!(fires(same, same.find("a.md").unwrap(), "gone").is_some());
        let next = "<!-- markdownlint-disable-next-line link-fragments -->\nSee [x](a.md#gone)\n";
        assert!(fires(next, next.find("a.md").unwrap(), "gone").is_some());
    }

    #[test]
    fn stays_quiet_for_another_rule_or_another_line() {
        let other = "See [x](a.md#gone) <!-- markdownlint-disable-line MD013 -->\n";
        assert_eq!(fires(other, other.find("a.md").unwrap(), "gone"), None);
        let far = "<!-- markdownlint-disable-next-line MD051 -->\nText.\nSee [x](a.md#gone)\n";
        assert_eq!(fires(far, far.find("a.md").unwrap(), "gone"), None);
    }
}
