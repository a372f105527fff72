//! `summary.json`: the run's key figures, verdicts, variants and
//! recommendation. No wall-clock figures: the same scenario and seed give the
//! same bytes.
//!
//! The structs here are the file's contract: [`Summary`] is the document,
//! each field a key in this order (a number that is not finite is written as
//! `null`). Figures "per trial" are reduced over trials as [`Stat`] (`mean`,
//! `p50`, `p95`, `ci95`), [`MeanCi`] or [`MeanP95`].

use crate::error::{Error, Result};
use crate::results::{
    Breach, CacheFigures, ChecklistItem, Checkpoint, CopyFigures, IndexPressure, NodeMemory,
    NodeResults, PartitionRank, PatternLoad, Placement, Proportion, Recommendation, RunResults,
    Stat, StoreSummary, TableCap, TableLimitResults, TableResults, VariantResults, Verdict,
};
use serde::Serialize;
use serde_json::{Map, Value};

/// The `summary.json` document.
#[derive(Debug, Serialize)]
pub struct Summary<'a> {
    /// Scenario name.
    pub scenario: &'a str,
    /// Base seed.
    pub seed: u64,
    /// Trials simulated.
    pub trials: u32,
    /// The keyheat version that wrote the file.
    pub keyheat_version: &'a str,
    /// How request counts were drawn (`aggregated`, `exact`, `windows`).
    pub method: &'a str,
    /// The simulated busy period and horizon.
    pub simulation: Simulation,
    /// Currency of every `monthly_cost`; `null` without `[pricing]`.
    pub currency: Option<&'a str>,
    /// Store kind, capacity unit names and every figure in force with its
    /// source (`{kind, read_unit, write_unit, figures: [{name, value,
    /// source, assumption}]}`).
    pub store: &'a StoreSummary,
    /// Per table (and index) of the base design.
    pub tables: Vec<TableSummary<'a>>,
    /// The base design's verdicts (`{check, table, status, detail}`, status
    /// `pass` / `warn` / `fail`).
    pub verdicts: &'a [Verdict],
    /// The base design's design-review checklist (`{check, subject, status,
    /// reason}`).
    pub checklist: &'a [ChecklistItem],
    /// The scenario's validation warnings (`{path, line, column, key,
    /// message, fix}`: a `peak_factor` below 1, a `query` on a table without
    /// a sort key), only when there are any.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub warnings: &'a [crate::scenario::Warning],
    /// Per access pattern with `copies`: the copy table, copies per
    /// operation, write amplification and propagation time (absent when no
    /// pattern writes copies).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub copies: &'a [CopyFigures],
    /// Per read pattern behind a `cache` / `coalesce`: hit ratio with its
    /// interval, the load that still reaches the partitions and the smallest
    /// cache that passes (absent when none).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub caches: &'a [CacheFigures],
    /// `variants` and `recommendation`, only when the scenario has variants.
    #[serde(flatten)]
    pub sweep: Option<Sweep<'a>>,
    /// `keyheat replay` only: the logs read, what was left out and why, the
    /// field mapping, each pattern's observed requests, how keys were
    /// counted and placed, and with `--predict` the prediction beside the
    /// observation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<&'a crate::results::ReplayInfo>,
}

/// `simulation`: the busy period simulated and the growth horizon.
#[derive(Debug, Serialize)]
pub struct Simulation {
    /// Window length, seconds.
    pub window_s: f64,
    /// Busy period, seconds.
    pub duration_s: f64,
    /// Growth horizon, days.
    pub horizon_days: f64,
    /// Headroom the checks judge against (a utilization, 0–1).
    pub headroom: f64,
}

/// The alternatives of a scenario with variants.
#[derive(Debug, Serialize)]
pub struct Sweep<'a> {
    /// One object per variant, in scenario order.
    pub variants: Vec<VariantSummary<'a>>,
    /// The smallest change that passes every check (`{variant, set,
    /// reason}`; `variant` is `"base"` when the base design passes, `"none"`
    /// when no alternative does).
    pub recommendation: Option<&'a Recommendation>,
}

/// One variant: its overrides and its results.
#[derive(Debug, Serialize)]
pub struct VariantSummary<'a> {
    /// Variant name.
    pub name: &'a str,
    /// Overrides applied, scenario path → value.
    pub set: &'a Map<String, Value>,
    /// Per table, as the base design's `tables`.
    pub tables: Vec<TableSummary<'a>>,
    /// The variant's verdicts.
    pub verdicts: &'a [Verdict],
    /// As the base design's `copies` (absent when none).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub copies: &'a [CopyFigures],
    /// As the base design's `caches` (absent when none).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub caches: &'a [CacheFigures],
}

