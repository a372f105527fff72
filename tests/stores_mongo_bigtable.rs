//! MongoDB (sharded) and Bigtable: placement as the stores compute it, the
//! shipped scenarios' outcomes with their numbers, case C11 (WildDuck's
//! jumbo chunks) and analyzeShardKey-style characteristics.

use assert_cmd::Command;
use keyheat::results::Status::{self, Fail, Pass};
use keyheat::store::mongodb::{analyze_shard_key, Monotonicity, ShardKey};
use keyheat::store::{Model, TableDemand};
use keyheat::{RunResults, Scenario};

const TRIALS: u32 = 20;

fn scenario_at(rel: &str) -> Scenario {
    match Scenario::from_path(crate::util::root().join(rel)) {
        Ok(s) => s,
        Err(e) => panic!("{rel}: {e}"),
    }
}

fn run_case(rel: &str) -> RunResults {
    let s = scenario_at(rel);
    let options = keyheat::engine::Options {
        trials: Some(TRIALS),
        ..Default::default()
    };
    match crate::util::simulate(&s, &options) {
        Ok(r) => r,
        Err(e) => panic!("{rel}: {e}"),
    }
}

fn verdict(r: &RunResults, check: &str) -> Status {
    match r.verdicts.iter().find(|v| v.check == check) {
        Some(v) => v.status,
        None => panic!("{}: no {check} verdict in {:?}", r.scenario, r.verdicts),
    }
}

fn demand(bytes: f64) -> TableDemand {
    TableDemand {
        name: "t".into(),
        initial_bytes: bytes,
        has_local_index: false,
    }
}

const SHIPPED: [&str; 6] = [
    "scenarios/mongodb-monotonic-ranged.toml",
    "scenarios/mongodb-hashed.toml",
    "scenarios/bigtable-timestamp-rowkey.toml",
    "scenarios/bigtable-salted-rowkey.toml",
    "scenarios/cases/c11-mailbox-user-shard-key.toml",
    "scenarios/cases/c11-mailbox-uid-shard-key.toml",
];

#[test]
fn mongodb_and_bigtable_scenarios_parse_and_build_their_models() {
    for rel in SHIPPED {
        let s = scenario_at(rel);
        if let Err(e) = Model::new(&s.store, rel) {
            panic!("{rel}: {e}");
        }
        let stem = std::path::Path::new(rel).file_stem().unwrap();
        assert_eq!(s.name, stem.to_string_lossy(), "{rel}");
        assert_eq!(s.simulation.trials, 200, "{rel}");
        assert!(s.description.contains("Expected"), "{rel}");
    }
}

