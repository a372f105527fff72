//! Hostile input: one regression test per crash class of issue 11. Each
//! input once panicked, aborted, ran for minutes or passed with NaN; each must
//! now exit 2 with an error naming `file:line:column` of the value to change
//! (`scenario::limits` holds the caps).

use assert_cmd::Command;
use std::path::Path;

/// A small DynamoDB scenario: a table with a global index, a put and a query.
const DYNAMODB: &str = r#"schema_version = 1
name = "hostile"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000
[simulation]
trials = 4
duration = "10m"
[[entity]]
name = "user"
count = 1000
[[table]]
name = "t"
partition_key = "U#{user}"
sort_key = "{time}"
item_size = "1KB"
bucket = "1d"
[[table.index]]
name = "g"
partition_key = "G#{user}"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 100
by = "user"
[[access_pattern]]
name = "read"
table = "t"
operation = "query"
rate = 100
by = "user"
range = "7d"
"#;

/// `keyheat run SCENARIO --out OUT` with `more` arguments.
fn keyheat(scenario: &Path, out: &Path, more: &[&str]) -> std::process::Output {
    Command::cargo_bin("keyheat")
        .unwrap()
        .arg("run")
        .arg(scenario)
        .arg("--out")
        .arg(out)
        .args(more)
        .output()
        .unwrap()
}

/// `DYNAMODB` with the first `from` replaced by `to`.
fn with(base: &str, from: &str, to: &str) -> String {
    assert!(base.contains(from), "`{from}` is not in the base scenario");
    base.replacen(from, to, 1)
}

/// `DYNAMODB` on another store kind, with `settings` under `[store]`.
fn on_store(kind: &str, settings: &str) -> String {
    with(
        DYNAMODB,
        "kind = \"dynamodb\"\nread_capacity = 3000\nwrite_capacity = 1000",
        &format!("kind = \"{kind}\"\n{settings}"),
    )
    .replace(
        "[[table.index]]\nname = \"g\"\npartition_key = \"G#{user}\"\n",
        "",
    )
}

/// 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` is not in the scenario"))
}

/// Runs `keyheat run` on `text` and asserts exit 2 with an error at the line
/// holding `at` (column ≥ 1) naming `key`; returns the message.
fn refused(text: &str, at: &str, key: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("h.toml");
    std::fs::write(&path, text).expect("scenario file");
    let out = dir.path().join("out");
    let run = Command::cargo_bin("keyheat")
        .expect("keyheat binary")
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("keyheat runs");
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    assert_eq!(run.status.code(), Some(2), "exit code; stderr: {stderr}");
    let prefix = format!("error: {}:{}:", path.display(), line_of(text, at));
    let rest = stderr
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("expected `{prefix}…`, got: {stderr}"));
    let (column, rest) = rest.split_once(": ").expect("column");
    assert!(column.parse::<usize>().is_ok_and(|c| c >= 1), "{stderr}");
    assert!(
        rest.starts_with(&format!("{key}: ")),
        "key `{key}`: {stderr}"
    );
    assert!(rest.contains("\n  fix: "), "no fix line: {stderr}");
    assert!(!out.exists(), "no output folder after a refused run");
    stderr
}

#[test]
fn base_scenario_runs() {
    // The regression tests below change one value of a scenario that runs.
    let s = keyheat::Scenario::from_str_at(DYNAMODB, "h.toml").expect("valid");
    keyheat::store::Model::for_scenario(&s).expect("valid store");
}

#[test]
fn write_capacity_1e308_capacity_overflow() {
    let text = with(DYNAMODB, "write_capacity = 1000", "write_capacity = 1e308");
    let e = refused(&text, "write_capacity", "store.write_capacity");
    assert!(e.contains("must be at most 1,000,000,000"), "{e}");
}

#[test]
fn read_capacity_1e12_allocation_abort() {
    let text = with(DYNAMODB, "read_capacity = 3000", "read_capacity = 1e12");
    refused(&text, "read_capacity", "store.read_capacity");
}

#[test]
fn capacity_over_partition_limit_past_100000_partitions() {
    // Each value in range, together 10⁹ ÷ 10 = 10⁸ partitions.
    let text = with(
        DYNAMODB,
        "write_capacity = 1000",
        "write_capacity = 1000000000\npartition_write_limit = 10",
    );
    let e = refused(&text, "write_capacity", "store.write_capacity");
    assert!(e.contains("more than 100,000"), "{e}");
}

