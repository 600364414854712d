//! `recount transcripts`: every transcript recount found in the records — the
//! command, whether it was re-run, at which commit, and how it fared — what
//! recount understood, before any judgement.

use clap::Args;
use comfy_table::{ContentArrangement, Table};

use super::{EXIT_CLEAN, Format, Target, print_notes, print_out};
use crate::checks::transcripts::TranscriptStatus;
use crate::escape;

#[derive(Debug, Args)]
pub struct TranscriptsArgs {
    #[command(flatten)]
    pub target: Target,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(args: &TranscriptsArgs) -> miette::Result<u8> {
    let audit = crate::audit::run(&args.target.options())?;
    print_notes(&audit.notes);
    let rows: Vec<_> = audit
        .families
        .transcripts
        .iter()
        .map(|t| {
            let (line, column) = audit
                .record(&t.record)
                .map_or((1, 1), |r| r.line_col(t.span.start));
            (t, format!("{}:{line}:{column}", t.record))
        })
        .collect();
    match args.format {
        super::Format::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|(t, at)| {
                    let mut v = serde_json::to_value(t).unwrap_or_default();
                    v["at"] = serde_json::Value::from(at.as_str());
                    v
                })
                .collect();
            let mut out = escape::json_pretty(&list)
                .map_err(|e| miette::miette!("cannot serialise the transcripts: {e}"))?;
            out.push('\n');
            print_out(&out)?;
        }
        super::Format::Human => {
            let mut table = Table::new();
            table
                .load_style(crate::report::human::table_preset(
                    crate::report::human::Style {
                        ascii: super::plain_terminal(),
                        wrap_summary: false,
                        ..Default::default()
                    },
                ))
                .force_no_tty()
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(super::output_width())
                .set_header(vec!["at", "command", "re-run at", "status"]);
            for (t, at) in &rows {
                let status = match &t.status {
                    TranscriptStatus::Agrees => "agrees".to_owned(),
                    TranscriptStatus::Drift {
                        expected, actual, ..
                    } => format!("drift: prints `{actual}`, shown `{expected}`"),
                    TranscriptStatus::NoOutput => "no output shown (asserts nothing)".to_owned(),
                    TranscriptStatus::Claimed { fact } => {
                        format!("checked by fact `{fact}`'s claim")
                    }
                    TranscriptStatus::NotRerun { why } => format!("not re-run: {why}"),
                    TranscriptStatus::Unverified { why } => format!("unverified: {why}"),
                };
                let shown = |text: &str| escape::untrusted(text, escape::VALUE_CAP).into_owned();
                table.add_row(vec![
                    shown(at),
                    shown(&t.command),
                    match (&t.frame, &t.frame_from) {
                        (Some(frame), Some(from)) => format!("{frame} ({from})"),
                        (Some(frame), None) => frame.clone(),
                        (None, _) => "-".to_owned(),
                    },
                    shown(&status),
                ]);
            }
            let count = |f: fn(&TranscriptStatus) -> bool| {
                audit
                    .families
                    .transcripts
                    .iter()
                    .filter(|t| f(&t.status))
                    .count()
            };
            let agrees = count(|s| matches!(s, TranscriptStatus::Agrees));
            let drift = count(|s| matches!(s, TranscriptStatus::Drift { .. }));
            let not_rerun = count(|s| matches!(s, TranscriptStatus::NotRerun { .. }));
            let unverified = count(|s| matches!(s, TranscriptStatus::Unverified { .. }));
            let silent = count(|s| matches!(s, TranscriptStatus::NoOutput));
            print_out(&escape::guard_lines(&format!(
                "{table}\n{} transcript{}: {agrees} agree, {drift} drift, {unverified} unverified, {not_rerun} not re-run, {silent} with no output shown\n",
                audit.families.transcripts.len(),
                if audit.families.transcripts.len() == 1 {
                    ""
                } else {
                    "s"
                }
            )))?;
        }
    }
    Ok(EXIT_CLEAN)
}
