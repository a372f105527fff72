//! One table's trial as it runs: its fixed setup (`TableSetup`: which
//! servers are simulated, under which limits) and its running sums over the
//! segments (`TableAccumulator`: means and peaks per partition and node,
//! burst credit, the table limit's outcome, the representative trial's
//! timeseries and hot keys).

use super::cluster::{is_idle, rank_busiest, NodeLoad, NodeSegment};
use super::placement::{Placed, HOT_KEYS};
use super::plan::{trial_seed, Method, Plan, TablePlan};
use super::rebalance::{node_rates, rebalance, stream_load, Rebalanced};
use super::segments::Segment;
use super::window::{Component, Limits, Outcome};
use crate::results::{KeyLoad, Timeseries};
use crate::store::{LoadSplit, NodeLayout, StoreModel};
use rand::SeedableRng;
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

/// Time steps kept in the representative trial's timeseries.
pub const TIMESERIES_STEPS: usize = 240;

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
    /// Against the constant read and write caps alone, each side on its own.
    pub sides: [SideOutcome; 2],
}

/// One side's (reads' or writes') windows against the table's constant cap.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideOutcome {
    /// Units over the cap, summed over windows.
    pub throttled_units: f64,
    /// Units requested, summed over the windows judged.
    pub requested_units: f64,
    /// Highest window's units ÷ the cap.
    pub peak_utilization: f64,
}

impl SideOutcome {
    /// Adds one segment's outcome of this side.
    pub(super) fn record(&mut self, o: &Outcome) {
        self.throttled_units += o.throttled_units;
        self.requested_units += o.requested_units;
        self.peak_utilization = self.peak_utilization.max(o.peak_utilization);
    }
}

impl TableLimitTrial {
    /// Adds one segment's outcome against the table limit; the segment ends at window `end`.
    pub(super) fn record(&mut self, o: &Outcome, end: usize, window_s: f64) {
        self.throttled_units += o.throttled_units;
        self.peak_utilization = self.peak_utilization.max(o.peak_utilization);
        if o.throttled_units > 0.0 {
            self.clear_s = end as f64 * window_s;
        }
    }
}

/// One table's fixed setup in a trial.
pub(super) struct TableSetup<'a> {
    pub(super) plan: &'a Plan,
    pub(super) table: &'a TablePlan,
    /// Whether this is the representative trial (timeseries, hot keys).
    pub(super) representative: bool,
    /// Whether requests are drawn one by one (the exact method).
    pub(super) exact: bool,
    /// Partitions (at least 1).
    pub(super) p_count: usize,
    /// Nodes (0 when the store has none).
    pub(super) n_nodes: usize,
    /// Partition limits, units per window.
    pub(super) partition_limits: Limits,
    /// Node limits, units per window.
    pub(super) node_limits: Limits,
    /// The servers whose windows are simulated: partitions when they have
    /// limits, nodes when they do; partitions (unlimited) otherwise.
    pub(super) simulate_partitions: bool,
    pub(super) simulate_nodes: bool,
    /// Split-for-heat (delay s, read step, write step), when the table can split.
    pub(super) split_for_heat: Option<(f64, f64, f64)>,
    /// Load splitting, when the store splits hot partitions onto nodes.
    pub(super) load_split: Option<LoadSplit>,
    /// Window from which load splitting applies.
    pub(super) split_from: Option<usize>,
    /// Burst credit per partition, in units: burst_seconds of its limits,
    /// full at the start.
    pub(super) burst_units: f64,
    /// The seed of the table's per-partition streams in this trial (see
    /// [`TableSetup::partition_rng`]).
    pub(super) partition_seed: u64,
}

