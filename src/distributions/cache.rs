//! Read caches and request coalescing over a key popularity (`cache`,
//! `coalesce`): the hit ratio of a cache of N keys — exact for a
//! frequency-ordered (LFU) cache, the popularity mass of the N hottest keys;
//! Che's approximation for LRU — and the [`ReadFilter`] the engine applies to
//! a read pattern's shares.
//!
//! Che's approximation (Che, Tung and Wang 2002; Fricker, Robert and
//! Roberts 2012): under independent requests a key of share p is in an LRU
//! cache of N keys with probability 1 − e^{−p·T}, where the characteristic
//! time T solves Σᵢ (1 − e^{−pᵢ·T}) = N; the hit ratio is Σᵢ pᵢ·(1 − e^{−pᵢ·T}).

use super::popularity::{RankShares, ReadFilter};
use crate::scenario::{CachePolicy, CacheSize, ReadCache};

/// Che's characteristic time T (in units of 1 ÷ share): the root of
/// Σᵣ (1 − e^{−pᵣ·T}) = `keys`; `None` when the cache holds every key.
///
/// ```
/// use keyheat::distributions::cache::che_time;
/// use keyheat::distributions::popularity::RankShares;
/// use keyheat::scenario::Popularity;
/// // Uniform over 1,000 keys, 100 cached: 1000·(1 − e^{−T/1000}) = 100,
/// // T = −1000·ln(0.9) = 105.36.
/// let u = RankShares::new(&Popularity::Uniform, 1000);
/// let t = che_time(&u, 100.0).unwrap();
/// assert!((t - (-1000.0 * 0.9f64.ln())).abs() < 1e-6);
/// ```
pub fn che_time(shares: &RankShares, keys: f64) -> Option<f64> {
    let n = shares.count();
    if shares.is_fresh() || keys >= n as f64 {
        return None;
    }
    // Hundreds of evaluations over one range: its shares worked out once.
    let range = shares.range_sum(1, n);
    let held = |t: f64| range.sum(&|p| -(-p * t).exp_m1());
    let mut hi = 1.0;
    for _ in 0..400 {
        if held(hi) >= keys {
            break;
        }
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if held(mid) >= keys {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi - lo <= hi * 1e-13 {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The filter of `cache` over `shares` (a read pattern's driver ranks, each
/// split over `divisor` combinations of the key's other entities), for a
/// pattern reading at `read_rate_per_s` while writes reach the same keys at
/// `write_rate_per_s`.
///
/// ASSUMPTIONS: the N keys a cache holds count combinations, so it holds
/// N ÷ divisor driver ranks; writes land on keys with the reads' popularity
/// and each invalidates its key, so a held key's reads miss in the share
/// W ÷ (R + W) (the read after a write misses); a given `hit_ratio` is the
/// same for every key; coalescing sees the reads the cache misses, at the
/// busy rate.
pub fn filter(
    shares: &RankShares,
    cache: &ReadCache,
    read_rate_per_s: f64,
    write_rate_per_s: f64,
    divisor: f64,
) -> ReadFilter {
    let divisor = divisor.max(1.0);
    let mut f = ReadFilter {
        cached_ranks: 0,
        che_t: None,
        flat_hit: 0.0,
        invalidated: 0.0,
        coalesce_rate_window: cache.coalesce_s.map(|w| read_rate_per_s * w),
        divisor,
    };
    let total = read_rate_per_s + write_rate_per_s;
    let invalidated = if total > 0.0 {
        write_rate_per_s / total
    } else {
        0.0
    };
    match cache.cache {
        Some(CacheSize::HitRatio(h)) => f.flat_hit = h,
        Some(CacheSize::Keys { keys, policy }) => {
            f.invalidated = invalidated;
            let ranks = keys as f64 / divisor;
            let n = shares.count();
            if ranks >= n as f64 {
                f.cached_ranks = n;
            } else if policy == CachePolicy::Lfu {
                f.cached_ranks = ranks.floor() as u64;
            } else {
                f.che_t = che_time(shares, ranks);
            }
        }
        None => {}
    }
    f
}

/// The cache's hit ratio under `filter` (coalescing left out): Σ pᵣ·hitᵣ.
///
/// ```
/// use keyheat::distributions::cache::{filter, hit_ratio};
/// use keyheat::distributions::popularity::{harmonic, RankShares};
/// use keyheat::scenario::{CachePolicy, CacheSize, Popularity, ReadCache};
/// // Zipf(1) over 10⁶ keys, 10⁴ held by frequency: H(10⁴) ÷ H(10⁶) = 9.7876 ÷ 14.3927 = 0.680.
/// let z = RankShares::new(&Popularity::Zipf { exponent: 1.0 }, 1_000_000);
/// let c = ReadCache { cache: Some(CacheSize::Keys { keys: 10_000, policy: CachePolicy::Lfu }), coalesce_s: None };
/// let h = hit_ratio(&z, &filter(&z, &c, 1000.0, 0.0, 1.0));
/// assert!((h - harmonic(10_000, 1.0) / harmonic(1_000_000, 1.0)).abs() < 1e-9);
/// ```
pub fn hit_ratio(shares: &RankShares, filter: &ReadFilter) -> f64 {
    if shares.is_fresh() {
        return 0.0;
    }
    let no_coalesce = ReadFilter {
        coalesce_rate_window: None,
        ..filter.clone()
    };
    let miss = no_coalesce.sum_passed(shares, 1, shares.count(), &|p, pass| p * pass);
    (1.0 - miss).clamp(0.0, 1.0)
}
