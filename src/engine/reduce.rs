//! Per-trial outcomes → per-table statistics (numbers only: the verdicts
//! stage judges them). Trials are reduced in index order.

use super::plan::Plan;
use super::trial::TableTrial;
use crate::results::stats::{ci95_mean, mean, percentile, percentile_in_place};
use crate::results::{
    Breach, GrowthPoint, IndexPressure, KeyChecks, MonotonicWrites, NodeMemory, NodeResults,
    PartitionRank, PatternLoad, Placement, Proportion, RunResults, ShardOps, Stat, StoreSummary,
    TableCap, TableLimitResults, TableResults, VariantResults,
};
use crate::scenario::{Scenario, Variant};
use crate::store::StoreModel;

/// One design (base or variant) reduced.
#[derive(Debug, Clone)]
pub struct Design {
    pub tables: Vec<TableResults>,
    pub store: StoreSummary,
    pub seed: u64,
    pub trials: u32,
    /// How request counts were drawn.
    pub method: super::plan::Method,
}

/// Reduces one design's trials (`trials[t][table]`).
pub fn design(
    scenario: &Scenario,
    plan: &Plan,
    store: &dyn StoreModel,
    trials: Vec<Vec<TableTrial>>,
) -> Design {
    let (ru, wu) = store.unit_names();
    let mut trials = trials;
    let index_throttled = apply_back_pressure(plan, &mut trials);
    let node_tables: Vec<String> = plan
        .tables
        .iter()
        .filter(|tp| tp.layout.nodes.is_some())
        .map(|tp| tp.name.clone())
        .collect();
    let overhead = store.key_overhead_bytes();
    let mut tables: Vec<TableResults> = plan
        .tables
        .iter()
        .enumerate()
        .map(|(ti, tp)| {
            let per: Vec<&TableTrial> = trials.iter().map(|t| &t[ti]).collect();
            let mut r = table_results(plan, tp, &per, scenario.checks.headroom);
            r.patterns = pattern_loads(scenario, tp);
            if let Some(n) = r.nodes.as_mut() {
                n.tables = node_tables.clone();
                n.memory = overhead.and_then(|o| {
                    let limit = tp.layout.nodes.as_ref()?.memory_limit_bytes;
                    let mut m = node_memory(&per, (store.node_storage_check(), o), limit, plan)?;
                    m.copies = store.stored_copies().to_string();
                    Some(m)
                });
            }
            r
        })
        .collect();
    for (xi, tp) in plan.tables.iter().enumerate() {
        let Some(bi) = tp.global_index_of else {
            continue;
        };
        let per: Vec<&TableTrial> = trials.iter().map(|t| &t[xi]).collect();
        tables[bi].back_pressure.push(IndexPressure {
            index: tp.name.clone(),
            write_peak_utilization: stat(&per, |t| t.write_peak_utilization),
            throttled_write_fraction: stat(&per, write_throttled_fraction),
            base_write_share: tp.base_write_share,
        });
        tables[bi].index_throttled_fraction = Some(Stat::from_samples(&index_throttled[bi]));
    }
    // Every table's replica operations, which the nodes' cores share.
    let cluster_ops: f64 = plan
        .tables
        .iter()
        .filter_map(|tp| tp.key_limits.key_shard.map(|k| replica_ops(tp, k)))
        .sum();
    for (t, tp) in tables.iter_mut().zip(&plan.tables) {
        t.key_checks = key_checks(scenario, tp, store.collection_keys(), cluster_ops);
    }
    Design {
        tables,
        method: plan.method,
        store: StoreSummary {
            kind: store.kind().as_str().to_string(),
            read_unit: ru.to_string(),
            write_unit: wu.to_string(),
            figures: {
                let mut f = store.figures();
                f.extend(store.index_figures(scenario));
                f
            },
        },
        seed: plan.seed,
        trials: plan.trials,
    }
}

