//! Exemption `cross-reference`, in the link chain: a link whose "extension"
//! no file of the tree ends in. A reading of the name: the history overrules
//! it (and a file the history once had is stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link whose extension no file of the tree ends in (`[attrs.frozen()](attrs.frozen)`), other than a web page's (`.html`): a documentation tool's cross-reference to a name in code as often as a file. Stale when the history behind the snapshot once had the file. A web address written without its scheme (`sentry.io`, `docs.x.org/guide/`) is no name: every renderer reads it as a path, so it is reported, with the address as a guess.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    if web_address(probe.cited, probe.context.frame.snapshot.paths()).is_some() {
        return None;
    }
    let name = probe.path.rsplit('/').next().unwrap_or(probe.path);
    let (_, extension) = name.rsplit_once('.')?;
    // A web page's extension names a page, never a name in code: whether a
    // site builds it is `built-page`'s question.
    if matches!(extension, "html" | "htm") {
        return None;
    }
    let any_has_it = probe.context.frame.snapshot.paths().iter().any(|p| {
        p.rsplit('/')
            .next()
            .and_then(|n| n.rsplit_once('.'))
            .is_some_and(|(_, e)| e == extension)
    });
    (!any_has_it).then(|| {
        format!(
            "no file of this tree ends in `.{extension}`, and its history never had `{}`: a cross-reference to a name?",
            probe.path
        )
    })
}

/// The address a link means when it is a web address written without its
/// scheme (`sentry.io`, `docs.x.org/guide/`, `www.x.com`): no renderer adds
/// one — the forge, Sphinx, MkDocs, Docusaurus and Hugo all read it as a path
/// from the page's folder, so it lands on nothing. A bare `name.tld` of two
/// labels is a name in code when the tree has a file or folder of that name
/// (`pandas.io`, a MyST cross-reference); a web address otherwise.
pub(in crate::checks::cites) fn web_address(written: &str, tree: &[String]) -> Option<String> {
    static HOST: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let host = HOST.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|org|net|io|dev|edu|gov|info|eu|uk|de|fr|jp|cn|ru|ca|au|nl|xyz|cloud|tech|site|page))(?::[0-9]+)?([/?#].*)?$",
        )
        .expect("the host pattern is valid")
    });
    let found = host.captures(written)?;
    let name = &found[1];
    let labels = name.split('.').count();
    let bare =
        labels == 2 && found.get(2).is_none() && !name.to_ascii_lowercase().starts_with("www.");
    if bare {
        let first = &name[..name.find('.').unwrap_or(name.len())];
        let named_here = tree.iter().any(|path| {
            path.split('/').any(|part| {
                part == first || part.strip_suffix(".py").is_some_and(|stem| stem == first)
            })
        });
        if named_here {
            return None;
        }
    }
    Some(format!("https://{written}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_an_extension_no_file_of_the_tree_has() {
        let why = fires_for(
            fires,
            &[("src/a.rs", "")],
            "README.md",
            "See `pkg/Widget.render`.",
            "pkg/Widget.render",
            "pkg/Widget.render",
            false,
            false,
        );
        assert!(why.is_some());
    }

    #[test]
    fn a_web_address_without_its_scheme_is_no_cross_reference() {
        let tree = ["pandas/io/api.py".to_owned(), "README.md".to_owned()];
        assert_eq!(
            web_address("sentry.io", &tree).as_deref(),
            Some("https://sentry.io")
        );
        assert_eq!(
            web_address("docs.sentry.io/platforms/python/", &tree).as_deref(),
            Some("https://docs.sentry.io/platforms/python/")
        );
        assert!(web_address("www.example.com", &tree).is_some());
        assert!(web_address("doc.pytest.org", &tree).is_some());
        // A name in code, a file of a type, a relative path: no address.
        assert_eq!(web_address("pandas.io", &tree), None);
        assert_eq!(web_address("attrs.frozen", &tree), None);
        assert_eq!(web_address("install.sh", &tree), None);
        assert_eq!(web_address("./sentry.io", &tree), None);
        assert_eq!(web_address("../x.com/a", &tree), None);
    }

    #[test]
    fn stays_quiet_for_an_extension_the_tree_uses() {
        let why = fires_for(
            fires,
            &[("src/a.rs", "")],
            "README.md",
            "See `src/b.rs`.",
            "src/b.rs",
            "src/b.rs",
            false,
            false,
        );
        assert_eq!(why, None);
    }
}
