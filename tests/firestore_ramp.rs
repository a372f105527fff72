//! Firestore's 500/50/5 ramp as a table-level limit over simulated time:
//! throttled operations against the closed form, the minute throttling
//! stops, the same answer from the aggregated, windows and exact methods,
//! and nothing throttled once the collection is past the ramp.

use crate::util::{run_threads, scenario};
use keyheat::engine::plan::Method;
use keyheat::engine::Options;
use keyheat::results::{Status, TableLimitResults, Verdict};
use keyheat::RunResults;

/// A new collection taking `rate` writes/s of fresh documents (one write
/// each, Poisson arrivals) for `duration`, 1 s windows.
fn ramp_scenario(rate: f64, age: &str, duration: &str, trials: u32) -> String {
    format!(
        r#"
schema_version = 1
name = "ramp"
[store]
kind = "firestore"
new_collection = true
collection_age = "{age}"
[simulation]
seed = 7
trials = {trials}
window = "1s"
duration = "{duration}"
[[table]]
name = "docs"
partition_key = "docs/{{id}}"
item_size = "1KB"
[[access_pattern]]
name = "write"
table = "docs"
operation = "put"
rate = {rate}
"#
    )
}

fn run_with(text: &str, method: Method) -> RunResults {
    let s = scenario(text);
    let options = Options {
        method,
        ..Default::default()
    };
    match crate::util::simulate(&s, &options) {
        Ok(r) => r,
        Err(e) => panic!("run failed: {e}"),
    }
}

fn ramp(r: &RunResults) -> &TableLimitResults {
    r.tables[0].table_limit.as_ref().expect("a table limit")
}

fn verdict<'a>(r: &'a RunResults, check: &str) -> &'a Verdict {
    r.verdicts
        .iter()
        .find(|v| v.check == check)
        .unwrap_or_else(|| panic!("no {check} verdict: {:?}", r.verdicts))
}

/// Constant 1,000 ops/s on a collection created as the hour starts: the
/// budget is 500 ops/s for minutes 0–5 and 750 for minutes 5–10, then 1,125
/// (3.97 sd above the mean of a Poisson(1,000) second). Throttled =
/// (1,000 − 500)·300 + (1,000 − 750)·300 = 225,000 of 3,600,000 = 6.25%;
/// the per-trial spread is about √(300·1,000)·√2 ≈ 775 operations (0.02%),
/// and P(a second over 1,125 in minutes 10–15) ≈ 3.6·10⁻⁵ per window, so
/// throttling stops at minute 10 in ≈ 99% of trials (else at 15).
fn check_closed_form(r: &RunResults) {
    let l = ramp(r);
    let f = l.throttled_fraction.mean;
    assert!((f - 0.0625).abs() < 0.0005, "throttled share {f}");
    // The table's throttled fraction is the ramp's (Firestore sets no partition limit).
    let t = r.tables[0].throttled_fraction.mean;
    assert!((t - f).abs() < 1e-12, "{t} vs {f}");
    assert_eq!(l.clear_minute.p50, 10.0);
    assert!(
        (10.0..=11.0).contains(&l.clear_minute.mean),
        "{:?}",
        l.clear_minute
    );
    assert_eq!(l.still_throttling.mean, 0.0);
    // The first minutes run at ≈ 2× the 500 budget (peak second ≈ 1,100/500).
    assert!(
        (2.0..2.4).contains(&l.peak_utilization.mean),
        "{:?}",
        l.peak_utilization
    );
    let v = verdict(r, "table_throughput");
    assert_eq!(v.status, Status::Fail, "{}", v.detail);
    assert!(v.detail.starts_with("500/50/5 ramp"), "{}", v.detail);
    // The hour's steps up to 10 × the traffic: 500 · 1.5^k ≤ 10,000 for k ≤ 7.
    let starts: Vec<f64> = l.steps_per_s.iter().map(|s| s.0).collect();
    assert_eq!(
        starts,
        (0..8).map(|k| 300.0 * f64::from(k)).collect::<Vec<_>>()
    );
}

