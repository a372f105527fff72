//! The observed load: each window's groups placed on the tables' partitions
//! (and nodes) and judged against their limits, per placement trial, into
//! the engine's per-trial outcome ([`TableTrial`]), so the reduction, the
//! verdicts, the exports, the charts and the report are `run`'s.
//!
//! Units are summed in fixed point (2⁻²⁰ of a unit), so a window's sums do
//! not depend on the order its groups arrive in: a raw log and its
//! aggregated table give the same bytes.

use super::route::{Routing, Target};
use crate::engine::accumulator::TableLimitTrial;
use crate::engine::plan::{trial_seed, Plan, TablePlan};
use crate::engine::trial::{Ranked, TableTrial};
use crate::engine::window::Limits;
use crate::logs::aggregation::{fields_of, op_of, WindowGroups, FIELD_SEPARATOR};
use crate::results::{KeyLoad, Timeseries};
use crate::scenario::{Scenario, TemplatePart};
use crate::store::hash::{fmix64, range_of};
use crate::store::{StoreModel, TableDemand};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// Fixed-point scale of units and requests.
pub const FX: f64 = 1_048_576.0;
/// Keys tracked per table for `keys.csv` (a Space-Saving sketch past it).
pub const HOT_KEY_CAP: usize = 65_536;
/// Hottest keys listed per table.
pub const HOT_KEYS_LISTED: usize = 20;
/// Most time steps kept before the timeseries halves its resolution.
const MAX_STEPS: usize = 480;

/// Where one contribution lands.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// A partition, the same in every trial (a published hash).
    Fixed(u32),
    /// A salted hash: the partition differs per trial.
    Hash(u64),
    /// Spread evenly over the partitions (fresh keys; × nodes for a broadcast).
    Spread(f64),
}

/// One window's load of one key (or spread) on one table.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    table: u32,
    place: Place,
    units: [u64; 2],
}

/// One table's keys for `keys.csv`: Space-Saving over requests past the cap.
#[derive(Debug, Default)]
struct HotKeys {
    index: FxHashMap<String, u32>,
    rows: Vec<HotRow>,
    order: Option<BTreeSet<(u64, u32)>>,
}

#[derive(Debug, Clone, Default)]
struct HotRow {
    key: String,
    partition: usize,
    requests: u64,
    writes: u64,
    units: u64,
    write_units: u64,
    window: i64,
    in_window: u64,
    peak: u64,
}

impl HotKeys {
    fn add(&mut self, key: &str, partition: usize, window: i64, req: u64, units: u64, write: bool) {
        let slot = match self.index.get(key) {
            Some(&s) => s,
            None if self.rows.len() < HOT_KEY_CAP => {
                self.rows.push(HotRow {
                    key: key.to_string(),
                    partition,
                    window,
                    ..HotRow::default()
                });
                let s = (self.rows.len() - 1) as u32;
                self.index.insert(key.to_string(), s);
                s
            }
            None => {
                let rows = &self.rows;
                let order = self.order.get_or_insert_with(|| {
                    rows.iter()
                        .enumerate()
                        .map(|(i, r)| (r.requests, i as u32))
                        .collect()
                });
                let Some((min, s)) = order.pop_first() else {
                    return;
                };
                let old = std::mem::take(&mut self.rows[s as usize]);
                self.index.remove(&old.key);
                self.rows[s as usize] = HotRow {
                    key: key.to_string(),
                    partition,
                    requests: min,
                    units: old.units,
                    write_units: old.write_units,
                    window,
                    ..HotRow::default()
                };
                self.index.insert(key.to_string(), s);
                order.insert((min, s));
                s
            }
        };
        let r = &mut self.rows[slot as usize];
        if let Some(order) = self.order.as_mut() {
            order.remove(&(r.requests, slot));
            order.insert((r.requests + req, slot));
        }
        r.requests += req;
        r.units += units;
        if write {
            r.writes += req;
            r.write_units += units;
        }
        if r.window != window {
            r.window = window;
            r.in_window = 0;
        }
        r.in_window += req;
        r.peak = r.peak.max(r.in_window);
    }
}

/// A timeseries whose step doubles whenever it would pass [`MAX_STEPS`].
#[derive(Debug, Clone)]
struct Series {
    width: usize,
    util: Vec<Vec<f64>>,
    units: Vec<Vec<f64>>,
}

