//! The binary: exit codes, outputs, errors.

use crate::util::root;
use assert_cmd::Command;

fn keyheat() -> Command {
    Command::cargo_bin("keyheat").unwrap()
}

#[test]
fn run_writes_every_contract_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    keyheat()
        .args([
            "run",
            "scenarios/orders-by-date.toml",
            "--trials",
            "8",
            "--out",
        ])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    for f in [
        "summary.json",
        "partitions.csv",
        "keys.csv",
        "timeseries.csv",
        "report.md",
        "load-orders.png",
        "load-orders.svg",
        "heatmap-orders.png",
        "heatmap-orders.svg",
        "growth-orders.png",
        "growth-orders.svg",
    ] {
        let p = out.join(f);
        assert!(
            p.is_file() && std::fs::metadata(&p).unwrap().len() > 0,
            "missing {f}"
        );
    }
}

/// A write-only design's read units are +0 in summary.json, not `-0.0`
/// (an empty float sum is −0; helper-65 found `"read": -0.0`).
#[test]
fn summary_json_has_no_negative_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    run_quiet("scenarios/cassandra-node-disk.toml", &[], &out);
    let text = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(text.contains("\"mean_units_per_s\""));
    assert!(!text.contains("-0.0"), "a -0.0 in summary.json");
}

/// A quiet `keyheat run` of a shipped scenario at 4 trials with `extra`
/// flags, into `out`: its stdout (the run must succeed).
fn run_quiet(scenario: &str, extra: &[&str], out: &std::path::Path) -> String {
    let a = keyheat()
        .args(["run", scenario, "--trials", "4", "--quiet"])
        .args(extra)
        .arg("--out")
        .arg(out)
        .current_dir(root())
        .assert()
        .success();
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

/// The report's "To reproduce" line carries the budget a run was given: a
/// run over the default budget is refused without it.
#[test]
fn the_reproduce_line_carries_the_runs_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    run_quiet("scenarios/orders-by-date.toml", &["--max-work", "96"], &out);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("`keyheat run <scenario file> --seed 42 --trials 4 --max-work 96`"),
        "{md}"
    );
}

/// The terminal names the checklist items a design flags: a design that
/// passes every simulated check was shown as passing everything while the
/// report's checklist failed two items (a new user's Redis design).
#[test]
fn the_terminal_names_the_checklist_items_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = run_quiet(
        "scenarios/redis-hot-keys-fixed.toml",
        &[],
        &dir.path().join("o"),
    );
    assert!(
        stdout.contains(
            "checklist: 2 of 14 items flagged (design review, reasons in report.md): \
             key_cardinality on promos (fail), ephemeral_ttl on sessions (fail)\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "recommendation: base — the base design already passes every simulated check; no change needed \
             (the design-review checklist flags 2: key_cardinality on promos (fail), ephemeral_ttl on sessions (fail))"
        ),
        "{stdout}"
    );
}

#[test]
fn bad_input_exits_2_and_leaves_no_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "schema_version = 1\nname = \"x\"\n[store]\nkind = \"dynamodb\"\n[[table]]\nname = \"t\"\npartition_key = \"{nobody}\"\nitem_size = \"1KB\"\n").unwrap();
    let out = dir.path().join("out");
    let assert = keyheat()
        .args(["run"])
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(err.contains("bad.toml:7:"), "{err}");
    assert!(!out.exists());
}