#[test]
fn ramp_throttles_one_thousand_ops_for_ten_minutes_aggregated() {
    check_closed_form(&run_with(
        &ramp_scenario(1000.0, "0s", "1h", 40),
        Method::Aggregated,
    ));
}

#[test]
fn ramp_throttles_one_thousand_ops_for_ten_minutes_windows() {
    check_closed_form(&run_with(
        &ramp_scenario(1000.0, "0s", "1h", 10),
        Method::Windows,
    ));
}

#[test]
fn ramp_throttles_one_thousand_ops_for_ten_minutes_exact() {
    check_closed_form(&run_with(
        &ramp_scenario(1000.0, "0s", "1h", 10),
        Method::Exact,
    ));
}

/// Five minutes old at the start: 750 ops/s for minutes 0–5, then 1,125.
/// Throttled = 250·300 = 75,000 of 3,600,000 = 2.083%, stopping at minute 5.
#[test]
fn collection_age_shifts_the_ramp() {
    let r = run_with(&ramp_scenario(1000.0, "5m", "1h", 40), Method::Aggregated);
    let l = ramp(&r);
    let f = l.throttled_fraction.mean;
    assert!((f - 75_000.0 / 3_600_000.0).abs() < 0.0003, "{f}");
    assert_eq!(l.clear_minute.p50, 5.0);
    assert_eq!(l.steps_per_s.first(), Some(&(0.0, 750.0)));
}

/// An hour old: 500 × 1.5¹² ≈ 64,873 ops/s, far above 1,000: nothing
/// throttled, no step left to simulate, the check passes.
#[test]
fn collection_past_the_ramp_throttles_nothing() {
    for method in [Method::Aggregated, Method::Exact] {
        let r = run_with(&ramp_scenario(1000.0, "1h", "30m", 10), method);
        let l = ramp(&r);
        assert_eq!(l.throttled_fraction.mean, 0.0);
        assert_eq!(l.clear_minute.mean, 0.0);
        assert!(l.steps_per_s.is_empty(), "{:?}", l.steps_per_s);
        assert_eq!(r.tables[0].throttled_fraction.mean, 0.0);
        assert_eq!(verdict(&r, "table_throughput").status, Status::Pass);
    }
}

/// 2,000 ops/s from the start: budgets 500, 750, 1,125, 1,687.5 over the
/// first four 5-minute steps, 2,531.25 from minute 20. Throttled =
/// (1,500 + 1,250 + 875 + 312.5)·300 = 1,181,250 of 3,600,000 = 32.8125%.
#[test]
fn shipped_ramp_scenario_stops_throttling_at_minute_20() {
    let text = std::fs::read_to_string(
        crate::util::root().join("scenarios/firestore-new-collection-ramp.toml"),
    )
    .unwrap()
    .replace("trials = 200", "trials = 20");
    let r = run_threads(&text, 2);
    let l = ramp(&r);
    assert!(
        (l.throttled_fraction.mean - 0.328125).abs() < 0.001,
        "{:?}",
        l.throttled_fraction
    );
    assert_eq!(l.clear_minute.mean, 20.0);
    assert_eq!(verdict(&r, "table_throughput").status, Status::Fail);
    // 25 minutes of warm-up: 500 × 1.5⁵ = 3,796.9 ops/s, utilization ≈ 0.53.
    let v = &r.variants[0];
    let vl = v.tables[0].table_limit.as_ref().unwrap();
    assert_eq!(vl.throttled_fraction.mean, 0.0);
    assert!(
        (0.5..0.6).contains(&vl.peak_utilization.p95),
        "{:?}",
        vl.peak_utilization
    );
    assert!(
        v.verdicts.iter().all(|v| v.status == Status::Pass),
        "{:?}",
        v.verdicts
    );
    assert_eq!(r.recommendation.as_ref().unwrap().variant, "ramp-first");
    // summary.json carries it, byte-identical on one thread.
    let json = keyheat::export::summary_json(&r).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let clear = &doc["tables"][0]["table_limit"]["clear_minute"]["mean"];
    assert_eq!(clear.as_f64(), Some(20.0));
    let one = keyheat::export::summary_json(&run_threads(&text, 1)).unwrap();
    assert_eq!(json, one);
}