/// One table (or `table.index`) of a design.
#[derive(Debug, Serialize)]
pub struct TableSummary<'a> {
    /// Table name, or `"table.index"` for an index.
    pub name: &'a str,
    /// Day of the horizon whose busy period the busy-period figures below
    /// (partitions, peak utilization, throttled fraction, hottest partition,
    /// limits, table limit, stored bytes) describe: the checkpoint the
    /// `hot_partition` verdict judges (0 without growth).
    pub day: f64,
    /// Traffic multiplier of that day.
    pub traffic_factor: f64,
    /// The day stored data first splits the table onto more partitions
    /// than on day 0 (a root of the growth curve); `null` when it does not
    /// within the horizon.
    pub first_split_day: Option<f64>,
    /// Partitions the store lays the table out on, on `day`.
    pub partitions: usize,
    /// Peak over windows and partitions of consumed units ÷ limit, per trial.
    pub peak_utilization: Stat,
    /// Throttled units ÷ requested units over the busy period, per trial.
    pub throttled_fraction: MeanCi,
    /// Throttled read units ÷ requested read units, per trial, where the
    /// partitions limit reads and writes separately (DynamoDB); `null`
    /// under one combined limit.
    pub throttled_read_fraction: Option<MeanCi>,
    /// Throttled write units ÷ requested write units, per trial (global
    /// index back-pressure included); `null` as the read side.
    pub throttled_write_fraction: Option<MeanCi>,
    /// Share of the table's units on its hottest partition, per trial.
    pub hottest_partition_share: MeanCi,
    /// Largest item collection reached within the horizon, bytes, per trial.
    pub max_item_collection_bytes: MeanP95,
    /// Largest item reached within the horizon, bytes, per trial.
    pub max_item_bytes: MeanP95,
    /// Mean day an item collection first crosses its ceiling; `null` when
    /// no trial breaches within the horizon.
    pub days_to_size_breach: Option<f64>,
    /// Mean day an item first crosses the item ceiling; `null` when none.
    pub days_to_item_size_breach: Option<f64>,
    /// The item-collection breach with its probability and CIs.
    pub size_breach: BreachSummary,
    /// The item breach with its probability and CIs.
    pub item_size_breach: BreachSummary,
    /// Widest time bucket, days, keeping the busiest item collection within
    /// every size and row check at the p95 (stored bytes with the per-item
    /// overhead under headroom × its ceiling, rows under headroom × the row
    /// warning); `null`: nothing grows or no ceiling.
    pub widest_safe_bucket_days: Option<f64>,
    /// The same for the busiest item.
    pub widest_safe_item_bucket_days: Option<f64>,
    /// The fewest write shards (in all) that keep the busiest item
    /// collection within every size and row check, when more are needed.
    pub fewest_safe_shards: Option<u32>,
    /// Rows one item collection may hold before the store warns; `null`
    /// when the store has no such limit.
    pub partition_rows_limit: Option<f64>,
    /// Most rows an item collection reaches within the horizon, per trial.
    pub max_partition_rows: MeanP95,
    /// Mean day an item collection first holds more rows than the limit;
    /// `null` when none.
    pub days_to_rows_breach: Option<f64>,
    /// Queries a whole-key read issues (shards × buckets read).
    pub fan_out: u32,
    /// Mean requests per second in the busy period.
    pub requests_per_s: f64,
    /// Mean capacity units per second in the busy period (reads with fan-out).
    pub units_per_s: ReadWrite,
    /// Mean capacity units per second over a day (no peak factor), for cost.
    pub mean_units_per_s: ReadWrite,
    /// Monthly cost (730 h) of the table's capacity units in `currency`,
    /// and of its stored bytes when `[pricing]` sets `storage_gb_month`;
    /// `null` without `[pricing]`.
    pub monthly_cost: Option<f64>,
    /// The stored bytes' part of `monthly_cost` (the horizon's expected
    /// bytes, with the store's billed bytes per item, × `storage_gb_month`
    /// ÷ 10⁹); absent without `storage_gb_month`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_storage_cost: Option<f64>,
    /// Per access pattern on the table (`patterns.csv`): `{pattern,
    /// operation, side, requests_per_s, fan_out, units_per_request,
    /// units_per_s, units_share, mean_requests_per_s, mean_units_per_s,
    /// monthly_cost, cost_share}`; busy-period figures on `day`, daily-mean
    /// figures and cost at day 0.
    pub patterns: &'a [PatternLoad],
    /// Per-partition read limit, read units per second; `null`: none.
    pub partition_read_limit_per_s: Option<f64>,
    /// Per-partition write limit, write units per second; `null`: none.
    pub partition_write_limit_per_s: Option<f64>,
    /// Per-partition limit on read + write units per second; `null`: none.
    pub partition_combined_limit_per_s: Option<f64>,
    /// Item-collection ceiling, bytes; `null`: the store has none here.
    pub partition_size_limit_bytes: Option<f64>,
    /// Item ceiling, bytes; `null`: none.
    pub item_size_limit_bytes: Option<f64>,
    /// Keys placed one by one vs as per-partition mass, with the error bound
    /// (`{keys_placed, keys_as_mass, tail_share, tail_cdf_error_bound,
    /// tail_peak_error_bound}`).
    pub placement: Placement,
    /// The busy period at each checkpoint day.
    pub checkpoints: Vec<CheckpointSummary<'a>>,
    /// The cluster's node load where the store has nodes (the same object
    /// in every table); `null` otherwise.
    pub nodes: Option<NodeSummary<'a>>,
    /// The global indexes whose writes this table's writes wait on
    /// (DynamoDB back-pressure); empty without global indexes.
    pub back_pressure: Vec<IndexPressureSummary<'a>>,
    /// Share of the table's units throttled because a global index's writes
    /// throttled, per trial; `null` without global indexes.
    pub index_throttled_fraction: Option<MeanCi>,
    /// Expected bytes the table stores at day 0.
    pub stored_bytes: f64,
    /// Partitions the store lays the table out on at the horizon.
    pub partitions_at_horizon: usize,
    /// Whether `partitions_at_horizon` is the model's simulation cap.
    pub partitions_capped_at_horizon: bool,
    /// Expected bytes the table stores at the horizon.
    pub stored_bytes_at_horizon: f64,
    /// The table-level limit that steps over simulated time, where the
    /// store sets one (Firestore's 500/50/5 ramp); `null` otherwise.
    pub table_limit: Option<TableLimitSummary<'a>>,
}

