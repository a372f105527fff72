//! `kind = "firestore"`: Google Cloud Firestore (Native mode).
//!
//! Firestore publishes no per-partition throughput: it splits key ranges by
//! load on its own. Its limits are per document and per index, and keyheat
//! checks them through [`StoreModel::key_limits`]:
//! - ~1 sustained write per second to one document (`document_write_limit`):
//!   a former hard quota, now guidance ("the maximum rate depends highly on
//!   workload"); Firebase docs "Distributed counters" and "Best practices"
//!   (updates to a single document). The engine's `hot_key` verdict compares
//!   the busiest document's write rate with it; a distributed counter of
//!   `shards` documents takes `shards` × as many ("Distributed counters": "a
//!   distributed counter with 10 shards can handle 10x as many writes").
//! - 500 writes per second to a collection whose documents carry a
//!   monotonically increasing or decreasing indexed field, such as a timestamp
//!   (`sequential_index_write_limit`; Firebase docs "Sharded timestamps",
//!   "Best practices": index exemptions). A `shard` field 1..n in front of the
//!   timestamp in the composite index lifts it to 500·n at the cost of n
//!   queries: keyheat multiplies the limit by the table's `shards`. The
//!   engine's `monotonic_index` verdict applies it to tables and indexes
//!   whose partition or sort key holds `{time}` (model the indexed field as
//!   the sort key); an index whose partition key names entities (a
//!   composite index on `roomId`, then the timestamp) takes each value's
//!   writes in its own range, and the busiest value's are judged.
//!   The limit is per collection, and single-field indexes are
//!   collection-scoped by default ("Index types in Cloud Firestore": an index
//!   with collection scope holds the documents of one collection), so a
//!   subcollection under each parent document (`rooms/{room}/messages/{id}`)
//!   takes its parent's writes alone: the verdict then judges the busiest
//!   parent's subcollection. A collection-group index over all of them (a
//!   collection group query) would take every write: keyheat does not
//!   model one.
//! - The 500/50/5 rule for new collections ("Best practices": ramping up
//!   traffic): "start with a maximum of 500 operations per second to a new
//!   collection and then increase traffic by 50% every 5 minutes"; see
//!   [`ramp_ops_per_s`]. With `new_collection = true` the ramp is the
//!   collection's limit on reads + writes per second, and it moves with
//!   simulated time: at second t of the busy period the limit is
//!   `ramp_ops_per_s((collection_age + t) / 60)`, applied per window to the
//!   collection's units summed over its partitions
//!   ([`StoreModel::table_limit_schedule`], the `table_throughput` verdict).
//!   `collection_age` is the collection's age when the busy period starts
//!   (default 0: created at its start); a later checkpoint day adds its days,
//!   by which time the ramp is far past any traffic. Reading the docs' rule
//!   as a hard limit (requests beyond it are throttled) is an ASSUMPTION:
//!   the docs give it as guidance against latency and errors.
//! - Document ≤ 1 MiB = 1,048,576 bytes ("Usage and limits"), its size counted
//!   as "Storage size calculations" says: document name + field names + field
//!   values + 32 bytes. Give `item_size` in those bytes.
//!
//! # Partitions
//! `partitions` (default 1) is an ASSUMPTION: it only spreads the charts,
//! because Firestore's split points are internal and it sets no
//! per-partition limit. Keys are hashed ([`super::hash`], salted per trial)
//! as Firestore's random auto-IDs scatter; monotonically increasing document
//! IDs hotspot (Best practices: document IDs), which keyheat reports through
//! the sequential-index check when the key holds `{time}`.
//!
//! # Billing units
//! One document read per document returned by a get or a query, at least one
//! per query even when it returns nothing; one document write per document
//! written or deleted, whatever its size ("Understand Cloud Firestore
//! billing"). Consistency does not change the count.

use super::Figure;
use super::{
    figure, hash, KeyLimits, Settings, StoreModel, TableDemand, TableLayout, TableLimitSchedule,
};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, StoreKind};

