//! Exemption `site-route`, in the link chain: an extensionless link that
//! names no file or page. A reading of the link's shape: the history
//! overrules it (and a path the history once had is stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "An extensionless link that names no file or page (`../rpc`, `/docs/install`): a site's route, served from generated pages. Stale when the history behind the snapshot once had it. Never on a README no site builds (the forge's page, where `../LICENSE-APACHE` names a file).",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    // A README that no site builds is the forge's page (a folder's, a
    // package registry's): there an extensionless link names a file
    // (`../LICENSE-APACHE`), never a route.
    let record = probe.context.record;
    let page = record.rsplit('/').next().unwrap_or(record);
    let readme = page
        .split('.')
        .next()
        .is_some_and(|stem| stem.eq_ignore_ascii_case("readme"));
    if readme
        && probe.context.renderers().forge_only(record)
        && crate::checks::cites::labels::sphinx_folder(
            record,
            probe.context.frame.snapshot.as_ref(),
        )
        .is_none()
    {
        return None;
    }
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
    fn stays_quiet_in_a_readme_no_site_builds() {
        let why = fires_for(
            fires,
            &[("crate/README.md", ""), ("crate/src/lib.rs", "")],
            "crate/README.md",
            "[LICENSE-APACHE](../LICENSE-APACHE)",
            "../LICENSE-APACHE",
            "LICENSE-APACHE",
            false,
            true,
        );
        assert_eq!(why, None);
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
