//! One trial: draw a random world (which instances are popular and where
//! their keys land), then the requests of every window on every partition.
//!
//! Per table, by stage:
//! - the busy period is cut into stationary segments (`segments`);
//! - each time bucket's keys are placed on the partitions
//!   ([`super::placement`], on instances of the trial's
//!   [`super::world`]);
//! - hot partitions of a load-splitting store are split onto the nodes
//!   (`rebalance`);
//! - each segment's windows are drawn on the servers, by the exact method
//!   ([`super::exact`]) or the aggregated and windows methods
//!   (`aggregated`), into the table's running sums
//!   ([`super::accumulator`]).
//!
//! The cluster's nodes are then drawn once for every table
//! (`cluster`), and node memory over the horizon
//! ([`super::memory`]).
//!
//! Requests per window on a partition are Poisson with the partition's summed
//! rate (Poisson splitting makes this exact for open arrivals), and their
//! units a compound sum over the stream's unit-cost distribution.

use super::accumulator::{TableAccumulator, TableLimitTrial, TableSetup};
use super::aggregated::aggregated_segment;
use super::cluster::{cluster_nodes, NodeLoad, CLUSTER_SEED};
use super::exact::exact_segment;
use super::placement::{BucketPlacement, HeadPlaces, Landing, Placed, Placer};
use super::plan::{trial_seed, Plan, TablePlan};
use super::segments::{table_segments, Segment};
use super::world::{World, HEAD_RANKS};
use crate::results::{KeyLoad, Timeseries};
use crate::store::StoreModel;

/// Sub-keys a head rank reserves room for in the map of landed keys: a
/// 2-year range over hourly buckets would reserve 9·10⁶ entries a table
/// trial.
const HISTORY_ROOM: usize = 64;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

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
    /// (read units/s, write units/s, mean utilization, peak utilization);
    /// the idle partitions that rank last (every figure 0) are left out, so
    /// there are at most as many rows as partitions.
    pub ranked: Ranked,
    /// The same per node, when the store has nodes: cluster-wide, the load of
    /// every table of the trial on the shared nodes (see [`run_trial`]).
    pub node_ranked: Ranked,
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

/// Rows ranked busiest first, (read units/s, write units/s, mean
/// utilization, peak utilization) each; shared, since a table's trial is
/// kept for variants and node rows are the same in every table of a trial.
pub type Ranked = std::sync::Arc<Vec<[f64; 4]>>;

/// One table's outcome in every trial of a design: its trial (without the
/// representative detail) and its node rates, kept for the variants that
/// leave the table as it is (`src/engine/reuse.rs`).
pub(super) type TableTrials = std::sync::Arc<Vec<(TableTrial, NodeLoad)>>;

/// Mixed into the seed of the streams that draw a table's constant caps.
const CAPS_SEED: u64 = 0xCA95_7AB1_E11D_0C0D;
/// Mixed into the seed of the stream that draws the hot keys' busiest windows.
const HOT_KEYS_SEED: u64 = 0x407C_E7B5_0F1E_1D5A;
/// Mixed into the seed of a table's own stream.
const TABLE_SEED: u64 = 0x7AB1_E5EE_D0F7_AB1E;
/// Mixed into the seed of a table's per-partition streams.
const PARTITION_SEED: u64 = 0x9A27_1710_0C01_D5EE;

/// Runs trial `t` of `plan` for every table.
///
/// Tables share one cluster: after every table has drawn its own windows
/// (per-table partition numbers), the node rates of all tables are summed
/// per node and the node windows drawn once for the cluster; every table's
/// `node_ranked` then holds that cluster-wide view. Those draws use their own
/// stream (seeded from the trial's), so they never shift a table's draws.
pub fn run_trial(plan: &Plan, store: &dyn StoreModel, t: u32) -> Vec<TableTrial> {
    run_trial_with(plan, store, t, &[]).0
}

