//! Compiles a validated scenario and a store model into what the trials
//! need: per table, its layout, its request streams (one per access pattern)
//! with their key spaces, sub-key expansions (write shards, time buckets) and
//! unit-cost distributions, and its growth classes.

use super::combos::{Combos, OtherEntity};
use super::stream::{KeySpace, Stream, SubKey};
use super::window::Limits;
use crate::distributions::popularity::RankShares;
use crate::distributions::severity::{Severity, SEVERITY_MAX_ITEM_DRAWS, SEVERITY_SAMPLES};
use crate::scenario::{
    AccessPattern, CountDist, Index, Operation, Popularity, Projection, Scenario, ShardStrategy,
    SizeDist, Table, TemplatePart,
};
use crate::store::{StoreModel, TableDemand, TableLayout};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::collections::HashMap;

/// How request counts are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Whichever of `Exact` and `Aggregated` is expected to cost less
    /// (see [`choose_method`]).
    Auto,
    /// Per server per window; stationary stretches in closed form (peak
    /// window by the quantile of the maximum, throttling by E[(X − L)⁺]).
    #[default]
    Aggregated,
    /// Per server, every window drawn.
    Windows,
    /// Every request drawn on its own: its key from an alias table over every
    /// key, its units from the cost distribution (the reference).
    Exact,
}

/// Everything the trials of one scenario need.
#[derive(Debug)]
pub struct Plan {
    /// How request counts are drawn.
    pub method: Method,
    /// Whether the aggregated method screens out cold partitions (see
    /// [`super::screen`]); off, every partition's windows are drawn.
    pub screen_cold: bool,
    /// Whether trial 0 also draws the representative detail: its timeseries
    /// and its hot keys' busiest windows (from streams of their own, so
    /// trial 0's figures are the same either way).
    pub detail: bool,
    /// Whether each table's trial draws its growth over the horizon (the
    /// last thing it draws, from its own stream): only the first
    /// checkpoint's growth is reported, so a later checkpoint's busy period
    /// skips it (and the nodes' memory over the horizon, sized by it).
    pub growth: bool,
    /// Whether each partition's own peak is drawn for the rank table
    /// (`partitions.csv`, the load chart), which only the base design
    /// reports: off, a cold partition whose peak cannot set the trial's
    /// ([`super::screen`]: bounded below the peak the partitions drawn in
    /// full reach) takes its requested units alone, every other figure of
    /// the trial the same.
    pub rank_peaks: bool,
    /// Base seed.
    pub seed: u64,
    /// Trials.
    pub trials: u32,
    /// Window, seconds.
    pub window_s: f64,
    /// Windows in the busy period.
    pub windows: usize,
    /// Growth horizon, days.
    pub horizon_days: f64,
    /// Rate multiplier per window stretch: (first window, end window, multiplier),
    /// covering the busy period in order (from `profile` and `bursts`).
    pub rate_profile: Vec<(usize, usize, f64)>,
    /// Per-table plans, in scenario order.
    pub tables: Vec<TablePlan>,
    /// Entities with named `values`: (name, the value index of each
    /// popularity rank). Their ranks map to these instances in every trial
    /// (the names are the scenario's, not drawn).
    pub value_ranks: Vec<(String, Vec<u64>)>,
}

/// One table's partitions, streams and growth.
#[derive(Debug)]
pub struct TablePlan {
    /// Table name.
    pub name: String,
    /// Partitions and limits from the store model.
    pub layout: TableLayout,
    /// Key space of the partition key.
    pub keys: KeySpace,
    /// One stream per access pattern on this table.
    pub streams: Vec<Stream>,
    /// Where the store hashes only part of the key (a Redis Cluster hash
    /// tag), each stream as placement sees it: over the tag's values, a
    /// value's requests together on its slot ([`KeySpace::hashed`]), at the
    /// stream's rate (after its cache). Empty otherwise: the streams place
    /// as they are. The streams themselves stay over the whole keys (their
    /// counts, caches and growth are the keys').
    pub placing: Vec<Stream>,
    /// Bucket width, seconds.
    pub bucket_s: Option<f64>,
    /// Queries a whole-key read issues.
    pub fan_out: u32,
    /// Busy-period requests per second over all patterns (before fan-out).
    pub requests_per_s: f64,
    /// Growth of item collections and items.
    pub growth: super::growth::GrowthPlan,
    /// Expected bytes the table stores on the simulated day
    /// ([`Simulation::day`](crate::scenario::Simulation::day)); the layout is sized for them.
    pub stored_bytes: f64,
    /// Partitions the store lays the table out on for the data it holds on
    /// each day of [`GrowthPlan::grid`](super::growth::GrowthPlan::grid).
    pub partitions_by_day: Vec<usize>,
    /// The day the stored data first lays the table out on more partitions
    /// than day 0's (a root of the growth curve, not a grid day), if it does
    /// within the horizon.
    pub first_split_day: Option<f64>,
    /// For a global secondary index: the position in [`Plan::tables`] of its
    /// base table, whose writes it throttles when its own writes throttle
    /// (back-pressure). `None` for a table.
    pub global_index_of: Option<usize>,
    /// For a global secondary index: the share of its base table's busy-period
    /// write units made by patterns that write this index (the rest leave it
    /// untouched, `index_untouched`). 1 for a table.
    pub base_write_share: f64,
    /// Whether the layout for the data stored by the horizon has a lower
    /// per-partition limit than this one (provisioned throughput divided over
    /// more partitions: Cosmos DB, DynamoDB without adaptive capacity).
    pub dilutes_by_horizon: bool,
    /// The most partitions the store model lays a table out on, if capped.
    pub partitions_cap: Option<usize>,
    /// The store's per-key and per-table limits for this table (a global
    /// index's from its own capacity settings).
    pub key_limits: crate::store::KeyLimits,
    /// A limit on the whole table's units that changes over simulated time
    /// (Firestore's 500/50/5 ramp), when the store sets one.
    pub table_limit: Option<TableLimitPlan>,
    /// Cluster memory's mean bytes per key of each growth class on each
    /// growth-grid day, the same in every trial: ((horizon days, key
    /// overhead) as bits, bytes by day then class), computed by the first
    /// trial that asks (cluster memory).
    pub memory_grid: std::sync::OnceLock<((u64, u64), Vec<f64>)>,
    /// Each node's share of the table's partitions for cluster memory,
    /// the same in every trial: (nodes, shares), computed once.
    pub node_shares: std::sync::OnceLock<(usize, Vec<f64>)>,
    /// The bytes of the keys cluster memory spreads by share on each grid
    /// day, with the keys spread per class they were summed for (the same
    /// in every trial), computed once.
    pub memory_spread: std::sync::OnceLock<(Vec<f64>, Vec<f64>)>,
}

impl TablePlan {
    /// Sub-requests one request of `s` makes on the table: its fan-out, or
    /// for a broadcast (MongoDB's scatter-gather) one per node, spread
    /// evenly over the partitions (as the placement spreads it).
    pub fn sub_requests(&self, s: &Stream) -> f64 {
        match self.layout.nodes.as_ref() {
            _ if !s.broadcast => s.fan_out(),
            Some(n) => n.nodes.max(1) as f64,
            None => 1.0,
        }
    }

    /// The most requests one read issues, as the results report it: the
    /// table's [`TablePlan::fan_out`], or every shard for a broadcast
    /// (MongoDB's scatter-gather), whichever is more.
    pub fn reported_fan_out(&self) -> u32 {
        self.streams
            .iter()
            .filter(|s| s.broadcast)
            .map(|s| self.sub_requests(s).round() as u32)
            .fold(self.fan_out, u32::max)
    }

    /// Capacity units per second the busy period asks of the whole table on
    /// one side (writes when `is_write`): Σ busy rate × sub-requests × mean
    /// units per sub-request, in stream order.
    pub fn busy_units_per_s(&self, is_write: bool) -> f64 {
        self.streams
            .iter()
            .filter(|s| s.is_write == is_write)
            .map(|s| s.busy_rate_per_s * self.sub_requests(s) * s.severity.mean)
            .sum()
    }
}

