//! `kind = "cassandra"` and `kind = "scylladb"`: a token ring of vnodes, the
//! replicas a keyspace's replication strategy puts on it, per-node limits, and
//! the large-partition thresholds.
//!
//! # Placement
//! A partition key's token is Cassandra's `Murmur3Partitioner` token of the
//! key's UTF-8 bytes ([`super::murmur3::token`]). Every node owns `num_tokens`
//! tokens (vnodes); keyheat's partitions are the `nodes × num_tokens` token
//! ranges, range `i` being `(t[i−1], t[i]]` of the sorted ring, owned by the
//! node holding `t[i]` (range 0 wraps past the maximum token). A key lands in
//! the range whose end is the first ring token ≥ its token, as Cassandra's
//! `TokenMetadata.firstToken` finds it.
//!
//! Token assignment (`token_allocation`):
//! - `random`: every node draws `num_tokens` uniformly random tokens
//!   (Cassandra ≤ 3.x, and ScyllaDB's vnodes, assign random tokens), from a
//!   xoshiro256++ stream seeded by `ring_seed`. Few tokens per node give an
//!   uneven ring: the ownership figure reports how uneven.
//! - `even`: `nodes × num_tokens` evenly spaced tokens dealt to the nodes in
//!   turn, so every range has the same width and consecutive ranges belong to
//!   consecutive nodes. It stands for Cassandra 4.0's
//!   `allocate_tokens_for_local_replication_factor` allocator (set to 3 in the
//!   default 4.0 `cassandra.yaml`), whose purpose is an even ring; the real
//!   allocator's ring is close to, not exactly, this one.
//!
//! # Replicas
//! `strategy = "simple"` (SimpleStrategy): walking the ring clockwise from the
//! key's range, the first `replication_factor` distinct nodes. `strategy =
//! "network_topology"` (NetworkTopologyStrategy, one data centre of `racks`
//! racks, node `n` in rack `n mod racks`): the same walk, but a node of a rack
//! already holding a replica is taken only while more replicas are needed than
//! there are racks (`acceptableRackRepeats = RF − racks` in Cassandra's
//! `NetworkTopologyStrategy.DatacenterEndpoints`). With one rack both agree.
//!
//! A write reaches every replica whatever its consistency level (the level only
//! says how many acknowledge); a read contacts as many replicas as
//! `consistency_read` needs: ONE 1, TWO 2, THREE 3, QUORUM and LOCAL_QUORUM
//! ⌊RF/2⌋ + 1 (one data centre), ALL RF. The engine charges writes to every
//! replica in [`NodeLayout::replicas`] and reads to `read_replicas` of them.
//!
//! # Limits
//! - Throughput is per node: `node_ops_per_s` replica operations per second,
//!   a labelled planning ASSUMPTION (neither store publishes a figure).
//!   Cassandra: 10,000, rounded down from Netflix's 2011 benchmark (288 nodes,
//!   3.3 million replica writes/s ≈ 11,500 per node). ScyllaDB: 12,500 ops/s
//!   per physical core ("expect at least 12.5K operations per second per
//!   physical core for simple operations", ScyllaDB docs, "Maximizing ScyllaDB
//!   Performance") × `cores_per_node` (default 8) = 100,000. No
//!   per-partition (per-range) throughput limit.
//! - Partition size: Cassandra logs partitions over
//!   `compaction_large_partition_warning_threshold_mb` = 100 (× 1024 × 1024:
//!   100 MiB) at compaction (≤ 4.0; `compaction_large_partition_warning_threshold:
//!   100MiB` in 4.1; guardrails' `partition_size_warn_threshold` since); the
//!   data-modeling guide says "< 100 MB and < 100,000 values". ScyllaDB:
//!   `compaction_large_partition_warning_threshold_mb` = 1000 (1000 MiB) and
//!   `compaction_rows_count_warning_threshold` = 100,000 rows, recorded in
//!   `system.large_partitions`.
//! - Row-count thresholds: see [`Cassandra::partition_rows_limit`]; the engine
//!   counts each item collection's rows over the horizon and the
//!   `partition_rows` check judges them against this limit.
//! - Cell overhead: keyheat's `item_size` stands for one row's column bytes
//!   (clustering + regular columns); Cassandra stores ≈ 8 bytes of metadata per
//!   value (cell), `columns_per_row` values per row: see
//!   [`Cassandra::row_overhead_bytes`] and [`PartitionShape`].
//!
//! ScyllaDB keyspaces created with tablets (the default for new keyspaces in
//! recent ScyllaDB releases) are not placed on a vnode ring; this model
//! describes vnode keyspaces (`tablets = {'enabled': false}`).

use super::murmur3;
use super::Figure;
use super::{figure, NodeLayout, Settings, StoreModel, TableDemand, TableLayout};
use crate::error::Result;
use crate::format::exact;
use crate::scenario::{Consistency, Operation, StoreKind};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Default node count (a keyheat default, an assumption).
pub const DEFAULT_NODES: usize = 6;
/// Cassandra's default `num_tokens` since 4.0 (`cassandra.yaml`); 256 before.
pub const CASSANDRA_NUM_TOKENS: usize = 16;
/// ScyllaDB's `num_tokens` in the shipped `scylla.yaml`.
pub const SCYLLADB_NUM_TOKENS: usize = 256;
/// Cassandra's upper bound on `num_tokens` (`DatabaseDescriptor`: 1536).
pub const MAX_NUM_TOKENS: usize = 1536;
/// Most token ranges keyheat builds (nodes × num_tokens).
pub const MAX_RANGES: usize = 1_000_000;
/// Default replication factor ("3 typical").
pub const DEFAULT_REPLICATION_FACTOR: usize = 3;
/// Cassandra: replica operations per second one node serves — an ASSUMPTION,
/// rounded down from Netflix's 2011 benchmark (3.3 M replica writes/s on 288 nodes).
pub const CASSANDRA_NODE_OPS_PER_S: f64 = 10_000.0;
/// ScyllaDB: operations per second per physical core (ScyllaDB docs, "Maximizing ScyllaDB Performance").
pub const SCYLLADB_OPS_PER_CORE: f64 = 12_500.0;
/// ScyllaDB: physical cores per node assumed when `node_ops_per_s` is not set.
pub const SCYLLADB_CORES_PER_NODE: f64 = 8.0;
/// The CQL table option `gc_grace_seconds` as created: 864,000 s (10
/// days), in Cassandra and in ScyllaDB (whose default `tombstone_gc` mode,
/// `timeout`, reads it). A row whose TTL passes becomes a tombstone that
/// compaction may purge only once it is older than this.
const GC_GRACE_SECONDS: f64 = 864_000.0;

