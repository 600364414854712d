//! Stage 4, the citation family's findings: the three citation checks
//! (`stale-test-cite`, `stale-line-cite`, `stale-path-cite`) each turn the
//! stale citations of their class into findings here, one way for all three.

use super::model::{CiteClass, CiteStatus, Tier};
use crate::checks::audited::Audit;
use crate::checks::{CheckId, Finding, Location, Severity};

/// Findings for the stale citations of one kind (`test`, `line`, `path`).
pub(super) fn cite_findings(audit: &Audit, kind: CiteClass, check: CheckId) -> Vec<Finding> {
    audit
        .families
        .cites
        .iter()
        .filter(|c| c.kind == kind)
        .filter_map(|c| {
            let CiteStatus::Stale {
                why,
                suggestion,
                guessed,
            } = &c.status
            else {
                return None;
            };
            let stated = match c.destination.as_deref() {
                _ if c.document => written_document(c),
                // A Sphinx page's link from the root (`/replay.py`), read
                // from the source folder: named as written.
                Some(written)
                    if written.starts_with('/')
                        && !written.starts_with("//")
                        && !c.text.starts_with('/') =>
                {
                    written.to_owned()
                }
                _ => c.text.clone(),
            };
            let suggestion = &suggestion
                .as_deref()
                .map(|s| from_the_page(&c.record, &stated, s).unwrap_or_else(|| s.to_owned()));
            let mut message = format!("`{stated}`: {why}");
            if let Some(s) = suggestion {
                message.push_str(&format!("; did you mean `{s}`?"));
            }
            // Reading a backticked word as a path is a guess; an explicit
            // citation is not.
            let severity = match c.tier {
                Tier::Explicit => check.severity(),
                Tier::Inferred => Severity::Warning.min(check.severity()),
            };
            let replacement = suggestion
                .as_deref()
                .and_then(|s| in_stated_form(c.destination.as_deref(), &stated, s));
            Some(Finding {
                reads: files_read(c),
                fixable: replacement.is_some() && !guessed,
                check,
                severity,
                location: Location::in_record(
                    audit,
                    &c.record,
                    c.located.clone().unwrap_or_else(|| c.span.clone()),
                ),
                fact: None,
                message,
                stated: Some(stated),
                observed: replacement.or_else(|| suggestion.clone()),
                recipe: None,
                rule: None,
                diff: None,
                tier: Some(c.tier),
                // `a.md#heading` whose page is there but whose heading is not.
                label: if c.anchor.is_some() {
                    Some("no such anchor")
                } else if c.document {
                    Some("no such document")
                } else {
                    None
                },
            })
        })
        .collect()
}

/// The suggestion written the way the stated text is, so that one can
/// replace the other: a link to the forge (`https://host/o/r/blob/main/src/a.py`)
/// states its path (`/src/a.py`), and its suggestion, a whole address or a
/// path of the tree, becomes that path's new form (`/src/b.py`). None when the
/// two cannot be put in one form: the suggestion stays a did-you-mean.
fn in_stated_form(destination: Option<&str>, stated: &str, suggestion: &str) -> Option<String> {
    let hosted = destination.filter(|d| d.contains("://"));
    let Some(address) = hosted.filter(|_| !stated.contains("://")) else {
        // A path from a root (`/src/a.py`: a forge link whose address is not
        // at hand, a Sphinx source path) and one from the tree are two forms.
        let same_form = stated.contains("://") == suggestion.contains("://")
            && stated.starts_with('/') == suggestion.starts_with('/');
        return same_form.then(|| suggestion.to_owned());
    };
    let prefix = address.strip_suffix(stated)?;
    if let Some(path) = suggestion.strip_prefix(prefix) {
        return path.starts_with('/').then(|| path.to_owned());
    }
    if suggestion.contains("://") {
        return None;
    }
    Some(format!("/{}", suggestion.trim_start_matches('/')))
}

