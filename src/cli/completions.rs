//! `recount completions SHELL` and `recount man`: shell completion scripts and a
//! man page, generated from the same clap definitions as `--help`.

use clap::{Args, CommandFactory};

use super::{Cli, EXIT_CLEAN};

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn completions(args: &CompletionsArgs) -> miette::Result<u8> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "recount", &mut out);
    Ok(EXIT_CLEAN)
}

pub fn man() -> miette::Result<u8> {
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| miette::miette!("cannot write the man page: {e}"))?;
    Ok(EXIT_CLEAN)
}