/// A later checkpoint day simulates the busy period of a collection that
/// many days older: 30 days past creation the ramp is far past 1,000 ops/s
/// (500 × 1.5^8,640 overflows), so only day 0 throttles, 6.25%.
#[test]
fn later_checkpoints_see_an_older_collection() {
    let text = ramp_scenario(1000.0, "0s", "1h", 20).replace(
        "duration = \"1h\"",
        "duration = \"1h\"\nhorizon = \"30d\"\ngrowth = \"10%/month\"",
    );
    let r = run_with(&text, Method::Aggregated);
    let c = &r.tables[0].checkpoints;
    assert_eq!(c.len(), 2, "{c:?}");
    assert_eq!((c[0].day, c[1].day), (0.0, 30.0));
    assert!((c[0].throttled_fraction.mean - 0.0625).abs() < 0.0005);
    assert_eq!(c[1].throttled_fraction.mean, 0.0);
    assert_eq!(verdict(&r, "table_throughput").status, Status::Fail);
}

/// A collection path as the partition key (`likes`, `posts/{post}/likes`:
/// an odd number of segments, the last a collection ID) keys a collection
/// whose documents the sort key names. With `sort_key = "{time}"` every
/// like is a new document: hot_key passes and key_cardinality counts
/// unbounded documents (it judged the collection as one document, 8,150
/// writes/s on it, and advised 10,185 shards). With `sort_key = "{user}"`
/// over 10 uniform users, each document is a (post, user) pair: the
/// busiest post's writes ÷ 10.
#[test]
fn a_collection_path_keys_documents_named_by_the_sort_key() {
    let text = |pk: &str, sk: &str| {
        format!(
            r#"
schema_version = 1
name = "likes"
[store]
kind = "firestore"
[simulation]
trials = 20
duration = "10m"
[[entity]]
name = "post"
count = 1_000
popularity = {{ distribution = "zipf", exponent = 1.0 }}
[[entity]]
name = "user"
count = 10
popularity = "uniform"
[[table]]
name = "likes"
partition_key = "{pk}"
sort_key = "{sk}"
item_size = "300B"
[[access_pattern]]
name = "Write like"
table = "likes"
operation = "put"
rate = 100
by = "post"
"#
        )
    };
    let checklist = |r: &RunResults| {
        r.checklist
            .iter()
            .find(|c| c.check == "key_cardinality")
            .expect("key_cardinality")
            .clone()
    };
    for pk in ["likes", "posts/{post}/likes"] {
        let r = run_threads(&text(pk, "{time}"), 2);
        let hot = verdict(&r, "hot_key");
        assert_eq!(hot.status, Status::Pass, "{pk}: {}", hot.detail);
        assert!(
            hot.detail.starts_with("every write makes a new key"),
            "{}",
            hot.detail
        );
        let c = checklist(&r);
        assert_eq!(c.status, Status::Pass, "{pk}: {}", c.reason);
        assert!(c.reason.contains("is a collection path"), "{}", c.reason);
    }
    // posts/{post}/likes/{user}-named documents: the busiest post (Zipf 1.0
    // over 1,000: 1 / H(1000) = 13.4% of 100 writes/s) over 10 users.
    let r = run_threads(&text("posts/{post}/likes", "{user}"), 2);
    let h: f64 = (1..=1000).map(|k| 1.0 / f64::from(k)).sum();
    let expected = 100.0 / h / 10.0;
    let rate = r.tables[0].key_checks.hottest_key_writes_per_s;
    assert!(
        (rate - expected).abs() < 1e-9 * expected,
        "{rate} vs {expected}"
    );
    // A document path is one document, as before: the busiest post's.
    let r = run_threads(&text("posts/{post}", "{user}"), 2);
    let rate = r.tables[0].key_checks.hottest_key_writes_per_s;
    assert!((rate - 100.0 / h).abs() < 1e-9 * rate, "{rate}");
    // `likes` by user: 10 documents, a constant's cardinality class.
    let c = checklist(&run_threads(&text("likes", "{user}"), 2));
    assert_eq!(c.status, Status::Fail, "{}", c.reason);
    assert!(c.reason.contains("take 10 distinct values"), "{}", c.reason);
}