impl<'a> TableSetup<'a> {
    pub(super) fn new(
        plan: &'a Plan,
        store: &dyn StoreModel,
        table: &'a TablePlan,
        representative: bool,
    ) -> TableSetup<'a> {
        // Split-for-heat: only item collections (more than one item per key) can split.
        let split_for_heat = store
            .split_for_heat()
            .filter(|_| table.growth.max_items.is_none_or(|m| m > 1.0));
        // Load splitting (Bigtable): hot tablets split down to rows, from this window on.
        let load_split = store
            .load_split()
            .filter(|_| table.layout.nodes.is_some() && plan.method != Method::Exact);
        let split_from =
            load_split.map(|l| ((l.delay_s / plan.window_s).round() as usize).min(plan.windows));
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
        let simulate_nodes = nodes.is_some() && node_limits.any();
        let burst_units = store.burst_seconds()
            * (table.layout.read_limit_per_s.unwrap_or(0.0)
                + table.layout.write_limit_per_s.unwrap_or(0.0)
                + table.layout.combined_limit_per_s.unwrap_or(0.0));
        TableSetup {
            plan,
            table,
            representative,
            exact: plan.method == Method::Exact,
            p_count: table.layout.partitions.max(1),
            n_nodes: nodes.map_or(0, |n| n.nodes),
            partition_limits,
            node_limits,
            simulate_partitions: partition_limits.any() || !simulate_nodes,
            simulate_nodes,
            split_for_heat,
            load_split,
            split_from,
            burst_units,
            partition_seed: 0,
        }
    }

    /// Partition `p`'s own stream in segment `seg`: what its windows draw,
    /// whatever other partitions draw or skip.
    pub(super) fn partition_rng(&self, seg: &Segment, p: usize) -> Xoshiro256PlusPlus {
        let segment = (seg.start as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Xoshiro256PlusPlus::seed_from_u64(trial_seed(self.partition_seed ^ segment, p as u32))
    }

    /// Server `row`'s stream for the representative trial's timeseries in
    /// segment `seg`: apart from every stream the trial's figures draw, so
    /// drawing the timeseries or not leaves them the same.
    pub(super) fn series_rng(&self, seg: &Segment, row: usize) -> Xoshiro256PlusPlus {
        let segment = (seg.start as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let seed = self.partition_seed ^ segment ^ 0x5E21_E5D7_A11C_0FFE;
        Xoshiro256PlusPlus::seed_from_u64(trial_seed(seed, row as u32))
    }

    /// The table's nodes, when the store has them.
    pub(super) fn nodes(&self) -> Option<&'a NodeLayout> {
        self.table.layout.nodes.as_ref()
    }

    /// Whether every window is drawn (the representative trial, whose
    /// timeseries is charted, and `--method windows`) rather than collapsed.
    pub(super) fn draws_every_window(&self) -> bool {
        self.plan.method == Method::Windows
    }

    /// One server's streams at `lams(stream)` requests/s, as per-window components.
    pub(super) fn components(&self, lams: impl Fn(usize) -> f64) -> Vec<Component<'a>> {
        let mut out = Vec::new();
        self.components_into(&mut out, lams);
        out
    }

    /// [`TableSetup::components`] appended to `out`.
    pub(super) fn components_into(
        &self,
        out: &mut Vec<Component<'a>>,
        lams: impl Fn(usize) -> f64,
    ) {
        let window_s = self.plan.window_s;
        // A plain loop: built in place (the iterator chain built each
        // component on the stack and copied it out in odd-sized pieces, at
        // thousands of partitions per segment).
        out.reserve(self.table.streams.len());
        for (si, s) in self.table.streams.iter().enumerate() {
            let lambda = lams(si) * window_s;
            if lambda > 0.0 {
                out.push(Component {
                    lambda,
                    severity: &s.severity,
                    is_write: s.is_write,
                });
            }
        }
    }
}

thread_local! {
    /// Per worker thread, the rows of the last table it ranked.
    static RANK_ROWS: std::cell::RefCell<Vec<[f64; 4]>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The representative trial's timeseries being filled: per row (partition
/// or node) and step, the peak window utilization and the summed units.
pub(super) struct Series {
    utilization: Vec<Vec<f64>>,
    units: Vec<Vec<f64>>,
    steps: usize,
    windows: usize,
}

/// One row of a [`Series`], filled on its own (rows are filled in parallel).
pub(super) struct SeriesRow<'s> {
    utilization: &'s mut [f64],
    units: &'s mut [f64],
    steps: usize,
    windows: usize,
}

impl SeriesRow<'_> {
    /// The first window after `window`'s timeseries step.
    pub(super) fn step_end(&self, window: usize) -> usize {
        let step = window * self.steps / self.windows;
        ((step + 1) * self.windows).div_ceil(self.steps)
    }

    /// Records window `window` of the busy period.
    pub(super) fn record(&mut self, window: usize, util: f64, units: f64) {
        let step = window * self.steps / self.windows;
        if util > self.utilization[step] {
            self.utilization[step] = util;
        }
        self.units[step] += units;
    }
}

