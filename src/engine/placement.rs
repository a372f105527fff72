//! Where one stream's request rate lands on a table's partitions in one time
//! bucket, hottest ranks first:
//! - the head (the top [`HEAD_RANKS`] ranks) is placed key by key: each rank
//!   gets a distinct random instance, its key string is formatted and placed
//!   by the store's own function, so `keys.csv` names real keys;
//! - the next ranks, as many as can matter ([`single_draw_ranks`]: none when
//!   the tail's [`tail_peak_error`] is within [`TAIL_PEAK_ERROR`] anyway, up
//!   to [`MAX_SINGLE_DRAWS`] sub-keys), each land on a uniformly random
//!   partition (what hashing a random instance does). The error is bounded
//!   on the servers the verdicts judge against a throughput limit
//!   ([`Servers`]): the partitions, or the nodes where only they are
//!   limited;
//! - the rest of the tail is placed as per-partition mass: mean share/P and
//!   the multinomial variance Σq²·(1/P)(1 − 1/P), drawn as normals projected
//!   onto the total (error bound reported in the summary).
//!
//! A range query's head sub-keys in buckets older than the busy period's
//! first, which only range queries read, join the mass where their own
//! bound allows ([`history_peak_error`]).
//!
//! Streams over the same keys ranked alike share one placement, scaled by
//! their rates (rank r is the same instance in each).
//!
//! Monotonic keys on a ranged store, `latest` popularity on a ranged store,
//! fresh keys and scatter-gather requests have their own closed forms.

use super::plan::TablePlan;
use super::stream::{KeySpace, Stream};
use super::world::{instance_ids, named_ids, World, HEAD_RANKS};
use crate::distributions::alias::AliasTable;
use crate::scenario::TemplatePart;
use crate::store::hash;
use crate::store::{KeySpread, StoreModel, TableLayout};
use rand::{Rng, RngCore};
use rand_distr::{Distribution, StandardNormal};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Sub-keys beyond the head placed one by one on random partitions, per stream.
pub const MAX_SINGLE_DRAWS: u64 = 1 << 16;
// A stream keeps the shares of exactly the ranks placed one by one.
const _: () = assert!(super::stream::CACHED_RANKS == HEAD_RANKS + MAX_SINGLE_DRAWS);
/// Hot keys kept for `keys.csv`.
pub const HOT_KEYS: usize = 20;

/// Per stream, the exact method's (weight, partition) entry per key.
pub(super) type AliasEntries = Vec<Option<Vec<(f64, u32)>>>;

/// Partition rates of one stream in one segment: requests/s per partition.
pub(super) struct Placed {
    pub(super) per_partition: Vec<f64>,
    /// Keys placed by name: (key, partition, requests/s).
    pub(super) keys: Vec<(String, usize, f64)>,
    /// Append points of a monotonic key on a ranged store: (name, partition,
    /// requests/s), each one indivisible row for load splitting.
    pub(super) appends: Vec<(String, usize, f64)>,
}

impl Placed {
    /// The same placement with every rate × `multiplier`.
    pub(super) fn scaled(&self, multiplier: f64) -> Placed {
        let scale = |rows: &[(String, usize, f64)]| -> Vec<(String, usize, f64)> {
            rows.iter()
                .map(|(k, p, r)| (k.clone(), *p, r * multiplier))
                .collect()
        };
        Placed {
            per_partition: self.per_partition.iter().map(|x| x * multiplier).collect(),
            keys: scale(&self.keys),
            appends: scale(&self.appends),
        }
    }
}

/// Every stream of a table placed in one time bucket (in stream order), with
/// the exact method's alias entries.
pub(super) struct BucketPlacement {
    pub(super) placed: Vec<Placed>,
    pub(super) entries: AliasEntries,
}

/// A stream's hottest combinations of its other entities in one trial:
/// (each other entity's (key-space index, instance), share), with the salts
/// that name and place their keys.
struct TopCombos {
    top: Vec<(Vec<(usize, u64)>, f64)>,
    place_salt: u64,
    name_salt: u64,
}

/// Places a table's streams on its partitions.
pub(super) struct Placer<'a> {
    pub(super) store: &'a dyn StoreModel,
    pub(super) table: &'a TablePlan,
    /// Where keys not placed by name land.
    pub(super) landing: Landing,
    /// Whether head keys are kept by name (the representative trial's hot
    /// keys, load splitting's rows).
    pub(super) keep_keys: bool,
    /// Whether every key becomes an alias entry (the exact method).
    pub(super) exact: bool,
    /// Where each head key landed in this trial, by what its text is made
    /// of: (driver entity, instance, combination, shard, absolute bucket).
    /// A key's place is fixed within a trial (the layout and the trial's
    /// salt are), and a range query over N buckets asks again, in the next
    /// bucket, for N − 1 of the keys it placed: found here rather than
    /// formatted and hashed again. None: every key placed anew.
    pub(super) landed: Option<std::cell::RefCell<HeadPlaces>>,
    /// Where a head instance's counted shards landed in this bucket's
    /// placement ([`ShardGroup`]), by (driver entity, instance,
    /// combination, absolute bucket, first shard counted): every stream
    /// over those keys finds the same counts, as it would find the same
    /// keys by name.
    pub(super) counted: std::cell::RefCell<ShardCounts>,
    /// The trial's last time bucket, when known: its placement does not
    /// remember the keys of its last stream placed by name, which nothing
    /// looks up (a 7-day range over hourly buckets: 43,000 keys a
    /// placement). None: every placement remembers.
    pub(super) last_bucket: Option<i64>,
    /// The trial's first time bucket: a head key's sub-key in an older
    /// bucket is read only by range queries in this busy period (every
    /// write goes to a current bucket), and goes as mass where
    /// [`Placer::history_keys`] allows. None: every sub-key placed by name.
    pub(super) history_before: Option<i64>,
}

/// Where a key whose text is not named lands (the tail's keys, fresh keys,
/// the spread mass): each partition alike, or, where the store's shares of
/// distinct keys are unequal ([`StoreModel::spread_of_distinct_keys`]: a
/// random-token ring's ranges, Murmur3 tokens being uniform over the token
/// space), each partition with its share. A ring whose ranges are all alike
/// (`token_allocation = "even"`) lands as the uniform case does, draw for
/// draw.
pub(super) struct Landing {
    partitions: usize,
    /// The shares and their alias table, when unequal.
    weighted: Option<(Vec<f64>, AliasTable)>,
}

impl Landing {
    /// How distinct keys land on `partitions` partitions of `store`.
    pub(super) fn of(store: &dyn StoreModel, partitions: usize) -> Landing {
        let partitions = partitions.max(1);
        match store.spread_of_distinct_keys(partitions) {
            Some(KeySpread::Shares(w)) if w.len() == partitions => Landing::by_shares(&w),
            _ => Landing {
                partitions,
                weighted: None,
            },
        }
    }

    /// Keys landing on `w.len()` partitions with shares in proportion to
    /// `w` (alike: the uniform landing).
    fn by_shares(w: &[f64]) -> Landing {
        let total: f64 = w.iter().sum();
        let (lo, hi) = w.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
        let unequal = total > 0.0 && hi - lo > 1e-9 * hi;
        let weighted = unequal
            .then(|| {
                let shares: Vec<f64> = w.iter().map(|x| x / total).collect();
                let entries: Vec<(f64, u32)> = shares
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| (x, i as u32))
                    .collect();
                AliasTable::new(&entries).map(|t| (shares, t))
            })
            .flatten();
        Landing {
            partitions: w.len().max(1),
            weighted,
        }
    }

    /// The partition of one key.
    #[inline(always)]
    fn draw(&self, rng: &mut Xoshiro256PlusPlus) -> usize {
        match &self.weighted {
            None => below(rng, self.partitions),
            Some((_, t)) => t.sample(rng) as usize,
        }
    }

    /// Partition `i`'s part of `total` spread over distinct keys.
    fn part_of(&self, total: f64, i: usize) -> f64 {
        match &self.weighted {
            None => total / self.partitions as f64,
            Some((w, _)) => total * w[i],
        }
    }

    /// [`multinomial_into`] over the landing's shares ([`weighted_counts`],
    /// as counted shards land).
    fn multinomial_into(
        &self,
        per: &mut [f64],
        keys: u64,
        per_key: f64,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let Some((w, _)) = &self.weighted else {
            return multinomial_into(per, keys, per_key, rng);
        };
        for (x, k) in per.iter_mut().zip(weighted_counts(keys, w, rng)) {
            *x += k as f64 * per_key;
        }
    }

    /// [`spread`] over the landing's shares: partition i takes mass·pᵢ and
    /// the multinomial's covariance, var·(pᵢ(1 − pᵢ)) on the diagonal and
    /// −var·pᵢpⱼ off it, drawn as √var·(√pᵢ zᵢ − pᵢ Σⱼ √pⱼ zⱼ) (with equal
    /// shares: the uniform spread's projection).
    fn spread(&self, per: &mut [f64], mass: f64, var_keys: f64, rng: &mut Xoshiro256PlusPlus) {
        let Some((w, _)) = &self.weighted else {
            return spread(per, mass, var_keys, rng);
        };
        if mass <= 0.0 {
            return;
        }
        let sd = var_keys.max(0.0).sqrt();
        let z: Vec<f64> = w
            .iter()
            .map(|p| {
                let z: f64 = StandardNormal.sample(rng);
                p.sqrt() * z
            })
            .collect();
        let zsum: f64 = z.iter().sum();
        // Each partition's draw, in place of its z.
        let mut z = z;
        for (zi, &p) in z.iter_mut().zip(w) {
            *zi = mass * p + sd * (*zi - p * zsum);
        }
        add_conserving(per, &z, mass);
    }
}

/// Which of a stream's sub-keys the head places by name, and the (Σ
/// weight, Σ weight²) of those it places as mass ([`Placer::history_keys`]):
/// for the [`HOT_KEYS`] hottest ranks, and for the others.
struct History {
    by_name_hot: Vec<usize>,
    by_name: Vec<usize>,
    mass_hot: (f64, f64),
    mass: (f64, f64),
    /// The buckets whose shards are counted, not named ([`ShardGroup`]),
    /// and how distinct keys spread over the partitions.
    groups: Vec<ShardGroup>,
    spread: KeySpread,
}

/// One bucket's write shards of a head rank, counted rather than placed by
/// name: where a store places keys by a salted hash, `shards` distinct keys
/// land on its partitions as the counts of a multinomial(`shards`; 1/P, …,
/// 1/P) ([`shard_counts`]) — what naming each would give, at O(min(shards,
/// P)) a rank rather than O(shards). The [`HOT_KEYS`] hottest ranks keep
/// their first [`HOT_KEYS`] shards by name (the hot-key table's and load
/// splitting's rows) and count the rest.
struct ShardGroup {
    /// Buckets back from the current one.
    bucket_back: u32,
    /// Each of its sub-keys' weight (all alike).
    weight: f64,
    /// Its shards: every one of the table's.
    shards: u32,
}

/// Fewest shards a bucket's sub-keys must have to be counted rather than
/// named ([`ShardGroup`]): past it, a head rank's shards cost more to name
/// than the rank's other work.
pub const COUNTED_SHARDS_MIN: usize = 256;

