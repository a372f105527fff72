//! Capacity units per request, as a distribution: item sizes are drawn once
//! per scenario (from a stream fixed by the seed) and costed by the store
//! model, so a request's units can later be drawn in O(1).

use super::normal::normal_quantile;
use crate::scenario::{CountDist, SizeDist};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

/// Samples kept per severity distribution.
pub const SEVERITY_SAMPLES: usize = 65_536;
/// Item sizes drawn at most per severity distribution: requests returning many
/// items keep fewer samples (their summed cost varies less), at least 4,096.
pub const SEVERITY_MAX_ITEM_DRAWS: f64 = 4_194_304.0;

/// Units per request: an empirical distribution of up to [`SEVERITY_SAMPLES`]
/// costed requests (single-item costs: the mean's sampling error is ≈ 0.4% of
/// the standard deviation of one request's cost).
#[derive(Clone, PartialEq)]
pub struct Severity {
    samples: Vec<f64>,
    /// Mean units per request.
    pub mean: f64,
    /// Variance of units per request.
    pub variance: f64,
    /// Whether every request costs the same (`samples` all equal).
    pub constant: bool,
    /// Distinct costs with their probabilities, ascending.
    distinct: Vec<(f64, f64)>,
    /// E[S], E[S²], E[S³], E[S⁴].
    raw: [f64; 4],
    /// E[e^{θS}] − 1 on [`mgf_theta`]'s grid, computed on first use.
    mgf: Derived<std::sync::Arc<MgfGrid>>,
    /// [`Severity::lattice`], computed on first use.
    lattice: Derived<[Option<u64>; LATTICE_STEPS.len()]>,
    /// P(S ≥ v) for each distinct cost v, computed on first use.
    survival: Derived<Vec<f64>>,
    /// P(S ≤ v) for each distinct cost v, computed on first use.
    cumulative: Derived<Vec<f64>>,
    /// [`Severity::on_step`]'s pmfs, by the step's bits.
    on_steps: Derived<std::sync::Mutex<Vec<(u64, OnStep)>>>,
    /// [`Severity::digest`], computed on first use.
    digest: Derived<u128>,
}

/// A severity's costs as a sparse pmf on a lattice, (index, probability)
/// ascending ([`Severity::on_step`]); None where the costs do not fit.
pub type OnStep = Option<std::sync::Arc<Vec<(usize, f64)>>>;

/// Points of the θ grid of [`Severity::mgf`].
pub const MGF_GRID: usize = 81;

/// The k-th θ of the grid: 2^{(k − 40)/2}, from 2⁻²⁰ to 2²⁰ per unit of
/// cost, so that θ·cost spans every scale a Chernoff bound needs.
pub fn mgf_theta(k: usize) -> f64 {
    mgf_thetas()[k.min(MGF_GRID - 1)]
}

/// The whole θ grid of [`mgf_theta`], for a search that reads it often.
pub fn mgf_thetas() -> &'static [f64; MGF_GRID] {
    static THETA: std::sync::LazyLock<[f64; MGF_GRID]> =
        std::sync::LazyLock::new(|| std::array::from_fn(|k| ((k as f64 - 40.0) / 2.0).exp2()));
    &THETA
}

/// MGF grids kept by their costs ([`Severity::mgf`]), 81
/// numbers each; the store empties when full.
pub const MGF_KEPT: usize = 1024;

/// The points of a severity's MGF grid computed so far ([`Severity::mgf`]):
/// each the bits of E[e^{θₖS}] − 1, or [`MGF_UNSET`].
pub struct MgfGrid {
    points: [std::sync::atomic::AtomicU64; MGF_GRID],
}

/// A grid point not computed yet: a NaN no sum of products writes.
const MGF_UNSET: u64 = 0x7ff8_dead_beef_0001;

impl Default for MgfGrid {
    fn default() -> MgfGrid {
        MgfGrid {
            points: std::array::from_fn(|_| std::sync::atomic::AtomicU64::new(MGF_UNSET)),
        }
    }
}

/// A severity's MGF grid ([`Severity::mgf`]).
#[derive(Clone, Copy)]
pub struct Mgf<'a> {
    severity: &'a Severity,
    grid: &'a MgfGrid,
}

