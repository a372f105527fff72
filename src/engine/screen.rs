//! Cold partitions: cost follows what can matter.
//!
//! In a trial's segment of W windows, a partition whose units per window X
//! cannot reach its limits, nor the peak that the partitions drawn in full
//! reach, in any of the W windows cannot change the trial's peak
//! utilization or throttled units. Such a partition contributes its
//! requested units (their normal draw, the same one a full draw makes) and
//! no throttled units; its own peak, which only the rank table shows, is
//! the largest of W windows drawn as one quantile: exactly, cost × the
//! Poisson quantile, where its requests all cost the same and a window
//! expects at most [`POISSON_EXACT_MAX_MEAN`] of them (the quantile a full
//! draw takes); otherwise a Cornish–Fisher draw kept between bounds on that
//! quantile ([`ColdBound::peaks_into`]).
//!
//! The bound is Bernstein's inequality for a compound Poisson sum of costs
//! in [0, b] with mean μ = Σλ·E[S] and variance v = Σλ·E[S²]:
//! P(X ≥ μ + t) ≤ exp(−t² / (2(v + b·t/3))) (Boucheron, Lugosi and
//! Massart, *Concentration Inequalities*, 2013, §2.7, from
//! ln E e^{θ(X−μ)} ≤ v·(e^{θb} − 1 − θb)/b²). Over W windows (union bound),
//! P(max X ≥ μ + t) ≤ ε for t = b·c/3 + √((b·c/3)² + 2·v·c), c = ln(W/ε),
//! with ε = [`COLD_EPSILON`] per partition and segment. Where Chernoff's
//! bound is lower it is used instead: ln E e^{θX} = Σλ·(E[e^{θS}] − 1)
//! exactly (compound Poisson), so P(max X ≥ x) ≤ ε for x = (ln E e^{θX} +
//! c)/θ, the least over a grid of θ ([`chernoff`]); with rare costly
//! requests (large items) it is several times tighter, since Bernstein
//! charges b·c/3 for the costliest. A partition is cold when its bound is
//! below its limit and below the peak utilization of the partitions drawn
//! in full, in every limit dimension; or, where its requests all cost the
//! same and a window expects at most [`POISSON_EXACT_MAX_MEAN`] of them,
//! below its limits alone: its cold outcome is then the full draw's in
//! distribution (its peak the Poisson quantile, nothing throttled bar ε),
//! so its peak may set the trial's, and screening off takes the same
//! outcome from the same draws. Every other partition is drawn in full.
//! They are drawn busiest bound first, so that the peaks of the few that
//! set the trial's peak screen the many that cannot. Each
//! partition draws from its own stream, so the partitions drawn in full
//! draw exactly what they would with screening off
//! (`tests/agreement.rs` checks the trials' peaks and throttled units are
//! the same).

use super::window::{
    chernoff_least, chernoff_start, cornish_fisher_upper_quantile, requested, Component, Limits,
    Outcome,
};
use rand::Rng;

/// Probability, per partition and segment, that a partition screened out as
/// cold would have reached the bound in some window.
pub const COLD_EPSILON: f64 = 1e-9;

/// Most requests a window may expect for a cold peak of requests that all
/// cost the same to be the Poisson quantile itself ([`poisson_upper_quantile`],
/// a walk of about λ + 4√λ steps); past it Cornish–Fisher, whose error
/// falls as 1/λ there, is used between its bounds.
pub const POISSON_EXACT_MAX_MEAN: f64 = 32.0;

/// Longest walk [`poisson_upper_quantile`] takes before it gives up to
/// Cornish–Fisher (a tail far below any a draw reaches at λ ≤ 32).
const POISSON_WALK_MAX: usize = 1_024;