/// `keyheat place` prints MongoDB's own hashed value (hasher_test.cpp:
/// "abc" → 8478485326885698097) and the chunk of 3 equal hash ranges
/// holding it: (8478485326885698097 + 2⁶³) / 2⁶⁴ × 3 = 2.88 → chunk 2.
#[test]
fn place_prints_chunk_shard_and_mongodb_hashed_value() {
    let out = Command::cargo_bin("keyheat")
        .unwrap()
        .args(["place", "--store", "mongodb", "abc"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "abc chunk=2 shard=2 hashed=8478485326885698097\n"
    );
    let out = Command::cargo_bin("keyheat")
        .unwrap()
        .args([
            "place", "--store", "bigtable", "--nodes", "5", "<time>", "EVENTS#3",
        ])
        .output()
        .unwrap();
    // No data: one tablet per node, 5; the newest row key is in the last;
    // salt 3 at 2/9 → ⌊5 · 2/9⌋ = 1.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "<time> tablet=4 node=4\nEVENTS#3 tablet=1 node=1\n"
    );
    let out = Command::cargo_bin("keyheat")
        .unwrap()
        .args([
            "place",
            "--store",
            "mongodb",
            "--set",
            "chunk_size=2GiB",
            "x",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("must be from 1 MiB to 1 GiB, found 2 GiB")
    );
}

/// Ranged shard key on a timestamp: every insert goes to the MaxKey chunk.
/// 15,000 inserts/s on one shard of 10,000 ops/s: peak ≈ 1.5 + the Poisson
/// peak of 3,600 one-second windows (≈ 3.5 σ, σ = √15,000 ≈ 122) ≈ 1.54.
#[test]
fn ranged_timestamp_shard_key_sends_every_insert_to_one_shard() {
    let r = run_case("scenarios/mongodb-monotonic-ranged.toml");
    assert_eq!(verdict(&r, "hot_node"), Fail);
    let t = &r.tables[0];
    assert_eq!(t.partitions, 3);
    let nodes = t.nodes.as_ref().expect("shard results");
    assert_eq!((nodes.label.as_str(), nodes.count), ("shard", 3));
    assert!((nodes.hottest_node_share.mean - 1.0).abs() < 1e-9);
    let p95 = nodes.peak_utilization.p95;
    assert!((1.53..1.57).contains(&p95), "{p95}");
    // A third of the requested ops exceed the shard: 5,000 of 15,000.
    assert!((t.throttled_fraction.mean - 1.0 / 3.0).abs() < 0.01);
}

/// Hashed: ≈ 5,000 inserts/s per shard, peak ≈ 0.5 + 3.5·√5000 / 10,000 ≈ 0.53.
#[test]
fn hashed_timestamp_shard_key_spreads_inserts_over_the_shards() {
    let r = run_case("scenarios/mongodb-hashed.toml");
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let nodes = r.tables[0].nodes.as_ref().expect("shard results");
    assert!((nodes.hottest_node_share.mean - 1.0 / 3.0).abs() < 1e-9);
    let p95 = nodes.peak_utilization.p95;
    assert!((0.51..0.56).contains(&p95), "{p95}");
}

/// Timestamp-leading row key: 20,000 rows/s of 1 KB on the last tablet's
/// node, 20,000 × 1000/14,000 = 1,428.6 node-ms/s of 1,000: ≈ 1.43, plus the
/// Poisson peak (≈ 3.5·√20,000 rows ≈ 0.035) ≈ 1.46.
#[test]
fn timestamp_leading_row_key_hotspots_the_last_tablet_and_its_node() {
    let r = run_case("scenarios/bigtable-timestamp-rowkey.toml");
    assert_eq!(verdict(&r, "hot_node"), Fail);
    assert_eq!(verdict(&r, "hot_partition"), Fail);
    let t = &r.tables[0];
    // Every key is new, nothing is stored at the start: one tablet per node.
    assert_eq!(t.partitions, 3);
    assert!((t.hottest_partition_share.mean - 1.0).abs() < 1e-9);
    // The hot tablet is the last in key order: the timeseries row 2; load
    // splitting cannot split its one append point.
    let ranked = &t.partition_ranks[0];
    assert!((ranked.write_units_per_s - 20_000.0 / 14.0).abs() < 1.0);
    let nodes = t.nodes.as_ref().expect("node results");
    assert!((nodes.hottest_node_share.mean - 1.0).abs() < 1e-9);
    let p95 = nodes.peak_utilization.p95;
    assert!((1.44..1.49).contains(&p95), "{p95}");
}

/// Salted row key: salts 0..9 at key positions 0, 0, 1/9, …, 8/9 → of 3
/// tablets (no stored data: one per node), tablet 0 holds salts 0–3 (40% of
/// the writes), tablets 1 and 2 three each. Every tablet is over the
/// 100 node-ms/s split threshold (3 × 2,000 × 1000/14,000 = 429), so all are
/// split into their ten salt prefixes, ten equal rows spread 4 / 3 / 3 over
/// the nodes: the busiest node 8,000 rows/s ≈ 0.571 + the peak ≈ 0.59; each
/// salt 2,000 rows/s = 0.143 of a node. A time-range read needs 10 queries.
#[test]
fn salted_row_key_spreads_writes_over_ten_tablets() {
    let r = run_case("scenarios/bigtable-salted-rowkey.toml");
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert_eq!(t.fan_out, 10);
    // Salts 0 to 3 share tablet 0: 40% of the writes.
    assert!((t.hottest_partition_share.mean - 0.4).abs() < 1e-9);
    // Split, the hottest piece is one salt: 0.143 + its Poisson peak.
    let p95 = t.peak_utilization.p95;
    assert!((0.143..0.17).contains(&p95), "{p95}");
    let nodes = t.nodes.as_ref().expect("node results");
    assert!((nodes.hottest_node_share.mean - 0.4).abs() < 1e-9);
    let p95 = nodes.peak_utilization.p95;
    assert!((0.57..0.62).contains(&p95), "{p95}");
    // One row per item: no row ceiling on a prefix, 256 MiB per row.
    assert_eq!(t.partition_size_limit_bytes, None);
    assert_eq!(t.item_size_limit_bytes, Some(268_435_456.0));
}

/// C11 before: sharded on { user: 1 } with 64 MB chunks, the largest
/// mailboxes (≈ 100 GB, the case's "100GB mailboxes") are single shard-key
/// values over the chunk size from the start: jumbo chunks on day 0.
#[test]
fn c11_user_shard_key_makes_jumbo_chunks_from_day_0() {
    let r = run_case("scenarios/cases/c11-mailbox-user-shard-key.toml");
    assert_eq!(verdict(&r, "partition_size"), Fail);
    // The fix named is MongoDB's (the case's own: { mailbox: 1, uid: 1 }),
    // not only a time bucket or write shards.
    let size = r.verdicts.iter().find(|v| v.check == "partition_size");
    let detail = size.map_or("", |v| v.detail.as_str());
    assert!(
        detail.contains("a jumbo chunk: MongoDB's usual fix is a shard key of higher cardinality")
            && detail.contains("refineCollectionShardKey"),
        "{detail}"
    );
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert_eq!(t.partition_size_limit_bytes, Some(67_108_864.0));
    assert_eq!(t.size_breach.mean_day, Some(0.0));
    assert!((t.size_breach.probability.mean - 1.0).abs() < 1e-12);
    let largest = t.max_item_collection_bytes.mean;
    assert!((50e9..200e9).contains(&largest), "{largest}");
}

/// C11 after: { mailbox: 1, uid: 1 } gives every message its own value, so
/// the largest item collection is one message, the largest of the year's
/// 1.8·10⁹ (log-normal, median 20 KB, p99 100 KB: ≈ 1.9 MB at the p95),
/// ≪ 64 MiB: no jumbo chunk.
#[test]
fn c11_mailbox_uid_shard_key_keeps_values_bounded() {
    let r = run_case("scenarios/cases/c11-mailbox-uid-shard-key.toml");
    assert_eq!(verdict(&r, "partition_size"), Pass);
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert!(t.size_breach.mean_day.is_none());
    let p95 = t.max_item_collection_bytes.p95;
    assert!(p95 < 3e6, "{p95}");
    assert!(
        p95 >= t.max_item_bytes.p95,
        "{p95} vs {}",
        t.max_item_bytes.p95
    );
    // Deliveries spread evenly: the busiest of 3 shards within 1% of a third.
    let nodes = t.nodes.as_ref().expect("shard results");
    assert!((nodes.hottest_node_share.mean - 1.0 / 3.0).abs() < 0.01);
}

/// What designs are compared by on a store that limits shards is the
/// busiest shard, not a chunk: C11 after spreads 115.74 deliveries/s and
/// 400 list queries/s (busy period) over 4,096 chunks on 3 shards of
/// 10,000 ops/s. The busiest shard carries ≈ a third, 171.9 ops/s, a mean
/// utilization of 0.0172; its busiest of 3,600 one-second windows is about
/// 3.5 standard deviations (√171.9 = 13.1) higher, ≈ 0.0218, and the
/// busiest of 3 shards a little more. A chunk has no limit of its own
/// (the terminal table, the report's variants table and the
/// recommendation once showed a chunk's 0.0006 of the shard's limit as
/// the design's peak p95).
#[test]
fn designs_on_shards_are_compared_by_the_busiest_shard() {
    let r = run_case("scenarios/cases/c11-mailbox-uid-shard-key.toml");
    let t = &r.tables[0];
    let nodes = t.nodes.as_ref().expect("shard results");
    assert!(!t.has_partition_limit());
    // The table's own busiest shard, and the cluster's (every table summed:
    // here the one table, judged on its own draws).
    for shard in [t.peak_utilization.p95, nodes.peak_utilization.p95] {
        assert!((0.0215..0.025).contains(&shard), "{shard}");
    }
    let busiest = t.busiest_server_p95();
    let lines = keyheat::report::terminal_table(&r);
    let cells: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        cells[..3],
        ["base", "messages", &keyheat::format::sig3(busiest)]
    );
}