/// [`Placer::counted`]'s map: per partition with any, how many of the
/// counted shards it holds (in partition order).
pub(super) type ShardCounts =
    rustc_hash::FxHashMap<(Option<usize>, u64, u64, i64, u32), std::rc::Rc<[(u32, u32)]>>;

/// [`Placer::landed`]'s map.
pub(super) type HeadPlaces =
    rustc_hash::FxHashMap<(Option<usize>, u64, u64, Option<u32>, i64), usize>;

/// One stream's partition rates being summed, with the exact method's alias
/// entries when it keeps them.
struct Sink<'e> {
    per: Vec<f64>,
    keys: Vec<(String, usize, f64)>,
    entries: Option<&'e mut Vec<(f64, u32)>>,
    /// Mass spread as independent keys, and the variance its keys give,
    /// summed over every spread of the stream and drawn once
    /// ([`Sink::draw_spread`]): a sum of independent normal spreads is one
    /// normal spread with the summed variance.
    spread: (f64, f64),
}

/// Keys hashed in two pieces ([`StoreModel::places_by_salted_fnv`]): the
/// text before the template's first `{bucket}` or `{shard}` once per
/// instances, the rest per sub-key; the FNV-1a state carries over, so a
/// key lands where its whole text would.
struct Piecewise {
    /// The template's first `{bucket}` or `{shard}` part (its length
    /// without either): the text before it is the same for every sub-key
    /// of a rank's instances.
    split: usize,
    /// The hash state of the text before `split` for the instances being
    /// placed, valid where its stamp is `instances`.
    prefix: (u64, u64),
    /// Which instances are being placed (bumped by [`Piecewise::next_instances`]).
    instances: u64,
    /// Where the text from `split` on names no instance (no entity, no
    /// `shard_by` shard: it is the same for every rank), that text by
    /// sub-key, written the first time a rank asks for it; empty otherwise.
    suffixes: Vec<Option<Box<[u8]>>>,
}

impl Piecewise {
    /// Pieces of `keys`' text for a stream of `subkeys` sub-keys.
    fn new(keys: &KeySpace, subkeys: usize) -> Piecewise {
        let split = keys
            .template
            .iter()
            .position(|p| matches!(p, TemplatePart::Bucket | TemplatePart::Shard))
            .unwrap_or(keys.template.len());
        let rank_free = keys.template[split..].iter().all(|p| match p {
            TemplatePart::Entity(_) => false,
            TemplatePart::Shard => keys.shard_by.is_none(),
            _ => true,
        });
        Piecewise {
            split,
            prefix: (0, 0),
            instances: 1,
            suffixes: if rank_free {
                vec![None; subkeys]
            } else {
                Vec::new()
            },
        }
    }

    /// Forgets the prefix: the next keys name other instances.
    fn next_instances(&mut self) {
        self.instances += 1;
    }

    /// The partition of the key of instances `ids`, sub-key `j` (its
    /// `shard` and bucket `b`) among `partitions` under the trial's
    /// `salt`; `key` is a buffer.
    fn place(
        &mut self,
        keys: &KeySpace,
        key: &mut String,
        ids: &[u64],
        (j, shard, b): (usize, Option<u32>, i64),
        (partitions, salt): (usize, u64),
    ) -> usize {
        let prefix = match self.prefix {
            (stamp, state) if stamp == self.instances => state,
            _ => {
                key.clear();
                keys.format_parts_into(key, ids, shard, b, 0..self.split);
                let state = hash::fnv_extend(hash::FNV_OFFSET, key.as_bytes());
                self.prefix = (self.instances, state);
                state
            }
        };
        let rest = self.split..keys.template.len();
        let state = match self.suffixes.get_mut(j) {
            Some(Some(text)) => hash::fnv_extend(prefix, text),
            Some(slot) => {
                key.clear();
                keys.format_parts_into(key, ids, shard, b, rest);
                let text = slot.insert(key.as_bytes().into());
                hash::fnv_extend(prefix, text)
            }
            None => {
                key.clear();
                keys.format_parts_into(key, ids, shard, b, rest);
                hash::fnv_extend(prefix, key.as_bytes())
            }
        };
        hash::place_salted_state(state, partitions, salt).min(partitions - 1)
    }
}

impl Sink<'_> {
    /// Records one key's rate on its partition (and, for the exact method, as an alias entry).
    fn add(&mut self, part: usize, r: f64) {
        self.per[part] += r;
        if let Some(e) = self.entries.as_deref_mut() {
            e.push((r, part as u32));
        }
    }

    /// Adds `mass` to be spread as independent keys whose variance is `var_keys`.
    fn spread(&mut self, mass: f64, var_keys: f64) {
        if mass > 0.0 {
            self.spread.0 += mass;
            self.spread.1 += var_keys.max(0.0);
        }
    }

    /// Draws the stream's spread mass over the partitions, once.
    fn draw_spread(&mut self, landing: &Landing, rng: &mut Xoshiro256PlusPlus) {
        let (mass, var) = std::mem::take(&mut self.spread);
        landing.spread(&mut self.per, mass, var, rng);
    }

    /// Whether every key becomes an alias entry.
    fn exact(&self) -> bool {
        self.entries.is_some()
    }

    fn into_placed(self, appends: Vec<(String, usize, f64)>) -> Placed {
        Placed {
            per_partition: self.per,
            keys: self.keys,
            appends,
        }
    }
}

