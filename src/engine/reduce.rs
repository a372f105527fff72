//! Per-trial outcomes → per-table statistics, verdicts, variant comparison
//! and the recommendation. Trials are reduced in index order.

use super::plan::Plan;
use super::trial::TableTrial;
use crate::results::stats::{ci95_mean, mean, percentile};
use crate::results::{
    Breach, GrowthPoint, IndexPressure, NodeMemory, NodeResults, PartitionRank, Placement,
    Proportion, Recommendation, RunResults, Stat, Status, StoreSummary, TableLimitResults,
    TableResults, VariantResults, Verdict,
};
use crate::scenario::{Scenario, Variant};
use crate::store::StoreModel;

/// One design (base or variant) reduced.
#[derive(Debug, Clone)]
pub struct Design {
    pub tables: Vec<TableResults>,
    pub verdicts: Vec<Verdict>,
    pub store: StoreSummary,
    pub seed: u64,
    pub trials: u32,
    /// Verdicts computed from the plan (per-key and monotonic-index limits).
    pub plan_key_verdicts: Vec<Verdict>,
    /// How request counts were drawn.
    pub method: super::plan::Method,
}

/// Every verdict of a design: the per-table checks, then the plan's key checks.
pub fn all_verdicts(
    scenario: &Scenario,
    tables: &[TableResults],
    plan_key_verdicts: &[Verdict],
    store: &dyn StoreModel,
) -> Vec<Verdict> {
    let (ru, wu) = store.unit_names();
    let mut v: Vec<Verdict> = Vec::new();
    // The nodes are shared: one hot_node (and node_memory) verdict for the
    // cluster, named after the tables it sums, after the first table with nodes.
    let mut cluster_done = false;
    for t in tables {
        for verdict in verdicts(t, scenario.checks.headroom, ru, wu) {
            if verdict.check == "hot_node" {
                if cluster_done {
                    continue;
                }
                cluster_done = true;
                v.push(verdict);
                if let Some(m) = t.nodes.as_ref().and_then(|n| {
                    n.memory.as_ref().map(|m| {
                        memory_verdict(
                            n,
                            m,
                            scenario.checks.headroom,
                            scenario.simulation.horizon_days,
                        )
                    })
                }) {
                    v.push(m);
                }
            } else {
                v.push(verdict);
            }
        }
    }
    for x in v.iter_mut().filter(|x| x.status != Status::Pass) {
        if let Some(note) = store.breach_note(&x.check) {
            x.detail = format!("{}; {note}", x.detail);
        }
    }
    v.extend(plan_key_verdicts.iter().cloned());
    v
}