impl Series {
    fn new(rows: usize) -> Series {
        Series {
            width: 1,
            util: vec![Vec::new(); rows],
            units: vec![Vec::new(); rows],
        }
    }

    fn record(&mut self, row: usize, index: usize, util: f64, units: f64) {
        while index / self.width >= MAX_STEPS {
            for r in self.util.iter_mut() {
                *r = r
                    .chunks(2)
                    .map(|c| c.iter().copied().fold(0.0, f64::max))
                    .collect();
            }
            for r in self.units.iter_mut() {
                *r = r.chunks(2).map(|c| c.iter().sum()).collect();
            }
            self.width *= 2;
        }
        let step = index / self.width;
        for v in [&mut self.util[row], &mut self.units[row]] {
            if v.len() <= step {
                v.resize(step + 1, 0.0);
            }
        }
        self.util[row][step] = self.util[row][step].max(util);
        self.units[row][step] += units;
    }

    fn finish(self, windows: usize, window_s: f64, label: &str) -> Timeseries {
        let steps = windows.div_ceil(self.width).max(1);
        let per_step = |s: usize| {
            ((s + 1) * self.width)
                .min(windows)
                .saturating_sub(s * self.width)
                .max(1) as f64
                * window_s
        };
        Timeseries {
            step_s: self.width as f64 * window_s,
            utilization: self
                .util
                .into_iter()
                .map(|mut r| {
                    r.resize(steps, 0.0);
                    r
                })
                .collect(),
            units_per_s: self
                .units
                .into_iter()
                .map(|mut r| {
                    r.resize(steps, 0.0);
                    r.iter().enumerate().map(|(s, u)| u / per_step(s)).collect()
                })
                .collect(),
            row_label: label.to_string(),
        }
    }
}

/// One table's fixed setup.
struct TableSetup {
    partitions: usize,
    partition_limits: Limits,
    node_limits: Limits,
    simulate_partitions: bool,
    nodes: Option<crate::store::NodeLayout>,
    caps: [Option<f64>; 2],
    schedule: Option<crate::store::TableLimitSchedule>,
    salted: bool,
}

/// One table in one trial.
#[derive(Clone)]
struct TrialTable {
    cur: Vec<[u64; 2]>,
    touched: Vec<u32>,
    spread: [f64; 2],
    peak: Vec<f64>,
    sum: Vec<[f64; 2]>,
    node_cur: Vec<[f64; 2]>,
    peak_utilization: f64,
    throttled: f64,
    requested: f64,
    write_peak: f64,
    throttled_write: f64,
    requested_write: f64,
    limit: Option<TableLimitTrial>,
    series: Option<Series>,
}

/// One trial: its salt, tables and the cluster's nodes.
#[derive(Clone)]
struct TrialState {
    salt: u64,
    tables: Vec<TrialTable>,
    node_cur: Vec<[f64; 2]>,
    node_peak: Vec<f64>,
    node_sum: Vec<[f64; 2]>,
}

/// The replay's running state (see the module docs).
pub struct Observer<'a> {
    plan: &'a Plan,
    store: &'a dyn StoreModel,
    routing: &'a Routing,
    scenario: &'a Scenario,
    setups: Vec<TableSetup>,
    trials: Vec<TrialState>,
    hot: Vec<HotKeys>,
    window_s: f64,
    first: Option<i64>,
    /// Requests per access pattern (fixed point ÷ FX = requests).
    pub pattern_requests: Vec<u64>,
    /// Requests no access pattern takes.
    pub unrouted: u64,
    /// Per table: requests (fixed point).
    table_requests: Vec<u64>,
    buf: String,
}

/// Salts of `trials` placements, as the engine's trials draw them.
fn salts(seed: u64, trials: u32) -> Vec<u64> {
    (0..trials)
        .map(|t| Xoshiro256PlusPlus::seed_from_u64(trial_seed(seed, t)).random::<u64>())
        .collect()
}

