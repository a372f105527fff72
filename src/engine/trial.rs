//! One trial: draw a random world (which instances are popular and where
//! their keys land), then the requests of every window on every partition.
//!
//! Placement per stream, hottest ranks first:
//! - the head (the top [`HEAD_RANKS`] ranks) is placed key by key: each rank
//!   gets a distinct random instance, its key string is formatted and placed
//!   by the store's own function, so `keys.csv` names real keys;
//! - the next ranks, up to [`MAX_SINGLE_DRAWS`] sub-keys, each land on a
//!   uniformly random partition (what hashing a random instance does);
//! - the rest of the tail is placed as per-partition mass: mean share/P and
//!   the multinomial variance Σq²·(1/P)(1 − 1/P), drawn as normals projected
//!   onto the total (error bound reported in the summary).
//!
//! Requests per window on a partition are Poisson with the partition's summed
//! rate (Poisson splitting makes this exact for open arrivals), and their
//! units a compound sum over the stream's unit-cost distribution.

use super::plan::{Method, Plan, TablePlan};
use super::stream::Stream;
use super::window::{collapsed, draw_windows, Component, Limits, Outcome};
use super::world::{instance_ids, World, HEAD_RANKS};
use crate::dist::alias::{merge_cold, AliasTable};
use crate::results::{KeyLoad, Timeseries};
use crate::scenario::TemplatePart;
use crate::store::StoreModel;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Poisson, StandardNormal};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

/// Sub-keys beyond the head placed one by one on random partitions, per stream.
pub const MAX_SINGLE_DRAWS: u64 = 1 << 16;
/// Time steps kept in the representative trial's timeseries.
pub const TIMESERIES_STEPS: usize = 240;
/// Hottest keys kept as their own alias slots by the exact method.
pub const EXACT_KEYS_KEPT: usize = 1024;
/// Hot keys kept for `keys.csv`.
pub const HOT_KEYS: usize = 20;

/// What one trial produced for one table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableTrial {
    /// Peak over windows and partitions of utilization.
    pub peak_utilization: f64,
    /// Units over the partition limits, summed over windows and partitions.
    pub throttled_units: f64,
    /// Units requested, summed over windows and partitions.
    pub requested_units: f64,
    /// Peak over windows and partitions of write units ÷ the separate write
    /// limit (0 when the store has none).
    pub write_peak_utilization: f64,
    /// Write units over the separate write limits (after burst credit).
    pub throttled_write_units: f64,
    /// Write units requested, summed over windows and partitions.
    pub requested_write_units: f64,
    /// Expected share of requested units on the hottest partition.
    pub hottest_partition_share: f64,
    /// Per partition, sorted by mean utilization (hottest first):
    /// (read units/s, write units/s, mean utilization, peak utilization).
    pub ranked: Vec<[f64; 4]>,
    /// The same per node, when the store has nodes: cluster-wide, the load of
    /// every table of the trial on the shared nodes (see [`run_trial`]).
    pub node_ranked: Vec<[f64; 4]>,
    /// Cluster-wide bytes per node over the horizon, when the store tracks
    /// node memory (Redis; see [`super::memory`]). The same in every table.
    pub node_memory: Option<super::memory::MemoryTrial>,
    /// Growth outcome.
    pub growth: super::growth::GrowthTrial,
    /// Hot keys (representative trial only).
    pub hot_keys: Vec<KeyLoad>,
    /// Timeseries (representative trial only).
    pub timeseries: Option<Timeseries>,
    /// The table-level limit's outcome, when the plan has one.
    pub table_limit: Option<TableLimitTrial>,
}

/// What one trial's windows did against a table-level limit that changes
/// over simulated time (see [`super::plan::TableLimitPlan`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TableLimitTrial {
    /// Units over the table limit, summed over windows.
    pub throttled_units: f64,
    /// Highest window utilization of the table limit (table units ÷ limit).
    pub peak_utilization: f64,
    /// Seconds into the busy period at which the last stretch (a stationary
    /// segment: one step of the limit, one rate, one bucket) with a window
    /// over the limit ends; 0 when no window went over.
    pub clear_s: f64,
}

/// Per stream, the exact method's (weight, partition) entry per key.
type AliasEntries = Vec<Option<Vec<(f64, u32)>>>;

/// The representative trial's timeseries being filled: utilization and units
/// per row and step, and the number of steps.
type SeriesSink<'a> = (&'a mut Vec<Vec<f64>>, &'a mut Vec<Vec<f64>>, usize);

/// Partition rates of one stream in one segment: requests/s per partition.
struct Placed {
    per_partition: Vec<f64>,
    keys: Vec<(String, usize, f64)>,
    /// Append points of a monotonic key on a ranged store: (name, partition,
    /// requests/s), each one indivisible row for load splitting.
    appends: Vec<(String, usize, f64)>,
}

/// Cuts segments at the given window indices (sorted).
fn cut_at(segs: Vec<(usize, usize, i64, f64)>, cuts: &[usize]) -> Vec<(usize, usize, i64, f64)> {
    let mut out = Vec::with_capacity(segs.len() + cuts.len());
    for (a, b, k, m) in segs {
        let mut s = a;
        for &c in cuts.iter().filter(|&&c| c > a && c < b) {
            out.push((s, c, k, m));
            s = c;
        }
        out.push((s, b, k, m));
    }
    out
}

/// Runs trial `t` of `plan` for every table.
///
/// Tables share one cluster: after every table has drawn its own windows
/// (per-table partition numbers), the node rates of all tables are summed
/// per node and the node windows drawn once for the cluster
/// ([`cluster_nodes`]); every table's `node_ranked` then holds that
/// cluster-wide view. Those draws use their own stream (seeded from the
/// trial's), so they never shift a table's draws.
pub fn run_trial(plan: &Plan, store: &dyn StoreModel, t: u32) -> Vec<TableTrial> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(super::plan::trial_seed(plan.seed, t));
    let mut world = World::new(&mut rng);
    let (mut out, loads): (Vec<TableTrial>, Vec<NodeLoad>) = plan
        .tables
        .iter()
        .map(|table| run_table(plan, store, table, t == 0, &mut world, &mut rng))
        .unzip();
    if plan.tables.iter().any(|tp| tp.layout.nodes.is_some()) {
        let mut crng =
            Xoshiro256PlusPlus::seed_from_u64(super::plan::trial_seed(plan.seed ^ CLUSTER_SEED, t));
        let ranked = cluster_nodes(plan, &loads, &mut crng);
        let memory = store.key_overhead_bytes().and_then(|overhead| {
            super::memory::cluster_memory(plan, store, overhead, &mut world, &mut crng)
        });
        for (tt, tp) in out.iter_mut().zip(&plan.tables) {
            if tp.layout.nodes.is_some() {
                tt.node_ranked = ranked.clone();
                tt.node_memory = memory.clone();
            }
        }
    }
    out
}

/// Mixed into the trial seed for the cluster-wide node draws.
const CLUSTER_SEED: u64 = 0xC1u64 << 56 | 0x05_7E12;

