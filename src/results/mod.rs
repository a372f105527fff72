//! What a run produced, reduced over trials: the only thing exporters, charts
//! and the report read. Statistics are plain functions in [`stats`].

pub mod fanout;
pub mod stats;

use serde::Serialize;

pub use crate::store::Figure;
pub use fanout::{CacheFigures, CopyFigures, Fanout, PropagationTime};
pub use stats::{Proportion, Stat};

/// Everything one scenario run produced (base design and its variants).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunResults {
    /// Scenario name.
    pub scenario: String,
    /// Scenario description.
    pub description: String,
    /// Base seed.
    pub seed: u64,
    /// Trials simulated.
    pub trials: u32,
    /// The crate version that produced the results.
    pub keyheat_version: String,
    /// How request counts were drawn (`aggregated`, `exact`, `windows`).
    pub method: String,
    /// Window length, seconds.
    pub window_s: f64,
    /// Simulated busy period, seconds.
    pub duration_s: f64,
    /// Growth horizon, days.
    pub horizon_days: f64,
    /// Headroom the checks judge against.
    pub headroom: f64,
    /// Currency of every `monthly_cost`, when the scenario has `[pricing]`.
    pub currency: Option<String>,
    /// Store kind and the figures and assumptions in force.
    pub store: StoreSummary,
    /// Per table (and index) results of the base design.
    pub tables: Vec<TableResults>,
    /// Verdicts of the base design.
    pub verdicts: Vec<Verdict>,
    /// Alternatives, when the scenario lists variants or a sweep.
    pub variants: Vec<VariantResults>,
    /// The smallest change that passes every check, when variants exist
    /// (`variant = "base"` when the base design passes, `"none"` when no
    /// alternative does).
    pub recommendation: Option<Recommendation>,
    /// The design-review checklist of the base design: static checks of the
    /// access-pattern table and key templates (the verdicts stage's checklist).
    pub checklist: Vec<ChecklistItem>,
    /// The scenario's validation warnings (a `peak_factor` below 1, a
    /// `query` without a sort key), then any a variant adds.
    pub warnings: Vec<crate::scenario::Warning>,
    /// The base design's copies and caches (`engine::fanout`).
    pub fanout: Fanout,
    /// The scenario file as written (echoed in the report).
    #[serde(skip)]
    pub source_text: String,
    /// What a replay read and observed (`keyheat replay`); `None` for a simulation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayInfo>,
    /// Flags beyond `--seed` and `--trials` that running the scenario again
    /// needs (`--method exact`, `--max-work 96`): the report's "To
    /// reproduce" line gives them (a run over the default work budget is
    /// refused without its `--max-work`). Empty by default.
    #[serde(skip)]
    pub rerun_flags: Vec<String>,
}

/// What `keyheat replay` read: the logs, what was left out and why, how keys
/// were counted and placed, and (with `--predict`) the observed figures
/// beside the prediction from the fitted popularity.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct ReplayInfo {
    /// Every log file as read.
    pub inputs: Vec<crate::logs::Input>,
    /// Records read.
    pub records: u64,
    /// Requests they hold (an aggregated row holds its count).
    pub requests: u64,
    /// Records that are not key operations (skipped).
    pub skipped: u64,
    /// Records that could not be read (left out).
    pub bad_records: u64,
    /// The first of them: `file:line:column: field: message (fix: …)`.
    pub bad: Vec<String>,
    /// Requests left out because they came more than the lateness allowance
    /// after later requests of their file.
    pub late_requests: u64,
    /// `file:line` of the first of them.
    pub first_late: Option<String>,
    /// Requests whose operation no access pattern takes.
    pub unrouted_requests: u64,
    /// The first and last request's time, seconds since the Unix epoch (or the log's clock).
    pub time_range_s: [f64; 2],
    /// Windows replayed (the busy period is all of them).
    pub windows: u64,
    /// Which log field each entity of the key templates was read from.
    pub mapping: Vec<String>,
    /// Per access pattern: the requests it took and their mean rate.
    pub patterns: Vec<PatternObserved>,
    /// How the distinct keys were counted.
    pub keys: KeysObserved,
    /// How keys were placed: the store's published hash (one placement), or
    /// per-trial salts for a store whose hash is internal (then every figure
    /// over trials is a distribution over placements).
    pub placement: String,
    /// With `--predict`: per table, the observed figures beside the
    /// prediction from the fitted popularity.
    pub predict: Vec<Prediction>,
}

/// One access pattern's observed requests.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PatternObserved {
    /// Pattern name.
    pub name: String,
    /// Its operation.
    pub operation: String,
    /// Requests routed to it.
    pub requests: u64,
    /// Their mean rate over the replayed windows, per second.
    pub rate_per_s: f64,
}

/// How the replay counted distinct keys (the record's key fields).
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct KeysObserved {
    /// Distinct keys (exact, or a HyperLogLog estimate past the cap).
    pub distinct: f64,
    /// Whether every count is exact.
    pub exact: bool,
    /// Keys the exact table holds.
    pub cap: usize,
    /// The sentence saying so.
    pub statement: String,
}

/// `--predict`: one table's observed figures beside `run`'s prediction from
/// the popularity fitted to the log.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Prediction {
    /// Table (or `table.index`).
    pub table: String,
    /// The popularity the prediction used, as written in a scenario.
    pub popularity: String,
    /// Observed share of the table's units on its hottest partition (over placements).
    pub observed_hottest_share: Stat,
    /// Predicted share, over the prediction's trials.
    pub predicted_hottest_share: Stat,
    /// Where the observed share (its median over placements) falls among
    /// the predicted trials: the fraction of trials at or below it.
    pub quantile: f64,
    /// Observed peak utilization (over placements).
    pub observed_peak_utilization: Stat,
    /// Predicted peak utilization.
    pub predicted_peak_utilization: Stat,
}