impl Placer<'_> {
    /// Every stream placed for time bucket `bucket`.
    pub(super) fn place_bucket(
        &self,
        bucket: i64,
        world: &mut World,
        rng: &mut Xoshiro256PlusPlus,
    ) -> BucketPlacement {
        let mut entries: AliasEntries = self
            .table
            .streams
            .iter()
            .map(|_| self.exact.then(Vec::new))
            .collect();
        let streams = if self.table.placing.is_empty() {
            &self.table.streams
        } else {
            &self.table.placing
        };
        // A stream over the same keys as an earlier one, ranked alike, hits
        // the same instances: its rates land where that stream's did, in
        // proportion (Placed is linear in the rate and the sub-keys'
        // weights: a write to one of N shards, weight 1/N each, and a read
        // of all N, weight 1 each, hit the same keys).
        let same: Vec<Option<(usize, f64)>> = streams
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (0..i)
                    .filter(|&j| streams[j].busy_rate_per_s > 0.0)
                    .find_map(|j| placement_ratio(&streams[j], s).map(|c| (j, c)))
            })
            .collect();
        // Counted shards are shared by this bucket's streams only: a later
        // bucket's placement draws its own (each bucket's segment is judged
        // on its own), so the map holds one bucket's head, not the busy
        // period's (1 ms buckets: 3.6·10⁶ of them).
        self.counted.borrow_mut().clear();
        // Whether a stream placed after stream i looks keys up.
        let later = |i: usize| same[i + 1..].iter().any(Option::is_none);
        let mut placed: Vec<Placed> = Vec::with_capacity(streams.len());
        for (i, s) in streams.iter().enumerate() {
            let remember = self.last_bucket != Some(bucket) || later(i);
            let p = match same[i] {
                Some((j, c)) => {
                    let m = s.busy_rate_per_s / streams[j].busy_rate_per_s * c;
                    let (head, tail) = entries.split_at_mut(i);
                    if let (Some(from), Some(to)) = (&head[j], &mut tail[0]) {
                        to.extend(from.iter().map(|&(r, part)| (r * m, part)));
                    }
                    placed[j].scaled(m)
                }
                None => self.place_stream(s, (bucket, remember), world, rng, entries[i].as_mut()),
            };
            placed.push(p);
        }
        BucketPlacement { placed, entries }
    }

    fn partitions(&self) -> usize {
        self.table.layout.partitions.max(1)
    }

    /// Places one stream's request rate on the partitions for one bucket
    /// (and whether its head keys are remembered in [`Placer::landed`]).
    fn place_stream(
        &self,
        s: &Stream,
        (bucket, remember): (i64, bool),
        world: &mut World,
        rng: &mut Xoshiro256PlusPlus,
        entries: Option<&mut Vec<(f64, u32)>>,
    ) -> Placed {
        let mut sink = Sink {
            per: vec![0.0f64; self.partitions()],
            keys: Vec::new(),
            entries,
            spread: (0.0, 0.0),
        };
        if s.broadcast {
            self.broadcast(s, &mut sink);
            return sink.into_placed(Vec::new());
        }
        // The parts of the key before its monotonic part ({time}/{id}).
        let prefix: Vec<&TemplatePart> = self
            .table
            .keys
            .template
            .iter()
            .take_while(|p| !matches!(p, TemplatePart::Time | TemplatePart::Id))
            .collect();
        let prefix_has_entity = prefix.iter().any(|p| matches!(p, TemplatePart::Entity(_)));
        if s.shares.is_fresh()
            && (s.is_write || s.is_query)
            && self.store.ranged()
            && !prefix_has_entity
        {
            let appends = self.append_points(s, bucket, &prefix, &mut sink);
            return sink.into_placed(appends);
        }
        if s.recency_ordered && self.store.ranged() && s.driver.is_some() {
            self.by_recency(s, bucket, &mut sink);
        } else if s.shares.is_fresh() {
            // Every request a fresh key: Poisson splitting spreads it by
            // the partitions' shares (evenly, on most stores).
            let total = s.busy_rate_per_s * s.fan_out();
            for p in 0..self.partitions() {
                sink.add(p, self.landing.part_of(total, p));
            }
        } else {
            let head = s.shares.count().min(HEAD_RANKS);
            if !sink.exact() {
                s.keep_rank_shares(ranks_drawn_singly(s, head, Servers::of(&self.table.layout)));
            }
            self.head(s, (bucket, remember), world, rng, &mut sink);
            if s.shares.count() > head {
                self.tail(s, head, rng, &mut sink);
            }
            sink.draw_spread(&self.landing, rng);
        }
        sink.into_placed(Vec::new())
    }

    /// Every request reaches every node once (scatter-gather): the rate ×
    /// nodes spread evenly over the partitions, which sit evenly on the
    /// nodes, so each node takes the full request rate.
    fn broadcast(&self, s: &Stream, sink: &mut Sink<'_>) {
        let p_count = self.partitions();
        let each = s.busy_rate_per_s * self.table.sub_requests(s) / p_count as f64;
        for part in 0..p_count {
            sink.add(part, each);
        }
    }

    /// A monotonic key on a ranged store: every insert goes to the end of
    /// its prefix's range — with no prefix, the last range (MongoDB's MaxKey
    /// chunk, the last Bigtable tablet); with write shards, the end of each
    /// shard's range. A query over such a key reads the newest range (an
    /// assumption: range reads ask for recent data), so it lands there too.
    /// Returns the append points.
    fn append_points(
        &self,
        s: &Stream,
        bucket: i64,
        prefix: &[&TemplatePart],
        sink: &mut Sink<'_>,
    ) -> Vec<(String, usize, f64)> {
        let p_count = self.partitions();
        let rate = s.busy_rate_per_s;
        let mut appends: Vec<(String, usize, f64)> = Vec::new();
        for sk in &s.subkeys {
            let key = self
                .table
                .keys
                .format(&[], sk.shard, bucket - i64::from(sk.bucket_back));
            let sharded_prefix = prefix.iter().any(|p| matches!(p, TemplatePart::Shard));
            let (part, name) = if sk.shard.is_some() && sharded_prefix {
                (self.store.place(&key, p_count).min(p_count - 1), key)
            } else {
                // Every new key sorts last, whatever follows the time: one append point.
                (p_count - 1, "<append point>".to_string())
            };
            sink.add(part, rate * sk.weight);
            match appends.iter_mut().find(|a| a.0 == name && a.1 == part) {
                Some(a) => a.2 += rate * sk.weight,
                None => appends.push((name, part, rate * sk.weight)),
            }
        }
        appends
    }

    /// `latest` on a ranged store: instance id = count − rank, ranges in id order.
    fn by_recency(&self, s: &Stream, bucket: i64, sink: &mut Sink<'_>) {
        let p_count = self.partitions();
        let pf = p_count as f64;
        let rate = s.busy_rate_per_s;
        let w_sum = s.fan_out();
        let n = s.shares.count();
        let nf = n as f64;
        for j in 0..p_count {
            // Ranks whose id falls in range j: ids [j·n/P, (j+1)·n/P).
            let id_lo = (j as f64 * nf / pf).ceil() as u64;
            let id_hi = (((j + 1) as f64 * nf / pf).ceil() as u64).min(n);
            if id_hi <= id_lo {
                continue;
            }
            let (m1, _) = s.share_moments(n - id_hi + 1, n - id_lo);
            sink.add(j, rate * m1 * w_sum);
        }
        if self.keep_keys {
            for r in 1..=n.min(HOT_KEYS as u64) {
                let id = n - r;
                let key = self.table.keys.format(&[id], None, bucket);
                let part = ((id as f64 * pf / nf) as usize).min(p_count - 1);
                sink.keys
                    .push((key, part, rate * s.shares.share(r) * w_sum));
            }
        }
    }

    /// The head ranks, key by key: each rank's instance is distinct and
    /// random, named afresh in each trial (instance names are unknown before
    /// the table exists).
    fn head(
        &self,
        s: &Stream,
        (bucket, remember): (i64, bool),
        world: &mut World,
        rng: &mut Xoshiro256PlusPlus,
        sink: &mut Sink<'_>,
    ) {
        let p_count = self.partitions();
        let table = self.table;
        let rate = s.busy_rate_per_s;
        let n = s.shares.count();
        let head = n.min(HEAD_RANKS);
        let salt_place = world.place_salt;
        let store_place = |key: &str| {
            self.store
                .place_in_trial(key, p_count, salt_place)
                .min(p_count - 1)
        };
        // Instances of the driver entity for the head ranks: distinct, random.
        let driver_count = match s.driver {
            Some(d) => table.keys.entities[d].1,
            None => n,
        };
        let driver_name = s.driver.map_or("", |d| table.keys.entities[d].0.as_str());
        let ids = world.head(driver_name, driver_count, head);
        let salt = world.name_salt;
        let w_sq: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
        // The hottest combinations of the other entities, by their ranks'
        // instances (when they do not share alike).
        let top: Vec<(Vec<(usize, u64)>, f64)> = s
            .combos
            .top
            .iter()
            .map(|(ranks, q)| {
                let inst = ranks
                    .iter()
                    .map(|&(i, r)| {
                        let (name, count) = &table.keys.entities[i];
                        let ids = world.head(name, *count, (*count).min(HEAD_RANKS));
                        (i, ids[(r - 1) as usize])
                    })
                    .collect();
                (inst, *q)
            })
            .collect();
        let top = TopCombos {
            top,
            place_salt: salt_place,
            name_salt: salt,
        };
        // One buffer for every head key's text.
        let mut key = String::with_capacity(64);
        // Where the store places a key by its text's salted FNV hash and
        // no key is kept by name, a key is hashed in two pieces: the text
        // before its bucket once per rank, combination and shard, the rest
        // per bucket (the same partition as the whole text).
        let pieces = self.store.places_by_salted_fnv() && !self.keep_keys;
        let mut piecewise = Piecewise::new(&table.keys, s.subkeys.len());
        let history = self.head_keys(s, bucket, sink.exact());
        // The history sub-keys' mass and Σ rate² (as independent keys).
        let mut history_mass = (0.0, 0.0);
        for (r, &id) in ids.iter().enumerate() {
            let share = s.rank_share(r as u64 + 1);
            if share <= 0.0 {
                continue;
            }
            if !s.combos.uniform {
                self.head_combinations(s, (id, share), &top, bucket, rng, sink);
            } else if s.combos.count <= 16.0 {
                let combos = s.combos.count as u64;
                // The hottest ranks keep their nearest history keys by
                // name, for the hot-key table.
                let (by_name, (w1, w2)) = if r < HOT_KEYS {
                    (&history.by_name_hot, history.mass_hot)
                } else {
                    (&history.by_name, history.mass)
                };
                for c in 0..combos {
                    let per_key = rate * share / combos as f64;
                    history_mass.0 += per_key * w1;
                    history_mass.1 += per_key * per_key * w2;
                    // The instances named, once a key is not found.
                    let mut named: Option<Vec<u64>> = None;
                    piecewise.next_instances();
                    for &j in by_name.iter() {
                        let sk = &s.subkeys[j];
                        let b = bucket - i64::from(sk.bucket_back);
                        let r_key = rate * share / combos as f64 * sk.weight;
                        let known = (s.driver, id, c, sk.shard, b);
                        let found = self
                            .landed
                            .as_ref()
                            .and_then(|l| l.borrow().get(&known).copied());
                        let part = match found {
                            Some(part) if !self.keep_keys => part,
                            _ if pieces => {
                                let ids = named.get_or_insert_with(|| {
                                    instance_ids(&table.keys, s.driver, id, c, salt)
                                });
                                let at = (p_count, salt_place);
                                let sub = (j, sk.shard, b);
                                let part = piecewise.place(&table.keys, &mut key, ids, sub, at);
                                if let Some(l) = self.landed.as_ref().filter(|_| remember) {
                                    l.borrow_mut().insert(known, part);
                                }
                                part
                            }
                            _ => {
                                let ids = named.get_or_insert_with(|| {
                                    instance_ids(&table.keys, s.driver, id, c, salt)
                                });
                                key.clear();
                                table.keys.format_into(&mut key, ids, sk.shard, b);
                                let part = store_place(&key);
                                if let Some(l) = self.landed.as_ref().filter(|_| remember) {
                                    l.borrow_mut().insert(known, part);
                                }
                                if self.keep_keys {
                                    sink.keys.push((key.clone(), part, r_key));
                                }
                                part
                            }
                        };
                        sink.add(part, r_key);
                    }
                    let instance = (id, c, rate * share / combos as f64, r < HOT_KEYS);
                    let at = (bucket, &history.groups[..], &history.spread);
                    self.add_counted(s, instance, at, rng, sink);
                }
            } else if sink.exact() {
                // Every combination of the other entities on its own partition.
                let combos = s.combos.count as u64;
                for _ in 0..combos {
                    for sk in &s.subkeys {
                        let part = self.landing.draw(rng);
                        sink.add(part, rate * share / combos as f64 * sk.weight);
                    }
                }
            } else {
                // Many combinations of the other entities: spread this instance's mass.
                let m = s.combos.count;
                sink.spread(
                    rate * share * s.fan_out(),
                    (rate * share).powi(2) * w_sq / m,
                );
            }
        }
        sink.spread(history_mass.0, history_mass.1);
    }

    /// A head instance's counted shards ([`ShardGroup`]) in `bucket`:
    /// `instance` is its id, combination, request rate, and whether it is a
    /// hot rank, whose first
    /// [`HOT_KEYS`] shards are named elsewhere. The counts are drawn once a
    /// bucket's placement per instance, bucket and first shard counted
    /// ([`Placer::counted`]).
    fn add_counted(
        &self,
        s: &Stream,
        (id, c, rate, hot): (u64, u64, f64, bool),
        (bucket, groups, spread): (i64, &[ShardGroup], &KeySpread),
        rng: &mut Xoshiro256PlusPlus,
        sink: &mut Sink<'_>,
    ) {
        for g in groups {
            let first = if hot { HOT_KEYS as u32 } else { 0 };
            let b = bucket - i64::from(g.bucket_back);
            let counts = self
                .counted
                .borrow_mut()
                .entry((s.driver, id, c, b, first))
                .or_insert_with(|| {
                    let keys = u64::from(g.shards - first);
                    shard_counts(keys, (spread, sink.per.len()), rng)
                })
                .clone();
            let r_key = rate * g.weight;
            for &(part, k) in counts.iter() {
                sink.add(part as usize, r_key * f64::from(k));
            }
        }
    }

    /// A range query's sub-keys in buckets older than the trial's first
    /// ([`Placer::history_before`]): keys no write and no other request
    /// of the busy period shares a partition's fate with, thousands a rank
    /// when a short bucket meets a long range (a 2-year range over hourly
    /// buckets: 17,520). Where the head's history keys, placed as normal
    /// mass like the tail, change the busiest judged server's load by at
    /// most [`HISTORY_PEAK_ERROR`] of the stream's mean load per server
    /// ([`history_peak_error`]), they go as mass, but for the
    /// [`HOT_KEYS`] nearest of the [`HOT_KEYS`] hottest ranks (the
    /// hot-key table's candidates); otherwise (too few history keys, the
    /// bound not met, the exact method) every sub-key by name. The bound
    /// counts the named ones too (the largest keys: an overstatement), and
    /// the mass is drawn afresh in each bucket's placement, as the tail's
    /// is.
    fn history_keys(&self, s: &Stream, bucket: i64, exact: bool) -> History {
        let all = || History {
            by_name_hot: (0..s.subkeys.len()).collect(),
            by_name: (0..s.subkeys.len()).collect(),
            mass_hot: (0.0, 0.0),
            mass: (0.0, 0.0),
            groups: Vec::new(),
            spread: KeySpread::Uniform,
        };
        let Some(before) = self.history_before else {
            return all();
        };
        let old = |j: &usize| bucket - i64::from(s.subkeys[*j].bucket_back) < before;
        let servers = Servers::of(&self.table.layout);
        let old_keys = match history_as_mass(s, old, servers, exact) {
            Some(keys) => keys,
            None => return all(),
        };
        let by_name: Vec<usize> = (0..s.subkeys.len()).filter(|j| !old(j)).collect();
        let mut by_name_hot = by_name.clone();
        by_name_hot.extend(&old_keys[..HOT_KEYS]);
        by_name_hot.sort_unstable();
        let sums = |keys: &[usize]| {
            keys.iter()
                .map(|&j| s.subkeys[j].weight)
                .fold((0.0, 0.0), |(a, b), w| (a + w, b + w * w))
        };
        History {
            by_name_hot,
            by_name,
            mass_hot: sums(&old_keys[HOT_KEYS..]),
            mass: sums(&old_keys),
            groups: Vec::new(),
            spread: KeySpread::Uniform,
        }
    }

    /// [`Placer::history_keys`] with each bucket's shards counted where they
    /// can be ([`ShardGroup`]): not the exact method; the store places
    /// distinct keys independently ([`StoreModel::spread_of_distinct_keys`])
    /// and the key's text names its shard; the shards picked alike (no `shard_by`);
    /// at least [`COUNTED_SHARDS_MIN`] sub-keys named in the bucket, every
    /// one a shard of weight alike.
    fn head_keys(&self, s: &Stream, bucket: i64, exact: bool) -> History {
        let mut h = self.history_keys(s, bucket, exact);
        let keys = &self.table.keys;
        if exact
            || keys.shard_by.is_some()
            || !keys
                .template
                .iter()
                .any(|p| matches!(p, TemplatePart::Shard))
            || h.by_name.len() < COUNTED_SHARDS_MIN
        {
            return h;
        }
        // Asked only now: a ring's shares are O(ranges) to build.
        let Some(spread) = self.store.spread_of_distinct_keys(self.partitions()) else {
            return h;
        };
        h.spread = spread;
        let mut backs: Vec<u32> = h
            .by_name
            .iter()
            .map(|&j| s.subkeys[j].bucket_back)
            .collect();
        backs.dedup();
        for back in backs {
            let group: Vec<usize> = h
                .by_name
                .iter()
                .copied()
                .filter(|&j| s.subkeys[j].bucket_back == back)
                .collect();
            let weight = s.subkeys[group[0]].weight;
            let alike = group
                .iter()
                .all(|&j| s.subkeys[j].shard.is_some() && s.subkeys[j].weight == weight);
            if group.len() < COUNTED_SHARDS_MIN || !alike {
                continue;
            }
            // The group's indices are consecutive, in shard order.
            let (first, last) = (group[0], group[group.len() - 1]);
            let counted = |j: &usize| (first..=last).contains(j);
            let hot_counted = |j: &usize| (first + HOT_KEYS..=last).contains(j);
            h.by_name.retain(|j| !counted(j));
            h.by_name_hot.retain(|j| !hot_counted(j));
            h.groups.push(ShardGroup {
                bucket_back: back,
                weight,
                shards: group.len() as u32,
            });
        }
        h
    }

    /// One head instance (`id` and its `share` of the stream) with other
    /// entities that do not share alike: its hottest combinations key by key,
    /// the rest of its mass (when there are more combinations) spread as
    /// independent keys, or, for the exact method, every group of
    /// combinations drawn.
    fn head_combinations(
        &self,
        s: &Stream,
        (id, share): (u64, f64),
        top: &TopCombos,
        bucket: i64,
        rng: &mut Xoshiro256PlusPlus,
        sink: &mut Sink<'_>,
    ) {
        let table = self.table;
        let p_count = self.partitions();
        let rate = s.busy_rate_per_s;
        let salt = top.name_salt;
        let mut raw = vec![0u64; table.keys.entities.len()];
        if let Some(d) = s.driver {
            raw[d] = id;
        }
        let mut top_mass = 0.0;
        let mut top_sq = 0.0;
        for (inst, q) in &top.top {
            for &(i, v) in inst {
                raw[i] = v;
            }
            let ids = named_ids(&table.keys, &raw, salt);
            for sk in &s.subkeys {
                let key = table
                    .keys
                    .format(&ids, sk.shard, bucket - i64::from(sk.bucket_back));
                let part = self
                    .store
                    .place_in_trial(&key, p_count, top.place_salt)
                    .min(p_count - 1);
                let r_key = rate * share * q * sk.weight;
                sink.add(part, r_key);
                if self.keep_keys {
                    sink.keys.push((key, part, r_key));
                }
            }
            top_mass += q;
            top_sq += q * q;
        }
        let rest = (1.0 - top_mass).max(0.0);
        if rest <= 1e-12 {
            return;
        }
        if sink.exact() {
            // The other combinations by group, each on its own partition.
            let mut skipped = top.top.len() as f64;
            for &(count, q) in &s.combos.groups {
                let here = (count - skipped).max(0.0);
                skipped = (skipped - count).max(0.0);
                for _ in 0..here as u64 {
                    for sk in &s.subkeys {
                        let part = self.landing.draw(rng);
                        sink.add(part, rate * share * q * sk.weight);
                    }
                }
            }
            return;
        }
        let w_sq: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
        sink.spread(
            rate * share * rest * s.fan_out(),
            (rate * share).powi(2) * w_sq * (s.combos.sum_sq - top_sq).max(0.0),
        );
    }

    /// The ranks after the `head`: single draws while affordable, then the
    /// rest as per-partition mass.
    fn tail(&self, s: &Stream, head: u64, rng: &mut Xoshiro256PlusPlus, sink: &mut Sink<'_>) {
        let p_count = self.partitions();
        let servers = Servers::of(&self.table.layout);
        let rate = s.busy_rate_per_s;
        let n = s.shares.count();
        if !sink.exact() {
            if let Some(runs) = counted_tail(s, head, n, servers) {
                for (keys, share) in runs {
                    // ÷ its one combination, as the single draws divide.
                    let per_key = rate * (share / 1.0) * s.subkeys[0].weight;
                    self.landing
                        .multinomial_into(&mut sink.per, keys, per_key, rng);
                }
                return;
            }
        }
        let single_ranks = if sink.exact() {
            n - head
        } else {
            single_draw_ranks(s, n, head, servers)
        };
        let (first, last) = (head + 1, head + single_ranks);
        // A run of ranks of one share whose units (sub-keys × combinations,
        // all of one rate) are many to a partition lands as a multinomial's
        // counts: the distribution single draws give, in P binomials
        // rather than a draw a unit.
        let runs = (!sink.exact())
            .then(|| counted_runs(s, first, last, p_count))
            .flatten();
        let Some(CountedRuns {
            runs,
            units,
            weight: w,
        }) = runs
        else {
            self.singly(s, first..=last, rng, sink);
            return self.tail_mass(s, head + single_ranks + 1, sink);
        };
        let combos = enumerated_combos(s) as f64;
        let mut r = first;
        for (keys, share) in runs {
            if keys * units > COUNTED_KEYS_PER_PARTITION * p_count as u64 {
                let per_unit = rate * (share / combos) * w;
                self.landing
                    .multinomial_into(&mut sink.per, keys * units, per_unit, rng);
            } else {
                self.singly(s, r..=r + keys - 1, rng, sink);
            }
            r += keys;
        }
        self.tail_mass(s, head + single_ranks + 1, sink);
    }

    /// Ranks `ranks` one by one. The common case (one combination, one
    /// sub-key, no alias entries) straight over the shares (cached, for
    /// the ranks every trial places): the same draws and sums as
    /// [`Placer::single_draws`] makes.
    fn singly(
        &self,
        s: &Stream,
        ranks: std::ops::RangeInclusive<u64>,
        rng: &mut Xoshiro256PlusPlus,
        sink: &mut Sink<'_>,
    ) {
        if !one_unit_per_rank(s) || sink.exact() {
            return self.single_draws(s, ranks, rng, sink);
        }
        let rate = s.busy_rate_per_s;
        let w = s.subkeys[0].weight;
        let per = &mut sink.per;
        let mut place = |share: f64| {
            // ÷ its one combination, as single_draws divides.
            let per_combo = rate * (share / 1.0);
            let part = self.landing.draw(rng);
            per[part] += per_combo * w;
        };
        match s.rank_shares(*ranks.start(), *ranks.end()) {
            Some(shares) => shares.iter().for_each(|&share| place(share)),
            None => ranks.for_each(|r| place(s.rank_share(r))),
        }
    }

    /// Ranks `tail_start` on as per-partition mass.
    fn tail_mass(&self, s: &Stream, tail_start: u64, sink: &mut Sink<'_>) {
        let rate = s.busy_rate_per_s;
        let n = s.shares.count();
        if tail_start <= n {
            let (m1, m2) = s.share_moments(tail_start, n);
            let w_sq: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
            let var = if s.combos.uniform {
                rate * rate * m2 * w_sq / s.combos.count
            } else {
                rate * rate * m2 * w_sq * s.combos.sum_sq
            };
            sink.spread(rate * m1 * s.fan_out(), var);
        }
    }

    /// Ranks `ranks` one by one: per rank, its requests split over the
    /// combinations (evenly, or by the hottest ones' shares) and the
    /// sub-keys, each on a random partition (products in the order rate ·
    /// share · q · weight).
    fn single_draws(
        &self,
        s: &Stream,
        ranks: std::ops::RangeInclusive<u64>,
        rng: &mut Xoshiro256PlusPlus,
        sink: &mut Sink<'_>,
    ) {
        let rate = s.busy_rate_per_s;
        let combos = enumerated_combos(s);
        let qs: Vec<f64> = if combos > 1 {
            s.combos.top.iter().map(|t| t.1).collect()
        } else {
            vec![1.0]
        };
        let weights: Vec<f64> = s.subkeys.iter().map(|sk| sk.weight).collect();
        for r in ranks {
            if s.combos.uniform {
                let per_combo = rate * (s.rank_share(r) / combos as f64);
                for _ in 0..combos {
                    for &w in &weights {
                        let part = self.landing.draw(rng);
                        sink.add(part, per_combo * w);
                    }
                }
            } else {
                let per_rank = rate * s.rank_share(r);
                for &q in &qs {
                    let per_combo = per_rank * q;
                    for &w in &weights {
                        let part = self.landing.draw(rng);
                        sink.add(part, per_combo * w);
                    }
                }
            }
        }
    }
}

