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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_on_a_label_before_a_block_and_stays_quiet_on_a_sentence() {
        let text = "And this `src/main.mjs` file:\n\n```js\nx()\n```\n";
        assert!(labels_a_block(text, text.find('`').unwrap_or(0)));
        let text = "See `src/main.mjs` for the details.\n\n```js\nx()\n```\n";
        assert!(!labels_a_block(text, text.find('`').unwrap_or(0)));
    }
}
