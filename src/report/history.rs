//! The history report in human text, Markdown and a self-contained SVG chart.
//! (The JSON is the [`History`] itself, described by `schemas/history.schema.json`.)
//! Commit subjects, author names and record text are outside text: each is
//! escaped to one line before it is shown.

use std::fmt::Write as _;

use super::escape::{VALUE_CAP, untrusted};
use crate::history::{Bisection, ClaimHistory, ClaimState, CommitInfo, FactState, History};

/// The history JSON schema.
pub const HISTORY_SCHEMA: &str = include_str!("../../schemas/history.schema.json");

fn shown(text: &str) -> String {
    untrusted(text, VALUE_CAP).into_owned()
}

/// `abcdef12 (2026-09-01, Ann Author): subject`.
pub fn culprit(commit: &CommitInfo) -> String {
    format!(
        "{} ({}, {}): {}",
        commit.short,
        &commit.date[..10],
        shown(&commit.author),
        shown(&commit.subject)
    )
}

fn status(claim: &ClaimHistory) -> String {
    match &claim.status {
        ClaimState::Drifted {
            path,
            line,
            column,
            stated,
            observed,
        } => {
            let since = match (&claim.drifted_since, claim.drifted_before_range) {
                (Some(c), _) if claim.false_when_written => {
                    format!("false when written, at {}", culprit(c))
                }
                (Some(c), _) => format!("drifted since {}", culprit(c)),
                (None, _) => "drifted since before the range".to_owned(),
            };
            format!(
                "{since}\n      {}:{line}:{column} states `{}`, the tree has {}",
                shown(path),
                shown(stated),
                shown(observed)
            )
        }
        other => {
            let mut text = other.name().to_owned();
            if let Some(c) = &claim.first_drift {
                let _ = write!(text, " (first drifted at {})", culprit(c));
            }
            text
        }
    }
}

/// The plain-text report: facts with their value changes, claims with their
/// culprits, and one line per commit.
pub fn human(history: &History) -> String {
    let mut out = String::new();
    let since = history
        .since
        .as_ref()
        .map(|d| format!(" since {d}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "history of {}{since}: {} first-parent commit{}",
        shown(&history.range),
        history.commits,
        if history.commits == 1 { "" } else { "s" }
    );
    out.push_str("\nfacts\n");
    for fact in &history.facts {
        let pinned = fact
            .pinned
            .as_ref()
            .map(|p| format!(", measured at {}", shown(p)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {} ({}{pinned}): {}",
            shown(&fact.id),
            fact.kind,
            value_run(&fact.first, &fact.last, fact.changes.len())
        );
        for change in &fact.changes {
            let _ = writeln!(
                out,
                "    {} -> {} at {}",
                shown(&change.from),
                shown(&change.to),
                culprit(&change.commit)
            );
        }
    }
    out.push_str("\nclaims\n");
    let claims: Vec<&ClaimHistory> = history.facts.iter().flat_map(|f| &f.claims).collect();
    if claims.is_empty() {
        out.push_str("  (none)\n");
    }
    for claim in claims {
        let _ = writeln!(out, "  {}: {}", shown(&claim.id), status(claim));
    }
    out.push_str("\ncommits (oldest first)\n");
    for v in &history.verdicts {
        let mut line = format!(
            "  {} {} {} hold, {} drifted",
            v.commit.short,
            &v.commit.date[..10],
            v.holds,
            v.drifted
        );
        if v.not_found > 0 {
            let _ = write!(line, ", {} not found", v.not_found);
        }
        if v.unverified > 0 {
            let _ = write!(line, ", {} unverified", v.unverified);
        }
        for id in &v.new_drifts {
            let _ = write!(line, "  +{}", shown(id));
        }
        for id in &v.fixed {
            let _ = write!(line, "  -{}", shown(id));
        }
        let _ = writeln!(line, "  {}", shown(&v.commit.subject));
        out.push_str(&line);
    }
    out
}

fn value_run(first: &FactState, last: &FactState, changes: usize) -> String {
    match changes {
        0 => format!("{} throughout", shown(first.text())),
        1 => format!(
            "{} -> {} (1 change)",
            shown(first.text()),
            shown(last.text())
        ),
        n => format!(
            "{} -> {} ({n} changes)",
            shown(first.text()),
            shown(last.text())
        ),
    }
}

/// Escapes a table cell: no pipe, no newline.
fn cell(text: &str) -> String {
    shown(text).replace('|', "\\|")
}

/// Markdown, for a step summary or an issue.
pub fn markdown(history: &History) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## recount history: {} ({} commits)\n",
        cell(&history.range),
        history.commits
    );
    out.push_str("| fact | kind | first | last | changes |\n|---|---|---|---|---|\n");
    for fact in &history.facts {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            cell(&fact.id),
            fact.kind,
            cell(fact.first.text()),
            cell(fact.last.text()),
            fact.changes
                .iter()
                .map(|c| format!(
                    "{} → {} at `{}`",
                    cell(&c.from),
                    cell(&c.to),
                    c.commit.short
                ))
                .collect::<Vec<_>>()
                .join("<br>")
        );
    }
    out.push_str("\n| claim | status | culprit |\n|---|---|---|\n");
    for claim in history.facts.iter().flat_map(|f| &f.claims) {
        let culprit_cell = match (&claim.drifted_since, &claim.first_drift) {
            (Some(c), _) | (None, Some(c)) => format!(
                "{}`{}` {} {}: {}",
                if claim.false_when_written {
                    "false when written, at "
                } else {
                    ""
                },
                c.short,
                &c.date[..10],
                cell(&c.author),
                cell(&c.subject)
            ),
            (None, None) if claim.drifted_before_range => "before the range".to_owned(),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            cell(&claim.id),
            claim.status.name(),
            culprit_cell
        );
    }
    out
}

