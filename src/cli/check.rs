//! `recount check`: the docs-drift gate. Audits, prints the report, exits 1 on
//! findings at or above `--fail-on`.

use clap::{Args, ValueEnum};

use super::{EXIT_CLEAN, EXIT_FINDINGS, Target, print_notes, print_out};
use crate::checks::Severity;
use crate::report::{self, Report};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub target: Target,
    /// Output format: diagnostics and a table, the JSON report, GitHub Actions
    /// annotations, or SARIF 2.1.0 for code scanning.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// The lowest severity that fails the run (exit 1).
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Human,
    Json,
    Github,
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Warning,
    Error,
    Never,
}

pub fn run(args: &CheckArgs, color: bool) -> miette::Result<u8> {
    let report = match crate::check(&args.target.options()) {
        Ok(report) => report,
        Err(error) => {
            // The diagnostic goes to stderr as for every format (the caller
            // prints it); a machine-read format also says why on stdout.
            let failed = || {
                let snapshot = args.target.rev.as_deref().unwrap_or("working tree");
                Report::failed(snapshot, report::RunError::from_diagnostic(&error))
            };
            // The run's own error is what stderr reports; a write error here
            // would only hide it.
            let _ = match args.format {
                CheckFormat::Human => Ok(()),
                CheckFormat::Json => print_out(&report::json::render(&failed())),
                CheckFormat::Github => print_out(&report::github::render(&failed())),
                CheckFormat::Sarif => print_out(&report::sarif::render(&failed())),
            };
            return Err(error.into());
        }
    };
    print_notes(&report.notes);
    match args.format {
        CheckFormat::Human => print_out(&report::human::render(
            &report,
            report::human::Style {
                color,
                width: usize::from(super::output_width()),
            },
        )),
        CheckFormat::Json => print_out(&report::json::render(&report)),
        CheckFormat::Github => print_out(&report::github::render(&report)),
        CheckFormat::Sarif => print_out(&report::sarif::render(&report)),
    }?;
    Ok(exit_code(&report, args.fail_on))
}

fn exit_code(report: &Report, fail_on: FailOn) -> u8 {
    let fails = match fail_on {
        FailOn::Warning => report.fails(Severity::Warning),
        FailOn::Error => report.fails(Severity::Error),
        FailOn::Never => false,
    };
    if fails { EXIT_FINDINGS } else { EXIT_CLEAN }
}