/// Cassandra's large-partition warning: 100 MiB (`compaction_large_partition_warning_threshold_mb: 100`).
pub const CASSANDRA_LARGE_PARTITION_BYTES: f64 = 100.0 * 1024.0 * 1024.0;
/// ScyllaDB's large-partition warning: 1000 MiB (`compaction_large_partition_warning_threshold_mb: 1000`).
pub const SCYLLADB_LARGE_PARTITION_BYTES: f64 = 1000.0 * 1024.0 * 1024.0;
/// The data-modeling rule of thumb of < 100,000 values (cells) per
/// partition (DataStax, "Calculating partition size"; not a limit).
pub const CASSANDRA_VALUES_WARNING: f64 = 100_000.0;
/// ScyllaDB's `compaction_rows_count_warning_threshold`: 100,000 rows.
pub const SCYLLADB_ROWS_WARNING: f64 = 100_000.0;
/// Cassandra's hard limit: 2 billion cells per partition.
pub const CELLS_HARD_LIMIT: f64 = 2_000_000_000.0;
/// Cassandra's largest mutation: `max_mutation_size` = half of
/// `commitlog_segment_size` (32 MiB) = 16 MiB (`DatabaseDescriptor`).
pub const CASSANDRA_MAX_MUTATION_BYTES: f64 = 16.0 * 1024.0 * 1024.0;
/// ScyllaDB's large-row warning: `compaction_large_row_warning_threshold_mb` = 10 (10 MiB).
pub const SCYLLADB_LARGE_ROW_BYTES: f64 = 10.0 * 1024.0 * 1024.0;
/// Metadata bytes per stored value (cell), "typical estimate" in the Cassandra
/// docs' partition-size formula (`t_avg`).
pub const CELL_METADATA_BYTES: f64 = 8.0;
/// Replica round trips of a lightweight transaction (Paxos: prepare, read,
/// propose, commit), charged as ops per replica — an assumption.
pub const LWT_WRITE_OPS: f64 = 4.0;
/// Replica round trips of a SERIAL read (Paxos prepare + read) — an assumption.
pub const SERIAL_READ_OPS: f64 = 2.0;

/// A keyspace's replication strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// `SimpleStrategy`: the next RF distinct nodes clockwise.
    Simple,
    /// `NetworkTopologyStrategy` in one data centre: distinct racks first.
    NetworkTopology,
}

impl Strategy {
    /// The scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Simple => "simple",
            Strategy::NetworkTopology => "network_topology",
        }
    }
}

/// How vnode tokens are assigned to nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAllocation {
    /// Uniformly random tokens from `ring_seed` (Cassandra ≤ 3.x, ScyllaDB vnodes).
    Random,
    /// Evenly spaced tokens dealt to the nodes in turn (stands for Cassandra 4.0's allocator).
    Even,
}

impl TokenAllocation {
    /// The scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenAllocation::Random => "random",
            TokenAllocation::Even => "even",
        }
    }
}

/// A CQL consistency level (one data centre).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsistencyLevel {
    /// ONE: 1 replica.
    One,
    /// TWO: 2 replicas.
    Two,
    /// THREE: 3 replicas.
    Three,
    /// QUORUM: ⌊RF/2⌋ + 1.
    Quorum,
    /// LOCAL_QUORUM: ⌊RF/2⌋ + 1 of the local data centre (the only one here).
    LocalQuorum,
    /// LOCAL_ONE: 1 replica of the local data centre (the only one here).
    LocalOne,
    /// EACH_QUORUM: a quorum in each data centre (here, the one: ⌊RF/2⌋ + 1).
    EachQuorum,
    /// ALL: every replica.
    All,
}

impl ConsistencyLevel {
    /// Every level with its scenario-file spelling.
    pub const ALL_LEVELS: [(ConsistencyLevel, &'static str); 8] = [
        (ConsistencyLevel::One, "one"),
        (ConsistencyLevel::Two, "two"),
        (ConsistencyLevel::Three, "three"),
        (ConsistencyLevel::Quorum, "quorum"),
        (ConsistencyLevel::LocalQuorum, "local_quorum"),
        (ConsistencyLevel::LocalOne, "local_one"),
        (ConsistencyLevel::EachQuorum, "each_quorum"),
        (ConsistencyLevel::All, "all"),
    ];

    /// The level spelled `word` (`"local_quorum"`), if any.
    pub fn parse(word: &str) -> Option<ConsistencyLevel> {
        Self::ALL_LEVELS
            .iter()
            .find(|(_, w)| *w == word)
            .map(|(l, _)| *l)
    }

    /// The scenario-file spelling.
    pub fn as_str(self) -> &'static str {
        Self::ALL_LEVELS
            .iter()
            .find(|(l, _)| *l == self)
            .map_or("local_quorum", |(_, w)| *w)
    }

    /// Replicas this level needs at replication factor `rf`.
    ///
    /// ```
    /// use keyheat::store::cassandra::ConsistencyLevel::*;
    /// assert_eq!(One.replicas(3), 1);
    /// assert_eq!(LocalQuorum.replicas(3), 2);
    /// assert_eq!(Quorum.replicas(5), 3);
    /// assert_eq!(Quorum.replicas(4), 3);
    /// assert_eq!(All.replicas(3), 3);
    /// ```
    pub fn replicas(self, rf: usize) -> usize {
        match self {
            ConsistencyLevel::One | ConsistencyLevel::LocalOne => 1,
            ConsistencyLevel::Two => 2,
            ConsistencyLevel::Three => 3,
            ConsistencyLevel::Quorum
            | ConsistencyLevel::LocalQuorum
            | ConsistencyLevel::EachQuorum => rf / 2 + 1,
            ConsistencyLevel::All => rf,
        }
    }
}

/// A token ring: sorted vnode tokens, their owners, and each range's replicas.
#[derive(Debug, Clone, PartialEq)]
pub struct Ring {
    /// Sorted, distinct tokens; range `i` is `(tokens[i−1], tokens[i]]`, range 0 wrapping.
    tokens: Vec<i64>,
    /// `owners[i]`: the node holding `tokens[i]`.
    owners: Vec<usize>,
    /// `replicas[i]`: the nodes holding range `i`, primary (its owner) first.
    replicas: Vec<Vec<usize>>,
    nodes: usize,
}

