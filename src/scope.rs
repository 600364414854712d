//! Audit stage 0, the run's scope: which records a run judges. Every record
//! is still read (what one record learns of the others: includes, copies,
//! labels); only those in scope have their citations and transcripts judged
//! and their findings reported.

use std::collections::BTreeSet;

/// The records a run judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordScope {
    /// Exactly these records (`check --since` asks its base about the
    /// records its findings are in, and no more).
    Only(BTreeSet<String>),
    /// The records at or under these repository paths (`recount check docs/
    /// README.md`): a file names itself, a folder everything below it.
    Under(Vec<String>),
}

impl RecordScope {
    /// Whether the file at `path` (a repository path) is in scope.
    pub fn contains(&self, path: &str) -> bool {
        match self {
            RecordScope::Only(paths) => paths.contains(path),
            RecordScope::Under(roots) => roots.iter().any(|root| is_at_or_under(path, root)),
        }
    }
}

/// `docs/a.md` is under `docs`, and at `docs/a.md`; `docs2/a.md` is under
/// neither `docs` nor `doc`.
fn is_at_or_under(path: &str, root: &str) -> bool {
    path.strip_prefix(root)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A path the command line named, as a repository path: `./docs/` and
/// `docs` are `docs`; `.` and the empty path are the whole repository
/// (`None`). A path that climbs out of the repository (`../x`) is `Err`.
pub fn repository_path(relative: &std::path::Path) -> Result<Option<String>, String> {
    let mut parts: Vec<String> = Vec::new();
    for component in relative.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::Normal(part) => {
                parts.push(part.to_str().ok_or("is not UTF-8")?.to_owned());
            }
            std::path::Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err("is outside the repository".to_owned());
                }
            }
            std::path::Component::RootDir | std::path::Component::Prefix(_) => {
                return Err("is outside the repository".to_owned());
            }
        }
    }
    Ok((!parts.is_empty()).then(|| parts.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_folder_holds_what_is_below_it_and_not_its_namesakes() {
        let scope = RecordScope::Under(vec!["docs".to_owned(), "README.md".to_owned()]);
        assert!(scope.contains("docs/guide/a.md"));
        assert!(scope.contains("README.md"));
        assert!(!scope.contains("docs2/a.md"));
        assert!(!scope.contains("README.md.bak"));
        assert!(!scope.contains("src/README.md"));
    }

    #[test]
    fn only_names_exact_records() {
        let scope = RecordScope::Only(BTreeSet::from(["docs/a.md".to_owned()]));
        assert!(scope.contains("docs/a.md"));
        assert!(!scope.contains("docs/a.md/x"));
        assert!(!scope.contains("docs"));
    }

    #[test]
    fn command_line_paths_become_repository_paths() {
        assert_eq!(
            repository_path(Path::new("./docs/")),
            Ok(Some("docs".to_owned()))
        );
        assert_eq!(
            repository_path(Path::new("docs/../README.md")),
            Ok(Some("README.md".to_owned()))
        );
        assert_eq!(repository_path(Path::new(".")), Ok(None));
        assert!(repository_path(Path::new("../other")).is_err());
        assert!(repository_path(Path::new("/etc")).is_err());
    }
}
