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
    match keyheat::engine::run(&s, &options, &|_| {}) {
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
    // 500 tablets: the newest row key is in the last; salt 3 at 2/9 → 111.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "<time> tablet=499 node=4\nEVENTS#3 tablet=111 node=1\n"
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 1024 MB"));
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
    assert_eq!(t.partitions, 300);
    assert!((t.hottest_partition_share.mean - 1.0).abs() < 1e-9);
    // The hot tablet is the last in key order: the timeseries row 299.
    let ranked = &t.partition_ranks[0];
    assert!((ranked.write_units_per_s - 20_000.0 / 14.0).abs() < 1.0);
    let nodes = t.nodes.as_ref().expect("node results");
    assert!((nodes.hottest_node_share.mean - 1.0).abs() < 1e-9);
    let p95 = nodes.peak_utilization.p95;
    assert!((1.44..1.49).contains(&p95), "{p95}");
}

/// Salted row key: salts 0..9 at key positions 0, 0, 1/9, …, 8/9 → tablets
/// 0, 0, 33, 66, 100, 133, 166, 200, 233, 266, round-robin on 3 nodes: node 0
/// holds salts 0–3 (40% of the writes, 8,000 rows/s ≈ 0.571 + the peak
/// ≈ 0.59); a time-range read needs 10 queries.
#[test]
fn salted_row_key_spreads_writes_over_ten_tablets() {
    let r = run_case("scenarios/bigtable-salted-rowkey.toml");
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert_eq!(t.fan_out, 10);
    // Salts 0 and 1 share tablet 0: 20% of the writes.
    assert!((t.hottest_partition_share.mean - 0.2).abs() < 1e-9);
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
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert_eq!(t.partition_size_limit_bytes, Some(67_108_864.0));
    assert_eq!(t.size_breach.mean_day, Some(0.0));
    assert!((t.size_breach.probability.mean - 1.0).abs() < 1e-12);
    let largest = t.max_item_collection_bytes.mean;
    assert!((50e9..200e9).contains(&largest), "{largest}");
}

/// C11 after: { mailbox: 1, uid: 1 } gives every message its own value, so
/// the largest item collection is one message (≪ 64 MiB): no jumbo chunk.
#[test]
fn c11_mailbox_uid_shard_key_keeps_values_bounded() {
    let r = run_case("scenarios/cases/c11-mailbox-uid-shard-key.toml");
    assert_eq!(verdict(&r, "partition_size"), Pass);
    assert_eq!(verdict(&r, "hot_node"), Pass);
    let t = &r.tables[0];
    assert!(t.size_breach.mean_day.is_none());
    let p95 = t.max_item_collection_bytes.p95;
    assert!(p95 < 1e6, "{p95}");
    // Deliveries spread evenly: the busiest of 3 shards within 1% of a third.
    let nodes = t.nodes.as_ref().expect("shard results");
    assert!((nodes.hottest_node_share.mean - 1.0 / 3.0).abs() < 0.01);
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