/// analyzeShardKey characteristics of the C11 designs: { user } has 100,000
/// values, the top holding 0.8 / 20,000 = 4·10⁻⁵ of the messages (a hot user
/// of the YCSB hotspot), not monotonic; every read and write names the key.
#[test]
fn c11_analyze_shard_key_characteristics() {
    let s = scenario_at("scenarios/cases/c11-mailbox-user-shard-key.toml");
    let a = analyze_shard_key(&s, 0).expect("table 0");
    assert_eq!(a.sharding, ShardKey::Ranged);
    assert_eq!(a.cardinality, 100_000.0);
    assert_eq!(a.monotonicity, Monotonicity::NotMonotonic);
    assert_eq!(a.most_common_values.len(), 5);
    assert_eq!(a.most_common_values[0].0, "<user #1>");
    assert!((a.most_common_values[0].1 - 4e-5).abs() < 1e-15);
    assert_eq!(a.reads_single_shard_share, 1.0);
    assert_eq!(a.writes_single_shard_share, 1.0);
    // { mailbox, uid }: 200,000 × 5,000 values of one message each.
    let s = scenario_at("scenarios/cases/c11-mailbox-uid-shard-key.toml");
    let a = analyze_shard_key(&s, 0).expect("table 0");
    assert_eq!(a.cardinality, 1e9);
    assert!((a.most_common_values[0].1 - 1e-9).abs() < 1e-24);
    assert_eq!(a.most_common_values[0].0, "<mailbox #1>#<uid #1>");
    // A timestamp shard key: monotonic, unbounded.
    let s = scenario_at("scenarios/mongodb-monotonic-ranged.toml");
    let a = analyze_shard_key(&s, 0).expect("table 0");
    assert_eq!(a.monotonicity.as_str(), "monotonic");
    assert!(a.cardinality.is_infinite());
    assert!(a.most_common_values.is_empty());
}

/// The C11 stores' layouts: 64 MiB chunks as the jumbo ceiling, 16 MiB
/// documents, round-robin shards; 20 TB of mailboxes is 4,096 simulated runs
/// of chunks.
#[test]
fn c11_layout_uses_the_2017_chunk_size() {
    let s = scenario_at("scenarios/cases/c11-mailbox-user-shard-key.toml");
    let model = Model::new(&s.store, "c11").unwrap();
    let store = model.store();
    assert!(store.ranged());
    let small = store.layout(&demand(0.0));
    assert_eq!(small.partitions, 3);
    assert_eq!(small.item_collection_limit_bytes, Some(67_108_864.0));
    assert_eq!(small.item_size_limit_bytes, Some(16_777_216.0));
    let big = store.layout(&demand(20e12));
    assert_eq!(big.partitions, keyheat::store::mongodb::MAX_PARTITIONS);
    // 20 TB / 64 MiB = 298,024 chunks; "USER#5" sits at 4/9 of the key
    // space: chunk ⌊298,024 · 4/9⌋ = 132,455, in run ⌊132,455 · 4096 /
    // 298,024⌋ = 1,820 of 4,096, round-robin on shard 1,820 mod 3 = 2.
    assert_eq!(
        store.describe_placement("USER#5", &demand(20e12)),
        "chunk=132455 shard=2 position=0.444444"
    );
}

/// Ten equally hot rows in one tablet (`tablets = 1`) on 3 nodes, 1,000
/// rows/s each (10 × 1000/14,000 = 714 node-ms/s, over the 100 node-ms/s
/// split threshold). Whole, the tablet's node takes all of it. Split by
/// load, the ten rows go largest-first to the least-loaded node: 4 / 3 / 3,
/// the hottest node ⌈10/3⌉/10 = 0.4 of the load. Split from 30 minutes into
/// the hour (`load_split_delay`), the busiest node takes ½·1 + ½·0.4 = 0.7.
/// A timestamp-leading key has one append point: one node either way.
#[test]
fn load_splitting_spreads_a_hot_range_but_not_an_append_point() {
    let text = |key: &str, split: &str| {
        format!(
            r#"
schema_version = 1
name = "split"
[store]
kind = "bigtable"
nodes = 3
tablets = 1
{split}
[simulation]
trials = 4
duration = "1h"
[[entity]]
name = "row"
count = 10
popularity = {{ distribution = "uniform" }}
[[table]]
name = "t"
partition_key = "{key}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 10000
by = "row"
"#
        )
    };
    let share = |key: &str, split: &str| {
        let r = crate::util::run(&text(key, split));
        let n = r.tables[0].nodes.as_ref().expect("node results");
        n.hottest_node_share.mean
    };
    assert!((share("ROW#{row}", "load_split = false") - 1.0).abs() < 1e-12);
    assert!((share("ROW#{row}", "") - 0.4).abs() < 1e-12);
    let delayed = share("ROW#{row}", "load_split_delay = \"30m\"");
    assert!((delayed - 0.7).abs() < 1e-12, "{delayed}");
    assert!((share("{time}#{row}", "") - 1.0).abs() < 1e-12);
    assert!((share("{time}#{row}", "load_split = false") - 1.0).abs() < 1e-12);
    // 100,000 uniform rows: the 256 head rows go 86 / 85 / 85, the divisible
    // tail is water-filled on top: every node ends at exactly a third.
    let many = text("ROW#{row}", "").replace("count = 10\n", "count = 100000\n");
    let r = crate::util::run(&many);
    let n = r.tables[0].nodes.as_ref().expect("node results");
    assert!((n.hottest_node_share.mean - 1.0 / 3.0).abs() < 1e-9);
    // Once split, the limit of one node applies to each row: 71.4 node-ms/s
    // (0.071) plus its Poisson peak, well under 1; the append point keeps
    // 714 node-ms/s (0.71) on one server.
    let r = crate::util::run(&text("ROW#{row}", ""));
    let p95 = r.tables[0].peak_utilization.p95;
    assert!((0.071..0.1).contains(&p95), "{p95}");
    let r = crate::util::run(&text("{time}#{row}", ""));
    let p95 = r.tables[0].peak_utilization.p95;
    assert!((0.71..0.76).contains(&p95), "{p95}");
}

/// Split by size: 1,000 sensors × 1,000 readings of 1 KB = 1 GB stored at
/// the start = ⌈1e9 / 200e6⌉ = 5 tablets (200 MB each, the assumption);
/// an empty table keeps one tablet per node.
#[test]
fn tablet_count_grows_with_stored_data() {
    let s = crate::util::scenario(
        r#"
schema_version = 1
name = "size"
[store]
kind = "bigtable"
nodes = 3
[simulation]
trials = 2
duration = "10s"
[[entity]]
name = "sensor"
count = 1000
[[table]]
name = "t"
partition_key = "S#{sensor}"
sort_key = "{time}"
item_size = "1000B"
initial_items = 1000
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 10
by = "sensor"
"#,
    );
    let model = Model::new(&s.store, "size").unwrap();
    assert_eq!(model.store().layout(&demand(0.0)).partitions, 3);
    assert_eq!(model.store().layout(&demand(1e9)).partitions, 5);
    assert_eq!(model.store().layout(&demand(1e9 + 1.0)).partitions, 6);
    let r = crate::util::simulate(&s, &Default::default()).unwrap();
    assert_eq!(r.tables[0].partitions, 5);
}