/// The store model in force.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct StoreSummary {
    /// Scenario spelling of the kind (`"dynamodb"`).
    pub kind: String,
    /// Capacity unit names for reads and writes (`"RCU"`, `"WCU"`; `"ops"`).
    pub read_unit: String,
    /// Write capacity unit name.
    pub write_unit: String,
    /// Every figure the model uses, documented or assumed.
    pub figures: Vec<Figure>,
}

/// Results for one table or index, reduced over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TableResults {
    /// Table name, or `"table.index"` for an index.
    pub name: String,
    /// Day of the horizon whose busy period the busy-period figures
    /// (partitions, limits, peak utilization, throttled fraction, partition
    /// ranks, node load, hot keys, timeseries, table limit, stored bytes)
    /// describe: the checkpoint the `hot_partition` verdict judges
    /// ([`judged_checkpoint`]); 0 without growth.
    pub day: f64,
    /// Traffic multiplier of that day (e^{growth·day}).
    pub traffic_factor: f64,
    /// The day the stored data first lays the table out on more partitions
    /// than on day 0 (the root of the growth curve), if it does within the
    /// horizon.
    pub first_split_day: Option<f64>,
    /// Expected bytes the table stores on that day (each checkpoint's own
    /// day in [`Checkpoint::stored_bytes`]).
    pub stored_bytes: f64,
    /// Bytes one stored item takes in `stored_bytes`: its mean size and
    /// what the store keeps with it in its item collection (Cassandra's
    /// cell metadata, DynamoDB's local index entries): the stored bytes
    /// over it are the items, which a per-item billing overhead counts.
    pub stored_item_bytes: f64,
    /// Whether the data stored by the horizon lays the table out on
    /// partitions with a lower per-partition limit (then the horizon is a
    /// checkpoint).
    pub dilutes_by_horizon: bool,
    /// Partitions the store model gives this table.
    pub partitions: usize,
    /// Per-partition read limit, read units per second (`None`: no separate read limit).
    pub partition_read_limit_per_s: Option<f64>,
    /// Per-partition write limit, write units per second.
    pub partition_write_limit_per_s: Option<f64>,
    /// Per-partition limit on read + write units per second (Cosmos DB RU, Redis ops).
    pub partition_combined_limit_per_s: Option<f64>,
    /// Peak over windows and partitions of consumed units ÷ limit, per trial.
    pub peak_utilization: Stat,
    /// Throttled units ÷ requested units over the busy period, per trial.
    pub throttled_fraction: Stat,
    /// The same share of each side, \[reads, writes\] (throttled read units ÷
    /// requested read units; writes alike), per trial, where the partitions
    /// limit reads and writes separately (DynamoDB's RCU and WCU): a cache
    /// that takes reads away leaves the writes' share as it was, where the
    /// share of all units rises. `None` under one combined limit.
    pub throttled_sides: Option<[Stat; 2]>,
    /// Expected share of the table's requested units on its hottest partition, per trial.
    pub hottest_partition_share: Stat,
    /// Largest item collection (bytes under one partition key value) reached within the horizon.
    pub max_item_collection_bytes: Stat,
    /// Largest item (bytes) reached within the horizon.
    pub max_item_bytes: Stat,
    /// Item-collection ceiling in force, bytes (`None`: the store has none here).
    pub partition_size_limit_bytes: Option<f64>,
    /// Item ceiling, bytes.
    pub item_size_limit_bytes: Option<f64>,
    /// When an item collection first crosses its ceiling.
    pub size_breach: Breach,
    /// When an item first crosses the item ceiling.
    pub item_size_breach: Breach,
    /// Rows one item collection may hold before the store warns (ScyllaDB), if any.
    pub partition_rows_limit: Option<f64>,
    /// Most rows an item collection reaches within the horizon.
    pub max_partition_rows: Stat,
    /// When an item collection first holds more rows than the limit.
    pub rows_breach: Breach,
    /// Widest time bucket (days) that keeps the busiest item collection
    /// within every size and row check at the p95 over trials: its stored
    /// bytes (per-item overhead included) under headroom × its ceiling and
    /// its rows under headroom × the row warning (0: no bucket helps; `None`:
    /// nothing grows or no ceiling).
    pub widest_safe_bucket_days: Option<f64>,
    /// The check a wider bucket would fail first (`"size"`, `"rows"`).
    pub widest_safe_bucket_limited_by: Option<String>,
    /// The fewest write shards (in all) that keep the busiest item collection
    /// within every size and row check at the table's own bucket, when more
    /// are needed.
    pub fewest_safe_shards: Option<u32>,
    /// The same for the busiest item (appended arrays).
    pub widest_safe_item_bucket_days: Option<f64>,
    /// P(first breach of the item-collection ceiling by day d) over trials,
    /// as (day, probability, 95% Wilson interval) on the growth grid.
    pub size_breach_curve: Vec<(f64, f64, [f64; 2])>,
    /// The same for the item ceiling.
    pub item_size_breach_curve: Vec<(f64, f64, [f64; 2])>,
    /// The same for the row-count warning (ScyllaDB, Cassandra).
    pub rows_breach_curve: Vec<(f64, f64, [f64; 2])>,
    /// Queries a whole-key read issues (shards × buckets read).
    pub fan_out: u32,
    /// Mean requests per second in the busy period (all patterns on this table).
    pub requests_per_s: f64,
    /// Mean read capacity units consumed per second in the busy period (with fan-out).
    pub read_units_per_s: f64,
    /// Mean write capacity units consumed per second in the busy period.
    pub write_units_per_s: f64,
    /// Mean read units per second over a day (mean rates, no peak factor), for cost.
    pub mean_read_units_per_s: f64,
    /// Mean write units per second over a day (mean rates), for cost.
    pub mean_write_units_per_s: f64,
    /// Monthly cost (730 h) of this table's capacity units in
    /// [`RunResults::currency`], from the scenario's `[pricing]` (see
    /// [`crate::scenario::Pricing::monthly_cost`]); `None` without pricing.
    pub monthly_cost: Option<f64>,
    /// The part of [`TableResults::monthly_cost`] that prices its stored
    /// bytes at the horizon (`storage_gb_month`); `None` without that
    /// price.
    pub monthly_storage_cost: Option<f64>,
    /// Per access pattern on this table (for an index: the patterns that
    /// read it and the index writes of the table's writes), in scenario
    /// order: its requests, units and share of the table's units and cost.
    pub patterns: Vec<PatternLoad>,
    /// Per-partition load by rank (1 = the trial's hottest), averaged over
    /// trials; empty for a variant, whose rank table is not reported.
    pub partition_ranks: Vec<PartitionRank>,
    /// Node-level load, when the store's throughput limit is per node.
    pub nodes: Option<NodeResults>,
    /// The busy period simulated at each checkpoint day (traffic grown to that day).
    pub checkpoints: Vec<Checkpoint>,
    /// How keys were placed: one by one, or the cold tail as per-partition mass.
    pub placement: Placement,
    /// Hottest keys of the representative trial (trial 0).
    pub hot_keys: Vec<KeyLoad>,
    /// Utilization per partition over time, representative trial.
    pub timeseries: Timeseries,
    /// Largest item collection and item over the horizon, by day.
    pub growth: Vec<GrowthPoint>,
    /// The global secondary indexes whose writes this table's writes wait on
    /// (DynamoDB back-pressure), in scenario order; empty for an index or a
    /// table without global indexes.
    pub back_pressure: Vec<IndexPressure>,
    /// Share of this table's requested units throttled because a global
    /// index's writes throttled, per trial (already included in
    /// `throttled_fraction`); `None` without global indexes.
    pub index_throttled_fraction: Option<Stat>,
    /// The table-level limit that changes over simulated time (Firestore's
    /// 500/50/5 ramp), when the store sets one.
    pub table_limit: Option<TableLimitResults>,
    /// Per-key and table-level write figures of the busiest traffic (the
    /// checkpoint with the highest traffic factor), for the `hot_key`,
    /// `table_throughput` and `monotonic_index` checks.
    pub key_checks: KeyChecks,
}

