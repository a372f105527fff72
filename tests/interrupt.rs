//! Interrupted runs: SIGINT or SIGTERM while the output folder is written
//! removes the temporary folder and leaves the earlier output (or none) in
//! place, with exit code 128 + the signal.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A scenario of 40 tables: quick to simulate, about half a second of
/// charts to write — time to signal the run while it writes.
fn many_tables() -> String {
    let mut text = String::from(
        "schema_version = 1\nname = \"many\"\n[store]\nkind = \"generic\"\npartitions = 4\n\
         partition_write_limit = 1000\n[simulation]\ntrials = 2\nduration = \"1m\"\n\
         [[entity]]\nname = \"u\"\ncount = 100\n",
    );
    for i in 0..40 {
        text.push_str(&format!(
            "[[table]]\nname = \"t{i}\"\npartition_key = \"U#{{u}}\"\nitem_size = \"1KB\"\n"
        ));
    }
    for i in 0..40 {
        text.push_str(&format!(
            "[[access_pattern]]\nname = \"w{i}\"\ntable = \"t{i}\"\noperation = \"put\"\nrate = 10\nby = \"u\"\n"
        ));
    }
    text
}

/// Starts `keyheat run scenario --out out --quiet --seed seed`.
fn start(scenario: &Path, out: &Path, seed: u64) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("keyheat"))
        .arg("run")
        .arg(scenario)
        .arg("--out")
        .arg(out)
        .args(["--quiet", "--seed", &seed.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("keyheat starts")
}

/// Names in `dir` that a run writes beside its output (`.kh-…`).
fn siblings(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".kh-"))
                .collect()
        })
        .unwrap_or_default()
}

/// Starts a run into `dir/run`, sends `signal` once its temporary folder
/// exists, and returns its exit code.
fn interrupt_while_writing(dir: &Path, scenario: &Path, signal: &str) -> Option<i32> {
    let mut child = start(scenario, &dir.join("run"), 7);
    let started = Instant::now();
    while siblings(dir).is_empty() {
        assert!(
            child.try_wait().ok().flatten().is_none(),
            "the run ended before writing"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no temporary folder"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(Duration::from_millis(30));
    let killed = Command::new("kill")
        .args(["-s", signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    child.wait().expect("the run ends").code()
}

#[test]
fn sigterm_while_writing_removes_the_temporary_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = dir.path().join("many.toml");
    std::fs::write(&scenario, many_tables()).expect("scenario");
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(&runs).expect("runs folder");
    assert_eq!(interrupt_while_writing(&runs, &scenario, "TERM"), Some(143));
    assert_eq!(siblings(&runs), Vec::<String>::new());
    assert!(
        !runs.join("run").exists(),
        "no output: none was there before"
    );
}

#[test]
fn sigint_while_writing_keeps_the_earlier_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = dir.path().join("many.toml");
    std::fs::write(&scenario, many_tables()).expect("scenario");
    let runs = dir.path().join("runs");
    let out = runs.join("run");
    // Another seed than the interrupted run's: another summary.json.
    let first = start(&scenario, &out, 1)
        .wait_with_output()
        .expect("first run");
    assert!(first.status.success());
    let before = std::fs::read(out.join("summary.json")).expect("first output");
    assert_eq!(interrupt_while_writing(&runs, &scenario, "INT"), Some(130));
    assert_eq!(siblings(&runs), Vec::<String>::new());
    assert_eq!(
        std::fs::read(out.join("summary.json")).expect("earlier output kept"),
        before
    );
}
