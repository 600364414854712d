//! Exemption `outside-checkout`, asked by the path and link resolvers: a path
//! that climbs out of the repository from the record's folder names a file
//! beside a checkout, which recount never reads. The path's own shape: the
//! history does not overrule it.

use super::{Applies, Definition};
use crate::checks::cites::locate::{backticked_paths, reader_paths};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path or link that climbs out of the repository (`../shared/x.md` from the root): a path beside a checkout, which recount never reads.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// Why a backticked path is outside any checkout, if it is (`../shared` in
/// backticks from the root: a sibling workspace, a reader's folder).
pub(in crate::checks::cites) fn path(record: &str, path: &str) -> Option<String> {
    backticked_paths(record, path)
        .is_none()
        .then(|| format!("`{path}` leaves the repository: a path outside any checkout of it"))
}

/// Why a link target is outside any checkout, if it is.
pub(in crate::checks::cites) fn link(record: &str, target: &str) -> Option<String> {
    reader_paths(record, target)
        .is_none()
        .then(|| format!("`{target}` leaves the repository: a page of another root"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_path_that_climbs_out() {
        assert!(path("README.md", "../shared/x.md").is_some());
        assert!(link("docs/a.md", "../../x.md").is_some());
    }

    #[test]
    fn stays_quiet_inside_the_repository() {
        assert_eq!(path("docs/a.md", "../README.md"), None);
        assert_eq!(link("docs/a.md", "../README.md"), None);
    }
}
