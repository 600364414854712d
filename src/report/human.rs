//! The human report: one miette diagnostic per finding (the record's line with
//! the stated value underlined, a help line with the recomputed value and its
//! recipe), then a table of the facts and a one-line summary.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use comfy_table::{ContentArrangement, Table, presets};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::{FactEntry, Report, escape};
use crate::checks::{Finding, Severity};
use crate::lines::IndexedSource;

/// Rendering choices the CLI makes (colour is decided there: terminal, NO_COLOR).
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    /// Column width for diagnostics and tables (the CLI passes `COLUMNS`, else
    /// 100, so output does not depend on a terminal it cannot see).
    pub width: usize,
    /// Plain ASCII for boxes and marks: a terminal that cannot draw Unicode
    /// (`TERM=dumb`, a locale that is not UTF-8).
    pub ascii: bool,
    /// The summary wrapped at the width, between words (on a terminal), or
    /// kept one line (for a log, a pipe, a program).
    pub wrap_summary: bool,
}

impl Style {
    /// The miette theme this style draws diagnostics with: ASCII or Unicode
    /// marks, colour only when asked.
    pub fn theme(self) -> GraphicalTheme {
        let styles = if self.color {
            miette::ThemeStyles::ansi()
        } else {
            miette::ThemeStyles::none()
        };
        let characters = if self.ascii {
            miette::ThemeCharacters::ascii()
        } else {
            miette::ThemeCharacters::unicode()
        };
        GraphicalTheme { characters, styles }
    }
}

impl Default for Style {
    fn default() -> Self {
        Style {
            color: false,
            width: 100,
            ascii: false,
            wrap_summary: false,
        }
    }
}

/// A finding as a miette diagnostic. Its message, label and help carry outside
/// text (stated values, cites, paths), so each is held escaped.
struct FindingDiagnostic<'a> {
    finding: &'a Finding,
    message: String,
    /// The lines around the finding, cut to a window ([`IndexedSource::around`]),
    /// and the finding's span in them.
    source: Option<(IndexedSource, std::ops::Range<usize>)>,
    label: String,
    help: Option<String>,
}

impl std::fmt::Debug for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::fmt::Display for FindingDiagnostic<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FindingDiagnostic<'_> {}

impl Diagnostic for FindingDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        Some(Box::new(self.finding.check.as_str()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|(s, _)| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (_, span) = self.source.as_ref()?;
        Some(Box::new(std::iter::once(LabeledSpan::new(
            Some(self.label.clone()),
            span.start,
            span.len(),
        ))))
    }
}

fn help_for(finding: &Finding) -> Option<String> {
    let mut help = String::new();
    if let Some(recipe) = &finding.recipe {
        let _ = write!(help, "recomputed by {}", recipe.summary());
    }
    if let Some(rule) = &finding.rule
        && rule.path != finding.location.path
    {
        if !help.is_empty() {
            help.push('\n');
        }
        let _ = write!(help, "rule: {}:{}:{}", rule.path, rule.line, rule.column);
    }
    if let Some(diff) = &finding.diff {
        if !help.is_empty() {
            help.push('\n');
        }
        let _ = write!(help, "the block against the tree:\n{}", diff.text());
    }
    (!help.is_empty()).then_some(help)
}

/// Renders every finding as a diagnostic, then the facts table and the summary;
/// no line of it can start a CI workflow command.
pub fn render(report: &Report, style: Style) -> String {
    let mut out = render_findings(report, style);
    if !report.facts.is_empty() {
        out.push_str(&facts_table(&report.facts, style));
        out.push('\n');
    }
    // On a terminal the summary wraps between words at the width, as the
    // diagnostics do.
    let width = if style.wrap_summary {
        style.width
    } else {
        usize::MAX
    };
    for line in textwrap::wrap(
        &summary(report),
        textwrap::Options::new(width)
            .break_words(false)
            .word_separator(textwrap::WordSeparator::AsciiSpace)
            .word_splitter(textwrap::WordSplitter::NoHyphenation),
    ) {
        out.push_str(&line);
        out.push('\n');
    }
    escape::guard_lines(&out).into_owned()
}

/// The findings alone, one diagnostic each.
pub fn render_findings(report: &Report, style: Style) -> String {
    let handler = GraphicalReportHandler::new_themed(style.theme())
        .with_links(false)
        .with_width(style.width)
        // A line wraps at spaces, never inside a word ("whe" / "n") nor a
        // path (`packages/` / `quarry-core/…`).
        .with_break_words(false)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut out = String::new();
    // One indexed source per file, shared by every finding in it.
    let mut sources: BTreeMap<&str, IndexedSource> = BTreeMap::new();
    for finding in &report.findings {
        let path = finding.location.path.as_str();
        let source = match sources.get(path) {
            Some(source) => Some(source.clone()),
            None => report.sources.get(path).map(|text| {
                let source = IndexedSource::new(path, Arc::clone(text));
                sources.insert(path, source.clone());
                source
            }),
        };
        let shown = |text: &str| escape::untrusted_lines(text, escape::LINE_CAP).into_owned();
        let loc = &finding.location;
        let diagnostic = FindingDiagnostic {
            finding,
            message: shown(&finding.message),
            source: source.map(|s| s.around(loc.offset..loc.offset + loc.length)),
            label: shown(&finding.check.label(finding)),
            help: with_cause(help_for(finding), finding.cause.as_ref()).map(|help| shown(&help)),
        };
        if diagnostic.source.is_none() {
            let _ = writeln!(
                out,
                "{}:{}:{}: {}",
                escape::untrusted(&finding.location.path, escape::VALUE_CAP),
                finding.location.line,
                finding.location.column,
                finding.check
            );
        }
        let _ = handler.render_report(&mut out, &diagnostic);
        out.push('\n');
    }
    out
}