/// Table-level limits, in windows: the store's read and write units per
/// second the whole table serves at once (DynamoDB's provisioned or
/// on-demand capacity, [`StoreModel::key_limits`]) and a read + write limit
/// that changes over simulated time ([`StoreModel::table_limit_schedule`]:
/// Firestore's 500/50/5 ramp). Each window's excess over them is throttled.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLimitPlan {
    /// What the limits are (`"500/50/5 ramp"`, `"provisioned capacity"`).
    pub label: String,
    /// The time-varying limit's steps within the busy period: (start second,
    /// units per second); empty without one.
    pub steps_per_s: Vec<(f64, f64)>,
    /// The constant read and write limits, units per second.
    pub caps_per_s: [Option<f64>; 2],
    /// (first window, end window, limits per window) where a limit can
    /// matter, in order. A limit that is not finite, or exceeds both the
    /// table's busiest-window mean units (of its side) by more than
    /// [`UNBINDING_SDS`] standard deviations (plus one unit) and 10 × those
    /// mean units, is left out: no window of it is throttled or reaches a
    /// utilization of 0.1, so it costs no simulated stretch.
    pub stretches: Vec<(usize, usize, Limits)>,
}

impl TableLimitPlan {
    /// The limits (units per window) in force at window `w`, if any.
    pub fn at_window(&self, w: usize) -> Option<Limits> {
        self.stretches
            .iter()
            .find(|(a, b, _)| (*a..*b).contains(&w))
            .map(|s| s.2)
    }
}

/// Standard deviations of a window's units above its mean beyond which a
/// table-level limit is taken as unable to bind.
pub const UNBINDING_SDS: f64 = 20.0;

impl Method {
    /// The CLI / summary spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Aggregated => "aggregated",
            Method::Windows => "windows",
            Method::Exact => "exact",
        }
    }
}

/// Nanoseconds per request of the exact method (measured: ≈ 2.3 ns/request on
/// one core of the benchmark machine with a cached alias table; rounded up).
const EXACT_NS_PER_REQUEST: f64 = 5.0;
/// Nanoseconds per key placed and tabled by the exact method, per trial.
const EXACT_NS_PER_KEY: f64 = 40.0;
/// Nanoseconds per server per window the exact method evaluates, per trial.
const EXACT_NS_PER_SERVER_WINDOW: f64 = 4.0;
/// Nanoseconds per server per stream per stationary stretch, aggregated (≈ 3 µs measured).
const AGGREGATED_NS_PER_STRETCH: f64 = 3_000.0;
/// Nanoseconds per drawn window per server per stream (the representative trial).
const AGGREGATED_NS_PER_WINDOW: f64 = 20.0;

/// Picks the cheaper method by expected cost: exact costs requests and keys,
/// aggregated costs servers × stretches (plus one trial's windows). Exact is
/// only eligible when every pattern's keys can be enumerated.
pub fn choose_method(plan: &Plan, max_exact_keys: f64) -> Method {
    let duration_s = plan.window_s * plan.windows as f64;
    let mut exact = 0.0;
    let mut aggregated = 0.0;
    for t in &plan.tables {
        let servers =
            t.layout.partitions as f64 + t.layout.nodes.as_ref().map_or(0.0, |n| n.nodes as f64);
        for s in &t.streams {
            let keys = if s.shares.is_fresh() {
                t.layout.partitions as f64
            } else {
                s.shares.count() as f64 * s.combos.count * s.subkeys.len() as f64
            };
            if keys > max_exact_keys {
                return Method::Aggregated;
            }
            exact += s.busy_rate_per_s * s.fan_out() * duration_s * EXACT_NS_PER_REQUEST
                + keys * EXACT_NS_PER_KEY;
            aggregated += servers * AGGREGATED_NS_PER_STRETCH;
        }
        exact += servers * plan.windows as f64 * EXACT_NS_PER_SERVER_WINDOW;
        aggregated +=
            servers * t.streams.len() as f64 * plan.windows as f64 * AGGREGATED_NS_PER_WINDOW
                / f64::from(plan.trials.max(1));
    }
    if exact < aggregated {
        Method::Exact
    } else {
        Method::Aggregated
    }
}

/// Builds the plan for `scenario` on `store`.
pub fn build(scenario: &Scenario, store: &dyn StoreModel) -> Plan {
    build_at(scenario, store, 0.0)
}

/// Builds the plan of a busy period that starts `start_s` seconds after the
/// horizon's t = 0 (a checkpoint day): only time-varying table limits
/// ([`StoreModel::table_limit_schedule`]) depend on it.
pub fn build_at(scenario: &Scenario, store: &dyn StoreModel, start_s: f64) -> Plan {
    let sim = &scenario.simulation;
    let windows = ((sim.duration_s / sim.window_s).round() as usize).max(1);
    let profile = rate_profile(sim, windows);
    let max_mult = profile.iter().map(|p| p.2).fold(1.0, f64::max);
    let mut tables: Vec<TablePlan> = Vec::new();
    for (ti, t) in scenario.tables.iter().enumerate() {
        let base = tables.len();
        let plan = grown_table_plan(store, sim, start_s, &|min| {
            table_plan(scenario, store, ti, t, min, None)
        });
        tables.push(plan);
        grow_key_limits(&mut tables[base], store, sim, start_s);
        for (xi, index) in t.indexes.iter().enumerate() {
            if !index.local && store.global_indexes() {
                let v = global_index_scenario(scenario, ti, xi);
                // The index's own capacity (if set) changes only its layout.
                let own = store.index_store(index.read_capacity, index.write_capacity);
                let index_store = own.as_deref().unwrap_or(store);
                let table_growth = &tables[base].growth;
                let mut plan = grown_table_plan(index_store, sim, start_s, &|min| {
                    table_plan(&v, index_store, 0, &v.tables[0], min, Some(table_growth))
                });
                plan.global_index_of = Some(base);
                // Its day-0 entries are the table's items by their index
                // key value: spread as the index's writes are.
                plan.growth.spread_initial_by_writes();
                // A per-key write limit is a document's (Firestore's ~1
                // sustained write/s): an index entry is not a document.
                plan.key_limits.key_write_per_s = None;
                plan.base_write_share = base_write_share(scenario, &tables[base], xi);
                grow_key_limits(&mut plan, index_store, sim, start_s);
                tables.push(plan);
            }
        }
    }
    for tp in &mut tables {
        let demand = TableDemand {
            name: tp.name.clone(),
            initial_bytes: 0.0,
            has_local_index: false,
        };
        let schedule = store.table_limit_schedule(&demand, start_s, sim.duration_s);
        tp.table_limit = table_limit_plan(tp, schedule, sim.window_s, windows, max_mult);
    }
    Plan {
        method: Method::default(),
        screen_cold: true,
        detail: true,
        rank_peaks: true,
        growth: true,
        seed: sim.seed,
        trials: sim.trials,
        window_s: sim.window_s,
        windows,
        horizon_days: sim.horizon_days,
        rate_profile: profile,
        tables,
        value_ranks: scenario
            .entities
            .iter()
            .filter(|e| !e.values.is_empty())
            .map(|e| (e.name.clone(), e.value_ranks()))
            .collect(),
    }
}

/// A table's limits on a checkpoint `start_s` seconds into the horizon
/// under growing (or shrinking) traffic, from the busiest busy period it
/// served before ([`StoreModel::grown_key_limits`]): with growth r per day
/// the day before's (× e^{−r}), or day 0's (× e^{−r·day}) where traffic
/// falls. Day 0's, and a day before the first day's end, keep the
/// store's own.
fn grow_key_limits(
    tp: &mut TablePlan,
    store: &dyn StoreModel,
    sim: &crate::scenario::Simulation,
    start_s: f64,
) {
    if let Some(previous) = previous_units_per_s(tp, sim, start_s) {
        tp.key_limits = store.grown_key_limits(tp.key_limits, previous);
    }
}

