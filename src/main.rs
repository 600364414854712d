fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(recount::cli::run(std::env::args_os()))
}