/// A table whose every item is over the store's item ceiling cannot be
/// stored: `check` and `run` refuse it at its item_size line (DynamoDB's
/// 400 KiB = 409,600 B), before the work budget speaks of partitions sized
/// by data that never exists; a variant that sets such a size is named.
/// Exactly the ceiling is a size the store keeps.
#[test]
fn items_all_over_the_item_ceiling_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = |size: &str, variant: &str| {
        format!(
            "schema_version = 1\nname = \"x\"\n[store]\nkind = \"dynamodb\"\n\n[[entity]]\nname = \"user\"\ncount = 1000\n\n[[table]]\nname = \"blobs\"\npartition_key = \"{{user}}\"\nitem_size = {size}\n\n[[access_pattern]]\nname = \"w\"\ntable = \"blobs\"\noperation = \"put\"\nrate = 10\nby = \"user\"\n{variant}"
        )
    };
    let file = dir.path().join("s.toml");
    let out = dir.path().join("out");
    for (size, variant, want) in [
        (
            "\"500KB\"",
            "",
            "s.toml:13:13: table.blobs.item_size: every item is 500 KB (500,000 B), over the store's item ceiling (dynamodb: 400 KiB, 409,600 B)",
        ),
        (
            "{ distribution = \"uniform\", min = \"410KB\", max = \"500KB\" }",
            "",
            "s.toml:13:13: table.blobs.item_size: the smallest item is 410 KB (410,000 B)",
        ),
        (
            "\"2KB\"",
            "[[variant]]\nname = \"fat\"\nset = { \"table.blobs.item_size\" = \"1MB\" }\n",
            "s.toml:23:35: table.blobs.item_size: variant `fat` (line 21): every item is 1.00 MB (1,000,000 B)",
        ),
    ] {
        std::fs::write(&file, text(size, variant)).unwrap();
        for cmd in ["check", "run"] {
            let mut c = keyheat();
            c.arg(cmd).arg(&file);
            if cmd == "run" {
                c.arg("--out").arg(&out);
            }
            let assert = c.assert().code(2);
            let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
            assert!(err.contains(want), "{cmd}: {err}");
            assert!(err.contains("fix: give the size the store keeps, at most 400 KiB"), "{err}");
        }
        assert!(!out.exists());
    }
    std::fs::write(&file, text("\"400KiB\"", "")).unwrap();
    keyheat().arg("check").arg(&file).assert().success();
}

#[test]
fn fail_on_breach_exits_3_on_a_failing_design() {
    let dir = tempfile::tempdir().unwrap();
    keyheat()
        .args([
            "run",
            "scenarios/orders-by-date.toml",
            "--trials",
            "4",
            "--fail-on-breach",
            "--out",
        ])
        .arg(dir.path().join("o"))
        .current_dir(root())
        .assert()
        .code(3);
}

#[test]
fn thread_count_does_not_change_output_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, name: &str| {
        let out = dir.path().join(name);
        keyheat()
            .args([
                "run",
                "scenarios/orders-by-date.toml",
                "--trials",
                "6",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .current_dir(root())
            .assert()
            .success();
        out
    };
    let a = run("1", "a");
    let b = run("2", "b");
    let mut names: Vec<_> = std::fs::read_dir(&a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() >= 12);
    for n in names {
        assert_eq!(
            std::fs::read(a.join(&n)).unwrap(),
            std::fs::read(b.join(&n)).unwrap(),
            "{n:?} differs"
        );
    }
}

/// A file that is not UTF-8 (saved as Latin-1 or UTF-16) is named as such,
/// with the fix, not sent to check its permissions.
#[test]
fn a_file_that_is_not_utf8_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.toml");
    std::fs::write(&path, b"schema_version = 1\nname = \"caf\xe9\"\n").unwrap();
    let a = keyheat()
        .args(["check", path.to_str().unwrap()])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        err.contains("did not contain valid UTF-8")
            && err.contains("fix: save the file as UTF-8 text"),
        "{err}"
    );
}

#[test]
fn check_validates_without_running() {
    let a = keyheat()
        .args(["check", "scenarios/orders-by-date.toml"])
        .current_dir(root())
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        out.contains("orders-by-date.toml: ok (1 table, 2 access patterns, 0 variants)"),
        "{out}"
    );
}

