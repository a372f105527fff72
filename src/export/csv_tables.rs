//! The CSV tables: `partitions.csv`, `nodes.csv`, `keys.csv`,
//! `timeseries.csv`, `growth.csv`, `patterns.csv` and `variants.csv`. Numbers are written
//! with Rust's shortest round-trip formatting, so files are deterministic.
//!
//! One row struct per file is the file's contract: its field names are the
//! header, in column order; a number that is not finite, or absent, is an
//! empty cell.

use crate::error::{Error, Result};
use crate::results::{RunResults, TableResults, Verdict};
use serde::{Serialize, Serializer};

/// A row of `partitions.csv`: one partition rank of one table.
#[derive(Debug, Default, Serialize)]
pub struct PartitionRow<'a> {
    /// Table (or `table.index`).
    pub table: &'a str,
    /// Partition rank, 1 = each trial's hottest.
    pub rank: usize,
    /// Mean over trials of the partition's read units per second.
    #[serde(serialize_with = "shortest")]
    pub read_units_per_s: f64,
    /// Mean over trials of its write units per second.
    #[serde(serialize_with = "shortest")]
    pub write_units_per_s: f64,
    /// Mean over trials of its busy-period mean load ÷ limit.
    #[serde(serialize_with = "shortest")]
    pub mean_utilization: f64,
    /// Mean over trials of its peak-window utilization.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization_mean: f64,
    /// 95th percentile over trials of its peak-window utilization.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization_p95: f64,
}

/// A row of `nodes.csv`: one node rank of the cluster, every table's load
/// summed.
#[derive(Debug, Default, Serialize)]
pub struct NodeRow<'a> {
    /// The tables whose load is summed, joined with `" + "`.
    pub tables: String,
    /// What a node is called in this store (`node`, `master`, `shard`).
    pub node: &'a str,
    /// Node rank, 1 = each trial's busiest.
    pub rank: usize,
    /// Mean over trials of the node's read units per second.
    #[serde(serialize_with = "shortest")]
    pub read_units_per_s: f64,
    /// Mean over trials of its write units per second.
    #[serde(serialize_with = "shortest")]
    pub write_units_per_s: f64,
    /// Mean over trials of its busy-period mean load ÷ limit.
    #[serde(serialize_with = "shortest")]
    pub mean_utilization: f64,
    /// Mean over trials of its peak-window utilization.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization_mean: f64,
    /// 95th percentile over trials of its peak-window utilization.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization_p95: f64,
    /// Mean over trials of the bytes of the node of this rank by bytes at
    /// the end of the horizon, when the store holds data in memory (Redis);
    /// empty otherwise.
    #[serde(serialize_with = "shortest_or_empty")]
    pub bytes_at_horizon: Option<f64>,
}

/// A row of `keys.csv`: one hot key of the representative trial (trial 0).
#[derive(Debug, Default, Serialize)]
pub struct KeyRow<'a> {
    /// Table (or `table.index`).
    pub table: &'a str,
    /// Rank among the table's hot keys, 1 = hottest.
    pub rank: usize,
    /// The partition key value (with shard / bucket suffix).
    pub key: &'a str,
    /// Partition it lands on (0-based).
    pub partition: usize,
    /// Its expected requests ÷ the table's, over the busy period.
    #[serde(serialize_with = "shortest")]
    pub request_share: f64,
    /// Expected requests per second it receives (busy-period mean).
    #[serde(serialize_with = "shortest")]
    pub requests_per_s: f64,
    /// Expected units per second it consumes (reads + writes).
    #[serde(serialize_with = "shortest")]
    pub units_per_s: f64,
    /// Requests in its busiest window.
    #[serde(serialize_with = "shortest")]
    pub peak_window_requests: f64,
    /// Of its units, read units per second (RCU on DynamoDB).
    #[serde(serialize_with = "shortest")]
    pub read_units_per_s: f64,
    /// Of its units, write units per second (WCU on DynamoDB).
    #[serde(serialize_with = "shortest")]
    pub write_units_per_s: f64,
}

/// A row of `timeseries.csv`: one partition (or node) and time step of the
/// representative trial.
#[derive(Debug, Default, Serialize)]
pub struct TimeseriesRow<'a> {
    /// Table (or `table.index`).
    pub table: &'a str,
    /// Partition (or node) index, 0-based in key-space order.
    pub partition: usize,
    /// Start of the step, seconds into the busy period.
    #[serde(serialize_with = "shortest")]
    pub time_s: f64,
    /// Mean units per second within the step (reads + writes).
    #[serde(serialize_with = "shortest")]
    pub units_per_s: f64,
    /// Peak window utilization within the step.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization: f64,
}

