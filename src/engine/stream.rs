//! What a table's access patterns ask for, shared by the plan, growth,
//! placement and memory: the partition key's key space, and one request
//! stream per access pattern with its sub-keys and unit costs.

use super::combos::Combos;
use crate::distributions::popularity::RankShares;
use crate::distributions::severity::Severity;
use crate::scenario::{KeyTemplate, Popularity, Scenario, TemplatePart};

/// Seconds in a day.
pub const DAY_S: f64 = 86_400.0;

/// The partition key's key space.
#[derive(Debug, Clone)]
pub struct KeySpace {
    /// Parsed template.
    pub template: Vec<TemplatePart>,
    /// Entities the template names, with their instance counts (in template order).
    pub entities: Vec<(String, u64)>,
    /// Whether every operation makes a fresh key (`{id}`, `{time}` or a `new` entity in the key).
    pub fresh: bool,
    /// Per entity of `entities`, its named values (`values = […]`; empty:
    /// numbered instances). A named entity's instance index is its value's.
    pub values: Vec<Vec<String>>,
    /// `shard_by` an entity of the key: (its index in `entities`, shards):
    /// the `{shard}` of a key is [`shard_of`] that entity's instance name,
    /// whatever shard the caller passes.
    pub shard_by: Option<(usize, u32)>,
    /// The number of a count bucket's newest bucket (`bucket = { items = N }`):
    /// `{bucket}` is written `bucket_base + bucket`, where the engine's
    /// `bucket` counts back from the newest (0) to older ones (−1, …).
    pub bucket_base: i64,
    /// Per template part, the index in `entities` of the entity it names
    /// (None for any other part, or an entity the scenario lacks).
    slots: Vec<Option<usize>>,
    /// Where the store hashes only part of the key (a Redis Cluster hash
    /// tag, [`crate::store::StoreModel::hashed_parts`]), the template parts
    /// inside it: only they move a key, so the engine places a tag value's
    /// requests together and writes the entities outside it as `<name>`.
    pub hashed: Option<Vec<usize>>,
}

/// The shard of an instance named `name` over `shards` write shards:
/// hash(name) mod shards (FNV-1a 64 + fmix64: one instance always lands on
/// the same shard, instances spread as balls into bins).
///
/// ```
/// use keyheat::engine::stream::shard_of;
/// assert_eq!(shard_of("PENDING", 8), shard_of("PENDING", 8));
/// assert!(shard_of("PENDING", 8) < 8);
/// assert_eq!(shard_of("anything", 1), 0);
/// ```
pub fn shard_of(name: &str, shards: u32) -> u32 {
    (crate::store::hash::key_hash(name.as_bytes()) % u64::from(shards.max(1))) as u32
}

impl KeySpace {
    /// The key space of `template` over `scenario`'s entities.
    pub(super) fn new(template: &KeyTemplate, scenario: &Scenario) -> KeySpace {
        let mut fresh = template.has(&TemplatePart::Id) || template.has(&TemplatePart::Time);
        let mut entities = Vec::new();
        let mut values = Vec::new();
        for name in template.entities() {
            if let Some(e) = scenario.entities.iter().find(|e| e.name == name) {
                if e.popularity == Popularity::New {
                    fresh = true;
                }
                let count = match &e.popularity {
                    Popularity::Weights { weights } => weights.len() as u64,
                    _ => e.count,
                };
                entities.push((name.to_string(), count.max(1)));
                values.push(e.values.clone());
            }
        }
        let slots = template
            .parts
            .iter()
            .map(|part| match part {
                TemplatePart::Entity(name) => entities.iter().position(|(n, _)| n == name),
                _ => None,
            })
            .collect();
        KeySpace {
            template: template.parts.clone(),
            entities,
            fresh,
            values,
            shard_by: None,
            bucket_base: 0,
            slots,
            hashed: None,
        }
    }

    /// The entities (indices into `entities`) inside the part of the key
    /// the store hashes, when it hashes only part of it ([`KeySpace::hashed`]).
    pub fn hashed_entities(&self) -> Option<Vec<usize>> {
        let hashed = self.hashed.as_ref()?;
        let mut out: Vec<usize> = Vec::new();
        for e in hashed
            .iter()
            .filter_map(|&i| self.slots.get(i).copied().flatten())
        {
            if !out.contains(&e) {
                out.push(e);
            }
        }
        Some(out)
    }

