//! Growth of item collections and items over the horizon, and the day each
//! first crosses its ceiling.
//!
//! Each key class (keys with the same write rate: one hot rank, or a band of
//! ranks bounded above by its first rank's rate) grows by a compound Poisson
//! process: items arrive at `a` per day with sizes S, so after τ days the
//! collection holds I + aτ items of mean I·E[S] + aτ·E[S] bytes and variance
//! aτ·E[S²] (+ I·Var[S]). Growth stops at τ = G = min(horizon, bucket width,
//! TTL): a time bucket starts a fresh collection, a TTL expires old items.
//! The largest of a class's n keys is the normal quantile at U^{1/n} (the
//! maximum of n independent keys), so a class of 10⁹ keys costs one uniform
//! per trial. Under a time bucket the keys come a bucket at a time: by day t
//! the n of the ⌈t / bucket⌉ buckets begun, the same U (all of the
//! horizon's keys by its end). Each trial is a growth path that only rises,
//! whose first crossing of the ceiling is the breach day: without growth,
//! distributed as the first of the buckets to cross (each bucket of a key
//! near its ceiling crossing with a small chance, the breach comes on a
//! random later day, not on day 1 with the year's largest bucket); with
//! growth, a little early, since the earlier buckets count at the day's
//! larger rate (5%/month, 20,000 rows a day at day 0 against a 25,000-row
//! ceiling: day 127.7, against 135 with each bucket at its own rate).

use super::stream::{KeySpace, Stream, DAY_S};
use crate::distributions::normal::normal_quantile;
use crate::scenario::{CountDist, Operation, Popularity, Scenario, SizeDist, Table, TemplatePart};
use crate::store::TableLayout;
use rand::Rng;

/// Ranks tracked one by one before doubling bands take over.
const EXACT_RANKS: u64 = 32;
/// Ranks `a..=b` in up to [`BAND_PARTS`] consecutive parts of about equal
/// rank ratio (each at least one rank).
fn band_parts(a: u64, b: u64) -> impl Iterator<Item = (u64, u64)> {
    let ratio = ((b as f64 + 1.0) / a as f64).powf(1.0 / BAND_PARTS as f64);
    let mut start = a;
    (1..=BAND_PARTS).filter_map(move |i| {
        if start > b {
            return None;
        }
        let end = if i == BAND_PARTS {
            b
        } else {
            ((a as f64 * ratio.powi(i as i32)).round() as u64)
                .saturating_sub(1)
                .clamp(start, b)
        };
        let part = (start, end);
        start = end + 1;
        Some(part)
    })
}

/// Points on the day grid of the growth chart.
pub const GRID_POINTS: usize = 121;

/// Stretches of grid days a growth class's busiest key is bounded over
/// ([`GrowthPlan::busiest_key_bound`]): 11 of 11 days.
const GRID_STRETCHES: usize = 11;

/// Keys that grow alike.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthClass {
    /// Keys in the class over the horizon (ranks × other combinations × shards × buckets).
    pub keys: f64,
    /// New items per key per day (net of deletes, ≥ 0).
    pub items_per_day: f64,
    /// Appends per key per day.
    pub appends_per_day: f64,
    /// Writes (puts, updates, appends; × items) per key per day: how soon a
    /// key that starts empty exists (node memory).
    pub writes_per_day: f64,
    /// First and last popularity rank of the class (1-based; 0, 0 when the
    /// class is not ranked: fresh keys or an unwritten table).
    pub ranks: (u64, u64),
    /// Keys per rank (combinations of the other entities × shards).
    pub per_rank: f64,
    /// The class's keys are all fresh (`{id}`, `{time}`, `new`): every write a new key.
    pub fresh: bool,
    /// Index into the key space's entities of the entity whose rank this is.
    pub driver: Option<usize>,
    /// Instances of that entity (or logical keys, without a driver).
    pub rank_count: u64,
    /// Whether the key's other entities share alike, so a rank's keys are
    /// its `per_rank` combinations × shards (else the class is one group of
    /// equal-share combinations).
    pub alike_combos: bool,
    /// (items, appends, writes) per key per day averaged over the class's
    /// ranks: the rates above are its first (busiest) rank's, which bound
    /// its keys' size; summed over the keys (node memory and storage), the
    /// mean is what they hold. The same as the rates for a class of one
    /// rank or of equal shares.
    pub mean_rates: (f64, f64, f64),
    /// A band's ranks in up to [`BAND_PARTS`] geometric parts: (keys,
    /// items per key per day, appends per key per day), each part's mean.
    /// The keys past a collection ceiling the store rejects writes to are
    /// summed over them ([`GrowthPlan::rejected_bytes`]): counting every key
    /// of a band at its busiest rank's rate took a whole band of Cosmos DB
    /// tenants as capped at 20 GB where only its busiest are (a new user's
    /// container: 7.69 TB stored for 8.49 TB). Empty for a class of one
    /// rank or of equal shares.
    pub band: std::sync::Arc<[(f64, f64, f64)]>,
}

/// Most stored time buckets [`GrowthPlan::rejected_bytes`] sums a key's
/// excess over: past it (buckets of minutes over years) none holds a
/// collection near a ceiling.
const MAX_STORED_BUCKETS: u64 = 100_000;

/// Parts a band of ranks is split into for the rejected bytes: a doubling
/// band's parts span ranks in the ratio 2^(1/16) ≈ 1.044.
const BAND_PARTS: u64 = 16;

/// A growth plan's day: what [`GrowthPlan::key_bytes`] takes of it for
/// any class ([`GrowthPlan::on_day`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayBytes {
    /// [`GrowthPlan::stored_days`] of the day.
    tau: f64,
    /// Mean item size plus the store's per-item overhead, bytes.
    item: f64,
    /// Mean appended element size, bytes (0 without appends).
    ee: f64,
    /// Time buckets still stored (1 without buckets).
    n_b: f64,
    /// Items per key at t = 0 (mean).
    init: f64,
    /// The plan's `max_items`.
    max_items: Option<f64>,
}

impl DayBytes {
    /// [`GrowthPlan::key_bytes`] of a key of `rates` (items, appends and
    /// writes per day), fresh-key or not.
    pub fn key_bytes(
        &self,
        fresh: bool,
        (items_per_day, appends_per_day, writes_per_day): (f64, f64, f64),
        key_overhead: f64,
    ) -> f64 {
        let DayBytes {
            tau,
            item,
            ee,
            n_b,
            init,
            max_items,
        } = *self;
        if fresh {
            return writes_per_day * tau * (item + key_overhead);
        }
        let q = 1.0 - (1.0 - init.min(1.0)) * (-writes_per_day * tau / n_b).exp();
        let alive = n_b * q;
        let items = if max_items == Some(1.0) {
            alive
        } else {
            let mut n = (init + items_per_day * tau).max(alive);
            if let Some(m) = max_items {
                n = n.min(m.max(init) * n_b);
            }
            n
        };
        items * item + appends_per_day * tau * ee + alive * key_overhead
    }

    /// [`GrowthPlan::mean_key_bytes`] on this day.
    pub fn mean_key_bytes(&self, c: &GrowthClass, key_overhead: f64) -> f64 {
        self.key_bytes(c.fresh, c.mean_rates, key_overhead)
    }
}

/// Growth of one table.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthPlan {
    /// Key classes.
    pub classes: Vec<GrowthClass>,
    /// Item size distribution.
    pub item_size: SizeDist,
    /// Appended element size distribution (when the table has appends).
    pub element_size: Option<SizeDist>,
    /// Items per key at t = 0.
    pub initial_items: CountDist,
    /// Day-0 items per write a day of one key, where the day-0 items
    /// spread over the keys as their writes do rather than evenly: a
    /// global index's entries, whose count per index key is the table's
    /// items carrying that key value (a title taking 31% of the writes
    /// holds 31% of the entries, not 1/20 of them;
    /// [`GrowthPlan::spread_initial_by_writes`]). The busiest key of each
    /// class then starts with its writes' share of all the day-0 items; the
    /// totals stay. `None`: evenly (`initial_items` per key).
    pub initial_per_write: Option<f64>,
    /// Items a collection can hold at most (overwriting puts), `None` = unbounded.
    pub max_items: Option<f64>,
    /// Items every written key holds at least (1 when the table is written, else 0).
    pub min_items: f64,
    /// Days a collection grows before a bucket or TTL resets it.
    pub growth_days: f64,
    /// Horizon, days.
    pub horizon_days: f64,
    /// Traffic growth, continuous rate per day.
    pub growth_per_day: f64,
    /// Items written per day over the whole table.
    pub items_written_per_day: f64,
    /// Item-collection ceiling, bytes.
    pub collection_limit: Option<f64>,
    /// Rows (items) one item collection may hold, if the store limits them.
    pub rows_limit: Option<f64>,
    /// Bytes the store adds to every stored item in its item collection:
    /// its per-item overhead and its local index entries.
    pub overhead_bytes: f64,
    /// Of those, the local index entries: they count in the item
    /// collection, not in the item (its own ceiling).
    pub local_index_bytes: f64,
    /// Item ceiling, bytes.
    pub item_limit: Option<f64>,
    /// Items put per day over the whole table, net of deletes (an
    /// overwriting put counts too: [`table_bytes`](Self::table_bytes) caps
    /// items at `max_items` per distinct key).
    pub net_items_per_day: f64,
    /// Appends per day over the whole table.
    pub appends_per_day: f64,
    /// Distinct partition-key values (with shards) at any one time;
    /// `f64::INFINITY` when every write makes a fresh key.
    pub distinct_keys: f64,
    /// Time-bucket width, days.
    pub bucket_days: Option<f64>,
    /// Count bucket (`bucket = { items = N }`): an item collection holds at
    /// most N items, a new partition key taking the next N.
    pub bucket_items: Option<f64>,
    /// Item time-to-live, days.
    pub ttl_days: Option<f64>,
    /// Write shards per logical key.
    pub shards: u32,
    /// Whether the shard is picked by an entity of the key (`shard_by`):
    /// more shards then spread no key's writes (no shard advice).
    pub shard_by_in_key: bool,
    /// A global index's base table ([`GrowthPlan::index_of`]): the index
    /// holds at most one entry per item the table stores.
    pub base_table: Option<Box<GrowthPlan>>,
    /// Whether writes past `collection_limit` are rejected (stored data
    /// stops at the ceiling) rather than stored.
    pub collection_limit_rejects_writes: bool,
    /// Whether the store rejects a write that takes an item past
    /// `item_limit` ([`StoreModel::item_limit_rejects_writes`]): an
    /// appended item then stops at the ceiling, and its item collection
    /// holds no more of it (MongoDB's 16 MiB document in a 128 MiB chunk).
    ///
    /// [`StoreModel::item_limit_rejects_writes`]: crate::store::StoreModel::item_limit_rejects_writes
    pub item_limit_rejects_writes: bool,
}