#[test]
fn compare_recommends_the_first_passing_alternative() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp");
    keyheat()
        .args([
            "compare",
            "scenarios/orders-by-date.toml",
            "scenarios/orders-by-date-sharded-random.toml",
            "scenarios/orders-by-date-sharded-calculated.toml",
            "--trials",
            "10",
            "--out",
        ])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    let summary = crate::util::summary_json(&out);
    assert_eq!(summary["variants"].as_array().unwrap().len(), 2);
    assert_eq!(
        summary["recommendation"]["variant"],
        "orders-by-date-sharded-random"
    );
    let csv = std::fs::read_to_string(out.join("variants.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(out.join("variants.png").is_file());
}

/// A whole-file alternative's change is read from its design: of two
/// passing files, the one with fewer write shards is recommended wherever
/// it stands (every file alternative used to count as no change, so the
/// first in file order won).
#[test]
fn compare_recommends_the_file_with_fewer_shards() {
    let dir = tempfile::tempdir().unwrap();
    let fifty = dir.path().join("orders-50-shards.toml");
    let text = std::fs::read_to_string(root().join("scenarios/orders-by-date-sharded-random.toml"))
        .unwrap()
        .replace("shards = 200", "shards = 50")
        .replace(
            "name = \"orders-by-date-sharded-random\"",
            "name = \"orders-50-shards\"",
        );
    std::fs::write(&fifty, text).unwrap();
    let out = dir.path().join("cmp");
    keyheat()
        .args([
            "compare",
            "scenarios/orders-by-date.toml",
            "scenarios/orders-by-date-sharded-calculated.toml",
        ])
        .arg(&fifty)
        .args(["--trials", "20", "--quiet", "--out"])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    let summary = crate::util::summary_json(&out);
    let variants = summary["variants"].as_array().unwrap();
    assert!(
        variants.iter().all(|v| v["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["status"] == "pass")),
        "{summary:#}"
    );
    assert_eq!(summary["recommendation"]["variant"], "orders-50-shards");
    assert!(summary["recommendation"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("smallest change that passes every check (p95 peak utilization "));
}

/// A run whose stderr is not a terminal (a pipe, a CI log) prints a plain
/// progress line every 10 s (here every 0 s), so a long run is not taken
/// for a hang (a new user's piped 15-minute run printed nothing); none with
/// `--quiet`.
#[test]
fn piped_runs_print_plain_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    let run = |quiet: bool| {
        let mut cmd = keyheat();
        cmd.args([
            "run",
            "scenarios/orders-by-date.toml",
            "--trials",
            "4",
            "--out",
        ])
        .arg(dir.path().join(format!("o{quiet}")))
        .env("KEYHEAT_PROGRESS_EVERY_S", "0")
        .current_dir(root());
        if quiet {
            cmd.arg("--quiet");
        }
        let a = cmd.assert().success();
        String::from_utf8_lossy(&a.get_output().stderr).to_string()
    };
    let err = run(false);
    assert!(
        err.lines()
            .any(|l| l.starts_with("keyheat: orders-by-date: ")
                && l.contains("/4 trial runs · base, day 0: 4 trials")),
        "{err}"
    );
    assert!(!run(true).contains("trial runs"));
}

/// Each file's own variants are compared too (a new user's wide-row
/// variant vanished from `compare`): the first file's as its variants, a
/// later file's after it, named `<its name>: <variant>`.
#[test]
fn compare_keeps_each_files_own_variants() {
    let dir = tempfile::tempdir().unwrap();
    let names = |files: [&str; 2]| -> Vec<String> {
        let out = dir.path().join(files[0]);
        keyheat()
            .arg("compare")
            .args(files.map(|f| format!("scenarios/{f}.toml")))
            .args(["--trials", "2", "--quiet", "--out"])
            .arg(&out)
            .current_dir(root())
            .assert()
            .success();
        let summary = crate::util::summary_json(&out);
        summary["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(["outbox-topic-gsi", "outbox-topic-gsi-sharded"]),
        [
            "index-shards-3",
            "index-shards-32-by-order",
            "outbox-topic-gsi-sharded"
        ]
    );
    assert_eq!(
        names(["outbox-topic-gsi-sharded", "outbox-topic-gsi"]),
        [
            "outbox-topic-gsi",
            "outbox-topic-gsi: index-shards-3",
            "outbox-topic-gsi: index-shards-32-by-order"
        ]
    );
}

/// `--fail-on-breach` with `--min-days` / `--max-utilization`: sensor-unbucketed
/// fails its size check (first breach around day 58); sensor-daily-buckets
/// passes every check at a p95 peak utilization of about 0.02.
#[test]
fn fail_on_breach_thresholds_set_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    let run = |scenario: &str, extra: &[&str]| {
        let mut cmd = keyheat();
        cmd.args(["run", scenario, "--trials", "5", "--quiet", "--out"])
            .arg(dir.path().join("o"))
            .args(extra)
            .current_dir(root());
        cmd.assert()
    };
    run(
        "scenarios/sensor-unbucketed.toml",
        &["--fail-on-breach", "--min-days", "30"],
    )
    .code(3);
    run(
        "scenarios/sensor-daily-buckets.toml",
        &["--fail-on-breach", "--min-days", "30"],
    )
    .code(0);
    run(
        "scenarios/sensor-daily-buckets.toml",
        &["--fail-on-breach", "--max-utilization", "0.0001"],
    )
    .code(3);
    run(
        "scenarios/sensor-daily-buckets.toml",
        &["--fail-on-breach", "--max-utilization", "5"],
    )
    .code(0);
    // The thresholds need --fail-on-breach, and a number of 0 or more.
    let out = run("scenarios/sensor-daily-buckets.toml", &["--min-days", "30"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("--fail-on-breach"), "{stderr}");
    let out = run(
        "scenarios/sensor-daily-buckets.toml",
        &["--fail-on-breach", "--max-utilization=-1"],
    )
    .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains(
            "invalid value '-1' for '--max-utilization <X>': a threshold is a number of 0 or more"
        ),
        "{stderr}"
    );
    let out = keyheat().args(["run", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(help.contains("--max-utilization <X>"), "{help}");
    assert!(help.contains("--min-days <D>"), "{help}");
}

#[test]
fn out_never_replaces_a_folder_that_is_not_a_keyheat_output() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("project");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    let a = keyheat()
        .args([
            "run",
            "scenarios/orders-by-date.toml",
            "--trials",
            "2",
            "--out",
        ])
        .arg(&mine)
        .current_dir(root())
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("not a keyheat output folder"), "{err}");
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "keep"
    );
    // No temporary folder is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    // An earlier keyheat output is replaced.
    let out = dir.path().join("run");
    for _ in 0..2 {
        keyheat()
            .args([
                "run",
                "scenarios/orders-by-date.toml",
                "--trials",
                "2",
                "--out",
            ])
            .arg(&out)
            .current_dir(root())
            .assert()
            .success();
    }
    assert!(out.join("summary.json").is_file());
}

/// A scenario path that is not there, or is a folder: exit 2, the reason
/// and a fix line, as every other bad input.
#[test]
fn a_missing_or_folder_scenario_says_how_to_fix_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nosuch.toml");
    let out = keyheat()
        .args(["run", missing.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not read"), "{err}");
    assert!(
        err.contains("fix: check the path (a relative path starts from the current folder"),
        "{err}"
    );
    let out = keyheat()
        .args(["check", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fix: give a file inside that folder, not the folder"),
        "{err}"
    );
}

/// Printing to a closed pipe (`keyheat schema | head -1`, the reader gone
/// before keyheat writes) is not an error: exit 0, no panic on stderr.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    for args in [
        vec!["schema"],
        vec!["place", "--store", "redis-cluster", "a", "b"],
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("keyheat"))
            .args(&args)
            .stdout(writer)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// Two drafts of one design (the same `name` in two files) are told apart
/// by their file names: a new user's second draft was labelled by the
/// scenario name beside `base`, which left them guessing which was which.
#[test]
fn compare_names_a_design_of_the_bases_name_by_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("orders-draft-2.toml");
    let text = std::fs::read_to_string(root().join("scenarios/orders-by-date.toml")).unwrap();
    std::fs::write(&draft, text).unwrap();
    let out = dir.path().join("out");
    let assert = keyheat()
        .args(["compare", "scenarios/orders-by-date.toml"])
        .arg(&draft)
        .args(["--trials", "4", "--quiet", "--out"])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("base ") || l.starts_with("orders-draft-2 "))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        !stdout.lines().any(|l| l.starts_with("orders-by-date ")),
        "{stdout}"
    );
}