#[test]
fn partition_write_limit_1e_300_capacity_overflow() {
    let text = on_store("generic", "partitions = 4\npartition_write_limit = 1e-300");
    let e = refused(
        &text,
        "partition_write_limit",
        "store.partition_write_limit",
    );
    assert!(e.contains("must be from 0.00100 to"), "{e}");
}

#[test]
fn generic_partitions_1e9_allocation_abort() {
    let text = on_store("generic", "partitions = 1_000_000_000");
    refused(&text, "partitions", "store.partitions");
}

#[test]
fn mongodb_shards_1e9_allocation_abort() {
    let text = on_store("mongodb", "shards = 1_000_000_000");
    refused(&text, "shards", "store.shards");
}

#[test]
fn table_shards_1e9_allocation_abort() {
    let text = with(
        DYNAMODB,
        "bucket = \"1d\"",
        "bucket = \"1d\"\nshards = 1_000_000_000",
    );
    refused(&text, "shards =", "table.t.shards");
}

#[test]
fn initial_items_1e308_capacity_overflow() {
    let text = with(
        DYNAMODB,
        "bucket = \"1d\"",
        "bucket = \"1d\"\ninitial_items = 1e308",
    );
    refused(&text, "initial_items", "table.t.initial_items");
}

#[test]
fn initial_items_1e12_runs_for_minutes() {
    let text = with(
        DYNAMODB,
        "bucket = \"1d\"",
        "bucket = \"1d\"\ninitial_items = 1e12",
    );
    refused(&text, "initial_items", "table.t.initial_items");
}

#[test]
fn initial_table_bytes_past_a_petabyte() {
    // 10⁹ users × 10⁶ items × 1 KB = 10¹⁸ B, each value in range.
    let text = with(DYNAMODB, "count = 1000", "count = 1_000_000_000");
    let text = with(
        &text,
        "bucket = \"1d\"",
        "bucket = \"1d\"\ninitial_items = 1_000_000",
    );
    let e = refused(&text, "initial_items", "table.t.initial_items");
    assert!(e.contains("more than 1.00 PB"), "{e}");
}

#[test]
fn a_billion_keys_are_accepted() {
    // Large but legal: the parser accepts 10⁹ instances and 10⁵ shards.
    let text = with(DYNAMODB, "count = 1000", "count = 1_000_000_000");
    let text = with(&text, "bucket = \"1d\"", "bucket = \"1d\"\nshards = 10000");
    let text = with(&text, "range = \"7d\"", "range = \"1d\"");
    let s = keyheat::Scenario::from_str_at(&text, "h.toml").expect("accepted");
    keyheat::store::Model::for_scenario(&s).expect("accepted");
}

#[test]
fn item_size_18446744073709551616b_allocation_abort() {
    let text = with(
        DYNAMODB,
        "item_size = \"1KB\"",
        "item_size = \"18446744073709551616B\"",
    );
    let e = refused(&text, "item_size", "table.t.item_size");
    assert!(e.contains("must be at most 1 GiB"), "{e}");
}

#[test]
fn lognormal_p99_a_million_times_the_median() {
    let text = with(
        DYNAMODB,
        "item_size = \"1KB\"",
        "item_size = { distribution = \"lognormal\", median = \"1B\", p99 = \"1GB\" }",
    );
    refused(&text, "item_size", "table.t.item_size.p99");
}

#[test]
fn projection_include_18446744073709551616gb_index_out_of_bounds() {
    let text = with(
        DYNAMODB,
        "partition_key = \"G#{user}\"",
        "partition_key = \"G#{user}\"\nprojection = { include = \"18446744073709551616GB\" }",
    );
    refused(&text, "projection", "table.t.index.g.projection.include");
}

#[test]
fn range_1000y_allocation_abort() {
    let text = with(DYNAMODB, "range = \"7d\"", "range = \"1000y\"");
    refused(&text, "range = ", "access_pattern.read.range");
}

#[test]
fn range_over_buckets_times_shards_past_100000_queries() {
    // 365 daily buckets × 1,000 shards = 365,000 queries per operation.
    let text = with(
        DYNAMODB,
        "bucket = \"1d\"",
        "bucket = \"1d\"\nshards = 1000",
    );
    let text = with(&text, "range = \"7d\"", "range = \"365d\"");
    let e = refused(&text, "range = ", "access_pattern.read.range");
    assert!(e.contains("365,000 queries per operation"), "{e}");
}

