//! Azure Cosmos DB and Firestore: the store models' published figures (RU
//! anchors, physical partition counts, the 500/50/5 ramp) and the case
//! scenarios C15 and C17 with the numbers they reproduce.

use keyheat::engine::Options;
use keyheat::results::{Status, TableResults, Verdict};
use keyheat::scenario::{Consistency, Operation};
use keyheat::store::firestore::ramp_ops_per_s;
use keyheat::store::{Model, TableDemand};
use keyheat::{RunResults, Scenario};

use Status::{Fail, Pass};

/// Trials per case run: the verdicts below sit far from their thresholds.
const TRIALS: u32 = 20;

fn scenario_at(rel: &str) -> Scenario {
    let path = crate::util::root().join(rel);
    match Scenario::from_path(&path) {
        Ok(s) => s,
        Err(e) => panic!("{rel} does not parse: {e}"),
    }
}

fn model_of(rel: &str) -> Model {
    let s = scenario_at(rel);
    match Model::new(&s.store, rel) {
        Ok(m) => m,
        Err(e) => panic!("{rel}: {e}"),
    }
}

fn run_case(rel: &str) -> RunResults {
    let s = scenario_at(rel);
    let options = Options {
        trials: Some(TRIALS),
        ..Default::default()
    };
    match crate::util::simulate(&s, &options) {
        Ok(r) => r,
        Err(e) => panic!("{rel} does not run: {e}"),
    }
}

fn empty(name: &str) -> TableDemand {
    TableDemand {
        name: name.into(),
        initial_bytes: 0.0,
        has_local_index: false,
    }
}

fn table<'a>(tables: &'a [TableResults], name: &str) -> &'a TableResults {
    match tables.iter().find(|t| t.name == name) {
        Some(t) => t,
        None => panic!("no table {name}"),
    }
}

fn verdict<'a>(verdicts: &'a [Verdict], check: &str, table: &str) -> &'a Verdict {
    match verdicts
        .iter()
        .find(|v| v.check == check && v.table == table)
    {
        Some(v) => v,
        None => panic!("no {check} verdict for {table}: {verdicts:?}"),
    }
}

fn read_units_per_s(t: &TableResults) -> f64 {
    t.partition_ranks.iter().map(|p| p.read_units_per_s).sum()
}

#[test]
fn cosmos_1kb_anchors_and_physical_partitions_of_the_c17_container() {
    let m = model_of("scenarios/cases/c17-device-partition-key.toml");
    let store = m.store();
    assert_eq!(store.unit_names(), ("RU", "RU"));
    // A 1 KB point read: 1 RU; strong: 2 RU; a 1 KB create: 4.95 ≈ 5 RU.
    assert_eq!(
        store.read_cost(Operation::Get, Consistency::Eventual, 1000.0, 1.0),
        1.0
    );
    assert_eq!(
        store.read_cost(Operation::Get, Consistency::Strong, 1000.0, 1.0),
        2.0
    );
    let write = store.write_cost(Operation::Put, Consistency::Eventual, 1000.0);
    assert!((write - 5.0).abs() <= 0.05, "{write}");
    // 100,000 RU/s → 10 physical partitions of 10,000 RU/s, reads + writes.
    let l = store.layout(&empty("telemetry"));
    assert_eq!(l.partitions, 10);
    assert_eq!(l.combined_limit_per_s, Some(10_000.0));
    assert_eq!((l.read_limit_per_s, l.write_limit_per_s), (None, None));
    // 20 GB logical partitions, 2 MB items.
    assert_eq!(l.item_collection_limit_bytes, Some(20e9));
    assert_eq!(l.item_size_limit_bytes, Some(2_097_152.0));
    // 20 TB of data at 100,000 RU/s: storage rules, 50 GB each → 400 partitions.
    let big = TableDemand {
        initial_bytes: 20e12,
        ..empty("telemetry")
    };
    let l = store.layout(&big);
    assert_eq!(l.partitions, 400);
    assert_eq!(l.combined_limit_per_s, Some(250.0));
    let line = store.describe_placement("device-7", &empty("telemetry"));
    assert!(
        line.starts_with("partition=") && line.ends_with(" logical_partition=device-7"),
        "{line}"
    );
}

/// The last checkpoint is the horizon, laid out for `bytes` stored (within
/// 0.1%) on `partitions` physical partitions, each with the container's RU/s
/// (raised to 1 RU/s per GB) divided evenly, and the hot_partition verdict
/// judges it.
fn horizon_dilutes(t: &TableResults, bytes: f64, partitions: usize) {
    let day0 = &t.checkpoints[0];
    let last = t.checkpoints.last().expect("checkpoints");
    assert_eq!(day0.day, 0.0);
    assert_eq!(last.day, 365.0);
    assert!(
        (last.stored_bytes / bytes - 1.0).abs() < 1e-3,
        "{} vs {bytes}",
        last.stored_bytes
    );
    assert_eq!(last.partitions, partitions);
    let day0_limit = day0.limits_per_s[2].expect("combined limit on day 0");
    let throughput = day0_limit * day0.partitions as f64;
    let ru = throughput.max(last.stored_bytes / 1e9);
    let limit = last.limits_per_s[2].expect("combined limit");
    assert!(
        (limit - (ru / partitions as f64).min(10_000.0)).abs() < 1e-6,
        "{limit}"
    );
    assert!(last.peak_utilization.p95 > day0.peak_utilization.p95);
    // The horizon is the judged checkpoint: the table's headline figures
    // (summary, variants, verdicts) are that day's.
    assert_eq!(t.day, 365.0);
    assert_eq!(t.partitions, partitions);
    assert_eq!(t.peak_utilization, last.peak_utilization);
}

