//! Exporter cases the golden snapshots do not reach.

use super::*;
use crate::charts::fixture;

/// A CSV without rows is its header line alone (csv writes a struct's header
/// only with a first row).
#[test]
fn nodes_csv_without_nodes_is_the_header_alone() {
    let r = fixture::results();
    assert!(r.tables.iter().all(|t| t.nodes.is_none()));
    let bytes = nodes_csv(&r).unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&bytes),
        "tables,node,rank,read_units_per_s,write_units_per_s,mean_utilization,peak_utilization_mean,peak_utilization_p95,bytes_at_horizon\n"
    );
}

/// Numbers are Rust's shortest `Display` form, never csv's `1.0` or exponent
/// form; a number that is not finite is an empty cell.
#[test]
fn csv_numbers_are_shortest_display_and_empty_when_not_finite() {
    let mut r = fixture::results();
    let p = &mut r.tables[0].partition_ranks[0];
    p.read_units_per_s = 1.0;
    p.write_units_per_s = 1e16;
    p.mean_utilization = f64::NAN;
    p.peak_utilization = f64::INFINITY;
    p.peak_utilization_p95 = 0.25;
    let bytes = partitions_csv(&r).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().nth(1).unwrap_or_default();
    assert_eq!(
        line,
        format!("{},1,1,10000000000000000,,,0.25", r.tables[0].name)
    );
}

/// summary.json writes a number that is not finite as `null`, in nested
/// statistics as in plain fields.
#[test]
fn summary_json_writes_numbers_that_are_not_finite_as_null() {
    let mut r = fixture::results();
    r.tables[0].peak_utilization.mean = f64::NAN;
    r.tables[0].requests_per_s = f64::INFINITY;
    let bytes = summary_json(&r).unwrap_or_default();
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    let table = &doc["tables"][0];
    assert!(table["peak_utilization"]["mean"].is_null(), "{table}");
    assert!(table["requests_per_s"].is_null(), "{table}");
    assert!(table["peak_utilization"]["p95"].is_number(), "{table}");
}