/// A mean over trials and its 95% confidence interval.
#[derive(Debug, Serialize)]
pub struct MeanCi {
    /// Mean over trials.
    pub mean: f64,
    /// 95% confidence interval of the mean, `[low, high]`.
    pub ci95: [f64; 2],
}

/// A mean and 95th percentile over trials.
#[derive(Debug, Serialize)]
pub struct MeanP95 {
    /// Mean over trials.
    pub mean: f64,
    /// 95th percentile over trials.
    pub p95: f64,
}

/// Read and write capacity units per second.
#[derive(Debug, Serialize)]
pub struct ReadWrite {
    /// Read units per second.
    pub read: f64,
    /// Write units per second.
    pub write: f64,
}

/// When a ceiling is first crossed, over trials.
#[derive(Debug, Serialize)]
pub struct BreachSummary {
    /// Mean day of the first breach over the trials that breach; `null`
    /// when none does.
    pub mean_day: Option<f64>,
    /// 95% confidence interval of that mean, days; `null` when none breaches.
    pub ci95: Option<[f64; 2]>,
    /// Probability of a breach within the horizon (`mean`, and `ci95` the
    /// Wilson score interval).
    pub probability: Proportion,
}

/// The busy period simulated at one checkpoint day.
#[derive(Debug, Serialize)]
pub struct CheckpointSummary<'a> {
    /// Day of the horizon.
    pub day: f64,
    /// Traffic multiplier at that day.
    pub traffic_factor: f64,
    /// Peak utilization that day, per trial.
    pub peak_utilization: Stat,
    /// Throttled fraction that day, per trial.
    pub throttled_fraction: MeanCi,
    /// Partitions the table is laid out on for the data it stores that day.
    pub partitions: usize,
    /// Expected bytes the table stores that day.
    pub stored_bytes: f64,
    /// The table-level limit that day, as the table's `table_limit`, when
    /// the store sets one and the run has more than one checkpoint (the
    /// table's own `table_limit` is the judged day's; the `table_throughput`
    /// verdict judges the busiest traffic's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_limit: Option<TableLimitSummary<'a>>,
}

