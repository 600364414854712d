//! Records (read once per run): MyST, the Markdown Sphinx reads. Its roles
//! are a `{role}` written right before a code span (`{ref}`intro``,
//! `{py:class}`~pkg.Client``, `{doc}`usage``) and its directives fenced
//! blocks whose info string is `{name}` (```` ```{toctree} ````,
//! ```` ```{literalinclude} ../x.py ````). Read from the Markdown structure
//! the parse made, they become the same label, document, Python object and
//! link references an rst page's roles and directives are; a role's code
//! span is a reference then, not a literal.

use std::ops::Range;

use super::markdown::{DocRef, FencedBlock, LabelRef, Link, Markdown, PyRef};
use super::rst::{document, normalised_label, python_target, titled_target, toctree_document};

/// Directives whose content names documents or files, not code: read as
/// references, and no longer code blocks.
const REFERENCE_DIRECTIVES: [&str; 5] = ["toctree", "include", "literalinclude", "image", "figure"];

/// Adds what MyST roles and directives in `raw` refer to.
pub fn read(raw: &str, markdown: &mut Markdown) {
    // The `{module}`/`{currentmodule}` directives, by where they take effect.
    let mut modules: Vec<(usize, Option<String>)> = Vec::new();
    let mut kept = Vec::with_capacity(markdown.fenced.len());
    for block in std::mem::take(&mut markdown.fenced) {
        let Some((name, argument)) = directive(&block.info) else {
            kept.push(block);
            continue;
        };
        let name = name.strip_prefix("py:").unwrap_or(name);
        match name {
            // autodoc's `automodule` writes a `py:module` directive, which
            // sets the module for the rest of the document too.
            "module" | "currentmodule" | "automodule" => {
                let module = argument.map(str::to_owned).filter(|a| a != "None");
                modules.push((block.open.start, module));
            }
            "toctree" => toctree(raw, &block, markdown),
            "include" | "literalinclude" | "image" | "figure" => {
                let open = raw.get(block.open.clone()).unwrap_or("");
                if let Some((at, path)) =
                    argument.and_then(|a| open.find(a).map(|at| (block.open.start + at, a)))
                {
                    markdown.links.push(Link {
                        destination: path.to_owned(),
                        text: at..at + path.len(),
                    });
                }
            }
            _ => {}
        }
        if !REFERENCE_DIRECTIVES.contains(&name) {
            kept.push(block);
        }
    }
    markdown.fenced = kept;
    // (In record order: the one in effect is found by halving.)
    let module_at = |at: usize| {
        let before = modules.partition_point(|(start, _)| *start < at);
        before.checked_sub(1).and_then(|i| modules[i].1.clone())
    };
    let mut literals = Vec::with_capacity(markdown.code_spans.len());
    for span in std::mem::take(&mut markdown.code_spans) {
        let Some(role) = role_before(raw, span.range.start) else {
            literals.push(span);
            continue;
        };
        let (target, at) = titled_target(raw, span.content.clone());
        if super::rst::link_suppressed(raw, &span.content) {
            continue;
        }
        let role = role.strip_prefix("py:").unwrap_or(role);
        match role {
            "ref" | "numref" | "std:ref" => {
                let label = normalised_label(target);
                if !label.is_empty() {
                    markdown.label_refs.push(LabelRef { label, text: at });
                }
            }
            "doc" | "std:doc" => {
                if let Some(document) = document(target.trim()) {
                    markdown.doc_refs.push(DocRef { document, text: at });
                }
            }
            "mod" | "func" | "class" | "meth" | "attr" | "exc" | "data" | "obj" => {
                if let Some(target) = python_target(target) {
                    markdown.py_refs.push(PyRef {
                        role: role.to_owned(),
                        target: target.to_owned(),
                        module: module_at(span.range.start),
                        text: at,
                    });
                }
            }
            // `{file}`, `{samp}`: a literal still.
            "file" | "samp" => literals.push(span),
            // Any other role (`{kbd}`, `{issue}`, `{math}`) names no path.
            _ => {}
        }
    }
    markdown.code_spans = literals;
}

/// A MyST directive's name and argument from a fence's info string
/// (`{literalinclude} ../x.py`).
fn directive(info: &str) -> Option<(&str, Option<&str>)> {
    let rest = info.strip_prefix('{')?;
    let (name, after) = rest.split_once('}')?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_:".contains(c))
    {
        return None;
    }
    let argument = after.trim();
    Some((name, (!argument.is_empty()).then_some(argument)))
}

