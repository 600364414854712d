//! Exemption `site-asset`, in the link chain: an asset a site's static or
//! theme folder supplies when it is built. A reading of the tree's shape: the
//! history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link to an asset (`img/favicon.ico`) that a file of a site's static, public, assets or theme folder supplies when the site is built: it works on the site, not in the tree.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

/// The folders a site copies into its output as they are.
const SERVED: [&str; 6] = ["static", "public", "assets", "_static", "theme", "themes"];

fn fires(probe: &Probe<'_>) -> Option<String> {
    let target = probe.cited;
    let tail = target.trim_start_matches("./").trim_start_matches("../");
    if tail.ends_with(".md") {
        return None;
    }
    let ending = format!("/{tail}");
    let asset =
        probe.context.frame.snapshot.paths().iter().find(|p| {
            p.ends_with(&ending) && p.split('/').any(|segment| SERVED.contains(&segment))
        })?;
    Some(format!(
        "`{target}` is served from `{asset}` when the site is built"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_an_asset_the_site_serves_from_a_static_folder() {
        let files = [("docs/a.md", ""), ("docs/public/logo.png", "")];
        let why = fires_for(
            fires,
            &files,
            "docs/a.md",
            "![logo](logo.png)",
            "logo.png",
            "docs/logo.png",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_for_a_file_no_served_folder_holds() {
        let files = [("docs/a.md", ""), ("docs/img/logo.png", "")];
        let why = fires_for(
            fires,
            &files,
            "docs/a.md",
            "![logo](/logo.png)",
            "/logo.png",
            "logo.png",
            false,
            true,
        );
        assert_eq!(why, None);
    }
}
