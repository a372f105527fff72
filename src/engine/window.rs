//! Units one server (a partition or a node) receives per window, and what
//! they do against its limits over a stretch of identical windows.
//!
//! Within a stationary stretch the windows are independent draws of one
//! compound Poisson variable X (requests Poisson, units per request from the
//! streams' cost distributions). Two ways to get a stretch's outcome:
//! - [`draw_windows`] draws every window (the representative trial, whose
//!   timeseries is charted, and the `--method windows` reference);
//! - [`collapsed`] computes the stretch in closed form: the peak window is the
//!   quantile of X at U^{1/W} (the maximum of W independent draws) and the
//!   throttled units are W·E[(X − L)⁺] with their CLT spread. X's
//!   distribution is exact (Panjer's recursion on the cost lattice) for up to
//!   [`PANJER_MAX_MEAN_REQUESTS`] requests per window, and Cornish–Fisher
//!   (normal with skewness and kurtosis corrections) beyond. A lattice
//!   wider than 8,192 points is made coarser, each cost's mass shared
//!   between its two neighbours there so its mean is kept (a resolution
//!   finer than 1/8,192 of X's range changes figures in their fourth
//!   digit; each window's expected excess E[(X − L)⁺] can only rise, by the
//!   spread's convex order). A stream of more than 64 distinct costs has
//!   them on a sparser set of points ([`on_cost_grid`]) the same way, and
//!   costs on no lattice are put on one ([`shared_severity`]).

use crate::distributions::normal::{normal_cdf, normal_quantile};
use crate::distributions::severity::{
    gcd, mgf_thetas, Severity, LATTICE_MAX_INDEX, LATTICE_STEPS, MGF_GRID,
};
use crate::store::hash::{fmix64, Premixed};
use rand::Rng;
use rand_distr::{Binomial, Distribution, Poisson, StandardNormal};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Largest mean requests per window for which X's distribution is computed exactly.
pub const PANJER_MAX_MEAN_REQUESTS: f64 = 600.0;
/// Largest lattice support of X computed by Panjer's recursion (on the
/// costs' lattice, before [`PANJER_FINE_POINTS`] coarsens it).
const PANJER_MAX_POINTS: usize = LATTICE_MAX_INDEX;
/// Most distinct costs of one stream taken point by point: a stream with
/// more ([`on_cost_grid`]) has its costs past the 32nd lattice point
/// shared between points about 1/16 apart in ratio.
const PANJER_MAX_COSTS: usize = 64;
/// Most points of X's pmf on the costs' own lattice: a wider support (a
/// fine lattice: Cosmos DB's 4.95 and 22.3 RU share only 0.05 RU, tens of
/// thousands of points a window) is computed on a lattice m times coarser
/// ([`dispersed`]) of at most this many points: a step of at most
/// 1/8,192 of X's computed range, the costs' means kept.
const PANJER_FINE_POINTS: usize = 8_192;

/// Fewest points [`fine_points`] coarsens a wide lattice to.
const PANJER_MIN_FINE_POINTS: usize = 2_048;

/// Steps a window's busy scale, mean + 4 standard deviations, spans at
/// least on a coarsened lattice: a peak there moves by at most a step,
/// 0.2% of it.
const STEPS_PER_BUSY_SCALE: f64 = 500.0;

/// Points a lattice over `range` units is coarsened to: [`PANJER_FINE_POINTS`],
/// or fewer (down to [`PANJER_MIN_FINE_POINTS`]) where a step of 1/500 of
/// the window's mean + 4 standard deviations already covers the range. A
/// heavily loaded server's windows (hundreds of RU a request, a few a
/// window) lie within a few such scales of 0, and its 8,192 points were
/// 4 times finer than its peak and excess need; a light server's range runs
/// far past its busy scale (its rare costly requests), and keeps them all.
fn fine_points(kappa: &[f64; 4], range: f64) -> usize {
    let scale = kappa[0] + 4.0 * kappa[1].max(0.0).sqrt();
    let wanted = (range / scale * STEPS_PER_BUSY_SCALE).ceil();
    if wanted.is_finite() && wanted > 0.0 {
        (wanted as usize).clamp(PANJER_MIN_FINE_POINTS, PANJER_FINE_POINTS)
    } else {
        PANJER_FINE_POINTS
    }
}

/// Most pmf points of the window distributions [`WindowUnits::kept`]
/// keeps at once (a point's mass, running sum and survival: 24 bytes, so
/// at most 48 MiB); past it the store is emptied and fills afresh.
const KEPT_POINTS: usize = 1 << 21;
/// Most hashes of streams built once that [`WindowUnits::kept`]
/// remembers (past it they are forgotten).
const KEPT_SEEN: usize = 1 << 16;
/// Fewest pmf points of a distribution worth keeping: a shorter one is
/// built about as fast as it is found.
const KEPT_MIN_POINTS: usize = 512;

/// One stream's requests on a server: mean requests per window and their costs.
#[derive(Debug, Clone, Copy)]
pub struct Component<'a> {
    /// Mean requests per window.
    pub lambda: f64,
    /// Units per request.
    pub severity: &'a Severity,
    /// Whether the units count against the write limit (else read).
    pub is_write: bool,
}

/// A server's limits in units per window.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Limits {
    /// Read units per window.
    pub read: Option<f64>,
    /// Write units per window.
    pub write: Option<f64>,
    /// Read + write units per window.
    pub combined: Option<f64>,
}

impl Limits {
    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        self.read.is_some() || self.write.is_some() || self.combined.is_some()
    }

    /// Utilization of one window's read and write units, and the units over the limits.
    pub fn apply(&self, r: f64, w: f64) -> (f64, f64) {
        let mut util: f64 = 0.0;
        let mut separate = 0.0;
        if let Some(l) = self.read {
            util = util.max(r / l);
            separate += (r - l).max(0.0);
        }
        if let Some(l) = self.write {
            util = util.max(w / l);
            separate += (w - l).max(0.0);
        }
        let mut combined = 0.0;
        if let Some(l) = self.combined {
            util = util.max((r + w) / l);
            combined = (r + w - l).max(0.0);
        }
        (util, f64::max(separate, combined))
    }
}

/// What a stretch of windows did on one server.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Outcome {
    /// Highest window utilization.
    pub peak_utilization: f64,
    /// Units over the limits, summed over windows.
    pub throttled_units: f64,
    /// Units requested, summed over windows.
    pub requested_units: f64,
    /// Requests, summed over windows.
    pub requests: f64,
    /// Highest window write units ÷ the separate write limit (0 without one).
    pub write_peak_utilization: f64,
    /// Write units over the separate write limit, summed over windows.
    pub throttled_write_units: f64,
    /// Write units requested, summed over windows.
    pub requested_write_units: f64,
}

impl Outcome {
    /// Combines two stretches.
    pub fn merge(&mut self, o: Outcome) {
        self.peak_utilization = self.peak_utilization.max(o.peak_utilization);
        self.throttled_units += o.throttled_units;
        self.requested_units += o.requested_units;
        self.requests += o.requests;
        self.write_peak_utilization = self.write_peak_utilization.max(o.write_peak_utilization);
        self.throttled_write_units += o.throttled_write_units;
        self.requested_write_units += o.requested_write_units;
    }

    /// Takes `spend` units of burst credit off the throttled units, the
    /// write part in proportion.
    pub fn spend_burst(&mut self, spend: f64) {
        if self.throttled_units > 0.0 {
            self.throttled_write_units *= (1.0 - spend / self.throttled_units).max(0.0);
        }
        self.throttled_units -= spend;
    }
}

impl Limits {
    /// One window's write units against the separate write limit:
    /// (utilization, units over it); (0, 0) without a write limit.
    pub fn write_excess(&self, w: f64) -> (f64, f64) {
        match self.write {
            Some(l) if l > 0.0 => (w / l, (w - l).max(0.0)),
            Some(_) => (if w > 0.0 { f64::INFINITY } else { 0.0 }, w),
            None => (0.0, 0.0),
        }
    }
}

/// Draws `windows` windows one by one; `record(i, utilization, units)` sees each.
pub fn draw_windows<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    limits: &Limits,
    windows: usize,
    rng: &mut R,
    record: &mut dyn FnMut(usize, f64, f64),
) -> Outcome {
    let samplers: Vec<Option<Poisson<f64>>> = comps
        .iter()
        .map(|c| {
            (c.lambda > 0.0)
                .then(|| Poisson::new(c.lambda).ok())
                .flatten()
        })
        .collect();
    let mut out = Outcome::default();
    for i in 0..windows {
        let (mut r, mut w) = (0.0, 0.0);
        for (c, s) in comps.iter().zip(&samplers) {
            let n: f64 = match s {
                Some(d) => d.sample(rng),
                None => 0.0,
            };
            out.requests += n;
            let u = c.severity.draw_sum(n, rng);
            if c.is_write {
                w += u;
            } else {
                r += u;
            }
        }
        let (util, over) = limits.apply(r, w);
        out.peak_utilization = out.peak_utilization.max(util);
        out.throttled_units += over;
        out.requested_units += r + w;
        let (w_util, w_over) = limits.write_excess(w);
        out.write_peak_utilization = out.write_peak_utilization.max(w_util);
        out.throttled_write_units += w_over;
        out.requested_write_units += w;
        record(i, util, r + w);
    }
    out
}

/// The distribution of one window's units on a server (one limit dimension).
#[derive(Debug, Clone)]
pub struct WindowUnits {
    /// Cumulants κ1..κ4 of X (compound Poisson: κ_k = Σ λ·E[S^k]).
    kappa: [f64; 4],
    /// Exact pmf on a lattice of step `step`, when computed.
    pmf: Option<(f64, Vec<f64>)>,
    /// With the pmf: its running sums P(X ≤ i·step) and, built on first
    /// use (only upper-tail quantiles read them), its running survivals
    /// 1 − Σ p (each summed in the pmf's order, so a lookup gives the same
    /// value a scan would).
    cum: Vec<f64>,
    sur: std::sync::OnceLock<Vec<f64>>,
    /// The first [`WindowUnits::excess`] asked, with its limit's bits: a
    /// server's every stretch asks it at the same limit (a hot partition's
    /// 240 timeseries steps would each sum the whole pmf).
    first_excess: std::sync::OnceLock<(u64, (f64, f64))>,
}

/// The window distributions [`WindowUnits::kept`] keeps, by a hash of
/// their streams (each rate's bits and cost distribution's digest, in
/// order) and then the streams themselves, and their pmfs' points in all.
#[derive(Default)]
struct Kept {
    by_streams: HashMap<u64, Vec<KeptUnits>, BuildHasherDefault<Premixed>>,
    points: usize,
    /// The hashes of the streams built once with a long pmf, not kept yet.
    seen: HashSet<u64, BuildHasherDefault<Premixed>>,
}

/// One kept distribution: its streams (each rate's bits and cost
/// distribution's digest) and the distribution.
type KeptUnits = (Vec<(u64, u128)>, Arc<WindowUnits>);

/// The kept window distributions of the whole process (its worker threads
/// share them), and whether any is kept (a server's build then skips the
/// lock: most tables never build a pmf long enough to keep).
static KEPT: std::sync::LazyLock<Mutex<Kept>> = std::sync::LazyLock::new(Mutex::default);
static KEPT_ANY: AtomicBool = AtomicBool::new(false);

impl WindowUnits {
    /// Builds the distribution of Σ components' units.
    pub fn new(comps: &[(f64, &Severity)]) -> WindowUnits {
        WindowUnits::built(comps, None)
    }

    /// [`WindowUnits::new`] with a wide lattice coarsened to at most
    /// `fine` points whatever [`fine_points`] would take.
    #[cfg(test)]
    fn with_fine_points(comps: &[(f64, &Severity)], fine: usize) -> WindowUnits {
        WindowUnits::built(comps, Some(fine))
    }