/// A uniform draw from `0..n` (`n` ≥ 1), the same as
/// `rng.random_range(0..n)`: rand 0.9's single-sample method for a range
/// within `u32` (one 32-bit draw widened by `n`, and a second only where
/// the first's low half may carry into it, Canon's method), written out so
/// that the placement loops, which draw once per key (10⁸ draws a run on a
/// 10⁵-key table over 10⁴ partitions), inline it rather than call it.
#[inline(always)]
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    let Ok(range) = u32::try_from(n) else {
        return rng.random_range(0..n);
    };
    let m = u64::from(rng.next_u32()) * u64::from(range);
    let (mut hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > range.wrapping_neg() {
        let carry = (u64::from(rng.next_u32()) * u64::from(range)) >> 32;
        hi += u32::from(lo.checked_add(carry as u32).is_none());
    }
    hi as usize
}

/// Whether each of a stream's ranks is one placement unit: one sub-key,
/// its combinations alike and drawn as one.
fn one_unit_per_rank(s: &Stream) -> bool {
    s.combos.uniform && enumerated_combos(s) == 1 && s.subkeys.len() == 1
}

/// A stream's tail (the ranks after `head`) that is placed one by one
/// ([`single_draw_ranks`]: too few keys a partition for the normal mass)
/// yet outnumbers the partitions, and whose keys come in runs of one share
/// (`RankShares::constant_runs`: uniform popularity, a hotspot's hot and
/// cold instances), each key one placement unit (one sub-key, one
/// combination drawn): each run's (keys, share). A run's keys land on
/// partitions as a multinomial's counts, drawn by [`multinomial_into`] in
/// less than single draws' O(keys), from exactly the distribution single
/// draws give. (Where the normal mass takes over the tail, it stays: a
/// binomial per partition costs more than the normal draws, and its error
/// is already bounded by [`TAIL_PEAK_ERROR`].)
fn counted_tail(s: &Stream, head: u64, n: u64, servers: Servers) -> Option<Vec<(u64, f64)>> {
    let keys = n.checked_sub(head)?;
    if !one_unit_per_rank(s) || keys == 0 || keys < servers.partitions as u64 {
        return None;
    }
    let runs = s.shares.constant_runs(head + 1, n)?;
    (single_draw_ranks(s, n, head, servers) == keys).then_some(runs)
}