/// The outcome of `bisect`, for people.
pub fn bisection(found: &Bisection, what: &str) -> String {
    match found {
        Bisection::Culprit {
            commit,
            state,
            steps,
            readable_since,
            false_when_written,
        } => {
            // A statement false the day it was written was never broken by
            // a later commit: the commit that wrote it is named as such.
            let found = if *false_when_written {
                "was false when written, at"
            } else {
                "first drifted at"
            };
            let mut out = format!(
                "{what} {found} {}\n  commit {}\n",
                culprit(commit),
                commit.id
            );
            if let ClaimState::Drifted {
                path,
                line,
                column,
                stated,
                observed,
            } = state
            {
                let _ = writeln!(
                    out,
                    "  {}:{line}:{column} states `{}`, the tree has {}",
                    shown(path),
                    shown(stated),
                    shown(observed)
                );
            }
            if let Some(why) = readable_since {
                let _ = writeln!(
                    out,
                    "  the commit before it did not hold the claim: it was unverified there ({}); \
                     this commit made the claim's input readable, and the drift may be older",
                    shown(why)
                );
            }
            let _ = writeln!(out, "  ({steps} commits evaluated)");
            out
        }
        Bisection::Unverified { newest, why } => format!(
            "{what} is unverified at the newest commit of the range ({}): {}; neither drifted \
             nor holding, so there is no culprit to look for\n",
            culprit(newest),
            shown(why)
        ),
        Bisection::NeverFalse { newest } => format!(
            "{what} is not drifted at the newest commit of the range ({}): no culprit\n",
            culprit(newest)
        ),
        Bisection::NeverTrue { oldest } => format!(
            "{what} is drifted already at the oldest commit of the range ({}): it was never \
             true in the range; widen it to find the culprit\n",
            culprit(oldest)
        ),
    }
}

