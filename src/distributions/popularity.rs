//! Popularity by rank: the share of an entity's requests that its rank-r
//! instance receives, summed over rank ranges without touching every rank,
//! so an entity of 10⁹ instances costs no more than one of 10³.

use crate::scenario::Popularity;

/// Ranks below this are summed term by term; from it on, a range's sum is
/// Euler–Maclaurin's (three Bernoulli terms), whose remainder there is
/// below 10⁻¹⁹ of the first term ([`euler_maclaurin`]).
const EXACT_BELOW: u64 = 1_024;
/// A range of fewer terms is summed term by term wherever it lies (as cheap
/// as Euler–Maclaurin's nine powers).
const SHORT_TERMS: u64 = 32;

/// Generalized harmonic number H(n, s) = Σ_{k=1..n} k^-s.
///
/// Exact summation below rank 1,024, Euler–Maclaurin (three correction
/// terms) from there; relative error < 1e-13 for any n (the tests check
/// ranges against term-by-term sums).
///
/// ```
/// use keyheat::distributions::popularity::harmonic;
/// // H(1000) = 7.485470860550345 (the 1000th harmonic number).
/// assert!((harmonic(1000, 1.0) - 7.485_470_860_550_345).abs() < 1e-12);
/// // ζ(2) partial sum to 10⁶: π²/6 − 1/10⁶ + 1/(2·10¹²) ≈ 1.6449330668487264.
/// assert!((harmonic(1_000_000, 2.0) - 1.644_933_066_848_726_4).abs() < 1e-12);
/// ```
pub fn harmonic(n: u64, s: f64) -> f64 {
    harmonic_range(1, n, s)
}

/// Σ_{k=a..=b} k^-s (0 when b < a).
pub fn harmonic_range(a: u64, b: u64, s: f64) -> f64 {
    if b < a || b == 0 {
        return 0.0;
    }
    let a = a.max(1);
    if b - a < REMEMBERED_TERMS {
        return harmonic_sum(a, b, s);
    }
    // Up to 10,000 powers each, asked again by every busy period of every
    // design (the plan, its streams and their placement are built anew for
    // each): sums of many terms are remembered for the process, keyed by
    // their arguments' bits (the same sum, the same double).
    let key = (a, b, s.to_bits());
    if let Some(sum) = remembered(key) {
        return sum;
    }
    let sum = harmonic_sum(a, b, s);
    if let Ok(mut m) = SUMS.lock() {
        let m = m.get_or_insert_with(Sums::new);
        // Full: forgotten all at once, so that the sums asked from then on
        // (the ranges every trial still to run asks again) are remembered.
        if m.len() >= REMEMBERED_SUMS {
            m.clear();
        }
        m.insert(key, sum);
    }
    sum
}

/// Remembered sums by their arguments' bits: (a, b, s).
type Sums = std::collections::HashMap<(u64, u64, u64), f64>;
static SUMS: std::sync::Mutex<Option<Sums>> = std::sync::Mutex::new(None);

/// The sum remembered for `key`, if any.
fn remembered(key: (u64, u64, u64)) -> Option<f64> {
    SUMS.lock()
        .ok()
        .and_then(|m| m.as_ref()?.get(&key).copied())
}

/// Sums of at least this many terms are remembered ([`harmonic_range`]).
const REMEMBERED_TERMS: u64 = 256;
/// At most this many of them (a 24-byte key and a double each, some 3 MiB
/// with the map's own): a 10⁷-instance entity ranged over thousands of
/// chunks asks thousands of distinct sums every trial.
const REMEMBERED_SUMS: usize = 1 << 16;

/// [`harmonic_range`], computed: ranks below [`EXACT_BELOW`] (and short
/// ranges) term by term, the rest by Euler–Maclaurin. A ranged design's
/// chunks ask thousands of distinct sums over ranks far from 1; summed
/// term by term (10,000 powers each, as before) they took half of a
/// MongoDB design's time.
fn harmonic_sum(a: u64, b: u64, s: f64) -> f64 {
    let m = a.max(EXACT_BELOW);
    if b - a < SHORT_TERMS || m > b {
        // Sum small terms first for accuracy.
        return (a..=b).rev().map(|k| (k as f64).powf(-s)).sum();
    }
    let head: f64 = (a..m).rev().map(|k| (k as f64).powf(-s)).sum();
    head + euler_maclaurin(m, b, s)
}