#[test]
fn duration_100y_runs_for_minutes() {
    let text = with(DYNAMODB, "duration = \"10m\"", "duration = \"100y\"");
    refused(&text, "duration", "simulation.duration");
}

#[test]
fn window_1ms_runs_for_minutes() {
    let text = with(
        DYNAMODB,
        "duration = \"10m\"",
        "duration = \"1h\"\nwindow = \"1ms\"",
    );
    let e = refused(&text, "window", "simulation.window");
    assert!(e.contains("3,600,000 windows"), "{e}");
}

#[test]
fn bucket_below_1ms_is_refused() {
    let text = with(DYNAMODB, "bucket = \"1d\"", "bucket = \"0.5ms\"");
    refused(&text, "bucket", "table.t.bucket");
}

#[test]
fn two_thousand_checkpoints_run_for_minutes() {
    let days: Vec<String> = (0..2000).map(|d| format!("\"{d}d\"")).collect();
    let text = with(
        DYNAMODB,
        "duration = \"10m\"",
        &format!("duration = \"10m\"\ncheckpoints = [{}]", days.join(", ")),
    );
    let e = refused(&text, "checkpoints", "simulation.checkpoints");
    assert!(e.contains("2000 checkpoints: at most 100"), "{e}");
}

#[test]
fn horizon_1000y_is_refused() {
    let text = with(
        DYNAMODB,
        "duration = \"10m\"",
        "duration = \"10m\"\nhorizon = \"1000y\"",
    );
    refused(&text, "horizon", "simulation.horizon");
}

#[test]
fn growth_past_a_million_fold_is_refused() {
    // 1000% a month over a year: e^{ln(11)·365/30} ≈ 4·10¹² ×.
    let text = with(
        DYNAMODB,
        "duration = \"10m\"",
        "duration = \"10m\"\ngrowth = \"1000%/month\"",
    );
    refused(&text, "growth", "simulation.growth");
}

#[test]
fn rate_1e308_passes_with_a_lower_utilization() {
    let text = with(DYNAMODB, "rate = 100", "rate = 1e308");
    let e = refused(&text, "rate = 1e308", "access_pattern.write.rate");
    assert!(e.contains("must be at most 10⁹ per second"), "{e}");
}

#[test]
fn busy_rate_past_1e10_per_second() {
    // Each in range: 10⁹/s × 1,000 × a burst of 100.
    let text = with(DYNAMODB, "rate = 100", "rate = 1e9\npeak_factor = 1000");
    let text = with(
        &text,
        "duration = \"10m\"",
        "duration = \"10m\"\nbursts = [{ at = \"1m\", length = \"1m\", factor = 100 }]",
    );
    let e = refused(&text, "peak_factor", "access_pattern.write.peak_factor");
    assert!(e.contains("more than 10¹⁰"), "{e}");
}

#[test]
fn items_4294967295_runs_for_minutes() {
    let text = with(
        DYNAMODB,
        "range = \"7d\"",
        "range = \"7d\"\nitems = 4294967295",
    );
    refused(&text, "items", "access_pattern.read.items");
}

#[test]
fn entity_count_past_a_trillion_is_refused() {
    let text = with(DYNAMODB, "count = 1000", "count = 18446744073709551615");
    refused(&text, "count", "entity.user.count");
}

#[test]
fn read_capacity_0_without_adaptive_capacity_passes_with_nan() {
    // Item 4 of issue 11: a limit of 0 that reads need is an error…
    let text = with(
        DYNAMODB,
        "read_capacity = 3000",
        "read_capacity = 0\nadaptive_capacity = false",
    );
    let e = refused(&text, "read_capacity", "store.read_capacity");
    assert!(
        e.contains("read_capacity = 0 serves no reads, but access pattern `read`"),
        "{e}"
    );
}

#[test]
fn read_capacity_0_is_allowed_without_reads() {
    // …but not when nothing reads (case C04's write-only table).
    let text = with(
        DYNAMODB,
        "read_capacity = 3000",
        "read_capacity = 0\nadaptive_capacity = false",
    );
    let text = text
        .replace("operation = \"query\"", "operation = \"put\"")
        .replace("range = \"7d\"\n", "");
    let s = keyheat::Scenario::from_str_at(&text, "h.toml").expect("accepted");
    keyheat::store::Model::for_scenario(&s).expect("accepted");
}