/// The cluster's node load: every table's load on the shared nodes.
#[derive(Debug, Serialize)]
pub struct NodeSummary<'a> {
    /// What a node is called in this store (`"node"`, `"master"`, `"shard"`).
    pub label: &'a str,
    /// Number of nodes.
    pub count: usize,
    /// Per-node limits, units per second: `[read, write, combined]`, `null`
    /// where the store has none.
    pub limits_per_s: [Option<f64>; 3],
    /// Peak over windows and nodes of node utilization, per trial.
    pub peak_utilization: Stat,
    /// Share of the units on the busiest node, per trial.
    pub hottest_node_share: MeanCi,
    /// Day of the horizon whose busy period the node load figures
    /// describe: the checkpoint of the nodes' own worst peak, which the
    /// `hot_node` verdict judges (0 without growth; it need not be the
    /// table's `day`: tablets and chunks multiply with the data, nodes do
    /// not).
    pub day: f64,
    /// Traffic multiplier of that day.
    pub traffic_factor: f64,
    /// The tables (and global indexes) whose load is summed on the nodes.
    pub tables: &'a [String],
    /// Per-node load by rank, 1 = each trial's busiest (`{rank,
    /// read_units_per_s, write_units_per_s, mean_utilization,
    /// peak_utilization, peak_utilization_p95}`, means over trials).
    pub ranks: &'a [PartitionRank],
    /// Bytes held per node when the store keeps its data in memory (Redis
    /// Cluster); `null` otherwise.
    pub memory: Option<MemorySummary<'a>>,
    /// Bytes stored per node (Cassandra/ScyllaDB: every replica counted;
    /// a MongoDB shard, a Redis master, a Bigtable node: one copy), when the scenario sets
    /// `node_storage` (Cassandra/ScyllaDB, MongoDB shards, Bigtable nodes);
    /// absent otherwise. The same fields as `memory`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage: Option<MemorySummary<'a>>,
}

/// Bytes held per node, every table summed.
#[derive(Debug, Serialize)]
pub struct MemorySummary<'a> {
    /// Bytes the store adds per key (counted in).
    pub key_overhead_bytes: f64,
    /// Bytes one node holds at most (`node_memory` / `node_storage`); `null` when not set.
    pub limit_bytes: Option<f64>,
    /// The fullest node's bytes at the horizon, per trial.
    pub peak_bytes: Stat,
    /// The fullest node's bytes at day 0, per trial.
    pub peak_bytes_day0: Stat,
    /// The fullest node's mean growth, bytes per day, per trial.
    pub peak_growth_bytes_per_day: Stat,
    /// All nodes' bytes at the horizon, per trial.
    pub total_bytes: Stat,
    /// Mean over trials of each node's bytes at the horizon, by rank (1 =
    /// each trial's fullest).
    pub ranks_bytes: &'a [f64],
    /// Mean day the fullest node first holds `limit_bytes`; `null` when none.
    pub days_to_fill: Option<f64>,
    /// That fill with its probability and CIs.
    pub fill: BreachSummary,
}

/// A global index's write pressure on its base table.
#[derive(Debug, Serialize)]
pub struct IndexPressureSummary<'a> {
    /// The index, `"table.index"`.
    pub index: &'a str,
    /// Peak of the index's write units ÷ its per-partition write limit, per trial.
    pub write_peak_utilization: Stat,
    /// Share of the index's write units throttled, per trial.
    pub throttled_write_fraction: MeanCi,
    /// Share of the table's busy-period write units that write this index.
    pub base_write_share: f64,
}

/// A table-level limit that steps over simulated time, and the busy period
/// against it.
#[derive(Debug, Serialize)]
pub struct TableLimitSummary<'a> {
    /// What the limit is (`"500/50/5 ramp"`).
    pub label: &'a str,
    /// The steps that can bind: `[start second, units per second]`.
    pub steps_per_s: &'a [(f64, f64)],
    /// The constant read and write caps (DynamoDB's provisioned or on-demand
    /// capacity), each judged on its side: `{limit_per_s, peak_utilization,
    /// throttled_fraction}`; absent without caps.
    #[serde(skip_serializing_if = "Caps::is_empty")]
    pub caps: Caps<'a>,
    /// Units over the table limit ÷ units requested, per trial.
    pub throttled_fraction: MeanCi,
    /// Highest window's table units ÷ the limit then in force, per trial.
    pub peak_utilization: Stat,
    /// Minute of the busy period from which no window is over the limit,
    /// per trial.
    pub clear_minute: Stat,
    /// Share of trials still over the limit in the busy period's last stretch.
    pub still_throttling: Proportion,
}

