//! Plain numeric statistics over per-trial samples: means, percentiles and
//! 95% confidence intervals. No I/O, no randomness.

use serde::Serialize;

/// z₀.₉₇₅, the two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Summary of one quantity over trials.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub struct Stat {
    /// Sample mean over trials.
    pub mean: f64,
    /// Median over trials.
    pub p50: f64,
    /// 95th percentile over trials.
    pub p95: f64,
    /// 95% confidence interval of the mean (normal approximation, mean ± 1.96·s/√n).
    pub ci95: [f64; 2],
    /// 95% confidence interval of the 95th percentile: two order statistics
    /// of the trials, distribution-free ([`ci95_quantile`]).
    pub p95_ci95: [f64; 2],
}

/// A probability estimated over trials.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub struct Proportion {
    /// Fraction of trials in which the event happened.
    pub mean: f64,
    /// 95% Wilson score interval.
    pub ci95: [f64; 2],
}

/// Arithmetic mean; 0 for an empty slice.
///
/// ```
/// assert_eq!(keyheat::results::stats::mean(&[1.0, 2.0, 3.0]), 2.0);
/// ```
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Sample standard deviation (n − 1 denominator); 0 for fewer than 2 samples.
pub fn std_dev(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// Percentile `q` in [0, 1] by linear interpolation between order statistics
/// (Hyndman–Fan type 7, as numpy's default); 0 for an empty slice.
///
/// ```
/// use keyheat::results::stats::percentile;
/// assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
/// assert_eq!(percentile(&[1.0, 2.0], 0.95), 1.95);
/// ```
pub fn percentile(xs: &[f64], q: f64) -> f64 {
    percentile_in_place(&mut xs.to_vec(), q)
}

/// [`percentile`] of `xs`, reordering it: the two order statistics it
/// interpolates are selected (O(n)) rather than the whole slice sorted, the
/// same values as [`percentile_sorted`] of the sorted slice.
///
/// ```
/// use keyheat::results::stats::percentile_in_place;
/// assert_eq!(percentile_in_place(&mut [5.0, 1.0, 4.0, 2.0, 3.0], 0.5), 3.0);
/// assert_eq!(percentile_in_place(&mut [2.0, 1.0], 0.95), 1.95);
/// ```
pub fn percentile_in_place(xs: &mut [f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let h = (xs.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    let (_, &mut at_lo, above) = xs.select_nth_unstable_by(lo, f64::total_cmp);
    // The next order statistic is the least of those above.
    let at_hi = if hi > lo {
        above
            .iter()
            .copied()
            .min_by(f64::total_cmp)
            .unwrap_or(at_lo)
    } else {
        at_lo
    };
    at_lo + (h - lo as f64) * (at_hi - at_lo)
}

/// [`percentile`] of an already sorted slice.
pub fn percentile_sorted(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

/// 95% confidence interval of the mean: mean ± 1.96·s/√n, its lower end
/// at least 0 when no sample is negative (a mean of such samples cannot be:
/// a throttled fraction of 4.47e-9 over trials mostly at 0 read
/// "[-4.29e-9, 1.32e-8]", a breach day "[-1.57, 10.9]").
///
/// ```
/// use keyheat::results::stats::ci95_mean;
/// assert_eq!(ci95_mean(&[0.0, 0.0, 0.0, 9.0])[0], 0.0);
/// assert!(ci95_mean(&[-1.0, 0.0, 0.0, 9.0])[0] < 0.0);
/// ```
pub fn ci95_mean(xs: &[f64]) -> [f64; 2] {
    let m = mean(xs);
    if xs.len() < 2 {
        return [m, m];
    }
    let half = Z95 * std_dev(xs) / (xs.len() as f64).sqrt();
    let low = if xs.iter().all(|&x| x >= 0.0) {
        (m - half).max(0.0)
    } else {
        m - half
    };
    [low, m + half]
}

/// A 95% confidence interval of the `q` quantile from the sorted samples
/// `v`: the order statistics x₍ₗ₎ and x₍ᵤ₎ (1-based) with l the largest and
/// u the least rank such that P(B ≤ l − 1) ≤ 2.5% and P(B ≤ u − 1) ≥
/// 97.5%, B ~ Binomial(n, q) the count of samples below the quantile, so
/// P(x₍ₗ₎ ≤ ξ_q ≤ x₍ᵤ₎) ≥ 95% whatever the distribution (Conover,
/// *Practical Nonparametric Statistics*, 3rd ed., 1999, §3.2). Too few
/// samples for a rank past the sample's ends take its least or largest
/// (200 trials give the 95th percentile ranks 184 and 197; 20 trials
/// reach past the largest, and the interval covers less than 95%).
///
/// ```
/// use keyheat::results::stats::ci95_quantile;
/// let v: Vec<f64> = (1..=200).map(f64::from).collect();
/// assert_eq!(ci95_quantile(&v, 0.95), [184.0, 197.0]);
/// assert_eq!(ci95_quantile(&v[..20], 0.95), [17.0, 20.0]);
/// assert_eq!(ci95_quantile(&[], 0.95), [0.0, 0.0]);
/// ```
pub fn ci95_quantile(v: &[f64], q: f64) -> [f64; 2] {
    let n = v.len();
    if n == 0 {
        return [0.0, 0.0];
    }
    let q = q.clamp(0.0, 1.0);
    // The binomial CDF F(k) = P(B ≤ k), k = 0..n, summed from its pmf in
    // logs (n up to millions of trials stays finite).
    let (lq, lr) = (q.ln(), (1.0 - q).ln());
    let mut cdf = Vec::with_capacity(n + 1);
    let mut ln_choose = 0.0f64;
    let mut acc = 0.0f64;
    for k in 0..=n {
        if k > 0 {
            ln_choose += ((n - k + 1) as f64).ln() - (k as f64).ln();
        }
        let term = ln_choose + k as f64 * lq + (n - k) as f64 * lr;
        acc += if term.is_nan() { 0.0 } else { term.exp() };
        cdf.push(acc);
    }
    // l: the largest rank with F(l − 1) ≤ 2.5% (at least 1); u: the least
    // with F(u − 1) ≥ 97.5% (at most n).
    let l = (1..=n)
        .take_while(|&l| cdf[l - 1] <= 0.025)
        .last()
        .unwrap_or(1);
    let u = (1..=n).find(|&u| cdf[u - 1] >= 0.975).unwrap_or(n);
    [v[l - 1], v[u.max(l) - 1]]
}

impl Stat {
    /// Summarises per-trial samples.
    ///
    /// ```
    /// let s = keyheat::results::Stat::from_samples(&[1.0, 1.0, 1.0]);
    /// assert_eq!((s.mean, s.p50, s.p95, s.ci95), (1.0, 1.0, 1.0, [1.0, 1.0]));
    /// assert_eq!(s.p95_ci95, [1.0, 1.0]);
    /// ```
    pub fn from_samples(xs: &[f64]) -> Stat {
        let mut v: Vec<f64> = xs.to_vec();
        v.sort_unstable_by(f64::total_cmp);
        Stat {
            mean: mean(xs),
            p50: percentile_sorted(&v, 0.5),
            p95: percentile_sorted(&v, 0.95),
            ci95: ci95_mean(xs),
            p95_ci95: ci95_quantile(&v, 0.95),
        }
    }
}

impl Proportion {
    /// Wilson score interval for `k` successes in `n` trials.
    ///
    /// ```
    /// let p = keyheat::results::Proportion::wilson(0, 200);
    /// assert_eq!(p.mean, 0.0);
    /// assert!(p.ci95[1] > 0.018 && p.ci95[1] < 0.02);
    /// ```
    pub fn wilson(k: usize, n: usize) -> Proportion {
        if n == 0 {
            return Proportion::default();
        }
        let n_f = n as f64;
        let p = k as f64 / n_f;
        let z2 = Z95 * Z95;
        let denom = 1.0 + z2 / n_f;
        let centre = (p + z2 / (2.0 * n_f)) / denom;
        let half = Z95 * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
        // At k = 0 the lower bound is 0 and at k = n the upper is 1
        // exactly (centre ∓ half cancel); computed, they round to ±1e-18.
        let lower = if k == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        };
        let upper = if k >= n {
            1.0
        } else {
            (centre + half).min(1.0)
        };
        Proportion {
            mean: p,
            ci95: [lower, upper],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Selecting the two order statistics gives the sorted slice's
        /// percentile bit for bit, ties and signed zeros included.
        #[test]
        fn percentile_in_place_is_the_sorted_percentile(
            xs in proptest::collection::vec(
                proptest::strategy::Strategy::prop_map(-3i32..4, |k| {
                    if k == 0 { -0.0 } else { f64::from(k) / 3.0 }
                }),
                0..60,
            ),
            q in 0.0f64..=1.0,
        ) {
            let mut sorted = xs.clone();
            sorted.sort_by(f64::total_cmp);
            let want = percentile_sorted(&sorted, q);
            let got = percentile_in_place(&mut xs.clone(), q);
            proptest::prop_assert_eq!(got.to_bits(), want.to_bits());
        }
    }

    #[test]
    fn the_p95_interval_covers_the_95th_percentile_at_least_95_percent_of_the_time() {
        // Exponential samples (ξ₀.₉₅ = ln 20), 200 a set as the trials: the
        // ranks 184 and 197 cover it with probability F(196) − F(183) =
        // 96.7% for B ~ Binomial(200, 0.95), whatever the distribution.
        // Over 4,000 sets the share covered lies within 1% of that
        // (binomial sd 0.28%).
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let truth = 20f64.ln();
        let sets = 4000;
        let covered = (0..sets)
            .filter(|_| {
                let mut v: Vec<f64> = (0..200)
                    .map(|_| -(1.0 - rng.random::<f64>()).ln())
                    .collect();
                v.sort_by(f64::total_cmp);
                let [low, high] = ci95_quantile(&v, 0.95);
                low <= truth && truth <= high
            })
            .count();
        let share = covered as f64 / f64::from(sets);
        assert!((share - 0.9672).abs() < 0.01, "{share}");
    }

    #[test]
    fn wilson_interval_matches_textbook_example() {
        // 10 of 100: Wilson 95% interval [0.0552, 0.1744].
        let p = Proportion::wilson(10, 100);
        assert!((p.ci95[0] - 0.0552).abs() < 1e-3, "{:?}", p);
        assert!((p.ci95[1] - 0.1744).abs() < 1e-3, "{:?}", p);
        // None of n: [0, z²/(n + z²)] (0.0370 at n = 100), 0 exactly; all
        // of n: [n/(n + z²), 1], 1 exactly (a summary.json read 3.47e-18).
        for n in [1, 7, 100, 250] {
            let none = Proportion::wilson(0, n);
            let z2 = Z95 * Z95;
            assert_eq!(none.ci95[0], 0.0);
            assert!((none.ci95[1] - z2 / (n as f64 + z2)).abs() < 1e-12);
            let all = Proportion::wilson(n, n);
            assert_eq!(all.ci95[1], 1.0);
            assert!((all.ci95[0] - n as f64 / (n as f64 + z2)).abs() < 1e-12);
        }
    }
}