/// [`run_trial`], taking table `ti`'s outcome from `kept[ti]` (its trial
/// `t`, drawn by a design whose plan for the table is the same:
/// `src/engine/reuse.rs`) instead of simulating it; also returns every table's
/// node rates.
pub(super) fn run_trial_with(
    plan: &Plan,
    store: &dyn StoreModel,
    t: u32,
    kept: &[Option<TableTrials>],
) -> (Vec<TableTrial>, Vec<NodeLoad>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(trial_seed(plan.seed, t));
    let mut world = World::new(&mut rng).with_values(&plan.value_ranks);
    let (mut out, loads): (Vec<TableTrial>, Vec<NodeLoad>) = plan
        .tables
        .iter()
        .enumerate()
        .map(|(ti, table)| {
            if let Some(Some(trials)) = kept.get(ti) {
                let (tt, nl) = &trials[t as usize];
                return (tt.clone(), nl.clone());
            }
            // Each table draws from its own stream (and the world's head
            // instances are drawn per entity), so a table's trial is the
            // same whatever the other tables are.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(trial_seed(
                plan.seed ^ TABLE_SEED ^ (ti as u64).wrapping_mul(TABLE_SEED),
                t,
            ));
            // The table's constant caps draw from their own stream, so a cap
            // that is simulated never shifts the table's other draws.
            let caps_seed = trial_seed(
                plan.seed ^ CAPS_SEED ^ (ti as u64).wrapping_mul(CAPS_SEED),
                t,
            );
            let partition_seed = trial_seed(
                plan.seed ^ PARTITION_SEED ^ (ti as u64).wrapping_mul(PARTITION_SEED),
                t,
            );
            let seeds = (caps_seed, partition_seed);
            let representative = t == 0 && plan.detail;
            run_table(
                plan,
                store,
                table,
                representative,
                &mut world,
                &mut rng,
                seeds,
            )
        })
        .unzip();
    if plan.tables.iter().any(|tp| tp.layout.nodes.is_some()) {
        let mut crng = Xoshiro256PlusPlus::seed_from_u64(trial_seed(plan.seed ^ CLUSTER_SEED, t));
        let (ranked, throttled) = cluster_nodes(plan, &loads, &mut crng);
        let ranked = Ranked::new(ranked);
        // Tables limited by their nodes alone throttle as the nodes they
        // share do: with two or more, each takes its part of the cluster's
        // excess (alone, its own draws are the cluster's).
        let node_limited = super::cluster::limited_by_nodes_alone;
        let several = plan.tables.iter().filter(|tp| node_limited(tp)).count() > 1;
        for ((tt, tp), th) in out.iter_mut().zip(&plan.tables).zip(&throttled) {
            if node_limited(tp) {
                if several {
                    tt.throttled_units = th.units;
                    tt.throttled_write_units = th.write_units;
                }
            } else if tp.layout.nodes.is_some() {
                // Limited by its partitions too (Bigtable's tablets): its
                // nodes' excess counts where it is the larger (a cluster
                // asked 1.8× its nodes' capacity, every tablet within one
                // node's, read 0% throttled).
                tt.throttled_units = tt.throttled_units.max(th.units);
                tt.throttled_write_units = tt.throttled_write_units.max(th.write_units);
            }
        }
        // Node memory is over the horizon, reported from the first
        // checkpoint alone (as the growth it sizes its keys by).
        let memory = store
            .key_overhead_bytes()
            .filter(|_| plan.growth)
            .and_then(|overhead| super::memory::cluster_memory(plan, store, overhead, &mut world));
        for (tt, tp) in out.iter_mut().zip(&plan.tables) {
            if tp.layout.nodes.is_some() {
                tt.node_ranked = ranked.clone();
                tt.node_memory = memory.clone();
            }
        }
    }
    (out, loads)
}