impl<'a> From<&'a RunResults> for Summary<'a> {
    fn from(r: &'a RunResults) -> Self {
        Summary {
            scenario: &r.scenario,
            seed: r.seed,
            trials: r.trials,
            keyheat_version: &r.keyheat_version,
            method: &r.method,
            simulation: Simulation {
                window_s: r.window_s,
                duration_s: r.duration_s,
                horizon_days: r.horizon_days,
                headroom: r.headroom,
            },
            currency: r.currency.as_deref(),
            store: &r.store,
            tables: r.tables.iter().map(TableSummary::from).collect(),
            verdicts: &r.verdicts,
            checklist: &r.checklist,
            warnings: &r.warnings,
            copies: &r.fanout.copies,
            caches: &r.fanout.caches,
            sweep: (!r.variants.is_empty()).then(|| Sweep {
                variants: r.variants.iter().map(VariantSummary::from).collect(),
                recommendation: r.recommendation.as_ref(),
            }),
            replay: r.replay.as_ref(),
        }
    }
}

impl<'a> From<&'a VariantResults> for VariantSummary<'a> {
    fn from(v: &'a VariantResults) -> Self {
        VariantSummary {
            name: &v.name,
            set: &v.set,
            tables: v.tables.iter().map(TableSummary::from).collect(),
            verdicts: &v.verdicts,
            copies: &v.fanout.copies,
            caches: &v.fanout.caches,
        }
    }
}

impl<'a> From<&'a TableResults> for TableSummary<'a> {
    fn from(t: &'a TableResults) -> Self {
        let last = t.growth.last();
        TableSummary {
            name: &t.name,
            day: t.day,
            traffic_factor: t.traffic_factor,
            first_split_day: t.first_split_day,
            partitions: t.partitions,
            peak_utilization: t.peak_utilization,
            throttled_fraction: t.throttled_fraction.into(),
            throttled_read_fraction: t.throttled_sides.map(|[r, _]| r.into()),
            throttled_write_fraction: t.throttled_sides.map(|[_, w]| w.into()),
            hottest_partition_share: t.hottest_partition_share.into(),
            max_item_collection_bytes: t.max_item_collection_bytes.into(),
            max_item_bytes: t.max_item_bytes.into(),
            days_to_size_breach: t.size_breach.mean_day,
            days_to_item_size_breach: t.item_size_breach.mean_day,
            size_breach: (&t.size_breach).into(),
            item_size_breach: (&t.item_size_breach).into(),
            widest_safe_bucket_days: t.widest_safe_bucket_days,
            widest_safe_item_bucket_days: t.widest_safe_item_bucket_days,
            fewest_safe_shards: t.fewest_safe_shards,
            partition_rows_limit: t.partition_rows_limit,
            max_partition_rows: t.max_partition_rows.into(),
            days_to_rows_breach: t.rows_breach.mean_day,
            fan_out: t.fan_out,
            requests_per_s: t.requests_per_s,
            units_per_s: ReadWrite {
                read: t.read_units_per_s,
                write: t.write_units_per_s,
            },
            mean_units_per_s: ReadWrite {
                read: t.mean_read_units_per_s,
                write: t.mean_write_units_per_s,
            },
            monthly_cost: t.monthly_cost,
            monthly_storage_cost: t.monthly_storage_cost,
            patterns: &t.patterns,
            partition_read_limit_per_s: t.partition_read_limit_per_s,
            partition_write_limit_per_s: t.partition_write_limit_per_s,
            partition_combined_limit_per_s: t.partition_combined_limit_per_s,
            partition_size_limit_bytes: t.partition_size_limit_bytes,
            item_size_limit_bytes: t.item_size_limit_bytes,
            placement: t.placement,
            checkpoints: t
                .checkpoints
                .iter()
                .map(|c| CheckpointSummary::of(c, t.checkpoints.len() > 1))
                .collect(),
            nodes: t.nodes.as_ref().map(NodeSummary::from),
            back_pressure: t
                .back_pressure
                .iter()
                .map(IndexPressureSummary::from)
                .collect(),
            index_throttled_fraction: t.index_throttled_fraction.map(MeanCi::from),
            stored_bytes: t.stored_bytes,
            partitions_at_horizon: last.map_or(t.partitions, |g| g.partitions),
            partitions_capped_at_horizon: last.is_some_and(|g| g.partitions_capped),
            stored_bytes_at_horizon: last.map_or(t.stored_bytes, |g| g.table_bytes),
            table_limit: t.table_limit.as_ref().map(TableLimitSummary::from),
        }
    }
}