/// A suggestion of the tree (`examples/wsgi/django_socketio/views.py`) for a
/// path the record states from its own folder (`django_example/views.py` in
/// `examples/wsgi/README.rst`), written from that folder as well
/// (`django_socketio/views.py`), so that it can stand where the stated path
/// does. None when the stated path is written from the root (its first
/// folder is the suggestion's), from above (`../`), or is an address.
fn from_the_page(record: &str, stated: &str, suggestion: &str) -> Option<String> {
    let (folder, _) = record.rsplit_once('/')?;
    let is_plain = |p: &str| !p.contains("://") && !p.starts_with(['/', '.', '#']);
    let written = stated.strip_prefix("./").unwrap_or(stated);
    if !is_plain(written) || !is_plain(suggestion) {
        return None;
    }
    let first = |p: &str| p.split('/').next().unwrap_or(p).to_owned();
    if first(written) == first(suggestion) {
        return None;
    }
    let rest = suggestion.strip_prefix(folder)?.strip_prefix('/')?;
    Some(if stated.starts_with("./") {
        format!("./{rest}")
    } else {
        rest.to_owned()
    })
}

/// The files a stale citation was looked for in: its line cite's, its
/// test's or its anchor's page, else each path a reader would try for it.
fn files_read(cite: &super::model::ResolvedCite) -> Vec<String> {
    let named = cite
        .lines
        .as_ref()
        .map(|l| &l.file)
        .or(cite.test.as_ref().map(|t| &t.file))
        .or(cite.anchor.as_ref().map(|a| &a.file));
    if let Some(file) = named {
        return vec![file.clone()];
    }
    let text = cite.text.trim_end_matches('/');
    let tried = match cite.tier {
        Tier::Explicit => super::locate::reader_paths(&cite.record, text),
        Tier::Inferred => super::locate::backticked_paths(&cite.record, text),
    };
    tried.unwrap_or_default()
}

/// A document reference as the record writes it: recount reads `:doc:`usage``
/// as the link `./usage.html` to the page Sphinx builds, and gives the name
/// back.
fn written_document(cite: &super::model::ResolvedCite) -> String {
    let page = cite.destination.as_deref().unwrap_or(&cite.text);
    let name = page.strip_suffix(".html").unwrap_or(page);
    name.strip_prefix("./")
        .filter(|rest| !rest.starts_with(['.', '/']))
        .unwrap_or(name)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::{from_the_page, in_stated_form};

    #[test]
    fn a_suggestion_for_a_path_stated_from_the_page_is_written_from_the_page() {
        let readme = "examples/server/wsgi/README.rst";
        assert_eq!(
            from_the_page(
                readme,
                "django_example/app/views.py",
                "examples/server/wsgi/django_socketio/app/views.py"
            )
            .as_deref(),
            Some("django_socketio/app/views.py")
        );
        assert_eq!(
            from_the_page(readme, "./old.py", "examples/server/wsgi/new.py").as_deref(),
            Some("./new.py")
        );
        // Written from the root, from above, elsewhere, or at the root.
        for (stated, suggestion) in [
            ("examples/server/old.py", "examples/server/wsgi/new.py"),
            ("../old.py", "examples/server/new.py"),
            ("old.py", "src/new.py"),
            (
                "old.py",
                "https://github.com/o/r/blob/main/examples/server/wsgi/new.py",
            ),
        ] {
            assert_eq!(from_the_page(readme, stated, suggestion), None, "{stated}");
        }
        assert_eq!(from_the_page("README.md", "old.py", "src/new.py"), None);
    }

    #[test]
    fn a_forge_links_suggestion_is_put_in_the_form_of_its_stated_path() {
        let address = "https://github.com/o/r/blob/main/src/theme/a.js";
        assert_eq!(
            in_stated_form(
                Some(address),
                "/src/theme/a.js",
                "https://github.com/o/r/blob/main/front/a.js"
            ),
            Some("/front/a.js".to_owned())
        );
        assert_eq!(
            in_stated_form(Some(address), "/src/theme/a.js", "front/a.js"),
            Some("/front/a.js".to_owned())
        );
        // Another repository's address is no form of this path.
        assert_eq!(
            in_stated_form(
                Some(address),
                "/src/theme/a.js",
                "https://gitlab.com/x/y/-/blob/main/a.js"
            ),
            None
        );
        // A relative link keeps its own suggestion.
        assert_eq!(
            in_stated_form(Some("../src/a.py"), "../src/a.py", "../src/b.py"),
            Some("../src/b.py".to_owned())
        );
        assert_eq!(in_stated_form(None, "a.md", "https://x/a.md"), None);
        assert_eq!(in_stated_form(None, "/src/a.py", "src/b.py"), None);
    }
}
