//! Store models: where a key lands (placement), what an operation costs in
//! the store's capacity units, and which per-partition limits apply.
//!
//! One file per store. The engine sees only the [`StoreModel`] trait, so a new
//! store never touches the engine.

pub mod bigtable;
pub mod cassandra;
pub mod cosmosdb;
pub mod crc16;
pub mod dynamodb;
pub mod firestore;
pub mod generic;
pub mod hash;
pub mod mongodb;
pub mod murmur3;
pub mod redis_cluster;
pub mod settings;

use crate::error::Result;
use crate::scenario::{Consistency, Operation, StoreConfig, StoreKind};
use serde::Serialize;
pub use settings::Settings;

/// One figure a store model uses, with where it comes from.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Figure {
    /// Setting name (`partition_write_limit`).
    pub name: String,
    /// Value as shown to the user, with its unit.
    pub value: String,
    /// Source: documentation page, or "scenario" when set by the user.
    pub source: String,
    /// `true` when the figure is an undocumented or planning assumption.
    pub assumption: bool,
}

/// How a [`StaticCheck`] judges: the verdict stage turns it into a verdict
/// status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckLevel {
    /// Nothing to report beyond the figures.
    Pass,
    /// A design smell the store documents.
    Warn,
    /// A limit the store enforces is broken.
    Fail,
}

/// A store check judged from the scenario alone, before any simulation
/// (MongoDB's `shard_key`, Bigtable's `row_key_size`): see
/// [`StoreModel::static_checks`].
#[derive(Debug, Clone, PartialEq)]
pub struct StaticCheck {
    /// The check's name (`"shard_key"`).
    pub check: &'static str,
    /// The table it judges.
    pub table: String,
    /// Pass, warn or fail.
    pub level: CheckLevel,
    /// What was found, with its figures.
    pub detail: String,
}

/// What the engine tells a store model about a table before asking for its layout.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDemand {
    /// Table (or `table.index`) name.
    pub name: String,
    /// Bytes stored at t = 0 (all item collections), used to size partitions.
    pub initial_bytes: f64,
    /// Whether the table has a local secondary index (DynamoDB's 10 GB item-collection limit applies).
    pub has_local_index: bool,
}

/// Whether key template `text` is a collection path: slash-separated
/// segments, an odd number of them, the last a literal name (a collection
/// ID: `likes`, `posts/{post}/likes`, `rooms/{room}/messages`). A document
/// path has an even number (`posts/{post}`); a lone placeholder
/// (`{user}`) is a document ID.
pub fn collection_path(text: &str) -> bool {
    let segments: Vec<&str> = text.split('/').collect();
    segments.len() % 2 == 1
        && segments
            .last()
            .is_some_and(|last| !last.is_empty() && !last.bytes().any(|b| b == OPEN_BRACE))
}

/// `{`, which opens a key template's placeholder.
const OPEN_BRACE: u8 = 0x7B;

/// How distinct keys spread over a table's partitions under a store's hash
/// ([`StoreModel::spread_of_distinct_keys`]).
#[derive(Debug, Clone, PartialEq)]
pub enum KeySpread {
    /// Every partition alike (a hash over equal ranges, or mod P).
    Uniform,
    /// Partition i with probability `shares[i]` (the token ranges' widths).
    Shares(Vec<f64>),
}

/// A table's partitions and their limits, as the store model sets them.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLayout {
    /// Number of partitions (≥ 1).
    pub partitions: usize,
    /// Read units per second one partition serves (`None`: unlimited / not separate).
    pub read_limit_per_s: Option<f64>,
    /// Write units per second one partition serves.
    pub write_limit_per_s: Option<f64>,
    /// Read + write units per second one partition serves.
    pub combined_limit_per_s: Option<f64>,
    /// Ceiling on one item collection (all items of one partition-key value), bytes.
    pub item_collection_limit_bytes: Option<f64>,
    /// Ceiling on one item, bytes.
    pub item_size_limit_bytes: Option<f64>,
    /// Servers the partitions live on, when the store's throughput limit is
    /// per node (Cassandra, Redis Cluster, MongoDB shards, Bigtable nodes).
    pub nodes: Option<NodeLayout>,
}

