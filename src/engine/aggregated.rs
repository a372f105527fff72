//! A segment by the aggregated and windows methods: on each server (a
//! partition, a piece of a load-split partition, or a node) the segment's
//! windows are independent draws of one compound Poisson variable
//! ([`super::window`]), drawn window by window for the representative trial
//! and `--method windows`, in closed form otherwise.

use super::accumulator::{SegmentRates, Series, TableAccumulator, TableSetup};
use super::placement::Placed;
use super::segments::Segment;
use super::window::{collapsed, draw_windows, Component, Limits, Outcome};
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
