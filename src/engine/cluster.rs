//! The cluster's nodes, shared by every table of a trial: each table hands
//! over its node rates ([`NodeLoad`]) and the node windows are drawn once for
//! the whole cluster.

use super::plan::{Method, Plan, TablePlan};
use super::window::{collapsed, draw_windows, Component, Limits};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Mixed into the trial seed for the cluster-wide node draws.
pub(super) const CLUSTER_SEED: u64 = 0xC1u64 << 56 | 0x05_7E12;

/// One segment's node rates.
#[derive(Debug, Clone)]
pub(super) struct NodeSegment {
    /// First window.
    pub(super) start: usize,
    /// Window after the last.
    pub(super) end: usize,
    /// `lam[node][stream]`: requests/s.
    pub(super) lam: Vec<Vec<f64>>,
}

/// One table's node rates, handed to [`cluster_nodes`].
#[derive(Debug, Default, Clone)]
pub(super) struct NodeLoad {
    /// Per segment (aggregated and windows methods).
    pub(super) segments: Vec<NodeSegment>,
    /// Mean (read, write) units/s per node over the busy period.
    pub(super) mean: Vec<[f64; 2]>,
    /// Exact method: (read, write) units per node in each window.
    pub(super) exact: Vec<Vec<[f64; 2]>>,
}

/// The cluster's node load: per node, (read units/s, write units/s, mean
/// utilization, peak-window utilization), summed over every table, sorted
/// busiest first. The aggregated and windows methods draw each node's windows
/// from the summed per-stream rates (a node's windows are a compound Poisson
/// sum over all tables' streams, as one table's are over its streams); the
/// exact method adds the tables' per-window node units.
///
/// Also each table's share of the nodes' throttled units ([`Throttled`]):
/// a node's excess in a window (or a drawn stretch) split over the tables
/// in proportion to their units on it, since a node over its limit slows
/// every request it serves, whichever table's.
pub(super) fn cluster_nodes(
    plan: &Plan,
    loads: &[NodeLoad],
    rng: &mut Xoshiro256PlusPlus,
) -> (Vec<[f64; 4]>, Vec<Throttled>) {
    let mut throttled = vec![Throttled::default(); loads.len()];
    let Some(nl) = plan.tables.iter().find_map(|tp| tp.layout.nodes.as_ref()) else {
        return (Vec::new(), throttled);
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
            exact_peaks(plan, loads, &limits, (&mut peak, &mut throttled));
        } else {
            drawn_peaks(plan, loads, &limits, (&mut peak, &mut throttled), rng);
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
    rank_busiest(&mut ranked);
    (ranked, throttled)
}

/// Whether table `tp` is limited by its nodes alone (no per-partition
/// limit): its own draws are its nodes' load.
pub(super) fn limited_by_nodes_alone(tp: &TablePlan) -> bool {
    let l = &tp.layout;
    l.nodes.is_some()
        && l.read_limit_per_s.is_none()
        && l.write_limit_per_s.is_none()
        && l.combined_limit_per_s.is_none()
}

/// One table's part of the cluster's throttled units ([`cluster_nodes`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Throttled {
    /// Units over the node limits, summed over windows and nodes.
    pub(super) units: f64,
    /// Of them, write units over separate write limits.
    pub(super) write_units: f64,
}

/// Adds a node's `excess` (units, write units) to the tables in
/// proportion to `units`, each table's units on the node.
fn share_excess(throttled: &mut [Throttled], units: &[f64], excess: (f64, f64)) {
    let total: f64 = units.iter().sum();
    if total <= 0.0 || (excess.0 <= 0.0 && excess.1 <= 0.0) {
        return;
    }
    for (t, &u) in throttled.iter_mut().zip(units) {
        t.units += excess.0 * u / total;
        t.write_units += excess.1 * u / total;
    }
}

/// A rank row with every figure +0: a server without load.
pub(super) const IDLE: [f64; 4] = [0.0; 4];

/// Whether a rank row is idle: every figure +0 (bit for bit: −0 is not).
pub(super) fn is_idle(row: &[f64; 4]) -> bool {
    row.iter().all(|x| x.to_bits() == 0)
}