/// One file given twice (by two spellings of its path) is refused before
/// anything runs, naming the path: compare takes each design once.
#[test]
fn compare_refuses_one_file_given_twice() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twice");
    let assert = keyheat()
        .args([
            "compare",
            "scenarios/orders-by-date.toml",
            "scenarios/../scenarios/orders-by-date.toml",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .current_dir(root())
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        err.contains("scenarios/../scenarios/orders-by-date.toml is given twice: compare takes each design once"),
        "{err}"
    );
    assert!(!out.exists());
}

/// Flags are checked before the scenario is read, each with its fix (a new
/// user's `--threads 0` came after the scenario's warnings with no fix,
/// `--seed -1` got clap's tip to write `-- -1`, `--max-memory 8gb` no hint
/// of the unit's case).
#[test]
fn bad_flag_values_are_refused_before_the_scenario_with_their_fix() {
    let refused = |flag: &str, value: &str| {
        let a = keyheat()
            .args(["run", "no-such-scenario.toml", flag, value])
            .current_dir(root())
            .assert()
            .code(2);
        String::from_utf8_lossy(&a.get_output().stderr).to_string()
    };
    for value in ["0", "-2", "two"] {
        let err = refused("--threads", value);
        assert!(
            err.contains(&format!("invalid value '{value}' for '--threads <THREADS>': worker threads are a whole number from 1, e.g. --threads 2")),
            "{err}"
        );
    }
    let err = refused("--seed", "-1");
    assert!(
        err.contains("invalid value '-1' for '--seed <SEED>': a seed is a whole number from 0")
            && !err.contains("-- -1"),
        "{err}"
    );
    let err = refused("--max-memory", "8gb");
    assert!(err.contains("(did you mean `GB`?)"), "{err}");
    assert!(refused("--max-memory", "0").contains("a size above 0"));
    for value in ["-3", "0", "nan"] {
        assert!(refused("--max-work", value).contains("seconds on one core above 0"));
    }
    for flag in ["--max-utilization", "--min-days"] {
        let err = refused(flag, "-1");
        assert!(
            err.contains("a threshold is a number of 0 or more") && !err.contains("-- -1"),
            "{err}"
        );
    }
}

