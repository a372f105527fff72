//! A segment by the exact method: each request draws its key from the
//! stream's alias table over every key (fused with the key's partition), and
//! its units from the cost distribution; every window is then judged on the
//! table's servers and against its table-level limit.

use super::accumulator::{SideOutcome, TableAccumulator, TableSetup};
use super::placement::{AliasEntries, Placed};
use super::segments::Segment;
use super::stream::Stream;
use super::window::{Limits, Outcome};
use crate::distributions::alias::{merge_cold, AliasTable};
use crate::store::NodeLayout;
use rand::Rng;
use rand_distr::{Distribution, Poisson};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Hottest keys kept as their own alias slots by the exact method.
pub const EXACT_KEYS_KEPT: usize = 1024;

/// Per-request sampling of segment `seg` at rates `placed` (keys drawn from
/// `entries`), adding the outcome to `acc`.
pub(super) fn exact_segment(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    placed: &[Placed],
    entries: &AliasEntries,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) {
    let plan = setup.plan;
    // Keys are drawn one by one; cold keys sharing a partition share a slot.
    let aliases: Vec<Option<AliasTable>> = entries
        .iter()
        .map(|e| {
            e.as_ref()
                .and_then(|v| AliasTable::new(&merge_cold(v, EXACT_KEYS_KEPT, setup.p_count)))
        })
        .collect();
    let samplers: Vec<Option<Poisson<f64>>> = placed
        .iter()
        .map(|pl| {
            let lam = pl.per_partition.iter().sum::<f64>() * plan.window_s;
            (lam > 0.0).then(|| Poisson::new(lam).ok()).flatten()
        })
        .collect();
    // Units per window the whole table may take in this segment, if limited.
    let table_cap = setup
        .table
        .table_limit
        .as_ref()
        .and_then(|l| l.at_window(seg.start));
    let mut w = ExactWindows::new(setup, table_cap);
    for wi in seg.start..seg.end {
        for (si, s) in setup.table.streams.iter().enumerate() {
            if let (Some(alias), Some(pois)) = (&aliases[si], &samplers[si]) {
                w.draw_stream(setup, s, alias, pois, rng);
            }
        }
        if setup.simulate_partitions {
            w.judge_partitions(setup, acc, wi);
        }
        if let (Some(nl), true) = (setup.nodes(), setup.simulate_nodes) {
            w.judge_nodes(setup, nl, acc, wi);
        }
        if let Some(limits) = table_cap {
            // Without per-partition limits the table peaks against its own.
            w.judge_table(limits, !setup.partition_limits.any());
        }
        w.end_window();
    }
    acc.total.merge(w.out);
    if let (Some(tl), Some(t)) = (acc.table_limit.as_mut(), w.table_out) {
        tl.record(&t, seg.end, plan.window_s);
        for (mine, seg_side) in tl.sides.iter_mut().zip(w.table_sides) {
            mine.throttled_units += seg_side.throttled_units;
            mine.requested_units += seg_side.requested_units;
            mine.peak_utilization = mine.peak_utilization.max(seg_side.peak_utilization);
        }
    }
}

/// One exact segment being drawn: the current window's units per partition
/// and node, and the segment's outcome so far.
struct ExactWindows {
    r_units: Vec<f64>,
    w_units: Vec<f64>,
    node_r: Vec<f64>,
    node_w: Vec<f64>,
    /// Reads reach `read_replicas` of a partition's replicas: drawn per
    /// request when some partition has more replicas than that.
    per_request_reads: bool,
    /// Units the current window loses on its servers (partitions or nodes).
    window_over: f64,
    /// The write units of them.
    window_over_write: f64,
    /// The write units the current window loses against the table's
    /// separate write cap beyond its servers' (its read units' excess is
    /// taken into `window_over`).
    table_over_write: f64,
    /// The segment's outcome.
    out: Outcome,
    /// The segment's outcome against the table-level limit, when it has one.
    table_out: Option<Outcome>,
    /// Against the table's constant read and write caps, each on its own.
    table_sides: [SideOutcome; 2],
}

