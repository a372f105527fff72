//! A segment by the aggregated and windows methods: on each server (a
//! partition, a piece of a load-split partition, or a node) the segment's
//! windows are independent draws of one compound Poisson variable
//! ([`super::window`]), drawn window by window for the representative trial
//! and `--method windows`, in closed form otherwise.

use super::accumulator::{SegmentRates, Series, SeriesRow, TableAccumulator, TableSetup};
use super::placement::Placed;
use super::screen::{ColdBound, ColdDraws};
use super::segments::Segment;
use super::window::{
    busy_windows, collapsed, costly_to_build, draw_windows, few_requests, requested, Component,
    Limits, Outcome, Stretches,
};
use crate::store::hash::fmix64;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::cell::RefCell;

/// Draws segment `seg` on the table's servers and against its table-level
/// limit, adding the outcome to `acc`.
pub(super) fn aggregated_segment(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    rates: &SegmentRates<'_>,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) {
    // This segment's outcome over its servers (partitions or nodes).
    let mut out = Outcome::default();
    if setup.simulate_partitions {
        draw_partitions(setup, acc, rates, seg, &mut out);
    }
    if setup.representative && !setup.draws_every_window() {
        draw_series(setup, acc, rates, seg);
    }
    // Without per-partition limits the table's own peak and throttling
    // are its load on the nodes; with them, the partitions'. Node peaks
    // are judged cluster-wide (run_trial, hot_node).
    if setup.nodes().is_some() && setup.simulate_nodes && !setup.simulate_partitions {
        for n in 0..setup.n_nodes {
            let comps = setup.components(|si| rates.node_lam[n][si]);
            let o = draw_server(
                setup,
                acc.series.as_mut(),
                &comps,
                &setup.node_limits,
                n,
                seg,
                rng,
            );
            acc.node_peak[n] = acc.node_peak[n].max(o.peak_utilization);
            out.merge(o);
        }
    }
    let table_cap = setup
        .table
        .table_limit
        .as_ref()
        .and_then(|l| l.at_window(seg.start));
    if let (Some(limits), Some(tl)) = (table_cap, acc.table_limit.as_mut()) {
        // The table's units summed over its partitions: one compound
        // Poisson stream per pattern at the pattern's total rate.
        let comps = setup.components(|si| rates.placed[si].per_partition.iter().sum());
        let draw = |comps: &[Component<'_>], limits: &Limits, rng: &mut Xoshiro256PlusPlus| {
            if setup.draws_every_window() {
                draw_windows(comps, limits, seg.windows(), rng, &mut |_, _, _| {})
            } else {
                collapsed(comps, limits, seg.windows(), rng)
            }
        };
        let o = if limits.combined.is_some() {
            draw(&comps, &limits, rng)
        } else {
            // Separate read and write caps: each side against its own.
            let mut both = Outcome::default();
            for (side, cap) in [limits.read, limits.write].into_iter().enumerate() {
                let Some(cap) = cap else { continue };
                let is_write = side == 1;
                let own: Vec<Component<'_>> = comps
                    .iter()
                    .filter(|c| c.is_write == is_write)
                    .copied()
                    .collect();
                let limit = if is_write {
                    Limits {
                        write: Some(cap),
                        ..Limits::default()
                    }
                } else {
                    Limits {
                        read: Some(cap),
                        ..Limits::default()
                    }
                };
                let o = draw(&own, &limit, &mut acc.caps_rng);
                tl.sides[side].record(&o);
                both.merge(o);
            }
            both
        };
        tl.record(&o, seg.end, setup.plan.window_s);
        // Over both limits at once, a window loses the larger excess (the
        // write side's too, which global-index back-pressure builds on);
        // against separate read and write caps, each side its own larger
        // excess (DynamoDB throttles reads and writes apart: a read cap's
        // excess is not netted against partitions' throttled writes).
        let write = out.throttled_write_units.max(o.throttled_write_units);
        out.throttled_units = if limits.combined.is_some() {
            out.throttled_units.max(o.throttled_units)
        } else {
            let read = |x: &Outcome| (x.throttled_units - x.throttled_write_units).max(0.0);
            read(&out).max(read(&o)) + write
        };
        out.throttled_write_units = write;
        // A table without per-partition limits peaks against the table's;
        // one with them keeps its partitions' peak (the table's is its own
        // figure, `table_limit`).
        if !setup.partition_limits.any() {
            out.peak_utilization = out.peak_utilization.max(o.peak_utilization);
        }
    }
    acc.total.merge(out);
}