    /// Whether a key's `{bucket}` and `{shard}` parts move it: true unless
    /// the store hashes only part of the key and one of them lies outside
    /// it (`rl:{{{tenant}}}#{shard}` puts every shard on the tenant's slot).
    pub fn subkeys_move(&self) -> bool {
        let Some(hashed) = &self.hashed else {
            return true;
        };
        self.template.iter().enumerate().all(|(i, p)| {
            !matches!(p, TemplatePart::Bucket | TemplatePart::Shard) || hashed.contains(&i)
        })
    }

    /// Number of distinct logical keys (product of entity counts), saturating; 1 with no entities.
    pub fn cardinality(&self) -> f64 {
        self.entities.iter().map(|(_, c)| *c as f64).product()
    }

    /// The name of instance `id` of entity `i`: its value when the entity
    /// names its values, else the number.
    pub fn instance_name(&self, i: usize, id: u64) -> String {
        match self.values.get(i).and_then(|v| v.get(id as usize)) {
            Some(v) => v.clone(),
            None => id.to_string(),
        }
    }

    /// Formats a key: `ids[i]` is the instance of `entities[i]`.
    pub fn format(&self, ids: &[u64], shard: Option<u32>, bucket: i64) -> String {
        let mut out = String::with_capacity(32);
        self.format_into(&mut out, ids, shard, bucket);
        out
    }

    /// [`KeySpace::format`] appended to `out` (placement formats the head's
    /// keys in every trial and bucket: one buffer, no allocation per key).
    pub fn format_into(&self, out: &mut String, ids: &[u64], shard: Option<u32>, bucket: i64) {
        self.format_parts_into(out, ids, shard, bucket, 0..self.template.len());
    }

    /// [`KeySpace::format_into`] of the template's parts `parts` only: a
    /// key is the text of `0..k` followed by that of `k..len`.
    pub fn format_parts_into(
        &self,
        out: &mut String,
        ids: &[u64],
        shard: Option<u32>,
        bucket: i64,
        parts: std::ops::Range<usize>,
    ) {
        // Numbers as `Display` writes them, without the formatting machinery.
        let mut digits = itoa::Buffer::new();
        let first = parts.start;
        let chosen = self.template[parts.clone()].iter().zip(&self.slots[parts]);
        for (k, (part, slot)) in chosen.enumerate() {
            let hashed = self
                .hashed
                .as_ref()
                .is_none_or(|h| h.contains(&(first + k)));
            match part {
                TemplatePart::Literal(s) => out.push_str(s),
                // Outside the hashed part: any instance, the same place.
                TemplatePart::Entity(name) if !hashed => {
                    out.push('<');
                    out.push_str(name);
                    out.push('>');
                }
                TemplatePart::Entity(_) => match slot.and_then(|i| ids.get(i).map(|id| (i, *id))) {
                    Some((i, id)) => match self.values.get(i).and_then(|v| v.get(id as usize)) {
                        Some(v) => out.push_str(v),
                        None => out.push_str(digits.format(id)),
                    },
                    None => out.push('?'),
                },
                TemplatePart::Bucket => out.push_str(digits.format(self.bucket_base + bucket)),
                TemplatePart::Shard => {
                    let shard = match self.shard_by {
                        Some((e, n)) => ids
                            .get(e)
                            .map_or(0, |&id| shard_of(&self.instance_name(e, id), n)),
                        None => shard.unwrap_or(0),
                    };
                    out.push_str(digits.format(shard));
                }
                TemplatePart::Time => out.push_str("<time>"),
                TemplatePart::Id => out.push_str("<id>"),
            }
        }
    }
}

/// One sub-request a request turns into: which shard and which bucket (offset
/// back from the current one), and how many of them per request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SubKey {
    /// Shard suffix, when the table is sharded.
    pub shard: Option<u32>,
    /// Buckets back from the current bucket (0 = current).
    pub bucket_back: u32,
    /// Sub-requests this sub-key receives per request (1/N for a write spread
    /// over N shards; 1 for each of N fan-out queries).
    pub weight: f64,
}

