//! Bytes held per node over the horizon (Redis Cluster: memory per master),
//! summed over every table of the scenario.
//!
//! Per table and growth class ([`super::growth::GrowthClass`]), one key holds
//! [`super::growth::GrowthPlan::mean_key_bytes`] at day t (its items, the
//! store's per-item overhead and the store's per-key overhead, growing as
//! the class is written at its ranks' mean rate; a TTL stops the growth), so
//! that the nodes together hold the table. Where those keys live:
//! - the hottest ranks (up to [`super::world::HEAD_RANKS`]) are formatted
//!   and placed key by key with the store's own function, on the instances
//!   the trial's traffic uses, so a hot key's bytes sit on its node;
//! - every other key (the tail, time-bucketed keys, fresh keys, keys with
//!   more than 16 combinations of the other entities) is spread by the
//!   node's share of the partitions (Redis: of the 16,384 slots).
//!
//! A partition's bytes count on every node holding it (replicas keep copies).
//! The busiest node is judged on the growth grid; the day it fills is the
//! first crossing of the limit: the root of its bytes between grid days.

use super::growth::GRID_POINTS;
use super::plan::{Plan, TablePlan};
use super::world::{instance_ids, World, HEAD_RANKS};
use crate::store::StoreModel;

/// Most combinations of the other entities placed key by key (as the traffic's head).
const MAX_COMBOS: f64 = 16.0;

/// Per growth class: (keys per node placed key by key, empty where none
/// is; keys spread by share).
type ClassPlacement = Vec<(Vec<f64>, f64)>;

/// A table's bytes per key on the growth grid (day-major, as
/// [`grid_key_bytes`]) and its keys' bytes spread by share on each grid day
/// ([`grid_spread_bytes`]).
type DayBytes<'a> = (&'a [f64], std::borrow::Cow<'a, [f64]>);

/// One trial's cluster memory.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryTrial {
    /// The busiest node's bytes on each growth-grid day.
    pub peak_by_day: Vec<f64>,
    /// Every node's bytes at the end of the horizon, largest first.
    pub ranked_at_horizon: Vec<f64>,
    /// All nodes' bytes at the end of the horizon.
    pub total_at_horizon: f64,
    /// First day a node holds `memory_limit_bytes` (`None`: never within the horizon or no limit).
    pub fill_day: Option<f64>,
}

/// Day `i` of the growth grid over `horizon` days.
pub fn grid_day(horizon: f64, i: usize) -> f64 {
    horizon * i as f64 / (GRID_POINTS - 1) as f64
}

/// Each node's share of `table`'s keys spread over its partitions,
/// counting every replica: each partition's share of distinct keys (a
/// token range's width on a ring of random tokens, where the load draws
/// its keys by width too: helper-89's fullest ScyllaDB node held 16.97%
/// of the bytes beside 17.83% of the load, and filled its disk 1.8 days
/// late), else 1 ÷ partitions.
fn node_shares(table: &TablePlan, store: &dyn StoreModel, n_nodes: usize) -> Vec<f64> {
    let mut share = vec![0.0; n_nodes];
    let Some(nl) = table.layout.nodes.as_ref() else {
        return share;
    };
    let p = nl.replicas.len().max(1) as f64;
    let widths = match store.spread_of_distinct_keys(nl.replicas.len()) {
        Some(crate::store::KeySpread::Shares(w)) if w.len() == nl.replicas.len() => Some(w),
        _ => None,
    };
    for (i, replicas) in nl.replicas.iter().enumerate() {
        let width = widths.as_ref().map_or(1.0 / p, |w| w[i]);
        for &n in replicas.iter().filter(|&&n| n < n_nodes) {
            share[n] += width;
        }
    }
    share
}

/// [`node_shares`], kept in the table plan: the same in every trial (a
/// Redis table's 16,384 slots walked for each).
fn kept_node_shares(table: &TablePlan, store: &dyn StoreModel, n_nodes: usize) -> Vec<f64> {
    let (kept, share) = table
        .node_shares
        .get_or_init(|| (n_nodes, node_shares(table, store, n_nodes)));
    if *kept == n_nodes {
        share.clone()
    } else {
        node_shares(table, store, n_nodes)
    }
}

