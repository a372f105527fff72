//! keyheat's integration tests: one binary, one module per concern.

mod util;

mod cassandra;
mod checklist;
mod cli;
mod determinism;
mod oracles;
mod report_html;
mod redis;
mod scenario_errors;
mod scenarios;
mod agreement;