/// Every partition's windows; a load-split partition's pieces are each their
/// own server under the partition limits (their outcomes go straight to the
/// table's total). Partitions with identical load are drawn as groups
/// ([`exchangeable_groups`], [`draw_group`]). Each partition or group draws
/// from its own stream ([`TableSetup::partition_rng`] of its first
/// partition); with screening on, the cold ones ([`super::screen`]) take
/// their requested units without their windows. Outcomes are merged in
/// partition order.
fn draw_partitions(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    rates: &SegmentRates<'_>,
    seg: &Segment,
    out: &mut Outcome,
) {
    let plan = setup.plan;
    let steps = split_steps(setup, seg);
    let grouped = exchangeable_groups(setup, rates, steps);
    let singles: Vec<usize> = if grouped.is_some() {
        Vec::new()
    } else {
        (0..setup.p_count).collect()
    };
    let units: Vec<&[usize]> = match &grouped {
        Some(groups) => groups.iter().collect(),
        None => singles.iter().map(std::slice::from_ref).collect(),
    };
    // Each unit's streams as per-window components, built once for its
    // bound, its full draw or its cold outcome.
    let comps = UnitComponents::new(setup, rates, &units);
    let draw_full = |u: usize, acc: &mut TableAccumulator| -> Drawn {
        let unit = units[u];
        let p = unit[0];
        let mut prng = setup.partition_rng(seg, p);
        if unit.len() > 1 {
            return draw_group(setup, &comps[u], seg, unit.len(), &mut prng);
        }
        if let Some(pieces) = rates.pieces(p) {
            // A split partition: each piece is its own server under the limit.
            let mut all = Outcome::default();
            for piece in pieces {
                let comps = setup.components(|si| piece[si]);
                let limits = &setup.partition_limits;
                let o = draw_server(
                    setup,
                    acc.series.as_mut(),
                    &comps,
                    limits,
                    p,
                    seg,
                    &mut prng,
                );
                acc.peak[p] = acc.peak[p].max(o.peak_utilization);
                all.merge(o);
            }
            return Drawn {
                all,
                one_peak: None,
            };
        }
        let limits = heat_limits(setup, rates.placed, p, steps);
        let all = draw_server(
            setup,
            acc.series.as_mut(),
            &comps[u],
            &limits,
            p,
            seg,
            &mut prng,
        );
        Drawn {
            all,
            one_peak: None,
        }
    };
    // Buffers of thousands of partitions, every segment of every trial:
    // the worker's own, reused rather than mapped afresh.
    let (mut bounds, mut drawn) = SCRATCH.with_borrow_mut(std::mem::take);
    drawn.clear();
    drawn.resize(units.len(), None);
    bounds.clear();
    if plan.screen_cold && !setup.draws_every_window() {
        let (peak, write_peak) = cold_bounds(setup, seg, rates, &units, &comps, &mut bounds);
        // The units not cold against the busiest mean are drawn busiest
        // bound first, the peaks they reach raising the bar the rest must
        // clear: a unit bounded below a peak already drawn is cold.
        // Sorted as (bound, unit) pairs: a key read through `bounds` cost
        // a cache miss per comparison (100,000 tablets: 12% of a run).
        let key = |u: usize| bounds[u].as_ref().map_or(f64::INFINITY, |b| b.utilization);
        let mut order: Vec<(f64, usize)> = (0..units.len())
            .filter(|&u| {
                !bounds[u]
                    .as_ref()
                    .is_some_and(|b| b.is_cold(peak, write_peak))
            })
            .map(|u| (key(u), u))
            .collect();
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let (mut reached, mut write_reached) = (0.0f64, 0.0f64);
        for (_, u) in order {
            if bounds[u]
                .as_ref()
                .is_some_and(|b| b.is_cold(reached, write_reached))
            {
                continue;
            }
            let d = draw_full(u, acc);
            reached = reached.max(d.all.peak_utilization);
            write_reached = write_reached.max(d.all.write_peak_utilization);
            drawn[u] = Some(d);
        }
        // The busiest mean is the trial's peak bar a vanishing chance: where
        // the draws fell short of it, the units it showed cold are checked
        // against what they reached.
        if reached < peak || write_reached < write_peak {
            for u in 0..units.len() {
                if drawn[u].is_none()
                    && !bounds[u]
                        .as_ref()
                        .is_some_and(|b| b.is_cold(reached, write_reached))
                {
                    drawn[u] = Some(draw_full(u, acc));
                }
            }
        }
        fill_cold(setup, seg, &units, &comps, &bounds, &mut drawn);
    }
    for (u, d) in drawn.drain(..).enumerate() {
        let unit = units[u];
        let p = unit[0];
        let Drawn { mut all, one_peak } = d.unwrap_or_else(|| {
            exact_cold(setup, seg, rates, units[u], &comps[u]).unwrap_or_else(|| draw_full(u, acc))
        });
        if rates.pieces(p).is_some() {
            acc.total.merge(all);
            continue;
        }
        acc.peak[p] = acc.peak[p].max(all.peak_utilization);
        if let Some(one) = one_peak {
            for &q in &unit[1..] {
                acc.peak[q] = acc.peak[q].max(one.min(all.peak_utilization));
            }
        }
        // Burst credit: the partition's banked capacity absorbs its first excess.
        let spend = all.throttled_units.min(acc.burst_left[p]);
        all.spend_burst(spend);
        acc.burst_left[p] -= spend;
        out.merge(all);
    }
    SCRATCH.set((bounds, drawn));
}

