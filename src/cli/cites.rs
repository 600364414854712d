//! `recount cites`: every citation recount found in the records, its kind, where
//! it resolved and its status — what recount understood, before any judgement.

use clap::Args;
use comfy_table::{ContentArrangement, Table};

use super::{EXIT_CLEAN, Format, Target, print_notes, print_out};
use crate::checks::cites::CiteStatus;
use crate::report::escape;

#[derive(Debug, Args)]
pub struct CitesArgs {
    #[command(flatten)]
    pub target: Target,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(args: &CitesArgs) -> miette::Result<u8> {
    let audit = crate::audit::run(&args.target.options())?;
    print_notes(&audit.notes);
    let mut rows: Vec<_> = audit
        .families
        .cites
        .iter()
        .map(|c| {
            let (line, column) = audit
                .record(&c.record)
                .map_or((1, 1), |r| r.line_col(c.span.start));
            (c, format!("{}:{line}:{column}", c.record))
        })
        .collect();
    rows.sort_by(|a, b| (&a.0.record, a.0.span.start).cmp(&(&b.0.record, b.0.span.start)));
    match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|(c, at)| {
                    let mut v = serde_json::to_value(c).unwrap_or_default();
                    v["at"] = serde_json::Value::from(at.as_str());
                    v
                })
                .collect();
            let document = crate::report::json::CitesDocument {
                schema_version: crate::report::json::LISTING_VERSION,
                recount_version: env!("CARGO_PKG_VERSION"),
                snapshot: crate::report::SnapshotRef {
                    label: audit.snapshot_label.clone(),
                    commit: audit.commit.clone(),
                },
                citations: list,
            };
            let mut out = crate::report::escape::json_pretty(&document)
                .map_err(|e| miette::miette!("cannot serialise the cites: {e}"))?;
            out.push('\n');
            print_out(&out)?;
        }
        Format::Human => {
            let mut table = Table::new();
            table
                .load_style(crate::report::human::table_preset(
                    crate::report::human::Style {
                        ascii: super::plain_terminal(),
                        ..Default::default()
                    },
                ))
                .force_no_tty()
                // Long paths and reasons wrap inside their cells, so the table
                // fits the terminal (`COLUMNS`, else 100 columns).
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(super::output_width())
                .set_header(vec!["at", "kind", "cite", "frame", "status"]);
            for (c, at) in &rows {
                let status = match &c.status {
                    CiteStatus::Ok { resolved } => format!("ok: {resolved}"),
                    CiteStatus::Historical => "history (not checked)".to_owned(),
                    CiteStatus::Unverified { why } => format!("unverified: {why}"),
                    CiteStatus::Skipped { exemption, why } => {
                        format!("skipped ({exemption}): {why}")
                    }
                    CiteStatus::Stale { why, suggestion } => match suggestion {
                        Some(s) => format!("stale: {why}; did you mean `{s}`?"),
                        None => format!("stale: {why}"),
                    },
                };
                let shown = |text: &str| escape::untrusted(text, escape::VALUE_CAP).into_owned();
                table.add_row(vec![
                    shown(at),
                    c.kind.as_str().to_owned(),
                    shown(&c.text),
                    shown(&match &c.frame_from {
                        Some(from) => format!("{} ({from})", c.frame),
                        None => c.frame.clone(),
                    }),
                    shown(&status),
                ]);
            }
            let count = |f: fn(&CiteStatus) -> bool| {
                audit.families.cites.iter().filter(|c| f(&c.status)).count()
            };
            let stale = count(|s| matches!(s, CiteStatus::Stale { .. }));
            let skipped = count(|s| matches!(s, CiteStatus::Skipped { .. }));
            let unverified = count(|s| matches!(s, CiteStatus::Unverified { .. }));
            print_out(&escape::guard_lines(&format!(
                "{table}\n{} citations: {stale} stale, {unverified} unverified, {skipped} skipped as not this repository's\n",
                audit.families.cites.len()
            )))?;
        }
    }
    Ok(EXIT_CLEAN)
}
