//! The CSV tables: `partitions.csv`, `keys.csv`, `timeseries.csv`,
//! `growth.csv` and `variants.csv`. Numbers are written with Rust's shortest
//! round-trip formatting, so files are deterministic.

use crate::error::{Error, Result};
use crate::results::RunResults;

fn finish(w: csv::Writer<Vec<u8>>, name: &str) -> Result<Vec<u8>> {
    w.into_inner().map_err(|e| Error::write(name, e))
}

fn row<I: IntoIterator<Item = String>>(
    w: &mut csv::Writer<Vec<u8>>,
    name: &str,
    r: I,
) -> Result<()> {
    w.write_record(r).map_err(|e| Error::write(name, e))
}

fn f(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

/// `partitions.csv`: per table, per partition rank (1 = each trial's hottest),
/// the mean over trials of read and write units per second, mean utilization,
/// and peak-window utilization (mean and p95 over trials).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn partitions_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "partitions.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "table",
            "rank",
            "read_units_per_s",
            "write_units_per_s",
            "mean_utilization",
            "peak_utilization_mean",
            "peak_utilization_p95",
        ]
        .map(String::from),
    )?;
    for t in &r.tables {
        for p in &t.partition_ranks {
            row(
                &mut w,
                name,
                [
                    t.name.clone(),
                    p.rank.to_string(),
                    f(p.read_units_per_s),
                    f(p.write_units_per_s),
                    f(p.mean_utilization),
                    f(p.peak_utilization),
                    f(p.peak_utilization_p95),
                ],
            )?;
        }
    }
    finish(w, name)
}

/// `nodes.csv` (stores with nodes): per node rank of the cluster (1 = each
/// trial's busiest), every table's load summed: the tables, the node label,
/// mean read and write units per second, mean utilization, peak-window
/// utilization (mean and p95 over trials) and, when the store holds data in
/// memory (Redis), the mean bytes of the node of that rank by bytes at the
/// end of the horizon (empty otherwise).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn nodes_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "nodes.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "tables",
            "node",
            "rank",
            "read_units_per_s",
            "write_units_per_s",
            "mean_utilization",
            "peak_utilization_mean",
            "peak_utilization_p95",
            "bytes_at_horizon",
        ]
        .map(String::from),
    )?;
    if let Some(n) = r.tables.iter().find_map(|t| t.nodes.as_ref()) {
        for k in &n.ranks {
            let bytes = n
                .memory
                .as_ref()
                .and_then(|m| m.ranks_bytes.get(k.rank - 1))
                .map_or(String::new(), |&b| f(b));
            row(
                &mut w,
                name,
                [
                    n.tables.join(" + "),
                    n.label.clone(),
                    k.rank.to_string(),
                    f(k.read_units_per_s),
                    f(k.write_units_per_s),
                    f(k.mean_utilization),
                    f(k.peak_utilization),
                    f(k.peak_utilization_p95),
                    bytes,
                ],
            )?;
        }
    }
    finish(w, name)
}

/// `keys.csv`: the hottest keys of the representative trial (trial 0).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn keys_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "keys.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "table",
            "rank",
            "key",
            "partition",
            "request_share",
            "requests_per_s",
            "units_per_s",
            "peak_window_requests",
        ]
        .map(String::from),
    )?;
    for t in &r.tables {
        for (i, k) in t.hot_keys.iter().enumerate() {
            row(
                &mut w,
                name,
                [
                    t.name.clone(),
                    (i + 1).to_string(),
                    k.key.clone(),
                    k.partition.to_string(),
                    f(k.request_share),
                    f(k.requests_per_s),
                    f(k.units_per_s),
                    f(k.peak_window_requests),
                ],
            )?;
        }
    }
    finish(w, name)
}

/// `timeseries.csv`: per table, partition and time step of the representative
/// trial, mean units per second and the peak window utilization in the step.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn timeseries_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "timeseries.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "table",
            "partition",
            "time_s",
            "units_per_s",
            "peak_utilization",
        ]
        .map(String::from),
    )?;
    for t in &r.tables {
        let ts = &t.timeseries;
        for (p, (utils, units)) in ts.utilization.iter().zip(&ts.units_per_s).enumerate() {
            for (i, (u, x)) in utils.iter().zip(units).enumerate() {
                row(
                    &mut w,
                    name,
                    [
                        t.name.clone(),
                        p.to_string(),
                        f(i as f64 * ts.step_s),
                        f(*x),
                        f(*u),
                    ],
                )?;
            }
        }
    }
    finish(w, name)
}

/// `growth.csv`: per table and grid day, the largest item collection and item
/// (mean and percentiles over trials), bytes; the whole table's expected
/// stored bytes and the partitions the store lays it out on for them.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn growth_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "growth.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "table",
            "day",
            "collection_mean_bytes",
            "collection_p05_bytes",
            "collection_p95_bytes",
            "item_mean_bytes",
            "item_p95_bytes",
            "table_bytes",
            "partitions",
        ]
        .map(String::from),
    )?;
    for t in &r.tables {
        for g in &t.growth {
            row(
                &mut w,
                name,
                [
                    t.name.clone(),
                    f(g.day),
                    f(g.collection_mean_bytes),
                    f(g.collection_p05_bytes),
                    f(g.collection_p95_bytes),
                    f(g.item_mean_bytes),
                    f(g.item_p95_bytes),
                    f(g.table_bytes),
                    g.partitions.to_string(),
                ],
            )?;
        }
    }
    finish(w, name)
}

/// `variants.csv`: one row per variant and table: p95 peak utilization,
/// throttled fraction, breach days, fan-out, monthly cost (empty without
/// `[pricing]`; currency in `summary.json`) and the variant's worst verdict.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn variants_csv(r: &RunResults) -> Result<Vec<u8>> {
    let name = "variants.csv";
    let mut w = csv::Writer::from_writer(Vec::new());
    row(
        &mut w,
        name,
        [
            "variant",
            "set",
            "table",
            "partitions",
            "peak_utilization_p95",
            "throttled_fraction_mean",
            "days_to_size_breach",
            "days_to_item_size_breach",
            "fan_out",
            "monthly_cost",
            "status",
        ]
        .map(String::from),
    )?;
    let base = std::iter::once(("base".to_string(), String::new(), &r.tables, &r.verdicts));
    let rest = r.variants.iter().map(|v| {
        let set = v
            .set
            .iter()
            .map(|(k, x)| format!("{k}={x}"))
            .collect::<Vec<_>>()
            .join(";");
        (v.name.clone(), set, &v.tables, &v.verdicts)
    });
    for (vname, set, tables, verdicts) in base.chain(rest) {
        for t in tables.iter() {
            let status = verdicts
                .iter()
                .filter(|v| v.table == t.name)
                .map(|v| v.status)
                .max()
                .map_or("pass", |s| s.as_str());
            row(
                &mut w,
                name,
                [
                    vname.clone(),
                    set.clone(),
                    t.name.clone(),
                    t.partitions.to_string(),
                    f(t.peak_utilization.p95),
                    f(t.throttled_fraction.mean),
                    t.size_breach.mean_day.map_or(String::new(), f),
                    t.item_size_breach.mean_day.map_or(String::new(), f),
                    t.fan_out.to_string(),
                    t.monthly_cost.map_or(String::new(), f),
                    status.to_string(),
                ],
            )?;
        }
    }
    finish(w, name)
}
