//! Exemption `declared-repository`, in the path chain: the page's opening
//! declares, as a field, the repository its subject lives in, and it is
//! not this one (`**Repository**: <https://github.com/owner/name>`): the
//! paths it names that name nothing here are that tree's. The page's own
//! word, so the history does not overrule it: a path of that tree may have
//! existed here too, by coincidence.

use std::sync::OnceLock;

use regex::Regex;

use super::{Applies, Definition, Probe};
use crate::checks::cites::hosted::parse_address;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path that names nothing here, on a page whose opening (its first 30 lines) declares as a field the repository its subject lives in (`**Repository**: <https://github.com/owner/name>`, `Source repository: …`, `Upstream: …`) or in a sentence that says the subject lives there (\"the tests are in the `plugin <https://…>`_ repository\"), when that is another repository than this one (the repository's own address known: the rule file, the `origin` remote, the project's metadata, or most of its records' links; a sentence's repository is another one even where this one's address is unknown): a page describing another tree, whose paths are that tree's. The page says so itself, so the history does not overrule it; a sentence naming another repository is `other-repository`.",
    applies: Applies::Path,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

/// The lines of a page's opening where a declaration is read.
const OPENING_LINES: usize = 30;

fn fires(probe: &Probe<'_>) -> Option<String> {
    let (declared, by_sentence) = declared_repository(probe.context.text)?;
    // A field names the page's repository, whichever it is: it says
    // another only where this one's address is known. A sentence that puts
    // the subject in a linked repository ("are in the … repository") is
    // written of another one, whether or not this one's address is known.
    let other = match probe.context.reads.own_project.as_deref() {
        Some(own) => declared != own,
        None => by_sentence,
    };
    other.then(|| {
        format!(
            "the page's opening declares the repository it describes, `{declared}`, not this one: a path of that tree"
        )
    })
}

/// The forge project (`owner/name`, lowercased) a page's opening declares,
/// if it does, and whether by a sentence rather than a field.
fn declared_repository(text: &str) -> Option<(String, bool)> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:source\s+|upstream\s+)?(?:repository|repo|upstream)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*<?(https?://[^\s<>()\[\]]+)",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static SENTENCE: OnceLock<Regex> = OnceLock::new();
    let sentence = SENTENCE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)(?:are|is|live|lives|reside|resides)[ \t\n]+(?:now[ \t\n]+)?(?:kept[ \t\n]+|maintained[ \t\n]+|hosted[ \t\n]+)?in[ \t\n]+the[ \t\n]+(?:`[^`<>]{1,100}<(https?://[^\s<>]+)>`__?|\[[^\]]{1,100}\]\((https?://[^\s()]+)\))[ \t\n]+(?:repository|repo)(?-u:\b)",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let project = |url: &str| {
        let url = url.trim_end_matches(['>', '.', ',', ';']);
        parse_address(url).map(|(_, project)| project.to_lowercase())
    };
    let opening: Vec<&str> = text.lines().take(OPENING_LINES).collect();
    opening
        .iter()
        .find_map(|line| project(field.captures(line)?.get(1)?.as_str()))
        .map(|project| (project, false))
        .or_else(|| {
            // A sentence of the opening that says where the page's subject
            // lives ("the tests are in the `plugin <https://…>`_
            // repository"), its link wrapped over lines as prose is.
            let joined = opening.join("\n");
            let caps = sentence.captures(&joined)?;
            let url = caps.get(1).or_else(|| caps.get(2))?.as_str();
            // A forge recount does not know (`opendev.org/openstack/x`):
            // its first two segments, as a project is named there too.
            project(url)
                .or_else(|| {
                    let rest = url.split_once("://")?.1;
                    let mut segments = rest
                        .split(['/', '?', '#'])
                        .skip(1)
                        .filter(|s| !s.is_empty());
                    let (owner, name) = (segments.next()?, segments.next()?);
                    let name = name.strip_suffix(".git").unwrap_or(name);
                    Some(format!("{owner}/{name}").to_lowercase())
                })
                .map(|project| (project, true))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_a_repository_field_in_the_opening() {
        let page = "# ecd source\n\n**Repository**: <https://github.com/Unisay/plinth-cape-submissions>\n\n**Path**: `lib/Ecd.hs`\n";
        assert_eq!(
            declared_repository(page),
            Some(("unisay/plinth-cape-submissions".to_owned(), false))
        );
        assert_eq!(
            declared_repository("- Source repository: https://gitlab.com/group/tool.git\n"),
            Some(("group/tool".to_owned(), false))
        );
    }

    #[test]
    fn fires_on_an_opening_sentence_that_says_where_the_subject_lives() {
        let page = "Tempest Tests\n=============\n\nThe functional tests are in the `tempest plugin\n<https://opendev.org/openstack/share-tempest-plugin>`_ repository.\n";
        assert_eq!(
            declared_repository(page),
            Some(("openstack/share-tempest-plugin".to_owned(), true))
        );
        let page =
            "# Client\n\nThe client lives in the [client](https://github.com/o/client) repo.\n";
        assert_eq!(
            declared_repository(page),
            Some(("o/client".to_owned(), true))
        );
    }

    #[test]
    fn stays_quiet_on_prose_and_late_fields() {
        // A repository named without saying the subject lives there.
        assert_eq!(
            declared_repository("We forked the [tool](https://github.com/a/b) repository.\n"),
            None
        );
        assert_eq!(
            declared_repository("We moved from https://github.com/a/b last year.\n"),
            None
        );
        let late = format!(
            "{}Repository: https://github.com/a/b\n",
            "text\n".repeat(40)
        );
        assert_eq!(declared_repository(&late), None);
        assert_eq!(declared_repository("Repository: the one above\n"), None);
    }
}