/// The role written right before a code span at `at` (`{ref}` before
/// `` `intro` ``), if one is.
fn role_before(raw: &str, at: usize) -> Option<&str> {
    let before = raw.get(..at)?;
    let inner = before.strip_suffix('}')?;
    let open = inner.rfind('{')?;
    let role = &inner[open + 1..];
    (!role.is_empty()
        && role.len() <= 32
        && role.starts_with(|c: char| c.is_ascii_lowercase())
        && role
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_:".contains(c)))
    .then_some(role)
}

/// A `{toctree}` block's entries: each line not an option, as a document
/// (`Title <name>` names it too); globs and addresses are not documents.
fn toctree(raw: &str, block: &FencedBlock, markdown: &mut Markdown) {
    // `:glob:`, `:glob: true` (a flag given a value, as MyST allows) or
    // YAML's `glob: true`; not `false`.
    let glob = block.lines.iter().any(|(_, l)| {
        let line = l.trim();
        let value = line
            .strip_prefix(":glob:")
            .or_else(|| line.strip_prefix("glob:"));
        value.is_some_and(|v| !v.trim().eq_ignore_ascii_case("false"))
    });
    // Options written as YAML between `---` lines, before the entries.
    let mut lines = block.lines.iter().peekable();
    if lines.peek().is_some_and(|(_, l)| l.trim() == "---") {
        lines.next();
        for (_, line) in lines.by_ref() {
            if line.trim() == "---" {
                break;
            }
        }
    }
    for (range, line) in lines {
        let entry = line.trim();
        if entry.is_empty()
            || entry.starts_with(':')
            || entry == "self"
            || entry.contains("://")
            || (glob && entry.contains(['*', '?', '[']))
        {
            continue;
        }
        let start = range.start + (line.len() - line.trim_start().len());
        let (target, text): (&str, Range<usize>) = titled_target(raw, start..start + entry.len());
        // `Overview <self>`: the page itself, as a bare `self` is.
        if target.contains("://") || target.trim() == "self" {
            continue;
        }
        if let Some(document) = toctree_document(target.trim()) {
            markdown.doc_refs.push(DocRef { document, text });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_of(raw: &str) -> Markdown {
        Markdown::new(raw)
    }

    #[test]
    fn a_toctree_entry_is_a_document_not_self_and_without_its_suffix() {
        let raw = "# Home\n\n```{toctree}\nOverview <self>\nself\nguide\nintro.md\n```\n";
        let md = crate::records::markdown::parse_with(raw, false).0;
        let docs: Vec<&str> = md.doc_refs.iter().map(|d| d.document.as_str()).collect();
        // A source's suffix is dropped, as Sphinx drops it from an entry.
        assert_eq!(docs, ["guide", "intro"]);
    }

    #[test]
    fn a_glob_toctrees_patterns_are_no_documents() {
        let docs = |raw: &str| -> Vec<String> {
            let md = crate::records::markdown::parse_with(raw, false).0;
            md.doc_refs.iter().map(|d| d.document.clone()).collect()
        };
        for glob in [":glob:", ":glob: true", "glob: true"] {
            let raw = format!("```{{toctree}}\n:hidden:\n{glob}\n\nbackends/*\nfaq\n```\n");
            assert_eq!(docs(&raw), ["faq"], "{glob}");
        }
        let raw = "```{toctree}\n:glob: false\n\nbackends/*\n```\n";
        assert_eq!(docs(raw), ["backends/*"]);
    }

    #[test]
    fn roles_before_code_spans_are_references_and_not_literals() {
        let raw = "See {ref}`the intro <intro>`, {doc}`usage`, {py:class}`~pkg.Client` and `src/x.py`; {kbd}`Ctrl`.\n";
        let md = read_of(raw);
        let at = |r: &Range<usize>| &raw[r.clone()];
        assert_eq!(md.label_refs.len(), 1);
        assert_eq!(md.label_refs[0].label, "intro");
        assert_eq!(at(&md.label_refs[0].text), "intro");
        assert_eq!(md.doc_refs[0].document, "usage");
        assert_eq!(md.py_refs[0].target, "pkg.Client");
        assert_eq!(md.py_refs[0].role, "class");
        // Only the plain literal is still a code span.
        let spans: Vec<&str> = md.code_spans.iter().map(|s| at(&s.content)).collect();
        assert_eq!(spans, ["src/x.py"]);
    }

    #[test]
    fn directives_name_documents_files_and_the_current_module() {
        let raw = "```{currentmodule} pkg\n```\n\nUse {func}`run`.\n\n```{toctree}\n:maxdepth: 2\n\ninstall\nThe API <api/index>\ngenindex\n```\n\n```{toctree}\n---\nhidden:\ncaption: More\n---\nfaq\n```\n\n```{literalinclude} ../examples/app.py\n:lines: 1-3\n```\n\n```{note}\nA note.\n```\n";
        let md = read_of(raw);
        assert_eq!(md.py_refs[0].module.as_deref(), Some("pkg"));
        let documents: Vec<&str> = md.doc_refs.iter().map(|d| d.document.as_str()).collect();
        assert_eq!(documents, ["install", "api/index", "faq"]);
        assert!(
            md.links
                .iter()
                .any(|l| l.destination == "../examples/app.py"
                    && &raw[l.text.clone()] == "../examples/app.py")
        );
        // The reference directives are no code blocks; the note still is one.
        let infos: Vec<&str> = md.fenced.iter().map(|b| b.info.as_str()).collect();
        assert_eq!(infos, ["{currentmodule} pkg", "{note}"]);
    }
}
