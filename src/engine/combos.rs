//! The entities of a key other than the one whose ranks the engine walks
//! (the stream's driver), each drawn independently from its own popularity:
//! their combinations and the share of a driver instance's requests each
//! takes.
//!
//! A key `WH#{warehouse}#STATUS#{status}` read by warehouse, with statuses
//! weighted 0.05/0.15/0.2/0.1/0.5, sends a warehouse's requests to its five
//! status keys in those proportions: the hottest key takes the hottest
//! warehouse's share × 0.5, not × 1/5. With every other entity uniform the
//! combinations share alike (1/count each), as a uniform entity's instances do.

use crate::distributions::popularity::RankShares;

/// Combinations enumerated one by one (a driver instance's hottest keys).
pub const ENUMERATED: usize = 16;
/// Most groups of equal-share combinations kept for growth classes.
const MAX_GROUPS: usize = 32;

/// One other entity of a key: its index in the key space, instance count
/// and shares by rank.
#[derive(Debug, Clone)]
pub struct OtherEntity {
    /// Index into `KeySpace::entities`.
    pub index: usize,
    /// Instances (values) of the entity.
    pub count: u64,
    /// Shares by rank (rank 1 hottest).
    pub shares: RankShares,
}

/// The combinations of a key's other entities (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Combos {
    /// Number of combinations (the product of the other entities' counts).
    pub count: f64,
    /// Whether every combination takes the same share, 1/count.
    pub uniform: bool,
    /// The hottest combinations when they do not share alike, hottest first:
    /// (for each other entity, (its key-space index, 1-based rank), share).
    /// All of them when there are at most [`ENUMERATED`], else the top
    /// [`ENUMERATED`]. Empty when `uniform`.
    pub top: Vec<(Vec<(usize, u64)>, f64)>,
    /// Σ q² over every combination (1/count when uniform).
    pub sum_sq: f64,
    /// (combinations, share of each) in descending share, Σ count·share = 1:
    /// groups of equal shares, the hottest exact, the coldest merged by their
    /// mean share (growth classes).
    pub groups: Vec<(f64, f64)>,
}

impl Combos {
    /// Equal shares over `count` combinations (no other entity, or every
    /// other entity uniform).
    pub fn uniform(count: f64) -> Combos {
        let count = count.max(1.0);
        Combos {
            count,
            uniform: true,
            top: Vec::new(),
            sum_sq: 1.0 / count,
            groups: vec![(count, 1.0 / count)],
        }
    }

    /// The combinations of `others`, each drawn independently from its own
    /// popularity.
    ///
    /// ```
    /// use keyheat::distributions::popularity::RankShares;
    /// use keyheat::engine::combos::{Combos, OtherEntity};
    /// use keyheat::scenario::Popularity;
    /// let status = OtherEntity {
    ///     index: 1,
    ///     count: 5,
    ///     shares: RankShares::new(
    ///         &Popularity::Weights { weights: vec![0.05, 0.15, 0.2, 0.1, 0.5] },
    ///         5,
    ///     ),
    /// };
    /// let c = Combos::of(&[status]);
    /// assert_eq!(c.count, 5.0);
    /// assert!((c.max_share() - 0.5).abs() < 1e-12);
    /// // Σ q² = 0.05² + 0.15² + 0.2² + 0.1² + 0.5² = 0.325.
    /// assert!((c.sum_sq - 0.325).abs() < 1e-12);
    /// ```
    pub fn of(others: &[OtherEntity]) -> Combos {
        let count: f64 = others.iter().map(|o| o.count as f64).product();
        if others.iter().all(|o| o.shares.is_uniform()) {
            return Combos::uniform(count);
        }
        let sum_sq: f64 = others
            .iter()
            .map(|o| o.shares.moments(1, o.count).1)
            .product();
        Combos {
            count: count.max(1.0),
            uniform: false,
            top: top_combinations(others),
            sum_sq,
            groups: groups(others),
        }
    }

    /// The share of the hottest combination.
    pub fn max_share(&self) -> f64 {
        if self.uniform {
            1.0 / self.count
        } else {
            self.top.first().map_or(0.0, |t| t.1)
        }
    }
}

/// The hottest [`ENUMERATED`] combinations (all, when there are fewer):
/// the product of each entity's hottest ranks, sorted by share.
fn top_combinations(others: &[OtherEntity]) -> Vec<(Vec<(usize, u64)>, f64)> {
    let mut combos: Vec<(Vec<(usize, u64)>, f64)> = vec![(Vec::new(), 1.0)];
    for o in others {
        let ranks = o.count.min(ENUMERATED as u64);
        let mut next = Vec::with_capacity(combos.len() * ranks as usize);
        for (ids, q) in &combos {
            for r in 1..=ranks {
                let mut ids = ids.clone();
                ids.push((o.index, r));
                next.push((ids, q * o.shares.share(r)));
            }
        }
        // Stable: ties keep rank order.
        next.sort_by(|a, b| b.1.total_cmp(&a.1));
        next.truncate(ENUMERATED);
        combos = next;
    }
    combos
}

/// Groups of equal-share combinations covering every combination.
fn groups(others: &[OtherEntity]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = vec![(1.0, 1.0)];
    for o in others {
        let own = entity_groups(o);
        let mut next = Vec::with_capacity(out.len() * own.len());
        for (c1, s1) in &out {
            for (c2, s2) in &own {
                next.push((c1 * c2, s1 * s2));
            }
        }
        out = merge(next);
    }
    out
}

/// One entity's ranks in groups: the first [`ENUMERATED`] one by one, then
/// doubling bands at their mean share (runs of equal shares are one group).
fn entity_groups(o: &OtherEntity) -> Vec<(f64, f64)> {
    let n = o.count.max(1);
    let mut out = Vec::new();
    let mut a = 1u64;
    while a <= n {
        let b = if a <= ENUMERATED as u64 {
            a
        } else {
            (2 * a - 1).min(n)
        };
        let ranks = (b - a + 1) as f64;
        out.push((ranks, o.shares.moments(a, b).0 / ranks));
        a = b + 1;
    }
    out
}

/// Sorts groups by share (hottest first), joins equal shares, and merges the
/// coldest into one mean-share group beyond [`MAX_GROUPS`], keeping Σ count·share.
fn merge(mut groups: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    groups.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (c, s) in groups {
        match out.last_mut() {
            Some(last) if last.1 == s => last.0 += c,
            _ => out.push((c, s)),
        }
    }
    if out.len() > MAX_GROUPS {
        let rest = out.split_off(MAX_GROUPS - 1);
        let count: f64 = rest.iter().map(|g| g.0).sum();
        let mass: f64 = rest.iter().map(|g| g.0 * g.1).sum();
        out.push((count, mass / count));
    }
    out
}