/// One trial's growth outcome (empty by default: that of a busy period
/// that does not draw its growth, a later checkpoint's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GrowthTrial {
    /// Largest item collection on each grid day, bytes.
    pub collection_by_day: Vec<f64>,
    /// Largest item on each grid day, bytes.
    pub item_by_day: Vec<f64>,
    /// Day the largest collection first reaches its ceiling.
    pub size_breach_day: Option<f64>,
    /// Day an item first reaches the item ceiling.
    pub item_breach_day: Option<f64>,
    /// Day the busiest item collection first holds more rows than the store's row limit.
    pub rows_breach_day: Option<f64>,
    /// Most rows an item collection reaches within the horizon.
    pub max_rows: f64,
    /// Largest item collection reached within the horizon, bytes.
    pub max_collection_bytes: f64,
    /// Largest item reached within the horizon, bytes.
    pub max_item_bytes: f64,
}

impl GrowthPlan {
    /// Builds the growth classes of `table` from its write streams (mean rates).
    pub fn new(
        scenario: &Scenario,
        table: &Table,
        keys: &KeySpace,
        streams: &[Stream],
        layout: &TableLayout,
        store: &dyn crate::store::StoreModel,
    ) -> GrowthPlan {
        let horizon = scenario.simulation.horizon_days;
        let bucket_days = table.bucket_s.map(|b| b / DAY_S);
        // An item stays stored past its ttl while the store keeps it
        // (Cassandra's tombstones, until gc_grace_seconds).
        let ttl_days = crate::store::stored_for_s(table, store).map(|t| t / DAY_S);
        let growth_days = horizon
            .min(bucket_days.unwrap_or(f64::INFINITY))
            .min(ttl_days.unwrap_or(f64::INFINITY));
        let (adds_items, max_items) = sort_key_growth(table, scenario);
        // Keys per logical key, and the inverse of the busiest one's share of
        // its writes: the shards, or under `shard_by` one key of the entity
        // (in the key) or 1 ÷ the busiest shard's share (outside it).
        let shards = match table.shard_by {
            None => f64::from(table.shards.max(1)),
            Some(_) => {
                let busiest = streams
                    .iter()
                    .filter(|s| s.is_write)
                    .flat_map(|s| s.subkeys.iter().map(|k| k.weight))
                    .fold(0.0, f64::max);
                if busiest > 0.0 {
                    (1.0 / busiest).max(1.0)
                } else {
                    1.0
                }
            }
        };
        let builder = ClassBuilder {
            scenario,
            shards,
            buckets_over_horizon: bucket_days.map_or(1.0, |b| (horizon / b).ceil().max(1.0)),
            adds_items,
        };
        let totals = WriteTotals::of(scenario, streams);
        let classes = builder.classes(keys, streams);
        let element_size = scenario
            .access_patterns
            .iter()
            .filter(|p| p.operation == Operation::Append)
            .find(|p| std::ptr::eq(&scenario.tables[p.table], table))
            .and_then(|p| p.element_size.clone());
        let min_items = if streams.iter().any(|s| s.is_write) {
            1.0
        } else {
            0.0
        };
        let distinct_keys = if keys.fresh {
            f64::INFINITY
        } else {
            keys.cardinality() * builder.shards
        };
        let local_index = local_index_bytes(scenario, table, streams, store);
        GrowthPlan {
            net_items_per_day: totals.net_items_per_day,
            appends_per_day: totals.appends_per_day,
            distinct_keys,
            bucket_days,
            bucket_items: table.bucket_items,
            ttl_days,
            min_items,
            classes,
            item_size: table.item_size.clone(),
            element_size,
            initial_items: table.initial_items.clone(),
            initial_per_write: None,
            max_items,
            growth_days,
            horizon_days: horizon,
            growth_per_day: scenario.simulation.growth_per_day,
            items_written_per_day: totals.items_written_per_day,
            collection_limit: layout.item_collection_limit_bytes,
            rows_limit: store.partition_rows_limit(),
            collection_limit_rejects_writes: store.collection_limit_rejects_writes(),
            item_limit_rejects_writes: store.item_limit_rejects_writes(),
            overhead_bytes: store.row_overhead_bytes() + local_index,
            local_index_bytes: local_index,
            item_limit: layout.item_size_limit_bytes,
            base_table: None,
            shard_by_in_key: table
                .shard_by
                .as_ref()
                .is_some_and(|e| keys.entities.iter().any(|(n, _)| n == e)),
            shards: if table.shard_by.is_some() {
                // In [1, MAX_SHARDS]: 1 ÷ a share of at least 1/shards.
                shards.round().max(1.0) as u32
            } else {
                table.shards.max(1)
            },
        }
    }

    /// The busiest key's items by `day` (initial items + items added) and
    /// the items it adds per day (at day-0 rates): what its count buckets
    /// hold, for a query reading them.
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// let g = GrowthPlan::example_for_docs();
    /// // No classes: the 2 initial items, adding none.
    /// assert_eq!(g.busiest_items(30.0), (2.0, 0.0));
    /// ```
    pub fn busiest_items(&self, day: f64) -> (f64, f64) {
        let tau = self.stored_days(day);
        let init = self.initial_items.mean().max(0.0);
        self.classes
            .iter()
            .filter(|c| !c.fresh)
            .map(|c| (init + c.items_per_day * tau, c.items_per_day))
            .fold((init, 0.0), |a, b| if b.0 > a.0 { b } else { a })
    }

    /// Days of day-0 traffic whose writes are still stored at day `t`: ∫ e^{r·s} ds
    /// over the last TTL before `t` (from 0 without a TTL). Old time buckets
    /// stay stored, so unlike [`GrowthPlan::effective_days`] a bucket does not
    /// reset it.
    pub fn stored_days(&self, t: f64) -> f64 {
        let t = t.max(0.0);
        let start = self.ttl_days.map_or(0.0, |d| (t - d).max(0.0));
        self.traffic_days(start, t)
    }

    /// Mean bytes one key of class `c` holds at day `t`, `key_overhead` bytes
    /// per stored key included (node memory):
    /// - keys alive: `n_b · q`, with `n_b` = time buckets still stored
    ///   (⌈min(t, TTL) ÷ bucket⌉, 1 without buckets) and `q` = 1 when the key
    ///   starts with items, else 1 − e^{−w·τ/n_b}, the chance a bucket's key
    ///   was written at least once (`w` writes/day, τ = [`GrowthPlan::stored_days`]);
    /// - items: initial + items added over τ (collections), at least one per
    ///   live key, at most the sort key's bound per bucket; overwritten keys
    ///   hold one item per live key;
    /// - bytes: items × (mean item size + the store's per-item overhead) +
    ///   appended elements + live keys × `key_overhead`.
    ///
    /// A fresh-key class (every write a new key) returns the bytes of all the
    /// keys it wrote over τ.
    pub fn key_bytes(&self, c: &GrowthClass, t: f64, key_overhead: f64) -> f64 {
        let rates = (c.items_per_day, c.appends_per_day, c.writes_per_day);
        self.on_day(t).key_bytes(c.fresh, rates, key_overhead)
    }

    /// [`GrowthPlan::key_bytes`] of a mean key of class `c` (its
    /// `mean_rates`): what its keys hold, summed, is its keys × this.
    pub fn mean_key_bytes(&self, c: &GrowthClass, t: f64, key_overhead: f64) -> f64 {
        self.on_day(t).mean_key_bytes(c, key_overhead)
    }

    /// What [`GrowthPlan::key_bytes`] takes of day `t` whatever the class,
    /// worked out once: cluster memory sizes every class on 170 days of
    /// every trial (a Redis design's classes: a quarter of its run).
    pub fn on_day(&self, t: f64) -> DayBytes {
        let tau = self.stored_days(t);
        let alive_days = self.ttl_days.map_or(t, |d| t.min(d)).max(0.0);
        DayBytes {
            tau,
            item: self.item_size.mean() + self.overhead_bytes,
            ee: self.element_size.as_ref().map_or(0.0, SizeDist::mean),
            n_b: self
                .bucket_days
                .filter(|b| *b > 0.0)
                .map_or(1.0, |b| (alive_days / b).ceil().max(1.0)),
            init: self.initial_items.mean().max(0.0),
            max_items: self.max_items,
        }
    }

    /// Time buckets begun over the horizon (1 without a time bucket): the
    /// factor a class's keys carry (`ClassBuilder::buckets_over_horizon`).
    fn buckets_over_horizon(&self) -> f64 {
        self.bucket_days
            .map_or(1.0, |b| (self.horizon_days / b).ceil().max(1.0))
    }

    /// ∫₀ᴴ e^{r·s} ds: days of day-0 traffic over the whole horizon.
    fn effective_days_total(&self) -> f64 {
        self.traffic_days(0.0, self.horizon_days)
    }