/// The `node_memory` verdict: the fullest node's bytes at the end of the
/// horizon against `node_memory` — fail when it fills in more than 5% of
/// trials, warn over the headroom; pass (reported only) without a limit.
pub fn memory_verdict(n: &NodeResults, m: &NodeMemory, headroom: f64, horizon: f64) -> Verdict {
    let label = &n.label;
    let held = format!(
        "fullest {label} holds p95 {} at day {} (mean {}; {} at day 0, growing {}/day; all {label}s {}; {} B per key counted)",
        human_bytes(m.peak_bytes.p95),
        sig3(horizon),
        human_bytes(m.peak_bytes.mean),
        human_bytes(m.peak_bytes_day0.mean),
        human_bytes(m.peak_growth_bytes_per_day.mean),
        human_bytes(m.total_bytes.mean),
        sig3(m.key_overhead_bytes),
    );
    let (status, detail) = match m.limit_bytes {
        None => (
            Status::Pass,
            format!("{held}; no node_memory set: set it to the {label}s' maxmemory to check it"),
        ),
        Some(limit) => {
            let status = if m.fill.probability.mean > 0.05 {
                Status::Fail
            } else {
                status_for(m.peak_bytes.p95, limit, headroom)
            };
            let when = match m.fill.mean_day {
                Some(d) => format!(
                    "fills {} on average (in {}% of trials)",
                    when_day(d),
                    sig3(100.0 * m.fill.probability.mean)
                ),
                None => "does not fill within the horizon".to_string(),
            };
            (
                status,
                format!("{held} vs node_memory {}; {when}", human_bytes(limit)),
            )
        }
    };
    Verdict {
        check: "node_memory".into(),
        table: n.tables.join(" + "),
        status,
        detail,
    }
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
            if let Some(n) = r.nodes.as_mut() {
                n.tables = node_tables.clone();
                n.memory = overhead.and_then(|o| {
                    node_memory(&per, o, tp.layout.nodes.as_ref()?.memory_limit_bytes, plan)
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
    let plan_key_verdicts: Vec<Verdict> = plan
        .tables
        .iter()
        .flat_map(|tp| key_verdicts(scenario, tp, store, scenario.checks.headroom))
        .collect();
    let mut plan_key_verdicts = plan_key_verdicts;
    if store.kind() == crate::scenario::StoreKind::MongoDb {
        plan_key_verdicts.extend(shard_key_verdicts(scenario));
    }
    if store.kind() == crate::scenario::StoreKind::Bigtable {
        plan_key_verdicts.extend(crate::store::bigtable::row_key_verdicts(scenario));
    }
    let verdicts = all_verdicts(scenario, &tables, &plan_key_verdicts, store);
    Design {
        tables,
        verdicts,
        plan_key_verdicts,
        method: plan.method,
        store: StoreSummary {
            kind: store.kind().as_str().to_string(),
            read_unit: ru.to_string(),
            write_unit: wu.to_string(),
            figures: {
                let mut f = store.figures();
                f.extend(index_figures(scenario, store));
                f
            },
        },
        seed: plan.seed,
        trials: plan.trials,
    }
}

/// The secondary-index figures of a DynamoDB scenario with indexes: index
/// writes per base write, back-pressure, and each global index's capacity.
fn index_figures(scenario: &Scenario, store: &dyn StoreModel) -> Vec<crate::results::Figure> {
    use crate::results::Figure;
    use crate::scenario::{SettingValue, StoreKind};
    if store.kind() != StoreKind::DynamoDb || scenario.tables.iter().all(|t| t.indexes.is_empty()) {
        return Vec::new();
    }
    let guide = "Amazon DynamoDB Developer Guide: Provisioned throughput considerations for Global Secondary Indexes";
    let mut out = vec![
        Figure {
            name: "index writes".into(),
            value: "per base write: 1 (a new entry, an update of projected attributes, a delete); 2 when the write changes the index key (index_key_changes: delete the old entry + put the new one); 0 when the write leaves the index alone (index_untouched)".into(),
            source: format!("{guide} (writes); a local index's writes are charged to the base write"),
            assumption: false,
        },
    ];
    if scenario
        .access_patterns
        .iter()
        .any(|p| !p.index_key_changes.is_empty())
    {
        out.push(Figure {
            name: "index key change".into(),
            value: "the delete of the old entry and the put of the new one land on index keys drawn independently from the index key's popularity; the delete changes no item-collection growth".into(),
            source: "keyheat: which value an item leaves is not in the scenario".into(),
            assumption: true,
        });
    }
    if scenario
        .tables
        .iter()
        .any(|t| t.indexes.iter().any(|i| !i.local))
    {
        out.push(Figure {
            name: "back-pressure".into(),
            value: "a table write waits on every global index it writes: the table's throttled write share is 1 − (1 − f₀)·Π(1 − sᵢ·fᵢ) (f: throttled write shares of the table and index i, sᵢ: the share of the table's write units that write index i); the index's write peak counts in the table's hot_partition verdict".into(),
            source: format!("{guide} (a table write is throttled when an index lacks write capacity) — assumption: independent throttling, spread evenly over the writes feeding an index"),
            assumption: true,
        });
    }
    let on_demand = matches!(scenario.store.settings.get("mode"), Some(SettingValue::Text(m)) if m == "on_demand");
    if on_demand {
        return out;
    }
    let setting = |name: &str, default: f64| match scenario.store.settings.get(name) {
        Some(SettingValue::Number(x)) => *x,
        _ => default,
    };
    let (table_r, table_w) = (
        setting("read_capacity", 3000.0),
        setting("write_capacity", 1000.0),
    );
    for t in &scenario.tables {
        for i in t.indexes.iter().filter(|i| !i.local) {
            let own = i.read_capacity.is_some() || i.write_capacity.is_some();
            let r = i.read_capacity.unwrap_or(table_r);
            let w = i.write_capacity.unwrap_or(table_w);
            out.push(Figure {
                name: format!("{}.{} capacity", t.name, i.name),
                value: format!(
                    "{} RCU ({}), {} WCU ({}); partitions and per-partition limits by the table's rule",
                    crate::format::exact(r),
                    if i.read_capacity.is_some() { "its own" } else { "the table's" },
                    crate::format::exact(w),
                    if i.write_capacity.is_some() { "its own" } else { "the table's" },
                ),
                source: if own && i.read_capacity.is_some() && i.write_capacity.is_some() {
                    "scenario".into()
                } else {
                    format!("keyheat default: the table's [store] capacity for what the index does not set ({guide}: a provisioned GSI has its own read and write capacity)")
                },
                assumption: !(i.read_capacity.is_some() && i.write_capacity.is_some()),
            });
        }
    }
    out
}

/// Share of a trial's write units throttled (0 without writes).
fn write_throttled_fraction(t: &TableTrial) -> f64 {
    if t.requested_write_units > 0.0 {
        (t.throttled_write_units / t.requested_write_units).clamp(0.0, 1.0)
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
            let added = ((total - own) * base.requested_write_units).max(0.0);
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

fn ranks(per: &[&TableTrial], pick: fn(&TableTrial) -> &Vec<[f64; 4]>) -> Vec<PartitionRank> {
    let n_ranks = per.first().map_or(0, |t| pick(t).len());
    (0..n_ranks)
        .map(|i| {
            let col = |k: usize| -> Vec<f64> { per.iter().map(|t| pick(t)[i][k]).collect() };
            let peaks = col(3);
            PartitionRank {
                rank: i + 1,
                read_units_per_s: mean(&col(0)),
                write_units_per_s: mean(&col(1)),
                mean_utilization: mean(&col(2)),
                peak_utilization: mean(&peaks),
                peak_utilization_p95: percentile(&peaks, 0.95),
            }
        })
        .collect()
}

/// The cluster's memory over trials (the same in every table's trials).
fn node_memory(
    per: &[&TableTrial],
    key_overhead_bytes: f64,
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

fn placement(tp: &super::plan::TablePlan) -> Placement {
    let mut out = Placement::default();
    let total: f64 = tp.streams.iter().map(|s| s.busy_rate_per_s).sum();
    for s in &tp.streams {
        let st = super::placement::placement_stats(s, tp.layout.partitions);
        out.keys_placed += st.keys_placed;
        out.keys_as_mass += st.keys_as_mass;
        if total > 0.0 {
            out.tail_share += st.tail_share * s.busy_rate_per_s / total;
        }
        out.tail_cdf_error_bound = out.tail_cdf_error_bound.max(st.tail_cdf_error_bound);
    }
    out
}

/// P(breach by day d) with its Wilson interval, on the grid days.
fn curve<F: Fn(&TableTrial) -> Option<f64>>(
    grid: &[f64],
    per: &[&TableTrial],
    f: F,
) -> Vec<(f64, f64, [f64; 2])> {
    let days: Vec<Option<f64>> = per.iter().map(|t| f(t)).collect();
    if days.iter().all(Option::is_none) {
        return Vec::new();
    }
    grid.iter()
        .map(|&d| {
            let k = days.iter().filter(|x| x.is_some_and(|b| b <= d)).count();
            let p = Proportion::wilson(k, per.len());
            (d, p.mean, p.ci95)
        })
        .collect()
}

fn table_results(
    plan: &Plan,
    tp: &super::plan::TablePlan,
    per: &[&TableTrial],
    headroom: f64,
) -> TableResults {
    let partition_ranks = ranks(per, |t| &t.ranked);
    let nodes = tp.layout.nodes.as_ref().map(|n| {
        let node_ranks = ranks(per, |t| &t.node_ranked);
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
        }
    });
    let grid = tp.growth.grid();
    let growth = grid
        .iter()
        .enumerate()
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
    let first = per.first();
    TableResults {
        name: tp.name.clone(),
        stored_bytes: tp.stored_bytes,
        dilutes_by_horizon: tp.dilutes_by_horizon,
        partitions: tp.layout.partitions,
        partition_read_limit_per_s: tp.layout.read_limit_per_s,
        partition_write_limit_per_s: tp.layout.write_limit_per_s,
        partition_combined_limit_per_s: tp.layout.combined_limit_per_s,
        peak_utilization: stat(per, |t| t.peak_utilization),
        throttled_fraction: stat(per, |t| {
            if t.requested_units > 0.0 {
                t.throttled_units / t.requested_units
            } else {
                0.0
            }
        }),
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
        widest_safe_bucket_days: tp.growth.widest_safe_bucket_days(false, headroom),
        widest_safe_item_bucket_days: tp.growth.widest_safe_bucket_days(true, headroom),
        size_breach_curve: curve(&grid, per, |t| t.growth.size_breach_day),
        item_size_breach_curve: curve(&grid, per, |t| t.growth.item_breach_day),
        rows_breach_curve: curve(&grid, per, |t| t.growth.rows_breach_day),
        fan_out: tp.fan_out,
        requests_per_s: tp.requests_per_s,
        read_units_per_s: mean(
            &per.iter()
                .map(|t| t.ranked.iter().map(|r| r[0]).sum::<f64>())
                .collect::<Vec<_>>(),
        ),
        write_units_per_s: mean(
            &per.iter()
                .map(|t| t.ranked.iter().map(|r| r[1]).sum::<f64>())
                .collect::<Vec<_>>(),
        ),
        mean_read_units_per_s: tp
            .streams
            .iter()
            .filter(|s| !s.is_write)
            .map(|s| s.mean_rate_per_s * s.fan_out() * s.severity.mean)
            .sum(),
        mean_write_units_per_s: tp
            .streams
            .iter()
            .filter(|s| s.is_write)
            .map(|s| s.mean_rate_per_s * s.fan_out() * s.severity.mean)
            .sum(),
        monthly_cost: None,
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
            .map(|&(a, _, l)| (a as f64 * plan.window_s, l / plan.window_s))
            .collect(),
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

/// Human-readable bytes, decimal units (1 KB = 1000 B), 3 significant figures.
pub fn human_bytes(b: f64) -> String {
    crate::format::bytes(b)
}

fn sig3(x: f64) -> String {
    if x.abs() < 1e-9 || !x.is_finite() {
        return if x.is_finite() {
            "0".into()
        } else {
            format!("{x}")
        };
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

/// "on day 38.0", or "after 22 minutes" / "after 5.3 hours" within the first day.
fn when_day(d: f64) -> String {
    if d >= 1.0 {
        format!("on day {}", sig3(d))
    } else if d * 24.0 >= 1.0 {
        format!("after {} hours", sig3(d * 24.0))
    } else {
        format!("after {} minutes", sig3(d * 1440.0))
    }
}

fn status_for(p95: f64, limit: f64, headroom: f64) -> Status {
    if p95 > limit {
        Status::Fail
    } else if p95 > headroom * limit {
        Status::Warn
    } else {
        Status::Pass
    }
}

/// The `hot_partition`, `partition_size` and `item_size` verdicts of one table.
pub fn verdicts(t: &TableResults, headroom: f64, ru: &str, wu: &str) -> Vec<Verdict> {
    let mut out = Vec::new();
    let limit_words = |[r, w, c]: [Option<f64>; 3]| -> Vec<String> {
        [
            r.map(|l| format!("{} {ru}/s", sig3(l))),
            w.map(|l| format!("{} {wu}/s", sig3(l))),
            c.map(|l| format!("{} units/s", sig3(l))),
        ]
        .into_iter()
        .flatten()
        .collect()
    };
    let limits = limit_words([
        t.partition_read_limit_per_s,
        t.partition_write_limit_per_s,
        t.partition_combined_limit_per_s,
    ]);
    let node_limits: Vec<String> = t
        .nodes
        .as_ref()
        .map(|n| {
            let [r, w, c] = n.limits_per_s;
            [
                r.map(|l| format!("{} {ru}/s", sig3(l))),
                w.map(|l| format!("{} {wu}/s", sig3(l))),
                c.map(|l| {
                    let unit = if ru == wu { ru } else { "units" };
                    format!("{} {unit}/s", sig3(l))
                }),
            ]
            .into_iter()
            .flatten()
            .collect()
        })
        .unwrap_or_default();
    if let Some(n) = t.nodes.as_ref().filter(|_| !node_limits.is_empty()) {
        let u = &n.peak_utilization;
        out.push(Verdict {
            check: "hot_node".into(),
            table: n.tables.join(" + "),
            status: status_for(u.p95, 1.0, headroom),
            detail: format!(
                "p95 peak {label} utilization {} (mean {} [{}, {}]) of the per-{label} limit ({}) over {} {label}s, every table's load summed; busiest {label} takes {}% of the load (mean; even: {}%)",
                sig3(u.p95),
                sig3(u.mean),
                sig3(u.ci95[0]),
                sig3(u.ci95[1]),
                node_limits.join(", "),
                n.count,
                sig3(100.0 * n.hottest_node_share.mean),
                sig3(100.0 / n.count.max(1) as f64),
                label = n.label,
            ),
        });
    }
    // Judge the worst checkpoint of the horizon (day 0 when traffic does not
    // grow) — the earliest one whose mean peak is indistinguishable from the
    // worst's (95% CIs overlap), so noise does not move the verdict's day.
    let worst = t
        .checkpoints
        .iter()
        .max_by(|a, b| a.peak_utilization.p95.total_cmp(&b.peak_utilization.p95));
    let worst = worst.and_then(|w| {
        t.checkpoints
            .iter()
            .find(|c| c.peak_utilization.ci95[1] >= w.peak_utilization.ci95[0])
    });
    let (u_stat, thr, at, limits, partitions) = match worst {
        Some(c) if c.day > 0.0 => (
            c.peak_utilization,
            c.throttled_fraction,
            format!(
                " at day {} (traffic × {}{})",
                sig3(c.day),
                sig3(c.traffic_factor),
                if c.partitions == t.partitions {
                    String::new()
                } else {
                    format!(
                        "; {} stored on {} partitions, {} on day 0",
                        human_bytes(c.stored_bytes),
                        c.partitions,
                        t.partitions
                    )
                }
            ),
            limit_words(c.limits_per_s),
            c.partitions,
        ),
        _ => (
            t.peak_utilization,
            t.throttled_fraction,
            String::new(),
            limits,
            t.partitions,
        ),
    };
    let hot = if limits.is_empty() {
        Verdict {
            check: "hot_partition".into(),
            table: t.name.clone(),
            status: Status::Pass,
            detail: if node_limits.is_empty() {
                "no per-partition throughput limit is set for this store".into()
            } else {
                "no per-partition limit: this store limits throughput per node (see hot_node)"
                    .into()
            },
        }
    } else {
        let u = &u_stat;
        // Back-pressure: a global index whose writes run hot fails the table's writes.
        let pressing: Vec<&IndexPressure> = t
            .back_pressure
            .iter()
            .filter(|b| b.base_write_share > 0.0)
            .collect();
        let status = pressing
            .iter()
            .map(|b| status_for(b.write_peak_utilization.p95, 1.0, headroom))
            .fold(status_for(u.p95, 1.0, headroom), Status::max);
        let pressure: String = pressing
            .iter()
            .filter(|b| status_for(b.write_peak_utilization.p95, 1.0, headroom) != Status::Pass)
            .map(|b| {
                format!(
                    "; back-pressure: global index {} runs its writes at p95 peak write utilization {} ({}% of its write units throttled, mean), and the writes of this table that feed it ({}% of its write units) wait on it",
                    b.index,
                    sig3(b.write_peak_utilization.p95),
                    sig3(100.0 * b.throttled_write_fraction.mean),
                    sig3(100.0 * b.base_write_share),
                )
            })
            .collect::<String>()
            + &match t.index_throttled_fraction {
                Some(f) if f.mean > 0.0 => format!(
                    "; {}% of requested units throttled because of its global indexes (mean, included above)",
                    sig3(100.0 * f.mean)
                ),
                _ => String::new(),
            };
        Verdict {
            check: "hot_partition".into(),
            table: t.name.clone(),
            status,
            detail: format!(
                "p95 peak utilization {}{at} (mean {} [{}, {}]) of the per-partition limit ({}) over {} partitions; {}% of requested units throttled (mean); headroom {}",
                sig3(u.p95),
                sig3(u.mean),
                sig3(u.ci95[0]),
                sig3(u.ci95[1]),
                limits.join(", "),
                partitions,
                sig3(100.0 * thr.mean),
                headroom
            ) + if t.name.contains('.') && status != Status::Pass {
                "; a global index that throttles writes throttles the base table's writes (back-pressure)"
            } else {
                ""
            } + &pressure,
        }
    };
    out.push(hot);
    if let Some(l) = &t.table_limit {
        out.push(table_limit_verdict(t, l, headroom, ru, wu));
    }
    out.push(size_verdict(
        "partition_size",
        t,
        t.partition_size_limit_bytes,
        &t.max_item_collection_bytes,
        &t.size_breach,
        "item collection",
        headroom,
    ));
    if let Some(limit) = t.partition_rows_limit {
        let status = if t.rows_breach.probability.mean > 0.05 {
            Status::Fail
        } else {
            status_for(t.max_partition_rows.p95, limit, headroom)
        };
        let when = match t.rows_breach.mean_day {
            Some(d) => format!("first breach {} on average", when_day(d)),
            None => "no breach within the horizon".into(),
        };
        out.push(Verdict {
            check: "partition_rows".into(),
            table: t.name.clone(),
            status,
            detail: format!(
                "busiest item collection p95 {} rows vs the {}-row warning; {when}",
                crate::format::exact(t.max_partition_rows.p95.round()),
                crate::format::exact(limit.round())
            ),
        });
    }
    out.push(size_verdict(
        "item_size",
        t,
        t.item_size_limit_bytes,
        &t.max_item_bytes,
        &t.item_size_breach,
        "item",
        headroom,
    ));
    out
}

/// The `table_throughput` verdict of a table-level limit that changes over
/// simulated time: its p95 peak utilization, throttled share and the minute
/// from which no window is over it.
fn table_limit_verdict(
    t: &TableResults,
    l: &TableLimitResults,
    headroom: f64,
    ru: &str,
    wu: &str,
) -> Verdict {
    let unit = if ru == wu {
        format!("{ru}/s")
    } else {
        format!("{ru} + {wu}/s")
    };
    let u = &l.peak_utilization;
    let steps = match (l.steps_per_s.first(), l.steps_per_s.last()) {
        (Some(a), Some(b)) if l.steps_per_s.len() > 1 => format!(
            "{} {unit} at minute {} rising to {} {unit} at minute {}",
            sig3(a.1),
            sig3(a.0 / 60.0),
            sig3(b.1),
            sig3(b.0 / 60.0)
        ),
        (Some(a), _) => format!("{} {unit} from minute {}", sig3(a.1), sig3(a.0 / 60.0)),
        _ => "far above the traffic throughout the busy period".to_string(),
    };
    let clear = if l.throttled_fraction.mean <= 0.0 {
        "no window over it".to_string()
    } else if l.still_throttling.mean > 0.0 {
        format!(
            "still over it in the busy period's last stretch in {}% of trials",
            sig3(100.0 * l.still_throttling.mean)
        )
    } else {
        format!(
            "no window over it from minute {} of the busy period (mean; p95 {})",
            sig3(l.clear_minute.mean),
            sig3(l.clear_minute.p95)
        )
    };
    Verdict {
        check: "table_throughput".into(),
        table: t.name.clone(),
        status: status_for(u.p95, 1.0, headroom),
        detail: format!(
            "{}: p95 peak utilization {} (mean {} [{}, {}]) of the table's limit over simulated time ({steps}); {}% [{}, {}] of requested units throttled (mean); {clear}",
            l.label,
            sig3(u.p95),
            sig3(u.mean),
            sig3(u.ci95[0]),
            sig3(u.ci95[1]),
            sig3(100.0 * l.throttled_fraction.mean),
            sig3(100.0 * l.throttled_fraction.ci95[0]),
            sig3(100.0 * l.throttled_fraction.ci95[1]),
        ),
    }
}

fn size_verdict(
    check: &str,
    t: &TableResults,
    limit: Option<f64>,
    size: &Stat,
    breach: &Breach,
    what: &str,
    headroom: f64,
) -> Verdict {
    let Some(limit) = limit else {
        return Verdict {
            check: check.into(),
            table: t.name.clone(),
            status: Status::Pass,
            detail: format!(
                "no {what} ceiling applies here; largest {what} p95 {}",
                human_bytes(size.p95)
            ),
        };
    };
    let status = if breach.probability.mean > 0.05 {
        Status::Fail
    } else {
        status_for(size.p95, limit, headroom)
    };
    let mut when = match breach.mean_day {
        Some(d) => format!(
            "first breach {} on average (in {}% of trials)",
            when_day(d),
            sig3(100.0 * breach.probability.mean)
        ),
        None => "no breach within the horizon".to_string(),
    };
    let widest = if check == "item_size" {
        t.widest_safe_item_bucket_days
    } else {
        t.widest_safe_bucket_days
    };
    if let (Some(b), true) = (widest, status != Status::Pass) {
        if b <= 0.0 {
            when.push_str("; no time bucket helps: the busiest key starts over the ceiling");
        }
        let width = if b <= 0.0 {
            String::new()
        } else if b >= 1.0 {
            format!("{} days", sig3(b))
        } else if b * 24.0 >= 1.0 {
            format!("{} hours", sig3(b * 24.0))
        } else {
            format!("{} minutes", sig3(b * 1440.0))
        };
        if b > 0.0 {
            when.push_str(&format!(
                "; a time bucket of at most {width} keeps the busiest {what} under {headroom} × the ceiling"
            ));
        }
    }
    Verdict {
        check: check.into(),
        table: t.name.clone(),
        status,
        detail: format!(
            "largest {what} p95 {} vs ceiling {}; {when}",
            human_bytes(size.p95),
            human_bytes(limit)
        ),
    }
}

/// The busiest partition-key value's write rate in the busy period, per second:
/// for each group of write streams picked by the same entity, the rank-1
/// instance's share of their rate, divided over the other entities'
/// combinations and the write shards.
pub fn hottest_key_write_rate(tp: &super::plan::TablePlan) -> f64 {
    let mut best: f64 = 0.0;
    let mut drivers: Vec<Option<usize>> = Vec::new();
    for s in tp.streams.iter().filter(|s| s.is_write) {
        if !drivers.contains(&s.driver) {
            drivers.push(s.driver);
        }
    }
    for d in drivers {
        let rate: f64 = tp
            .streams
            .iter()
            .filter(|s| s.is_write && s.driver == d && !s.shares.is_fresh())
            .map(|s| {
                s.busy_rate_per_s * s.shares.share(1) / s.other_combos.max(1.0)
                    * s.subkeys.iter().map(|k| k.weight).fold(0.0, f64::max)
            })
            .sum();
        best = best.max(rate);
    }
    best
}

/// The store's per-key and monotonic-index checks, when it has such limits.
fn key_verdicts(
    scenario: &Scenario,
    tp: &super::plan::TablePlan,
    store: &dyn StoreModel,
    headroom: f64,
) -> Vec<Verdict> {
    // From the table's own store settings (a global index's own capacity).
    let limits = tp.key_limits;
    let mut out = Vec::new();
    if let Some(limit) = limits.key_write_per_s {
        let rate = hottest_key_write_rate(tp);
        out.push(Verdict {
            check: "hot_key".into(),
            table: tp.name.clone(),
            status: status_for(rate, limit, headroom),
            detail: format!(
                "busiest key takes {} writes/s in the busy period vs ~{} sustained writes/s per key",
                sig3(rate),
                sig3(limit)
            ),
        });
    }
    for (limit, is_write) in [
        (limits.table_read_per_s, false),
        (limits.table_write_per_s, true),
    ] {
        let Some(limit) = limit else { continue };
        let units: f64 = tp
            .streams
            .iter()
            .filter(|s| s.is_write == is_write)
            .map(|s| s.busy_rate_per_s * s.fan_out() * s.severity.mean)
            .sum();
        if units <= 0.0 {
            // Nothing asked of this side of the table: nothing to judge.
            continue;
        }
        let (ru, wu) = store.unit_names();
        let unit = if is_write { wu } else { ru };
        out.push(Verdict {
            check: "table_throughput".into(),
            table: tp.name.clone(),
            status: status_for(units, limit, headroom),
            detail: format!(
                "busy period asks {} {unit}/s of the table vs the {} {unit}/s it serves at once ({})",
                sig3(units),
                sig3(limit),
                limits.table_limit_note
            ),
        });
    }
    if let Some(limit) = limits.monotonic_write_per_s {
        let table = scenario.tables.iter().find(|t| t.name == tp.name);
        let monotonic = table.is_some_and(|t| {
            let has_time =
                |k: &crate::scenario::KeyTemplate| k.has(&crate::scenario::TemplatePart::Time);
            has_time(&t.partition_key) || t.sort_key.as_ref().is_some_and(has_time)
        });
        if monotonic {
            let shards = table.map_or(1.0, |t| f64::from(t.shards.max(1)));
            let writes: f64 = tp
                .streams
                .iter()
                .filter(|s| s.is_write)
                .map(|s| s.busy_rate_per_s)
                .sum();
            let lifted = limit * shards;
            out.push(Verdict {
                check: "monotonic_index".into(),
                table: tp.name.clone(),
                status: status_for(writes, lifted, headroom),
                detail: format!(
                    "{} writes/s into a monotonically increasing indexed value vs ~{} writes/s ({} per shard × {} shards)",
                    sig3(writes),
                    sig3(lifted),
                    sig3(limit),
                    shards
                ),
            });
        }
    }
    out
}

/// MongoDB: the `analyzeShardKey` characteristics of each collection's shard
/// key as a `shard_key` verdict — warn when a ranged key is monotonic, when the
/// most common value holds more than 1/shards of the documents, or when more
/// than half the reads scatter-gather.
fn shard_key_verdicts(scenario: &Scenario) -> Vec<Verdict> {
    let shards = match scenario.store.settings.get("shards") {
        Some(crate::scenario::SettingValue::Number(n)) => n.max(1.0),
        _ => 3.0,
    };
    (0..scenario.tables.len())
        .filter_map(|ti| crate::store::mongodb::analyze_shard_key(scenario, ti))
        .map(|a| {
            use crate::store::mongodb::{Monotonicity, ShardKey};
            let top = a.most_common_values.first().map_or(0.0, |v| v.1);
            let mut problems = Vec::new();
            if a.monotonicity == Monotonicity::Monotonic && a.sharding == ShardKey::Ranged {
                problems.push("a monotonic ranged key sends every insert to the MaxKey chunk");
            }
            if top > 1.0 / shards {
                problems.push("the most common value holds more than one shard's share");
            }
            if a.reads_scatter_gather_share > 0.5 {
                problems.push("most reads scatter-gather");
            }
            let cardinality = if a.cardinality.is_finite() {
                crate::format::exact(a.cardinality.round())
            } else {
                "unbounded".to_string()
            };
            Verdict {
                check: "shard_key".into(),
                table: a.table.clone(),
                status: if problems.is_empty() { Status::Pass } else { Status::Warn },
                detail: format!(
                    "analyzeShardKey of `{}` ({}): cardinality {cardinality}, most common value {}% of documents, {}; reads {}% single-shard / {}% multi-shard / {}% scatter-gather; writes {}% single-shard{}",
                    a.shard_key,
                    a.sharding.as_str(),
                    sig3(100.0 * top),
                    a.monotonicity.as_str(),
                    sig3(100.0 * a.reads_single_shard_share),
                    sig3(100.0 * a.reads_multi_shard_share),
                    sig3(100.0 * a.reads_scatter_gather_share),
                    sig3(100.0 * a.writes_single_shard_share),
                    if problems.is_empty() { String::new() } else { format!("; {}", problems.join("; ")) }
                ),
            }
        })
        .collect()
}

/// One variant's results.
pub fn variant(v: &Variant, d: Design) -> VariantResults {
    let mut tables = d.tables;
    set_monthly_costs(&v.scenario, &mut tables);
    VariantResults {
        name: v.name.clone(),
        set: v.set.iter().cloned().collect(),
        tables,
        verdicts: d.verdicts,
    }
}

/// Sets each table's `monthly_cost` from the scenario's `[pricing]` and
/// store settings (left `None` without pricing); a global index with its own
/// `read_capacity` / `write_capacity` is priced on them.
fn set_monthly_costs(scenario: &Scenario, tables: &mut [TableResults]) {
    for t in tables {
        let own = t.name.split_once('.').and_then(|(table, index)| {
            let ti = scenario.tables.iter().position(|x| x.name == table)?;
            let xi = scenario.tables[ti]
                .indexes
                .iter()
                .position(|i| i.name == index && !i.local)?;
            Some(super::plan::global_index_scenario(scenario, ti, xi).store)
        });
        let store = own.as_ref().unwrap_or(&scenario.store);
        t.monthly_cost = scenario
            .pricing
            .as_ref()
            .and_then(|p| p.monthly_cost(store, t.mean_read_units_per_s, t.mean_write_units_per_s));
    }
}

/// Assembles the run results and picks the recommendation.
pub fn finish(scenario: &Scenario, mut base: Design, variants: Vec<VariantResults>) -> RunResults {
    set_monthly_costs(scenario, &mut base.tables);
    let recommendation = (!variants.is_empty()).then(|| recommend(scenario, &base, &variants));
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
        currency: scenario.pricing.as_ref().map(|p| p.currency.clone()),
        store: base.store,
        tables: base.tables,
        verdicts: base.verdicts,
        variants,
        recommendation,
        checklist: crate::checks::review(scenario),
        source_text: scenario.source_text.clone(),
    }
}

/// How big a change a variant is: total shards added, then narrower buckets
/// (a wider bucket, or none, is the smaller change), then file order.
fn change_size(v: &VariantResults) -> (f64, f64) {
    let mut shards = 0.0;
    let mut narrowness = 0.0;
    for (path, value) in &v.set {
        if path.ends_with(".shards") {
            shards += value.as_f64().unwrap_or(1.0);
        } else if path.ends_with(".bucket") {
            let secs = value
                .as_str()
                .and_then(|s| crate::scenario::units::parse_duration(s).ok())
                .unwrap_or(f64::INFINITY);
            narrowness += 1.0 / secs;
        }
    }
    (shards, narrowness)
}

fn passes(verdicts: &[Verdict]) -> bool {
    verdicts.iter().all(|v| v.status == Status::Pass)
}

fn recommend(_scenario: &Scenario, base: &Design, variants: &[VariantResults]) -> Recommendation {
    if passes(&base.verdicts) {
        return Recommendation {
            variant: "base".into(),
            set: Default::default(),
            reason: "the base design already passes every check; no change needed".into(),
        };
    }
    let mut passing: Vec<(usize, &VariantResults)> = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| passes(&v.verdicts))
        .collect();
    passing.sort_by(|(ia, a), (ib, b)| {
        let (sa, na) = change_size(a);
        let (sb, nb) = change_size(b);
        sa.total_cmp(&sb).then(na.total_cmp(&nb)).then(ia.cmp(ib))
    });
    let failing_base: Vec<String> = base
        .verdicts
        .iter()
        .filter(|v| v.status != Status::Pass)
        .map(|v| format!("{} on {} ({})", v.check, v.table, v.status.as_str()))
        .collect();
    match passing.first() {
        Some((_, v)) => {
            let worst = v
                .tables
                .iter()
                .map(|t| t.peak_utilization.p95)
                .fold(0.0, f64::max);
            Recommendation {
                variant: v.name.clone(),
                set: v.set.clone(),
                reason: format!(
                    "smallest change that passes every check (p95 peak utilization {} ≤ headroom, no size-ceiling breach within the horizon); the base design fails {}",
                    sig3(worst),
                    failing_base.join(", ")
                ),
            }
        }
        None => Recommendation {
            variant: "none".into(),
            set: Default::default(),
            reason: format!(
                "no alternative passes every check; the base design fails {}",
                failing_base.join(", ")
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_bytes_uses_decimal_units() {
        assert_eq!(human_bytes(1_500_000.0), "1.50 MB");
        assert_eq!(human_bytes(100e6), "100 MB");
        assert_eq!(human_bytes(512.0), "512 B");
    }
}
