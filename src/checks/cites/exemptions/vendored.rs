//! Exemption `vendored`, decided where records are chosen (`scope.rs` asks
//! it): a record of another project's code copied in — a vendoring folder,
//! or a folder under another holder's licence — cites that project's tree.
//! The tree's own shape, set aside whole: the history does not overrule it.

use super::{Applies, Definition};
use crate::checks::cites::locate::PROJECT_MANIFESTS;
pub(crate) use crate::checks::cites::locate::is_vendored;
use crate::frames::Frame;
use crate::snapshot::has_file;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A record of vendored code (`vendor/`, `third_party/`, `node_modules/`, `_vendor/`, `deps/`, `3rdparty/`, `extern/`, or a folder under another holder's licence): another project's documentation, citing its own tree. Set aside whole, counted in one note.",
    applies: Applies::Record,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Whether a record sits in a folder (below the root) that carries its own
/// licence, not the project's: content copied in from another project (an
/// agent skill, a vendored library's guide), whose links name that project's
/// files. A monorepo's package (a licence beside its manifest) and a package
/// whose licence names the root licence's copyright holder stay records, and
/// so does a documentation folder licensed apart (`docs/LICENSE`, CC BY).
pub(in crate::checks::cites) fn under_a_copied_licence(record: &str, frame: &Frame) -> bool {
    const LICENCES: [&str; 5] = ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING"];
    let tree = frame.snapshot.paths();
    let text_of = |path: &str| frame.snapshot.read_text_to_parse(path).ok().flatten();
    let mut folder = record;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        folder = parent;
        let has = |name: &str| has_file(tree, &format!("{folder}/{name}"));
        let Some(licence) = LICENCES.iter().find(|l| has(l)) else {
            continue;
        };
        if PROJECT_MANIFESTS.iter().any(|m| has(m)) {
            return false;
        }
        let holder = LICENCES
            .iter()
            .find(|l| has_file(tree, l))
            .and_then(|root| text_of(root))
            .and_then(|text| copyright_holder(&text));
        let nested = text_of(&format!("{folder}/{licence}")).unwrap_or_default();
        // A project licenses its own documentation folder apart (Creative
        // Commons, say) far more often than it copies someone else's docs.
        let name = folder
            .rsplit('/')
            .next()
            .unwrap_or(folder)
            .to_ascii_lowercase();
        if [
            "docs",
            "doc",
            "documentation",
            "website",
            "site",
            "book",
            "guide",
            "guides",
            "manual",
        ]
        .contains(&name.as_str())
        {
            return false;
        }
        return !holder.is_some_and(|holder| nested.contains(&holder));
    }
    false
}

/// Who a licence says holds the copyright: the first `Copyright` line without
/// its years and marks ("Copyright (c) 2020-2025 Acme Inc." gives "Acme Inc.").
fn copyright_holder(licence: &str) -> Option<String> {
    let line = licence
        .lines()
        .find(|l| l.trim_start().starts_with("Copyright"))?;
    let holder = line
        .trim_start()
        .trim_start_matches("Copyright")
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || c.is_whitespace() || "(cC)©,-–".contains(c)
        })
        .split("All rights reserved")
        .next()
        .unwrap_or_default()
        .trim();
    (holder.len() >= 3).then(|| holder.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_vendoring_folder_and_another_holders_licence() {
        assert!(is_vendored("vendor/github.com/x/README.md"));
        assert!(is_vendored("src/pip/_vendor/rich/README.md"));
        assert!(is_vendored("deps/c-ares/README.md"));
        assert_eq!(
            copyright_holder(
                "MIT License\n\nCopyright (c) 2020-2025 Acme Inc.  All rights reserved.\n"
            ),
            Some("Acme Inc.".to_owned())
        );
    }

    #[test]
    fn stays_quiet_for_the_projects_own_pages() {
        assert!(!is_vendored("docs/vendors.md"));
        assert!(!is_vendored("docs/deps.md"));
        assert!(!is_vendored("README.md"));
        assert_eq!(copyright_holder("MIT License\n"), None);
    }
}
