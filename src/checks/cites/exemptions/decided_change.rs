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
    doc: "A path in backticks (not a link) in a decision record (a file under `adr/`, `decisions/`, `architecture-decisions/`, named `adr-…`, or numbered under `arch/`, `architecture/`, `rfcs/`, `design/` or `proposals/`), in a sentence or under a Markdown heading that decides to change it (deprecate, remove, convert, replace, migrate, retire, switch, drop, delete, sunset), or that gives the record's account of the tree it was written against (\"currently\", \"at present\" in its sentence; a `Context`, `Background`, `Motivation` or `Problem statement` section: the state the decision changes), or that another decision record of the repository names so (the path, or a folder by its last name, `multiplex/` for `message/multiplex`, in such a sentence, under such a heading, or under a list item that introduces it, \"Remove everything else:\"), that held when its line was written and went since: the decision, carried out, removed it.",
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
            && folders.first().is_some_and(|f| {
                matches!(
                    *f,
                    "arch" | "architecture" | "rfc" | "rfcs" | "design" | "designs" | "proposals"
                )
            }))
}

/// Why a path of a decision record that went since is the decision carried
/// out, if its sentence, the list item that introduces it, or the heading it
/// sits under, decides to change it.
pub(in crate::checks::cites) fn fires(
    record: &str,
    text: &str,
    at: usize,
    written: &str,
) -> Option<String> {
    if !is_decision_record(record) {
        return None;
    }
    let found = decision_at(text, at, true)?;
    Some(format!(
        "{record} is a decision record whose text decides to change this (\"{found}\"): it held when the record cited it (at {written}), and the decision, carried out, removed it"
    ))
}

/// Why a path of a decision record that went since was removed by another
/// decision of the repository, if one decides so: another decision record
/// names it in backticks (as written, or a folder by its last name,
/// `multiplex/` for `message/multiplex`) in a sentence, under a heading, or
/// under a list item that decides to change it ("Remove everything else:" /
/// "- `broker/`, `multiplex/` subpackages"). The records tell the story the
/// history shows: one decided the package, a later one removed it.
pub(in crate::checks::cites) fn decided_elsewhere(
    record: &str,
    cited: &str,
    texts: &std::collections::BTreeMap<String, std::sync::Arc<str>>,
    written: &str,
) -> Option<String> {
    /// The most other records read for one path.
    const MAX_RECORDS: usize = 2_000;
    if !is_decision_record(record) {
        return None;
    }
    let path = cited.trim_start_matches("./").trim_end_matches('/');
    if path.is_empty() {
        return None;
    }
    let mut needles = vec![format!("`{path}`"), format!("`{path}/`")];
    if let Some((_, last)) = path.rsplit_once('/')
        && !last.contains('.')
    {
        needles.push(format!("`{last}/`"));
    }
    texts
        .iter()
        .filter(|(other, _)| other.as_str() != record && is_decision_record(other))
        .take(MAX_RECORDS)
        .find_map(|(other, text)| {
            let found = needles.iter().find_map(|needle| {
                text.match_indices(needle.as_str())
                    .find_map(|(at, _)| decision_at(text, at, false))
            })?;
            Some(format!(
                "the decision record {other} decides to change it (\"{found}\"): it held when {record} cited it (at {written}), and that decision, carried out, removed it"
            ))
        })
}