impl Mgf<'_> {
    /// E[e^{θₖS}] − 1 at grid point `k` (below [`MGF_GRID`]).
    #[inline]
    pub fn at(&self, k: usize) -> f64 {
        use std::sync::atomic::Ordering::Relaxed;
        let bits = self.grid.points[k].load(Relaxed);
        if bits != MGF_UNSET {
            return f64::from_bits(bits);
        }
        let v = self.severity.mgf_point(k);
        self.grid.points[k].store(v.to_bits(), Relaxed);
        v
    }

    /// Whether two severities' grids are one (shared).
    pub fn shares_with(&self, other: &Mgf<'_>) -> bool {
        std::ptr::eq(self.grid, other.grid)
    }
}

/// The lattice steps a severity's costs are tried on, coarsest first
/// ([`Severity::lattice`]).
pub const LATTICE_STEPS: [f64; 6] = [1.0, 0.5, 0.25, 0.1, 0.05, 0.01];

/// Lattice indices from here on count in no lattice's divisor
/// ([`Severity::lattice`]): a cost this many steps up is past what a pmf
/// on the lattice can hold.
pub const LATTICE_MAX_INDEX: usize = 400_000;

/// Something derived from a severity's costs, kept once computed (the MGF
/// grid, the lattices): it never tells two severities apart (`PartialEq`,
/// `Debug`), and clones share it (their costs are the same, and private):
/// the plans of a run's checkpoints and variants take clones of one
/// remembered severity, and each computed its own MGF grid (81 θ × every
/// distinct cost: 65,536 costs of a size range, 5 million `exp_m1`, half of
/// a Cosmos DB design's CPU).
struct Derived<T>(std::sync::Arc<std::sync::OnceLock<T>>);

impl<T> Default for Derived<T> {
    fn default() -> Derived<T> {
        Derived(std::sync::Arc::new(std::sync::OnceLock::new()))
    }
}

impl<T> Clone for Derived<T> {
    fn clone(&self) -> Derived<T> {
        Derived(std::sync::Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Derived<T>) -> bool {
        true
    }
}

impl<T> std::fmt::Debug for Derived<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("derived")
    }
}

/// The samples as their count and a 128-bit digest of their bits (two
/// independent 64-bit mixes), not 65,536 numbers: the Debug text tells two
/// severities apart (src/engine/reuse.rs compares tables by it) in
/// microseconds rather than milliseconds.
impl std::fmt::Debug for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Severity")
            .field("samples", &self.samples.len())
            .field("digest", &format_args!("{:032x}", self.digest()))
            .field("mean", &self.mean)
            .field("variance", &self.variance)
            .field("constant", &self.constant)
            .finish_non_exhaustive()
    }
}

impl Severity {
    /// Builds the distribution from costed samples.
    pub fn from_samples(samples: Vec<f64>) -> Severity {
        let n = samples.len().max(1) as f64;
        let constant = samples.iter().all(|&x| x == samples[0]);
        // One cost (a fixed item size) is its own mean: summed over
        // thousands of samples, 4.95 RU came to 4.950000000006107.
        let mean = match samples.first() {
            Some(&x) if constant => x,
            _ => samples.iter().sum::<f64>() / n,
        };
        let variance = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        let mut sorted = samples.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let mut distinct: Vec<(f64, f64)> = Vec::new();
        for x in sorted {
            match distinct.last_mut() {
                Some((v, c)) if *v == x => *c += 1.0,
                _ => distinct.push((x, 1.0)),
            }
        }
        for d in &mut distinct {
            d.1 /= n;
        }
        let mut raw = [0.0; 4];
        for &(v, p) in &distinct {
            raw[0] += p * v;
            raw[1] += p * v * v;
            raw[2] += p * v * v * v;
            raw[3] += p * v * v * v * v;
        }
        Severity {
            samples,
            mean,
            variance,
            constant,
            distinct,
            raw,
            mgf: Derived::default(),
            lattice: Derived::default(),
            survival: Derived::default(),
            cumulative: Derived::default(),
            on_steps: Derived::default(),
            digest: Derived::default(),
        }
    }