#[test]
fn index_write_capacity_0_with_index_writes() {
    let text = with(
        DYNAMODB,
        "partition_key = \"G#{user}\"",
        "partition_key = \"G#{user}\"\nwrite_capacity = 0",
    );
    let e = refused(
        &text,
        "write_capacity = 0",
        "table.t.index.g.write_capacity",
    );
    assert!(
        e.contains("access pattern `write` writes through index `t.g`"),
        "{e}"
    );
}

#[test]
fn generic_partition_write_limit_0() {
    let text = on_store("generic", "partition_write_limit = 0");
    let e = refused(
        &text,
        "partition_write_limit",
        "store.partition_write_limit",
    );
    assert!(e.contains("must be > 0"), "{e}");
}

#[test]
fn setting_errors_caused_by_a_default_name_the_store_kind_line() {
    // num_tokens takes its default (16); 100,000 nodes × 16 tokens exceed the
    // token ranges keyheat models. Was `file:0:0`.
    let text = on_store("cassandra", "nodes = 100000");
    let e = refused(&text, "kind = \"cassandra\"", "store.num_tokens");
    assert!(e.contains("token ranges"), "{e}");
}

/// A run whose estimated work is over the budget is refused in
/// milliseconds with the estimate, what drives it and the flag that raises
/// it. 1,000 writes/s over 100,000 partitions of 100/s is light, so the
/// partitions past the pattern's 256 hottest keys are charged as cold (0.4
/// µs rather than 1 µs): 100,000 × (1 − 0.99744 × 0.6) = 40,153.6 stretches
/// × 2,000 trials × 1 µs = 80.3 s, the representative trial's 100,000 × 240
/// timeseries steps × 0.3 µs = 7.2 s, and 2,000 trials × (256 keys × 0.3 µs
/// + 65,536 × 8 ns) = 1.2 s: 88.7 s of work against the default 60 s.
#[test]
fn a_run_over_the_work_budget_is_refused_up_front() {
    let text = r#"
schema_version = 1
name = "huge"
[store]
kind = "generic"
partitions = 100000
partition_write_limit = 100
[simulation]
trials = 2000
duration = "10m"
[[entity]]
name = "user"
count = 1000000
[[table]]
name = "t"
partition_key = "U#{user}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 1000
by = "user"
"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.toml");
    std::fs::write(&path, text).unwrap();
    let out = dir.path().join("out");
    let run = keyheat(&path, &out, &[]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("estimated at 88.7 s of work"), "{err}");
    // The refusal names the file, as every other exit-2 error does.
    assert!(
        err.contains(&format!("{}: this run is estimated", path.display())),
        "{err}"
    );
    assert!(
        err.contains("table `t`: ≈ 100,000 partitions × 1 stretch × 2,000 trials × 1 busy period"),
        "{err}"
    );
    assert!(err.contains("--max-work 134"), "{err}");
    assert!(!out.exists());
    // Raising the work budget moves the refusal to memory: 2,000 trials ×
    // 100,000 partitions × 32 B = 6.4 GB of ranks + 100,000 × 240 × 16 B of
    // timeseries + 64 MiB, against a 1 GiB budget.
    let run = keyheat(&path, &out, &["--max-work", "1000", "--max-memory", "1GiB"]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("GiB of memory (budget 1.00 GiB)") && err.contains("--max-memory"),
        "{err}"
    );
    assert!(!out.exists());
    // `check` says so, where the design is otherwise ok (exit 0).
    let check = assert_cmd::Command::cargo_bin("keyheat")
        .unwrap()
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0));
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        said.contains("warning: `keyheat run` refuses it as it is: this run is estimated at 88.7 s of work on one core (budget 60.0 s)")
            && said.contains("--max-work 134"),
        "{said}"
    );
    // `check --trials` estimates the run `run --trials` would do: half the
    // trials, about half the work (the per-trial ranks and windows are the
    // work), within the budget: no refusal.
    let check = assert_cmd::Command::cargo_bin("keyheat")
        .unwrap()
        .args(["check", path.to_str().unwrap(), "--trials", "1000"])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0));
    let halved = String::from_utf8_lossy(&check.stdout);
    let work = |text: &str| -> f64 {
        let at = text.find("estimated at ").expect("an estimate") + "estimated at ".len();
        text[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let ratio = work(&halved) / work(&said);
    assert!((0.45..=0.55).contains(&ratio), "{ratio}: {halved}");
    assert!(!halved.contains("refuses"), "{halved}");
    // A folder the writing would refuse is refused first, before any work
    // (not the budget's refusal), and keeps what it holds.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.md"), "mine").unwrap();
    let run = keyheat(&path, &out, &[]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("exists and is not a keyheat output folder: it holds `notes.md`")
            && !err.contains("estimated at"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.md")).unwrap(),
        "mine"
    );
}

/// Keys are placed afresh in every time bucket: a 1 ms bucket over a 1 h busy
/// period at 1 s windows is 3,600 buckets, each placing 10,000 sensors (256
/// by name at 37.5 single-key costs each + 9,744 at one: 19,344 × 8 ns =
/// 0.155 ms), × 200 trials, once for both patterns (by the same sensor, so
/// placed once) = 111.4 s, + 3 partitions × 3,600 bucket stretches × 200
/// trials × 4 µs = 8.6 s: 120 s, refused, not run for minutes (measured:
/// 73.6 s of CPU when let run).
#[test]
fn key_placement_in_every_time_bucket_counts_in_the_estimate() {
    let text = std::fs::read_to_string("scenarios/sensor-bucket-pattern.toml")
        .unwrap()
        .replace("bucket = \"1d\"", "bucket = \"1ms\"");
    assert!(text.contains("bucket = \"1ms\""));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(&path, text).unwrap();
    let run = keyheat(&path, &dir.path().join("out"), &[]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("estimated at 120 s of work"), "{err}");
    // A bucket written without its unit is the usual cause: the refusal
    // shows the warning too.
    let bare = std::fs::read_to_string(&path)
        .unwrap()
        .replace("bucket = \"1ms\"", "bucket = 0.001");
    std::fs::write(&path, bare).unwrap();
    let run = keyheat(&path, &dir.path().join("out"), &[]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("bucket = 0.001 has no unit, so it is read as 0.001 seconds")
            && err.contains("estimated at 120 s of work"),
        "{err}"
    );
    assert!(
        err.contains("pattern `Push reading`: ≈ 10,000 keys placed × 3,600 time buckets × 200 trials × 1 busy period"),
        "{err}"
    );
}

/// A refusal names what its busy periods are and which design drives it:
/// a new user read "× 4 busy periods" of a scenario with 3 checkpoints and
/// 2 variants. orders-growth-checkpoints: 3 checkpoints and growth (a
/// breach day the engine may add), one design.
#[test]
fn a_refusal_says_what_its_busy_periods_and_designs_are() {
    let dir = tempfile::tempdir().unwrap();
    let refusal = |scenario: &str| {
        let run = assert_cmd::Command::cargo_bin("keyheat")
            .unwrap()
            .args(["run", scenario, "--max-work", "0.001", "--out"])
            .arg(dir.path().join("out"))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2));
        String::from_utf8_lossy(&run.stderr).into_owned()
    };
    let err = refusal("scenarios/orders-growth-checkpoints.toml");
    assert!(
        err.contains("× 4 busy periods (3 checkpoints and a possible breach day);"),
        "{err}"
    );
    assert!(!err.contains("designs"), "{err}");
    // With variants: the costliest design is named, and the sum said.
    let err = refusal("scenarios/outbox-topic-gsi.toml");
    assert!(
        err.contains("(the costliest of 3 designs, whose work is summed)"),
        "{err}"
    );
    assert!(
        err.contains(", in the base design (") || err.contains(", in variant `index-shards-"),
        "{err}"
    );
}