/// Share of a trial's write units throttled (0 without writes).
fn write_throttled_fraction(t: &TableTrial) -> f64 {
    if t.requested_write_units > 0.0 {
        (t.throttled_write_units / t.requested_write_units).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Share of a trial's requested units throttled (0 without any).
fn throttled_fraction(t: &TableTrial) -> f64 {
    if t.requested_units > 0.0 {
        t.throttled_units / t.requested_units
    } else {
        0.0
    }
}

/// Each side's throttled share, \[reads, writes\], where the partitions
/// limit the two separately (no combined limit).
fn throttled_sides(tp: &super::plan::TablePlan, per: &[&TableTrial]) -> Option<[Stat; 2]> {
    let l = &tp.layout;
    (l.read_limit_per_s.is_some()
        && l.write_limit_per_s.is_some()
        && l.combined_limit_per_s.is_none())
    .then(|| {
        [
            stat(per, read_throttled_fraction),
            stat(per, write_throttled_fraction),
        ]
    })
}

/// Share of a trial's read units throttled (0 without reads): its
/// throttled units less the write side's, of its read units.
fn read_throttled_fraction(t: &TableTrial) -> f64 {
    let requested = t.requested_units - t.requested_write_units;
    if requested > 0.0 {
        ((t.throttled_units - t.throttled_write_units) / requested).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// DynamoDB back-pressure: a table write succeeds only when every global
/// index it writes has the capacity (Developer Guide, "Provisioned throughput
/// considerations for Global Secondary Indexes"). Per trial, the base table's
/// write units throttled become the share 1 − (1 − f₀) · Π (1 − sᵢ·fᵢ) of its
/// requested write units, where f₀ is its own throttled write share, fᵢ index
/// i's and sᵢ the share of the base's write units that write index i
/// (ASSUMPTION: throttling on the table and on each index strikes independent
/// writes, and an index's throttled share applies evenly to the writes that
/// feed it). The added units go into the base's throttled units (reads and
/// writes), so its throttled fraction includes them.
///
/// Returns, per plan table and trial, the added units ÷ the table's requested
/// units (empty for a table without global indexes).
fn apply_back_pressure(plan: &Plan, trials: &mut [Vec<TableTrial>]) -> Vec<Vec<f64>> {
    let n = plan.tables.len();
    let mut out = vec![Vec::new(); n];
    for (bi, slot) in out.iter_mut().enumerate() {
        let indexes: Vec<usize> = (0..n)
            .filter(|&x| plan.tables[x].global_index_of == Some(bi))
            .collect();
        if indexes.is_empty() {
            continue;
        }
        for trial in trials.iter_mut() {
            let own = write_throttled_fraction(&trial[bi]);
            let pass: f64 = indexes
                .iter()
                .map(|&x| {
                    1.0 - plan.tables[x].base_write_share * write_throttled_fraction(&trial[x])
                })
                .product();
            let total = 1.0 - (1.0 - own) * pass;
            let base = &mut trial[bi];
            // Never more than the units left unthrottled (the table's own
            // throttled units may count write units its write share does
            // not: a table limit over both sides).
            let added = ((total - own) * base.requested_write_units)
                .min(base.requested_units - base.throttled_units)
                .max(0.0);
            base.throttled_units += added;
            base.throttled_write_units += added;
            slot.push(if base.requested_units > 0.0 {
                added / base.requested_units
            } else {
                0.0
            });
        }
    }
    out
}

fn stat<F: Fn(&TableTrial) -> f64>(per: &[&TableTrial], f: F) -> Stat {
    let xs: Vec<f64> = per.iter().map(|t| f(t)).collect();
    Stat::from_samples(&xs)
}

fn breach<F: Fn(&TableTrial) -> Option<f64>>(per: &[&TableTrial], f: F) -> Breach {
    let days: Vec<f64> = per.iter().filter_map(|t| f(t)).collect();
    Breach {
        probability: Proportion::wilson(days.len(), per.len()),
        mean_day: (!days.is_empty()).then(|| mean(&days)),
        ci95: (!days.is_empty()).then(|| ci95_mean(&days)),
    }
}

/// Figure `k` summed over a trial's `n` rank rows in rank order, from −0
/// as `Iterator::sum` folds: the busy rows it keeps, then (when it left
/// idle ones out) their +0, which turns a −0 sum to +0 and leaves any
/// other as it is.
fn rows_sum(rows: &[[f64; 4]], n: usize, k: usize) -> f64 {
    let sum: f64 = rows.iter().map(|r| r[k]).sum();
    if rows.len() < n {
        sum + 0.0
    } else {
        sum
    }
}

/// Per rank of `n_ranks`, its figures over the trials; a trial's rows
/// beyond those `pick` gives are idle (every figure +0: a trial keeps its
/// busy rows only).
fn ranks(
    per: &[&TableTrial],
    pick: fn(&TableTrial) -> &[[f64; 4]],
    n_ranks: usize,
) -> Vec<PartitionRank> {
    let rows: Vec<&[[f64; 4]]> = per.iter().map(|t| pick(t)).collect();
    rank_stats(&rows, n_ranks)
}

/// [`ranks`] of each trial's rows.
fn rank_stats(per: &[&[[f64; 4]]], n_ranks: usize) -> Vec<PartitionRank> {
    use super::cluster::{is_idle, IDLE};
    use rayon::prelude::*;
    // Thousands of ranks over hundreds of trials: each rank's column summed
    // as `mean` sums it, without collecting it, and one buffer per worker
    // for the peaks' percentile.
    let n = per.len() as f64;
    (0..n_ranks)
        .into_par_iter()
        .map_init(Vec::new, |peaks: &mut Vec<f64>, i| {
            // A rank idle in every trial (a table's empty partitions or
            // slots) has every figure 0, as the sums below would give.
            if per.iter().all(|t| t.get(i).is_none_or(is_idle)) {
                return PartitionRank {
                    rank: i + 1,
                    read_units_per_s: 0.0,
                    write_units_per_s: 0.0,
                    mean_utilization: 0.0,
                    peak_utilization: 0.0,
                    peak_utilization_p95: 0.0,
                };
            }
            // One pass over the trials; each sum folds from −0 in trial
            // order, as `Iterator::sum` does.
            let mut sums = [-0.0f64; 3];
            peaks.clear();
            for t in per {
                let row = t.get(i).copied().unwrap_or(IDLE);
                for (sum, x) in sums.iter_mut().zip(row) {
                    *sum += x;
                }
                peaks.push(row[3]);
            }
            // Their mean before their percentile, which reorders them.
            let peak_mean = mean(peaks);
            // Peaks all +0 (a store without per-partition limits): their
            // percentile is 0 without selecting it.
            let p95 = if peaks.iter().all(|x| x.to_bits() == 0) {
                0.0
            } else {
                percentile_in_place(peaks, 0.95)
            };
            PartitionRank {
                rank: i + 1,
                read_units_per_s: sums[0] / n,
                write_units_per_s: sums[1] / n,
                mean_utilization: sums[2] / n,
                peak_utilization: peak_mean,
                peak_utilization_p95: p95,
            }
        })
        .collect()
}

/// The cluster's memory over trials (the same in every table's trials).
fn node_memory(
    per: &[&TableTrial],
    (check, key_overhead_bytes): (&str, f64),
    limit_bytes: Option<f64>,
    plan: &Plan,
) -> Option<NodeMemory> {
    let ms: Vec<&super::memory::MemoryTrial> =
        per.iter().filter_map(|t| t.node_memory.as_ref()).collect();
    if ms.is_empty() {
        return None;
    }
    let first = |m: &super::memory::MemoryTrial| m.peak_by_day.first().copied().unwrap_or(0.0);
    let last = |m: &super::memory::MemoryTrial| m.peak_by_day.last().copied().unwrap_or(0.0);
    let st = |f: &dyn Fn(&super::memory::MemoryTrial) -> f64| {
        Stat::from_samples(&ms.iter().map(|m| f(m)).collect::<Vec<_>>())
    };
    let horizon = plan.horizon_days;
    let fills: Vec<f64> = ms.iter().filter_map(|m| m.fill_day).collect();
    let n_ranks = ms[0].ranked_at_horizon.len();
    let points = ms[0].peak_by_day.len();
    Some(NodeMemory {
        check: check.to_string(),
        copies: String::new(),
        key_overhead_bytes,
        limit_bytes,
        peak_bytes: st(&|m| last(m)),
        peak_bytes_day0: st(&|m| first(m)),
        peak_growth_bytes_per_day: st(&|m| {
            if horizon > 0.0 {
                (last(m) - first(m)) / horizon
            } else {
                0.0
            }
        }),
        total_bytes: st(&|m| m.total_at_horizon),
        ranks_bytes: (0..n_ranks)
            .map(|i| {
                mean(
                    &ms.iter()
                        .map(|m| m.ranked_at_horizon[i])
                        .collect::<Vec<_>>(),
                )
            })
            .collect(),
        fill: Breach {
            probability: Proportion::wilson(fills.len(), ms.len()),
            mean_day: (!fills.is_empty()).then(|| mean(&fills)),
            ci95: (!fills.is_empty()).then(|| ci95_mean(&fills)),
        },
        by_day: (0..points)
            .map(|i| {
                let xs: Vec<f64> = ms.iter().map(|m| m.peak_by_day[i]).collect();
                (
                    super::memory::grid_day(horizon, i),
                    mean(&xs),
                    percentile(&xs, 0.95),
                )
            })
            .collect(),
    })
}

/// Each stream's requests and units on its table: busy-period and
/// daily-mean rates × fan-out × mean units per sub-request, and its share of
/// the table's units of its side. Costs are set by [`set_monthly_costs`].
pub fn pattern_loads(scenario: &Scenario, tp: &super::plan::TablePlan) -> Vec<PatternLoad> {
    let totals = [false, true].map(|w| tp.busy_units_per_s(w));
    tp.streams
        .iter()
        .map(|s| {
            let units_per_request = tp.sub_requests(s) * s.severity.mean;
            let units_per_s = s.busy_rate_per_s * units_per_request;
            let total = totals[usize::from(s.is_write)];
            // A global index's streams carry the base pattern's name, or it
            // with " (index write)"; only the former names a pattern.
            let operation = scenario
                .access_patterns
                .iter()
                .find(|p| p.name == s.name)
                .map_or(if s.is_write { "index write" } else { "get" }, |p| {
                    p.operation.as_str()
                });
            PatternLoad {
                pattern: s.name.clone(),
                operation: operation.to_string(),
                side: if s.is_write { "write" } else { "read" }.to_string(),
                requests_per_s: s.busy_rate_per_s,
                fan_out: tp.sub_requests(s),
                units_per_request,
                units_per_s,
                units_share: if total > 0.0 {
                    units_per_s / total
                } else {
                    0.0
                },
                mean_requests_per_s: s.mean_rate_per_s,
                mean_units_per_s: s.mean_rate_per_s * units_per_request,
                monthly_cost: None,
                cost_share: None,
            }
        })
        .collect()
}

fn placement(tp: &super::plan::TablePlan) -> Placement {
    let mut out = Placement::default();
    let total: f64 = tp.streams.iter().map(|s| s.busy_rate_per_s).sum();
    for s in &tp.streams {
        let st = super::placement::placement_stats(s, super::placement::Servers::of(&tp.layout));
        out.keys_placed += st.keys_placed;
        out.keys_as_mass += st.keys_as_mass;
        if total > 0.0 {
            out.tail_share += st.tail_share * s.busy_rate_per_s / total;
        }
        out.tail_cdf_error_bound = out.tail_cdf_error_bound.max(st.tail_cdf_error_bound);
        out.tail_peak_error_bound = out.tail_peak_error_bound.max(st.tail_peak_error_bound);
    }
    out
}

/// P(breach by day d) with its Wilson interval, on the grid days and on
/// each trial's breach day (the steps of the empirical distribution: a
/// breach after 5.4 hours rose over the grid's first 3 days).
fn curve<F: Fn(&TableTrial) -> Option<f64>>(
    grid: &[f64],
    per: &[&TableTrial],
    f: F,
) -> Vec<(f64, f64, [f64; 2])> {
    let days: Vec<Option<f64>> = per.iter().map(|t| f(t)).collect();
    if days.iter().all(Option::is_none) {
        return Vec::new();
    }
    let last = grid.last().copied().unwrap_or(0.0);
    let mut at: Vec<f64> = grid
        .iter()
        .copied()
        .chain(days.iter().flatten().copied().filter(|d| *d <= last))
        .collect();
    at.sort_by(f64::total_cmp);
    at.dedup();
    at.iter()
        .map(|&d| {
            let k = days.iter().filter(|x| x.is_some_and(|b| b <= d)).count();
            let p = Proportion::wilson(k, per.len());
            (d, p.mean, p.ci95)
        })
        .collect()
}

/// The rank table only the base design reports (`partitions.csv`, the
/// load chart); none for a variant, whose thousands of ranks over every
/// trial were reduced and dropped (8% of a Redis Cluster design of 4
/// tables over 16,384 slots and 3 variants).
fn reported_ranks(
    plan: &Plan,
    tp: &super::plan::TablePlan,
    per: &[&TableTrial],
) -> Vec<PartitionRank> {
    if plan.rank_peaks {
        ranks(per, |t| &t.ranked, tp.layout.partitions.max(1))
    } else {
        Vec::new()
    }
}

fn table_results(
    plan: &Plan,
    tp: &super::plan::TablePlan,
    per: &[&TableTrial],
    headroom: f64,
) -> TableResults {
    let partition_ranks = reported_ranks(plan, tp, per);
    let nodes = tp.layout.nodes.as_ref().map(|n| {
        let n_nodes = per.first().map_or(0, |t| t.node_ranked.len());
        let node_ranks = ranks(per, |t| &t.node_ranked, n_nodes);
        NodeResults {
            tables: vec![tp.name.clone()],
            memory: None,
            label: n.label.to_string(),
            count: n.nodes,
            limits_per_s: [
                n.read_limit_per_s,
                n.write_limit_per_s,
                n.combined_limit_per_s,
            ],
            peak_utilization: stat(per, |t| {
                t.node_ranked.iter().map(|r| r[3]).fold(0.0, f64::max)
            }),
            hottest_node_share: stat(per, |t| {
                let tot: f64 = t.node_ranked.iter().map(|r| r[0] + r[1]).sum();
                let max = t
                    .node_ranked
                    .iter()
                    .map(|r| r[0] + r[1])
                    .fold(0.0, f64::max);
                if tot > 0.0 {
                    max / tot
                } else {
                    0.0
                }
            }),
            ranks: node_ranks,
            day: 0.0,
            traffic_factor: 1.0,
        }
    });
    let grid = tp.growth.grid();
    // A busy period that drew no growth (a later checkpoint's: only the
    // first's is reported) has no growth path.
    let drawn = per
        .iter()
        .all(|t| t.growth.collection_by_day.len() == grid.len());
    let growth = grid
        .iter()
        .enumerate()
        .take(if drawn { grid.len() } else { 0 })
        .map(|(i, &day)| {
            let c: Vec<f64> = per.iter().map(|t| t.growth.collection_by_day[i]).collect();
            let it: Vec<f64> = per.iter().map(|t| t.growth.item_by_day[i]).collect();
            let partitions = tp
                .partitions_by_day
                .get(i)
                .copied()
                .unwrap_or(tp.layout.partitions);
            GrowthPoint {
                day,
                collection_mean_bytes: mean(&c),
                collection_p05_bytes: percentile(&c, 0.05),
                collection_p95_bytes: percentile(&c, 0.95),
                item_mean_bytes: mean(&it),
                item_p95_bytes: percentile(&it, 0.95),
                table_bytes: tp.growth.table_bytes(day),
                partitions,
                partitions_capped: tp.partitions_cap.is_some_and(|c| partitions >= c),
            }
        })
        .collect();
    let advice = tp.growth.advice(headroom);
    let first = per.first();
    TableResults {
        name: tp.name.clone(),
        day: 0.0,
        traffic_factor: 1.0,
        first_split_day: tp.first_split_day,
        stored_item_bytes: tp.growth.stored_item_bytes(),
        stored_bytes: tp.stored_bytes,
        dilutes_by_horizon: tp.dilutes_by_horizon,
        partitions: tp.layout.partitions,
        partition_read_limit_per_s: tp.layout.read_limit_per_s,
        partition_write_limit_per_s: tp.layout.write_limit_per_s,
        partition_combined_limit_per_s: tp.layout.combined_limit_per_s,
        peak_utilization: stat(per, |t| t.peak_utilization),
        throttled_fraction: stat(per, throttled_fraction),
        throttled_sides: throttled_sides(tp, per),
        hottest_partition_share: stat(per, |t| t.hottest_partition_share),
        max_item_collection_bytes: stat(per, |t| t.growth.max_collection_bytes),
        max_item_bytes: stat(per, |t| t.growth.max_item_bytes),
        partition_size_limit_bytes: tp.layout.item_collection_limit_bytes,
        item_size_limit_bytes: tp.layout.item_size_limit_bytes,
        size_breach: breach(per, |t| t.growth.size_breach_day),
        item_size_breach: breach(per, |t| t.growth.item_breach_day),
        partition_rows_limit: tp.growth.rows_limit,
        max_partition_rows: stat(per, |t| t.growth.max_rows),
        rows_breach: breach(per, |t| t.growth.rows_breach_day),
        widest_safe_bucket_days: advice.bucket_days,
        widest_safe_bucket_limited_by: advice.bucket_binds.map(str::to_string),
        fewest_safe_shards: advice.shards,
        widest_safe_item_bucket_days: advice.item_bucket_days,
        size_breach_curve: curve(&grid, per, |t| t.growth.size_breach_day),
        item_size_breach_curve: curve(&grid, per, |t| t.growth.item_breach_day),
        rows_breach_curve: curve(&grid, per, |t| t.growth.rows_breach_day),
        fan_out: tp.reported_fan_out(),
        requests_per_s: tp.requests_per_s,
        read_units_per_s: mean(
            &per.iter()
                .map(|t| rows_sum(&t.ranked, tp.layout.partitions.max(1), 0))
                .collect::<Vec<_>>(),
        ),
        write_units_per_s: mean(
            &per.iter()
                .map(|t| rows_sum(&t.ranked, tp.layout.partitions.max(1), 1))
                .collect::<Vec<_>>(),
        ),
        mean_read_units_per_s: tp
            .streams
            .iter()
            .filter(|s| !s.is_write)
            .map(|s| s.mean_rate_per_s * tp.sub_requests(s) * s.severity.mean)
            // From +0 (an empty f64 sum is −0: "read": -0.0 in summary.json).
            .fold(0.0, |a, x| a + x),
        mean_write_units_per_s: tp
            .streams
            .iter()
            .filter(|s| s.is_write)
            .map(|s| s.mean_rate_per_s * tp.sub_requests(s) * s.severity.mean)
            .fold(0.0, |a, x| a + x),
        monthly_cost: None,
        monthly_storage_cost: None,
        patterns: Vec::new(),
        partition_ranks,
        nodes,
        checkpoints: Vec::new(),
        placement: placement(tp),
        hot_keys: first.map(|t| t.hot_keys.clone()).unwrap_or_default(),
        timeseries: first.and_then(|t| t.timeseries.clone()).unwrap_or_default(),
        growth,
        back_pressure: Vec::new(),
        index_throttled_fraction: None,
        table_limit: table_limit(plan, tp, per),
        key_checks: KeyChecks::default(),
    }
}

/// The table-level limit's figures over trials, when the plan has one.
fn table_limit(
    plan: &Plan,
    tp: &super::plan::TablePlan,
    per: &[&TableTrial],
) -> Option<TableLimitResults> {
    let limit = tp.table_limit.as_ref()?;
    let of = |t: &TableTrial| t.table_limit.unwrap_or_default();
    let duration_s = plan.window_s * plan.windows as f64;
    let still = per
        .iter()
        .filter(|t| of(t).throttled_units > 0.0 && of(t).clear_s >= duration_s - 1e-9)
        .count();
    Some(TableLimitResults {
        label: limit.label.clone(),
        steps_per_s: limit
            .stretches
            .iter()
            .filter_map(|&(a, _, l)| Some((a as f64 * plan.window_s, l.combined? / plan.window_s)))
            .collect(),
        caps: [0, 1].map(|side| {
            limit.caps_per_s[side].map(|limit_per_s| TableCap {
                limit_per_s,
                peak_utilization: stat(per, |t| of(t).sides[side].peak_utilization),
                throttled_fraction: stat(per, |t| {
                    let s = of(t).sides[side];
                    if s.requested_units > 0.0 {
                        s.throttled_units / s.requested_units
                    } else {
                        0.0
                    }
                }),
            })
        }),
        throttled_fraction: stat(per, |t| {
            if t.requested_units > 0.0 {
                of(t).throttled_units / t.requested_units
            } else {
                0.0
            }
        }),
        peak_utilization: stat(per, |t| of(t).peak_utilization),
        clear_minute: stat(per, |t| of(t).clear_s / 60.0),
        still_throttling: Proportion::wilson(still, per.len()),
    })
}

/// The busiest partition-key value's write rate in the busy period, per second:
/// for each group of write streams picked by the same entity, the rank-1
/// instance's share of their rate, divided over the other entities'
/// combinations and the write shards; and the same before its write shards
/// spread it (each stream's heaviest sub-key weight taken out).
fn hottest_key_rates(tp: &super::plan::TablePlan) -> (f64, f64) {
    let (mut best, mut unsharded): (f64, f64) = (0.0, 0.0);
    for d in drivers(tp, |s| s.is_write) {
        let ours = || {
            tp.streams
                .iter()
                .filter(|s| s.is_write && s.driver == d && !s.fresh_keys)
        };
        let rate: f64 = ours().map(busiest_subkey_rate).sum();
        best = best.max(rate);
        unsharded = unsharded.max(ours().map(rank_1_key_rate).sum());
    }
    (best, unsharded)
}

/// The drivers (entities whose rank picks the key) of `tp`'s streams that
/// `which` takes, in the order they first appear.
fn drivers(
    tp: &super::plan::TablePlan,
    which: impl Fn(&super::stream::Stream) -> bool,
) -> Vec<Option<usize>> {
    let mut drivers: Vec<Option<usize>> = Vec::new();
    for s in tp.streams.iter().filter(|s| which(s)) {
        if !drivers.contains(&s.driver) {
            drivers.push(s.driver);
        }
    }
    drivers
}

/// Requests per second stream `s` sends to its rank-1 key in the busy
/// period (over the other entities' combinations).
fn rank_1_key_rate(s: &super::stream::Stream) -> f64 {
    if s.combos.uniform {
        s.busy_rate_per_s * s.shares.share(1) / s.combos.count
    } else {
        s.busy_rate_per_s * s.shares.share(1) * s.combos.max_share()
    }
}

/// The same to the busiest of that key's write shards.
fn busiest_subkey_rate(s: &super::stream::Stream) -> f64 {
    rank_1_key_rate(s) * s.subkeys.iter().map(|k| k.weight).fold(0.0, f64::max)
}

/// A table's replica operations per second in the busy period: each
/// request's sub-requests on every replica for a write, on the read
/// replicas for a read.
fn replica_ops(tp: &super::plan::TablePlan, k: crate::store::KeyShard) -> f64 {
    tp.streams
        .iter()
        .map(|s| {
            let copies = if s.is_write {
                k.replicas
            } else {
                k.read_replicas
            };
            s.busy_rate_per_s * tp.sub_requests(s) * copies
        })
        .sum()
}

/// Where the store pins a key to one core of each replica
/// ([`crate::store::KeyShard`]): the busiest key's replica operations on
/// that core (its writes on every replica, its reads × read replicas ÷
/// replicas), of the driver whose rank-1 key takes most, and the node's
/// other keys' share of the core: every replica operation of the cluster
/// (`cluster_ops`, every table's: the cores serve them all) but the
/// key's, ÷ nodes × cores.
fn shard_ops(tp: &super::plan::TablePlan, k: crate::store::KeyShard, cluster_ops: f64) -> ShardOps {
    let read_share = k.read_replicas / k.replicas.max(1.0);
    let side = |d: Option<usize>, is_write: bool| -> f64 {
        tp.streams
            .iter()
            .filter(|s| s.is_write == is_write && s.driver == d && !s.fresh_keys)
            .map(busiest_subkey_rate)
            .sum()
    };
    let (mut writes, mut reads) = (0.0f64, 0.0f64);
    for d in drivers(tp, |_| true) {
        let (w, r) = (side(d, true), side(d, false));
        if w + r * read_share > writes + reads * read_share {
            (writes, reads) = (w, r);
        }
    }
    let key_ops = writes + reads * read_share;
    let all_ops = cluster_ops.max(replica_ops(tp, k));
    let others = (all_ops - key_ops * k.replicas) / (k.nodes * k.shards_per_node).max(1.0);
    ShardOps {
        key_writes_per_s: writes,
        key_reads_per_s: reads,
        key_ops_per_s: key_ops,
        others_ops_per_s: others.max(0.0),
        limit_per_s: k.ops_per_s,
        read_replicas: k.read_replicas,
        replicas: k.replicas,
    }
}

/// The figures of a table's per-key and table-level limits in this busy
/// period (the store's `key_limits`; a global index's own capacity).
/// `collection_keys`: [`StoreModel::collection_keys`].
fn key_checks(
    scenario: &Scenario,
    tp: &super::plan::TablePlan,
    collection_keys: bool,
    cluster_ops: f64,
) -> KeyChecks {
    let limits = tp.key_limits;
    let units = |is_write: bool| tp.busy_units_per_s(is_write);
    let keys = key_layout(scenario, &tp.name);
    let monotonic_key = keys.is_some_and(|(partition_key, sort_key, _, _)| {
        let has_time =
            |k: &crate::scenario::KeyTemplate| k.has(&crate::scenario::TemplatePart::Time);
        has_time(partition_key) || sort_key.is_some_and(has_time)
    });
    let parent = keys
        .filter(|&(_, _, _, index)| limits.monotonic_per_parent && !index)
        .and_then(|(partition_key, _, _, _)| parent_path(partition_key));
    // An index's entries are ordered by their partition key's fields, then
    // the value: each value of those fields has its own range.
    let prefix = keys
        .filter(|&(partition_key, _, _, index)| index && !partition_key.entities().is_empty())
        .map(|(partition_key, _, _, _)| {
            let entities: Vec<String> = partition_key
                .entities()
                .iter()
                .map(|e| e.to_string())
                .collect();
            (partition_key.text.clone(), entities)
        });
    let monotonic = limits
        .monotonic_write_per_s
        .filter(|_| monotonic_key)
        .map(|limit| MonotonicWrites {
            writes_per_s: tp
                .streams
                .iter()
                .filter(|s| s.is_write)
                .map(|s| s.busy_rate_per_s)
                .sum::<f64>()
                * parent
                    .as_ref()
                    .or(prefix.as_ref())
                    .map_or(1.0, |(_, e)| busiest_parent_share(scenario, e)),
            limit_per_s: limit,
            shards: keys.map_or(1, |(_, _, shards, _)| shards.max(1)),
            parent: parent.map(|(text, _)| text),
            prefix: prefix.map(|(text, _)| text),
        });
    let (hottest, unsharded) = hottest_key_rates(tp);
    let document = busiest_document_share(scenario, collection_keys, keys);
    KeyChecks {
        day: scenario.simulation.day,
        traffic_factor: 1.0,
        hottest_key_writes_per_s: hottest * document,
        hottest_key_unsharded_writes_per_s: unsharded * document,
        key_write_limit_per_s: limits.key_write_per_s,
        table_units_per_s: [units(false), units(true)],
        table_limits_per_s: [limits.table_read_per_s, limits.table_write_per_s],
        table_combined_limit_per_s: limits.table_combined_per_s,
        table_limit_note: limits.table_limit_note.to_string(),
        monotonic,
        shard: limits.key_shard.map(|k| shard_ops(tp, k, cluster_ops)),
    }
}

/// The partition key, sort key, write shards and whether it is an index,
/// of the table or index (`"<table>.<index>"`) a plan is named after: a
/// Firestore index on a timestamp (`[[table.index]]` with `sort_key =
/// "{time}"`) is the sequential index `monotonic_index` judges, as a table
/// ordered by it is.
fn key_layout<'s>(scenario: &'s Scenario, name: &str) -> Option<KeyLayout<'s>> {
    scenario.tables.iter().find_map(|t| {
        if t.name == name {
            return Some((&t.partition_key, t.sort_key.as_ref(), t.shards, false));
        }
        let index = name.strip_prefix(t.name.as_str())?.strip_prefix('.')?;
        let ix = t.indexes.iter().find(|ix| ix.name == index)?;
        Some((&ix.partition_key, ix.sort_key.as_ref(), ix.shards, true))
    })
}

/// [`key_layout`]'s (partition key, sort key, shards, is an index).
type KeyLayout<'s> = (
    &'s crate::scenario::KeyTemplate,
    Option<&'s crate::scenario::KeyTemplate>,
    u32,
    bool,
);

/// The collection a key's items belong to, read as a slash-separated path
/// (Firestore's `collection/document/collection/…`), and the entities named
/// in it, when it names any: an even number of segments is a document path
/// whose collection is all but its last segment
/// (`rooms/{room}/messages/{id}`: `rooms/{room}/messages`), an odd number
/// a collection path itself (`rooms/{room}/messages`, the room's messages
/// ordered by the sort key). `None` for a key without `/` or whose
/// collection names no entity (`messages/{time}`: one collection).
fn parent_path(key: &crate::scenario::KeyTemplate) -> Option<(String, Vec<String>)> {
    let text = key.text.as_str();
    if !text.contains('/') {
        return None;
    }
    let collection = if text.split('/').count().is_multiple_of(2) {
        &text[..text.rfind('/').unwrap_or(0)]
    } else {
        text
    };
    let entities: Vec<String> = key
        .parts
        .iter()
        .filter_map(|p| match p {
            crate::scenario::TemplatePart::Entity(e)
                if collection.contains(&format!("{{{e}}}")) =>
            {
                Some(e.clone())
            }
            _ => None,
        })
        .collect();
    (!entities.is_empty()).then(|| (collection.to_string(), entities))
}

/// The share of a key's writes its busiest document takes, where the key
/// is a collection path of a store whose per-key limit is a document's
/// (`collection_keys`, [`StoreModel::collection_keys`]: `likes`,
/// `posts/{post}/likes`): 0 when
/// the sort key makes every write a new document (`{time}`, `{id}`, or no
/// sort key: an auto-ID), else the busiest instance's share of each
/// sort-key entity the partition key does not name. 1 for a document key.
fn busiest_document_share(
    scenario: &Scenario,
    collection_keys: bool,
    keys: Option<KeyLayout<'_>>,
) -> f64 {
    let Some((pk, sk, _, false)) = keys else {
        return 1.0;
    };
    if !collection_keys || !crate::store::collection_path(&pk.text) {
        return 1.0;
    }
    let Some(sk) = sk else {
        return 0.0;
    };
    let fresh = [
        crate::scenario::TemplatePart::Time,
        crate::scenario::TemplatePart::Id,
    ];
    if fresh.iter().any(|p| sk.has(p)) {
        return 0.0;
    }
    let own: Vec<String> = sk
        .entities()
        .iter()
        .filter(|e| !pk.entities().contains(e))
        .map(|e| e.to_string())
        .collect();
    busiest_parent_share(scenario, &own)
}

/// The share of a table's writes that its busiest parent path takes: the
/// product, over the parent's `entities`, of each one's busiest instance's
/// share by its popularity (keys draw entities independently; the rank-1
/// instance of each is the busiest parent's).
fn busiest_parent_share(scenario: &Scenario, entities: &[String]) -> f64 {
    entities
        .iter()
        .map(|e| {
            scenario
                .entities
                .iter()
                .find(|x| &x.name == e)
                .map_or(1.0, |x| {
                    crate::distributions::popularity::RankShares::new(&x.popularity, x.count)
                        .share(1)
                })
        })
        .product()
}

/// One variant's results.
pub fn variant(v: &Variant, d: Design) -> VariantResults {
    VariantResults {
        name: v.name.clone(),
        set: v.set.iter().cloned().collect(),
        tables: d.tables,
        verdicts: Vec::new(),
        fanout: Default::default(),
    }
}

/// Sets each table's `monthly_cost` from the scenario's `[pricing]` and the
/// capacity its store provisions (left `None` without pricing); a global
/// index with its own `read_capacity` / `write_capacity` is priced on them.
pub fn set_monthly_costs(scenario: &Scenario, store: &dyn StoreModel, tables: &mut [TableResults]) {
    let Some(pricing) = scenario.pricing.as_ref() else {
        return;
    };
    for t in tables {
        let index = t.name.split_once('.').and_then(|(table, index)| {
            let table = scenario.tables.iter().find(|x| x.name == table)?;
            table.indexes.iter().find(|i| i.name == index && !i.local)
        });
        let own = index.and_then(|i| store.index_store(i.read_capacity, i.write_capacity));
        let provisioned = own.as_deref().unwrap_or(store).provisioned_units();
        // A global index's entry writes, where the store bills none.
        let billed_writes = if index.is_some() && !store.bills_index_writes() {
            0.0
        } else {
            t.mean_write_units_per_s
        };
        // One unit for reads and writes (Cosmos DB's RU) without a write
        // price of its own: the read side's price is the unit's, for both.
        let pooled = store.one_unit_for_reads_and_writes()
            && pricing.write_unit_hour.is_none()
            && pricing.write_unit_per_million.is_none();
        let (read_units, write_units) = if pooled {
            (t.mean_read_units_per_s + billed_writes, 0.0)
        } else {
            (t.mean_read_units_per_s, billed_writes)
        };
        let sides = pricing.monthly_cost_sides(provisioned, read_units, write_units);
        // Storage is billed on what the table holds: at the horizon's end,
        // the most the horizon stores (with a TTL, its steady state).
        let stored = t.growth.last().map_or(t.stored_bytes, |g| g.table_bytes);
        // The store's billing overhead per item (DynamoDB's 100 B), on a
        // table's items (its bytes ÷ the bytes a stored item takes, with
        // its local index entries: ÷ the mean item alone counted 1,752 B
        // items as 1.17 of 1,500 B); a global index's entries carry it in
        // their size.
        let is_table = scenario.tables.iter().any(|x| x.name == t.name);
        let overhead = if is_table && index.is_none() && t.stored_item_bytes > 0.0 {
            stored / t.stored_item_bytes * store.billed_bytes_per_item()
        } else {
            0.0
        };
        t.monthly_storage_cost = pricing.monthly_storage_cost(stored + overhead);
        t.monthly_cost = match (
            pricing.monthly_cost(provisioned, read_units, write_units),
            t.monthly_storage_cost,
        ) {
            (Some(units), Some(storage)) => Some(units + storage),
            (units, storage) => units.or(storage),
        };
        // Each pattern carries its side's cost by its share of that side's
        // daily-mean units (of all the table's, where one unit prices both).
        let side_units = if pooled {
            [read_units; 2]
        } else {
            [t.mean_read_units_per_s, t.mean_write_units_per_s]
        };
        let table_cost = t.monthly_cost;
        for p in &mut t.patterns {
            let side = if pooled {
                0
            } else {
                usize::from(p.side == "write")
            };
            p.monthly_cost = sides[side].map(|cost| {
                if side_units[side] > 0.0 {
                    cost * p.mean_units_per_s / side_units[side]
                } else {
                    0.0
                }
            });
            p.cost_share = match (p.monthly_cost, table_cost) {
                (Some(c), Some(total)) if total > 0.0 => Some(c / total),
                _ => None,
            };
        }
    }
}

/// Assembles the run results (verdicts, recommendation and checklist are
/// the verdicts stage's).
pub fn finish(scenario: &Scenario, base: Design, variants: Vec<VariantResults>) -> RunResults {
    RunResults {
        scenario: scenario.name.clone(),
        description: scenario.description.clone(),
        seed: base.seed,
        trials: base.trials,
        keyheat_version: env!("CARGO_PKG_VERSION").to_string(),
        method: base.method.as_str().to_string(),
        window_s: scenario.simulation.window_s,
        duration_s: scenario.simulation.duration_s,
        horizon_days: scenario.simulation.horizon_days,
        headroom: scenario.checks.headroom,
        // The base design's, or where only alternatives are priced (a
        // `keyheat compare` of an unpriced draft with priced files), theirs:
        // `compare` refuses designs priced in two currencies.
        currency: std::iter::once(scenario)
            .chain(scenario.variants.iter().map(|v| &*v.scenario))
            .find_map(|s| s.pricing.as_ref().map(|p| p.currency.clone())),
        store: base.store,
        tables: base.tables,
        verdicts: Vec::new(),
        variants,
        recommendation: None,
        checklist: Vec::new(),
        warnings: warnings(scenario),
        fanout: Default::default(),
        source_text: scenario.source_text.clone(),
        replay: None,
        rerun_flags: Vec::new(),
    }
}

/// The scenario's warnings, then each variant's that the base does not
/// have, its message prefixed with the variant.
pub fn warnings(scenario: &Scenario) -> Vec<crate::scenario::Warning> {
    let mut out = scenario.warnings.clone();
    for v in &scenario.variants {
        for w in &v.scenario.warnings {
            if !scenario.warnings.contains(w) {
                out.push(crate::scenario::Warning {
                    message: format!("variant `{}`: {}", v.name, w.message),
                    ..w.clone()
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Trials' rank rows with idle rows (every figure +0) ranked last, as
    /// `rank_busiest` leaves them: some trials all idle, some with rows of
    /// −0 figures.
    fn trials_of_rows(n: usize) -> Vec<Vec<[f64; 4]>> {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        (0..40)
            .map(|t| {
                let busy = if t % 7 == 0 {
                    0
                } else {
                    rng.random_range(0..=n)
                };
                let mut rows: Vec<[f64; 4]> = (0..busy)
                    .map(|_| {
                        let mut r = [0.0; 4];
                        for x in &mut r {
                            *x = match rng.random_range(0..4) {
                                0 => 0.0,
                                1 => -0.0,
                                _ => rng.random::<f64>() * 1e3,
                            };
                        }
                        r
                    })
                    .collect();
                rows.resize(n, [0.0; 4]);
                rows
            })
            .collect()
    }

    /// A trial's rows without its idle suffix, as `partition_ranking` keeps them.
    fn busy_prefix(rows: &[[f64; 4]]) -> &[[f64; 4]] {
        let idle = rows
            .iter()
            .rev()
            .take_while(|r| super::super::cluster::is_idle(r))
            .count();
        &rows[..rows.len() - idle]
    }

    #[test]
    fn rank_figures_are_the_same_without_the_idle_rows() {
        let n = 300;
        let full = trials_of_rows(n);
        let all: Vec<&[[f64; 4]]> = full.iter().map(Vec::as_slice).collect();
        let kept: Vec<&[[f64; 4]]> = full.iter().map(|r| busy_prefix(r)).collect();
        assert!(kept.iter().any(|r| r.is_empty()) && kept.iter().any(|r| r.len() < n));
        // Bit for bit, every rank's figures, and each trial's column sums
        // (a sum of only idle rows is +0, not −0).
        let bits = |v: Vec<PartitionRank>| -> Vec<[u64; 5]> {
            v.iter()
                .map(|r| {
                    [
                        r.read_units_per_s,
                        r.write_units_per_s,
                        r.mean_utilization,
                        r.peak_utilization,
                        r.peak_utilization_p95,
                    ]
                    .map(f64::to_bits)
                })
                .collect()
        };
        assert_eq!(bits(rank_stats(&kept, n)), bits(rank_stats(&all, n)));
        for (rows, busy) in all.iter().zip(&kept) {
            for k in 0..2 {
                let plain: f64 = rows.iter().map(|r| r[k]).sum();
                assert_eq!(rows_sum(busy, n, k).to_bits(), plain.to_bits());
            }
        }
    }
}