/// One table's node rates, handed to [`cluster_nodes`].
#[derive(Debug, Default)]
pub struct NodeLoad {
    /// (first window, end window, `lam[node][stream]` requests/s) per segment.
    segments: Vec<(usize, usize, Vec<Vec<f64>>)>,
    /// Mean (read, write) units/s per node over the busy period.
    mean: Vec<[f64; 2]>,
    /// Exact method: (read, write) units per node in each window.
    exact: Vec<Vec<[f64; 2]>>,
}

/// The cluster's node load: per node, (read units/s, write units/s, mean
/// utilization, peak-window utilization), summed over every table, sorted
/// busiest first. The aggregated and windows methods draw each node's windows
/// from the summed per-stream rates (a node's windows are a compound Poisson
/// sum over all tables' streams, as one table's are over its streams); the
/// exact method adds the tables' per-window node units.
fn cluster_nodes(plan: &Plan, loads: &[NodeLoad], rng: &mut Xoshiro256PlusPlus) -> Vec<[f64; 4]> {
    let Some(nl) = plan.tables.iter().find_map(|tp| tp.layout.nodes.as_ref()) else {
        return Vec::new();
    };
    let n_nodes = nl.nodes;
    let per_window = |l: Option<f64>| l.map(|x| x * plan.window_s);
    let limits = Limits {
        read: per_window(nl.read_limit_per_s),
        write: per_window(nl.write_limit_per_s),
        combined: per_window(nl.combined_limit_per_s),
    };
    let mut mean = vec![[0.0f64; 2]; n_nodes];
    for l in loads {
        for (m, x) in mean.iter_mut().zip(&l.mean) {
            m[0] += x[0];
            m[1] += x[1];
        }
    }
    let mut peak = vec![0.0f64; n_nodes];
    if limits.any() {
        if plan.method == Method::Exact {
            for w in 0..plan.windows {
                for (n, pk) in peak.iter_mut().enumerate() {
                    let (mut r, mut wr) = (0.0, 0.0);
                    for l in loads {
                        if let Some(x) = l.exact.get(w).and_then(|row| row.get(n)) {
                            r += x[0];
                            wr += x[1];
                        }
                    }
                    *pk = pk.max(limits.apply(r, wr).0);
                }
            }
        } else {
            let mut cuts: Vec<usize> = loads
                .iter()
                .flat_map(|l| l.segments.iter().flat_map(|s| [s.0, s.1]))
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            let mut cursor = vec![0usize; loads.len()];
            for c in cuts.windows(2) {
                let (a, b) = (c[0], c[1]);
                // Each table's segment covering window `a`.
                for (l, k) in loads.iter().zip(cursor.iter_mut()) {
                    while *k + 1 < l.segments.len() && l.segments[*k].1 <= a {
                        *k += 1;
                    }
                }
                for (n, pk) in peak.iter_mut().enumerate() {
                    let mut comps = Vec::new();
                    for ((l, &k), tp) in loads.iter().zip(&cursor).zip(&plan.tables) {
                        let Some((s, e, lam)) = l.segments.get(k) else {
                            continue;
                        };
                        if a < *s || a >= *e {
                            continue;
                        }
                        let Some(row) = lam.get(n) else { continue };
                        for (st, &x) in tp.streams.iter().zip(row) {
                            if x > 0.0 {
                                comps.push(Component {
                                    lambda: x * plan.window_s,
                                    severity: &st.severity,
                                    is_write: st.is_write,
                                });
                            }
                        }
                    }
                    let o = if plan.method == Method::Windows {
                        draw_windows(&comps, &limits, b - a, rng, &mut |_, _, _| {})
                    } else {
                        collapsed(&comps, &limits, b - a, rng)
                    };
                    *pk = pk.max(o.peak_utilization);
                }
            }
        }
    }
    let mut ranked: Vec<[f64; 4]> = (0..n_nodes)
        .map(|n| {
            let mu = limits
                .apply(mean[n][0] * plan.window_s, mean[n][1] * plan.window_s)
                .0;
            [mean[n][0], mean[n][1], mu, peak[n]]
        })
        .collect();
    ranked.sort_by(|a, b| {
        b[2].total_cmp(&a[2])
            .then(b[3].total_cmp(&a[3]))
            .then((b[0] + b[1]).total_cmp(&(a[0] + a[1])))
    });
    ranked
}

/// Windows of each segment: a segment is a stretch where neither the current
/// time bucket nor the rate multiplier changes: (start, end, bucket, multiplier).
fn segments(plan: &Plan, table: &TablePlan) -> Vec<(usize, usize, i64, f64)> {
    let w = plan.windows;
    let mut buckets: Vec<(usize, usize, i64)> = match table.bucket_s {
        Some(b) if b < plan.window_s * w as f64 => {
            let mut out = Vec::new();
            let mut start = 0;
            while start < w {
                let bucket = ((start as f64 * plan.window_s) / b).floor() as i64;
                let end_t = (bucket + 1) as f64 * b;
                let end = ((end_t / plan.window_s).ceil() as usize).clamp(start + 1, w);
                out.push((start, end, bucket));
                start = end;
            }
            out
        }
        _ => vec![(0, w, 0)],
    };
    if plan.rate_profile.len() <= 1 {
        let m = plan.rate_profile.first().map_or(1.0, |p| p.2);
        return buckets.drain(..).map(|(a, b, k)| (a, b, k, m)).collect();
    }
    // Intersect bucket stretches with rate stretches.
    let mut out = Vec::new();
    for &(a, b, k) in &buckets {
        for &(c, d, m) in &plan.rate_profile {
            let (s, e) = (a.max(c), b.min(d));
            if e > s {
                out.push((s, e, k, m));
            }
        }
    }
    out
}

/// Cuts segments at every multiple of `every_s` seconds (split-for-heat steps).
fn split_at(
    segs: Vec<(usize, usize, i64, f64)>,
    every_s: Option<f64>,
    window_s: f64,
) -> Vec<(usize, usize, i64, f64)> {
    let Some(every) = every_s.filter(|e| *e > 0.0) else {
        return segs;
    };
    let step = ((every / window_s).round() as usize).max(1);
    let mut out = Vec::new();
    for (a, b, k, m) in segs {
        let mut s = a;
        while s < b {
            let e = ((s / step + 1) * step).min(b);
            out.push((s, e, k, m));
            s = e;
        }
    }
    out
}

/// Mean units per second of per-stream request rates.
fn stream_load(table: &TablePlan, rates: &[f64]) -> f64 {
    table
        .streams
        .iter()
        .zip(rates)
        .map(|(s, r)| r * s.severity.mean)
        .sum()
}

/// Per node, per-stream request rates of the partitions (all, or those not
/// in `skip`): writes reach every replica, reads `read_replicas` of them.
fn node_rates(
    table: &TablePlan,
    placed: &[Placed],
    nl: &crate::store::NodeLayout,
    p_count: usize,
    skip: Option<&[bool]>,
) -> Vec<Vec<f64>> {
    let n_nodes = nl.nodes;
    let mut node_lam = vec![vec![0.0f64; table.streams.len()]; n_nodes];
    for (p, replicas) in nl.replicas.iter().enumerate().take(p_count) {
        if skip.is_some_and(|s| s[p]) {
            continue;
        }
        let k = replicas.len().max(1) as f64;
        let read_share = (nl.read_replicas as f64 / k).min(1.0);
        for (si, s) in table.streams.iter().enumerate() {
            let lam = placed[si].per_partition[p];
            let f = if s.is_write { 1.0 } else { read_share };
            for &n in replicas {
                if n < n_nodes {
                    node_lam[n][si] += lam * f;
                }
            }
        }
    }
    node_lam
}