/// One limit dimension of a server: X's cumulants, the bound on its
/// largest window, the limit (units per window), and where all its
/// requests cost the same, that cost and the requests a window
/// (X = cost × Poisson(λ)).
#[derive(Debug, Clone, Copy)]
struct Dim {
    kappa: [f64; 4],
    bound: f64,
    limit: f64,
    is_write: bool,
    /// The one cost of every request (NaN where they differ) and the
    /// requests a window.
    one_cost: f64,
    lambda: f64,
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
    /// Whether the cold outcome is the full draw's in distribution: in
    /// every dimension one cost, at most [`POISSON_EXACT_MAX_MEAN`]
    /// requests a window (the peak the Poisson quantile a full draw takes),
    /// and the bound below the limit (nothing throttled, bar ε).
    pub(super) exact: bool,
}

impl ColdBound {
    /// The bound of a server with `comps` under `limits` over `windows`
    /// windows: Bernstein's, with Chernoff's where lower.
    #[cfg(test)]
    pub(super) fn new(comps: &[Component<'_>], limits: &Limits, windows: usize) -> ColdBound {
        ColdBound::bernstein(comps, limits, windows).with_chernoff(comps, windows)
    }

    /// Each dimension's streams: reads, writes, both (the combined limit).
    const WHICH: [fn(&Component<'_>) -> bool; 3] = [|c| !c.is_write, |c| c.is_write, |_| true];

    /// Bernstein's bound alone in each dimension: cheaper, and enough for
    /// most cold servers ([`ColdBound::with_chernoff`] tightens the others).
    pub(super) fn bernstein(comps: &[Component<'_>], limits: &Limits, windows: usize) -> ColdBound {
        let c = (windows.max(1) as f64 / COLD_EPSILON).ln();
        let dim = |which: fn(&Component<'_>) -> bool, limit: Option<f64>, is_write: bool| {
            let limit = limit?;
            let mut kappa = [0.0f64; 4];
            let mut b = 0.0f64;
            let mut any = false;
            let (mut one_cost, mut lambda) = (f64::NAN, 0.0f64);
            for comp in comps.iter().filter(|c| which(c) && c.lambda > 0.0) {
                for (k, m) in kappa.iter_mut().zip(comp.severity.raw_moments()) {
                    *k += comp.lambda * m;
                }
                b = b.max(comp.severity.max());
                one_cost = match comp.severity.pmf() {
                    &[(v, _)] if !any || v == one_cost => v,
                    _ => f64::NAN,
                };
                lambda += comp.lambda;
                any = true;
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
                one_cost,
                lambda,
            })
        };
        ColdBound::of_dims([
            dim(Self::WHICH[0], limits.read, false),
            dim(Self::WHICH[1], limits.write, true),
            dim(Self::WHICH[2], limits.combined, false),
        ])
    }

    /// The bound with Chernoff's taken where it is lower, in each
    /// dimension (the streams and windows it was made of).
    pub(super) fn with_chernoff(&self, comps: &[Component<'_>], windows: usize) -> ColdBound {
        let c = (windows.max(1) as f64 / COLD_EPSILON).ln();
        let mut dims = self.dims;
        for (d, which) in dims.iter_mut().zip(Self::WHICH) {
            if let Some(d) = d {
                d.bound = d.bound.min(chernoff(comps, &which, c));
            }
        }
        ColdBound::of_dims(dims)
    }

    /// The utilizations of dimensions' bounds and means.
    fn of_dims(dims: [Option<Dim>; 3]) -> ColdBound {
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
        let exact = utilization < 1.0
            && dims
                .iter()
                .flatten()
                .all(|d| !d.one_cost.is_nan() && d.lambda <= POISSON_EXACT_MAX_MEAN);
        ColdBound {
            dims,
            utilization,
            write_utilization,
            mean_utilization,
            mean_write_utilization,
            exact,
        }
    }

    /// Whether the server is cold against a trial peak `peak` and write peak
    /// `write_peak` reached by servers drawn in full: below both them and the
    /// limits in every window (with probability ≥ 1 − ε); or, whatever the
    /// peaks, below the limits with an outcome the cold draw takes exactly
    /// (requests of one cost, at most 32 a window): its peak may then set
    /// the trial's, drawn from the distribution a full draw takes it from.
    pub(super) fn is_cold(&self, peak: f64, write_peak: f64) -> bool {
        if self.exact {
            return true;
        }
        self.utilization < peak.min(1.0)
            && (self.write_utilization == 0.0 || self.write_utilization < write_peak.min(1.0))
    }

    /// The cold server's outcome over `windows` windows: its requested
    /// units and requests drawn as a full draw draws them (the same normals,
    /// first, from `rng`), nothing throttled, and its peak a draw of the
    /// largest of the windows ([`ColdBound::peaks_into`]), capped at the
    /// bound.
    #[cfg(test)]
    pub(super) fn outcome<R: Rng + ?Sized>(
        &self,
        comps: &[Component<'_>],
        windows: usize,
        rng: &mut R,
    ) -> Outcome {
        let mut draws = self.draw(comps, windows, rng);
        self.peaks_into(comps, &mut draws);
        draws.0
    }

    /// What a cold server's outcome draws from `rng`, in its order: the
    /// requested units and requests, then each limit dimension's tail
    /// 1 − U^{1/W} (the largest of W windows is X's quantile at U^{1/W}).
    /// [`ColdBound::peaks_into`] turns the tails into the peaks: split so
    /// that a segment's cold servers draw first and take their peaks in a
    /// second pass, whose long chains of dependent arithmetic (a logarithm,
    /// two square roots, divisions) then overlap from server to server.
    pub(super) fn draw<R: Rng + ?Sized>(
        &self,
        comps: &[Component<'_>],
        windows: usize,
        rng: &mut R,
    ) -> ColdDraws {
        let out = requested(comps, windows, rng);
        let w = windows as f64;
        let mut tails = [0.0f64; 3];
        for (d, tail) in self.dims.iter().zip(&mut tails) {
            if d.is_some() {
                let u: f64 = rng.random();
                *tail = (-(u.ln() / w).exp_m1()).clamp(1e-300, 1.0 - 1e-16);
            }
        }
        (out, tails)
    }

    /// Each dimension's peak from its drawn tail τ ([`ColdBound::draw`]):
    /// where its requests all cost the same, cost × the Poisson quantile
    /// at τ ([`poisson_upper_quantile`]); otherwise its Cornish–Fisher
    /// quantile, kept between two bounds on X's quantile
    /// at τ, over the limit. Above, Chernoff's (P(X ≥ x) ≤ τ for x = (ln
    /// E[e^{θX}] + ln(1/τ))/θ) and the screening bound; below, one request:
    /// P(X ≥ v) ≥ (1 − e^{−λ})·P(S ≥ v) for each stream. A light load of
    /// widely spread costs is far from normal, and its Cornish–Fisher
    /// quantile far off, either way (a write of 1 to 275 WCU, 1.1 a window:
    /// 882 WCU at 10⁻⁶; 99% of 1 unit and 1% of 40 at 0.15 a window: 0 at
    /// 2·10⁻⁴, where a window with a 40-unit request is 7 times likelier).
    pub(super) fn peaks_into(&self, comps: &[Component<'_>], (out, tails): &mut ColdDraws) {
        for ((d, &tail), which) in self.dims.iter().zip(tails.iter()).zip(Self::WHICH) {
            let Some(d) = d else { continue };
            let exact = (!d.one_cost.is_nan())
                .then(|| poisson_upper_quantile(d.lambda, tail))
                .flatten();
            if let Some(count) = exact {
                let peak = d.one_cost * count;
                let util = peak.min(d.bound) / d.limit;
                out.peak_utilization = out.peak_utilization.max(util);
                if d.is_write {
                    out.write_peak_utilization = util;
                }
                continue;
            }
            let one = one_request(comps, &which, tail);
            let cf = cornish_fisher_upper_quantile(&d.kappa, tail);
            // One request's quantile lies below X's at τ, and Chernoff's
            // bound above it (strictly: X is a Poisson sum): where the
            // Cornish–Fisher quantile falls short of one request (most light
            // loads), the peak is that request, Chernoff's bound unneeded.
            let peak = if cf < one && one <= d.bound {
                one
            } else {
                let above = chernoff(comps, &which, -tail.ln()).min(d.bound);
                cf.clamp(one.min(above), above).max(0.0)
            };
            let util = peak / d.limit;
            out.peak_utilization = out.peak_utilization.max(util);
            if d.is_write {
                out.write_peak_utilization = util;
            }
        }
    }
}

/// The least k with P(N > k) ≤ `tau` for N ~ Poisson(`lambda`): the
/// quantile a server drawn in full takes of its window distribution
/// (Panjer's recursion of one cost is the Poisson pmf), so the largest of W
/// windows at τ = 1 − U^{1/W}. None past [`POISSON_EXACT_MAX_MEAN`] or
/// [`POISSON_WALK_MAX`] steps.
///
/// The walk adds P(N = k) = P(N = k − 1)·λ/k. Below k = 2λ − 2 the
/// survival is 1 − P(N ≤ k) (at least 10⁻⁷ there for λ ≤ 32, so the
/// subtraction keeps 7 digits or more); past it, where r = λ/(k + 2) < ½,
/// P(N > k) = P(N = k + 1)·(1 + λ/(k + 2) + λ²/((k + 2)(k + 3)) + …) lies
/// between P(N = k + 1) and P(N = k + 1)/(1 − r), and the series is summed
/// only where τ falls between the two.
pub fn poisson_upper_quantile(lambda: f64, tau: f64) -> Option<f64> {
    if lambda.is_nan() || lambda > POISSON_EXACT_MAX_MEAN {
        return None;
    }
    let mut pk = (-lambda).exp();
    let mut cdf = pk;
    for k in 0..POISSON_WALK_MAX {
        let kf = k as f64;
        let next = pk * lambda * RECIPROCALS[k + 1];
        let r = lambda * RECIPROCALS[k + 2];
        let at_most_tau = if r >= 0.5 {
            1.0 - cdf <= tau
        } else if next > tau {
            false
        } else if next / (1.0 - r) <= tau {
            true
        } else {
            poisson_tail(next, lambda, kf + 1.0) <= tau
        };
        if at_most_tau {
            return Some(kf);
        }
        pk = next;
        cdf += next;
    }
    None
}

/// 1/k for k up to [`POISSON_WALK_MAX`] + 1 (1/0 taken as 0): the walk
/// multiplies instead of dividing on its chain of dependent steps.
static RECIPROCALS: [f64; POISSON_WALK_MAX + 2] = {
    let mut r = [0.0f64; POISSON_WALK_MAX + 2];
    let mut k = 1;
    while k < r.len() {
        r[k] = 1.0 / k as f64;
        k += 1;
    }
    r
};

/// P(N ≥ j) for N ~ Poisson(`lambda`) from `first` = P(N = j), j > 2λ − 2:
/// the terms fall at least by half each step, and the sum stops where they
/// no longer change it (or are not positive: never a NaN's endless loop).
fn poisson_tail(first: f64, lambda: f64, j: f64) -> f64 {
    let (mut term, mut sum, mut j) = (first, 0.0f64, j);
    while term > 0.0 && sum + term != sum {
        sum += term;
        j += 1.0;
        term *= lambda / j;
    }
    sum
}

/// The lower bound on X's quantile at tail `tau` from one request of the
/// dimension's streams: the costliest v with P(S ≥ v) ≥ τ / (1 − e^{−λ})
/// for some stream, since P(X ≥ v) ≥ (1 − e^{−λ})·P(S ≥ v).
fn one_request(comps: &[Component<'_>], which: &dyn Fn(&Component<'_>) -> bool, tau: f64) -> f64 {
    comps
        .iter()
        .filter(|c| which(c) && c.lambda > 0.0)
        .map(|c| c.severity.at_least_with(tau / -(-c.lambda).exp_m1()))
        .fold(0.0f64, f64::max)
}

/// A cold server's draws ([`ColdBound::draw`]): its outcome so far and each
/// limit dimension's tail.
pub(super) type ColdDraws = (Outcome, [f64; 3]);

/// Chernoff's bound for the same sum, over the θ grid of the severities'
/// moment generating functions: P(X ≥ x) ≤ exp(ln E[e^{θX}] − θx) with
/// ln E[e^{θX}] = Σ λ·(E[e^{θS}] − 1) (compound Poisson), so over W windows
/// P(max X ≥ x) ≤ ε for x = (ln E[e^{θX}] + c)/θ, c = ln(W/ε); the least
/// such x over the grid (any θ gives a valid bound). Far tighter than
/// Bernstein's where a few costly requests could, in Bernstein's terms,
/// reach the limit (b·c/3 with b the largest cost).
fn chernoff(comps: &[Component<'_>], which: &dyn Fn(&Component<'_>) -> bool, c: f64) -> f64 {
    // The dimension's (rate, E[e^{θS}] − 1) pairs, taken once for the
    // search's sums (in the components' order, as each sum was taken).
    const HELD: usize = 8;
    let mut held = comps.iter().filter(|x| which(x) && x.lambda > 0.0);
    let Some(first) = held.clone().next() else {
        // No streams: ln E[e^{θX}] = 0 (the sum over none).
        return chernoff_least(c, chernoff_start(c, 0.0, 0.0), |_| 0.0);
    };
    let mut pairs = [(0.0, first.severity.mgf()); HELD];
    let mut n = 0;
    let (mut kappa2, mut most) = (0.0f64, 0.0f64);
    for x in held.by_ref() {
        kappa2 += x.lambda * x.severity.raw_moments()[1];
        most = most.max(x.severity.max());
        if n < HELD {
            pairs[n] = (x.lambda, x.severity.mgf());
        }
        n += 1;
    }
    let start = chernoff_start(c, kappa2, most);
    if n > HELD {
        // More streams on one server than held: each sum filters anew.
        return chernoff_least(c, start, |k| {
            comps
                .iter()
                .filter(|x| which(x) && x.lambda > 0.0)
                .map(|x| x.lambda * x.severity.mgf().at(k))
                .sum()
        });
    }
    let pairs = &pairs[..n];
    chernoff_least(c, start, |k| {
        pairs.iter().map(|&(lam, m)| lam * m.at(k)).sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributions::severity::Severity;

    #[test]
    fn bounds_of_a_poisson_count() {
        // Unit costs, λ = 4 per window, W = 3,600: c = ln(3,600 / 1e-9) =
        // 28.912. Bernstein: t = c/3 + √((c/3)² + 8c) = 9.637 + √(92.88 +
        // 231.30) = 27.642, a bound of 31.642 units. Chernoff on the grid
        // θ = 2^{k/2}: (4·(e^θ − 1) + c)/θ is 29.25 at θ = √2, 27.234 at
        // θ = 2 and 32.7 at 2√2: the bound is 27.234 units.
        // P(Poisson(4) ≥ 28) ≈ 4.3e-15 ≤ ε / W = 2.8e-13: it holds.
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
        assert!((b.write_utilization - 0.272_34).abs() < 1e-5, "{b:?}");
        assert!((b.mean_write_utilization - 0.04).abs() < 1e-12);
        // Requests of one cost, 4 a window, bounded below the limit: the
        // cold draw is the full draw's (exact), cold whatever peak the
        // others reach; never at or over the limit.
        assert!(b.exact);
        assert!(b.is_cold(0.3, 0.3));
        assert!(b.is_cold(0.25, 0.25));
        let tight = Limits {
            write: Some(27.0),
            ..Limits::default()
        };
        let at_limit = ColdBound::new(&comps, &tight, 3600);
        assert!(!at_limit.exact && !at_limit.is_cold(2.0, 2.0));
        // 40 a window, past the Poisson walk's 32: cold only below the
        // peak the others reach.
        let busy = [Component {
            lambda: 40.0,
            ..comps[0]
        }];
        let b = ColdBound::new(&busy, &limits, 3600);
        assert!(!b.exact && b.write_utilization < 1.0, "{b:?}");
        assert!(b.is_cold(b.utilization + 0.01, b.utilization + 0.01));
        assert!(!b.is_cold(b.utilization - 0.01, b.utilization - 0.01));
    }

    /// 99% of requests costing 1 unit and 1% costing 40.
    fn rare_costly() -> Severity {
        let mut costs = vec![1.0; 99];
        costs.push(40.0);
        Severity::from_samples(costs)
    }

    /// Reads of costs `s`, `lambda` a window.
    fn reads(s: &Severity, lambda: f64) -> Component<'_> {
        Component {
            lambda,
            severity: s,
            is_write: false,
        }
    }

    /// A read limit of 1,000 units a window.
    const READS_OF_1000: Limits = Limits {
        read: Some(1000.0),
        write: None,
        combined: None,
    };

    #[test]
    fn chernoff_is_far_tighter_than_bernstein_with_rare_costly_requests() {
        // λ = 0.15 requests per window, 99% costing 1 unit and 1% costing
        // 40, W = 3,600, c = 28.912: Bernstein's bound is μ + b·c/3 + … ≥
        // 0.21 + 40 · 28.912 / 3 = 385.7 units. Chernoff's least on the grid
        // is at θ = 2^{-5/2} = 0.17678: (0.15·(0.99·(e^θ − 1) + 0.01·(e^{40θ}
        // − 1)) + c)/θ = (0.15·(0.1914 + 11.764) + c)/0.17678 = 173.69
        // units.
        let s = rare_costly();
        let comps = [reads(&s, 0.15)];
        let limits = READS_OF_1000;
        let c = (3600.0f64 / COLD_EPSILON).ln();
        let bernstein = 0.15 * s.raw_moments()[0] + 40.0 * c / 3.0;
        let b = ColdBound::new(&comps, &limits, 3600);
        let bound = b.utilization * 1000.0;
        assert!((bound - 173.695).abs() < 1e-2, "{bound}");
        assert!(bound < 0.5 * bernstein, "{bound} vs {bernstein}");
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

    #[test]
    fn a_cold_peak_of_rare_costly_requests_lies_between_its_bounds() {
        // λ = 0.15 requests per window, 99% costing 1 unit and 1% costing
        // 40, W = 3,600. The largest window's median: P(X ≤ x)^3600 = ½,
        // so P(X > x) = 1.93e-4; a window holds a 40-unit request with
        // probability (1 − e^{−0.15}) · 0.01 = 1.39e-3, over 7 times that,
        // so the median peak is at least 40 units. Cornish–Fisher's skewness
        // (≈ 15) term drives that quantile below 0; the one-request bound
        // lifts the draw to 40, and Chernoff's bound on the quantile caps
        // it.
        let s = rare_costly();
        let comps = [reads(&s, 0.15)];
        let limits = READS_OF_1000;
        let b = ColdBound::new(&comps, &limits, 3600);
        let tail = 1.0 - 0.5f64.powf(1.0 / 3600.0);
        let cf = cornish_fisher_upper_quantile(&b.dims[0].expect("read").kappa, tail);
        let ch = chernoff(&comps, &ColdBound::WHICH[0], -tail.ln());
        assert!(cf < 40.0, "{cf}");
        assert!((40.0..120.0).contains(&ch), "{ch}");
        assert_eq!(s.at_least_with(tail / -(-0.15f64).exp_m1()), 40.0);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut peaks: Vec<f64> = (0..2001)
            .map(|_| b.outcome(&comps, 3600, &mut rng).peak_utilization * 1000.0)
            .collect();
        peaks.sort_by(f64::total_cmp);
        assert!((40.0..=ch).contains(&peaks[1000]), "{}", peaks[1000]);
        assert!(peaks[2000] <= b.utilization * 1000.0);
    }

    #[test]
    fn a_peak_below_one_request_needs_no_chernoff_bound() {
        // peaks_into takes one request's cost where Cornish–Fisher falls
        // below it, without Chernoff's bound: the same peak as the whole
        // clamp (Chernoff's bound is never below one request) over light
        // and heavy loads of near-even, rare-costly and spread costs, reads
        // and writes, every dimension, and tails from 10⁻¹² to ½. (Requests
        // of one cost take the Poisson quantile instead: the tests below.)
        let even = Severity::from_samples(vec![2.0, 2.0, 2.0, 4.0]);
        let rare = rare_costly();
        let spread = Severity::from_samples((1..=275).map(f64::from).collect());
        let limits = Limits {
            read: Some(3000.0),
            write: Some(1000.0),
            combined: Some(3500.0),
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut fast, mut checked) = (0, 0);
        for s in [&even, &rare, &spread] {
            for lambda in [1e-4, 0.003, 0.05, 0.3, 1.1, 4.0, 40.0] {
                let comps = [
                    reads(s, lambda),
                    Component {
                        lambda: lambda / 3.0,
                        severity: &even,
                        is_write: true,
                    },
                ];
                let b = ColdBound::new(&comps, &limits, 3600);
                for _ in 0..200 {
                    let tails: [f64; 3] =
                        std::array::from_fn(|_| 10f64.powf(-12.0 * rng.random::<f64>()).min(0.5));
                    let mut draws = (Outcome::default(), tails);
                    b.peaks_into(&comps, &mut draws);
                    // The whole clamp, every dimension.
                    let mut want = Outcome::default();
                    for ((d, &tail), which) in b.dims.iter().zip(&tails).zip(ColdBound::WHICH) {
                        let Some(d) = d else { continue };
                        let one = one_request(&comps, &which, tail);
                        let above = chernoff(&comps, &which, -tail.ln()).min(d.bound);
                        let cf = cornish_fisher_upper_quantile(&d.kappa, tail);
                        assert!(above >= one || one > d.bound, "{above} < {one}");
                        fast += usize::from(cf < one && one <= d.bound);
                        checked += 1;
                        let util = cf.clamp(one.min(above), above).max(0.0) / d.limit;
                        want.peak_utilization = want.peak_utilization.max(util);
                        if d.is_write {
                            want.write_peak_utilization = util;
                        }
                    }
                    assert_eq!(draws.0.peak_utilization, want.peak_utilization);
                    assert_eq!(draws.0.write_peak_utilization, want.write_peak_utilization);
                }
            }
        }
        // Both paths are taken.
        assert!(
            fast > checked / 10 && fast < checked * 9 / 10,
            "{fast} of {checked}"
        );
    }

    /// The least k with P(N > k) ≤ τ, by P(N = j) = exp(j·ln λ − λ −
    /// ln j!) summed from far in the tail down (another route than the
    /// walk's), and P(N > k) there for the test to see how close τ is.
    fn poisson_quantile_by_sums(lambda: f64, tau: f64) -> (f64, f64) {
        let top = 2_000usize;
        let mut ln_fact = vec![0.0f64; top + 1];
        for j in 1..=top {
            ln_fact[j] = ln_fact[j - 1] + (j as f64).ln();
        }
        let pmf = |j: usize| (j as f64 * lambda.ln() - lambda - ln_fact[j]).exp();
        // above[k] = P(N > k), summed from the top down.
        let mut above = vec![0.0f64; top + 1];
        for k in (0..top).rev() {
            above[k] = above[k + 1] + pmf(k + 1);
        }
        let k = (0..top)
            .find(|&k| above[k] <= tau)
            .expect("within the sums");
        (k as f64, above[k])
    }

    #[test]
    fn poisson_quantiles_match_tables_and_direct_sums() {
        // Poisson(4): P(N > 7) = 0.0511, P(N > 8) = 0.0214, P(N > 9) =
        // 0.0081 (standard tables): the quantile at τ = 0.05 is 8, at 0.01
        // is 9. Poisson(0.3): P(N > 0) = 0.2592, so τ = 0.3 gives 0.
        assert_eq!(poisson_upper_quantile(4.0, 0.05), Some(8.0));
        assert_eq!(poisson_upper_quantile(4.0, 0.01), Some(9.0));
        assert_eq!(poisson_upper_quantile(0.3, 0.3), Some(0.0));
        assert_eq!(poisson_upper_quantile(32.5, 0.01), None);
        assert_eq!(poisson_upper_quantile(f64::NAN, 0.01), None);
        // Every mean and tail against the sums from the top, bar a tail
        // within 10⁻⁹ of a survival (where rounding may pick either).
        let (mut checked, mut series) = (0, 0);
        for lambda in [
            1e-6, 1e-3, 0.05, 0.3, 0.5, 0.9, 1.0, 2.5, 7.0, 16.0, 31.9, 32.0,
        ] {
            for e in 0..=60 {
                let tau = 10f64.powf(-0.25 * e as f64).min(1.0 - 1e-16);
                let (want, survival) = poisson_quantile_by_sums(lambda, tau);
                let got = poisson_upper_quantile(lambda, tau).expect("λ ≤ 32");
                let (_, below) = poisson_quantile_by_sums(lambda, tau * (1.0 + 1e-9));
                if (survival / tau - 1.0).abs() < 1e-9 || below > tau {
                    continue;
                }
                assert_eq!(got, want, "λ = {lambda}, τ = {tau}");
                checked += 1;
                series += usize::from(want + 2.0 > 2.0 * lambda);
            }
        }
        // Both the subtraction and the series decide some of them.
        assert!(
            checked > 700 && series > 100 && series < checked,
            "{checked} {series}"
        );
    }

    #[test]
    fn a_cold_peak_of_one_cost_is_the_largest_window_in_distribution() {
        // 0.3 writes of 2 WCU a window over 1,800 windows: the largest
        // window's count has P(max ≤ k) = P(N ≤ k)^1800, so P(max ≤ 2) =
        // 0.99640^1800 = 0.0015, P(max ≤ 3) = 0.99973^1800 = 0.619,
        // P(max ≤ 4) = 0.999984^1800 = 0.971. Cold peaks against 2,000
        // drawn maxima of 1,800 Poisson windows: the same frequencies, and
        // every peak a whole number of writes.
        use rand_distr::{Distribution, Poisson};
        let s = Severity::from_samples(vec![2.0; 4]);
        let comps = [Component {
            lambda: 0.3,
            severity: &s,
            is_write: true,
        }];
        let limits = Limits {
            write: Some(1000.0),
            ..Limits::default()
        };
        let b = ColdBound::new(&comps, &limits, 1800);
        // Cold whatever peak another partition reaches (exact), and
        // nothing throttled.
        assert!(b.exact && b.is_cold(0.0, 0.0));
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let n = 4000;
        let (mut cold, mut drawn) = ([0usize; 8], [0usize; 8]);
        let poisson = Poisson::new(0.3).expect("λ > 0");
        for _ in 0..n {
            let o = b.outcome(&comps, 1800, &mut rng);
            assert_eq!(o.throttled_units, 0.0);
            let peak = o.write_peak_utilization * 1000.0 / 2.0;
            assert_eq!(peak, peak.round(), "{peak}");
            cold[(peak as usize).min(7)] += 1;
            let max = (0..1800)
                .map(|_| poisson.sample(&mut rng))
                .fold(0.0f64, f64::max);
            drawn[(max as usize).min(7)] += 1;
        }
        for k in 0..8 {
            let (c, d) = (cold[k] as f64 / n as f64, drawn[k] as f64 / n as f64);
            assert!((c - d).abs() < 0.03, "count {k}: cold {c} drawn {d}");
        }
        let at_most_3 = cold[..=3].iter().sum::<usize>() as f64 / n as f64;
        assert!((at_most_3 - 0.619).abs() < 0.03, "{at_most_3}");
    }
    use rand::SeedableRng;
}
