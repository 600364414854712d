// Cargo.toml can only deny unsafe code (one bench needs it); the binary forbids it.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(recount::cli::run(std::env::args_os()))
}
