//! A segment by the aggregated and windows methods: on each server (a
//! partition, a piece of a load-split partition, or a node) the segment's
//! windows are independent draws of one compound Poisson variable
//! ([`super::window`]), drawn window by window for the representative trial
//! and `--method windows`, in closed form otherwise.

use super::accumulator::{SegmentRates, Series, TableAccumulator, TableSetup};
use super::placement::Placed;
use super::plan::Method;
use super::segments::Segment;
use super::window::{collapsed, draw_windows, Component, Limits, Outcome, Stretches};
use rand_xoshiro::Xoshiro256PlusPlus;

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
        draw_partitions(setup, acc, rates, seg, &mut out, rng);
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
        // Over both limits at once, a window loses the larger excess.
        out.throttled_units = out.throttled_units.max(o.throttled_units);
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
/// table's total).
fn draw_partitions(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    rates: &SegmentRates<'_>,
    seg: &Segment,
    out: &mut Outcome,
    rng: &mut Xoshiro256PlusPlus,
) {
    let plan = setup.plan;
    // Split-for-heat steps available at this segment's start.
    let steps = setup.split_for_heat.map_or(0.0, |(delay, _, _)| {
        ((seg.start as f64 * plan.window_s) / delay).floor()
    });
    let grouped = exchangeable_groups(setup, rates, steps);
    if let Some(groups) = &grouped {
        for group in groups {
            draw_group(setup, acc, rates, seg, group, out, rng);
        }
        return;
    }
    for p in 0..setup.p_count {
        let pieces = rates.rebalanced.as_ref().and_then(|r| r.pieces[p].as_ref());
        if let Some(pieces) = pieces {
            // A split partition: each piece is its own server under the limit.
            for piece in pieces {
                let comps = setup.components(|si| piece[si]);
                let limits = &setup.partition_limits;
                let o = draw_server(setup, acc.series.as_mut(), &comps, limits, p, seg, rng);
                acc.peak[p] = acc.peak[p].max(o.peak_utilization);
                acc.total.merge(o);
            }
            continue;
        }
        let comps = setup.components(|si| rates.placed[si].per_partition[p]);
        let limits = heat_limits(setup, rates.placed, p, steps);
        let mut o = draw_server(setup, acc.series.as_mut(), &comps, &limits, p, seg, rng);
        acc.peak[p] = acc.peak[p].max(o.peak_utilization);
        // Burst credit: the partition's banked capacity absorbs its first excess.
        let spend = o.throttled_units.min(acc.burst_left[p]);
        o.spend_burst(spend);
        acc.burst_left[p] -= spend;
        out.merge(o);
    }
}

/// The representative trial's windows of one server over `seg`, one
/// timeseries step at a time in closed form (the server's distribution built
/// once): each step's peak utilization and units go to the timeseries, and
/// their sum is the segment's outcome — exact in distribution for the peak
/// and throttled units, with a step's units drawn from their normal
/// approximation. `--method windows` still draws every window.
fn by_steps(
    series: &mut Series,
    comps: &[Component<'_>],
    limits: &Limits,
    row: usize,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) -> Outcome {
    let stretches = Stretches::new(comps, limits);
    let mut out = Outcome::default();
    let mut w = seg.start;
    while w < seg.end {
        let end = series.step_end(w).min(seg.end).max(w + 1);
        let o = stretches.draw(end - w, rng);
        series.record(row, w, o.peak_utilization, o.requested_units);
        out.merge(o);
        w = end;
    }
    out
}

/// Partitions whose windows are draws of the same variable — the same
/// request rate from every stream, the same limits — in groups, in the order
/// of their first partition; `None` when each must be drawn on its own: the
/// representative trial (its timeseries needs every window), burst credit
/// or split-for-heat (per-partition state), load-split pieces, or no two
/// partitions alike.
fn exchangeable_groups(
    setup: &TableSetup<'_>,
    rates: &SegmentRates<'_>,
    steps: f64,
) -> Option<Vec<Vec<usize>>> {
    if setup.draws_every_window()
        || setup.burst_units > 0.0
        || steps > 0.0
        || rates.rebalanced.is_some()
    {
        return None;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: std::collections::HashMap<Vec<u64>, usize> = std::collections::HashMap::new();
    for p in 0..setup.p_count {
        let key: Vec<u64> = rates
            .placed
            .iter()
            .map(|pl| pl.per_partition[p].to_bits())
            .collect();
        match index.get(&key) {
            Some(&g) => groups[g].push(p),
            None => {
                index.insert(key, groups.len());
                groups.push(vec![p]);
            }
        }
    }
    (groups.len() < setup.p_count).then_some(groups)
}

/// A group of exchangeable partitions over segment `seg`: their windows are
/// independent draws of one variable, so the group's throttled units,
/// requested units and peak are one closed-form stretch of n × W windows
/// (exact in distribution), and a second stretch of W windows draws one
/// member's own peak, which every other member takes (the busiest member
/// takes the group's peak). Per-partition peaks beyond the group's maximum
/// feed only the rank table, whose spread within a group this understates.
fn draw_group(
    setup: &TableSetup<'_>,
    acc: &mut TableAccumulator,
    rates: &SegmentRates<'_>,
    seg: &Segment,
    group: &[usize],
    out: &mut Outcome,
    rng: &mut Xoshiro256PlusPlus,
) {
    let first = group[0];
    let comps = setup.components(|si| rates.placed[si].per_partition[first]);
    let limits = &setup.partition_limits;
    if group.len() == 1 {
        let o = collapsed(&comps, limits, seg.windows(), rng);
        acc.peak[first] = acc.peak[first].max(o.peak_utilization);
        out.merge(o);
        return;
    }
    let all = collapsed(&comps, limits, seg.windows() * group.len(), rng);
    let one = collapsed(&comps, limits, seg.windows(), rng);
    acc.peak[first] = acc.peak[first].max(all.peak_utilization);
    for &p in &group[1..] {
        acc.peak[p] = acc.peak[p].max(one.peak_utilization.min(all.peak_utilization));
    }
    out.merge(all);
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

/// One server's windows over segment `seg`: drawn one by one (filling the
/// representative trial's timeseries row `row`) or collapsed.
fn draw_server(
    setup: &TableSetup<'_>,
    mut series: Option<&mut Series>,
    comps: &[Component<'_>],
    limits: &Limits,
    row: usize,
    seg: &Segment,
    rng: &mut Xoshiro256PlusPlus,
) -> Outcome {
    if setup.draws_every_window() && setup.plan.method != Method::Windows {
        if let Some(s) = series.as_mut() {
            return by_steps(s, comps, limits, row, seg, rng);
        }
    }
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
