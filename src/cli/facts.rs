//! `recount facts`: the facts table alone — what each rule computes, claims or not.

use clap::Args;

use super::{EXIT_CLEAN, Format, Target, print_notes, print_out};
use crate::report;

#[derive(Debug, Args)]
pub struct FactsArgs {
    #[command(flatten)]
    pub target: Target,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(args: &FactsArgs) -> miette::Result<u8> {
    // The facts table alone: the record hygiene (citations, transcripts) is
    // neither computed nor printed here.
    let options = crate::audit::AuditOptions {
        facts_only: true,
        ..args.target.options()
    };
    let report = crate::check(&options)?;
    print_notes(&report.notes);
    match args.format {
        Format::Human => {
            let style = report::human::Style {
                color: false,
                width: usize::from(super::output_width()),
                ascii: super::plain_terminal(),
                wrap_summary: false,
            };
            let mut out = report::human::facts_table(&report.facts, style);
            out.push('\n');
            print_out(&out)?;
        }
        Format::Json => {
            let document = crate::report::json::FactsDocument::of(&report);
            let mut out = crate::escape::json_pretty(&document)
                .map_err(|e| miette::miette!("cannot serialise the facts: {e}"))?;
            out.push('\n');
            print_out(&out)?;
        }
    }
    Ok(EXIT_CLEAN)
}
