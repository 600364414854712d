//! Exemption `not-a-path`, in the path chain: a slash-separated name with no
//! file extension, a version, or an identifier after a package path. A
//! reading of the name: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked name with a slash but no file extension (`read/write`, `x/paramfilter`), ending in a version (`api/v1.9.0`) or in an identifier after a package path (`grpc.AppClient`): a name, not a path.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if probe.is_dir {
        return None;
    }
    let path = probe.path;
    let (_, last) = path.rsplit_once('/')?;
    if has_extension(last) {
        return None;
    }
    Some(
        match last.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) {
            Some((_, member)) if member.bytes().all(|b| b.is_ascii_digit()) => format!(
                "`{path}` ends in a version, not a file extension (a tag or a module's version?)"
            ),
            Some((_, member)) => format!(
                "`.{member}` is no file extension: `{path}` names something in code after its package path"
            ),
            None => format!(
                "`{path}` has no file extension and names nothing here (a name, not a path?)"
            ),
        },
    )
}

/// Whether a file name has a file type's extension: one to ten letters or
/// digits, not all digits (`v1.9.0`), in one case (`grpc.AppClient` is an
/// identifier after a package path).
pub(in crate::checks::cites) fn has_extension(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=10).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && ext.chars().any(|c| c.is_ascii_alphabetic())
            && (ext.chars().all(|c| !c.is_ascii_uppercase())
                || ext.chars().all(|c| !c.is_ascii_lowercase()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_for_a_version_or_a_name_and_stays_quiet_for_a_file_type() {
        assert!(has_extension("lib.rs"));
        assert!(has_extension("README.MD"));
        assert!(!has_extension("v1.9.0"));
        assert!(!has_extension("grpc.AppClient"));
        assert!(!has_extension("paramfilter"));
    }
}