impl Ring {
    /// Builds the ring of `nodes` nodes with `num_tokens` tokens each and the
    /// replicas of every range (`rf` ≤ `nodes`, 1 ≤ `racks` ≤ `nodes`).
    ///
    /// ```
    /// use keyheat::store::cassandra::{Ring, Strategy, TokenAllocation};
    /// let ring = Ring::new(4, 2, TokenAllocation::Even, 0, 3, Strategy::Simple, 1);
    /// assert_eq!(ring.len(), 8);
    /// assert_eq!(ring.replicas(0), &[0, 1, 2]);
    /// assert_eq!(ring.replicas(7), &[3, 0, 1]);
    /// ```
    pub fn new(
        nodes: usize,
        num_tokens: usize,
        allocation: TokenAllocation,
        seed: u64,
        rf: usize,
        strategy: Strategy,
        racks: usize,
    ) -> Ring {
        let nodes = nodes.max(1);
        let total = nodes * num_tokens.max(1);
        let mut pairs: Vec<(i64, usize)> = match allocation {
            TokenAllocation::Even => (0..total)
                .map(|j| {
                    // t_j = MIN + (j+1)·2⁶⁴/T − 1: the last token is MAX, none is MIN.
                    let step = ((j as u128 + 1) << 64) / total as u128;
                    let t = (i64::MIN as i128 + step as i128 - 1) as i64;
                    (t, j % nodes)
                })
                .collect(),
            TokenAllocation::Random => {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut seen = std::collections::HashSet::with_capacity(total);
                let mut out = Vec::with_capacity(total);
                for node in 0..nodes {
                    let mut drawn = 0;
                    while drawn < num_tokens.max(1) {
                        // As Murmur3Partitioner.getRandomToken: normalize(nextLong()).
                        let t = murmur3::normalize(rng.next_u64() as i64);
                        if seen.insert(t) {
                            out.push((t, node));
                            drawn += 1;
                        }
                    }
                }
                out
            }
        };
        pairs.sort_unstable();
        let tokens: Vec<i64> = pairs.iter().map(|p| p.0).collect();
        let owners: Vec<usize> = pairs.iter().map(|p| p.1).collect();
        let mut ring = Ring {
            tokens,
            owners,
            replicas: Vec::new(),
            nodes,
        };
        let rf = rf.clamp(1, nodes);
        let racks = racks.clamp(1, nodes);
        ring.replicas = (0..ring.len())
            .map(|i| match strategy {
                Strategy::Simple => ring.walk_simple(i, rf),
                Strategy::NetworkTopology => ring.walk_network_topology(i, rf, racks),
            })
            .collect();
        ring
    }

    /// Number of token ranges (nodes × num_tokens).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Always false: a ring has at least one token.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// The range holding `token`: the index of the first ring token ≥ `token`,
    /// wrapping to 0 past the last.
    ///
    /// ```
    /// use keyheat::store::cassandra::{Ring, Strategy, TokenAllocation};
    /// let ring = Ring::new(2, 1, TokenAllocation::Even, 0, 1, Strategy::Simple, 1);
    /// // Tokens: -1 and i64::MAX. (-1, MAX] is range 1; everything else range 0.
    /// assert_eq!(ring.token(0), -1);
    /// assert_eq!(ring.range_of(-1), 0);
    /// assert_eq!(ring.range_of(0), 1);
    /// assert_eq!(ring.range_of(i64::MAX), 1);
    /// assert_eq!(ring.range_of(i64::MIN), 0);
    /// ```
    pub fn range_of(&self, token: i64) -> usize {
        let i = self.tokens.partition_point(|&t| t < token);
        if i == self.tokens.len() {
            0
        } else {
            i
        }
    }

    /// The end token of range `i`.
    pub fn token(&self, i: usize) -> i64 {
        self.tokens.get(i).copied().unwrap_or(murmur3::MAX_TOKEN)
    }

    /// The node owning range `i`.
    pub fn owner(&self, i: usize) -> usize {
        self.owners.get(i).copied().unwrap_or(0)
    }

    /// The replicas of range `i`, primary first.
    pub fn replicas(&self, i: usize) -> &[usize] {
        self.replicas.get(i).map_or(&[], |r| r.as_slice())
    }

    /// Every range's replicas.
    pub fn all_replicas(&self) -> &[Vec<usize>] {
        &self.replicas
    }

    /// Fraction of the token space each range covers (sums to 1).
    pub fn range_widths(&self) -> Vec<f64> {
        let n = self.tokens.len();
        (0..n)
            .map(|i| {
                let prev = self.tokens[(i + n - 1) % n];
                let width = (self.tokens[i] as u64).wrapping_sub(prev as u64);
                if n == 1 || width == 0 {
                    1.0
                } else {
                    width as f64 / 2f64.powi(64)
                }
            })
            .collect()
    }

    /// Each node's share of replica load for uniformly spread keys: Σ over the
    /// ranges it replicates of the range's width, ÷ the replicas per range
    /// (sums to 1; an even ring gives 1/nodes each).
    pub fn replica_shares(&self) -> Vec<f64> {
        let mut share = vec![0.0; self.nodes];
        for (i, w) in self.range_widths().into_iter().enumerate() {
            let reps = self.replicas(i);
            for &n in reps {
                if let Some(s) = share.get_mut(n) {
                    *s += w / reps.len().max(1) as f64;
                }
            }
        }
        share
    }

    fn walk_simple(&self, start: usize, rf: usize) -> Vec<usize> {
        let n = self.len();
        let mut out = Vec::with_capacity(rf);
        for step in 0..n {
            if out.len() == rf {
                break;
            }
            let node = self.owners[(start + step) % n];
            if !out.contains(&node) {
                out.push(node);
            }
        }
        out
    }

    fn walk_network_topology(&self, start: usize, rf: usize, racks: usize) -> Vec<usize> {
        let n = self.len();
        let mut out = Vec::with_capacity(rf);
        let mut seen_racks = vec![false; racks];
        // More replicas than racks: that many nodes of an already used rack are accepted.
        let mut rack_repeats = rf.saturating_sub(racks);
        for step in 0..n {
            if out.len() == rf {
                break;
            }
            let node = self.owners[(start + step) % n];
            if out.contains(&node) {
                continue;
            }
            let rack = node % racks;
            if !seen_racks[rack] {
                seen_racks[rack] = true;
                out.push(node);
            } else if rack_repeats > 0 {
                rack_repeats -= 1;
                out.push(node);
            }
        }
        out
    }
}

/// The Cassandra docs' partition-size estimate ("Evaluating and Refining Data
/// Models", after Chebotko, Kashlev and Lu 2015), for one replica.
///
/// Values (cells): Nv = Nr·(Nc − Npk − Ns) + Ns. Bytes: St = Σ sizeOf(partition
/// key columns) + Σ sizeOf(static columns) + Nr·(Σ sizeOf(regular columns) +
/// Σ sizeOf(clustering columns)) + Nv·sizeOf(t_avg), with t_avg ≈ 8 bytes of
/// cell metadata.
///
/// ```
/// use keyheat::store::cassandra::PartitionShape;
/// // The docs' example: available_rooms_by_hotel_date, one partition per hotel.
/// let p = PartitionShape {
///     rows: 73_000.0, columns: 4, primary_key_columns: 3, static_columns: 0,
///     partition_key_bytes: 5.0, static_bytes: 0.0, row_bytes: 7.0,
///     cell_metadata_bytes: 8.0,
/// };
/// assert_eq!(p.values(), 73_000.0);
/// assert_eq!(p.size_bytes(), 1_095_005.0); // "≈ 1.1 MB"
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionShape {
    /// Nr: rows in the partition.
    pub rows: f64,
    /// Nc: columns of the table.
    pub columns: u32,
    /// Npk: primary key columns (partition key + clustering columns).
    pub primary_key_columns: u32,
    /// Ns: static columns.
    pub static_columns: u32,
    /// Σ sizeOf(partition key columns), bytes.
    pub partition_key_bytes: f64,
    /// Σ sizeOf(static columns), bytes.
    pub static_bytes: f64,
    /// Σ sizeOf(regular + clustering columns) of one row, bytes (keyheat's `item_size`).
    pub row_bytes: f64,
    /// t_avg: metadata bytes per value (8 in the docs).
    pub cell_metadata_bytes: f64,
}