/// Bytes on each node of one table on a day, given each class's mean bytes
/// per key that day (`per_key`, in class order), its head keys per node
/// (empty: none placed key by key) and `spread` (the day's bytes of the
/// keys spread by share, [`spread_bytes`]).
fn add_table_day(
    per_key: impl Iterator<Item = f64>,
    placed: &[(Vec<f64>, f64)],
    (spread, share): (f64, &[f64]),
    out: &mut [f64],
) {
    for (per_key, (head, _)) in per_key.zip(placed) {
        if per_key <= 0.0 || head.is_empty() {
            continue;
        }
        for (x, h) in out.iter_mut().zip(head) {
            *x += per_key * h;
        }
    }
    for (x, s) in out.iter_mut().zip(share) {
        *x += spread * s;
    }
}

/// [`add_table_day`] where the store balances its nodes' stored bytes
/// ([`StoreModel::balances_stored_bytes`]): a head key's bytes stay on its
/// node only while they exceed `chunk` (a chunk too large to move: a
/// jumbo chunk); every other byte is `movable`, to be levelled
/// ([`level`]).
fn add_table_day_balanced(
    per_key: impl Iterator<Item = f64>,
    placed: &[(Vec<f64>, f64)],
    (spread, chunk): (f64, f64),
    (pinned, movable): (&mut [f64], &mut f64),
) {
    *movable += spread;
    for (per_key, (head, _)) in per_key.zip(placed) {
        if per_key <= 0.0 || head.is_empty() {
            continue;
        }
        for (x, h) in pinned.iter_mut().zip(head) {
            if per_key > chunk {
                *x += per_key * h;
            } else {
                *movable += per_key * h;
            }
        }
    }
}

/// The day's bytes of a table's keys spread by share: Σ over its classes
/// of bytes per key × keys spread (`per_key` in class order).
fn spread_bytes(per_key: impl Iterator<Item = f64>, placed: &[(Vec<f64>, f64)]) -> f64 {
    per_key
        .zip(placed)
        .filter(|(per_key, _)| *per_key > 0.0)
        .map(|(per_key, (_, spread))| per_key * spread)
        .sum()
}

/// [`spread_bytes`] on every growth-grid day from the table's kept bytes
/// per key (`grid`, day-major), kept in the table plan with the keys
/// spread it was summed for: those are the same in every trial (which
/// ranks are placed key by key does not depend on the draws), so a trial
/// sums only its head keys per node (a Redis design summed 2,400 classes
/// × 6 masters × 121 days in every trial).
fn grid_spread_bytes<'a>(
    table: &'a TablePlan,
    grid: &[f64],
    placed: &[(Vec<f64>, f64)],
) -> std::borrow::Cow<'a, [f64]> {
    let spreads: Vec<f64> = placed.iter().map(|(_, s)| *s).collect();
    let sum = || -> Vec<f64> {
        let nc = placed.len();
        (0..GRID_POINTS)
            .map(|i| spread_bytes(grid[i * nc..(i + 1) * nc].iter().copied(), placed))
            .collect()
    };
    let (kept, by_day) = table.memory_spread.get_or_init(|| (spreads.clone(), sum()));
    if *kept == spreads {
        std::borrow::Cow::Borrowed(by_day.as_slice())
    } else {
        std::borrow::Cow::Owned(sum())
    }
}

/// `movable` bytes added to the nodes' `pinned` bytes as a balancer that
/// evens data size places them: the least-full nodes first, up to a common
/// level L with Σ max(pinnedᵢ, L) = Σ pinnedᵢ + movable (water-filling); a
/// node pinned above L keeps its own.
fn level(pinned: &[f64], movable: f64) -> Vec<f64> {
    let mut sorted = pinned.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let (mut left, mut level) = (movable.max(0.0), sorted.first().copied().unwrap_or(0.0));
    for (i, &next) in sorted.iter().enumerate().skip(1) {
        let need = (next - level) * i as f64;
        if need >= left {
            break;
        }
        left -= need;
        level = next;
    }
    // The nodes at or under the level share what is left.
    let under = sorted.iter().filter(|&&x| x <= level).count().max(1) as f64;
    level += left / under;
    pinned.iter().map(|&x| x.max(level)).collect()
}

