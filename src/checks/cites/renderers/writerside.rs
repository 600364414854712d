//! Writerside (JetBrains), as a `writerside.cfg` configures it: its topics
//! (`<topics dir="topics"/>`) are rendered into one flat site, and a topic's
//! link to another topic or to an image is resolved by the file's name,
//! whatever folder it writes (`[x](generating-token.png)` is
//! `images/generating-token.png`, a file under `<images dir="images"/>`).

use std::sync::OnceLock;

use regex::Regex;

use crate::snapshot::Snapshot;

/// One Writerside module: its topics folder and the files a topic's link may
/// name by their file name, repository-relative, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::checks::cites) struct Writerside {
    topics: String,
    /// Every file under the topics and images folders.
    files: Vec<String>,
}

/// Every Writerside module of the tree: each `writerside.cfg` that names its
/// topics folder.
pub(super) fn sites(snapshot: &dyn Snapshot) -> Vec<Writerside> {
    static DIR: OnceLock<Regex> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        Regex::new(r#"<(topics|images)\s[^>]*?\bdir\s*=\s*"([^"\n]{1,200})""#)
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let paths = snapshot.paths();
    let mut sites = Vec::new();
    for config in paths
        .iter()
        .filter(|p| p.as_str() == "writerside.cfg" || p.ends_with("/writerside.cfg"))
    {
        let Some(text) = snapshot.read_text_to_parse(config).ok().flatten() else {
            continue;
        };
        let folder = config.rsplit_once('/').map_or("", |(dir, _)| dir);
        let inside = |rel: &str| {
            let rel = rel.trim_start_matches("./").trim_end_matches('/');
            if rel.is_empty() || rel.split('/').any(|s| s == "..") {
                None
            } else if folder.is_empty() {
                Some(rel.to_owned())
            } else {
                Some(format!("{folder}/{rel}"))
            }
        };
        let (mut topics, mut folders) = (None, Vec::new());
        for caps in dir.captures_iter(&text) {
            let Some(path) = inside(&caps[2]) else {
                continue;
            };
            if &caps[1] == "topics" {
                topics.get_or_insert(path.clone());
            }
            folders.push(path);
        }
        let Some(topics) = topics else {
            continue;
        };
        let mut files: Vec<String> = folders
            .iter()
            .flat_map(|f| {
                let prefix = format!("{f}/");
                let start = paths.partition_point(|p| p.as_str() < prefix.as_str());
                paths[start..]
                    .iter()
                    .take_while(move |p| p.starts_with(&prefix))
                    .cloned()
            })
            .collect();
        files.sort();
        files.dedup();
        sites.push(Writerside { topics, files });
    }
    sites
}

impl Writerside {
    pub(super) fn holds(&self, page: &str) -> bool {
        page.starts_with(&self.topics) && page[self.topics.len()..].starts_with('/')
    }

    /// The module's files named as a link's last part: a topic or an image
    /// is found by its file name.
    pub(super) fn more_paths(&self, target: &str) -> Vec<String> {
        if target.contains("://") {
            return Vec::new();
        }
        let name = target.rsplit('/').next().unwrap_or(target);
        if name.is_empty() {
            return Vec::new();
        }
        self.files
            .iter()
            .filter(|p| p.rsplit('/').next() == Some(name))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::memory::MemorySnapshot;

    #[test]
    fn a_topic_or_image_is_found_by_its_file_name() {
        let tree = MemorySnapshot::new(&[
            (
                "docs/writerside.cfg",
                "<ihp version=\"2.0\">\n    <topics dir=\"topics\"/>\n    <images dir=\"images\" web-path=\"/img/x/\"/>\n</ihp>\n",
            ),
            ("docs/topics/basics.md", "![token](generating-token.png)\n"),
            ("docs/topics/flow/operators.md", "# Operators\n"),
            ("docs/images/setup/generating-token.png", "png"),
            ("README.md", "# Project\n"),
        ]);
        let sites = sites(&tree);
        assert_eq!(sites.len(), 1);
        let site = &sites[0];
        assert!(site.holds("docs/topics/basics.md"));
        assert!(!site.holds("README.md"));
        assert_eq!(
            site.more_paths("generating-token.png"),
            ["docs/images/setup/generating-token.png"]
        );
        assert_eq!(
            site.more_paths("operators.md"),
            ["docs/topics/flow/operators.md"]
        );
        assert!(site.more_paths("gone.png").is_empty());
    }
}
