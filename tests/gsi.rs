//! DynamoDB secondary indexes: index writes per base write (0, 1 or 2), a
//! global index's own provisioned capacity, and back-pressure from a global
//! index whose writes throttle onto its base table.
//!
//! Sources: Amazon DynamoDB Developer Guide, "Provisioned throughput
//! considerations for Global Secondary Indexes" (writes: an update that
//! changes an indexed key attribute costs two index writes, delete + put; a
//! write that touches no indexed attribute costs none; a table write is
//! throttled when an index lacks the write capacity) and "Read/write capacity
//! mode" (ceil(bytes / 1 KB) WCU per write).

use crate::util::{run, scenario};
use keyheat::results::{Status, TableResults};
use keyheat::RunResults;

/// An orders table keyed by order id with a keys-only global index on the
/// status and a keys-only local index, written by one update pattern.
///
/// Index entry (keys only): the index key "STATUS#{status}" (15 chars + 16 B
/// per part × 2 = 47 B) + the table key "ORDER#{order}" (13 + 32 = 45 B) +
/// 100 B overhead = 192 B → 1 WCU. The LSI entry: "ORDER#{order}" twice (90 B)
/// plus the sort key "{time}" (6 + 16 = 22 B) plus 100 B = 212 B → 1 WCU. The
/// item, 1,000 B → 1 WCU.
fn orders(pattern_extra: &str, store_extra: &str, index_extra: &str, weights: &str) -> String {
    format!(
        r#"
schema_version = 1
name = "gsi"
[store]
kind = "dynamodb"
# The older model: each partition gets its table's (or index's) capacity ÷ partitions.
adaptive_capacity = false
burst_seconds = 0
{store_extra}
[simulation]
trials = 12
duration = "10m"
[[entity]]
name = "order"
count = 100000
[[entity]]
name = "status"
popularity = {{ distribution = "weights", weights = {weights} }}
[[table]]
name = "orders"
partition_key = "ORDER#{{order}}"
item_size = "1000B"
[[table.index]]
name = "by_status"
partition_key = "STATUS#{{status}}"
projection = "keys_only"
{index_extra}
[[table.index]]
name = "by_time"
local = true
sort_key = "{{time}}"
projection = "keys_only"
[[access_pattern]]
name = "Set status"
table = "orders"
operation = "update"
rate = 100
by = "order"
{pattern_extra}
"#
    )
}

fn table<'a>(r: &'a RunResults, name: &str) -> &'a TableResults {
    r.tables
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no table {name}"))
}

const EVEN: &str = "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]";

#[test]
fn an_update_that_changes_the_index_key_costs_two_index_writes() {
    // 100 updates/s × 2 index writes × 1 WCU = 200 WCU/s on the GSI.
    let r = run(&orders(
        r#"index_key_changes = ["by_status"]"#,
        "",
        "",
        EVEN,
    ));
    let gsi = table(&r, "orders.by_status");
    assert!((gsi.mean_write_units_per_s - 200.0).abs() < 1e-9);
    // The busy-period mean over trials and partitions, from the placed rates.
    assert!(
        (gsi.write_units_per_s - 200.0).abs() < 2.0,
        "{}",
        gsi.write_units_per_s
    );
    // The base table: 1 WCU for the item + 1 WCU for the LSI entry (its key
    // is not changed).
    assert!((table(&r, "orders").mean_write_units_per_s - 200.0).abs() < 1e-9);
}

#[test]
fn an_update_that_leaves_the_key_alone_costs_one_index_write() {
    // The default: 100 × 1 × 1 WCU.
    let r = run(&orders("", "", "", EVEN));
    assert!((table(&r, "orders.by_status").mean_write_units_per_s - 100.0).abs() < 1e-9);
    assert!((table(&r, "orders").mean_write_units_per_s - 200.0).abs() < 1e-9);
}

#[test]
fn a_write_that_leaves_the_index_untouched_costs_it_nothing() {
    let r = run(&orders(
        r#"index_untouched = ["by_status", "by_time"]"#,
        "",
        "",
        EVEN,
    ));
    assert_eq!(table(&r, "orders.by_status").mean_write_units_per_s, 0.0);
    // Only the item's 1 WCU on the base table.
    assert!((table(&r, "orders").mean_write_units_per_s - 100.0).abs() < 1e-9);
    // Nothing of the base table's writes waits on the index.
    assert_eq!(table(&r, "orders").back_pressure[0].base_write_share, 0.0);
}