    /// A 128-bit digest of the samples' bits (two independent 64-bit
    /// mixes, as the Debug text shows), computed once: what tells this
    /// severity's costs apart from another's where something built from
    /// them is kept for later (the engine keeps window distributions by
    /// their streams' rates and costs).
    pub fn digest(&self) -> u128 {
        *self.digest.0.get_or_init(|| {
            let (mut a, mut b) = (0x9e37_79b9_7f4a_7c15_u64, 0xc2b2_ae3d_27d4_eb4f_u64);
            for x in &self.samples {
                let v = x.to_bits();
                a = (a ^ v).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
                b = (b.rotate_left(31) ^ v).wrapping_mul(0xff51_afd7_ed55_8ccd);
            }
            (u128::from(a) << 64) | u128::from(b)
        })
    }

    /// E[e^{θS}] − 1 on the θ grid ([`mgf_theta`], [`MGF_GRID`] points;
    /// +∞ where it overflows), each point computed when first asked and
    /// kept: the compound Poisson sum of rate λ has ln E[e^{θX}] =
    /// λ·(E[e^{θS}] − 1), and Chernoff's walk asks a few points near its
    /// start, where the whole grid is 81 × the distinct costs (65,536 for a
    /// range of sizes).
    ///
    /// Severities of the same costs share one grid, whatever built them (a
    /// variant's store or table drawing the same sizes' costs): kept by the
    /// costs' count and digest, up to [`MGF_KEPT`] grids.
    pub fn mgf(&self) -> Mgf<'_> {
        let grid = self.mgf.0.get_or_init(|| {
            type Grids = std::collections::HashMap<(usize, u128), std::sync::Arc<MgfGrid>>;
            static GRIDS: std::sync::Mutex<Option<Grids>> = std::sync::Mutex::new(None);
            let key = (self.samples.len(), self.digest());
            let mut held = GRIDS.lock().unwrap_or_else(|e| e.into_inner());
            let m = held.get_or_insert_with(Grids::new);
            if let Some(g) = m.get(&key) {
                return std::sync::Arc::clone(g);
            }
            if m.len() >= MGF_KEPT {
                m.clear();
            }
            let grid = std::sync::Arc::new(MgfGrid::default());
            m.insert(key, std::sync::Arc::clone(&grid));
            grid
        });
        Mgf {
            severity: self,
            grid,
        }
    }

    /// E[e^{θₖS}] − 1, computed.
    #[cold]
    fn mgf_point(&self, k: usize) -> f64 {
        let theta = mgf_theta(k);
        self.distinct
            .iter()
            .map(|&(v, p)| p * (theta * v).exp_m1())
            .sum::<f64>()
    }

    /// Units of one request.
    #[inline]
    pub fn sample_one<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.samples[rng.random_range(0..self.samples.len())]
    }

    /// Raw moments E[S], E[S²], E[S³], E[S⁴] of units per request.
    pub fn raw_moments(&self) -> [f64; 4] {
        self.raw
    }

    /// The largest cost of one request (0 without samples).
    pub fn max(&self) -> f64 {
        self.distinct.last().map_or(0.0, |d| d.0)
    }

    /// Distinct costs and their probabilities, ascending.
    pub fn pmf(&self) -> &[(f64, f64)] {
        &self.distinct
    }

    /// The costs on the lattice of step `step` as `build` puts them (a
    /// pure function of the costs and the step), built once per step and
    /// kept: a log-normal's tens of thousands of costs are put on a lattice
    /// for every server's window distribution, on a few steps.
    pub fn on_step(
        &self,
        step: f64,
        build: impl FnOnce(&Severity) -> Option<Vec<(usize, f64)>>,
    ) -> OnStep {
        let cache = self.on_steps.0.get_or_init(Default::default);
        let bits = step.to_bits();
        if let Some((_, v)) = cache
            .lock()
            .expect("not poisoned")
            .iter()
            .find(|e| e.0 == bits)
        {
            return v.clone();
        }
        let built = build(self).map(std::sync::Arc::new);
        let mut held = cache.lock().expect("not poisoned");
        if !held.iter().any(|e| e.0 == bits) {
            held.push((bits, built.clone()));
        }
        built
    }

    /// The largest cost v with P(S ≥ v) ≥ `tail` (0 when even the
    /// cheapest falls short: `tail` > 1).
    pub fn at_least_with(&self, tail: f64) -> f64 {
        let survival = self.survival.0.get_or_init(|| {
            let mut above = 0.0;
            let mut s: Vec<f64> = self
                .distinct
                .iter()
                .rev()
                .map(|&(_, p)| {
                    above += p;
                    above
                })
                .collect();
            s.reverse();
            s
        });
        // Survivals fall as costs rise: the last at or above the tail.
        match survival.partition_point(|&s| s >= tail) {
            0 => 0.0,
            k => self.distinct[k - 1].0,
        }
    }

    /// The largest of `k` requests' costs (0 for none), in one draw: the
    /// largest of k independent draws has cdf F(v)^k, so it is the smallest
    /// cost v with F(v) > U^{1/k} for U uniform on [0, 1) (inversion of
    /// F^k). A light server's windows of one request each peak at their
    /// largest cost.
    pub fn largest_of<R: Rng + ?Sized>(&self, k: u64, rng: &mut R) -> f64 {
        if k == 0 || self.distinct.is_empty() {
            return 0.0;
        }
        let cumulative = self.cumulative.0.get_or_init(|| {
            let mut below = 0.0;
            self.distinct
                .iter()
                .map(|&(_, p)| {
                    below += p;
                    below
                })
                .collect()
        });
        let u: f64 = rng.random();
        let top = if k == 1 { u } else { u.powf(1.0 / k as f64) };
        let j = cumulative.partition_point(|&c| c <= top);
        self.distinct[j.min(self.distinct.len() - 1)].0
    }

    /// For each step of [`LATTICE_STEPS`], whether every cost is a whole
    /// multiple j of it, and then the greatest common divisor of those j
    /// from 1 to below [`LATTICE_MAX_INDEX`] (0 when there are none):
    /// Some(gcd), else None. Computed once (a log-normal size's costs are
    /// thousands of distinct values, asked for every server's window).
    pub fn lattice(&self) -> &[Option<u64>; LATTICE_STEPS.len()] {
        self.lattice.0.get_or_init(|| {
            LATTICE_STEPS.map(|step| {
                let on = |v: f64| ((v / step) - (v / step).round()).abs() < 1e-9;
                self.distinct.iter().all(|&(v, _)| on(v)).then(|| {
                    self.distinct
                        .iter()
                        .map(|(v, _)| (v / step).round())
                        .filter(|&j| j >= 1.0 && j < LATTICE_MAX_INDEX as f64)
                        .fold(0u64, |g, j| gcd(g, j as u64))
                })
            })
        })
    }

    /// Units of `n` requests: exact sum of draws for small `n`, the normal
    /// approximation N(n·μ, n·σ²) (clamped at 0) beyond 32 requests.
    pub fn draw_sum<R: Rng + ?Sized>(&self, n: f64, rng: &mut R) -> f64 {
        if n <= 0.0 {
            return 0.0;
        }
        if self.constant {
            return n * self.mean;
        }
        if n <= 32.0 {
            let len = self.samples.len();
            (0..n as usize)
                .map(|_| self.samples[rng.random_range(0..len)])
                .sum()
        } else {
            let z: f64 = StandardNormal.sample(rng);
            (n * self.mean + z * (n * self.variance).sqrt()).max(0.0)
        }
    }
}

