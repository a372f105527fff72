//! `kind = "mongodb"`: a sharded MongoDB cluster; a keyheat table is a
//! collection, its partition key the shard key, a partition a chunk (range).
//!
//! Figures and sources (MongoDB Manual unless said otherwise):
//! - Shard key `hashed` (default) or `ranged`. Hashed: a chunk holds a range
//!   of the shard key's hashed value, the signed 64-bit number
//!   `convertShardKeyToHashed` returns: the first 8 bytes, little-endian, of
//!   MD5 over the seed (0, 4 bytes), the value's canonical BSON type (4 bytes)
//!   and the value (MongoDB source `src/mongo/db/hasher.cpp`); keyheat hashes
//!   the key string as a BSON string, checked against the published vectors
//!   of `src/mongo/db/hasher_test.cpp` ("abc" → 8478485326885698097).
//!   The initial chunks of a hashed collection split the hash range evenly
//!   (`shardCollection`, `numInitialChunks`).
//! - Ranged: a chunk holds a contiguous range of shard-key values; keyheat
//!   places a key by its lexicographic position ([`key_position`]) on chunks
//!   of equal data, as the balancer leaves them (an assumption: ranges follow
//!   the data, and keyheat's instance ids are uniform random decimals, so for
//!   them chunks receive equal shares). A monotonically increasing shard key
//!   (`{time}`, `{id}`) sends every insert to the chunk holding MaxKey
//!   ("Shard Keys": monotonically changing shard keys): the engine does this
//!   for every ranged store ([`StoreModel::ranged`]). After an entity
//!   prefix (`{customer}#{time}`) the same holds within the prefix: one
//!   customer's keys sort together, newest last, so its inserts all go to
//!   the chunk where its range ends, and a hot customer makes a hot chunk
//!   however many chunks its documents fill.
//! - Chunk (range) size 128 MB since MongoDB 5.2, 64 MB before ("Modify
//!   Range Size in a Sharded Cluster"; MongoDB's megabytes are MiB:
//!   134,217,728 bytes). Allowed: 1 to 1024 MB.
//! - Chunks: an empty hashed collection starts with one chunk per shard since
//!   7.2 (SERVER-76405; two per shard before, `numInitialChunks`); the
//!   balancer balances data size per shard since 6.0.3 (no auto-splitting;
//!   "Sharded Cluster Balancer"). keyheat's default: max(shards, ⌈size /
//!   chunk size⌉), the chunks spread round-robin over the shards (equal
//!   counts). A new, empty ranged collection really sits in one chunk on its
//!   primary shard until it outgrows the migration threshold: set
//!   `chunks = 1` to model that.
//! - Jumbo chunks: the documents of one shard-key value cannot be split
//!   across chunks, so one value over the chunk size makes a jumbo chunk the
//!   balancer cannot move ("Jumbo Chunks"): the item-collection ceiling is
//!   the chunk size, and a `partition_size` breach reads "jumbo chunk".
//! - Document ≤ 16 MiB = 16,777,216 bytes ("MongoDB Limits and Thresholds",
//!   BSON document size): the item ceiling.
//! - Throughput: MongoDB publishes no per-shard figure. `shard_ops_per_s`
//!   (default 10,000 operations/s per shard) is an ASSUMPTION for a
//!   replica-set primary with 8 vCPU, the working set in the WiredTiger
//!   cache, documents ≤ 1 KB, single-document operations and `w: 1`;
//!   measure your own. A chunk has no throughput of its own: it shares
//!   its shard's, so only the shards are limited (`hot_node`; the
//!   throttled share is the load over the shards' limit) and
//!   `hot_partition` does not apply. The engine still simulates chunks
//!   in key order (`partitions.csv`) and sums them by shard (the load
//!   chart and heatmap).
//!   Every request (find, insert, update, delete) costs
//!   1 op on the shard owning its chunk; reads go to the primary (read
//!   preference `primary`, the default).
//! - [`analyze_shard_key`] reports, for a scenario, the characteristics
//!   MongoDB 7.0's `analyzeShardKey` reports for a live collection.

use super::Figure;
use super::{
    figure, CheckLevel, NodeLayout, Settings, StaticCheck, StoreModel, TableDemand, TableLayout,
};
use crate::distributions::popularity::harmonic;
use crate::error::Result;
use crate::format::exact;
use crate::format::sig3;
use crate::scenario::{
    Consistency, KeyTemplate, Operation, Popularity, Scenario, SettingValue, ShardStrategy,
    StoreKind, TemplatePart,
};

/// Shards when `shards` is not set (a keyheat default).
pub const DEFAULT_SHARDS: usize = 3;
/// Chunk (range) size since MongoDB 5.2: 128 MB = 134,217,728 bytes.
pub const CHUNK_SIZE: f64 = 128.0 * 1024.0 * 1024.0;
/// Chunk size before MongoDB 5.2: 64 MB = 67,108,864 bytes.
pub const CHUNK_SIZE_BEFORE_5_2: f64 = 64.0 * 1024.0 * 1024.0;
/// Smallest chunk size MongoDB accepts: 1 MB.
pub const MIN_CHUNK_SIZE: f64 = 1024.0 * 1024.0;
/// Largest chunk size MongoDB accepts: 1024 MB.
pub const MAX_CHUNK_SIZE: f64 = 1024.0 * 1024.0 * 1024.0;
/// Largest BSON document: 16 MiB = 16,777,216 bytes.
pub const DOCUMENT_SIZE_LIMIT: f64 = 16_777_216.0;
/// Operations per second one shard serves: an ASSUMPTION (see the module docs).
pub const SHARD_OPS_PER_S: f64 = 10_000.0;
/// Chunks keyheat simulates one by one; beyond this, each simulated
/// partition stands for a run of consecutive chunks on one shard (shard
/// loads are unchanged, the per-chunk view coarsens).
pub const MAX_PARTITIONS: usize = 4096;
/// Most common values `analyzeShardKey` returns (its default).
pub const MOST_COMMON_VALUES: usize = 5;

/// How chunks divide the shard key's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardKey {
    /// Chunks are ranges of the value's MD5-derived hash.
    Hashed,
    /// Chunks are ranges of the values themselves.
    Ranged,
}

impl ShardKey {
    /// Scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ShardKey::Hashed => "hashed",
            ShardKey::Ranged => "ranged",
        }
    }

    /// The `shard_key` setting of `settings` (default hashed).
    fn of(map: &std::collections::BTreeMap<String, SettingValue>) -> Option<ShardKey> {
        match map.get("shard_key") {
            None => Some(ShardKey::Hashed),
            // Case aside, as the settings take it (`shard_key = "Ranged"`).
            Some(SettingValue::Text(t)) if t.eq_ignore_ascii_case("hashed") => {
                Some(ShardKey::Hashed)
            }
            Some(SettingValue::Text(t)) if t.eq_ignore_ascii_case("ranged") => {
                Some(ShardKey::Ranged)
            }
            Some(_) => None,
        }
    }
}

/// A sharded MongoDB collection.
#[derive(Debug, Clone, PartialEq)]
pub struct MongoDb {
    shards: usize,
    shard_key: ShardKey,
    chunk_size: f64,
    chunks: Option<usize>,
    shard_ops_per_s: f64,
    item_size_limit: f64,
    /// Bytes one shard stores (`node_storage`), if judged.
    node_storage: Option<f64>,
    set: Vec<String>,
}