/// Document ceiling: 1 MiB.
pub const DOCUMENT_SIZE_LIMIT: f64 = 1_048_576.0;
/// Sustained writes per second to one document (guidance).
pub const DOCUMENT_WRITE_PER_S: f64 = 1.0;
/// Writes per second to a collection with a sequential indexed field.
pub const SEQUENTIAL_INDEX_WRITE_PER_S: f64 = 500.0;
/// 500/50/5: operations per second a new collection starts with.
pub const RAMP_START_OPS_PER_S: f64 = 500.0;
/// 500/50/5: growth factor per step (+50%).
pub const RAMP_GROWTH: f64 = 1.5;
/// 500/50/5: minutes per step.
pub const RAMP_STEP_MINUTES: f64 = 5.0;
/// Default `collection_age`: 0, the collection is created as the busy period starts.
pub const DEFAULT_COLLECTION_AGE_S: f64 = 0.0;
/// Most partitions keyheat lays out.
pub const MAX_PARTITIONS: usize = 100_000;

/// Operations per second the 500/50/5 rule allows a new collection
/// `minutes_since_start` minutes after traffic to it began: 500 × 1.5^⌊m / 5⌋
/// (500 for the first five minutes, then 50% more every five minutes).
/// Negative or NaN minutes give the starting 500.
///
/// ```
/// use keyheat::store::firestore::ramp_ops_per_s;
/// assert_eq!(ramp_ops_per_s(0.0), 500.0);
/// assert_eq!(ramp_ops_per_s(5.0), 750.0);
/// assert_eq!(ramp_ops_per_s(10.0), 1125.0);
/// ```
pub fn ramp_ops_per_s(minutes_since_start: f64) -> f64 {
    if minutes_since_start.is_nan() || minutes_since_start <= 0.0 {
        return RAMP_START_OPS_PER_S;
    }
    let steps = (minutes_since_start / RAMP_STEP_MINUTES).floor();
    RAMP_START_OPS_PER_S * RAMP_GROWTH.powf(steps)
}

/// The 500/50/5 ramp over a busy period of `duration_s` seconds that starts
/// when the collection is `age_s` seconds old: steps `(start second, ops/s)`,
/// the first at 0 s, then one at every 5-minute mark of the collection's age
/// before the end. Stops at the first step whose budget overflows to
/// infinity (no limit from there on).
///
/// ```
/// use keyheat::store::firestore::ramp_schedule;
/// // Created 2 minutes before the busy period: 500 until minute 3, then 750.
/// assert_eq!(ramp_schedule(120.0, 600.0), vec![(0.0, 500.0), (180.0, 750.0), (480.0, 1125.0)]);
/// ```
pub fn ramp_schedule(age_s: f64, duration_s: f64) -> Vec<(f64, f64)> {
    let age_s = if age_s.is_finite() {
        age_s.max(0.0)
    } else {
        0.0
    };
    let step_s = RAMP_STEP_MINUTES * 60.0;
    let mut out = vec![(0.0, ramp_ops_per_s(age_s / 60.0))];
    let mut k = (age_s / step_s).floor() + 1.0;
    while out.last().is_some_and(|s| s.1.is_finite()) {
        let t = k * step_s - age_s;
        if t >= duration_s {
            break;
        }
        out.push((t, ramp_ops_per_s(k * RAMP_STEP_MINUTES)));
        k += 1.0;
    }
    out
}

/// Google Cloud Firestore.
#[derive(Debug, Clone, PartialEq)]
pub struct Firestore {
    partitions: usize,
    document_write_limit: f64,
    sequential_index_write_limit: f64,
    new_collection: bool,
    collection_age_s: f64,
    item_size_limit: f64,
    set: Vec<String>,
}

impl Firestore {
    /// Reads the Firestore settings; anything omitted takes the default above.
    ///
    /// # Errors
    /// A scenario error naming `store.<key>` when `partitions` is not a whole
    /// number 1..=100,000 or a rate or size is not positive.
    pub fn new(s: &Settings) -> Result<Firestore> {
        let get = |name: &str, default: f64| s.number(name).unwrap_or(default);
        let document_write_limit = get("document_write_limit", DOCUMENT_WRITE_PER_S);
        let sequential_index_write_limit =
            get("sequential_index_write_limit", SEQUENTIAL_INDEX_WRITE_PER_S);
        let item_size_limit = get("item_size_limit", DOCUMENT_SIZE_LIMIT);
        let collection_age_s = get("collection_age", DEFAULT_COLLECTION_AGE_S);
        let partitions = s.count("partitions").unwrap_or(1);
        let new_collection = s.flag("new_collection").unwrap_or(false);
        Ok(Firestore {
            partitions,
            document_write_limit,
            sequential_index_write_limit,
            new_collection,
            collection_age_s,
            item_size_limit,
            set: s.given(),
        })
    }