    /// ∫ₐᵉ e^{r·s} ds: days of day-0 traffic written from day `a` to day
    /// `e` (0 where `e` ≤ `a`).
    fn traffic_days(&self, a: f64, e: f64) -> f64 {
        let r = self.growth_per_day;
        if e <= a {
            0.0
        } else if r.abs() < 1e-12 {
            e - a
        } else {
            ((r * e).exp() - (r * a).exp()) / r
        }
    }

    /// [`GrowthPlan::traffic_days`] of bucket `k` (b days wide, aligned on
    /// day 0) still stored on day `d`: its writes from `from` (the TTL's
    /// reach) to `d`.
    fn bucket_traffic_days(&self, k: f64, b: f64, from: f64, d: f64) -> f64 {
        self.traffic_days((k * b).max(from), ((k + 1.0) * b).min(d))
    }

    /// The widest time bucket and the fewest write shards that keep every
    /// size and count check passing: the p95 over trials of the busiest key's
    /// item collection (stored bytes with the store's per-item overhead) at
    /// or under `headroom` × its ceiling, its rows at or under `headroom` ×
    /// the row warning, and (for the item bucket) its appended item under
    /// `headroom` × the item ceiling — the verdicts' criteria, by the
    /// simulation's own formula ([`GrowthPlan::busiest_key`]) at the p95 of the
    /// maximum over the keys (which a narrower bucket or more shards make
    /// more numerous), in the horizon's busiest bucket: its last where
    /// traffic grows, its first where it declines.
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// let g = GrowthPlan::example_for_docs();
    /// let a = g.advice(0.8);
    /// // No ceiling in the example: nothing to advise.
    /// assert_eq!(a.bucket_days, None);
    /// ```
    pub fn advice(&self, headroom: f64) -> Advice {
        let sizes = self.sizes();
        let mut out = Advice::default();
        let collection_limits = self.collection_limit.is_some() || self.rows_limit.is_some();
        let grows = self
            .classes
            .iter()
            .any(|c| c.items_per_day > 0.0 || c.appends_per_day > 0.0);
        if !grows {
            return out;
        }
        if collection_limits {
            let over =
                |bucket: f64, spread: f64| self.collection_over(&sizes, headroom, bucket, spread);
            let b = widest(self.horizon_days, |b| over(b, 1.0).is_none());
            // A bucket as wide as the horizon is no bucket: none is needed.
            if b < self.horizon_days {
                out.bucket_days = Some(b);
                out.bucket_binds = over(b * 1.001 + 1e-9, 1.0);
            }
            // Write shards split the busiest collection (at the table's own bucket).
            let g = self.growth_days;
            if over(g, 1.0).is_some() && !self.shard_by_in_key {
                let shards = self.shards.max(1);
                out.shards = (2..=MAX_ADVISED_SHARDS / shards)
                    .find(|&k| over(g, f64::from(k)).is_none())
                    .map(|k| k * shards);
            }
        }
        if let Some(limit) = self.item_limit {
            let appends = self.classes.iter().any(|c| c.appends_per_day > 0.0);
            if appends {
                let ok = |bucket: f64| {
                    self.classes.iter().all(|c| {
                        let (z, init, tau) = self.p95_busiest(c, bucket, 1.0);
                        self.busiest_key(&sizes, c, tau, z, init, 1.0).item_bytes
                            <= headroom * limit
                    })
                };
                let b = widest(self.horizon_days, ok);
                out.item_bucket_days = (b < self.horizon_days).then_some(b);
            }
        }
        out
    }