impl MongoDb {
    /// Reads the MongoDB settings; anything omitted takes its default.
    ///
    /// # Errors
    /// A scenario error naming `store.<setting>` when `shards` or `chunks` is
    /// not a whole number ≥ 1, `shard_key` is not `hashed` / `ranged`,
    /// `chunk_size` is outside MongoDB's 1–1024 MB, or a limit is not > 0.
    pub fn new(s: &Settings) -> Result<MongoDb> {
        let shards = s.count("shards").unwrap_or(DEFAULT_SHARDS);
        let chunks = s.count("chunks");
        let shard_key = match s.word("shard_key") {
            Some("ranged") => ShardKey::Ranged,
            _ => ShardKey::Hashed,
        };
        let get = |name: &str, default: f64| s.number(name).unwrap_or(default);
        let chunk_size = get("chunk_size", CHUNK_SIZE);
        let shard_ops_per_s = get("shard_ops_per_s", SHARD_OPS_PER_S);
        let item_size_limit = get("item_size_limit", DOCUMENT_SIZE_LIMIT);
        Ok(MongoDb {
            shards,
            shard_key,
            chunk_size,
            chunks,
            shard_ops_per_s,
            item_size_limit,
            node_storage: s.node_storage()?,
            set: s.given(),
        })
    }

    /// Whether the shard key is hashed or ranged.
    pub fn shard_key(&self) -> ShardKey {
        self.shard_key
    }

    /// Chunks of a collection of `bytes`: the `chunks` setting, else
    /// max(shards, ⌈bytes / chunk size⌉).
    ///
    /// ```
    /// use keyheat::store::mongodb::MongoDb;
    /// // 10 GiB in 128 MiB chunks over 3 shards: 80 chunks.
    /// assert_eq!(MongoDb::default_chunks(10.0 * 1024f64.powi(3), 128.0 * 1024f64.powi(2), 3), 80);
    /// // An empty collection: one chunk per shard (MongoDB 7.2+, hashed).
    /// assert_eq!(MongoDb::default_chunks(0.0, 128.0 * 1024f64.powi(2), 3), 3);
    /// ```
    pub fn default_chunks(bytes: f64, chunk_size: f64, shards: usize) -> usize {
        let by_size = (bytes / chunk_size).ceil();
        let by_size = if by_size.is_finite() && by_size > 0.0 {
            by_size.min(1e12) as usize
        } else {
            0
        };
        by_size.max(shards).max(1)
    }

    /// Chunks of the collection described by `table`.
    pub fn chunks(&self, table: &TableDemand) -> usize {
        self.chunks.unwrap_or_else(|| {
            Self::default_chunks(table.initial_bytes, self.chunk_size, self.shards)
        })
    }

    /// The shard owning simulated partition `partition` of `partitions`:
    /// round-robin, so every shard holds the same number of chunks.
    pub fn shard_of(&self, partition: usize) -> usize {
        partition % self.shards.max(1)
    }

    /// The chunk (in `0..chunks`) `key` lands in.
    pub fn chunk_of(&self, key: &str, chunks: usize) -> usize {
        match self.shard_key {
            ShardKey::Hashed => hash_range(hashed_string(key), chunks),
            ShardKey::Ranged => position_range(key_position(key), chunks),
        }
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }
}

/// MongoDB's hashed value of a string shard-key value, as
/// `convertShardKeyToHashed("…")` returns it: the first 8 bytes,
/// little-endian, of MD5(seed 0 as i32 ‖ canonical type 15 as i32 ‖ the BSON
/// string: length + 1 as i32, the UTF-8 bytes, a NUL).
///
/// ```
/// use keyheat::store::mongodb::hashed_string;
/// // MongoDB src/mongo/db/hasher_test.cpp, HashString.
/// assert_eq!(hashed_string("abc"), 8478485326885698097);
/// assert_eq!(hashed_string(""), 2049396243249673340);
/// ```
pub fn hashed_string(value: &str) -> i64 {
    let mut md5 = md5::Context::new();
    md5.consume(0i32.to_le_bytes());
    md5.consume(15i32.to_le_bytes());
    let len = i32::try_from(value.len() + 1).unwrap_or(i32::MAX);
    md5.consume(len.to_le_bytes());
    md5.consume(value.as_bytes());
    md5.consume([0u8]);
    first_eight_le(&md5.finalize().0)
}

/// MongoDB's hashed value of a numeric shard-key value (int, long or double,
/// squashed to a 64-bit integer as MongoDB does): MD5(seed 0 ‖ canonical type
/// 10 ‖ the i64, little-endian), first 8 bytes.
///
/// ```
/// use keyheat::store::mongodb::hashed_long;
/// // MongoDB src/mongo/db/hasher_test.cpp, HashIntOrLongOrDouble.
/// assert_eq!(hashed_long(42), -944302157085130861);
/// assert_eq!(hashed_long(0), 4854801880128277513);
/// ```
pub fn hashed_long(value: i64) -> i64 {
    let mut md5 = md5::Context::new();
    md5.consume(0i32.to_le_bytes());
    md5.consume(10i32.to_le_bytes());
    md5.consume(value.to_le_bytes());
    first_eight_le(&md5.finalize().0)
}

fn first_eight_le(digest: &[u8; 16]) -> i64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&digest[..8]);
    i64::from_le_bytes(b)
}

/// The range of `n` equal ranges of the signed hash space (MinKey side
/// first) holding `hash`.
fn hash_range(hash: i64, n: usize) -> usize {
    super::hash::range_of((hash as u64) ^ (1 << 63), n.max(1))
}

/// The range of `n` equal ranges of [0, 1) holding `position`.
fn position_range(position: f64, n: usize) -> usize {
    let n = n.max(1);
    ((position * n as f64) as usize).min(n - 1)
}

/// A key's position in a ranged key space, in [0, 1): where its chunk
/// (MongoDB ranged) or tablet (Bigtable) lies when ranges hold equal data.
///
/// The literal prefix every key of a table shares (`USER#`, `sensor:`) is
/// skipped up to the first ASCII digit; the digits that follow, across
/// separators, are read as the lexicographic quantile of a decimal id
/// without leading zeros: first digit d in 1..9 → [(d−1)/9, d/9), each next
/// digit a tenth of that. keyheat's instance ids are such numbers, uniform
/// over 0..10¹², so their positions are uniform and equal-data ranges get
/// equal shares. A leading `0` (zero-padded numbers) reads the digits as a
/// plain decimal fraction. `<` (the `<time>` / `<id>` marker of a key that is
/// newer than every stored key) sits at the top of the range it falls in. A
/// key with no digit and no `<` is placed by its bytes as a base-256
/// fraction. The order is lexicographic for keys of one shape; keys that
/// differ only past 15 digits, or as `k` and `k0`, share a position.
///
/// ```
/// use keyheat::store::mongodb::key_position;
/// assert_eq!(key_position("USER#1"), 0.0);
/// assert!((key_position("USER#5") - 4.0 / 9.0).abs() < 1e-12);
/// assert!(key_position("USER#19") < key_position("USER#2"));
/// assert!(key_position("EVENT#<time>") > 0.999_999);
/// assert!(key_position("apple") < key_position("banana"));
/// ```
pub fn key_position(key: &str) -> f64 {
    let bytes = key.as_bytes();
    let Some(start) = bytes.iter().position(|b| b.is_ascii_digit() || *b == b'<') else {
        // No digits: raw bytes as a base-256 fraction.
        let mut q = 0.0;
        let mut w = 1.0;
        for &b in bytes.iter().take(8) {
            w /= 256.0;
            q += f64::from(b) * w;
        }
        return q.min(1.0 - f64::EPSILON);
    };
    let mut lo = 0.0f64;
    let mut width = 1.0f64;
    let mut first = true;
    for &b in &bytes[start..] {
        match b {
            b'0'..=b'9' => {
                let d = f64::from(b - b'0');
                if first && d >= 1.0 {
                    lo = (d - 1.0) / 9.0;
                    width = 1.0 / 9.0;
                } else {
                    width /= 10.0;
                    lo += d * width;
                }
                first = false;
            }
            b'<' => return (lo + width * (1.0 - 1e-9)).min(1.0 - f64::EPSILON),
            _ => {}
        }
        if width < 1e-16 {
            break;
        }
    }
    lo.min(1.0 - f64::EPSILON)
}

