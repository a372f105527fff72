//! Popularity fitted to observed key counts: the Zipf exponent by maximum
//! likelihood on the rank–frequency, its goodness of fit as the
//! Kolmogorov–Smirnov distance between the observed and fitted cumulative
//! shares by rank, and, when Zipf fits badly, the observed head as weights
//! with a Zipf tail fitted to the rest.
//!
//! The likelihood treats the keys as ranked by their counts: rank r of n
//! takes r^-s / H(n, s) of the requests. When only the hottest k keys have
//! counts (a capped key table), the other requests are one group of ranks
//! k+1..n (grouped-data likelihood), so the same estimator works on exact
//! and sketched tables:
//!
//! ℓ(s) = −s Σ_{r≤k} c_r ln r − M ln H(n, s) + T ln(H(n, s) − H(k, s)),
//!
//! with M all requests and T those outside the head.

use crate::distributions::popularity::{harmonic, harmonic_range};
use crate::scenario::Popularity;

/// KS distance above which Zipf is said to fit badly (5% of requests
/// misplaced at the worst rank).
pub const KS_GOOD: f64 = 0.05;
/// Ranks kept as observed weights when Zipf fits badly.
pub const HEAD_WEIGHTS: usize = 1000;
/// Most weights a scenario takes (the scenario format's cap).
pub const MAX_WEIGHTS: u64 = 1_000_000;

/// A Zipf fit to a rank–frequency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZipfFit {
    /// The exponent s maximising the likelihood.
    pub exponent: f64,
    /// Kolmogorov–Smirnov distance over the ranks with counts.
    pub ks: f64,
    /// Keys (ranks) the distribution spans.
    pub keys: u64,
}

/// Maximises the grouped likelihood of the module docs over s ∈ [0, 10],
/// for `counts` (ranks first..first+len, hottest first), `tail` requests of
/// ranks after them up to `n`. Golden-section search: ℓ is concave in s.
fn mle(counts: &[u64], first: u64, tail: u64, n: u64) -> f64 {
    let k = first + counts.len() as u64 - 1;
    let head: f64 = counts.iter().map(|&c| c as f64).sum();
    let m = head + tail as f64;
    let a: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * ((first + i as u64) as f64).ln())
        .sum();
    let ll = |s: f64| {
        let h = harmonic_range(first, n, s);
        let mut v = -s * a - m * h.ln();
        if tail > 0 && n > k {
            v += tail as f64 * harmonic_range(k + 1, n, s).max(f64::MIN_POSITIVE).ln();
        }
        v
    };
    let (mut lo, mut hi) = (0.0f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (ll(x1), ll(x2));
    for _ in 0..90 {
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = ll(x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = ll(x1);
        }
    }
    0.5 * (lo + hi)
}

/// KS distance between the observed cumulative shares of `counts` (of
/// `total` requests) and Zipf(s) over `n` keys.
fn ks(counts: &[u64], total: u64, n: u64, s: f64) -> f64 {
    let h = harmonic(n, s);
    let (mut emp, mut fit, mut d) = (0.0f64, 0.0f64, 0.0f64);
    for (i, &c) in counts.iter().enumerate() {
        emp += c as f64 / total as f64;
        fit += ((i + 1) as f64).powf(-s) / h;
        d = d.max((emp - fit).abs());
    }
    d
}

/// The Zipf fit of `counts` (hottest first) of `total` requests over `n`
/// keys (`n` ≥ `counts.len()`; more when keys past a cap have no counts).
///
/// ```
/// use keyheat::fit::zipf::zipf;
/// // Counts exactly proportional to r^-1 over 1,000 keys.
/// let counts: Vec<u64> = (1..=1000u64).map(|r| 1_000_000 / r).collect();
/// let total = counts.iter().sum();
/// let f = zipf(&counts, total, 1000);
/// assert!((f.exponent - 1.0).abs() < 0.01 && f.ks < 0.01);
/// ```
pub fn zipf(counts: &[u64], total: u64, n: u64) -> ZipfFit {
    let n = n.max(counts.len() as u64).max(1);
    if counts.is_empty() || total == 0 {
        return ZipfFit {
            exponent: 0.0,
            ks: 0.0,
            keys: n,
        };
    }
    let head: u64 = counts.iter().sum();
    let s = mle(counts, 1, total.saturating_sub(head), n);
    ZipfFit {
        exponent: s,
        ks: ks(counts, total, n, s),
        keys: n,
    }
}

