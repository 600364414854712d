//! Exemption `copied-record`, decided where records are chosen (`gather.rs`
//! and the transcripts ask it): a page whose front matter names the
//! repository it was copied from cites that repository's tree. The record's
//! own statement: the history does not overrule it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record whose front matter names the repository it was copied from (`source:`, `upstream:`): its citations are of that tree. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The repository a page says it was copied from: a front matter key
/// (`repository`, `repo`, `source`, `upstream`) whose value is a git host's
/// address — a theme gallery's page is its theme's README, and its relative
/// links are of that repository's tree.
pub(crate) fn copied_from(text: &str) -> Option<String> {
    let fence = ["+++", "---"].into_iter().find(|f| {
        text.strip_prefix('\n')
            .unwrap_or(text)
            .trim_start_matches('\u{feff}')
            .starts_with(&format!("{f}\n"))
    })?;
    let body = text
        .trim_start_matches(['\n', '\u{feff}'])
        .get(fence.len() + 1..)?;
    let front = &body[..body.find(&format!("\n{fence}")).unwrap_or(0)];
    front.lines().find_map(|line| {
        let (key, value) = line.split_once(['=', ':'])?;
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().trim_matches(['"', '\'']);
        (["repository", "repo", "source", "upstream"].contains(&key.as_str())
            && [
                "github.com/",
                "gitlab.com/",
                "codeberg.org/",
                "bitbucket.org/",
                "sr.ht/",
            ]
            .iter()
            .any(|host| value.contains(host)))
        .then(|| value.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_when_the_front_matter_names_a_repository_and_stays_quiet_otherwise() {
        let theme = "\n+++\ntitle = \"Anpu\"\n[extra]\nrepository = \"https://github.com/a/b.git\"\n+++\n# Anpu\n";
        assert_eq!(
            copied_from(theme).as_deref(),
            Some("https://github.com/a/b.git")
        );
        let yaml = "---\nrepo: https://gitlab.com/x/y\n---\ntext";
        assert!(copied_from(yaml).is_some());
        assert_eq!(
            copied_from("---\ntitle: Guide\n---\nrepository = https://github.com/a/b"),
            None
        );
        assert_eq!(
            copied_from("# Guide\nrepository = https://github.com/a/b\n"),
            None
        );
        assert_eq!(copied_from("---\nsource: docs/guide.md\n---\n"), None);
    }
}