impl StoreModel for MongoDb {
    /// A shard's stored bytes are judged when `node_storage` is set (each
    /// member of the shard's replica set stores them all).
    fn key_overhead_bytes(&self) -> Option<f64> {
        self.node_storage.map(|_| 0.0)
    }

    fn node_storage_check(&self) -> &'static str {
        "node_storage"
    }

    /// A shard's bytes once: each member of its replica set stores them all.
    fn stored_copies(&self) -> &'static str {
        "one copy a shard, as each member of its replica set stores it"
    }

    /// The `analyzeShardKey` characteristics of each collection's shard
    /// key as a `shard_key` check — warn when a ranged key is monotonic, when the
    /// most common value holds more than 1/shards of the documents, or when more
    /// than half the reads scatter-gather.
    fn static_checks(&self, scenario: &Scenario) -> Vec<StaticCheck> {
        let shards = self.shards.max(1) as f64;
        (0..scenario.tables.len())
            .filter_map(|ti| analyze_shard_key(scenario, ti))
            .map(|a| {
                let top = a.most_common_values.first().map_or(0.0, |v| v.1);
                let mut problems = Vec::new();
                if a.monotonicity == Monotonicity::Monotonic && a.sharding == ShardKey::Ranged {
                    problems.push("a monotonic ranged key sends every insert to the MaxKey chunk");
                }
                if top > 1.0 / shards {
                    problems.push("the most common value holds more than one shard's share");
                }
                if a.reads_scatter_gather_share > 0.5 {
                    problems.push("most reads scatter-gather");
                }
                let cardinality = if a.cardinality.is_finite() {
                    exact(a.cardinality.round())
                } else {
                    "unbounded".to_string()
                };
                StaticCheck {
                    check: "shard_key",
                    table: a.table.clone(),
                    level: if problems.is_empty() { CheckLevel::Pass } else { CheckLevel::Warn },
                    detail: format!(
                        "analyzeShardKey of `{}` ({}): cardinality {cardinality}, most common value {}% of documents, {}; reads {}% single-shard / {}% multi-shard / {}% scatter-gather; writes {}% single-shard{}",
                        a.shard_key,
                        a.sharding.as_str(),
                        sig3(100.0 * top),
                        a.monotonicity.as_str(),
                        sig3(100.0 * a.reads_single_shard_share),
                        sig3(100.0 * a.reads_multi_shard_share),
                        sig3(100.0 * a.reads_scatter_gather_share),
                        sig3(100.0 * a.writes_single_shard_share),
                        if problems.is_empty() { String::new() } else { format!("; {}", problems.join("; ")) }
                    ),
                }
            })
            .collect()
    }

    fn kind(&self) -> StoreKind {
        StoreKind::MongoDb
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("ops", "ops")
    }

    fn partition_count(&self, table: &TableDemand) -> usize {
        self.chunks(table).clamp(1, MAX_PARTITIONS)
    }

    fn layout(&self, table: &TableDemand) -> TableLayout {
        let partitions = self.partition_count(table);
        TableLayout {
            partitions,
            read_limit_per_s: None,
            write_limit_per_s: None,
            // A chunk has no throughput of its own: it shares its shard's
            // (the nodes' limit), as a Redis slot shares its master's.
            combined_limit_per_s: None,
            item_collection_limit_bytes: Some(self.chunk_size),
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: Some(NodeLayout {
                label: "shard",
                nodes: self.shards,
                replicas: (0..partitions).map(|p| vec![self.shard_of(p)]).collect(),
                read_replicas: 1,
                read_limit_per_s: None,
                write_limit_per_s: None,
                combined_limit_per_s: Some(self.shard_ops_per_s),
                memory_limit_bytes: self.node_storage,
            }),
        }
    }

    /// The simulated partition holding the key's chunk: hashed, the equal
    /// hash range holding `convertShardKeyToHashed(key)`; ranged, the equal
    /// range of [`key_position`].
    fn place(&self, key: &str, partitions: usize) -> usize {
        self.chunk_of(key, partitions)
    }

    /// A jumbo chunk's usual fix in MongoDB is a shard key of higher
    /// cardinality, not a time bucket or write shards ("Jumbo chunks";
    /// `refineCollectionShardKey`, 4.4+).
    fn breach_note(&self, check: &str) -> Option<String> {
        (check == "partition_size").then(|| {
            "a jumbo chunk: MongoDB's usual fix is a shard key of higher cardinality, a compound key with a unique suffix (partition_key = \"{entity}#{id}\", refineCollectionShardKey), so that one value's documents split across chunks; write shards are the same with a suffix of that many values".into()
        })
    }

    fn read_cost(&self, _op: Operation, _c: Consistency, _bytes: f64, _items: f64) -> f64 {
        1.0
    }

    fn write_cost(&self, _op: Operation, _c: Consistency, _bytes: f64) -> f64 {
        1.0
    }

    /// The balancer evens data size per shard (since 6.0.3); a jumbo chunk
    /// cannot move.
    fn balances_stored_bytes(&self) -> bool {
        true
    }

    fn ranged(&self) -> bool {
        self.shard_key == ShardKey::Ranged
    }

    /// A scatter-gather request (see [`analyze_shard_key`]'s rules) reaches
    /// every shard: mongos broadcasts it ("Sharded cluster query routing":
    /// queries without the shard key are broadcast to all shards).
    fn broadcast(&self, scenario: &crate::scenario::Scenario, pattern: usize) -> bool {
        scenario.access_patterns.get(pattern).is_some_and(|p| {
            analyze_shard_key(scenario, p.table)
                .is_some_and(|a| a.scatter_gather_patterns.contains(&pattern))
        })
    }

    /// MongoDB indexes are local to each shard ("Sharded cluster query
    /// routing"; "Indexes" on sharded collections): a read through an index
    /// without the shard key goes to every shard, one with it to one shard.
    fn global_indexes(&self) -> bool {
        false
    }

    fn max_partitions(&self) -> Option<usize> {
        Some(MAX_PARTITIONS)
    }

    fn describe_placement(&self, key: &str, table: &TableDemand) -> String {
        let chunks = self.chunks(table).max(1);
        let chunk = self.chunk_of(key, chunks);
        let partitions = chunks.min(MAX_PARTITIONS);
        // Chunk c belongs to simulated partition ⌊c·P/chunks⌋.
        let partition = ((chunk as u128 * partitions as u128) / chunks as u128) as usize;
        let shard = self.shard_of(partition);
        match self.shard_key {
            ShardKey::Hashed => {
                format!("chunk={chunk} shard={shard} hashed={}", hashed_string(key))
            }
            ShardKey::Ranged => format!(
                "chunk={chunk} shard={shard} position={:.6}",
                key_position(key)
            ),
        }
    }

    fn figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let manual = "MongoDB Manual";
        let mut out = vec![
            f("shards", self.shards.to_string(), "keyheat default", true),
            f(
                "shard_key",
                self.shard_key.as_str().to_string(),
                "keyheat default (hashed spreads monotonic keys)",
                true,
            ),
            match self.shard_key {
                ShardKey::Hashed => f(
                    "placement",
                    "hashed: first 8 bytes (little-endian i64) of MD5(seed 0 ‖ BSON type 15 ‖ the key as a BSON string), on equal ranges of the hash space".into(),
                    "MongoDB source src/mongo/db/hasher.cpp (convertShardKeyToHashed); vectors of hasher_test.cpp",
                    false,
                ),
                ShardKey::Ranged => f(
                    "placement",
                    "ranged: the key's lexicographic position (shared literal prefix skipped, digits as a decimal id) on chunks of equal data; monotonic {time}/{id} inserts all go to the chunk holding MaxKey, or after an entity prefix ({customer}#{time}) to the chunk where that instance's range ends".into(),
                    "assumption: ranges follow the data as the balancer leaves them (Manual: Ranged Sharding; Shard Keys, monotonically changing shard keys)",
                    true,
                ),
            },
            f(
                "chunk_size",
                format!(
                    "{} bytes ({} MiB)",
                    exact(self.chunk_size),
                    exact(self.chunk_size / 1_048_576.0)
                ),
                &format!("{manual}: Modify Range Size in a Sharded Cluster (128 MB since 5.2, 64 MB before)"),
                false,
            ),
            f(
                "chunks",
                match self.chunks {
                    Some(c) => c.to_string(),
                    None => "max(shards, ceil(size / chunk_size))".into(),
                },
                &format!("{manual}: shardCollection numInitialChunks (1 chunk per shard for an empty hashed collection since 7.2, SERVER-76405; 2 before); data beyond splits by chunk size"),
                true,
            ),
            f(
                "balancer",
                format!(
                    "chunks round-robin over the shards (equal counts); more than {MAX_PARTITIONS} chunks are simulated as {MAX_PARTITIONS} runs of consecutive chunks"
                ),
                &format!("{manual}: Sharded Cluster Balancer (balances data size per shard since 6.0.3; no auto-splitting)"),
                true,
            ),
            f(
                "jumbo chunk (partition_size)",
                format!(
                    "item-collection ceiling = chunk size ({} bytes): one shard-key value's documents over it form a jumbo chunk that cannot split or migrate; a partition_size breach is the day a jumbo chunk appears",
                    exact(self.chunk_size)
                ),
                &format!("{manual}: Jumbo Chunks"),
                false,
            ),
            f(
                "item_size_limit",
                format!("{} bytes (16 MiB BSON document)", exact(self.item_size_limit)),
                &format!("{manual}: MongoDB Limits and Thresholds, BSON Document Size"),
                false,
            ),
            f(
                "shard_ops_per_s",
                format!("{} ops/s per shard", exact(self.shard_ops_per_s)),
                "ASSUMPTION: MongoDB publishes no per-shard throughput; a replica-set primary with 8 vCPU, working set in the WiredTiger cache, documents ≤ 1 KB, single-document operations, w: 1. Only the shards are limited: a chunk has no throughput of its own, so hot_partition does not apply and the load over it is the shards' (hot_node)",
                true,
            ),
            f(
                "capacity units",
                "1 op per request (find, insert, update, delete) on the shard owning its chunk; reads go to the primary".into(),
                &format!("assumption; {manual}: Read Preference (primary is the default)"),
                true,
            ),
        ];
        out.extend(super::node_storage_figure(
            self.node_storage,
            self.stored_copies(),
        ));
        out
    }
}