/// Each unit's cold bound into `bounds` (none for a load-split
/// partition): Bernstein's, and Chernoff's too where Bernstein's alone does
/// not show the unit cold. Returns the busiest mean utilization (all
/// limits, write limit): the trial's peak reaches it (bar a vanishing
/// chance), so a unit bounded below it and the limits is cold.
fn cold_bounds(
    setup: &TableSetup<'_>,
    seg: &Segment,
    rates: &SegmentRates<'_>,
    units: &[&[usize]],
    comps: &UnitComponents<'_>,
    bounds: &mut Vec<Option<ColdBound>>,
) -> (f64, f64) {
    bounds.extend(units.iter().enumerate().map(|(u, unit)| {
        rates.pieces(unit[0]).is_none().then(|| {
            let windows = seg.windows() * unit.len();
            ColdBound::bernstein(&comps[u], &setup.partition_limits, windows)
        })
    }));
    let busiest = |f: fn(&ColdBound) -> f64| bounds.iter().flatten().map(f).fold(0.0f64, f64::max);
    let peak = busiest(|b| b.mean_utilization);
    let write_peak = busiest(|b| b.mean_write_utilization);
    // Bernstein's bound alone shows most cold servers cold; the others get
    // Chernoff's too (the peak only falls from here, so a server cold now
    // stays cold).
    for (u, b) in bounds.iter_mut().enumerate() {
        if let Some(bound) = b.as_mut().filter(|b| !b.is_cold(peak, write_peak)) {
            let windows = seg.windows() * units[u].len();
            *bound = bound.with_chernoff(&comps[u], windows);
        }
    }
    (peak, write_peak)
}

/// [`draw_partitions`]'s bounds and outcomes, one per unit.
type UnitBuffers = (Vec<Option<ColdBound>>, Vec<Option<Drawn>>);

/// A cold unit's draws ([`fill_cold`]): over all its windows, and for a
/// group one member's own.
type ColdUnit = (usize, ColdDraws, Option<ColdDraws>);

thread_local! {
    /// Per worker thread, the buffers of the last segment it drew, and
    /// its cold units' draws: buffers of megabytes taken afresh every
    /// segment were mapped afresh (page faults, 6% of a 10,000-partition
    /// run).
    static SCRATCH: RefCell<UnitBuffers> = const { RefCell::new((Vec::new(), Vec::new())) };
    static COLD: RefCell<Vec<ColdUnit>> = const { RefCell::new(Vec::new()) };
    /// [`group_alike`]'s table of (hash, group) slots.
    static SLOTS: RefCell<Vec<(u64, usize)>> = const { RefCell::new(Vec::new()) };
}