/// Per-key and per-table limits a store may add (see [`StoreModel::key_limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct KeyLimits {
    /// Sustained writes per second one partition-key value (document) takes.
    /// A table's own keys only: the engine drops it for a global index,
    /// whose entries are not documents.
    pub key_write_per_s: Option<f64>,
    /// Read units per second the whole table serves (DynamoDB on-demand: twice the previous peak).
    pub table_read_per_s: Option<f64>,
    /// Write units per second the whole table serves.
    pub table_write_per_s: Option<f64>,
    /// Read + write units per second the whole table serves from one pool
    /// (Cosmos DB's provisioned RU/s of a container): judged against the
    /// busy period's read and write units together.
    pub table_combined_per_s: Option<f64>,
    /// Writes per second a table takes when a key or sort key is monotonic
    /// (`{time}`): the sequential-index hotspot; lifted × shards by write sharding.
    pub monotonic_write_per_s: Option<f64>,
    /// Whether [`KeyLimits::monotonic_write_per_s`] holds per parent path —
    /// the key's text before its last `/` — rather than per table: a
    /// Firestore subcollection under each parent document is a collection
    /// of its own, with its own collection-scope index.
    pub monotonic_per_parent: bool,
    /// Where the table limits come from, for the `table_throughput` verdict.
    pub table_limit_note: &'static str,
    /// What the table limits are, in a few words (`"provisioned capacity"`),
    /// for the report and `summary.json`.
    pub table_limit_label: &'static str,
    /// The one core that serves a partition key on each of its replicas,
    /// where the store pins a key to a core (ScyllaDB's shard-per-core).
    pub key_shard: Option<KeyShard>,
}

/// One core of each replica serves every operation on a partition key
/// (ScyllaDB: "each shard ... owns a subset of the data"; a partition
/// belongs to one shard), beside the node's other keys that hash to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyShard {
    /// Replica operations per second one core serves.
    pub ops_per_s: f64,
    /// Cores (shards) per node.
    pub shards_per_node: f64,
    /// Nodes.
    pub nodes: f64,
    /// Replicas of every key.
    pub replicas: f64,
    /// Replicas a read contacts.
    pub read_replicas: f64,
}

/// Load-based splitting of hot ranges (Bigtable): see [`StoreModel::load_split`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadSplit {
    /// Units per second above which a partition is split down to its rows.
    pub threshold_per_s: f64,
    /// Seconds into the busy period before the split takes effect.
    pub delay_s: f64,
}

/// A limit on a whole table's read + write units per second that changes with
/// simulated time (see [`StoreModel::table_limit_schedule`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TableLimitSchedule {
    /// What the limit is, in the store's words (`"500/50/5 ramp"`), for the
    /// report and the `table_throughput` verdict.
    pub label: String,
    /// Steps `(start second, read + write units per second)` in order of start:
    /// the first starts at 0 s, each holds until the next starts, the last to
    /// the end of the busy period. A non-finite limit means none in that step.
    pub steps: Vec<(f64, f64)>,
}

impl TableLimitSchedule {
    /// The limit at second `t_s` of the busy period (units per second), `None`
    /// before the first step or where a step's limit is not finite.
    ///
    /// ```
    /// use keyheat::store::TableLimitSchedule;
    /// let s = TableLimitSchedule { label: "ramp".into(), steps: vec![(0.0, 500.0), (300.0, 750.0)] };
    /// assert_eq!(s.limit_at(299.0), Some(500.0));
    /// assert_eq!(s.limit_at(300.0), Some(750.0));
    /// ```
    pub fn limit_at(&self, t_s: f64) -> Option<f64> {
        self.steps
            .iter()
            .take_while(|(start, _)| *start <= t_s)
            .last()
            .map(|(_, l)| *l)
            .filter(|l| l.is_finite())
    }
}

/// Partitions → nodes, with the per-node limits.
///
/// A write to a partition reaches every node in its replica list; a read
/// reaches `read_replicas` of them, spread evenly, so each replica serves
/// `read_replicas / replicas.len()` of the partition's reads.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeLayout {
    /// What a node is called in this store (`"node"`, `"master"`, `"shard"`).
    pub label: &'static str,
    /// Number of nodes.
    pub nodes: usize,
    /// `replicas[partition]`: the nodes holding it, primary first (length ≥ 1).
    pub replicas: Replicas,
    /// Replicas a read contacts (consistency level), ≤ the replica count.
    pub read_replicas: usize,
    /// Read units per second one node serves.
    pub read_limit_per_s: Option<f64>,
    /// Write units per second one node serves.
    pub write_limit_per_s: Option<f64>,
    /// Read + write units per second one node serves.
    pub combined_limit_per_s: Option<f64>,
    /// Bytes one node holds (Redis memory, or a node's disk:
    /// `node_storage`), if limited.
    pub memory_limit_bytes: Option<f64>,
}

/// Each partition's replica nodes, primary first, in one flat list: the
/// engine reads every partition's replicas in every segment of every trial
/// (16,384 Redis Cluster slots), where a list per partition costs a cache
/// miss each. Built by collecting one `Vec` of nodes per partition.
///
/// ```
/// use keyheat::store::Replicas;
/// let r: Replicas = vec![vec![0, 1], vec![2]].into_iter().collect();
/// assert_eq!(r.len(), 2);
/// assert_eq!(&r[0], &[0, 1]);
/// assert_eq!(r.get(1), Some(&[2][..]));
/// assert_eq!(r.get(2), None);
/// assert_eq!(r.iter().map(<[usize]>::len).collect::<Vec<_>>(), vec![2, 1]);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Replicas {
    /// `starts[p]..starts[p + 1]`: partition p's range of `nodes`.
    starts: Vec<usize>,
    nodes: Vec<usize>,
}

