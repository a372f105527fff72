//! Cold partitions: cost follows what can matter.
//!
//! In a trial's segment of W windows, a partition whose units per window X
//! cannot reach its limits, nor the peak that the partitions drawn in full
//! reach, in any of the W windows cannot change the trial's peak
//! utilization or throttled units. Such a partition contributes its
//! requested units (their normal draw, the same one a full draw makes) and
//! no throttled units; its own peak, which only the rank table shows, is a
//! Cornish–Fisher draw of the largest of W windows, capped at the bound.
//!
//! The bound is Bernstein's inequality for a compound Poisson sum of costs
//! in [0, b] with mean μ = Σλ·E[S] and variance v = Σλ·E[S²]:
//! P(X ≥ μ + t) ≤ exp(−t² / (2(v + b·t/3))) (Boucheron, Lugosi and
//! Massart, *Concentration Inequalities*, 2013, §2.7, from
//! ln E e^{θ(X−μ)} ≤ v·(e^{θb} − 1 − θb)/b²). Over W windows (union bound),
//! P(max X ≥ μ + t) ≤ ε for t = b·c/3 + √((b·c/3)² + 2·v·c), c = ln(W/ε),
//! with ε = [`COLD_EPSILON`] per partition and segment. A partition is cold
//! when μ + t is below its limit and below the peak utilization of the
//! partitions drawn in full, in every limit dimension; every other partition
//! is drawn in full. Each partition draws from its own stream, so the
//! partitions drawn in full draw exactly what they would with screening off
//! (`tests/agreement.rs` checks the trials' peaks and throttled units are
//! the same).

use super::window::{cornish_fisher_upper_quantile, requested, Component, Limits, Outcome};
use rand::Rng;

/// Probability, per partition and segment, that a partition screened out as
/// cold would have reached the bound in some window.
pub const COLD_EPSILON: f64 = 1e-9;

/// One limit dimension of a server: X's cumulants, the bound on its
/// largest window, and the limit (units per window).
#[derive(Debug, Clone, Copy)]
struct Dim {
    kappa: [f64; 4],
    bound: f64,
    limit: f64,
    is_write: bool,
}

/// What the screening knows of one partition in one segment.
#[derive(Debug, Clone, Copy)]
pub(super) struct ColdBound {
    dims: [Option<Dim>; 3],
    /// Bound on the largest window's utilization (all limits).
    pub(super) utilization: f64,
    /// Bound on the largest window's write utilization (the separate
    /// write limit; 0 without one).
    pub(super) write_utilization: f64,
    /// Mean utilization (all limits) and mean write utilization.
    pub(super) mean_utilization: f64,
    pub(super) mean_write_utilization: f64,
}