/// The busiest (read, write) units per second the table served before a
/// checkpoint `start_s` seconds into the horizon under growing (or
/// shrinking) traffic: with growth r per day the day before's busy period
/// (× e^{−r}), or day 0's (× e^{−r·day}) where traffic falls. None on day
/// 0, a day before the first day's end, or without growth.
fn previous_units_per_s(
    tp: &TablePlan,
    sim: &crate::scenario::Simulation,
    start_s: f64,
) -> Option<[f64; 2]> {
    let (r, day) = (sim.growth_per_day, start_s / super::stream::DAY_S);
    if r == 0.0 || day < 1.0 {
        return None;
    }
    let before = if r > 0.0 {
        (-r).exp()
    } else {
        (-r * day).exp()
    };
    Some([false, true].map(|w| tp.busy_units_per_s(w) * before))
}

/// A table's plan (`plan(None)`), laid out again on more partitions
/// (`plan(Some(p))`) where the store has split it for the traffic it served
/// before the checkpoint ([`StoreModel::grown_partitions`]: DynamoDB
/// on-demand, twice the previous peak). The plan is a function of its
/// inputs, so the second one draws the same streams.
fn grown_table_plan(
    store: &dyn StoreModel,
    sim: &crate::scenario::Simulation,
    start_s: f64,
    plan: &dyn Fn(Option<usize>) -> TablePlan,
) -> TablePlan {
    let first = plan(None);
    let grown = previous_units_per_s(&first, sim, start_s).and_then(|previous| {
        store.grown_partitions(
            &TableDemand {
                name: first.name.clone(),
                initial_bytes: first.stored_bytes,
                has_local_index: false,
            },
            previous,
        )
    });
    match grown {
        Some(p) if p > first.layout.partitions => plan(Some(p)),
        _ => first,
    }
}

/// The table's limits in windows: the store's constant read / write caps
/// ([`TablePlan::key_limits`]) over the whole busy period, and its
/// time-varying schedule (each step from its start, rounded to a window, to
/// the next step's), keeping the limits that can bind against the table's
/// busiest windows (rates × `max_mult`). `None` when the store sets neither.
fn table_limit_plan(
    tp: &TablePlan,
    schedule: Option<crate::store::TableLimitSchedule>,
    window_s: f64,
    windows: usize,
    max_mult: f64,
) -> Option<TableLimitPlan> {
    let caps_per_s = [
        tp.key_limits.table_read_per_s,
        tp.key_limits.table_write_per_s,
    ];
    if schedule.is_none() && caps_per_s.iter().all(Option::is_none) {
        return None;
    }
    // Mean and variance of a busiest window's units: reads, writes, both.
    let moments = |side: Option<bool>| {
        tp.streams
            .iter()
            .filter(|s| side.is_none_or(|w| s.is_write == w))
            .fold((0.0, 0.0), |(m, v), s| {
                let lam = s.busy_rate_per_s * s.fan_out() * max_mult * window_s;
                let [m1, m2, _, _] = s.severity.raw_moments();
                (m + lam * m1, v + lam * m2)
            })
    };
    // Limits above both bounds neither throttle nor reach a utilization of 0.1.
    let binds = |limit: f64, side: Option<bool>| {
        let (mean, var) = moments(side);
        let keep_below = (mean + UNBINDING_SDS * var.sqrt() + 1.0).max(10.0 * mean);
        limit.is_finite() && limit <= keep_below
    };
    let caps = Limits {
        read: caps_per_s[0]
            .map(|c| c * window_s)
            .filter(|&l| binds(l, Some(false))),
        write: caps_per_s[1]
            .map(|c| c * window_s)
            .filter(|&l| binds(l, Some(true))),
        combined: None,
    };
    let at = |t: f64| ((t / window_s).round().max(0.0) as usize).min(windows);
    let mut stretches: Vec<(usize, usize, Limits)> = Vec::new();
    let mut label = tp.key_limits.table_limit_label.to_string();
    let mut steps_per_s = Vec::new();
    if let Some(schedule) = schedule {
        let steps = &schedule.steps;
        stretches = steps
            .iter()
            .enumerate()
            .filter_map(|(i, &(start, per_s))| {
                let a = at(start);
                let b = steps.get(i + 1).map_or(windows, |n| at(n.0));
                let limit = per_s * window_s;
                (b > a && binds(limit, None)).then_some((
                    a,
                    b,
                    Limits {
                        combined: Some(limit),
                        ..caps
                    },
                ))
            })
            .collect();
        label = schedule.label;
        steps_per_s = schedule.steps;
    } else if caps.any() {
        stretches.push((0, windows, caps));
    }
    Some(TableLimitPlan {
        label,
        steps_per_s,
        caps_per_s,
        stretches,
    })
}

/// The busy period's rate multiplier as stretches of windows: `profile`
/// slices the period into equal parts, each burst multiplies its stretch.
pub fn rate_profile(sim: &crate::scenario::Simulation, windows: usize) -> Vec<(usize, usize, f64)> {
    let at = |t: f64| ((t / sim.window_s).round().max(0.0) as usize).min(windows);
    let mut cuts: Vec<usize> = vec![0, windows];
    let k = sim.profile.len();
    for i in 1..k {
        cuts.push(at(sim.duration_s * i as f64 / k as f64));
    }
    for b in &sim.bursts {
        cuts.push(at(b.at_s));
        cuts.push(at(b.at_s + b.length_s));
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| {
            let mid_s = (w[0] as f64 + 0.5) * sim.window_s;
            let mut m = if k > 0 {
                let slice = ((mid_s / sim.duration_s) * k as f64).floor() as usize;
                sim.profile[slice.min(k - 1)]
            } else {
                1.0
            };
            for b in &sim.bursts {
                if mid_s >= b.at_s && mid_s < b.at_s + b.length_s {
                    m *= b.factor;
                }
            }
            (w[0], w[1], m)
        })
        .collect()
}

/// The access patterns (with their positions) table `ti` serves itself:
/// its own and those through its local indexes (every index, where the
/// store has no global ones).
fn table_patterns<'s>(
    scenario: &'s Scenario,
    store: &dyn StoreModel,
    ti: usize,
    table: &Table,
) -> Vec<(usize, &'s AccessPattern)> {
    scenario
        .access_patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.table == ti
                && p.index.is_none_or(|x| {
                    table
                        .indexes
                        .get(x)
                        .is_some_and(|i| i.local || !store.global_indexes())
                })
        })
        .collect()
}

/// Whether pattern `p`'s stream on `table` is drawn again for the
/// simulated day, once its data is known: a scan (the day's bytes and
/// partitions), a query of a count-bucketed table (the buckets filled by
/// then), and on items appends have grown, any request but a put (which
/// writes the item anew).
fn drawn_for_the_day(table: &Table, p: &AccessPattern) -> bool {
    match p.operation {
        Operation::Scan => true,
        Operation::Query if table.bucket_items.is_some() => true,
        Operation::Put => false,
        _ => table.appended_bytes_per_item > 0.0,
    }
}