impl Replicas {
    /// Number of partitions.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Whether there are no partitions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Partition `p`'s nodes, if there is such a partition.
    pub fn get(&self, p: usize) -> Option<&[usize]> {
        (p < self.len()).then(|| &self.nodes[self.starts[p]..self.starts[p + 1]])
    }

    /// Every partition's nodes, in partition order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[usize]> + '_ {
        self.starts.windows(2).map(|w| &self.nodes[w[0]..w[1]])
    }
}

impl std::ops::Index<usize> for Replicas {
    type Output = [usize];
    fn index(&self, p: usize) -> &[usize] {
        &self.nodes[self.starts[p]..self.starts[p + 1]]
    }
}

impl FromIterator<Vec<usize>> for Replicas {
    fn from_iter<I: IntoIterator<Item = Vec<usize>>>(lists: I) -> Replicas {
        let mut r = Replicas {
            starts: vec![0],
            nodes: Vec::new(),
        };
        for list in lists {
            r.nodes.extend(list);
            r.starts.push(r.nodes.len());
        }
        r
    }
}

/// A store's placement, cost and limit rules.
///
/// Implementations are pure and cheap to call from many threads.
pub trait StoreModel: Send + Sync + std::fmt::Debug {
    /// Which store this models.
    fn kind(&self) -> StoreKind;

    /// Names of the read and write capacity units (`("RCU", "WCU")`, `("ops", "ops")`).
    fn unit_names(&self) -> (&'static str, &'static str);

    /// The table's partition count and limits.
    fn layout(&self, table: &TableDemand) -> TableLayout;

    /// The table's partition count alone: `layout(table).partitions`,
    /// without building the rest (the engine asks it for every day of the
    /// growth grid; a store whose layout lists each partition's nodes
    /// answers it directly).
    fn partition_count(&self, table: &TableDemand) -> usize {
        self.layout(table).partitions
    }

    /// The partition (in `0..partitions`) a partition-key value lands on.
    fn place(&self, key: &str, partitions: usize) -> usize;

    /// Where a key lands in one random world of the simulation. Stores whose
    /// hash is published (Cassandra's Murmur3, Redis' CRC16) place the key
    /// string as the store does; stores whose hash is internal (DynamoDB,
    /// generic) mix in the trial's `salt`, so that even a handful of fixed key
    /// strings lands anew in each trial, as the unknown real hash would.
    fn place_in_trial(&self, key: &str, partitions: usize, salt: u64) -> usize {
        let _ = salt;
        self.place(key, partitions)
    }

    /// Whether [`place_in_trial`](Self::place_in_trial) is
    /// [`hash::place_salted`] (the stores whose hash is internal), so a
    /// caller may hash a key's text in pieces ([`hash::fnv_extend`]) and
    /// place it with [`hash::place_salted_state`]: the same partition.
    fn places_by_salted_fnv(&self) -> bool {
        false
    }

    /// Whether a partition key written as a collection path
    /// ([`collection_path`]) keys a collection whose documents the sort key
    /// names, rather than one document (Firestore: a document's path is
    /// its collection's path and its ID).
    fn collection_keys(&self) -> bool {
        false
    }

    /// Where distinct keys whose text is not known in advance (instance
    /// names are drawn afresh in each trial) land, when the store places a
    /// key by a hash of its whole text: each independently, on partition i
    /// with probability `shares[i]` ([`KeySpread`]). `None` where keys do
    /// not land independently: sorted into ranges (a key's neighbours share
    /// its range) or sharing a slot by a hash tag. The default: uniform
    /// where [`places_by_salted_fnv`](Self::places_by_salted_fnv).
    fn spread_of_distinct_keys(&self, partitions: usize) -> Option<KeySpread> {
        let _ = partitions;
        self.places_by_salted_fnv().then_some(KeySpread::Uniform)
    }

    /// For a store whose hash is internal, placed afresh in each trial
    /// (DynamoDB, Cosmos DB, Firestore, generic): the key's unsalted 64-bit
    /// hash `h`, from which [`place_in_trial`](Self::place_in_trial)`(key,
    /// p, salt)` is [`hash::range_of`]`(`[`hash::fmix64`]`(h ^ salt), p)`, so
    /// a replay places one key in many trials for the price of one hash.
    /// `None` (the default) for a published hash: placement does not depend
    /// on the trial.
    fn trial_hash(&self, key: &str) -> Option<u64> {
        let _ = key;
        None
    }