#[test]
fn c17_device_partition_key_fills_20_gb_after_about_231_days() {
    let r = run_case("scenarios/cases/c17-device-partition-key.toml");
    let t = table(&r.tables, "telemetry");
    assert_eq!(t.checkpoints[0].partitions, 10);
    assert_eq!(t.partition_size_limit_bytes, Some(20e9));
    assert_eq!(
        verdict(&r.verdicts, "partition_size", "telemetry").status,
        Fail
    );
    // Day 0: 10,000 devices spread over 10 partitions (checked below). A
    // device's logical partition takes no writes past 20 GB (day ≈ 231.5),
    // so by the horizon the container stores 10,000 × 20 GB = 200 TB (not
    // the 315.36 TB a year of writes would be): ceil(200 TB ÷ 50 GB) = 4,000
    // physical partitions, and the RU/s is raised to the 1 RU/s-per-GB
    // minimum, 200,000 RU/s ÷ 4,000 = 50 RU/s each, so the busiest
    // partition's devices throttle there.
    horizon_dilutes(t, 200e12, 4000);
    assert_eq!(
        verdict(&r.verdicts, "hot_partition", "telemetry").status,
        Fail
    );
    // 1,000 B/s per device: 20e9 / 86.4e6 B a day = 231.5 days.
    let day = t.size_breach.mean_day.expect("a size breach");
    let expected = 20e9 / (1000.0 * 86_400.0);
    assert!(
        (day - expected).abs() < 3.0,
        "day {day}, expected {expected}"
    );
    assert!((t.size_breach.probability.mean - 1.0).abs() < 1e-12);
    // Day 0: 10,000 devices × 4.95 RU over 10 partitions ≈ 0.5 of 10,000 RU/s each.
    let day0 = &t.checkpoints[0].peak_utilization;
    assert!((0.45..0.75).contains(&day0.p95), "{}", day0.p95);
}

#[test]
fn c17_single_hot_key_stays_capped_at_10000_ru_per_s_however_the_partitions_split() {
    let r = run_case("scenarios/cases/c17-device-partition-key.toml");
    // 4,000 writes/s × 4.95 RU = 19,800 RU/s on one logical partition.
    let expected = 4000.0 * 4.95 / 10_000.0;
    let mut seen = Vec::new();
    for v in &r.variants {
        let t = table(&v.tables, "gateway_telemetry");
        assert_eq!(
            t.partition_combined_limit_per_s,
            Some(10_000.0),
            "{}",
            v.name
        );
        assert_eq!(
            verdict(&v.verdicts, "hot_partition", "gateway_telemetry").status,
            Fail,
            "{}",
            v.name
        );
        let u = t.peak_utilization.mean;
        assert!(u >= expected && u < expected * 1.15, "{}: {u}", v.name);
        seen.push(t.partitions);
    }
    // 100,000 RU/s: 10 partitions; 1,000,000 RU/s: 100. The cap does not move.
    assert_eq!(seen, vec![10, 100]);
}

#[test]
fn c17_synthetic_date_n_spreads_writes_over_400_keys() {
    let r = run_case("scenarios/cases/c17-synthetic-date-n.toml");
    let t = table(&r.tables, "telemetry");
    assert_eq!(t.checkpoints[0].partitions, 15);
    assert_eq!(t.fan_out, 400);
    // On day 0 every check passes; by the horizon the year of data (315.36 TB,
    // as in the device design) splits the container onto 6,308 partitions of
    // ≈ 50 RU/s, under a day key's 49,500 / 400 ≈ 124 RU/s.
    for v in &r.verdicts {
        let want = if v.check == "hot_partition" {
            Fail
        } else {
            Pass
        };
        assert_eq!(v.status, want, "{}: {}", v.check, v.detail);
    }
    horizon_dilutes(t, 315.36e12, 6308);
    let day0 = &t.checkpoints[0].peak_utilization;
    assert!(day0.p95 < 0.75, "{}", day0.p95);
    // One key holds a day of 1/400 of 10 MB/s: 2.16 GB.
    let p95 = t.max_item_collection_bytes.p95;
    assert!((2.1e9..2.3e9).contains(&p95), "{p95}");
    assert!(t.size_breach.mean_day.is_none());
}

#[test]
fn c17_date_alone_is_one_hot_key_at_150000_and_1000000_ru_per_s() {
    let r = run_case("scenarios/cases/c17-synthetic-date-n.toml");
    let names: Vec<&str> = r.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["date-only", "date-only-1M-RU"]);
    for (v, partitions) in r.variants.iter().zip([15, 100]) {
        let t = table(&v.tables, "telemetry");
        let day0 = &t.checkpoints[0];
        assert_eq!(day0.partitions, partitions, "{}", v.name);
        assert_eq!(day0.limits_per_s[2], Some(10_000.0));
        assert_eq!(t.fan_out, 1);
        // 49,500 RU/s of writes on one logical partition: ≈ 5× its cap.
        assert!(
            t.peak_utilization.mean > 4.95,
            "{}",
            t.peak_utilization.mean
        );
        assert_eq!(
            verdict(&v.verdicts, "hot_partition", "telemetry").status,
            Fail
        );
        assert_eq!(
            verdict(&v.verdicts, "partition_size", "telemetry").status,
            Fail
        );
        // 10 MB/s fills 20 GB in 2,000 s.
        let day = t.size_breach.mean_day.expect("a size breach");
        assert!((day * 86_400.0 - 2000.0).abs() < 60.0, "{day}");
    }
}

