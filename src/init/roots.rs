//! Drafting: the test roots the records' citations imply. A record that cites
//! `tests/unit/test_x.py::test_y` in a repository whose only such file is
//! `packages/core/tests/unit/test_x.py` writes its test paths relative to
//! `packages/core`; the draft names that folder under `[cites] test_roots`.

use std::collections::BTreeMap;

use super::Scan;
use crate::checks::cites::find::{CiteKind, CiteOptions, find_cites_in};
use crate::snapshot::has_file;

/// A folder test citations are written relative to, and how many citations
/// resolve only under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestRoot {
    pub root: String,
    pub cites: usize,
}

/// The test roots, most citations first: each a folder under which a cited
/// test or line path that the root lacks exists in exactly one place.
pub fn infer(scan: &Scan) -> Vec<TestRoot> {
    let paths = scan.snapshot.paths();
    let options = CiteOptions::default();
    // Files by name, so a cite looks at its namesakes, not the whole tree.
    let mut by_name: std::collections::HashMap<&str, Vec<&String>> =
        std::collections::HashMap::new();
    for p in paths {
        by_name
            .entry(p.rsplit('/').next().unwrap_or(p))
            .or_default()
            .push(p);
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for record in &scan.records {
        for cite in find_cites_in(&record.text, record.markdown(), &options) {
            let path = match &cite.kind {
                CiteKind::Test {
                    path,
                    elided_prefix: false,
                    ..
                }
                | CiteKind::Line {
                    path,
                    elided_prefix: false,
                    ..
                } => path,
                _ => continue,
            };
            if cite.historical || has_file(paths, path) {
                continue;
            }
            let tail = format!("/{path}");
            let name = path.rsplit('/').next().unwrap_or(path);
            let under: Vec<&&String> = by_name
                .get(name)
                .map(|v| v.iter().filter(|p| p.ends_with(&tail)).collect())
                .unwrap_or_default();
            let folder = record.path.rsplit_once('/').map_or("", |(dir, _)| dir);
            if let [only] = under.as_slice()
                && let Some(root) = only.strip_suffix(&tail)
                // A path under the record's own folder is read relative to the
                // record already; it implies no root.
                && !(folder == root || folder.starts_with(&format!("{root}/")))
            {
                *counts.entry(root.to_owned()).or_insert(0) += 1;
            }
        }
    }
    let mut roots: Vec<TestRoot> = counts
        .into_iter()
        .map(|(root, cites)| TestRoot { root, cites })
        .collect();
    roots.sort_by(|a, b| b.cites.cmp(&a.cites).then(a.root.cmp(&b.root)));
    roots
}