/// A segment's partitions after load splitting.
struct Rebalanced {
    /// Per partition: the per-stream request rates of its pieces, when split.
    pieces: Vec<Option<Vec<Vec<f64>>>>,
    /// Per node, per-stream request rates.
    node_lam: Vec<Vec<f64>>,
}

/// Splits every partition whose load exceeds `threshold` units/s down to
/// its rows and spreads them over the nodes; `None` when none is that hot.
///
/// A split partition's known rows (head keys placed one by one, append
/// points of monotonic keys; the same key string across streams is one row)
/// are indivisible: largest first, each goes to the least-loaded node
/// (lowest index on ties), starting from the loads of the partitions that
/// stay whole on their nodes. The rest of a split partition (its tail mass:
/// many small rows) is divisible: it is water-filled onto the least-loaded
/// nodes, and each node's share becomes ⌈load / threshold⌉ equal pieces.
fn rebalance(
    table: &TablePlan,
    placed: &[Placed],
    nl: &crate::store::NodeLayout,
    threshold: f64,
) -> Option<Rebalanced> {
    let p_count = table.layout.partitions.max(1);
    let ns = table.streams.len();
    let tablet = |p: usize| -> Vec<f64> { placed.iter().map(|pl| pl.per_partition[p]).collect() };
    let split: Vec<bool> = (0..p_count)
        .map(|p| stream_load(table, &tablet(p)) > threshold)
        .collect();
    if !split.contains(&true) {
        return None;
    }
    let mut node_lam = node_rates(table, placed, nl, p_count, Some(&split));
    let mut node_load: Vec<f64> = node_lam.iter().map(|l| stream_load(table, l)).collect();
    if node_load.is_empty() {
        return None;
    }
    // Rows of split partitions, merged by key across streams (BTreeMap: a fixed order).
    let mut rows: std::collections::BTreeMap<(usize, &str), Vec<f64>> = Default::default();
    for (si, pl) in placed.iter().enumerate() {
        for (key, part, rate) in pl.keys.iter().chain(pl.appends.iter()) {
            if *part < p_count && split[*part] {
                rows.entry((*part, key.as_str()))
                    .or_insert_with(|| vec![0.0; ns])[si] += rate;
            }
        }
    }
    let mut rest: Vec<Vec<f64>> = (0..p_count)
        .map(|p| if split[p] { tablet(p) } else { vec![0.0; ns] })
        .collect();
    for ((p, _), r) in &rows {
        for (x, y) in rest[*p].iter_mut().zip(r) {
            *x = (*x - y).max(0.0);
        }
    }
    let mut pieces: Vec<Option<Vec<Vec<f64>>>> = split.iter().map(|&b| b.then(Vec::new)).collect();
    let mut ordered: Vec<(f64, usize, &str, Vec<f64>)> = rows
        .into_iter()
        .map(|((p, k), r)| (stream_load(table, &r), p, k, r))
        .filter(|x| x.0 > 0.0)
        .collect();
    ordered.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(b.2)));
    let least = |loads: &[f64]| -> usize {
        (0..loads.len())
            .min_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b)))
            .unwrap_or(0)
    };
    for (load, p, _, r) in ordered {
        let n = least(&node_load);
        node_load[n] += load;
        for (x, y) in node_lam[n].iter_mut().zip(&r) {
            *x += y;
        }
        if let Some(v) = pieces[p].as_mut() {
            v.push(r);
        }
    }
    let rest_loads: Vec<f64> = rest.iter().map(|r| stream_load(table, r)).collect();
    let total_rest: f64 = rest_loads.iter().sum();
    if total_rest > 0.0 {
        let fill = water_fill(&node_load, total_rest);
        for (n, a) in fill.iter().enumerate().filter(|(_, a)| **a > 0.0) {
            let f = a / total_rest;
            for p in (0..p_count).filter(|&p| split[p] && rest_loads[p] > 0.0) {
                let share: Vec<f64> = rest[p].iter().map(|x| x * f).collect();
                for (x, y) in node_lam[n].iter_mut().zip(&share) {
                    *x += y;
                }
                let k = (rest_loads[p] * f / threshold).ceil().max(1.0);
                if let Some(v) = pieces[p].as_mut() {
                    let piece: Vec<f64> = share.iter().map(|x| x / k).collect();
                    v.extend(std::iter::repeat_n(piece, k as usize));
                }
            }
        }
    }
    Some(Rebalanced { pieces, node_lam })
}

/// Amounts to add to each of `loads` so that `amount` in all raises the
/// lowest ones to one common level (water-filling).
///
/// ```text
/// loads [1, 3, 0], amount 2 → level 1.5 → [0.5, 0, 1.5]
/// ```
fn water_fill(loads: &[f64], amount: f64) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..loads.len()).collect();
    idx.sort_by(|&a, &b| loads[a].total_cmp(&loads[b]).then(a.cmp(&b)));
    let (mut sum, mut level) = (0.0, 0.0);
    for (k, &i) in idx.iter().enumerate() {
        sum += loads[i];
        level = (amount + sum) / (k + 1) as f64;
        if k + 1 == idx.len() || level <= loads[idx[k + 1]] {
            break;
        }
    }
    loads.iter().map(|l| (level - l).max(0.0)).collect()
}