/// One table's trial: its segments in order, each bucket's keys placed the
/// first time the bucket comes up.
fn run_table(
    plan: &Plan,
    store: &dyn StoreModel,
    table: &TablePlan,
    representative: bool,
    world: &mut World,
    rng: &mut Xoshiro256PlusPlus,
    (caps_seed, partition_seed): (u64, u64),
) -> (TableTrial, NodeLoad) {
    let mut setup = TableSetup::new(plan, store, table, representative);
    setup.partition_seed = partition_seed;
    let split_every_s = setup.split_for_heat.map(|s| s.0);
    let segments = table_segments(plan, table, split_every_s, setup.split_from);
    let placer = Placer {
        store,
        table,
        landing: Landing::of(store, table.layout.partitions),
        keep_keys: representative || setup.load_split.is_some(),
        exact: setup.exact,
        // Room for the head's keys of a bucket and of the next ones (a
        // range query's history keys mostly go as mass: the map grows when
        // they do not).
        landed: Some(std::cell::RefCell::new(
            HeadPlaces::with_capacity_and_hasher(
                2 * HEAD_RANKS as usize
                    * table
                        .streams
                        .iter()
                        .map(|s| s.subkeys.len())
                        .max()
                        .unwrap_or(1)
                        .min(HISTORY_ROOM),
                Default::default(),
            ),
        )),
        counted: Default::default(),
        history_before: segments.first().map(|s| s.bucket),
        last_bucket: segments.last().map(|s| s.bucket),
    };
    let mut acc = TableAccumulator::new(&setup);
    acc.caps_rng = Xoshiro256PlusPlus::seed_from_u64(caps_seed);
    // One placement per bucket: the keys of a bucket stay where they land
    // while the rate multiplier changes. Segments come in time order, each
    // bucket's in one run (table_segments), so only the current bucket's
    // placement is kept: a 1-minute bucket over a 1-hour busy period held
    // 60 of them, each a rate per partition per stream.
    let mut current: Option<(i64, BucketPlacement)> = None;
    for seg in &segments {
        if current.as_ref().is_none_or(|(b, _)| *b != seg.bucket) {
            current = Some((seg.bucket, placer.place_bucket(seg.bucket, world, rng)));
        }
        if let Some((_, bucket)) = &current {
            run_segment(&setup, &mut acc, bucket, seg, rng);
        }
    }
    table_trial(&setup, acc, rng)
}

/// One segment: its expected loads, then its windows drawn.
fn run_segment(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    bucket: &BucketPlacement,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) {
    let scaled: Vec<Placed>;
    let placed: &[Placed] = if seg.multiplier == 1.0 {
        &bucket.placed
    } else {
        scaled = bucket
            .placed
            .iter()
            .map(|pl| pl.scaled(seg.multiplier))
            .collect();
        &scaled
    };
    let rates = acc.add_segment(setup, placed, seg);
    if setup.exact {
        exact_segment(setup, acc, placed, &bucket.entries, seg, rng);
    } else {
        aggregated_segment(setup, acc, &rates, seg, rng);
    }
}

/// The table's trial from its running sums (hot keys and growth draw last),
/// and its node rates for the cluster.
fn table_trial(
    setup: &TableSetup<'_>,
    mut acc: TableAccumulator,
    rng: &mut Xoshiro256PlusPlus,
) -> (TableTrial, NodeLoad) {
    let (ranked, hottest_partition_share) = acc.partition_ranking(setup);
    let node_ranked = acc.node_ranking(setup);
    let timeseries = acc.timeseries(setup);
    let hot_keys = if setup.representative {
        // From their own stream, so the trial's figures are the same with
        // or without them.
        let seed = setup.partition_seed ^ HOT_KEYS_SEED;
        acc.hot_keys(setup.plan, &mut Xoshiro256PlusPlus::seed_from_u64(seed))
    } else {
        Vec::new()
    };
    let total = acc.total;
    let trial = TableTrial {
        peak_utilization: total.peak_utilization,
        throttled_units: total.throttled_units,
        requested_units: total.requested_units,
        write_peak_utilization: total.write_peak_utilization,
        throttled_write_units: total.throttled_write_units,
        requested_write_units: total.requested_write_units,
        hottest_partition_share,
        ranked: Ranked::new(ranked),
        node_ranked: Ranked::new(node_ranked),
        node_memory: None,
        // Last: skipping it leaves every other draw as it is.
        growth: if setup.plan.growth {
            setup.table.growth.simulate(rng)
        } else {
            super::growth::GrowthTrial::default()
        },
        hot_keys,
        timeseries,
        table_limit: acc.table_limit,
    };
    (trial, acc.into_node_load())
}