impl<'a> Observer<'a> {
    /// An observer of `plan`'s tables over `trials` placements (1 when every
    /// table's hash is published).
    pub fn new(
        scenario: &'a Scenario,
        plan: &'a Plan,
        store: &'a dyn StoreModel,
        routing: &'a Routing,
        trials: u32,
        window_s: f64,
    ) -> Observer<'a> {
        let per_window = |l: Option<f64>| l.map(|x| x * window_s);
        let setups: Vec<TableSetup> = plan
            .tables
            .iter()
            .map(|tp| {
                let l = &tp.layout;
                let partition_limits = Limits {
                    read: per_window(l.read_limit_per_s),
                    write: per_window(l.write_limit_per_s),
                    combined: per_window(l.combined_limit_per_s),
                };
                let node_limits = l.nodes.as_ref().map_or(Limits::default(), |n| Limits {
                    read: per_window(n.read_limit_per_s),
                    write: per_window(n.write_limit_per_s),
                    combined: per_window(n.combined_limit_per_s),
                });
                let simulate_nodes = l.nodes.is_some() && node_limits.any();
                let demand = TableDemand {
                    name: tp.name.clone(),
                    initial_bytes: 0.0,
                    has_local_index: false,
                };
                TableSetup {
                    partitions: l.partitions.max(1),
                    partition_limits,
                    node_limits,
                    simulate_partitions: partition_limits.any() || !simulate_nodes,
                    nodes: l.nodes.clone(),
                    caps: [
                        tp.key_limits.table_read_per_s,
                        tp.key_limits.table_write_per_s,
                    ],
                    schedule: store.table_limit_schedule(
                        &demand,
                        0.0,
                        scenario.simulation.duration_s,
                    ),
                    salted: store.trial_hash("probe").is_some(),
                }
            })
            .collect();
        let n_nodes = plan
            .tables
            .iter()
            .find_map(|t| t.layout.nodes.as_ref())
            .map_or(0, |n| n.nodes);
        let trials: Vec<TrialState> = salts(plan.seed, trials.max(1))
            .into_iter()
            .enumerate()
            .map(|(t, salt)| TrialState {
                salt,
                tables: setups
                    .iter()
                    .map(|s| TrialTable {
                        cur: vec![[0; 2]; s.partitions],
                        touched: Vec::new(),
                        spread: [0.0; 2],
                        peak: vec![0.0; s.partitions],
                        sum: vec![[0.0; 2]; s.partitions],
                        node_cur: vec![[0.0; 2]; s.nodes.as_ref().map_or(0, |n| n.nodes)],
                        peak_utilization: 0.0,
                        throttled: 0.0,
                        requested: 0.0,
                        write_peak: 0.0,
                        throttled_write: 0.0,
                        requested_write: 0.0,
                        limit: (s.caps.iter().any(Option::is_some) || s.schedule.is_some())
                            .then(TableLimitTrial::default),
                        series: (t == 0).then(|| {
                            Series::new(if s.simulate_partitions {
                                s.partitions
                            } else {
                                s.nodes.as_ref().map_or(0, |n| n.nodes)
                            })
                        }),
                    })
                    .collect(),
                node_cur: vec![[0.0; 2]; n_nodes],
                node_peak: vec![0.0; n_nodes],
                node_sum: vec![[0.0; 2]; n_nodes],
            })
            .collect();
        Observer {
            plan,
            store,
            routing,
            scenario,
            setups,
            trials,
            hot: plan.tables.iter().map(|_| HotKeys::default()).collect(),
            window_s,
            first: None,
            pattern_requests: vec![0; scenario.access_patterns.len()],
            unrouted: 0,
            table_requests: vec![0; plan.tables.len()],
            buf: String::new(),
        }
    }

    /// Whether placement differs per trial (a store whose hash is internal).
    pub fn salted(&self) -> bool {
        self.setups.iter().any(|s| s.salted)
    }

    /// Places and judges window `w`'s groups; windows come in order, gaps are idle windows.
    pub fn window(&mut self, w: i64, groups: WindowGroups) {
        let first = *self.first.get_or_insert(w);
        let index = (w - first) as usize;
        let mut contributions = Vec::with_capacity(groups.len());
        for (key, agg) in &groups {
            self.group(w, fields_of(key), op_of(key), agg, &mut contributions);
        }
        let setups = &self.setups;
        let plan = self.plan;
        let window_s = self.window_s;
        let start_s = index as f64 * window_s;
        self.trials.par_iter_mut().for_each(|ts| {
            for c in &contributions {
                let s = &setups[c.table as usize];
                let tt = &mut ts.tables[c.table as usize];
                let p = match c.place {
                    Place::Fixed(p) => p as usize,
                    Place::Hash(h) => range_of(fmix64(h ^ ts.salt), s.partitions),
                    Place::Spread(f) => {
                        tt.spread[0] += c.units[0] as f64 * f;
                        tt.spread[1] += c.units[1] as f64 * f;
                        continue;
                    }
                };
                if tt.cur[p] == [0, 0] {
                    tt.touched.push(p as u32);
                }
                tt.cur[p][0] += c.units[0];
                tt.cur[p][1] += c.units[1];
            }
            close_window(ts, setups, plan, index, start_s);
        });
    }

    /// One group's contributions to every stream its pattern reaches.
    fn group(
        &mut self,
        w: i64,
        fields: &[u8],
        op: crate::logs::Op,
        agg: &crate::logs::Agg,
        out: &mut Vec<Contribution>,
    ) {
        let Some(pi) = self.routing.pattern_of[op as usize] else {
            self.unrouted += agg.count;
            return;
        };
        self.pattern_requests[pi] += agg.count;
        let values: Vec<&[u8]> = fields.split(|&b| b == FIELD_SEPARATOR).collect();
        let pattern = &self.scenario.access_patterns[pi];
        for &Target { table, stream } in &self.routing.targets[pi] {
            let tp = &self.plan.tables[table];
            let s = &tp.streams[stream];
            let fan: f64 = s.subkeys.iter().map(|k| k.weight).sum::<f64>().max(1e-12);
            let unit = match agg.mean_bytes().filter(|_| tp.global_index_of.is_none()) {
                Some(b) if s.is_write => self.store.write_cost(
                    pattern.operation,
                    self.store
                        .request_consistency(pattern.written_consistency()),
                    b,
                ),
                Some(b) => {
                    let items = f64::from(pattern.items.max(1)) / fan;
                    self.store.read_cost(
                        pattern.operation,
                        self.store
                            .request_consistency(pattern.written_consistency()),
                        b / fan,
                        items,
                    )
                }
                None => s.severity.mean,
            };
            let side = usize::from(s.is_write);
            let p_count = tp.layout.partitions.max(1);
            if tp.keys.fresh || s.broadcast {
                let req = agg.count as f64;
                let units = (req * fan * unit * FX).round() as u64;
                let mut u = [0u64; 2];
                u[side] = units;
                let nodes = tp.layout.nodes.as_ref().map_or(1, |n| n.nodes.max(1)) as f64;
                let place = if s.broadcast {
                    Place::Spread(nodes / p_count as f64)
                } else if self.store.ranged() && (s.is_write || s.is_query) {
                    Place::Fixed((p_count - 1) as u32)
                } else {
                    Place::Spread(1.0 / p_count as f64)
                };
                self.table_requests[table] += (req * fan * FX).round() as u64;
                out.push(Contribution {
                    table: table as u32,
                    place,
                    units: u,
                });
                continue;
            }
            for sk in &s.subkeys {
                let bucket = tp
                    .bucket_s
                    .map_or(0, |b| ((w as f64 * self.window_s) / b).floor() as i64)
                    - i64::from(sk.bucket_back);
                self.buf.clear();
                for part in &tp.keys.template {
                    match part {
                        TemplatePart::Literal(l) => self.buf.push_str(l),
                        TemplatePart::Entity(name) => {
                            let v = self
                                .routing
                                .field_of(name)
                                .and_then(|i| values.get(i))
                                .copied()
                                .unwrap_or(b"?");
                            self.buf.push_str(&String::from_utf8_lossy(v));
                        }
                        TemplatePart::Bucket => self.buf.push_str(&bucket.to_string()),
                        TemplatePart::Shard => {
                            self.buf.push_str(&sk.shard.unwrap_or(0).to_string())
                        }
                        TemplatePart::Time | TemplatePart::Id => {}
                    }
                }
                let req = agg.count as f64 * sk.weight;
                let req_fx = (req * FX).round() as u64;
                let units = (req * unit * FX).round() as u64;
                let mut u = [0u64; 2];
                u[side] = units;
                let (place, p0) = match self.store.trial_hash(&self.buf) {
                    Some(h) => (
                        Place::Hash(h),
                        range_of(fmix64(h ^ self.trials[0].salt), p_count),
                    ),
                    None => {
                        let p = self.store.place(&self.buf, p_count).min(p_count - 1);
                        (Place::Fixed(p as u32), p)
                    }
                };
                self.hot[table].add(&self.buf, p0, w, req_fx, units, s.is_write);
                self.table_requests[table] += req_fx;
                out.push(Contribution {
                    table: table as u32,
                    place,
                    units: u,
                });
            }
        }
    }

    /// The per-trial outcomes (`[trial][table]`) over `windows` windows,
    /// sizes over the horizon from `growth_plan` (the same tables at the
    /// observed rates).
    pub fn finish(self, windows: usize, growth_plan: &Plan) -> Vec<Vec<TableTrial>> {
        let duration_s = windows as f64 * self.window_s;
        let plan = self.plan;
        let setups = &self.setups;
        let hot = &self.hot;
        self.trials
            .into_iter()
            .enumerate()
            .map(|(t, ts)| {
                let node_ranked = node_ranking(&ts, plan, duration_s, self.window_s);
                ts.tables
                    .into_iter()
                    .enumerate()
                    .map(|(ti, tt)| {
                        let c = TrialContext {
                            trial: t,
                            node_ranked: &node_ranked,
                            duration_s,
                            window_s: self.window_s,
                            windows,
                            seed: plan.seed,
                        };
                        table_trial(
                            &c,
                            ti,
                            tt,
                            &setups[ti],
                            &growth_plan.tables[ti],
                            (&hot[ti], self.table_requests[ti]),
                        )
                    })
                    .collect()
            })
            .collect()
    }

    /// Per table: the busiest key's write requests per second over the log.
    pub fn hottest_key_writes_per_s(&self, duration_s: f64) -> Vec<f64> {
        self.hot
            .iter()
            .map(|h| h.rows.iter().map(|r| r.writes).max().unwrap_or(0) as f64 / FX / duration_s)
            .collect()
    }
}