    /// The 500/50/5 budget as the busy period starts (at `collection_age`),
    /// operations per second, when `new_collection` is on.
    pub fn ramp_at_start_per_s(&self) -> Option<f64> {
        self.new_collection
            .then(|| ramp_ops_per_s(self.collection_age_s / 60.0))
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }
}

impl StoreModel for Firestore {
    fn max_partitions(&self) -> Option<usize> {
        Some(MAX_PARTITIONS)
    }

    fn kind(&self) -> StoreKind {
        StoreKind::Firestore
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("reads", "writes")
    }

    fn layout(&self, _table: &TableDemand) -> TableLayout {
        TableLayout {
            partitions: self.partitions,
            read_limit_per_s: None,
            write_limit_per_s: None,
            combined_limit_per_s: None,
            item_collection_limit_bytes: None,
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: None,
        }
    }

    fn place(&self, key: &str, partitions: usize) -> usize {
        hash::place(key, partitions)
    }

    /// A document past 1 MiB is refused ("Usage and limits"); Firestore's
    /// usual fix for a growing array or map is a subcollection, one
    /// document an element ("Choose a data structure").
    fn breach_note(&self, check: &str) -> Option<String> {
        (check == "item_size").then(|| {
            "Firestore rejects a write that takes a document past its ceiling: the size shown is what the writes would make; the usual fix for a growing array or map is a subcollection, one document an element (the checklist's bounded_arrays)".into()
        })
    }

    fn place_in_trial(&self, key: &str, partitions: usize, salt: u64) -> usize {
        hash::place_salted(key, partitions, salt)
    }

    fn places_by_salted_fnv(&self) -> bool {
        true
    }

    fn trial_hash(&self, key: &str) -> Option<u64> {
        Some(hash::key_hash(key.as_bytes()))
    }

    fn read_cost(&self, _op: Operation, _consistency: Consistency, _bytes: f64, items: f64) -> f64 {
        // One read per document returned; a query (or a get of a missing
        // document) still costs one.
        if items > 1.0 {
            items.ceil()
        } else {
            1.0
        }
    }

    fn write_cost(&self, _op: Operation, _consistency: Consistency, _bytes: f64) -> f64 {
        1.0
    }

    /// Firestore charges writes per document written or deleted, and index
    /// entries toward storage, not as writes (Firebase docs, "Understand
    /// Cloud Firestore billing").
    fn bills_index_writes(&self) -> bool {
        false
    }

    /// A document's path is its collection's path and its ID ("Data
    /// model": collections hold documents; a subcollection sits under a
    /// document).
    fn collection_keys(&self) -> bool {
        true
    }

    fn key_limits(&self, _table: &TableDemand) -> KeyLimits {
        KeyLimits {
            key_write_per_s: Some(self.document_write_limit),
            monotonic_write_per_s: Some(self.sequential_index_write_limit),
            monotonic_per_parent: true,
            ..Default::default()
        }
    }

    fn table_limit_schedule(
        &self,
        _table: &TableDemand,
        start_s: f64,
        duration_s: f64,
    ) -> Option<TableLimitSchedule> {
        self.new_collection.then(|| TableLimitSchedule {
            label: "500/50/5 ramp".to_string(),
            steps: ramp_schedule(self.collection_age_s + start_s, duration_s),
        })
    }

