//! `recount cites`: every citation recount found in the records, its kind, where
//! it resolved and its status — what recount understood, before any judgement.

use clap::Args;
use comfy_table::{ContentArrangement, Table};

use super::{EXIT_CLEAN, Format, Target, print_notes, print_out};
use crate::checks::cites::CiteStatus;
use crate::escape;

#[derive(Debug, Args)]
pub struct CitesArgs {
    #[command(flatten)]
    pub target: Target,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also show the commit that wrote each citation into its record (the
    /// oldest of the unbroken first-parent run whose record holds it as
    /// written), found for every citation as the history evidence finds it
    /// for the ones it judges.
    #[arg(long)]
    pub written: bool,
}

/// The commit that wrote a cite into its record, and its day (UTC).
#[derive(serde::Serialize)]
struct Written {
    commit: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
}

impl Written {
    fn of(repo: &crate::snapshot::GitRepo, commit: git2::Oid) -> Written {
        Written {
            commit: commit.to_string(),
            date: repo.commit_day(commit).map(|d| d.to_string()),
        }
    }

    /// `e1d248a5 (2026-09-14)`, or what stands in for a cite no commit wrote.
    fn shown(written: Option<&Written>) -> String {
        match written {
            Some(w) => {
                let short = w.commit.get(..8).unwrap_or(&w.commit);
                match &w.date {
                    Some(day) => format!("{short} ({day})"),
                    None => short.to_owned(),
                }
            }
            None => "not committed".to_owned(),
        }
    }
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
    // The working tree's records are read back from HEAD, as the evidence
    // reads them: a cite HEAD's record lacks is not written yet.
    let written: Option<Vec<Option<Written>>> = if args.written {
        let repo = crate::audit::open_repo(args.target.repo.as_deref())?;
        let texts: std::collections::BTreeMap<String, std::sync::Arc<str>> = audit
            .records
            .iter()
            .map(|(path, record)| (path.clone(), record.text.clone()))
            .collect();
        let cites: Vec<_> = rows.iter().map(|(c, _)| (*c).clone()).collect();
        let at = audit.commit.as_deref().unwrap_or("HEAD");
        let commits = crate::checks::cites::evidence::writing_commits(&repo, at, &cites, &texts);
        Some(
            commits
                .into_iter()
                .map(|c| c.map(|id| Written::of(&repo, id)))
                .collect(),
        )
    } else {
        None
    };
    match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .enumerate()
                .map(|(i, (c, at))| {
                    let mut v = serde_json::to_value(c).unwrap_or_default();
                    v["at"] = serde_json::Value::from(at.as_str());
                    if let Some(written) = &written {
                        v["written"] = serde_json::to_value(&written[i]).unwrap_or_default();
                    }
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
            let mut out = crate::escape::json_pretty(&document)
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
                        wrap_summary: false,
                        ..Default::default()
                    },
                ))
                .force_no_tty()
                // Long paths and reasons wrap inside their cells, so the table
                // fits the terminal (`COLUMNS`, else 100 columns).
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(super::output_width())
                .set_header(if written.is_some() {
                    vec!["at", "kind", "cite", "frame", "written", "status"]
                } else {
                    vec!["at", "kind", "cite", "frame", "status"]
                });
            for (i, (c, at)) in rows.iter().enumerate() {
                let status = match &c.status {
                    CiteStatus::Ok { resolved } => format!("ok: {resolved}"),
                    CiteStatus::Historical => "history (not checked)".to_owned(),
                    CiteStatus::Unverified { why } => format!("unverified: {why}"),
                    CiteStatus::Skipped { exemption, why } => {
                        format!("skipped ({exemption}): {why}")
                    }
                    CiteStatus::Stale {
                        why,
                        suggestion,
                        guessed: _,
                    } => match suggestion {
                        Some(s) => format!("stale: {why}; did you mean `{s}`?"),
                        None => format!("stale: {why}"),
                    },
                };
                let shown = |text: &str| escape::untrusted(text, escape::VALUE_CAP).into_owned();
                let mut row = vec![
                    shown(at),
                    c.kind.as_str().to_owned(),
                    shown(&c.text),
                    shown(&match &c.frame_from {
                        Some(from) => format!("{} ({from})", c.frame),
                        None => c.frame.clone(),
                    }),
                ];
                if let Some(written) = &written {
                    row.push(Written::shown(written[i].as_ref()));
                }
                row.push(shown(&status));
                table.add_row(row);
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