impl Series {
    /// Every row, each to be filled on its own.
    pub(super) fn rows(&mut self) -> Vec<SeriesRow<'_>> {
        let (steps, windows) = (self.steps, self.windows);
        self.utilization
            .iter_mut()
            .zip(self.units.iter_mut())
            .map(|(utilization, units)| SeriesRow {
                utilization,
                units,
                steps,
                windows,
            })
            .collect()
    }

    /// Records window `window` of the busy period on `row`.
    pub(super) fn record(&mut self, row: usize, window: usize, util: f64, units: f64) {
        let step = window * self.steps / self.windows;
        if util > self.utilization[row][step] {
            self.utilization[row][step] = util;
        }
        self.units[row][step] += units;
    }

    fn into_timeseries(self, window_s: f64, row_label: &str) -> Timeseries {
        let windows_per_step = self.windows as f64 / self.steps as f64;
        Timeseries {
            step_s: window_s * windows_per_step,
            utilization: self.utilization,
            units_per_s: self
                .units
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|u| u / (windows_per_step * window_s))
                        .collect()
                })
                .collect(),
            row_label: row_label.to_string(),
        }
    }
}

/// One segment's request rates: per stream on the partitions, on the pieces
/// of load-split partitions, and per node.
pub(super) struct SegmentRates<'p> {
    pub(super) placed: &'p [Placed],
    pub(super) rebalanced: Option<Rebalanced>,
    /// `[node][stream]` requests/s (empty without nodes).
    pub(super) node_lam: Vec<Vec<f64>>,
}

impl SegmentRates<'_> {
    /// Partition `p`'s load-split pieces (per piece, requests/s per
    /// stream), when its load is split.
    pub(super) fn pieces(&self, p: usize) -> Option<&[Vec<f64>]> {
        self.rebalanced.as_ref()?.pieces[p].as_deref()
    }
}

/// One table's running sums over a trial's segments.
pub(super) struct TableAccumulator {
    /// Per partition, peak window utilization.
    pub(super) peak: Vec<f64>,
    /// Per node, peak window utilization.
    pub(super) node_peak: Vec<f64>,
    /// Per partition, mean read and write units/s.
    mean_read: Vec<f64>,
    mean_write: Vec<f64>,
    /// Per partition, (read, write) units/s of its hottest piece (the whole
    /// partition unless load-split).
    piece_mean: Vec<[f64; 2]>,
    /// Per node, (read, write) units/s.
    node_mean: Vec<[f64; 2]>,
    /// The node rates handed to the cluster.
    pub(super) load: NodeLoad,
    /// All segments' outcome.
    pub(super) total: Outcome,
    /// Per partition, burst credit left, units.
    pub(super) burst_left: Vec<f64>,
    /// Per key named in the representative trial: (partition, requests/s,
    /// units/s, [read, write] units/s).
    key_units: HashMap<String, (usize, f64, f64, [f64; 2])>,
    /// Expected requests per second over the whole table, time-averaged.
    expected_rate: f64,
    /// The table-level limit's outcome, when the plan has one.
    pub(super) table_limit: Option<TableLimitTrial>,
    /// The stream the table's constant caps draw from (see `run_trial`).
    pub(super) caps_rng: Xoshiro256PlusPlus,
    /// The representative trial's timeseries.
    pub(super) series: Option<Series>,
}