#[test]
fn firestore_ramp_is_500_then_50_percent_more_every_5_minutes() {
    assert_eq!(ramp_ops_per_s(0.0), 500.0);
    assert_eq!(ramp_ops_per_s(5.0), 750.0);
    assert_eq!(ramp_ops_per_s(10.0), 1125.0);
    let m = model_of("scenarios/cases/c15-firestore-counter.toml");
    let store = m.store();
    assert_eq!(store.unit_names(), ("reads", "writes"));
    let limits = store.key_limits(&empty("counters"));
    assert_eq!(limits.key_write_per_s, Some(1.0));
    assert_eq!(limits.monotonic_write_per_s, Some(500.0));
    let l = store.layout(&empty("counters"));
    assert_eq!(l.partitions, 1);
    assert_eq!(l.combined_limit_per_s, None);
    assert_eq!(l.item_size_limit_bytes, Some(1_048_576.0));
    // Billing: a query of 20 documents is 20 reads, an empty one 1.
    assert_eq!(
        store.read_cost(Operation::Query, Consistency::Eventual, 2e4, 20.0),
        20.0
    );
    assert_eq!(
        store.read_cost(Operation::Query, Consistency::Eventual, 0.0, 0.0),
        1.0
    );
}

#[test]
fn c15_firestore_timestamp_index_exceeds_500_writes_per_s() {
    let r = run_case("scenarios/cases/c15-firestore-timestamp-index.toml");
    let v = verdict(&r.verdicts, "monotonic_index", "events");
    assert_eq!(v.status, Fail, "{}", v.detail);
    assert!(v.detail.starts_with("800 writes/s"), "{}", v.detail);
    assert!(v.detail.contains("~500 writes/s"), "{}", v.detail);
    // Random auto-IDs: no document is hot; no partition limit.
    let hot_key = verdict(&r.verdicts, "hot_key", "events");
    assert_eq!(hot_key.status, Pass);
    assert!(
        hot_key.detail.starts_with("every write makes a new key"),
        "{}",
        hot_key.detail
    );
    assert_eq!(verdict(&r.verdicts, "hot_partition", "events").status, Pass);
    assert_eq!(table(&r.tables, "events").fan_out, 1);
    // No throughput limit to peak against: `—`, not a peak of 0.
    assert!(!table(&r.tables, "events").has_throughput_limit());
    let lines = keyheat::report::terminal_table(&r);
    assert!(
        lines[1].starts_with("base    events         —"),
        "{lines:#?}"
    );
}

/// A subcollection under each parent document is a collection of its own,
/// with its own collection-scope index: C15's 800 writes/s under
/// `devices/{device}/events/{id}` put only the busiest device's on one
/// sequential index. 100 devices, 20 of them hot with 80% of the writes:
/// the busiest takes 800 × 0.8 / 20 = 32 writes/s (a new user's chat
/// rooms were judged at the whole 2,120 writes/s instead of the busiest
/// room's 166).
#[test]
fn firestore_sequential_index_is_judged_per_subcollection() {
    let path = crate::util::root().join("scenarios/cases/c15-firestore-timestamp-index.toml");
    let text = std::fs::read_to_string(&path).expect("c15 reads")
        .replace(
            "[[table]]",
            "[[entity]]\nname = \"device\"\ncount = 100\n\
             popularity = { distribution = \"hotspot\", hot_fraction = 0.2, hot_share = 0.8 }\n\n[[table]]",
        )
        .replace("partition_key = \"events/{id}\"", "partition_key = \"devices/{device}/events/{id}\"")
        .replace("peak_factor = 2.0\n", "peak_factor = 2.0\nby = \"device\"\n");
    // The monotonic_index verdict of the design with partition key `key`.
    let judged = |key: &str| {
        let s = Scenario::from_str_at(
            &text.replace("devices/{device}/events/{id}", key),
            "sub.toml",
        )
        .expect("parses");
        let options = Options {
            trials: Some(TRIALS),
            ..Default::default()
        };
        let r = crate::util::simulate(&s, &options).expect("runs");
        verdict(&r.verdicts, "monotonic_index", "events").clone()
    };
    let v = judged("devices/{device}/events/{id}");
    assert_eq!(v.status, Pass, "{}", v.detail);
    let busiest = "32.0 writes/s into the busiest `devices/{device}/events` collection's";
    assert!(v.detail.starts_with(busiest), "{}", v.detail);
    // The same subcollection written as a collection path (an odd number
    // of segments: the device's events, ordered by the sort key).
    let v = judged("devices/{device}/events");
    assert!(v.detail.starts_with(busiest), "{}", v.detail);
    // A device's document under one collection (`devices/{device}`, two
    // segments): the one `devices` collection takes every write.
    let v = judged("devices/{device}");
    assert!(
        v.detail.starts_with("800 writes/s into a monotonically"),
        "{}",
        v.detail
    );
    // The top-level collection keeps the whole table's writes.
    let r = run_case("scenarios/cases/c15-firestore-timestamp-index.toml");
    let v = verdict(&r.verdicts, "monotonic_index", "events");
    assert!(
        v.detail.starts_with("800 writes/s into a monotonically"),
        "{}",
        v.detail
    );
}