impl ColdBound {
    /// The bound of a server with `comps` under `limits` over `windows` windows.
    pub(super) fn new(comps: &[Component<'_>], limits: &Limits, windows: usize) -> ColdBound {
        let c = (windows.max(1) as f64 / COLD_EPSILON).ln();
        let dim = |which: &dyn Fn(&Component<'_>) -> bool, limit: Option<f64>, is_write: bool| {
            let limit = limit?;
            let mut kappa = [0.0f64; 4];
            let mut b = 0.0f64;
            let mut any = false;
            for comp in comps.iter().filter(|c| which(c) && c.lambda > 0.0) {
                any = true;
                for (k, m) in kappa.iter_mut().zip(comp.severity.raw_moments()) {
                    *k += comp.lambda * m;
                }
                b = b.max(comp.severity.max());
            }
            if !any {
                return None;
            }
            let a = b * c / 3.0;
            let t = a + (a * a + 2.0 * kappa[1] * c).sqrt();
            Some(Dim {
                kappa,
                bound: kappa[0] + t,
                limit,
                is_write,
            })
        };
        let dims = [
            dim(&|c| !c.is_write, limits.read, false),
            dim(&|c| c.is_write, limits.write, true),
            dim(&|_| true, limits.combined, false),
        ];
        let ratio = |x: f64, l: f64| if l > 0.0 { x / l } else { f64::INFINITY };
        let (mut utilization, mut write_utilization) = (0.0f64, 0.0f64);
        let (mut mean_utilization, mut mean_write_utilization) = (0.0f64, 0.0f64);
        for d in dims.iter().flatten() {
            utilization = utilization.max(ratio(d.bound, d.limit));
            mean_utilization = mean_utilization.max(ratio(d.kappa[0], d.limit));
            if d.is_write {
                write_utilization = ratio(d.bound, d.limit);
                mean_write_utilization = ratio(d.kappa[0], d.limit);
            }
        }
        ColdBound {
            dims,
            utilization,
            write_utilization,
            mean_utilization,
            mean_write_utilization,
        }
    }

    /// Whether the server is cold against a trial peak `peak` and write peak
    /// `write_peak` reached by servers drawn in full: below both them and the
    /// limits in every window (with probability ≥ 1 − ε).
    pub(super) fn is_cold(&self, peak: f64, write_peak: f64) -> bool {
        self.utilization < peak.min(1.0)
            && (self.write_utilization == 0.0 || self.write_utilization < write_peak.min(1.0))
    }

    /// The cold server's outcome over `windows` windows: its requested
    /// units and requests drawn as a full draw draws them (the same normals,
    /// first, from `rng`), nothing throttled, and its peak a Cornish–Fisher
    /// draw of the largest of the windows, capped at the bound.
    pub(super) fn outcome<R: Rng + ?Sized>(
        &self,
        comps: &[Component<'_>],
        windows: usize,
        rng: &mut R,
    ) -> Outcome {
        let mut out = requested(comps, windows, rng);
        let w = windows as f64;
        for d in self.dims.iter().flatten() {
            let u: f64 = rng.random();
            // The largest of W windows is X's quantile at U^{1/W}: its tail 1 − U^{1/W}.
            let tail = (-(u.ln() / w).exp_m1()).clamp(1e-300, 1.0 - 1e-16);
            let peak = cornish_fisher_upper_quantile(&d.kappa, tail).clamp(0.0, d.bound);
            let util = peak / d.limit;
            out.peak_utilization = out.peak_utilization.max(util);
            if d.is_write {
                out.write_peak_utilization = util;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributions::severity::Severity;

    #[test]
    fn bernstein_bound_of_a_poisson_count() {
        // Unit costs, λ = 4 per window, W = 3,600: c = ln(3,600 / 1e-9) =
        // 28.912; t = c/3 + √((c/3)² + 8c) = 9.637 + √(92.88 + 231.30) =
        // 27.642; the bound is 31.642 units. P(Poisson(4) ≥ 32) ≈ 1.3e-18 ≤
        // ε / W = 2.8e-13: the bound holds with room.
        let s = Severity::from_samples(vec![1.0; 4]);
        let comps = [Component {
            lambda: 4.0,
            severity: &s,
            is_write: true,
        }];
        let limits = Limits {
            write: Some(100.0),
            ..Limits::default()
        };
        let b = ColdBound::new(&comps, &limits, 3600);
        assert!((b.write_utilization - 0.316_43).abs() < 1e-4, "{b:?}");
        assert!((b.mean_write_utilization - 0.04).abs() < 1e-12);
        // Cold against a drawn peak of 0.5, not against one of 0.3; never at
        // or over the limit.
        assert!(b.is_cold(0.5, 0.5));
        assert!(!b.is_cold(0.3, 0.3));
        let tight = Limits {
            write: Some(30.0),
            ..Limits::default()
        };
        assert!(!ColdBound::new(&comps, &tight, 3600).is_cold(2.0, 2.0));
    }

    #[test]
    fn a_cold_peak_stays_under_its_bound_and_near_the_exact_maximum() {
        // λ = 200 unit-cost requests per window, W = 3,600: the exact
        // largest window's median is the Poisson quantile at 0.5^{1/3600}
        // (252); Cornish–Fisher draws land within a few units of it, and
        // never above the bound.
        let s = Severity::from_samples(vec![1.0; 4]);
        let comps = [Component {
            lambda: 200.0,
            severity: &s,
            is_write: false,
        }];
        let limits = Limits {
            read: Some(1000.0),
            ..Limits::default()
        };
        let b = ColdBound::new(&comps, &limits, 3600);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut peaks: Vec<f64> = (0..2001)
            .map(|_| b.outcome(&comps, 3600, &mut rng).peak_utilization * 1000.0)
            .collect();
        peaks.sort_by(f64::total_cmp);
        let median = peaks[1000];
        assert!((median - 252.0).abs() < 3.0, "{median}");
        assert!(peaks[2000] <= b.utilization * 1000.0);
    }
    use rand::SeedableRng;
}