impl TableAccumulator {
    pub(super) fn new(setup: &TableSetup<'_>) -> TableAccumulator {
        let plan = setup.plan;
        let (p_count, n_nodes) = (setup.p_count, setup.n_nodes);
        let mut load = NodeLoad::default();
        if setup.nodes().is_some() && setup.exact {
            load.exact = vec![vec![[0.0f64; 2]; n_nodes]; plan.windows];
        }
        let rows = if setup.simulate_partitions {
            p_count
        } else {
            n_nodes
        };
        let steps = TIMESERIES_STEPS.min(plan.windows).max(1);
        TableAccumulator {
            peak: vec![0.0f64; p_count],
            node_peak: vec![0.0f64; n_nodes],
            mean_read: vec![0.0f64; p_count],
            mean_write: vec![0.0f64; p_count],
            piece_mean: vec![[0.0f64; 2]; p_count],
            node_mean: vec![[0.0f64; 2]; n_nodes],
            load,
            total: Outcome::default(),
            burst_left: vec![setup.burst_units; p_count],
            key_units: HashMap::new(),
            expected_rate: 0.0,
            table_limit: setup
                .table
                .table_limit
                .as_ref()
                .map(|_| TableLimitTrial::default()),
            caps_rng: Xoshiro256PlusPlus::seed_from_u64(0),
            series: setup.representative.then(|| Series {
                utilization: vec![vec![0.0f64; steps]; rows],
                units: vec![vec![0.0f64; steps]; rows],
                steps,
                windows: plan.windows,
            }),
        }
    }

