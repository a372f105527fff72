//! Copies per operation (`copies.count`): mean, quantiles and the largest
//! count of a busy period, in closed form.

use super::normal::{normal_cdf, normal_quantile};
use super::popularity::harmonic;
use super::severity::lognormal_sigma;
use crate::scenario::CopyCount;

impl CopyCount {
    /// The mean count.
    ///
    /// A log-normal capped at `max` has mean
    /// e^{μ+σ²/2}·Φ((ln M − μ − σ²)/σ) + M·(1 − Φ((ln M − μ)/σ)); a Zipf
    /// over 1..=max has mean H(max, θ−1) ÷ H(max, θ).
    ///
    /// ```
    /// use keyheat::scenario::CopyCount;
    /// assert_eq!(CopyCount::Fixed(31e6).mean(), 31e6);
    /// // Zipf(1) over 1..=4: (1+1+1+1) ÷ (1 + 1/2 + 1/3 + 1/4) = 4 ÷ 2.0833 = 1.92.
    /// let z = CopyCount::Zipf { exponent: 1.0, max: 4 };
    /// assert!((z.mean() - 4.0 / (25.0 / 12.0)).abs() < 1e-12);
    /// ```
    pub fn mean(&self) -> f64 {
        match self {
            CopyCount::Fixed(v) => *v,
            CopyCount::Uniform { min, max } => (min + max) / 2.0,
            CopyCount::LogNormal { median, p99, max } => {
                let (mu, s) = (median.ln(), lognormal_sigma(*median, *p99));
                match max {
                    None => (mu + s * s / 2.0).exp(),
                    Some(m) if s <= 0.0 => median.min(*m),
                    Some(m) => {
                        let lm = m.ln();
                        (mu + s * s / 2.0).exp() * normal_cdf((lm - mu - s * s) / s)
                            + m * (1.0 - normal_cdf((lm - mu) / s))
                    }
                }
            }
            CopyCount::Zipf { exponent, max } => {
                harmonic(*max, exponent - 1.0) / harmonic(*max, *exponent)
            }
            CopyCount::Weights { values, weights } => {
                let total: f64 = weights.iter().sum();
                values.iter().zip(weights).map(|(v, w)| v * w).sum::<f64>() / total
            }
        }
    }

    /// The count at quantile `q` in [0, 1] (the smallest count whose CDF
    /// reaches `q` for the discrete distributions).
    ///
    /// ```
    /// use keyheat::scenario::CopyCount;
    /// let w = CopyCount::Weights { values: vec![31e6, 100.0], weights: vec![0.01, 0.99] };
    /// assert_eq!(w.quantile(0.5), 100.0);
    /// assert_eq!(w.quantile(0.995), 31e6);
    /// ```
    pub fn quantile(&self, q: f64) -> f64 {
        let q = q.clamp(0.0, 1.0);
        match self {
            CopyCount::Fixed(v) => *v,
            CopyCount::Uniform { min, max } => min + q * (max - min),
            CopyCount::LogNormal { median, p99, max } => {
                let x = median * (lognormal_sigma(*median, *p99) * normal_quantile(q)).exp();
                max.map_or(x, |m| x.min(m))
            }
            CopyCount::Zipf { exponent, max } => {
                let norm = harmonic(*max, *exponent);
                let (mut lo, mut hi) = (1u64, *max);
                // The smallest k with H(k, θ) ≥ q·H(max, θ) (CDF monotone in k).
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if harmonic(mid, *exponent) >= q * norm * (1.0 - 1e-13) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                lo as f64
            }
            CopyCount::Weights { values, weights } => {
                let total: f64 = weights.iter().sum();
                let mut pairs: Vec<(f64, f64)> = values
                    .iter()
                    .copied()
                    .zip(weights.iter().copied())
                    .collect();
                pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
                let mut acc = 0.0;
                for (v, w) in &pairs {
                    acc += w / total;
                    if acc >= q * (1.0 - 1e-12) && *w > 0.0 {
                        return *v;
                    }
                }
                pairs.iter().rev().find(|p| p.1 > 0.0).map_or(0.0, |p| p.0)
            }
        }
    }

    /// The largest count among `n` operations, as the median of the
    /// maximum of `n` independent draws: the quantile at 0.5^{1/n} (the
    /// count itself when fixed; at most `max` when capped).
    ///
    /// ```
    /// use keyheat::scenario::CopyCount;
    /// // Uniform on [0, 100], 1 draw: the median, 50.
    /// let u = CopyCount::Uniform { min: 0.0, max: 100.0 };
    /// assert!((u.busy_max(1.0) - 50.0).abs() < 1e-9);
    /// // 1,000 draws: 100 × 0.5^{1/1000} = 99.93.
    /// assert!((u.busy_max(1000.0) - 100.0 * 0.5f64.powf(1e-3)).abs() < 1e-9);
    /// ```
    pub fn busy_max(&self, n: f64) -> f64 {
        self.quantile(0.5f64.powf(1.0 / n.max(1.0)))
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::CopyCount;

    /// Zipf(θ) over 1..=max against the brute-force sums: mean Σk·k^-θ ÷ Σk^-θ,
    /// and the smallest k whose CDF reaches q.
    #[test]
    fn zipf_counts_match_brute_force() {
        for (theta, max) in [(1.0, 100u64), (1.5, 5000), (0.7, 20_000)] {
            let z = CopyCount::Zipf {
                exponent: theta,
                max,
            };
            let w: Vec<f64> = (1..=max).map(|k| (k as f64).powf(-theta)).collect();
            let norm: f64 = w.iter().sum();
            let mean: f64 = w
                .iter()
                .enumerate()
                .map(|(i, x)| (i + 1) as f64 * x)
                .sum::<f64>()
                / norm;
            assert!((z.mean() - mean).abs() < 1e-9 * mean, "{theta} {max}");
            for q in [0.5, 0.95, 0.999] {
                let mut acc = 0.0;
                let k = w
                    .iter()
                    .position(|x| {
                        acc += x / norm;
                        acc >= q
                    })
                    .map_or(max, |i| i as u64 + 1);
                assert_eq!(z.quantile(q), k as f64, "{theta} {max} {q}");
            }
        }
    }

    /// A log-normal capped at `max`: its mean against a midpoint sum of
    /// ∫ min(x, M) dF(x) over 200,000 steps of the normal's z in [−9, 9].
    #[test]
    fn capped_lognormal_mean_matches_numeric_integration() {
        let (median, p99, max) = (100.0f64, 5000.0f64, 3000.0f64);
        let c = CopyCount::LogNormal {
            median,
            p99,
            max: Some(max),
        };
        let sigma = (p99 / median).ln() / 2.326_347_874_040_841;
        let steps = 200_000;
        let dz = 18.0 / steps as f64;
        let numeric: f64 = (0..steps)
            .map(|i| {
                let z = -9.0 + (i as f64 + 0.5) * dz;
                let pdf = (-z * z / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
                (median * (sigma * z).exp()).min(max) * pdf * dz
            })
            .sum();
        // The CDF behind the closed form is good to ~1e-7.
        assert!(
            (c.mean() - numeric).abs() < 1e-5 * numeric,
            "{} vs {numeric}",
            c.mean()
        );
        // Uncapped: 100·e^{σ²/2} = 411.19.
        let u = CopyCount::LogNormal {
            median,
            p99,
            max: None,
        };
        assert!((u.mean() - 100.0 * (sigma * sigma / 2.0).exp()).abs() < 1e-9);
        // The cap bounds every quantile.
        assert_eq!(c.quantile(0.9999), max);
    }
}