    /// Capacity units one read request consumes: `bytes` is the item size for a
    /// get, the summed size of the returned items for a query; `items` the
    /// number of items returned.
    fn read_cost(&self, op: Operation, consistency: Consistency, bytes: f64, items: f64) -> f64;

    /// Capacity units of a query returning `items` items of `bytes` in all
    /// where each item is under a partition key of its own (the key holds
    /// `{time}` or `{id}`: `{user}#{time}` reads a range of keys, not one
    /// key's items). The default: as [`read_cost`](Self::read_cost) of a
    /// query (one request returning them). Bigtable: each is a row, costed
    /// as a row.
    fn key_range_read_cost(&self, consistency: Consistency, bytes: f64, items: f64) -> f64 {
        self.read_cost(Operation::Query, consistency, bytes, items)
    }

    /// The consistency a request runs at: the one its pattern writes, else
    /// the store's default (eventual; a Cosmos DB account's
    /// `default_consistency`).
    fn request_consistency(&self, written: Option<Consistency>) -> Consistency {
        written.unwrap_or(Consistency::Eventual)
    }

    /// Capacity units one write request consumes for an item of `bytes`
    /// (for `append`, the item's size after the append).
    fn write_cost(&self, op: Operation, consistency: Consistency, bytes: f64) -> f64;

    /// Every figure the model uses, with its source; assumptions labelled.
    fn figures(&self) -> Vec<Figure>;

    /// The table-level limits `limits` ([`StoreModel::key_limits`]) of a
    /// table whose busy period a checkpoint simulates after its traffic has
    /// grown: the busiest traffic it served before asked
    /// `previous_units_per_s` (read, write units/s). Where the store scales
    /// a table to the traffic it has served, the limits follow it (DynamoDB
    /// on-demand: twice the previous peak). Unchanged by default.
    fn grown_key_limits(&self, limits: KeyLimits, previous_units_per_s: [f64; 2]) -> KeyLimits {
        let _ = previous_units_per_s;
        limits
    }

    /// The partitions a table holding `table.initial_bytes` is split into
    /// by a checkpoint after its traffic has grown, where the store splits
    /// partitions for the traffic a table has served: the busiest traffic
    /// it served before asked `previous_units_per_s` (read, write units/s).
    /// None by default: partitions follow the data alone.
    fn grown_partitions(
        &self,
        table: &TableDemand,
        previous_units_per_s: [f64; 2],
    ) -> Option<usize> {
        let _ = (table, previous_units_per_s);
        None
    }

    /// Limits on one key, or on a table's writes, beyond the per-partition ones
    /// (Firestore's ~1 sustained write/s per document and ~500 writes/s to a
    /// collection with a monotonically increasing indexed field). None by default.
    fn key_limits(&self, table: &TableDemand) -> KeyLimits {
        let _ = table;
        KeyLimits::default()
    }

    /// A limit on the whole table's read + write units per second that changes
    /// with simulated time, over a busy period of `duration_s` seconds that
    /// starts `start_s` seconds after the horizon's t = 0 (a later checkpoint
    /// day starts later). The engine applies it per window to the table's
    /// units summed over its partitions (the `table_throughput` verdict).
    /// Firestore's 500/50/5 ramp for a new collection; `None` by default.
    fn table_limit_schedule(
        &self,
        table: &TableDemand,
        start_s: f64,
        duration_s: f64,
    ) -> Option<TableLimitSchedule> {
        let _ = (table, start_s, duration_s);
        None
    }

    /// Whether the store rejects writes that would take an item collection
    /// past its ceiling (DynamoDB's 10 GB with a local index, Cosmos DB's
    /// 20 GB logical partition), so stored data stops growing there; `false`
    /// when the ceiling is a warning (Cassandra, ScyllaDB) or a chunk that
    /// only stops moving (MongoDB's jumbo chunks).
    fn collection_limit_rejects_writes(&self) -> bool {
        false
    }

    /// Whether the store rejects the write of an item over its item ceiling
    /// ([`TableLayout::item_size_limit_bytes`]): DynamoDB's 400 KB
    /// (ValidationException), Cosmos DB's 2 MB, Firestore's 1 MiB,
    /// MongoDB's 16 MB BSON document, Redis's 512 MB string, Cassandra's
    /// largest mutation; `false` where the ceiling is a warning or a read
    /// limit (ScyllaDB's large-row threshold, a Bigtable row that cannot
    /// be read whole).
    fn item_limit_rejects_writes(&self) -> bool {
        true
    }

    /// Rows (items) one item collection may hold before the store warns
    /// (ScyllaDB's 100,000-row large-partition threshold), if any.
    fn partition_rows_limit(&self) -> Option<f64> {
        None
    }

