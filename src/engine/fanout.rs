//! Copies (fan-out on write) and read caches / coalescing (issue 13).
//!
//! The engine simulates both through the access patterns' streams: a
//! pattern's copies are the derived write pattern `"<name> (copies)"` on the
//! copy table (rate × mean count, [`crate::scenario::fanout::expand_copies`]),
//! and a cached read's stream keeps only the reads that get past the cache
//! and coalescing ([`apply_cache`]). This module adds the figures in closed
//! form: write amplification and propagation time per copying pattern, hit
//! ratio, the load still reaching the partitions and the smallest cache that
//! passes per cached pattern ([`figures`]).

use super::plan::{Plan, TablePlan};
use super::stream::Stream;
use crate::distributions::cache;
use crate::distributions::popularity::{RankShares, ReadFilter};
use crate::results::{CacheFigures, CopyFigures, Fanout, PropagationTime};
use crate::scenario::{AccessPattern, CachePolicy, CacheSize, ReadCache, Scenario};
use crate::store::StoreModel;

/// The copies and caches of `scenario`, in closed form from the plan's
/// streams: the copies on day 0, each cache on the day `judged` gives its
/// table (the busy period its verdicts judge: that day's traffic and
/// partitions; 0 for a table it does not name). Empty when the scenario
/// has neither.
pub fn figures(scenario: &Scenario, store: &dyn StoreModel, judged: &[(String, f64)]) -> Fanout {
    let any = scenario
        .access_patterns
        .iter()
        .any(|p| p.copies.is_some() || p.cache.is_some());
    if !any {
        return Fanout::default();
    }
    let plan = super::plan::build(scenario, store);
    let copies = scenario
        .access_patterns
        .iter()
        .enumerate()
        .filter_map(|(pi, p)| copy_figures(scenario, &plan, pi, p))
        .collect();
    // One plan per judged day (most scenarios: one).
    let mut plans: Vec<(f64, Scenario, Plan)> = Vec::new();
    let mut caches = Vec::new();
    for (pi, p) in scenario.access_patterns.iter().enumerate() {
        if p.cache.is_none() || p.operation.is_write() {
            continue;
        }
        let table = &scenario.tables[p.table].name;
        let day = judged
            .iter()
            .find(|(t, _)| t == table)
            .map_or(0.0, |&(_, d)| d);
        if !plans.iter().any(|(d, _, _)| *d == day) {
            let (at, _) = super::at_day(scenario, day);
            let plan = super::plan::build_at(&at, store, day * super::stream::DAY_S);
            plans.push((day, at, plan));
        }
        let Some((_, at, plan)) = plans.iter().find(|(d, _, _)| *d == day) else {
            continue;
        };
        if let Some(mut c) = cache_figures(at, plan, &at.access_patterns[pi]) {
            c.day = day;
            caches.push(c);
        }
    }
    Fanout { copies, caches }
}

/// The stream named `name` in `plan` (reads: any table; a write's own
/// stream: its table's, not an index's).
fn find<'p>(plan: &'p Plan, name: &str) -> Option<(&'p TablePlan, &'p Stream)> {
    plan.tables
        .iter()
        .find_map(|t| t.streams.iter().find(|s| s.name == name).map(|s| (t, s)))
}

/// Units of one request of `s`: fan-out × mean units per sub-request.
fn units_per_request(s: &Stream) -> f64 {
    s.fan_out() * s.severity.mean
}

/// Propagation time of pattern `pi`'s copies (count ÷ drain rate at the
/// count's p50, p95 and busy-period maximum), from the scenario alone.
pub fn propagation(scenario: &Scenario, p: &AccessPattern) -> Option<PropagationTime> {
    let c = p.copies.as_ref()?;
    let drain = c.drain_rate_per_s?;
    let n = p.rate_per_s * p.peak_factor * scenario.simulation.duration_s;
    Some(PropagationTime {
        p50: c.count.quantile(0.5) / drain,
        p95: c.count.quantile(0.95) / drain,
        max: c.count.busy_max(n) / drain,
    })
}

fn copy_figures(
    scenario: &Scenario,
    plan: &Plan,
    pi: usize,
    p: &AccessPattern,
) -> Option<CopyFigures> {
    let c = p.copies.as_ref()?;
    let derived = scenario
        .access_patterns
        .iter()
        .find(|q| q.copy_of == Some(pi));
    let copy_stream = derived.and_then(|q| find(plan, &q.name)).map(|x| x.1);
    let own = find(plan, &p.name).map_or(0.0, |(_, s)| units_per_request(s));
    let units_per_copy = copy_stream.map_or(0.0, units_per_request);
    let mean = c.count.mean();
    let busy_ops_per_s = p.rate_per_s * p.peak_factor;
    let copies_per_s = busy_ops_per_s * mean;
    Some(CopyFigures {
        pattern: p.name.clone(),
        table: scenario.tables[c.table].name.clone(),
        propagation: c.propagation.as_str().to_string(),
        count_mean: mean,
        count_p50: c.count.quantile(0.5),
        count_p95: c.count.quantile(0.95),
        count_max: c
            .count
            .busy_max(busy_ops_per_s * scenario.simulation.duration_s),
        busy_operations: busy_ops_per_s * scenario.simulation.duration_s,
        copies_per_s,
        write_units_per_s: copies_per_s * units_per_copy,
        units_per_copy,
        own_units_per_operation: own,
        units_per_operation_with_copies: own + mean * units_per_copy,
        drain_rate_per_s: c.drain_rate_per_s,
        drain_utilization: c.drain_rate_per_s.map(|d| copies_per_s / d),
        propagation_s: propagation(scenario, p),
    })
}