/// `analyzeShardKey`'s monotonicity verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Monotonicity {
    /// Values grow with insertion order (`{time}`, `{id}`, a time bucket or a
    /// `new` entity leads the key).
    Monotonic,
    /// Values do not follow insertion order (an entity or a salt leads).
    NotMonotonic,
    /// The key has no placeholder (a single value): undefined.
    Unknown,
}

impl Monotonicity {
    /// `"monotonic"`, `"not monotonic"` or `"unknown"`, as `analyzeShardKey` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Monotonicity::Monotonic => "monotonic",
            Monotonicity::NotMonotonic => "not monotonic",
            Monotonicity::Unknown => "unknown",
        }
    }
}

/// The shard-key characteristics MongoDB 7.0's `analyzeShardKey` reports,
/// computed from a scenario before the collection exists.
///
/// Shares are of the patterns' mean request rates; each triple sums to 1
/// (or is all 0 when the table has no reads, or no writes).
#[derive(Debug, Clone, PartialEq)]
pub struct ShardKeyAnalysis {
    /// Table (collection) name.
    pub table: String,
    /// The shard key: the table's partition-key template as written.
    pub shard_key: String,
    /// Hashed or ranged (the scenario's `store.shard_key`, default hashed).
    pub sharding: ShardKey,
    /// Distinct shard-key values over the horizon (entity counts × write
    /// shards × time buckets); `f64::INFINITY` when every insert makes a new
    /// value (`{time}`, `{id}` or a `new` entity in the key).
    pub cardinality: f64,
    /// The [`MOST_COMMON_VALUES`] values holding the most documents, with
    /// their share of the collection's documents, most first. Values are the
    /// key with `<entity #rank>` for its instances; empty when every value
    /// holds one insert.
    pub most_common_values: Vec<(String, f64)>,
    /// Whether values grow with insertion order.
    pub monotonicity: Monotonicity,
    /// Reads that target one shard (the filter names the whole shard key).
    pub reads_single_shard_share: f64,
    /// Reads that target several but not necessarily all shards (hashed
    /// values of write shards or time buckets).
    pub reads_multi_shard_share: f64,
    /// Reads sent to every shard (no shard key in the filter, a range over a
    /// hashed key, a secondary index without the shard key).
    pub reads_scatter_gather_share: f64,
    /// Writes that target one shard (inserts carry the whole shard key).
    pub writes_single_shard_share: f64,
    /// Writes that target several shards.
    pub writes_multi_shard_share: f64,
    /// Access patterns (indices into `scenario.access_patterns`) sent to
    /// every shard: the engine broadcasts them ([`StoreModel::broadcast`]).
    pub scatter_gather_patterns: Vec<usize>,
    /// Writes sent to every shard (an update or delete by another field).
    pub writes_scatter_gather_share: f64,
}

/// How a request reaches the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Targeting {
    Single,
    Multi,
    ScatterGather,
}