/// Σ_{k=m..=n} k^-s by Euler–Maclaurin with Bernoulli terms B2, B4, B6:
/// ∫_m^n x^-s dx + (f(m) + f(n))/2 + Σ B_2j/(2j)!·(f^(2j−1)(n) −
/// f^(2j−1)(m)). The remainder is at most 2ζ(6)/(2π)⁶·|f⁽⁵⁾(m)| =
/// 3.3·10⁻⁵·s(s+1)(s+2)(s+3)(s+4)·m^(−s−5) (Abramowitz and Stegun 23.1.30;
/// at m ≥ 1,024, under 10⁻¹⁹·P(s) of the first term f(m)). The integral is
/// taken as m^(1−s)·expm1((1−s)·ln(1 + (n−m)/m))/(1−s), which keeps its
/// digits when n is near m.
fn euler_maclaurin(m: u64, n: u64, s: f64) -> f64 {
    let (mf, nf) = (m as f64, n as f64);
    let log_ratio = ((n - m) as f64 / mf).ln_1p();
    let integral = if (s - 1.0).abs() < 1e-12 {
        log_ratio
    } else {
        mf.powf(1.0 - s) * ((1.0 - s) * log_ratio).exp_m1() / (1.0 - s)
    };
    let f = |x: f64| x.powf(-s);
    // Derivatives of x^-s.
    let d1 = |x: f64| -s * x.powf(-s - 1.0);
    let d3 = |x: f64| -s * (s + 1.0) * (s + 2.0) * x.powf(-s - 3.0);
    let d5 = |x: f64| -s * (s + 1.0) * (s + 2.0) * (s + 3.0) * (s + 4.0) * x.powf(-s - 5.0);
    integral + (f(mf) + f(nf)) / 2.0 + (d1(nf) - d1(mf)) / 12.0 - (d3(nf) - d3(mf)) / 720.0
        + (d5(nf) - d5(mf)) / 30_240.0
}

/// Request shares of one entity's instances by popularity rank (rank 1 hottest).
#[derive(Debug, Clone, PartialEq)]
pub struct RankShares {
    kind: Kind,
    count: u64,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Uniform,
    Power {
        exponent: f64,
        norm: f64,
    },
    Hotspot {
        hot: u64,
        hot_each: f64,
        cold_each: f64,
    },
    Weights(Vec<f64>),
    /// Every operation a fresh instance: infinitely many, each share → 0.
    Fresh,
    /// The reads of `base` that get past a cache / coalescing ([`ReadFilter`]),
    /// renormalised: share(r) = p_r·pass(r, p_r) ÷ mass.
    Filtered {
        base: Box<RankShares>,
        filter: ReadFilter,
        mass: f64,
    },
}

/// How many of ranks `a..=b` are among the `hot` hottest.
fn hot_ranks(a: u64, b: u64, hot: u64) -> f64 {
    if a <= hot {
        (b.min(hot) - a + 1) as f64
    } else {
        0.0
    }
}

impl RankShares {
    /// Shares for `count` instances under `popularity`.
    ///
    /// ```
    /// use keyheat::distributions::popularity::RankShares;
    /// use keyheat::scenario::Popularity;
    /// let z = RankShares::new(&Popularity::Zipf { exponent: 1.0 }, 1000);
    /// assert!((z.share(1) - 1.0 / 7.485_470_860_550_345).abs() < 1e-12);
    /// let h = RankShares::new(&Popularity::Hotspot { hot_fraction: 0.2, hot_share: 0.8 }, 100);
    /// assert!((h.share(1) - 0.04).abs() < 1e-12 && (h.share(100) - 0.0025).abs() < 1e-12);
    /// ```
    pub fn new(popularity: &Popularity, count: u64) -> RankShares {
        let count = count.max(1);
        let kind = match popularity {
            Popularity::Uniform => Kind::Uniform,
            Popularity::Zipf { exponent } | Popularity::Latest { exponent } => {
                if *exponent == 0.0 {
                    Kind::Uniform
                } else {
                    Kind::Power {
                        exponent: *exponent,
                        norm: harmonic(count, *exponent),
                    }
                }
            }
            Popularity::Hotspot {
                hot_fraction,
                hot_share,
            } => {
                let hot = ((count as f64 * hot_fraction).round() as u64).clamp(1, count);
                let cold = count - hot;
                let (hot_share, cold_share) = if cold == 0 {
                    (1.0, 0.0)
                } else {
                    (*hot_share, 1.0 - hot_share)
                };
                Kind::Hotspot {
                    hot,
                    hot_each: hot_share / hot as f64,
                    cold_each: if cold == 0 {
                        0.0
                    } else {
                        cold_share / cold as f64
                    },
                }
            }
            Popularity::Weights { weights } => {
                let total: f64 = weights.iter().sum();
                let mut w: Vec<f64> = weights.iter().map(|x| x / total).collect();
                w.sort_by(|a, b| b.total_cmp(a));
                return RankShares {
                    count: w.len() as u64,
                    kind: Kind::Weights(w),
                };
            }
            Popularity::New => Kind::Fresh,
        };
        RankShares { kind, count }
    }