/// A self-contained SVG: one small line chart per fact (its value at each
/// commit, oldest on the left), changes marked with the commit's short id.
/// Deterministic: the same history gives the same bytes.
pub fn chart(history: &History) -> String {
    const WIDTH: f64 = 760.0;
    const PANEL: f64 = 150.0;
    const LEFT: f64 = 90.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 34.0;
    const PLOT: f64 = 80.0;
    let height = 40.0 + PANEL * history.facts.len().max(1) as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        svg,
        "<title>recount history: {} ({} commits)</title>",
        xml(&history.range),
        history.commits
    );
    let _ = writeln!(svg, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        svg,
        "<text x=\"10\" y=\"20\" font-size=\"14\">recount history: {} ({} commits, oldest left)</text>",
        xml(&history.range),
        history.commits
    );
    let n = history.commits.max(1);
    let x_of = |i: usize| {
        if n == 1 {
            LEFT + (WIDTH - LEFT - RIGHT) / 2.0
        } else {
            LEFT + (WIDTH - LEFT - RIGHT) * i as f64 / (n - 1) as f64
        }
    };
    for (k, fact) in history.facts.iter().enumerate() {
        let top = TOP + PANEL * k as f64;
        let _ = writeln!(
            svg,
            "<g><text x=\"10\" y=\"{:.1}\" font-weight=\"bold\">{} ({}): {}</text>",
            top + 10.0,
            xml(&fact.id),
            fact.kind,
            xml(&value_run(&fact.first, &fact.last, fact.changes.len()))
        );
        let numbers: Vec<Option<f64>> = fact
            .series
            .iter()
            .map(|s| match s {
                FactState::Value { number, .. } => *number,
                FactState::Unverified { .. } => None,
            })
            .collect();
        let known: Vec<f64> = numbers.iter().flatten().copied().collect();
        let plot_top = top + 20.0;
        let _ = writeln!(
            svg,
            "<rect x=\"{LEFT}\" y=\"{plot_top:.1}\" width=\"{:.1}\" height=\"{PLOT}\" fill=\"none\" stroke=\"#ccc\"/>",
            WIDTH - LEFT - RIGHT
        );
        if known.is_empty() {
            let _ = writeln!(
                svg,
                "<text x=\"{LEFT}\" y=\"{:.1}\" fill=\"#666\">no numeric value in the range</text></g>",
                plot_top + PLOT / 2.0
            );
            continue;
        }
        let (lo, hi) = known
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let span = if hi > lo { hi - lo } else { 1.0 };
        let y_of = |v: f64| {
            if hi > lo {
                plot_top + PLOT - PLOT * (v - lo) / span
            } else {
                plot_top + PLOT / 2.0
            }
        };
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 4.0,
            y_of(hi) + 4.0,
            xml(&label(hi)),
            LEFT - 4.0,
            y_of(lo) + 4.0,
            xml(&label(lo))
        );
        // Where a claim of the fact is drifted, a band behind the line: how
        // long the record was false.
        for (start, end) in drifted_spans(fact, history) {
            let half = if n > 1 {
                (WIDTH - LEFT - RIGHT) / (n - 1) as f64 / 2.0
            } else {
                4.0
            };
            let x0 = (x_of(start) - half).max(LEFT);
            let x1 = (x_of(end) + half).min(WIDTH - RIGHT);
            let _ = writeln!(
                svg,
                "<rect x=\"{x0:.1}\" y=\"{plot_top:.1}\" width=\"{:.1}\" height=\"{PLOT}\" fill=\"#cf222e\" fill-opacity=\"0.12\"><title>a claim drifted from {} to {}</title></rect>",
                x1 - x0,
                history.verdicts[start].commit.short,
                history.verdicts[end].commit.short
            );
        }
        // A step line: a value holds until the commit that changes it; a gap
        // where the fact is unverified.
        let mut path = String::new();
        let mut pen_down = false;
        for (i, v) in numbers.iter().enumerate() {
            match v {
                Some(v) => {
                    let (x, y) = (x_of(i), y_of(*v));
                    if pen_down {
                        let _ = write!(path, " H{x:.1} V{y:.1}");
                    } else {
                        let _ = write!(path, " M{x:.1} {y:.1}");
                        pen_down = true;
                    }
                }
                None => pen_down = false,
            }
        }
        let _ = writeln!(
            svg,
            "<path d=\"{}\" fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"1.5\"/>",
            path.trim_start()
        );
        // Every change gets its line (and a tooltip); a label only where it
        // does not run into the one before.
        let mut last_label = f64::NEG_INFINITY;
        for change in &fact.changes {
            let Some(i) = history
                .verdicts
                .iter()
                .position(|v| v.commit.id == change.commit.id)
            else {
                continue;
            };
            let x = x_of(i);
            let tip = xml(&format!(
                "{} -> {}: {}",
                change.from,
                change.to,
                culprit(&change.commit)
            ));
            let _ = writeln!(
                svg,
                "<line x1=\"{x:.1}\" y1=\"{plot_top:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#d29922\" stroke-dasharray=\"2,2\"><title>{tip}</title></line>",
                plot_top + PLOT,
            );
            if x - last_label >= 60.0 {
                last_label = x;
                let _ = writeln!(
                    svg,
                    "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#9a6700\">{}<title>{tip}</title></text>",
                    plot_top + PLOT + 12.0,
                    change.commit.short,
                );
            }
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

/// The runs of commits (first and last index, inclusive) where any claim of
/// `fact` is drifted, from each claim's status changes.
fn drifted_spans(fact: &crate::history::FactHistory, history: &History) -> Vec<(usize, usize)> {
    let n = history.verdicts.len();
    let mut drifted = vec![false; n];
    for claim in &fact.claims {
        let mut state = claim
            .changes
            .first()
            .map_or(claim.status.name(), |c| c.from.as_str());
        let mut changes = claim.changes.iter().peekable();
        for (i, verdict) in history.verdicts.iter().enumerate() {
            if let Some(change) = changes.next_if(|c| c.commit.id == verdict.commit.id) {
                state = change.to.as_str();
            }
            drifted[i] |= state == "drifted";
        }
    }
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &d) in drifted.iter().enumerate() {
        match (d, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i - 1));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, n - 1));
    }
    spans
}

fn label(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        crate::number::group_thousands(v as i128)
    } else {
        format!("{v:.3}")
    }
}

fn xml(text: &str) -> String {
    shown(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
