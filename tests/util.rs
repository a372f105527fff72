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
    match simulate(&s, &Options::default()) {
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

/// Whether a test that needs the external program `program` (a real
/// `redis-server`, `redis-cli`, `chromium`) can run. When it is not on the
/// machine the test is skipped with a visible message on stderr, unless
/// `KEYHEAT_REQUIRE_SERVERS=1` (which `.ci/run` sets after installing them):
/// then a missing program fails the test with `install` as the fix.
pub fn server_available(program: &str, found: bool, install: &str) -> bool {
    if found {
        return true;
    }
    let required = std::env::var("KEYHEAT_REQUIRE_SERVERS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{program} is not on this machine and KEYHEAT_REQUIRE_SERVERS=1: {install}"
    );
    // Written to the process's stderr directly, not through `eprintln!`,
    // which the test harness captures and hides for a passing test.
    // The harness names each test's thread after the test.
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {test}: {program} is not on this machine, so this test did not run \
         ({install}; set KEYHEAT_REQUIRE_SERVERS=1 to make its absence fail instead)"
    );
    false
}

/// The real CloudPhysics trace in `../shared/traces/` (the project's shared
/// folder beside the clone, as `.ci/run` has it), or `None` after a visible
/// `SKIPPED:` line when it is not there — unless `KEYHEAT_REQUIRE_SERVERS=1`,
/// which makes its absence fail.
pub fn shared_trace() -> Option<std::path::PathBuf> {
    let path = root().join("../shared/traces/cloudphysics_io.csv");
    server_available(
        "the CloudPhysics trace",
        path.is_file(),
        "put the project's shared/ folder beside the clone: ../shared/traces/cloudphysics_io.csv",
    )
    .then_some(path)
}

/// Whether `program --version` runs (it is on PATH and starts).
pub fn program_runs(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Simulates `s` and judges the results (what `keyheat run` does before
/// writing): the engine's numbers with their verdicts, recommendation and
/// checklist.
pub fn simulate(s: &Scenario, options: &Options) -> keyheat::Result<RunResults> {
    let mut r = engine::run(s, options, &|_| {})?;
    keyheat::verdicts::judge(s, &mut r)?;
    Ok(r)
}

/// The `summary.json` a run wrote into `dir`, parsed.
pub fn summary_json(dir: &std::path::Path) -> serde_json::Value {
    let bytes = std::fs::read(dir.join("summary.json")).expect("summary.json written");
    serde_json::from_slice(&bytes).expect("summary.json is JSON")
}