/// Sorts per-server rows (read units/s, write units/s, mean utilization,
/// peak utilization) busiest first: by mean utilization, then peak, then
/// units, then read units — a total order on the rows ([`busier`]), so any
/// sort gives the one result. Thousands of rows per trial (a Redis
/// Cluster's 16,384 slots) are sorted cheaper: idle rows (every figure +0)
/// are set aside and put back where they rank; the others are sorted as
/// (key, index) pairs, the key the first of those figures that differs
/// between rows, as an integer in `total_cmp`'s order, so that comparisons
/// are integer compares; rows tied on the key (a run of servers of equal
/// load, thousands when partitions are drawn in exchangeable groups) are
/// then ordered by the other figures as integers too.
pub(super) fn rank_busiest(rows: &mut [[f64; 4]]) {
    if rows.len() < 64 {
        rows.sort_unstable_by(busier);
        return;
    }
    let busy: Vec<u32> = (0..rows.len() as u32)
        .filter(|&i| !is_idle(&rows[i as usize]))
        .collect();
    let figures: [fn(&[f64; 4]) -> f64; 3] = [|r| r[2], |r| r[3], |r| r[0] + r[1]];
    let primary = figures
        .iter()
        .copied()
        .find(|f| {
            let mut values = busy.iter().map(|&i| f(&rows[i as usize]).to_bits());
            let first = values.next();
            values.any(|v| Some(v) != first)
        })
        .unwrap_or(figures[2]);
    // Descending in total_cmp's order: the larger figure, the smaller key.
    let key = |x: f64| {
        let bits = x.to_bits() as i64;
        let ordered = bits ^ ((((bits >> 63) as u64) >> 1) as i64);
        !((ordered as u64) ^ (1 << 63))
    };
    let mut keyed: Vec<(u64, u32)> = busy
        .iter()
        .map(|&i| (key(primary(&rows[i as usize])), i))
        .collect();
    sort_by_key_radix(&mut keyed);
    // Rows tied on the key (servers of equal load) are put in busier's
    // order by all five figures as integers (the same key, then the rest),
    // without reading the rows at each comparison.
    let mut run = 0;
    while run < keyed.len() {
        let first = keyed[run].0;
        let end = run + keyed[run..].iter().take_while(|e| e.0 == first).count();
        if end - run > 1 {
            let mut tied: Vec<([u64; 4], u32)> = keyed[run..end]
                .iter()
                .map(|&(_, i)| {
                    let r = &rows[i as usize];
                    ([key(r[3]), key(r[0] + r[1]), key(r[0]), key(r[1])], i)
                })
                .collect();
            tied.sort_unstable_by_key(|e| e.0);
            for (slot, e) in keyed[run..end].iter_mut().zip(&tied) {
                slot.1 = e.1;
            }
        }
        run = end;
    }
    let idle = rows.len() - keyed.len();
    let at = keyed.partition_point(|e| busier(&rows[e.1 as usize], &IDLE).is_lt());
    let mut sorted: Vec<[f64; 4]> = Vec::with_capacity(rows.len());
    sorted.extend(keyed[..at].iter().map(|e| rows[e.1 as usize]));
    sorted.extend(std::iter::repeat_n(IDLE, idle));
    sorted.extend(keyed[at..].iter().map(|e| rows[e.1 as usize]));
    rows.copy_from_slice(&sorted);
}