/// Ends window `index` of one trial: every touched partition against its
/// limits, the nodes, the table limit, the timeseries.
fn close_window(
    ts: &mut TrialState,
    setups: &[TableSetup],
    plan: &Plan,
    index: usize,
    start_s: f64,
) {
    for (ti, (tt, s)) in ts.tables.iter_mut().zip(setups).enumerate() {
        let _ = ti;
        let spread = tt.spread;
        if spread != [0.0, 0.0] {
            for p in 0..s.partitions {
                if tt.cur[p] == [0, 0] {
                    tt.touched.push(p as u32);
                }
            }
        }
        let mut table = [0.0f64; 2];
        let mut excess_sum = 0.0;
        let mut peak = 0.0f64;
        let touched = std::mem::take(&mut tt.touched);
        for &p in &touched {
            let p = p as usize;
            let r = tt.cur[p][0] as f64 / FX + spread[0] / FX;
            let w = tt.cur[p][1] as f64 / FX + spread[1] / FX;
            tt.cur[p] = [0, 0];
            tt.sum[p][0] += r;
            tt.sum[p][1] += w;
            table[0] += r;
            table[1] += w;
            if let Some(nl) = s.nodes.as_ref() {
                let replicas = &nl.replicas[p.min(nl.replicas.len() - 1)];
                let read_share = (nl.read_replicas as f64 / replicas.len().max(1) as f64).min(1.0);
                for &n in replicas {
                    if n < tt.node_cur.len() {
                        tt.node_cur[n][0] += r * read_share;
                        tt.node_cur[n][1] += w;
                    }
                }
            }
            if s.simulate_partitions {
                let (util, excess) = s.partition_limits.apply(r, w);
                let (wu, wx) = s.partition_limits.write_excess(w);
                tt.peak[p] = tt.peak[p].max(util);
                peak = peak.max(util);
                excess_sum += excess;
                tt.write_peak = tt.write_peak.max(wu);
                tt.throttled_write += wx;
                tt.requested += r + w;
                tt.requested_write += w;
                if let Some(series) = tt.series.as_mut() {
                    series.record(p, index, util, r + w);
                }
            }
        }
        tt.spread = [0.0; 2];
        if !s.simulate_partitions {
            for n in 0..tt.node_cur.len() {
                let [r, w] = std::mem::take(&mut tt.node_cur[n]);
                ts.node_cur[n][0] += r;
                ts.node_cur[n][1] += w;
                if r + w == 0.0 {
                    continue;
                }
                let (util, excess) = s.node_limits.apply(r, w);
                peak = peak.max(util);
                excess_sum += excess;
                tt.requested += r + w;
                tt.requested_write += w;
                if let Some(series) = tt.series.as_mut() {
                    series.record(n, index, util, r + w);
                }
            }
        } else {
            for n in 0..tt.node_cur.len() {
                let [r, w] = std::mem::take(&mut tt.node_cur[n]);
                ts.node_cur[n][0] += r;
                ts.node_cur[n][1] += w;
            }
        }
        let table_excess =
            table_limit_window(tt, s, table, index, start_s, plan.window_s, &mut peak);
        tt.throttled += excess_sum.max(table_excess);
        tt.peak_utilization = tt.peak_utilization.max(peak);
        tt.touched = touched;
        tt.touched.clear();
    }
    if let Some(nl) = plan.tables.iter().find_map(|t| t.layout.nodes.as_ref()) {
        let per_window = |l: Option<f64>| l.map(|x| x * plan.window_s);
        let limits = Limits {
            read: per_window(nl.read_limit_per_s),
            write: per_window(nl.write_limit_per_s),
            combined: per_window(nl.combined_limit_per_s),
        };
        for n in 0..ts.node_cur.len() {
            let [r, w] = std::mem::take(&mut ts.node_cur[n]);
            ts.node_sum[n][0] += r;
            ts.node_sum[n][1] += w;
            if limits.any() {
                ts.node_peak[n] = ts.node_peak[n].max(limits.apply(r, w).0);
            }
        }
    }
}

