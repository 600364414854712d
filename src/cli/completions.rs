//! `recount completions SHELL` and `recount man`: shell completion scripts and a
//! man page, generated from the same clap definitions as `--help`.

use clap::{Args, CommandFactory};

use super::{Cli, EXIT_CLEAN, print_bytes};

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

// Both are generated into memory first: clap_complete panics on a write error
// (`recount completions fish | head -c1`), and the CLI decides what a closed
// pipe or a full disk means, in one place.

pub fn completions(args: &CompletionsArgs) -> miette::Result<u8> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "recount", &mut script);
    print_bytes(&script)?;
    Ok(EXIT_CLEAN)
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A subcommand whose own page to print (`recount man check` is
    /// recount-check(1)); none prints recount(1).
    pub subcommand: Option<String>,
}

/// The EXIT STATUS section every page carries: the codes are the same for
/// every subcommand, and scripts branch on them.
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Clean: every fact, claim and citation agrees with the tree (or, for
\fBvalidate\fR, the call is accepted).
.TP
\fB1\fR
Findings: at least one, at or above \fB\-\-fail\-on\fR (or the call is refused).
.TP
\fB2\fR
recount could not run: bad input (a rule file, a record, a revision, a schema, a
JSON document), located where possible, or an output that cannot be written.
.PP
\fBbisect\fR exits 0 when it names the culprit commit, 1 when the range holds
none (the claim is not drifted at the range's newest commit, or is drifted
already at its oldest), 2 when it cannot run. \fBhistory\fR exits 0 when it
ran (drift is in the report, not the exit code), 2 when it cannot run.
"#;

pub fn man(args: &ManArgs) -> miette::Result<u8> {
    let root = Cli::command();
    let command = match &args.subcommand {
        None => root,
        Some(name) => {
            let Some(sub) = root.find_subcommand(name) else {
                let names: Vec<&str> = root.get_subcommands().map(|c| c.get_name()).collect();
                return Err(miette::miette!(
                    help = format!("one of: {}", names.join(", ")),
                    "no subcommand `{}` has a man page",
                    crate::escape::untrusted(name, crate::escape::VALUE_CAP)
                ));
            };
            sub.clone().name(format!("recount-{name}"))
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| miette::miette!("cannot render the man page: {e}"))?;
    page.extend_from_slice(EXIT_STATUS.as_bytes());
    print_bytes(&page)?;
    Ok(EXIT_CLEAN)
}