impl PartitionShape {
    /// Nv = Nr·(Nc − Npk − Ns) + Ns (values per row saturate at 0).
    pub fn values(&self) -> f64 {
        let per_row = self
            .columns
            .saturating_sub(self.primary_key_columns)
            .saturating_sub(self.static_columns);
        self.rows * f64::from(per_row) + f64::from(self.static_columns)
    }

    /// St, bytes of one replica of the partition.
    pub fn size_bytes(&self) -> f64 {
        self.partition_key_bytes
            + self.static_bytes
            + self.rows * self.row_bytes
            + self.values() * self.cell_metadata_bytes
    }
}

/// The Cassandra or ScyllaDB store model.
#[derive(Debug, Clone, PartialEq)]
pub struct Cassandra {
    kind: StoreKind,
    nodes: usize,
    num_tokens: usize,
    replication_factor: usize,
    strategy: Strategy,
    racks: usize,
    consistency_read: ConsistencyLevel,
    consistency_write: ConsistencyLevel,
    ring_seed: u64,
    token_allocation: TokenAllocation,
    node_ops_per_s: f64,
    cores_per_node: f64,
    large_partition_warning: f64,
    rows_warning: f64,
    values_warning: Option<f64>,
    columns_per_row: f64,
    item_size_limit: f64,
    /// Bytes one node stores (`node_storage`), if judged.
    node_storage: Option<f64>,
    /// Seconds an expired row stays as a tombstone (`gc_grace`).
    gc_grace_s: f64,
    ring: Ring,
    set: Vec<String>,
}

/// A word setting's value, if given.
impl Cassandra {
    /// Reads the settings of `kind` (Cassandra or ScyllaDB); anything omitted
    /// takes that store's default.
    ///
    /// # Errors
    /// A scenario error naming `store.<key>` when a count is not a whole number
    /// in range, the replication factor exceeds the nodes, the racks exceed the
    /// nodes, or a consistency level needs more replicas than the replication factor.
    pub fn new(kind: StoreKind, s: &Settings) -> Result<Cassandra> {
        let scylla = kind == StoreKind::ScyllaDb;
        let nodes = s.count("nodes").unwrap_or(DEFAULT_NODES);
        let default_tokens = if scylla {
            SCYLLADB_NUM_TOKENS
        } else {
            CASSANDRA_NUM_TOKENS
        };
        let num_tokens = s.count("num_tokens").unwrap_or(default_tokens);
        let replication_factor = s
            .count("replication_factor")
            .unwrap_or(DEFAULT_REPLICATION_FACTOR.min(nodes));
        let racks = s.count("racks").unwrap_or(1);
        let ring_seed = s.number("ring_seed").map_or(0, |x| x as u64);

        if nodes * num_tokens > MAX_RANGES {
            return Err(s.error("num_tokens",
                format!(
                    "{nodes} nodes × {num_tokens} tokens = {} token ranges, more than keyheat models ({MAX_RANGES})",
                    nodes * num_tokens
                ),
                "lower num_tokens or nodes".into(),
            ));
        }
        if replication_factor > nodes {
            return Err(s.error(
                "replication_factor",
                format!("replication_factor {replication_factor} exceeds the {nodes} nodes"),
                format!("set replication_factor to at most {nodes}, or add nodes"),
            ));
        }
        if racks > nodes {
            return Err(s.error(
                "racks",
                format!("{racks} racks for {nodes} nodes leaves racks empty"),
                format!("set racks to at most {nodes}"),
            ));
        }

        let strategy = match s.word("strategy") {
            Some("simple") => Strategy::Simple,
            _ => Strategy::NetworkTopology,
        };
        let token_allocation = match s.word("token_allocation") {
            Some("random") => TokenAllocation::Random,
            Some("even") => TokenAllocation::Even,
            _ if scylla => TokenAllocation::Random,
            _ => TokenAllocation::Even,
        };
        let level = |name: &'static str| -> Result<ConsistencyLevel> {
            let Some(w) = s.word(name) else {
                return Ok(ConsistencyLevel::LocalQuorum);
            };
            // The catalog lists exactly the levels `parse` reads.
            let l = ConsistencyLevel::parse(w).unwrap_or(ConsistencyLevel::LocalQuorum);
            if l.replicas(replication_factor) > replication_factor {
                return Err(s.error(name,
                    format!(
                        "{} needs {} replicas but replication_factor is {replication_factor}",
                        w.to_uppercase(),
                        l.replicas(replication_factor)
                    ),
                    format!("use a level of at most {replication_factor} replicas, e.g. {name} = \"local_quorum\""),
                ));
            }
            Ok(l)
        };
        let consistency_read = level("consistency_read")?;
        let consistency_write = level("consistency_write")?;

        let num =
            |name: &str, default: f64| -> Result<f64> { Ok(s.number(name).unwrap_or(default)) };
        let cores_per_node = if scylla {
            num("cores_per_node", SCYLLADB_CORES_PER_NODE)?
        } else {
            0.0
        };
        let node_ops_per_s = num(
            "node_ops_per_s",
            if scylla {
                SCYLLADB_OPS_PER_CORE * cores_per_node
            } else {
                CASSANDRA_NODE_OPS_PER_S
            },
        )?;
        let large_partition_warning = num(
            "large_partition_warning",
            if scylla {
                SCYLLADB_LARGE_PARTITION_BYTES
            } else {
                CASSANDRA_LARGE_PARTITION_BYTES
            },
        )?;
        let columns_per_row = num("columns_per_row", 1.0)?;
        let values_warning = if scylla {
            None
        } else {
            Some(num("values_warning", CASSANDRA_VALUES_WARNING)?)
        };
        let rows_warning = num(
            "rows_warning",
            match values_warning {
                Some(v) => (v / columns_per_row).floor().max(1.0),
                None => SCYLLADB_ROWS_WARNING,
            },
        )?;
        let item_size_limit = num(
            "item_size_limit",
            if scylla {
                SCYLLADB_LARGE_ROW_BYTES
            } else {
                CASSANDRA_MAX_MUTATION_BYTES
            },
        )?;