    fn figures(&self) -> Vec<Figure> {
        let docs = "Firebase docs";
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let age_min = self.collection_age_s / 60.0;
        vec![
            f(
                "document_write_limit",
                format!(
                    "~{} sustained writes/s per document (hot_key)",
                    exact(self.document_write_limit)
                ),
                &format!("{docs}: 'Distributed counters', 'Best practices' (updates to a single document): a former hard limit, now guidance"),
                true,
            ),
            f(
                "sequential_index_write_limit",
                format!(
                    "{} writes/s to a collection with a monotonically increasing indexed field, × shards (a `shard` field 1..n lifts it to {}·n at the cost of n queries) (monotonic_index)",
                    exact(self.sequential_index_write_limit),
                    exact(self.sequential_index_write_limit)
                ),
                &format!("{docs}: 'Sharded timestamps'; 'Best practices' (index exemptions)"),
                false,
            ),
            f(
                "distributed counter",
                "a counter of n shard documents takes n × the writes of one document".to_string(),
                &format!("{docs}: 'Distributed counters'"),
                false,
            ),
            f(
                "new_collection",
                match self.ramp_at_start_per_s() {
                    Some(ops) => format!(
                        "on: 500/50/5 ramp, 500 ops/s then +50% every 5 min of the collection's age, the collection's reads + writes limit over simulated time ({} ops/s as the busy period starts; table_throughput)",
                        exact(ops.round()),
                    ),
                    None => "off (a new collection would start at 500 ops/s, +50% every 5 min)".to_string(),
                },
                &format!("{docs}: 'Best practices' (ramping up traffic, the 500/50/5 rule)"),
                false,
            ),
            f(
                "ramp as a limit",
                "requests over the ramp's budget in a window are throttled; an operation is counted as the documents it reads or writes (a query returning 50 documents counts 50)".to_string(),
                &format!("assumption: {docs} give the ramp as guidance against latency and errors, not as a quota, and do not say how a query's documents count"),
                true,
            ),
            f(
                "collection_age",
                format!(
                    "{} min: the collection's age when the busy period starts (a checkpoint day adds its days)",
                    exact(age_min)
                ),
                "keyheat default: created as the busy period starts",
                true,
            ),
            f(
                "partitions",
                format!(
                    "{} (no per-partition throughput limit: Firestore splits key ranges automatically)",
                    self.partitions
                ),
                "assumption: Firestore publishes no partition count or per-partition throughput",
                true,
            ),
            f(
                "item_size_limit",
                format!(
                    "{} bytes (1 MiB): document name + field names + field values + 32 B",
                    exact(self.item_size_limit)
                ),
                &format!("{docs}: 'Usage and limits' (maximum size for a document); 'Storage size calculations'"),
                false,
            ),
            f(
                "billing units",
                "1 read per document returned (a query at least 1); 1 write per document written or deleted (a [[table.index]]'s entries are not documents: not billed as writes, no per-document write limit)".to_string(),
                &format!("{docs}: 'Understand Cloud Firestore billing'"),
                false,
            ),
            f(
                "placement",
                "FNV-1a 64 + fmix64 over equal ranges, salted per trial (random auto-IDs)".to_string(),
                "assumption: Firestore's split points are internal",
                true,
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Consistency::*, Operation::*, SettingValue};

    fn model_with(pairs: &[(&str, SettingValue)]) -> Result<Firestore> {
        Settings::of(StoreKind::Firestore, pairs).and_then(|s| Firestore::new(&s))
    }

    fn demand() -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: 0.0,
            has_local_index: false,
        }
    }

    #[test]
    fn ramp_is_500_50_5() {
        assert_eq!(ramp_ops_per_s(0.0), 500.0);
        assert_eq!(ramp_ops_per_s(4.9), 500.0);
        assert_eq!(ramp_ops_per_s(5.0), 750.0);
        assert_eq!(ramp_ops_per_s(10.0), 1125.0);
        assert_eq!(ramp_ops_per_s(15.0), 1687.5);
        assert!((ramp_ops_per_s(60.0) - 500.0 * 1.5f64.powi(12)).abs() < 1e-9);
        assert_eq!(ramp_ops_per_s(-3.0), 500.0);
        assert_eq!(ramp_ops_per_s(f64::NAN), 500.0);
    }

    #[test]
    fn defaults_have_no_partition_limit_and_the_published_key_limits() {
        let m = model_with(&[]).unwrap();
        let l = m.layout(&demand());
        assert_eq!(l.partitions, 1);
        assert_eq!(
            (
                l.read_limit_per_s,
                l.write_limit_per_s,
                l.combined_limit_per_s
            ),
            (None, None, None)
        );
        assert_eq!(l.item_size_limit_bytes, Some(1_048_576.0));
        assert_eq!(l.item_collection_limit_bytes, None);
        let k = m.key_limits(&demand());
        assert_eq!(k.key_write_per_s, Some(1.0));
        assert_eq!(k.monotonic_write_per_s, Some(500.0));
    }