/// The table's units of one window against its table-level limits; returns
/// the units over them and raises `peak` when the table has no partition limits.
fn table_limit_window(
    tt: &mut TrialTable,
    s: &TableSetup,
    table: [f64; 2],
    index: usize,
    start_s: f64,
    window_s: f64,
    peak: &mut f64,
) -> f64 {
    let Some(tl) = tt.limit.as_mut() else {
        return 0.0;
    };
    let (util, excess) = match s.schedule.as_ref().and_then(|sc| sc.limit_at(start_s)) {
        Some(l) => Limits {
            combined: Some(l * window_s),
            ..Limits::default()
        }
        .apply(table[0], table[1]),
        None => {
            let (mut util, mut excess) = (0.0f64, 0.0);
            for (side, cap) in s.caps.iter().enumerate() {
                let Some(cap) = *cap else { continue };
                let limit = cap * window_s;
                let (u, x) = if limit > 0.0 {
                    (table[side] / limit, (table[side] - limit).max(0.0))
                } else {
                    (
                        if table[side] > 0.0 {
                            f64::INFINITY
                        } else {
                            0.0
                        },
                        table[side],
                    )
                };
                let side_outcome = &mut tl.sides[side];
                side_outcome.throttled_units += x;
                side_outcome.requested_units += table[side];
                side_outcome.peak_utilization = side_outcome.peak_utilization.max(u);
                util = util.max(u);
                excess += x;
            }
            (util, excess)
        }
    };
    tl.throttled_units += excess;
    tl.peak_utilization = tl.peak_utilization.max(util);
    if excess > 0.0 {
        tl.clear_s = (index + 1) as f64 * window_s;
    }
    if !s.partition_limits.any() {
        *peak = peak.max(util);
    }
    excess
}