/// Row key ≤ 4 KiB: a literal of 4,076 bytes + one placeholder (20 bytes)
/// is exactly 4,096 and passes; one byte more fails `row_key_size`, and
/// `keyheat check` prints the failure and exits 3.
#[test]
fn row_keys_over_4_kib_fail_row_key_size() {
    let text = |literal: usize| {
        format!(
            r#"
schema_version = 1
name = "long-keys"
[store]
kind = "bigtable"
[simulation]
trials = 2
duration = "10s"
[[entity]]
name = "user"
count = 1000
[[table]]
name = "t"
partition_key = "{}{{user}}"
item_size = "1KB"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = 10
by = "user"
"#,
            "k".repeat(literal)
        )
    };
    let fits = crate::util::run(&text(4076));
    assert_eq!(verdict(&fits, "row_key_size"), Pass);
    let over = crate::util::run(&text(4077));
    assert_eq!(verdict(&over, "row_key_size"), Fail);
    let v = over
        .verdicts
        .iter()
        .find(|v| v.check == "row_key_size")
        .unwrap();
    assert!(v.detail.contains("up to 4,097 bytes"), "{}", v.detail);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.toml");
    std::fs::write(&path, text(4077)).unwrap();
    let out = Command::cargo_bin("keyheat")
        .unwrap()
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("fail row_key_size (table `t`)"), "{stdout}");
    std::fs::write(&path, text(4076)).unwrap();
    let out = Command::cargo_bin("keyheat")
        .unwrap()
        .args(["check", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
}

/// Rows over 256 MiB: with `row_key = "partition_key"` a row is an item
/// collection (10 sensors × 100 readings/s × 1 KB = 8.64 GB per row per day:
/// `partition_size` fails on day 0.03); with `partition_and_sort_key` a row
/// is an item (300 MB > 268,435,456 B: `item_size` fails). Both say the row
/// cannot be read in full.
#[test]
fn rows_over_256_mib_are_reported_unreadable_whole() {
    let text = |row_key: &str, item: &str| {
        format!(
            r#"
schema_version = 1
name = "rows"
[store]
kind = "bigtable"
row_key = "{row_key}"
[simulation]
trials = 4
duration = "10s"
horizon = "30d"
[[entity]]
name = "sensor"
count = 10
popularity = {{ distribution = "uniform" }}
[[table]]
name = "t"
partition_key = "S#{{sensor}}"
sort_key = "{{time}}"
item_size = "{item}"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 1000
by = "sensor"
"#
        )
    };
    let r = crate::util::run(&text("partition_key", "1KB"));
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "partition_size")
        .unwrap();
    assert_eq!(v.status, Fail);
    assert!(
        v.detail
            .contains("268,435,456 bytes (256 MiB) cannot be read in full"),
        "{}",
        v.detail
    );
    let r = crate::util::run(&text("partition_and_sort_key", "300MB"));
    let v = r.verdicts.iter().find(|v| v.check == "item_size").unwrap();
    assert_eq!(v.status, Fail);
    assert!(v.detail.contains("cannot be read in full"), "{}", v.detail);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "partition_size")
        .unwrap();
    assert!(!v.detail.contains("cannot be read in full"), "{}", v.detail);
}

/// Orders sharded on `{order}` over 4 shards of 10,000 ops/s, read 2,000
/// times a second. By order id (the shard key) the reads spread: ≈ 500 per
/// shard (0.05 of a shard). By customer (not in the shard key) every read is
/// scatter-gather, broadcast by mongos to all 4 shards: 2,000 per shard, so
/// the shards' mean load is exactly 4× — 0.2 of a shard each.
fn orders_read_by(by: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "scatter"
[store]
kind = "mongodb"
shards = 4
[simulation]
trials = 6
duration = "5m"
[[entity]]
name = "order"
count = 1000000
[[entity]]
name = "customer"
count = 10000
[[table]]
name = "orders"
partition_key = "{{order}}"
item_size = "1KB"
[[access_pattern]]
name = "find orders"
table = "orders"
operation = "get"
rate = 2000
peak_factor = 1.0
by = "{by}"
"#
    )
}

#[test]
fn scatter_gather_reads_reach_every_shard() {
    let mean_node_load = |r: &RunResults| -> f64 {
        let n = r.tables[0].nodes.as_ref().expect("shards");
        let total: f64 = n
            .ranks
            .iter()
            .map(|k| k.read_units_per_s + k.write_units_per_s)
            .sum();
        total / n.count as f64
    };
    let targeted = crate::util::run(&orders_read_by("order"));
    let scattered = crate::util::run(&orders_read_by("customer"));
    let a = analyze_shard_key(&crate::util::scenario(&orders_read_by("customer")), 0).unwrap();
    assert_eq!(a.reads_scatter_gather_share, 1.0);
    assert_eq!(a.scatter_gather_patterns, vec![0]);
    let (t, s) = (mean_node_load(&targeted), mean_node_load(&scattered));
    assert!((t - 500.0).abs() < 1e-6, "{t}");
    assert!((s - 2000.0).abs() < 1e-6, "{s}");
    // Every shard takes every request: the busiest is at ≈ 0.2 of 10,000 ops/s.
    let n = scattered.tables[0].nodes.as_ref().unwrap();
    for k in &n.ranks {
        assert!(
            (k.read_units_per_s - 2000.0).abs() < 1e-6,
            "{}",
            k.read_units_per_s
        );
    }
    assert!(n.peak_utilization.mean > 0.2 && n.peak_utilization.mean < 0.23);
    // The table's fan-out (the compare and variants tables' column) says
    // so: 4 shards a broadcast read, 1 a targeted one.
    assert_eq!(scattered.tables[0].fan_out, 4);
    assert_eq!(targeted.tables[0].fan_out, 1);
}

