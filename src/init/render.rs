//! Drafting: the draft as a rule file — TOML with a comment above every rule
//! saying what it checks and where the claim is, the passages left out listed
//! with why, and `#:schema` pointing at the rules schema written beside it.

use std::fmt::Write as _;

use super::{Draft, DraftAt, DraftKind, NotDrafted, retired::ATTRIBUTION};

/// Most candidate passages listed by name; the rest are counted.
const MAX_LISTED: usize = 20;

/// A TOML string: a literal string when it can be one (regexes stay readable),
/// a basic string otherwise.
fn string(text: &str) -> String {
    if !text.contains(['\'', '\n', '\r']) && !text.chars().any(char::is_control) {
        format!("'{text}'")
    } else {
        toml::Value::String(text.to_owned()).to_string()
    }
}

/// Most characters of one comment: the words in it come from records and
/// the tree (a name, an error about a file), which a hostile checkout makes
/// as long as it likes.
const MAX_COMMENT_CHARS: usize = 600;

/// Text for a `#` comment: one line, control and bidi characters out, cut
/// after [`MAX_COMMENT_CHARS`].
fn comment(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(MAX_COMMENT_CHARS)
        .map(|c| if crate::escape::is_hazard(c) { ' ' } else { c })
        .collect();
    if text.chars().nth(MAX_COMMENT_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

fn list(out: &mut String, title: &str, items: &[NotDrafted]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n# {title}");
    for item in items.iter().take(MAX_LISTED) {
        let _ = writeln!(
            out,
            "#   {}: \"{}\" ({})",
            comment(&item.place.to_string()),
            comment(&item.quote),
            comment(&item.why)
        );
    }
    if items.len() > MAX_LISTED {
        let _ = writeln!(out, "#   ... and {} more", items.len() - MAX_LISTED);
    }
}

/// The rule file, with `#:schema` naming `schema` (a path relative to the rule
/// file, or an address).
pub fn rule_file(draft: &Draft, schema: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(schema) = schema {
        let _ = writeln!(out, "#:schema {schema}");
    }
    let _ = writeln!(
        out,
        "# Drafted by `recount init` from {} ({} records read). Each rule ties one claim\n\
         # a record makes to what the tree holds; review them, delete what should not be\n\
         # checked, and run `recount check`.",
        comment(&draft.label),
        draft.records_read
    );
    if let Some((copy, original)) = draft.copies.first() {
        let _ = writeln!(
            out,
            "#\n# {} record{} verbatim cop{} of another, read once as the original (first: {} of {}).",
            draft.copies.len(),
            if draft.copies.len() == 1 {
                " is a"
            } else {
                "s are"
            },
            if draft.copies.len() == 1 { "y" } else { "ies" },
            comment(copy),
            comment(original)
        );
    }
    let disagreeing: Vec<_> = draft
        .facts
        .iter()
        .filter(|f| f.weighed.disagrees.is_some())
        .collect();
    if !disagreeing.is_empty() {
        let _ = writeln!(
            out,
            "#\n# {} drafted figure{} already disagree{} with the tree (each says how below):",
            disagreeing.len(),
            if disagreeing.len() == 1 { "" } else { "s" },
            if disagreeing.len() == 1 { "s" } else { "" }
        );
        for fact in disagreeing.iter().take(MAX_LISTED) {
            let _ = writeln!(
                out,
                "#   {}: \"{}\"",
                comment(&fact.place.to_string()),
                comment(&fact.quote)
            );
        }
        if disagreeing.len() > MAX_LISTED {
            let _ = writeln!(out, "#   ... and {} more", disagreeing.len() - MAX_LISTED);
        }
    }
    if !draft.records.is_empty() {
        let _ = writeln!(out, "\n[recount]");
        let globs: Vec<String> = draft.records.iter().map(|g| string(g)).collect();
        let _ = writeln!(out, "records = [{}]", globs.join(", "));
    }
    if !draft.test_roots.is_empty() {
        let _ = writeln!(
            out,
            "\n# Test citations are written relative to these folders:"
        );
        for root in &draft.test_roots {
            let _ = writeln!(
                out,
                "#   {} ({} cited test or line path{} found only under it)",
                comment(&root.root),
                root.cites,
                if root.cites == 1 { "" } else { "s" }
            );
        }
        let roots: Vec<String> = draft.test_roots.iter().map(|r| string(&r.root)).collect();
        let _ = writeln!(out, "[cites]\ntest_roots = [{}]", roots.join(", "));
    }
    if !draft.constants.is_empty() {
        let _ = writeln!(
            out,
            "\n# The constants the rules below name, and the file each is defined in."
        );
        let _ = writeln!(out, "[constants]");
        for (name, file) in &draft.constants {
            let _ = writeln!(out, "{name} = {{ file = {} }}", string(file));
        }
    }
    for fact in &draft.facts {
        let _ = writeln!(
            out,
            "\n# {}: \"{}\"",
            comment(&fact.place.to_string()),
            comment(&fact.quote)
        );
        let _ = write!(out, "# {}.", comment(&fact.what));
        if let Some(pinned) = &fact.weighed.pinned {
            let _ = write!(out, "\n# Frame: {}.", comment(pinned));
        }
        if let Some(disagrees) = &fact.weighed.disagrees {
            let _ = write!(
                out,
                "\n# Disagrees: {}; `recount check` reports it until the record or the tree is mended.",
                comment(disagrees)
            );
        }
        let _ = writeln!(out, "\n[[fact]]\nid = {}", string(&fact.id));
        match &fact.at {
            Some(DraftAt::Rev(rev)) => {
                let _ = writeln!(out, "at = {}", string(rev));
            }
            Some(DraftAt::Date(date)) => {
                let _ = writeln!(out, "at = {{ date = {} }}", string(date));
            }
            None => {}
        }
        match &fact.kind {
            DraftKind::Files(glob) => {
                let _ = writeln!(out, "files = {}", string(glob));
            }
            DraftKind::Entries { name, file } => {
                let _ = writeln!(out, "entries = {}\nfile = {}", string(name), string(file));
            }
            DraftKind::Constant(name) => {
                let _ = writeln!(out, "constant = {}", string(name));
            }
            DraftKind::Expr(expr) => {
                let _ = writeln!(out, "expr = {}", string(expr));
            }
            DraftKind::Count { pattern, file } => {
                let _ = writeln!(out, "count = {}\nfile = {}", string(pattern), string(file));
            }
            DraftKind::Grep {
                pattern,
                ignore_case,
                paths,
            } => {
                let _ = writeln!(out, "grep = {}", string(pattern));
                if *ignore_case {
                    let _ = writeln!(out, "ignore_case = true");
                }
                if !paths.is_empty() {
                    let paths: Vec<String> = paths.iter().map(|p| string(p)).collect();
                    let _ = writeln!(out, "paths = [{}]", paths.join(", "));
                }
            }
        }
        if let Some(equals) = &fact.equals {
            let _ = writeln!(out, "equals = {}", string(equals));
        }
        if let Some(says) = &fact.says {
            let _ = writeln!(
                out,
                "claims = [{{ in = {}, says = {} }}]",
                string(&fact.place.record),
                string(says)
            );
        }
    }
    for retired in &draft.retired {
        let _ = writeln!(
            out,
            "\n# {}: \"{}\"\n# A retired figure: it may appear again only beside words that mark it as history.",
            comment(&retired.place.to_string()),
            comment(&retired.quote)
        );
        let _ = writeln!(
            out,
            "[[retired]]\nid = {}\nphrase = {}\nin = ['**/*.{}']\nattribution = {}\nreach = 200",
            string(&retired.id),
            string(&retired.phrase),
            // Records of the kind it was found in (a glob that matches
            // nothing is itself a finding).
            retired
                .place
                .record
                .rsplit_once('.')
                .map_or("md", |(_, suffix)| suffix),
            string(ATTRIBUTION)
        );
    }
    list(
        &mut out,
        "Passages that retire a claim without a figure recount could pin (write a\n\
         # [[retired]] rule with `phrase`, or `subject` and `phrasing`, if it must not return):",
        &draft.retired_candidates,
    );
    list(&mut out, "Recognised but not drafted:", &draft.not_drafted);
    if draft.facts.is_empty() && draft.retired.is_empty() {
        let _ = writeln!(
            out,
            "\n# No figure in the records could be tied to the tree; the citation checks\n\
             # run on every *.md, *.mdx and *.rst file with or without rules."
        );
        if let Some(example) = &draft.example {
            let folder = comment(&example.folder);
            let glob = comment(&example.glob);
            let id = format!("{}-pages", identifier(&example.folder));
            let _ = writeln!(
                out,
                "#\n# A rule to start from: a record that says \"{folder}/ holds {count} pages\" stays true\n\
                 # while it does. `{glob}` matches {count} file{s} today; uncomment it, put the\n\
                 # sentence in a record, and `recount check` recounts it on every run.\n\
                 #\n\
                 # [[fact]]\n\
                 # id = \"{id}\"\n\
                 # files = \"{glob}\"\n\
                 # claims = [{{ says = '{folder}/ holds (?<value>\\w+) pages', in = \"{glob}\" }}]",
                count = example.count,
                s = if example.count == 1 { "" } else { "s" },
            );
        }
    }
    out
}

/// A folder's name as a rule id's part: lowercase letters and digits, runs
/// of anything else one `-`.
fn identifier(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        "records".to_owned()
    } else {
        id.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_one_bounded_line() {
        assert_eq!(comment("a\nb\u{202e}c"), "a b c");
        let long = "x".repeat(5_000);
        assert_eq!(comment(&long).chars().count(), MAX_COMMENT_CHARS + 3);
    }

    #[test]
    fn strings_stay_literal_when_they_can() {
        assert_eq!(string(r"holds\s+(?<value>\w+)"), r"'holds\s+(?<value>\w+)'");
        assert_eq!(string("it's"), "\"it's\"");
    }
}