/// One table's plan; `min_partitions`, where set, the fewest partitions
/// its day's layout has (the store split it for the traffic it served
/// before: [`grown_table_plan`]); `index_of`, for a global index, its base
/// table's growth (the index stores no more entries than the table items).
fn table_plan(
    scenario: &Scenario,
    store: &dyn StoreModel,
    ti: usize,
    table: &Table,
    min_partitions: Option<usize>,
    index_of: Option<&super::growth::GrowthPlan>,
) -> TablePlan {
    let mut keys = KeySpace::new(&table.partition_key, scenario);
    keys.hashed = store.hashed_parts(&keys.template);
    let pick = shard_pick(scenario, table, &keys);
    if let ShardPick::InKey(e) = pick {
        keys.shard_by = Some((e, table.shards.max(1)));
    }
    let item_mean = table.item_size.mean();
    let logical_keys = if keys.fresh { 0.0 } else { keys.cardinality() };
    let initial_bytes =
        logical_keys * pick.keys_per_logical_key(table) * table.initial_items.mean() * item_mean;
    let demand = |bytes: f64| TableDemand {
        name: table.name.clone(),
        initial_bytes: bytes,
        has_local_index: table.indexes.iter().any(|i| i.local),
    };
    // The items alone set the store's ceilings growth judges against.
    let layout = store.layout(&demand(initial_bytes));
    let patterns = table_patterns(scenario, store, ti, table);
    let reach = Reach {
        pick: &pick,
        count: None,
        scan: None,
    };
    // Each stream from its own seeded draws: built side by side.
    let mut streams: Vec<Stream> = patterns
        .par_iter()
        .map(|&(pi, p)| stream(scenario, store, &keys, table, (pi, p), &reach, false))
        .collect();
    let max_bucket_span = patterns
        .iter()
        .filter(|(_, p)| p.operation == Operation::Query)
        .map(|(_, p)| bucket_span(table, p))
        .max()
        .unwrap_or(1);
    let shard_fan_out = match pick {
        ShardPick::InKey(_) => 1,
        _ => table.shards,
    };
    // A read of one range is one request, whatever its buckets and shards.
    let mut fan_out = if one_range(store, &keys.template) {
        1
    } else {
        shard_fan_out * max_bucket_span
    };
    let requests_per_s = streams.iter().map(|s| s.busy_rate_per_s).sum();
    let growth = super::growth::GrowthPlan::new(scenario, table, &keys, &streams, &layout, store);
    // Growth runs from t = 0 at day-0 rates compounded by `growth`; a
    // checkpoint's scenario has its rates grown to its day already.
    let day = scenario.simulation.day;
    let mut growth = growth.with_rates_scaled((-scenario.simulation.growth_per_day * day).exp());
    if let Some(base) = index_of {
        growth = growth.index_of(base);
    }
    // Day 0's data as growth counts it (the store's per-item overhead and
    // local index entries with the items: growth.csv's day 0), and the
    // layout for it.
    let initial_bytes = growth.table_bytes(0.0);
    let layout = store.layout(&demand(initial_bytes));
    // Lay the table out for the data it holds on the simulated day.
    let stored_bytes = if day > 0.0 {
        growth.table_bytes(day)
    } else {
        initial_bytes
    };
    let grid = growth.grid();
    let horizon = grid.last().copied().unwrap_or(0.0);
    let peak_bytes = PeakBytes::new(&growth);
    let horizon_layout = store.layout(&demand(peak_bytes.at(horizon)));
    let (partitions_by_day, split_day) = partitions_over_grid(
        &grid,
        layout.partitions,
        horizon_layout.partitions,
        day,
        &|d| store.partition_count(&demand(peak_bytes.at(d))),
    );
    // The day's data sets its layout and table limits (Cosmos DB's 1 RU/s a GB).
    let (day_bytes, mut layout) = if day > 0.0 {
        let bytes = peak_bytes.at(day);
        (bytes, store.layout(&demand(bytes)))
    } else {
        (initial_bytes, layout)
    };
    if let Some(p) = min_partitions {
        layout.partitions = layout.partitions.max(p);
    }
    // Count buckets: the busiest key's items by the day fill its buckets,
    // the newest taking the writes; keys show its newest bucket's number.
    let count = table.bucket_items.map(|n| {
        let (items, per_day) = growth.busiest_items(day);
        let count = CountBuckets { n, items, per_day };
        keys.bucket_base = i64::from(count.buckets(None)) - 1;
        count
    });
    // A scan reads every partition of the day's layout, and the day's bytes.
    let scan = (layout.partitions, stored_bytes, growth.table_items(day));
    // Items grown by appends by the day cost what they have grown to.
    let grown = Table {
        appended_bytes_per_item: growth.appended_item_bytes(day),
        ..table.clone()
    };
    let rebuilt = |p: &AccessPattern| drawn_for_the_day(&grown, p);
    if patterns.iter().any(|(_, p)| rebuilt(p)) {
        let reach = Reach {
            pick: &pick,
            count,
            scan: Some(scan),
        };
        streams
            .par_iter_mut()
            .zip(&patterns)
            .filter(|(_, (_, p))| rebuilt(p))
            .for_each(|(s, &(pi, p))| {
                *s = stream(scenario, store, &keys, &grown, (pi, p), &reach, false)
            });
        fan_out = fan_out.max(widest_fan_out(&streams, &patterns, layout.partitions));
    }
    let dilutes_by_horizon = dilutes(&layout, &horizon_layout);
    let placing = placing_streams(scenario, store, (&keys, &pick), table, &patterns, &streams);
    TablePlan {
        name: table.name.clone(),
        layout,
        keys,
        streams,
        placing,
        bucket_s: table.bucket_s,
        fan_out,
        requests_per_s,
        growth,
        stored_bytes,
        partitions_by_day,
        first_split_day: split_day,
        key_limits: store.key_limits(&demand(day_bytes)),
        partitions_cap: store.max_partitions(),
        dilutes_by_horizon,
        global_index_of: None,
        base_write_share: 1.0,
        table_limit: None,
        memory_grid: std::sync::OnceLock::new(),
        node_shares: std::sync::OnceLock::new(),
        memory_spread: std::sync::OnceLock::new(),
    }
}

/// The most requests one read of `streams` issues: a query's fan-out, a
/// scan's one query per partition of `partitions` (its pages aside).
fn widest_fan_out(
    streams: &[Stream],
    patterns: &[(usize, &AccessPattern)],
    partitions: usize,
) -> u32 {
    let scans = patterns.iter().any(|(_, p)| p.operation == Operation::Scan);
    streams
        .iter()
        .filter(|s| s.is_query)
        .map(|s| s.fan_out().round() as u32)
        .chain(scans.then_some(partitions as u32))
        .max()
        .unwrap_or(1)
}

/// Whether any of `day`'s per-partition limits is lower at the horizon
/// (`later`): more partitions share the table's capacity.
fn dilutes(day: &TableLayout, later: &TableLayout) -> bool {
    let lower = |a: Option<f64>, b: Option<f64>| matches!((a, b), (Some(a), Some(b)) if b < a * (1.0 - 1e-9));
    lower(day.read_limit_per_s, later.read_limit_per_s)
        || lower(day.write_limit_per_s, later.write_limit_per_s)
        || lower(day.combined_limit_per_s, later.combined_limit_per_s)
}

/// Placement over a hash tag's values ([`TablePlan::placing`]): each
/// stream again, by tag, at the rate that reaches the store (a cache's
/// misses spread over the tags by their popularity: the hottest tag's
/// misses, a cache taking its hottest keys' reads, are overstated, not
/// understated). Empty without a tag, and for a table with a scan or count
/// buckets, whose streams take the layout's reach: it places as its
/// streams do.
fn placing_streams(
    scenario: &Scenario,
    store: &dyn StoreModel,
    (keys, pick): (&KeySpace, &ShardPick),
    table: &Table,
    patterns: &[(usize, &AccessPattern)],
    streams: &[Stream],
) -> Vec<Stream> {
    let by_tag = keys.hashed.is_some()
        && table.bucket_items.is_none()
        && patterns.iter().all(|(_, p)| p.operation != Operation::Scan);
    if !by_tag {
        return Vec::new();
    }
    let reach = Reach {
        pick,
        count: None,
        scan: None,
    };
    streams
        .iter()
        .zip(patterns)
        .map(|(base, &(pi, p))| {
            let mut t = stream(scenario, store, keys, table, (pi, p), &reach, true);
            t.busy_rate_per_s = base.busy_rate_per_s;
            t.mean_rate_per_s = base.mean_rate_per_s;
            t
        })
        .collect()
}

/// Share of `base`'s busy-period write units (rate × fan-out × mean units)
/// made by patterns that write index `xi` (0 when the table has no writes).
fn base_write_share(scenario: &Scenario, base: &TablePlan, xi: usize) -> f64 {
    let units = |s: &Stream| s.busy_rate_per_s * s.fan_out() * s.severity.mean;
    let writes = base.streams.iter().filter(|s| s.is_write);
    let total: f64 = writes.clone().map(units).sum();
    let feeding: f64 = writes
        .filter(|s| {
            let p = &scenario.access_patterns[s.pattern];
            p.index.is_none() && p.index_writes(xi) > 0.0
        })
        .map(units)
        .sum();
    if total > 0.0 {
        feeding / total
    } else {
        0.0
    }
}