    /// Number of instances (ranks); `u64::MAX` for `new` (fresh every operation).
    pub fn count(&self) -> u64 {
        match &self.kind {
            Kind::Fresh => u64::MAX,
            Kind::Filtered { base, .. } => base.count(),
            _ => self.count,
        }
    }

    /// Whether every instance takes the same share (uniform popularity, or
    /// equal weights, or a hotspot whose hot and cold instances share alike).
    ///
    /// ```
    /// use keyheat::distributions::popularity::RankShares;
    /// use keyheat::scenario::Popularity;
    /// assert!(RankShares::new(&Popularity::Uniform, 50).is_uniform());
    /// assert!(RankShares::new(&Popularity::Weights { weights: vec![2.0, 2.0] }, 2).is_uniform());
    /// assert!(!RankShares::new(&Popularity::Weights { weights: vec![1.0, 3.0] }, 2).is_uniform());
    /// ```
    pub fn is_uniform(&self) -> bool {
        match &self.kind {
            Kind::Uniform => true,
            Kind::Power { .. } | Kind::Fresh | Kind::Filtered { .. } => false,
            Kind::Hotspot {
                hot_each,
                cold_each,
                hot,
            } => *hot >= self.count || hot_each == cold_each,
            Kind::Weights(w) => w.iter().all(|x| *x == w[0]),
        }
    }

    /// Ranks `a..=b` (1-based, inclusive) as runs of equal shares, in rank
    /// order: (ranks in the run, their share each). Uniform popularity is
    /// one run, a hotspot's hot and cold instances two, equal weights one
    /// run each. `None` where shares change from rank to rank (a power
    /// law), for more than [`RankShares::MAX_RUNS`] runs, or for an empty
    /// or out-of-bounds range.
    ///
    /// ```
    /// use keyheat::distributions::popularity::RankShares;
    /// use keyheat::scenario::Popularity;
    /// let h = RankShares::new(&Popularity::Hotspot { hot_fraction: 0.2, hot_share: 0.8 }, 100);
    /// let runs = h.constant_runs(11, 100).unwrap();
    /// assert_eq!(runs.len(), 2);
    /// assert_eq!((runs[0].0, runs[0].1), (10, 0.04));
    /// assert_eq!(runs[1].0, 80);
    /// assert!((runs[1].1 - 0.2 / 80.0).abs() < 1e-15);
    /// let u = RankShares::new(&Popularity::Uniform, 50);
    /// assert_eq!(u.constant_runs(1, 50), Some(vec![(50, 0.02)]));
    /// assert_eq!(RankShares::new(&Popularity::Zipf { exponent: 1.0 }, 50).constant_runs(1, 50), None);
    /// ```
    pub fn constant_runs(&self, a: u64, b: u64) -> Option<Vec<(u64, f64)>> {
        if a == 0 || b < a || b > self.count() {
            return None;
        }
        match &self.kind {
            Kind::Uniform => Some(vec![(b - a + 1, self.share(a))]),
            Kind::Hotspot { hot, .. } => {
                if a > *hot || b <= *hot || self.is_uniform() {
                    Some(vec![(b - a + 1, self.share(a))])
                } else {
                    Some(vec![(hot - a + 1, self.share(a)), (b - hot, self.share(b))])
                }
            }
            Kind::Weights(w) => {
                let mut runs: Vec<(u64, f64)> = Vec::new();
                for &x in &w[(a - 1) as usize..b as usize] {
                    if let Some((n, _)) = runs.last_mut().filter(|(_, share)| *share == x) {
                        *n += 1;
                    } else if runs.len() == Self::MAX_RUNS {
                        return None;
                    } else {
                        runs.push((1, x));
                    }
                }
                Some(runs)
            }
            Kind::Power { .. } | Kind::Fresh | Kind::Filtered { .. } => None,
        }
    }