/// A row of `growth.csv`: one table on one day of the growth grid.
#[derive(Debug, Default, Serialize)]
pub struct GrowthRow<'a> {
    /// Table (or `table.index`).
    pub table: &'a str,
    /// Day since t = 0.
    #[serde(serialize_with = "shortest")]
    pub day: f64,
    /// Mean over trials of the largest item collection, bytes.
    #[serde(serialize_with = "shortest")]
    pub collection_mean_bytes: f64,
    /// 5th percentile over trials of the largest item collection, bytes.
    #[serde(serialize_with = "shortest")]
    pub collection_p05_bytes: f64,
    /// 95th percentile over trials of the largest item collection, bytes.
    #[serde(serialize_with = "shortest")]
    pub collection_p95_bytes: f64,
    /// Mean over trials of the largest item, bytes.
    #[serde(serialize_with = "shortest")]
    pub item_mean_bytes: f64,
    /// 95th percentile over trials of the largest item, bytes.
    #[serde(serialize_with = "shortest")]
    pub item_p95_bytes: f64,
    /// Expected bytes the whole table stores that day.
    #[serde(serialize_with = "shortest")]
    pub table_bytes: f64,
    /// Partitions the store lays the table out on for those bytes.
    pub partitions: usize,
}

/// A row of `patterns.csv`: one access pattern on one table (or index) of
/// the base design.
#[derive(Debug, Default, Serialize)]
pub struct PatternRow<'a> {
    /// Table (or `table.index`).
    pub table: &'a str,
    /// The access pattern (on an index, a base write's `"<name> (index write)"`).
    pub pattern: &'a str,
    /// `get`, `query`, `put`, `update`, `delete`, `append` or `index write`.
    pub operation: &'a str,
    /// `read` or `write`: which capacity it consumes.
    pub side: &'a str,
    /// The capacity unit (`RCU`, `WCU`, `RU`, `ops`, …).
    pub unit: &'a str,
    /// Busy-period requests per second (rate × peak factor × traffic factor of `day`).
    #[serde(serialize_with = "shortest")]
    pub requests_per_s: f64,
    /// Sub-requests per request (shards × buckets a read fans out to).
    #[serde(serialize_with = "shortest")]
    pub fan_out: f64,
    /// Mean capacity units per request.
    #[serde(serialize_with = "shortest")]
    pub units_per_request: f64,
    /// Busy-period capacity units per second.
    #[serde(serialize_with = "shortest")]
    pub units_per_s: f64,
    /// Share of the table's busy-period units of the same side.
    #[serde(serialize_with = "shortest")]
    pub units_share: f64,
    /// Daily-mean requests per second (the pattern's `rate`).
    #[serde(serialize_with = "shortest")]
    pub mean_requests_per_s: f64,
    /// Daily-mean capacity units per second (what on-demand pricing bills).
    #[serde(serialize_with = "shortest")]
    pub mean_units_per_s: f64,
    /// The pattern's part of the table's monthly cost; empty without `[pricing]`.
    #[serde(serialize_with = "shortest_or_empty")]
    pub monthly_cost: Option<f64>,
    /// Its share of the table's monthly cost; empty without `[pricing]`.
    #[serde(serialize_with = "shortest_or_empty")]
    pub cost_share: Option<f64>,
    /// Day of the horizon whose busy period the busy-period figures describe.
    #[serde(serialize_with = "shortest")]
    pub day: f64,
}