/// The runs of one share (`RankShares::constant_runs`: a hotspot's hot and
/// cold instances, uniform popularity) of ranks `first..=last`, which a
/// stream places one by one, with the units a rank (sub-keys ×
/// combinations) and their one weight, when every unit of a rank carries
/// the same rate (combinations alike, sub-keys of one weight) and a run
/// has more than [`COUNTED_KEYS_PER_PARTITION`] units a partition, so that
/// it is cheaper counted ([`multinomial_into`]); `None` otherwise.
fn counted_runs(s: &Stream, first: u64, last: u64, partitions: usize) -> Option<CountedRuns> {
    let w = s.subkeys.first()?.weight;
    if !s.combos.uniform || s.subkeys.iter().any(|k| k.weight != w) {
        return None;
    }
    let units = s.subkeys.len() as u64 * enumerated_combos(s);
    let many = COUNTED_KEYS_PER_PARTITION * partitions as u64;
    if last < first || (last - first + 1) * units <= many {
        return None;
    }
    let runs = s.shares.constant_runs(first, last)?;
    runs.iter()
        .any(|&(keys, _)| keys * units > many)
        .then_some(CountedRuns {
            runs,
            units,
            weight: w,
        })
}

/// [`counted_runs`]: each run's (keys, share), the units a key, and each
/// unit's weight.
struct CountedRuns {
    runs: Vec<(u64, f64)>,
    units: u64,
    weight: f64,
}

/// The ranks, head included, whose shares every trial reads to place a
/// stream's keys one by one: the head and the single draws, or the head
/// alone where the tail is counted ([`counted_tail`] reads no share).
fn ranks_drawn_singly(s: &Stream, head: u64, servers: Servers) -> u64 {
    let n = s.shares.count();
    if n <= head || counted_tail(s, head, n, servers).is_some() {
        return head;
    }
    head + single_draw_ranks(s, n, head, servers)
}

/// Keys per partition up to which [`multinomial_into`] counts keys one by
/// one (a uniform draw each, ≈ 4 ns) rather than draw a binomial per
/// partition (≈ 95 ns at these means; measured on 33,958 and 81,352
/// Bigtable tablets, where 32 ran faster than 16 or 128).
const COUNTED_KEYS_PER_PARTITION: u64 = 32;

/// Adds `per_key` to a partition for each of `keys` keys landing on the
/// partitions uniformly at random, as the counts of a multinomial(`keys`;
/// 1/P, …, 1/P): up to [`COUNTED_KEYS_PER_PARTITION`] keys a partition,
/// each key's partition drawn and counted; past that, partition i takes
/// Binomial(left, 1/(P − i)) of the keys not yet placed (the conditional
/// binomials; Devroye, *Non-Uniform Random Variate Generation*, 1986,
/// §XI.1), each binomial drawn exactly (`rand_distr::Binomial`: BINV or
/// BTPE, Kachitvichyanukul and Schmeiser 1988). Either way, exactly the
/// distribution of the keys placed one by one.
fn multinomial_into(per: &mut [f64], keys: u64, per_key: f64, rng: &mut Xoshiro256PlusPlus) {
    let parts = per.len();
    if keys <= COUNTED_KEYS_PER_PARTITION * parts as u64 {
        let mut counts = vec![0u64; parts];
        for _ in 0..keys {
            counts[below(rng, parts)] += 1;
        }
        for (x, k) in per.iter_mut().zip(counts) {
            *x += k as f64 * per_key;
        }
        return;
    }
    let mut left = keys;
    for (i, x) in per.iter_mut().enumerate() {
        if left == 0 {
            break;
        }
        let k = if i + 1 == parts {
            left
        } else {
            rand_distr::Binomial::new(left, 1.0 / (parts - i) as f64).map_or(0, |b| b.sample(rng))
        };
        *x += k as f64 * per_key;
        left -= k;
    }
}

/// Where `keys` distinct keys land on `parts` partitions spread as
/// `spread`: per partition with any, its count, in partition order — a
/// multinomial(`keys`; p₁, …, p_P) draw, key by key up to
/// [`COUNTED_KEYS_PER_PARTITION`] a partition, then by conditional
/// binomials (partition i takes Binomial(left, pᵢ ÷ Σ_{j≥i} pⱼ); as
/// [`multinomial_into`] does for equal shares).
fn shard_counts(
    keys: u64,
    (spread, parts): (&KeySpread, usize),
    rng: &mut Xoshiro256PlusPlus,
) -> std::rc::Rc<[(u32, u32)]> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    let shares = match spread {
        KeySpread::Shares(w) if w.len() == parts => Some(w),
        _ => None,
    };
    let mut per = vec![0u32; parts];
    match shares {
        None if keys < parts as u64 => {
            let mut at: Vec<u32> = (0..keys).map(|_| below(rng, parts) as u32).collect();
            at.sort_unstable();
            for p in at {
                match out.last_mut() {
                    Some(last) if last.0 == p => last.1 += 1,
                    _ => out.push((p, 1)),
                }
            }
            return out.into();
        }
        None => {
            let mut mass = vec![0.0; parts];
            multinomial_into(&mut mass, keys, 1.0, rng);
            for (c, m) in per.iter_mut().zip(mass) {
                *c = m as u32;
            }
        }
        Some(w) => {
            for (c, k) in per.iter_mut().zip(weighted_counts(keys, w, rng)) {
                *c = k as u32;
            }
        }
    }
    out.extend(
        per.iter()
            .enumerate()
            .filter(|(_, k)| **k > 0)
            .map(|(p, k)| (p as u32, *k)),
    );
    out.into()
}

/// Where `keys` distinct keys land over partitions of shares in
/// proportion to `w`: each partition's count, a multinomial(`keys`; wᵢ ÷
/// Σw) draw — key by key (a binary search of the cumulative shares) up to
/// [`UNEQUAL_KEYS_PER_PARTITION`] a partition, while that costs less than
/// a binomial per partition (≈ 25 ns a key against ≈ 125 ns a binomial),
/// else partition i takes Binomial(left, wᵢ ÷ Σ_{j≥i} wⱼ) of the keys left.
fn weighted_counts(keys: u64, w: &[f64], rng: &mut Xoshiro256PlusPlus) -> Vec<u64> {
    let parts = w.len();
    let mut per = vec![0u64; parts];
    if parts == 0 {
        return per;
    }
    if keys <= UNEQUAL_KEYS_PER_PARTITION * parts as u64 {
        let mut cumulative = Vec::with_capacity(parts);
        let mut total = 0.0;
        for x in w {
            total += x;
            cumulative.push(total);
        }
        for _ in 0..keys {
            let u = rng.random::<f64>() * total;
            let i = cumulative.partition_point(|&c| c <= u).min(parts - 1);
            per[i] += 1;
        }
        return per;
    }
    let mut left = keys;
    let mut rest: f64 = w.iter().sum();
    for (c, x) in per.iter_mut().zip(w) {
        if left == 0 {
            break;
        }
        let p = if rest > 0.0 {
            (x / rest).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let k = rand_distr::Binomial::new(left, p).map_or(0, |b| b.sample(rng));
        *c = k;
        left -= k;
        rest -= x;
    }
    if let Some(last) = per.last_mut() {
        *last += left;
    }
    per
}

/// Most keys a partition [`shard_counts`] draws one by one over unequal
/// shares, before it draws a binomial per partition.
const UNEQUAL_KEYS_PER_PARTITION: u64 = 8;

/// Whether streams `a` and `b` pick the same keys in the same order (the
/// same driver ranked alike, the same other entities, sub-keys and special
/// placements, the sub-keys' weights in proportion), so that rank r of
/// each is the same instance on the same partition: `b`'s placement is
/// `a`'s scaled by the ratio of their rates times the returned ratio of
/// their sub-keys' weights (placement's choices, which sub-keys go one by
/// one or as mass, do not change when every weight is scaled alike).
fn placement_ratio(a: &Stream, b: &Stream) -> Option<f64> {
    let fresh_kind = |s: &Stream| s.shares.is_fresh() && (s.is_write || s.is_query);
    let alike = a.broadcast == b.broadcast
        && a.driver == b.driver
        && a.recency_ordered == b.recency_ordered
        && a.shares == b.shares
        && a.combos == b.combos
        && fresh_kind(a) == fresh_kind(b)
        && a.subkeys.len() == b.subkeys.len()
        && a.subkeys
            .iter()
            .zip(&b.subkeys)
            .all(|(x, y)| (x.shard, x.bucket_back) == (y.shard, y.bucket_back));
    if !alike {
        return None;
    }
    if a.subkeys == b.subkeys {
        return Some(1.0);
    }
    let c = b.subkeys.first()?.weight / a.subkeys.first()?.weight;
    let in_proportion = c.is_finite()
        && c > 0.0
        && a.subkeys
            .iter()
            .zip(&b.subkeys)
            .all(|(x, y)| (x.weight * c - y.weight).abs() <= 1e-12 * y.weight);
    in_proportion.then_some(c)
}

/// Combinations of the other entities each rank is drawn as: all of them
/// when there are at most 16, else 1 (the rank's whole mass in one draw).
fn enumerated_combos(s: &Stream) -> u64 {
    if s.combos.count <= 16.0 {
        s.combos.count as u64
    } else {
        1
    }
}

/// The servers whose load placement's error is bounded over
/// ([`tail_peak_error`]): those the verdicts judge against a throughput
/// limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Servers {
    /// Partitions the keys land on, uniformly at random (what hashing a
    /// random instance does).
    pub partitions: usize,
    /// The nodes, when only they carry a throughput limit (Redis Cluster's
    /// masters, Cassandra's nodes: each node's load is a fixed mix of its
    /// partitions' loads, and no partition's load is judged); `None` when
    /// the partitions carry one, or nothing does.
    pub limited_nodes: Option<usize>,
}

impl Servers {
    /// The servers judged in `layout`.
    pub fn of(layout: &TableLayout) -> Servers {
        let partition_limited = layout.read_limit_per_s.is_some()
            || layout.write_limit_per_s.is_some()
            || layout.combined_limit_per_s.is_some();
        let limited_nodes = layout
            .nodes
            .as_ref()
            .filter(|n| {
                !partition_limited
                    && (n.read_limit_per_s.is_some()
                        || n.write_limit_per_s.is_some()
                        || n.combined_limit_per_s.is_some())
            })
            .map(|n| n.nodes.max(1));
        Servers {
            partitions: layout.partitions.max(1),
            limited_nodes,
        }
    }
}