/// A fitted popularity: what to write in a scenario, and what was found.
#[derive(Debug, Clone, PartialEq)]
pub struct PopularityFit {
    /// The entity's instance count.
    pub count: u64,
    /// The popularity to use.
    pub popularity: Popularity,
    /// The Zipf fit to all ranks.
    pub zipf: ZipfFit,
    /// With observed head weights: the tail's Zipf exponent and the head's length.
    pub tail: Option<(f64, usize)>,
    /// One sentence on the fit, for comments and reports.
    pub note: String,
}

/// The popularity of `counts` (hottest first) of `total` requests over `n`
/// keys: Zipf when its KS distance is at most [`KS_GOOD`], else the hottest
/// [`HEAD_WEIGHTS`] keys' observed counts as weights and a Zipf tail fitted
/// to the ranks after them (when `n` ≤ [`MAX_WEIGHTS`]).
pub fn popularity(counts: &[u64], total: u64, n: u64) -> PopularityFit {
    let z = zipf(counts, total, n);
    let n = z.keys;
    if z.ks <= KS_GOOD || n > MAX_WEIGHTS || counts.len() < 2 {
        let why = if z.ks <= KS_GOOD {
            format!("fits (KS {:.4} ≤ {KS_GOOD})", z.ks)
        } else if n > MAX_WEIGHTS {
            format!("fits badly (KS {:.4} > {KS_GOOD}) but {n} keys are more weights than a scenario takes", z.ks)
        } else {
            "from too few keys to judge".to_string()
        };
        return PopularityFit {
            count: n,
            popularity: Popularity::Zipf {
                exponent: z.exponent,
            },
            zipf: z,
            tail: None,
            note: format!(
                "Zipf exponent {:.4} by maximum likelihood over {n} keys {why}",
                z.exponent
            ),
        };
    }
    let k = HEAD_WEIGHTS.min(counts.len());
    let mut weights: Vec<f64> = counts[..k].iter().map(|&c| c as f64).collect();
    let head: u64 = counts[..k].iter().sum();
    let rest_total = total - head;
    let rest_counts = &counts[k..];
    let rest_head: u64 = rest_counts.iter().sum();
    let (s_tail, tail_keys) = (
        if rest_counts.is_empty() {
            z.exponent
        } else {
            mle(rest_counts, k as u64 + 1, rest_total - rest_head, n)
        },
        n - k as u64,
    );
    if tail_keys > 0 {
        let h = harmonic_range(k as u64 + 1, n, s_tail);
        weights.extend((k as u64 + 1..=n).map(|r| {
            let w = rest_total as f64 * (r as f64).powf(-s_tail) / h;
            // Four significant figures keep the scenario file short.
            let mag = 10f64.powi(3 - w.abs().log10().floor() as i32);
            (w * mag).round() / mag
        }));
    }
    PopularityFit {
        count: n,
        popularity: Popularity::Weights { weights },
        zipf: z,
        tail: Some((s_tail, k)),
        note: format!(
            "Zipf (exponent {:.4} by maximum likelihood) fits badly: KS {:.4} > {KS_GOOD}; the hottest {k} keys' observed counts are weights, and the other {tail_keys} keys follow a Zipf tail of exponent {s_tail:.4} fitted to them",
            z.exponent, z.ks
        ),
    }
}

/// A popularity as written in a scenario (weights abbreviated for reports).
pub fn describe(p: &Popularity) -> String {
    match p {
        Popularity::Zipf { exponent } => format!("zipf {exponent:.4}"),
        Popularity::Weights { weights } => format!(
            "weights ({} keys: observed head, fitted tail)",
            weights.len()
        ),
        Popularity::Uniform => "uniform".into(),
        other => format!("{other:?}"),
    }
}