    /// The first check the busiest item collection fails with a `bucket`-day
    /// time bucket and its writes spread over `spread` × the keys, at the
    /// p95 over trials (`None` when both pass).
    fn collection_over(
        &self,
        sizes: &Sizes,
        headroom: f64,
        bucket: f64,
        spread: f64,
    ) -> Option<&'static str> {
        for c in &self.classes {
            let (z, init, tau) = self.p95_busiest(c, bucket, spread);
            let k = self.busiest_key(sizes, c, tau, z, init, spread);
            if self
                .collection_limit
                .is_some_and(|l| k.collection_bytes > headroom * l)
            {
                return Some("size");
            }
            if self.rows_limit.is_some_and(|l| k.rows > headroom * l) {
                return Some("rows");
            }
        }
        None
    }

    /// For class `c` with a `bucket`-day time bucket (within the TTL and
    /// the horizon) and its writes over `spread` × the keys: the p95 over
    /// trials of the busiest key's normal quantile (the maximum over the
    /// class's keys), its initial items at that quantile, and the effective
    /// days of the horizon's busiest bucket (its last under growth, its
    /// first where traffic declines).
    fn p95_busiest(&self, c: &GrowthClass, bucket: f64, spread: f64) -> (f64, f64, f64) {
        let h = self.horizon_days;
        let g = bucket
            .min(h)
            .min(self.ttl_days.unwrap_or(f64::INFINITY))
            .max(0.0);
        // Keys over the horizon: this bucket's instead of the table's own.
        let own_buckets = self.buckets_over_horizon();
        let buckets = if g > 0.0 {
            (h / g).ceil().max(1.0)
        } else {
            1.0
        };
        let keys = (c.keys / own_buckets * buckets * spread).max(1.0);
        let z = max_of_normals(keys, 0.95);
        let init = self.initial_of(c, upper_tail_of_max(keys, 0.95));
        // The busiest bucket: the horizon's last while traffic grows, its
        // first while it declines (∫ e^{r·s} ds over g days is largest at
        // the end where e^{r·s} is).
        let tau = if self.growth_per_day.abs() < 1e-12 {
            g
        } else {
            let last = self.traffic_days(h - g, h);
            last.max(self.traffic_days(0.0, g))
        };
        (z, init, tau)
    }

    /// Days of day-0 traffic (∫ e^{r·s} ds) the largest item collection
    /// stored at day `t` received: without a time bucket, the last
    /// `growth_days` before `t` (= min(t, G) without growth); with one, the
    /// largest of the buckets still stored, each aligned on day 0 (bucket j
    /// holds the writes of [j·b, (j + 1)·b) not yet past the TTL): under
    /// growth the current bucket or the last one completed, under decline
    /// the oldest stored. A window of b days sliding to `t` would hold more
    /// than any bucket does: 30-day buckets written at 5%/month reach 20 GB
    /// on day 59.1 (the second bucket), where such a window did on day 39.9.
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// let mut g = GrowthPlan::example_for_docs();
    /// g.bucket_days = Some(30.0);
    /// g.growth_days = 30.0;
    /// g.growth_per_day = 0.05f64.ln_1p() / 30.0;
    /// let days = |a: f64, e: f64| ((g.growth_per_day * e).exp() - (g.growth_per_day * a).exp()) / g.growth_per_day;
    /// // Day 40: the first bucket, complete (30.74 days), not days 10 to 40.
    /// assert!((g.effective_days(40.0) - days(0.0, 30.0)).abs() < 1e-9);
    /// // Day 59: the second bucket's 29 days have passed the first's 30.
    /// assert!((g.effective_days(59.0) - days(30.0, 59.0)).abs() < 1e-9);
    /// ```
    pub fn effective_days(&self, t: f64) -> f64 {
        let t = t.max(0.0);
        let Some(b) = self.bucket_days.filter(|b| b.is_finite() && *b > 0.0) else {
            return self.traffic_days((t - self.growth_days).max(0.0), t);
        };
        let from = self.ttl_days.map_or(0.0, |l| (t - l).max(0.0));
        let (current, oldest) = ((t / b).floor(), (from / b).floor());
        [current, current - 1.0, oldest, oldest + 1.0]
            .into_iter()
            .filter(|&j| j >= oldest && j <= current)
            .map(|j| self.bucket_traffic_days(j, b, from, t))
            .fold(0.0, f64::max)
    }

    /// Expected bytes the whole table stores on `day` (0 = t = 0): the
    /// initial items, plus the items added since (puts net of deletes, at the
    /// grown traffic rate) that have not expired under the TTL, plus appended
    /// elements; overwriting puts (no item-adding sort key) hold at most
    /// [`max_items`](Self::max_items) items per distinct key and bucket.
    /// Each item counts its mean size plus the store's per-item overhead.
    ///
    /// Store layouts size partitions from this (DynamoDB's 10 GB per
    /// partition, Cosmos DB's 50 GB physical partitions, MongoDB's chunks),
    /// so partition counts grow with the data over the horizon.
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// # let g = GrowthPlan::example_for_docs();
    /// // 1,000 keys × 2 initial items × 500 B, plus 10,000 puts/day × 500 B for 30 days.
    /// assert_eq!(g.table_bytes(0.0), 1_000_000.0);
    /// assert_eq!(g.table_bytes(30.0), 1_000_000.0 + 150_000_000.0);
    /// ```
    pub fn table_bytes(&self, day: f64) -> f64 {
        let es = self.item_size.mean() + self.overhead_bytes;
        let ee = self.element_size.as_ref().map_or(0.0, SizeDist::mean);
        let (items, tau) = self.stored_items(day);
        items * es + self.appends_per_day * tau * ee - self.rejected_bytes(day, tau, es, ee)
    }

    /// Expected items the whole table stores on `day` (as
    /// [`table_bytes`](Self::table_bytes) counts them).
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// # let g = GrowthPlan::example_for_docs();
    /// // 1,000 keys × 2 initial items, plus 10,000 puts a day for 30 days.
    /// assert_eq!(g.table_items(30.0), 2_000.0 + 300_000.0);
    /// ```
    pub fn table_items(&self, day: f64) -> f64 {
        self.stored_items(day).0
    }

    /// (items stored on `day`, effective days of the writes still stored).
    fn stored_items(&self, day: f64) -> (f64, f64) {
        let (items, tau) = self.own_stored_items(day);
        match self.base_items(day) {
            Some(base) => (items.min(base), tau),
            None => (items, tau),
        }
    }

    /// Items its own writes store on `day` (a global index's before its
    /// table's items bound them).
    fn own_items(&self, day: f64) -> f64 {
        self.own_stored_items(day).0
    }

    /// [`GrowthPlan::stored_items`] without the bound of a global index's
    /// table.
    fn own_stored_items(&self, day: f64) -> (f64, f64) {
        let d = day.max(0.0);
        // Writes still stored on day d: those of the last TTL (all without one).
        let tau = self.stored_days(d);
        let finite_keys = if self.distinct_keys.is_finite() {
            self.distinct_keys
        } else {
            0.0
        };
        let initial = if self.ttl_days.is_none_or(|l| d < l) {
            finite_keys * self.initial_items.mean()
        } else {
            0.0
        };
        let mut items = initial + (self.net_items_per_day * tau).max(0.0);
        if let Some(m) = self.max_items {
            if self.distinct_keys.is_finite() {
                let buckets = self.bucket_days.map_or(1.0, |b| (d / b).ceil().max(1.0));
                let cap = self.distinct_keys * buckets * m.max(self.initial_items.mean());
                items = items.min(cap).max(initial.min(cap));
            }
        }
        (items, tau)
    }

    /// Mean bytes appends have grown a key's item by on `day`, over the
    /// items appends touch (each key's weighted by its appends: a read of
    /// the same popularity reads them as often), up to the item ceiling's
    /// room where the store rejects the writes past it; 0 without appends,
    /// or where a key holds more than one item (which one an append grows
    /// is not known). DynamoDB charges an UpdateItem on the larger of the
    /// item's sizes before and after, and a GetItem on the whole item
    /// (Developer Guide, "Read/write capacity mode"): helper-88's ticket
    /// items, appended to 400 KB within a month, still cost 2 WCU an
    /// append and 0.5 RCU a read on day 365, where they cost 401 and 50.
    ///
    /// ```
    /// # use keyheat::engine::growth::GrowthPlan;
    /// # let g = GrowthPlan::example_for_docs();
    /// // No appends: nothing grows.
    /// assert_eq!(g.appended_item_bytes(30.0), 0.0);
    /// ```
    pub fn appended_item_bytes(&self, day: f64) -> f64 {
        let ee = self.element_size.as_ref().map_or(0.0, SizeDist::mean);
        if ee <= 0.0 || self.max_items != Some(1.0) || day <= 0.0 {
            return 0.0;
        }
        let room = self.item_room(&self.sizes()).unwrap_or(f64::INFINITY);
        let tau = self.effective_days(day);
        let (mut weight, mut bytes) = (0.0f64, 0.0f64);
        for c in self.classes.iter().filter(|c| c.keys.is_finite()) {
            let mut add = |keys: f64, appends_per_day: f64| {
                let w = keys * appends_per_day.max(0.0);
                weight += w;
                bytes += w * (appends_per_day * tau * ee).clamp(0.0, room);
            };
            if c.band.is_empty() {
                add(c.keys, c.appends_per_day);
            } else {
                for &(k, _, a) in c.band.iter() {
                    add(k, a);
                }
            }
        }
        if weight > 0.0 {
            bytes / weight
        } else {
            0.0
        }
    }

    /// Bytes an item of sizes `s` may grow by under the item ceiling, where
    /// the store rejects a write past it (none where it does not, or
    /// without a ceiling).
    fn item_room(&self, s: &Sizes) -> Option<f64> {
        self.item_limit
            .filter(|_| self.item_limit_rejects_writes)
            .map(|limit| (limit - s.item_es).max(0.0))
    }

    /// A global index's base table's items on `day` ([`GrowthPlan::index_of`]).
    fn base_items(&self, day: f64) -> Option<f64> {
        self.base_table.as_ref().map(|b| b.stored_items(day).0)
    }

    /// The same plan as a global index of the table `base` grows as: an
    /// index entry is a base item's (DynamoDB writes a put that replaces
    /// an item as the old entry's delete and the new one's put, Firestore
    /// re-indexes the replaced document), so the index stores no more
    /// entries than the table does items. A new user's Firestore posts,
    /// one document per post, put at 60/s over existing posts, had a
    /// createdAt index of 2.7 billion entries (483 GB) for 2 million posts.
    pub fn index_of(mut self, base: &GrowthPlan) -> GrowthPlan {
        self.base_table = Some(Box::new(base.clone()));
        self
    }

    /// Bytes the key classes would hold past the item-collection ceiling,
    /// or past the item ceiling in their appended items, on `day` (`tau`
    /// effective days of writes stored), where the store rejects those
    /// writes (mean growth per key). Without a bucket a key is one
    /// collection; with a time bucket each of its stored buckets is one,
    /// rejecting its own excess (a new user's Cosmos DB tenants in 7-day
    /// buckets of up to 92 GB were stored whole: 18.2 TB for 15.9). A
    /// key's appends grow one item, which stops at the item ceiling (a new
    /// user's Firestore posts, appended past 1 MiB, were stored whole: 582
    /// GB for 196). A count bucket bounds each collection's items already.
    fn rejected_bytes(&self, day: f64, tau: f64, es: f64, ee: f64) -> f64 {
        let limit = self
            .collection_limit
            .filter(|_| self.collection_limit_rejects_writes);
        // The appended item's room under the item ceiling.
        let room = self.item_room(&self.sizes()).filter(|_| ee > 0.0);
        if (limit.is_none() && room.is_none()) || self.bucket_items.is_some() {
            return 0.0;
        }
        let init = self.initial_items.mean();
        // One collection's rejected bytes: its appended item's past the
        // item ceiling, then its own past the collection's.
        let rejected = |items: f64, days: f64, appends_per_day: f64| {
            let items = self.max_items.map_or(items, |m| items.min(m.max(init)));
            let appended = appends_per_day * days * ee;
            let kept = room.map_or(appended, |r| appended.min(r));
            let over = limit.map_or(0.0, |l| (items * es + kept - l).max(0.0));
            (appended - kept) + over
        };
        let excess: Box<dyn Fn(f64, f64, f64) -> f64 + '_> = match self.bucket_days {
            None => Box::new(|keys: f64, items_per_day: f64, appends_per_day: f64| {
                keys * rejected(init + items_per_day * tau, tau, appends_per_day)
            }),
            Some(b) => {
                let spans = self.stored_bucket_spans(day, b);
                // A class's keys count every bucket begun over the horizon;
                // each entity key's stored buckets are summed here.
                let per_key = self.buckets_over_horizon();
                // Thousands of stored buckets (hourly ones over a year) for
                // every class on every grid day: where even the longest
                // bucket, holding the initial items too, rejects nothing,
                // every term is +0 (what is rejected grows with a bucket's
                // days and items when no figure is negative).
                let longest = spans.iter().map(|s| s.0).fold(0.0, f64::max);
                Box::new(move |keys: f64, items_per_day: f64, appends_per_day: f64| {
                    let growing = [items_per_day, appends_per_day, es, ee, init]
                        .iter()
                        .all(|&x| x >= 0.0);
                    if growing
                        && !spans.is_empty()
                        && rejected(init + items_per_day * longest, longest, appends_per_day) <= 0.0
                    {
                        return keys / per_key * 0.0;
                    }
                    let over: f64 = spans
                        .iter()
                        .map(|&(days, first)| {
                            let items = if first { init } else { 0.0 } + items_per_day * days;
                            rejected(items, days, appends_per_day)
                        })
                        .sum();
                    keys / per_key * over
                })
            }
        };
        self.classes
            .iter()
            .filter(|c| c.keys.is_finite() && c.keys < f64::MAX)
            .map(|c| {
                if c.band.is_empty() {
                    excess(c.keys, c.items_per_day, c.appends_per_day)
                } else {
                    c.band.iter().map(|&(k, i, a)| excess(k, i, a)).sum()
                }
            })
            .sum()
    }

    /// The time buckets of width `b` days still stored on `day`: each one's
    /// effective days of writes (∫ e^{r·s} ds over its stored part) and
    /// whether it is the first bucket (the one holding the initial items).
    /// None past [`MAX_STORED_BUCKETS`] buckets (a bucket so narrow holds
    /// no collection near a ceiling).
    fn stored_bucket_spans(&self, day: f64, b: f64) -> Vec<(f64, bool)> {
        let d = day.max(0.0);
        let from = self.ttl_days.map_or(0.0, |l| (d - l).max(0.0));
        if b.is_nan() || b <= 0.0 || d <= from {
            return Vec::new();
        }
        let first = (from / b).floor() as u64;
        let last = (d / b).ceil().max(1.0) as u64;
        if last - first > MAX_STORED_BUCKETS {
            return Vec::new();
        }
        (first..last)
            .map(|k| {
                let days = self.bucket_traffic_days(k as f64, b, from, d);
                (days, k == 0 && from == 0.0)
            })
            .collect()
    }

    /// The same plan with every write rate × `factor` (a checkpoint's plan,
    /// built from rates grown to its day, back to day-0 rates).
    pub fn with_rates_scaled(mut self, factor: f64) -> GrowthPlan {
        if factor == 1.0 {
            return self;
        }
        for c in &mut self.classes {
            c.items_per_day *= factor;
            c.appends_per_day *= factor;
            c.writes_per_day *= factor;
            let (items, appends, writes) = c.mean_rates;
            c.mean_rates = (items * factor, appends * factor, writes * factor);
            c.band = c
                .band
                .iter()
                .map(|&(k, i, a)| (k, i * factor, a * factor))
                .collect();
        }
        self.items_written_per_day *= factor;
        self.net_items_per_day *= factor;
        self.appends_per_day *= factor;
        self
    }

    /// A small plan for documentation examples: 1,000 keys of 2 initial
    /// 500 B items, 10,000 item-adding puts a day, no TTL, bucket or growth.
    #[doc(hidden)]
    pub fn example_for_docs() -> GrowthPlan {
        GrowthPlan {
            classes: Vec::new(),
            item_size: SizeDist::Fixed(500.0),
            element_size: None,
            initial_items: CountDist::Fixed(2.0),
            initial_per_write: None,
            max_items: None,
            min_items: 1.0,
            growth_days: 365.0,
            horizon_days: 365.0,
            growth_per_day: 0.0,
            items_written_per_day: 10_000.0,
            collection_limit: None,
            rows_limit: None,
            overhead_bytes: 0.0,
            local_index_bytes: 0.0,
            item_limit: None,
            net_items_per_day: 10_000.0,
            appends_per_day: 0.0,
            distinct_keys: 1000.0,
            bucket_days: None,
            bucket_items: None,
            ttl_days: None,
            shards: 1,
            shard_by_in_key: false,
            base_table: None,
            collection_limit_rejects_writes: false,
            item_limit_rejects_writes: false,
        }
    }

    /// Days on the chart grid: [`GRID_POINTS`] evenly spaced over the horizon.
    pub fn grid(&self) -> Vec<f64> {
        (0..GRID_POINTS)
            .map(|i| self.horizon_days * i as f64 / (GRID_POINTS - 1) as f64)
            .collect()
    }

    /// The size moments every key's growth is computed from: stored bytes
    /// per item include the store's per-item overhead.
    fn sizes(&self) -> Sizes {
        let (m, o) = (self.item_size.mean(), self.overhead_bytes);
        let es = m + o;
        let var_s = (self.item_size.second_moment() - m * m).max(0.0);
        let (ee, ee2) = self
            .element_size
            .as_ref()
            .map_or((0.0, 0.0), |e| (e.mean(), e.second_moment()));
        Sizes {
            es,
            item_es: es - self.local_index_bytes,
            var_s,
            es2: var_s + es * es,
            ee,
            ee2,
        }
    }

    /// The busiest key of class `c` after `tau` effective days of writes, at
    /// the standard normal quantile `z` of its compound-Poisson growth, with
    /// `init` initial items, its writes spread over `spread` times as many
    /// keys (more write shards): its item collection's bytes, its rows, and
    /// its appended item's bytes. The one formula the simulation
    /// ([`GrowthPlan::simulate`]) and the advice ([`GrowthPlan::advice`]) use.
    #[inline]
    fn busiest_key(
        &self,
        s: &Sizes,
        c: &GrowthClass,
        tau: f64,
        z: f64,
        init: f64,
        spread: f64,
    ) -> KeySize {
        let (a, b) = (c.items_per_day / spread, c.appends_per_day / spread);
        // A key that is written holds at least the item it writes.
        let mut items = (init + a * tau).max(self.min_items);
        // A key holding every value its sort key can take is full: its
        // count no longer varies with the arrivals.
        let mut full = false;
        if let Some(m) = self.max_items {
            full = items >= m.max(init);
            items = items.min(m.max(init));
        }
        let item_bytes =
            (s.item_es + b * tau * s.ee + z * (b * tau * s.ee2).max(0.0).sqrt()).max(0.0);
        let arrivals = if full { 0.0 } else { a * tau };
        let mut rows = (items + z * arrivals.sqrt()).max(0.0);
        if let Some(m) = self.max_items {
            rows = rows.min(m.max(init));
        }
        // Where the store rejects a write past its item ceiling, the
        // appended item stops there: the collection holds its items and at
        // most the appended item's room under the ceiling.
        let appended_room = self.item_room(s).filter(|_| b > 0.0);
        let collection = |mean: f64, var: f64, items_mean: f64, items_var: f64| {
            let bytes = (mean + z * var.max(0.0).sqrt()).max(0.0);
            appended_room.map_or(bytes, |room| {
                bytes.min((items_mean + z * items_var.max(0.0).sqrt()).max(0.0) + room)
            })
        };
        if let Some(n) = self.bucket_items {
            // A count bucket holds at most N items (its quantile of the
            // Poisson arrivals too): a full bucket is exactly N, a new key
            // takes the next.
            let rows = rows.min(n);
            let mean = rows * s.es + b * tau * s.ee;
            let var = rows * s.var_s + b * tau * s.ee2;
            return KeySize {
                collection_bytes: collection(mean, var, rows * s.es, rows * s.var_s),
                rows,
                item_bytes,
            };
        }
        let items_var = items * s.var_s + arrivals * (s.es2 - s.var_s);
        let mean = items * s.es + b * tau * s.ee;
        let var = items_var + b * tau * s.ee2;
        KeySize {
            collection_bytes: collection(mean, var, items * s.es, items_var),
            rows,
            item_bytes,
        }
    }

    /// An upper bound on [`GrowthPlan::busiest_key`] (`spread` 1) for every
    /// τ in `taus` = [τ₀, τ₁]: [rows, collection bytes, item bytes]. Every
    /// term grows with τ, so the bound is the key at τ₁ with z at least 0,
    /// and with its arrivals' spread unless the key is full (holds every
    /// value its sort key can take) from τ₀ on. Where the key is full, or
    /// nothing varies, it is the same figure in the same operations.
    fn busiest_key_bound(
        &self,
        s: &Sizes,
        c: &GrowthClass,
        (tau0, tau1): (f64, f64),
        z: f64,
        init: f64,
    ) -> [f64; 3] {
        let z = z.max(0.0);
        let (a, b) = (c.items_per_day, c.appends_per_day);
        let cap = self.max_items.map_or(f64::INFINITY, |m| m.max(init));
        let items = (init + a * tau1).max(self.min_items).min(cap);
        let full = self.max_items.is_some() && (init + a * tau0).max(self.min_items) >= cap;
        let item_bytes =
            (s.item_es + b * tau1 * s.ee + z * (b * tau1 * s.ee2).max(0.0).sqrt()).max(0.0);
        let arrivals = if full { 0.0 } else { a * tau1 };
        let rows = (items + z * arrivals.sqrt()).max(0.0).min(cap);
        if let Some(n) = self.bucket_items {
            let rows = rows.min(n);
            let mean = rows * s.es + b * tau1 * s.ee;
            let var = rows * s.var_s + b * tau1 * s.ee2;
            return [rows, (mean + z * var.max(0.0).sqrt()).max(0.0), item_bytes];
        }
        let mean = items * s.es + b * tau1 * s.ee;
        let var = items * s.var_s + arrivals * (s.es2 - s.var_s) + b * tau1 * s.ee2;
        let collection = (mean + z * var.max(0.0).sqrt()).max(0.0);
        [rows, collection, item_bytes]
    }

    /// The largest of the items written from day `from` to day `t` (traffic
    /// growing at `growth_per_day`): the item size's quantile at the upper
    /// tail of their maximum for the trial's uniform `u` (the same `u` for
    /// every day, so the path is smooth and non-decreasing in `t`).
    fn largest_item_written(&self, from: f64, t: f64, u: f64) -> f64 {
        let n = (self.items_written_per_day * self.traffic_days(from, t)).max(1.0);
        self.item_size.upper_quantile(upper_tail_of_max(n, u))
    }

    /// Spreads the day-0 items over the keys as their writes are (see
    /// [`GrowthPlan::initial_per_write`]): all of them (the mean per key ×
    /// the keys) over all the writes a day (each class's keys × their mean
    /// writes). They stay even under a time or count bucket (each bucket's
    /// keys start anew), or where nothing is written.
    pub fn spread_initial_by_writes(&mut self) {
        if self.bucket_days.is_some() || self.bucket_items.is_some() {
            return;
        }
        let writes: f64 = self
            .classes
            .iter()
            .filter(|c| !c.fresh)
            .map(|c| c.keys * c.mean_rates.2)
            .sum();
        let items = self.initial_items.mean().max(0.0) * self.distinct_keys;
        self.initial_per_write = (writes > 0.0 && items.is_finite()).then(|| items / writes);
    }

    /// The day-0 items of class `c`'s busiest key: its writes' share
    /// ([`GrowthPlan::initial_per_write`]) or the initial count's quantile `q`.
    fn initial_of(&self, c: &GrowthClass, q: f64) -> f64 {
        match self.initial_per_write {
            Some(k) if !c.fresh => k * c.writes_per_day,
            _ => self.initial_items.upper_quantile(q).max(0.0),
        }
    }

    /// Bytes one stored item takes in [`GrowthPlan::table_bytes`]: its
    /// mean size and the store's per-item overhead with its local index
    /// entries.
    pub fn stored_item_bytes(&self) -> f64 {
        self.sizes().es
    }

    /// Draws one trial's growth.
    pub fn simulate<R: Rng + ?Sized>(&self, rng: &mut R) -> GrowthTrial {
        let keys = BusiestKeys::draw(self, rng);
        let (sizes, grid) = (&keys.sizes, &keys.grid);
        // Each grid day's busiest keys, in one walk (every class sized once a
        // day); a crossing's bisection asks its days one figure at a time.
        let days = keys.on_grid();
        let by_day = |k: usize| -> Vec<f64> { days.iter().map(|d| d[k]).collect() };
        let item = |t: f64| keys.day(t)[2];
        // Largest freshly written item: the maximum of all items written within the horizon.
        let written = (self.items_written_per_day * self.effective_days_total()).max(1.0);
        let u_base: f64 = rng.random();
        let base_item_max = self
            .item_size
            .upper_quantile(upper_tail_of_max(written, u_base));
        // The largest item written by day t: the same draw's quantile over the
        // items written so far (a smooth, non-decreasing path).
        let base_max_by = |t: f64| self.largest_item_written(0.0, t, u_base);
        // The busiest collection holds at least the largest item written
        // (with its per-item overhead and index entries): the normal
        // approximation of a collection of a few items misses a wide item
        // size's tail (one document a key: 23.6 KB beside a 191 KB item).
        // Under a TTL, of the items still stored: those written in the
        // last ttl days (the same draw's quantile over them).
        let per_item_extra = (sizes.es - sizes.item_es).max(0.0);
        let stored_max_by = |t: f64| {
            let from = self.ttl_days.map_or(0.0, |d| (t - d).max(0.0));
            self.largest_item_written(from, t, u_base)
        };
        // Where a global index's writes would add more entries than its
        // table holds items ([`GrowthPlan::index_of`]), a key holds no more
        // than the index stores: its one key of a whole collection
        // (Firestore's `posts`) held every put as an entry.
        let index_bytes = |t: f64| match self.base_items(t) {
            Some(base) if base < self.own_items(t) => self.table_bytes(t),
            _ => f64::INFINITY,
        };
        let with_stored = |t: f64, busiest: f64| {
            let bytes = if self.items_written_per_day > 0.0 {
                busiest.max(stored_max_by(t) + per_item_extra)
            } else {
                busiest
            };
            bytes.min(index_bytes(t))
        };
        let collection = |t: f64| with_stored(t, keys.day(t)[1]);
        let base_item_breach = self.item_limit.and_then(|limit| {
            // Mean rate over the horizon (traffic grows).
            let per_day = self.items_written_per_day
                * self.item_size.exceedance(limit)
                * self.effective_days_total()
                / self.horizon_days.max(1e-9);
            if per_day <= 0.0 {
                return None;
            }
            // First over-limit item: exponential waiting time.
            let day = -(1.0 - rng.random::<f64>()).ln() / per_day;
            (day <= self.horizon_days).then_some(day)
        });
        // Rows of the busiest collection: Poisson item arrivals (sd √(aτ)).
        let rows = |t: f64| keys.day(t)[0];
        let rows_by_day = by_day(0);
        let rows_breach_day = self
            .rows_limit
            .and_then(|l| first_crossing(grid, &rows_by_day, l, &rows));
        let collection_by_day: Vec<f64> = grid
            .iter()
            .zip(&days)
            .map(|(&t, d)| with_stored(t, d[1]))
            .collect();
        let appended_by_day = by_day(2);
        let item_by_day: Vec<f64> = grid
            .iter()
            .zip(&appended_by_day)
            .map(|(&t, &appended)| {
                if self.items_written_per_day > 0.0 {
                    appended.max(base_max_by(t))
                } else {
                    appended
                }
            })
            .collect();
        let size_breach_day = self
            .collection_limit
            .and_then(|l| first_crossing(grid, &collection_by_day, l, &collection));
        let append_breach = self
            .item_limit
            .and_then(|l| first_crossing(grid, &appended_by_day, l, &item));
        let item_breach_day = match (append_breach, base_item_breach) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        GrowthTrial {
            rows_breach_day,
            max_rows: rows_by_day.iter().copied().fold(0.0, f64::max),
            max_collection_bytes: collection_by_day.iter().copied().fold(0.0, f64::max),
            max_item_bytes: item_by_day
                .iter()
                .copied()
                .fold(0.0, f64::max)
                .max(base_item_max),
            collection_by_day,
            item_by_day,
            size_breach_day,
            item_breach_day,
        }
    }
}

