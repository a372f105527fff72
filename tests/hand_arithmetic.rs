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