fn run_table(
    plan: &Plan,
    store: &dyn StoreModel,
    table: &TablePlan,
    representative: bool,
    world: &mut World,
    rng: &mut Xoshiro256PlusPlus,
) -> (TableTrial, NodeLoad) {
    let p_count = table.layout.partitions.max(1);
    // Split-for-heat: only item collections (more than one item per key) can split.
    let split = store
        .split_for_heat()
        .filter(|_| table.growth.max_items.is_none_or(|m| m > 1.0));
    let segs = split_at(segments(plan, table), split.map(|s| s.0), plan.window_s);
    // Load splitting (Bigtable): hot tablets split down to rows, from this window on.
    let load_split = store
        .load_split()
        .filter(|_| table.layout.nodes.is_some() && plan.method != Method::Exact);
    let split_from =
        load_split.map(|l| ((l.delay_s / plan.window_s).round() as usize).min(plan.windows));
    let segs = cut_at(segs, split_from.as_slice());
    // A table-level limit that changes over time: segments end where it does.
    let mut limit_cuts: Vec<usize> = table
        .table_limit
        .iter()
        .flat_map(|l| l.stretches.iter().flat_map(|s| [s.0, s.1]))
        .collect();
    limit_cuts.sort_unstable();
    limit_cuts.dedup();
    let segs = cut_at(segs, &limit_cuts);
    let mut table_out = table
        .table_limit
        .as_ref()
        .map(|_| TableLimitTrial::default());
    let per_window = |l: Option<f64>| l.map(|x| x * plan.window_s);
    let partition_limits = Limits {
        read: per_window(table.layout.read_limit_per_s),
        write: per_window(table.layout.write_limit_per_s),
        combined: per_window(table.layout.combined_limit_per_s),
    };
    let nodes = table.layout.nodes.as_ref();
    let node_limits = nodes.map_or(Limits::default(), |n| Limits {
        read: per_window(n.read_limit_per_s),
        write: per_window(n.write_limit_per_s),
        combined: per_window(n.combined_limit_per_s),
    });
    // The servers whose windows are simulated: partitions when they have
    // limits, nodes when they do; partitions (unlimited) otherwise.
    let simulate_nodes = nodes.is_some() && node_limits.any();
    let simulate_partitions = partition_limits.any() || !simulate_nodes;
    let n_nodes = nodes.map_or(0, |n| n.nodes);
    let steps = TIMESERIES_STEPS.min(plan.windows).max(1);
    let rows = if simulate_partitions {
        p_count
    } else {
        n_nodes
    };
    let mut ts_util = vec![vec![0.0f64; steps]; if representative { rows } else { 0 }];
    let mut ts_units = vec![vec![0.0f64; steps]; if representative { rows } else { 0 }];
    let mut peak = vec![0.0f64; p_count];
    let mut node_peak = vec![0.0f64; n_nodes];
    let mut mean_read = vec![0.0f64; p_count];
    let mut mean_write = vec![0.0f64; p_count];
    // Per partition, units of its hottest piece (the whole partition unless load-split).
    let mut piece_mean = vec![[0.0f64; 2]; p_count];
    let mut node_mean = vec![[0.0f64; 2]; n_nodes];
    let mut load = NodeLoad::default();
    if nodes.is_some() && plan.method == Method::Exact {
        load.exact = vec![vec![[0.0f64; 2]; n_nodes]; plan.windows];
    }
    let mut total = Outcome::default();
    // Burst credit per partition, in units: burst_seconds of its limits, full at the start.
    let burst_units = store.burst_seconds()
        * (table.layout.read_limit_per_s.unwrap_or(0.0)
            + table.layout.write_limit_per_s.unwrap_or(0.0)
            + table.layout.combined_limit_per_s.unwrap_or(0.0));
    let mut burst_left = vec![burst_units; p_count];
    let mut key_units: HashMap<String, (usize, f64, f64)> = HashMap::new();
    // Expected requests per second over the whole table, time-averaged.
    let mut expected_rate = 0.0f64;

    let exact = plan.method == Method::Exact;
    // One placement per bucket: the keys of a bucket stay where they land
    // while the rate multiplier changes.
    let mut placements: HashMap<i64, (Vec<Placed>, AliasEntries)> = HashMap::new();
    for &(start, end, bucket, mult) in &segs {
        if let std::collections::hash_map::Entry::Vacant(slot) = placements.entry(bucket) {
            let mut entries: AliasEntries =
                table.streams.iter().map(|_| exact.then(Vec::new)).collect();
            let placed: Vec<Placed> = table
                .streams
                .iter()
                .zip(entries.iter_mut())
                .map(|(s, e)| {
                    place_stream(
                        store,
                        table,
                        s,
                        bucket,
                        representative || load_split.is_some(),
                        world,
                        rng,
                        e.as_mut(),
                    )
                })
                .collect();
            slot.insert((placed, entries));
        }
        let Some((base, entries)) = placements.get(&bucket) else {
            continue;
        };
        let scaled;
        let placed: &[Placed] = if mult == 1.0 {
            base
        } else {
            scaled = base
                .iter()
                .map(|pl| Placed {
                    per_partition: pl.per_partition.iter().map(|x| x * mult).collect(),
                    keys: pl
                        .keys
                        .iter()
                        .map(|(k, p, r)| (k.clone(), *p, r * mult))
                        .collect(),
                    appends: pl
                        .appends
                        .iter()
                        .map(|(k, p, r)| (k.clone(), *p, r * mult))
                        .collect(),
                })
                .collect::<Vec<_>>();
            &scaled
        };

        let seg_windows = end - start;
        let seg_frac = seg_windows as f64 / plan.windows as f64;
        // Units per window the whole table may take in this segment, if limited.
        let table_cap = table.table_limit.as_ref().and_then(|l| l.at_window(start));
        for (s, pl) in table.streams.iter().zip(placed.iter()) {
            for (key, part, rate) in pl.keys.iter().filter(|_| representative) {
                let e = key_units.entry(key.clone()).or_insert((*part, 0.0, 0.0));
                e.1 += rate * seg_frac;
                e.2 += rate * s.severity.mean * seg_frac;
            }
            expected_rate += pl.per_partition.iter().sum::<f64>() * seg_frac;
            for p in 0..p_count {
                let units = pl.per_partition[p] * s.severity.mean * seg_frac;
                if s.is_write {
                    mean_write[p] += units;
                } else {
                    mean_read[p] += units;
                }
            }
        }
        // Load splitting: hot partitions become pieces on the least-loaded nodes.
        let rebalanced = match (load_split, nodes, split_from) {
            (Some(ls), Some(nl), Some(from)) if start >= from => {
                rebalance(table, placed, nl, ls.threshold_per_s)
            }
            _ => None,
        };
        for (p, pm) in piece_mean.iter_mut().enumerate() {
            let hottest = rebalanced
                .as_ref()
                .and_then(|r| r.pieces[p].as_ref())
                .and_then(|pieces| {
                    pieces
                        .iter()
                        .max_by(|a, b| stream_load(table, a).total_cmp(&stream_load(table, b)))
                });
            for (si, s) in table.streams.iter().enumerate() {
                let lam = hottest.map_or(placed[si].per_partition[p], |h| h[si]);
                pm[usize::from(s.is_write)] += lam * s.severity.mean * seg_frac;
            }
        }
        // Node rates: writes reach every replica; reads reach read_replicas of them.
        let mut node_lam = vec![vec![0.0f64; table.streams.len()]; n_nodes];
        if let Some(nl) = nodes {
            match &rebalanced {
                Some(r) => node_lam.clone_from(&r.node_lam),
                None => node_lam = node_rates(table, placed, nl, p_count, None),
            }
            for (n, lams) in node_lam.iter().enumerate() {
                for (si, s) in table.streams.iter().enumerate() {
                    node_mean[n][usize::from(s.is_write)] += lams[si] * s.severity.mean * seg_frac;
                }
            }
            if !exact {
                load.segments.push((start, end, node_lam.clone()));
            }
        }
        if exact {
            let (o, t) = exact_segment(
                plan,
                table,
                placed,
                entries,
                (start, end),
                (&partition_limits, &node_limits, table_cap),
                (simulate_partitions, simulate_nodes),
                (&mut peak, &mut node_peak),
                &mut load.exact,
                &mut burst_left,
                representative.then_some((&mut ts_util, &mut ts_units, steps)),
                rng,
            );
            total.merge(o);
            if let (Some(tl), Some(t)) = (table_out.as_mut(), t) {
                tl.record(&t, end, plan.window_s);
            }
            continue;
        }
        let comps_of = |lams: &dyn Fn(usize) -> f64| -> Vec<Component<'_>> {
            table
                .streams
                .iter()
                .enumerate()
                .map(|(si, s)| Component {
                    lambda: lams(si) * plan.window_s,
                    severity: &s.severity,
                    is_write: s.is_write,
                })
                .filter(|c| c.lambda > 0.0)
                .collect()
        };
        let mut run_server =
            |comps: &[Component<'_>], limits: &Limits, row: usize, rng: &mut Xoshiro256PlusPlus| {
                if representative || plan.method == Method::Windows {
                    let mut rec = |i: usize, util: f64, units: f64| {
                        if representative {
                            let step = (start + i) * steps / plan.windows;
                            if util > ts_util[row][step] {
                                ts_util[row][step] = util;
                            }
                            ts_units[row][step] += units;
                        }
                    };
                    draw_windows(comps, limits, seg_windows, rng, &mut rec)
                } else {
                    collapsed(comps, limits, seg_windows, rng)
                }
            };
        // This segment's outcome over its servers (partitions or nodes).
        let mut seg = Outcome::default();
        if simulate_partitions {
            // Split-for-heat steps available at this segment's start.
            let steps = split.map_or(0.0, |(delay, _, _)| {
                ((start as f64 * plan.window_s) / delay).floor()
            });
            for (p, pk) in peak.iter_mut().enumerate() {
                if let Some(pieces) = rebalanced.as_ref().and_then(|r| r.pieces[p].as_ref()) {
                    // A split partition: each piece is its own server under the limit.
                    for piece in pieces {
                        let comps = comps_of(&|si| piece[si]);
                        let o = run_server(&comps, &partition_limits, p, rng);
                        *pk = pk.max(o.peak_utilization);
                        total.merge(o);
                    }
                    continue;
                }
                let comps = comps_of(&|si| placed[si].per_partition[p]);
                let limits = match split {
                    Some((_, read_step, write_step)) if steps > 0.0 => {
                        // A hot partition gains a step per delay, up to its load.
                        let load = |w: bool| -> f64 {
                            table
                                .streams
                                .iter()
                                .zip(placed.iter())
                                .filter(|(st, _)| st.is_write == w)
                                .map(|(st, pl)| pl.per_partition[p] * st.severity.mean)
                                .sum()
                        };
                        let grow = |base: Option<f64>, load: f64, step: f64| {
                            base.map(|b| {
                                let need = ((load - b) / step).ceil().max(0.0);
                                b + need.min(steps) * step
                            })
                        };
                        Limits {
                            read: grow(table.layout.read_limit_per_s, load(false), read_step)
                                .map(|x| x * plan.window_s),
                            write: grow(table.layout.write_limit_per_s, load(true), write_step)
                                .map(|x| x * plan.window_s),
                            combined: partition_limits.combined,
                        }
                    }
                    _ => partition_limits,
                };
                let mut o = run_server(&comps, &limits, p, rng);
                *pk = pk.max(o.peak_utilization);
                // Burst credit: the partition's banked capacity absorbs its first excess.
                let spend = o.throttled_units.min(burst_left[p]);
                o.spend_burst(spend);
                burst_left[p] -= spend;
                seg.merge(o);
            }
        }
        // Without per-partition limits the table's own peak and throttling
        // are its load on the nodes; with them, the partitions'. Node peaks
        // are judged cluster-wide (run_trial, hot_node).
        if let (Some(_), true, false) = (nodes, simulate_nodes, simulate_partitions) {
            for n in 0..n_nodes {
                let comps = comps_of(&|si| node_lam[n][si]);
                let o = run_server(&comps, &node_limits, n, rng);
                node_peak[n] = node_peak[n].max(o.peak_utilization);
                seg.merge(o);
            }
        }
        if let (Some(cap), Some(tl)) = (table_cap, table_out.as_mut()) {
            // The table's units summed over its partitions: one compound
            // Poisson stream per pattern at the pattern's total rate.
            let comps = comps_of(&|si| placed[si].per_partition.iter().sum());
            let limits = Limits {
                combined: Some(cap),
                ..Limits::default()
            };
            let o = if representative || plan.method == Method::Windows {
                draw_windows(&comps, &limits, seg_windows, rng, &mut |_, _, _| {})
            } else {
                collapsed(&comps, &limits, seg_windows, rng)
            };
            tl.record(&o, end, plan.window_s);
            // Over both limits at once, a window loses the larger excess.
            seg.throttled_units = seg.throttled_units.max(o.throttled_units);
            seg.peak_utilization = seg.peak_utilization.max(o.peak_utilization);
        }
        total.merge(seg);
    }

    let mut ranked: Vec<[f64; 4]> = (0..p_count)
        .map(|p| {
            let mu = if simulate_partitions {
                partition_limits
                    .apply(
                        piece_mean[p][0] * plan.window_s,
                        piece_mean[p][1] * plan.window_s,
                    )
                    .0
            } else {
                0.0
            };
            [mean_read[p], mean_write[p], mu, peak[p]]
        })
        .collect();
    let total_units: f64 = ranked.iter().map(|r| r[0] + r[1]).sum();
    let hottest_partition_share = if total_units > 0.0 {
        ranked.iter().map(|r| r[0] + r[1]).fold(0.0, f64::max) / total_units
    } else {
        0.0
    };
    ranked.sort_by(|a, b| {
        b[2].total_cmp(&a[2])
            .then(b[3].total_cmp(&a[3]))
            .then((b[0] + b[1]).total_cmp(&(a[0] + a[1])))
    });
    let mut node_ranked: Vec<[f64; 4]> = (0..n_nodes)
        .map(|n| {
            let mu = node_limits
                .apply(
                    node_mean[n][0] * plan.window_s,
                    node_mean[n][1] * plan.window_s,
                )
                .0;
            [node_mean[n][0], node_mean[n][1], mu, node_peak[n]]
        })
        .collect();
    node_ranked.sort_by(|a, b| {
        b[2].total_cmp(&a[2])
            .then(b[3].total_cmp(&a[3]))
            .then((b[0] + b[1]).total_cmp(&(a[0] + a[1])))
    });

    let timeseries = representative.then(|| {
        let windows_per_step = plan.windows as f64 / steps as f64;
        Timeseries {
            step_s: plan.window_s * windows_per_step,
            utilization: ts_util,
            units_per_s: ts_units
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|u| u / (windows_per_step * plan.window_s))
                        .collect()
                })
                .collect(),
            row_label: if simulate_partitions {
                "partition"
            } else {
                "node"
            }
            .to_string(),
        }
    });
    let hot_keys = if representative {
        hot_keys(key_units, expected_rate, plan, rng)
    } else {
        Vec::new()
    };
    load.mean = node_mean;
    let trial = TableTrial {
        peak_utilization: total.peak_utilization,
        throttled_units: total.throttled_units,
        requested_units: total.requested_units,
        write_peak_utilization: total.write_peak_utilization,
        throttled_write_units: total.throttled_write_units,
        requested_write_units: total.requested_write_units,
        hottest_partition_share,
        ranked,
        node_ranked,
        node_memory: None,
        growth: table.growth.simulate(rng),
        hot_keys,
        timeseries,
        table_limit: table_out,
    };
    (trial, load)
}