/// The most bytes the table held on any day up to a day (grid days and
/// that day itself): partitions split as data grows and never merge. The
/// grid days' bytes and their running maximum are taken once: the layout
/// asks for every grid day and bisects for the first split (with a TTL or
/// a rejecting size limit each day's bytes sum over every key class).
struct PeakBytes<'a> {
    growth: &'a super::growth::GrowthPlan,
    grid: Vec<f64>,
    /// most_before[i]: the most bytes on grid days before grid[i].
    most_before: Vec<f64>,
}

impl<'a> PeakBytes<'a> {
    /// Every grid day's bytes, taken once.
    fn new(growth: &'a super::growth::GrowthPlan) -> Self {
        let grid = growth.grid();
        let mut most_before = Vec::with_capacity(grid.len() + 1);
        most_before.push(0.0f64);
        for &d in &grid {
            let most = most_before[most_before.len() - 1];
            most_before.push(most.max(growth.table_bytes(d)));
        }
        PeakBytes {
            growth,
            grid,
            most_before,
        }
    }

    /// The most bytes on any grid day before `day`, and on `day`.
    fn at(&self, day: f64) -> f64 {
        // The grid rises from day 0: the days before `day` are a prefix.
        let before = self.grid.partition_point(|&d| d < day);
        self.most_before[before].max(self.growth.table_bytes(day))
    }
}

/// A global secondary index as a table of its own: its key templates, entries
/// of [`crate::store::index_entry_bytes`], the patterns that read it, and the index writes
/// of each base write pattern ([`AccessPattern::index_writes`], DynamoDB
/// Developer Guide, "Provisioned throughput considerations for Global
/// Secondary Indexes"): none when the pattern leaves the index untouched,
/// one (`"<name> (index write)"`), and for a write that changes the index
/// key a second stream at the same rate (`"<name> (index delete of the old
/// entry)"`): the delete of the old entry, on a key drawn from the index
/// key's popularity independently of the put's (ASSUMPTION: the old and new
/// values are independent draws; the delete changes no item-collection
/// growth). The index's own `read_capacity` / `write_capacity` are the
/// store model's concern ([`StoreModel::index_store`]).
pub fn global_index_scenario(scenario: &Scenario, ti: usize, xi: usize) -> Scenario {
    let table = &scenario.tables[ti];
    let index = &table.indexes[xi];
    let mut v = scenario.clone();
    v.variants.clear();
    v.tables = vec![Table {
        name: format!("{}.{}", table.name, index.name),
        partition_key: index.partition_key.clone(),
        sort_key: index.sort_key.clone(),
        item_size: SizeDist::Fixed(crate::store::index_entry_bytes(table, index)),
        item_size_at: table.item_size_at,
        shards: index.shards,
        shard_strategy: index.shard_strategy,
        shard_by: index.shard_by.clone(),
        bucket_s: index.bucket_s,
        bucket_items: index.bucket_items,
        ttl_s: table.ttl_s,
        initial_items: index_initial_items(scenario, table, index),
        indexes: Vec::new(),
        unread_bytes_per_item: crate::store::INDEX_ENTRY_OVERHEAD_BYTES,
        appended_bytes_per_item: 0.0,
    }];
    let ours = |p: &&AccessPattern| p.table == ti;
    let mut patterns: Vec<AccessPattern> = scenario
        .access_patterns
        .iter()
        .filter(ours)
        .filter(|p| p.index == Some(xi) || (p.index.is_none() && p.index_writes(xi) > 0.0))
        .map(|p| AccessPattern {
            table: 0,
            index: None,
            name: if p.index == Some(xi) {
                p.name.clone()
            } else {
                format!("{} (index write)", p.name)
            },
            index_key_changes: Vec::new(),
            index_untouched: Vec::new(),
            ..p.clone()
        })
        .collect();
    // Appended after the others, so the other streams keep their seeds.
    patterns.extend(
        scenario
            .access_patterns
            .iter()
            .filter(ours)
            .filter(|p| p.index.is_none() && p.index_writes(xi) >= 2.0)
            .map(|p| AccessPattern {
                table: 0,
                index: None,
                name: format!("{} (index delete of the old entry)", p.name),
                operation: Operation::Update,
                index_key_changes: Vec::new(),
                index_untouched: Vec::new(),
                ..p.clone()
            }),
    );
    v.access_patterns = patterns;
    v
}

/// Entries per index key at day 0 on average: one per item the table
/// holds then (its keys × shards × `initial_items`) over the index's keys
/// (its entities' instances × its shards); the growth spreads them as the
/// index's writes are ([`super::growth::GrowthPlan::spread_initial_by_writes`]). `initial_items` counts
/// items per *table* key: taken per index key as it was, 1,000,000 orders
/// of one item each made a status index of 5 entries. None (0) where
/// either key space is fresh (`{id}`, `{time}`: no day-0 items to count).
fn index_initial_items(scenario: &Scenario, table: &Table, index: &Index) -> CountDist {
    let base = KeySpace::new(&table.partition_key, scenario);
    let ix = KeySpace::new(&index.partition_key, scenario);
    if base.fresh || ix.fresh {
        return CountDist::Fixed(0.0);
    }
    let items =
        base.cardinality() * f64::from(table.shards.max(1)) * table.initial_items.mean().max(0.0);
    let index_keys = ix.cardinality() * f64::from(index.shards.max(1));
    CountDist::Fixed(items / index_keys.max(1.0))
}

/// Buckets a query of `p` spans: ceil(range / bucket), at least 1.
fn bucket_span(table: &Table, p: &AccessPattern) -> u32 {
    match (table.bucket_s, p.range_s) {
        (Some(b), Some(r)) if b > 0.0 => ((r / b).ceil() as u32).max(1),
        _ => 1,
    }
}