        let ring = Ring::new(
            nodes,
            num_tokens,
            token_allocation,
            ring_seed,
            replication_factor,
            strategy,
            racks,
        );
        Ok(Cassandra {
            kind,
            nodes,
            num_tokens,
            replication_factor,
            strategy,
            racks,
            consistency_read,
            consistency_write,
            ring_seed,
            token_allocation,
            node_ops_per_s,
            cores_per_node,
            large_partition_warning,
            rows_warning,
            values_warning,
            columns_per_row,
            item_size_limit,
            node_storage: s.node_storage()?,
            gc_grace_s: num("gc_grace", GC_GRACE_SECONDS)?,
            ring,
            set: s.given(),
        })
    }

    /// The token ring.
    pub fn ring(&self) -> &Ring {
        &self.ring
    }

    /// ScyllaDB's core per key: `node_ops_per_s` ÷ `cores_per_node` (12,500
    /// ops/s by default); none on Cassandra, whose thread pools serve one
    /// partition from every core.
    fn key_shard(&self) -> Option<super::KeyShard> {
        (self.kind == StoreKind::ScyllaDb && self.cores_per_node >= 1.0).then(|| super::KeyShard {
            ops_per_s: self.node_ops_per_s / self.cores_per_node,
            shards_per_node: self.cores_per_node,
            nodes: self.nodes as f64,
            replicas: self.replication_factor as f64,
            read_replicas: self.read_replicas() as f64,
        })
    }

    /// Replicas a read contacts at `consistency_read`.
    pub fn read_replicas(&self) -> usize {
        self.consistency_read
            .replicas(self.replication_factor)
            .clamp(1, self.replication_factor)
    }

    /// Replicas that acknowledge a write at `consistency_write` (every replica
    /// still receives it).
    pub fn write_acks(&self) -> usize {
        self.consistency_write
            .replicas(self.replication_factor)
            .clamp(1, self.replication_factor)
    }

    /// Rows one partition may hold before the store warns: ScyllaDB's
    /// `compaction_rows_count_warning_threshold` (100,000 rows); Cassandra's
    /// guidance of 100,000 values ÷ `columns_per_row`. `None` never happens
    /// today; the `Option` leaves room for stores without one.
    ///
    /// The engine checks item-collection bytes only. To use this, it must
    /// project each key's row count (items) to the horizon — it already does
    /// for bytes — and report the day a partition's rows first exceed this
    /// limit as a `partition_size` breach (or a `partition_rows` check),
    /// through a `StoreModel` method returning this value.
    pub fn partition_rows_limit(&self) -> Option<f64> {
        Some(self.rows_warning)
    }

    /// Bytes the store adds to every row beyond keyheat's `item_size` (the
    /// row's column bytes): 8 bytes of cell metadata × `columns_per_row`
    /// values (the docs' Nv·t_avg term). The engine must add this to every
    /// row it counts into an item collection's bytes; until it does, a
    /// scenario's `item_size` should include it.
    pub fn row_overhead_bytes(&self) -> f64 {
        CELL_METADATA_BYTES * self.columns_per_row
    }

    /// The token of a partition-key string (its UTF-8 bytes).
    pub fn token_of(key: &str) -> i64 {
        murmur3::token(key.as_bytes())
    }

    fn was_set(&self, name: &str) -> bool {
        self.set.iter().any(|x| x == name)
    }

    fn scylla(&self) -> bool {
        self.kind == StoreKind::ScyllaDb
    }
}

impl StoreModel for Cassandra {
    fn kind(&self) -> StoreKind {
        self.kind
    }

    /// Cassandra rejects a mutation over `max_mutation_size` (half the
    /// commit log segment: 16 MiB); ScyllaDB's ceiling is its large-row
    /// warning threshold.
    fn item_limit_rejects_writes(&self) -> bool {
        !self.scylla()
    }

    /// ScyllaDB pins each partition key to one core of each replica
    /// ([`super::KeyShard`]).
    fn key_limits(&self, _table: &TableDemand) -> super::KeyLimits {
        super::KeyLimits {
            key_shard: self.key_shard(),
            ..Default::default()
        }
    }

    fn partition_rows_limit(&self) -> Option<f64> {
        Cassandra::partition_rows_limit(self)
    }

    fn row_overhead_bytes(&self) -> f64 {
        Cassandra::row_overhead_bytes(self)
    }

    /// A node's stored bytes are judged when `node_storage` is set: every
    /// replica of a partition on its node, nothing added per key (a row's
    /// cell overhead is in its item size).
    fn key_overhead_bytes(&self) -> Option<f64> {
        self.node_storage.map(|_| 0.0)
    }

    fn node_storage_check(&self) -> &'static str {
        "node_storage"
    }

    fn expired_retention_s(&self) -> f64 {
        self.gc_grace_s
    }

    fn unit_names(&self) -> (&'static str, &'static str) {
        ("ops", "ops")
    }

    fn layout(&self, _table: &TableDemand) -> TableLayout {
        TableLayout {
            partitions: self.ring.len(),
            read_limit_per_s: None,
            write_limit_per_s: None,
            combined_limit_per_s: None,
            item_collection_limit_bytes: Some(self.large_partition_warning),
            item_size_limit_bytes: Some(self.item_size_limit),
            nodes: Some(NodeLayout {
                label: "node",
                nodes: self.nodes,
                replicas: self.ring.all_replicas().iter().cloned().collect(),
                read_replicas: self.read_replicas(),
                read_limit_per_s: None,
                write_limit_per_s: None,
                combined_limit_per_s: Some(self.node_ops_per_s),
                memory_limit_bytes: self.node_storage,
            }),
        }
    }

    /// The token range holding the key's token. When `partitions` is not the
    /// ring's range count (a caller's own split), the token space is cut into
    /// `partitions` equal ranges instead.
    fn place(&self, key: &str, partitions: usize) -> usize {
        let token = Self::token_of(key);
        if partitions == self.ring.len() {
            self.ring.range_of(token)
        } else {
            // Shift so MIN_TOKEN → 0, keeping token order.
            super::hash::range_of((token as u64) ^ (1 << 63), partitions.max(1))
        }
    }

    /// Murmur3 tokens of distinct keys are independent and uniform over the
    /// token space: a key lands in a token range with the range's width.
    fn spread_of_distinct_keys(&self, partitions: usize) -> Option<super::KeySpread> {
        Some(if partitions == self.ring.len() {
            super::KeySpread::Shares(self.ring.range_widths())
        } else {
            super::KeySpread::Uniform
        })
    }

    fn read_cost(&self, _op: Operation, consistency: Consistency, _bytes: f64, _items: f64) -> f64 {
        match consistency {
            Consistency::Transactional => SERIAL_READ_OPS,
            _ => 1.0,
        }
    }

    fn write_cost(&self, _op: Operation, consistency: Consistency, _bytes: f64) -> f64 {
        match consistency {
            Consistency::Transactional => LWT_WRITE_OPS,
            _ => 1.0,
        }
    }

    fn describe_placement(&self, key: &str, _table: &TableDemand) -> String {
        let token = Self::token_of(key);
        let range = self.ring.range_of(token);
        let replicas: Vec<String> = self
            .ring
            .replicas(range)
            .iter()
            .map(|n| n.to_string())
            .collect();
        format!(
            "token={token} range={range} replicas={}",
            replicas.join(",")
        )
    }

    fn figures(&self) -> Vec<Figure> {
        let mut out = self.ring_figures();
        out.extend(self.replication_figures());
        out.extend(self.limit_and_size_figures());
        out
    }
}