#[test]
fn c15_firestore_sharded_timestamp_lifts_the_limit_to_500_times_4() {
    let r = run_case("scenarios/cases/c15-firestore-sharded-timestamp.toml");
    let v = verdict(&r.verdicts, "monotonic_index", "events");
    assert_eq!(v.status, Pass, "{}", v.detail);
    assert!(v.detail.contains("~2,000 writes/s"), "{}", v.detail);
    for v in &r.verdicts {
        assert_eq!(v.status, Pass, "{}: {}", v.check, v.detail);
    }
    // The cost: a read of the latest events is 4 queries of 5 documents.
    let t = table(&r.tables, "events");
    assert_eq!(t.fan_out, 4);
    // 5 queries/s × 4 sub-queries × 5 documents = 100 reads/s.
    let reads = read_units_per_s(t);
    assert!((90.0..110.0).contains(&reads), "{reads}");
}

#[test]
fn c15_firestore_counter_takes_6_writes_per_s_on_one_document() {
    let r = run_case("scenarios/cases/c15-firestore-counter.toml");
    let v = verdict(&r.verdicts, "hot_key", "counters");
    assert_eq!(v.status, Fail, "{}", v.detail);
    assert!(
        v.detail.starts_with("busiest key takes 6.00 writes/s"),
        "{}",
        v.detail
    );
}

#[test]
fn c15_firestore_sharded_counter_10_shards_take_10x_the_writes() {
    let r = run_case("scenarios/cases/c15-firestore-sharded-counter.toml");
    let v = verdict(&r.verdicts, "hot_key", "counters");
    assert_eq!(v.status, Pass, "{}", v.detail);
    assert!(
        v.detail.starts_with("busiest key takes 0.600 writes/s"),
        "{}",
        v.detail
    );
    for v in &r.verdicts {
        assert_eq!(v.status, Pass, "{}: {}", v.check, v.detail);
    }
    let t = table(&r.tables, "counters");
    assert_eq!(t.fan_out, 10);
    // A read of the count gets all 10 shards: 40 reads/s × 10 = 400 documents/s.
    let reads = read_units_per_s(t);
    assert!((380.0..420.0).contains(&reads), "{reads}");
}

#[test]
fn firestore_new_collection_is_checked_against_the_ramp() {
    // The ramp limits the collection as a whole over simulated time (the
    // table_throughput check, tests/firestore_ramp.rs), not each partition.
    let r = run_case("scenarios/firestore-new-collection-ramp.toml");
    let t = table(&r.tables, "orders");
    assert_eq!(t.partition_combined_limit_per_s, None);
    assert_eq!(verdict(&r.verdicts, "hot_partition", "orders").status, Pass);
    let v = verdict(&r.verdicts, "table_throughput", "orders");
    assert_eq!(v.status, Fail, "{}", v.detail);
    // 2,000 ops/s against 500 ops/s in the first 5 minutes: ≥ 4× the budget.
    assert!(t.peak_utilization.mean > 2000.0 / 500.0);
    let v = &r.variants[0];
    assert_eq!(
        verdict(&v.verdicts, "table_throughput", "orders").status,
        Pass
    );
    let rec = r.recommendation.as_ref().expect("a recommendation");
    assert_eq!(rec.variant, "ramp-first");
}

#[test]
fn cosmos_hierarchical_key_keeps_the_largest_tenant_under_20_gb() {
    let r = run_case("scenarios/cosmosdb-tenant-hierarchical.toml");
    let t = table(&r.tables, "events");
    assert_eq!(
        verdict(&r.verdicts, "partition_size", "events").status,
        Fail
    );
    // The largest of 1,000 zipf(1) tenants: 20/s ÷ H(1000) × 2 KB.
    let h: f64 = (1..=1000).map(|i| 1.0 / f64::from(i)).sum();
    let expected = 20e9 / (20.0 / h * 2000.0 * 86_400.0);
    let day = t.size_breach.mean_day.expect("a size breach");
    assert!(
        (day - expected).abs() < 1.5,
        "day {day}, expected {expected}"
    );
    let v = &r.variants[0];
    assert_eq!(v.name, "hierarchical");
    // 20 events/s × 2 KB for 365 days = 1.2614 TB: ceil(1,261.4 GB ÷ 50 GB)
    // = 26 partitions sharing the 2,000 RU/s (over the 1,261 RU/s storage
    // minimum): 76.9 RU/s each, which the largest tenant's session outgrows.
    horizon_dilutes(table(&v.tables, "events"), 1.2614e12, 26);
    for x in &v.verdicts {
        let want = if x.check == "hot_partition" {
            Fail
        } else {
            Pass
        };
        assert_eq!(x.status, want, "{}: {}", x.check, x.detail);
    }
    // On day 0 the hierarchical key passes with margin.
    let day0 = &table(&v.tables, "events").checkpoints[0];
    assert!(
        day0.peak_utilization.p95 < 0.8,
        "{}",
        day0.peak_utilization.p95
    );
    let hier = r
        .store
        .figures
        .iter()
        .find(|f| f.name == "hierarchical")
        .expect("hierarchical figure");
    assert!(hier.value.starts_with("off"), "{}", hier.value);
}