    #[test]
    fn new_collection_limits_the_collection_to_the_ramp_over_time() {
        // 10 minutes old as the busy period starts: 500 × 1.5² = 1,125 ops/s
        // until the collection is 15 minutes old (second 300), then 1,687.5,
        // then 2,531.25 from second 600; the collection as a whole, not per
        // partition.
        let m = model_with(&[
            ("new_collection", SettingValue::Bool(true)),
            ("collection_age", SettingValue::Number(600.0)),
            ("partitions", SettingValue::Number(3.0)),
        ])
        .unwrap();
        assert_eq!(m.ramp_at_start_per_s(), Some(1125.0));
        assert_eq!(m.layout(&demand()).combined_limit_per_s, None);
        let s = m.table_limit_schedule(&demand(), 0.0, 900.0).unwrap();
        assert_eq!(
            s.steps,
            vec![(0.0, 1125.0), (300.0, 1687.5), (600.0, 2531.25)]
        );
        assert_eq!(s.limit_at(450.0), Some(1687.5));
        // A checkpoint a day later: 288 steps past, 500 × 1.5^290.
        let later = m.table_limit_schedule(&demand(), 86_400.0, 60.0).unwrap();
        assert_eq!(later.steps.len(), 1);
        assert!((later.steps[0].1 / (500.0 * 1.5f64.powi(290)) - 1.0).abs() < 1e-12);
        let fig = m.figures();
        let ramp = fig.iter().find(|f| f.name == "new_collection").unwrap();
        assert!(
            ramp.value.contains("1,125 ops/s as the busy period starts"),
            "{}",
            ramp.value
        );
    }

    #[test]
    fn collection_age_defaults_to_a_collection_created_at_the_start() {
        let m = model_with(&[("new_collection", SettingValue::Bool(true))]).unwrap();
        let s = m.table_limit_schedule(&demand(), 0.0, 1200.0).unwrap();
        // 500, 750, 1,125, 1,687.5 at 0, 5, 10, 15 minutes.
        assert_eq!(
            s.steps,
            vec![
                (0.0, 500.0),
                (300.0, 750.0),
                (600.0, 1125.0),
                (900.0, 1687.5)
            ]
        );
        // 0 is a valid age; off means no schedule.
        assert!(model_with(&[("collection_age", SettingValue::Number(0.0))]).is_ok());
        assert!(model_with(&[])
            .unwrap()
            .table_limit_schedule(&demand(), 0.0, 60.0)
            .is_none());
        let e = model_with(&[("collection_age", SettingValue::Number(-1.0))]).unwrap_err();
        assert!(e.to_string().contains("store.collection_age"), "{e}");
    }

    #[test]
    fn ramp_schedule_stops_where_the_budget_overflows() {
        // 1.5^k overflows f64 near k = 1,751: a 30-day-old collection has no limit.
        let s = ramp_schedule(30.0 * 86_400.0, 3600.0);
        assert_eq!(s.len(), 1);
        assert!(s[0].1.is_infinite());
    }

    #[test]
    fn billing_counts_documents() {
        let m = model_with(&[]).unwrap();
        assert_eq!(m.read_cost(Get, Strong, 500_000.0, 1.0), 1.0);
        assert_eq!(m.read_cost(Query, Eventual, 20_000.0, 20.0), 20.0);
        // A query that returns nothing is still one read.
        assert_eq!(m.read_cost(Query, Eventual, 0.0, 0.0), 1.0);
        assert_eq!(m.write_cost(Put, Eventual, 900_000.0), 1.0);
        assert_eq!(m.write_cost(Delete, Transactional, 10.0), 1.0);
    }

    #[test]
    fn bad_partitions_name_the_key() {
        let e = model_with(&[("partitions", SettingValue::Number(0.5))]).unwrap_err();
        assert!(e.to_string().contains("store.partitions"), "{e}");
    }

    #[test]
    fn every_figure_has_a_source() {
        let figs = model_with(&[]).unwrap().figures();
        for f in &figs {
            assert!(!f.source.is_empty() && !f.value.is_empty(), "{f:?}");
        }
        let doc = figs
            .iter()
            .find(|f| f.name == "document_write_limit")
            .unwrap();
        assert!(doc.assumption && doc.source.contains("guidance"));
    }
}