/// A row of `variants.csv`: one table of one design (the base first).
#[derive(Debug, Default, Serialize)]
pub struct VariantRow<'a> {
    /// Variant name, `base` for the base design.
    pub variant: &'a str,
    /// The variant's overrides as `path=value`, joined with `;` (empty for
    /// the base design).
    pub set: String,
    /// Table (or `table.index`).
    pub table: &'a str,
    /// Partitions the store lays the table out on, on `day`.
    pub partitions: usize,
    /// 95th percentile over trials of the peak window utilization, on `day`.
    #[serde(serialize_with = "shortest")]
    pub peak_utilization_p95: f64,
    /// Mean over trials of the throttled units ÷ requested units.
    #[serde(serialize_with = "shortest")]
    pub throttled_fraction_mean: f64,
    /// Mean day an item collection first crosses its ceiling; empty when
    /// none does within the horizon.
    #[serde(serialize_with = "shortest_or_empty")]
    pub days_to_size_breach: Option<f64>,
    /// Mean day an item first crosses the item ceiling; empty when none.
    #[serde(serialize_with = "shortest_or_empty")]
    pub days_to_item_size_breach: Option<f64>,
    /// Queries a whole-key read issues.
    pub fan_out: u32,
    /// Monthly cost of the table's capacity units (currency in
    /// `summary.json`); empty without `[pricing]`.
    #[serde(serialize_with = "shortest_or_empty")]
    pub monthly_cost: Option<f64>,
    /// The design's worst verdict on the table: `pass`, `warn` or `fail`.
    pub status: &'static str,
    /// Day of the horizon whose busy period `partitions`, the peak and the
    /// throttled fraction describe: the checkpoint the verdict judges.
    #[serde(serialize_with = "shortest")]
    pub day: f64,
    /// The checks on the table that do not pass, as `check status`, joined
    /// with `;` (empty when every check passes).
    pub failing: String,
    /// Mean day an item collection first crosses its row (cell) warning;
    /// empty when none does, or the store has none (last: added after the
    /// other columns).
    #[serde(serialize_with = "shortest_or_empty")]
    pub days_to_rows_breach: Option<f64>,
    /// The p95 the report's and terminal's variants tables compare designs
    /// by: `peak_utilization_p95`, or the busiest node's where the store has
    /// nodes and it is higher ([`TableResults::busiest_server_p95`]; last:
    /// added after the other columns).
    #[serde(serialize_with = "shortest")]
    pub busiest_server_peak_utilization_p95: f64,
    /// The throttled share the report's and terminal's variants tables
    /// show: `throttled_fraction_mean`, or, where another checkpoint
    /// throttles more, that checkpoint's mean ([`TableResults::more_throttled_day`];
    /// last: added after the other columns).
    #[serde(serialize_with = "shortest")]
    pub most_throttled_fraction_mean: f64,
    /// The day of `most_throttled_fraction_mean`'s busy period.
    #[serde(serialize_with = "shortest")]
    pub most_throttled_day: f64,
}

/// Writes a number in Rust's shortest round-trip `Display` form (`1`,
/// `0.25`, `216000000000`, never an exponent; csv's own writes `1.0` and
/// `1e16`), and a number that is not finite as an empty cell.
fn shortest<S: Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    if x.is_finite() {
        let mut text = String::with_capacity(24);
        crate::format::shortest_into(*x, &mut text);
        s.serialize_str(&text)
    } else {
        s.serialize_str("")
    }
}

/// [`shortest`], and an absent number as an empty cell.
fn shortest_or_empty<S: Serializer>(x: &Option<f64>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match x {
        Some(x) => shortest(x, s),
        None => s.serialize_str(""),
    }
}

/// Renders one CSV file named `name`: the header (the row type's field
/// names), then a line per row.
fn render<R: Serialize + Default>(
    name: &str,
    rows: impl IntoIterator<Item = R>,
) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut rows = rows.into_iter().peekable();
    if rows.peek().is_none() {
        // csv writes the header with the first row: write a default row for
        // it, then keep the header line alone.
        w.serialize(R::default())
            .map_err(|e| Error::write(name, e))?;
        let mut bytes = w.into_inner().map_err(|e| Error::write(name, e))?;
        let header_end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.truncate(header_end);
        return Ok(bytes);
    }
    for row in rows {
        w.serialize(row).map_err(|e| Error::write(name, e))?;
    }
    w.into_inner().map_err(|e| Error::write(name, e))
}

/// `partitions.csv`: per table, per partition rank (1 = each trial's hottest),
/// the mean over trials of read and write units per second, mean utilization,
/// and peak-window utilization (mean and p95 over trials).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn partitions_csv(r: &RunResults) -> Result<Vec<u8>> {
    let rows = r.tables.iter().flat_map(|t| {
        t.partition_ranks.iter().map(|p| PartitionRow {
            table: &t.name,
            rank: p.rank,
            read_units_per_s: p.read_units_per_s,
            write_units_per_s: p.write_units_per_s,
            mean_utilization: p.mean_utilization,
            peak_utilization_mean: p.peak_utilization,
            peak_utilization_p95: p.peak_utilization_p95,
        })
    });
    render("partitions.csv", rows)
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
    let nodes = r.tables.iter().find_map(|t| t.nodes.as_ref());
    let rows = nodes.into_iter().flat_map(|n| {
        n.ranks.iter().map(|k| NodeRow {
            tables: n.tables.join(" + "),
            node: &n.label,
            rank: k.rank,
            read_units_per_s: k.read_units_per_s,
            write_units_per_s: k.write_units_per_s,
            mean_utilization: k.mean_utilization,
            peak_utilization_mean: k.peak_utilization,
            peak_utilization_p95: k.peak_utilization_p95,
            bytes_at_horizon: n
                .memory
                .as_ref()
                .and_then(|m| m.ranks_bytes.get(k.rank - 1).copied()),
        })
    });
    render("nodes.csv", rows)
}