/// Most write shards the advice considers.
const MAX_ADVISED_SHARDS: u32 = 4096;

/// What would make a table's size checks pass (see [`GrowthPlan::advice`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Advice {
    /// The widest time bucket, days, that keeps the busiest item collection
    /// within every size and row check (0: no bucket helps; `None`: no
    /// collection ceiling applies, nothing grows, or no bucket is needed:
    /// the checks pass over the whole horizon).
    pub bucket_days: Option<f64>,
    /// The check a wider bucket would fail first: `"size"` or `"rows"`.
    pub bucket_binds: Option<&'static str>,
    /// The fewest write shards (total) that keep the busiest item collection
    /// within every size and row check at the table's own bucket, when its
    /// checks fail without more (`None`: they pass, or no count up to 4,096 helps).
    pub shards: Option<u32>,
    /// The widest time bucket, days, that keeps the busiest appended item
    /// under the item ceiling (`None`: no appends, no item ceiling, or none
    /// needed).
    pub item_bucket_days: Option<f64>,
}

/// The largest value in (0, `max`] for which `ok` holds, `ok` holding for
/// everything below it (bisection to 0.01%); `max` when it holds there, 0
/// when it holds nowhere.
fn widest(max: f64, ok: impl Fn(f64) -> bool) -> f64 {
    if ok(max) {
        return max;
    }
    let (mut lo, mut hi) = (0.0, max);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-4 * hi {
            break;
        }
    }
    lo
}

