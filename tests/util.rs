//! Helpers shared by the integration tests.

use keyheat::engine::{self, Options};
use keyheat::{RunResults, Scenario};

/// Parses scenario text, panicking with the error message (tests only).
pub fn scenario(text: &str) -> Scenario {
    match Scenario::from_str_at(text, "test.toml") {
        Ok(s) => s,
        Err(e) => panic!("scenario did not parse: {e}"),
    }
}

/// Runs a scenario text on rayon's default pool.
pub fn run(text: &str) -> RunResults {
    let s = scenario(text);
    match engine::run(&s, &Options::default(), &|_| {}) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}"),
    }
}

/// Runs on a pool of `threads` threads.
pub fn run_threads(text: &str, threads: usize) -> RunResults {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| run(text))
}

/// The folder holding the crate (for scenarios/).
pub fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
