//! `recount fixture CASE DEST`: builds a fixture's commit series into a new git
//! repository with fixed dates, so its commit ids are the ones its records name.

use std::path::PathBuf;

use clap::Args;

use super::{EXIT_CLEAN, print_out};

#[derive(Debug, Args)]
pub struct FixtureArgs {
    /// The fixture folder (holds commits/NN-slug/ trees).
    pub case: PathBuf,
    /// Where to create the repository (must not exist or be empty).
    pub dest: PathBuf,
}

pub fn run(args: &FixtureArgs) -> miette::Result<u8> {
    let built =
        crate::fixture::build(&args.case, &args.dest).map_err(|e| miette::miette!("{e}"))?;
    let mut out = String::new();
    for (name, oid) in &built.commits {
        out.push_str(&format!("{oid}  {name}\n"));
    }
    print_out(&out)?;
    Ok(EXIT_CLEAN)
}
