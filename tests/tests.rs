//! keyheat's integration tests: one binary, one module per concern.

mod util;

mod cli;
mod determinism;
mod oracles;
mod scenario_errors;