/// `--method exact` over a design too big for it is refused naming the
/// method as the cause, not only the keys: bench-big's 200,000 requests/s
/// over 1 h are 7.2·10⁸ requests per busy period, each drawn.
#[test]
fn an_exact_run_over_budget_names_the_method() {
    let run = assert_cmd::Command::cargo_bin("keyheat")
        .unwrap()
        .args([
            "run",
            "scenarios/bench-big.toml",
            "--method",
            "exact",
            "--out",
        ])
        .arg(tempfile::tempdir().unwrap().path().join("out"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("--method exact draws every request and places every key (720,000,000 requests per busy period), where the default --method aggregated does neither"),
        "{err}"
    );
}

/// A range query over many time buckets places each head key's sub-keys
/// (one per bucket) by name unless its history keys go as mass, and the
/// estimate charges what placement does: a 7-day range over hourly buckets
/// on DynamoDB (8 partitions judged, Zipf 1.0 over 100,000 sensors: the
/// history bound 8²·(Σs³/Σs²)/168 = 0.023 > 1%) names 256 × 168 = 43,008
/// sub-keys a bucket, + 65,536 single draws; over Cassandra's 6 nodes
/// (bound 6²·(Σs³/Σs²)/168 = 0.013 … met from 14 days on) a 2-year range
/// names the current bucket's 256 and 20 × 20 history keys, 656 (+ 65,536
/// single draws: 66,192). The first
/// was estimated at 0.345 s and took 3.2 s of CPU (a 2-year hourly range
/// on Cassandra took > 800 s, estimated at 4 s: every history key named).
#[test]
fn a_range_querys_named_sub_keys_count_in_the_estimate() {
    let text = |store: &str, range: &str| {
        format!(
            r#"
schema_version = 1
name = "range-estimate"
[store]
{store}
[simulation]
duration = "1h"
[[entity]]
name = "sensor"
count = 100_000
popularity = {{ distribution = "zipf", exponent = 1.0 }}
[[table]]
name = "readings"
partition_key = "S#{{sensor}}#{{bucket}}"
sort_key = "{{time}}"
bucket = "1h"
item_size = "300B"
[[access_pattern]]
name = "Write reading"
table = "readings"
operation = "put"
rate = 5000
by = "sensor"
[[access_pattern]]
name = "History"
table = "readings"
operation = "query"
rate = 50
by = "sensor"
items = 100
range = "{range}"
"#
        )
    };
    let driver = |store: &str, range: &str| {
        let s = keyheat::scenario::Scenario::from_str_at(&text(store, range), "r.toml").unwrap();
        keyheat::engine::cost::estimate(&s, &Default::default())
            .unwrap()
            .driver
    };
    let ddb = driver("kind = \"dynamodb\"\nmode = \"on_demand\"", "7d");
    assert!(
        ddb.contains("pattern `History`: ≈ 108,544 keys placed × 1 time bucket × 200 trials"),
        "{ddb}"
    );
    let cassandra = "kind = \"cassandra\"\nnodes = 6\nreplication_factor = 3";
    let long = driver(cassandra, "2y");
    assert!(
        long.contains("pattern `History`: ≈ 66,192 keys placed"),
        "{long}"
    );
    let week = driver(cassandra, "7d");
    assert!(
        week.contains("pattern `History`: ≈ 108,544 keys placed"),
        "{week}"
    );
}

/// The exact method's estimate counts a request's own sub-requests: a put
/// to one of 32 random shards is one request, a query of every shard 32
/// (helper-63's 32-shard design was estimated at 194 s, 10× its requests,
/// and refused; it took 5.4 s). 1,000 puts/s and 10 queries/s over 1 h:
/// 3,600,000 + 1,152,000 = 4,752,000 requests per busy period.
#[test]
fn the_exact_estimate_counts_a_write_to_one_shard_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sharded.toml");
    std::fs::write(
        &path,
        r#"schema_version = 1
name = "sharded"
[store]
kind = "dynamodb"
[simulation]
trials = 2
duration = "1h"
[[entity]]
name = "tenant"
count = 100
[[table]]
name = "events"
partition_key = "T#{tenant}"
sort_key = "{time}"
item_size = "1KB"
shards = 32
[[access_pattern]]
name = "Write"
table = "events"
operation = "put"
rate = 1000
by = "tenant"
[[access_pattern]]
name = "Read"
table = "events"
operation = "query"
rate = 10
by = "tenant"
"#,
    )
    .unwrap();
    let run = assert_cmd::Command::cargo_bin("keyheat")
        .unwrap()
        .args([
            "run",
            path.to_str().unwrap(),
            "--method",
            "exact",
            "--max-work",
            "0.001",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("(4,752,000 requests per busy period)"),
        "{err}"
    );
}