/// Every unit's components in one buffer (thousands of partitions per
/// segment and trial, without a vector each): unit `u`'s are
/// `all[ends[u − 1]..ends[u]]`, indexed as `comps[u]`.
struct UnitComponents<'a> {
    all: Vec<Component<'a>>,
    ends: Vec<usize>,
}

impl<'a> UnitComponents<'a> {
    /// The components of each unit's first partition. The buffer takes its
    /// capacity up front: grown by doubling it mapped fresh pages on every
    /// draw.
    fn new(setup: &TableSetup<'a>, rates: &SegmentRates<'_>, units: &[&[usize]]) -> Self {
        let mut comps = UnitComponents {
            all: Vec::with_capacity(units.len() * setup.table.streams.len()),
            ends: Vec::with_capacity(units.len()),
        };
        for unit in units {
            setup.components_into(&mut comps.all, |si| rates.placed[si].per_partition[unit[0]]);
            comps.ends.push(comps.all.len());
        }
        comps
    }
}

impl<'a> std::ops::Index<usize> for UnitComponents<'a> {
    type Output = [Component<'a>];

    fn index(&self, u: usize) -> &[Component<'a>] {
        let start = if u == 0 { 0 } else { self.ends[u - 1] };
        &self.all[start..self.ends[u]]
    }
}

/// The units left undrawn by screening, cold: each one's outcome from its
/// bound ([`ColdBound::draw`], then [`ColdBound::peaks_into`]), over all
/// its windows and, for a group, one member's own.
fn fill_cold(
    setup: &TableSetup<'_>,
    seg: &Segment,
    units: &[&[usize]],
    comps: &UnitComponents<'_>,
    bounds: &[Option<ColdBound>],
    drawn: &mut [Option<Drawn>],
) {
    // Every cold unit's draws first, then their peaks (see ColdBound::draw).
    let mut cold = COLD.with_borrow_mut(std::mem::take);
    for u in 0..drawn.len() {
        if let (None, Some(bound)) = (&drawn[u], &bounds[u]) {
            if !setup.plan.rank_peaks && !bound.exact {
                // Its peak, below the one the trial reaches, would only
                // rank it: its requested units are drawn first, as ever.
                let mut prng = setup.partition_rng(seg, units[u][0]);
                let windows = seg.windows() * units[u].len();
                let all = requested(&comps[u], windows, &mut prng);
                drawn[u] = Some(Drawn {
                    all,
                    one_peak: None,
                });
                continue;
            }
            let (all, one) = cold_draws(setup, seg, units[u], &comps[u], bound);
            cold.push((u, all, one));
        }
    }
    for (u, all, one) in cold.drain(..) {
        let Some(bound) = &bounds[u] else { continue };
        drawn[u] = Some(cold_peaks(&comps[u], bound, all, one));
    }
    COLD.set(cold);
}

/// Screening off (`--every-partition`), the cold outcome of a unit whose
/// cold outcome is its full draw's in distribution ([`ColdBound::exact`]):
/// the same draws screening takes for it, so that the trials agree bit
/// for bit either way. None for any other unit, or with screening on (a
/// unit left undrawn there is already cold).
fn exact_cold(
    setup: &TableSetup<'_>,
    seg: &Segment,
    rates: &SegmentRates<'_>,
    unit: &[usize],
    comps: &[Component<'_>],
) -> Option<Drawn> {
    if setup.plan.screen_cold || setup.draws_every_window() || rates.pieces(unit[0]).is_some() {
        return None;
    }
    let windows = seg.windows() * unit.len();
    let mut bound = ColdBound::bernstein(comps, &setup.partition_limits, windows);
    if !bound.exact {
        bound = bound.with_chernoff(comps, windows);
    }
    bound
        .exact
        .then(|| cold_unit(setup, seg, unit, comps, &bound))
}

/// One cold unit's outcome from its bound, as [`fill_cold`] draws it.
fn cold_unit(
    setup: &TableSetup<'_>,
    seg: &Segment,
    unit: &[usize],
    comps: &[Component<'_>],
    bound: &ColdBound,
) -> Drawn {
    let (all, one) = cold_draws(setup, seg, unit, comps, bound);
    cold_peaks(comps, bound, all, one)
}

/// A cold unit's draws ([`ColdBound::draw`]) from its own stream: over all
/// its windows, then for a group one member's own.
fn cold_draws(
    setup: &TableSetup<'_>,
    seg: &Segment,
    unit: &[usize],
    comps: &[Component<'_>],
    bound: &ColdBound,
) -> (ColdDraws, Option<ColdDraws>) {
    let mut prng = setup.partition_rng(seg, unit[0]);
    let n = unit.len();
    let all = bound.draw(comps, seg.windows() * n, &mut prng);
    let one = (n > 1).then(|| bound.draw(comps, seg.windows(), &mut prng));
    (all, one)
}

/// A cold unit's outcome from its draws ([`ColdBound::peaks_into`]).
fn cold_peaks(
    comps: &[Component<'_>],
    bound: &ColdBound,
    mut all: ColdDraws,
    one: Option<ColdDraws>,
) -> Drawn {
    bound.peaks_into(comps, &mut all);
    let one_peak = one.map(|mut one| {
        bound.peaks_into(comps, &mut one);
        one.0.peak_utilization
    });
    Drawn {
        all: all.0,
        one_peak,
    }
}

/// A partition's or a group's drawn outcome: over all its windows, and for
/// a group the peak of one member's own windows.
#[derive(Debug, Clone, Copy)]
struct Drawn {
    all: Outcome,
    one_peak: Option<f64>,
}

/// The representative trial's timeseries over segment `seg`: every
/// server's (partition's, or node's when nodes are what is simulated)
/// windows drawn by timeseries step ([`by_steps`]) from its own series
/// stream, apart from the draws of the trial's figures.
fn draw_series(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    rates: &SegmentRates<'_>,
    seg: &Segment,
) {
    let Some(series) = acc.series.as_mut() else {
        return;
    };
    // Each row draws from its own stream into its own row: in parallel
    // (thousands of partitions on a large table), the same numbers.
    let mut rows = series.rows();
    if setup.simulate_partitions {
        let steps = split_steps(setup, seg);
        rows.par_iter_mut()
            .take(setup.p_count)
            .enumerate()
            .for_each(|(p, row)| {
                let mut rng = setup.series_rng(seg, p);
                if let Some(pieces) = rates.pieces(p) {
                    for piece in pieces {
                        let comps = setup.components(|si| piece[si]);
                        by_steps(row, &comps, &setup.partition_limits, seg, &mut rng);
                    }
                    return;
                }
                let comps = setup.components(|si| rates.placed[si].per_partition[p]);
                if comps.is_empty() {
                    // No requests: every step's units and peak are 0, what
                    // the row holds already.
                    return;
                }
                let limits = heat_limits(setup, rates.placed, p, steps);
                by_steps(row, &comps, &limits, seg, &mut rng);
            });
    } else if setup.nodes().is_some() && setup.simulate_nodes {
        rows.par_iter_mut()
            .take(setup.n_nodes)
            .enumerate()
            .for_each(|(n, row)| {
                let comps = setup.components(|si| rates.node_lam[n][si]);
                let mut rng = setup.series_rng(seg, n);
                by_steps(row, &comps, &setup.node_limits, seg, &mut rng);
            });
    }
}

/// Split-for-heat steps available at segment `seg`'s start.
fn split_steps(setup: &TableSetup<'_>, seg: &Segment) -> f64 {
    setup.split_for_heat.map_or(0.0, |(delay, _, _)| {
        ((seg.start as f64 * setup.plan.window_s) / delay).floor()
    })
}

/// The representative trial's windows of one server over `seg`, one
/// timeseries step at a time in closed form (the server's distribution built
/// once): each step's peak utilization and units go to the timeseries, and
/// their sum is the segment's outcome — exact in distribution for the peak
/// and throttled units, with a step's units drawn from their normal
/// approximation (a light server of costly pmf draws each step's busy
/// windows instead, as [`collapsed`] does). `--method windows` still draws
/// every window.
fn by_steps(
    row: &mut SeriesRow<'_>,
    comps: &[Component<'_>],
    limits: &Limits,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) -> Outcome {
    // A light server of costly pmf draws each step's busy windows, as
    // `collapsed` draws its whole segment's.
    let light = few_requests(comps, seg.windows()) && costly_to_build(comps);
    let stretches = (!light).then(|| Stretches::new(comps, limits));
    let mut out = Outcome::default();
    let mut w = seg.start;
    while w < seg.end {
        let end = row.step_end(w).min(seg.end).max(w + 1);
        let o = match &stretches {
            Some(s) => s.draw(end - w, rng),
            None => busy_windows(comps, limits, end - w, rng),
        };
        row.record(w, o.peak_utilization, o.requested_units);
        out.merge(o);
        w = end;
    }
    out
}

/// Partitions whose windows are draws of the same variable — the same
/// request rate from every stream, the same limits — in groups, in the order
/// of their first partition, each group's partitions ascending; `None` when
/// each must be drawn on its own: the representative trial (its timeseries
/// needs every window), burst credit or split-for-heat (per-partition
/// state), load-split pieces, or no two partitions alike.
fn exchangeable_groups(
    setup: &TableSetup<'_>,
    rates: &SegmentRates<'_>,
    steps: f64,
) -> Option<Groups> {
    if setup.draws_every_window()
        || setup.burst_units > 0.0
        || steps > 0.0
        || rates.rebalanced.is_some()
    {
        return None;
    }
    // Each partition's rates hashed (no allocation per partition); a group
    // is found by its hash, then by its rates' bits (the groups sharing a
    // hash are chained in the order they were opened).
    let hash_of = |p: usize| {
        rates.placed.iter().fold(0u64, |h, pl| {
            fmix64(h ^ pl.per_partition[p].to_bits()).wrapping_add(0x9E37_79B9_7F4A_7C15)
        })
    };
    let alike = |p: usize, q: usize| {
        rates
            .placed
            .iter()
            .all(|pl| pl.per_partition[p].to_bits() == pl.per_partition[q].to_bits())
    };
    group_alike(setup.p_count, hash_of, alike)
}

/// Items `0..n` grouped by `alike`, in the order of each group's first
/// item, each group's items ascending; `None` when no two are alike. An
/// item's group is found by `hash_of` (alike items hash alike) in an
/// open-addressing table of the hashes (linear probing, at most half
/// full, the worker's own buffer), then by `alike` among the groups
/// sharing its hash, chained in the order they were opened. A std map, or
/// sorting the hashes first to tell "no two alike", cost twice as much on
/// 10,000 partitions (9% of a 9,728-partition run).
fn group_alike(
    n: usize,
    hash_of: impl Fn(usize) -> u64,
    alike: impl Fn(usize, usize) -> bool,
) -> Option<Groups> {
    const NONE: usize = usize::MAX;
    let size = (2 * n).next_power_of_two().max(16);
    let mask = size - 1;
    let mut slots = SLOTS.with_borrow_mut(std::mem::take);
    slots.clear();
    slots.resize(size, (0, NONE));
    // Per group: its first item and the next group with its hash.
    let (mut first, mut chain): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut group_of: Vec<usize> = Vec::with_capacity(n);
    for p in 0..n {
        let hash = hash_of(p);
        let open = |first: &mut Vec<usize>, chain: &mut Vec<usize>| {
            first.push(p);
            chain.push(NONE);
            first.len() - 1
        };
        // The table's slot of `hash` (home slot by its low bits: the hashes
        // are mixed), or the free slot where it goes.
        let mut i = hash as usize & mask;
        while slots[i].1 != NONE && slots[i].0 != hash {
            i = (i + 1) & mask;
        }
        let g = if slots[i].1 == NONE {
            let g = open(&mut first, &mut chain);
            slots[i] = (hash, g);
            g
        } else {
            let mut g = slots[i].1;
            loop {
                if alike(first[g], p) {
                    break g;
                }
                if chain[g] == NONE {
                    let new = open(&mut first, &mut chain);
                    chain[g] = new;
                    break new;
                }
                g = chain[g];
            }
        };
        group_of.push(g);
    }
    SLOTS.set(slots);
    if first.len() == n {
        return None;
    }
    // The groups' items in one buffer, ascending within each.
    let mut ends = vec![0usize; first.len()];
    for &g in &group_of {
        ends[g] += 1;
    }
    let mut next = Vec::with_capacity(ends.len());
    let mut end = 0;
    for e in ends.iter_mut() {
        next.push(end);
        end += *e;
        *e = end;
    }
    let mut members = vec![0usize; n];
    for (p, &g) in group_of.iter().enumerate() {
        members[next[g]] = p;
        next[g] += 1;
    }
    Some(Groups { members, ends })
}

/// Groups of items (partitions) in one buffer: group `g`'s are
/// `members[ends[g − 1]..ends[g]]`.
struct Groups {
    members: Vec<usize>,
    ends: Vec<usize>,
}

impl Groups {
    /// Each group's items, in order.
    fn iter(&self) -> impl Iterator<Item = &[usize]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.members[start..end])
    }
}

/// A group of `n` exchangeable partitions over segment `seg`: their windows
/// are independent draws of one variable, so the group's throttled units,
/// requested units and peak are one closed-form stretch of n × W windows
/// (exact in distribution), and a second stretch of W windows draws one
/// member's own peak, which every other member takes (the busiest member
/// takes the group's peak). Per-partition peaks beyond the group's maximum
/// feed only the rank table, whose spread within a group this understates.
fn draw_group(
    setup: &TableSetup<'_>,
    comps: &[Component<'_>],
    seg: &Segment,
    n: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> Drawn {
    // One build of the window distribution for both draws.
    let stretches = Stretches::new(comps, &setup.partition_limits);
    let all = stretches.draw(seg.windows() * n, rng);
    let one = stretches.draw(seg.windows(), rng);
    Drawn {
        all,
        one_peak: Some(one.peak_utilization),
    }
}

/// Partition `p`'s limits after `steps` split-for-heat steps: a hot
/// partition gains a step per delay, up to its load.
fn heat_limits(setup: &TableSetup<'_>, placed: &[Placed], p: usize, steps: f64) -> Limits {
    let (table, window_s) = (setup.table, setup.plan.window_s);
    match setup.split_for_heat {
        Some((_, read_step, write_step)) if steps > 0.0 => {
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
                    .map(|x| x * window_s),
                write: grow(table.layout.write_limit_per_s, load(true), write_step)
                    .map(|x| x * window_s),
                combined: setup.partition_limits.combined,
            }
        }
        _ => setup.partition_limits,
    }
}

/// One server's windows over segment `seg`: drawn one by one (`--method
/// windows`, filling the representative trial's timeseries row `row`) or
/// collapsed.
fn draw_server(
    setup: &TableSetup<'_>,
    mut series: Option<&mut Series>,
    comps: &[Component<'_>],
    limits: &Limits,
    row: usize,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) -> Outcome {
    if setup.draws_every_window() {
        let mut rec = |i: usize, util: f64, units: f64| {
            if let Some(s) = series.as_mut() {
                s.record(row, seg.start + i, util, units);
            }
        };
        draw_windows(comps, limits, seg.windows(), rng, &mut rec)
    } else {
        collapsed(comps, limits, seg.windows(), rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grouping by a plain scan: each item joins the first group whose
    /// first item is alike, else opens one.
    fn scanned(values: &[u32]) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (p, v) in values.iter().enumerate() {
            match groups.iter_mut().find(|g| values[g[0]] == *v) {
                Some(g) => g.push(p),
                None => groups.push(vec![p]),
            }
        }
        groups
    }

    #[test]
    fn groups_agree_with_a_plain_scan_even_when_hashes_collide() {
        // 0..200 with values repeating irregularly; hashes of 3 buckets, so
        // most groups share a hash with others and are told apart by value.
        let values: Vec<u32> = (0..200u32).map(|i| (i * i + 7 * i) % 37).collect();
        let alike = |p: usize, q: usize| values[p] == values[q];
        for hash_of in [
            &(|p: usize| u64::from(values[p] % 3)) as &dyn Fn(usize) -> u64,
            &(|p: usize| fmix64(u64::from(values[p]))),
            &(|_: usize| 0u64),
        ] {
            let groups = group_alike(values.len(), hash_of, alike).expect("alike items");
            let got: Vec<Vec<usize>> = groups.iter().map(<[usize]>::to_vec).collect();
            assert_eq!(got, scanned(&values));
        }
        // No two alike: no groups.
        let distinct: Vec<u32> = (0..50).collect();
        let alike = |p: usize, q: usize| distinct[p] == distinct[q];
        assert!(group_alike(50, |p| u64::from(distinct[p] % 4), alike).is_none());
    }
}
