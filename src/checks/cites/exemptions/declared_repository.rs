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
    doc: "A path that names nothing here, on a page whose opening (its first 30 lines) declares as a field the repository its subject lives in (`**Repository**: <https://github.com/owner/name>`, `Source repository: …`, `Upstream: …`), when that is another repository than this one (the repository's own address known: the rule file, the `origin` remote, the project's metadata, or most of its records' links): a page describing another tree, whose paths are that tree's. The page says so itself, so the history does not overrule it; a sentence naming another repository is `other-repository`.",
    applies: Applies::Path,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

/// The lines of a page's opening where a declaration is read.
const OPENING_LINES: usize = 30;

fn fires(probe: &Probe<'_>) -> Option<String> {
    let own = probe.context.reads.own_project.as_deref()?;
    let declared = declared_repository(probe.context.text)?;
    (declared != own).then(|| {
        format!(
            "the page's opening declares the repository it describes, `{declared}`, not this one: a path of that tree"
        )
    })
}

/// The forge project (`owner/name`, lowercased) a page's opening declares
/// as a field, if it does.
fn declared_repository(text: &str) -> Option<String> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let field = FIELD.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:source\s+|upstream\s+)?(?:repository|repo|upstream)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*<?(https?://[^\s<>()\[\]]+)",
        )
        .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    text.lines().take(OPENING_LINES).find_map(|line| {
        let url = field.captures(line)?.get(1)?.as_str();
        let url = url.trim_end_matches(['>', '.', ',', ';']);
        parse_address(url).map(|(_, project)| project.to_lowercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_a_repository_field_in_the_opening() {
        let page = "# ecd source\n\n**Repository**: <https://github.com/Unisay/plinth-cape-submissions>\n\n**Path**: `lib/Ecd.hs`\n";
        assert_eq!(
            declared_repository(page).as_deref(),
            Some("unisay/plinth-cape-submissions")
        );
        assert_eq!(
            declared_repository("- Source repository: https://gitlab.com/group/tool.git\n")
                .as_deref(),
            Some("group/tool")
        );
    }

    #[test]
    fn stays_quiet_on_prose_and_late_fields() {
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