/// A `{time}` shard key: 100 inserts/s and 50 time-range queries/s on 3
/// shards. Ranged, both go to the MaxKey chunk (the newest range): one
/// shard takes all 150 ops/s. Hashed, the inserts spread (≈ 33 per shard)
/// and each range query is scatter-gather, broadcast to all 3 shards
/// (50 per shard): 83.3 per shard, evenly.
#[test]
fn range_queries_over_a_time_key_read_the_newest_chunk_when_ranged() {
    let text = |sharding: &str| {
        format!(
            r#"
schema_version = 1
name = "time-key"
[store]
kind = "mongodb"
shards = 3
shard_key = "{sharding}"
[simulation]
trials = 4
duration = "2m"
[[table]]
name = "events"
partition_key = "{{time}}"
item_size = "1KB"
[[access_pattern]]
name = "log"
table = "events"
operation = "put"
rate = 100
peak_factor = 1.0
[[access_pattern]]
name = "last hour"
table = "events"
operation = "query"
items = 10
rate = 50
peak_factor = 1.0
"#
        )
    };
    let loads = |r: &RunResults| -> Vec<f64> {
        r.tables[0]
            .nodes
            .as_ref()
            .unwrap()
            .ranks
            .iter()
            .map(|k| k.read_units_per_s + k.write_units_per_s)
            .collect()
    };
    let ranged = loads(&crate::util::run(&text("ranged")));
    assert!((ranged[0] - 150.0).abs() < 1e-6, "{ranged:?}");
    assert!(ranged[1..].iter().all(|&x| x == 0.0), "{ranged:?}");
    let hashed = loads(&crate::util::run(&text("hashed")));
    for x in &hashed {
        assert!((x - (100.0 / 3.0 + 50.0)).abs() < 1e-6, "{hashed:?}");
    }
}

/// A MongoDB secondary index lives on every shard with its documents: a read
/// through an index on `{customer}` (not the shard key `{order}`) is one
/// request to each of the 4 shards (2,000 per shard for 2,000 reads/s), and
/// no separate "orders.by_customer" table is simulated.
#[test]
fn a_read_through_a_mongodb_index_without_the_shard_key_reaches_every_shard() {
    let text = orders_read_by("customer")
        .replace(
            "[[access_pattern]]",
            "[[table.index]]\nname = \"by_customer\"\npartition_key = \"{customer}\"\n\n[[access_pattern]]",
        )
        .replace("table = \"orders\"\noperation", "table = \"orders.by_customer\"\noperation");
    let r = crate::util::run(&text);
    let names: Vec<&str> = r.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["orders"]);
    for k in &r.tables[0].nodes.as_ref().unwrap().ranks {
        assert!(
            (k.read_units_per_s - 2000.0).abs() < 1e-6,
            "{}",
            k.read_units_per_s
        );
    }
}

/// Growing traffic on Bigtable: the tablets multiply with the data (10 days
/// of 200 B rows: day 0 stores nothing, day 365 hundreds of GB), so the
/// partitions' worst checkpoint is day 0, but the nodes' load only grows
/// with the traffic. Writes 10,000/s × 1000/14,000 = 714.3 node-ms/s on
/// day 0; × 1.1^{365/30} = 3.1886 on day 365, over 2 nodes: 1,138.8
/// node-ms/s each, 1.139 of a node's 1,000 (a new user's report: the nodes
/// were judged on day 0's 0.377 and passed).
#[test]
fn nodes_are_judged_at_their_own_worst_checkpoint() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "meters-growing"
[store]
kind = "bigtable"
nodes = 2
[simulation]
seed = 7
trials = 20
window = "1s"
duration = "10m"
horizon = "365d"
growth = "10%/month"
checkpoints = ["0d", "365d"]
[[entity]]
name = "device"
count = 200_000
[[table]]
name = "telemetry"
partition_key = "{device}"
sort_key = "{time}"
item_size = "200B"
ttl = "10d"
[[access_pattern]]
name = "Ingest reading"
table = "telemetry"
operation = "put"
rate = 10000
by = "device"
"#,
    );
    let t = &r.tables[0];
    assert_eq!(t.day, 0.0, "the partitions' worst day");
    let nodes = t.nodes.as_ref().expect("node results");
    assert_eq!(nodes.day, 365.0);
    assert!(
        (nodes.traffic_factor - 3.1886).abs() < 1e-3,
        "{}",
        nodes.traffic_factor
    );
    let mean = 10_000.0 / 14.0 * nodes.traffic_factor / 2.0 / 1000.0;
    let u = nodes.peak_utilization;
    assert!(u.mean > mean && u.p95 < mean * 1.1, "{u:?} vs mean {mean}");
    assert_eq!(verdict(&r, "hot_node"), Fail);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_node")
        .expect("hot_node");
    assert!(
        v.detail.contains("at day 365 (traffic × 3.19)"),
        "{}",
        v.detail
    );
    // The report's headline gives the nodes' peak and day beside the
    // tablets'.
    let report = keyheat::report::markdown(&r, &[]);
    let headline = format!(
        "The busiest node peaks at {}× the per-node limit (mean; p95 {}×, day 365).",
        keyheat::format::sig3(u.mean),
        keyheat::format::sig3(u.p95)
    );
    assert!(report.contains(&headline), "{report}");
    // The row key's size holds whatever the traffic: no day on it.
    let k = r
        .verdicts
        .iter()
        .find(|v| v.check == "row_key_size")
        .expect("row_key_size");
    assert!(!k.detail.contains("traffic ×"), "{}", k.detail);
}

/// A read MongoDB broadcasts (by an index whose key lacks the shard key)
/// asks every shard once: 10 requests/s over 4 shards are 40 operations/s
/// in its pattern row, its share and the daily mean, as in the busy-period
/// total (a new user saw the total count the broadcast and the rows not).
#[test]
fn a_broadcast_read_counts_one_operation_per_shard_everywhere() {
    let text = r#"schema_version = 1
name = "b"
[store]
kind = "mongodb"
shards = 4
[simulation]
trials = 2
[[entity]]
name = "device"
count = 20000
[[entity]]
name = "site"
count = 200
[[table]]
name = "readings"
partition_key = "{device}"
sort_key = "{time}"
item_size = "400B"
[[table.index]]
name = "by_site"
partition_key = "{site}"
sort_key = "{time}"
[[access_pattern]]
name = "device"
table = "readings"
operation = "query"
rate = 30
by = "device"
[[access_pattern]]
name = "site"
table = "readings.by_site"
operation = "query"
rate = 10
by = "site"
"#;
    let r = crate::util::run(text);
    let t = &r.tables[0];
    let site = t
        .patterns
        .iter()
        .find(|p| p.pattern == "site")
        .expect("site row");
    assert_eq!((site.fan_out, site.units_per_request), (4.0, 4.0));
    assert!(
        (site.units_per_s - 40.0).abs() < 1e-9,
        "{}",
        site.units_per_s
    );
    assert!(
        (site.units_share - 40.0 / 70.0).abs() < 1e-9,
        "{}",
        site.units_share
    );
    assert!(
        (t.mean_read_units_per_s - 70.0).abs() < 1e-9,
        "{}",
        t.mean_read_units_per_s
    );
    assert!(
        (t.read_units_per_s - 70.0).abs() < 1e-6,
        "{}",
        t.read_units_per_s
    );
}