#[test]
fn every_cosmos_and_firestore_figure_names_its_source() {
    for (rel, must) in [
        (
            "scenarios/cases/c17-device-partition-key.toml",
            vec![
                "Partitioning and horizontal scaling",
                "service quotas",
                "Understand request unit consumption",
            ],
        ),
        (
            "scenarios/cases/c15-firestore-counter.toml",
            vec![
                "Best practices",
                "Distributed counters",
                "Sharded timestamps",
                "Usage and limits",
            ],
        ),
    ] {
        let figures = model_of(rel).store().figures();
        for f in &figures {
            assert!(!f.source.is_empty() && !f.value.is_empty(), "{rel}: {f:?}");
        }
        for m in must {
            assert!(
                figures.iter().any(|f| f.source.contains(m)),
                "{rel}: no figure cites {m}"
            );
        }
        assert!(figures.iter().any(|f| f.assumption), "{rel}");
    }
}

/// 1,000 point reads/s of 1 KB items over 100,000 devices on a Cosmos DB
/// container of 40,000 RU/s with the `[store]` line `account` and the
/// read pattern's line `consistency`.
fn cosmos_reads(account: &str, consistency: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "strong-account"
[store]
kind = "cosmosdb"
throughput = 40000
{account}
[simulation]
seed = 3
trials = 20
duration = "10m"
[[entity]]
name = "device"
count = 100000
[[table]]
name = "readings"
partition_key = "{{device}}"
item_size = "1KB"
initial_items = 1
[[access_pattern]]
name = "Read"
table = "readings"
operation = "get"
rate = 1000
by = "device"
{consistency}
"#
    )
}

/// A request may relax the account's consistency, never strengthen it
/// (Microsoft Learn): a strong read on a session or consistent-prefix
/// account is warned at its `consistency` (line 26 of [`cosmos_reads`]),
/// not on a strong or bounded-staleness account, nor an eventual one; a
/// container's own throughput below 400 RU/s is warned at `throughput`.
#[test]
fn cosmos_warns_of_a_stronger_request_and_throughput_under_400() {
    let warnings = |account: &str, consistency: &str| {
        let s = crate::util::scenario(&cosmos_reads(account, consistency));
        s.warnings
            .iter()
            .map(|w| (w.key.clone(), w.line, w.message.clone(), w.fix.clone()))
            .collect::<Vec<_>>()
    };
    let strong = "consistency = \"strong\"";
    let got = warnings("", strong);
    assert_eq!(got.len(), 1, "{got:?}");
    let (key, line, message, fix) = &got[0];
    assert_eq!(
        (key.as_str(), *line),
        ("access_pattern.Read.consistency", 26)
    );
    assert!(
        message.contains("default_consistency is session"),
        "{message}"
    );
    assert!(fix.contains("default_consistency = \"strong\""), "{fix}");
    let prefix = warnings("default_consistency = \"consistent_prefix\"", strong);
    assert_eq!(prefix.len(), 1, "{prefix:?}");
    for account in [
        "default_consistency = \"strong\"",
        "default_consistency = \"bounded_staleness\"",
    ] {
        assert!(warnings(account, strong).is_empty(), "{account}");
    }
    assert!(warnings("", "consistency = \"eventual\"").is_empty());
    let low = crate::util::scenario(&cosmos_reads("", "").replace("40000", "200"));
    let w: Vec<_> = low
        .warnings
        .iter()
        .map(|w| (w.key.as_str(), w.line))
        .collect();
    assert_eq!(w, [("store.throughput", 6)]);
    assert!(low.warnings[0]
        .message
        .contains("200 RU/s is below 400 RU/s"));
    let at_400 = crate::util::scenario(&cosmos_reads("", "").replace("40000", "400"));
    assert!(at_400.warnings.is_empty());
}

/// A strong account's reads: 2 RU per 1 KB point read where the pattern
/// writes no consistency (the account's level), 1 RU where it writes
/// `eventual` (a request may relax the account's level, never raise it).
/// 1,000 reads/s of 1 KB items: 2,000 and 1,000 RU/s requested.
#[test]
fn a_pattern_that_writes_eventual_relaxes_a_strong_account() {
    let design = |consistency: &str| cosmos_reads("default_consistency = \"strong\"", consistency);
    let unwritten = crate::util::run(&design(""));
    let relaxed = crate::util::run(&design("consistency = \"eventual\""));
    let strong = crate::util::run(&design("consistency = \"strong\""));
    let ru = |r: &RunResults| read_units_per_s(table(&r.tables, "readings"));
    assert!(
        (ru(&unwritten) - 2000.0).abs() < 2000.0 * 0.01,
        "{}",
        ru(&unwritten)
    );
    assert!(
        (ru(&relaxed) - 1000.0).abs() < 1000.0 * 0.01,
        "{}",
        ru(&relaxed)
    );
    assert!(
        (ru(&strong) - 2000.0).abs() < 2000.0 * 0.01,
        "{}",
        ru(&strong)
    );
}

