//! Exemption `site-route`, in the link chain: an extensionless link that
//! names no file or page. A reading of the link's shape: the history
//! overrules it (and a path the history once had is stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "An extensionless link that names no file or page (`../rpc`, `/docs/install`): a site's route, served from generated pages. Stale when the history behind the snapshot once had it.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let name = probe.path.rsplit('/').next().unwrap_or(probe.path);
    (!name.contains('.')).then(|| {
        format!(
            "`{}` names no file or page here and none in its history: a site's route?",
            probe.path
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_an_extensionless_link() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](/getting-started)",
            "/getting-started",
            "getting-started",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_for_a_link_to_a_file() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](guide.md)",
            "guide.md",
            "docs/guide.md",
            false,
            true,
        );
        assert_eq!(why, None);
    }
}