    /// [`WindowUnits::new`], its lattice's points capped at `fine` where set.
    fn built(comps: &[(f64, &Severity)], fine: Option<usize>) -> WindowUnits {
        let mut kappa = [0.0; 4];
        for (lam, s) in comps {
            for (k, m) in kappa.iter_mut().zip(s.raw_moments()) {
                *k += lam * m;
            }
        }
        let total: f64 = comps.iter().map(|(l, _)| l).sum();
        let pmf = if total > 0.0 && total <= PANJER_MAX_MEAN_REQUESTS {
            panjer(comps, total, &kappa, fine)
        } else {
            None
        };
        let mut cum = Vec::new();
        if let Some((_, pmf)) = &pmf {
            cum = running(pmf, 0.0, |c, p| c + p);
        }
        WindowUnits {
            kappa,
            pmf,
            cum,
            sur: std::sync::OnceLock::new(),
            first_excess: std::sync::OnceLock::new(),
        }
    }

    /// [`WindowUnits::new`], or the distribution built before for the same
    /// streams (each rate to the bit, each cost distribution by its
    /// [`Severity::digest`]) where its pmf was long enough to keep: a
    /// table's nodes, or its evenly loaded partitions, often carry the same
    /// streams segment after segment and trial after trial (a salted key's
    /// shards on Bigtable's nodes: 81,200 builds of 3 distributions), and a
    /// pmf of thousands of points is the costliest thing a server's draw
    /// builds. The distribution is a function of the streams alone, so
    /// what is kept never changes a figure.
    pub fn kept(comps: &[(f64, &Severity)]) -> Arc<WindowUnits> {
        let total: f64 = comps.iter().map(|(l, _)| l).sum();
        if !(total > 0.0 && total <= PANJER_MAX_MEAN_REQUESTS) {
            // Cornish–Fisher's four cumulants: nothing worth keeping.
            return Arc::new(WindowUnits::new(comps));
        }
        let streams = |i: usize| (comps[i].0.to_bits(), comps[i].1.digest());
        let hash = (0..comps.len()).fold(0x9e37_79b9_7f4a_7c15_u64, |h, i| {
            let (l, d) = streams(i);
            fmix64(h ^ fmix64(l ^ fmix64(d as u64 ^ fmix64((d >> 64) as u64))))
        });
        let store = || {
            KEPT.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if KEPT_ANY.load(Ordering::Relaxed) {
            let kept = store();
            let same = |(key, _): &&KeptUnits| {
                key.len() == comps.len() && (0..comps.len()).all(|i| key[i] == streams(i))
            };
            if let Some((_, x)) = kept.by_streams.get(&hash).and_then(|v| v.iter().find(same)) {
                return Arc::clone(x);
            }
        }
        let x = Arc::new(WindowUnits::new(comps));
        let points = x.pmf.as_ref().map_or(0, |(_, pmf)| pmf.len());
        if points >= KEPT_MIN_POINTS {
            let mut kept = store();
            // Kept the second time its streams are built: most servers'
            // streams are their own (a partition of a few keys of their own
            // rates), and keeping each one's pmf only spends memory.
            if kept.seen.len() >= KEPT_SEEN {
                kept.seen.clear();
            }
            if kept.seen.insert(hash) {
                return x;
            }
            if kept.points + points > KEPT_POINTS {
                kept.by_streams.clear();
                kept.points = 0;
            }
            let key = (0..comps.len()).map(streams).collect();
            kept.by_streams
                .entry(hash)
                .or_default()
                .push((key, Arc::clone(&x)));
            kept.points += points;
            KEPT_ANY.store(true, Ordering::Relaxed);
        }
        x
    }

    /// The running survivals 1 − Σ p of the pmf, in its order.
    fn survivals(&self, pmf: &[f64]) -> &[f64] {
        self.sur.get_or_init(|| running(pmf, 1.0, |s, p| s - p))
    }

    /// Mean units per window.
    pub fn mean(&self) -> f64 {
        self.kappa[0]
    }

    /// Variance of units per window.
    pub fn variance(&self) -> f64 {
        self.kappa[1]
    }

    /// P(X ≤ x).
    pub fn cdf(&self, x: f64) -> f64 {
        if let Some((step, pmf)) = &self.pmf {
            if x < 0.0 {
                return 0.0;
            }
            let k = ((x / step) + 1e-9).floor() as usize;
            let _ = pmf;
            return self.cum[k.min(self.cum.len() - 1)].min(1.0);
        }
        // Invert the Cornish–Fisher quantile by bisection on p.
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if self.quantile(mid) <= x {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Smallest x with P(X ≤ x) ≥ p.
    pub fn quantile(&self, p: f64) -> f64 {
        let p = p.clamp(0.0, 1.0);
        if let Some((step, pmf)) = &self.pmf {
            // The first running sum at or above p (running sums never decrease).
            let i = self.cum.partition_point(|&acc| acc < p - 1e-15);
            return i.min(pmf.len() - 1) as f64 * step;
        }
        self.upper_quantile(1.0 - p)
    }

    /// The upper-tail quantile: smallest x with P(X > x) ≤ `tail`.
    pub fn upper_quantile(&self, tail: f64) -> f64 {
        if self.kappa[0] <= 0.0 {
            return 0.0;
        }
        if let Some((step, pmf)) = &self.pmf {
            // The first running survival at or below the tail (they never increase).
            let i = self.survivals(pmf).partition_point(|&s| s > tail);
            return i.min(pmf.len() - 1) as f64 * step;
        }
        cornish_fisher_upper_quantile(&self.kappa, tail)
    }

    /// E[(X − limit)⁺] and Var[(X − limit)⁺].
    pub fn excess(&self, limit: f64) -> (f64, f64) {
        let (bits, moments) = *self
            .first_excess
            .get_or_init(|| (limit.to_bits(), self.excess_at(limit)));
        if bits == limit.to_bits() {
            moments
        } else {
            self.excess_at(limit)
        }
    }

    /// [`WindowUnits::excess`], computed.
    fn excess_at(&self, limit: f64) -> (f64, f64) {
        if let Some((step, pmf)) = &self.pmf {
            // Points at or below the limit add nothing: the sums start at
            // the first point above it (i·step never falls as i grows, so
            // the same points add, in the same order).
            let above = |i: usize| i as f64 * step - limit > 0.0;
            let mut first = ((limit / step).floor().max(0.0) as usize).min(pmf.len());
            while first > 0 && above(first - 1) {
                first -= 1;
            }
            while first < pmf.len() && !above(first) {
                first += 1;
            }
            let (mut m1, mut m2) = (0.0, 0.0);
            for (i, p) in pmf.iter().enumerate().skip(first) {
                let e = i as f64 * step - limit;
                if e > 0.0 {
                    m1 += e * p;
                    m2 += e * e * p;
                }
            }
            return (m1, (m2 - m1 * m1).max(0.0));
        }
        let (mu, sd) = (self.kappa[0], self.kappa[1].sqrt());
        if sd == 0.0 {
            let e = (mu - limit).max(0.0);
            return (e, 0.0);
        }
        // Normal: E[(X−L)⁺] = (μ−L)Φ(d) + σφ(d), E[((X−L)⁺)²] = ((μ−L)² + σ²)Φ(d) + (μ−L)σφ(d), d = (μ−L)/σ.
        let a = mu - limit;
        let d = a / sd;
        let phi = (-0.5 * d * d).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let cdf = normal_cdf(d);
        let m1 = (a * cdf + sd * phi).max(0.0);
        let m2 = ((a * a + sd * sd) * cdf + a * sd * phi).max(0.0);
        (m1, (m2 - m1 * m1).max(0.0))
    }
}

/// Running values of `step` over `pmf` from `start`, one per point, each
/// step taken in order: the running sums (or survivals) of a pmf. Points of
/// mass +0 leave a running value as it is (x − 0 is x for every x, and x +
/// 0 for every x ≥ +0, as running sums from +0 are), so they are not
/// stepped: a fine lattice's pmf (costs
/// sharing only a small step) is mostly +0 between the sums its costs can
/// make, and a running sum is a chain of dependent additions.
fn running(pmf: &[f64], start: f64, step: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let mut value = start;
    pmf.iter()
        .map(|&p| {
            if p.to_bits() != 0 {
                value = step(value, p);
            }
            value
        })
        .collect()
}

/// The Cornish–Fisher upper-tail quantile of a variable with cumulants
/// `kappa` (κ1..κ4): normal with skewness and kurtosis corrections, at least 0.
pub fn cornish_fisher_upper_quantile(kappa: &[f64; 4], tail: f64) -> f64 {
    let sd = kappa[1].sqrt();
    if sd == 0.0 {
        return kappa[0];
    }
    let g1 = kappa[2] / sd.powi(3);
    let g2 = kappa[3] / sd.powi(4);
    let z = -normal_quantile(tail);
    let w = z + (z * z - 1.0) * g1 / 6.0 + (z.powi(3) - 3.0 * z) * g2 / 24.0
        - (2.0 * z.powi(3) - 5.0 * z) * g1 * g1 / 36.0;
    (kappa[0] + sd * w).max(0.0)
}

/// A stretch's requested units, requests and expected write units: the
/// compound Poisson mean Σλ·E[S] and variance Σλ·E[S²] over `windows`
/// windows (normal), the requests' Poisson count (normal), both drawn
/// first from `rng` by every stretch of a server, cold or drawn in full.
pub fn requested<R: Rng + ?Sized>(comps: &[Component<'_>], windows: usize, rng: &mut R) -> Outcome {
    let w = windows as f64;
    let mut out = Outcome {
        requested_write_units: w * comps
            .iter()
            .filter(|c| c.is_write)
            .map(|c| c.lambda * c.severity.raw_moments()[0])
            .sum::<f64>(),
        ..Outcome::default()
    };
    let (mean, var) = comps.iter().fold((0.0, 0.0), |(m, v), c| {
        let [m1, m2, _, _] = c.severity.raw_moments();
        (m + c.lambda * m1, v + c.lambda * m2)
    });
    let z: f64 = StandardNormal.sample(rng);
    out.requested_units = (w * mean + z * (w * var).sqrt()).max(0.0);
    let lam: f64 = comps.iter().map(|c| c.lambda).sum();
    let z: f64 = StandardNormal.sample(rng);
    out.requests = (w * lam + z * (w * lam).sqrt()).max(0.0);
    out
}

/// The components' merged cost pmf on the lattice of step `step`, sparse:
/// (lattice index, mass), sorted by index, each index's masses summed in
/// the components' order (the stable sort keeps it). None when a cost lies
/// beyond the pmf's budget: the normal form is used instead (checked before
/// anything grows, so a huge cost never allocates).
fn lattice_severity(
    comps: &[(f64, &Severity)],
    total: f64,
    step: f64,
) -> Option<Vec<(usize, f64)>> {
    let mut sev: Vec<(usize, f64)> =
        Vec::with_capacity(comps.iter().map(|(_, s)| s.pmf().len()).sum());
    for (lam, s) in comps {
        for (v, p) in s.pmf() {
            let j = (v / step).round();
            if j.is_nan() || j >= PANJER_MAX_POINTS as f64 {
                return None;
            }
            sev.push((j as usize, lam / total * p));
        }
    }
    Some(merged(sev))
}

/// The components' merged cost pmf on the lattice of step `step`: each
/// component's costs as [`on_step`] puts them (kept by the severity, per
/// step), weighted by its share of the requests; None past the pmf's
/// budget.
fn shared_severity(comps: &[(f64, &Severity)], total: f64, step: f64) -> Option<Vec<(usize, f64)>> {
    let mut sev = Vec::new();
    for (lam, s) in comps {
        let own = s.on_step(step, |s| on_step(s, step))?;
        sev.extend(own.iter().map(|&(j, p)| (j, lam / total * p)));
    }
    Some(merged(sev))
}

/// A severity's costs on the lattice of step `step`, each cost v between
/// points k = ⌊v/step⌋ and k + 1 putting (k + 1 − v/step) of its mass on k
/// and the rest on k + 1, so that it keeps its mean (local moment matching,
/// as [`dispersed`]); past [`PANJER_MAX_COSTS`] distinct costs, on the
/// sparser points of [`on_cost_grid`]. None past the pmf's budget.
fn on_step(s: &Severity, step: f64) -> Option<Vec<(usize, f64)>> {
    let mut sev = Vec::with_capacity(2 * s.pmf().len());
    for (v, p) in s.pmf() {
        let x = v / step;
        let k = x.floor();
        if x.is_nan() || k + 1.0 >= PANJER_MAX_POINTS as f64 {
            return None;
        }
        share(&mut sev, (k as usize, k as usize + 1), x - k, *p);
    }
    let sev = merged(sev);
    Some(if s.pmf().len() > PANJER_MAX_COSTS {
        on_cost_grid(&sev)
    } else {
        sev
    })
}

/// Mass `p` of a cost `up` of the way from point `lo` to point `hi` (0 ≤
/// up < 1), shared between them so that it keeps its mean: 1 − up of it on
/// `lo`, `up` on `hi` (all of it on `lo` at 0).
fn share(out: &mut Vec<(usize, f64)>, (lo, hi): (usize, usize), up: f64, p: f64) {
    out.push((lo, p * (1.0 - up)));
    if up > 0.0 {
        out.push((hi, p * up));
    }
}

/// `sev` sorted by index, the masses of one index summed in their order.
fn merged(mut sev: Vec<(usize, f64)>) -> Vec<(usize, f64)> {
    sev.sort_by_key(|e| e.0);
    sev.dedup_by(|later, first| {
        let same = later.0 == first.0;
        if same {
            first.1 += later.1;
        }
        same
    });
    sev
}

/// The cost pmf `sev` on the points 0, 1, …, 32, then each g + ⌊g/16⌋
/// after g (≈ 11 points per doubling: 72 points reach 275 steps, 132 reach
/// 10,000), each cost between two points sharing its mass between them in
/// proportion to its nearness, so that it keeps its mean (local moment
/// matching, as [`dispersed`]). A cost moves by at most 1/16 of itself,
/// and the tail of X is kept where a sum of few costly requests puts it:
/// the normal form with skewness and kurtosis corrections, used for such
/// costs before, overstated a lightly loaded partition's largest window
/// many times over (a write of 1 to 275 WCU, 1.1 a window: 882 WCU at
/// 10⁻⁶, where Chernoff's bound puts 704 WCU past 3·10⁻¹³).
fn on_cost_grid(sev: &[(usize, f64)]) -> Vec<(usize, f64)> {
    let next = |g: usize| g + (g >> 4).max(1);
    let mut coarse = Vec::with_capacity(2 * sev.len());
    let (mut lo, mut hi) = (0usize, 1usize);
    for &(j, p) in sev {
        while hi <= j {
            (lo, hi) = (hi, next(hi));
        }
        share(&mut coarse, (lo, hi), (j - lo) as f64 / (hi - lo) as f64, p);
    }
    merged(coarse)
}

/// The cost pmf `sev` on a lattice `m` times coarser, by the method of
/// local moment matching (first moment): a cost of j = k·m + r fine steps
/// puts (m − r)/m of its mass on coarse point k and r/m on k + 1, so every
/// cost keeps its mean (Gerber, "On the numerical evaluation of the
/// distribution of aggregate claims and its stop-loss premiums", Insurance:
/// Mathematics and Economics 1, 1982; Klugman, Panjer and Willmot, *Loss
/// Models*, §9.6.5). Each cost's variance grows by (r/m)(1 − r/m) coarse
/// steps² at most ¼, and the spread mass makes the coarse X larger in
/// convex order than the fine one: E[(X − L)⁺], the throttled units, is
/// never less than on the fine lattice, for every limit L.
fn dispersed(sev: &[(usize, f64)], m: usize) -> Vec<(usize, f64)> {
    let mut coarse = Vec::with_capacity(2 * sev.len());
    for &(j, p) in sev {
        let (k, r) = (j / m, j % m);
        share(&mut coarse, (k, k + 1), r as f64 / m as f64, p);
    }
    merged(coarse)
}

/// Compound Poisson pmf by Panjer's recursion on the common lattice of the
/// severities (None when the costs share no lattice step or the support is too wide).
fn panjer(
    comps: &[(f64, &Severity)],
    total: f64,
    kappa: &[f64; 4],
    fine: Option<usize>,
) -> Option<(f64, Vec<f64>)> {
    let shared =
        (0..LATTICE_STEPS.len()).find(|&b| comps.iter().all(|(_, s)| s.lattice()[b].is_some()));
    let (step, mut sev) = match shared {
        Some(b) => {
            let base = LATTICE_STEPS[b];
            // The coarsest lattice the costs share: their whole multiples of
            // the base step have a greatest common divisor g, and X lives on
            // g·base (a 5.71 RU write costs 571 steps of 0.01 and one step of
            // 5.71: the same pmf on 571× fewer points).
            let g = comps
                .iter()
                .fold(0u64, |g, (_, s)| gcd(g, s.lattice()[b].unwrap_or(0)));
            let step = if g > 1 { base * g as f64 } else { base };
            (step, lattice_severity(comps, total, step)?)
        }
        None => {
            // Costs on no lattice (Cosmos DB's RU of a query, a request's
            // bytes): on one whose step is the power of two at or below a
            // 64th of the mean cost or of X's standard deviation, whichever
            // is larger (a light load's peak is a few requests, a heavy
            // one's a few deviations past its mean), each cost shared
            // between its two neighbours there ([`shared_severity`]).
            let scale = (kappa[0] / total).max(kappa[1].sqrt());
            let step = (scale / 64.0).log2().floor().exp2();
            if !(step.is_finite() && step > 0.0) {
                return None;
            }
            (step, shared_severity(comps, total, step)?)
        }
    };
    // A cost of many distinct values (a wide log-normal item size: a
    // write of 1 to 275 WCU) on a sparser set of points (costs on no
    // lattice were, by on_step).
    if shared.is_some() && comps.iter().any(|(_, s)| s.pmf().len() > PANJER_MAX_COSTS) {
        sev = on_cost_grid(&sev);
    }
    // Far enough that the mass left beyond is under 10⁻¹⁵ (Chernoff's bound
    // for the compound Poisson sum: a skewed sum of few costly requests
    // reaches far past 14 standard deviations), so that P(X > limit) is
    // never the truncated mass itself.
    let far = chernoff_point(comps, TRUNCATED_LOG);
    let points = |step: f64, sev: &[(usize, f64)]| {
        let sev_len = sev.last().map_or(0, |e| e.0 + 1);
        let n = ((kappa[0] + 14.0 * kappa[1].sqrt()) / step).ceil() as usize + sev_len + 8;
        if far.is_finite() {
            n.max((far / step).ceil() as usize + 2)
        } else {
            n
        }
    };
    let n_max = points(step, &sev);
    if n_max > PANJER_MAX_POINTS {
        return None;
    }
    // Past `fine` points, a lattice m steps wide, each cost shared by its two neighbours.
    let m = n_max.div_ceil(fine.unwrap_or_else(|| fine_points(kappa, n_max as f64 * step)));
    let (step, sev) = if m > 1 {
        (step * m as f64, dispersed(&sev, m))
    } else {
        (step, sev)
    };
    let n_max = if m > 1 { points(step, &sev) } else { n_max };
    let sev0 = sev.first().filter(|e| e.0 == 0).map_or(0.0, |e| e.1);
    let f0 = (-total * (1.0 - sev0)).exp();
    // Each nonzero cost's j·p once (the product j·p·f[n − j] is taken in
    // that order, so the terms are the same doubles).
    let terms: Vec<(usize, f64)> = sev
        .iter()
        .filter(|&&(j, p)| j > 0 && p > 0.0)
        .map(|&(j, p)| (j, j as f64 * p))
        .collect();
    // f[n] reads nothing nearer than the cheapest cost's j_min points: the
    // j_min values from n on are computed side by side, each value's sum
    // still taken in the terms' order from 0 (hence the same doubles).
    // Blocks of 2 to 7 points (costs on the lattice's first points:
    // DynamoDB's 0.5-RCU steps) keep a register per point, whose chains of
    // additions overlap (the 10⁷-customer shop with log-normal items −29%
    // CPU); wider ones (a fine lattice: Cosmos DB's 4.95 and 22.3 RU share
    // only 0.05, tens of thousands of points) go term by term over slices,
    // which vectorizes.
    let j_min = terms.first().map_or(1, |t| t.0);
    // Led by as many +0 points as the costliest cost's j, every point
    // takes every term: one before the first point adds j·p·(+0) = +0,
    // which leaves a sum of nonnegative terms as it is.
    let padded = |run: &dyn Fn(&mut [f64], usize)| {
        let pad = terms.last().map_or(0, |t| t.0);
        let mut f = vec![0.0f64; pad + n_max];
        f[pad] = f0;
        run(&mut f, pad);
        f.drain(..pad);
        Some((step, f))
    };
    if j_min == 1 {
        // Every point reads the one before it: summed costliest term first
        // (that nearest read last), K points' sums run side by side
        // until their last few terms ([`panjer_descending`]).
        return padded(&|f, pad| panjer_descending::<4>(f, pad, &terms, total));
    }
    if j_min < 8 {
        return padded(&|f, pad| {
            let n = match j_min {
                2 => panjer_in_registers::<2>(f, pad, &terms, total),
                3 => panjer_in_registers::<3>(f, pad, &terms, total),
                4 => panjer_in_registers::<4>(f, pad, &terms, total),
                5 => panjer_in_registers::<5>(f, pad, &terms, total),
                6 => panjer_in_registers::<6>(f, pad, &terms, total),
                _ => panjer_in_registers::<7>(f, pad, &terms, total),
            };
            panjer_plain(f, pad, &terms, total, n);
        });
    }
    let mut f = vec![0.0f64; n_max];
    f[0] = f0;
    // Past the costliest term every term applies: no bound check.
    let full = terms.last().map_or(n_max, |t| t.0.min(n_max));
    for n in 1..full {
        let mut acc = 0.0;
        for &(j, jp) in &terms {
            if j > n {
                break;
            }
            acc += jp * f[n - j];
        }
        f[n] = total / n as f64 * acc;
    }
    let mut n = full.max(1);
    while n < n_max {
        let end = (n + j_min).min(n_max);
        let (done, rest) = f.split_at_mut(n);
        // Still 0 (as `f` was made): each sum starts there.
        let block = &mut rest[..end - n];
        for &(j, jp) in &terms {
            for (acc, &x) in block.iter_mut().zip(&done[n - j..end - j]) {
                *acc += jp * x;
            }
        }
        for (m, acc) in (n..end).zip(block.iter_mut()) {
            *acc *= total / m as f64;
        }
        n = end;
    }
    Some((step, f))
}

/// Panjer's recursion from point `from` to the end, one point at a time,
/// point n at `f[pad + n]`, every term applying (n past the costliest
/// cost's j, or `pad` +0 points before the first).
fn panjer_plain(f: &mut [f64], pad: usize, terms: &[(usize, f64)], total: f64, from: usize) {
    for n in from..f.len() - pad {
        let mut acc = 0.0;
        for &(j, jp) in terms {
            acc += jp * f[pad + n - j];
        }
        f[pad + n] = total / n as f64 * acc;
    }
}

/// Panjer's recursion from point 1 to the end, point n at `f[pad + n]`
/// after `pad` points of +0 (at least the costliest cost's j), each
/// point's sum taken over the terms in descending j: the cheapest cost's
/// term, which reads the point just before, comes last. Where the
/// cheapest cost is one lattice step, ascending sums made each point wait
/// for the whole sum of the one before (a chain of m dependent additions
/// a point); descending, a block of `K` points sums its terms of j ≥ K
/// (points before the block) side by side, then each point in turn adds
/// its terms of j < K (the log-normal shop's window distributions −60%).
/// Kept out of line: inlined into [`panjer`] it ran 8% slower on the
/// log-normal shop after an unrelated change elsewhere (code layout).
#[inline(never)]
fn panjer_descending<const K: usize>(
    f: &mut [f64],
    pad: usize,
    terms: &[(usize, f64)],
    total: f64,
) {
    let near = terms.partition_point(|t| t.0 < K);
    let (close, far) = terms.split_at(near);
    let mut n = 1;
    if terms.len() <= FEW_TERMS {
        // Few costs (a read and a write, each one size): point by point,
        // each point's sum in descending j as the blocks take it, the point
        // just computed kept in a register rather than read back from `f`,
        // and each earlier point loaded alone (a load spanning two recent
        // stores waits for both to reach the cache: −12% on a design of
        // 1.2 million such pmfs). The same doubles.
        let (one, rest) = terms.split_first().expect("j_min = 1: a term");
        let mut prev = f[pad];
        for n in 1..f.len() - pad {
            let mut a = 0.0;
            for &(j, jp) in rest.iter().rev() {
                a += jp * f[pad + n - j];
            }
            a += one.1 * prev;
            prev = total / n as f64 * a;
            f[pad + n] = prev;
        }
        return;
    }
    while pad + n + K <= f.len() {
        let acc = far_sums::<K>(f, pad, n, far);
        for (k, mut a) in acc.into_iter().enumerate() {
            for &(j, jp) in close.iter().rev() {
                a += jp * f[pad + n + k - j];
            }
            f[pad + n + k] = total / (n + k) as f64 * a;
        }
        n += K;
    }
    while pad + n < f.len() {
        let mut a = 0.0;
        for &(j, jp) in terms.iter().rev() {
            a += jp * f[pad + n - j];
        }
        f[pad + n] = total / n as f64 * a;
        n += 1;
    }
}

/// Most terms [`panjer_descending`] sums point by point: more sum faster
/// side by side over a block of points.
const FEW_TERMS: usize = 4;

/// For the `K` points from n (at `f[pad + n]`), each point's sum of the
/// terms in `far` (every j at least `K`: points before the block), in
/// descending j, side by side.
#[inline(always)]
fn far_sums<const K: usize>(f: &[f64], pad: usize, n: usize, far: &[(usize, f64)]) -> [f64; K] {
    let mut acc = [0.0f64; K];
    for &(j, jp) in far.iter().rev() {
        let at = pad + n - j;
        let x: &[f64; K] = f[at..at + K]
            .try_into()
            .expect("a K-point slice is [f64; K]");
        for (a, &x) in acc.iter_mut().zip(x) {
            *a += jp * x;
        }
    }
    acc
}

/// Panjer's recursion from point 1 on in blocks of `K` points (`K` at most
/// the cheapest cost's lattice index, so a block reads only points before
/// it), point n at `f[pad + n]` after `pad` points of +0 (at least the
/// costliest cost's j), each point's sum in its own register in the terms'
/// order from 0; returns the first point past the whole blocks.
fn panjer_in_registers<const K: usize>(
    f: &mut [f64],
    pad: usize,
    terms: &[(usize, f64)],
    total: f64,
) -> usize {
    let mut n = 1;
    while pad + n + K <= f.len() {
        let mut acc = [0.0f64; K];
        for &(j, jp) in terms {
            let at = pad + n - j;
            let x: &[f64; K] = f[at..at + K]
                .try_into()
                .expect("a K-point slice is [f64; K]");
            for (a, &x) in acc.iter_mut().zip(x) {
                *a += jp * x;
            }
        }
        for (k, a) in acc.into_iter().enumerate() {
            f[pad + n + k] = total / (n + k) as f64 * a;
        }
        n += K;
    }
    n
}

/// −ln of the mass a window's pmf may leave beyond its last point.
const TRUNCATED_LOG: f64 = 34.538_776_394_910_684; // ln 10¹⁵

/// The least x over the θ grid with ln P(X ≥ x) ≤ −`c` by Chernoff's bound
/// for the compound Poisson sum of `comps` (rate, costs): x = (Σλ·(E[e^{θS}]
/// − 1) + c)/θ.
pub(super) fn chernoff_point(comps: &[(f64, &Severity)], c: f64) -> f64 {
    let (mut kappa2, mut most) = (0.0f64, 0.0f64);
    for (lam, s) in comps.iter().filter(|(lam, _)| *lam > 0.0) {
        kappa2 += lam * s.raw_moments()[1];
        most = most.max(s.max());
    }
    chernoff_least(c, chernoff_start(c, kappa2, most), |k| {
        comps
            .iter()
            .filter(|(lam, _)| *lam > 0.0)
            .map(|(lam, s)| lam * s.mgf().at(k))
            .sum()
    })
}

/// Where [`chernoff_least`]'s walk starts for a sum X with second cumulant
/// `kappa2` and largest cost `most`, at `c`: the grid point nearest the
/// optimum of Bennett's bound on ln E[e^{θX}], μθ + (κ₂/b²)(e^{θb} − 1 −
/// θb) with b the largest cost, where θΛ′ − Λ = c reads (y − 1)eʸ + 1 =
/// c·b²/κ₂ for y = θb (exact for costs all b; with smaller costs the
/// optimum lies a little higher). With κ₂ or b 0 or not finite, the grid's
/// middle.
pub(super) fn chernoff_start(c: f64, kappa2: f64, most: f64) -> usize {
    /// 2·log₂ y solving (y − 1)eʸ + 1 = r, for log₂ r = i/2 − 60.
    static TWO_LOG_Y: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| {
        (0..=320)
            .map(|i| {
                let r = (f64::from(i) / 2.0 - 60.0).exp2();
                let (mut lo, mut hi) = (0.0f64, 700.0f64);
                for _ in 0..100 {
                    let y = 0.5 * (lo + hi);
                    if (y - 1.0) * y.exp() + 1.0 < r {
                        lo = y;
                    } else {
                        hi = y;
                    }
                }
                2.0 * (0.5 * (lo + hi)).log2()
            })
            .collect()
    });
    let r = c * most * most / kappa2;
    if !(r.is_finite() && r > 0.0 && most.is_finite() && most > 0.0) {
        return MGF_GRID / 2;
    }
    // A start a point off costs the walk one more point, no other change:
    // log₂ from the bits, within 0.09.
    let i = ((rough_log2(r) + 60.0) * 2.0 + 0.5).clamp(0.0, 320.0) as usize;
    let k = 40.5 + TWO_LOG_Y[i] - 2.0 * rough_log2(most);
    (k.max(0.0) as usize).min(MGF_GRID - 2)
}

/// log₂ x for a positive, finite, normal x within 0.09: the exponent plus
/// the mantissa's fraction (the chord of log₂ over [1, 2)).
fn rough_log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mantissa = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    exponent as f64 + (mantissa - 1.0)
}

/// The least of x(θ) = (ln E[e^{θX}] + c)/θ over the θ grid, given
/// `log_mgf(k)` = ln E[e^{θₖX}], by a walk from grid point `start`
/// ([`chernoff_start`]). With ln E[e^{θX}] convex and 0 at θ = 0,
/// θ²·x′(θ) = θ·Λ′(θ) − Λ(θ) − c only grows, so x falls then rises: the
/// least is at the first grid point k with x(k + 1) ≥ x(k), whichever point
/// the walk starts from (the point a binary search on the slope finds; any
/// θ gives a valid bound, so the result is one whatever rounding does).
pub(super) fn chernoff_least(c: f64, start: usize, log_mgf: impl Fn(usize) -> f64) -> f64 {
    let theta = mgf_thetas();
    let x = |k: usize| {
        let l = log_mgf(k);
        if l.is_finite() {
            (l + c) / theta[k]
        } else {
            f64::INFINITY
        }
    };
    let mut k = start.min(MGF_GRID - 2);
    let (mut here, mut next) = (x(k), x(k + 1));
    if next < here {
        // Still falling: up to the first point where it stops.
        loop {
            k += 1;
            if k == MGF_GRID - 1 {
                return next;
            }
            here = next;
            next = x(k + 1);
            if next >= here {
                return here;
            }
        }
    }
    // Not falling at k: down while the point below does not lie higher.
    while k > 0 {
        let below = x(k - 1);
        if here < below {
            break;
        }
        k -= 1;
        here = below;
    }
    here
}

/// The peak window and the units over `limit` of `windows` independent
/// windows of X, drawn jointly and exactly from X's distribution: the number
/// of windows over the limit is Binomial(W, P(X > L)); those windows' units
/// are drawn from X given X > L (the peak is their largest), and when none is
/// over, the peak is the largest of W draws given X ≤ L. Beyond 64 windows
/// over the limit, their sum takes the normal approximation and their
/// maximum the quantile at U^{1/K}.
pub fn stretch<R: Rng + ?Sized>(
    x: &WindowUnits,
    limit: f64,
    windows: usize,
    rng: &mut R,
) -> (f64, f64) {
    stretch_below(x, limit, x.cdf(limit), windows, rng)
}

/// [`stretch`] with P(X ≤ limit) already known (`below`): a server's
/// stretches of many timeseries steps share it (Cornish–Fisher's cdf is a
/// bisection).
fn stretch_below<R: Rng + ?Sized>(
    x: &WindowUnits,
    limit: f64,
    below: f64,
    windows: usize,
    rng: &mut R,
) -> (f64, f64) {
    let w = windows as f64;
    let over_p = (1.0 - below).max(0.0);
    let k = if over_p <= 0.0 {
        0
    } else if over_p >= 1.0 {
        windows as u64
    } else {
        Binomial::new(windows as u64, over_p).map_or(0, |b| b.sample(rng))
    };
    if k == 0 {
        let u: f64 = rng.random();
        return (x.quantile(below * u.powf(1.0 / w)), 0.0);
    }
    if k <= 64 {
        let (mut peak, mut sum) = (0.0f64, 0.0f64);
        for _ in 0..k {
            let u: f64 = rng.random();
            let v = x.quantile(below + over_p * u).max(limit);
            peak = peak.max(v);
            sum += v - limit;
        }
        return (peak, sum);
    }
    let kf = k as f64;
    let (m, v) = x.excess(limit);
    // Moments of the excess given X > L.
    let cm = m / over_p;
    let cv = ((v + m * m) / over_p - cm * cm).max(0.0);
    let z: f64 = StandardNormal.sample(rng);
    let sum = (kf * cm + z * (kf * cv).sqrt()).max(0.0);
    let u: f64 = rng.random();
    let peak = x.quantile(below + over_p * u.powf(1.0 / kf)).max(limit);
    (peak, sum)
}

/// One stationary stretch of `windows` windows in closed form, or, where
/// the stretch expects few requests and its window distribution is costly
/// to build, by drawing its busy windows ([`busy_windows`]).
pub fn collapsed<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    limits: &Limits,
    windows: usize,
    rng: &mut R,
) -> Outcome {
    if few_requests(comps, windows) && costly_to_build(comps) {
        return busy_windows(comps, limits, windows, rng);
    }
    Stretches::new(comps, limits).draw(windows, rng)
}

/// Most requests a stretch may expect for [`collapsed`] to draw its busy
/// windows one by one: 2,048 draws cost about what Panjer's recursion
/// spends on a cost-grid pmf of 1,500 points × 40 terms, the cheapest such a
/// server builds (one that the limit keeps from being cold spans at least
/// the limit in points).
const FEW_REQUESTS: f64 = 2048.0;

/// Most requests a window may expect for [`collapsed`] to draw its busy
/// windows: a window of more than 32 requests takes
/// [`Severity::draw_sum`]'s normal form, which at 8 a window is a chance of
/// 10⁻¹⁰ (so the draws stay exact in distribution).
const FEW_PER_WINDOW: f64 = 8.0;

/// Whether `windows` windows of `comps` expect at most [`FEW_REQUESTS`]
/// requests, at most [`FEW_PER_WINDOW`] a window.
pub(super) fn few_requests(comps: &[Component<'_>], windows: usize) -> bool {
    let lam: f64 = comps.iter().map(|c| c.lambda).sum();
    lam > 0.0 && lam <= FEW_PER_WINDOW && windows as f64 * lam <= FEW_REQUESTS
}

/// Whether the window distribution of `comps` is costly to build: a stream
/// of more than [`PANJER_MAX_COSTS`] distinct costs (an item size drawn from
/// a range or a log-normal) is put on the cost grid, a pmf of hundreds to
/// thousands of points each summing dozens to hundreds of terms (a
/// log-normal Cosmos DB document of 300 KB to 3 MB: 7,200 points × 162
/// terms), built anew for each server of its own rates. A few costs build
/// a short pmf, often shared ([`WindowUnits::kept`]).
pub(super) fn costly_to_build(comps: &[Component<'_>]) -> bool {
    comps
        .iter()
        .any(|c| c.lambda > 0.0 && c.severity.pmf().len() > PANJER_MAX_COSTS)
}

/// One stationary stretch of `windows` windows of a lightly loaded server,
/// exact in distribution without its window distribution: the requested
/// units and requests as [`requested`] draws them (as a cold server's and
/// [`Stretches::draw`]'s), then the busy windows — those with a request,
/// Binomial(W, 1 − e^{−λ}) of them for a total rate of λ requests a window.
/// Of those, Binomial(busy, λe^{−λ} ÷ (1 − e^{−λ})) hold one request
/// ([`single_request_windows`]: each stream's share of them peaks at its
/// largest cost, one draw); the rest are each drawn whole
/// ([`busy_window`]) with their requests from the Poisson distribution of
/// λ given at least two. A light partition whose few requests are each
/// costly (writes of 200 to 390 KB items, 4 of which fill a DynamoDB
/// partition's second) draws its ≈ 16 busy windows of an hour rather than
/// a pmf of 1,100 points, and of those only the ≈ 0.04 that hold two or
/// more requests (λ/2 of them) one by one.
pub(super) fn busy_windows<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    limits: &Limits,
    windows: usize,
    rng: &mut R,
) -> Outcome {
    let mut out = requested(comps, windows, rng);
    let lam: f64 = comps.iter().map(|c| c.lambda).sum();
    let busy_p = -(-lam).exp_m1();
    let busy = busy_count(windows as u64, lam, busy_p, rng);
    if busy == 0 {
        return out;
    }
    let one_p = (lam * (-lam).exp() / busy_p).clamp(0.0, 1.0);
    let singles = Binomial::new(busy, one_p).map_or(busy, |b| b.sample(rng));
    single_request_windows(comps, limits, lam, singles, &mut out, rng);
    if busy > singles {
        let first = lam * lam / 2.0 * (-lam).exp();
        let many_p = poisson_tail_from_two(lam);
        for _ in singles..busy {
            let n = requests_at_least(lam, 2, first, many_p, rng);
            busy_window(comps, limits, lam, n, &mut out, rng);
        }
    }
    out
}

/// `k` windows of one request each, shared among the streams in proportion
/// to their rates ([`stream_share`]). A stream whose costliest request
/// stays within every limit it meets ([`Limits::apply`] and
/// [`Limits::write_excess`] lose nothing) throttles nothing in such a
/// window, and its windows peak at the largest of its costs in them
/// ([`Severity::largest_of`], one draw: utilization rises with the units);
/// a stream whose single request can exceed a limit draws its windows one by
/// one.
fn single_request_windows<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    limits: &Limits,
    lam: f64,
    k: u64,
    out: &mut Outcome,
    rng: &mut R,
) {
    let side = |is_write: bool, units: f64| {
        if is_write {
            (0.0, units)
        } else {
            (units, 0.0)
        }
    };
    let (mut left, mut lam_left) = (k, lam);
    for (i, c) in comps.iter().enumerate() {
        if left == 0 {
            break;
        }
        let n = stream_share(comps, i, lam_left, left, rng);
        left -= n;
        lam_left -= c.lambda;
        if n == 0 {
            continue;
        }
        let costliest = c.severity.max();
        let (r, w) = side(c.is_write, costliest);
        let within = limits.apply(r, w).1 == 0.0 && limits.write_excess(w).1 == 0.0;
        if within {
            let (r, w) = side(c.is_write, c.severity.largest_of(n, rng));
            meet_limits(limits, r, w, out);
        } else {
            for _ in 0..n {
                let (r, w) = side(c.is_write, c.severity.sample_one(rng));
                meet_limits(limits, r, w, out);
            }
        }
    }
}

/// One busy window of `n` requests, shared among the streams in
/// proportion to their rates ([`stream_share`]), each stream's units as
/// [`Severity::draw_sum`] draws them, meeting the limits as
/// [`draw_windows`]' windows do.
fn busy_window<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    limits: &Limits,
    lam: f64,
    n: u64,
    out: &mut Outcome,
    rng: &mut R,
) {
    let mut left = n;
    let (mut r, mut w) = (0.0, 0.0);
    let mut lam_left = lam;
    for (i, c) in comps.iter().enumerate() {
        if left == 0 {
            break;
        }
        let n = stream_share(comps, i, lam_left, left, rng);
        left -= n;
        lam_left -= c.lambda;
        let units = c.severity.draw_sum(n as f64, rng);
        if c.is_write {
            w += units;
        } else {
            r += units;
        }
    }
    meet_limits(limits, r, w, out);
}