/// Orders keyed `{customer}#{time}` (ranged, 4 shards), one customer of
/// 1,000 placing half of 2,000 orders/s: a customer's keys sort together,
/// newest last, so all its inserts go to the chunk where its range ends.
/// Its shard takes 0.5 + 0.5 × ¼ of the rest ≈ 0.625 of the load, as with
/// `{customer}` alone; hashed, every insert hashes anew: ¼ each.
fn orders_keyed(key: &str, shard_key: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "compound"
[store]
kind = "mongodb"
shards = 4
shard_key = "{shard_key}"
[simulation]
trials = 20
duration = "5m"
[[entity]]
name = "customer"
count = 1000
popularity = {{ distribution = "hotspot", hot_fraction = 0.001, hot_share = 0.5 }}
[[entity]]
name = "product"
count = 50
[[table]]
name = "orders"
partition_key = "{key}"
item_size = "1KB"
[[access_pattern]]
name = "place order"
table = "orders"
operation = "put"
rate = 2000
peak_factor = 1.0
by = "customer"
"#
    )
}

#[test]
fn a_ranged_compound_key_sends_a_customers_inserts_to_the_end_of_its_range() {
    let busiest = |key: &str, shard_key: &str| -> f64 {
        let r = crate::util::run(&orders_keyed(key, shard_key));
        let t = &r.tables[0];
        if key.contains("{time}") {
            // Each insert still its own document under its own key: the
            // largest item collection is one 1 KB order, not a customer's.
            let largest = t.max_item_collection_bytes.p95;
            assert!(largest < 1100.0, "{key} {shard_key}: {largest}");
        }
        t.nodes.as_ref().expect("shards").hottest_node_share.mean
    };
    let compound = busiest("{customer}#{time}", "ranged");
    let customer = busiest("{customer}", "ranged");
    assert!((compound - 0.625).abs() < 0.01, "{compound}");
    // An entity past `{time}` does not move the key's position: its
    // 50 values are no 50 places for the customer's inserts.
    let product = busiest("{customer}#{time}#{product}", "ranged");
    assert!((product - 0.625).abs() < 0.01, "{product}");
    assert!((customer - 0.625).abs() < 0.01, "{customer}");
    let hashed = busiest("{customer}#{time}", "hashed");
    assert!((hashed - 0.25).abs() < 1e-9, "{hashed}");
}

/// A shard's stored bytes are one copy of its data (each member of its
/// replica set stores it all), not "every replica counted" as on
/// Cassandra's nodes, where a node holds its share of RF copies: 1,000
/// users × 1 item of 1 MB a day for 100 days is 100 GB, one copy over the
/// 4 shards (the verdict's total, and what a reviewer adds up by hand).
#[test]
fn a_shards_storage_is_one_copy_of_its_data() {
    let text = r#"
schema_version = 1
name = "one-copy"
[store]
kind = "mongodb"
shards = 4
node_storage = "1TB"
[simulation]
trials = 20
duration = "1m"
horizon = "100d"
[[entity]]
name = "user"
count = 1000
[[table]]
name = "docs"
partition_key = "{user}"
sort_key = "{time}"
item_size = "1MB"
[[access_pattern]]
name = "save"
table = "docs"
operation = "put"
rate = "1000/day"
by = "user"
"#;
    let r = crate::util::run(text);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "node_storage")
        .expect("a node_storage verdict");
    assert!(
        v.detail.contains(
            "all shards 100 GB, one copy a shard, as each member of its replica set stores it)"
        ),
        "{}",
        v.detail
    );
    let md = keyheat::report::markdown(&r, &[]);
    assert!(!md.contains("every replica counted"), "{md}");
}

/// A ranged shard key `{room}` bucketed by the hour sorts one room's
/// buckets next to each other, so "the room's last 2 hours" is one
/// targeted range query (mongos sends it to the shard whose chunk holds
/// the range): 1,000 queries/s are 1,000 operations of 50 documents, not
/// 2,000 of 25 as on a hashed key, where the two buckets hash apart and
/// each is its own query. Bigtable's row keys alike: one row range read.
#[test]
fn a_ranged_keys_buckets_of_one_instance_are_one_range_query() {
    let text = |store: &str| {
        format!(
            r#"
schema_version = 1
name = "rooms"
[store]
{store}
[simulation]
trials = 20
duration = "1m"
[[entity]]
name = "room"
count = 10000
[[table]]
name = "messages"
partition_key = "{{room}}"
sort_key = "{{time}}"
bucket = "1h"
item_size = "500B"
[[access_pattern]]
name = "latest"
table = "messages"
operation = "query"
rate = 1000
items = 50
range = "2h"
by = "room"
"#
        )
    };
    let load = |store: &str| {
        let r = crate::util::run(&text(store));
        let t = &r.tables[0];
        let p = &t.patterns[0];
        (t.fan_out, p.fan_out, p.requests_per_s * p.fan_out)
    };
    let ranged = "kind = \"mongodb\"\nshards = 4\nshard_key = \"ranged\"";
    assert_eq!(load(ranged), (1, 1.0, 1000.0));
    let hashed = "kind = \"mongodb\"\nshards = 4\nshard_key = \"hashed\"";
    assert_eq!(load(hashed), (2, 2.0, 2000.0));
    let (fan, pattern_fan, _) = load("kind = \"bigtable\"\nnodes = 3");
    assert_eq!((fan, pattern_fan), (1, 1.0));
}

/// A chunk has no throughput of its own: the shards are what MongoDB's
/// load is judged against, and the load over them is the throttled share
/// (requests a shard cannot serve: they queue, as on a Redis master).
/// 60,000 uniform gets/s over 4 hashed shards of 10,000 ops/s: each shard
/// asked ≈ 15,000, so 1 − 10,000/15,000 = 1/3 of the ops are over (helper-74
/// read "throttled 0.0291%" beside a shard at 1.75× its limit: a chunk's
/// own excess against the shard's limit).
#[test]
fn a_shard_over_its_limit_is_the_throttled_share() {
    let text = r#"
schema_version = 1
name = "over"
[store]
kind = "mongodb"
shards = 4
shard_key = "hashed"
[simulation]
trials = 20
duration = "10m"
[[entity]]
name = "user"
count = 1_000_000
[[table]]
name = "t"
partition_key = "{user}"
item_size = "1KB"
initial_items = 1
[[access_pattern]]
name = "get"
table = "t"
operation = "get"
rate = 60000
by = "user"
"#;
    let r = crate::util::run(text);
    assert_eq!(verdict(&r, "hot_node"), Fail);
    let t = &r.tables[0];
    let throttled = t.throttled_fraction.mean;
    assert!((throttled - 1.0 / 3.0).abs() < 0.005, "{throttled}");
    let md = keyheat::report::markdown(&r, &[]);
    assert!(!md.contains("not counted there"), "{md}");
}