/// Ranks beyond the head placed one by one: the fewest, on the ladder 0,
/// 256, 1,024, … sub-keys, whose tail keeps [`tail_peak_error`] over the
/// judged `servers` within [`TAIL_PEAK_ERROR`], else up to
/// [`MAX_SINGLE_DRAWS`] sub-keys; all of them when too few would be left
/// for the normal approximation (fewer than 64 sub-keys per partition).
pub fn single_draw_ranks(s: &Stream, n: u64, head: u64, servers: Servers) -> u64 {
    let partitions = servers.partitions;
    let combos = enumerated_combos(s);
    let units_per_rank = (s.subkeys.len() as u64 * combos).max(1);
    let tail_ranks = n.saturating_sub(head);
    let cap = (MAX_SINGLE_DRAWS / units_per_rank).min(tail_ranks);
    if ((tail_ranks - cap) as f64 * units_per_rank as f64) < 64.0 * partitions as f64 {
        return tail_ranks;
    }
    let cache_key = (partitions, servers.limited_nodes.unwrap_or(0));
    if let Some(&(p, nodes, k)) = s.single_draws_cache.get() {
        if (p, nodes) == cache_key {
            return k;
        }
    }
    let mut sub_keys = 0u64;
    let single = loop {
        let k = sub_keys / units_per_rank;
        if k >= cap || tail_peak_error(s, head + k + 1, n, servers) <= TAIL_PEAK_ERROR {
            break k.min(cap);
        }
        sub_keys = (sub_keys * 4).max(256);
    };
    let _ = s.single_draws_cache.set((cache_key.0, cache_key.1, single));
    single
}

/// The head's history sub-keys (those `old` picks by index) when they go
/// as mass ([`Placer::history_keys`]): more than [`HOT_KEYS`] of them, one
/// combination or up to 16 enumerated alike, not the exact method, and
/// [`history_peak_error`] within [`HISTORY_PEAK_ERROR`].
fn history_as_mass(
    s: &Stream,
    old: impl Fn(&usize) -> bool,
    servers: Servers,
    exact: bool,
) -> Option<Vec<usize>> {
    if exact || !s.combos.uniform || s.combos.count > 16.0 {
        return None;
    }
    let old_keys: Vec<usize> = (0..s.subkeys.len()).filter(old).collect();
    if old_keys.len() <= HOT_KEYS {
        return None;
    }
    let weights = old_keys.iter().map(|&j| s.subkeys[j].weight);
    (history_peak_error(s, weights, servers) <= HISTORY_PEAK_ERROR).then_some(old_keys)
}

/// Largest [`history_peak_error`] the head's history sub-keys are placed
/// as mass with ([`Placer::history_keys`]): the tail's, 1% of a judged server's
/// mean load, on top of the tail's [`TAIL_PEAK_ERROR`].
pub const HISTORY_PEAK_ERROR: f64 = TAIL_PEAK_ERROR;

/// [`tail_peak_error`]'s bound for the head ranks' sub-keys of weights
/// `weights` (each rank's history sub-keys) placed as normal mass: each
/// such key carries q = share · w ÷ (fan-out · combinations) of the
/// stream, so Σq³/Σq² = (Σ share³/Σ share²)·(Σw³/Σw²) ÷ (fan-out ·
/// combinations), and the bound is S²·Σq³/Σq² over the judged servers
/// (times p² + (1 − p)² ≤ 1 where the partitions are judged).
pub fn history_peak_error(s: &Stream, weights: impl Iterator<Item = f64>, servers: Servers) -> f64 {
    let (w2, w3) = weights.fold((0.0, 0.0), |(a, b), w| (a + w * w, b + w * w * w));
    let head = s.shares.count().min(HEAD_RANKS);
    let (s2, s3) = (1..=head)
        .map(|r| s.rank_share(r))
        .fold((0.0, 0.0), |(a, b), q| (a + q * q, b + q * q * q));
    if w2 <= 0.0 || s2 <= 0.0 {
        return 0.0;
    }
    let ratio = (s3 / s2) * (w3 / w2) / (s.fan_out() * s.combos.count.max(1.0));
    match servers.limited_nodes {
        Some(nodes) => (nodes.max(1) as f64).powi(2) * ratio,
        None => {
            let pf = servers.partitions.max(1) as f64;
            let p = 1.0 / pf;
            pf * pf * ratio * (p * p + (1.0 - p) * (1.0 - p))
        }
    }
}

/// Largest [`tail_peak_error`] a stream's tail is placed as mass with (when
/// fewer than [`MAX_SINGLE_DRAWS`] single draws reach it): 1% of a judged
/// server's mean load.
pub const TAIL_PEAK_ERROR: f64 = 0.01;

/// Bound on the expected error that placing ranks `t..=n` as normal mass
/// (rather than key by key) makes in the busiest judged server's load, as a
/// fraction of the stream's mean load per server. On each server the
/// tail's Wasserstein-1 distance to its normal is W₁ ≤ ρ/σ² (the L¹
/// Berry–Esseen bound with constant 1 for independent sums, by Stein's
/// method: Goldstein, "L¹ bounds in normal approximation", *Ann. Probab.*
/// 35, 2007, scaled from the standardized sum); summed over the servers
/// (|max Xₛ − max Yₛ| ≤ Σ|Xₛ − Yₛ|) and over the mean load 1/S, S²·ρ/σ².
/// - Partitions judged (S = P): each sub-key on a partition with
///   probability p = 1/P, ρ/σ² from [`tail_moments`] ([`placement_stats`]'s
///   σ² and ρ).
/// - Nodes judged (S = N): a node takes a fixed fraction Y ∈ [0, 1] of
///   each partition's load (all of it, or its share of the reads with
///   replicas), so a sub-key of share q puts q·Y on it, Y i.i.d. over
///   sub-keys; E|Y − EY|³ ≤ Var(Y), hence ρ/σ² ≤ Σq³ / Σq² = m₃/(m₂·k) for
///   k sub-keys a rank, whatever Y's law. The mass's per-partition
///   normals, projected onto their total, have the multinomial's
///   covariances, so every node's sum of them has its exact mean and
///   variance: the bound is the one for the normal with those moments.
pub fn tail_peak_error(s: &Stream, t: u64, n: u64, servers: Servers) -> f64 {
    if let Some(nodes) = servers.limited_nodes {
        if t > n {
            return 0.0;
        }
        let (_, m2) = s.share_moments(t, n);
        let m3 = s.shares.third_moment(t, n);
        let k = (s.subkeys.len() as f64 * s.combos.count).max(1.0);
        let nf = nodes.max(1) as f64;
        return if m2 > 0.0 {
            nf * nf * m3 / (m2 * k)
        } else {
            0.0
        };
    }
    let partitions = servers.partitions;
    let (var, rho) = tail_moments(s, t, n, partitions);
    let pf = partitions.max(1) as f64;
    if var > 0.0 {
        pf * pf * rho / var
    } else {
        0.0
    }
}

/// Per partition, the variance σ² and the summed absolute third central
/// moments ρ of the load of ranks `t..=n` (shares of the stream), each
/// key's share split over its sub-keys, each sub-key on a partition with
/// probability p = 1/P.
fn tail_moments(s: &Stream, t: u64, n: u64, partitions: usize) -> (f64, f64) {
    if t > n {
        return (0.0, 0.0);
    }
    let (_, m2) = s.share_moments(t, n);
    let m3 = s.shares.third_moment(t, n);
    let p = 1.0 / partitions.max(1) as f64;
    let k = (s.subkeys.len() as f64 * s.combos.count).max(1.0);
    let var = m2 / k * p * (1.0 - p);
    let rho = m3 / (k * k) * p * (1.0 - p) * (p * p + (1.0 - p) * (1.0 - p));
    (var, rho)
}

/// How a stream's keys are placed: one by one, or as per-partition mass.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlacementStats {
    /// Keys (ranks × sub-keys) placed one by one.
    pub keys_placed: f64,
    /// Keys placed as per-partition mass (the tail).
    pub keys_as_mass: f64,
    /// Share of the stream's requests carried by the tail.
    pub tail_share: f64,
    /// Berry–Esseen bound on the CDF error of a partition's tail load:
    /// 0.56·Σ E|Xᵢ − μᵢ|³ / σ³ with Xᵢ = qᵢ·Bernoulli(1/P).
    pub tail_cdf_error_bound: f64,
    /// Bound on the expected error of the busiest partition's load from
    /// placing the tail as mass, over the mean load per partition
    /// ([`tail_peak_error`]).
    pub tail_peak_error_bound: f64,
}

/// Placement statistics of one stream over `servers` (its partitions, the
/// error bound over the judged servers).
pub fn placement_stats(s: &Stream, servers: Servers) -> PlacementStats {
    let partitions = servers.partitions;
    if s.shares.is_fresh() {
        return PlacementStats::default();
    }
    let n = s.shares.count();
    let head = n.min(HEAD_RANKS);
    let subkeys = s.subkeys.len() as f64 * s.combos.count;
    let single = match counted_tail(s, head, n, servers) {
        // Counted exactly: as if placed one by one.
        Some(_) => n - head,
        None => single_draw_ranks(s, n, head, servers),
    };
    let tail_start = head + single + 1;
    let mut st = PlacementStats {
        keys_placed: (head + single) as f64 * subkeys,
        ..Default::default()
    };
    if tail_start <= n {
        let (m1, _) = s.share_moments(tail_start, n);
        // Each key's mass splits into its sub-keys, placed independently.
        let (var, rho) = tail_moments(s, tail_start, n, partitions);
        st.keys_as_mass = (n - tail_start + 1) as f64 * subkeys;
        st.tail_share = m1;
        st.tail_cdf_error_bound = if var > 0.0 {
            (0.56 * rho / var.powf(1.5)).min(1.0)
        } else {
            0.0
        };
        st.tail_peak_error_bound = tail_peak_error(s, tail_start, n, servers);
    }
    history_stats(s, head, servers, &mut st);
    st
}

/// The head's history sub-keys placed as mass in the busy period's first
/// bucket (every sub-key of an earlier bucket: [`Placer::history_keys`]),
/// moved from `st`'s keys placed one by one to its mass, with their share
/// of the requests and their bound added to the tail's.
fn history_stats(s: &Stream, head: u64, servers: Servers, st: &mut PlacementStats) {
    let Some(old) = history_as_mass(s, |&j| s.subkeys[j].bucket_back >= 1, servers, false) else {
        return;
    };
    let hot = head.min(HOT_KEYS as u64);
    let combos = s.combos.count.max(1.0);
    let fan_out = s.fan_out();
    let named = &old[..HOT_KEYS];
    let w = |keys: &[usize]| keys.iter().map(|&j| s.subkeys[j].weight).sum::<f64>();
    let shares = |ranks: u64| (1..=ranks).map(|r| s.rank_share(r)).sum::<f64>();
    let as_mass = (head * old.len() as u64 - hot * HOT_KEYS as u64) as f64 * combos;
    st.keys_placed -= as_mass;
    st.keys_as_mass += as_mass;
    st.tail_share += (shares(head) * w(&old) - shares(hot) * w(named)) / fan_out;
    let weights = old.iter().map(|&j| s.subkeys[j].weight);
    st.tail_peak_error_bound += history_peak_error(s, weights, servers);
}

