//! Stage 4, the citation family's line resolver: `path:N`, `path:N-M` (and a
//! `[[cites.expect]]` literal the lines must hold) against the cite's frame.
//! The exemptions a line cite can meet are asked through the registry, each
//! deciding in its own file.

use std::sync::Arc;

use super::count_of_lines;
use crate::checks::cites::cfg::{CitesPlan, ExpectPlan, normalise_line_cite};
use crate::checks::cites::context::{Context, locked};
use crate::checks::cites::exemptions::{self, Exemption};
use crate::checks::cites::locate::{candidates, escapes, on_the_way, rooted};
use crate::checks::cites::model::{CiteStatus, LineTarget};
use crate::error::{Error, Result};
use crate::snapshot::has_file;

/// A line cite as the record writes it.
pub(in crate::checks::cites) struct LineCite<'a> {
    /// The whole cite, for a `[[cites.expect]]` entry written the same way.
    pub(in crate::checks::cites) cited: &'a str,
    pub(in crate::checks::cites) path: &'a str,
    pub(in crate::checks::cites) start: usize,
    pub(in crate::checks::cites) end: usize,
    /// `.../x.rs:12`: only the path's tail is written.
    pub(in crate::checks::cites) elided_prefix: bool,
}

/// Resolves a line cite; says (in `found.expect`) which `[[cites.expect]]`
/// entry applied to it.
pub(in crate::checks::cites) fn resolve_line(
    context: &Context<'_>,
    settings: &CitesPlan,
    cite: &LineCite<'_>,
) -> Result<CiteStatus> {
    let LineCite {
        cited,
        path,
        start,
        end,
        elided_prefix,
    } = *cite;
    let frame = context.frame;
    let at = &frame.label;
    // A template's line cites are its example's, as its paths are.
    if let Some(skip) = context.exemptions.ask(Exemption::Placeholder, || {
        exemptions::placeholder::in_template(context.record, cited)
    }) {
        return Ok(skip);
    }
    // `/CONTRIBUTING.md:84`: a leading slash is the repository's root, and
    // names that one file (as a hosted link's address does).
    let from_root = path.starts_with('/');
    // `../../src/x.rs:7` (mdBook's `{{#include ../../x.snap:7:}}`): written
    // from the record's folder, and read from there.
    let from_record = path
        .starts_with("../")
        .then(|| crate::checks::cites::locate::reader_paths(context.record, path))
        .flatten()
        .and_then(|tried| tried.into_iter().next());
    let path = &from_record.unwrap_or_else(|| rooted(path));
    if escapes(path) {
        return Ok(CiteStatus::stale(format!(
            "`{path}` leaves the repository; recount reads nothing outside it"
        )));
    }
    let direct = has_file(frame.snapshot.paths(), path);
    if !direct
        && let Some(skip) = context
            .exemptions
            .ask(Exemption::Placeholder, || exemptions::placeholder(path))
    {
        return Ok(skip);
    }
    let mut files: Vec<String> = if from_root {
        [path.clone()]
            .into_iter()
            .filter(|p| has_file(frame.snapshot.paths(), p))
            .collect()
    } else {
        candidates(frame, path, elided_prefix, &settings.roots)
    };
    // `playbook.md:223` on a page that writes `docs/ops/playbook.md`
    // elsewhere: the page's own full spelling says which of its namesakes.
    if !path.contains('/') && files.len() > 1 {
        let spelled: Vec<String> = files
            .iter()
            .filter(|f| crate::checks::cites::locate::spells_path(context.text, f))
            .cloned()
            .collect();
        if spelled.len() == 1 {
            files = spelled;
        }
    }
    // `main.py:12` with several `main.py` in the tree: the one on the
    // record's way to the root, else no guess (as for a bare path).
    if !path.contains('/') && files.len() > 1 {
        if let Some(skip) = context.exemptions.ask(Exemption::AmbiguousName, || {
            exemptions::ambiguous_name::among_line_files(context.record, path, &files)
        }) {
            return Ok(skip);
        }
        let near: Vec<String> = files
            .iter()
            .filter(|f| on_the_way(context.record, f))
            .cloned()
            .collect();
        if !near.is_empty() {
            files = near;
        }
        files.sort_by_key(|f| std::cmp::Reverse(f.len()));
    }
    let Some(file) = files.first() else {
        return Ok(missing_file(context, settings, cite, path));
    };
    // (Read as the likeliest of several: a fix is no place for a choice.)
    *context.found.chosen_among.borrow_mut() = files.len() > 1;
    let text = cited_text(context, file)?;
    let lines: Vec<&str> = crate::facts::lines_of(&text).collect();
    // `1-76` of a 75-line file that ends in a newline is the whole file as
    // an editor numbers it (the empty line after the last newline is 76),
    // and `19-76` its rest from line 19.
    let end = if start < end && end == lines.len() + 1 && text.ends_with('\n') {
        lines.len()
    } else {
        end
    };
    if end > lines.len() || start == 0 {
        // The file, for the evidence: whether its lines were there when
        // the record cited them.
        if start > 0 {
            *context.found.lines.borrow_mut() = Some(LineTarget {
                file: file.clone(),
                start,
                end,
            });
        }
        return Ok(CiteStatus::stale(format!(
            "{file} has {} at {at}; the cite names line {end}",
            count_of_lines(lines.len())
        )));
    }
    let written = normalise_line_cite(cited);
    // The expectation for these lines: written as the record writes the
    // cite, or naming (by any spelling the cite resolution accepts) the file
    // the cite resolved to.
    let applies = |e: &ExpectPlan| {
        e.lines == Some((start, end))
            && (e.cite == written
                || e.path == *path
                || candidates(frame, &e.path, false, &settings.roots).contains(file))
    };
    let found = settings.expect.iter().position(applies);
    *context.found.expect.borrow_mut() = found;
    let Some(literal) = found.map(|i| &settings.expect[i].contains) else {
        *context.found.lines.borrow_mut() = Some(LineTarget {
            file: file.clone(),
            start,
            end,
        });
        return Ok(CiteStatus::Ok {
            resolved: format!("{file}:{start}-{end}"),
        });
    };
    if lines[start - 1..end]
        .iter()
        .any(|l| l.contains(literal.as_str()))
    {
        return Ok(CiteStatus::Ok {
            resolved: format!("{file}:{start}-{end} holds {literal:?}"),
        });
    }
    let moved = lines
        .iter()
        .position(|l| l.contains(literal.as_str()))
        .map(|i| i + 1);
    Ok(match moved {
        Some(line) => CiteStatus::Stale {
            why: format!(
                "{file}:{start} no longer holds {literal:?} at {at}; it moved to line {line}"
            ),
            suggestion: Some(format!("{path}:{line}")),
            guessed: false,
        },
        None => CiteStatus::stale(format!("{file} no longer holds {literal:?} at {at}")),
    })
}