impl TableResults {
    /// Day 0's (partitions, stored bytes): the growth grid's first point
    /// (day 0, whatever the first checkpoint's day), else the first
    /// checkpoint's, else the table's own.
    pub fn day0_layout(&self) -> (usize, f64) {
        match self.growth.first().filter(|g| g.day == 0.0) {
            Some(g) => (g.partitions, g.table_bytes),
            None => self
                .checkpoints
                .first()
                .map_or((self.partitions, self.stored_bytes), |c| {
                    (c.partitions, c.stored_bytes)
                }),
        }
    }

    /// The busiest read by the partition key (a `get` or a `query`, not an
    /// index's): its pattern and busy-period requests per second — what
    /// write shards multiply (a query reads every shard of each bucket it
    /// reads; a get too, unless its shard is calculated from the item).
    pub fn busiest_key_read(&self) -> Option<&PatternLoad> {
        self.patterns
            .iter()
            .filter(|p| p.side == "read" && (p.operation == "get" || p.operation == "query"))
            .max_by(|a, b| a.requests_per_s.total_cmp(&b.requests_per_s))
    }

    /// The p95 over trials of the peak utilization of the table's busiest
    /// server: its partitions', or, where the store limits nodes (MongoDB
    /// shards, Cassandra nodes, Redis Cluster masters, Bigtable nodes), the
    /// busiest node's when higher — a node carries every partition (chunk,
    /// token range, slot, tablet) on it, and the other tables' load, against
    /// the same per-node limit, so a partition alone understates it (a
    /// MongoDB chunk at 0.0006 of its shard's 10,000 ops/s beside a busiest
    /// shard at 0.0233). What the designs are compared by: the terminal
    /// table, the report's variants table and chart, the recommendation and
    /// `--max-utilization`.
    pub fn busiest_server_p95(&self) -> f64 {
        let partitions = self.peak_utilization.p95;
        self.nodes
            .as_ref()
            .map_or(partitions, |n| partitions.max(n.peak_utilization.p95))
    }

    /// What the load chart ranks: the partitions where the store limits
    /// them, else the nodes where it limits those (Cassandra, ScyllaDB,
    /// Redis Cluster: a partition has no limit of its own, so its
    /// utilization is 0 and a chart of partitions is blank) — as (what a
    /// row is, how many there are, their ranks).
    pub fn load_servers(&self) -> (&str, usize, &[PartitionRank]) {
        match &self.nodes {
            Some(n)
                if !self.has_partition_limit() && n.limits_per_s.iter().any(Option::is_some) =>
            {
                (n.label.as_str(), n.count, &n.ranks)
            }
            _ => ("partition", self.partitions, &self.partition_ranks),
        }
    }

    /// Whether the servers [`TableResults::load_servers`] ranks have a
    /// throughput limit of their own: without one (Firestore), their
    /// utilization is 0 by construction and their load is told in units/s.
    pub fn load_servers_limited(&self) -> bool {
        self.has_partition_limit()
            || self
                .nodes
                .as_ref()
                .is_some_and(|n| n.limits_per_s.iter().any(Option::is_some))
    }

    /// Whether the store limits each partition's throughput (reads,
    /// writes or both).
    pub fn has_partition_limit(&self) -> bool {
        self.partition_read_limit_per_s.is_some()
            || self.partition_write_limit_per_s.is_some()
            || self.partition_combined_limit_per_s.is_some()
    }

    /// Whether the simulated check `check` judges anything on this table:
    /// `hot_partition` with no per-partition limit (Firestore, stores
    /// limited per node), `partition_size` or `item_size` with no such
    /// ceiling, pass with nothing to judge (their detail says so), and the
    /// report counts them apart from the passes.
    pub fn check_applies(&self, check: &str) -> bool {
        match check {
            "hot_partition" => self.has_partition_limit(),
            "partition_size" => self.partition_size_limit_bytes.is_some(),
            "item_size" => self.item_size_limit_bytes.is_some(),
            _ => true,
        }
    }