/// Sorts rows busiest first, as the engine ranks partitions and nodes.
fn rank_busiest(rows: &mut [[f64; 4]]) {
    rows.sort_by(|a, b| {
        b[2].total_cmp(&a[2])
            .then(b[3].total_cmp(&a[3]))
            .then((b[0] + b[1]).total_cmp(&(a[0] + a[1])))
    });
}

/// The cluster's nodes of one trial, ranked.
fn node_ranking(ts: &TrialState, plan: &Plan, duration_s: f64, window_s: f64) -> Vec<[f64; 4]> {
    let Some(nl) = plan.tables.iter().find_map(|t| t.layout.nodes.as_ref()) else {
        return Vec::new();
    };
    let per_window = |l: Option<f64>| l.map(|x| x * window_s);
    let limits = Limits {
        read: per_window(nl.read_limit_per_s),
        write: per_window(nl.write_limit_per_s),
        combined: per_window(nl.combined_limit_per_s),
    };
    let mut rows: Vec<[f64; 4]> = ts
        .node_sum
        .iter()
        .zip(&ts.node_peak)
        .map(|(s, &pk)| {
            let (r, w) = (s[0] / duration_s, s[1] / duration_s);
            [r, w, limits.apply(r * window_s, w * window_s).0, pk]
        })
        .collect();
    rank_busiest(&mut rows);
    rows
}