/// Sorts (key, index) pairs by key, ascending: a least-significant-digit
/// radix sort, one byte of the key a pass, skipping the bytes every key
/// shares (a float's sign and exponent, mostly). Stable; below 256 pairs a
/// comparison sort. [`rank_busiest`] sorts thousands of pairs every trial,
/// where this costs a third of a comparison sort's time.
fn sort_by_key_radix(pairs: &mut Vec<(u64, u32)>) {
    if pairs.len() < 256 {
        pairs.sort_unstable_by_key(|e| e.0);
        return;
    }
    let mut counts = [[0usize; 256]; 8];
    for &(key, _) in pairs.iter() {
        for (byte, count) in counts.iter_mut().enumerate() {
            count[((key >> (8 * byte)) & 0xff) as usize] += 1;
        }
    }
    let mut other = vec![(0u64, 0u32); pairs.len()];
    let mut in_other = false;
    for (byte, count) in counts.iter().enumerate() {
        if count.contains(&pairs.len()) {
            continue;
        }
        let mut offsets = [0usize; 256];
        let mut sum = 0;
        for (offset, &c) in offsets.iter_mut().zip(count) {
            *offset = sum;
            sum += c;
        }
        let (from, to) = if in_other {
            (&other, &mut *pairs)
        } else {
            (&*pairs, &mut other)
        };
        for &e in from.iter() {
            let digit = ((e.0 >> (8 * byte)) & 0xff) as usize;
            to[offsets[digit]] = e;
            offsets[digit] += 1;
        }
        in_other = !in_other;
    }
    if in_other {
        pairs.copy_from_slice(&other);
    }
}

/// [`rank_busiest`]'s order: `Less` when `a` is the busier row.
fn busier(a: &[f64; 4], b: &[f64; 4]) -> std::cmp::Ordering {
    b[2].total_cmp(&a[2])
        .then(b[3].total_cmp(&a[3]))
        .then((b[0] + b[1]).total_cmp(&(a[0] + a[1])))
        .then(b[0].total_cmp(&a[0]))
        .then(b[1].total_cmp(&a[1]))
}

/// The exact method: each node's peak window over the tables' summed
/// units, and its excess in each window shared by the tables' units.
fn exact_peaks(
    plan: &Plan,
    loads: &[NodeLoad],
    limits: &Limits,
    (peak, throttled): (&mut [f64], &mut [Throttled]),
) {
    let mut units = vec![0.0; loads.len()];
    for w in 0..plan.windows {
        for (n, pk) in peak.iter_mut().enumerate() {
            let (mut r, mut wr) = (0.0, 0.0);
            for (l, u) in loads.iter().zip(units.iter_mut()) {
                *u = 0.0;
                if let Some(x) = l.exact.get(w).and_then(|row| row.get(n)) {
                    r += x[0];
                    wr += x[1];
                    *u = x[0] + x[1];
                }
            }
            let (util, excess) = limits.apply(r, wr);
            *pk = pk.max(util);
            let write_excess = limits.write.map_or(0.0, |l| (wr - l).max(0.0));
            share_excess(throttled, &units, (excess, write_excess));
        }
    }
}

/// The aggregated and windows methods: each node's windows drawn per stretch
/// where no table's segment changes.
fn drawn_peaks(
    plan: &Plan,
    loads: &[NodeLoad],
    limits: &Limits,
    (peak, throttled): (&mut [f64], &mut [Throttled]),
    rng: &mut Xoshiro256PlusPlus,
) {
    let mut units = vec![0.0; loads.len()];
    let shared = loads.len() > 1 || !plan.tables.iter().all(limited_by_nodes_alone);
    let mut cuts: Vec<usize> = loads
        .iter()
        .flat_map(|l| l.segments.iter().flat_map(|s| [s.start, s.end]))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut cursor = vec![0usize; loads.len()];
    for c in cuts.windows(2) {
        let (a, b) = (c[0], c[1]);
        // Each table's segment covering window `a`.
        for (l, k) in loads.iter().zip(cursor.iter_mut()) {
            while *k + 1 < l.segments.len() && l.segments[*k].end <= a {
                *k += 1;
            }
        }
        for (n, pk) in peak.iter_mut().enumerate() {
            let comps = node_components(plan, loads, &cursor, n, a);
            let o = if plan.method == Method::Windows {
                draw_windows(&comps, limits, b - a, rng, &mut |_, _, _| {})
            } else {
                collapsed(&comps, limits, b - a, rng)
            };
            *pk = pk.max(o.peak_utilization);
            // A node's excess is shared only where tables share it or a
            // table's own draws are its partitions' (a table alone,
            // limited by its nodes alone, keeps its own draws: run_trial).
            if shared && o.throttled_units + o.throttled_write_units > 0.0 {
                node_units(plan, loads, &cursor, (n, a), &mut units);
                let excess = (o.throttled_units, o.throttled_write_units);
                share_excess(throttled, &units, excess);
            }
        }
    }
}