/// The table's partitions on each grid day (day 0's `partitions` at or
/// before day 0), and the day the data first splits it onto more partitions
/// than day 0's: the root of the stored-data curve between grid days,
/// bisected on `partitions_on(day)`.
fn partitions_over_grid(
    grid: &[f64],
    partitions: usize,
    at_horizon: usize,
    day: f64,
    partitions_on: &dyn Fn(f64) -> usize,
) -> (Vec<usize>, Option<f64>) {
    let by_day: Vec<usize> = if at_horizon == partitions && day <= 0.0 {
        vec![partitions; grid.len()]
    } else {
        grid.iter()
            .map(|&d| {
                if d <= 0.0 {
                    partitions
                } else {
                    partitions_on(d)
                }
            })
            .collect()
    };
    let split_day = by_day.iter().position(|&p| p > partitions).map(|i| {
        let more = |d: f64| partitions_on(d) > partitions;
        let (mut lo, mut hi) = (grid[i.saturating_sub(1)], grid[i]);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if more(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    });
    (by_day, split_day)
}

/// How a table's write shard is picked (see [`shard_pick`]).
#[derive(Debug, Clone, PartialEq)]
enum ShardPick {
    /// Uniformly over the shards: a random suffix, or a hash of the item id.
    Uniform,
    /// `shard_by` an entity of the partition key (its index in the key
    /// space): each key has one shard, hash(instance) mod shards.
    InKey(usize),
    /// `shard_by` an entity outside the partition key: shard s takes
    /// `weights[s]` of a key's writes (the summed shares of the instances
    /// that hash to it); `by` names that entity's reads.
    Outside {
        /// The entity.
        entity: String,
        /// Share of a key's writes on each shard (sum 1).
        weights: Vec<f64>,
    },
}

impl ShardPick {
    /// Partition keys per logical key: one under `shard_by` an entity of the key.
    fn keys_per_logical_key(&self, table: &Table) -> f64 {
        match self {
            ShardPick::InKey(_) => 1.0,
            _ => f64::from(table.shards.max(1)),
        }
    }
}

/// Instances of a `shard_by` entity outside the key hashed one by one
/// ([`shard_pick`]); the rest of its mass spreads evenly over the shards.
const SHARD_BY_EXACT_RANKS: u64 = 65_536;

/// How `table` picks its write shard. `shard_by` an entity of the partition
/// key: [`ShardPick::InKey`]. `shard_by` another entity: each of its
/// instances hashes to a shard ([`shard_of`](super::stream::shard_of) of its
/// value, or of a name drawn from the scenario's seed for numbered
/// instances), the hottest [`SHARD_BY_EXACT_RANKS`] one by one, so a
/// handful of instances reaches only some shards (balls into bins: 20
/// instances over 20 shards reach 20·(1 − (19/20)²⁰) ≈ 12.8 of them on
/// average over seeds).
fn shard_pick(scenario: &Scenario, table: &Table, keys: &KeySpace) -> ShardPick {
    let Some(by) = table.shard_by.as_deref() else {
        return ShardPick::Uniform;
    };
    if let Some(e) = keys.entities.iter().position(|(n, _)| n == by) {
        return ShardPick::InKey(e);
    }
    let n = table.shards.max(1);
    let Some(entity) = scenario.entities.iter().find(|e| e.name == by) else {
        return ShardPick::Uniform;
    };
    let mut weights = vec![0.0; n as usize];
    if entity.popularity == Popularity::New {
        // A fresh instance per operation: its hash is uniform.
        weights.iter_mut().for_each(|w| *w = 1.0 / f64::from(n));
    } else {
        let count = match &entity.popularity {
            Popularity::Weights { weights } => weights.len() as u64,
            _ => entity.count,
        }
        .max(1);
        let shares = RankShares::new(&entity.popularity, count);
        let order = entity.value_ranks();
        let salt = crate::store::hash::fmix64(
            scenario.simulation.seed ^ crate::store::hash::key_hash(by.as_bytes()),
        );
        let mut placed = 0.0;
        for r in 1..=count.min(SHARD_BY_EXACT_RANKS) {
            let name = match order.get((r - 1) as usize) {
                Some(&v) => entity.values[v as usize].clone(),
                None => (crate::store::hash::fmix64(salt ^ r) % 1_000_000_000_000).to_string(),
            };
            let share = shares.share(r);
            weights[super::stream::shard_of(&name, n) as usize] += share;
            placed += share;
        }
        let rest = (1.0 - placed).max(0.0) / f64::from(n);
        weights.iter_mut().for_each(|w| *w += rest);
    }
    ShardPick::Outside {
        entity: by.to_string(),
        weights,
    }
}

/// What a table's requests reach beyond their key: the shard pick, the
/// count buckets a query reads, and for a scan the day's (partitions,
/// stored bytes, stored items).
struct Reach<'a> {
    pick: &'a ShardPick,
    count: Option<CountBuckets>,
    scan: Option<(usize, f64, f64)>,
}

/// A count-bucketed table's busiest key on the simulated day.
#[derive(Debug, Clone, Copy)]
struct CountBuckets {
    /// Items per bucket.
    n: f64,
    /// The busiest key's items by the day.
    items: f64,
    /// The items it adds per day.
    per_day: f64,
}

impl CountBuckets {
    /// Buckets a query of the busiest key reads: all written so far (a
    /// full-history read), or with a `range` those its last `range` of
    /// writes fill, ⌈items ÷ N⌉, at least 1, at most [`MAX_FAN_OUT`].
    fn buckets(&self, range_s: Option<f64>) -> u32 {
        let items = match range_s {
            Some(r) => self.items.min(self.per_day * r / super::stream::DAY_S),
            None => self.items,
        };
        (items / self.n.max(1.0))
            .ceil()
            .clamp(1.0, crate::scenario::limits::MAX_FAN_OUT) as u32
    }
}

fn stream(
    scenario: &Scenario,
    store: &dyn StoreModel,
    keys: &KeySpace,
    table: &Table,
    (pi, p): (usize, &AccessPattern),
    reach: &Reach<'_>,
    by_tag: bool,
) -> Stream {
    // The engine walks the ranks of the `by` entity when the key names it,
    // else of the key's first entity; every other entity of the key takes
    // its own popularity, independently ([`Combos`]).
    let driver =
        p.by.as_ref()
            .and_then(|by| keys.entities.iter().position(|(n, _)| n == by))
            .or((!keys.entities.is_empty()).then_some(0));
    // Where the store hashes part of the key (a Redis Cluster hash tag),
    // only the entities inside it move a key: a tag value's requests land
    // together, whichever entity outside it they name. The driver is then
    // one of them (each entity takes its own popularity either way).
    let hashed = keys.hashed_entities().filter(|_| by_tag);
    let driver = match &hashed {
        Some(inside) if driver.is_some_and(|d| !inside.contains(&d)) => inside.first().copied(),
        Some(inside) if inside.is_empty() => None,
        _ => driver,
    };
    let popularity = |name: &str| {
        scenario
            .entities
            .iter()
            .find(|e| e.name == name)
            .map_or(Popularity::Uniform, |e| e.popularity.clone())
    };
    // On a ranged store, `{customer}#{time}`'s requests go by the prefix:
    // the entities past `{time}` do not move a key's position.
    let prefix = hashed.or_else(|| {
        keys.fresh
            .then(|| prefix_entities(scenario, store, keys, p))
            .flatten()
    });
    let (shares, combos) = match driver {
        Some(d) => {
            let shares = RankShares::new(&popularity(&keys.entities[d].0), keys.entities[d].1);
            let others: Vec<OtherEntity> = keys
                .entities
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != d && prefix.as_ref().is_none_or(|pre| pre.contains(i)))
                .map(|(index, (name, count))| OtherEntity {
                    index,
                    count: *count,
                    shares: RankShares::new(&popularity(name), *count),
                })
                .collect();
            (shares, Combos::of(&others))
        }
        // A literal hash tag: every key on one slot, as one key.
        None if prefix.as_ref().is_some_and(Vec::is_empty) => (
            RankShares::new(&Popularity::Uniform, 1),
            Combos::uniform(1.0),
        ),
        None => {
            let n = keys.cardinality();
            let shares = if n >= 1e18 {
                RankShares::new(&Popularity::New, 1)
            } else {
                RankShares::new(&Popularity::Uniform, n as u64)
            };
            (shares, Combos::uniform(1.0))
        }
    };
    let fresh_keys = keys.fresh || shares.is_fresh();
    let shares = if keys.fresh && prefix.is_none() {
        RankShares::new(&Popularity::New, 1)
    } else {
        shares
    };
    let recency_ordered = driver.is_some_and(|d| {
        scenario.entities.iter().any(|e| {
            e.name == keys.entities[d].0 && matches!(e.popularity, Popularity::Latest { .. })
        })
    });
    if p.operation == Operation::Scan {
        return scan_stream(store, pi, p, reach.scan.unwrap_or((1, 0.0, 0.0)));
    }
    let mut subkeys = subkeys(table, p, reach);
    let mut fan: f64 = subkeys.iter().map(|s| s.weight).sum();
    if fan > 1.0 && one_range(store, &keys.template) {
        // One range of the key space: one request reads it (its items
        // split over the sub-keys as before).
        subkeys.iter_mut().for_each(|s| s.weight /= fan);
        fan = 1.0;
    }
    if by_tag && subkeys.len() > 1 && !keys.subkeys_move() {
        // Buckets or shards outside a hash tag: each sub-request still
        // goes, all to the tag's slot, as one key of their weight.
        subkeys = vec![SubKey {
            shard: None,
            bucket_back: 0,
            weight: fan,
        }];
    }
    let severity = severity(scenario, store, table, pi, p, fan);
    let mut s = Stream {
        pattern: pi,
        name: p.name.clone(),
        is_write: p.operation.is_write(),
        busy_rate_per_s: p.rate_per_s * p.peak_factor,
        mean_rate_per_s: p.rate_per_s,
        driver,
        shares,
        fresh_keys,
        combos,
        subkeys,
        severity,
        recency_ordered,
        broadcast: store.broadcast(scenario, pi),
        is_query: p.operation == Operation::Query,
        rank_share_cache: Default::default(),
        single_draws_cache: Default::default(),
        moments_cache: Default::default(),
    };
    if !by_tag {
        super::cached::apply_cache(scenario, p, &mut s);
    }
    s
}