/// `keys.csv`: the hottest keys of the representative trial (trial 0).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn keys_csv(r: &RunResults) -> Result<Vec<u8>> {
    let rows = r.tables.iter().flat_map(|t| {
        t.hot_keys.iter().enumerate().map(|(i, k)| KeyRow {
            table: &t.name,
            rank: i + 1,
            key: &k.key,
            partition: k.partition,
            request_share: k.request_share,
            requests_per_s: k.requests_per_s,
            units_per_s: k.units_per_s,
            read_units_per_s: k.read_units_per_s,
            write_units_per_s: k.write_units_per_s,
            peak_window_requests: k.peak_window_requests,
        })
    });
    render("keys.csv", rows)
}

/// `timeseries.csv`: per table, partition and time step of the representative
/// trial, mean units per second and the peak window utilization in the step,
/// each to [`SERIES_DIGITS`] significant digits (one trial's draws: the
/// digits beyond are noise, and a table of thousands of partitions writes
/// millions of them).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn timeseries_csv(r: &RunResults) -> Result<Vec<u8>> {
    Ok(timeseries_pieces(r)?.concat())
}

/// [`timeseries_csv`]'s bytes as consecutive pieces (the header, then runs
/// of 64 partitions), written one after the other without joining them:
/// a table of thousands of partitions renders tens of MB.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn timeseries_pieces(r: &RunResults) -> Result<Vec<Vec<u8>>> {
    use crate::format::{significant_bytes_into, SERIES_DIGITS};
    use rayon::prelude::*;
    // The file's bulk (partitions × steps rows, millions on a large table)
    // is rendered in parallel runs of partitions, in order: the same bytes
    // as one writer. The header is TimeseriesRow's.
    let mut pieces = vec![render(
        "timeseries.csv",
        std::iter::empty::<TimeseriesRow>(),
    )?];
    for t in &r.tables {
        let ts = &t.timeseries;
        // Every row, or the busiest TIMESERIES_MAX_ROWS of a larger table.
        let rows: Vec<(usize, &Vec<f64>, &Vec<f64>)> = ts
            .written_rows()
            .into_iter()
            .filter_map(|i| Some((i, ts.utilization.get(i)?, ts.units_per_s.get(i)?)))
            .collect();
        // Every partition's steps start at the same times: written once.
        let steps = ts.utilization.iter().map(Vec::len).max().unwrap_or(0);
        let times: Vec<String> = (0..steps)
            .map(|i| {
                let mut cell = String::new();
                let v = i as f64 * ts.step_s;
                if v.is_finite() {
                    crate::format::shortest_into(v, &mut cell);
                }
                cell
            })
            .collect();
        // The table's name as csv writes it (quoted when it must be), once;
        // numbers never need quoting, so each row is written as bytes.
        let name = {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::new());
            w.write_record([t.name.as_str()])
                .map_err(|e| Error::write("timeseries.csv", e))?;
            let mut field = w
                .into_inner()
                .map_err(|e| Error::write("timeseries.csv", e))?;
            field.pop(); // the record's "\n"
            field
        };
        // (Written from a &str, the field is UTF-8.)
        let name = String::from_utf8_lossy(&name).into_owned();
        let chunks: Vec<Vec<u8>> = rows
            .par_chunks(64)
            .map(|chunk| {
                // Each row written straight into the piece, sized up front
                // for rows of the name and 32 bytes.
                let mut prefix = String::new();
                let mut out = Vec::with_capacity(chunk.len() * steps * (name.len() + 32));
                for &(row, utils, xs) in chunk {
                    prefix.clear();
                    prefix.push_str(&name);
                    prefix.push(',');
                    prefix.push_str(&row.to_string());
                    prefix.push(',');
                    for ((u, x), time) in utils.iter().zip(xs).zip(&times) {
                        out.extend_from_slice(prefix.as_bytes());
                        out.extend_from_slice(time.as_bytes());
                        for v in [*x, *u] {
                            out.push(b',');
                            if v.is_finite() {
                                significant_bytes_into(v, SERIES_DIGITS, &mut out);
                            }
                        }
                        out.push(b'\n');
                    }
                }
                out
            })
            .collect();
        pieces.extend(chunks);
    }
    Ok(pieces)
}