/// Of `left` requests not yet given to a stream, stream `i`'s: all of them
/// for the last stream (or one carrying the rest of the rate `lam_left`),
/// else a binomial draw at its share of that rate (a Bernoulli draw per
/// request up to 16). Successive draws over the streams make a window's
/// (or windows') multinomial split by rate.
fn stream_share<R: Rng + ?Sized>(
    comps: &[Component<'_>],
    i: usize,
    lam_left: f64,
    left: u64,
    rng: &mut R,
) -> u64 {
    let c = &comps[i];
    if i + 1 == comps.len() || c.lambda >= lam_left {
        return left;
    }
    let share = (c.lambda / lam_left).clamp(0.0, 1.0);
    if left <= 16 {
        (0..left).filter(|_| rng.random::<f64>() < share).count() as u64
    } else {
        Binomial::new(left, share).map_or(0, |b| b.sample(rng))
    }
}

/// One window's read and write units against the limits ([`Limits::apply`],
/// [`Limits::write_excess`]), into the stretch's peaks and lost units.
fn meet_limits(limits: &Limits, r: f64, w: f64, out: &mut Outcome) {
    let (util, over) = limits.apply(r, w);
    out.peak_utilization = out.peak_utilization.max(util);
    out.throttled_units += over;
    let (w_util, w_over) = limits.write_excess(w);
    out.write_peak_utilization = out.write_peak_utilization.max(w_util);
    out.throttled_write_units += w_over;
}

/// Busy windows among `windows`, each busy with chance `busy_p` = 1 −
/// e^{−λ}: Binomial(W, busy_p). Where it expects under 10, by inversion
/// from P(0) = e^{−λW} (no power taken: (1 − busy_p)^W is e^{−λW}), each
/// next term × (W − k)/(k + 1) · (e^λ − 1); else rand_distr's BTPE.
fn busy_count<R: Rng + ?Sized>(windows: u64, lam: f64, busy_p: f64, rng: &mut R) -> u64 {
    if busy_p >= 1.0 {
        return windows;
    }
    let w = windows as f64;
    if w * busy_p >= 10.0 {
        return Binomial::new(windows, busy_p).map_or(0, |b| b.sample(rng));
    }
    let odds = lam.exp_m1();
    let u: f64 = rng.random();
    let mut term = (-lam * w).exp();
    let (mut k, mut cum) = (0u64, term);
    while u > cum && k < windows && term > 0.0 {
        term *= (w - k as f64) / (k + 1) as f64 * odds;
        k += 1;
        cum += term;
    }
    k
}

/// P(N ≥ 2) for N Poisson of mean λ, summed term by term (1 − e^{−λ} −
/// λe^{−λ} would cancel to nothing for a small λ).
fn poisson_tail_from_two(lam: f64) -> f64 {
    let (mut term, mut sum, mut n) = (lam * lam / 2.0, 0.0, 2.0);
    while term > sum * 1e-17 && n < 1_000.0 {
        sum += term;
        n += 1.0;
        term *= lam / n;
    }
    sum * (-lam).exp()
}

/// Requests in a window with at least `from`, for λ requests a window:
/// the Poisson distribution given N ≥ `from` (`tail` = P(N ≥ from),
/// `first` = P(N = from)), by inversion (each next term × λ/n).
fn requests_at_least<R: Rng + ?Sized>(
    lam: f64,
    from: u64,
    first: f64,
    tail: f64,
    rng: &mut R,
) -> u64 {
    if tail <= 0.0 {
        return from;
    }
    let u: f64 = rng.random();
    let mut term = first / tail;
    let (mut n, mut cum) = (from, term);
    while u > cum && term > 0.0 {
        n += 1;
        term *= lam / n as f64;
        cum += term;
    }
    n
}

/// A server's window distribution, built once (one exact or approximated
/// distribution per limit), from which stretches of any number of windows
/// are drawn in closed form: what [`collapsed`] does, split so that many
/// stretches of one server (the representative trial's timeseries steps)
/// share the build.
pub struct Stretches<'a> {
    /// (distribution, limit, whether it is the combined limit, whether it
    /// is the write dimension, P(X ≤ limit))
    dims: Vec<(Arc<WindowUnits>, f64, bool, bool, f64)>,
    comps: &'a [Component<'a>],
}