/// The word of a decision to change what sits at `at`, if the sentence
/// around it, the heading above it, or the list item that introduces its
/// own (a line above it, less indented, ending with a colon) says one; in
/// the record's `own` text, also the words that place it in the tree the
/// record was written against.
pub(in crate::checks::cites) fn decision_at(text: &str, at: usize, own: bool) -> Option<String> {
    static DECIDES: OnceLock<Regex> = OnceLock::new();
    let decides = DECIDES.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(deprecat|remov|convert|replac|migrat|retir|switch|drop|delet|sunset)[a-z]*(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    /// The most lines above a list item searched for the item that
    /// introduces it.
    const MAX_LINES_UP: usize = 20;
    // A record's account of the tree it was written against (`own`: the
    // record that cites it, not another that names it): "currently" in its
    // sentence, or its context section (the state the decision changes), is
    // of its own day.
    static OF_ITS_DAY: OnceLock<Regex> = OnceLock::new();
    let of_its_day = OF_ITS_DAY.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(currently|at present|at the moment)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static CONTEXT: OnceLock<Regex> = OnceLock::new();
    let context = CONTEXT.get_or_init(|| {
        Regex::new(r"(?i)^#+[ \t]*(?:[0-9.]+[ \t]*)?(context|background|motivation|problem statement)(?-u:\b)")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let sentence = super::sentence_around(text, at)?;
    if let Some(word) = decides
        .find(&sentence)
        .or_else(|| own.then(|| of_its_day.find(&sentence)).flatten())
    {
        return Some(word.as_str().to_owned());
    }
    if own
        && let Some(heading) = heading_above(text, at)
        && let Some(caps) = context.captures(heading)
    {
        return Some(caps[1].to_owned());
    }
    let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(line);
    let introducing = text[..start]
        .lines()
        .rev()
        .take(MAX_LINES_UP)
        .take_while(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .find(|l| indent(l) < own && l.trim_end().trim_end_matches(['*', '_']).ends_with(':'));
    introducing
        .and_then(|l| decides.find(l))
        .or_else(|| decides.find(heading_above(text, at)?))
        .map(|word| word.as_str().to_owned())
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
            "book/src/dev/rfcs/0010-v5-transaction.md",
            "docs/design/6173-module-structure.md",
        ] {
            assert!(is_decision_record(record), "{record}");
        }
        for record in [
            "docs/guide.md",
            "docs/architecture/overview.md",
            "adr-tools/README.md",
            "docs/design/overview.md",
        ] {
            assert!(!is_decision_record(record), "{record}");
        }
    }

    #[test]
    fn fires_where_another_decision_record_removes_it() {
        let texts: std::collections::BTreeMap<String, std::sync::Arc<str>> = [
            (
                "docs/adr/0013-multiplex.md",
                "# Multiplex\n\nImplement routing in the `message/multiplex` package.\n",
            ),
            (
                "docs/adr/0022-redesign.md",
                "# Redesign\n\n## Decision\n\n2. **Remove everything else:**\n   - `Router` types\n   - `broker/`, `multiplex/` subpackages\n",
            ),
            ("docs/guide.md", "Drop `message/legacy`.\n"),
        ]
        .iter()
        .map(|(p, t)| ((*p).to_owned(), std::sync::Arc::from(*t)))
        .collect();
        let why = decided_elsewhere(
            "docs/adr/0013-multiplex.md",
            "message/multiplex",
            &texts,
            "abc1234",
        );
        assert!(why.is_some_and(|w| w.contains("0022-redesign.md")));
        // Named by no decision, or only by a page that is no decision record.
        assert_eq!(
            decided_elsewhere(
                "docs/adr/0013-multiplex.md",
                "message/codec",
                &texts,
                "abc1234"
            ),
            None
        );
        assert_eq!(
            decided_elsewhere(
                "docs/adr/0013-multiplex.md",
                "message/legacy",
                &texts,
                "abc1234"
            ),
            None
        );
        // A page that is no decision record is read as any page.
        assert_eq!(
            decided_elsewhere("docs/guide.md", "message/multiplex", &texts, "abc1234"),
            None
        );
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
        // Its account of the tree of its day.
        let currently =
            "# RFC 10\n\n`Data` is currently defined in `chain/data.rs`. We propose to move it.\n";
        let at = currently.find("chain/data.rs").unwrap_or(0);
        assert!(fires("book/rfcs/0010-v5.md", currently, at, "abc1234").is_some());
        let context = "# 5. Tests\n\n## Context & Problem Statement\n\nThe tests lived in `tests/acceptance.rs`.\n\n## Decision\n\nSplit them.\n";
        let at = context.find("tests/acceptance.rs").unwrap_or(0);
        assert!(fires("docs/decisions/0005-tests.md", context, at, "abc1234").is_some());
    }

    #[test]
    fn stays_quiet_where_it_decides_nothing_of_the_path_or_is_no_decision() {
        let keeps = "# 3. Queues\n\nThe worker reads `src/queue.rs` on start.\n";
        let at = keeps.find("src/queue.rs").unwrap_or(0);
        assert!(fires("docs/adr/0003-queues.md", keeps, at, "abc1234").is_none());
        // A decision's own section names what it keeps.
        let decided = "# 3. Queues\n\n## Context\n\nJobs pile up.\n\n## Decision\n\nThe worker reads `src/queue.rs` on start.\n";
        let at = decided.find("src/queue.rs").unwrap_or(0);
        assert!(fires("docs/adr/0003-queues.md", decided, at, "abc1234").is_none());
        let guide = "# Guide\n\nConvert the `config/` folder first.\n";
        let at = guide.find("config/").unwrap_or(0);
        assert!(fires("docs/guide.md", guide, at, "abc1234").is_none());
    }
}