    /// Most runs [`RankShares::constant_runs`] returns.
    pub const MAX_RUNS: usize = 16;

    /// Whether every operation picks a fresh instance.
    pub fn is_fresh(&self) -> bool {
        self.kind == Kind::Fresh
    }

    /// Share of requests the rank-`r` instance (1-based) receives.
    pub fn share(&self, r: u64) -> f64 {
        if r == 0 || r > self.count() {
            return 0.0;
        }
        match &self.kind {
            Kind::Uniform => 1.0 / self.count as f64,
            Kind::Power { exponent, norm } => (r as f64).powf(-exponent) / norm,
            Kind::Hotspot {
                hot,
                hot_each,
                cold_each,
            } => {
                if r <= *hot {
                    *hot_each
                } else {
                    *cold_each
                }
            }
            Kind::Weights(w) => w[(r - 1) as usize],
            Kind::Fresh => 0.0,
            Kind::Filtered { base, filter, mass } => {
                let p = base.share(r);
                p * filter.pass(r, p) / mass
            }
        }
    }

    /// Σ share³ over ranks `a..=b` (1-based, inclusive).
    pub fn third_moment(&self, a: u64, b: u64) -> f64 {
        let b = b.min(self.count());
        if b < a || a == 0 {
            return 0.0;
        }
        match &self.kind {
            // Exact closed forms where `sum_f` would integrate or scan.
            Kind::Power { exponent, norm } => harmonic_range(a, b, 3.0 * exponent) / norm.powi(3),
            Kind::Filtered { base, filter, mass } => {
                filter.sum_passed(base, a, b, &|p, pass| (p * pass / mass).powi(3))
            }
            _ => self.sum_f(a, b, &|x| x.powi(3)),
        }
    }

    /// (Σ share, Σ share²) over ranks `a..=b` (1-based, inclusive).
    pub fn moments(&self, a: u64, b: u64) -> (f64, f64) {
        let b = b.min(self.count());
        if b < a || a == 0 {
            return (0.0, 0.0);
        }
        let n = (b - a + 1) as f64;
        match &self.kind {
            Kind::Uniform => {
                let p = 1.0 / self.count as f64;
                (n * p, n * p * p)
            }
            Kind::Power { exponent, norm } => (
                harmonic_range(a, b, *exponent) / norm,
                harmonic_range(a, b, 2.0 * exponent) / (norm * norm),
            ),
            Kind::Hotspot {
                hot,
                hot_each,
                cold_each,
            } => {
                let hot_n = hot_ranks(a, b, *hot);
                let cold_n = n - hot_n;
                (
                    hot_n * hot_each + cold_n * cold_each,
                    hot_n * hot_each * hot_each + cold_n * cold_each * cold_each,
                )
            }
            Kind::Weights(w) => {
                let s = &w[(a - 1) as usize..b as usize];
                (s.iter().sum(), s.iter().map(|x| x * x).sum())
            }
            Kind::Fresh => (1.0, 0.0),
            Kind::Filtered { base, filter, mass } => (
                filter.sum_passed(base, a, b, &|p, pass| p * pass / mass),
                filter.sum_passed(base, a, b, &|p, pass| (p * pass / mass).powi(2)),
            ),
        }
    }
}

impl RankShares {
    /// `base`'s reads that get past `filter`: shares p_r·pass(r, p_r) ÷ mass,
    /// mass = Σ p_r·pass(r, p_r) (the share of reads that reach the store).
    /// Returns the shares and the mass; a `new` popularity (every read a
    /// fresh key) passes unchanged, mass 1.
    pub fn filtered(base: RankShares, filter: ReadFilter) -> (RankShares, f64) {
        if base.is_fresh() {
            return (base, 1.0);
        }
        let mass = filter.sum_passed(&base, 1, base.count(), &|p, pass| p * pass);
        let mass = if mass.is_finite() { mass.max(0.0) } else { 0.0 };
        let count = base.count;
        let shares = RankShares {
            kind: Kind::Filtered {
                base: Box::new(base),
                filter,
                // Every read served by the cache (mass 0): every share is 0.
                mass: mass.max(f64::MIN_POSITIVE),
            },
            count,
        };
        (shares, mass)
    }

    /// For shares built by [`RankShares::filtered`]: the shares before the
    /// filter, and the filter.
    pub fn filter_parts(&self) -> Option<(&RankShares, &ReadFilter)> {
        match &self.kind {
            Kind::Filtered { base, filter, .. } => Some((base, filter)),
            _ => None,
        }
    }