    /// Bytes the store adds to every item it stores (Cassandra's 8 B per cell),
    /// counted into item-collection sizes.
    fn row_overhead_bytes(&self) -> f64 {
        0.0
    }

    /// Whether an item's local secondary index entries are stored, and
    /// counted, in its item collection (DynamoDB), so they add to the
    /// collection's size and the table's stored bytes.
    fn local_index_entries_in_collection(&self) -> bool {
        false
    }

    /// Bytes the store adds to every key it holds in memory (Redis: the
    /// keyspace entry, object header and string headers), when the store's
    /// nodes hold their data in memory and keyheat reports bytes per node
    /// against [`NodeLayout::memory_limit_bytes`]. `None` (the default): the
    /// store's node memory is not modelled.
    fn key_overhead_bytes(&self) -> Option<f64> {
        None
    }

    /// The check (and setting) that judges a node's bytes against
    /// [`NodeLayout::memory_limit_bytes`]: `"node_memory"` (Redis: data in
    /// memory, the default) or `"node_storage"` (a node's disk: Cassandra,
    /// ScyllaDB, MongoDB shards, Bigtable nodes).
    fn node_storage_check(&self) -> &'static str {
        "node_memory"
    }

    /// How a node's stored bytes count the copies of the data, for the
    /// `node_storage` figures: every replica on the node that holds it
    /// (the default: Cassandra's and ScyllaDB's replication factor), or
    /// one copy where a node's replicas are other machines that each
    /// store it all (MongoDB's replica-set members, Redis replicas) or
    /// where the store replicates below the node (Bigtable).
    fn stored_copies(&self) -> &'static str {
        "every replica counted"
    }

    /// Seconds an item whose `ttl` has passed stays stored, and counted in its
    /// item collection's rows and bytes and its nodes' storage, before the
    /// store purges it: Cassandra's and ScyllaDB's `gc_grace_seconds`
    /// (expired cells turn into tombstones that compaction removes only once
    /// it has passed). 0 by default: the item leaves when its ttl passes.
    fn expired_retention_s(&self) -> f64 {
        0.0
    }

    /// Seconds of a partition's limit it may bank as burst credit and spend on
    /// its first excess (DynamoDB: 300 s, best-effort). 0 by default.
    fn burst_seconds(&self) -> f64 {
        0.0
    }

    /// Split-for-heat, when modelled: (delay seconds, read units, write units)
    /// a hot partition gains per delay (DynamoDB: undocumented timing; an
    /// optional, labelled assumption). `None` by default.
    fn split_for_heat(&self) -> Option<(f64, f64, f64)> {
        None
    }

    /// Load-based splitting, when modelled (Bigtable): a partition whose load
    /// exceeds `threshold_per_s` is split down to its rows and the rows are
    /// spread to the least-loaded nodes; a single row (a head key, or the
    /// append point of a monotonic key) stays whole. `None` by default.
    fn load_split(&self) -> Option<LoadSplit> {
        None
    }

    /// What breaching the ceiling of a size check (`partition_size`,
    /// `item_size`) means in this store, appended to a verdict that does not
    /// pass (Bigtable: the row cannot be read in full). `None` by default.
    fn breach_note(&self, check: &str) -> Option<String> {
        let _ = check;
        None
    }

    /// What a check's figures leave out in this store's model, appended to
    /// its verdict whatever the status (Cosmos DB with hierarchical keys:
    /// `hot_partition`'s peak is a lower bound for a hot first-level key).
    /// A note that starts with [`LOWER_BOUND_NOTE`] marks the figure a lower
    /// bound: the variants tables show it as `≥ 1.96`. `None` by default.
    fn model_note(&self, check: &str) -> Option<String> {
        let _ = check;
        None
    }

    /// Whether a request of access pattern `pattern` (an index into
    /// `scenario.access_patterns`) is sent to every node rather than to the
    /// partition of its key: MongoDB's scatter-gather (a filter without the
    /// shard key, a range over a hashed key). The engine then spreads its
    /// requests so every node gets one per request. `false` by default.
    fn broadcast(&self, scenario: &crate::scenario::Scenario, pattern: usize) -> bool {
        let _ = (scenario, pattern);
        false
    }

    /// Checks judged from the scenario alone (a shard key's characteristics,
    /// a row key's length), run by `keyheat check` and by every run. None by
    /// default.
    fn static_checks(&self, scenario: &crate::scenario::Scenario) -> Vec<StaticCheck> {
        let _ = scenario;
        Vec::new()
    }

    /// The store model of a global secondary index that sets its own
    /// provisioned `read_capacity` / `write_capacity` (DynamoDB), when it
    /// differs from the table's. `None` by default: the index takes the
    /// table's store settings.
    fn index_store(
        &self,
        read_capacity: Option<f64>,
        write_capacity: Option<f64>,
    ) -> Option<Box<dyn StoreModel>> {
        let _ = (read_capacity, write_capacity);
        None
    }

    /// Whether writes to a global index's entries are billed as write units
    /// (DynamoDB bills a GSI's WCU); `false` where the store bills only
    /// documents written (Firestore: index entries are free, reads
    /// through an index bill the documents read).
    fn bills_index_writes(&self) -> bool {
        true
    }

    /// The capacity units the scenario provisions explicitly, reads and
    /// writes (DynamoDB's `read_capacity` / `write_capacity` as set, or a
    /// global index's own), which `[pricing]` prices per hour when it gives
    /// no `provisioned_*_units`. `[None, None]` by default.
    fn provisioned_units(&self) -> [Option<f64>; 2] {
        [None, None]
    }

    /// Whether one capacity unit serves reads and writes alike, billed at
    /// one price (Cosmos DB's request units): `[pricing]`'s read-side
    /// price then prices the writes too unless a write price is given, and
    /// each access pattern carries the table's cost by its share of all
    /// its units. `false` by default (reads and writes priced apart).
    fn one_unit_for_reads_and_writes(&self) -> bool {
        false
    }

    /// Bytes the store bills per stored item beyond the item itself
    /// (DynamoDB's 100 B of indexing overhead), for `storage_gb_month`;
    /// 0 by default.
    fn billed_bytes_per_item(&self) -> f64 {
        0.0
    }

    /// Figures about the scenario's secondary indexes that the store adds to
    /// its own (DynamoDB: index writes per base write, back-pressure, each
    /// global index's capacity). None by default.
    fn index_figures(&self, scenario: &crate::scenario::Scenario) -> Vec<Figure> {
        let _ = scenario;
        Vec::new()
    }

    /// The most partitions the model lays a table out on (a simulation cap,
    /// below what very large data would get), if it caps them.
    fn max_partitions(&self) -> Option<usize> {
        None
    }

    /// Whether a `[[table.index]]` that is not `local` is partitioned on its
    /// own key, as a table of its own (DynamoDB's global secondary indexes:
    /// the default). `false` when the store keeps index entries next to their
    /// documents on each shard (MongoDB): reads through such an index run on
    /// the collection's shards, targeted or broadcast ([`broadcast`](Self::broadcast)).
    fn global_indexes(&self) -> bool {
        true
    }

    /// Whether keys are placed by ranges of the key itself (MongoDB ranged
    /// shard keys, Bigtable tablets) rather than by a hash: then `{time}` /
    /// `{id}` keys are monotonic and all land on the last partition (after
    /// an entity prefix, at the end of each instance's range: its inserts
    /// and queries take the instance's popularity), and `latest` instances
    /// sit at the end of the key space.
    fn ranged(&self) -> bool {
        false
    }

    /// Whether a balancer evens the nodes' stored bytes (MongoDB's, by data
    /// size since 6.0.3): node storage then levels every byte but those of
    /// a key too large to move (over the item-collection ceiling: a jumbo
    /// chunk), rather than leaving each node its share of the partitions.
    fn balances_stored_bytes(&self) -> bool {
        false
    }

    /// Where the store hashes only part of a key, that part of `template`:
    /// the indices of its placeholders (parts other than literal text) that
    /// lie inside it, which alone decide where a key lands; empty when the
    /// part is literal text (every key on one partition). `None`: the whole
    /// key decides. Redis Cluster: the hash tag, from the first `{` to the
    /// next `}` ([`redis_cluster::hash_tag`]).
    fn hashed_parts(&self, template: &[crate::scenario::TemplatePart]) -> Option<Vec<usize>> {
        let _ = template;
        None
    }

    /// Where each key lands, as `name=value` words for `keyheat place`
    /// (`partition=3`, `token=… replicas=…`, `slot=… node=…`).
    fn describe_placement(&self, key: &str, table: &TableDemand) -> String {
        let layout = self.layout(table);
        format!("partition={}", self.place(key, layout.partitions))
    }
}