/// `analyzeShardKey` for table `table` of `scenario`: cardinality, most
/// common values, monotonicity, and the single-shard / multi-shard /
/// scatter-gather split of reads and writes.
///
/// Rules: a read whose `by` entity is not in the shard key, or that goes
/// through a secondary index lacking the shard key's entities, is
/// scatter-gather; a `query` over a key with `{time}` / `{id}` (a range of
/// shard-key values) is scatter-gather when hashed and single-shard when
/// ranged; a read that fans out over write shards or time buckets is
/// multi-shard when hashed, single-shard when ranged and the varying part
/// follows every entity (adjacent values); inserts and appends carry the
/// whole shard key (single-shard); an update or delete by an entity outside
/// the shard key is scatter-gather. `None` when `table` is not a table index.
///
/// ```
/// use keyheat::store::mongodb::{analyze_shard_key, Monotonicity};
/// let s = keyheat::Scenario::from_str_at(r#"
/// schema_version = 1
/// name = "x"
/// [store]
/// kind = "mongodb"
/// shard_key = "ranged"
/// [[entity]]
/// name = "user"
/// count = 1000
/// [[table]]
/// name = "events"
/// partition_key = "{time}"
/// item_size = "1KB"
/// [[access_pattern]]
/// name = "log"
/// table = "events"
/// operation = "put"
/// rate = 100
/// "#, "x.toml").unwrap();
/// let a = analyze_shard_key(&s, 0).unwrap();
/// assert_eq!(a.monotonicity, Monotonicity::Monotonic);
/// assert!(a.cardinality.is_infinite());
/// assert_eq!(a.writes_single_shard_share, 1.0);
/// ```
pub fn analyze_shard_key(scenario: &Scenario, table: usize) -> Option<ShardKeyAnalysis> {
    let t = scenario.tables.get(table)?;
    let sharding = ShardKey::of(&scenario.store.settings).unwrap_or(ShardKey::Hashed);
    let sk = &t.partition_key;
    let entity = |name: &str| scenario.entities.iter().find(|e| e.name == name);
    let count_of = |name: &str| -> f64 {
        match entity(name).map(|e| &e.popularity) {
            Some(Popularity::Weights { weights }) => weights.len().max(1) as f64,
            _ => entity(name).map_or(1.0, |e| e.count.max(1) as f64),
        }
    };
    let is_new = |name: &str| entity(name).is_some_and(|e| e.popularity == Popularity::New);
    let sk_entities = sk.entities();
    let fresh = sk.has(&TemplatePart::Time)
        || sk.has(&TemplatePart::Id)
        || sk_entities.iter().any(|e| is_new(e));
    let shards = if sk.has(&TemplatePart::Shard) {
        f64::from(t.shards.max(1))
    } else {
        1.0
    };
    let buckets = match t.bucket_s {
        Some(b) if b > 0.0 && sk.has(&TemplatePart::Bucket) => {
            (scenario.simulation.horizon_days * 86_400.0 / b)
                .ceil()
                .max(1.0)
        }
        _ => 1.0,
    };
    let entity_product: f64 = sk_entities.iter().map(|e| count_of(e)).product();
    let cardinality = if fresh {
        f64::INFINITY
    } else {
        entity_product * shards * buckets
    };

    // Monotonicity: the first placeholder decides; a hashed key's values
    // are hashes, which no insert order follows (analyzeShardKey reports
    // a hashed shard key "not monotonic").
    let monotonicity = sk
        .parts
        .iter()
        .find(|p| !matches!(p, TemplatePart::Literal(_)))
        .map_or(Monotonicity::Unknown, |p| match p {
            _ if sharding == ShardKey::Hashed => Monotonicity::NotMonotonic,
            TemplatePart::Time | TemplatePart::Id | TemplatePart::Bucket => Monotonicity::Monotonic,
            TemplatePart::Entity(e) if is_new(e) => Monotonicity::Monotonic,
            _ => Monotonicity::NotMonotonic,
        });

    let most_common_values = if fresh {
        Vec::new()
    } else {
        most_common(
            scenario,
            table,
            &sk_entities,
            shards,
            buckets,
            entity_product,
        )
    };

    // Targeting of each pattern.
    let mut reads = [0.0f64; 3];
    let mut writes = [0.0f64; 3];
    let mut scatter_gather_patterns = Vec::new();
    let shape = KeyShape {
        table: t,
        entities: &sk_entities,
        fresh,
        // A key without placeholders is one value: every request hits its chunk.
        constant: sk
            .parts
            .iter()
            .all(|p| matches!(p, TemplatePart::Literal(_))),
        varying_after_entities: varying_parts_follow_entities(sk),
        entities_lead: entities_lead(sk),
        sharding,
    };
    for (pi, p) in scenario
        .access_patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.table == table)
    {
        let target = shape.targeting(p);
        let slot = match target {
            Targeting::Single => 0,
            Targeting::Multi => 1,
            Targeting::ScatterGather => {
                scatter_gather_patterns.push(pi);
                2
            }
        };
        if p.operation.is_write() {
            writes[slot] += p.rate_per_s;
        } else {
            reads[slot] += p.rate_per_s;
        }
    }
    let norm = |v: [f64; 3]| {
        let total: f64 = v.iter().sum();
        if total > 0.0 {
            [v[0] / total, v[1] / total, v[2] / total]
        } else {
            [0.0; 3]
        }
    };
    let (r, w) = (norm(reads), norm(writes));
    Some(ShardKeyAnalysis {
        table: t.name.clone(),
        shard_key: sk.keyed_text(),
        sharding,
        cardinality,
        most_common_values,
        monotonicity,
        reads_single_shard_share: r[0],
        reads_multi_shard_share: r[1],
        reads_scatter_gather_share: r[2],
        writes_single_shard_share: w[0],
        writes_multi_shard_share: w[1],
        writes_scatter_gather_share: w[2],
        scatter_gather_patterns,
    })
}

/// What decides where a request on one collection's shard key goes.
struct KeyShape<'a> {
    table: &'a crate::scenario::Table,
    /// The entities the shard key names.
    entities: &'a [&'a str],
    /// Whether every insert makes a new key value (`{time}`, `{id}`, `new`).
    fresh: bool,
    /// Whether the key has no placeholder (one value).
    constant: bool,
    /// Whether every `{shard}` / `{bucket}` follows the key's last entity.
    varying_after_entities: bool,
    /// Whether the key names an entity and its entities all come before
    /// its first `{time}` / `{id}` (a prefix of the key).
    entities_lead: bool,
    sharding: ShardKey,
}

impl KeyShape<'_> {
    /// How MongoDB routes a request of pattern `p` ("Sharded cluster query
    /// routing"): to one shard, to several, or to all (scatter-gather).
    fn targeting(&self, p: &crate::scenario::AccessPattern) -> Targeting {
        let t = self.table;
        let (sk_entities, fresh, sharding) = (self.entities, self.fresh, self.sharding);
        let by_outside =
            p.by.as_deref()
                .is_some_and(|b| !self.constant && !sk_entities.contains(&b));
        if p.operation == Operation::Scan {
            // A scan reads every chunk of the collection.
            Targeting::ScatterGather
        } else if p.operation.is_write() {
            match p.operation {
                Operation::Update | Operation::Delete if by_outside => Targeting::ScatterGather,
                _ => Targeting::Single,
            }
        } else if let Some(x) = p.index {
            let holds = t.indexes.get(x).is_some_and(|ix| {
                let ix_entities = ix.partition_key.entities();
                sk_entities.iter().all(|e| ix_entities.contains(e))
            });
            match (holds, fresh, sharding) {
                (true, false, _) => Targeting::Single,
                // The shard key's leading fields (`{tenant}` of `{ tenantId:
                // 1, ts: 1 }`) target a ranged key's chunks of those values
                // ("Sharded cluster query routing": a query on a prefix of
                // a compound shard key is targeted); a hashed key is routed
                // by its whole value's hash.
                (true, true, ShardKey::Ranged) if self.entities_lead => Targeting::Single,
                _ => Targeting::ScatterGather,
            }
        } else if by_outside {
            Targeting::ScatterGather
        } else if fresh && p.operation == Operation::Query {
            match sharding {
                ShardKey::Hashed => Targeting::ScatterGather,
                ShardKey::Ranged => Targeting::Single,
            }
        } else {
            let n = t.shards.max(1);
            let span = match (t.bucket_s, p.range_s) {
                (Some(b), Some(r)) if b > 0.0 => (r / b).ceil().max(1.0) as u32,
                _ => 1,
            };
            let fan = match p.operation {
                Operation::Get if t.shard_strategy == ShardStrategy::Calculated => 1,
                Operation::Get => n,
                _ => n.saturating_mul(span),
            };
            if fan <= 1 {
                Targeting::Single
            } else {
                match sharding {
                    ShardKey::Ranged if self.varying_after_entities => Targeting::Single,
                    _ => Targeting::Multi,
                }
            }
        }
    }
}

