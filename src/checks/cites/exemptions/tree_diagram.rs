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
    // A diagram a reader still has in view; bounded, so a long record stays linear.
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
    let Some(before) = text.get(from..at) else {
        return false;
    };
    // Most records draw no tree: one fast search before reading lines.
    if !before.contains("── ") && !before.contains("-- ") {
        return false;
    }
    before.lines().any(|line| {
        let line = line.trim_end();
        ["── ", "-- "].iter().any(|branch| {
            line.rsplit_once(branch)
                .is_some_and(|(_, drawn)| drawn.trim_end_matches('/') == name)
        }) && (line.contains('└') || line.contains('├') || line.contains('│'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_a_drawn_file_and_stays_quiet_on_another() {
        let text = "```\nsrc/\n└── lib/\n    └── mod.rs\n```\nEdit `src/lib/mod.rs` next.";
        let at = text.find("`src").unwrap_or(0);
        assert!(drawn_in_a_tree(text, at, "src/lib/mod.rs"));
        assert!(!drawn_in_a_tree(text, at, "src/lib/main.rs"));
    }
}