/// One access pattern's requests on its table.
#[derive(Debug)]
pub struct Stream {
    /// Index of the access pattern.
    pub pattern: usize,
    /// Pattern name.
    pub name: String,
    /// Whether it consumes write capacity.
    pub is_write: bool,
    /// Busy-period requests per second (rate × peak factor).
    pub busy_rate_per_s: f64,
    /// Mean requests per second (growth).
    pub mean_rate_per_s: f64,
    /// Index into `KeySpace::entities` of the entity whose popularity picks the key;
    /// `None`: uniform over all logical keys.
    pub driver: Option<usize>,
    /// Shares by rank: of the driver's instances, or of all logical keys
    /// when no driver; `new` (fresh) when every request lands on a key of
    /// its own, placed by Poisson splitting. A ranged store's inserts into
    /// `{customer}#{time}` keep the customer's shares: fresh keys, placed by
    /// their prefix ([`Stream::fresh_keys`] says which keys are fresh).
    pub shares: RankShares,
    /// Whether every request makes a fresh key (`{id}`, `{time}` or a `new`
    /// entity in the key): each write stores a new item, not one more in its
    /// key's collection, and no key is read twice.
    pub fresh_keys: bool,
    /// The key's other entities: their combinations per driver instance and
    /// the share of its requests each takes (each entity by its own popularity).
    pub combos: Combos,
    /// Sub-keys per logical key.
    pub subkeys: Vec<SubKey>,
    /// Units per sub-request.
    pub severity: Severity,
    /// Whether the driver's ranks follow recency (`latest`): on a ranged store
    /// the hottest instances are the newest, at the end of the key space.
    pub recency_ordered: bool,
    /// Whether each request reaches every node rather than its key's
    /// partition (the store model's `broadcast`: MongoDB scatter-gather).
    pub broadcast: bool,
    /// Whether it is a `query` (a range read): over a monotonic key on a
    /// ranged store it reads the newest range, where the inserts go.
    pub is_query: bool,
    /// `shares.share(r)` of the ranks placed one by one in every trial
    /// (the head and the single draws), computed on first use.
    pub rank_share_cache: Memo<std::sync::OnceLock<std::sync::Arc<[f64]>>>,
    /// (partitions, limited nodes or 0, ranks placed one by one after the
    /// head) as first computed (by placement's `single_draw_ranks`).
    pub single_draws_cache: Memo<std::sync::OnceLock<(usize, usize, u64)>>,
    /// `shares.moments(a, b)` of the rank ranges placed as spread mass, kept
    /// as first computed ((a, b), (Σ share, Σ share²)): every trial places
    /// the same tail.
    pub moments_cache: Memo<std::sync::Mutex<Vec<RangeMoments>>>,
}

/// A value computed from the rest of its struct on first use: left out of
/// `Debug`, which then shows only what the struct is (and so compares
/// plans for sharing, `src/engine/reuse.rs`), not what was asked of it so far.
#[derive(Default)]
pub struct Memo<T>(pub T);

impl<T> std::ops::Deref for Memo<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("memo")
    }
}

/// A rank range (a, b) with its (Σ share, Σ share²).
pub type RangeMoments = ((u64, u64), (f64, f64));

/// Rank ranges whose moments a stream keeps ([`Stream::share_moments`]).
const CACHED_MOMENTS: usize = 64;

/// Ranks whose shares a stream keeps ([`Stream::rank_share`]): the head
/// (256) and the single draws (65,536) every trial places one by one
/// (placement checks the sum against its own constants), or more where
/// every trial places more ([`Stream::keep_rank_shares`]).
pub const CACHED_RANKS: u64 = 256 + 65_536;

/// Ranks whose shares a stream keeps at most (64 MiB of them): a whole
/// tail placed one by one has fewer than 64 keys a partition past the
/// single draws, 1,114,368 ranks on Redis Cluster's 16,384 slots and
/// 6,465,792 on Bigtable's 100,000 simulated tablets (a table of 5·10⁶
/// Zipf users recomputed a power per rank per trial past 2²¹: 36% of its
/// run).
pub const MAX_CACHED_RANKS: u64 = 1 << 23;

/// Share tables kept for every stream of the process ([`shared_shares`]),
/// by their popularity's text.
type ShareTables = std::collections::HashMap<String, std::sync::Arc<[f64]>>;
static SHARE_TABLES: std::sync::Mutex<Option<ShareTables>> = std::sync::Mutex::new(None);

