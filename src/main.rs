//! The `keyheat` binary: parse the command line, run, exit with its code.

fn main() -> std::process::ExitCode {
    keyheat::cli::main()
}
