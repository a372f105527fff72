//! The distinct-key table in bounded memory: exact counts for up to `cap`
//! keys; past the cap it becomes a Space-Saving heavy-hitter sketch
//! (Metwally, Agrawal & El Abbadi, "Efficient computation of frequent and
//! top-k elements in data streams", ICDT 2005) over `cap` counters — a new
//! key takes the smallest counter's place and count, so any key with more
//! than N / cap requests is kept and each kept count is over its true count
//! by at most the evicted count it started from (its `error`) — and the
//! distinct keys are counted by a HyperLogLog (Flajolet et al. 2007) with
//! 2¹⁴ registers (standard error 1.04 / √16384 ≈ 0.8%).
//!
//! Counts are whole numbers, so the exact table does not depend on the order
//! keys arrive in; the sketch beyond the cap does.

use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

/// HyperLogLog register bits (2¹⁴ registers).
const HLL_BITS: u32 = 14;

/// One key's count.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyCount {
    /// The key (a group key's fields).
    pub key: Box<[u8]>,
    /// Requests counted (an upper bound past the cap).
    pub count: u64,
    /// How much of `count` may belong to evicted keys (0 while exact).
    pub error: u64,
}

/// See the module docs.
#[derive(Debug, Clone)]
pub struct KeyTable {
    cap: usize,
    index: FxHashMap<Box<[u8]>, u32>,
    counts: Vec<(u64, u64)>,
    keys: Vec<Box<[u8]>>,
    /// (count, slot) of every counter, once the table is a sketch.
    order: Option<BTreeSet<(u64, u32)>>,
    registers: Vec<u8>,
    total: u64,
}

impl KeyTable {
    /// A table exact for up to `cap` keys (at least 1).
    pub fn new(cap: usize) -> KeyTable {
        KeyTable {
            cap: cap.max(1),
            index: FxHashMap::default(),
            counts: Vec::new(),
            keys: Vec::new(),
            order: None,
            registers: vec![0u8; 1 << HLL_BITS],
            total: 0,
        }
    }

    /// Counts `n` requests of `key`.
    pub fn add(&mut self, key: &[u8], n: u64) {
        self.total += n;
        let h = crate::store::hash::key_hash(key);
        let reg = (h >> (64 - HLL_BITS)) as usize;
        let rank = ((h << HLL_BITS) | (1 << (HLL_BITS - 1))).leading_zeros() as u8 + 1;
        if rank > self.registers[reg] {
            self.registers[reg] = rank;
        }
        if let Some(&slot) = self.index.get(key) {
            let s = slot as usize;
            if let Some(order) = self.order.as_mut() {
                order.remove(&(self.counts[s].0, slot));
                order.insert((self.counts[s].0 + n, slot));
            }
            self.counts[s].0 += n;
            return;
        }
        if self.keys.len() < self.cap {
            let slot = self.keys.len() as u32;
            self.index.insert(key.into(), slot);
            self.keys.push(key.into());
            self.counts.push((n, 0));
            return;
        }
        // Past the cap: Space-Saving replaces the smallest counter.
        let order = self.order.get_or_insert_with(|| {
            self.counts
                .iter()
                .enumerate()
                .map(|(i, c)| (c.0, i as u32))
                .collect()
        });
        let Some((min, slot)) = order.pop_first() else {
            return;
        };
        let s = slot as usize;
        self.index.remove(&self.keys[s]);
        self.keys[s] = key.into();
        self.index.insert(key.into(), slot);
        self.counts[s] = (min + n, min);
        order.insert((min + n, slot));
    }

    /// Whether every count is exact (the cap was never reached).
    pub fn exact(&self) -> bool {
        self.order.is_none()
    }

    /// The cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Requests counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Distinct keys: exact while the table is, else the HyperLogLog estimate.
    pub fn distinct(&self) -> f64 {
        if self.exact() {
            return self.keys.len() as f64;
        }
        let m = f64::from(1u32 << HLL_BITS);
        let sum: f64 = self
            .registers
            .iter()
            .map(|&r| 2f64.powi(-i32::from(r)))
            .sum();
        let raw = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        }
        .max(self.keys.len() as f64)
    }

    /// Every kept key, hottest first (ties by key bytes).
    pub fn ranked(&self) -> Vec<KeyCount> {
        let mut v: Vec<KeyCount> = self
            .keys
            .iter()
            .zip(&self.counts)
            .map(|(k, &(count, error))| KeyCount {
                key: k.clone(),
                count,
                error,
            })
            .collect();
        v.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.key.cmp(&b.key)));
        v
    }

    /// One line saying how keys were counted, for the outputs.
    pub fn statement(&self) -> String {
        if self.exact() {
            format!(
                "{} distinct keys, counted exactly (the table holds up to {} keys)",
                self.keys.len(),
                self.cap
            )
        } else {
            format!(
                "≈{:.0} distinct keys (HyperLogLog, ±0.8%): past the cap of {} keys the table became a Space-Saving sketch of {} counters, so each kept count is exact within {} requests (N / cap) and every key with more requests than that is kept",
                self.distinct(),
                self.cap,
                self.cap,
                self.total / self.cap as u64
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_below_the_cap_in_any_order() {
        let mut a = KeyTable::new(10);
        let mut b = KeyTable::new(10);
        for (k, n) in [("x", 3), ("y", 1), ("x", 2)] {
            a.add(k.as_bytes(), n);
        }
        for (k, n) in [("y", 1), ("x", 5)] {
            b.add(k.as_bytes(), n);
        }
        assert_eq!(a.ranked(), b.ranked());
        assert_eq!(a.ranked()[0].count, 5);
        assert!(a.exact() && a.distinct() == 2.0);
    }

    #[test]
    fn space_saving_keeps_the_heavy_hitter_past_the_cap() {
        // 4 counters, 1,000 cold keys once each, one hot key 500 times in
        // between: N = 1,500, so any key above 1,500 / 4 = 375 is kept.
        let mut t = KeyTable::new(4);
        for i in 0..1000u32 {
            t.add(format!("cold{i}").as_bytes(), 1);
            if i % 2 == 0 {
                t.add(b"hot", 1);
            }
        }
        assert!(!t.exact());
        let top = &t.ranked()[0];
        assert_eq!(&*top.key, b"hot");
        assert!(top.count >= 500 && top.count - top.error <= 500);
        // 1,001 distinct keys, within the HyperLogLog's few percent.
        assert!((t.distinct() - 1001.0).abs() < 60.0, "{}", t.distinct());
    }
}