/// How a [`StoreModel::model_note`] that makes its check's figure a lower
/// bound begins.
pub const LOWER_BOUND_NOTE: &str = "a lower bound";

/// The store model a scenario asks for.
#[derive(Debug)]
pub struct Model {
    inner: Box<dyn StoreModel>,
}

impl Model {
    /// Builds the model for `config`.
    ///
    /// # Errors
    /// A scenario error naming `store.<key>` when a setting is out of range.
    pub fn new(config: &StoreConfig, path: &str) -> Result<Model> {
        let s = Settings::parse(config, path)?;
        let inner: Box<dyn StoreModel> = match config.kind {
            StoreKind::Generic => Box::new(generic::Generic::new(&s)?),
            StoreKind::DynamoDb => Box::new(dynamodb::DynamoDb::new(&s)?),
            StoreKind::Cassandra | StoreKind::ScyllaDb => {
                Box::new(cassandra::Cassandra::new(config.kind, &s)?)
            }
            StoreKind::RedisCluster => Box::new(redis_cluster::RedisCluster::new(&s)?),
            StoreKind::CosmosDb => Box::new(cosmosdb::CosmosDb::new(&s)?),
            StoreKind::Firestore => Box::new(firestore::Firestore::new(&s)?),
            StoreKind::MongoDb => Box::new(mongodb::MongoDb::new(&s)?),
            StoreKind::Bigtable => Box::new(bigtable::Bigtable::new(&s)?),
        };
        Ok(Model { inner })
    }

