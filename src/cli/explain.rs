//! `recount explain [ID]`: a check's documentation, or the list of checks.

use clap::Args;

use super::{EXIT_CLEAN, print_out};
use crate::checks::CheckId;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A check id (for example fact-drift); none lists every check.
    #[arg(value_parser = check_ids())]
    pub id: Option<String>,
}

/// The check ids, offered by shell completion and checked by clap (which also
/// suggests the nearest id for a typo).
fn check_ids() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(CheckId::ALL.iter().map(|c| c.as_str()))
}

pub fn run(args: &ExplainArgs) -> miette::Result<u8> {
    match &args.id {
        None => {
            let mut out = String::new();
            for check in CheckId::ALL {
                let first = check.explain().lines().next().unwrap_or_default();
                out.push_str(&format!("{first} ({})\n", check.severity().as_str()));
            }
            print_out(&out)?;
        }
        Some(id) => {
            let check = CheckId::from_name(id).ok_or_else(|| {
                let known: Vec<_> = CheckId::ALL.iter().map(|c| c.as_str()).collect();
                miette::miette!(
                    help = format!("checks: {}", known.join(", ")),
                    "no check named `{id}`"
                )
            })?;
            print_out(&format!(
                "{}\nDefault severity\n  {} (`--fail-on error` lets warnings through)\n",
                check.explain(),
                check.severity().as_str()
            ))?;
        }
    }
    Ok(EXIT_CLEAN)
}
