//! Exemption `site-route`, in the link chain: an extensionless link that
//! names no file or page. A reading of the link's shape: the history
//! overrules it (and a path the history once had is stale).

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "An extensionless link that names no file or page (`../rpc`, `/docs/install`): a site's route, served from generated pages. Stale when the history behind the snapshot once had it. On a README no site builds (the forge's page, where `../LICENSE-APACHE` names a file), only a one-word link (`[Trigger](trigger#props)`) whose word no file of the tree bears, while no other one-word link of the page names a neighbour, or on a page written for MyST (a `(target)=` or a directive fence), which reads such a word as a target's name: a route of the site the page is written for, or a label.",
    applies: Applies::Link,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: true,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    // A README that no site builds is the forge's page (a folder's, a
    // package registry's): there an extensionless link names a file
    // (`../LICENSE-APACHE`), never a route.
    let record = probe.context.record;
    let page = record.rsplit('/').next().unwrap_or(record);
    let readme = page
        .split('.')
        .next()
        .is_some_and(|stem| stem.eq_ignore_ascii_case("readme"));
    if readme
        && probe.context.renderers().forge_only(record)
        && crate::checks::cites::labels::sphinx_folder(
            record,
            probe.context.frame.snapshot.as_ref(),
        )
        .is_none()
        && (probe.cited.contains('/')
            || probe.is_dir
            || (names_a_file(probe) && !written_in_myst(probe.context.text)))
    {
        return None;
    }
    let name = probe.path.rsplit('/').next().unwrap_or(probe.path);
    (!name.contains('.')).then(|| {
        format!(
            "`{}` names no file or page here and none in its history: a site's route?",
            probe.path
        )
    })
}

/// Whether a one-word link (`LICENSE`, `capture`) is written as a file's
/// name: the tree has a file of that name somewhere (the root's
/// `LICENSE-MIT`, linked from a crate's README that lacks its own), or
/// another one-word link of the page names a file or folder beside it (the
/// page links its neighbours by name). Otherwise the word names nothing the
/// tree has ever shown: a route of the site the page is written for
/// (`[Input](input#props)`), or a label (MyST's `[x](step-generation)`).
fn names_a_file(probe: &Probe<'_>) -> bool {
    let name = probe.path.rsplit('/').next().unwrap_or(probe.path);
    let paths = probe.context.frame.snapshot.paths();
    let folder = probe
        .context
        .record
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder);
    let beside = |word: &str| {
        let path = if folder.is_empty() {
            word.to_owned()
        } else {
            format!("{folder}/{word}")
        };
        crate::snapshot::has_file(paths, &path) || crate::snapshot::has_folder(paths, &path)
    };
    // A file's name: a folder's is too often a common word (`schema`,
    // `providers`) a site also uses for a route.
    let anywhere = paths.iter().any(|p| p.rsplit('/').next() == Some(name));
    anywhere
        || one_word_destinations(probe.context.text).any(|word| word != probe.cited && beside(word))
}

/// Whether the page is written for MyST (a Sphinx build's Markdown): it
/// sets a target (`(codegen)=`) or a directive fence (```` ```{toctree} ````,
/// `:::{note}`). MyST reads `[SDKs](sdkgen)`, where no file has the name,
/// as a reference to the target `sdkgen`, wherever the forge shows it.
fn written_in_myst(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_end();
        (line.starts_with('(')
            && line.ends_with(")=")
            && line.len() > 3
            && !line[1..line.len() - 2].contains(char::is_whitespace))
            || line.trim_start().starts_with("```{")
            || line.trim_start().starts_with(":::{")
    })
}

/// The one-word destinations of a page's inline links: `](word)`,
/// `](word/)`, `](word#part)`.
fn one_word_destinations(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("](").filter_map(move |(at, _)| {
        let rest = &text[at + 2..];
        let end = rest.find([')', '#'])?;
        let word = rest[..end].strip_suffix('/').unwrap_or(&rest[..end]);
        (!word.is_empty()
            && word
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_'))
        .then_some(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::cites::testing::fires_for;

    #[test]
    fn fires_for_an_extensionless_link() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](/getting-started)",
            "/getting-started",
            "getting-started",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_in_a_readme_no_site_builds() {
        let why = fires_for(
            fires,
            &[("crate/README.md", ""), ("crate/src/lib.rs", "")],
            "crate/README.md",
            "[LICENSE-APACHE](../LICENSE-APACHE)",
            "../LICENSE-APACHE",
            "LICENSE-APACHE",
            false,
            true,
        );
        assert_eq!(why, None);
    }

    #[test]
    fn fires_for_a_one_word_readme_link_the_tree_never_names() {
        let why = fires_for(
            fires,
            &[
                ("components/input/README.md", ""),
                ("components/input/index.tsx", ""),
            ],
            "components/input/README.md",
            "See [Trigger](trigger#props).",
            "trigger",
            "components/input/trigger",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_for_a_one_word_readme_link_to_a_name_the_tree_has() {
        // The root's licence, linked from a crate that lacks one.
        let why = fires_for(
            fires,
            &[("crate/README.md", ""), ("LICENSE-MIT", "")],
            "crate/README.md",
            "[MIT](LICENSE-MIT)",
            "LICENSE-MIT",
            "crate/LICENSE-MIT",
            false,
            true,
        );
        assert_eq!(why, None);
        // A page that links its neighbours by name.
        let why = fires_for(
            fires,
            &[("examples/README.md", ""), ("examples/minimal/main.rs", "")],
            "examples/README.md",
            "* [minimal](minimal)\n* [none-is-undefined](none-is-undefined)\n",
            "none-is-undefined",
            "examples/none-is-undefined",
            false,
            true,
        );
        assert_eq!(why, None);
    }

    #[test]
    fn fires_for_a_one_word_link_on_a_myst_page() {
        let why = fires_for(
            fires,
            &[("pkg/codegen/README.md", ""), ("pkg/codegen/pcl/a.go", "")],
            "pkg/codegen/README.md",
            "(codegen)=\n# Code generation\n\n[SDKs](sdkgen) and [PCL](pcl).\n",
            "sdkgen",
            "pkg/codegen/sdkgen",
            false,
            true,
        );
        assert!(why.is_some());
    }

    #[test]
    fn stays_quiet_for_a_one_word_folder_link_on_a_readme() {
        // `patching/` is written as a folder: the forge's reading.
        let why = fires_for(
            fires,
            &[("examples/README.md", "")],
            "examples/README.md",
            "* [patching](patching/)\n",
            "patching",
            "examples/patching",
            true,
            true,
        );
        assert_eq!(why, None);
    }

    #[test]
    fn stays_quiet_for_a_link_to_a_file() {
        let why = fires_for(
            fires,
            &[("docs/a.md", "")],
            "docs/a.md",
            "[x](guide.md)",
            "guide.md",
            "docs/guide.md",
            false,
            true,
        );
        assert_eq!(why, None);
    }
}
