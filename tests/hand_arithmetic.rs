//! Model fixes checked against a reviewer's hand arithmetic (issue "Numbers
//! a reviewer can stake a design on"): each test states the arithmetic the
//! engine must reproduce.

use crate::util::run;

/// A generic store of 10 partitions of 100 writes/s, a `warehouse` entity
/// of `warehouses` uniform instances and a `status` entity weighted
/// 0.05/0.15/0.2/0.1/0.5, one table keyed by `key`, written at 300 puts/s
/// by `by`.
fn two_entities(warehouses: u32, key: &str, by: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "two-entities"
[store]
kind = "generic"
partitions = 10
partition_write_limit = 100
[simulation]
seed = 5
trials = 200
duration = "10m"
[[entity]]
name = "warehouse"
count = {warehouses}
[[entity]]
name = "status"
popularity = {{ distribution = "weights", weights = [0.05, 0.15, 0.2, 0.1, 0.5] }}
[[table]]
name = "orders"
partition_key = "{key}"
item_size = "1KB"
[[access_pattern]]
name = "Set status"
table = "orders"
operation = "put"
rate = 300
by = "{by}"
"#
    )
}

#[test]
fn every_entity_of_a_key_takes_its_own_popularity() {
    // WH#{warehouse}#STATUS#{status}, 50 uniform warehouses: the hottest key
    // is (any warehouse, the 0.5 status): 1/50 × 0.5 = 1% of the writes —
    // not 1/250 = 0.4% as if the statuses were uniform.
    let r = run(&two_entities(
        50,
        "WH#{warehouse}#STATUS#{status}",
        "warehouse",
    ));
    let t = &r.tables[0];
    let top = &t.hot_keys[0];
    assert!(
        (top.request_share - 0.01).abs() < 1e-12,
        "{} {}",
        top.key,
        top.request_share
    );
    assert!(
        (top.requests_per_s - 3.0).abs() < 1e-9,
        "{}",
        top.requests_per_s
    );
    // Every warehouse's 0.5 status key ties at 1% (50 keys): the 20 hottest
    // keys listed are all of them, each STATUS of one value.
    assert_eq!(t.hot_keys.len(), 20);
    for k in &t.hot_keys {
        assert!(
            (k.request_share - 0.01).abs() < 1e-12,
            "{} {}",
            k.key,
            k.request_share
        );
    }
    let status_of = |k: &str| k.rsplit('#').next().unwrap_or("").to_string();
    let first = status_of(&t.hot_keys[0].key);
    assert!(t.hot_keys.iter().all(|k| status_of(&k.key) == first));
    // 300 × 0.5 / 50 = 3 writes/s on the busiest key.
    assert!((t.key_checks.hottest_key_writes_per_s - 3.0).abs() < 1e-9);
}

#[test]
fn one_warehouse_is_the_status_only_design() {
    // With one warehouse, WH#{warehouse}#STATUS#{status} written by
    // warehouse is logically STATUS#{status} written by status: the busiest
    // key takes 300 × 0.5 = 150 writes/s, 1.5 × its partition's 100/s.
    let combined = run(&two_entities(
        1,
        "WH#{warehouse}#STATUS#{status}",
        "warehouse",
    ));
    let status_only = run(&two_entities(1, "STATUS#{status}", "status"));
    for r in [&combined, &status_only] {
        let t = &r.tables[0];
        assert!((t.key_checks.hottest_key_writes_per_s - 150.0).abs() < 1e-9);
        assert!((t.hot_keys[0].request_share - 0.5).abs() < 1e-12);
        // The busiest partition holds at least the 0.5 key: utilization ≥ 1.5.
        assert!(
            t.peak_utilization.mean >= 1.5,
            "{}",
            t.peak_utilization.mean
        );
    }
    // The same design, so the same peak utilization up to sampling error.
    let (a, b) = (
        &combined.tables[0].peak_utilization,
        &status_only.tables[0].peak_utilization,
    );
    assert!(
        a.ci95[0] <= b.ci95[1] && b.ci95[0] <= a.ci95[1],
        "combined {:?} vs status-only {:?}",
        a,
        b
    );
}