/// One table's outcome in trial `t`.
/// What every table's outcome of a trial shares: the trial, the cluster's
/// node ranking, the span and the seed.
struct TrialContext<'a> {
    trial: usize,
    node_ranked: &'a [[f64; 4]],
    duration_s: f64,
    window_s: f64,
    windows: usize,
    seed: u64,
}

fn table_trial(
    c: &TrialContext<'_>,
    ti: usize,
    tt: TrialTable,
    s: &TableSetup,
    tp: &TablePlan,
    hot: (&HotKeys, u64),
) -> TableTrial {
    let TrialContext {
        trial: t,
        node_ranked,
        duration_s,
        window_s,
        windows,
        seed,
    } = *c;
    let mut ranked: Vec<[f64; 4]> = tt
        .sum
        .iter()
        .zip(&tt.peak)
        .map(|(u, &pk)| {
            let (r, w) = (u[0] / duration_s, u[1] / duration_s);
            let mu = if s.simulate_partitions {
                s.partition_limits.apply(r * window_s, w * window_s).0
            } else {
                0.0
            };
            [r, w, mu, pk]
        })
        .collect();
    let total: f64 = ranked.iter().map(|r| r[0] + r[1]).sum();
    let hottest = if total > 0.0 {
        ranked.iter().map(|r| r[0] + r[1]).fold(0.0, f64::max) / total
    } else {
        0.0
    };
    rank_busiest(&mut ranked);
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(trial_seed(seed ^ 0x6E0_4711, t as u32) ^ ti as u64);
    let label = if s.simulate_partitions {
        "partition"
    } else {
        "node"
    };
    TableTrial {
        peak_utilization: tt.peak_utilization,
        throttled_units: tt.throttled,
        requested_units: tt.requested,
        write_peak_utilization: tt.write_peak,
        throttled_write_units: tt.throttled_write,
        requested_write_units: tt.requested_write,
        hottest_partition_share: hottest,
        ranked: Ranked::new(ranked),
        node_ranked: Ranked::new(if tp.layout.nodes.is_some() {
            node_ranked.to_vec()
        } else {
            Vec::new()
        }),
        node_memory: None,
        growth: tp.growth.simulate(&mut rng),
        hot_keys: if t == 0 {
            hot_keys(hot, duration_s, window_s)
        } else {
            Vec::new()
        },
        timeseries: tt.series.map(|x| x.finish(windows, window_s, label)),
        table_limit: tt.limit,
    }
}

/// The hottest keys of a table, by units.
fn hot_keys((hot, total): (&HotKeys, u64), duration_s: f64, window_s: f64) -> Vec<KeyLoad> {
    let mut rows: Vec<&HotRow> = hot.rows.iter().collect();
    rows.sort_by(|a, b| {
        b.units
            .cmp(&a.units)
            .then(b.requests.cmp(&a.requests))
            .then(a.key.cmp(&b.key))
    });
    let _ = window_s;
    rows.into_iter()
        .take(HOT_KEYS_LISTED)
        .map(|r| KeyLoad {
            key: r.key.clone(),
            partition: r.partition,
            request_share: if total > 0 {
                r.requests as f64 / total as f64
            } else {
                0.0
            },
            requests_per_s: r.requests as f64 / FX / duration_s,
            units_per_s: r.units as f64 / FX / duration_s,
            read_units_per_s: (r.units - r.write_units) as f64 / FX / duration_s,
            write_units_per_s: r.write_units as f64 / FX / duration_s,
            peak_window_requests: r.peak as f64 / FX,
        })
        .collect()
}