/// `compare` of an unpriced draft with priced files shows the files' costs
/// under their currency (the variants table had no cost column, and
/// summary.json's `currency` was null beside the variants' costs), and
/// refuses files priced in two currencies.
#[test]
fn compare_prices_alternatives_in_their_one_currency() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(root().join("scenarios/orders-by-date-sharded-random.toml"))
        .unwrap();
    let priced = |name: &str, currency: &str| {
        let path = dir.path().join(format!("{name}.toml"));
        let text = base.replace(
            "name = \"orders-by-date-sharded-random\"",
            &format!("name = \"{name}\""),
        ) + &format!(
            "\n[pricing]\ncurrency = \"{currency}\"\nread_unit_per_million = 0.25\nwrite_unit_per_million = 1.25\n"
        );
        std::fs::write(&path, text).unwrap();
        path
    };
    let (a, b, c) = (priced("a", "EUR"), priced("b", "EUR"), priced("c", "USD"));
    let out = dir.path().join("cmp");
    keyheat()
        .args(["compare", "scenarios/orders-by-date.toml"])
        .args([&a, &b])
        .args(["--trials", "10", "--quiet", "--out"])
        .arg(&out)
        .current_dir(root())
        .assert()
        .success();
    let summary = crate::util::summary_json(&out);
    assert_eq!(summary["currency"], "EUR");
    assert!(
        summary["variants"][0]["tables"][0]["monthly_cost"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("| fan-out (max) | monthly cost (EUR) | verdict |"),
        "{md}"
    );
    let refused = keyheat()
        .args(["compare", "scenarios/orders-by-date.toml"])
        .args([&a, &c])
        .arg("--out")
        .arg(dir.path().join("mixed"))
        .current_dir(root())
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(
        err.contains("c.toml is priced in USD and ") && err.contains("a.toml in EUR: a comparison's monthly costs are in one currency; fix: give every [pricing] the same currency"),
        "{err}"
    );
    assert!(!dir.path().join("mixed").exists());
}

/// An alternative that shares no table with the base design is warned
/// about where its store is written (a new user's Cassandra ticketing
/// design was recommended a DynamoDB orders table as "the smallest change
/// that passes"); alternatives of the same tables are not.
#[test]
fn compare_warns_of_an_alternative_sharing_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let run = |files: [&str; 2], out: &str| {
        let a = keyheat()
            .args(["compare", files[0], files[1], "--trials", "4", "--out"])
            .arg(dir.path().join(out))
            .current_dir(root())
            .assert()
            .success();
        String::from_utf8_lossy(&a.get_output().stderr).into_owned()
    };
    let err = run(
        [
            "scenarios/orders-by-date.toml",
            "scenarios/posts-by-author.toml",
        ],
        "unrelated",
    );
    assert!(
        err.contains("scenarios/posts-by-author.toml:32:8: warning: table: variant `posts-by-author`: `posts-by-author` shares no table with the base design `orders-by-date` (its tables: posts; the base's: orders): compare ranks alternatives of one design by how small a change they are, so its recommendation means little between unrelated designs\n  fix: compare alternatives of the same tables (by the same names), or run each design on its own with keyheat run"),
        "{err}"
    );
    let summary = crate::util::summary_json(&dir.path().join("unrelated"));
    assert!(summary["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["message"].as_str().unwrap().contains("shares no table")));
    let err = run(
        [
            "scenarios/orders-by-date.toml",
            "scenarios/orders-by-date-sharded-random.toml",
        ],
        "related",
    );
    assert!(!err.contains("shares no table"), "{err}");
}