impl From<Stat> for MeanCi {
    fn from(s: Stat) -> Self {
        MeanCi {
            mean: s.mean,
            ci95: s.ci95,
        }
    }
}

impl From<Stat> for MeanP95 {
    fn from(s: Stat) -> Self {
        MeanP95 {
            mean: s.mean,
            p95: s.p95,
        }
    }
}

impl From<&Breach> for BreachSummary {
    fn from(b: &Breach) -> Self {
        BreachSummary {
            mean_day: b.mean_day,
            ci95: b.ci95,
            probability: b.probability,
        }
    }
}

impl<'a> CheckpointSummary<'a> {
    /// Checkpoint `c`, with its table limit when `with_limit` (a run of
    /// several checkpoints).
    fn of(c: &'a Checkpoint, with_limit: bool) -> Self {
        CheckpointSummary {
            day: c.day,
            traffic_factor: c.traffic_factor,
            peak_utilization: c.peak_utilization,
            throttled_fraction: c.throttled_fraction.into(),
            partitions: c.partitions,
            stored_bytes: c.stored_bytes,
            table_limit: c
                .table_limit
                .as_ref()
                .filter(|_| with_limit)
                .map(TableLimitSummary::from),
        }
    }
}

impl<'a> From<&'a NodeResults> for NodeSummary<'a> {
    fn from(n: &'a NodeResults) -> Self {
        NodeSummary {
            label: &n.label,
            count: n.count,
            limits_per_s: n.limits_per_s,
            peak_utilization: n.peak_utilization,
            hottest_node_share: n.hottest_node_share.into(),
            day: n.day,
            traffic_factor: n.traffic_factor,
            tables: &n.tables,
            ranks: &n.ranks,
            memory: n
                .memory
                .as_ref()
                .filter(|m| m.check != "node_storage")
                .map(MemorySummary::from),
            storage: n
                .memory
                .as_ref()
                .filter(|m| m.check == "node_storage")
                .map(MemorySummary::from),
        }
    }
}

impl<'a> From<&'a NodeMemory> for MemorySummary<'a> {
    fn from(m: &'a NodeMemory) -> Self {
        MemorySummary {
            key_overhead_bytes: m.key_overhead_bytes,
            limit_bytes: m.limit_bytes,
            peak_bytes: m.peak_bytes,
            peak_bytes_day0: m.peak_bytes_day0,
            peak_growth_bytes_per_day: m.peak_growth_bytes_per_day,
            total_bytes: m.total_bytes,
            ranks_bytes: &m.ranks_bytes,
            days_to_fill: m.fill.mean_day,
            fill: (&m.fill).into(),
        }
    }
}

impl<'a> From<&'a IndexPressure> for IndexPressureSummary<'a> {
    fn from(b: &'a IndexPressure) -> Self {
        IndexPressureSummary {
            index: &b.index,
            write_peak_utilization: b.write_peak_utilization,
            throttled_write_fraction: b.throttled_write_fraction.into(),
            base_write_share: b.base_write_share,
        }
    }
}

/// A table's constant caps by side.
#[derive(Debug, Serialize)]
pub struct Caps<'a> {
    /// Reads against the table's read cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<&'a TableCap>,
    /// Writes against the table's write cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<&'a TableCap>,
}

impl Caps<'_> {
    /// Whether neither side has a cap.
    fn is_empty(&self) -> bool {
        self.read.is_none() && self.write.is_none()
    }
}

impl<'a> From<&'a TableLimitResults> for TableLimitSummary<'a> {
    fn from(l: &'a TableLimitResults) -> Self {
        TableLimitSummary {
            label: &l.label,
            steps_per_s: &l.steps_per_s,
            caps: Caps {
                read: l.caps[0].as_ref(),
                write: l.caps[1].as_ref(),
            },
            throttled_fraction: l.throttled_fraction.into(),
            peak_utilization: l.peak_utilization,
            clear_minute: l.clear_minute,
            still_throttling: l.still_throttling,
        }
    }
}

/// Renders `summary.json` (pretty-printed, trailing newline).
///
/// # Errors
/// Only if serialisation fails (it does not: every key is a string).
pub fn summary_json(r: &RunResults) -> Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(&Summary::from(r))
        .map_err(|e| Error::write("summary.json", e))?;
    bytes.push(b'\n');
    Ok(bytes)
}