    /// Adds segment `seg`'s expected loads (per key, partition, piece and
    /// node) at rates `placed`; returns the segment's rates on pieces and nodes.
    pub(super) fn add_segment<'p>(
        &mut self,
        setup: &TableSetup<'_>,
        placed: &'p [Placed],
        seg: &Segment,
    ) -> SegmentRates<'p> {
        let seg_frac = seg.windows() as f64 / setup.plan.windows as f64;
        self.add_partition_means(setup, placed, seg_frac);
        // Load splitting: hot partitions become pieces on the least-loaded nodes.
        let rebalanced = match (setup.load_split, setup.nodes(), setup.split_from) {
            (Some(ls), Some(nl), Some(from)) if seg.start >= from => {
                rebalance(setup.table, placed, nl, ls.threshold_per_s)
            }
            _ => None,
        };
        self.add_piece_means(setup, placed, rebalanced.as_ref(), seg_frac);
        let node_lam = self.add_node_means(setup, placed, rebalanced.as_ref(), seg, seg_frac);
        SegmentRates {
            placed,
            rebalanced,
            node_lam,
        }
    }

    /// Per key (representative trial), the table and each partition: mean loads.
    fn add_partition_means(&mut self, setup: &TableSetup<'_>, placed: &[Placed], seg_frac: f64) {
        for (s, pl) in setup.table.streams.iter().zip(placed.iter()) {
            for (key, part, rate) in pl.keys.iter().filter(|_| setup.representative) {
                let e = self
                    .key_units
                    .entry(key.clone())
                    .or_insert((*part, 0.0, 0.0, [0.0; 2]));
                e.1 += rate * seg_frac;
                e.2 += rate * s.severity.mean * seg_frac;
                e.3[usize::from(s.is_write)] += rate * s.severity.mean * seg_frac;
            }
            self.expected_rate += pl.per_partition.iter().sum::<f64>() * seg_frac;
            for p in 0..setup.p_count {
                let units = pl.per_partition[p] * s.severity.mean * seg_frac;
                if s.is_write {
                    self.mean_write[p] += units;
                } else {
                    self.mean_read[p] += units;
                }
            }
        }
    }

    /// Per partition, the mean load of its hottest piece (the whole partition
    /// unless load-split).
    fn add_piece_means(
        &mut self,
        setup: &TableSetup<'_>,
        placed: &[Placed],
        rebalanced: Option<&Rebalanced>,
        seg_frac: f64,
    ) {
        let table = setup.table;
        for (p, pm) in self.piece_mean.iter_mut().enumerate() {
            let hottest = rebalanced
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
    }

    /// Node rates: writes reach every replica; reads reach read_replicas of
    /// them. Adds their mean loads and, for the cluster's draws, the segment.
    fn add_node_means(
        &mut self,
        setup: &TableSetup<'_>,
        placed: &[Placed],
        rebalanced: Option<&Rebalanced>,
        seg: &Segment,
        seg_frac: f64,
    ) -> Vec<Vec<f64>> {
        let table = setup.table;
        let mut node_lam = vec![vec![0.0f64; table.streams.len()]; setup.n_nodes];
        if let Some(nl) = setup.nodes() {
            match rebalanced {
                Some(r) => node_lam.clone_from(&r.node_lam),
                None => node_lam = node_rates(table, placed, nl, setup.p_count, None),
            }
            for (n, lams) in node_lam.iter().enumerate() {
                for (si, s) in table.streams.iter().enumerate() {
                    self.node_mean[n][usize::from(s.is_write)] +=
                        lams[si] * s.severity.mean * seg_frac;
                }
            }
            if !setup.exact {
                self.load.segments.push(NodeSegment {
                    start: seg.start,
                    end: seg.end,
                    lam: node_lam.clone(),
                });
            }
        }
        node_lam
    }

    /// Per partition, sorted busiest first: (read units/s, write units/s,
    /// mean utilization, peak utilization); and the hottest partition's share
    /// of the table's units.
    pub(super) fn partition_ranking(&self, setup: &TableSetup<'_>) -> (Vec<[f64; 4]>, f64) {
        let window_s = setup.plan.window_s;
        let row = |p: usize| {
            let mu = if setup.simulate_partitions {
                setup
                    .partition_limits
                    .apply(
                        self.piece_mean[p][0] * window_s,
                        self.piece_mean[p][1] * window_s,
                    )
                    .0
            } else {
                0.0
            };
            [self.mean_read[p], self.mean_write[p], mu, self.peak[p]]
        };
        // Ranked in the worker's own buffer (thousands of rows every trial,
        // most of them idle on a sparse table); only the busy ones are kept.
        RANK_ROWS.with_borrow_mut(|ranked| {
            ranked.clear();
            ranked.extend((0..setup.p_count).map(row));
            let total_units: f64 = ranked.iter().map(|r| r[0] + r[1]).sum();
            let hottest_partition_share = if total_units > 0.0 {
                ranked.iter().map(|r| r[0] + r[1]).fold(0.0, f64::max) / total_units
            } else {
                0.0
            };
            rank_busiest(ranked);
            // Idle rows (every figure +0) rank last.
            let busy = ranked.len() - ranked.iter().rev().take_while(|r| is_idle(r)).count();
            (ranked[..busy].to_vec(), hottest_partition_share)
        })
    }

    /// The same per node, this table's load alone.
    pub(super) fn node_ranking(&self, setup: &TableSetup<'_>) -> Vec<[f64; 4]> {
        let window_s = setup.plan.window_s;
        let mut node_ranked: Vec<[f64; 4]> = (0..setup.n_nodes)
            .map(|n| {
                let mu = setup
                    .node_limits
                    .apply(
                        self.node_mean[n][0] * window_s,
                        self.node_mean[n][1] * window_s,
                    )
                    .0;
                [
                    self.node_mean[n][0],
                    self.node_mean[n][1],
                    mu,
                    self.node_peak[n],
                ]
            })
            .collect();
        rank_busiest(&mut node_ranked);
        node_ranked
    }

    /// The representative trial's timeseries, per partition when partitions
    /// are simulated, else per node.
    pub(super) fn timeseries(&mut self, setup: &TableSetup<'_>) -> Option<Timeseries> {
        let label = if setup.simulate_partitions {
            "partition"
        } else {
            "node"
        };
        self.series
            .take()
            .map(|s| s.into_timeseries(setup.plan.window_s, label))
    }

    /// The hottest keys by expected units: share and rates are expectations
    /// (the key's rate over the table's), the peak window a draw (Poisson at
    /// the key's rate, window by window).
    pub(super) fn hot_keys(&mut self, plan: &Plan, rng: &mut Xoshiro256PlusPlus) -> Vec<KeyLoad> {
        let table_rate = self.expected_rate;
        let mut v: Vec<(String, usize, f64, f64, [f64; 2])> = std::mem::take(&mut self.key_units)
            .into_iter()
            .map(|(k, (p, r, u, rw))| (k, p, r, u, rw))
            .collect();
        v.sort_by(|a, b| {
            b.3.total_cmp(&a.3)
                .then(b.2.total_cmp(&a.2))
                .then(a.0.cmp(&b.0))
        });
        v.truncate(HOT_KEYS);
        v.into_iter()
            .map(|(key, partition, rate, units, [read, write])| {
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
                    read_units_per_s: read,
                    write_units_per_s: write,
                    peak_window_requests: peak,
                }
            })
            .collect()
    }

    /// The node rates handed to the cluster, with the mean per node.
    pub(super) fn into_node_load(self) -> NodeLoad {
        let mut load = self.load;
        load.mean = self.node_mean;
        load
    }
}