/// A trial's busiest key of each growth class, day by day: its draws (the
/// uniform of its largest key's normal quantile, its initial items), and
/// the last (keys, z) each class was asked at (z changes only with the key
/// count: under a time bucket, day by day).
struct BusiestKeys<'a> {
    plan: &'a GrowthPlan,
    sizes: Sizes,
    draws: Vec<(f64, f64)>,
    grid: Vec<f64>,
    last: Vec<std::cell::Cell<(f64, f64)>>,
}

impl<'a> BusiestKeys<'a> {
    /// The trial's draws for `plan`'s classes, from `rng`.
    fn draw<R: Rng + ?Sized>(plan: &'a GrowthPlan, rng: &mut R) -> BusiestKeys<'a> {
        let draws: Vec<(f64, f64)> = plan
            .classes
            .iter()
            .map(|c| {
                let u = rng.random::<f64>();
                let q = upper_tail_of_max(c.keys, rng.random::<f64>());
                (u, plan.initial_of(c, q))
            })
            .collect();
        BusiestKeys {
            plan,
            sizes: plan.sizes(),
            draws,
            grid: plan.grid(),
            last: (0..plan.classes.len())
                .map(|_| std::cell::Cell::new((f64::NAN, 0.0)))
                .collect(),
        }
    }

    /// The keys of class `c` begun by day `t`: under a time bucket, those
    /// of ⌈t / bucket⌉ buckets (one bucket's keys on day 0, the horizon's
    /// at its end). Its largest is the same uniform's quantile Φ⁻¹(u^{1/n})
    /// — a path that only rises, whose first crossing of a ceiling is
    /// distributed as the first bucket over it (a bucket near its ceiling
    /// breaches on a random later day, not on day 1 with the whole year's
    /// largest).
    fn keys_by(&self, c: &GrowthClass, t: f64) -> f64 {
        let buckets = self.plan.buckets_over_horizon();
        match self.plan.bucket_days {
            Some(b) if (t / b).ceil() < buckets => c.keys / buckets * (t / b).ceil().max(1.0),
            _ => c.keys,
        }
    }

    /// Class `i`'s z on day `t`.
    fn z(&self, i: usize, c: &GrowthClass, t: f64) -> f64 {
        let n = self.keys_by(c, t);
        let (seen, z) = self.last[i].get();
        if seen == n {
            return z;
        }
        let z = max_of_normals(n, self.draws[i].0);
        self.last[i].set((n, z));
        z
    }

    /// Class `i`'s busiest key on day `t`, `tau` effective days of writes
    /// in ([`GrowthPlan::effective_days`], the same for every class).
    #[inline]
    fn size(&self, i: usize, c: &GrowthClass, t: f64, tau: f64) -> KeySize {
        let z = self.z(i, c, t);
        self.plan
            .busiest_key(&self.sizes, c, tau, z, self.draws[i].1, 1.0)
    }

    /// [`BusiestKeys::day`] on every grid day, class by class (the same
    /// figures: a maximum is the same in any order).
    fn on_grid(&self) -> Vec<[f64; 3]> {
        let taus: Vec<f64> = self
            .grid
            .iter()
            .map(|&t| self.plan.effective_days(t))
            .collect();
        let mut days = vec![[0.0f64; 3]; self.grid.len()];
        let classes = &self.plan.classes;
        if self.plan.bucket_days.is_some() || taus.is_empty() {
            // A class's z changes with its keys, day by day: no bound.
            for (i, c) in classes.iter().enumerate() {
                self.add_days(i, c, 0..days.len(), &taus, &mut days);
            }
            return days;
        }
        // Each class's z is the same every day: a stretch of days where its
        // bound ([`GrowthPlan::busiest_key_bound`]) is no more than the
        // figures already found cannot raise them. Classes go highest bound
        // first, so that the few that set the figures screen the many.
        let z: Vec<f64> = (0..classes.len())
            .map(|i| self.z(i, &classes[i], self.grid[0]))
            .collect();
        let horizon = (taus[0], taus[taus.len() - 1]);
        let mut order: Vec<(usize, f64)> = classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let b = self
                    .plan
                    .busiest_key_bound(&self.sizes, c, horizon, z[i], self.draws[i].1);
                (i, b[1].max(b[0]))
            })
            .collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let n = days.len();
        let stretch = n.div_ceil(GRID_STRETCHES).max(1);
        for (i, _) in order {
            let c = &classes[i];
            for start in (0..n).step_by(stretch) {
                let end = (start + stretch).min(n);
                let most = days[start..end].iter().fold([f64::INFINITY; 3], |m, d| {
                    [m[0].min(d[0]), m[1].min(d[1]), m[2].min(d[2])]
                });
                let b = self.plan.busiest_key_bound(
                    &self.sizes,
                    c,
                    (taus[start], taus[end - 1]),
                    z[i],
                    self.draws[i].1,
                );
                if b[0] <= most[0] && b[2] <= most[2] && (c.fresh || b[1] <= most[1]) {
                    continue;
                }
                self.add_days(i, c, start..end, &taus, &mut days);
            }
        }
        days
    }

    /// Class `i`'s busiest key on the grid days `range` into their figures.
    fn add_days(
        &self,
        i: usize,
        c: &GrowthClass,
        range: std::ops::Range<usize>,
        taus: &[f64],
        days: &mut [[f64; 3]],
    ) {
        for d in range {
            let k = self.size(i, c, self.grid[d], taus[d]);
            let most = &mut days[d];
            most[0] = most[0].max(k.rows);
            if !c.fresh {
                most[1] = most[1].max(k.collection_bytes);
            }
            most[2] = most[2].max(k.item_bytes);
        }
    }

    /// The busiest of the classes' keys on day `t`, each class's key sized
    /// once: the most rows, the largest collection of a class that is not
    /// fresh (a fresh class's key holds the one item its write made: its
    /// collection is that item, the stored-item floor, not a normal
    /// quantile over unboundedly many keys: uniform 2–8 KB items read 69
    /// KB), and the largest appended item.
    fn day(&self, t: f64) -> [f64; 3] {
        let mut most = [0.0f64; 3];
        let tau = self.plan.effective_days(t);
        for (i, c) in self.plan.classes.iter().enumerate() {
            let k = self.size(i, c, t, tau);
            most[0] = most[0].max(k.rows);
            if !c.fresh {
                most[1] = most[1].max(k.collection_bytes);
            }
            most[2] = most[2].max(k.item_bytes);
        }
        most
    }
}