fn cache_figures(scenario: &Scenario, plan: &Plan, p: &AccessPattern) -> Option<CacheFigures> {
    let rc = p.cache.as_ref()?;
    let (tp, s) = find(plan, &p.name)?;
    let reads_per_s = p.rate_per_s * p.peak_factor;
    let (hit, invalidated, busiest) = match s.shares.filter_parts() {
        Some((base, f)) => (
            cache::hit_ratio(base, f),
            f.invalidated,
            busiest_key_units(s, base, f, reads_per_s),
        ),
        None => (0.0, 0.0, 0.0),
    };
    let per_window = reads_per_s * scenario.simulation.window_s;
    let half = if per_window > 0.0 {
        1.96 * (hit * (1.0 - hit) / per_window).sqrt()
    } else {
        0.0
    };
    let (policy, keys) = match rc.cache {
        Some(CacheSize::Keys { keys, policy }) => (policy.as_str(), Some(keys)),
        Some(CacheSize::HitRatio(_)) => ("hit_ratio", None),
        None => ("none", None),
    };
    Some(CacheFigures {
        pattern: p.name.clone(),
        table: tp.name.clone(),
        day: 0.0,
        policy: policy.to_string(),
        keys,
        coalesce_s: rc.coalesce_s,
        hit_ratio: hit,
        hit_ratio_ci95: [(hit - half).max(0.0), (hit + half).min(1.0)],
        invalidated_share: invalidated,
        reads_per_s,
        store_reads_per_s: s.busy_rate_per_s,
        store_read_units_per_s: s.busy_rate_per_s * units_per_request(s),
        busiest_key_units_per_s: busiest,
        smallest_passing_keys: smallest_passing_keys(scenario, p, tp, s, reads_per_s),
    })
}

/// Read units per second of the logical keys that stay hottest after `f`
/// (base shares `base`, `rate` reads per second before the cache), the
/// hottest first: the largest p·pass(p) among the head ranks, the ranks
/// just past a frequency-ordered cache and a geometric scan of the rest
/// (where an LRU's misses peak, near p = 1 ÷ T); at most [`HOT_KEYS`].
fn hot_key_units(s: &Stream, base: &RankShares, f: &ReadFilter, rate: f64) -> Vec<f64> {
    let n = base.count();
    let mut ranks: Vec<u64> = (1..=n.min(HOT_KEYS)).collect();
    ranks
        .extend((f.cached_ranks + 1..=f.cached_ranks.saturating_add(HOT_KEYS)).filter(|&r| r <= n));
    let mut r = HOT_KEYS as f64;
    while r < n as f64 {
        ranks.push(r as u64);
        r *= 1.01;
    }
    ranks.sort_unstable();
    ranks.dedup();
    let combo = if s.combos.uniform {
        1.0 / s.combos.count.max(1.0)
    } else {
        s.combos.max_share()
    };
    let weight = s.subkeys.iter().map(|k| k.weight).fold(0.0, f64::max);
    let mut units: Vec<f64> = ranks
        .into_iter()
        .map(|r| {
            let p = base.share(r);
            rate * p * f.pass(r, p) * combo * weight * s.severity.mean
        })
        .collect();
    units.sort_unstable_by(|a, b| b.total_cmp(a));
    units.truncate(HOT_KEYS as usize);
    units
}

/// Keys placed one by one by [`hot_key_units`] and [`busiest_partition`].
const HOT_KEYS: u64 = 256;
/// Random placements [`busiest_partition`] draws.
const PLACEMENTS: usize = 1000;

fn busiest_key_units(s: &Stream, base: &RankShares, f: &ReadFilter, rate: f64) -> f64 {
    hot_key_units(s, base, f, rate)
        .first()
        .copied()
        .unwrap_or(0.0)
}