    /// [`RankShares::sum_f`] over ranks `a..=b` for many `f`: the shares it
    /// evaluates `f` at are worked out once (a power law's `powf` and `exp`
    /// per point), and each [`RangeSum::sum`] gives what `sum_f` gives, bit
    /// for bit (the same points, operations and order).
    pub fn range_sum(&self, a: u64, b: u64) -> RangeSum<'_> {
        let b_top = b.min(self.count());
        let points = match &self.kind {
            Kind::Power { exponent, norm } if !(b_top < a || a == 0) => {
                let p = |x: f64| x.powf(-exponent) / norm;
                if b_top - a < 2 * SUM_EXACT_TERMS {
                    Some(PowerPoints {
                        head: (a..=b_top).rev().map(|r| p(r as f64)).collect(),
                        simpson: None,
                    })
                } else {
                    let m = a + SUM_EXACT_TERMS;
                    let (lo, hi) = ((m as f64 - 0.5).ln(), (b_top as f64 + 0.5).ln());
                    let steps = SUM_SIMPSON_STEPS;
                    let h = (hi - lo) / steps as f64;
                    let at = |u: f64| {
                        let x = u.exp();
                        (p(x), x)
                    };
                    Some(PowerPoints {
                        head: (a..m).rev().map(|r| p(r as f64)).collect(),
                        simpson: Some(Simpson {
                            ends: [at(lo), at(hi)],
                            inner: (1..steps).map(|i| at(lo + i as f64 * h)).collect(),
                            h,
                        }),
                    })
                }
            }
            _ => None,
        };
        RangeSum {
            shares: self,
            a,
            b,
            points,
        }
    }

    /// Σ f(share(r)) over ranks `a..=b`: exact over runs of equal shares
    /// (uniform, hotspot) and weights; for a power law, exact for the first
    /// [`SUM_EXACT_TERMS`] ranks of the range and, beyond them, the integral
    /// ∫ f(p(x)) dx over [m − ½, b + ½] (the midpoint rule's sum; Simpson in
    /// ln x over [`SUM_SIMPSON_STEPS`] steps), whose error is below 10⁻⁸
    /// relative for the smooth `f` of caches and coalescing.
    pub fn sum_f(&self, a: u64, b: u64, f: &dyn Fn(f64) -> f64) -> f64 {
        let b = b.min(self.count());
        if b < a || a == 0 {
            return 0.0;
        }
        let n = (b - a + 1) as f64;
        match &self.kind {
            Kind::Uniform => n * f(1.0 / self.count as f64),
            Kind::Hotspot {
                hot,
                hot_each,
                cold_each,
            } => {
                let hot_n = hot_ranks(a, b, *hot);
                hot_n * f(*hot_each) + (n - hot_n) * f(*cold_each)
            }
            Kind::Weights(w) => w[(a - 1) as usize..b as usize].iter().map(|&x| f(x)).sum(),
            Kind::Fresh => 0.0,
            Kind::Filtered { .. } => (a..=b).map(|r| f(self.share(r))).sum(),
            // Its shares at the points summed, worked out by `range_sum`.
            Kind::Power { .. } => self.range_sum(a, b).sum(f),
        }
    }
}

/// Ranks `a..=b` of a [`RankShares`], ready to sum many functions of their
/// shares ([`RankShares::range_sum`]).
pub struct RangeSum<'s> {
    shares: &'s RankShares,
    a: u64,
    b: u64,
    /// A power law's shares at the points `sum_f` evaluates.
    points: Option<PowerPoints>,
}

/// A power law's shares at `sum_f`'s points: the exact head's, in its
/// order, and Simpson's (share, x) at both ends and every inner step.
struct PowerPoints {
    head: Vec<f64>,
    simpson: Option<Simpson>,
}

struct Simpson {
    ends: [(f64, f64); 2],
    inner: Vec<(f64, f64)>,
    h: f64,
}

