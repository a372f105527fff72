//! Walker's alias method (Vose's construction) over weighted entries, each
//! fused with the partition it lands on, so one draw of a request yields its
//! partition: one 64-bit random number, one table read.

use rand::RngCore;

/// One alias-table slot: keep `partition` with probability `threshold`/2³²,
/// else take `alias_partition`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    threshold: u32,
    partition: u32,
    alias_partition: u32,
}

/// An alias table over (weight, partition) entries.
#[derive(Debug, Clone, PartialEq)]
pub struct AliasTable {
    slots: Vec<Slot>,
}

impl AliasTable {
    /// Builds the table; entries with zero weight are never drawn. `None` when
    /// there is no positive weight.
    ///
    /// ```
    /// use keyheat::distributions::alias::AliasTable;
    /// use rand::SeedableRng;
    /// let t = AliasTable::new(&[(3.0, 7), (1.0, 9)]).unwrap();
    /// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    /// let sevens = (0..100_000).filter(|_| t.sample(&mut rng) == 7).count();
    /// assert!((sevens as f64 / 100_000.0 - 0.75).abs() < 0.01);
    /// ```
    pub fn new(entries: &[(f64, u32)]) -> Option<AliasTable> {
        let n = entries.len();
        let total: f64 = entries.iter().map(|e| e.0.max(0.0)).sum();
        if n == 0 || total <= 0.0 {
            return None;
        }
        let mut prob: Vec<f64> = entries
            .iter()
            .map(|e| e.0.max(0.0) * n as f64 / total)
            .collect();
        let mut alias: Vec<usize> = (0..n).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| prob[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            alias[s] = l;
            prob[l] -= 1.0 - prob[s];
            if prob[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Leftovers are 1 up to rounding.
        for i in small.into_iter().chain(large) {
            prob[i] = 1.0;
        }
        let slots = (0..n)
            .map(|i| Slot {
                threshold: if prob[i] >= 1.0 {
                    u32::MAX
                } else {
                    (prob[i] * 4_294_967_296.0) as u32
                },
                partition: entries[i].1,
                alias_partition: entries[alias[i]].1,
            })
            .collect();
        Some(AliasTable { slots })
    }

    /// Draws one entry's partition.
    #[inline]
    pub fn sample<R: RngCore + ?Sized>(&self, rng: &mut R) -> u32 {
        let r = rng.next_u64();
        // High 32 bits pick the slot (multiply-shift), low 32 bits the coin.
        let i = (((r >> 32) * self.slots.len() as u64) >> 32) as usize;
        let slot = &self.slots[i];
        if (r as u32) < slot.threshold || slot.threshold == u32::MAX {
            slot.partition
        } else {
            slot.alias_partition
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table is empty (never: construction needs a positive weight).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// Keeps the first `keep` entries (the hottest keys, in rank order) and merges
/// every later entry into one entry per partition. Exact for the partition a
/// request lands on: a mixture of keys that share a partition lands there
/// with their summed weight. It shrinks a 10⁶-key table to ≈ keep + P slots,
/// so per-request draws stay in cache.
///
/// ```
/// use keyheat::distributions::alias::merge_cold;
/// let m = merge_cold(&[(5.0, 0), (1.0, 1), (2.0, 1), (3.0, 0)], 1, 2);
/// assert_eq!(m, vec![(5.0, 0), (3.0, 0), (3.0, 1)]);
/// ```
pub fn merge_cold(entries: &[(f64, u32)], keep: usize, partitions: usize) -> Vec<(f64, u32)> {
    let keep = keep.min(entries.len());
    let mut out: Vec<(f64, u32)> = entries[..keep].to_vec();
    let mut cold = vec![0.0f64; partitions];
    for &(w, p) in &entries[keep..] {
        if let Some(c) = cold.get_mut(p as usize) {
            *c += w;
        }
    }
    out.extend(
        cold.into_iter()
            .enumerate()
            .filter(|(_, w)| *w > 0.0)
            .map(|(p, w)| (w, p as u32)),
    );
    out
}