/// The position of key `sk`'s last entity part, if it names one.
fn last_entity(sk: &KeyTemplate) -> Option<usize> {
    sk.parts
        .iter()
        .rposition(|p| matches!(p, TemplatePart::Entity(_)))
}

/// Whether key `sk` names an entity and every entity comes before its
/// first `{time}` / `{id}`: a read that knows the entities alone knows a
/// prefix of the key.
fn entities_lead(sk: &KeyTemplate) -> bool {
    let first_fresh = sk
        .parts
        .iter()
        .position(|p| matches!(p, TemplatePart::Time | TemplatePart::Id));
    match (last_entity(sk), first_fresh) {
        (Some(e), Some(f)) => e < f,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// Whether every `{shard}` / `{bucket}` of the key comes after its last
/// entity, so the values a fan-out reads are adjacent in key order.
fn varying_parts_follow_entities(sk: &KeyTemplate) -> bool {
    let first_varying = sk
        .parts
        .iter()
        .position(|p| matches!(p, TemplatePart::Shard | TemplatePart::Bucket));
    match (last_entity(sk), first_varying) {
        (Some(e), Some(v)) => v > e,
        _ => true,
    }
}

/// The most common shard-key values by share of documents.
fn most_common(
    scenario: &Scenario,
    table: usize,
    sk_entities: &[&str],
    shards: f64,
    buckets: f64,
    entity_product: f64,
) -> Vec<(String, f64)> {
    let t = &scenario.tables[table];
    let k = MOST_COMMON_VALUES;
    let entity = |name: &str| scenario.entities.iter().find(|e| e.name == name);
    let count_of = |name: &str| -> u64 {
        match entity(name).map(|e| &e.popularity) {
            Some(Popularity::Weights { weights }) => weights.len().max(1) as u64,
            _ => entity(name).map_or(1, |e| e.count.max(1)),
        }
    };
    // Does a value hold many documents (a sort key that adds items)?
    let many_docs = t.sort_key.as_ref().is_some_and(|s| {
        s.parts.iter().any(|p| {
            matches!(p, TemplatePart::Time | TemplatePart::Id)
                || matches!(p, TemplatePart::Entity(e) if count_of(e) > 1)
        })
    });
    let inserts: Vec<_> = scenario
        .access_patterns
        .iter()
        .filter(|p| p.table == table && p.index.is_none() && p.operation == Operation::Put)
        .collect();
    let total_rate: f64 = inserts
        .iter()
        .map(|p| p.rate_per_s * f64::from(p.items.max(1)))
        .sum();
    let label = |driver: Option<usize>, rank: u64, combo: u64| -> String {
        let mut out = String::new();
        let mut rest = combo;
        for part in &t.partition_key.parts {
            match part {
                TemplatePart::Literal(s) => out.push_str(s),
                TemplatePart::Entity(e) => {
                    let i = sk_entities.iter().position(|x| x == e);
                    if i.is_some() && i == driver {
                        out.push_str(&format!("<{e} #{rank}>"));
                    } else {
                        let c = count_of(e);
                        out.push_str(&format!("<{e} #{}>", rest % c + 1));
                        rest /= c;
                    }
                }
                TemplatePart::Shard => out.push_str("<shard 0>"),
                TemplatePart::Bucket => out.push_str("<bucket>"),
                TemplatePart::Time => out.push_str("<time>"),
                TemplatePart::Id => out.push_str("<id>"),
            }
        }
        out
    };
    let mut candidates: Vec<(String, f64)> = Vec::new();
    if !many_docs || total_rate <= 0.0 || sk_entities.is_empty() {
        // One document per value (or no inserts): every value alike.
        let n = (entity_product * shards * buckets).max(1.0);
        let shown = (k as f64).min(n) as u64;
        for c in 0..shown {
            candidates.push((label(None, 1, c), 1.0 / n));
        }
        return candidates;
    }
    for p in inserts {
        let w = p.rate_per_s * f64::from(p.items.max(1)) / total_rate;
        let driver =
            p.by.as_deref()
                .and_then(|b| sk_entities.iter().position(|e| *e == b))
                .unwrap_or(0);
        let name = sk_entities[driver];
        let popularity = entity(name).map_or(Popularity::Uniform, |e| e.popularity.clone());
        let shares = top_shares(&popularity, count_of(name), k);
        let others: f64 = sk_entities
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != driver)
            .map(|(_, e)| count_of(e) as f64)
            .product();
        let combos = (k as f64).min(others) as u64;
        for (r, share) in shares.iter().enumerate() {
            for c in 0..combos {
                let value = label(Some(driver), r as u64 + 1, c);
                let s = w * share / (others * shards * buckets);
                match candidates.iter_mut().find(|(v, _)| *v == value) {
                    Some(x) => x.1 += s,
                    None => candidates.push((value, s)),
                }
            }
        }
    }
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    candidates.truncate(k);
    candidates
}

/// Shares of the `k` most popular of `count` instances (rank 1 first).
fn top_shares(popularity: &Popularity, count: u64, k: usize) -> Vec<f64> {
    let n = count.max(1);
    let k = (k as u64).min(n);
    match popularity {
        Popularity::Uniform | Popularity::New => vec![1.0 / n as f64; k as usize],
        Popularity::Zipf { exponent } | Popularity::Latest { exponent } => {
            let norm = harmonic(n, *exponent);
            (1..=k).map(|r| (r as f64).powf(-exponent) / norm).collect()
        }
        Popularity::Hotspot {
            hot_fraction,
            hot_share,
        } => {
            let hot = ((n as f64 * hot_fraction).round() as u64).clamp(1, n);
            let each = if hot == n { 1.0 } else { *hot_share } / hot as f64;
            let cold_each = if hot == n {
                0.0
            } else {
                (1.0 - hot_share) / (n - hot) as f64
            };
            (1..=k)
                .map(|r| if r <= hot { each } else { cold_each })
                .collect()
        }
        Popularity::Weights { weights } => {
            let total: f64 = weights.iter().sum();
            let mut w: Vec<f64> = weights
                .iter()
                .map(|x| if total > 0.0 { x / total } else { 0.0 })
                .collect();
            w.sort_by(|a, b| b.total_cmp(a));
            w.truncate(k as usize);
            w
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SettingValue;

    fn model(settings: &[(&str, SettingValue)]) -> Result<MongoDb> {
        Settings::of(StoreKind::MongoDb, settings).and_then(|s| MongoDb::new(&s))
    }

    fn n(x: f64) -> SettingValue {
        SettingValue::Number(x)
    }

    fn w(x: &str) -> SettingValue {
        SettingValue::Text(x.into())
    }

    fn demand(bytes: f64) -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: bytes,
            has_local_index: false,
        }
    }

    #[test]
    fn hashed_values_match_mongodb_hasher_test_vectors() {
        // src/mongo/db/hasher_test.cpp: strings and 64-bit integers.
        assert_eq!(hashed_string("abc"), 8_478_485_326_885_698_097);
        assert_eq!(hashed_string(""), 2_049_396_243_249_673_340);
        assert_eq!(hashed_long(42), -944_302_157_085_130_861);
        assert_eq!(hashed_long(0), 4_854_801_880_128_277_513);
        assert_eq!(hashed_long(1), 5_902_408_780_260_971_510);
        assert_eq!(hashed_long(-1), 1_140_205_862_565_771_219);
        assert_eq!(hashed_long(i64::from(i32::MIN)), 6_165_898_260_261_354_870);
        assert_eq!(hashed_long(i64::from(i32::MAX)), 1_143_184_177_162_245_883);
        assert_eq!(hashed_long(i64::MAX), 921_523_596_458_303_250);
        assert_eq!(hashed_long(i64::MIN), 4_532_067_210_535_695_462);
    }

    #[test]
    fn defaults_are_the_published_figures() {
        let m = model(&[]).unwrap();
        let l = m.layout(&demand(0.0));
        assert_eq!(l.partitions, 3);
        assert_eq!(l.item_collection_limit_bytes, Some(134_217_728.0));
        assert_eq!(l.item_size_limit_bytes, Some(16_777_216.0));
        // A chunk has no throughput of its own: the shards are limited.
        assert_eq!(l.combined_limit_per_s, None);
        assert_eq!((l.read_limit_per_s, l.write_limit_per_s), (None, None));
        let nodes = l.nodes.unwrap();
        assert_eq!(
            (nodes.label, nodes.nodes, nodes.read_replicas),
            ("shard", 3, 1)
        );
        assert_eq!(nodes.combined_limit_per_s, Some(10_000.0));
        assert_eq!(
            nodes
                .replicas
                .iter()
                .map(<[usize]>::to_vec)
                .collect::<Vec<_>>(),
            vec![vec![0], vec![1], vec![2]]
        );
        assert!(!m.ranged());
        assert_eq!(m.unit_names(), ("ops", "ops"));
        // 100 GiB in 128 MiB chunks: 800 chunks, round-robin over 3 shards.
        let l = m.layout(&demand(100.0 * 1024f64.powi(3)));
        assert_eq!(l.partitions, 800);
        let per_shard = |s: usize| {
            l.nodes
                .as_ref()
                .unwrap()
                .replicas
                .iter()
                .filter(|r| r[0] == s)
                .count()
        };
        assert_eq!((per_shard(0), per_shard(1), per_shard(2)), (267, 267, 266));
        // 1 PB: 7.45 M chunks, simulated as 4,096 runs.
        assert_eq!(m.layout(&demand(1e15)).partitions, MAX_PARTITIONS);
    }

    #[test]
    fn settings_are_checked() {
        assert!(model(&[("shards", n(0.0))]).is_err());
        assert!(model(&[("shards", n(2.5))]).is_err());
        assert!(model(&[("chunks", n(0.0))]).is_err());
        assert!(model(&[("shard_key", w("range"))]).is_err());
        // MongoDB accepts 1..=1024 MB.
        assert!(model(&[("chunk_size", n(512.0 * 1024.0))]).is_err());
        assert!(model(&[("chunk_size", n(2048.0 * 1_048_576.0))]).is_err());
        assert!(model(&[("chunk_size", n(64.0 * 1_048_576.0))]).is_ok());
        assert!(model(&[("shard_ops_per_s", n(0.0))]).is_err());
        let e = model(&[("chunk_size", n(1000.0))]).unwrap_err().to_string();
        assert!(e.contains("store.chunk_size"), "{e}");
    }

    #[test]
    fn hashed_placement_cuts_the_hash_range_evenly() {
        let m = model(&[("chunks", n(4.0))]).unwrap();
        // "abc" hashes to 8478485326885698097 > 2^62: the top quarter.
        assert_eq!(m.place("abc", 4), 3);
        // "" hashes to 2049396243249673340 in [0, 2^62): the third quarter.
        assert_eq!(m.place("", 4), 2);
        let d = m.describe_placement("abc", &demand(0.0));
        assert_eq!(d, "chunk=3 shard=0 hashed=8478485326885698097");
        // 40,000 keys spread within 3% of even over 4 chunks.
        let mut counts = [0usize; 4];
        for i in 0..40_000 {
            counts[m.place(&format!("USER#{i}"), 4)] += 1;
        }
        for c in counts {
            assert!((9_700..10_300).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn ranged_placement_is_lexicographic() {
        let m = model(&[("shard_key", w("ranged")), ("chunks", n(9.0))]).unwrap();
        assert!(m.ranged());
        // First digit d → chunk d − 1 of 9.
        for d in 1..=9 {
            assert_eq!(m.place(&format!("USER#{d}00042"), 9), d - 1);
        }
        // The monotonic marker goes to the MaxKey chunk.
        assert_eq!(m.place("EVENT#<time>", 9), 8);
        let d = m.describe_placement("USER#5", &demand(0.0));
        assert_eq!(d, "chunk=4 shard=1 position=0.444444");
        // Uniform random 12-digit ids: ≈ equal chunks.
        let mut counts = [0usize; 9];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..90_000 {
            x = super::super::hash::fmix64(x.wrapping_add(1));
            counts[m.place(&format!("U#{}", x % 1_000_000_000_000), 9)] += 1;
        }
        for c in counts {
            assert!((9_600..10_400).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn key_position_orders_decimal_ids() {
        let ids = ["1", "10", "100", "123", "19", "2", "20", "999"];
        for pair in ids.windows(2) {
            assert!(
                key_position(pair[0]) <= key_position(pair[1]),
                "{} vs {}",
                pair[0],
                pair[1]
            );
        }
        // Zero-padded: a plain decimal fraction.
        assert!((key_position("x0042") - 0.0042).abs() < 1e-12);
        // Top of the "3" range, below "4".
        assert!(key_position("3#<time>") > key_position("3999"));
        assert!(key_position("3#<time>") < key_position("4"));
    }

    #[test]
    fn chunk_size_before_5_2_is_64_mb() {
        let m = model(&[("chunk_size", n(CHUNK_SIZE_BEFORE_5_2))]).unwrap();
        assert_eq!(
            m.layout(&demand(0.0)).item_collection_limit_bytes,
            Some(67_108_864.0)
        );
        let figs = m.figures();
        let c = figs.iter().find(|f| f.name == "chunk_size").unwrap();
        assert_eq!(c.value, "67,108,864 bytes (64 MiB)");
        assert_eq!(c.source, "scenario");
        let ops = figs.iter().find(|f| f.name == "shard_ops_per_s").unwrap();
        assert!(ops.assumption && ops.source.starts_with("ASSUMPTION"));
        assert!(figs.iter().any(|f| f.name.starts_with("jumbo chunk")));
    }

    fn scenario(text: &str) -> Scenario {
        match Scenario::from_str_at(text, "t.toml") {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    const MAIL: &str = r#"
schema_version = 1
name = "mail"
[store]
kind = "mongodb"
shard_key = "SHARDING"
[[entity]]
name = "user"
count = 1000
popularity = { distribution = "zipf", exponent = 1.0 }
[[entity]]
name = "mailbox"
count = 4
[[table]]
name = "messages"
partition_key = "{user}"
sort_key = "{time}"
item_size = "20KB"
[[table.index]]
name = "by_thread"
partition_key = "{mailbox}"
[[access_pattern]]
name = "deliver"
table = "messages"
operation = "put"
rate = 30
by = "user"
[[access_pattern]]
name = "list inbox"
table = "messages"
operation = "query"
rate = 60
by = "user"
items = 50
[[access_pattern]]
name = "search all mailboxes"
table = "messages.by_thread"
operation = "query"
rate = 20
[[access_pattern]]
name = "purge by mailbox"
table = "messages"
operation = "delete"
rate = 10
by = "mailbox"
"#;

    #[test]
    fn analyze_shard_key_reports_analyzeshardkey_characteristics() {
        let s = scenario(&MAIL.replace("SHARDING", "ranged"));
        let a = analyze_shard_key(&s, 0).unwrap();
        assert_eq!(a.table, "messages");
        assert_eq!(a.shard_key, "{user}");
        assert_eq!(a.sharding, ShardKey::Ranged);
        assert_eq!(a.cardinality, 1000.0);
        assert_eq!(a.monotonicity, Monotonicity::NotMonotonic);
        assert_eq!(a.monotonicity.as_str(), "not monotonic");
        // Zipf 1.0 over 1,000 users: rank r holds r⁻¹ / H(1000) of the messages.
        let h = 7.485_470_860_550_345;
        assert_eq!(a.most_common_values.len(), 5);
        assert_eq!(a.most_common_values[0].0, "<user #1>");
        assert!((a.most_common_values[0].1 - 1.0 / h).abs() < 1e-12);
        assert_eq!(a.most_common_values[4].0, "<user #5>");
        assert!((a.most_common_values[4].1 - 0.2 / h).abs() < 1e-12);
        // Reads: 60/s targeted by user; 20/s through an index without the
        // shard key (scatter-gather).
        assert!((a.reads_single_shard_share - 0.75).abs() < 1e-12);
        assert!((a.reads_scatter_gather_share - 0.25).abs() < 1e-12);
        assert_eq!(a.reads_multi_shard_share, 0.0);
        // Writes: 30/s inserts carry the shard key; 10/s deletes by mailbox broadcast.
        assert!((a.writes_single_shard_share - 0.75).abs() < 1e-12);
        assert!((a.writes_scatter_gather_share - 0.25).abs() < 1e-12);
        assert!(analyze_shard_key(&s, 7).is_none());
    }

    #[test]
    fn analyze_shard_key_sees_bucketed_and_sharded_keys() {
        let text = MAIL
            .replace("SHARDING", "hashed")
            .replace(
                "partition_key = \"{user}\"",
                "partition_key = \"{user}\"\nshards = 4\nbucket = \"1d\"",
            )
            .replace("items = 50", "items = 50\nrange = \"2d\"");
        let s = scenario(&text);
        let a = analyze_shard_key(&s, 0).unwrap();
        // 1,000 users × 4 shards × 365 daily buckets, of the key as keyed.
        assert_eq!(a.cardinality, 1000.0 * 4.0 * 365.0);
        assert_eq!(a.shard_key, "{user}#{bucket}#{shard}");
        let h = 7.485_470_860_550_345;
        assert!((a.most_common_values[0].1 - 1.0 / h / 4.0 / 365.0).abs() < 1e-15);
        assert_eq!(a.most_common_values[0].0, "<user #1>#<bucket>#<shard 0>");
        // The inbox query reads 4 shards × 2 buckets: hashed → multi-shard.
        assert!((a.reads_multi_shard_share - 0.75).abs() < 1e-12);
        // Ranged: the shard and bucket follow the user, values are adjacent.
        let s = scenario(&text.replace("\"hashed\"", "\"ranged\""));
        let a = analyze_shard_key(&s, 0).unwrap();
        assert!((a.reads_single_shard_share - 0.75).abs() < 1e-12);
    }

    #[test]
    fn a_read_through_an_index_on_a_compound_keys_prefix_is_targeted() {
        // Shard key { user: 1, ts: 1 } (`{user}#{time}`), an index {
        // mailbox: 1, user: 1, ts: -1 }, a search by mailbox and user
        // through it: mongos targets the user's chunks by the key's prefix
        // when ranged; hashed, the key's whole value is hashed and the
        // search goes everywhere; `{time}#{user}` has no entity prefix.
        let text = |sharding: &str, key: &str| {
            MAIL.replace("SHARDING", sharding)
                .replace(
                    "partition_key = \"{user}\"",
                    &format!("partition_key = \"{key}\""),
                )
                .replace(
                    "partition_key = \"{mailbox}\"",
                    "partition_key = \"{mailbox}#{user}\"\nsort_key = \"{time}\"",
                )
        };
        let search = |sharding: &str, key: &str| {
            let a = analyze_shard_key(&scenario(&text(sharding, key)), 0).unwrap();
            !a.scatter_gather_patterns.contains(&2)
        };
        assert!(search("ranged", "{user}#{time}"));
        assert!(!search("hashed", "{user}#{time}"));
        assert!(!search("ranged", "{time}#{user}"));
        // A key without {time}: the index's user targets it either way.
        assert!(search("hashed", "{user}"));
        assert!(search("ranged", "{user}"));
    }

    #[test]
    fn a_range_query_over_a_hashed_time_key_is_scatter_gather() {
        let text = MAIL
            .replace("SHARDING", "hashed")
            .replace("partition_key = \"{user}\"", "partition_key = \"{time}\"");
        let a = analyze_shard_key(&scenario(&text), 0).unwrap();
        // Hashed: the values are hashes, "not monotonic" as analyzeShardKey
        // reports a hashed key; ranged (any case), monotonic.
        assert_eq!(a.monotonicity, Monotonicity::NotMonotonic);
        for ranged in ["ranged", "Ranged"] {
            let r = scenario(&text.replace("\"hashed\"", &format!("\"{ranged}\"")));
            let r = analyze_shard_key(&r, 0).unwrap();
            assert_eq!(r.monotonicity, Monotonicity::Monotonic, "{ranged}");
            assert_eq!(r.sharding, ShardKey::Ranged, "{ranged}");
        }
        assert!(a.most_common_values.is_empty());
        // The inbox query (by user, not in the key) and the index search
        // both go everywhere.
        assert_eq!(a.reads_scatter_gather_share, 1.0);
        let text = text.replace("by = \"user\"\nitems = 50", "items = 50");
        let a = analyze_shard_key(&scenario(&text), 0).unwrap();
        assert!((a.reads_scatter_gather_share - 1.0).abs() < 1e-12);
        let a = analyze_shard_key(&scenario(&text.replace("\"hashed\"", "\"ranged\"")), 0).unwrap();
        // Ranged: the time range is one contiguous run of chunks.
        assert!((a.reads_single_shard_share - 0.75).abs() < 1e-12);
    }
}