impl RangeSum<'_> {
    /// Σ f(share(r)) over the range, as [`RankShares::sum_f`] gives it.
    pub fn sum(&self, f: &dyn Fn(f64) -> f64) -> f64 {
        let Some(points) = &self.points else {
            return self.shares.sum_f(self.a, self.b, f);
        };
        let head: f64 = points.head.iter().map(|&p| f(p)).sum();
        let Some(simpson) = &points.simpson else {
            return head;
        };
        let g = |(p, x): (f64, f64)| f(p) * x;
        let mut acc = g(simpson.ends[0]) + g(simpson.ends[1]);
        for (k, &point) in simpson.inner.iter().enumerate() {
            let i = k + 1;
            acc += g(point) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        head + acc * simpson.h / 3.0
    }
}

/// Ranks of a power law summed term by term by [`RankShares::sum_f`] before the integral.
pub const SUM_EXACT_TERMS: u64 = 2_000;
/// Simpson steps (even) of [`RankShares::sum_f`]'s integral.
pub const SUM_SIMPSON_STEPS: usize = 2_000;

/// What share of one key's reads reach the store behind a cache and/or
/// request coalescing (`cache`, `coalesce`), as a function of its rank r and
/// share p (of the driver entity's ranks; `divisor` other-entity
/// combinations share each rank's reads alike).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadFilter {
    /// Frequency-ordered cache: ranks 1..=`cached_ranks` are held (0: none).
    pub cached_ranks: u64,
    /// LRU by Che's approximation: a key of share p is held with
    /// probability 1 − e^{−p·T} (T in units of 1 ÷ share).
    pub che_t: Option<f64>,
    /// A given hit ratio, the same for every key.
    pub flat_hit: f64,
    /// Share of a held key's reads that miss because a write invalidated
    /// the item since the last read: W ÷ (R + W).
    pub invalidated: f64,
    /// Coalescing: the read rate × window of a key of share 1 (λ·w); a key
    /// of share p sends (1 − e^{−x}) ÷ x of its reads on, x = λ·w·p·miss.
    pub coalesce_rate_window: Option<f64>,
    /// Combinations of the key's other entities per rank (each takes p ÷ divisor).
    pub divisor: f64,
}

impl ReadFilter {
    /// Share of a rank-`r` key's reads (share `p`) that reach the store.
    ///
    /// ```
    /// use keyheat::distributions::popularity::ReadFilter;
    /// let f = ReadFilter { cached_ranks: 10, che_t: None, flat_hit: 0.0, invalidated: 0.0,
    ///     coalesce_rate_window: Some(100.0), divisor: 1.0 };
    /// assert_eq!(f.pass(3, 0.2), 0.0); // held by the cache
    /// // Rank 11, share 0.01: λ·w·p = 1 → (1 − e^{−1}) ÷ 1 = 0.632 of its reads.
    /// assert!((f.pass(11, 0.01) - (1.0 - (-1.0f64).exp())).abs() < 1e-12);
    /// ```
    pub fn pass(&self, r: u64, p: f64) -> f64 {
        let key_p = p / self.divisor.max(1.0);
        let held = if r <= self.cached_ranks {
            1.0
        } else if let Some(t) = self.che_t {
            1.0 - (-p * t).exp()
        } else {
            0.0
        };
        let hit = (held * (1.0 - self.invalidated) + self.flat_hit).min(1.0);
        let miss = 1.0 - hit;
        match self.coalesce_rate_window {
            Some(lw) => {
                let x = lw * key_p * miss;
                if x > 1e-9 {
                    miss * (1.0 - (-x).exp()) / x
                } else {
                    miss * (1.0 - x / 2.0)
                }
            }
            None => miss,
        }
    }