/// Each class's mean bytes per key on each growth-grid day of `horizon`
/// days (day-major), the same in every trial: computed once per table plan
/// and kept (a Redis design sized its classes on 121 days of every trial:
/// a quarter of its run). None when the plan keeps another horizon's or
/// key overhead's.
fn grid_key_bytes(table: &TablePlan, horizon: f64, key_overhead: f64) -> Option<&[f64]> {
    let key = (horizon.to_bits(), key_overhead.to_bits());
    let (kept, grid) = table.memory_grid.get_or_init(|| {
        let g = &table.growth;
        let grid = (0..GRID_POINTS)
            .flat_map(|i| {
                let day = g.on_day(grid_day(horizon, i));
                g.classes
                    .iter()
                    .map(move |c| day.mean_key_bytes(c, key_overhead))
            })
            .collect();
        (key, grid)
    });
    (*kept == key).then_some(grid.as_slice())
}

/// Where each growth class's keys live: (keys per node placed key by key,
/// keys spread by partition share). Fresh classes spread one "key" that
/// [`super::growth::GrowthPlan::key_bytes`] sizes as the whole class.
fn place_classes(
    table: &TablePlan,
    store: &dyn StoreModel,
    n_nodes: usize,
    world: &mut World,
) -> ClassPlacement {
    let p_count = table.layout.partitions.max(1);
    let g = &table.growth;
    let shards = g.shards.max(1);
    table
        .growth
        .classes
        .iter()
        .map(|c| {
            if c.fresh || c.ranks.0 == 0 {
                let keys = if c.fresh { 1.0 } else { c.keys };
                return (Vec::new(), keys);
            }
            let (a, b) = c.ranks;
            let ranks = (b - a + 1) as f64;
            let combos = (c.per_rank / f64::from(shards)).max(1.0);
            let placeable = g.bucket_days.is_none()
                && g.bucket_items.is_none()
                && c.alike_combos
                && combos <= MAX_COMBOS
                && !table.keys.fresh
                && a <= HEAD_RANKS;
            if !placeable {
                return (Vec::new(), ranks * c.per_rank);
            }
            let mut head = vec![0.0; n_nodes];
            let n = c.rank_count;
            let (name, count) = match c.driver {
                Some(d) => (table.keys.entities[d].0.as_str(), table.keys.entities[d].1),
                None => ("", n),
            };
            let ids = world.head(name, count, n.min(HEAD_RANKS));
            let last = b.min(HEAD_RANKS).min(ids.len() as u64);
            let nl = table.layout.nodes.as_ref();
            let mut placed_keys = 0.0;
            for r in a..=last {
                let id = ids[(r - 1) as usize];
                for combo in 0..combos as u64 {
                    let inst = instance_ids(&table.keys, c.driver, id, combo, world.name_salt);
                    for shard in 0..shards {
                        let key = table.keys.format(&inst, (shards > 1).then_some(shard), 0);
                        let part = store
                            .place_in_trial(&key, p_count, world.place_salt)
                            .min(p_count - 1);
                        if let Some(replicas) = nl.and_then(|nl| nl.replicas.get(part)) {
                            for &node in replicas.iter().filter(|&&x| x < n_nodes) {
                                head[node] += 1.0;
                            }
                        }
                        placed_keys += 1.0;
                    }
                }
            }
            if head.iter().all(|&k| k == 0.0) {
                head = Vec::new();
            }
            (head, (ranks * c.per_rank - placed_keys).max(0.0))
        })
        .collect()
}