/// A Bigtable row key holding `{time}` (`{user}#{time}`, one row per event)
/// makes a query of 20 events read 20 rows, each at a row's cost (at least
/// 1 KiB: 1,000 ÷ 17,000 node-ms), whatever `row_key` says: 20 × 1000 /
/// 17,000 = 1.176 node-ms, as the same rows keyed `{user}` + sort key
/// `{time}` with `row_key = "partition_and_sort_key"` cost. helper-67: the
/// events were costed as one 12 KB row (0.689 node-ms), and the design's
/// `hot_node` read 0.908 (warn) where it is 1.34 (fail).
#[test]
fn a_query_over_a_time_row_key_reads_one_row_per_item() {
    let text = |key: &str, sort: &str, row_key: &str| {
        format!(
            r#"schema_version = 1
name = "events"
[store]
kind = "bigtable"
nodes = 3
{row_key}
[simulation]
trials = 4
duration = "60s"
[[entity]]
name = "user"
count = 100000
[[table]]
name = "activity"
partition_key = "{key}"
{sort}
item_size = "600B"
[[access_pattern]]
name = "latest"
table = "activity"
operation = "query"
rate = 100
items = 20
by = "user"
"#
        )
    };
    let cost = |text: String| {
        let r = crate::util::run(&text);
        r.tables[0].patterns[0].units_per_request
    };
    let rows = 20.0 * 1000.0 / 17_000.0;
    let time_key = cost(text("{user}#{time}", "", ""));
    assert!((time_key - rows).abs() < 1e-9, "{time_key} vs {rows}");
    let tall = cost(text(
        "{user}",
        "sort_key = \"{time}\"",
        "row_key = \"partition_and_sort_key\"",
    ));
    assert!((tall - rows).abs() < 1e-9, "{tall} vs {rows}");
    // One row of 20 cells: 12,000 B ÷ 1,024 at a row's rate.
    let wide = cost(text("{user}", "sort_key = \"{time}\"", ""));
    let one_row = 12_000.0 / 1024.0 * 1000.0 / 17_000.0;
    assert!((wide - one_row).abs() < 1e-9, "{wide} vs {one_row}");
}

/// MongoDB's balancer evens data size per shard (since 6.0.3), so a shard's
/// stored bytes are levelled, but a jumbo chunk (one key over the chunk
/// size) cannot move. One key taking 70% of the bytes (a jumbo chunk) and
/// 1,000,000 small keys the other 30%: the jumbo's shard holds 0.7 of the
/// data and the three others 0.1 each (levelled), where each shard's equal
/// share of the chunks gave the jumbo's shard 0.775 (helper-68: 12.3 TB
/// where the balancer gives 45.0 / 4 = 11.25 TB).
#[test]
fn a_balanced_shard_stores_its_level_or_its_jumbo_chunk() {
    let r = crate::util::run(
        r#"schema_version = 1
name = "jumbo"
[store]
kind = "mongodb"
shards = 4
node_storage = "100TB"
[simulation]
trials = 4
duration = "1m"
horizon = "30d"
[[entity]]
name = "feed"
count = 1
[[entity]]
name = "user"
count = 1_000_000
[[table]]
name = "feeds"
partition_key = "{feed}"
sort_key = "{time}"
item_size = "1000B"
[[table]]
name = "users"
partition_key = "{user}"
sort_key = "{time}"
item_size = "1000B"
[[access_pattern]]
name = "feed write"
table = "feeds"
operation = "put"
rate = 700
peak_factor = 1
by = "feed"
[[access_pattern]]
name = "user write"
table = "users"
operation = "put"
rate = 300
peak_factor = 1
by = "user"
"#,
    );
    let m = r.tables[0]
        .nodes
        .as_ref()
        .and_then(|n| n.memory.as_ref())
        .expect("node storage");
    let total = m.total_bytes.mean;
    let shares: Vec<f64> = m.ranks_bytes.iter().map(|b| b / total).collect();
    let want = [0.7, 0.1, 0.1, 0.1];
    for (got, want) in shares.iter().zip(want) {
        assert!((got - want).abs() < 0.002, "{shares:?}");
    }
}

/// One seller's profile document with its reviews embedded as an array:
/// 100,000 appends of 300 B a day reach the 16 MiB BSON limit on day
/// (16,777,216 − 3,000) ÷ 30,000,000 = 0.559, and MongoDB rejects the
/// update past it, so the document's chunk holds at most that one 16 MiB
/// document: no jumbo chunk of the 900 MB the appends would make in 30
/// days.
#[test]
fn a_document_stopped_at_16_mib_makes_no_jumbo_chunk() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "embedded-reviews"
[store]
kind = "mongodb"
shard_key = "ranged"
[simulation]
trials = 20
horizon = "30d"
[[entity]]
name = "seller"
count = 1
[[table]]
name = "seller_profiles"
partition_key = "{seller}"
item_size = "3KB"
initial_items = 1
[[access_pattern]]
name = "Add review"
table = "seller_profiles"
operation = "append"
rate = "100k/day"
element_size = "300B"
by = "seller"
"#,
    );
    assert_eq!(verdict(&r, "item_size"), Fail);
    assert_eq!(verdict(&r, "partition_size"), Pass);
    let t = &r.tables[0];
    let day = t
        .item_size_breach
        .mean_day
        .expect("the document passes 16 MiB");
    let expected = (16_777_216.0 - 3_000.0) / 30e6;
    assert!((day - expected).abs() < 0.01, "{day} vs {expected}");
    // What the appends would make, as the item check shows it.
    assert!(t.max_item_bytes.p95 > 800e6, "{}", t.max_item_bytes.p95);
    let chunk = t.max_item_collection_bytes.p95;
    assert!((chunk - 16_777_216.0).abs() < 1.0, "{chunk}");
    // Both sizes shown, each said for what it is.
    let size = r.verdicts.iter().find(|v| v.check == "partition_size");
    let detail = size.map_or("", |v| v.detail.as_str());
    assert!(
        detail.contains("the appended item counts here up to the 16 MiB item ceiling"),
        "{detail}"
    );
}