    /// Whether any throughput limit applies to the table's servers or to
    /// the whole table: per partition, per node, or a table limit
    /// (provisioned capacity, Firestore's ramp). Without one, its peak
    /// utilization is 0 by definition and reads `—`, not `0`.
    pub fn has_throughput_limit(&self) -> bool {
        self.has_partition_limit()
            || self.table_limit.is_some()
            || self
                .nodes
                .as_ref()
                .is_some_and(|n| n.limits_per_s.iter().any(Option::is_some))
    }

    /// The table's ceiling breaches, each with what it is a breach of:
    /// the item collection's size, the item's, the item collection's rows
    /// (every place that asks for "the first breach" asks all three).
    pub fn breaches(&self) -> [(&'static str, &Breach); 3] {
        [
            ("item collection", &self.size_breach),
            ("item", &self.item_size_breach),
            ("rows", &self.rows_breach),
        ]
    }

    /// [`TableResults::breaches`] and, where the store has nodes with a
    /// byte limit (`node_storage`, Redis's `node_memory`), the day the
    /// fullest node first holds it: "the first breach" of the compare and
    /// variants tables (a new user's disks filled on day 245 beside a
    /// first breach of "—").
    pub fn breaches_with_nodes(&self) -> Vec<(&'static str, &Breach)> {
        let mut all = self.breaches().to_vec();
        if let Some(m) = self.nodes.as_ref().and_then(|n| n.memory.as_ref()) {
            if m.limit_bytes.is_some() {
                let what = if m.check == "node_storage" {
                    "node storage"
                } else {
                    "node memory"
                };
                all.push((what, &m.fill));
            }
        }
        all
    }

    /// The table-level limit on the checkpoint the key checks judge
    /// ([`KeyChecks::day`]; else the last of the highest traffic factor),
    /// what the `table_throughput` verdict judges; the table's own
    /// `table_limit` without checkpoints.
    pub fn busiest_table_limit(&self) -> Option<&TableLimitResults> {
        let judged = self
            .checkpoints
            .iter()
            .find(|c| c.day == self.key_checks.day);
        match judged.or_else(|| {
            self.checkpoints
                .iter()
                .max_by(|a, b| a.traffic_factor.total_cmp(&b.traffic_factor))
        }) {
            Some(c) => c.table_limit.as_ref(),
            None => self.table_limit.as_ref(),
        }
    }

    /// The checkpoint with the highest mean throttled share, when it is
    /// another day than the judged one (`day`) and throttles more (the
    /// first of equals): with growth, usually a later day whose traffic
    /// outruns a table limit. `None` when the judged day's figures are the
    /// worst.
    pub fn more_throttled_day(&self) -> Option<&Checkpoint> {
        let worst = self.checkpoints.iter().reduce(|a, b| {
            if b.throttled_fraction.mean > a.throttled_fraction.mean {
                b
            } else {
                a
            }
        })?;
        (worst.day != self.day && worst.throttled_fraction.mean > self.throttled_fraction.mean)
            .then_some(worst)
    }
}

/// One access pattern's requests, capacity units and cost on its table (or
/// index): the capacity-review spreadsheet's row. Busy-period figures are of
/// the checkpoint the table's figures describe ([`TableResults::day`]); the
/// daily-mean figures and the cost are day 0's mean rates, as the table's
/// `monthly_cost`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PatternLoad {
    /// The access pattern's name; on a global index, a base-table write
    /// appears as `"<name> (index write)"` (and `"<name> (index delete of the
    /// old entry)"` when it changes the index key).
    pub pattern: String,
    /// `get`, `query`, `put`, `update`, `delete`, `append`, or `index write`.
    pub operation: String,
    /// Which capacity it consumes: `read` or `write`.
    pub side: String,
    /// Requests per second in the busy period (rate × peak factor × the
    /// day's traffic factor).
    pub requests_per_s: f64,
    /// Sub-requests per request: the shards × buckets a read fans out to
    /// (a write goes to one: 1).
    pub fan_out: f64,
    /// Mean capacity units per request: fan-out × mean units per
    /// sub-request (the store's unit cost of the item sizes and items read).
    pub units_per_request: f64,
    /// Capacity units per second in the busy period: `requests_per_s` ×
    /// `units_per_request`.
    pub units_per_s: f64,
    /// `units_per_s` ÷ the table's busy-period units of the same side
    /// (reads or writes) summed over its patterns (0 when that side has none).
    pub units_share: f64,
    /// Mean requests per second over a day (the pattern's `rate`, grown to
    /// the first checkpoint's day: the rates the monthly cost prices, while
    /// the busy-period figures are the judged checkpoint's).
    pub mean_requests_per_s: f64,
    /// Mean capacity units per second over a day (`rate` × units per
    /// request): what on-demand pricing bills.
    pub mean_units_per_s: f64,
    /// The pattern's part of the table's monthly cost: its side's cost ×
    /// its share of that side's daily-mean units (provisioned capacity is
    /// attributed by the same share); `None` without `[pricing]`.
    pub monthly_cost: Option<f64>,
    /// `monthly_cost` ÷ the table's monthly cost (`None` without pricing or
    /// when the table costs nothing).
    pub cost_share: Option<f64>,
}

/// Figures of a table's per-key and table-level limits in the busy period of
/// the checkpoint where they come closest to them (the store's `key_limits`;
/// the busiest traffic where the limits stay): what the `hot_key`,
/// `table_throughput` and `monotonic_index` checks judge.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KeyChecks {
    /// The checkpoint day these figures are of.
    pub day: f64,
    /// That day's traffic factor (× e^{growth·day}).
    pub traffic_factor: f64,
    /// Writes per second the busiest partition-key value takes in the busy
    /// period (the rank-1 instance's share of each write pattern, over the
    /// other entities' combinations and the write shards).
    pub hottest_key_writes_per_s: f64,
    /// The same key's writes before write shards spread them (what the
    /// `hot_key` advice divides among shards).
    pub hottest_key_unsharded_writes_per_s: f64,
    /// Sustained writes per second one key takes (Firestore's ~1 per
    /// document), when the store limits it.
    pub key_write_limit_per_s: Option<f64>,
    /// Read and write units per second the busy period asks of the whole table.
    pub table_units_per_s: [f64; 2],
    /// Read and write units per second the whole table serves at once
    /// (DynamoDB's provisioned capacity or on-demand peak), when limited.
    pub table_limits_per_s: [Option<f64>; 2],
    /// Read + write units per second the whole table serves from one pool
    /// (Cosmos DB's RU/s of a container), when limited so.
    pub table_combined_limit_per_s: Option<f64>,
    /// Where the table limits come from.
    pub table_limit_note: String,
    /// Writes into a monotonically increasing key or indexed value, when the
    /// store limits them (Firestore's sequential index) and the table has one.
    pub monotonic: Option<MonotonicWrites>,
    /// The busiest key's core on each replica, where the store pins a key
    /// to one (ScyllaDB's shard-per-core).
    pub shard: Option<ShardOps>,
}