/// Stored bytes per item (mean, variance, second moment) and per appended
/// element (mean, second moment).
struct Sizes {
    /// Stored bytes per item in its item collection.
    es: f64,
    /// Bytes of the item itself (without its local index entries).
    item_es: f64,
    var_s: f64,
    es2: f64,
    ee: f64,
    ee2: f64,
}

/// One key's size after a stretch of growth (see [`GrowthPlan::busiest_key`]).
#[derive(Clone, Copy)]
struct KeySize {
    collection_bytes: f64,
    rows: f64,
    item_bytes: f64,
}

/// Items and appends written per day over a whole table.
struct WriteTotals {
    /// Items put or updated (× items per request).
    items_written_per_day: f64,
    /// Items put, net of deletes.
    net_items_per_day: f64,
    /// Appends.
    appends_per_day: f64,
}

impl WriteTotals {
    /// The totals of the write streams among `streams`.
    fn of(scenario: &Scenario, streams: &[Stream]) -> WriteTotals {
        let mut totals = WriteTotals {
            items_written_per_day: 0.0,
            net_items_per_day: 0.0,
            appends_per_day: 0.0,
        };
        for s in streams.iter().filter(|s| s.is_write) {
            let op = scenario.access_patterns[s.pattern].operation;
            let items = per_day(s) * items_of(scenario, s);
            if matches!(op, Operation::Put | Operation::Update) {
                totals.items_written_per_day += items;
            }
            match op {
                Operation::Put => totals.net_items_per_day += items,
                Operation::Delete => totals.net_items_per_day -= items,
                Operation::Append => totals.appends_per_day += per_day(s),
                _ => {}
            }
        }
        totals
    }
}

/// Bytes each stored item adds to its item collection through the table's
/// local secondary indexes, where the store counts them there
/// ([`StoreModel::local_index_entries_in_collection`]): each local index's
/// entry ([`index_entry_bytes`]: the keys, the projected attributes and
/// 100 B) times the share of the stored items that hold one. Items are
/// stored by puts: the share is the items put by patterns that write the
/// index (an index a put leaves untouched holds no entry for its items: a
/// sparse index) over all items put. An update adds no item; it gives an
/// item its entry only where no put writes the index (a sparse index filled
/// by updates: their items, up to every item put). 0 without local indexes
/// or puts.
///
/// [`StoreModel::local_index_entries_in_collection`]: crate::store::StoreModel::local_index_entries_in_collection
/// [`index_entry_bytes`]: crate::store::index_entry_bytes
fn local_index_bytes(
    scenario: &Scenario,
    table: &Table,
    streams: &[Stream],
    store: &dyn crate::store::StoreModel,
) -> f64 {
    if !store.local_index_entries_in_collection() {
        return 0.0;
    }
    let written = |op: Operation| -> Vec<(f64, &crate::scenario::AccessPattern)> {
        streams
            .iter()
            .filter(|s| s.is_write)
            .map(|s| (s, &scenario.access_patterns[s.pattern]))
            .filter(|(_, p)| p.operation == op)
            .map(|(s, p)| (per_day(s) * items_of(scenario, s), p))
            .collect()
    };
    let (puts, updates) = (written(Operation::Put), written(Operation::Update));
    let total: f64 = puts.iter().map(|(items, _)| items).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let writing = |ws: &[(f64, &crate::scenario::AccessPattern)], x: usize| -> f64 {
        ws.iter()
            .filter(|(_, p)| p.index_writes(x) > 0.0)
            .map(|(items, _)| items)
            .sum()
    };
    table
        .indexes
        .iter()
        .enumerate()
        .filter(|(_, i)| i.local)
        .map(|(x, i)| {
            let put = writing(&puts, x);
            let indexed = if put > 0.0 {
                put
            } else {
                writing(&updates, x).min(total)
            };
            indexed / total * crate::store::index_entry_bytes(table, i)
        })
        .sum()
}

/// Mean requests per day of a stream.
fn per_day(s: &Stream) -> f64 {
    s.mean_rate_per_s * DAY_S
}

/// Items each request of a stream writes.
fn items_of(scenario: &Scenario, s: &Stream) -> f64 {
    f64::from(scenario.access_patterns[s.pattern].items.max(1))
}

/// Builds a table's growth classes from its write streams.
struct ClassBuilder<'a> {
    scenario: &'a Scenario,
    /// Write shards per logical key.
    shards: f64,
    /// Time buckets over the horizon (1 without buckets).
    buckets_over_horizon: f64,
    /// Whether a put adds an item to its key (the sort key varies).
    adds_items: bool,
}

impl ClassBuilder<'_> {
    /// Classes of every driver entity's write streams (in the order drivers
    /// first appear), or one unwritten class when nothing writes.
    fn classes(&self, keys: &KeySpace, streams: &[Stream]) -> Vec<GrowthClass> {
        let mut drivers: Vec<Option<usize>> = Vec::new();
        for s in streams.iter().filter(|s| s.is_write) {
            if !drivers.contains(&s.driver) {
                drivers.push(s.driver);
            }
        }
        let mut classes = Vec::new();
        for driver in drivers {
            let group: Vec<&Stream> = streams
                .iter()
                .filter(|s| s.is_write && s.driver == driver)
                .collect();
            let Some(first) = group.first() else { continue };
            if first.fresh_keys {
                classes.push(self.fresh(&group, driver));
            } else {
                self.ranked(&group, driver, &mut classes);
            }
        }
        if classes.is_empty() {
            let n = if keys.fresh {
                1.0
            } else {
                keys.cardinality() * self.shards
            };
            classes.push(GrowthClass {
                keys: n,
                items_per_day: 0.0,
                appends_per_day: 0.0,
                writes_per_day: 0.0,
                ranks: (0, 0),
                per_rank: 1.0,
                fresh: keys.fresh,
                driver: None,
                rank_count: 0,
                alike_combos: true,
                mean_rates: (0.0, 0.0, 0.0),
                band: std::sync::Arc::new([]),
            });
        }
        classes
    }

    /// Every write makes a new key: no key grows past one write. Its
    /// stored items are those its puts (and appends) write: an update, like
    /// a delete, stores no new item, as the table's stored items count them
    /// ([`WriteTotals`]).
    fn fresh(&self, group: &[&Stream], driver: Option<usize>) -> GrowthClass {
        let scenario = self.scenario;
        let writes_per_day = group
            .iter()
            .filter(|s| {
                !matches!(
                    scenario.access_patterns[s.pattern].operation,
                    Operation::Delete | Operation::Update
                )
            })
            .map(|s| per_day(s) * items_of(scenario, s))
            .sum();
        GrowthClass {
            keys: f64::MAX,
            items_per_day: 0.0,
            appends_per_day: 0.0,
            writes_per_day,
            ranks: (0, 0),
            per_rank: 1.0,
            fresh: true,
            driver,
            rank_count: 0,
            alike_combos: true,
            mean_rates: (0.0, 0.0, writes_per_day),
            band: std::sync::Arc::new([]),
        }
    }

    /// One class per hot rank up to [`EXACT_RANKS`], then doubling bands of
    /// ranks (a run of equal shares is one exact class), appended to `classes`.
    fn ranked(&self, group: &[&Stream], driver: Option<usize>, classes: &mut Vec<GrowthClass>) {
        let first = group[0];
        let n = first.shares.count();
        let mut a = 1u64;
        while a <= n {
            let b = if a <= EXACT_RANKS {
                a
            } else {
                (2 * a - 1).min(n)
            };
            // Merge a run of equal shares into one exact class.
            let b = if first.shares.share(a) == first.shares.share(n.min(b.max(a))) {
                extend_equal(&first.shares, a, b, n)
            } else {
                b
            };
            // The other entities' combinations: alike (one class per band), or
            // one class per group of equal-share combinations.
            let groups: Vec<(f64, KeyShare)> = if first.combos.uniform {
                let per_key = first.combos.count * self.shards;
                vec![(per_key, KeyShare::Divided(per_key))]
            } else {
                first
                    .combos
                    .groups
                    .iter()
                    .map(|&(count, q)| (count * self.shards, KeyShare::Of(q, self.shards)))
                    .collect()
            };
            for (per_key, key_share) in groups {
                let rates = self.rank_rates(group, a, key_share);
                let (items_per_day, appends_per_day, writes_per_day) = rates;
                let (mean_rates, band) = if b == a || first.shares.share(a) == first.shares.share(b)
                {
                    (rates, std::sync::Arc::from([]))
                } else {
                    let keys = |(x, y): (u64, u64)| {
                        (y - x + 1) as f64 * per_key * self.buckets_over_horizon
                    };
                    let band: Vec<(f64, f64, f64)> = band_parts(a, b)
                        .map(|part| {
                            let (items, appends, _) = self.band_rates(group, part, key_share);
                            (keys(part), items, appends)
                        })
                        .collect();
                    (self.band_rates(group, (a, b), key_share), band.into())
                };
                classes.push(GrowthClass {
                    keys: (b - a + 1) as f64 * per_key * self.buckets_over_horizon,
                    items_per_day,
                    appends_per_day,
                    writes_per_day,
                    ranks: (a, b),
                    per_rank: per_key,
                    fresh: false,
                    driver,
                    rank_count: n,
                    alike_combos: first.combos.uniform,
                    mean_rates,
                    band,
                });
            }
            a = b + 1;
        }
    }

    /// Per key of rank `rank` (`key_share` turns a rank's share of a stream
    /// into one key's): (new items per day net of deletes, appends per day,
    /// writes per day).
    fn rank_rates(&self, group: &[&Stream], rank: u64, key_share: KeyShare) -> (f64, f64, f64) {
        self.rates_at(group, key_share, |s| s.shares.share(rank))
    }

    /// [`GrowthPlan::rank_rates`] averaged over ranks `a..=b`: each
    /// stream's mean share of them (its share where they are all equal).
    fn band_rates(
        &self,
        group: &[&Stream],
        (a, b): (u64, u64),
        key_share: KeyShare,
    ) -> (f64, f64, f64) {
        self.rates_at(group, key_share, |s| {
            let first = s.shares.share(a);
            if first == s.shares.share(b) {
                first
            } else {
                s.shares.moments(a, b).0 / (b - a + 1) as f64
            }
        })
    }

    /// Per key, given each stream's share of the key's rank: (new items per
    /// day net of deletes, appends per day, writes per day).
    fn rates_at(
        &self,
        group: &[&Stream],
        key_share: KeyShare,
        rank_share: impl Fn(&Stream) -> f64,
    ) -> (f64, f64, f64) {
        let mut items = 0.0;
        let mut appends = 0.0;
        let mut writes = 0.0;
        for s in group {
            let share = key_share.of(rank_share(s));
            let op = self.scenario.access_patterns[s.pattern].operation;
            let written = per_day(s) * items_of(self.scenario, s) * share;
            match op {
                Operation::Put if self.adds_items => items += written,
                Operation::Delete => items -= written,
                Operation::Append => appends += per_day(s) * share,
                _ => {}
            }
            if op != Operation::Delete {
                writes += written;
            }
        }
        (items.max(0.0), appends, writes)
    }
}

