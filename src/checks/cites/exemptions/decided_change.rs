//! Exemption `decided-change`, decided after the history's evidence
//! (`evidence/mod.rs`): a path in a decision record's prose, in a sentence or
//! under a heading that decides to change it (to deprecate, remove, convert,
//! replace or migrate it), that held when the record was written and went
//! since. Carrying out the decision removed it: the record is right about the
//! tree it decided to change. A link is held to its target as anywhere.

use std::sync::OnceLock;

use regex::Regex;

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path in backticks (not a link) in a decision record (a file under `adr/`, `decisions/`, `architecture-decisions/`, named `adr-…`, or numbered under `arch/` or `architecture/`), in a sentence or under a Markdown heading that decides to change it (deprecate, remove, convert, replace, migrate, retire, switch, drop, delete, sunset), that held when its line was written and went since: the decision, carried out, removed it.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Whether `record` is a decision record, by where it is kept or how it is
/// named.
pub(in crate::checks::cites) fn is_decision_record(record: &str) -> bool {
    let lower = record.to_ascii_lowercase();
    let mut segments = lower.rsplit('/');
    let name = segments.next().unwrap_or(&lower);
    let folders: Vec<&str> = segments.collect();
    let numbered = name
        .split(['-', '_'])
        .next()
        .is_some_and(|n| n.len() >= 2 && n.chars().all(|c| c.is_ascii_digit()));
    (name.starts_with("adr")
        && name[3..].starts_with(['-', '_', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']))
        || folders.iter().any(|f| {
            matches!(
                *f,
                "adr"
                    | "adrs"
                    | "decisions"
                    | "decision-records"
                    | "architecture-decisions"
                    | "architecture-decision-records"
            )
        })
        || (numbered
            && folders
                .first()
                .is_some_and(|f| matches!(*f, "arch" | "architecture")))
}

/// Why a path of a decision record that went since is the decision carried
/// out, if its sentence, or the heading it sits under, decides to change it.
pub(in crate::checks::cites) fn fires(
    record: &str,
    text: &str,
    at: usize,
    written: &str,
) -> Option<String> {
    if !is_decision_record(record) {
        return None;
    }
    static DECIDES: OnceLock<Regex> = OnceLock::new();
    let decides = DECIDES.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(deprecat|remov|convert|replac|migrat|retir|switch|drop|delet|sunset)[a-z]*(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let sentence = super::sentence_around(text, at)?;
    let heading = heading_above(text, at).unwrap_or_default();
    let found = decides
        .find(&sentence)
        .or_else(|| decides.find(heading))?
        .as_str()
        .to_owned();
    Some(format!(
        "{record} is a decision record whose text decides to change this (\"{found}\"): it held when the record cited it (at {written}), and the decision, carried out, removed it"
    ))
}

/// The nearest Markdown heading above `at` (its line), if there is one.
fn heading_above(text: &str, at: usize) -> Option<&str> {
    text.get(..at)?
        .lines()
        .rev()
        .find(|line| line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_record_is_known_by_its_folder_or_name() {
        for record in [
            "docs/adr/0003-queues.md",
            "docs/architecture/adr-021-fee-tokens.md",
            "docs/contributor/arch/027-switch-helm.md",
            "doc/architecture/decisions/0001-record.md",
        ] {
            assert!(is_decision_record(record), "{record}");
        }
        for record in [
            "docs/guide.md",
            "docs/architecture/overview.md",
            "adr-tools/README.md",
        ] {
            assert!(!is_decision_record(record), "{record}");
        }
    }

    #[test]
    fn fires_where_the_record_decides_the_change() {
        let converts =
            "# 27. Switch to Helm\n\n1. Convert the existing `config/` folder into a chart.\n";
        let at = converts.find("config/").unwrap_or(0);
        assert!(fires("docs/arch/027-helm.md", converts, at, "abc1234").is_some());
        let heading = "### Deprecated `x/fees`\n\nBecause `x/fees` takes priority, tokens fail.\n";
        let at = heading.rfind("x/fees").unwrap_or(0);
        assert!(fires("docs/architecture/adr-021-fees.md", heading, at, "abc1234").is_some());
    }

    #[test]
    fn stays_quiet_where_it_decides_nothing_of_the_path_or_is_no_decision() {
        let keeps = "# 3. Queues\n\nThe worker reads `src/queue.rs` on start.\n";
        let at = keeps.find("src/queue.rs").unwrap_or(0);
        assert!(fires("docs/adr/0003-queues.md", keeps, at, "abc1234").is_none());
        let guide = "# Guide\n\nConvert the `config/` folder first.\n";
        let at = guide.find("config/").unwrap_or(0);
        assert!(fires("docs/guide.md", guide, at, "abc1234").is_none());
    }
}