/// Replica operations per second on the core that owns the busiest
/// partition key on each of its replicas (ScyllaDB's shard-per-core).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ShardOps {
    /// The key's writes per second (each reaches every replica).
    pub key_writes_per_s: f64,
    /// The key's reads per second (each reaches `read_replicas` of
    /// `replicas`).
    pub key_reads_per_s: f64,
    /// The key's replica operations per second on one replica's core:
    /// writes + reads × read replicas ÷ replicas.
    pub key_ops_per_s: f64,
    /// The node's other keys' replica operations per second on that core
    /// (a node's mean, less the key's, ÷ cores).
    pub others_ops_per_s: f64,
    /// Replica operations per second one core serves.
    pub limit_per_s: f64,
    /// Replicas a read contacts.
    pub read_replicas: f64,
    /// Replicas of every key.
    pub replicas: f64,
}

impl ShardOps {
    /// The busiest key's core: its operations and the node's others'.
    pub fn core_ops_per_s(&self) -> f64 {
        self.key_ops_per_s + self.others_ops_per_s
    }
}

impl Default for KeyChecks {
    /// No limits, on day 0 at the scenario's own traffic.
    fn default() -> KeyChecks {
        KeyChecks {
            day: 0.0,
            traffic_factor: 1.0,
            hottest_key_writes_per_s: 0.0,
            hottest_key_unsharded_writes_per_s: 0.0,
            key_write_limit_per_s: None,
            table_units_per_s: [0.0; 2],
            table_limits_per_s: [None; 2],
            table_combined_limit_per_s: None,
            table_limit_note: String::new(),
            monotonic: None,
            shard: None,
        }
    }
}

impl KeyChecks {
    /// How close the busy period comes to the key and table limits: the
    /// largest ratio of what it asks to what a limit allows (0 without
    /// limits).
    pub fn pressure(&self) -> f64 {
        let ratio = |x: f64, l: Option<f64>| l.filter(|&l| l > 0.0).map_or(0.0, |l| x / l);
        let mut most = ratio(self.hottest_key_writes_per_s, self.key_write_limit_per_s);
        for side in 0..2 {
            most = most.max(ratio(
                self.table_units_per_s[side],
                self.table_limits_per_s[side],
            ));
        }
        most = most.max(ratio(
            self.table_units_per_s[0] + self.table_units_per_s[1],
            self.table_combined_limit_per_s,
        ));
        if let Some(m) = &self.monotonic {
            most = most.max(ratio(
                m.writes_per_s,
                Some(m.limit_per_s * f64::from(m.shards.max(1))),
            ));
        }
        if let Some(c) = &self.shard {
            most = most.max(ratio(c.core_ops_per_s(), Some(c.limit_per_s)));
        }
        most
    }
}

/// Writes into a monotonically increasing key against the store's limit.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MonotonicWrites {
    /// Writes per second in the busy period.
    pub writes_per_s: f64,
    /// The store's limit per shard, writes per second.
    pub limit_per_s: f64,
    /// Write shards of the table (the limit is lifted × shards).
    pub shards: u32,
    /// Where the limit holds per parent path (a Firestore subcollection
    /// under each parent document): the collection's path template
    /// (`rooms/{room}/messages`), and `writes_per_s` is the busiest one's;
    /// `None` when the whole table takes them.
    pub parent: Option<String>,
    /// For an index whose partition key names entities in front of the
    /// ordered value (a Firestore composite index on `roomId`, then the
    /// timestamp): that key's template (`{room}`). Each of its values'
    /// ranges takes its own writes, and `writes_per_s` is the busiest
    /// value's. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
}

/// A global secondary index's write pressure on its base table: when the
/// index's writes throttle, the table writes that feed it are throttled too
/// (DynamoDB Developer Guide, "Provisioned throughput considerations for
/// Global Secondary Indexes": a table write succeeds only when every index it
/// writes has the write capacity).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct IndexPressure {
    /// The index, `"table.index"`.
    pub index: String,
    /// Peak over windows and partitions of the index's write units ÷ its
    /// per-partition write limit, per trial (judged like `peak_utilization`).
    pub write_peak_utilization: Stat,
    /// Share of the index's write units throttled, per trial.
    pub throttled_write_fraction: Stat,
    /// Share of the table's busy-period write units made by patterns that
    /// write this index.
    pub base_write_share: f64,
}

/// A table-level limit on read + write units that changes over simulated
/// time, and what the busy period did against it, reduced over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TableLimitResults {
    /// What the limit is (`"500/50/5 ramp"`).
    pub label: String,
    /// The steps of a read + write limit that changes over time and can bind
    /// in the busy period: (start second, units per second); steps far above
    /// the table's traffic are left out. Empty without such a limit.
    pub steps_per_s: Vec<(f64, f64)>,
    /// The constant read and write limits of the whole table (DynamoDB's
    /// provisioned or on-demand capacity), each judged on its own side.
    pub caps: [Option<TableCap>; 2],
    /// Units over the table limit ÷ units requested, per trial.
    pub throttled_fraction: Stat,
    /// Highest window's table units ÷ the limit then in force, per trial.
    pub peak_utilization: Stat,
    /// Minute of the busy period from which no window goes over the table
    /// limit (the end of the last stationary stretch with a window over it;
    /// 0 when none is), per trial.
    pub clear_minute: Stat,
    /// Share of trials still over the limit in the busy period's last stretch.
    pub still_throttling: Proportion,
}