/// The entities (indices into the key space's) before the first `{time}`
/// / `{id}` of the key, where pattern `p`'s requests, each on a fresh key,
/// go by that entity prefix on a ranged store: a key whose `{time}` /
/// `{id}` follows an entity (`{customer}#{time}`) sorts each instance's
/// keys together, newest last, so an instance's inserts (and its queries,
/// which read the newest range: the assumption the monotonic keys' MaxKey
/// chunk makes) all land where its range ends, as its one key
/// `{customer}#<time>` does ([`crate::store::mongodb::key_position`]), not
/// each on a partition of its own. Its requests then take the instance's
/// popularity, like a key without the monotonic part, and the entities
/// past the monotonic part make no combinations of their own (they do not
/// move the key's position). A get reads one of the instance's keys,
/// which all lie in its range: it takes the instance's popularity too, at
/// the same point (an instance whose range spans several chunks has its
/// gets on the one where the range ends: an assumption that overstates
/// that chunk, where spreading them over every chunk, as each on a key of
/// its own, lost the instance's skew). `None` where the key has no entity
/// before it, and where a `new` entity makes the keys fresh (its ids
/// follow no order).
fn prefix_entities(
    scenario: &Scenario,
    store: &dyn StoreModel,
    keys: &KeySpace,
    p: &AccessPattern,
) -> Option<Vec<usize>> {
    let monotonic = |part: &TemplatePart| matches!(part, TemplatePart::Time | TemplatePart::Id);
    let first = keys.template.iter().position(monotonic)?;
    let before: Vec<usize> = keys.template[..first]
        .iter()
        .filter_map(|part| match part {
            TemplatePart::Entity(name) => keys.entities.iter().position(|(n, _)| n == name),
            _ => None,
        })
        .collect();
    let any_new = keys.entities.iter().any(|(name, _)| {
        scenario
            .entities
            .iter()
            .any(|e| &e.name == name && e.popularity == Popularity::New)
    });
    let applies = store.ranged()
        && !before.is_empty()
        && !any_new
        && (p.operation.is_write() || matches!(p.operation, Operation::Query | Operation::Get));
    applies.then_some(before)
}

/// Whether a request's sub-keys (its buckets and shards) are one range of
/// the key space, which one request reads: on a ranged store (MongoDB
/// ranged shard keys, Bigtable row keys), a key whose `{bucket}` and
/// `{shard}` parts all follow its entities sorts one instance's buckets
/// and shards next to each other, so a query over an instance's last two
/// buckets is one targeted range query (MongoDB routes it to the shard
/// whose chunk holds the range; Bigtable reads one row range), not one a
/// bucket as on a hashed store.
fn one_range(store: &dyn StoreModel, template: &[TemplatePart]) -> bool {
    let last_entity = template
        .iter()
        .rposition(|p| matches!(p, TemplatePart::Entity(_)));
    let first_sub = template
        .iter()
        .position(|p| matches!(p, TemplatePart::Bucket | TemplatePart::Shard));
    store.ranged() && matches!((last_entity, first_sub), (Some(e), Some(s)) if e < s)
}

/// Bytes one page of a scan returns: 1 MB, DynamoDB's Scan page (other
/// stores page too: Cassandra by rows, MongoDB by 16 MiB batches).
pub const SCAN_PAGE_BYTES: f64 = 1e6;

/// A `scan`: every request reads every partition of the day's layout
/// (fan-out = `partitions`) and the day's stored bytes and items, in pages
/// of [`SCAN_PAGE_BYTES`] each costed by the store as a query returning
/// them: ⌈partition bytes ÷ 1 MB⌉ page requests per partition (at least
/// one), so one scan costs the units of the table's bytes, spread over its
/// pages rather than as one request per partition. Placed as one fresh
/// sub-key of that many requests, each partition takes the scan rate × its
/// pages.
fn scan_stream(
    store: &dyn StoreModel,
    pi: usize,
    p: &AccessPattern,
    (partitions, bytes, items): (usize, f64, f64),
) -> Stream {
    let parts = partitions.max(1) as f64;
    let per_partition = (bytes / parts).max(0.0);
    let pages = (per_partition / SCAN_PAGE_BYTES).ceil().max(1.0);
    let cost = store.read_cost(
        Operation::Query,
        store.request_consistency(p.written_consistency()),
        per_partition / pages,
        (items / parts / pages).max(0.0),
    );
    Stream {
        pattern: pi,
        name: p.name.clone(),
        is_write: false,
        busy_rate_per_s: p.rate_per_s * p.peak_factor,
        mean_rate_per_s: p.rate_per_s,
        driver: None,
        shares: RankShares::new(&Popularity::New, 1),
        fresh_keys: true,
        combos: Combos::uniform(1.0),
        subkeys: vec![SubKey {
            shard: None,
            bucket_back: 0,
            weight: parts * pages,
        }],
        severity: Severity::from_samples(vec![cost]),
        recency_ordered: false,
        broadcast: false,
        is_query: false,
        rank_share_cache: Default::default(),
        single_draws_cache: Default::default(),
        moments_cache: Default::default(),
    }
}

/// Sub-keys per request. Writes go to one shard (uniform: random suffix, or
/// hash(item id) mod N; `shard_by`: the shard of the item's instance) in
/// the current bucket. A `get` under calculated sharding reads one shard;
/// under random sharding it must query all N. A `query` reads every shard
/// of every bucket its range spans (a count bucket: every bucket written
/// so far). Under `shard_by`, a read `by` that entity reads its one shard,
/// any other read fans out to every shard.
fn subkeys(table: &Table, p: &AccessPattern, reach: &Reach<'_>) -> Vec<SubKey> {
    let n = table.shards.max(1);
    let sharded = n > 1;
    let shard = |i: u32| sharded.then_some(i);
    let buckets = match (p.operation, reach.count) {
        (Operation::Query, Some(c)) => {
            // Within MAX_FAN_OUT queries with the shards each bucket has.
            let most = crate::scenario::limits::MAX_FAN_OUT as u32 / n;
            c.buckets(p.range_s).min(most.max(1))
        }
        (Operation::Query, None) => bucket_span(table, p),
        _ => 1,
    };
    // (shard, weight) of one bucket's sub-keys.
    let per_bucket: Vec<(Option<u32>, f64)> = match (reach.pick, p.operation) {
        (ShardPick::InKey(_), _) => vec![(shard(0), 1.0)],
        (ShardPick::Outside { entity, weights }, op)
            if op.is_write() || p.by.as_deref() == Some(entity.as_str()) =>
        {
            weights
                .iter()
                .enumerate()
                .filter(|(_, w)| **w > 0.0)
                .map(|(i, w)| (shard(i as u32), *w))
                .collect()
        }
        (ShardPick::Outside { .. }, _) => (0..n).map(|i| (shard(i), 1.0)).collect(),
        (ShardPick::Uniform, Operation::Get)
            if table.shard_strategy == ShardStrategy::Calculated || !sharded =>
        {
            (0..n).map(|i| (shard(i), 1.0 / f64::from(n))).collect()
        }
        (ShardPick::Uniform, Operation::Get | Operation::Query) => {
            (0..n).map(|i| (shard(i), 1.0)).collect()
        }
        (ShardPick::Uniform, _) => (0..n).map(|i| (shard(i), 1.0 / f64::from(n))).collect(),
    };
    (0..buckets)
        .flat_map(|b| {
            per_bucket.iter().map(move |&(shard, weight)| SubKey {
                shard,
                bucket_back: b,
                weight,
            })
        })
        .collect()
}

/// Severities built in this process, by the text of everything they are
/// drawn from ([`severity`]): every checkpoint of a design, and every
/// design of a sweep that leaves the pattern's table and store alike,
/// builds the same ones. At most [`SEVERITY_MEMO`] are kept.
static SEVERITIES: std::sync::Mutex<Option<HashMap<String, Severity>>> =
    std::sync::Mutex::new(None);