    /// The model of `scenario`'s store, after checking the store settings of
    /// the base design and of every variant (a variant's error is prefixed
    /// with the variant, as the scenario parser's are).
    ///
    /// # Errors
    /// A scenario error naming `file:line:column` and `store.<setting>`.
    pub fn for_scenario(scenario: &crate::scenario::Scenario) -> Result<Model> {
        let model = Model::new(&scenario.store, &scenario.source_path)?;
        item_ceilings(scenario, model.store())?;
        for v in &scenario.variants {
            let kind = v.set.iter().any(|(path, _)| path == "store.kind");
            let in_variant =
                |e, kind| crate::scenario::variants::in_variant_of(e, (&v.name, v.line), kind);
            let m = Model::new(&v.scenario.store, &v.scenario.source_path)
                .map_err(|e| in_variant(e, kind))?;
            item_ceilings(&v.scenario, m.store()).map_err(|e| in_variant(e, false))?;
        }
        Ok(model)
    }

    /// The model as a trait object.
    pub fn store(&self) -> &dyn StoreModel {
        self.inner.as_ref()
    }
}

/// An error where every item of a table is over the store's item ceiling
/// ([`TableLayout::item_size_limit_bytes`]) and the store
/// rejects such writes ([`StoreModel::item_limit_rejects_writes`]): it rejects
/// each write, so the design cannot be stored as written, and its sizes
/// and partitions would describe data that never exists (a new user's 500 KB
/// DynamoDB items: a run refused by the work budget for 66,683 partitions,
/// or, with fewer trials, a bucket advised for a 16.7 GB collection).
/// Items that are only sometimes over it are the `item_size` check's.
fn item_ceilings(s: &crate::scenario::Scenario, store: &dyn StoreModel) -> Result<()> {
    use crate::scenario::SizeDist;
    if !store.item_limit_rejects_writes() {
        return Ok(());
    }
    for t in &s.tables {
        let least = match t.item_size {
            SizeDist::Fixed(b) => b,
            SizeDist::Uniform { min, .. } => min,
            SizeDist::LogNormal { .. } => continue,
        };
        let layout = store.layout(&TableDemand {
            name: t.name.clone(),
            initial_bytes: 0.0,
            has_local_index: t.indexes.iter().any(|i| i.local),
        });
        let Some(limit) = layout.item_size_limit_bytes.filter(|&l| least > l) else {
            continue;
        };
        let every = if matches!(t.item_size, SizeDist::Fixed(_)) {
            "every item is"
        } else {
            "the smallest item is"
        };
        return Err(crate::Error::scenario(
            &s.source_path,
            t.item_size_at,
            format!("table.{}.item_size", t.name),
            format!(
                "{every} {} ({} B), over the store's item ceiling ({}: {}, {} B): it rejects every write of such an item, so the table cannot hold it as written",
                crate::format::bytes(least),
                crate::format::count(least.round() as usize),
                store.kind().as_str(),
                crate::format::bytes(limit),
                crate::format::count(limit.round() as usize),
            ),
            format!(
                "give the size the store keeps, at most {}: move large attributes to object storage and keep a pointer, or split the item into several under one key (a sort key), then write item_size = \"{}\" or less",
                crate::format::bytes(limit),
                crate::format::bytes(limit).replace(' ', ""),
            ),
        ));
    }
    Ok(())
}

/// The `node_storage` figure, when the scenario sets it.
pub(crate) fn node_storage_figure(bytes: Option<f64>, copies: &str) -> Option<Figure> {
    bytes.map(|b| Figure {
        name: "node_storage".to_string(),
        value: format!("{} per node, {copies}", crate::format::bytes(b)),
        source: "scenario".to_string(),
        assumption: false,
    })
}