/// One side (reads or writes) of a table against its constant cap, reduced
/// over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TableCap {
    /// The cap, units per second.
    pub limit_per_s: f64,
    /// Highest window's units of this side ÷ the cap, per trial (0 when the
    /// cap cannot bind: far above the side's traffic, not simulated).
    pub peak_utilization: Stat,
    /// Units over the cap ÷ this side's requested units, per trial.
    pub throttled_fraction: Stat,
}

/// Load per node (Cassandra node, Redis master, MongoDB shard), reduced over
/// trials. Cluster-wide: the tables of one scenario share the store's nodes,
/// so a node's load is every table's load on it (every table with nodes
/// carries the same `NodeResults`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NodeResults {
    /// The tables (and global indexes) whose load is summed on the nodes.
    pub tables: Vec<String>,
    /// What a node is called in this store.
    pub label: String,
    /// Number of nodes.
    pub count: usize,
    /// Per-node limits, units per second (read, write, combined).
    pub limits_per_s: [Option<f64>; 3],
    /// Peak over windows and nodes of node utilization, per trial.
    pub peak_utilization: Stat,
    /// Share of the table's units (after replication) on the busiest node, per trial.
    pub hottest_node_share: Stat,
    /// Per-node load by rank (1 = each trial's busiest node).
    pub ranks: Vec<PartitionRank>,
    /// Day of the horizon whose busy period the load figures above
    /// describe: the checkpoint of the nodes' own worst peak
    /// ([`judged_peak`]; 0 without growth), which need not be the
    /// partitions' (tablets and chunks multiply with the data, nodes
    /// do not).
    pub day: f64,
    /// Traffic multiplier of that day.
    pub traffic_factor: f64,
    /// Bytes held per node over the horizon, when the store keeps its data
    /// in memory (Redis Cluster) or the scenario sets `node_storage`.
    pub memory: Option<NodeMemory>,
}

/// Bytes held per node (Redis: per master), every table summed, reduced over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NodeMemory {
    /// The check that judges these bytes: `node_memory` (Redis: data in
    /// memory) or `node_storage` (a node's disk), also the setting's name.
    pub check: String,
    /// How the bytes count the data's copies
    /// ([`crate::store::StoreModel::stored_copies`]): "every replica counted", …
    pub copies: String,
    /// Bytes the store adds per key (counted in).
    pub key_overhead_bytes: f64,
    /// Bytes one node holds at most (`node_memory`), if set.
    pub limit_bytes: Option<f64>,
    /// The busiest node's bytes at the end of the horizon, per trial.
    pub peak_bytes: Stat,
    /// The busiest node's bytes at day 0, per trial.
    pub peak_bytes_day0: Stat,
    /// The busiest node's mean growth over the horizon, bytes per day, per trial.
    pub peak_growth_bytes_per_day: Stat,
    /// All nodes' bytes at the end of the horizon, per trial.
    pub total_bytes: Stat,
    /// Mean over trials of each node's bytes at the end of the horizon, by
    /// rank (1 = each trial's fullest node).
    pub ranks_bytes: Vec<f64>,
    /// When the fullest node first holds `limit_bytes`.
    pub fill: Breach,
    /// (day, mean, p95) over trials of the fullest node's bytes, on the growth grid.
    pub by_day: Vec<(f64, f64, f64)>,
}

/// The checkpoint a table's busy-period figures and verdicts describe: the
/// earliest one whose peak utilization is statistically tied with the
/// worst checkpoint's (the worst by p95): their means' 95% CIs overlap, and
/// each p95 lies within the other's 95% CI. Noise does not move the day,
/// and the verdict, which judges the p95, is the worst day's within noise.
/// `None` without checkpoints.
///
/// ```
/// use keyheat::results::{judged_checkpoint, Checkpoint, Stat};
/// let at = |day: f64, mean: f64, p95: f64| Checkpoint {
///     day,
///     traffic_factor: 1.0,
///     peak_utilization: Stat { mean, p50: mean, p95, ci95: [mean - 0.01, mean + 0.01], p95_ci95: [p95 - 0.02, p95 + 0.02] },
///     throttled_fraction: Stat::from_samples(&[0.0]),
///     partitions: 1,
///     limits_per_s: [None, None, None],
///     stored_bytes: 0.0,
///     table_limit: None,
/// };
/// // Day 365 is clearly worse than day 0.
/// assert_eq!(judged_checkpoint(&[at(0.0, 1.0, 1.1), at(365.0, 2.0, 2.1)]), Some(1));
/// // Tied within noise: the earlier day is judged.
/// assert_eq!(judged_checkpoint(&[at(0.0, 2.0, 2.1), at(365.0, 2.005, 2.11)]), Some(0));
/// // Means tied but p95s apart (a bimodal peak: two hot keys sharing a
/// // partition in a few trials): the worse p95's day is judged.
/// let wide = |day: f64, mean: f64, p95: f64, p95_ci95: [f64; 2]| Checkpoint {
///     peak_utilization: Stat { mean, p50: mean, p95, ci95: [mean - 0.05, mean + 0.05], p95_ci95 },
///     ..at(day, mean, p95)
/// };
/// let bimodal = [wide(0.0, 0.574, 0.720, [0.711, 1.005]), wide(180.0, 0.606, 1.064, [0.598, 1.076])];
/// assert_eq!(judged_checkpoint(&bimodal), Some(1));
/// ```
pub fn judged_checkpoint(checkpoints: &[Checkpoint]) -> Option<usize> {
    let peaks: Vec<Stat> = checkpoints.iter().map(|c| c.peak_utilization).collect();
    judged_peak(&peaks)
}