impl<'a> Stretches<'a> {
    /// The distributions of `comps` against each limit of `limits`.
    pub fn new(comps: &'a [Component<'a>], limits: &Limits) -> Stretches<'a> {
        // One buffer for every dimension's components.
        let mut dim: Vec<(f64, &Severity)> = Vec::with_capacity(comps.len());
        let mut dims = Vec::with_capacity(3);
        // (which components, limit, whether combined, whether write)
        type Which<'f> = &'f dyn Fn(&Component<'_>) -> bool;
        let wanted: [(Which<'_>, Option<f64>, bool, bool); 3] = [
            (&|c| !c.is_write, limits.read, false, false),
            (&|c| c.is_write, limits.write, false, true),
            (&|_| true, limits.combined, true, false),
        ];
        for (which, limit, combined, write) in wanted {
            let Some(limit) = limit else { continue };
            dim.clear();
            dim.extend(
                comps
                    .iter()
                    .filter(|c| which(c) && c.lambda > 0.0)
                    .map(|c| (c.lambda, c.severity)),
            );
            if !dim.is_empty() {
                let x = WindowUnits::kept(&dim);
                let below = x.cdf(limit);
                dims.push((x, limit, combined, write, below));
            }
        }
        Stretches { dims, comps }
    }

    /// One stretch of `windows` windows: its requested units and requests
    /// first ([`requested`], as a cold server draws them),
    /// then each limit's peak and throttled units.
    pub fn draw<R: Rng + ?Sized>(&self, windows: usize, rng: &mut R) -> Outcome {
        let mut out = requested(self.comps, windows, rng);
        let (mut sep_throttled, mut comb_throttled) = (0.0, 0.0);
        for (x, limit, is_combined, is_write, below) in &self.dims {
            let (peak, throttled) = stretch_below(x, *limit, *below, windows, rng);
            out.peak_utilization = out.peak_utilization.max(peak / limit);
            if *is_combined {
                comb_throttled = throttled;
            } else {
                sep_throttled += throttled;
            }
            if *is_write {
                out.write_peak_utilization = peak / limit;
                out.throttled_write_units = throttled;
            }
        }
        out.throttled_units = f64::max(sep_throttled, comb_throttled);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Panjer's recursion on the 0.05 lattice, every point (the reference
    /// a coarsened pmf is checked against).
    fn fine_pmf(costs: &[(f64, usize)], points: usize) -> Vec<f64> {
        let total: f64 = costs.iter().map(|c| c.0).sum();
        let mut f = vec![0.0f64; points];
        f[0] = (-total).exp();
        for n in 1..points {
            let acc: f64 = costs
                .iter()
                .filter(|c| c.1 <= n)
                .map(|&(lam, j)| j as f64 * (lam / total) * f[n - j])
                .sum();
            f[n] = total / n as f64 * acc;
        }
        f
    }

    #[test]
    fn chernoffs_walk_finds_the_grids_least_from_any_start() {
        // Sums of 1-unit and 40-unit requests (1% costly) and of 2-unit
        // requests, light to heavy, at c from a peak's ln 3,600 to a
        // screen's ln(3,600/10⁻⁹): from every start the walk returns the
        // least of x over all 81 grid points, the same value; from
        // chernoff_start it looks at no more than 4 points.
        let rare = {
            let mut costs = vec![1.0; 99];
            costs.push(40.0);
            Severity::from_samples(costs)
        };
        let two = Severity::from_samples(vec![2.0; 3]);
        for sev in [&rare, &two] {
            for lam in [1e-4, 0.01, 0.15, 1.0, 30.0, 5_000.0] {
                for c in [3600f64.ln(), (3600.0f64 / 1e-9).ln()] {
                    let m = sev.mgf();
                    let x = |k: usize| {
                        let l = lam * m.at(k);
                        if l.is_finite() {
                            (l + c) / mgf_thetas()[k]
                        } else {
                            f64::INFINITY
                        }
                    };
                    let least = (0..MGF_GRID).map(x).fold(f64::INFINITY, f64::min);
                    for start in 0..MGF_GRID {
                        let got = chernoff_least(c, start, |k| lam * m.at(k));
                        assert_eq!(got, least, "λ {lam} c {c} from {start}");
                    }
                    let looked = std::cell::Cell::new(0);
                    let start = chernoff_start(c, lam * sev.raw_moments()[1], sev.max());
                    let got = chernoff_least(c, start, |k| {
                        looked.set(looked.get() + 1);
                        lam * m.at(k)
                    });
                    assert_eq!(got, least);
                    assert!(looked.get() <= 4, "λ {lam} c {c}: {} points", looked.get());
                }
            }
        }
        // The start's log₂ from the bits: within 0.09 of log₂.
        for x in [1e-300, 3e-9, 0.7, 1.0, 1.5, 2.0, 3.0, 1e6, 7.3e200] {
            let e = (rough_log2(x) - x.log2()).abs();
            assert!(e < 0.09, "{x}: {e}");
        }
        // Without a spread (κ₂ = 0) the walk starts mid-grid.
        assert_eq!(chernoff_start(10.0, 0.0, 0.0), MGF_GRID / 2);
    }

    /// Two-sample Kolmogorov–Smirnov statistic sup |F₁ − F₂| of sorted samples.
    fn ks(a: &[f64], b: &[f64]) -> f64 {
        let at = |v: &[f64], x: f64| v.partition_point(|&y| y <= x) as f64 / v.len() as f64;
        a.iter()
            .chain(b)
            .map(|&x| (at(a, x) - at(b, x)).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn many_distinct_costs_peak_as_their_windows_do() {
        // Writes of log-normal items (median 3 KB, p99 30 KB) in whole WCU:
        // about 100 distinct costs up to some 270 WCU, one write a window.
        // The largest of 3,600 windows, collapsed, against every window
        // drawn (two-sample KS at 5% over 1,000 stretches each) and against
        // F(x)^3,600 of the pmf; the tail holds the few costly writes, so
        // the median stretch peaks near 108 WCU, not the 800-odd of the
        // normal form with skewness and kurtosis corrections.
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let sigma = 10f64.ln() / 2.326;
        let samples: Vec<f64> = (0..65_536)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                (3000.0 * (sigma * z).exp() / 1024.0).ceil()
            })
            .collect();
        let sev = Severity::from_samples(samples);
        assert!(sev.pmf().len() > PANJER_MAX_COSTS, "{}", sev.pmf().len());
        let x = WindowUnits::new(&[(1.0, &sev)]);
        let (step, pmf) = x.pmf.clone().expect("a pmf, not the normal form");
        assert_eq!(step, 1.0);
        let mean: f64 = pmf.iter().enumerate().map(|(i, p)| i as f64 * p).sum();
        assert!(
            (mean - sev.mean).abs() < 1e-9 * sev.mean,
            "{mean} vs {}",
            sev.mean
        );
        let comp = [Component {
            lambda: 1.0,
            severity: &sev,
            is_write: true,
        }];
        let limits = Limits {
            write: Some(1000.0),
            ..Limits::default()
        };
        let (mut drawn, mut closed) = (Vec::new(), Vec::new());
        const STRETCHES: usize = 1000;
        for _ in 0..STRETCHES {
            drawn.push(
                draw_windows(&comp, &limits, 3600, &mut rng, &mut |_, _, _| {}).peak_utilization,
            );
            closed.push(collapsed(&comp, &limits, 3600, &mut rng).peak_utilization);
        }
        drawn.sort_by(f64::total_cmp);
        closed.sort_by(f64::total_cmp);
        let d = ks(&drawn, &closed);
        let critical = 1.36 * (2.0f64 / drawn.len() as f64).sqrt();
        let half = STRETCHES / 2;
        assert!(
            d < critical,
            "KS D = {d} ≥ {critical}: {} vs {}",
            drawn[half],
            closed[half]
        );
        // The median of the largest window, from the pmf: F(x)^3,600 = ½.
        let mut c = 0.0;
        let median = pmf
            .iter()
            .position(|p| {
                c += p;
                c.powf(3600.0) >= 0.5
            })
            .expect("reached") as f64
            * step;
        assert!((80.0..140.0).contains(&median), "{median}");
        assert!(
            (closed[half] * 1000.0 - median).abs() <= 0.1 * median,
            "{} vs {median}",
            closed[half]
        );
        // Where Cornish–Fisher put this stretch's median peak.
        let cf = cornish_fisher_upper_quantile(&x.kappa, 1.0 - 0.5f64.powf(1.0 / 3600.0));
        assert!(cf > 3.0 * median, "{cf} vs {median}");
    }

    #[test]
    fn costs_on_no_lattice_peak_and_throttle_as_their_windows_do() {
        // Cosmos DB-like charges off every lattice (a 2 KB write's 11.4321 RU,
        // a 20-item query's 41.3789 RU), 1.2 and 0.6 a window against 100
        // RU a window: a pmf on a lattice of a power of two at or below a
        // 64th of the mean cost or of X's deviation (here 0.5 RU), the mean
        // kept; the collapsed peaks and throttled units against every window
        // drawn over 1,000 stretches. Cornish–Fisher, used for such costs
        // before, throttled 4% less here (a third less on
        // cosmosdb-tenant-hierarchical's hierarchical variant).
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let (w, q) = (
            Severity::from_samples(vec![11.4321; 8]),
            Severity::from_samples(vec![41.3789; 8]),
        );
        let x = WindowUnits::new(&[(1.2, &w), (0.6, &q)]);
        let (step, pmf) = x.pmf.clone().expect("a pmf, not the normal form");
        let scale = ((1.2 * 11.4321 + 0.6 * 41.3789) / 1.8f64).max(x.variance().sqrt());
        assert!(step <= scale / 64.0 && step > scale / 128.0, "{step}");
        let mean: f64 = pmf
            .iter()
            .enumerate()
            .map(|(i, p)| i as f64 * step * p)
            .sum();
        assert!(
            (mean - x.mean()).abs() < 1e-9 * x.mean(),
            "{mean} vs {}",
            x.mean()
        );
        let comps = [
            Component {
                lambda: 1.2,
                severity: &w,
                is_write: false,
            },
            Component {
                lambda: 0.6,
                severity: &q,
                is_write: false,
            },
        ];
        let limits = Limits {
            combined: Some(100.0),
            ..Limits::default()
        };
        const STRETCHES: usize = 1000;
        let (mut drawn, mut closed) = (Vec::new(), Vec::new());
        let (mut drawn_over, mut closed_over) = (0.0, 0.0);
        for _ in 0..STRETCHES {
            let o = draw_windows(&comps, &limits, 3600, &mut rng, &mut |_, _, _| {});
            drawn.push(o.peak_utilization);
            drawn_over += o.throttled_units;
            let o = collapsed(&comps, &limits, 3600, &mut rng);
            closed.push(o.peak_utilization);
            closed_over += o.throttled_units;
        }
        drawn.sort_by(f64::total_cmp);
        closed.sort_by(f64::total_cmp);
        // The peaks are sums of a few charges (atoms a few RU apart), the
        // collapsed ones on the 0.5 RU lattice: their means and spread.
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (m_drawn, m_closed) = (mean(&drawn), mean(&closed));
        assert!(
            (m_closed / m_drawn - 1.0).abs() < 0.01,
            "{m_closed} vs {m_drawn}"
        );
        for k in [100, 500, 900] {
            assert!(
                (closed[k] - drawn[k]).abs() < 0.1,
                "{k}: {} vs {}",
                closed[k],
                drawn[k]
            );
        }
        assert!(
            (closed_over / drawn_over - 1.0).abs() < 0.02,
            "{closed_over} vs {drawn_over}"
        );
        // What the normal form with skewness and kurtosis corrections made
        // of the same windows: E[(X − 100)⁺] by its quantiles.
        let cf_over: f64 = (0..10_000)
            .map(|i| {
                let tail = (i as f64 + 0.5) / 10_000.0;
                (cornish_fisher_upper_quantile(&x.kappa, tail) - 100.0).max(0.0)
            })
            .sum::<f64>()
            / 10_000.0
            * 3600.0
            * STRETCHES as f64;
        assert!(
            (cf_over / drawn_over - 1.0).abs() > 2.0 * (closed_over / drawn_over - 1.0).abs(),
            "{cf_over} vs {closed_over} vs {drawn_over}"
        );
    }

    #[test]
    fn a_lattice_past_its_points_is_coarsened_keeping_the_mean() {
        // Cosmos DB's writes 4.95 RU and queries 22.3 RU, 20 and 6 a
        // window: 0.05 RU steps would need ≈ 21,000 points.
        let costs = [(20.0, 99), (6.0, 446)];
        let sevs: Vec<Severity> = [4.95, 22.3]
            .iter()
            .map(|&c| Severity::from_samples(vec![c; 8]))
            .collect();
        let comps: Vec<(f64, &Severity)> = costs.iter().zip(&sevs).map(|(c, s)| (c.0, s)).collect();
        let x = WindowUnits::new(&comps);
        let (step, pmf) = x.pmf.clone().expect("lattice");
        assert!(pmf.len() <= PANJER_FINE_POINTS, "{}", pmf.len());
        let m = (step / 0.05).round();
        assert!(m >= 2.0 && (step - 0.05 * m).abs() < 1e-12, "{step}");
        // The mean is the costs' (20·4.95 + 6·22.3 = 232.8 RU); the
        // variance (20·4.95² + 6·22.3² = 3,473.79 RU²) grows by under a
        // quarter of a coarse step² per request.
        let mean: f64 = pmf
            .iter()
            .enumerate()
            .map(|(i, p)| i as f64 * step * p)
            .sum();
        let second: f64 = pmf
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64 * step).powi(2) * p)
            .sum();
        let var = second - mean * mean;
        assert!((mean - 232.8).abs() < 1e-9 * 232.8, "{mean}");
        assert!(
            var >= 3_473.79 - 1e-6 && var <= 3_473.79 + 26.0 * step * step / 4.0,
            "{var}"
        );
        // Against the recursion on the 0.05 lattice: the throttled units
        // E[(X − L)⁺] are never fewer (convex order) and within a coarse
        // step; the quantiles, within two.
        let fine = fine_pmf(&[(20.0, 99), (6.0, 446)], pmf.len() * m as usize);
        let excess = |f: &[f64], h: f64, limit: f64| -> f64 {
            f.iter()
                .enumerate()
                .map(|(i, p)| (i as f64 * h - limit).max(0.0) * p)
                .sum()
        };
        for limit in [100.0, 232.8, 400.0, 500.12, 600.0] {
            let (coarse, fine) = (x.excess(limit).0, excess(&fine, 0.05, limit));
            assert!(
                coarse >= fine - 1e-12 && coarse <= fine + step,
                "{limit}: {coarse} vs {fine}"
            );
        }
        let quantile = |f: &[f64], h: f64, q: f64| -> f64 {
            let mut c = 0.0;
            f.iter()
                .position(|p| {
                    c += p;
                    c >= q
                })
                .unwrap() as f64
                * h
        };
        for q in [0.5, 0.99, 1.0 - 1.0 / 3600.0] {
            let (coarse, fine) = (x.quantile(q), quantile(&fine, 0.05, q));
            assert!(
                (coarse - fine).abs() <= 2.0 * step,
                "{q}: {coarse} vs {fine}"
            );
        }
    }

    #[test]
    fn a_fine_lattice_is_the_plain_recursion_bit_for_bit() {
        // Costs on the 0.05 lattice (Cosmos DB's writes 4.95 RU and queries
        // 22.3 RU: 99 and 446 steps; then 99, 100 and 101 steps, whose
        // terms overlap at most points): Panjer's recursion computed side by
        // side past the costliest cost, and the running sums skipping the
        // +0 points, against the plain recursion and running sums (on the
        // 0.05 lattice kept whole: `fine_points` would coarsen these busy
        // loads, whose peaks need no such step).
        for costs in [
            vec![(2.0, 4.95, 99), (0.5, 22.3, 446)],
            vec![(4.0, 4.95, 99), (3.0, 5.0, 100), (3.0, 5.05, 101)],
        ] {
            let sevs: Vec<Severity> = costs
                .iter()
                .map(|&(_, c, _)| Severity::from_samples(vec![c; 8]))
                .collect();
            let comps: Vec<(f64, &Severity)> =
                costs.iter().zip(&sevs).map(|(c, s)| (c.0, s)).collect();
            let x = WindowUnits::with_fine_points(&comps, PANJER_FINE_POINTS);
            let (step, pmf) = x.pmf.clone().expect("lattice");
            assert_eq!(step, 0.05);
            let total: f64 = costs.iter().map(|c| c.0).sum();
            let terms: Vec<(usize, f64)> = costs
                .iter()
                .map(|&(lam, _, j)| (j, j as f64 * (lam / total)))
                .collect();
            let mut f = vec![0.0f64; pmf.len()];
            f[0] = (-total).exp();
            for n in 1..f.len() {
                let mut acc = 0.0;
                for &(j, jp) in &terms {
                    if j <= n {
                        acc += jp * f[n - j];
                    }
                }
                f[n] = total / n as f64 * acc;
            }
            assert!(
                (5_000..=PANJER_FINE_POINTS).contains(&pmf.len()),
                "{}",
                pmf.len()
            );
            assert!(pmf.iter().zip(&f).all(|(a, b)| a.to_bits() == b.to_bits()));
            let mut c = 0.0f64;
            for (i, p) in pmf.iter().enumerate() {
                c += p;
                assert_eq!(x.cum[i].to_bits(), c.to_bits(), "{i}");
            }
            let mut s = 1.0f64;
            let survivals = x.survivals(&pmf).to_vec();
            for (i, p) in pmf.iter().enumerate() {
                s -= p;
                assert_eq!(survivals[i].to_bits(), s.to_bits(), "{i}");
            }
            // The excess is the same asked once or again.
            assert_eq!(x.excess(300.0), x.excess(300.0));
            assert_eq!(x.excess(300.0), x.excess_at(300.0));
            // Begun at the first point above the limit, the excess is the
            // sum over every point, bit for bit: limits on a lattice point,
            // between points, below 0 and past the pmf.
            for limit in [-3.0, 0.0, 0.05, 12.34, 300.0, 301.15, 1e9, f64::INFINITY] {
                let (mut m1, mut m2) = (0.0f64, 0.0f64);
                for (i, p) in pmf.iter().enumerate() {
                    let e = i as f64 * step - limit;
                    if e > 0.0 {
                        m1 += e * p;
                        m2 += e * e * p;
                    }
                }
                let (e1, v) = x.excess_at(limit);
                assert_eq!(e1.to_bits(), m1.to_bits(), "{limit}");
                let var: f64 = (m2 - m1 * m1).max(0.0);
                assert_eq!(v.to_bits(), var.to_bits(), "{limit}");
            }
        }
        // Most of the first lattice's points are +0: 99a + 446b steps are
        // the only sums reached.
        let (w, q) = (
            Severity::from_samples(vec![4.95; 8]),
            Severity::from_samples(vec![22.3; 8]),
        );
        let x = WindowUnits::with_fine_points(&[(2.0, &w), (0.5, &q)], PANJER_FINE_POINTS);
        let pmf = x.pmf.map(|p| p.1).unwrap_or_default();
        let zeros = pmf.iter().filter(|p| p.to_bits() == 0).count();
        assert!(zeros * 3 > pmf.len() * 2, "{zeros} of {}", pmf.len());
    }

    #[test]
    fn narrow_blocks_are_the_plain_recursion_bit_for_bit() {
        // Thirty costs from j_min to j_min + 29 whole units (DynamoDB's
        // read units of a log-normal item size start a few 0.5-RCU steps
        // up): Panjer's recursion computed a block of j_min points at a
        // time from the first point, one register per point, over a pmf led
        // by +0 points, against the plain recursion, for every block width
        // and none (j_min 8, 9); with j_min 1, blocks of 4 summed
        // costliest term first, against the plain recursion summed in that
        // order, and within 10⁻¹² of the ascending sums; and 2 to 4 costs
        // from j_min 1, 1 to 5 units apart, summed point by point (a read
        // and a write of one size each).
        let blocks = (1..=9usize).map(|j_min| (j_min, 30usize, 1usize));
        let few = (2..=4).flat_map(|count| (1..=5).map(move |gap| (1, count, gap)));
        for (j_min, count, gap) in blocks.chain(few) {
            let costs: Vec<(f64, usize)> = (0..count)
                .map(|i| (0.1 + 0.013 * i as f64, j_min + gap * i))
                .collect();
            let sevs: Vec<Severity> = costs
                .iter()
                .map(|&(_, j)| Severity::from_samples(vec![j as f64; 8]))
                .collect();
            let comps: Vec<(f64, &Severity)> =
                costs.iter().zip(&sevs).map(|(c, s)| (c.0, s)).collect();
            let (step, pmf) = WindowUnits::new(&comps).pmf.expect("lattice");
            assert_eq!(step, 1.0);
            let total: f64 = costs.iter().map(|c| c.0).sum();
            let mut f = vec![0.0f64; pmf.len()];
            f[0] = (-total).exp();
            let mut ascending = f.clone();
            for n in 1..f.len() {
                let (mut acc, mut up) = (0.0, 0.0);
                for (&(lam, j), &(lam_down, j_down)) in costs.iter().zip(costs.iter().rev()) {
                    if j <= n {
                        up += j as f64 * (lam / total) * ascending[n - j];
                    }
                    let (lam, j) = if j_min == 1 {
                        (lam_down, j_down)
                    } else {
                        (lam, j)
                    };
                    if j <= n {
                        acc += j as f64 * (lam / total) * f[n - j];
                    }
                }
                f[n] = total / n as f64 * acc;
                ascending[n] = total / n as f64 * up;
            }
            // Past the costliest cost, blocks and a remainder.
            let costliest = costs.last().map_or(0, |c| c.1);
            assert!(pmf.len() > costliest + 3 * j_min, "{}", pmf.len());
            for (n, (a, b)) in pmf.iter().zip(&f).enumerate() {
                assert_eq!(a.to_bits(), b.to_bits(), "j_min {j_min}, point {n}");
                let c = ascending[n];
                assert!(
                    (a - c).abs() <= 1e-12 * c,
                    "j_min {j_min}, point {n}: {a} vs {c}"
                );
            }
        }
    }

    #[test]
    fn panjer_of_unit_costs_is_the_poisson_pmf() {
        let s = Severity::from_samples(vec![1.0; 16]);
        let x = WindowUnits::new(&[(4.0, &s)]);
        let (step, pmf) = x.pmf.clone().expect("lattice");
        assert_eq!(step, 1.0);
        // Poisson(4): P(0) = e^-4, P(3) = e^-4·64/6.
        assert!((pmf[0] - (-4.0f64).exp()).abs() < 1e-15);
        assert!((pmf[3] - (-4.0f64).exp() * 64.0 / 6.0).abs() < 1e-14);
        // P(X > 9) for Poisson(4) = 0.008132; the 0.01 upper quantile is 9.
        assert_eq!(x.upper_quantile(0.01), 9.0);
    }

    #[test]
    fn excess_over_a_limit_matches_direct_summation() {
        // Costs 0.5 or 1.5 units, λ = 20: compare E[(X−12)⁺] with a brute-force sum over the pmf.
        let mut v = vec![0.5; 12];
        v.extend(vec![1.5; 4]);
        let s = Severity::from_samples(v);
        let x = WindowUnits::new(&[(20.0, &s)]);
        let (step, pmf) = x.pmf.clone().expect("lattice");
        assert_eq!(step, 0.5);
        let total: f64 = pmf.iter().sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let mean: f64 = pmf
            .iter()
            .enumerate()
            .map(|(i, p)| i as f64 * step * p)
            .sum();
        assert!((mean - 20.0 * 0.75).abs() < 1e-9);
        let (m1, _) = x.excess(12.0);
        let direct: f64 = pmf
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64 * step - 12.0).max(0.0) * p)
            .sum();
        assert!((m1 - direct).abs() < 1e-12);
    }

    #[test]
    fn costs_with_a_common_factor_take_the_coarser_lattice() {
        // Every request costs 5.71 (a Cosmos DB write on the 0.01 lattice):
        // X = 5.71·N with N ~ Poisson(3), on a lattice of step 5.71, so
        // P(X ≤ 5.71·2) = e^-3·(1 + 3 + 4.5) = 0.42319.
        let s = Severity::from_samples(vec![5.71; 8]);
        let x = WindowUnits::new(&[(3.0, &s)]);
        let (step, pmf) = x.pmf.clone().expect("lattice");
        assert!((step - 5.71).abs() < 1e-12, "{step}");
        assert!(pmf.len() < 64, "{}", pmf.len());
        assert!((x.cdf(11.42) - (-3.0f64).exp() * 8.5).abs() < 1e-12);
        // Costs 1.5 and 2.5 share only the 0.5 lattice.
        let s = Severity::from_samples(vec![1.5, 2.5]);
        let x = WindowUnits::new(&[(3.0, &s)]);
        assert_eq!(x.pmf.as_ref().expect("lattice").0, 0.5);
    }

    #[test]
    fn a_huge_cost_takes_the_normal_form_without_allocating_its_lattice() {
        // One cost of 10¹² units on the unit lattice would need a 10¹²-point
        // pmf: panjer declines before allocating and the window falls back to
        // the normal form with the exact mean λ·c = 2·10¹².
        let s = Severity::from_samples(vec![1e12; 4]);
        let x = WindowUnits::new(&[(2.0, &s)]);
        assert!(x.pmf.is_none());
        assert_eq!(x.kappa[0], 2e12);
    }

    #[test]
    fn a_kept_distribution_is_the_one_its_own_streams_build() {
        // Bigtable's node time per write and per read (1/14 and 1/7.25
        // ms: on no lattice, so on one of a 64th of the mean): thousands
        // of points at 5 requests a window, long enough to keep.
        let a = Severity::from_samples(vec![1.0 / 14.0, 1.0 / 7.25]);
        let b = Severity::from_samples(vec![1.0 / 14.0, 1.0 / 7.0]);
        let pmf = |x: &WindowUnits| x.pmf.clone().expect("a lattice pmf");
        let built = pmf(&WindowUnits::new(&[(5.0, &a)]));
        assert!(built.1.len() >= KEPT_MIN_POINTS, "{}", built.1.len());
        assert_eq!(pmf(&WindowUnits::kept(&[(5.0, &a)])), built);
        // The same rate with other costs, the same costs at another rate,
        // or the streams in another order: each its own distribution.
        for comps in [
            vec![(5.0, &b)],
            vec![(5.000_000_001, &a)],
            vec![(5.0, &a), (0.5, &b)],
            vec![(0.5, &b), (5.0, &a)],
        ] {
            let kept = WindowUnits::kept(&comps);
            assert_eq!(pmf(&kept), pmf(&WindowUnits::new(&comps)));
            assert_ne!(pmf(&kept), built);
        }
        // Asked again (a clone: the same costs), the first is still the one.
        assert_eq!(pmf(&WindowUnits::kept(&[(5.0, &a.clone())])), built);
    }

    /// [`busy_windows`] against the exact distribution of X (Panjer's
    /// recursion on the costs' unit lattice, exact there): over 40,000
    /// stretches, the mean throttled units are W·E[(X − L)⁺] and the peak's
    /// cdf at y is F(y·L)^W (the largest of W independent windows), each
    /// within 4 standard errors.
    fn busy_windows_match_the_exact_window_distribution(
        comps: &[Component<'_>],
        limits: &Limits,
        limit: f64,
        windows: usize,
    ) {
        let costs: Vec<(f64, usize)> = comps
            .iter()
            .flat_map(|c| {
                c.severity
                    .pmf()
                    .iter()
                    .map(move |&(v, p)| (c.lambda * p, v as usize))
            })
            .collect();
        let f = fine_pmf(&costs, 4_000);
        let excess: f64 = f
            .iter()
            .enumerate()
            .map(|(x, p)| (x as f64 - limit).max(0.0) * p)
            .sum();
        let cdf = |y: f64| f.iter().take(y.floor() as usize + 1).sum::<f64>();
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(11);
        let runs = 40_000;
        let outs: Vec<Outcome> = (0..runs)
            .map(|_| busy_windows(comps, limits, windows, &mut rng))
            .collect();
        let n = runs as f64;
        let throttled: Vec<f64> = outs.iter().map(|o| o.throttled_units).collect();
        let mean = throttled.iter().sum::<f64>() / n;
        let var = throttled.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let expected = windows as f64 * excess;
        assert!(expected > 1.0, "the limit is reached: {expected}");
        assert!(
            (mean - expected).abs() <= 4.0 * (var / n).sqrt(),
            "throttled units {mean} vs W·E[(X − L)⁺] = {expected}"
        );
        for y in [0.6, 1.0, 1.4] {
            let p = cdf(y * limit).powi(windows as i32);
            let got = outs.iter().filter(|o| o.peak_utilization <= y).count() as f64 / n;
            assert!(
                (got - p).abs() <= 4.0 * (p * (1.0 - p) / n).sqrt() + 1e-9,
                "P(peak ≤ {y}) {got} vs F^W = {p}"
            );
        }
    }

    /// Writes of 200 to 390 units (191 costs, each as likely: an item of
    /// 200 to 390 KB), `lambda` a window over `windows` windows, against a
    /// 500-unit write limit: on the busy path (the costs are on the cost
    /// grid's side of the rule and the requests few), exact in
    /// distribution, and its write figures the writes' own.
    fn costly_writes_are_exact(lambda: f64, windows: usize) {
        let sev = Severity::from_samples((200..=390).map(f64::from).collect());
        let comps = [Component {
            lambda,
            severity: &sev,
            is_write: true,
        }];
        assert!(few_requests(&comps, windows) && costly_to_build(&comps));
        let limits = Limits {
            write: Some(500.0),
            ..Limits::default()
        };
        busy_windows_match_the_exact_window_distribution(&comps, &limits, 500.0, windows);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(3);
        for _ in 0..200 {
            let o = busy_windows(&comps, &limits, windows, &mut rng);
            assert_eq!(o.write_peak_utilization, o.peak_utilization);
            assert_eq!(o.throttled_write_units, o.throttled_units);
        }
    }

    #[test]
    fn busy_windows_of_costly_writes_are_exact_in_distribution() {
        // 0.03 a window over 3,600 windows (108 requests): two writes may
        // exceed the limit; almost every busy window holds one request.
        costly_writes_are_exact(0.03, 3_600);
    }

    #[test]
    fn busy_windows_of_many_requests_a_window_are_exact_in_distribution() {
        // 1.5 a window over 1,000 windows: most busy windows hold two or
        // more requests (drawn whole), a third one (their peak by the
        // largest of their costs).
        costly_writes_are_exact(1.5, 1_000);
    }

    #[test]
    fn the_largest_of_k_costs_has_cdf_f_to_the_k() {
        // Costs 1 to 10, each as likely: P(largest of k ≤ v) = (v/10)^k,
        // within 4 standard errors over 40,000 draws, for k = 1, 3 and 40.
        let sev = Severity::from_samples((1..=10).map(f64::from).collect());
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(5);
        let n = 40_000;
        for k in [1u64, 3, 40] {
            let draws: Vec<f64> = (0..n).map(|_| sev.largest_of(k, &mut rng)).collect();
            for v in [3.0, 7.0, 9.0, 10.0] {
                let p = (v / 10.0f64).powi(k as i32);
                let got = draws.iter().filter(|&&d| d <= v).count() as f64 / n as f64;
                assert!(
                    (got - p).abs() <= 4.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12,
                    "k = {k}: P(largest ≤ {v}) {got} vs {p}"
                );
            }
        }
        assert_eq!(sev.largest_of(0, &mut rng), 0.0);
    }

    #[test]
    fn requests_given_at_least_two_are_poisson_given_two() {
        // λ = 0.02 and 3: P(N ≥ 2) against 1 − e^{−λ}(1 + λ), and the
        // mean of N given N ≥ 2, (λ − P(N = 1)) ÷ P(N ≥ 2), within 4
        // standard errors over 40,000 draws.
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(9);
        for lam in [0.02f64, 3.0] {
            let tail = poisson_tail_from_two(lam);
            let direct = 1.0 - (-lam).exp() * (1.0 + lam);
            assert!(
                (tail - direct).abs() <= 1e-12 * direct.max(1e-3),
                "{tail} vs {direct}"
            );
            let first = lam * lam / 2.0 * (-lam).exp();
            let n = 40_000;
            let draws: Vec<f64> = (0..n)
                .map(|_| requests_at_least(lam, 2, first, tail, &mut rng) as f64)
                .collect();
            assert!(draws.iter().all(|&d| d >= 2.0));
            let mean = draws.iter().sum::<f64>() / n as f64;
            let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let expected = (lam - lam * (-lam).exp()) / tail;
            assert!(
                (mean - expected).abs() <= 4.0 * (var / n as f64).sqrt() + 1e-9,
                "{lam}: mean {mean} vs {expected}"
            );
        }
    }

    #[test]
    fn busy_windows_share_a_windows_requests_among_the_streams() {
        // Reads of 1 to 100 units (100 costs) at 0.02 a window and writes of
        // 50 at 0.01, against one combined limit of 120: a window's requests
        // are split between the streams by their rates.
        let reads = Severity::from_samples((1..=100).map(f64::from).collect());
        let writes = Severity::from_samples(vec![50.0]);
        let comps = [
            Component {
                lambda: 0.02,
                severity: &reads,
                is_write: false,
            },
            Component {
                lambda: 0.01,
                severity: &writes,
                is_write: true,
            },
        ];
        let limits = Limits {
            combined: Some(120.0),
            ..Limits::default()
        };
        busy_windows_match_the_exact_window_distribution(&comps, &limits, 120.0, 3_600);
    }

    #[test]
    fn a_few_costly_requests_are_drawn_by_busy_windows_only_when_few() {
        let sev = Severity::from_samples((200..=390).map(f64::from).collect());
        let one = Severity::from_samples(vec![2.0]);
        let comps = |lambda: f64, severity| {
            [Component {
                lambda,
                severity,
                is_write: true,
            }]
        };
        // 1,800 requests in an hour are few, 2,160 are not; nor are 9 a
        // window, however short the stretch (a window of more than 32 would
        // take draw_sum's normal form); nor is none.
        assert!(few_requests(&comps(0.5, &sev), 3_600));
        assert!(!few_requests(&comps(0.6, &sev), 3_600));
        assert!(few_requests(&comps(8.0, &sev), 10));
        assert!(!few_requests(&comps(9.0, &sev), 10));
        assert!(!few_requests(&comps(0.0, &sev), 3_600));
        assert!(costly_to_build(&comps(0.03, &sev)));
        // One cost, or a few (Cosmos DB's RU of a 1 KB write and of a
        // query: on no shared lattice, but a short pmf): built.
        assert!(!costly_to_build(&comps(0.03, &one)));
        let few = Severity::from_samples(vec![4.95, 22.3, 22.3]);
        assert!(!costly_to_build(&comps(0.03, &few)));
    }

    #[test]
    fn busy_count_is_binomial() {
        // W = 3,600 windows at λ = 0.002 (7.2 busy expected: inversion) and
        // λ = 0.01 (35.8: BTPE): mean W·p and variance W·p·(1 − p) within
        // 4 standard errors over 40,000 draws; P(0) = e^{−λW} at the first.
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(17);
        for lam in [0.002f64, 0.01] {
            let p = -(-lam).exp_m1();
            let n = 40_000;
            let draws: Vec<f64> = (0..n)
                .map(|_| busy_count(3_600, lam, p, &mut rng) as f64)
                .collect();
            let mean = draws.iter().sum::<f64>() / n as f64;
            let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let (m, v) = (3_600.0 * p, 3_600.0 * p * (1.0 - p));
            assert!(
                (mean - m).abs() <= 4.0 * (v / n as f64).sqrt(),
                "{lam}: mean {mean} vs {m}"
            );
            // The sample variance's standard error for a near-Poisson count: v·√(2/n) roughly.
            assert!(
                (var - v).abs() <= 4.0 * v * (2.0 / n as f64).sqrt() + 0.05 * v,
                "{lam}: var {var} vs {v}"
            );
            if lam == 0.002 {
                let zeros = draws.iter().filter(|&&d| d == 0.0).count() as f64 / n as f64;
                let p0 = (-lam * 3_600.0).exp();
                assert!((zeros - p0).abs() <= 4.0 * (p0 * (1.0 - p0) / n as f64).sqrt());
            }
        }
    }

    #[test]
    fn busy_windows_meet_separate_read_and_write_limits_as_drawn_windows_do() {
        // DynamoDB-like: reads of 1 to 100 units (100 costs) at 0.02 a
        // window against 80, writes of 200 to 390 at 0.01 against 300.
        // Over 2,000 stretches of 3,600 windows each, busy windows and
        // every window drawn (draw_windows, the reference) agree on the mean
        // throttled units, write units and peak within 4 standard errors.
        let reads = Severity::from_samples((1..=100).map(f64::from).collect());
        let writes = Severity::from_samples((200..=390).map(f64::from).collect());
        let comps = [
            Component {
                lambda: 0.02,
                severity: &reads,
                is_write: false,
            },
            Component {
                lambda: 0.01,
                severity: &writes,
                is_write: true,
            },
        ];
        let limits = Limits {
            read: Some(80.0),
            write: Some(300.0),
            ..Limits::default()
        };
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(23);
        let runs = 2_000;
        let busy: Vec<Outcome> = (0..runs)
            .map(|_| busy_windows(&comps, &limits, 3_600, &mut rng))
            .collect();
        let every: Vec<Outcome> = (0..runs)
            .map(|_| draw_windows(&comps, &limits, 3_600, &mut rng, &mut |_, _, _| {}))
            .collect();
        let stats = |xs: &[Outcome], f: fn(&Outcome) -> f64| {
            let n = xs.len() as f64;
            let m = xs.iter().map(f).sum::<f64>() / n;
            let v = xs.iter().map(|x| (f(x) - m).powi(2)).sum::<f64>() / (n - 1.0);
            (m, v / n)
        };
        type Figure = fn(&Outcome) -> f64;
        let figures: [(&str, Figure); 3] = [
            ("throttled", |o| o.throttled_units),
            ("throttled writes", |o| o.throttled_write_units),
            ("peak", |o| o.peak_utilization),
        ];
        for (name, f) in figures {
            let ((a, va), (b, vb)) = (stats(&busy, f), stats(&every, f));
            assert!(b > 0.0, "{name}: the limits are reached");
            assert!(
                (a - b).abs() <= 4.0 * (va + vb).sqrt(),
                "{name}: {a} vs {b}"
            );
        }
    }
}
