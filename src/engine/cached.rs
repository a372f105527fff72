//! A cached read's stream (issue 13): the reads that get past a pattern's
//! `cache` and `coalesce` ([`crate::distributions::cache`]), applied by the
//! plan to each read stream.

use super::stream::Stream;
use crate::distributions::cache;
use crate::distributions::popularity::{RankShares, ReadFilter};
use crate::scenario::{AccessPattern, ReadCache, Scenario};

/// The slowest rate a cached stream keeps (a cache that serves every read
/// still leaves the stream a rate the engine can divide by).
const MIN_STORE_RATE_PER_S: f64 = 1e-9;

/// Puts pattern `p`'s cache and coalescing in front of its read stream `s`:
/// its shares become those of the reads that reach the store and its rates
/// shrink by their mass (the busy rate at the busy rate's coalescing, the
/// mean rate at the mean rate's). Writes and fresh keys pass unchanged.
pub(super) fn apply_cache(scenario: &Scenario, p: &AccessPattern, s: &mut Stream) {
    let Some(rc) = &p.cache else {
        return;
    };
    if s.is_write || s.fresh_keys {
        return;
    }
    let (w_busy, w_mean) = write_rates(scenario, p);
    let busy = cache::filter(&s.shares, rc, s.busy_rate_per_s, w_busy, s.combos.count);
    let mean = mean_filter(&busy, rc, s.mean_rate_per_s, w_mean);
    let (_, mean_mass) = RankShares::filtered(s.shares.clone(), mean);
    let base = std::mem::replace(
        &mut s.shares,
        RankShares::new(&crate::scenario::Popularity::Uniform, 1),
    );
    let (shares, mass) = RankShares::filtered(base, busy);
    s.shares = shares;
    s.busy_rate_per_s = (s.busy_rate_per_s * mass).max(MIN_STORE_RATE_PER_S);
    s.mean_rate_per_s = (s.mean_rate_per_s * mean_mass).max(MIN_STORE_RATE_PER_S);
}

/// The busy filter at the mean rates: the same cache, its invalidation and
/// coalescing recomputed for the mean read and write rates.
fn mean_filter(busy: &ReadFilter, rc: &ReadCache, read: f64, write: f64) -> ReadFilter {
    let mut f = busy.clone();
    f.coalesce_rate_window = rc.coalesce_s.map(|w| read * w);
    if busy.invalidated > 0.0 && read + write > 0.0 {
        f.invalidated = write / (read + write);
    }
    f
}

/// Busy and mean write rates on the keys pattern `p` reads: every write
/// pattern of its table (those of an index's base table, in an index's own
/// scenario its index writes).
pub(super) fn write_rates(scenario: &Scenario, p: &AccessPattern) -> (f64, f64) {
    scenario
        .access_patterns
        .iter()
        .filter(|q| q.table == p.table && q.index.is_none() && q.operation.is_write())
        .fold((0.0, 0.0), |(b, m), q| {
            (b + q.rate_per_s * q.peak_factor, m + q.rate_per_s)
        })
}