/// A ranged `{seller}#{id}` key sorts each seller's documents together: a
/// get by seller reads one of them, in the seller's range, so its gets
/// take the seller's popularity as its puts do. 500,000 sellers, Zipf 0.9:
/// the top seller's share is 1 ÷ Σ k^−0.9 (k ≤ 500,000) = 3.61%, so 3,000
/// gets/s put 108 reads/s on its key (helper-74 read 0: each get was a
/// fresh key spread over every chunk).
#[test]
fn a_get_on_a_ranged_compound_key_follows_its_prefix() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "getid"
[store]
kind = "mongodb"
shards = 4
shard_key = "ranged"
[simulation]
trials = 20
duration = "10m"
[[entity]]
name = "seller"
count = 500_000
popularity = { distribution = "zipf", exponent = 0.9 }
[[table]]
name = "listings"
partition_key = "{seller}#{id}"
item_size = "2KB"
[[access_pattern]]
name = "create"
table = "listings"
operation = "put"
rate = 10
by = "seller"
[[access_pattern]]
name = "get"
table = "listings"
operation = "get"
rate = 3000
by = "seller"
"#,
    );
    let h: f64 = (1..=500_000u32).map(|k| f64::from(k).powf(-0.9)).sum();
    let top = &r.tables[0].hot_keys[0];
    let expected = 3_000.0 / h;
    assert!(
        (top.read_units_per_s / expected - 1.0).abs() < 1e-6,
        "{} vs {expected}",
        top.read_units_per_s
    );
}

/// Bigtable splits a user's rows over as many tablets as they fill and
/// moves tablets between nodes; the storage limit is the cluster's bytes ÷
/// its nodes ("Quotas and limits"). 1,000 events/s of 1 KB, one row each,
/// store 86.4 GB a day, 21.6 GB on each of 4 nodes, so a node reaches 1 TB
/// on day 10¹² ÷ 21.6·10⁹ = 46.30 — whatever the top user's share (Zipf
/// 1.1 over 10,000 users: 10.8%), whose history was held on one node
/// (helper-76: day 77.1 where the even share gives 90.8).
#[test]
fn bigtable_node_storage_is_the_clusters_bytes_over_its_nodes() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "events"
[store]
kind = "bigtable"
nodes = 4
node_storage = "1TB"
row_key = "partition_and_sort_key"
[simulation]
trials = 20
duration = "10m"
horizon = "60d"
[[entity]]
name = "user"
count = 10_000
popularity = { distribution = "zipf", exponent = 1.1 }
[[table]]
name = "events"
partition_key = "{user}"
sort_key = "{time}"
item_size = "1KB"
[[access_pattern]]
name = "Record event"
table = "events"
operation = "put"
rate = 1000
by = "user"
"#,
    );
    let memory = r.tables[0]
        .nodes
        .as_ref()
        .and_then(|n| n.memory.as_ref())
        .expect("node storage judged");
    let day = memory.fill.mean_day.expect("a node fills within 60 days");
    let expected = 1e12 / (1_000.0 * 1_000.0 * 86_400.0 / 4.0);
    assert!((day - expected).abs() < 0.05, "{day} vs {expected}");
}

/// Bigtable's tablets each within a node's capacity while the nodes are
/// not: 2 nodes (14,000 row writes/s each: 1,000 node-ms/s) asked 42,000
/// writes/s of 1 KB rows over 100,000 series take 3,000 node-ms/s, 1.5×
/// their capacity, so a third of the units are over the nodes' limit
/// (Poisson windows add a little). A new user's cluster at 1.8× its nodes
/// read 0% throttled, every tablet being within one node's. Its disks
/// (node_storage 100 GB) fill at 42,000 × 1,000 B × 86,400 s / 2 = 1.81 TB
/// a day per node, after 100 / 1,814 days = 1.32 h: the compare table's
/// first breach is that day, and "When it breaks" says the nodes are over
/// their limit while the tablets stay within the headroom.
#[test]
fn overloaded_bigtable_nodes_throttle_and_fill_first() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "bt-nodes"
[store]
kind = "bigtable"
nodes = 2
node_storage = "100GB"
[simulation]
trials = 10
duration = "2m"
horizon = "2d"
checkpoints = ["0d", "1d"]
[[entity]]
name = "series"
count = 100000
[[table]]
name = "points"
partition_key = "{series}"
sort_key = "{time}"
item_size = "1000B"
ttl = "2d"
[[access_pattern]]
name = "ingest"
table = "points"
operation = "put"
rate = 42000
by = "series"
"#,
    );
    let t = &r.tables[0];
    let throttled = t.throttled_fraction.mean;
    assert!(
        throttled > 1.0 / 3.0 - 0.005 && throttled < 1.0 / 3.0 + 0.03,
        "{throttled}"
    );
    let fill = t
        .nodes
        .as_ref()
        .unwrap()
        .memory
        .as_ref()
        .unwrap()
        .fill
        .mean_day;
    let by_hand = 100e9 / (42_000.0 * 1000.0 * 86_400.0 / 2.0);
    let fill = fill.expect("the disks fill within the horizon");
    assert!(
        (fill - by_hand).abs() < 0.01 * by_hand,
        "{fill} vs {by_hand}"
    );
    assert_eq!(keyheat::report::first_breach_day(t), Some(fill));
    let md = keyheat::report::markdown(&r, &[]);
    let breaks = md.split("## When it breaks").nth(1).expect("the section");
    assert!(
        breaks.contains(
            "The p95 peak utilization of its partitions stays within the headroom 0.8 through day 1. Its nodes do not: the busiest node's p95 peak utilization is 1.5"
        ),
        "{breaks}"
    );
}

/// A Zipf 1.2 tail over Redis Cluster's 16,384 slots, placed as mass (the
/// masters, not the slots, are judged): 256 keys placed one by one, 26% of
/// the requests spread as a normal mass whose spread exceeds many slots'
/// share. Draws below 0 were taken as 0, adding units no request asked for:
/// a new user's 1,000 writes/s read 1,066 and the hottest key's share
/// 17.5% where 1 / H(5,000,000; 1.2) = 18.65%. The table's units are its
/// requests', and the share is the key's.
#[test]
fn a_tail_spread_over_many_slots_keeps_its_requests() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "z"
[store]
kind = "redis-cluster"
masters = 6
[simulation]
trials = 4
duration = "10m"
horizon = "1d"
[[entity]]
name = "user"
count = 5000000
popularity = { distribution = "zipf", exponent = 1.2 }
[[table]]
name = "t"
partition_key = "u:{user}"
item_size = "8B"
[[access_pattern]]
name = "w"
table = "t"
operation = "put"
rate = 1000
by = "user"
"#,
    );
    let t = &r.tables[0];
    assert!(t.placement.keys_as_mass > 0.0, "{:?}", t.placement);
    assert!(
        (t.write_units_per_s - 1000.0).abs() < 1e-6,
        "{}",
        t.write_units_per_s
    );
    let h: f64 = (1..=5_000_000u64).map(|k| (k as f64).powf(-1.2)).sum();
    let top = 1.0 / h;
    let share = t.hottest_partition_share.mean;
    assert!((share - top).abs() < 0.002, "{share} vs {top}");
}