/// The cluster's bytes per node over the horizon in one trial, every table
/// summed; `None` when no table has nodes.
pub(super) fn cluster_memory(
    plan: &Plan,
    store: &dyn StoreModel,
    key_overhead: f64,
    world: &mut World,
) -> Option<MemoryTrial> {
    let nl = plan.tables.iter().find_map(|t| t.layout.nodes.as_ref())?;
    let n_nodes = nl.nodes;
    let limit = nl.memory_limit_bytes;
    let tables: Vec<(&TablePlan, ClassPlacement, Vec<f64>)> = plan
        .tables
        .iter()
        .filter(|t| t.layout.nodes.is_some())
        .map(|t| {
            (
                t,
                place_classes(t, store, n_nodes, world),
                kept_node_shares(t, store, n_nodes),
            )
        })
        .collect();
    let balanced = store.balances_stored_bytes();
    // A balancing store's nodes: pinned bytes and the rest levelled.
    let chunk = |t: &TablePlan| {
        t.layout
            .item_collection_limit_bytes
            .unwrap_or(f64::INFINITY)
    };
    let at = |day: f64| -> Vec<f64> {
        let mut out = vec![0.0; n_nodes];
        let mut movable = 0.0;
        for (t, placed, share) in &tables {
            let on_day = t.growth.on_day(day);
            let per_key: Vec<f64> = t
                .growth
                .classes
                .iter()
                .map(|c| on_day.mean_key_bytes(c, key_overhead))
                .collect();
            let spread = spread_bytes(per_key.iter().copied(), placed);
            let per_key = per_key.into_iter();
            if balanced {
                let pinned = (&mut out[..], &mut movable);
                add_table_day_balanced(per_key, placed, (spread, chunk(t)), pinned);
            } else {
                add_table_day(per_key, placed, (spread, share), &mut out);
            }
        }
        if balanced {
            level(&out, movable)
        } else {
            out
        }
    };
    let peak = |day: f64| at(day).into_iter().fold(0.0, f64::max);
    let days: Vec<f64> = (0..GRID_POINTS)
        .map(|i| grid_day(plan.horizon_days, i))
        .collect();
    // The grid days from each table's kept bytes per key (the same sums as
    // `at`'s, in the same order).
    let grids: Option<Vec<DayBytes>> = tables
        .iter()
        .map(|(t, placed, _)| {
            let grid = grid_key_bytes(t, plan.horizon_days, key_overhead)?;
            Some((grid, grid_spread_bytes(t, grid, placed)))
        })
        .collect();
    let peak_by_day: Vec<f64> = match &grids {
        Some(grids) => (0..GRID_POINTS)
            .map(|i| {
                let mut out = vec![0.0; n_nodes];
                let mut movable = 0.0;
                for ((t, placed, share), (grid, spread)) in tables.iter().zip(grids) {
                    let nc = t.growth.classes.len();
                    let per_key = grid[i * nc..(i + 1) * nc].iter().copied();
                    if balanced {
                        let pinned = (&mut out[..], &mut movable);
                        add_table_day_balanced(per_key, placed, (spread[i], chunk(t)), pinned);
                    } else {
                        add_table_day(per_key, placed, (spread[i], share), &mut out);
                    }
                }
                if balanced {
                    out = level(&out, movable);
                }
                out.into_iter().fold(0.0, f64::max)
            })
            .collect(),
        None => days.iter().map(|&d| peak(d)).collect(),
    };
    let fill_day = limit.and_then(|l| {
        let i = peak_by_day.iter().position(|&b| b >= l)?;
        if i == 0 {
            return Some(0.0);
        }
        // The root of the fullest node's bytes between the grid days.
        let (mut lo, mut hi) = (days[i - 1], days[i]);
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            if peak(mid) >= l {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    });
    let mut ranked_at_horizon = at(plan.horizon_days);
    let total_at_horizon = ranked_at_horizon.iter().sum();
    ranked_at_horizon.sort_unstable_by(|a, b| b.total_cmp(a));
    Some(MemoryTrial {
        peak_by_day,
        ranked_at_horizon,
        total_at_horizon,
        fill_day,
    })
}

#[cfg(test)]
mod tests {
    use super::level;

    /// Water-filling: 5 bytes over pinned [5, 0, 1, 0] raise the three
    /// lowest to 2 and 5 stays; more than fills every node spreads the rest
    /// evenly; nothing to move leaves the nodes as they are.
    #[test]
    fn level_fills_the_least_full_nodes_first() {
        assert_eq!(level(&[5.0, 0.0, 1.0, 0.0], 5.0), vec![5.0, 2.0, 2.0, 2.0]);
        assert_eq!(level(&[5.0, 0.0, 1.0, 0.0], 18.0), vec![6.0; 4]);
        assert_eq!(level(&[3.0, 1.0], 0.0), vec![3.0, 1.0]);
        assert_eq!(level(&[0.0; 3], 3.0), vec![1.0; 3]);
    }
}