/// The p95 over [`PLACEMENTS`] random placements of the busiest
/// partition's peak-window units per second: the [`HOT_KEYS`] hottest keys
/// (`hot`) on uniformly random partitions, the rest (`rest.0` units/s, this
/// stream's other keys and every other stream) spread as the engine spreads
/// it (mean rest/P, per partition a normal of variance
/// `rest.1`·(1/P)(1 − 1/P), `rest.1` the Σ u² of the stream's other keys),
/// and the peak
/// of `windows` Poisson windows by the normal approximation (mean +
/// z·√(units·E[u²]/E[u] ÷ window), z the standard normal's quantile at
/// 1 − 1/windows). Seeded from the scenario's seed.
fn busiest_partition(
    hot: &[f64],
    (rest, rest_sq): (f64, f64),
    parts: usize,
    sim: &crate::scenario::Simulation,
    u2_per_u: f64,
) -> f64 {
    use rand::{Rng, SeedableRng};
    use rand_distr::Distribution;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(sim.seed ^ 0xCAC4_E000_0000_0013);
    let parts = parts.max(1);
    let windows = (sim.duration_s / sim.window_s).max(1.0);
    let z = crate::distributions::normal::normal_quantile(1.0 - 1.0 / (windows + 1.0)).max(0.0);
    let pf = parts as f64;
    let sd = (rest_sq * (1.0 / pf) * (1.0 - 1.0 / pf)).max(0.0).sqrt();
    let mut peaks: Vec<f64> = (0..PLACEMENTS)
        .map(|_| {
            let mut load: Vec<f64> = (0..parts)
                .map(|_| {
                    let z: f64 = rand_distr::StandardNormal.sample(&mut rng);
                    (rest / pf + sd * z).max(0.0)
                })
                .collect();
            for &k in hot {
                load[rng.random_range(0..parts)] += k;
            }
            let top = load.iter().copied().fold(0.0, f64::max);
            top + z * (top * u2_per_u / sim.window_s).sqrt()
        })
        .collect();
    peaks.sort_unstable_by(f64::total_cmp);
    peaks[(PLACEMENTS * 95 / 100).min(PLACEMENTS - 1)]
}

/// The smallest cache (keys) whose busiest partition stays within headroom
/// × the per-partition read (or combined) limit, by [`busiest_partition`]:
/// the p95 over random placements of the busiest partition's peak window,
/// with every other stream's units spread evenly. Bisection over the keys
/// (the load falls as the cache grows), by the pattern's policy (LFU for a
/// given hit ratio or coalescing alone), keeping its coalescing.
fn smallest_passing_keys(
    scenario: &Scenario,
    p: &AccessPattern,
    tp: &TablePlan,
    s: &Stream,
    reads_per_s: f64,
) -> Option<u64> {
    let rc = p.cache.as_ref()?;
    let (base, f0) = s.shares.filter_parts()?;
    let combined = tp.layout.read_limit_per_s.is_none();
    let limit = tp
        .layout
        .read_limit_per_s
        .or(tp.layout.combined_limit_per_s)?;
    let others: f64 = tp
        .streams
        .iter()
        .filter(|o| o.name != s.name && (combined || !o.is_write))
        .map(|o| o.busy_rate_per_s * units_per_request(o))
        .sum();
    let policy = match rc.cache {
        Some(CacheSize::Keys { policy, .. }) => policy,
        _ => CachePolicy::Lfu,
    };
    let total_keys = (base.count() as f64 * s.combos.count).min(1e15) as u64;
    let (w_busy, _) = super::cached::write_rates(scenario, p);
    let u2_per_u = if s.severity.mean > 0.0 {
        s.severity.raw_moments()[1] / s.severity.mean
    } else {
        1.0
    };
    let w_sq: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
    let combo_sq = if s.combos.uniform {
        1.0 / s.combos.count.max(1.0)
    } else {
        s.combos.sum_sq
    };
    let load = |keys: u64| -> f64 {
        let cache = ReadCache {
            cache: (keys > 0).then_some(CacheSize::Keys { keys, policy }),
            coalesce_s: rc.coalesce_s,
        };
        let mut f = cache::filter(base, &cache, reads_per_s, w_busy, s.combos.count);
        f.divisor = f0.divisor;
        let mass = f.sum_passed(base, 1, base.count(), &|p, pass| p * pass);
        let hot = hot_key_units(s, base, &f, reads_per_s);
        let rest = (reads_per_s * mass * units_per_request(s) - hot.iter().sum::<f64>()).max(0.0);
        // Σ u² over every other key of the stream (each logical key's
        // combinations and sub-keys apart), as the engine spreads them.
        let all_sq = f.sum_passed(base, 1, base.count(), &|p, pass| (p * pass).powi(2))
            * (reads_per_s * s.severity.mean).powi(2)
            * w_sq
            * combo_sq;
        let rest_sq = (all_sq - hot.iter().map(|u| u * u).sum::<f64>()).max(0.0);
        busiest_partition(
            &hot,
            (rest + others, rest_sq),
            tp.layout.partitions,
            &scenario.simulation,
            u2_per_u,
        )
    };
    let target = scenario.checks.headroom * limit;
    if load(0) <= target {
        return Some(0);
    }
    if load(total_keys) > target {
        return None;
    }
    let (mut lo, mut hi) = (0u64, total_keys);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if load(mid) <= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}