/// [`judged_checkpoint`]'s rule on any peak utilization taken at each
/// checkpoint (the nodes' as well as the partitions'): the earliest whose
/// mean is statistically tied with the worst's (the worst by p95) and whose
/// p95 and the worst's each lie within the other's 95% CI. A tie of means
/// alone judged a pass at day 0 (p95 0.720 [0.711, 1.00]) where day 180's
/// p95 was 1.06 [0.598, 1.08] (a new user's status index, whose peak is
/// bimodal: two status keys share a partition in a few trials). `None`
/// without any.
pub fn judged_peak(peaks: &[Stat]) -> Option<usize> {
    let (at, worst) = peaks
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.p95.total_cmp(&b.1.p95))?;
    let tied = peaks.iter().position(|p| {
        p.ci95[1] >= worst.ci95[0] && p.p95 >= worst.p95_ci95[0] && worst.p95 <= p.p95_ci95[1]
    });
    Some(tied.unwrap_or(at))
}

/// The busy period at one point of the horizon.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Checkpoint {
    /// Day of the horizon.
    pub day: f64,
    /// Traffic multiplier at that day (e^{growth·day}).
    pub traffic_factor: f64,
    /// Peak utilization over trials at that day.
    pub peak_utilization: Stat,
    /// Throttled fraction over trials at that day.
    pub throttled_fraction: Stat,
    /// Partitions the table is laid out on for the data it stores that day.
    pub partitions: usize,
    /// Per-partition limits that day, units per second (read, write, combined):
    /// provisioned throughput divides over more partitions as data splits them.
    pub limits_per_s: [Option<f64>; 3],
    /// Expected bytes the table stores that day.
    pub stored_bytes: f64,
    /// The table-level limit that day (DynamoDB's provisioned or on-demand
    /// capacity, Firestore's ramp), when the store sets one: each
    /// checkpoint's own, since the traffic it throttles grows.
    pub table_limit: Option<TableLimitResults>,
}

/// The key-placement approximation in force for a table.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub struct Placement {
    /// Keys (with their shard and bucket sub-keys) placed one by one, summed over patterns.
    pub keys_placed: f64,
    /// Keys placed as per-partition mass (mean share/P, multinomial variance).
    pub keys_as_mass: f64,
    /// Share of the table's requests carried by keys placed as mass.
    pub tail_share: f64,
    /// Largest Berry–Esseen bound, over patterns, on the CDF error of one
    /// partition's tail load (0 when no key is placed as mass).
    pub tail_cdf_error_bound: f64,
    /// Largest bound, over patterns, on the expected error that placing the
    /// tail as mass makes in the busiest judged server's load, as a fraction
    /// of the pattern's mean load per server (Stein's bound summed over the
    /// servers; 0 when no key is placed as mass). The servers judged are the
    /// partitions, or the nodes where only the nodes carry a throughput
    /// limit (Redis Cluster's masters, Cassandra's nodes).
    pub tail_peak_error_bound: f64,
}

/// First-breach statistics over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Breach {
    /// Probability that a breach happens within the horizon.
    pub probability: Proportion,
    /// Mean day of the first breach over the trials that breach (`None`: no trial breaches).
    pub mean_day: Option<f64>,
    /// 95% CI of that mean.
    pub ci95: Option<[f64; 2]>,
}

/// One partition rank's load (rank 1 = each trial's hottest partition).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PartitionRank {
    /// 1-based rank by expected utilization within each trial.
    pub rank: usize,
    /// Mean over trials of the partition's read units per second.
    pub read_units_per_s: f64,
    /// Mean over trials of its write units per second.
    pub write_units_per_s: f64,
    /// Mean over trials of its expected utilization (busy-period mean load ÷ limit).
    pub mean_utilization: f64,
    /// Mean over trials of its peak-window utilization.
    pub peak_utilization: f64,
    /// 95th percentile over trials of its peak-window utilization.
    pub peak_utilization_p95: f64,
}

/// One hot key of the representative trial.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KeyLoad {
    /// The partition key value (with shard / bucket suffix).
    pub key: String,
    /// Partition it lands on (0-based).
    pub partition: usize,
    /// Its expected requests ÷ the table's expected requests, over the busy period.
    pub request_share: f64,
    /// Expected requests per second it receives (busy period mean).
    pub requests_per_s: f64,
    /// Expected units per second it consumes (reads + writes).
    pub units_per_s: f64,
    /// Of those, read units per second (DynamoDB RCU, Cosmos DB RU of
    /// reads, operations elsewhere): what the read limit is compared with.
    pub read_units_per_s: f64,
    /// Of those, write units per second (DynamoDB WCU): what the write
    /// limit is compared with.
    pub write_units_per_s: f64,
    /// Requests in its busiest window (drawn, representative trial).
    pub peak_window_requests: f64,
}

/// Utilization per partition over time (representative trial), at a coarser
/// step than the window when the busy period has many windows.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct Timeseries {
    /// Step between columns, seconds.
    pub step_s: f64,
    /// `utilization[partition][step]`: peak window utilization within the step.
    pub utilization: Vec<Vec<f64>>,
    /// `units[partition][step]`: mean units per second within the step (reads + writes).
    pub units_per_s: Vec<Vec<f64>>,
    /// What a row is: `"partition"` (key-space order) or `"node"`.
    pub row_label: String,
}

/// Most rows (partitions or nodes) of one table `timeseries.csv` writes:
/// 4,096 × 240 steps = 983,040 lines, within a spreadsheet's 1,048,576
/// (Excel's and LibreOffice Calc's sheet). A table laid out on 48,123
/// partitions wrote 11.5 million lines (395 MB) and held them in memory.
pub const TIMESERIES_MAX_ROWS: usize = 4_096;