impl ExactWindows {
    fn new(setup: &TableSetup<'_>, table_cap: Option<Limits>) -> ExactWindows {
        let (p_count, n_nodes) = (setup.p_count, setup.n_nodes);
        let per_request_reads = setup.simulate_nodes
            && setup.nodes().is_some_and(|nl| {
                nl.read_replicas < nl.replicas.iter().map(<[usize]>::len).max().unwrap_or(0)
            });
        ExactWindows {
            r_units: vec![0.0f64; p_count],
            w_units: vec![0.0f64; p_count],
            node_r: vec![0.0f64; n_nodes],
            node_w: vec![0.0f64; n_nodes],
            per_request_reads,
            window_over: 0.0,
            window_over_write: 0.0,
            table_over_write: 0.0,
            out: Outcome::default(),
            table_out: table_cap.map(|_| Outcome::default()),
            table_sides: [SideOutcome::default(); 2],
        }
    }

    /// Draws one stream's requests of this window: their number, then each
    /// one's partition and units.
    fn draw_stream(
        &mut self,
        setup: &TableSetup<'_>,
        s: &Stream,
        alias: &AliasTable,
        pois: &Poisson<f64>,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let n: f64 = pois.sample(rng);
        self.out.requests += n;
        // A read on a replicated store reaches `read_replicas` of its
        // partition's replicas, drawn per request (the aggregated method
        // thins the Poisson arrivals the same way).
        let replicated_read = setup
            .nodes()
            .filter(|_| self.per_request_reads && !s.is_write);
        if let Some(nl) = replicated_read {
            self.draw_replicated_reads(nl, s, alias, n, rng);
            return;
        }
        let units = if s.is_write {
            &mut self.w_units
        } else {
            &mut self.r_units
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

    /// `n` reads, each on `read_replicas` distinct replicas of its partition.
    fn draw_replicated_reads(
        &mut self,
        nl: &NodeLayout,
        s: &Stream,
        alias: &AliasTable,
        n: f64,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let n_nodes = self.node_r.len();
        for _ in 0..n as u64 {
            let p = alias.sample(rng) as usize;
            let u = if s.severity.constant {
                s.severity.mean
            } else {
                s.severity.sample_one(rng)
            };
            self.r_units[p] += u;
            let reps = &nl.replicas[p];
            let k = reps.len();
            let m = nl.read_replicas.min(k);
            if m >= k {
                for &node in reps.iter().filter(|&&x| x < n_nodes) {
                    self.node_r[node] += u;
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
                    self.node_r[node] += u;
                }
            }
        }
    }

    /// This window on every partition, burst credit first.
    fn judge_partitions(&mut self, setup: &TableSetup<'_>, acc: &mut TableAccumulator, wi: usize) {
        let limits = &setup.partition_limits;
        let out = &mut self.out;
        for p in 0..setup.p_count {
            let (r, w) = (self.r_units[p], self.w_units[p]);
            let (util, over) = limits.apply(r, w);
            acc.peak[p] = acc.peak[p].max(util);
            out.peak_utilization = out.peak_utilization.max(util);
            let spend = over.min(acc.burst_left[p]);
            acc.burst_left[p] -= spend;
            self.window_over += over - spend;
            out.requested_units += r + w;
            let (w_util, w_over) = limits.write_excess(w);
            out.write_peak_utilization = out.write_peak_utilization.max(w_util);
            if over > 0.0 {
                let lost = w_over * (1.0 - spend / over);
                out.throttled_write_units += lost;
                self.window_over_write += lost;
            }
            out.requested_write_units += w;
            if let Some(series) = acc.series.as_mut() {
                series.record(p, wi, util, r + w);
            }
        }
    }

    /// This window on every node: the node units go to the cluster's draws;
    /// without partition limits they are also the table's outcome.
    fn judge_nodes(
        &mut self,
        setup: &TableSetup<'_>,
        nl: &NodeLayout,
        acc: &mut TableAccumulator,
        wi: usize,
    ) {
        let n_nodes = setup.n_nodes;
        for (p, replicas) in nl.replicas.iter().enumerate().take(setup.p_count) {
            for &n in replicas.iter().filter(|&&n| n < n_nodes) {
                // Otherwise drawn per request above.
                if !self.per_request_reads {
                    self.node_r[n] += self.r_units[p];
                }
                self.node_w[n] += self.w_units[p];
            }
        }
        let limits = &setup.node_limits;
        let out = &mut self.out;
        for n in 0..n_nodes {
            let (r, w) = (self.node_r[n], self.node_w[n]);
            if let Some(x) = acc.load.exact.get_mut(wi).and_then(|row| row.get_mut(n)) {
                *x = [r, w];
            }
            let (util, over) = limits.apply(r, w);
            acc.node_peak[n] = acc.node_peak[n].max(util);
            if !setup.simulate_partitions {
                out.peak_utilization = out.peak_utilization.max(util);
                self.window_over += over;
                out.requested_units += r + w;
                let (w_util, w_over) = limits.write_excess(w);
                out.write_peak_utilization = out.write_peak_utilization.max(w_util);
                out.throttled_write_units += w_over;
                self.window_over_write += w_over;
                out.requested_write_units += w;
                if let Some(series) = acc.series.as_mut() {
                    series.record(n, wi, util, r + w);
                }
            }
            self.node_r[n] = 0.0;
            self.node_w[n] = 0.0;
        }
    }

    /// The whole table's units this window against its limit of `cap` units.
    fn judge_table(&mut self, limits: Limits, own_peak: bool) {
        let Some(t) = self.table_out.as_mut() else {
            return;
        };
        let (r, w): (f64, f64) = (self.r_units.iter().sum(), self.w_units.iter().sum());
        let (util, over) = if limits.read.is_none() && limits.write.is_none() {
            limits.apply(0.0, r + w)
        } else {
            limits.apply(r, w)
        };
        // The constant caps, each side on its own.
        for (side, (cap, units)) in [(limits.read, r), (limits.write, w)]
            .into_iter()
            .enumerate()
        {
            if let Some(cap) = cap {
                let s = &mut self.table_sides[side];
                s.requested_units += units;
                s.throttled_units += (units - cap).max(0.0);
                s.peak_utilization = s.peak_utilization.max(units / cap);
            }
        }
        t.peak_utilization = t.peak_utilization.max(util);
        t.throttled_units += over;
        if own_peak {
            self.out.peak_utilization = self.out.peak_utilization.max(util);
        }
        if limits.combined.is_some() {
            // Over both limits at once, a window loses the larger excess.
            self.window_over = self.window_over.max(over);
        } else {
            // Separate read and write caps: each side loses the larger of
            // its excesses over its servers' limits and over its cap (a
            // read cap's excess is not netted against partitions' writes:
            // DynamoDB throttles reads and writes apart).
            let (_, over_w) = limits.write_excess(w);
            let server_read = self.window_over - self.window_over_write;
            let read = server_read.max(over - over_w);
            let write = self.window_over_write.max(over_w);
            self.table_over_write = write - self.window_over_write;
            self.window_over = read + write;
        }
    }

    /// Closes the window: its lost units count, its units reset.
    fn end_window(&mut self) {
        self.out.throttled_units += self.window_over;
        self.out.throttled_write_units += self.table_over_write;
        self.window_over = 0.0;
        self.window_over_write = 0.0;
        self.table_over_write = 0.0;
        self.r_units.iter_mut().for_each(|x| *x = 0.0);
        self.w_units.iter_mut().for_each(|x| *x = 0.0);
    }
}