    /// Σ f(p_r, pass(r, p_r)) over ranks `a..=b` of `base`, split where the
    /// frequency-ordered cache ends (within each piece pass depends on p only).
    pub fn sum_passed(
        &self,
        base: &RankShares,
        a: u64,
        b: u64,
        f: &dyn Fn(f64, f64) -> f64,
    ) -> f64 {
        let split = self.cached_ranks;
        let piece = |lo: u64, hi: u64, held: u64| {
            if hi < lo {
                return 0.0;
            }
            base.sum_f(lo, hi, &|p| f(p, self.pass(held, p)))
        };
        if split == 0 {
            return piece(a, b, u64::MAX);
        }
        piece(a, b.min(split), 1) + piece(a.max(split + 1), b, u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_harmonic_sums_are_the_computed_ones() {
        // Asked twice, over ranges below and above the exact head, at
        // exponents sharing the ranges: each is its own sum, bit for bit.
        for _ in 0..2 {
            for s in [0.8, 1.2, 2.4] {
                for (a, b) in [(1, 300), (257, 65_536), (1, 1_000_000), (300, 10_000_000)] {
                    let remembered = harmonic_range(a, b, s);
                    assert_eq!(remembered.to_bits(), harmonic_sum(a, b, s).to_bits());
                }
            }
        }
        assert!((harmonic_range(1, 1000, 1.0) - 7.485_470_860_550_345).abs() < 1e-12);
    }

    #[test]
    fn sums_asked_after_the_store_fills_are_remembered_too() {
        // More distinct sums than the store holds (a ranged design's
        // chunks, each its own range): the last ones asked are remembered,
        // so the trials that ask them again do not sum them again (a full
        // store used to refuse them: 110 ranges of 10,000 powers each,
        // asked 400 times, took 3.4 of a MongoDB design's 4.4 s).
        let s = 0.731;
        let ranges =
            (0..REMEMBERED_SUMS as u64 + 10).map(|i| (3 * i + 1, 3 * i + 1 + REMEMBERED_TERMS));
        for (a, b) in ranges.clone() {
            harmonic_range(a, b, s);
        }
        for (a, b) in ranges.skip(REMEMBERED_SUMS + 5) {
            let got = remembered((a, b, s.to_bits()));
            assert_eq!(
                got.map(f64::to_bits),
                Some(harmonic_sum(a, b, s).to_bits()),
                "{a}..={b}"
            );
        }
    }

    /// `sum_f`'s rule written out, share by share: a power law's ranks
    /// summed exactly up to 2·SUM_EXACT_TERMS ranks, else an exact head
    /// and Simpson in ln x beyond; other kinds rank by rank.
    fn by_the_rule(shares: &RankShares, a: u64, b: u64, f: &dyn Fn(f64) -> f64) -> f64 {
        let b = b.min(shares.count());
        if b < a || a == 0 {
            return 0.0;
        }
        let Kind::Power { exponent, norm } = &shares.kind else {
            return shares.sum_f(a, b, f);
        };
        let p = |x: f64| x.powf(-exponent) / norm;
        if b - a < 2 * SUM_EXACT_TERMS {
            return (a..=b).rev().map(|r| f(p(r as f64))).sum();
        }
        let m = a + SUM_EXACT_TERMS;
        let head: f64 = (a..m).rev().map(|r| f(p(r as f64))).sum();
        let (lo, hi) = ((m as f64 - 0.5).ln(), (b as f64 + 0.5).ln());
        let h = (hi - lo) / SUM_SIMPSON_STEPS as f64;
        let g = |u: f64| {
            let x = u.exp();
            f(p(x)) * x
        };
        let mut acc = g(lo) + g(hi);
        for i in 1..SUM_SIMPSON_STEPS {
            acc += g(lo + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        head + acc * h / 3.0
    }

    #[test]
    fn a_range_sum_is_the_rule_bit_for_bit() {
        // Power laws over short ranges (every rank exact) and long ones
        // (exact head, Simpson beyond), the other kinds by delegation.
        let fs: [&dyn Fn(f64) -> f64; 3] = [&|p| -(-p * 1234.5).exp_m1(), &|p| p * p, &|p| {
            (p * 1e6).ln_1p()
        }];
        let pops = [
            Popularity::Zipf { exponent: 0.99 },
            Popularity::Zipf { exponent: 1.3 },
            Popularity::Uniform,
            Popularity::Hotspot {
                hot_fraction: 0.2,
                hot_share: 0.8,
            },
        ];
        for pop in &pops {
            for count in [10u64, 5_000, 10_000_000] {
                let shares = RankShares::new(pop, count);
                for (a, b) in [
                    (1, count),
                    (3, count / 2 + 1),
                    (0, 5),
                    (7, 3),
                    (1, u64::MAX),
                ] {
                    let range = shares.range_sum(a, b);
                    for f in fs {
                        let want = by_the_rule(&shares, a, b, f).to_bits();
                        assert_eq!(
                            range.sum(f).to_bits(),
                            want,
                            "{pop:?} over {count}, {a}..={b}"
                        );
                        assert_eq!(shares.sum_f(a, b, f).to_bits(), want, "{pop:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn shares_sum_to_one_for_every_distribution() {
        let cases = [
            Popularity::Uniform,
            Popularity::Zipf { exponent: 0.99 },
            Popularity::Zipf { exponent: 1.2 },
            Popularity::Hotspot {
                hot_fraction: 0.2,
                hot_share: 0.8,
            },
            Popularity::Latest { exponent: 1.0 },
        ];
        for p in &cases {
            for n in [1u64, 7, 1000, 123_456, 100_000_000] {
                let r = RankShares::new(p, n);
                let (s, _) = r.moments(1, n);
                assert!((s - 1.0).abs() < 1e-9, "{p:?} n={n}: {s}");
            }
        }
    }

    /// Draws ranks by an alias table over the shares and compares the sample
    /// mean rank with its closed form: uniform (n+1)/2; Zipf H(n, θ−1)/H(n, θ);
    /// hotspot s·(h+1)/2 + (1−s)·(h+1+n)/2; weights Σ r·w_r.
    #[test]
    fn sampled_ranks_match_analytic_mean_rank() {
        use crate::distributions::alias::AliasTable;
        use rand::SeedableRng;
        let n = 1000u64;
        let h = 200.0;
        let cases: Vec<(Popularity, f64)> = vec![
            (Popularity::Uniform, (n as f64 + 1.0) / 2.0),
            (
                Popularity::Zipf { exponent: 0.99 },
                harmonic(n, -0.01) / harmonic(n, 0.99),
            ),
            (
                Popularity::Zipf { exponent: 1.2 },
                harmonic(n, 0.2) / harmonic(n, 1.2),
            ),
            (
                Popularity::Hotspot {
                    hot_fraction: 0.2,
                    hot_share: 0.8,
                },
                0.8 * (h + 1.0) / 2.0 + 0.2 * (h + 1.0 + n as f64) / 2.0,
            ),
            (
                Popularity::Weights {
                    weights: vec![1.0, 6.0, 3.0],
                },
                0.6 + 2.0 * 0.3 + 3.0 * 0.1,
            ),
        ];
        for (pop, expected) in cases {
            let r = RankShares::new(&pop, n);
            let count = r.count();
            let entries: Vec<(f64, u32)> = (1..=count).map(|k| (r.share(k), k as u32)).collect();
            let table = AliasTable::new(&entries).unwrap();
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
            let draws = 400_000;
            let xs: Vec<f64> = (0..draws)
                .map(|_| f64::from(table.sample(&mut rng)))
                .collect();
            let mean = xs.iter().sum::<f64>() / draws as f64;
            let var: f64 = (1..=count)
                .map(|k| r.share(k) * (k as f64 - expected).powi(2))
                .sum();
            let se = (var / draws as f64).sqrt();
            assert!(
                (mean - expected).abs() < 4.0 * se,
                "{pop:?}: sample mean rank {mean} vs {expected} (se {se})"
            );
        }
    }

    #[test]
    fn harmonic_of_a_million_matches_its_asymptotic_expansion() {
        // H(10⁶) = ln(10⁶) + γ + 1/(2·10⁶) − 1/(12·10¹²) + …
        let h = 1e6f64.ln() + 0.577_215_664_901_532_9 + 0.5e-6 - 1.0 / 12e12;
        assert!((harmonic(1_000_000, 1.0) - h).abs() < 1e-10);
    }

    #[test]
    fn range_sums_match_term_by_term_sums() {
        // Ranges as a ranged design's chunks ask them (far from rank 1,
        // short and long, exponents of a power law and their doubles):
        // within 10⁻¹³ of the terms summed smallest first.
        for s in [0.3, 0.9, 0.99, 1.0, 1.01, 1.2, 1.8, 2.4, 4.0] {
            for (a, b) in [
                (1, 5_000),
                (700, 1_100),
                (1_024, 1_056),
                (1_500, 1_600),
                (37_001, 49_999),
                (2_000_000, 2_000_040),
                (9_000_001, 9_120_000),
            ] {
                let exact: f64 = (a..=b).rev().map(|k| (k as f64).powf(-s)).sum();
                let got = harmonic_range(a, b, s);
                assert!(
                    (got - exact).abs() <= 1e-13 * exact,
                    "s {s}, {a}..={b}: {got} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn euler_maclaurin_tail_matches_exact_sum() {
        let exact: f64 = (1..=50_000u64).rev().map(|k| (k as f64).powf(-0.99)).sum();
        assert!((harmonic(50_000, 0.99) - exact).abs() / exact < 1e-12);
        let exact2: f64 = (20_001..=70_000u64)
            .rev()
            .map(|k| (k as f64).powf(-1.98))
            .sum();
        assert!((harmonic_range(20_001, 70_000, 1.98) - exact2).abs() / exact2 < 1e-10);
    }
}