impl TableLimitTrial {
    /// Adds one segment's outcome against the table limit; the segment ends at window `end`.
    fn record(&mut self, o: &Outcome, end: usize, window_s: f64) {
        self.throttled_units += o.throttled_units;
        self.peak_utilization = self.peak_utilization.max(o.peak_utilization);
        if o.throttled_units > 0.0 {
            self.clear_s = end as f64 * window_s;
        }
    }
}

/// Per-request sampling of one segment (the `exact` method): each request
/// draws its key from the stream's alias table over every key (fused with the
/// key's partition), and its units from the cost distribution.
#[allow(clippy::too_many_arguments)]
fn exact_segment(
    plan: &Plan,
    table: &TablePlan,
    placed: &[Placed],
    entries: &[Option<Vec<(f64, u32)>>],
    (start, end): (usize, usize),
    (partition_limits, node_limits, table_cap): (&Limits, &Limits, Option<f64>),
    (simulate_partitions, simulate_nodes): (bool, bool),
    (peak, node_peak): (&mut [f64], &mut [f64]),
    node_windows: &mut [Vec<[f64; 2]>],
    burst_left: &mut [f64],
    mut series: Option<SeriesSink<'_>>,
    rng: &mut Xoshiro256PlusPlus,
) -> (Outcome, Option<Outcome>) {
    let p_count = table.layout.partitions.max(1);
    // Keys are drawn one by one; cold keys sharing a partition share a slot.
    let aliases: Vec<Option<AliasTable>> = entries
        .iter()
        .map(|e| {
            e.as_ref()
                .and_then(|v| AliasTable::new(&merge_cold(v, EXACT_KEYS_KEPT, p_count)))
        })
        .collect();
    let samplers: Vec<Option<Poisson<f64>>> = placed
        .iter()
        .map(|pl| {
            let lam = pl.per_partition.iter().sum::<f64>() * plan.window_s;
            (lam > 0.0).then(|| Poisson::new(lam).ok()).flatten()
        })
        .collect();
    let nodes = table.layout.nodes.as_ref();
    let n_nodes = nodes.map_or(0, |n| n.nodes);
    let mut out = Outcome::default();
    let mut r_units = vec![0.0f64; p_count];
    let mut w_units = vec![0.0f64; p_count];
    let mut node_r = vec![0.0f64; n_nodes];
    let mut node_w = vec![0.0f64; n_nodes];
    let mut table_out = table_cap.map(|_| Outcome::default());
    // Reads reach `read_replicas` of a partition's replicas: drawn per
    // request when some partition has more replicas than that.
    let per_request_reads = simulate_nodes
        && nodes.is_some_and(|nl| {
            nl.read_replicas < nl.replicas.iter().map(Vec::len).max().unwrap_or(0)
        });
    for wi in start..end {
        for (si, s) in table.streams.iter().enumerate() {
            let (Some(alias), Some(pois)) = (&aliases[si], &samplers[si]) else {
                continue;
            };
            let n: f64 = pois.sample(rng);
            out.requests += n;
            // A read on a replicated store reaches `read_replicas` of its
            // partition's replicas, drawn per request (the aggregated method
            // thins the Poisson arrivals the same way).
            let replicated_read = nodes.filter(|_| per_request_reads && !s.is_write);
            if let Some(nl) = replicated_read {
                for _ in 0..n as u64 {
                    let p = alias.sample(rng) as usize;
                    let u = if s.severity.constant {
                        s.severity.mean
                    } else {
                        s.severity.sample_one(rng)
                    };
                    r_units[p] += u;
                    let reps = &nl.replicas[p];
                    let k = reps.len();
                    let m = nl.read_replicas.min(k);
                    if m >= k {
                        for &node in reps.iter().filter(|&&x| x < n_nodes) {
                            node_r[node] += u;
                        }
                        continue;
                    }
                    // m distinct replicas, uniformly: a partial Fisher–Yates over k ≤ a few.
                    let mut idx: [usize; 16] = std::array::from_fn(|i| i);
                    let kk = k.min(16);
                    for j in 0..m.min(kk) {
                        let pick = j + rng.random_range(0..kk - j);
                        idx.swap(j, pick);
                        let node = reps[idx[j]];
                        if node < n_nodes {
                            node_r[node] += u;
                        }
                    }
                }
                continue;
            }
            let units = if s.is_write {
                &mut w_units
            } else {
                &mut r_units
            };
            if s.severity.constant {
                let c = s.severity.mean;
                for _ in 0..n as u64 {
                    units[alias.sample(rng) as usize] += c;
                }
            } else {
                for _ in 0..n as u64 {
                    let p = alias.sample(rng) as usize;
                    units[p] += s.severity.sample_one(rng);
                }
            }
        }
        let mut record = |row: usize, util: f64, units: f64| {
            if let Some((ts_util, ts_units, steps)) = series.as_mut() {
                let step = wi * *steps / plan.windows;
                if util > ts_util[row][step] {
                    ts_util[row][step] = util;
                }
                ts_units[row][step] += units;
            }
        };
        // Units this window loses on its servers (partitions or nodes).
        let mut window_over = 0.0;
        if simulate_partitions {
            for p in 0..p_count {
                let (util, over) = partition_limits.apply(r_units[p], w_units[p]);
                peak[p] = peak[p].max(util);
                out.peak_utilization = out.peak_utilization.max(util);
                let spend = over.min(burst_left[p]);
                burst_left[p] -= spend;
                window_over += over - spend;
                out.requested_units += r_units[p] + w_units[p];
                let (w_util, w_over) = partition_limits.write_excess(w_units[p]);
                out.write_peak_utilization = out.write_peak_utilization.max(w_util);
                if over > 0.0 {
                    out.throttled_write_units += w_over * (1.0 - spend / over);
                }
                out.requested_write_units += w_units[p];
                record(p, util, r_units[p] + w_units[p]);
            }
        }
        if let (Some(nl), true) = (nodes, simulate_nodes) {
            for (p, replicas) in nl.replicas.iter().enumerate().take(p_count) {
                for &n in replicas.iter().filter(|&&n| n < n_nodes) {
                    // Otherwise drawn per request above.
                    if !per_request_reads {
                        node_r[n] += r_units[p];
                    }
                    node_w[n] += w_units[p];
                }
            }
            for n in 0..n_nodes {
                if let Some(x) = node_windows.get_mut(wi).and_then(|row| row.get_mut(n)) {
                    *x = [node_r[n], node_w[n]];
                }
                let (util, over) = node_limits.apply(node_r[n], node_w[n]);
                node_peak[n] = node_peak[n].max(util);
                if !simulate_partitions {
                    out.peak_utilization = out.peak_utilization.max(util);
                    window_over += over;
                    out.requested_units += node_r[n] + node_w[n];
                    let (w_util, w_over) = node_limits.write_excess(node_w[n]);
                    out.write_peak_utilization = out.write_peak_utilization.max(w_util);
                    out.throttled_write_units += w_over;
                    out.requested_write_units += node_w[n];
                    record(n, util, node_r[n] + node_w[n]);
                }
                node_r[n] = 0.0;
                node_w[n] = 0.0;
            }
        }
        if let (Some(cap), Some(t)) = (table_cap, table_out.as_mut()) {
            // The whole table's units this window against its limit.
            let units: f64 = r_units.iter().sum::<f64>() + w_units.iter().sum::<f64>();
            let (util, over) = Limits {
                combined: Some(cap),
                ..Limits::default()
            }
            .apply(0.0, units);
            t.peak_utilization = t.peak_utilization.max(util);
            t.throttled_units += over;
            out.peak_utilization = out.peak_utilization.max(util);
            // Over both limits at once, a window loses the larger excess.
            window_over = window_over.max(over);
        }
        out.throttled_units += window_over;
        r_units.iter_mut().for_each(|x| *x = 0.0);
        w_units.iter_mut().for_each(|x| *x = 0.0);
    }
    (out, table_out)
}

