//! `summary.json`: the run's key figures, verdicts, variants and
//! recommendation. No wall-clock figures: the same scenario and seed give the
//! same bytes.

use crate::error::{Error, Result};
use crate::results::{Breach, RunResults, Stat, TableResults};
use serde_json::{json, Value};

fn stat_full(s: &Stat) -> Value {
    json!({ "mean": num(s.mean), "p50": num(s.p50), "p95": num(s.p95), "ci95": [num(s.ci95[0]), num(s.ci95[1])] })
}

/// A finite number, or null.
fn num(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn opt(x: Option<f64>) -> Value {
    x.map_or(Value::Null, num)
}

fn breach(b: &Breach) -> Value {
    json!({
        "mean_day": opt(b.mean_day),
        "ci95": b.ci95.map_or(Value::Null, |c| json!([num(c[0]), num(c[1])])),
        "probability": { "mean": num(b.probability.mean), "ci95": [num(b.probability.ci95[0]), num(b.probability.ci95[1])] },
    })
}

/// One table's object: the contract fields, then the extras.
pub fn table_json(t: &TableResults) -> Value {
    let mut v = table_fields(t);
    if let Value::Object(m) = &mut v {
        // Stored data and the partitions it lays the table out on, now and at the horizon.
        let last = t.growth.last();
        m.insert("stored_bytes".into(), num(t.stored_bytes));
        m.insert(
            "partitions_at_horizon".into(),
            json!(last.map_or(t.partitions, |g| g.partitions)),
        );
        m.insert(
            "partitions_capped_at_horizon".into(),
            json!(last.is_some_and(|g| g.partitions_capped)),
        );
        m.insert(
            "stored_bytes_at_horizon".into(),
            num(last.map_or(t.stored_bytes, |g| g.table_bytes)),
        );
        m.insert(
            "table_limit".into(),
            t.table_limit.as_ref().map_or(Value::Null, |l| {
                json!({
                    "label": l.label,
                    "steps_per_s": l.steps_per_s.iter().map(|(a, b)| json!([num(*a), num(*b)])).collect::<Vec<_>>(),
                    "throttled_fraction": { "mean": num(l.throttled_fraction.mean), "ci95": [num(l.throttled_fraction.ci95[0]), num(l.throttled_fraction.ci95[1])] },
                    "peak_utilization": stat_full(&l.peak_utilization),
                    "clear_minute": stat_full(&l.clear_minute),
                    "still_throttling": { "mean": num(l.still_throttling.mean), "ci95": [num(l.still_throttling.ci95[0]), num(l.still_throttling.ci95[1])] },
                })
            }),
        );
    }
    v
}

fn table_fields(t: &TableResults) -> Value {
    json!({
        "name": t.name,
        "partitions": t.partitions,
        "peak_utilization": stat_full(&t.peak_utilization),
        "throttled_fraction": { "mean": num(t.throttled_fraction.mean), "ci95": [num(t.throttled_fraction.ci95[0]), num(t.throttled_fraction.ci95[1])] },
        "hottest_partition_share": { "mean": num(t.hottest_partition_share.mean), "ci95": [num(t.hottest_partition_share.ci95[0]), num(t.hottest_partition_share.ci95[1])] },
        "max_item_collection_bytes": { "mean": num(t.max_item_collection_bytes.mean), "p95": num(t.max_item_collection_bytes.p95) },
        "max_item_bytes": { "mean": num(t.max_item_bytes.mean), "p95": num(t.max_item_bytes.p95) },
        "days_to_size_breach": opt(t.size_breach.mean_day),
        "days_to_item_size_breach": opt(t.item_size_breach.mean_day),
        "size_breach": breach(&t.size_breach),
        "item_size_breach": breach(&t.item_size_breach),
        "widest_safe_bucket_days": opt(t.widest_safe_bucket_days),
        "widest_safe_item_bucket_days": opt(t.widest_safe_item_bucket_days),
        "partition_rows_limit": opt(t.partition_rows_limit),
        "max_partition_rows": { "mean": num(t.max_partition_rows.mean), "p95": num(t.max_partition_rows.p95) },
        "days_to_rows_breach": opt(t.rows_breach.mean_day),
        "fan_out": t.fan_out,
        "requests_per_s": num(t.requests_per_s),
        "units_per_s": { "read": num(t.read_units_per_s), "write": num(t.write_units_per_s) },
        "mean_units_per_s": { "read": num(t.mean_read_units_per_s), "write": num(t.mean_write_units_per_s) },
        "monthly_cost": opt(t.monthly_cost),
        "partition_read_limit_per_s": opt(t.partition_read_limit_per_s),
        "partition_write_limit_per_s": opt(t.partition_write_limit_per_s),
        "partition_combined_limit_per_s": opt(t.partition_combined_limit_per_s),
        "partition_size_limit_bytes": opt(t.partition_size_limit_bytes),
        "item_size_limit_bytes": opt(t.item_size_limit_bytes),
        "placement": t.placement,
        "checkpoints": checkpoints(t),
        "nodes": t.nodes.as_ref().map(node_json),
        "back_pressure": t.back_pressure.iter().map(|b| json!({
            "index": b.index,
            "write_peak_utilization": stat_full(&b.write_peak_utilization),
            "throttled_write_fraction": { "mean": num(b.throttled_write_fraction.mean), "ci95": [num(b.throttled_write_fraction.ci95[0]), num(b.throttled_write_fraction.ci95[1])] },
            "base_write_share": num(b.base_write_share),
        })).collect::<Vec<_>>(),
        "index_throttled_fraction": t.index_throttled_fraction.map(|f| json!({ "mean": num(f.mean), "ci95": [num(f.ci95[0]), num(f.ci95[1])] })),
    })
}

/// A table's `nodes` object: the cluster's node load (and memory), the same in every table.
fn node_json(n: &crate::results::NodeResults) -> Value {
    json!({
        "label": n.label,
        "count": n.count,
        "limits_per_s": n.limits_per_s,
        "peak_utilization": stat_full(&n.peak_utilization),
        "hottest_node_share": { "mean": num(n.hottest_node_share.mean), "ci95": [num(n.hottest_node_share.ci95[0]), num(n.hottest_node_share.ci95[1])] },
        "tables": n.tables,
        "ranks": n.ranks.iter().map(|r| json!({
            "rank": r.rank,
            "read_units_per_s": num(r.read_units_per_s),
            "write_units_per_s": num(r.write_units_per_s),
            "mean_utilization": num(r.mean_utilization),
            "peak_utilization": num(r.peak_utilization),
            "peak_utilization_p95": num(r.peak_utilization_p95),
        })).collect::<Vec<_>>(),
        "memory": n.memory.as_ref().map(|m| json!({
            "key_overhead_bytes": num(m.key_overhead_bytes),
            "limit_bytes": opt(m.limit_bytes),
            "peak_bytes": stat_full(&m.peak_bytes),
            "peak_bytes_day0": stat_full(&m.peak_bytes_day0),
            "peak_growth_bytes_per_day": stat_full(&m.peak_growth_bytes_per_day),
            "total_bytes": stat_full(&m.total_bytes),
            "ranks_bytes": m.ranks_bytes.iter().map(|&x| num(x)).collect::<Vec<_>>(),
            "days_to_fill": opt(m.fill.mean_day),
            "fill": breach(&m.fill),
        })),
    })
}

/// Renders `summary.json` (pretty-printed, trailing newline).
///
/// # Errors
/// Only if serialisation fails (it does not for finite values).
pub fn summary_json(r: &RunResults) -> Result<Vec<u8>> {
    let verdicts =
        serde_json::to_value(&r.verdicts).map_err(|e| Error::write("summary.json", e))?;
    let variants: Vec<Value> = r
        .variants
        .iter()
        .map(|v| {
            json!({
                "name": v.name,
                "set": v.set,
                "tables": v.tables.iter().map(table_json).collect::<Vec<_>>(),
                "verdicts": v.verdicts,
            })
        })
        .collect();
    let mut doc = json!({
        "scenario": r.scenario,
        "seed": r.seed,
        "trials": r.trials,
        "keyheat_version": r.keyheat_version,
        "method": r.method,
        "simulation": { "window_s": num(r.window_s), "duration_s": num(r.duration_s), "horizon_days": num(r.horizon_days), "headroom": num(r.headroom) },
        "currency": r.currency,
        "store": r.store,
        "tables": r.tables.iter().map(table_json).collect::<Vec<_>>(),
        "verdicts": verdicts,
        "checklist": r.checklist,
    });
    if !variants.is_empty() {
        doc["variants"] = Value::Array(variants);
        doc["recommendation"] =
            serde_json::to_value(&r.recommendation).map_err(|e| Error::write("summary.json", e))?;
    }
    let mut bytes = serde_json::to_vec_pretty(&doc).map_err(|e| Error::write("summary.json", e))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// The busy period at each checkpoint day, with the layout of that day.
fn checkpoints(t: &TableResults) -> Vec<Value> {
    t.checkpoints
        .iter()
        .map(|c| {
            json!({
                "day": num(c.day),
                "traffic_factor": num(c.traffic_factor),
                "peak_utilization": stat_full(&c.peak_utilization),
                "throttled_fraction": { "mean": num(c.throttled_fraction.mean), "ci95": [num(c.throttled_fraction.ci95[0]), num(c.throttled_fraction.ci95[1])] },
                "partitions": c.partitions,
                "stored_bytes": num(c.stored_bytes),
            })
        })
        .collect()
}