/// Most ranks [`SHARE_TABLES`] holds in all (128 MiB); past it, it starts
/// afresh (the streams keep the tables they hold).
const SHARED_RANKS: usize = 1 << 24;

/// `shares.share(r)` for ranks 1 to at least `n`: one table for every
/// stream over the same popularity (a table's writes and reads by user,
/// each checkpoint's and variant's plan), computed once per process — the
/// same values each stream would compute.
fn shared_shares(shares: &RankShares, n: u64) -> std::sync::Arc<[f64]> {
    let key = format!("{shares:?}");
    let mut guard = SHARE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let map = guard.get_or_insert_with(Default::default);
    if let Some(t) = map.get(&key).filter(|t| t.len() as u64 >= n) {
        return t.clone();
    }
    let table: std::sync::Arc<[f64]> = (1..=n).map(|r| shares.share(r)).collect();
    let held: usize = map.values().map(|t| t.len()).sum();
    if held + table.len() > SHARED_RANKS {
        map.clear();
    }
    map.insert(key, table.clone());
    table
}

impl Stream {
    /// Share of the stream's requests on its busiest logical key: the
    /// hottest driver instance's share × the hottest combination's.
    pub fn hottest_key_share(&self) -> f64 {
        let top = self.shares.share(1);
        if self.combos.uniform {
            top / self.combos.count
        } else {
            top * self.combos.max_share()
        }
    }

    /// `shares.share(r)`, from the stream's cache for the ranks every
    /// trial places one by one (the same value, computed once per plan).
    pub fn rank_share(&self, r: u64) -> f64 {
        if r == 0 || r > MAX_CACHED_RANKS {
            return self.shares.share(r);
        }
        self.keep_rank_shares(CACHED_RANKS)
            .get((r - 1) as usize)
            .copied()
            .unwrap_or_else(|| self.shares.share(r))
    }

    /// The cache of shares, made on first use for ranks 1 to `ranks`
    /// (at least [`CACHED_RANKS`], at most [`MAX_CACHED_RANKS`] and the
    /// stream's count): placement asks first for the ranks each trial
    /// places one by one, so that none recomputes a share (a power) per
    /// key per trial. A later call keeps the first call's ranks.
    pub fn keep_rank_shares(&self, ranks: u64) -> &[f64] {
        self.rank_share_cache.get_or_init(|| {
            let n = self
                .shares
                .count()
                .min(ranks.clamp(CACHED_RANKS, MAX_CACHED_RANKS));
            shared_shares(&self.shares, n)
        })
    }

    /// [`Stream::rank_share`] of ranks `a..=b` (1-based) as one slice of
    /// the cache, when the cache holds them all.
    pub fn rank_shares(&self, a: u64, b: u64) -> Option<&[f64]> {
        if a == 0 || b > MAX_CACHED_RANKS {
            return None;
        }
        self.keep_rank_shares(CACHED_RANKS)
            .get((a - 1) as usize..b as usize)
    }

    /// `shares.moments(a, b)`, from the stream's cache when this range was
    /// asked before (the same value, computed once per plan).
    pub fn share_moments(&self, a: u64, b: u64) -> (f64, f64) {
        let cached = |c: &[RangeMoments]| c.iter().find(|(k, _)| *k == (a, b)).map(|(_, m)| *m);
        if let Some(m) = self.moments_cache.lock().ok().and_then(|c| cached(&c)) {
            return m;
        }
        let m = self.shares.moments(a, b);
        if let Ok(mut c) = self.moments_cache.lock() {
            if c.len() < CACHED_MOMENTS && cached(&c).is_none() {
                c.push(((a, b), m));
            }
        }
        m
    }

    /// Sub-requests per request (the pattern's fan-out): the sub-keys'
    /// weights summed, a whole number where the sum is one within rounding
    /// (a write spread over N shards at 1/N each, or over shards weighted
    /// by an entity's popularity, is one sub-request: summed in floating
    /// point it came to 0.9999999999999999).
    pub fn fan_out(&self) -> f64 {
        let sum: f64 = self.subkeys.iter().map(|s| s.weight).sum();
        let whole = sum.round();
        if whole >= 1.0 && (sum - whole).abs() <= 1e-9 * whole {
            whole
        } else {
            sum
        }
    }
}