/// A [`SizeDist`] ready to draw many sizes: its log-normal σ worked out
/// once rather than per draw (the same draws as [`SizeDist::sample`]).
#[derive(Debug, Clone)]
pub struct SizeSampler {
    dist: SizeDist,
    sigma: f64,
}

impl SizeSampler {
    /// Draws one size, bytes.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self.dist {
            SizeDist::Fixed(b) => b,
            SizeDist::Uniform { min, max } => min + (max - min) * rng.random::<f64>(),
            SizeDist::LogNormal { median, .. } => {
                let z: f64 = StandardNormal.sample(rng);
                median * (self.sigma * z).exp()
            }
        }
    }
}

impl SizeDist {
    /// A sampler of this distribution for many draws.
    pub fn sampler(&self) -> SizeSampler {
        let sigma = match *self {
            SizeDist::LogNormal { median, p99 } => lognormal_sigma(median, p99),
            _ => 0.0,
        };
        SizeSampler {
            dist: self.clone(),
            sigma,
        }
    }

    /// Draws one size, bytes (for many, take a [`SizeDist::sampler`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        self.sampler().sample(rng)
    }

    /// Mean bytes: fixed b; uniform (min+max)/2; log-normal median·e^{σ²/2}.
    ///
    /// ```
    /// use keyheat::scenario::SizeDist;
    /// assert_eq!(SizeDist::Uniform { min: 1000.0, max: 3000.0 }.mean(), 2000.0);
    /// ```
    pub fn mean(&self) -> f64 {
        match *self {
            SizeDist::Fixed(b) => b,
            SizeDist::Uniform { min, max } => (min + max) / 2.0,
            SizeDist::LogNormal { median, p99 } => {
                let s = lognormal_sigma(median, p99);
                median * (s * s / 2.0).exp()
            }
        }
    }

    /// E[size²], bytes²: fixed b²; uniform (a²+ab+b²)/3; log-normal median²·e^{2σ²}.
    pub fn second_moment(&self) -> f64 {
        match *self {
            SizeDist::Fixed(b) => b * b,
            SizeDist::Uniform { min, max } => (min * min + min * max + max * max) / 3.0,
            SizeDist::LogNormal { median, p99 } => {
                let s = lognormal_sigma(median, p99);
                median * median * (2.0 * s * s).exp()
            }
        }
    }

    /// Quantile at probability `p` (0 < p < 1), bytes.
    pub fn quantile(&self, p: f64) -> f64 {
        match *self {
            SizeDist::Fixed(b) => b,
            SizeDist::Uniform { min, max } => min + (max - min) * p.clamp(0.0, 1.0),
            SizeDist::LogNormal { median, p99 } => {
                median * (lognormal_sigma(median, p99) * normal_quantile(p)).exp()
            }
        }
    }

    /// Quantile at 1 − `q` for a small upper-tail probability `q`, bytes (accurate for q ≪ 1).
    pub fn upper_quantile(&self, q: f64) -> f64 {
        match *self {
            SizeDist::LogNormal { median, p99 } => {
                median * (-lognormal_sigma(median, p99) * normal_quantile(q)).exp()
            }
            _ => self.quantile(1.0 - q),
        }
    }

    /// P(size > x).
    pub fn exceedance(&self, x: f64) -> f64 {
        match *self {
            SizeDist::Fixed(b) => {
                if b > x {
                    1.0
                } else {
                    0.0
                }
            }
            SizeDist::Uniform { min, max } => ((max - x) / (max - min)).clamp(0.0, 1.0),
            SizeDist::LogNormal { median, p99 } => {
                let s = lognormal_sigma(median, p99);
                if s == 0.0 {
                    return if median > x { 1.0 } else { 0.0 };
                }
                1.0 - super::normal::normal_cdf((x / median).ln() / s)
            }
        }
    }
}