/// C15's distributed counter (10 shards, 20 reads/s at a peak factor of
/// 2) with a `calculated` suffix: the get is charged one shard key, 40
/// reads/s in the busy period (each shard taken as a full copy), with a
/// warning at `shard_strategy` that a counter's read sums every shard and
/// `random` models it: 400 reads/s, 10 shard documents each.
#[test]
fn a_calculated_counter_is_warned_that_its_read_sums_every_shard() {
    let random = std::fs::read_to_string(
        crate::util::root().join("scenarios/cases/c15-firestore-sharded-counter.toml"),
    )
    .unwrap();
    let calculated = random.replace(
        "shard_strategy = \"random\"",
        "shard_strategy = \"calculated\"",
    );
    let s = crate::util::scenario(&calculated);
    let keys: Vec<&str> = s.warnings.iter().map(|w| w.key.as_str()).collect();
    assert_eq!(keys, ["table.counters.shard_strategy"]);
    assert!(
        s.warnings[0].message.contains("reads all 10"),
        "{}",
        s.warnings[0].message
    );
    assert!(s.warnings[0].fix.contains("shard_strategy = \"random\""));
    assert!(crate::util::scenario(&random).warnings.is_empty());
    // The busy period runs at the peak: 20 × 2 reads/s of one shard, or of 10.
    for (text, reads) in [(&calculated, 40.0), (&random, 400.0)] {
        let r = crate::util::run(text);
        let got = read_units_per_s(table(&r.tables, "counters"));
        assert!((got - reads).abs() < 1e-9, "{got} vs {reads}");
    }
}

/// A Firestore scenario of 200,000 Zipf(1) rooms (seed 7, 20 trials, a
/// 10-minute busy period) with `rest`: its tables and patterns.
fn firestore_rooms(rest: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "fs-rooms"
[store]
kind = "firestore"
[simulation]
seed = 7
trials = 20
duration = "10m"
[[entity]]
name = "room"
count = 200_000
popularity = {{ distribution = "zipf", exponent = 1.0 }}
{rest}"#
    )
}

/// A Firestore index on the timestamp (`[[table.index]]`, `sort_key =
/// "{time}"`) is a sequential index, judged by `monotonic_index` as a table
/// ordered by it is: over the whole collection it takes all 3,000 writes/s
/// (vs ~500); with the room in front (a composite index on roomId, then the
/// timestamp) each room's range takes its own, the busiest 3,000 ÷
/// H(200,000) = 3,000 ÷ 12.7828 = 234.7 writes/s, within 0.8 × 500.
#[test]
fn a_firestore_timestamp_index_is_judged_as_a_sequential_index() {
    let design = |index_key: &str| {
        firestore_rooms(&format!(
            r#"
[[table]]
name = "messages"
partition_key = "messages/{{id}}"
item_size = "500B"
[[table.index]]
name = "by_time"
partition_key = "{index_key}"
sort_key = "{{time}}"
[[access_pattern]]
name = "Send"
table = "messages"
operation = "put"
rate = 3000
by = "room"
"#
        ))
    };
    let judged = |index_key: &str| {
        let r = crate::util::run(&design(index_key));
        let t = table(&r.tables, "messages.by_time");
        let m = t.key_checks.monotonic.clone().expect("a sequential index");
        (
            verdict(&r.verdicts, "monotonic_index", "messages.by_time").status,
            m,
        )
    };
    let (status, m) = judged("messages");
    assert_eq!(status, Fail);
    assert!((m.writes_per_s - 3000.0).abs() < 1e-9, "{}", m.writes_per_s);
    assert_eq!(m.prefix, None);
    let (status, m) = judged("{room}");
    assert_eq!(status, Pass);
    let h: f64 = (1..=200_000).map(|k| 1.0 / f64::from(k)).sum();
    assert!(
        (m.writes_per_s - 3000.0 / h).abs() < 0.01,
        "{}",
        m.writes_per_s
    );
    assert_eq!(m.prefix.as_deref(), Some("{room}"));
}

/// A Firestore global index: its entries are not documents (no ~1 write/s
/// per-document `hot_key` verdict on it, however hot its key) and are not
/// billed as writes; reads through it bill the documents read. 500
/// queries/s of 50 documents at $0.60 per million reads over 730 h:
/// 25,000 × 2,628,000 × 0.6 ÷ 10⁶ = 39,420 USD a month; the base table's
/// 3,000 writes/s at $1.80 per million: 14,191.2 USD.
#[test]
fn a_firestore_index_is_neither_a_document_nor_billed_for_its_writes() {
    let r = crate::util::run(&firestore_rooms(
        r#"
[[table]]
name = "messages"
partition_key = "messages/{id}"
sort_key = "{time}"
item_size = "500B"
[[table.index]]
name = "by_room"
partition_key = "{room}"
sort_key = "{time}"
[[access_pattern]]
name = "Send"
table = "messages"
operation = "put"
rate = 3000
by = "room"
[[access_pattern]]
name = "Open"
table = "messages.by_room"
operation = "query"
rate = 500
by = "room"
items = 50
[pricing]
read_unit_per_million = 0.60
write_unit_per_million = 1.80
currency = "USD"
"#,
    ));
    assert!(
        !r.verdicts
            .iter()
            .any(|v| v.check == "hot_key" && v.table == "messages.by_room"),
        "{:?}",
        r.verdicts
    );
    let cost = |name: &str| table(&r.tables, name).monthly_cost.expect("priced");
    assert!(
        (cost("messages.by_room") - 39_420.0).abs() < 1.0,
        "{}",
        cost("messages.by_room")
    );
    assert!(
        (cost("messages") - 14_191.2).abs() < 1.0,
        "{}",
        cost("messages")
    );
}