/// `growth.csv`: per table and grid day, the largest item collection and item
/// (mean and percentiles over trials), bytes; the whole table's expected
/// stored bytes and the partitions the store lays it out on for them.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn growth_csv(r: &RunResults) -> Result<Vec<u8>> {
    let rows = r.tables.iter().flat_map(|t| {
        t.growth.iter().map(|g| GrowthRow {
            table: &t.name,
            day: g.day,
            collection_mean_bytes: g.collection_mean_bytes,
            collection_p05_bytes: g.collection_p05_bytes,
            collection_p95_bytes: g.collection_p95_bytes,
            item_mean_bytes: g.item_mean_bytes,
            item_p95_bytes: g.item_p95_bytes,
            table_bytes: g.table_bytes,
            partitions: g.partitions,
        })
    });
    render("growth.csv", rows)
}

/// `patterns.csv`: per table (base design) and access pattern, the
/// busy-period requests, units per request and units per second, the share
/// of the table's units of its side, the daily-mean requests and units, and
/// the pattern's part and share of the table's monthly cost (empty without
/// `[pricing]`; currency in `summary.json`).
///
/// # Errors
/// Only on a CSV writer failure.
pub fn patterns_csv(r: &RunResults) -> Result<Vec<u8>> {
    let rows = r.tables.iter().flat_map(|t| {
        t.patterns.iter().map(|p| PatternRow {
            table: &t.name,
            pattern: &p.pattern,
            operation: &p.operation,
            side: &p.side,
            unit: if p.side == "write" {
                &r.store.write_unit
            } else {
                &r.store.read_unit
            },
            requests_per_s: p.requests_per_s,
            fan_out: p.fan_out,
            units_per_request: p.units_per_request,
            units_per_s: p.units_per_s,
            units_share: p.units_share,
            mean_requests_per_s: p.mean_requests_per_s,
            mean_units_per_s: p.mean_units_per_s,
            monthly_cost: p.monthly_cost,
            cost_share: p.cost_share,
            day: t.day,
        })
    });
    render("patterns.csv", rows)
}

/// `variants.csv`: one row per variant and table: p95 peak utilization,
/// throttled fraction, breach days, fan-out, monthly cost (empty without
/// `[pricing]`; currency in `summary.json`) and the variant's worst verdict.
///
/// # Errors
/// Only on a CSV writer failure.
pub fn variants_csv(r: &RunResults) -> Result<Vec<u8>> {
    let base = std::iter::once(("base", String::new(), &r.tables, &r.verdicts));
    let rest = r.variants.iter().map(|v| {
        let set = v
            .set
            .iter()
            .map(|(k, x)| format!("{k}={x}"))
            .collect::<Vec<_>>()
            .join(";");
        (v.name.as_str(), set, &v.tables, &v.verdicts)
    });
    let rows = base
        .chain(rest)
        .flat_map(|(variant, set, tables, verdicts)| {
            tables
                .iter()
                .map(move |t| variant_row(variant, set.clone(), t, verdicts))
        });
    render("variants.csv", rows)
}

/// One table of one design in `variants.csv`.
fn variant_row<'a>(
    variant: &'a str,
    set: String,
    t: &'a TableResults,
    verdicts: &[Verdict],
) -> VariantRow<'a> {
    let mine = || verdicts.iter().filter(|v| v.concerns(&t.name));
    let status = mine()
        .map(|v| v.status)
        .max()
        .map_or("pass", |s| s.as_str());
    let failing = mine()
        .filter(|v| v.status != crate::results::Status::Pass)
        .map(|v| format!("{} {}", v.check, v.status.as_str()))
        .collect::<Vec<_>>()
        .join(";");
    VariantRow {
        variant,
        set,
        table: &t.name,
        partitions: t.partitions,
        peak_utilization_p95: t.peak_utilization.p95,
        throttled_fraction_mean: t.throttled_fraction.mean,
        days_to_size_breach: t.size_breach.mean_day,
        days_to_item_size_breach: t.item_size_breach.mean_day,
        fan_out: t.fan_out,
        monthly_cost: t.monthly_cost,
        status,
        day: t.day,
        failing,
        days_to_rows_breach: t.rows_breach.mean_day,
        busiest_server_peak_utilization_p95: t.busiest_server_p95(),
        most_throttled_fraction_mean: t
            .more_throttled_day()
            .map_or(t.throttled_fraction.mean, |c| c.throttled_fraction.mean),
        most_throttled_day: t.more_throttled_day().map_or(t.day, |c| c.day),
    }
}