/// Most severities [`SEVERITIES`] keeps (each up to about 1.5 MB).
const SEVERITY_MEMO: usize = 64;

/// [`drawn_severity`], remembered by what it is drawn from: the seed, the
/// pattern's index and every field but its rate (which checkpoints scale
/// and costs do not read), the table, the store model and the fan-out.
fn severity(
    scenario: &Scenario,
    store: &dyn StoreModel,
    table: &Table,
    pi: usize,
    p: &AccessPattern,
    fan: f64,
) -> Severity {
    let unrated = AccessPattern {
        rate_per_s: 0.0,
        ..p.clone()
    };
    let key = format!(
        "{}|{pi}|{:x}|{unrated:?}|{table:?}|{store:?}",
        scenario.simulation.seed,
        fan.to_bits()
    );
    let memo = || SEVERITIES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = memo().as_ref().and_then(|m| m.get(&key)) {
        return s.clone();
    }
    let s = drawn_severity(scenario, store, table, pi, p, fan);
    let mut m = memo();
    let m = m.get_or_insert_with(HashMap::new);
    if m.len() >= SEVERITY_MEMO {
        m.clear();
    }
    m.insert(key, s.clone());
    s
}

/// Units per sub-request, from [`SEVERITY_SAMPLES`] sampled requests. A read
/// sub-request returns items/fan-out items on average (⌊x⌋ or ⌈x⌉); an
/// `append` writes the item grown by one element.
fn drawn_severity(
    scenario: &Scenario,
    store: &dyn StoreModel,
    table: &Table,
    pi: usize,
    p: &AccessPattern,
    fan: f64,
) -> Severity {
    let seed = scenario.simulation.seed
        ^ 0x5EED_0000_0000_0000
        ^ (pi as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let items = f64::from(p.items.max(1));
    let consistency = store.request_consistency(p.written_consistency());
    // A write also writes each local secondary index's entry, on the same
    // partition: 0, 1 or 2 index writes ([`AccessPattern::index_writes`]).
    let lsi_cost: f64 = table
        .indexes
        .iter()
        .enumerate()
        .filter(|(_, i)| i.local)
        .map(|(x, i)| {
            p.index_writes(x)
                * store.write_cost(
                    p.operation,
                    consistency,
                    crate::store::index_entry_bytes(table, i),
                )
        })
        .sum();
    // A read through a local secondary index returns its entries, costed by
    // their keys and projected attributes (DynamoDB Developer Guide,
    // "Provisioned throughput considerations for Local Secondary Indexes":
    // "the sum of all projected attribute sizes across all of the items
    // returned"); the entry's 100 B of overhead is storage only. A
    // projection of all attributes keeps each item's own size. A global
    // index's table reads its entries the same way (`unread_bytes_per_item`).
    let local_index = p
        .index
        .and_then(|x| table.indexes.get(x))
        .filter(|i| i.local && !p.operation.is_write());
    let entry = local_index
        .filter(|i| i.projection != Projection::All)
        .map(|i| crate::store::index_entry_read_bytes(table, i));
    let item_size = table.item_size.sampler();
    let unread = if p.operation.is_write() {
        0.0
    } else {
        table.unread_bytes_per_item
    };
    // The item as grown by appends, but for a put, which writes it anew.
    let grown = if p.operation == Operation::Put {
        0.0
    } else {
        table.appended_bytes_per_item
    };
    let item_bytes = |rng: &mut Xoshiro256PlusPlus| match entry {
        None if grown > 0.0 => item_size.sample(rng) - unread + grown,
        None => item_size.sample(rng) - unread,
        Some(bytes) => bytes,
    };
    let per_sub = if p.operation.is_write() {
        items
    } else {
        items / fan.max(1.0)
    };
    // Each item under a key of its own: a query reads a range of keys.
    let key_per_item = [TemplatePart::Time, TemplatePart::Id]
        .iter()
        .any(|t| table.partition_key.has(t));
    let n_samples =
        ((SEVERITY_MAX_ITEM_DRAWS / per_sub.max(1.0)) as usize).clamp(4096, SEVERITY_SAMPLES);
    // One buffer for every sample's item sizes (65,536 samples per stream).
    let mut sizes: Vec<f64> = Vec::new();
    let samples = (0..n_samples)
        .map(|_| {
            let whole = per_sub.floor();
            let n = whole
                + if rng.random::<f64>() < per_sub - whole {
                    1.0
                } else {
                    0.0
                };
            sizes.clear();
            sizes.extend((0..n as usize).map(|_| item_bytes(&mut rng)));
            match p.operation {
                // A Query rounds the summed size of the items it returns.
                Operation::Query if key_per_item => {
                    store.key_range_read_cost(consistency, sizes.iter().sum(), n)
                }
                Operation::Query => {
                    store.read_cost(p.operation, consistency, sizes.iter().sum(), n)
                }
                // A (batch) get rounds each item; an empty get still costs the minimum.
                Operation::Get if sizes.is_empty() => {
                    store.read_cost(p.operation, consistency, 0.0, 0.0)
                }
                Operation::Get => sizes
                    .iter()
                    .map(|&b| store.read_cost(p.operation, consistency, b, 1.0))
                    .sum(),
                Operation::Append => {
                    let grow = p.element_size.as_ref().map_or(0.0, |e| e.sample(&mut rng));
                    sizes
                        .iter()
                        .map(|&b| store.write_cost(p.operation, consistency, b + grow))
                        .sum()
                }
                _ => {
                    sizes
                        .iter()
                        .map(|&b| store.write_cost(p.operation, consistency, b))
                        .sum::<f64>()
                        + lsi_cost * sizes.len() as f64
                }
            }
        })
        .collect();
    Severity::from_samples(samples)
}

/// Derives trial `t`'s RNG seed from the base seed (SplitMix64 of both), so
/// every trial has its own stream whatever thread runs it.
pub fn trial_seed(seed: u64, trial: u32) -> u64 {
    let mut z = seed ^ (u64::from(trial).wrapping_add(1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(item_size: &str, rate: u32, seed: u64) -> Scenario {
        Scenario::from_str_at(
            &format!(
                "schema_version = 1\nname = \"x\"\n[store]\nkind = \"dynamodb\"\n\
                 [simulation]\nseed = {seed}\n[[entity]]\nname = \"u\"\ncount = 5\n\
                 [[table]]\nname = \"t\"\npartition_key = \"{{u}}\"\nsort_key = \"{{time}}\"\n\
                 item_size = {item_size}\n[[access_pattern]]\nname = \"q\"\ntable = \"t\"\n\
                 operation = \"query\"\nitems = 7\nrate = {rate}\n"
            ),
            "x.toml",
        )
        .expect("scenario")
    }

    #[test]
    fn remembered_severities_are_the_ones_drawn_and_told_apart() {
        let lognormal = "{ distribution = \"lognormal\", median = \"2KB\", p99 = \"9KB\" }";
        let build = |s: &Scenario, fan: f64| {
            let model = crate::store::Model::new(&s.store, "x.toml").expect("model");
            let (t, p) = (&s.tables[0], &s.access_patterns[0]);
            (
                severity(s, model.store(), t, 0, p, fan),
                drawn_severity(s, model.store(), t, 0, p, fan),
            )
        };
        let base = scenario(lognormal, 100, 1);
        let (first, drawn) = build(&base, 1.0);
        assert!(first == drawn);
        // Asked again, and on a checkpoint whose rate is grown: the same.
        assert!(build(&base, 1.0).0 == drawn);
        assert!(build(&scenario(lognormal, 250, 1), 1.0).0 == drawn);
        // Another item size, seed or fan-out: its own draws.
        for (s, fan) in [
            (scenario("\"3KB\"", 100, 1), 1.0),
            (scenario(lognormal, 100, 2), 1.0),
            (base.clone(), 2.0),
        ] {
            let (remembered, drawn_again) = build(&s, fan);
            assert!(remembered == drawn_again);
            assert!(remembered != drawn);
        }
    }
}
