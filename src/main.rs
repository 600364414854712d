//! The binary: a thin shell over [`recount::cli::run`], which parses, runs and
//! prints; the exit code is its return value.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(recount::cli::run(std::env::args_os()))
}