/// Firestore's ~1 write/s per document: a room counter updated on every
/// message, 3,000 messages/s over 200,000 Zipf(1) rooms. The busiest room
/// takes 3,000 ÷ H(200,000) = 234.7 writes/s; within headroom 0.8 × 1
/// write/s it needs ⌈234.7 ÷ 0.8⌉ = 294 write shards, and the verdict says
/// so (293 shards still warn, 294 pass).
#[test]
fn a_hot_counter_document_is_told_how_many_write_shards_it_needs() {
    let design = |shards: u32| {
        firestore_rooms(&format!(
            r#"
[[table]]
name = "rooms"
partition_key = "rooms/{{room}}"
item_size = "1KiB"
initial_items = 1
shards = {shards}
[[access_pattern]]
name = "Bump room counter"
table = "rooms"
operation = "update"
rate = 3000
by = "room"
"#
        ))
    };
    let h: f64 = (1..=200_000u32).rev().map(|k| 1.0 / f64::from(k)).sum();
    let need = (3000.0 / h / 0.8).ceil() as u32;
    assert_eq!(need, 294);
    let hot = |shards: u32| {
        let r = crate::util::run(&design(shards));
        verdict(&r.verdicts, "hot_key", "rooms").clone()
    };
    let base = hot(1);
    assert_eq!(base.status, Fail);
    assert!(
        base.detail
            .contains("294 write shards in all (shards = 294)"),
        "{}",
        base.detail
    );
    assert_eq!(hot(need - 1).status, Status::Warn);
    assert_eq!(hot(need).status, Pass);
    // As a variant, recommended for its hot_key: Firestore has no
    // per-partition limit, so the reason cites no peak utilization (it
    // said "p95 peak utilization 0 ≤ headroom").
    let r = crate::util::run(&format!(
        "{}\n[[variant]]\nname = \"counter-shards\"\nset = {{ \"table.rooms.shards\" = 294 }}\n",
        design(1)
    ));
    let rec = r.recommendation.expect("a recommendation");
    assert_eq!(rec.variant, "counter-shards");
    assert!(
        rec.reason.starts_with(
            "smallest change that passes every check (no per-partition or node limit is loaded, no size-ceiling breach within the horizon); the base design does not pass hot_key on rooms (fail)"
        ),
        "{}",
        rec.reason
    );
}

/// A container's RU/s is one pool its physical partitions share evenly, so
/// the busy period's reads and writes together are judged against it
/// (`table_throughput`): 1,000 point reads/s of 1 KB at 1 RU each ask
/// 1,000 RU/s, which passes 40,000 RU/s, warns at 1,100 (0.91 > the 0.8
/// headroom) and fails at 900 (a new user's container asked 38,300 RU/s
/// of 30,000 and was told only of its partitions).
#[test]
fn a_container_is_judged_on_its_reads_and_writes_together() {
    let judged = |throughput: &str| {
        let r = crate::util::run(&cosmos_reads("", "").replace("40000", throughput));
        let v = r
            .verdicts
            .iter()
            .find(|v| v.check == "table_throughput")
            .expect("a table_throughput verdict")
            .clone();
        (v.status, v.detail)
    };
    for (throughput, status) in [
        ("40000", Status::Pass),
        ("1100", Status::Warn),
        ("900", Status::Fail),
    ] {
        let (got, detail) = judged(throughput);
        assert_eq!(got, status, "{throughput}: {detail}");
        let limit = keyheat::format::sig3(throughput.parse().unwrap());
        assert!(
            detail.starts_with(&format!(
                "busy period asks 1,000 RU/s of the table, reads and writes together (1,000 read, 0 write), vs the {limit} RU/s it serves at once"
            )),
            "{detail}"
        );
    }
}

/// The container must hold at least 1 RU/s per GB stored ("service
/// quotas"): 100 puts/s of 1 KB for 365 days store 3,153.6 GB, so on day
/// 365 the container serves 3,153.6 RU/s, not its 400, in
/// `table_throughput` as in its partitions' limits (64 partitions of 50
/// GB: 49.3 RU/s each). helper-73 read "vs the 100 RU/s it serves at
/// once" on a day whose hot_partition used the raised figure.
#[test]
fn the_table_throughput_on_a_later_day_holds_1_ru_per_gb_stored() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "growing-container"
[store]
kind = "cosmosdb"
throughput = 400
[simulation]
trials = 20
duration = "10m"
horizon = "365d"
checkpoints = ["365d"]
[[entity]]
name = "device"
count = 1_000_000
[[table]]
name = "readings"
partition_key = "{device}"
sort_key = "{time}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "readings"
operation = "put"
rate = 100
by = "device"
"#,
    );
    let t = &r.tables[0];
    let gb = 100.0 * 86_400.0 * 365.0 * 1_000.0 / 1e9;
    assert!(
        (t.stored_bytes / 1e9 - gb).abs() < 1e-6,
        "{}",
        t.stored_bytes
    );
    assert_eq!(t.key_checks.day, 365.0);
    let limit = t
        .key_checks
        .table_combined_limit_per_s
        .expect("a RU/s pool");
    assert!((limit - gb).abs() < 1e-6, "{limit} vs {gb}");
    assert_eq!(t.partitions, 64);
    let per = t
        .partition_combined_limit_per_s
        .expect("a partition's share");
    assert!((per - gb / 64.0).abs() < 1e-6, "{per}");
}