/// The help lines, and under `--since` what in the range made the finding.
fn with_cause(help: Option<String>, cause: Option<&super::Cause>) -> Option<String> {
    let Some(cause) = cause else {
        return help;
    };
    let mut said = cause.summary();
    if let Some(subject) = &cause.subject {
        let _ = write!(said, ": {subject}");
    }
    Some(match help {
        Some(help) => format!("{said}\n{help}"),
        None => said,
    })
}

/// The table preset a style draws with.
pub fn table_preset(style: Style) -> comfy_table::TableStyle {
    if style.ascii {
        presets::ASCII_FULL_CONDENSED
    } else {
        presets::UTF8_FULL_CONDENSED
    }
}

/// The facts table: id, value, frame, claims ok / drifted. Long values wrap
/// inside their cells, so the table fits `style.width`.
pub fn facts_table(facts: &[FactEntry], style: Style) -> String {
    let mut table = Table::new();
    table
        .load_style(table_preset(style))
        .force_no_tty()
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(u16::try_from(style.width).unwrap_or(u16::MAX))
        .set_header(vec![
            "fact",
            "kind",
            "value",
            "frame",
            "claims ok",
            "drifted",
            "not found",
        ]);
    let shown = |text: &str| escape::untrusted(text, escape::VALUE_CAP).into_owned();
    for fact in facts {
        table.add_row(vec![
            shown(&fact.id),
            fact.kind.to_owned(),
            fact.value
                .as_deref()
                .map_or_else(|| "unverified".to_owned(), shown),
            shown(&fact.frame),
            fact.claims.ok.to_string(),
            fact.claims.drifted.to_string(),
            fact.claims.not_found.to_string(),
        ]);
    }
    table.to_string()
}

/// `3 findings (2 fact-drift, 1 claim-not-found) over 9 facts at working tree`.
pub fn summary(report: &Report) -> String {
    let stated: usize = report.facts.iter().map(|f| f.claims.found).sum();
    let cites = report.citations;
    let mut skipped = if cites.skipped == 0 {
        String::new()
    } else {
        format!(
            "; {} skipped as not this repository's (recount cites)",
            counted(cites.skipped, "citation")
        )
    };
    // A shallow clone's citations judged without their history: a run is
    // never cleaner than it looks.
    if cites.unjudged > 0 {
        skipped.push_str(&format!(
            "; {} judged without the history a shallow clone lacks (fetch it whole: `fetch-depth: 0`)",
            counted(cites.unjudged, "citation")
        ));
    }
    // Silenced findings stay visible in the count, so a run is never cleaner
    // than it looks.
    if !report.suppressed.is_empty() {
        skipped.push_str(&format!("; {} suppressed", report.suppressed.len()));
    }
    // Findings a baseline knows are left out of the report, but counted.
    let tail = match &report.baseline {
        Some(baseline) if baseline.known > 0 => format!(
            "{skipped}; {} in the baseline",
            counted(baseline.known, "known finding")
        ),
        _ => skipped,
    };
    // Re-run transcripts join the count only where there are some.
    let rerun = report.transcripts.map_or(0, |t| t.rerun);
    if report.findings.is_empty() {
        return if rerun == 0 {
            format!(
                "clean: {}, {} and {} agree with {}{tail}",
                counted(report.facts.len(), "fact"),
                counted(stated, "stated place"),
                counted(cites.checked, "citation"),
                report.snapshot.label
            )
        } else {
            format!(
                "clean: {}, {}, {} and {} agree with {}{tail}",
                counted(report.facts.len(), "fact"),
                counted(stated, "stated place"),
                counted(cites.checked, "citation"),
                counted(rerun, "re-run transcript"),
                report.snapshot.label
            )
        };
    }
    let mut by_check = std::collections::BTreeMap::new();
    for f in &report.findings {
        *by_check.entry(f.check.as_str()).or_insert(0usize) += 1;
    }
    let parts: Vec<String> = by_check.iter().map(|(c, n)| format!("{n} {c}")).collect();
    let over = if rerun == 0 {
        format!(
            "{} and {}",
            counted(report.facts.len(), "fact"),
            counted(cites.checked, "citation")
        )
    } else {
        format!(
            "{}, {} and {}",
            counted(report.facts.len(), "fact"),
            counted(cites.checked, "citation"),
            counted(rerun, "re-run transcript")
        )
    };
    format!(
        "{} ({}) over {over} at {}{tail}",
        counted(report.findings.len(), "finding"),
        parts.join(", "),
        report.snapshot.label
    )
}

/// `1 fact`, `2 facts`.
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
