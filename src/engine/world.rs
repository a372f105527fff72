//! One trial's random world, shared by every table and stream: which
//! instance holds each popularity rank, how instances are named, and the
//! salt of stores whose hash is internal.

use super::stream::KeySpace;
use crate::store::hash::{fmix64, key_hash};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{HashMap, HashSet};

/// Ranks placed key by key with real key strings.
pub const HEAD_RANKS: u64 = 256;

/// Mixed into the seed of an entity's head-instance stream.
const HEAD_SEED: u64 = 0x4EAD_1D5E_ED0F_0A11;

/// One trial's random world (see the module docs).
pub(super) struct World {
    pub(super) place_salt: u64,
    pub(super) name_salt: u64,
    /// (entity name, count) → instance index of ranks 1..=len.
    ranks: HashMap<(String, u64), Vec<u64>>,
    /// Entities with named values: the value index of each rank, the same
    /// in every trial.
    fixed: HashMap<String, Vec<u64>>,
}

impl World {
    /// A fresh world: the placement salt, then the naming salt, drawn from
    /// the trial's stream.
    pub(super) fn new(rng: &mut Xoshiro256PlusPlus) -> World {
        let place_salt: u64 = rng.random();
        let name_salt: u64 = rng.random();
        World {
            place_salt,
            name_salt,
            ranks: HashMap::new(),
            fixed: HashMap::new(),
        }
    }

    /// The same world with the entities of `value_ranks` (name, value index
    /// of each rank) holding their ranks on their named values.
    pub(super) fn with_values(mut self, value_ranks: &[(String, Vec<u64>)]) -> World {
        self.fixed = value_ranks.iter().cloned().collect();
        self
    }

    /// Instance indices of the top `k` ranks of an entity of `count`
    /// instances: drawn from the entity's own stream (seeded by the trial's
    /// naming salt, the entity and its count), so every table and variant
    /// that asks gets the same instances, in whatever order they ask.
    pub(super) fn head(&mut self, entity: &str, count: u64, k: u64) -> Vec<u64> {
        if let Some(order) = self.fixed.get(entity).filter(|o| o.len() as u64 == count) {
            return order[..k.min(count) as usize].to_vec();
        }
        let salt = self.name_salt;
        let draw = |k: u64| {
            let seed = fmix64(salt ^ HEAD_SEED ^ key_hash(entity.as_bytes()) ^ fmix64(count));
            distinct_ids(
                k.max(HEAD_RANKS).min(count),
                count,
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            )
        };
        let e = self
            .ranks
            .entry((entity.to_string(), count))
            .or_insert_with(|| draw(k));
        if (e.len() as u64) < k.min(count) {
            *e = draw(k);
        }
        e[..k.min(e.len() as u64) as usize].to_vec()
    }
}

/// `k` distinct instance ids out of `n` (uniform, without replacement).
fn distinct_ids(k: u64, n: u64, rng: &mut Xoshiro256PlusPlus) -> Vec<u64> {
    if k >= n {
        let mut all: Vec<u64> = (0..n).collect();
        // Fisher–Yates so ranks map to random instances.
        for i in (1..all.len()).rev() {
            let j = rng.random_range(0..=i);
            all.swap(i, j);
        }
        return all;
    }
    let mut seen = HashSet::with_capacity(k as usize);
    let mut out = Vec::with_capacity(k as usize);
    while (out.len() as u64) < k {
        let id = rng.random_range(0..n);
        if seen.insert(id) {
            out.push(id);
        }
    }
    out
}

/// Instance ids for every entity of `keys`: the driver's `id`, and the other
/// entities decoded from combination index `c` (mixed radix). With no driver,
/// `id` itself is the combination index over all entities.
pub(super) fn instance_ids(
    keys: &KeySpace,
    driver: Option<usize>,
    id: u64,
    c: u64,
    salt: u64,
) -> Vec<u64> {
    let ents = &keys.entities;
    let mut out = vec![0u64; ents.len()];
    let mut rest = match driver {
        Some(_) => c,
        None => id,
    };
    // The entities inside a hashed part first: a stream's combinations
    // count only those ([`KeySpace::hashed`]), so `c` names them.
    let hashed = keys.hashed_entities().unwrap_or_default();
    let order = hashed
        .iter()
        .copied()
        .chain((0..ents.len()).filter(|i| !hashed.contains(i)));
    for i in order {
        if Some(i) == driver {
            out[i] = id;
        } else {
            let count = ents[i].1.max(1);
            out[i] = rest % count;
            rest /= count;
        }
    }
    named_ids(keys, &out, salt)
}

/// The names of instances `raw` (one instance index per entity of `keys`):
/// a salted mix of each entity and index, 12 decimal digits at most; an
/// entity with named values keeps the index of its value.
pub(super) fn named_ids(keys: &KeySpace, raw: &[u64], salt: u64) -> Vec<u64> {
    keys.entities
        .iter()
        .zip(raw)
        .enumerate()
        .map(|(i, ((name, _), v))| {
            if keys.values.get(i).is_some_and(|vals| !vals.is_empty()) {
                return *v;
            }
            let e = key_hash(name.as_bytes());
            fmix64(salt ^ e ^ fmix64(*v)) % 1_000_000_000_000
        })
        .collect()
}
