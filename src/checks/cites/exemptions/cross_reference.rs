//! Exemption `cross-reference`, in the link chain: a link whose "extension"
//! no file of the tree ends in. A reading of the name: the history overrules
//! it (and a file the history once had is stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A link whose extension no file of the tree ends in (`[attrs.frozen()](attrs.frozen)`), other than a web page's (`.html`): a documentation tool's cross-reference to a name in code as often as a file. Stale when the history behind the snapshot once had the file.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
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