/// The hottest keys by units, with their requests over the busy period drawn
/// window by window (Poisson at the key's rate): observed share and peak window.
/// The hottest keys by expected units: share and rates are expectations
/// (the key's rate over the table's), the peak window a draw.
fn hot_keys(
    key_units: HashMap<String, (usize, f64, f64)>,
    table_rate: f64,
    plan: &Plan,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<KeyLoad> {
    let mut v: Vec<(String, usize, f64, f64)> = key_units
        .into_iter()
        .map(|(k, (p, r, u))| (k, p, r, u))
        .collect();
    v.sort_by(|a, b| {
        b.3.total_cmp(&a.3)
            .then(b.2.total_cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    v.truncate(HOT_KEYS);
    v.into_iter()
        .map(|(key, partition, rate, units)| {
            let mut peak = 0.0f64;
            if let Ok(d) = Poisson::new(rate * plan.window_s) {
                for _ in 0..plan.windows {
                    let n: f64 = d.sample(rng);
                    peak = peak.max(n);
                }
            }
            KeyLoad {
                key,
                partition,
                request_share: if table_rate > 0.0 {
                    rate / table_rate
                } else {
                    0.0
                },
                requests_per_s: rate,
                units_per_s: units,
                peak_window_requests: peak,
            }
        })
        .collect()
}

/// Places one stream's request rate on the partitions for one bucket.
#[allow(clippy::too_many_arguments)] // the trial's state, passed through from run_table
fn place_stream(
    store: &dyn StoreModel,
    table: &TablePlan,
    s: &Stream,
    bucket: i64,
    keep_keys: bool,
    world: &mut World,
    rng: &mut Xoshiro256PlusPlus,
    mut entries: Option<&mut Vec<(f64, u32)>>,
) -> Placed {
    let p_count = table.layout.partitions.max(1);
    let pf = p_count as f64;
    let mut per = vec![0.0f64; p_count];
    let mut keys = Vec::new();
    let exact = entries.is_some();
    // Records one key's rate on its partition (and, for the exact method, as an alias entry).
    let mut add = |per: &mut [f64], part: usize, r: f64| {
        per[part] += r;
        if let Some(e) = entries.as_deref_mut() {
            e.push((r, part as u32));
        }
    };
    let rate = s.busy_rate_per_s;
    if s.broadcast {
        // Every request reaches every node once (scatter-gather): the rate
        // × nodes spread evenly over the partitions, which sit evenly on
        // the nodes, so each node takes the full request rate.
        let nodes = table.layout.nodes.as_ref().map_or(1, |n| n.nodes.max(1));
        let each = rate * nodes as f64 / pf;
        for part in 0..p_count {
            add(&mut per, part, each);
        }
        return Placed {
            per_partition: per,
            keys,
            appends: Vec::new(),
        };
    }
    let w_sum: f64 = s.subkeys.iter().map(|k| k.weight).sum();
    let w_sq: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
    // The parts of the key before its monotonic part ({time}/{id}).
    let prefix: Vec<&TemplatePart> = table
        .keys
        .template
        .iter()
        .take_while(|p| !matches!(p, TemplatePart::Time | TemplatePart::Id))
        .collect();
    let prefix_has_entity = prefix.iter().any(|p| matches!(p, TemplatePart::Entity(_)));
    if s.shares.is_fresh() && (s.is_write || s.is_query) && store.ranged() && !prefix_has_entity {
        // A monotonic key on a ranged store: every insert goes to the end of
        // its prefix's range — with no prefix, the last range (MongoDB's MaxKey
        // chunk, the last Bigtable tablet); with write shards, the end of each
        // shard's range. A query over such a key reads the newest range (an
        // assumption: range reads ask for recent data), so it lands there too.
        let mut appends: Vec<(String, usize, f64)> = Vec::new();
        for sk in &s.subkeys {
            let key = table
                .keys
                .format(&[], sk.shard, bucket - i64::from(sk.bucket_back));
            let sharded_prefix = prefix.iter().any(|p| matches!(p, TemplatePart::Shard));
            let (part, name) = if sk.shard.is_some() && sharded_prefix {
                (store.place(&key, p_count).min(p_count - 1), key)
            } else {
                // Every new key sorts last, whatever follows the time: one append point.
                (p_count - 1, "<append point>".to_string())
            };
            add(&mut per, part, rate * sk.weight);
            match appends.iter_mut().find(|a| a.0 == name && a.1 == part) {
                Some(a) => a.2 += rate * sk.weight,
                None => appends.push((name, part, rate * sk.weight)),
            }
        }
        return Placed {
            per_partition: per,
            keys,
            appends,
        };
    }
    if s.recency_ordered && store.ranged() && s.driver.is_some() {
        // `latest` on a ranged store: instance id = count − rank, ranges in id order.
        let n = s.shares.count();
        let nf = n as f64;
        for j in 0..p_count {
            // Ranks whose id falls in range j: ids [j·n/P, (j+1)·n/P).
            let id_lo = (j as f64 * nf / pf).ceil() as u64;
            let id_hi = (((j + 1) as f64 * nf / pf).ceil() as u64).min(n);
            if id_hi <= id_lo {
                continue;
            }
            let (m1, _) = s.shares.moments(n - id_hi + 1, n - id_lo);
            add(&mut per, j, rate * m1 * w_sum);
        }
        if keep_keys {
            for r in 1..=n.min(HOT_KEYS as u64) {
                let id = n - r;
                let key = table.keys.format(&[id], None, bucket);
                let part = ((id as f64 * pf / nf) as usize).min(p_count - 1);
                keys.push((key, part, rate * s.shares.share(r) * w_sum));
            }
        }
        return Placed {
            per_partition: per,
            keys,
            appends: Vec::new(),
        };
    }
    if s.shares.is_fresh() {
        // Every request a fresh key: Poisson splitting spreads it evenly.
        for p in 0..p_count {
            add(&mut per, p, rate * w_sum / pf);
        }
        return Placed {
            per_partition: per,
            keys,
            appends: Vec::new(),
        };
    }
    let n = s.shares.count();
    let head = n.min(HEAD_RANKS);
    let salt_place = world.place_salt;
    let store_place = |key: &str| {
        store
            .place_in_trial(key, p_count, salt_place)
            .min(p_count - 1)
    };
    // Instances of the driver entity for the head ranks: distinct, random.
    let driver_count = match s.driver {
        Some(d) => table.keys.entities[d].1,
        None => n,
    };
    let driver_name = s.driver.map_or("", |d| table.keys.entities[d].0.as_str());
    let ids = world.head(driver_name, driver_count, head, rng);
    // Instance names are unknown before the table exists: each trial names
    // them afresh.
    let salt = world.name_salt;
    let expand_others = s.other_combos <= 16.0;
    for (r, &id) in ids.iter().enumerate() {
        let share = s.shares.share(r as u64 + 1);
        if share <= 0.0 {
            continue;
        }
        if expand_others {
            let combos = s.other_combos.max(1.0) as u64;
            for c in 0..combos {
                let ids = instance_ids(&table.keys, s.driver, id, c, salt);
                for sk in &s.subkeys {
                    let key = table
                        .keys
                        .format(&ids, sk.shard, bucket - i64::from(sk.bucket_back));
                    let part = store_place(&key);
                    let r_key = rate * share / combos as f64 * sk.weight;
                    add(&mut per, part, r_key);
                    if keep_keys {
                        keys.push((key, part, r_key));
                    }
                }
            }
        } else if exact {
            // Every combination of the other entities on its own partition.
            let combos = s.other_combos as u64;
            for _ in 0..combos {
                for sk in &s.subkeys {
                    let part = rng.random_range(0..p_count);
                    add(&mut per, part, rate * share / combos as f64 * sk.weight);
                }
            }
        } else {
            // Many combinations of the other entities: spread this instance's mass.
            let m = s.other_combos;
            spread(
                &mut per,
                rate * share * w_sum,
                (rate * share).powi(2) * w_sq / m,
                rng,
            );
        }
    }
    if n > head {
        // Single draws while affordable.
        let combos = if expand_others {
            s.other_combos.max(1.0) as u64
        } else {
            1
        };
        let single_ranks = if exact {
            n - head
        } else {
            single_draw_ranks(s, n, head, p_count)
        };
        for r in head + 1..=head + single_ranks {
            let share = s.shares.share(r) / combos as f64;
            for _ in 0..combos {
                for sk in &s.subkeys {
                    let part = rng.random_range(0..p_count);
                    add(&mut per, part, rate * share * sk.weight);
                }
            }
        }
        let tail_start = head + single_ranks + 1;
        if tail_start <= n {
            let (m1, m2) = s.shares.moments(tail_start, n);
            let split = s.other_combos.max(1.0);
            spread(
                &mut per,
                rate * m1 * w_sum,
                rate * rate * m2 * w_sq / split,
                rng,
            );
        }
    }
    Placed {
        per_partition: per,
        keys,
        appends: Vec::new(),
    }
}

/// Ranks beyond the head placed one by one: up to [`MAX_SINGLE_DRAWS`]
/// sub-keys, or all of them when too few would be left for the normal
/// approximation (fewer than 64 sub-keys per partition).
pub fn single_draw_ranks(s: &Stream, n: u64, head: u64, partitions: usize) -> u64 {
    let combos = if s.other_combos <= 16.0 {
        s.other_combos.max(1.0) as u64
    } else {
        1
    };
    let units_per_rank = (s.subkeys.len() as u64 * combos).max(1);
    let tail_ranks = n.saturating_sub(head);
    let single = (MAX_SINGLE_DRAWS / units_per_rank).min(tail_ranks);
    if ((tail_ranks - single) as f64 * units_per_rank as f64) < 64.0 * partitions as f64 {
        tail_ranks
    } else {
        single
    }
}

/// How a stream's keys are placed: one by one, or as per-partition mass.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlacementStats {
    /// Keys (ranks × sub-keys) placed one by one.
    pub keys_placed: f64,
    /// Keys placed as per-partition mass (the tail).
    pub keys_as_mass: f64,
    /// Share of the stream's requests carried by the tail.
    pub tail_share: f64,
    /// Berry–Esseen bound on the CDF error of a partition's tail load:
    /// 0.56·Σ E|Xᵢ − μᵢ|³ / σ³ with Xᵢ = qᵢ·Bernoulli(1/P).
    pub tail_cdf_error_bound: f64,
}

/// Placement statistics of one stream over `partitions` partitions.
pub fn placement_stats(s: &Stream, partitions: usize) -> PlacementStats {
    if s.shares.is_fresh() {
        return PlacementStats::default();
    }
    let n = s.shares.count();
    let head = n.min(HEAD_RANKS);
    let subkeys = s.subkeys.len() as f64 * s.other_combos.max(1.0);
    let single = single_draw_ranks(s, n, head, partitions);
    let tail_start = head + single + 1;
    let mut st = PlacementStats {
        keys_placed: (head + single) as f64 * subkeys,
        ..Default::default()
    };
    if tail_start <= n {
        let (m1, m2) = s.shares.moments(tail_start, n);
        let m3 = s.shares.third_moment(tail_start, n);
        let p = 1.0 / partitions.max(1) as f64;
        let k = subkeys.max(1.0);
        // Each key's mass splits into k sub-keys placed independently.
        let var = m2 / k * p * (1.0 - p);
        let rho = m3 / (k * k) * p * (1.0 - p) * (p * p + (1.0 - p) * (1.0 - p));
        st.keys_as_mass = (n - tail_start + 1) as f64 * subkeys;
        st.tail_share = m1;
        st.tail_cdf_error_bound = if var > 0.0 {
            (0.56 * rho / var.powf(1.5)).min(1.0)
        } else {
            0.0
        };
    }
    st
}

/// Adds `mass` spread over the partitions as independent keys would land:
/// each partition gets mass/P plus a normal with variance `var_keys`·(1/P)(1 − 1/P),
/// projected so the total stays `mass`, clamped at 0.
fn spread(per: &mut [f64], mass: f64, var_keys: f64, rng: &mut Xoshiro256PlusPlus) {
    let pf = per.len() as f64;
    if mass <= 0.0 {
        return;
    }
    let sd = (var_keys * (1.0 / pf) * (1.0 - 1.0 / pf)).max(0.0).sqrt();
    if sd == 0.0 || per.len() == 1 {
        for x in per.iter_mut() {
            *x += mass / pf;
        }
        return;
    }
    let z: Vec<f64> = (0..per.len()).map(|_| StandardNormal.sample(rng)).collect();
    let zbar = z.iter().sum::<f64>() / pf;
    // Projection onto Σ = 0 scales the variance by (1 − 1/P); undo that.
    let scale = sd / (1.0 - 1.0 / pf).sqrt();
    for (x, zi) in per.iter_mut().zip(&z) {
        *x += (mass / pf + scale * (zi - zbar)).max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::water_fill;

    #[test]
    fn water_fill_raises_the_lowest_to_one_level() {
        // Loads 1, 3, 0 and 2 to pour: the level is (2 + 0 + 1) / 2 = 1.5.
        assert_eq!(water_fill(&[1.0, 3.0, 0.0], 2.0), vec![0.5, 0.0, 1.5]);
        // Enough to lift all: level (8 + 4) / 3 = 4, minus each load.
        let f = water_fill(&[1.0, 3.0, 0.0], 8.0);
        assert!(f
            .iter()
            .zip([3.0, 1.0, 4.0])
            .all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