/// Each table's mean units/s on node `n` at window `a` (`cursor`: each
/// table's segment covering `a`), into `units`.
fn node_units(
    plan: &Plan,
    loads: &[NodeLoad],
    cursor: &[usize],
    (n, a): (usize, usize),
    units: &mut [f64],
) {
    for (((l, &k), tp), u) in loads.iter().zip(cursor).zip(&plan.tables).zip(units) {
        *u = 0.0;
        let Some(seg) = l.segments.get(k).filter(|s| a >= s.start && a < s.end) else {
            continue;
        };
        let Some(row) = seg.lam.get(n) else { continue };
        for (st, &x) in tp.streams.iter().zip(row) {
            *u += x * st.severity.mean;
        }
    }
}

/// Node `n`'s streams at window `a`, over every table (`cursor`: each
/// table's segment covering `a`).
fn node_components<'p>(
    plan: &'p Plan,
    loads: &[NodeLoad],
    cursor: &[usize],
    n: usize,
    a: usize,
) -> Vec<Component<'p>> {
    let mut comps = Vec::new();
    for ((l, &k), tp) in loads.iter().zip(cursor).zip(&plan.tables) {
        let Some(seg) = l.segments.get(k) else {
            continue;
        };
        if a < seg.start || a >= seg.end {
            continue;
        }
        let Some(row) = seg.lam.get(n) else { continue };
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
    comps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_orders_as_a_stable_sort_by_key() {
        use rand::{Rng, SeedableRng};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        // Full-width keys, keys sharing their high bytes, many ties.
        let shapes: [fn(u64) -> u64; 3] = [|x| x, |x| 0x3ff0_0000_0000_0000 | (x >> 40), |x| x % 7];
        for n in [0, 1, 255, 256, 257, 5000] {
            for shape in shapes {
                let pairs: Vec<(u64, u32)> = (0..n)
                    .map(|i| (shape(rng.random::<u64>()), i as u32))
                    .collect();
                let mut stable = pairs.clone();
                stable.sort_by_key(|e| e.0);
                let mut radix = pairs;
                sort_by_key_radix(&mut radix);
                if n >= 256 {
                    assert_eq!(radix, stable, "n {n}");
                } else {
                    let keys = |v: &[(u64, u32)]| v.iter().map(|e| e.0).collect::<Vec<_>>();
                    assert_eq!(keys(&radix), keys(&stable), "n {n}");
                }
            }
        }
    }

    #[test]
    fn rank_busiest_is_the_plain_sort_by_busier() {
        // Rows of few distinct values (ties in every figure), idle rows,
        // -0, negative and NaN figures, on every size around the cut-off.
        use rand::{Rng, SeedableRng};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut next = || rng.random::<u64>();
        let values = [0.0, -0.0, 0.5, 1.0, 2.5, -1.0, f64::NAN, 1e-300];
        for n in [0, 1, 63, 64, 65, 300, 2000] {
            for idle_share in [0, 50, 95] {
                let rows: Vec<[f64; 4]> = (0..n)
                    .map(|_| {
                        if next() % 100 < idle_share {
                            return [0.0; 4];
                        }
                        let mut r = [0.0; 4];
                        for x in &mut r {
                            *x = values[(next() % values.len() as u64) as usize];
                        }
                        r
                    })
                    .collect();
                let mut plain = rows.clone();
                plain.sort_by(busier);
                let mut fast = rows;
                rank_busiest(&mut fast);
                let bits = |v: &[[f64; 4]]| -> Vec<[u64; 4]> {
                    v.iter().map(|r| r.map(f64::to_bits)).collect()
                };
                assert_eq!(bits(&fast), bits(&plain), "n {n}, idle {idle_share}%");
            }
        }
    }
}
