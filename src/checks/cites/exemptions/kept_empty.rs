//! Exemption `kept-empty`, in the path chain: the path's folder holds only a
//! `.gitkeep` (or `.keep`), so whatever is named inside it is made at run
//! time. A reading of the tree's shape: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, inside a folder the tree keeps empty with a marker file (`.gitkeep`, `.keep`): its files are made at run time.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    let folder = kept_empty(probe.path, probe.context.frame.snapshot.paths())?;
    Some(format!(
        "`{folder}/` is kept empty in the tree (a `.gitkeep`): its files are made at run time"
    ))
}

/// The folder of a path, when the tree keeps it empty with a marker file
/// (`.gitkeep`, `.keep`): whatever a record names inside it is made at run time.
fn kept_empty<'p>(path: &'p str, paths: &[String]) -> Option<&'p str> {
    let (folder, _) = path.rsplit_once('/')?;
    let prefix = format!("{folder}/");
    let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
    let inside: Vec<&str> = paths[start..]
        .iter()
        .take_while(|p| p.starts_with(&prefix))
        .map(|p| &p[prefix.len()..])
        .collect();
    (!inside.is_empty()
        && inside
            .iter()
            .all(|name| [".gitkeep", ".keep", ".gitignore"].contains(name)))
    .then_some(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_in_a_kept_folder_and_stays_quiet_in_a_full_one() {
        let paths = ["logs/.gitkeep".to_owned(), "src/a.rs".to_owned()];
        assert_eq!(kept_empty("logs/run.log", &paths), Some("logs"));
        assert_eq!(kept_empty("src/b.rs", &paths), None);
    }
}