#[test]
fn a_local_index_key_change_costs_two_lsi_writes() {
    // 100 × (1 WCU item + 2 × 1 WCU LSI entry) = 300 WCU/s on the base table.
    let r = run(&orders(r#"index_key_changes = ["by_time"]"#, "", "", EVEN));
    assert!((table(&r, "orders").mean_write_units_per_s - 300.0).abs() < 1e-9);
    assert!((table(&r, "orders.by_status").mean_write_units_per_s - 100.0).abs() < 1e-9);
}

#[test]
fn a_global_index_takes_its_own_provisioned_capacity() {
    // Table: the defaults 3,000 RCU + 1,000 WCU → ceil(1 + 1) = 2 partitions
    // of 1,500 RCU/s and 500 WCU/s.
    // Index: 0 RCU + 4,000 WCU → ceil(0 + 4) = 4 partitions of min(1,000,
    // 4,000 / 4) = 1,000 WCU/s and 0 RCU/s.
    let r = run(&orders(
        "",
        "",
        "read_capacity = 0\nwrite_capacity = 4000",
        EVEN,
    ));
    let base = table(&r, "orders");
    assert_eq!(base.partitions, 2);
    assert_eq!(base.partition_write_limit_per_s, Some(500.0));
    let gsi = table(&r, "orders.by_status");
    assert_eq!(gsi.partitions, 4);
    assert_eq!(gsi.partition_write_limit_per_s, Some(1000.0));
    assert_eq!(gsi.partition_read_limit_per_s, Some(0.0));
    // Without its own capacity the index takes the table's: 2 partitions of 500 WCU/s.
    let r = run(&orders("", "", "", EVEN));
    let gsi = table(&r, "orders.by_status");
    assert_eq!(gsi.partitions, 2);
    assert_eq!(gsi.partition_write_limit_per_s, Some(500.0));
    // The figures table names the index's capacity and its source.
    let fig = r
        .store
        .figures
        .iter()
        .find(|f| f.name == "orders.by_status capacity")
        .expect("index capacity figure");
    assert!(fig.assumption, "{fig:?}");
}

/// Status updates at 400/s, each changing the status: 800 index writes/s of
/// 1 WCU, 90% of them to one status value. The table's 1,000 WCU over 2
/// partitions gives each 500 WCU/s, and so does the index's (the same
/// settings). The hottest status takes 0.9 × 800 = 720 WCU/s on one index
/// partition: over its 500 WCU/s. The base table's 400 WCU/s (1 WCU per
/// update; the LSI is left untouched) spread over 100,000 orders put ≈ 200
/// WCU/s on each partition: 0.4 of its limit.
fn hot_status(untouched: &str, key_changes: &str) -> String {
    orders(
        &format!("index_untouched = [\"by_time\"{untouched}]\n{key_changes}"),
        "",
        "",
        "[0.9, 0.05, 0.05]",
    )
    .replace("rate = 100\n", "rate = 400\n")
}

#[test]
fn a_hot_global_index_throttles_the_base_tables_writes() {
    let r = run(&hot_status("", r#"index_key_changes = ["by_status"]"#));
    let base = table(&r, "orders");
    let gsi = table(&r, "orders.by_status");
    // The base alone runs at ≈ 0.4 of its limit: no throttling of its own.
    assert!(
        base.peak_utilization.p95 < 0.6,
        "{:?}",
        base.peak_utilization
    );
    // The index: the hot status's partition takes 720 WCU/s plus, with
    // probability 1/2 each, the 40 WCU/s of each other status: mean excess
    // 220 + 40 = 260 of 800 WCU/s → 32.5% of the index's writes throttled
    // (Poisson spread of ≈ 27 writes/s adds a little).
    let f = base.back_pressure[0].throttled_write_fraction.mean;
    assert!((0.28..0.40).contains(&f), "index write throttling {f}");
    assert!((gsi.throttled_fraction.mean - f).abs() < 0.01);
    // Every base write feeds the index: the base's throttled fraction is the
    // index's (its own is 0), and its verdict fails on the index's pressure.
    assert_eq!(base.back_pressure[0].base_write_share, 1.0);
    assert!(
        (base.throttled_fraction.mean - f).abs() < 0.005,
        "base {} vs index {f}",
        base.throttled_fraction.mean
    );
    let added = base.index_throttled_fraction.expect("has a global index");
    assert!((added.mean - f).abs() < 0.005);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_partition" && v.table == "orders")
        .unwrap();
    assert_eq!(v.status, Status::Fail, "{}", v.detail);
    // The cause leads (its own partitions pass), and its own figures follow.
    assert!(
        v.detail
            .starts_with("back-pressure: global index orders.by_status"),
        "{}",
        v.detail
    );
    assert!(
        v.detail
            .contains("; its own partitions: p95 peak utilization "),
        "{}",
        v.detail
    );

    // The same writes leaving the index untouched: the base passes, unthrottled.
    let r = run(&hot_status(", \"by_status\"", ""));
    let base = table(&r, "orders");
    assert_eq!(base.throttled_fraction.mean, 0.0);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "hot_partition" && v.table == "orders")
        .unwrap();
    assert_eq!(v.status, Status::Pass, "{}", v.detail);
}

#[test]
fn half_the_writes_feeding_a_hot_index_halve_its_pressure() {
    // Two update patterns of 400/s each: one changes the status, one leaves
    // the index alone. The index sees the same 800 writes/s as above; the
    // base table's added throttled share is s·f with s = 1/2 of its write
    // units (both patterns cost 1 WCU).
    let text = hot_status("", r#"index_key_changes = ["by_status"]"#)
        + r#"
[[access_pattern]]
name = "Touch"
table = "orders"
operation = "update"
rate = 400
by = "order"
index_untouched = ["by_status", "by_time"]
"#;
    let r = run(&text);
    let base = table(&r, "orders");
    let bp = &base.back_pressure[0];
    assert!((bp.base_write_share - 0.5).abs() < 1e-12);
    let f = bp.throttled_write_fraction.mean;
    assert!((0.28..0.40).contains(&f), "{f}");
    // Per trial the added share is 0.5 · f (the base's own is 0; it has no reads).
    assert!(
        (base.throttled_fraction.mean - 0.5 * f).abs() < 0.005,
        "{} vs {}",
        base.throttled_fraction.mean,
        0.5 * f
    );
}

#[test]
fn index_lists_are_validated() {
    let err = |pattern: &str, index: &str, store: &str| -> String {
        let loaded =
            keyheat::Scenario::from_str_at(&orders(pattern, store, index, EVEN), "gsi.toml")
                .and_then(|s| keyheat::store::Model::for_scenario(&s).map(|_| s));
        match loaded {
            Ok(_) => panic!("accepted {pattern} / {index} / {store}"),
            Err(e) => e.to_string(),
        }
    };
    let e = err(r#"index_key_changes = ["by_stat"]"#, "", "");
    assert!(e.starts_with("gsi.toml:"), "{e}");
    assert!(e.contains("index_key_changes[0]"), "{e}");
    assert!(
        e.contains("table `orders` has no index `by_stat` (declared: `by_status`, `by_time`); did you mean `by_status`?"),
        "{e}"
    );
    let e = err(r#"index_untouched = ["nope"]"#, "", "");
    assert!(
        e.contains("index_untouched[0]") && e.contains("declared: `by_status`, `by_time`"),
        "{e}"
    );
    let e = err(
        "index_key_changes = [\"by_status\"]\nindex_untouched = [\"by_status\"]",
        "",
        "",
    );
    assert!(
        e.contains("in both index_key_changes and index_untouched"),
        "{e}"
    );
    let e = err(r#"index_key_changes = ["by_status", "by_status"]"#, "", "");
    assert!(e.contains("listed twice"), "{e}");
    let e = err("", "", "write_capacity = -1");
    assert!(
        e.contains("write_capacity") && e.contains("must be ≥ 0"),
        "{e}"
    );
    let e = err("", "write_capacity = 100", "mode = \"on_demand\"");
    assert!(e.contains("provisioned mode"), "{e}");
}

#[test]
fn key_changes_apply_to_puts_and_updates_only() {
    let text = orders(r#"index_key_changes = ["by_status"]"#, "", "", EVEN)
        .replace("operation = \"update\"", "operation = \"delete\"");
    let e = keyheat::Scenario::from_str_at(&text, "gsi.toml")
        .expect_err("a delete cannot change a key")
        .to_string();
    assert!(
        e.contains("index_key_changes applies to \"put\" or \"update\""),
        "{e}"
    );
    // A delete may leave an index untouched (the item was not in it).
    let text = orders(r#"index_untouched = ["by_status"]"#, "", "", EVEN)
        .replace("operation = \"update\"", "operation = \"delete\"");
    let s = scenario(&text);
    assert_eq!(s.access_patterns[0].index_untouched, vec![0]);
}

#[test]
fn the_shipped_status_index_scenario_shows_back_pressure() {
    // scenarios/orders-status-gsi.toml: the table alone ≈ 0.4 of its cap
    // (1,800 updates/s × ≈ 1.97 WCU over 9 partitions); the index takes
    // 2 × 1,800 = 3,600 WCU/s of 1 WCU entries (414 B), PENDING 32.7% of them
    // ≈ 1,180 WCU/s on one partition of 1,000 WCU/s.
    let s =
        keyheat::Scenario::from_path(crate::util::root().join("scenarios/orders-status-gsi.toml"))
            .expect("parses");
    let options = keyheat::engine::Options {
        trials: Some(30),
        ..Default::default()
    };
    let r = crate::util::simulate(&s, &options).expect("runs");
    let base = table(&r, "orders");
    let gsi = table(&r, "orders.by_status");
    assert!((gsi.mean_write_units_per_s - 2.0 * 900.0).abs() < 1e-9);
    // Index partitions from its own capacity: ceil(1,000 / 3,000 + 8,000 / 1,000) = 9.
    assert_eq!(gsi.partitions, 9);
    assert!(
        base.peak_utilization.p95 < 0.8,
        "{:?}",
        base.peak_utilization
    );
    // PENDING alone is 1.18 × the cap: the index's write peak is over 1.
    assert!(base.back_pressure[0].write_peak_utilization.p95 > 1.18);
    // At least PENDING's excess, 180 of 3,600 WCU/s = 5%, is throttled on the
    // index, and the same share of the table's writes.
    assert!(base.back_pressure[0].throttled_write_fraction.mean > 0.05);
    assert!(base.throttled_fraction.mean > 0.05);
    for t in ["orders", "orders.by_status"] {
        let v = r
            .verdicts
            .iter()
            .find(|v| v.check == "hot_partition" && v.table == t)
            .unwrap();
        assert_eq!(v.status, Status::Fail, "{t}: {}", v.detail);
    }
    // The 1,000,000 orders stored at day 0 (initial_items = 1 per order
    // key) are 1,000,000 index entries of 414 B, spread as the index's
    // writes are: PENDING (100 of 306 weight units) holds 326,797.4 of
    // them, 135.3 MB, the largest collection; 414 MB in all.
    assert!(
        (gsi.stored_bytes - 414e6).abs() < 1.0,
        "{}",
        gsi.stored_bytes
    );
    let pending = 1e6 * 100.0 / 306.0 * 414.0;
    let largest = gsi.max_item_collection_bytes.p95;
    assert!((largest - pending).abs() < 1.0, "{largest} vs {pending}");
}

#[test]
fn a_global_index_with_its_own_capacity_is_priced_on_it() {
    // Provisioned prices: 0.00013 per RCU-hour, 0.00065 per WCU-hour, 730 h.
    // Table: (3,000 × 0.00013 + 1,000 × 0.00065) × 730 = 759.2.
    // Index: (0 × 0.00013 + 4,000 × 0.00065) × 730 = 1,898.
    let text = orders(
        "",
        "read_capacity = 3000\nwrite_capacity = 1000",
        "read_capacity = 0\nwrite_capacity = 4000",
        EVEN,
    ) + "[pricing]\nread_unit_hour = 0.00013\nwrite_unit_hour = 0.00065\n";
    let r = run(&text);
    let cost = |name: &str| table(&r, name).monthly_cost.expect("priced");
    assert!((cost("orders") - 759.2).abs() < 1e-6, "{}", cost("orders"));
    assert!(
        (cost("orders.by_status") - 1898.0).abs() < 1e-6,
        "{}",
        cost("orders.by_status")
    );
}

/// With adaptive capacity (the default) a provisioned global index's
/// `table_throughput` is judged against its own capacity: 800 index
/// queries/s (eventually consistent, as a global index reads), each
/// returning 2 keys-only entries (≤ 4 KB → 0.5 RCU) = 400 RCU/s vs the
/// index's 300 RCU/s (fail), while the table's own 3,000 RCU/s would pass.
#[test]
fn a_global_index_table_throughput_uses_its_own_capacity() {
    let text = r#"
schema_version = 1
name = "gsi-own"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000
[simulation]
trials = 4
duration = "5m"
[[entity]]
name = "order"
count = 100000
[[entity]]
name = "status"
count = 50
[[table]]
name = "orders"
partition_key = "ORDER#{order}"
item_size = "1000B"
[[table.index]]
name = "by_status"
partition_key = "STATUS#{status}"
projection = "keys_only"
read_capacity = 300
write_capacity = 1000
[[access_pattern]]
name = "Orders by status"
table = "orders.by_status"
operation = "query"
items = 2
rate = 800
peak_factor = 1.0
by = "status"
"#;
    let r = run(text);
    let v = r
        .verdicts
        .iter()
        .find(|v| v.check == "table_throughput" && v.table == "orders.by_status")
        .expect("the index's table_throughput verdict");
    assert_eq!(v.status, Status::Fail, "{}", v.detail);
    assert!(
        v.detail.contains("asks 400 RCU/s") && v.detail.contains("the 300 RCU/s"),
        "{}",
        v.detail
    );
    // The base table has no reads of its own: nothing to judge there.
    assert!(!r
        .verdicts
        .iter()
        .any(|v| v.check == "table_throughput" && v.table == "orders" && v.detail.contains("RCU")));
}

/// A query through a local secondary index reads its entries, costed by
/// their size (Developer Guide, "Provisioned throughput considerations for
/// Local Secondary Indexes"), not the base items'. Keys, as their text plus
/// 16 B per template part: the table key "C#{customer}" (12 + 32 = 44 B)
/// and sort key "O#{time}" (8 + 32 = 40 B), the index sort key "{time}"
/// (6 + 16 = 22 B; a local index shares the table's partition key): 106 B.
/// Read units count "the sum of all projected attribute sizes across all
/// of the items returned" (the same guide), not the entry's 100 B of
/// storage overhead. A strongly consistent query of 20 entries:
/// - keys only: 20 × 106 = 2,120 B → ⌈2,120 / 4,096⌉ = 1 RCU (2 with
///   the 100 B, as keyheat read it before helper-78 asked);
/// - include 2,000 B: 20 × 2,106 = 42,120 B → 11 RCU;
/// - all (the 1,000 B item): 20 × 1,000 = 20,000 B → 5 RCU;
///
/// and the base table's 20 items of 1,000 B: 20,000 B → 5 RCU.
#[test]
fn a_local_index_query_costs_its_entries_not_the_items() {
    let text = |projection: &str, index: bool| {
        format!(
            r#"
schema_version = 1
name = "lsi"
[store]
kind = "dynamodb"
[simulation]
trials = 4
duration = "1m"
[[entity]]
name = "customer"
count = 1000
[[table]]
name = "orders"
partition_key = "C#{{customer}}"
sort_key = "O#{{time}}"
item_size = "1000B"
[[table.index]]
name = "by_time"
local = true
sort_key = "{{time}}"
projection = {projection}
[[access_pattern]]
name = "Recent"
table = "{}"
operation = "query"
items = 20
consistency = "strong"
rate = 10
by = "customer"
"#,
            if index { "orders.by_time" } else { "orders" }
        )
    };
    let units = |projection: &str, index: bool| {
        let r = run(&text(projection, index));
        table(&r, "orders").patterns[0].units_per_request
    };
    assert_eq!(units("\"keys_only\"", true), 1.0);
    assert_eq!(units("{ include = \"2000B\" }", true), 11.0);
    assert_eq!(units("\"all\"", true), 5.0);
    assert_eq!(units("\"keys_only\"", false), 5.0);
}

/// A DynamoDB item collection counts its items' local secondary index
/// entries (API Reference, `ItemCollectionMetrics.SizeEstimateRangeGB`:
/// "the size of all the items in the table, plus the size of all attributes
/// projected into all of the local secondary indexes"). One user's key
/// takes 10 puts/s of 1,000 B items; a keys-only entry is the table key
/// "U#{user}" (8 + 2 × 16 = 40 B) and sort key "{time}" (6 + 16 = 22 B),
/// the index sort key "K#{id}" (6 + 32 = 38 B) and 100 B: 200 B. The
/// collection reaches 10 GiB on day 10,737,418,240 / (864,000 × 1,200) =
/// 10.36. A second put pattern at the same rate
/// that leaves the index untouched (a sparse index) halves the entries per
/// item: 1,100 B an item at 20 puts/s, day 5.65. An update adds no item
/// and leaves the entries be.
#[test]
fn local_index_entries_count_in_the_item_collection() {
    let text = |index: &str, second: &str| {
        format!(
            r#"
schema_version = 1
name = "lsi-size"
[store]
kind = "dynamodb"
write_capacity = 10000
[simulation]
trials = 8
duration = "1m"
horizon = "30d"
[[entity]]
name = "user"
count = 1
[[table]]
name = "events"
partition_key = "U#{{user}}"
sort_key = "{{time}}"
item_size = "1000B"
{index}
[[access_pattern]]
name = "Record"
table = "events"
operation = "put"
rate = 10
by = "user"
{second}
"#
        )
    };
    let lsi = "[[table.index]]\nname = \"by_kind\"\nlocal = true\nsort_key = \"K#{id}\"\nprojection = \"keys_only\"";
    let day = |index: &str, second: &str| {
        let r = run(&text(index, second));
        table(&r, "events")
            .size_breach
            .mean_day
            .expect("a breach within 30 days")
    };
    let limit = 10.0 * 1024f64.powi(3);
    let expected = |rate: f64, bytes: f64| limit / (rate * 86_400.0 * bytes);
    let with = day(lsi, "");
    assert!((with - expected(10.0, 1200.0)).abs() < 0.02, "{with}");
    // The item's own size (the 400 KB check) is the item, 1,000 B, not
    // the 1,200 B its collection counts (it read 1,200 B: a 300 KB item
    // with an all-projecting local index failed the 400 KB check at 600 KB).
    let item = table(&run(&text(lsi, "")), "events").max_item_bytes.p95;
    assert!((item - 1000.0).abs() < 1e-6, "{item}");
    // Without a local index DynamoDB sets no collection limit: the key
    // holds its 30 days of items, 864,000 × 30 × 1,000 B = 25.9 GB.
    let r = run(&text("", ""));
    let held = table(&r, "events").max_item_collection_bytes.mean;
    assert!((held / 2.592e10 - 1.0).abs() < 0.005, "{held}");
    let sparse = "[[access_pattern]]\nname = \"Record unindexed\"\ntable = \"events\"\noperation = \"put\"\nrate = 10\nby = \"user\"\nindex_untouched = [\"by_kind\"]";
    let half = day(lsi, sparse);
    assert!((half - expected(20.0, 1100.0)).abs() < 0.02, "{half}");
    // An update adds no item: one that leaves the index untouched changes
    // no item's entry (helper-69: such an update at 10/s made every item
    // 1,100 B, and more updates a later breach).
    let update = "[[access_pattern]]\nname = \"Touch\"\ntable = \"events\"\noperation = \"update\"\nrate = 10\nby = \"user\"\nindex_untouched = [\"by_kind\"]";
    let updated = day(lsi, update);
    assert!((updated - with).abs() < 0.02, "{updated} vs {with}");
}

/// An update of a table whose index is keyed by `{time}` (here the LSI
/// `by_time`) that lists it in neither `index_key_changes` nor
/// `index_untouched` is warned at its `operation` (line 36 of [`orders`]):
/// setting a write-time attribute moves the entry, 2 index writes, where 1
/// is charged. Listing the index either way, or an index without `{time}`
/// (`by_status`), says nothing.
#[test]
fn an_update_of_a_time_keyed_index_is_warned_unless_it_is_listed() {
    let warned = |extra: &str| {
        let s = crate::util::scenario(&orders(extra, "", "", EVEN));
        s.warnings
            .iter()
            .filter(|w| w.key.ends_with(".operation"))
            .map(|w| (w.key.clone(), w.line, w.message.clone(), w.fix.clone()))
            .collect::<Vec<_>>()
    };
    let w = warned("");
    assert_eq!(w.len(), 1, "{w:?}");
    let (key, line, message, fix) = &w[0];
    assert_eq!(
        (key.as_str(), *line),
        ("access_pattern.Set status.operation", 36)
    );
    assert!(
        message.contains("index `by_time` is keyed by {time}"),
        "{message}"
    );
    assert!(message.contains("2 index writes"), "{message}");
    assert!(fix.contains(r#"index_key_changes = ["by_time"]"#), "{fix}");
    for listed in [
        r#"index_key_changes = ["by_time"]"#,
        r#"index_untouched = ["by_time"]"#,
    ] {
        assert!(warned(listed).is_empty(), "{listed}");
    }
}

/// A table within its own limits but held back by a hot global index says
/// so where the report tells its checkpoints (helper-58 read "stays within
/// the headroom" beside a failing hot_partition): orders-status-gsi's
/// orders run at ≈ 0.4 of their cap while PENDING's index partition fails.
#[test]
fn the_checkpoint_sentence_names_the_back_pressure_of_a_hot_index() {
    let path = format!(
        "{}/scenarios/orders-status-gsi.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(
            "horizon = \"365d\"",
            "horizon = \"365d\"\ncheckpoints = [\"0d\", \"30d\"]",
        )
        .replace("trials = 200", "trials = 20");
    let r = crate::util::run(&text);
    let dir = tempfile::tempdir().unwrap();
    keyheat::cli::write_outputs(&r, dir.path()).unwrap();
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(
        md.contains("on its own partitions; the writes it sends orders.by_status wait on that index's hotter partitions"),
        "{}",
        md.lines().filter(|l| l.contains("p95 peak utilization")).collect::<Vec<_>>().join("\n")
    );
}

/// A global index's day-0 entries spread over its keys as its writes are:
/// 2,000 players × 3 scores = 6,000 entries; the title taking 31 of 101
/// weight units of the writes holds 6,000 × 31/101 = 1,841.58 of them, at
/// keys + 100 B each (keys_only: "GAME#{game}" 11 + 2·16, "USER#{player}"
/// 13 + 2·16, "GAME#{game}" 11 + 2·16 = 131 B of keys; 231 B an entry):
/// 425,405.9 B, where an even spread over the 20 titles gave 69,300 B. The
/// updates move entries (a delete and a put), adding none.
#[test]
fn index_entries_at_day_0_spread_as_the_index_writes() {
    let r = run(r#"
schema_version = 1
name = "titles"
[store]
kind = "dynamodb"
mode = "on_demand"
[simulation]
trials = 8
duration = "1m"
[[entity]]
name = "player"
count = 2000
[[entity]]
name = "game"
values = ["G01","G02","G03","G04","G05","G06","G07","G08","G09","G10",
          "G11","G12","G13","G14","G15","G16","G17","G18","G19","G20"]
popularity = { distribution = "weights", weights = [31,15,10,8,6,5,4,4,3,3,2,2,2,1,1,1,1,1,0.5,0.5] }
[[table]]
name = "scores"
partition_key = "USER#{player}"
sort_key = "GAME#{game}"
item_size = "600B"
initial_items = 3
[[table.index]]
name = "by_title"
partition_key = "GAME#{game}"
projection = "keys_only"
[[access_pattern]]
name = "Record result"
table = "scores"
operation = "update"
rate = 20
by = "player"
index_key_changes = ["by_title"]
"#);
    let ix = table(&r, "scores.by_title");
    assert_eq!(ix.stored_bytes, 6000.0 * 231.0);
    let want = 6000.0 * 31.0 / 101.0 * 231.0;
    let got = ix.max_item_collection_bytes.p95;
    assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
}

/// Day 0's stored data counts what growth counts: each initial item with
/// its local index entry. 1,000 users × 5 initial items of 1,000 B, each
/// with a 200 B keys-only entry (the sizes above): 6.0 MB on day 0 in the
/// checkpoints, as in growth.csv's day 0 — helper-78 read 18.0 GB in the
/// report's checkpoint table beside 21.24 GB in growth.csv.
#[test]
fn day_0_stored_data_counts_the_local_index_entries_as_growth_does() {
    let r = run(r#"
schema_version = 1
name = "lsi-day0"
[store]
kind = "dynamodb"
write_capacity = 10000
[simulation]
trials = 4
duration = "1m"
horizon = "30d"
growth = "5%/month"
checkpoints = ["0d", "30d"]
[[entity]]
name = "user"
count = 1000
[[table]]
name = "events"
partition_key = "U#{user}"
sort_key = "{time}"
item_size = "1000B"
initial_items = 5
[[table.index]]
name = "by_kind"
local = true
sort_key = "K#{id}"
projection = "keys_only"
[[access_pattern]]
name = "Record"
table = "events"
operation = "put"
rate = 10
by = "user"
"#);
    let t = table(&r, "events");
    let expected = 1000.0 * 5.0 * 1200.0;
    let day0 = t.checkpoints[0].stored_bytes;
    assert_eq!(t.checkpoints[0].day, 0.0);
    assert!((day0 / expected - 1.0).abs() < 1e-9, "{day0} vs {expected}");
    assert_eq!(t.growth[0].day, 0.0);
    assert!((t.growth[0].table_bytes / expected - 1.0).abs() < 1e-9);
    assert_eq!(
        t.day0_layout(),
        (t.growth[0].partitions, t.growth[0].table_bytes)
    );
}

/// A query through a global index counts its entries' keys and projected
/// attributes, not their 100 B of storage overhead (Developer Guide,
/// "Provisioned throughput considerations for Global Secondary Indexes":
/// "the sum of all projected attribute sizes across all of the items
/// returned"; helper-78 asked). Keys-only entries of "S#{status}" (10 + 32
/// = 42 B), "{time}" (22 B), the table's "C#{customer}" (44 B) and
/// "O#{time}" (40 B): 148 B. An eventually consistent query of 20:
/// 2,960 B → 1 × 0.5 = 0.5 RCU (4,960 B → 1.0 RCU with the 100 B). Their
/// storage keeps the 100 B: 248 B an entry.
#[test]
fn a_global_index_query_costs_its_entries_without_their_storage_overhead() {
    let r = run(r#"
schema_version = 1
name = "gsi-read"
[store]
kind = "dynamodb"
[simulation]
trials = 4
duration = "1m"
[[entity]]
name = "customer"
count = 1000
[[entity]]
name = "status"
values = ["OPEN", "DONE"]
[[table]]
name = "orders"
partition_key = "C#{customer}"
sort_key = "O#{time}"
item_size = "1000B"
initial_items = 1
[[table.index]]
name = "by_status"
partition_key = "S#{status}"
sort_key = "{time}"
projection = "keys_only"
[[access_pattern]]
name = "By status"
table = "orders.by_status"
operation = "query"
items = 20
rate = 10
by = "status"
"#);
    let index = table(&r, "orders.by_status");
    assert_eq!(index.patterns[0].units_per_request, 0.5);
    // 1,000 day-0 entries of 248 B.
    assert!(
        (index.stored_bytes - 1000.0 * 248.0).abs() < 1e-6,
        "{}",
        index.stored_bytes
    );
}

/// A global index holds one entry per base item: a put that replaces an
/// item replaces its entry. 1,000 users with one profile item each (no
/// sort key), put 10 times a second over a 365-day horizon, indexed by a
/// `{time}` sort key: the table stores 1,000 items of 1,000 B and the
/// index 1,000 entries (keys only, with their 100 B overhead) at the
/// horizon, as on day 0. helper-87's Firestore
/// createdAt index had counted every put as a new entry (2.7 billion
/// entries, 483 GB, for 2 million posts).
#[test]
fn a_global_index_stores_no_more_entries_than_its_table_items() {
    let text = r#"
schema_version = 1
name = "profiles"
[store]
kind = "dynamodb"
[simulation]
trials = 4
duration = "1m"
horizon = "365d"
[[entity]]
name = "user"
count = 1000
[[table]]
name = "profiles"
partition_key = "USER#{user}"
item_size = "1000B"
initial_items = 1
[[table.index]]
name = "by_updated"
partition_key = "PROFILES"
sort_key = "{time}"
projection = "keys_only"
[[access_pattern]]
name = "Save profile"
table = "profiles"
operation = "put"
rate = 10
by = "user"
"#;
    let r = run(text);
    let s = scenario(text);
    let entry = keyheat::store::index_entry_bytes(&s.tables[0], &s.tables[0].indexes[0]);
    let base = table(&r, "profiles");
    let index = table(&r, "profiles.by_updated");
    let horizon = |t: &TableResults| t.growth.last().map(|g| (g.day, g.table_bytes));
    assert_eq!(horizon(base), Some((365.0, 1000.0 * 1000.0)));
    assert_eq!(horizon(index), Some((365.0, 1000.0 * entry)));
    assert_eq!(index.stored_bytes, 1000.0 * entry);
    // Its one key, `PROFILES`, holds them all, and no more.
    assert_eq!(index.max_item_collection_bytes.p95, 1000.0 * entry);
}

/// An item grown by appends costs its grown size (DynamoDB charges an
/// UpdateItem on the larger of the item's sizes before and after, a
/// GetItem on the whole item). 100 configs of 1,000 B, each appended 1,000
/// B at 0.01 a second (864 a day), stop at 400 KB (409,600 B) within a day:
/// on day 365 an append writes 1,000 + 408,600 + 1,000 B, ⌈410,600 ÷
/// 1,024⌉ = 401 WCU, and an eventually consistent get reads 409,600 B,
/// 409,600 ÷ 4,096 × 0.5 = 50 RCU; on day 0, 2 WCU and 0.5 RCU.
/// helper-88's tickets still cost 2 WCU and 0.5 RCU on day 365.
#[test]
fn an_item_grown_by_appends_costs_its_grown_size() {
    let r = run(r#"
schema_version = 1
name = "configs"
[store]
kind = "dynamodb"
read_capacity = 100000
write_capacity = 100000
[simulation]
trials = 4
duration = "1m"
horizon = "365d"
growth = "1%/month"
checkpoints = ["0d", "365d"]
[[entity]]
name = "config"
count = 100
[[table]]
name = "configs"
partition_key = "CONFIG#{config}"
item_size = "1000B"
initial_items = 1
[[access_pattern]]
name = "Add a line"
table = "configs"
operation = "append"
element_size = "1000B"
rate = 1
by = "config"
[[access_pattern]]
name = "Read the config"
table = "configs"
operation = "get"
rate = 10
by = "config"
"#);
    let t = table(&r, "configs");
    assert_eq!(t.day, 365.0);
    let units: Vec<f64> = t.patterns.iter().map(|p| p.units_per_request).collect();
    assert_eq!(units, [401.0, 50.0]);
}