/// A recommended design whose peak the store's model only bounds from
/// below (a hierarchical key's hot first level) is recommended with that
/// said: helper-73's recommendation read "p95 peak utilization 0.722 ≤
/// headroom" where its variants table showed "≥ 0.722".
#[test]
fn a_recommendation_on_a_lower_bound_says_the_pass_is_not_proven() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "tenants"
[store]
kind = "cosmosdb"
throughput = 40000
[simulation]
trials = 20
duration = "10m"
[[entity]]
name = "tenant"
count = 100
popularity = { distribution = "zipf", exponent = 1.2 }
[[entity]]
name = "user"
count = 1_000_000
[[table]]
name = "events"
partition_key = "{tenant}"
sort_key = "{time}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "events"
operation = "put"
rate = 600
by = "tenant"
[[variant]]
name = "hierarchical"
set = { "table.events.partition_key" = "{tenant}/{user}", "store.hierarchical" = true }
"#,
    );
    let rec = r.recommendation.as_ref().expect("a recommendation");
    assert_eq!(rec.variant, "hierarchical");
    assert!(
        rec.reason.contains("p95 peak utilization ≥ ")
            && rec
                .reason
                .contains("only as a lower bound: the pass is not proven"),
        "{}",
        rec.reason
    );
}

/// A Firestore document grown past 1 MiB by an array: the write that would
/// take it there is refused, and the fix Firestore's docs give is a
/// subcollection (helper-75 was offered only "a time bucket of at most
/// 3.35 days"). 100,000 appends of 40 B a day reach 1 MiB − 2,000 B on day
/// 1,046,576 ÷ 4,000,000 = 0.2616.
#[test]
fn a_firestore_document_past_1_mib_is_pointed_at_a_subcollection() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "room-members"
[store]
kind = "firestore"
[simulation]
trials = 20
horizon = "10d"
[[entity]]
name = "room"
count = 1
[[table]]
name = "rooms"
partition_key = "rooms/{room}"
item_size = "2KB"
initial_items = 1
[[access_pattern]]
name = "Join room"
table = "rooms"
operation = "append"
rate = "100k/day"
element_size = "40B"
by = "room"
"#,
    );
    let item = r.verdicts.iter().find(|v| v.check == "item_size");
    let detail = item.map_or("", |v| v.detail.as_str());
    assert!(
        detail.contains("the usual fix for a growing array or map is a subcollection"),
        "{detail}"
    );
    let day = r.tables[0].item_size_breach.mean_day.expect("a breach");
    let expected = (1_048_576.0 - 2_000.0) / 4e6;
    assert!((day - expected).abs() < 0.01, "{day} vs {expected}");
}

/// A document stops growing at its 1 MiB ceiling: Firestore rejects the
/// write that would take it past, so the bytes stored stop there too.
/// 100 posts of 2,000 B, each appended 100 B at 0.01 a second (86.4 KB a
/// day) reach 1,048,576 B in about 12 days; on day 365 the collection holds
/// 100 × 1,048,576 B, not the 100 × (2,000 + 365 × 86,400) B appended
/// (helper-87's 582 GB of posts for 196).
#[test]
fn a_document_appended_past_its_ceiling_stores_only_the_ceiling() {
    let r = crate::util::run(
        r#"
schema_version = 1
name = "likes"
[store]
kind = "firestore"
[simulation]
trials = 4
duration = "1m"
horizon = "365d"
[[entity]]
name = "post"
count = 100
[[table]]
name = "posts"
partition_key = "posts/{post}"
item_size = "2000B"
initial_items = 1
[[access_pattern]]
name = "Like"
table = "posts"
operation = "append"
element_size = "100B"
rate = 1
by = "post"
"#,
    );
    let posts = &r.tables[0];
    let last = posts.growth.last().expect("a growth grid");
    assert_eq!(last.day, 365.0);
    assert_eq!(last.table_bytes, 100.0 * 1_048_576.0);
}

/// Firestore orders an index's entries by value and splits them by range:
/// an index over a whole collection (`partition_key = "posts"`) is not a
/// low-cardinality key. helper-87's createdAt index failed key_cardinality
/// ("write-shard the index") while monotonic_index passed it at 326 writes/s.
#[test]
fn a_firestore_index_over_a_whole_collection_is_not_a_low_cardinality_key() {
    let s = crate::util::scenario(
        r#"
schema_version = 1
name = "feed"
[store]
kind = "firestore"
[[entity]]
name = "post"
count = 1000
[[table]]
name = "posts"
partition_key = "posts/{post}"
item_size = "2KB"
[[table.index]]
name = "by_created"
partition_key = "posts"
sort_key = "{time}"
projection = "keys_only"
[[access_pattern]]
name = "Create post"
table = "posts"
operation = "put"
rate = 5
by = "post"
"#,
    );
    let items = keyheat::verdicts::checklist::review(&s);
    let row = items
        .iter()
        .find(|i| i.check == "key_cardinality" && i.subject == "posts.by_created")
        .expect("the index's row");
    assert_eq!(row.status, Pass, "{}", row.reason);
    assert!(
        row.reason.contains("splits them by range"),
        "{}",
        row.reason
    );
}
