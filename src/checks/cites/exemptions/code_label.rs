//! Exemption `code-label`, in the path chain: the path labels the fenced
//! block that follows ("`pkg/__init__.py`:"), naming the contents shown, as
//! tutorials do. A reading of the record's shape: the history overrules it.

use super::{Applies, Definition, Probe};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A backticked path that names nothing here and ends its line with a colon before a fenced code block (\"`pkg/__init__.py`:\"): it labels the contents shown below, not a file of this tree.",
    applies: Applies::Path,
    history_overrules: true,
    fires: Some(fires),
    stale_if_history_knows: false,
};

fn fires(probe: &Probe<'_>) -> Option<String> {
    labels_a_block(probe.context.text, probe.context.at).then(|| {
        "it labels the code block that follows (a file's contents shown), not a path of this tree"
            .to_owned()
    })
}

/// Whether the cite's line ends with a colon and a fenced block follows it —
/// "`pkg/__init__.py`:" or "And this `src/main.mjs` file:" — so the path names
/// the contents shown below, as tutorials and Markdown test suites label them.
fn labels_a_block(text: &str, at: usize) -> bool {
    let Some(after) = text.get(at..) else {
        return false;
    };
    let mut lines = after.split('\n');
    let Some(rest_of_line) = lines.next() else {
        return false;
    };
    // The label is the line's last words: "`x.py`:", "this `x.py` file:" —
    // not a cite sentences earlier on a long line that ends "is below:".
    let rest = rest_of_line.trim_end();
    if !rest.ends_with(':') || rest.len() > 60 || rest.contains(". ") {
        return false;
    }
    lines
        .find(|line| !line.trim().is_empty())
        .is_some_and(|next| {
            let next = next.trim_start();
            next.starts_with("```") || next.starts_with("~~~")
        })
}

/// The lines of the fenced block a label at `at` names, without its fences.
fn labelled_block(text: &str, at: usize) -> Option<Vec<&str>> {
    let after = text.get(at..)?;
    let mut lines = after
        .split('\n')
        .skip(1)
        .skip_while(|l| l.trim().is_empty());
    let fence = lines.next()?.trim_start();
    let mark = if fence.starts_with("```") {
        "```"
    } else {
        "~~~"
    };
    Some(
        lines
            .take_while(|l| !l.trim_start().starts_with(mark))
            .collect(),
    )
}

/// Whether the block labelled at `at` shows (part of) `file`: at least half
/// of its lines with content are lines of the file. A label whose block the
/// cited file never held (a tutorial's `src/__init__.py` with two lines of
/// its own package, beside a repository that had a `src/__init__.py` of
/// its own) names the tutorial's file: the history has no say.
pub(in crate::checks::cites) fn block_shows(text: &str, at: usize, file: &[u8]) -> bool {
    let Some(block) = labelled_block(text, at) else {
        return true;
    };
    // A session at a prompt (`$ scripts/test`) runs commands, it shows no
    // file: the label reading was wrong, and the history decides.
    if block.iter().any(|l| l.trim_start().starts_with("$ ")) {
        return true;
    }
    let shown: Vec<&str> = block
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.len() >= 4)
        .collect();
    if shown.is_empty() {
        return true;
    }
    let file = String::from_utf8_lossy(file);
    let held: std::collections::HashSet<&str> = file.lines().map(str::trim).collect();
    let found = shown.iter().filter(|l| held.contains(*l)).count();
    found * 2 >= shown.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_shows_a_file_when_half_its_lines_are_the_files() {
        let text = "The `src/__init__.py` file:\n\n```python\nimport pkgutil\n__path__ = pkgutil.extend_path(__path__, __name__)\n```\n";
        let at = text.find('`').unwrap_or(0);
        assert!(!block_shows(text, at, b"from .wrappers import x\n"));
        assert!(block_shows(
            text,
            at,
            b"import pkgutil\n__path__ = pkgutil.extend_path(__path__, __name__)\n"
        ));
        let session =
            "Checks run as part of `scripts/test`, run:\n\n```shell\n$ scripts/check\n```\n";
        let at = session.find('`').unwrap_or(0);
        assert!(block_shows(session, at, b"#!/bin/sh\npytest\n"));
    }

    #[test]
    fn fires_on_a_label_before_a_block_and_stays_quiet_on_a_sentence() {
        let text = "And this `src/main.mjs` file:\n\n```js\nx()\n```\n";
        assert!(labels_a_block(text, text.find('`').unwrap_or(0)));
        let text = "See `src/main.mjs` for the details.\n\n```js\nx()\n```\n";
        assert!(!labels_a_block(text, text.find('`').unwrap_or(0)));
    }
}