#[test]
fn the_rule_holds_whichever_entity_the_pattern_is_by() {
    // Written by status instead: the same key distribution (each entity its
    // own popularity), so the same busiest key share.
    let by_status = run(&two_entities(
        50,
        "WH#{warehouse}#STATUS#{status}",
        "status",
    ));
    let by_warehouse = run(&two_entities(
        50,
        "WH#{warehouse}#STATUS#{status}",
        "warehouse",
    ));
    let t = &by_status.tables[0];
    assert!((t.key_checks.hottest_key_writes_per_s - 3.0).abs() < 1e-9);
    // 300 writes/s over 250 keys on 10 partitions of 100/s: ≈ 30/s each
    // (0.3), the hottest above that; both walks give the same peak up to
    // sampling error and placement approximation (5%).
    let (a, b) = (
        by_status.tables[0].peak_utilization.mean,
        by_warehouse.tables[0].peak_utilization.mean,
    );
    assert!(
        (a / b - 1.0).abs() < 0.05,
        "by status {a} vs by warehouse {b}"
    );
}

/// A DynamoDB table provisioned at `capacity` WCU written at `rate` 1 KB
/// puts/s over 100,000 uniform keys.
fn provisioned(settings: &str, rate: u32) -> String {
    format!(
        r#"
schema_version = 1
name = "provisioned"
[store]
kind = "dynamodb"
{settings}
[simulation]
seed = 3
trials = 50
duration = "10m"
[[entity]]
name = "order"
count = 100_000
[[table]]
name = "orders"
partition_key = "ORDER#{{order}}"
item_size = "1KB"
[[access_pattern]]
name = "Put order"
table = "orders"
operation = "put"
rate = {rate}
by = "order"
"#
    )
}

#[test]
fn table_level_capacity_throttles_the_excess() {
    // 1,000 WCU provisioned, 1,800 WCU/s of uniform writes: 2 partitions of
    // 1,000 WCU/s take ≈ 900 each (no partition is over), but the table serves
    // 1,000 WCU/s: 1 − 1,000 / 1,800 = 44.4% of the units are throttled.
    let r = run(&provisioned("write_capacity = 1000", 1800));
    let t = &r.tables[0];
    let expected = 1.0 - 1000.0 / 1800.0;
    assert!(
        (t.throttled_fraction.mean - expected).abs() < 0.005,
        "throttled {} vs {expected}",
        t.throttled_fraction.mean
    );
    // The partitions themselves run at ≈ 900 of their 1,000 WCU/s (a busy
    // window's Poisson noise reaches ≈ 1.02).
    assert!(t.peak_utilization.p95 < 1.1, "{}", t.peak_utilization.p95);
    let cap = t
        .table_limit
        .as_ref()
        .and_then(|l| l.caps[1].as_ref())
        .expect("write cap");
    assert_eq!(cap.limit_per_s, 1000.0);
    assert!((cap.throttled_fraction.mean - expected).abs() < 0.005);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "table_throughput" && v.detail.contains("WCU"))
        .expect("a write table_throughput verdict");
    assert_eq!(v.status.as_str(), "fail");
    assert!(
        v.detail.contains("1,800 WCU/s") && v.detail.contains("the table limit binds"),
        "{}",
        v.detail
    );
    assert!(v.detail.contains("44.4%"), "{}", v.detail);
}

#[test]
fn on_demand_throttles_beyond_twice_the_previous_peak() {
    // On demand with a previous peak of 2,000 WCU/s serves 4,000; 5,000 WCU/s
    // asked: 1 − 4,000 / 5,000 = 20% throttled.
    let r = run(&provisioned(
        "mode = \"on_demand\"\nprevious_peak_write = 2000\npartitions = 10",
        5000,
    ));
    let t = &r.tables[0];
    assert!(
        (t.throttled_fraction.mean - 0.2).abs() < 0.005,
        "{}",
        t.throttled_fraction.mean
    );
}

#[test]
fn a_table_under_its_capacity_is_not_throttled() {
    // 800 WCU/s against 1,000 provisioned: no window's excess worth counting.
    let r = run(&provisioned("write_capacity = 1000", 800));
    let t = &r.tables[0];
    assert!(
        t.throttled_fraction.mean < 1e-6,
        "{}",
        t.throttled_fraction.mean
    );
}