/// A figure taken from the scenario when set there, else the documented default.
pub(crate) fn figure(
    name: &str,
    value: String,
    set_by_user: bool,
    source: &str,
    assumption: bool,
) -> Figure {
    Figure {
        name: name.to_string(),
        value,
        source: if set_by_user {
            "scenario".to_string()
        } else {
            source.to_string()
        },
        assumption: assumption && !set_by_user,
    }
}

/// Seconds an item of `table` stays stored after its write: its `ttl` and
/// the store's retention past it ([`StoreModel::expired_retention_s`]:
/// Cassandra's tombstones); None without a ttl (kept for ever).
pub fn stored_for_s(table: &crate::scenario::Table, store: &dyn StoreModel) -> Option<f64> {
    table.ttl_s.map(|t| t + store.expired_retention_s())
}

/// Bytes of overhead a DynamoDB index entry stores beyond its keys and
/// projected attributes (Developer Guide, "item size of a secondary
/// index"): counted in storage and item collections, not in read units.
pub const INDEX_ENTRY_OVERHEAD_BYTES: f64 = 100.0;

/// Bytes of one index entry as stored: [`index_entry_read_bytes`] and
/// [`INDEX_ENTRY_OVERHEAD_BYTES`].
pub fn index_entry_bytes(table: &crate::scenario::Table, index: &crate::scenario::Index) -> f64 {
    index_entry_read_bytes(table, index) + INDEX_ENTRY_OVERHEAD_BYTES
}

/// Bytes of one index entry a read counts: the keys and the projected
/// attributes (DynamoDB Developer Guide, "item size of a secondary index":
/// the table's primary key, the index key attributes, the projected
/// attributes; a local index shares the table's partition key, so only its
/// sort key is an attribute of its own; a projection of all attributes, the
/// item). Keys are counted as their template text plus 16 B per template
/// part (literal or placeholder).
pub fn index_entry_read_bytes(
    table: &crate::scenario::Table,
    index: &crate::scenario::Index,
) -> f64 {
    use crate::scenario::{KeyTemplate, Projection};
    let key_bytes = |t: &KeyTemplate| t.text.len() as f64 + 16.0 * t.parts.len() as f64;
    let own_partition_key = if index.local {
        0.0
    } else {
        key_bytes(&index.partition_key)
    };
    let keys = own_partition_key
        + index.sort_key.as_ref().map_or(0.0, key_bytes)
        + key_bytes(&table.partition_key)
        + table.sort_key.as_ref().map_or(0.0, key_bytes);
    match &index.projection {
        Projection::All => table.item_size.mean(),
        Projection::KeysOnly => keys,
        Projection::Include { bytes } => keys + bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the scenario reads as a store that keeps keys in order (its
    /// warnings and checklist) is what each model places by range.
    #[test]
    fn the_config_orders_keys_where_the_model_places_by_range() {
        let mut configs: Vec<StoreConfig> = StoreKind::ALL
            .iter()
            .map(|(_, name)| settings::from_command_line(name, &[], None).expect("defaults"))
            .collect();
        for word in ["ranged", "RANGED", "hashed"] {
            let set = [format!("shard_key={word}")];
            configs.push(settings::from_command_line("mongodb", &set, None).expect("set"));
        }
        let mut ordered = 0;
        for c in &configs {
            let model = Model::new(c, "t.toml").expect("model");
            assert_eq!(c.orders_keys(), model.store().ranged(), "{c:?}");
            ordered += usize::from(model.store().ranged());
        }
        // Bigtable, and MongoDB ranged in either case.
        assert_eq!(ordered, 3);
    }

    #[test]
    fn partition_count_is_the_layouts_partitions_on_every_store() {
        // Every store with its defaults, and the stores whose count grows
        // with data also with a few settings, over 0 B to 1 PB stored.
        let mut configs: Vec<StoreConfig> = StoreKind::ALL
            .iter()
            .map(|(_, name)| settings::from_command_line(name, &[], None).expect("defaults"))
            .collect();
        for (kind, sets, nodes) in [
            ("bigtable", vec!["tablet_size=1GB".to_string()], Some(4)),
            ("mongodb", vec!["chunk_size=8MiB".to_string()], Some(4)),
            ("cosmosdb", vec!["throughput=60000".to_string()], None),
        ] {
            configs.push(settings::from_command_line(kind, &sets, nodes).expect(kind));
        }
        for config in &configs {
            let model = Model::new(config, "x").expect("model");
            for exp in 0..=15 {
                for local in [false, true] {
                    let demand = TableDemand {
                        name: "t".to_string(),
                        initial_bytes: 3.7 * 10f64.powi(exp),
                        has_local_index: local,
                    };
                    assert_eq!(
                        model.store().partition_count(&demand),
                        model.store().layout(&demand).partitions,
                        "{:?} at {} B",
                        config.kind,
                        demand.initial_bytes
                    );
                }
            }
        }
    }
}
