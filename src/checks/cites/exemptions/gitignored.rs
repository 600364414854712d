//! Exemption `gitignored`, in both chains (and for line cites): a
//! `.gitignore` on the path's way ignores it, so a build or a run makes it.
//! The tree's own statement, not a reading of prose, and one a checkout that
//! has been built makes true: the history does not overrule it.

use super::{Applies, Definition, Probe};
use crate::checks::cites::context::Context;

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path or link that names nothing here and that a `.gitignore` of the tree ignores (the root's or one on its way, the deepest that speaks deciding, as git reads them; a package's path, `oscar/static`, at its place under a source folder, `src/oscar/static`, too): a build's or a run's output, never committed. It holds in a built checkout, so the history does not overrule it.",
    applies: Applies::PathOrLink,
    history_overrules: false,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    probe.context.ignored(probe.path, probe.is_dir).or_else(|| {
        // A package's path (`oscar/static`) where the package lives under a
        // source folder (`src/oscar/`): the path at its place there.
        let (first, _) = probe.path.split_once('/')?;
        let paths = probe.context.frame.snapshot.paths();
        SOURCE_FOLDERS
            .iter()
            .filter(|base| crate::snapshot::has_folder(paths, &format!("{base}/{first}")))
            .find_map(|base| {
                let at = format!("{base}/{}", probe.path);
                // A name with no extension may be the folder a pattern
                // ignores (`/src/oscar/static/`).
                let folder_like = !probe.path.rsplit('/').next()?.contains('.');
                probe.context.ignored(&at, probe.is_dir).or_else(|| {
                    folder_like
                        .then(|| probe.context.ignored(&at, true))
                        .flatten()
                })
            })
    })
}

/// The folders a project keeps its packages in, besides the root.
const SOURCE_FOLDERS: [&str; 2] = ["src", "lib"];

/// Why a line cite's missing file is a build's or a run's output, if it is:
/// a `.gitignore` ignores it beside the record or from the root.
pub(in crate::checks::cites) fn line_file(context: &Context<'_>, path: &str) -> Option<String> {
    let beside = context
        .record
        .rsplit_once('/')
        .map(|(folder, _)| format!("{folder}/{path}"));
    beside
        .iter()
        .map(String::as_str)
        .chain([path])
        .find_map(|p| context.ignored(p, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::context::Reads;
    use crate::checks::cites::model::ExemptionSettings;
    use crate::checks::cites::testing;

    #[test]
    fn fires_for_a_path_a_gitignore_on_its_way_ignores() {
        let frame = testing::frame(&[(".gitignore", "/build/\n"), ("docs/.gitignore", "*.log\n")]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let context =
            testing::context(&frame, &reads, &on, "docs/guide.md", "See `build/out.txt`.");
        assert!(line_file(&context, "build/out.txt").is_some());
        assert!(line_file(&context, "run.log").is_some());
    }

    #[test]
    fn fires_for_a_packages_path_ignored_under_its_source_folder() {
        let frame = testing::frame(&[
            (".gitignore", "/src/shop/static/\n"),
            ("src/shop/__init__.py", ""),
        ]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let context = testing::context(&frame, &reads, &on, "docs/s.rst", "``shop/static``");
        let probe = |path| Probe {
            context: &context,
            cited: path,
            path,
            is_dir: false,
            link: false,
            document: false,
        };
        assert!(fires(&probe("shop/static")).is_some());
        assert!(fires(&probe("shop/templates")).is_none());
    }

    #[test]
    fn stays_quiet_for_a_path_nothing_ignores() {
        let frame = testing::frame(&[(".gitignore", "/build/\n!/build/keep.txt\n")]);
        let (reads, on) = (Reads::default(), ExemptionSettings::default());
        let context = testing::context(&frame, &reads, &on, "README.md", "See `src/a.rs`.");
        assert_eq!(line_file(&context, "src/a.rs"), None);
        assert_eq!(line_file(&context, "build/keep.txt"), None);
    }
}