/// A line cite whose file the frame does not have: a build's output, a line
/// of another repository, or stale (with the expectation the rule file wrote
/// for it, which still met it).
/// (`path` is the cite's, rooted.)
fn missing_file(
    context: &Context<'_>,
    settings: &CitesPlan,
    cite: &LineCite<'_>,
    path: &str,
) -> CiteStatus {
    let (start, end) = (cite.start, cite.end);
    if let Some(skip) = context.exemptions.ask(Exemption::Gitignored, || {
        exemptions::gitignored::line_file(context, path)
    }) {
        return skip;
    }
    if let Some(skip) = context.exemptions.ask(Exemption::ForeignLine, || {
        exemptions::foreign_line::fires(context.frame.snapshot.paths(), path, cite.elided_prefix)
    }) {
        return skip;
    }
    let written = normalise_line_cite(cite.cited);
    *context.found.expect.borrow_mut() = settings
        .expect
        .iter()
        .position(|e| e.lines == Some((start, end)) && (e.cite == written || e.path == *path));
    CiteStatus::stale(format!("no file `{path}` at {}", context.frame.label))
}

/// The text of a file a line cite names, read once per frame and file.
fn cited_text(context: &Context<'_>, file: &str) -> Result<Arc<str>> {
    let frame = context.frame;
    let key = (frame.label.clone(), file.to_owned());
    if let Some(text) = locked(&context.reads.cited_files).get(&key) {
        return Ok(Arc::clone(text));
    }
    let text = crate::snapshot::read_text_within(
        frame.snapshot.as_ref(),
        file,
        crate::snapshot::MAX_COUNTED_BYTES,
    )
    .map_err(|e| Error::reading(file, e))?
    .unwrap_or_else(|| "".into());
    locked(&context.reads.cited_files).insert(key, Arc::clone(&text));
    Ok(text)
}
