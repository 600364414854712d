//! Exemption `tree-diagram`, in the path chain: the record drew the file in
//! an example layout (`└── mod.rs`) just before citing it. A reading of the
//! record's shape: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here, whose file the record drew in a file-tree diagram (`├── mod.rs`) shortly before: the layout of an example, not of this tree.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    drawn_in_a_tree(probe.context.text, probe.context.at, probe.path)
        .then(|| "the record draws it in an example layout (a file tree) just before".to_owned())
}

/// Whether the record drew the path's file in a tree diagram (`└── mod.rs`)
/// shortly before citing it: the layout of an example, not of this tree.
fn drawn_in_a_tree(text: &str, at: usize, path: &str) -> bool {
    drawn_line(text, at, path).is_some()
}

/// The folder a diagram that draws `path`'s name just before `at` is rooted
/// at, when its first line names one (`mypackage/` above `├── docs`): the
/// project whose layout it draws. None for a diagram rooted at `.` or `/`,
/// or with no root line.
pub(in crate::checks::cites) fn diagram_root(text: &str, at: usize, path: &str) -> Option<String> {
    let (lines, drawn) = drawn_line(text, at, path)?;
    let root = lines[..drawn]
        .iter()
        .rev()
        .find(|line| !branch(line))?
        .trim();
    let root = root.trim_end_matches('/').trim_start_matches("./");
    let plain = !root.is_empty()
        && root != "."
        && !root.contains([' ', '`', ':', '/'])
        && root.chars().any(char::is_alphanumeric);
    plain.then(|| root.to_owned())
}

/// The lines a reader still has in view before `at`, and which of them is
/// the last to draw the path's name on a diagram's branch.
fn drawn_line<'t>(text: &'t str, at: usize, path: &str) -> Option<(Vec<&'t str>, usize)> {
    // Bounded, so a long record stays linear.
    const REACH: usize = 2_000;
    let name = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(path);
    let mut from = at.saturating_sub(REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let before = text.get(from..at)?;
    // Most records draw no tree: one fast search before reading lines.
    if !before.contains("── ") && !before.contains("-- ") {
        return None;
    }
    let lines: Vec<&str> = before.lines().collect();
    let drawn = lines.iter().rposition(|line| {
        let line = line.trim_end();
        branch(line)
            && ["── ", "-- "].iter().any(|b| {
                line.rsplit_once(b)
                    .is_some_and(|(_, drawn)| drawn.trim_end_matches('/') == name)
            })
    })?;
    Some((lines, drawn))
}

fn branch(line: &str) -> bool {
    line.contains('└') || line.contains('├') || line.contains('│')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_is_rooted_at_the_folder_its_first_line_names() {
        let text = "Like this:\n\n    mypackage/\n    ├── docs\n    │   └── conf.py\n    └── README.md\n\nRun it in `docs/`.";
        let at = text.find("`docs/`").unwrap_or(0);
        assert_eq!(
            diagram_root(text, at, "docs/").as_deref(),
            Some("mypackage")
        );
        let dot = "    .\n    ├── docs\n    └── src\n\nSee `docs/`.";
        assert_eq!(
            diagram_root(dot, dot.find("`docs").unwrap_or(0), "docs/"),
            None
        );
        let bare = "```\n├── docs\n```\nSee `docs/`.";
        assert_eq!(
            diagram_root(bare, bare.find("`docs").unwrap_or(0), "docs/"),
            None
        );
    }

    #[test]
    fn fires_on_a_drawn_file_and_stays_quiet_on_another() {
        let text = "```\nsrc/\n└── lib/\n    └── mod.rs\n```\nEdit `src/lib/mod.rs` next.";
        let at = text.find("`src").unwrap_or(0);
        assert!(drawn_in_a_tree(text, at, "src/lib/mod.rs"));
        assert!(!drawn_in_a_tree(text, at, "src/lib/main.rs"));
    }
}