/// How a rank's share of a stream divides over its keys.
#[derive(Debug, Clone, Copy)]
enum KeyShare {
    /// Over this many keys alike (combinations × shards).
    Divided(f64),
    /// A combination group's share each, over this many shards.
    Of(f64, f64),
}

impl KeyShare {
    /// One key's share of the stream, of a rank's `share`.
    fn of(self, share: f64) -> f64 {
        match self {
            KeyShare::Divided(keys) => share / keys,
            KeyShare::Of(q, shards) => share * q / shards,
        }
    }
}

/// Whether puts add items to a collection, and the most items it can hold.
/// A sort key with `{time}`, `{id}` or a `new` entity makes every put a new
/// item (unbounded); one with only finite entities holds at most their
/// product — but for those the partition key names, whose instance a key's
/// partition already fixes (`{channel}#{bucket}` / `{channel}`: one item);
/// no sort key (or a constant one) means one item, overwritten.
fn sort_key_growth(table: &Table, scenario: &Scenario) -> (bool, Option<f64>) {
    let Some(sk) = &table.sort_key else {
        return (false, Some(1.0));
    };
    let in_partition_key = table.partition_key.entities();
    let mut bound = 1.0;
    for part in &sk.parts {
        match part {
            TemplatePart::Time | TemplatePart::Id => return (true, None),
            TemplatePart::Entity(name) if in_partition_key.contains(&name.as_str()) => {}
            TemplatePart::Entity(name) => {
                match scenario.entities.iter().find(|e| &e.name == name) {
                    Some(e) if e.popularity == Popularity::New => return (true, None),
                    Some(e) => bound *= e.count.max(1) as f64,
                    None => {}
                }
            }
            _ => {}
        }
    }
    (bound > 1.0, Some(bound))
}

/// Extends `[a, b]` while shares stay equal to rank `a`'s (exact classes for
/// uniform and hotspot populations), by doubling then bisecting.
fn extend_equal(
    shares: &crate::distributions::popularity::RankShares,
    a: u64,
    b: u64,
    n: u64,
) -> u64 {
    let target = shares.share(a);
    let mut hi = b.max(a);
    if shares.share(hi) != target {
        return b;
    }
    let mut step = 1u64;
    while hi < n {
        let next = (hi + step).min(n);
        if shares.share(next) != target {
            // Bisect between hi (equal) and next (different).
            let (mut lo, mut up) = (hi, next);
            while up - lo > 1 {
                let mid = lo + (up - lo) / 2;
                if shares.share(mid) == target {
                    lo = mid;
                } else {
                    up = mid;
                }
            }
            return lo;
        }
        hi = next;
        step = step.saturating_mul(2);
    }
    hi
}

/// 1 − U^{1/n}: the upper-tail probability at which the maximum of `n`
/// independent draws sits, for a uniform `u`.
fn upper_tail_of_max(n: f64, u: f64) -> f64 {
    let u = u.clamp(1e-300, 1.0 - 1e-16);
    (-(u.ln() / n.max(1.0)).exp_m1()).clamp(1e-300, 1.0 - 1e-16)
}

/// The maximum of `n` independent standard normals, drawn from a uniform `u`.
fn max_of_normals(n: f64, u: f64) -> f64 {
    -normal_quantile(upper_tail_of_max(n, u))
}

/// First time `f` passes `limit`, searched on the grid then bisected. A
/// ceiling is a most allowed (DynamoDB's 400 KB item, its 10 GB item
/// collection): reaching it exactly is not a breach.
fn first_crossing(grid: &[f64], values: &[f64], limit: f64, f: &dyn Fn(f64) -> f64) -> Option<f64> {
    let i = values.iter().position(|&v| v > limit)?;
    if i == 0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (grid[i - 1], grid[i]);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > limit {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_of_one_normal_is_the_normal_quantile() {
        assert!((max_of_normals(1.0, 0.975) - 1.959_964).abs() < 1e-5);
        // Median of the max of 1000 normals: Φ⁻¹(0.5^{1/1000}) = 3.0902 (Φ⁻¹(0.999307)).
        let z = max_of_normals(1000.0, 0.5);
        assert!((z - normal_quantile(0.5f64.powf(1e-3))).abs() < 1e-6, "{z}");
    }

    /// A class of one key adding `items` items and `appends` appends a day.
    fn one_key_class(items: f64, appends: f64) -> GrowthClass {
        GrowthClass {
            keys: 1.0,
            items_per_day: items,
            appends_per_day: appends,
            writes_per_day: items + appends,
            ranks: (1, 1),
            per_rank: 1.0,
            fresh: false,
            driver: None,
            rank_count: 1,
            alike_combos: true,
            mean_rates: (items, appends, items + appends),
            band: std::sync::Arc::new([]),
        }
    }

    /// The bound the grid's screening uses holds every busiest key over
    /// its stretch of days, whatever z (negative too), caps, count
    /// buckets, appends and item sizes: keys at 50 days in [τ₀, τ₁] never
    /// exceed it; and where the key is full and nothing varies, it is the
    /// key itself (so equal classes screen each other).
    #[test]
    fn busiest_key_bound_holds_over_its_stretch() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for case in 0..4000 {
            let mut plan = GrowthPlan::example_for_docs();
            plan.max_items = (case % 3 == 0).then(|| rng.random_range(1.0..50.0f64).floor());
            plan.bucket_items = (case % 5 == 0).then(|| rng.random_range(1.0..40.0f64).floor());
            plan.item_size = match case % 3 {
                0 => SizeDist::Fixed(2048.0),
                1 => SizeDist::Uniform {
                    min: 300.0,
                    max: 4096.0,
                },
                _ => SizeDist::LogNormal {
                    median: 3000.0,
                    p99: 30_000.0,
                },
            };
            plan.element_size = (case % 4 == 0).then_some(SizeDist::Fixed(64.0));
            plan.overhead_bytes = 100.0;
            let appends = if case % 4 == 0 {
                rng.random_range(0.0..50.0)
            } else {
                0.0
            };
            let c = one_key_class(rng.random_range(0.0..200.0), appends);
            let s = plan.sizes();
            let z = rng.random_range(-4.0..6.0);
            let init = rng.random_range(0.0..30.0f64).floor();
            let tau0 = rng.random_range(0.0..300.0);
            let tau1 = tau0 + rng.random_range(0.0..60.0);
            let b = plan.busiest_key_bound(&s, &c, (tau0, tau1), z, init);
            for j in 0..50 {
                let tau = (tau0 + (tau1 - tau0) * j as f64 / 49.0).min(tau1);
                let k = plan.busiest_key(&s, &c, tau, z, init, 1.0);
                assert!(k.rows <= b[0], "case {case}: rows {} > {}", k.rows, b[0]);
                assert!(
                    k.collection_bytes <= b[1] * (1.0 + 1e-12),
                    "case {case}: {} > {}",
                    k.collection_bytes,
                    b[1]
                );
                assert!(k.item_bytes <= b[2] * (1.0 + 1e-12), "case {case}");
            }
        }
        // One 2 KB item a key, full from day 0: the bound is the key's size.
        let mut plan = GrowthPlan::example_for_docs();
        plan.max_items = Some(1.0);
        plan.item_size = SizeDist::Fixed(2048.0);
        let c = one_key_class(40.0, 0.0);
        let s = plan.sizes();
        let b = plan.busiest_key_bound(&s, &c, (0.0, 30.0), 2.5, 0.0);
        let k = plan.busiest_key(&s, &c, 30.0, 2.5, 0.0, 1.0);
        assert_eq!(b, [k.rows, k.collection_bytes, k.item_bytes]);
        assert_eq!(b, [1.0, 2048.0, 2048.0]);
    }
}