/// σ of a log-normal with the given median and 99th percentile:
/// ln(p99 / median) / z₀.₉₉, z₀.₉₉ = 2.326 347 874.
pub fn lognormal_sigma(median: f64, p99: f64) -> f64 {
    (p99 / median).ln() / 2.326_347_874_040_841
}

impl CountDist {
    /// Mean count.
    pub fn mean(&self) -> f64 {
        self.as_size().mean()
    }

    /// Quantile at 1 − q (q small), count.
    pub fn upper_quantile(&self, q: f64) -> f64 {
        self.as_size().upper_quantile(q)
    }

    fn as_size(&self) -> SizeDist {
        match *self {
            CountDist::Fixed(x) => SizeDist::Fixed(x),
            CountDist::Uniform { min, max } => SizeDist::Uniform { min, max },
            CountDist::LogNormal { median, p99 } => SizeDist::LogNormal { median, p99 },
        }
    }
}

/// Greatest common divisor (gcd(0, b) = b).
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn one_cost_is_its_own_mean() {
        // A 1 KB Cosmos DB write, 4.95 RU, in every sample: summed 10,000
        // times in floating point it averaged 4.949999999999356.
        let s = Severity::from_samples(vec![4.95; 10_000]);
        assert_eq!(s.mean, 4.95);
        assert_eq!(s.variance, 0.0);
        assert_eq!(s.raw_moments()[0], 4.95);
        // Two costs keep the average of their samples.
        let two = Severity::from_samples(vec![1.0, 3.0]);
        assert_eq!((two.mean, two.variance), (2.0, 1.0));
    }

    #[test]
    fn severities_of_the_same_costs_share_one_mgf_grid() {
        // A clone (a plan's copy of a remembered severity) and a severity
        // built afresh from the same costs (a variant's) read the grid
        // computed once; its values are E[e^{θS}] − 1 at each θ, whichever
        // order the points are asked in.
        let costs: Vec<f64> = (0..4096).map(|i| 1.0 + f64::from(i) / 1365.0).collect();
        let a = Severity::from_samples(costs.clone());
        let b = a.clone();
        let grid = a.mgf();
        assert!(grid.shares_with(&b.mgf()));
        let c = Severity::from_samples(costs.clone());
        assert!(grid.shares_with(&c.mgf()));
        let other = Severity::from_samples(costs.iter().map(|x| x * 2.0).collect());
        assert!(!grid.shares_with(&other.mgf()));
        for k in (0..MGF_GRID).rev().chain(0..MGF_GRID) {
            let theta = mgf_theta(k);
            let want: f64 = costs.iter().map(|&v| (theta * v).exp_m1()).sum::<f64>() / 4096.0;
            let m = c.mgf().at(k);
            assert!(
                (m - want).abs() <= 1e-12 * want.abs() || m == want,
                "θ = {theta}: {m} vs {want}"
            );
            assert_eq!(m.to_bits(), b.mgf().at(k).to_bits());
        }
        // Past e^{709} a point is +∞, kept as such.
        let huge = Severity::from_samples(vec![1e6; 2]);
        assert_eq!(huge.mgf().at(MGF_GRID - 1), f64::INFINITY);
        assert_eq!(huge.mgf().at(MGF_GRID - 1), f64::INFINITY);
    }

    #[test]
    fn a_lattice_pmf_is_built_once_per_step() {
        let s = Severity::from_samples(vec![1.5, 2.25]);
        let built = std::cell::Cell::new(0);
        let build = |s: &Severity| {
            built.set(built.get() + 1);
            Some(s.pmf().iter().map(|&(v, p)| (v as usize, p)).collect())
        };
        let a = s.on_step(0.5, build).expect("built");
        let b = s.on_step(0.5, build).expect("kept");
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        assert_eq!(*a, vec![(1, 0.5), (2, 0.5)]);
        assert!(s.on_step(0.25, |_| None).is_none());
        assert!(s.on_step(0.25, build).is_none(), "None is kept too");
        assert_eq!(built.get(), 1);
        let kept = s.clone().on_step(0.5, |_| None).expect("a clone shares it");
        assert!(std::sync::Arc::ptr_eq(&a, &kept));
    }

    #[test]
    fn the_costliest_reached_with_a_given_chance() {
        // P(S ≥ 1) = 1, P(S ≥ 2) = ½, P(S ≥ 40) = ¼.
        let s = Severity::from_samples(vec![1.0, 2.0, 40.0, 1.0]);
        assert_eq!(s.at_least_with(0.25), 40.0);
        assert_eq!(s.at_least_with(0.26), 2.0);
        assert_eq!(s.at_least_with(0.5), 2.0);
        assert_eq!(s.at_least_with(1.0), 1.0);
        assert_eq!(s.at_least_with(1.5), 0.0);
        assert_eq!(s.at_least_with(1e-9), 40.0);
    }

    #[test]
    fn lattices_are_the_whole_multiples_and_their_divisor() {
        // 1, 2.5 and 4 units: not whole on 1; on 0.5 as 2, 5, 8 (divisor
        // 1); on 0.25 as 4, 10, 16 (2); on 0.1 as 10, 25, 40 (5); on 0.05
        // (10); on 0.01 (50).
        let s = Severity::from_samples(vec![1.0, 2.5, 4.0, 2.5]);
        assert_eq!(
            *s.lattice(),
            [None, Some(1), Some(2), Some(5), Some(10), Some(50)]
        );
        // A cost 400,000 steps up or more counts in no divisor; 0.3 is
        // whole only on 0.1 and finer.
        let far = Severity::from_samples(vec![6.0, 9.0, 400_000.0]);
        assert_eq!(far.lattice()[0], Some(3));
        let odd = Severity::from_samples(vec![0.3]);
        assert_eq!(
            *odd.lattice(),
            [None, None, None, Some(3), Some(6), Some(30)]
        );
        // Kept once computed, and not carried by a clone.
        assert!(std::ptr::eq(s.lattice(), s.lattice()));
        assert_eq!(s.clone().lattice(), s.lattice());
    }

    #[test]
    fn a_sampler_draws_what_sample_draws() {
        for dist in [
            SizeDist::Fixed(2048.0),
            SizeDist::Uniform {
                min: 100.0,
                max: 900.0,
            },
            SizeDist::LogNormal {
                median: 20_000.0,
                p99: 100_000.0,
            },
        ] {
            // The draw written out: median·e^{σz}, σ = ln(p99/median)/z₀.₉₉.
            let by_hand = |rng: &mut Xoshiro256PlusPlus| match dist {
                SizeDist::Fixed(b) => b,
                SizeDist::Uniform { min, max } => min + (max - min) * rng.random::<f64>(),
                SizeDist::LogNormal { median, p99 } => {
                    let z: f64 = StandardNormal.sample(rng);
                    median * ((p99 / median).ln() / 2.326_347_874_040_841 * z).exp()
                }
            };
            let sampler = dist.sampler();
            let mut a = Xoshiro256PlusPlus::seed_from_u64(11);
            let (mut b, mut c) = (a.clone(), a.clone());
            for _ in 0..10_000 {
                let want = by_hand(&mut b).to_bits();
                assert_eq!(sampler.sample(&mut a).to_bits(), want, "{dist:?}");
                assert_eq!(dist.sample(&mut c).to_bits(), want, "{dist:?}");
            }
        }
    }

    #[test]
    fn debug_text_tells_severities_apart_by_every_sample() {
        // The reuse fingerprint compares tables by this text: the same
        // samples give the same text; one sample changed by one ulp, two
        // samples swapped (the same distribution, drawn in another order)
        // or one more sample each give another.
        let base: Vec<f64> = (0..65_536).map(|i| 1.0 + f64::from(i % 7) * 0.5).collect();
        let text = |xs: &[f64]| format!("{:?}", Severity::from_samples(xs.to_vec()));
        assert_eq!(text(&base), text(&base.clone()));
        let mut ulp = base.clone();
        ulp[40_000] = f64::from_bits(ulp[40_000].to_bits() + 1);
        let mut swapped = base.clone();
        swapped.swap(3, 4);
        let mut longer = base.clone();
        longer.push(1.0);
        for other in [ulp, swapped, longer] {
            assert_ne!(text(&base), text(&other));
        }
        assert!(text(&base).len() < 200, "{}", text(&base));
    }

    fn sample_moments(d: &SizeDist, n: usize) -> (f64, f64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let xs: Vec<f64> = (0..n).map(|_| d.sample(&mut rng)).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let m2 = xs.iter().map(|x| x * x).sum::<f64>() / n as f64;
        (m, m2)
    }

    #[test]
    fn size_samples_match_analytic_moments() {
        let n = 400_000;
        for d in [
            SizeDist::Fixed(1200.0),
            SizeDist::Uniform {
                min: 100.0,
                max: 900.0,
            },
            SizeDist::LogNormal {
                median: 1200.0,
                p99: 6000.0,
            },
        ] {
            let (m, m2) = sample_moments(&d, n);
            let var = d.second_moment() - d.mean() * d.mean();
            // Mean within 4 standard errors.
            let se = (var / n as f64).sqrt().max(1e-9);
            assert!(
                (m - d.mean()).abs() < 4.0 * se,
                "{d:?}: {m} vs {}",
                d.mean()
            );
            assert!(
                (m2 - d.second_moment()).abs() / d.second_moment() < 0.03,
                "{d:?}"
            );
        }
        // Log-normal median 1.2 KB, p99 6 KB: σ = ln 5 / 2.3263 = 0.691830, mean = 1200·e^{σ²/2} = 1524.45.
        let d = SizeDist::LogNormal {
            median: 1200.0,
            p99: 6000.0,
        };
        assert!((lognormal_sigma(1200.0, 6000.0) - 0.691_830).abs() < 1e-5);
        assert!((d.mean() - 1524.45).abs() < 0.01, "{}", d.mean());
        assert!((d.quantile(0.99) - 6000.0).abs() < 1e-3);
        assert!((d.exceedance(6000.0) - 0.01).abs() < 1e-6);
    }
}