impl Timeseries {
    /// The rows `timeseries.csv` writes, in key-space order: every row, or
    /// where there are more than [`TIMESERIES_MAX_ROWS`], the busiest that
    /// many by their peak utilization over the steps (ties to the lower
    /// row; a non-finite step counts as nothing).
    pub fn written_rows(&self) -> Vec<usize> {
        let n = self.utilization.len();
        if n <= TIMESERIES_MAX_ROWS {
            return (0..n).collect();
        }
        let peak = |i: usize| {
            self.utilization[i]
                .iter()
                .copied()
                .filter(|u| u.is_finite())
                .fold(0.0f64, f64::max)
        };
        let peaks: Vec<f64> = (0..n).map(peak).collect();
        let mut rows: Vec<usize> = (0..n).collect();
        rows.select_nth_unstable_by(TIMESERIES_MAX_ROWS - 1, |&a, &b| {
            peaks[b].total_cmp(&peaks[a]).then(a.cmp(&b))
        });
        rows.truncate(TIMESERIES_MAX_ROWS);
        rows.sort_unstable();
        rows
    }
}

/// Size of the largest item collection and item by day, over trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GrowthPoint {
    /// Day since t = 0.
    pub day: f64,
    /// Mean over trials of the largest item collection, bytes.
    pub collection_mean_bytes: f64,
    /// 5th percentile over trials, bytes.
    pub collection_p05_bytes: f64,
    /// 95th percentile over trials, bytes.
    pub collection_p95_bytes: f64,
    /// Mean over trials of the largest item, bytes.
    pub item_mean_bytes: f64,
    /// 95th percentile over trials of the largest item, bytes.
    pub item_p95_bytes: f64,
    /// Expected bytes the whole table stores that day (see
    /// [`GrowthPlan::table_bytes`](crate::engine::growth::GrowthPlan::table_bytes)).
    pub table_bytes: f64,
    /// Partitions the store lays the table out on for those bytes (they
    /// split as data grows and never merge).
    pub partitions: usize,
    /// Whether `partitions` is the model's simulation cap (the data would
    /// split the table further).
    pub partitions_capped: bool,
}

/// pass / warn / fail.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The design meets the check with the headroom the scenario sets.
    Pass,
    /// Within the limit but over the headroom.
    Warn,
    /// The limit is exceeded.
    Fail,
}

impl Status {
    /// `"pass"`, `"warn"`, `"fail"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

impl From<crate::store::StaticCheck> for Verdict {
    /// A store's static check as a verdict.
    fn from(c: crate::store::StaticCheck) -> Verdict {
        use crate::store::CheckLevel;
        Verdict {
            check: c.check.to_string(),
            table: c.table,
            status: match c.level {
                CheckLevel::Pass => Status::Pass,
                CheckLevel::Warn => Status::Warn,
                CheckLevel::Fail => Status::Fail,
            },
            detail: c.detail,
        }
    }
}

/// One check's verdict on one table.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Verdict {
    /// Check name: `hot_partition`, `partition_size`, `item_size`, ….
    pub check: String,
    /// Table (or `table.index`) checked.
    pub table: String,
    /// Outcome.
    pub status: Status,
    /// Why, with the figures.
    pub detail: String,
}

impl Verdict {
    /// Whether the verdict is on `table`: its own, or a cluster check on
    /// the nodes it shares with other tables (`table` names them joined
    /// with `" + "`).
    ///
    /// ```
    /// use keyheat::results::{Status, Verdict};
    /// let v = Verdict {
    ///     check: "node_storage".into(),
    ///     table: "txn + totals".into(),
    ///     status: Status::Fail,
    ///     detail: String::new(),
    /// };
    /// assert!(v.concerns("txn") && v.concerns("totals") && !v.concerns("tx"));
    /// ```
    pub fn concerns(&self, table: &str) -> bool {
        self.table == table || self.table.split(" + ").any(|t| t == table)
    }

    /// Whether this is a `hot_partition` verdict whose peak the store's
    /// model bounds only from below (its detail carries
    /// [`crate::store::LOWER_BOUND_NOTE`]: a Cosmos DB hierarchical key's
    /// hot first level), so a pass there is not proven.
    pub fn peak_is_lower_bound(&self) -> bool {
        self.check == "hot_partition"
            && self
                .detail
                .contains(&format!("; {}", crate::store::LOWER_BOUND_NOTE))
    }
}

/// One row of the design-review checklist: a static check of the scenario
/// (no simulation), on one table, index or access pattern.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChecklistItem {
    /// Check name: `access_path`, `key_cardinality`, `range_sort`, ….
    pub check: String,
    /// What was checked: a table, `table.index`, or an access pattern name.
    pub subject: String,
    /// Outcome.
    pub status: Status,
    /// Why, naming the key template or figure and the fix.
    pub reason: String,
}

/// The checklist items that do not pass, failures first, each as
/// "`check` on `subject` (status)": what the terminal and the
/// recommendation name, the reasons being the report's.
pub fn checklist_flagged(items: &[ChecklistItem]) -> Vec<String> {
    [Status::Fail, Status::Warn]
        .iter()
        .flat_map(|&s| {
            items
                .iter()
                .filter(move |c| c.status == s)
                .map(|c| format!("{} on {} ({})", c.check, c.subject, c.status.as_str()))
        })
        .collect()
}

/// A design's monthly cost: the sum of its priced tables' `monthly_cost`
/// (`None` when none is priced), as the variants table shows it and the
/// recommendation ranks equal changes by it.
pub fn design_cost(tables: &[TableResults]) -> Option<f64> {
    let costs: Vec<f64> = tables.iter().filter_map(|t| t.monthly_cost).collect();
    (!costs.is_empty()).then(|| costs.iter().sum())
}

/// One alternative's results.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VariantResults {
    /// Variant name.
    pub name: String,
    /// Overrides applied, path → value.
    pub set: serde_json::Map<String, serde_json::Value>,
    /// Per-table results.
    pub tables: Vec<TableResults>,
    /// Verdicts.
    pub verdicts: Vec<Verdict>,
    /// The variant's copies and caches (`engine::fanout`).
    pub fanout: Fanout,
}

/// The recommended alternative.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Recommendation {
    /// Variant name (`"base"` when the base design already passes).
    pub variant: String,
    /// Its overrides.
    pub set: serde_json::Map<String, serde_json::Value>,
    /// Why it was chosen.
    pub reason: String,
}
