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

pub fn man() -> miette::Result<u8> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| miette::miette!("cannot render the man page: {e}"))?;
    print_bytes(&page)?;
    Ok(EXIT_CLEAN)
}