impl Cassandra {
    /// Placement: the token ring, its vnodes and the load share they give each node.
    fn ring_figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let shares = self.ring.replica_shares();
        let max_share = shares.iter().copied().fold(0.0, f64::max);
        let min_share = shares.iter().copied().fold(1.0, f64::min);
        let even_share = 1.0 / self.nodes as f64;
        vec![
            f(
                "placement",
                "token = MurmurHash3 x64 128 (seed 0, Java's signed tail bytes) of the key's UTF-8 bytes, first half as i64; range (t_prev, t] belongs to the node holding t".into(),
                "Cassandra source: dht/Murmur3Partitioner.java, utils/MurmurHash.java",
                false,
            ),
            f("nodes", self.nodes.to_string(), "keyheat default", true),
            f(
                "num_tokens",
                format!("{} vnodes per node", self.num_tokens),
                if self.scylla() {
                    "scylla.yaml as shipped: num_tokens: 256"
                } else {
                    "cassandra.yaml: num_tokens 16 since Cassandra 4.0 (256 before)"
                },
                false,
            ),
            f(
                "partitions",
                format!(
                    "{} token ranges (nodes × num_tokens)",
                    exact(self.ring.len() as f64)
                ),
                "keyheat: one partition per token range",
                false,
            ),
            f(
                "token_allocation",
                match self.token_allocation {
                    TokenAllocation::Random => format!("random tokens, ring_seed {}", self.ring_seed),
                    TokenAllocation::Even => "evenly spaced tokens dealt to nodes in turn".into(),
                },
                if self.scylla() {
                    "ScyllaDB vnodes take random tokens (an assumption: keyheat's draw, not ScyllaDB's)"
                } else {
                    "stands for Cassandra 4.0's allocate_tokens_for_local_replication_factor (an idealised even ring)"
                },
                true,
            ),
            figure(
                "replica load share per node",
                format!(
                    "min {:.2}%, max {:.2}% (even ring: {:.2}%)",
                    min_share * 100.0,
                    max_share * 100.0,
                    even_share * 100.0
                ),
                false,
                "computed from the ring: share of uniformly spread keys each node replicates",
                false,
            ),
        ]
    }

    /// Replication and consistency levels.
    fn replication_figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        vec![
            f(
                "replication_factor",
                self.replication_factor.to_string(),
                "keyheat default: 3 (typical; set per keyspace), capped at the node count",
                true,
            ),
            f(
                "strategy",
                match self.strategy {
                    Strategy::Simple => "SimpleStrategy: next RF distinct nodes clockwise".into(),
                    Strategy::NetworkTopology => format!(
                        "NetworkTopologyStrategy, one data centre, {} rack(s), node n in rack n mod racks",
                        self.racks
                    ),
                },
                "Cassandra source: locator/SimpleStrategy.java, locator/NetworkTopologyStrategy.java",
                false,
            ),
            f(
                "consistency_read",
                format!(
                    "{}: {} of {} replicas per read",
                    self.consistency_read.as_str().to_uppercase(),
                    self.read_replicas(),
                    self.replication_factor
                ),
                "keyheat default LOCAL_QUORUM; counts per the CQL consistency levels (QUORUM = ⌊RF/2⌋ + 1)",
                true,
            ),
            f(
                "consistency_write",
                format!(
                    "{}: {} acknowledgements; every write still reaches all {} replicas",
                    self.consistency_write.as_str().to_uppercase(),
                    self.write_acks(),
                    self.replication_factor
                ),
                "keyheat default LOCAL_QUORUM; Cassandra docs, 'Dynamo' architecture: writes go to all replicas",
                true,
            ),
        ]
    }

    /// Node throughput, capacity units, and the size and row warnings.
    fn limit_and_size_figures(&self) -> Vec<Figure> {
        let f = |name: &'static str, value: String, source: &str, assumption: bool| {
            figure(name, value, self.was_set(name), source, assumption)
        };
        let mut out = vec![
            f(
                "gc_grace",
                format!(
                    "{} s ({}): a row whose ttl has passed stays stored as a tombstone, in its partition's rows and bytes and its nodes' storage, for ttl + gc_grace",
                    exact(self.gc_grace_s),
                    crate::format::duration(self.gc_grace_s)
                ),
                "CQL table option gc_grace_seconds, default 864000 (Cassandra docs 'Compaction: tombstones': expired TTL data becomes a tombstone, purged by compaction after gc_grace_seconds; ScyllaDB's default tombstone_gc mode 'timeout' uses it); an upper bound at full size until the compaction that rewrites the cell",
                false,
            ),
            f(
                "node_ops_per_s",
                format!("{} replica ops/s per node", exact(self.node_ops_per_s)),
                if self.scylla() {
                    "ASSUMPTION: 12,500 ops/s per physical core (ScyllaDB docs, 'Maximizing ScyllaDB Performance': at least 12.5K ops/s per core for simple operations) × cores_per_node"
                } else {
                    "ASSUMPTION (no published figure): rounded down from Netflix's 2011 benchmark, 3.3 M replica writes/s on 288 nodes ≈ 11,500 per node"
                },
                true,
            ),
            f(
                "capacity units",
                "1 op per replica per request (a multi-row query is 1 op); LWT write 4 ops (Paxos round trips), SERIAL read 2".into(),
                "keyheat ASSUMPTION: ops = requests at each replica",
                true,
            ),
            f(
                "large_partition_warning",
                format!(
                    "{} bytes ({})",
                    exact(self.large_partition_warning),
                    if self.scylla() { "1000 MiB" } else { "100 MiB" }
                ),
                if self.scylla() {
                    "scylla.yaml compaction_large_partition_warning_threshold_mb: 1000 (× 1024 × 1024), ScyllaDB docs 'Large Partitions Table'"
                } else {
                    "cassandra.yaml compaction_large_partition_warning_threshold_mb: 100 (× 1024 × 1024; ≤ 4.0, 100MiB in 4.1); docs: keep partitions < 100 MB"
                },
                false,
            ),
            f(
                "rows_warning",
                format!("{} rows per partition", exact(self.rows_warning)),
                if self.scylla() {
                    "scylla.yaml compaction_rows_count_warning_threshold: 100000"
                } else {
                    "Cassandra docs, 'Evaluating and Refining Data Models': < 100,000 values per partition, ÷ columns_per_row"
                },
                false,
            ),
            f(
                "columns_per_row",
                format!(
                    "{} values per row, + {} bytes of cell metadata per row",
                    exact(self.columns_per_row),
                    exact(self.row_overhead_bytes())
                ),
                "Cassandra docs partition-size formula: Nv = Nr·(Nc − Npk − Ns) + Ns, t_avg ≈ 8 bytes per value",
                true,
            ),
            f(
                "item_size_limit",
                format!(
                    "{} bytes ({})",
                    exact(self.item_size_limit),
                    if self.scylla() { "10 MiB" } else { "16 MiB" }
                ),
                if self.scylla() {
                    "scylla.yaml compaction_large_row_warning_threshold_mb: 10 (a warning, not a rejection)"
                } else {
                    "Cassandra max_mutation_size = commitlog_segment_size (32 MiB) / 2: larger writes are rejected"
                },
                false,
            ),
            figure(
                "cells per partition, hard limit",
                "2,000,000,000".into(),
                false,
                "Cassandra docs, 'Evaluating and Refining Data Models'",
                false,
            ),
        ];
        if let Some(v) = self.values_warning {
            out.push(f(
                "values_warning",
                format!("{} values per partition", exact(v)),
                "ASSUMPTION: a rule of thumb, not a Cassandra limit or log warning (DataStax docs, 'Calculating partition size': < 100,000 values and < 100 MB); the hard limit is 2 billion cells",
                true,
            ));
        }
        out.extend(super::node_storage_figure(
            self.node_storage,
            self.stored_copies(),
        ));
        if self.scylla() {
            out.push(f(
                "cores_per_node",
                exact(self.cores_per_node),
                "keyheat ASSUMPTION: physical cores per ScyllaDB node",
                true,
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::SettingValue;

    fn model_with(kind: StoreKind, pairs: &[(&str, SettingValue)]) -> Result<Cassandra> {
        Settings::of(kind, pairs).and_then(|s| Cassandra::new(kind, &s))
    }

    fn n(x: f64) -> SettingValue {
        SettingValue::Number(x)
    }

    fn w(x: &str) -> SettingValue {
        SettingValue::Text(x.into())
    }

    fn table() -> TableDemand {
        TableDemand {
            name: "t".into(),
            initial_bytes: 0.0,
            has_local_index: false,
        }
    }

    #[test]
    fn defaults_follow_the_published_figures() {
        let c = model_with(StoreKind::Cassandra, &[]).unwrap();
        let l = c.layout(&table());
        assert_eq!(l.partitions, 6 * 16);
        assert_eq!(l.item_collection_limit_bytes, Some(104_857_600.0));
        assert_eq!(l.item_size_limit_bytes, Some(16_777_216.0));
        assert_eq!(l.read_limit_per_s, None);
        assert_eq!(l.combined_limit_per_s, None);
        let nodes = l.nodes.unwrap();
        assert_eq!(nodes.nodes, 6);
        assert_eq!(nodes.read_replicas, 2); // LOCAL_QUORUM of RF 3
        assert_eq!(nodes.combined_limit_per_s, Some(10_000.0));
        assert!(nodes.replicas.iter().all(|r| r.len() == 3));
        assert_eq!(c.partition_rows_limit(), Some(100_000.0));
        assert_eq!(c.row_overhead_bytes(), 8.0);

        let s = model_with(StoreKind::ScyllaDb, &[]).unwrap();
        let l = s.layout(&table());
        assert_eq!(l.partitions, 6 * 256);
        assert_eq!(l.item_collection_limit_bytes, Some(1_048_576_000.0));
        assert_eq!(l.nodes.unwrap().combined_limit_per_s, Some(100_000.0));
        assert_eq!(s.partition_rows_limit(), Some(100_000.0));
        assert_eq!(s.kind(), StoreKind::ScyllaDb);
    }

    #[test]
    fn rows_warning_follows_values_and_columns_for_cassandra() {
        let c = model_with(StoreKind::Cassandra, &[("columns_per_row", n(4.0))]).unwrap();
        assert_eq!(c.partition_rows_limit(), Some(25_000.0));
        assert_eq!(c.row_overhead_bytes(), 32.0);
        let c = model_with(StoreKind::Cassandra, &[("rows_warning", n(5.0))]).unwrap();
        assert_eq!(c.partition_rows_limit(), Some(5.0));
    }

    #[test]
    fn even_ring_has_equal_ranges_and_rotating_replicas() {
        let ring = Ring::new(12, 16, TokenAllocation::Even, 0, 3, Strategy::Simple, 1);
        assert_eq!(ring.len(), 192);
        let widths = ring.range_widths();
        for w in &widths {
            assert!((w - 1.0 / 192.0).abs() < 1e-12);
        }
        for i in 0..ring.len() {
            let o = ring.owner(i);
            assert_eq!(ring.replicas(i), &[o, (o + 1) % 12, (o + 2) % 12]);
        }
        for s in ring.replica_shares() {
            assert!((s - 1.0 / 12.0).abs() < 1e-12);
        }
        assert_eq!(ring.token(191), i64::MAX);
    }

    #[test]
    fn random_ring_is_seeded_and_uneven_with_few_tokens() {
        let a = Ring::new(6, 4, TokenAllocation::Random, 7, 3, Strategy::Simple, 1);
        let b = Ring::new(6, 4, TokenAllocation::Random, 7, 3, Strategy::Simple, 1);
        let c = Ring::new(6, 4, TokenAllocation::Random, 8, 3, Strategy::Simple, 1);
        assert_eq!(a, b);
        assert_ne!(a.tokens, c.tokens);
        assert!(a.tokens.windows(2).all(|p| p[0] < p[1]));
        let total: f64 = a.range_widths().iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        let shares = a.replica_shares();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let max = shares.iter().copied().fold(0.0, f64::max);
        assert!(
            max > 1.0 / 6.0 + 0.005,
            "4 random tokens per node should be uneven: {shares:?}"
        );
    }

    #[test]
    fn network_topology_prefers_distinct_racks() {
        // 6 nodes, 3 racks: node n in rack n % 3. Random ring so neighbours share racks.
        let ring = Ring::new(
            6,
            8,
            TokenAllocation::Random,
            3,
            3,
            Strategy::NetworkTopology,
            3,
        );
        for i in 0..ring.len() {
            let r = ring.replicas(i);
            assert_eq!(r.len(), 3);
            let mut racks: Vec<usize> = r.iter().map(|n| n % 3).collect();
            racks.sort_unstable();
            assert_eq!(racks, vec![0, 1, 2], "range {i}: {r:?}");
            assert_eq!(r[0], ring.owner(i));
        }
        // 2 racks, RF 3: both racks used, one repeated.
        let ring = Ring::new(
            6,
            8,
            TokenAllocation::Random,
            3,
            3,
            Strategy::NetworkTopology,
            2,
        );
        for i in 0..ring.len() {
            let r = ring.replicas(i);
            assert_eq!(r.len(), 3);
            assert!(r.iter().any(|n| n % 2 == 0) && r.iter().any(|n| n % 2 == 1));
        }
        // One rack: the same as SimpleStrategy.
        let a = Ring::new(
            5,
            8,
            TokenAllocation::Random,
            9,
            3,
            Strategy::NetworkTopology,
            1,
        );
        let b = Ring::new(5, 8, TokenAllocation::Random, 9, 3, Strategy::Simple, 1);
        assert_eq!(a.all_replicas(), b.all_replicas());
    }

    #[test]
    fn network_topology_skips_a_used_rack_exactly_as_cassandra() {
        // Hand-built walk: owners clockwise 0,2,1 with racks n % 2 → racks 0,0,1.
        // RF 2, 2 racks: node 0 (rack 0), skip node 2 (rack 0 again, no repeats
        // allowed), take node 1 (rack 1).
        let ring = Ring {
            tokens: vec![-10, 0, 10],
            owners: vec![0, 2, 1],
            replicas: vec![],
            nodes: 3,
        };
        assert_eq!(ring.walk_network_topology(0, 2, 2), vec![0, 1]);
        assert_eq!(ring.walk_simple(0, 2), vec![0, 2]);
        // RF 3 over 2 racks: one repeat allowed, taken at the first chance.
        assert_eq!(ring.walk_network_topology(0, 3, 2), vec![0, 2, 1]);
    }

    #[test]
    fn placement_is_the_range_holding_the_token() {
        let c = model_with(StoreKind::Cassandra, &[("nodes", n(12.0))]).unwrap();
        let parts = c.layout(&table()).partitions;
        for key in ["CHANNEL#1", "CHANNEL#12345#7", "123", "café"] {
            let t = Cassandra::token_of(key);
            let r = c.place(key, parts);
            let ring = c.ring();
            assert!(t <= ring.token(r), "{key}");
            if r > 0 {
                assert!(t > ring.token(r - 1), "{key}");
            } else {
                assert!(t > ring.token(ring.len() - 1) || t <= ring.token(0));
            }
        }
        // "123" hashes to -7468325962851647638 (python-driver's published value).
        let d = c.describe_placement("123", &table());
        assert!(d.starts_with("token=-7468325962851647638 range="), "{d}");
        assert_eq!(d.split("replicas=").nth(1).unwrap().split(',').count(), 3);
        // Another partition count: equal token ranges.
        assert_eq!(c.place("123", 2), 0);
    }

    #[test]
    fn costs_are_replica_ops() {
        let c = model_with(StoreKind::Cassandra, &[]).unwrap();
        assert_eq!(c.unit_names(), ("ops", "ops"));
        assert_eq!(
            c.read_cost(Operation::Query, Consistency::Eventual, 50_000.0, 20.0),
            1.0
        );
        assert_eq!(
            c.write_cost(Operation::Put, Consistency::Strong, 1_000.0),
            1.0
        );
        assert_eq!(
            c.write_cost(Operation::Put, Consistency::Transactional, 1_000.0),
            4.0
        );
        assert_eq!(
            c.read_cost(Operation::Get, Consistency::Transactional, 1_000.0, 1.0),
            2.0
        );
    }

    #[test]
    fn consistency_levels_set_read_replicas() {
        let c = model_with(
            StoreKind::Cassandra,
            &[
                ("replication_factor", n(5.0)),
                ("nodes", n(5.0)),
                ("consistency_read", w("one")),
                ("consistency_write", w("all")),
            ],
        )
        .unwrap();
        assert_eq!(c.read_replicas(), 1);
        assert_eq!(c.write_acks(), 5);
        let c = model_with(StoreKind::Cassandra, &[("consistency_read", w("quorum"))]).unwrap();
        assert_eq!(c.read_replicas(), 2);
        // CQL's own spelling (`CONSISTENCY QUORUM`) reads the same.
        let c = model_with(
            StoreKind::Cassandra,
            &[
                ("consistency_read", w("ONE")),
                ("consistency_write", w("Quorum")),
            ],
        )
        .unwrap();
        assert_eq!((c.read_replicas(), c.write_acks()), (1, 2));
        // One data centre: LOCAL_ONE is one replica, EACH_QUORUM a quorum
        // of RF 3 (a new user's LOCAL_ONE was refused).
        let c = model_with(
            StoreKind::Cassandra,
            &[
                ("consistency_read", w("LOCAL_ONE")),
                ("consistency_write", w("each_quorum")),
            ],
        )
        .unwrap();
        assert_eq!((c.read_replicas(), c.write_acks()), (1, 2));
    }

    #[test]
    fn bad_settings_name_the_key() {
        let e = |pairs: &[(&str, SettingValue)]| {
            model_with(StoreKind::Cassandra, pairs)
                .unwrap_err()
                .to_string()
        };
        assert!(e(&[("nodes", n(2.0)), ("replication_factor", n(3.0))])
            .contains("store.replication_factor"));
        assert!(e(&[("nodes", n(2.5))]).contains("store.nodes"));
        assert!(e(&[("num_tokens", n(2000.0))]).contains("store.num_tokens"));
        assert!(e(&[("racks", n(7.0))]).contains("store.racks"));
        assert!(e(&[
            ("replication_factor", n(2.0)),
            ("consistency_read", w("three"))
        ])
        .contains("store.consistency_read"));
        assert!(e(&[("ring_seed", n(-1.0))]).contains("store.ring_seed"));
        assert!(e(&[("node_ops_per_s", n(0.0))]).contains("store.node_ops_per_s"));
    }

    #[test]
    fn partition_shape_reproduces_the_docs_example() {
        // Cassandra docs, "Evaluating and Refining Data Models":
        // available_rooms_by_hotel_date, Nc = 4, Npk = 3, Ns = 0, 100 rooms × 730 days.
        let p = PartitionShape {
            rows: 100.0 * 730.0,
            columns: 4,
            primary_key_columns: 3,
            static_columns: 0,
            partition_key_bytes: 5.0, // hotel_id text, 5-character codes
            static_bytes: 0.0,
            row_bytes: 4.0 + 2.0 + 1.0, // date + room_number (smallint) + is_available
            cell_metadata_bytes: CELL_METADATA_BYTES,
        };
        assert_eq!(p.values(), 73_000.0);
        // 5 + 0 + 511,000 (0.51 MB) + 584,000 (0.58 MB) = 1,095,005 B ≈ 1.1 MB.
        // (The docs' final line writes the key term as "16 bytes"; its text says 5.)
        assert_eq!(p.size_bytes(), 1_095_005.0);
        // A static column adds one value: Nv = Nr·(5 − 3 − 1) + 1.
        let q = PartitionShape {
            columns: 5,
            static_columns: 1,
            static_bytes: 8.0,
            ..p
        };
        assert_eq!(q.values(), 73_001.0);
        assert_eq!(q.size_bytes(), 5.0 + 8.0 + 511_000.0 + 73_001.0 * 8.0);
    }

    #[test]
    fn c01_unbucketed_channel_crosses_the_warning_in_about_38_days() {
        // 1M messages/year of 1 KB (+ 8 B metadata, one value per row).
        let c = model_with(StoreKind::Cassandra, &[]).unwrap();
        let per_day = 1e6 / 365.0 * (1000.0 + c.row_overhead_bytes());
        let days = CASSANDRA_LARGE_PARTITION_BYTES / per_day;
        assert!((days - 37.97).abs() < 0.05, "{days}");
        // At 100 MB (10^8 B, the docs' wording) it is ≈ 36 days, as case C01 says.
        let days_at_100_mb: f64 = 1e8 / (1e6 / 365.0 * 1000.0);
        assert!((days_at_100_mb - 36.5).abs() < 0.01);
    }

    #[test]
    fn figures_label_assumptions() {
        let c = model_with(StoreKind::Cassandra, &[("nodes", n(12.0))]).unwrap();
        let figs = c.figures();
        let get = |name: &str| figs.iter().find(|f| f.name == name).unwrap();
        assert!(get("node_ops_per_s").assumption);
        assert!(!get("large_partition_warning").assumption);
        assert_eq!(get("nodes").source, "scenario");
        assert!(get("large_partition_warning")
            .value
            .starts_with("104,857,600 bytes"));
        let s = model_with(StoreKind::ScyllaDb, &[]).unwrap();
        let figs = s.figures();
        assert!(figs.iter().any(|f| f.name == "cores_per_node"));
        assert!(figs.iter().all(|f| f.name != "values_warning"));
    }
}