/// Adds `mass` spread over the partitions as independent keys would land:
/// each partition gets mass/P plus a normal with variance `var_keys`·(1/P)(1 − 1/P),
/// projected so the total stays `mass`, clamped at 0.
fn spread(per: &mut [f64], mass: f64, var_keys: f64, rng: &mut Xoshiro256PlusPlus) {
    let pf = per.len() as f64;
    if mass <= 0.0 {
        return;
    }
    let sd = (var_keys * (1.0 / pf) * (1.0 - 1.0 / pf)).max(0.0).sqrt();
    if sd == 0.0 || per.len() == 1 {
        for x in per.iter_mut() {
            *x += mass / pf;
        }
        return;
    }
    let z: Vec<f64> = (0..per.len()).map(|_| StandardNormal.sample(rng)).collect();
    let zbar = z.iter().sum::<f64>() / pf;
    // Projection onto Σ = 0 scales the variance by (1 − 1/P); undo that.
    let scale = sd / (1.0 - 1.0 / pf).sqrt();
    // Each partition's draw, in place of its z.
    let mut z = z;
    for zi in z.iter_mut() {
        *zi = mass / pf + scale * (*zi - zbar);
    }
    add_conserving(per, &z, mass);
}

/// Adds the normal draws `add` (summing to `mass`) to `per`, each at least
/// 0. Where some draw is negative (a tail of few keys a partition against
/// its spread: a Zipf tail over Redis Cluster's 16,384 slots), those taken
/// as 0 would add units no request asked for (a new user's 1,000 writes/s
/// read 1,066), so the rest are scaled to keep the mass; where none is,
/// the draws are added as they are.
fn add_conserving(per: &mut [f64], add: &[f64], mass: f64) {
    if add.iter().all(|&a| a >= 0.0) {
        for (x, &a) in per.iter_mut().zip(add) {
            *x += a;
        }
        return;
    }
    let kept: f64 = add.iter().map(|a| a.max(0.0)).sum();
    let scale = if kept > 0.0 { mass / kept } else { 0.0 };
    for (x, &a) in per.iter_mut().zip(add) {
        *x += a.max(0.0) * scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{prepare, Options};
    use crate::scenario::Scenario;
    use rand::SeedableRng;

    /// `samples`' mean within 4 standard errors of `mean` and their
    /// variance within 10% of `var` (the sampled quantity's own).
    fn assert_moments(samples: &[f64], mean: f64, var: f64, what: &str) {
        let n = samples.len() as f64;
        let m = samples.iter().sum::<f64>() / n;
        let v = samples.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        assert!((m - mean).abs() < 4.0 * se, "{what}: mean {m} vs {mean}");
        assert!((v / var - 1.0).abs() < 0.1, "{what}: variance {v} vs {var}");
    }

    /// A placer of `table` that keeps no keys and no map: the plain
    /// approximate placement every trial makes.
    fn plain<'a>(store: &'a dyn StoreModel, table: &'a TablePlan) -> Placer<'a> {
        Placer {
            store,
            table,
            landing: Landing::of(store, table.layout.partitions),
            keep_keys: false,
            exact: false,
            landed: None,
            counted: Default::default(),
            last_bucket: None,
            history_before: None,
        }
    }

    /// `below` draws what `random_range(0..n)` draws, from the same
    /// stream, for ranges small and large, powers of two and not, and a
    /// range wider than u32 (handed to rand): 10⁵ draws each.
    #[test]
    fn below_is_rands_random_range() {
        for n in [
            1usize,
            2,
            3,
            7,
            1_000,
            9_728,
            16_384,
            48_123,
            (1 << 31) + 1,
            u32::MAX as usize,
            u32::MAX as usize + 7,
        ] {
            let mut a = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut b = a.clone();
            for i in 0..100_000 {
                assert_eq!(below(&mut a, n), b.random_range(0..n), "n {n}, draw {i}");
            }
        }
    }

    #[test]
    fn multinomial_counts_keep_every_key_and_a_multinomials_moments() {
        // K keys over P partitions: each partition's count is Binomial(K,
        // 1/P), mean K/P and variance K·(1/P)(1 − 1/P), the first
        // partition's as the last's. Counted one by one (K/P = 20) and by
        // conditional binomials (K/P = 50), over 4,000 draws: the sample
        // means within 4 standard errors, the variances within 10%.
        for (parts, keys) in [(50usize, 1_000u64), (20, 1_000)] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            let draws = 4_000;
            let (p, k) = (1.0 / parts as f64, keys as f64);
            let (mut first, mut last) = (Vec::new(), Vec::new());
            for _ in 0..draws {
                let mut per = vec![0.0; parts];
                multinomial_into(&mut per, keys, 2.0, &mut rng);
                assert_eq!(per.iter().sum::<f64>(), 2.0 * k);
                assert!(per.iter().all(|x| x % 2.0 == 0.0));
                first.push(per[0] / 2.0);
                last.push(per[parts - 1] / 2.0);
            }
            let var = k * p * (1.0 - p);
            for counts in [&first, &last] {
                assert_moments(counts, k * p, var, &format!("{parts} partitions"));
            }
        }
    }

    /// Over unequal shares, the counted keys and the spread mass keep a
    /// multinomial's moments: partition i's mean n·pᵢ·x and variance
    /// n·pᵢ(1 − pᵢ)·x² (counted: both ways, key by key and by the
    /// conditional binomials), the spread's mass·pᵢ and var·pᵢ(1 − pᵢ).
    #[test]
    fn a_weighted_landing_keeps_a_multinomials_moments() {
        let w = [0.5, 0.3, 0.15, 0.05];
        let landing = Landing::by_shares(&[5.0, 3.0, 1.5, 0.5]);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for keys in [20u64, 4_000] {
            let draws: Vec<Vec<f64>> = (0..4_000)
                .map(|_| {
                    let mut per = vec![0.0; 4];
                    landing.multinomial_into(&mut per, keys, 2.0, &mut rng);
                    assert!((per.iter().sum::<f64>() - 2.0 * keys as f64).abs() < 1e-9);
                    per
                })
                .collect();
            for (i, p) in w.iter().enumerate() {
                let xs: Vec<f64> = draws.iter().map(|d| d[i]).collect();
                let n = keys as f64;
                assert_moments(&xs, 2.0 * n * p, 4.0 * n * p * (1.0 - p), "counted");
            }
        }
        let draws: Vec<Vec<f64>> = (0..4_000)
            .map(|_| {
                let mut per = vec![0.0; 4];
                landing.spread(&mut per, 1_000.0, 400.0, &mut rng);
                per
            })
            .collect();
        for (i, p) in w.iter().enumerate() {
            let xs: Vec<f64> = draws.iter().map(|d| d[i]).collect();
            assert_moments(&xs, 1_000.0 * p, 400.0 * p * (1.0 - p), "spread");
        }
        let draws = (0..100_000).filter(|_| landing.draw(&mut rng) == 0).count();
        assert!((draws as f64 / 1e5 - 0.5).abs() < 0.006, "{draws}");
        assert!(Landing::by_shares(&[2.0; 5]).weighted.is_none());
    }

    #[test]
    fn shard_counts_keep_every_key_and_a_multinomials_moments() {
        // K keys over partitions of shares p = (0.5, 0.3, 0.15, 0.05) and
        // over 4 equal ones: partition i's count is Binomial(K, pᵢ), mean
        // K·pᵢ and variance K·pᵢ(1 − pᵢ). Key by key (K = 12 and 3, under
        // 8 a partition and under one) and by conditional binomials (K =
        // 400), over 4,000 draws: every key counted once, the sample means
        // within 4 standard errors, the variances within 10%.
        let unequal = KeySpread::Shares(vec![0.5, 0.3, 0.15, 0.05]);
        for (spread, keys) in [
            (&unequal, 12u64),
            (&unequal, 400),
            (&KeySpread::Uniform, 3),
            (&KeySpread::Uniform, 400),
        ] {
            let shares = match spread {
                KeySpread::Shares(w) => w.clone(),
                KeySpread::Uniform => vec![0.25; 4],
            };
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
            let draws = 4_000;
            let mut counts = vec![Vec::new(); 4];
            for _ in 0..draws {
                let drawn = shard_counts(keys, (spread, 4), &mut rng);
                assert!(drawn.windows(2).all(|w| w[0].0 < w[1].0), "{drawn:?}");
                assert_eq!(drawn.iter().map(|x| u64::from(x.1)).sum::<u64>(), keys);
                let mut per = [0.0; 4];
                for &(p, k) in drawn.iter() {
                    per[p as usize] = f64::from(k);
                }
                for (c, x) in counts.iter_mut().zip(per) {
                    c.push(x);
                }
            }
            let k = keys as f64;
            for (c, p) in counts.iter().zip(&shares) {
                let var = k * p * (1.0 - p);
                assert_moments(c, k * p, var, &format!("{keys} keys, p {p}"));
            }
        }
    }

    #[test]
    fn a_whole_tail_placed_one_by_one_reads_its_shares_from_the_cache() {
        // 300,000 Zipf products on Redis Cluster's 16,384 slots: past the
        // 65,792 cached ranks, 14 keys a slot would be left for the normal
        // mass (under 64), so every trial places all 300,000 one by one.
        // The stream keeps all their shares, and places them as it did
        // recomputing each past the 65,792nd (a power a key a trial).
        let text = r#"
schema_version = 1
name = "products"
[store]
kind = "redis-cluster"
masters = 3
[simulation]
trials = 2
duration = "60s"
[[entity]]
name = "product"
count = 300_000
popularity = { distribution = "zipf", exponent = 1.1 }
[[table]]
name = "products"
partition_key = "prod:{product}"
item_size = "4KB"
[[access_pattern]]
name = "page"
table = "products"
operation = "get"
rate = 20000
by = "product"
"#;
        let scenario = Scenario::from_str_at(text, "products.toml").expect("parses");
        let place = |cache_first: Option<u64>| {
            let (plan, model) = prepare(&scenario, &Options::default(), 0.0).expect("plans");
            let table = &plan.tables[0];
            if let Some(ranks) = cache_first {
                table.streams[0].keep_rank_shares(ranks);
            }
            let placer = plain(model.store(), table);
            let mut world = World::new(&mut Xoshiro256PlusPlus::seed_from_u64(3));
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
            let placed = placer.place_bucket(0, &mut world, &mut rng).placed;
            let kept = table.streams[0]
                .rank_share_cache
                .get()
                .map_or(0, |t| t.len());
            (placed[0].per_partition.clone(), kept)
        };
        // The tables are shared by every stream of the process over the
        // same popularity: one at least as long as each asks for.
        let (cached, kept) = place(None);
        assert!(kept >= 300_000, "{kept}");
        let (recomputed, kept) = place(Some(super::super::stream::CACHED_RANKS));
        assert!(kept >= 65_792, "{kept}");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&cached), bits(&recomputed));
        let total: f64 = cached.iter().sum();
        assert!((total - 20_000.0).abs() < 1e-6 * 20_000.0, "{total}");
    }

    /// 400,000 hotspot customers (10% of them take half the requests) on
    /// 201 DynamoDB partitions, each key whole or written to one of 4 shards
    /// at random: the ranks past the head placed one by one (65,536 units)
    /// hold 39,744 hot and 25,792 cold keys (16,384 hot ones with shards,
    /// 4 units each), every run over 32 units a partition, so each is
    /// counted ([`counted_runs`]). A partition's rate, whichever way its
    /// keys land, has mean rate/P and the multinomial's variance
    /// rate²·Σshare²·Σw²·(1/P)(1 − 1/P) (the head, the counted runs and the
    /// normal mass alike): over 2,000 placements the sample mean is within
    /// 4 standard errors and the variance within 10%.
    #[test]
    fn runs_counted_among_the_single_draws_keep_a_partitions_mean_and_variance() {
        for (shards, runs_expected) in [("", &[39_744u64, 25_792][..]), ("shards = 4", &[16_384])] {
            let text = format!(
                r#"
schema_version = 1
name = "hotspot"
[store]
kind = "dynamodb"
read_capacity = 1000
write_capacity = 200000
[simulation]
trials = 2
duration = "60s"
[[entity]]
name = "customer"
count = 400_000
popularity = {{ distribution = "hotspot", hot_fraction = 0.1, hot_share = 0.5 }}
[[table]]
name = "orders"
partition_key = "C#{{customer}}"
item_size = "500B"
{shards}
[[access_pattern]]
name = "place"
table = "orders"
operation = "put"
rate = 50000
by = "customer"
"#
            );
            let scenario = Scenario::from_str_at(&text, "hotspot.toml").expect("parses");
            let (plan, model) = prepare(&scenario, &Options::default(), 0.0).expect("plans");
            let table = &plan.tables[0];
            let s = &table.streams[0];
            let p = table.layout.partitions;
            // ⌈1,000/3,000 + 200,000/1,000⌉ partitions.
            assert_eq!(p, 201);
            let servers = Servers::of(&table.layout);
            let single = single_draw_ranks(s, s.shares.count(), HEAD_RANKS, servers);
            let units = s.subkeys.len() as u64;
            assert_eq!(single * units, MAX_SINGLE_DRAWS, "{shards}");
            let counted = counted_runs(s, HEAD_RANKS + 1, HEAD_RANKS + single, p).expect("counted");
            assert_eq!(counted.units, units);
            let keys: Vec<u64> = counted.runs.iter().map(|r| r.0).collect();
            assert_eq!(keys, runs_expected);
            let placer = plain(model.store(), table);
            let draws = 2_000;
            let rate = s.busy_rate_per_s;
            let first: Vec<f64> = (0..draws)
                .map(|i| {
                    let mut world = World::new(&mut Xoshiro256PlusPlus::seed_from_u64(2 * i));
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2 * i + 1);
                    let placed = placer.place_bucket(0, &mut world, &mut rng).placed;
                    let total: f64 = placed[0].per_partition.iter().sum();
                    assert!((total - rate).abs() < 1e-6 * rate, "{total} vs {rate}");
                    placed[0].per_partition[0]
                })
                .collect();
            let pf = p as f64;
            let (_, m2) = s.shares.moments(1, s.shares.count());
            let w2: f64 = s.subkeys.iter().map(|k| k.weight * k.weight).sum();
            let var = rate * rate * m2 * w2 * (1.0 / pf) * (1.0 - 1.0 / pf);
            assert_moments(&first, rate / pf, var, shards);
        }
    }

    /// A write to one of 4 shards (each sub-key weight 1/4) and a read of
    /// all 4 (weight 1 each) by the same Zipf customers hit the same keys:
    /// the read's rates land where the write's do, × (read rate × 4 ÷
    /// write rate) on every partition, the tail placed one by one
    /// included (drawn apart, the two would put a customer's key on two
    /// partitions).
    #[test]
    fn streams_whose_sub_keys_weigh_in_proportion_land_on_the_same_partitions() {
        let text = r#"
schema_version = 1
name = "sharded"
[store]
kind = "dynamodb"
read_capacity = 30000
write_capacity = 30000
[simulation]
trials = 2
duration = "60s"
[[entity]]
name = "customer"
count = 50_000
popularity = { distribution = "zipf", exponent = 1.0 }
[[table]]
name = "orders"
partition_key = "C#{customer}"
item_size = "500B"
shards = 4
[[access_pattern]]
name = "write"
table = "orders"
operation = "put"
rate = 1000
by = "customer"
[[access_pattern]]
name = "read"
table = "orders"
operation = "get"
rate = 3000
by = "customer"
"#;
        let scenario = Scenario::from_str_at(text, "sharded.toml").expect("parses");
        let (plan, model) = prepare(&scenario, &Options::default(), 0.0).expect("plans");
        let table = &plan.tables[0];
        let (w, r) = (&table.streams[0], &table.streams[1]);
        assert_eq!(placement_ratio(w, r), Some(4.0));
        let servers = Servers::of(&table.layout);
        assert!(single_draw_ranks(w, w.shares.count(), HEAD_RANKS, servers) > 0);
        let placer = plain(model.store(), table);
        let mut world = World::new(&mut Xoshiro256PlusPlus::seed_from_u64(1));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let placed = placer.place_bucket(0, &mut world, &mut rng).placed;
        let m = r.busy_rate_per_s * 4.0 / w.busy_rate_per_s;
        for (a, b) in placed[0].per_partition.iter().zip(&placed[1].per_partition) {
            assert!((a * m - b).abs() <= 1e-9 * b, "{a} × {m} vs {b}");
        }
    }

    /// Range queries over 24 quarter-hour buckets (of 4 write shards), with
    /// few enough other instances to key each combination (three sites per
    /// sensor; ten lines and three sites, by either): the keys a bucket's
    /// placement finds in [`Placer::landed`] land where formatting and
    /// hashing them again puts them, so a placer that remembers gives,
    /// bucket after bucket, what one that does not gives, rate for rate
    /// (and fails if the map's key leaves out any part of the key's text:
    /// the bucket, the combination, the driving entity, the shard).
    #[test]
    fn keys_found_in_the_trial_map_land_where_they_are_placed_again() {
        let text = r#"
schema_version = 1
name = "quarter-hours"
[store]
kind = "cassandra"
nodes = 6
replication_factor = 3
[simulation]
seed = 5
trials = 2
duration = "1h"
[[entity]]
name = "sensor"
count = 100_000
popularity = { distribution = "zipf", exponent = 1.1 }
[[entity]]
name = "site"
count = 3
popularity = "uniform"
[[table]]
name = "readings"
partition_key = "{site}:{sensor}:{bucket}#{shard}"
sort_key = "{time}"
item_size = "100B"
bucket = "15m"
shards = 4
shard_strategy = "random"
[[access_pattern]]
name = "ingest"
table = "readings"
operation = "put"
rate = 5000
by = "sensor"
[[access_pattern]]
name = "last 6 hours"
table = "readings"
operation = "query"
rate = 300
by = "sensor"
range = "6h"
[[entity]]
name = "line"
count = 10
popularity = "uniform"
[[table]]
name = "lines"
partition_key = "{site}:{line}:{bucket}"
sort_key = "{time}"
item_size = "100B"
bucket = "15m"
[[access_pattern]]
name = "line status"
table = "lines"
operation = "put"
rate = 50
by = "line"
[[access_pattern]]
name = "site, last 6 hours"
table = "lines"
operation = "query"
rate = 20
by = "site"
range = "6h"
"#;
        // Cassandra places each key's whole text by its Murmur3 token;
        // DynamoDB by its salted FNV-1a, hashed in two pieces (the text
        // before `{bucket}` once, the rest per bucket: [`Piecewise`]) when
        // no key is kept by name — the map's keys land where the whole text
        // does either way.
        let dynamodb = text.replace(
            "kind = \"cassandra\"\nnodes = 6\nreplication_factor = 3",
            "kind = \"dynamodb\"\npartitions = 40",
        );
        assert_ne!(dynamodb, text);
        for text in [text, dynamodb.as_str()] {
            let scenario = Scenario::from_str_at(text, "quarter-hours.toml").expect("parses");
            let (plan, model) = prepare(&scenario, &Options::default(), 0.0).expect("plans");
            for table in &plan.tables {
                same_with_and_without_the_map(table, model.store());
            }
        }
    }

    fn same_with_and_without_the_map(table: &TablePlan, store: &dyn StoreModel) {
        let placer = |keep_keys, remember: bool, last_bucket| Placer {
            store,
            table,
            landing: Landing::of(store, table.layout.partitions),
            keep_keys,
            exact: false,
            landed: remember.then(Default::default),
            counted: Default::default(),
            last_bucket,
            history_before: None,
        };
        for keep_keys in [false, true] {
            let (with, without) = (
                placer(keep_keys, true, None),
                placer(keep_keys, false, None),
            );
            // Knowing bucket 5 is the last, its last stream's new keys are
            // not remembered: the same placements.
            let last = placer(keep_keys, true, Some(5));
            let seeded = || Xoshiro256PlusPlus::seed_from_u64(9);
            let (mut rng_with, mut rng_without, mut rng_last) = (seeded(), seeded(), seeded());
            let world = || World::new(&mut Xoshiro256PlusPlus::seed_from_u64(3));
            let (mut world_with, mut world_without, mut world_last) = (world(), world(), world());
            for bucket in 0..6 {
                let a = with.place_bucket(bucket, &mut world_with, &mut rng_with);
                let b = without.place_bucket(bucket, &mut world_without, &mut rng_without);
                let c = last.place_bucket(bucket, &mut world_last, &mut rng_last);
                for ((x, y), z) in a.placed.iter().zip(&b.placed).zip(&c.placed) {
                    assert_eq!(x.per_partition, y.per_partition, "bucket {bucket}");
                    assert_eq!(x.keys, y.keys, "bucket {bucket}");
                    assert_eq!(x.per_partition, z.per_partition, "bucket {bucket}");
                    assert_eq!(x.keys, z.keys, "bucket {bucket}");
                }
            }
            // What it left out are keys of bucket 5 only.
            let map = |p: &Placer<'_>| p.landed.as_ref().map(|l| l.borrow().clone());
            let (all, kept) = (
                map(&with).unwrap_or_default(),
                map(&last).unwrap_or_default(),
            );
            assert!(kept.iter().all(|(k, part)| all.get(k) == Some(part)));
            assert!(all.keys().all(|k| kept.contains_key(k) || k.4 == 5));
            // The query's 24 buckets back were kept, each where its text
            // lands (uniform sites and lines alike swap keys of equal rate,
            // which the rates above cannot tell apart).
            let landed = with.landed.as_ref().map(|l| l.borrow().clone());
            let landed = landed.unwrap_or_default();
            assert!(landed.len() > 24 * 10, "{}", landed.len());
            let p = table.layout.partitions.max(1);
            for (&(driver, id, c, shard, bucket), &part) in &landed {
                let ids = instance_ids(&table.keys, driver, id, c, world_with.name_salt);
                let key = table.keys.format(&ids, shard, bucket);
                let again = store
                    .place_in_trial(&key, p, world_with.place_salt)
                    .min(p - 1);
                assert_eq!(part, again, "{key}");
            }
        }
    }
}
